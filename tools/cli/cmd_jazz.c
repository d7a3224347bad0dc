/* plumbob jazz dump / run, and Sims 3 jazz support for info and check. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "plumbob.h"
#include "util/files.h"
#include "commands.h"
#include "tool_args.h"
#include "tool_input.h"
#include "tool_decode.h"
#include "tool_kind.h"
#include "tool_output.h"
#include "util/names.h"
#include "util/bytes.h"

/* A decoded jazz resource with its arena, and the KEY names that go with it. */
typedef struct tool_jazz {
    plumbob_jazz jazz;
    unsigned char *mem;
    tool_names names;
    unsigned char *names_package; /* --names PACKAGE bytes, kept for the table */
    tool_dict dict;               /* built-in names and the package's rigs, after KEY */
} tool_jazz;

static plumbob_result decode_quiet(const tool_input *in, tool_jazz *tj) {
    size_t need;
    plumbob_arena arena;
    plumbob_error err;
    plumbob_result r = plumbob_jazz_measure_ex(in->data, in->size, &need, &err);
    memset(tj, 0, sizeof *tj);
    if (r == PLUMBOB_OK) {
        tj->mem = (unsigned char *)malloc(need ? need : 1);
        plumbob_arena_init(&arena, tj->mem, need);
        r = plumbob_jazz_decode_ex(in->data, in->size, &arena, &tj->jazz, &err);
    }
    if (r != PLUMBOB_OK) {
        free(tj->mem);
        tj->mem = NULL;
        tool_say_where(in, &err);
    }
    return r;
}

static void tool_jazz_free(tool_jazz *tj) {
    free(tj->mem);
    tool_names_free(&tj->names);
    free(tj->names_package);
    tool_dict_free(&tj->dict);
    memset(tj, 0, sizeof *tj);
}

/* Names from --names PACKAGE, else from the package the resource came from. */
/* Text that reads as Smooth Jazz (what jazz decompile writes): no control
 * bytes but whitespace, and "State Machine" in it. */
static int is_smooth_jazz_text(const unsigned char *d, size_t n) {
    size_t k, m = n < 65536 ? n : 65536;
    for (k = 0; k < m; k++)
        if (d[k] < 0x20 && d[k] != '\t' && d[k] != '\n' && d[k] != '\r' && d[k] != '\f' && d[k] != '\v') return 0;
    for (k = 0; k + 13 <= m; k++)
        if (memcmp(d + k, "State Machine", 13) == 0) return 1;
    return 0;
}

static int load_names(const tool_input *in, const char *names_path, tool_jazz *tj) {
    plumbob_package pkg;
    const unsigned char *bytes = in->package_data;
    size_t size = in->package_size;
    plumbob_result r;
    tool_dict_init(&tj->dict);
    if (names_path) {
        if (!tool_read_file(names_path, &tj->names_package, &size)) return 0;
        bytes = tj->names_package;
    }
    if (!bytes) return 1;
    tool_dict_add_package(&tj->dict, bytes, size);
    r = plumbob_package_open(&pkg, bytes, size);
    if (r != PLUMBOB_OK) {
        char wb[320];
        tool_error(names_path ? names_path : in->name, "not a readable package: %s",
                   tool_package_why(bytes, size, r, wb, sizeof wb));
        return 0;
    }
    tool_names_load(&pkg, &tj->names);
    return 1;
}

static int decode(const tool_input *in, tool_jazz *tj) {
    plumbob_result r = decode_quiet(in, tj);
    if (r != PLUMBOB_OK) tool_error(in->name, "not a valid Sims 3 jazz resource: %s", tool_why(in, r));
    return r == PLUMBOB_OK;
}

static uint32_t count_nodes(const plumbob_jazz *j, uint32_t kind) {
    uint32_t i, n = 0;
    for (i = 0; i < j->node_count; i++) n += j->nodes[i].kind == kind;
    return n;
}

int jazz_info(const tool_input *in, FILE *out) {
    tool_jazz tj;
    uint32_t i, entry = 0;
    const plumbob_jazz *j;
    if (!decode(in, &tj)) return 1;
    j = &tj.jazz;
    for (i = 0; i < j->state_count; i++) entry += (j->states[i].flags & PLUMBOB_JAZZ_STATE_ENTRY) != 0;
    fprintf(out,
            "%s: Sims 3 jazz state machine 0x%08X, %u states (%u entry), %u actors, %u parameters, %u graphs, "
            "%u nodes (%u play, %u stop, %u random, %u select), %u chunks, %zu bytes\n",
            in->name, (unsigned)j->machine.name, (unsigned)j->state_count, (unsigned)entry, (unsigned)j->actor_count,
            (unsigned)j->param_count, (unsigned)j->graph_count, (unsigned)j->node_count,
            (unsigned)count_nodes(j, PLUMBOB_JAZZ_PLAY), (unsigned)count_nodes(j, PLUMBOB_JAZZ_STOP),
            (unsigned)count_nodes(j, PLUMBOB_JAZZ_RANDOM),
            (unsigned)(count_nodes(j, PLUMBOB_JAZZ_SELECT_PARAM) + count_nodes(j, PLUMBOB_JAZZ_SELECT_DEST)),
            (unsigned)j->chunk_count, in->size);
    tool_jazz_free(&tj);
    return 0;
}

plumbob_result jazz_reencode(const tool_input *in, unsigned char **out, size_t *out_size) {
    tool_jazz tj;
    plumbob_result r = decode_quiet(in, &tj);
    if (r == PLUMBOB_OK) {
        size_t ws = plumbob_jazz_write_size(&tj.jazz);
        *out = (unsigned char *)malloc(ws ? ws : 1);
        r = plumbob_jazz_write(&tj.jazz, *out, ws, out_size);
    }
    tool_jazz_free(&tj);
    return r;
}

