/* Tests of the Smooth Jazz compiler and decompiler (tools/smooth_jazz/), hosted.
 * Usage: smooth-jazz-tests [DIR_OF_SCRIPTS [CORPUS_DIR]]; prints
 * `N passed, N failed[, N skipped]`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "smooth_jazz/smooth_jazz.h"

#include "hosted_check.h"

static char *read_all(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    char *buf;
    long n;
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    buf = (char *)malloc((size_t)n + 1u);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    if (buf) buf[n] = '\0';
    *size = (size_t)n;
    return buf;
}

/* Compiles and writes; returns the resource bytes or NULL. */
static unsigned char *compile_bytes(const char *text, size_t len, sj_program *prog, size_t *size, sj_error *err) {
    size_t need, got;
    unsigned char *out;
    if (!sj_compile(text, len, prog, err)) return NULL;
    need = plumbob_jazz_write_size(&prog->build.jazz);
    if (need == SIZE_MAX) return NULL;
    out = (unsigned char *)malloc(need);
    if (!out || plumbob_jazz_write(&prog->build.jazz, out, need, &got) != PLUMBOB_OK) {
        free(out);
        return NULL;
    }
    *size = got;
    return out;
}

/* Decodes bytes (arena kept in *mem). */
static int decode(const unsigned char *bytes, size_t size, plumbob_jazz *j, void **mem) {
    size_t need;
    plumbob_arena a;
    *mem = NULL;
    if (plumbob_jazz_measure(bytes, size, &need) != PLUMBOB_OK) return 0;
    *mem = malloc(need ? need : 1);
    plumbob_arena_init(&a, *mem, need);
    return plumbob_jazz_decode(bytes, size, &a, j) == PLUMBOB_OK;
}

/* text -> bytes -> decoded -> text2 -> bytes2: bytes2 must equal bytes and
 * text2 must decompile from bytes2 to itself.  Returns the bytes (caller frees). */
static unsigned char *round_trip(const char *text, size_t len, const sj_names *extra, size_t *size, char **text_out) {
    sj_program prog, prog2;
    sj_error err;
    plumbob_jazz j, j2;
    void *mem = NULL, *mem2 = NULL;
    unsigned char *bytes, *bytes2 = NULL;
    size_t size2 = 0, len2 = 0, len3 = 0, i;
    char *text2 = NULL, *text3 = NULL;
    sj_names names;
    memset(&names, 0, sizeof names);
    bytes = compile_bytes(text, len, &prog, size, &err);
    if (!bytes) printf("  compile error %u:%u: %s\n", err.line, err.col, err.message);
    CHECK(bytes != NULL);
    if (!bytes) goto done;
    for (i = 0; i < prog.names.count; i++)
        sj_names_add(&names, prog.names.items[i].instance, prog.names.items[i].text, prog.names.items[i].len);
    for (i = 0; extra && i < extra->count; i++)
        sj_names_add(&names, extra->items[i].instance, extra->items[i].text, extra->items[i].len);
    sj_names_index(&names);
    CHECK(decode(bytes, *size, &j, &mem));
    CHECK(sj_decompile(&j, &names, &text2, &len2, &err));
    if (!text2) goto done;
    bytes2 = compile_bytes(text2, len2, &prog2, &size2, &err);
    CHECK(bytes2 && size2 == *size && memcmp(bytes, bytes2, size2) == 0);
    if (bytes2 && decode(bytes2, size2, &j2, &mem2)) {
        CHECK(sj_decompile(&j2, &names, &text3, &len3, &err));
        CHECK(text3 && len3 == len2 && memcmp(text2, text3, len2) == 0);
    } else {
        CHECK(!"recompiled bytes decode");
    }
    sj_program_free(&prog2);
done:
    sj_program_free(&prog);
    sj_names_free(&names);
    free(bytes2);
    free(text3);
    free(mem);
    free(mem2);
    if (text_out)
        *text_out = text2;
    else
        free(text2);
    return bytes;
}

