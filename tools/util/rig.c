/* Rig lists: a text file of bone names with their parents. */
#include <stdio.h>
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

/* Room for cap bones (a list is read in one pass; most rigs are small). */
static int grow(tool_rig *rig, uint32_t cap) {
    void *n = realloc(rig->names, cap * sizeof *rig->names);
    void *h = n ? realloc(rig->hash, cap * sizeof *rig->hash) : NULL;
    void *p = h ? realloc(rig->parent, cap * sizeof *rig->parent) : NULL;
    if (n) rig->names = (char(*)[RIG_MAX_NAME])n;
    if (h) rig->hash = (uint32_t *)h;
    if (p) rig->parent = (int32_t *)p;
    return p != NULL;
}

int tool_rig_parse(const char *text, size_t len, const char *where, tool_rig *rig) {
    const char *p = text, *end = text + len;
    unsigned line = 0;
    uint32_t cap = 0;
    memset(rig, 0, sizeof *rig);
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
            if (i == cap && !grow(rig, cap = cap ? cap * 2u : 64u)) {
                tool_error(where, "out of memory");
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

int tool_rig_from_skeleton(const plumbob_skeleton *sk, tool_rig *rig) {
    uint32_t i, n = sk->bone_count;
    memset(rig, 0, sizeof *rig);
    rig->names = calloc(n + 1u, sizeof *rig->names);
    rig->hash = (uint32_t *)calloc(n + 1u, sizeof *rig->hash);
    rig->parent = (int32_t *)calloc(n + 1u, sizeof *rig->parent);
    rig->rest = (plumbob_bone_pose *)calloc(n + 1u, sizeof *rig->rest);
    if (!rig->names || !rig->hash || !rig->parent || !rig->rest) {
        tool_rig_free(rig);
        return 0;
    }
    for (i = 0; i < n; i++) {
        const plumbob_string *nm = sk->name ? &sk->name[i] : NULL;
        if (nm && nm->len) snprintf(rig->names[i], RIG_MAX_NAME, "%.*s", (int)nm->len, nm->ptr);
        else snprintf(rig->names[i], RIG_MAX_NAME, "0x%08X", (unsigned)(sk->name_hash ? sk->name_hash[i] : i));
        rig->hash[i] = sk->name_hash ? sk->name_hash[i] : plumbob_fnv32_str(rig->names[i]);
        rig->parent[i] = sk->parent[i];
        rig->rest[i] = sk->rest[i];
    }
    rig->count = n;
    return 1;
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
    free(rig->rest);
    memset(rig, 0, sizeof *rig);
}
