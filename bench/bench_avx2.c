/* The AVX2 build's question, answered in one run: the SSE2 skinning and
 * clip kernels beside the same sources built with -mavx2 (their AVX2
 * bodies, VEX-encoded; no FMA, so the same bits), rounds interleaved:
 * skinning on bench_skin.c's mesh, the clip kernel on the lane groups of a
 * sampler over bench_clip.c's synthetic clip.  The Makefile builds the
 * second copies (plumbob_pb_skin_avx2, plumbob_pb_clip_lanes_avx2) on
 * x86-64 hosts whose compiler takes -mavx2 and defines PLUMBOB_BENCH_AVX2;
 * the cases run where the CPU has AVX2. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "bench_cases.h"
#include "bench_mesh.h"
#include "plumbob.h"
#include "kernels.h"

#if defined(PLUMBOB_BENCH_AVX2) && defined(PLUMBOB_PORT_SSE2)
void plumbob_pb_skin_avx2(const pb_skin_range *r);

/* One kernel call, in seconds. */
static double time_kernel(void (*kernel)(const pb_skin_range *), const pb_skin_range *r) {
    double t = bench_now();
    kernel(r);
    t = bench_now() - t;
    bench_keep(r->out_positions);
    return t;
}

/* The job's slot table, as plumbob_gmdc_skin builds it (bench mesh: slot k is joint k). */
static void slot_table(const plumbob_mat34 *palette, float *rows, uint16_t *offsets) {
    uint32_t k;
    for (k = 0; k < 256u; k++) pb_skin_put_entry(rows + PB_SKIN_ENTRY * k, k < BENCH_SKIN_JOINTS ? &palette[k].m[0][0] : NULL);
    pb_skin_slot_offsets(offsets, BENCH_SKIN_JOINTS);
}

void plumbob_pb_clip_lanes_avx2(const void *g, uint32_t count, uint32_t components, float t, float *out, size_t stride);
typedef void (*lanes_kernel)(const void *, uint32_t, uint32_t, float, float *, size_t);

#define CLIP_CALLS 1000 /* kernel calls per timed sample: one call is well under a microsecond */

/* CLIP_CALLS frames of one kernel over the sampler's lane groups, in seconds. */
static double time_lanes(lanes_kernel kernel, const plumbob_clip_sampler *s, float ticks, plumbob_bone_pose *poses) {
    const pb_clip_lanes *g = (const pb_clip_lanes *)s->lanes; /* the rotation groups, then the translation groups */
    const pb_clip_vlanes *v = (const pb_clip_vlanes *)(const void *)(g + s->rotation_groups);
    size_t stride = sizeof(plumbob_bone_pose) / sizeof(float);
    double t = bench_now();
    int i;
    for (i = 0; i < CLIP_CALLS; i++) {
        kernel(g, s->rotation_groups, PB_CLIP_ROTATION, ticks, &poses[0].rotation.x, stride);
        kernel(v, s->vector_groups, PB_CLIP_VECTOR, ticks, &poses[0].translation.x, stride);
    }
    t = bench_now() - t;
    bench_keep(poses);
    return t;
}

/* The clip kernel's case: both builds over the same lane groups at the
 * same time, their poses compared bit for bit first. */
