/* Sims 2 ANIM: a synthetic animation with every key encoding through
 * plumbob's writer, malformed inputs, sweeps, Euler angles, and the three
 * real animations (known values, byte-identical re-encode). */
#include <stdlib.h>
#include <string.h>
#include "test.h"
#include "pb_bytes.h"

/* One component per encoding: baked 8.7, 5.10, 3.12, f32; continuous 9.7,
 * 5.11, 3.13, f32; discontinuous 9.7, f32.  Values are exact in each. */
#define NCOMP 10
static const uint8_t packs[NCOMP] = {0x00, 0x04, 0x0C, 0x10, 0x01, 0x05, 0x0D, 0x11, 0x02, 0x12};
static const float vals[3] = {1.5f, -2.25f, 0.75f};
static const uint16_t times[3] = {0, 100, 250};
static unsigned char keybuf[NCOMP][3 * 10];
static unsigned char chain_rec[70], target_rec[43];

/* Encodes key k of a component into p (the writer copies key bytes). */
static size_t put_key(unsigned char *p, uint8_t packed, int k) {
    unsigned kind = packed & 3u, fmt = (packed >> 2) & 3u;
    static const float bscale[4] = {128, 1024, 0, 4096}, tscale[4] = {128, 2048, 0, 8192};
    if (kind == 0) {
        if (packed & 0x10) { pb_put_f32le(p, vals[k]); return 4; }
        pb_put_le16(p, (uint16_t)(int16_t)(vals[k] * bscale[fmt]));
        return 2;
    }
    if (packed & 0x10) {
        pb_put_le16(p, times[k]);
        pb_put_f32le(p + 2, vals[k]);
        p += 6;
    } else {
        int32_t v = (int32_t)(vals[k] * tscale[fmt]); /* 17 bits: low bit rides in the time word */
        pb_put_le16(p, (uint16_t)(times[k] | (uint16_t)((v & 1) << 15)));
        pb_put_le16(p + 2, (uint16_t)(int16_t)(v >> 1));
        p += 4;
    }
    pb_put_le16(p, 0x3C00); /* half 1.0: 1/150 per tick */
    if (kind == 2) pb_put_le16(p + 2, 0xC000); /* half -2.0 */
    return (packed & 0x10 ? 6u : 4u) + 2u * kind;
}

static size_t build_anim(unsigned char *out, size_t cap) {
    plumbob_anim a;
    plumbob_anim_target tg[2];
    plumbob_anim_channel ch[5];
    plumbob_anim_component co[NCOMP];
    plumbob_anim_ik_chain ik;
    plumbob_anim_ik_target it;
    plumbob_anim_event ev[2];
    uint32_t c, k, i;
    size_t n = 0;
    static const char *names[5] = {"root_rot", "root_trans", "spine_rot", "smile", "x"};
    memset(&a, 0, sizeof a);
    memset(tg, 0, sizeof tg);
    memset(ch, 0, sizeof ch);
    memset(co, 0, sizeof co);
    for (c = 0; c < NCOMP; c++) {
        size_t off = 0;
        co[c].key_count = 3;
        co[c].packed = packs[c];
        for (k = 0; k < 3; k++) off += put_key(keybuf[c] + off, packs[c], (int)k);
        co[c].key_size = (uint32_t)(off / 3);
        co[c].keys = keybuf[c];
    }
    /* channels: rotation (3 comps), translation (3), rotation (2 + 1 = 3), morph (1): 10 */
    for (i = 0; i < 4; i++) {
        uint32_t attr = i == 1 ? 1u : i == 3 ? 2u : 0u, comps = i == 3 ? 1u : 3u;
        ch[i].name.ptr = names[i];
        ch[i].name.len = strlen(names[i]);
        ch[i].crc = 0x1000u + i;
        ch[i].flags = 250u | 0x8000u | attr << 17 | (attr == 1 ? 4u : 3u) << 22 | 15u << 25 | comps << 29;
    }
    tg[0].name.ptr = "auskel";
    tg[0].name.len = 6;
    tg[0].kind = 1;
    tg[0].channel_count = 3;
    tg[0].ik_chain_count = 1;
    tg[0].unknown = 1;
    tg[1].name.ptr = "faceblends";
    tg[1].name.len = 10;
    tg[1].kind = 7;
    tg[1].channel_count = 1;
    tg[1].unknown = 1;
    memset(chain_rec, 0xA5, sizeof chain_rec);
    chain_rec[10] = 1; /* one IK target */
    memset(target_rec, 0x5A, sizeof target_rec);
    target_rec[10] = 0;
    target_rec[11] = 0; /* chain 0 */
    ik.record = chain_rec;
    ik.target_count = 1;
    it.record = target_rec;
    it.chain = 0;
    ev[0].time = 40; ev[0].type = 1014; ev[0].text.ptr = "sound_name=boing\n"; ev[0].text.len = 17;
    ev[1].time = 200; ev[1].type = 8; ev[1].text.ptr = "effect=sparkle\n"; ev[1].text.len = 15;
    a.duration = 251;
    a.version = 7;
    a.type = 7;
    a.priority = 2;
    for (i = 0; i < 9; i++) a.params[i] = (float)i * 0.5f;
    a.skeleton.ptr = "auskel";
    a.skeleton.len = 6;
    a.data_string.ptr = "x=1";
    a.data_string.len = 3;
    a.head.resource_name.ptr = "a-test-anim_anim";
    a.head.resource_name.len = 16;
    a.target_count = 2;
    a.targets = tg;
    a.channel_count = 4;
    a.channels = ch;
    a.component_count = NCOMP;
    a.components = co;
    a.ik_chain_count = 1;
    a.ik_chains = &ik;
    a.ik_target_count = 1;
    a.ik_targets = &it;
    a.event_count = 2;
    a.events = ev;
    if (plumbob_anim_write_size(&a) > cap) return 0;
    if (plumbob_anim_write(&a, out, cap, &n) != PLUMBOB_OK) return 0;
    return n;
}

