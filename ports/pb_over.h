/* The IK jobs' input check over a run of floats in memory, four at a time
 * on SSE2: a float is bad when it is not finite or beyond 1e15, tested on
 * its bits (1e15's bits minus |x|'s wrap exactly then), and the result is
 * nonzero when any is bad.  The same answer as testing each number alone;
 * only the speed differs (a job's 30 to 45 numbers cost a fifth of an aim
 * solve one at a time).  Other ports check one number at a time
 * (PB_PORT_HAS_OVER unset). */
#ifndef PLUMBOB_PB_OVER_H
#define PLUMBOB_PB_OVER_H

#include "ports.h"

#if defined(PLUMBOB_PORT_SSE2)
#include <emmintrin.h>
#define PB_PORT_HAS_OVER 1
/* n >= 4 floats at p (any alignment); the last four may overlap the
 * previous ones.  Nonzero when any is bad. */
static inline uint32_t pb_port_over(const float *p, uint32_t n, uint32_t limit_bits) {
    __m128i mask = _mm_set1_epi32(0x7FFFFFFF), lim = _mm_set1_epi32((int)limit_bits), acc = _mm_setzero_si128();
    uint32_t i;
    for (i = 0; i + 4u <= n; i += 4u)
        acc = _mm_or_si128(acc, _mm_sub_epi32(lim, _mm_and_si128(_mm_castps_si128(_mm_loadu_ps(p + i)), mask)));
    if (i < n)
        acc = _mm_or_si128(acc, _mm_sub_epi32(lim, _mm_and_si128(_mm_castps_si128(_mm_loadu_ps(p + n - 4u)), mask)));
    return (uint32_t)_mm_movemask_ps(_mm_castsi128_ps(acc));
}
#endif

#endif
