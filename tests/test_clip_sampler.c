/* The CLIP sampler (plumbob_clip_sampler_*): the port's lane kernel against
 * the scalar reference (same bits), and both against plumbob_clip_sample_pose
 * (rotations within 2e-6, vectors within 1e-5 relative), over forward,
 * backward and random playback of random clips (uneven and repeated ticks,
 * sign flips, partial lane groups, morphs and keyless tracks beside the
 * lanes) and of every corpus clip; sizes and errors. */
#include <stdlib.h>
#include <string.h>
#include "test.h"
#include "pb_clip_lanes.h" /* the schedule's record layout */

#define MAX_TRACKS 64
#define MAX_RIG 40

/* Outputs of one sampling path. */
typedef struct pose_out {
    plumbob_bone_pose poses[MAX_RIG];
    float morphs[8];
} pose_out;

static void fill(pose_out *o) {
    uint32_t i;
    memset(o, 0, sizeof *o);
    for (i = 0; i < MAX_RIG; i++) o->poses[i].scale.x = o->poses[i].translation.z = 42.0f;
    for (i = 0; i < 8; i++) o->morphs[i] = -3.0f;
}

static double rel_err(float got, float want) {
    double d = (double)got - (double)want, m = want < 0 ? -(double)want : (double)want;
    if (d < 0) d = -d;
    return m > 1.0 ? d / m : d;
}

/* The sampler's two kernels against each other and against the pose path. */
typedef struct sampler_check {
    const plumbob_clip *clip;
    plumbob_clip_binding binding;
    plumbob_clip_cursor cursor;
    plumbob_clip_schedule schedule;
    plumbob_clip_sampler port, reference;
    plumbob_clip_sampler direct; /* no schedule: walks the keys itself */
    uint32_t bones, morphs;
    uint32_t rotation_bone[MAX_RIG]; /* 1 when the bone's rotation is animated */
} sampler_check;

/* shared: a schedule to use instead of building one (NULL: build). */
static void setup(sampler_check *s, const plumbob_clip *clip, const uint32_t *bones, uint32_t nb,
                  const uint32_t *morphs, uint32_t nm, plumbob_arena *a, const plumbob_clip_schedule *shared) {
    size_t need, mark;
    uint32_t i;
    memset(s, 0, sizeof *s);
    s->clip = clip;
    s->bones = nb;
    s->morphs = nm;
    CHECK_OK(plumbob_clip_bind(clip, bones, nb, morphs, nm, a, &s->binding));
    CHECK_OK(plumbob_clip_cursor_init(clip, a, &s->cursor));
    need = plumbob_clip_schedule_size(clip);
    CHECK(need > 0 && need < SIZE_MAX);
    mark = plumbob_arena_mark(a);
    if (shared) s->schedule = *shared; /* the same streams */
    else CHECK_OK(plumbob_clip_schedule_build(clip, a, &s->schedule));
    CHECK(a->peak - mark <= need);
    need = plumbob_clip_sampler_size(&s->schedule, &s->binding);
    CHECK(need > 0 && need < SIZE_MAX);
    mark = plumbob_arena_mark(a);
    a->peak = mark; /* init's temporary sort counts too */
    CHECK_OK(plumbob_clip_sampler_init(&s->schedule, &s->binding, 0, a, &s->port));
    CHECK(plumbob_arena_mark(a) - mark <= need);
    CHECK(a->peak - mark <= need); /* the temporary sort within the answer too */
    mark = plumbob_arena_mark(a);
    CHECK_OK(plumbob_clip_sampler_init(&s->schedule, &s->binding, PLUMBOB_CLIP_SAMPLER_REFERENCE, a, &s->reference));
    CHECK(plumbob_arena_mark(a) - mark <= need);
    /* without a schedule: the same lanes, so the same size */
    CHECK_EQ(plumbob_clip_sampler_size(NULL, &s->binding), need);
    mark = plumbob_arena_mark(a);
    CHECK_OK(plumbob_clip_sampler_init(NULL, &s->binding, 0, a, &s->direct));
    CHECK(plumbob_arena_mark(a) - mark <= need);
    for (i = 0; i < clip->track_count; i++)
        if (s->binding.bone_of_track[i] >= 0 && clip->tracks[i].target == PLUMBOB_CLIP_TARGET_ROTATION)
            s->rotation_bone[s->binding.bone_of_track[i]] = 1;
}

/* Samples time `seconds` three ways and compares; returns the failures. */
static uint32_t compare_at(sampler_check *s, float seconds, int digest) {
    static pose_out want, port, ref, direct;
    uint32_t i, c, bad = 0;
    fill(&want);
    fill(&port);
    fill(&ref);
    fill(&direct);
    plumbob_clip_sample_pose(s->clip, &s->binding, &s->cursor, seconds, want.poses, want.morphs);
    plumbob_clip_sampler_sample(&s->port, seconds, port.poses, MAX_RIG, port.morphs, 8);
    plumbob_clip_sampler_sample(&s->reference, seconds, ref.poses, MAX_RIG, ref.morphs, 8);
    plumbob_clip_sampler_sample(&s->direct, seconds, direct.poses, MAX_RIG, direct.morphs, 8);
    /* the port's kernel gives the reference's bits; without a schedule, the same */
    if (memcmp(&port, &ref, sizeof port) != 0) bad++;
    if (memcmp(&port, &direct, sizeof port) != 0) bad++;
    for (i = 0; i < s->bones; i++) {
        const float *w = &want.poses[i].rotation.x, *g = &port.poses[i].rotation.x;
        for (c = 0; c < 10; c++) {
            double e = c < 4 ? (double)g[c] - (double)w[c] : rel_err(g[c], w[c]);
            if (e < 0) e = -e;
            if (!(e <= (c < 4 ? 2e-6 : 1e-5))) bad++;
            if (digest) t_digest_f32(g[c]);
        }
    }
    for (i = 0; i < s->morphs; i++)
        if (!(rel_err(port.morphs[i], want.morphs[i]) <= 1e-6)) bad++;
    return bad;
}

/* Forward at 60 Hz past the end, backward, then random jumps (with times
 * before the start, NaN and infinity). */
static uint32_t play(sampler_check *s, uint32_t seed) {
    float dur = plumbob_clip_duration(s->clip);
    uint32_t f, frames = (uint32_t)(dur * 60.0f) + 10u, bad = 0;
    for (f = 0; f < frames; f++) bad += compare_at(s, (float)f / 60.0f, f % 17 == 0);
    for (f = frames; f-- > 0;) bad += compare_at(s, (float)f / 60.0f, 0);
    for (f = 0; f < 200; f++) {
        float t = dur * ((float)(t_rand(&seed) % 2400u) / 2000.0f - 0.1f);
        if (f == 50) t = 0.0f / 0.0f;
        if (f == 51) t = 1.0f / 0.0f;
        if (f == 52) t = -1.0f / 0.0f;
        bad += compare_at(s, t, f % 29 == 0);
    }
    for (f = 0; f < frames; f += 7) bad += compare_at(s, (float)f / 24.0f, 0); /* another rate */
    return bad;
}

/* A random unit quaternion, stored as -q half the time. */
static void random_quat(uint32_t *seed, float *q) {
    float len2 = 0, inv = 1;
    uint32_t c;
    for (c = 0; c < 4; c++) {
        q[c] = (float)((int)(t_rand(seed) % 2001u) - 1000) / 1000.0f;
        len2 += q[c] * q[c];
    }
    if (len2 < 0.01f) q[3] = len2 = 1.0f;
    while (inv * inv * len2 > 1.0001f || inv * inv * len2 < 0.9999f) inv *= 1.5f - 0.5f * len2 * inv * inv;
    for (c = 0; c < 4; c++) q[c] *= inv;
}

