/* Sims 3 jazz (state machine RCOL) decoding and validation.  The same walk
 * serves the measure call (counting list items) and the decode (storing
 * them); references are resolved against the chunk table while storing. */
#include "plumbob/sims3.h"
#include "pb_bytes.h"
#include "pb_error.h"
#include "pb_finite.h"
#include "pb_jazz.h"

#define TAG(a, b, c, d) ((uint32_t)(a) | (uint32_t)(b) << 8 | (uint32_t)(c) << 16 | (uint32_t)(d) << 24)

static const pb_jazz_tag jazz_tags[] = {
    {TAG('S', '_', 'S', 'M'), 0x02D5DF13u, 0x202u, PLUMBOB_JAZZ_MACHINE, 0},
    {TAG('S', '_', 'A', 'D'), 0x02EEDB2Fu, 0x100u, PLUMBOB_JAZZ_ACTOR, 0},
    {TAG('S', '_', 'P', 'D'), 0x02EEDB46u, 0x100u, PLUMBOB_JAZZ_PARAM, 0},
    {TAG('S', '_', 'S', 't'), 0x02EEDAFEu, 0x101u, PLUMBOB_JAZZ_STATE, 0},
    {TAG('S', '_', 'D', 'G'), 0x02EEDB18u, 0x101u, PLUMBOB_JAZZ_GRAPH, 0},
    {TAG('P', 'l', 'a', 'y'), 0x02EEDB5Fu, 0x105u, PLUMBOB_JAZZ_NODE, PLUMBOB_JAZZ_PLAY},
    {TAG('S', 't', 'o', 'p'), 0x0344D438u, 0x104u, PLUMBOB_JAZZ_NODE, PLUMBOB_JAZZ_STOP},
    {TAG('R', 'a', 'n', 'd'), 0x02EEDB70u, 0x101u, PLUMBOB_JAZZ_NODE, PLUMBOB_JAZZ_RANDOM},
    {TAG('S', 'o', 'P', 'n'), 0x02EEDB92u, 0x101u, PLUMBOB_JAZZ_NODE, PLUMBOB_JAZZ_SELECT_PARAM},
    {TAG('D', 'G', '0', '0'), 0x02EEDBA5u, 0x101u, PLUMBOB_JAZZ_NODE, PLUMBOB_JAZZ_SELECT_DEST},
    {TAG('S', 'N', 'S', 'N'), 0x02EEEBDCu, 0x101u, PLUMBOB_JAZZ_NODE, PLUMBOB_JAZZ_NEXT_STATE},
    {TAG('P', 'r', 'o', 'p'), 0x02EEEBDDu, 0x100u, PLUMBOB_JAZZ_NODE, PLUMBOB_JAZZ_PROP},
    {TAG('A', 'c', 'O', 'p'), 0x02EEEBDEu, 0x100u, PLUMBOB_JAZZ_NODE, PLUMBOB_JAZZ_ACTOR_OP},
};
#define TAG_COUNT (sizeof jazz_tags / sizeof jazz_tags[0])

const pb_jazz_tag *pb_jazz_tag_find(uint32_t tag) {
    size_t i;
    for (i = 0; i < TAG_COUNT; i++)
        if (jazz_tags[i].tag == tag) return &jazz_tags[i];
    return NULL;
}

const pb_jazz_tag *pb_jazz_tag_for(uint32_t kind, uint32_t node_kind) {
    size_t i;
    for (i = 0; i < TAG_COUNT; i++)
        if (jazz_tags[i].kind == kind && (kind != PLUMBOB_JAZZ_NODE || jazz_tags[i].node_kind == node_kind))
            return &jazz_tags[i];
    return NULL;
}

/* Items of every variable-length list, counted (measure) or stored (decode). */
typedef struct jz_pools {
    size_t u32s, branches, slots, suffixes, animations;
} jz_pools;

static const jz_pools no_items = {0, 0, 0, 0, 0};

