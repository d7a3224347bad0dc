/* Sims 3 GEOM (body mesh RCOL) decoding and validation.  One pass, parse,
 * checks every rule and records where the small tables lie; the measure
 * call stops there, the decode then copies those tables (elements, bone
 * hashes, TGIs, external keys) into the arena.  Vertex and index bytes stay
 * in the caller's buffer. */
#include "plumbob/sims3.h"
#include "pb_bytes.h"
#include "pb_error.h"
#include "pb_geom.h"
#include "pb_rcol3.h"

/* Where parse found the tables the decode copies. */
typedef struct gm_at {
    size_t externals, elements, bones, tgis;
} gm_at;

#define NOTE(res, at, table, index, reason) pb_note(err, (res), (at), (table), (index), (reason))
#define HERE(r) pb_reader_at((r), d, size)

static bool finite_bits(uint32_t u) {
    return (u & 0x7F800000u) != 0x7F800000u;
}

/* The RCOL wrapper: one internal chunk right after the chunk table, ending
 * where the input ends. */
static plumbob_result parse_rcol(const unsigned char *d, size_t size, plumbob_geom *g, gm_at *at,
                                 plumbob_error *err) {
    plumbob_reader r;
    uint32_t internal;
    size_t table, chunks;
    plumbob_reader_init(&r, d, size);
    g->rcol_version = plumbob_read_u32le(&r);
    g->rcol_public_count = plumbob_read_u32le(&r);
    g->rcol_unused = plumbob_read_u32le(&r);
    g->rcol_external_count = plumbob_read_u32le(&r);
    internal = plumbob_read_u32le(&r);
    if (!plumbob_reader_ok(&r))
        return NOTE(r.error, HERE(&r), "rcol", PLUMBOB_ERROR_NO_INDEX, "RCOL header runs past the end of the data");
    /* the RCOL version is the wrapper's only signature (as for jazz) */
    if (g->rcol_version != PB_RCOL3_VERSION)
        return NOTE(PLUMBOB_ERR_BAD_MAGIC, 0, "rcol", PLUMBOB_ERROR_NO_INDEX, "RCOL version not 3: not a Sims 3 RCOL");
    if (internal != 1u)
        return NOTE(PLUMBOB_ERR_BAD_COUNT, 16, "rcol", PLUMBOB_ERROR_NO_INDEX, "internal chunk count not 1");
    if (g->rcol_external_count > PLUMBOB_GEOM_MAX_TGIS)
        return NOTE(PLUMBOB_ERR_BAD_COUNT, 12, "rcol", PLUMBOB_ERROR_NO_INDEX, "external key count above the limit");
    table = pb_rcol3_chunk_table_at(1u, g->rcol_external_count);
    chunks = pb_rcol3_chunks_at(1u, g->rcol_external_count);
    if (chunks > size)
        return NOTE(PLUMBOB_ERR_TRUNCATED, size, "rcol", PLUMBOB_ERROR_NO_INDEX, "keys or chunk table run past the end of the data");
    g->internal_key.instance = pb_le64(d + PB_RCOL3_HEADER_BYTES);
    g->internal_key.type = pb_le32(d + PB_RCOL3_HEADER_BYTES + 8u);
    g->internal_key.group = pb_le32(d + PB_RCOL3_HEADER_BYTES + 12u);
    at->externals = pb_rcol3_external_keys_at(1u);
    g->chunk_offset = pb_le32(d + table);
    g->chunk_size = pb_le32(d + table + 4u);
    if (g->chunk_offset != chunks)
        return NOTE(PLUMBOB_ERR_BAD_OFFSET, table, "rcol", 0, "the chunk does not start right after the chunk table");
    if (g->chunk_size > size - chunks)
        return NOTE(PLUMBOB_ERR_TRUNCATED, size, "rcol", 0, "the chunk runs past the end of the data");
    if (g->chunk_size != size - chunks)
        return NOTE(PLUMBOB_ERR_BAD_DATA, chunks + g->chunk_size, "rcol", PLUMBOB_ERROR_NO_INDEX, "bytes after the chunk");
    return PLUMBOB_OK;
}

