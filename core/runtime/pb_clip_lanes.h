/* Internal: what the CLIP schedule (clip_schedule.c) and the sampler
 * (clip_sampler.c) share about lane tracks: which tracks ride in the lanes,
 * how one of their keys is dequantized, how a span's far end is set up,
 * and the records of the schedule's key streams.  Both compute spans with
 * the same inline code, so a span reached through the stream and one
 * reached by a search hold the same bits. */
#ifndef PLUMBOB_PB_CLIP_LANES_H
#define PLUMBOB_PB_CLIP_LANES_H

#include <stdint.h>
#include "plumbob/runtime.h"
#include "kernels.h"
#include "pb_clip_dequant.h"

/* The lane kind of a track: PB_CLIP_ROTATION (12-bit quaternions),
 * PB_CLIP_VECTOR (10-bit translations), or 0 for the one-by-one list.
 * Keyless rotations and translations are of a lane kind too: with the
 * one-key ones, the sampler's constants (pb_clip_lane_moving). */
static inline uint32_t pb_clip_lane_kind(const plumbob_clip_track *t) {
    if (t->target == PLUMBOB_CLIP_TARGET_ROTATION && t->components == 4 &&
        (t->key_count == 0 || (t->curve & 7u) == 4u))
        return PB_CLIP_ROTATION;
    if (t->target == PLUMBOB_CLIP_TARGET_TRANSLATION && t->components == 3 &&
        (t->key_count == 0 || (t->curve & 7u) == 2u))
        return PB_CLIP_VECTOR;
    return 0;
}

/* The lane kind of a track that moves (two keys or more), else 0.  Only
 * those get lanes and schedule records; a lane-kind track with one key or
 * none is a constant, which the sampler computes once and copies. */
static inline uint32_t pb_clip_lane_moving(const plumbob_clip_track *t) {
    return t->key_count >= 2 ? pb_clip_lane_kind(t) : 0;
}

/* Stream index of a lane kind: 0 rotations, 1 vectors. */
#define PB_CLIP_STREAM(components) ((components) == PB_CLIP_ROTATION ? 0u : 1u)

/* A lane track's keys and dequantization (q = scale / max raw value). */
typedef struct pb_clip_lane_src {
    const unsigned char *keys;
    uint32_t count;
    float q, offset;
} pb_clip_lane_src;

static inline pb_clip_lane_src pb_clip_lane_src_of(const plumbob_clip_track *t, uint32_t components) {
    pb_clip_lane_src s;
    s.keys = t->keys;
    s.count = t->key_count;
    s.q = t->scale * (1.0f / (components == PB_CLIP_ROTATION ? 4095.0f : 1023.0f));
    s.offset = t->offset;
    return s;
}

/* Bytes per key and tick of key k. */
#define PB_CLIP_LANE_KEY_SIZE(components) ((components) == PB_CLIP_ROTATION ? 12u : 8u)
PB_FORCE_INLINE uint16_t pb_clip_lane_tick(const pb_clip_lane_src *s, uint32_t k, uint32_t components) {
    return pb_le16(s->keys + (size_t)k * PB_CLIP_LANE_KEY_SIZE(components));
}

/* Key k dequantized into v (components floats). */
PB_FORCE_INLINE void pb_clip_lane_key(const pb_clip_lane_src *s, uint32_t k, uint32_t components, float v[4]) {
    if (components == PB_CLIP_ROTATION) pb_clip_rot12_key(s->keys + (size_t)k * 12u, s->q, s->offset, v);
    else pb_clip_vec10_key(s->keys + (size_t)k * 8u, s->q, s->offset, v);
}

/* The far end of span k, whose near end a is key k: b is key k + 1 (for
 * rotations negated when it lies on the other side of the sphere from a)
 * or key k itself at the last key; *inv is 1 / (tick difference), 0 when
 * the span holds a.  Returns 1 when b was negated. */
PB_FORCE_INLINE uint32_t pb_clip_span_end(const pb_clip_lane_src *s, uint32_t k, uint32_t components,
                                          const float a[4], float b[4], float *inv) {
    uint32_t c;
    if (k + 1u < s->count) {
        uint16_t ta = pb_clip_lane_tick(s, k, components), tb = pb_clip_lane_tick(s, k + 1u, components);
        pb_clip_lane_key(s, k + 1u, components, b);
        *inv = tb == ta + 1u ? 1.0f : tb > ta ? 1.0f / (float)(tb - ta) : 0.0f;
    } else {
        for (c = 0; c < components; c++) b[c] = a[c];
        *inv = 0.0f;
    }
    if (components == PB_CLIP_ROTATION && a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3] < 0.0f) {
        for (c = 0; c < 4; c++) b[c] = -b[c];
        return 1;
    }
    return 0;
}

/* The schedule's streams: one record per key after a lane track's first,
 * sorted by tag = tick << 16 | lane, where tick is that key's tick: when
 * playback reaches it, the lane's span k - 1 becomes span k, whose far end
 * the record holds (pb_clip_span_end's b and inv).  Rotations keep the
 * negation flag in bit 31 of inv's bits (inv is never negative). */
typedef struct pb_clip_rot_record {
    uint32_t tag;
    uint32_t inv_bits;          /* bits of inv | negated << 31 */
    float b[4];
} pb_clip_rot_record;

typedef struct pb_clip_vec_record {
    uint32_t tag;
    float inv;
    float b[3];
} pb_clip_vec_record;

#define PB_CLIP_TAG(tick, lane) ((uint32_t)(tick) << 16 | (uint32_t)(lane))

#endif
