/* The jazz runtime: enter states, follow requested transitions, evaluate
 * decision graphs into actions.  Every table lives in the caller's arena;
 * graph walks use an explicit stack bounded by the step limit, so cyclic or
 * deep graphs end in PLUMBOB_ERR_LIMIT_EXCEEDED, never a stack overflow. */
#include <float.h>
#include "plumbob.h"
#include "pb_bytes.h"
#include "pb_hash.h"

/* Steps are capped so the stack size cannot overflow size_t arithmetic. */
#define MAX_STEPS_CAP (1u << 24)

static size_t bit_words(const plumbob_jazz *j) {
    size_t bits = 0;
    uint32_t i;
    for (i = 0; i < j->node_count; i++)
        if (j->nodes[i].kind == PLUMBOB_JAZZ_RANDOM) bits += j->nodes[i].branch_count;
    return (bits + 31u) / 32u;
}

static bool limits_ok(const plumbob_jazz_limits *l) {
    return l && l->max_steps > 0 && l->max_steps <= MAX_STEPS_CAP && l->max_actions > 0;
}

size_t plumbob_jazz_instance_size(const plumbob_jazz *jazz, const plumbob_jazz_limits *limits) {
    size_t need = 0;
    if (!jazz || !limits_ok(limits)) return 0;
    plumbob_size_add(&need, plumbob_arena_need(jazz->param_count, sizeof(uint32_t)));
    plumbob_size_add(&need, plumbob_arena_need(jazz->param_count, sizeof(const char *)));
    plumbob_size_add(&need, plumbob_arena_need(jazz->param_count, sizeof(size_t)));
    plumbob_size_add(&need, plumbob_arena_need(jazz->actor_count, sizeof(uint32_t)));
    plumbob_size_add(&need, plumbob_arena_need(jazz->actor_count, sizeof(int)));
    plumbob_size_add(&need, plumbob_arena_need(jazz->node_count, sizeof(uint32_t)));
    plumbob_size_add(&need, plumbob_arena_need(bit_words(jazz), sizeof(uint32_t)));
    plumbob_size_add(&need, plumbob_arena_need((size_t)jazz->state_count * 3u, sizeof(uint32_t)));
    plumbob_size_add(&need, plumbob_arena_need((size_t)limits->max_steps * 2u, sizeof(uint32_t)));
    return need;
}

#define ALLOC(arena, n, T) ((T *)plumbob_arena_alloc_array((arena), (n), sizeof(T), 0))

plumbob_result plumbob_jazz_instance_init(plumbob_jazz_instance *inst, const plumbob_jazz *jazz,
                                          const plumbob_jazz_limits *limits, const plumbob_key_table *names,
                                          uint64_t seed, plumbob_arena *arena) {
    size_t mark, words;
    uint32_t i, bit = 0;
    if (!inst || !jazz || !arena || !limits_ok(limits)) return PLUMBOB_ERR_INVALID_ARGUMENT;
    mark = plumbob_arena_mark(arena);
    words = bit_words(jazz);
    inst->param_values = ALLOC(arena, jazz->param_count, uint32_t);
    inst->param_text = ALLOC(arena, jazz->param_count, const char *);
    inst->param_text_len = ALLOC(arena, jazz->param_count, size_t);
    inst->actor_handles = ALLOC(arena, jazz->actor_count, uint32_t);
    inst->actor_ages = ALLOC(arena, jazz->actor_count, int);
    inst->random_first = ALLOC(arena, jazz->node_count, uint32_t);
    inst->random_used = ALLOC(arena, words, uint32_t);
    inst->search = ALLOC(arena, (size_t)jazz->state_count * 3u, uint32_t);
    inst->stack = ALLOC(arena, (size_t)limits->max_steps * 2u, uint32_t);
    if (!inst->param_values || !inst->param_text || !inst->param_text_len || !inst->actor_handles ||
        !inst->actor_ages || !inst->random_first || !inst->random_used || !inst->search || !inst->stack) {
        plumbob_arena_reset(arena, mark);
        return PLUMBOB_ERR_OUT_OF_MEMORY;
    }
    inst->jazz = jazz;
    inst->names = names;
    inst->limits = *limits;
    inst->state = PLUMBOB_JAZZ_NONE;
    /* xorshift64* must not start at zero. */
    inst->rng = seed ^ 0x9E3779B97F4A7C15ull;
    if (inst->rng == 0) inst->rng = 0x9E3779B97F4A7C15ull;
    for (i = 0; i < jazz->param_count; i++) {
        inst->param_values[i] = jazz->params[i].default_value;
        inst->param_text[i] = NULL;
        inst->param_text_len[i] = 0;
    }
    for (i = 0; i < jazz->actor_count; i++) {
        inst->actor_handles[i] = 0;
        inst->actor_ages[i] = PLUMBOB_AGE_GENERIC;
    }
    for (i = 0; i < jazz->node_count; i++) {
        inst->random_first[i] = bit;
        if (jazz->nodes[i].kind == PLUMBOB_JAZZ_RANDOM) bit += jazz->nodes[i].branch_count;
    }
    for (i = 0; i < words; i++) inst->random_used[i] = 0;
    return PLUMBOB_OK;
}