static void clip_case(const bench_opts *o, int samples) {
    unsigned char *data, *mem;
    size_t size = bench_synthetic_clip(&data), need;
    plumbob_clip clip;
    plumbob_clip_binding binding;
    plumbob_clip_sampler s;
    plumbob_arena a;
    plumbob_bone_pose *p1, *p2;
    uint32_t *hashes, t;
    double *t1, *t2, m1, m2;
    const float ticks = 120.5f; /* mid-clip, between keys */
    int n = samples + 3, i;
    char ctx[160];
    if (plumbob_clip_measure(data, size, &need) != PLUMBOB_OK) abort();
    need += 1024u * 1024u; /* binding and sampler */
    mem = (unsigned char *)malloc(need);
    plumbob_arena_init(&a, mem, need);
    if (plumbob_clip_decode(data, size, &a, &clip) != PLUMBOB_OK) abort();
    hashes = (uint32_t *)malloc(sizeof(uint32_t) * clip.track_count);
    for (t = 0; t < clip.track_count; t++) hashes[t] = clip.tracks[t].hash;
    p1 = (plumbob_bone_pose *)calloc(clip.track_count, sizeof *p1);
    p2 = (plumbob_bone_pose *)calloc(clip.track_count, sizeof *p2);
    if (plumbob_clip_bind(&clip, hashes, clip.track_count, NULL, 0, &a, &binding) != PLUMBOB_OK ||
        plumbob_clip_sampler_init(NULL, &binding, 0, &a, &s) != PLUMBOB_OK ||
        plumbob_clip_sampler_sample(&s, ticks * clip.frame_duration, p1, clip.track_count, NULL, 0) != PLUMBOB_OK)
        abort(); /* the lanes now hold the key pairs around `ticks` */
    memcpy(p2, p1, sizeof *p1 * clip.track_count); /* the same constants and untouched fields in both */
    time_lanes(pb_clip_lanes_sse2, &s, ticks, p1);
    time_lanes(plumbob_pb_clip_lanes_avx2, &s, ticks, p2);
    if (memcmp(p1, p2, sizeof *p1 * clip.track_count) != 0) {
        fprintf(stderr, "avx2: the two builds of the clip kernel disagree\n");
        abort();
    }
    t1 = (double *)malloc(sizeof(double) * (size_t)n);
    t2 = (double *)malloc(sizeof(double) * (size_t)n);
    for (i = 0; i < n; i++) { /* interleaved, alternating which goes first */
        if (i & 1) {
            t2[i] = time_lanes(plumbob_pb_clip_lanes_avx2, &s, ticks, p2);
            t1[i] = time_lanes(pb_clip_lanes_sse2, &s, ticks, p1);
        } else {
            t1[i] = time_lanes(pb_clip_lanes_sse2, &s, ticks, p1);
            t2[i] = time_lanes(plumbob_pb_clip_lanes_avx2, &s, ticks, p2);
        }
    }
    bench_sort(t1, n);
    bench_sort(t2, n);
    m1 = t1[n / 2];
    m2 = t2[n / 2];
    snprintf(ctx, sizeof ctx, "\"clip\": \"synthetic\", \"groups\": %u, \"sse2_ns\": %.1f, \"avx2_ns\": %.1f",
             (unsigned)(s.rotation_groups + s.vector_groups), m1 / CLIP_CALLS * 1e9, m2 / CLIP_CALLS * 1e9);
    bench_report(o, "clip_lanes_avx2_ratio", "avx2/sse2", m2 / m1, t2[0] / t1[0], t2[n - 1] / t1[n - 1], n, ctx);
    free(t1);
    free(t2);
    free(p1);
    free(p2);
    free(hashes);
    free(mem);
    free(data);
}

