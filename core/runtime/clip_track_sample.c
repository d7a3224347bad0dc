/* Sims 3 CLIP sampling track by track: dequantize keys, interpolate, map to
 * a rig.  One track at a time (plumbob_clip_sample_track, the cursor), the
 * binding to a rig, the reference pose sampler that walks every bound track
 * (plumbob_clip_sample_pose: the definition the scheduled sampler of
 * clip_sampler.c is tested against) and the events of a time span.  The
 * decoder has validated every key, so nothing here re-checks bounds. */
#include "plumbob/runtime.h"
#include "pb_math.h"
#include "pb_clip_dequant.h"
#include "pb_clip_track.h"

/* Key k of track t (k < key_count; the decoder checked the key bytes and
 * palette indices). */
static uint16_t key_value(const plumbob_clip *clip, const plumbob_clip_track *t, uint32_t k, float out[4]) {
    const unsigned char *key = t->keys + (size_t)k * t->key_size;
    unsigned signs = pb_le16(key + 2), i;
    float q;
    switch (t->curve & 7u) {
    case 4: {
        uint64_t w = pb_le64(key + 4);
        q = t->scale * (1.0f / 4095.0f);
        for (i = 0; i < 4; i++) out[i] = pb_clip_dequant((unsigned)(w >> (16 * i)) & 0x0FFFu, (signs >> i) & 1u, q, t->offset);
        break;
    }
    case 2: {
        uint32_t p = pb_le32(key + 4);
        q = t->scale * (1.0f / 1023.0f);
        for (i = 0; i < 3; i++) out[i] = pb_clip_dequant((p >> (10 * i)) & 0x3FFu, (signs >> i) & 1u, q, t->offset);
        break;
    }
    case 3: /* palette values are already floats: the sign, then scale and offset */
        for (i = 0; i < 3; i++) {
            float v = pb_f32le(clip->palette + 4u * pb_le16(key + 4 + 2 * i));
            out[i] = ((signs >> i) & 1u ? -v : v) * t->scale + t->offset;
        }
        break;
    default: /* 5: one u16 */
        out[0] = pb_clip_dequant(pb_le16(key + 4), signs & 1u, t->scale * (1.0f / 65535.0f), t->offset);
        break;
    }
    return pb_le16(key);
}

plumbob_result plumbob_clip_key_value(const plumbob_clip *clip, uint32_t track, uint32_t k, uint16_t *tick,
                                      float out[4]) {
    uint16_t at;
    if (!clip || !out || track >= clip->track_count || k >= clip->tracks[track].key_count)
        return PLUMBOB_ERR_INVALID_ARGUMENT;
    at = key_value(clip, &clip->tracks[track], k, out);
    if (tick) *tick = at;
    return PLUMBOB_OK;
}

uint32_t pb_clip_find_key(const plumbob_clip_track *t, float ticks) {
    uint32_t lo = 0, hi = t->key_count;
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2u;
        if ((float)pb_clip_key_tick(t, mid) <= ticks) lo = mid; else hi = mid;
    }
    return lo;
}

float pb_clip_ticks(const plumbob_clip *clip, float seconds) {
    float ticks = seconds / clip->frame_duration;
    return ticks == ticks ? ticks : 0.0f; /* NaN plays the first key */
}

/* Interpolation weight between keys k and k+1 at `ticks` (0 holds key k). */
static inline float key_alpha(const plumbob_clip_track *t, uint32_t k, float ticks) {
    uint16_t ta, tb;
    float alpha;
    if (k + 1u >= t->key_count) return 0.0f;
    ta = pb_clip_key_tick(t, k);
    if (ticks <= (float)ta) return 0.0f;
    tb = pb_clip_key_tick(t, k + 1u);
    if (tb <= ta) return 0.0f;
    alpha = ticks - (float)ta;
    if (tb - ta != 1) alpha /= (float)(tb - ta); /* most real keys are one tick apart */
    return alpha > 1.0f ? 1.0f : alpha;
}

