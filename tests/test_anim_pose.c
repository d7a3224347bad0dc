/* Sims 2 ANIM playback (plumbob/runtime.h Chapter 18b): binding rules and
 * report on a hand-built ANIM (unknown channel, a second channel for a
 * bone, an IK chain member, an IK weight, a non-Euler rotation, morphs),
 * the sampler against plumbob_anim_sample_channel bit for bit, in every
 * time order, output-too-small, and the three real animations on a
 * skeleton of the Sims 2 adult bone names. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "test.h"
#include "pb_bytes.h"
#include "pb_curve.h"
#include "kernels.h"

/* A caller-made CRES skeleton view: bones in a chain, identity rests
 * translated 0.1 up, scale 1.  Only names, parents and rests are read. */
#define MAX_BONES 64
typedef struct skel {
    plumbob_cres_skeleton sk;
    int32_t parent[MAX_BONES];
    plumbob_bone_pose rest[MAX_BONES];
    plumbob_string name[MAX_BONES];
} skel;

static void make_skel(skel *s, const char *const *names, uint32_t n) {
    uint32_t i;
    memset(s, 0, sizeof *s);
    for (i = 0; i < n; i++) {
        s->parent[i] = (int32_t)i - 1;
        s->rest[i].rotation = plumbob_quat_identity();
        s->rest[i].translation.z = 0.1f * (float)i;
        s->rest[i].scale.x = s->rest[i].scale.y = s->rest[i].scale.z = 1.0f;
        s->name[i].ptr = names[i];
        s->name[i].len = strlen(names[i]);
    }
    s->sk.skeleton.bone_count = n;
    s->sk.skeleton.parent = s->parent;
    s->sk.skeleton.rest = s->rest;
    s->sk.skeleton.name = s->name;
}

static bool same_bits(float a, float b) {
    uint32_t x, y;
    memcpy(&x, &a, 4);
    memcpy(&y, &b, 4);
    return x == y;
}

/* Every bound channel of the sampler's pose at t equals
 * plumbob_anim_sample_channel's value bit for bit; every other bone is at
 * rest.  Returns the mismatches. */
static uint32_t compare_at(plumbob_anim_sampler *s, const plumbob_anim_binding *b, float t,
                           plumbob_bone_pose *poses, float *weights) {
    const plumbob_anim *a = b->anim;
    uint32_t ch, bad = 0, i;
    unsigned char driven[MAX_BONES * 2];
    memset(driven, 0, sizeof driven);
    if (plumbob_anim_sampler_sample(s, t, poses, b->bone_count, weights, b->morph_count) != PLUMBOB_OK) return 1000;
    for (ch = 0; ch < a->channel_count; ch++) {
        float v[8];
        plumbob_quat q = plumbob_quat_identity();
        int32_t slot = b->slot[ch];
        if (b->status[ch] != PLUMBOB_ANIM_CHANNEL_BONE && b->status[ch] != PLUMBOB_ANIM_CHANNEL_MORPH) continue;
        plumbob_anim_sample_channel(a, ch, t, v, &q);
        if (b->status[ch] == PLUMBOB_ANIM_CHANNEL_MORPH) {
            bad += !same_bits(weights[slot], v[0]);
        } else if (PLUMBOB_ANIM_ATTRIBUTE(a->channels[ch].flags) == PLUMBOB_ANIM_ATTR_ROTATION) {
            const plumbob_quat *p = &poses[slot].rotation;
            bad += !same_bits(p->x, q.x) || !same_bits(p->y, q.y) || !same_bits(p->z, q.z) || !same_bits(p->w, q.w);
            driven[2 * slot] = 1;
        } else {
            const plumbob_vec3 *p = &poses[slot].translation;
            bad += !same_bits(p->x, v[0]) || !same_bits(p->y, v[1]) || !same_bits(p->z, v[2]);
            driven[2 * slot + 1] = 1;
        }
    }
    for (i = 0; i < b->bone_count && i < MAX_BONES; i++) {
        const plumbob_bone_pose *r = &b->skeleton->skeleton.rest[i];
        if (!driven[2 * i] && memcmp(&poses[i].rotation, &r->rotation, sizeof r->rotation) != 0) bad++;
        if (!driven[2 * i + 1] && memcmp(&poses[i].translation, &r->translation, sizeof r->translation) != 0) bad++;
        if (memcmp(&poses[i].scale, &r->scale, sizeof r->scale) != 0) bad++;
    }
    return bad;
}

/* The times every sampler is checked at: forward, then back, jumps, holds. */
static uint32_t compare_everywhere(plumbob_anim_sampler *s, const plumbob_anim_binding *b,
                                   plumbob_bone_pose *poses, float *weights) {
    uint32_t bad = 0, i;
    float d = (float)b->anim->duration, t;
    uint32_t seed = 47u;
    for (t = 0.0f; t <= d + 40.0f; t += 1000.0f / 30.0f) bad += compare_at(s, b, t, poses, weights);
    for (t = d; t >= -10.0f; t -= 51.5f) bad += compare_at(s, b, t, poses, weights);
    for (i = 0; i < 200; i++) bad += compare_at(s, b, (float)(t_rand(&seed) % (b->anim->duration + 200u)) - 100.0f + 0.25f, poses, weights);
    bad += compare_at(s, b, pb_f32_from_bits(0x7FC00000u), poses, weights); /* NaN */
    bad += compare_at(s, b, pb_f32_from_bits(0x7F800000u), poses, weights); /* +inf */
    bad += compare_at(s, b, pb_f32_from_bits(0xFF800000u), poses, weights); /* -inf */
    bad += compare_at(s, b, 0.0f, poses, weights);
    return bad;
}

