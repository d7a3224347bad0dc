/* Sims 3 CLIP: synthetic clips made with plumbob's writer (analytic curves,
 * every event type, a slot table), sampling rules, cursor, rig binding,
 * event windows, sweeps, and every clip in the sample packages. */
#include <stdlib.h>
#include <string.h>
#include "test.h"
#include "pb_bytes.h"

#define NKEYS 31
#define PI_F 3.14159265f

static float sin_approx(float x) { /* Taylor series: 1e-7 on [-pi/2, pi/2], 5e-4 at +-pi */
    float x2 = x * x;
    return x * (1 - x2 / 6 * (1 - x2 / 20 * (1 - x2 / 42 * (1 - x2 / 72 * (1 - x2 / 110)))));
}
static float cos_approx(float x) { return sin_approx(x + PI_F / 2 > PI_F ? x - 3 * PI_F / 2 : x + PI_F / 2); }

/* The analytic curves of the synthetic clip, per track, at tick k. */
enum { TR_CONST, TR_LINEAR, TR_SINE, TR_ROT_X, TR_ROT_Y, TR_ROT_Z, TR_FLIP, TR_MORPH,
       TR_NULL_T, TR_NULL_R, TR_NULL_M, TRACKS };
static const uint32_t track_hash[TRACKS] = {0xFEAE6981u, 0x57884BB9u, 0x556B181Au, 0x6FA96266u,
                                            0x11111111u, 0x22222222u, 0x33333333u, 0xABCDEF01u,
                                            0x44444444u, 0x55555555u, 0x66666666u};

static void curve(int tr, int k, float *v) {
    float a = (float)k / (NKEYS - 1) * PI_F / 2; /* 0..90 degrees over the clip */
    float s = sin_approx(a / 2), c = cos_approx(a / 2);
    v[0] = v[1] = v[2] = v[3] = 0;
    switch (tr) {
    case TR_CONST: v[0] = 0.5f; v[1] = -0.25f; v[2] = 2.0f; break;
    case TR_LINEAR: v[0] = 0.1f * (float)k; v[1] = -0.05f * (float)k; v[2] = 1.0f; break;
    case TR_SINE: v[0] = sin_approx((float)k / (NKEYS - 1) * 2 * PI_F - PI_F); v[1] = 0; v[2] = 0; break;
    case TR_ROT_X: v[0] = s; v[3] = c; break;
    case TR_ROT_Y: v[1] = s; v[3] = c; break;
    case TR_ROT_Z: v[2] = s; v[3] = c; break;
    case TR_FLIP: /* the same rotation, stored as -q on every other key */
        v[2] = s; v[3] = c;
        if (k & 1) { v[2] = -v[2]; v[3] = -v[3]; }
        break;
    case TR_MORPH: v[0] = (float)k / (NKEYS - 1); break;
    default: break;
    }
}

static unsigned char key_mem[TRACKS][NKEYS * 12];
static plumbob_clip_track tracks[TRACKS];
static plumbob_clip_event events[8];
static plumbob_clip_slot slots[3];

