/* Internal: the math that hot loops inline.  math.c's public functions are
 * built on these, so the sampler and the public API give identical bits. */
#ifndef PLUMBOB_PB_MATH_H
#define PLUMBOB_PB_MATH_H

#include <float.h>
#include "pb_bytes.h"

/* 1/sqrt(x) for x > 0 normal or subnormal; 0 for x <= 0, NaN or +inf.
 * Bit-level guess (max error ~0.18%) and three Newton steps. */
static inline float pb_rsqrtf(float x) {
    float y, scale = 1.0f;
    if (!(x > 0.0f) || x > FLT_MAX) return 0.0f;
    if (x < FLT_MIN) {
        x *= 16777216.0f; /* 2^24: the bit trick needs a normal number */
        scale = 4096.0f;  /* 2^12 */
    }
    y = pb_f32_from_bits(0x5F375A86u - (pb_bits_from_f32(x) >> 1));
    y = y * (1.5f - 0.5f * x * y * y);
    y = y * (1.5f - 0.5f * x * y * y);
    y = y * (1.5f - 0.5f * x * y * y);
    return y * scale;
}

/* sqrt(x), correctly rounded (round to nearest, as IEEE-754's own square
 * root and SSE's sqrtps or AArch64's fsqrt give it), for x > 0 finite,
 * normal or subnormal, from integers alone: the core has no libm and some
 * targets no square root instruction.  x = m 2^e with m a 24-bit integer;
 * with M = m 2^(e - 2k) in [2^46, 2^48) for an integer k, sqrt(x) is
 * sqrt(M) 2^k, and sqrt(M) in [2^23, 2^24) is found digit by digit and
 * rounded up when the remainder M - r^2 exceeds r (no ties: a square root
 * of an integer is never half way between two). */
static inline float pb_sqrtf_rn(float x) {
    uint32_t b = pb_bits_from_f32(x), m = b & 0x7FFFFFu, r;
    int32_t e = (int32_t)(b >> 23), k;
    uint64_t M, rem, bit = (uint64_t)1 << 46, res = 0;
    if (e == 0) { /* subnormal: normalize the mantissa */
        e = 1;
        while (!(m & 0x800000u)) {
            m <<= 1;
            e--;
        }
    } else {
        m |= 0x800000u;
    }
    e -= 150; /* x = m 2^e */
    k = (e - 23) & 1 ? (e - 24) / 2 : (e - 23) / 2;
    M = (uint64_t)m << (uint32_t)(e - 2 * k); /* 23 or 24 */
    for (rem = M; bit; bit >>= 2) {
        if (rem >= res + bit) {
            rem -= res + bit;
            res = (res >> 1) + bit;
        } else {
            res >>= 1;
        }
    }
    r = (uint32_t)res + (rem > res ? 1u : 0u);
    if (r == 0x1000000u) { /* rounded up to 2^24 */
        r = 0x800000u;
        k++;
    }
    return pb_f32_from_bits((uint32_t)(k + 150) << 23 | (r & 0x7FFFFFu));
}

/* The factor a skinned normal of squared length len2 is scaled by:
 * 1 / sqrt(len2), both steps correctly rounded (so every port computes
 * the same bits with its own square root and division); 0 for a zero,
 * infinite or NaN len2, so a degenerate normal comes out zero. */
static inline float pb_normal_scale(float len2) {
    if (!(len2 > 0.0f) || len2 > FLT_MAX) return 0.0f;
    return 1.0f / pb_sqrtf_rn(len2);
}

/* The prepared skinning path's normal factor: 1 / sqrt(x), both steps
 * correctly rounded, with x = len2 clamped into [FLT_MIN, FLT_MAX] by
 * `len2 > FLT_MIN ? len2 : FLT_MIN` then `x < FLT_MAX ? x : FLT_MAX` (a NaN
 * len2 counts as FLT_MIN).  Two compare-and-selects, one instruction each
 * in SSE2 (maxps, minps), where pb_normal_scale's masks take seven per
 * four normals; a zero normal still comes out zero, and no lane ever
 * reaches the square root or division with a subnormal, zero or
 * infinite operand. */
static inline float pb_normal_scale_clamped(float len2) {
    float x = len2 > FLT_MIN ? len2 : FLT_MIN;
    x = x < FLT_MAX ? x : FLT_MAX;
    return 1.0f / pb_sqrtf_rn(x);
}

