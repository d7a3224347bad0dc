/* The SIMD twin of pb_blend_soa_scalar, written once over simd4.h and
 * compiled as pb_blend_soa_sse2 or _neon.  A block's four bones are the
 * four lanes of each of its ten rows, so every step of the scalar code is
 * one vector operation: the accumulator (ten rows and the weight sums)
 * stays in registers while every layer passes, and is written once.  The
 * shorter-arc sign is an xor of the sign bit (pb_blend_signed's own
 * trick, so -0 where the scalar code flips a zero weight); the clamps are
 * min/max, whose NaN and tie rules are the scalar comparisons' (whole
 * blocks run them only when a finite test fails: a no-op otherwise); the
 * fallback and the identity for a degenerate rotation are
 * compare-and-select; square root and division are correctly rounded on
 * every port.  So the bits are the scalar's. */
#include "kernels.h"

#if defined(PLUMBOB_PORT_SSE2) || defined(PLUMBOB_PORT_NEON)
#include "simd4.h"

/* pb_weight01 lane by lane: max(x, 0) is x > 0 ? x : 0 (NaN to 0), then
 * min(v, 1) is v < 1 ? v : 1; two instructions for two compare-and-selects. */
PB_FORCE_INLINE pb_v4 weight01(pb_v4 x, pb_v4 zero, pb_v4 one) {
    return pb_v4_min(pb_v4_max(x, zero), one);
}

/* x > FLT_MAX ? FLT_MAX : x < -FLT_MAX ? -FLT_MAX : x with NaN left as it
 * is: min(FLT_MAX, x) is FLT_MAX < x ? FLT_MAX : x (NaN fails the compare
 * and passes), max(-FLT_MAX, v) likewise. */
PB_FORCE_INLINE pb_v4 clamp_finite(pb_v4 x, pb_v4 fmax, pb_v4 fmin) {
    return pb_v4_max(fmin, pb_v4_min(fmax, x));
}

/* row i (0..9: rx ry rz rw tx ty tz sx sy sz) of the block at p */
#define LD(p, i) pb_v4_loadu((p) + 4u * (i))
/* ((x0 y0 + x1 y1) + x2 y2) + x3 y3, the scalar order */
#define DOT4(x0, x1, x2, x3, y0, y1, y2, y3)                                                         \
    pb_v4_add(pb_v4_add(pb_v4_add(pb_v4_mul(x0, y0), pb_v4_mul(x1, y1)), pb_v4_mul(x2, y2)), \
              pb_v4_mul(x3, y3))
/* pb_blend_fallback's row: a + s r where the sum had weight, s r where not, a elsewhere */
#define FALLBACK(a, s, r) pb_v4_select(fb, pb_v4_select(add, pb_v4_add(a, pb_v4_mul(s, r)), pb_v4_mul(s, r)), a)

/* Layer k's weights in block g: pb_weight01(weight), times the clamped
 * mask (padding lanes of the last block: a mask of 1). */
PB_FORCE_INLINE pb_v4 layer_weight(const plumbob_blend_layer_soa *layer, uint32_t g, uint32_t bone_count, pb_v4 zero,
                                   pb_v4 one) {
    pb_v4 w = pb_v4_set1(pb_weight01(layer->weight)), m;
    const float *bw = layer->bone_weights;
    if (!bw) return w;
    if (4u * g + 4u <= bone_count) {
        m = pb_v4_loadu(bw + 4u * g);
    } else {
        float t[4];
        uint32_t l;
        for (l = 0; l < 4u; l++) t[l] = 4u * g + l < bone_count ? bw[4u * g + l] : 1.0f;
        m = pb_v4_loadu(t);
    }
    return pb_v4_mul(w, weight01(m, zero, one));
}

/* Blocks [g, blocks) for any layer count, each layer's weights made in
 * each pass (the last block, with padding, and more than PB_SOA_FAST
 * layers come here). */