/* Builds the synthetic clip and writes it into out; returns its size. */
static size_t build_clip(unsigned char *out, size_t cap) {
    static const uint8_t curves[TRACKS] = {0x12, 0x12, 0x12, 0x14, 0x14, 0x14, 0x14, 0x05, 0x0B, 0x0C, 0x09};
    static const uint8_t targets[TRACKS] = {1, 1, 1, 2, 2, 2, 2, 7, 1, 2, 7};
    static const uint16_t types[8] = {1, 2, 3, 4, 5, 6, 9, 10};
    plumbob_clip c;
    uint16_t ticks[NKEYS];
    float values[NKEYS * 4];
    size_t n = 0;
    int tr, k;
    memset(&c, 0, sizeof c);
    for (k = 0; k < NKEYS; k++) ticks[k] = (uint16_t)(k * 2); /* a key every other tick */
    for (tr = 0; tr < TRACKS; tr++) {
        plumbob_clip_track *t = &tracks[tr];
        int comps = curves[tr] == 0x14 ? 4 : curves[tr] == 0x05 ? 1 : 3;
        memset(t, 0, sizeof *t);
        if (tr >= TR_NULL_T) { /* keyless: constant */
            t->hash = track_hash[tr];
            t->curve = curves[tr];
            t->target = targets[tr];
            t->offset = tr == TR_NULL_T ? 0.75f : tr == TR_NULL_M ? 0.25f : 0.0f;
            t->scale = 1.0f;
            continue;
        }
        for (k = 0; k < NKEYS; k++) curve(tr, k, values + k * comps);
        CHECK_OK(plumbob_clip_encode_track(t, track_hash[tr], curves[tr], targets[tr], NKEYS, ticks,
                                           values, key_mem[tr]));
    }
    c.version = 2;
    c.frame_duration = 1.0f / 30.0f;
    c.tick_count = (NKEYS - 1) * 2 + 1;
    c.name.ptr = "a2o_synthetic_x";
    c.name.len = 15;
    c.source.ptr = "a2o_synthetic.ma";
    c.source.len = 16;
    c.actor.ptr = "x";
    c.actor.len = 1;
    c.header_unknown[1] = 1;
    c.track_count = TRACKS;
    c.tracks = tracks;
    c.chain_count = 2;
    c.slot_count = 3;
    memset(slots, 0, sizeof slots);
    slots[0].chain = 0; slots[0].actor.ptr = "x"; slots[0].actor.len = 1; slots[0].slot.ptr = "b__L_Hand_slot"; slots[0].slot.len = 14;
    slots[1].chain = 0; slots[1].index = 1; slots[1].actor.ptr = "y"; slots[1].actor.len = 1; slots[1].slot.ptr = "Root_info"; slots[1].slot.len = 9;
    slots[2].chain = 1; slots[2].actor.ptr = "o"; slots[2].actor.len = 1; slots[2].slot.ptr = "_slot"; slots[2].slot.len = 5;
    c.slots = slots;
    memset(events, 0, sizeof events);
    for (k = 0; k < 8; k++) {
        plumbob_clip_event *e = &events[k];
        e->type = types[k];
        e->marker = 0xC1E4;
        e->id = (uint32_t)k + 1u;
        e->time = 0.25f * (float)k;
        e->unknown[0] = e->unknown[1] = -1.0f;
        e->unknown3 = 3;
        e->name.ptr = "event_name_";
        e->name.len = (size_t)(3 + k);
        e->hash[0] = 0x1000u + (uint32_t)k;
        e->hash[1] = 0x2000u;
        e->hash[2] = 0x3000u;
        e->visibility = 0.5f;
        e->sound.ptr = "vo_synthetic";
        e->sound.len = 12;
    }
    c.event_version = 0x103;
    c.event_count = c.events_decoded = 8;
    c.events = events;
    CHECK_OK(plumbob_clip_write(&c, out, cap, &n));
    CHECK_EQ(n, plumbob_clip_write_size(&c));
    return n;
}

static plumbob_result decode(const unsigned char *d, size_t n, plumbob_clip *c) {
    plumbob_arena a;
    size_t need;
    plumbob_result r = plumbob_clip_measure(d, n, &need);
    if (r != PLUMBOB_OK) return r;
    if (need > T_ARENA_SIZE) return PLUMBOB_ERR_OUT_OF_MEMORY;
    plumbob_arena_init(&a, t_arena_mem(), need); /* exactly the measured size */
    return plumbob_clip_decode(d, n, &a, c);
}

void test_clip_synthetic_round_trip(void) {
    unsigned char *buf = t_scratch(), *again = t_scratch() + 65536;
    size_t n = build_clip(buf, 65536), n2 = 0;
    plumbob_clip c;
    int tr, k, i;
    CHECK_OK(decode(buf, n, &c));
    CHECK_EQ(c.track_count, TRACKS);
    CHECK(c.name.len == 15 && memcmp(c.name.ptr, "a2o_synthetic_x", 15) == 0);
    CHECK(c.actor.len == 1 && c.actor.ptr[0] == 'x');
    CHECK_EQ(c.slot_count, 3);
    CHECK_EQ(c.chain_count, 2);
    CHECK(c.slots[1].slot.len == 9 && memcmp(c.slots[1].slot.ptr, "Root_info", 9) == 0);
    CHECK_EQ(c.slots[2].chain, 1);
    CHECK_EQ(c.slots[0].actor_raw[2], '#'); /* the game's padding */
    CHECK(c.events_complete);
    CHECK_EQ(c.events_decoded, 8);
    CHECK_EQ(c.events[4].type, PLUMBOB_CLIP_EVENT_EFFECT);
    CHECK_EQ(c.events[4].hash[1], 0x2000u);
    CHECK(c.events[2].sound.len == 12 && memcmp(c.events[2].sound.ptr, "vo_synthetic", 12) == 0);
    CHECK_NEAR(c.events[5].visibility, 0.5, 0.0);
    CHECK_EQ(c.events[7].hash[0], 0x1007u);
    CHECK(c.events[6].name.len == 9 && memcmp(c.events[6].name.ptr, "event_nam", 9) == 0);
    /* every key decodes within half a quantum of the curve it came from */
    for (tr = 0; tr < TR_NULL_T; tr++) {
        const plumbob_clip_track *t = &c.tracks[tr];
        float quantum = t->scale / (t->curve == 0x14 ? 4095.0f : t->curve == 0x12 ? 1023.0f : 65535.0f);
        CHECK_EQ(t->key_count, NKEYS);
        for (k = 0; k < NKEYS; k++) {
            float want[4], got[4];
            uint16_t tick = 0xFFFF;
            CHECK_OK(plumbob_clip_key_value(&c, (uint32_t)tr, (uint32_t)k, &tick, got));
            CHECK_EQ(tick, k * 2);
            curve(tr, k, want);
            for (i = 0; i < t->components; i++) CHECK_NEAR(got[i], want[i], 0.5 * quantum + 1e-6);
            for (i = 0; i < t->components; i++) t_digest_f32(got[i]);
        }
    }
    /* decode -> write is byte-identical */
    CHECK_OK(plumbob_clip_write(&c, again, 65536, &n2));
    CHECK_EQ(n2, n);
    CHECK(memcmp(buf, again, n) == 0);
    t_digest_bytes(buf, n);
}

