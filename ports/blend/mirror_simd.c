/* The SIMD twin of pb_pose_mirror_scalar, written once over simd4.h and
 * compiled as pb_pose_mirror_sse2 or _neon.  A bone's ten floats are
 * three four-float loads (0..3, 4..7 and the overlapping 6..9, so nothing
 * is read past the bone) and three stores; the sign flips are xors with
 * -0 lanes, the scalar negation's exact bits. */
#include "kernels.h"

#if defined(PLUMBOB_PORT_SSE2) || defined(PLUMBOB_PORT_NEON)
#include "simd4.h"

#if defined(PLUMBOB_PORT_SSE2)
void pb_pose_mirror_sse2(const int32_t *opposite, const float *in, uint32_t count, float *out)
#else
void pb_pose_mirror_neon(const int32_t *opposite, const float *in, uint32_t count, float *out)
#endif
{
    static const float krot[4] = {0.0f, -0.0f, -0.0f, 0.0f}, ktr[4] = {-0.0f, 0.0f, 0.0f, 0.0f};
    const pb_v4 mrot = pb_v4_loadu(krot), mtr = pb_v4_loadu(ktr);
    uint32_t k;
    for (k = 0; k < count; k++) {
        const float *p = in + 10u * (uint32_t)opposite[k];
        float *o = out + 10u * k;
        pb_v4 r = pb_v4_loadu(p), t = pb_v4_loadu(p + 4), s = pb_v4_loadu(p + 6);
        pb_v4_store(o, pb_v4_xor(r, mrot));
        pb_v4_store(o + 6, s); /* tz sx sy sz; o[6..7] written again below, the same values */
        pb_v4_store(o + 4, pb_v4_xor(t, mtr));
    }
}
#else
typedef int pb_pose_mirror_simd_unused; /* ISO C wants something in a unit */
#endif
