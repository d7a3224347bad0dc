/* Sims 2 GMDC decoding and validation.  One walk over the block serves both
 * the measure call (counting only) and the decode (storing into the arena);
 * every index the skinner will follow is checked afterwards. */
#include "plumbob.h"
#include "pb_bytes.h"

uint32_t plumbob_gmdc_index(const plumbob_gmdc *g, const plumbob_gmdc_indices *idx, uint32_t i) {
    const unsigned char *p = idx->data + (size_t)i * g->index_size;
    return g->index_size == 2 ? pb_le16(p) : pb_le32(p);
}

/* Reads a u32 count and that many indices (zero copy). */
static plumbob_gmdc_indices read_indices(plumbob_reader *r, uint32_t index_size) {
    plumbob_gmdc_indices v = {NULL, 0};
    uint32_t n = plumbob_read_u32le(r);
    if (!plumbob_reader_ok(r)) return v;
    if (n > plumbob_reader_remaining(r) / index_size) {
        plumbob_reader_fail(r, PLUMBOB_ERR_BAD_COUNT);
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
        plumbob_reader_fail(r, PLUMBOB_ERR_BAD_COUNT);
        return m;
    }
    m.vertices = plumbob_read_bytes(r, (size_t)m.vertex_count * 12u);
    if (m.faces.count > plumbob_reader_remaining(r) / index_size) {
        plumbob_reader_fail(r, PLUMBOB_ERR_BAD_COUNT);
        return m;
    }
    m.faces.data = plumbob_read_bytes(r, (size_t)m.faces.count * index_size);
    return m;
}

/* Checks a u32 count against a limit and the bytes left (each record needs
 * at least min_size bytes). */
static uint32_t read_count(plumbob_reader *r, uint32_t limit, size_t min_size) {
    uint32_t n = plumbob_read_u32le(r);
    if (plumbob_reader_ok(r) && (n > limit || n > plumbob_reader_remaining(r) / min_size))
        plumbob_reader_fail(r, PLUMBOB_ERR_BAD_COUNT);
    return plumbob_reader_ok(r) ? n : 0;
}

/* Walks the whole block.  With g->elements etc. NULL it only counts. */
static plumbob_result walk(plumbob_reader *r, plumbob_gmdc *g, int store) {
    uint32_t i, k, isz = g->index_size;
    g->element_count = read_count(r, PLUMBOB_GMDC_MAX_ELEMENTS, 28);
    for (i = 0; i < g->element_count && plumbob_reader_ok(r); i++) {
        plumbob_gmdc_element e;
        uint64_t want;
        e.count = plumbob_read_u32le(r);
        e.identity = plumbob_read_u32le(r);
        e.group = plumbob_read_u32le(r);
        e.format = plumbob_read_u32le(r);
        e.set = plumbob_read_u32le(r);
        e.byte_size = plumbob_read_u32le(r);
        if (!plumbob_reader_ok(r)) break;
        if (e.format <= 2) want = (uint64_t)e.count * 4u * (e.format + 1u);
        else if (e.format == 4) want = (uint64_t)e.count * 4u;
        else return PLUMBOB_ERR_BAD_DATA;
        if (want != e.byte_size) return PLUMBOB_ERR_BAD_DATA;
        e.data = plumbob_read_bytes(r, e.byte_size);
        e.items = read_indices(r, isz);
        if (store) g->elements[i] = e;
    }
    g->linkage_count = read_count(r, PLUMBOB_GMDC_MAX_LINKAGES, 24);
    for (i = 0; i < g->linkage_count && plumbob_reader_ok(r); i++) {
        plumbob_gmdc_linkage l;
        l.refs = read_indices(r, isz);
        l.vertex_count = plumbob_read_u32le(r);
        l.active_count = plumbob_read_u32le(r);
        for (k = 0; k < 3; k++) l.aliases[k] = read_indices(r, isz);
        if (store) g->linkages[i] = l;
    }
    g->group_count = read_count(r, PLUMBOB_GMDC_MAX_GROUPS, 17);
    for (i = 0; i < g->group_count && plumbob_reader_ok(r); i++) {
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
        if (store) g->groups[i] = gr;
    }
    g->joint_count = read_count(r, PLUMBOB_GMDC_MAX_JOINTS, 28);
    g->joints = plumbob_read_bytes(r, (size_t)g->joint_count * 28u);
    g->morph_count = read_count(r, PLUMBOB_GMDC_MAX_MORPHS, 2);
    for (i = 0; i < g->morph_count && plumbob_reader_ok(r); i++) {
        plumbob_string a = plumbob_read_string7(r), b = plumbob_read_string7(r);
        if (store) {
            g->morph_names[2 * i] = a;
            g->morph_names[2 * i + 1] = b;
        }
    }
    g->bounding = read_mesh(r, isz);
    g->subset_count = read_count(r, PLUMBOB_GMDC_MAX_JOINTS, 4);
    for (i = 0; i < g->subset_count && plumbob_reader_ok(r); i++) {
        plumbob_gmdc_mesh m = read_mesh(r, isz);
        if (store) g->subsets[i] = m;
    }
    g->end_pos = r->pos;
    return r->error;
}

