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

/* sin and cos of half of `degrees`.  The angle is first reduced into
 * [-180, 180] exactly (whole turns of 360 are integers below 2^24 for
 * |degrees| <= 1e7, and the differences are representable: Sterbenz), so
 * the half angle x is in [-pi/2, pi/2]; then Taylor polynomials to x^11 and
 * x^12 with their coefficients as constants (truncation below 6e-8 at
 * pi/2).  Beside a double-precision reference: within 2e-7 absolute over
 * every angle (tests/test_anim_pose.c).  NaN and |degrees| > 1e7 read as 0
 * (a float that large has no fraction of a turn left). */
static inline void pb_half_angle_sin_cos(float degrees, float *s, float *c) {
    float d = degrees, x, x2;
    if (!(d == d) || d > 1e7f || d < -1e7f) d = 0.0f;
    d -= 360.0f * (float)(int32_t)(d * (1.0f / 360.0f)); /* now in about (-360, 360) */
    if (d > 180.0f) d -= 360.0f;
    if (d < -180.0f) d += 360.0f;
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
