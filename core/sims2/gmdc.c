/* Sims 2 GMDC decoding and validation.  One walk over the block serves both
 * the measure call (counting only) and the decode (storing into the arena);
 * every index the skinner will follow is checked afterwards.  Every failure
 * can be explained (plumbob_error): the byte offset, the table and entry,
 * and a short reason. */
#include "plumbob/sims2.h"
#include "pb_bytes.h"
#include "pb_error.h"
#include "pb_rcol2.h"
#include "pb_finite.h"
#include "pb_sort.h"

uint32_t plumbob_gmdc_index(const plumbob_gmdc *g, const plumbob_gmdc_indices *idx, uint32_t i) {
    const unsigned char *p;
    if (!g || !idx || i >= idx->count || !idx->data) return 0xFFFFFFFFu; /* no validated index is this */
    p = idx->data + (size_t)i * g->index_size;
    return g->index_size == 2 ? pb_le16(p) : pb_le32(p);
}

/* A reader's sticky error in words. */
static const char *reader_reason(plumbob_result res) {
    switch (res) {
    case PLUMBOB_ERR_TRUNCATED: return "runs past the end of the data";
    case PLUMBOB_ERR_BAD_COUNT: return "count above the limit or the bytes left";
    case PLUMBOB_ERR_BAD_DATA: return "bad string length prefix";
    case PLUMBOB_ERR_BAD_OFFSET: return "offset outside the data";
    default: return "cannot be read";
    }
}

/* Offset of p (a pointer into the input) from its start. */
static size_t off(const plumbob_gmdc *g, const void *p) {
    return p ? (size_t)((const unsigned char *)p - g->data) : 0u;
}

/* Reads a u32 count and that many indices (zero copy). */
static plumbob_gmdc_indices read_indices(plumbob_reader *r, uint32_t index_size) {
    plumbob_gmdc_indices v = {NULL, 0};
    uint32_t n = plumbob_read_u32le(r);
    if (!plumbob_reader_ok(r)) return v;
    if (n > plumbob_reader_remaining(r) / index_size) { /* the input ends early */
        plumbob_reader_fail(r, PLUMBOB_ERR_TRUNCATED);
        return v;
    }
    v.data = plumbob_read_bytes(r, (size_t)n * index_size);
    v.count = n;
    return v;
}

/* Reads a bounding or subset mesh: vertex count, then (when non-zero) face
 * count, float3 vertices and faces. */
static plumbob_gmdc_mesh read_mesh(plumbob_reader *r, uint32_t index_size) {
    plumbob_gmdc_mesh m = {0, NULL, {NULL, 0}};
    m.vertex_count = plumbob_read_u32le(r);
    if (!plumbob_reader_ok(r) || m.vertex_count == 0) return m;
    m.faces.count = plumbob_read_u32le(r);
    if (!plumbob_reader_ok(r)) return m;
    if (m.vertex_count > plumbob_reader_remaining(r) / 12u) {
        plumbob_reader_fail(r, PLUMBOB_ERR_TRUNCATED);
        return m;
    }
    m.vertices = plumbob_read_bytes(r, (size_t)m.vertex_count * 12u);
    if (m.faces.count > plumbob_reader_remaining(r) / index_size) {
        plumbob_reader_fail(r, PLUMBOB_ERR_TRUNCATED);
        return m;
    }
    m.faces.data = plumbob_read_bytes(r, (size_t)m.faces.count * index_size);
    return m;
}

/* Checks a u32 count against a limit (bad_count) and the bytes left (each
 * record needs at least min_size bytes; more: the input ends early). */
static uint32_t read_count(plumbob_reader *r, uint32_t limit, size_t min_size) {
    uint32_t n = plumbob_read_u32le(r);
    if (plumbob_reader_ok(r) && n > limit) plumbob_reader_fail(r, PLUMBOB_ERR_BAD_COUNT);
    if (plumbob_reader_ok(r) && n > plumbob_reader_remaining(r) / min_size)
        plumbob_reader_fail(r, PLUMBOB_ERR_TRUNCATED);
    return plumbob_reader_ok(r) ? n : 0;
}

