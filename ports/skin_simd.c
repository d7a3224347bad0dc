/* The SIMD twins of pb_skin_scalar, written once over simd4.h and compiled
 * as pb_skin_sse2 or pb_skin_neon.  Two shapes, chosen per block of 32
 * vertices (block_kind):
 *
 * - Blocks whose vertices use only their first slot (all of a
 *   one-influence mesh; runs of rigid vertices in the others): one vertex
 *   per step, the matrix as columns (x y z in lanes), the point's
 *   coordinates splatted across the lanes.  No transposes, which cost more
 *   than the work they lay out when a vertex has one matrix; where every
 *   weight is exactly 1 the matrix is used as it is.
 * - Other blocks: four vertices per step.  Each vertex's blended rows take
 *   one multiply and one add per row and influence; the rows of the four
 *   are then transposed, so the transforms run with one vertex per lane on
 *   positions and normals loaded as x, y and z rows.
 *
 * Either way the normals are normalized in a loop of their own after each
 * block of 32 vertices: there one group's square root and division overlap
 * the next group's, where inside the long skinning loop their latency was
 * a third of a vertex's time.  Products and sums are never fused and run in the
 * reference's order per lane, so the bits match; ARMv7 NEON flushes
 * subnormals, which only matters for degenerate data.  Built with -mavx2,
 * MIXED blocks run skin_avx2.h's 256-bit body instead of skin4. */
#include "kernels.h"

#if defined(PLUMBOB_PORT_SSE2) || defined(PLUMBOB_PORT_NEON)
#include <float.h>
#include "simd4.h"
#include "pb_math.h"

/* pb_normal_scale per lane: 1 / sqrt(len2), each step correctly rounded
 * (as the reference's integer square root is), 0 where len2 is not
 * positive and finite.  Those lanes take the square root of +0 and divide
 * by 1 (0 + 1; elsewhere sqrt + 0 is sqrt), so no lane raises a floating-
 * point exception flag the reference does not. */
PB_FORCE_INLINE pb_v4 normal_scale4(pb_v4 len2) {
    pb_m4 ok = pb_m4_and(pb_v4_gt(len2, pb_v4_set1(0.0f)), pb_v4_le(len2, pb_v4_set1(FLT_MAX)));
    pb_v4 root = pb_v4_add(pb_v4_sqrt(pb_v4_and(ok, len2)), pb_v4_andnot(ok, pb_v4_set1(1.0f)));
    return pb_v4_and(ok, pb_v4_div(pb_v4_set1(1.0f), root));
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

/* A group's transformed normals: stored as they are (unnormalized jobs), or
 * left in defer[0..2] for normalize_block. */
PB_FORCE_INLINE void finish_normals(const pb_skin_range *r, uint32_t v0, uint32_t n, pb_v4 qx, pb_v4 qy, pb_v4 qz,
                                    pb_v4 *defer) {
    if (!r->normalize) {
        store_rows(r->out_normals + r->normal_stride * v0, r->normal_stride, n, qx, qy, qz);
        return;
    }
    defer[0] = qx;
    defer[1] = qy;
    defer[2] = qz;
}

#if defined(PLUMBOB_PORT_SSE2) && defined(__AVX2__)
#include "skin_avx2.h"
#define SKIN4 skin4_avx /* the same four vertices in 256-bit halves */
#else
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

/* Blended rows of vertex v. */
PB_FORCE_INLINE void blend(const pb_skin_range *r, uint32_t v, uint32_t influences, pb_v4 *x, pb_v4 *y, pb_v4 *z) {
    float w[4];
    const float *m[4];
    pb_skin_influences(r, v, influences, w, m);
    *x = blend_row(w, m, 0, influences);
    *y = blend_row(w, m, 1, influences);
    *z = blend_row(w, m, 2, influences);
}

/* Four vertices v[0..3] whose positions (and normals) are the 48 bytes at
 * pos (and nrm); stores the first n, or leaves the normals in defer[0..2]
 * for normalize_block. */
PB_FORCE_INLINE void skin4(const pb_skin_range *r, const uint32_t v[4], const unsigned char *pos,
                           const unsigned char *nrm, uint32_t n, uint32_t influences, pb_v4 *defer) {
    pb_v4 ax, bx, cx, tx, ay, by, cy, ty, az, bz, cz, tz, px, py, pz;
    blend(r, v[0], influences, &ax, &ay, &az);
    blend(r, v[1], influences, &bx, &by, &bz);
    blend(r, v[2], influences, &cx, &cy, &cz);
    blend(r, v[3], influences, &tx, &ty, &tz);
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
        finish_normals(r, v[0], n, qx, qy, qz, defer);
    }
}

