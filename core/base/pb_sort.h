/* Internal: the core's one sort, a heapsort in place (no recursion, no
 * extra memory, n log n at worst, whatever the input).  It is not stable:
 * each caller's `less` is a strict total order (ties broken by an index),
 * so the order is the only one and every caller's output is fixed.  The
 * GMDC sparse-element lookup, the CLIP sampler's slot sort and the bind
 * report sort pairs of words with it (pb_sort_pairs); the package index,
 * GEOM morphs and the prepared skinning's shared order their own records.
 *
 * A body for each caller's function rather than one function taking a
 * comparator: the core makes no indirect call (`make stack-usage` bounds
 * every public function's stack from the call graph and fails on one),
 * and with the comparator and the element size known the compiler calls
 * (or inlines) the one and folds the other. */
#ifndef PLUMBOB_PB_SORT_H
#define PLUMBOB_PB_SORT_H

#include <stddef.h>
#include <stdint.h>
#include "pb_bytes.h"

/* Shared between files of the library, so not static: renamed into the
 * plumbob_ namespace so libplumbob exports no other prefix (checked by
 * tests/build-tests.sh). */
#define pb_sort_pairs plumbob_pb_sort_pairs

/* Sorts the n {first, second} pairs of 32-bit words at p (2n words),
 * ascending by first, then second (core/base/sort.c). */
void pb_sort_pairs(uint32_t *p, uint32_t n);

/* Swaps the size bytes at a and b: 8 and then 4 at a time as byte-
 * assembled words, the rest a byte at a time (any element type, any
 * alignment).  With size a constant the loops unroll into whole moves;
 * every byte of a chunk is read before any is written, which a plain
 * byte loop cannot promise the compiler (a and b might overlap). */
static inline void pb_swap_bytes(unsigned char *a, unsigned char *b, size_t size) {
    size_t k = 0;
    for (; size - k >= 8u; k += 8u) {
        uint64_t t = pb_le64(a + k);
        pb_put_le64(a + k, pb_le64(b + k));
        pb_put_le64(b + k, t);
    }
    for (; size - k >= 4u; k += 4u) {
        uint32_t t = pb_le32(a + k);
        pb_put_le32(a + k, pb_le32(b + k));
        pb_put_le32(b + k, t);
    }
    for (; k < size; k++) {
        unsigned char t = a[k];
        a[k] = b[k];
        b[k] = t;
    }
}

/* The body of a function that sorts, ascending by less, the n elements of
 * size bytes (a constant) at base, written after the function's head:
 *
 *     static void NAME(TYPE *base, size_t n, const void *ctx) PB_HEAP_SORT_BODY(less, size)
 *
 * with less(ctx, a, b) (a and b: const void *) true when the element at a
 * goes before the one at b.  One loop for both phases: while pb_start > 0
 * it builds the heap (sifts each parent down, the last first), then it
 * takes the largest to the end of the shrinking heap and sifts the one
 * swapped in.  Offsets in bytes, not indices (no multiply per step; no
 * overflow: an array is at most PTRDIFF_MAX bytes, so 2 * root + size
 * stays below 2 * end).  The larger child is chosen without a branch
 * (its test is a coin toss). */
#define PB_HEAP_SORT_BODY(less, size)                                                                   \
    {                                                                                                   \
        unsigned char *pb_p = (unsigned char *)base;                                                    \
        size_t pb_end = n * (size), pb_start = n / 2u * (size), pb_root, pb_child, pb_second;           \
        if (n < 2u) return;                                                                             \
        for (;;) {                                                                                      \
            if (pb_start > 0u) pb_start -= (size);                                                      \
            else {                                                                                      \
                pb_end -= (size);                                                                       \
                if (pb_end == 0u) return;                                                               \
                pb_swap_bytes(pb_p, pb_p + pb_end, (size));                                             \
            }                                                                                           \
            for (pb_root = pb_start; (pb_child = 2u * pb_root + (size)) < pb_end; pb_root = pb_child) { \
                if (pb_child + (size) < pb_end) {                                                       \
                    pb_second = (size_t)(less(ctx, pb_p + pb_child, pb_p + pb_child + (size)) != 0);    \
                    pb_child += (size) & (0u - pb_second);                                              \
                }                                                                                       \
                if (!less(ctx, pb_p + pb_root, pb_p + pb_child)) break;                                 \
                pb_swap_bytes(pb_p + pb_root, pb_p + pb_child, (size));                                 \
            }                                                                                           \
        }                                                                                               \
    }

#endif