/* ---- names ------------------------------------------------------------ */

/* The KEY name of a 32-bit hash, or NULL. */
static const char *name_of(const tool_jazz *tj, uint64_t hash, size_t *len) {
    plumbob_string s;
    const char *known;
    if (tj->names.have && plumbob_key_table_find(&tj->names.kt, hash, &s) == PLUMBOB_OK) {
        *len = s.len;
        return s.ptr;
    }
    /* then the name dictionary: bone and slot names, the package's rigs */
    known = hash <= 0xFFFFFFFFu ? tool_dict_bone(&tj->dict, (uint32_t)hash) : NULL;
    if (known) *len = strlen(known);
    return known;
}

/* "name" (JSON string) when known, else "0x%08X". */
static void json_name(FILE *out, const tool_jazz *tj, uint32_t hash) {
    size_t len;
    const char *s = name_of(tj, hash, &len);
    if (s) json_string(out, s, len);
    else fprintf(out, "\"0x%08X\"", (unsigned)hash);
}

static void text_name(FILE *out, const tool_jazz *tj, uint32_t hash) {
    size_t len;
    const char *s = name_of(tj, hash, &len);
    if (s) fprintf(out, "\"%.*s\"", (int)len, s);
    else fprintf(out, "0x%08X", (unsigned)hash);
}

static const char *node_kind_name(uint32_t kind) {
    static const char *names[PLUMBOB_JAZZ_NODE_KIND_COUNT] = {
        "play", "stop", "random", "select_parameter", "select_destination", "next_state", "create_prop", "actor_operation"};
    return kind < PLUMBOB_JAZZ_NODE_KIND_COUNT ? names[kind] : "unknown";
}

static const char *action_kind_name(uint32_t kind) {
    static const char *names[] = {"enter", "play", "stop", "create_prop", "actor_operation", "next_state", "loop"};
    return kind < sizeof names / sizeof names[0] ? names[kind] : "unknown";
}

static const char *next_status_name(uint32_t status) {
    static const char *names[] = {"pending", "on_route", "ignored", "no_transition", "superseded"};
    return status < sizeof names / sizeof names[0] ? names[status] : "unknown";
}

/* State flag names, by bit (PLUMBOB_JAZZ_STATE_*). */
static const char *const state_flag_names[] = {"public", "entry", "exit", "loop", "one_shot", "one_shot_hold",
                                               "synchronized", "join", "explicit"};
#define STATE_FLAG_NAMES (sizeof state_flag_names / sizeof state_flag_names[0])

/* The flags as names, separated by `sep`; bits without a name as 0x hex. */
static void flag_names(FILE *out, uint32_t flags, int json) {
    uint32_t b;
    int first = 1;
    for (b = 0; b < 32; b++) {
        if (!(flags >> b & 1u)) continue;
        if (!first) fputs(json ? ", " : " ", out);
        first = 0;
        if (b < STATE_FLAG_NAMES) fprintf(out, json ? "\"%s\"" : "%s", state_flag_names[b]);
        else fprintf(out, json ? "\"0x%X\"" : "0x%X", (unsigned)(1u << b));
    }
}

static void json_key(FILE *out, plumbob_jazz_key k) {
    fprintf(out, "\"%08X:%08X:%016llX\"", (unsigned)k.type, (unsigned)k.group, (unsigned long long)k.instance);
}

static void json_text(FILE *out, plumbob_jazz_text t) {
    uint32_t i;
    fputc('"', out);
    for (i = 0; i < t.length; i++) {
        unsigned u = tool_le16(t.units + 2u * i);
        if (u == '"' || u == '\\') fprintf(out, "\\%c", (char)u);
        else if (u >= 0x20u && u < 0x7Fu) fputc((int)u, out);
        else fprintf(out, "\\u%04x", u);
    }
    fputc('"', out);
}

static void json_list(FILE *out, const uint32_t *v, uint32_t n) {
    uint32_t i;
    fputc('[', out);
    for (i = 0; i < n; i++) fprintf(out, "%s%u", i ? ", " : "", (unsigned)v[i]);
    fputc(']', out);
}

static void json_anim(FILE *out, const tool_jazz *tj, const plumbob_jazz_anim *a, int with_actor) {
    fprintf(out, "\"flags\": %u, \"priority\": %d, \"timing_priority\": %d, \"blend_in\": ", (unsigned)a->flags,
            (int)a->priority, (int)a->timing_priority);
    json_float(out, a->blend_in);
    fputs(", \"blend_out\": ", out);
    json_float(out, a->blend_out);
    fputs(", \"speed\": ", out);
    json_float(out, a->speed);
    if (!with_actor) return;
    fputs(", \"actor\": ", out);
    if (a->actor == PLUMBOB_JAZZ_NONE) fputs("null", out);
    else json_name(out, tj, tj->jazz.actors[a->actor].name);
}

static void json_branches(FILE *out, const tool_jazz *tj, const plumbob_jazz_node *n) {
    uint32_t b;
    fputs(", \"branches\": [", out);
    for (b = 0; b < n->branch_count; b++) {
        const plumbob_jazz_branch *br = &n->branches[b];
        fputs(b ? ", {" : "{", out);
        if (n->kind == PLUMBOB_JAZZ_RANDOM) {
            fputs("\"weight\": ", out);
            json_float(out, br->weight);
        } else if (n->kind == PLUMBOB_JAZZ_SELECT_DEST) {
            fputs("\"state\": ", out);
            json_name(out, tj, tj->jazz.states[br->value].name);
        } else {
            fputs("\"value\": ", out);
            json_name(out, tj, br->value);
        }
        fputs(", \"children\": ", out);
        json_list(out, br->children, br->child_count);
        fputc('}', out);
    }
    fputc(']', out);
}