/* Bytes per item of an element format (0 for an unknown format). */
static uint32_t item_size(uint32_t format) {
    return format <= 2 ? 4u * (format + 1u) : format == 4 ? 4u : 0u;
}

/* Whether skinning reads the element's floats: positions, normals, bone
 * weights and the morph deltas added to the first two (issue 47 refuses
 * non-finite ones; UVs, colours and the rest are passed on, not used). */
static int skinning_input(uint32_t identity) {
    return identity == PLUMBOB_GMDC_VERTICES || identity == PLUMBOB_GMDC_NORMALS ||
           identity == PLUMBOB_GMDC_BONE_WEIGHTS || identity == PLUMBOB_GMDC_MORPH_VERTEX_DELTAS ||
           identity == PLUMBOB_GMDC_MORPH_NORMAL_DELTAS;
}

/* Checks element e (read at offset `at`) against its format, count and item
 * list. */
static plumbob_result check_element(const plumbob_gmdc *g, const plumbob_gmdc_element *e, uint32_t i,
                                    size_t at, plumbob_error *err) {
    uint32_t isz = item_size(e->format), k;
    if (!isz) return pb_note(err, PLUMBOB_ERR_BAD_DATA, at + 12u, "element", i, "format not 0, 1, 2 or 4");
    if (e->format <= 2u && skinning_input(e->identity)) {
        size_t floats = e->byte_size / 4u, bad = pb_first_nonfinite_le(e->data, floats);
        if (bad < floats)
            return pb_note(err, PLUMBOB_ERR_BAD_DATA, off(g, e->data) + 4u * bad, "element", i,
                           e->identity == PLUMBOB_GMDC_BONE_WEIGHTS ? "non-finite bone weight"
                           : e->identity == PLUMBOB_GMDC_VERTICES   ? "non-finite vertex position"
                           : e->identity == PLUMBOB_GMDC_NORMALS    ? "non-finite vertex normal"
                                                                    : "non-finite morph delta");
    }
    if (e->items.count == 0) {
        if ((uint64_t)e->count * isz != e->byte_size)
            return pb_note(err, PLUMBOB_ERR_BAD_DATA, at + 20u, "element", i,
                        "data size is not count times the item size");
        return PLUMBOB_OK;
    }
    /* sparse: one item per entry of the item list */
    if ((uint64_t)e->items.count * isz != e->byte_size)
        return pb_note(err, PLUMBOB_ERR_BAD_DATA, at + 20u, "element", i,
                    "sparse data size is not item-list entries times the item size");
    if (e->count > PLUMBOB_GMDC_MAX_SPARSE_COUNT)
        return pb_note(err, PLUMBOB_ERR_BAD_COUNT, at, "element", i, "sparse count above the limit");
    for (k = 0; k < e->items.count; k++)
        if (plumbob_gmdc_index(g, &e->items, k) >= e->count)
            return pb_note(err, PLUMBOB_ERR_BAD_INDEX, off(g, e->items.data) + (size_t)k * g->index_size, "element", i,
                        "item-list entry not below the element's count");
    return PLUMBOB_OK;
}

/* Walks the whole block.  With store 0 it only counts (and adds up the
 * arena bytes of the sparse lookups in *sparse_need). */
