/* The SIMD twin of pb_skin_scalar, written once over simd4.h and compiled
 * as pb_skin_sse2 or pb_skin_neon.  Four vertices per step: each vertex's
 * blended rows take one multiply and one add per row and influence (never
 * fused); the rows of the four are then transposed, so the transforms run
 * with one vertex per lane on positions and normals loaded as x, y and z
 * rows.  The normals are normalized in the same lanes, but in a loop of
 * their own after each block of 32 vertices: there one group's Newton
 * steps overlap the next group's, where inside the long skinning loop their
 * latency was a third of a vertex's time.  Per lane these are the scalar
 * reference's operations, so the bits match; ARMv7 NEON flushes
 * subnormals, which only matters for degenerate data. */
#include "kernels.h"

#if defined(PLUMBOB_PORT_SSE2) || defined(PLUMBOB_PORT_NEON)
#include <float.h>
#include "simd4.h"
#include "pb_math.h"

PB_FORCE_INLINE pb_v4 mul_add(pb_v4 acc, pb_v4 w, const float *m) {
    return pb_v4_add(acc, pb_v4_mul(w, pb_v4_load(m)));
}

/* The blended row `row` (0..2) of a vertex with weights w and matrices m. */
PB_FORCE_INLINE pb_v4 blend_row(const float w[4], const float *const m[4], uint32_t row, uint32_t influences) {
    uint32_t o = 4u * row;
    pb_v4 c = pb_v4_mul(pb_v4_set1(w[0]), pb_v4_load(m[0] + o));
    if (influences >= 2) c = mul_add(c, pb_v4_set1(w[1]), m[1] + o);
    if (influences == 3) c = mul_add(c, pb_v4_set1(w[2]), m[2] + o);
    if (influences == 4) /* (t0 + t1) + (t2 + t3) */
        c = pb_v4_add(c, mul_add(pb_v4_mul(pb_v4_set1(w[2]), pb_v4_load(m[2] + o)), pb_v4_set1(w[3]), m[3] + o));
    return c;
}

/* Blended rows of vertex v.  lone (2 influences only): the vertex's second
 * slot is unused, so its term is 0 times the zero entry, +0 in every
 * element, and the rows are t0 + 0 (the add keeps the reference's bits: it
 * turns a -0 of t0 into +0) without the second influence's decode, loads and
 * multiplies: a one-weight mesh (the GMDC page's "single weight section",
 * its weights 1.0) runs nearly the one-influence loop. */
PB_FORCE_INLINE void blend(const pb_skin_range *r, uint32_t v, uint32_t influences, int lone, pb_v4 *x, pb_v4 *y,
                           pb_v4 *z) {
    float w[4];
    const float *m[4];
    if (lone) {
        float sum = 0.0f;
        pb_v4 zero = pb_v4_set1(0.0f);
        pb_skin_influence(r, r->assignments + 4u * v, r->weights + 4u * v, 0, 1, &sum, &w[0], &m[0]);
        *x = pb_v4_add(blend_row(w, m, 0, 1), zero);
        *y = pb_v4_add(blend_row(w, m, 1, 1), zero);
        *z = pb_v4_add(blend_row(w, m, 2, 1), zero);
        return;
    }
    pb_skin_influences(r, v, influences, w, m);
    *x = blend_row(w, m, 0, influences);
    *y = blend_row(w, m, 1, influences);
    *z = blend_row(w, m, 2, influences);
}

/* Whether vertices v0 .. end-1 all have an unused (0xFF) second slot; a
 * block of two-weight vertices answers at its first. */
PB_FORCE_INLINE int lone_run(const pb_skin_range *r, uint32_t v0, uint32_t end) {
    const unsigned char *a = r->assignments + 1u;
    uint32_t v = v0;
    for (; v + 4u <= end; v += 4u)
        if ((a[4u * v] & a[4u * v + 4u] & a[4u * v + 8u] & a[4u * v + 12u]) != 0xFFu) return 0;
    for (; v < end; v++)
        if (a[4u * v] != 0xFFu) return 0;
    return 1;
}

/* 1 / length per lane: pb_rsqrtf's bit trick and Newton steps on four
 * lanes; lanes outside the trick's range (zero, subnormal, huge, NaN) take
 * the scalar function itself. */
PB_FORCE_INLINE pb_v4 rsqrt4(pb_v4 len2) {
    pb_v4 three_halves = pb_v4_set1(1.5f), hx = pb_v4_mul(pb_v4_set1(0.5f), len2), inv = pb_v4_rsqrt_guess(len2);
    unsigned odd;
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
    return inv;
}

/* Stores lanes 0..n-1 of the x, y, z rows as n float triples, stride apart. */
PB_FORCE_INLINE void store_rows(float *o, size_t stride, uint32_t n, pb_v4 x, pb_v4 y, pb_v4 z) {
    pb_v4 w = z;
    pb_v4_transpose(&x, &y, &z, &w);
    pb_v4_store3(o, x);
    if (n > 1) pb_v4_store3(o + stride, y);
    if (n > 2) pb_v4_store3(o + 2u * stride, z);
    if (n > 3) pb_v4_store3(o + 3u * stride, w);
}

/* Four vertices v[0..3] whose positions (and normals) are the 48 bytes at
 * pos (and nrm); stores the first n, or leaves the normals in defer[0..2]
 * for normalize_block. */
