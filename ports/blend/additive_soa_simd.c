/* The SIMD twin of pb_additive_soa_scalar over simd4.h (pb_additive_soa_sse2
 * or _neon): each step of pb_additive_bone as one vector operation on a
 * block's four bones.  pb_quat_normalize4's three cases (degenerate:
 * identity; exactly unit: unchanged; near unit: two Newton steps from 1;
 * else pb_rsqrtf's bit guess and three Newton steps, subnormals scaled)
 * are all computed and selected lane by lane, each with the scalar
 * operations in their order, so the bits are the scalar's. */
#include "kernels.h"

#if defined(PLUMBOB_PORT_SSE2) || defined(PLUMBOB_PORT_NEON)
#include "simd4.h"

#define LD(p, i) pb_v4_loadu((p) + 4u * (i))

/* pb_quat_normalize4 on four quaternions (rows x y z w) */
PB_FORCE_INLINE void normalize4(pb_v4 *x, pb_v4 *y, pb_v4 *z, pb_v4 *w) {
    const pb_v4 zero = pb_v4_set1(0.0f), one = pb_v4_set1(1.0f), half = pb_v4_set1(0.5f), three_halves = pb_v4_set1(1.5f);
    pb_v4 len2 = pb_v4_add(pb_v4_add(pb_v4_add(pb_v4_mul(*x, *x), pb_v4_mul(*y, *y)), pb_v4_mul(*z, *z)), pb_v4_mul(*w, *w));
    pb_m4 ok = pb_m4_and(pb_v4_gt(len2, zero), pb_v4_le(len2, pb_v4_set1(FLT_MAX)));
    pb_m4 unit = pb_m4_and(pb_v4_ge(len2, one), pb_v4_le(len2, one));
    pb_m4 near = pb_m4_and(pb_v4_gt(len2, pb_v4_set1(0.99f)), pb_v4_lt(len2, pb_v4_set1(1.01f)));
    pb_m4 small = pb_v4_lt(len2, pb_v4_set1(FLT_MIN));
    pb_v4 hl = pb_v4_mul(half, len2), n, xs, y0, inv;
    /* pb_quat_inv_length's near-unit branch */
    n = pb_v4_sub(three_halves, hl);
    n = pb_v4_mul(n, pb_v4_sub(three_halves, pb_v4_mul(pb_v4_mul(hl, n), n)));
    inv = n;
    /* pb_rsqrtf, where some lane needs it (a product of unit quaternions
     * is near unit: mostly not) */
    if (pb_m4_bits(ok) & ~pb_m4_bits(near) & ~pb_m4_bits(unit)) {
        xs = pb_v4_select(small, pb_v4_mul(len2, pb_v4_set1(16777216.0f)), len2);
        y0 = pb_v4_rsqrt_guess(xs);
        hl = pb_v4_mul(half, xs);
        y0 = pb_v4_mul(y0, pb_v4_sub(three_halves, pb_v4_mul(pb_v4_mul(hl, y0), y0)));
        y0 = pb_v4_mul(y0, pb_v4_sub(three_halves, pb_v4_mul(pb_v4_mul(hl, y0), y0)));
        y0 = pb_v4_mul(y0, pb_v4_sub(three_halves, pb_v4_mul(pb_v4_mul(hl, y0), y0)));
        y0 = pb_v4_mul(y0, pb_v4_select(small, pb_v4_set1(4096.0f), one));
        inv = pb_v4_select(near, n, y0);
    }
    /* unchanged where exactly unit, scaled where ok, the identity elsewhere */
    *x = pb_v4_and(ok, pb_v4_select(unit, *x, pb_v4_mul(*x, inv)));
    *y = pb_v4_and(ok, pb_v4_select(unit, *y, pb_v4_mul(*y, inv)));
    *z = pb_v4_and(ok, pb_v4_select(unit, *z, pb_v4_mul(*z, inv)));
    *w = pb_v4_select(ok, pb_v4_select(unit, *w, pb_v4_mul(*w, inv)), one);
}

#if defined(PLUMBOB_PORT_SSE2)
void pb_additive_soa_sse2(const plumbob_pose_soa *base, const plumbob_pose_soa *delta, float lw, const float *bw,
                          uint32_t bone_count, plumbob_pose_soa *out)