typedef struct jz_ctx {
    bool store;
    plumbob_jazz *j;            /* arrays are writable while storing */
    plumbob_jazz_chunk *chunks;
    plumbob_jazz_key *externals;
    plumbob_jazz_actor *actors;
    plumbob_jazz_param *params;
    plumbob_jazz_state *states;
    plumbob_jazz_graph *graphs;
    plumbob_jazz_node *nodes;
    uint32_t *u32s;
    plumbob_jazz_branch *branches;
    plumbob_jazz_slot *slots;
    plumbob_jazz_suffix *suffixes;
    plumbob_jazz_animation *animations;
    jz_pools used;
    uint32_t kind_count[PLUMBOB_JAZZ_NODE + 1];
    const unsigned char *bad_at; /* a non-finite float: where, and what (NULL: none) */
    const char *bad_why;
} jz_ctx;

/* A float the runtime hands on (blend times, speed, random weights): an
 * infinite or NaN one fails the reader with PLUMBOB_ERR_BAD_DATA and the
 * context keeps where it stood (issue 47). */
static float read_finite(jz_ctx *c, plumbob_reader *r, const char *why) {
    const unsigned char *at = r->data + r->pos;
    float v = plumbob_read_f32le(r);
    if (plumbob_reader_ok(r) && !pb_finite(v)) {
        if (!c->bad_why) {
            c->bad_at = at;
            c->bad_why = why;
        }
        plumbob_reader_fail(r, PLUMBOB_ERR_BAD_DATA);
    }
    return v;
}

static void expect(plumbob_reader *r, uint32_t want) {
    uint32_t v = plumbob_read_u32le(r);
    if (plumbob_reader_ok(r) && v != want) plumbob_reader_fail(r, PLUMBOB_ERR_BAD_DATA);
}

/* A reference to a chunk of `kind`, as a typed index.  Null is 0 and gives
 * PLUMBOB_JAZZ_NONE where allowed.  Checked only while storing (the chunk
 * table exists then). */
static uint32_t read_ref(jz_ctx *c, plumbob_reader *r, uint32_t kind, bool nullable) {
    uint32_t v = plumbob_read_u32le(r), k;
    if (!c->store || !plumbob_reader_ok(r)) return PLUMBOB_JAZZ_NONE;
    if (v == 0) {
        if (!nullable) plumbob_reader_fail(r, PLUMBOB_ERR_BAD_INDEX);
        return PLUMBOB_JAZZ_NONE;
    }
    k = v & 0x0FFFFFFFu;
    if ((v & 0xF0000000u) != PB_JAZZ_REF_PRIVATE || k >= c->j->chunk_count || c->chunks[k].kind != kind) {
        plumbob_reader_fail(r, PLUMBOB_ERR_BAD_INDEX);
        return PLUMBOB_JAZZ_NONE;
    }
    return c->chunks[k].index;
}

/* An i32 count of items of item_bytes each that must fit in what is left. */
static uint32_t read_count(plumbob_reader *r, size_t item_bytes) {
    uint32_t n = plumbob_read_u32le(r);
    if (!plumbob_reader_ok(r)) return 0;
    if (n > 0x7FFFFFFFu || (size_t)n > plumbob_reader_remaining(r) / item_bytes) {
        plumbob_reader_fail(r, PLUMBOB_ERR_BAD_COUNT);
        return 0;
    }
    return n;
}

/* A counted list of non-null references to `kind`. */
static const uint32_t *read_list(jz_ctx *c, plumbob_reader *r, uint32_t kind, uint32_t *count) {
    uint32_t n = read_count(r, 4), i;
    uint32_t *items = c->store ? c->u32s + c->used.u32s : NULL;
    *count = n;
    for (i = 0; i < n && plumbob_reader_ok(r); i++) {
        uint32_t v = read_ref(c, r, kind, false);
        if (items) items[i] = v;
    }
    c->used.u32s += n;
    return items;
}

static plumbob_jazz_key read_key(plumbob_reader *r) {
    plumbob_jazz_key k;
    k.instance = plumbob_read_u64le(r);
    k.type = plumbob_read_u32le(r);
    k.group = plumbob_read_u32le(r);
    return k;
}

/* i32 length, UTF-16LE units, then (when not empty) a u16 NUL and zero
 * padding to 4 bytes from the chunk start. */