#define SKIN4 skin4
#endif

/* The deferred normalization of a block's normals: a short loop whose
 * iterations are independent, so the square roots' latency overlaps. */
PB_FORCE_INLINE void normalize_block(const pb_skin_range *r, const pb_v4 *defer, uint32_t v, uint32_t n) {
    uint32_t i;
    for (i = 0; i < n; i += 4u, defer += 3) {
        pb_v4 qx = defer[0], qy = defer[1], qz = defer[2], inv;
        inv = normal_scale4(pb_v4_add(pb_v4_add(pb_v4_mul(qx, qx), pb_v4_mul(qy, qy)), pb_v4_mul(qz, qz)));
        store_rows(r->out_normals + r->normal_stride * (v + i), r->normal_stride, n - i < 4u ? n - i : 4u,
                   pb_v4_mul(qx, inv), pb_v4_mul(qy, inv), pb_v4_mul(qz, inv));
    }
}

#define BLOCK 32u /* vertices per block: a multiple of 4 */

/* The whole groups of four from *v to before end; returns where the next
 * group's normals go. */
PB_FORCE_INLINE pb_v4 *skin_groups(const pb_skin_range *r, uint32_t *vp, uint32_t end, uint32_t influences, pb_v4 *d) {
    uint32_t v = *vp;
    for (; v + 4u <= end; v += 4u, d += 3) {
        uint32_t vs[4];
        vs[0] = v;
        vs[1] = v + 1u;
        vs[2] = v + 2u;
        vs[3] = v + 3u;
        SKIN4(r, vs, r->positions + 12u * v, r->normals ? r->normals + 12u * v : NULL, 4u, influences, d);
    }
    *vp = v;
    return d;
}

/* Vertices v0 .. end-1 (at most BLOCK) four at a time; the normals to
 * normalize are left in defer, three rows per group. */
PB_FORCE_INLINE void skin_rows(const pb_skin_range *r, uint32_t v0, uint32_t end, uint32_t influences, pb_v4 *defer) {
    uint32_t v = v0;
    pb_v4 *d = skin_groups(r, &v, end, influences, defer);
    if (v < end) {
        /* the last one to three: spare lanes repeat the last vertex, read
         * from a local copy so no load passes the streams' ends */
        unsigned char pos[48], nrm[48];
        uint32_t n = end - v, vs[4], i, b;
        for (i = 0; i < 4; i++) {
            vs[i] = i < n ? v + i : end - 1u;
            for (b = 0; b < 12u; b++) {
                pos[12u * i + b] = r->positions[12u * vs[i] + b];
                if (r->normals) nrm[12u * i + b] = r->normals[12u * vs[i] + b];
            }
        }
        SKIN4(r, vs, pos, r->normals ? nrm : NULL, n, influences, d);
    }
    if (r->normals && r->normalize) normalize_block(r, defer, v0, end - v0);
}

/* --- one matrix per vertex: columns --------------------------------------- */

/* How a block of vertices blends.  RIGID: each vertex one matrix as it
 * is: one influence, or only the first slot used and its stored weight
 * exactly 1; the reference's 1 M0 plus +0 terms is M0 bit for bit, as
 * pb_skin_put_entry stores no -0 and one quiet NaN.  LONE: only the first
 * slot used, so the rows are w0 M0 + 0 (the add turns a -0 into +0, as the
 * reference's unused terms do), without the other influences' decode.
 * MIXED: anything else, four vertices at a time as rows.  One scan per
 * block, stopping at the first vertex with a second slot, which a mesh's
 * runs of alike vertices make predictable.  (A USED kind, blocks whose
 * vertices use every slot, decoded without the unused-slot tests, was
 * tried: its scan cost more than the tests it saved.) */
