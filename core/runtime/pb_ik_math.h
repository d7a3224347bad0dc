/* Internal: the small vector and rotation math the IK and root-motion jobs
 * share (Chapter 21).  Every normalization has a fallback, so degenerate
 * input (a zero-length bone, a target on the joint, parallel axes) gives a
 * fixed, finite answer instead of a NaN. */
#ifndef PLUMBOB_PB_IK_MATH_H
#define PLUMBOB_PB_IK_MATH_H

#include "plumbob/runtime.h"
#include "pb_math.h"
#include "pb_sqrt.h"

/* Squared lengths below this (1e-6 m squared) count as zero: no direction. */
#define PB_IK_EPS2 1e-12f

static inline bool pb_ik_finite(float x) { return (pb_bits_from_f32(x) & 0x7F800000u) != 0x7F800000u; }
/* Finite and within 1e15 (so products of two stay finite), checked on the
 * bits without a branch: |x|'s bits are at most 1e15's exactly when
 * 1e15's bits minus them does not wrap (NaN and the infinities are above),
 * so a check ORs the differences of all its values and tests the top bit
 * once (a job checks 30 to 45 numbers). */
#define PB_IK_LIMIT_BITS 0x58635FA9u /* 1e15f */
static inline uint32_t pb_ik_over(float x) { return PB_IK_LIMIT_BITS - (pb_bits_from_f32(x) & 0x7FFFFFFFu); }
static inline bool pb_ik_in_range(float x) { return (pb_ik_over(x) >> 31) == 0u; }
static inline uint32_t pb_ik_over3(plumbob_vec3 v) { return pb_ik_over(v.x) | pb_ik_over(v.y) | pb_ik_over(v.z); }
static inline uint32_t pb_ik_over_mat(const plumbob_mat34 *m) {
    uint32_t bad = 0;
    int r, c;
    for (r = 0; r < 3; r++)
        for (c = 0; c < 4; c++) bad |= pb_ik_over(m->m[r][c]);
    return bad;
}
static inline bool pb_ik_sane_mat(const plumbob_mat34 *m) { return (pb_ik_over_mat(m) >> 31) == 0u; }
static inline bool pb_ik_sane3(plumbob_vec3 v) { return (pb_ik_over3(v) >> 31) == 0u; }