static plumbob_jazz_text read_text(plumbob_reader *r) {
    plumbob_jazz_text t = {NULL, 0};
    uint32_t n = read_count(r, 2);
    if (n == 0 || !plumbob_reader_ok(r)) return t;
    t.units = plumbob_read_bytes(r, (size_t)n * 2u);
    t.length = n;
    if (plumbob_read_u16le(r) != 0 && plumbob_reader_ok(r)) plumbob_reader_fail(r, PLUMBOB_ERR_BAD_DATA);
    while (plumbob_reader_ok(r) && r->pos % 4u != 0)
        if (plumbob_read_u8(r) != 0 && plumbob_reader_ok(r)) plumbob_reader_fail(r, PLUMBOB_ERR_BAD_DATA);
    return t;
}

static void read_anim(jz_ctx *c, plumbob_reader *r, plumbob_jazz_anim *a) {
    uint32_t i;
    a->flags = plumbob_read_u32le(r);
    a->priority = plumbob_read_u32le(r);
    a->unknown1 = plumbob_read_f32le(r);
    a->blend_in = read_finite(c, r, "non-finite blend-in time");
    a->blend_out = read_finite(c, r, "non-finite blend-out time");
    a->unknown2 = plumbob_read_f32le(r);
    a->speed = read_finite(c, r, "non-finite speed");
    a->actor = read_ref(c, r, PLUMBOB_JAZZ_ACTOR, true);
    a->timing_priority = plumbob_read_u32le(r);
    for (i = 0; i < 6; i++) a->unknown[i] = plumbob_read_u32le(r);
    expect(r, PB_JAZZ_DEADBEEF);
}

static void read_play(jz_ctx *c, plumbob_reader *r, plumbob_jazz_play *p) {
    uint32_t n, i;
    plumbob_jazz_slot *slots;
    plumbob_jazz_suffix *suffixes;
    p->clip = read_key(r);
    p->track_mask = read_key(r);
    /* The slot count comes before three unknown words, then the slots. */
    n = read_count(r, 16);
    for (i = 0; i < 3; i++) p->slot_unknown[i] = plumbob_read_u32le(r);
    slots = c->store ? c->slots + c->used.slots : NULL;
    for (i = 0; i < n; i++) {
        plumbob_jazz_slot s;
        s.chain = plumbob_read_u32le(r);
        s.slot_id = plumbob_read_u32le(r);
        s.actor = plumbob_read_u32le(r);
        s.slot = plumbob_read_u32le(r);
        if (slots) slots[i] = s;
    }
    c->used.slots += n;
    p->slot_count = n;
    p->slots = slots;
    n = read_count(r, 8);
    suffixes = c->store ? c->suffixes + c->used.suffixes : NULL;
    for (i = 0; i < n; i++) {
        plumbob_jazz_suffix s;
        s.actor = plumbob_read_u32le(r);
        s.suffix = plumbob_read_u32le(r);
        if (suffixes) suffixes[i] = s;
    }
    c->used.suffixes += n;
    p->suffix_count = n;
    p->suffixes = suffixes;
    expect(r, PB_JAZZ_DEADBEEF);
    p->additive_clip = read_key(r);
    p->name = read_text(r);
    p->additive_name = read_text(r);
    expect(r, PB_JAZZ_DEADBEEF);
    read_anim(c, r, &p->anim);
}

/* Branches of Rand (f32 weight), SoPn (value hash), DG00 (state reference). */
static const plumbob_jazz_branch *read_branches(jz_ctx *c, plumbob_reader *r, uint32_t node_kind,
                                                uint32_t *count) {
    uint32_t n = read_count(r, 8), i;
    size_t first = c->used.branches;
    plumbob_jazz_branch *out = c->store ? c->branches + first : NULL;
    c->used.branches += n;
    *count = n;
    for (i = 0; i < n && plumbob_reader_ok(r); i++) {
        plumbob_jazz_branch b;
        b.value = 0;
        b.weight = 0.0f;
        if (node_kind == PLUMBOB_JAZZ_RANDOM) b.weight = read_finite(c, r, "non-finite random weight");
        else if (node_kind == PLUMBOB_JAZZ_SELECT_DEST) b.value = read_ref(c, r, PLUMBOB_JAZZ_STATE, false);
        else b.value = plumbob_read_u32le(r);
        b.children = read_list(c, r, PLUMBOB_JAZZ_NODE, &b.child_count);
        if (out) out[i] = b;
    }
    return out;
}