static void test_every_feature(const char *dir) {
    char path[1024], *text, *out = NULL;
    size_t len, size;
    unsigned char *bytes;
    plumbob_jazz j;
    void *mem = NULL;
    snprintf(path, sizeof path, "%s/every-feature.jazz", dir);
    text = read_all(path, &len);
    CHECK(text != NULL);
    if (!text) return;
    bytes = round_trip(text, len, NULL, &size, &out);
    if (bytes && decode(bytes, size, &j, &mem)) {
        const plumbob_jazz_node *play = &j.nodes[0], *stop = &j.nodes[1];
        CHECK(j.chunk_count == 31 && j.state_count == 5 && j.actor_count == 3 && j.param_count == 3);
        CHECK(j.chunks[0].key.instance == 0x0123456789ABCDEFull && j.chunks[0].key.group == 7);
        CHECK(j.machine.name == plumbob_fnv32_str("everyFeature") && j.machine.properties == 3 &&
              j.machine.priority == 20000 && j.machine.awareness == 5 && j.machine.unknown[3] == 44);
        CHECK(j.actors[1].unknown == plumbob_fnv32_str("default\tactor"));
        {
            char hex[16];
            snprintf(hex, sizeof hex, "0x%08x", (unsigned)plumbob_fnv32_str("name"));
            CHECK(j.actors[2].name == plumbob_fnv32_str(hex)); /* *"name": the hash of the formatted hash */
        }
        CHECK(j.machine.animation_count == 2 && j.machine.animations[1].clip == 12345 &&
              j.machine.animations[1].clip_actor == 0x10 && j.machine.animations[1].jazz_actor == j.actors[2].name);
        CHECK(j.states[0].transition_count == 3 && j.states[0].transitions[2] == 2 && j.states[0].flags == 0x103);
        CHECK(j.states[1].awareness == 3 && j.graphs[1].unknown == 9 && j.states[1].flags == 0x9);
        CHECK(play->kind == PLUMBOB_JAZZ_PLAY && play->u.play.anim.flags == 0x20063 &&
              play->u.play.anim.priority == 45000 && play->u.play.anim.timing_priority == 0xFFFFFFFFu);
        CHECK(play->u.play.anim.blend_in == 0.25f && play->u.play.anim.blend_out == 0.15f && play->u.play.anim.speed == 2.0f);
        CHECK(play->u.play.slot_count == 2 && play->u.play.slots[1].chain == 3 && play->u.play.slots[1].slot_id == 4 &&
              play->u.play.slots[1].slot == plumbob_fnv32_str("slot_b"));
        CHECK(play->u.play.suffix_count == 1 && play->u.play.suffixes[0].suffix == plumbob_fnv32_str("side"));
        CHECK(play->u.play.track_mask.type == 0x033260E3u && play->u.play.track_mask.instance == plumbob_fnv64_str("upperBody"));
        CHECK(play->u.play.additive_name.length == 11 && play->u.play.additive_name.units[20] == 0xAC &&
              play->u.play.additive_name.units[21] == 0x20);
        CHECK(play->u.play.anim.unknown1 == 0.5f && play->u.play.anim.unknown[0] == 17 && play->u.play.anim.unknown[5] == 7 &&
              play->u.play.slot_unknown[0] == 8 && play->u.play.slot_unknown[2] == 10);
        CHECK(stop->kind == PLUMBOB_JAZZ_STOP && stop->u.stop.flags == 0 && stop->u.stop.priority == 0xFFFFFFFEu &&
              stop->u.stop.unknown[0] == 0 && play->children[0] == 1);
        /* the two identical fidget plays became one chunk */
        CHECK(j.nodes[2].kind == PLUMBOB_JAZZ_RANDOM && j.nodes[2].branch_count == 3 &&
              j.nodes[2].branches[0].children[0] == j.nodes[2].branches[1].children[0] && j.nodes[2].branches[1].weight == 2.5f &&
              j.nodes[2].branches[2].child_count == 0 && j.nodes[2].u.random.flags == 1);
        CHECK(j.node_count == 14 && j.graphs[1].node_count == 4);
        CHECK(j.nodes[4].kind == PLUMBOB_JAZZ_SELECT_DEST && j.nodes[4].branches[0].value == 3 &&
              j.nodes[5].u.actor_op.op == 1 && j.nodes[5].u.actor_op.operand == 1 && j.nodes[5].u.actor_op.unknown[2] == 2 &&
              j.nodes[6].kind == PLUMBOB_JAZZ_NEXT_STATE && j.nodes[6].u.next.state == 3 && j.nodes[7].u.actor_op.operand == 5);
        CHECK(j.nodes[9].kind == PLUMBOB_JAZZ_PLAY && j.nodes[9].u.play.clip.group == 0x48000000u &&
              j.nodes[9].u.play.clip.instance == 0x99 && j.nodes[9].u.play.name.length == 18);
        CHECK(j.nodes[10].kind == PLUMBOB_JAZZ_PROP && j.nodes[10].u.prop.object.instance == 0x1181 &&
              j.nodes[10].u.prop.object.type == 0x139F7591u && j.nodes[10].u.prop.param == 2 && j.nodes[10].u.prop.unknown[3] == 4);
        CHECK(j.nodes[12].u.prop.actor == PLUMBOB_JAZZ_NONE && j.nodes[12].u.prop.object.type == 1 &&
              j.nodes[12].u.prop.object.group == 2 && j.nodes[13].kind == PLUMBOB_JAZZ_STOP);
    } else {
        CHECK(!"every-feature compiles and decodes");
    }
    CHECK(out && strstr(out, "Flags AtEnd, LoopAsNeeded, TimingIgnored, 0x20000\n") != NULL);
    CHECK(out && strstr(out, "Actor *\"name\"\n") != NULL);
    CHECK(out && strstr(out, "Additive Clip \"a_{side}_\xC3\xA9\xE2\x82\xAC\" With Substitution\n") != NULL);
    CHECK(out && strstr(out, "Unknown Value 1 = 0x7FC00001\n") != NULL);
    CHECK(out && strstr(out, "State 0xDEADBEEF\n}\n") != NULL);
    free(mem);
    free(bytes);
    free(out);
    free(text);
}

