/* Sims 3 GEOM body meshes: shapes made by our writer (other element orders
 * and subsets, repeated UVs, 4-byte indices, no material, a morph-style
 * mesh, no bones) decoded back and rewritten byte for byte; every rule of
 * the decoder by the code it gives; truncation and bit-flip sweeps; the
 * real mesh from the corpus. */
#include <stdlib.h>
#include <string.h>
#include "test.h"

#define G_MAX_VERTS 48u
#define G_MAX_ELEMENTS 10u
#define G_UNKNOWN_USAGE 9u /* kept and skipped: 6 bytes */
#define G_HALF (T_SCRATCH_SIZE / 2u)

typedef struct g_shape {
    plumbob_geom g;
    plumbob_geom_element el[G_MAX_ELEMENTS];
    unsigned char verts[G_MAX_VERTS * 100u];
    unsigned char idx[G_MAX_VERTS * 3u * 4u];
    uint32_t bones[4];
    plumbob_geom_tgi tgis[3];
    plumbob_geom_rcol_key ext[2];
    unsigned char material[12];
} g_shape;

static g_shape g_shapes[1]; /* static: bare metal has a small stack */

static void g_put32(unsigned char *p, uint32_t v) {
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
    p[2] = (unsigned char)(v >> 16);
    p[3] = (unsigned char)(v >> 24);
}

