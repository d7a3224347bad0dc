/* The AVX2 build's eight-lane clip kernel, included by clip_simd.c only
 * when compiled with -mavx2: two lane groups per step, group g in the low
 * 128 bits and group g + 1 in the high, so the weights, blend and
 * normalization of eight tracks take one instruction each.  Groups stay
 * the four-lane layout of kernels.h (each half is loaded from its own
 * group), so the core, its arena sizes and the schedule are the same in
 * every build.  Each operation is the four-lane kernel's, lane by lane,
 * with no fused multiply-add, so the bits are the scalar reference's. */
#ifndef PLUMBOB_CLIP_AVX2_H
#define PLUMBOB_CLIP_AVX2_H

#include <immintrin.h>

/* Field f of groups g (low half) and g + 1 (high half). */
PB_FORCE_INLINE __m256 load2(const float *lo, const float *hi) {
    return _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_load_ps(lo)), _mm_load_ps(hi), 1);
}

/* The 16-bit ticks of groups g (low half) and g + 1 (high half), as floats. */
PB_FORCE_INLINE __m256 load2_u16(const uint16_t *lo, const uint16_t *hi) {
    __m128i v = _mm_unpacklo_epi64(_mm_loadl_epi64((const __m128i *)(const void *)lo),
                                   _mm_loadl_epi64((const __m128i *)(const void *)hi));
    return _mm256_cvtepi32_ps(_mm256_cvtepu16_epi32(v));
}

PB_FORCE_INLINE __m256 pair_alpha_of(const uint16_t *ta0, const uint16_t *ta1, const float *inv0, const float *inv1,
                                     __m256 tv) {
    const __m256 magnitude = _mm256_castsi256_ps(_mm256_set1_epi32(0x7FFFFFFF));
    __m256 alpha = _mm256_mul_ps(_mm256_sub_ps(tv, load2_u16(ta0, ta1)), _mm256_and_ps(load2(inv0, inv1), magnitude));
    return _mm256_min_ps(_mm256_max_ps(alpha, _mm256_setzero_ps()), _mm256_set1_ps(1.0f));
}
#define pair_alpha(g, tv) pair_alpha_of((g)[0].tail.ta, (g)[1].tail.ta, (g)[0].tail.inv, (g)[1].tail.inv, tv) /* either kind */

#define LO(v) _mm256_castps256_ps128(v)
#define HI(v) _mm256_extractf128_ps(v, 1)

/* Rotation groups two at a time; an odd last group goes through the
 * four-lane loop.  Returns how many groups were done. */