#else
void pb_additive_soa_neon(const plumbob_pose_soa *base, const plumbob_pose_soa *delta, float lw, const float *bw,
                          uint32_t bone_count, plumbob_pose_soa *out)
#endif
{
    const pb_v4 zero = pb_v4_set1(0.0f), one = pb_v4_set1(1.0f), sign = pb_v4_set1(-0.0f),
                fmax = pb_v4_set1(FLT_MAX), fmin = pb_v4_set1(-FLT_MAX), vlw = pb_v4_set1(lw);
    uint32_t blocks = bone_count / 4u + (bone_count % 4u != 0u), g, i;
    for (g = 0; g < blocks; g++) {
        const float *sb = (const float *)(const void *)&base[g], *db = (const float *)(const void *)&delta[g];
        float *o = (float *)(void *)&out[g];
        pb_v4 w = vlw, sw, px, py, pz, pw, s0 = LD(sb, 0), s1 = LD(sb, 1), s2 = LD(sb, 2), s3 = LD(sb, 3), d3 = LD(db, 3);
        pb_v4 ox, oy, oz, ow, t[6];
        if (bw) {
            pb_v4 m;
            if (4u * g + 4u <= bone_count) {
                m = pb_v4_loadu(bw + 4u * g);
            } else { /* padding lanes: a mask of 1 */
                float tm[4];
                uint32_t l;
                for (l = 0; l < 4u; l++) tm[l] = 4u * g + l < bone_count ? bw[4u * g + l] : 1.0f;
                m = pb_v4_loadu(tm);
            }
            w = pb_v4_mul(vlw, pb_v4_min(pb_v4_max(m, zero), one)); /* pb_weight01 */
        }
        for (i = 0; i < 6u; i++) t[i] = LD(db, 4u + i); /* loads before any store: out may be base */
        sw = pb_v4_xor(w, pb_v4_and(pb_v4_lt(d3, zero), sign));
        px = pb_v4_mul(sw, LD(db, 0));
        py = pb_v4_mul(sw, LD(db, 1));
        pz = pb_v4_mul(sw, LD(db, 2));
        pw = pb_v4_add(pb_v4_sub(one, w), pb_v4_mul(sw, d3));
        normalize4(&px, &py, &pz, &pw);
        /* pb_quat_mul4(s, part) */
        ox = pb_v4_sub(pb_v4_add(pb_v4_add(pb_v4_mul(s3, px), pb_v4_mul(s0, pw)), pb_v4_mul(s1, pz)), pb_v4_mul(s2, py));
        oy = pb_v4_add(pb_v4_add(pb_v4_sub(pb_v4_mul(s3, py), pb_v4_mul(s0, pz)), pb_v4_mul(s1, pw)), pb_v4_mul(s2, px));
        oz = pb_v4_add(pb_v4_sub(pb_v4_add(pb_v4_mul(s3, pz), pb_v4_mul(s0, py)), pb_v4_mul(s1, px)), pb_v4_mul(s2, pw));
        ow = pb_v4_sub(pb_v4_sub(pb_v4_sub(pb_v4_mul(s3, pw), pb_v4_mul(s0, px)), pb_v4_mul(s1, py)), pb_v4_mul(s2, pz));
        normalize4(&ox, &oy, &oz, &ow);
        for (i = 0; i < 3u; i++)
            t[i] = pb_v4_max(fmin, pb_v4_min(fmax, pb_v4_add(LD(sb, 4u + i), pb_v4_mul(w, t[i]))));
        for (i = 3u; i < 6u; i++)
            t[i] = pb_v4_max(fmin, pb_v4_min(fmax, pb_v4_mul(LD(sb, 4u + i),
                                                             pb_v4_add(one, pb_v4_mul(w, pb_v4_sub(t[i], one))))));
        pb_v4_store(o, ox);
        pb_v4_store(o + 4, oy);
        pb_v4_store(o + 8, oz);
        pb_v4_store(o + 12, ow);
        for (i = 0; i < 6u; i++) pb_v4_store(o + 16u + 4u * i, t[i]);
    }
}
#undef LD
#else
typedef int pb_additive_soa_simd_unused; /* ISO C wants something in a unit */
#endif
