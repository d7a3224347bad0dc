/* The skeleton of a Sims 2 CRES: transform and shape reference nodes become
 * bones, ordered depth first from the resource node along child references.
 * Every block is expanded at most once, so a hostile reference graph (cycles,
 * shared children) costs at most one stack entry per reference. */
#include "plumbob/sims2.h"
#include "pb_finite.h"

static int is_node(const plumbob_cres_block *b) {
    return b->kind == PLUMBOB_CRES_KIND_TRANSFORM || b->kind == PLUMBOB_CRES_KIND_SHAPE_REF;
}

static const plumbob_cres_transform *transform_of(const plumbob_cres_block *b) {
    return b->kind == PLUMBOB_CRES_KIND_TRANSFORM ? &b->u.transform : &b->u.shape_ref.transform;
}

/* The child list a block carries, or NULL. */
static const plumbob_cres_node *node_of(const plumbob_cres_block *b) {
    switch (b->kind) {
    case PLUMBOB_CRES_KIND_RESOURCE: return &b->u.resource.node;
    case PLUMBOB_CRES_KIND_TRANSFORM: return &b->u.transform.node;
    case PLUMBOB_CRES_KIND_SHAPE_REF: return &b->u.shape_ref.transform.node;
    default: return NULL;
    }
}

/* A stored rotation (finite: checked by the caller) as a unit quaternion:
 * kept bit for bit when it is unit to within 1e-5 in squared length, else
 * normalized (zero: identity).  A rotation so long that its squared length
 * overflows is first divided by its largest component (exact enough: the
 * result is normalized anyway), so it keeps its direction. */
static plumbob_quat unit(plumbob_quat q) {
    float n2 = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
    if (n2 >= 0.99999f && n2 <= 1.00001f) return q;
    if (!pb_finite(n2)) {
        float m = q.x < 0 ? -q.x : q.x, a;
        a = q.y < 0 ? -q.y : q.y;
        if (a > m) m = a;
        a = q.z < 0 ? -q.z : q.z;
        if (a > m) m = a;
        a = q.w < 0 ? -q.w : q.w;
        if (a > m) m = a;
        q.x /= m;
        q.y /= m;
        q.z /= m;
        q.w /= m;
    }
    return plumbob_quat_normalize(q);
}

/* A transform the skeleton can use: every float finite (issue 47: the
 * builder refuses, it does not replace). */
static bool finite_transform(const plumbob_cres_transform *t) {
    return pb_finite(t->translation.x) && pb_finite(t->translation.y) && pb_finite(t->translation.z) &&
           pb_finite(t->rotation.x) && pb_finite(t->rotation.y) && pb_finite(t->rotation.z) &&
           pb_finite(t->rotation.w);
}

static uint32_t bone_total(const plumbob_cres *c) {
    uint32_t i, n = 0;
    for (i = 0; i < c->block_count; i++) n += is_node(&c->blocks[i]) ? 1u : 0u;
    return n;
}

/* Stack entries the walk can need: one root push per block plus one push
 * per child reference. */
static size_t stack_total(const plumbob_cres *c) {
    size_t n = c->block_count;
    uint32_t i;
    for (i = 0; i < c->block_count; i++) {
        const plumbob_cres_node *node = node_of(&c->blocks[i]);
        if (node) n += node->child_count;
    }
    return n;
}

size_t plumbob_cres_skeleton_size(const plumbob_cres *c) {
    size_t need = 0, bones;
    if (!c || (!c->blocks && c->block_count)) return SIZE_MAX;
    bones = bone_total(c);
    plumbob_size_add(&need, plumbob_arena_need(bones, sizeof(int32_t)));
    plumbob_size_add(&need, plumbob_arena_need(bones, sizeof(plumbob_bone_pose)));
    plumbob_size_add(&need, plumbob_arena_need(bones, sizeof(uint32_t)));
    plumbob_size_add(&need, plumbob_arena_need(bones, sizeof(plumbob_string)));
    plumbob_size_add(&need, plumbob_arena_need(bones, sizeof(uint32_t)));
    plumbob_size_add(&need, plumbob_arena_need(c->block_count, sizeof(int32_t)));
    plumbob_size_add(&need, plumbob_arena_need(bones, sizeof(uint32_t)));
    plumbob_size_add(&need, plumbob_arena_need(stack_total(c), 2u * sizeof(int32_t)));
    plumbob_size_add(&need, plumbob_arena_need(c->block_count ? c->block_count : 1u, 1u));
    return need;
}