static void read_node(jz_ctx *c, plumbob_reader *r, plumbob_jazz_node *n) {
    uint32_t i;
    switch (n->kind) {
    case PLUMBOB_JAZZ_PLAY:
        read_play(c, r, &n->u.play);
        n->children = read_list(c, r, PLUMBOB_JAZZ_NODE, &n->child_count);
        break;
    case PLUMBOB_JAZZ_STOP:
        read_anim(c, r, &n->u.stop);
        n->children = read_list(c, r, PLUMBOB_JAZZ_NODE, &n->child_count);
        break;
    case PLUMBOB_JAZZ_RANDOM:
        n->branches = read_branches(c, r, n->kind, &n->branch_count);
        expect(r, PB_JAZZ_DEADBEEF);
        n->u.random.flags = plumbob_read_u32le(r);
        break;
    case PLUMBOB_JAZZ_SELECT_PARAM:
        n->u.select.param = read_ref(c, r, PLUMBOB_JAZZ_PARAM, false);
        n->branches = read_branches(c, r, n->kind, &n->branch_count);
        expect(r, PB_JAZZ_DEADBEEF);
        break;
    case PLUMBOB_JAZZ_SELECT_DEST:
        n->branches = read_branches(c, r, n->kind, &n->branch_count);
        expect(r, PB_JAZZ_DEADBEEF);
        break;
    case PLUMBOB_JAZZ_NEXT_STATE:
        n->u.next.state = read_ref(c, r, PLUMBOB_JAZZ_STATE, false);
        break;
    case PLUMBOB_JAZZ_PROP:
        n->u.prop.actor = read_ref(c, r, PLUMBOB_JAZZ_ACTOR, true);
        n->u.prop.param = read_ref(c, r, PLUMBOB_JAZZ_PARAM, true);
        n->u.prop.object = read_key(r);
        for (i = 0; i < 4; i++) n->u.prop.unknown[i] = plumbob_read_u32le(r);
        n->children = read_list(c, r, PLUMBOB_JAZZ_NODE, &n->child_count);
        break;
    default: /* PLUMBOB_JAZZ_ACTOR_OP */
        n->u.actor_op.actor = read_ref(c, r, PLUMBOB_JAZZ_ACTOR, true);
        n->u.actor_op.op = plumbob_read_u32le(r);
        n->u.actor_op.operand = plumbob_read_u32le(r);
        for (i = 0; i < 3; i++) n->u.actor_op.unknown[i] = plumbob_read_u32le(r);
        n->children = read_list(c, r, PLUMBOB_JAZZ_NODE, &n->child_count);
        break;
    }
    expect(r, PB_JAZZ_END_DGN);
}

static void read_machine(jz_ctx *c, plumbob_reader *r, plumbob_jazz_machine *m) {
    uint32_t n, i;
    plumbob_jazz_animation *anims;
    m->name = plumbob_read_u32le(r);
    m->actors = read_list(c, r, PLUMBOB_JAZZ_ACTOR, &m->actor_count);
    m->params = read_list(c, r, PLUMBOB_JAZZ_PARAM, &m->param_count);
    m->states = read_list(c, r, PLUMBOB_JAZZ_STATE, &m->state_count);
    n = read_count(r, 12);
    anims = c->store ? c->animations + c->used.animations : NULL;
    for (i = 0; i < n; i++) {
        plumbob_jazz_animation a;
        a.clip = plumbob_read_u32le(r);
        a.clip_actor = plumbob_read_u32le(r);
        a.jazz_actor = plumbob_read_u32le(r);
        if (anims) anims[i] = a;
    }
    c->used.animations += n;
    m->animation_count = n;
    m->animations = anims;
    expect(r, PB_JAZZ_DEADBEEF);
    m->properties = plumbob_read_u32le(r);
    m->priority = plumbob_read_u32le(r);
    m->awareness = plumbob_read_u32le(r);
    for (i = 0; i < 4; i++) m->unknown[i] = plumbob_read_u32le(r);
}