static plumbob_result decode(const unsigned char *d, size_t n, plumbob_anim *a) {
    plumbob_arena arena;
    plumbob_arena_init(&arena, t_arena_mem(), 256 * 1024);
    return plumbob_anim_decode(d, n, &arena, a);
}

void test_anim_synthetic_round_trip(void) {
    unsigned char *buf = t_scratch(), *again = t_work();
    size_t n = build_anim(buf, 65536), m = 0, need = 0;
    plumbob_anim a;
    uint32_t c, k;
    CHECK(n > 0);
    CHECK_OK(plumbob_anim_measure(buf, n, &need));
    CHECK(need > 0 && need < 4096);
    CHECK_OK(decode(buf, n, &a));
    CHECK_EQ(need, PLUMBOB_ANIM_DECODE_SIZE(a.target_count, a.channel_count, a.component_count, a.ik_chain_count,
                                            a.ik_target_count, a.event_count));
    CHECK_EQ(a.duration, 251);
    CHECK_EQ(a.version, 7);
    CHECK_EQ(a.target_count, 2);
    CHECK_EQ(a.channel_count, 4);
    CHECK_EQ(a.component_count, NCOMP);
    CHECK_EQ(a.targets[1].first_channel, 3);
    CHECK_EQ(a.channels[3].target, 1);
    CHECK_EQ(a.components[9].channel, 3);
    CHECK(a.skeleton.len == 6 && memcmp(a.skeleton.ptr, "auskel", 6) == 0);
    CHECK(a.data_string.len == 3 && memcmp(a.data_string.ptr, "x=1", 3) == 0);
    CHECK(a.channels[2].name.len == 9 && memcmp(a.channels[2].name.ptr, "spine_rot", 9) == 0);
    CHECK_EQ(a.ik_chain_count, 1);
    CHECK_EQ(a.ik_target_count, 1);
    CHECK_EQ(a.event_count, 2);
    CHECK_EQ(a.events[1].type, 8);
    CHECK(a.events[0].text.len == 17 && memcmp(a.events[0].text.ptr, "sound_name=boing\n", 17) == 0);
    for (c = 0; c < NCOMP; c++)
        for (k = 0; k < 3; k++) {
            plumbob_anim_key key = plumbob_anim_key_at(&a, c, k);
            CHECK_NEAR(key.value, vals[k], 0.0);
            if ((packs[c] & 3) == 0) {
                CHECK_NEAR(key.time, 125.0 * k, 1e-4); /* evenly over the channel's 250 ticks */
            } else {
                CHECK_NEAR(key.time, times[k], 0.0);
                CHECK_NEAR(key.tangent_in, 1.0 / 150.0, 1e-9);
                CHECK_NEAR(key.tangent_out, (packs[c] & 3) == 2 ? -2.0 / 150.0 : 1.0 / 150.0, 1e-9);
            }
            t_digest_f32(key.value);
            t_digest_f32(key.time);
        }
    CHECK_OK(plumbob_anim_write(&a, again, 800 * 1024, &m));
    CHECK_EQ(m, n);
    CHECK(memcmp(again, buf, n) == 0);
}