static void blend_generic(const plumbob_blend_layer_soa *layers, uint32_t layer_count, const plumbob_pose_soa *rest,
                          uint32_t bone_count, float threshold, plumbob_pose_soa *out, uint32_t g)
{
    const pb_v4 zero = pb_v4_set1(0.0f), one = pb_v4_set1(1.0f), sign = pb_v4_set1(-0.0f),
                fmax = pb_v4_set1(FLT_MAX), fmin = pb_v4_set1(-FLT_MAX), thr = pb_v4_set1(threshold);
    uint32_t blocks = bone_count / 4u + (bone_count % 4u != 0u), k;
    /* The accumulator as named rows, not an array (compilers keep named
     * vectors in registers where an indexed array goes to the stack), in
     * two passes over the layers per block: the rotation rows with the
     * weight sums and the hemisphere, then translation and scale with the
     * weights made again, so neither pass runs out of SSE2's 16
     * registers.  Each row sees the same operations in the same order. */
    for (; g < blocks; g++) {
        const float *rp = (const float *)(const void *)&rest[g];
        float *o = (float *)(void *)&out[g];
        const float *p0 = layer_count ? (const float *)(const void *)&layers[0].poses[g] : rp;
        const pb_v4 r0 = LD(p0, 0), r1 = LD(p0, 1), r2 = LD(p0, 2), r3 = LD(p0, 3); /* the hemisphere */
        pb_v4 a0 = zero, a1 = zero, a2 = zero, a3 = zero, a4 = zero, a5 = zero, a6 = zero, a7 = zero, a8 = zero,
              a9 = zero, wsum = zero, rw = zero, len2, inv;
        pb_m4 fb, add = pb_v4_gt(zero, zero), ok;
        unsigned fallback;
        if (layer_count) {
            pb_v4 w = layer_weight(&layers[0], g, bone_count, zero, one);
            a0 = pb_v4_mul(w, r0);
            a1 = pb_v4_mul(w, r1);
            a2 = pb_v4_mul(w, r2);
            a3 = pb_v4_mul(w, r3);
            wsum = w;
        }
        for (k = 1; k < layer_count; k++) {
            const float *p = (const float *)(const void *)&layers[k].poses[g];
            pb_v4 w = layer_weight(&layers[k], g, bone_count, zero, one);
            pb_v4 q0 = LD(p, 0), q1 = LD(p, 1), q2 = LD(p, 2), q3 = LD(p, 3);
            /* pb_blend_signed: the sign bit flipped where the dot is negative */
            pb_v4 ws = pb_v4_xor(w, pb_v4_and(pb_v4_lt(DOT4(r0, r1, r2, r3, q0, q1, q2, q3), zero), sign));
            a0 = pb_v4_add(a0, pb_v4_mul(ws, q0));
            a1 = pb_v4_add(a1, pb_v4_mul(ws, q1));
            a2 = pb_v4_add(a2, pb_v4_mul(ws, q2));
            a3 = pb_v4_add(a3, pb_v4_mul(ws, q3));
            wsum = pb_v4_add(wsum, w);
        }
        fb = pb_v4_lt(wsum, thr);
        fallback = pb_m4_bits(fb);
        if (fallback) { /* pb_blend_fallback's rotation in the lanes below the threshold */
            pb_v4 q0 = LD(rp, 0), q1 = LD(rp, 1), q2 = LD(rp, 2), q3 = LD(rp, 3), rs;
            add = pb_v4_gt(wsum, zero);
            rw = pb_v4_sub(thr, wsum);
            rs = pb_v4_xor(rw, pb_v4_and(pb_v4_lt(DOT4(r0, r1, r2, r3, q0, q1, q2, q3), zero), sign));
            a0 = FALLBACK(a0, rs, q0);
            a1 = FALLBACK(a1, rs, q1);
            a2 = FALLBACK(a2, rs, q2);
            a3 = FALLBACK(a3, rs, q3);
        }
        len2 = DOT4(a0, a1, a2, a3, a0, a1, a2, a3);
        ok = pb_m4_and(pb_v4_gt(len2, zero), pb_v4_le(len2, fmax));
        inv = pb_v4_div(one, pb_v4_sqrt(pb_v4_select(ok, len2, one)));
        pb_v4_store(o, pb_v4_and(ok, pb_v4_mul(a0, inv))); /* 0 where not ok */
        pb_v4_store(o + 4, pb_v4_and(ok, pb_v4_mul(a1, inv)));
        pb_v4_store(o + 8, pb_v4_and(ok, pb_v4_mul(a2, inv)));
        pb_v4_store(o + 12, pb_v4_select(ok, pb_v4_mul(a3, inv), one));
        for (k = 0; k < layer_count; k++) {
            const float *p = (const float *)(const void *)&layers[k].poses[g];
            pb_v4 w = layer_weight(&layers[k], g, bone_count, zero, one);
            if (k == 0) {
                a4 = pb_v4_mul(w, LD(p, 4));
                a5 = pb_v4_mul(w, LD(p, 5));
                a6 = pb_v4_mul(w, LD(p, 6));
                a7 = pb_v4_mul(w, LD(p, 7));
                a8 = pb_v4_mul(w, LD(p, 8));
                a9 = pb_v4_mul(w, LD(p, 9));
            } else {
                a4 = pb_v4_add(a4, pb_v4_mul(w, LD(p, 4)));
                a5 = pb_v4_add(a5, pb_v4_mul(w, LD(p, 5)));
                a6 = pb_v4_add(a6, pb_v4_mul(w, LD(p, 6)));
                a7 = pb_v4_add(a7, pb_v4_mul(w, LD(p, 7)));
                a8 = pb_v4_add(a8, pb_v4_mul(w, LD(p, 8)));
                a9 = pb_v4_add(a9, pb_v4_mul(w, LD(p, 9)));
            }
        }
        if (fallback) {
            a4 = FALLBACK(a4, rw, LD(rp, 4));
            a5 = FALLBACK(a5, rw, LD(rp, 5));
            a6 = FALLBACK(a6, rw, LD(rp, 6));
            a7 = FALLBACK(a7, rw, LD(rp, 7));
            a8 = FALLBACK(a8, rw, LD(rp, 8));
            a9 = FALLBACK(a9, rw, LD(rp, 9));
            wsum = pb_v4_select(fb, thr, wsum);
        }
        inv = pb_v4_div(one, wsum);
        pb_v4_store(o + 16, clamp_finite(pb_v4_mul(a4, inv), fmax, fmin));
        pb_v4_store(o + 20, clamp_finite(pb_v4_mul(a5, inv), fmax, fmin));
        pb_v4_store(o + 24, clamp_finite(pb_v4_mul(a6, inv), fmax, fmin));
        pb_v4_store(o + 28, clamp_finite(pb_v4_mul(a7, inv), fmax, fmin));
        pb_v4_store(o + 32, clamp_finite(pb_v4_mul(a8, inv), fmax, fmin));
        pb_v4_store(o + 36, clamp_finite(pb_v4_mul(a9, inv), fmax, fmin));
    }
}

