/* libFuzzer target for the jazz runtime: the input describes a random
 * machine (states with any flags and transitions, graphs of every node kind
 * with any children, branches, weights as raw float bits, Next States
 * anywhere, clip names with substitutions and two-actor prefixes) and then a
 * random series of enter / request / tick calls under random limits.  Every
 * call must end within its limits with a named result, and what it reports
 * must agree with the rules in docs/API.md. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "plumbob.h"

#define MAX_STATES 24u
#define MAX_NODES 32u
#define MAX_LIST 2048u

typedef struct src {
    const uint8_t *p;
    size_t n;
} src;

static uint32_t take(src *s) {
    if (s->n == 0) return 0;
    s->n--;
    return *s->p++;
}

static uint32_t take32(src *s) {
    uint32_t v = take(s);
    v |= take(s) << 8;
    v |= take(s) << 16;
    return v | take(s) << 24;
}

typedef struct machine {
    plumbob_jazz j;
    plumbob_jazz_state states[MAX_STATES];
    plumbob_jazz_graph graphs[MAX_STATES];
    plumbob_jazz_node nodes[MAX_NODES];
    plumbob_jazz_branch branches[MAX_NODES * 3];
    plumbob_jazz_actor actors[2];
    plumbob_jazz_param params[1];
    uint32_t lists[MAX_LIST], used, nbranch;
} machine;

/* n items below `below` from the input (none when below is 0). */
static const uint32_t *list(machine *m, src *s, uint32_t n, uint32_t below, uint32_t *count) {
    uint32_t *p = m->lists + m->used, i;
    if (below == 0 || m->used + n > MAX_LIST) n = 0;
    for (i = 0; i < n; i++) p[i] = take(s) % below;
    m->used += n;
    *count = n;
    return p;
}

static const char *const clip_names[] = {"{p}_walk_x", "a2a_soc_hug_y", "a2o_door_open_x", "{nope}_x", "{p",
                                         "t2c_{p}_y", "o_idle", "{p}{p}{p}{p}{p}{p}{p}{p}{p}{p}{p}{p}{p}{p}{p}{p}"};
static unsigned char utf16[8][160];

static void build(machine *m, src *s) {
    uint32_t ns = 1 + take(s) % MAX_STATES, nn = take(s) % (MAX_NODES + 1), i, b;
    memset(m, 0, sizeof *m);
    for (i = 0; i < 8; i++) {
        size_t k, len = strlen(clip_names[i]);
        for (k = 0; k < len; k++) {
            utf16[i][2 * k] = (unsigned char)clip_names[i][k];
            utf16[i][2 * k + 1] = 0;
        }
    }
    m->actors[0].name = plumbob_fnv32_str("x");
    m->actors[1].name = plumbob_fnv32_str("y");
    m->params[0].name = plumbob_fnv32_str("p");
    m->params[0].default_value = take32(s);
    for (i = 0; i < ns; i++) {
        plumbob_jazz_state *st = &m->states[i];
        st->name = 0x1000u + i;
        st->flags = (take(s) | take(s) << 8) & 0x1FFu;
        st->graph = i;
        st->transitions = list(m, s, take(s) % 5, ns, &st->transition_count);
        m->graphs[i].roots = list(m, s, take(s) % 4, nn, &m->graphs[i].root_count);
        m->graphs[i].nodes = m->graphs[i].roots;
        m->graphs[i].node_count = m->graphs[i].root_count;
    }
    for (i = 0; i < nn; i++) {
        plumbob_jazz_node *n = &m->nodes[i];
        uint32_t actor = take(s) % 3;
        n->kind = take(s) % PLUMBOB_JAZZ_NODE_KIND_COUNT;
        if (actor == 2) actor = PLUMBOB_JAZZ_NONE;
        switch (n->kind) {
        case PLUMBOB_JAZZ_PLAY: {
            uint32_t name = take(s) % 12;
            n->u.play.clip.instance = (uint64_t)take32(s) << 32 | take32(s);
            n->u.play.clip.group = take32(s);
            if (name < 8)
                n->u.play.name = (plumbob_jazz_text){utf16[name], (uint32_t)strlen(clip_names[name])};
            n->u.play.anim.actor = actor;
            break;
        }
        case PLUMBOB_JAZZ_STOP: n->u.stop.actor = actor; break;
        case PLUMBOB_JAZZ_PROP: n->u.prop.actor = actor; break;
        case PLUMBOB_JAZZ_ACTOR_OP: n->u.actor_op.actor = actor; break;
        case PLUMBOB_JAZZ_NEXT_STATE: n->u.next.state = take(s) % ns; break;
        case PLUMBOB_JAZZ_SELECT_PARAM: n->u.select.param = 0; /* fall through */
        case PLUMBOB_JAZZ_SELECT_DEST:
        case PLUMBOB_JAZZ_RANDOM:
            n->branch_count = take(s) % 4;
            if (m->nbranch + n->branch_count > MAX_NODES * 3) n->branch_count = 0;
            n->branches = &m->branches[m->nbranch];
            n->u.random.flags = n->kind == PLUMBOB_JAZZ_RANDOM ? take(s) & 1u : n->u.random.flags;
            for (b = 0; b < n->branch_count; b++) {
                plumbob_jazz_branch *br = &m->branches[m->nbranch++];
                union { uint32_t u; float f; } w;
                w.u = take(s) & 1u ? take32(s) : 0x3F800000u; /* raw bits: NaN, inf, denormals */
                br->weight = w.f;
                br->value = n->kind == PLUMBOB_JAZZ_SELECT_DEST ? take(s) % ns
                          : take(s) & 1u ? m->params[0].default_value : take32(s);
                br->children = list(m, s, take(s) % 3, nn, &br->child_count);
            }
            break;
        default: break;
        }
        if (n->kind == PLUMBOB_JAZZ_PLAY || n->kind == PLUMBOB_JAZZ_STOP || n->kind == PLUMBOB_JAZZ_PROP ||
            n->kind == PLUMBOB_JAZZ_ACTOR_OP)
            n->children = list(m, s, take(s) % 3, nn, &n->child_count);
    }
    m->j.states = m->states;
    m->j.state_count = ns;
    m->j.graphs = m->graphs;
    m->j.graph_count = ns;
    m->j.nodes = m->nodes;
    m->j.node_count = nn;
    m->j.actors = m->actors;
    m->j.actor_count = 2;
    m->j.params = m->params;
    m->j.param_count = 1;
}

