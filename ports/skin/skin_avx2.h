/* The AVX2 build's body for skin_simd.c's blended (MIXED) groups,
 * included by skin_simd.c only when compiled with -mavx2: blend_avx and
 * transform4_avx replace blend4 and transform4, four vertices at a time,
 * with 256-bit halves.
 *
 * Weights are decoded vertex by vertex (pb_skin_influences_at), where a
 * weight's broadcast to 256 bits is a load; the four-lane decode of
 * blend4 costs a shuffle and an insert per weight here.  A table entry's
 * rows x and y are eight consecutive floats, so each influence blends them
 * with one 256-bit multiply and add and row z with one 128-bit pair: four
 * operations where four lanes take six.  The four vertices' rows are
 * transposed inside each half, so one 256-bit transform gives rows x and
 * y of all four.  Positions and normals are loaded as 128-bit broadcasts
 * (loads, not shuffles) and deinterleaved in both halves at once.
 *
 * Eight vertices per step, with the transforms eight lanes wide, was
 * tried first: its larger transposes and the blends' spills made it
 * 1.1-1.2x the SSE2 kernel's time with 3 and 4 influences.  AVX brings no
 * fused multiply-add, and every product and sum is the reference's, in
 * its order, lane by lane, so the bits are the scalar reference's. */
#ifndef PLUMBOB_SKIN_AVX2_H
#define PLUMBOB_SKIN_AVX2_H

#include <immintrin.h>

/* A group's blended matrices as coefficients in lanes: in each 256-bit
 * one, row x in the low half and row y in the high half; row z apart. */
typedef struct skin_coef8 {
    __m256 a, b, c, t;
    __m128 az, bz, cz, tz;
} skin_coef8;

/* The blended rows of the vertex whose assignment bytes are at ab and
 * stored weights at wp: x and y as one 256-bit vector (a b c t of row x,
 * then of row y), z as a 128-bit one. */
PB_FORCE_INLINE void blend_xy_z(const pb_skin_range *r, const unsigned char *ab, const unsigned char *wp,
                                uint32_t influences, uint32_t stored, __m256 *xy, __m128 *z) {
    float w[4];
    const float *m[4];
    __m256 c, t, w0, w1, w2, w3;
    __m128 cz, tz;
    pb_skin_influences_at(r, ab, wp, influences, stored, w, m);
    w0 = _mm256_set1_ps(w[0]);
    c = _mm256_mul_ps(w0, _mm256_loadu_ps(m[0]));
    cz = _mm_mul_ps(_mm256_castps256_ps128(w0), _mm_load_ps(m[0] + 8));
    if (influences >= 2) {
        w1 = _mm256_set1_ps(w[1]);
        c = _mm256_add_ps(c, _mm256_mul_ps(w1, _mm256_loadu_ps(m[1])));
        cz = _mm_add_ps(cz, _mm_mul_ps(_mm256_castps256_ps128(w1), _mm_load_ps(m[1] + 8)));
    }
    if (influences == 3) {
        w2 = _mm256_set1_ps(w[2]);
        c = _mm256_add_ps(c, _mm256_mul_ps(w2, _mm256_loadu_ps(m[2])));
        cz = _mm_add_ps(cz, _mm_mul_ps(_mm256_castps256_ps128(w2), _mm_load_ps(m[2] + 8)));
    }
    if (influences == 4) { /* (t0 + t1) + (t2 + t3) */
        w2 = _mm256_set1_ps(w[2]);
        w3 = _mm256_set1_ps(w[3]);
        t = _mm256_add_ps(_mm256_mul_ps(w2, _mm256_loadu_ps(m[2])), _mm256_mul_ps(w3, _mm256_loadu_ps(m[3])));
        tz = _mm_add_ps(_mm_mul_ps(_mm256_castps256_ps128(w2), _mm_load_ps(m[2] + 8)),
                        _mm_mul_ps(_mm256_castps256_ps128(w3), _mm_load_ps(m[3] + 8)));
        c = _mm256_add_ps(c, t);
        cz = _mm_add_ps(cz, tz);
    }
    *xy = c;
    *z = cz;
}

/* The four vertices whose assignment bytes are at a and stored weights at
 * w (stored floats each), blended and transposed. */