/* RCOL wrapper and block head; leaves r at the start of the GMDC body. */
static plumbob_result open_block(const unsigned char *d, size_t size, plumbob_gmdc *g, plumbob_reader *r) {
    plumbob_result res;
    {
        plumbob_gmdc empty = {0};
        *g = empty;
    }
    g->data = d;
    g->size = size;
    res = plumbob_sims2_rcol_open(&g->rcol, d, size);
    if (res != PLUMBOB_OK) return res;
    if (plumbob_sims2_rcol_block_id(&g->rcol, 0) != PLUMBOB_TYPE_GMDC) return PLUMBOB_ERR_BAD_MAGIC;
    plumbob_reader_init(r, d, size);
    plumbob_reader_seek(r, g->rcol.first_block_offset);
    res = plumbob_sims2_block_head_read(r, &g->head);
    if (res != PLUMBOB_OK) return res;
    if (g->head.block_id != PLUMBOB_TYPE_GMDC) return PLUMBOB_ERR_BAD_MAGIC;
    g->version = g->head.version;
    if (g->version != 1 && g->version != 2 && g->version != 4) return PLUMBOB_ERR_UNSUPPORTED_VERSION;
    g->index_size = g->version == 4 ? 2u : 4u;
    return PLUMBOB_OK;
}

