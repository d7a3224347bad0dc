/* Sims 2 ANIM playback beside Sims 3 clip playback, bone for bone: the
 * demo body's CRES skeleton (the corpus has no Sims 2 body, so this is
 * the skeleton the tool's tests pose) with every bone driven by an Euler
 * rotation and a translation channel (continuous keys every 33 ticks over
 * 3.4 s, as the real a2o-exerciseMachine-benchPress-start's busiest
 * channels), against a clip with a rotation and a translation track for
 * the same number of bones (a key a frame at 30 fps over 3.4 s, as real
 * clips), played through the scheduled sampler with the port's kernel.
 * Both sample forward at 60 Hz into the caller's poses; the ANIM sampler
 * writes the whole pose (rest included), the clip's only what it drives,
 * so the clip figure adds plumbob_skeleton_rest_pose, as a game runs it.
 * The two are timed in interleaved rounds (alternating which goes first),
 * so both see the same machine; reports ns per pose of each and their
 * ratio (ANIM / clip), for the synthetic ANIM and the real one. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "bench_cases.h"
#include "plumbob.h"
#include "util/demo_data.h"

#define DURATION 3400u  /* ticks (ms) */
#define ANIM_STEP 33u   /* ticks between keys */
#define ANIM_KEYS (DURATION / ANIM_STEP + 1u)
#define CLIP_KEYS 103u  /* 3.4 s at 30 fps */
#define FRAMES 204u     /* 3.4 s at 60 Hz */

typedef struct anim_ctx {
    plumbob_anim_sampler anim_sampler;
    plumbob_anim_schedule anim_schedule;
    plumbob_clip_sampler clip_sampler;
    const plumbob_skeleton *skeleton;
    plumbob_bone_pose *poses;
    uint32_t bones;
} anim_ctx;

static void run_anim(void *p) {
    anim_ctx *c = (anim_ctx *)p;
    uint32_t f;
    for (f = 0; f < FRAMES; f++)
        if (plumbob_anim_sampler_sample(&c->anim_sampler, (float)f * (1000.0f / 60.0f), c->poses, c->bones, NULL, 0) !=
            PLUMBOB_OK)
            abort();
    bench_keep(c->poses);
}

static void run_clip(void *p) {
    anim_ctx *c = (anim_ctx *)p;
    uint32_t f;
    for (f = 0; f < FRAMES; f++) {
        if (plumbob_skeleton_rest_pose(c->skeleton, 0, c->bones, c->poses, c->bones) != PLUMBOB_OK ||
            plumbob_clip_sampler_sample(&c->clip_sampler, (float)f / 60.0f, c->poses, c->bones, NULL, 0) != PLUMBOB_OK)
            abort();
    }
    bench_keep(c->poses);
}

/* fa and fb timed in `samples` interleaved rounds after a warm-up each:
 * their seconds per call as medians, min and max. */
static void time_pair(void (*fa)(void *), void (*fb)(void *), void *ctx, int samples, bench_stats *sa,
                      bench_stats *sb) {
    double *ta = (double *)malloc(sizeof(double) * (size_t)samples), *tb = (double *)malloc(sizeof(double) * (size_t)samples);
    int i;
    fa(ctx);
    fb(ctx);
    for (i = 0; i < samples; i++) {
        double t0 = bench_now(), t1, t2;
        if (i & 1) {
            fb(ctx);
            t1 = bench_now();
            fa(ctx);
            t2 = bench_now();
            tb[i] = t1 - t0;
            ta[i] = t2 - t1;
        } else {
            fa(ctx);
            t1 = bench_now();
            fb(ctx);
            t2 = bench_now();
            ta[i] = t1 - t0;
            tb[i] = t2 - t1;
        }
    }
    bench_sort(ta, samples);
    bench_sort(tb, samples);
    sa->median = ta[samples / 2]; sa->min = ta[0]; sa->max = ta[samples - 1]; sa->n = samples;
    sb->median = tb[samples / 2]; sb->min = tb[0]; sb->max = tb[samples - 1]; sb->n = samples;
    free(ta);
    free(tb);
}

/* A smooth wave for bone b, component k at key i (degrees or metres). */
static float wave(uint32_t b, uint32_t k, uint32_t i, float amp) {
    uint32_t ph = (i * 7u + b * 13u + k * 29u) % 64u;
    float x = (float)(ph < 32u ? ph : 64u - ph) / 16.0f - 1.0f; /* a triangle, -1..1 */
    return amp * x;
}

