/* Smooth Jazz compiler: tokens -> jazz model, by recursive descent.
 *
 * Nodes are created in preorder as they are parsed, so the chunk layout is
 * the one the game's files show: machine, actors, parameters, states,
 * graphs, then each graph's nodes depth first.  Names of actors, parameters
 * and states may be used before they are declared; they are resolved once
 * the whole script is read.  Within one decision graph, identical subtrees
 * become one shared node, as in the game's files (docs/SMOOTH-JAZZ.md). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sj_lex.h"

enum { REF_ACTOR, REF_PARAM, REF_STATE };
enum { HASH_FNV64, HASH_CLIP };

/* A name used before it is resolved: where the index goes, and the token. */
typedef struct pending {
    int kind;
    uint32_t hash;
    size_t tok;
    uint32_t node;   /* node index, with `offset` into plumbob_jazz_node */
    size_t offset;
    uint32_t *ptr;   /* or a slot in a builder-owned list (node NONE) */
} pending;

typedef struct u32vec {
    uint32_t *v;
    size_t n, cap;
} u32vec;

typedef struct parser {
    const sj_tokens *t;
    size_t pos;
    sj_program *prog;
    jazz_build *b;
    sj_error *err;
    int failed;
    unsigned depth;
    pending *refs;
    size_t ref_count, ref_cap;
    u32vec actor_tok, param_tok, state_tok;
    int instance_set;
    plumbob_jazz_animation *anims;
    size_t anim_count, anim_cap;
} parser;

/* ---- errors and tokens ------------------------------------------------ */

static const sj_token *tok(const parser *p) { return &p->t->items[p->pos]; }
static const sj_token *tok_at(const parser *p, size_t ahead) {
    size_t i = p->pos + ahead;
    return &p->t->items[i < p->t->count ? i : p->t->count - 1u];
}
static void next(parser *p) {
    if (p->pos + 1u < p->t->count) p->pos++;
}

static int fail_at(parser *p, const sj_token *at, const char *fmt, ...) {
    va_list ap;
    if (p->failed) return 0;
    p->failed = 1;
    p->err->line = at->line;
    p->err->col = at->col;
    va_start(ap, fmt);
    vsnprintf(p->err->message, sizeof p->err->message, fmt, ap);
    va_end(ap);
    return 0;
}

/* "found ..." text for a token. */
static const char *found(const sj_token *t, char *buf, size_t cap) {
    int n = t->len > 40 ? 40 : (int)t->len;
    switch (t->kind) {
    case SJ_EOF: snprintf(buf, cap, "end of file"); break;
    case SJ_WORD: snprintf(buf, cap, "'%.*s'", n, t->at); break;
    case SJ_STRING: snprintf(buf, cap, "string %.*s%s", n, t->at, t->len > 40 ? "..." : ""); break;
    case SJ_NUMBER: snprintf(buf, cap, "number %.*s", n, t->at); break;
    default: snprintf(buf, cap, "'%c'", t->at[0]); break;
    }
    return buf;
}

static int expected(parser *p, const char *what) {
    char buf[64];
    return fail_at(p, tok(p), "expected %s, found %s", what, found(tok(p), buf, sizeof buf));
}

static int is_word(const parser *p, size_t ahead, const char *kw) {
    const sj_token *t = tok_at(p, ahead);
    return t->kind == SJ_WORD && sj_word_is(t->at, t->len, kw);
}

static int is_punct(const parser *p, char c) { return tok(p)->kind == SJ_PUNCT && tok(p)->at[0] == c; }

static int expect_word(parser *p, const char *kw) {
    char what[48];
    if (is_word(p, 0, kw)) {
        next(p);
        return 1;
    }
    snprintf(what, sizeof what, "'%s'", kw);
    return expected(p, what);
}

static int expect_punct(parser *p, char c) {
    char what[8];
    if (is_punct(p, c)) {
        next(p);
        return 1;
    }
    snprintf(what, sizeof what, "'%c'", c);
    return expected(p, what);
}

/* ---- small vectors ---------------------------------------------------- */

/* Room for one more element in *array (n used of *cap, elem bytes each). */
static int reserve(parser *p, void **array, size_t n, size_t *cap, size_t elem) {
    if (n == *cap) {
        size_t c = *cap ? *cap * 2u : 8u;
        void *grown = realloc(*array, c * elem);
        if (!grown) return fail_at(p, tok(p), "out of memory");
        *array = grown;
        *cap = c;
    }
    return 1;
}

static int push_u32(parser *p, u32vec *v, uint32_t x) {
    if (!reserve(p, (void **)&v->v, v->n, &v->cap, sizeof *v->v)) return 0;
    v->v[v->n++] = x;
    return 1;
}

static void free_u32(u32vec *v) {
    free(v->v);
    memset(v, 0, sizeof *v);
}

static int add_ref(parser *p, int kind, uint32_t hash, size_t at, uint32_t node, size_t offset, uint32_t *ptr) {
    pending *r;
    if (!reserve(p, (void **)&p->refs, p->ref_count, &p->ref_cap, sizeof *p->refs)) return 0;
    r = &p->refs[p->ref_count++];
    r->kind = kind;
    r->hash = hash;
    r->tok = at;
    r->node = node;
    r->offset = offset;
    r->ptr = ptr;
    return 1;
}

static plumbob_jazz_node *node_at(parser *p, uint32_t i) { return &p->b->nodes[i]; }

/* ---- values ----------------------------------------------------------- */

/* A string token's decoded bytes (the pool is still NULL when every string so far was empty). */
static const char *str_bytes(const parser *p, const sj_token *t) { return p->t->pool ? p->t->pool + t->str_at : ""; }

/* <name-hash> in a 32-bit place: ["*"] (string | number). */
static int parse_name32(parser *p, uint32_t *out, const char *what) {
    int star = 0;
    const sj_token *t;
    char buf[64];
    if (is_punct(p, '*')) {
        star = 1;
        next(p);
    }
    t = tok(p);
    if (t->kind == SJ_STRING) {
        const char *s = str_bytes(p, t);
        uint32_t h = plumbob_fnv32(s, t->str_len);
        if (!sj_names_add(&p->prog->names, h, s, t->str_len)) return fail_at(p, t, "out of memory");
        if (star) {
            int n = snprintf(buf, sizeof buf, "0x%08x", (unsigned)h);
            h = plumbob_fnv32(buf, (size_t)n);
        }
        *out = h;
    } else if (t->kind == SJ_NUMBER && !t->is_float && !t->negative) {
        if (t->value > 0xFFFFFFFFu) return fail_at(p, t, "%s %.*s does not fit in 32 bits", what, (int)t->len, t->at);
        *out = (uint32_t)t->value;
        if (star) {
            int n = snprintf(buf, sizeof buf, "0x%08x", (unsigned)*out);
            *out = plumbob_fnv32(buf, (size_t)n);
        }
    } else {
        snprintf(buf, sizeof buf, "%s (a \"name\" or a number)", what);
        return expected(p, buf);
    }
    next(p);
    return 1;
}

