/* Scalar reference of the skeleton's local -> model job (the definition
 * the SIMD twins match): each bone's T * R * S matrix, then the parent's
 * model matrix times it, parents first. */
#include "kernels.h"

void pb_skeleton_model_scalar(const int32_t *parent, const plumbob_bone_pose *local, uint32_t count,
                              plumbob_mat34 *model) {
    uint32_t i;
    for (i = 0; i < count; i++) {
        plumbob_mat34 m = plumbob_mat34_from_pose(&local[i]);
        int32_t p = parent[i];
        model[i] = p < 0 ? m : plumbob_mat34_mul(&model[p], &m);
    }
}
