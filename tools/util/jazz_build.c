/* Hosted jazz model builder (see jazz_build.h). */
#include <stdlib.h>
#include <string.h>
#include "jazz_build.h"

/* Versions and RCOL types the game writes for each node kind (../shared/specs/NOTES.md, outside the project; docs/FORMATS.md). */
static const uint32_t node_versions[PLUMBOB_JAZZ_NODE_KIND_COUNT] = {0x105, 0x104, 0x101, 0x101,
                                                                     0x101, 0x101, 0x100, 0x100};
static const uint32_t node_types[PLUMBOB_JAZZ_NODE_KIND_COUNT] = {
    0x02EEDB5Fu, 0x0344D438u, 0x02EEDB70u, 0x02EEDB92u, 0x02EEDBA5u, 0x02EEEBDCu, 0x02EEEBDDu, 0x02EEEBDEu};

/* Room for element n of *array (elem bytes each); 0 when out of memory. */
static int grow(jazz_build *b, void **array, uint32_t n, size_t elem) {
    void *p = realloc(*array, (size_t)(n + 1u) * elem);
    if (!p) {
        b->failed = 1;
        return 0;
    }
    *array = p;
    memset((unsigned char *)p + (size_t)n * elem, 0, elem);
    return 1;
}

/* A zeroed block freed by jazz_build_free. */
static void *keep(jazz_build *b, size_t bytes) {
    void **blocks = (void **)realloc(b->blocks, (b->block_count + 1u) * sizeof *blocks);
    void *p;
    if (!blocks) {
        b->failed = 1;
        return NULL;
    }
    b->blocks = blocks;
    p = calloc(1, bytes ? bytes : 1);
    if (!p) {
        b->failed = 1;
        return NULL;
    }
    b->blocks[b->block_count++] = p;
    return p;
}

void jazz_build_init(jazz_build *b, const char *name) {
    memset(b, 0, sizeof *b);
    b->jazz.rcol_version = 3;
    b->jazz.public_count = 1;
    b->jazz.machine.version = 0x202;
    b->jazz.machine.name = plumbob_fnv32_str(name);
    b->jazz.machine.properties = 1;   /* UnilateralActor, as most game machines */
    b->jazz.machine.priority = 10000; /* Normal */
    b->jazz.machine.awareness = 2;
    b->instance = plumbob_fnv64_str(name);
}

uint32_t jazz_build_actor(jazz_build *b, const char *name) {
    if (!grow(b, (void **)&b->actors, b->actor_count, sizeof *b->actors)) return 0;
    b->actors[b->actor_count].version = 0x100;
    b->actors[b->actor_count].name = plumbob_fnv32_str(name);
    return b->actor_count++;
}

uint32_t jazz_build_param(jazz_build *b, const char *name, const char *default_value) {
    if (!grow(b, (void **)&b->params, b->param_count, sizeof *b->params)) return 0;
    b->params[b->param_count].version = 0x100;
    b->params[b->param_count].name = plumbob_fnv32_str(name);
    b->params[b->param_count].default_value = plumbob_fnv32_str(default_value);
    return b->param_count++;
}

uint32_t jazz_build_state(jazz_build *b, const char *name, uint32_t flags) {
    plumbob_jazz_state *s;
    if (!grow(b, (void **)&b->states, b->state_count, sizeof *b->states) ||
        !grow(b, (void **)&b->graphs, b->state_count, sizeof *b->graphs))
        return 0;
    s = &b->states[b->state_count];
    s->version = 0x101;
    s->name = plumbob_fnv32_str(name);
    s->flags = flags;
    s->graph = b->state_count;
    s->awareness = 6; /* the common value */
    b->graphs[b->state_count].version = 0x101;
    return b->state_count++;
}

void *jazz_build_block(jazz_build *b, size_t bytes) { return keep(b, bytes); }

