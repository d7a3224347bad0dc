/* Internal: heapsort of {first, second} pairs of 32-bit words, in place,
 * ascending by first, then second (no recursion, no extra memory, n log n
 * at worst, whatever the input).  The GMDC sparse-element lookup and the
 * CLIP sampler's slot sort share it. */
#ifndef PLUMBOB_PB_SORT_H
#define PLUMBOB_PB_SORT_H

#include <stdint.h>

/* Is pair a before pair b of p (2 words each)? */
static inline int pb_pair_less(const uint32_t *p, uint32_t a, uint32_t b) {
    return p[2u * a] < p[2u * b] || (p[2u * a] == p[2u * b] && p[2u * a + 1u] < p[2u * b + 1u]);
}

static inline void pb_pair_swap(uint32_t *p, uint32_t a, uint32_t b) {
    uint32_t v = p[2u * a], k = p[2u * a + 1u];
    p[2u * a] = p[2u * b];
    p[2u * a + 1u] = p[2u * b + 1u];
    p[2u * b] = v;
    p[2u * b + 1u] = k;
}

static inline void pb_pair_sift_down(uint32_t *p, uint32_t root, uint32_t n) {
    for (;;) {
        uint32_t child = 2u * root + 1u;
        if (child >= n) return;
        if (child + 1u < n && pb_pair_less(p, child, child + 1u)) child++;
        if (!pb_pair_less(p, root, child)) return;
        pb_pair_swap(p, root, child);
        root = child;
    }
}

/* Sorts the n pairs at p (2n words). */
static inline void pb_sort_pairs(uint32_t *p, uint32_t n) {
    uint32_t i;
    for (i = n / 2u; i-- > 0;) pb_pair_sift_down(p, i, n);
    for (i = n; i-- > 1;) {
        pb_pair_swap(p, 0, i);
        pb_pair_sift_down(p, 0, i);
    }
}

#endif