/* Parses chunk `k` (tag row `t`) from its exact byte range. */
static plumbob_result read_chunk(jz_ctx *c, plumbob_reader *r, const pb_jazz_tag *t, uint32_t k, uint32_t index) {
    uint32_t version;
    plumbob_read_u32le(r); /* tag, already matched */
    version = plumbob_read_u32le(r);
    if (!plumbob_reader_ok(r)) return r->error;
    if (version != t->version) return PLUMBOB_ERR_UNSUPPORTED_VERSION;
    switch (t->kind) {
    case PLUMBOB_JAZZ_MACHINE: {
        plumbob_jazz_machine m;
        m.version = version;
        read_machine(c, r, &m);
        if (c->store) c->j->machine = m;
        break;
    }
    case PLUMBOB_JAZZ_ACTOR: {
        plumbob_jazz_actor a;
        a.chunk = k;
        a.version = version;
        a.name = plumbob_read_u32le(r);
        a.unknown = plumbob_read_u32le(r);
        if (c->store) c->actors[index] = a;
        break;
    }
    case PLUMBOB_JAZZ_PARAM: {
        plumbob_jazz_param p;
        p.chunk = k;
        p.version = version;
        p.name = plumbob_read_u32le(r);
        p.default_value = plumbob_read_u32le(r);
        if (c->store) c->params[index] = p;
        break;
    }
    case PLUMBOB_JAZZ_STATE: {
        plumbob_jazz_state s;
        s.chunk = k;
        s.version = version;
        s.name = plumbob_read_u32le(r);
        s.flags = plumbob_read_u32le(r);
        s.graph = read_ref(c, r, PLUMBOB_JAZZ_GRAPH, false);
        s.transitions = read_list(c, r, PLUMBOB_JAZZ_STATE, &s.transition_count);
        s.awareness = plumbob_read_u32le(r);
        if (c->store) c->states[index] = s;
        break;
    }
    case PLUMBOB_JAZZ_GRAPH: {
        plumbob_jazz_graph g;
        g.chunk = k;
        g.version = version;
        g.unknown = plumbob_read_u32le(r);
        g.nodes = read_list(c, r, PLUMBOB_JAZZ_NODE, &g.node_count);
        g.roots = read_list(c, r, PLUMBOB_JAZZ_NODE, &g.root_count);
        expect(r, PB_JAZZ_DEADBEEF);
        if (c->store) c->graphs[index] = g;
        break;
    }
    default: {
        plumbob_jazz_node n;
        n.chunk = k;
        n.kind = t->node_kind;
        n.version = version;
        n.child_count = n.branch_count = 0;
        n.children = NULL;
        n.branches = NULL;
        read_node(c, r, &n);
        if (c->store) c->nodes[index] = n;
        break;
    }
    }
    if (!plumbob_reader_ok(r)) return r->error;
    return plumbob_reader_remaining(r) == 0 ? PLUMBOB_OK : PLUMBOB_ERR_BAD_DATA;
}

/* Header, keys and the chunk table; then every chunk.  Counting pass when
 * c->store is false. */
