/* The prepared skinning mesh: a plumbob_skin_mesh description decoded
 * once (influences that weigh something, implied weights computed, slots
 * mapped to palette indices, blocks of one shape run as spans) into the
 * caller's memory, and the job that skins it with the port's kernel of
 * ports/skin_prepared.h. */
#include "plumbob/runtime.h"
#include "pb_bytes.h"
#include "pb_math.h"
#include "pb_sort.h"
#include "kernels.h"
#include "skin_prepared.h"
#include "pb_skin.h"

/* Vertices per block: one shape (influences, kind) per block, so a
 * vertex's groups of eight never straddle two spans. */
#define SKINP_BLOCK 32u

/* A span: vertices [first, first + count) of one shape and its streams
 * (influences 0: unskinned, positions and normals only). */
typedef struct skinp_span {
    uint32_t first, count, influences, kind, shared;
    uint32_t cls, v, pos; /* the cursor at its first vertex (sp_cursor) */
    float *positions, *normals, *weights;
    uint16_t *entries;
} skinp_span;

/* A vertex's influences that weigh something, in the description's
 * order. */
typedef struct skinp_vertex {
    uint32_t n;
    unsigned char slot[4];
    float w[4];
} skinp_vertex;

static int sp_finite(float x) { return x - x == 0.0f; }

/* Influences of vertex v (the description checked).  0: a weight, or
 * the implied one, is not finite. */
static int sp_vertex_of(const plumbob_skin_mesh *m, uint32_t v, skinp_vertex *o) {
    const unsigned char *a = m->joints + m->joint_stride * (size_t)v;
    const unsigned char *wp = m->weight_count ? m->weights + m->weight_stride * (size_t)v : NULL;
    uint32_t k, influences = m->weight_mode == PLUMBOB_SKIN_WEIGHTS_EXPLICIT ? m->weight_count : m->weight_count + 1u;
    float sum = 0.0f;
    o->n = 0;
    for (k = 0; k < influences; k++) {
        uint32_t slot = a[k];
        float w;
        if (slot == 0xFFu) continue; /* unused: weighs nothing, joins no sum */
        w = k < m->weight_count ? pb_f32le(wp + 4u * k) : 1.0f - sum; /* explicit: always stored */
        if (!sp_finite(w)) return 0;
        sum += w;
        if (slot >= m->slot_count || w == 0.0f) continue; /* a zero matrix or a zero weight */
        o->slot[o->n] = (unsigned char)slot;
        o->w[o->n] = w;
        o->n++;
    }
    return 1;
}

/* A vertex's class in the sorted layout (PLUMBOB_SKIN_PREPARE_SORTED):
 * 0 no influence that weighs, 1 rigid (one of weight 1), else 1 + the
 * influences that weigh (2..5).  A vertex that does not decode is class 0
 * (the layout's block scan refuses it). */
#define SKINP_CLASSES 6u
static uint32_t sp_class_of(const plumbob_skin_mesh *m, uint32_t v) {
    skinp_vertex x;
    if (!m->joints || !sp_vertex_of(m, v, &x) || x.n == 0u) return 0;
    return x.n == 1u && x.w[0] == 1.0f ? 1u : 1u + x.n;
}

/* The prepared order's walk: vertex v of class cls is the next one
 * (sorted: the classes in turn, each in mesh order; shared: order[pos],
 * the order sp_shared_order made; otherwise cls stays 0 and v counts
 * up).  v == vertex_count: the end. */
typedef struct sp_cursor {
    uint32_t cls, v, sorted, pos;
    const uint32_t *order;
} sp_cursor;

static void sp_seek(const plumbob_skin_mesh *m, sp_cursor *c, uint32_t from) {
    uint32_t v = from;
    if (c->order) {
        c->v = c->pos < m->vertex_count ? c->order[c->pos] : m->vertex_count;
        return;
    }
    if (!c->sorted) {
        c->v = from;
        return;
    }
    for (;;) {
        while (v < m->vertex_count && sp_class_of(m, v) != c->cls) v++;
        if (v < m->vertex_count || c->cls + 1u >= SKINP_CLASSES) break;
        c->cls++;
        v = 0;
    }
    c->v = v;
}

static sp_cursor sp_cursor_start(const plumbob_skin_mesh *m, int sorted, const uint32_t *order) {
    sp_cursor c;
    c.cls = 0;
    c.sorted = (uint32_t)sorted;
    c.pos = 0;
    c.order = order;
    sp_seek(m, &c, 0);
    return c;
}