/* <name-hash> in a 64-bit place: a string hashed by `mode`, or a number. */
static int parse_name64(parser *p, uint64_t *out, int mode, const char *what) {
    const sj_token *t = tok(p);
    char buf[64];
    if (is_punct(p, '*')) return fail_at(p, t, "'*' applies to 32-bit names only, not to %s", what);
    if (t->kind == SJ_STRING) {
        const char *s = str_bytes(p, t);
        if (mode == HASH_CLIP) {
            plumbob_clip_key k;
            plumbob_clip_key_from_name(s, t->str_len, &k);
            *out = k.instance;
        } else {
            *out = plumbob_fnv64(s, t->str_len);
        }
        if (!sj_names_add(&p->prog->names, *out, s, t->str_len)) return fail_at(p, t, "out of memory");
    } else if (t->kind == SJ_NUMBER && !t->is_float && !t->negative) {
        *out = t->value;
    } else {
        snprintf(buf, sizeof buf, "%s (a \"name\" or a number)", what);
        return expected(p, buf);
    }
    next(p);
    return 1;
}

/* An integer for a 32-bit field; negative values are stored as two's complement. */
static int parse_u32(parser *p, uint32_t *out, const char *what) {
    const sj_token *t = tok(p);
    char buf[64];
    if (t->kind != SJ_NUMBER || t->is_float) {
        snprintf(buf, sizeof buf, "%s (a whole number)", what);
        return expected(p, buf);
    }
    if (t->negative ? t->value > 0x80000000u : t->value > 0xFFFFFFFFu)
        return fail_at(p, t, "%s %.*s does not fit in 32 bits", what, (int)t->len, t->at);
    *out = t->negative ? (uint32_t)(0u - (uint32_t)t->value) : (uint32_t)t->value;
    next(p);
    return 1;
}

/* A float: a decimal value, or a hex number giving the IEEE-754 bits. */
static int parse_float(parser *p, float *out, const char *what) {
    const sj_token *t = tok(p);
    char buf[64];
    if (t->kind != SJ_NUMBER) {
        snprintf(buf, sizeof buf, "%s (a number)", what);
        return expected(p, buf);
    }
    if (t->is_hex) {
        uint32_t bits;
        if (t->negative || t->value > 0xFFFFFFFFu)
            return fail_at(p, t, "%s %.*s: hex gives the 32 bits of the float", what, (int)t->len, t->at);
        bits = (uint32_t)t->value;
        memcpy(out, &bits, sizeof bits);
    } else {
        *out = t->real;
    }
    next(p);
    return 1;
}

static int parse_priority(parser *p, uint32_t *out) {
    const sj_token *t = tok(p);
    if (t->kind == SJ_WORD) {
        const sj_word *w = sj_word_find(sj_priorities, t->at, t->len);
        if (!w) return fail_at(p, t, "unknown priority '%.*s' (Low, Normal, High, Ultra, LookAt, ... or a number)", (int)t->len, t->at);
        *out = w->value;
        next(p);
        return 1;
    }
    return parse_u32(p, out, "priority");
}

/* name[, name]... or name name ...: names from `table` or numbers, ORed. */
static int parse_flags(parser *p, const sj_word *table, uint32_t *out, const char *what) {
    int first = 1;
    for (;;) {
        const sj_token *t = tok(p);
        int comma = 0;
        if (!first && is_punct(p, ',')) {
            comma = 1;
            next(p);
            t = tok(p);
        }
        if (t->kind == SJ_WORD) {
            const sj_word *w = sj_word_find(table, t->at, t->len);
            if (!w) {
                if (!first && !comma) return 1; /* the next field starts here */
                return fail_at(p, t, "unknown %s '%.*s'", what, (int)t->len, t->at);
            }
            *out |= w->value;
            next(p);
        } else if (t->kind == SJ_NUMBER) {
            uint32_t v;
            if (!parse_u32(p, &v, what)) return 0;
            *out |= v;
        } else {
            char buf[64];
            if (!first && !comma) return 1;
            snprintf(buf, sizeof buf, "a %s name or number", what);
            return expected(p, buf);
        }
        first = 0;
    }
}

static int is_colon(parser *p, size_t ahead) {
    return tok_at(p, ahead)->kind == SJ_PUNCT && tok_at(p, ahead)->at[0] == ':';
}

/* <resource-ref>: name, group:name (plumbob: the default type), or
 * type:group:name.  After "N:", a number followed by ':' starts the
 * three-part form; anything else is the name of the two-part form. */
static int parse_ref(parser *p, plumbob_jazz_key *k, uint32_t default_type, int mode, const char *what) {
    k->type = default_type;
    k->group = 0;
    if (tok(p)->kind == SJ_NUMBER && is_colon(p, 1)) {
        if (tok_at(p, 2)->kind == SJ_NUMBER && is_colon(p, 3)) {
            if (!parse_u32(p, &k->type, "resource type") || !expect_punct(p, ':')) return 0;
        }
        if (!parse_u32(p, &k->group, "resource group") || !expect_punct(p, ':')) return 0;
    }
    return parse_name64(p, &k->instance, mode, what);
}

/* UTF-8 (surrogates allowed, as \u escapes make them) -> UTF-16LE text. */
static int utf16_text(parser *p, const sj_token *t, plumbob_jazz_text *out) {
    const unsigned char *s = (const unsigned char *)str_bytes(p, t);
    size_t i = 0, n = 0, len = t->str_len;
    unsigned char *units = (unsigned char *)jazz_build_block(p->b, 2u * len + 2u);
    if (!units) return fail_at(p, t, "out of memory");
    while (i < len) {
        uint32_t cp;
        size_t extra, k;
        if (s[i] < 0x80) {
            cp = s[i];
            extra = 0;
        } else if ((s[i] & 0xE0) == 0xC0) {
            cp = s[i] & 0x1Fu;
            extra = 1;
        } else if ((s[i] & 0xF0) == 0xE0) {
            cp = s[i] & 0x0Fu;
            extra = 2;
        } else if ((s[i] & 0xF8) == 0xF0) {
            cp = s[i] & 0x07u;
            extra = 3;
        } else {
            return fail_at(p, t, "string is not valid UTF-8");
        }
        if (i + extra >= len + (extra == 0)) return fail_at(p, t, "string is not valid UTF-8");
        for (k = 1; k <= extra; k++) {
            if ((s[i + k] & 0xC0) != 0x80) return fail_at(p, t, "string is not valid UTF-8");
            cp = (cp << 6) | (s[i + k] & 0x3Fu);
        }
        i += extra + 1u;
        if (cp > 0x10FFFF) return fail_at(p, t, "string is not valid UTF-8");
        if (cp >= 0x10000) {
            uint32_t hi = 0xD800u + ((cp - 0x10000u) >> 10), lo = 0xDC00u + ((cp - 0x10000u) & 0x3FFu);
            units[2 * n] = (unsigned char)hi;
            units[2 * n + 1] = (unsigned char)(hi >> 8);
            n++;
            cp = lo;
        }
        units[2 * n] = (unsigned char)cp;
        units[2 * n + 1] = (unsigned char)(cp >> 8);
        n++;
    }
    out->units = units;
    out->length = (uint32_t)n;
    return 1;
}