/* Up to this many layers, whole blocks take the path below: the layers'
 * pointers and clamped weights made once per call, each layer's weights
 * in a block made once (in the rotation pass) and kept for the second. */
#define PB_SOA_FAST 8u

#if defined(PLUMBOB_PORT_SSE2)
void pb_blend_soa_sse2(const plumbob_blend_layer_soa *layers, uint32_t layer_count, const plumbob_pose_soa *rest,
                       uint32_t bone_count, float threshold, plumbob_pose_soa *out)
#else
void pb_blend_soa_neon(const plumbob_blend_layer_soa *layers, uint32_t layer_count, const plumbob_pose_soa *rest,
                       uint32_t bone_count, float threshold, plumbob_pose_soa *out)
#endif
{
    /* the clamp's bounds as whole vectors in memory: one load each where
     * the compiler runs short of registers, not a load and a shuffle */
    static const float kmax[4] = {FLT_MAX, FLT_MAX, FLT_MAX, FLT_MAX}, kmin[4] = {-FLT_MAX, -FLT_MAX, -FLT_MAX, -FLT_MAX};
    const pb_v4 zero = pb_v4_set1(0.0f), one = pb_v4_set1(1.0f), sign = pb_v4_set1(-0.0f), fmax = pb_v4_loadu(kmax),
                fmin = pb_v4_loadu(kmin), thr = pb_v4_set1(threshold);
    const float *lp[PB_SOA_FAST], *lm[PB_SOA_FAST];
    pb_v4 lw[PB_SOA_FAST], wk[PB_SOA_FAST];
    uint32_t whole = bone_count / 4u, g, k;
    if (layer_count == 0 || layer_count > PB_SOA_FAST) {
        blend_generic(layers, layer_count, rest, bone_count, threshold, out, 0);
        return;
    }
    for (k = 0; k < layer_count; k++) {
        lp[k] = (const float *)(const void *)layers[k].poses;
        lm[k] = layers[k].bone_weights;
        lw[k] = pb_v4_set1(pb_weight01(layers[k].weight));
    }
    for (g = 0; g < whole; g++) {
        const float *rp = (const float *)(const void *)&rest[g], *p = lp[0] + 40u * g;
        float *o = (float *)(void *)&out[g];
        const pb_v4 r0 = LD(p, 0), r1 = LD(p, 1), r2 = LD(p, 2), r3 = LD(p, 3); /* the hemisphere */
        pb_v4 a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, w, wsum, rw = zero, len2, inv;
        pb_m4 fb, add = pb_v4_gt(zero, zero), ok;
        unsigned fallback;
        w = lw[0];
        if (lm[0]) w = pb_v4_mul(w, weight01(pb_v4_loadu(lm[0] + 4u * g), zero, one));
        wk[0] = wsum = w;
        a0 = pb_v4_mul(w, r0);
        a1 = pb_v4_mul(w, r1);
        a2 = pb_v4_mul(w, r2);
        a3 = pb_v4_mul(w, r3);
        for (k = 1; k < layer_count; k++) {
            pb_v4 q0, q1, q2, q3, ws;
            p = lp[k] + 40u * g;
            q0 = LD(p, 0), q1 = LD(p, 1), q2 = LD(p, 2), q3 = LD(p, 3);
            w = lw[k];
            if (lm[k]) w = pb_v4_mul(w, weight01(pb_v4_loadu(lm[k] + 4u * g), zero, one));
            wk[k] = w;
            ws = pb_v4_xor(w, pb_v4_and(pb_v4_lt(DOT4(r0, r1, r2, r3, q0, q1, q2, q3), zero), sign));
            a0 = pb_v4_add(a0, pb_v4_mul(ws, q0));
            a1 = pb_v4_add(a1, pb_v4_mul(ws, q1));
            a2 = pb_v4_add(a2, pb_v4_mul(ws, q2));
            a3 = pb_v4_add(a3, pb_v4_mul(ws, q3));
            wsum = pb_v4_add(wsum, w);
        }
        fb = pb_v4_lt(wsum, thr);
        fallback = pb_m4_bits(fb);
        if (fallback) {
            pb_v4 q0 = LD(rp, 0), q1 = LD(rp, 1), q2 = LD(rp, 2), q3 = LD(rp, 3), rs;
            add = pb_v4_gt(wsum, zero);
            rw = pb_v4_sub(thr, wsum);
            rs = pb_v4_xor(rw, pb_v4_and(pb_v4_lt(DOT4(r0, r1, r2, r3, q0, q1, q2, q3), zero), sign));
            a0 = FALLBACK(a0, rs, q0);
            a1 = FALLBACK(a1, rs, q1);
            a2 = FALLBACK(a2, rs, q2);
            a3 = FALLBACK(a3, rs, q3);
        }
        len2 = DOT4(a0, a1, a2, a3, a0, a1, a2, a3);
        ok = pb_m4_and(pb_v4_gt(len2, zero), pb_v4_le(len2, fmax));
        inv = pb_v4_div(one, pb_v4_sqrt(len2)); /* lanes not ok (0, inf, NaN) are masked below */
        pb_v4_store(o, pb_v4_and(ok, pb_v4_mul(a0, inv)));
        pb_v4_store(o + 4, pb_v4_and(ok, pb_v4_mul(a1, inv)));
        pb_v4_store(o + 8, pb_v4_and(ok, pb_v4_mul(a2, inv)));
        pb_v4_store(o + 12, pb_v4_select(ok, pb_v4_mul(a3, inv), one));
        p = lp[0] + 40u * g;
        w = wk[0];
        a4 = pb_v4_mul(w, LD(p, 4));
        a5 = pb_v4_mul(w, LD(p, 5));
        a6 = pb_v4_mul(w, LD(p, 6));
        a7 = pb_v4_mul(w, LD(p, 7));
        a8 = pb_v4_mul(w, LD(p, 8));
        a9 = pb_v4_mul(w, LD(p, 9));
        for (k = 1; k < layer_count; k++) {
            p = lp[k] + 40u * g;
            w = wk[k];
            a4 = pb_v4_add(a4, pb_v4_mul(w, LD(p, 4)));
            a5 = pb_v4_add(a5, pb_v4_mul(w, LD(p, 5)));
            a6 = pb_v4_add(a6, pb_v4_mul(w, LD(p, 6)));
            a7 = pb_v4_add(a7, pb_v4_mul(w, LD(p, 7)));
            a8 = pb_v4_add(a8, pb_v4_mul(w, LD(p, 8)));
            a9 = pb_v4_add(a9, pb_v4_mul(w, LD(p, 9)));
        }
        if (fallback) {
            a4 = FALLBACK(a4, rw, LD(rp, 4));
            a5 = FALLBACK(a5, rw, LD(rp, 5));
            a6 = FALLBACK(a6, rw, LD(rp, 6));
            a7 = FALLBACK(a7, rw, LD(rp, 7));
            a8 = FALLBACK(a8, rw, LD(rp, 8));
            a9 = FALLBACK(a9, rw, LD(rp, 9));
            wsum = pb_v4_select(fb, thr, wsum);
        }
        inv = pb_v4_div(one, wsum);
        a4 = pb_v4_mul(a4, inv);
        a5 = pb_v4_mul(a5, inv);
        a6 = pb_v4_mul(a6, inv);
        a7 = pb_v4_mul(a7, inv);
        a8 = pb_v4_mul(a8, inv);
        a9 = pb_v4_mul(a9, inv);
        pb_v4_store(o + 16, a4);
        pb_v4_store(o + 20, a5);
        pb_v4_store(o + 24, a6);
        pb_v4_store(o + 28, a7);
        pb_v4_store(o + 32, a8);
        pb_v4_store(o + 36, a9);
        /* The clamps only where some lane may need one: the six rows' sum
         * minus itself is 0 when every value is finite (and the sum did not
         * overflow), NaN otherwise; a block that fails (an infinity, a NaN
         * or merely huge values) is clamped from what was stored, the same
         * min/max as the generic path, so the bits do not depend on it. */
        w = pb_v4_add(pb_v4_add(pb_v4_add(a4, a5), pb_v4_add(a6, a7)), pb_v4_add(a8, a9));
        if (pb_m4_bits(pb_v4_le(pb_v4_sub(w, w), zero)) != 0xFu) {
            for (k = 4u; k < 10u; k++) pb_v4_store(o + 4u * k, clamp_finite(LD(o, k), fmax, fmin));
        }
    }
    if (whole * 4u < bone_count) blend_generic(layers, layer_count, rest, bone_count, threshold, out, whole);
}
/* The AoS job's whole groups (pb_blend_aos_*): the loop above on bone
 * poses, four bones a step, each layer's four poses transposed into rows
 * in registers and the results transposed back.  The same operations on
 * the same rows as the blocked loop, so the bits of pb_blend_layer +
 * pb_blend_finish.  (One body for both forms, choosing its loads by a
 * flag, cost the blocked loop 3% more instructions, which put it past
 * 0.8x ozz's BlendingJob with 4 layers, so each form keeps its own.) */

