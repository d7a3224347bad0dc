/* The SIMD twin of pb_clip_lanes_scalar, written once over simd4.h and
 * compiled as pb_clip_lanes_sse2 or pb_clip_lanes_neon: one lane group is
 * four tracks in four registers per component, so the weights, the
 * blend and the normalization run four tracks at
 * a time, and one transpose turns the lanes back into per-bone values.
 * Built with -mavx2, clip_avx2.h runs two groups per step first. */
#include "kernels.h"

#if defined(PLUMBOB_PORT_SSE2) || defined(PLUMBOB_PORT_NEON)
#include "simd4.h"
#include "pb_math.h"

/* The four lanes' weights (the core has moved their key pairs to t);
 * inv's sign bit marks a negated b, so the weight takes |inv|. */
PB_FORCE_INLINE pb_v4 lanes_alpha(const uint16_t *ta, const float *inv, pb_v4 tv) {
    pb_v4 alpha = pb_v4_mul(pb_v4_sub(tv, pb_v4_from_u16x4(ta)), pb_v4_abs(pb_v4_load(inv)));
    return pb_v4_min(pb_v4_max(alpha, pb_v4_set1(0.0f)), pb_v4_set1(1.0f));
}
#define group_alpha(g, tv) lanes_alpha((g)->tail.ta, (g)->tail.inv, tv) /* g: a group of either kind */

/* Are all four lanes bound (no slot is -1)? */
PB_FORCE_INLINE int slots_bound(const int16_t *slot) { return (slot[0] | slot[1] | slot[2] | slot[3]) >= 0; }
#define all_bound(g) slots_bound((g)->tail.slot)

/* Lane l of a group to its output (slot >= 0). */
#define lane_out(out, stride, g, l) ((out) + (stride) * (size_t)(uint16_t)(g)->tail.slot[l]) /* slot >= 0 */

/* The rare groups: a lane far from unit length (never between real keys,
 * which are close) gets pb_quat_normalize4 itself, from the blend x y z w;
 * near lanes take their row of n; unbound lanes are skipped.  Lanes are
 * written in order, so a later track of the same bone still wins.  Rows
 * come by value so the hot loop never spills them. */
static PB_NOINLINE void odd_rotations(const pb_clip_lanes *g, unsigned near, pb_v4 x, pb_v4 y, pb_v4 z, pb_v4 w,
                                      pb_v4 n0, pb_v4 n1, pb_v4 n2, pb_v4 n3, float *out, size_t stride) {
    float q[4][4], n[4][4];
    unsigned l, c;
    pb_v4_store(q[0], x);
    pb_v4_store(q[1], y);
    pb_v4_store(q[2], z);
    pb_v4_store(q[3], w);
    pb_v4_store(n[0], n0);
    pb_v4_store(n[1], n1);
    pb_v4_store(n[2], n2);
    pb_v4_store(n[3], n3);
    for (l = 0; l < 4; l++) {
        float *o;
        if (g->tail.slot[l] < 0) continue;
        o = lane_out(out, stride, g, l);
        if (near >> l & 1u) {
            for (c = 0; c < 4; c++) o[c] = n[l][c];
        } else {
            for (c = 0; c < 4; c++) o[c] = q[c][l];
            pb_quat_normalize4(o);
        }
    }
}

/* The stores of a vector group with unbound lanes. */
static PB_NOINLINE void odd_vectors(const pb_clip_vlanes *g, pb_v4 v0, pb_v4 v1, pb_v4 v2, pb_v4 v3, float *out,
                                    size_t stride) {
    if (g->tail.slot[0] >= 0) pb_v4_store3(lane_out(out, stride, g, 0), v0);
    if (g->tail.slot[1] >= 0) pb_v4_store3(lane_out(out, stride, g, 1), v1);
    if (g->tail.slot[2] >= 0) pb_v4_store3(lane_out(out, stride, g, 2), v2);
    if (g->tail.slot[3] >= 0) pb_v4_store3(lane_out(out, stride, g, 3), v3);
}

