/* CLIP benchmarks: pose sampling in ns per track and per pose (forward,
 * backward, random and cold-cache forward playback) through the sampler
 * with the port's kernel and with the scalar reference beside it, and
 * through the compact cursor; schedule build time and size, decode MB/s and
 * arena bytes; on every corpus clip (a synthetic 300-track clip when the
 * corpus is absent). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "bench_cases.h"
#include "plumbob.h"
#include "ports.h"

/* The three ways to sample a pose: the sampler with the port's kernel, the
 * sampler with the scalar reference kernel, and the 2-byte-per-track cursor
 * of plumbob_clip_sample_pose (NULL cursor for random access). */
enum { PATH_PORT, PATH_SCALAR, PATH_CURSOR, PATHS };
static const char *path_port(int path) { return path == PATH_PORT ? PLUMBOB_PORT_NAME : "scalar"; }
static const char *path_name(int path) { return path == PATH_CURSOR ? "cursor" : "sampler"; }

typedef struct clip_ctx {
    const unsigned char *data;
    size_t size;
    plumbob_clip clip;
    plumbob_clip_binding binding;
    plumbob_clip_cursor cursor;
    plumbob_clip_schedule schedule;
    plumbob_clip_sampler sampler[2]; /* PATH_PORT, PATH_SCALAR */
    plumbob_bone_pose *poses;
    unsigned char *arena_mem, *schedule_mem;
    float *times;
    uint32_t frames;
    int path, use_cursor;
} clip_ctx;

static void sample(clip_ctx *c, float t) {
    plumbob_result r;
    if (c->path == PATH_CURSOR)
        r = plumbob_clip_sample_pose(&c->clip, &c->binding, c->use_cursor ? &c->cursor : NULL, t, c->poses, NULL);
    else
        r = plumbob_clip_sampler_sample(&c->sampler[c->path], t, c->poses, c->clip.track_count + 1u, NULL, 0);
    if (r != PLUMBOB_OK) abort();
}

static void run_poses(void *p) {
    clip_ctx *c = (clip_ctx *)p;
    uint32_t f;
    for (f = 0; f < c->frames; f++) sample(c, c->times[f]);
    bench_keep(c->poses);
}

static void run_schedule(void *p) {
    clip_ctx *c = (clip_ctx *)p;
    plumbob_arena a;
    plumbob_clip_schedule sc;
    size_t need = plumbob_clip_schedule_size(&c->clip);
    plumbob_arena_init(&a, c->schedule_mem, need);
    if (plumbob_clip_schedule_build(&c->clip, &a, &sc) != PLUMBOB_OK) abort();
    bench_keep(&sc);
}

static void run_decode(void *p) {
    clip_ctx *c = (clip_ctx *)p;
    plumbob_arena a;
    plumbob_clip clip;
    plumbob_arena_init(&a, c->arena_mem, 1u << 20);
    if (plumbob_clip_decode(c->data, c->size, &a, &clip) != PLUMBOB_OK) abort();
    bench_keep(&clip);
}

/* Reports a sampling run as ns per track, with ns per pose as context. */
static void report_sampling(const bench_opts *o, const char *name, bench_stats s, const clip_ctx *c,
                            const char *label) {
    double per = 1e9 / c->frames / c->clip.track_count;
    char ctx[256];
    snprintf(ctx, sizeof ctx, "\"port\": \"%s\", \"path\": \"%s\", \"clip\": \"%s\", \"tracks\": %u, \"ns_per_pose\": %.1f",
             path_port(c->path), path_name(c->path), label, (unsigned)c->clip.track_count, s.median / c->frames * 1e9);
    bench_report(o, name, "ns_per_track", s.median * per, s.min * per, s.max * per, s.n, ctx);
}

/* Cold cache (ACL's method): enough copies of the clip to exceed the
 * last-level cache, each decoded with its own binding and cursor, like as
 * many characters each playing its own copy: pose f samples copy f mod
 * copies at that copy's next frame (60 Hz, looping), so key data comes
 * from memory rather than cache while every cursor still moves forward. */