static void put16(unsigned char *p, uint32_t v) { p[0] = (unsigned char)v; p[1] = (unsigned char)(v >> 8); }

/* The real a2o-exerciseMachine-benchPress-start (89 channels, 34 of them on
 * the skeleton, most curves constant or of a few keys) on the same skeleton
 * with its bones renamed after the channels it drives, when the corpus is
 * there: the cost of a real ANIM's pose on the same bone count. */
static void bench_real(const bench_opts *o, int samples, const plumbob_cres_skeleton *body, anim_ctx *c) {
    size_t len = 0, rs, need;
    unsigned char *data = bench_read_file("../shared/corpus/sims2/animation.package", &len), *mem;
    plumbob_package pkg;
    plumbob_package_entry e;
    plumbob_anim an;
    plumbob_arena a;
    plumbob_anim_binding bind;
    plumbob_cres_skeleton sk = *body;
    plumbob_string *names;
    const unsigned char *res;
    uint32_t i, b = 0;
    bench_stats s, sc;
    char ctx[224];
    if (!data) return;
    if (plumbob_package_open(&pkg, data, len) != PLUMBOB_OK ||
        plumbob_package_find(&pkg, PLUMBOB_TYPE_ANIM, 0x1C0532FAu, 0xFDBE1306FFB8F3C0ull, &e, NULL) != PLUMBOB_OK ||
        plumbob_package_read(&pkg, &e, NULL, 0, &res, &rs) != PLUMBOB_OK || plumbob_anim_measure(res, rs, &need) != PLUMBOB_OK) {
        free(data);
        return;
    }
    need += PLUMBOB_ANIM_BIND_SIZE(4096u) + (1u << 20);
    mem = (unsigned char *)malloc(need);
    plumbob_arena_init(&a, mem, need);
    if (plumbob_anim_decode(res, rs, &a, &an) != PLUMBOB_OK) abort();
    names = (plumbob_string *)calloc(sk.skeleton.bone_count, sizeof *names);
    for (i = 0; i < sk.skeleton.bone_count; i++) names[i] = sk.skeleton.name[i];
    for (i = 0; i < an.channel_count && b < sk.skeleton.bone_count; i++) { /* each rotation channel names a bone */
        if (PLUMBOB_ANIM_ATTRIBUTE(an.channels[i].flags) != PLUMBOB_ANIM_ATTR_ROTATION) continue;
        names[b++] = an.channels[i].name;
    }
    sk.skeleton.name = names;
    if (plumbob_anim_bind(&an, &sk, NULL, &a, &bind) != PLUMBOB_OK ||
        plumbob_anim_schedule_build(&bind, &a, &c->anim_schedule) != PLUMBOB_OK ||
        plumbob_anim_sampler_init_scheduled(&c->anim_schedule, &a, &c->anim_sampler) != PLUMBOB_OK)
        abort();
    time_pair(run_anim, run_clip, c, samples, &s, &sc);
    snprintf(ctx, sizeof ctx,
             "\"bones\": %u, \"bound_channels\": %u, \"moving_rotations\": %u, \"curves\": %u, "
             "\"anim\": \"a2o-exerciseMachine-benchPress-start\"",
             (unsigned)sk.skeleton.bone_count, (unsigned)bind.bone_channel_count,
             (unsigned)c->anim_sampler.rotation_count, (unsigned)c->anim_sampler.curve_count);
    bench_report(o, "anim_pose_real", "ns_per_pose", s.median / FRAMES * 1e9, s.min / FRAMES * 1e9,
                 s.max / FRAMES * 1e9, s.n, ctx);
    snprintf(ctx, sizeof ctx, "\"clip_ns\": %.1f, \"goal\": \"at most 1\"", sc.median / FRAMES * 1e9);
    bench_report(o, "anim_pose_real_ratio", "anim_over_clip", s.median / sc.median, s.min / sc.max, s.max / sc.min,
                 s.n, ctx);
    free(names);
    free(mem);
    free(data);
}

