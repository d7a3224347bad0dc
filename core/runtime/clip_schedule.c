/* The CLIP schedule: every moving lane track's spans, dequantized once and sorted
 * by the tick at which forward playback enters them, so a sampler moves
 * its key pairs by reading one stream front to back (ozz-animation sorts
 * its keys the same way).  Built by a counting sort on the tick: one pass
 * counts records per tick, a second writes each where its tick's run
 * starts; within a tick records stay in lane order. */
#include "plumbob/runtime.h"
#include "pb_clip_lanes.h"

/* What one clip's lanes need, kind by kind.  Counts fit 32 bits: at most
 * 65,536 tracks of at most 65,535 keys. */
typedef struct schedule_counts {
    uint32_t lanes[2], key_records[2];
    uint32_t last_tick;           /* the largest tick a record can have */
} schedule_counts;

static void count_lanes(const plumbob_clip *clip, schedule_counts *n) {
    uint32_t i;
    n->lanes[0] = n->lanes[1] = n->key_records[0] = n->key_records[1] = n->last_tick = 0;
    for (i = 0; i < clip->track_count; i++) {
        const plumbob_clip_track *t = &clip->tracks[i];
        uint32_t kind = pb_clip_lane_moving(t), s;
        if (!kind) continue;
        s = PB_CLIP_STREAM(kind);
        n->lanes[s]++;
        n->key_records[s] += t->key_count - 1u;
        {
            pb_clip_lane_src src = pb_clip_lane_src_of(t, kind);
            uint16_t last = pb_clip_lane_tick(&src, t->key_count - 1u, kind);
            if (last > n->last_tick) n->last_tick = last;
        }
    }
}

/* The header's PLUMBOB_CLIP_SCHEDULE_SIZE counts records at these sizes. */
typedef char pb_records_published[sizeof(pb_clip_rot_record) <= 24u && sizeof(pb_clip_vec_record) <= 24u ? 1 : -1];

size_t plumbob_clip_schedule_size(const plumbob_clip *clip) {
    schedule_counts n;
    size_t total = 0;
    if (!clip) return SIZE_MAX;
    count_lanes(clip, &n);
    if (!plumbob_size_add(&total, plumbob_arena_need(n.lanes[0], sizeof(uint32_t))) ||
        !plumbob_size_add(&total, plumbob_arena_need(n.lanes[1], sizeof(uint32_t))) ||
        !plumbob_size_add(&total, plumbob_arena_need(n.key_records[0], sizeof(pb_clip_rot_record))) ||
        !plumbob_size_add(&total, plumbob_arena_need(n.key_records[1], sizeof(pb_clip_vec_record))) ||
        !plumbob_size_add(&total, plumbob_arena_need((size_t)n.last_tick + 1u, sizeof(uint32_t))))
        return SIZE_MAX;
    return total;
}

/* Writes lane `lane`'s records of one kind where `start` (the next free
 * record of each tick) says. */
PB_FORCE_INLINE void write_lane(const plumbob_clip_track *t, uint32_t lane, uint32_t components, void *key_records,
                                uint32_t *start) {
    pb_clip_lane_src src = pb_clip_lane_src_of(t, components);
    float a[4], b[4], inv;
    uint32_t k, c, negated;
    pb_clip_lane_key(&src, 1u, components, a); /* span 1's near end */
    for (k = 1; k < src.count; k++) {
        uint16_t tick = pb_clip_lane_tick(&src, k, components);
        uint32_t at = start[tick]++;
        negated = pb_clip_span_end(&src, k, components, a, b, &inv);
        if (components == PB_CLIP_ROTATION) {
            pb_clip_rot_record *e = (pb_clip_rot_record *)key_records + at;
            e->tag = PB_CLIP_TAG(tick, lane);
            e->inv_bits = pb_bits_from_f32(inv) | negated << 31;
            for (c = 0; c < 4; c++) e->b[c] = b[c];
        } else {
            pb_clip_vec_record *e = (pb_clip_vec_record *)key_records + at;
            e->tag = PB_CLIP_TAG(tick, lane);
            e->inv = inv;
            for (c = 0; c < 3; c++) e->b[c] = b[c];
        }
        /* the next span's near end is this one's far key, un-negated */
        for (c = 0; c < components; c++) a[c] = negated ? -b[c] : b[c];
    }
}