typedef struct build {
    const plumbob_cres *c;
    int32_t *parent;
    plumbob_bone_pose *rest;
    uint32_t *hash, *block_of_bone, *joint_of_bone;
    plumbob_string *name;
    int32_t *bone_of_block; /* -1 unvisited, -2 visited block that is no bone */
    int32_t *stack;         /* pairs: block, parent bone */
    size_t stack_cap;
    uint32_t bones;
} build;

static void walk_from(build *k, uint32_t root) {
    size_t sp = 0;
    k->stack[0] = (int32_t)root;
    k->stack[1] = -1;
    sp = 1;
    while (sp > 0) {
        const plumbob_cres_block *b;
        const plumbob_cres_node *node;
        uint32_t blk, i;
        int32_t par, me;
        sp--;
        blk = (uint32_t)k->stack[2 * sp];
        par = k->stack[2 * sp + 1];
        b = &k->c->blocks[blk];
        if (k->bone_of_block[blk] != -1) continue; /* expanded already */
        node = node_of(b);
        if (!node) {
            k->bone_of_block[blk] = -2;
            continue;
        }
        if (is_node(b)) {
            const plumbob_cres_transform *t = transform_of(b);
            uint32_t bone = k->bones++;
            k->parent[bone] = par;
            k->rest[bone].rotation = unit(t->rotation);
            k->rest[bone].translation = t->translation;
            k->rest[bone].scale.x = k->rest[bone].scale.y = k->rest[bone].scale.z = 1.0f;
            k->name[bone] = t->node.tag;
            k->hash[bone] = plumbob_fnv32(t->node.tag.ptr, t->node.tag.len);
            k->block_of_bone[bone] = blk;
            k->joint_of_bone[bone] = b->kind == PLUMBOB_CRES_KIND_TRANSFORM ? t->joint : PLUMBOB_CRES_NO_JOINT;
            k->bone_of_block[blk] = (int32_t)bone;
            me = (int32_t)bone;
        } else {
            k->bone_of_block[blk] = -2; /* a resource node: its children hang where it does */
            me = par;
        }
        /* children pushed last first, so they are expanded in listed order */
        for (i = node->child_count; i-- > 0;) {
            const plumbob_cres_ref *r = &node->children[i];
            if (!r->present || r->external || r->index >= k->c->block_count) continue;
            if (k->bone_of_block[r->index] != -1 || sp >= k->stack_cap) continue;
            k->stack[2 * sp] = (int32_t)r->index;
            k->stack[2 * sp + 1] = me;
            sp++;
        }
    }
}

