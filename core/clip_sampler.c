/* The CLIP sampler: fast forward playback for one clip on one rig.  Bound
 * 12-bit rotation and 10-bit translation tracks (nearly every track of a
 * real clip) go into lane groups of four for the port's kernel
 * (ports/kernels.h), each lane caching its current key pair dequantized, so
 * a key is decoded once when playback reaches it, not once per frame.  The
 * other bound tracks (morphs, palette keys, keyless tracks) are sampled one
 * by one like plumbob_clip_sample_pose with a cursor. */
#include <float.h>
#include "plumbob.h"
#include "kernels.h"
#include "pb_clip.h"
#include "clip_kernels_scalar.h"

/* The kernels address poses as floats: rotation at 0, translation at 4. */
typedef char pb_pose_is_ten_floats[sizeof(plumbob_bone_pose) == 10 * sizeof(float) ? 1 : -1];
typedef char pb_lanes_keep_alignment[sizeof(pb_clip_lanes) % 16u == 0 ? 1 : -1];

/* A bound track outside the lane groups. */
typedef struct pb_clip_other {
    uint32_t track;
    int32_t bone, morph;
    uint32_t key;
} pb_clip_other;

/* The lane group a bound track goes to: PB_CLIP_ROTATION, PB_CLIP_VECTOR,
 * or 0 for the one-by-one list.  Keyless rotations and translations are
 * constants and ride in the lanes too (they never seek). */
static uint32_t lane_kind(const plumbob_clip_track *t) {
    if (t->target == PLUMBOB_CLIP_TARGET_ROTATION && t->components == 4 &&
        (t->key_count == 0 || (t->curve & 7u) == 4u))
        return PB_CLIP_ROTATION;
    if (t->target == PLUMBOB_CLIP_TARGET_TRANSLATION && t->components == 3 &&
        (t->key_count == 0 || (t->curve & 7u) == 2u))
        return PB_CLIP_VECTOR;
    return 0;
}

/* Counts the bound tracks of each kind. */
static void count_tracks(const plumbob_clip *clip, const plumbob_clip_binding *b, uint32_t *rot,
                         uint32_t *vec, uint32_t *other) {
    uint32_t i;
    *rot = *vec = *other = 0;
    for (i = 0; i < clip->track_count; i++) {
        uint32_t kind;
        if (b->bone_of_track[i] < 0 && b->morph_of_track[i] < 0) continue;
        kind = b->morph_of_track[i] >= 0 ? 0 : lane_kind(&clip->tracks[i]);
        if (kind == PB_CLIP_ROTATION) ++*rot;
        else if (kind == PB_CLIP_VECTOR) ++*vec;
        else ++*other;
    }
}

#define GROUPS(n) (((n) + 3u) / 4u)
#define LANE_ALIGN 16u

size_t plumbob_clip_sampler_size(const plumbob_clip *clip, const plumbob_clip_binding *binding) {
    uint32_t rot, vec, other;
    size_t total = 0;
    if (!clip || !binding || binding->track_count != clip->track_count) return 0;
    count_tracks(clip, binding, &rot, &vec, &other);
    if (!plumbob_size_add(&total, plumbob_arena_need(GROUPS(rot) + GROUPS(vec), sizeof(pb_clip_lanes))) ||
        !plumbob_size_add(&total, LANE_ALIGN) ||
        !plumbob_size_add(&total, plumbob_arena_need(other, sizeof(pb_clip_other))))
        return SIZE_MAX;
    return total;
}

/* Key k of lane l's track into a (which = 0) or b (which = 1); components
 * is g->components, a constant after inlining. */
PB_FORCE_INLINE void load_key(pb_clip_lanes *g, unsigned l, uint32_t k, int which, uint32_t components) {
    float v[4];
    float (*dst)[4] = which ? g->b : g->a;
    if (components == PB_CLIP_ROTATION) {
        pb_clip_rot12_key(g->keys[l] + (size_t)k * 12u, g->q[l], g->offset[l], v);
        dst[3][l] = v[3];
    } else {
        pb_clip_vec10_key(g->keys[l] + (size_t)k * 8u, g->q[l], g->offset[l], v);
    }
    dst[0][l] = v[0];
    dst[1][l] = v[1];
    dst[2][l] = v[2];
}

/* A hint to fetch the cache line at p (keys a lane will need soon). */
#if defined(__GNUC__) || defined(__clang__)
#  define PB_PREFETCH(p) __builtin_prefetch(p)
#else
#  define PB_PREFETCH(p) ((void)(p))
#endif

