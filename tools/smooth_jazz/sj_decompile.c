/* Smooth Jazz decompiler: jazz model -> text.  Prints every field that
 * differs from the compiler's default, so compiling the text rebuilds the
 * same model; names come from the KEY table where one hashes right. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "smooth_jazz.h"
#include "util/bytes.h"

#define SJ_MAX_PRINTED_NODES 1000000u

typedef struct printer {
    const plumbob_jazz *j;
    const sj_names *names;
    char *buf;
    size_t len, cap;
    int failed;
    sj_error *err;
    unsigned char *on_path; /* per node: being printed by an enclosing block */
    unsigned depth;         /* nodes open around the one being printed, as the compiler counts */
    unsigned long printed;
} printer;

static int fail(printer *p, const char *fmt, ...) {
    va_list ap;
    if (p->failed) return 0;
    p->failed = 1;
    p->err->line = p->err->col = 0;
    va_start(ap, fmt);
    vsnprintf(p->err->message, sizeof p->err->message, fmt, ap);
    va_end(ap);
    return 0;
}

static void put(printer *p, const char *fmt, ...) {
    va_list ap;
    int n;
    if (p->failed) return;
    va_start(ap, fmt);
    n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) {
        fail(p, "formatting failed");
        return;
    }
    if (p->len + (size_t)n + 1u > p->cap) {
        size_t cap = p->cap ? p->cap : 4096u;
        char *nb;
        while (cap < p->len + (size_t)n + 1u) cap *= 2u;
        nb = (char *)realloc(p->buf, cap);
        if (!nb) {
            fail(p, "out of memory");
            return;
        }
        p->buf = nb;
        p->cap = cap;
    }
    va_start(ap, fmt);
    vsnprintf(p->buf + p->len, p->cap - p->len, fmt, ap);
    va_end(ap);
    p->len += (size_t)n;
}

static void indent(printer *p, unsigned level) { put(p, "%*s", (int)(level * 4u), ""); }

/* A string literal: bytes as they are, escapes for quote, backslash and control bytes. */
static void put_string(printer *p, const char *s, size_t len) {
    size_t i;
    put(p, "\"");
    for (i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\')
            put(p, "\\%c", c);
        else if (c == '\n')
            put(p, "\\n");
        else if (c == '\t')
            put(p, "\\t");
        else if (c < 0x20 || c == 0x7F)
            put(p, "\\x%02X", c);
        else
            put(p, "%c", c);
    }
    put(p, "\"");
}

static void put_name32(printer *p, uint32_t h) {
    int star;
    const sj_name *n = sj_names_find32(p->names, h, &star);
    if (!n) {
        put(p, "0x%08X", (unsigned)h);
        return;
    }
    if (star) put(p, "*");
    put_string(p, n->text, n->len);
}

/* A 64-bit name: the KEY entry for it when the text hashes back (clip rule or FNV-64). */
static void put_name64(printer *p, uint64_t inst, int clip_rule) {
    const sj_name *n = sj_names_find64(p->names, inst);
    if (n) {
        uint64_t h;
        if (clip_rule) {
            plumbob_clip_key k;
            plumbob_clip_key_from_name(n->text, n->len, &k);
            h = k.instance;
        } else {
            h = plumbob_fnv64(n->text, n->len);
        }
        if (h == inst) {
            put_string(p, n->text, n->len);
            return;
        }
    }
    put(p, "0x%016llX", (unsigned long long)inst);
}

static void put_ref(printer *p, plumbob_jazz_key k, uint32_t default_type, int clip_rule) {
    if (k.type != default_type || k.group != 0) put(p, "0x%08X:0x%08X:", (unsigned)k.type, (unsigned)k.group);
    put_name64(p, k.instance, clip_rule);
}

static void put_float(printer *p, float f) {
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    if ((bits & 0x7F800000u) == 0x7F800000u)
        put(p, "0x%08X", (unsigned)bits); /* inf and NaN as their bits */
    else {
        /* the shortest decimal that reads back as the same float */
        char buf[32];
        int prec;
        for (prec = 1; prec < 9; prec++) {
            float back;
            snprintf(buf, sizeof buf, "%.*g", prec, (double)f);
            back = strtof(buf, NULL);
            if (memcmp(&back, &f, sizeof f) == 0) break;
        }
        put(p, "%.*g", prec, (double)f);
    }
}

