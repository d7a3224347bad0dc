/* The SIMD twin of pb_skeleton_model_scalar, written once over simd4.h and
 * compiled as pb_skeleton_model_sse2 or _neon.
 *
 * Local matrices are built four bones at a time: the four poses' 10 floats
 * are transposed into lanes, pb_mat34_trs's expression runs once per
 * element on the four lanes in its order, and the twelve element vectors
 * are transposed back into three row vectors per bone (blocked poses,
 * plumbob_pose_soa, are in lanes already).  The product with
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

/* The local T * R * S rows of four bones from their poses in lanes
 * (pb_mat34_trs's expression on each lane): bone k's rows are rows[3k],
 * rows[3k + 1], rows[3k + 2]. */
PB_FORCE_INLINE void pb_trs_lanes(pb_v4 qx, pb_v4 qy, pb_v4 qz, pb_v4 qw, pb_v4 tx, pb_v4 ty, pb_v4 tz, pb_v4 sx,
                                  pb_v4 sy, pb_v4 sz, pb_v4 rows[12]) {
    pb_v4 one = pb_v4_set1(1.0f), two = pb_v4_set1(2.0f);
    pb_v4 xx, yy, zz, xy, xz, yz, wx, wy, wz, m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11;
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

/* The same from four poses of 10 floats at pose (40 floats): transposed
 * into lanes first. */
PB_FORCE_INLINE void pb_trs4(const float *pose, pb_v4 rows[12]) {
    pb_v4 qx = pb_v4_loadu(pose), qy = pb_v4_loadu(pose + 10), qz = pb_v4_loadu(pose + 20), qw = pb_v4_loadu(pose + 30);
    pb_v4 tx = pb_v4_loadu(pose + 4), ty = pb_v4_loadu(pose + 14), tz = pb_v4_loadu(pose + 24), sx = pb_v4_loadu(pose + 34);
    pb_v4 lo01, hi01, lo23, hi23; /* floats 6..9 of each pose: tz sx sy sz */
    pb_v4_zip(pb_v4_loadu(pose + 6), pb_v4_loadu(pose + 16), &lo01, &hi01);
    pb_v4_zip(pb_v4_loadu(pose + 26), pb_v4_loadu(pose + 36), &lo23, &hi23);
    (void)lo01;
    (void)lo23;
    pb_v4_transpose(&qx, &qy, &qz, &qw); /* x, y, z, w of the four bones */
    pb_v4_transpose(&tx, &ty, &tz, &sx); /* translation x y z, scale x */
    pb_trs_lanes(qx, qy, qz, qw, tx, ty, tz, sx, pb_v4_lows(hi01, hi23), pb_v4_highs(hi01, hi23), rows);
}

/* The model rows of bones g .. g + n - 1 (n <= 4) from their local rows:
 * the product with the parent's, whose rows are *a0 *a1 *a2 (the bone just
 * before, kept in registers) or in model.  Leaves bone g + n - 1's model
 * rows in *a0 *a1 *a2. */
PB_FORCE_INLINE void pb_model_group(const int32_t *parent, const pb_v4 rows[12], uint32_t g, uint32_t n, float *model,
                                    pb_v4 *a0, pb_v4 *a1, pb_v4 *a2) {
    static const float klast[4] = {0.0f, 0.0f, 0.0f, 1.0f};
    const pb_m4 last = pb_v4_gt(pb_v4_loadu(klast), pb_v4_set1(0.0f)); /* lane 3 */
    const pb_v4 negz = pb_v4_set1(-0.0f);
    pb_v4 r0 = *a0, r1 = *a1, r2 = *a2;
    uint32_t k;
    for (k = 0; k < n; k++) {
        uint32_t i = g + k;
        int32_t p = parent[i];
        pb_v4 b0 = rows[3 * k], b1 = rows[3 * k + 1], b2 = rows[3 * k + 2];
        float *out = model + 12u * i;
        if (p >= 0) {
            if ((uint32_t)p + 1u != i) { /* not the bone just before: its rows as written */
                const float *pa = model + 12u * (uint32_t)p;
                r0 = pb_v4_loadu(pa);
                r1 = pb_v4_loadu(pa + 4);
                r2 = pb_v4_loadu(pa + 8);
            }
            r0 = pb_v4_add(pb_v4_add(pb_v4_add(pb_v4_mul(pb_v4_splat(r0, 0), b0), pb_v4_mul(pb_v4_splat(r0, 1), b1)),
                                     pb_v4_mul(pb_v4_splat(r0, 2), b2)),
                           pb_v4_select(last, r0, negz));
            r1 = pb_v4_add(pb_v4_add(pb_v4_add(pb_v4_mul(pb_v4_splat(r1, 0), b0), pb_v4_mul(pb_v4_splat(r1, 1), b1)),
                                     pb_v4_mul(pb_v4_splat(r1, 2), b2)),
                           pb_v4_select(last, r1, negz));
            r2 = pb_v4_add(pb_v4_add(pb_v4_add(pb_v4_mul(pb_v4_splat(r2, 0), b0), pb_v4_mul(pb_v4_splat(r2, 1), b1)),
                                     pb_v4_mul(pb_v4_splat(r2, 2), b2)),
                           pb_v4_select(last, r2, negz));
        } else {
            r0 = b0;
            r1 = b1;
            r2 = b2;
        }
        pb_v4_store(out, r0);
        pb_v4_store(out + 4, r1);
        pb_v4_store(out + 8, r2);
    }
    *a0 = r0;
    *a1 = r1;
    *a2 = r2;
}

#if defined(PLUMBOB_PORT_SSE2)
void pb_skeleton_model_sse2(const int32_t *parent, const float *local, uint32_t count, float *model)
#else
void pb_skeleton_model_neon(const int32_t *parent, const float *local, uint32_t count, float *model)
#endif
{
    pb_v4 a0 = pb_v4_set1(0.0f), a1 = a0, a2 = a0; /* the previous bone's model rows */
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
        pb_model_group(parent, rows, g, n, model, &a0, &a1, &a2);
    }
}

/* The blocked twin (pb_skeleton_model_soa_scalar's bits): a block is the
 * four bones' poses in lanes already; padding lanes are computed, never
 * stored. */
#if defined(PLUMBOB_PORT_SSE2)
void pb_skeleton_model_soa_sse2(const int32_t *parent, const plumbob_pose_soa *local, uint32_t count, float *model)
#else
void pb_skeleton_model_soa_neon(const int32_t *parent, const plumbob_pose_soa *local, uint32_t count, float *model)
#endif
{
    pb_v4 a0 = pb_v4_set1(0.0f), a1 = a0, a2 = a0;
    uint32_t g;
    for (g = 0; g < count; g += 4) {
        const plumbob_pose_soa *b = local + g / 4u;
        pb_v4 rows[12];
        pb_trs_lanes(pb_v4_loadu(b->rx), pb_v4_loadu(b->ry), pb_v4_loadu(b->rz), pb_v4_loadu(b->rw), pb_v4_loadu(b->tx),
                     pb_v4_loadu(b->ty), pb_v4_loadu(b->tz), pb_v4_loadu(b->sx), pb_v4_loadu(b->sy), pb_v4_loadu(b->sz), rows);
        pb_model_group(parent, rows, g, count - g < 4 ? count - g : 4, model, &a0, &a1, &a2);
    }
}
#else
typedef int pb_skeleton_simd_unused; /* ISO C wants something in a unit */
#endif