static void json_node(FILE *out, const tool_jazz *tj, uint32_t i) {
    const plumbob_jazz *j = &tj->jazz;
    const plumbob_jazz_node *n = &j->nodes[i];
    fprintf(out, "  {\"index\": %u, \"chunk\": %u, \"kind\": \"%s\"", (unsigned)i, (unsigned)n->chunk,
            node_kind_name(n->kind));
    switch (n->kind) {
    case PLUMBOB_JAZZ_PLAY:
        fputs(", \"clip\": ", out);
        json_key(out, n->u.play.clip);
        if (n->u.play.name.length) {
            fputs(", \"clip_name\": ", out);
            json_text(out, n->u.play.name);
        }
        fputs(", \"track_mask\": ", out);
        json_key(out, n->u.play.track_mask);
        fprintf(out, ", \"slots\": %u, \"suffixes\": %u, \"slot_list\": [", (unsigned)n->u.play.slot_count,
                (unsigned)n->u.play.suffix_count);
        {
            uint32_t k;
            for (k = 0; k < n->u.play.slot_count; k++) {
                const plumbob_jazz_slot *sl = &n->u.play.slots[k];
                fprintf(out, "%s{\"chain\": %u, \"slot_id\": %u, \"actor\": ", k ? ", " : "", (unsigned)sl->chain,
                        (unsigned)sl->slot_id);
                json_name(out, tj, sl->actor);
                fputs(", \"slot\": ", out);
                json_name(out, tj, sl->slot);
                fputc('}', out);
            }
        }
        fputs("], ", out);
        json_anim(out, tj, &n->u.play.anim, 1);
        break;
    case PLUMBOB_JAZZ_STOP:
        fputs(", ", out);
        json_anim(out, tj, &n->u.stop, 1);
        break;
    case PLUMBOB_JAZZ_RANDOM:
        fprintf(out, ", \"flags\": %u", (unsigned)n->u.random.flags);
        json_branches(out, tj, n);
        break;
    case PLUMBOB_JAZZ_SELECT_PARAM:
        fputs(", \"parameter\": ", out);
        json_name(out, tj, j->params[n->u.select.param].name);
        json_branches(out, tj, n);
        break;
    case PLUMBOB_JAZZ_SELECT_DEST: json_branches(out, tj, n); break;
    case PLUMBOB_JAZZ_NEXT_STATE:
        fputs(", \"state\": ", out);
        json_name(out, tj, j->states[n->u.next.state].name);
        break;
    case PLUMBOB_JAZZ_PROP:
        fputs(", \"object\": ", out);
        json_key(out, n->u.prop.object);
        fputs(", \"actor\": ", out);
        if (n->u.prop.actor == PLUMBOB_JAZZ_NONE) fputs("null", out);
        else json_name(out, tj, j->actors[n->u.prop.actor].name);
        break;
    default:
        fprintf(out, ", \"operation\": %u, \"operand\": %u, \"actor\": ", (unsigned)n->u.actor_op.op,
                (unsigned)n->u.actor_op.operand);
        if (n->u.actor_op.actor == PLUMBOB_JAZZ_NONE) fputs("null", out);
        else json_name(out, tj, j->actors[n->u.actor_op.actor].name);
        break;
    }
    if (n->kind == PLUMBOB_JAZZ_PLAY || n->kind == PLUMBOB_JAZZ_STOP || n->kind == PLUMBOB_JAZZ_PROP ||
        n->kind == PLUMBOB_JAZZ_ACTOR_OP) {
        fputs(", \"children\": ", out);
        json_list(out, n->children, n->child_count);
    }
    fputc('}', out);
}

static void dump_json(FILE *out, const tool_jazz *tj) {
    const plumbob_jazz *j = &tj->jazz;
    uint32_t i;
    fputs("{\"name\": ", out);
    json_name(out, tj, j->machine.name);
    fprintf(out, ", \"hash\": \"0x%08X\", \"properties\": %u, \"priority\": %d, \"awareness\": %u, \"chunks\": %u,\n",
            (unsigned)j->machine.name, (unsigned)j->machine.properties, (int)j->machine.priority,
            (unsigned)j->machine.awareness, (unsigned)j->chunk_count);
    fputs(" \"actors\": [", out);
    for (i = 0; i < j->actor_count; i++) {
        if (i) fputs(", ", out);
        json_name(out, tj, j->actors[i].name);
    }
    fputs("],\n \"parameters\": [", out);
    for (i = 0; i < j->param_count; i++) {
        fputs(i ? ", {\"name\": " : "{\"name\": ", out);
        json_name(out, tj, j->params[i].name);
        fputs(", \"default\": ", out);
        json_name(out, tj, j->params[i].default_value);
        fputc('}', out);
    }
    fputs("],\n \"animations\": [", out);
    for (i = 0; i < j->machine.animation_count; i++) {
        const plumbob_jazz_animation *a = &j->machine.animations[i];
        fputs(i ? ",\n  {\"clip\": " : "\n  {\"clip\": ", out);
        json_name(out, tj, a->clip);
        fputs(", \"clip_actor\": ", out);
        json_name(out, tj, a->clip_actor);
        fputs(", \"actor\": ", out);
        json_name(out, tj, a->jazz_actor);
        fputc('}', out);
    }
    fputs("],\n \"states\": [", out);
    for (i = 0; i < j->state_count; i++) {
        const plumbob_jazz_state *s = &j->states[i];
        uint32_t t;
        fprintf(out, "%s\n  {\"index\": %u, \"name\": ", i ? "," : "", (unsigned)i);
        json_name(out, tj, s->name);
        fprintf(out, ", \"flags\": %u, \"flag_names\": [", (unsigned)s->flags);
        flag_names(out, s->flags, 1);
        fprintf(out, "], \"graph\": %u, \"roots\": ", (unsigned)s->graph);
        json_list(out, j->graphs[s->graph].roots, j->graphs[s->graph].root_count);
        fputs(", \"transitions\": [", out);
        for (t = 0; t < s->transition_count; t++) {
            if (t) fputs(", ", out);
            json_name(out, tj, j->states[s->transitions[t]].name);
        }
        fputs("]}", out);
    }
    fputs("],\n \"nodes\": [\n", out);
    for (i = 0; i < j->node_count; i++) {
        json_node(out, tj, i);
        fputs(i + 1 < j->node_count ? ",\n" : "\n", out);
    }
    fputs(" ]}\n", out);
}

