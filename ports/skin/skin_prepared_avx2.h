/* The -mavx2 body of the prepared mesh's blended kernel (included by
 * skin_prepared_simd.c): a whole group of eight vertices per step.
 * Vertices i and i + 4 share a 256-bit register, one in each half: their
 * entries' rows are loaded side by side, their weights splatted inside
 * each half from the group's row of eight (one in-lane permute for two
 * vertices), so each blend multiply and add serves two vertices; the
 * four pairs' rows transposed inside each half come out as rows of the
 * eight vertices in order, which the transforms, the renormalization
 * (one square root and one division for eight) and the point rows take
 * as they are stored.  The same operations per lane as the reference, so
 * the same bits. */
#ifndef PLUMBOB_SKIN_PREPARED_AVX2_H
#define PLUMBOB_SKIN_PREPARED_AVX2_H

#include <immintrin.h>

typedef struct sp_rows8 {
    __m256 x, y, z;
} sp_rows8;

/* Row j (0..2) of entries at offsets a (low half) and b (high half). */
PB_FORCE_INLINE __m256 sp_pair_row(const float *t, uint32_t a, uint32_t b, unsigned j) {
    return _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_load_ps(t + a + 4u * j)), _mm_load_ps(t + b + 4u * j), 1);
}

/* Lane i of each half of w (i a constant). */
PB_FORCE_INLINE __m256 sp_half_lane(__m256 w, unsigned i) {
    switch (i) {
    case 0: return _mm256_permute_ps(w, 0x00);
    case 1: return _mm256_permute_ps(w, 0x55);
    case 2: return _mm256_permute_ps(w, 0xAA);
    default: return _mm256_permute_ps(w, 0xFF);
    }
}

/* The rows of vertices i and i + 4 of a group (wv: weights of the eight,
 * the implied one included; e: entry offsets, 8 per influence). */
PB_FORCE_INLINE sp_rows8 sp_pair_rows(const float *t, uint32_t n, uint32_t kind, const uint16_t *e, unsigned i,
                                const __m256 *wv) {
    sp_rows8 c;
    uint32_t k;
    __m256 w;
    if (kind == PB_SKINP_RIGID) {
        c.x = sp_pair_row(t, e[i], e[i + 4u], 0);
        c.y = sp_pair_row(t, e[i], e[i + 4u], 1);
        c.z = sp_pair_row(t, e[i], e[i + 4u], 2);
        return c;
    }
    w = sp_half_lane(wv[0], i);
    c.x = _mm256_mul_ps(w, sp_pair_row(t, e[i], e[i + 4u], 0));
    c.y = _mm256_mul_ps(w, sp_pair_row(t, e[i], e[i + 4u], 1));
    c.z = _mm256_mul_ps(w, sp_pair_row(t, e[i], e[i + 4u], 2));
    for (k = 1; k < n; k++) {
        const uint16_t *ek = e + 8u * k;
        w = sp_half_lane(wv[k], i);
        c.x = _mm256_add_ps(c.x, _mm256_mul_ps(w, sp_pair_row(t, ek[i], ek[i + 4u], 0)));
        c.y = _mm256_add_ps(c.y, _mm256_mul_ps(w, sp_pair_row(t, ek[i], ek[i + 4u], 1)));
        c.z = _mm256_add_ps(c.z, _mm256_mul_ps(w, sp_pair_row(t, ek[i], ek[i + 4u], 2)));
    }
    return c;
}

/* pb_normal_scale_clamped on eight lanes (as skin_prepared_simd.c's
 * four-lane sp_normal_scale4; maxps and minps are `a > b ? a : b` and
 * `a < b ? a : b`, the reference's selects). */
PB_FORCE_INLINE __m256 sp_normal_scale8(__m256 len2) {
    __m256 x = _mm256_min_ps(_mm256_max_ps(len2, _mm256_set1_ps(FLT_MIN)), _mm256_set1_ps(FLT_MAX));
    return _mm256_div_ps(_mm256_set1_ps(1.0f), _mm256_sqrt_ps(x));
}