void test_clip_sampling_rules(void) {
    unsigned char *buf = t_scratch();
    size_t n = build_clip(buf, 65536);
    plumbob_clip c;
    float v[4], w[4];
    int k;
    CHECK_OK(decode(buf, n, &c));
    CHECK_NEAR(plumbob_clip_duration(&c), 61.0 / 30.0, 1e-6);
    /* clamping: before the first key and after the last */
    CHECK_OK(plumbob_clip_sample_track(&c, TR_LINEAR, -5.0f, v));
    CHECK_NEAR(v[0], 0.0, 0.002);
    CHECK_OK(plumbob_clip_sample_track(&c, TR_LINEAR, 100.0f, v));
    CHECK_NEAR(v[0], 3.0, 0.002);
    /* lerp between keys: tick 3 is halfway between keys 1 and 2 */
    CHECK_OK(plumbob_clip_sample_track(&c, TR_LINEAR, 3.0f / 30.0f, v));
    CHECK_NEAR(v[0], 0.15, 0.002);
    CHECK_NEAR(v[1], -0.075, 0.002);
    /* keyless tracks are constant: identity rotation, offset otherwise */
    CHECK_OK(plumbob_clip_sample_track(&c, TR_NULL_R, 1.0f, v));
    CHECK(v[0] == 0 && v[1] == 0 && v[2] == 0 && v[3] == 1);
    CHECK_OK(plumbob_clip_sample_track(&c, TR_NULL_T, 1.0f, v));
    CHECK(v[0] == 0.75f && v[1] == 0.75f && v[2] == 0.75f);
    CHECK_OK(plumbob_clip_sample_track(&c, TR_NULL_M, 1.0f, v));
    CHECK(v[0] == 0.25f);
    /* rotations are unit, and the q -> -q flips make no difference
     * (the shorter arc), so the flip track matches the plain Z track */
    for (k = 0; k <= 120; k++) {
        float t = (float)k / 60.0f;
        CHECK_OK(plumbob_clip_sample_track(&c, TR_ROT_Z, t, v));
        CHECK_OK(plumbob_clip_sample_track(&c, TR_FLIP, t, w));
        CHECK_NEAR(v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3], 1.0, 2e-6);
        if (w[3] * v[3] < 0) { w[0] = -w[0]; w[1] = -w[1]; w[2] = -w[2]; w[3] = -w[3]; }
        CHECK_NEAR(w[2], v[2], 1e-3);
        CHECK_NEAR(w[3], v[3], 1e-3);
        /* the angle follows the analytic curve (within quantization and nlerp) */
        {
            float a = t * 30.0f / 60.0f * PI_F / 2;
            if (a > PI_F / 2) a = PI_F / 2;
            CHECK_NEAR(v[2] < 0 ? -v[2] : v[2], sin_approx(a / 2), 2e-3);
        }
        t_digest_f32(v[2]);
        t_digest_f32(v[3]);
    }
    /* a sampled morph weight follows its ramp */
    CHECK_OK(plumbob_clip_sample_track(&c, TR_MORPH, 1.0f, v));
    CHECK_NEAR(v[0], 0.5, 1e-4);
    /* NaN time plays the first key, the infinities hold the ends; a bad
     * track index is refused and writes nothing */
    {
        volatile float zero = 0.0f;
        CHECK_OK(plumbob_clip_sample_track(&c, TR_LINEAR, zero / zero, v));
        CHECK_NEAR(v[0], 0.0, 0.002);
        CHECK_OK(plumbob_clip_sample_track(&c, TR_LINEAR, -1.0f / zero, v));
        CHECK_NEAR(v[0], 0.0, 0.002);
        CHECK_OK(plumbob_clip_sample_track(&c, TR_LINEAR, 1.0f / zero, v));
        CHECK_NEAR(v[0], 3.0, 0.002);
        CHECK_OK(plumbob_clip_sample_track(&c, TR_ROT_Z, 1.0f / zero, v));
        CHECK_NEAR(v[2], sin_approx(PI_F / 4), 2e-3);
        CHECK_OK(plumbob_clip_sample_track(&c, TR_ROT_Z, -1.0f / zero, v));
        CHECK_NEAR(v[2], 0.0, 2e-3);
        CHECK_NEAR(v[3], 1.0, 2e-6);
        v[0] = 42.0f;
        CHECK_EQ(plumbob_clip_sample_track(&c, 999, 1.0f, v), PLUMBOB_ERR_INVALID_ARGUMENT);
        CHECK(v[0] == 42.0f);
    }
}