/* One node and what runs under it, indented; `depth` stops cycles. */
/* Node i of state `state`'s graph, indented by depth. */
static void text_node(FILE *out, const tool_jazz *tj, uint32_t state, uint32_t i, int depth) {
    const plumbob_jazz *j = &tj->jazz;
    const plumbob_jazz_node *n = &j->nodes[i];
    uint32_t b, c;
    fprintf(out, "%*s#%u %s", 4 + 2 * depth, "", (unsigned)i, node_kind_name(n->kind));
    if (depth > 24) {
        fputs(" ... (deeper than 24 levels)\n", out);
        return;
    }
    switch (n->kind) {
    case PLUMBOB_JAZZ_PLAY:
        if (n->u.play.name.length) {
            fputc(' ', out);
            json_text(out, n->u.play.name);
        } else {
            size_t len;
            const char *s = name_of(tj, n->u.play.clip.instance, &len);
            if (s) fprintf(out, " \"%.*s\"", (int)len, s);
            else fprintf(out, " clip %016llX", (unsigned long long)n->u.play.clip.instance);
        }
        if (n->u.play.anim.actor != PLUMBOB_JAZZ_NONE) {
            fputs(" for ", out);
            text_name(out, tj, j->actors[n->u.play.anim.actor].name);
        }
        fprintf(out, " (flags 0x%X, priority %d, blend in %g)", (unsigned)n->u.play.anim.flags,
                (int)n->u.play.anim.priority, (double)n->u.play.anim.blend_in);
        break;
    case PLUMBOB_JAZZ_STOP:
        if (n->u.stop.actor != PLUMBOB_JAZZ_NONE) {
            fputs(" for ", out);
            text_name(out, tj, j->actors[n->u.stop.actor].name);
        }
        break;
    case PLUMBOB_JAZZ_SELECT_PARAM:
        fputs(" on ", out);
        text_name(out, tj, j->params[n->u.select.param].name);
        break;
    case PLUMBOB_JAZZ_NEXT_STATE: {
        const plumbob_jazz_state *st = &j->states[state];
        uint32_t t;
        fputs(" ", out);
        text_name(out, tj, j->states[n->u.next.state].name);
        for (t = 0; t < st->transition_count && st->transitions[t] != n->u.next.state; t++) {}
        if (t == st->transition_count) fputs(" (no transition there: the runtime refuses it)", out);
        break;
    }
    case PLUMBOB_JAZZ_PROP:
        fprintf(out, " %016llX", (unsigned long long)n->u.prop.object.instance);
        if (n->u.prop.actor != PLUMBOB_JAZZ_NONE) {
            fputs(" as ", out);
            text_name(out, tj, j->actors[n->u.prop.actor].name);
        }
        break;
    case PLUMBOB_JAZZ_ACTOR_OP: fprintf(out, " op %u operand %u", (unsigned)n->u.actor_op.op, (unsigned)n->u.actor_op.operand); break;
    default: break;
    }
    fputc('\n', out);
    for (c = 0; c < n->child_count; c++) text_node(out, tj, state, n->children[c], depth + 1);
    for (b = 0; b < n->branch_count; b++) {
        const plumbob_jazz_branch *br = &n->branches[b];
        fprintf(out, "%*s", 6 + 2 * depth, "");
        if (n->kind == PLUMBOB_JAZZ_RANDOM) fprintf(out, "weight %g:\n", (double)br->weight);
        else if (n->kind == PLUMBOB_JAZZ_SELECT_DEST) {
            fputs("destination ", out);
            text_name(out, tj, j->states[br->value].name);
            fputs(":\n", out);
        } else {
            fputs("value ", out);
            text_name(out, tj, br->value);
            fputs(":\n", out);
        }
        for (c = 0; c < br->child_count; c++) text_node(out, tj, state, br->children[c], depth + 2);
    }
}

static void dump_text(FILE *out, const tool_input *in, const tool_jazz *tj) {
    const plumbob_jazz *j = &tj->jazz;
    uint32_t i, t;
    jazz_info(in, out);
    fputs("  actors:", out);
    for (i = 0; i < j->actor_count; i++) {
        fputc(' ', out);
        text_name(out, tj, j->actors[i].name);
    }
    fputs("\n", out);
    for (i = 0; i < j->param_count; i++) {
        fputs("  parameter ", out);
        text_name(out, tj, j->params[i].name);
        fputs(" = ", out);
        text_name(out, tj, j->params[i].default_value);
        fputc('\n', out);
    }
    for (i = 0; i < j->state_count; i++) {
        const plumbob_jazz_state *s = &j->states[i];
        const plumbob_jazz_graph *g = &j->graphs[s->graph];
        fputs("  state ", out);
        text_name(out, tj, s->name);
        fprintf(out, " (flags 0x%X", (unsigned)s->flags);
        if (s->flags) fputs(": ", out);
        flag_names(out, s->flags, 0);
        fputc(')', out);
        if (s->transition_count) fputs(" ->", out);
        for (t = 0; t < s->transition_count; t++) {
            fputs(t ? ", " : " ", out);
            text_name(out, tj, j->states[s->transitions[t]].name);
        }
        fputc('\n', out);
        for (t = 0; t < g->root_count; t++) text_node(out, tj, i, g->roots[t], 0);
    }
}

