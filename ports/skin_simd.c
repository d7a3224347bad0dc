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

/* Normalizes four normals and stores the first n of them (vertices v0..):
 * transposed to x, y and z rows so the squared lengths, pb_rsqrtf's bit
 * trick and its Newton steps run on four lanes with no horizontal sums;
 * lanes outside the trick's range (zero, subnormal, huge, NaN) take the
 * scalar function itself. */
PB_FORCE_INLINE void store_normals(const pb_skin_range *r, uint32_t v0, uint32_t n, pb_v4 n0, pb_v4 n1,
                                   pb_v4 n2, pb_v4 n3) {
    pb_v4 x = n0, y = n1, z = n2, w = n3, len2, inv, hx, three_halves = pb_v4_set1(1.5f);
    unsigned odd;
    pb_v4_transpose(&x, &y, &z, &w);
    len2 = pb_v4_add(pb_v4_add(pb_v4_mul(x, x), pb_v4_mul(y, y)), pb_v4_mul(z, z));
    inv = pb_v4_rsqrt_guess(len2);
    hx = pb_v4_mul(pb_v4_set1(0.5f), len2);
    inv = pb_v4_mul(inv, pb_v4_sub(three_halves, pb_v4_mul(pb_v4_mul(hx, inv), inv)));
    inv = pb_v4_mul(inv, pb_v4_sub(three_halves, pb_v4_mul(pb_v4_mul(hx, inv), inv)));
    inv = pb_v4_mul(inv, pb_v4_sub(three_halves, pb_v4_mul(pb_v4_mul(hx, inv), inv)));
    /* lanes in [FLT_MIN, FLT_MAX] are fine; NaN fails both compares */
    odd = ~pb_m4_bits(pb_m4_and(pb_v4_ge(len2, pb_v4_set1(FLT_MIN)), pb_v4_ge(pb_v4_set1(FLT_MAX), len2))) & 15u;
    if (odd) {
        float l[4], f[4];
        uint32_t i;
        pb_v4_store(l, len2);
        pb_v4_store(f, inv);
        for (i = 0; i < 4; i++)
            if (odd & (1u << i)) f[i] = pb_rsqrtf(l[i]);
        inv = pb_v4_loadu(f);
    }
    x = pb_v4_mul(x, inv);
    y = pb_v4_mul(y, inv);
    z = pb_v4_mul(z, inv);
    pb_v4_transpose(&x, &y, &z, &w);
    pb_v4_store3(r->out_normals + r->normal_stride * v0, x);
    if (n > 1) pb_v4_store3(r->out_normals + r->normal_stride * (v0 + 1u), y);
    if (n > 2) pb_v4_store3(r->out_normals + r->normal_stride * (v0 + 2u), z);
    if (n > 3) pb_v4_store3(r->out_normals + r->normal_stride * (v0 + 3u), w);
}

/* One vertex with a fixed influence count (a constant after inlining, so
 * each count gets its own straight-line loop): stores the position and
 * returns the blended, not yet normalized normal. */
PB_FORCE_INLINE pb_v4 skin_vertex(const pb_skin_range *r, uint32_t v, uint32_t influences) {
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
        q = pb_v4_add(pb_v4_mul(c0, pb_v4_set1(pb_f32le(np))), pb_v4_mul(c1, pb_v4_set1(pb_f32le(np + 4))));
        q = pb_v4_add(q, pb_v4_mul(c2, pb_v4_set1(pb_f32le(np + 8))));
    }
    return q;
}

/* All vertices with a fixed influence count, four per step so their
 * normals are normalized together. */
PB_FORCE_INLINE void skin_all(const pb_skin_range *r, uint32_t influences) {
    uint32_t v = 0;
    for (; v + 4u <= r->count; v += 4u) {
        pb_v4 n0 = skin_vertex(r, v, influences), n1 = skin_vertex(r, v + 1u, influences);
        pb_v4 n2 = skin_vertex(r, v + 2u, influences), n3 = skin_vertex(r, v + 3u, influences);
        if (r->normals) store_normals(r, v, 4u, n0, n1, n2, n3);
    }
    if (v < r->count) { /* the last one to three; spare lanes hold ones and are not stored */
        uint32_t n = r->count - v;
        pb_v4 unit = pb_v4_set1(1.0f), n0, n1 = unit, n2 = unit;
        n0 = skin_vertex(r, v, influences);
        if (n > 1) n1 = skin_vertex(r, v + 1u, influences);
        if (n > 2) n2 = skin_vertex(r, v + 2u, influences);
        if (r->normals) store_normals(r, v, n, n0, n1, n2, unit);
    }
}

#if defined(PLUMBOB_PORT_SSE2)
void pb_skin_sse2(const pb_skin_range *r)
#else
void pb_skin_neon(const pb_skin_range *r)
#endif
{
    /* a private copy: the compiler keeps its fields in registers, where
     * stores through the output pointers would make it reload *r */
    pb_skin_range local = *r;
    switch (local.weight_count) {
    case 0: skin_all(&local, 1); break;
    case 1: skin_all(&local, 2); break;
    case 2: skin_all(&local, 3); break;
    default: skin_all(&local, 4); break;
    }
}
#else
typedef int pb_skin_simd_unused; /* ISO C wants something in a unit */
#endif
