/* Four-lane float vectors for the SIMD ports: one small set of operations
 * with an SSE2 and a NEON body, so a kernel is written once (clip_simd.c,
 * skin_simd.c) and compiles to either.  Each operation is one IEEE
 * single-precision instruction per lane (no fused multiply-add), so a kernel written with
 * them performs the scalar reference's operations exactly.  Included only
 * when ports.h chose a SIMD port. */
#ifndef PLUMBOB_SIMD4_H
#define PLUMBOB_SIMD4_H

#include "kernels.h"
#include "pb_math.h"

#if defined(PLUMBOB_PORT_SSE2)
#include <emmintrin.h>
typedef __m128 pb_v4; /* four floats */
typedef __m128 pb_m4; /* four lane masks (all ones or zero) */

PB_FORCE_INLINE pb_v4 pb_v4_load(const float *p) { return _mm_load_ps(p); } /* 16-byte aligned */
PB_FORCE_INLINE pb_v4 pb_v4_loadu(const float *p) { return _mm_loadu_ps(p); } /* any alignment */
/* Four little-endian floats at p (16 bytes, any alignment). */
PB_FORCE_INLINE pb_v4 pb_v4_load_le(const unsigned char *p) { return _mm_loadu_ps((const float *)(const void *)p); }
PB_FORCE_INLINE pb_v4 pb_v4_set1(float x) { return _mm_set1_ps(x); }
/* (-0, -0, -0, x): adding it changes lane 3 only (x + -0 is x, even for -0) */
PB_FORCE_INLINE pb_v4 pb_v4_negzero3_last(float x) { return _mm_set_ps(x, -0.0f, -0.0f, -0.0f); }
PB_FORCE_INLINE pb_v4 pb_v4_add(pb_v4 a, pb_v4 b) { return _mm_add_ps(a, b); }
PB_FORCE_INLINE pb_v4 pb_v4_sub(pb_v4 a, pb_v4 b) { return _mm_sub_ps(a, b); }
PB_FORCE_INLINE pb_v4 pb_v4_mul(pb_v4 a, pb_v4 b) { return _mm_mul_ps(a, b); }
PB_FORCE_INLINE pb_v4 pb_v4_div(pb_v4 a, pb_v4 b) { return _mm_div_ps(a, b); }
PB_FORCE_INLINE pb_v4 pb_v4_sqrt(pb_v4 a) { return _mm_sqrt_ps(a); } /* correctly rounded */
PB_FORCE_INLINE pb_v4 pb_v4_and(pb_m4 m, pb_v4 a) { return _mm_and_ps(m, a); }
PB_FORCE_INLINE pb_v4 pb_v4_andnot(pb_m4 m, pb_v4 a) { return _mm_andnot_ps(m, a); } /* a where m is clear */
PB_FORCE_INLINE pb_v4 pb_v4_xor(pb_v4 a, pb_v4 b) { return _mm_xor_ps(a, b); } /* bits: a sign flip by a -0 lane */
/* pb_rsqrtf's first guess lane by lane: the float with bits 0x5F375A86 - (bits(x) >> 1) */
PB_FORCE_INLINE pb_v4 pb_v4_rsqrt_guess(pb_v4 x) {
    return _mm_castsi128_ps(_mm_sub_epi32(_mm_set1_epi32(0x5F375A86), _mm_srli_epi32(_mm_castps_si128(x), 1)));
}
/* a where m is set, b where it is clear (bits as they are: no arithmetic) */
PB_FORCE_INLINE pb_v4 pb_v4_select(pb_m4 m, pb_v4 a, pb_v4 b) { return _mm_or_ps(_mm_and_ps(m, a), _mm_andnot_ps(m, b)); }
PB_FORCE_INLINE pb_v4 pb_v4_abs(pb_v4 a) { return _mm_and_ps(a, _mm_castsi128_ps(_mm_set1_epi32(0x7FFFFFFF))); }
/* Bits only: -0 as +0 and every NaN as the quiet 0x7FC00000 (the slot
 * tables' elements, pb_skin_put_entry); subnormals kept on every port. */
