/* Scalar reference skinning kernel (the definition the SIMD twins match). */
#include "kernels.h"
#include "pb_math.h"

static void store3(float *o, float x, float y, float z) {
    o[0] = x;
    o[1] = y;
    o[2] = z;
}

/* One port-independent vertex: blended rows, then point and normal. */
PB_FORCE_INLINE void skin_vertex(const pb_skin_range *r, uint32_t v, uint32_t influences, uint32_t stored) {
    float w[4], c[12], t[12], p[3], q[3];
    const float *m[4];
    uint32_t j;
    pb_skin_influences(r, v, influences, stored, w, m);
    for (j = 0; j < 12; j++) c[j] = w[0] * m[0][j];
    if (influences >= 2)
        for (j = 0; j < 12; j++) c[j] = c[j] + w[1] * m[1][j];
    if (influences == 3)
        for (j = 0; j < 12; j++) c[j] = c[j] + w[2] * m[2][j];
    if (influences == 4) {
        for (j = 0; j < 12; j++) t[j] = w[2] * m[2][j] + w[3] * m[3][j];
        for (j = 0; j < 12; j++) c[j] = c[j] + t[j];
    }
    p[0] = pb_f32le(r->positions + 12u * v);
    p[1] = pb_f32le(r->positions + 12u * v + 4u);
    p[2] = pb_f32le(r->positions + 12u * v + 8u);
    for (j = 0; j < 3; j++) q[j] = ((c[4 * j] * p[0] + c[4 * j + 1] * p[1]) + c[4 * j + 2] * p[2]) + c[4 * j + 3];
    store3(r->out_positions + r->position_stride * v, q[0], q[1], q[2]);
    if (r->normals) {
        float inv;
        p[0] = pb_f32le(r->normals + 12u * v);
        p[1] = pb_f32le(r->normals + 12u * v + 4u);
        p[2] = pb_f32le(r->normals + 12u * v + 8u);
        for (j = 0; j < 3; j++) q[j] = (c[4 * j] * p[0] + c[4 * j + 1] * p[1]) + c[4 * j + 2] * p[2];
        if (!r->normalize) {
            store3(r->out_normals + r->normal_stride * v, q[0], q[1], q[2]);
            return;
        }
        inv = pb_normal_scale((q[0] * q[0] + q[1] * q[1]) + q[2] * q[2]);
        store3(r->out_normals + r->normal_stride * v, q[0] * inv, q[1] * inv, q[2] * inv);
    }
}

void pb_skin_scalar(const pb_skin_range *r) {
    uint32_t v;
    if (r->explicit_weights) { /* every weight stored: influences = weight_count (1..4) */
        switch (r->weight_count) {
        case 1: for (v = 0; v < r->count; v++) skin_vertex(r, v, 1, 1); break;
        case 2: for (v = 0; v < r->count; v++) skin_vertex(r, v, 2, 2); break;
        case 3: for (v = 0; v < r->count; v++) skin_vertex(r, v, 3, 3); break;
        default: for (v = 0; v < r->count; v++) skin_vertex(r, v, 4, 4); break;
        }
        return;
    }
    switch (r->weight_count) { /* one straight-line loop per influence count */
    case 0: for (v = 0; v < r->count; v++) skin_vertex(r, v, 1, 0); break;
    case 1: for (v = 0; v < r->count; v++) skin_vertex(r, v, 2, 1); break;
    case 2: for (v = 0; v < r->count; v++) skin_vertex(r, v, 3, 2); break;
    default: for (v = 0; v < r->count; v++) skin_vertex(r, v, 4, 3); break;
    }
}