static inline plumbob_vec3 pb_v3(float x, float y, float z) {
    plumbob_vec3 v;
    v.x = x; v.y = y; v.z = z;
    return v;
}
static inline plumbob_vec3 pb_v3_add(plumbob_vec3 a, plumbob_vec3 b) { return pb_v3(a.x + b.x, a.y + b.y, a.z + b.z); }
static inline plumbob_vec3 pb_v3_sub(plumbob_vec3 a, plumbob_vec3 b) { return pb_v3(a.x - b.x, a.y - b.y, a.z - b.z); }
static inline plumbob_vec3 pb_v3_scale(plumbob_vec3 a, float s) { return pb_v3(a.x * s, a.y * s, a.z * s); }
static inline float pb_v3_dot(plumbob_vec3 a, plumbob_vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static inline plumbob_vec3 pb_v3_cross(plumbob_vec3 a, plumbob_vec3 b) {
    return pb_v3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
/* sqrt(x) and 1/sqrt(x), correctly rounded (pb_sqrt.h: the port's
 * instruction or pb_sqrtf_rn, the same bits everywhere) and then one
 * correctly rounded divide: a solve takes a dozen, and this is a third of
 * pb_rsqrtf's time.  0 for x <= 0 or NaN; +inf gives +inf and 0. */
static inline float pb_ik_sqrt(float x) {
    if (!(x > 0.0f)) return 0.0f;
    return x > FLT_MAX ? x : pb_port_sqrtf(x);
}
static inline float pb_ik_rsqrt(float x) {
    if (!(x > 0.0f) || x > FLT_MAX) return 0.0f;
    return 1.0f / pb_port_sqrtf(x);
}

/* 1/sqrt(l2) for a squared length that is usually 1 (a rotation's column,
 * a unit quaternion): 1 when within 2e-7 of it, where the root would
 * change nothing a float keeps. */
static inline float pb_ik_inv_len(float l2) {
    return (l2 > 0.9999998f && l2 < 1.0000002f) ? 1.0f : pb_ik_rsqrt(l2);
}

/* v / |v|, or `fallback` when v is (nearly) zero. */
static inline plumbob_vec3 pb_v3_unit_or(plumbob_vec3 v, plumbob_vec3 fallback) {
    float l2 = pb_v3_dot(v, v);
    if (!(l2 > PB_IK_EPS2)) return fallback;
    return pb_v3_scale(v, pb_ik_inv_len(l2));
}

/* A unit vector perpendicular to unit u (fixed choice). */
static inline plumbob_vec3 pb_v3_any_perp(plumbob_vec3 u) {
    plumbob_vec3 a = (u.x * u.x < 0.5f) ? pb_v3(1.0f, 0.0f, 0.0f) : pb_v3(0.0f, 1.0f, 0.0f);
    return pb_v3_unit_or(pb_v3_cross(u, a), pb_v3(0.0f, 0.0f, 1.0f));
}

static inline plumbob_quat pb_q(float x, float y, float z, float w) {
    plumbob_quat q;
    q.x = x; q.y = y; q.z = z; q.w = w;
    return q;
}
static inline plumbob_quat pb_q_conj(plumbob_quat q) { return pb_q(-q.x, -q.y, -q.z, q.w); }
/* a b (b first), as plumbob_quat_mul, inlined */
static inline plumbob_quat pb_q_mul(plumbob_quat a, plumbob_quat b) {
    return pb_q(a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z);
}
/* q applied to v, as plumbob_quat_rotate, inlined */
static inline plumbob_vec3 pb_q_rot(plumbob_quat q, plumbob_vec3 v) {
    float tx = 2.0f * (q.y * v.z - q.z * v.y), ty = 2.0f * (q.z * v.x - q.x * v.z), tz = 2.0f * (q.x * v.y - q.y * v.x);
    return pb_v3(v.x + q.w * tx + (q.y * tz - q.z * ty), v.y + q.w * ty + (q.z * tx - q.x * tz),
                 v.z + q.w * tz + (q.x * ty - q.y * tx));
}
static inline plumbob_quat pb_q_unit(plumbob_quat q) {
    float l2 = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
    float s;
    if (!(l2 > 1e-30f) || l2 > FLT_MAX) return pb_q(0.0f, 0.0f, 0.0f, 1.0f);
    s = pb_ik_inv_len(l2);
    return pb_q(q.x * s, q.y * s, q.z * s, q.w * s);
}

/* (u x v, 1 + u.v) normalized: the shortest rotation from unit u to unit
 * v, well conditioned while the angle is at most about 90 degrees. */
static inline plumbob_quat pb_q_arc(plumbob_vec3 u, plumbob_vec3 v) {
    plumbob_vec3 c = pb_v3_cross(u, v);
    return pb_q_unit(pb_q(c.x, c.y, c.z, 1.0f + pb_v3_dot(u, v)));
}

/* The shortest rotation taking unit u to unit v; when they are opposite,
 * half a turn about an axis across u (pb_v3_any_perp's).  Past 154
 * degrees the axis u x v loses digits as v nears -u, so the turn goes in
 * two well-conditioned steps through w, v's part across u: it still takes
 * u onto v to float precision.  (Below, the one-step axis keeps its
 * digits: the cross product is at least 0.43 long.) */
static inline plumbob_quat pb_q_from_to(plumbob_vec3 u, plumbob_vec3 v) {
    float d = pb_v3_dot(u, v);
    plumbob_vec3 w;
    if (d > -0.9f) return pb_q_arc(u, v);
    w = pb_v3_unit_or(pb_v3_sub(v, pb_v3_scale(u, d)), pb_v3_any_perp(u));
    return pb_q_unit(pb_q_mul(pb_q_arc(w, v), pb_q_arc(u, w)));
}

/* The rotation about unit k taking unit u to unit v, both across k: from
 * the angle's cosine c = u.v and sine s = (u x v).k, as (s k, 1 + c) or,
 * past 90 degrees, (k (1 - c), s): both are the half-angle quaternion
 * scaled, each well conditioned on its side, and the axis is k exactly
 * (a turn about k keeps every point of k in place). */
static inline plumbob_quat pb_q_about_cs(plumbob_vec3 k, float c, float s, float len) {
    if (c >= 0.0f) return pb_q_unit(pb_q(k.x * s, k.y * s, k.z * s, len + c));
    return pb_q_unit(pb_q(k.x * (len - c), k.y * (len - c), k.z * (len - c), s));
}
static inline plumbob_quat pb_q_about(plumbob_vec3 k, plumbob_vec3 u, plumbob_vec3 v) {
    return pb_q_about_cs(k, pb_v3_dot(u, v), pb_v3_dot(pb_v3_cross(u, v), k), 1.0f);
}
/* The same for u and v of any nonzero length: c and s are then scaled by
 * |u| |v|, and so is the 1 of the half-angle forms. */
static inline plumbob_quat pb_q_about_any(plumbob_vec3 k, plumbob_vec3 u, plumbob_vec3 v) {
    return pb_q_about_cs(k, pb_v3_dot(u, v), pb_v3_dot(pb_v3_cross(u, v), k),
                         pb_ik_sqrt(pb_v3_dot(u, u) * pb_v3_dot(v, v)));
}

/* sin and cos of x (|x| <= 1e6, checked by the callers) from + - * only:
 * reduced to [-pi, pi] (2 pi split in two floats), folded to
 * [-pi/2, pi/2], then Taylor to x^11 / x^12 (error below 6e-8). */
static inline void pb_ik_sincos(float x, float *sn, float *cs) {
    const float inv2pi = 0.15915494309189535f, c1 = 6.28125f, c2 = 1.9353071795864769e-3f;
    const float half_pi = 1.5707963267948966f, pi = 3.14159265358979f;
    float k = x * inv2pi, r, r2, s, c, sign = 1.0f;
    int32_t ki = (int32_t)(k < 0.0f ? k - 0.5f : k + 0.5f);
    k = (float)ki;
    r = (x - k * c1) - k * c2;
    if (r > half_pi) {
        r = pi - r;
        sign = -1.0f;
    } else if (r < -half_pi) {
        r = -pi - r;
        sign = -1.0f;
    }
    r2 = r * r;
    s = r * (1.0f + r2 * (-1.0f / 6 + r2 * (1.0f / 120 + r2 * (-1.0f / 5040 + r2 * (1.0f / 362880 +
                                                                                  r2 * (-1.0f / 39916800))))));
    c = 1.0f + r2 * (-0.5f + r2 * (1.0f / 24 + r2 * (-1.0f / 720 + r2 * (1.0f / 40320 +
                                                                      r2 * (-1.0f / 3628800 +
                                                                            r2 * (1.0f / 479001600))))));
    *sn = s;
    *cs = sign * c;
}

/* Rotation about unit axis n by `angle` radians. */
static inline plumbob_quat pb_q_axis_angle(plumbob_vec3 n, float angle) {
    float s, c;
    pb_ik_sincos(0.5f * angle, &s, &c);
    return pb_q(n.x * s, n.y * s, n.z * s, c);
}

static inline plumbob_vec3 pb_mat_col(const plumbob_mat34 *m, int c) {
    return pb_v3(m->m[0][c], m->m[1][c], m->m[2][c]);
}

/* A model transform's rotation R, for M = R S with S a scale per axis (no
 * shear): column j of M is R's column j times s_j, so R^T v is
 * (col_j . v / |col_j|).  ik_frame keeps the three 1/|col_j| (0 for a zero
 * column) and whether R is a reflection (a mirrored joint). */
typedef struct pb_ik_frame {
    const plumbob_mat34 *m;
    float inv[3];
    bool mirrored;
} pb_ik_frame;

static inline pb_ik_frame pb_ik_frame_of(const plumbob_mat34 *m) {
    pb_ik_frame f;
    plumbob_vec3 c0 = pb_mat_col(m, 0), c1 = pb_mat_col(m, 1), c2 = pb_mat_col(m, 2);
    f.m = m;
    f.inv[0] = pb_ik_inv_len(pb_v3_dot(c0, c0));
    f.inv[1] = pb_ik_inv_len(pb_v3_dot(c1, c1));
    f.inv[2] = pb_ik_inv_len(pb_v3_dot(c2, c2));
    f.mirrored = pb_v3_dot(c0, pb_v3_cross(c1, c2)) < 0.0f;
    return f;
}

/* R^T v: a model-space direction in the joint's own axes. */
static inline plumbob_vec3 pb_ik_to_local(const pb_ik_frame *f, plumbob_vec3 v) {
    return pb_v3(pb_v3_dot(pb_mat_col(f->m, 0), v) * f->inv[0], pb_v3_dot(pb_mat_col(f->m, 1), v) * f->inv[1],
                 pb_v3_dot(pb_mat_col(f->m, 2), v) * f->inv[2]);
}

/* A model-space turn q as the joint's local correction c (M c = q M):
 * the same angle about the axis seen in the joint's axes, R^T axis (the
 * angle's sense flips under a mirrored R). */
static inline plumbob_quat pb_ik_local_turn(const pb_ik_frame *f, plumbob_quat q) {
    plumbob_vec3 a = pb_ik_to_local(f, pb_v3(q.x, q.y, q.z));
    if (f->mirrored) a = pb_v3_scale(a, -1.0f);
    return pb_q_unit(pb_q(a.x, a.y, a.z, q.w));
}


/* Weighted: identity at 0, q at 1 (shorter arc, normalized). */
static inline plumbob_quat pb_q_weight(plumbob_quat q, float w) {
    if (w >= 1.0f) return q;
    return plumbob_quat_nlerp(pb_q(0.0f, 0.0f, 0.0f, 1.0f), q, w);
}

#endif