/* The cursor's vertex, and the cursor moved to the next. */
static uint32_t sp_next(const plumbob_skin_mesh *m, sp_cursor *c) {
    uint32_t v = c->v;
    c->pos++;
    sp_seek(m, c, v + 1u);
    return v;
}

/* A vertex's influences in the order of their slots: the order of a
 * shared block's entries, whichever order the description gave.  An
 * exchange sort: gcc 12.2 at -O1 and, inlined here, at -O2 miscompiled
 * the insertion sort this was (slots left unsorted). */
static void sp_by_slot(skinp_vertex *x) {
    uint32_t i, j, n = x->n < 4u ? x->n : 4u;
    for (i = 0; i + 1u < n; i++)
        for (j = i + 1u; j < n; j++)
            if (x->slot[j] < x->slot[i]) {
                unsigned char s = x->slot[i];
                float w = x->w[i];
                x->slot[i] = x->slot[j];
                x->w[i] = x->w[j];
                x->slot[j] = s;
                x->w[j] = w;
            }
}

/* --- The shared order (PLUMBOB_SKIN_PREPARE_SHARED) ---
 * Vertices whose influences name the same slots (a tuple: class and
 * slots in slot order) can share one set of matrices per four.  The
 * order: first the runs of one tuple cut to multiples of four (by class,
 * then tuple, then mesh order), so every aligned four of them is one
 * tuple; then the rest (a run's last 0..3 and the vertices without
 * influences) as PLUMBOB_SKIN_PREPARE_SORTED orders them.  Built by two
 * heap sorts in place (no memory but the order: O(n log n), whatever the
 * tuples), the rest marked by the top bit between them. */
#define SKINP_REST 0x80000000u

/* A vertex's tuple: class << 32, then its slots in slot order (0xFF past
 * its count).  Class 0 for one that does not decode. */
static uint64_t sp_tuple_of(const plumbob_skin_mesh *m, uint32_t v) {
    skinp_vertex x;
    uint64_t key = 0;
    uint32_t k;
    if (!m->joints || !sp_vertex_of(m, v, &x) || x.n == 0u) return 0;
    sp_by_slot(&x);
    for (k = 0; k < 4u; k++) key = key << 8 | (k < x.n ? x.slot[k] : 0xFFu);
    return (uint64_t)(x.n == 1u && x.w[0] == 1.0f ? 1u : 1u + x.n) << 32 | key;
}

/* Entry a before entry b, ka and kb their vertices' tuples: (tuple,
 * vertex) while both are unmarked, marked ones after the unmarked, by
 * (class, vertex) among themselves. */
static int sp_before(uint32_t a, uint32_t b, uint64_t ka, uint64_t kb) {
    if ((a & SKINP_REST) != (b & SKINP_REST)) return (a & SKINP_REST) == 0u;
    if (a & SKINP_REST) {
        ka >>= 32;
        kb >>= 32;
    }
    return ka != kb ? ka < kb : (a & ~SKINP_REST) < (b & ~SKINP_REST);
}

/* The comparators over the order's entries: the tuples read from scratch
 * (ctx: the keys), or computed as compared (ctx: the mesh).  Two, so the
 * first does not pay for the second's registers. */
static int sp_before_keyed(const void *ctx, const void *ea, const void *eb) {
    const uint64_t *keys = (const uint64_t *)ctx;
    uint32_t a = *(const uint32_t *)ea, b = *(const uint32_t *)eb;
    return sp_before(a, b, keys[a & ~SKINP_REST], keys[b & ~SKINP_REST]);
}

static int sp_before_computed(const void *ctx, const void *ea, const void *eb) {
    const plumbob_skin_mesh *m = (const plumbob_skin_mesh *)ctx;
    uint32_t a = *(const uint32_t *)ea, b = *(const uint32_t *)eb;
    return sp_before(a, b, sp_tuple_of(m, a & ~SKINP_REST), sp_tuple_of(m, b & ~SKINP_REST));
}

static void sp_sort_keyed(uint32_t *base, size_t n, const void *ctx)
    PB_HEAP_SORT_BODY(sp_before_keyed, sizeof(uint32_t))
static void sp_sort_computed(uint32_t *base, size_t n, const void *ctx)
    PB_HEAP_SORT_BODY(sp_before_computed, sizeof(uint32_t))