static int float_is(float f, uint32_t bits) {
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    return b == bits;
}

static void put_flags(printer *p, const sj_word *table, uint32_t v) {
    uint32_t rest = v;
    int first = 1;
    for (; table->name; table++)
        if (table->value && (rest & table->value) == table->value) {
            put(p, "%s%s", first ? "" : ", ", table->name);
            rest &= ~table->value;
            first = 0;
        }
    if (v == 0)
        put(p, "0");
    else if (rest)
        put(p, "%s0x%X", first ? "" : ", ", (unsigned)rest);
}

static void put_priority(printer *p, uint32_t v) {
    const sj_word *w;
    for (w = sj_priorities; w->name; w++)
        if (w->value == v) {
            put(p, "%s", w->name);
            return;
        }
    put(p, "%u", (unsigned)v);
}

/* UTF-16LE text as a string literal: UTF-8 where the units are well formed, \u escapes otherwise. */
static void put_utf16(printer *p, plumbob_jazz_text t) {
    uint32_t i;
    put(p, "\"");
    for (i = 0; i < t.length; i++) {
        uint32_t u = tool_le16(t.units + 2u * i), cp = u;
        char b[4];
        if (u >= 0xD800 && u < 0xDC00 && i + 1 < t.length) {
            uint32_t lo = tool_le16(t.units + 2u * i + 2u);
            if (lo >= 0xDC00 && lo < 0xE000) {
                cp = 0x10000u + ((u - 0xD800u) << 10) + (lo - 0xDC00u);
                i++;
            }
        }
        if (cp == '"' || cp == '\\')
            put(p, "\\%c", (char)cp);
        else if (cp < 0x20 || cp == 0x7F || (cp >= 0xD800 && cp < 0xE000))
            put(p, "\\u%04X", (unsigned)cp);
        else
            put(p, "%.*s", (int)sj_utf8_encode(cp, b), b);
    }
    put(p, "\"");
}

static void put_actor(printer *p, uint32_t actor) { put_name32(p, p->j->actors[actor].name); }

static int put_node(printer *p, uint32_t n, unsigned level);

static int put_nodes(printer *p, const uint32_t *list, uint32_t count, unsigned level) {
    uint32_t i;
    for (i = 0; i < count; i++)
        if (!put_node(p, list[i], level)) return 0;
    return 1;
}

/* Opens a block once, before its first line. */
static void open_block(printer *p, int *open, unsigned level) {
    if (*open) return;
    put(p, "\n");
    indent(p, level);
    put(p, "{\n");
    *open = 1;
}

#define FIELD(cond)                          \
    if (cond) {                              \
        open_block(p, &open, level);         \
        indent(p, level + 1u);
#define END_FIELD \
    put(p, "\n"); \
    }

/* "Unknown Value first+k = v[k]" for each word that differs from its default (0 when defaults is NULL). */
static void put_unknowns(printer *p, int *open_, unsigned level, const uint32_t *v, uint32_t count, uint32_t first,
                         const uint32_t *defaults) {
    int open = *open_;
    uint32_t k;
    for (k = 0; k < count; k++) {
        FIELD(v[k] != (defaults ? defaults[k] : 0u)) put(p, "Unknown Value %u = %u", (unsigned)(first + k), (unsigned)v[k]);
        END_FIELD
    }
    *open_ = open;
}

/* Fields of the animation part (Play and Stop), non-default only. */
static void put_anim(printer *p, const plumbob_jazz_anim *a, int *open_, unsigned level) {
    int open = *open_;
    uint32_t k;
    static const uint32_t unknown_default[6] = {16, 0, 0, 0, 0, 0};
    const struct {
        const char *label;
        uint32_t value, default_value;
    } priorities[2] = {{"Priority1 ", a->priority, 10000u}, {"Priority2 ", a->timing_priority, 10000u}};
    const struct {
        const char *label;
        float value;
        uint32_t default_bits;
    } floats[5] = {{"Blend In ", a->blend_in, 0},
                   {"Blend Out ", a->blend_out, 0},
                   {"Speed ", a->speed, 0x3F800000u},
                   {"Unknown Value 0 = ", a->unknown1, 0},
                   {"Unknown Value 1 = ", a->unknown2, 0}};
    FIELD(a->flags != 1u) put(p, "Flags ");
    put_flags(p, sj_anim_flags, a->flags);
    END_FIELD
    for (k = 0; k < 2; k++) {
        FIELD(priorities[k].value != priorities[k].default_value) put(p, "%s", priorities[k].label);
        put_priority(p, priorities[k].value);
        END_FIELD
    }
    for (k = 0; k < 5; k++) {
        FIELD(!float_is(floats[k].value, floats[k].default_bits)) put(p, "%s", floats[k].label);
        put_float(p, floats[k].value);
        END_FIELD
    }
    put_unknowns(p, &open, level, a->unknown, 6, 2, unknown_default);
    *open_ = open;
}

