/* The blocked pose form (plumbob_pose_soa, base.h): its size, the
 * converters from and to bone_pose arrays, and the blend over it.  The
 * blend checks its arguments once and hands the rest to the port's
 * kernel, which runs every layer over a block of four bones with the
 * accumulator in registers. */
#include "plumbob/runtime.h"
#include "kernels.h"

uint32_t plumbob_pose_soa_blocks(uint32_t bone_count) {
    return bone_count / 4u + (bone_count % 4u != 0u);
}

plumbob_result plumbob_pose_to_soa(const plumbob_bone_pose *in, uint32_t bone_count, plumbob_pose_soa *out,
                                   uint32_t out_blocks) {
    static const float identity[10] = {0.0f, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f, 0.0f, 1.0f, 1.0f, 1.0f};
    uint32_t blocks = plumbob_pose_soa_blocks(bone_count), whole = bone_count / 4u, l, i;
    if (bone_count == 0) return PLUMBOB_OK;
    if (!in || !out) return PLUMBOB_ERR_INVALID_ARGUMENT;
    if (out_blocks < blocks) return PLUMBOB_ERR_OUTPUT_TOO_SMALL;
    PB_POSE_TO_SOA(&in[0].rotation.x, whole, (float *)(void *)out);
    if (whole < blocks) { /* the last block: padding lanes get the identity */
        float *o = (float *)(void *)&out[whole];
        for (l = 0; l < 4u; l++) {
            const float *p = 4u * whole + l < bone_count ? &in[4u * whole + l].rotation.x : identity;
            for (i = 0; i < 10u; i++) o[4u * i + l] = p[i];
        }
    }
    return PLUMBOB_OK;
}

plumbob_result plumbob_pose_from_soa(const plumbob_pose_soa *in, uint32_t bone_count, plumbob_bone_pose *out,
                                     uint32_t out_count) {
    uint32_t whole = bone_count / 4u, b, i;
    if (bone_count == 0) return PLUMBOB_OK;
    if (!in || !out) return PLUMBOB_ERR_INVALID_ARGUMENT;
    if (out_count < bone_count) return PLUMBOB_ERR_OUTPUT_TOO_SMALL;
    PB_POSE_FROM_SOA((const float *)(const void *)in, whole, &out[0].rotation.x);
    for (b = 4u * whole; b < bone_count; b++) {
        const float *s = (const float *)(const void *)&in[b / 4u];
        float *o = &out[b].rotation.x;
        for (i = 0; i < 10u; i++) o[i] = s[4u * i + b % 4u];
    }
    return PLUMBOB_OK;
}

plumbob_result plumbob_pose_blend_soa(const plumbob_blend_layer_soa *layers, uint32_t layer_count,
                                      const plumbob_pose_soa *rest, uint32_t bone_count, float threshold,
                                      plumbob_pose_soa *out, uint32_t out_blocks) {
    uint32_t k;
    if (layer_count > 0 && !layers) return PLUMBOB_ERR_INVALID_ARGUMENT;
    if (!(threshold > 0.0f && threshold <= 1.0f)) return PLUMBOB_ERR_INVALID_ARGUMENT;
    if (bone_count == 0) return PLUMBOB_OK;
    if (!rest || !out || out == rest) return PLUMBOB_ERR_INVALID_ARGUMENT;
    for (k = 0; k < layer_count; k++)
        if (!layers[k].poses || layers[k].poses == out) return PLUMBOB_ERR_INVALID_ARGUMENT;
    if (out_blocks < plumbob_pose_soa_blocks(bone_count)) return PLUMBOB_ERR_OUTPUT_TOO_SMALL;
    PB_BLEND_SOA(layers, layer_count, rest, bone_count, threshold, out);
    return PLUMBOB_OK;
}

plumbob_result plumbob_pose_additive_apply_soa(const plumbob_pose_soa *base, const plumbob_pose_soa *delta, float weight,
                                               const float *bone_weights, uint32_t bone_count, plumbob_pose_soa *out,
                                               uint32_t out_blocks) {
    if (bone_count == 0) return PLUMBOB_OK;
    if (!base || !delta || !out || out == delta) return PLUMBOB_ERR_INVALID_ARGUMENT;
    if (out_blocks < plumbob_pose_soa_blocks(bone_count)) return PLUMBOB_ERR_OUTPUT_TOO_SMALL;
    PB_ADDITIVE_SOA(base, delta, pb_weight01(weight), bone_weights, bone_count, out);
    return PLUMBOB_OK;
}
