/* The CLIP sampler: fast playback of one clip on one rig.  Every lane track
 * of the schedule (12-bit rotations and 10-bit translations of two keys or
 * more) sits in a lane group of four for the port's kernel
 * (ports/kernels.h), each lane caching its current key pair dequantized.
 * Those of one key or none are constants: the kernel's value for them is
 * computed once and copied after the lanes each frame.
 * Before a frame the pairs move to the frame's tick: forward, by applying
 * the schedule's records whose tick has come (one sequential read and a
 * few stores each); backward or after a far jump, by a search per track.
 * Without a schedule the lanes walk the clip's keys themselves: a frame
 * re-seeks each lane whose span it has left (forward past the span's end
 * or back before its start), with the same inline code, so the same bits.
 * The other bound tracks (morphs, palette keys) are sampled one by one
 * like plumbob_clip_sample_pose with a cursor. */
#include "plumbob/runtime.h"
#include "pb_clip_track.h"
#include "pb_clip_lanes.h"
#include "pb_sort.h"

/* Beside each group, what a frame on the schedule does not read: which
 * track each lane plays (NO_TRACK for padding), its key index k and the
 * tick where its span ends.  Searches and the schedule-free walk keep key
 * and tb; a schedule's records leave them, so on the schedule key is only
 * where the next search starts (pb_clip_next_key takes any start). */
typedef struct pb_lane_side {
    uint32_t track[4];
    uint16_t key[4]; /* k (CLIP key counts are 16-bit) */
    uint16_t tb[4];  /* tick of key k + 1; PB_CLIP_SPAN_OPEN at the last key */
} pb_lane_side;

/* The kernels address poses as floats: rotation at 0, translation at 4. */
typedef char pb_pose_is_ten_floats[sizeof(plumbob_bone_pose) == 10 * sizeof(float) ? 1 : -1];
/* The header's sizes count a lane group and its side at these sizes. */
typedef char pb_lanes_size_published[sizeof(pb_clip_lanes) + sizeof(pb_lane_side) ==
                                             PLUMBOB_CLIP_SAMPLER_GROUP_BYTES ? 1 : -1];
typedef char pb_vlanes_size_published[sizeof(pb_clip_vlanes) + sizeof(pb_lane_side) ==
                                              PLUMBOB_CLIP_SAMPLER_VECTOR_GROUP_BYTES ? 1 : -1];
/* What a frame reads per group: 160 or 128 bytes, groups back to back,
 * each a whole number of 16-byte rows, the same tail last in both. */
typedef char pb_lanes_hot_bytes[sizeof(pb_clip_lanes) == PB_CLIP_GROUP_SIZE(PB_CLIP_ROTATION) &&
                                        sizeof(pb_clip_vlanes) == PB_CLIP_GROUP_SIZE(PB_CLIP_VECTOR) &&
                                        offsetof(pb_clip_lanes, tail) == 32u * PB_CLIP_ROTATION &&
                                        offsetof(pb_clip_vlanes, tail) == 32u * PB_CLIP_VECTOR
                                    ? 1 : -1];

/* A group of k rows a key (PB_CLIP_ROTATION or PB_CLIP_VECTOR), seen as
 * bytes: row c of its near keys, of its far keys, and its tail; and group
 * i of an array of that kind. */
#define ROW_A(g, c) ((float *)(void *)(g) + 4u * (c))
#define ROW_B(g, k, c) ((float *)(void *)(g) + 4u * ((k) + (c)))
#define TAIL(g, k)                                                                   \
    ((k) == PB_CLIP_ROTATION ? &((pb_clip_lanes *)(void *)(g))->tail                   \
                             : &((pb_clip_vlanes *)(void *)(g))->tail)
#define GROUP_AT(groups, i, k) ((groups) + (size_t)(i) * PB_CLIP_GROUP_SIZE(k))

/* A bound track outside the lanes. */
typedef struct pb_clip_other {
    uint32_t track;
    int32_t bone, morph;
    uint32_t key;
} pb_clip_other;
typedef char pb_other_size_published[sizeof(pb_clip_other) == PLUMBOB_CLIP_SAMPLER_OTHER_BYTES ? 1 : -1];

/* A bound lane-kind track with one key or none: what the kernel gives for
 * it at every time (its weight is always +0), computed once at init by
 * the scalar reference; a frame copies it to the slot.  The values are
 * kept once each: a Sims 3 clip's constants repeat (identity rotations,
 * zero and shared translations: 122 constants hold 67 values in the
 * corpus's typical clip), and a frame out of the caches pays for every
 * line it reads.  The block: the rotations' references, the
 * translations', then the distinct rotation values (4 floats) and
 * translation values (3 floats).  Slots are below 32,768 (init checks),
 * so a value index fits too: a bone takes one constant of each kind. */
typedef struct pb_clip_constant {
    uint16_t slot, value;
} pb_clip_constant;
/* The most a constant takes, with a value of its own. */
typedef char pb_constant_size_published[sizeof(pb_clip_constant) + 4u * sizeof(float) ==
                                                PLUMBOB_CLIP_SAMPLER_CONSTANT_BYTES ? 1 : -1];
typedef char pb_constant3_size_published[sizeof(pb_clip_constant) + 3u * sizeof(float) ==
                                                 PLUMBOB_CLIP_SAMPLER_TRANSLATION_BYTES ? 1 : -1];
/* How many of the latest distinct values init compares a constant's with:
 * bounds init's time on a rig of thousands of bones. */
#define CONSTANT_WINDOW 256u
#define MAX_SLOT 32767 /* lane and constant slots are 16-bit */

#define GROUPS(n) (((n) + 3u) / 4u)
#define LANE_ALIGN 64u /* a cache line: the groups, back to back, span as few as they can */
#define TICK_UNSET INT32_MIN
#define NO_TRACK UINT32_MAX /* the track index of a padding lane */

