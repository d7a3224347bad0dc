/* The pair sort (pb_sort.h): the sort's instance shared by the GMDC
 * sparse-element lookup, the CLIP sampler and the bind report. */
#include "pb_sort.h"

/* Is pair a before pair b (2 words each)? */
static int pair_less(const void *ctx, const void *a, const void *b) {
    const uint32_t *x = (const uint32_t *)a, *y = (const uint32_t *)b;
    (void)ctx;
    return x[0] < y[0] || (x[0] == y[0] && x[1] < y[1]);
}

static void sort_pairs(uint32_t *base, size_t n, const void *ctx) PB_HEAP_SORT_BODY(pair_less, 2u * sizeof(uint32_t))

void pb_sort_pairs(uint32_t *p, uint32_t n) {
    sort_pairs(p, n, NULL);
}
