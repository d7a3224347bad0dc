/* The SIMD twin of pb_anim_euler_scalar, written once over simd4.h and
 * compiled as pb_anim_euler_sse2 or _neon: four rotations in lanes, their
 * angles read as rows (the sampler's curves write them there), two groups
 * of four per step with their operations interleaved, so the long
 * dependency chains (the sine and cosine polynomials, the composition, the
 * normalization) of the two run side by side.  Per lane the
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

/* pb_half_angle_sin_cos (core/base/pb_curve.h) in four lanes, for two
 * vectors of angles at once: each step for a then for b, so the two
 * dependency chains run side by side (the compiler keeps the order). */
PB_FORCE_INLINE void anim_half4x2(pb_v4 da, pb_v4 db, pb_v4 *sa, pb_v4 *ca, pb_v4 *sb, pb_v4 *cb) {
    const pb_v4 lo = pb_v4_set1(-1e7f), hi = pb_v4_set1(1e7f), turn = pb_v4_set1(12582912.0f);
    pb_v4 ra, rb, xa, xb, x2a, x2b, pa, pb, qa, qb;
    da = pb_v4_and(pb_m4_and(pb_v4_ge(da, lo), pb_v4_le(da, hi)), da); /* NaN and |d| > 1e7 read as +0 */
    db = pb_v4_and(pb_m4_and(pb_v4_ge(db, lo), pb_v4_le(db, hi)), db);
    ra = pb_v4_mul(da, pb_v4_set1(1.0f / 360.0f));
    rb = pb_v4_mul(db, pb_v4_set1(1.0f / 360.0f));
    ra = pb_v4_sub(pb_v4_add(ra, turn), turn); /* the nearest whole turn */
    rb = pb_v4_sub(pb_v4_add(rb, turn), turn);
    da = pb_v4_sub(da, pb_v4_mul(pb_v4_set1(360.0f), ra));
    db = pb_v4_sub(db, pb_v4_mul(pb_v4_set1(360.0f), rb));
    xa = pb_v4_mul(da, pb_v4_set1(3.14159265358979f / 360.0f));
    xb = pb_v4_mul(db, pb_v4_set1(3.14159265358979f / 360.0f));
    x2a = pb_v4_mul(xa, xa);
    x2b = pb_v4_mul(xb, xb);
#define PB_HORNER2(p, q, k) \
    p = pb_v4_add(pb_v4_set1(k), pb_v4_mul(x2a, p)); \
    q = pb_v4_add(pb_v4_set1(k), pb_v4_mul(x2b, q))
    /* sine: x + x x2 (-1/3! + x2 (1/5! + x2 (-1/7! + x2 (1/9! + x2 -1/11!)))) */
    pa = pb_v4_add(pb_v4_set1(2.75573192e-6f), pb_v4_mul(x2a, pb_v4_set1(-2.50521084e-8f)));
    pb = pb_v4_add(pb_v4_set1(2.75573192e-6f), pb_v4_mul(x2b, pb_v4_set1(-2.50521084e-8f)));
    /* cosine: 1 + x2 (-1/2 + x2 (1/4! + ... + x2 (-1/10! + x2 1/12!))) */
    qa = pb_v4_add(pb_v4_set1(-2.75573192e-7f), pb_v4_mul(x2a, pb_v4_set1(2.08767570e-9f)));
    qb = pb_v4_add(pb_v4_set1(-2.75573192e-7f), pb_v4_mul(x2b, pb_v4_set1(2.08767570e-9f)));
    PB_HORNER2(pa, pb, -1.98412698e-4f);
    PB_HORNER2(qa, qb, 2.48015873e-5f);
    PB_HORNER2(pa, pb, 8.33333333e-3f);
    PB_HORNER2(qa, qb, -1.38888889e-3f);
    PB_HORNER2(pa, pb, -1.66666667e-1f);
    PB_HORNER2(qa, qb, 4.16666667e-2f);
    PB_HORNER2(qa, qb, -0.5f);
    PB_HORNER2(qa, qb, 1.0f);
#undef PB_HORNER2
    *sa = pb_v4_add(xa, pb_v4_mul(pb_v4_mul(xa, x2a), pa));
    *sb = pb_v4_add(xb, pb_v4_mul(pb_v4_mul(xb, x2b), pb));
    *ca = qa;
    *cb = qb;
}