/* ---- decision graph nodes ---------------------------------------------- */

static int parse_node(parser *p, uint32_t *out);

static int node_starts(const parser *p) {
    return is_word(p, 0, "Play") || is_word(p, 0, "Stop") || (is_word(p, 0, "Actor") && is_word(p, 1, "Operation")) ||
           is_word(p, 0, "Create") || is_word(p, 0, "Select") || is_word(p, 0, "Next");
}

/* '{' node* '}' into kids. */
static int parse_node_block(parser *p, u32vec *kids) {
    if (!expect_punct(p, '{')) return 0;
    while (!is_punct(p, '}')) {
        uint32_t n;
        if (!node_starts(p)) return expected(p, "a decision graph node (Play, Stop, Select, Next State, ...) or '}'");
        if (!parse_node(p, &n) || !push_u32(p, kids, n)) return 0;
    }
    next(p);
    return 1;
}

static int set_children(parser *p, uint32_t node, const u32vec *kids) {
    const uint32_t *list = jazz_build_list(p->b, (uint32_t)kids->n, kids->v);
    if (!list) return fail_at(p, tok(p), "out of memory");
    node_at(p, node)->children = list;
    node_at(p, node)->child_count = (uint32_t)kids->n;
    return 1;
}

/* Unknown Value N = V with N in [0, count). */
static int parse_unknown_value(parser *p, uint32_t count, const char *where, uint32_t *index, const sj_token **value_tok) {
    const sj_token *at;
    if (!expect_word(p, "Unknown") || !expect_word(p, "Value")) return 0;
    at = tok(p);
    if (!parse_u32(p, index, "Unknown Value index")) return 0;
    if (*index >= count)
        return fail_at(p, at, "%s has Unknown Values 0 to %u, not %u", where, (unsigned)(count - 1u), (unsigned)*index);
    if (!expect_punct(p, '=')) return 0;
    *value_tok = tok(p);
    return 1;
}

/* A field of the animation part of Play and Stop: 1 handled, 0 error, -1 not one. */
static int parse_anim_field(parser *p, uint32_t node, int play) {
    plumbob_jazz_node *n = node_at(p, node);
    plumbob_jazz_anim *a = play ? &n->u.play.anim : &n->u.stop;
    if (is_word(p, 0, "Flags")) {
        next(p);
        a->flags = 0;
        return parse_flags(p, sj_anim_flags, &a->flags, "animation flag");
    }
    if (is_word(p, 0, "Priority1")) {
        next(p);
        return parse_priority(p, &a->priority);
    }
    if (is_word(p, 0, "Priority2")) {
        next(p);
        return parse_priority(p, &a->timing_priority);
    }
    if (is_word(p, 0, "Blend")) {
        next(p);
        if (is_word(p, 0, "In")) {
            next(p);
            return parse_float(p, &a->blend_in, "blend-in time");
        }
        if (is_word(p, 0, "Out")) {
            next(p);
            return parse_float(p, &a->blend_out, "blend-out time");
        }
        return expected(p, "'In' or 'Out'");
    }
    if (is_word(p, 0, "Speed")) {
        next(p);
        return parse_float(p, &a->speed, "speed");
    }
    if (is_word(p, 0, "Unknown") && is_word(p, 1, "Value")) {
        uint32_t index;
        const sj_token *vt;
        if (!parse_unknown_value(p, play ? 11u : 8u, play ? "Play" : "Stop", &index, &vt)) return 0;
        if (index == 0) return parse_float(p, &a->unknown1, "value");
        if (index == 1) return parse_float(p, &a->unknown2, "value");
        if (index < 8) return parse_u32(p, &a->unknown[index - 2u], "value");
        return parse_u32(p, &n->u.play.slot_unknown[index - 8u], "value");
    }
    return -1;
}

/* For <actor>: an actor reference stored at `offset` in the node. */
static int parse_for(parser *p, uint32_t node, size_t offset) {
    uint32_t h;
    size_t at;
    if (!is_word(p, 0, "For")) return 1;
    next(p);
    at = p->pos;
    return parse_name32(p, &h, "actor") && add_ref(p, REF_ACTOR, h, at, node, offset, NULL);
}

/* <clip-definition>: [group:]"text" With Substitution, or a resource ref. */
static int parse_clip_def(parser *p, plumbob_jazz_key *key, plumbob_jazz_text *text, uint32_t key_type) {
    if (tok(p)->kind == SJ_NUMBER && is_colon(p, 1) && tok_at(p, 2)->kind == SJ_STRING && is_word(p, 3, "With")) {
        if (!parse_u32(p, &key->group, "resource group") || !expect_punct(p, ':')) return 0;
    }
    if (tok(p)->kind == SJ_STRING && is_word(p, 1, "With")) {
        const sj_token *t = tok(p);
        next(p);
        next(p);
        return expect_word(p, "Substitution") && utf16_text(p, t, text);
    }
    return parse_ref(p, key, key_type, HASH_CLIP, "clip");
}

/* A block's own fields: 1 handled, 0 error, -1 not one of them (ctx: per-block state). */
typedef int (*field_parser)(parser *p, uint32_t node, void *ctx);

/* [ '{' { field | node } '}' ]: `field` takes the block's fields, nodes
 * become the node's children.  `what` lists the fields for the error. */
static int parse_body(parser *p, uint32_t node, field_parser field, void *ctx, const char *what) {
    u32vec kids = {0};
    int ok = 1;
    if (is_punct(p, '{')) {
        next(p);
        while (ok && !is_punct(p, '}')) {
            int r = field(p, node, ctx);
            if (r >= 0) {
                ok = r;
            } else if (node_starts(p)) {
                uint32_t child;
                ok = parse_node(p, &child) && push_u32(p, &kids, child);
            } else {
                char msg[200];
                snprintf(msg, sizeof msg, "%s, a node or '}'", what);
                ok = expected(p, msg);
            }
        }
        if (ok) next(p);
    }
    ok = ok && set_children(p, node, &kids);
    free_u32(&kids);
    return ok;
}