static plumbob_result walk(plumbob_reader *r, plumbob_gmdc *g, int store, size_t *sparse_need, plumbob_error *err) {
    uint32_t i, k, isz = g->index_size;
    plumbob_result res;
#define WALK_CHECK(table, index) \
    if (!plumbob_reader_ok(r)) return pb_note(err, r->error, r->pos, table, index, reader_reason(r->error))
    g->element_count = read_count(r, PLUMBOB_GMDC_MAX_ELEMENTS, 28);
    WALK_CHECK("elements", PLUMBOB_ERROR_NO_INDEX);
    for (i = 0; i < g->element_count; i++) {
        plumbob_gmdc_element e;
        size_t at = r->pos;
        e.count = plumbob_read_u32le(r);
        e.identity = plumbob_read_u32le(r);
        e.group = plumbob_read_u32le(r);
        e.format = plumbob_read_u32le(r);
        e.set = plumbob_read_u32le(r);
        e.byte_size = plumbob_read_u32le(r);
        if (plumbob_reader_ok(r) && !item_size(e.format))
            return pb_note(err, PLUMBOB_ERR_BAD_DATA, at + 12u, "element", i, "format not 0, 1, 2 or 4");
        e.data = plumbob_read_bytes(r, e.byte_size);
        e.items = read_indices(r, isz);
        e.sparse = NULL;
        WALK_CHECK("element", i);
        res = check_element(g, &e, i, at, err);
        if (res != PLUMBOB_OK) return res;
        if (e.items.count && sparse_need)
            plumbob_size_add(sparse_need, plumbob_arena_need(e.items.count, 8u));
        if (store) g->elements[i] = e;
    }
    g->linkage_count = read_count(r, PLUMBOB_GMDC_MAX_LINKAGES, 24);
    WALK_CHECK("linkages", PLUMBOB_ERROR_NO_INDEX);
    for (i = 0; i < g->linkage_count; i++) {
        plumbob_gmdc_linkage l;
        l.refs = read_indices(r, isz);
        l.vertex_count = plumbob_read_u32le(r);
        l.active_count = plumbob_read_u32le(r);
        for (k = 0; k < 3; k++) l.aliases[k] = read_indices(r, isz);
        WALK_CHECK("linkage", i);
        if (store) g->linkages[i] = l;
    }
    g->group_count = read_count(r, PLUMBOB_GMDC_MAX_GROUPS, 17);
    WALK_CHECK("groups", PLUMBOB_ERROR_NO_INDEX);
    for (i = 0; i < g->group_count; i++) {
        plumbob_gmdc_group gr;
        gr.primitive = plumbob_read_u32le(r);
        gr.link = plumbob_read_u32le(r);
        gr.name = plumbob_read_string7(r);
        gr.faces = read_indices(r, isz);
        gr.opacity = plumbob_read_u32le(r);
        if (g->version >= 2) {
            gr.bones = read_indices(r, isz);
        } else {
            gr.bones.data = NULL;
            gr.bones.count = 0;
        }
        WALK_CHECK("group", i);
        if (store) g->groups[i] = gr;
    }
    g->joint_count = read_count(r, PLUMBOB_GMDC_MAX_JOINTS, 28);
    g->joints = plumbob_read_bytes(r, (size_t)g->joint_count * 28u);
    WALK_CHECK("joints", PLUMBOB_ERROR_NO_INDEX);
    {
        /* each joint's rotation and translation: the bind pose skinning inverts */
        size_t floats = (size_t)g->joint_count * 7u, bad = pb_first_nonfinite_le(g->joints, floats);
        if (bad < floats)
            return pb_note(err, PLUMBOB_ERR_BAD_DATA, off(g, g->joints) + 4u * bad, "joint", (uint32_t)(bad / 7u),
                           bad % 7u < 4u ? "non-finite joint rotation" : "non-finite joint translation");
    }
    g->morph_count = read_count(r, PLUMBOB_GMDC_MAX_MORPHS, 2);
    WALK_CHECK("morphs", PLUMBOB_ERROR_NO_INDEX);
    for (i = 0; i < g->morph_count; i++) {
        plumbob_string a = plumbob_read_string7(r), b = plumbob_read_string7(r);
        WALK_CHECK("morph", i);
        if (store) {
            g->morph_names[2 * i] = a;
            g->morph_names[2 * i + 1] = b;
        }
    }
    g->bounding = read_mesh(r, isz);
    WALK_CHECK("bounding", PLUMBOB_ERROR_NO_INDEX);
    g->subset_count = read_count(r, PLUMBOB_GMDC_MAX_JOINTS, 4);
    WALK_CHECK("subsets", PLUMBOB_ERROR_NO_INDEX);
    for (i = 0; i < g->subset_count; i++) {
        plumbob_gmdc_mesh m = read_mesh(r, isz);
        WALK_CHECK("subset", i);
        if (store) g->subsets[i] = m;
    }
#undef WALK_CHECK
    g->end_pos = r->pos;
    return PLUMBOB_OK;
}