PB_FORCE_INLINE void skin4(const pb_skin_range *r, const uint32_t v[4], const unsigned char *pos,
                           const unsigned char *nrm, uint32_t n, uint32_t influences, int lone, pb_v4 *defer) {
    pb_v4 ax, bx, cx, tx, ay, by, cy, ty, az, bz, cz, tz, px, py, pz;
    blend(r, v[0], influences, lone, &ax, &ay, &az);
    blend(r, v[1], influences, lone, &bx, &by, &bz);
    blend(r, v[2], influences, lone, &cx, &cy, &cz);
    blend(r, v[3], influences, lone, &tx, &ty, &tz);
    /* rows of vertices -> coefficients of lanes: ax = (a of row x) per vertex */
    pb_v4_transpose(&ax, &bx, &cx, &tx);
    pb_v4_transpose(&ay, &by, &cy, &ty);
    pb_v4_transpose(&az, &bz, &cz, &tz);
    pb_v4_load_xyz4(pos, &px, &py, &pz);
    store_rows(r->out_positions + r->position_stride * v[0], r->position_stride, n,
               pb_v4_add(pb_v4_add(pb_v4_add(pb_v4_mul(ax, px), pb_v4_mul(bx, py)), pb_v4_mul(cx, pz)), tx),
               pb_v4_add(pb_v4_add(pb_v4_add(pb_v4_mul(ay, px), pb_v4_mul(by, py)), pb_v4_mul(cy, pz)), ty),
               pb_v4_add(pb_v4_add(pb_v4_add(pb_v4_mul(az, px), pb_v4_mul(bz, py)), pb_v4_mul(cz, pz)), tz));
    if (nrm) {
        pb_v4 qx, qy, qz;
        pb_v4_load_xyz4(nrm, &px, &py, &pz);
        qx = pb_v4_add(pb_v4_add(pb_v4_mul(ax, px), pb_v4_mul(bx, py)), pb_v4_mul(cx, pz));
        qy = pb_v4_add(pb_v4_add(pb_v4_mul(ay, px), pb_v4_mul(by, py)), pb_v4_mul(cy, pz));
        qz = pb_v4_add(pb_v4_add(pb_v4_mul(az, px), pb_v4_mul(bz, py)), pb_v4_mul(cz, pz));
        if (!r->normalize) {
            store_rows(r->out_normals + r->normal_stride * v[0], r->normal_stride, n, qx, qy, qz);
            return;
        }
        defer[0] = qx; /* normalize_block finishes them */
        defer[1] = qy;
        defer[2] = qz;
    }
}

/* The deferred normalization of a block's normals: a short loop whose
 * iterations are independent, so the Newton steps' latency overlaps. */
PB_FORCE_INLINE void normalize_block(const pb_skin_range *r, const pb_v4 *defer, uint32_t v, uint32_t n) {
    uint32_t i;
    for (i = 0; i < n; i += 4u, defer += 3) {
        pb_v4 qx = defer[0], qy = defer[1], qz = defer[2], inv;
        inv = rsqrt4(pb_v4_add(pb_v4_add(pb_v4_mul(qx, qx), pb_v4_mul(qy, qy)), pb_v4_mul(qz, qz)));
        store_rows(r->out_normals + r->normal_stride * (v + i), r->normal_stride, n - i < 4u ? n - i : 4u,
                   pb_v4_mul(qx, inv), pb_v4_mul(qy, inv), pb_v4_mul(qz, inv));
    }
}

/* The whole groups of four from *v to before end; returns where the next
 * group's normals go. */
PB_FORCE_INLINE pb_v4 *skin_groups(const pb_skin_range *r, uint32_t *vp, uint32_t end, uint32_t influences, int lone,
                                   pb_v4 *d) {
    uint32_t v = *vp;
    for (; v + 4u <= end; v += 4u, d += 3) {
        uint32_t vs[4];
        vs[0] = v;
        vs[1] = v + 1u;
        vs[2] = v + 2u;
        vs[3] = v + 3u;
        skin4(r, vs, r->positions + 12u * v, r->normals ? r->normals + 12u * v : NULL, 4u, influences, lone, d);
    }
    *vp = v;
    return d;
}

/* All vertices with a fixed influence count (a constant after inlining, so
 * each count gets its own straight-line loop), BLOCK at a time. */
#define BLOCK 32u /* a multiple of 4 */
PB_FORCE_INLINE void skin_all(const pb_skin_range *r, uint32_t influences) {
    uint32_t v = 0;
    pb_v4 defer[BLOCK / 4u * 3u]; /* the block's unnormalized normals, as x, y, z rows */
    while (v < r->count) {
        uint32_t b0 = v, bend = r->count - v < BLOCK ? r->count : v + BLOCK;
        pb_v4 *d = defer;
        /* a block of one-weight vertices takes its own loop: one test per
         * block, which a mesh's runs of rigid vertices make predictable */
        if (influences == 2 && lone_run(r, v, bend))
            d = skin_groups(r, &v, bend, 2, 1, d);
        else
            d = skin_groups(r, &v, bend, influences, 0, d);
        if (v < bend) {
            /* the last one to three: spare lanes repeat the last vertex, read
             * from a local copy so no load passes the streams' ends */
            unsigned char pos[48], nrm[48];
            uint32_t n = bend - v, vs[4], i, b;
            for (i = 0; i < 4; i++) {
                vs[i] = i < n ? v + i : r->count - 1u;
                for (b = 0; b < 12u; b++) {
                    pos[12u * i + b] = r->positions[12u * vs[i] + b];
                    if (r->normals) nrm[12u * i + b] = r->normals[12u * vs[i] + b];
                }
            }
            skin4(r, vs, pos, r->normals ? nrm : NULL, n, influences, 0, d);
            v = bend;
        }
        if (r->normals && r->normalize) normalize_block(r, defer, b0, bend - b0);
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
