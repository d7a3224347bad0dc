/* Sims 2 CRES writer: every block from its typed record, in the order the
 * decoder reads it, so decode -> write gives the input back. */
#include "plumbob/sims2.h"
#include "pb_sink.h"

typedef struct emitter {
    pb_sink *s;
    int bad; /* a record the writer cannot write */
} emitter;

static void head(emitter *e, const plumbob_cres_head *h) {
    if (h->name.len >= (1u << 28) || (!h->name.ptr && h->name.len)) e->bad = 1;
    pb_sink_str7(e->s, h->name);
    pb_sink_u32(e->s, h->id);
    pb_sink_u32(e->s, h->version);
}

static void str(emitter *e, plumbob_string v) {
    if (v.len >= (1u << 28) || (!v.ptr && v.len)) {
        e->bad = 1;
        return;
    }
    pb_sink_str7(e->s, v);
}

static void ref(emitter *e, const plumbob_cres_ref *r) {
    pb_sink_u8(e->s, r->present);
    if (!r->present) return;
    pb_sink_u8(e->s, r->external);
    pb_sink_u32(e->s, r->index);
}

static void refs(emitter *e, const plumbob_cres_ref *v, uint32_t n) {
    uint32_t i;
    pb_sink_u32(e->s, n);
    if (n && !v) {
        e->bad = 1;
        return;
    }
    for (i = 0; i < n; i++) ref(e, &v[i]);
}

static void strings(emitter *e, const plumbob_string *v, uint32_t n) {
    uint32_t i;
    if (n && !v) {
        e->bad = 1;
        return;
    }
    for (i = 0; i < n; i++) str(e, v[i]);
}

static void bytes(emitter *e, const unsigned char *p, size_t n) {
    if (n && !p) {
        e->bad = 1;
        return;
    }
    pb_sink_put(e->s, p, n);
}

static void graph(emitter *e, const plumbob_cres_node *n) {
    head(e, &n->graph);
    refs(e, n->extensions, n->extension_count);
    if (n->graph.version >= 4) str(e, n->tag);
}

static void tree(emitter *e, const plumbob_cres_node *n) {
    head(e, &n->tree);
    graph(e, n);
    refs(e, n->children, n->child_count);
}

static void transform(emitter *e, const plumbob_cres_transform *t) {
    tree(e, &t->node);
    pb_sink_f32(e->s, t->translation.x);
    pb_sink_f32(e->s, t->translation.y);
    pb_sink_f32(e->s, t->translation.z);
    pb_sink_f32(e->s, t->rotation.x);
    pb_sink_f32(e->s, t->rotation.y);
    pb_sink_f32(e->s, t->rotation.z);
    pb_sink_f32(e->s, t->rotation.w);
    pb_sink_u32(e->s, t->joint);
}

static void block(emitter *e, const plumbob_cres_block *b) {
    head(e, &b->head);
    switch (b->kind) {
    case PLUMBOB_CRES_KIND_RESOURCE: {
        const plumbob_cres_resource *r = &b->u.resource;
        pb_sink_u8(e->s, r->form);
        if (r->form == 1) {
            head(e, &r->sg);
            str(e, r->name);
            tree(e, &r->node);
        } else if (r->form == 0) {
            graph(e, &r->node);
        } else {
            e->bad = 1;
        }
        ref(e, &r->location);
        pb_sink_u32(e->s, r->skin_type);
        break;
    }
    case PLUMBOB_CRES_KIND_TRANSFORM: transform(e, &b->u.transform); break;
    case PLUMBOB_CRES_KIND_SHAPE_REF: {
        const plumbob_cres_shape_ref *s = &b->u.shape_ref;
        head(e, &s->renderable);
        head(e, &s->bounded);
        head(e, &s->transform_head);
        transform(e, &s->transform);
        pb_sink_u8(e->s, s->bounded_flag);
        pb_sink_u8(e->s, s->all_groups);
        pb_sink_u32(e->s, s->group_count);
        strings(e, s->groups, s->group_count);
        pb_sink_u32(e->s, s->group_id);
        pb_sink_u8(e->s, s->display);
        refs(e, s->shapes, s->shape_count);
        pb_sink_u32(e->s, s->display_flags);
        pb_sink_u32(e->s, s->morph_count);
        bytes(e, s->morph_weights, (size_t)s->morph_count * 4u);
        if (b->head.version >= 21) strings(e, s->morph_names, s->morph_count);
        pb_sink_u32(e->s, s->data_size);
        bytes(e, s->data, s->data_size);
        if (b->head.version >= 20) pb_sink_u32(e->s, s->colour);
        break;
    }
    case PLUMBOB_CRES_KIND_DATA_LIST:
        head(e, &b->u.data_list.extension);
        bytes(e, b->u.data_list.items, b->u.data_list.items_size);
        break;
    case PLUMBOB_CRES_KIND_BONE_DATA: {
        const plumbob_cres_bone_data *d = &b->u.bone_data;
        head(e, &d->extension);
        pb_sink_u32(e->s, (uint32_t)d->heading_axis);
        pb_sink_u32(e->s, (uint32_t)d->mirror_axis);
        pb_sink_u32(e->s, (uint32_t)d->stretch_axis);
        pb_sink_f32(e->s, d->stretch);
        if (b->head.version >= 4) {
            pb_sink_f32(e->s, d->orientation.x);
            pb_sink_f32(e->s, d->orientation.y);
            pb_sink_f32(e->s, d->orientation.z);
            pb_sink_f32(e->s, d->orientation.w);
        }
        break;
    }
    case PLUMBOB_CRES_KIND_UNKNOWN: bytes(e, b->u.raw.bytes, b->u.raw.size); break;
    default: e->bad = 1; break;
    }
}

static plumbob_result emit(const void *obj, pb_sink *s) {
    const plumbob_cres *c = (const plumbob_cres *)obj;
    emitter e;
    uint32_t i;
    if (!c || c->block_count == 0 || !c->blocks) return PLUMBOB_ERR_INVALID_ARGUMENT;
    e.s = s;
    e.bad = 0;
    if (c->data) {
        if (c->rcol.first_block_offset > c->size) return PLUMBOB_ERR_INVALID_ARGUMENT;
        pb_sink_put(s, c->data, c->rcol.first_block_offset);
    } else {
        pb_sink_u32(s, 0xFFFF0001u);
        pb_sink_u32(s, c->rcol.link_count);
        if (c->rcol.link_count && !c->links) return PLUMBOB_ERR_INVALID_ARGUMENT;
        for (i = 0; i < c->rcol.link_count; i++) {
            pb_sink_u32(s, c->links[i].group);
            pb_sink_u32(s, c->links[i].instance);
            pb_sink_u32(s, c->links[i].instance_hi);
            pb_sink_u32(s, c->links[i].type);
        }
        pb_sink_u32(s, c->block_count);
        for (i = 0; i < c->block_count; i++) pb_sink_u32(s, c->blocks[i].head.id);
    }
    for (i = 0; i < c->block_count && !e.bad; i++) block(&e, &c->blocks[i]);
    if (e.bad) return PLUMBOB_ERR_INVALID_ARGUMENT;
    return s->full ? PLUMBOB_ERR_OUT_OF_MEMORY : PLUMBOB_OK;
}

size_t plumbob_cres_write_size(const plumbob_cres *cres) {
    return pb_emit_size(emit, cres);
}

plumbob_result plumbob_cres_write(const plumbob_cres *cres, void *out, size_t out_cap, size_t *out_size) {
    return pb_emit_to(emit, cres, out, out_cap, out_size);
}