int jazz_build_animations(jazz_build *b, uint32_t count, const plumbob_jazz_animation *items) {
    plumbob_jazz_animation *p = (plumbob_jazz_animation *)keep(b, (size_t)count * sizeof *p);
    if (!p) return 0;
    if (count) memcpy(p, items, (size_t)count * sizeof *p);
    b->jazz.machine.animations = p;
    b->jazz.machine.animation_count = count;
    return 1;
}

const uint32_t *jazz_build_list(jazz_build *b, uint32_t count, const uint32_t *items) {
    uint32_t *p = (uint32_t *)keep(b, (size_t)count * sizeof *p);
    if (p && count) memcpy(p, items, (size_t)count * sizeof *p);
    return p;
}

void jazz_build_transitions(jazz_build *b, uint32_t state, uint32_t count, const uint32_t *to) {
    if (state >= b->state_count) return;
    b->states[state].transitions = jazz_build_list(b, count, to);
    b->states[state].transition_count = count;
}

void jazz_build_roots(jazz_build *b, uint32_t state, uint32_t count, const uint32_t *roots) {
    if (state >= b->state_count) return;
    b->graphs[state].roots = jazz_build_list(b, count, roots);
    b->graphs[state].root_count = count;
}

uint32_t jazz_build_node(jazz_build *b, uint32_t kind) {
    plumbob_jazz_node *n;
    if (kind >= PLUMBOB_JAZZ_NODE_KIND_COUNT || !grow(b, (void **)&b->nodes, b->node_count, sizeof *b->nodes))
        return 0;
    n = &b->nodes[b->node_count];
    n->kind = kind;
    n->version = node_versions[kind];
    if (kind == PLUMBOB_JAZZ_PLAY || kind == PLUMBOB_JAZZ_STOP) {
        plumbob_jazz_anim *a = kind == PLUMBOB_JAZZ_PLAY ? &n->u.play.anim : &n->u.stop;
        a->flags = 1; /* AtEnd, Smooth Jazz's default */
        a->priority = a->timing_priority = 10000;
        a->speed = 1.0f;
        a->actor = PLUMBOB_JAZZ_NONE;
        a->unknown[0] = 16;
        if (kind == PLUMBOB_JAZZ_PLAY) n->u.play.clip.type = PLUMBOB_TYPE_CLIP;
    }
    if (kind == PLUMBOB_JAZZ_PROP) {
        n->u.prop.actor = n->u.prop.param = PLUMBOB_JAZZ_NONE;
        n->u.prop.object.type = 0x139F7591u;
    }
    if (kind == PLUMBOB_JAZZ_ACTOR_OP) n->u.actor_op.actor = PLUMBOB_JAZZ_NONE;
    return b->node_count++;
}

uint32_t jazz_build_play(jazz_build *b, const char *clip, uint32_t actor) {
    uint32_t i = jazz_build_node(b, PLUMBOB_JAZZ_PLAY);
    plumbob_clip_key k;
    if (b->failed) return i;
    plumbob_clip_key_from_name(clip, strlen(clip), &k);
    b->nodes[i].u.play.clip.instance = k.instance;
    b->nodes[i].u.play.clip.group = k.group;
    b->nodes[i].u.play.anim.actor = actor;
    return i;
}

plumbob_jazz_branch *jazz_build_branches(jazz_build *b, uint32_t node, uint32_t count) {
    plumbob_jazz_branch *br = (plumbob_jazz_branch *)keep(b, (size_t)count * sizeof *br);
    if (br && node < b->node_count) {
        b->nodes[node].branches = br;
        b->nodes[node].branch_count = count;
    }
    return br;
}

/* Marks every node reachable from `n` (depth first, each node once). */
static void reach(const jazz_build *b, uint32_t n, unsigned char *seen, uint32_t *order, uint32_t *count) {
    const plumbob_jazz_node *node;
    uint32_t i, k;
    if (n >= b->node_count || seen[n]) return;
    seen[n] = 1;
    order[(*count)++] = n;
    node = &b->nodes[n];
    for (i = 0; i < node->child_count; i++) reach(b, node->children[i], seen, order, count);
    for (i = 0; i < node->branch_count; i++)
        for (k = 0; k < node->branches[i].child_count; k++) reach(b, node->branches[i].children[k], seen, order, count);
}

