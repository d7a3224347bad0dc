/* Internal: the arithmetic of a Sims 2 ANIM sample, shared by the
 * reference (sims2/anim_sample.c) and the ANIM sampler (runtime/
 * anim_sampler.c) so both give the same bits: the half-angle sine and
 * cosine of an Euler angle (a polynomial, no division, no libm) and a key
 * pair's Hermite curve as a cubic in power form, made once per pair and
 * evaluated by Horner's rule.  Build with -ffp-contract=off for the
 * reference bits. */
#ifndef PLUMBOB_PB_CURVE_H
#define PLUMBOB_PB_CURVE_H

#include <stdint.h>

/* sin and cos of half of `degrees`.  The angle first loses its nearest
 * whole number of turns (rounded by adding and removing 1.5 * 2^23, which
 * leaves no fraction below 2^22; |degrees| <= 1e7 is 27,778 turns at most),
 * exactly (360 r is an integer below 2^24 and the difference is
 * representable), so it lies in [-180, 180] up to the rounding of
 * degrees / 360 near the ends, and the half angle x in [-pi/2, pi/2]
 * (a hair beyond at most); then Taylor polynomials to x^11 and x^12 with
 * their coefficients as constants (truncation below 6e-8 at pi/2).  No
 * branch and no conversion, so four lanes run as vector instructions.
 * Beside a double-precision reference: within 2e-7 absolute over every
 * angle (tests/test_anim_pose.c).  NaN and |degrees| > 1e7 read as 0 (a
 * float that large has no fraction of a turn left). */
static inline void pb_half_angle_sin_cos(float degrees, float *s, float *c) {
    float d = (degrees >= -1e7f && degrees <= 1e7f) ? degrees : 0.0f, r, x, x2;
    r = (d * (1.0f / 360.0f) + 12582912.0f) - 12582912.0f; /* the nearest whole turn */
    d -= 360.0f * r;
    x = d * (3.14159265358979f / 360.0f);
    x2 = x * x;
    *s = x + x * x2 * (-1.66666667e-1f + x2 * (8.33333333e-3f + x2 * (-1.98412698e-4f +
                                                                          x2 * (2.75573192e-6f + x2 * -2.50521084e-8f))));
    *c = 1.0f + x2 * (-0.5f + x2 * (4.16666667e-2f + x2 * (-1.38888889e-3f + x2 * (2.48015873e-5f +
                                                                                   x2 * (-2.75573192e-7f + x2 * 2.08767570e-9f)))));
}

/* The Hermite curve from value v0 (out tangent m0, per tick) to v1 (in
 * tangent m1) over dt ticks, as c[0] + c[1] u + c[2] u^2 + c[3] u^3 for u in
 * [0, 1]. */
static inline void pb_hermite_cubic(float v0, float m0, float v1, float m1, float dt, float c[4]) {
    float a = dt * m0, b = dt * m1, d = v1 - v0;
    c[0] = v0;
    c[1] = a;
    c[2] = (3.0f * d - 2.0f * a) - b;
    c[3] = (a + b) - 2.0f * d;
}

/* The cubic at u, by Horner's rule. */
static inline float pb_cubic_at(float c0, float c1, float c2, float c3, float u) {
    return ((c3 * u + c2) * u + c1) * u + c0;
}

#endif
