/* Internal: the small vector and rotation math the IK and root-motion jobs
 * share (Chapter 21).  Every normalization has a fallback, so degenerate
 * input (a zero-length bone, a target on the joint, parallel axes) gives a
 * fixed, finite answer instead of a NaN. */
#ifndef PLUMBOB_PB_IK_MATH_H
#define PLUMBOB_PB_IK_MATH_H

#include "plumbob/runtime.h"
#include "pb_math.h"

/* Squared lengths below this (1e-6 m squared) count as zero: no direction. */
#define PB_IK_EPS2 1e-12f

static inline bool pb_ik_finite(float x) { return (pb_bits_from_f32(x) & 0x7F800000u) != 0x7F800000u; }
static inline bool pb_ik_finite3(plumbob_vec3 v) {
    return pb_ik_finite(v.x) && pb_ik_finite(v.y) && pb_ik_finite(v.z);
}
/* All 12 numbers finite and small enough that products of two stay finite. */
static inline bool pb_ik_sane_mat(const plumbob_mat34 *m) {
    int r, c;
    for (r = 0; r < 3; r++)
        for (c = 0; c < 4; c++)
            if (!pb_ik_finite(m->m[r][c]) || m->m[r][c] > 1e15f || m->m[r][c] < -1e15f) return false;
    return true;
}
static inline bool pb_ik_sane3(plumbob_vec3 v) {
    return pb_ik_finite3(v) && v.x <= 1e15f && v.x >= -1e15f && v.y <= 1e15f && v.y >= -1e15f &&
           v.z <= 1e15f && v.z >= -1e15f;
}

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
static inline float pb_ik_sqrt(float x) { return x > 0.0f ? x * pb_rsqrtf(x) : 0.0f; }

/* v / |v|, or `fallback` when v is (nearly) zero. */
static inline plumbob_vec3 pb_v3_unit_or(plumbob_vec3 v, plumbob_vec3 fallback) {
    float l2 = pb_v3_dot(v, v);
    if (!(l2 > PB_IK_EPS2)) return fallback;
    return pb_v3_scale(v, pb_rsqrtf(l2));
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
static inline plumbob_quat pb_q_unit(plumbob_quat q) {
    float l2 = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
    float s;
    if (!(l2 > 1e-30f) || l2 > FLT_MAX) return pb_q(0.0f, 0.0f, 0.0f, 1.0f);
    s = pb_rsqrtf(l2);
    return pb_q(q.x * s, q.y * s, q.z * s, q.w * s);
}

/* (u x v, 1 + u.v) normalized: the shortest rotation from unit u to unit
 * v, well conditioned while the angle is at most about 90 degrees. */
static inline plumbob_quat pb_q_arc(plumbob_vec3 u, plumbob_vec3 v) {
    plumbob_vec3 c = pb_v3_cross(u, v);
    return pb_q_unit(pb_q(c.x, c.y, c.z, 1.0f + pb_v3_dot(u, v)));
}

/* The shortest rotation taking unit u to unit v; when they are opposite,
 * half a turn about `axis` (a unit vector perpendicular to u).  Past 90
 * degrees the axis u x v loses digits as v nears -u, so the turn goes in
 * two well-conditioned steps through w, v's part across u: it still takes
 * u onto v to float precision. */
static inline plumbob_quat pb_q_from_to(plumbob_vec3 u, plumbob_vec3 v, plumbob_vec3 axis) {
    float d = pb_v3_dot(u, v);
    plumbob_vec3 w;
    if (d >= 0.0f) return pb_q_arc(u, v);
    w = pb_v3_unit_or(pb_v3_sub(v, pb_v3_scale(u, d)), pb_v3_unit_or(pb_v3_cross(axis, u), pb_v3_any_perp(u)));
    return pb_q_unit(plumbob_quat_mul(pb_q_arc(w, v), pb_q_arc(u, w)));
}

/* The rotation about unit k taking unit u to unit v, both across k: from
 * the angle's cosine c = u.v and sine s = (u x v).k, as (s k, 1 + c) or,
 * past 90 degrees, (k (1 - c), s): both are the half-angle quaternion
 * scaled, each well conditioned on its side, and the axis is k exactly
 * (a turn about k keeps every point of k in place). */
static inline plumbob_quat pb_q_about(plumbob_vec3 k, plumbob_vec3 u, plumbob_vec3 v) {
    float c = pb_v3_dot(u, v), s = pb_v3_dot(pb_v3_cross(u, v), k);
    if (c >= 0.0f) return pb_q_unit(pb_q(k.x * s, k.y * s, k.z * s, 1.0f + c));
    return pb_q_unit(pb_q(k.x * (1.0f - c), k.y * (1.0f - c), k.z * (1.0f - c), s));
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

/* The rotation of a model transform: its first two columns made
 * orthonormal (scale and shear dropped; a zero column falls back to an
 * axis), the third their cross product, so mirrored matrices give a proper
 * rotation too.  Then the usual largest-diagonal conversion. */
static inline plumbob_quat pb_q_from_mat(const plumbob_mat34 *m) {
    plumbob_vec3 a = pb_v3_unit_or(pb_mat_col(m, 0), pb_v3(1.0f, 0.0f, 0.0f));
    plumbob_vec3 b = pb_mat_col(m, 1), c;
    float r00, r11, r22, s;
    b = pb_v3_unit_or(pb_v3_sub(b, pb_v3_scale(a, pb_v3_dot(a, b))), pb_v3_any_perp(a));
    c = pb_v3_cross(a, b);
    r00 = a.x; r11 = b.y; r22 = c.z; /* columns a b c: R[i][0] = a.i, ... */
    if (r00 + r11 + r22 > 0.0f) {
        s = 2.0f * pb_ik_sqrt(r00 + r11 + r22 + 1.0f);
        return pb_q_unit(pb_q((b.z - c.y) / s, (c.x - a.z) / s, (a.y - b.x) / s, 0.25f * s));
    }
    if (r00 > r11 && r00 > r22) {
        s = 2.0f * pb_ik_sqrt(1.0f + r00 - r11 - r22);
        return pb_q_unit(pb_q(0.25f * s, (b.x + a.y) / s, (c.x + a.z) / s, (b.z - c.y) / s));
    }
    if (r11 > r22) {
        s = 2.0f * pb_ik_sqrt(1.0f + r11 - r00 - r22);
        return pb_q_unit(pb_q((b.x + a.y) / s, 0.25f * s, (c.y + b.z) / s, (c.x - a.z) / s));
    }
    s = 2.0f * pb_ik_sqrt(1.0f + r22 - r00 - r11);
    return pb_q_unit(pb_q((c.x + a.z) / s, (c.y + b.z) / s, 0.25f * s, (a.y - b.x) / s));
}

static inline plumbob_vec3 pb_q_rot(plumbob_quat q, plumbob_vec3 v) { return plumbob_quat_rotate(q, v); }

/* Weighted: identity at 0, q at 1 (shorter arc, normalized). */
static inline plumbob_quat pb_q_weight(plumbob_quat q, float w) {
    if (w >= 1.0f) return pb_q_unit(q);
    return plumbob_quat_nlerp(pb_q(0.0f, 0.0f, 0.0f, 1.0f), q, w);
}

#endif