void pb_clip_sample_at(const plumbob_clip *clip, const plumbob_clip_track *t, uint32_t k, float ticks,
                      float out[4]) {
    float a[4], b[4], alpha;
    uint32_t i;
    if (t->key_count == 0) {
        if (t->components == 4) {
            out[0] = out[1] = out[2] = 0.0f;
            out[3] = 1.0f;
        } else {
            for (i = 0; i < t->components; i++) out[i] = t->offset;
        }
        return;
    }
    alpha = key_alpha(t, k, ticks);
    switch (t->curve & 7u) {
    case 4: { /* 12-bit quaternion keys: the hot path */
        const unsigned char *ka = t->keys + (size_t)k * 12u;
        float q = t->scale * (1.0f / 4095.0f);
        pb_clip_rot12_key(ka, q, t->offset, a);
        if (alpha > 0.0f) {
            pb_clip_rot12_key(ka + 12, q, t->offset, b);
            pb_quat_nlerp4(a, b, alpha, out);
        } else {
            out[0] = a[0]; out[1] = a[1]; out[2] = a[2]; out[3] = a[3];
            pb_quat_normalize4(out);
        }
        return;
    }
    case 2: { /* 10-bit vectors */
        const unsigned char *ka = t->keys + (size_t)k * 8u;
        float q = t->scale * (1.0f / 1023.0f);
        pb_clip_vec10_key(ka, q, t->offset, a);
        if (alpha > 0.0f) {
            pb_clip_vec10_key(ka + 8, q, t->offset, b);
            for (i = 0; i < 3; i++) out[i] = a[i] + (b[i] - a[i]) * alpha;
        } else {
            out[0] = a[0]; out[1] = a[1]; out[2] = a[2];
        }
        return;
    }
    default:
        break;
    }
    (void)key_value(clip, t, k, a);
    if (alpha > 0.0f) (void)key_value(clip, t, k + 1u, b);
    if (t->components == 4) {
        if (alpha > 0.0f) {
            pb_quat_nlerp4(a, b, alpha, out);
        } else {
            for (i = 0; i < 4; i++) out[i] = a[i];
            pb_quat_normalize4(out);
        }
    } else {
        for (i = 0; i < t->components; i++) out[i] = alpha > 0.0f ? a[i] + (b[i] - a[i]) * alpha : a[i];
    }
}

plumbob_result plumbob_clip_sample_track(const plumbob_clip *clip, uint32_t track, float seconds, float out[4]) {
    const plumbob_clip_track *t;
    float ticks;
    if (!clip || !out || track >= clip->track_count) return PLUMBOB_ERR_INVALID_ARGUMENT;
    t = &clip->tracks[track];
    ticks = pb_clip_ticks(clip, seconds);
    pb_clip_sample_at(clip, t, t->key_count ? pb_clip_find_key(t, ticks) : 0, ticks, out);
    return PLUMBOB_OK;
}

size_t plumbob_clip_cursor_size(const plumbob_clip *clip) {
    return clip ? plumbob_arena_need(clip->track_count, sizeof(uint16_t)) : SIZE_MAX;
}

plumbob_result plumbob_clip_cursor_init(const plumbob_clip *clip, plumbob_arena *arena,
                                        plumbob_clip_cursor *cursor) {
    uint32_t i;
    if (!clip || !arena || !cursor) return PLUMBOB_ERR_INVALID_ARGUMENT;
    cursor->key = (uint16_t *)plumbob_arena_alloc_array(arena, clip->track_count, sizeof(uint16_t), 0);
    if (!cursor->key) return PLUMBOB_ERR_OUT_OF_MEMORY;
    for (i = 0; i < clip->track_count; i++) cursor->key[i] = 0;
    cursor->clip = clip;
    cursor->track_count = clip->track_count;
    return PLUMBOB_OK;
}

/* Was the cursor made for this clip (and left as it was made)? */
static int cursor_of(const plumbob_clip_cursor *cursor, const plumbob_clip *clip) {
    return cursor->clip == clip && cursor->key && cursor->track_count == clip->track_count;
}

