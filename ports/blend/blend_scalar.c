/* Scalar reference of one pose-blend layer (the definition the SIMD twins
 * match): per bone its weight, the shorter-arc sign against layer 0's
 * rotation, then ten products added into the accumulator. */
#include "kernels.h"
#include "pb_math.h"

void pb_blend_layer_scalar(const float *pose, const float *ref, float lw, const float *bw, uint32_t count,
                           int first, float *acc, float *wsum) {
    uint32_t b, i;
    for (b = 0; b < count; b++) {
        const float *p = pose + 10u * b;
        float *a = acc + 10u * b;
        float w = bw ? lw * pb_weight01(bw[b]) : lw, ws = w;
        if (first) {
            for (i = 0; i < 4u; i++) a[i] = ws * p[i];
            for (i = 4u; i < 10u; i++) a[i] = w * p[i];
            wsum[b] = w;
        } else {
            const float *r = ref + 10u * b;
            ws = pb_blend_signed(w, ((r[0] * p[0] + r[1] * p[1]) + r[2] * p[2]) + r[3] * p[3]);
            for (i = 0; i < 4u; i++) a[i] = a[i] + ws * p[i];
            for (i = 4u; i < 10u; i++) a[i] = a[i] + w * p[i];
            wsum[b] = wsum[b] + w;
        }
    }
}

/* One bone's end of the blend (shared with the SIMD twins' tails). */
static float clamp_finite(float x) {
    return x > FLT_MAX ? FLT_MAX : (x < -FLT_MAX ? -FLT_MAX : x);
}

void pb_blend_finish_scalar(float *acc, const float *wsum, const float *rest, const float *ref, float threshold,
                            uint32_t count) {
    uint32_t b, i;
    for (b = 0; b < count; b++) {
        float *a = acc + 10u * b, w = wsum[b], len2, inv;
        if (w < threshold) w = pb_blend_fallback(a, w, rest + 10u * b, ref + 10u * b, threshold);
        len2 = ((a[0] * a[0] + a[1] * a[1]) + a[2] * a[2]) + a[3] * a[3];
        if (!(len2 > 0.0f) || len2 > FLT_MAX) {
            a[0] = a[1] = a[2] = 0.0f;
            a[3] = 1.0f;
        } else {
            inv = 1.0f / pb_sqrtf_rn(len2);
            for (i = 0; i < 4u; i++) a[i] = a[i] * inv;
        }
        inv = 1.0f / w;
        for (i = 4u; i < 10u; i++) a[i] = clamp_finite(a[i] * inv);
    }
}