/* Play's slot and suffix lists while its block is read. */
typedef struct play_lists {
    u32vec slots, suffixes;
} play_lists;

static int play_field(parser *p, uint32_t node, void *ctx) {
    play_lists *l = (play_lists *)ctx;
    plumbob_jazz_play *pl = &node_at(p, node)->u.play;
    int r = parse_anim_field(p, node, 1);
    if (r >= 0) return r;
    if (is_word(p, 0, "Track")) {
        next(p);
        return expect_word(p, "Mask") && parse_ref(p, &pl->track_mask, SJ_TYPE_TRACK_MASK, HASH_FNV64, "track mask");
    }
    if (is_word(p, 0, "Actor") && !is_word(p, 1, "Operation")) {
        uint32_t actor, what, a = 0, b = 0;
        next(p);
        if (!parse_name32(p, &actor, "actor")) return 0;
        if (is_word(p, 0, "Slot")) {
            next(p);
            if (!parse_name32(p, &what, "slot")) return 0;
            if (is_punct(p, ',')) {
                next(p);
                if (!parse_u32(p, &a, "slot value") || !expect_punct(p, ',') || !parse_u32(p, &b, "slot value")) return 0;
            }
            return push_u32(p, &l->slots, a) && push_u32(p, &l->slots, b) && push_u32(p, &l->slots, actor) &&
                   push_u32(p, &l->slots, what);
        }
        if (is_word(p, 0, "Suffix")) {
            next(p);
            return parse_name32(p, &what, "suffix parameter") && push_u32(p, &l->suffixes, actor) &&
                   push_u32(p, &l->suffixes, what);
        }
        return expected(p, "'Slot' or 'Suffix'");
    }
    if (is_word(p, 0, "Additive")) {
        next(p);
        return expect_word(p, "Clip") && parse_clip_def(p, &pl->additive_clip, &pl->additive_name, PLUMBOB_TYPE_CLIP);
    }
    if (is_word(p, 0, "Clip")) {
        next(p);
        return parse_ref(p, &pl->clip, PLUMBOB_TYPE_CLIP, HASH_CLIP, "clip");
    }
    return -1;
}

static int parse_play(parser *p, uint32_t node) {
    play_lists l;
    int ok;
    plumbob_jazz_key clip = {0, PLUMBOB_TYPE_CLIP, 0};
    plumbob_jazz_text name = {NULL, 0};
    memset(&l, 0, sizeof l);
    if (!parse_clip_def(p, &clip, &name, PLUMBOB_TYPE_CLIP)) return 0;
    node_at(p, node)->u.play.clip = clip;
    node_at(p, node)->u.play.name = name;
    ok = parse_for(p, node, offsetof(plumbob_jazz_node, u.play.anim.actor)) &&
         parse_body(p, node, play_field, &l,
                    "a Play field (Flags, Priority1, Priority2, Blend In, Track Mask, Actor ... Slot, Unknown Value, ...)");
    if (ok) {
        plumbob_jazz_play *pl = &node_at(p, node)->u.play;
        pl->slots = (const plumbob_jazz_slot *)(const void *)jazz_build_list(p->b, (uint32_t)l.slots.n, l.slots.v);
        pl->slot_count = (uint32_t)(l.slots.n / 4u);
        pl->suffixes = (const plumbob_jazz_suffix *)(const void *)jazz_build_list(p->b, (uint32_t)l.suffixes.n, l.suffixes.v);
        pl->suffix_count = (uint32_t)(l.suffixes.n / 2u);
        if (p->b->failed) ok = fail_at(p, tok(p), "out of memory");
    }
    free_u32(&l.slots);
    free_u32(&l.suffixes);
    return ok;
}

static int stop_field(parser *p, uint32_t node, void *ctx) {
    (void)ctx;
    return parse_anim_field(p, node, 0);
}

static int parse_stop(parser *p, uint32_t node) {
    return parse_for(p, node, offsetof(plumbob_jazz_node, u.stop.actor)) &&
           parse_body(p, node, stop_field, NULL, "a Stop field (Flags, Priority1, Priority2, Blend In, Unknown Value, ...)");
}

static int actor_op_field(parser *p, uint32_t node, void *ctx) {
    uint32_t index;
    const sj_token *vt;
    (void)ctx;
    if (!is_word(p, 0, "Unknown")) return -1;
    return parse_unknown_value(p, 3u, "Actor Operation", &index, &vt) &&
           parse_u32(p, &node_at(p, node)->u.actor_op.unknown[index], "value");
}

static int parse_actor_op(parser *p, uint32_t node) {
    const sj_token *t = tok(p);
    uint32_t op = 0, operand;
    if (t->kind == SJ_WORD) {
        const sj_word *w = sj_word_find(sj_actor_ops, t->at, t->len);
        if (!w) return fail_at(p, t, "unknown actor operation '%.*s' (None or SetMirror)", (int)t->len, t->at);
        op = w->value;
        next(p);
    } else if (!parse_u32(p, &op, "actor operation")) {
        return 0;
    }
    operand = op == 1u ? 1u : 0u;
    if (is_punct(p, '=')) {
        next(p);
        if (!parse_u32(p, &operand, "operand")) return 0;
    }
    if (tok(p)->kind == SJ_WORD && sj_word_find(sj_actor_ops, tok(p)->at, tok(p)->len))
        return fail_at(p, tok(p), "a jazz node holds one actor operation; write a second Actor Operation node");
    node_at(p, node)->u.actor_op.op = op;
    node_at(p, node)->u.actor_op.operand = operand;
    if (is_word(p, 0, "On")) {
        uint32_t h;
        size_t at;
        next(p);
        at = p->pos;
        if (!parse_name32(p, &h, "actor") ||
            !add_ref(p, REF_ACTOR, h, at, node, offsetof(plumbob_jazz_node, u.actor_op.actor), NULL))
            return 0;
    }
    return parse_body(p, node, actor_op_field, NULL, "Unknown Value");
}

static int prop_field(parser *p, uint32_t node, void *ctx) {
    (void)ctx;
    if (is_word(p, 0, "Parameter")) {
        uint32_t h;
        size_t at;
        next(p);
        at = p->pos;
        return parse_name32(p, &h, "parameter") &&
               add_ref(p, REF_PARAM, h, at, node, offsetof(plumbob_jazz_node, u.prop.param), NULL);
    }
    if (is_word(p, 0, "Unknown")) {
        uint32_t index, v;
        const sj_token *vt;
        if (!parse_unknown_value(p, 5u, "Create Prop", &index, &vt) || !parse_u32(p, &v, "value")) return 0;
        if (index == 0 && v != 0) return fail_at(p, vt, "Unknown Value 0 of a prop is its parameter; write Parameter \"name\"");
        if (index > 0) node_at(p, node)->u.prop.unknown[index - 1u] = v;
        return 1;
    }
    return -1;
}

