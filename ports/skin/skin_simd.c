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
 * - Other blocks: four vertices per step.  The four's weights are decoded
 *   side by side (one lane each, unused slots masked to +0, the implied (or explicit)
 *   last weight from their sum); each vertex's blended rows take one
 *   multiply and one add per row and influence; the rows of the four are
 *   then transposed, so the transforms run with one vertex per lane on
 *   positions and normals loaded as x, y and z rows.  Where the output is
 *   packed triples (stride 3) or positions and normals interleaved (both
 *   strides 6, normals 3 floats in), a group's results leave in 16-byte
 *   stores, without the per-vertex transposes other strides need.
 *
 * Either way the normals are normalized in a loop of their own after each
 * block of 32 vertices: there one group's square root and division overlap
 * the next group's, where inside the long skinning loop their latency was
 * a third of a vertex's time.  Products and sums are never fused and run in the
 * reference's order per lane, so the bits match; ARMv7 NEON flushes
 * subnormals, which only matters for degenerate data.  Built with -mavx2,
 * MIXED blocks blend with skin_avx2.h's 256-bit body instead of blend4. */
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

/* Three rows (or three coefficients) of four lanes. */
typedef struct skin_rows3 {
    pb_v4 x, y, z;
} skin_rows3;

/* A group's blended matrices as coefficients in lanes (lane i: vertex
 * i): x.x = a of row x, x.y = b, x.z = c, xt = t; then row y, z. */
typedef struct skin_coef {
    skin_rows3 x, y, z;
    pb_v4 xt, yt, zt;
} skin_coef;

/* How a group's results are stored: OUT_ROWS each vertex's triples where
 * its strides say (any layout); OUT_PACKED positions (and normals) as
 * packed triples, stride 3, three 16-byte stores per four; OUT_PN6
 * positions and normals interleaved in one stream (normals 3 floats after
 * the positions, both strides 6), six stores per four. */
enum { OUT_ROWS, OUT_PACKED, OUT_PN6 };

/* Positions px..pz and normals qx..qz of four vertices (lanes) into the
 * interleaved stream at o: rows p n of each vertex, 96 bytes. */
PB_FORCE_INLINE void store_pn6(float *o, pb_v4 px, pb_v4 py, pb_v4 pz, pb_v4 qx, pb_v4 qy, pb_v4 qz) {
    pb_v4 lo, hi;
    pb_v4_transpose(&px, &py, &pz, &qx); /* px: vertex 0's x y z and normal x, ... */
    pb_v4_zip(qy, qz, &lo, &hi);         /* lo: normal y z of vertices 0 and 1 */
    pb_v4_store(o, px);
    pb_v4_store(o + 4, pb_v4_lows(lo, py));
    pb_v4_store(o + 8, pb_v4_highs(py, lo));
    pb_v4_store(o + 12, pz);
    pb_v4_store(o + 16, pb_v4_lows(hi, qx));
    pb_v4_store(o + 20, pb_v4_highs(qx, hi));
}

/* The transformed positions o and normals q (nrm: the group has normals)
 * of the four vertices from v: stored as the layout `out` allows (the
 * first n), or left in defer for normalize_block (the normals, and with
 * OUT_PN6 the positions too: DEFER rows a group). */
PB_FORCE_INLINE void emit4(const pb_skin_range *r, uint32_t v, uint32_t n, int out, pb_v4 *defer, pb_v4 ox, pb_v4 oy,
                           pb_v4 oz, int nrm, pb_v4 qx, pb_v4 qy, pb_v4 qz) {
    if (out == OUT_PN6 && nrm && r->normalize) {
        defer[3] = ox;
        defer[4] = oy;
        defer[5] = oz;
    } else if (out == OUT_PACKED) {
        pb_v4_store_xyz4(r->out_positions + 3u * v, ox, oy, oz);
    } else if (out == OUT_ROWS) {
        store_rows(r->out_positions + r->position_stride * v, r->position_stride, n, ox, oy, oz);
    }
    if (!nrm) return;
    if (r->normalize) {
        defer[0] = qx;
        defer[1] = qy;
        defer[2] = qz;
    } else if (out == OUT_PN6) {
        store_pn6(r->out_positions + 6u * v, ox, oy, oz, qx, qy, qz);
    } else if (out == OUT_PACKED) {
        pb_v4_store_xyz4(r->out_normals + 3u * v, qx, qy, qz);
    } else {
        store_rows(r->out_normals + r->normal_stride * v, r->normal_stride, n, qx, qy, qz);
    }
}

