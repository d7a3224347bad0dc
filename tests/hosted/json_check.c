/* json-check FILE|- PATH...: does the input parse as JSON (tools/util/json_parse.c)
 * and does each PATH exist?  A PATH is dot-separated: member names, array
 * indices, or * for "every element" (each must have the rest of the path).
 * #PATH prints the length of the array or object there.  Prints
 * "ok" and the lengths asked for, or the first problem; exit 1 on any.
 * Example: json-check - name tracks.*.hash '#tracks'  ->  "ok 4" */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/json_parse.h"

/* Does path[...] exist under v?  *len gets the length at its end. */
static int walk(const json_value *v, const char *path, size_t *len) {
    const char *dot;
    char part[128];
    size_t n, i;
    if (!*path) {
        *len = v->kind == JSON_ARRAY || v->kind == JSON_OBJECT ? v->count : v->len;
        return 1;
    }
    dot = strchr(path, '.');
    n = dot ? (size_t)(dot - path) : strlen(path);
    if (n >= sizeof part) return 0;
    memcpy(part, path, n);
    part[n] = '\0';
    path += n + (dot ? 1 : 0);
    if (strcmp(part, "*") == 0) {
        if (v->kind != JSON_ARRAY && v->kind != JSON_OBJECT) return 0;
        for (i = 0; i < v->count; i++)
            if (!walk(&v->items[i], path, len)) return 0;
        return 1;
    }
    if (v->kind == JSON_ARRAY) {
        char *end;
        unsigned long k = strtoul(part, &end, 10);
        return *end == '\0' && k < v->count && walk(&v->items[k], path, len);
    }
    v = json_get(v, part);
    return v && walk(v, path, len);
}

int main(int argc, char **argv) {
    FILE *f;
    char *text = NULL, why[128];
    size_t size = 0, cap = 0, got;
    json_value root;
    int i, bad = 0;
    if (argc < 2) {
        fprintf(stderr, "usage: json-check FILE|- [PATH|#PATH ...]\n");
        return 2;
    }
    f = strcmp(argv[1], "-") == 0 ? stdin : fopen(argv[1], "rb");
    if (!f) {
        fprintf(stderr, "%s: cannot open\n", argv[1]);
        return 1;
    }
    do { /* stdin has no size: read in growing blocks */
        if (cap - size < 4096) {
            cap = cap ? cap * 2 : 65536;
            text = (char *)realloc(text, cap);
            if (!text) return 1;
        }
        got = fread(text + size, 1, cap - size, f);
        size += got;
    } while (got > 0);
    if (f != stdin) fclose(f);
    if (!json_parse(text, size, &root, why, sizeof why)) {
        fprintf(stderr, "%s: not JSON: %s\n", argv[1], why);
        free(text);
        return 1;
    }
    printf("ok");
    for (i = 2; i < argc; i++) {
        size_t len = 0;
        const char *path = argv[i][0] == '#' ? argv[i] + 1 : argv[i];
        if (!walk(&root, path, &len)) {
            fprintf(stderr, "\n%s: no %s\n", argv[1], path);
            bad = 1;
        } else if (argv[i][0] == '#') {
            printf(" %zu", len);
        }
    }
    printf("\n");
    json_free(&root);
    free(text);
    return bad;
}