static int parse_prop(parser *p, uint32_t node) {
    plumbob_jazz_key object;
    int ok = parse_ref(p, &object, SJ_TYPE_PROP, HASH_FNV64, "prop object");
    node_at(p, node)->u.prop.object = object;
    if (ok && is_word(p, 0, "as")) {
        uint32_t h;
        size_t at;
        next(p);
        at = p->pos;
        ok = parse_name32(p, &h, "actor") && add_ref(p, REF_ACTOR, h, at, node, offsetof(plumbob_jazz_node, u.prop.actor), NULL);
    }
    return ok && parse_body(p, node, prop_field, NULL, "Parameter, Unknown Value");
}

/* One branch being parsed: its value or weight, and its nodes. */
typedef struct branch_src {
    uint32_t value;
    float weight;
    size_t tok;
    u32vec kids;
} branch_src;

/* Select Random / on Parameter / on Destination: '{' [Flags] (KEYWORD value '{' nodes '}')* '}'. */
static int parse_select(parser *p, uint32_t node, int kind) {
    branch_src *br = NULL;
    size_t n = 0, cap = 0, i;
    int ok = expect_punct(p, '{');
    const char *keyword = kind == PLUMBOB_JAZZ_RANDOM ? "Weight" : kind == PLUMBOB_JAZZ_SELECT_PARAM ? "Value" : "Destination";
    while (ok && !is_punct(p, '}')) {
        if (kind == PLUMBOB_JAZZ_RANDOM && is_word(p, 0, "Flags")) {
            next(p);
            node_at(p, node)->u.random.flags = 0;
            ok = parse_flags(p, sj_random_flags, &node_at(p, node)->u.random.flags, "random flag");
            continue;
        }
        if (!is_word(p, 0, keyword)) {
            char what[96];
            snprintf(what, sizeof what, "'%s'%s or '}'", keyword, kind == PLUMBOB_JAZZ_RANDOM ? ", 'Flags'" : "");
            ok = expected(p, what);
            break;
        }
        next(p);
        if (!reserve(p, (void **)&br, n, &cap, sizeof *br)) {
            ok = 0;
            break;
        }
        memset(&br[n], 0, sizeof br[n]);
        br[n].tok = p->pos;
        n++;
        if (kind == PLUMBOB_JAZZ_RANDOM)
            ok = parse_float(p, &br[n - 1u].weight, "weight");
        else
            ok = parse_name32(p, &br[n - 1u].value, kind == PLUMBOB_JAZZ_SELECT_PARAM ? "value" : "destination state");
        ok = ok && parse_node_block(p, &br[n - 1u].kids);
    }
    if (ok) {
        plumbob_jazz_branch *out;
        next(p);
        out = jazz_build_branches(p->b, node, (uint32_t)n);
        if (!out) ok = fail_at(p, tok(p), "out of memory");
        for (i = 0; ok && i < n; i++) {
            out[i].value = br[i].value;
            out[i].weight = br[i].weight;
            out[i].child_count = (uint32_t)br[i].kids.n;
            out[i].children = jazz_build_list(p->b, (uint32_t)br[i].kids.n, br[i].kids.v);
            if (kind == PLUMBOB_JAZZ_SELECT_DEST)
                ok = add_ref(p, REF_STATE, br[i].value, br[i].tok, PLUMBOB_JAZZ_NONE, 0, &out[i].value);
        }
    }
    for (i = 0; i < n; i++) free_u32(&br[i].kids);
    free(br);
    return ok;
}

static int new_node(parser *p, uint32_t kind, uint32_t *out) {
    uint32_t before = p->b->node_count;
    *out = jazz_build_node(p->b, kind);
    if (p->b->failed || p->b->node_count != before + 1u) return fail_at(p, tok(p), "out of memory");
    return 1;
}

static int parse_node(parser *p, uint32_t *out) {
    int ok;
    const sj_token *start = tok(p);
    if (++p->depth > SJ_MAX_DEPTH) return fail_at(p, start, "blocks are nested more than %u deep", SJ_MAX_DEPTH);
    if (is_word(p, 0, "Play")) {
        next(p);
        ok = new_node(p, PLUMBOB_JAZZ_PLAY, out) && parse_play(p, *out);
    } else if (is_word(p, 0, "Stop")) {
        next(p);
        ok = new_node(p, PLUMBOB_JAZZ_STOP, out) && parse_stop(p, *out);
    } else if (is_word(p, 0, "Actor")) {
        next(p);
        next(p);
        ok = new_node(p, PLUMBOB_JAZZ_ACTOR_OP, out) && parse_actor_op(p, *out);
    } else if (is_word(p, 0, "Create")) {
        next(p);
        ok = expect_word(p, "Prop") && new_node(p, PLUMBOB_JAZZ_PROP, out) && parse_prop(p, *out);
    } else if (is_word(p, 0, "Next")) {
        uint32_t h;
        size_t at;
        next(p);
        ok = expect_word(p, "State") && new_node(p, PLUMBOB_JAZZ_NEXT_STATE, out);
        at = p->pos;
        ok = ok && parse_name32(p, &h, "state") &&
             add_ref(p, REF_STATE, h, at, *out, offsetof(plumbob_jazz_node, u.next.state), NULL);
    } else {
        next(p); /* Select */
        if (is_word(p, 0, "Random")) {
            next(p);
            ok = new_node(p, PLUMBOB_JAZZ_RANDOM, out) && parse_select(p, *out, PLUMBOB_JAZZ_RANDOM);
        } else if (is_word(p, 0, "on") && is_word(p, 1, "Parameter")) {
            uint32_t h;
            size_t at;
            next(p);
            next(p);
            ok = new_node(p, PLUMBOB_JAZZ_SELECT_PARAM, out);
            at = p->pos;
            ok = ok && parse_name32(p, &h, "parameter") &&
                 add_ref(p, REF_PARAM, h, at, *out, offsetof(plumbob_jazz_node, u.select.param), NULL) &&
                 parse_select(p, *out, PLUMBOB_JAZZ_SELECT_PARAM);
        } else if (is_word(p, 0, "on") && is_word(p, 1, "Destination")) {
            next(p);
            next(p);
            ok = new_node(p, PLUMBOB_JAZZ_SELECT_DEST, out) && parse_select(p, *out, PLUMBOB_JAZZ_SELECT_DEST);
        } else {
            ok = expected(p, "'Random', 'on Parameter' or 'on Destination' after 'Select'");
        }
    }
    p->depth--;
    return ok;
}

