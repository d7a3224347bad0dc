/* The SIMD twin of pb_skin_scalar, written once over simd4.h and compiled
 * as pb_skin_sse2 or pb_skin_neon: the blended columns live in four
 * registers, one multiply and one add per column and influence (never
 * fused), so the bits match the scalar reference; ARMv7 NEON flushes
 * subnormals, which only matters for degenerate data. */
#include "kernels.h"

#if defined(PLUMBOB_PORT_SSE2) || defined(PLUMBOB_PORT_NEON)
#include <float.h>
#include "simd4.h"
#include "pb_math.h"

PB_FORCE_INLINE pb_v4 mul_add(pb_v4 acc, pb_v4 w, const float *m) {
    return pb_v4_add(acc, pb_v4_mul(w, pb_v4_load(m)));
}

/* Normalizes the batch's n normals (len2 holds their squared lengths) and
 * stores them: pb_rsqrtf's bit trick and Newton steps, four lanes at once;
 * lanes outside its fast range (zero, subnormal, huge, NaN) take the
 * scalar function itself. */
static void flush_normals(const pb_skin_range *r, uint32_t v0, uint32_t n, const pb_v4 *nv, const float *len2) {
    pb_v4 x = pb_v4_loadu(len2), y = pb_v4_rsqrt_guess(x), three_halves = pb_v4_set1(1.5f);
    pb_v4 hx = pb_v4_mul(pb_v4_set1(0.5f), x);
    float inv[4];
    uint32_t i;
    y = pb_v4_mul(y, pb_v4_sub(three_halves, pb_v4_mul(pb_v4_mul(hx, y), y)));
    y = pb_v4_mul(y, pb_v4_sub(three_halves, pb_v4_mul(pb_v4_mul(hx, y), y)));
    y = pb_v4_mul(y, pb_v4_sub(three_halves, pb_v4_mul(pb_v4_mul(hx, y), y)));
    pb_v4_store(inv, y);
    for (i = 0; i < n; i++) {
        if (!(len2[i] >= FLT_MIN && len2[i] <= FLT_MAX)) inv[i] = pb_rsqrtf(len2[i]);
        pb_v4_store3(r->out_normals + r->normal_stride * (v0 + i), pb_v4_mul(nv[i], pb_v4_set1(inv[i])));
    }
}

/* One vertex with a fixed influence count (a constant after inlining, so
 * each count gets its own straight-line loop). */
PB_FORCE_INLINE void skin_vertex(const pb_skin_range *r, uint32_t v, uint32_t influences, pb_v4 *n_out,
                                 float *len2_out) {
    float w[4];
    const float *m[4];
    const unsigned char *pp = r->positions + 12u * v;
    pb_v4 c0, c1, c2, c3, w0, q;
    pb_skin_influences(r, v, influences, w, m);
    w0 = pb_v4_set1(w[0]);
    c0 = pb_v4_mul(w0, pb_v4_load(m[0]));
    c1 = pb_v4_mul(w0, pb_v4_load(m[0] + 4));
    c2 = pb_v4_mul(w0, pb_v4_load(m[0] + 8));
    c3 = pb_v4_mul(w0, pb_v4_load(m[0] + 12));
    if (influences >= 2) {
        pb_v4 w1 = pb_v4_set1(w[1]);
        c0 = mul_add(c0, w1, m[1]);
        c1 = mul_add(c1, w1, m[1] + 4);
        c2 = mul_add(c2, w1, m[1] + 8);
        c3 = mul_add(c3, w1, m[1] + 12);
    }
    if (influences == 3) {
        pb_v4 w2 = pb_v4_set1(w[2]);
        c0 = mul_add(c0, w2, m[2]);
        c1 = mul_add(c1, w2, m[2] + 4);
        c2 = mul_add(c2, w2, m[2] + 8);
        c3 = mul_add(c3, w2, m[2] + 12);
    }
    if (influences == 4) { /* (t0 + t1) + (t2 + t3) */
        pb_v4 w2 = pb_v4_set1(w[2]), w3 = pb_v4_set1(w[3]);
        c0 = pb_v4_add(c0, mul_add(pb_v4_mul(w2, pb_v4_load(m[2])), w3, m[3]));
        c1 = pb_v4_add(c1, mul_add(pb_v4_mul(w2, pb_v4_load(m[2] + 4)), w3, m[3] + 4));
        c2 = pb_v4_add(c2, mul_add(pb_v4_mul(w2, pb_v4_load(m[2] + 8)), w3, m[3] + 8));
        c3 = pb_v4_add(c3, mul_add(pb_v4_mul(w2, pb_v4_load(m[2] + 12)), w3, m[3] + 12));
    }
    q = pb_v4_add(pb_v4_mul(c0, pb_v4_set1(pb_f32le(pp))), pb_v4_mul(c1, pb_v4_set1(pb_f32le(pp + 4))));
    q = pb_v4_add(pb_v4_add(q, pb_v4_mul(c2, pb_v4_set1(pb_f32le(pp + 8)))), c3);
    pb_v4_store3(r->out_positions + r->position_stride * v, q);
    if (r->normals) {
        const unsigned char *np = r->normals + 12u * v;
        pb_v4 n = pb_v4_add(pb_v4_mul(c0, pb_v4_set1(pb_f32le(np))), pb_v4_mul(c1, pb_v4_set1(pb_f32le(np + 4))));
        n = pb_v4_add(n, pb_v4_mul(c2, pb_v4_set1(pb_f32le(np + 8))));
        *n_out = n;
        *len2_out = pb_v4_sum3(pb_v4_mul(n, n));
    }
}

/* All vertices with a fixed influence count; normals are normalized four
 * at a time. */
PB_FORCE_INLINE void skin_all(const pb_skin_range *r, uint32_t influences) {
    uint32_t v, batch = 0;
    pb_v4 nv[4];
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

#if defined(PLUMBOB_PORT_SSE2)
void pb_skin_sse2(const pb_skin_range *r)
#else
void pb_skin_neon(const pb_skin_range *r)
#endif
{
    switch (r->weight_count) {
    case 0: skin_all(r, 1); break;
    case 1: skin_all(r, 2); break;
    case 2: skin_all(r, 3); break;
    default: skin_all(r, 4); break;
    }
}
#else
typedef int pb_skin_simd_unused; /* ISO C wants something in a unit */
#endif
