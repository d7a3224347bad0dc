/* Sims 3 jazz: a hand-built machine with every node kind through plumbob's
 * writer, runs over it (paths, selects, AvoidRepeats, next state,
 * substitution with ages, a cycle that must stop at the step limit),
 * malformed inputs, sweeps, and the real jazz resources of the corpus. */
#include <stdlib.h>
#include <string.h>
#include "test.h"
#include <float.h>
#include "pb_bytes.h"

/* ---- the synthetic machine --------------------------------------------- */

enum { S_ENTER, S_WALK, S_EXIT, S_JUMP, S_LOOP, S_SPIN, NSTATES };
enum { A_X, A_OBJECT, NACTORS };
enum { P_AGE, P_MOOD, NPARAMS };
#define NNODES 17
#define FIRST_STATE_CHUNK 5u
#define FIRST_GRAPH_CHUNK (FIRST_STATE_CHUNK + NSTATES)
#define FIRST_NODE_CHUNK (FIRST_GRAPH_CHUNK + NSTATES)
#define NCHUNKS (FIRST_NODE_CHUNK + NNODES)

static const char *state_names[NSTATES] = {"Enter", "Walk", "Exit", "Jump", "Loop", "Spin"};
static const uint64_t clip_walk = 0x0123456789ABCDEFull, clip_wave = 0x1111222233334444ull,
                      clip_a = 0x2A, clip_b = 0x2B, clip_c = 0x2C;

typedef struct machine {
    plumbob_jazz j;
    plumbob_jazz_chunk chunks[NCHUNKS];
    plumbob_jazz_actor actors[NACTORS];
    plumbob_jazz_param params[NPARAMS];
    plumbob_jazz_state states[NSTATES];
    plumbob_jazz_graph graphs[NSTATES];
    plumbob_jazz_node nodes[NNODES];
    plumbob_jazz_branch branches[8];
    plumbob_jazz_slot slot;
    plumbob_jazz_suffix suffix;
    plumbob_jazz_animation anim;
    uint32_t lists[96];
    unsigned char jump_name[64], additive[16];
    uint32_t list_used;
} machine;

static const uint32_t *list(machine *m, uint32_t n, const uint32_t *items) {
    uint32_t *p = m->lists + m->list_used;
    memcpy(p, items, n * sizeof *items);
    m->list_used += n;
    return p;
}

static plumbob_jazz_text utf16(unsigned char *buf, const char *s) {
    plumbob_jazz_text t;
    size_t i, n = strlen(s);
    for (i = 0; i < n; i++) {
        buf[2 * i] = (unsigned char)s[i];
        buf[2 * i + 1] = 0;
    }
    t.units = buf;
    t.length = (uint32_t)n;
    return t;
}

static void anim_fields(plumbob_jazz_anim *a, uint32_t actor) {
    memset(a, 0, sizeof *a);
    a->flags = 1;
    a->priority = 10000;
    a->blend_in = 0.25f;
    a->blend_out = 0.5f;
    a->speed = 1.0f;
    a->actor = actor;
    a->timing_priority = 10000;
    a->unknown[0] = 16;
}

static plumbob_jazz_node *node(machine *m, uint32_t i, uint32_t kind, uint32_t version) {
    plumbob_jazz_node *n = &m->nodes[i];
    memset(n, 0, sizeof *n);
    n->chunk = FIRST_NODE_CHUNK + i;
    n->kind = kind;
    n->version = version;
    m->chunks[n->chunk].kind = PLUMBOB_JAZZ_NODE;
    m->chunks[n->chunk].index = i;
    return n;
}

static void play_key(machine *m, uint32_t i, uint64_t clip, uint32_t actor) {
    plumbob_jazz_node *n = node(m, i, PLUMBOB_JAZZ_PLAY, 0x105);
    n->u.play.clip.instance = clip;
    n->u.play.clip.type = PLUMBOB_TYPE_CLIP;
    anim_fields(&n->u.play.anim, actor);
}

static void branch(plumbob_jazz_branch *b, uint32_t value, float weight, const uint32_t *children, uint32_t n) {
    b->value = value;
    b->weight = weight;
    b->children = children;
    b->child_count = n;
}

/* The machine described at the top of the file; node numbers in comments. */
static void build_machine(machine *m) {
    uint32_t i;
    plumbob_jazz_node *n;
    memset(m, 0, sizeof *m);
    m->j.rcol_version = 3;
    m->j.public_count = 1;
    m->j.chunk_count = NCHUNKS;
    m->j.chunks = m->chunks;
    m->chunks[0].kind = PLUMBOB_JAZZ_MACHINE;
    m->chunks[0].key.instance = plumbob_fnv64_str("synthetic");
    m->chunks[0].key.type = PLUMBOB_TYPE_JAZZ;
    for (i = 0; i < NACTORS; i++) {
        m->actors[i].chunk = 1 + i;
        m->actors[i].version = 0x100;
        m->actors[i].name = plumbob_fnv32_str(i == A_X ? "x" : "object");
        m->chunks[1 + i].kind = PLUMBOB_JAZZ_ACTOR;
        m->chunks[1 + i].index = i;
    }
    for (i = 0; i < NPARAMS; i++) {
        m->params[i].chunk = 3 + i;
        m->params[i].version = 0x100;
        m->params[i].name = plumbob_fnv32_str(i == P_AGE ? "age" : "mood");
        m->params[i].default_value = plumbob_fnv32_str(i == P_AGE ? "a" : "happy");
        m->chunks[3 + i].kind = PLUMBOB_JAZZ_PARAM;
        m->chunks[3 + i].index = i;
    }
    for (i = 0; i < NSTATES; i++) {
        m->states[i].chunk = FIRST_STATE_CHUNK + i;
        m->states[i].version = 0x101;
        m->states[i].name = plumbob_fnv32_str(state_names[i]);
        m->states[i].graph = i;
        m->states[i].awareness = 6;
        m->chunks[FIRST_STATE_CHUNK + i].kind = PLUMBOB_JAZZ_STATE;
        m->chunks[FIRST_STATE_CHUNK + i].index = i;
        m->graphs[i].chunk = FIRST_GRAPH_CHUNK + i;
        m->graphs[i].version = 0x101;
        m->chunks[FIRST_GRAPH_CHUNK + i].kind = PLUMBOB_JAZZ_GRAPH;
        m->chunks[FIRST_GRAPH_CHUNK + i].index = i;
    }
    m->states[S_ENTER].flags = PLUMBOB_JAZZ_STATE_PUBLIC | PLUMBOB_JAZZ_STATE_ENTRY;
    m->states[S_EXIT].flags = PLUMBOB_JAZZ_STATE_PUBLIC | PLUMBOB_JAZZ_STATE_EXIT;
    m->states[S_LOOP].flags = PLUMBOB_JAZZ_STATE_LOOP;
    {
        static const uint32_t enter_to[] = {S_LOOP, S_SPIN}, walk_to[] = {S_EXIT, S_JUMP}, jump_to[] = {S_EXIT},
                              loop_to[] = {S_WALK, S_ENTER};
        m->states[S_ENTER].transitions = list(m, 2, enter_to);
        m->states[S_ENTER].transition_count = 2;
        m->states[S_WALK].transitions = list(m, 2, walk_to);
        m->states[S_WALK].transition_count = 2;
        m->states[S_JUMP].transitions = list(m, 1, jump_to);
        m->states[S_JUMP].transition_count = 1;
        m->states[S_LOOP].transitions = list(m, 2, loop_to);
        m->states[S_LOOP].transition_count = 2;
    }
    /* n0: select on mood: happy -> n1, sad -> n3 */
    n = node(m, 0, PLUMBOB_JAZZ_SELECT_PARAM, 0x101);
    n->u.select.param = P_MOOD;
    { static const uint32_t c1[] = {1}, c3[] = {3};
      branch(&m->branches[0], plumbob_fnv32_str("happy"), 0, list(m, 1, c1), 1);
      branch(&m->branches[1], plumbob_fnv32_str("sad"), 0, list(m, 1, c3), 1); }
    n->branches = &m->branches[0];
    n->branch_count = 2;
    /* n1: play walk for x (a slot, a suffix), then n2 */
    play_key(m, 1, clip_walk, A_X);
    m->slot.chain = 1; m->slot.slot_id = 2; m->slot.actor = plumbob_fnv32_str("x"); m->slot.slot = 0x51075107u;
    m->suffix.actor = plumbob_fnv32_str("x"); m->suffix.suffix = plumbob_fnv32_str("mood");
    m->nodes[1].u.play.slots = &m->slot; m->nodes[1].u.play.slot_count = 1;
    m->nodes[1].u.play.suffixes = &m->suffix; m->nodes[1].u.play.suffix_count = 1;
    m->nodes[1].u.play.track_mask.instance = 0x77; m->nodes[1].u.play.track_mask.type = 0x033260E3u;
    { static const uint32_t c2[] = {2}; m->nodes[1].children = list(m, 1, c2); m->nodes[1].child_count = 1; }
    /* n2: play wave for object */
    play_key(m, 2, clip_wave, A_OBJECT);
    /* n3: next state Jump */
    n = node(m, 3, PLUMBOB_JAZZ_NEXT_STATE, 0x101);
    n->u.next.state = S_JUMP;
    /* n4: stop x; n5: mirror x */
    n = node(m, 4, PLUMBOB_JAZZ_STOP, 0x104);
    anim_fields(&n->u.stop, A_X);
    n = node(m, 5, PLUMBOB_JAZZ_ACTOR_OP, 0x100);
    n->u.actor_op.actor = A_X; n->u.actor_op.op = 1; n->u.actor_op.operand = 1;
    /* n6: play "{age}_jump" for x, with an additive name */
    n = node(m, 6, PLUMBOB_JAZZ_PLAY, 0x105);
    n->u.play.clip.type = PLUMBOB_TYPE_CLIP;
    n->u.play.name = utf16(m->jump_name, "{age}_jump");
    n->u.play.additive_name = utf16(m->additive, "abc");
    anim_fields(&n->u.play.anim, A_X);
    /* n7: random, AvoidRepeats: weights 1, 2, 3 -> n8, n9, n10 */
    n = node(m, 7, PLUMBOB_JAZZ_RANDOM, 0x101);
    n->u.random.flags = PLUMBOB_JAZZ_RANDOM_AVOID_REPEATS;
    { static const uint32_t c8[] = {8}, c9[] = {9}, c10[] = {10};
      branch(&m->branches[2], 0, 1.0f, list(m, 1, c8), 1);
      branch(&m->branches[3], 0, 2.0f, list(m, 1, c9), 1);
      branch(&m->branches[4], 0, 3.0f, list(m, 1, c10), 1); }
    n->branches = &m->branches[2];
    n->branch_count = 3;
    play_key(m, 8, clip_a, A_X);
    play_key(m, 9, clip_b, A_X);
    play_key(m, 10, clip_c, A_X);
    /* n11: select on destination: Exit -> n12, Walk -> n2 */
    n = node(m, 11, PLUMBOB_JAZZ_SELECT_DEST, 0x101);
    { static const uint32_t c12[] = {12}, c2[] = {2};
      branch(&m->branches[5], S_EXIT, 0, list(m, 1, c12), 1);
      branch(&m->branches[6], S_WALK, 0, list(m, 1, c2), 1); }
    n->branches = &m->branches[5];
    n->branch_count = 2;
    /* n12: create prop 0x1181 as object, then n2 */
    n = node(m, 12, PLUMBOB_JAZZ_PROP, 0x100);
    n->u.prop.actor = A_OBJECT;
    n->u.prop.param = PLUMBOB_JAZZ_NONE;
    n->u.prop.object.instance = 0x1181;
    n->u.prop.object.type = 0x139F7591u;
    { static const uint32_t c2[] = {2}; n->children = list(m, 1, c2); n->child_count = 1; }
    /* n13: an actor operation whose child is itself */
    n = node(m, 13, PLUMBOB_JAZZ_ACTOR_OP, 0x100);
    n->u.actor_op.actor = A_X;
    { static const uint32_t c13[] = {13}; n->children = list(m, 1, c13); n->child_count = 1; }
    /* n14: next state Enter (Jump has no transition there); n15, n16: next state Exit */
    n = node(m, 14, PLUMBOB_JAZZ_NEXT_STATE, 0x101);
    n->u.next.state = S_ENTER;
    n = node(m, 15, PLUMBOB_JAZZ_NEXT_STATE, 0x101);
    n->u.next.state = S_EXIT;
    n = node(m, 16, PLUMBOB_JAZZ_NEXT_STATE, 0x101);
    n->u.next.state = S_EXIT;
    /* graphs: Enter empty; Walk n0..n3 from n0; Exit n4, n5; Jump n6, n14..n16; Loop n7..n12 from n7, n11;
     * Spin n13 */
    { static const uint32_t walk_nodes[] = {0, 1, 2, 3}, walk_roots[] = {0}, exit_nodes[] = {4, 5},
                            jump_nodes[] = {6, 14, 15, 16}, loop_nodes[] = {7, 8, 9, 10, 11, 12}, loop_roots[] = {7, 11},
                            spin_nodes[] = {13};
      m->graphs[S_WALK].nodes = list(m, 4, walk_nodes); m->graphs[S_WALK].node_count = 4;
      m->graphs[S_WALK].roots = list(m, 1, walk_roots); m->graphs[S_WALK].root_count = 1;
      m->graphs[S_EXIT].nodes = list(m, 2, exit_nodes); m->graphs[S_EXIT].node_count = 2;
      m->graphs[S_EXIT].roots = m->graphs[S_EXIT].nodes; m->graphs[S_EXIT].root_count = 2;
      m->graphs[S_JUMP].nodes = list(m, 4, jump_nodes); m->graphs[S_JUMP].node_count = 4;
      m->graphs[S_JUMP].roots = m->graphs[S_JUMP].nodes; m->graphs[S_JUMP].root_count = 4;
      m->graphs[S_LOOP].nodes = list(m, 6, loop_nodes); m->graphs[S_LOOP].node_count = 6;
      m->graphs[S_LOOP].roots = list(m, 2, loop_roots); m->graphs[S_LOOP].root_count = 2;
      m->graphs[S_SPIN].nodes = list(m, 1, spin_nodes); m->graphs[S_SPIN].node_count = 1;
      m->graphs[S_SPIN].roots = m->graphs[S_SPIN].nodes; m->graphs[S_SPIN].root_count = 1; }
    /* the machine chunk */
    m->j.machine.version = 0x202;
    m->j.machine.name = plumbob_fnv32_str("synthetic");
    { static const uint32_t actors[] = {0, 1}, params[] = {0, 1}, states[] = {0, 1, 2, 3, 4, 5};
      m->j.machine.actors = list(m, 2, actors); m->j.machine.actor_count = 2;
      m->j.machine.params = list(m, 2, params); m->j.machine.param_count = 2;
      m->j.machine.states = list(m, 6, states); m->j.machine.state_count = 6; }
    m->anim.clip = plumbob_fnv32_str("a_walk.ma");
    m->anim.clip_actor = m->anim.jazz_actor = plumbob_fnv32_str("x");
    m->j.machine.animations = &m->anim;
    m->j.machine.animation_count = 1;
    m->j.machine.properties = 1;
    m->j.machine.priority = 10000;
    m->j.machine.awareness = 2;
    m->j.actors = m->actors; m->j.actor_count = NACTORS;
    m->j.params = m->params; m->j.param_count = NPARAMS;
    m->j.states = m->states; m->j.state_count = NSTATES;
    m->j.graphs = m->graphs; m->j.graph_count = NSTATES;
    m->j.nodes = m->nodes; m->j.node_count = NNODES;
    /* RCOL key types follow the chunk kinds */
    for (i = 1; i < NCHUNKS; i++) {
        static const uint32_t types[] = {0, 0x02EEDB2Fu, 0x02EEDB46u, 0x02EEDAFEu, 0x02EEDB18u, 0};
        static const uint32_t node_types[] = {0x02EEDB5Fu, 0x0344D438u, 0x02EEDB70u, 0x02EEDB92u,
                                              0x02EEDBA5u, 0x02EEEBDCu, 0x02EEEBDDu, 0x02EEEBDEu};
        uint32_t k = m->chunks[i].kind;
        m->chunks[i].key.type = k == PLUMBOB_JAZZ_NODE ? node_types[m->nodes[m->chunks[i].index].kind] : types[k];
    }
}