/* Rows of eight lanes out as two halves of four vertices, by layout. */
PB_FORCE_INLINE void sp_store8(const pb_skinp_range *r, int out, size_t v, __m256 ox, __m256 oy, __m256 oz, int nrm,
                            __m256 qx, __m256 qy, __m256 qz) {
    unsigned h;
    for (h = 0; h < 2u; h++) {
        pb_v4 px = h ? _mm256_extractf128_ps(ox, 1) : _mm256_castps256_ps128(ox);
        pb_v4 py = h ? _mm256_extractf128_ps(oy, 1) : _mm256_castps256_ps128(oy);
        pb_v4 pz = h ? _mm256_extractf128_ps(oz, 1) : _mm256_castps256_ps128(oz);
        size_t u = v + 4u * h;
        if (nrm) {
            pb_v4 nx = h ? _mm256_extractf128_ps(qx, 1) : _mm256_castps256_ps128(qx);
            pb_v4 ny = h ? _mm256_extractf128_ps(qy, 1) : _mm256_castps256_ps128(qy);
            pb_v4 nz = h ? _mm256_extractf128_ps(qz, 1) : _mm256_castps256_ps128(qz);
            if (out == sp_OUT_PN6) {
                sp_store_pn6(r->out_positions + 6u * u, px, py, pz, nx, ny, nz);
                continue;
            }
            if (out == sp_OUT_PACKED) pb_v4_store_xyz4(r->out_normals + 3u * u, nx, ny, nz);
            else sp_store_rows(r->out_normals + r->normal_stride * u, r->normal_stride, nx, ny, nz);
        }
        if (out == sp_OUT_PACKED) pb_v4_store_xyz4(r->out_positions + 3u * u, px, py, pz);
        else sp_store_rows(r->out_positions + r->position_stride * u, r->position_stride, px, py, pz);
    }
}

PB_FORCE_INLINE void sp_group8(const pb_skinp_range *r, uint32_t n, uint32_t kind, int out, int nrm, uint32_t g) {
    uint32_t stored = pb_skinp_stored(kind, n), k;
    const float *p = r->positions + 24u * g, *w = stored ? r->weights + 8u * stored * g : NULL;
    const uint16_t *e = r->entries + 8u * n * g;
    __m256 wv[4], ax, bx, cx, tx, ay, by, cy, ty, az, bz, cz, tz, X, Y, Z, ox, oy, oz, qx, qy, qz;
    sp_rows8 c0, c1, c2, c3;
    wv[0] = wv[1] = wv[2] = wv[3] = _mm256_set1_ps(0.0f);
    for (k = 0; k < stored; k++) wv[k] = _mm256_loadu_ps(w + 8u * k);
    if (kind == PB_SKINP_IMPLIED) {
        __m256 sum = wv[0];
        for (k = 1; k < stored; k++) sum = _mm256_add_ps(sum, wv[k]);
        wv[n - 1u] = _mm256_sub_ps(_mm256_set1_ps(1.0f), sum);
    }
    c0 = sp_pair_rows(r->table, n, kind, e, 0, wv);
    c1 = sp_pair_rows(r->table, n, kind, e, 1, wv);
    c2 = sp_pair_rows(r->table, n, kind, e, 2, wv);
    c3 = sp_pair_rows(r->table, n, kind, e, 3, wv);
    ax = c0.x, bx = c1.x, cx = c2.x, tx = c3.x;
    pb_v8_transpose_halves(&ax, &bx, &cx, &tx);
    ay = c0.y, by = c1.y, cy = c2.y, ty = c3.y;
    pb_v8_transpose_halves(&ay, &by, &cy, &ty);
    az = c0.z, bz = c1.z, cz = c2.z, tz = c3.z;
    pb_v8_transpose_halves(&az, &bz, &cz, &tz);
    X = _mm256_loadu_ps(p);
    Y = _mm256_loadu_ps(p + 8);
    Z = _mm256_loadu_ps(p + 16);
    ox = _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(ax, X), _mm256_mul_ps(bx, Y)), _mm256_mul_ps(cx, Z)), tx);
    oy = _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(ay, X), _mm256_mul_ps(by, Y)), _mm256_mul_ps(cy, Z)), ty);
    oz = _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(az, X), _mm256_mul_ps(bz, Y)), _mm256_mul_ps(cz, Z)), tz);
    qx = qy = qz = ox;
    if (nrm) {
        const float *q = r->normals + 24u * g;
        X = _mm256_loadu_ps(q);
        Y = _mm256_loadu_ps(q + 8);
        Z = _mm256_loadu_ps(q + 16);
        qx = _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(ax, X), _mm256_mul_ps(bx, Y)), _mm256_mul_ps(cx, Z));
        qy = _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(ay, X), _mm256_mul_ps(by, Y)), _mm256_mul_ps(cy, Z));
        qz = _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(az, X), _mm256_mul_ps(bz, Y)), _mm256_mul_ps(cz, Z));
        if (r->normalize) {
            __m256 s = sp_normal_scale8(
                _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(qx, qx), _mm256_mul_ps(qy, qy)), _mm256_mul_ps(qz, qz)));
            qx = _mm256_mul_ps(qx, s);
            qy = _mm256_mul_ps(qy, s);
            qz = _mm256_mul_ps(qz, s);
        }
    }
    sp_store8(r, out, (size_t)PB_SKINP_GROUP * g, ox, oy, oz, nrm, qx, qy, qz);
}

