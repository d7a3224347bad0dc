/* The jazz runtime: enter states, walk requested routes, follow pending
 * Next States on ticks, evaluate decision graphs into actions.  Every table
 * lives in the caller's arena; graph walks use an explicit stack bounded by
 * the step limit, so cyclic or deep graphs end in PLUMBOB_ERR_LIMIT_EXCEEDED,
 * never a stack overflow.  No call follows a Next State itself, so every
 * call enters each state at most once per route step and always ends. */
#include <float.h>
#include "plumbob/runtime.h"
#include "pb_bytes.h"
#include "pb_hash.h"

#define FNV32_X 0x050C5D67u /* FNV-32 of "x" and "y": the two roles of a social clip */
#define FNV32_Y 0x050C5D66u

/* Stack entries keep the reason a node is visited in the node word's top
 * byte; node indices stay below PLUMBOB_JAZZ_MAX_CHUNKS. */
#define NODE_MASK 0x00FFFFFFu
#define WHY_SHIFT 24u

static size_t bit_words(const plumbob_jazz *j) {
    size_t bits = 0;
    uint32_t i;
    for (i = 0; i < j->node_count; i++)
        if (j->nodes[i].kind == PLUMBOB_JAZZ_RANDOM) bits += j->nodes[i].branch_count;
    return (bits + 31u) / 32u;
}

static bool limits_ok(const plumbob_jazz_limits *l) {
    return l && l->max_steps > 0 && l->max_steps <= PLUMBOB_JAZZ_MAX_STEPS && l->max_actions > 0;
}