#if defined(PLUMBOB_PORT_SSE2) && defined(__AVX2__)
#include "skin_avx2.h" /* rows x and y in one 256-bit half each */
#define SKIN_COEF skin_coef8
#define BLEND4(r, a, w, influences, stored) blend_avx(r, a, w, influences, stored)
#define TRANSFORM4 transform4_avx
#else
/* Weights of four vertices, one vector per influence (lane i: vertex i),
 * from their 16 assignment bytes at a and stored weights at w (`stored`
 * floats a vertex, the four back to back): pb_skin_influences's numbers.
 * An unused slot's weight is +0; with the last weight implied, adding it
 * to the running sum (never -0, as it starts at +0) changes nothing, so
 * every lane sums as the reference does, which skips it; with explicit
 * weights (stored == influences) there is no sum.  Written out per count,
 * so nothing goes through memory. */
typedef struct skin_w4 {
    pb_v4 w0, w1, w2, w3;
} skin_w4;
PB_FORCE_INLINE skin_w4 weights4(const unsigned char *a, const unsigned char *w, uint32_t influences,
                                 uint32_t stored) {
    pb_v4 words = pb_v4_load_le(a), sum, one = pb_v4_set1(1.0f), zero = pb_v4_set1(0.0f);
    skin_w4 k;
    k.w0 = k.w1 = k.w2 = k.w3 = zero;
    if (stored == 1) {
        k.w0 = pb_v4_load_le(w);
    } else if (stored == 2) {
        pb_v4_unzip(pb_v4_load_le(w), pb_v4_load_le(w + 16), &k.w0, &k.w1);
    } else if (stored == 3) {
        pb_v4_load_xyz4(w, &k.w0, &k.w1, &k.w2);
    } else if (stored == 4) { /* a vertex's four weights a row: transposed to one influence a row */
        k.w0 = pb_v4_load_le(w);
        k.w1 = pb_v4_load_le(w + 16);
        k.w2 = pb_v4_load_le(w + 32);
        k.w3 = pb_v4_load_le(w + 48);
        pb_v4_transpose(&k.w0, &k.w1, &k.w2, &k.w3);
    }
    if (stored > 0) k.w0 = pb_v4_andnot(pb_m4_byte_ff(words, 0), k.w0);
    if (stored > 1) k.w1 = pb_v4_andnot(pb_m4_byte_ff(words, 1), k.w1);
    if (stored > 2) k.w2 = pb_v4_andnot(pb_m4_byte_ff(words, 2), k.w2);
    if (stored > 3) k.w3 = pb_v4_andnot(pb_m4_byte_ff(words, 3), k.w3);
    if (stored == influences) return k; /* explicit: every weight stored */
    sum = zero;
    if (stored > 0) sum = pb_v4_add(sum, k.w0);
    if (stored > 1) sum = pb_v4_add(sum, k.w1);
    if (stored > 2) sum = pb_v4_add(sum, k.w2);
    sum = pb_v4_sub(one, sum); /* the implied weight, influence `stored` */
    if (stored == 0) k.w0 = pb_v4_andnot(pb_m4_byte_ff(words, 0), sum);
    else if (stored == 1) k.w1 = pb_v4_andnot(pb_m4_byte_ff(words, 1), sum);
    else if (stored == 2) k.w2 = pb_v4_andnot(pb_m4_byte_ff(words, 2), sum);
    else k.w3 = pb_v4_andnot(pb_m4_byte_ff(words, 3), sum);
    return k;
}

/* (a x + b y) + c z, lane by lane */
PB_FORCE_INLINE pb_v4 dot3(skin_rows3 c, pb_v4 x, pb_v4 y, pb_v4 z) {
    return pb_v4_add(pb_v4_add(pb_v4_mul(c.x, x), pb_v4_mul(c.y, y)), pb_v4_mul(c.z, z));
}

