/* GEOM skinning: a Sims 3 body mesh on its rig through the format-neutral
 * job.  Bind (mesh bone hashes -> rig bones, inverse rest transforms),
 * the palette each frame, the mesh described for plumbob_skin (explicit
 * weights), and morphs applied to the rest-pose streams by vertex id. */
#include "plumbob/runtime.h"
#include "pb_bytes.h"
#include "pb_sort.h"

/* The first element of `usage` (plumbob_geom_find_element), NULL when
 * there is none; *bad is set when it does not hold `bytes` inside a
 * vertex (a hand-filled geom's table). */
static const plumbob_geom_element *element(const plumbob_geom *g, uint32_t usage, uint32_t bytes, int *bad) {
    const plumbob_geom_element *e = plumbob_geom_find_element(g, usage, 0);
    if (e && (e->size < bytes || e->offset > g->vertex_stride || g->vertex_stride - e->offset < bytes)) *bad = 1;
    return e;
}

/* A geom's vertex table as plumbob_skin and the morph read it: elements
 * present, vertices present when counted. */
static int geom_ok(const plumbob_geom *g) {
    return g && (g->element_count == 0 || g->elements) && (g->vertex_count == 0 || g->vertices);
}

size_t plumbob_geom_bind_size(const plumbob_geom *geom, const plumbob_rig *rig) {
    if (!geom || !rig) return SIZE_MAX;
    /* per mesh bone: its rig bone and inverse rest; then (given back) every
     * rig bone's rest model matrix */
    return PLUMBOB_ARENA_NEED(geom->bone_count, sizeof(int32_t)) +
           PLUMBOB_ARENA_NEED(geom->bone_count, sizeof(plumbob_mat34)) +
           PLUMBOB_ARENA_NEED(rig->skeleton.bone_count, sizeof(plumbob_mat34));
}

/* The inverse of an affine 3x4 matrix (adjugate over determinant, then
 * -A^-1 t); 0 when it has none (a zero scale, or values not finite). */
static int invert(const plumbob_mat34 *m, plumbob_mat34 *out) {
    const float(*a)[4] = m->m;
    float c[3][3], det, inv;
    int r, k;
    c[0][0] = a[1][1] * a[2][2] - a[1][2] * a[2][1];
    c[0][1] = a[0][2] * a[2][1] - a[0][1] * a[2][2];
    c[0][2] = a[0][1] * a[1][2] - a[0][2] * a[1][1];
    c[1][0] = a[1][2] * a[2][0] - a[1][0] * a[2][2];
    c[1][1] = a[0][0] * a[2][2] - a[0][2] * a[2][0];
    c[1][2] = a[0][2] * a[1][0] - a[0][0] * a[1][2];
    c[2][0] = a[1][0] * a[2][1] - a[1][1] * a[2][0];
    c[2][1] = a[0][1] * a[2][0] - a[0][0] * a[2][1];
    c[2][2] = a[0][0] * a[1][1] - a[0][1] * a[1][0];
    det = (a[0][0] * c[0][0] + a[0][1] * c[1][0]) + a[0][2] * c[2][0];
    if (!(det != 0.0f) || det - det != 0.0f) return 0; /* zero, NaN or infinite */
    inv = 1.0f / det;
    for (r = 0; r < 3; r++) {
        for (k = 0; k < 3; k++) out->m[r][k] = c[r][k] * inv;
        out->m[r][3] = -((out->m[r][0] * a[0][3] + out->m[r][1] * a[1][3]) + out->m[r][2] * a[2][3]);
    }
    for (r = 0; r < 3; r++)
        for (k = 0; k < 4; k++)
            if (out->m[r][k] - out->m[r][k] != 0.0f) return 0;
    return 1;
}