/* Tag, version, TGI offset and size, embedded id and material block. */
static plumbob_result parse_head(const unsigned char *d, size_t size, plumbob_reader *r, plumbob_geom *g,
                                 uint32_t *tgi_offset, uint32_t *tgi_size, plumbob_error *err) {
    size_t c = g->chunk_offset;
    uint32_t tag = plumbob_read_u32le(r);
    g->version = plumbob_read_u32le(r);
    if (!plumbob_reader_ok(r))
        return NOTE(r->error, HERE(r), "geom", PLUMBOB_ERROR_NO_INDEX, "chunk head runs past the end of the chunk");
    if (tag != PB_GEOM_TAG) return NOTE(PLUMBOB_ERR_BAD_MAGIC, c, "geom", PLUMBOB_ERROR_NO_INDEX, "chunk tag is not GEOM");
    if (g->version >= PB_GEOM_SIMS4_VERSION)
        return NOTE(PLUMBOB_ERR_UNSUPPORTED_VERSION, c + 4u, "geom", PLUMBOB_ERROR_NO_INDEX,
                    "version 12 and up: a Sims 4 GEOM (The Sims 3 writes version 5)");
    if (g->version != PB_GEOM_VERSION)
        return NOTE(PLUMBOB_ERR_UNSUPPORTED_VERSION, c + 4u, "geom", PLUMBOB_ERROR_NO_INDEX, "version not 5");
    *tgi_offset = plumbob_read_u32le(r);
    *tgi_size = plumbob_read_u32le(r);
    g->embedded_id = plumbob_read_u32le(r);
    if (!plumbob_reader_ok(r))
        return NOTE(r->error, HERE(r), "geom", PLUMBOB_ERROR_NO_INDEX, "chunk head runs past the end of the chunk");
    g->material = NULL;
    g->material_size = 0;
    if (g->embedded_id != 0) { /* the MTNF block is there only with an embedded id */
        g->material_size = plumbob_read_u32le(r);
        g->material = plumbob_read_bytes(r, g->material_size);
        if (!g->material) {
            g->material_size = 0;
            return NOTE(r->error, HERE(r), "material", PLUMBOB_ERROR_NO_INDEX, "material block runs past the end of the chunk");
        }
    }
    return PLUMBOB_OK;
}

/* Counts and the element table (sizes checked against the usages). */
static plumbob_result parse_elements(const unsigned char *d, size_t size, plumbob_reader *r, plumbob_geom *g,
                                     gm_at *at, plumbob_error *err) {
    size_t count_at;
    uint32_t i, stride = 0;
    g->merge_group = plumbob_read_u32le(r);
    g->sort_order = plumbob_read_u32le(r);
    count_at = HERE(r);
    g->vertex_count = plumbob_read_u32le(r);
    g->element_count = plumbob_read_u32le(r);
    if (!plumbob_reader_ok(r))
        return NOTE(r->error, HERE(r), "geom", PLUMBOB_ERROR_NO_INDEX, "vertex counts run past the end of the chunk");
    if (g->vertex_count > PLUMBOB_GEOM_MAX_VERTICES)
        return NOTE(PLUMBOB_ERR_BAD_COUNT, count_at, "geom", PLUMBOB_ERROR_NO_INDEX, "vertex count above the limit");
    if (g->element_count > PLUMBOB_GEOM_MAX_ELEMENTS)
        return NOTE(PLUMBOB_ERR_BAD_COUNT, count_at + 4u, "geom", PLUMBOB_ERROR_NO_INDEX, "element count above the limit");
    at->elements = HERE(r);
    for (i = 0; i < g->element_count; i++) {
        uint32_t usage = plumbob_read_u32le(r), want, got;
        plumbob_read_u32le(r); /* data type: kept as stored */
        got = plumbob_read_u8(r);
        if (!plumbob_reader_ok(r))
            return NOTE(r->error, HERE(r), "element", i, "element table runs past the end of the chunk");
        want = pb_geom_usage_size(usage);
        if (want != 0 && got != want)
            return NOTE(PLUMBOB_ERR_BAD_DATA, HERE(r) - 1u, "element", i, "element size wrong for its usage");
        stride += got;
    }
    g->vertex_stride = stride;
    if (g->vertex_count != 0 && stride > plumbob_reader_remaining(r) / g->vertex_count)
        return NOTE(PLUMBOB_ERR_TRUNCATED, HERE(r), "vertex", PLUMBOB_ERROR_NO_INDEX, "vertices run past the end of the chunk");
    g->vertices = plumbob_read_bytes(r, (size_t)g->vertex_count * stride);
    return PLUMBOB_OK;
}