/* A lane's output slot: the track's bone, or -1 when it is not in the rig
 * or is bound as a morph (the one-by-one list writes those). */
static int32_t lane_slot(const plumbob_clip_binding *b, uint32_t track) {
    return b->morph_of_track[track] >= 0 ? -1 : b->bone_of_track[track];
}

/* Does the one-by-one list take track i: bound, and not a lane-kind track,
 * or a lane-kind track bound as a morph. */
static int is_other(const plumbob_clip *clip, const plumbob_clip_binding *b, uint32_t i) {
    if (b->bone_of_track[i] < 0 && b->morph_of_track[i] < 0) return 0;
    return b->morph_of_track[i] >= 0 || !pb_clip_lane_kind(&clip->tracks[i]);
}

/* The lane kind of track i when it is a constant the sampler writes: a
 * lane-kind track with one key or none, bound to a bone; else 0. */
static uint32_t constant_kind(const plumbob_clip *clip, const plumbob_clip_binding *b, uint32_t i) {
    const plumbob_clip_track *t = &clip->tracks[i];
    return t->key_count < 2 && lane_slot(b, i) >= 0 ? pb_clip_lane_kind(t) : 0;
}

/* What a sampler holds, counted from the clip and binding: moving lanes
 * per kind, constants, one-by-one tracks, and the bound lane-kind tracks
 * (the entries of init's temporary slot sort). */
typedef struct sampler_counts {
    uint32_t lanes[2], constants[2], others, bound_lanes;
} sampler_counts;

static void count_sampler(const plumbob_clip_schedule *schedule, const plumbob_clip_binding *binding,
                          sampler_counts *n) {
    const plumbob_clip *clip = binding->clip;
    uint32_t i, kind;
    n->lanes[0] = n->lanes[1] = n->constants[0] = n->constants[1] = n->others = n->bound_lanes = 0;
    for (i = 0; i < clip->track_count; i++) {
        if ((kind = pb_clip_lane_moving(&clip->tracks[i])) != 0 && !schedule) n->lanes[PB_CLIP_STREAM(kind)]++;
        if ((kind = constant_kind(clip, binding, i)) != 0) n->constants[PB_CLIP_STREAM(kind)]++;
        n->others += (uint32_t)is_other(clip, binding, i);
        n->bound_lanes += pb_clip_lane_kind(&clip->tracks[i]) != 0 && lane_slot(binding, i) >= 0;
    }
    if (schedule) {
        n->lanes[0] = schedule->lane_count[0];
        n->lanes[1] = schedule->lane_count[1];
    }
}

/* A schedule and a binding made for the same clip (by identity), or no
 * schedule and a binding that names its clip.  A schedule's lane counts
 * must fit the clip's tracks (so group counts cannot wrap); init checks
 * each lane's track. */
static int usable(const plumbob_clip_schedule *schedule, const plumbob_clip_binding *binding) {
    if (!schedule) return binding && binding->clip && pb_clip_binding_of(binding, binding->clip);
    return schedule->clip && pb_clip_binding_of(binding, schedule->clip) &&
           schedule->lane_count[0] <= schedule->clip->track_count &&
           schedule->lane_count[1] <= schedule->clip->track_count - schedule->lane_count[0];
}

/* The arena bytes of what init keeps, and of its temporary slot sort
 * (sort keys and a bit per track), which init gives back. */
static int sampler_bytes(const plumbob_clip *clip, const sampler_counts *n, size_t *kept, size_t *total) {
    *kept = 0;
    if (!plumbob_size_add(kept, plumbob_arena_need(GROUPS(n->lanes[0]), PLUMBOB_CLIP_SAMPLER_GROUP_BYTES)) ||
        !plumbob_size_add(kept, plumbob_arena_need(GROUPS(n->lanes[1]), PLUMBOB_CLIP_SAMPLER_VECTOR_GROUP_BYTES)) ||
        !plumbob_size_add(kept, LANE_ALIGN) ||
        !plumbob_size_add(kept, plumbob_arena_need(n->constants[0], PLUMBOB_CLIP_SAMPLER_CONSTANT_BYTES)) ||
        !plumbob_size_add(kept, plumbob_arena_need(n->constants[1], PLUMBOB_CLIP_SAMPLER_TRANSLATION_BYTES)) ||
        !plumbob_size_add(kept, plumbob_arena_need(n->others, sizeof(pb_clip_other))))
        return 0;
    *total = *kept;
    return plumbob_size_add(total, plumbob_arena_need(n->bound_lanes, 2u * sizeof(uint32_t))) &&
           plumbob_size_add(total, plumbob_arena_need(clip->track_count / 32u + 1u, sizeof(uint32_t)));
}

size_t plumbob_clip_sampler_size(const plumbob_clip_schedule *schedule, const plumbob_clip_binding *binding) {
    sampler_counts n;
    size_t kept, total;
    if (!usable(schedule, binding)) return SIZE_MAX;
    count_sampler(schedule, binding, &n);
    return sampler_bytes(binding->clip, &n, &kept, &total) ? total : SIZE_MAX;
}

/* The lane state (the rotation groups, then the translation groups) and,
 * after the last group, each group's side: the one arena block of a
 * sampler. */
static unsigned char *vector_groups_of(unsigned char *lanes, uint32_t rotation_groups) {
    return GROUP_AT(lanes, rotation_groups, PB_CLIP_ROTATION);
}
static pb_lane_side *side_of(unsigned char *lanes, uint32_t rotation_groups, uint32_t vector_groups) {
    return (pb_lane_side *)(void *)GROUP_AT(vector_groups_of(lanes, rotation_groups), vector_groups, PB_CLIP_VECTOR);
}