/* RCOL wrapper and block head; leaves r at the start of the GMDC body. */
static plumbob_result open_block(const unsigned char *d, size_t size, plumbob_gmdc *g, plumbob_reader *r,
                                 plumbob_error *err) {
    plumbob_result res;
    size_t version_at;
    {
        plumbob_gmdc empty = {0};
        *g = empty;
    }
    g->data = d;
    g->size = size;
    res = pb_rcol2_open(&g->rcol, d, size, PLUMBOB_TYPE_GMDC, err);
    if (res != PLUMBOB_OK) return res;
    plumbob_reader_init(r, d, size);
    plumbob_reader_seek(r, g->rcol.first_block_offset);
    res = plumbob_sims2_block_head_read(r, &g->head);
    if (res != PLUMBOB_OK) return pb_note(err, res, r->pos, "head", PLUMBOB_ERROR_NO_INDEX, "block head or cSGResource header");
    version_at = off(g, g->head.class_name.ptr) + g->head.class_name.len + 4u;
    if (g->head.block_id != PLUMBOB_TYPE_GMDC)
        return pb_note(err, PLUMBOB_ERR_BAD_MAGIC, version_at - 4u, "head", PLUMBOB_ERROR_NO_INDEX, "block id is not 0xAC4F8687");
    g->version = g->head.version;
    if (g->version != 1 && g->version != 2 && g->version != 4)
        return pb_note(err, PLUMBOB_ERR_UNSUPPORTED_VERSION, version_at, "head", PLUMBOB_ERROR_NO_INDEX, "version not 1, 2 or 4");
    g->index_size = g->version == 4 ? 2u : 4u;
    return PLUMBOB_OK;
}

plumbob_result plumbob_gmdc_measure_ex(const void *data, size_t size, size_t *arena_bytes, plumbob_error *err) {
    plumbob_gmdc g;
    plumbob_reader r;
    plumbob_result res;
    size_t need = 0;
    plumbob_error_clear(err);
    if (arena_bytes) *arena_bytes = SIZE_MAX; /* the sizing rule: bad input is SIZE_MAX, never 0 */
    if (!data || !arena_bytes)
        return pb_note(err, PLUMBOB_ERR_INVALID_ARGUMENT, 0, "arguments", PLUMBOB_ERROR_NO_INDEX, "NULL pointer");
    res = open_block((const unsigned char *)data, size, &g, &r, err);
    if (res == PLUMBOB_OK) res = walk(&r, &g, 0, &need, err);
    if (res != PLUMBOB_OK) return res;
    plumbob_size_add(&need, plumbob_arena_need(g.element_count, sizeof(plumbob_gmdc_element)));
    plumbob_size_add(&need, plumbob_arena_need(g.linkage_count, sizeof(plumbob_gmdc_linkage)));
    plumbob_size_add(&need, plumbob_arena_need(g.group_count, sizeof(plumbob_gmdc_group)));
    plumbob_size_add(&need, plumbob_arena_need((size_t)g.morph_count * 2u, sizeof(plumbob_string)));
    if (!plumbob_size_add(&need, plumbob_arena_need(g.subset_count, sizeof(plumbob_gmdc_mesh))) || need == SIZE_MAX)
        return pb_note(err, PLUMBOB_ERR_OUT_OF_MEMORY, 0, "arena", PLUMBOB_ERROR_NO_INDEX, "the arena size does not fit size_t");
    *arena_bytes = need;
    return PLUMBOB_OK;
}

plumbob_result plumbob_gmdc_measure(const void *data, size_t size, size_t *arena_bytes) {
    return plumbob_gmdc_measure_ex(data, size, arena_bytes, NULL);
}

const plumbob_gmdc_element *plumbob_gmdc_find_element(const plumbob_gmdc *g, uint32_t link,
                                                      uint32_t identity, uint32_t group) {
    const plumbob_gmdc_linkage *l;
    uint32_t i;
    if (!g || link >= g->linkage_count) return NULL;
    l = &g->linkages[link];
    for (i = 0; i < l->refs.count; i++) {
        const plumbob_gmdc_element *e = &g->elements[plumbob_gmdc_index(g, &l->refs, i)];
        if (e->identity == identity && (e->group == group || (identity != PLUMBOB_GMDC_MORPH_VERTEX_DELTAS &&
                                                             identity != PLUMBOB_GMDC_MORPH_NORMAL_DELTAS)))
            return e;
    }
    return NULL;
}

