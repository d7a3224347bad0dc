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

/* The blocked form: each bone's 10 floats gathered from its block's lane,
 * then the loop above's two steps. */
void pb_skeleton_model_soa_scalar(const int32_t *parent, const plumbob_pose_soa *local, uint32_t count, float *model) {
    uint32_t i;
    for (i = 0; i < count; i++) {
        const plumbob_pose_soa *b = local + i / 4u;
        uint32_t l = i % 4u;
        float q[4], t[3], sc[3], m[12];
        int32_t p = parent[i];
        int k;
        q[0] = b->rx[l]; q[1] = b->ry[l]; q[2] = b->rz[l]; q[3] = b->rw[l];
        t[0] = b->tx[l]; t[1] = b->ty[l]; t[2] = b->tz[l];
        sc[0] = b->sx[l]; sc[1] = b->sy[l]; sc[2] = b->sz[l];
        pb_mat34_trs(q, t, sc, m);
        if (p < 0)
            for (k = 0; k < 12; k++) model[12u * i + (unsigned)k] = m[k];
        else
            pb_mat34_mul12(model + 12u * (uint32_t)p, m, model + 12u * i);
    }
}
