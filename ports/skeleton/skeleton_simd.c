/* The SIMD twin of pb_skeleton_model_scalar, written once over simd4.h and
 * compiled as pb_skeleton_model_sse2 or _neon.
 *
 * Local matrices are built four bones at a time: the four poses' 10 floats
 * are transposed into lanes, pb_mat34_trs's expression runs once per
 * element on the four lanes in its order, and the twelve element vectors
 * are transposed back into three row vectors per bone.  The product with
 * the parent's model matrix then takes one row per vector:
 * ((a0 B0 + a1 B1) + a2 B2), plus the parent row itself with lanes 0..2
 * replaced by -0 (a3 is added in the last lane only; x + -0 changes no
 * value, not even a -0).  Per element these are pb_mat34_mul12's
 * operations in its order, so the bits match.  The parent's rows come from
 * registers when it is the bone just before (a chain), else from the
 * output written earlier: the parents come first (validated). */
#include "kernels.h"

#if defined(PLUMBOB_PORT_SSE2) || defined(PLUMBOB_PORT_NEON)
#include "simd4.h"
#include "pb_math.h"

/* The local T * R * S rows of the four poses at pose (40 floats): bone k's
 * rows are rows[3k], rows[3k + 1], rows[3k + 2]. */
PB_FORCE_INLINE void pb_trs4(const float *pose, pb_v4 rows[12]) {
    pb_v4 qx = pb_v4_loadu(pose), qy = pb_v4_loadu(pose + 10), qz = pb_v4_loadu(pose + 20), qw = pb_v4_loadu(pose + 30);
    pb_v4 tx = pb_v4_loadu(pose + 4), ty = pb_v4_loadu(pose + 14), tz = pb_v4_loadu(pose + 24), sx = pb_v4_loadu(pose + 34);
    pb_v4 lo01, hi01, lo23, hi23, sy, sz; /* floats 6..9 of each pose: tz sx sy sz */
    pb_v4 one = pb_v4_set1(1.0f), two = pb_v4_set1(2.0f);
    pb_v4 xx, yy, zz, xy, xz, yz, wx, wy, wz, m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11;
    pb_v4_zip(pb_v4_loadu(pose + 6), pb_v4_loadu(pose + 16), &lo01, &hi01);
    pb_v4_zip(pb_v4_loadu(pose + 26), pb_v4_loadu(pose + 36), &lo23, &hi23);
    (void)lo01;
    (void)lo23;
    sy = pb_v4_lows(hi01, hi23);
    sz = pb_v4_highs(hi01, hi23);
    pb_v4_transpose(&qx, &qy, &qz, &qw); /* x, y, z, w of the four bones */
    pb_v4_transpose(&tx, &ty, &tz, &sx); /* translation x y z, scale x */
    xx = pb_v4_mul(qx, qx); yy = pb_v4_mul(qy, qy); zz = pb_v4_mul(qz, qz);
    xy = pb_v4_mul(qx, qy); xz = pb_v4_mul(qx, qz); yz = pb_v4_mul(qy, qz);
    wx = pb_v4_mul(qw, qx); wy = pb_v4_mul(qw, qy); wz = pb_v4_mul(qw, qz);
    m0 = pb_v4_mul(pb_v4_sub(one, pb_v4_mul(two, pb_v4_add(yy, zz))), sx);
    m1 = pb_v4_mul(pb_v4_mul(two, pb_v4_sub(xy, wz)), sy);
    m2 = pb_v4_mul(pb_v4_mul(two, pb_v4_add(xz, wy)), sz);
    m3 = tx;
    m4 = pb_v4_mul(pb_v4_mul(two, pb_v4_add(xy, wz)), sx);
    m5 = pb_v4_mul(pb_v4_sub(one, pb_v4_mul(two, pb_v4_add(xx, zz))), sy);
    m6 = pb_v4_mul(pb_v4_mul(two, pb_v4_sub(yz, wx)), sz);
    m7 = ty;
    m8 = pb_v4_mul(pb_v4_mul(two, pb_v4_sub(xz, wy)), sx);
    m9 = pb_v4_mul(pb_v4_mul(two, pb_v4_add(yz, wx)), sy);
    m10 = pb_v4_mul(pb_v4_sub(one, pb_v4_mul(two, pb_v4_add(xx, yy))), sz);
    m11 = tz;
    pb_v4_transpose(&m0, &m1, &m2, &m3);   /* row 0 of bones 0 1 2 3 */
    pb_v4_transpose(&m4, &m5, &m6, &m7);   /* row 1 */
    pb_v4_transpose(&m8, &m9, &m10, &m11); /* row 2 */
    rows[0] = m0; rows[1] = m4; rows[2] = m8;
    rows[3] = m1; rows[4] = m5; rows[5] = m9;
    rows[6] = m2; rows[7] = m6; rows[8] = m10;
    rows[9] = m3; rows[10] = m7; rows[11] = m11;
}