PB_FORCE_INLINE uint32_t rotations8(const pb_clip_lanes *g, uint32_t count, float t, float *out, size_t stride) {
    const __m256 tv = _mm256_set1_ps(t), one = _mm256_set1_ps(1.0f), half = _mm256_set1_ps(0.5f);
    const __m256 three_halves = _mm256_set1_ps(1.5f), near_lo = _mm256_set1_ps(0.99f), near_hi = _mm256_set1_ps(1.01f);
    uint32_t i;
    for (i = 0; i + 2u <= count; i += 2u, g += 2) {
        __m256 alpha = pair_alpha(g, tv), wa, x, y, z, w, hl, inv, n0, n1, n2, n3;
        unsigned near;
        wa = _mm256_sub_ps(one, alpha);
        x = _mm256_add_ps(_mm256_mul_ps(wa, load2(g[0].a[0], g[1].a[0])), _mm256_mul_ps(alpha, load2(g[0].b[0], g[1].b[0])));
        y = _mm256_add_ps(_mm256_mul_ps(wa, load2(g[0].a[1], g[1].a[1])), _mm256_mul_ps(alpha, load2(g[0].b[1], g[1].b[1])));
        z = _mm256_add_ps(_mm256_mul_ps(wa, load2(g[0].a[2], g[1].a[2])), _mm256_mul_ps(alpha, load2(g[0].b[2], g[1].b[2])));
        w = _mm256_add_ps(_mm256_mul_ps(wa, load2(g[0].a[3], g[1].a[3])), _mm256_mul_ps(alpha, load2(g[0].b[3], g[1].b[3])));
        hl = _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(x, x), _mm256_mul_ps(y, y)), _mm256_mul_ps(z, z)),
                           _mm256_mul_ps(w, w));
        near = (unsigned)_mm256_movemask_ps(
            _mm256_and_ps(_mm256_cmp_ps(hl, near_lo, _CMP_GT_OQ), _mm256_cmp_ps(hl, near_hi, _CMP_LT_OQ)));
        hl = _mm256_mul_ps(half, hl);
        inv = _mm256_sub_ps(three_halves, hl);
        inv = _mm256_mul_ps(inv, _mm256_sub_ps(three_halves, _mm256_mul_ps(_mm256_mul_ps(hl, inv), inv)));
        n0 = _mm256_mul_ps(x, inv);
        n1 = _mm256_mul_ps(y, inv);
        n2 = _mm256_mul_ps(z, inv);
        n3 = _mm256_mul_ps(w, inv);
        pb_v8_transpose_halves(&n0, &n1, &n2, &n3); /* n0: lane 0 of group g | lane 0 of g + 1, ... */
        if ((near & 0xFu) == 0xFu && all_bound(&g[0])) {
            pb_v4_store(lane_out(out, stride, &g[0], 0), LO(n0));
            pb_v4_store(lane_out(out, stride, &g[0], 1), LO(n1));
            pb_v4_store(lane_out(out, stride, &g[0], 2), LO(n2));
            pb_v4_store(lane_out(out, stride, &g[0], 3), LO(n3));
        } else {
            odd_rotations(&g[0], near & 0xFu, LO(x), LO(y), LO(z), LO(w), LO(n0), LO(n1), LO(n2), LO(n3), out, stride);
        }
        if ((near >> 4) == 0xFu && all_bound(&g[1])) {
            pb_v4_store(lane_out(out, stride, &g[1], 0), HI(n0));
            pb_v4_store(lane_out(out, stride, &g[1], 1), HI(n1));
            pb_v4_store(lane_out(out, stride, &g[1], 2), HI(n2));
            pb_v4_store(lane_out(out, stride, &g[1], 3), HI(n3));
        } else {
            odd_rotations(&g[1], near >> 4, HI(x), HI(y), HI(z), HI(w), HI(n0), HI(n1), HI(n2), HI(n3), out, stride);
        }
    }
    return i;
}

/* Vector groups two at a time, as rotations8. */
PB_FORCE_INLINE uint32_t vectors8(const pb_clip_vlanes *g, uint32_t count, float t, float *out, size_t stride) {
    const __m256 tv = _mm256_set1_ps(t);
    uint32_t i;
    for (i = 0; i + 2u <= count; i += 2u, g += 2) {
        __m256 alpha = pair_alpha(g, tv), v0, v1, v2, v3;
        __m256 ax = load2(g[0].a[0], g[1].a[0]), ay = load2(g[0].a[1], g[1].a[1]), az = load2(g[0].a[2], g[1].a[2]);
        v0 = _mm256_add_ps(ax, _mm256_mul_ps(_mm256_sub_ps(load2(g[0].b[0], g[1].b[0]), ax), alpha));
        v1 = _mm256_add_ps(ay, _mm256_mul_ps(_mm256_sub_ps(load2(g[0].b[1], g[1].b[1]), ay), alpha));
        v2 = _mm256_add_ps(az, _mm256_mul_ps(_mm256_sub_ps(load2(g[0].b[2], g[1].b[2]), az), alpha));
        v3 = v2;
        pb_v8_transpose_halves(&v0, &v1, &v2, &v3);
        if (all_bound(&g[0])) {
            pb_v4_store3(lane_out(out, stride, &g[0], 0), LO(v0));
            pb_v4_store3(lane_out(out, stride, &g[0], 1), LO(v1));
            pb_v4_store3(lane_out(out, stride, &g[0], 2), LO(v2));
            pb_v4_store3(lane_out(out, stride, &g[0], 3), LO(v3));
        } else {
            odd_vectors(&g[0], LO(v0), LO(v1), LO(v2), LO(v3), out, stride);
        }
        if (all_bound(&g[1])) {
            pb_v4_store3(lane_out(out, stride, &g[1], 0), HI(v0));
            pb_v4_store3(lane_out(out, stride, &g[1], 1), HI(v1));
            pb_v4_store3(lane_out(out, stride, &g[1], 2), HI(v2));
            pb_v4_store3(lane_out(out, stride, &g[1], 3), HI(v3));
        } else {
            odd_vectors(&g[1], HI(v0), HI(v1), HI(v2), HI(v3), out, stride);
        }
    }
    return i;
}

#undef LO
#undef HI

#endif