/* The wiki's sample compiles; its decompiled text differs only in spelling. */
static void test_wiki_sample(const char *dir) {
    char path[1024], *text, *out = NULL;
    size_t len, size;
    unsigned char *bytes;
    snprintf(path, sizeof path, "%s/alarmclock.jazz", dir);
    text = read_all(path, &len);
    CHECK(text != NULL);
    if (!text) return;
    bytes = round_trip(text, len, NULL, &size, &out);
    CHECK(size == 796);
    CHECK(out && strstr(out, "Assign Actor \"o_alarmclockCheap_Ring.ma\".\"alarmclockcheap\" as 0x00000000\n") != NULL);
    CHECK(out && strstr(out, "        Play \"o_alarmClockCheap\"\n        {\n            Flags AtEnd, BaseClipIsObjectOnly\n") != NULL);
    free(bytes);
    free(out);
    free(text);
}

typedef struct bad_script {
    const char *text;
    unsigned line, col;
    const char *message;
} bad_script;

#define HEAD "State Machine \"m\"\n{\n"
static const bad_script bad_scripts[] = {
    {"", 1, 1, "expected 'State', found end of file"},
    {"State \"m\" { }", 1, 7, "expected 'Machine', found string \"m\""},
    {HEAD "    Frobnicate\n}\n", 3, 5, "expected a state machine field (Actor, "},
    {"State Machine \"m\n{\n}\n", 1, 15, "unterminated string"},
    {"/* a comment\nState Machine \"m\" { }\n", 1, 1, "unterminated comment"},
    {HEAD "    State \"a\"\n    {\n", 5, 1, "expected a state field (Properties, Transitions to, Unknown Value), a node or '}', found end of file"},
    {HEAD "    State \"a\" { Transitions to \"b\" }\n}\n", 3, 32, "undefined state \"b\" (declare it with State)"},
    {HEAD "    Priority 12abc\n}\n", 3, 14, "bad number '12a'"},
    {HEAD "    State \"a\"\n    State \"A\"\n}\n", 4, 11, "duplicate state \"A\" (first declared at line 3)"},
    {HEAD "    Actor \"x\"\n    Actor 0x050C5D67\n}\n", 4, 11, "duplicate actor 0x050C5D67 (first declared at line 3)"},
    {HEAD "    Parameter \"p\"\n    Parameter \"p\" = \"v\"\n}\n", 4, 15, "duplicate parameter \"p\""},
    {HEAD "    State \"a\" { Play \"c\" For \"nobody\" }\n}\n", 3, 30, "undefined actor \"nobody\" (declare it with Actor)"},
    {HEAD "    State \"a\" { Select on Parameter \"p\" { } }\n}\n", 3, 37, "undefined parameter \"p\""},
    {HEAD "    State \"a\" { Next State \"b\" }\n}\n", 3, 28, "undefined state \"b\""},
    {HEAD "    State \"a\" { Select on Destination { Destination \"z\" { } } }\n}\n", 3, 53, "undefined state \"z\""},
    {HEAD "    State \"a\" { Properties Public, Frob }\n}\n", 3, 36, "unknown state property 'Frob'"},
    {HEAD "    Priority Medium\n}\n", 3, 14, "unknown priority 'Medium'"},
    {HEAD "    Actor \"a\\q\"\n}\n", 3, 13, "unknown escape '\\q'"},
    {HEAD "    Actor \"\\xZ1\"\n}\n", 3, 12, "bad escape: \\x needs 2 hex digits"},
    {HEAD "    Actor 0x\n}\n", 3, 11, "bad number: '0x' must be followed by hex digits"},
    {HEAD "    Actor 0x100000000\n}\n", 3, 11, "actor name 0x100000000 does not fit in 32 bits"},
    {HEAD "    Actor 99999999999999999999999\n}\n", 3, 11, "is too large"},
    {HEAD "    Actor @\n}\n", 3, 11, "unexpected character '@'"},
    {HEAD "    Actor \xC3\xA9\n}\n", 3, 11, "unexpected byte 0xC3 outside a string"},
    {HEAD "    Unknown Value 5 = 1\n}\n", 3, 19, "a state machine has Unknown Values 0 to 4, not 5"},
    {HEAD "    Unknown Value 1 1\n}\n", 3, 21, "expected '=', found number 1"},
    {HEAD "    State \"a\" { Select Sideways { } }\n}\n", 3, 24, "expected 'Random', 'on Parameter' or 'on Destination' after 'Select'"},
    {HEAD "    State \"a\" { Play \"c_{p}\" With Nothing }\n}\n", 3, 35, "expected 'Substitution', found 'Nothing'"},
    {HEAD "    State \"a\" { Transitions \"b\" }\n    State \"b\"\n}\n", 3, 29, "expected 'to', found string \"b\""},
    {HEAD "    State \"a\" { Play *\"c\" }\n}\n", 3, 22, "'*' applies to 32-bit names only"},
    {HEAD "}\nextra\n", 4, 1, "expected end of file after the state machine's '}', found 'extra'"},
    {HEAD "    State \"a\" { Actor Operation SetMirror SetMirror On \"x\" }\n}\n", 3, 43, "one actor operation"},
    {HEAD "    State \"a\" { Create Prop 1 { Unknown Value 0 = 1 } }\n}\n", 3, 51, "Unknown Value 0 of a prop is its parameter"},
    {HEAD "    State \"a\" { Stop { Blend Sideways 1 } }\n}\n", 3, 30, "expected 'In' or 'Out'"},
    {HEAD "    Unknown Value 1.5 = 0\n}\n", 3, 19, "expected Unknown Value index (a whole number), found number 1.5"},
    {HEAD "    State \"a\" { Play \"\\xFF\" With Substitution }\n}\n", 3, 22, "string is not valid UTF-8"},
    {HEAD "    State \"a\" { Select Random { Weight 1 Play \"c\" } }\n}\n", 3, 42, "expected '{', found 'Play'"},
    {HEAD "    State \"a\" { Select Random { Value 1 { } } }\n}\n", 3, 33, "expected 'Weight', 'Flags' or '}', found 'Value'"},
    {HEAD "    State \"a\" { Play \"c\" { Priority1 } }\n}\n", 3, 38, "expected priority (a whole number), found '}'"},
    {HEAD "    State \"a\" { Play \"c\" { Flags } }\n}\n", 3, 34, "expected a animation flag name or number, found '}'"},
    {HEAD "    State \"a\" { Play \"c\" { Blend In \"x\" } }\n}\n", 3, 37, "expected blend-in time (a number), found string \"x\""},
    {HEAD "    State \"a\" { Play \"c\" { Actor \"x\" Socket \"s\" } }\n}\n", 3, 38, "expected 'Slot' or 'Suffix', found 'Socket'"},
    {HEAD "    State \"a\" { Play \"c\" { Unknown Value 11 = 0 } }\n}\n", 3, 42, "Play has Unknown Values 0 to 10, not 11"},
    {HEAD "    State \"a\" { Play -3 }\n}\n", 3, 22, "expected clip (a \"name\" or a number), found number -3"},
    {HEAD "    State \"a\" { Play 1.5e }\n}\n", 3, 22, "bad number: exponent needs digits"},
    {HEAD "    State \"a\"\n    {\n        Properties Public\n        Unknown Value 1 = 2\n    }\n}\n", 6, 23, "a state has Unknown Values 0 to 0, not 1"},
};