/* The entries of o by sp_before, the tuples from keys or (NULL) computed. */
static void sp_sort(const plumbob_skin_mesh *m, uint32_t *o, const uint64_t *keys) {
    if (keys) sp_sort_keyed(o, m->vertex_count, keys);
    else sp_sort_computed(o, m->vertex_count, m);
}

/* The shared order into o (vertex_count entries, vertex_count below
 * 2^31); keys: vertex_count tuples of scratch, or NULL (each computed
 * when compared). */
static void sp_shared_order(const plumbob_skin_mesh *m, uint32_t *o, uint64_t *keys) {
    uint32_t n = m->vertex_count, i, j;
    for (i = 0; i < n; i++) {
        o[i] = i;
        if (keys) keys[i] = sp_tuple_of(m, i);
    }
    sp_sort(m, o, keys);
    for (i = 0; i < n; i = j) { /* runs of one tuple: the last count % 4 (and class 0) to the rest */
        uint64_t k = keys ? keys[o[i]] : sp_tuple_of(m, o[i]);
        for (j = i + 1u; j < n && (keys ? keys[o[j]] : sp_tuple_of(m, o[j])) == k; j++) continue;
        if (k >> 32 == 0u) {
            uint32_t q;
            for (q = i; q < j; q++) o[q] |= SKINP_REST;
        } else {
            uint32_t q;
            for (q = j - (j - i) % 4u; q < j; q++) o[q] |= SKINP_REST;
        }
    }
    sp_sort(m, o, keys);
    for (i = 0; i < n; i++) o[i] &= ~SKINP_REST;
}

/* The implied last of n weights, as the kernels compute it. */
static float sp_implied_of(const float *w, uint32_t n) {
    float sum = w[0];
    uint32_t k;
    for (k = 1; k + 1u < n; k++) sum = sum + w[k];
    return 1.0f - sum;
}

/* A vertex's weights padded to n with zeros. */
static void sp_padded(const skinp_vertex *x, uint32_t n, float w[4], unsigned char s[4]) {
    uint32_t k;
    for (k = 0; k < n && k < 4u; k++) {
        w[k] = k < x->n ? x->w[k] : 0.0f;
        s[k] = k < x->n ? x->slot[k] : (unsigned char)PB_SKIN_ZERO_SLOT;
    }
}

/* Vertex v's influences as a block of shape `shared` holds them. */
static void sp_vertex_as(const plumbob_skin_mesh *m, uint32_t v, uint32_t shared, skinp_vertex *x) {
    (void)sp_vertex_of(m, v, x); /* checked by the layout */
    if (shared) sp_by_slot(x);
}

/* Whether every aligned four of the block's vertices (its real ones)
 * name the same slots in slot order: a shared block (only in the shared
 * order, whose runs make them). */
static int sp_block_shared(const plumbob_skin_mesh *m, uint32_t b, uint32_t end, sp_cursor c) {
    uint32_t i, k;
    skinp_vertex x, first;
    first.n = 0;
    if (!c.order) return 0;
    for (i = b; i < end; i++) {
        sp_vertex_as(m, sp_next(m, &c), 1u, &x);
        if (x.n == 0u) return 0;
        if ((i - b) % 4u == 0u) first = x;
        if (x.n != first.n) return 0;
        for (k = 0; k < x.n; k++)
            if (x.slot[k] != first.slot[k]) return 0;
    }
    return 1;
}

/* The shape of the block from vertex b: influences (1..4), kind and
 * whether it is shared. */
static int sp_block_shape(const plumbob_skin_mesh *m, uint32_t b, sp_cursor start, uint32_t *influences,
                          uint32_t *kind, uint32_t *shared) {
    uint32_t end = m->vertex_count - b < SKINP_BLOCK ? m->vertex_count : b + SKINP_BLOCK, i, n = 1;
    int sp_rigid = 1, implied = 1;
    skinp_vertex x;
    sp_cursor c = start;
    for (i = b; i < end; i++) {
        if (!sp_vertex_of(m, sp_next(m, &c), &x)) return 0;
        if (x.n > n) n = x.n;
        if (x.n != 1u || x.w[0] != 1.0f) sp_rigid = 0;
    }
    *shared = (uint32_t)sp_block_shared(m, b, end, start);
    c = start;
    if (n > 1u)
        for (i = b; i < end && implied; i++) {
            float w[4];
            unsigned char s[4];
            sp_vertex_as(m, sp_next(m, &c), *shared, &x);
            sp_padded(&x, n, w, s);
            implied = pb_bits_from_f32(sp_implied_of(w, n)) == pb_bits_from_f32(w[n - 1u]);
        }
    *influences = n;
    *kind = sp_rigid ? PB_SKINP_RIGID : n > 1u && implied ? PB_SKINP_IMPLIED : PB_SKINP_STORED;
    return 1;
}

