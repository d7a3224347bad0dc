/* Math without libm: square roots, quaternions, 3x4 matrices. */
#include "test.h"
#include "pb_math.h"

void test_math_sqrt(void) {
    static const float v[] = {1.0f, 2.0f, 4.0f, 0.25f, 1e-30f, 1e30f, 3.0e38f, 1.5e-40f, 12345.678f};
    /* square roots of the float values above (computed in double precision) */
    static const double want[] = {1.0, 1.414213562, 2.0, 0.5, 1.000000002e-15, 1.000000008e+15,
                                  1.732050809e+19, 1.224747292e-20, 111.1111054};
    size_t i;
    for (i = 0; i < sizeof v / sizeof v[0]; i++) {
        float s = plumbob_sqrtf(v[i]);
        float r = plumbob_rsqrtf(v[i]);
        CHECK_NEAR(s / want[i], 1.0, 3e-7);
        CHECK_NEAR(r * want[i], 1.0, 1e-6);
        t_digest_f32(s);
        t_digest_f32(r);
    }
    CHECK(plumbob_sqrtf(0.0f) == 0.0f);
    CHECK(plumbob_sqrtf(-4.0f) == 0.0f);
    CHECK(plumbob_rsqrtf(0.0f) == 0.0f);
    CHECK(plumbob_rsqrtf(-1.0f) == 0.0f);
    {
        volatile float zero = 0.0f;
        float nan = zero / zero, inf = 1.0f / zero;
        CHECK(plumbob_sqrtf(nan) == 0.0f);
        CHECK(plumbob_sqrtf(inf) == inf);
        CHECK(plumbob_rsqrtf(inf) == 0.0f);
    }
    /* exact squares come back exact */
    for (i = 1; i <= 2000; i++) {
        float x = (float)i;
        CHECK(plumbob_sqrtf(x * x) == x);
    }
}

/* pb_sqrtf_rn, the square root skinning's normals use (so that every
 * port's sqrt instruction gives the reference's bits), is correctly
 * rounded: an independent exact test in double precision, where the points
 * half way to r's neighbours and their squares are exact, over every exponent (a stride
 * through the positive floats), the subnormals' edges and exact squares.
 * With the stride at 1 (all 2^31 - 2^23 positive finite floats) it found
 * none wrong, and pb_sqrtf_rn equal to SSE's sqrtss on every one. */
static int sqrt_rn_wrong(uint32_t bits) {
    float x = pb_f32_from_bits(bits), r = pb_sqrtf_rn(x);
    uint32_t rb = pb_bits_from_f32(r);
    double below, above, lo, hi;
    if (!(rb >= 0x00800000u && rb < 0x7F800000u)) return 1;
    /* half way to each neighbour (the one below is nearer when r is a
     * power of two), exact in double, as are the squares */
    below = ((double)r + (double)pb_f32_from_bits(rb - 1u)) * 0.5;
    above = ((double)r + (double)pb_f32_from_bits(rb + 1u)) * 0.5;
    lo = below * below;
    hi = above * above;
    return !(lo < (double)x && (double)x < hi);
}

void test_math_sqrt_correctly_rounded(void) {
    static const uint32_t edges[] = {1u, 2u, 3u, 0x007FFFFFu, 0x00800000u, 0x00800001u, 0x3F800000u, 0x3F800001u,
                                     0x3F7FFFFFu, 0x40800000u, 0x7F7FFFFFu, 0x7F7FFFFEu, 0x00400000u, 0x00000400u};
    uint32_t bits, wrong = 0, i;
    for (bits = 1; bits < 0x7F800000u; bits += 65521u) wrong += (uint32_t)sqrt_rn_wrong(bits);
    for (i = 0; i < sizeof edges / sizeof edges[0]; i++) wrong += (uint32_t)sqrt_rn_wrong(edges[i]);
    CHECK_EQ(wrong, 0u);
    for (i = 1; i <= 4096; i++) { /* exact squares come back exact */
        float x = (float)i;
        CHECK(pb_sqrtf_rn(x * x) == x);
    }
    CHECK(pb_sqrtf_rn(2.0f) == pb_f32_from_bits(0x3FB504F3u)); /* 1.41421354 */
    CHECK(pb_normal_scale(4.0f) == 0.5f);
    CHECK(pb_normal_scale(0.0f) == 0.0f);
    CHECK(pb_normal_scale(-1.0f) == 0.0f);
    {
        volatile float zero = 0.0f;
        CHECK(pb_normal_scale(zero / zero) == 0.0f);
        CHECK(pb_normal_scale(1.0f / zero) == 0.0f);
    }
    t_digest_u32(pb_bits_from_f32(pb_normal_scale(3.0f)));
}

