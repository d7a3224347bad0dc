/* The core's heapsort (pb_sort.h): elements of any size in place, ordered
 * by the caller's comparator. */
#include "pb_sort.h"
#include "pb_bytes.h"

/* Swaps the size bytes at a and b: a word at a time (byte-assembled, so
 * any alignment and element type), then the bytes left. */
static inline void swap_bytes(unsigned char *a, unsigned char *b, size_t size) {
    size_t k = 0;
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

/* Moves the element at byte offset root down the heap of the elements
 * before byte offset end until neither child is after it.  Offsets, not
 * indices: no multiply per step.  No overflow: an array is at most
 * PTRDIFF_MAX bytes, so 2 * root + size stays below 2 * end. */
static inline void sift_down(unsigned char *p, size_t root, size_t end, size_t size, pb_less_fn less, const void *ctx) {
    for (;;) {
        size_t child = 2u * root + size;
        if (child >= end) return;
        if (child + size < end) { /* the larger child without a branch: its test is a coin toss */
            size_t second = (size_t)(less(ctx, p + child, p + child + size) != 0);
            child += size & (0u - second);
        }
        if (!less(ctx, p + root, p + child)) return;
        swap_bytes(p + root, p + child, size);
        root = child;
    }
}

void pb_heap_sort(void *base, size_t n, size_t size, pb_less_fn less, const void *ctx) {
    unsigned char *p = (unsigned char *)base;
    size_t i, end = n * size;
    if (n < 2u || size == 0u) return;
    for (i = n / 2u; i-- > 0;) sift_down(p, i * size, end, size, less, ctx);
    for (i = end - size; i > 0; i -= size) {
        swap_bytes(p, p + i, size);
        sift_down(p, 0, i, size, less, ctx);
    }
}

/* Is pair a before pair b (2 words each)? */
static int pair_less(const void *ctx, const void *a, const void *b) {
    const uint32_t *x = (const uint32_t *)a, *y = (const uint32_t *)b;
    (void)ctx;
    return x[0] < y[0] || (x[0] == y[0] && x[1] < y[1]);
}

void pb_sort_pairs(uint32_t *p, uint32_t n) {
    pb_heap_sort(p, n, 2u * sizeof *p, pair_less, NULL);
}