uint32_t plumbob_gmdc_item(const plumbob_gmdc *g, const plumbob_gmdc_element *e, uint32_t v) {
    uint32_t k;
    if (!e) return PLUMBOB_GMDC_NO_ITEM;
    if (e->items.count == 0) return v < e->count ? v : PLUMBOB_GMDC_NO_ITEM;
    if (v >= e->count) return PLUMBOB_GMDC_NO_ITEM;
    if (e->sparse) { /* first pair whose vertex is not below v */
        uint32_t lo = 0, hi = e->items.count;
        while (lo < hi) {
            uint32_t mid = lo + (hi - lo) / 2u;
            if (e->sparse[2u * mid] < v) lo = mid + 1u;
            else hi = mid;
        }
        return lo < e->items.count && e->sparse[2u * lo] == v ? e->sparse[2u * lo + 1u] : PLUMBOB_GMDC_NO_ITEM;
    }
    if (!g || !e->items.data) return PLUMBOB_GMDC_NO_ITEM;
    for (k = 0; k < e->items.count; k++)
        if (plumbob_gmdc_index(g, &e->items, k) == v) return k;
    return PLUMBOB_GMDC_NO_ITEM;
}

/* Builds the sorted {vertex, position} lookup of every sparse element. */
static plumbob_result build_sparse(plumbob_gmdc *g, plumbob_arena *arena) {
    uint32_t i, k;
    for (i = 0; i < g->element_count; i++) {
        plumbob_gmdc_element *e = &g->elements[i];
        uint32_t *p;
        if (!e->items.count) continue;
        p = (uint32_t *)plumbob_arena_alloc_array(arena, e->items.count, 8u, 0);
        if (!p) return PLUMBOB_ERR_OUT_OF_MEMORY;
        for (k = 0; k < e->items.count; k++) {
            p[2u * k] = plumbob_gmdc_index(g, &e->items, k);
            p[2u * k + 1u] = k;
        }
        pb_sort_pairs(p, e->items.count); /* by vertex, then item position */
        e->sparse = p;
    }
    return PLUMBOB_OK;
}

/* Elements the skinner reads per vertex must cover the linkage's vertices. */
static int per_vertex(uint32_t identity) {
    return identity == PLUMBOB_GMDC_VERTICES || identity == PLUMBOB_GMDC_NORMALS ||
           identity == PLUMBOB_GMDC_BONE_ASSIGNMENTS || identity == PLUMBOB_GMDC_BONE_WEIGHTS ||
           identity == PLUMBOB_GMDC_MORPH_VERTEX_DELTAS || identity == PLUMBOB_GMDC_MORPH_NORMAL_DELTAS ||
           identity == PLUMBOB_GMDC_MORPH_VERTEX_MAP;
}

/* Every entry of f below limit. */
static plumbob_result check_indices(const plumbob_gmdc *g, const plumbob_gmdc_indices *f, uint32_t limit,
                                    const char *table, uint32_t index, const char *reason, plumbob_error *err) {
    uint32_t i;
    for (i = 0; i < f->count; i++)
        if (plumbob_gmdc_index(g, f, i) >= limit)
            return pb_note(err, PLUMBOB_ERR_BAD_INDEX, off(g, f->data) + (size_t)i * g->index_size, table, index, reason);
    return PLUMBOB_OK;
}

/* Bytes a string of len characters takes with its 7-bit length prefix. */
static size_t string7_size(size_t len) {
    size_t n = len + 1u;
    while (len >= 128u) {
        len >>= 7;
        n++;
    }
    return n;
}

/* Offset of element e's record in the input. */
static size_t element_at(const plumbob_gmdc *g, const plumbob_gmdc_element *e) {
    return e->data ? off(g, e->data) - 24u : 0u;
}