static plumbob_result walk(jz_ctx *c, const unsigned char *d, size_t size, plumbob_jazz *j, plumbob_error *err) {
    plumbob_reader r;
    uint32_t count, ext, k;
    size_t keys_at, table_at, pos;
    c->bad_at = NULL;
    c->bad_why = NULL;
    plumbob_reader_init(&r, d, size);
    j->rcol_version = plumbob_read_u32le(&r);
    j->public_count = plumbob_read_u32le(&r);
    j->rcol_unknown = plumbob_read_u32le(&r);
    ext = plumbob_read_u32le(&r);
    count = plumbob_read_u32le(&r);
    if (!plumbob_reader_ok(&r))
        return pb_note(err, r.error, pb_reader_at(&r, d, size), "header", PLUMBOB_ERROR_NO_INDEX, pb_reason(r.error));
    /* the RCOL version is the only signature a jazz resource has: another
     * value is another kind of resource (issue 47's rule), not a version */
    if (j->rcol_version != PB_JAZZ_RCOL_VERSION)
        return pb_note(err, PLUMBOB_ERR_BAD_MAGIC, 0, "header", PLUMBOB_ERROR_NO_INDEX, "RCOL version not 3: not a jazz resource");
    /* chunk 0 is the S_SM, keyed by the jazz type: another type is another
     * Sims 3 RCOL (GEOM, VPXY, ...) or a rig 3.1, told before its counts
     * can mislead (bytes that end before the key fall through: TRUNCATED) */
    if (size >= PB_JAZZ_HEADER_BYTES + 12u && pb_le32(d + PB_JAZZ_HEADER_BYTES + 8u) != PLUMBOB_TYPE_JAZZ)
        return pb_note(err, PLUMBOB_ERR_BAD_MAGIC, PB_JAZZ_HEADER_BYTES + 8u, "chunk", 0,
                       "chunk 0 is not keyed by the jazz type: another kind of resource");
    if (count == 0 || count > PLUMBOB_JAZZ_MAX_CHUNKS || ext > PLUMBOB_JAZZ_MAX_CHUNKS)
        return pb_note(err, PLUMBOB_ERR_BAD_COUNT, 12, "header", PLUMBOB_ERROR_NO_INDEX, pb_reason(PLUMBOB_ERR_BAD_COUNT));
    if ((size_t)count * 24u + (size_t)ext * 16u > size - PB_JAZZ_HEADER_BYTES)
        return pb_note(err, PLUMBOB_ERR_TRUNCATED, size, "header", PLUMBOB_ERROR_NO_INDEX, pb_reason(PLUMBOB_ERR_TRUNCATED));
    j->chunk_count = count;
    j->external_count = ext;
    keys_at = PB_JAZZ_HEADER_BYTES;
    table_at = keys_at + ((size_t)count + ext) * PB_JAZZ_KEY_BYTES;
    if (c->store) {
        plumbob_jazz_key *externals = c->externals;
        for (k = 0; k < ext; k++) {
            const unsigned char *p = d + keys_at + ((size_t)count + k) * PB_JAZZ_KEY_BYTES;
            externals[k].instance = pb_le64(p);
            externals[k].type = pb_le32(p + 8);
            externals[k].group = pb_le32(p + 12);
        }
    }
    /* Chunks follow the table back to back, each a multiple of 4 bytes. */
    pos = table_at + (size_t)count * 8u;
    for (k = 0; k < PLUMBOB_JAZZ_NODE + 1u; k++) c->kind_count[k] = 0;
    for (k = 0; k < count; k++) {
        const unsigned char *key = d + keys_at + (size_t)k * PB_JAZZ_KEY_BYTES;
        uint32_t off = pb_le32(d + table_at + (size_t)k * 8u), len = pb_le32(d + table_at + (size_t)k * 8u + 4u);
        const pb_jazz_tag *t;
        if (off != pos) return pb_note(err, PLUMBOB_ERR_BAD_OFFSET, table_at + (size_t)k * 8u, "chunk", k, pb_reason(PLUMBOB_ERR_BAD_OFFSET));
        if (len < 8u || len % 4u != 0) return pb_note(err, PLUMBOB_ERR_BAD_DATA, table_at + (size_t)k * 8u + 4u, "chunk", k, pb_reason(PLUMBOB_ERR_BAD_DATA));
        if (len > size - pos) return pb_note(err, PLUMBOB_ERR_TRUNCATED, size, "chunk", k, pb_reason(PLUMBOB_ERR_TRUNCATED));
        t = pb_jazz_tag_find(pb_le32(d + pos));
        if (!t || pb_le32(key + 8) != t->type || (k == 0) != (t->kind == PLUMBOB_JAZZ_MACHINE))
            return pb_note(err, PLUMBOB_ERR_BAD_MAGIC, pos, "chunk", k, pb_reason(PLUMBOB_ERR_BAD_MAGIC));
        if (c->store) {
            c->chunks[k].kind = t->kind;
            c->chunks[k].index = c->kind_count[t->kind];
            c->chunks[k].key.instance = pb_le64(key);
            c->chunks[k].key.type = t->type;
            c->chunks[k].key.group = pb_le32(key + 12);
        }
        c->kind_count[t->kind]++;
        pos += len;
    }
    if (pos != size) return pb_note(err, PLUMBOB_ERR_BAD_DATA, pos, "chunk", PLUMBOB_ERROR_NO_INDEX, pb_reason(PLUMBOB_ERR_BAD_DATA));
    for (k = 0; k < PLUMBOB_JAZZ_NODE + 1u; k++) c->kind_count[k] = 0;
    pos = table_at + (size_t)count * 8u;
    for (k = 0; k < count; k++) {
        uint32_t len = pb_le32(d + table_at + (size_t)k * 8u + 4u);
        const pb_jazz_tag *t = pb_jazz_tag_find(pb_le32(d + pos));
        plumbob_reader cr;
        plumbob_result res;
        plumbob_reader_init(&cr, d + pos, len);
        res = read_chunk(c, &cr, t, k, c->kind_count[t->kind]++);
        if (res == PLUMBOB_ERR_BAD_DATA && c->bad_why)
            return pb_note(err, res, (size_t)(c->bad_at - d), "chunk", k, c->bad_why);
        if (res != PLUMBOB_OK) return pb_note(err, res, pb_reader_at(&cr, d, size), "chunk", k, pb_reason(res));
        pos += len;
    }
    return PLUMBOB_OK;
}