static size_t sp_up64(size_t n) { return (n + 63u) & ~(size_t)63u; }

/* Bytes of a span's streams. */
static size_t sp_span_bytes(uint32_t count, uint32_t influences, uint32_t kind, uint32_t shared, int normals) {
    size_t groups = (count + PB_SKINP_GROUP - 1u) / PB_SKINP_GROUP;
    size_t b = sp_up64(groups * 96u) * (normals ? 2u : 1u);
    if (influences)
        b += sp_up64(groups * 32u * pb_skinp_stored(kind, influences)) +
             sp_up64(groups * (shared ? 4u : 16u) * influences); /* shared: one entry per half group */
    return b;
}

/* Checks the description and options once. */
static plumbob_result sp_check(const plumbob_skin_mesh *m, uint32_t options) {
    if (!m || (options & ~(PLUMBOB_SKIN_PREPARE_POSITIONS_ONLY | PLUMBOB_SKIN_PREPARE_SORTED |
                           PLUMBOB_SKIN_PREPARE_SHARED)))
        return PLUMBOB_ERR_INVALID_ARGUMENT;
    if ((options & PLUMBOB_SKIN_PREPARE_SHARED) && m->vertex_count >= SKINP_REST) return PLUMBOB_ERR_INVALID_ARGUMENT;
    if ((m->vertex_count && !m->positions) || m->position_stride < 12u || (m->normals && m->normal_stride < 12u))
        return PLUMBOB_ERR_INVALID_ARGUMENT;
    if (!m->joints) return PLUMBOB_OK;
    if (m->weight_mode != PLUMBOB_SKIN_WEIGHTS_IMPLIED_LAST && m->weight_mode != PLUMBOB_SKIN_WEIGHTS_EXPLICIT)
        return PLUMBOB_ERR_UNSUPPORTED;
    if (m->joint_stride < 4u || m->slot_count > 255u ||
        (m->weight_mode == PLUMBOB_SKIN_WEIGHTS_IMPLIED_LAST ? m->weight_count > 3u
                                                              : m->weight_count < 1u || m->weight_count > 4u) ||
        (m->weight_count && (!m->weights || m->weight_stride < 4u * m->weight_count)))
        return PLUMBOB_ERR_INVALID_ARGUMENT;
    return PLUMBOB_OK;
}

/* The layout: walks the blocks, calling `span` for each run of one shape
 * (span NULL: only counts); *spans, *stream_bytes: the totals. */
static plumbob_result sp_layout(const plumbob_skin_mesh *m, int normals, int sorted, const uint32_t *order,
                                skinp_span *out, unsigned char *streams, uint32_t *spans, size_t *stream_bytes) {
    uint32_t b, k, n = 0;
    size_t bytes = 0;
    skinp_span cur;
    sp_cursor at = sp_cursor_start(m, sorted && m->joints, m->joints ? order : NULL);
    cur.count = 0;
    cur.first = cur.influences = cur.kind = cur.shared = cur.cls = cur.v = cur.pos = 0;
    for (b = 0; b < m->vertex_count; b += SKINP_BLOCK) {
        uint32_t infl = 0, kind = PB_SKINP_RIGID, shared = 0,
                 count = m->vertex_count - b < SKINP_BLOCK ? m->vertex_count - b : SKINP_BLOCK;
        sp_cursor block = at;
        if (m->joints && !sp_block_shape(m, b, at, &infl, &kind, &shared)) return PLUMBOB_ERR_BAD_DATA;
        for (k = 0; k < count; k++) (void)sp_next(m, &at);
        if (cur.count && infl == cur.influences && kind == cur.kind && shared == cur.shared) {
            cur.count += count;
            continue;
        }
        if (cur.count) {
            if (out) out[n] = cur;
            n++;
            bytes += sp_span_bytes(cur.count, cur.influences, cur.kind, cur.shared, normals);
        }
        cur.first = b;
        cur.count = count;
        cur.influences = infl;
        cur.kind = kind;
        cur.shared = shared;
        cur.cls = block.cls;
        cur.v = block.v;
        cur.pos = block.pos;
    }
    if (cur.count) {
        if (out) out[n] = cur;
        n++;
        bytes += sp_span_bytes(cur.count, cur.influences, cur.kind, cur.shared, normals);
    }
    if (out) { /* the streams, in span order */
        uint32_t i;
        for (i = 0; i < n; i++) {
            skinp_span *s = &out[i];
            size_t groups = (s->count + PB_SKINP_GROUP - 1u) / PB_SKINP_GROUP;
            s->positions = (float *)(void *)streams;
            streams += sp_up64(groups * 96u);
            s->normals = NULL;
            if (normals) {
                s->normals = (float *)(void *)streams;
                streams += sp_up64(groups * 96u);
            }
            s->weights = NULL;
            s->entries = NULL;
            if (s->influences) {
                s->weights = (float *)(void *)streams;
                streams += sp_up64(groups * 32u * pb_skinp_stored(s->kind, s->influences));
                s->entries = (uint16_t *)(void *)streams;
                streams += sp_up64(groups * (s->shared ? 4u : 16u) * s->influences);
            }
        }
    }
    *spans = n;
    *stream_bytes = bytes;
    return PLUMBOB_OK;
}