plumbob_result plumbob_jazz_bind_actor(plumbob_jazz_instance *inst, uint32_t name, uint32_t handle, int age) {
    uint32_t a;
    /* An age code the clip-name rule does not know is refused here, not at play time. */
    if (!inst || !inst->jazz || !pb_age_code_valid(age)) return PLUMBOB_ERR_INVALID_ARGUMENT;
    a = plumbob_jazz_find_actor(inst->jazz, name);
    if (a == PLUMBOB_JAZZ_NONE) return PLUMBOB_ERR_NOT_FOUND;
    inst->actor_handles[a] = handle;
    inst->actor_ages[a] = age;
    return PLUMBOB_OK;
}

plumbob_result plumbob_jazz_set_param(plumbob_jazz_instance *inst, uint32_t name, uint32_t value, const char *text,
                                      size_t text_len) {
    uint32_t p;
    if (!inst || !inst->jazz || (!text && text_len > 0)) return PLUMBOB_ERR_INVALID_ARGUMENT;
    p = plumbob_jazz_find_param(inst->jazz, name);
    if (p == PLUMBOB_JAZZ_NONE) return PLUMBOB_ERR_NOT_FOUND;
    inst->param_values[p] = value;
    inst->param_text[p] = text;
    inst->param_text_len[p] = text ? text_len : 0;
    return PLUMBOB_OK;
}

/* ---- one call's state -------------------------------------------------- */

typedef struct run {
    plumbob_jazz_instance *inst;
    const plumbob_jazz *j;
    plumbob_jazz_action *out;
    size_t cap, n;
    uint32_t steps;
    uint32_t destination; /* the requested state, for select-on-destination */
    uint32_t next;        /* set by the first next-state node of a graph */
} run;

static plumbob_result take_step(run *r) {
    if (r->steps >= r->inst->limits.max_steps) return PLUMBOB_ERR_LIMIT_EXCEEDED;
    r->steps++;
    return PLUMBOB_OK;
}

/* A zeroed action slot at the end of the output, or NULL when full. */
static plumbob_jazz_action *new_action(run *r, uint32_t kind, uint32_t node, uint32_t after) {
    static const plumbob_jazz_action zero = {0};
    plumbob_jazz_action *a;
    if (r->n >= r->cap || r->n >= r->inst->limits.max_actions) return NULL;
    a = &r->out[r->n++];
    *a = zero;
    a->kind = kind;
    a->state = r->inst->state;
    a->node = node;
    a->after = after;
    a->actor = PLUMBOB_JAZZ_NONE;
    return a;
}

static void set_actor(run *r, plumbob_jazz_action *a, uint32_t actor) {
    a->actor = actor < r->j->actor_count ? actor : PLUMBOB_JAZZ_NONE;
    a->handle = a->actor != PLUMBOB_JAZZ_NONE ? r->inst->actor_handles[actor] : 0;
}

/* xorshift64*: 24 random bits as a float in [0, 1). */
static float next_unit(plumbob_jazz_instance *inst) {
    uint64_t x = inst->rng;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    inst->rng = x;
    return (float)((x * 0x2545F4914F6CDD1Dull) >> 40) * (1.0f / 16777216.0f);
}

static bool weight_ok(float w) {
    return w > 0.0f && w <= FLT_MAX; /* false for NaN, zero, negative, infinity */
}

/* Weighted pick among a Random node's branches; AvoidRepeats skips branches
 * already taken until every valid one has been, then starts over (keeping
 * the last pick out, so no branch repeats back to back while another is
 * valid).  Returns the branch or NONE when no weight is valid. */
