/* Sims 2 GMDC writer: the block is a plain sequence, written in the order
 * the decoder reads it. */
#include "plumbob/sims2.h"
#include "pb_sink.h"

static void indices(pb_sink *s, const plumbob_gmdc_indices *v, uint32_t isz) {
    pb_sink_u32(s, v->count);
    pb_sink_put(s, v->data, (size_t)v->count * isz);
}

static void mesh(pb_sink *s, const plumbob_gmdc_mesh *m, uint32_t isz) {
    pb_sink_u32(s, m->vertex_count);
    if (!m->vertex_count) return;
    pb_sink_u32(s, m->faces.count);
    pb_sink_put(s, m->vertices, (size_t)m->vertex_count * 12u);
    pb_sink_put(s, m->faces.data, (size_t)m->faces.count * isz);
}

static plumbob_result emit(const void *obj, pb_sink *s) {
    const plumbob_gmdc *g = (const plumbob_gmdc *)obj;
    static const plumbob_string class_name = {"cGeometryDataContainer", 22};
    uint32_t i, k, isz;
    if (!g || (g->version != 1 && g->version != 2 && g->version != 4)) return PLUMBOB_ERR_INVALID_ARGUMENT;
    isz = g->version == 4 ? 2u : 4u;
    if (g->index_size != isz) return PLUMBOB_ERR_INVALID_ARGUMENT;
    if (g->version == 4)
        for (i = 0; i < g->linkage_count; i++)
            if (g->linkages[i].vertex_count > 65535u) return PLUMBOB_ERR_LIMIT_EXCEEDED;
    pb_sink_sims2_head(s, g->data, &g->rcol, &g->head, class_name, PLUMBOB_TYPE_GMDC, g->version);

    pb_sink_u32(s, g->element_count);
    for (i = 0; i < g->element_count; i++) {
        const plumbob_gmdc_element *e = &g->elements[i];
        pb_sink_u32(s, e->count);
        pb_sink_u32(s, e->identity);
        pb_sink_u32(s, e->group);
        pb_sink_u32(s, e->format);
        pb_sink_u32(s, e->set);
        pb_sink_u32(s, e->byte_size);
        pb_sink_put(s, e->data, e->byte_size);
        indices(s, &e->items, isz);
    }
    pb_sink_u32(s, g->linkage_count);
    for (i = 0; i < g->linkage_count; i++) {
        const plumbob_gmdc_linkage *l = &g->linkages[i];
        indices(s, &l->refs, isz);
        pb_sink_u32(s, l->vertex_count);
        pb_sink_u32(s, l->active_count);
        for (k = 0; k < 3; k++) indices(s, &l->aliases[k], isz);
    }
    pb_sink_u32(s, g->group_count);
    for (i = 0; i < g->group_count; i++) {
        const plumbob_gmdc_group *gr = &g->groups[i];
        pb_sink_u32(s, gr->primitive);
        pb_sink_u32(s, gr->link);
        pb_sink_str7(s, gr->name);
        indices(s, &gr->faces, isz);
        pb_sink_u32(s, gr->opacity);
        if (g->version >= 2) indices(s, &gr->bones, isz);
    }
    pb_sink_u32(s, g->joint_count);
    pb_sink_put(s, g->joints, (size_t)g->joint_count * 28u);
    pb_sink_u32(s, g->morph_count);
    for (i = 0; i < g->morph_count; i++) {
        pb_sink_str7(s, g->morph_names[2 * i]);
        pb_sink_str7(s, g->morph_names[2 * i + 1]);
    }
    mesh(s, &g->bounding, isz);
    pb_sink_u32(s, g->subset_count);
    for (i = 0; i < g->subset_count; i++) mesh(s, &g->subsets[i], isz);
    if (g->data && g->end_pos < g->size) pb_sink_put(s, g->data + g->end_pos, g->size - g->end_pos);
    return s->full ? PLUMBOB_ERR_OUT_OF_MEMORY : PLUMBOB_OK;
}

size_t plumbob_gmdc_write_size(const plumbob_gmdc *obj) {
    return pb_emit_size(emit, obj);
}

plumbob_result plumbob_gmdc_write(const plumbob_gmdc *obj, void *out, size_t out_cap, size_t *out_size) {
    return pb_emit_to(emit, obj, out, out_cap, out_size);
}
