/* Pose blending: N weighted layers (each with an optional per-bone mask)
 * into one local pose, with the rest pose filling in where the weights
 * vanish.  Bones go in blocks so the accumulator (the output itself) and
 * the block's weight sums stay in cache while every layer passes over
 * them; the port's kernel does a layer's products, this file the
 * fallback and the normalization, the same on every port. */
#include "plumbob/runtime.h"
#include "kernels.h"
#include "pb_math.h"

#define PB_BLEND_BLOCK 64u

static float clamp_finite(float x) {
    return x > FLT_MAX ? FLT_MAX : (x < -FLT_MAX ? -FLT_MAX : x);
}

/* The rest-pose fallback and the division by the weight sum, for one bone
 * whose products are in a (10 floats) and weight sum is w. */
static void finish_bone(float *a, float w, const float *rest, const float *r, float threshold) {
    uint32_t i;
    float inv;
    if (w < threshold) { /* the rest pose joins with what is missing */
        float rw = threshold - w, rs = rw;
        if (((r[0] * rest[0] + r[1] * rest[1]) + r[2] * rest[2]) + r[3] * rest[3] < 0.0f) rs = -rw;
        if (w > 0.0f) {
            for (i = 0; i < 4u; i++) a[i] = a[i] + rs * rest[i];
            for (i = 4u; i < 10u; i++) a[i] = a[i] + rw * rest[i];
        } else { /* no layer weighs here: the accumulator holds only zeros */
            for (i = 0; i < 4u; i++) a[i] = rs * rest[i];
            for (i = 4u; i < 10u; i++) a[i] = rw * rest[i];
        }
        w = threshold;
    }
    pb_quat_normalize4(a);
    inv = 1.0f / w;
    for (i = 4u; i < 10u; i++) a[i] = clamp_finite(a[i] * inv);
}

plumbob_result plumbob_pose_blend(const plumbob_blend_layer *layers, uint32_t layer_count,
                                  const plumbob_bone_pose *rest, uint32_t bone_count, float threshold,
                                  plumbob_bone_pose *out, uint32_t out_count) {
    float wsum[PB_BLEND_BLOCK];
    uint32_t k, first, n;
    if (layer_count > 0 && !layers) return PLUMBOB_ERR_INVALID_ARGUMENT;
    if (!(threshold > 0.0f && threshold <= 1.0f)) return PLUMBOB_ERR_INVALID_ARGUMENT;
    if (bone_count == 0) return PLUMBOB_OK;
    if (!rest || !out || out == rest) return PLUMBOB_ERR_INVALID_ARGUMENT;
    for (k = 0; k < layer_count; k++)
        if (!layers[k].poses || layers[k].poses == out) return PLUMBOB_ERR_INVALID_ARGUMENT;
    if (out_count < bone_count) return PLUMBOB_ERR_OUTPUT_TOO_SMALL;
    for (first = 0; first < bone_count; first += n) {
        float *acc = &out[first].rotation.x;
        /* layer 0's rotations set the hemisphere; with no layers, the rest pose's */
        const float *ref = layer_count ? &layers[0].poses[first].rotation.x : &rest[first].rotation.x;
        uint32_t b;
        n = bone_count - first < PB_BLEND_BLOCK ? bone_count - first : PB_BLEND_BLOCK;
        if (layer_count == 0)
            for (b = 0; b < n; b++) {
                uint32_t i;
                wsum[b] = 0.0f;
                for (i = 0; i < 10u; i++) acc[10u * b + i] = 0.0f;
            }
        for (k = 0; k < layer_count; k++) {
            const plumbob_blend_layer *l = &layers[k];
            PB_BLEND_LAYER(&l->poses[first].rotation.x, ref, pb_weight01(l->weight),
                           l->bone_weights ? l->bone_weights + first : NULL, n, k == 0, acc, wsum);
        }
        for (b = 0; b < n; b++)
            finish_bone(acc + 10u * b, wsum[b], &rest[first + b].rotation.x, ref + 10u * b, threshold);
    }
    return PLUMBOB_OK;
}