PB_FORCE_INLINE pb_v4 pb_v4_canonical(pb_v4 v) {
    __m128i x = _mm_castps_si128(v), nan;
    x = _mm_andnot_si128(_mm_cmpeq_epi32(x, _mm_set1_epi32(INT32_MIN)), x);
    nan = _mm_cmpgt_epi32(_mm_and_si128(x, _mm_set1_epi32(0x7FFFFFFF)), _mm_set1_epi32(0x7F800000));
    return _mm_castsi128_ps(_mm_or_si128(_mm_and_si128(nan, _mm_set1_epi32(0x7FC00000)), _mm_andnot_si128(nan, x)));
}
/* Four native 16-bit unsigned integers as floats (exact). */
PB_FORCE_INLINE pb_v4 pb_v4_from_u16x4(const uint16_t *p) {
    return _mm_cvtepi32_ps(_mm_unpacklo_epi16(_mm_loadl_epi64((const __m128i *)(const void *)p), _mm_setzero_si128()));
}
/* max(a, b) as `a > b ? a : b`, min as `a < b ? a : b` (b wins ties, so
 * max(-0, +0) is +0 like the scalar expression) */
PB_FORCE_INLINE pb_v4 pb_v4_max(pb_v4 a, pb_v4 b) { return _mm_max_ps(a, b); }
PB_FORCE_INLINE pb_v4 pb_v4_min(pb_v4 a, pb_v4 b) { return _mm_min_ps(a, b); }
PB_FORCE_INLINE pb_m4 pb_v4_lt(pb_v4 a, pb_v4 b) { return _mm_cmplt_ps(a, b); }
PB_FORCE_INLINE pb_m4 pb_v4_gt(pb_v4 a, pb_v4 b) { return _mm_cmpgt_ps(a, b); }
PB_FORCE_INLINE pb_m4 pb_v4_ge(pb_v4 a, pb_v4 b) { return _mm_cmpge_ps(a, b); }
PB_FORCE_INLINE pb_m4 pb_v4_le(pb_v4 a, pb_v4 b) { return _mm_cmple_ps(a, b); }
PB_FORCE_INLINE pb_m4 pb_m4_and(pb_m4 a, pb_m4 b) { return _mm_and_ps(a, b); }
/* bit l set when lane l is set */
PB_FORCE_INLINE unsigned pb_m4_bits(pb_m4 m) { return (unsigned)_mm_movemask_ps(m); }
PB_FORCE_INLINE void pb_v4_store(float *o, pb_v4 v) { _mm_storeu_ps(o, v); } /* any alignment */
PB_FORCE_INLINE void pb_v4_store3(float *o, pb_v4 v) { /* lanes 0..2; o[3] untouched */
    _mm_storel_pi((__m64 *)(void *)o, v);
    _mm_store_ss(o + 2, _mm_movehl_ps(v, v));
}
/* lanes 0 1 (lo2) or 2 3 (hi2) to o[0], o[1]: one 8-byte store each */
PB_FORCE_INLINE void pb_v4_store_lo2(float *o, pb_v4 v) { _mm_storel_pi((__m64 *)(void *)o, v); }
PB_FORCE_INLINE void pb_v4_store_hi2(float *o, pb_v4 v) { _mm_storeh_pi((__m64 *)(void *)o, v); }
/* Four little-endian float triples (48 bytes, any alignment) as x, y and
 * z rows: three loads and eight shuffles. */