static void test_bad_scripts(void) {
    size_t i;
    for (i = 0; i < sizeof bad_scripts / sizeof bad_scripts[0]; i++) {
        const bad_script *b = &bad_scripts[i];
        sj_program prog;
        sj_error err;
        int ok = sj_compile(b->text, strlen(b->text), &prog, &err);
        sj_program_free(&prog);
        if (ok || err.line != b->line || err.col != b->col || !strstr(err.message, b->message)) {
            failed++;
            printf("FAIL bad script %u: got %s %u:%u \"%s\", wanted %u:%u \"%s\"\n", (unsigned)i, ok ? "success" : "error",
                   err.line, err.col, err.message, b->line, b->col, b->message);
        } else {
            passed++;
        }
    }
    CHECK(i >= 30);
}

/* 101 nested blocks are refused at the 101st. */
static void test_nesting_limit(void) {
    size_t cap = 64u * 1024u, len, k;
    char *s = (char *)malloc(cap);
    sj_program prog;
    sj_error err;
    len = (size_t)snprintf(s, cap, "State Machine \"m\" { State \"a\" {\n");
    for (k = 0; k < 101; k++) len += (size_t)snprintf(s + len, cap - len, "Play %u {\n", (unsigned)k);
    for (k = 0; k < 101; k++) len += (size_t)snprintf(s + len, cap - len, "}\n");
    len += (size_t)snprintf(s + len, cap - len, "} }\n");
    CHECK(!sj_compile(s, len, &prog, &err) && err.line == 102 && err.col == 1 &&
          strstr(err.message, "nested more than 100 deep") != NULL);
    sj_program_free(&prog);
    free(s);
}

/* What the compiler accepts the decompiler writes back: 100 nested
 * selects (each a node inside a branch inside a node) round-trip. */