/* The factor pb_quat_normalize4 scales by, for a squared length len2 that
 * is positive and finite: exactly 1 for exactly 1, two Newton steps from 1
 * near unit (always so between neighbouring keys: error ~ 1.5 * (3/8
 * d^2)^2, d < 0.01), else pb_rsqrtf. */
static inline float pb_quat_inv_length(float len2) {
    float inv;
    if (len2 > 0.99f && len2 < 1.01f) { /* 1 gives exactly 1 here too */
        inv = 1.5f - 0.5f * len2;
        return inv * (1.5f - 0.5f * len2 * inv * inv);
    }
    return pb_rsqrtf(len2);
}

/* q normalized in place; zero or non-finite gives identity, exactly unit
 * stays untouched. */
static inline void pb_quat_normalize4(float q[4]) {
    float len2 = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3], inv;
    if (!(len2 > 0.0f) || len2 > FLT_MAX) {
        q[0] = q[1] = q[2] = 0.0f;
        q[3] = 1.0f;
        return;
    }
    if (len2 == 1.0f) return;
    inv = pb_quat_inv_length(len2);
    q[0] *= inv;
    q[1] *= inv;
    q[2] *= inv;
    q[3] *= inv;
}

/* Shorter-arc normalized lerp of a and b at t into out. */
static inline void pb_quat_nlerp4(const float a[4], const float b[4], float t, float out[4]) {
    float dot = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
    float ta = 1.0f - t, tb = dot < 0.0f ? -t : t;
    out[0] = ta * a[0] + tb * b[0];
    out[1] = ta * a[1] + tb * b[1];
    out[2] = ta * a[2] + tb * b[2];
    out[3] = ta * a[3] + tb * b[3];
    pb_quat_normalize4(out);
}

/* 3x4 row-major matrices as 12 floats.  math.c's plumbob_mat34_from_rt,
 * plumbob_mat34_mul and plumbob_mat34_from_pose are built on these, and so
 * is the skeleton kernel in ports/, so all of them give the same bits. */

/* Rotation by q (x y z w, used as given), then translation t. */
static inline void pb_mat34_rt(const float q[4], const float t[3], float m[12]) {
    float xx = q[0] * q[0], yy = q[1] * q[1], zz = q[2] * q[2];
    float xy = q[0] * q[1], xz = q[0] * q[2], yz = q[1] * q[2];
    float wx = q[3] * q[0], wy = q[3] * q[1], wz = q[3] * q[2];
    m[0] = 1.0f - 2.0f * (yy + zz);
    m[1] = 2.0f * (xy - wz);
    m[2] = 2.0f * (xz + wy);
    m[3] = t[0];
    m[4] = 2.0f * (xy + wz);
    m[5] = 1.0f - 2.0f * (xx + zz);
    m[6] = 2.0f * (yz - wx);
    m[7] = t[1];
    m[8] = 2.0f * (xz - wy);
    m[9] = 2.0f * (yz + wx);
    m[10] = 1.0f - 2.0f * (xx + yy);
    m[11] = t[2];
}

/* T * R * S: pb_mat34_rt, then column j of the rotation times s[j]. */
static inline void pb_mat34_trs(const float q[4], const float t[3], const float s[3], float m[12]) {
    int r;
    pb_mat34_rt(q, t, m);
    for (r = 0; r < 3; r++) {
        m[4 * r] *= s[0];
        m[4 * r + 1] *= s[1];
        m[4 * r + 2] *= s[2];
    }
}

/* out = a * b (apply b first): out[i][j] = (a[i][0] b[0][j] + a[i][1]
 * b[1][j]) + a[i][2] b[2][j], then out[i][3] += a[i][3].  out may not
 * alias a or b. */
static inline void pb_mat34_mul12(const float a[12], const float b[12], float out[12]) {
    int i, j;
    for (i = 0; i < 3; i++) {
        for (j = 0; j < 4; j++)
            out[4 * i + j] = a[4 * i] * b[j] + a[4 * i + 1] * b[4 + j] + a[4 * i + 2] * b[8 + j];
        out[4 * i + 3] += a[4 * i + 3];
    }
}

#endif
