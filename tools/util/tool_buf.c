/* tool_buf: in-memory output for the glTF and SVG writers. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tool_buf.h"

static int reserve(tool_buf *b, size_t n) {
    size_t cap;
    unsigned char *p;
    if (b->failed) return 0;
    if (n <= b->cap - b->size) return 1;
    cap = b->cap ? b->cap : 256;
    while (cap - b->size < n) {
        if (cap > (size_t)-1 / 2) { b->failed = 1; return 0; }
        cap *= 2;
    }
    p = (unsigned char *)realloc(b->data, cap);
    if (!p) { b->failed = 1; return 0; }
    b->data = p;
    b->cap = cap;
    return 1;
}

void tb_put(tool_buf *b, const void *p, size_t n) {
    if (!n || !reserve(b, n)) return;
    memcpy(b->data + b->size, p, n);
    b->size += n;
}

void tb_str(tool_buf *b, const char *s) { tb_put(b, s, strlen(s)); }

void tb_printf(tool_buf *b, const char *fmt, ...) {
    va_list ap;
    int n;
    va_start(ap, fmt);
    n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || !reserve(b, (size_t)n + 1)) return;
    va_start(ap, fmt);
    vsnprintf((char *)b->data + b->size, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->size += (size_t)n;
}

void tb_json_string(tool_buf *b, const char *s, size_t len) {
    size_t i;
    tb_put(b, "\"", 1);
    for (i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') tb_printf(b, "\\%c", c);
        else if (c == '\n') tb_str(b, "\\n");
        else if (c == '\t') tb_str(b, "\\t");
        else if (c < 0x20 || c >= 0x7F) tb_printf(b, "\\u%04x", c);
        else tb_put(b, &c, 1);
    }
    tb_put(b, "\"", 1);
}

size_t tb_format_json_float(char out[32], float f) {
    int n;
    if (f != f || f > 3.4e38f || f < -3.4e38f) n = snprintf(out, 32, "null");
    else n = snprintf(out, 32, "%.9g", (double)f);
    return n > 0 ? (size_t)n : 0u;
}

void tb_json_float(tool_buf *b, float f) {
    char text[32];
    tb_put(b, text, tb_format_json_float(text, f));
}

void tb_pad(tool_buf *b, size_t align, unsigned char fill) {
    while (!b->failed && b->size % align) tb_put(b, &fill, 1);
}

void tb_free(tool_buf *b) {
    free(b->data);
    b->data = NULL;
    b->size = b->cap = 0;
    b->failed = 0;
}
