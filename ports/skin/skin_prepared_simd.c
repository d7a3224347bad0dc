/* The SIMD twins of pb_skinp_scalar, written once over simd4.h and
 * compiled as pb_skinp_sse2 or pb_skinp_neon.  The prepared mesh already
 * holds what plumbob_skin's kernels decode per vertex (weights as
 * numbers, slots that all weigh, points as x, y, z rows), so two shapes
 * remain:
 *
 * - Rigid spans whose normals are not renormalized: one vertex per step,
 *   the matrix as the table's columns (x y z in lanes), the point's
 *   coordinates splatted: no transposes.
 * - Everything else: four vertices per step (half a group); each vertex's
 *   rows blended (one multiply and add per row and influence, the
 *   weight splatted from the group's row of weights, the implied one
 *   computed for four vertices at once), the four's rows transposed, then
 *   the transforms and the renormalization with one vertex per lane on
 *   the rows of points as they are stored.
 *
 * Products and sums are never fused and run in the reference's order per
 * lane, so the bits match. */
#include "skin_prepared.h"

#if defined(PLUMBOB_PORT_SSE2) || defined(PLUMBOB_PORT_NEON)
#include <float.h>
#include "simd4.h"
#include "pb_math.h"

/* Lane i (a constant) of v in every lane: one instruction (SSE2's
 * integer shuffle copies as it shuffles, where shufps would need a copy
 * first). */
PB_FORCE_INLINE pb_v4 sp_lane_of(pb_v4 v, unsigned i) {
#if defined(PLUMBOB_PORT_SSE2)
    __m128i x = _mm_castps_si128(v);
    switch (i) {
    case 0: return _mm_castsi128_ps(_mm_shuffle_epi32(x, 0x00));
    case 1: return _mm_castsi128_ps(_mm_shuffle_epi32(x, 0x55));
    case 2: return _mm_castsi128_ps(_mm_shuffle_epi32(x, 0xAA));
    default: return _mm_castsi128_ps(_mm_shuffle_epi32(x, 0xFF));
    }
#else
    return pb_v4_splat(v, i);
#endif
}

/* Output layouts: ROWS any strides (a transpose and three-float stores per
 * vertex); PACKED positions (and normals) at stride 3; PN6 normals 3 floats
 * after the positions, both strides 6. */
enum { sp_OUT_ROWS, sp_OUT_PACKED, sp_OUT_PN6 };

PB_FORCE_INLINE void sp_store_rows(float *o, size_t stride, pb_v4 x, pb_v4 y, pb_v4 z) {
    pb_v4 w = z;
    pb_v4_transpose(&x, &y, &z, &w);
    pb_v4_store3(o, x);
    pb_v4_store3(o + stride, y);
    pb_v4_store3(o + 2u * stride, z);
    pb_v4_store3(o + 3u * stride, w);
}

/* Positions px..pz and normals qx..qz of four vertices into the
 * interleaved stream at o: 96 bytes, per vertex one 16-byte store (x y z
 * and normal x) and one 8-byte store (normal y z): ten shuffles per four
 * vertices where six 16-byte stores took fourteen. */
PB_FORCE_INLINE void sp_store_pn6(float *o, pb_v4 px, pb_v4 py, pb_v4 pz, pb_v4 qx, pb_v4 qy, pb_v4 qz) {
    pb_v4 lo, hi;
    pb_v4_transpose(&px, &py, &pz, &qx); /* px: vertex 0's x y z and normal x, ... */
    pb_v4_zip(qy, qz, &lo, &hi);         /* lo: normal y z of vertices 0 and 1 */
    pb_v4_store(o, px);
    pb_v4_store_lo2(o + 4, lo);
    pb_v4_store(o + 6, py);
    pb_v4_store_hi2(o + 10, lo);
    pb_v4_store(o + 12, pz);
    pb_v4_store_lo2(o + 16, hi);
    pb_v4_store(o + 18, qx);
    pb_v4_store_hi2(o + 22, hi);
}

#if !(defined(PLUMBOB_PORT_SSE2) && defined(__AVX2__)) /* the four-lane body (-mavx2: skin_prepared_avx2.h's) */