int jazz_build_finish(jazz_build *b) {
    plumbob_jazz *j = &b->jazz;
    uint32_t total = 1u + b->actor_count + b->param_count + 2u * b->state_count + b->node_count, k = 0, i;
    uint32_t *all = (uint32_t *)keep(b, (size_t)(b->actor_count + b->param_count + b->state_count) * sizeof(uint32_t));
    unsigned char *seen = (unsigned char *)keep(b, b->node_count);
    uint32_t *order = (uint32_t *)keep(b, (size_t)b->node_count * sizeof(uint32_t));
    b->chunks = (plumbob_jazz_chunk *)keep(b, (size_t)total * sizeof *b->chunks);
    if (b->failed) return 0;
    b->chunks[k].kind = PLUMBOB_JAZZ_MACHINE;
    b->chunks[k].key.instance = b->instance;
    b->chunks[k++].key.type = PLUMBOB_TYPE_JAZZ;
#define LAYOUT(arr, n, kind_, type_) \
    for (i = 0; i < (n); i++, k++) { \
        (arr)[i].chunk = k; \
        b->chunks[k].kind = (kind_); \
        b->chunks[k].index = i; \
        b->chunks[k].key.type = (type_); \
    }
    LAYOUT(b->actors, b->actor_count, PLUMBOB_JAZZ_ACTOR, 0x02EEDB2Fu)
    LAYOUT(b->params, b->param_count, PLUMBOB_JAZZ_PARAM, 0x02EEDB46u)
    LAYOUT(b->states, b->state_count, PLUMBOB_JAZZ_STATE, 0x02EEDAFEu)
    LAYOUT(b->graphs, b->state_count, PLUMBOB_JAZZ_GRAPH, 0x02EEDB18u)
    LAYOUT(b->nodes, b->node_count, PLUMBOB_JAZZ_NODE, node_types[b->nodes[i].kind])
#undef LAYOUT
    for (i = 0; i < b->actor_count; i++) all[i] = i;
    for (i = 0; i < b->param_count; i++) all[b->actor_count + i] = i;
    for (i = 0; i < b->state_count; i++) all[b->actor_count + b->param_count + i] = i;
    j->machine.actors = all;
    j->machine.actor_count = b->actor_count;
    j->machine.params = all + b->actor_count;
    j->machine.param_count = b->param_count;
    j->machine.states = all + b->actor_count + b->param_count;
    j->machine.state_count = b->state_count;
    /* each graph lists what its roots reach, in depth-first order */
    for (i = 0; i < b->state_count; i++) {
        uint32_t r, count = 0;
        memset(seen, 0, b->node_count);
        for (r = 0; r < b->graphs[i].root_count; r++) reach(b, b->graphs[i].roots[r], seen, order, &count);
        b->graphs[i].nodes = jazz_build_list(b, count, order);
        b->graphs[i].node_count = count;
    }
    j->chunk_count = total;
    j->chunks = b->chunks;
    j->actors = b->actors;
    j->actor_count = b->actor_count;
    j->params = b->params;
    j->param_count = b->param_count;
    j->states = b->states;
    j->state_count = b->state_count;
    j->graphs = b->graphs;
    j->graph_count = b->state_count;
    j->nodes = b->nodes;
    j->node_count = b->node_count;
    return !b->failed;
}

void jazz_build_free(jazz_build *b) {
    size_t i;
    for (i = 0; i < b->block_count; i++) free(b->blocks[i]);
    free(b->blocks);
    free(b->actors);
    free(b->params);
    free(b->states);
    free(b->graphs);
    free(b->nodes);
    memset(b, 0, sizeof *b);
}
