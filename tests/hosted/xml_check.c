/* xml-check FILE...: is each file well-formed XML?  (For the SVG plots the
 * tool writes; a small checker so the tests need nothing installed.)
 * Checks: one root element, tags nested and closed in order, attributes
 * quoted and not repeated, entity references known or numeric, no stray
 * '<' or '&', comments, processing instructions and CDATA terminated.
 * Prints "ok FILE: N elements" or "FILE:LINE: problem"; exit 1 on any. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 256

typedef struct doc {
    const char *p, *start, *end, *path;
    const char *stack[MAX_DEPTH];
    size_t stack_len[MAX_DEPTH];
    int depth;
    long elements;
} doc;

static int fail(const doc *d, const char *what) {
    int line = 1;
    const char *q;
    for (q = d->start; q < d->p; q++) line += *q == '\n';
    fprintf(stderr, "%s:%d: %s\n", d->path, line, what);
    return 0;
}

static int name_char(char c, int first) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':' || (unsigned char)c >= 0x80 ||
           (!first && ((c >= '0' && c <= '9') || c == '-' || c == '.'));
}

static size_t name(doc *d) {
    const char *s = d->p;
    if (d->p >= d->end || !name_char(*d->p, 1)) return 0;
    while (d->p < d->end && name_char(*d->p, 0)) d->p++;
    return (size_t)(d->p - s);
}

static void ws(doc *d) {
    while (d->p < d->end && (*d->p == ' ' || *d->p == '\t' || *d->p == '\n' || *d->p == '\r')) d->p++;
}

static int reference(doc *d) { /* at '&' */
    static const char *const known[] = {"amp;", "lt;", "gt;", "quot;", "apos;"};
    size_t i;
    d->p++;
    if (d->p < d->end && *d->p == '#') {
        d->p++;
        if (d->p < d->end && *d->p == 'x') d->p++;
        if (d->p >= d->end || *d->p == ';') return fail(d, "empty character reference");
        while (d->p < d->end && *d->p != ';') {
            char c = *d->p++;
            if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))) return fail(d, "bad character reference");
        }
        if (d->p >= d->end) return fail(d, "unterminated reference");
        d->p++;
        return 1;
    }
    for (i = 0; i < sizeof known / sizeof known[0]; i++)
        if ((size_t)(d->end - d->p) >= strlen(known[i]) && memcmp(d->p, known[i], strlen(known[i])) == 0) {
            d->p += strlen(known[i]);
            return 1;
        }
    return fail(d, "unknown entity reference (or a bare '&')");
}

static int skip_until(doc *d, const char *term, const char *what) {
    size_t n = strlen(term);
    while (d->end - d->p >= (long)n && memcmp(d->p, term, n) != 0) d->p++;
    if (d->end - d->p < (long)n) return fail(d, what);
    d->p += n;
    return 1;
}

static int start_tag(doc *d) { /* after '<' */
    const char *tag = d->p, *attrs[64];
    size_t tag_len = name(d), attr_len[64], na = 0, i;
    if (!tag_len) return fail(d, "bad tag name");
    for (;;) {
        const char *an;
        size_t al;
        char quote;
        int had_ws = d->p < d->end && (*d->p == ' ' || *d->p == '\t' || *d->p == '\n' || *d->p == '\r');
        ws(d);
        if (d->p >= d->end) return fail(d, "unterminated tag");
        if (*d->p == '>' || (*d->p == '/' && d->p + 1 < d->end && d->p[1] == '>')) break;
        if (!had_ws) return fail(d, "attributes need white space between them");
        an = d->p;
        al = name(d);
        if (!al) return fail(d, "bad attribute name");
        for (i = 0; i < na; i++)
            if (attr_len[i] == al && memcmp(attrs[i], an, al) == 0) return fail(d, "attribute given twice");
        if (na < 64) { attrs[na] = an; attr_len[na++] = al; }
        ws(d);
        if (d->p >= d->end || *d->p != '=') return fail(d, "attribute without '='");
        d->p++;
        ws(d);
        if (d->p >= d->end || (*d->p != '"' && *d->p != '\'')) return fail(d, "attribute value not quoted");
        quote = *d->p++;
        while (d->p < d->end && *d->p != quote) {
            if (*d->p == '<') return fail(d, "'<' in an attribute value");
            if (*d->p == '&') { if (!reference(d)) return 0; }
            else d->p++;
        }
        if (d->p >= d->end) return fail(d, "unterminated attribute value");
        d->p++;
    }
    d->elements++;
    if (*d->p == '/') {
        d->p += 2;
        return d->depth > 0 ? 1 : 2; /* an empty root element: done */
    }
    d->p++;
    if (d->depth == MAX_DEPTH) return fail(d, "nested too deeply");
    d->stack[d->depth] = tag;
    d->stack_len[d->depth++] = tag_len;
    return 1;
}