static void test_deepest_nesting_round_trips(void) {
    size_t cap = 64u * 1024u, len, k, size;
    char *s = (char *)malloc(cap);
    unsigned char *bytes;
    len = (size_t)snprintf(s, cap, "State Machine \"m\" { Parameter \"p\" State \"a\" {\n");
    for (k = 0; k < 100; k++) len += (size_t)snprintf(s + len, cap - len, "Select on Parameter \"p\" { Value %u {\n", (unsigned)k);
    for (k = 0; k < 100; k++) len += (size_t)snprintf(s + len, cap - len, "} }\n");
    len += (size_t)snprintf(s + len, cap - len, "} }\n");
    bytes = round_trip(s, len, NULL, &size, NULL);
    CHECK(bytes != NULL);
    free(bytes);
    free(s);
}

/* Empty names are names too: the FNV basis, and the text "" in the KEY table. */
static void test_empty_strings(void) {
    static const char text[] = "State Machine \"\" { Actor \"\" State \"\" { Play \"\" With Substitution } }";
    sj_program prog;
    sj_error err;
    CHECK(sj_compile(text, sizeof text - 1u, &prog, &err));
    CHECK(prog.build.jazz.machine.name == plumbob_fnv32("", 0) && prog.build.jazz.actors[0].name == plumbob_fnv32("", 0) &&
          prog.build.jazz.nodes[0].u.play.name.length == 0 && prog.instance == plumbob_fnv64("", 0));
    sj_program_free(&prog);
}

/* Numbers written from their point, as the page writes weights (".2 and
 * 2"), while a '.' between names (Assign Actor 12.0x10) stays a '.'. */
static void test_point_fractions(void) {
    static const char text[] = "State Machine \"m\" { State \"a\" { Select Random {\n"
                               "Weight .2 { } Weight 2 { } Weight -.5e1 { } } } }";
    sj_program prog;
    sj_error err;
    CHECK(sj_compile(text, sizeof text - 1u, &prog, &err));
    CHECK(prog.build.jazz.node_count == 1 && prog.build.jazz.nodes[0].branch_count == 3 &&
          prog.build.jazz.nodes[0].branches[0].weight == 0.2f && prog.build.jazz.nodes[0].branches[1].weight == 2.0f &&
          prog.build.jazz.nodes[0].branches[2].weight == -5.0f);
    sj_program_free(&prog);
    {
        static const char bad[] = "State Machine \"m\" { State \"a\" { Select Random { Weight 2.x { } } } }";
        static const char hex[] = "State Machine \"m\" { State \"a\" { Select Random { Weight .0x10 { } } } }";
        CHECK(!sj_compile(bad, sizeof bad - 1u, &prog, &err));
        sj_program_free(&prog);
        CHECK(!sj_compile(hex, sizeof hex - 1u, &prog, &err)); /* a '.' then a hex number: an error, not a loop */
        sj_program_free(&prog);
    }
}

/* Equal subtrees share one chunk, but only when every field is equal: three
 * Select Randoms over the same Play, differing in their flags or in a
 * branch's weight, stay three nodes; their identical Plays become one
 * (4 nodes, counted by hand). */
static void test_merge_fields(void) {
    static const char text[] = "State Machine \"m\" { State \"s\" {\n"
                               "Select Random { Flags AvoidRepeats Weight 1 { Play \"a_x\" } }\n"
                               "Select Random { Weight 1 { Play \"a_x\" } }\n"
                               "Select Random { Weight 2 { Play \"a_x\" } } } }";
    sj_program prog;
    sj_error err;
    CHECK(sj_compile(text, sizeof text - 1u, &prog, &err));
    CHECK(prog.build.jazz.node_count == 4);
    if (prog.build.jazz.node_count == 4) {
        const plumbob_jazz_node *n = prog.build.jazz.nodes;
        CHECK(n[0].kind == PLUMBOB_JAZZ_RANDOM && n[0].u.random.flags == 1 && n[0].branches[0].weight == 1.0f);
        CHECK(n[2].kind == PLUMBOB_JAZZ_RANDOM && n[2].u.random.flags == 0 && n[2].branches[0].weight == 1.0f);
        CHECK(n[3].kind == PLUMBOB_JAZZ_RANDOM && n[3].branches[0].weight == 2.0f);
        CHECK(n[1].kind == PLUMBOB_JAZZ_PLAY && n[0].branches[0].children[0] == 1 &&
              n[2].branches[0].children[0] == 1 && n[3].branches[0].children[0] == 1);
    }
    sj_program_free(&prog);
}

/* The error printer: place, message, source line, caret under the column. */
static void test_error_print(void) {
    const char *text = HEAD "\tPriority Medium\n}\n";
    sj_program prog;
    sj_error err;
    char buf[512];
    FILE *f = tmpfile();
    size_t n;
    CHECK(f != NULL);
    if (!f) return;
    CHECK(!sj_compile(text, strlen(text), &prog, &err));
    sj_program_free(&prog);
    sj_error_print(f, "m.jazz", text, strlen(text), &err);
    rewind(f);
    n = fread(buf, 1, sizeof buf - 1u, f);
    buf[n] = '\0';
    fclose(f);
    CHECK(strcmp(buf, "m.jazz:3:11: error: unknown priority 'Medium' (Low, Normal, High, Ultra, LookAt, ... or a number)\n"
                      "  \tPriority Medium\n"
                      "  \t         ^\n") == 0);
}

