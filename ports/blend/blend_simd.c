/* The SIMD twin of pb_blend_layer_scalar, written once over simd4.h and
 * compiled as pb_blend_layer_sse2 or _neon.  A bone's weight and sign are
 * the scalar code's; its ten floats go as three vectors: the rotation
 * (0..3), translation and scale x (4..7) and scale (6..9).  The last two
 * overlap in floats 6 and 7: both are loaded before either is stored, and
 * both compute those lanes with the same operations, so the second store
 * writes the bits the first did.  Per float these are the scalar
 * reference's operations, so the bits match. */
#include "kernels.h"

#if defined(PLUMBOB_PORT_SSE2) || defined(PLUMBOB_PORT_NEON)
#include "simd4.h"

#if defined(PLUMBOB_PORT_SSE2)
void pb_blend_layer_sse2(const float *pose, const float *ref, float lw, const float *bw, uint32_t count,
                         int first, float *acc, float *wsum)
#else
void pb_blend_layer_neon(const float *pose, const float *ref, float lw, const float *bw, uint32_t count,
                         int first, float *acc, float *wsum)
#endif
{
    uint32_t b;
    if (first) {
        for (b = 0; b < count; b++) {
            const float *p = pose + 10u * b;
            float *a = acc + 10u * b;
            float w = bw ? lw * pb_weight01(bw[b]) : lw;
            pb_v4 vw = pb_v4_set1(w);
            pb_v4 q = pb_v4_mul(vw, pb_v4_loadu(p)), ts = pb_v4_mul(vw, pb_v4_loadu(p + 4)),
                  s = pb_v4_mul(vw, pb_v4_loadu(p + 6));
            pb_v4_store(a, q);
            pb_v4_store(a + 4, ts);
            pb_v4_store(a + 6, s);
            wsum[b] = w;
        }
        return;
    }
    for (b = 0; b < count; b++) {
        const float *p = pose + 10u * b, *r = ref + 10u * b;
        float *a = acc + 10u * b;
        float w = bw ? lw * pb_weight01(bw[b]) : lw, ws = w;
        pb_v4 pq = pb_v4_loadu(p), pts = pb_v4_loadu(p + 4), ps = pb_v4_loadu(p + 6);
        pb_v4 aq = pb_v4_loadu(a), ats = pb_v4_loadu(a + 4), as = pb_v4_loadu(a + 6);
        pb_v4 vw = pb_v4_set1(w);
        ws = pb_blend_signed(w, ((r[0] * p[0] + r[1] * p[1]) + r[2] * p[2]) + r[3] * p[3]);
        pb_v4_store(a, pb_v4_add(aq, pb_v4_mul(pb_v4_set1(ws), pq)));
        pb_v4_store(a + 4, pb_v4_add(ats, pb_v4_mul(vw, pts)));
        pb_v4_store(a + 6, pb_v4_add(as, pb_v4_mul(vw, ps)));
        wsum[b] = wsum[b] + w;
    }
}
/* The end of the blend, four bones at a time: their rotations transposed
 * to x, y, z, w rows (len2 in the scalar order, lane by lane; the square
 * root and division are correctly rounded on every port, as pb_sqrtf_rn
 * and the scalar division), then back; translation and scale per bone by
 * a splat of 1 / w, clamped with compare-and-select so NaN passes as in
 * the scalar code.  A group where some bone falls back takes the scalar
 * fallback first; the tail goes to the scalar reference. */
#if defined(PLUMBOB_PORT_SSE2)
void pb_blend_finish_sse2(float *acc, const float *wsum, const float *rest, const float *ref, float threshold,
                          uint32_t count)
#else
void pb_blend_finish_neon(float *acc, const float *wsum, const float *rest, const float *ref, float threshold,
                          uint32_t count)
#endif
{
    const pb_v4 zero = pb_v4_set1(0.0f), one = pb_v4_set1(1.0f), fmax = pb_v4_set1(FLT_MAX),
                fmin = pb_v4_set1(-FLT_MAX);
    uint32_t b = 0, l;
    for (; b + 4u <= count; b += 4u) {
        float *a = acc + 10u * b, w[4];
        pb_v4 x, y, z, q, len2, inv, wv;
        pb_m4 ok;
        for (l = 0; l < 4u; l++) {
            w[l] = wsum[b + l];
            if (w[l] < threshold)
                w[l] = pb_blend_fallback(a + 10u * l, w[l], rest + 10u * (b + l), ref + 10u * (b + l), threshold);
        }
        x = pb_v4_loadu(a);
        y = pb_v4_loadu(a + 10);
        z = pb_v4_loadu(a + 20);
        q = pb_v4_loadu(a + 30);
        pb_v4_transpose(&x, &y, &z, &q);
        len2 = pb_v4_add(pb_v4_add(pb_v4_add(pb_v4_mul(x, x), pb_v4_mul(y, y)), pb_v4_mul(z, z)), pb_v4_mul(q, q));
        ok = pb_m4_and(pb_v4_gt(len2, zero), pb_v4_le(len2, fmax));
        inv = pb_v4_div(one, pb_v4_sqrt(pb_v4_select(ok, len2, one)));
        x = pb_v4_select(ok, pb_v4_mul(x, inv), zero);
        y = pb_v4_select(ok, pb_v4_mul(y, inv), zero);
        z = pb_v4_select(ok, pb_v4_mul(z, inv), zero);
        q = pb_v4_select(ok, pb_v4_mul(q, inv), one);
        pb_v4_transpose(&x, &y, &z, &q);
        pb_v4_store(a, x);
        pb_v4_store(a + 10, y);
        pb_v4_store(a + 20, z);
        pb_v4_store(a + 30, q);
        wv = pb_v4_div(one, pb_v4_loadu(w));
        for (l = 0; l < 4u; l++) {
            float *t = a + 10u * l + 4u;
            pb_v4 s = pb_v4_splat(wv, l);
            pb_v4 t1 = pb_v4_mul(pb_v4_loadu(t), s), t2 = pb_v4_mul(pb_v4_loadu(t + 2), s);
            /* x > FLT_MAX ? FLT_MAX : x < -FLT_MAX ? -FLT_MAX : x, NaN left as it is */
            t1 = pb_v4_select(pb_v4_lt(fmax, t1), fmax, pb_v4_select(pb_v4_lt(t1, fmin), fmin, t1));
            t2 = pb_v4_select(pb_v4_lt(fmax, t2), fmax, pb_v4_select(pb_v4_lt(t2, fmin), fmin, t2));
            pb_v4_store(t, t1);
            pb_v4_store(t + 2, t2);
        }
    }
    if (b < count) pb_blend_finish_scalar(acc + 10u * b, wsum + b, rest + 10u * b, ref + 10u * b, threshold, count - b);
}
#else
typedef int pb_blend_simd_unused; /* ISO C wants something in a unit */
#endif