/* Sorts one kind's key records into key_records (start: one counter per tick). */
static void build_stream(const plumbob_clip *clip, const uint32_t *lane_track, uint32_t lanes,
                         uint32_t components, void *key_records, uint32_t *start, uint32_t ticks) {
    uint32_t i, k, sum = 0;
    for (i = 0; i < ticks; i++) start[i] = 0;
    for (i = 0; i < lanes; i++) {
        const plumbob_clip_track *t = &clip->tracks[lane_track[i]];
        pb_clip_lane_src src = pb_clip_lane_src_of(t, components);
        for (k = 1; k < src.count; k++) start[pb_clip_lane_tick(&src, k, components)]++;
    }
    for (i = 0; i < ticks; i++) { /* counts to run starts */
        uint32_t n = start[i];
        start[i] = sum;
        sum += n;
    }
    for (i = 0; i < lanes; i++) {
        const plumbob_clip_track *t = &clip->tracks[lane_track[i]];
        if (components == PB_CLIP_ROTATION) write_lane(t, i, PB_CLIP_ROTATION, key_records, start);
        else write_lane(t, i, PB_CLIP_VECTOR, key_records, start);
    }
}

plumbob_result plumbob_clip_schedule_build(const plumbob_clip *clip, plumbob_arena *arena,
                                           plumbob_clip_schedule *schedule) {
    schedule_counts n;
    uint32_t *lane_track[2], *start, i, s, filled[2] = {0, 0};
    void *key_records[2];
    size_t mark, first;
    if (!clip || !arena || !schedule) return PLUMBOB_ERR_INVALID_ARGUMENT;
    first = plumbob_arena_mark(arena);
    count_lanes(clip, &n);
    lane_track[0] = (uint32_t *)plumbob_arena_alloc_array(arena, n.lanes[0], sizeof(uint32_t), 0);
    lane_track[1] = (uint32_t *)plumbob_arena_alloc_array(arena, n.lanes[1], sizeof(uint32_t), 0);
    key_records[0] = plumbob_arena_alloc_array(arena, n.key_records[0], sizeof(pb_clip_rot_record), 0);
    key_records[1] = plumbob_arena_alloc_array(arena, n.key_records[1], sizeof(pb_clip_vec_record), 0);
    mark = plumbob_arena_mark(arena);
    start = (uint32_t *)plumbob_arena_alloc_array(arena, (size_t)n.last_tick + 1u, sizeof(uint32_t), 0);
    if (!lane_track[0] || !lane_track[1] || !key_records[0] || !key_records[1] || !start) {
        plumbob_arena_reset(arena, first);
        return PLUMBOB_ERR_OUT_OF_MEMORY;
    }
    for (i = 0; i < clip->track_count; i++) {
        uint32_t kind = pb_clip_lane_moving(&clip->tracks[i]);
        if (kind) {
            s = PB_CLIP_STREAM(kind);
            lane_track[s][filled[s]++] = i;
        }
    }
    build_stream(clip, lane_track[0], n.lanes[0], PB_CLIP_ROTATION, key_records[0], start, n.last_tick + 1u);
    build_stream(clip, lane_track[1], n.lanes[1], PB_CLIP_VECTOR, key_records[1], start, n.last_tick + 1u);
    plumbob_arena_reset(arena, mark); /* the tick table was temporary */
    schedule->clip = clip;
    for (s = 0; s < 2; s++) {
        schedule->lane_track[s] = lane_track[s];
        schedule->lane_count[s] = n.lanes[s];
        schedule->key_records[s] = key_records[s];
        schedule->key_record_count[s] = n.key_records[s];
    }
    return PLUMBOB_OK;
}