/* Writes a clip of the n tracks tr (30 ticks a second, tick_count ticks)
 * with our writer; returns its length. */
static size_t write_tracks(plumbob_clip_track *tr, uint32_t n, uint16_t tick_count, unsigned char *out, size_t cap) {
    plumbob_clip c;
    size_t len = 0;
    memset(&c, 0, sizeof c);
    c.version = 2;
    c.frame_duration = 1.0f / 30.0f;
    c.tick_count = tick_count;
    c.name.ptr = c.source.ptr = c.actor.ptr = "t";
    c.name.len = c.source.len = c.actor.len = 1;
    c.track_count = n;
    c.tracks = tr;
    c.event_version = 0x103;
    CHECK_OK(plumbob_clip_write(&c, out, cap, &len));
    return len;
}

static unsigned char clip_keys[MAX_TRACKS][64 * 12];
static plumbob_clip_track clip_tracks[MAX_TRACKS];

/* A random clip of n tracks: mostly 12-bit rotations and 10-bit
 * translations (1..60 keys, gaps of 0..4 ticks), a few morph, palette-free
 * vector and keyless tracks; hashes repeat so bones get both kinds. */
static size_t random_clip(uint32_t seed, uint32_t n, unsigned char *out, size_t cap) {
    uint32_t i, k;
    uint16_t ticks[64], last = 0;
    float values[64 * 4];
    for (i = 0; i < n; i++) {
        uint32_t kind = t_rand(&seed) % 10u, count = 1u + t_rand(&seed) % 60u;
        uint8_t curve = kind < 5 ? 0x14 : kind < 8 ? 0x12 : kind == 8 ? 0x05 : 0x12;
        uint8_t target = kind < 5 ? 2 : kind == 8 ? 7 : 1;
        uint32_t comps = curve == 0x14 ? 4u : curve == 0x05 ? 1u : 3u;
        uint16_t tick = (uint16_t)(t_rand(&seed) % 5u);
        plumbob_clip_track *t = &clip_tracks[i];
        for (k = 0; k < count; k++) {
            ticks[k] = tick;
            tick = (uint16_t)(tick + t_rand(&seed) % 5u); /* 0: a repeated tick */
            if (comps == 4) random_quat(&seed, values + 4 * k);
            else {
                uint32_t j;
                for (j = 0; j < comps; j++) values[comps * k + j] = (float)((int)(t_rand(&seed) % 2001u) - 1000) / 250.0f;
            }
        }
        if (ticks[count - 1] > last) last = ticks[count - 1];
        CHECK_OK(plumbob_clip_encode_track(t, 0x1000u + i % (n / 2u + 1u) + (target == 7 ? 0x500u : 0u), curve, target,
                                           (uint16_t)count, ticks, values, clip_keys[i]));
        if (kind == 9 && i % 3 == 0) { /* keyless constant */
            memset(t, 0, sizeof *t);
            t->hash = 0x1000u + i % (n / 2u + 1u);
            t->curve = 0x0B;
            t->target = 1;
            t->offset = 0.5f;
            t->scale = 1.0f;
        }
    }
    return write_tracks(clip_tracks, n, (uint16_t)(last + 1u), out, cap);
}

static plumbob_result decode_in(const unsigned char *d, size_t n, plumbob_arena *a, plumbob_clip *c) {
    size_t need;
    plumbob_result r = plumbob_clip_measure(d, n, &need);
    return r != PLUMBOB_OK ? r : plumbob_clip_decode(d, n, a, c);
}

/* Every distinct bone hash and morph hash of the clip, in clip order. */
static void rig_of(const plumbob_clip *c, uint32_t *bones, uint32_t *nb, uint32_t *morphs, uint32_t *nm,
                   uint32_t max_bones) {
    uint32_t i, j;
    *nb = *nm = 0;
    for (i = 0; i < c->track_count; i++) {
        uint32_t h = c->tracks[i].hash, *list = c->tracks[i].target == PLUMBOB_CLIP_TARGET_MORPH ? morphs : bones;
        uint32_t *n = list == morphs ? nm : nb, cap = list == morphs ? 8u : max_bones;
        for (j = 0; j < *n && list[j] != h; j++) continue;
        if (j == *n && *n < cap) list[(*n)++] = h;
    }
}

void test_clip_sampler_random_clips(void) {
    uint32_t round;
    for (round = 0; round < 12; round++) {
        unsigned char *buf = t_scratch();
        uint32_t n = 1u + round * 5u, seed = 0x5EED0u + round, bones[MAX_RIG], morphs[8], nb, nm;
        size_t len = random_clip(seed, n > MAX_TRACKS ? MAX_TRACKS : n, buf, T_SCRATCH_SIZE);
        plumbob_arena a;
        plumbob_clip c;
        static sampler_check s;
        plumbob_arena_init(&a, t_arena_mem(), T_ARENA_SIZE);
        CHECK_OK(decode_in(buf, len, &a, &c));
        rig_of(&c, bones, &nb, morphs, &nm, MAX_RIG);
        /* leave one bone out of the rig: its tracks are skipped */
        if (nb > 2) bones[1] = 0xDEADBEEFu;
        setup(&s, &c, bones, nb, morphs, nm, &a, NULL);
        CHECK_EQ(play(&s, seed), 0);
    }
}

/* One schedule, two samplers on different rigs (all bones; every other
 * bone), played in turns: forward, then random jumps.  Both match
 * sample_pose, so the shared streams are only read. */
void test_clip_sampler_shared_schedule(void) {
    unsigned char *buf = t_scratch();
    size_t len = random_clip(0x5A4Eu, 40, buf, T_SCRATCH_SIZE);
    uint32_t bones[MAX_RIG], half[MAX_RIG], morphs[8], nb, nm, i, f, frames, bad = 0, seed = 3;
    plumbob_arena a;
    plumbob_clip c;
    static sampler_check full, part;
    float dur;
    plumbob_arena_init(&a, t_arena_mem(), T_ARENA_SIZE);
    CHECK_OK(decode_in(buf, len, &a, &c));
    rig_of(&c, bones, &nb, morphs, &nm, MAX_RIG);
    for (i = 0; i < nb; i++) half[i] = i % 2 ? 0xDEAD0000u + i : bones[i];
    setup(&full, &c, bones, nb, morphs, nm, &a, NULL);
    setup(&part, &c, half, nb, morphs, nm, &a, &full.schedule);
    CHECK(part.schedule.key_records[0] == full.schedule.key_records[0]);
    dur = plumbob_clip_duration(&c);
    frames = (uint32_t)(dur * 60.0f) + 4u;
    for (f = 0; f < frames; f++) {
        bad += compare_at(&full, (float)f / 60.0f, f % 11 == 0);
        bad += compare_at(&part, (float)(f / 2u) / 30.0f, 0); /* its own clock */
    }
    for (f = 0; f < 100; f++) {
        bad += compare_at(&full, dur * (float)(t_rand(&seed) % 1000u) / 900.0f, 0);
        bad += compare_at(&part, dur * (float)(t_rand(&seed) % 1000u) / 900.0f, f % 13 == 0);
    }
    CHECK_EQ(bad, 0);
}

/* The schedule's streams: one record per key after each lane track's
 * first, in tick order, each lane's records in key order with that key's
 * tick, lane tracks in clip order and of the right kind; only tracks of
 * two keys or more get lanes (the one-key and keyless ones are constants). */