/* ---- run -------------------------------------------------------------- */

/* NAME as a hash: 0x... is taken as it is, anything else is FNV-32 hashed. */
static uint32_t hash_arg(const char *s, size_t len) {
    uint64_t v;
    if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && tool_parse_hex(s, len, &v) && v <= 0xFFFFFFFFu)
        return (uint32_t)v;
    return plumbob_fnv32(s, len);
}

static void json_action(FILE *out, const tool_jazz *tj, const char *op, const plumbob_jazz_action *a) {
    const plumbob_jazz *j = &tj->jazz;
    uint32_t k;
    fprintf(out, "{\"op\": \"%s\", \"action\": \"%s\", \"state\": ", op, action_kind_name(a->kind));
    json_name(out, tj, j->states[a->state].name);
    if (a->kind == PLUMBOB_JAZZ_ACTION_ENTER || a->kind == PLUMBOB_JAZZ_ACTION_LOOP) {
        fputs("}\n", out);
        return;
    }
    fprintf(out, ", \"node\": %u, \"after\": ", (unsigned)a->node);
    if (a->after == PLUMBOB_JAZZ_NONE) fputs("null", out);
    else fprintf(out, "%u", (unsigned)a->after);
    fputs(", \"actor\": ", out);
    if (a->actor == PLUMBOB_JAZZ_NONE) fputs("null", out);
    else json_name(out, tj, j->actors[a->actor].name);
    fprintf(out, ", \"handle\": %u", (unsigned)a->handle);
    if (a->kind == PLUMBOB_JAZZ_ACTION_PLAY) {
        fputs(", \"clips\": [", out);
        for (k = 0; k < a->clip_count; k++)
            fprintf(out, "%s\"6B20C4F3:%08X:%016llX\"", k ? ", " : "", (unsigned)a->clips[k].group,
                    (unsigned long long)a->clips[k].instance);
        fputc(']', out);
        if (a->clip_name[0]) {
            fputs(", \"clip_name\": ", out);
            json_string(out, a->clip_name, strlen(a->clip_name));
        }
        if (a->clip_result != PLUMBOB_OK) fprintf(out, ", \"clip_error\": \"%s\"", plumbob_result_str(a->clip_result));
    }
    if (a->anim) {
        fputs(", ", out);
        json_anim(out, tj, a->anim, 0);
    }
    if (a->kind == PLUMBOB_JAZZ_ACTION_PROP) {
        fputs(", \"object\": ", out);
        json_key(out, a->prop);
    }
    if (a->kind == PLUMBOB_JAZZ_ACTION_ACTOR_OP)
        fprintf(out, ", \"operation\": %u, \"operand\": %u", (unsigned)a->op, (unsigned)a->operand);
    if (a->kind == PLUMBOB_JAZZ_ACTION_NEXT_STATE) {
        fputs(", \"next\": ", out);
        json_name(out, tj, j->states[a->next].name);
        fprintf(out, ", \"next_status\": \"%s\"", next_status_name(a->next_status));
    }
    fputs("}\n", out);
}

static void text_action(FILE *out, const tool_jazz *tj, size_t index, const plumbob_jazz_action *a) {
    const plumbob_jazz *j = &tj->jazz;
    if (a->kind == PLUMBOB_JAZZ_ACTION_ENTER || a->kind == PLUMBOB_JAZZ_ACTION_LOOP) {
        fprintf(out, "%3zu %s ", index, a->kind == PLUMBOB_JAZZ_ACTION_ENTER ? "enter" : "loop");
        text_name(out, tj, j->states[a->state].name);
        fputc('\n', out);
        return;
    }
    fprintf(out, "%3zu   %s", index, action_kind_name(a->kind));
    if (a->kind == PLUMBOB_JAZZ_ACTION_PLAY) {
        if (a->clip_name[0]) fprintf(out, " \"%s\"", a->clip_name);
        if (a->clip_count)
            fprintf(out, " %08X:%016llX", (unsigned)a->clips[a->clip_count - 1u].group,
                    (unsigned long long)a->clips[a->clip_count - 1u].instance);
        if (a->clip_result != PLUMBOB_OK) fprintf(out, " (%s)", plumbob_result_str(a->clip_result));
    }
    if (a->kind == PLUMBOB_JAZZ_ACTION_NEXT_STATE) {
        fputc(' ', out);
        text_name(out, tj, j->states[a->next].name);
        fprintf(out, " (%s)", next_status_name(a->next_status));
    }
    if (a->actor != PLUMBOB_JAZZ_NONE) {
        fputs(" for ", out);
        text_name(out, tj, j->actors[a->actor].name);
        fprintf(out, " (handle %u)", (unsigned)a->handle);
    }
    if (a->after != PLUMBOB_JAZZ_NONE) fprintf(out, " after %u", (unsigned)a->after);
    if ((a->kind == PLUMBOB_JAZZ_ACTION_PLAY || a->kind == PLUMBOB_JAZZ_ACTION_STOP) && a->anim)
        fprintf(out, " (flags 0x%X, priority %d, blend in %g, blend out %g)", (unsigned)a->anim->flags,
                (int)a->anim->priority, (double)a->anim->blend_in, (double)a->anim->blend_out);
    fputc('\n', out);
}

