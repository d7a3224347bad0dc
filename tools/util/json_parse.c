/* JSON to a tree: recursive descent with a depth limit. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "json_parse.h"

typedef struct parser {
    const char *p, *start, *end;
    char *why;
    size_t why_cap;
    int failed;
} parser;

static int fail(parser *ps, const char *what) {
    if (!ps->failed) snprintf(ps->why, ps->why_cap, "byte %zu: %s", (size_t)(ps->p - ps->start), what);
    ps->failed = 1;
    return 0;
}

static void skip_ws(parser *ps) {
    while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r')) ps->p++;
}

static int hex4(parser *ps, const char *limit, unsigned *out) {
    unsigned v = 0;
    int i;
    if (limit - ps->p < 4) return fail(ps, "short \\u escape");
    for (i = 0; i < 4; i++) {
        char c = *ps->p++;
        int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0) return fail(ps, "bad hex digit in \\u escape");
        v = v << 4 | (unsigned)d;
    }
    *out = v;
    return 1;
}

static void put_utf8(char *o, size_t *n, unsigned c) {
    if (c < 0x80) o[(*n)++] = (char)c;
    else if (c < 0x800) { o[(*n)++] = (char)(0xC0 | c >> 6); o[(*n)++] = (char)(0x80 | (c & 63)); }
    else if (c < 0x10000) { o[(*n)++] = (char)(0xE0 | c >> 12); o[(*n)++] = (char)(0x80 | ((c >> 6) & 63)); o[(*n)++] = (char)(0x80 | (c & 63)); }
    else { o[(*n)++] = (char)(0xF0 | c >> 18); o[(*n)++] = (char)(0x80 | ((c >> 12) & 63)); o[(*n)++] = (char)(0x80 | ((c >> 6) & 63)); o[(*n)++] = (char)(0x80 | (c & 63)); }
}

/* A string at ps->p (the opening quote); decoded into a malloc'd copy. */
static int parse_string(parser *ps, char **out, size_t *out_len) {
    const char *q = ++ps->p;
    char *s;
    size_t n = 0;
    while (q < ps->end && *q != '"') q += *q == '\\' && q + 1 < ps->end ? 2 : 1;
    if (q >= ps->end) return fail(ps, "unterminated string");
    s = (char *)malloc((size_t)(q - ps->p) + 1u); /* escapes never grow the text */
    if (!s) return fail(ps, "out of memory");
    while (ps->p < q) { /* decoding never reads past the closing quote */
        unsigned char c = (unsigned char)*ps->p++;
        if (c < 0x20) { free(s); return fail(ps, "control character in a string"); }
        if (c != '\\') { s[n++] = (char)c; continue; }
        c = (unsigned char)*ps->p++;
        switch (c) {
        case '"': case '\\': case '/': s[n++] = (char)c; break;
        case 'b': s[n++] = '\b'; break;
        case 'f': s[n++] = '\f'; break;
        case 'n': s[n++] = '\n'; break;
        case 'r': s[n++] = '\r'; break;
        case 't': s[n++] = '\t'; break;
        case 'u': {
            unsigned u, lo;
            if (!hex4(ps, q, &u)) { free(s); return 0; }
            if (u >= 0xD800 && u < 0xDC00) {
                if (q - ps->p < 6 || ps->p[0] != '\\' || ps->p[1] != 'u') { free(s); return fail(ps, "unpaired surrogate"); }
                ps->p += 2;
                if (!hex4(ps, q, &lo)) { free(s); return 0; }
                if (lo < 0xDC00 || lo > 0xDFFF) { free(s); return fail(ps, "unpaired surrogate"); }
                u = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
            } else if (u >= 0xDC00 && u < 0xE000) {
                free(s);
                return fail(ps, "unpaired surrogate");
            }
            put_utf8(s, &n, u);
            break;
        }
        default: free(s); return fail(ps, "bad escape");
        }
    }
    ps->p++;
    s[n] = '\0';
    *out = s;
    *out_len = n;
    return 1;
}

static int parse_number(parser *ps, double *out) {
    const char *s = ps->p;
    char buf[64];
    if (ps->p < ps->end && *ps->p == '-') ps->p++;
    if (ps->p >= ps->end || *ps->p < '0' || *ps->p > '9') return fail(ps, "expected a value");
    if (*ps->p == '0') ps->p++;
    else while (ps->p < ps->end && *ps->p >= '0' && *ps->p <= '9') ps->p++;
    if (ps->p < ps->end && *ps->p == '.') {
        ps->p++;
        if (ps->p >= ps->end || *ps->p < '0' || *ps->p > '9') return fail(ps, "digit expected after '.'");
        while (ps->p < ps->end && *ps->p >= '0' && *ps->p <= '9') ps->p++;
    }
    if (ps->p < ps->end && (*ps->p == 'e' || *ps->p == 'E')) {
        ps->p++;
        if (ps->p < ps->end && (*ps->p == '+' || *ps->p == '-')) ps->p++;
        if (ps->p >= ps->end || *ps->p < '0' || *ps->p > '9') return fail(ps, "digit expected in exponent");
        while (ps->p < ps->end && *ps->p >= '0' && *ps->p <= '9') ps->p++;
    }
    if ((size_t)(ps->p - s) >= sizeof buf) return fail(ps, "number too long");
    memcpy(buf, s, (size_t)(ps->p - s));
    buf[ps->p - s] = '\0';
    *out = strtod(buf, NULL);
    return 1;
}