static machine g_machine;

/* The synthetic machine's bytes in t_scratch(); returns the size. */
static size_t build_bytes(void) {
    size_t n = 0;
    build_machine(&g_machine);
    CHECK_OK(plumbob_jazz_write(&g_machine.j, t_scratch(), T_SCRATCH_SIZE, &n));
    return n;
}

static plumbob_result decode(const unsigned char *data, size_t size, plumbob_jazz *j) {
    plumbob_arena arena;
    size_t need = 0;
    plumbob_result r = plumbob_jazz_measure(data, size, &need);
    plumbob_arena_init(&arena, t_arena_mem(), T_ARENA_SIZE);
    if (r == PLUMBOB_OK) {
        CHECK(need <= T_ARENA_SIZE);
        r = plumbob_jazz_decode(data, size, &arena, j);
        if (r == PLUMBOB_OK) CHECK(arena.used <= need);
    }
    return r;
}

void test_jazz_synthetic_round_trip(void) {
    unsigned char *buf = t_scratch(), *again = t_work();
    size_t n = build_bytes(), m = 0;
    plumbob_jazz j;
    uint32_t i;
    CHECK_EQ(plumbob_jazz_write_size(&g_machine.j), n);
    CHECK_OK(decode(buf, n, &j));
    CHECK_EQ(j.chunk_count, NCHUNKS);
    CHECK_EQ(j.state_count, NSTATES);
    CHECK_EQ(j.node_count, NNODES);
    CHECK_EQ(j.machine.name, plumbob_fnv32_str("synthetic"));
    CHECK_EQ(j.machine.animation_count, 1);
    CHECK_EQ(j.machine.animations[0].clip, plumbob_fnv32_str("a_walk.ma"));
    CHECK_EQ(j.states[S_LOOP].transition_count, 2);
    CHECK_EQ(j.states[S_LOOP].transitions[1], S_ENTER);
    CHECK_EQ(j.nodes[1].u.play.clip.instance, clip_walk);
    CHECK_EQ(j.nodes[1].u.play.slot_count, 1);
    CHECK_EQ(j.nodes[1].u.play.slots[0].slot, 0x51075107u);
    CHECK_EQ(j.nodes[1].u.play.suffixes[0].suffix, plumbob_fnv32_str("mood"));
    CHECK_EQ(j.nodes[1].u.play.track_mask.type, 0x033260E3u);
    CHECK_EQ(j.nodes[6].u.play.name.length, 10);
    CHECK(memcmp(j.nodes[6].u.play.name.units, "{\0a\0g\0e\0}\0_\0", 12) == 0);
    CHECK_EQ(j.nodes[6].u.play.additive_name.length, 3);
    CHECK_NEAR(j.nodes[7].branches[2].weight, 3.0, 0);
    CHECK_EQ(j.nodes[11].branches[0].value, S_EXIT);
    CHECK_EQ(j.nodes[12].u.prop.param, PLUMBOB_JAZZ_NONE);
    CHECK_EQ(j.nodes[12].u.prop.object.instance, 0x1181);
    CHECK_EQ(j.nodes[13].children[0], 13);
    CHECK_NEAR(j.nodes[4].u.stop.blend_out, 0.5, 0);
    CHECK_EQ(plumbob_jazz_find_state(&j, plumbob_fnv32_str("jump")), S_JUMP); /* names hash lowercased */
    CHECK_EQ(plumbob_jazz_find_actor(&j, plumbob_fnv32_str("object")), A_OBJECT);
    CHECK_EQ(plumbob_jazz_find_param(&j, plumbob_fnv32_str("nope")), PLUMBOB_JAZZ_NONE);
    /* decode -> write gives the same bytes */
    CHECK_OK(plumbob_jazz_write(&j, again, T_WORK_SIZE, &m));
    CHECK_EQ(m, n);
    CHECK(memcmp(again, buf, n) == 0);
    t_digest_bytes(buf, n);
    /* a too small output is refused */
    CHECK_EQ(plumbob_jazz_write(&j, again, n - 1, &m), PLUMBOB_ERR_OUT_OF_MEMORY);
    for (i = 0; i < 2; i++) {
        /* a typed index that names no chunk of its kind is refused by the writer */
        plumbob_jazz_state saved = g_machine.states[S_WALK];
        if (i == 0) g_machine.states[S_WALK].graph = 99;
        else g_machine.states[S_WALK].chunk = 0;
        CHECK_EQ(plumbob_jazz_write(&g_machine.j, again, T_WORK_SIZE, &m), PLUMBOB_ERR_INVALID_ARGUMENT);
        g_machine.states[S_WALK] = saved;
    }
}

/* ---- runs -------------------------------------------------------------- */

static plumbob_jazz g_jazz;
static plumbob_jazz_instance g_inst;
static plumbob_jazz_action g_actions[64];

/* Decodes the synthetic machine and starts an instance after it in the arena. */
static void start(uint32_t max_steps, uint32_t max_actions, const plumbob_key_table *names, uint64_t seed) {
    size_t n = build_bytes();
    plumbob_arena arena;
    plumbob_jazz_limits limits;
    limits.max_steps = max_steps;
    limits.max_actions = max_actions;
    plumbob_arena_init(&arena, t_arena_mem(), T_ARENA_SIZE);
    CHECK_OK(plumbob_jazz_decode(t_scratch(), n, &arena, &g_jazz));
    CHECK(plumbob_jazz_instance_size(&g_jazz, &limits) <= plumbob_arena_remaining(&arena, 0));
    CHECK_OK(plumbob_jazz_instance_init(&g_inst, &g_jazz, &limits, names, seed, &arena));
}

static size_t enter(const char *state) {
    size_t n = 99;
    CHECK_OK(plumbob_jazz_enter(&g_inst, plumbob_fnv32_str(state), g_actions, 64, &n));
    return n;
}

static size_t request(const char *state) {
    size_t n = 99;
    CHECK_OK(plumbob_jazz_request(&g_inst, plumbob_fnv32_str(state), g_actions, 64, &n));
    return n;
}

static void check_action(size_t i, uint32_t kind, uint32_t state, uint32_t node, uint32_t after) {
    CHECK_EQ(g_actions[i].kind, kind);
    CHECK_EQ(g_actions[i].state, state);
    CHECK_EQ(g_actions[i].node, node);
    CHECK_EQ(g_actions[i].after, after);
}