plumbob_result plumbob_geom_bind(const plumbob_geom *geom, const plumbob_rig *rig, plumbob_arena *arena,
                                 plumbob_geom_binding *binding) {
    const plumbob_skeleton *s;
    plumbob_mat34 *rest;
    size_t mark;
    uint32_t k;
    plumbob_result r;
    if (!geom || !rig || !arena || !binding || (geom->bone_count && !geom->bone_hashes))
        return PLUMBOB_ERR_INVALID_ARGUMENT;
    s = &rig->skeleton;
    binding->bone_count = geom->bone_count;
    binding->bound = binding->unbound = 0;
    binding->rig_bone = (int32_t *)plumbob_arena_alloc_array(arena, geom->bone_count, sizeof(int32_t), 0);
    binding->inverse_rest = (plumbob_mat34 *)plumbob_arena_alloc_array(arena, geom->bone_count, sizeof(plumbob_mat34), 0);
    if (!binding->rig_bone || !binding->inverse_rest) return PLUMBOB_ERR_OUT_OF_MEMORY;
    /* the rest model matrices live only while binding */
    mark = plumbob_arena_mark(arena);
    rest = (plumbob_mat34 *)plumbob_arena_alloc_array(arena, s->bone_count, sizeof(plumbob_mat34), 0);
    if (!rest) return PLUMBOB_ERR_OUT_OF_MEMORY;
    r = plumbob_skeleton_model(s, NULL, rest, s->bone_count);
    if (r != PLUMBOB_OK) {
        plumbob_arena_reset(arena, mark);
        return r;
    }
    for (k = 0; k < geom->bone_count; k++) {
        int32_t b = plumbob_skeleton_find(s, geom->bone_hashes[k]);
        binding->rig_bone[k] = b;
        binding->inverse_rest[k] = plumbob_mat34_identity();
        if (b < 0) {
            binding->unbound++;
        } else if (!invert(&rest[b], &binding->inverse_rest[k])) {
            plumbob_arena_reset(arena, mark);
            return PLUMBOB_ERR_BAD_DATA;
        } else {
            binding->bound++;
        }
    }
    plumbob_arena_reset(arena, mark);
    return PLUMBOB_OK;
}

plumbob_result plumbob_geom_palette(const plumbob_geom_binding *binding, const plumbob_mat34 *model,
                                    uint32_t model_count, plumbob_mat34 *palette, uint32_t palette_count) {
    uint32_t k;
    if (!binding || !palette || (binding->bone_count && (!binding->rig_bone || !binding->inverse_rest)))
        return PLUMBOB_ERR_INVALID_ARGUMENT;
    if (palette_count < binding->bone_count) return PLUMBOB_ERR_OUTPUT_TOO_SMALL;
    if (model)
        for (k = 0; k < binding->bone_count; k++)
            if (binding->rig_bone[k] >= 0 && (uint32_t)binding->rig_bone[k] >= model_count)
                return PLUMBOB_ERR_OUTPUT_TOO_SMALL;
    for (k = 0; k < binding->bone_count; k++)
        palette[k] = model && binding->rig_bone[k] >= 0
                         ? plumbob_mat34_mul(&model[binding->rig_bone[k]], &binding->inverse_rest[k])
                         : plumbob_mat34_identity();
    return PLUMBOB_OK;
}

plumbob_result plumbob_geom_skin_mesh(const plumbob_geom *geom, uint32_t vectors, plumbob_skin_mesh *mesh) {
    const plumbob_geom_element *pos, *vec = NULL, *asg, *wts;
    int bad = 0;
    if (!geom_ok(geom) || !mesh || (vectors != 0 && vectors != PLUMBOB_GEOM_NORMAL && vectors != PLUMBOB_GEOM_TANGENT))
        return PLUMBOB_ERR_INVALID_ARGUMENT;
    pos = element(geom, PLUMBOB_GEOM_POSITION, 12u, &bad);
    if (vectors) vec = element(geom, vectors, 12u, &bad);
    asg = element(geom, PLUMBOB_GEOM_ASSIGNMENT, 4u, &bad);
    wts = element(geom, PLUMBOB_GEOM_WEIGHTS, 16u, &bad);
    if (bad || geom->bone_count > 255u) return PLUMBOB_ERR_INVALID_ARGUMENT;
    if (!pos || (vectors && !vec)) return PLUMBOB_ERR_NOT_FOUND;
    mesh->vertex_count = geom->vertex_count;
    mesh->positions = geom->vertices ? geom->vertices + pos->offset : NULL;
    mesh->position_stride = geom->vertex_stride;
    mesh->normals = vec && geom->vertices ? geom->vertices + vec->offset : NULL;
    mesh->normal_stride = geom->vertex_stride;
    mesh->joints = asg && wts && geom->vertices ? geom->vertices + asg->offset : NULL;
    mesh->joint_stride = geom->vertex_stride;
    mesh->weights = mesh->joints ? geom->vertices + wts->offset : NULL;
    mesh->weight_stride = geom->vertex_stride;
    mesh->weight_count = mesh->joints ? 4u : 0u;
    mesh->weight_mode = PLUMBOB_SKIN_WEIGHTS_EXPLICIT;
    mesh->slot_count = mesh->joints ? geom->bone_count : 0u;
    mesh->slot_joint = NULL; /* slot k is palette[k]: the bone list's order */
    return PLUMBOB_OK;
}

/* --- morphs ------------------------------------------------------------- */

size_t plumbob_geom_morph_work_size(const plumbob_geom *morph) {
    if (!morph) return SIZE_MAX;
    return (size_t)morph->vertex_count * 4u + 3u; /* its vertices' indices, sorted by id; aligned inside */
}