/* +1, or -1 when lane l's b is stored negated (inv's sign bit). */
PB_FORCE_INLINE float b_sign(const pb_clip_tail *t, unsigned l) {
    return pb_f32_from_bits(0x3F800000u | (pb_bits_from_f32(t->inv[l]) & 0x80000000u));
}

/* Lane l of g enters span k, whose near key a is already dequantized: the
 * far key, its tick and the span's end as pb_clip_span_end sets them up. */
PB_FORCE_INLINE void enter_key(unsigned char *g, pb_lane_side *side, unsigned l, const pb_clip_lane_src *src,
                               uint32_t k, const float a[4], uint32_t components) {
    float b[4], inv;
    uint32_t c, negated = pb_clip_span_end(src, k, components, a, b, &inv);
    for (c = 0; c < components; c++) {
        ROW_A(g, c)[l] = a[c];
        ROW_B(g, components, c)[l] = b[c];
    }
    TAIL(g, components)->ta[l] = pb_clip_lane_tick(src, k, components);
    side->tb[l] = k + 1u < src->count ? pb_clip_lane_tick(src, k + 1u, components) : (uint16_t)PB_CLIP_SPAN_OPEN;
    TAIL(g, components)->inv[l] = pb_f32_from_bits(pb_bits_from_f32(inv) | negated << 31);
    side->key[l] = (uint16_t)k;
}

/* Lane l of g enters span k of its track, found by a search from its
 * current key (the same span the schedule's records would give). */
PB_FORCE_INLINE void seek_lane(unsigned char *g, pb_lane_side *side, unsigned l, const pb_clip_lane_src *src,
                               float t, uint32_t components) {
    plumbob_clip_track view; /* just what pb_clip_next_key reads */
    float a[4];
    uint32_t k;
    view.keys = src->keys;
    view.key_count = (uint16_t)src->count;
    view.key_size = (uint8_t)PB_CLIP_LANE_KEY_SIZE(components);
    k = pb_clip_next_key(&view, side->key[l], t);
    pb_clip_lane_key(src, k, components, a);
    enter_key(g, side, l, src, k, a, components);
}

/* Lane l of g, whose span ends at or before t, moves on: to the next span
 * when t is inside it, as a schedule record would move it (the old far key,
 * stored signed, times its sign is that key exactly; only the new far key
 * is dequantized), else by a search.  At the last key it stays. */
PB_FORCE_INLINE void advance_lane(unsigned char *g, pb_lane_side *side, unsigned l, const pb_clip_lane_src *src,
                                  float t, uint32_t components) {
    float a[4], was = b_sign(TAIL(g, components), l);
    uint32_t k = side->key[l] + 1u, c;
    if (k >= src->count) return;
    if (k + 1u < src->count && (float)pb_clip_lane_tick(src, k + 1u, components) <= t) {
        seek_lane(g, side, l, src, t, components); /* past the next span too */
        return;
    }
    for (c = 0; c < components; c++) a[c] = was * ROW_B(g, components, c)[l];
    enter_key(g, side, l, src, k, a, components);
}

/* Without a schedule: moves the lanes whose span does not hold t (forward
 * to or past its end, or a step back before its start); tick is t's whole
 * part (-1 below 0), so tick >= tb is t >= tb.  From tick 65535 on, lanes
 * at their last key (tb PB_CLIP_SPAN_OPEN, a real tick too) come here
 * every frame and advance_lane leaves them as they are.  back_too: t is
 * before the lanes' last time; played forward, no lane's span starts
 * after t but that of a lane at its first key, which a step back leaves
 * as it is, so the test is skipped (3-4% of a forward frame). */
PB_FORCE_INLINE void walk_groups(unsigned char *g, pb_lane_side *side, uint32_t count,
                                 const plumbob_clip_track *tracks, float t, int32_t tick, int back_too,
                                 uint32_t components) {
    uint32_t i;
    unsigned l;
    for (i = 0; i < count; i++, g = GROUP_AT(g, 1, components), side++) {
        const uint16_t *ta = TAIL(g, components)->ta;
        /* which lanes move, computed without a branch per lane: whether a
         * lane's span has ended is a coin toss per frame.  (Listing the
         * moving lanes first, so that only the list's end branches,
         * measured 1.2x slower: the predictor learns these branches.) */
        unsigned fwd = (unsigned)(tick >= side->tb[0]) | (unsigned)(tick >= side->tb[1]) << 1 |
                       (unsigned)(tick >= side->tb[2]) << 2 | (unsigned)(tick >= side->tb[3]) << 3;
        unsigned back = 0;
        if (back_too)
            back = (unsigned)(t < (float)ta[0]) | (unsigned)(t < (float)ta[1]) << 1 |
                   (unsigned)(t < (float)ta[2]) << 2 | (unsigned)(t < (float)ta[3]) << 3;
        if (!(fwd | back)) continue;
        for (l = 0; l < 4; l++) {
            pb_clip_lane_src src;
            if (!((fwd | back) >> l & 1u) || side->track[l] == NO_TRACK) continue;
            src = pb_clip_lane_src_of(&tracks[side->track[l]], components);
            if (fwd >> l & 1u) advance_lane(g, side, l, &src, t, components);
            else if (side->key[l] > 0) seek_lane(g, side, l, &src, t, components);
        }
    }
}

/* Re-seeks the lanes of `count` groups that hold keys: all of them
 * (every = 1), or those whose span starts after t (a step back; a lane at
 * its first key before that key's tick finds that key again). */