static plumbob_result validate(const plumbob_gmdc *g, plumbob_error *err) {
    uint32_t i, k;
    plumbob_result res;
    for (i = 0; i < g->linkage_count; i++) {
        const plumbob_gmdc_linkage *l = &g->linkages[i];
        const plumbob_gmdc_element *map;
        size_t at = off(g, l->refs.data) - 4u; /* the linkage's first field */
        /* version 4 indexes with u16: a linkage cannot hold more vertices */
        if (g->version == 4 && l->vertex_count > 65535u)
            return pb_note(err, PLUMBOB_ERR_BAD_COUNT, at + 4u + (size_t)l->refs.count * 2u, "linkage", i,
                        "more than 65535 vertices in a version 4 mesh");
        for (k = 0; k < l->refs.count; k++) {
            uint32_t e = plumbob_gmdc_index(g, &l->refs, k);
            size_t ref_at = off(g, l->refs.data) + (size_t)k * g->index_size;
            if (e >= g->element_count)
                return pb_note(err, PLUMBOB_ERR_BAD_INDEX, ref_at, "linkage", i, "element reference past the element table");
            if (per_vertex(g->elements[e].identity) && g->elements[e].count < l->vertex_count)
                return pb_note(err, PLUMBOB_ERR_BAD_COUNT, element_at(g, &g->elements[e]), "element", e,
                            "covers fewer vertices than a linkage that uses it");
        }
        /* morph map ids name morph pairs */
        map = plumbob_gmdc_find_element(g, i, PLUMBOB_GMDC_MORPH_VERTEX_MAP, 0);
        if (map) {
            uint32_t mi = (uint32_t)(map - g->elements);
            if (map->format != 4)
                return pb_note(err, PLUMBOB_ERR_BAD_DATA, element_at(g, map) + 12u, "element", mi, "morph map not of format 4");
            for (k = 0; k < l->vertex_count; k++) {
                uint32_t item = plumbob_gmdc_item(g, map, k), m, b;
                if (item == PLUMBOB_GMDC_NO_ITEM) continue;
                m = pb_le32(map->data + 4u * (size_t)item);
                for (b = 0; b < 4; b++)
                    if (((m >> (8 * b)) & 0xFFu) >= g->morph_count && ((m >> (8 * b)) & 0xFFu) != 0)
                        return pb_note(err, PLUMBOB_ERR_BAD_INDEX, off(g, map->data) + 4u * (size_t)item + b, "element", mi,
                                    "morph map id past the morph name pairs");
            }
        }
    }
    for (i = 0; i < g->group_count; i++) {
        const plumbob_gmdc_group *gr = &g->groups[i];
        const plumbob_gmdc_element *ba;
        size_t faces_at = off(g, gr->faces.data) - 4u;
        if (gr->link >= g->linkage_count)
            return pb_note(err, PLUMBOB_ERR_BAD_INDEX, faces_at - string7_size(gr->name.len) - 4u, "group", i,
                        "linkage index past the linkage table");
        if (gr->primitive == PLUMBOB_GMDC_PRIMITIVE_TRIANGLES && gr->faces.count % 3u != 0)
            return pb_note(err, PLUMBOB_ERR_BAD_COUNT, faces_at, "group", i, "triangle list face count not a multiple of 3");
        res = check_indices(g, &gr->faces, g->linkages[gr->link].vertex_count, "group", i,
                            "face index not below the linkage's vertex count", err);
        if (res != PLUMBOB_OK) return res;
        res = check_indices(g, &gr->bones, g->joint_count, "group", i, "bone list entry past the joint table", err);
        if (res != PLUMBOB_OK) return res;
        /* every bone slot a face's vertex uses must be in the group's bone
         * list (version 1 has no bone lists: slots index the joint table) */
        ba = plumbob_gmdc_find_element(g, gr->link, PLUMBOB_GMDC_BONE_ASSIGNMENTS, 0);
        if (ba) {
            uint32_t slots = g->version >= 2 ? gr->bones.count : g->joint_count, bi = (uint32_t)(ba - g->elements);
            if (ba->format != 4)
                return pb_note(err, PLUMBOB_ERR_BAD_DATA, element_at(g, ba) + 12u, "element", bi, "bone assignments not of format 4");
            for (k = 0; k < gr->faces.count; k++) {
                uint32_t item = plumbob_gmdc_item(g, ba, plumbob_gmdc_index(g, &gr->faces, k)), a, b;
                if (item == PLUMBOB_GMDC_NO_ITEM) continue;
                a = pb_le32(ba->data + 4u * (size_t)item);
                for (b = 0; b < 4; b++) {
                    uint32_t slot = (a >> (8 * b)) & 0xFFu;
                    if (slot != 0xFFu && slot >= slots)
                        return pb_note(err, PLUMBOB_ERR_BAD_INDEX, off(g, ba->data) + 4u * (size_t)item + b, "element", bi,
                                    g->version >= 2 ? "bone slot past the group's bone list" : "bone slot past the joint table");
                }
            }
        }
    }
    res = check_indices(g, &g->bounding.faces, g->bounding.vertex_count, "bounding", PLUMBOB_ERROR_NO_INDEX,
                        "face index not below the vertex count", err);
    for (i = 0; i < g->subset_count && res == PLUMBOB_OK; i++)
        res = check_indices(g, &g->subsets[i].faces, g->subsets[i].vertex_count, "subset", i,
                            "face index not below the vertex count", err);
    return res;
}

