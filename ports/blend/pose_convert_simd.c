/* The SIMD twins of the blocked pose converters (pb_pose_to_soa_sse2 or
 * _neon, and from): a bone's ten floats are three four-float pieces, 0..3,
 * 4..7 and the overlapping 6..9 (nothing is touched past the four bones),
 * and three 4x4 transposes turn four bones' pieces into rows, or rows into
 * pieces.  Loads, shuffles and stores only: the scalar loops' bits. */
#include "kernels.h"

#if defined(PLUMBOB_PORT_SSE2) || defined(PLUMBOB_PORT_NEON)
#include "simd4.h"

#if defined(PLUMBOB_PORT_SSE2)
void pb_pose_to_soa_sse2(const float *in, uint32_t blocks, float *out)
#else
void pb_pose_to_soa_neon(const float *in, uint32_t blocks, float *out)
#endif
{
    uint32_t g;
    for (g = 0; g < blocks; g++) {
        const float *p = in + 40u * g;
        float *o = out + 40u * g;
        pb_v4 r0 = pb_v4_loadu(p), r1 = pb_v4_loadu(p + 10), r2 = pb_v4_loadu(p + 20), r3 = pb_v4_loadu(p + 30);
        pb_v4 t0 = pb_v4_loadu(p + 4), t1 = pb_v4_loadu(p + 14), t2 = pb_v4_loadu(p + 24), t3 = pb_v4_loadu(p + 34);
        pb_v4 s0 = pb_v4_loadu(p + 6), s1 = pb_v4_loadu(p + 16), s2 = pb_v4_loadu(p + 26), s3 = pb_v4_loadu(p + 36);
        pb_v4_transpose(&r0, &r1, &r2, &r3); /* rx ry rz rw */
        pb_v4_transpose(&t0, &t1, &t2, &t3); /* tx ty tz sx */
        pb_v4_transpose(&s0, &s1, &s2, &s3); /* tz sx sy sz: the last two rows */
        pb_v4_store(o, r0);
        pb_v4_store(o + 4, r1);
        pb_v4_store(o + 8, r2);
        pb_v4_store(o + 12, r3);
        pb_v4_store(o + 16, t0);
        pb_v4_store(o + 20, t1);
        pb_v4_store(o + 24, t2);
        pb_v4_store(o + 28, t3);
        pb_v4_store(o + 32, s2);
        pb_v4_store(o + 36, s3);
    }
}

#if defined(PLUMBOB_PORT_SSE2)
void pb_pose_from_soa_sse2(const float *in, uint32_t blocks, float *out)
#else
void pb_pose_from_soa_neon(const float *in, uint32_t blocks, float *out)
#endif
{
    uint32_t g;
    for (g = 0; g < blocks; g++) {
        const float *p = in + 40u * g;
        float *o = out + 40u * g;
        pb_v4 r0 = pb_v4_loadu(p), r1 = pb_v4_loadu(p + 4), r2 = pb_v4_loadu(p + 8), r3 = pb_v4_loadu(p + 12);
        pb_v4 t0 = pb_v4_loadu(p + 16), t1 = pb_v4_loadu(p + 20), t2 = pb_v4_loadu(p + 24), t3 = pb_v4_loadu(p + 28);
        pb_v4 s0 = t2, s1 = t3, s2 = pb_v4_loadu(p + 32), s3 = pb_v4_loadu(p + 36);
        pb_v4_transpose(&r0, &r1, &r2, &r3);
        pb_v4_transpose(&t0, &t1, &t2, &t3);
        pb_v4_transpose(&s0, &s1, &s2, &s3);
        /* each bone: rotation, then tx ty tz sx, then tz sx sy sz over the
         * same tz sx (equal values, stored twice) */
        pb_v4_store(o, r0);
        pb_v4_store(o + 4, t0);
        pb_v4_store(o + 6, s0);
        pb_v4_store(o + 10, r1);
        pb_v4_store(o + 14, t1);
        pb_v4_store(o + 16, s1);
        pb_v4_store(o + 20, r2);
        pb_v4_store(o + 24, t2);
        pb_v4_store(o + 26, s2);
        pb_v4_store(o + 30, r3);
        pb_v4_store(o + 34, t3);
        pb_v4_store(o + 36, s3);
    }
}
#else
typedef int pb_pose_convert_simd_unused; /* ISO C wants something in a unit */
#endif
