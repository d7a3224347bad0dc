/* Sims 3 jazz writer: the model back to RCOL bytes.  Chunks are laid out in
 * table order, back to back; a decoded model reproduces its input. */
#include "plumbob/sims3.h"
#include "pb_bytes.h"
#include "pb_jazz.h"
#include "pb_sink.h"

typedef struct jw {
    pb_sink *s;
    const plumbob_jazz *j;
    bool bad; /* a typed index that does not name a chunk of its kind */
} jw;

/* Chunk index of record `index` of `kind`, from the record's own field. */
static uint32_t chunk_of(const plumbob_jazz *j, uint32_t kind, uint32_t index) {
    switch (kind) {
    case PLUMBOB_JAZZ_ACTOR: return index < j->actor_count ? j->actors[index].chunk : PLUMBOB_JAZZ_NONE;
    case PLUMBOB_JAZZ_PARAM: return index < j->param_count ? j->params[index].chunk : PLUMBOB_JAZZ_NONE;
    case PLUMBOB_JAZZ_STATE: return index < j->state_count ? j->states[index].chunk : PLUMBOB_JAZZ_NONE;
    case PLUMBOB_JAZZ_GRAPH: return index < j->graph_count ? j->graphs[index].chunk : PLUMBOB_JAZZ_NONE;
    case PLUMBOB_JAZZ_NODE: return index < j->node_count ? j->nodes[index].chunk : PLUMBOB_JAZZ_NONE;
    default: return PLUMBOB_JAZZ_NONE;
    }
}

static void put_ref(jw *w, uint32_t kind, uint32_t index) {
    uint32_t k;
    if (index == PLUMBOB_JAZZ_NONE) {
        pb_sink_u32(w->s, 0);
        return;
    }
    k = chunk_of(w->j, kind, index);
    if (k >= w->j->chunk_count || w->j->chunks[k].kind != kind || w->j->chunks[k].index != index) {
        w->bad = true;
        k = 0;
    }
    pb_sink_u32(w->s, PB_JAZZ_REF_PRIVATE | k);
}

static void put_list(jw *w, uint32_t kind, const uint32_t *items, uint32_t count) {
    uint32_t i;
    pb_sink_u32(w->s, count);
    if (count && !items) w->bad = true;
    for (i = 0; i < count && items; i++) put_ref(w, kind, items[i]);
}

static void put_key(jw *w, plumbob_jazz_key k) {
    pb_sink_u32(w->s, (uint32_t)k.instance);
    pb_sink_u32(w->s, (uint32_t)(k.instance >> 32));
    pb_sink_u32(w->s, k.type);
    pb_sink_u32(w->s, k.group);
}

static void put_text(jw *w, plumbob_jazz_text t) {
    static const unsigned char zeros[4] = {0, 0, 0, 0};
    size_t bytes;
    pb_sink_u32(w->s, t.length);
    if (t.length == 0) return;
    if (!t.units) {
        w->bad = true;
        return;
    }
    bytes = (size_t)t.length * 2u;
    pb_sink_put(w->s, t.units, bytes);
    /* NUL, then zeros to a multiple of 4 (the chunk start is aligned and
     * everything before the text in a Play chunk is whole words). */
    pb_sink_put(w->s, zeros, 2u + (4u - (bytes + 2u) % 4u) % 4u);
}

static void put_anim(jw *w, const plumbob_jazz_anim *a) {
    int i;
    pb_sink_u32(w->s, a->flags);
    pb_sink_u32(w->s, a->priority);
    pb_sink_f32(w->s, a->unknown1);
    pb_sink_f32(w->s, a->blend_in);
    pb_sink_f32(w->s, a->blend_out);
    pb_sink_f32(w->s, a->unknown2);
    pb_sink_f32(w->s, a->speed);
    put_ref(w, PLUMBOB_JAZZ_ACTOR, a->actor);
    pb_sink_u32(w->s, a->timing_priority);
    for (i = 0; i < 6; i++) pb_sink_u32(w->s, a->unknown[i]);
    pb_sink_u32(w->s, PB_JAZZ_DEADBEEF);
}

static void put_play(jw *w, const plumbob_jazz_play *p) {
    uint32_t i;
    put_key(w, p->clip);
    put_key(w, p->track_mask);
    pb_sink_u32(w->s, p->slot_count);
    for (i = 0; i < 3; i++) pb_sink_u32(w->s, p->slot_unknown[i]);
    if ((p->slot_count && !p->slots) || (p->suffix_count && !p->suffixes)) w->bad = true;
    for (i = 0; i < p->slot_count && p->slots; i++) {
        pb_sink_u32(w->s, p->slots[i].chain);
        pb_sink_u32(w->s, p->slots[i].slot_id);
        pb_sink_u32(w->s, p->slots[i].actor);
        pb_sink_u32(w->s, p->slots[i].slot);
    }
    pb_sink_u32(w->s, p->suffix_count);
    for (i = 0; i < p->suffix_count && p->suffixes; i++) {
        pb_sink_u32(w->s, p->suffixes[i].actor);
        pb_sink_u32(w->s, p->suffixes[i].suffix);
    }
    pb_sink_u32(w->s, PB_JAZZ_DEADBEEF);
    put_key(w, p->additive_clip);
    put_text(w, p->name);
    put_text(w, p->additive_name);
    pb_sink_u32(w->s, PB_JAZZ_DEADBEEF);
    put_anim(w, &p->anim);
}

