/* A correctly rounded square root for scalar code outside the kernels (the
 * IK jobs): the port's instruction where it has one (SSE2 sqrtss, AArch64
 * fsqrt), else pb_sqrtf_rn (integers only).  All three round to nearest,
 * so every port gives the same bits, and none needs libm.  For x > 0
 * finite; callers check. */
#ifndef PLUMBOB_PB_SQRT_H
#define PLUMBOB_PB_SQRT_H

#include "ports.h"
#include "pb_math.h"

#if defined(PLUMBOB_PORT_SSE2)
#include <emmintrin.h>
static inline float pb_port_sqrtf(float x) { return _mm_cvtss_f32(_mm_sqrt_ss(_mm_set_ss(x))); }
#elif defined(PLUMBOB_PORT_NEON) && (defined(__aarch64__) || defined(_M_ARM64))
#include <arm_neon.h>
static inline float pb_port_sqrtf(float x) { return vgetq_lane_f32(vsqrtq_f32(vdupq_n_f32(x)), 0); }
#else
static inline float pb_port_sqrtf(float x) { return pb_sqrtf_rn(x); }
#endif

#endif