void test_clip_schedule_order(void) {
    unsigned char *buf = t_scratch();
    size_t len = random_clip(0xC0FFEEu, MAX_TRACKS, buf, T_SCRATCH_SIZE);
    plumbob_arena a;
    plumbob_clip c;
    plumbob_clip_schedule sc;
    uint32_t s, i, want_lanes[2] = {0, 0}, want_records[2] = {0, 0}, seen[2][MAX_TRACKS];
    plumbob_arena_init(&a, t_arena_mem(), T_ARENA_SIZE);
    CHECK_OK(decode_in(buf, len, &a, &c));
    CHECK_OK(plumbob_clip_schedule_build(&c, &a, &sc));
    CHECK(sc.clip == &c);
    for (i = 0; i < c.track_count; i++) {
        const plumbob_clip_track *t = &c.tracks[i];
        int rot = t->type == 0x214 && t->key_count >= 2, vec = t->type == 0x112 && t->key_count >= 2;
        if (!rot && !vec) continue;
        s = rot ? 0u : 1u;
        CHECK(want_lanes[s] < sc.lane_count[s] && sc.lane_track[s][want_lanes[s]] == i);
        want_lanes[s]++;
        want_records[s] += t->key_count - 1u;
    }
    CHECK(want_lanes[0] > 8 && want_lanes[1] > 8); /* the random clip has both kinds */
    for (s = 0; s < 2; s++) {
        uint32_t prev = 0;
        CHECK_EQ(sc.lane_count[s], want_lanes[s]);
        CHECK_EQ(sc.key_record_count[s], want_records[s]);
        for (i = 0; i < sc.lane_count[s]; i++) seen[s][i] = 0;
        for (i = 0; i < sc.key_record_count[s]; i++) {
            uint32_t tag = s == 0 ? ((const pb_clip_rot_record *)sc.key_records[0])[i].tag
                                  : ((const pb_clip_vec_record *)sc.key_records[1])[i].tag;
            uint32_t lane = tag & 0xFFFFu, k;
            const plumbob_clip_track *t;
            CHECK(tag >> 16 >= prev >> 16);
            prev = tag;
            if (lane >= sc.lane_count[s]) { CHECK(0); continue; }
            t = &c.tracks[sc.lane_track[s][lane]];
            k = ++seen[s][lane]; /* this record enters span k */
            CHECK(k < t->key_count && (tag >> 16) == (uint32_t)(t->keys[(size_t)k * t->key_size] |
                                                                t->keys[(size_t)k * t->key_size + 1u] << 8));
        }
    }
}

/* The lanes of a 12-bit rotation track, exactly: keys every tick give
 * alpha = t - ta, so the sampler equals sample_pose bit for bit there. */
void test_clip_sampler_exact_on_unit_ticks(void) {
    unsigned char *buf = t_scratch();
    static unsigned char keys[2][8 * 12];
    plumbob_clip_track tr[2];
    plumbob_clip c;
    plumbob_arena a;
    plumbob_clip_binding b;
    plumbob_clip_schedule sc;
    plumbob_clip_sampler s;
    plumbob_bone_pose want[1], got[1];
    uint16_t ticks[8];
    float q[8 * 4], v[8 * 3];
    uint32_t k, seed = 77, bone = 0xB0E5u;
    size_t len = 0;
    for (k = 0; k < 8; k++) {
        ticks[k] = (uint16_t)k;
        random_quat(&seed, q + 4 * k);
        v[3 * k] = (float)k; v[3 * k + 1] = -2.0f * (float)k; v[3 * k + 2] = 0.25f;
    }
    CHECK_OK(plumbob_clip_encode_track(&tr[0], bone, 0x14, 2, 8, ticks, q, keys[0]));
    CHECK_OK(plumbob_clip_encode_track(&tr[1], bone, 0x12, 1, 8, ticks, v, keys[1]));
    len = write_tracks(tr, 2, 8, buf, T_SCRATCH_SIZE);
    plumbob_arena_init(&a, t_arena_mem(), T_ARENA_SIZE);
    CHECK_OK(decode_in(buf, len, &a, &c));
    CHECK_OK(plumbob_clip_bind(&c, &bone, 1, NULL, 0, &a, &b));
    CHECK_OK(plumbob_clip_schedule_build(&c, &a, &sc));
    CHECK_EQ(sc.lane_count[0], 1);
    CHECK_EQ(sc.key_record_count[0], 7);
    CHECK_EQ(sc.key_record_count[1], 7);
    CHECK_OK(plumbob_clip_sampler_init(&sc, &b, 0, &a, &s));
    CHECK_EQ(s.rotation_groups, 1);
    CHECK_EQ(s.vector_groups, 1);
    CHECK_EQ(s.other_count, 0);
    for (k = 0; k < 64; k++) {
        float t = (float)k / 240.0f;
        memset(want, 0, sizeof want);
        memset(got, 0, sizeof got);
        plumbob_clip_sample_pose(&c, &b, NULL, t, want, NULL);
        plumbob_clip_sampler_sample(&s, t, got, 1, NULL, 0);
        CHECK(memcmp(want, got, sizeof want) == 0);
    }
    t_digest_f32(got[0].rotation.x);
    t_digest_f32(got[0].translation.y);
    CHECK_NEAR(got[0].translation.x, 7.0, 0.01); /* held at the last key */
}

/* Ticks at the top of the 16-bit range: a lane's span end is kept as a
 * 16-bit tick with 0xFFFF meaning "the last key", which is also a real
 * tick, so spans ending at 65535, last keys there, and times past it
 * (which the sampler clamps to 70000 ticks) go through every path: the
 * schedule, the scalar reference and the schedule-free walk, forward,
 * back and across, against sample_pose.  Three rotation lanes and two
 * vector lanes leave padding lanes in both groups. */
void test_clip_sampler_top_ticks(void) {
    static const uint16_t ticks[5][3] = {{0, 65534, 65535}, {0, 65535, 0}, {65535, 0, 0}, {10, 65534, 0}, {0, 1, 65535}};
    static const uint8_t curve[5] = {0x14, 0x12, 0x14, 0x12, 0x14}, target[5] = {2, 1, 2, 1, 2}, count[5] = {3, 2, 1, 2, 3};
    static const float at[] = {0.0f, 100.0f, 65533.0f, 65533.5f, 65534.0f, 65534.5f, 65535.0f, 65535.5f, 65536.0f,
                               69999.0f, 70001.0f, 1.0e6f, 65535.0f, 65534.25f, 65534.0f, 0.5f, 65534.75f, 65535.0f,
                               65535.0f, 65600.0f, 65534.0f, 65535.9f, 65536.0f};
    static unsigned char keys[5][3 * 12];
    static sampler_check s;
    unsigned char *buf = t_scratch();
    plumbob_clip_track tr[5];
    plumbob_clip c;
    plumbob_arena a;
    uint32_t i, k, seed = 0x70B71C, bones[3] = {0xA1u, 0xB2u, 0xC3u};
    float values[3 * 4];
    size_t len = 0;
    for (i = 0; i < 5; i++) {
        for (k = 0; k < count[i]; k++) {
            if (curve[i] == 0x14) random_quat(&seed, values + 4 * k);
            else {
                values[3 * k] = (float)k - 0.5f;
                values[3 * k + 1] = 2.0f * (float)i;
                values[3 * k + 2] = -(float)k;
            }
        }
        CHECK_OK(plumbob_clip_encode_track(&tr[i], bones[i / 2u], curve[i], target[i], count[i], ticks[i], values, keys[i]));
    }
    len = write_tracks(tr, 5, 65535, buf, 4096);
    /* the schedule's tick table alone takes 256 KiB: the arena is the
     * scratch buffer past the clip's bytes */
    plumbob_arena_init(&a, buf + 4096, T_SCRATCH_SIZE - 4096u);
    CHECK_OK(decode_in(buf, len, &a, &c));
    setup(&s, &c, bones, 3, NULL, 0, &a, NULL);
    CHECK_EQ(s.port.rotation_groups, 1);
    CHECK_EQ(s.port.vector_groups, 1);
    for (i = 0; i < sizeof at / sizeof at[0]; i++) CHECK_EQ(compare_at(&s, at[i] / 30.0f, 1), 0);
}