static void put_branches(jw *w, const plumbob_jazz_node *n) {
    uint32_t i;
    pb_sink_u32(w->s, n->branch_count);
    if (n->branch_count && !n->branches) w->bad = true;
    for (i = 0; i < n->branch_count && n->branches; i++) {
        const plumbob_jazz_branch *b = &n->branches[i];
        if (n->kind == PLUMBOB_JAZZ_RANDOM) pb_sink_f32(w->s, b->weight);
        else if (n->kind == PLUMBOB_JAZZ_SELECT_DEST) put_ref(w, PLUMBOB_JAZZ_STATE, b->value);
        else pb_sink_u32(w->s, b->value);
        put_list(w, PLUMBOB_JAZZ_NODE, b->children, b->child_count);
    }
}

static void put_node(jw *w, const plumbob_jazz_node *n) {
    int i;
    switch (n->kind) {
    case PLUMBOB_JAZZ_PLAY:
        put_play(w, &n->u.play);
        put_list(w, PLUMBOB_JAZZ_NODE, n->children, n->child_count);
        break;
    case PLUMBOB_JAZZ_STOP:
        put_anim(w, &n->u.stop);
        put_list(w, PLUMBOB_JAZZ_NODE, n->children, n->child_count);
        break;
    case PLUMBOB_JAZZ_RANDOM:
        put_branches(w, n);
        pb_sink_u32(w->s, PB_JAZZ_DEADBEEF);
        pb_sink_u32(w->s, n->u.random.flags);
        break;
    case PLUMBOB_JAZZ_SELECT_PARAM:
        put_ref(w, PLUMBOB_JAZZ_PARAM, n->u.select.param);
        put_branches(w, n);
        pb_sink_u32(w->s, PB_JAZZ_DEADBEEF);
        break;
    case PLUMBOB_JAZZ_SELECT_DEST:
        put_branches(w, n);
        pb_sink_u32(w->s, PB_JAZZ_DEADBEEF);
        break;
    case PLUMBOB_JAZZ_NEXT_STATE:
        put_ref(w, PLUMBOB_JAZZ_STATE, n->u.next.state);
        break;
    case PLUMBOB_JAZZ_PROP:
        put_ref(w, PLUMBOB_JAZZ_ACTOR, n->u.prop.actor);
        put_ref(w, PLUMBOB_JAZZ_PARAM, n->u.prop.param);
        put_key(w, n->u.prop.object);
        for (i = 0; i < 4; i++) pb_sink_u32(w->s, n->u.prop.unknown[i]);
        put_list(w, PLUMBOB_JAZZ_NODE, n->children, n->child_count);
        break;
    case PLUMBOB_JAZZ_ACTOR_OP:
        put_ref(w, PLUMBOB_JAZZ_ACTOR, n->u.actor_op.actor);
        pb_sink_u32(w->s, n->u.actor_op.op);
        pb_sink_u32(w->s, n->u.actor_op.operand);
        for (i = 0; i < 3; i++) pb_sink_u32(w->s, n->u.actor_op.unknown[i]);
        put_list(w, PLUMBOB_JAZZ_NODE, n->children, n->child_count);
        break;
    default: w->bad = true; return;
    }
    pb_sink_u32(w->s, PB_JAZZ_END_DGN);
}

static void put_machine(jw *w, const plumbob_jazz_machine *m) {
    uint32_t i;
    pb_sink_u32(w->s, m->name);
    put_list(w, PLUMBOB_JAZZ_ACTOR, m->actors, m->actor_count);
    put_list(w, PLUMBOB_JAZZ_PARAM, m->params, m->param_count);
    put_list(w, PLUMBOB_JAZZ_STATE, m->states, m->state_count);
    pb_sink_u32(w->s, m->animation_count);
    if (m->animation_count && !m->animations) w->bad = true;
    for (i = 0; i < m->animation_count && m->animations; i++) {
        pb_sink_u32(w->s, m->animations[i].clip);
        pb_sink_u32(w->s, m->animations[i].clip_actor);
        pb_sink_u32(w->s, m->animations[i].jazz_actor);
    }
    pb_sink_u32(w->s, PB_JAZZ_DEADBEEF);
    pb_sink_u32(w->s, m->properties);
    pb_sink_u32(w->s, m->priority);
    pb_sink_u32(w->s, m->awareness);
    for (i = 0; i < 4; i++) pb_sink_u32(w->s, m->unknown[i]);
}