void test_math_quat(void) {
    plumbob_quat q = {1.0f, 2.0f, 3.0f, 4.0f}, z = {0, 0, 0, 0}, n;
    plumbob_vec3 v = {1.0f, 0.0f, 0.0f}, r;
    n = plumbob_quat_normalize(q);
    CHECK_NEAR(n.x * n.x + n.y * n.y + n.z * n.z + n.w * n.w, 1.0, 1e-6);
    CHECK_NEAR(n.x, 0.18257418583, 1e-7);
    CHECK_NEAR(n.w, 0.73029674334, 1e-7);
    n = plumbob_quat_normalize(z);
    CHECK(n.x == 0.0f && n.y == 0.0f && n.z == 0.0f && n.w == 1.0f);
    {
        volatile float zero = 0.0f;
        plumbob_quat bad = {1.0f / zero, 0, 0, 1};
        n = plumbob_quat_normalize(bad);
        CHECK(n.w == 1.0f && n.x == 0.0f);
    }
    /* 90 degrees about z maps x to y */
    q.x = 0.0f; q.y = 0.0f; q.z = 0.70710678f; q.w = 0.70710678f;
    r = plumbob_quat_rotate(q, v);
    CHECK_NEAR(r.x, 0.0, 1e-6);
    CHECK_NEAR(r.y, 1.0, 1e-6);
    CHECK_NEAR(r.z, 0.0, 1e-6);
    /* two quarter turns make a half turn */
    n = plumbob_quat_mul(q, q);
    CHECK_NEAR(n.z, 1.0, 1e-6);
    CHECK_NEAR(n.w, 0.0, 1e-6);
    r = plumbob_quat_rotate(n, v);
    CHECK_NEAR(r.x, -1.0, 1e-6);
    /* mul order: a*b applies b first (x-turn then z-turn) */
    {
        plumbob_quat qx = {0.70710678f, 0, 0, 0.70710678f};
        plumbob_vec3 y = {0, 1, 0};
        r = plumbob_quat_rotate(plumbob_quat_mul(q, qx), y); /* y -x-> z -z-> z */
        CHECK_NEAR(r.z, 1.0, 1e-6);
        r = plumbob_quat_rotate(plumbob_quat_mul(qx, q), y); /* y -z-> -x -x-> -x */
        CHECK_NEAR(r.x, -1.0, 1e-6);
    }
    t_digest_f32(n.z);
    t_digest_f32(r.x);
}

void test_math_nlerp_shorter_arc(void) {
    plumbob_quat a = {0, 0, 0, 1}, b = {0, 0, 0.70710678f, 0.70710678f}, nb, m;
    m = plumbob_quat_nlerp(a, b, 0.5f);
    /* halfway to 90 degrees about z is 45 degrees about z */
    CHECK_NEAR(m.z, 0.38268343, 1e-6);
    CHECK_NEAR(m.w, 0.92387953, 1e-6);
    /* -b is the same rotation: the shorter arc gives the same answer */
    nb.x = -b.x; nb.y = -b.y; nb.z = -b.z; nb.w = -b.w;
    m = plumbob_quat_nlerp(a, nb, 0.5f);
    CHECK_NEAR(m.z, 0.38268343, 1e-6);
    CHECK_NEAR(m.w, 0.92387953, 1e-6);
    m = plumbob_quat_nlerp(a, b, 0.0f);
    CHECK(m.w == 1.0f);
    m = plumbob_quat_nlerp(a, nb, 1.0f);
    CHECK_NEAR(m.z, 0.70710678, 1e-6);
    CHECK_NEAR(m.w, 0.70710678, 1e-6);
    {
        int i;
        for (i = 0; i <= 16; i++) {
            m = plumbob_quat_nlerp(a, nb, (float)i / 16.0f);
            CHECK_NEAR(m.x * m.x + m.y * m.y + m.z * m.z + m.w * m.w, 1.0, 2e-6);
            CHECK(m.w > 0.0f);
            t_digest_f32(m.z);
            t_digest_f32(m.w);
        }
    }
}

