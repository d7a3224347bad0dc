/* Mirroring a pose across the rig's plane: each bone takes its mirror
 * bone's local transform, reflected.  Sims 3 rigs are built symmetric
 * across the model's YZ plane (auRig's left and right bones differ by the
 * sign of x in translation and of y and z in rotation), so the reflection
 * of a local transform is S T S with S = diag(-1, 1, 1): (x, y, z) ->
 * (-x, y, z) for translations, (x, y, z, w) -> (x, -y, -z, w) for
 * rotations, scale as it is.  Sign flips only: exact, its own inverse.
 * The per-bone work is the ports' kernel (PB_POSE_MIRROR, ports/blend/). */
#include "plumbob/runtime.h"
#include "kernels.h"

plumbob_result plumbob_rig_mirror_table(const plumbob_rig *rig, int32_t *opposite, uint32_t opposite_count) {
    uint32_t k, n;
    if (!rig || !opposite) return PLUMBOB_ERR_INVALID_ARGUMENT;
    n = rig->skeleton.bone_count;
    if (n > 0 && (!rig->bones || !rig->file_index || !rig->skeleton_index || n != rig->bone_count))
        return PLUMBOB_ERR_INVALID_ARGUMENT;
    if (opposite_count < n) return PLUMBOB_ERR_OUTPUT_TOO_SMALL;
    for (k = 0; k < n; k++) {
        uint32_t f = rig->file_index[k];
        int32_t o = f < n ? rig->bones[f].opposite : -1;
        opposite[k] = o >= 0 && (uint32_t)o < n && rig->skeleton_index[o] < n ? (int32_t)rig->skeleton_index[o]
                                                                                : (int32_t)k;
    }
    return PLUMBOB_OK;
}

plumbob_result plumbob_pose_mirror(const int32_t *opposite, const plumbob_bone_pose *in, uint32_t bone_count,
                                   plumbob_bone_pose *out, uint32_t out_count) {
    uint32_t k;
    if (bone_count == 0) return PLUMBOB_OK;
    if (!opposite || !in || !out || out == in) return PLUMBOB_ERR_INVALID_ARGUMENT;
    for (k = 0; k < bone_count; k++)
        if (opposite[k] < 0 || (uint32_t)opposite[k] >= bone_count) return PLUMBOB_ERR_BAD_INDEX;
    if (out_count < bone_count) return PLUMBOB_ERR_OUTPUT_TOO_SMALL;
    PB_POSE_MIRROR(opposite, &in[0].rotation.x, bone_count, &out[0].rotation.x);
    return PLUMBOB_OK;
}
