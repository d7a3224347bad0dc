/* Scalar reference of the blocked additive apply
 * (plumbob_pose_additive_apply_soa): pb_additive_bone, the AoS job's own
 * body, lane by lane, so each bone gets the AoS job's bits.  The SIMD
 * twins match it lane for lane. */
#include "kernels.h"

void pb_additive_soa_scalar(const plumbob_pose_soa *base, const plumbob_pose_soa *delta, float lw, const float *bw,
                            uint32_t bone_count, plumbob_pose_soa *out) {
    uint32_t blocks = bone_count / 4u + (bone_count % 4u != 0u), g, l, i;
    for (g = 0; g < blocks; g++) {
        const float *sb = (const float *)(const void *)&base[g], *db = (const float *)(const void *)&delta[g];
        float *o = (float *)(void *)&out[g];
        for (l = 0; l < 4u; l++) {
            uint32_t b = 4u * g + l;
            float s[10], d[10], r[10];
            for (i = 0; i < 10u; i++) { /* copies: out may be base */
                s[i] = sb[4u * i + l];
                d[i] = db[4u * i + l];
            }
            pb_additive_bone(s, d, bw && b < bone_count ? lw * pb_weight01(bw[b]) : lw, r);
            for (i = 0; i < 10u; i++) o[4u * i + l] = r[i];
        }
    }
}