PB_FORCE_INLINE void seek_groups(unsigned char *g, pb_lane_side *side, uint32_t count,
                                 const plumbob_clip_track *tracks, float t, int every, uint32_t components) {
    uint32_t i;
    unsigned l;
    for (i = 0; i < count; i++, g = GROUP_AT(g, 1, components), side++)
        for (l = 0; l < 4; l++) {
            pb_clip_lane_src src;
            if (side->track[l] == NO_TRACK || !(every || t < (float)TAIL(g, components)->ta[l])) continue;
            src = pb_clip_lane_src_of(&tracks[side->track[l]], components); /* two keys or more */
            seek_lane(g, side, l, &src, t, components);
        }
}

/* Lane l of g enters the span a record of tag `tag` starts (its key
 * index, beside the group, is left: see pb_lane_side). */
PB_FORCE_INLINE void enter_span(pb_clip_tail *t, unsigned l, uint32_t tag, float inv) {
    t->ta[l] = (uint16_t)(tag >> 16);
    t->inv[l] = inv;
}

/* The lane a record names moves to its span: the old far key (stored
 * signed, so times its sign is the key itself, exactly) becomes the near
 * key, the record's key the far one; the record's inv carries the new
 * sign in its sign bit, as the lanes keep it. */
static void enter_rotation(unsigned char *lanes, const pb_clip_rot_record *e) {
    unsigned char *g = GROUP_AT(lanes, (e->tag & 0xFFFFu) >> 2, PB_CLIP_ROTATION);
    unsigned l = e->tag & 3u;
    float was = b_sign(TAIL(g, PB_CLIP_ROTATION), l);
    ROW_A(g, 0)[l] = was * ROW_B(g, PB_CLIP_ROTATION, 0)[l];
    ROW_A(g, 1)[l] = was * ROW_B(g, PB_CLIP_ROTATION, 1)[l];
    ROW_A(g, 2)[l] = was * ROW_B(g, PB_CLIP_ROTATION, 2)[l];
    ROW_A(g, 3)[l] = was * ROW_B(g, PB_CLIP_ROTATION, 3)[l];
    ROW_B(g, PB_CLIP_ROTATION, 0)[l] = e->b[0];
    ROW_B(g, PB_CLIP_ROTATION, 1)[l] = e->b[1];
    ROW_B(g, PB_CLIP_ROTATION, 2)[l] = e->b[2];
    ROW_B(g, PB_CLIP_ROTATION, 3)[l] = e->b[3];
    enter_span(TAIL(g, PB_CLIP_ROTATION), l, e->tag, pb_f32_from_bits(e->inv_bits));
}

static void enter_vector(unsigned char *lanes, const pb_clip_vec_record *e) {
    unsigned char *g = GROUP_AT(lanes, (e->tag & 0xFFFFu) >> 2, PB_CLIP_VECTOR);
    unsigned l = e->tag & 3u;
    ROW_A(g, 0)[l] = ROW_B(g, PB_CLIP_VECTOR, 0)[l];
    ROW_A(g, 1)[l] = ROW_B(g, PB_CLIP_VECTOR, 1)[l];
    ROW_A(g, 2)[l] = ROW_B(g, PB_CLIP_VECTOR, 2)[l];
    ROW_B(g, PB_CLIP_VECTOR, 0)[l] = e->b[0];
    ROW_B(g, PB_CLIP_VECTOR, 1)[l] = e->b[1];
    ROW_B(g, PB_CLIP_VECTOR, 2)[l] = e->b[2];
    enter_span(TAIL(g, PB_CLIP_VECTOR), l, e->tag, e->inv);
}

/* Tag of record i of stream s. */
static uint32_t record_tag(const plumbob_clip_schedule *sc, uint32_t s, uint32_t i) {
    return s == 0 ? ((const pb_clip_rot_record *)sc->key_records[0])[i].tag
                  : ((const pb_clip_vec_record *)sc->key_records[1])[i].tag;
}

/* How many records of stream s have a tick <= tick: the stream position
 * that matches lanes holding the spans for that tick. */
static uint32_t stream_position(const plumbob_clip_schedule *sc, uint32_t s, int32_t tick) {
    uint32_t lo = 0, hi = sc->key_record_count[s];
    if (tick < 0) return 0;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2u;
        if (record_tag(sc, s, mid) >> 16 <= (uint32_t)tick) lo = mid + 1u;
        else hi = mid;
    }
    return lo;
}

/* Forward playback: applies stream s's records up to `tick`.  Returns 0,
 * leaving the lanes to a full seek, when more were due than re-seeking
 * every lane would cost. */
static int play_forward(plumbob_clip_sampler *s, unsigned char *lanes, uint32_t stream, int32_t tick) {
    const plumbob_clip_schedule *sc = s->schedule;
    uint32_t i = s->next_key_record[stream], count = sc->key_record_count[stream], end = count;
    uint32_t budget = 4u * sc->lane_count[stream] + 16u;
    if (end - i > budget) end = i + budget;
    if (stream == 0) {
        const pb_clip_rot_record *e = (const pb_clip_rot_record *)sc->key_records[0];
        for (; i < end && e[i].tag >> 16 <= (uint32_t)tick; i++) enter_rotation(lanes, &e[i]);
    } else {
        const pb_clip_vec_record *e = (const pb_clip_vec_record *)sc->key_records[1];
        for (; i < end && e[i].tag >> 16 <= (uint32_t)tick; i++) enter_vector(lanes, &e[i]);
    }
    s->next_key_record[stream] = i;
    return !(i < count && i == end && record_tag(sc, stream, i) >> 16 <= (uint32_t)tick);
}

/* Moves one kind's lanes (`count` groups) from the sampler's tick to t
 * (ticks; tick is its whole part, -1 before 0): the stream forward, a
 * search for the lanes a step back leaves, a search for all after a far
 * jump or on first use. */