/* Every prefix of a script compiles or fails cleanly at a place inside it;
 * every single-bit flip too, and what still compiles round-trips. */
static void test_truncation_and_bitflips(const char *dir) {
    char path[1024], *text, *copy;
    size_t len, i, end, bad_place = 0, flips_ok = 0, flips_bad = 0, proper_prefix_ok = 0;
    snprintf(path, sizeof path, "%s/every-feature.jazz", dir);
    text = read_all(path, &len);
    CHECK(text != NULL);
    if (!text) return;
    end = len;
    while (end > 0 && (text[end - 1] == '\n' || text[end - 1] == ' ')) end--;
    copy = (char *)malloc(len + 1u);
    for (i = 0; i < len; i++) {
        sj_program prog;
        sj_error err;
        unsigned lines = 1;
        size_t k;
        int ok;
        memcpy(copy, text, i);
        ok = sj_compile(copy, i, &prog, &err);
        sj_program_free(&prog);
        for (k = 0; k < i; k++) lines += copy[k] == '\n';
        if (!ok && (err.line == 0 || err.line > lines)) bad_place++;
        if (ok && i < end) proper_prefix_ok++;
    }
    CHECK(bad_place == 0);
    CHECK(proper_prefix_ok == 0); /* the machine's closing '}' is the last thing */
    for (i = 0; i < len; i++) {
        int bit;
        for (bit = 0; bit < 8; bit++) {
            sj_program prog;
            sj_error err;
            size_t size;
            unsigned char *bytes;
            memcpy(copy, text, len);
            copy[i] = (char)(copy[i] ^ (1 << bit));
            bytes = compile_bytes(copy, len, &prog, &size, &err);
            if (bytes) {
                plumbob_jazz j;
                void *mem;
                char *out = NULL;
                size_t out_len;
                sj_program prog2;
                unsigned char *bytes2 = NULL;
                size_t size2 = 0;
                if (decode(bytes, size, &j, &mem) && sj_decompile(&j, NULL, &out, &out_len, &err))
                    bytes2 = compile_bytes(out, out_len, &prog2, &size2, &err), sj_program_free(&prog2);
                if (bytes2 && size2 == size && memcmp(bytes, bytes2, size) == 0) flips_ok++;
                else flips_bad++;
                free(bytes2);
                free(out);
                free(mem);
                free(bytes);
            }
            sj_program_free(&prog);
        }
    }
    CHECK(flips_bad == 0);
    CHECK(flips_ok > 1000); /* flips inside names, numbers and comments still compile */
    free(copy);
    free(text);
}

/* The real machines: decompiled with their KEY names, compiled back to the
 * same bytes; compiled, decompiled to the same text. */
static void test_corpus(const char *corpus) {
    static const struct {
        const char *package;
        uint64_t instance;
        size_t size;
        const char *line;
    } files[] = {{"sims3/EWBreastfeed.package", 0xF2524F99CE17CA3Eull, 3936, "Priority1 CarryRight\n"},
                 {"sims3/WarriorCats.package", 0x91B95750336A8701ull, 7132,
                  "Play 0x6B20C4F3:0x48000000:\"a_harvestableUpdate_eat_loop1_x\" For \"x\"\n"}};
    size_t f;
    for (f = 0; f < 2; f++) {
        char path[1024];
        size_t pkg_size, size, len, got_size;
        unsigned char *pkg_bytes, *res, *key = NULL, *again;
        const unsigned char *data, *key_data;
        plumbob_package pkg;
        plumbob_package_entry e, ke;
        plumbob_key_table kt;
        sj_names names;
        plumbob_jazz j;
        void *mem;
        char *text = NULL;
        sj_error err;
        snprintf(path, sizeof path, "%s/%s", corpus, files[f].package);
        pkg_bytes = (unsigned char *)read_all(path, &pkg_size);
        if (!pkg_bytes) {
            printf("skip corpus: %s not found\n", path);
            skipped++;
            continue;
        }
        memset(&names, 0, sizeof names);
        CHECK(plumbob_package_open(&pkg, pkg_bytes, pkg_size) == PLUMBOB_OK);
        CHECK(plumbob_package_find(&pkg, PLUMBOB_TYPE_JAZZ, 0, files[f].instance, &e, NULL) == PLUMBOB_OK);
        CHECK(plumbob_package_find(&pkg, PLUMBOB_TYPE_KEY, 0, 0, &ke, NULL) == PLUMBOB_OK);
        res = (unsigned char *)malloc(e.mem_size);
        key = (unsigned char *)malloc(ke.mem_size);
        CHECK(plumbob_package_read(&pkg, &e, res, e.mem_size, &data, &size) == PLUMBOB_OK && size == files[f].size);
        CHECK(plumbob_package_read(&pkg, &ke, key, ke.mem_size, &key_data, &len) == PLUMBOB_OK);
        CHECK(plumbob_key_table_open(&kt, key_data, len) == PLUMBOB_OK);
        sj_names_add_key_table(&names, &kt);
        sj_names_index(&names);
        CHECK(decode(data, size, &j, &mem));
        CHECK(sj_decompile(&j, &names, &text, &len, &err));
        CHECK(text && strstr(text, files[f].line) != NULL);
        again = text ? round_trip(text, len, &names, &got_size, NULL) : NULL;
        CHECK(again && got_size == size && memcmp(again, data, size) == 0);
        free(again);
        free(text);
        free(mem);
        free(res);
        free(key);
        free(pkg_bytes);
        sj_names_free(&names);
    }
}