/* ---- states and the machine --------------------------------------------- */

static uint32_t find_hash(const u32vec *decl_tok, const parser *p, int kind, uint32_t hash) {
    size_t i;
    for (i = 0; i < decl_tok->n; i++) {
        uint32_t name = kind == REF_ACTOR   ? p->b->actors[i].name
                        : kind == REF_PARAM ? p->b->params[i].name
                                            : p->b->states[i].name;
        if (name == hash) return (uint32_t)i;
    }
    return PLUMBOB_JAZZ_NONE;
}

/* Declares a name, refusing a second declaration of the same hash. */
static int declare(parser *p, int kind, uint32_t hash, size_t at, u32vec *decl_tok, const char *what) {
    uint32_t prev = find_hash(decl_tok, p, kind, hash);
    if (prev != PLUMBOB_JAZZ_NONE) {
        const sj_token *first = &p->t->items[decl_tok->v[prev]];
        const sj_token *t = &p->t->items[at];
        return fail_at(p, t, "duplicate %s %.*s (first declared at line %u)", what, (int)t->len, t->at, first->line);
    }
    return 1;
}

static int parse_state(parser *p) {
    uint32_t name, s, flags = 0;
    size_t at = p->pos;
    u32vec roots = {0}, to = {0}, to_tok = {0};
    int ok;
    if (!parse_name32(p, &name, "state name")) return 0;
    ok = declare(p, REF_STATE, name, at, &p->state_tok, "state");
    if (!ok) return 0;
    s = jazz_build_state(p->b, "", 0);
    if (p->b->failed) return fail_at(p, tok(p), "out of memory");
    p->b->states[s].name = name;
    if (!push_u32(p, &p->state_tok, (uint32_t)at)) return 0;
    if (is_punct(p, '{')) {
        next(p);
        while (ok && !is_punct(p, '}')) {
            if (is_word(p, 0, "Properties")) {
                next(p);
                ok = parse_flags(p, sj_state_flags, &flags, "state property");
            } else if (is_word(p, 0, "Transitions")) {
                next(p);
                ok = expect_word(p, "to");
                while (ok) {
                    uint32_t h;
                    size_t t_at = p->pos;
                    ok = parse_name32(p, &h, "state") && push_u32(p, &to, h) && push_u32(p, &to_tok, (uint32_t)t_at);
                    if (!is_punct(p, ',')) break;
                    next(p);
                }
            } else if (is_word(p, 0, "Unknown") && is_word(p, 1, "Decision")) {
                next(p);
                next(p);
                ok = expect_word(p, "Graph") && expect_word(p, "Value") &&
                     parse_u32(p, &p->b->graphs[s].unknown, "decision graph value");
            } else if (is_word(p, 0, "Unknown")) {
                uint32_t index;
                const sj_token *vt;
                ok = parse_unknown_value(p, 1u, "a state", &index, &vt) && parse_u32(p, &p->b->states[s].awareness, "value");
            } else if (node_starts(p)) {
                uint32_t n;
                ok = parse_node(p, &n) && push_u32(p, &roots, n);
            } else {
                ok = expected(p, "a state field (Properties, Transitions to, Unknown Value), a node or '}'");
            }
        }
        if (ok) next(p);
    }
    if (ok) {
        size_t i;
        uint32_t *list;
        p->b->states[s].flags = flags;
        jazz_build_roots(p->b, s, (uint32_t)roots.n, roots.v);
        jazz_build_transitions(p->b, s, (uint32_t)to.n, to.v);
        list = (uint32_t *)(uintptr_t)p->b->states[s].transitions;
        if (p->b->failed) ok = fail_at(p, tok(p), "out of memory");
        for (i = 0; ok && i < to.n; i++) ok = add_ref(p, REF_STATE, to.v[i], to_tok.v[i], PLUMBOB_JAZZ_NONE, 0, &list[i]);
    }
    free_u32(&roots);
    free_u32(&to);
    free_u32(&to_tok);
    return ok;
}

static int parse_machine_field(parser *p) {
    jazz_build *b = p->b;
    size_t at;
    if (is_word(p, 0, "Actor") || is_word(p, 0, "Parameter")) {
        int actor = is_word(p, 0, "Actor");
        uint32_t name, value = 0, i;
        next(p);
        at = p->pos;
        if (!parse_name32(p, &name, actor ? "actor name" : "parameter name")) return 0;
        if (is_punct(p, '=')) {
            next(p);
            if (!parse_name32(p, &value, "default value")) return 0;
        }
        if (actor) {
            if (!declare(p, REF_ACTOR, name, at, &p->actor_tok, "actor")) return 0;
            i = jazz_build_actor(b, "");
            if (b->failed) return fail_at(p, tok(p), "out of memory");
            b->actors[i].name = name;
            b->actors[i].unknown = value;
            return push_u32(p, &p->actor_tok, (uint32_t)at);
        }
        if (!declare(p, REF_PARAM, name, at, &p->param_tok, "parameter")) return 0;
        i = jazz_build_param(b, "", "");
        if (b->failed) return fail_at(p, tok(p), "out of memory");
        b->params[i].name = name;
        b->params[i].default_value = value;
        return push_u32(p, &p->param_tok, (uint32_t)at);
    }
    if (is_word(p, 0, "Properties")) {
        next(p);
        return parse_flags(p, sj_machine_flags, &b->jazz.machine.properties, "state machine property");
    }
    if (is_word(p, 0, "Priority")) {
        next(p);
        return parse_priority(p, &b->jazz.machine.priority);
    }
    if (is_word(p, 0, "Assign")) {
        plumbob_jazz_animation a;
        next(p);
        if (!expect_word(p, "Actor") || !parse_name32(p, &a.clip, "clip name") || !expect_punct(p, '.') ||
            !parse_name32(p, &a.clip_actor, "clip actor") || !expect_word(p, "as") ||
            !parse_name32(p, &a.jazz_actor, "actor"))
            return 0;
        if (!reserve(p, (void **)&p->anims, p->anim_count, &p->anim_cap, sizeof *p->anims)) return 0;
        p->anims[p->anim_count++] = a;
        return 1;
    }
    if (is_word(p, 0, "Unknown")) {
        uint32_t index;
        const sj_token *vt;
        if (!parse_unknown_value(p, 5u, "a state machine", &index, &vt)) return 0;
        return parse_u32(p, index == 0 ? &b->jazz.machine.awareness : &b->jazz.machine.unknown[index - 1u], "value");
    }
    if (is_word(p, 0, "Instance")) {
        next(p);
        p->instance_set = 1;
        return parse_name64(p, &p->prog->instance, HASH_FNV64, "resource instance");
    }
    if (is_word(p, 0, "Group")) {
        next(p);
        return parse_u32(p, &p->prog->group, "resource group");
    }
    if (is_word(p, 0, "State")) {
        next(p);
        return parse_state(p);
    }
    return expected(p, "a state machine field (Actor, Parameter, Properties, Priority, Assign Actor, Unknown Value) "
                       "or State or '}'");
}

