/* Internal: the one finite-number test every decoder applies to the floats
 * it hands on (issue 47): a float whose exponent bits are all ones is an
 * infinity or a NaN and is refused with PLUMBOB_ERR_BAD_DATA where it
 * stands.  A bit test on the stored pattern, so it needs no libm, behaves
 * the same under -ffast-math, and never raises a floating-point flag. */
#ifndef PLUMBOB_PB_FINITE_H
#define PLUMBOB_PB_FINITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "pb_bytes.h"

/* The exponent field of an IEEE-754 single. */
#define PB_F32_EXPONENT 0x7F800000u

static inline bool pb_finite_bits(uint32_t bits) {
    return (bits & PB_F32_EXPONENT) != PB_F32_EXPONENT;
}

static inline bool pb_finite(float f) {
    return pb_finite_bits(pb_bits_from_f32(f));
}

/* Index of the first non-finite float among n little-endian floats at p,
 * or n when all are finite.  The caller has checked the 4 n bytes exist. */
static inline size_t pb_first_nonfinite_le(const unsigned char *p, size_t n) {
    size_t k;
    for (k = 0; k < n; k++)
        if (!pb_finite_bits(pb_le32(p + 4 * k))) return k;
    return n;
}

/* Index of the first non-finite value among n floats, or n. */
static inline size_t pb_first_nonfinite(const float *v, size_t n) {
    size_t k;
    for (k = 0; k < n; k++)
        if (!pb_finite(v[k])) return k;
    return n;
}

#endif
