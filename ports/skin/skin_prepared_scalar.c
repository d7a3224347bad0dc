/* Scalar reference of the prepared mesh's skinning kernel (the definition
 * the SIMD twins match; ports/skin_prepared.h). */
#include "skin_prepared.h"
#include "pb_math.h"

/* Vertex `lane`'s weights (w: its group's rows of stored weights), the
 * implied last one computed; none for rigid spans. */
static void sp_lane_weights(const pb_skinp_range *r, const float *w, uint32_t lane, float wk[4]) {
    uint32_t n = r->influences, stored = pb_skinp_stored(r->kind, n), k;
    wk[0] = wk[1] = wk[2] = wk[3] = 0.0f;
    for (k = 0; k < stored; k++) wk[k] = w[8u * k + lane];
    if (r->kind != PB_SKINP_RIGID && stored < n) { /* the implied last weight */
        float sum = wk[0];
        for (k = 1; k < stored; k++) sum = sum + wk[k];
        wk[n - 1u] = 1.0f - sum;
    }
}

/* Vertex `lane` of a group: its blended rows (12 floats, row-major). */
static void sp_blend_rows(const pb_skinp_range *r, const float *w, const uint16_t *s, uint32_t lane, float c[12]) {
    uint32_t n = r->influences, k, j;
    float wk[4];
    const float *e;
    sp_lane_weights(r, w, lane, wk);
    if (r->shared) { /* one set of entries per half, splatted: lane 0 of each element */
        const uint16_t *h = s + n * (lane / 4u);
        if (r->kind == PB_SKINP_RIGID) { /* 32 x the slot: the table's rows */
            e = r->table + h[0];
            for (j = 0; j < 12u; j++) c[j] = e[j];
            return;
        }
        e = r->splat + h[0];
        for (j = 0; j < 12u; j++) c[j] = wk[0] * e[4u * j];
        for (k = 1; k < n; k++) {
            e = r->splat + h[k];
            for (j = 0; j < 12u; j++) c[j] = c[j] + wk[k] * e[4u * j];
        }
        return;
    }
    if (r->kind == PB_SKINP_RIGID) {
        e = r->table + s[lane];
        for (j = 0; j < 12u; j++) c[j] = e[j];
        return;
    }
    e = r->table + s[lane];
    for (j = 0; j < 12u; j++) c[j] = wk[0] * e[j];
    for (k = 1; k < n; k++) {
        e = r->table + s[8u * k + lane];
        for (j = 0; j < 12u; j++) c[j] = c[j] + wk[k] * e[j];
    }
}

/* Shared spans without normals, vertex `lane`: each influence's entry
 * transforms the point, then the weights blend the points (p'j = w0 P0j +
 * w1 P1j ..., P_kj = ((E_k.a x + E_k.b y) + E_k.c z) + E_k.t). */
static void sp_points_first(const pb_skinp_range *r, const float *w, const uint16_t *s, const float *p, uint32_t lane,
                            float o[3]) {
    uint32_t n = r->influences, k, j;
    const uint16_t *h = s + n * (lane / 4u);
    float wk[4];
    o[0] = o[1] = o[2] = 0.0f; /* overwritten by the first influence (gcc -O3 cannot tell) */
    sp_lane_weights(r, w, lane, wk);
    for (k = 0; k < n; k++) {
        const float *e = r->splat + h[k];
        for (j = 0; j < 3u; j++) {
            float pk = ((e[16u * j] * p[lane] + e[16u * j + 4u] * p[8 + lane]) + e[16u * j + 8u] * p[16 + lane]) +
                       e[16u * j + 12u];
            o[j] = k ? o[j] + wk[k] * pk : wk[k] * pk;
        }
    }
}

void pb_skinp_scalar(const pb_skinp_range *r) {
    uint32_t g, lane, j, n = r->influences, stored = pb_skinp_stored(r->kind, n);
    for (g = 0; g < r->groups; g++) {
        const float *p = r->positions + 24u * g;
        const float *q = r->normals ? r->normals + 24u * g : NULL;
        const float *w = r->weights ? r->weights + 8u * stored * g : NULL;
        const uint16_t *s = r->entries + (r->shared ? 2u : 8u) * n * g;
        for (lane = 0; lane < PB_SKINP_GROUP; lane++) {
            float c[12], o[3];
            size_t v = (size_t)PB_SKINP_GROUP * g + lane;
            if (r->shared && !q && r->kind != PB_SKINP_RIGID) {
                sp_points_first(r, w, s, p, lane, o);
                for (j = 0; j < 3u; j++) r->out_positions[r->position_stride * v + j] = o[j];
                continue;
            }
            sp_blend_rows(r, w, s, lane, c);
            for (j = 0; j < 3u; j++)
                o[j] = ((c[4 * j] * p[lane] + c[4 * j + 1] * p[8 + lane]) + c[4 * j + 2] * p[16 + lane]) + c[4 * j + 3];
            for (j = 0; j < 3u; j++) r->out_positions[r->position_stride * v + j] = o[j];
            if (q) {
                float inv = 1.0f;
                for (j = 0; j < 3u; j++)
                    o[j] = (c[4 * j] * q[lane] + c[4 * j + 1] * q[8 + lane]) + c[4 * j + 2] * q[16 + lane];
                if (r->normalize) inv = pb_normal_scale_clamped((o[0] * o[0] + o[1] * o[1]) + o[2] * o[2]);
                for (j = 0; j < 3u; j++) r->out_normals[r->normal_stride * v + j] = r->normalize ? o[j] * inv : o[j];
            }
        }
    }
}