plumbob_result plumbob_cres_skeleton_build(const plumbob_cres *c, plumbob_arena *arena,
                                           plumbob_cres_skeleton *out) {
    build k;
    uint32_t i, bones;
    unsigned char *listed; /* scratch: whether an unreached node lists the block */
    size_t mark;
    if (!c || !arena || !out || (!c->blocks && c->block_count)) return PLUMBOB_ERR_INVALID_ARGUMENT;
    if (c->block_count > (uint32_t)INT32_MAX) return PLUMBOB_ERR_INVALID_ARGUMENT;
    /* the decoder refuses non-finite transforms; a caller-built CRES may
     * still carry one, and a skeleton made of it would spread NaN */
    for (i = 0; i < c->block_count; i++)
        if (is_node(&c->blocks[i]) && !finite_transform(transform_of(&c->blocks[i]))) return PLUMBOB_ERR_BAD_DATA;
    mark = plumbob_arena_mark(arena);
    bones = bone_total(c);
    k.c = c;
    k.bones = 0;
    k.parent = (int32_t *)plumbob_arena_alloc_array(arena, bones, sizeof(int32_t), 0);
    k.rest = (plumbob_bone_pose *)plumbob_arena_alloc_array(arena, bones, sizeof(plumbob_bone_pose), 0);
    k.hash = (uint32_t *)plumbob_arena_alloc_array(arena, bones, sizeof(uint32_t), 0);
    k.name = (plumbob_string *)plumbob_arena_alloc_array(arena, bones, sizeof(plumbob_string), 0);
    k.block_of_bone = (uint32_t *)plumbob_arena_alloc_array(arena, bones, sizeof(uint32_t), 0);
    k.bone_of_block = (int32_t *)plumbob_arena_alloc_array(arena, c->block_count, sizeof(int32_t), 0);
    k.joint_of_bone = (uint32_t *)plumbob_arena_alloc_array(arena, bones, sizeof(uint32_t), 0);
    k.stack_cap = stack_total(c);
    /* the stack is scratch: given back below */
    {
        size_t keep = plumbob_arena_mark(arena);
        k.stack = (int32_t *)plumbob_arena_alloc_array(arena, k.stack_cap, 2u * sizeof(int32_t), 0);
        if (!k.parent || !k.rest || !k.hash || !k.name || !k.block_of_bone || !k.bone_of_block ||
            !k.joint_of_bone || !k.stack) {
            plumbob_arena_reset(arena, mark);
            return PLUMBOB_ERR_OUT_OF_MEMORY;
        }
        for (i = 0; i < c->block_count; i++) k.bone_of_block[i] = -1;
        if (c->block_count > 0) walk_from(&k, 0);
        /* Nodes the resource node does not reach (a form-0 resource node
         * lists nothing): each still hangs under a node that lists it, in
         * whatever order the blocks lie, so the walks start only from the
         * nodes no unreached node lists; then from any left (a cycle). */
        listed = (unsigned char *)plumbob_arena_alloc_array(arena, c->block_count ? c->block_count : 1u, 1u, 0);
        if (!listed) {
            plumbob_arena_reset(arena, mark);
            return PLUMBOB_ERR_OUT_OF_MEMORY;
        }
        for (i = 0; i < c->block_count; i++) listed[i] = 0;
        for (i = 0; i < c->block_count; i++) {
            const plumbob_cres_node *node = node_of(&c->blocks[i]);
            uint32_t j;
            if (!node || k.bone_of_block[i] != -1) continue;
            for (j = 0; j < node->child_count; j++) {
                const plumbob_cres_ref *r = &node->children[j];
                if (r->present && !r->external && r->index < c->block_count && r->index != i) listed[r->index] = 1;
            }
        }
        for (i = 0; i < c->block_count; i++)
            if (k.bone_of_block[i] == -1 && node_of(&c->blocks[i]) && !listed[i]) walk_from(&k, i);
        for (i = 0; i < c->block_count; i++)
            if (k.bone_of_block[i] == -1 && is_node(&c->blocks[i])) walk_from(&k, i);
        for (i = 0; i < c->block_count; i++)
            if (k.bone_of_block[i] < 0) k.bone_of_block[i] = -1;
        plumbob_arena_reset(arena, keep);
    }
    out->skeleton.bone_count = k.bones;
    out->skeleton.parent = k.parent;
    out->skeleton.rest = k.rest;
    out->skeleton.name_hash = k.hash;
    out->skeleton.name = k.name;
    out->block_of_bone = k.block_of_bone;
    out->bone_of_block = k.bone_of_block;
    out->joint_of_bone = k.joint_of_bone;
    return PLUMBOB_OK;
}

uint32_t plumbob_cres_joint_map(const plumbob_cres_skeleton *s, uint32_t joint_count, int32_t *bone_of_joint) {
    uint32_t i, found = 0;
    if (!s || !bone_of_joint || !s->joint_of_bone) return 0;
    for (i = 0; i < joint_count; i++) bone_of_joint[i] = -1;
    for (i = 0; i < s->skeleton.bone_count && i <= (uint32_t)INT32_MAX; i++) {
        uint32_t j = s->joint_of_bone[i];
        if (j < joint_count && bone_of_joint[j] < 0) {
            bone_of_joint[j] = (int32_t)i;
            found++;
        }
    }
    return found;
}

int32_t plumbob_cres_find_bone(const plumbob_cres_skeleton *s, const char *name, size_t len) {
    uint32_t i;
    if (!s || !s->skeleton.name || (!name && len)) return -1;
    for (i = 0; i < s->skeleton.bone_count && i <= (uint32_t)INT32_MAX; i++) {
        plumbob_string n = s->skeleton.name[i];
        if (plumbob_name_equal(n.ptr, n.len, name, len)) return (int32_t)i;
    }
    return -1;
}