static int literal(parser *ps, const char *word) {
    size_t n = strlen(word);
    if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, word, n) != 0) return fail(ps, "expected a value");
    ps->p += n;
    return 1;
}

static int parse_value(parser *ps, json_value *v, int depth);

/* Appends a zeroed slot to v's items (and keys for objects). */
static json_value *grow(parser *ps, json_value *v, size_t *cap) {
    if (v->count == *cap) {
        size_t nc = *cap ? *cap * 2 : 4;
        json_value *items = (json_value *)realloc(v->items, nc * sizeof *items);
        if (!items) { fail(ps, "out of memory"); return NULL; }
        v->items = items;
        if (v->kind == JSON_OBJECT) {
            char **keys = (char **)realloc(v->keys, nc * sizeof *keys);
            if (!keys) { fail(ps, "out of memory"); return NULL; }
            v->keys = keys;
        }
        *cap = nc;
    }
    memset(&v->items[v->count], 0, sizeof v->items[0]);
    if (v->kind == JSON_OBJECT) v->keys[v->count] = NULL;
    return &v->items[v->count++];
}

static int parse_container(parser *ps, json_value *v, int depth) {
    char close = *ps->p == '{' ? '}' : ']';
    size_t cap = 0;
    v->kind = close == '}' ? JSON_OBJECT : JSON_ARRAY;
    if (depth >= JSON_MAX_DEPTH) return fail(ps, "nested too deeply");
    ps->p++;
    skip_ws(ps);
    if (ps->p < ps->end && *ps->p == close) { ps->p++; return 1; }
    for (;;) {
        json_value *item = grow(ps, v, &cap);
        if (!item) return 0;
        skip_ws(ps);
        if (v->kind == JSON_OBJECT) {
            size_t kl;
            if (ps->p >= ps->end || *ps->p != '"') return fail(ps, "expected a member name");
            if (!parse_string(ps, &v->keys[v->count - 1], &kl)) return 0;
            skip_ws(ps);
            if (ps->p >= ps->end || *ps->p != ':') return fail(ps, "expected ':'");
            ps->p++;
        }
        if (!parse_value(ps, item, depth + 1)) return 0;
        skip_ws(ps);
        if (ps->p < ps->end && *ps->p == ',') { ps->p++; continue; }
        if (ps->p < ps->end && *ps->p == close) { ps->p++; return 1; }
        return fail(ps, close == '}' ? "expected ',' or '}'" : "expected ',' or ']'");
    }
}

static int parse_value(parser *ps, json_value *v, int depth) {
    skip_ws(ps);
    if (ps->p >= ps->end) return fail(ps, "unexpected end of text");
    switch (*ps->p) {
    case '{': case '[': return parse_container(ps, v, depth);
    case '"': v->kind = JSON_STRING; return parse_string(ps, &v->str, &v->len);
    case 't': v->kind = JSON_BOOL; v->number = 1; return literal(ps, "true");
    case 'f': v->kind = JSON_BOOL; return literal(ps, "false");
    case 'n': v->kind = JSON_NULL; return literal(ps, "null");
    default: v->kind = JSON_NUMBER; return parse_number(ps, &v->number);
    }
}

int json_parse(const char *text, size_t len, json_value *out, char *why, size_t why_cap) {
    parser ps;
    memset(out, 0, sizeof *out);
    ps.p = ps.start = text;
    ps.end = text + len;
    ps.why = why;
    ps.why_cap = why_cap;
    ps.failed = 0;
    if (parse_value(&ps, out, 0)) {
        skip_ws(&ps);
        if (ps.p != ps.end) fail(&ps, "text after the value");
    }
    if (ps.failed) json_free(out);
    return !ps.failed;
}

const json_value *json_get(const json_value *v, const char *key) {
    size_t i;
    if (!v || v->kind != JSON_OBJECT) return NULL;
    for (i = 0; i < v->count; i++)
        if (v->keys[i] && strcmp(v->keys[i], key) == 0) return &v->items[i];
    return NULL;
}

void json_free(json_value *v) {
    size_t i;
    for (i = 0; i < v->count; i++) {
        json_free(&v->items[i]);
        if (v->keys) free(v->keys[i]);
    }
    free(v->items);
    free(v->keys);
    free(v->str);
    memset(v, 0, sizeof *v);
}
