/* Scalar reference of the blocked pose blend (plumbob_pose_blend_soa):
 * bone by bone inside each block, every layer, then the end, with the
 * AoS kernels' operations in their order (pb_blend_layer_scalar,
 * pb_blend_fallback, pb_blend_finish_scalar), so a bone's bits are the
 * AoS job's.  The SIMD twins match it lane for lane. */
#include "kernels.h"
#include "pb_math.h"

/* Component c (0..9: rx ry rz rw tx ty tz sx sy sz) of lane l. */
static float lane(const plumbob_pose_soa *p, uint32_t c, uint32_t l) {
    return ((const float *)(const void *)p)[4u * c + l];
}

void pb_blend_soa_scalar(const plumbob_blend_layer_soa *layers, uint32_t layer_count, const plumbob_pose_soa *rest,
                         uint32_t bone_count, float threshold, plumbob_pose_soa *out) {
    uint32_t blocks = bone_count / 4u + (bone_count % 4u != 0u), g, l, k, i;
    for (g = 0; g < blocks; g++) {
        float *o = (float *)(void *)&out[g];
        for (l = 0; l < 4u; l++) {
            uint32_t b = 4u * g + l;
            float a[10], r[10], ref[4], w = 0.0f;
            for (i = 0; i < 10u; i++) {
                a[i] = 0.0f;
                r[i] = lane(&rest[g], i, l);
            }
            for (i = 0; i < 4u; i++) ref[i] = layer_count ? lane(&layers[0].poses[g], i, l) : r[i];
            for (k = 0; k < layer_count; k++) {
                const plumbob_blend_layer_soa *ly = &layers[k];
                float lw = pb_weight01(ly->weight), p[10];
                float lwb = ly->bone_weights && b < bone_count ? lw * pb_weight01(ly->bone_weights[b]) : lw, ws = lwb;
                for (i = 0; i < 10u; i++) p[i] = lane(&ly->poses[g], i, l);
                if (k == 0) {
                    for (i = 0; i < 4u; i++) a[i] = ws * p[i];
                    for (i = 4u; i < 10u; i++) a[i] = lwb * p[i];
                    w = lwb;
                } else {
                    ws = pb_blend_signed(lwb, ((ref[0] * p[0] + ref[1] * p[1]) + ref[2] * p[2]) + ref[3] * p[3]);
                    for (i = 0; i < 4u; i++) a[i] = a[i] + ws * p[i];
                    for (i = 4u; i < 10u; i++) a[i] = a[i] + lwb * p[i];
                    w = w + lwb;
                }
            }
            if (w < threshold) w = pb_blend_fallback(a, w, r, ref, threshold);
            pb_blend_finish_scalar(a, &w, r, ref, threshold, 1u); /* w >= threshold: no second fallback */
            for (i = 0; i < 10u; i++) o[4u * i + l] = a[i];
        }
    }
}