/* Index group, skin controller, bone hashes, TGI table; then the TGI
 * offset and size against where the table really lies. */
static plumbob_result parse_tail(const unsigned char *d, size_t size, plumbob_reader *r, plumbob_geom *g, gm_at *at,
                                 uint32_t tgi_offset, uint32_t tgi_size, plumbob_error *err) {
    size_t c = g->chunk_offset, field = HERE(r) + 4u, tgi_at;
    g->item_count = plumbob_read_u32le(r);
    g->index_size = plumbob_read_u8(r);
    g->index_count = plumbob_read_u32le(r);
    if (!plumbob_reader_ok(r))
        return NOTE(r->error, HERE(r), "index", PLUMBOB_ERROR_NO_INDEX, "index group runs past the end of the chunk");
    if (g->index_size != 2u && g->index_size != 4u)
        return NOTE(PLUMBOB_ERR_BAD_DATA, field, "index", PLUMBOB_ERROR_NO_INDEX, "bytes per index not 2 or 4");
    if (g->index_count % 3u != 0)
        return NOTE(PLUMBOB_ERR_BAD_COUNT, field + 1u, "index", PLUMBOB_ERROR_NO_INDEX, "index count not a multiple of 3");
    if (g->index_count > plumbob_reader_remaining(r) / g->index_size)
        return NOTE(PLUMBOB_ERR_TRUNCATED, HERE(r), "index", PLUMBOB_ERROR_NO_INDEX, "indices run past the end of the chunk");
    g->indices = plumbob_read_bytes(r, (size_t)g->index_count * g->index_size);
    g->skin_controller = plumbob_read_u32le(r);
    field = HERE(r);
    g->bone_count = plumbob_read_u32le(r);
    if (!plumbob_reader_ok(r))
        return NOTE(r->error, HERE(r), "bone", PLUMBOB_ERROR_NO_INDEX, "bone list runs past the end of the chunk");
    if (g->bone_count > PLUMBOB_GEOM_MAX_BONES)
        return NOTE(PLUMBOB_ERR_BAD_COUNT, field, "bone", PLUMBOB_ERROR_NO_INDEX, "bone count above 255");
    at->bones = HERE(r);
    plumbob_reader_skip(r, (size_t)g->bone_count * 4u);
    if (!plumbob_reader_ok(r))
        return NOTE(r->error, HERE(r), "bone", PLUMBOB_ERROR_NO_INDEX, "bone list runs past the end of the chunk");
    tgi_at = HERE(r);
    g->tgi_count = plumbob_read_u32le(r);
    if (!plumbob_reader_ok(r))
        return NOTE(r->error, HERE(r), "tgi", PLUMBOB_ERROR_NO_INDEX, "TGI count runs past the end of the chunk");
    if (g->tgi_count > PLUMBOB_GEOM_MAX_TGIS)
        return NOTE(PLUMBOB_ERR_BAD_COUNT, tgi_at, "tgi", PLUMBOB_ERROR_NO_INDEX, "TGI count above the limit");
    at->tgis = HERE(r);
    plumbob_reader_skip(r, (size_t)g->tgi_count * PB_GEOM_TGI_BYTES);
    if (!plumbob_reader_ok(r))
        return NOTE(r->error, HERE(r), "tgi", PLUMBOB_ERROR_NO_INDEX, "TGI table runs past the end of the chunk");
    if (tgi_at - c - PB_GEOM_TGI_TABLE_AT != tgi_offset)
        return NOTE(PLUMBOB_ERR_BAD_OFFSET, c + 8u, "tgi", PLUMBOB_ERROR_NO_INDEX, "TGI offset does not lead to the TGI table");
    if ((size_t)tgi_size != 4u + (size_t)g->tgi_count * PB_GEOM_TGI_BYTES)
        return NOTE(PLUMBOB_ERR_BAD_OFFSET, c + 12u, "tgi", PLUMBOB_ERROR_NO_INDEX, "TGI size disagrees with the TGI table");
    if (plumbob_reader_remaining(r) != 0)
        return NOTE(PLUMBOB_ERR_BAD_DATA, HERE(r), "tgi", PLUMBOB_ERROR_NO_INDEX, "bytes after the TGI table");
    return PLUMBOB_OK;
}