void bench_avx2(const bench_opts *o, int samples) {
    static const uint32_t sizes[2] = {10000, 100000};
    static float rows_mem[256 * PB_SKIN_ENTRY + 4];
    static uint16_t offsets[256];
    float *rows = (float *)(void *)(((uintptr_t)rows_mem + 15u) & ~(uintptr_t)15u);
    uint32_t si, infl;
    int normals;
    if (!__builtin_cpu_supports("avx2")) {
        printf("avx2: this CPU has no AVX2; case skipped\n");
        return;
    }
    clip_case(o, samples);
    for (si = 0; si < 2; si++) {
        for (infl = 1; infl <= 4; infl++) {
            size_t size, need;
            unsigned char *mesh = bench_skin_mesh(sizes[si], infl, &size), *mem;
            const plumbob_gmdc_element *pos, *nrm, *ba, *bw;
            plumbob_gmdc g;
            plumbob_mat34 palette[BENCH_SKIN_JOINTS];
            mem = bench_skin_decode(mesh, size, &g, &need);
            bench_skin_palette(&g, palette);
            pos = plumbob_gmdc_find_element(&g, 0, PLUMBOB_GMDC_VERTICES, 0);
            nrm = plumbob_gmdc_find_element(&g, 0, PLUMBOB_GMDC_NORMALS, 0);
            ba = plumbob_gmdc_find_element(&g, 0, PLUMBOB_GMDC_BONE_ASSIGNMENTS, 0);
            bw = plumbob_gmdc_find_element(&g, 0, PLUMBOB_GMDC_BONE_WEIGHTS, 0);
            if (!pos || !nrm || !ba || !bw) abort();
            slot_table(palette, rows, offsets);
            for (normals = 0; normals <= 1; normals++) {
                pb_skin_range r, r2;
                double *t1, *t2, m1, m2;
                char ctx[160];
                int n = si == 1 ? samples / 2 + 3 : samples + 3, i;
                float *out = (float *)malloc((size_t)sizes[si] * 24u), *out2 = (float *)malloc((size_t)sizes[si] * 24u);
                memset(&r, 0, sizeof r);
                r.count = sizes[si];
                r.positions = pos->data;
                r.normals = normals ? nrm->data : NULL;
                r.assignments = ba->data;
                r.weights = bw->data;
                r.weight_count = bw->format + 1u;
                r.slot_count = BENCH_SKIN_JOINTS;
                r.slot_table = rows;
                r.slot_offset = offsets;
                r.out_positions = out;
                r.position_stride = normals ? 6u : 3u;
                r.out_normals = normals ? out + 3 : NULL;
                r.normal_stride = 6u;
                r.normalize = 1u;
                r2 = r;
                r2.out_positions = out2;
                r2.out_normals = normals ? out2 + 3 : NULL;
                pb_skin_sse2(&r);
                plumbob_pb_skin_avx2(&r2);
                if (memcmp(out, out2, (size_t)sizes[si] * (normals ? 24u : 12u)) != 0) {
                    fprintf(stderr, "avx2: the two builds of the kernel disagree\n");
                    abort();
                }
                t1 = (double *)malloc(sizeof(double) * (size_t)n);
                t2 = (double *)malloc(sizeof(double) * (size_t)n);
                for (i = 0; i < n; i++) { /* interleaved, alternating which goes first */
                    if (i & 1) {
                        t2[i] = time_kernel(plumbob_pb_skin_avx2, &r2);
                        t1[i] = time_kernel(pb_skin_sse2, &r);
                    } else {
                        t1[i] = time_kernel(pb_skin_sse2, &r);
                        t2[i] = time_kernel(plumbob_pb_skin_avx2, &r2);
                    }
                }
                bench_sort(t1, n);
                bench_sort(t2, n);
                m1 = t1[n / 2];
                m2 = t2[n / 2];
                snprintf(ctx, sizeof ctx, "\"vertices\": %u, \"influences\": %u, \"normals\": %s, \"sse2_ns\": %.3f, \"avx2_ns\": %.3f",
                         (unsigned)sizes[si], (unsigned)infl, normals ? "true" : "false", m1 / sizes[si] * 1e9,
                         m2 / sizes[si] * 1e9);
                /* time ratio avx2 / sse2 (under 1: faster) of the medians; beside it
                 * the ratios of the fastest runs and of the slowest */
                bench_report(o, "skin_avx2_ratio", "avx2/sse2", m2 / m1, t2[0] / t1[0], t2[n - 1] / t1[n - 1], n, ctx);
                free(t1);
                free(t2);
                free(out);
                free(out2);
            }
            free(mem);
            free(mesh);
        }
    }
}
#else
void bench_avx2(const bench_opts *o, int samples) {
    (void)o;
    (void)samples;
    printf("avx2: not built (needs an x86-64 compiler that takes -mavx2)\n");
}
#endif
