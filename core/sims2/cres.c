/* Sims 2 CRES decoding.  One walk over the blocks serves both the measure
 * call (adding up arena needs) and the decode (storing into the arena as it
 * reads).  Blocks have no size field: each known kind is read field by field
 * to find where the next begins; a kind plumbob does not know can only be
 * the last block. */
#include "plumbob/sims2.h"
#include "pb_bytes.h"
#include "pb_error.h"
#include "pb_rcol2.h"
#include "pb_finite.h"

typedef struct walk {
    plumbob_reader r;
    plumbob_arena *arena;  /* NULL: measure only */
    size_t need;           /* measure: arena bytes so far */
    plumbob_result error;  /* first non-reader error (out of memory) */
    uint32_t block;        /* the block being read */
    size_t bad_at;         /* a non-finite float: where, and what it is (NULL: none) */
    const char *bad_why;
} walk;

static void fail(walk *w, plumbob_result e) {
    plumbob_reader_fail(&w->r, e);
}

static int ok(const walk *w) {
    return plumbob_reader_ok(&w->r) && w->error == PLUMBOB_OK;
}

/* n elements of `size` bytes: counted when measuring, else from the arena. */
static void *take(walk *w, size_t n, size_t size) {
    void *p;
    if (!w->arena) {
        plumbob_size_add(&w->need, plumbob_arena_need(n, size));
        return NULL;
    }
    p = plumbob_arena_alloc_array(w->arena, n, size, 0);
    if (!p && w->error == PLUMBOB_OK) w->error = PLUMBOB_ERR_OUT_OF_MEMORY;
    return p;
}

/* The n floats that start `skip` floats after the reader's position must be
 * finite (issue 47): else the reader fails with PLUMBOB_ERR_BAD_DATA and the
 * walk keeps the float's offset. */
static void need_finite(walk *w, size_t skip, size_t n, const char *why) {
    size_t k;
    if (!ok(w) || plumbob_reader_remaining(&w->r) < 4 * (skip + n)) return; /* the reads fail by themselves */
    k = pb_first_nonfinite_le(w->r.data + w->r.pos + 4 * skip, n);
    if (k == n) return;
    w->bad_at = w->r.pos + 4 * (skip + k);
    w->bad_why = why;
    fail(w, PLUMBOB_ERR_BAD_DATA);
}

static int same(plumbob_string s, const char *lit) {
    size_t i;
    for (i = 0; i < s.len; i++)
        if (lit[i] == 0 || s.ptr[i] != lit[i]) return 0;
    return lit[i] == 0;
}

/* A class head; `expect` (may be NULL) is the class name it must have. */
static plumbob_cres_head read_head(walk *w, const char *expect) {
    plumbob_cres_head h;
    h.name = plumbob_read_string7(&w->r);
    h.id = plumbob_read_u32le(&w->r);
    h.version = plumbob_read_u32le(&w->r);
    if (expect && plumbob_reader_ok(&w->r) && !same(h.name, expect)) fail(w, PLUMBOB_ERR_BAD_MAGIC);
    return h;
}

static plumbob_cres_ref read_ref(walk *w) {
    plumbob_cres_ref ref = {0, 0, 0};
    ref.present = plumbob_read_u8(&w->r);
    if (ref.present) {
        ref.external = plumbob_read_u8(&w->r);
        ref.index = plumbob_read_u32le(&w->r);
    }
    return ref;
}

/* A u32 count of records of at least min_size bytes each: over the limit
 * bad_count, more than the bytes left truncated (the input ends early). */
static uint32_t read_count(walk *w, uint32_t limit, size_t min_size) {
    uint32_t n = plumbob_read_u32le(&w->r);
    if (plumbob_reader_ok(&w->r) && n > limit) fail(w, PLUMBOB_ERR_BAD_COUNT);
    if (plumbob_reader_ok(&w->r) && n > plumbob_reader_remaining(&w->r) / min_size) fail(w, PLUMBOB_ERR_TRUNCATED);
    return plumbob_reader_ok(&w->r) ? n : 0;
}

static const plumbob_cres_ref *read_refs(walk *w, uint32_t *count) {
    plumbob_cres_ref *v;
    uint32_t i, n = read_count(w, PLUMBOB_CRES_MAX_REFS, 1);
    *count = n;
    v = (plumbob_cres_ref *)take(w, n, sizeof *v);
    for (i = 0; i < n && ok(w); i++) {
        plumbob_cres_ref ref = read_ref(w);
        if (v) v[i] = ref;
    }
    return v;
}