#define COLD_BYTES (64u << 20)
typedef struct cold_ctx {
    clip_ctx *copies;
    unsigned char **bytes;
    uint32_t *next_frame;     /* per copy */
    uint32_t count, frames, clip_frames;
} cold_ctx;

static void run_cold(void *p) {
    cold_ctx *c = (cold_ctx *)p;
    uint32_t f;
    for (f = 0; f < c->frames; f++) {
        uint32_t i = f % c->count, frame = c->next_frame[i]++ % c->clip_frames;
        sample(&c->copies[i], (float)frame / 60.0f);
    }
    bench_keep(c->copies[0].poses);
}

/* Decodes a clip into c with the rig of all its hashes, a cursor and both
 * samplers; returns 0 when the clip does not decode. */
static int setup_clip(clip_ctx *c, const unsigned char *data, size_t size) {
    plumbob_arena a, s;
    uint32_t *hashes, t;
    size_t need;
    if (plumbob_clip_measure(data, size, &need) != PLUMBOB_OK) return 0;
    need += 64u * 1024u;
    c->arena_mem = (unsigned char *)malloc(need);
    plumbob_arena_init(&a, c->arena_mem, need);
    if (plumbob_clip_decode(data, size, &a, &c->clip) != PLUMBOB_OK) return 0;
    hashes = (uint32_t *)malloc(sizeof(uint32_t) * (c->clip.track_count + 1u));
    for (t = 0; t < c->clip.track_count; t++) hashes[t] = c->clip.tracks[t].hash;
    c->poses = (plumbob_bone_pose *)calloc(c->clip.track_count + 1u, sizeof(plumbob_bone_pose));
    need = plumbob_clip_schedule_size(&c->clip);
    c->schedule_mem = (unsigned char *)malloc(need);
    plumbob_arena_init(&s, c->schedule_mem, need);
    if (plumbob_clip_bind(&c->clip, hashes, c->clip.track_count, NULL, 0, &a, &c->binding) != PLUMBOB_OK ||
        plumbob_clip_cursor_init(&c->clip, &a, &c->cursor) != PLUMBOB_OK ||
        plumbob_clip_schedule_build(&c->clip, &s, &c->schedule) != PLUMBOB_OK ||
        plumbob_clip_sampler_init(&c->schedule, &c->binding, 0, &a, &c->sampler[PATH_PORT]) != PLUMBOB_OK ||
        plumbob_clip_sampler_init(&c->schedule, &c->binding, PLUMBOB_CLIP_SAMPLER_REFERENCE, &a,
                                  &c->sampler[PATH_SCALAR]) != PLUMBOB_OK)
        abort();
    free(hashes);
    return 1;
}

static void bench_cold(const bench_opts *o, int samples, const char *label, const unsigned char *data, size_t size,
                       uint32_t frames, int path) {
    cold_ctx c;
    uint32_t i;
    bench_stats s;
    char ctx[256];
    double per;
    c.count = (uint32_t)(COLD_BYTES / size) + 1u;
    if (c.count > 4096) c.count = 4096;
    c.frames = frames > c.count ? frames : c.count; /* every copy is touched */
    c.clip_frames = frames;
    c.next_frame = (uint32_t *)calloc(c.count, sizeof *c.next_frame);
    c.copies = (clip_ctx *)calloc(c.count, sizeof *c.copies);
    c.bytes = (unsigned char **)calloc(c.count, sizeof *c.bytes);
    for (i = 0; i < c.count; i++) {
        c.bytes[i] = (unsigned char *)malloc(size);
        memcpy(c.bytes[i], data, size);
        if (!setup_clip(&c.copies[i], c.bytes[i], size)) abort();
        c.copies[i].path = path;
        c.copies[i].use_cursor = 1;
    }
    s = bench_time(run_cold, &c, samples / 4 + 3);
    per = 1e9 / c.frames / c.copies[0].clip.track_count;
    snprintf(ctx, sizeof ctx, "\"port\": \"%s\", \"path\": \"%s\", \"clip\": \"%s\", \"tracks\": %u, \"copies\": %u, \"ns_per_pose\": %.1f",
             path_port(path), path_name(path), label, (unsigned)c.copies[0].clip.track_count, (unsigned)c.count,
             s.median / c.frames * 1e9);
    bench_report(o, "sample_forward_cold", "ns_per_track", s.median * per, s.min * per, s.max * per, s.n, ctx);
    for (i = 0; i < c.count; i++) {
        free(c.copies[i].arena_mem);
        free(c.copies[i].schedule_mem);
        free(c.copies[i].poses);
        free(c.bytes[i]);
    }
    free(c.copies);
    free(c.bytes);
    free(c.next_frame);
}