static bool declared(const plumbob_jazz *j, uint32_t from, uint32_t to) {
    uint32_t i;
    for (i = 0; i < j->states[from].transition_count; i++)
        if (j->states[from].transitions[i] == to) return true;
    return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static machine m;
    static const int ages[] = {PLUMBOB_AGE_GENERIC, PLUMBOB_AGE_CHILD, PLUMBOB_AGE_TEEN, PLUMBOB_AGE_SMALL_DOG,
                               PLUMBOB_AGE_CAT, PLUMBOB_AGE_HORSE};
    src s = {data, size};
    plumbob_jazz_limits limits;
    plumbob_jazz_instance inst;
    plumbob_jazz_action *out;
    plumbob_arena arena;
    unsigned char *mem;
    size_t need, cap, trace_cap;
    uint32_t op;
    build(&m, &s);
    limits.max_steps = 1 + take(&s) % 512;
    limits.max_actions = 1 + take(&s) % 64;
    cap = take(&s) % 80;
    need = plumbob_jazz_instance_size(&m.j, &limits);
    if (need == 0 || need == SIZE_MAX) __builtin_trap();
    mem = (unsigned char *)malloc(need);
    out = (plumbob_jazz_action *)malloc(sizeof *out * (cap ? cap : 1));
    plumbob_arena_init(&arena, mem, need);
    if (plumbob_jazz_instance_init(&inst, &m.j, &limits, NULL, (uint64_t)take32(&s) << 32 | take32(&s), &arena) !=
        PLUMBOB_OK)
        __builtin_trap();
    plumbob_jazz_bind_actor(&inst, m.actors[0].name, 1, ages[take(&s) % 6]);
    plumbob_jazz_bind_actor(&inst, m.actors[1].name, 2, ages[take(&s) % 6]);
    if (take(&s) & 1u) plumbob_jazz_set_param(&inst, m.params[0].name, m.params[0].default_value, "al", 2);
    {
        static plumbob_jazz_step steps[128];
        trace_cap = take(&s) % 129;
        plumbob_jazz_set_trace(&inst, steps, trace_cap);
    }
    for (op = 0; op < 64 && s.n > 0; op++) {
        uint32_t kind = take(&s) % 3, target = take(&s) % m.j.state_count, before = inst.state, i;
        size_t n = 999;
        plumbob_result r;
        if (kind == 0) r = plumbob_jazz_enter(&inst, m.states[target].name, out, cap, &n);
        else if (kind == 1) r = plumbob_jazz_request(&inst, m.states[target].name, out, cap, &n);
        else r = plumbob_jazz_tick(&inst, out, cap, &n);
        /* every call ends within its limits, with a named result */
        if ((unsigned)r >= PLUMBOB_RESULT_COUNT || n > cap || n > limits.max_actions) __builtin_trap();
        if (inst.report.steps > limits.max_steps ||
            inst.report.traced != (inst.report.steps < trace_cap ? inst.report.steps : trace_cap))
            __builtin_trap();
        if ((r == PLUMBOB_ERR_LIMIT_EXCEEDED) != (inst.report.limit != PLUMBOB_JAZZ_LIMIT_NONE)) __builtin_trap();
        if (inst.state != PLUMBOB_JAZZ_NONE && inst.state >= m.j.state_count) __builtin_trap();
        /* a pending Next State is always along a declared transition */
        if (inst.pending != PLUMBOB_JAZZ_NONE && (inst.state == PLUMBOB_JAZZ_NONE || !declared(&m.j, inst.state, inst.pending)))
            __builtin_trap();
        if (kind == 1 && r == PLUMBOB_OK && inst.state != target) __builtin_trap();
        if (r == PLUMBOB_ERR_UNREACHABLE && (kind != 1 || inst.state != before || inst.report.state != before || n))
            __builtin_trap();
        if (kind == 0 && r == PLUMBOB_OK && !(m.states[target].flags & PLUMBOB_JAZZ_STATE_ENTRY)) __builtin_trap();
        for (i = 0; i < n; i++) {
            const plumbob_jazz_action *a = &out[i];
            if (a->kind > PLUMBOB_JAZZ_ACTION_LOOP || a->state >= m.j.state_count) __builtin_trap();
            if (a->after != PLUMBOB_JAZZ_NONE && a->after >= i) __builtin_trap();
            if (a->kind == PLUMBOB_JAZZ_ACTION_PLAY && a->clip_count > PLUMBOB_CLIP_MAX_FALLBACKS) __builtin_trap();
            if (a->kind == PLUMBOB_JAZZ_ACTION_NEXT_STATE &&
                (a->next >= m.j.state_count || a->next_status > PLUMBOB_JAZZ_NEXT_SUPERSEDED ||
                 (a->next_status == PLUMBOB_JAZZ_NEXT_NO_TRANSITION) == declared(&m.j, a->state, a->next)))
                __builtin_trap();
        }
        (void)plumbob_jazz_finished(&inst);
    }
    free(out);
    free(mem);
    return 0;
}
