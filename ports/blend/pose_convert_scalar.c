/* Scalar reference of the blocked pose converters on whole blocks
 * (pb_pose_to_soa_scalar, pb_pose_from_soa_scalar): bone 4g + l's float i
 * is lane l of row i of block g. */
#include "kernels.h"

void pb_pose_to_soa_scalar(const float *in, uint32_t blocks, float *out) {
    uint32_t g, l, i;
    for (g = 0; g < blocks; g++)
        for (l = 0; l < 4u; l++)
            for (i = 0; i < 10u; i++) out[40u * g + 4u * i + l] = in[40u * g + 10u * l + i];
}

void pb_pose_from_soa_scalar(const float *in, uint32_t blocks, float *out) {
    uint32_t g, l, i;
    for (g = 0; g < blocks; g++)
        for (l = 0; l < 4u; l++)
            for (i = 0; i < 10u; i++) out[40u * g + 10u * l + i] = in[40u * g + 4u * i + l];
}