/* Influence k's matrix of vertex `lane` of the group whose assignment
 * bytes are at a. */
#define SKIN_M(r, a, lane, k) pb_skin_matrix(r, (a)[4u * (lane) + (k)])

PB_FORCE_INLINE pb_v4 mul_add(pb_v4 acc, pb_v4 w, const float *m) {
    return pb_v4_add(acc, pb_v4_mul(w, pb_v4_load(m)));
}

/* Blended rows x, y, z of vertex `lane` (a constant) of a group: weights
 * wk, assignment bytes at a. */
PB_FORCE_INLINE skin_rows3 blend(const pb_skin_range *r, const unsigned char *a, skin_w4 wk, unsigned lane,
                                 uint32_t influences) {
    pb_v4 w0 = pb_v4_splat(wk.w0, lane), w1, w2, w3;
    const float *m0 = SKIN_M(r, a, lane, 0), *m1, *m2, *m3;
    skin_rows3 c;
    c.x = pb_v4_mul(w0, pb_v4_load(m0));
    c.y = pb_v4_mul(w0, pb_v4_load(m0 + 4));
    c.z = pb_v4_mul(w0, pb_v4_load(m0 + 8));
    if (influences >= 2) {
        w1 = pb_v4_splat(wk.w1, lane);
        m1 = SKIN_M(r, a, lane, 1);
        c.x = mul_add(c.x, w1, m1);
        c.y = mul_add(c.y, w1, m1 + 4);
        c.z = mul_add(c.z, w1, m1 + 8);
    }
    if (influences == 3) {
        w2 = pb_v4_splat(wk.w2, lane);
        m2 = SKIN_M(r, a, lane, 2);
        c.x = mul_add(c.x, w2, m2);
        c.y = mul_add(c.y, w2, m2 + 4);
        c.z = mul_add(c.z, w2, m2 + 8);
    }
    if (influences == 4) { /* (t0 + t1) + (t2 + t3) */
        w2 = pb_v4_splat(wk.w2, lane);
        w3 = pb_v4_splat(wk.w3, lane);
        m2 = SKIN_M(r, a, lane, 2);
        m3 = SKIN_M(r, a, lane, 3);
        c.x = pb_v4_add(c.x, mul_add(pb_v4_mul(w2, pb_v4_load(m2)), w3, m3));
        c.y = pb_v4_add(c.y, mul_add(pb_v4_mul(w2, pb_v4_load(m2 + 4)), w3, m3 + 4));
        c.z = pb_v4_add(c.z, mul_add(pb_v4_mul(w2, pb_v4_load(m2 + 8)), w3, m3 + 8));
    }
    return c;
}

PB_FORCE_INLINE skin_coef blend4(const pb_skin_range *r, const unsigned char *a, skin_w4 wk, uint32_t influences) {
    skin_rows3 v0 = blend(r, a, wk, 0, influences), v1 = blend(r, a, wk, 1, influences),
               v2 = blend(r, a, wk, 2, influences), v3 = blend(r, a, wk, 3, influences);
    skin_coef c;
    /* rows of vertices -> coefficients of lanes */
    pb_v4_transpose(&v0.x, &v1.x, &v2.x, &v3.x);
    pb_v4_transpose(&v0.y, &v1.y, &v2.y, &v3.y);
    pb_v4_transpose(&v0.z, &v1.z, &v2.z, &v3.z);
    c.x.x = v0.x; c.x.y = v1.x; c.x.z = v2.x; c.xt = v3.x;
    c.y.x = v0.y; c.y.y = v1.y; c.y.z = v2.y; c.yt = v3.y;
    c.z.x = v0.z; c.z.y = v1.z; c.z.z = v2.z; c.zt = v3.z;
    return c;
}
/* Four vertices from v with blended coefficients c (positions and
 * normals the 48 bytes at pos and nrm): transformed, then emit4. */