uint32_t pb_clip_next_key(const plumbob_clip_track *t, uint32_t k, float ticks) {
    uint32_t steps = 0;
    if (t->key_count == 0) return 0;
    if (k >= t->key_count || (k > 0 && (float)pb_clip_key_tick(t, k) > ticks)) return pb_clip_find_key(t, ticks);
    while (k + 1u < t->key_count && (float)pb_clip_key_tick(t, k + 1u) <= ticks) {
        if (++steps > 8) return pb_clip_find_key(t, ticks);
        k++;
    }
    return k;
}

static uint32_t cursor_key(plumbob_clip_cursor *cursor, const plumbob_clip_track *t, uint32_t track,
                           float ticks) {
    uint32_t k = pb_clip_next_key(t, cursor->key[track], ticks);
    cursor->key[track] = (uint16_t)k;
    return k;
}

plumbob_result plumbob_clip_sample_track_cursor(const plumbob_clip *clip, plumbob_clip_cursor *cursor,
                                                uint32_t track, float seconds, float out[4]) {
    const plumbob_clip_track *t;
    float ticks;
    if (!clip || !cursor || !out || track >= clip->track_count || !cursor_of(cursor, clip))
        return PLUMBOB_ERR_INVALID_ARGUMENT;
    t = &clip->tracks[track];
    ticks = pb_clip_ticks(clip, seconds);
    pb_clip_sample_at(clip, t, cursor_key(cursor, t, track, ticks), ticks, out);
    return PLUMBOB_OK;
}

size_t plumbob_clip_bind_size(const plumbob_clip *clip) {
    size_t total = 0;
    if (!clip) return SIZE_MAX;
    if (!plumbob_size_add(&total, plumbob_arena_need(clip->track_count, sizeof(int32_t))) ||
        !plumbob_size_add(&total, plumbob_arena_need(clip->track_count, sizeof(int32_t))))
        return SIZE_MAX;
    return total;
}

plumbob_result plumbob_clip_bind(const plumbob_clip *clip, const uint32_t *bone_hashes,
                                 uint32_t bone_count, const uint32_t *morph_hashes,
                                 uint32_t morph_count, plumbob_arena *arena,
                                 plumbob_clip_binding *binding) {
    uint32_t i, j;
    size_t mark;
    if (!clip || !arena || !binding || (!bone_hashes && bone_count) || (!morph_hashes && morph_count))
        return PLUMBOB_ERR_INVALID_ARGUMENT;
    mark = plumbob_arena_mark(arena);
    binding->bone_of_track = (int32_t *)plumbob_arena_alloc_array(arena, clip->track_count, sizeof(int32_t), 0);
    binding->morph_of_track = (int32_t *)plumbob_arena_alloc_array(arena, clip->track_count, sizeof(int32_t), 0);
    if (!binding->bone_of_track || !binding->morph_of_track) {
        plumbob_arena_reset(arena, mark);
        return PLUMBOB_ERR_OUT_OF_MEMORY;
    }
    binding->clip = clip;
    binding->track_count = clip->track_count;
    binding->bone_count = bone_count;
    binding->morph_count = morph_count;
    for (i = 0; i < clip->track_count; i++) {
        const plumbob_clip_track *t = &clip->tracks[i];
        binding->bone_of_track[i] = -1;
        binding->morph_of_track[i] = -1;
        if (t->target == PLUMBOB_CLIP_TARGET_MORPH) {
            for (j = 0; j < morph_count; j++)
                if (morph_hashes[j] == t->hash) { binding->morph_of_track[i] = (int32_t)j; break; }
        } else if (t->target == PLUMBOB_CLIP_TARGET_ROTATION || t->target == PLUMBOB_CLIP_TARGET_TRANSLATION ||
                   t->target == PLUMBOB_CLIP_TARGET_SCALE) {
            for (j = 0; j < bone_count; j++)
                if (bone_hashes[j] == t->hash) { binding->bone_of_track[i] = (int32_t)j; break; }
        }
    }
    return PLUMBOB_OK;
}

