/* Smooth Jazz name tables: KEY entries as hash <-> text, the double-hash
 * index behind `*` names, and the KEY resource a compile adds to a package. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "smooth_jazz.h"
#include "util/bytes.h"

int sj_names_add(sj_names *n, uint64_t instance, const char *text, size_t len) {
    size_t i;
    char *copy;
    for (i = 0; i < n->count; i++)
        if (n->items[i].instance == instance && n->items[i].len == len && memcmp(n->items[i].text, text, len) == 0)
            return 1;
    if (n->count == n->cap) {
        size_t cap = n->cap ? n->cap * 2u : 64u;
        sj_name *items = (sj_name *)realloc(n->items, cap * sizeof *items);
        if (!items) return 0;
        n->items = items;
        n->cap = cap;
    }
    copy = (char *)malloc(len + 1u);
    if (!copy) return 0;
    if (len) memcpy(copy, text, len);
    copy[len] = '\0';
    n->items[n->count].instance = instance;
    n->items[n->count].text = copy;
    n->items[n->count].len = len;
    n->count++;
    return 1;
}

int sj_names_add_key_table(sj_names *n, const plumbob_key_table *kt) {
    uint32_t i;
    for (i = 0; i < kt->count; i++) {
        uint64_t inst;
        plumbob_string s;
        if (plumbob_key_table_entry(kt, i, &inst, &s) == PLUMBOB_OK && !sj_names_add(n, inst, s.ptr, s.len))
            return 0;
    }
    return 1;
}

int sj_names_index(sj_names *n) {
    size_t i;
    free(n->double_hash);
    n->double_hash = (uint32_t *)malloc((n->count ? n->count : 1u) * sizeof *n->double_hash);
    if (!n->double_hash) return 0;
    for (i = 0; i < n->count; i++) {
        char hex[16];
        int len = snprintf(hex, sizeof hex, "0x%08x", (unsigned)plumbob_fnv32(n->items[i].text, n->items[i].len));
        n->double_hash[i] = plumbob_fnv32(hex, (size_t)len);
    }
    return 1;
}

const sj_name *sj_names_find32(const sj_names *n, uint32_t h, int *star) {
    size_t i;
    *star = 0;
    if (!n) return NULL;
    for (i = 0; i < n->count; i++)
        if (plumbob_fnv32(n->items[i].text, n->items[i].len) == h) return &n->items[i];
    if (!n->double_hash) return NULL;
    for (i = 0; i < n->count; i++)
        if (n->double_hash[i] == h) {
            *star = 1;
            return &n->items[i];
        }
    return NULL;
}

const sj_name *sj_names_find64(const sj_names *n, uint64_t instance) {
    size_t i;
    if (!n) return NULL;
    for (i = 0; i < n->count; i++)
        if (n->items[i].instance == instance) return &n->items[i];
    return NULL;
}

int sj_names_key_table(const sj_names *n, unsigned char **out, size_t *size) {
    size_t i, total = 8, at = 8;
    unsigned char *p;
    for (i = 0; i < n->count; i++) total += 12u + n->items[i].len;
    p = (unsigned char *)malloc(total);
    if (!p) return 0;
    tool_put_le32(p, 1);
    tool_put_le32(p + 4, (uint32_t)n->count);
    for (i = 0; i < n->count; i++) {
        tool_put_le64(p + at, n->items[i].instance);
        tool_put_le32(p + at + 8, (uint32_t)n->items[i].len);
        memcpy(p + at + 12, n->items[i].text, n->items[i].len);
        at += 12u + n->items[i].len;
    }
    *out = p;
    *size = total;
    return 1;
}

void sj_names_free(sj_names *n) {
    size_t i;
    for (i = 0; i < n->count; i++) free(n->items[i].text);
    free(n->items);
    free(n->double_hash);
    memset(n, 0, sizeof *n);
}
