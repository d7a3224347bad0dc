/* The SIMD twin of pb_anim_euler_scalar, written once over simd4.h and
 * compiled as pb_anim_euler_sse2 or _neon: four rotations in lanes, their
 * angles read as rows (the sampler's curves write them there), two groups
 * of four per step so their long dependency chains (the sine and cosine
 * polynomials, the composition, the normalization) overlap.  Per lane the
 * scalar reference's operations in its order: the angle's range check as
 * a mask (NaN and |d| > 1e7 read as +0), the whole turn removed by adding
 * and removing 1.5 * 2^23, Horner's rule, q = qz qy qx, the squared length
 * in pb_quat_normalize4's order.  A group whose lengths are all near unit
 * (always, for finite angles) takes pb_quat_inv_length's two Newton steps
 * in lanes; any other goes lane by lane through pb_quat_normalize4 itself.
 * Then the four quaternions are transposed and stored whole. */
#include "kernels.h"

#if defined(PLUMBOB_PORT_SSE2) || defined(PLUMBOB_PORT_NEON)
#include "simd4.h"

/* pb_half_angle_sin_cos (core/base/pb_curve.h) in four lanes. */
PB_FORCE_INLINE void anim_half4(pb_v4 deg, pb_v4 *s, pb_v4 *c) {
    pb_m4 in = pb_m4_and(pb_v4_ge(deg, pb_v4_set1(-1e7f)), pb_v4_le(deg, pb_v4_set1(1e7f)));
    pb_v4 d = pb_v4_and(in, deg), r, x, x2, p;
    r = pb_v4_sub(pb_v4_add(pb_v4_mul(d, pb_v4_set1(1.0f / 360.0f)), pb_v4_set1(12582912.0f)), pb_v4_set1(12582912.0f));
    d = pb_v4_sub(d, pb_v4_mul(pb_v4_set1(360.0f), r));
    x = pb_v4_mul(d, pb_v4_set1(3.14159265358979f / 360.0f));
    x2 = pb_v4_mul(x, x);
    p = pb_v4_add(pb_v4_set1(2.75573192e-6f), pb_v4_mul(x2, pb_v4_set1(-2.50521084e-8f)));
    p = pb_v4_add(pb_v4_set1(-1.98412698e-4f), pb_v4_mul(x2, p));
    p = pb_v4_add(pb_v4_set1(8.33333333e-3f), pb_v4_mul(x2, p));
    p = pb_v4_add(pb_v4_set1(-1.66666667e-1f), pb_v4_mul(x2, p));
    *s = pb_v4_add(x, pb_v4_mul(pb_v4_mul(x, x2), p));
    p = pb_v4_add(pb_v4_set1(-2.75573192e-7f), pb_v4_mul(x2, pb_v4_set1(2.08767570e-9f)));
    p = pb_v4_add(pb_v4_set1(2.48015873e-5f), pb_v4_mul(x2, p));
    p = pb_v4_add(pb_v4_set1(-1.38888889e-3f), pb_v4_mul(x2, p));
    p = pb_v4_add(pb_v4_set1(4.16666667e-2f), pb_v4_mul(x2, p));
    p = pb_v4_add(pb_v4_set1(-0.5f), pb_v4_mul(x2, p));
    *c = pb_v4_add(pb_v4_set1(1.0f), pb_v4_mul(x2, p));
}

/* n (1..4) rotations whose angle rows start at ax, ay, az (four floats
 * readable in each) into out + stride * slot[l]. */