static uint32_t g_get32(const unsigned char *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void g_putf(unsigned char *p, float f) {
    union { float f; uint32_t u; } v;
    v.f = f;
    g_put32(p, v.u);
}

static uint32_t g_usage_size(uint32_t usage) {
    switch (usage) {
    case PLUMBOB_GEOM_POSITION: case PLUMBOB_GEOM_NORMAL: case PLUMBOB_GEOM_TANGENT: return 12;
    case PLUMBOB_GEOM_UV: return 8;
    case PLUMBOB_GEOM_WEIGHTS: return 16;
    case G_UNKNOWN_USAGE: return 6;
    default: return 4;
    }
}

/* The value a shape stores for float k of `usage` at vertex v (UV set `set`). */
static float g_value(uint32_t usage, uint32_t set, uint32_t v, uint32_t k) {
    switch (usage) {
    case PLUMBOB_GEOM_POSITION: return (float)v * (k == 0 ? 0.5f : k == 1 ? 0.25f : -0.125f);
    case PLUMBOB_GEOM_NORMAL: return k == 1 ? 1.0f : 0.0f;
    case PLUMBOB_GEOM_UV: return (float)(v + set) / 64.0f + (k ? 0.5f : 0.0f);
    case PLUMBOB_GEOM_WEIGHTS: return k == 0 ? 0.75f : k == 1 ? 0.25f : 0.0f;
    case PLUMBOB_GEOM_TANGENT: return k == 0 ? 1.0f : 0.0f;
    default: return 0.0f;
    }
}

/* A GEOM of `ne` elements in the order given, nv vertices, nv triangles of
 * `isz`-byte indices, `bones` bone hashes (assignment slots 0, 1 weighted,
 * slot 3 naming bone 200 with weight 0), `tgis` TGIs (the controller last),
 * a 12-byte material when `embedded`, `ext` external keys. */
static void g_build(g_shape *s, const uint32_t *usages, uint32_t ne, uint32_t nv, uint32_t isz, uint32_t bones,
                    uint32_t tgis, uint32_t embedded, uint32_t ext) {
    plumbob_geom *g = &s->g;
    uint32_t i, v, off = 0, uv_seen;
    memset(s, 0, sizeof *s);
    g->rcol_version = 3;
    g->rcol_external_count = ext;
    g->internal_key.instance = 0x1122334455667788ull;
    g->internal_key.type = PLUMBOB_TYPE_GEOM;
    for (i = 0; i < ext; i++) {
        s->ext[i].instance = 0xABCD0000ull + i;
        s->ext[i].type = 0x00B2D882u;
        s->ext[i].group = i;
    }
    g->external_keys = s->ext;
    g->version = 5;
    g->embedded_id = embedded ? PLUMBOB_GEOM_EMBEDDED_SIMSKIN : 0;
    if (embedded) {
        memcpy(s->material, "MTNF\0\0\0\0\0\0\0\0", 12);
        g->material = s->material;
        g->material_size = 12;
    }
    g->merge_group = 7;
    g->sort_order = 3;
    g->vertex_count = nv;
    g->element_count = ne;
    for (i = 0; i < ne; i++) {
        s->el[i].usage = usages[i];
        s->el[i].data_type = usages[i] == PLUMBOB_GEOM_ASSIGNMENT ? 2u : usages[i] == PLUMBOB_GEOM_VERTEX_ID ? 4u : 1u;
        s->el[i].size = g_usage_size(usages[i]);
        s->el[i].offset = 999; /* recomputed by the writer */
        off += s->el[i].size;
    }
    g->elements = s->el;
    g->vertex_stride = off;
    for (v = 0; v < nv; v++) {
        unsigned char *p = s->verts + (size_t)v * off;
        uv_seen = 0;
        for (i = 0; i < ne; i++) {
            uint32_t u = usages[i], k;
            switch (u) {
            case PLUMBOB_GEOM_ASSIGNMENT:
                p[0] = 0;
                p[1] = (unsigned char)(bones > 1 ? 1 : 0);
                p[2] = 0;
                p[3] = 200;
                break;
            case PLUMBOB_GEOM_TAG: g_put32(p, 0xFF00FF00u ^ v); break;
            case PLUMBOB_GEOM_VERTEX_ID: g_put32(p, 1000u + v); break;
            case G_UNKNOWN_USAGE:
                for (k = 0; k < 6; k++) p[k] = (unsigned char)(v * 6 + k);
                break;
            default:
                for (k = 0; k < g_usage_size(u) / 4u; k++) g_putf(p + 4 * k, g_value(u, uv_seen, v, k));
                if (u == PLUMBOB_GEOM_UV) uv_seen++;
                break;
            }
            p += s->el[i].size;
        }
    }
    g->vertices = s->verts;
    g->item_count = 1;
    g->index_size = isz;
    g->index_count = nv ? 3u * nv : 0u;
    for (i = 0; i < g->index_count; i++) {
        uint32_t x = (i / 3u + i % 3u * 5u) % nv;
        if (isz == 2) {
            s->idx[2 * i] = (unsigned char)x;
            s->idx[2 * i + 1] = (unsigned char)(x >> 8);
        } else {
            g_put32(s->idx + 4 * i, x);
        }
    }
    g->indices = s->idx;
    g->bone_count = bones;
    for (i = 0; i < bones; i++) s->bones[i] = 0x556B181Au + i;
    g->bone_hashes = s->bones;
    g->tgi_count = tgis;
    for (i = 0; i < tgis; i++) {
        s->tgis[i].type = i + 1 == tgis ? PLUMBOB_GEOM_TYPE_SKIN_CONTROLLER : 0x00B2D882u;
        s->tgis[i].group = 0x00BEF569u;
        s->tgis[i].instance = 0x9F7A4F57ull + ((uint64_t)i << 40);
    }
    g->tgis = s->tgis;
    g->skin_controller = tgis ? tgis - 1u : 0u;
}

/* Writes g into the scratch's first half; returns the size (0 on failure). */
static size_t g_write(const plumbob_geom *g) {
    size_t need = plumbob_geom_write_size(g), got = 0;
    CHECK(need != SIZE_MAX && need <= G_HALF);
    if (need == SIZE_MAX || need > G_HALF) return 0;
    CHECK_OK(plumbob_geom_write(g, t_scratch(), need, &got));
    CHECK_EQ(got, need);
    return got;
}

static plumbob_result g_decode(const unsigned char *d, size_t n, plumbob_geom *g, plumbob_error *err) {
    plumbob_arena arena;
    size_t need = 0;
    plumbob_result r = plumbob_geom_measure_ex(d, n, &need, err);
    if (r != PLUMBOB_OK) {
        CHECK_EQ(need, SIZE_MAX);
        return r;
    }
    CHECK(need <= T_ARENA_SIZE);
    plumbob_arena_init(&arena, t_arena_mem(), need);
    r = plumbob_geom_decode_ex(d, n, &arena, g, err);
    CHECK_OK(r);
    return r;
}

/* Decoded g writes d[0..n) again byte for byte (into the scratch's second half). */
static void g_rewrite_same(const plumbob_geom *g, const unsigned char *d, size_t n) {
    unsigned char *out = t_scratch() + G_HALF;
    size_t got = 0;
    CHECK_EQ(plumbob_geom_write_size(g), n);
    if (n > G_HALF) return;
    CHECK_OK(plumbob_geom_write(g, out, n, &got));
    CHECK(got == n && memcmp(out, d, n) == 0);
}

/* Build, write, decode, compare with what was built, rewrite. */
static void g_check_shape(g_shape *s) {
    const plumbob_geom *want = &s->g;
    plumbob_geom g;
    plumbob_error err;
    size_t n = g_write(want);
    uint32_t i, v, k, off = 0, uv = 0;
    unsigned char *d = t_scratch();
    if (!n) return;
    CHECK_EQ(plumbob_identify(d, n), PLUMBOB_FORMAT_GEOM);
    if (g_decode(d, n, &g, &err) != PLUMBOB_OK) {
        CHECK_EQ(err.result, PLUMBOB_OK); /* what the writer made must decode */
        return;
    }
    CHECK_EQ(g.rcol_version, 3);
    CHECK_EQ(g.rcol_external_count, want->rcol_external_count);
    for (i = 0; i < g.rcol_external_count; i++)
        CHECK(g.external_keys[i].instance == want->external_keys[i].instance &&
              g.external_keys[i].group == want->external_keys[i].group);
    CHECK(g.internal_key.instance == want->internal_key.instance && g.internal_key.type == PLUMBOB_TYPE_GEOM);
    CHECK_EQ(g.chunk_offset, 44u + 16u * want->rcol_external_count);
    CHECK_EQ(g.chunk_offset + g.chunk_size, n);
    CHECK_EQ(g.version, 5);
    CHECK_EQ(g.embedded_id, want->embedded_id);
    CHECK_EQ(g.material_size, want->material_size);
    CHECK(want->material_size == 0 ? g.material == NULL : memcmp(g.material, want->material, 12) == 0);
    CHECK_EQ(g.merge_group, 7);
    CHECK_EQ(g.sort_order, 3);
    CHECK_EQ(g.vertex_count, want->vertex_count);
    CHECK_EQ(g.element_count, want->element_count);
    CHECK_EQ(g.vertex_stride, want->vertex_stride);
    for (i = 0; i < g.element_count; i++) {
        CHECK_EQ(g.elements[i].usage, want->elements[i].usage);
        CHECK_EQ(g.elements[i].data_type, want->elements[i].data_type);
        CHECK_EQ(g.elements[i].size, want->elements[i].size);
        CHECK_EQ(g.elements[i].offset, off);
        off += g.elements[i].size;
        if (g.elements[i].usage == PLUMBOB_GEOM_UV) {
            CHECK(plumbob_geom_find_element(&g, PLUMBOB_GEOM_UV, uv) == &g.elements[i]);
            for (v = 0; v < g.vertex_count; v++)
                for (k = 0; k < 2; k++) CHECK(plumbob_geom_float(&g, &g.elements[i], v, k) == g_value(PLUMBOB_GEOM_UV, uv, v, k));
            uv++;
        }
    }
    CHECK(plumbob_geom_find_element(&g, PLUMBOB_GEOM_UV, uv) == NULL);
    for (i = 0; i < g.element_count; i++) {
        const plumbob_geom_element *e = &g.elements[i];
        if (e->usage == PLUMBOB_GEOM_UV || e->usage == PLUMBOB_GEOM_ASSIGNMENT || e->usage == PLUMBOB_GEOM_TAG ||
            e->usage == PLUMBOB_GEOM_VERTEX_ID || e->usage == G_UNKNOWN_USAGE)
            continue;
        CHECK(plumbob_geom_find_element(&g, e->usage, 0) == e);
        for (v = 0; v < g.vertex_count; v++)
            for (k = 0; k < e->size / 4u; k++) {
                float f = plumbob_geom_float(&g, e, v, k);
                CHECK(f == g_value(e->usage, 0, v, k));
                t_digest_f32(f);
            }
        CHECK(plumbob_geom_float(&g, e, g.vertex_count, 0) == 0.0f); /* out of range */
        CHECK(plumbob_geom_float(&g, e, 0, e->size / 4u) == 0.0f);
    }
    CHECK(plumbob_geom_float(&g, NULL, 0, 0) == 0.0f);
    CHECK(memcmp(g.vertices, want->vertices, (size_t)g.vertex_count * g.vertex_stride) == 0);
    CHECK_EQ(g.item_count, 1);
    CHECK_EQ(g.index_size, want->index_size);
    CHECK_EQ(g.index_count, want->index_count);
    for (i = 0; i < g.index_count; i++) {
        CHECK_EQ(plumbob_geom_index(&g, i), (i / 3u + i % 3u * 5u) % g.vertex_count);
        t_digest_u32(plumbob_geom_index(&g, i));
    }
    CHECK_EQ(plumbob_geom_index(&g, g.index_count), 0);
    CHECK_EQ(g.bone_count, want->bone_count);
    for (i = 0; i < g.bone_count; i++) CHECK_EQ(g.bone_hashes[i], 0x556B181Au + i);
    CHECK_EQ(g.tgi_count, want->tgi_count);
    for (i = 0; i < g.tgi_count; i++)
        CHECK(g.tgis[i].type == want->tgis[i].type && g.tgis[i].group == want->tgis[i].group &&
              g.tgis[i].instance == want->tgis[i].instance);
    CHECK_EQ(g.skin_controller, want->skin_controller);
    if (g.tgi_count) CHECK_EQ(g.tgis[g.skin_controller].type, PLUMBOB_GEOM_TYPE_SKIN_CONTROLLER);
    t_digest_u32((uint32_t)n);
    t_digest_bytes(d, n);
    g_rewrite_same(&g, d, n);
}

static const uint32_t g_full[7] = {PLUMBOB_GEOM_POSITION, PLUMBOB_GEOM_NORMAL,  PLUMBOB_GEOM_UV,
                                   PLUMBOB_GEOM_ASSIGNMENT, PLUMBOB_GEOM_WEIGHTS, PLUMBOB_GEOM_VERTEX_ID,
                                   PLUMBOB_GEOM_TANGENT};

/* The game's layout, then other orders and subsets: UV first and repeated,
 * a tag, an unknown usage kept, 4-byte indices, external keys; no material
 * and no bones; a morph-style mesh (position, normal, vertex id, no TGIs);
 * no vertices at all. */
void test_geom_writer_shapes(void) {
    static const uint32_t mixed[8] = {PLUMBOB_GEOM_UV,      PLUMBOB_GEOM_WEIGHTS, G_UNKNOWN_USAGE,
                                      PLUMBOB_GEOM_POSITION, PLUMBOB_GEOM_UV,      PLUMBOB_GEOM_TAG,
                                      PLUMBOB_GEOM_ASSIGNMENT, PLUMBOB_GEOM_NORMAL};
    static const uint32_t plain[3] = {PLUMBOB_GEOM_NORMAL, PLUMBOB_GEOM_POSITION, PLUMBOB_GEOM_UV};
    static const uint32_t morph[3] = {PLUMBOB_GEOM_POSITION, PLUMBOB_GEOM_NORMAL, PLUMBOB_GEOM_VERTEX_ID};
    g_shape *s = &g_shapes[0];
    size_t n;
    g_build(s, g_full, 7, 12, 2, 4, 3, 1, 0);
    g_check_shape(s);
    g_build(s, mixed, 8, 40, 4, 3, 2, 1, 2);
    g_check_shape(s);
    CHECK(plumbob_geom_find_element(&s->g, PLUMBOB_GEOM_UV, 1) == &s->el[4]);
    s->idx[4 * 7 + 2] = 1; /* index 7 = 0x10000 + x: past 40 vertices by its high half */
    n = g_write(&s->g);
    if (n) {
        plumbob_geom g;
        plumbob_error err;
        CHECK_EQ(g_decode(t_scratch(), n, &g, &err), PLUMBOB_ERR_BAD_INDEX);
        CHECK(err.index == 7 && strcmp(err.table, "index") == 0);
    }
    g_build(s, plain, 3, 9, 2, 0, 1, 0, 0);
    g_check_shape(s);
    g_build(s, morph, 3, 30, 4, 0, 0, 0, 0);
    g_check_shape(s);
    g_build(s, morph, 3, 0, 2, 0, 0, 0, 0);
    g_check_shape(s);
    g_build(s, g_full, 0, 5, 2, 0, 1, 1, 1); /* no elements: vertices of 0 bytes */
    g_check_shape(s);
}

/* Writes the shape and decodes it, expecting `want` (and where). */
static void g_expect(const unsigned char *d, size_t n, plumbob_result want, const char *table) {
    plumbob_geom g;
    plumbob_error err;
    plumbob_result r = g_decode(d, n, &g, &err);
    CHECK_EQ(r, want);
    CHECK_EQ(err.result, r);
    CHECK(err.offset <= n);
    if (table) CHECK(strcmp(err.table, table) == 0);
    t_digest_u32((uint32_t)r);
    t_digest_u64((uint64_t)err.offset);
}

/* Every rule by its code, on the game's layout (chunk at 44: tag 44,
 * version 48, TGI offset 52, TGI size 56, embedded id 60, material size 64). */
void test_geom_malformed(void) {
    g_shape *s = &g_shapes[0];
    unsigned char *d = t_scratch();
    plumbob_geom g;
    plumbob_error err;
    plumbob_arena arena;
    size_t n, need, got, vat, iat, tail;
    uint32_t stride;
    g_build(s, g_full, 7, 12, 2, 4, 3, 1, 0);
    n = g_write(&s->g);
    if (!n) return;
    stride = s->g.vertex_stride;
    vat = n - (4u + 16u * 3u) - (8u + 16u) - (9u + 36u * 2u) - (size_t)12 * stride;
    iat = vat + (size_t)12 * stride + 9u;
    tail = iat + 36u * 2u; /* skin controller, bone count, bones, TGI count */
    CHECK_OK(g_decode(d, n, &g, &err));
    CHECK(g.vertices == d + vat && g.indices == d + iat);
#define FLIP32(at, v, want, table)                  \
    do {                                            \
        uint32_t old_ = g_get32(d + (at));          \
        g_put32(d + (at), (v));                     \
        g_expect(d, n, (want), (table));            \
        g_put32(d + (at), old_);                    \
    } while (0)
    /* The Sims 4's versions are refused by name */
    g_put32(d + 48, 12);
    CHECK_EQ(g_decode(d, n, &g, &err), PLUMBOB_ERR_UNSUPPORTED_VERSION);
    CHECK(strstr(err.reason, "Sims 4") != NULL);
    CHECK_EQ(err.offset, 48);
    g_put32(d + 48, 5);
    FLIP32(48, 15, PLUMBOB_ERR_UNSUPPORTED_VERSION, "geom");
    FLIP32(48, 4, PLUMBOB_ERR_UNSUPPORTED_VERSION, "geom");
    FLIP32(0, 2, PLUMBOB_ERR_BAD_MAGIC, "rcol");                /* not a Sims 3 RCOL */
    FLIP32(44, 0x4D4F4548u, PLUMBOB_ERR_BAD_MAGIC, "geom");     /* not GEOM */
    FLIP32(16, 2, PLUMBOB_ERR_BAD_COUNT, "rcol");               /* two internal chunks */
    FLIP32(12, 0x7FFFFFFFu, PLUMBOB_ERR_BAD_COUNT, "rcol");     /* external keys */
    FLIP32(12, 1, PLUMBOB_ERR_BAD_OFFSET, "rcol");              /* one key: the table moves */
    FLIP32(36, 48, PLUMBOB_ERR_BAD_OFFSET, "rcol");             /* chunk offset */
    FLIP32(40, (uint32_t)n, PLUMBOB_ERR_TRUNCATED, "rcol");     /* chunk size past the end */
    FLIP32(40, (uint32_t)n - 45u, PLUMBOB_ERR_BAD_DATA, "rcol"); /* a byte after the chunk */
    FLIP32(52, g_get32(d + 52) + 4u, PLUMBOB_ERR_BAD_OFFSET, "tgi");
    FLIP32(56, 4u + 16u * 2u, PLUMBOB_ERR_BAD_OFFSET, "tgi");
    FLIP32(64, 0x10000u, PLUMBOB_ERR_TRUNCATED, "material");
    FLIP32(64 + 4 + 12 + 8, PLUMBOB_GEOM_MAX_VERTICES + 1u, PLUMBOB_ERR_BAD_COUNT, "geom");
    FLIP32(64 + 4 + 12 + 8, 0x100000u, PLUMBOB_ERR_TRUNCATED, "vertex");
    FLIP32(64 + 4 + 12 + 12, 65, PLUMBOB_ERR_BAD_COUNT, "geom");
    /* an element size wrong for its usage; an unknown usage takes any size */
    d[vat - 9u * 7u + 8u] = 13;
    g_expect(d, n, PLUMBOB_ERR_BAD_DATA, "element");
    d[vat - 9u * 7u + 8u] = 12;
    /* non-finite floats: position, UV, weight, tangent; at the vertex */
    FLIP32(vat + 5u * stride + 4u, 0x7F800000u, PLUMBOB_ERR_BAD_DATA, "vertex");
    CHECK_OK(g_decode(d, n, &g, &err));
    g_put32(d + vat + 5u * stride + 4u, 0x7FC00000u);
    CHECK_EQ(g_decode(d, n, &g, &err), PLUMBOB_ERR_BAD_DATA);
    CHECK(err.offset == vat + 5u * stride && err.index == 5);
    g_put32(d + vat + 5u * stride + 4u, 0);
    FLIP32(vat + 2u * stride + 28u, 0xFF800000u, PLUMBOB_ERR_BAD_DATA, "vertex"); /* UV */
    FLIP32(vat + 3u * stride + 48u, 0x7F800001u, PLUMBOB_ERR_BAD_DATA, "vertex"); /* weight 3 */
    FLIP32(vat + 11u * stride + 64u, 0x7F800000u, PLUMBOB_ERR_BAD_DATA, "vertex"); /* tangent */
    FLIP32(vat + 11u * stride + 52u, 0x7F800000u, PLUMBOB_OK, NULL);           /* a vertex id is no float */
    /* bone slots: a weighted slot past the list is refused, an unweighted one kept */
    d[vat + 4u * stride + 33u] = 4;
    CHECK_EQ(g_decode(d, n, &g, &err), PLUMBOB_ERR_BAD_INDEX);
    CHECK(err.offset == vat + 4u * stride + 33u && err.index == 4);
    d[vat + 4u * stride + 33u] = 3;
    CHECK_OK(g_decode(d, n, &g, &err));
    CHECK_EQ(d[vat + 4u * stride + 35u], 200); /* slot 3: bone 200, weight 0 */
    FLIP32(vat + 4u * stride + 36u + 12u, 0x3F800000u, PLUMBOB_ERR_BAD_INDEX, "vertex");
    /* index group */
    d[iat - 5u] = 3;
    g_expect(d, n, PLUMBOB_ERR_BAD_DATA, "index");
    d[iat - 5u] = 2;
    FLIP32(iat - 4u, 35, PLUMBOB_ERR_BAD_COUNT, "index");
    FLIP32(iat - 4u, 0x3FFFFFFFu, PLUMBOB_ERR_TRUNCATED, "index");
    d[iat + 10u] = 12; /* index 5 names vertex 12 of 12 */
    CHECK_EQ(g_decode(d, n, &g, &err), PLUMBOB_ERR_BAD_INDEX);
    CHECK(err.offset == iat + 10u && err.index == 5 && strcmp(err.table, "index") == 0);
    d[iat + 10u] = (unsigned char)((5u / 3u + 5u % 3u * 5u) % 12u);
    /* skin controller, bone count, TGI count */
    FLIP32(tail, 3, PLUMBOB_ERR_BAD_INDEX, "tgi");
    FLIP32(tail + 4u, 256, PLUMBOB_ERR_BAD_COUNT, "bone");
    FLIP32(tail + 24u, PLUMBOB_GEOM_MAX_TGIS + 1u, PLUMBOB_ERR_BAD_COUNT, "tgi");
    FLIP32(tail + 24u, 2, PLUMBOB_ERR_BAD_OFFSET, "tgi"); /* the size says 3 */
    CHECK_OK(g_decode(d, n, &g, &err));
    /* arguments and the arena */
    CHECK_EQ(plumbob_geom_measure(NULL, n, &need), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_geom_measure(d, n, NULL), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_OK(plumbob_geom_measure(d, n, &need));
    CHECK_EQ(plumbob_geom_decode(d, n, NULL, &g), PLUMBOB_ERR_INVALID_ARGUMENT);
    plumbob_arena_init(&arena, t_arena_mem(), need / 2u);
    CHECK_EQ(plumbob_geom_decode_ex(d, n, &arena, &g, &err), PLUMBOB_ERR_OUT_OF_MEMORY);
    CHECK(strcmp(err.table, "arena") == 0 && arena.used == 0);
    CHECK_EQ(plumbob_geom_decode(d, n, &arena, NULL), PLUMBOB_ERR_INVALID_ARGUMENT);
    /* the writer refuses shapes it cannot write */
    CHECK_EQ(plumbob_geom_write_size(NULL), SIZE_MAX);
    CHECK_EQ(plumbob_geom_write(&s->g, NULL, 10, &got), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_geom_write(&s->g, d, n - 1u, &got), PLUMBOB_ERR_OUT_OF_MEMORY);
    s->g.vertex_stride++;
    CHECK_EQ(plumbob_geom_write_size(&s->g), SIZE_MAX);
    CHECK_EQ(plumbob_geom_write(&s->g, d, n, &got), PLUMBOB_ERR_INVALID_ARGUMENT);
    s->g.vertex_stride--;
    s->g.index_size = 3;
    CHECK_EQ(plumbob_geom_write_size(&s->g), SIZE_MAX);
    s->g.index_size = 2;
    s->g.bone_hashes = NULL;
    CHECK_EQ(plumbob_geom_write_size(&s->g), SIZE_MAX);
    s->g.bone_hashes = s->bones;
    s->g.elements = NULL;
    CHECK_EQ(plumbob_geom_write_size(&s->g), SIZE_MAX);
    s->g.elements = s->el;
    s->g.element_count = PLUMBOB_GEOM_MAX_ELEMENTS + 1u;
    CHECK_EQ(plumbob_geom_write_size(&s->g), SIZE_MAX);
    s->g.element_count = 7;
    s->el[0].size = 16;
    s->g.vertex_stride += 4;
    CHECK_EQ(plumbob_geom_write_size(&s->g), SIZE_MAX); /* a position of 16 bytes */
    s->el[0].size = 12;
    s->g.vertex_stride -= 4;
    s->g.version = 12;
    CHECK_EQ(plumbob_geom_write_size(&s->g), SIZE_MAX);
    s->g.version = 5;
    CHECK_EQ(plumbob_geom_write_size(&s->g), n);
#undef FLIP32
}

/* Every prefix is TRUNCATED, inside the prefix; every single bit flipped
 * gives a valid code, and what still decodes writes back the same bytes. */
void test_geom_truncation_and_bitflips(void) {
    g_shape *s = &g_shapes[0];
    unsigned char *d = t_scratch();
    plumbob_geom g;
    plumbob_error err;
    size_t n, bit, need = 0;
    uint32_t oks = 0, codes[PLUMBOB_RESULT_COUNT] = {0}, i;
    static const uint32_t mixed[5] = {PLUMBOB_GEOM_UV, PLUMBOB_GEOM_WEIGHTS, PLUMBOB_GEOM_POSITION,
                                      PLUMBOB_GEOM_ASSIGNMENT, PLUMBOB_GEOM_UV};
    g_build(s, mixed, 5, 6, 4, 2, 2, 1, 1);
    n = g_write(&s->g);
    if (!n) return;
    t_error_sweep("geom", d, n);
    /* the chunk cut with its size saying so: the chunk ends early, at every length */
    for (bit = 0; bit + 60u < n; bit++) {
        uint32_t old = g_get32(d + 56);
        g_put32(d + 56, (uint32_t)bit);
        CHECK_EQ(plumbob_geom_measure_ex(d, 60u + bit, &need, &err), PLUMBOB_ERR_TRUNCATED);
        CHECK(err.offset <= 60u + bit);
        g_put32(d + 56, old);
    }
    /* four bytes more in the chunk, after the TGI table */
    g_put32(d + n, 0);
    g_put32(d + 56, g_get32(d + 56) + 4u);
    CHECK_EQ(plumbob_geom_measure_ex(d, n + 4u, &need, &err), PLUMBOB_ERR_BAD_DATA);
    CHECK(err.offset == n && strcmp(err.table, "tgi") == 0);
    g_put32(d + 56, g_get32(d + 56) - 4u);
    for (bit = 0; bit < n * 8u; bit++) {
        plumbob_result r;
        d[bit / 8] ^= (unsigned char)(1u << (bit % 8));
        r = plumbob_geom_measure_ex(d, n, &need, &err);
        CHECK((unsigned)r < PLUMBOB_RESULT_COUNT && err.result == r && err.offset <= n);
        if (r == PLUMBOB_OK) {
            plumbob_arena arena;
            plumbob_arena_init(&arena, t_arena_mem(), need);
            CHECK_OK(plumbob_geom_decode(d, n, &arena, &g));
            g_rewrite_same(&g, d, n);
            oks++;
        }
        if ((unsigned)r < PLUMBOB_RESULT_COUNT) codes[r]++;
        d[bit / 8] ^= (unsigned char)(1u << (bit % 8));
    }
    CHECK(oks > 0 && codes[PLUMBOB_ERR_BAD_DATA] > 0 && codes[PLUMBOB_ERR_BAD_INDEX] > 0);
    for (i = 0; i < PLUMBOB_RESULT_COUNT; i++) t_digest_u32(codes[i]);
}

/* The real top: counts, the first vertices, the bone list, the skin
 * controller, byte-exact rewrite, the sweeps over its head and tail. */
void test_geom_corpus(void) {
    size_t size, need, got, bit, w;
    unsigned char *data = t_corpus_load("sims3/afTopBlouseOffShoulder_lod1.simgeom", &size), *mem, *out;
    plumbob_geom g;
    plumbob_arena arena;
    plumbob_error err;
    const plumbob_geom_element *pos, *nrm, *uv, *as, *wt, *id, *tan;
    uint32_t i, pelvis = 0xFFFFFFFFu;
    if (!data) T_SKIP(t_corpus_missing());
    CHECK_EQ(size, 156332);
    CHECK_EQ(plumbob_identify(data, size), PLUMBOB_FORMAT_GEOM);
    CHECK_OK(plumbob_geom_measure(data, size, &need));
    mem = (unsigned char *)malloc(need);
    plumbob_arena_init(&arena, mem, need);
    CHECK_OK(plumbob_geom_decode_ex(data, size, &arena, &g, &err));
    CHECK_EQ(g.rcol_version, 3);
    CHECK_EQ(g.rcol_external_count, 0);
    CHECK(g.internal_key.instance == 0 && g.internal_key.type == 0 && g.internal_key.group == 0);
    CHECK_EQ(g.chunk_offset, 44);
    CHECK_EQ(g.chunk_size, 156288);
    CHECK_EQ(g.version, 5);
    CHECK_EQ(g.embedded_id, PLUMBOB_GEOM_EMBEDDED_SIMSKIN);
    CHECK_EQ(g.material_size, 308);
    CHECK(memcmp(g.material, "MTNF", 4) == 0);
    CHECK_EQ(g.vertex_count, 2011);
    CHECK_EQ(g.element_count, 7);
    CHECK_EQ(g.vertex_stride, 68);
    CHECK_EQ(g.item_count, 1);
    CHECK_EQ(g.index_size, 2);
    CHECK_EQ(g.index_count, 9420);
    CHECK_EQ(g.bone_count, 51);
    CHECK_EQ(g.tgi_count, 4);
    pos = plumbob_geom_find_element(&g, PLUMBOB_GEOM_POSITION, 0);
    nrm = plumbob_geom_find_element(&g, PLUMBOB_GEOM_NORMAL, 0);
    uv = plumbob_geom_find_element(&g, PLUMBOB_GEOM_UV, 0);
    as = plumbob_geom_find_element(&g, PLUMBOB_GEOM_ASSIGNMENT, 0);
    wt = plumbob_geom_find_element(&g, PLUMBOB_GEOM_WEIGHTS, 0);
    id = plumbob_geom_find_element(&g, PLUMBOB_GEOM_VERTEX_ID, 0);
    tan = plumbob_geom_find_element(&g, PLUMBOB_GEOM_TANGENT, 0);
    CHECK(pos && nrm && uv && as && wt && id && tan);
    CHECK(plumbob_geom_find_element(&g, PLUMBOB_GEOM_UV, 1) == NULL);
    CHECK(plumbob_geom_find_element(&g, PLUMBOB_GEOM_TAG, 0) == NULL);
    if (!(pos && nrm && uv && as && wt && id && tan)) {
        free(mem);
        free(data);
        return;
    }
    CHECK(pos->offset == 0 && nrm->offset == 12 && uv->offset == 24 && as->offset == 32 && wt->offset == 36 &&
          id->offset == 52 && tan->offset == 56);
    CHECK(pos->data_type == 1 && as->data_type == 2 && id->data_type == 4);
    CHECK_NEAR(plumbob_geom_float(&g, pos, 0, 0), 0.559659004, 1e-9);
    CHECK_NEAR(plumbob_geom_float(&g, pos, 0, 1), 1.14434004, 1e-8);
    CHECK_NEAR(plumbob_geom_float(&g, pos, 0, 2), -0.046803005, 1e-9);
    CHECK_NEAR(plumbob_geom_float(&g, pos, 1, 1), 1.15526009, 1e-8);
    CHECK_NEAR(plumbob_geom_float(&g, uv, 0, 0), 0.899494052, 1e-9);
    CHECK_NEAR(plumbob_geom_float(&g, wt, 0, 0) + plumbob_geom_float(&g, wt, 0, 1), 1.0, 1e-6);
    CHECK(g.vertices[as->offset] == 0 && g.vertices[as->offset + 1] == 2);
    CHECK(plumbob_geom_index(&g, 0) == 0 && plumbob_geom_index(&g, 1) == 1 && plumbob_geom_index(&g, 2) == 2);
    CHECK_EQ(plumbob_geom_index(&g, 9419), 1990);
    CHECK_EQ(g.bone_hashes[0], 0x3BD15657u);
    for (i = 0; i < g.bone_count; i++)
        if (g.bone_hashes[i] == plumbob_fnv32("b__pelvis__", 11)) pelvis = i;
    CHECK_EQ(pelvis, 28);
    CHECK_EQ(g.bone_hashes[28], 0x556B181Au);
    CHECK_EQ(g.skin_controller, 3);
    CHECK(g.tgis[3].type == PLUMBOB_GEOM_TYPE_SKIN_CONTROLLER && g.tgis[3].group == 0x00BEF569u &&
          g.tgis[3].instance == 0x9F7A4F57ull);
    CHECK(g.tgis[0].type == 0x00B2D882u && g.tgis[0].instance == 0xB5683B98CA67ECFDull);
    for (i = 0; i < g.vertex_count; i++) t_digest_f32(plumbob_geom_float(&g, pos, i, 1));
    for (i = 0; i < g.bone_count; i++) t_digest_u32(g.bone_hashes[i]);
    /* byte for byte */
    w = plumbob_geom_write_size(&g);
    CHECK_EQ(w, size);
    out = (unsigned char *)malloc(size);
    CHECK_OK(plumbob_geom_write(&g, out, size, &got));
    CHECK(got == size && memcmp(out, data, size) == 0);
    free(out);
    free(mem);
    /* issue 47's sweep (prefixes, the other decoders), then bit flips over the head and the tail */
    t_error_sweep("geom", data, size);
    for (bit = 0; bit < size * 8u; bit += bit == 0x200u * 8u ? (size - 0x200u * 2u) * 8u : 1u) {
        plumbob_result r;
        size_t m = 0;
        data[bit / 8] ^= (unsigned char)(1u << (bit % 8));
        r = plumbob_geom_measure_ex(data, size, &m, &err);
        CHECK((unsigned)r < PLUMBOB_RESULT_COUNT && err.offset <= size);
        data[bit / 8] ^= (unsigned char)(1u << (bit % 8));
    }
    free(data);
}