/* pb_normal_scale_clamped per lane: len2 clamped into [FLT_MIN, FLT_MAX]
 * (pb_v4_max and pb_v4_min are the reference's compare-and-selects, so a
 * NaN lane becomes FLT_MIN on every port), then 1 / sqrt, each step
 * correctly rounded. */
PB_FORCE_INLINE pb_v4 sp_normal_scale4(pb_v4 len2) {
    pb_v4 x = pb_v4_min(pb_v4_max(len2, pb_v4_set1(FLT_MIN)), pb_v4_set1(FLT_MAX));
    return pb_v4_div(pb_v4_set1(1.0f), pb_v4_sqrt(x));
}

/* A deferred half group (positions, normals as the blend gave them):
 * normalized and stored.  Run in a loop of its own after a block of
 * halves, so one half's square root and division overlap the next's. */
PB_FORCE_INLINE void sp_emit_normalized(const pb_skinp_range *r, int out, size_t v, const pb_v4 *d) {
    pb_v4 qx = d[3], qy = d[4], qz = d[5];
    pb_v4 k = sp_normal_scale4(pb_v4_add(pb_v4_add(pb_v4_mul(qx, qx), pb_v4_mul(qy, qy)), pb_v4_mul(qz, qz)));
    qx = pb_v4_mul(qx, k);
    qy = pb_v4_mul(qy, k);
    qz = pb_v4_mul(qz, k);
    if (out == sp_OUT_PN6) {
        sp_store_pn6(r->out_positions + 6u * v, d[0], d[1], d[2], qx, qy, qz);
        return;
    }
    if (out == sp_OUT_PACKED) {
        pb_v4_store_xyz4(r->out_normals + 3u * v, qx, qy, qz);
        pb_v4_store_xyz4(r->out_positions + 3u * v, d[0], d[1], d[2]);
    } else {
        sp_store_rows(r->out_normals + r->normal_stride * v, r->normal_stride, qx, qy, qz);
        sp_store_rows(r->out_positions + r->position_stride * v, r->position_stride, d[0], d[1], d[2]);
    }
}

/* Groups deferred per block when normals are normalized. */
#define sp_DEFER_GROUPS 4u

/* Shared spans: half `half` of group g, whose four vertices use one set
 * of entries.  The splatted elements are the blend's rows with one vertex
 * per lane already, so the blend (one multiply and add per element and
 * influence, weights as loaded) feeds the transform with no transposes;
 * each transform row right after its four elements, to keep few registers
 * live. */
/* One blended element of four vertices: s0..s3 the half's splatted
 * entries, w0..w3 their weights (one vertex per lane).  Spelled out, not
 * a loop over arrays: a loop gcc keeps rolled (four influences) or a
 * struct passed by address puts the weights in memory. */
#define sp_SPLATS const float *s0, const float *s1, const float *s2, const float *s3, pb_v4 w0, pb_v4 w1, pb_v4 w2, pb_v4 w3
#define sp_SPLAT_ARGS s0, s1, s2, s3, w0, w1, w2, w3
PB_FORCE_INLINE pb_v4 sp_shared_element(sp_SPLATS, uint32_t n, uint32_t kind, unsigned j) {
    pb_v4 c;
    if (kind == PB_SKINP_RIGID) return pb_v4_load(s0 + 4u * j);
    c = pb_v4_mul(w0, pb_v4_load(s0 + 4u * j));
    if (n > 1u) c = pb_v4_add(c, pb_v4_mul(w1, pb_v4_load(s1 + 4u * j)));
    if (n > 2u) c = pb_v4_add(c, pb_v4_mul(w2, pb_v4_load(s2 + 4u * j)));
    if (n > 3u) c = pb_v4_add(c, pb_v4_mul(w3, pb_v4_load(s3 + 4u * j)));
    return c;
}

/* A half group's results: kept in defer for sp_emit_normalized (normals
 * renormalized after the block), or with defer NULL stored in the job's
 * output layout. */