static int check(doc *d) {
    int seen_root = 0;
    while (d->p < d->end) {
        if (*d->p == '<') {
            d->p++;
            if (d->p < d->end && *d->p == '?') { if (!skip_until(d, "?>", "unterminated <?")) return 0; continue; }
            if (d->end - d->p >= 3 && memcmp(d->p, "!--", 3) == 0) { if (!skip_until(d, "-->", "unterminated comment")) return 0; continue; }
            if (d->end - d->p >= 8 && memcmp(d->p, "![CDATA[", 8) == 0) {
                if (!d->depth) return fail(d, "CDATA outside the root");
                if (!skip_until(d, "]]>", "unterminated CDATA")) return 0;
                continue;
            }
            if (d->p < d->end && *d->p == '!') { if (!skip_until(d, ">", "unterminated declaration")) return 0; continue; }
            if (d->p < d->end && *d->p == '/') {
                const char *tag;
                size_t len;
                d->p++;
                tag = d->p;
                len = name(d);
                ws(d);
                if (d->p >= d->end || *d->p != '>') return fail(d, "bad end tag");
                d->p++;
                if (!d->depth) return fail(d, "end tag without a start tag");
                d->depth--;
                if (len != d->stack_len[d->depth] || memcmp(tag, d->stack[d->depth], len) != 0)
                    return fail(d, "end tag does not match the open element");
                if (!d->depth) seen_root = 1;
                continue;
            }
            if (seen_root) return fail(d, "a second root element");
            {
                int r = start_tag(d);
                if (!r) return 0;
                if (r == 2) seen_root = 1;
            }
            continue;
        }
        if (!d->depth && !(*d->p == ' ' || *d->p == '\t' || *d->p == '\n' || *d->p == '\r'))
            return fail(d, "text outside the root element");
        if (*d->p == '&') { if (!reference(d)) return 0; }
        else d->p++;
    }
    if (d->depth) return fail(d, "elements left open at the end");
    if (!seen_root) return fail(d, "no root element");
    return 1;
}

int main(int argc, char **argv) {
    int i, bad = 0;
    if (argc < 2) {
        fprintf(stderr, "usage: xml-check FILE...\n");
        return 2;
    }
    for (i = 1; i < argc; i++) {
        FILE *f = fopen(argv[i], "rb");
        char *text;
        long n;
        doc d;
        if (!f || fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
            fprintf(stderr, "%s: cannot read\n", argv[i]);
            if (f) fclose(f);
            bad = 1;
            continue;
        }
        text = (char *)malloc((size_t)n + 1);
        if (!text || fread(text, 1, (size_t)n, f) != (size_t)n) {
            fprintf(stderr, "%s: cannot read\n", argv[i]);
            free(text);
            fclose(f);
            bad = 1;
            continue;
        }
        fclose(f);
        memset(&d, 0, sizeof d);
        d.p = d.start = text;
        d.end = text + n;
        d.path = argv[i];
        if (check(&d)) printf("ok %s: %ld elements\n", argv[i], d.elements);
        else bad = 1;
        free(text);
    }
    return bad;
}
