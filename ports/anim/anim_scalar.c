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

/* The scheduled sampler's curves, lane by lane (anim_sample.c's order). */
void pb_anim_curves_scalar(const float *lanes, uint32_t count, float ticks, float *values) {
    const float *t0 = lanes, *inv = lanes + count, *c0 = lanes + 2u * count, *c1 = lanes + 3u * count,
                *c2 = lanes + 4u * count, *c3 = lanes + 5u * count;
    uint32_t i;
    for (i = 0; i < count; i++) {
        float u = (ticks - t0[i]) * inv[i], h;
        u = u > 1.0f ? 1.0f : u;
        h = pb_cubic_at(c0[i], c1[i], c2[i], c3[i], u);
        values[i] = ticks <= t0[i] ? c0[i] : h;
    }
}