static int jazz_usage(FILE *out, int rc) {
    fputs("usage: plumbob jazz dump FILE [--json] [--names PACKAGE]\n"
          "       plumbob jazz decompile FILE [--names PACKAGE] [-o OUT.jazz]\n"
          "       plumbob jazz compile IN.jazz [-o OUT] [--package PKG]\n"
          "       plumbob jazz run FILE [--actor NAME=ID[:AGE]]... [--param NAME=VALUE]...\n"
          "                        --enter STATE [--request STATE | --tick]... [--seed N]\n"
          "                        [--max-steps N] [--max-actions N] [--trace] [--json] [--names PACKAGE]\n"
          "  FILE is a Sims 3 jazz resource or PACKAGE@INSTANCE (then the package's KEY\n"
          "  table names things; --names PACKAGE takes them from another package).\n"
          "  dump  actors, parameters, states with transitions and decision graphs\n"
          "  decompile  the whole machine as Smooth Jazz text (stdout, or OUT.jazz);\n"
          "        warns when the text would not compile back to the same bytes\n"
          "  compile  Smooth Jazz text to the binary resource (OUT), and/or into PKG\n"
          "        (replacing the resource with that key and adding the names to its KEY table)\n"
          "  run   enters STATE, then makes each request and tick in order, and prints every\n"
          "        action (one JSON object per line with --json).  A request walks declared\n"
          "        transitions to its state; a tick follows a pending Next State or replays a\n"
          "        Loop state.  --trace shows every step (state, node, reason); --seed takes\n"
          "        0..2^64-1; --max-steps at most 16777216, --max-actions at most 1000000.\n"
          "        NAME, VALUE and STATE are names (FNV-32 hashed) or 0x hashes; AGE is a\n"
          "        clip prefix code (a, c, t, ad, ...).\n"
          "example: plumbob jazz run WarriorCats.package@91B95750336A8701 --enter \"Enter Standing\"\n"
          "         --request \"Exit Standing\" --json\n",
          out);
    return rc;
}

/* An --actor or --param value NAME=REST, split at '='. */
static int split_arg(const char *arg, size_t *name_len, const char **rest) {
    const char *eq = strchr(arg, '=');
    if (!eq || eq == arg) return 0;
    *name_len = (size_t)(eq - arg);
    *rest = eq + 1;
    return 1;
}

static int parse_u32(const char *s, uint32_t *out) {
    char *end;
    unsigned long long v;
    errno = 0;
    v = strtoull(s, &end, 0);
    if (errno || end == s || *end || v > 0xFFFFFFFFull) return 0;
    *out = (uint32_t)v;
    return 1;
}

/* Applies --actor and --param in order; 0, or the exit status after printing
 * why: 2 for a malformed value (usage), 1 for a name the machine lacks. */
static int setup(plumbob_jazz_instance *inst, int argc, char **argv) {
    int i;
    for (i = 3; i < argc; i++) {
        size_t nlen;
        const char *rest;
        plumbob_result r;
        if (strcmp(argv[i], "--actor") == 0 && i + 1 < argc) {
            const char *colon;
            uint32_t handle;
            int age = PLUMBOB_AGE_GENERIC;
            char idbuf[32];
            size_t idlen;
            if (!split_arg(argv[++i], &nlen, &rest)) goto bad;
            colon = strchr(rest, ':');
            idlen = colon ? (size_t)(colon - rest) : strlen(rest);
            if (colon) {
                age = plumbob_age_code(colon + 1, strlen(colon + 1));
                if (age < 0) {
                    tool_error("jazz", "'%s' is not an age/species code (a, t, c, ad, ac, ...: as clip names begin)",
                               colon + 1);
                    return 2;
                }
            }
            if (idlen >= sizeof idbuf) goto bad;
            memcpy(idbuf, rest, idlen);
            idbuf[idlen] = '\0';
            if (!parse_u32(idbuf, &handle)) goto bad;
            r = plumbob_jazz_bind_actor(inst, hash_arg(argv[i], nlen), handle, age);
            if (r != PLUMBOB_OK) {
                tool_error("jazz", "--actor %s: %s", argv[i], r == PLUMBOB_ERR_NOT_FOUND ? "no such actor" : plumbob_result_str(r));
                return 1;
            }
        } else if (strcmp(argv[i], "--param") == 0 && i + 1 < argc) {
            if (!split_arg(argv[++i], &nlen, &rest)) goto bad;
            r = plumbob_jazz_set_param(inst, hash_arg(argv[i], nlen), hash_arg(rest, strlen(rest)), rest, strlen(rest));
            if (r != PLUMBOB_OK) {
                tool_error("jazz", "--param %s: %s", argv[i], r == PLUMBOB_ERR_NOT_FOUND ? "no such parameter" : plumbob_result_str(r));
                return 1;
            }
        }
        continue;
    bad:
        tool_error("jazz", "'%s' should be NAME=VALUE (an --actor ID is a number)", argv[i]);
        return 2;
    }
    return 0;
}

static int parse_u64(const char *s, uint64_t *out) {
    char *end;
    unsigned long long v;
    errno = 0;
    if (*s == '-') return 0;
    v = strtoull(s, &end, 0);
    if (errno || end == s || *end) return 0;
    *out = (uint64_t)v;
    return 1;
}

/* One --trace line for a step. */
static void trace_step(const tool_jazz *tj, int json, const plumbob_jazz_step *st) {
    static const char *whys[] = {"enter", "route", "next_state", "loop", "search", "root", "child", "branch"};
    const plumbob_jazz *j = &tj->jazz;
    const char *why = st->why < sizeof whys / sizeof whys[0] ? whys[st->why] : "unknown";
    if (json) {
        fprintf(stdout, "{\"op\": \"trace\", \"why\": \"%s\", \"state\": ", why);
        json_name(stdout, tj, j->states[st->state].name);
        if (st->node != PLUMBOB_JAZZ_NONE)
            fprintf(stdout, ", \"node\": %u, \"kind\": \"%s\"", (unsigned)st->node,
                    node_kind_name(j->nodes[st->node].kind));
        if (st->branch != PLUMBOB_JAZZ_NONE) fprintf(stdout, ", \"branch\": %u", (unsigned)st->branch);
        fputs("}\n", stdout);
        return;
    }
    fprintf(stdout, "    trace %-10s ", why);
    text_name(stdout, tj, j->states[st->state].name);
    if (st->node != PLUMBOB_JAZZ_NONE)
        fprintf(stdout, " #%u %s", (unsigned)st->node, node_kind_name(j->nodes[st->node].kind));
    if (st->branch != PLUMBOB_JAZZ_NONE) fprintf(stdout, " -> branch %u", (unsigned)st->branch);
    fputc('\n', stdout);
}