/* plumbob_clip_key_value checks the track and the key against the clip:
 * out of range it refuses and writes nothing. */
void test_clip_key_value_checks(void) {
    unsigned char *buf = t_scratch();
    size_t n = build_clip(buf, 65536);
    plumbob_clip c;
    float v[4] = {9, 9, 9, 9};
    uint16_t tick = 777;
    CHECK_OK(decode(buf, n, &c));
    CHECK_OK(plumbob_clip_key_value(&c, TR_LINEAR, NKEYS - 1, &tick, v));
    CHECK_EQ(tick, (NKEYS - 1) * 2);
    CHECK_NEAR(v[0], 3.0, 0.002);
    CHECK_OK(plumbob_clip_key_value(&c, TR_LINEAR, 1, NULL, v)); /* the tick is optional */
    CHECK_NEAR(v[0], 0.1, 0.002);
    v[0] = v[1] = v[2] = v[3] = 9.0f;
    tick = 777;
    CHECK_EQ(plumbob_clip_key_value(&c, TR_LINEAR, NKEYS, &tick, v), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_clip_key_value(&c, TR_NULL_T, 0, &tick, v), PLUMBOB_ERR_INVALID_ARGUMENT); /* keyless */
    CHECK_EQ(plumbob_clip_key_value(&c, TRACKS, 0, &tick, v), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_clip_key_value(&c, 0xFFFFFFFFu, 0, &tick, v), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_clip_key_value(NULL, 0, 0, &tick, v), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_clip_key_value(&c, 0, 0, &tick, NULL), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK(v[0] == 9.0f && v[1] == 9.0f && v[2] == 9.0f && v[3] == 9.0f);
    CHECK_EQ(tick, 777);
    {
        /* Palette-coded keys (curve 3, type 0x103): v = palette[index], negated
         * when the key's sign bit for that component is set, then * scale +
         * offset (specs/NOTES.md).  Palette {0.25, -0.5, 0.75, 2}, scale 2,
         * offset 0.5; the wanted values are worked by hand from that rule. */
        static const float pal[4] = {0.25f, -0.5f, 0.75f, 2.0f};
        static const double want[2][3] = {
            {-0.25 * 2 + 0.5, -(-0.5) * 2 + 0.5, 0.75 * 2 + 0.5}, /* signs 0b011: x, y negated: 0, 1.5, 2 */
            {2.0 * 2 + 0.5, -2.0 * 2 + 0.5, -0.5 * 2 + 0.5},      /* signs 0b010: y negated: 4.5, -3.5, -0.5 */
        };
        unsigned char pal_bytes[16], keys[20], *out = t_scratch() + 65536;
        plumbob_clip pc, dc;
        plumbob_clip_track pt;
        size_t len = 0;
        uint32_t i;
        for (i = 0; i < 4; i++) pb_put_f32le(pal_bytes + 4 * i, pal[i]);
        /* key 0: tick 0, signs x and y, indices 0 1 2; key 1: tick 4, sign y, indices 3 3 1 */
        pb_put_le16(keys, 0); pb_put_le16(keys + 2, 0x3); pb_put_le16(keys + 4, 0); pb_put_le16(keys + 6, 1); pb_put_le16(keys + 8, 2);
        pb_put_le16(keys + 10, 4); pb_put_le16(keys + 12, 0x2); pb_put_le16(keys + 14, 3); pb_put_le16(keys + 16, 3); pb_put_le16(keys + 18, 1);
        memset(&pt, 0, sizeof pt);
        pt.hash = 0x556B181Au;
        pt.offset = 0.5f;
        pt.scale = 2.0f;
        pt.key_count = 2;
        pt.curve = 0x03;
        pt.target = PLUMBOB_CLIP_TARGET_TRANSLATION;
        pt.type = 0x103;
        pt.components = 3;
        pt.key_size = 10;
        pt.keys = keys;
        memset(&pc, 0, sizeof pc);
        pc.version = 2;
        pc.frame_duration = 1.0f / 30.0f;
        pc.tick_count = 5;
        pc.name.ptr = pc.source.ptr = pc.actor.ptr = "p";
        pc.name.len = pc.source.len = pc.actor.len = 1;
        pc.track_count = 1;
        pc.tracks = &pt;
        pc.palette_count = 4;
        pc.palette = pal_bytes;
        pc.event_version = 0x103;
        CHECK_OK(plumbob_clip_write(&pc, out, 4096, &len));
        CHECK_OK(decode(out, len, &dc));
        CHECK_EQ(dc.palette_count, 4);
        if (dc.track_count == 1 && dc.tracks[0].key_count == 2) {
            CHECK_EQ(dc.tracks[0].type, 0x103);
            for (i = 0; i < 2; i++) {
                CHECK_OK(plumbob_clip_key_value(&dc, 0, i, &tick, v));
                CHECK_EQ(tick, 4 * i);
                CHECK_NEAR(v[0], want[i][0], 1e-6);
                CHECK_NEAR(v[1], want[i][1], 1e-6);
                CHECK_NEAR(v[2], want[i][2], 1e-6);
            }
            /* halfway between the keys (tick 2): the mean of the two */
            CHECK_OK(plumbob_clip_sample_track(&dc, 0, 2.0f / 30.0f, v));
            for (i = 0; i < 3; i++) CHECK_NEAR(v[i], (want[0][i] + want[1][i]) / 2, 1e-5);
        } else {
            CHECK(!"the palette clip decodes with one track of two keys");
        }
    }
}

void test_clip_cursor_matches_random_access(void) {
    unsigned char *buf = t_scratch();
    size_t n = build_clip(buf, 65536);
    plumbob_clip c;
    plumbob_clip_cursor cur;
    plumbob_arena a;
    static const float times[] = {0.0f, 0.01f, 0.1f, 0.5f, 0.51f, 2.0f, 1.0f, 0.2f, 5.0f, 0.0f, 1.9f, 1.91f};
    size_t i;
    uint32_t tr;
    CHECK_OK(decode(buf, n, &c));
    plumbob_arena_init(&a, t_arena_mem() + 65536, 4096);
    CHECK_OK(plumbob_clip_cursor_init(&c, &a, &cur));
    for (i = 0; i < sizeof times / sizeof times[0]; i++) {
        for (tr = 0; tr < c.track_count; tr++) {
            float x[4] = {0, 0, 0, 0}, y[4] = {0, 0, 0, 0};
            CHECK_OK(plumbob_clip_sample_track(&c, tr, times[i], x));
            CHECK_OK(plumbob_clip_sample_track_cursor(&c, &cur, tr, times[i], y));
            CHECK(memcmp(x, y, sizeof x) == 0);
        }
    }
    /* forward playback at 60 Hz over the whole clip */
    for (i = 0; i < 130; i++) {
        float x[4], y[4];
        CHECK_OK(plumbob_clip_sample_track(&c, TR_SINE, (float)i / 60.0f, x));
        CHECK_OK(plumbob_clip_sample_track_cursor(&c, &cur, TR_SINE, (float)i / 60.0f, y));
        CHECK(x[0] == y[0]);
    }
    plumbob_arena_init(&a, t_arena_mem() + 65536, 4);
    CHECK_EQ(plumbob_clip_cursor_init(&c, &a, &cur), PLUMBOB_ERR_OUT_OF_MEMORY);
}

void test_clip_pose_binding(void) {
    unsigned char *buf = t_scratch();
    size_t n = build_clip(buf, 65536);
    plumbob_clip c;
    plumbob_clip_binding b;
    plumbob_arena a;
    plumbob_bone_pose poses[3];
    float morphs[2] = {-1, -1};
    /* the engine's rig: its own order, one bone the clip lacks */
    const uint32_t bones[3] = {0x99999999u, 0x6FA96266u, 0x57884BB9u};
    const uint32_t morph_hashes[2] = {0x12345678u, 0xABCDEF01u};
    CHECK_OK(decode(buf, n, &c));
    plumbob_arena_init(&a, t_arena_mem() + 65536, 4096);
    CHECK_OK(plumbob_clip_bind(&c, bones, 3, morph_hashes, 2, &a, &b));
    CHECK_EQ(b.bone_of_track[TR_LINEAR], 2);
    CHECK_EQ(b.bone_of_track[TR_ROT_X], 1);
    CHECK_EQ(b.bone_of_track[TR_CONST] + 1, 0);
    CHECK_EQ(b.morph_of_track[TR_MORPH], 1);
    memset(poses, 0, sizeof poses);
    poses[0].translation.x = 7.0f;
    CHECK_OK(plumbob_clip_sample_pose(&c, &b, NULL, 1.0f, poses, morphs));
    CHECK(poses[0].translation.x == 7.0f); /* untouched: not in the clip */
    CHECK_NEAR(poses[2].translation.x, 1.5, 0.002);
    CHECK_NEAR(poses[1].rotation.x, sin_approx(PI_F / 8), 2e-3);
    CHECK_NEAR(morphs[1], 0.5, 1e-4);
    CHECK(morphs[0] == -1.0f);
    t_digest_f32(poses[1].rotation.w);
}

void test_clip_events_window(void) {
    unsigned char *buf = t_scratch();
    size_t n = build_clip(buf, 65536);
    plumbob_clip c;
    uint32_t idx[8], count = 0;
    CHECK_OK(decode(buf, n, &c));
    /* events at 0, 0.25, ..., 1.75: [0.25, 0.75) holds 0.25 and 0.5 */
    CHECK_OK(plumbob_clip_events_between(&c, 0.25f, 0.75f, false, idx, 8, &count));
    CHECK_EQ(count, 2);
    CHECK_EQ(idx[0], 1);
    CHECK_EQ(idx[1], 2);
    /* consecutive windows fire each event exactly once */
    {
        int fired[8] = {0}, f;
        uint32_t i;
        for (f = 0; f < 130; f++) {
            CHECK_OK(plumbob_clip_events_between(&c, (float)f / 60.0f, (float)(f + 1) / 60.0f, false, idx, 8, &count));
            for (i = 0; i < count; i++) fired[idx[i]]++;
        }
        for (f = 0; f < 8; f++) CHECK_EQ(fired[f], 1);
    }
    /* looping wrap: [1.6, end) then [0, 0.3) */
    CHECK_OK(plumbob_clip_events_between(&c, 1.6f, 0.3f, true, idx, 8, &count));
    CHECK_EQ(count, 3);
    CHECK_EQ(idx[0], 0);
    CHECK_EQ(idx[1], 1);
    CHECK_EQ(idx[2], 7);
    CHECK_EQ(plumbob_clip_events_between(&c, 0.0f, 10.0f, false, idx, 3, &count), PLUMBOB_ERR_LIMIT_EXCEEDED);
    CHECK_EQ(count, 3);
    /* the payload sizes the writer lays out (clip import checks payloads against them) */
    CHECK_EQ(plumbob_clip_event_payload_size(PLUMBOB_CLIP_EVENT_ATTACH), 80);
    CHECK_EQ(plumbob_clip_event_payload_size(PLUMBOB_CLIP_EVENT_SOUND), 128);
    CHECK_EQ(plumbob_clip_event_payload_size(PLUMBOB_CLIP_EVENT_SCRIPT), 0);
    CHECK_EQ(plumbob_clip_event_payload_size(PLUMBOB_CLIP_EVENT_EFFECT), 24);
    CHECK_EQ(plumbob_clip_event_payload_size(PLUMBOB_CLIP_EVENT_STOP_EFFECT), 8);
    CHECK_EQ(plumbob_clip_event_payload_size(7), -1);
}

/* Decode every prefix and many bit flips: OK or a named error, and when OK
 * sampling every track must stay finite and in bounds (ASan watches). */
static void sample_all(const plumbob_clip *c) {
    uint32_t tr;
    int k;
    for (tr = 0; tr < c->track_count; tr++)
        for (k = 0; k < 4; k++) {
            float v[4] = {0, 0, 0, 0};
            CHECK_OK(plumbob_clip_sample_track(c, tr, (float)k * 0.7f, v));
        }
}

void test_clip_truncation_and_bitflips(void) {
    unsigned char *buf = t_scratch();
    size_t n = build_clip(buf, 65536), len, bit;
    int oks = 0;
    plumbob_clip c;
    for (len = 0; len < n; len++) {
        plumbob_result r = decode(buf, len, &c);
        CHECK(r != PLUMBOB_OK && (unsigned)r < PLUMBOB_RESULT_COUNT);
    }
    for (bit = 0; bit < n * 8; bit += 7) {
        plumbob_result r;
        buf[bit / 8] ^= (unsigned char)(1u << (bit % 8));
        r = decode(buf, n, &c);
        if (r == PLUMBOB_OK) {
            oks++;
            sample_all(&c);
        }
        buf[bit / 8] ^= (unsigned char)(1u << (bit % 8));
        CHECK((unsigned)r < PLUMBOB_RESULT_COUNT);
    }
    CHECK(oks > 0);
    t_digest_u32((uint32_t)oks);
}

void test_clip_malformed(void) {
    unsigned char *buf = t_scratch();
    size_t n = build_clip(buf, 65536);
    plumbob_clip c;
    plumbob_arena a;
    buf[0] ^= 1;
    CHECK_EQ(decode(buf, n, &c), PLUMBOB_ERR_BAD_MAGIC);
    buf[0] ^= 1;
    buf[56] = 'X'; /* _pilC3S_ */
    CHECK_EQ(decode(buf, n, &c), PLUMBOB_ERR_BAD_MAGIC);
    buf[56] = '_';
    buf[64] = 3; /* version */
    CHECK_EQ(decode(buf, n, &c), PLUMBOB_ERR_UNSUPPORTED_VERSION);
    buf[64] = 2;
    buf[56 + 48 + 20 + 18] = 0x16; /* track 1: data type 6 with keys */
    CHECK_EQ(decode(buf, n, &c), PLUMBOB_ERR_UNSUPPORTED);
    buf[56 + 48 + 20 + 18] = 0x12;
    {
        /* keys out of tick order: swap the first two ticks of track 1 */
        size_t k = 56 + (size_t)(buf[56 + 48 + 20] | buf[56 + 48 + 21] << 8);
        buf[k] = 5;
        CHECK_EQ(decode(buf, n, &c), PLUMBOB_ERR_BAD_DATA);
        buf[k] = 0;
    }
    buf[14] = 0xFF; /* S3Clip offset far past the end: the input ends early (issue 47) */
    CHECK_EQ(decode(buf, n, &c), PLUMBOB_ERR_TRUNCATED);
    buf[14] = 0;
    CHECK_OK(decode(buf, n, &c));
    plumbob_arena_init(&a, t_arena_mem(), 64);
    CHECK_EQ(plumbob_clip_decode(buf, n, &a, &c), PLUMBOB_ERR_OUT_OF_MEMORY);
    CHECK_EQ(a.used, 0); /* a failed decode gives its arena bytes back */
    CHECK_EQ(plumbob_clip_decode(NULL, n, &a, &c), PLUMBOB_ERR_INVALID_ARGUMENT);
    /* an unknown event type keeps the tracks and the events before it */
    {
        size_t ev = 24 + (size_t)(buf[24] | buf[25] << 8 | buf[26] << 16);
        size_t first = ev + 20, second = first + 28 + 4 + 80; /* attach event, name "eve" */
        buf[second] = 77;
        CHECK_OK(decode(buf, n, &c));
        CHECK(!c.events_complete);
        CHECK_EQ(c.events_decoded, 1);
        CHECK_EQ(c.track_count, TRACKS);
        buf[second] = 2;
    }
}

/* --- the sample packages ----------------------------------------------------- */

void test_clip_corpus(void) {
    static const char *pkgs[] = {"sims3/EWBreastfeed.package", "sims3/PetFightingSkill.package"};
    static const uint32_t want_events[] = {58, 78};
    size_t p;
    for (p = 0; p < 2; p++) {
        size_t size;
        unsigned char *data = t_corpus_load(pkgs[p], &size);
        plumbob_package pkg;
        uint32_t i, clips = 0, event_total = 0;
        if (!data) T_SKIP(t_corpus_missing());
        CHECK_OK(plumbob_package_open(&pkg, data, size));
        for (i = 0; i < pkg.count; i++) {
            plumbob_package_entry e;
            const unsigned char *res;
            size_t rs, need, wn = 0;
            unsigned char *buf, *mem, *out;
            plumbob_arena a;
            plumbob_clip c;
            uint32_t tr, k, last = 0;
            CHECK_OK(plumbob_package_entry_at(&pkg, i, &e));
            if (e.type != PLUMBOB_TYPE_CLIP) continue;
            clips++;
            buf = (unsigned char *)malloc(e.mem_size);
            CHECK_OK(plumbob_package_read(&pkg, &e, buf, e.mem_size, &res, &rs));
            CHECK_OK(plumbob_clip_measure(res, rs, &need));
            mem = (unsigned char *)malloc(need);
            plumbob_arena_init(&a, mem, need);
            CHECK_OK(plumbob_clip_decode(res, rs, &a, &c));
            CHECK(c.events_complete);
            event_total += c.events_decoded;
            for (tr = 0; tr < c.track_count; tr++) {
                const plumbob_clip_track *t = &c.tracks[tr];
                for (k = 0; k < t->key_count; k++) {
                    float v[4];
                    uint16_t tick = 0;
                    CHECK_OK(plumbob_clip_key_value(&c, tr, k, &tick, v));
                    if (tick > last) last = tick;
                    if (t->components == 4)
                        CHECK_NEAR(v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3], 1.0, 0.002);
                }
            }
            CHECK_EQ(c.tick_count, last + 1u);
            for (k = 0; k < 100; k++) { /* 100 sample times across the clip */
                float t = plumbob_clip_duration(&c) * (float)k / 99.0f;
                for (tr = 0; tr < c.track_count; tr++) {
                    float v[4] = {0, 0, 0, 0};
                    uint32_t j;
                    CHECK_OK(plumbob_clip_sample_track(&c, tr, t, v));
                    for (j = 0; j < c.tracks[tr].components; j++) {
                        CHECK(v[j] == v[j] && v[j] < 1e6f && v[j] > -1e6f);
                        if ((k % 33) == 0) t_digest_f32(v[j]);
                    }
                }
            }
            out = (unsigned char *)malloc(rs);
            CHECK_OK(plumbob_clip_write(&c, out, rs, &wn));
            CHECK_EQ(wn, rs);
            CHECK(memcmp(out, res, rs) == 0); /* byte-identical re-encode */
            t_digest_u32(c.track_count);
            t_digest_bytes(c.name.ptr, c.name.len);
            free(out);
            free(mem);
            free(buf);
        }
        CHECK_EQ(clips, p == 0 ? 9 : 10);
        CHECK_EQ(event_total, want_events[p]);
        free(data);
    }
}

