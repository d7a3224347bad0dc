/* SSE2 twin of pb_skin_scalar: the blended columns live in four registers,
 * one multiply-add per column and influence.  Same operations in the same
 * order as the scalar reference, so the same bits. */
#include "kernels.h"

#if defined(PLUMBOB_PORT_SSE2)
#include <emmintrin.h>
#include <float.h>
#include "pb_math.h"


/* x y z of v to o[0..2] without touching o[3] (outputs may interleave). */
static void store3(float *o, __m128 v) {
    _mm_storel_pi((__m64 *)(void *)o, v);
    _mm_store_ss(o + 2, _mm_movehl_ps(v, v));
}

/* Normalizes the batch's n normals (len2 holds their squared lengths) and
 * stores them: pb_rsqrtf's bit trick and Newton steps, four lanes at once;
 * lanes outside its fast range (zero, subnormal, huge, NaN) take the
 * scalar function itself. */
static void flush_normals(const pb_skin_range *r, uint32_t v0, uint32_t n, const __m128 *nv,
                          const float *len2) {
    __m128 x = _mm_loadu_ps(len2), y, half = _mm_set1_ps(0.5f), three_halves = _mm_set1_ps(1.5f), hx;
    float inv[4];
    uint32_t i;
    y = _mm_castsi128_ps(_mm_sub_epi32(_mm_set1_epi32(0x5F375A86), _mm_srli_epi32(_mm_castps_si128(x), 1)));
    hx = _mm_mul_ps(half, x);
    y = _mm_mul_ps(y, _mm_sub_ps(three_halves, _mm_mul_ps(_mm_mul_ps(hx, y), y)));
    y = _mm_mul_ps(y, _mm_sub_ps(three_halves, _mm_mul_ps(_mm_mul_ps(hx, y), y)));
    y = _mm_mul_ps(y, _mm_sub_ps(three_halves, _mm_mul_ps(_mm_mul_ps(hx, y), y)));
    _mm_storeu_ps(inv, y);
    for (i = 0; i < n; i++) {
        if (!(len2[i] >= FLT_MIN && len2[i] <= FLT_MAX)) inv[i] = pb_rsqrtf(len2[i]);
        store3(r->out_normals + r->normal_stride * (v0 + i), _mm_mul_ps(nv[i], _mm_set1_ps(inv[i])));
    }
}

/* One vertex with a fixed influence count (a constant after inlining, so
 * each count gets its own straight-line loop). */
PB_FORCE_INLINE void skin_vertex(const pb_skin_range *r, uint32_t v, uint32_t influences, __m128 *n_out,
                               float *len2_out) {
    float w[4];
    const float *m[4];
    const unsigned char *pp = r->positions + 12u * v;
    __m128 c0, c1, c2, c3, w0, w1, q;
    pb_skin_influences(r, v, influences, w, m);
    w0 = _mm_set1_ps(w[0]);
    c0 = _mm_mul_ps(w0, _mm_load_ps(m[0]));
    c1 = _mm_mul_ps(w0, _mm_load_ps(m[0] + 4));
    c2 = _mm_mul_ps(w0, _mm_load_ps(m[0] + 8));
    c3 = _mm_mul_ps(w0, _mm_load_ps(m[0] + 12));
    if (influences >= 2) {
        w1 = _mm_set1_ps(w[1]);
        c0 = _mm_add_ps(c0, _mm_mul_ps(w1, _mm_load_ps(m[1])));
        c1 = _mm_add_ps(c1, _mm_mul_ps(w1, _mm_load_ps(m[1] + 4)));
        c2 = _mm_add_ps(c2, _mm_mul_ps(w1, _mm_load_ps(m[1] + 8)));
        c3 = _mm_add_ps(c3, _mm_mul_ps(w1, _mm_load_ps(m[1] + 12)));
    }
    if (influences == 3) {
        __m128 w2 = _mm_set1_ps(w[2]);
        c0 = _mm_add_ps(c0, _mm_mul_ps(w2, _mm_load_ps(m[2])));
        c1 = _mm_add_ps(c1, _mm_mul_ps(w2, _mm_load_ps(m[2] + 4)));
        c2 = _mm_add_ps(c2, _mm_mul_ps(w2, _mm_load_ps(m[2] + 8)));
        c3 = _mm_add_ps(c3, _mm_mul_ps(w2, _mm_load_ps(m[2] + 12)));
    }
    if (influences == 4) {
        __m128 w2 = _mm_set1_ps(w[2]), w3 = _mm_set1_ps(w[3]);
        c0 = _mm_add_ps(c0, _mm_add_ps(_mm_mul_ps(w2, _mm_load_ps(m[2])), _mm_mul_ps(w3, _mm_load_ps(m[3]))));
        c1 = _mm_add_ps(c1, _mm_add_ps(_mm_mul_ps(w2, _mm_load_ps(m[2] + 4)), _mm_mul_ps(w3, _mm_load_ps(m[3] + 4))));
        c2 = _mm_add_ps(c2, _mm_add_ps(_mm_mul_ps(w2, _mm_load_ps(m[2] + 8)), _mm_mul_ps(w3, _mm_load_ps(m[3] + 8))));
        c3 = _mm_add_ps(c3, _mm_add_ps(_mm_mul_ps(w2, _mm_load_ps(m[2] + 12)), _mm_mul_ps(w3, _mm_load_ps(m[3] + 12))));
    }
    q = _mm_add_ps(_mm_mul_ps(c0, _mm_set1_ps(pb_f32le(pp))), _mm_mul_ps(c1, _mm_set1_ps(pb_f32le(pp + 4))));
    q = _mm_add_ps(_mm_add_ps(q, _mm_mul_ps(c2, _mm_set1_ps(pb_f32le(pp + 8)))), c3);
    store3(r->out_positions + r->position_stride * v, q);
    if (r->normals) {
        const unsigned char *np = r->normals + 12u * v;
        __m128 n, sq;
        n = _mm_add_ps(_mm_mul_ps(c0, _mm_set1_ps(pb_f32le(np))), _mm_mul_ps(c1, _mm_set1_ps(pb_f32le(np + 4))));
        n = _mm_add_ps(n, _mm_mul_ps(c2, _mm_set1_ps(pb_f32le(np + 8))));
        sq = _mm_mul_ps(n, n);
        *n_out = n;
        *len2_out = _mm_cvtss_f32(_mm_add_ss(_mm_add_ss(sq, _mm_shuffle_ps(sq, sq, 1)), _mm_movehl_ps(sq, sq)));
    }
}

/* All vertices with a fixed influence count; normals are normalized four
 * at a time. */
PB_FORCE_INLINE void skin_all(const pb_skin_range *r, uint32_t influences) {
    uint32_t v, batch = 0;
    __m128 nv[4];
    float len2[4] = {1.0f, 1.0f, 1.0f, 1.0f};
    for (v = 0; v < r->count; v++) {
        skin_vertex(r, v, influences, &nv[batch], &len2[batch]);
        if (r->normals && ++batch == 4u) {
            flush_normals(r, v - 3u, 4u, nv, len2);
            batch = 0;
        }
    }
    if (batch) flush_normals(r, r->count - batch, batch, nv, len2);
}

void pb_skin_sse2(const pb_skin_range *r) {
    switch (r->weight_count) {
    case 0: skin_all(r, 1); break;
    case 1: skin_all(r, 2); break;
    case 2: skin_all(r, 3); break;
    default: skin_all(r, 4); break;
    }
}
#else
typedef int pb_skin_sse2_unused; /* ISO C wants something in a unit */
#endif