/* The quaternion q = qz qy qx of half-angle sines and cosines, x y z w. */
PB_FORCE_INLINE void anim_compose(pb_v4 sx, pb_v4 cx, pb_v4 sy, pb_v4 cy, pb_v4 sz, pb_v4 cz, pb_v4 q[4]) {
    pb_v4 czcy = pb_v4_mul(cz, cy), szsy = pb_v4_mul(sz, sy), czsy = pb_v4_mul(cz, sy), szcy = pb_v4_mul(sz, cy);
    q[3] = pb_v4_add(pb_v4_mul(czcy, cx), pb_v4_mul(szsy, sx));
    q[0] = pb_v4_sub(pb_v4_mul(czcy, sx), pb_v4_mul(szsy, cx));
    q[1] = pb_v4_add(pb_v4_mul(czsy, cx), pb_v4_mul(szcy, sx));
    q[2] = pb_v4_sub(pb_v4_mul(szcy, cx), pb_v4_mul(czsy, sx));
}

/* Squared lengths, ((x x + y y) + z z) + w w. */
PB_FORCE_INLINE pb_v4 anim_len2(const pb_v4 q[4]) {
    return pb_v4_add(pb_v4_add(pb_v4_add(pb_v4_mul(q[0], q[0]), pb_v4_mul(q[1], q[1])), pb_v4_mul(q[2], q[2])),
                     pb_v4_mul(q[3], q[3]));
}

/* Lanes near unit length (0.99, 1.01): pb_quat_inv_length's factor. */
PB_FORCE_INLINE pb_m4 anim_near(pb_v4 len2) {
    return pb_m4_and(pb_v4_gt(len2, pb_v4_set1(0.99f)), pb_v4_lt(len2, pb_v4_set1(1.01f)));
}

/* n (1..4) quaternions (rows q, each lane scaled by inv when `scaled`,
 * else normalized lane by lane by pb_quat_normalize4) into out + stride *
 * slot[l]. */
PB_FORCE_INLINE void anim_store(pb_v4 q[4], pb_v4 inv, int scaled, const uint32_t *slot, uint32_t n, float *out,
                                size_t stride) {
    uint32_t l;
    if (scaled) {
        pb_v4 x = pb_v4_mul(q[0], inv), y = pb_v4_mul(q[1], inv), z = pb_v4_mul(q[2], inv), w = pb_v4_mul(q[3], inv);
        pb_v4_transpose(&x, &y, &z, &w);
        pb_v4_store(out + stride * slot[0], x);
        if (n > 1u) pb_v4_store(out + stride * slot[1], y);
        if (n > 2u) pb_v4_store(out + stride * slot[2], z);
        if (n > 3u) pb_v4_store(out + stride * slot[3], w);
        return;
    }
    pb_v4_transpose(&q[0], &q[1], &q[2], &q[3]);
    for (l = 0; l < n; l++) {
        float v[4], *o = out + stride * slot[l];
        pb_v4_store(v, q[l]);
        pb_quat_normalize4(v);
        o[0] = v[0];
        o[1] = v[1];
        o[2] = v[2];
        o[3] = v[3];
    }
}

/* Two groups of four rotations: lanes na and nb (0..4) of them stored,
 * angle rows at a* and b* (four floats readable in each). */