/* Prefix and bit-flip sweeps over a real clip (strided: the clip is large). */
void test_clip_corpus_sweeps(void) {
    size_t size, rs, len, bit;
    unsigned char *data = t_corpus_load("sims3/EWBreastfeed.package", &size), *buf, *copy;
    plumbob_package pkg;
    plumbob_package_entry e;
    const unsigned char *res;
    plumbob_clip c;
    if (!data) T_SKIP(t_corpus_missing());
    CHECK_OK(plumbob_package_open(&pkg, data, size));
    CHECK_OK(plumbob_package_find(&pkg, PLUMBOB_TYPE_CLIP, 0, 0x7B3E677B55DC6E2Aull, &e, NULL));
    buf = (unsigned char *)malloc(e.mem_size);
    CHECK_OK(plumbob_package_read(&pkg, &e, buf, e.mem_size, &res, &rs));
    for (len = 0; len < rs; len += len < 8192 ? 1 : 61) {
        unsigned char *p = (unsigned char *)malloc(len ? len : 1); /* exactly len: ASan sees overreads */
        memcpy(p, res, len);
        CHECK(decode(p, len, &c) != PLUMBOB_OK);
        free(p);
    }
    copy = (unsigned char *)malloc(rs);
    memcpy(copy, res, rs);
    for (bit = 0; bit < rs * 8; bit += 97) {
        plumbob_result r;
        copy[bit / 8] ^= (unsigned char)(1u << (bit % 8));
        r = decode(copy, rs, &c);
        if (r == PLUMBOB_OK) sample_all(&c);
        CHECK((unsigned)r < PLUMBOB_RESULT_COUNT);
        copy[bit / 8] ^= (unsigned char)(1u << (bit % 8));
    }
    free(copy);
    free(buf);
    free(data);
}

void test_clip_error_sweep(void) {
    unsigned char *buf = t_scratch();
    size_t n = build_clip(buf, 65536);
    t_error_sweep("clip", buf, n);
}

/* The synthetic clip for other test files (test_finite.c). */
size_t t_build_clip(unsigned char *out, size_t cap) {
    return build_clip(out, cap);
}
