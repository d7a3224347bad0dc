/* Internal: ASCII case, the one way the library ignores it (name hashes,
 * clip name prefixes, ANIM channel names against CRES bones): only A-Z
 * and a-z fold, every other byte is itself.  Header only, so it exports
 * nothing. */
#ifndef PLUMBOB_PB_ASCII_H
#define PLUMBOB_PB_ASCII_H

#include <stddef.h>
#include <stdbool.h>

/* c with A-Z made a-z. */
static inline unsigned char pb_ascii_lower(unsigned char c) {
    return (c >= 'A' && c <= 'Z') ? (unsigned char)(c + ('a' - 'A')) : c;
}

/* True when a[0..n) and b[0..n) are the same bytes but for ASCII case. */
static inline bool pb_ascii_caseeq(const char *a, const char *b, size_t n) {
    size_t i;
    for (i = 0; i < n; i++)
        if (pb_ascii_lower((unsigned char)a[i]) != pb_ascii_lower((unsigned char)b[i])) return false;
    return true;
}

#endif