/* Short-form plays that say the group: group:name for a stored key (the
 * same bytes as the three-part form with the clip type), group:"text" With
 * Substitution for a name play; both round-trip. */
static void test_play_groups(void) {
    static const char two[] = "State Machine \"m\" { State \"s\" { Play 0x70000000:\"a_idle_fancy\" "
                              "Play 0x88000000:\"{age}_jump\" With Substitution Play 0x78000000:0x1234 } }";
    static const char three[] = "State Machine \"m\" { State \"s\" { Play 0x6B20C4F3:0x70000000:\"a_idle_fancy\" "
                                "Play \"{age}_jump\" With Substitution { Clip 0x6B20C4F3:0x88000000:0x0 } "
                                "Play 0x6B20C4F3:0x78000000:0x1234 } }";
    sj_program prog;
    sj_error err;
    plumbob_clip_key k;
    size_t n2 = 0, n3 = 0;
    char *text = NULL;
    unsigned char *b2, *b3;
    CHECK(sj_compile(two, sizeof two - 1u, &prog, &err));
    plumbob_clip_key_from_name("a_idle_fancy", 12, &k);
    CHECK(prog.build.jazz.node_count == 3);
    if (prog.build.jazz.node_count == 3) {
        const plumbob_jazz_node *n = prog.build.jazz.nodes;
        CHECK(n[0].u.play.clip.group == 0x70000000u && n[0].u.play.clip.type == PLUMBOB_TYPE_CLIP &&
              n[0].u.play.clip.instance == k.instance);
        CHECK(n[1].u.play.clip.group == 0x88000000u && n[1].u.play.clip.instance == 0 && n[1].u.play.name.length == 10);
        CHECK(n[2].u.play.clip.group == 0x78000000u && n[2].u.play.clip.instance == 0x1234u);
    }
    sj_program_free(&prog);
    b2 = round_trip(two, sizeof two - 1u, NULL, &n2, &text);
    b3 = round_trip(three, sizeof three - 1u, NULL, &n3, NULL);
    CHECK(b2 && b3 && n2 == n3 && memcmp(b2, b3, n2) == 0);
    /* the decompiler writes the substitution play's group in the short form */
    CHECK(text && strstr(text, "Play 0x88000000:\"{age}_jump\" With Substitution\n") != NULL);
    CHECK(text && strstr(text, "Clip ") == NULL);
    /* "N:" followed by a string that is not With Substitution is a stored key's group */
    {
        static const char bad[] = "State Machine \"m\" { State \"s\" { Play 0x7:: } }";
        CHECK(!sj_compile(bad, sizeof bad - 1u, &prog, &err));
        CHECK(strstr(err.message, "clip") != NULL);
        sj_program_free(&prog);
    }
    free(text);
    free(b2);
    free(b3);
}

/* Two Plays become one chunk only when every field is the same: a Play
 * with every field set, twice in one state, is one node; the same Play
 * beside a copy that differs in any one field stays two.  Each variant
 * changes exactly one field of the base (head: clip key, group, type, name,
 * actor; body: each line in turn). */