/* Lane l's cache for key k: b is key k + 1 (tick tb) or key k again. */
PB_FORCE_INLINE void set_span(pb_clip_lanes *g, unsigned l, uint32_t k, uint32_t components) {
    const unsigned char *keys = g->keys[l];
    const uint32_t size = components == PB_CLIP_ROTATION ? 12u : 8u;
    uint16_t ta = pb_le16(keys + (size_t)k * size);
    uint32_t c;
    g->key[l] = k;
    g->ta[l] = (float)ta;
    g->lo[l] = k > 0 ? (float)ta : -FLT_MAX;
    if (k + 1u < g->count[l]) {
        uint16_t tb = pb_le16(keys + (size_t)(k + 1u) * size);
        load_key(g, l, k + 1u, 1, components);
        g->inv[l] = tb == ta + 1u ? 1.0f : tb > ta ? 1.0f / (float)(tb - ta) : 0.0f;
        g->hi[l] = (float)tb;
        PB_PREFETCH(keys + (size_t)(k + 1u) * size + 64u); /* the keys after it */
    } else {
        for (c = 0; c < components; c++) g->b[c][l] = g->a[c][l];
        g->inv[l] = 0.0f;
        g->hi[l] = FLT_MAX;
    }
    if (components == PB_CLIP_ROTATION) { /* the shorter arc, once per span */
        float b0 = g->b[0][l], b1 = g->b[1][l], b2 = g->b[2][l], b3 = g->b[3][l];
        float dot = g->a[0][l] * b0 + g->a[1][l] * b1 + g->a[2][l] * b2 + g->a[3][l] * b3;
        int flip = dot < 0.0f;
        g->sb[l] = flip ? -1.0f : 1.0f;
        if (flip) {
            g->b[0][l] = -b0;
            g->b[1][l] = -b1;
            g->b[2][l] = -b2;
            g->b[3][l] = -b3;
        }
    }
}

/* pb_clip_lanes_seek for one lane kind (components a constant, so the
 * per-component loops unroll and the key size folds). */
PB_FORCE_INLINE void seek_lanes(pb_clip_lanes *g, unsigned mask, float t, uint32_t components) {
    unsigned l;
    for (l = 0; mask; l++, mask >>= 1) {
        uint32_t k = g->key[l], c, steps;
        if (!(mask & 1u)) continue;
        /* forward playback reached the next key: b is already decoded */
        for (steps = 0; steps < 8u && g->inv[l] != 0.0f && t >= g->hi[l]; steps++) {
            if (g->sb[l] < 0.0f) /* b was stored negated: a is the key itself */
                for (c = 0; c < components; c++) g->a[c][l] = -g->b[c][l];
            else
                for (c = 0; c < components; c++) g->a[c][l] = g->b[c][l];
            set_span(g, l, ++k, components);
        }
        if (t < g->lo[l] || t >= g->hi[l]) { /* a jump: search */
            plumbob_clip_track view; /* just what pb_clip_next_key reads */
            view.keys = g->keys[l];
            view.key_count = (uint16_t)g->count[l];
            view.key_size = (uint8_t)(components == PB_CLIP_ROTATION ? 12u : 8u);
            k = pb_clip_next_key(&view, k, t);
            load_key(g, l, k, 0, components);
            set_span(g, l, k, components);
        }
    }
}

void pb_clip_lanes_seek(pb_clip_lanes *g, unsigned mask, float t) {
    if (g->components == PB_CLIP_ROTATION) seek_lanes(g, mask, t, PB_CLIP_ROTATION);
    else seek_lanes(g, mask, t, PB_CLIP_VECTOR);
}

/* Lane l of g takes track t, writing to slot; it seeks on first use. */
static void init_lane(pb_clip_lanes *g, unsigned l, const plumbob_clip_track *t, int32_t slot) {
    float max = g->components == PB_CLIP_ROTATION ? 4095.0f : 1023.0f;
    g->keys[l] = t->keys;
    g->count[l] = t->key_count;
    g->q[l] = t->scale * (1.0f / max);
    g->offset[l] = t->offset;
    g->slot[l] = slot;
    if (t->key_count == 0) { /* a constant: the identity or the offset, forever */
        unsigned c;
        for (c = 0; c < 3; c++) g->a[c][l] = g->b[c][l] = g->components == PB_CLIP_ROTATION ? 0.0f : t->offset;
        return; /* init_group's span already holds every time */
    }
    g->lo[l] = g->hi[l] = 0.0f; /* an empty span: every time is stale */
}

/* An empty group of one kind: four padding lanes holding the identity. */
static void init_group(pb_clip_lanes *g, uint32_t components) {
    unsigned l, c;
    for (l = 0; l < 4; l++) {
        for (c = 0; c < 4; c++) g->a[c][l] = g->b[c][l] = c == 3 && components == PB_CLIP_ROTATION ? 1.0f : 0.0f;
        g->ta[l] = g->inv[l] = 0.0f;
        g->sb[l] = 1.0f;
        g->lo[l] = -FLT_MAX;
        g->hi[l] = FLT_MAX;
        g->keys[l] = 0;
        g->q[l] = g->offset[l] = 0.0f;
        g->key[l] = g->count[l] = 0;
        g->slot[l] = -1;
    }
    g->components = components;
    g->pad[0] = g->pad[1] = g->pad[2] = 0;
}

