/* The SIMD twin of pb_blend_soa_scalar, written once over simd4.h and
 * compiled as pb_blend_soa_sse2 or _neon.  A block's four bones are the
 * four lanes of each of its ten rows, so every step of the scalar code is
 * one vector operation: the accumulator (ten rows and the weight sums)
 * stays in registers while every layer passes, and is written once.  The
 * shorter-arc sign is a multiply by +-1 (exact, and -0 where the scalar
 * code flips a zero weight's sign bit); the fallback and the identity for
 * a degenerate rotation are compare-and-select; square root and division
 * are correctly rounded on every port.  So the bits are the scalar's. */
#include "kernels.h"

#if defined(PLUMBOB_PORT_SSE2) || defined(PLUMBOB_PORT_NEON)
#include "simd4.h"

/* x > 0 ? (x < 1 ? x : 1) : 0, NaN to 0: pb_weight01 lane by lane */
PB_FORCE_INLINE pb_v4 weight01(pb_v4 x, pb_v4 zero, pb_v4 one) {
    return pb_v4_select(pb_v4_gt(x, zero), pb_v4_select(pb_v4_lt(x, one), x, one), zero);
}

/* x > FLT_MAX ? FLT_MAX : x < -FLT_MAX ? -FLT_MAX : x, NaN left as it is */
PB_FORCE_INLINE pb_v4 clamp_finite(pb_v4 x, pb_v4 fmax, pb_v4 fmin) {
    return pb_v4_select(pb_v4_lt(fmax, x), fmax, pb_v4_select(pb_v4_lt(x, fmin), fmin, x));
}

#if defined(PLUMBOB_PORT_SSE2)
void pb_blend_soa_sse2(const plumbob_blend_layer_soa *layers, uint32_t layer_count, const plumbob_pose_soa *rest,
                       uint32_t bone_count, float threshold, plumbob_pose_soa *out)
#else
void pb_blend_soa_neon(const plumbob_blend_layer_soa *layers, uint32_t layer_count, const plumbob_pose_soa *rest,
                       uint32_t bone_count, float threshold, plumbob_pose_soa *out)