PB_FORCE_INLINE skin_coef8 blend_avx(const pb_skin_range *r, const unsigned char *a, const unsigned char *w,
                                     uint32_t influences, uint32_t stored) {
    size_t bytes = 4u * stored; /* weight bytes per vertex */
    skin_coef8 c;
    blend_xy_z(r, a, w, influences, stored, &c.a, &c.az);
    blend_xy_z(r, a + 4, w + bytes, influences, stored, &c.b, &c.bz);
    blend_xy_z(r, a + 8, w + 2u * bytes, influences, stored, &c.c, &c.cz);
    blend_xy_z(r, a + 12, w + 3u * bytes, influences, stored, &c.t, &c.tz);
    /* in each half, rows of vertices -> coefficients of lanes: a = (a of row x | a of row y) per vertex */
    pb_v8_transpose_halves(&c.a, &c.b, &c.c, &c.t);
    _MM_TRANSPOSE4_PS(c.az, c.bz, c.cz, c.tz);
    return c;
}

/* Four little-endian float triples (48 bytes, any alignment) as x, y and
 * z rows, each in both halves: simd4.h's deinterleave on 128-bit
 * broadcasts, which are loads, not shuffles. */
PB_FORCE_INLINE void load_xyz4x2(const unsigned char *p, __m256 *x, __m256 *y, __m256 *z) {
    const float *f = (const float *)(const void *)p;
    __m256 a = _mm256_broadcast_ps((const __m128 *)(const void *)f);       /* x0 y0 z0 x1 */
    __m256 b = _mm256_broadcast_ps((const __m128 *)(const void *)(f + 4)); /* y1 z1 x2 y2 */
    __m256 c = _mm256_broadcast_ps((const __m128 *)(const void *)(f + 8)); /* z2 x3 y3 z3 */
    __m256 bc = _mm256_shuffle_ps(b, c, _MM_SHUFFLE(1, 1, 2, 2));
    *x = _mm256_shuffle_ps(a, bc, _MM_SHUFFLE(2, 0, 3, 0));
    *y = _mm256_shuffle_ps(_mm256_shuffle_ps(a, b, _MM_SHUFFLE(0, 0, 1, 1)),
                           _mm256_shuffle_ps(b, c, _MM_SHUFFLE(2, 2, 3, 3)), _MM_SHUFFLE(2, 0, 2, 0));
    *z = _mm256_shuffle_ps(_mm256_shuffle_ps(a, b, _MM_SHUFFLE(1, 1, 2, 2)),
                           _mm256_shuffle_ps(c, c, _MM_SHUFFLE(3, 3, 0, 0)), _MM_SHUFFLE(2, 0, 2, 0));
}

/* ((a x + b y) + c z), lane by lane */
PB_FORCE_INLINE __m256 dot3_8(__m256 a, __m256 b, __m256 c, __m256 x, __m256 y, __m256 z) {
    return _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(a, x), _mm256_mul_ps(b, y)), _mm256_mul_ps(c, z));
}
PB_FORCE_INLINE __m128 dot3_4(__m128 a, __m128 b, __m128 c, __m128 x, __m128 y, __m128 z) {
    return _mm_add_ps(_mm_add_ps(_mm_mul_ps(a, x), _mm_mul_ps(b, y)), _mm_mul_ps(c, z));
}

/* transform4 with rows x and y of positions and normals in one 256-bit
 * transform each. */
PB_FORCE_INLINE void transform4_avx(const pb_skin_range *r, uint32_t v, skin_coef8 c, const unsigned char *pos,
                                    const unsigned char *nrm, uint32_t n, int out, __m128 *defer) {
    __m256 x8, y8, z8, o, q = _mm256_setzero_ps();
    __m128 qz = _mm_setzero_ps(), oz;
    load_xyz4x2(pos, &x8, &y8, &z8);
    o = _mm256_add_ps(dot3_8(c.a, c.b, c.c, x8, y8, z8), c.t);
    oz = _mm_add_ps(dot3_4(c.az, c.bz, c.cz, _mm256_castps256_ps128(x8), _mm256_castps256_ps128(y8),
                           _mm256_castps256_ps128(z8)),
                    c.tz);
    if (nrm) {
        load_xyz4x2(nrm, &x8, &y8, &z8);
        q = dot3_8(c.a, c.b, c.c, x8, y8, z8);
        qz = dot3_4(c.az, c.bz, c.cz, _mm256_castps256_ps128(x8), _mm256_castps256_ps128(y8),
                    _mm256_castps256_ps128(z8));
    }
    emit4(r, v, n, out, defer, _mm256_castps256_ps128(o), _mm256_extractf128_ps(o, 1), oz, nrm != NULL,
          _mm256_castps256_ps128(q), _mm256_extractf128_ps(q, 1), qz);
}

#endif