/* The nth element of `usage` in the file's table, as (offset in a vertex,
 * found); read from the bytes, so parse needs no arena. */
static bool element_at(const unsigned char *table, uint32_t count, uint32_t usage, uint32_t *offset) {
    uint32_t i, off = 0;
    for (i = 0; i < count; i++) {
        const unsigned char *e = table + (size_t)i * PB_GEOM_ELEMENT_BYTES;
        if (pb_le32(e) == usage) {
            *offset = off;
            return true;
        }
        off += e[8];
    }
    return false;
}

/* Every float of position, normal, UV, weights and tangent finite; every
 * assignment byte whose weight is not zero a slot of the bone list. */
static plumbob_result check_vertices(const unsigned char *d, const plumbob_geom *g, const gm_at *at,
                                     plumbob_error *err) {
    const unsigned char *table = d + at->elements;
    uint32_t v, i, k, assign = 0, weights = 0;
    bool slots;
    if (g->vertex_stride == 0) return PLUMBOB_OK;
    slots = element_at(table, g->element_count, PLUMBOB_GEOM_ASSIGNMENT, &assign) &&
            element_at(table, g->element_count, PLUMBOB_GEOM_WEIGHTS, &weights);
    for (v = 0; v < g->vertex_count; v++) {
        const unsigned char *p = g->vertices + (size_t)v * g->vertex_stride;
        size_t vat = (size_t)(p - d);
        uint32_t off = 0;
        for (i = 0; i < g->element_count; i++) {
            const unsigned char *e = table + (size_t)i * PB_GEOM_ELEMENT_BYTES;
            if (pb_geom_usage_floats(pb_le32(e)))
                for (k = 0; k < e[8]; k += 4u)
                    if (!finite_bits(pb_le32(p + off + k)))
                        return NOTE(PLUMBOB_ERR_BAD_DATA, vat, "vertex", v, "non-finite position, normal, UV, weight or tangent");
            off += e[8];
        }
        for (k = 0; slots && k < 4u; k++)
            if (pb_f32le(p + weights + 4u * k) != 0.0f && p[assign + k] >= g->bone_count)
                return NOTE(PLUMBOB_ERR_BAD_INDEX, vat + assign + k, "vertex", v, "weighted bone slot past the bone list");
    }
    return PLUMBOB_OK;
}

static plumbob_result check_indices(const unsigned char *d, const plumbob_geom *g, plumbob_error *err) {
    uint32_t i;
    for (i = 0; i < g->index_count; i++) {
        const unsigned char *p = g->indices + (size_t)i * g->index_size;
        uint32_t x = g->index_size == 2u ? pb_le16(p) : pb_le32(p);
        if (x >= g->vertex_count)
            return NOTE(PLUMBOB_ERR_BAD_INDEX, (size_t)(p - d), "index", i, "index past the vertex count");
    }
    return PLUMBOB_OK;
}