/* Chunk k's bytes: tag, version, body. */
static void put_chunk(jw *w, uint32_t k) {
    const plumbob_jazz *j = w->j;
    const plumbob_jazz_chunk *c = &j->chunks[k];
    const pb_jazz_tag *t;
    uint32_t version = 0;
    if (chunk_of(j, c->kind, c->index) != k && c->kind != PLUMBOB_JAZZ_MACHINE) {
        w->bad = true;
        return;
    }
    switch (c->kind) {
    case PLUMBOB_JAZZ_MACHINE: version = j->machine.version; break;
    case PLUMBOB_JAZZ_ACTOR: version = j->actors[c->index].version; break;
    case PLUMBOB_JAZZ_PARAM: version = j->params[c->index].version; break;
    case PLUMBOB_JAZZ_STATE: version = j->states[c->index].version; break;
    case PLUMBOB_JAZZ_GRAPH: version = j->graphs[c->index].version; break;
    default: version = j->nodes[c->index].version; break;
    }
    t = pb_jazz_tag_for(c->kind, c->kind == PLUMBOB_JAZZ_NODE ? j->nodes[c->index].kind : 0);
    if (!t || (c->kind == PLUMBOB_JAZZ_MACHINE) != (k == 0)) {
        w->bad = true;
        return;
    }
    pb_sink_u32(w->s, t->tag);
    pb_sink_u32(w->s, version);
    switch (c->kind) {
    case PLUMBOB_JAZZ_MACHINE: put_machine(w, &j->machine); break;
    case PLUMBOB_JAZZ_ACTOR:
        pb_sink_u32(w->s, j->actors[c->index].name);
        pb_sink_u32(w->s, j->actors[c->index].unknown);
        break;
    case PLUMBOB_JAZZ_PARAM:
        pb_sink_u32(w->s, j->params[c->index].name);
        pb_sink_u32(w->s, j->params[c->index].default_value);
        break;
    case PLUMBOB_JAZZ_STATE: {
        const plumbob_jazz_state *s = &j->states[c->index];
        pb_sink_u32(w->s, s->name);
        pb_sink_u32(w->s, s->flags);
        put_ref(w, PLUMBOB_JAZZ_GRAPH, s->graph);
        put_list(w, PLUMBOB_JAZZ_STATE, s->transitions, s->transition_count);
        pb_sink_u32(w->s, s->awareness);
        break;
    }
    case PLUMBOB_JAZZ_GRAPH: {
        const plumbob_jazz_graph *g = &j->graphs[c->index];
        pb_sink_u32(w->s, g->unknown);
        put_list(w, PLUMBOB_JAZZ_NODE, g->nodes, g->node_count);
        put_list(w, PLUMBOB_JAZZ_NODE, g->roots, g->root_count);
        pb_sink_u32(w->s, PB_JAZZ_DEADBEEF);
        break;
    }
    default: put_node(w, &j->nodes[c->index]); break;
    }
}

/* The whole resource; the chunk table needs each chunk's size, so every
 * chunk is first measured with a counting sink. */
static plumbob_result emit(const void *obj, pb_sink *s) {
    const plumbob_jazz *j = (const plumbob_jazz *)obj;
    jw w;
    uint32_t k;
    size_t pos;
    if (!j || !j->chunks || j->chunk_count == 0 || j->chunk_count > PLUMBOB_JAZZ_MAX_CHUNKS ||
        j->external_count > PLUMBOB_JAZZ_MAX_CHUNKS || (j->external_count && !j->externals))
        return PLUMBOB_ERR_INVALID_ARGUMENT;
    w.j = j;
    w.bad = false;
    w.s = s;
    pb_sink_u32(s, j->rcol_version);
    pb_sink_u32(s, j->public_count);
    pb_sink_u32(s, j->rcol_unknown);
    pb_sink_u32(s, j->external_count);
    pb_sink_u32(s, j->chunk_count);
    for (k = 0; k < j->chunk_count; k++) put_key(&w, j->chunks[k].key);
    for (k = 0; k < j->external_count; k++) put_key(&w, j->externals[k]);
    pos = PB_JAZZ_HEADER_BYTES + ((size_t)j->chunk_count + j->external_count) * PB_JAZZ_KEY_BYTES +
          (size_t)j->chunk_count * 8u;
    for (k = 0; k < j->chunk_count; k++) {
        pb_sink counter;
        jw m;
        pb_sink_init(&counter, NULL, 0);
        m.j = j;
        m.bad = false;
        m.s = &counter;
        put_chunk(&m, k);
        if (m.bad || counter.n > 0xFFFFFFFFu || pos > 0xFFFFFFFFu) return PLUMBOB_ERR_INVALID_ARGUMENT;
        pb_sink_u32(s, (uint32_t)pos);
        pb_sink_u32(s, (uint32_t)counter.n);
        pos += counter.n;
    }
    for (k = 0; k < j->chunk_count; k++) put_chunk(&w, k);
    if (w.bad) return PLUMBOB_ERR_INVALID_ARGUMENT;
    return s->full ? PLUMBOB_ERR_OUT_OF_MEMORY : PLUMBOB_OK;
}

size_t plumbob_jazz_write_size(const plumbob_jazz *jazz) {
    return pb_emit_size(emit, jazz);
}

plumbob_result plumbob_jazz_write(const plumbob_jazz *jazz, void *out, size_t out_cap, size_t *out_size) {
    return pb_emit_to(emit, jazz, out, out_cap, out_size);
}