PB_FORCE_INLINE void sp_emit(const pb_skinp_range *r, int out, int nrm, size_t v, pb_v4 ox, pb_v4 oy, pb_v4 oz, pb_v4 qx,
                             pb_v4 qy, pb_v4 qz, pb_v4 *defer) {
    if (nrm) {
        if (defer) { /* normalized after the block (sp_emit_normalized) */
            defer[0] = ox;
            defer[1] = oy;
            defer[2] = oz;
            defer[3] = qx;
            defer[4] = qy;
            defer[5] = qz;
            return;
        }
        if (out == sp_OUT_PN6) {
            sp_store_pn6(r->out_positions + 6u * v, ox, oy, oz, qx, qy, qz);
            return;
        }
        if (out == sp_OUT_PACKED) pb_v4_store_xyz4(r->out_normals + 3u * v, qx, qy, qz);
        else sp_store_rows(r->out_normals + r->normal_stride * v, r->normal_stride, qx, qy, qz);
    }
    if (out == sp_OUT_PACKED) pb_v4_store_xyz4(r->out_positions + 3u * v, ox, oy, oz);
    else sp_store_rows(r->out_positions + r->position_stride * v, r->position_stride, ox, oy, oz);
}

/* Row j of four vertices: position *o and normal *q (nrm). */
PB_FORCE_INLINE void sp_shared_row(sp_SPLATS, uint32_t n, uint32_t kind, unsigned j, pb_v4 X, pb_v4 Y, pb_v4 Z, pb_v4 NX,
                                   pb_v4 NY, pb_v4 NZ, int nrm, pb_v4 *o, pb_v4 *q) {
    pb_v4 ca = sp_shared_element(sp_SPLAT_ARGS, n, kind, 4u * j);
    pb_v4 cb = sp_shared_element(sp_SPLAT_ARGS, n, kind, 4u * j + 1u);
    pb_v4 cc = sp_shared_element(sp_SPLAT_ARGS, n, kind, 4u * j + 2u);
    *o = pb_v4_add(pb_v4_add(pb_v4_add(pb_v4_mul(ca, X), pb_v4_mul(cb, Y)), pb_v4_mul(cc, Z)),
                   sp_shared_element(sp_SPLAT_ARGS, n, kind, 4u * j + 3u));
    if (nrm) *q = pb_v4_add(pb_v4_add(pb_v4_mul(ca, NX), pb_v4_mul(cb, NY)), pb_v4_mul(cc, NZ));
}

/* Row j of the point as entry s transforms it, four vertices. */
PB_FORCE_INLINE pb_v4 sp_point_row(const float *s, unsigned j, pb_v4 X, pb_v4 Y, pb_v4 Z) {
    return pb_v4_add(pb_v4_add(pb_v4_add(pb_v4_mul(pb_v4_load(s + 16u * j), X), pb_v4_mul(pb_v4_load(s + 16u * j + 4u), Y)),
                               pb_v4_mul(pb_v4_load(s + 16u * j + 8u), Z)),
                     pb_v4_load(s + 16u * j + 12u));
}

/* Positions only (weighted spans): each entry transforms the points,
 * then the weights blend them (the reference's sp_points_first): 12
 * multiplies per influence where blending the twelve elements first
 * takes 12 per influence and 9 more. */
PB_FORCE_INLINE void sp_points_first4(const float *s, pb_v4 w, int first, pb_v4 X, pb_v4 Y, pb_v4 Z, pb_v4 *ox,
                                      pb_v4 *oy, pb_v4 *oz) {
    pb_v4 px = pb_v4_mul(w, sp_point_row(s, 0, X, Y, Z));
    pb_v4 py = pb_v4_mul(w, sp_point_row(s, 1, X, Y, Z));
    pb_v4 pz = pb_v4_mul(w, sp_point_row(s, 2, X, Y, Z));
    if (first) {
        *ox = px, *oy = py, *oz = pz;
        return;
    }
    *ox = pb_v4_add(*ox, px);
    *oy = pb_v4_add(*oy, py);
    *oz = pb_v4_add(*oz, pz);
}