/* Bytes before the streams: the span records and the slot map. */
static size_t sp_head_bytes(uint32_t spans, uint32_t slots) {
    return sp_up64((size_t)spans * sizeof(skinp_span)) + sp_up64((size_t)slots * 2u);
}

/* The shared layout's bounds, known before its order is: at most one
 * span per block, each at most a block of four stored influences; then
 * the order and its tuples (scratch while preparing, after the bounds). */
static size_t sp_shared_bound(const plumbob_skin_mesh *m, int normals, size_t *scratch_at) {
    uint32_t blocks = (m->vertex_count + SKINP_BLOCK - 1u) / SKINP_BLOCK;
    size_t head = sp_head_bytes(blocks, m->joints ? m->slot_count : 0u);
    *scratch_at = head + (size_t)blocks * sp_span_bytes(SKINP_BLOCK, 4u, PB_SKINP_STORED, 0u, normals);
    return *scratch_at + sp_up64((size_t)m->vertex_count * 4u) + (size_t)m->vertex_count * 8u;
}

/* Checks the description; for the shared layout checks every vertex
 * (the bound does not walk the layout). */
static plumbob_result sp_check_all(const plumbob_skin_mesh *m, uint32_t options) {
    plumbob_result rc = sp_check(m, options);
    uint32_t v;
    skinp_vertex x;
    if (rc != PLUMBOB_OK || !(options & PLUMBOB_SKIN_PREPARE_SHARED) || !m->joints) return rc;
    for (v = 0; v < m->vertex_count; v++)
        if (!sp_vertex_of(m, v, &x)) return PLUMBOB_ERR_BAD_DATA;
    return PLUMBOB_OK;
}

plumbob_result plumbob_skin_prepared_size(const plumbob_skin_mesh *mesh, uint32_t options, size_t *bytes) {
    plumbob_result rc;
    uint32_t spans;
    size_t streams, at;
    if (!bytes) return PLUMBOB_ERR_INVALID_ARGUMENT;
    *bytes = 0;
    rc = sp_check_all(mesh, options);
    if (rc != PLUMBOB_OK) return rc;
    if (options & PLUMBOB_SKIN_PREPARE_SHARED) {
        *bytes = 64u + sp_shared_bound(mesh, !(options & PLUMBOB_SKIN_PREPARE_POSITIONS_ONLY), &at);
        return PLUMBOB_OK;
    }
    rc = sp_layout(mesh, !(options & PLUMBOB_SKIN_PREPARE_POSITIONS_ONLY), (options & PLUMBOB_SKIN_PREPARE_SORTED) != 0u,
                   NULL, NULL, NULL, &spans, &streams);
    if (rc != PLUMBOB_OK) return rc;
    *bytes = 64u + sp_head_bytes(spans, mesh->joints ? mesh->slot_count : 0u) + streams;
    return PLUMBOB_OK;
}