/* The rotation rows of four bone poses at p: their first four floats
 * transposed. */
PB_FORCE_INLINE void rot_rows(const float *p, pb_v4 *q0, pb_v4 *q1, pb_v4 *q2, pb_v4 *q3) {
    *q0 = pb_v4_loadu(p), *q1 = pb_v4_loadu(p + 10), *q2 = pb_v4_loadu(p + 20), *q3 = pb_v4_loadu(p + 30);
    pb_v4_transpose(q0, q1, q2, q3);
}

/* Rows 4..9 (translation, scale) of four bone poses: floats 4..7 and the
 * overlapping 6..9 of each bone transposed (rows tx ty tz sx, then the
 * last two of tz sx sy sz).  Named rows, not an array: compilers keep
 * named vectors in registers where an indexed array goes to the stack. */
PB_FORCE_INLINE void ts_rows(const float *p, pb_v4 *t4, pb_v4 *t5, pb_v4 *t6, pb_v4 *t7, pb_v4 *t8, pb_v4 *t9) {
    pb_v4 u0 = pb_v4_loadu(p + 6), u1 = pb_v4_loadu(p + 16), u2 = pb_v4_loadu(p + 26), u3 = pb_v4_loadu(p + 36);
    *t4 = pb_v4_loadu(p + 4), *t5 = pb_v4_loadu(p + 14), *t6 = pb_v4_loadu(p + 24), *t7 = pb_v4_loadu(p + 34);
    pb_v4_transpose(t4, t5, t6, t7);
    pb_v4_transpose(&u0, &u1, &u2, &u3);
    *t8 = u2, *t9 = u3;
}
#if defined(PLUMBOB_PORT_SSE2)
void pb_blend_aos_sse2(const float *const *poses, const float *const *masks, const float *weights,
                       uint32_t layer_count, const float *rest, uint32_t whole, float threshold, float *out)