static uint32_t vertex_id(const plumbob_geom *g, const plumbob_geom_element *e, uint32_t v) {
    return pb_le32(g->vertices + (size_t)g->vertex_stride * v + e->offset);
}

/* Whose vertex ids `before` compares: a geom and its id element. */
typedef struct id_sort_ctx {
    const plumbob_geom *g;
    const plumbob_geom_element *e;
} id_sort_ctx;

/* Index a orders before b (sort_indices' comparator): by vertex id, then
 * by index (so the first of several vertices with one id comes first). */
static int before(const void *ctx, const void *ea, const void *eb) {
    const id_sort_ctx *c = (const id_sort_ctx *)ctx;
    uint32_t a = *(const uint32_t *)ea, b = *(const uint32_t *)eb;
    uint32_t ia = vertex_id(c->g, c->e, a), ib = vertex_id(c->g, c->e, b);
    return ia < ib || (ia == ib && a < b);
}

static void sort_indices(uint32_t *base, size_t n, const void *ctx) PB_HEAP_SORT_BODY(before, sizeof(uint32_t))

/* The n indices of g's vertices into x, by id (heap sort: no recursion, no
 * memory beyond x, O(n log n) on any input). */
static void sort_by_id(const plumbob_geom *g, const plumbob_geom_element *e, uint32_t *x, uint32_t n) {
    id_sort_ctx c;
    uint32_t i;
    c.g = g;
    c.e = e;
    for (i = 0; i < n; i++) x[i] = i;
    sort_indices(x, n, &c);
}

/* The morph vertex that gives base vertex v its deltas: the one at the
 * same index when its id matches (meshes in one order), else the first
 * with the id (binary search in the sorted indices); -1 when none. */
static int64_t morph_vertex(const plumbob_geom *m, const plumbob_geom_element *mid, const uint32_t *sorted,
                            uint32_t id, uint32_t v) {
    uint32_t lo = 0, hi = m->vertex_count;
    if (v < m->vertex_count && vertex_id(m, mid, v) == id) return v;
    while (lo < hi) { /* the first index whose id is not below id */
        uint32_t half = lo + (hi - lo) / 2u;
        if (vertex_id(m, mid, sorted[half]) < id) lo = half + 1u;
        else hi = half;
    }
    return lo < m->vertex_count && vertex_id(m, mid, sorted[lo]) == id ? (int64_t)sorted[lo] : -1;
}

plumbob_result plumbob_geom_morph(const plumbob_geom *base, const plumbob_geom *morph, float weight,
                                  float *positions, size_t position_stride, float *normals, size_t normal_stride,
                                  uint32_t count, void *work, size_t work_size) {
    const plumbob_geom_element *bid, *mid, *mpos, *mnrm;
    uint32_t *sorted, v, c;
    int bad = 0;
    if (!geom_ok(base) || !geom_ok(morph) || !positions || position_stride < 3u || (normals && normal_stride < 3u) ||
        weight - weight != 0.0f)
        return PLUMBOB_ERR_INVALID_ARGUMENT;
    bid = element(base, PLUMBOB_GEOM_VERTEX_ID, 4u, &bad);
    mid = element(morph, PLUMBOB_GEOM_VERTEX_ID, 4u, &bad);
    mpos = element(morph, PLUMBOB_GEOM_POSITION, 12u, &bad);
    mnrm = element(morph, PLUMBOB_GEOM_NORMAL, 12u, &bad);
    if (bad || !bid || !mid || !mpos) return PLUMBOB_ERR_INVALID_ARGUMENT;
    if (!work || work_size < plumbob_geom_morph_work_size(morph)) return PLUMBOB_ERR_INVALID_ARGUMENT;
    if (count < base->vertex_count) return PLUMBOB_ERR_OUTPUT_TOO_SMALL;
    sorted = (uint32_t *)(void *)(((uintptr_t)work + 3u) & ~(uintptr_t)3u);
    sort_by_id(morph, mid, sorted, morph->vertex_count);
    for (v = 0; v < base->vertex_count; v++) {
        int64_t m = morph_vertex(morph, mid, sorted, vertex_id(base, bid, v), v);
        const unsigned char *mv;
        if (m < 0) continue; /* the morph leaves this vertex alone */
        mv = morph->vertices + (size_t)morph->vertex_stride * (size_t)m;
        for (c = 0; c < 3u; c++) positions[position_stride * v + c] += weight * pb_f32le(mv + mpos->offset + 4u * c);
        if (normals && mnrm)
            for (c = 0; c < 3u; c++) normals[normal_stride * v + c] += weight * pb_f32le(mv + mnrm->offset + 4u * c);
    }
    return PLUMBOB_OK;
}
