/* The rigs' IK chains as two-bone chains: the first, second and last bone
 * of a chain, and its pole bone, in skeleton-view order. */
#include "plumbob/runtime.h"

static bool view_index(const plumbob_rig *rig, int32_t file, uint32_t *out) {
    if (file < 0 || (uint32_t)file >= rig->bone_count || rig->skeleton.bone_count != rig->bone_count) return false;
    *out = rig->skeleton_index ? rig->skeleton_index[file] : (uint32_t)file;
    return *out < rig->skeleton.bone_count;
}

plumbob_result plumbob_rig_ik_chain_bones(const plumbob_rig *rig, uint32_t chain, plumbob_ik_chain_bones *bones) {
    const plumbob_rig_ik_chain *c;
    uint32_t pole;
    if (!rig || !bones) return PLUMBOB_ERR_INVALID_ARGUMENT;
    if (chain >= rig->ik_chain_count || !rig->ik_chains) return PLUMBOB_ERR_BAD_INDEX;
    c = &rig->ik_chains[chain];
    if (c->bone_count < 3) return PLUMBOB_ERR_UNSUPPORTED;
    if (!c->bones || !view_index(rig, c->bones[0], &bones->start) || !view_index(rig, c->bones[1], &bones->mid) ||
        !view_index(rig, c->bones[c->bone_count - 1], &bones->end))
        return PLUMBOB_ERR_BAD_INDEX;
    bones->pole = view_index(rig, c->pole_vector, &pole) ? (int32_t)pole : -1;
    return PLUMBOB_OK;
}
