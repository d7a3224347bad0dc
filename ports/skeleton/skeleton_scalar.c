/* Scalar reference of the skeleton's local -> model job (the definition
 * the SIMD twins match): each bone's T * R * S matrix, then the parent's
 * model matrix times it, parents first. */
#include "kernels.h"
#include "pb_math.h"

void pb_skeleton_model_scalar(const int32_t *parent, const float *local, uint32_t count, float *model) {
    uint32_t i;
    for (i = 0; i < count; i++) {
        const float *pose = local + 10u * i;
        float m[12];
        int32_t p = parent[i];
        int k;
        pb_mat34_trs(pose, pose + 4, pose + 7, m);
        if (p < 0)
            for (k = 0; k < 12; k++) model[12u * i + (unsigned)k] = m[k];
        else
            pb_mat34_mul12(model + 12u * (uint32_t)p, m, model + 12u * i);
    }
}