static const plumbob_string *read_strings(walk *w, uint32_t n) {
    plumbob_string *v = (plumbob_string *)take(w, n, sizeof *v);
    uint32_t i;
    for (i = 0; i < n && ok(w); i++) {
        plumbob_string s = plumbob_read_string7(&w->r);
        if (v) v[i] = s;
    }
    return v;
}

/* cObjectGraphNode (head included): extensions, tag from version 4. */
static void read_graph(walk *w, plumbob_cres_node *n) {
    n->graph = read_head(w, "cObjectGraphNode");
    n->extensions = read_refs(w, &n->extension_count);
    n->tag.ptr = NULL;
    n->tag.len = 0;
    if (n->graph.version >= 4) n->tag = plumbob_read_string7(&w->r);
}

/* cCompositionTreeNode (head included) with its graph and children. */
static void read_tree(walk *w, plumbob_cres_node *n) {
    n->tree = read_head(w, "cCompositionTreeNode");
    read_graph(w, n);
    n->children = read_refs(w, &n->child_count);
}

static void read_transform(walk *w, plumbob_cres_transform *t) {
    read_tree(w, &t->node);
    need_finite(w, 0, 3, "non-finite translation");
    need_finite(w, 3, 4, "non-finite rotation");
    t->translation.x = plumbob_read_f32le(&w->r);
    t->translation.y = plumbob_read_f32le(&w->r);
    t->translation.z = plumbob_read_f32le(&w->r);
    t->rotation.x = plumbob_read_f32le(&w->r);
    t->rotation.y = plumbob_read_f32le(&w->r);
    t->rotation.z = plumbob_read_f32le(&w->r);
    t->rotation.w = plumbob_read_f32le(&w->r);
    t->joint = plumbob_read_u32le(&w->r);
}

static void read_resource(walk *w, plumbob_cres_resource *rn) {
    rn->form = plumbob_read_u8(&w->r);
    if (!ok(w)) return;
    if (rn->form == 1) {
        rn->sg = read_head(w, "cSGResource");
        rn->name = plumbob_read_string7(&w->r);
        read_tree(w, &rn->node);
    } else if (rn->form == 0) {
        plumbob_cres_head none = {{NULL, 0}, 0, 0};
        rn->sg = none;
        rn->name = none.name;
        rn->node.tree = none;
        read_graph(w, &rn->node);
        rn->node.child_count = 0;
        rn->node.children = NULL;
    } else {
        fail(w, PLUMBOB_ERR_BAD_DATA);
        return;
    }
    rn->location = read_ref(w);
    rn->skin_type = plumbob_read_u32le(&w->r);
}

static void read_shape_ref(walk *w, uint32_t version, plumbob_cres_shape_ref *s) {
    s->renderable = read_head(w, "cRenderableNode");
    s->bounded = read_head(w, "cBoundedNode");
    s->transform_head = read_head(w, "cTransformNode");
    read_transform(w, &s->transform);
    s->bounded_flag = plumbob_read_u8(&w->r);
    s->all_groups = plumbob_read_u8(&w->r);
    s->group_count = read_count(w, PLUMBOB_CRES_MAX_REFS, 1);
    s->groups = read_strings(w, s->group_count);
    s->group_id = plumbob_read_u32le(&w->r);
    s->display = plumbob_read_u8(&w->r);
    s->shapes = read_refs(w, &s->shape_count);
    s->display_flags = plumbob_read_u32le(&w->r);
    s->morph_count = read_count(w, PLUMBOB_CRES_MAX_REFS, 4);
    s->morph_weights = plumbob_read_bytes(&w->r, (size_t)s->morph_count * 4u);
    s->morph_names = NULL;
    if (version >= 21) s->morph_names = read_strings(w, s->morph_count);
    s->data_size = read_count(w, UINT32_MAX, 1);
    s->data = plumbob_read_bytes(&w->r, s->data_size);
    s->colour = version >= 20 ? plumbob_read_u32le(&w->r) : 0u;
}

/* One data list item and everything nested in it, without recursion:
 * left[d] counts the items still to read at nesting level d (the top item
 * is level 0; a list at level d holds items of level d + 1, and a list at
 * level PLUMBOB_CRES_MAX_LIST_DEPTH is refused).  *count gets the top
 * item's list length. */
