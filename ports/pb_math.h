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

#endif