/* Everything the format says, in file order, then the contents. */
static plumbob_result parse(const unsigned char *d, size_t size, plumbob_geom *g, gm_at *at, plumbob_error *err) {
    plumbob_reader r;
    plumbob_result res;
    uint32_t tgi_offset = 0, tgi_size = 0;
    g->data = d;
    g->size = size;
    g->external_keys = NULL;
    g->elements = NULL;
    g->bone_hashes = NULL;
    g->tgis = NULL;
    res = parse_rcol(d, size, g, at, err);
    if (res != PLUMBOB_OK) return res;
    plumbob_reader_init(&r, d + g->chunk_offset, g->chunk_size);
    res = parse_head(d, size, &r, g, &tgi_offset, &tgi_size, err);
    if (res == PLUMBOB_OK) res = parse_elements(d, size, &r, g, at, err);
    if (res == PLUMBOB_OK) res = parse_tail(d, size, &r, g, at, tgi_offset, tgi_size, err);
    if (res != PLUMBOB_OK) return res;
    /* an empty TGI table has no controller to name: 0 then */
    if (g->skin_controller >= (g->tgi_count ? g->tgi_count : 1u))
        return NOTE(PLUMBOB_ERR_BAD_INDEX, at->bones - 8u, "tgi", PLUMBOB_ERROR_NO_INDEX, "skin controller past the TGI table");
    res = check_indices(d, g, err);
    if (res == PLUMBOB_OK) res = check_vertices(d, g, at, err);
    return res;
}

static size_t need_for(const plumbob_geom *g) {
    size_t need = 0;
    plumbob_size_add(&need, plumbob_arena_need(g->rcol_external_count, sizeof(plumbob_geom_rcol_key)));
    plumbob_size_add(&need, plumbob_arena_need(g->element_count, sizeof(plumbob_geom_element)));
    plumbob_size_add(&need, plumbob_arena_need(g->bone_count, sizeof(uint32_t)));
    plumbob_size_add(&need, plumbob_arena_need(g->tgi_count, sizeof(plumbob_geom_tgi)));
    return need;
}

plumbob_result plumbob_geom_measure_ex(const void *data, size_t size, size_t *arena_bytes, plumbob_error *err) {
    plumbob_geom g;
    gm_at at;
    plumbob_result res;
    plumbob_error_clear(err);
    if (!arena_bytes)
        return pb_note(err, PLUMBOB_ERR_INVALID_ARGUMENT, 0, "arguments", PLUMBOB_ERROR_NO_INDEX, "NULL pointer");
    *arena_bytes = SIZE_MAX; /* the sizing rule: SIZE_MAX on any error */
    if (!data)
        return pb_note(err, PLUMBOB_ERR_INVALID_ARGUMENT, 0, "arguments", PLUMBOB_ERROR_NO_INDEX, "NULL pointer");
    res = parse((const unsigned char *)data, size, &g, &at, err);
    if (res == PLUMBOB_OK) *arena_bytes = need_for(&g);
    return res;
}

plumbob_result plumbob_geom_measure(const void *data, size_t size, size_t *arena_bytes) {
    return plumbob_geom_measure_ex(data, size, arena_bytes, NULL);
}

#define ALLOC(arena, n, T) ((T *)plumbob_arena_alloc_array((arena), (n), sizeof(T), 0))

