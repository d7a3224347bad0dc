/* ASCII case, the one way tools/ ignores it (names in packages, file
 * extensions, Smooth Jazz keywords, channel and clip names): the core's
 * plumbob_name_equal, so only A-Z and a-z fold, every other byte is itself,
 * whatever the locale.  Header only, so every program that links a piece of
 * tools/ has it. */
#ifndef PLUMBOB_TOOL_ASCII_H
#define PLUMBOB_TOOL_ASCII_H

#include <stddef.h>
#include <string.h>
#include "plumbob.h"

/* 1 when a[0..n) and b[0..n) are the same bytes but for ASCII case (a NUL
 * is a byte like any other: both are n long). */
static inline int tool_ascii_ncaseeq(const char *a, const char *b, size_t n) {
    return plumbob_name_equal(a, n, b, n);
}

/* 1 when a[0..len) is the string b but for ASCII case. */
static inline int tool_ascii_ieq(const char *a, size_t len, const char *b) {
    return strlen(b) == len && tool_ascii_ncaseeq(a, b, len);
}

#endif
