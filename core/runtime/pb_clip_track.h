/* Internal: CLIP sampling helpers shared by the single-track sampling and
 * the cursor (clip_track_sample.c) and the scheduled sampler
 * (clip_sampler.c).  They read a decoded clip (sims3/) through its public
 * types only. */
#ifndef PLUMBOB_PB_CLIP_TRACK_H
#define PLUMBOB_PB_CLIP_TRACK_H

#include <stdint.h>
#include "plumbob/runtime.h"
#include "pb_bytes.h"

/* Shared between files of the library, so not static: renamed into the
 * plumbob_ namespace so libplumbob exports no other prefix (checked by
 * tests/build-tests.sh). */
#define pb_clip_ticks plumbob_pb_clip_ticks
#define pb_clip_find_key plumbob_pb_clip_find_key
#define pb_clip_next_key plumbob_pb_clip_next_key
#define pb_clip_sample_at plumbob_pb_clip_sample_at
#define pb_clip_store plumbob_pb_clip_store
#define pb_clip_binding_of plumbob_pb_clip_binding_of

/* Tick of key k (k < key_count). */
static inline uint16_t pb_clip_key_tick(const plumbob_clip_track *t, uint32_t k) {
    return pb_le16(t->keys + (size_t)k * t->key_size);
}

/* Seconds to ticks (NaN plays the first key). */
float pb_clip_ticks(const plumbob_clip *clip, float seconds);

/* Last key whose tick is <= ticks (0 when ticks is before the first). */
uint32_t pb_clip_find_key(const plumbob_clip_track *t, float ticks);

/* The key for ticks starting from key k: a few steps forward in normal
 * playback, a binary search after a jump back or far ahead. */
uint32_t pb_clip_next_key(const plumbob_clip_track *t, uint32_t k, float ticks);

/* Interpolates between key k and k+1 (or holds key k at the ends). */
void pb_clip_sample_at(const plumbob_clip *clip, const plumbob_clip_track *t, uint32_t k, float ticks,
                       float out[4]);

/* Was the binding made for this clip (by identity; and left as it was
 * made)?  binding may be NULL (then no). */
int pb_clip_binding_of(const plumbob_clip_binding *binding, const plumbob_clip *clip);

/* Writes one track's value to its bone's field or its morph weight. */
void pb_clip_store(const plumbob_clip_track *t, int32_t bone, int32_t morph, const float v[4],
                   plumbob_bone_pose *poses, float *morph_weights);

#endif