/* Tracks of one key or none are constants: written once per frame from a
 * value computed at init, after the lanes, so which track wins a bone
 * still follows track order (a constant before a moving track of its bone
 * and kind is left out; one after it wins; of two constants the later).
 * Checked against sample_pose, with the counts and the sampler's size. */
void test_clip_sampler_constants(void) {
    static const uint32_t hash[8] = {0xA, 0xA, 0xB, 0xB, 0xC, 0xC, 0xD, 0xA};
    static const uint8_t curve[8] = {0x14, 0x14, 0x14, 0x14, 0x12, 0x12, 0x14, 0x12};
    static const uint8_t target[8] = {2, 2, 2, 2, 1, 1, 2, 1}, count[8] = {1, 3, 3, 1, 0, 1, 0, 2};
    static const uint16_t ticks[3] = {0, 4, 9};
    static unsigned char keys[8][3 * 12];
    static sampler_check s;
    unsigned char *buf = t_scratch();
    plumbob_clip_track tr[8];
    plumbob_clip c;
    plumbob_arena a;
    uint32_t i, k, seed = 0xC0257, bones[4] = {0xA, 0xB, 0xC, 0xD};
    float values[3 * 4];
    size_t len = 0;
    for (i = 0; i < 8; i++) {
        for (k = 0; k < 3; k++) {
            if (curve[i] == 0x14) random_quat(&seed, values + 4 * k);
            else {
                values[3 * k] = (float)(i + k);
                values[3 * k + 1] = -0.5f * (float)k;
                values[3 * k + 2] = 3.0f;
            }
        }
        if (count[i] > 0) {
            CHECK_OK(plumbob_clip_encode_track(&tr[i], hash[i], curve[i], target[i], count[i], ticks, values, keys[i]));
        } else { /* keyless: the offset (translations) or the identity (rotations) */
            memset(&tr[i], 0, sizeof tr[i]);
            tr[i].hash = hash[i];
            tr[i].curve = 0x0B;
            tr[i].target = target[i];
            tr[i].offset = 0.75f;
            tr[i].scale = 1.0f;
        }
    }
    len = write_tracks(tr, 8, 10, buf, T_SCRATCH_SIZE);
    plumbob_arena_init(&a, t_arena_mem(), T_ARENA_SIZE);
    CHECK_OK(decode_in(buf, len, &a, &c));
    setup(&s, &c, bones, 4, NULL, 0, &a, NULL);
    CHECK_EQ(s.schedule.lane_count[0], 2); /* tracks 1 and 2 */
    CHECK_EQ(s.schedule.lane_count[1], 1); /* track 7 */
    CHECK_EQ(s.port.rotation_groups, 1);
    CHECK_EQ(s.port.vector_groups, 1);
    CHECK_EQ(s.port.constant_count[0], 2); /* tracks 3 and 6; 0 is overwritten by 1 */
    CHECK_EQ(s.port.constant_count[1], 1); /* track 5; 4 is overwritten by it */
    CHECK_EQ(s.direct.constant_count[0], 2);
    /* kept: two 64-aligned groups with their track indices, room for the
     * five bound constants (three rotations of 20 bytes, two translations
     * of 16; the two overwritten ones are counted before init finds them),
     * no others; then the slot sort (8 bound lane-kind tracks) and the
     * track bits, given back */
    CHECK_EQ(plumbob_clip_sampler_size(&s.schedule, &s.binding),
             (192u + 7u) + (160u + 7u) + 64u + (3u * 20u + 7u) + (2u * 16u + 7u) + 7u + (8u * 8u + 7u) + (4u + 7u));
    for (i = 0; i < 40; i++) CHECK_EQ(compare_at(&s, (float)(i % 13u) / 45.0f, i % 5u == 0), 0);
    {
        static pose_out got;
        fill(&got);
        CHECK_OK(plumbob_clip_sampler_sample(&s.port, 0.1f, got.poses, MAX_RIG, got.morphs, 8));
        CHECK(got.poses[3].rotation.x == 0.0f && got.poses[3].rotation.w == 1.0f); /* keyless: identity */
        CHECK_NEAR(got.poses[2].translation.x, 5.0, 0.01); /* track 5's key */
        CHECK_NEAR(got.poses[2].translation.z, 3.0, 0.01);
    }
}