plumbob_result plumbob_geom_decode_ex(const void *data, size_t size, plumbob_arena *arena, plumbob_geom *geom,
                                      plumbob_error *err) {
    const unsigned char *d = (const unsigned char *)data;
    plumbob_geom g;
    gm_at at;
    plumbob_result res;
    plumbob_geom_rcol_key *keys;
    plumbob_geom_element *elements;
    uint32_t *bones;
    plumbob_geom_tgi *tgis;
    uint32_t i, off = 0;
    size_t mark;
    plumbob_error_clear(err);
    if (!data || !arena || !geom)
        return pb_note(err, PLUMBOB_ERR_INVALID_ARGUMENT, 0, "arguments", PLUMBOB_ERROR_NO_INDEX, "NULL pointer");
    res = parse(d, size, &g, &at, err);
    if (res != PLUMBOB_OK) return res;
    mark = plumbob_arena_mark(arena);
    keys = ALLOC(arena, g.rcol_external_count, plumbob_geom_rcol_key);
    elements = ALLOC(arena, g.element_count, plumbob_geom_element);
    bones = ALLOC(arena, g.bone_count, uint32_t);
    tgis = ALLOC(arena, g.tgi_count, plumbob_geom_tgi);
    if (!keys || !elements || !bones || !tgis) {
        plumbob_arena_reset(arena, mark);
        return pb_note(err, PLUMBOB_ERR_OUT_OF_MEMORY, 0, "arena", PLUMBOB_ERROR_NO_INDEX,
                       "the arena is smaller than plumbob_geom_measure says");
    }
    for (i = 0; i < g.rcol_external_count; i++) {
        const unsigned char *p = d + at.externals + (size_t)i * PB_RCOL3_KEY_BYTES;
        keys[i].instance = pb_le64(p);
        keys[i].type = pb_le32(p + 8);
        keys[i].group = pb_le32(p + 12);
    }
    for (i = 0; i < g.element_count; i++) {
        const unsigned char *p = d + at.elements + (size_t)i * PB_GEOM_ELEMENT_BYTES;
        elements[i].usage = pb_le32(p);
        elements[i].data_type = pb_le32(p + 4);
        elements[i].size = p[8];
        elements[i].offset = off;
        off += p[8];
    }
    for (i = 0; i < g.bone_count; i++) bones[i] = pb_le32(d + at.bones + (size_t)i * 4u);
    for (i = 0; i < g.tgi_count; i++) {
        const unsigned char *p = d + at.tgis + (size_t)i * PB_GEOM_TGI_BYTES;
        tgis[i].type = pb_le32(p);
        tgis[i].group = pb_le32(p + 4);
        tgis[i].instance = pb_le64(p + 8);
    }
    g.external_keys = keys;
    g.elements = elements;
    g.bone_hashes = bones;
    g.tgis = tgis;
    *geom = g;
    return PLUMBOB_OK;
}

plumbob_result plumbob_geom_decode(const void *data, size_t size, plumbob_arena *arena, plumbob_geom *geom) {
    return plumbob_geom_decode_ex(data, size, arena, geom, NULL);
}

const plumbob_geom_element *plumbob_geom_find_element(const plumbob_geom *geom, uint32_t usage, uint32_t nth) {
    uint32_t i;
    if (!geom || !geom->elements) return NULL;
    for (i = 0; i < geom->element_count; i++)
        if (geom->elements[i].usage == usage && nth-- == 0) return &geom->elements[i];
    return NULL;
}

float plumbob_geom_float(const plumbob_geom *geom, const plumbob_geom_element *e, uint32_t v, uint32_t k) {
    size_t at;
    if (!geom || !e || !geom->vertices || v >= geom->vertex_count || k >= e->size / 4u) return 0.0f;
    at = (size_t)e->offset + 4u * (size_t)k;
    if (at + 4u > geom->vertex_stride) return 0.0f; /* a caller-filled element outside the vertex */
    return pb_f32le(geom->vertices + (size_t)v * geom->vertex_stride + at);
}

uint32_t plumbob_geom_index(const plumbob_geom *geom, uint32_t i) {
    const unsigned char *p;
    if (!geom || !geom->indices || i >= geom->index_count) return 0;
    p = geom->indices + (size_t)i * geom->index_size;
    if (geom->index_size == 2u) return pb_le16(p);
    return geom->index_size == 4u ? pb_le32(p) : 0u;
}