#else
void pb_blend_aos_neon(const float *const *poses, const float *const *masks, const float *weights,
                       uint32_t layer_count, const float *rest, uint32_t whole, float threshold, float *out)
#endif
{
    /* the clamp's bounds as whole vectors in memory: one load each where
     * the compiler runs short of registers, not a load and a shuffle */
    static const float kmax[4] = {FLT_MAX, FLT_MAX, FLT_MAX, FLT_MAX}, kmin[4] = {-FLT_MAX, -FLT_MAX, -FLT_MAX, -FLT_MAX};
    const pb_v4 zero = pb_v4_set1(0.0f), one = pb_v4_set1(1.0f), sign = pb_v4_set1(-0.0f), fmax = pb_v4_loadu(kmax),
                fmin = pb_v4_loadu(kmin), thr = pb_v4_set1(threshold);
    const float *lp[PB_SOA_FAST], *lm[PB_SOA_FAST];
    pb_v4 lw[PB_SOA_FAST], wk[PB_SOA_FAST];
    uint32_t g, k;
    for (k = 0; k < layer_count; k++) {
        lp[k] = poses[k];
        lm[k] = masks[k];
        lw[k] = pb_v4_set1(pb_weight01(weights[k]));
    }
    for (g = 0; g < whole; g++) {
        const float *rp = rest + 40u * g, *p = lp[0] + 40u * g;
        float *o = out + 40u * g;
        pb_v4 r0, r1, r2, r3; /* the hemisphere (layer 0's rotations) */
        pb_v4 a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, w, wsum, rw = zero, len2, inv;
        pb_v4 t4, t5, t6, t7, t8, t9, u0, u1, u2, u3;
        pb_m4 fb, add = pb_v4_gt(zero, zero), ok;
        unsigned fallback;
        rot_rows(p, &r0, &r1, &r2, &r3);
        w = lw[0];
        if (lm[0]) w = pb_v4_mul(w, weight01(pb_v4_loadu(lm[0] + 4u * g), zero, one));
        wk[0] = wsum = w;
        a0 = pb_v4_mul(w, r0);
        a1 = pb_v4_mul(w, r1);
        a2 = pb_v4_mul(w, r2);
        a3 = pb_v4_mul(w, r3);
        for (k = 1; k < layer_count; k++) {
            pb_v4 q0, q1, q2, q3, ws;
            rot_rows(lp[k] + 40u * g, &q0, &q1, &q2, &q3);
            w = lw[k];
            if (lm[k]) w = pb_v4_mul(w, weight01(pb_v4_loadu(lm[k] + 4u * g), zero, one));
            wk[k] = w;
            ws = pb_v4_xor(w, pb_v4_and(pb_v4_lt(DOT4(r0, r1, r2, r3, q0, q1, q2, q3), zero), sign));
            a0 = pb_v4_add(a0, pb_v4_mul(ws, q0));
            a1 = pb_v4_add(a1, pb_v4_mul(ws, q1));
            a2 = pb_v4_add(a2, pb_v4_mul(ws, q2));
            a3 = pb_v4_add(a3, pb_v4_mul(ws, q3));
            wsum = pb_v4_add(wsum, w);
        }
        fb = pb_v4_lt(wsum, thr);
        fallback = pb_m4_bits(fb);
        if (fallback) {
            pb_v4 q0, q1, q2, q3, rs;
            rot_rows(rp, &q0, &q1, &q2, &q3);
            add = pb_v4_gt(wsum, zero);
            rw = pb_v4_sub(thr, wsum);
            rs = pb_v4_xor(rw, pb_v4_and(pb_v4_lt(DOT4(r0, r1, r2, r3, q0, q1, q2, q3), zero), sign));
            a0 = FALLBACK(a0, rs, q0);
            a1 = FALLBACK(a1, rs, q1);
            a2 = FALLBACK(a2, rs, q2);
            a3 = FALLBACK(a3, rs, q3);
        }
        len2 = DOT4(a0, a1, a2, a3, a0, a1, a2, a3);
        ok = pb_m4_and(pb_v4_gt(len2, zero), pb_v4_le(len2, fmax));
        inv = pb_v4_div(one, pb_v4_sqrt(len2)); /* lanes not ok (0, inf, NaN) are masked below */
        a0 = pb_v4_and(ok, pb_v4_mul(a0, inv));
        a1 = pb_v4_and(ok, pb_v4_mul(a1, inv));
        a2 = pb_v4_and(ok, pb_v4_mul(a2, inv));
        a3 = pb_v4_select(ok, pb_v4_mul(a3, inv), one);
        pb_v4_transpose(&a0, &a1, &a2, &a3);
        pb_v4_store(o, a0);
        pb_v4_store(o + 10, a1);
        pb_v4_store(o + 20, a2);
        pb_v4_store(o + 30, a3);
        ts_rows(p, &t4, &t5, &t6, &t7, &t8, &t9);
        w = wk[0];
        a4 = pb_v4_mul(w, t4);
        a5 = pb_v4_mul(w, t5);
        a6 = pb_v4_mul(w, t6);
        a7 = pb_v4_mul(w, t7);
        a8 = pb_v4_mul(w, t8);
        a9 = pb_v4_mul(w, t9);
        for (k = 1; k < layer_count; k++) {
            const float *q = lp[k] + 40u * g;
            ts_rows(q, &t4, &t5, &t6, &t7, &t8, &t9);
            w = wk[k];
            a4 = pb_v4_add(a4, pb_v4_mul(w, t4));
            a5 = pb_v4_add(a5, pb_v4_mul(w, t5));
            a6 = pb_v4_add(a6, pb_v4_mul(w, t6));
            a7 = pb_v4_add(a7, pb_v4_mul(w, t7));
            a8 = pb_v4_add(a8, pb_v4_mul(w, t8));
            a9 = pb_v4_add(a9, pb_v4_mul(w, t9));
        }
        if (fallback) {
            ts_rows(rp, &t4, &t5, &t6, &t7, &t8, &t9);
            a4 = FALLBACK(a4, rw, t4);
            a5 = FALLBACK(a5, rw, t5);
            a6 = FALLBACK(a6, rw, t6);
            a7 = FALLBACK(a7, rw, t7);
            a8 = FALLBACK(a8, rw, t8);
            a9 = FALLBACK(a9, rw, t9);
            wsum = pb_v4_select(fb, thr, wsum);
        }
        inv = pb_v4_div(one, wsum);
        a4 = pb_v4_mul(a4, inv);
        a5 = pb_v4_mul(a5, inv);
        a6 = pb_v4_mul(a6, inv);
        a7 = pb_v4_mul(a7, inv);
        a8 = pb_v4_mul(a8, inv);
        a9 = pb_v4_mul(a9, inv);
        /* The clamps only where some lane may need one: the six rows' sum
         * minus itself is 0 when every value is finite (and the sum did not
         * overflow), NaN otherwise; a block that fails (an infinity, a NaN
         * or merely huge values) is clamped, and min/max leave finite values
         * as they are, so the bits do not depend on the test. */
        w = pb_v4_add(pb_v4_add(pb_v4_add(a4, a5), pb_v4_add(a6, a7)), pb_v4_add(a8, a9));
        if (pb_m4_bits(pb_v4_le(pb_v4_sub(w, w), zero)) != 0xFu) {
            a4 = clamp_finite(a4, fmax, fmin);
            a5 = clamp_finite(a5, fmax, fmin);
            a6 = clamp_finite(a6, fmax, fmin);
            a7 = clamp_finite(a7, fmax, fmin);
            a8 = clamp_finite(a8, fmax, fmin);
            a9 = clamp_finite(a9, fmax, fmin);
        }
        /* each bone: tx ty tz sx at 4, then tz sx sy sz over the same tz sx at 6 */
        u0 = a6, u1 = a7, u2 = a8, u3 = a9;
        pb_v4_transpose(&a4, &a5, &a6, &a7);
        pb_v4_transpose(&u0, &u1, &u2, &u3);
        pb_v4_store(o + 4, a4);
        pb_v4_store(o + 6, u0);
        pb_v4_store(o + 14, a5);
        pb_v4_store(o + 16, u1);
        pb_v4_store(o + 24, a6);
        pb_v4_store(o + 26, u2);
        pb_v4_store(o + 34, a7);
        pb_v4_store(o + 36, u3);
    }
}

#undef LD
#undef DOT4
#undef FALLBACK
#else
typedef int pb_blend_soa_simd_unused; /* ISO C wants something in a unit */
#endif