plumbob_result plumbob_gmdc_measure(const void *data, size_t size, size_t *arena_bytes) {
    plumbob_gmdc g;
    plumbob_reader r;
    plumbob_result res;
    size_t need = 0;
    if (!data || !arena_bytes) return PLUMBOB_ERR_INVALID_ARGUMENT;
    *arena_bytes = 0;
    res = open_block((const unsigned char *)data, size, &g, &r);
    if (res == PLUMBOB_OK) res = walk(&r, &g, 0);
    if (res != PLUMBOB_OK) return res;
    plumbob_size_add(&need, plumbob_arena_need(g.element_count, sizeof(plumbob_gmdc_element)));
    plumbob_size_add(&need, plumbob_arena_need(g.linkage_count, sizeof(plumbob_gmdc_linkage)));
    plumbob_size_add(&need, plumbob_arena_need(g.group_count, sizeof(plumbob_gmdc_group)));
    plumbob_size_add(&need, plumbob_arena_need((size_t)g.morph_count * 2u, sizeof(plumbob_string)));
    plumbob_size_add(&need, plumbob_arena_need(g.subset_count, sizeof(plumbob_gmdc_mesh)));
    *arena_bytes = need;
    return PLUMBOB_OK;
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

/* Elements the skinner reads per vertex must cover the linkage's vertices. */
static int per_vertex(uint32_t identity) {
    return identity == PLUMBOB_GMDC_VERTICES || identity == PLUMBOB_GMDC_NORMALS ||
           identity == PLUMBOB_GMDC_BONE_ASSIGNMENTS || identity == PLUMBOB_GMDC_BONE_WEIGHTS ||
           identity == PLUMBOB_GMDC_MORPH_VERTEX_DELTAS || identity == PLUMBOB_GMDC_MORPH_NORMAL_DELTAS ||
           identity == PLUMBOB_GMDC_MORPH_VERTEX_MAP;
}

static plumbob_result check_faces(const plumbob_gmdc *g, const plumbob_gmdc_indices *f, uint32_t limit) {
    uint32_t i;
    for (i = 0; i < f->count; i++)
        if (plumbob_gmdc_index(g, f, i) >= limit) return PLUMBOB_ERR_BAD_INDEX;
    return PLUMBOB_OK;
}

static plumbob_result validate(const plumbob_gmdc *g) {
    uint32_t i, k;
    plumbob_result res;
    for (i = 0; i < g->linkage_count; i++) {
        const plumbob_gmdc_linkage *l = &g->linkages[i];
        const plumbob_gmdc_element *map;
        /* version 4 indexes with u16: a linkage cannot hold more vertices */
        if (g->version == 4 && l->vertex_count > 65535u) return PLUMBOB_ERR_BAD_COUNT;
        for (k = 0; k < l->refs.count; k++) {
            uint32_t e = plumbob_gmdc_index(g, &l->refs, k);
            if (e >= g->element_count) return PLUMBOB_ERR_BAD_INDEX;
            if (per_vertex(g->elements[e].identity) && g->elements[e].count < l->vertex_count)
                return PLUMBOB_ERR_BAD_COUNT;
        }
        /* morph map ids name morph pairs */
        map = plumbob_gmdc_find_element(g, i, PLUMBOB_GMDC_MORPH_VERTEX_MAP, 0);
        if (map) {
            if (map->format != 4) return PLUMBOB_ERR_BAD_DATA;
            for (k = 0; k < l->vertex_count; k++) {
                uint32_t m = pb_le32(map->data + 4u * k), b;
                for (b = 0; b < 4; b++)
                    if (((m >> (8 * b)) & 0xFFu) >= g->morph_count && ((m >> (8 * b)) & 0xFFu) != 0)
                        return PLUMBOB_ERR_BAD_INDEX;
            }
        }
    }
    for (i = 0; i < g->group_count; i++) {
        const plumbob_gmdc_group *gr = &g->groups[i];
        const plumbob_gmdc_element *ba;
        if (gr->link >= g->linkage_count) return PLUMBOB_ERR_BAD_INDEX;
        res = check_faces(g, &gr->faces, g->linkages[gr->link].vertex_count);
        if (res != PLUMBOB_OK) return res;
        res = check_faces(g, &gr->bones, g->joint_count);
        if (res != PLUMBOB_OK) return res;
        /* every bone slot a face's vertex uses must be in the group's bone
         * list (version 1 has no bone lists: slots index the joint table) */
        ba = plumbob_gmdc_find_element(g, gr->link, PLUMBOB_GMDC_BONE_ASSIGNMENTS, 0);
        if (ba) {
            uint32_t slots = g->version >= 2 ? gr->bones.count : g->joint_count;
            if (ba->format != 4) return PLUMBOB_ERR_BAD_DATA;
            for (k = 0; k < gr->faces.count; k++) {
                uint32_t a = pb_le32(ba->data + 4u * plumbob_gmdc_index(g, &gr->faces, k)), b;
                for (b = 0; b < 4; b++) {
                    uint32_t slot = (a >> (8 * b)) & 0xFFu;
                    if (slot != 0xFFu && slot >= slots) return PLUMBOB_ERR_BAD_INDEX;
                }
            }
        }
    }
    res = check_faces(g, &g->bounding.faces, g->bounding.vertex_count);
    for (i = 0; i < g->subset_count && res == PLUMBOB_OK; i++)
        res = check_faces(g, &g->subsets[i].faces, g->subsets[i].vertex_count);
    return res;
}

plumbob_result plumbob_gmdc_decode(const void *data, size_t size, plumbob_arena *arena, plumbob_gmdc *g) {
    plumbob_reader r;
    plumbob_result res;
    size_t mark;
    plumbob_gmdc counted;
    if (!data || !arena || !g) return PLUMBOB_ERR_INVALID_ARGUMENT;
    /* first walk: counts (and every structural check) */
    res = open_block((const unsigned char *)data, size, &counted, &r);
    if (res == PLUMBOB_OK) res = walk(&r, &counted, 0);
    if (res != PLUMBOB_OK) return res;
    res = open_block((const unsigned char *)data, size, g, &r);
    if (res != PLUMBOB_OK) return res;
    mark = plumbob_arena_mark(arena);
    g->elements = (plumbob_gmdc_element *)plumbob_arena_alloc_array(arena, counted.element_count, sizeof(plumbob_gmdc_element), 0);
    g->linkages = (plumbob_gmdc_linkage *)plumbob_arena_alloc_array(arena, counted.linkage_count, sizeof(plumbob_gmdc_linkage), 0);
    g->groups = (plumbob_gmdc_group *)plumbob_arena_alloc_array(arena, counted.group_count, sizeof(plumbob_gmdc_group), 0);
    g->morph_names = (plumbob_string *)plumbob_arena_alloc_array(arena, (size_t)counted.morph_count * 2u, sizeof(plumbob_string), 0);
    g->subsets = (plumbob_gmdc_mesh *)plumbob_arena_alloc_array(arena, counted.subset_count, sizeof(plumbob_gmdc_mesh), 0);
    if (!g->elements || !g->linkages || !g->groups || !g->morph_names || !g->subsets) {
        plumbob_arena_reset(arena, mark);
        return PLUMBOB_ERR_OUT_OF_MEMORY;
    }
    res = walk(&r, g, 1);
    if (res == PLUMBOB_OK) res = validate(g);
    if (res != PLUMBOB_OK) plumbob_arena_reset(arena, mark);
    return res;
}

float plumbob_gmdc_float(const plumbob_gmdc_element *e, uint32_t i, uint32_t k) {
    return pb_f32le(e->data + ((size_t)i * (e->format + 1u) + k) * 4u);
}

void plumbob_gmdc_joint(const plumbob_gmdc *g, uint32_t j, plumbob_quat *rotation, plumbob_vec3 *translation) {
    const unsigned char *p = g->joints + (size_t)j * 28u;
    rotation->x = pb_f32le(p);
    rotation->y = pb_f32le(p + 4);
    rotation->z = pb_f32le(p + 8);
    rotation->w = pb_f32le(p + 12);
    translation->x = pb_f32le(p + 16);
    translation->y = pb_f32le(p + 20);
    translation->z = pb_f32le(p + 24);
}
