/* GMDC skinning benchmarks: ns per vertex for 1-4 influences, positions
 * only and with normals, at 10k / 100k / 1M vertices, beside an in-run
 * memcpy of the same bytes in and out (the bandwidth limit). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "bench_cases.h"
#include "plumbob.h"
#include "pb_bytes.h"
#include "ports.h"

/* scratch for skin jobs (PLUMBOB_GMDC_SKIN_WORK_SIZE) */
static unsigned char skin_work[PLUMBOB_GMDC_SKIN_WORK_SIZE];

#define JOINTS 32

/* Little-endian builders: the core's own byte helpers. */
#define put32 pb_put_le32
#define putf pb_put_f32le

/* A version-2 mesh of n vertices, each with `infl` influences over 32 joints,
 * and triangles over all of them. */
static unsigned char *build_mesh(uint32_t n, uint32_t infl, size_t *size) {
    uint32_t nw = infl > 1 ? infl - 1 : 1, i, k, s = 1;
    unsigned char *pos = (unsigned char *)malloc((size_t)n * 12), *nrm = (unsigned char *)malloc((size_t)n * 12);
    unsigned char *ba = (unsigned char *)malloc((size_t)n * 4), *bw = (unsigned char *)malloc((size_t)n * 4 * nw);
    unsigned char refs[16], *faces = (unsigned char *)malloc((size_t)n * 4), bones[JOINTS * 4], joints[JOINTS * 28], *out;
    plumbob_gmdc_element els[4];
    plumbob_gmdc_linkage link;
    plumbob_gmdc_group grp;
    plumbob_gmdc g;
    for (i = 0; i < n; i++) {
        uint32_t a = 0xFFFFFFFFu;
        for (k = 0; k < 3; k++) {
            s ^= s << 13; s ^= s >> 17; s ^= s << 5;
            putf(pos + 12u * i + 4u * k, (float)(s % 1000u) / 500.0f - 1.0f);
            putf(nrm + 12u * i + 4u * k, k == 2 ? 1.0f : 0.0f);
        }
        for (k = 0; k < infl; k++) a = (a & ~(0xFFu << (8 * k))) | (((i + k * 7u) % JOINTS) << (8 * k));
        put32(ba + 4u * i, a);
        for (k = 0; k < nw; k++) putf(bw + 4u * (i * nw + k), infl == 1 ? 1.0f : 1.0f / (float)infl);
    }
    for (i = 0; i < 4; i++) put32(refs + 4 * i, i);
    /* triangles over every vertex, so decode validates each vertex's slots */
    for (i = 0; i < n / 3u * 3u; i++) put32(faces + 4 * i, i);
    for (i = 0; i < JOINTS; i++) {
        put32(bones + 4 * i, i);
        memset(joints + 28 * i, 0, 28);
        putf(joints + 28 * i + 12, 1.0f);
        putf(joints + 28 * i + 16, (float)i * 0.1f);
    }
    memset(els, 0, sizeof els);
    els[0].count = n; els[0].identity = PLUMBOB_GMDC_VERTICES; els[0].format = 2; els[0].byte_size = n * 12; els[0].data = pos;
    els[1].count = n; els[1].identity = PLUMBOB_GMDC_NORMALS; els[1].format = 2; els[1].byte_size = n * 12; els[1].data = nrm;
    els[2].count = n; els[2].identity = PLUMBOB_GMDC_BONE_ASSIGNMENTS; els[2].format = 4; els[2].byte_size = n * 4; els[2].data = ba;
    els[3].count = n; els[3].identity = PLUMBOB_GMDC_BONE_WEIGHTS; els[3].format = nw - 1; els[3].byte_size = n * 4 * nw; els[3].data = bw;
    memset(&link, 0, sizeof link);
    link.refs.data = refs; link.refs.count = 4; link.vertex_count = n; link.active_count = 4;
    memset(&grp, 0, sizeof grp);
    grp.primitive = 2; grp.name.ptr = "bench"; grp.name.len = 5;
    grp.faces.data = faces; grp.faces.count = n / 3u * 3u; grp.opacity = 0xFFFFFFFFu;
    grp.bones.data = bones; grp.bones.count = JOINTS;
    memset(&g, 0, sizeof g);
    g.version = 2; g.index_size = 4;
    g.head.resource_name.ptr = "bench"; g.head.resource_name.len = 5;
    g.element_count = 4; g.elements = els; g.linkage_count = 1; g.linkages = &link;
    g.group_count = 1; g.groups = &grp; g.joint_count = JOINTS; g.joints = joints;
    *size = plumbob_gmdc_write_size(&g);
    out = (unsigned char *)malloc(*size);
    if (plumbob_gmdc_write(&g, out, *size, size) != PLUMBOB_OK) abort();
    free(pos); free(nrm); free(ba); free(bw); free(faces);
    return out;
}

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
            unsigned char *mesh = build_mesh(sizes[si], infl, &size), *mem;
            plumbob_arena a;
            plumbob_gmdc g;
            plumbob_mat34 palette[JOINTS], model[JOINTS];
            uint32_t j;
            if (plumbob_gmdc_measure(mesh, size, &need) != PLUMBOB_OK) abort();
            mem = (unsigned char *)malloc(need);
            plumbob_arena_init(&a, mem, need);
            if (plumbob_gmdc_decode(mesh, size, &a, &g) != PLUMBOB_OK) abort();
            for (j = 0; j < JOINTS; j++) {
                plumbob_quat q = {0, 0, 0.0998334f, 0.9950042f};
                plumbob_vec3 t = {0.1f * (float)j, 0, 0};
                model[j] = plumbob_mat34_from_rt(q, t);
            }
            plumbob_gmdc_palette(&g, model, palette);
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
                c.job.work = skin_work;
                c.job.positions = (float *)malloc(bytes_out);
                c.job.position_stride = normals ? 6 : 3;
                c.job.normals = normals ? c.job.positions + 3 : NULL;
                c.job.normal_stride = 6;
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
}