/* A scheduled sampler of binding b (plumbob_anim_schedule_build, then
 * plumbob_anim_sampler_init_scheduled in exactly the bytes the size calls
 * promise): the reference's bits forward at 60 Hz twice over (a loop),
 * every half tick (each key's own time), and in every time order
 * (compare_everywhere).  Returns the mismatches. */
static uint32_t check_scheduled(const plumbob_anim_binding *b, plumbob_bone_pose *poses, float *weights) {
    plumbob_anim_schedule sch;
    plumbob_anim_sampler smp;
    plumbob_arena arena;
    size_t ns = plumbob_anim_schedule_size(b), nsmp = plumbob_anim_sampler_size(b);
    unsigned char *m1, *m2;
    uint32_t bad = 0, pass;
    float t, d = (float)b->anim->duration;
    if (ns == SIZE_MAX || nsmp == SIZE_MAX) return 1000;
    if (nsmp > PLUMBOB_ANIM_SAMPLER_SIZE(b->anim->channel_count, b->anim->component_count)) bad++;
    m1 = (unsigned char *)malloc(ns + 1u);
    m2 = (unsigned char *)malloc(nsmp + 1u);
    plumbob_arena_init(&arena, m1, ns);
    if (plumbob_anim_schedule_build(b, &arena, &sch) != PLUMBOB_OK) {
        bad += 1000;
    } else {
        plumbob_arena_init(&arena, m2, nsmp);
        if (plumbob_anim_sampler_init_scheduled(&sch, &arena, &smp) != PLUMBOB_OK) {
            bad += 1000;
        } else {
            for (pass = 0; pass < 2u; pass++)
                for (t = -20.0f; t <= d + 60.0f; t += 1000.0f / 60.0f) bad += compare_at(&smp, b, t, poses, weights);
            for (t = -2.0f; t <= d + 2.0f && t < 4000.0f; t += 0.5f) bad += compare_at(&smp, b, t, poses, weights);
            bad += compare_everywhere(&smp, b, poses, weights);
            for (t = d + 2.0f; t >= -2.0f; t -= 7.25f) bad += compare_at(&smp, b, t, poses, weights); /* backward */
        }
    }
    free(m1);
    free(m2);
    return bad;
}

/* --- the hand-built ANIM --------------------------------------------- */

#define HC 8   /* channels */
#define HK 20  /* components */
static unsigned char hkeys[HK][8];
static const char *const hnames[HC] = {"root_rot", "ROOT_trans", "root", "l_upperarm",
                                       "l_handcontrol0_a", "mystery", "fat", "thin_rot"};

/* f32 baked keys, two per component (one for the constants); channel i:
 * attribute, value type, IK chain, components. */
static void make_anim(plumbob_anim *a, plumbob_anim_channel *ch, plumbob_anim_component *co) {
    static const uint32_t attr[HC] = {0, 1, 0, 0, 3, 0, 2, 0}, type[HC] = {3, 4, 3, 3, 0, 3, 0, 4},
                          ik[HC] = {15, 15, 15, 3, 15, 15, 15, 15}, n[HC] = {3, 3, 3, 3, 1, 3, 1, 3};
    uint32_t i, k, c = 0;
    memset(a, 0, sizeof *a);
    memset(ch, 0, sizeof(*ch) * HC);
    memset(co, 0, sizeof(*co) * HK);
    for (i = 0; i < HC; i++) {
        ch[i].name.ptr = hnames[i];
        ch[i].name.len = strlen(hnames[i]);
        ch[i].flags = 100u | 0x8000u | attr[i] << 17 | type[i] << 22 | ik[i] << 25 | n[i] << 29;
        ch[i].first_component = c;
        for (k = 0; k < n[i]; k++, c++) {
            co[c].channel = i;
            co[c].packed = PLUMBOB_ANIM_BAKED | PLUMBOB_ANIM_F32;
            co[c].key_size = 4;
            co[c].key_count = (uint16_t)(c % 4u == 3u ? 1u : 2u);
            co[c].keys = hkeys[c];
            pb_put_f32le(hkeys[c], 10.0f * (float)c - 30.0f);
            pb_put_f32le(hkeys[c] + 4, attr[i] == 0 ? 170.0f - 20.0f * (float)k : 0.01f * (float)c);
        }
    }
    a->duration = 100;
    a->channel_count = HC;
    a->component_count = HK;
    a->channels = ch;
    a->components = co;
}

