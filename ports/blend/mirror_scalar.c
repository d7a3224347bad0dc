/* Scalar reference of the pose mirror (plumbob_pose_mirror's loop): bone
 * k takes bone opposite[k]'s ten floats with the reflection's sign flips
 * (rotation y and z, translation x).  A negation is exact on every
 * target, NaN included (it flips the sign bit), so the twins' xor of the
 * sign bit gives the same bits. */
#include "kernels.h"

void pb_pose_mirror_scalar(const int32_t *opposite, const float *in, uint32_t count, float *out) {
    uint32_t k;
    for (k = 0; k < count; k++) {
        const float *p = in + 10u * (uint32_t)opposite[k];
        float *o = out + 10u * k;
        o[0] = p[0];
        o[1] = -p[1];
        o[2] = -p[2];
        o[3] = p[3];
        o[4] = -p[4];
        o[5] = p[5];
        o[6] = p[6];
        o[7] = p[7];
        o[8] = p[8];
        o[9] = p[9];
    }
}