enum { RIGID, LONE, MIXED };
#define PB_SKIN_SLOT0_ONLY 0xFFFFFF00FFFFFF00ull /* two assignments: slots 1..3 unused */
#define PB_SKIN_TWO_ONES 0x3F8000003F800000ull  /* two little-endian 1.0f */
PB_FORCE_INLINE int block_kind(const pb_skin_range *r, uint32_t v0, uint32_t end, uint32_t influences) {
    const unsigned char *a = r->assignments + 4u * v0, *w, *a_end = r->assignments + 4u * end;
    size_t stride = 4u * (influences - 1u); /* weight bytes per vertex */
    uint32_t not_one = 0; /* weight 0's bits ^ 1.0f's, or'ed */
    if (influences == 1) return RIGID;
    w = r->weights + stride * v0;
    for (; a_end - a >= 16; a += 16, w += 4u * stride) { /* four at a time: ~3 instructions a vertex */
        if ((pb_le64(a) & pb_le64(a + 8) & PB_SKIN_SLOT0_ONLY) != PB_SKIN_SLOT0_ONLY) return MIXED;
        if (stride == 4u) { /* one stored weight: the four lie side by side */
            uint64_t d = (pb_le64(w) ^ PB_SKIN_TWO_ONES) | (pb_le64(w + 8) ^ PB_SKIN_TWO_ONES);
            not_one |= (uint32_t)d | (uint32_t)(d >> 32);
        } else
            not_one |= (pb_le32(w) ^ 0x3F800000u) | (pb_le32(w + stride) ^ 0x3F800000u) |
                       (pb_le32(w + 2u * stride) ^ 0x3F800000u) | (pb_le32(w + 3u * stride) ^ 0x3F800000u);
    }
    for (; a < a_end; a += 4, w += stride) {
        if ((pb_le32(a) & 0xFFFFFF00u) != 0xFFFFFF00u) return MIXED;
        not_one |= pb_le32(w) ^ 0x3F800000u;
    }
    return not_one ? LONE : RIGID;
}

PB_FORCE_INLINE pb_v4 splat_f32le(const unsigned char *p) { return pb_v4_set1(pb_f32le(p)); }

/* ((a x + b y) + c z) + t, or without t for a normal, lane by lane, with
 * the point's x y z at p.  wide: load them as 16 bytes and splat lanes
 * (one load where three take three; the 4 bytes past the point are the
 * next vertex's, so never for a stream's last vertex). */
PB_FORCE_INLINE pb_v4 transform_col(pb_v4 a, pb_v4 b, pb_v4 c, const unsigned char *p, int wide) {
    if (wide) {
        pb_v4 v = pb_v4_load_le(p);
        return pb_v4_add(pb_v4_add(pb_v4_mul(a, pb_v4_splat(v, 0)), pb_v4_mul(b, pb_v4_splat(v, 1))),
                         pb_v4_mul(c, pb_v4_splat(v, 2)));
    }
    return pb_v4_add(pb_v4_add(pb_v4_mul(a, splat_f32le(p)), pb_v4_mul(b, splat_f32le(p + 4))),
                     pb_v4_mul(c, splat_f32le(p + 8)));
}

/* The vertices v0 .. end-1 of a RIGID or LONE block, one at a time, with
 * the matrix as columns a, b, c, t (x y z in lanes) and the coordinates
 * splatted.  normals: 0 none, 1 stored as they come, 2 left in defer for
 * normalize_columns (a constant, like kind and wide, so each case is its
 * own loop). */
PB_FORCE_INLINE void skin_cols_run(const pb_skin_range *r, uint32_t v0, uint32_t end, uint32_t influences, int kind,
                                   int normals, int wide, pb_v4 *defer) {
    const unsigned char *a = r->assignments + 4u * v0, *a_end = r->assignments + 4u * end;
    const unsigned char *p = r->positions + 12u * v0, *q = normals ? r->normals + 12u * v0 : NULL;
    size_t stride = 4u * (influences - 1u);
    const unsigned char *w = kind == LONE ? r->weights + stride * v0 : NULL;
    float *op = r->out_positions + r->position_stride * v0, *on = normals == 1 ? r->out_normals + r->normal_stride * v0 : NULL;
    for (; a < a_end; a += 4, p += 12, op += r->position_stride) {
        const float *e = r->slot_table + r->slot_offset[a[0]] + PB_SKIN_COLUMNS;
        pb_v4 ca = pb_v4_load(e), cb = pb_v4_load(e + 4), cc = pb_v4_load(e + 8), ct = pb_v4_load(e + 12);
        if (kind == LONE) {
            /* pb_skin_influence's first weight: the stored one, 0 when unused */
            pb_v4 s = pb_v4_set1(a[0] == 0xFFu ? 0.0f : pb_f32le(w)), zero = pb_v4_set1(0.0f);
            ca = pb_v4_add(pb_v4_mul(s, ca), zero);
            cb = pb_v4_add(pb_v4_mul(s, cb), zero);
            cc = pb_v4_add(pb_v4_mul(s, cc), zero);
            ct = pb_v4_add(pb_v4_mul(s, ct), zero);
            w += stride;
        }
        pb_v4_store3(op, pb_v4_add(transform_col(ca, cb, cc, p, wide), ct));
        if (normals) {
            pb_v4 n = transform_col(ca, cb, cc, q, wide);
            q += 12;
            if (normals == 2) *defer++ = n;
            else {
                pb_v4_store3(on, n);
                on += r->normal_stride;
            }
        }
    }
}