void test_anim_pose_rules(void) {
    static const char *const bones[4] = {"root", "spine", "l_upperarm", "l_hand"};
    static plumbob_string morph_names[6];
    static skel s;
    plumbob_anim a;
    plumbob_anim_channel ch[HC];
    plumbob_anim_component co[HK];
    plumbob_gmdc mesh;
    plumbob_arena arena;
    plumbob_anim_binding b;
    plumbob_anim_sampler smp;
    plumbob_bone_pose poses[4];
    float weights[3] = {-1.0f, -1.0f, -1.0f};
    static const uint8_t want[HC] = {PLUMBOB_ANIM_CHANNEL_BONE, PLUMBOB_ANIM_CHANNEL_BONE, PLUMBOB_ANIM_CHANNEL_SECOND,
                                     PLUMBOB_ANIM_CHANNEL_BONE, PLUMBOB_ANIM_CHANNEL_OTHER, PLUMBOB_ANIM_CHANNEL_NO_BONE,
                                     PLUMBOB_ANIM_CHANNEL_MORPH, PLUMBOB_ANIM_CHANNEL_SHAPE};
    static const int32_t want_slot[HC] = {0, 0, -1, 2, -1, -1, 1, -1};
    uint32_t i;
    size_t need;
    make_skel(&s, bones, 4);
    make_anim(&a, ch, co);
    memset(&mesh, 0, sizeof mesh);
    morph_names[3].ptr = "Fat";   /* pair 1: second name, any case */
    morph_names[3].len = 3;
    morph_names[4].ptr = "fat";   /* pair 2: the first name only: not matched */
    morph_names[4].len = 3;
    mesh.morph_count = 3;
    mesh.morph_names = morph_names;
    plumbob_arena_init(&arena, t_arena_mem(), T_ARENA_SIZE);
    need = plumbob_anim_bind_size(&a);
    CHECK_EQ(need, PLUMBOB_ANIM_BIND_SIZE(HC));
    CHECK_EQ(plumbob_anim_bind_size(NULL), SIZE_MAX);
    CHECK_OK(plumbob_anim_bind(&a, &s.sk, &mesh, &arena, &b));
    CHECK(arena.used <= need);
    for (i = 0; i < HC; i++) {
        CHECK_EQ(b.status[i], want[i]);
        CHECK_EQ((uint32_t)b.slot[i], (uint32_t)want_slot[i]);
    }
    /* the report: 3 bone channels (root's rotation and translation, the arm
     * in IK chain 3), 1 morph, 4 unbound by name in channel order, 2 bones
     * (spine, l_hand) at rest */
    CHECK_EQ(b.bone_channel_count, 3);
    CHECK_EQ(b.morph_channel_count, 1);
    CHECK_EQ(b.unbound_count, 4);
    CHECK_EQ(b.unanimated_bone_count, 2);
    CHECK_EQ(b.unbound_channels[0], 2);
    CHECK_EQ(b.unbound_channels[3], 7);
    CHECK(b.unbound_names[0].ptr == ch[2].name.ptr); /* pointers into the ANIM's names */
    CHECK(b.unbound_names[1].len == 16 && memcmp(b.unbound_names[1].ptr, "l_handcontrol0_a", 16) == 0);
    CHECK(b.unbound_names[2].len == 7 && memcmp(b.unbound_names[2].ptr, "mystery", 7) == 0);
    /* the sampler: bits of the reference, the rest pose elsewhere, morph
     * pairs without a channel left alone */
    need = plumbob_anim_sampler_size(&b);
    CHECK(need <= PLUMBOB_ANIM_SAMPLER_SIZE(HC, HK));
    {
        size_t before = arena.used;
        CHECK_OK(plumbob_anim_sampler_init(&b, &arena, &smp));
        CHECK(arena.used - before <= need);
    }
    CHECK_EQ(compare_everywhere(&smp, &b, poses, weights), 0);
    CHECK(weights[0] == -1.0f && weights[2] == -1.0f);
    CHECK_EQ(check_scheduled(&b, poses, weights), 0);
    /* the IK chain member moves its bone: not at rest at tick 50 */
    CHECK_OK(plumbob_anim_sampler_sample(&smp, 50.0f, poses, 4, NULL, 0));
    CHECK(poses[2].rotation.w < 0.99f);
    /* a rotation of 170 and 150 degrees about each axis at tick 50 is 160:
     * the double-precision quaternion of (x, y, z) = (sampled degrees) */
    {
        float v[8];
        plumbob_quat q;
        double d[3], h[3], cs[3], sn[3], w, x, y, z;
        uint32_t k;
        plumbob_anim_sample_channel(&a, 3, 37.0f, v, &q);
        CHECK_OK(plumbob_anim_sampler_sample(&smp, 37.0f, poses, 4, NULL, 0));
        for (k = 0; k < 3; k++) {
            double r, r2;
            d[k] = (double)v[k];
            h[k] = d[k] * 3.14159265358979323846 / 360.0;
            r = h[k];
            r2 = r * r; /* series to r^17: exact to double rounding for |r| < pi/2 */
            sn[k] = r * (1 - r2 / 6 * (1 - r2 / 20 * (1 - r2 / 42 * (1 - r2 / 72 * (1 - r2 / 110 * (1 - r2 / 156 * (1 - r2 / 210 * (1 - r2 / 272))))))));
            cs[k] = 1 - r2 / 2 * (1 - r2 / 12 * (1 - r2 / 30 * (1 - r2 / 56 * (1 - r2 / 90 * (1 - r2 / 132 * (1 - r2 / 182 * (1 - r2 / 240)))))));
        }
        w = cs[2] * cs[1] * cs[0] + sn[2] * sn[1] * sn[0];
        x = cs[2] * cs[1] * sn[0] - sn[2] * sn[1] * cs[0];
        y = cs[2] * sn[1] * cs[0] + sn[2] * cs[1] * sn[0];
        z = sn[2] * cs[1] * cs[0] - cs[2] * sn[1] * sn[0];
        if (w < 0) { w = -w; x = -x; y = -y; z = -z; }
        if (poses[2].rotation.w < 0) CHECK(0);
        CHECK_NEAR(poses[2].rotation.x, x, 2e-6);
        CHECK_NEAR(poses[2].rotation.y, y, 2e-6);
        CHECK_NEAR(poses[2].rotation.z, z, 2e-6);
        CHECK_NEAR(poses[2].rotation.w, w, 2e-6);
    }
    /* output counts are checked every frame; nothing is written then */
    poses[0].translation.x = 42.0f;
    CHECK_EQ(plumbob_anim_sampler_sample(&smp, 10.0f, poses, 3, NULL, 0), PLUMBOB_ERR_OUTPUT_TOO_SMALL);
    CHECK_EQ(plumbob_anim_sampler_sample(&smp, 10.0f, NULL, 0, weights, 2), PLUMBOB_ERR_OUTPUT_TOO_SMALL);
    CHECK(poses[0].translation.x == 42.0f);
    CHECK_OK(plumbob_anim_sampler_sample(&smp, 10.0f, NULL, 0, NULL, 0));
    CHECK_EQ(plumbob_anim_sampler_sample(NULL, 10.0f, poses, 4, NULL, 0), PLUMBOB_ERR_INVALID_ARGUMENT);
    /* without a mesh the morph is unbound; bad arguments; too little memory */
    CHECK_OK(plumbob_anim_bind(&a, &s.sk, NULL, &arena, &b));
    CHECK_EQ(b.status[6], PLUMBOB_ANIM_CHANNEL_NO_MORPH);
    CHECK_EQ(b.unbound_count, 5);
    CHECK_EQ(plumbob_anim_bind(NULL, &s.sk, NULL, &arena, &b), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_anim_bind(&a, NULL, NULL, &arena, &b), PLUMBOB_ERR_INVALID_ARGUMENT);
    {
        plumbob_arena small;
        unsigned char mem[64];
        plumbob_arena_init(&small, mem, sizeof mem);
        CHECK_EQ(plumbob_anim_bind(&a, &s.sk, NULL, &small, &b), PLUMBOB_ERR_OUT_OF_MEMORY);
        CHECK_EQ(small.used, 0);
    }
    /* a binding that does not fit its ANIM is refused, not read past */
    CHECK_OK(plumbob_anim_bind(&a, &s.sk, &mesh, &arena, &b));
    b.slot[0] = 9;
    CHECK_EQ(plumbob_anim_sampler_size(&b), SIZE_MAX);
    CHECK_EQ(plumbob_anim_sampler_init(&b, &arena, &smp), PLUMBOB_ERR_INVALID_ARGUMENT);
    co[0].channel = 5;
    b.slot[0] = 0;
    CHECK_EQ(plumbob_anim_sampler_init(&b, &arena, &smp), PLUMBOB_ERR_INVALID_ARGUMENT);
}

