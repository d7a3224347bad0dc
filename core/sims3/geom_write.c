/* Sims 3 GEOM writer: the RCOL wrapper and the GEOM chunk from a decoded or
 * caller-filled plumbob_geom, laid out as the decoder reads it: the chunk
 * right after the chunk table, element offsets from the sizes, the TGI
 * offset and size computed.  A decoded GEOM gives its input byte for byte. */
#include "plumbob/sims3.h"
#include "pb_geom.h"
#include "pb_rcol3.h"
#include "pb_sink.h"

/* What the decoder would refuse for its shape (counts, sizes, missing
 * arrays), or a chunk past 4 GiB; contents (indices, floats, slots) are
 * written as given. */
static bool writable(const plumbob_geom *g) {
    uint32_t i, stride = 0;
    if (g->rcol_version != PB_RCOL3_VERSION || g->version != PB_GEOM_VERSION) return false;
    if (g->rcol_external_count > PLUMBOB_GEOM_MAX_TGIS || (g->rcol_external_count && !g->external_keys)) return false;
    if (g->embedded_id == 0 ? g->material_size != 0 : (g->material_size && !g->material)) return false;
    if (g->vertex_count > PLUMBOB_GEOM_MAX_VERTICES || g->element_count > PLUMBOB_GEOM_MAX_ELEMENTS ||
        (g->element_count && !g->elements))
        return false;
    for (i = 0; i < g->element_count; i++) {
        uint32_t want = pb_geom_usage_size(g->elements[i].usage);
        if (g->elements[i].size > 255u || (want && g->elements[i].size != want)) return false;
        stride += g->elements[i].size;
    }
    if (stride != g->vertex_stride || (g->vertex_count && stride && !g->vertices)) return false;
    if ((g->index_size != 2u && g->index_size != 4u) || g->index_count % 3u || (g->index_count && !g->indices))
        return false;
    if (g->bone_count > PLUMBOB_GEOM_MAX_BONES || (g->bone_count && !g->bone_hashes)) return false;
    return g->tgi_count <= PLUMBOB_GEOM_MAX_TGIS && (!g->tgi_count || g->tgis);
}

/* Bytes of the GEOM chunk (64-bit: a vertex block may pass 4 GiB). */
static uint64_t chunk_bytes(const plumbob_geom *g) {
    uint64_t n = 20u; /* tag, version, TGI offset and size, embedded id */
    if (g->embedded_id != 0) n += 4u + (uint64_t)g->material_size;
    n += 16u + (uint64_t)g->element_count * PB_GEOM_ELEMENT_BYTES;
    n += (uint64_t)g->vertex_count * g->vertex_stride;
    n += 9u + (uint64_t)g->index_count * g->index_size;
    n += 8u + (uint64_t)g->bone_count * 4u;
    return n + 4u + (uint64_t)g->tgi_count * PB_GEOM_TGI_BYTES;
}

static void put_u64(pb_sink *s, uint64_t v) {
    pb_sink_u32(s, (uint32_t)(v & 0xFFFFFFFFu));
    pb_sink_u32(s, (uint32_t)(v >> 32));
}

static void put_key(pb_sink *s, plumbob_geom_rcol_key k) {
    put_u64(s, k.instance);
    pb_sink_u32(s, k.type);
    pb_sink_u32(s, k.group);
}

static plumbob_result emit_geom(const void *obj, pb_sink *s) {
    const plumbob_geom *g = (const plumbob_geom *)obj;
    uint64_t chunk;
    uint32_t i, chunks_at, tgi_size;
    if (!g || !writable(g)) return PLUMBOB_ERR_INVALID_ARGUMENT;
    chunks_at = (uint32_t)pb_rcol3_chunks_at(1u, g->rcol_external_count);
    chunk = chunk_bytes(g);
    if (chunk > 0xFFFFFFFFu || chunk + chunks_at > (uint64_t)SIZE_MAX) return PLUMBOB_ERR_INVALID_ARGUMENT;
    tgi_size = 4u + g->tgi_count * PB_GEOM_TGI_BYTES;
    /* RCOL wrapper: one internal chunk */
    pb_sink_u32(s, g->rcol_version);
    pb_sink_u32(s, g->rcol_public_count);
    pb_sink_u32(s, g->rcol_unused);
    pb_sink_u32(s, g->rcol_external_count);
    pb_sink_u32(s, 1u);
    put_key(s, g->internal_key);
    for (i = 0; i < g->rcol_external_count; i++) put_key(s, g->external_keys[i]);
    pb_sink_u32(s, chunks_at);
    pb_sink_u32(s, (uint32_t)chunk);
    /* the chunk; the TGI table is its last tgi_size bytes */
    pb_sink_u32(s, PB_GEOM_TAG);
    pb_sink_u32(s, g->version);
    pb_sink_u32(s, (uint32_t)chunk - PB_GEOM_TGI_TABLE_AT - tgi_size);
    pb_sink_u32(s, tgi_size);
    pb_sink_u32(s, g->embedded_id);
    if (g->embedded_id != 0) {
        pb_sink_u32(s, g->material_size);
        pb_sink_put(s, g->material, g->material_size);
    }
    pb_sink_u32(s, g->merge_group);
    pb_sink_u32(s, g->sort_order);
    pb_sink_u32(s, g->vertex_count);
    pb_sink_u32(s, g->element_count);
    for (i = 0; i < g->element_count; i++) {
        pb_sink_u32(s, g->elements[i].usage);
        pb_sink_u32(s, g->elements[i].data_type);
        pb_sink_u8(s, g->elements[i].size);
    }
    pb_sink_put(s, g->vertices, (size_t)g->vertex_count * g->vertex_stride);
    pb_sink_u32(s, g->item_count);
    pb_sink_u8(s, g->index_size);
    pb_sink_u32(s, g->index_count);
    pb_sink_put(s, g->indices, (size_t)g->index_count * g->index_size);
    pb_sink_u32(s, g->skin_controller);
    pb_sink_u32(s, g->bone_count);
    for (i = 0; i < g->bone_count; i++) pb_sink_u32(s, g->bone_hashes[i]);
    pb_sink_u32(s, g->tgi_count);
    for (i = 0; i < g->tgi_count; i++) {
        pb_sink_u32(s, g->tgis[i].type);
        pb_sink_u32(s, g->tgis[i].group);
        put_u64(s, g->tgis[i].instance);
    }
    return s->full ? PLUMBOB_ERR_OUT_OF_MEMORY : PLUMBOB_OK;
}

size_t plumbob_geom_write_size(const plumbob_geom *geom) {
    return pb_emit_size(emit_geom, geom);
}

plumbob_result plumbob_geom_write(const plumbob_geom *geom, void *out, size_t out_cap, size_t *out_size) {
    return pb_emit_to(emit_geom, geom, out, out_cap, out_size);
}
