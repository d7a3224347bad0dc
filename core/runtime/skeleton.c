/* Skeletons: the rest-pose fill and the local -> model job that every engine
 * runs after sampling.  Both are linear in the bone count and read parents
 * from already computed bones only (parent-before-child order is checked),
 * so a hostile skeleton can only be refused, never make them loop or read
 * outside the arrays. */
#include "plumbob/runtime.h"
#include "kernels.h"
#include "pb_math.h"

plumbob_result plumbob_skeleton_rest_pose(const plumbob_skeleton *s, uint32_t first, uint32_t count,
                                          plumbob_bone_pose *poses, uint32_t pose_count) {
    uint32_t i;
    if (!s || !poses || first > s->bone_count || count > s->bone_count - first) {
        return PLUMBOB_ERR_INVALID_ARGUMENT;
    }
    if (count > 0 && !s->rest) return PLUMBOB_ERR_INVALID_ARGUMENT;
    if (pose_count < first || count > pose_count - first) return PLUMBOB_ERR_OUTPUT_TOO_SMALL;
    for (i = first; i < first + count; i++) poses[i] = s->rest[i];
    return PLUMBOB_OK;
}

/* The kernels read poses as 10 floats (rotation, translation, scale) and
 * write matrices as 12: the public structs must have exactly that layout. */
typedef char pb_pose_is_10_floats[(sizeof(plumbob_bone_pose) == 10 * sizeof(float) &&
                                   offsetof(plumbob_bone_pose, translation) == 4 * sizeof(float) &&
                                   offsetof(plumbob_bone_pose, scale) == 7 * sizeof(float)) ? 1 : -1];
typedef char pb_mat34_is_12_floats[sizeof(plumbob_mat34) == 12 * sizeof(float) ? 1 : -1];

plumbob_mat34 plumbob_mat34_from_pose(const plumbob_bone_pose *pose) {
    plumbob_mat34 m;
    float q[4], t[3], sc[3], o[12];
    int r, c;
    q[0] = pose->rotation.x; q[1] = pose->rotation.y; q[2] = pose->rotation.z; q[3] = pose->rotation.w;
    t[0] = pose->translation.x; t[1] = pose->translation.y; t[2] = pose->translation.z;
    sc[0] = pose->scale.x; sc[1] = pose->scale.y; sc[2] = pose->scale.z;
    pb_mat34_trs(q, t, sc, o);
    for (r = 0; r < 3; r++)
        for (c = 0; c < 4; c++) m.m[r][c] = o[4 * r + c];
    return m;
}

plumbob_result plumbob_skeleton_model(const plumbob_skeleton *s, const plumbob_bone_pose *local,
                                      plumbob_mat34 *model, uint32_t model_count) {
    plumbob_result r;
    if (!s || !model) return PLUMBOB_ERR_INVALID_ARGUMENT;
    r = plumbob_skeleton_validate(s);
    if (r != PLUMBOB_OK) return r;
    if (model_count < s->bone_count) return PLUMBOB_ERR_OUTPUT_TOO_SMALL;
    if (!local) local = s->rest;
    /* the port's kernel (ports/kernels.h): every port gives the scalar bits */
    PB_SKELETON_MODEL(s->parent, &local[0].rotation.x, s->bone_count, &model[0].m[0][0]);
    return PLUMBOB_OK;
}

plumbob_result plumbob_skeleton_model_soa(const plumbob_skeleton *s, const plumbob_pose_soa *local, uint32_t local_blocks,
                                          plumbob_mat34 *model, uint32_t model_count) {
    plumbob_result r;
    if (!s || !model) return PLUMBOB_ERR_INVALID_ARGUMENT;
    r = plumbob_skeleton_validate(s);
    if (r != PLUMBOB_OK) return r;
    if (s->bone_count == 0) return PLUMBOB_OK;
    /* a block per four bones read in full (padding lanes too); model written
       block by block would overwrite blocks not yet read if it were local */
    if (!local || local_blocks < plumbob_pose_soa_blocks(s->bone_count) || (const void *)local == (const void *)model)
        return PLUMBOB_ERR_INVALID_ARGUMENT;
    if (model_count < s->bone_count) return PLUMBOB_ERR_OUTPUT_TOO_SMALL;
    PB_SKELETON_MODEL_SOA(s->parent, local, s->bone_count, &model[0].m[0][0]);
    return PLUMBOB_OK;
}

plumbob_result plumbob_skeleton_model_rotations(const plumbob_skeleton *s, const plumbob_bone_pose *local,
                                                plumbob_quat *rotations, uint32_t rotation_count) {
    plumbob_result r;
    uint32_t k;
    if (!s || !rotations) return PLUMBOB_ERR_INVALID_ARGUMENT;
    r = plumbob_skeleton_validate(s);
    if (r != PLUMBOB_OK) return r;
    if (rotation_count < s->bone_count) return PLUMBOB_ERR_OUTPUT_TOO_SMALL;
    if (!local) local = s->rest;
    for (k = 0; k < s->bone_count; k++) { /* parents come first (validated), so theirs are final */
        plumbob_quat q = plumbob_quat_normalize(local[k].rotation);
        int32_t p = s->parent[k];
        rotations[k] = p < 0 ? q : plumbob_quat_normalize(plumbob_quat_mul(rotations[p], q));
    }
    return PLUMBOB_OK;
}
