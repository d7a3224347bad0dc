/* Pose blending: N weighted layers (each with an optional per-bone mask)
 * into one local pose, with the rest pose filling in where the weights
 * vanish.  Bones go in blocks so the accumulator (the output itself) and
 * the block's weight sums stay in cache while every layer passes over
 * them; the port's kernels do a layer's products and the end (the
 * fallback, the normalization), with the scalar reference's bits. */
#include "plumbob/runtime.h"
#include "kernels.h"
#include "pb_math.h"

#define PB_BLEND_BLOCK 64u

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
    first = 0;
#if defined(PB_BLEND_AOS)
    /* vector ports: whole groups of four bones in one pass, every layer
     * transposed into rows in registers (the blocked blend's body); the
     * rest below, the same bits */
    if (layer_count >= 1u && layer_count <= PB_BLEND_AOS_LAYERS && bone_count >= 4u) {
        const float *poses[PB_BLEND_AOS_LAYERS], *masks[PB_BLEND_AOS_LAYERS];
        float weights[PB_BLEND_AOS_LAYERS];
        for (k = 0; k < layer_count; k++) {
            poses[k] = &layers[k].poses[0].rotation.x;
            masks[k] = layers[k].bone_weights;
            weights[k] = layers[k].weight;
        }
        PB_BLEND_AOS(poses, masks, weights, layer_count, &rest[0].rotation.x, bone_count / 4u, threshold,
                     &out[0].rotation.x);
        first = bone_count / 4u * 4u;
    }
#endif
    for (; first < bone_count; first += n) {
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
        PB_BLEND_FINISH(acc, wsum, &rest[first].rotation.x, ref, threshold, n);
    }
    return PLUMBOB_OK;
}
