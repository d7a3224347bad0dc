/* Scalar reference kernels for CLIP sampling: dequantize the two common key
 * types and interpolate.  They are the definition the SIMD ports (added in
 * ports/) are tested against, and they are static inline so the sampler in
 * clip_track_sample.c pays no call per track.  Keys were validated by the
 * decoder; nothing here checks bounds. */
#ifndef PLUMBOB_CLIP_KERNELS_SCALAR_H
#define PLUMBOB_CLIP_KERNELS_SCALAR_H

#include "pb_bytes.h"

/* Dequantization, defined once: value = raw * (+-scale/max) + offset.  The
 * sign bit picks the multiplier's sign, which equals negating raw/max
 * before scaling (docs/FORMATS.md, Sims 3 CLIP: sign before scale and offset). */
static inline float pb_clip_dequant(unsigned raw, unsigned negative, float q, float offset) {
    return (float)raw * (negative ? -q : q) + offset;
}

/* Straight-line twins of plumbob_clip_key_value for the two common curves
 * (same formula, so the same bits); q is the track's scale / max. */
static inline void pb_clip_rot12_key(const unsigned char *key, float q, float offset, float out[4]) {
    uint64_t w = pb_le64(key + 4);
    unsigned signs = key[2];
    out[0] = pb_clip_dequant((unsigned)w & 0x0FFFu, signs & 1u, q, offset);
    out[1] = pb_clip_dequant((unsigned)(w >> 16) & 0x0FFFu, (signs >> 1) & 1u, q, offset);
    out[2] = pb_clip_dequant((unsigned)(w >> 32) & 0x0FFFu, (signs >> 2) & 1u, q, offset);
    out[3] = pb_clip_dequant((unsigned)(w >> 48) & 0x0FFFu, (signs >> 3) & 1u, q, offset);
}

static inline void pb_clip_vec10_key(const unsigned char *key, float q, float offset, float out[3]) {
    uint32_t p = pb_le32(key + 4);
    unsigned signs = key[2];
    out[0] = pb_clip_dequant(p & 0x3FFu, signs & 1u, q, offset);
    out[1] = pb_clip_dequant((p >> 10) & 0x3FFu, (signs >> 1) & 1u, q, offset);
    out[2] = pb_clip_dequant((p >> 20) & 0x3FFu, (signs >> 2) & 1u, q, offset);
}

#endif