/* --- the three real animations --------------------------------------- */

/* Bone names of a Sims 2 adult skeleton (auskel) that the real animations
 * name, and some they do not; no real CRES of it is in the corpus. */
static const char *const adult[] = {
    "root", "pelvis", "spine0", "spine1", "spine2", "neck", "head", "l_clavicle", "l_upperarm", "l_bicep",
    "l_forearm", "l_wrist", "l_hand", "r_clavicle", "r_upperarm", "r_bicep", "r_forearm", "r_wrist", "r_hand",
    "l_thigh", "l_calf", "l_foot", "l_toe", "r_thigh", "r_calf", "r_foot", "r_toe", "l_thumb0", "l_thumb1",
    "l_thumb2", "l_index0", "l_index1", "l_mid0", "l_mid1", "l_pinky0", "l_pinky1", "r_thumb0", "r_thumb1",
    "r_thumb2", "r_index0", "r_index1", "r_mid0", "r_mid1", "r_pinky0", "r_pinky1", "l_shorts", "r_shorts",
    "breathe", "hair"};

void test_anim_pose_corpus(void) {
    size_t size, rs, need;
    unsigned char *data = t_corpus_load("sims2/animation.package", &size);
    plumbob_package pkg;
    uint32_t e, seen = 0, n_adult = (uint32_t)(sizeof adult / sizeof adult[0]);
    static skel s;
    if (!data) T_SKIP(t_corpus_missing());
    make_skel(&s, adult, n_adult);
    CHECK_OK(plumbob_package_open(&pkg, data, size));
    for (e = 0; e < pkg.count; e++) {
        plumbob_package_entry ent;
        const unsigned char *res;
        plumbob_anim a;
        plumbob_arena arena;
        plumbob_anim_binding b;
        plumbob_anim_sampler smp;
        plumbob_bone_pose poses[MAX_BONES];
        float weights[1];
        unsigned char *mem;
        CHECK_OK(plumbob_package_entry_at(&pkg, e, &ent));
        if (ent.type != PLUMBOB_TYPE_ANIM) continue;
        CHECK_OK(plumbob_package_read(&pkg, &ent, NULL, 0, &res, &rs));
        CHECK_OK(plumbob_anim_measure(res, rs, &need));
        need += 64u * 1024u;
        mem = (unsigned char *)malloc(need);
        plumbob_arena_init(&arena, mem, need);
        CHECK_OK(plumbob_anim_decode(res, rs, &arena, &a));
        CHECK_OK(plumbob_anim_bind(&a, &s.sk, NULL, &arena, &b));
        CHECK_EQ(b.bone_channel_count + b.morph_channel_count + b.unbound_count, a.channel_count);
        if (a.duration == 2175) { /* a2o-pinball-play-lose: the IK chain 3 arm is played */
            CHECK_EQ(a.channel_count, 87);
            CHECK_EQ(b.bone_channel_count, 43);
            CHECK_EQ(b.unbound_count, 44);
            CHECK_EQ(b.unanimated_bone_count, 7);
            CHECK_EQ(b.status[26], PLUMBOB_ANIM_CHANNEL_BONE);
            CHECK_EQ(PLUMBOB_ANIM_IK_CHAIN(a.channels[26].flags), 3);
            CHECK(b.unbound_names[0].len == 14 && memcmp(b.unbound_names[0].ptr, "l_handcontrol0", 14) == 0);
        } else if (a.duration == 867) { /* o-vehiclePizza-driveOff: an object's, root alone */
            CHECK_EQ(b.bone_channel_count, 2);
            CHECK_EQ(b.unbound_count, 10);
            CHECK(b.unbound_names[0].len == 10 && memcmp(b.unbound_names[0].ptr, "body_trans", 10) == 0);
        } else { /* a2o-exerciseMachine-benchPress-start */
            CHECK_EQ(b.bone_channel_count, 34);
            CHECK_EQ(b.unbound_count, 55);
            CHECK_EQ(b.unanimated_bone_count, 16);
            CHECK_EQ(b.status[20], PLUMBOB_ANIM_CHANNEL_OTHER); /* root_trans, attribute 5 */
            CHECK_EQ(b.status[21], PLUMBOB_ANIM_CHANNEL_BONE);  /* root_trans, the translation */
        }
        CHECK_OK(plumbob_anim_sampler_init(&b, &arena, &smp));
        CHECK_EQ(compare_everywhere(&smp, &b, poses, weights), 0);
        CHECK_EQ(check_scheduled(&b, poses, weights), 0);
        CHECK_OK(plumbob_anim_sampler_sample(&smp, 1000.0f, poses, n_adult, NULL, 0));
        free(mem);
        seen++;
    }
    CHECK_EQ(seen, 3);
    free(data);
}