static void close_block(printer *p, int open, unsigned level) {
    if (open) {
        indent(p, level);
        put(p, "}\n");
    } else {
        put(p, "\n");
    }
}

/* The node's children inside its block, then the block's end. */
static int put_children(printer *p, const plumbob_jazz_node *node, int *open, unsigned level) {
    int ok;
    if (node->child_count) open_block(p, open, level);
    ok = put_nodes(p, node->children, node->child_count, level + 1u);
    close_block(p, *open, level);
    return ok;
}

static int put_play(printer *p, const plumbob_jazz_node *node, unsigned level) {
    const plumbob_jazz_play *pl = &node->u.play;
    const plumbob_jazz_key default_clip = {0, PLUMBOB_TYPE_CLIP, 0};
    int open = 0;
    uint32_t k;
    /* a substitution play's key that differs only in its group: "group:"text" With Substitution" */
    int group_only = pl->name.length && pl->clip.instance == 0 && pl->clip.type == PLUMBOB_TYPE_CLIP &&
                     pl->clip.group != 0;
    put(p, "Play ");
    if (group_only) put(p, "0x%08X:", (unsigned)pl->clip.group);
    if (pl->name.length)
        put_utf16(p, pl->name), put(p, " With Substitution");
    else
        put_ref(p, pl->clip, PLUMBOB_TYPE_CLIP, 1);
    if (pl->anim.actor != PLUMBOB_JAZZ_NONE) put(p, " For "), put_actor(p, pl->anim.actor);
    FIELD(pl->name.length && !group_only &&
          (pl->clip.instance != default_clip.instance || pl->clip.type != default_clip.type ||
           pl->clip.group != default_clip.group))
    put(p, "Clip ");
    put_ref(p, pl->clip, PLUMBOB_TYPE_CLIP, 1);
    END_FIELD
    FIELD(pl->track_mask.instance || pl->track_mask.type || pl->track_mask.group) put(p, "Track Mask ");
    put_ref(p, pl->track_mask, SJ_TYPE_TRACK_MASK, 0);
    END_FIELD
    for (k = 0; k < pl->slot_count; k++) {
        const plumbob_jazz_slot *s = &pl->slots[k];
        FIELD(1) put(p, "Actor ");
        put_name32(p, s->actor);
        put(p, " Slot ");
        put_name32(p, s->slot);
        if (s->chain || s->slot_id) put(p, ", %u, %u", (unsigned)s->chain, (unsigned)s->slot_id);
        END_FIELD
    }
    for (k = 0; k < pl->suffix_count; k++) {
        FIELD(1) put(p, "Actor ");
        put_name32(p, pl->suffixes[k].actor);
        put(p, " Suffix ");
        put_name32(p, pl->suffixes[k].suffix);
        END_FIELD
    }
    FIELD(pl->additive_clip.instance || pl->additive_clip.type || pl->additive_clip.group) put(p, "Additive Clip ");
    put_ref(p, pl->additive_clip, PLUMBOB_TYPE_CLIP, 1);
    END_FIELD
    FIELD(pl->additive_name.length) put(p, "Additive Clip ");
    put_utf16(p, pl->additive_name);
    put(p, " With Substitution");
    END_FIELD
    put_anim(p, &pl->anim, &open, level);
    put_unknowns(p, &open, level, pl->slot_unknown, 3, 8, NULL);
    return put_children(p, node, &open, level);
}

