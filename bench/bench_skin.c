/* GMDC skinning benchmarks: ns per vertex for 1-4 influences, positions
 * only and with normals, at 10k / 100k / 1M vertices, beside an in-run
 * memcpy of the same bytes in and out (the bandwidth limit). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "bench_cases.h"
#include "bench_mesh.h"
#include "plumbob.h"
#include "ports.h"

/* scratch for skin jobs (PLUMBOB_GMDC_SKIN_WORK_SIZE) */
static unsigned char skin_work[PLUMBOB_GMDC_SKIN_WORK_SIZE];

#define JOINTS BENCH_SKIN_JOINTS

typedef struct skin_ctx {
    plumbob_gmdc_skin_job job;
    unsigned char *copy_in, *copy_out;
    size_t copy_bytes;
} skin_ctx;

static void run_skin(void *p) {
    skin_ctx *c = (skin_ctx *)p;
    if (plumbob_gmdc_skin(&c->job) != PLUMBOB_OK) abort();
    bench_keep(c->job.positions);
}

typedef struct decode_ctx {
    const unsigned char *mesh;
    size_t size, need;
    unsigned char *mem;
} decode_ctx;

/* measure + decode: what an engine pays per mesh load (keys stay in place). */
static void run_decode(void *p) {
    decode_ctx *d = (decode_ctx *)p;
    plumbob_arena a;
    plumbob_gmdc g;
    size_t need;
    if (plumbob_gmdc_measure(d->mesh, d->size, &need) != PLUMBOB_OK || need > d->need) abort();
    plumbob_arena_init(&a, d->mem, d->need);
    if (plumbob_gmdc_decode(d->mesh, d->size, &a, &g) != PLUMBOB_OK) abort();
    bench_keep(&g);
}

static void run_copy(void *p) {
    skin_ctx *c = (skin_ctx *)p;
    memcpy(c->copy_out, c->copy_in, c->copy_bytes);
    bench_keep(c->copy_out);
}