/* Writes a span's streams from the description. */
static void sp_fill_span(const plumbob_skin_mesh *m, const skinp_span *s, int sorted, const uint32_t *order) {
    uint32_t groups = (s->count + PB_SKINP_GROUP - 1u) / PB_SKINP_GROUP, g, lane, k, c;
    uint32_t stored = s->influences ? pb_skinp_stored(s->kind, s->influences) : 0u;
    sp_cursor at;
    at.cls = s->cls;
    at.v = s->v;
    at.pos = s->pos;
    at.order = m->joints ? order : NULL;
    at.sorted = (uint32_t)(sorted && m->joints);
    for (g = 0; g < groups; g++)
        for (lane = 0; lane < PB_SKINP_GROUP; lane++) {
            uint32_t i = PB_SKINP_GROUP * g + lane, v = 0;
            int real = i < s->count;
            if (real) v = sp_next(m, &at);
            for (c = 0; c < 3u; c++) {
                s->positions[24u * g + 8u * c + lane] =
                    real ? pb_f32le(m->positions + m->position_stride * (size_t)v + 4u * c) : 0.0f;
                if (s->normals)
                    s->normals[24u * g + 8u * c + lane] =
                        !real ? 0.0f
                        : m->normals ? pb_f32le(m->normals + m->normal_stride * (size_t)v + 4u * c)
                                     : (c == 2u ? 1.0f : 0.0f); /* a mesh without normals faces up */
            }
            if (s->influences) {
                skinp_vertex x;
                float w[4];
                unsigned char sl[4];
                x.n = 0;
                if (real) sp_vertex_as(m, v, s->shared, &x);
                sp_padded(&x, s->influences, w, sl);
                for (k = 0; k < stored; k++) s->weights[8u * stored * g + 8u * k + lane] = w[k];
                if (s->shared) { /* the half's entries, from its first vertex (a real one, or padding) */
                    if (lane % 4u == 0u)
                        for (k = 0; k < s->influences; k++)
                            s->entries[2u * s->influences * g + s->influences * (lane / 4u) + k] =
                                (uint16_t)((s->kind == PB_SKINP_RIGID ? PB_SKIN_ENTRY : PB_SKINP_SPLAT) * sl[k]);
                } else
                    for (k = 0; k < s->influences; k++)
                        s->entries[8u * s->influences * g + 8u * k + lane] = (uint16_t)(PB_SKIN_ENTRY * sl[k]);
            }
        }
}

plumbob_result plumbob_skin_prepare(const plumbob_skin_mesh *mesh, uint32_t options, void *memory, size_t bytes,
                                    plumbob_skin_prepared_mesh *out) {
    plumbob_result rc;
    uint32_t spans, i, slots, *order = NULL;
    size_t streams, need, at = 0;
    unsigned char *base;
    skinp_span *sp;
    uint16_t *map;
    int normals = !(options & PLUMBOB_SKIN_PREPARE_POSITIONS_ONLY), sorted = (options & PLUMBOB_SKIN_PREPARE_SORTED) != 0u;
    int shared = (options & PLUMBOB_SKIN_PREPARE_SHARED) != 0u;
    if (!out || !memory) return PLUMBOB_ERR_INVALID_ARGUMENT;
    rc = sp_check_all(mesh, options);
    if (rc != PLUMBOB_OK) return rc;
    slots = mesh->joints ? mesh->slot_count : 0u;
    base = (unsigned char *)memory + ((64u - ((uintptr_t)memory & 63u)) & 63u);
    if (shared) { /* the order first, in scratch past the layout's bound */
        need = 64u + sp_shared_bound(mesh, normals, &at);
        if (bytes < need) return PLUMBOB_ERR_OUT_OF_MEMORY;
        order = (uint32_t *)(void *)(base + at);
        if (mesh->joints)
            sp_shared_order(mesh, order, (uint64_t *)(void *)(base + at + sp_up64((size_t)mesh->vertex_count * 4u)));
    }
    rc = sp_layout(mesh, normals, sorted, order, NULL, NULL, &spans, &streams);
    if (rc != PLUMBOB_OK) return rc;
    need = 64u + sp_head_bytes(spans, slots) + streams;
    if (bytes < need) return PLUMBOB_ERR_OUT_OF_MEMORY;
    sp = (skinp_span *)(void *)base;
    map = (uint16_t *)(void *)(base + sp_up64((size_t)spans * sizeof(skinp_span)));
    (void)sp_layout(mesh, normals, sorted, order, sp, base + sp_head_bytes(spans, slots), &spans, &streams);
    out->palette_needed = 0;
    for (i = 0; i < slots; i++) {
        map[i] = mesh->slot_joint ? mesh->slot_joint[i] : (uint16_t)i;
        if ((uint32_t)map[i] + 1u > out->palette_needed) out->palette_needed = map[i] + 1u;
    }
    out->shared_vertices = 0;
    for (i = 0; i < spans; i++) {
        sp_fill_span(mesh, &sp[i], sorted, order);
        if (sp[i].shared) out->shared_vertices += sp[i].count;
    }
    out->vertex_count = mesh->vertex_count;
    out->span_count = spans;
    out->slot_count = slots;
    out->has_normals = (uint32_t)normals;
    out->skinned = mesh->joints != NULL;
    out->spans = sp;
    out->slot_joint = map;
    out->bytes = (size_t)(base - (unsigned char *)memory) + sp_head_bytes(spans, slots) + streams;
    return PLUMBOB_OK;
}