PB_FORCE_INLINE void sp_shared_half(const pb_skinp_range *r, uint32_t n, uint32_t kind, int out, int nrm, uint32_t g,
                                    unsigned half, pb_v4 *defer) {
    uint32_t stored = pb_skinp_stored(kind, n), b = 4u * half;
    const float *p = r->positions + 24u * g + b, *t = r->splat;
    const float *w = stored ? r->weights + 8u * stored * g + b : NULL;
    const uint16_t *e = r->entries + 2u * n * g + n * half;
    size_t v = (size_t)PB_SKINP_GROUP * g + b;
    pb_v4 w0, w1, w2, w3, X, Y, Z, NX, NY, NZ, ox, oy, oz, qx, qy, qz;
    /* rigid: 32 x the slot (the column path reads the table); else 48 x */
    const float *s0 = t + (kind == PB_SKINP_RIGID ? e[0] + (e[0] >> 1) : e[0]);
    const float *s1 = t + e[n > 1u ? 1u : 0u], *s2 = t + e[n > 2u ? 2u : 0u];
    const float *s3 = t + e[n > 3u ? 3u : 0u];
    w0 = w1 = w2 = w3 = pb_v4_set1(0.0f);
    if (stored > 0u) w0 = pb_v4_loadu(w);
    if (stored > 1u) w1 = pb_v4_loadu(w + 8);
    if (stored > 2u) w2 = pb_v4_loadu(w + 16);
    if (stored > 3u) w3 = pb_v4_loadu(w + 24);
    if (kind == PB_SKINP_IMPLIED) { /* the last weight of four vertices at once, ((w0 + w1) + w2) */
        pb_v4 sum = w0;
        if (stored > 1u) sum = pb_v4_add(sum, w1);
        if (stored > 2u) sum = pb_v4_add(sum, w2);
        sum = pb_v4_sub(pb_v4_set1(1.0f), sum);
        if (n == 2u) w1 = sum;
        else if (n == 3u) w2 = sum;
        else w3 = sum;
    }
    X = pb_v4_loadu(p);
    Y = pb_v4_loadu(p + 8);
    Z = pb_v4_loadu(p + 16);
    NX = NY = NZ = qx = qy = qz = X;
    if (!nrm && kind != PB_SKINP_RIGID) {
        sp_points_first4(s0, w0, 1, X, Y, Z, &ox, &oy, &oz);
        if (n > 1u) sp_points_first4(s1, w1, 0, X, Y, Z, &ox, &oy, &oz);
        if (n > 2u) sp_points_first4(s2, w2, 0, X, Y, Z, &ox, &oy, &oz);
        if (n > 3u) sp_points_first4(s3, w3, 0, X, Y, Z, &ox, &oy, &oz);
        sp_emit(r, out, 0, v, ox, oy, oz, qx, qy, qz, defer);
        return;
    }
    if (nrm) {
        const float *qq = r->normals + 24u * g + b;
        NX = pb_v4_loadu(qq);
        NY = pb_v4_loadu(qq + 8);
        NZ = pb_v4_loadu(qq + 16);
    }
    sp_shared_row(sp_SPLAT_ARGS, n, kind, 0, X, Y, Z, NX, NY, NZ, nrm, &ox, &qx);
    sp_shared_row(sp_SPLAT_ARGS, n, kind, 1, X, Y, Z, NX, NY, NZ, nrm, &oy, &qy);
    sp_shared_row(sp_SPLAT_ARGS, n, kind, 2, X, Y, Z, NX, NY, NZ, nrm, &oz, &qz);
    sp_emit(r, out, nrm, v, ox, oy, oz, qx, qy, qz, defer);
}


/* One vertex's blended rows. */
typedef struct sp_rows3 {
    pb_v4 x, y, z;
} sp_rows3;

PB_FORCE_INLINE sp_rows3 sp_entry_rows(const float *e) {
    sp_rows3 c;
    c.x = pb_v4_load(e);
    c.y = pb_v4_load(e + 4);
    c.z = pb_v4_load(e + 8);
    return c;
}

/* c + w E (c NULL-like first: w E), rows of entry e. */
PB_FORCE_INLINE sp_rows3 sp_blend_first(pb_v4 w, const float *e) {
    sp_rows3 c;
    c.x = pb_v4_mul(w, pb_v4_load(e));
    c.y = pb_v4_mul(w, pb_v4_load(e + 4));
    c.z = pb_v4_mul(w, pb_v4_load(e + 8));
    return c;
}
PB_FORCE_INLINE sp_rows3 sp_blend_add(sp_rows3 c, pb_v4 w, const float *e) {
    c.x = pb_v4_add(c.x, pb_v4_mul(w, pb_v4_load(e)));
    c.y = pb_v4_add(c.y, pb_v4_mul(w, pb_v4_load(e + 4)));
    c.z = pb_v4_add(c.z, pb_v4_mul(w, pb_v4_load(e + 8)));
    return c;
}