static int put_branches(printer *p, const plumbob_jazz_node *node, unsigned level) {
    uint32_t k;
    for (k = 0; k < node->branch_count; k++) {
        const plumbob_jazz_branch *b = &node->branches[k];
        indent(p, level + 1u);
        if (node->kind == PLUMBOB_JAZZ_RANDOM)
            put(p, "Weight "), put_float(p, b->weight);
        else if (node->kind == PLUMBOB_JAZZ_SELECT_PARAM)
            put(p, "Value "), put_name32(p, b->value);
        else
            put(p, "Destination "), put_name32(p, p->j->states[b->value].name);
        put(p, "\n");
        indent(p, level + 1u);
        put(p, "{\n");
        if (!put_nodes(p, b->children, b->child_count, level + 2u)) return 0;
        indent(p, level + 1u);
        put(p, "}\n");
    }
    return 1;
}

static int put_node(printer *p, uint32_t n, unsigned level) {
    const plumbob_jazz_node *node = &p->j->nodes[n];
    int ok = 1, open = 0;
    if (p->on_path[n]) return fail(p, "node %u is inside itself; Smooth Jazz writes graphs as nested blocks and cannot express a cycle", (unsigned)n);
    if (p->depth >= SJ_MAX_DEPTH) return fail(p, "node %u is nested more than %u deep", (unsigned)n, SJ_MAX_DEPTH);
    if (++p->printed > SJ_MAX_PRINTED_NODES)
        return fail(p, "the decision graphs expand to more than %u nodes when shared nodes are written out", SJ_MAX_PRINTED_NODES);
    p->on_path[n] = 1;
    p->depth++;
    indent(p, level);
    switch (node->kind) {
    case PLUMBOB_JAZZ_PLAY: ok = put_play(p, node, level); break;
    case PLUMBOB_JAZZ_STOP:
        put(p, "Stop");
        if (node->u.stop.actor != PLUMBOB_JAZZ_NONE) put(p, " For "), put_actor(p, node->u.stop.actor);
        put_anim(p, &node->u.stop, &open, level);
        ok = put_children(p, node, &open, level);
        break;
    case PLUMBOB_JAZZ_ACTOR_OP: {
        const sj_word *w;
        uint32_t op = node->u.actor_op.op;
        put(p, "Actor Operation ");
        for (w = sj_actor_ops; w->name && w->value != op; w++) {
        }
        if (w->name)
            put(p, "%s", w->name);
        else
            put(p, "%u", (unsigned)op);
        if (node->u.actor_op.operand != (op == 1u ? 1u : 0u)) put(p, " = %u", (unsigned)node->u.actor_op.operand);
        if (node->u.actor_op.actor != PLUMBOB_JAZZ_NONE) put(p, " On "), put_actor(p, node->u.actor_op.actor);
        put_unknowns(p, &open, level, node->u.actor_op.unknown, 3, 0, NULL);
        ok = put_children(p, node, &open, level);
        break;
    }
    case PLUMBOB_JAZZ_PROP:
        put(p, "Create Prop ");
        put_ref(p, node->u.prop.object, SJ_TYPE_PROP, 0);
        if (node->u.prop.actor != PLUMBOB_JAZZ_NONE) put(p, " as "), put_actor(p, node->u.prop.actor);
        FIELD(node->u.prop.param != PLUMBOB_JAZZ_NONE) put(p, "Parameter ");
        put_name32(p, p->j->params[node->u.prop.param].name);
        END_FIELD
        put_unknowns(p, &open, level, node->u.prop.unknown, 4, 1, NULL);
        ok = put_children(p, node, &open, level);
        break;
    case PLUMBOB_JAZZ_RANDOM:
        put(p, "Select Random\n");
        indent(p, level);
        put(p, "{\n");
        if (node->u.random.flags) {
            indent(p, level + 1u);
            put(p, "Flags ");
            put_flags(p, sj_random_flags, node->u.random.flags);
            put(p, "\n");
        }
        ok = put_branches(p, node, level);
        indent(p, level);
        put(p, "}\n");
        break;
    case PLUMBOB_JAZZ_SELECT_PARAM:
    case PLUMBOB_JAZZ_SELECT_DEST:
        if (node->kind == PLUMBOB_JAZZ_SELECT_PARAM)
            put(p, "Select on Parameter "), put_name32(p, p->j->params[node->u.select.param].name);
        else
            put(p, "Select on Destination");
        put(p, "\n");
        indent(p, level);
        put(p, "{\n");
        ok = put_branches(p, node, level);
        indent(p, level);
        put(p, "}\n");
        break;
    default: /* next state */
        put(p, "Next State ");
        put_name32(p, p->j->states[node->u.next.state].name);
        put(p, "\n");
        break;
    }
    p->on_path[n] = 0;
    p->depth--;
    return ok && !p->failed;
}