void test_jazz_run_paths(void) {
    size_t n;
    start(256, 64, NULL, 7);
    CHECK_OK(plumbob_jazz_bind_actor(&g_inst, plumbob_fnv32_str("x"), 41, PLUMBOB_AGE_GENERIC));
    CHECK_OK(plumbob_jazz_bind_actor(&g_inst, plumbob_fnv32_str("object"), 42, PLUMBOB_AGE_GENERIC));
    n = enter("Enter");
    CHECK_EQ(n, 1);
    check_action(0, PLUMBOB_JAZZ_ACTION_ENTER, S_ENTER, PLUMBOB_JAZZ_NONE, PLUMBOB_JAZZ_NONE);
    CHECK_EQ(g_inst.report.steps, 1);
    /* Enter -> Loop -> Walk -> Exit: the only path (Enter does not go to Walk) */
    g_actions[10].kind = 99;
    n = request("Exit");
    CHECK_EQ(n, 10);
    /* the search visits Enter, Loop, Spin, Walk (4 steps); 3 entries; 10 node visits */
    CHECK_EQ(g_inst.report.steps, 4 + 3 + 10);
    CHECK_EQ(g_inst.report.limit, PLUMBOB_JAZZ_LIMIT_NONE);
    check_action(0, PLUMBOB_JAZZ_ACTION_ENTER, S_LOOP, PLUMBOB_JAZZ_NONE, PLUMBOB_JAZZ_NONE);
    CHECK_EQ(g_actions[1].kind, PLUMBOB_JAZZ_ACTION_PLAY); /* the random pick */
    CHECK(g_actions[1].node >= 8 && g_actions[1].node <= 10);
    check_action(2, PLUMBOB_JAZZ_ACTION_PROP, S_LOOP, 12, PLUMBOB_JAZZ_NONE); /* destination Exit */
    CHECK_EQ(g_actions[2].prop.instance, 0x1181);
    CHECK_EQ(g_actions[2].handle, 42);
    check_action(3, PLUMBOB_JAZZ_ACTION_PLAY, S_LOOP, 2, 2); /* runs after the prop */
    check_action(4, PLUMBOB_JAZZ_ACTION_ENTER, S_WALK, PLUMBOB_JAZZ_NONE, PLUMBOB_JAZZ_NONE);
    check_action(5, PLUMBOB_JAZZ_ACTION_PLAY, S_WALK, 1, PLUMBOB_JAZZ_NONE); /* mood happy */
    CHECK_EQ(g_actions[5].clips[0].instance, clip_walk);
    CHECK_EQ(g_actions[5].clip_count, 1);
    CHECK_EQ(g_actions[5].handle, 41);
    CHECK_EQ(g_actions[5].play->slots[0].slot, 0x51075107u);
    CHECK_NEAR(g_actions[5].anim->blend_in, 0.25, 0);
    check_action(6, PLUMBOB_JAZZ_ACTION_PLAY, S_WALK, 2, 5); /* sequenced after the walk */
    CHECK_EQ(g_actions[6].clips[0].instance, clip_wave);
    check_action(7, PLUMBOB_JAZZ_ACTION_ENTER, S_EXIT, PLUMBOB_JAZZ_NONE, PLUMBOB_JAZZ_NONE);
    check_action(8, PLUMBOB_JAZZ_ACTION_STOP, S_EXIT, 4, PLUMBOB_JAZZ_NONE);
    check_action(9, PLUMBOB_JAZZ_ACTION_ACTOR_OP, S_EXIT, 5, PLUMBOB_JAZZ_NONE);
    CHECK_EQ(g_actions[9].op, 1);
    CHECK_EQ(g_actions[9].operand, 1);
    CHECK_EQ(g_actions[10].kind, 99); /* untouched: only 10 written */
    CHECK(plumbob_jazz_finished(&g_inst)); /* Exit carries the Exit flag */
    for (n = 0; n < 10; n++) {
        t_digest_u32(g_actions[n].kind);
        t_digest_u32(g_actions[n].node);
        t_digest_u32(g_actions[n].after);
    }
    /* already there: nothing to do; no way back from Exit, and the error says from where */
    CHECK_EQ(request("Exit"), 0);
    CHECK_EQ(plumbob_jazz_request(&g_inst, plumbob_fnv32_str("Enter"), g_actions, 64, &n), PLUMBOB_ERR_UNREACHABLE);
    CHECK_EQ(n, 0);
    CHECK_EQ(g_inst.report.state, S_EXIT);
    CHECK_EQ(g_inst.report.steps, 1); /* Exit has no transitions: one search visit */
    CHECK_EQ(g_inst.state, S_EXIT);
    /* an unknown name is not_found, not unreachable */
    CHECK_EQ(plumbob_jazz_request(&g_inst, plumbob_fnv32_str("Nowhere"), g_actions, 64, &n), PLUMBOB_ERR_NOT_FOUND);
    /* Loop's destination select on the way to Walk picks the other branch */
    CHECK_EQ(enter("Enter"), 1);
    CHECK(!plumbob_jazz_finished(&g_inst));
    n = request("Walk");
    CHECK_EQ(n, 6);
    check_action(2, PLUMBOB_JAZZ_ACTION_PLAY, S_LOOP, 2, PLUMBOB_JAZZ_NONE);
}

/* The action's Next State fields. */
static void check_next(size_t i, uint32_t node, uint32_t to, uint32_t status) {
    check_action(i, PLUMBOB_JAZZ_ACTION_NEXT_STATE, g_actions[i].state, node, PLUMBOB_JAZZ_NONE);
    CHECK_EQ(g_actions[i].next, to);
    CHECK_EQ(g_actions[i].next_status, status);
    t_digest_u32(g_actions[i].next_status);
}

void test_jazz_run_next_state_and_substitution(void) {
    static const unsigned char key_table[] = {1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 'a'};
    unsigned char kt_bytes[sizeof key_table];
    plumbob_key_table kt;
    plumbob_clip_key want[PLUMBOB_CLIP_MAX_FALLBACKS];
    size_t n, wn;
    uint32_t a_hash = plumbob_fnv32_str("a");
    memcpy(kt_bytes, key_table, sizeof kt_bytes);
    pb_put_le32(kt_bytes + 8, a_hash); /* instance = the hash of "a" */
    CHECK_OK(plumbob_key_table_open(&kt, kt_bytes, sizeof kt_bytes));

    /* mood sad: Walk's select reaches Next State Jump, which is on the route
     * to Jump; Jump plays "{age}_jump" with the default age named by the KEY
     * table, then three Next States: Enter (no transition from Jump), Exit
     * (left pending) and Exit again (the first decided) */
    start(256, 64, &kt, 1);
    CHECK_OK(plumbob_jazz_set_param(&g_inst, plumbob_fnv32_str("mood"), plumbob_fnv32_str("sad"), NULL, 0));
    enter("Enter");
    n = request("Jump");
    CHECK_EQ(n, 9);
    check_action(0, PLUMBOB_JAZZ_ACTION_ENTER, S_LOOP, PLUMBOB_JAZZ_NONE, PLUMBOB_JAZZ_NONE);
    check_action(2, PLUMBOB_JAZZ_ACTION_ENTER, S_WALK, PLUMBOB_JAZZ_NONE, PLUMBOB_JAZZ_NONE);
    check_next(3, 3, S_JUMP, PLUMBOB_JAZZ_NEXT_ON_ROUTE);
    check_action(4, PLUMBOB_JAZZ_ACTION_ENTER, S_JUMP, PLUMBOB_JAZZ_NONE, PLUMBOB_JAZZ_NONE);
    check_action(5, PLUMBOB_JAZZ_ACTION_PLAY, S_JUMP, 6, PLUMBOB_JAZZ_NONE);
    CHECK(strcmp(g_actions[5].clip_name, "a_jump") == 0);
    CHECK_OK(g_actions[5].clip_result);
    CHECK_OK(plumbob_clip_fallbacks("a_jump", 6, PLUMBOB_AGE_GENERIC, PLUMBOB_AGE_GENERIC, want, &wn));
    CHECK_EQ(g_actions[5].clip_count, wn);
    CHECK_EQ(g_actions[5].clips[0].instance, want[0].instance);
    check_next(6, 14, S_ENTER, PLUMBOB_JAZZ_NEXT_NO_TRANSITION);
    check_next(7, 15, S_EXIT, PLUMBOB_JAZZ_NEXT_PENDING);
    check_next(8, 16, S_EXIT, PLUMBOB_JAZZ_NEXT_SUPERSEDED);
    CHECK_EQ(g_inst.state, S_JUMP); /* the request ends where it was going */
    CHECK_EQ(g_inst.pending, S_EXIT);
    /* requesting Jump again, or an unreachable state, leaves the pending move alone */
    CHECK_EQ(request("Jump"), 0);
    CHECK_EQ(plumbob_jazz_request(&g_inst, plumbob_fnv32_str("Spin"), g_actions, 64, &n), PLUMBOB_ERR_UNREACHABLE);
    CHECK_EQ(g_inst.report.state, S_JUMP);
    CHECK_EQ(g_inst.pending, S_EXIT);
    /* a tick takes the pending Next State; then nothing is left to do */
    CHECK_OK(plumbob_jazz_tick(&g_inst, g_actions, 64, &n));
    CHECK_EQ(n, 3);
    check_action(0, PLUMBOB_JAZZ_ACTION_ENTER, S_EXIT, PLUMBOB_JAZZ_NONE, PLUMBOB_JAZZ_NONE);
    check_action(1, PLUMBOB_JAZZ_ACTION_STOP, S_EXIT, 4, PLUMBOB_JAZZ_NONE);
    CHECK_EQ(g_inst.pending, PLUMBOB_JAZZ_NONE);
    CHECK(plumbob_jazz_finished(&g_inst));
    CHECK_OK(plumbob_jazz_tick(&g_inst, g_actions, 64, &n));
    CHECK_EQ(n, 0);

    /* mood sad, request Exit: Walk's Next State Jump does not divert the route */
    start(256, 64, &kt, 1);
    CHECK_OK(plumbob_jazz_set_param(&g_inst, plumbob_fnv32_str("mood"), plumbob_fnv32_str("sad"), NULL, 0));
    enter("Enter");
    n = request("Exit");
    CHECK_EQ(n, 9);
    check_action(4, PLUMBOB_JAZZ_ACTION_ENTER, S_WALK, PLUMBOB_JAZZ_NONE, PLUMBOB_JAZZ_NONE);
    check_next(5, 3, S_JUMP, PLUMBOB_JAZZ_NEXT_IGNORED);
    check_action(6, PLUMBOB_JAZZ_ACTION_ENTER, S_EXIT, PLUMBOB_JAZZ_NONE, PLUMBOB_JAZZ_NONE);
    CHECK_EQ(g_inst.state, S_EXIT);
    CHECK_EQ(g_inst.pending, PLUMBOB_JAZZ_NONE);
    /* requesting Walk itself leaves its Next State pending; a request drops it */
    enter("Enter");
    n = request("Walk");
    check_next(n - 1, 3, S_JUMP, PLUMBOB_JAZZ_NEXT_PENDING);
    CHECK_EQ(g_inst.pending, S_JUMP);
    CHECK_EQ(request("Exit"), 3); /* enter Exit, stop, mirror */
    CHECK_EQ(g_inst.pending, PLUMBOB_JAZZ_NONE);
    CHECK_EQ(g_inst.state, S_EXIT);

    /* a teen actor and age "c" set by the caller: the name says c, the
     * fallbacks try the teen clip, then the generic one */
    start(256, 64, NULL, 1);
    CHECK_OK(plumbob_jazz_set_param(&g_inst, plumbob_fnv32_str("mood"), plumbob_fnv32_str("sad"), NULL, 0));
    CHECK_OK(plumbob_jazz_set_param(&g_inst, plumbob_fnv32_str("age"), plumbob_fnv32_str("c"), "c", 1));
    CHECK_OK(plumbob_jazz_bind_actor(&g_inst, plumbob_fnv32_str("x"), 7, PLUMBOB_AGE_TEEN));
    enter("Enter");
    n = request("Jump");
    CHECK_EQ(n, 9);
    CHECK(strcmp(g_actions[5].clip_name, "c_jump") == 0);
    CHECK_OK(plumbob_clip_fallbacks("c_jump", 6, PLUMBOB_AGE_TEEN, PLUMBOB_AGE_GENERIC, want, &wn));
    CHECK_EQ(wn, 2);
    CHECK_EQ(g_actions[5].clip_count, 2);
    CHECK_EQ(g_actions[5].clips[0].instance, want[0].instance);
    CHECK_EQ(g_actions[5].clips[1].instance, want[1].instance);
    CHECK_OK(plumbob_clip_key_from_name("a_jump", 6, &want[0]));
    CHECK_EQ(g_actions[5].clips[1].instance, want[0].instance);
    t_digest_u64(g_actions[5].clips[0].instance);
    /* a teen playing a stored generic key tries the teen variant first */
    CHECK_EQ(g_actions[1].kind, PLUMBOB_JAZZ_ACTION_PLAY);
    CHECK_EQ(g_actions[1].clip_count, 2);
    CHECK_EQ(g_actions[1].clips[0].instance >> 48, 0x8000u | PLUMBOB_AGE_TEEN << 8);
    CHECK_EQ(g_actions[1].clips[1].instance >> 48, 0);

    /* no name for the default value and no KEY table: the play says why */
    start(256, 64, NULL, 1);
    CHECK_OK(plumbob_jazz_set_param(&g_inst, plumbob_fnv32_str("mood"), plumbob_fnv32_str("sad"), NULL, 0));
    enter("Enter");
    CHECK_EQ(request("Jump"), 9);
    CHECK_EQ(g_actions[5].clip_result, PLUMBOB_ERR_NOT_FOUND);
    CHECK_EQ(g_actions[5].clip_count, 0);
    /* unknown names */
    CHECK_EQ(plumbob_jazz_set_param(&g_inst, 1, 2, NULL, 0), PLUMBOB_ERR_NOT_FOUND);
    CHECK_EQ(plumbob_jazz_bind_actor(&g_inst, 1, 2, 0), PLUMBOB_ERR_NOT_FOUND);
    CHECK_EQ(plumbob_jazz_bind_actor(&g_inst, plumbob_fnv32_str("x"), 2, 7), PLUMBOB_ERR_INVALID_ARGUMENT);
}

