/* Scalar reference of the ANIM sampler's Euler step (the definition the
 * SIMD twins match): per rotation, plumbob_anim_euler_to_quat's
 * operations (sims2/anim_sample.c) in its order, so its bits. */
#include "kernels.h"
#include "pb_curve.h"
#include "pb_math.h"

void pb_anim_euler_scalar(const float *angles, uint32_t count, const uint32_t *slot, float *out, size_t stride) {
    uint32_t i;
    for (i = 0; i < count; i++) {
        float sx, cx, sy, cy, sz, cz, q[4], *o = out + stride * slot[i];
        pb_half_angle_sin_cos(angles[i], &sx, &cx);
        pb_half_angle_sin_cos(angles[count + i], &sy, &cy);
        pb_half_angle_sin_cos(angles[2u * count + i], &sz, &cz);
        q[3] = cz * cy * cx + sz * sy * sx; /* q = qz * qy * qx: X is applied first */
        q[0] = cz * cy * sx - sz * sy * cx;
        q[1] = cz * sy * cx + sz * cy * sx;
        q[2] = sz * cy * cx - cz * sy * sx;
        pb_quat_normalize4(q);
        o[0] = q[0];
        o[1] = q[1];
        o[2] = q[2];
        o[3] = q[3];
    }
}