void test_clip_sampler_errors(void) {
    unsigned char *buf = t_scratch();
    size_t len = random_clip(9, 13, buf, T_SCRATCH_SIZE), need;
    plumbob_arena a;
    plumbob_clip c;
    plumbob_clip_binding b, other;
    plumbob_clip_schedule sc, bad;
    plumbob_clip_sampler s;
    uint32_t bones[MAX_RIG], morphs[8], nb, nm, shift;
    unsigned char *mem;
    plumbob_arena_init(&a, t_arena_mem(), T_ARENA_SIZE);
    CHECK_OK(decode_in(buf, len, &a, &c));
    rig_of(&c, bones, &nb, morphs, &nm, MAX_RIG);
    CHECK_OK(plumbob_clip_bind(&c, bones, nb, morphs, nm, &a, &b));
    /* the schedule */
    CHECK_EQ(plumbob_clip_schedule_size(NULL), SIZE_MAX);
    CHECK_EQ(plumbob_clip_schedule_build(NULL, &a, &sc), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_clip_schedule_build(&c, NULL, &sc), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_clip_schedule_build(&c, &a, NULL), PLUMBOB_ERR_INVALID_ARGUMENT);
    need = plumbob_clip_schedule_size(&c);
    mem = t_arena_mem() + T_ARENA_SIZE / 2;
    for (shift = 0; shift < 16; shift += 4) { /* the size fits at any start alignment; less does not */
        plumbob_arena small;
        plumbob_arena_init(&small, mem + shift, need);
        CHECK_OK(plumbob_clip_schedule_build(&c, &small, &sc));
        plumbob_arena_init(&small, mem + shift, need - need / 4u);
        CHECK_EQ(plumbob_clip_schedule_build(&c, &small, &sc), PLUMBOB_ERR_OUT_OF_MEMORY);
    }
    CHECK_OK(plumbob_clip_schedule_build(&c, &a, &sc));
    /* the sampler */
    need = plumbob_clip_sampler_size(&sc, &b);
    CHECK(need >= 16u);
    CHECK_EQ(plumbob_clip_sampler_size(NULL, &b), need); /* no schedule: the binding's clip, the same lanes */
    CHECK_EQ(plumbob_clip_sampler_size(NULL, NULL), SIZE_MAX);
    CHECK_EQ(plumbob_clip_sampler_size(&sc, NULL), SIZE_MAX);
    other = b;
    other.track_count--;
    bad = sc;
    bad.clip = NULL;
    CHECK_EQ(plumbob_clip_sampler_size(&sc, &other), SIZE_MAX);
    CHECK_EQ(plumbob_clip_sampler_size(&bad, &b), SIZE_MAX);
    CHECK_EQ(plumbob_clip_sampler_init(&sc, &other, 0, &a, &s), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_clip_sampler_init(&bad, &b, 0, &a, &s), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_clip_sampler_init(NULL, NULL, 0, &a, &s), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_clip_sampler_init(NULL, &other, 0, &a, &s), PLUMBOB_ERR_INVALID_ARGUMENT);
    {   /* a schedule whose lanes are not the clip's, in track order */
        plumbob_clip_schedule swapped = sc;
        uint32_t lanes[2 * MAX_TRACKS];
        size_t mark = plumbob_arena_mark(&a);
        CHECK(sc.lane_count[0] >= 2 && sc.lane_count[0] <= MAX_TRACKS);
        memcpy(lanes, sc.lane_track[0], sc.lane_count[0] * sizeof lanes[0]);
        lanes[0] = sc.lane_track[0][1];
        lanes[1] = sc.lane_track[0][0];
        swapped.lane_track[0] = lanes;
        CHECK_EQ(plumbob_clip_sampler_init(&swapped, &b, 0, &a, &s), PLUMBOB_ERR_INVALID_ARGUMENT);
        CHECK_EQ(plumbob_arena_mark(&a), mark); /* nothing kept */
        swapped.lane_count[0]--; /* fewer lanes than the clip has */
        CHECK_EQ(plumbob_clip_sampler_init(&swapped, &b, 0, &a, &s), PLUMBOB_ERR_INVALID_ARGUMENT);
        swapped = sc; /* lane counts whose group count would wrap, or past the tracks */
        swapped.lane_count[0] = 0xFFFFFFFFu;
        CHECK_EQ(plumbob_clip_sampler_size(&swapped, &b), SIZE_MAX);
        CHECK_EQ(plumbob_clip_sampler_init(&swapped, &b, 0, &a, &s), PLUMBOB_ERR_INVALID_ARGUMENT);
        swapped.lane_count[0] = sc.lane_count[0];
        swapped.lane_count[1] = c.track_count - sc.lane_count[0] + 1u;
        CHECK_EQ(plumbob_clip_sampler_size(&swapped, &b), SIZE_MAX);
        CHECK_EQ(plumbob_clip_sampler_init(&swapped, &b, 0, &a, &s), PLUMBOB_ERR_INVALID_ARGUMENT);
        CHECK_EQ(plumbob_arena_mark(&a), mark);
    }
    CHECK_EQ(plumbob_clip_sampler_init(&sc, &b, 0, NULL, &s), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_clip_sampler_init(&sc, &b, 0, &a, NULL), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_clip_sampler_init(&sc, &b, 2u, &a, &s), PLUMBOB_ERR_INVALID_ARGUMENT);
    mem = t_arena_mem() + T_ARENA_SIZE / 2;
    for (shift = 0; shift < 16; shift += 4) {
        plumbob_arena small;
        plumbob_arena_init(&small, mem + shift, need);
        CHECK_OK(plumbob_clip_sampler_init(&sc, &b, 0, &small, &s));
        plumbob_arena_init(&small, mem + shift, need / 2);
        CHECK_EQ(plumbob_clip_sampler_init(&sc, &b, 0, &small, &s), PLUMBOB_ERR_OUT_OF_MEMORY);
    }
    CHECK_EQ(plumbob_clip_sampler_sample(NULL, 0.5f, NULL, 0, NULL, 0), PLUMBOB_ERR_INVALID_ARGUMENT); /* no effect, no crash */
    CHECK_OK(plumbob_clip_sampler_init(&sc, &b, 0, &a, &s));
    CHECK_OK(plumbob_clip_sampler_sample(&s, 0.5f, NULL, 0, NULL, 0));
    CHECK_OK(plumbob_clip_sampler_init(NULL, &b, 0, &a, &s));
    CHECK(s.schedule == NULL && s.clip == &c);
    CHECK_OK(plumbob_clip_sampler_sample(&s, 0.5f, NULL, 0, NULL, 0));
    {   /* the outputs' sizes: the binding records its lists, the sampler its
         * spans; one element short is output_too_small with nothing written
         * (the sentinel past the span too), the exact size plays */
        static plumbob_bone_pose p[MAX_RIG + 1];
        static float m[9];
        uint32_t mask[3], i, driven = 0;
        CHECK(b.bone_count == nb && b.morph_count == nm && s.bone_count == nb && s.morph_count == nm);
        memset(p, 0x5A, sizeof p);
        memset(m, 0x5A, sizeof m);
        if (nb) CHECK_EQ(plumbob_clip_sampler_sample(&s, 0.5f, p, nb - 1u, m, nm), PLUMBOB_ERR_OUTPUT_TOO_SMALL);
        if (nm) CHECK_EQ(plumbob_clip_sampler_sample(&s, 0.5f, p, nb, m, nm - 1u), PLUMBOB_ERR_OUTPUT_TOO_SMALL);
        for (i = 0; i < sizeof p; i++) CHECK_EQ(((const unsigned char *)p)[i], 0x5A);
        for (i = 0; i < sizeof m; i++) CHECK_EQ(((const unsigned char *)m)[i], 0x5A);
        CHECK_OK(plumbob_clip_sampler_sample(&s, 0.5f, p, nb, m, nm));
        for (i = 0; i < sizeof p[0]; i++) CHECK_EQ(((const unsigned char *)&p[nb])[i], 0x5A);
        for (i = 0; i < sizeof m[0]; i++) CHECK_EQ(((const unsigned char *)&m[nm])[i], 0x5A);
        /* the driven mask: the bones some bound track writes, each bit */
        CHECK(nb <= 64u);
        mask[2] = 0xA5A5A5A5u;
        if (nb > 32u) CHECK_EQ(plumbob_clip_sampler_driven_mask(&s, mask, 1), PLUMBOB_ERR_OUTPUT_TOO_SMALL);
        CHECK_EQ(plumbob_clip_sampler_driven_mask(&s, mask, 0), nb ? PLUMBOB_ERR_OUTPUT_TOO_SMALL : PLUMBOB_OK);
        CHECK_EQ(plumbob_clip_sampler_driven_mask(NULL, mask, 2), PLUMBOB_ERR_INVALID_ARGUMENT);
        CHECK_EQ(plumbob_clip_sampler_driven_mask(&s, NULL, 2), PLUMBOB_ERR_INVALID_ARGUMENT);
        CHECK_OK(plumbob_clip_sampler_driven_mask(&s, mask, 2));
        CHECK_EQ(mask[2], 0xA5A5A5A5u);
        for (i = 0; i < 64u; i++) {
            uint32_t t, want = 0;
            for (t = 0; t < b.track_count; t++) want |= b.bone_of_track[t] == (int32_t)i;
            CHECK_EQ((mask[i / 32u] >> (i % 32u)) & 1u, want);
            driven += want;
        }
        CHECK(driven > 0);
    }
    memset(&s, 0, sizeof s); /* never initialised */
    CHECK_EQ(plumbob_clip_sampler_sample(&s, 0.5f, NULL, 0, NULL, 0), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_clip_sampler_driven_mask(&s, (uint32_t *)t_work(), 2), PLUMBOB_ERR_INVALID_ARGUMENT);
    {   /* lane slots are 16-bit: the clip's bones last in a rig of 32,768
         * bones play; in one of 32,769 (the last past 32,767) the sampler
         * refuses, keeping nothing */
        static uint32_t rig[32769];
        uint32_t n, i;
        for (n = 32768; n <= 32769; n++) {
            plumbob_clip_binding big;
            size_t mark;
            for (i = 0; i < n; i++) rig[i] = 0x80000000u + i; /* no clip track's hash */
            for (i = 0; i < nb; i++) rig[n - nb + i] = bones[i];
            CHECK_OK(plumbob_clip_bind(&c, rig, n, morphs, nm, &a, &big));
            mark = plumbob_arena_mark(&a);
            CHECK_EQ(plumbob_clip_sampler_init(&sc, &big, 0, &a, &s), n == 32768 ? PLUMBOB_OK : PLUMBOB_ERR_UNSUPPORTED);
            if (n == 32769) CHECK_EQ(plumbob_arena_mark(&a), mark);
            else CHECK_OK(plumbob_clip_sampler_sample(&s, 0.25f, NULL, 0, NULL, 0));
        }
    }
}