/* Vertex i (a constant after inlining, 0..3) of a half group: its rows,
 * from the half's weights wv (lane i: vertex i, the implied one
 * included) and its entries' offsets e (8 apart per influence). */
PB_FORCE_INLINE sp_rows3 sp_vertex_rows(const pb_skinp_range *r, uint32_t n, uint32_t kind, const uint16_t *e, unsigned i,
                                  const pb_v4 *wv) {
    const float *t = r->table;
    uint32_t k;
    sp_rows3 c;
    if (kind == PB_SKINP_RIGID) return sp_entry_rows(t + e[i]);
    c = sp_blend_first(sp_lane_of(wv[0], i), t + e[i]);
    for (k = 1; k < n; k++) c = sp_blend_add(c, sp_lane_of(wv[k], i), t + e[8u * k + i]);
    return c;
}

/* Half `half` of group g: four vertices, lanes 4 half .. 4 half + 3. */
PB_FORCE_INLINE void sp_half_group(const pb_skinp_range *r, uint32_t n, uint32_t kind, int out, int nrm, uint32_t g,
                                unsigned half, pb_v4 *defer) {
    uint32_t stored = pb_skinp_stored(kind, n), b = 4u * half, k;
    const float *p = r->positions + 24u * g + b;
    const float *w = stored ? r->weights + 8u * stored * g + b : NULL;
    const uint16_t *e = r->entries + 8u * n * g + b;
    size_t v = (size_t)PB_SKINP_GROUP * g + b;
    pb_v4 wv[4];
    sp_rows3 c0, c1, c2, c3;
    wv[0] = wv[1] = wv[2] = wv[3] = pb_v4_set1(0.0f);
    pb_v4 ax, bx, cx, tx, ay, by, cy, ty, az, bz, cz, tz, X, Y, Z, ox, oy, oz, qx, qy, qz;
    for (k = 0; k < stored; k++) wv[k] = pb_v4_loadu(w + 8u * k);
    if (kind == PB_SKINP_IMPLIED) { /* the last weight of four vertices at once */
        pb_v4 sum = wv[0];
        for (k = 1; k < stored; k++) sum = pb_v4_add(sum, wv[k]);
        wv[n - 1u] = pb_v4_sub(pb_v4_set1(1.0f), sum);
    }
    c0 = sp_vertex_rows(r, n, kind, e, 0, wv);
    c1 = sp_vertex_rows(r, n, kind, e, 1, wv);
    c2 = sp_vertex_rows(r, n, kind, e, 2, wv);
    c3 = sp_vertex_rows(r, n, kind, e, 3, wv);
    ax = c0.x, bx = c1.x, cx = c2.x, tx = c3.x;
    pb_v4_transpose(&ax, &bx, &cx, &tx);
    ay = c0.y, by = c1.y, cy = c2.y, ty = c3.y;
    pb_v4_transpose(&ay, &by, &cy, &ty);
    az = c0.z, bz = c1.z, cz = c2.z, tz = c3.z;
    pb_v4_transpose(&az, &bz, &cz, &tz);
    X = pb_v4_loadu(p);
    Y = pb_v4_loadu(p + 8);
    Z = pb_v4_loadu(p + 16);
    ox = pb_v4_add(pb_v4_add(pb_v4_add(pb_v4_mul(ax, X), pb_v4_mul(bx, Y)), pb_v4_mul(cx, Z)), tx);
    oy = pb_v4_add(pb_v4_add(pb_v4_add(pb_v4_mul(ay, X), pb_v4_mul(by, Y)), pb_v4_mul(cy, Z)), ty);
    oz = pb_v4_add(pb_v4_add(pb_v4_add(pb_v4_mul(az, X), pb_v4_mul(bz, Y)), pb_v4_mul(cz, Z)), tz);
    qx = qy = qz = X; /* without normals: not read (sp_emit) */
    if (nrm) {
        const float *q = r->normals + 24u * g + b;
        X = pb_v4_loadu(q);
        Y = pb_v4_loadu(q + 8);
        Z = pb_v4_loadu(q + 16);
        qx = pb_v4_add(pb_v4_add(pb_v4_mul(ax, X), pb_v4_mul(bx, Y)), pb_v4_mul(cx, Z));
        qy = pb_v4_add(pb_v4_add(pb_v4_mul(ay, X), pb_v4_mul(by, Y)), pb_v4_mul(cy, Z));
        qz = pb_v4_add(pb_v4_add(pb_v4_mul(az, X), pb_v4_mul(bz, Y)), pb_v4_mul(cz, Z));
    }
    sp_emit(r, out, nrm, v, ox, oy, oz, qx, qy, qz, defer);
}

