/* NEON twin of pb_skin_scalar (AArch64 and ARMv7 with -mfpu=neon): the
 * SSE2 kernel's structure with NEON registers.  Multiplies and adds stay
 * separate (no vmla/vfma) so the bits match the scalar reference; ARMv7
 * NEON flushes subnormals, which only matters for degenerate data. */
#include "kernels.h"

#if defined(PLUMBOB_PORT_NEON)
#include <arm_neon.h>
#include <float.h>
#include "pb_math.h"


static void store3(float *o, float32x4_t v) {
    vst1_f32(o, vget_low_f32(v));
    vst1q_lane_f32(o + 2, v, 2);
}

static float32x4_t mul_add(float32x4_t acc, float32x4_t w, const float *m) {
    return vaddq_f32(acc, vmulq_f32(w, vld1q_f32(m)));
}

/* See skin_sse2.c: pb_rsqrtf four lanes at once, odd lanes by the scalar. */
static void flush_normals(const pb_skin_range *r, uint32_t v0, uint32_t n, const float32x4_t *nv,
                          const float *len2) {
    float32x4_t x = vld1q_f32(len2), y, hx, three_halves = vdupq_n_f32(1.5f);
    float inv[4];
    uint32_t i;
    y = vreinterpretq_f32_u32(vsubq_u32(vdupq_n_u32(0x5F375A86u), vshrq_n_u32(vreinterpretq_u32_f32(x), 1)));
    hx = vmulq_f32(vdupq_n_f32(0.5f), x);
    y = vmulq_f32(y, vsubq_f32(three_halves, vmulq_f32(vmulq_f32(hx, y), y)));
    y = vmulq_f32(y, vsubq_f32(three_halves, vmulq_f32(vmulq_f32(hx, y), y)));
    y = vmulq_f32(y, vsubq_f32(three_halves, vmulq_f32(vmulq_f32(hx, y), y)));
    vst1q_f32(inv, y);
    for (i = 0; i < n; i++) {
        if (!(len2[i] >= FLT_MIN && len2[i] <= FLT_MAX)) inv[i] = pb_rsqrtf(len2[i]);
        store3(r->out_normals + r->normal_stride * (v0 + i), vmulq_f32(nv[i], vdupq_n_f32(inv[i])));
    }
}

PB_FORCE_INLINE void skin_vertex(const pb_skin_range *r, uint32_t v, uint32_t influences, float32x4_t *n_out,
                                 float *len2_out) {
    float w[4];
    const float *m[4];
    const unsigned char *pp = r->positions + 12u * v;
    float32x4_t c0, c1, c2, c3, w0, q;
    pb_skin_influences(r, v, influences, w, m);
    w0 = vdupq_n_f32(w[0]);
    c0 = vmulq_f32(w0, vld1q_f32(m[0]));
    c1 = vmulq_f32(w0, vld1q_f32(m[0] + 4));
    c2 = vmulq_f32(w0, vld1q_f32(m[0] + 8));
    c3 = vmulq_f32(w0, vld1q_f32(m[0] + 12));
    if (influences >= 2) {
        float32x4_t w1 = vdupq_n_f32(w[1]);
        c0 = mul_add(c0, w1, m[1]);
        c1 = mul_add(c1, w1, m[1] + 4);
        c2 = mul_add(c2, w1, m[1] + 8);
        c3 = mul_add(c3, w1, m[1] + 12);
    }
    if (influences == 3) {
        float32x4_t w2 = vdupq_n_f32(w[2]);
        c0 = mul_add(c0, w2, m[2]);
        c1 = mul_add(c1, w2, m[2] + 4);
        c2 = mul_add(c2, w2, m[2] + 8);
        c3 = mul_add(c3, w2, m[2] + 12);
    }
    if (influences == 4) {
        float32x4_t w2 = vdupq_n_f32(w[2]), w3 = vdupq_n_f32(w[3]);
        c0 = vaddq_f32(c0, mul_add(vmulq_f32(w2, vld1q_f32(m[2])), w3, m[3]));
        c1 = vaddq_f32(c1, mul_add(vmulq_f32(w2, vld1q_f32(m[2] + 4)), w3, m[3] + 4));
        c2 = vaddq_f32(c2, mul_add(vmulq_f32(w2, vld1q_f32(m[2] + 8)), w3, m[3] + 8));
        c3 = vaddq_f32(c3, mul_add(vmulq_f32(w2, vld1q_f32(m[2] + 12)), w3, m[3] + 12));
    }
    q = vaddq_f32(vmulq_f32(c0, vdupq_n_f32(pb_f32le(pp))), vmulq_f32(c1, vdupq_n_f32(pb_f32le(pp + 4))));
    q = vaddq_f32(vaddq_f32(q, vmulq_f32(c2, vdupq_n_f32(pb_f32le(pp + 8)))), c3);
    store3(r->out_positions + r->position_stride * v, q);
    if (r->normals) {
        const unsigned char *np = r->normals + 12u * v;
        float32x4_t n, sq;
        n = vaddq_f32(vmulq_f32(c0, vdupq_n_f32(pb_f32le(np))), vmulq_f32(c1, vdupq_n_f32(pb_f32le(np + 4))));
        n = vaddq_f32(n, vmulq_f32(c2, vdupq_n_f32(pb_f32le(np + 8))));
        sq = vmulq_f32(n, n);
        *n_out = n;
        *len2_out = (vgetq_lane_f32(sq, 0) + vgetq_lane_f32(sq, 1)) + vgetq_lane_f32(sq, 2);
    }
}

PB_FORCE_INLINE void skin_all(const pb_skin_range *r, uint32_t influences) {
    uint32_t v, batch = 0;
    float32x4_t nv[4];
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

void pb_skin_neon(const pb_skin_range *r) {
    switch (r->weight_count) {
    case 0: skin_all(r, 1); break;
    case 1: skin_all(r, 2); break;
    case 2: skin_all(r, 3); break;
    default: skin_all(r, 4); break;
    }
}
#else
typedef int pb_skin_neon_unused; /* ISO C wants something in a unit */
#endif