static void put_state(printer *p, uint32_t s) {
    const plumbob_jazz_state *st = &p->j->states[s];
    const plumbob_jazz_graph *g = &p->j->graphs[st->graph];
    uint32_t k;
    unsigned level = 1;
    int open = 0;
    indent(p, 1);
    put(p, "State ");
    put_name32(p, st->name);
    FIELD(st->flags) put(p, "Properties ");
    put_flags(p, sj_state_flags, st->flags);
    END_FIELD
    FIELD(st->awareness != 6u) put(p, "Unknown Value 0 = %u", (unsigned)st->awareness);
    END_FIELD
    FIELD(g->unknown) put(p, "Unknown Decision Graph Value %u", (unsigned)g->unknown);
    END_FIELD
    for (k = 0; k < st->transition_count; k++) {
        FIELD(1) put(p, "Transitions to ");
        put_name32(p, p->j->states[st->transitions[k]].name);
        END_FIELD
    }
    if (g->root_count) open_block(p, &open, level);
    put_nodes(p, g->roots, g->root_count, 2);
    close_block(p, open, level);
}

int sj_decompile(const plumbob_jazz *j, const sj_names *names, char **out, size_t *out_len, sj_error *err) {
    printer p;
    const plumbob_jazz_machine *m = &j->machine;
    uint64_t default_instance;
    uint32_t k;
    int star;
    const sj_name *machine_name = sj_names_find32(names, m->name, &star);
    memset(&p, 0, sizeof p);
    memset(err, 0, sizeof *err);
    p.j = j;
    p.names = names;
    p.err = err;
    p.on_path = (unsigned char *)calloc(j->node_count + 1u, 1);
    if (!p.on_path) return fail(&p, "out of memory");
    put(&p, "State Machine ");
    put_name32(&p, m->name);
    default_instance = machine_name && !star ? plumbob_fnv64(machine_name->text, machine_name->len) : m->name;
    put(&p, "\n{\n");
    if (j->chunks[0].key.instance != default_instance) {
        put(&p, "    Instance ");
        put_name64(&p, j->chunks[0].key.instance, 0);
        put(&p, "\n");
    }
    if (j->chunks[0].key.group) put(&p, "    Group 0x%08X\n", (unsigned)j->chunks[0].key.group);
    if (m->properties) {
        put(&p, "    Properties ");
        put_flags(&p, sj_machine_flags, m->properties);
        put(&p, "\n");
    }
    if (m->priority != 10000u) {
        put(&p, "    Priority ");
        put_priority(&p, m->priority);
        put(&p, "\n");
    }
    if (m->awareness != 2u) put(&p, "    Unknown Value 0 = %u\n", (unsigned)m->awareness);
    for (k = 0; k < 4; k++)
        if (m->unknown[k]) put(&p, "    Unknown Value %u = %u\n", (unsigned)(k + 1u), (unsigned)m->unknown[k]);
    for (k = 0; k < j->actor_count; k++) {
        put(&p, "    Actor ");
        put_name32(&p, j->actors[k].name);
        if (j->actors[k].unknown) put(&p, " = "), put_name32(&p, j->actors[k].unknown);
        put(&p, "\n");
    }
    for (k = 0; k < j->param_count; k++) {
        put(&p, "    Parameter ");
        put_name32(&p, j->params[k].name);
        if (j->params[k].default_value) put(&p, " = "), put_name32(&p, j->params[k].default_value);
        put(&p, "\n");
    }
    for (k = 0; k < m->animation_count; k++) {
        put(&p, "    Assign Actor ");
        put_name32(&p, m->animations[k].clip);
        put(&p, ".");
        put_name32(&p, m->animations[k].clip_actor);
        put(&p, " as ");
        put_name32(&p, m->animations[k].jazz_actor);
        put(&p, "\n");
    }
    for (k = 0; k < j->state_count && !p.failed; k++) put_state(&p, k);
    put(&p, "}\n");
    free(p.on_path);
    if (p.failed) {
        free(p.buf);
        return 0;
    }
    *out = p.buf;
    *out_len = p.len;
    return 1;
}