static void bench_one(const bench_opts *o, int samples, const char *label, const unsigned char *data, size_t size) {
    clip_ctx c;
    uint32_t f;
    size_t need;
    bench_stats s;
    char ctx[256];
    uint32_t st = 12345, keys;
    int path;
    memset(&c, 0, sizeof c);
    c.data = data;
    c.size = size;
    if (plumbob_clip_measure(data, size, &need) != PLUMBOB_OK || !setup_clip(&c, data, size)) return;
    c.frames = (uint32_t)(plumbob_clip_duration(&c.clip) * 60.0f) + 1u;
    c.times = (float *)malloc(sizeof(float) * c.frames);
    for (path = 0; path < PATHS; path++) {
        c.path = path;
        /* forward playback at 60 Hz */
        for (f = 0; f < c.frames; f++) c.times[f] = (float)f / 60.0f;
        c.use_cursor = 1;
        report_sampling(o, "sample_forward", bench_time(run_poses, &c, samples), &c, label);
        /* random access (the cursor path without a cursor: a search per track) */
        for (f = 0; f < c.frames; f++) {
            st ^= st << 13; st ^= st >> 17; st ^= st << 5;
            c.times[f] = plumbob_clip_duration(&c.clip) * (float)(st % 10000u) / 10000.0f;
        }
        c.use_cursor = 0;
        report_sampling(o, "sample_random", bench_time(run_poses, &c, samples), &c, label);
        /* backward playback at 60 Hz: the search path */
        for (f = 0; f < c.frames; f++) c.times[f] = (float)(c.frames - 1u - f) / 60.0f;
        c.use_cursor = 1;
        report_sampling(o, "sample_backward", bench_time(run_poses, &c, samples), &c, label);
        bench_cold(o, samples, label, data, size, c.frames, path);
    }
    keys = 0;
    for (f = 0; f < c.clip.track_count; f++) keys += c.clip.tracks[f].key_count;
    snprintf(ctx, sizeof ctx, "\"clip\": \"%s\", \"tracks\": %u, \"keys\": %u, \"sampler_bytes\": %zu, "
             "\"schedule_bytes\": %zu, \"cursor_bytes\": %zu",
             label, (unsigned)c.clip.track_count, (unsigned)keys, plumbob_clip_sampler_size(&c.schedule, &c.binding),
             plumbob_clip_schedule_size(&c.clip), (size_t)c.clip.track_count * 2u);
    bench_report(o, "sampler_arena_bytes", "bytes", (double)plumbob_clip_sampler_size(&c.schedule, &c.binding),
                 0, 0, 1, ctx);
    /* building the schedule: once per clip, shared by its samplers */
    s = bench_time(run_schedule, &c, samples);
    snprintf(ctx, sizeof ctx, "\"clip\": \"%s\", \"keys\": %u, \"schedule_bytes\": %zu, \"ms\": %.3f", label,
             (unsigned)keys, plumbob_clip_schedule_size(&c.clip), s.median * 1e3);
    bench_report(o, "schedule_build", "ns_per_key", s.median * 1e9 / keys, s.min * 1e9 / keys,
                 s.max * 1e9 / keys, s.n, ctx);
    free(c.arena_mem);
    c.arena_mem = (unsigned char *)malloc(1u << 20);
    s = bench_time(run_decode, &c, samples);
    snprintf(ctx, sizeof ctx, "\"clip\": \"%s\", \"bytes\": %zu, \"arena_bytes\": %zu", label, size, need);
    bench_report(o, "decode_clip", "MB/s", (double)size / s.median * 1e-6, (double)size / s.max * 1e-6,
                 (double)size / s.min * 1e-6, s.n, ctx);
    free(c.poses);
    free(c.times);
    free(c.arena_mem);
    free(c.schedule_mem);
}