void test_anim_sampling(void) {
    unsigned char *buf = t_scratch();
    size_t n = build_anim(buf, 65536);
    plumbob_anim a;
    float out[8];
    plumbob_quat q;
    CHECK_OK(decode(buf, n, &a));
    /* keys are hit exactly, and held outside */
    CHECK_NEAR(plumbob_anim_sample_component(&a, 5, 100.0f), -2.25, 0.0);
    CHECK_NEAR(plumbob_anim_sample_component(&a, 5, -10.0f), 1.5, 0.0);
    CHECK_NEAR(plumbob_anim_sample_component(&a, 5, 900.0f), 0.75, 0.0);
    /* baked: linear between evenly spaced keys (component 4 is translation: plain) */
    CHECK_NEAR(plumbob_anim_sample_component(&a, 0, 62.5f), (1.5 - 2.25) / 2, 1e-6);
    /* Hermite at the middle of 0..100 (values 1.5 -> -2.25, tangents 1/150 per tick):
     * 0.5 (v0 + v1) + 0.125 dt (m0 - m1) = -0.375 + 0.125 * 100 * 0 */
    CHECK_NEAR(plumbob_anim_sample_component(&a, 4, 50.0f), -0.375, 1e-6);
    /* discontinuous: out tangent of key 0 (-2/150), in tangent of key 1 (1/150) */
    CHECK_NEAR(plumbob_anim_sample_component(&a, 8, 50.0f), -0.375 + 0.125 * 100 * (-2.0 / 150 - 1.0 / 150), 1e-6);
    /* a rotation channel's angles turn into a unit quaternion */
    CHECK_EQ(plumbob_anim_sample_channel(&a, 0, 100.0f, out, &q), 3);
    CHECK_NEAR(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w, 1.0, 1e-6);
    t_digest_f32(q.x);
    t_digest_f32(q.w);
    CHECK_EQ(plumbob_anim_sample_channel(&a, 9, 0.0f, out, NULL), 0);
}

/* Indices the caller passes are checked: out of range the accessors read
 * nothing and give their documented safe values; any time is defined; the
 * measure query stores SIZE_MAX, never 0, for bytes it refuses. */