/* Says why a call failed, naming the limit or the state. */
static void run_error(const tool_jazz *tj, const plumbob_jazz_instance *inst, const plumbob_jazz_limits *limits,
                      const char *opt, const char *arg, plumbob_result r) {
    const char *what = plumbob_result_str(r);
    char buf[160];
    if (r == PLUMBOB_ERR_NOT_FOUND) {
        what = "no such state";
    } else if (r == PLUMBOB_ERR_INVALID_ARGUMENT) {
        what = strcmp(opt, "--enter") == 0 ? "not an entry state" : "no state is current";
    } else if (r == PLUMBOB_ERR_UNREACHABLE) {
        size_t len;
        uint32_t from = inst->report.state < tj->jazz.state_count ? tj->jazz.states[inst->report.state].name : 0;
        const char *name = name_of(tj, from, &len);
        if (name) snprintf(buf, sizeof buf, "unreachable: no route of declared transitions leads there from \"%.*s\"",
                           (int)(len > 100 ? 100 : len), name);
        else snprintf(buf, sizeof buf, "unreachable: no route of declared transitions leads there from 0x%08X",
                      (unsigned)from);
        what = buf;
    } else if (r == PLUMBOB_ERR_LIMIT_EXCEEDED) {
        if (inst->report.limit == PLUMBOB_JAZZ_LIMIT_STEPS)
            snprintf(buf, sizeof buf, "limit_exceeded: the step limit (--max-steps %u) was reached",
                     (unsigned)limits->max_steps);
        else
            snprintf(buf, sizeof buf, "limit_exceeded: the action limit (--max-actions %u) was reached after %u steps",
                     (unsigned)limits->max_actions, (unsigned)inst->report.steps);
        what = buf;
    }
    if (arg) tool_error("jazz", "%s %s: %s", opt, arg, what);
    else tool_error("jazz", "%s: %s", opt, what);
}

static int run_jazz(const tool_jazz *tj, int argc, char **argv, int json) {
    plumbob_jazz_limits limits = {4096, 1024};
    plumbob_jazz_instance inst;
    plumbob_arena arena;
    unsigned char *mem;
    plumbob_jazz_action *actions;
    uint64_t seed = 1;
    size_t need;
    int i, rc = 0, entered = 0, trace = 0;
    plumbob_jazz_step *steps = NULL;
    size_t trace_cap = 0;
    plumbob_result r;
    for (i = 3; i < argc; i++) {
        if (strcmp(argv[i], "--trace") == 0) trace = 1;
        if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) {
            if (!parse_u64(argv[i + 1], &seed)) {
                tool_error("jazz", "--seed '%s' is not a number from 0 to 2^64-1", argv[i + 1]);
                return 2;
            }
            i++;
        } else if ((strcmp(argv[i], "--max-steps") == 0 || strcmp(argv[i], "--max-actions") == 0) && i + 1 < argc) {
            uint32_t v;
            if (!parse_u32(argv[i + 1], &v) || v == 0) {
                tool_error("jazz", "%s '%s' is not a number from 1 to %u", argv[i], argv[i + 1],
                           strcmp(argv[i], "--max-steps") == 0 ? (unsigned)PLUMBOB_JAZZ_MAX_STEPS : 1000000u);
                return 2;
            }
            if (strcmp(argv[i], "--max-steps") == 0) {
                if (v > PLUMBOB_JAZZ_MAX_STEPS) {
                    tool_error("jazz", "--max-steps %u is more than a call may take (at most %u)", (unsigned)v,
                               (unsigned)PLUMBOB_JAZZ_MAX_STEPS);
                    return 2;
                }
                limits.max_steps = v;
            } else {
                if (v > 1000000u) { /* an action is a few hundred bytes */
                    tool_error("jazz", "--max-actions %u is more than the tool holds (at most 1000000)", (unsigned)v);
                    return 2;
                }
                limits.max_actions = v;
            }
            i++;
        }
    }
    need = plumbob_jazz_instance_size(&tj->jazz, &limits);
    if (need == SIZE_MAX) {
        tool_error("jazz run", "the step and action limits are out of range");
        return 2;
    }
    mem = (unsigned char *)malloc(need ? need : 1);
    actions = (plumbob_jazz_action *)malloc(sizeof *actions * limits.max_actions);
    if (!mem || !actions) {
        tool_error("jazz", "out of memory for %u steps and %u actions (%zu + %zu bytes)", (unsigned)limits.max_steps,
                   (unsigned)limits.max_actions, need, sizeof *actions * (size_t)limits.max_actions);
        free(mem);
        free(actions);
        return 1;
    }
    plumbob_arena_init(&arena, mem, need);
    r = plumbob_jazz_instance_init(&inst, &tj->jazz, &limits, tj->names.have ? &tj->names.kt : NULL, seed, &arena);
    if (r != PLUMBOB_OK) {
        tool_error("jazz", "cannot start the machine: %s", plumbob_result_str(r));
        free(mem);
        free(actions);
        return 1;
    }
    if ((rc = setup(&inst, argc, argv)) != 0) {
        free(mem);
        free(actions);
        return rc;
    }
    if (trace) { /* a step is 16 bytes: keep at most 2^20 of them per call */
        trace_cap = limits.max_steps < (1u << 20) ? limits.max_steps : (1u << 20);
        steps = (plumbob_jazz_step *)malloc(sizeof *steps * trace_cap);
        if (!steps) {
            tool_error("jazz", "out of memory for a trace of %zu steps", trace_cap);
            free(mem);
            free(actions);
            return 1;
        }
        plumbob_jazz_set_trace(&inst, steps, trace_cap);
    }
    for (i = 3; i < argc && rc == 0; i++) {
        int enter = strcmp(argv[i], "--enter") == 0, request = strcmp(argv[i], "--request") == 0,
            tick = strcmp(argv[i], "--tick") == 0;
        const char *opt = argv[i], *arg = NULL, *op = enter ? "enter" : request ? "request" : "tick";
        size_t n = 0, k;
        if (!enter && !request && !tick) continue;
        if (!tick) {
            if (i + 1 >= argc) continue;
            arg = argv[++i];
        }
        if (!enter && !entered) {
            tool_error("jazz", "%s%s%s comes before any --enter", opt, arg ? " " : "", arg ? arg : "");
            rc = 2;
            break;
        }
        if (!json && trace) fprintf(stdout, "%s%s%s\n", opt + 2, arg ? " " : "", arg ? arg : "");
        if (enter) r = plumbob_jazz_enter(&inst, hash_arg(arg, strlen(arg)), actions, limits.max_actions, &n);
        else if (request) r = plumbob_jazz_request(&inst, hash_arg(arg, strlen(arg)), actions, limits.max_actions, &n);
        else r = plumbob_jazz_tick(&inst, actions, limits.max_actions, &n);
        if (enter) entered = 1;
        for (k = 0; trace && k < inst.report.traced; k++) trace_step(tj, json, &steps[k]);
        if (trace && inst.report.steps > inst.report.traced && !json)
            fprintf(stdout, "    trace (%u more steps not shown)\n", (unsigned)(inst.report.steps - inst.report.traced));
        for (k = 0; k < n; k++) {
            if (json) json_action(stdout, tj, op, &actions[k]);
            else text_action(stdout, tj, k, &actions[k]);
        }
        if (r != PLUMBOB_OK) {
            run_error(tj, &inst, &limits, opt, arg, r);
            rc = 1;
        }
    }
    if (!entered && rc == 0) {
        tool_error("jazz", "run needs --enter STATE");
        rc = 2;
    }
    if (rc == 0 && !json && plumbob_jazz_finished(&inst)) {
        fputs("finished in exit state ", stdout);
        text_name(stdout, tj, tj->jazz.states[inst.state].name);
        fputc('\n', stdout);
    }
    free(steps);
    free(mem);
    free(actions);
    return rc;
}