static void move_lanes(plumbob_clip_sampler *s, unsigned char *g, pb_lane_side *side, uint32_t count,
                       uint32_t components, float t, int32_t tick) {
    const plumbob_clip_track *tracks = s->clip->tracks;
    uint32_t stream = PB_CLIP_STREAM(components);
    int every = s->tick == TICK_UNSET;
    if (tick == s->tick) return; /* the same spans */
    if (!s->schedule) { /* the lanes walk the keys themselves */
        if (components == PB_CLIP_ROTATION) {
            if (every) seek_groups(g, side, count, tracks, t, 1, PB_CLIP_ROTATION);
            else if (tick > s->tick) walk_groups(g, side, count, tracks, t, tick, 0, PB_CLIP_ROTATION);
            else walk_groups(g, side, count, tracks, t, tick, 1, PB_CLIP_ROTATION);
        } else {
            if (every) seek_groups(g, side, count, tracks, t, 1, PB_CLIP_VECTOR);
            else if (tick > s->tick) walk_groups(g, side, count, tracks, t, tick, 0, PB_CLIP_VECTOR);
            else walk_groups(g, side, count, tracks, t, tick, 1, PB_CLIP_VECTOR);
        }
        return;
    }
    if (!every && tick > s->tick) {
        if (play_forward(s, g, stream, tick)) return;
        every = 1;
    }
    if (components == PB_CLIP_ROTATION) seek_groups(g, side, count, tracks, t, every, PB_CLIP_ROTATION);
    else seek_groups(g, side, count, tracks, t, every, PB_CLIP_VECTOR);
    s->next_key_record[stream] = stream_position(s->schedule, stream, tick);
}

/* A group of one kind whose four lanes hold the identity, unbound, and
 * its side: padding. */
static void init_group(unsigned char *g, pb_lane_side *side, uint32_t components) {
    unsigned l, c;
    for (l = 0; l < 4; l++) {
        for (c = 0; c < components; c++)
            ROW_A(g, c)[l] = ROW_B(g, components, c)[l] = c == 3 ? 1.0f : 0.0f;
        TAIL(g, components)->ta[l] = 0;
        TAIL(g, components)->inv[l] = 0.0f;
        TAIL(g, components)->slot[l] = -1;
        side->track[l] = NO_TRACK;
        side->key[l] = 0;
        side->tb[l] = PB_CLIP_SPAN_OPEN;
    }
}

/* Sets bit i of `shadowed` (a bit per track) for each bound lane-kind
 * track i that a later track of its kind overwrites (the same slot): such
 * a constant is left out, because constants are written after the lanes
 * and would otherwise win over a later lane.  The pairs {slot and kind,
 * track} sort by slot, kind, then track; O(n log n) whatever the clip. */
static void mark_shadowed(const plumbob_clip *clip, const plumbob_clip_binding *b, uint32_t *pairs,
                          uint32_t *shadowed) {
    uint32_t i, n = 0;
    for (i = 0; i < clip->track_count / 32u + 1u; i++) shadowed[i] = 0;
    for (i = 0; i < clip->track_count; i++) {
        uint32_t kind = pb_clip_lane_kind(&clip->tracks[i]);
        int32_t slot = lane_slot(b, i);
        if (!kind || slot < 0) continue;
        pairs[2u * n] = (uint32_t)slot << 1 | PB_CLIP_STREAM(kind); /* slot <= INT32_MAX: fits */
        pairs[2u * n + 1u] = i;
        n++;
    }
    pb_sort_pairs(pairs, n);
    for (i = 0; i + 1u < n; i++) {
        uint32_t t = pairs[2u * i + 1u];
        if (pairs[2u * i] == pairs[2u * i + 2u]) shadowed[t / 32u] |= 1u << (t % 32u);
    }
}

/* A constant's value: the scalar reference kernel on a lane holding the
 * track (its one key; keyless, the offset for a translation or
 * init_group's identity for a rotation), as a lane would give it at any
 * time (weight +0). */