plumbob_result plumbob_gmdc_decode_ex(const void *data, size_t size, plumbob_arena *arena, plumbob_gmdc *g,
                                      plumbob_error *err) {
    plumbob_reader r;
    plumbob_result res;
    size_t mark;
    plumbob_gmdc counted;
    plumbob_error_clear(err);
    if (!data || !arena || !g)
        return pb_note(err, PLUMBOB_ERR_INVALID_ARGUMENT, 0, "arguments", PLUMBOB_ERROR_NO_INDEX, "NULL pointer");
    /* first walk: counts (and every structural check) */
    res = open_block((const unsigned char *)data, size, &counted, &r, err);
    if (res == PLUMBOB_OK) res = walk(&r, &counted, 0, NULL, err);
    if (res != PLUMBOB_OK) return res;
    res = open_block((const unsigned char *)data, size, g, &r, NULL);
    if (res != PLUMBOB_OK) return res;
    mark = plumbob_arena_mark(arena);
    g->elements = (plumbob_gmdc_element *)plumbob_arena_alloc_array(arena, counted.element_count, sizeof(plumbob_gmdc_element), 0);
    g->linkages = (plumbob_gmdc_linkage *)plumbob_arena_alloc_array(arena, counted.linkage_count, sizeof(plumbob_gmdc_linkage), 0);
    g->groups = (plumbob_gmdc_group *)plumbob_arena_alloc_array(arena, counted.group_count, sizeof(plumbob_gmdc_group), 0);
    g->morph_names = (plumbob_string *)plumbob_arena_alloc_array(arena, (size_t)counted.morph_count * 2u, sizeof(plumbob_string), 0);
    g->subsets = (plumbob_gmdc_mesh *)plumbob_arena_alloc_array(arena, counted.subset_count, sizeof(plumbob_gmdc_mesh), 0);
    res = PLUMBOB_ERR_OUT_OF_MEMORY;
    if (g->elements && g->linkages && g->groups && g->morph_names && g->subsets) {
        res = walk(&r, g, 1, NULL, err);
        if (res == PLUMBOB_OK) res = build_sparse(g, arena);
        if (res == PLUMBOB_OK) res = validate(g, err);
    }
    if (res != PLUMBOB_OK) {
        pb_note(err, res, 0, "arena", PLUMBOB_ERROR_NO_INDEX, "the arena is smaller than plumbob_gmdc_measure says");
        plumbob_arena_reset(arena, mark);
    }
    return res;
}

plumbob_result plumbob_gmdc_decode(const void *data, size_t size, plumbob_arena *arena, plumbob_gmdc *g) {
    return plumbob_gmdc_decode_ex(data, size, arena, g, NULL);
}