PB_FORCE_INLINE void pb_v4_load_xyz4(const unsigned char *p, pb_v4 *x, pb_v4 *y, pb_v4 *z) {
    __m128 a = _mm_loadu_ps((const float *)(const void *)p);        /* x0 y0 z0 x1 */
    __m128 b = _mm_loadu_ps((const float *)(const void *)(p + 16)); /* y1 z1 x2 y2 */
    __m128 c = _mm_loadu_ps((const float *)(const void *)(p + 32)); /* z2 x3 y3 z3 */
    __m128 bc = _mm_shuffle_ps(b, c, _MM_SHUFFLE(1, 1, 2, 2));      /* x2 x2 x3 x3 */
    *x = _mm_shuffle_ps(a, bc, _MM_SHUFFLE(2, 0, 3, 0));
    *y = _mm_shuffle_ps(_mm_shuffle_ps(a, b, _MM_SHUFFLE(0, 0, 1, 1)), _mm_shuffle_ps(b, c, _MM_SHUFFLE(2, 2, 3, 3)),
                        _MM_SHUFFLE(2, 0, 2, 0));
    *z = _mm_shuffle_ps(_mm_shuffle_ps(a, b, _MM_SHUFFLE(1, 1, 2, 2)), _mm_shuffle_ps(c, c, _MM_SHUFFLE(3, 3, 0, 0)),
                        _MM_SHUFFLE(2, 0, 2, 0));
}
/* Lane i (a constant) in every lane */
PB_FORCE_INLINE pb_v4 pb_v4_splat(pb_v4 v, unsigned i) {
    switch (i) {
    case 0: return _mm_shuffle_ps(v, v, _MM_SHUFFLE(0, 0, 0, 0));
    case 1: return _mm_shuffle_ps(v, v, _MM_SHUFFLE(1, 1, 1, 1));
    case 2: return _mm_shuffle_ps(v, v, _MM_SHUFFLE(2, 2, 2, 2));
    default: return _mm_shuffle_ps(v, v, _MM_SHUFFLE(3, 3, 3, 3));
    }
}
PB_FORCE_INLINE void pb_v4_transpose(pb_v4 *r0, pb_v4 *r1, pb_v4 *r2, pb_v4 *r3) {
    __m128 t0 = _mm_unpacklo_ps(*r0, *r1), t1 = _mm_unpacklo_ps(*r2, *r3);
    __m128 t2 = _mm_unpackhi_ps(*r0, *r1), t3 = _mm_unpackhi_ps(*r2, *r3);
    *r0 = _mm_movelh_ps(t0, t1);
    *r1 = _mm_movehl_ps(t1, t0);
    *r2 = _mm_movelh_ps(t2, t3);
    *r3 = _mm_movehl_ps(t3, t2);
}
/* a0 a1 b0 b1; a2 a3 b2 b3; a0 b0 a1 b1 and a2 b2 a3 b3 (zip) */
PB_FORCE_INLINE pb_v4 pb_v4_lows(pb_v4 a, pb_v4 b) { return _mm_movelh_ps(a, b); }
PB_FORCE_INLINE pb_v4 pb_v4_highs(pb_v4 a, pb_v4 b) { return _mm_movehl_ps(b, a); }
PB_FORCE_INLINE void pb_v4_zip(pb_v4 a, pb_v4 b, pb_v4 *lo, pb_v4 *hi) {
    *lo = _mm_unpacklo_ps(a, b);
    *hi = _mm_unpackhi_ps(a, b);
}
/* Lanes 0 2 of a then of b (even), lanes 1 3 of a then of b (odd). */
PB_FORCE_INLINE void pb_v4_unzip(pb_v4 a, pb_v4 b, pb_v4 *even, pb_v4 *odd) {
    *even = _mm_shuffle_ps(a, b, _MM_SHUFFLE(2, 0, 2, 0));
    *odd = _mm_shuffle_ps(a, b, _MM_SHUFFLE(3, 1, 3, 1));
}
/* The lanes whose 32-bit word (as pb_v4_load_le read it, little-endian)
 * has byte k (a constant, 0..3) equal to 0xFF. */
PB_FORCE_INLINE pb_m4 pb_m4_byte_ff(pb_v4 words, unsigned k) {
    __m128i ff = _mm_cmpeq_epi8(_mm_castps_si128(words), _mm_set1_epi8(-1));
    switch (k) { /* byte k to the top, then its sign across the lane */
    case 0: ff = _mm_slli_epi32(ff, 24); break;
    case 1: ff = _mm_slli_epi32(ff, 16); break;
    case 2: ff = _mm_slli_epi32(ff, 8); break;
    default: break;
    }
    return _mm_castsi128_ps(_mm_srai_epi32(ff, 24));
}
/* Rows x, y, z as four float triples at o (48 bytes): three stores. */
PB_FORCE_INLINE void pb_v4_store_xyz4(float *o, pb_v4 x, pb_v4 y, pb_v4 z) {
    __m128 xy_lo = _mm_unpacklo_ps(x, y), xy_hi = _mm_unpackhi_ps(x, y); /* x0 y0 x1 y1, x2 y2 x3 y3 */
    __m128 zx = _mm_shuffle_ps(z, x, _MM_SHUFFLE(1, 1, 0, 0));             /* z0 z0 x1 x1 */
    __m128 yz = _mm_shuffle_ps(y, z, _MM_SHUFFLE(1, 1, 1, 1));             /* y1 y1 z1 z1 */
    __m128 zx3 = _mm_shuffle_ps(z, x, _MM_SHUFFLE(3, 3, 2, 2));            /* z2 z2 x3 x3 */
    __m128 yz3 = _mm_shuffle_ps(y, z, _MM_SHUFFLE(3, 3, 3, 3));            /* y3 y3 z3 z3 */
    _mm_storeu_ps(o, _mm_shuffle_ps(xy_lo, zx, _MM_SHUFFLE(2, 0, 1, 0)));
    _mm_storeu_ps(o + 4, _mm_shuffle_ps(yz, xy_hi, _MM_SHUFFLE(1, 0, 2, 0)));
    _mm_storeu_ps(o + 8, _mm_shuffle_ps(zx3, yz3, _MM_SHUFFLE(2, 0, 2, 0)));
}
#if defined(__AVX2__)
#include <immintrin.h>
/* The AVX2 bodies' one shared step (skin_avx2.h, clip_avx2.h): a
 * four-by-four transpose inside each 128-bit half of four 256-bit rows. */