void bench_anim(const bench_opts *o, int samples) {
    static anim_ctx c;
    unsigned char *cres_bytes = NULL, *cres_mem, *sk_mem, *keys, *anim_mem, *clip_bytes, *clip_mem, *sched_mem;
    size_t cres_size = demo_skel_cres(&cres_bytes), need, clip_size = 0;
    plumbob_cres cres;
    plumbob_cres_skeleton sk;
    plumbob_arena a;
    plumbob_anim an;
    plumbob_anim_channel *ch;
    plumbob_anim_component *co;
    plumbob_anim_binding bind;
    plumbob_clip clip, src;
    plumbob_clip_track *tracks;
    plumbob_clip_binding cbind;
    plumbob_clip_schedule sched;
    uint32_t b, k, i, n;
    bench_stats sa, sc;
    char ctx[192];
    /* the skeleton */
    if (!cres_size || plumbob_cres_measure(cres_bytes, cres_size, &need) != PLUMBOB_OK) abort();
    cres_mem = (unsigned char *)malloc(need);
    plumbob_arena_init(&a, cres_mem, need);
    if (plumbob_cres_decode(cres_bytes, cres_size, &a, &cres) != PLUMBOB_OK) abort();
    need = plumbob_cres_skeleton_size(&cres);
    sk_mem = (unsigned char *)malloc(need);
    plumbob_arena_init(&a, sk_mem, need);
    if (plumbob_cres_skeleton_build(&cres, &a, &sk) != PLUMBOB_OK) abort();
    n = c.bones = sk.skeleton.bone_count;
    c.skeleton = &sk.skeleton;
    c.poses = (plumbob_bone_pose *)calloc(n, sizeof *c.poses);
    /* the ANIM: per bone "NAME_rot" (Euler) and "NAME_trans", continuous f32 keys */
    memset(&an, 0, sizeof an);
    ch = (plumbob_anim_channel *)calloc(2u * n, sizeof *ch);
    co = (plumbob_anim_component *)calloc(6u * n, sizeof *co);
    keys = (unsigned char *)malloc((size_t)6u * n * ANIM_KEYS * 8u);
    for (b = 0; b < 2u * n; b++) {
        uint32_t rot = b % 2u == 0u, bone = b / 2u;
        ch[b].name = sk.skeleton.name[bone]; /* the bone's own name: no suffix to strip */
        ch[b].flags = DURATION | 0x8000u | (rot ? 0u : 1u) << 17 | (rot ? 3u : 4u) << 22 | 15u << 25 | 3u << 29;
        ch[b].first_component = 3u * b;
        for (k = 0; k < 3u; k++) {
            plumbob_anim_component *cp = &co[3u * b + k];
            cp->channel = b;
            cp->packed = PLUMBOB_ANIM_CONTINUOUS | PLUMBOB_ANIM_F32;
            cp->key_size = 8;
            cp->key_count = (uint16_t)ANIM_KEYS;
            cp->keys = keys + (size_t)(3u * b + k) * ANIM_KEYS * 8u;
            for (i = 0; i < ANIM_KEYS; i++) {
                unsigned char *p = (unsigned char *)cp->keys + (size_t)i * 8u;
                float v = wave(bone, k + (rot ? 0u : 3u), i, rot ? 40.0f : 0.05f);
                uint32_t bits;
                memcpy(&bits, &v, 4);
                put16(p, i * ANIM_STEP);
                put16(p + 2, bits);
                put16(p + 4, bits >> 16);
                put16(p + 6, 0x3C00u); /* half 1.0 */
            }
        }
    }
    an.duration = DURATION;
    an.channel_count = 2u * n;
    an.component_count = 6u * n;
    an.channels = ch;
    an.components = co;
    need = plumbob_anim_bind_size(&an) + PLUMBOB_ANIM_SAMPLER_SIZE(an.channel_count, an.component_count) +
           (size_t)6u * n * ANIM_KEYS * 32u + 65536u * 4u + 1024u; /* the schedule and its tick table */
    anim_mem = (unsigned char *)malloc(need);
    plumbob_arena_init(&a, anim_mem, need);
    if (plumbob_anim_bind(&an, &sk, NULL, &a, &bind) != PLUMBOB_OK || bind.bone_channel_count != 2u * n ||
        plumbob_anim_schedule_size(&bind) > need - a.used ||
        plumbob_anim_schedule_build(&bind, &a, &c.anim_schedule) != PLUMBOB_OK ||
        plumbob_anim_sampler_init_scheduled(&c.anim_schedule, &a, &c.anim_sampler) != PLUMBOB_OK)
        abort();
    /* the clip: the same bones by hash, a rotation and a translation track each */
    memset(&src, 0, sizeof src);
    tracks = (plumbob_clip_track *)calloc(2u * n, sizeof *tracks);
    clip_mem = (unsigned char *)malloc((size_t)2u * n * CLIP_KEYS * 12u);
    {
        uint16_t ticks[CLIP_KEYS];
        float v[CLIP_KEYS * 4u];
        for (i = 0; i < CLIP_KEYS; i++) ticks[i] = (uint16_t)i;
        for (b = 0; b < 2u * n; b++) {
            uint32_t rot = b % 2u == 0u, bone = b / 2u;
            for (i = 0; i < CLIP_KEYS; i++) {
                if (rot) {
                    plumbob_quat q = plumbob_anim_euler_to_quat(wave(bone, 0, i, 40.0f), wave(bone, 1, i, 40.0f),
                                                                wave(bone, 2, i, 40.0f));
                    v[4u * i] = q.x; v[4u * i + 1u] = q.y; v[4u * i + 2u] = q.z; v[4u * i + 3u] = q.w;
                } else {
                    for (k = 0; k < 3u; k++) v[3u * i + k] = wave(bone, k + 3u, i, 0.05f);
                }
            }
            if (plumbob_clip_encode_track(&tracks[b], sk.skeleton.name_hash[bone], rot ? 0x14 : 0x12, rot ? 2 : 1,
                                          (uint16_t)CLIP_KEYS, ticks, v, clip_mem + (size_t)b * CLIP_KEYS * 12u) !=
                PLUMBOB_OK)
                abort();
        }
    }
    src.version = 2;
    src.frame_duration = 1.0f / 30.0f;
    src.tick_count = CLIP_KEYS;
    src.name.ptr = src.source.ptr = "bench";
    src.name.len = src.source.len = 5;
    src.track_count = 2u * n;
    src.tracks = tracks;
    need = plumbob_clip_write_size(&src);
    clip_bytes = (unsigned char *)malloc(need);
    if (plumbob_clip_write(&src, clip_bytes, need, &clip_size) != PLUMBOB_OK) abort();
    if (plumbob_clip_measure(clip_bytes, clip_size, &need) != PLUMBOB_OK) abort();
    need += PLUMBOB_CLIP_BIND_SIZE(2u * n) + PLUMBOB_CLIP_SAMPLER_SIZE(2u * n);
    free(clip_mem);
    clip_mem = (unsigned char *)malloc(need);
    plumbob_arena_init(&a, clip_mem, need);
    if (plumbob_clip_decode(clip_bytes, clip_size, &a, &clip) != PLUMBOB_OK ||
        plumbob_clip_bind(&clip, sk.skeleton.name_hash, n, NULL, 0, &a, &cbind) != PLUMBOB_OK)
        abort();
    need = plumbob_clip_schedule_size(&clip);
    sched_mem = (unsigned char *)malloc(need);
    {
        plumbob_arena s;
        plumbob_arena_init(&s, sched_mem, need);
        if (plumbob_clip_schedule_build(&clip, &s, &sched) != PLUMBOB_OK ||
            plumbob_clip_sampler_init(&sched, &cbind, 0, &a, &c.clip_sampler) != PLUMBOB_OK)
            abort();
    }
    time_pair(run_anim, run_clip, &c, samples, &sa, &sc);
    snprintf(ctx, sizeof ctx, "\"bones\": %u, \"channels\": %u, \"keys_per_component\": %u", (unsigned)n,
             (unsigned)(2u * n), (unsigned)ANIM_KEYS);
    bench_report(o, "anim_pose", "ns_per_pose", sa.median / FRAMES * 1e9, sa.min / FRAMES * 1e9, sa.max / FRAMES * 1e9,
                 sa.n, ctx);
    snprintf(ctx, sizeof ctx, "\"bones\": %u, \"tracks\": %u, \"port\": \"%s\", \"with\": \"rest pose\"", (unsigned)n,
             (unsigned)(2u * n), plumbob_port_name());
    bench_report(o, "anim_pose_clip_same_bones", "ns_per_pose", sc.median / FRAMES * 1e9, sc.min / FRAMES * 1e9,
                 sc.max / FRAMES * 1e9, sc.n, ctx);
    snprintf(ctx, sizeof ctx, "\"bones\": %u, \"goal\": \"at most 1\"", (unsigned)n);
    bench_report(o, "anim_pose_ratio", "anim_over_clip", sa.median / sc.median, sa.min / sc.max, sa.max / sc.min,
                 sa.n, ctx);
    bench_real(o, samples, &sk, &c);
    free(c.poses);
    free(ch); free(co); free(keys); free(anim_mem);
    free(tracks); free(clip_bytes); free(clip_mem); free(sched_mem);
    free(sk_mem); free(cres_mem); free(cres_bytes);
}
