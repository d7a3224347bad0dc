/* The SIMD twin of pb_additive_soa_scalar over simd4.h (pb_additive_soa_sse2
 * or _neon): each step of pb_additive_bone as one vector operation on a
 * block's four bones, in the scalar's order; the square root and division
 * are correctly rounded on every port (simd4.h), so the bits are the
 * scalar's. */
#include "kernels.h"

#if defined(PLUMBOB_PORT_SSE2) || defined(PLUMBOB_PORT_NEON)
#include "simd4.h"

#define LD(p, i) pb_v4_loadu((p) + 4u * (i))

/* One block: base rows at sb, delta rows at db, weights w (the mask's
 * already in), into o (which may be sb). */
PB_FORCE_INLINE void additive_block(const float *sb, const float *db, pb_v4 w, float *o, pb_v4 fmax, pb_v4 fmin) {
    const pb_v4 zero = pb_v4_set1(0.0f), one = pb_v4_set1(1.0f), sign = pb_v4_set1(-0.0f);
    pb_v4 s0 = LD(sb, 0), s1 = LD(sb, 1), s2 = LD(sb, 2), s3 = LD(sb, 3), d3 = LD(db, 3), om = pb_v4_sub(one, w);
    pb_v4 sw, px, py, pz, pw, ox, oy, oz, ow, len2, inv, t[6], sum;
    pb_m4 ok;
    uint32_t i;
    for (i = 0; i < 6u; i++) t[i] = LD(db, 4u + i); /* loads before any store: o may be sb */
    sw = pb_v4_xor(w, pb_v4_and(pb_v4_lt(d3, zero), sign));
    px = pb_v4_mul(sw, LD(db, 0));
    py = pb_v4_mul(sw, LD(db, 1));
    pz = pb_v4_mul(sw, LD(db, 2));
    pw = pb_v4_add(om, pb_v4_mul(sw, d3));
    /* pb_quat_mul4(s, p) */
    ox = pb_v4_sub(pb_v4_add(pb_v4_add(pb_v4_mul(s3, px), pb_v4_mul(s0, pw)), pb_v4_mul(s1, pz)), pb_v4_mul(s2, py));
    oy = pb_v4_add(pb_v4_add(pb_v4_sub(pb_v4_mul(s3, py), pb_v4_mul(s0, pz)), pb_v4_mul(s1, pw)), pb_v4_mul(s2, px));
    oz = pb_v4_add(pb_v4_sub(pb_v4_add(pb_v4_mul(s3, pz), pb_v4_mul(s0, py)), pb_v4_mul(s1, px)), pb_v4_mul(s2, pw));
    ow = pb_v4_sub(pb_v4_sub(pb_v4_sub(pb_v4_mul(s3, pw), pb_v4_mul(s0, px)), pb_v4_mul(s1, py)), pb_v4_mul(s2, pz));
    len2 = pb_v4_add(pb_v4_add(pb_v4_add(pb_v4_mul(ox, ox), pb_v4_mul(oy, oy)), pb_v4_mul(oz, oz)), pb_v4_mul(ow, ow));
    ok = pb_m4_and(pb_v4_gt(len2, zero), pb_v4_le(len2, fmax));
    inv = pb_v4_div(one, pb_v4_sqrt(len2)); /* lanes not ok (0, inf, NaN) are masked below */
    for (i = 0; i < 3u; i++) t[i] = pb_v4_add(LD(sb, 4u + i), pb_v4_mul(w, t[i]));
    for (i = 3u; i < 6u; i++) t[i] = pb_v4_mul(LD(sb, 4u + i), pb_v4_add(om, pb_v4_mul(w, t[i])));
    pb_v4_store(o, pb_v4_and(ok, pb_v4_mul(ox, inv))); /* 0 where not ok */
    pb_v4_store(o + 4, pb_v4_and(ok, pb_v4_mul(oy, inv)));
    pb_v4_store(o + 8, pb_v4_and(ok, pb_v4_mul(oz, inv)));
    pb_v4_store(o + 12, pb_v4_select(ok, pb_v4_mul(ow, inv), one));
    /* The clamps only where some lane may need one, as the blocked blend
     * does: the six rows' sum minus itself is 0 when every value is finite
     * (and the sum did not overflow), NaN otherwise; min/max leave finite
     * values as they are, so the bits do not depend on the test. */
    sum = pb_v4_add(pb_v4_add(pb_v4_add(t[0], t[1]), pb_v4_add(t[2], t[3])), pb_v4_add(t[4], t[5]));
    if (pb_m4_bits(pb_v4_le(pb_v4_sub(sum, sum), zero)) != 0xFu)
        for (i = 0; i < 6u; i++) t[i] = pb_v4_max(fmin, pb_v4_min(fmax, t[i]));
    for (i = 0; i < 6u; i++) pb_v4_store(o + 16u + 4u * i, t[i]);
}

#if defined(PLUMBOB_PORT_SSE2)
void pb_additive_soa_sse2(const plumbob_pose_soa *base, const plumbob_pose_soa *delta, float lw, const float *bw,
                          uint32_t bone_count, plumbob_pose_soa *out)
#else
void pb_additive_soa_neon(const plumbob_pose_soa *base, const plumbob_pose_soa *delta, float lw, const float *bw,
                          uint32_t bone_count, plumbob_pose_soa *out)
#endif
{
    /* the clamp's bounds as whole vectors in memory (the blocked blend's reason) */
    static const float kmax[4] = {FLT_MAX, FLT_MAX, FLT_MAX, FLT_MAX}, kmin[4] = {-FLT_MAX, -FLT_MAX, -FLT_MAX, -FLT_MAX};
    const pb_v4 zero = pb_v4_set1(0.0f), one = pb_v4_set1(1.0f), fmax = pb_v4_loadu(kmax), fmin = pb_v4_loadu(kmin),
                vlw = pb_v4_set1(lw);
    uint32_t whole = bone_count / 4u, g;
    const float *sb = (const float *)(const void *)base, *db = (const float *)(const void *)delta;
    float *o = (float *)(void *)out;
    if (bw) {
        for (g = 0; g < whole; g++) /* pb_weight01 of the mask, times lw */
            additive_block(sb + 40u * g, db + 40u * g, pb_v4_mul(vlw, pb_v4_min(pb_v4_max(pb_v4_loadu(bw + 4u * g), zero), one)),
                           o + 40u * g, fmax, fmin);
    } else {
        for (g = 0; g < whole; g++) additive_block(sb + 40u * g, db + 40u * g, vlw, o + 40u * g, fmax, fmin);
    }
    if (whole * 4u < bone_count) { /* the last block: padding lanes weigh lw, as a mask of 1 */
        float tm[4];
        uint32_t l;
        for (l = 0; l < 4u; l++) tm[l] = bw && 4u * whole + l < bone_count ? pb_weight01(bw[4u * whole + l]) : 1.0f;
        additive_block(sb + 40u * whole, db + 40u * whole, pb_v4_mul(vlw, pb_v4_loadu(tm)), o + 40u * whole, fmax, fmin);
    }
}
#undef LD
#else
typedef int pb_additive_soa_simd_unused; /* ISO C wants something in a unit */
#endif