/* --- scheduled curves of every shape ---------------------------------- */

#define SB 6u                 /* bones: a rotation and a translation channel each */
#define SKEYS 48u

/* Component c of a random ANIM: baked, continuous or discontinuous; f32
 * or each fixed-point format; 0 to 47 keys; times from 0 or later (one
 * component near the 16-bit end) and repeated times (never going back:
 * the decoder refuses that); values and tangents of every sign, -0 too. */
static void shape_component(plumbob_anim_component *co, unsigned char *keys, uint32_t *rng, uint32_t c) {
    static const uint16_t tangents[6] = {0x0000u, 0x8000u, 0x3C00u, 0xBC00u, 0x5640u, 0x1234u};
    uint32_t r = t_rand(rng), kind = r % 8u == 0u ? PLUMBOB_ANIM_BAKED : r % 8u < 5u ? PLUMBOB_ANIM_CONTINUOUS
                                                                                       : PLUMBOB_ANIM_DISCONTINUOUS;
    uint32_t f32 = (r >> 4) & 1u, fmt = (r >> 5) % 3u == 2u ? 3u : (r >> 5) % 3u, k, n = (r >> 8) % SKEYS;
    uint32_t time = c == 7u ? 65000u : (r >> 12) % 3u == 0u ? 0u : (r >> 14) % 300u;
    uint32_t size;
    if (c == 7u) f32 = 1u; /* a 16-bit time needs the f32 layout */
    size = kind == PLUMBOB_ANIM_BAKED ? (f32 ? 4u : 2u)
                                      : 2u + (f32 ? 4u : 2u) + 2u + (kind == PLUMBOB_ANIM_DISCONTINUOUS ? 2u : 0u);
    co->packed = (uint8_t)(kind | fmt << 2 | (f32 ? PLUMBOB_ANIM_F32 : 0u));
    co->key_size = (uint8_t)size;
    co->key_count = (uint16_t)n;
    co->keys = keys;
    for (k = 0; k < n; k++) {
        unsigned char *p = keys + (size_t)k * size;
        uint32_t q = t_rand(rng);
        float v = q % 11u == 0u ? -0.0f : q % 13u == 0u ? 180.0f * (float)(q % 5u) - 360.0f
                                                      : (float)((int32_t)(q % 80001u) - 40000) * 0.01f;
        if (kind == PLUMBOB_ANIM_BAKED) {
            if (f32) pb_put_f32le(p, v); else pb_put_le16(p, (uint16_t)(q >> 7));
            continue;
        }
        pb_put_le16(p, (uint16_t)(f32 ? time : (time & 0x7FFFu) | (q & 0x8000u)));
        if (f32) pb_put_f32le(p + 2, v); else pb_put_le16(p + 2, (uint16_t)(q >> 9));
        p += f32 ? 6 : 4;
        pb_put_le16(p, tangents[(q >> 3) % 6u] ^ (uint16_t)((q >> 20) & 0x3FFu));
        if (kind == PLUMBOB_ANIM_DISCONTINUOUS) pb_put_le16(p + 2, tangents[(q >> 6) % 6u]);
        q = t_rand(rng);
        if (q % 5u != 0u) time += 1u + q % 90u; /* else the next key shares the time */
        if (time > 65535u) time = 65535u;
    }
}