static void skip_item(walk *w, uint32_t *count) {
    uint32_t left[PLUMBOB_CRES_MAX_LIST_DEPTH + 1u];
    unsigned depth = 0;
    left[0] = 1;
    *count = 0;
    for (;;) {
        uint8_t type;
        if (!ok(w)) return;
        if (left[depth] == 0) {
            if (depth == 0) return;
            depth--;
            continue;
        }
        left[depth]--;
        type = plumbob_read_u8(&w->r);
        plumbob_read_string7(&w->r);
        if (!ok(w)) return;
        switch (type) {
        case 1: plumbob_reader_skip(&w->r, 1); break;
        case 2: case 3: plumbob_reader_skip(&w->r, 4); break;
        case 4: plumbob_reader_skip(&w->r, 8); break;
        case 5: plumbob_reader_skip(&w->r, 12); break;
        case 6: plumbob_read_string7(&w->r); break;
        case 8: plumbob_reader_skip(&w->r, 16); break;
        case 9: plumbob_reader_skip(&w->r, plumbob_read_u32le(&w->r)); break;
        case 7: {
            uint32_t n;
            if (depth >= PLUMBOB_CRES_MAX_LIST_DEPTH) {
                fail(w, PLUMBOB_ERR_BAD_DATA);
                return;
            }
            n = read_count(w, UINT32_MAX, 2);
            if (depth == 0) *count = n;
            left[++depth] = n;
            break;
        }
        default: fail(w, PLUMBOB_ERR_BAD_DATA); return;
        }
    }
}

static void read_data_list(walk *w, plumbob_cres_data_list *d) {
    size_t start;
    plumbob_reader peek;
    d->extension = read_head(w, "cExtension");
    start = w->r.pos;
    peek = w->r;
    d->item_type = plumbob_read_u8(&peek);
    d->item_name = plumbob_read_string7(&peek);
    skip_item(w, &d->item_count);
    d->items = w->r.data + start;
    d->items_size = w->r.pos - start;
}

static void read_bone_data(walk *w, uint32_t version, plumbob_cres_bone_data *b) {
    b->extension = read_head(w, "cExtension");
    b->heading_axis = (int32_t)plumbob_read_u32le(&w->r);
    b->mirror_axis = (int32_t)plumbob_read_u32le(&w->r);
    b->stretch_axis = (int32_t)plumbob_read_u32le(&w->r);
    need_finite(w, 0, 1, "non-finite stretch");
    b->stretch = plumbob_read_f32le(&w->r);
    b->orientation = plumbob_quat_identity();
    if (version >= 4) {
        need_finite(w, 0, 4, "non-finite joint orientation");
        b->orientation.x = plumbob_read_f32le(&w->r);
        b->orientation.y = plumbob_read_f32le(&w->r);
        b->orientation.z = plumbob_read_f32le(&w->r);
        b->orientation.w = plumbob_read_f32le(&w->r);
    }
}

static const struct {
    uint32_t id;
    uint32_t kind;
    const char *name;
} kinds[] = {
    {PLUMBOB_CRES_RESOURCE_NODE, PLUMBOB_CRES_KIND_RESOURCE, "cResourceNode"},
    {PLUMBOB_CRES_TRANSFORM_NODE, PLUMBOB_CRES_KIND_TRANSFORM, "cTransformNode"},
    {PLUMBOB_CRES_SHAPE_REF_NODE, PLUMBOB_CRES_KIND_SHAPE_REF, "cShapeRefNode"},
    {PLUMBOB_CRES_DATA_LIST_EXTENSION, PLUMBOB_CRES_KIND_DATA_LIST, "cDataListExtension"},
    {PLUMBOB_CRES_BONE_DATA_EXTENSION, PLUMBOB_CRES_KIND_BONE_DATA, "cBoneDataExtension"},
};