void test_anim_index_and_time_checks(void) {
    unsigned char *buf = t_scratch();
    size_t n = build_anim(buf, 65536), need = 0;
    plumbob_anim a;
    plumbob_anim_key key;
    float out[8] = {5, 5, 5, 5, 5, 5, 5, 5};
    volatile float zero = 0.0f;
    CHECK_OK(decode(buf, n, &a));
    key = plumbob_anim_key_at(&a, 5, 2); /* in range: the last key */
    CHECK_NEAR(key.value, 0.75, 0.0);
    key = plumbob_anim_key_at(&a, 5, 3); /* k == key_count */
    CHECK(key.time == 0.0f && key.value == 0.0f && key.tangent_in == 0.0f && key.tangent_out == 0.0f);
    key = plumbob_anim_key_at(&a, NCOMP, 0); /* c == component_count */
    CHECK(key.time == 0.0f && key.value == 0.0f);
    key = plumbob_anim_key_at(&a, 0xFFFFFFFFu, 0xFFFFFFFFu);
    CHECK(key.value == 0.0f);
    key = plumbob_anim_key_at(NULL, 0, 0);
    CHECK(key.value == 0.0f);
    CHECK(plumbob_anim_sample_component(&a, NCOMP, 10.0f) == 0.0f);
    CHECK(plumbob_anim_sample_component(NULL, 0, 10.0f) == 0.0f);
    CHECK_EQ(plumbob_anim_sample_channel(&a, a.channel_count, 0.0f, out, NULL), 0);
    CHECK_EQ(plumbob_anim_sample_channel(&a, 0, 0.0f, NULL, NULL), 0);
    CHECK(out[0] == 5.0f && out[7] == 5.0f);
    /* NaN plays the first key; the infinities hold the ends (timed and baked) */
    CHECK_NEAR(plumbob_anim_sample_component(&a, 5, zero / zero), 1.5, 0.0);
    CHECK_NEAR(plumbob_anim_sample_component(&a, 5, -1.0f / zero), 1.5, 0.0);
    CHECK_NEAR(plumbob_anim_sample_component(&a, 5, 1.0f / zero), 0.75, 0.0);
    CHECK_NEAR(plumbob_anim_sample_component(&a, 0, zero / zero), 1.5, 0.0);
    CHECK_NEAR(plumbob_anim_sample_component(&a, 0, -1.0f / zero), 1.5, 0.0);
    CHECK_NEAR(plumbob_anim_sample_component(&a, 0, 1.0f / zero), 0.75, 0.0);
    /* the measure query: SIZE_MAX with the error */
    CHECK(plumbob_anim_measure(buf, 20, &need) != PLUMBOB_OK);
    CHECK_EQ(need, SIZE_MAX);
    need = 0;
    CHECK_EQ(plumbob_anim_measure(NULL, n, &need), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(need, SIZE_MAX);
}

/* Euler angles against a double-precision q = qz qy qx (X applied first). */
void test_anim_euler(void) {
    static const float angles[4][3] = {{90, 0, 0}, {0, 0, 90}, {30, -45, 120}, {-170, 200, 725}};
    int i;
    for (i = 0; i < 4; i++) {
        /* the composition rule, checked through single-axis rotations */
        plumbob_quat q = plumbob_anim_euler_to_quat(angles[i][0], angles[i][1], angles[i][2]);
        plumbob_quat qx = plumbob_anim_euler_to_quat(angles[i][0], 0, 0);
        plumbob_quat qy = plumbob_anim_euler_to_quat(0, angles[i][1], 0);
        plumbob_quat qz = plumbob_anim_euler_to_quat(0, 0, angles[i][2]);
        plumbob_quat want = plumbob_quat_mul(qz, plumbob_quat_mul(qy, qx));
        double dot = (double)q.x * want.x + (double)q.y * want.y + (double)q.z * want.z + (double)q.w * want.w;
        CHECK_NEAR(dot < 0 ? -dot : dot, 1.0, 1e-6);
        t_digest_f32(q.w);
    }
    /* single axes against exact values */
    {
        plumbob_quat q = plumbob_anim_euler_to_quat(90, 0, 0);
        CHECK_NEAR(q.x, 0.70710678, 1e-6);
        CHECK_NEAR(q.w, 0.70710678, 1e-6);
        q = plumbob_anim_euler_to_quat(0, 0, 60);
        CHECK_NEAR(q.z, 0.5, 1e-6);
        CHECK_NEAR(q.w, 0.86602540, 1e-6);
        q = plumbob_anim_euler_to_quat(0, 180, 0);
        CHECK_NEAR(q.y < 0 ? -q.y : q.y, 1.0, 1e-6);
    }
}

/* Byte offset of the first string section (after the 9 floats). */
static size_t strings_at(const unsigned char *buf, size_t n) {
    plumbob_anim a;
    if (decode(buf, n, &a) != PLUMBOB_OK) return 0;
    return (size_t)((const unsigned char *)a.skeleton.ptr - buf);
}

void test_anim_malformed(void) {
    unsigned char *buf = t_scratch();
    size_t n = build_anim(buf, 65536), s = strings_at(buf, n);
    plumbob_anim a;
    CHECK(s > 40);
    /* the pad after "auskel\0x=1\0" (11 bytes, odd: 3 pad bytes 0 1 2) */
    CHECK_EQ(buf[s + 11], 0);
    CHECK_EQ(buf[s + 13], 2);
    buf[s + 13] = 7;
    CHECK_EQ(decode(buf, n, &a), PLUMBOB_ERR_BAD_DATA);
    buf[s + 13] = 2;
    /* the skeleton tag's stored length must end at its NUL */
    buf[s - 36 - 16 - 1]++;
    CHECK_EQ(decode(buf, n, &a), PLUMBOB_ERR_BAD_DATA);
    buf[s - 36 - 16 - 1]--;
    CHECK_OK(decode(buf, n, &a));
    buf[s - 36 - 16] ^= 1; /* a filler word */
    CHECK_EQ(decode(buf, n, &a), PLUMBOB_ERR_BAD_DATA);
    buf[s - 36 - 16] ^= 1;
    {   /* the size field */
        size_t at = s - 36 - 16 - 6 - 6 - 4;
        buf[at]++; /* more bytes than there are: the input ends early (issue 47) */
        CHECK_EQ(decode(buf, n, &a), PLUMBOB_ERR_TRUNCATED);
        buf[at]--;
    }
    {   /* key encoding 3, fixed-point choice 2, keys out of order, bad IK chain index */
        unsigned char save;
        uint32_t c = 4;
        CHECK_OK(decode(buf, n, &a));
        {
            size_t comp_rec = (size_t)((a.components[0].keys - buf)) - 8u * NCOMP; /* the component table */
            save = buf[comp_rec + 8 * c + 2];
            buf[comp_rec + 8 * c + 2] = 0x03;
            CHECK_EQ(decode(buf, n, &a), PLUMBOB_ERR_BAD_DATA);
            buf[comp_rec + 8 * c + 2] = 0x09;
            CHECK_EQ(decode(buf, n, &a), PLUMBOB_ERR_UNSUPPORTED);
            buf[comp_rec + 8 * c + 2] = save;
        }
        CHECK_OK(decode(buf, n, &a));
        {
            unsigned char *k1 = buf + (a.components[c].keys - buf) + a.components[c].key_size; /* key 1 time */
            uint16_t t = pb_le16(k1);
            pb_put_le16(k1, (uint16_t)((t & 0x8000u) | 300u)); /* after key 2's 250 */
            CHECK_EQ(decode(buf, n, &a), PLUMBOB_ERR_BAD_DATA);
            pb_put_le16(k1, t);
        }
        CHECK_OK(decode(buf, n, &a));
        {
            unsigned char *rec = buf + (a.ik_targets[0].record - buf);
            rec[10] = 1;
            CHECK_EQ(decode(buf, n, &a), PLUMBOB_ERR_BAD_INDEX);
            rec[10] = 0;
        }
    }
    CHECK_OK(decode(buf, n, &a));
    CHECK_EQ(plumbob_anim_decode(NULL, n, NULL, &a), PLUMBOB_ERR_INVALID_ARGUMENT);
    {   /* a GMDC block id in the RCOL is not an ANIM */
        unsigned char save[4];
        memcpy(save, buf + 12, 4);
        pb_put_le32(buf + 12, PLUMBOB_TYPE_GMDC);
        CHECK_EQ(decode(buf, n, &a), PLUMBOB_ERR_BAD_MAGIC);
        memcpy(buf + 12, save, 4);
    }
}

void test_anim_truncation_and_bitflips(void) {
    unsigned char *buf = t_scratch();
    size_t n = build_anim(buf, 65536), len, bit;
    int oks = 0;
    plumbob_anim a;
    for (len = 0; len < n; len++) {
        plumbob_result r = decode(buf, len, &a);
        CHECK(r != PLUMBOB_OK && (unsigned)r < PLUMBOB_RESULT_COUNT);
    }
    for (bit = 0; bit < n * 8; bit++) {
        plumbob_result r;
        buf[bit / 8] ^= (unsigned char)(1u << (bit % 8));
        r = decode(buf, n, &a);
        if (r == PLUMBOB_OK) { /* whatever decoded must sample without harm */
            uint32_t c;
            for (c = 0; c < a.component_count; c++) t_digest_f32(plumbob_anim_sample_component(&a, c, 77.0f));
        }
        buf[bit / 8] ^= (unsigned char)(1u << (bit % 8));
        CHECK((unsigned)r < PLUMBOB_RESULT_COUNT);
        oks += r == PLUMBOB_OK;
    }
    CHECK(oks > 0);
    t_digest_u32((uint32_t)oks);
}

/* The three real animations: known values, byte-identical re-encode, and
 * Hermite curves that stay within the scale of their keys. */
void test_anim_corpus(void) {
    size_t size, rs, need, wn;
    unsigned char *data = t_corpus_load("sims2/animation.package", &size), *mem, *out;
    plumbob_package pkg;
    uint32_t e, seen = 0;
    if (!data) T_SKIP(t_corpus_missing());
    CHECK_OK(plumbob_package_open(&pkg, data, size));
    for (e = 0; e < pkg.count; e++) {
        plumbob_package_entry ent;
        const unsigned char *res;
        plumbob_anim a;
        plumbob_arena arena;
        uint32_t c, k;
        CHECK_OK(plumbob_package_entry_at(&pkg, e, &ent));
        if (ent.type != PLUMBOB_TYPE_ANIM) continue;
        CHECK_OK(plumbob_package_read(&pkg, &ent, NULL, 0, &res, &rs));
        CHECK_OK(plumbob_anim_measure(res, rs, &need));
        mem = (unsigned char *)malloc(need);
        plumbob_arena_init(&arena, mem, need);
        CHECK_OK(plumbob_anim_decode(res, rs, &arena, &a));
        seen++;
        /* filed under its name's Sims 2 instance, in the local group */
        CHECK_EQ(plumbob_sims2_instance(a.head.resource_name.ptr, a.head.resource_name.len), ent.instance);
        CHECK_EQ(ent.group, PLUMBOB_SIMS2_LOCAL_GROUP);
        t_digest_u32(a.duration);
        t_digest_u32(a.component_count);
        CHECK(a.duration == 2175 || a.duration == 867 || a.duration == 3400);
        out = (unsigned char *)malloc(rs);
        wn = 0;
        CHECK_OK(plumbob_anim_write(&a, out, rs, &wn));
        CHECK_EQ(wn, rs);
        CHECK(memcmp(out, res, rs) == 0);
        free(out);
        for (c = 0; c < a.channel_count; c++) {
            const plumbob_anim_channel *ch = &a.channels[c];
            if (ch->name.len == 10 && memcmp(ch->name.ptr, "body_trans", 10) == 0 && a.duration == 867) {
                uint32_t ci = ch->first_component + 2;
                plumbob_anim_key k0 = plumbob_anim_key_at(&a, ci, 0), k1 = plumbob_anim_key_at(&a, ci, 1),
                                 k2 = plumbob_anim_key_at(&a, ci, 2);
                CHECK_EQ(a.components[ci].key_count, 3);
                CHECK_NEAR(k0.time, 0, 0); CHECK_NEAR(k0.value, 0.931, 0.0005);
                CHECK_NEAR(k1.time, 112, 0); CHECK_NEAR(k1.value, 0.936, 0.0005);
                CHECK_NEAR(k2.time, 286, 0); CHECK_NEAR(k2.value, 0.930, 0.0005);
                CHECK_NEAR(plumbob_anim_sample_component(&a, ci, 112.0f), k1.value, 0.0);
            }
        }
        /* every timed curve stays within its keys' range widened by a
         * quarter of that range and 5 mm (tangents read in the wrong unit
         * overshoot by whole units) */
        for (c = 0; c < a.component_count; c++) {
            const plumbob_anim_component *co = &a.components[c];
            float lo = 1e30f, hi = -1e30f, t;
            if ((co->packed & 3) == 0 || co->key_count < 2) continue;
            if (PLUMBOB_ANIM_ATTRIBUTE(a.channels[co->channel].flags) == PLUMBOB_ANIM_ATTR_ROTATION) continue;
            for (k = 0; k < co->key_count; k++) {
                float v = plumbob_anim_key_at(&a, c, k).value;
                if (v < lo) lo = v;
                if (v > hi) hi = v;
            }
            for (t = 0; t <= (float)a.duration; t += 7.0f) {
                float v = plumbob_anim_sample_component(&a, c, t), slack = (hi - lo) * 0.25f + 0.005f; /* plus quantization noise on flat curves */
                CHECK(v >= lo - slack && v <= hi + slack);
            }
            t_digest_f32(plumbob_anim_sample_component(&a, c, 500.0f));
        }
        free(mem);
    }
    CHECK_EQ(seen, 3);
    free(data);
}

void test_anim_error_sweep(void) {
    unsigned char *buf = t_scratch();
    size_t n = build_anim(buf, 65536);
    t_error_sweep("anim", buf, n);
}

/* The synthetic ANIM for other test files (test_finite.c). */
size_t t_build_anim(unsigned char *out, size_t cap) {
    return build_anim(out, cap);
}