static void constant_value(const plumbob_clip_track *t, uint32_t kind, float v[4]) {
    pb_clip_lanes group; /* room for a group of either kind */
    unsigned char *g = (unsigned char *)&group;
    pb_lane_side side;
    float out[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    unsigned c;
    init_group(g, &side, kind);
    TAIL(g, kind)->slot[0] = 0;
    if (t->key_count == 0 && kind == PB_CLIP_VECTOR) {
        for (c = 0; c < 3; c++) ROW_A(g, c)[0] = ROW_B(g, kind, c)[0] = t->offset;
    } else if (t->key_count == 1) {
        pb_clip_lane_src src = pb_clip_lane_src_of(t, kind);
        float a[4];
        pb_clip_lane_key(&src, 0, kind, a);
        enter_key(g, &side, 0, &src, 0, a, kind);
    }
    pb_clip_lanes_scalar(g, 1, kind, (float)TAIL(g, kind)->ta[0], out, 0);
    for (c = 0; c < 4; c++) v[c] = out[c];
}

/* The index of v (comps floats) among the *unique values kept so far,
 * compared bit for bit (so -0 and +0, or two NaNs, stay apart) with the
 * latest CONSTANT_WINDOW of them; appended when none matches. */
static uint32_t value_index(float *values, uint32_t *unique, uint32_t comps, const float v[4]) {
    uint32_t j = *unique, stop = j > CONSTANT_WINDOW ? j - CONSTANT_WINDOW : 0u, c;
    while (j-- > stop) {
        for (c = 0; c < comps && pb_bits_from_f32(values[comps * j + c]) == pb_bits_from_f32(v[c]); c++) {}
        if (c == comps) return j;
    }
    for (c = 0; c < comps; c++) values[comps * *unique + c] = v[c];
    return (*unique)++;
}

plumbob_result plumbob_clip_sampler_init(const plumbob_clip_schedule *schedule,
                                         const plumbob_clip_binding *binding, uint32_t flags,
                                         plumbob_arena *arena, plumbob_clip_sampler *s) {
    const plumbob_clip *clip;
    sampler_counts n;
    uint32_t groups[2], seen[2] = {0, 0}, filled[2] = {0, 0}, i, k, no = 0, *shadowed;
    pb_lane_side *side;
    unsigned char *lanes;
    pb_clip_constant *constants;
    float *values[2];
    uint32_t kept_count[2] = {0, 0}, unique[2] = {0, 0};
    pb_clip_other *others;
    uint32_t *pairs;
    size_t mark, temp, kept, total;
    if (!usable(schedule, binding) || !arena || !s || (flags & ~PLUMBOB_CLIP_SAMPLER_REFERENCE))
        return PLUMBOB_ERR_INVALID_ARGUMENT;
    clip = binding->clip;
    count_sampler(schedule, binding, &n);
    if (!sampler_bytes(clip, &n, &kept, &total)) return PLUMBOB_ERR_OUT_OF_MEMORY;
    mark = plumbob_arena_mark(arena);
    groups[0] = GROUPS(n.lanes[0]);
    groups[1] = GROUPS(n.lanes[1]);
    /* one block, its size within what sampler_bytes counted for it */
    lanes = (unsigned char *)plumbob_arena_alloc_array(arena, 1,
                                                       (size_t)groups[0] * PLUMBOB_CLIP_SAMPLER_GROUP_BYTES +
                                                           (size_t)groups[1] * PLUMBOB_CLIP_SAMPLER_VECTOR_GROUP_BYTES,
                                                       LANE_ALIGN);
    /* one block: the rotations' constants, then the translations' (the
     * sizes fit: sampler_bytes counted each) */
    constants = (pb_clip_constant *)plumbob_arena_alloc_array(
        arena, 1, PLUMBOB_CLIP_SAMPLER_CONSTANT_BYTES * n.constants[0] + PLUMBOB_CLIP_SAMPLER_TRANSLATION_BYTES * n.constants[1], 0);
    others = (pb_clip_other *)plumbob_arena_alloc_array(arena, n.others, sizeof(pb_clip_other), 0);
    temp = plumbob_arena_mark(arena);
    pairs = (uint32_t *)plumbob_arena_alloc_array(arena, n.bound_lanes, 2u * sizeof(uint32_t), 0);
    shadowed = (uint32_t *)plumbob_arena_alloc_array(arena, clip->track_count / 32u + 1u, sizeof(uint32_t), 0);
    if (!lanes || !constants || !others || !pairs || !shadowed) {
        plumbob_arena_reset(arena, mark);
        return PLUMBOB_ERR_OUT_OF_MEMORY;
    }
    side = side_of(lanes, groups[0], groups[1]);
    for (i = 0; i < groups[0]; i++) init_group(GROUP_AT(lanes, i, PB_CLIP_ROTATION), &side[i], PB_CLIP_ROTATION);
    for (i = 0; i < groups[1]; i++)
        init_group(GROUP_AT(vector_groups_of(lanes, groups[0]), i, PB_CLIP_VECTOR), &side[groups[0] + i], PB_CLIP_VECTOR);
    /* lane i of a kind takes that kind's i-th moving track, in track order
     * (the schedule lists them the same way) */
    for (i = 0; i < clip->track_count; i++) {
        uint32_t kind = pb_clip_lane_moving(&clip->tracks[i]), st, m;
        int32_t slot;
        if (!kind) continue;
        st = PB_CLIP_STREAM(kind);
        m = seen[st]++;
        if (schedule && (m >= schedule->lane_count[st] || schedule->lane_track[st][m] != i)) break;
        if ((slot = lane_slot(binding, i)) > MAX_SLOT) {
            plumbob_arena_reset(arena, mark);
            return PLUMBOB_ERR_UNSUPPORTED;
        }
        /* it seeks on first use */
        TAIL(GROUP_AT(st ? vector_groups_of(lanes, groups[0]) : lanes, m / 4u, kind), kind)->slot[m % 4u] = (int16_t)slot;
        side[(st ? groups[0] : 0) + m / 4u].track[m % 4u] = i;
    }
    if (i < clip->track_count || (schedule && (seen[0] != schedule->lane_count[0] ||
                                               seen[1] != schedule->lane_count[1]))) {
        plumbob_arena_reset(arena, mark); /* a schedule not made by plumbob_clip_schedule_build */
        return PLUMBOB_ERR_INVALID_ARGUMENT;
    }
    /* constants: rotations, then translations, each in track order
     * (shadowed ones are left out); the references, then the values */
    mark_shadowed(clip, binding, pairs, shadowed);
    for (i = 0; i < clip->track_count; i++) {
        uint32_t kind = constant_kind(clip, binding, i);
        if (!kind || (shadowed[i / 32u] >> (i % 32u) & 1u)) continue;
        if (lane_slot(binding, i) > MAX_SLOT) {
            plumbob_arena_reset(arena, mark);
            return PLUMBOB_ERR_UNSUPPORTED;
        }
        kept_count[PB_CLIP_STREAM(kind)]++;
    }
    values[0] = (float *)(void *)(constants + kept_count[0] + kept_count[1]);
    for (k = 0; k < 2; k++) {
        uint32_t comps = k == 0 ? 4u : 3u;
        pb_clip_constant *ref = constants + (k == 0 ? 0u : kept_count[0]);
        if (k == 1) values[1] = values[0] + 4u * unique[0];
        for (i = 0; i < clip->track_count; i++) {
            uint32_t kind = constant_kind(clip, binding, i);
            float v[4];
            if (!kind || PB_CLIP_STREAM(kind) != k || (shadowed[i / 32u] >> (i % 32u) & 1u)) continue;
            constant_value(&clip->tracks[i], kind, v);
            ref[filled[k]].slot = (uint16_t)lane_slot(binding, i);
            ref[filled[k]].value = (uint16_t)value_index(values[k], &unique[k], comps, v);
            filled[k]++;
        }
    }
    plumbob_arena_reset(arena, temp); /* the slot sort was temporary */
    for (i = 0; i < clip->track_count; i++) {
        if (!is_other(clip, binding, i)) continue;
        others[no].track = i;
        others[no].bone = binding->bone_of_track[i];
        others[no].morph = binding->morph_of_track[i];
        others[no].key = 0;
        no++;
    }
    s->clip = clip;
    s->schedule = schedule;
    s->lanes = lanes;
    s->rotation_groups = groups[0];
    s->vector_groups = groups[1];
    s->constants = constants;
    s->constant_count[0] = filled[0];
    s->constant_count[1] = filled[1];
    s->constant_value_count[0] = unique[0];
    s->constant_value_count[1] = unique[1];
    s->others = others;
    s->other_count = n.others;
    s->flags = flags;
    s->next_key_record[0] = s->next_key_record[1] = 0;
    s->tick = TICK_UNSET;
    /* the output sizes: the lists bound to, and never below a slot the binding uses */
    s->bone_count = binding->bone_count;
    s->morph_count = binding->morph_count;
    for (i = 0; i < binding->track_count; i++) {
        if (binding->bone_of_track[i] >= 0 && (uint32_t)binding->bone_of_track[i] >= s->bone_count)
            s->bone_count = (uint32_t)binding->bone_of_track[i] + 1u;
        if (binding->morph_of_track[i] >= 0 && (uint32_t)binding->morph_of_track[i] >= s->morph_count)
            s->morph_count = (uint32_t)binding->morph_of_track[i] + 1u;
    }
    return PLUMBOB_OK;
}

/* Copy n constants' values to their slots: 4 floats per rotation, 3 per
 * translation (the pose's scale follows it).  Two loops, each with its
 * stores spelled out: one loop over the count of floats, even inlined with
 * that count a constant, measured 1.7x the whole frame's time forward. */
static void write_rotations(const pb_clip_constant *k, uint32_t n, const float *values, float *out, size_t stride) {
    uint32_t i;
    for (i = 0; i < n; i++) {
        float *o = out + stride * (size_t)k[i].slot;
        const float *v = values + 4u * (size_t)k[i].value;
        o[0] = v[0];
        o[1] = v[1];
        o[2] = v[2];
        o[3] = v[3];
    }
}

static void write_translations(const pb_clip_constant *k, uint32_t n, const float *values, float *out,
                               size_t stride) {
    uint32_t i;
    for (i = 0; i < n; i++) {
        float *o = out + stride * (size_t)k[i].slot;
        const float *v = values + 3u * (size_t)k[i].value;
        o[0] = v[0];
        o[1] = v[1];
        o[2] = v[2];
    }
}

/* Starts the loads of the records a frame will enter: those of the ticks
 * since the last frame at the clip's average rate and a quarter more (two
 * lines at least), from each stream's position; the hardware prefetcher
 * follows past them.  Force-inlined: gcc takes a function that only
 * prefetches for one without effects and deletes its calls. */
PB_FORCE_INLINE void prefetch_records(const plumbob_clip_sampler *s, int32_t tick) {
    const plumbob_clip_schedule *sc = s->schedule;
    uint32_t k;
    for (k = 0; k < 2; k++) {
        const unsigned char *e = (const unsigned char *)sc->key_records[k], *stop;
        size_t size = k == 0 ? sizeof(pb_clip_rot_record) : sizeof(pb_clip_vec_record), bytes = 128u;
        uint32_t left = s->next_key_record[k] < sc->key_record_count[k] ? sc->key_record_count[k] - s->next_key_record[k] : 0u;
        if (!e || !left) continue;
        if (s->tick != TICK_UNSET && tick > s->tick)
            bytes += (size_t)((uint64_t)sc->key_record_count[k] * (uint32_t)(tick - s->tick) /
                              (s->clip->tick_count ? s->clip->tick_count : 1u) * 5u / 4u) * size;
        e += size * s->next_key_record[k];
        stop = e + (size * left < bytes ? size * left : bytes);
        for (; e < stop; e += 64) PB_PREFETCH(e, 0);
    }
}

/* Starts the loads of what a frame reads: the records first (entering
 * them is the frame's first work), then every lane group and the
 * constants.  A frame whose sampler has left the caches (a crowd, each
 * character its own clip) then waits for those misses together, where
 * entering records into groups in playback order met them one dependent
 * chain at a time.  ACL's cold-cache method measured 0.78-0.84x ACL's time
 * without any prefetch, 0.62-0.65x with the groups and constants, and
 * 0.56-0.59x with the records prefetched first.  A warm frame pays a loop
 * of one hint per 64 bytes: 4-15% of its time.  Force-inlined, like
 * prefetch_records: a build where gcc had dropped it measured 30% slower
 * cold.  Past the prefetches a cold frame costs the lines it reads (each
 * about 10 ns here, misses overlapping), hence the groups' and the
 * constants' compact layouts. */
PB_FORCE_INLINE void prefetch_frame(const plumbob_clip_sampler *s, unsigned char *lanes, int32_t tick) {
    const unsigned char *p = lanes;
    const unsigned char *end = (const unsigned char *)side_of(lanes, s->rotation_groups, s->vector_groups);
    if (s->schedule) prefetch_records(s, tick);
    for (; p < end; p += 64) PB_PREFETCH(p, 1); /* the first group is 64-byte aligned */
    p = (const unsigned char *)s->constants;
    end = p + sizeof(pb_clip_constant) * (s->constant_count[0] + s->constant_count[1]) +
          sizeof(float) * (4u * s->constant_value_count[0] + 3u * s->constant_value_count[1]);
    if (p < end) {
        for (; end - p > 64; p += 64) PB_PREFETCH(p, 0);
        PB_PREFETCH(end - 1, 0); /* the last line, which an unaligned start would miss */
    }
}

plumbob_result plumbob_clip_sampler_sample(plumbob_clip_sampler *s, float seconds, plumbob_bone_pose *poses,
                                           uint32_t pose_count, float *morph_weights, uint32_t morph_count) {
    const plumbob_clip *clip;
    unsigned char *lanes, *vlanes;
    const pb_clip_constant *constants;
    const float *vals;
    pb_clip_other *others;
    float ticks, v[4];
    uint32_t i;
    if (!s || !s->clip || (s->schedule && s->schedule->clip != s->clip) || !s->lanes || !s->constants ||
        !s->others)
        return PLUMBOB_ERR_INVALID_ARGUMENT;
    if ((poses && pose_count < s->bone_count) || (morph_weights && morph_count < s->morph_count))
        return PLUMBOB_ERR_OUTPUT_TOO_SMALL;
    clip = s->clip;
    lanes = (unsigned char *)s->lanes;
    vlanes = vector_groups_of(lanes, s->rotation_groups);
    others = (pb_clip_other *)s->others;
    /* ticks fit in 16 bits: clamping keeps the lanes' arithmetic finite */
    ticks = pb_clip_ticks(clip, seconds);
    ticks = ticks < -1.0f ? -1.0f : ticks > 70000.0f ? 70000.0f : ticks;
    if (poses) {
        float *rotation = &poses[0].rotation.x, *translation = &poses[0].translation.x;
        size_t stride = sizeof(plumbob_bone_pose) / sizeof(float);
        int32_t tick = ticks < 0.0f ? -1 : (int32_t)ticks; /* truncation is the floor here */
        pb_lane_side *side = side_of(lanes, s->rotation_groups, s->vector_groups);
        prefetch_frame(s, lanes, tick);
        move_lanes(s, lanes, side, s->rotation_groups, PB_CLIP_ROTATION, ticks, tick);
        move_lanes(s, vlanes, side + s->rotation_groups, s->vector_groups,
                   PB_CLIP_VECTOR, ticks, tick);
        s->tick = tick;
        if (s->flags & PLUMBOB_CLIP_SAMPLER_REFERENCE) {
            pb_clip_lanes_scalar(lanes, s->rotation_groups, PB_CLIP_ROTATION, ticks, rotation, stride);
            pb_clip_lanes_scalar(vlanes, s->vector_groups, PB_CLIP_VECTOR, ticks, translation,
                                 stride);
        } else {
            PB_CLIP_LANES(lanes, s->rotation_groups, PB_CLIP_ROTATION, ticks, rotation, stride);
            PB_CLIP_LANES(vlanes, s->vector_groups, PB_CLIP_VECTOR, ticks, translation, stride);
        }
        constants = (const pb_clip_constant *)s->constants;
        vals = (const float *)(const void *)(constants + s->constant_count[0] + s->constant_count[1]);
        write_rotations(constants, s->constant_count[0], vals, rotation, stride);
        write_translations(constants + s->constant_count[0], s->constant_count[1], vals + 4u * s->constant_value_count[0],
                           translation, stride);
    }
    for (i = 0; i < s->other_count; i++) {
        pb_clip_other *o = &others[i];
        const plumbob_clip_track *t = &clip->tracks[o->track];
        if ((o->bone < 0 || !poses) && (o->morph < 0 || !morph_weights)) continue;
        o->key = pb_clip_next_key(t, o->key, ticks);
        pb_clip_sample_at(clip, t, o->key, ticks, v);
        pb_clip_store(t, o->bone, o->morph, v, poses, morph_weights);
    }
    return PLUMBOB_OK;
}

static void mark_bone(uint32_t *mask, int32_t bone) {
    if (bone >= 0) mask[(uint32_t)bone / 32u] |= 1u << ((uint32_t)bone % 32u);
}

plumbob_result plumbob_clip_sampler_driven_mask(const plumbob_clip_sampler *s, uint32_t *mask,
                                                uint32_t word_count) {
    unsigned char *lanes;
    const pb_clip_constant *constants;
    const pb_clip_other *others;
    uint32_t i, l;
    if (!s || !mask || !s->clip || !s->lanes || !s->constants || !s->others)
        return PLUMBOB_ERR_INVALID_ARGUMENT;
    if (word_count < s->bone_count / 32u + (s->bone_count % 32u != 0)) return PLUMBOB_ERR_OUTPUT_TOO_SMALL;
    for (i = 0; i < word_count; i++) mask[i] = 0;
    lanes = (unsigned char *)s->lanes;
    for (i = 0; i < s->rotation_groups; i++)
        for (l = 0; l < 4u; l++) mark_bone(mask, TAIL(GROUP_AT(lanes, i, PB_CLIP_ROTATION), PB_CLIP_ROTATION)->slot[l]);
    for (i = 0; i < s->vector_groups; i++)
        for (l = 0; l < 4u; l++)
            mark_bone(mask, TAIL(GROUP_AT(vector_groups_of(lanes, s->rotation_groups), i, PB_CLIP_VECTOR),
                                 PB_CLIP_VECTOR)->slot[l]);
    constants = (const pb_clip_constant *)s->constants;
    for (i = 0; i < s->constant_count[0] + s->constant_count[1]; i++) mark_bone(mask, (int32_t)constants[i].slot);
    others = (const pb_clip_other *)s->others;
    for (i = 0; i < s->other_count; i++) mark_bone(mask, others[i].bone);
    return PLUMBOB_OK;
}