static void read_block(walk *w, const plumbob_sims2_rcol *rc, uint32_t i, plumbob_cres_block *b) {
    size_t k;
    b->head = read_head(w, NULL);
    if (!ok(w)) return;
    if (b->head.id != plumbob_sims2_rcol_block_id(rc, i)) {
        fail(w, PLUMBOB_ERR_BAD_MAGIC);
        return;
    }
    b->kind = PLUMBOB_CRES_KIND_UNKNOWN;
    for (k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        if (kinds[k].id != b->head.id) continue;
        if (!same(b->head.name, kinds[k].name)) {
            fail(w, PLUMBOB_ERR_BAD_MAGIC);
            return;
        }
        b->kind = kinds[k].kind;
    }
    if (i == 0 && b->kind != PLUMBOB_CRES_KIND_RESOURCE) {
        fail(w, PLUMBOB_ERR_BAD_MAGIC);
        return;
    }
    switch (b->kind) {
    case PLUMBOB_CRES_KIND_RESOURCE: read_resource(w, &b->u.resource); break;
    case PLUMBOB_CRES_KIND_TRANSFORM: read_transform(w, &b->u.transform); break;
    case PLUMBOB_CRES_KIND_SHAPE_REF: read_shape_ref(w, b->head.version, &b->u.shape_ref); break;
    case PLUMBOB_CRES_KIND_DATA_LIST: read_data_list(w, &b->u.data_list); break;
    case PLUMBOB_CRES_KIND_BONE_DATA: read_bone_data(w, b->head.version, &b->u.bone_data); break;
    default:
        /* no size field: only the last block's end is known */
        if (i + 1 != rc->block_count) {
            fail(w, PLUMBOB_ERR_UNSUPPORTED);
            return;
        }
        b->u.raw.size = plumbob_reader_remaining(&w->r);
        b->u.raw.bytes = plumbob_read_bytes(&w->r, b->u.raw.size);
        break;
    }
}

static plumbob_result check_refs(const plumbob_cres *c, const plumbob_cres_ref *v, uint32_t n) {
    uint32_t i;
    for (i = 0; i < n; i++) {
        if (!v[i].present) continue;
        if (v[i].index >= (v[i].external ? c->rcol.link_count : c->block_count)) return PLUMBOB_ERR_BAD_INDEX;
    }
    return PLUMBOB_OK;
}

static plumbob_result check_node(const plumbob_cres *c, const plumbob_cres_node *n) {
    plumbob_result r = check_refs(c, n->extensions, n->extension_count);
    return r != PLUMBOB_OK ? r : check_refs(c, n->children, n->child_count);
}

static plumbob_result validate(const plumbob_cres *c) {
    uint32_t i;
    plumbob_result r = PLUMBOB_OK;
    for (i = 0; i < c->block_count && r == PLUMBOB_OK; i++) {
        const plumbob_cres_block *b = &c->blocks[i];
        switch (b->kind) {
        case PLUMBOB_CRES_KIND_RESOURCE:
            r = check_node(c, &b->u.resource.node);
            if (r == PLUMBOB_OK) r = check_refs(c, &b->u.resource.location, 1);
            break;
        case PLUMBOB_CRES_KIND_TRANSFORM: r = check_node(c, &b->u.transform.node); break;
        case PLUMBOB_CRES_KIND_SHAPE_REF:
            r = check_node(c, &b->u.shape_ref.transform.node);
            if (r == PLUMBOB_OK) r = check_refs(c, b->u.shape_ref.shapes, b->u.shape_ref.shape_count);
            break;
        default: break;
        }
    }
    return r;
}

/* Reads every block; blocks NULL when measuring. */
static plumbob_result run(walk *w, const plumbob_cres *c, plumbob_cres_block *blocks) {
    uint32_t i;
    plumbob_reader_seek(&w->r, c->rcol.first_block_offset);
    for (i = 0; i < c->block_count && ok(w); i++) {
        plumbob_cres_block scratch, *b = blocks ? &blocks[i] : &scratch;
        w->block = i;
        read_block(w, &c->rcol, i, b);
    }
    if (ok(w) && plumbob_reader_remaining(&w->r) != 0) fail(w, PLUMBOB_ERR_BAD_DATA);
    if (!plumbob_reader_ok(&w->r)) return w->r.error;
    return w->error;
}

static plumbob_result open_cres(const void *data, size_t size, plumbob_cres *c, walk *w, plumbob_arena *arena,
                                plumbob_error *err) {
    plumbob_result res;
    {
        plumbob_cres empty = {0};
        *c = empty;
    }
    c->data = (const unsigned char *)data;
    c->size = size;
    plumbob_reader_init(&w->r, data, size);
    w->arena = arena;
    w->need = 0;
    w->error = PLUMBOB_OK;
    w->block = 0;
    w->bad_at = 0;
    w->bad_why = NULL;
    res = pb_rcol2_open(&c->rcol, data, size, PLUMBOB_TYPE_CRES, err); /* notes where it refused */
    if (res != PLUMBOB_OK) return res;
    c->block_count = c->rcol.block_count;
    return PLUMBOB_OK;
}