static uint32_t pick_random(run *r, uint32_t node) {
    const plumbob_jazz_node *n = &r->j->nodes[node];
    uint32_t *used = r->inst->random_used, first = r->inst->random_first[node], i, pick = PLUMBOB_JAZZ_NONE;
    bool avoid = (n->u.random.flags & PLUMBOB_JAZZ_RANDOM_AVOID_REPEATS) != 0, any_free = false;
    float total = 0.0f, x, acc = 0.0f;
#define USED(b) ((used[(first + (b)) / 32u] >> ((first + (b)) % 32u)) & 1u)
    for (i = 0; i < n->branch_count; i++)
        if (weight_ok(n->branches[i].weight) && !(avoid && USED(i))) any_free = true;
    for (i = 0; i < n->branch_count; i++)
        if (weight_ok(n->branches[i].weight) && !(avoid && any_free && USED(i))) total += n->branches[i].weight;
    if (!(total > 0.0f)) return PLUMBOB_JAZZ_NONE;
    x = next_unit(r->inst) * total;
    for (i = 0; i < n->branch_count; i++) {
        if (!weight_ok(n->branches[i].weight) || (avoid && any_free && USED(i))) continue;
        pick = i;
        acc += n->branches[i].weight;
        if (x < acc) break;
    }
    if (avoid) {
        bool all = true;
        used[(first + pick) / 32u] |= 1u << ((first + pick) % 32u);
        for (i = 0; i < n->branch_count; i++)
            if (weight_ok(n->branches[i].weight) && !USED(i)) all = false;
        if (all)
            for (i = 0; i < n->branch_count; i++)
                if (i != pick) used[(first + i) / 32u] &= ~(1u << ((first + i) % 32u));
    }
#undef USED
    return pick;
}

/* Appends `c` to the clip name; false when it does not fit. */
static bool name_put(char *name, size_t *len, char c) {
    if (*len + 1u >= PLUMBOB_JAZZ_MAX_CLIP_NAME) return false;
    name[(*len)++] = c;
    name[*len] = '\0';
    return true;
}

/* The play's clip name with {parameter} replaced by the parameter value's
 * name (set by the caller, or found in the instance's KEY table).  UTF-16
 * units outside ASCII become '?'. */
static plumbob_result substitute(run *r, const plumbob_jazz_text *t, char *name, size_t *len) {
    uint32_t i = 0;
    *len = 0;
    name[0] = '\0';
    while (i < t->length) {
        unsigned u = pb_le16(t->units + 2u * i);
        i++;
        if (u == '{') {
            char pname[64];
            size_t plen = 0, k;
            uint32_t p;
            const char *text = NULL;
            size_t text_len = 0;
            while (i < t->length) {
                unsigned v = pb_le16(t->units + 2u * i);
                i++;
                if (v == '}') break;
                if (plen >= sizeof pname) return PLUMBOB_ERR_LIMIT_EXCEEDED;
                pname[plen++] = v < 0x80u ? (char)v : '?';
                if (i == t->length) return PLUMBOB_ERR_BAD_DATA; /* no closing brace */
            }
            p = plumbob_jazz_find_param(r->j, plumbob_fnv32(pname, plen));
            if (p == PLUMBOB_JAZZ_NONE) return PLUMBOB_ERR_NOT_FOUND;
            if (r->inst->param_text[p]) {
                text = r->inst->param_text[p];
                text_len = r->inst->param_text_len[p];
            } else if (r->inst->names) {
                plumbob_string s;
                if (plumbob_key_table_find(r->inst->names, r->inst->param_values[p], &s) != PLUMBOB_OK)
                    return PLUMBOB_ERR_NOT_FOUND;
                text = s.ptr;
                text_len = s.len;
            } else {
                return PLUMBOB_ERR_NOT_FOUND;
            }
            for (k = 0; k < text_len; k++)
                if (!name_put(name, len, text[k])) return PLUMBOB_ERR_LIMIT_EXCEEDED;
        } else if (!name_put(name, len, u < 0x80u ? (char)u : '?')) {
            return PLUMBOB_ERR_LIMIT_EXCEEDED;
        }
    }
    return PLUMBOB_OK;
}

/* The keys to try for a play: from the substituted name by the clip-name
 * rule with the actor's age, or from the stored key (its age-specific
 * variant first when the actor has an age and the key is generic). */
static void resolve_clip(run *r, plumbob_jazz_action *a, const plumbob_jazz_play *p) {
    int age = a->actor != PLUMBOB_JAZZ_NONE ? r->inst->actor_ages[a->actor] : PLUMBOB_AGE_GENERIC;
    if (p->name.length > 0) {
        size_t len = 0, count = 0;
        a->clip_result = substitute(r, &p->name, a->clip_name, &len);
        if (a->clip_result == PLUMBOB_OK)
            a->clip_result = plumbob_clip_fallbacks(a->clip_name, len, age, PLUMBOB_AGE_GENERIC, a->clips, &count);
        a->clip_count = (uint32_t)count;
        return;
    }
    a->clip_count = 0;
    if (age != PLUMBOB_AGE_GENERIC && !(p->clip.instance >> 63)) {
        a->clips[0].instance = p->clip.instance ^ ((uint64_t)(0x8000u | (unsigned)age << 8) << 48);
        a->clips[0].group = age > PLUMBOB_AGE_ELDER ? PLUMBOB_CLIP_GROUP_PETS : p->clip.group;
        a->clip_count = 1;
    }
    a->clips[a->clip_count].instance = p->clip.instance;
    a->clips[a->clip_count].group = p->clip.group;
    a->clip_count++;
}