void bench_skinning(const bench_opts *o, int samples) {
    static const uint32_t sizes[3] = {10000, 100000, 1000000};
    uint32_t si, infl;
    int normals;
    for (si = 0; si < 3; si++) {
        if (o->quick && si == 2) break;
        for (infl = 1; infl <= 4; infl++) {
            size_t size, need;
            unsigned char *mesh = bench_skin_mesh(sizes[si], infl, &size), *mem;
            plumbob_gmdc g;
            plumbob_mat34 palette[JOINTS];
            mem = bench_skin_decode(mesh, size, &g, &need);
            bench_skin_palette(&g, palette);
            if (infl == 4) { /* decode speed once per size: validation walks every face's slots */
                decode_ctx d;
                bench_stats ds;
                char dctx[96];
                d.mesh = mesh;
                d.size = size;
                d.need = need;
                d.mem = mem;
                ds = bench_time(run_decode, &d, si == 2 ? samples / 8 + 3 : samples / 2 + 3);
                snprintf(dctx, sizeof dctx, "\"vertices\": %u, \"bytes\": %zu", (unsigned)sizes[si], size);
                bench_report(o, "decode_gmdc", "MB/s", (double)size / ds.median * 1e-6, (double)size / ds.max * 1e-6,
                             (double)size / ds.min * 1e-6, ds.n, dctx);
            }
            for (normals = 0; normals <= 1; normals++) {
              int port;
              for (port = 0; port < 2; port++) {
                if (port && !strcmp(PLUMBOB_PORT_NAME, "scalar")) break; /* no second port */
                skin_ctx c;
                bench_stats s, m;
                char ctx[256];
                size_t bytes_in = (size_t)sizes[si] * (12u + 4u + 4u * (infl > 1 ? infl - 1 : 1) + (normals ? 12u : 0u));
                size_t bytes_out = (size_t)sizes[si] * (normals ? 24u : 12u);
                memset(&c, 0, sizeof c);
                c.job.gmdc = &g;
                c.job.palette = palette;
                c.job.palette_count = BENCH_SKIN_JOINTS;
                c.job.work = skin_work;
                c.job.positions = (float *)malloc(bytes_out);
                c.job.position_stride = normals ? 6 : 3;
                c.job.position_count = sizes[si];
                c.job.normals = normals ? c.job.positions + 3 : NULL;
                c.job.normal_stride = 6;
                c.job.normal_count = sizes[si];
                c.job.flags = port ? PLUMBOB_SKIN_REFERENCE : 0u;
                c.copy_bytes = bytes_in + bytes_out;
                c.copy_in = (unsigned char *)malloc(c.copy_bytes);
                c.copy_out = (unsigned char *)malloc(c.copy_bytes);
                memset(c.copy_in, 1, c.copy_bytes);
                memset(c.copy_out, 2, c.copy_bytes);
                s = bench_time(run_skin, &c, si == 2 ? samples / 8 + 3 : samples / 2 + 3);
                m = bench_time(run_copy, &c, si == 2 ? samples / 8 + 3 : samples / 2 + 3);
                snprintf(ctx, sizeof ctx, "\"port\": \"%s\", \"vertices\": %u, \"influences\": %u, \"normals\": %s, "
                         "\"GB_s\": %.2f, \"memcpy_GB_s\": %.2f, \"bandwidth_fraction\": %.3f",
                         port ? "scalar" : PLUMBOB_PORT_NAME, (unsigned)sizes[si], (unsigned)infl, normals ? "true" : "false",
                         (double)c.copy_bytes / s.median * 1e-9, (double)c.copy_bytes / m.median * 1e-9,
                         m.median / s.median);
                bench_report(o, "skin", "ns_per_vertex", s.median / sizes[si] * 1e9, s.min / sizes[si] * 1e9,
                             s.max / sizes[si] * 1e9, s.n, ctx);
                /* the skin case's bytes per second over memcpy's, min/max from the spread */
                bench_report(o, "skin_bandwidth_fraction", "fraction", m.median / s.median, m.min / s.max,
                             m.max / s.min, s.n, ctx);
                free(c.job.positions);
                free(c.copy_in);
                free(c.copy_out);
              }
            }
            free(mem);
            free(mesh);
        }
    }
    { /* 100k vertices whose used slots vary at random (one to four), with normals: the kernels' decode where
         no branch on an unused slot predicts */
        size_t size, need;
        unsigned char *mesh = bench_skin_mesh_drops(100000, &size), *mem;
        plumbob_gmdc g;
        plumbob_mat34 palette[JOINTS];
        int port;
        mem = bench_skin_decode(mesh, size, &g, &need);
        bench_skin_palette(&g, palette);
        for (port = 0; port < 2; port++) {
            skin_ctx c;
            bench_stats s;
            char ctx[128];
            if (port && !strcmp(PLUMBOB_PORT_NAME, "scalar")) break;
            memset(&c, 0, sizeof c);
            c.job.gmdc = &g;
            c.job.palette = palette;
            c.job.palette_count = BENCH_SKIN_JOINTS;
            c.job.work = skin_work;
            c.job.positions = (float *)malloc((size_t)100000 * 24u);
            c.job.position_stride = 6;
            c.job.position_count = 100000;
            c.job.normals = c.job.positions + 3;
            c.job.normal_stride = 6;
            c.job.normal_count = 100000;
            c.job.flags = port ? PLUMBOB_SKIN_REFERENCE : 0u;
            s = bench_time(run_skin, &c, samples / 2 + 3);
            snprintf(ctx, sizeof ctx, "\"port\": \"%s\", \"vertices\": 100000, \"slots\": 4, \"normals\": true",
                     port ? "scalar" : PLUMBOB_PORT_NAME);
            bench_report(o, "skin_mixed_slots", "ns_per_vertex", s.median / 100000 * 1e9, s.min / 100000 * 1e9,
                         s.max / 100000 * 1e9, s.n, ctx);
            free(c.job.positions);
        }
        free(mem);
        free(mesh);
    }
}