/* Every group of the range, two half groups each (shared: one bone tuple
 * per four vertices, else the blended rows); with renormalized normals
 * in blocks of sp_DEFER_GROUPS, emitted after each block. */
PB_FORCE_INLINE void sp_half(const pb_skinp_range *r, uint32_t n, uint32_t kind, int out, int nrm, uint32_t g,
                             unsigned half, pb_v4 *defer, int shared) {
    if (shared) sp_shared_half(r, n, kind, out, nrm, g, half, defer);
    else sp_half_group(r, n, kind, out, nrm, g, half, defer);
}

PB_FORCE_INLINE void sp_groups(const pb_skinp_range *r, uint32_t n, uint32_t kind, int out, int nrm, int shared) {
    uint32_t g, h;
    pb_v4 defer[2u * sp_DEFER_GROUPS][6];
    if (!nrm || !r->normalize) {
        for (g = 0; g < r->groups; g++) {
            sp_half(r, n, kind, out, nrm, g, 0, NULL, shared); /* NULL: stored at once, a constant after inlining */
            sp_half(r, n, kind, out, nrm, g, 1, NULL, shared);
        }
        return;
    }
    for (g = 0; g < r->groups; g += sp_DEFER_GROUPS) {
        uint32_t count = r->groups - g < sp_DEFER_GROUPS ? r->groups - g : sp_DEFER_GROUPS;
        for (h = 0; h < count; h++) {
            sp_half(r, n, kind, out, 1, g + h, 0, defer[2u * h], shared);
            sp_half(r, n, kind, out, 1, g + h, 1, defer[2u * h + 1u], shared);
        }
        for (h = 0; h < 2u * count; h++) sp_emit_normalized(r, out, (size_t)PB_SKINP_GROUP * g + 4u * h, defer[h]);
    }
}

PB_FORCE_INLINE void sp_shared(const pb_skinp_range *r, uint32_t n, uint32_t kind, int out, int nrm) {
    sp_groups(r, n, kind, out, nrm, 1);
}

PB_FORCE_INLINE void sp_blended(const pb_skinp_range *r, uint32_t n, uint32_t kind, int out, int nrm) {
    sp_groups(r, n, kind, out, nrm, 0);
}

#endif

/* Rigid vertices one at a time, the matrix as columns, the point's
 * coordinates splatted from its half's rows; a 16-byte store spills one
 * float onto the next vertex (packed or PN6 layouts, `spill`), so the
 * range's last vertex stores three. */
PB_FORCE_INLINE void sp_rigid_vertex(const pb_skinp_range *r, size_t v, const float *e, pb_v4 x, pb_v4 y, pb_v4 z,
                                  pb_v4 nx, pb_v4 ny, pb_v4 nz, int spill, int last, int nrm) {
    pb_v4 ca = pb_v4_load(e), cb = pb_v4_load(e + 4), cc = pb_v4_load(e + 8);
    pb_v4 o = pb_v4_add(pb_v4_add(pb_v4_add(pb_v4_mul(ca, x), pb_v4_mul(cb, y)), pb_v4_mul(cc, z)), pb_v4_load(e + 12));
    if (spill) pb_v4_store(r->out_positions + r->position_stride * v, o);
    else pb_v4_store3(r->out_positions + r->position_stride * v, o);
    if (nrm) {
        pb_v4 m = pb_v4_add(pb_v4_add(pb_v4_mul(ca, nx), pb_v4_mul(cb, ny)), pb_v4_mul(cc, nz));
        if (spill && !last) pb_v4_store(r->out_normals + r->normal_stride * v, m);
        else pb_v4_store3(r->out_normals + r->normal_stride * v, m);
    }
}