static plumbob_result push(run *r, size_t *top, uint32_t node, uint32_t after) {
    if (*top >= r->inst->limits.max_steps) return PLUMBOB_ERR_LIMIT_EXCEEDED;
    r->inst->stack[2u * *top] = node;
    r->inst->stack[2u * *top + 1u] = after;
    (*top)++;
    return PLUMBOB_OK;
}

/* Pushes a node list in reverse so it pops in order. */
static plumbob_result push_all(run *r, size_t *top, const uint32_t *nodes, uint32_t count, uint32_t after) {
    uint32_t i;
    for (i = count; i-- > 0;) {
        plumbob_result res = push(r, top, nodes[i], after);
        if (res != PLUMBOB_OK) return res;
    }
    return PLUMBOB_OK;
}

/* Evaluates a decision graph depth first from its roots, in order. */
static plumbob_result run_graph(run *r, uint32_t graph) {
    const plumbob_jazz_graph *g = &r->j->graphs[graph];
    size_t top = 0;
    plumbob_result res = push_all(r, &top, g->roots, g->root_count, PLUMBOB_JAZZ_NONE);
    while (res == PLUMBOB_OK && top > 0) {
        uint32_t node, after, b;
        const plumbob_jazz_node *n;
        plumbob_jazz_action *a = NULL;
        top--;
        node = r->inst->stack[2u * top];
        after = r->inst->stack[2u * top + 1u];
        if ((res = take_step(r)) != PLUMBOB_OK) break;
        n = &r->j->nodes[node];
        switch (n->kind) {
        case PLUMBOB_JAZZ_PLAY:
            if (!(a = new_action(r, PLUMBOB_JAZZ_ACTION_PLAY, node, after))) break;
            set_actor(r, a, n->u.play.anim.actor);
            a->play = &n->u.play;
            a->anim = &n->u.play.anim;
            resolve_clip(r, a, &n->u.play);
            break;
        case PLUMBOB_JAZZ_STOP:
            if (!(a = new_action(r, PLUMBOB_JAZZ_ACTION_STOP, node, after))) break;
            set_actor(r, a, n->u.stop.actor);
            a->anim = &n->u.stop;
            break;
        case PLUMBOB_JAZZ_PROP:
            if (!(a = new_action(r, PLUMBOB_JAZZ_ACTION_PROP, node, after))) break;
            set_actor(r, a, n->u.prop.actor);
            a->prop = n->u.prop.object;
            break;
        case PLUMBOB_JAZZ_ACTOR_OP:
            if (!(a = new_action(r, PLUMBOB_JAZZ_ACTION_ACTOR_OP, node, after))) break;
            set_actor(r, a, n->u.actor_op.actor);
            a->op = n->u.actor_op.op;
            a->operand = n->u.actor_op.operand;
            break;
        case PLUMBOB_JAZZ_RANDOM:
            b = pick_random(r, node);
            if (b != PLUMBOB_JAZZ_NONE)
                res = push_all(r, &top, n->branches[b].children, n->branches[b].child_count, after);
            continue;
        case PLUMBOB_JAZZ_SELECT_PARAM:
        case PLUMBOB_JAZZ_SELECT_DEST: {
            uint32_t want = n->kind == PLUMBOB_JAZZ_SELECT_DEST ? r->destination
                                                                : r->inst->param_values[n->u.select.param];
            for (b = 0; b < n->branch_count && n->branches[b].value != want; b++) {}
            if (b < n->branch_count && want != PLUMBOB_JAZZ_NONE)
                res = push_all(r, &top, n->branches[b].children, n->branches[b].child_count, after);
            continue;
        }
        default: /* PLUMBOB_JAZZ_NEXT_STATE: the first one decides */
            if (r->next == PLUMBOB_JAZZ_NONE) r->next = n->u.next.state;
            continue;
        }
        if (!a) return PLUMBOB_ERR_LIMIT_EXCEEDED;
        res = push_all(r, &top, n->children, n->child_count, (uint32_t)(r->n - 1u));
    }
    return res;
}