/* Constants keep each distinct value once, compared bit for bit: +0 and
 * -0 stay apart, equal values share, and a value seen longer ago than
 * init's window of 256 distinct ones is kept again (never confused).
 * A constant's slot is 16-bit like a lane's: a rig past 32,768 bones is
 * refused when a constant lands there. */
static uint32_t f32_bits(float f) {
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

void test_clip_sampler_constant_values(void) {
    static const float offsets[6] = {0.0f, -0.0f, 0.0f, 1.5f, 1.5f, -0.0f};
    static const uint16_t ticks[1] = {0};
    static unsigned char keys[302][12];
    static plumbob_clip_track tr[302];
    static plumbob_bone_pose got[302], want[302];
    static uint32_t rig[32769];
    unsigned char *buf = t_scratch();
    plumbob_clip c;
    plumbob_arena a;
    plumbob_clip_binding b;
    plumbob_clip_cursor cur;
    plumbob_clip_schedule sc;
    plumbob_clip_sampler s;
    uint32_t i, n, bones[302];
    float q[4] = {0.0f, 0.0f, 0.0f, 1.0f};
    size_t len, mark;
    /* six keyless translations (bones 1-6); two keyless rotations (bones
     * 1, 2); one-key rotations on bones 3-5, their keys raw (0, 0, 0,
     * 4095) with offset -0: bone 3's x signed negative, so -0 (which the
     * blend and normalization keep), bones 4 and 5 +0 */
    for (i = 0; i < 11; i++) {
        memset(&tr[i], 0, sizeof tr[i]);
        tr[i].hash = i < 6 ? i + 1u : i - 5u;
        tr[i].curve = 0x0B;
        tr[i].target = i < 6 ? PLUMBOB_CLIP_TARGET_TRANSLATION : PLUMBOB_CLIP_TARGET_ROTATION;
        tr[i].offset = i < 6 ? offsets[i] : 0.0f;
        tr[i].scale = 1.0f;
        if (i >= 8) {
            CHECK_OK(plumbob_clip_encode_track(&tr[i], i - 5u, 0x14, PLUMBOB_CLIP_TARGET_ROTATION, 1, ticks, q, keys[i]));
            memset(keys[i] + 2, 0, 10);
            keys[i][2] = i == 8 ? 1u : 0u; /* x's sign */
            keys[i][10] = 0xFF;             /* w: raw 4095 (bits 48-59) */
            keys[i][11] = 0x0F;
            tr[i].offset = -0.0f;
            tr[i].scale = 1.0f;
        }
    }
    len = write_tracks(tr, 11, 10, buf, T_SCRATCH_SIZE);
    plumbob_arena_init(&a, t_arena_mem(), T_ARENA_SIZE);
    CHECK_OK(decode_in(buf, len, &a, &c));
    for (i = 0; i < 6; i++) bones[i] = i + 1u;
    CHECK_OK(plumbob_clip_bind(&c, bones, 6, NULL, 0, &a, &b));
    CHECK_OK(plumbob_clip_cursor_init(&c, &a, &cur));
    CHECK_OK(plumbob_clip_schedule_build(&c, &a, &sc));
    CHECK_OK(plumbob_clip_sampler_init(&sc, &b, 0, &a, &s));
    CHECK_EQ(s.constant_count[0], 5);
    CHECK_EQ(s.constant_value_count[0], 2); /* the identity (bones 1, 2, 4, 5: the keys come out 1 exactly), x -0 */
    CHECK_EQ(s.constant_count[1], 6);
    CHECK_EQ(s.constant_value_count[1], 2); /* 0 (the kernel's a + (b - a) 0 is +0 for -0 too) and 1.5 */
    memset(got, 0x55, sizeof got);
    memset(want, 0x55, sizeof want);
    CHECK_OK(plumbob_clip_sampler_sample(&s, 0.2f, got, 302, NULL, 0));
    plumbob_clip_sample_pose(&c, &b, &cur, 0.2f, want, NULL);
    for (i = 0; i < 6; i++) {
        CHECK(got[i].translation.x == offsets[i] && got[i].translation.z == want[i].translation.z);
        CHECK_EQ(memcmp(&got[i].rotation, &want[i].rotation, sizeof got[i].rotation), 0);
    }
    CHECK_EQ(f32_bits(got[2].rotation.x), 0x80000000u);
    CHECK_EQ(f32_bits(got[3].rotation.x), 0u);
    CHECK(got[3].rotation.w == 1.0f && got[4].rotation.w == 1.0f && got[0].rotation.w == 1.0f);
    CHECK(got[2].rotation.w == 1.0f && got[2].rotation.y == 0.0f);
    /* the same clip, its bones last in a rig of 32,768 (slots to 32,767)
     * and of 32,769: refused there, with nothing kept */
    for (n = 32768; n <= 32769; n++) {
        for (i = 0; i < n; i++) rig[i] = 0x80000000u + i;
        for (i = 0; i < 6; i++) rig[n - 6u + i] = bones[i];
        size_t bound;
        mark = plumbob_arena_mark(&a);
        CHECK_OK(plumbob_clip_bind(&c, rig, n, NULL, 0, &a, &b));
        bound = plumbob_arena_mark(&a);
        CHECK_EQ(plumbob_clip_sampler_init(&sc, &b, 0, &a, &s), n == 32768 ? PLUMBOB_OK : PLUMBOB_ERR_UNSUPPORTED);
        if (n == 32768) CHECK_EQ(f32_bits(s.constant_count[1] ? 1.0f : 0.0f), f32_bits(1.0f));
        else CHECK_EQ(plumbob_arena_mark(&a), bound);
        plumbob_arena_reset(&a, mark);
    }
    /* 300 distinct one-key translations, then bone 0's value again (300
     * values back, past the window: kept again) and bone 299's (found) */
    for (i = 0; i < 302; i++) {
        uint32_t from = i == 300 ? 0u : i == 301 ? 299u : i;
        float v[3];
        v[0] = (float)from;
        v[1] = -0.25f * (float)from;
        v[2] = 2.0f;
        CHECK_OK(plumbob_clip_encode_track(&tr[i], 0x100u + i, 0x12, PLUMBOB_CLIP_TARGET_TRANSLATION, 1, ticks, v,
                                           keys[i]));
        bones[i] = 0x100u + i;
    }
    len = write_tracks(tr, 302, 10, buf, T_SCRATCH_SIZE);
    plumbob_arena_init(&a, t_arena_mem(), T_ARENA_SIZE);
    CHECK_OK(decode_in(buf, len, &a, &c));
    CHECK_OK(plumbob_clip_bind(&c, bones, 302, NULL, 0, &a, &b));
    CHECK_OK(plumbob_clip_cursor_init(&c, &a, &cur));
    CHECK_OK(plumbob_clip_schedule_build(&c, &a, &sc));
    CHECK_OK(plumbob_clip_sampler_init(&sc, &b, 0, &a, &s));
    CHECK_EQ(s.constant_count[1], 302);
    CHECK_EQ(s.constant_value_count[1], 301);
    memset(got, 0x55, sizeof got);
    memset(want, 0x55, sizeof want);
    CHECK_OK(plumbob_clip_sampler_sample(&s, 0.1f, got, (uint32_t)(sizeof got / sizeof got[0]), NULL, 0));
    plumbob_clip_sample_pose(&c, &b, &cur, 0.1f, want, NULL);
    CHECK_EQ(memcmp(got, want, sizeof got), 0);
    CHECK_EQ(f32_bits(got[300].translation.y), f32_bits(got[0].translation.y));
    CHECK_EQ(f32_bits(got[301].translation.y), f32_bits(got[299].translation.y));
    CHECK_NEAR(got[299].translation.y, -74.75, 0.2);
}

/* Bindings, cursors and samplers know their clip by address: two clips
 * with the same track count (and the same hashes) cannot be mixed, and a
 * refused call writes nothing. */
void test_clip_refuses_another_clip(void) {
    unsigned char *buf = t_scratch(), *buf2 = t_scratch() + T_SCRATCH_SIZE / 2;
    size_t len = random_clip(0xC1u, 13, buf, T_SCRATCH_SIZE / 2), len2 = random_clip(0xC2u, 13, buf2, T_SCRATCH_SIZE / 2);
    plumbob_arena a;
    plumbob_clip c, d, copy;
    plumbob_clip_binding bc, bd, edited;
    plumbob_clip_cursor kc, kd;
    plumbob_clip_schedule sc, sd;
    plumbob_clip_sampler s;
    static pose_out before, out;
    uint32_t bones[MAX_RIG], morphs[8], nb, nm, used;
    float v[4] = {7, 7, 7, 7};
    plumbob_arena_init(&a, t_arena_mem(), T_ARENA_SIZE);
    CHECK_OK(decode_in(buf, len, &a, &c));
    CHECK_OK(decode_in(buf2, len2, &a, &d));
    CHECK_EQ(c.track_count, 13);
    CHECK_EQ(d.track_count, 13);
    rig_of(&c, bones, &nb, morphs, &nm, MAX_RIG);
    CHECK_OK(plumbob_clip_bind(&c, bones, nb, morphs, nm, &a, &bc));
    CHECK_OK(plumbob_clip_bind(&d, bones, nb, morphs, nm, &a, &bd));
    CHECK(bc.clip == &c && bd.clip == &d);
    CHECK_OK(plumbob_clip_cursor_init(&c, &a, &kc));
    CHECK_OK(plumbob_clip_cursor_init(&d, &a, &kd));
    CHECK(kc.clip == &c && kd.clip == &d);
    CHECK_OK(plumbob_clip_schedule_build(&c, &a, &sc));
    CHECK_OK(plumbob_clip_schedule_build(&d, &a, &sd));
    fill(&before);
    fill(&out);
    /* a binding or cursor of c with d: refused, nothing written */
    CHECK_EQ(plumbob_clip_sample_pose(&d, &bc, NULL, 0.5f, out.poses, out.morphs), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_clip_sample_pose(&d, &bd, &kc, 0.5f, out.poses, out.morphs), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_clip_sample_track_cursor(&d, &kc, 0, 0.5f, v), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK(memcmp(&before, &out, sizeof out) == 0);
    CHECK(v[0] == 7.0f && v[3] == 7.0f);
    /* the sampler: a schedule of d with a binding of c */
    CHECK_EQ(plumbob_clip_sampler_size(&sd, &bc), SIZE_MAX);
    used = (uint32_t)a.used;
    CHECK_EQ(plumbob_clip_sampler_init(&sd, &bc, 0, &a, &s), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(a.used, used);
    /* a copy of the clip struct is another clip; so is a binding whose
     * count was edited */
    copy = c;
    CHECK_EQ(plumbob_clip_sample_pose(&copy, &bc, NULL, 0.5f, out.poses, out.morphs), PLUMBOB_ERR_INVALID_ARGUMENT);
    edited = bc;
    edited.track_count = 12;
    CHECK_EQ(plumbob_clip_sample_pose(&c, &edited, NULL, 0.5f, out.poses, out.morphs), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_clip_sampler_size(&sc, &edited), SIZE_MAX);
    CHECK(memcmp(&before, &out, sizeof out) == 0);
    /* NULLs and a track out of range */
    CHECK_EQ(plumbob_clip_sample_pose(NULL, &bc, NULL, 0.5f, out.poses, out.morphs), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_clip_sample_pose(&c, NULL, NULL, 0.5f, out.poses, out.morphs), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_clip_sample_track(NULL, 0, 0.5f, v), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_clip_sample_track(&c, 0, 0.5f, NULL), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_clip_sample_track(&c, 13, 0.5f, v), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_clip_sample_track_cursor(&c, &kc, 13, 0.5f, v), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_clip_sample_track_cursor(&c, NULL, 0, 0.5f, v), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_clip_sample_track_cursor(NULL, &kc, 0, 0.5f, v), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK(v[0] == 7.0f && v[3] == 7.0f);
    CHECK(memcmp(&before, &out, sizeof out) == 0);
    /* the matching pairs run and write */
    CHECK_OK(plumbob_clip_sample_pose(&d, &bd, &kd, 0.5f, out.poses, out.morphs));
    CHECK(memcmp(&before, &out, sizeof out) != 0);
    CHECK_OK(plumbob_clip_sample_pose(&c, &bc, &kc, 0.5f, out.poses, out.morphs));
    CHECK_OK(plumbob_clip_sample_track_cursor(&c, &kc, 12, 0.5f, v));
    CHECK_OK(plumbob_clip_sampler_init(&sd, &bd, 0, &a, &s));
    CHECK(s.clip == &d);
    CHECK_OK(plumbob_clip_sampler_sample(&s, 0.5f, out.poses, MAX_RIG, out.morphs, 8));
    t_digest_f32(out.poses[0].rotation.w);
}

/* Each query against its header macro, an arena of exactly the answer at
 * every start alignment, a smaller one refused with the arena untouched,
 * and SIZE_MAX (never 0) for what the call would refuse. */
void test_clip_sizes_match_macros(void) {
    unsigned char *buf = t_scratch();
    size_t len = random_clip(0x512Eu, 40, buf, T_SCRATCH_SIZE), need, shift;
    /* compile-time buffers, as a game would declare them */
    static unsigned char bind_mem[PLUMBOB_CLIP_BIND_SIZE(40) + 16];
    static unsigned char cursor_mem[PLUMBOB_CLIP_CURSOR_SIZE(40) + 16];
    static unsigned char sampler_mem[PLUMBOB_CLIP_SAMPLER_SIZE(40) + 16];
    plumbob_arena a, small;
    plumbob_clip c;
    plumbob_clip_binding b;
    plumbob_clip_cursor k;
    plumbob_clip_schedule sc;
    plumbob_clip_sampler s;
    uint32_t hashes[40], i;
    float last_value[4];
    CHECK_OK(plumbob_clip_measure(buf, len, &need));
    plumbob_arena_init(&a, t_arena_mem(), T_ARENA_SIZE);
    CHECK_OK(plumbob_clip_decode(buf, len, &a, &c));
    CHECK_EQ(need, PLUMBOB_CLIP_DECODE_SIZE(c.track_count, c.slot_count, c.event_count));
    CHECK_EQ(plumbob_clip_measure(buf, 10, &need), PLUMBOB_ERR_TRUNCATED);
    CHECK_EQ(need, SIZE_MAX);
    need = 0;
    CHECK_EQ(plumbob_clip_measure(NULL, len, &need), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(need, SIZE_MAX);
    CHECK_EQ(plumbob_clip_bind_size(&c), PLUMBOB_CLIP_BIND_SIZE(40));
    CHECK_EQ(plumbob_clip_bind_size(&c), 2u * (40u * 4u + 7u));
    CHECK_EQ(plumbob_clip_cursor_size(&c), PLUMBOB_CLIP_CURSOR_SIZE(40));
    CHECK_EQ(plumbob_clip_cursor_size(&c), 40u * 2u + 7u);
    CHECK_EQ(plumbob_clip_bind_size(NULL), SIZE_MAX);
    CHECK_EQ(plumbob_clip_cursor_size(NULL), SIZE_MAX);
    /* a group of four lanes (160 bytes a frame reads) and beside it their
     * track indices, key indices and span ends (32) */
    CHECK_EQ(PLUMBOB_CLIP_SAMPLER_GROUP_BYTES, sizeof(pb_clip_lanes) + 32u);
    CHECK_EQ(sizeof(pb_clip_lanes), 160u);
    CHECK_EQ(PLUMBOB_CLIP_SAMPLER_VECTOR_GROUP_BYTES, sizeof(pb_clip_vlanes) + 32u);
    CHECK_EQ(sizeof(pb_clip_vlanes), 128u);
    /* per track, as the header's sampler comment, API.md and ARCHITECTURE.md
     * state them (tests/doc-numbers.sh reads the docs against these) */
    CHECK_EQ(PLUMBOB_CLIP_SAMPLER_GROUP_BYTES / 4u, 48u);
    CHECK_EQ(PLUMBOB_CLIP_SAMPLER_VECTOR_GROUP_BYTES / 4u, 40u);
    CHECK_EQ(PLUMBOB_CLIP_SAMPLER_CONSTANT_BYTES, 20u);
    CHECK_EQ(PLUMBOB_CLIP_SAMPLER_TRANSLATION_BYTES, 16u);
    for (i = 0; i < 40; i++) hashes[i] = c.tracks[i].hash;
    for (shift = 0; shift < 8; shift++) {
        need = plumbob_clip_bind_size(&c);
        plumbob_arena_init(&small, bind_mem + shift, need - 170u); /* room for one table, not two */
        CHECK_EQ(plumbob_clip_bind(&c, hashes, 40, hashes, 40, &small, &b), PLUMBOB_ERR_OUT_OF_MEMORY);
        CHECK_EQ(small.used, 0); /* what it took was given back */
        plumbob_arena_init(&small, bind_mem + shift, need);
        CHECK_OK(plumbob_clip_bind(&c, hashes, 40, hashes, 40, &small, &b));
        CHECK(b.clip == &c);
        need = plumbob_clip_cursor_size(&c);
        plumbob_arena_init(&small, cursor_mem + shift, need - 8u);
        CHECK_EQ(plumbob_clip_cursor_init(&c, &small, &k), PLUMBOB_ERR_OUT_OF_MEMORY);
        plumbob_arena_init(&small, cursor_mem + shift, need);
        CHECK_OK(plumbob_clip_cursor_init(&c, &small, &k));
    }
    /* the sampler's worst rig (every track a bone and a morph) stays
     * within the macro, and its exact answer fits at any alignment */
    CHECK_OK(plumbob_clip_schedule_build(&c, &a, &sc));
    need = plumbob_clip_sampler_size(&sc, &b);
    CHECK(need <= PLUMBOB_CLIP_SAMPLER_SIZE(40));
    CHECK(need > PLUMBOB_CLIP_SAMPLER_SIZE(40) / 2u);
    for (shift = 0; shift < 16; shift += 4) {
        plumbob_arena_init(&small, sampler_mem + shift, need);
        CHECK_OK(plumbob_clip_sampler_init(&sc, &b, 0, &small, &s));
        plumbob_arena_init(&small, sampler_mem + shift, need / 2u);
        CHECK_EQ(plumbob_clip_sampler_init(&sc, &b, 0, &small, &s), PLUMBOB_ERR_OUT_OF_MEMORY);
        CHECK_EQ(small.used, 0);
    }
    /* the schedule stays within its bound (all keys, the last tick) */
    {
        uint32_t keys = 0, ticks = 0;
        for (i = 0; i < 40; i++) {
            const plumbob_clip_track *t = &c.tracks[i];
            uint16_t last = 0;
            keys += t->key_count;
            if (t->key_count) CHECK_OK(plumbob_clip_key_value(&c, i, t->key_count - 1u, &last, last_value));
            if (t->key_count && last + 1u > ticks) ticks = last + 1u;
        }
        need = plumbob_clip_schedule_size(&c);
        CHECK(need <= PLUMBOB_CLIP_SCHEDULE_SIZE(40, keys, ticks));
        CHECK(need <= PLUMBOB_CLIP_SCHEDULE_SIZE(40, keys, 65536u));
        CHECK(need > PLUMBOB_CLIP_SCHEDULE_SIZE(40, keys, ticks) / 2u);
        CHECK_EQ(plumbob_clip_schedule_size(NULL), SIZE_MAX);
    }
    /* the schedule gives back what it took when it does not fit */
    need = plumbob_clip_schedule_size(&c);
    CHECK(need / 2u <= T_SCRATCH_SIZE / 2u);
    plumbob_arena_init(&small, t_scratch() + T_SCRATCH_SIZE / 2u, need / 2u);
    CHECK_EQ(plumbob_clip_schedule_build(&c, &small, &sc), PLUMBOB_ERR_OUT_OF_MEMORY);
    CHECK_EQ(small.used, 0);
    t_digest_u64(plumbob_clip_bind_size(&c));
}

void test_clip_sampler_corpus(void) {
    static const char *pkgs[] = {"sims3/EWBreastfeed.package", "sims3/PetFightingSkill.package"};
    size_t p;
    uint32_t clips = 0;
    for (p = 0; p < 2; p++) {
        size_t size;
        unsigned char *data = t_corpus_load(pkgs[p], &size);
        plumbob_package pkg;
        uint32_t i;
        if (!data) T_SKIP(t_corpus_missing());
        CHECK_OK(plumbob_package_open(&pkg, data, size));
        for (i = 0; i < pkg.count; i++) {
            plumbob_package_entry e;
            const unsigned char *res;
            size_t rs, need;
            unsigned char *buf, *mem;
            plumbob_arena a;
            plumbob_clip c;
            uint32_t *bones, nb = 0, morphs[8], nm = 0, f, bad = 0;
            sampler_check *s;
            CHECK_OK(plumbob_package_entry_at(&pkg, i, &e));
            if (e.type != PLUMBOB_TYPE_CLIP) continue;
            buf = (unsigned char *)malloc(e.mem_size);
            CHECK_OK(plumbob_package_read(&pkg, &e, buf, e.mem_size, &res, &rs));
            CHECK_OK(plumbob_clip_measure(res, rs, &need));
            need += 3u * rs + (2u << 20); /* the schedule: at most 2.5 bytes per key byte, plus its tick table */
            mem = (unsigned char *)malloc(need);
            plumbob_arena_init(&a, mem, need);
            CHECK_OK(plumbob_clip_decode(res, rs, &a, &c));
            bones = (uint32_t *)malloc(sizeof(uint32_t) * (c.track_count + 1u));
            rig_of(&c, bones, &nb, morphs, &nm, MAX_RIG);
            s = (sampler_check *)malloc(sizeof *s);
            setup(s, &c, bones, nb, morphs, nm, &a, NULL);
            /* real clips: nearly every track goes to the lanes */
            CHECK(s->port.other_count * 10u <= c.track_count);
            for (f = 0; f < (uint32_t)(plumbob_clip_duration(&c) * 60.0f) + 5u; f += 3)
                bad += compare_at(s, (float)f / 60.0f, f % 60 == 0);
            bad += play(s, i);
            CHECK_EQ(bad, 0);
            clips++;
            free(s);
            free(bones);
            free(mem);
            free(buf);
        }
        free(data);
    }
    CHECK_EQ(clips, 19);
}