PB_FORCE_INLINE void anim_euler_group(const float *ax, const float *ay, const float *az, const uint32_t *slot,
                                      uint32_t n, float *out, size_t stride) {
    pb_v4 sx, cx, sy, cy, sz, cz, czcy, szsy, czsy, szcy, x, y, z, w, len2;
    uint32_t l;
    anim_half4(pb_v4_loadu(ax), &sx, &cx);
    anim_half4(pb_v4_loadu(ay), &sy, &cy);
    anim_half4(pb_v4_loadu(az), &sz, &cz);
    czcy = pb_v4_mul(cz, cy);
    szsy = pb_v4_mul(sz, sy);
    czsy = pb_v4_mul(cz, sy);
    szcy = pb_v4_mul(sz, cy);
    w = pb_v4_add(pb_v4_mul(czcy, cx), pb_v4_mul(szsy, sx));
    x = pb_v4_sub(pb_v4_mul(czcy, sx), pb_v4_mul(szsy, cx));
    y = pb_v4_add(pb_v4_mul(czsy, cx), pb_v4_mul(szcy, sx));
    z = pb_v4_sub(pb_v4_mul(szcy, cx), pb_v4_mul(czsy, sx));
    len2 = pb_v4_add(pb_v4_add(pb_v4_add(pb_v4_mul(x, x), pb_v4_mul(y, y)), pb_v4_mul(z, z)), pb_v4_mul(w, w));
    if (pb_m4_bits(pb_m4_and(pb_v4_gt(len2, pb_v4_set1(0.99f)), pb_v4_lt(len2, pb_v4_set1(1.01f)))) == 15u) {
        pb_v4 h = pb_v4_mul(pb_v4_set1(0.5f), len2), inv = pb_v4_sub(pb_v4_set1(1.5f), h);
        inv = pb_v4_mul(inv, pb_v4_sub(pb_v4_set1(1.5f), pb_v4_mul(pb_v4_mul(h, inv), inv)));
        x = pb_v4_mul(x, inv);
        y = pb_v4_mul(y, inv);
        z = pb_v4_mul(z, inv);
        w = pb_v4_mul(w, inv);
        pb_v4_transpose(&x, &y, &z, &w);
        pb_v4_store(out + stride * slot[0], x);
        if (n > 1u) pb_v4_store(out + stride * slot[1], y);
        if (n > 2u) pb_v4_store(out + stride * slot[2], z);
        if (n > 3u) pb_v4_store(out + stride * slot[3], w);
        return;
    }
    pb_v4_transpose(&x, &y, &z, &w);
    for (l = 0; l < n; l++) {
        float q[4], *o = out + stride * slot[l];
        pb_v4_store(q, l == 0 ? x : l == 1 ? y : l == 2 ? z : w);
        pb_quat_normalize4(q);
        o[0] = q[0];
        o[1] = q[1];
        o[2] = q[2];
        o[3] = q[3];
    }
}

#if defined(PLUMBOB_PORT_SSE2)
void pb_anim_euler_sse2(const float *angles, uint32_t count, const uint32_t *slot, float *out, size_t stride)
#else
void pb_anim_euler_neon(const float *angles, uint32_t count, const uint32_t *slot, float *out, size_t stride)
#endif
{
    const float *ay = angles + count, *az = angles + 2u * count;
    uint32_t i = 0;
    for (; i + 8u <= count; i += 8u) {
        anim_euler_group(angles + i, ay + i, az + i, slot + i, 4u, out, stride);
        anim_euler_group(angles + i + 4u, ay + i + 4u, az + i + 4u, slot + i + 4u, 4u, out, stride);
    }
    if (i + 4u <= count) {
        anim_euler_group(angles + i, ay + i, az + i, slot + i, 4u, out, stride);
        i += 4u;
    }
    if (i < count) { /* the last one to three, padded with zero angles */
        float tx[4] = {0.0f, 0.0f, 0.0f, 0.0f}, ty[4] = {0.0f, 0.0f, 0.0f, 0.0f}, tz[4] = {0.0f, 0.0f, 0.0f, 0.0f};
        uint32_t l, n = count - i;
        for (l = 0; l < n; l++) {
            tx[l] = angles[i + l];
            ty[l] = ay[i + l];
            tz[l] = az[i + l];
        }
        anim_euler_group(tx, ty, tz, slot + i, n, out, stride);
    }
}
#else
typedef int pb_anim_simd_unused; /* ISO C wants something in a unit */
#endif