void test_jazz_run_random_avoid_repeats(void) {
    uint32_t picks[3][30], counts[3] = {0, 0, 0}, i, s;
    for (s = 0; s < 3; s++) {
        start(256, 64, NULL, s + 1u);
        enter("Enter");
        for (i = 0; i < 30; i++) {
            size_t n;
            if (i == 0) {
                n = request("Loop");
                CHECK_EQ(n, 2); /* enter Loop, the pick (destination Loop selects nothing) */
                CHECK_EQ(g_actions[0].kind, PLUMBOB_JAZZ_ACTION_ENTER);
            } else { /* Loop is a Loop state: a tick runs its graph again */
                CHECK_OK(plumbob_jazz_tick(&g_inst, g_actions, 64, &n));
                CHECK_EQ(n, 2);
                check_action(0, PLUMBOB_JAZZ_ACTION_LOOP, S_LOOP, PLUMBOB_JAZZ_NONE, PLUMBOB_JAZZ_NONE);
            }
            picks[s][i] = g_actions[1].node - 8;
            CHECK(picks[s][i] < 3);
            if (picks[s][i] < 3) counts[picks[s][i]]++;
            if (i > 0) CHECK(picks[s][i] != picks[s][i - 1]);
            t_digest_u32(picks[s][i]);
        }
        /* the first three picks are all different */
        CHECK(picks[s][0] != picks[s][1] && picks[s][1] != picks[s][2] && picks[s][0] != picks[s][2]);
        CHECK_EQ(g_inst.state, S_LOOP);
    }
    CHECK(counts[0] > 0 && counts[1] > 0 && counts[2] > 0);
    CHECK(memcmp(picks[0], picks[1], sizeof picks[0]) != 0); /* seeds matter */
    /* the same seed gives the same picks, whether by tick or by request */
    start(256, 64, NULL, 2);
    enter("Enter");
    for (i = 0; i < 30; i++) {
        request("Loop");
        CHECK_EQ(g_actions[1].node - 8, picks[1][i]);
        CHECK_EQ(request("Enter"), 1);
    }
}

