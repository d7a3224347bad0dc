/* Rig lists: a text file of bone names with their parents. */
#include <stdlib.h>
#include <string.h>
#include "plumbob.h"
#include "rig.h"
#include "files.h"

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\r'; }

/* The next word of line [*p, end) into out; returns its length (0: none). */
static size_t word(const char **p, const char *end, char *out, size_t cap, int *too_long) {
    const char *s = *p, *e;
    while (s < end && is_space(*s)) s++;
    e = s;
    while (e < end && !is_space(*e)) e++;
    *p = e;
    if ((size_t)(e - s) >= cap) {
        *too_long = 1;
        return 0;
    }
    memcpy(out, s, (size_t)(e - s));
    out[e - s] = '\0';
    return (size_t)(e - s);
}

int tool_rig_parse(const char *text, size_t len, const char *where, tool_rig *rig) {
    const char *p = text, *end = text + len;
    unsigned line = 0;
    memset(rig, 0, sizeof *rig);
    rig->names = calloc(RIG_MAX_BONES, sizeof *rig->names);
    rig->hash = (uint32_t *)calloc(RIG_MAX_BONES, sizeof *rig->hash);
    rig->parent = (int32_t *)calloc(RIG_MAX_BONES, sizeof *rig->parent);
    if (!rig->names || !rig->hash || !rig->parent) {
        tool_error(where, "out of memory");
        tool_rig_free(rig);
        return 0;
    }
    while (p < end) {
        const char *eol = memchr(p, '\n', (size_t)(end - p)), *hash_mark;
        char name[RIG_MAX_NAME], parent[RIG_MAX_NAME], extra[8];
        int too_long = 0;
        size_t nl;
        if (!eol) eol = end;
        line++;
        hash_mark = memchr(p, '#', (size_t)(eol - p));
        nl = word(&p, hash_mark ? hash_mark : eol, name, sizeof name, &too_long);
        if (nl) {
            uint32_t i = rig->count;
            if (i == RIG_MAX_BONES) {
                tool_error(where, "line %u: more than %u bones", line, (unsigned)RIG_MAX_BONES);
                tool_rig_free(rig);
                return 0;
            }
            memcpy(rig->names[i], name, nl + 1);
            rig->hash[i] = plumbob_fnv32_str(name);
            rig->parent[i] = -1;
            if (word(&p, hash_mark ? hash_mark : eol, parent, sizeof parent, &too_long)) {
                int32_t pi = tool_rig_find(rig, plumbob_fnv32_str(parent));
                if (pi < 0) {
                    tool_error(where, "line %u: parent '%s' of '%s' is not listed above it", line, parent, name);
                    tool_rig_free(rig);
                    return 0;
                }
                rig->parent[i] = pi;
            }
            if (word(&p, hash_mark ? hash_mark : eol, extra, sizeof extra, &too_long) || too_long) {
                tool_error(where, "line %u: %s", line,
                           too_long ? "a name longer than 127 bytes" : "expected NAME [PARENT]");
                tool_rig_free(rig);
                return 0;
            }
            if (tool_rig_find(rig, rig->hash[i]) >= 0) {
                tool_error(where, "line %u: bone '%s' is listed twice", line, name);
                tool_rig_free(rig);
                return 0;
            }
            rig->count++;
        } else if (too_long) {
            tool_error(where, "line %u: a name longer than 127 bytes", line);
            tool_rig_free(rig);
            return 0;
        }
        p = eol < end ? eol + 1 : end;
    }
    return 1;
}

int tool_rig_load(const char *path, tool_rig *rig) {
    unsigned char *text;
    size_t size;
    int ok;
    if (!tool_read_file(path, &text, &size)) return 0;
    ok = tool_rig_parse((const char *)text, size, path, rig);
    free(text);
    return ok;
}

int32_t tool_rig_find(const tool_rig *rig, uint32_t hash) {
    uint32_t i;
    for (i = 0; i < rig->count; i++)
        if (rig->hash[i] == hash) return (int32_t)i;
    return -1;
}

void tool_rig_free(tool_rig *rig) {
    free(rig->names);
    free(rig->hash);
    free(rig->parent);
    memset(rig, 0, sizeof *rig);
}