plumbob_result plumbob_skin_prepared_order(const plumbob_skin_mesh *mesh, uint32_t options, uint32_t *order,
                                          uint32_t order_count) {
    plumbob_result rc;
    uint32_t spans, i;
    size_t streams;
    sp_cursor at;
    if (!order) return PLUMBOB_ERR_INVALID_ARGUMENT;
    rc = sp_check(mesh, options);
    if (rc != PLUMBOB_OK) return rc;
    if (order_count < mesh->vertex_count) return PLUMBOB_ERR_OUTPUT_TOO_SMALL;
    if (options & PLUMBOB_SKIN_PREPARE_SHARED) { /* sorted in place: no scratch, tuples computed as compared */
        rc = sp_check_all(mesh, options);
        if (rc != PLUMBOB_OK) return rc;
        if (mesh->joints) sp_shared_order(mesh, order, NULL);
        else
            for (i = 0; i < mesh->vertex_count; i++) order[i] = i;
        return PLUMBOB_OK;
    }
    rc = sp_layout(mesh, 0, (options & PLUMBOB_SKIN_PREPARE_SORTED) != 0u, NULL, NULL, NULL, &spans, &streams);
    if (rc != PLUMBOB_OK) return rc;
    at = sp_cursor_start(mesh, (options & PLUMBOB_SKIN_PREPARE_SORTED) && mesh->joints, NULL);
    for (i = 0; i < mesh->vertex_count; i++) order[i] = sp_next(mesh, &at);
    return PLUMBOB_OK;
}

/* Unskinned groups: positions as they are, normals renormalized (or as
 * they are), written by every port alike. */
static void sp_pass_through(const pb_skinp_range *r) {
    uint32_t g, lane, c;
    for (g = 0; g < r->groups; g++)
        for (lane = 0; lane < PB_SKINP_GROUP; lane++) {
            size_t v = (size_t)PB_SKINP_GROUP * g + lane;
            for (c = 0; c < 3u; c++) r->out_positions[r->position_stride * v + c] = r->positions[24u * g + 8u * c + lane];
            if (r->normals) {
                float q[3], inv = 1.0f;
                for (c = 0; c < 3u; c++) q[c] = r->normals[24u * g + 8u * c + lane];
                if (r->normalize) inv = pb_normal_scale_clamped((q[0] * q[0] + q[1] * q[1]) + q[2] * q[2]);
                for (c = 0; c < 3u; c++) r->out_normals[r->normal_stride * v + c] = r->normalize ? q[c] * inv : q[c];
            }
        }
}

static void sp_run(const pb_skinp_range *r, uint32_t flags) {
    if (!r->entries) sp_pass_through(r);
    else if (flags & PLUMBOB_SKIN_REFERENCE) pb_skinp_scalar(r);
    else PB_SKINP(r);
}

/* Groups [g0, g1) of span s (relative to the span), vertices [lo, hi) of
 * them stored (the mesh's numbers): whole groups straight to the output,
 * a group cut by the range through the staging in work. */
