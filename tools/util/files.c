/* Whole-file reads and writes, the tool's error line, small string parsing.
 * Hosted C; depends on nothing of the tool's. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "files.h"

void tool_error(const char *where, const char *fmt, ...) {
    va_list ap;
    fprintf(stderr, "plumbob: %s: ", where);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

int tool_read_file(const char *path, unsigned char **data, size_t *size) {
    FILE *f = fopen(path, "rb");
    long len;
    *data = NULL;
    *size = 0;
    if (!f) {
        tool_error(path, "cannot open: %s", strerror(errno));
        return 0;
    }
    if (fseek(f, 0, SEEK_END) != 0 || (len = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
        tool_error(path, "cannot determine the size (not a regular file?)");
        fclose(f);
        return 0;
    }
    *data = (unsigned char *)malloc(len > 0 ? (size_t)len : 1);
    if (!*data || fread(*data, 1, (size_t)len, f) != (size_t)len) {
        tool_error(path, "cannot read %ld bytes", len);
        free(*data);
        *data = NULL;
        fclose(f);
        return 0;
    }
    fclose(f);
    *size = (size_t)len;
    return 1;
}

int tool_write_file(const char *path, const void *data, size_t n) {
    FILE *f = fopen(path, "wb");
    int ok = f && fwrite(data, 1, n, f) == n;
    if (f && fclose(f) != 0) ok = 0;
    if (!ok) tool_error(path, "cannot write: %s", strerror(errno));
    return ok;
}

int tool_ends_with(const char *s, const char *suffix) {
    size_t n = strlen(s), m = strlen(suffix), i;
    if (n < m) return 0;
    for (i = 0; i < m; i++) {
        char c = s[n - m + i];
        if (c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
        if (c != suffix[i]) return 0;
    }
    return 1;
}

int tool_parse_hex(const char *s, size_t len, uint64_t *out) {
    uint64_t v = 0;
    size_t i = 0;
    if (len >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) i = 2;
    if (i == len || len - i > 16) return 0;
    for (; i < len; i++) {
        char c = s[i];
        int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
              : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0) return 0;
        v = v << 4 | (uint64_t)d;
    }
    *out = v;
    return 1;
}

/* Finds the resource SPEC names in a package: TYPE:GROUP:INSTANCE, or an
 * INSTANCE alone (the first entry with it, preferring formats plumbob reads). */
