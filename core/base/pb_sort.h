/* Internal: the core's one sort, a heapsort in place through a comparator
 * (no recursion, no extra memory, n log n at worst, whatever the input).
 * It is not stable: each caller's `less` is a strict total order (ties
 * broken by an index), so the order is the only one and every caller's
 * output is fixed.  The GMDC sparse-element lookup, the CLIP sampler's
 * slot sort and the bind report sort pairs of words with it; the package
 * index, GEOM morphs and the prepared skinning's shared order their own
 * records. */
#ifndef PLUMBOB_PB_SORT_H
#define PLUMBOB_PB_SORT_H

#include <stddef.h>
#include <stdint.h>

/* Shared between files of the library, so not static: renamed into the
 * plumbob_ namespace so libplumbob exports no other prefix (checked by
 * tests/build-tests.sh). */
#define pb_heap_sort plumbob_pb_heap_sort
#define pb_sort_pairs plumbob_pb_sort_pairs

/* Is the element at a before the one at b?  ctx: the caller's. */
typedef int (*pb_less_fn)(const void *ctx, const void *a, const void *b);

/* Sorts the n elements of `size` bytes at base by less (ascending),
 * swapping them bytewise. */
void pb_heap_sort(void *base, size_t n, size_t size, pb_less_fn less, const void *ctx);

/* Sorts the n {first, second} pairs of 32-bit words at p (2n words),
 * ascending by first, then second. */
void pb_sort_pairs(uint32_t *p, uint32_t n);

#endif