size_t plumbob_jazz_instance_size(const plumbob_jazz *jazz, const plumbob_jazz_limits *limits) {
    size_t need = 0;
    if (!jazz || !limits_ok(limits)) return SIZE_MAX; /* the sizing rule */
    plumbob_size_add(&need, plumbob_arena_need(jazz->param_count, sizeof(uint32_t)));
    plumbob_size_add(&need, plumbob_arena_need(jazz->param_count, sizeof(const char *)));
    plumbob_size_add(&need, plumbob_arena_need(jazz->param_count, sizeof(size_t)));
    plumbob_size_add(&need, plumbob_arena_need(jazz->actor_count, sizeof(uint32_t)));
    plumbob_size_add(&need, plumbob_arena_need(jazz->actor_count, sizeof(int)));
    plumbob_size_add(&need, plumbob_arena_need(jazz->node_count, sizeof(uint32_t)));
    plumbob_size_add(&need, plumbob_arena_need(bit_words(jazz), sizeof(uint32_t)));
    plumbob_size_add(&need, plumbob_arena_need((size_t)jazz->state_count * 4u, sizeof(uint32_t)));
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
    inst->search = ALLOC(arena, (size_t)jazz->state_count * 4u, uint32_t);
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
    inst->pending = PLUMBOB_JAZZ_NONE;
    inst->report.steps = 0;
    inst->report.limit = PLUMBOB_JAZZ_LIMIT_NONE;
    inst->report.state = PLUMBOB_JAZZ_NONE;
    inst->report.traced = 0;
    inst->trace = NULL;
    inst->trace_cap = 0;
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
    /* route-search marks: epoch 0 is never current, so all start unvisited */
    inst->search_epoch = 0;
    for (i = 0; i < jazz->state_count; i++) inst->search[i] = 0;
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

plumbob_result plumbob_jazz_set_param(plumbob_jazz_instance *inst, uint32_t name, uint32_t value,
                                      const char *text, size_t text_len) {
    uint32_t p;
    if (!inst || !inst->jazz || (!text && text_len > 0)) return PLUMBOB_ERR_INVALID_ARGUMENT;
    p = plumbob_jazz_find_param(inst->jazz, name);
    if (p == PLUMBOB_JAZZ_NONE) return PLUMBOB_ERR_NOT_FOUND;
    inst->param_values[p] = value;
    inst->param_text[p] = text;
    inst->param_text_len[p] = text ? text_len : 0;
    return PLUMBOB_OK;
}

void plumbob_jazz_set_trace(plumbob_jazz_instance *inst, plumbob_jazz_step *steps, size_t cap) {
    if (!inst) return;
    inst->trace = cap ? steps : NULL;
    inst->trace_cap = steps ? cap : 0;
}

bool plumbob_jazz_finished(const plumbob_jazz_instance *inst) {
    return inst && inst->jazz && inst->state < inst->jazz->state_count &&
           (inst->jazz->states[inst->state].flags & PLUMBOB_JAZZ_STATE_EXIT) != 0;
}

/* ---- one call's state -------------------------------------------------- */

typedef struct run {
    plumbob_jazz_instance *inst;
    const plumbob_jazz *j;
    plumbob_jazz_action *out;
    size_t cap, n;
    uint32_t destination; /* the state the call heads for, for select-on-destination */
    uint32_t route_next;  /* a request passing through: the state after this one; else NONE */
    bool decided;         /* this graph's Next State is decided */
} run;

/* Counts one step (and records it in the trace buffer); fails at max_steps. */
static plumbob_result take_step(run *r, uint32_t why, uint32_t state, uint32_t node, uint32_t branch) {
    plumbob_jazz_instance *inst = r->inst;
    if (inst->report.steps >= inst->limits.max_steps) {
        inst->report.limit = PLUMBOB_JAZZ_LIMIT_STEPS;
        return PLUMBOB_ERR_LIMIT_EXCEEDED;
    }
    inst->report.steps++;
    if (inst->report.traced < inst->trace_cap) {
        plumbob_jazz_step *s = &inst->trace[inst->report.traced++];
        s->why = why;
        s->state = state;
        s->node = node;
        s->branch = branch;
    }
    return PLUMBOB_OK;
}

/* A zeroed action slot at the end of the output, or NULL (and the limit
 * recorded) when full. */
static plumbob_jazz_action *new_action(run *r, uint32_t kind, uint32_t node, uint32_t after) {
    static const plumbob_jazz_action zero = {0};
    plumbob_jazz_action *a;
    if (r->n >= r->cap || r->n >= r->inst->limits.max_actions) {
        r->inst->report.limit = r->n >= r->inst->limits.max_actions ? PLUMBOB_JAZZ_LIMIT_ACTIONS
                                                                    : PLUMBOB_JAZZ_LIMIT_OUTPUT;
        return NULL;
    }
    a = &r->out[r->n++];
    *a = zero;
    a->kind = kind;
    a->state = r->inst->state;
    a->node = node;
    a->after = after;
    a->actor = PLUMBOB_JAZZ_NONE;
    a->next = PLUMBOB_JAZZ_NONE;
    return a;
}

static void set_actor(run *r, plumbob_jazz_action *a, uint32_t actor) {
    a->actor = actor < r->j->actor_count ? actor : PLUMBOB_JAZZ_NONE;
    a->handle = a->actor != PLUMBOB_JAZZ_NONE ? r->inst->actor_handles[actor] : 0;
}

/* xorshift64*: 64 random bits. */
static uint64_t next_random(plumbob_jazz_instance *inst) {
    uint64_t x = inst->rng;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    inst->rng = x;
    return x * 0x2545F4914F6CDD1Dull;
}

/* The high 64 bits of a * b, from 32-bit halves: no 128-bit type, no
 * library call, on any target. */
static uint64_t mul_high64(uint64_t a, uint64_t b) {
    uint64_t a0 = a & 0xFFFFFFFFu, a1 = a >> 32, b0 = b & 0xFFFFFFFFu, b1 = b >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    uint64_t mid = (p00 >> 32) + (p01 & 0xFFFFFFFFu) + (p10 & 0xFFFFFFFFu);
    return p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}

static bool weight_ok(float w) {
    return w > 0.0f && w <= FLT_MAX; /* false for NaN, zero, negative, infinity */
}

/* A valid weight as m * 2^(e - 150): m its 24-bit significand (a
 * denormal's is smaller), e its biased exponent (1 for denormals). */
static void weight_parts(float w, uint64_t *m, uint32_t *e) {
    uint32_t b = pb_bits_from_f32(w), ef = (b >> 23) & 0xFFu;
    *m = ef ? (uint64_t)((b & 0x7FFFFFu) | 0x800000u) : (uint64_t)(b & 0x7FFFFFu);
    *e = ef ? ef : 1u;
}

/* Weighted pick among a Random node's branches, in integers: every valid
 * weight scaled to fixed point against the largest exponent among them
 * (m << s >> (emax - e), s leaving room for the sum in 64 bits), so
 * weights near FLT_MAX do not overflow, equal denormal weights split
 * evenly, a weight below about 2^-(s+23) of the largest counts as none
 * (as in a double sum), and every target gives the same bits without
 * floating-point helpers (a single-precision FPU pays no library call).
 * The draw is the high half of a 64-bit random number times the total.
 * AvoidRepeats skips branches already taken until every valid one has
 * been, then starts over (keeping the last pick out, so no branch repeats
 * back to back while another is valid).  Returns the branch or NONE when
 * no weight is valid. */
static uint32_t pick_random(run *r, uint32_t node) {
    const plumbob_jazz_node *n = &r->j->nodes[node];
    uint32_t *used = r->inst->random_used, first = r->inst->random_first[node], i, pick = PLUMBOB_JAZZ_NONE;
    uint32_t emax = 0, e, bits = 0, shift;
    bool avoid = (n->u.random.flags & PLUMBOB_JAZZ_RANDOM_AVOID_REPEATS) != 0, any_free = false;
    uint64_t total = 0, x, acc = 0, m;
#define USED(b) ((used[(first + (b)) / 32u] >> ((first + (b)) % 32u)) & 1u)
#define TAKES(b) (weight_ok(n->branches[b].weight) && !(avoid && any_free && USED(b)))
    for (i = 0; i < n->branch_count; i++)
        if (weight_ok(n->branches[i].weight) && !(avoid && USED(i))) any_free = true;
    for (i = 0; i < n->branch_count; i++)
        if (TAKES(i)) {
            weight_parts(n->branches[i].weight, &m, &e);
            if (e > emax) emax = e;
        }
    while (bits < 32u && ((uint64_t)1 << bits) < (uint64_t)n->branch_count) bits++;
    shift = 40u - bits; /* each term below 2^(64 - bits): the sum fits */
#define SCALED(b) (weight_parts(n->branches[b].weight, &m, &e), \
                   emax - e >= 64u ? 0u : (m << shift) >> (emax - e))
    for (i = 0; i < n->branch_count; i++)
        if (TAKES(i)) total += SCALED(i);
    if (total == 0) return PLUMBOB_JAZZ_NONE;
    x = mul_high64(next_random(r->inst), total); /* in [0, total) */
    for (i = 0; i < n->branch_count; i++) {
        uint64_t v;
        if (!TAKES(i)) continue;
        v = SCALED(i);
        if (v == 0) continue; /* too small beside the largest: never drawn */
        pick = i;
        acc += v;
        if (x < acc) break;
    }
#undef SCALED
#undef TAKES
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

static int age_of(const run *r, uint32_t actor) {
    return actor < r->j->actor_count ? r->inst->actor_ages[actor] : PLUMBOB_AGE_GENERIC;
}

/* The actor and target codes for a clip name played by `actor`.  Social
 * clips come in pairs named for both actors, x's code first ("al2c_..._x"
 * and "al2c_..._y": a small dog x with a child y): the clip of role y (its
 * name ends in "_y") takes the machine's actor "x" as its actor code and its
 * own player as the target; any other clip takes its player first and the
 * machine's actor "y" (or "x" when "y" plays) as the target. */
static void clip_codes(const run *r, const char *name, size_t len, uint32_t actor, int *code, int *target) {
    bool role_y = len >= 2 && name[len - 2] == '_' && (name[len - 1] == 'y' || name[len - 1] == 'Y');
    uint32_t x = plumbob_jazz_find_actor(r->j, FNV32_X), y = plumbob_jazz_find_actor(r->j, FNV32_Y);
    uint32_t other = role_y ? x : (actor == y ? x : y);
    int mine = age_of(r, actor), theirs = other != actor ? age_of(r, other) : PLUMBOB_AGE_GENERIC;
    *code = role_y ? theirs : mine;
    *target = role_y ? mine : theirs;
}

/* Keys from a name keep the group the Play node stores (expansion packs keep
 * generic clips in groups such as 0x70000000) unless a code in the key is a
 * pet's: then plumbob_clip_fallbacks has given the pet group. */
static void keys_from_name(run *r, plumbob_jazz_action *a, size_t len, uint32_t group) {
    size_t count = 0, i;
    int code, target;
    clip_codes(r, a->clip_name, len, a->actor, &code, &target);
    a->clip_result = plumbob_clip_fallbacks(a->clip_name, len, code, target, a->clips, &count);
    for (i = 0; i < count; i++)
        if (a->clips[i].group != PLUMBOB_CLIP_GROUP_PETS) a->clips[i].group = group;
    a->clip_count = (uint32_t)count;
}

/* The keys to try for a play: from the substituted name, or for a stored
 * key from its name in the KEY table when the table has one that hashes to
 * it, by the clip-name rule with the actors' codes; otherwise the stored key
 * preceded by its age-specific variant for the player's age (one code: a
 * bare key does not say whether its name had a target code). */
static void resolve_clip(run *r, plumbob_jazz_action *a, const plumbob_jazz_play *p) {
    int age = age_of(r, a->actor);
    if (p->name.length > 0) {
        size_t len = 0;
        a->clip_result = substitute(r, &p->name, a->clip_name, &len);
        if (a->clip_result == PLUMBOB_OK) keys_from_name(r, a, len, p->clip.group);
        return;
    }
    if (r->inst->names) {
        plumbob_string s;
        plumbob_clip_key k;
        if (plumbob_key_table_find(r->inst->names, p->clip.instance, &s) == PLUMBOB_OK &&
            s.len < PLUMBOB_JAZZ_MAX_CLIP_NAME &&
            plumbob_clip_key_from_name(s.ptr, s.len, &k) == PLUMBOB_OK && k.instance == p->clip.instance) {
            size_t i;
            for (i = 0; i < s.len; i++) a->clip_name[i] = s.ptr[i];
            a->clip_name[s.len] = '\0';
            keys_from_name(r, a, s.len, p->clip.group);
            if (a->clip_result == PLUMBOB_OK) return;
            a->clip_name[0] = '\0';
        }
    }
    a->clip_result = PLUMBOB_OK;
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

static plumbob_result push(run *r, size_t *top, uint32_t node, uint32_t why, uint32_t after) {
    if (*top >= r->inst->limits.max_steps) {
        r->inst->report.limit = PLUMBOB_JAZZ_LIMIT_STEPS;
        return PLUMBOB_ERR_LIMIT_EXCEEDED;
    }
    r->inst->stack[2u * *top] = node | why << WHY_SHIFT;
    r->inst->stack[2u * *top + 1u] = after;
    (*top)++;
    return PLUMBOB_OK;
}

/* Pushes a node list in reverse so it pops in order. */
static plumbob_result push_all(run *r, size_t *top, const uint32_t *nodes, uint32_t count, uint32_t why,
                               uint32_t after) {
    uint32_t i;
    for (i = count; i-- > 0;) {
        plumbob_result res = push(r, top, nodes[i], why, after);
        if (res != PLUMBOB_OK) return res;
    }
    return PLUMBOB_OK;
}

static bool has_transition(const plumbob_jazz_state *st, uint32_t to) {
    uint32_t i;
    for (i = 0; i < st->transition_count; i++)
        if (st->transitions[i] == to) return true;
    return false;
}

/* A Next State node: reported as an action; the first one of the graph
 * along a declared transition decides.  At the end of a route (or outside a
 * request) it is left pending for the next tick; a request passing through
 * keeps its route. */
static plumbob_jazz_action *next_state(run *r, uint32_t node, uint32_t after) {
    uint32_t to = r->j->nodes[node].u.next.state;
    plumbob_jazz_action *a = new_action(r, PLUMBOB_JAZZ_ACTION_NEXT_STATE, node, after);
    if (!a) return NULL;
    a->next = to;
    if (!has_transition(&r->j->states[r->inst->state], to)) {
        a->next_status = PLUMBOB_JAZZ_NEXT_NO_TRANSITION;
    } else if (r->decided) {
        a->next_status = PLUMBOB_JAZZ_NEXT_SUPERSEDED;
    } else {
        r->decided = true;
        if (r->route_next == PLUMBOB_JAZZ_NONE) {
            a->next_status = PLUMBOB_JAZZ_NEXT_PENDING;
            r->inst->pending = to;
        } else {
            a->next_status = to == r->route_next ? PLUMBOB_JAZZ_NEXT_ON_ROUTE : PLUMBOB_JAZZ_NEXT_IGNORED;
        }
    }
    return a;
}

/* Evaluates the current state's decision graph depth first from its roots,
 * in order. */
static plumbob_result run_graph(run *r) {
    const uint32_t state = r->inst->state;
    const plumbob_jazz_graph *g = &r->j->graphs[r->j->states[state].graph];
    size_t top = 0;
    plumbob_result res = push_all(r, &top, g->roots, g->root_count, PLUMBOB_JAZZ_WHY_ROOT, PLUMBOB_JAZZ_NONE);
    r->decided = false;
    while (res == PLUMBOB_OK && top > 0) {
        uint32_t node, why, after, b = PLUMBOB_JAZZ_NONE;
        const plumbob_jazz_node *n;
        plumbob_jazz_action *a = NULL;
        top--;
        node = r->inst->stack[2u * top] & NODE_MASK;
        why = r->inst->stack[2u * top] >> WHY_SHIFT;
        after = r->inst->stack[2u * top + 1u];
        n = &r->j->nodes[node];
        switch (n->kind) {
        case PLUMBOB_JAZZ_RANDOM:
            /* the branch is picked before the step so the trace can show it */
            if (r->inst->report.steps < r->inst->limits.max_steps) b = pick_random(r, node);
            if ((res = take_step(r, why, state, node, b)) != PLUMBOB_OK) break;
            if (b != PLUMBOB_JAZZ_NONE)
                res = push_all(r, &top, n->branches[b].children, n->branches[b].child_count,
                               PLUMBOB_JAZZ_WHY_BRANCH, after);
            continue;
        case PLUMBOB_JAZZ_SELECT_PARAM:
        case PLUMBOB_JAZZ_SELECT_DEST: {
            uint32_t want = n->kind == PLUMBOB_JAZZ_SELECT_DEST ? r->destination
                                                                : r->inst->param_values[n->u.select.param];
            for (b = 0; b < n->branch_count && n->branches[b].value != want; b++) {}
            if (b >= n->branch_count || want == PLUMBOB_JAZZ_NONE) b = PLUMBOB_JAZZ_NONE;
            if ((res = take_step(r, why, state, node, b)) != PLUMBOB_OK) break;
            if (b != PLUMBOB_JAZZ_NONE)
                res = push_all(r, &top, n->branches[b].children, n->branches[b].child_count,
                               PLUMBOB_JAZZ_WHY_BRANCH, after);
            continue;
        }
        default:
            break;
        }
        if (res != PLUMBOB_OK) break;
        if ((res = take_step(r, why, state, node, PLUMBOB_JAZZ_NONE)) != PLUMBOB_OK) break;
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
        default: /* PLUMBOB_JAZZ_NEXT_STATE */
            a = next_state(r, node, after);
            break;
        }
        if (!a) return PLUMBOB_ERR_LIMIT_EXCEEDED;
        res = push_all(r, &top, n->children, n->child_count, PLUMBOB_JAZZ_WHY_CHILD, (uint32_t)(r->n - 1u));
    }
    return res;
}

/* Enters state s (an ENTER action) and runs its graph. */
static plumbob_result enter_state(run *r, uint32_t s, uint32_t why) {
    plumbob_result res = take_step(r, why, s, PLUMBOB_JAZZ_NONE, PLUMBOB_JAZZ_NONE);
    if (res != PLUMBOB_OK) return res;
    r->inst->state = s;
    if (!new_action(r, PLUMBOB_JAZZ_ACTION_ENTER, PLUMBOB_JAZZ_NONE, PLUMBOB_JAZZ_NONE))
        return PLUMBOB_ERR_LIMIT_EXCEEDED;
    return run_graph(r);
}

/* Starts a call: checks the arguments and clears the report. */
static plumbob_result begin(run *r, plumbob_jazz_instance *inst, plumbob_jazz_action *out, size_t cap,
                            size_t *count) {
    if (!inst || !inst->jazz || !count || (!out && cap > 0)) return PLUMBOB_ERR_INVALID_ARGUMENT;
    *count = 0;
    r->inst = inst;
    r->j = inst->jazz;
    r->out = out;
    r->cap = cap;
    r->n = 0;
    r->destination = PLUMBOB_JAZZ_NONE;
    r->route_next = PLUMBOB_JAZZ_NONE;
    r->decided = false;
    inst->report.steps = 0;
    inst->report.traced = 0;
    inst->report.limit = PLUMBOB_JAZZ_LIMIT_NONE;
    inst->report.state = PLUMBOB_JAZZ_NONE;
    return PLUMBOB_OK;
}

plumbob_result plumbob_jazz_enter(plumbob_jazz_instance *inst, uint32_t name, plumbob_jazz_action *out,
                                  size_t out_cap, size_t *count) {
    run r;
    uint32_t s;
    plumbob_result res = begin(&r, inst, out, out_cap, count);
    if (res != PLUMBOB_OK) return res;
    s = plumbob_jazz_find_state(r.j, name);
    if (s == PLUMBOB_JAZZ_NONE) return PLUMBOB_ERR_NOT_FOUND;
    if (!(r.j->states[s].flags & PLUMBOB_JAZZ_STATE_ENTRY)) return PLUMBOB_ERR_INVALID_ARGUMENT;
    inst->pending = PLUMBOB_JAZZ_NONE;
    r.destination = s;
    res = enter_state(&r, s, PLUMBOB_JAZZ_WHY_ENTER);
    *count = r.n;
    return res;
}

/* Breadth-first search from `from` to `to` over transitions in list order,
 * one step per state taken from the queue.  Visited marks carry an epoch so
 * a search touches only the states it visits.  On success writes the states
 * after `from` to the path area and their number to *len. */
static plumbob_result find_route(run *r, uint32_t from, uint32_t to, uint32_t *len) {
    const plumbob_jazz *j = r->j;
    plumbob_jazz_instance *inst = r->inst;
    uint32_t *mark = inst->search, *prev = mark + j->state_count, *queue = prev + j->state_count,
             *path = queue + j->state_count;
    uint32_t head = 0, tail = 0, i, n = 0, s, epoch;
    if (++inst->search_epoch == 0) { /* wrapped: forget every old mark */
        for (i = 0; i < j->state_count; i++) mark[i] = 0;
        inst->search_epoch = 1;
    }
    epoch = inst->search_epoch;
    mark[from] = epoch;
    prev[from] = from;
    queue[tail++] = from;
    while (head < tail && mark[to] != epoch) {
        uint32_t cur = queue[head++];
        const plumbob_jazz_state *st = &j->states[cur];
        plumbob_result res = take_step(r, PLUMBOB_JAZZ_WHY_SEARCH, cur, PLUMBOB_JAZZ_NONE, PLUMBOB_JAZZ_NONE);
        if (res != PLUMBOB_OK) return res;
        for (i = 0; i < st->transition_count; i++) {
            uint32_t t = st->transitions[i];
            if (mark[t] == epoch) continue;
            mark[t] = epoch;
            prev[t] = cur;
            queue[tail++] = t;
        }
    }
    if (mark[to] != epoch) {
        inst->report.state = from;
        return PLUMBOB_ERR_UNREACHABLE;
    }
    for (s = to; s != from; s = prev[s]) n++;
    for (s = to, i = n; s != from; s = prev[s]) path[--i] = s;
    *len = n;
    return PLUMBOB_OK;
}

plumbob_result plumbob_jazz_request(plumbob_jazz_instance *inst, uint32_t name, plumbob_jazz_action *out,
                                    size_t out_cap, size_t *count) {
    run r;
    uint32_t target, n = 0, i;
    const uint32_t *path;
    plumbob_result res = begin(&r, inst, out, out_cap, count);
    if (res != PLUMBOB_OK) return res;
    target = plumbob_jazz_find_state(r.j, name);
    if (target == PLUMBOB_JAZZ_NONE) return PLUMBOB_ERR_NOT_FOUND;
    if (inst->state == PLUMBOB_JAZZ_NONE) return PLUMBOB_ERR_INVALID_ARGUMENT;
    if (inst->state == target) return PLUMBOB_OK;
    if ((res = find_route(&r, inst->state, target, &n)) != PLUMBOB_OK) return res;
    inst->pending = PLUMBOB_JAZZ_NONE;
    r.destination = target;
    path = inst->search + 3u * (size_t)r.j->state_count;
    for (i = 0; i < n && res == PLUMBOB_OK; i++) {
        r.route_next = i + 1u < n ? path[i + 1u] : PLUMBOB_JAZZ_NONE;
        res = enter_state(&r, path[i], PLUMBOB_JAZZ_WHY_ROUTE);
    }
    *count = r.n;
    return res;
}

plumbob_result plumbob_jazz_tick(plumbob_jazz_instance *inst, plumbob_jazz_action *out, size_t out_cap,
                                 size_t *count) {
    run r;
    plumbob_result res = begin(&r, inst, out, out_cap, count);
    uint32_t s;
    if (res != PLUMBOB_OK) return res;
    s = inst->state;
    if (s == PLUMBOB_JAZZ_NONE) return PLUMBOB_ERR_INVALID_ARGUMENT;
    if (inst->pending != PLUMBOB_JAZZ_NONE) {
        s = inst->pending;
        inst->pending = PLUMBOB_JAZZ_NONE;
        r.destination = s;
        res = enter_state(&r, s, PLUMBOB_JAZZ_WHY_NEXT_STATE);
    } else if (r.j->states[s].flags & PLUMBOB_JAZZ_STATE_LOOP) {
        r.destination = s;
        res = take_step(&r, PLUMBOB_JAZZ_WHY_LOOP, s, PLUMBOB_JAZZ_NONE, PLUMBOB_JAZZ_NONE);
        if (res == PLUMBOB_OK && !new_action(&r, PLUMBOB_JAZZ_ACTION_LOOP, PLUMBOB_JAZZ_NONE, PLUMBOB_JAZZ_NONE))
            res = PLUMBOB_ERR_LIMIT_EXCEEDED;
        if (res == PLUMBOB_OK) res = run_graph(&r);
    }
    *count = r.n;
    return res;
}