size_t bench_synthetic_clip(unsigned char **out) {
    enum { BONES = 150, KEYS = 240 };
    plumbob_clip_track *t = (plumbob_clip_track *)calloc(2 * BONES, sizeof *t);
    unsigned char *keys = (unsigned char *)malloc((size_t)2 * BONES * KEYS * 12);
    uint16_t ticks[KEYS];
    float v[KEYS * 4];
    plumbob_clip c;
    size_t n = 0, cap;
    int b, k;
    memset(&c, 0, sizeof c);
    for (k = 0; k < KEYS; k++) ticks[k] = (uint16_t)k;
    for (b = 0; b < 2 * BONES; b++) {
        int rot = b % 2 == 0;
        if (rot) { /* a bone turning smoothly about its own axis: unit keys 0.02 rad apart, as animation is */
            double ax = 1.0 + b % 3, ay = 2.0, az = 3.0 - b % 2, len = sqrt(ax * ax + ay * ay + az * az);
            for (k = 0; k < KEYS; k++) {
                double half = 0.5 * (0.02 * k + 0.1 * b), sn = sin(half) / len;
                v[4 * k] = (float)(ax * sn);
                v[4 * k + 1] = (float)(ay * sn);
                v[4 * k + 2] = (float)(az * sn);
                v[4 * k + 3] = (float)cos(half);
            }
        } else {
            for (k = 0; k < KEYS * 4; k++) v[k] = 0.5f + 0.4f * (float)((k * 37 + b * 11) % 100) / 100.0f;
        }
        plumbob_clip_encode_track(&t[b], (uint32_t)(b / 2) * 2654435761u, rot ? 0x14 : 0x12, rot ? 2 : 1,
                                  KEYS, ticks, v, keys + (size_t)b * KEYS * 12);
    }
    c.version = 2;
    c.frame_duration = 1.0f / 30.0f;
    c.tick_count = KEYS;
    c.name.ptr = c.source.ptr = "synthetic";
    c.name.len = c.source.len = 9;
    c.track_count = 2 * BONES;
    c.tracks = t;
    cap = plumbob_clip_write_size(&c);
    *out = (unsigned char *)malloc(cap);
    if (plumbob_clip_write(&c, *out, cap, &n) != PLUMBOB_OK) abort();
    free(t);
    free(keys);
    return n;
}

void bench_clips(const bench_opts *o, int samples) {
    static const char *pkgs[] = {"../shared/corpus/sims3/EWBreastfeed.package",
                                 "../shared/corpus/sims3/PetFightingSkill.package"};
    int found = 0;
    size_t p;
    for (p = 0; p < 2; p++) {
        size_t len = 0;
        unsigned char *data = bench_read_file(pkgs[p], &len);
        plumbob_package pkg;
        uint32_t i;
        if (!data) continue;
        if (plumbob_package_open(&pkg, data, len) != PLUMBOB_OK) abort();
        for (i = 0; i < pkg.count; i++) {
            plumbob_package_entry e;
            const unsigned char *res;
            size_t rs;
            unsigned char *buf;
            char label[32];
            plumbob_package_entry_at(&pkg, i, &e);
            if (e.type != PLUMBOB_TYPE_CLIP) continue;
            buf = (unsigned char *)malloc(e.mem_size);
            if (plumbob_package_read(&pkg, &e, buf, e.mem_size, &res, &rs) != PLUMBOB_OK) abort();
            snprintf(label, sizeof label, "%016llX", (unsigned long long)e.instance);
            bench_one(o, samples, label, res, rs);
            free(buf);
            found++;
            if (o->quick && found >= 3) break;
        }
        free(data);
        if (o->quick && found >= 3) break;
    }
    if (!found) {
        unsigned char *clip;
        size_t n = bench_synthetic_clip(&clip);
        if (!o->json) printf("(../shared/corpus not found: a synthetic 300-track clip instead)\n");
        bench_one(o, samples, "synthetic", clip, n);
        free(clip);
    }
}