void test_anim_schedule_shapes(void) {
    static const char *const bones[SB] = {"b0", "b1", "b2", "b3", "b4", "b5"};
    static skel s;
    static unsigned char keys[6u * SB][SKEYS * 10u];
    static plumbob_anim_channel ch[2u * SB];
    static plumbob_anim_component co[6u * SB];
    plumbob_anim a;
    plumbob_arena arena;
    plumbob_anim_binding b;
    plumbob_bone_pose poses[SB];
    float weights[1];
    uint32_t rng = 4747u, round, i, c, scheduled = 0, total = 0;
    make_skel(&s, bones, SB);
    for (round = 0; round < 24u; round++) {
        memset(&a, 0, sizeof a);
        for (i = 0; i < 2u * SB; i++) {
            uint32_t rot = i % 2u == 0u;
            ch[i].name = s.name[i / 2u];
            ch[i].flags = (round % 4u == 3u ? 65535u : 1200u) % 32768u | 0x8000u | (rot ? 0u : 1u) << 17 |
                          (rot ? 3u : 4u) << 22 | 15u << 25 | 3u << 29;
            ch[i].first_component = 3u * i;
            for (c = 3u * i; c < 3u * i + 3u; c++) {
                co[c].channel = i;
                shape_component(&co[c], keys[c], &rng, c);
            }
        }
        a.duration = round % 4u == 3u ? 32767u : 1200u;
        a.channel_count = 2u * SB;
        a.component_count = 6u * SB;
        a.channels = ch;
        a.components = co;
        plumbob_arena_init(&arena, t_arena_mem(), T_ARENA_SIZE);
        CHECK_OK(plumbob_anim_bind(&a, &s.sk, NULL, &arena, &b));
        CHECK_EQ(b.bone_channel_count, 2u * SB);
        if (round % 4u != 3u) CHECK_EQ(check_scheduled(&b, poses, weights), 0);
        else { /* a long ANIM: forward and back at a few hundred times */
            plumbob_anim_schedule sch;
            plumbob_anim_sampler smp;
            size_t ns = plumbob_anim_schedule_size(&b) + plumbob_anim_sampler_size(&b);
            unsigned char *mem = (unsigned char *)malloc(ns);
            plumbob_arena big;
            float t;
            uint32_t bad = 0;
            plumbob_arena_init(&big, mem, ns);
            if (plumbob_anim_schedule_build(&b, &big, &sch) == PLUMBOB_OK &&
                plumbob_anim_sampler_init_scheduled(&sch, &big, &smp) == PLUMBOB_OK) {
                for (t = -5.0f; t < 66000.0f; t += 97.25f) bad += compare_at(&smp, &b, t, poses, weights);
                for (t = 66000.0f; t > 0.0f; t -= 1013.5f) bad += compare_at(&smp, &b, t, poses, weights);
                bad += compare_everywhere(&smp, &b, poses, weights);
                for (i = 0; i < sch.lane_count; i++) scheduled += sch.lane_component[i] != UINT32_MAX;
                total += 6u * SB;
            } else {
                bad = 1000;
            }
            CHECK_EQ(bad, 0);
            free(mem);
        }
    }
    CHECK(scheduled > total / 3u && scheduled < total); /* both paths were taken */
    /* a schedule and sampler refuse what does not fit */
    {
        plumbob_anim_schedule sch;
        plumbob_anim_sampler smp;
        plumbob_arena small;
        /* the last ANIM's ticks reach 65535; the shared work memory, not the
         * heap (bare metal's is smaller than a MiB) */
        unsigned char mem[64], *big = t_work();
        plumbob_arena_init(&arena, big, T_WORK_SIZE);
        CHECK_OK(plumbob_anim_bind(&a, &s.sk, NULL, &arena, &b));
        CHECK_EQ(plumbob_anim_schedule_build(NULL, &arena, &sch), PLUMBOB_ERR_INVALID_ARGUMENT);
        CHECK_EQ(plumbob_anim_schedule_size(NULL), SIZE_MAX);
        CHECK_EQ(plumbob_anim_sampler_init_scheduled(NULL, &arena, &smp), PLUMBOB_ERR_INVALID_ARGUMENT);
        plumbob_arena_init(&small, mem, sizeof mem);
        CHECK_EQ(plumbob_anim_schedule_build(&b, &small, &sch), PLUMBOB_ERR_OUT_OF_MEMORY);
        CHECK_EQ(small.used, 0);
        CHECK_OK(plumbob_anim_schedule_build(&b, &arena, &sch));
        CHECK_EQ(plumbob_anim_sampler_init_scheduled(&sch, &small, &smp), PLUMBOB_ERR_OUT_OF_MEMORY);
        CHECK_EQ(small.used, 0);
        sch.lane_count += 4u;
        CHECK_EQ(plumbob_anim_sampler_init_scheduled(&sch, &arena, &smp), PLUMBOB_ERR_INVALID_ARGUMENT);
    }
}

/* The scheduled sampler's curve kernel: the port against the scalar
 * reference on lanes of every kind (holds, pairs, u past 1, -0, times at
 * t0 exactly, infinities). */