static plumbob_result count_pass(const void *data, size_t size, jz_ctx *c, plumbob_jazz *j, plumbob_error *err) {
    c->store = false;
    c->j = j;
    c->used = no_items;
    return walk(c, (const unsigned char *)data, size, j, err);
}

/* Arena terms for the arrays of a counted input. */
static size_t need_for(const jz_ctx *c, const plumbob_jazz *j) {
    size_t need = 0;
    plumbob_size_add(&need, plumbob_arena_need(j->chunk_count, sizeof(plumbob_jazz_chunk)));
    plumbob_size_add(&need, plumbob_arena_need(j->external_count, sizeof(plumbob_jazz_key)));
    plumbob_size_add(&need, plumbob_arena_need(c->kind_count[PLUMBOB_JAZZ_ACTOR], sizeof(plumbob_jazz_actor)));
    plumbob_size_add(&need, plumbob_arena_need(c->kind_count[PLUMBOB_JAZZ_PARAM], sizeof(plumbob_jazz_param)));
    plumbob_size_add(&need, plumbob_arena_need(c->kind_count[PLUMBOB_JAZZ_STATE], sizeof(plumbob_jazz_state)));
    plumbob_size_add(&need, plumbob_arena_need(c->kind_count[PLUMBOB_JAZZ_GRAPH], sizeof(plumbob_jazz_graph)));
    plumbob_size_add(&need, plumbob_arena_need(c->kind_count[PLUMBOB_JAZZ_NODE], sizeof(plumbob_jazz_node)));
    plumbob_size_add(&need, plumbob_arena_need(c->used.u32s, sizeof(uint32_t)));
    plumbob_size_add(&need, plumbob_arena_need(c->used.branches, sizeof(plumbob_jazz_branch)));
    plumbob_size_add(&need, plumbob_arena_need(c->used.slots, sizeof(plumbob_jazz_slot)));
    plumbob_size_add(&need, plumbob_arena_need(c->used.suffixes, sizeof(plumbob_jazz_suffix)));
    plumbob_size_add(&need, plumbob_arena_need(c->used.animations, sizeof(plumbob_jazz_animation)));
    return need;
}

plumbob_result plumbob_jazz_measure_ex(const void *data, size_t size, size_t *arena_bytes, plumbob_error *err) {
    jz_ctx c;
    plumbob_jazz j;
    plumbob_result res;
    plumbob_error_clear(err);
    if (!arena_bytes)
        return pb_note(err, PLUMBOB_ERR_INVALID_ARGUMENT, 0, "arguments", PLUMBOB_ERROR_NO_INDEX, "NULL pointer");
    *arena_bytes = SIZE_MAX; /* the sizing rule: SIZE_MAX on any error */
    if (!data)
        return pb_note(err, PLUMBOB_ERR_INVALID_ARGUMENT, 0, "arguments", PLUMBOB_ERROR_NO_INDEX, "NULL pointer");
    res = count_pass(data, size, &c, &j, err);
    if (res == PLUMBOB_OK) *arena_bytes = need_for(&c, &j);
    return res;
}

plumbob_result plumbob_jazz_measure(const void *data, size_t size, size_t *arena_bytes) {
    return plumbob_jazz_measure_ex(data, size, arena_bytes, NULL);
}

#define ALLOC(arena, n, T) ((T *)plumbob_arena_alloc_array((arena), (n), sizeof(T), 0))