static void test_play_merge_fields(void) {
    static const char *const base_body[] = {
        "Flags AtEnd", "Priority1 5", "Priority2 6", "Blend In 0.25", "Blend Out 0.5", "Speed 1.5",
        "Track Mask \"upper\"", "Actor \"x\" Slot \"sa\", 1, 2", "Actor \"x\" Suffix \"side\"",
        "Additive Clip \"a_add_x\"", "Unknown Value 0 = 0.5", "Unknown Value 1 = 0.75", "Unknown Value 2 = 2",
        "Unknown Value 3 = 3", "Unknown Value 4 = 4", "Unknown Value 5 = 5", "Unknown Value 6 = 6",
        "Unknown Value 7 = 7", "Unknown Value 8 = 8", "Unknown Value 9 = 9", "Unknown Value 10 = 10"};
    static const struct { int line; const char *text; } body_variants[] = {
        {0, "Flags LoopAsNeeded"}, {1, "Priority1 7"}, {2, "Priority2 8"}, {3, "Blend In 0.3"},
        {4, "Blend Out 0.6"}, {5, "Speed 2"}, {6, "Track Mask \"lower\""},
        {6, "Track Mask 0x033260E3:0x1:\"upper\""}, {7, "Actor \"x\" Slot \"sb\", 1, 2"},
        {7, "Actor \"x\" Slot \"sa\", 3, 2"}, {7, "Actor \"x\" Slot \"sa\", 1, 4"}, {7, "Actor \"y\" Slot \"sa\", 1, 2"},
        {8, "Actor \"y\" Suffix \"side\""}, {8, "Actor \"x\" Suffix \"other\""}, {9, "Additive Clip \"a_add2_x\""},
        {9, "Additive Clip 0x6B20C4F3:0x1:\"a_add_x\""}, {9, "Additive Clip \"a_{side}_add\" With Substitution"},
        {10, "Unknown Value 0 = 0.625"}, {11, "Unknown Value 1 = 0.875"}, {12, "Unknown Value 2 = 12"},
        {13, "Unknown Value 3 = 13"}, {14, "Unknown Value 4 = 14"}, {15, "Unknown Value 5 = 15"},
        {16, "Unknown Value 6 = 16"}, {17, "Unknown Value 7 = 17"}, {18, "Unknown Value 8 = 18"},
        {19, "Unknown Value 9 = 19"}, {20, "Unknown Value 10 = 20"}};
    static const char *const base_head = "\"a_base_x\" For \"x\"";
    static const char *const head_variants[] = {"\"a_other_x\" For \"x\"", "0x70000000:\"a_base_x\" For \"x\"",
                                                "0x1:0x0:\"a_base_x\" For \"x\"", "\"a_base_x\" For \"y\"",
                                                "\"a_{side}_x\" With Substitution For \"x\""};
    /* two name plays: the text decides */
    static const char *const name_head = "\"a_{side}_x\" With Substitution For \"x\"";
    static const char *const name_variants[] = {"\"a_{side}_y\" With Substitution For \"x\"",
                                                "\"a_{side}_xx\" With Substitution For \"x\""};
    size_t nb = sizeof base_body / sizeof base_body[0], nv = sizeof body_variants / sizeof body_variants[0];
    size_t v, total = 1 + nv + sizeof head_variants / sizeof head_variants[0] + 2;
    for (v = 0; v < total; v++) {
        char text[4096];
        const char *head_a = base_head, *head_b = base_head;
        int changed_line = -1, want_nodes = 2;
        const char *changed_text = NULL;
        size_t len, i;
        sj_program prog;
        sj_error err;
        if (v == 0) {
            want_nodes = 1; /* the same Play twice: one chunk */
        } else if (v <= nv) {
            changed_line = body_variants[v - 1].line;
            changed_text = body_variants[v - 1].text;
        } else if (v <= nv + sizeof head_variants / sizeof head_variants[0]) {
            head_b = head_variants[v - 1 - nv];
        } else {
            head_a = name_head;
            head_b = name_variants[v - 1 - nv - sizeof head_variants / sizeof head_variants[0]];
        }
        len = (size_t)snprintf(text, sizeof text,
                               "State Machine \"m\" { Actor \"x\" Actor \"y\" Parameter \"side\" Parameter \"other\" "
                               "State \"s\" { Properties Entry\n");
        for (i = 0; i < 2; i++) {
            size_t line;
            len += (size_t)snprintf(text + len, sizeof text - len, "Play %s {\n", i ? head_b : head_a);
            for (line = 0; line < nb; line++)
                len += (size_t)snprintf(text + len, sizeof text - len, "  %s\n",
                                        i == 1 && (int)line == changed_line ? changed_text : base_body[line]);
            len += (size_t)snprintf(text + len, sizeof text - len, "}\n");
        }
        len += (size_t)snprintf(text + len, sizeof text - len, "} }\n");
        CHECK(len < sizeof text);
        if (!sj_compile(text, len, &prog, &err)) {
            printf("  variant %u: compile error %u:%u: %s\n", (unsigned)v, err.line, err.col, err.message);
            CHECK(!"the variant compiles");
            sj_program_free(&prog);
            continue;
        }
        if (prog.build.jazz.node_count != (uint32_t)want_nodes)
            printf("  variant %u (%s): %u nodes, wanted %d\n", (unsigned)v, changed_text ? changed_text : head_b,
                   (unsigned)prog.build.jazz.node_count, want_nodes);
        CHECK(prog.build.jazz.node_count == (uint32_t)want_nodes);
        sj_program_free(&prog);
    }
}

int main(int argc, char **argv) {
    const char *dir = argc > 1 ? argv[1] : "tests/smooth-jazz";
    const char *corpus = argc > 2 ? argv[2] : "../shared/corpus";
    test_every_feature(dir);
    test_wiki_sample(dir);
    test_bad_scripts();
    test_nesting_limit();
    test_deepest_nesting_round_trips();
    test_empty_strings();
    test_point_fractions();
    test_play_groups();
    test_play_merge_fields();
    test_merge_fields();
    test_error_print();
    test_truncation_and_bitflips(dir);
    test_corpus(corpus);
    return hosted_summary();
}
