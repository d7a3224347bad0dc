/* Scalar reference CLIP lane kernel (the definition the SIMD twins match):
 * interpolate every lane of every group and store the bound ones.  The
 * core has already moved each lane's key pair to the frame's time. */
#include "kernels.h"
#include <float.h>
#include "pb_math.h"

/* alpha = min(max((t - ta) * |inv|, 0), 1) for lane l (inv's sign bit
 * marks a negated b, not a direction). */
static inline float lane_alpha(const uint16_t *ta, const float *inv, unsigned l, float t) {
    float alpha = (t - (float)ta[l]) * pb_f32_from_bits(pb_bits_from_f32(inv[l]) & 0x7FFFFFFFu);
    alpha = alpha > 0.0f ? alpha : 0.0f;
    return alpha < 1.0f ? alpha : 1.0f;
}

static void rotations(const pb_clip_lanes *g, uint32_t count, float t, float *out, size_t stride) {
    uint32_t i, l;
    for (i = 0; i < count; i++, g++) {
        for (l = 0; l < 4; l++) {
            float alpha, wa, x, y, z, w, len2, inv, *o;
            if (g->tail.slot[l] < 0) continue;
            alpha = lane_alpha(g->tail.ta, g->tail.inv, l, t);
            o = out + stride * (size_t)(uint16_t)g->tail.slot[l] /* >= 0 here */;
            /* pb_quat_nlerp4, spelled out; b is already on a's side of the sphere */
            wa = 1.0f - alpha;
            x = wa * g->a[0][l] + alpha * g->b[0][l];
            y = wa * g->a[1][l] + alpha * g->b[1][l];
            z = wa * g->a[2][l] + alpha * g->b[2][l];
            w = wa * g->a[3][l] + alpha * g->b[3][l];
            len2 = x * x + y * y + z * z + w * w; /* then pb_quat_normalize4 in registers */
            if (!(len2 > 0.0f) || len2 > FLT_MAX) {
                x = y = z = 0.0f;
                w = 1.0f;
            } else {
                inv = pb_quat_inv_length(len2);
                x *= inv;
                y *= inv;
                z *= inv;
                w *= inv;
            }
            o[0] = x;
            o[1] = y;
            o[2] = z;
            o[3] = w;
        }
    }
}

static void vectors(const pb_clip_vlanes *g, uint32_t count, float t, float *out, size_t stride) {
    uint32_t i, l;
    for (i = 0; i < count; i++, g++) {
        for (l = 0; l < 4; l++) {
            float alpha, *o;
            if (g->tail.slot[l] < 0) continue;
            alpha = lane_alpha(g->tail.ta, g->tail.inv, l, t);
            o = out + stride * (size_t)(uint16_t)g->tail.slot[l] /* >= 0 here */;
            o[0] = g->a[0][l] + (g->b[0][l] - g->a[0][l]) * alpha;
            o[1] = g->a[1][l] + (g->b[1][l] - g->a[1][l]) * alpha;
            o[2] = g->a[2][l] + (g->b[2][l] - g->a[2][l]) * alpha;
        }
    }
}

void pb_clip_lanes_scalar(const void *g, uint32_t count, uint32_t components, float t, float *out, size_t stride) {
    if (components == PB_CLIP_ROTATION) rotations((const pb_clip_lanes *)g, count, t, out, stride);
    else vectors((const pb_clip_vlanes *)g, count, t, out, stride);
}