/* The first failure of open_cres or run, at the reader's position (0 when
 * the RCOL header itself is refused). */
static plumbob_result cres_fail(plumbob_error *err, plumbob_result res, const walk *w, bool opened,
                                const void *data, size_t size) {
    size_t at = opened ? pb_reader_at(&w->r, (const unsigned char *)data, size) : 0u;
    if (opened && res == PLUMBOB_ERR_BAD_DATA && w->bad_why)
        return pb_note(err, res, w->bad_at, "block", w->block, w->bad_why);
    return pb_note(err, res, at, opened ? "cres" : "rcol", PLUMBOB_ERROR_NO_INDEX, pb_reason(res));
}

plumbob_result plumbob_cres_measure_ex(const void *data, size_t size, size_t *arena_bytes, plumbob_error *err) {
    plumbob_cres c;
    walk w;
    plumbob_result res;
    plumbob_error_clear(err);
    if (!arena_bytes)
        return pb_note(err, PLUMBOB_ERR_INVALID_ARGUMENT, 0, "arguments", PLUMBOB_ERROR_NO_INDEX, "NULL pointer");
    *arena_bytes = SIZE_MAX; /* the sizing rule: bad input is SIZE_MAX, never 0 */
    if (!data)
        return pb_note(err, PLUMBOB_ERR_INVALID_ARGUMENT, 0, "arguments", PLUMBOB_ERROR_NO_INDEX, "NULL pointer");
    res = open_cres(data, size, &c, &w, NULL, err);
    if (res != PLUMBOB_OK) return cres_fail(err, res, &w, false, data, size);
    plumbob_size_add(&w.need, plumbob_arena_need(c.block_count, sizeof(plumbob_cres_block)));
    res = run(&w, &c, NULL);
    if (res != PLUMBOB_OK) return cres_fail(err, res, &w, true, data, size);
    *arena_bytes = w.need;
    return PLUMBOB_OK;
}

plumbob_result plumbob_cres_measure(const void *data, size_t size, size_t *arena_bytes) {
    return plumbob_cres_measure_ex(data, size, arena_bytes, NULL);
}

plumbob_result plumbob_cres_decode_ex(const void *data, size_t size, plumbob_arena *arena, plumbob_cres *c,
                                      plumbob_error *err) {
    walk w;
    plumbob_result res;
    size_t mark;
    plumbob_cres_block *blocks;
    plumbob_error_clear(err);
    if (!data || !arena || !c)
        return pb_note(err, PLUMBOB_ERR_INVALID_ARGUMENT, 0, "arguments", PLUMBOB_ERROR_NO_INDEX, "NULL pointer");
    mark = plumbob_arena_mark(arena);
    res = open_cres(data, size, c, &w, arena, err);
    if (res != PLUMBOB_OK) return cres_fail(err, res, &w, false, data, size);
    blocks = (plumbob_cres_block *)plumbob_arena_alloc_array(arena, c->block_count, sizeof *blocks, 0);
    if (!blocks)
        return pb_note(err, PLUMBOB_ERR_OUT_OF_MEMORY, 0, "arena", PLUMBOB_ERROR_NO_INDEX,
                       "the arena is smaller than plumbob_cres_measure says");
    res = run(&w, c, blocks);
    if (res != PLUMBOB_OK) {
        cres_fail(err, res, &w, true, data, size);
    } else {
        c->blocks = blocks;
        res = validate(c);
        if (res != PLUMBOB_OK)
            pb_note(err, res, c->rcol.first_block_offset, "cres", PLUMBOB_ERROR_NO_INDEX,
                    "a block refers to a block or link that is not there");
    }
    if (res != PLUMBOB_OK) {
        c->blocks = NULL;
        plumbob_arena_reset(arena, mark);
    }
    return res;
}

plumbob_result plumbob_cres_decode(const void *data, size_t size, plumbob_arena *arena, plumbob_cres *c) {
    return plumbob_cres_decode_ex(data, size, arena, c, NULL);
}