plumbob_result plumbob_jazz_decode_ex(const void *data, size_t size, plumbob_arena *arena, plumbob_jazz *jazz,
                                      plumbob_error *err) {
    jz_ctx c;
    plumbob_jazz j;
    plumbob_result res;
    size_t mark;
    jz_pools counted;
    plumbob_error_clear(err);
    if (!data || !arena || !jazz)
        return pb_note(err, PLUMBOB_ERR_INVALID_ARGUMENT, 0, "arguments", PLUMBOB_ERROR_NO_INDEX, "NULL pointer");
    res = count_pass(data, size, &c, &j, err);
    if (res != PLUMBOB_OK) return res;
    counted = c.used;
    mark = plumbob_arena_mark(arena);
    c.chunks = ALLOC(arena, j.chunk_count, plumbob_jazz_chunk);
    c.externals = ALLOC(arena, j.external_count, plumbob_jazz_key);
    c.actors = ALLOC(arena, c.kind_count[PLUMBOB_JAZZ_ACTOR], plumbob_jazz_actor);
    c.params = ALLOC(arena, c.kind_count[PLUMBOB_JAZZ_PARAM], plumbob_jazz_param);
    c.states = ALLOC(arena, c.kind_count[PLUMBOB_JAZZ_STATE], plumbob_jazz_state);
    c.graphs = ALLOC(arena, c.kind_count[PLUMBOB_JAZZ_GRAPH], plumbob_jazz_graph);
    c.nodes = ALLOC(arena, c.kind_count[PLUMBOB_JAZZ_NODE], plumbob_jazz_node);
    c.u32s = ALLOC(arena, counted.u32s, uint32_t);
    c.branches = ALLOC(arena, counted.branches, plumbob_jazz_branch);
    c.slots = ALLOC(arena, counted.slots, plumbob_jazz_slot);
    c.suffixes = ALLOC(arena, counted.suffixes, plumbob_jazz_suffix);
    c.animations = ALLOC(arena, counted.animations, plumbob_jazz_animation);
    if (!c.chunks || !c.externals || !c.actors || !c.params || !c.states || !c.graphs || !c.nodes || !c.u32s ||
        !c.branches || !c.slots || !c.suffixes || !c.animations) {
        plumbob_arena_reset(arena, mark);
        return pb_note(err, PLUMBOB_ERR_OUT_OF_MEMORY, 0, "arena", PLUMBOB_ERROR_NO_INDEX,
                       "the arena is smaller than plumbob_jazz_measure says");
    }
    j.chunks = c.chunks;
    j.externals = c.externals;
    j.actor_count = c.kind_count[PLUMBOB_JAZZ_ACTOR];
    j.param_count = c.kind_count[PLUMBOB_JAZZ_PARAM];
    j.state_count = c.kind_count[PLUMBOB_JAZZ_STATE];
    j.graph_count = c.kind_count[PLUMBOB_JAZZ_GRAPH];
    j.node_count = c.kind_count[PLUMBOB_JAZZ_NODE];
    j.actors = c.actors;
    j.params = c.params;
    j.states = c.states;
    j.graphs = c.graphs;
    j.nodes = c.nodes;
    c.store = true;
    c.j = &j;
    c.used = no_items;
    res = walk(&c, (const unsigned char *)data, size, &j, err);
    if (res != PLUMBOB_OK) {
        plumbob_arena_reset(arena, mark);
        return res;
    }
    *jazz = j;
    return PLUMBOB_OK;
}

plumbob_result plumbob_jazz_decode(const void *data, size_t size, plumbob_arena *arena, plumbob_jazz *jazz) {
    return plumbob_jazz_decode_ex(data, size, arena, jazz, NULL);
}

uint32_t plumbob_jazz_find_state(const plumbob_jazz *jazz, uint32_t name) {
    uint32_t i;
    if (!jazz) return PLUMBOB_JAZZ_NONE;
    for (i = 0; i < jazz->state_count; i++)
        if (jazz->states[i].name == name) return i;
    return PLUMBOB_JAZZ_NONE;
}

uint32_t plumbob_jazz_find_actor(const plumbob_jazz *jazz, uint32_t name) {
    uint32_t i;
    if (!jazz) return PLUMBOB_JAZZ_NONE;
    for (i = 0; i < jazz->actor_count; i++)
        if (jazz->actors[i].name == name) return i;
    return PLUMBOB_JAZZ_NONE;
}

uint32_t plumbob_jazz_find_param(const plumbob_jazz *jazz, uint32_t name) {
    uint32_t i;
    if (!jazz) return PLUMBOB_JAZZ_NONE;
    for (i = 0; i < jazz->param_count; i++)
        if (jazz->params[i].name == name) return i;
    return PLUMBOB_JAZZ_NONE;
}
