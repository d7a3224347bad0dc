/* Scalar reference of one pose-blend layer (the definition the SIMD twins
 * match): per bone its weight, the shorter-arc sign against layer 0's
 * rotation, then ten products added into the accumulator. */
#include "kernels.h"

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
            if (((r[0] * p[0] + r[1] * p[1]) + r[2] * p[2]) + r[3] * p[3] < 0.0f) ws = -w;
            for (i = 0; i < 4u; i++) a[i] = a[i] + ws * p[i];
            for (i = 4u; i < 10u; i++) a[i] = a[i] + w * p[i];
            wsum[b] = wsum[b] + w;
        }
    }
}