PB_FORCE_INLINE void sp_blended8(const pb_skinp_range *r, uint32_t n, uint32_t kind, int out, int nrm) {
    uint32_t g;
    for (g = 0; g < r->groups; g++) sp_group8(r, n, kind, out, nrm, g);
}

/* Shared groups on eight lanes: lanes 0..3 use the low half's entries,
 * 4..7 the high half's; each splatted element is the two halves' four
 * lanes side by side (one 256-bit broadcast when both halves name the
 * same entries, `same`, else a load and an insert), the weights and
 * points the group's rows as stored.  The four-lane body's operations
 * per lane, so the same bits. */
PB_FORCE_INLINE __m256 sp_splat8(const float *a, const float *b, int same, unsigned j) {
    if (same) return _mm256_broadcast_ps((const __m128 *)(const void *)(a + 4u * j));
    return _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_load_ps(a + 4u * j)), _mm_load_ps(b + 4u * j), 1);
}

#define sp_SPLATS8                                                                                                   \
    const float *a0, const float *a1, const float *a2, const float *a3, const float *b0, const float *b1,            \
        const float *b2, const float *b3, __m256 w0, __m256 w1, __m256 w2, __m256 w3, int same
#define sp_SPLAT8_ARGS a0, a1, a2, a3, b0, b1, b2, b3, w0, w1, w2, w3, same
PB_FORCE_INLINE __m256 sp_shared_element8(sp_SPLATS8, uint32_t n, uint32_t kind, unsigned j) {
    __m256 c;
    if (kind == PB_SKINP_RIGID) return sp_splat8(a0, b0, same, j);
    c = _mm256_mul_ps(w0, sp_splat8(a0, b0, same, j));
    if (n > 1u) c = _mm256_add_ps(c, _mm256_mul_ps(w1, sp_splat8(a1, b1, same, j)));
    if (n > 2u) c = _mm256_add_ps(c, _mm256_mul_ps(w2, sp_splat8(a2, b2, same, j)));
    if (n > 3u) c = _mm256_add_ps(c, _mm256_mul_ps(w3, sp_splat8(a3, b3, same, j)));
    return c;
}

PB_FORCE_INLINE void sp_shared_row8(sp_SPLATS8, uint32_t n, uint32_t kind, unsigned j, __m256 X, __m256 Y, __m256 Z,
                                    __m256 NX, __m256 NY, __m256 NZ, int nrm, __m256 *o, __m256 *q) {
    __m256 ca = sp_shared_element8(sp_SPLAT8_ARGS, n, kind, 4u * j);
    __m256 cb = sp_shared_element8(sp_SPLAT8_ARGS, n, kind, 4u * j + 1u);
    __m256 cc = sp_shared_element8(sp_SPLAT8_ARGS, n, kind, 4u * j + 2u);
    *o = _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(ca, X), _mm256_mul_ps(cb, Y)), _mm256_mul_ps(cc, Z)),
                       sp_shared_element8(sp_SPLAT8_ARGS, n, kind, 4u * j + 3u));
    if (nrm) *q = _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(ca, NX), _mm256_mul_ps(cb, NY)), _mm256_mul_ps(cc, NZ));
}

/* Positions only (weighted spans): entry k transforms the points of
 * both halves, weight w scales them and they add up (the four-lane
 * sp_points_first4's operations). */
PB_FORCE_INLINE void sp_points_first8(const float *a, const float *b, int same, __m256 w, int first, __m256 X, __m256 Y,
                                      __m256 Z, __m256 *ox, __m256 *oy, __m256 *oz) {
    __m256 o[3];
    unsigned j;
    for (j = 0; j < 3u; j++)
        o[j] = _mm256_mul_ps(
            w, _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(sp_splat8(a, b, same, 4u * j), X),
                                                         _mm256_mul_ps(sp_splat8(a, b, same, 4u * j + 1u), Y)),
                                           _mm256_mul_ps(sp_splat8(a, b, same, 4u * j + 2u), Z)),
                             sp_splat8(a, b, same, 4u * j + 3u)));
    if (first) {
        *ox = o[0], *oy = o[1], *oz = o[2];
        return;
    }
    *ox = _mm256_add_ps(*ox, o[0]);
    *oy = _mm256_add_ps(*oy, o[1]);
    *oz = _mm256_add_ps(*oz, o[2]);
}

/* A half's entry k as an address into the splats (rigid spans keep the
 * table's offsets, 32 x the slot). */
PB_FORCE_INLINE const float *sp_splat_at(const pb_skinp_range *r, const uint16_t *e, uint32_t n, uint32_t kind,
                                         uint32_t k) {
    uint32_t o = e[k < n ? k : 0u];
    return r->splat + (kind == PB_SKINP_RIGID ? o + (o >> 1) : o);
}

