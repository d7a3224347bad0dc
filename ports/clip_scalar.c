/* Scalar reference CLIP lane kernel (the definition the SIMD twins match):
 * per group, seek the lanes whose cached span misses t, then interpolate
 * every lane and store the bound ones. */
#include "kernels.h"
#include <float.h>
#include "pb_math.h"

/* Lanes whose span [lo, hi) does not hold t, as a bit mask. */
static unsigned stale_lanes(const pb_clip_lanes *g, float t) {
    unsigned l, mask = 0;
    for (l = 0; l < 4; l++)
        if (t < g->lo[l] || t >= g->hi[l]) mask |= 1u << l;
    return mask;
}

void pb_clip_lanes_scalar(pb_clip_lanes *g, uint32_t count, float t, float *out, size_t stride) {
    uint32_t i, l;
    for (i = 0; i < count; i++, g++) {
        unsigned stale = stale_lanes(g, t);
        if (stale) pb_clip_lanes_seek(g, stale, t);
        for (l = 0; l < 4; l++) {
            float alpha = (t - g->ta[l]) * g->inv[l], *o;
            if (g->slot[l] < 0) continue;
            alpha = alpha > 0.0f ? alpha : 0.0f;
            alpha = alpha < 1.0f ? alpha : 1.0f;
            o = out + stride * (size_t)g->slot[l];
            if (g->components == PB_CLIP_ROTATION) { /* pb_quat_nlerp4, spelled out */
                float ax = g->a[0][l], ay = g->a[1][l], az = g->a[2][l], aw = g->a[3][l];
                float bx = g->b[0][l], by = g->b[1][l], bz = g->b[2][l], bw = g->b[3][l];
                float wa = 1.0f - alpha; /* b is already on a's side of the sphere */
                float x = wa * ax + alpha * bx, y = wa * ay + alpha * by, z = wa * az + alpha * bz,
                      w = wa * aw + alpha * bw;
                float len2 = x * x + y * y + z * z + w * w, inv; /* then pb_quat_normalize4 in registers */
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
            } else {
                float ax = g->a[0][l], ay = g->a[1][l], az = g->a[2][l];
                float bx = g->b[0][l], by = g->b[1][l], bz = g->b[2][l];
                o[0] = ax + (bx - ax) * alpha;
                o[1] = ay + (by - ay) * alpha;
                o[2] = az + (bz - az) * alpha;
            }
        }
    }
}