void test_anim_curves_port_matches_scalar(void) {
    enum { N = 64 };
    static float lanes[6 * N], vs[N], vp[N];
    static const float times[] = {-1e30f, -1.0f, 0.0f, 0.5f, 33.0f, 100.0f, 1e30f};
    uint32_t rng = 99u, i, t;
    for (i = 0; i < N; i++) {
        uint32_t r = t_rand(&rng);
        lanes[i] = i % 7u == 0u ? pb_f32_from_bits(0x7F800000u) : (float)(r % 120u);
        lanes[N + i] = i % 7u == 0u ? 0.0f : 1.0f / (float)(1u + r % 40u);
        lanes[2 * N + i] = i % 5u == 0u ? -0.0f : (float)((int32_t)(t_rand(&rng) % 2001u) - 1000) * 0.37f;
        lanes[3 * N + i] = (float)((int32_t)(t_rand(&rng) % 2001u) - 1000) * 0.011f;
        lanes[4 * N + i] = (float)((int32_t)(t_rand(&rng) % 2001u) - 1000) * 0.013f;
        lanes[5 * N + i] = (float)((int32_t)(t_rand(&rng) % 2001u) - 1000) * 0.017f;
    }
    for (t = 0; t < sizeof times / sizeof times[0] + 40u; t++) {
        float at = t < sizeof times / sizeof times[0] ? times[t] : (float)t * 3.0f - 5.0f;
        pb_anim_curves_scalar(lanes, N, at, vs);
        PB_ANIM_CURVES(lanes, N, at, vp);
        CHECK(memcmp(vs, vp, sizeof vs) == 0);
    }
}

static double d_abs(double x) { return x < 0 ? -x : x; }

/* sin and cos of x radians in double, |x| <= pi/2 (Taylor to x^29: below
 * 1e-17 there), for the reference the float polynomials are checked by. */
static void d_sin_cos(double x, double *s, double *c) {
    double x2 = x * x, ts = x, tc = 1.0, ss = x, sc = 1.0;
    int k;
    for (k = 1; k <= 14; k++) {
        ts *= -x2 / ((2.0 * k) * (2.0 * k + 1.0));
        tc *= -x2 / ((2.0 * k - 1.0) * (2.0 * k));
        ss += ts;
        sc += tc;
    }
    *s = ss;
    *c = sc;
}

/* The half angle of d degrees in double, reduced into [-90, 90] degrees
 * the way the float code reduces (so +-180 keep their signs). */
static void d_half_angle(float deg, double *s, double *c) {
    double d = deg;
    if (!(d == d) || d > 1e7 || d < -1e7) d = 0.0;
    d -= 360.0 * (double)(long long)(d / 360.0);
    if (d > 180.0) d -= 360.0;
    if (d < -180.0) d += 360.0;
    d_sin_cos(d * (3.14159265358979323846 / 360.0), s, c);
}

/* The division-free half-angle sine and cosine, plumbob_anim_euler_to_quat
 * and the Hermite cubic beside double-precision references, over a sweep of
 * angles (fractions, both ends of the half-turn, whole turns, up to 1e7
 * degrees and past it) and random curves.  Prints the worst errors. */
void test_anim_float_accuracy(void) {
    uint32_t rng = 47u, i;
    double worst_sc = 0.0, worst_q = 0.0, worst_h = 0.0;
    for (i = 0; i < 40000u; i++) { /* few enough for the emulated targets */
        float deg, s, c;
        double ds, dc, e, e2;
        uint32_t r = t_rand(&rng);
        if (i < 14401u) deg = (float)i * 0.05f - 360.0f;             /* every 0.05 degree of two turns */
        else if (i < 27000u) deg = (float)(int32_t)(r % 20000001u) - 1e7f; /* whole degrees up to 1e7 */
        else deg = pb_f32_from_bits((r & 0x807FFFFFu) | ((100u + r % 60u) << 23)); /* 2^-27 .. 2^32 */
        pb_half_angle_sin_cos(deg, &s, &c);
        d_half_angle(deg, &ds, &dc);
        e = d_abs((double)s - ds);
        if (d_abs((double)c - dc) > e) e = d_abs((double)c - dc);
        e2 = d_abs((double)s + ds); /* at +-180 (mod 360) either end of the half-turn may be taken */
        if (d_abs((double)c + dc) > e2) e2 = d_abs((double)c + dc);
        if (e2 < e) e = e2;
        if (e > worst_sc) worst_sc = e;
    }
    CHECK(worst_sc < 2e-7);
    for (i = 0; i < 20000u; i++) {
        float a[3];
        double s[3], c[3], w, x, y, z, e, e2;
        plumbob_quat q;
        int k;
        for (k = 0; k < 3; k++) a[k] = (float)((int32_t)(t_rand(&rng) % 2000001u) - 1000000) * (i % 2u ? 0.001f : 0.5f);
        q = plumbob_anim_euler_to_quat(a[0], a[1], a[2]);
        for (k = 0; k < 3; k++) d_half_angle(a[k], &s[k], &c[k]);
        w = c[2] * c[1] * c[0] + s[2] * s[1] * s[0];
        x = c[2] * c[1] * s[0] - s[2] * s[1] * c[0];
        y = c[2] * s[1] * c[0] + s[2] * c[1] * s[0];
        z = s[2] * c[1] * c[0] - c[2] * s[1] * s[0];
        e = d_abs(q.w - w) + d_abs(q.x - x) + d_abs(q.y - y) + d_abs(q.z - z);
        e2 = d_abs(q.w + w) + d_abs(q.x + x) + d_abs(q.y + y) + d_abs(q.z + z);
        if (e2 < e) e = e2;
        if (e > worst_q) worst_q = e;
    }
    CHECK(worst_q < 1e-6); /* the sum of four components: ~1e-7 degree each */
    for (i = 0; i < 20000u; i++) {
        float v0 = (float)(t_rand(&rng) % 20001u) * 0.01f - 100.0f, v1 = (float)(t_rand(&rng) % 20001u) * 0.01f - 100.0f;
        float m0 = (float)(t_rand(&rng) % 2001u) * 0.001f - 1.0f, m1 = (float)(t_rand(&rng) % 2001u) * 0.001f - 1.0f;
        float dt = (float)(1u + t_rand(&rng) % 300u), u = (float)(t_rand(&rng) % 1025u) / 1024.0f, cf[4];
        double du = u, h, scale = d_abs(v0) + d_abs(v1) + d_abs(m0 * dt) + d_abs(m1 * dt) + 1e-3, e;
        pb_hermite_cubic(v0, m0, v1, m1, dt, cf);
        h = (2 * du * du * du - 3 * du * du + 1) * v0 + (du * du * du - 2 * du * du + du) * dt * m0 +
            (3 * du * du - 2 * du * du * du) * v1 + (du * du * du - du * du) * dt * m1;
        e = d_abs((double)pb_cubic_at(cf[0], cf[1], cf[2], cf[3], u) - h) / scale;
        if (e > worst_h) worst_h = e;
    }
    CHECK(worst_h < 1e-6);
    printf("  anim float accuracy: half-angle sin/cos %.2e, quaternion %.2e, Hermite %.2e of the curve's scale\n",
           worst_sc, worst_q, worst_h);
}