static void sp_run_groups(const skinp_span *s, pb_skinp_range *r, uint32_t g0, uint32_t g1, uint32_t lo, uint32_t hi,
                       const plumbob_skin_prepared_job *job, float *stage) {
    uint32_t stored = s->influences ? pb_skinp_stored(s->kind, s->influences) : 0u;
    uint32_t g = g0;
    while (g < g1) {
        uint32_t v0 = s->first + PB_SKINP_GROUP * g, whole = g1;
        r->positions = s->positions + 24u * g;
        r->normals = job->normals ? s->normals + 24u * g : NULL;
        r->weights = stored ? s->weights + 8u * stored * g : NULL;
        r->entries = s->influences ? s->entries + (s->shared ? 2u : 8u) * s->influences * g : NULL;
        if (v0 < lo || v0 + PB_SKINP_GROUP > hi) { /* a cut group */
            uint32_t i, c;
            r->groups = 1;
            r->out_positions = stage;
            r->position_stride = 3;
            r->out_normals = job->normals ? stage + 24 : NULL;
            r->normal_stride = 3;
            sp_run(r, job->flags);
            for (i = 0; i < PB_SKINP_GROUP; i++) {
                if (v0 + i < lo || v0 + i >= hi) continue;
                for (c = 0; c < 3u; c++) {
                    job->positions[job->position_stride * (v0 + i) + c] = stage[3u * i + c];
                    if (job->normals) job->normals[job->normal_stride * (v0 + i) + c] = stage[24u + 3u * i + c];
                }
            }
            g++;
            continue;
        }
        /* whole groups up to the first cut one */
        if (s->first + PB_SKINP_GROUP * whole > hi) whole = (hi - s->first) / PB_SKINP_GROUP;
        r->groups = whole - g;
        r->out_positions = job->positions + job->position_stride * v0;
        r->position_stride = job->position_stride;
        r->out_normals = job->normals ? job->normals + job->normal_stride * v0 : NULL;
        r->normal_stride = job->normal_stride;
        sp_run(r, job->flags);
        g = whole;
    }
}

plumbob_result plumbob_skin_prepared(const plumbob_skin_prepared_job *job) {
    const plumbob_skin_prepared_mesh *m;
    const skinp_span *sp;
    uint32_t first, end, lo, hi, i;
    float *table, *stage, *splat;
    pb_skinp_range r;
    if (!job || !job->mesh || !job->positions || !job->work || job->position_stride < 3 ||
        (job->normals && job->normal_stride < 3) ||
        (job->flags & ~(PLUMBOB_SKIN_REFERENCE | PLUMBOB_SKIN_UNNORMALIZED)))
        return PLUMBOB_ERR_INVALID_ARGUMENT;
    m = job->mesh;
    if (job->normals && !m->has_normals) return PLUMBOB_ERR_INVALID_ARGUMENT;
    first = job->first_vertex;
    if (first > m->vertex_count || job->vertex_count > m->vertex_count - first) return PLUMBOB_ERR_INVALID_ARGUMENT;
    end = job->vertex_count ? first + job->vertex_count : m->vertex_count;
    if (m->slot_count && !job->palette) return PLUMBOB_ERR_INVALID_ARGUMENT;
    if (job->palette_count < m->palette_needed) return PLUMBOB_ERR_BAD_INDEX;
    if (job->position_count < end || (job->normals && job->normal_count < end)) return PLUMBOB_ERR_OUTPUT_TOO_SMALL;
    if (first == end) return PLUMBOB_OK;
    table = (float *)(void *)(((uintptr_t)job->work + 63u) & ~(uintptr_t)63u);
    stage = table + 256u * PB_SKIN_ENTRY;
    splat = table + 256u * PB_SKIN_ENTRY + 64u; /* past the staging (48 floats), 64-byte aligned */
    /* the slot table, and the shared spans' splatted entries */
    pb_skin_put_table(table, m->shared_vertices ? splat : NULL, job->palette, m->slot_joint, m->slot_count, job->flags);
    pb_skin_put_entry(table + PB_SKIN_ENTRY * PB_SKIN_ZERO_SLOT, NULL);
    if (m->shared_vertices) pb_skinp_put_splat(splat + PB_SKINP_SPLAT * PB_SKIN_ZERO_SLOT, NULL);
    r.splat = splat;
    r.table = table;
    r.normalize = (job->flags & PLUMBOB_SKIN_UNNORMALIZED) == 0u;
    sp = (const skinp_span *)m->spans;
    { /* the span holding `first`: spans are in vertex order */
        uint32_t a = 0, b = m->span_count;
        while (b - a > 1u) {
            uint32_t mid = a + (b - a) / 2u;
            if (sp[mid].first <= first) a = mid;
            else b = mid;
        }
        i = a;
    }
    for (; i < m->span_count && sp[i].first < end; i++) {
        const skinp_span *s = &sp[i];
        lo = first > s->first ? first : s->first;
        hi = end < s->first + s->count ? end : s->first + s->count;
        r.influences = s->influences;
        r.kind = s->kind;
        r.shared = s->shared;
        sp_run_groups(s, &r, (lo - s->first) / PB_SKINP_GROUP, (hi - s->first + PB_SKINP_GROUP - 1u) / PB_SKINP_GROUP,
                   lo, hi, job, stage);
    }
    return PLUMBOB_OK;
}