PB_FORCE_INLINE void sp_rigid(const pb_skinp_range *r, int spill, int nrm, int shared) {
    uint32_t g, half;
    int last;
    for (g = 0; g < r->groups; g++)
        for (half = 0; half < 2u; half++) {
            const float *p = r->positions + 24u * g + 4u * half, *q = nrm ? r->normals + 24u * g + 4u * half : NULL;
            const uint16_t *e = shared ? r->entries + 2u * g + half : r->entries + 8u * g + 4u * half;
            /* shared: the half's one entry for its four */
            uint32_t e0 = e[0], e1 = shared ? e0 : e[1], e2 = shared ? e0 : e[2], e3 = shared ? e0 : e[3];
            pb_v4 X = pb_v4_loadu(p), Y = pb_v4_loadu(p + 8), Z = pb_v4_loadu(p + 16), NX = X, NY = Y, NZ = Z;
            size_t v = (size_t)PB_SKINP_GROUP * g + 4u * half;
            if (nrm) {
                NX = pb_v4_loadu(q);
                NY = pb_v4_loadu(q + 8);
                NZ = pb_v4_loadu(q + 16);
            }
            last = g + 1u == r->groups && half == 1u; /* the range's last vertex is lane 3 here */
            sp_rigid_vertex(r, v, r->table + e0 + PB_SKIN_COLUMNS, sp_lane_of(X, 0), sp_lane_of(Y, 0), sp_lane_of(Z, 0),
                         sp_lane_of(NX, 0), sp_lane_of(NY, 0), sp_lane_of(NZ, 0), spill, 0, nrm);
            sp_rigid_vertex(r, v + 1u, r->table + e1 + PB_SKIN_COLUMNS, sp_lane_of(X, 1), sp_lane_of(Y, 1), sp_lane_of(Z, 1),
                         sp_lane_of(NX, 1), sp_lane_of(NY, 1), sp_lane_of(NZ, 1), spill, 0, nrm);
            sp_rigid_vertex(r, v + 2u, r->table + e2 + PB_SKIN_COLUMNS, sp_lane_of(X, 2), sp_lane_of(Y, 2), sp_lane_of(Z, 2),
                         sp_lane_of(NX, 2), sp_lane_of(NY, 2), sp_lane_of(NZ, 2), spill, 0, nrm);
            sp_rigid_vertex(r, v + 3u, r->table + e3 + PB_SKIN_COLUMNS, sp_lane_of(X, 3), sp_lane_of(Y, 3), sp_lane_of(Z, 3),
                         sp_lane_of(NX, 3), sp_lane_of(NY, 3), sp_lane_of(NZ, 3), spill, last, nrm);
        }
}

#if defined(PLUMBOB_PORT_SSE2) && defined(__AVX2__)
#include "skin_prepared_avx2.h" /* eight vertices a step, two in each register */
#define sp_BLENDED sp_blended8
#define sp_SHARED sp_shared8
#else
#define sp_BLENDED sp_blended
#define sp_SHARED sp_shared
#endif

PB_FORCE_INLINE void sp_shared_by_out(const pb_skinp_range *r, uint32_t n, uint32_t kind, int nrm) {
    int pn6 = nrm && r->position_stride == 6u && r->normal_stride == 6u && r->out_normals == r->out_positions + 3;
    int packed = r->position_stride == 3u && (!nrm || r->normal_stride == 3u);
    if (pn6) sp_SHARED(r, n, kind, sp_OUT_PN6, nrm);
    else if (packed) sp_SHARED(r, n, kind, sp_OUT_PACKED, nrm);
    else sp_SHARED(r, n, kind, sp_OUT_ROWS, nrm);
}

