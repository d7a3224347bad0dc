/* The SIMD twin of pb_skeleton_model_scalar, written once over simd4.h and
 * compiled as pb_skeleton_model_sse2 or _neon.  A bone's local matrix is
 * built by the same scalar code; the product with the parent's model
 * matrix takes one row per vector: ((a0 B0 + a1 B1) + a2 B2), then a3 is
 * added in the last lane only (the other lanes add -0, which changes no
 * value, not even a -0).  Per element these are plumbob_mat34_mul's
 * operations in its order, so the bits match. */
#include "kernels.h"

#if defined(PLUMBOB_PORT_SSE2) || defined(PLUMBOB_PORT_NEON)
#include "simd4.h"

#if defined(PLUMBOB_PORT_SSE2)
void pb_skeleton_model_sse2(const int32_t *parent, const plumbob_bone_pose *local, uint32_t count,
                            plumbob_mat34 *model)
#else
void pb_skeleton_model_neon(const int32_t *parent, const plumbob_bone_pose *local, uint32_t count,
                            plumbob_mat34 *model)
#endif
{
    uint32_t i;
    for (i = 0; i < count; i++) {
        plumbob_mat34 m = plumbob_mat34_from_pose(&local[i]);
        int32_t p = parent[i];
        if (p < 0) {
            model[i] = m;
        } else {
            const plumbob_mat34 *a = &model[p];
            pb_v4 b0 = pb_v4_loadu(m.m[0]), b1 = pb_v4_loadu(m.m[1]), b2 = pb_v4_loadu(m.m[2]);
            int r;
            for (r = 0; r < 3; r++) {
                pb_v4 row = pb_v4_add(pb_v4_add(pb_v4_mul(pb_v4_set1(a->m[r][0]), b0),
                                                pb_v4_mul(pb_v4_set1(a->m[r][1]), b1)),
                                      pb_v4_mul(pb_v4_set1(a->m[r][2]), b2));
                pb_v4_store(model[i].m[r], pb_v4_add(row, pb_v4_negzero3_last(a->m[r][3])));
            }
        }
    }
}
#else
typedef int pb_skeleton_simd_unused; /* ISO C wants something in a unit */
#endif