int cmd_jazz(int argc, char **argv) {
    const char *file = NULL, *sub, *names = NULL, *out_path = NULL;
    int json = 0, i, rc = 0;
    tool_input in;
    tool_jazz tj;
    if (argc < 2 || strcmp(argv[1], "--help") == 0) return jazz_usage(argc < 2 ? stderr : stdout, argc < 2 ? 2 : 0);
    sub = argv[1];
    if (strcmp(sub, "compile") == 0) {
        for (i = 2; i < argc; i++)
            if (strcmp(argv[i], "--help") == 0) return jazz_usage(stdout, 0);
        return jazz_compile(argc, argv);
    }
    if (strcmp(sub, "dump") != 0 && strcmp(sub, "run") != 0 && strcmp(sub, "decompile") != 0) {
        tool_error("jazz", "unknown subcommand '%s'", sub);
        return jazz_usage(stderr, 2);
    }
    for (i = 2; i < argc; i++) {
        int takes_value = strcmp(argv[i], "--actor") == 0 || strcmp(argv[i], "--param") == 0 ||
                          strcmp(argv[i], "--enter") == 0 || strcmp(argv[i], "--request") == 0 ||
                          strcmp(argv[i], "--seed") == 0 || strcmp(argv[i], "--max-steps") == 0 ||
                          strcmp(argv[i], "--max-actions") == 0;
        if (strcmp(argv[i], "--json") == 0) json = 1;
        else if ((strcmp(argv[i], "--trace") == 0 || strcmp(argv[i], "--tick") == 0) && strcmp(sub, "run") == 0) {}
        else if (strcmp(argv[i], "--help") == 0) return jazz_usage(stdout, 0);
        else if (strcmp(argv[i], "--names") == 0 && i + 1 < argc) names = argv[++i];
        else if (strcmp(argv[i], "-o") == 0 && strcmp(sub, "decompile") == 0 && i + 1 < argc) out_path = argv[++i];
        else if (takes_value && strcmp(sub, "run") == 0 && i + 1 < argc) i++;
        else if (!file && argv[i][0] != '-' && i == 2) file = argv[i];
        else {
            return tool_bad_argument(argc, argv, i);
        }
    }
    if (!file) {
        tool_error("jazz", "which jazz resource? (FILE comes right after the subcommand; see plumbob jazz --help)");
        return 2;
    }
    if (!tool_load_kind(file, PLUMBOB_TYPE_JAZZ, NULL, &in)) return 1;
    if (!in.from_package && is_smooth_jazz_text(in.data, in.size)) {
        tool_error(in.name, "this is Smooth Jazz source (text); compile it with plumbob jazz compile %s -o OUT.jazz",
                   in.name);
        tool_free(&in);
        return 1;
    }
    if (!decode(&in, &tj)) {
        tool_free(&in);
        return 1;
    }
    if (!load_names(&in, names, &tj)) {
        tool_jazz_free(&tj);
        tool_free(&in);
        return 1;
    }
    if (strcmp(sub, "decompile") == 0) {
        rc = jazz_decompile(&in, &tj.jazz, &tj.names, out_path);
    } else if (strcmp(sub, "dump") == 0) {
        if (json) dump_json(stdout, &tj);
        else dump_text(stdout, &in, &tj);
    } else {
        rc = run_jazz(&tj, argc, argv, json);
    }
    tool_jazz_free(&tj);
    tool_free(&in);
    return rc;
}
