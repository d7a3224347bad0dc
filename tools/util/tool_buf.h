/* A growable byte buffer for building output files in memory (hosted). */
#ifndef PLUMBOB_TOOL_BUF_H
#define PLUMBOB_TOOL_BUF_H

#include <stddef.h>

typedef struct tool_buf {
    unsigned char *data;
    size_t size, cap;
    int failed; /* set when an allocation failed; later appends do nothing */
} tool_buf;

void tb_put(tool_buf *b, const void *p, size_t n);
void tb_str(tool_buf *b, const char *s);
void tb_printf(tool_buf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* A JSON string literal of s[0..len) (bytes >= 0x7F as \u00XX, Latin-1). */
void tb_json_string(tool_buf *b, const char *s, size_t len);
/* A float that round-trips (%.9g); null when not finite. */
void tb_json_float(tool_buf *b, float f);
/* The same text into out (NUL-ended); returns its length. */
size_t tb_format_json_float(char out[32], float f);
/* Appends `fill` bytes until the size is a multiple of `align`. */
void tb_pad(tool_buf *b, size_t align, unsigned char fill);
void tb_free(tool_buf *b);

#endif