void test_jazz_run_limits_and_errors(void) {
    size_t n;
    /* the self-referencing node stops at a limit, and the report says which */
    start(100, 64, NULL, 1);
    enter("Enter");
    CHECK_EQ(plumbob_jazz_request(&g_inst, plumbob_fnv32_str("Spin"), g_actions, 64, &n),
             PLUMBOB_ERR_LIMIT_EXCEEDED);
    CHECK_EQ(n, 64); /* max_actions reached before 100 steps */
    CHECK_EQ(g_inst.report.limit, PLUMBOB_JAZZ_LIMIT_ACTIONS);
    CHECK_EQ(g_inst.report.steps, 1 + 1 + 64); /* the 64th visit found the actions spent */
    enter("Enter");
    CHECK_EQ(plumbob_jazz_request(&g_inst, plumbob_fnv32_str("Spin"), g_actions, 20, &n),
             PLUMBOB_ERR_LIMIT_EXCEEDED);
    CHECK_EQ(n, 20);
    CHECK_EQ(g_inst.report.limit, PLUMBOB_JAZZ_LIMIT_OUTPUT);
    start(40, 64, NULL, 1);
    enter("Enter");
    CHECK_EQ(plumbob_jazz_request(&g_inst, plumbob_fnv32_str("Spin"), g_actions, 64, &n),
             PLUMBOB_ERR_LIMIT_EXCEEDED);
    CHECK_EQ(n, 39); /* a search visit, entering Spin (1 action), then 38 node visits */
    CHECK_EQ(g_inst.report.limit, PLUMBOB_JAZZ_LIMIT_STEPS);
    CHECK_EQ(g_inst.report.steps, 40);
    CHECK_EQ(g_inst.state, S_SPIN);
    start(1000, 5, NULL, 1);
    enter("Enter");
    CHECK_EQ(plumbob_jazz_request(&g_inst, plumbob_fnv32_str("Spin"), g_actions, 64, &n),
             PLUMBOB_ERR_LIMIT_EXCEEDED);
    CHECK_EQ(n, 5);
    CHECK_EQ(g_inst.report.limit, PLUMBOB_JAZZ_LIMIT_ACTIONS);
    /* the route search alone hits the step limit */
    start(2, 64, NULL, 1);
    enter("Enter");
    CHECK_EQ(plumbob_jazz_request(&g_inst, plumbob_fnv32_str("Exit"), g_actions, 64, &n),
             PLUMBOB_ERR_LIMIT_EXCEEDED);
    CHECK_EQ(n, 0);
    CHECK_EQ(g_inst.report.limit, PLUMBOB_JAZZ_LIMIT_STEPS);
    CHECK_EQ(g_inst.state, S_ENTER); /* nothing moved */
    /* errors */
    start(100, 64, NULL, 1);
    CHECK_EQ(plumbob_jazz_request(&g_inst, plumbob_fnv32_str("Exit"), g_actions, 64, &n),
             PLUMBOB_ERR_INVALID_ARGUMENT); /* no state is current */
    CHECK_EQ(plumbob_jazz_tick(&g_inst, g_actions, 64, &n), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_jazz_tick(NULL, g_actions, 64, &n), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK(!plumbob_jazz_finished(&g_inst));
    CHECK(!plumbob_jazz_finished(NULL));
    CHECK_EQ(plumbob_jazz_enter(&g_inst, plumbob_fnv32_str("Walk"), g_actions, 64, &n), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_jazz_enter(&g_inst, plumbob_fnv32_str("Nowhere"), g_actions, 64, &n), PLUMBOB_ERR_NOT_FOUND);
    CHECK_EQ(plumbob_jazz_enter(&g_inst, plumbob_fnv32_str("Enter"), NULL, 64, &n), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_jazz_enter(&g_inst, plumbob_fnv32_str("Enter"), g_actions, 0, &n), PLUMBOB_ERR_LIMIT_EXCEEDED);
    CHECK_EQ(g_inst.report.limit, PLUMBOB_JAZZ_LIMIT_OUTPUT);
    /* ticking a state that is neither pending nor Loop does nothing */
    CHECK_EQ(enter("Enter"), 1);
    CHECK_OK(plumbob_jazz_tick(&g_inst, g_actions, 64, &n));
    CHECK_EQ(n, 0);
    {
        plumbob_jazz_limits zero = {0, 10};
        plumbob_arena arena;
        plumbob_jazz_instance other;
        plumbob_arena_init(&arena, t_work(), 64);
        CHECK_EQ(plumbob_jazz_instance_size(&g_jazz, &zero), SIZE_MAX);
        CHECK_EQ(plumbob_jazz_instance_init(&other, &g_jazz, &zero, NULL, 1, &arena), PLUMBOB_ERR_INVALID_ARGUMENT);
        zero.max_steps = PLUMBOB_JAZZ_MAX_STEPS + 1u;
        CHECK_EQ(plumbob_jazz_instance_size(&g_jazz, &zero), SIZE_MAX);
        CHECK_EQ(plumbob_jazz_instance_init(&other, &g_jazz, &zero, NULL, 1, &arena), PLUMBOB_ERR_INVALID_ARGUMENT);
        zero.max_steps = 10;
        zero.max_actions = 0;
        CHECK_EQ(plumbob_jazz_instance_init(&other, &g_jazz, &zero, NULL, 1, &arena), PLUMBOB_ERR_INVALID_ARGUMENT);
        zero.max_actions = 10;
        CHECK_EQ(plumbob_jazz_instance_init(&other, &g_jazz, &zero, NULL, 1, &arena), PLUMBOB_ERR_OUT_OF_MEMORY);
        CHECK_EQ(arena.used, 0);
    }
}

/* ---- the trace buffer ---------------------------------------------------- */

void test_jazz_run_trace(void) {
    static const uint32_t want[][3] = { /* why, state, node */
        {PLUMBOB_JAZZ_WHY_SEARCH, S_ENTER, PLUMBOB_JAZZ_NONE}, {PLUMBOB_JAZZ_WHY_SEARCH, S_LOOP, PLUMBOB_JAZZ_NONE},
        {PLUMBOB_JAZZ_WHY_SEARCH, S_SPIN, PLUMBOB_JAZZ_NONE}, {PLUMBOB_JAZZ_WHY_SEARCH, S_WALK, PLUMBOB_JAZZ_NONE},
        {PLUMBOB_JAZZ_WHY_ROUTE, S_LOOP, PLUMBOB_JAZZ_NONE}, {PLUMBOB_JAZZ_WHY_ROOT, S_LOOP, 7},
        {PLUMBOB_JAZZ_WHY_BRANCH, S_LOOP, 99}, {PLUMBOB_JAZZ_WHY_ROOT, S_LOOP, 11},
        {PLUMBOB_JAZZ_WHY_BRANCH, S_LOOP, 12}, {PLUMBOB_JAZZ_WHY_CHILD, S_LOOP, 2},
        {PLUMBOB_JAZZ_WHY_ROUTE, S_WALK, PLUMBOB_JAZZ_NONE}, {PLUMBOB_JAZZ_WHY_ROOT, S_WALK, 0},
        {PLUMBOB_JAZZ_WHY_BRANCH, S_WALK, 1}, {PLUMBOB_JAZZ_WHY_CHILD, S_WALK, 2},
        {PLUMBOB_JAZZ_WHY_ROUTE, S_EXIT, PLUMBOB_JAZZ_NONE}, {PLUMBOB_JAZZ_WHY_ROOT, S_EXIT, 4},
        {PLUMBOB_JAZZ_WHY_ROOT, S_EXIT, 5}};
    plumbob_jazz_step steps[32];
    size_t n, i, want_n = sizeof want / sizeof want[0];
    start(256, 64, NULL, 7);
    enter("Enter");
    plumbob_jazz_set_trace(&g_inst, steps, 32);
    n = request("Exit");
    CHECK_EQ(n, 10);
    CHECK_EQ(g_inst.report.traced, want_n);
    CHECK_EQ(g_inst.report.traced, g_inst.report.steps);
    for (i = 0; i < g_inst.report.traced && i < want_n; i++) {
        CHECK_EQ(steps[i].why, want[i][0]);
        CHECK_EQ(steps[i].state, want[i][1]);
        if (want[i][2] != 99) CHECK_EQ(steps[i].node, want[i][2]);
        t_digest_u32(steps[i].node);
        t_digest_u32(steps[i].branch);
    }
    CHECK_EQ(steps[6].node, 8 + steps[5].branch); /* the random branch taken */
    CHECK_EQ(steps[6].node, g_actions[1].node);
    CHECK_EQ(steps[7].branch, 0);  /* destination Exit: the first branch */
    CHECK_EQ(steps[11].branch, 0); /* mood happy */
    CHECK_EQ(steps[4].branch, PLUMBOB_JAZZ_NONE);
    /* a small buffer keeps the first steps; the report still counts them all */
    enter("Enter");
    plumbob_jazz_set_trace(&g_inst, steps, 3);
    steps[3].why = 99;
    CHECK_EQ(request("Exit"), 10);
    CHECK_EQ(g_inst.report.traced, 3);
    CHECK_EQ(g_inst.report.steps, want_n);
    CHECK_EQ(steps[2].state, S_SPIN);
    CHECK_EQ(steps[3].why, 99);
    /* switched off, nothing more is recorded */
    plumbob_jazz_set_trace(&g_inst, NULL, 0);
    enter("Enter");
    CHECK_EQ(g_inst.report.traced, 0);
    CHECK_EQ(g_inst.report.steps, 1);
}

/* ---- machines built as models, for the runtime's patterns ------------------ */

/* A model built in memory (the runtime needs no chunk table): states named
 * "s0", "s1", ...; every array from the caller. */
typedef struct mini {
    plumbob_jazz j;
    plumbob_jazz_state *states;
    plumbob_jazz_graph *graphs;
    plumbob_jazz_node *nodes;
    plumbob_jazz_actor actors[3];
    plumbob_jazz_branch branches[16];
    uint32_t lists[256], used, nbranch;
    unsigned char text[4][96];
} mini;

static uint32_t state_hash(uint32_t i) {
    char name[16];
    int k = 0, d;
    uint32_t div = 1;
    name[k++] = 's';
    while (i / div >= 10) div *= 10;
    for (; div > 0; div /= 10) {
        d = (int)(i / div % 10);
        name[k++] = (char)('0' + d);
    }
    return plumbob_fnv32(name, (size_t)k);
}

static void mini_init(mini *m, plumbob_jazz_state *states, plumbob_jazz_graph *graphs, uint32_t nstates,
                      plumbob_jazz_node *nodes, uint32_t nnodes) {
    uint32_t i;
    memset(m, 0, sizeof *m);
    memset(states, 0, nstates * sizeof *states);
    memset(graphs, 0, nstates * sizeof *graphs);
    memset(nodes, 0, nnodes * sizeof *nodes);
    m->states = states;
    m->graphs = graphs;
    m->nodes = nodes;
    for (i = 0; i < nstates; i++) {
        states[i].name = state_hash(i);
        states[i].graph = i;
    }
    m->j.states = states;
    m->j.state_count = nstates;
    m->j.graphs = graphs;
    m->j.graph_count = nstates;
    m->j.nodes = nodes;
    m->j.node_count = nnodes;
    m->j.actors = m->actors;
    m->actors[0].name = plumbob_fnv32_str("x");
    m->actors[1].name = plumbob_fnv32_str("y");
    m->actors[2].name = plumbob_fnv32_str("prop");
    m->j.actor_count = 3;
}

static const uint32_t *mini_list(mini *m, uint32_t n, const uint32_t *items) {
    uint32_t *p = m->lists + m->used;
    memcpy(p, items, n * sizeof *items);
    m->used += n;
    return p;
}

static void mini_to(mini *m, uint32_t s, uint32_t n, const uint32_t *to) {
    m->states[s].transitions = mini_list(m, n, to);
    m->states[s].transition_count = n;
}

static void mini_roots(mini *m, uint32_t s, uint32_t n, const uint32_t *roots) {
    m->graphs[s].roots = mini_list(m, n, roots);
    m->graphs[s].root_count = n;
    m->graphs[s].nodes = m->graphs[s].roots;
    m->graphs[s].node_count = n;
}

static void mini_next(mini *m, uint32_t k, uint32_t to) {
    m->nodes[k].kind = PLUMBOB_JAZZ_NEXT_STATE;
    m->nodes[k].u.next.state = to;
}

static void mini_play(mini *m, uint32_t k, uint64_t clip, uint32_t group, const char *name, uint32_t actor) {
    plumbob_jazz_node *n = &m->nodes[k];
    n->kind = PLUMBOB_JAZZ_PLAY;
    n->u.play.clip.instance = clip;
    n->u.play.clip.type = PLUMBOB_TYPE_CLIP;
    n->u.play.clip.group = group;
    if (name) n->u.play.name = utf16(m->text[k % 4], name);
    n->u.play.anim.actor = actor;
}

/* A Random node over single-child branches. */
static void mini_random(mini *m, uint32_t k, uint32_t n, const uint32_t *children, const float *weights) {
    uint32_t b;
    m->nodes[k].kind = PLUMBOB_JAZZ_RANDOM;
    m->nodes[k].branches = &m->branches[m->nbranch];
    m->nodes[k].branch_count = n;
    for (b = 0; b < n; b++) {
        m->branches[m->nbranch].weight = weights[b];
        m->branches[m->nbranch].children = mini_list(m, 1, &children[b]);
        m->branches[m->nbranch].child_count = 1;
        m->nbranch++;
    }
}

/* An instance of m in the test arena. */
static plumbob_result mini_start(mini *m, plumbob_jazz_instance *inst, uint32_t max_steps, uint32_t max_actions,
                                 uint64_t seed, const plumbob_key_table *names) {
    plumbob_arena arena;
    plumbob_jazz_limits limits;
    limits.max_steps = max_steps;
    limits.max_actions = max_actions;
    plumbob_arena_init(&arena, t_arena_mem(), T_ARENA_SIZE);
    CHECK(plumbob_jazz_instance_size(&m->j, &limits) <= T_ARENA_SIZE);
    return plumbob_jazz_instance_init(inst, &m->j, &limits, names, seed, &arena);
}

/* PetDisease's wacky_pet pattern: Enter -> Loop; Loop's graph is a Random
 * of four Next State nodes; each of those states plays once and goes back
 * to Loop with a Next State; Loop -> Exit.  A game script enters "Enter"
 * and requests "Exit", or requests "Loop" and lets it idle. */
enum { W_ENTER, W_LOOP, W_A, W_B, W_C, W_D, W_EXIT, W_STATES };

void test_jazz_run_next_state_loops(void) {
    static mini m;
    static plumbob_jazz_state states[W_STATES];
    static plumbob_jazz_graph graphs[W_STATES];
    static plumbob_jazz_node nodes[13];
    static const uint32_t to_loop[] = {W_LOOP}, loop_to[] = {W_A, W_B, W_C, W_D, W_EXIT}, rnd[] = {0},
                          kids[] = {1, 2, 3, 4};
    static const float w[] = {1, 1, 1, 1};
    plumbob_jazz_instance inst;
    uint32_t seed, i, seen = 0;
    mini_init(&m, states, graphs, W_STATES, nodes, 13);
    states[W_ENTER].flags = PLUMBOB_JAZZ_STATE_PUBLIC | PLUMBOB_JAZZ_STATE_ENTRY;
    states[W_LOOP].flags = PLUMBOB_JAZZ_STATE_PUBLIC | PLUMBOB_JAZZ_STATE_LOOP;
    states[W_EXIT].flags = PLUMBOB_JAZZ_STATE_PUBLIC | PLUMBOB_JAZZ_STATE_EXIT;
    mini_to(&m, W_ENTER, 1, to_loop);
    mini_to(&m, W_LOOP, 5, loop_to);
    mini_random(&m, 0, 4, kids, w);
    mini_roots(&m, W_LOOP, 1, rnd);
    for (i = 0; i < 4; i++) {
        uint32_t play = 5 + 2 * i, next = 6 + 2 * i;
        mini_next(&m, 1 + i, W_A + i);     /* n1..n4: Next State A..D */
        mini_play(&m, play, 0x100 + i, 0, NULL, 0);
        m.nodes[play].children = mini_list(&m, 1, &next);
        m.nodes[play].child_count = 1;
        mini_next(&m, next, W_LOOP);      /* plays once, then back to Loop */
        mini_to(&m, W_A + i, 1, to_loop);
        mini_roots(&m, W_A + i, 1, &play);
    }
    for (seed = 1; seed <= 50; seed++) {
        size_t n;
        CHECK_OK(mini_start(&m, &inst, 1000, 64, seed, NULL));
        CHECK_OK(plumbob_jazz_enter(&inst, state_hash(W_ENTER), g_actions, 64, &n));
        CHECK_EQ(n, 1);
        /* Exit: through Loop, whose Next State is ignored, in one call */
        CHECK_OK(plumbob_jazz_request(&inst, state_hash(W_EXIT), g_actions, 64, &n));
        CHECK_EQ(n, 3); /* enter Loop, its Next State (ignored), enter Exit */
        CHECK_EQ(g_actions[0].kind, PLUMBOB_JAZZ_ACTION_ENTER);
        CHECK_EQ(g_actions[1].kind, PLUMBOB_JAZZ_ACTION_NEXT_STATE);
        CHECK_EQ(g_actions[1].next_status, PLUMBOB_JAZZ_NEXT_IGNORED);
        CHECK(g_actions[1].next >= W_A && g_actions[1].next <= W_D);
        CHECK_EQ(g_actions[2].state, W_EXIT);
        CHECK_EQ(inst.state, W_EXIT);
        CHECK(plumbob_jazz_finished(&inst));
        CHECK(inst.report.steps <= 12);
        /* Loop: the request ends in Loop; its pick is pending; ticks idle
         * between Loop and the four states, one move per tick */
        CHECK_OK(plumbob_jazz_enter(&inst, state_hash(W_ENTER), g_actions, 64, &n));
        CHECK_OK(plumbob_jazz_request(&inst, state_hash(W_LOOP), g_actions, 64, &n));
        CHECK_EQ(n, 2);
        CHECK_EQ(inst.state, W_LOOP);
        CHECK(inst.pending >= W_A && inst.pending <= W_D);
        CHECK_EQ(g_actions[1].next_status, PLUMBOB_JAZZ_NEXT_PENDING);
        for (i = 0; i < 8; i++) {
            uint32_t to = inst.pending;
            CHECK_OK(plumbob_jazz_tick(&inst, g_actions, 64, &n));
            CHECK_EQ(inst.state, to);
            CHECK_EQ(g_actions[0].kind, PLUMBOB_JAZZ_ACTION_ENTER);
            if (to == W_LOOP) {
                CHECK_EQ(n, 2);
            } else {
                CHECK_EQ(n, 3); /* enter, play, Next State Loop (pending) */
                CHECK_EQ(g_actions[1].clips[0].instance, 0x100u + (to - W_A));
                CHECK_EQ(inst.pending, W_LOOP);
                seen |= 1u << (to - W_A);
            }
            t_digest_u32(to);
        }
        /* a request from the middle of the idle loop still gets out */
        CHECK_OK(plumbob_jazz_request(&inst, state_hash(W_EXIT), g_actions, 64, &n));
        CHECK_EQ(inst.state, W_EXIT);
        CHECK_EQ(inst.pending, PLUMBOB_JAZZ_NONE);
    }
    CHECK_EQ(seen, 15u); /* every one of the four was visited */
}

/* Next States that lead away from every route, a state no route reaches,
 * and a Next State with no transition, for seeds 1..50. */
void test_jazz_run_diversions_and_unreachable(void) {
    static mini m;
    static plumbob_jazz_state states[6];
    static plumbob_jazz_graph graphs[6];
    static plumbob_jazz_node nodes[5];
    /* s0 entry -> s1 -> s2 -> s3 (exit); s1 <-> s4; s5 unreachable.
     * s1: Random of Next State s4 / Next State s1 (self) ; s2: Next State s0 (no transition) */
    static const uint32_t t0[] = {1}, t1[] = {2, 4, 1}, t2[] = {3}, t4[] = {1}, r1[] = {0}, r2[] = {3},
                          kids[] = {1, 2};
    static const float w[] = {1.0f, 1.0f};
    plumbob_jazz_instance inst;
    uint32_t seed;
    mini_init(&m, states, graphs, 6, nodes, 5);
    states[0].flags = PLUMBOB_JAZZ_STATE_PUBLIC | PLUMBOB_JAZZ_STATE_ENTRY;
    states[3].flags = PLUMBOB_JAZZ_STATE_PUBLIC | PLUMBOB_JAZZ_STATE_EXIT;
    states[5].flags = PLUMBOB_JAZZ_STATE_PUBLIC;
    mini_to(&m, 0, 1, t0);
    mini_to(&m, 1, 3, t1);
    mini_to(&m, 2, 1, t2);
    mini_to(&m, 4, 1, t4);
    mini_random(&m, 0, 2, kids, w);
    mini_next(&m, 1, 4);
    mini_next(&m, 2, 1);
    mini_next(&m, 3, 0);
    mini_roots(&m, 1, 1, r1);
    mini_roots(&m, 2, 1, r2);
    for (seed = 1; seed <= 50; seed++) {
        size_t n;
        uint32_t t;
        for (t = 0; t < 6; t++) {
            plumbob_result r;
            CHECK_OK(mini_start(&m, &inst, 100, 16, seed, NULL));
            CHECK_OK(plumbob_jazz_enter(&inst, state_hash(0), g_actions, 16, &n));
            r = plumbob_jazz_request(&inst, state_hash(t), g_actions, 16, &n);
            if (t == 5) {
                CHECK_EQ(r, PLUMBOB_ERR_UNREACHABLE);
                CHECK_EQ(inst.report.state, 0);
                CHECK_EQ(n, 0);
                CHECK_EQ(inst.state, 0);
                CHECK_EQ(inst.report.steps, 5); /* s0, s1, s2, s4, s3 visited */
            } else {
                CHECK_OK(r);
                CHECK_EQ(inst.state, t);
            }
            if (t == 3) { /* s0 -> s1 -> s2 -> s3: s1's pick does not divert, s2's is refused */
                CHECK_EQ(n, 5);
                CHECK_EQ(g_actions[1].state, 1);
                CHECK_EQ(g_actions[1].next_status, PLUMBOB_JAZZ_NEXT_IGNORED);
                CHECK_EQ(g_actions[3].next, 0);
                CHECK_EQ(g_actions[3].next_status, PLUMBOB_JAZZ_NEXT_NO_TRANSITION);
                CHECK_EQ(inst.pending, PLUMBOB_JAZZ_NONE);
                CHECK(plumbob_jazz_finished(&inst));
            }
            if (t == 4) { /* s1's pick is either on the route to s4 or ignored */
                CHECK_EQ(n, 3);
                CHECK_EQ(g_actions[1].next_status,
                         g_actions[1].next == 4 ? PLUMBOB_JAZZ_NEXT_ON_ROUTE : PLUMBOB_JAZZ_NEXT_IGNORED);
            }
            if (t == 0) CHECK_EQ(n, 0);
            if (t == 1) { /* the target's pick is left pending: s4 or s1 itself */
                CHECK(inst.pending == 4 || inst.pending == 1);
                t_digest_u32(inst.pending);
                CHECK_OK(plumbob_jazz_tick(&inst, g_actions, 16, &n));
                CHECK(inst.state == 4 || inst.state == 1);
            }
        }
    }
}

/* Random weights near FLT_MAX and denormal ones still split evenly. */
/* A Select on a parameter that is unset (PLUMBOB_JAZZ_NONE) takes no branch,
 * even one whose value is NONE; set to 7 it takes the branch for 7.  Called
 * from test_jazz_run_random_weights; it feeds nothing into the digest. */
static void select_unset_param(void) {
    static mini m;
    static plumbob_jazz_state states[1];
    static plumbob_jazz_graph graphs[1];
    static plumbob_jazz_node nodes[3];
    static plumbob_jazz_param params[1];
    static const uint32_t root[] = {0}, c1[] = {1}, c2[] = {2};
    plumbob_jazz_instance inst;
    size_t n = 99;
    mini_init(&m, states, graphs, 1, nodes, 3);
    states[0].flags = PLUMBOB_JAZZ_STATE_ENTRY;
    memset(params, 0, sizeof params);
    params[0].name = plumbob_fnv32_str("p");
    params[0].default_value = PLUMBOB_JAZZ_NONE;
    m.j.params = params;
    m.j.param_count = 1;
    nodes[0].kind = PLUMBOB_JAZZ_SELECT_PARAM;
    nodes[0].u.select.param = 0;
    nodes[0].branches = &m.branches[0];
    nodes[0].branch_count = 2;
    m.branches[0].value = PLUMBOB_JAZZ_NONE;
    m.branches[0].children = mini_list(&m, 1, c1);
    m.branches[0].child_count = 1;
    m.branches[1].value = 7;
    m.branches[1].children = mini_list(&m, 1, c2);
    m.branches[1].child_count = 1;
    mini_play(&m, 1, 1, 0, NULL, PLUMBOB_JAZZ_NONE);
    mini_play(&m, 2, 2, 0, NULL, PLUMBOB_JAZZ_NONE);
    mini_roots(&m, 0, 1, root);
    CHECK_OK(mini_start(&m, &inst, 100, 8, 1, NULL));
    CHECK_OK(plumbob_jazz_enter(&inst, state_hash(0), g_actions, 8, &n));
    CHECK_EQ(n, 1); /* the entry alone */
    CHECK_EQ(g_actions[0].kind, PLUMBOB_JAZZ_ACTION_ENTER);
    CHECK_OK(plumbob_jazz_set_param(&inst, plumbob_fnv32_str("p"), 7, NULL, 0));
    CHECK_OK(plumbob_jazz_enter(&inst, state_hash(0), g_actions, 8, &n));
    CHECK_EQ(n, 2);
    CHECK_EQ(g_actions[1].kind, PLUMBOB_JAZZ_ACTION_PLAY);
    CHECK_EQ(g_actions[1].node, 2);
}

void test_jazz_run_random_weights(void) {
    static mini m;
    static plumbob_jazz_state states[1];
    static plumbob_jazz_graph graphs[1];
    static plumbob_jazz_node nodes[3];
    static const uint32_t root[] = {0}, kids[] = {1, 2};
    union { uint32_t u; float f; } tiny;
    float w[2];
    int pass;
    tiny.u = 1; /* the smallest denormal */
    for (pass = 0; pass < 3; pass++) {
        plumbob_jazz_instance inst;
        uint32_t counts[2] = {0, 0}, i;
        size_t n;
        mini_init(&m, states, graphs, 1, nodes, 3);
        states[0].flags = PLUMBOB_JAZZ_STATE_ENTRY | PLUMBOB_JAZZ_STATE_LOOP;
        w[0] = w[1] = pass == 0 ? 3e38f : tiny.f;
        if (pass == 2) { w[0] = FLT_MAX; w[1] = tiny.f; } /* the denormal never wins against FLT_MAX */
        mini_random(&m, 0, 2, kids, w);
        mini_play(&m, 1, 1, 0, NULL, PLUMBOB_JAZZ_NONE);
        mini_play(&m, 2, 2, 0, NULL, PLUMBOB_JAZZ_NONE);
        mini_roots(&m, 0, 1, root);
        CHECK_OK(mini_start(&m, &inst, 100, 8, 12345, NULL));
        CHECK_OK(plumbob_jazz_enter(&inst, state_hash(0), g_actions, 8, &n));
        for (i = 0; i < 400; i++) {
            CHECK_OK(plumbob_jazz_tick(&inst, g_actions, 8, &n));
            CHECK_EQ(n, 2);
            CHECK_EQ(g_actions[0].kind, PLUMBOB_JAZZ_ACTION_LOOP);
            counts[g_actions[1].node - 1]++;
        }
        if (pass < 2) CHECK(counts[0] > 150 && counts[1] > 150);
        else CHECK_EQ(counts[0], 400);
        t_digest_u32(counts[0]);
    }
    {
        /* Unequal weights 1 : 3 are picked in proportion: over 4000 picks
         * (seeds 1..10, 400 ticks each) the first branch's count has mean
         * 4000 / 4 = 1000 and standard deviation sqrt(4000 * 1/4 * 3/4) =
         * 27.4; the seeds are fixed, so the bound of 5 deviations (1000 +- 137)
         * cannot flake, and an even split (2000) or swapped weights (3000)
         * fall far outside it. */
        static const float uneven[2] = {1.0f, 3.0f};
        uint32_t counts[2] = {0, 0}, seed, i;
        for (seed = 1; seed <= 10; seed++) {
            plumbob_jazz_instance inst;
            size_t n;
            mini_init(&m, states, graphs, 1, nodes, 3);
            states[0].flags = PLUMBOB_JAZZ_STATE_ENTRY | PLUMBOB_JAZZ_STATE_LOOP;
            mini_random(&m, 0, 2, kids, uneven);
            mini_play(&m, 1, 1, 0, NULL, PLUMBOB_JAZZ_NONE);
            mini_play(&m, 2, 2, 0, NULL, PLUMBOB_JAZZ_NONE);
            mini_roots(&m, 0, 1, root);
            CHECK_OK(mini_start(&m, &inst, 100, 8, seed, NULL));
            CHECK_OK(plumbob_jazz_enter(&inst, state_hash(0), g_actions, 8, &n));
            for (i = 0; i < 400; i++) {
                CHECK_OK(plumbob_jazz_tick(&inst, g_actions, 8, &n));
                CHECK_EQ(n, 2);
                if (n == 2 && g_actions[1].node >= 1 && g_actions[1].node <= 2) counts[g_actions[1].node - 1]++;
            }
        }
        CHECK_EQ(counts[0] + counts[1], 4000);
        CHECK(counts[0] >= 1000 - 137 && counts[0] <= 1000 + 137);
    }
    select_unset_param();
}

/* Two-actor clips take the player's and the other actor's codes; keys from
 * names keep the Play node's group unless a code is a pet's. */
void test_jazz_run_clip_codes_and_groups(void) {
    static mini m;
    static plumbob_jazz_state states[1];
    static plumbob_jazz_graph graphs[1];
    static plumbob_jazz_node nodes[6];
    static const uint32_t roots[] = {0, 1, 2, 3, 4, 5};
    static const char *social = "a2a_soc_neutral_attackSim_insulting_neutral";
    char name_x[64], name_y[64];
    plumbob_jazz_instance inst;
    plumbob_clip_key k;
    size_t n;
    unsigned char kt_bytes[80];
    plumbob_key_table kt;
    uint64_t stored_social;
    strcpy(name_x, social);
    strcat(name_x, "_x");
    strcpy(name_y, social);
    strcat(name_y, "_y");
    mini_init(&m, states, graphs, 1, nodes, 6);
    states[0].flags = PLUMBOB_JAZZ_STATE_ENTRY;
    mini_play(&m, 0, 0, 0, name_x, 0);                           /* x plays the _x clip */
    mini_play(&m, 1, 0, 0, name_y, 1);                           /* y plays the _y clip */
    mini_play(&m, 2, 0, 0x70000000u, "a_idle_fancy", 1);          /* a generic clip of an expansion group */
    mini_play(&m, 3, 0, 0, "a2o_bassinet_feed_start_x", 0);      /* an object target is never replaced */
    CHECK_OK(plumbob_clip_key_from_name("a_idle_fancy", 12, &k));
    mini_play(&m, 4, k.instance, 0x88000000u, NULL, 1);          /* a stored generic key */
    CHECK_OK(plumbob_clip_key_from_name(name_x, strlen(name_x), &k));
    stored_social = k.instance;
    mini_play(&m, 5, stored_social, 0, NULL, 0);                 /* a stored two-actor key, named in KEY */
    mini_roots(&m, 0, 6, roots);
    /* a KEY table naming the stored social key */
    memset(kt_bytes, 0, sizeof kt_bytes);
    pb_put_le32(kt_bytes, 1);
    pb_put_le32(kt_bytes + 4, 1);
    pb_put_le32(kt_bytes + 8, (uint32_t)stored_social);
    pb_put_le32(kt_bytes + 12, (uint32_t)(stored_social >> 32));
    pb_put_le32(kt_bytes + 16, (uint32_t)strlen(name_x));
    memcpy(kt_bytes + 20, name_x, strlen(name_x));
    CHECK_OK(plumbob_key_table_open(&kt, kt_bytes, 20 + strlen(name_x)));

    /* a small dog x and a child y: al2c for both roles (the corpus's pet
     * fighting clips are named so: al2c_..._x and al2c_..._y) */
    CHECK_OK(mini_start(&m, &inst, 100, 16, 1, &kt));
    CHECK_OK(plumbob_jazz_bind_actor(&inst, plumbob_fnv32_str("x"), 1, PLUMBOB_AGE_SMALL_DOG));
    CHECK_OK(plumbob_jazz_bind_actor(&inst, plumbob_fnv32_str("y"), 2, PLUMBOB_AGE_CHILD));
    CHECK_OK(plumbob_jazz_enter(&inst, state_hash(0), g_actions, 16, &n));
    CHECK_EQ(n, 7);
    CHECK_EQ(g_actions[1].clip_count, 2);
    CHECK_EQ(g_actions[1].clips[0].instance, 0xC06063A8DEA2048Eull);
    CHECK_EQ(g_actions[1].clips[0].group, PLUMBOB_CLIP_GROUP_PETS);
    CHECK_EQ(g_actions[1].clips[1].instance, stored_social); /* the generic a2a key */
    CHECK_EQ(g_actions[1].clips[1].group, 0);
    CHECK_EQ(g_actions[2].clips[0].instance, 0xC06063A8DEA2048Full);
    CHECK_EQ(g_actions[2].clips[0].group, PLUMBOB_CLIP_GROUP_PETS);
    CHECK_EQ(g_actions[2].handle, 2);
    /* the child's own clip in group 0x70000000; the generic one too */
    CHECK_OK(plumbob_clip_key_from_name("c_idle_fancy", 12, &k));
    CHECK_EQ(g_actions[3].clips[0].instance, k.instance);
    CHECK_EQ(g_actions[3].clips[0].group, 0x70000000u);
    CHECK_EQ(g_actions[3].clips[1].group, 0x70000000u);
    /* a2o played by the small dog: al2o, pet group; the generic a2o */
    CHECK_OK(plumbob_clip_key_from_name("al2o_bassinet_feed_start_x", 26, &k));
    CHECK_EQ(g_actions[4].clips[0].instance, k.instance);
    CHECK_EQ(g_actions[4].clips[0].group, PLUMBOB_CLIP_GROUP_PETS);
    CHECK_EQ(g_actions[4].clips[1].group, 0);
    /* the stored key keeps its group for the child's variant */
    CHECK_EQ(g_actions[5].clip_count, 2);
    CHECK_EQ((g_actions[5].clips[0].instance ^ g_actions[5].clips[1].instance) >> 48,
             0x8000u | PLUMBOB_AGE_CHILD << 8);
    CHECK_EQ(g_actions[5].clips[0].group, 0x88000000u);
    CHECK_EQ(g_actions[5].clips[1].group, 0x88000000u);
    CHECK(strcmp(g_actions[5].clip_name, "") == 0);
    /* the stored social key named by the KEY table gets both codes */
    CHECK(strcmp(g_actions[6].clip_name, name_x) == 0);
    CHECK_EQ(g_actions[6].clips[0].instance, 0xC06063A8DEA2048Eull);
    CHECK_EQ(g_actions[6].clips[1].instance, stored_social);
    for (n = 1; n < 7; n++) {
        t_digest_u64(g_actions[n].clips[0].instance);
        t_digest_u32(g_actions[n].clips[0].group);
    }
    /* a teen x with a child y: t2c, no pet group */
    CHECK_OK(mini_start(&m, &inst, 100, 16, 1, NULL));
    CHECK_OK(plumbob_jazz_bind_actor(&inst, plumbob_fnv32_str("x"), 1, PLUMBOB_AGE_TEEN));
    CHECK_OK(plumbob_jazz_bind_actor(&inst, plumbob_fnv32_str("y"), 2, PLUMBOB_AGE_CHILD));
    CHECK_OK(plumbob_jazz_enter(&inst, state_hash(0), g_actions, 16, &n));
    CHECK_EQ(g_actions[2].clips[0].instance >> 48, (stored_social >> 48) ^ (0x8000u | 4u << 8 | 3u));
    CHECK_EQ(g_actions[2].clips[0].group, 0);
    /* without a KEY table a stored key cannot say it had a target code: the player's code only */
    CHECK_EQ(g_actions[6].clip_count, 2);
    CHECK_EQ(g_actions[6].clips[0].instance ^ stored_social, (uint64_t)(0x8000u | 4u << 8) << 48);
    CHECK_EQ(g_actions[6].clips[1].instance, stored_social);
    /* a pet's variant of a stored key lives in the pets' group (0x48000000,
     * specs/NOTES.md), whatever group the Play node stores; the stored key
     * keeps its own: y a horse (ah, 0x10), then a small dog (al, 0x0A) */
    {
        static const unsigned pets[2] = {0x10, 0x0A};
        int i;
        CHECK_OK(plumbob_clip_key_from_name("a_idle_fancy", 12, &k));
        for (i = 0; i < 2; i++) {
            CHECK_OK(mini_start(&m, &inst, 100, 16, 1, NULL));
            CHECK_OK(plumbob_jazz_bind_actor(&inst, plumbob_fnv32_str("x"), 1, PLUMBOB_AGE_ADULT));
            CHECK_OK(plumbob_jazz_bind_actor(&inst, plumbob_fnv32_str("y"), 2, (int)pets[i]));
            CHECK_OK(plumbob_jazz_enter(&inst, state_hash(0), g_actions, 16, &n));
            CHECK_EQ(n, 7);
            CHECK_EQ(g_actions[5].clip_count, 2);
            CHECK_EQ(g_actions[5].clips[0].instance, k.instance ^ (uint64_t)(0x8000u | pets[i] << 8) << 48);
            CHECK_EQ(g_actions[5].clips[0].group, 0x48000000u);
            CHECK_EQ(g_actions[5].clips[1].instance, k.instance);
            CHECK_EQ(g_actions[5].clips[1].group, 0x88000000u);
        }
    }
}

/* A chain s0 -> s1 -> ... -> s(N-1) where every state's graph has a Next
 * State back to s0 (declared, so a real diversion): a request for the end
 * walks the chain in one call, and every limit bounds the work. */
#ifdef PLUMBOB_TEST_BAREMETAL
#define CHAIN 1000u /* 4 MiB of RAM */
#else
#define CHAIN 20000u
#endif

void test_jazz_run_long_chain(void) {
    plumbob_jazz j;
    plumbob_jazz_state *states = (plumbob_jazz_state *)calloc(CHAIN, sizeof *states);
    uint32_t *to = (uint32_t *)malloc(2u * CHAIN * sizeof *to);
    plumbob_jazz_action *out = (plumbob_jazz_action *)malloc(2u * CHAIN * sizeof *out);
    plumbob_jazz_graph graph;
    plumbob_jazz_node next;
    plumbob_jazz_limits limits;
    plumbob_jazz_instance inst;
    plumbob_arena arena;
    unsigned char *mem;
    size_t need, n;
    uint32_t i, root = 0;
    CHECK(states && to && out);
    if (!states || !to || !out) return;
    memset(&j, 0, sizeof j);
    memset(&graph, 0, sizeof graph);
    memset(&next, 0, sizeof next);
    next.kind = PLUMBOB_JAZZ_NEXT_STATE;
    next.u.next.state = 0;
    graph.roots = graph.nodes = &root;
    graph.root_count = graph.node_count = 1;
    for (i = 0; i < CHAIN; i++) {
        states[i].name = state_hash(i);
        states[i].graph = 0;
        to[2 * i] = i + 1 < CHAIN ? i + 1 : 0;
        to[2 * i + 1] = 0;
        states[i].transitions = &to[2 * i];
        states[i].transition_count = 2;
    }
    states[0].flags = PLUMBOB_JAZZ_STATE_ENTRY;
    j.states = states;
    j.state_count = CHAIN;
    j.graphs = &graph;
    j.graph_count = 1;
    j.nodes = &next;
    j.node_count = 1;
    limits.max_steps = 4u * CHAIN; /* the stack takes 8 bytes per step */
    limits.max_actions = 2u * CHAIN;
    need = plumbob_jazz_instance_size(&j, &limits);
    mem = (unsigned char *)malloc(need);
    CHECK(mem != NULL);
    if (!mem) return;
    plumbob_arena_init(&arena, mem, need);
    CHECK_OK(plumbob_jazz_instance_init(&inst, &j, &limits, NULL, 1, &arena));
    CHECK_OK(plumbob_jazz_enter(&inst, state_hash(0), out, 2u * CHAIN, &n));
    CHECK_EQ(n, 2);
    CHECK_EQ(out[1].next_status, PLUMBOB_JAZZ_NEXT_PENDING); /* s0 -> s0 is declared */
    CHECK_OK(plumbob_jazz_request(&inst, state_hash(CHAIN - 1), out, 2u * CHAIN, &n));
    CHECK_EQ(inst.state, CHAIN - 1);
    CHECK_EQ(n, 2u * (CHAIN - 1));
    CHECK_EQ(inst.report.steps, 3u * (CHAIN - 1)); /* a search visit, an entry and a node per state */
    CHECK_EQ(out[1].next_status, PLUMBOB_JAZZ_NEXT_IGNORED);
    CHECK_EQ(out[n - 1].next_status, PLUMBOB_JAZZ_NEXT_PENDING);
    CHECK_EQ(inst.pending, 0);
    t_digest_u32(out[1].next_status);
    /* back to s0 along the declared transition: one search visit */
    CHECK_OK(plumbob_jazz_request(&inst, state_hash(0), out, 2u * CHAIN, &n));
    CHECK_EQ(n, 2);
    CHECK_EQ(inst.report.steps, 3);
    /* a step limit below the chain stops the route search: nothing moves */
    plumbob_arena_reset(&arena, 0);
    limits.max_steps = CHAIN / 2;
    CHECK_OK(plumbob_jazz_instance_init(&inst, &j, &limits, NULL, 1, &arena));
    CHECK_OK(plumbob_jazz_enter(&inst, state_hash(0), out, 2u * CHAIN, &n));
    CHECK_EQ(plumbob_jazz_request(&inst, state_hash(CHAIN - 1), out, 2u * CHAIN, &n), PLUMBOB_ERR_LIMIT_EXCEEDED);
    CHECK_EQ(n, 0);
    CHECK_EQ(inst.report.limit, PLUMBOB_JAZZ_LIMIT_STEPS);
    CHECK_EQ(inst.report.steps, CHAIN / 2);
    CHECK_EQ(inst.state, 0);
    /* a step limit between search and walk stops the walk part way */
    plumbob_arena_reset(&arena, 0);
    limits.max_steps = 2u * CHAIN;
    CHECK_OK(plumbob_jazz_instance_init(&inst, &j, &limits, NULL, 1, &arena));
    CHECK_OK(plumbob_jazz_enter(&inst, state_hash(0), out, 2u * CHAIN, &n));
    CHECK_EQ(plumbob_jazz_request(&inst, state_hash(CHAIN - 1), out, 2u * CHAIN, &n), PLUMBOB_ERR_LIMIT_EXCEEDED);
    CHECK_EQ(inst.report.steps, 2u * CHAIN);
    CHECK(inst.state > 0 && inst.state < CHAIN - 1);
    CHECK_EQ(inst.state, (CHAIN + 1) / 2 + 1);
    t_digest_u32(inst.report.limit);
    free(mem);
    free(out);
    free(to);
    free(states);
}

/* ---- malformed inputs and sweeps ------------------------------------------ */

/* Offset of chunk k in a jazz resource. */
static size_t chunk_at(const unsigned char *buf, uint32_t k) {
    uint32_t count = pb_le32(buf + 16), ext = pb_le32(buf + 12);
    return pb_le32(buf + 20 + ((size_t)count + ext) * 16 + (size_t)k * 8);
}

void test_jazz_malformed(void) {
    unsigned char *buf = t_scratch();
    size_t n = build_bytes();
    plumbob_jazz j;
    size_t walk = chunk_at(buf, FIRST_STATE_CHUNK + S_WALK), graph = chunk_at(buf, FIRST_GRAPH_CHUNK + S_WALK);
    uint32_t save;
    CHECK_OK(decode(buf, n, &j));
#define POKE(off, value, want) \
    do { save = pb_le32(buf + (off)); pb_put_le32(buf + (off), (value)); \
         CHECK_EQ(decode(buf, n, &j), (want)); pb_put_le32(buf + (off), save); } while (0)
    POKE(0, 4, PLUMBOB_ERR_BAD_MAGIC);                    /* RCOL version: not a jazz resource (issue 47) */
    POKE(16, 0, PLUMBOB_ERR_BAD_COUNT);                   /* no chunks */
    POKE(16, 0x7FFFFFFF, PLUMBOB_ERR_BAD_COUNT);
    POKE(16, 1000, PLUMBOB_ERR_TRUNCATED);
    POKE(20 + 8, 0x12345678, PLUMBOB_ERR_BAD_MAGIC);      /* chunk 0 key type */
    POKE(walk, 0x41414141, PLUMBOB_ERR_BAD_MAGIC);        /* unknown tag */
    POKE(walk, pb_le32(buf + chunk_at(buf, 0)), PLUMBOB_ERR_BAD_MAGIC); /* a second S_SM */
    POKE(walk + 4, 0x102, PLUMBOB_ERR_UNSUPPORTED_VERSION);
    POKE(walk + 16, 0x10000000u | 1u, PLUMBOB_ERR_BAD_INDEX);   /* graph ref -> an actor chunk */
    POKE(walk + 16, 0x10000000u | 999u, PLUMBOB_ERR_BAD_INDEX); /* out of range */
    POKE(walk + 16, 0x30000000u | FIRST_GRAPH_CHUNK, PLUMBOB_ERR_BAD_INDEX); /* external kind */
    POKE(walk + 16, 0, PLUMBOB_ERR_BAD_INDEX);            /* a state needs a graph */
    POKE(walk + 20, 0xFFFFFFFFu, PLUMBOB_ERR_BAD_COUNT);  /* negative transition count */
    POKE(walk + 20, 3, PLUMBOB_ERR_TRUNCATED);            /* the list eats the awareness word */
    POKE(walk + 24, 0x10000000u | 1u, PLUMBOB_ERR_BAD_INDEX); /* transition to an actor */
    POKE(graph + 40, 0xDEADBEEEu, PLUMBOB_ERR_BAD_DATA);  /* filler */
    {   /* chunk 1 moved by 4 bytes */
        uint32_t count = pb_le32(buf + 16);
        size_t entry = 20 + (size_t)count * 16 + 8;
        POKE(entry, pb_le32(buf + entry) + 4, PLUMBOB_ERR_BAD_OFFSET);
        POKE(entry + 4, 18, PLUMBOB_ERR_BAD_DATA);        /* not a multiple of 4 */
        POKE(entry + 4, 20, PLUMBOB_ERR_BAD_OFFSET);      /* size too large: the next chunk moves */
    }
#undef POKE
    buf[n] = 0;
    CHECK_EQ(decode(buf, n + 4, &j), PLUMBOB_ERR_BAD_DATA); /* bytes after the last chunk */
    CHECK_EQ(decode(buf, n, NULL), PLUMBOB_ERR_INVALID_ARGUMENT);
    {
        size_t need;
        CHECK_EQ(plumbob_jazz_measure(NULL, n, &need), PLUMBOB_ERR_INVALID_ARGUMENT);
        CHECK_EQ(need, SIZE_MAX); /* the sizing rule */
    }
    CHECK_OK(decode(buf, n, &j));
}

/* Decodes data[0..n); when it decodes it must write back identically and
 * run from every entry state without harm.  Returns the result. */
static plumbob_result decode_and_exercise(const unsigned char *data, size_t n) {
    plumbob_jazz j;
    plumbob_result r = decode(data, n, &j);
    if (r == PLUMBOB_OK) {
        size_t wn = 0, need;
        plumbob_jazz_limits limits = {64, 32};
        plumbob_arena arena;
        plumbob_jazz_instance inst;
        uint32_t s;
        CHECK_OK(plumbob_jazz_write(&j, t_work(), T_WORK_SIZE, &wn));
        CHECK(wn == n && memcmp(t_work(), data, n) == 0);
        need = plumbob_jazz_instance_size(&j, &limits);
        plumbob_arena_init(&arena, t_work(), T_WORK_SIZE);
        CHECK(need <= T_WORK_SIZE);
        for (s = 0; s < j.state_count; s++) {
            size_t count;
            plumbob_result rr;
            if (!(j.states[s].flags & PLUMBOB_JAZZ_STATE_ENTRY)) continue;
            plumbob_arena_reset(&arena, 0);
            CHECK_OK(plumbob_jazz_instance_init(&inst, &j, &limits, NULL, 5, &arena));
            rr = plumbob_jazz_enter(&inst, j.states[s].name, g_actions, 32, &count);
            CHECK((unsigned)rr < PLUMBOB_RESULT_COUNT && count <= 32);
        }
    }
    return r;
}

void test_jazz_truncation_and_bitflips(void) {
    unsigned char *buf = t_scratch();
    size_t n = build_bytes(), len, bit;
    int oks = 0;
    plumbob_jazz j;
    for (len = 0; len < n; len++) {
        plumbob_result r = decode(buf, len, &j);
        CHECK(r != PLUMBOB_OK && (unsigned)r < PLUMBOB_RESULT_COUNT);
    }
    for (bit = 0; bit < n * 8; bit++) {
        plumbob_result r;
        buf[bit / 8] ^= (unsigned char)(1u << (bit % 8));
        r = decode_and_exercise(buf, n);
        buf[bit / 8] ^= (unsigned char)(1u << (bit % 8));
        CHECK((unsigned)r < PLUMBOB_RESULT_COUNT);
        oks += r == PLUMBOB_OK;
    }
    CHECK(oks > 0);
    t_digest_u32((uint32_t)oks);
}

/* Every state reachable from `from` over transitions (BFS), as flags. */
static void reachable(const plumbob_jazz *j, uint32_t from, unsigned char *seen) {
    uint32_t queue[256], head = 0, tail = 0, i;
    memset(seen, 0, j->state_count);
    seen[from] = 1;
    queue[tail++] = from;
    while (head < tail) {
        const plumbob_jazz_state *s = &j->states[queue[head++]];
        for (i = 0; i < s->transition_count; i++)
            if (!seen[s->transitions[i]]) {
                seen[s->transitions[i]] = 1;
                queue[tail++] = s->transitions[i];
            }
    }
}

/* Both real jazz resources: decode, identical re-encode, every reference
 * resolved, and a run from each entry state to each reachable state. */
void test_jazz_corpus(void) {
    static const char *packages[2] = {"sims3/EWBreastfeed.package", "sims3/WarriorCats.package"};
    static const uint32_t want_chunks[2] = {43, 67}, want_states[2] = {13, 17};
    int p, found = 0;
    for (p = 0; p < 2; p++) {
        size_t size, rs, need, wn;
        unsigned char *data = t_corpus_load(packages[p], &size), *mem, *out;
        plumbob_package pkg;
        uint32_t e;
        if (!data) T_SKIP(t_corpus_missing());
        CHECK_OK(plumbob_package_open(&pkg, data, size));
        for (e = 0; e < pkg.count; e++) {
            plumbob_package_entry ent;
            const unsigned char *res;
            plumbob_jazz j;
            plumbob_arena arena;
            uint32_t from, to, i;
            unsigned char seen[256];
            CHECK_OK(plumbob_package_entry_at(&pkg, e, &ent));
            if (ent.type != PLUMBOB_TYPE_JAZZ) continue;
            found++;
            mem = (unsigned char *)malloc(ent.mem_size);
            CHECK_OK(plumbob_package_read(&pkg, &ent, mem, ent.mem_size, &res, &rs));
            CHECK_OK(plumbob_jazz_measure(res, rs, &need));
            plumbob_arena_init(&arena, t_arena_mem(), T_ARENA_SIZE);
            CHECK(need <= T_ARENA_SIZE);
            CHECK_OK(plumbob_jazz_decode(res, rs, &arena, &j));
            CHECK_EQ(j.chunk_count, want_chunks[p]);
            CHECK_EQ(j.state_count, want_states[p]);
            CHECK_EQ(j.machine.state_count, j.state_count);
            out = (unsigned char *)malloc(rs);
            CHECK_OK(plumbob_jazz_write(&j, out, rs, &wn));
            CHECK(wn == rs && memcmp(out, res, rs) == 0);
            free(out);
            for (i = 0; i < j.state_count; i++) CHECK(j.states[i].graph < j.graph_count);
            t_digest_u32(j.node_count);
            for (from = 0; from < j.state_count; from++) {
                if (!(j.states[from].flags & PLUMBOB_JAZZ_STATE_ENTRY)) continue;
                reachable(&j, from, seen);
                for (to = 0; to < j.state_count; to++) {
                    plumbob_jazz_limits limits = {4096, 64};
                    plumbob_jazz_instance inst;
                    size_t mark = plumbob_arena_mark(&arena), n = 0, k;
                    if (!seen[to]) continue;
                    CHECK_OK(plumbob_jazz_instance_init(&inst, &j, &limits, NULL, 3, &arena));
                    CHECK_OK(plumbob_jazz_enter(&inst, j.states[from].name, g_actions, 64, &n));
                    CHECK_OK(plumbob_jazz_request(&inst, j.states[to].name, g_actions, 64, &n));
                    CHECK_EQ(inst.state, to);
                    CHECK(from == to || n > 0);
                    for (k = 0; k < n; k++) {
                        t_digest_u32(g_actions[k].kind);
                        if (g_actions[k].kind == PLUMBOB_JAZZ_ACTION_PLAY) t_digest_u64(g_actions[k].clips[0].instance);
                    }
                    plumbob_arena_reset(&arena, mark);
                }
            }
            /* every public state from every entry state, seeds 1..50: reached
             * in one request, or unreachable (and named so) when no route is */
            for (from = 0; from < j.state_count; from++) {
                uint32_t seed;
                if (!(j.states[from].flags & PLUMBOB_JAZZ_STATE_ENTRY)) continue;
                reachable(&j, from, seen);
                for (to = 0; to < j.state_count; to++) {
                    if (!(j.states[to].flags & PLUMBOB_JAZZ_STATE_PUBLIC)) continue;
                    for (seed = 1; seed <= 50; seed++) {
                        plumbob_jazz_limits limits = {4096, 64};
                        plumbob_jazz_instance inst;
                        size_t mark = plumbob_arena_mark(&arena), n = 0;
                        plumbob_result rr;
                        CHECK_OK(plumbob_jazz_instance_init(&inst, &j, &limits, NULL, seed, &arena));
                        CHECK_OK(plumbob_jazz_enter(&inst, j.states[from].name, g_actions, 64, &n));
                        rr = plumbob_jazz_request(&inst, j.states[to].name, g_actions, 64, &n);
                        if (seen[to]) {
                            CHECK_OK(rr);
                            CHECK_EQ(inst.state, to);
                            CHECK(inst.report.steps <= 2u * j.state_count + j.node_count);
                        } else {
                            CHECK_EQ(rr, PLUMBOB_ERR_UNREACHABLE);
                            CHECK_EQ(inst.report.state, from);
                            CHECK_EQ(inst.state, from);
                        }
                        CHECK_EQ(plumbob_jazz_finished(&inst),
                                 (j.states[inst.state].flags & PLUMBOB_JAZZ_STATE_EXIT) != 0);
                        CHECK_OK(plumbob_jazz_tick(&inst, g_actions, 64, &n)); /* idles without harm */
                        if (seed == 1) t_digest_u32(rr);
                        plumbob_arena_reset(&arena, mark);
                    }
                }
            }
            if (p == 1) { /* petgardening: Enter Standing -> bendover start plays eat_start */
                plumbob_jazz_limits limits = {4096, 64};
                plumbob_jazz_instance inst;
                size_t n = 0;
                CHECK_OK(plumbob_jazz_instance_init(&inst, &j, &limits, NULL, 3, &arena));
                CHECK_OK(plumbob_jazz_enter(&inst, plumbob_fnv32_str("Enter Standing"), g_actions, 64, &n));
                CHECK_OK(plumbob_jazz_request(&inst, plumbob_fnv32_str("Loop Harvest"), g_actions, 64, &n));
                CHECK_EQ(n, 3);
                CHECK_EQ(g_actions[1].kind, PLUMBOB_JAZZ_ACTION_PLAY);
                CHECK_EQ(g_actions[1].clips[0].instance, 0x674F041B05156E14ull);
            }
            free(mem);
        }
        free(data);
    }
    CHECK_EQ(found, 2);
}

/* The two-actor rule against real files: PetFightingSkill holds social pet
 * clips named for both actors (al2c_..._x and al2c_..._y, ...).  A play of
 * the generic name for x or y, with x and y bound to the ages in a clip's
 * prefix, must ask first for exactly that clip's key and group. */
void test_jazz_corpus_two_actor_clips(void) {
    static mini m;
    static plumbob_jazz_state states[1];
    static plumbob_jazz_graph graphs[1];
    static plumbob_jazz_node nodes[1];
    static const uint32_t root[] = {0};
    size_t size, e, found = 0;
    unsigned char *data = t_corpus_load("sims3/PetFightingSkill.package", &size), *kmem = NULL;
    plumbob_package pkg;
    plumbob_key_table kt;
    int have_kt = 0;
    if (!data) T_SKIP(t_corpus_missing());
    CHECK_OK(plumbob_package_open(&pkg, data, size));
    for (e = 0; e < pkg.count && !have_kt; e++) {
        plumbob_package_entry ent;
        const unsigned char *res;
        size_t rs;
        CHECK_OK(plumbob_package_entry_at(&pkg, (uint32_t)e, &ent));
        if (ent.type != PLUMBOB_TYPE_KEY) continue;
        kmem = (unsigned char *)malloc(ent.mem_size);
        CHECK_OK(plumbob_package_read(&pkg, &ent, kmem, ent.mem_size, &res, &rs));
        CHECK_OK(plumbob_key_table_open(&kt, res, rs));
        have_kt = 1;
    }
    CHECK(have_kt);
    for (e = 0; have_kt && e < pkg.count; e++) {
        plumbob_package_entry ent;
        plumbob_string name;
        plumbob_jazz_instance inst;
        char generic[PLUMBOB_JAZZ_MAX_CLIP_NAME];
        const char *two, *us;
        int x_age, y_age;
        size_t n, rest;
        CHECK_OK(plumbob_package_entry_at(&pkg, (uint32_t)e, &ent));
        if (ent.type != PLUMBOB_TYPE_CLIP) continue;
        CHECK_OK(plumbob_key_table_find(&kt, ent.instance, &name));
        us = memchr(name.ptr, '_', name.len);
        two = memchr(name.ptr, '2', name.len);
        CHECK(us && two && two < us);
        if (!us || !two || two > us) continue;
        x_age = plumbob_age_code(name.ptr, (size_t)(two - name.ptr));
        y_age = plumbob_age_code(two + 1, (size_t)(us - two - 1));
        CHECK(x_age >= 0 && y_age >= 0);
        rest = name.len - (size_t)(us - name.ptr);
        CHECK(rest + 4 < sizeof generic);
        if (x_age < 0 || y_age < 0 || rest + 4 >= sizeof generic) continue;
        memcpy(generic, "a2a", 3);
        memcpy(generic + 3, us, rest);
        generic[3 + rest] = '\0';
        mini_init(&m, states, graphs, 1, nodes, 1);
        states[0].flags = PLUMBOB_JAZZ_STATE_ENTRY;
        mini_play(&m, 0, 0, 0, generic, generic[3 + rest - 1] == 'y' ? 1 : 0);
        mini_roots(&m, 0, 1, root);
        CHECK_OK(mini_start(&m, &inst, 16, 4, 1, NULL));
        CHECK_OK(plumbob_jazz_bind_actor(&inst, plumbob_fnv32_str("x"), 1, x_age));
        CHECK_OK(plumbob_jazz_bind_actor(&inst, plumbob_fnv32_str("y"), 2, y_age));
        CHECK_OK(plumbob_jazz_enter(&inst, state_hash(0), g_actions, 4, &n));
        CHECK_EQ(n, 2);
        CHECK_EQ(g_actions[1].clips[0].instance, ent.instance);
        CHECK_EQ(g_actions[1].clips[0].group, ent.group);
        t_digest_u64(g_actions[1].clips[0].instance);
        found++;
    }
    CHECK_EQ(found, 10);
    free(kmem);
    free(data);
}

void test_jazz_error_sweep(void) {
    size_t n = build_bytes();
    t_error_sweep("jazz", t_scratch(), n);
}

/* The synthetic machine's bytes for other test files (test_finite.c). */
size_t t_build_jazz(unsigned char *out, size_t cap) {
    size_t n = build_bytes();
    if (out != t_scratch()) {
        if (n > cap) return 0;
        memcpy(out, t_scratch(), n);
    }
    return n;
}