static void rotations(const pb_clip_lanes *g, uint32_t count, float t, float *out, size_t stride) {
    const pb_v4 tv = pb_v4_set1(t), one = pb_v4_set1(1.0f), half = pb_v4_set1(0.5f);
    const pb_v4 three_halves = pb_v4_set1(1.5f), near_lo = pb_v4_set1(0.99f), near_hi = pb_v4_set1(1.01f);
    uint32_t i;
    for (i = 0; i < count; i++, g++) {
        pb_v4 alpha = group_alpha(g, tv), wa, x, y, z, w, hl, inv, n0, n1, n2, n3;
        pb_v4 ax = pb_v4_load(g->a[0]), ay = pb_v4_load(g->a[1]), az = pb_v4_load(g->a[2]), aw = pb_v4_load(g->a[3]);
        pb_v4 bx = pb_v4_load(g->b[0]), by = pb_v4_load(g->b[1]), bz = pb_v4_load(g->b[2]), bw = pb_v4_load(g->b[3]);
        unsigned near;
        /* pb_quat_nlerp4's blend (the seek stored b on the shorter arc) */
        wa = pb_v4_sub(one, alpha);
        x = pb_v4_add(pb_v4_mul(wa, ax), pb_v4_mul(alpha, bx));
        y = pb_v4_add(pb_v4_mul(wa, ay), pb_v4_mul(alpha, by));
        z = pb_v4_add(pb_v4_mul(wa, az), pb_v4_mul(alpha, bz));
        w = pb_v4_add(pb_v4_mul(wa, aw), pb_v4_mul(alpha, bw));
        /* pb_quat_normalize4's near-unit path: two Newton steps from 1 */
        hl = pb_v4_add(pb_v4_add(pb_v4_add(pb_v4_mul(x, x), pb_v4_mul(y, y)), pb_v4_mul(z, z)), pb_v4_mul(w, w));
        near = pb_m4_bits(pb_m4_and(pb_v4_gt(hl, near_lo), pb_v4_lt(hl, near_hi)));
        hl = pb_v4_mul(half, hl);
        inv = pb_v4_sub(three_halves, hl);
        inv = pb_v4_mul(inv, pb_v4_sub(three_halves, pb_v4_mul(pb_v4_mul(hl, inv), inv)));
        n0 = pb_v4_mul(x, inv);
        n1 = pb_v4_mul(y, inv);
        n2 = pb_v4_mul(z, inv);
        n3 = pb_v4_mul(w, inv);
        pb_v4_transpose(&n0, &n1, &n2, &n3);
        if (near == 0xFu && all_bound(g)) { /* the common case: four bound lanes */
            pb_v4_store(lane_out(out, stride, g, 0), n0);
            pb_v4_store(lane_out(out, stride, g, 1), n1);
            pb_v4_store(lane_out(out, stride, g, 2), n2);
            pb_v4_store(lane_out(out, stride, g, 3), n3);
        } else {
            odd_rotations(g, near, x, y, z, w, n0, n1, n2, n3, out, stride);
        }
    }
}

static void vectors(const pb_clip_vlanes *g, uint32_t count, float t, float *out, size_t stride) {
    const pb_v4 tv = pb_v4_set1(t);
    uint32_t i;
    for (i = 0; i < count; i++, g++) {
        pb_v4 alpha = group_alpha(g, tv), v0, v1, v2, v3;
        pb_v4 ax = pb_v4_load(g->a[0]), ay = pb_v4_load(g->a[1]), az = pb_v4_load(g->a[2]);
        v0 = pb_v4_add(ax, pb_v4_mul(pb_v4_sub(pb_v4_load(g->b[0]), ax), alpha));
        v1 = pb_v4_add(ay, pb_v4_mul(pb_v4_sub(pb_v4_load(g->b[1]), ay), alpha));
        v2 = pb_v4_add(az, pb_v4_mul(pb_v4_sub(pb_v4_load(g->b[2]), az), alpha));
        v3 = v2;
        pb_v4_transpose(&v0, &v1, &v2, &v3);
        if (all_bound(g)) { /* four bound lanes */
            pb_v4_store3(lane_out(out, stride, g, 0), v0);
            pb_v4_store3(lane_out(out, stride, g, 1), v1);
            pb_v4_store3(lane_out(out, stride, g, 2), v2);
            pb_v4_store3(lane_out(out, stride, g, 3), v3);
        } else {
            odd_vectors(g, v0, v1, v2, v3, out, stride);
        }
    }
}

#if defined(PLUMBOB_PORT_SSE2) && defined(__AVX2__)
#include "clip_avx2.h" /* two groups per step; the odd last one below */
#endif

#if defined(PLUMBOB_PORT_SSE2)
void pb_clip_lanes_sse2(const void *groups, uint32_t count, uint32_t components, float t, float *out, size_t stride)
#else
void pb_clip_lanes_neon(const void *groups, uint32_t count, uint32_t components, float t, float *out, size_t stride)
#endif
{
    if (components == PB_CLIP_ROTATION) {
        const pb_clip_lanes *g = (const pb_clip_lanes *)groups;
#if defined(PLUMBOB_PORT_SSE2) && defined(__AVX2__)
        uint32_t done = rotations8(g, count, t, out, stride);
        g += done;
        count -= done;
#endif
        rotations(g, count, t, out, stride);
    } else {
        const pb_clip_vlanes *g = (const pb_clip_vlanes *)groups;
#if defined(PLUMBOB_PORT_SSE2) && defined(__AVX2__)
        uint32_t done = vectors8(g, count, t, out, stride);
        g += done;
        count -= done;
#endif
        vectors(g, count, t, out, stride);
    }
}
#else
typedef int pb_clip_simd_unused; /* ISO C wants something in a unit */
#endif