/* ---- after parsing: names to indices, shared subtrees ------------------- */

static int resolve(parser *p) {
    size_t i;
    static const char *const what[] = {"actor", "parameter", "state"};
    for (i = 0; i < p->ref_count; i++) {
        const pending *r = &p->refs[i];
        const u32vec *decl = r->kind == REF_ACTOR ? &p->actor_tok : r->kind == REF_PARAM ? &p->param_tok : &p->state_tok;
        uint32_t index = find_hash(decl, p, r->kind, r->hash);
        const sj_token *t = &p->t->items[r->tok];
        if (index == PLUMBOB_JAZZ_NONE) {
            if (t->kind == SJ_PUNCT) t = &p->t->items[r->tok + 1u];
            return fail_at(p, t, "undefined %s %.*s (declare it with %s)", what[r->kind], (int)t->len, t->at,
                           r->kind == REF_STATE ? "State" : r->kind == REF_ACTOR ? "Actor" : "Parameter");
        }
        if (r->ptr)
            *r->ptr = index;
        else
            memcpy((unsigned char *)&p->b->nodes[r->node] + r->offset, &index, sizeof index);
    }
    return 1;
}

static int same_list(const uint32_t *a, uint32_t na, const uint32_t *b, uint32_t nb) {
    return na == nb && (na == 0 || memcmp(a, b, (size_t)na * sizeof *a) == 0);
}

static int same_text(plumbob_jazz_text a, plumbob_jazz_text b) {
    return a.length == b.length && (a.length == 0 || memcmp(a.units, b.units, (size_t)a.length * 2u) == 0);
}

static int same_key(plumbob_jazz_key a, plumbob_jazz_key b) {
    return a.instance == b.instance && a.type == b.type && a.group == b.group;
}

static int same_anim(const plumbob_jazz_anim *a, const plumbob_jazz_anim *b) {
    return a->flags == b->flags && a->priority == b->priority && memcmp(&a->unknown1, &b->unknown1, sizeof(float)) == 0 &&
           memcmp(&a->blend_in, &b->blend_in, sizeof(float)) == 0 && memcmp(&a->blend_out, &b->blend_out, sizeof(float)) == 0 &&
           memcmp(&a->unknown2, &b->unknown2, sizeof(float)) == 0 && memcmp(&a->speed, &b->speed, sizeof(float)) == 0 &&
           a->actor == b->actor && a->timing_priority == b->timing_priority &&
           memcmp(a->unknown, b->unknown, sizeof a->unknown) == 0;
}

/* Same kind, fields and (already shared) children. */
static int same_node(const plumbob_jazz_node *a, const plumbob_jazz_node *b) {
    uint32_t i;
    if (a->kind != b->kind || !same_list(a->children, a->child_count, b->children, b->child_count) ||
        a->branch_count != b->branch_count)
        return 0;
    for (i = 0; i < a->branch_count; i++) {
        const plumbob_jazz_branch *x = &a->branches[i], *y = &b->branches[i];
        if (x->value != y->value || memcmp(&x->weight, &y->weight, sizeof(float)) != 0 ||
            !same_list(x->children, x->child_count, y->children, y->child_count))
            return 0;
    }
    switch (a->kind) {
    case PLUMBOB_JAZZ_PLAY: {
        const plumbob_jazz_play *x = &a->u.play, *y = &b->u.play;
        return same_key(x->clip, y->clip) && same_key(x->track_mask, y->track_mask) &&
               memcmp(x->slot_unknown, y->slot_unknown, sizeof x->slot_unknown) == 0 &&
               same_list((const uint32_t *)(const void *)x->slots, x->slot_count * 4u,
                         (const uint32_t *)(const void *)y->slots, y->slot_count * 4u) &&
               same_list((const uint32_t *)(const void *)x->suffixes, x->suffix_count * 2u,
                         (const uint32_t *)(const void *)y->suffixes, y->suffix_count * 2u) &&
               same_key(x->additive_clip, y->additive_clip) && same_text(x->name, y->name) &&
               same_text(x->additive_name, y->additive_name) && same_anim(&x->anim, &y->anim);
    }
    case PLUMBOB_JAZZ_STOP: return same_anim(&a->u.stop, &b->u.stop);
    case PLUMBOB_JAZZ_RANDOM: return a->u.random.flags == b->u.random.flags;
    case PLUMBOB_JAZZ_SELECT_PARAM: return a->u.select.param == b->u.select.param;
    case PLUMBOB_JAZZ_NEXT_STATE: return a->u.next.state == b->u.next.state;
    case PLUMBOB_JAZZ_PROP:
        return a->u.prop.actor == b->u.prop.actor && a->u.prop.param == b->u.prop.param &&
               same_key(a->u.prop.object, b->u.prop.object) &&
               memcmp(a->u.prop.unknown, b->u.prop.unknown, sizeof a->u.prop.unknown) == 0;
    case PLUMBOB_JAZZ_ACTOR_OP:
        return a->u.actor_op.actor == b->u.actor_op.actor && a->u.actor_op.op == b->u.actor_op.op &&
               a->u.actor_op.operand == b->u.actor_op.operand &&
               memcmp(a->u.actor_op.unknown, b->u.actor_op.unknown, sizeof a->u.actor_op.unknown) == 0;
    default: return 1;
    }
}

static uint64_t mix(uint64_t h, uint64_t v) { return (h ^ v) * 0x100000001B3ull; }

/* A digest for bucketing; same_node decides. */
static uint64_t node_digest(const plumbob_jazz_node *n) {
    uint64_t h = mix(0xCBF29CE484222325ull, n->kind);
    uint32_t i, k;
    for (i = 0; i < n->child_count; i++) h = mix(h, n->children[i]);
    for (i = 0; i < n->branch_count; i++) {
        h = mix(h, n->branches[i].value);
        for (k = 0; k < n->branches[i].child_count; k++) h = mix(h, n->branches[i].children[k]);
    }
    if (n->kind == PLUMBOB_JAZZ_PLAY) h = mix(mix(h, n->u.play.clip.instance), n->u.play.anim.actor);
    return h;
}

typedef struct share_ctx {
    jazz_build *b;
    uint32_t *rep;      /* per node: the node it is merged into (itself if kept) */
    uint32_t *table;    /* open addressing: node + 1, 0 empty */
    size_t mask;
    size_t *used;       /* slots filled for the current graph, cleared after it */
    size_t used_count;
} share_ctx;