PB_FORCE_INLINE void pb_v8_transpose_halves(__m256 *r0, __m256 *r1, __m256 *r2, __m256 *r3) {
    __m256 t0 = _mm256_unpacklo_ps(*r0, *r1), t1 = _mm256_unpacklo_ps(*r2, *r3);
    __m256 t2 = _mm256_unpackhi_ps(*r0, *r1), t3 = _mm256_unpackhi_ps(*r2, *r3);
    *r0 = _mm256_shuffle_ps(t0, t1, _MM_SHUFFLE(1, 0, 1, 0));
    *r1 = _mm256_shuffle_ps(t0, t1, _MM_SHUFFLE(3, 2, 3, 2));
    *r2 = _mm256_shuffle_ps(t2, t3, _MM_SHUFFLE(1, 0, 1, 0));
    *r3 = _mm256_shuffle_ps(t2, t3, _MM_SHUFFLE(3, 2, 3, 2));
}
#endif

#elif defined(PLUMBOB_PORT_NEON)
#include <arm_neon.h>
typedef float32x4_t pb_v4;
typedef uint32x4_t pb_m4;

PB_FORCE_INLINE pb_v4 pb_v4_load(const float *p) { return vld1q_f32(p); }
PB_FORCE_INLINE pb_v4 pb_v4_loadu(const float *p) { return vld1q_f32(p); }
/* Four little-endian floats at p (16 bytes, any alignment). */
PB_FORCE_INLINE pb_v4 pb_v4_load_le(const unsigned char *p) {
#if defined(__ARM_BIG_ENDIAN)
    return vreinterpretq_f32_u8(vrev32q_u8(vld1q_u8(p)));
#else
    return vreinterpretq_f32_u8(vld1q_u8(p));
#endif
}
PB_FORCE_INLINE pb_v4 pb_v4_set1(float x) { return vdupq_n_f32(x); }
PB_FORCE_INLINE pb_v4 pb_v4_negzero3_last(float x) { return vsetq_lane_f32(x, vdupq_n_f32(-0.0f), 3); }
PB_FORCE_INLINE pb_v4 pb_v4_add(pb_v4 a, pb_v4 b) { return vaddq_f32(a, b); }
PB_FORCE_INLINE pb_v4 pb_v4_sub(pb_v4 a, pb_v4 b) { return vsubq_f32(a, b); }
PB_FORCE_INLINE pb_v4 pb_v4_mul(pb_v4 a, pb_v4 b) { return vmulq_f32(a, b); }
#if defined(__aarch64__)
PB_FORCE_INLINE pb_v4 pb_v4_div(pb_v4 a, pb_v4 b) { return vdivq_f32(a, b); }
PB_FORCE_INLINE pb_v4 pb_v4_sqrt(pb_v4 a) { return vsqrtq_f32(a); } /* correctly rounded */
#else /* ARMv7 NEON has neither: lane by lane, VFP's division and pb_sqrtf_rn */
PB_FORCE_INLINE pb_v4 pb_v4_div(pb_v4 a, pb_v4 b) {
    float x[4], y[4];
    unsigned i;
    vst1q_f32(x, a);
    vst1q_f32(y, b);
    for (i = 0; i < 4; i++) x[i] = x[i] / y[i];
    return vld1q_f32(x);
}
PB_FORCE_INLINE pb_v4 pb_v4_sqrt(pb_v4 a) {
    float x[4];
    unsigned i;
    vst1q_f32(x, a);
    for (i = 0; i < 4; i++) x[i] = x[i] > 0.0f && x[i] <= FLT_MAX ? pb_sqrtf_rn(x[i]) : 0.0f; /* others: masked */
    return vld1q_f32(x);
}
#endif
PB_FORCE_INLINE pb_v4 pb_v4_and(pb_m4 m, pb_v4 a) { return vreinterpretq_f32_u32(vandq_u32(m, vreinterpretq_u32_f32(a))); }
PB_FORCE_INLINE pb_v4 pb_v4_andnot(pb_m4 m, pb_v4 a) { return vreinterpretq_f32_u32(vbicq_u32(vreinterpretq_u32_f32(a), m)); }
PB_FORCE_INLINE pb_v4 pb_v4_xor(pb_v4 a, pb_v4 b) {
    return vreinterpretq_f32_u32(veorq_u32(vreinterpretq_u32_f32(a), vreinterpretq_u32_f32(b)));
}
PB_FORCE_INLINE pb_v4 pb_v4_rsqrt_guess(pb_v4 x) {
    return vreinterpretq_f32_u32(vsubq_u32(vdupq_n_u32(0x5F375A86u), vshrq_n_u32(vreinterpretq_u32_f32(x), 1)));
}
PB_FORCE_INLINE pb_v4 pb_v4_select(pb_m4 m, pb_v4 a, pb_v4 b) { return vbslq_f32(m, a, b); }
PB_FORCE_INLINE pb_v4 pb_v4_abs(pb_v4 a) { return vabsq_f32(a); }
PB_FORCE_INLINE pb_v4 pb_v4_canonical(pb_v4 v) {
    uint32x4_t x = vreinterpretq_u32_f32(v), nan;
    x = vbicq_u32(x, vceqq_u32(x, vdupq_n_u32(0x80000000u)));
    nan = vcgtq_u32(vandq_u32(x, vdupq_n_u32(0x7FFFFFFFu)), vdupq_n_u32(0x7F800000u));
    return vreinterpretq_f32_u32(vbslq_u32(nan, vdupq_n_u32(0x7FC00000u), x));
}
/* Four native 16-bit unsigned integers as floats (exact). */
PB_FORCE_INLINE pb_v4 pb_v4_from_u16x4(const uint16_t *p) { return vcvtq_f32_u32(vmovl_u16(vld1_u16(p))); }
/* compare-and-select, so ties and signed zeros go as in the SSE2 body */
PB_FORCE_INLINE pb_v4 pb_v4_max(pb_v4 a, pb_v4 b) { return vbslq_f32(vcgtq_f32(a, b), a, b); }
PB_FORCE_INLINE pb_v4 pb_v4_min(pb_v4 a, pb_v4 b) { return vbslq_f32(vcltq_f32(a, b), a, b); }
PB_FORCE_INLINE pb_m4 pb_v4_lt(pb_v4 a, pb_v4 b) { return vcltq_f32(a, b); }
PB_FORCE_INLINE pb_m4 pb_v4_gt(pb_v4 a, pb_v4 b) { return vcgtq_f32(a, b); }
PB_FORCE_INLINE pb_m4 pb_v4_ge(pb_v4 a, pb_v4 b) { return vcgeq_f32(a, b); }
PB_FORCE_INLINE pb_m4 pb_v4_le(pb_v4 a, pb_v4 b) { return vcleq_f32(a, b); }
PB_FORCE_INLINE pb_m4 pb_m4_and(pb_m4 a, pb_m4 b) { return vandq_u32(a, b); }
PB_FORCE_INLINE unsigned pb_m4_bits(pb_m4 m) {
    uint32x4_t b = vandq_u32(m, vcombine_u32(vcreate_u32(0x0000000200000001ull), vcreate_u32(0x0000000800000004ull)));
    uint32x2_t s = vadd_u32(vget_low_u32(b), vget_high_u32(b));
    return (unsigned)vget_lane_u32(vpadd_u32(s, s), 0);
}
PB_FORCE_INLINE void pb_v4_store(float *o, pb_v4 v) { vst1q_f32(o, v); }
PB_FORCE_INLINE void pb_v4_store3(float *o, pb_v4 v) {
    vst1_f32(o, vget_low_f32(v));
    vst1q_lane_f32(o + 2, v, 2);
}
PB_FORCE_INLINE void pb_v4_store_lo2(float *o, pb_v4 v) { vst1_f32(o, vget_low_f32(v)); }
PB_FORCE_INLINE void pb_v4_store_hi2(float *o, pb_v4 v) { vst1_f32(o, vget_high_f32(v)); }
PB_FORCE_INLINE pb_v4 pb_v4_lows(pb_v4 a, pb_v4 b) { return vcombine_f32(vget_low_f32(a), vget_low_f32(b)); }
PB_FORCE_INLINE pb_v4 pb_v4_highs(pb_v4 a, pb_v4 b) { return vcombine_f32(vget_high_f32(a), vget_high_f32(b)); }
PB_FORCE_INLINE void pb_v4_zip(pb_v4 a, pb_v4 b, pb_v4 *lo, pb_v4 *hi) {
    float32x4x2_t t = vzipq_f32(a, b);
    *lo = t.val[0];
    *hi = t.val[1];
}
PB_FORCE_INLINE void pb_v4_unzip(pb_v4 a, pb_v4 b, pb_v4 *even, pb_v4 *odd) {
    float32x4x2_t t = vuzpq_f32(a, b);
    *even = t.val[0];
    *odd = t.val[1];
}
PB_FORCE_INLINE pb_m4 pb_m4_byte_ff(pb_v4 words, unsigned k) {
    uint32x4_t ff = vreinterpretq_u32_u8(vceqq_u8(vreinterpretq_u8_f32(words), vdupq_n_u8(0xFF)));
    switch (k) {
    case 0: ff = vshlq_n_u32(ff, 24); break;
    case 1: ff = vshlq_n_u32(ff, 16); break;
    case 2: ff = vshlq_n_u32(ff, 8); break;
    default: break;
    }
    return vreinterpretq_u32_s32(vshrq_n_s32(vreinterpretq_s32_u32(ff), 24));
}
PB_FORCE_INLINE void pb_v4_store_xyz4(float *o, pb_v4 x, pb_v4 y, pb_v4 z) {
    float32x4x3_t t;
    t.val[0] = x;
    t.val[1] = y;
    t.val[2] = z;
    vst3q_f32(o, t);
}
/* Four little-endian float triples (48 bytes, any alignment) as x, y and
 * z rows: one deinterleaving load when the bytes are float-aligned on a
 * little-endian CPU, else lane by lane. */