PB_FORCE_INLINE void transform4(const pb_skin_range *r, uint32_t v, skin_coef c, const unsigned char *pos,
                                const unsigned char *nrm, uint32_t n, int out, pb_v4 *defer) {
    pb_v4 px, py, pz, ox, oy, oz, qx, qy, qz;
    qx = qy = qz = pb_v4_set1(0.0f); /* no normals: unused */
    pb_v4_load_xyz4(pos, &px, &py, &pz);
    ox = pb_v4_add(dot3(c.x, px, py, pz), c.xt);
    oy = pb_v4_add(dot3(c.y, px, py, pz), c.yt);
    oz = pb_v4_add(dot3(c.z, px, py, pz), c.zt);
    if (nrm) {
        pb_v4_load_xyz4(nrm, &px, &py, &pz);
        qx = dot3(c.x, px, py, pz);
        qy = dot3(c.y, px, py, pz);
        qz = dot3(c.z, px, py, pz);
    }
    emit4(r, v, n, out, defer, ox, oy, oz, nrm != NULL, qx, qy, qz);
}
#define SKIN_COEF skin_coef
#define BLEND4(r, a, w, influences, stored) blend4(r, a, weights4(a, w, influences, stored), influences)
#define TRANSFORM4 transform4
#endif

/* The deferred normalization of a block's normals (and with OUT_PN6 the
 * stores of its positions): a short loop whose iterations are
 * independent, so the square roots' latency overlaps.  Each group left
 * DEFER rows; a last group of fewer than four stores its first n. */
#define DEFER 6u
PB_FORCE_INLINE void normalize_block(const pb_skin_range *r, const pb_v4 *defer, uint32_t v, uint32_t n, int out) {
    uint32_t i;
    for (i = 0; i < n; i += 4u, defer += DEFER) {
        pb_v4 qx = defer[0], qy = defer[1], qz = defer[2], inv;
        uint32_t k = n - i < 4u ? n - i : 4u;
        inv = normal_scale4(pb_v4_add(pb_v4_add(pb_v4_mul(qx, qx), pb_v4_mul(qy, qy)), pb_v4_mul(qz, qz)));
        qx = pb_v4_mul(qx, inv);
        qy = pb_v4_mul(qy, inv);
        qz = pb_v4_mul(qz, inv);
        if (out == OUT_PN6 && k == 4u) {
            store_pn6(r->out_positions + 6u * (v + i), defer[3], defer[4], defer[5], qx, qy, qz);
        } else if (out == OUT_PN6) {
            store_rows(r->out_positions + 6u * (v + i), 6u, k, defer[3], defer[4], defer[5]);
            store_rows(r->out_normals + 6u * (v + i), 6u, k, qx, qy, qz);
        } else if (out == OUT_PACKED && k == 4u) {
            pb_v4_store_xyz4(r->out_normals + 3u * (v + i), qx, qy, qz);
        } else {
            store_rows(r->out_normals + r->normal_stride * (v + i), r->normal_stride, k, qx, qy, qz);
        }
    }
}

#define BLOCK 32u /* vertices per block: a multiple of 4 */
#define AHEAD 4u  /* groups blended before their transforms run */

/* Vertices v0 .. end-1 (at most BLOCK) four at a time: the weights and
 * blended matrices of AHEAD whole groups, then their transforms, so that
 * each loop's iterations are short and independent (in one loop the blend
 * of the next group waited behind the transforms of this one: 5-8% of the
 * time; 8 groups ahead measured the same as 4, 2 up to 8% slower).  What
 * normalize_block stores is left in defer, DEFER rows a group. */