plumbob_result plumbob_clip_sampler_init(const plumbob_clip *clip, const plumbob_clip_binding *binding,
                                         uint32_t flags, plumbob_arena *arena, plumbob_clip_sampler *s) {
    uint32_t rot, vec, other, i, nr = 0, nv = 0, no = 0;
    pb_clip_lanes *lanes;
    pb_clip_other *others;
    if (!clip || !binding || !arena || !s || binding->track_count != clip->track_count ||
        (flags & ~PLUMBOB_CLIP_SAMPLER_REFERENCE))
        return PLUMBOB_ERR_INVALID_ARGUMENT;
    count_tracks(clip, binding, &rot, &vec, &other);
    lanes = (pb_clip_lanes *)plumbob_arena_alloc_array(arena, GROUPS(rot) + GROUPS(vec), sizeof(pb_clip_lanes),
                                                       LANE_ALIGN);
    others = (pb_clip_other *)plumbob_arena_alloc_array(arena, other, sizeof(pb_clip_other), 0);
    if (!lanes || !others) return PLUMBOB_ERR_OUT_OF_MEMORY;
    for (i = 0; i < GROUPS(rot); i++) init_group(&lanes[i], PB_CLIP_ROTATION);
    for (i = 0; i < GROUPS(vec); i++) init_group(&lanes[GROUPS(rot) + i], PB_CLIP_VECTOR);
    for (i = 0; i < clip->track_count; i++) {
        const plumbob_clip_track *t = &clip->tracks[i];
        int32_t bone = binding->bone_of_track[i], morph = binding->morph_of_track[i];
        uint32_t kind = morph >= 0 ? 0 : lane_kind(t);
        if (bone < 0 && morph < 0) continue;
        if (kind == PB_CLIP_ROTATION) {
            init_lane(&lanes[nr / 4u], nr % 4u, t, bone);
            nr++;
        } else if (kind == PB_CLIP_VECTOR) {
            init_lane(&lanes[GROUPS(rot) + nv / 4u], nv % 4u, t, bone);
            nv++;
        } else {
            others[no].track = i;
            others[no].bone = bone;
            others[no].morph = morph;
            others[no].key = 0;
            no++;
        }
    }
    s->clip = clip;
    s->lanes = lanes;
    s->rotation_groups = GROUPS(rot);
    s->vector_groups = GROUPS(vec);
    s->others = others;
    s->other_count = other;
    s->flags = flags;
    return PLUMBOB_OK;
}

void plumbob_clip_sampler_sample(plumbob_clip_sampler *s, float seconds, plumbob_bone_pose *poses,
                                 float *morph_weights) {
    const plumbob_clip *clip;
    pb_clip_lanes *lanes;
    pb_clip_other *others;
    float ticks, v[4];
    uint32_t i;
    if (!s || !s->clip) return;
    clip = s->clip;
    lanes = (pb_clip_lanes *)s->lanes;
    others = (pb_clip_other *)s->others;
    /* ticks fit in 16 bits: clamping keeps the lanes' arithmetic finite */
    ticks = pb_clip_ticks(clip, seconds);
    ticks = ticks < -1.0f ? -1.0f : ticks > 70000.0f ? 70000.0f : ticks;
    if (poses) {
        float *rotation = &poses[0].rotation.x, *translation = &poses[0].translation.x;
        size_t stride = sizeof(plumbob_bone_pose) / sizeof(float);
        if (s->flags & PLUMBOB_CLIP_SAMPLER_REFERENCE) {
            pb_clip_lanes_scalar(lanes, s->rotation_groups, ticks, rotation, stride);
            pb_clip_lanes_scalar(lanes + s->rotation_groups, s->vector_groups, ticks, translation, stride);
        } else {
            PB_CLIP_LANES(lanes, s->rotation_groups, ticks, rotation, stride);
            PB_CLIP_LANES(lanes + s->rotation_groups, s->vector_groups, ticks, translation, stride);
        }
    }
    for (i = 0; i < s->other_count; i++) {
        pb_clip_other *o = &others[i];
        const plumbob_clip_track *t = &clip->tracks[o->track];
        if ((o->bone < 0 || !poses) && (o->morph < 0 || !morph_weights)) continue;
        o->key = pb_clip_next_key(t, o->key, ticks);
        pb_clip_sample_at(clip, t, o->key, ticks, v);
        pb_clip_store(t, o->bone, o->morph, v, poses, morph_weights);
    }
}