#if defined(PLUMBOB_PORT_SSE2)
void pb_skeleton_model_sse2(const int32_t *parent, const float *local, uint32_t count, float *model)
#else
void pb_skeleton_model_neon(const int32_t *parent, const float *local, uint32_t count, float *model)
#endif
{
    static const float klast[4] = {0.0f, 0.0f, 0.0f, 1.0f};
    const pb_m4 last = pb_v4_gt(pb_v4_loadu(klast), pb_v4_set1(0.0f)); /* lane 3 */
    const pb_v4 negz = pb_v4_set1(-0.0f);
    pb_v4 a0 = negz, a1 = negz, a2 = negz; /* the previous bone's model rows */
    uint32_t g;
    for (g = 0; g < count; g += 4) {
        pb_v4 rows[12];
        uint32_t k, n = count - g < 4 ? count - g : 4;
        if (n == 4) {
            pb_trs4(local + 10u * g, rows);
        } else { /* the last bones, padded with zeros (their lanes are not stored) */
            float pad[40];
            for (k = 0; k < 40; k++) pad[k] = k < 10u * n ? local[10u * g + k] : 0.0f;
            pb_trs4(pad, rows);
        }
        for (k = 0; k < n; k++) {
            uint32_t i = g + k;
            int32_t p = parent[i];
            pb_v4 b0 = rows[3 * k], b1 = rows[3 * k + 1], b2 = rows[3 * k + 2];
            float *out = model + 12u * i;
            if (p >= 0) {
                if ((uint32_t)p + 1u != i) { /* not the bone just before: its rows as written */
                    const float *pa = model + 12u * (uint32_t)p;
                    a0 = pb_v4_loadu(pa);
                    a1 = pb_v4_loadu(pa + 4);
                    a2 = pb_v4_loadu(pa + 8);
                }
                a0 = pb_v4_add(pb_v4_add(pb_v4_add(pb_v4_mul(pb_v4_splat(a0, 0), b0), pb_v4_mul(pb_v4_splat(a0, 1), b1)),
                                         pb_v4_mul(pb_v4_splat(a0, 2), b2)),
                               pb_v4_select(last, a0, negz));
                a1 = pb_v4_add(pb_v4_add(pb_v4_add(pb_v4_mul(pb_v4_splat(a1, 0), b0), pb_v4_mul(pb_v4_splat(a1, 1), b1)),
                                         pb_v4_mul(pb_v4_splat(a1, 2), b2)),
                               pb_v4_select(last, a1, negz));
                a2 = pb_v4_add(pb_v4_add(pb_v4_add(pb_v4_mul(pb_v4_splat(a2, 0), b0), pb_v4_mul(pb_v4_splat(a2, 1), b1)),
                                         pb_v4_mul(pb_v4_splat(a2, 2), b2)),
                               pb_v4_select(last, a2, negz));
            } else {
                a0 = b0;
                a1 = b1;
                a2 = b2;
            }
            pb_v4_store(out, a0);
            pb_v4_store(out + 4, a1);
            pb_v4_store(out + 8, a2);
        }
    }
}
#else
typedef int pb_skeleton_simd_unused; /* ISO C wants something in a unit */
#endif
