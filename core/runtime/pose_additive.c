/* Additive poses: a clip's difference from a reference pose, and that
 * difference laid on a base pose with a weight (runtime.h, Chapter 19b,
 * gives the formulas).  Bone by bone (the apply four at a time), so both
 * may run in place. */
#include "plumbob/runtime.h"
#include "kernels.h"
#include "pb_math.h"

plumbob_result plumbob_pose_additive_delta(const plumbob_bone_pose *ref, const plumbob_bone_pose *pose,
                                           uint32_t bone_count, plumbob_bone_pose *delta, uint32_t delta_count) {
    uint32_t b, i;
    if (bone_count == 0) return PLUMBOB_OK;
    if (!ref || !pose || !delta || delta == ref) return PLUMBOB_ERR_INVALID_ARGUMENT;
    if (delta_count < bone_count) return PLUMBOB_ERR_OUTPUT_TOO_SMALL;
    for (b = 0; b < bone_count; b++) {
        float r[10], p[10], rq[4], pq[4], d[10];
        for (i = 0; i < 10u; i++) { /* copies: delta may be pose */
            r[i] = (&ref[b].rotation.x)[i];
            p[i] = (&pose[b].rotation.x)[i];
        }
        for (i = 0; i < 4u; i++) {
            rq[i] = r[i];
            pq[i] = p[i];
        }
        pb_quat_normalize4(rq);
        pb_quat_normalize4(pq);
        rq[0] = -rq[0]; /* the conjugate: a unit quaternion's inverse */
        rq[1] = -rq[1];
        rq[2] = -rq[2];
        pb_quat_mul4(rq, pq, d);
        pb_quat_normalize4(d);
        for (i = 4u; i < 7u; i++) d[i] = pb_clamp_finite(p[i] - r[i]);
        for (i = 7u; i < 10u; i++) {
            float q = r[i] != 0.0f ? p[i] / r[i] : 1.0f;
            d[i] = q - q == 0.0f ? q : 1.0f; /* inf and NaN fail q - q == 0 */
        }
        for (i = 0; i < 10u; i++) (&delta[b].rotation.x)[i] = d[i];
    }
    return PLUMBOB_OK;
}

plumbob_result plumbob_pose_additive_apply(const plumbob_bone_pose *base, const plumbob_bone_pose *delta,
                                           float weight, const float *bone_weights, uint32_t bone_count,
                                           plumbob_bone_pose *out, uint32_t out_count) {
    uint32_t g, l, i;
    if (bone_count == 0) return PLUMBOB_OK;
    if (!base || !delta || !out || out == delta) return PLUMBOB_ERR_INVALID_ARGUMENT;
    if (out_count < bone_count) return PLUMBOB_ERR_OUTPUT_TOO_SMALL;
    /* four bones at a time through the blocked kernel, so both jobs share
     * one body (and its vector twins) and give the same bits; s and d are
     * read in whole before out (which may be base) is written */
    for (g = 0; g < bone_count; g += 4u) {
        uint32_t n = bone_count - g < 4u ? bone_count - g : 4u;
        plumbob_pose_soa s, d; /* the kernel runs in place on s: one block less of stack */
        float *sf = (float *)(void *)&s, *df = (float *)(void *)&d;
        if (n == 4u) {
            PB_POSE_TO_SOA(&base[g].rotation.x, 1, sf);
            PB_POSE_TO_SOA(&delta[g].rotation.x, 1, df);
        } else {
            for (l = 0; l < 4u; l++) { /* padding lanes repeat the last bone */
                const float *sp = &base[g + (l < n ? l : n - 1u)].rotation.x, *dp = &delta[g + (l < n ? l : n - 1u)].rotation.x;
                for (i = 0; i < 10u; i++) {
                    sf[4u * i + l] = sp[i];
                    df[4u * i + l] = dp[i];
                }
            }
        }
        PB_ADDITIVE_SOA(&s, &d, pb_weight01(weight), bone_weights ? bone_weights + g : NULL, n, &s);
        if (n == 4u) {
            PB_POSE_FROM_SOA(sf, 1, &out[g].rotation.x);
        } else {
            for (l = 0; l < n; l++)
                for (i = 0; i < 10u; i++) (&out[g + l].rotation.x)[i] = sf[4u * i + l];
        }
    }
    return PLUMBOB_OK;
}