/* Postorder: children first, so equal subtrees are found bottom up, and the
 * first copy in preorder is always the one kept. */
static void share(share_ctx *c, uint32_t n) {
    plumbob_jazz_node *node = &c->b->nodes[n];
    uint32_t i, k;
    size_t slot;
    for (i = 0; i < node->child_count; i++) {
        share(c, node->children[i]);
        ((uint32_t *)(uintptr_t)node->children)[i] = c->rep[node->children[i]];
    }
    for (i = 0; i < node->branch_count; i++)
        for (k = 0; k < node->branches[i].child_count; k++) {
            uint32_t *list = (uint32_t *)(uintptr_t)node->branches[i].children;
            share(c, list[k]);
            list[k] = c->rep[list[k]];
        }
    slot = (size_t)node_digest(node) & c->mask;
    while (c->table[slot]) {
        uint32_t other = c->table[slot] - 1u;
        if (same_node(&c->b->nodes[other], node)) {
            c->rep[n] = other;
            return;
        }
        slot = (slot + 1u) & c->mask;
    }
    c->table[slot] = n + 1u;
    c->used[c->used_count++] = slot;
    c->rep[n] = n;
}

static int share_identical_subtrees(parser *p) {
    jazz_build *b = p->b;
    share_ctx c;
    uint32_t s, i, kept = 0, *index;
    memset(&c, 0, sizeof c);
    size_t size = 16;
    int ok = 1;
    c.b = b;
    c.rep = (uint32_t *)malloc(((size_t)b->node_count + 1u) * sizeof *c.rep);
    index = (uint32_t *)malloc(((size_t)b->node_count + 1u) * sizeof *index);
    while (size < 2u * (size_t)b->node_count) size *= 2u;
    c.table = (uint32_t *)calloc(size, sizeof *c.table);
    c.used = (size_t *)malloc(((size_t)b->node_count + 1u) * sizeof *c.used);
    c.mask = size - 1u;
    if (!c.rep || !index || !c.table || !c.used) {
        ok = fail_at(p, tok(p), "out of memory");
        goto done;
    }
    for (s = 0; s < b->state_count; s++) {
        plumbob_jazz_graph *g = &b->graphs[s];
        for (i = 0; i < g->root_count; i++) {
            uint32_t *roots = (uint32_t *)(uintptr_t)g->roots;
            share(&c, roots[i]);
            roots[i] = c.rep[roots[i]];
        }
        while (c.used_count) c.table[c.used[--c.used_count]] = 0;
    }
    /* drop merged nodes, renumber the rest in order */
    for (i = 0; i < b->node_count; i++) {
        index[i] = kept;
        if (c.rep[i] == i) b->nodes[kept++] = b->nodes[i];
    }
    for (i = 0; i < kept; i++) {
        plumbob_jazz_node *n = &b->nodes[i];
        uint32_t k, m;
        for (k = 0; k < n->child_count; k++) ((uint32_t *)(uintptr_t)n->children)[k] = index[n->children[k]];
        for (k = 0; k < n->branch_count; k++)
            for (m = 0; m < n->branches[k].child_count; m++) {
                uint32_t *list = (uint32_t *)(uintptr_t)n->branches[k].children;
                list[m] = index[list[m]];
            }
    }
    for (s = 0; s < b->state_count; s++)
        for (i = 0; i < b->graphs[s].root_count; i++) {
            uint32_t *roots = (uint32_t *)(uintptr_t)b->graphs[s].roots;
            roots[i] = index[roots[i]];
        }
    b->node_count = kept;
done:
    free(c.rep);
    free(c.table);
    free(c.used);
    free(index);
    return ok;
}

int sj_compile(const char *text, size_t len, sj_program *prog, sj_error *err) {
    sj_tokens tokens;
    parser p;
    int ok, name_is_text = 0;
    uint64_t default_instance = 0;
    memset(prog, 0, sizeof *prog);
    memset(err, 0, sizeof *err);
    jazz_build_init(&prog->build, "");
    if (!sj_lex(text, len, &tokens, err)) {
        sj_tokens_free(&tokens);
        return 0;
    }
    memset(&p, 0, sizeof p);
    p.t = &tokens;
    p.prog = prog;
    p.b = &prog->build;
    p.err = err;
    p.b->jazz.machine.properties = 0;
    ok = expect_word(&p, "State") && expect_word(&p, "Machine");
    if (ok) {
        const sj_token *t = tok(&p);
        if (t->kind == SJ_STRING) {
            name_is_text = 1;
            default_instance = plumbob_fnv64(str_bytes(&p, t), t->str_len);
        }
        ok = parse_name32(&p, &p.b->jazz.machine.name, "state machine name");
        if (ok && name_is_text) ok = sj_names_add(&prog->names, default_instance, str_bytes(&p, t), t->str_len);
        if (ok && !name_is_text) default_instance = p.b->jazz.machine.name;
    }
    ok = ok && expect_punct(&p, '{');
    while (ok && !is_punct(&p, '}') && tok(&p)->kind != SJ_EOF) ok = parse_machine_field(&p);
    ok = ok && expect_punct(&p, '}');
    if (ok && tok(&p)->kind != SJ_EOF) ok = expected(&p, "end of file after the state machine's '}'");
    ok = ok && resolve(&p) && share_identical_subtrees(&p);
    if (ok) {
        uint64_t chunks = 1u + (uint64_t)p.b->actor_count + p.b->param_count + 2u * (uint64_t)p.b->state_count + p.b->node_count;
        if (chunks > PLUMBOB_JAZZ_MAX_CHUNKS)
            ok = fail_at(&p, tok(&p), "the machine needs %llu chunks; a jazz resource holds at most %u",
                         (unsigned long long)chunks, (unsigned)PLUMBOB_JAZZ_MAX_CHUNKS);
    }
    if (ok) {
        if (!p.instance_set) prog->instance = default_instance;
        p.b->instance = prog->instance;
        ok = jazz_build_animations(p.b, (uint32_t)p.anim_count, p.anims) && jazz_build_finish(p.b);
        if (!ok) fail_at(&p, tok(&p), "out of memory");
        else p.b->chunks[0].key.group = prog->group;
    }
    free(p.refs);
    free(p.anims);
    free_u32(&p.actor_tok);
    free_u32(&p.param_tok);
    free_u32(&p.state_tok);
    sj_tokens_free(&tokens);
    return ok;
}

void sj_program_free(sj_program *prog) {
    jazz_build_free(&prog->build);
    sj_names_free(&prog->names);
    memset(prog, 0, sizeof *prog);
}