/* A rig (sims3/rig.c) gives the bone hashes of its skeleton view. */
size_t plumbob_rig_bind_size(const plumbob_clip *clip, const plumbob_rig *rig) {
    if (!rig || (rig->bone_count && !rig->skeleton.name_hash)) return SIZE_MAX;
    return plumbob_clip_bind_size(clip);
}

plumbob_result plumbob_rig_bind(const plumbob_clip *clip, const plumbob_rig *rig, const uint32_t *morph_hashes,
                                uint32_t morph_count, plumbob_arena *arena, plumbob_clip_binding *binding) {
    if (!rig || (rig->bone_count && !rig->skeleton.name_hash)) return PLUMBOB_ERR_INVALID_ARGUMENT;
    return plumbob_clip_bind(clip, rig->skeleton.name_hash, rig->skeleton.bone_count, morph_hashes, morph_count,
                             arena, binding);
}

plumbob_result plumbob_clip_sample_pose(const plumbob_clip *clip, const plumbob_clip_binding *binding,
                                        plumbob_clip_cursor *cursor, float seconds, plumbob_bone_pose *poses,
                                        float *morph_weights) {
    uint32_t i;
    float ticks, v[4];
    if (!clip || !pb_clip_binding_of(binding, clip) || (cursor && !cursor_of(cursor, clip)))
        return PLUMBOB_ERR_INVALID_ARGUMENT;
    ticks = pb_clip_ticks(clip, seconds);
    for (i = 0; i < clip->track_count; i++) {
        const plumbob_clip_track *t = &clip->tracks[i];
        int32_t bone = binding->bone_of_track[i], morph = binding->morph_of_track[i];
        uint32_t k;
        if ((bone < 0 || !poses) && (morph < 0 || !morph_weights)) continue;
        k = cursor ? cursor_key(cursor, t, i, ticks) : (t->key_count ? pb_clip_find_key(t, ticks) : 0);
        pb_clip_sample_at(clip, t, k, ticks, v);
        pb_clip_store(t, bone, morph, v, poses, morph_weights);
    }
    return PLUMBOB_OK;
}

int pb_clip_binding_of(const plumbob_clip_binding *binding, const plumbob_clip *clip) {
    return binding && binding->clip == clip && binding->bone_of_track && binding->morph_of_track &&
           binding->track_count == clip->track_count;
}

void pb_clip_store(const plumbob_clip_track *t, int32_t bone, int32_t morph, const float v[4],
                   plumbob_bone_pose *poses, float *morph_weights) {
    if (morph >= 0 && morph_weights) {
        morph_weights[morph] = v[0];
    } else if (bone >= 0 && poses) {
        plumbob_bone_pose *p = &poses[bone];
        if (t->target == PLUMBOB_CLIP_TARGET_ROTATION && t->components == 4) {
            p->rotation.x = v[0]; p->rotation.y = v[1]; p->rotation.z = v[2]; p->rotation.w = v[3];
        } else if (t->target == PLUMBOB_CLIP_TARGET_TRANSLATION && t->components == 3) {
            p->translation.x = v[0]; p->translation.y = v[1]; p->translation.z = v[2];
        } else if (t->target == PLUMBOB_CLIP_TARGET_SCALE && t->components == 3) {
            p->scale.x = v[0]; p->scale.y = v[1]; p->scale.z = v[2];
        }
    }
}

plumbob_result plumbob_clip_events_between(const plumbob_clip *clip, float from_seconds, float to_seconds,
                                           bool looping, uint32_t *indices, uint32_t max, uint32_t *count) {
    uint32_t i, n = 0, matched = 0;
    bool wrap;
    if (!clip || !count || (!indices && max)) return PLUMBOB_ERR_INVALID_ARGUMENT;
    wrap = looping && to_seconds < from_seconds;
    for (i = 0; i < clip->events_decoded; i++) {
        float t = clip->events[i].time;
        bool in = wrap ? (t >= from_seconds || t < to_seconds) : (t >= from_seconds && t < to_seconds);
        if (!in) continue;
        matched++;
        if (n < max) indices[n++] = i;
    }
    *count = n;
    return matched > max ? PLUMBOB_ERR_LIMIT_EXCEEDED : PLUMBOB_OK;
}