PB_FORCE_INLINE void pb_v4_load_xyz4(const unsigned char *p, pb_v4 *x, pb_v4 *y, pb_v4 *z) {
#if !defined(__ARM_BIG_ENDIAN)
    if (((uintptr_t)p & 3u) == 0) {
        float32x4x3_t t = vld3q_f32((const float *)(const void *)p);
        *x = t.val[0];
        *y = t.val[1];
        *z = t.val[2];
        return;
    }
#endif
    {
        float t[3][4];
        unsigned i, c;
        for (i = 0; i < 4; i++)
            for (c = 0; c < 3; c++) t[c][i] = pb_f32le(p + 12u * i + 4u * c);
        *x = vld1q_f32(t[0]);
        *y = vld1q_f32(t[1]);
        *z = vld1q_f32(t[2]);
    }
}
PB_FORCE_INLINE pb_v4 pb_v4_splat(pb_v4 v, unsigned i) {
    switch (i) {
    case 0: return vdupq_lane_f32(vget_low_f32(v), 0);
    case 1: return vdupq_lane_f32(vget_low_f32(v), 1);
    case 2: return vdupq_lane_f32(vget_high_f32(v), 0);
    default: return vdupq_lane_f32(vget_high_f32(v), 1);
    }
}
PB_FORCE_INLINE void pb_v4_transpose(pb_v4 *r0, pb_v4 *r1, pb_v4 *r2, pb_v4 *r3) {
    float32x4x2_t t01 = vtrnq_f32(*r0, *r1), t23 = vtrnq_f32(*r2, *r3);
    *r0 = vcombine_f32(vget_low_f32(t01.val[0]), vget_low_f32(t23.val[0]));
    *r1 = vcombine_f32(vget_low_f32(t01.val[1]), vget_low_f32(t23.val[1]));
    *r2 = vcombine_f32(vget_high_f32(t01.val[0]), vget_high_f32(t23.val[0]));
    *r3 = vcombine_f32(vget_high_f32(t01.val[1]), vget_high_f32(t23.val[1]));
}
#endif

#endif