PB_FORCE_INLINE void anim_euler8(const float *ax, const float *ay, const float *az, const float *bx, const float *by,
                                 const float *bz, const uint32_t *slot, uint32_t na, uint32_t nb, float *out,
                                 size_t stride) {
    pb_v4 sxa, cxa, sya, cya, sza, cza, sxb, cxb, syb, cyb, szb, czb, qa[4], qb[4], la, lb, ha, hb, ia, ib;
    unsigned near;
    anim_half4x2(pb_v4_loadu(ax), pb_v4_loadu(bx), &sxa, &cxa, &sxb, &cxb);
    anim_half4x2(pb_v4_loadu(ay), pb_v4_loadu(by), &sya, &cya, &syb, &cyb);
    anim_half4x2(pb_v4_loadu(az), pb_v4_loadu(bz), &sza, &cza, &szb, &czb);
    anim_compose(sxa, cxa, sya, cya, sza, cza, qa);
    anim_compose(sxb, cxb, syb, cyb, szb, czb, qb);
    la = anim_len2(qa);
    lb = anim_len2(qb);
    near = pb_m4_bits(anim_near(la)) & pb_m4_bits(anim_near(lb));
    /* inv = 1.5 - 0.5 len2, then inv (1.5 - 0.5 len2 inv inv) */
    ha = pb_v4_mul(pb_v4_set1(0.5f), la);
    hb = pb_v4_mul(pb_v4_set1(0.5f), lb);
    ia = pb_v4_sub(pb_v4_set1(1.5f), ha);
    ib = pb_v4_sub(pb_v4_set1(1.5f), hb);
    ia = pb_v4_mul(ia, pb_v4_sub(pb_v4_set1(1.5f), pb_v4_mul(pb_v4_mul(ha, ia), ia)));
    ib = pb_v4_mul(ib, pb_v4_sub(pb_v4_set1(1.5f), pb_v4_mul(pb_v4_mul(hb, ib), ib)));
    if (na) anim_store(qa, ia, near == 15u, slot, na, out, stride);
    if (nb) anim_store(qb, ib, near == 15u, slot + 4, nb, out, stride);
}

#if defined(PLUMBOB_PORT_SSE2)
void pb_anim_euler_sse2(const float *angles, uint32_t count, const uint32_t *slot, float *out, size_t stride)
#else
void pb_anim_euler_neon(const float *angles, uint32_t count, const uint32_t *slot, float *out, size_t stride)
#endif
{
    const float *ay = angles + count, *az = angles + 2u * count;
    uint32_t i = 0;
    for (; i + 8u <= count; i += 8u)
        anim_euler8(angles + i, ay + i, az + i, angles + i + 4u, ay + i + 4u, az + i + 4u, slot + i, 4u, 4u, out,
                    stride);
    if (i < count) { /* the last one to seven, padded with zero angles */
        float t[3][8];
        uint32_t l, n = count - i;
        for (l = 0; l < 8u; l++) {
            t[0][l] = l < n ? angles[i + l] : 0.0f;
            t[1][l] = l < n ? ay[i + l] : 0.0f;
            t[2][l] = l < n ? az[i + l] : 0.0f;
        }
        anim_euler8(t[0], t[1], t[2], t[0] + 4, t[1] + 4, t[2] + 4, slot + i, n < 4u ? n : 4u, n > 4u ? n - 4u : 0u,
                    out, stride);
    }
}

/* The scheduled sampler's curves, four lanes at a time:
 * pb_anim_curves_scalar's operations lane by lane (u > 1 -> 1 and
 * ticks <= t0 as masks), so its bits. */
#if defined(PLUMBOB_PORT_SSE2)
void pb_anim_curves_sse2(const float *lanes, uint32_t count, float ticks, float *values)
#else
void pb_anim_curves_neon(const float *lanes, uint32_t count, float ticks, float *values)
#endif
{
    const pb_v4 t = pb_v4_set1(ticks), one = pb_v4_set1(1.0f);
    uint32_t i;
    for (i = 0; i < count; i += 4u) {
        const float *l = lanes + i;
        pb_v4 t0 = pb_v4_loadu(l), c0 = pb_v4_loadu(l + 2u * count), u, h;
        u = pb_v4_mul(pb_v4_sub(t, t0), pb_v4_loadu(l + count));
        u = pb_v4_select(pb_v4_gt(u, one), one, u);
        h = pb_v4_add(pb_v4_mul(pb_v4_loadu(l + 5u * count), u), pb_v4_loadu(l + 4u * count));
        h = pb_v4_add(pb_v4_mul(h, u), pb_v4_loadu(l + 3u * count));
        h = pb_v4_add(pb_v4_mul(h, u), c0);
        pb_v4_store(values + i, pb_v4_select(pb_v4_le(t, t0), c0, h));
    }
}
#else
typedef int pb_anim_simd_unused; /* ISO C wants something in a unit */
#endif