/* Enters state s, runs its graph, then follows next-state nodes. */
static plumbob_result enter_state(run *r, uint32_t s) {
    while (s != PLUMBOB_JAZZ_NONE) {
        plumbob_result res = take_step(r);
        plumbob_jazz_action *a;
        if (res != PLUMBOB_OK) return res;
        r->inst->state = s;
        if (!(a = new_action(r, PLUMBOB_JAZZ_ACTION_ENTER, PLUMBOB_JAZZ_NONE, PLUMBOB_JAZZ_NONE)))
            return PLUMBOB_ERR_LIMIT_EXCEEDED;
        r->next = PLUMBOB_JAZZ_NONE;
        res = run_graph(r, r->j->states[s].graph);
        if (res != PLUMBOB_OK) return res;
        s = r->next;
    }
    return PLUMBOB_OK;
}

/* Starts a call: checks the arguments and finds state `name` (*state). */
static plumbob_result begin(run *r, plumbob_jazz_instance *inst, uint32_t name, plumbob_jazz_action *out,
                            size_t cap, size_t *count, uint32_t *state) {
    if (!inst || !inst->jazz || !count || (!out && cap > 0)) return PLUMBOB_ERR_INVALID_ARGUMENT;
    *count = 0;
    r->inst = inst;
    r->j = inst->jazz;
    r->out = out;
    r->cap = cap;
    r->n = 0;
    r->steps = 0;
    r->next = PLUMBOB_JAZZ_NONE;
    r->destination = *state = plumbob_jazz_find_state(r->j, name);
    return *state == PLUMBOB_JAZZ_NONE ? PLUMBOB_ERR_NOT_FOUND : PLUMBOB_OK;
}

plumbob_result plumbob_jazz_enter(plumbob_jazz_instance *inst, uint32_t name, plumbob_jazz_action *out,
                                  size_t out_cap, size_t *count) {
    run r;
    uint32_t s;
    plumbob_result res = begin(&r, inst, name, out, out_cap, count, &s);
    if (res != PLUMBOB_OK) return res;
    if (!(r.j->states[s].flags & PLUMBOB_JAZZ_STATE_ENTRY)) return PLUMBOB_ERR_INVALID_ARGUMENT;
    res = enter_state(&r, s);
    *count = r.n;
    return res;
}

/* Breadth-first search from `from` to `to` over transitions in list order;
 * writes the states after `from` to path and returns how many (0: none). */
static uint32_t find_path(run *r, uint32_t from, uint32_t to) {
    const plumbob_jazz *j = r->j;
    uint32_t *prev = r->inst->search, *queue = prev + j->state_count, *path = queue + j->state_count;
    uint32_t head = 0, tail = 0, i, n = 0, s;
    for (i = 0; i < j->state_count; i++) prev[i] = PLUMBOB_JAZZ_NONE;
    prev[from] = from;
    queue[tail++] = from;
    while (head < tail && prev[to] == PLUMBOB_JAZZ_NONE) {
        const plumbob_jazz_state *st = &j->states[queue[head++]];
        for (i = 0; i < st->transition_count; i++) {
            uint32_t t = st->transitions[i];
            if (prev[t] != PLUMBOB_JAZZ_NONE) continue;
            prev[t] = (uint32_t)(st - j->states);
            queue[tail++] = t;
        }
    }
    if (prev[to] == PLUMBOB_JAZZ_NONE) return 0;
    for (s = to; s != from; s = prev[s]) n++;
    for (s = to, i = n; s != from; s = prev[s]) path[--i] = s;
    return n;
}

plumbob_result plumbob_jazz_request(plumbob_jazz_instance *inst, uint32_t name, plumbob_jazz_action *out,
                                    size_t out_cap, size_t *count) {
    run r;
    uint32_t target;
    plumbob_result res = begin(&r, inst, name, out, out_cap, count, &target);
    if (res != PLUMBOB_OK) return res;
    if (inst->state == PLUMBOB_JAZZ_NONE) return PLUMBOB_ERR_NOT_FOUND;
    while (res == PLUMBOB_OK && inst->state != target) {
        uint32_t n = find_path(&r, inst->state, target), i;
        const uint32_t *path = inst->search + 2u * r.j->state_count;
        if (n == 0) {
            res = PLUMBOB_ERR_NOT_FOUND;
            break;
        }
        /* Walk the path; a next-state node diverts it, and the loop plans again. */
        for (i = 0; i < n && res == PLUMBOB_OK; i++) {
            res = enter_state(&r, path[i]);
            if (inst->state != path[i]) break;
        }
    }
    *count = r.n;
    return res;
}
