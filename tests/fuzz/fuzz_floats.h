/* The skinning fuzz targets' shared drawing of floats from the input: a
 * xorshift stream seeded by the input's bytes, mostly ordinary values and
 * one in eight hostile (NaN, infinities, the largest, the smallest
 * subnormal, -0), and a bit comparison that counts NaN as equal to NaN. */
#ifndef PLUMBOB_FUZZ_FLOATS_H
#define PLUMBOB_FUZZ_FLOATS_H
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define GUARD 8             /* floats after each output span that must stay untouched */
#define SENTINEL -12345.0f  /* what they hold */

static inline uint32_t next(uint32_t *s) {
    uint32_t x = *s;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return *s = x;
}

/* Mostly ordinary values; one in eight something hostile. */
static inline float value(uint32_t *s) {
    static const uint32_t hostile[] = {0x7FC00000u, 0x7F800000u, 0xFF800000u, 0x7F7FFFFFu,
                                       0x00000001u, 0x80000000u, 0x4E6E6B28u, 0xFF7FFFFFu};
    uint32_t r = next(s);
    float f;
    if (r % 8 == 0) {
        uint32_t bits = hostile[(r >> 8) % 8];
        memcpy(&f, &bits, sizeof f);
        return f;
    }
    return (float)((int32_t)(r >> 8) % 4001 - 2000) / 1000.0f;
}

static inline int same_bits(const float *a, const float *b, size_t n) {
    size_t i;
    for (i = 0; i < n; i++) {
        if (a[i] != a[i] && b[i] != b[i]) continue; /* both NaN */
        if (memcmp(&a[i], &b[i], sizeof a[i]) != 0) return 0;
    }
    return 1;
}

#endif