#endif
{
    const pb_v4 zero = pb_v4_set1(0.0f), one = pb_v4_set1(1.0f), minus = pb_v4_set1(-1.0f),
                fmax = pb_v4_set1(FLT_MAX), fmin = pb_v4_set1(-FLT_MAX), thr = pb_v4_set1(threshold);
    uint32_t blocks = bone_count / 4u + (bone_count % 4u != 0u), g, k, i;
    for (g = 0; g < blocks; g++) {
        const float *rp = (const float *)(const void *)&rest[g];
        float *o = (float *)(void *)&out[g];
        pb_v4 a[10], ref[4], wsum = zero, len2, inv, rs, rw;
        pb_m4 fb, ok;
        int whole = 4u * g + 4u <= bone_count;
        for (i = 0; i < 4u; i++)
            ref[i] = pb_v4_loadu(layer_count ? (const float *)(const void *)&layers[0].poses[g] + 4u * i : rp + 4u * i);
        for (i = 0; i < 10u; i++) a[i] = zero;
        for (k = 0; k < layer_count; k++) {
            const plumbob_blend_layer_soa *ly = &layers[k];
            const float *p = (const float *)(const void *)&ly->poses[g];
            pb_v4 w = pb_v4_set1(pb_weight01(ly->weight)), ws;
            if (ly->bone_weights) {
                pb_v4 m;
                if (whole) {
                    m = pb_v4_loadu(ly->bone_weights + 4u * g);
                } else { /* the last block: padding lanes weigh as a mask of 1 */
                    float t[4];
                    uint32_t l;
                    for (l = 0; l < 4u; l++) t[l] = 4u * g + l < bone_count ? ly->bone_weights[4u * g + l] : 1.0f;
                    m = pb_v4_loadu(t);
                }
                w = pb_v4_mul(w, weight01(m, zero, one));
            }
            if (k == 0) {
                for (i = 0; i < 10u; i++) a[i] = pb_v4_mul(w, pb_v4_loadu(p + 4u * i));
                wsum = w;
            } else {
                pb_v4 q0 = pb_v4_loadu(p), q1 = pb_v4_loadu(p + 4), q2 = pb_v4_loadu(p + 8), q3 = pb_v4_loadu(p + 12);
                pb_v4 dot = pb_v4_add(pb_v4_add(pb_v4_add(pb_v4_mul(ref[0], q0), pb_v4_mul(ref[1], q1)),
                                                pb_v4_mul(ref[2], q2)),
                                      pb_v4_mul(ref[3], q3));
                ws = pb_v4_mul(w, pb_v4_select(pb_v4_lt(dot, zero), minus, one));
                a[0] = pb_v4_add(a[0], pb_v4_mul(ws, q0));
                a[1] = pb_v4_add(a[1], pb_v4_mul(ws, q1));
                a[2] = pb_v4_add(a[2], pb_v4_mul(ws, q2));
                a[3] = pb_v4_add(a[3], pb_v4_mul(ws, q3));
                for (i = 4u; i < 10u; i++) a[i] = pb_v4_add(a[i], pb_v4_mul(w, pb_v4_loadu(p + 4u * i)));
                wsum = pb_v4_add(wsum, w);
            }
        }
        fb = pb_v4_lt(wsum, thr);
        if (pb_m4_bits(fb)) { /* pb_blend_fallback in the lanes below the threshold */
            pb_v4 r[4], dot;
            pb_m4 add = pb_v4_gt(wsum, zero);
            for (i = 0; i < 4u; i++) r[i] = pb_v4_loadu(rp + 4u * i);
            dot = pb_v4_add(pb_v4_add(pb_v4_add(pb_v4_mul(ref[0], r[0]), pb_v4_mul(ref[1], r[1])),
                                      pb_v4_mul(ref[2], r[2])),
                            pb_v4_mul(ref[3], r[3]));
            rw = pb_v4_sub(thr, wsum);
            rs = pb_v4_mul(rw, pb_v4_select(pb_v4_lt(dot, zero), minus, one));
            for (i = 0; i < 10u; i++) {
                pb_v4 v = pb_v4_mul(i < 4u ? rs : rw, i < 4u ? r[i] : pb_v4_loadu(rp + 4u * i));
                a[i] = pb_v4_select(fb, pb_v4_select(add, pb_v4_add(a[i], v), v), a[i]);
            }
            wsum = pb_v4_select(fb, thr, wsum);
        }
        len2 = pb_v4_add(pb_v4_add(pb_v4_add(pb_v4_mul(a[0], a[0]), pb_v4_mul(a[1], a[1])), pb_v4_mul(a[2], a[2])),
                         pb_v4_mul(a[3], a[3]));
        ok = pb_m4_and(pb_v4_gt(len2, zero), pb_v4_le(len2, fmax));
        inv = pb_v4_div(one, pb_v4_sqrt(pb_v4_select(ok, len2, one)));
        pb_v4_store(o, pb_v4_select(ok, pb_v4_mul(a[0], inv), zero));
        pb_v4_store(o + 4, pb_v4_select(ok, pb_v4_mul(a[1], inv), zero));
        pb_v4_store(o + 8, pb_v4_select(ok, pb_v4_mul(a[2], inv), zero));
        pb_v4_store(o + 12, pb_v4_select(ok, pb_v4_mul(a[3], inv), one));
        inv = pb_v4_div(one, wsum);
        for (i = 4u; i < 10u; i++) pb_v4_store(o + 4u * i, clamp_finite(pb_v4_mul(a[i], inv), fmax, fmin));
    }
}
#else
typedef int pb_blend_soa_simd_unused; /* ISO C wants something in a unit */
#endif