PB_FORCE_INLINE void skin_rows(const pb_skin_range *r, uint32_t v0, uint32_t end, uint32_t influences,
                               uint32_t weights, int out, pb_v4 *defer) {
    uint32_t stored = 4u * weights; /* weight bytes per vertex */
    uint32_t g, groups = (end - v0) / 4u, v = v0 + 4u * groups;
    SKIN_COEF coef[AHEAD];
    uint32_t h, k;
    for (h = 0; h < groups; h += AHEAD) {
        uint32_t hn = groups - h < AHEAD ? groups - h : AHEAD;
        for (k = 0; k < hn; k++) {
            g = h + k;
            coef[k] = BLEND4(r, r->assignments + 4u * (v0 + 4u * g), r->weights + stored * (v0 + 4u * g), influences,
                             weights);
        }
        for (k = 0; k < hn; k++) {
            uint32_t u = v0 + 4u * (h + k);
            TRANSFORM4(r, u, coef[k], r->positions + 12u * u, r->normals ? r->normals + 12u * u : NULL, 4u, out,
                       defer + DEFER * (h + k));
        }
    }
    if (v < end) {
        /* the last one to three: spare lanes repeat the last vertex, read
         * from local copies so no load passes the streams' ends; stored
         * through the strides */
        unsigned char pos[48], nrm[48], asg[16], wts[64];
        uint32_t n = end - v, i, b;
        for (i = 0; i < 4; i++) {
            uint32_t u = i < n ? v + i : end - 1u;
            for (b = 0; b < 12u; b++) {
                pos[12u * i + b] = r->positions[12u * u + b];
                if (r->normals) nrm[12u * i + b] = r->normals[12u * u + b];
            }
            for (b = 0; b < 4u; b++) asg[4u * i + b] = r->assignments[4u * u + b];
            for (b = 0; b < stored; b++) wts[stored * i + b] = r->weights[stored * u + b];
        }
        TRANSFORM4(r, v, BLEND4(r, asg, wts, influences, weights), pos, r->normals ? nrm : NULL, n,
                   out == OUT_PN6 && r->normalize ? OUT_PN6 : OUT_ROWS, defer + DEFER * groups);
    }
    if (r->normals && r->normalize) normalize_block(r, defer, v0, end - v0, out);
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
PB_FORCE_INLINE int block_kind(const pb_skin_range *r, uint32_t v0, uint32_t end, uint32_t influences,
                               uint32_t stored) {
    const unsigned char *a = r->assignments + 4u * v0, *w, *a_end = r->assignments + 4u * end;
    size_t stride = 4u * stored; /* weight bytes per vertex */
    uint32_t not_one = 0; /* weight 0's bits ^ 1.0f's, or'ed */
    /* one influence has no other slots to test (explicit weights: its
     * weight decides between RIGID and LONE) */
    uint64_t others = influences == 1 ? 0u : PB_SKIN_SLOT0_ONLY;
    if (stored == 0) return RIGID; /* the one implied weight is 1 */
    w = r->weights + stride * v0;
    for (; a_end - a >= 16; a += 16, w += 4u * stride) { /* four at a time: ~3 instructions a vertex */
        if ((pb_le64(a) & pb_le64(a + 8) & others) != others) return MIXED;
        if (stride == 4u) { /* one stored weight: the four lie side by side */
            uint64_t d = (pb_le64(w) ^ PB_SKIN_TWO_ONES) | (pb_le64(w + 8) ^ PB_SKIN_TWO_ONES);
            not_one |= (uint32_t)d | (uint32_t)(d >> 32);
        } else
            not_one |= (pb_le32(w) ^ 0x3F800000u) | (pb_le32(w + stride) ^ 0x3F800000u) |
                       (pb_le32(w + 2u * stride) ^ 0x3F800000u) | (pb_le32(w + 3u * stride) ^ 0x3F800000u);
    }
    for (; a < a_end; a += 4, w += stride) {
        if ((pb_le32(a) & (uint32_t)others) != (uint32_t)others) return MIXED;
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
PB_FORCE_INLINE void skin_cols_run(const pb_skin_range *r, uint32_t v0, uint32_t end, uint32_t influences,
                                   uint32_t stored, int kind, int normals, int wide, pb_v4 *defer) {
    const unsigned char *a = r->assignments + 4u * v0, *a_end = r->assignments + 4u * end;
    const unsigned char *p = r->positions + 12u * v0, *q = normals ? r->normals + 12u * v0 : NULL;
    size_t stride = 4u * stored;
    const unsigned char *w = kind == LONE ? r->weights + stride * v0 : NULL;
    float *op = r->out_positions + r->position_stride * v0, *on = normals == 1 ? r->out_normals + r->normal_stride * v0 : NULL;
    for (; a < a_end; a += 4, p += 12, op += r->position_stride) {
        const float *e = pb_skin_matrix(r, a[0]) + PB_SKIN_COLUMNS;
        pb_v4 ca = pb_v4_load(e), cb = pb_v4_load(e + 4), cc = pb_v4_load(e + 8), ct = pb_v4_load(e + 12);
        if (kind == LONE) {
            /* pb_skin_influence's first weight: the stored one, 0 when
             * unused; the other influences' +0 terms added once (none
             * with one explicit influence: R = t0, a -0 kept) */
            pb_v4 s = pb_v4_set1(a[0] == 0xFFu ? 0.0f : pb_f32le(w)), zero = pb_v4_set1(0.0f);
            ca = pb_v4_mul(s, ca);
            cb = pb_v4_mul(s, cb);
            cc = pb_v4_mul(s, cc);
            ct = pb_v4_mul(s, ct);
            if (influences > 1) {
                ca = pb_v4_add(ca, zero);
                cb = pb_v4_add(cb, zero);
                cc = pb_v4_add(cc, zero);
                ct = pb_v4_add(ct, zero);
            }
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
PB_FORCE_INLINE void skin_cols(const pb_skin_range *r, uint32_t v0, uint32_t end, uint32_t influences,
                               uint32_t stored, int kind, int normals, pb_v4 *defer) {
    uint32_t stop = end == r->count ? end - 1u : end;
    skin_cols_run(r, v0, stop, influences, stored, kind, normals, 1, defer);
    if (stop < end) skin_cols_run(r, stop, end, influences, stored, kind, normals, 0, defer + (stop - v0));
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
PB_FORCE_INLINE void skin_all(const pb_skin_range *r, uint32_t influences, uint32_t stored) {
    uint32_t v = 0;
    pb_v4 defer[BLOCK / 4u * DEFER]; /* what the block's normalization stores (at least BLOCK rows) */
    int normals = !r->normals ? 0 : r->normalize ? 2 : 1, out = OUT_ROWS;
    if (r->normals && r->out_normals == r->out_positions + 3 && r->position_stride == 6u && r->normal_stride == 6u)
        out = OUT_PN6;
    else if (r->position_stride == 3u && (!r->normals || r->normal_stride == 3u))
        out = OUT_PACKED;
    while (v < r->count) {
        uint32_t bend = r->count - v < BLOCK ? r->count : v + BLOCK;
        int kind = block_kind(r, v, bend, influences, stored);
        if (kind == MIXED) { /* each output layout its own loop */
            if (out == OUT_PN6) skin_rows(r, v, bend, influences, stored, OUT_PN6, defer);
            else if (out == OUT_PACKED) skin_rows(r, v, bend, influences, stored, OUT_PACKED, defer);
            else skin_rows(r, v, bend, influences, stored, OUT_ROWS, defer);
        } else {
            if (kind == RIGID) {
                if (normals == 0) skin_cols(r, v, bend, influences, stored, RIGID, 0, defer);
                else if (normals == 1) skin_cols(r, v, bend, influences, stored, RIGID, 1, defer);
                else skin_cols(r, v, bend, influences, stored, RIGID, 2, defer);
            } else {
                if (normals == 0) skin_cols(r, v, bend, influences, stored, LONE, 0, defer);
                else if (normals == 1) skin_cols(r, v, bend, influences, stored, LONE, 1, defer);
                else skin_cols(r, v, bend, influences, stored, LONE, 2, defer);
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
    if (local.explicit_weights) { /* every weight stored: influences = weight_count (1..4) */
        switch (local.weight_count) {
        case 1: skin_all(&local, 1, 1); break;
        case 2: skin_all(&local, 2, 2); break;
        case 3: skin_all(&local, 3, 3); break;
        default: skin_all(&local, 4, 4); break;
        }
        return;
    }
    switch (local.weight_count) {
    case 0: skin_all(&local, 1, 0); break;
    case 1: skin_all(&local, 2, 1); break;
    case 2: skin_all(&local, 3, 2); break;
    default: skin_all(&local, 4, 3); break;
    }
}
#else
typedef int pb_skin_simd_unused; /* ISO C wants something in a unit */
#endif