void test_math_mat34(void) {
    plumbob_quat q = {0, 0, 0.70710678f, 0.70710678f};
    plumbob_vec3 t = {10, 20, 30}, p = {1, 2, 3}, r, r2;
    plumbob_mat34 m = plumbob_mat34_from_rt(q, t), id = plumbob_mat34_identity(), mm, inv;
    int i, j;
    /* rotate then translate */
    r = plumbob_mat34_transform_point(&m, p);
    CHECK_NEAR(r.x, 10.0 - 2.0, 1e-5);
    CHECK_NEAR(r.y, 20.0 + 1.0, 1e-5);
    CHECK_NEAR(r.z, 33.0, 1e-5);
    r = plumbob_mat34_transform_vector(&m, p);
    CHECK_NEAR(r.x, -2.0, 1e-6);
    CHECK_NEAR(r.y, 1.0, 1e-6);
    /* the rotation part agrees with quat_rotate */
    r2 = plumbob_quat_rotate(q, p);
    CHECK_NEAR(r.x, r2.x, 1e-6);
    CHECK_NEAR(r.y, r2.y, 1e-6);
    CHECK_NEAR(r.z, r2.z, 1e-6);
    /* identity is neutral */
    mm = plumbob_mat34_mul(&id, &m);
    for (i = 0; i < 3; i++)
        for (j = 0; j < 4; j++) CHECK(mm.m[i][j] == m.m[i][j]);
    /* composing with the inverse (R^T, -R^T t) gives identity */
    {
        plumbob_quat qi = {-q.x, -q.y, -q.z, q.w};
        plumbob_vec3 ti = plumbob_quat_rotate(qi, t);
        ti.x = -ti.x; ti.y = -ti.y; ti.z = -ti.z;
        inv = plumbob_mat34_from_rt(qi, ti);
    }
    mm = plumbob_mat34_mul(&m, &inv);
    for (i = 0; i < 3; i++)
        for (j = 0; j < 4; j++) CHECK_NEAR(mm.m[i][j], id.m[i][j], 1e-5);
    /* mul applies the right operand first */
    mm = plumbob_mat34_mul(&m, &m);
    r = plumbob_mat34_transform_point(&mm, p);
    r2 = plumbob_mat34_transform_point(&m, plumbob_mat34_transform_point(&m, p));
    CHECK_NEAR(r.x, r2.x, 1e-4);
    CHECK_NEAR(r.y, r2.y, 1e-4);
    CHECK_NEAR(r.z, r2.z, 1e-4);
    for (i = 0; i < 3; i++)
        for (j = 0; j < 4; j++) t_digest_f32(mm.m[i][j]);
    {
        /* Operands that do not commute, entries set by hand: A turns 90
         * degrees about z and moves (10, 20, 30), B turns 90 degrees about x
         * and moves (1, 2, 3).  A*B = [Rz Rx | Rz (1,2,3) + (10,20,30)] and
         * B*A = [Rx Rz | Rx (10,20,30) + (1,2,3)], worked out by hand. */
        static const float a[3][4] = {{0, -1, 0, 10}, {1, 0, 0, 20}, {0, 0, 1, 30}};
        static const float b[3][4] = {{1, 0, 0, 1}, {0, 0, -1, 2}, {0, 1, 0, 3}};
        static const float ab[3][4] = {{0, 0, 1, 8}, {1, 0, 0, 21}, {0, 1, 0, 33}};
        static const float ba[3][4] = {{0, -1, 0, 11}, {0, 0, -1, -28}, {1, 0, 0, 23}};
        plumbob_mat34 ma, mb, p1, p2;
        for (i = 0; i < 3; i++)
            for (j = 0; j < 4; j++) {
                ma.m[i][j] = a[i][j];
                mb.m[i][j] = b[i][j];
            }
        p1 = plumbob_mat34_mul(&ma, &mb);
        p2 = plumbob_mat34_mul(&mb, &ma);
        for (i = 0; i < 3; i++)
            for (j = 0; j < 4; j++) {
                CHECK(p1.m[i][j] == ab[i][j]);
                CHECK(p2.m[i][j] == ba[i][j]);
            }
    }
}
