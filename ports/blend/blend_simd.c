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
        if (((r[0] * p[0] + r[1] * p[1]) + r[2] * p[2]) + r[3] * p[3] < 0.0f) ws = -w;
        pb_v4_store(a, pb_v4_add(aq, pb_v4_mul(pb_v4_set1(ws), pq)));
        pb_v4_store(a + 4, pb_v4_add(ats, pb_v4_mul(vw, pts)));
        pb_v4_store(a + 6, pb_v4_add(as, pb_v4_mul(vw, ps)));
        wsum[b] = wsum[b] + w;
    }
}
#else
typedef int pb_blend_simd_unused; /* ISO C wants something in a unit */
#endif