/* The port's Euler kernel (the sampler's rotations) against the scalar
 * one and plumbob_anim_euler_to_quat, bit for bit: edge angles (zeros,
 * +-180 and whole turns, 1e7 and past it, the infinities and NaN, which
 * read as 0, subnormals) and random ones, for counts that take every path
 * (groups of eight, a tail of one to seven), into
 * scattered bones of a pose array. */
void test_anim_euler_port_matches_scalar(void) {
    enum { N = 37, BONES = 48 };
    static const float edge[] = {0.0f, -0.0f, 180.0f, -180.0f, 360.0f, -360.0f, 540.0f, -540.0f, 90.0f, -90.0f,
                                 179.99998f, -179.99998f, 1e7f, -1e7f, 1.0000001e7f, -3e38f, 3e38f, 1e-40f,
                                 -1e-45f, 1.17549435e-38f, 0.05f, 45.0f, 720.0f, 359.99997f, 12582912.0f};
    static const uint32_t counts[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 13, 15, 16, 37};
    float angles[3 * N];
    uint32_t slot[N], rng = 0xE0u, i, k, ci, bad = 0;
    plumbob_bone_pose ps[BONES], pp[BONES];
    size_t nedge = sizeof edge / sizeof edge[0];
#if defined(PLUMBOB_PORT_NEON) && !defined(__aarch64__)
    nedge -= 7; /* ARMv7 NEON flushes subnormals (kernels.h): the last edge ones are normal */
#endif
    for (ci = 0; ci < sizeof counts / sizeof counts[0]; ci++) {
        uint32_t n = counts[ci];
        for (k = 0; k < 3u * n; k++) {
            uint32_t r = t_rand(&rng);
            if (r % 3u == 0) angles[k] = edge[(r / 3u) % nedge];
            else if (r % 3u == 1u) angles[k] = (float)((int32_t)(r % 720001u) - 360000) * 0.01f;
            else angles[k] = pb_f32_from_bits((r & 0x807FFFFFu) | ((90u + r % 60u) << 23)); /* 2^-37 .. 2^22 */
        }
#if defined(PLUMBOB_PORT_NEON) && !defined(__aarch64__)
        for (k = 0; k < 3u * n; k++)
            if (angles[k] != 0.0f && angles[k] > -1.2e-38f && angles[k] < 1.2e-38f) angles[k] = 0.0f;
#endif
        for (i = 0; i < n; i++) slot[i] = (i * 13u + ci) % BONES; /* distinct: 13 and 48 are coprime */
        memset(ps, 0x5A, sizeof ps);
        memset(pp, 0x5A, sizeof pp);
        pb_anim_euler_scalar(angles, n, slot, &ps[0].rotation.x, 10u);
        PB_ANIM_EULER(angles, n, slot, &pp[0].rotation.x, 10u);
        bad += memcmp(ps, pp, sizeof ps) != 0; /* the same bits, and nothing else written */
        for (i = 0; i < n; i++) {
            plumbob_quat q = plumbob_anim_euler_to_quat(angles[i], angles[n + i], angles[2u * n + i]);
            const plumbob_quat *g = &pp[slot[i]].rotation;
            bad += !same_bits(q.x, g->x) || !same_bits(q.y, g->y) || !same_bits(q.z, g->z) || !same_bits(q.w, g->w);
        }
    }
    CHECK_EQ(bad, 0u);
}