PB_FORCE_INLINE void sp_shared_by_kind(const pb_skinp_range *r, uint32_t n, int nrm) {
    if (r->kind == PB_SKINP_RIGID) sp_shared_by_out(r, 1, PB_SKINP_RIGID, nrm);
    else if (r->kind == PB_SKINP_IMPLIED) sp_shared_by_out(r, n, PB_SKINP_IMPLIED, nrm);
    else sp_shared_by_out(r, n, PB_SKINP_STORED, nrm);
}


PB_FORCE_INLINE void sp_by_out(const pb_skinp_range *r, uint32_t n, uint32_t kind, int nrm) {
    int pn6 = nrm && r->position_stride == 6u && r->normal_stride == 6u && r->out_normals == r->out_positions + 3;
    int packed = r->position_stride == 3u && (!nrm || r->normal_stride == 3u);
    if (pn6) sp_BLENDED(r, n, kind, sp_OUT_PN6, nrm);
    else if (packed) sp_BLENDED(r, n, kind, sp_OUT_PACKED, nrm);
    else sp_BLENDED(r, n, kind, sp_OUT_ROWS, nrm);
}

PB_FORCE_INLINE void sp_by_kind(const pb_skinp_range *r, uint32_t n, int nrm) {
    if (r->kind == PB_SKINP_IMPLIED) sp_by_out(r, n, PB_SKINP_IMPLIED, nrm);
    else sp_by_out(r, n, PB_SKINP_STORED, nrm);
}

#if defined(PLUMBOB_PORT_SSE2)
void pb_skinp_sse2(const pb_skinp_range *r)
#else
void pb_skinp_neon(const pb_skinp_range *r)
#endif
{
    int nrm = r->normals != NULL, shared = r->shared != 0u;
    if (shared && !(r->kind == PB_SKINP_RIGID && !nrm)) { /* rigid positions: the columns below are cheaper */
        if (nrm) {
            switch (r->influences) {
            case 1: sp_shared_by_kind(r, 1, 1); break;
            case 2: sp_shared_by_kind(r, 2, 1); break;
            case 3: sp_shared_by_kind(r, 3, 1); break;
            default: sp_shared_by_kind(r, 4, 1); break;
            }
        } else {
            switch (r->influences) {
            case 1: sp_shared_by_kind(r, 1, 0); break;
            case 2: sp_shared_by_kind(r, 2, 0); break;
            case 3: sp_shared_by_kind(r, 3, 0); break;
            default: sp_shared_by_kind(r, 4, 0); break;
            }
        }
        return;
    }
    if (r->kind == PB_SKINP_RIGID) {
        if (!nrm || !r->normalize) {
            /* spill only where the next float is the next vertex's (or,
             * PN6, this vertex's normal); never past the range's end */
            int pn6 = nrm && r->position_stride == 6u && r->normal_stride == 6u && r->out_normals == r->out_positions + 3;
            int packed = !nrm && r->position_stride == 3u;
            if (pn6) sp_rigid(r, 1, 1, shared);
            else if (packed && r->groups > 1u) { /* the last group apart, stored without spills */
                pb_skinp_range head = *r;
                head.groups = r->groups - 1u;
                sp_rigid(&head, 1, 0, shared);
                head.groups = 1;
                head.positions = r->positions + 24u * (r->groups - 1u);
                head.entries = r->entries + (shared ? 2u : 8u) * (r->groups - 1u);
                head.out_positions = r->out_positions + 3u * PB_SKINP_GROUP * (r->groups - 1u);
                sp_rigid(&head, 0, 0, shared);
            } else sp_rigid(r, 0, nrm, shared);
        } else if (nrm) sp_by_out(r, 1, PB_SKINP_RIGID, 1);
        return;
    }
    if (nrm) {
        switch (r->influences) {
        case 1: sp_by_kind(r, 1, 1); break;
        case 2: sp_by_kind(r, 2, 1); break;
        case 3: sp_by_kind(r, 3, 1); break;
        default: sp_by_kind(r, 4, 1); break;
        }
    } else {
        switch (r->influences) {
        case 1: sp_by_kind(r, 1, 0); break;
        case 2: sp_by_kind(r, 2, 0); break;
        case 3: sp_by_kind(r, 3, 0); break;
        default: sp_by_kind(r, 4, 0); break;
        }
    }
}
#endif