PB_FORCE_INLINE void sp_shared_group8(const pb_skinp_range *r, uint32_t n, uint32_t kind, int out, int nrm, uint32_t g,
                                      int same) {
    uint32_t stored = pb_skinp_stored(kind, n);
    const float *p = r->positions + 24u * g, *w = stored ? r->weights + 8u * stored * g : NULL;
    const uint16_t *e = r->entries + 2u * n * g;
    const float *a0 = sp_splat_at(r, e, n, kind, 0), *a1 = sp_splat_at(r, e, n, kind, 1);
    const float *a2 = sp_splat_at(r, e, n, kind, 2), *a3 = sp_splat_at(r, e, n, kind, 3);
    const float *b0 = sp_splat_at(r, e + n, n, kind, 0), *b1 = sp_splat_at(r, e + n, n, kind, 1);
    const float *b2 = sp_splat_at(r, e + n, n, kind, 2), *b3 = sp_splat_at(r, e + n, n, kind, 3);
    __m256 w0, w1, w2, w3, X, Y, Z, NX, NY, NZ, ox, oy, oz, qx, qy, qz;
    w0 = w1 = w2 = w3 = _mm256_set1_ps(0.0f);
    if (stored > 0u) w0 = _mm256_loadu_ps(w);
    if (stored > 1u) w1 = _mm256_loadu_ps(w + 8);
    if (stored > 2u) w2 = _mm256_loadu_ps(w + 16);
    if (stored > 3u) w3 = _mm256_loadu_ps(w + 24);
    if (kind == PB_SKINP_IMPLIED) {
        __m256 sum = w0;
        if (stored > 1u) sum = _mm256_add_ps(sum, w1);
        if (stored > 2u) sum = _mm256_add_ps(sum, w2);
        sum = _mm256_sub_ps(_mm256_set1_ps(1.0f), sum);
        if (n == 2u) w1 = sum;
        else if (n == 3u) w2 = sum;
        else w3 = sum;
    }
    X = _mm256_loadu_ps(p);
    Y = _mm256_loadu_ps(p + 8);
    Z = _mm256_loadu_ps(p + 16);
    NX = NY = NZ = qx = qy = qz = X;
    if (!nrm && kind != PB_SKINP_RIGID) {
        sp_points_first8(a0, b0, same, w0, 1, X, Y, Z, &ox, &oy, &oz);
        if (n > 1u) sp_points_first8(a1, b1, same, w1, 0, X, Y, Z, &ox, &oy, &oz);
        if (n > 2u) sp_points_first8(a2, b2, same, w2, 0, X, Y, Z, &ox, &oy, &oz);
        if (n > 3u) sp_points_first8(a3, b3, same, w3, 0, X, Y, Z, &ox, &oy, &oz);
        sp_store8(r, out, (size_t)PB_SKINP_GROUP * g, ox, oy, oz, 0, qx, qy, qz);
        return;
    }
    if (nrm) {
        const float *q = r->normals + 24u * g;
        NX = _mm256_loadu_ps(q);
        NY = _mm256_loadu_ps(q + 8);
        NZ = _mm256_loadu_ps(q + 16);
    }
    sp_shared_row8(sp_SPLAT8_ARGS, n, kind, 0, X, Y, Z, NX, NY, NZ, nrm, &ox, &qx);
    sp_shared_row8(sp_SPLAT8_ARGS, n, kind, 1, X, Y, Z, NX, NY, NZ, nrm, &oy, &qy);
    sp_shared_row8(sp_SPLAT8_ARGS, n, kind, 2, X, Y, Z, NX, NY, NZ, nrm, &oz, &qz);
    if (nrm && r->normalize) {
        __m256 s = sp_normal_scale8(
            _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(qx, qx), _mm256_mul_ps(qy, qy)), _mm256_mul_ps(qz, qz)));
        qx = _mm256_mul_ps(qx, s);
        qy = _mm256_mul_ps(qy, s);
        qz = _mm256_mul_ps(qz, s);
    }
    sp_store8(r, out, (size_t)PB_SKINP_GROUP * g, ox, oy, oz, nrm, qx, qy, qz);
}

PB_FORCE_INLINE void sp_shared8(const pb_skinp_range *r, uint32_t n, uint32_t kind, int out, int nrm) {
    uint32_t g, k;
    for (g = 0; g < r->groups; g++) {
        const uint16_t *e = r->entries + 2u * n * g;
        int same = 1;
        for (k = 0; k < n; k++) same &= e[k] == e[n + k];
        if (same) sp_shared_group8(r, n, kind, out, nrm, g, 1);
        else sp_shared_group8(r, n, kind, out, nrm, g, 0);
    }
}

#endif