float plumbob_gmdc_float(const plumbob_gmdc_element *e, uint32_t i, uint32_t k) {
    size_t at;
    if (!e || e->format > 2u || k > e->format || !e->data) return 0.0f;
    at = ((size_t)i * (e->format + 1u) + k) * 4u;
    if (at / 4u / (e->format + 1u) != i || at + 4u > e->byte_size) return 0.0f; /* past the element */
    return pb_f32le(e->data + at);
}

void plumbob_gmdc_joint(const plumbob_gmdc *g, uint32_t j, plumbob_quat *rotation, plumbob_vec3 *translation) {
    const unsigned char *p;
    if (!rotation || !translation) return;
    if (!g || j >= g->joint_count || !g->joints) { /* out of range: the identity */
        *rotation = plumbob_quat_identity();
        translation->x = translation->y = translation->z = 0.0f;
        return;
    }
    p = g->joints + (size_t)j * 28u;
    rotation->x = pb_f32le(p);
    rotation->y = pb_f32le(p + 4);
    rotation->z = pb_f32le(p + 8);
    rotation->w = pb_f32le(p + 12);
    translation->x = pb_f32le(p + 16);
    translation->y = pb_f32le(p + 20);
    translation->z = pb_f32le(p + 24);
}

void plumbob_gmdc_joint_bind(const plumbob_gmdc *g, uint32_t j, plumbob_quat *rotation, plumbob_vec3 *translation) {
    plumbob_quat q;
    plumbob_vec3 t;
    if (!rotation || !translation) return;
    plumbob_gmdc_joint(g, j, &q, &t);
    q = plumbob_quat_normalize(q);
    q.x = -q.x; /* the inverse of a unit rotation: its conjugate */
    q.y = -q.y;
    q.z = -q.z;
    t = plumbob_quat_rotate(q, t);
    t.x = -t.x; /* and the translation that undoes the inverse's */
    t.y = -t.y;
    t.z = -t.z;
    *rotation = q;
    *translation = t;
}

uint32_t plumbob_gmdc_influences(const plumbob_gmdc *g, const plumbob_gmdc_group *gr, uint32_t v, uint32_t joint[4],
                                 float weight[4]) {
    const plumbob_gmdc_element *ba, *bw;
    uint32_t a = 0xFFFFFFFFu, k, stored, wk, count = 0;
    float sum = 0.0f;
    if (!joint || !weight) return 0;
    for (k = 0; k < 4u; k++) {
        joint[k] = 0;
        weight[k] = 0.0f;
    }
    if (!g || !gr) return 0;
    ba = plumbob_gmdc_find_element(g, gr->link, PLUMBOB_GMDC_BONE_ASSIGNMENTS, 0);
    bw = plumbob_gmdc_find_element(g, gr->link, PLUMBOB_GMDC_BONE_WEIGHTS, 0);
    if (ba && ba->format == 4) {
        uint32_t it = plumbob_gmdc_item(g, ba, v);
        if (it != PLUMBOB_GMDC_NO_ITEM) a = pb_le32(ba->data + 4u * (size_t)it);
    }
    stored = bw && bw->format <= 2 ? bw->format + 1u : 0u;
    wk = bw ? plumbob_gmdc_item(g, bw, v) : PLUMBOB_GMDC_NO_ITEM;
    for (k = 0; k < 4u; k++) {
        uint32_t slot = (a >> (8u * k)) & 0xFFu, j;
        float w = 0.0f;
        if (slot == 0xFFu) continue; /* unused: no weight, nothing added to the sum */
        if (k < stored) {
            w = wk != PLUMBOB_GMDC_NO_ITEM ? plumbob_gmdc_float(bw, wk, k) : 0.0f;
            sum += w;
        } else if (k == stored) {
            w = 1.0f - sum; /* the implied last weight */
        }
        if (g->version >= 2) {
            if (slot >= gr->bones.count) continue;
            j = plumbob_gmdc_index(g, &gr->bones, slot);
        } else {
            j = slot;
        }
        if (j >= g->joint_count || !(w > 0.0f)) continue;
        joint[k] = j;
        weight[k] = w;
        count++;
    }
    return count;
}