/* skin_cols_run with 16-byte point loads, but for the streams' last vertex. */
PB_FORCE_INLINE void skin_cols(const pb_skin_range *r, uint32_t v0, uint32_t end, uint32_t influences, int kind,
                               int normals, pb_v4 *defer) {
    uint32_t stop = end == r->count ? end - 1u : end;
    skin_cols_run(r, v0, stop, influences, kind, normals, 1, defer);
    if (stop < end) skin_cols_run(r, stop, end, influences, kind, normals, 0, defer + (stop - v0));
}

/* The deferred normalization of n normals (x y z in lanes) of vertices
 * v..: four at a time, their squared lengths gathered into lanes. */
PB_FORCE_INLINE void normalize_columns(const pb_skin_range *r, pb_v4 *defer, uint32_t v, uint32_t n) {
    uint32_t i, k;
    for (i = n; i & 3u; i++) defer[i] = defer[n - 1u]; /* spare lanes: computed, not stored */
    for (i = 0; i < n; i += 4u) {
        pb_v4 x = pb_v4_mul(defer[i], defer[i]), y = pb_v4_mul(defer[i + 1u], defer[i + 1u]),
              z = pb_v4_mul(defer[i + 2u], defer[i + 2u]), w = pb_v4_mul(defer[i + 3u], defer[i + 3u]), inv;
        pb_v4_transpose(&x, &y, &z, &w); /* x: the four x * x, ... */
        inv = normal_scale4(pb_v4_add(pb_v4_add(x, y), z));
        if (i + 4u <= n) {
            float *o = r->out_normals + r->normal_stride * (v + i);
            pb_v4_store3(o, pb_v4_mul(defer[i], pb_v4_splat(inv, 0)));
            pb_v4_store3(o + r->normal_stride, pb_v4_mul(defer[i + 1u], pb_v4_splat(inv, 1)));
            pb_v4_store3(o + 2u * r->normal_stride, pb_v4_mul(defer[i + 2u], pb_v4_splat(inv, 2)));
            pb_v4_store3(o + 3u * r->normal_stride, pb_v4_mul(defer[i + 3u], pb_v4_splat(inv, 3)));
        } else { /* the block's last one to three: lanes through memory */
            float f[4];
            pb_v4_store(f, inv);
            for (k = 0; i + k < n; k++)
                pb_v4_store3(r->out_normals + r->normal_stride * (v + i + k), pb_v4_mul(defer[i + k], pb_v4_set1(f[k])));
        }
    }
}

/* All vertices with a fixed influence count (a constant after inlining, so
 * each count gets its own straight-line loops), BLOCK at a time, each
 * block in the shape its kind runs fastest in. */
PB_FORCE_INLINE void skin_all(const pb_skin_range *r, uint32_t influences) {
    uint32_t v = 0;
    pb_v4 defer[BLOCK]; /* the block's unnormalized normals */
    int normals = !r->normals ? 0 : r->normalize ? 2 : 1;
    while (v < r->count) {
        uint32_t bend = r->count - v < BLOCK ? r->count : v + BLOCK;
        int kind = block_kind(r, v, bend, influences);
        if (kind == MIXED) {
            skin_rows(r, v, bend, influences, defer);
        } else {
            if (kind == RIGID) {
                if (normals == 0) skin_cols(r, v, bend, influences, RIGID, 0, defer);
                else if (normals == 1) skin_cols(r, v, bend, influences, RIGID, 1, defer);
                else skin_cols(r, v, bend, influences, RIGID, 2, defer);
            } else {
                if (normals == 0) skin_cols(r, v, bend, influences, LONE, 0, defer);
                else if (normals == 1) skin_cols(r, v, bend, influences, LONE, 1, defer);
                else skin_cols(r, v, bend, influences, LONE, 2, defer);
            }
            if (normals == 2) normalize_columns(r, defer, v, bend - v);
        }
        v = bend;
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
