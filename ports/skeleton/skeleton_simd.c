/* The SIMD twin of pb_skeleton_model_scalar, written once over simd4.h and
 * compiled as pb_skeleton_model_sse2 or _neon.  A bone's local matrix is
 * built by the same scalar code (pb_mat34_trs); the product with the
 * parent's model matrix takes one row per vector: ((a0 B0 + a1 B1) + a2 B2),
 * then a3 is added in the last lane only (the other lanes add -0, which
 * changes no value, not even a -0).  Per element these are
 * pb_mat34_mul12's operations in its order, so the bits match. */
#include "kernels.h"

#if defined(PLUMBOB_PORT_SSE2) || defined(PLUMBOB_PORT_NEON)
#include "simd4.h"
#include "pb_math.h"

#if defined(PLUMBOB_PORT_SSE2)
void pb_skeleton_model_sse2(const int32_t *parent, const float *local, uint32_t count, float *model)
#else
void pb_skeleton_model_neon(const int32_t *parent, const float *local, uint32_t count, float *model)
#endif
{
    uint32_t i;
    for (i = 0; i < count; i++) {
        const float *pose = local + 10u * i;
        float m[12], *out = model + 12u * i;
        int32_t p = parent[i];
        pb_mat34_trs(pose, pose + 4, pose + 7, m);
        if (p < 0) {
            pb_v4_store(out, pb_v4_loadu(m));
            pb_v4_store(out + 4, pb_v4_loadu(m + 4));
            pb_v4_store(out + 8, pb_v4_loadu(m + 8));
        } else {
            const float *a = model + 12u * (uint32_t)p;
            pb_v4 b0 = pb_v4_loadu(m), b1 = pb_v4_loadu(m + 4), b2 = pb_v4_loadu(m + 8);
            int r;
            for (r = 0; r < 3; r++) {
                const float *ar = a + 4 * r;
                pb_v4 row = pb_v4_add(pb_v4_add(pb_v4_mul(pb_v4_set1(ar[0]), b0), pb_v4_mul(pb_v4_set1(ar[1]), b1)),
                                      pb_v4_mul(pb_v4_set1(ar[2]), b2));
                pb_v4_store(out + 4 * r, pb_v4_add(row, pb_v4_negzero3_last(ar[3])));
            }
        }
    }
}
#else
typedef int pb_skeleton_simd_unused; /* ISO C wants something in a unit */
#endif
