/* Package and RefPack benchmarks: decompression MB/s of output beside a
 * memcpy of the same bytes, and open / sort / lookup on 100k entries. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "bench_cases.h"
#include "plumbob.h"

typedef struct rp_ctx {
    const unsigned char *comp;
    size_t comp_size, raw_size;
    unsigned char *out, *copy_src;
} rp_ctx;

static void run_decompress(void *p) {
    rp_ctx *c = (rp_ctx *)p;
    size_t n;
    if (plumbob_refpack_decompress(c->comp, c->comp_size, c->out, c->raw_size, &n) != PLUMBOB_OK) abort();
    bench_keep(c->out);
}

static void run_copy(void *p) {
    rp_ctx *c = (rp_ctx *)p;
    memcpy(c->out, c->copy_src, c->raw_size);
    bench_keep(c->out);
}

/* Text-like data with repeats, roughly like the game's tuning and clip data. */
static void make_payload(unsigned char *b, size_t n) {
    static const char *words[] = {"b__ROOT__", "Pelvis", "0.25", "track", "<Tuning>", "sim", "1.000", "walk"};
    size_t i = 0;
    uint32_t s = 1;
    while (i < n) {
        const char *w;
        size_t k;
        s ^= s << 13; s ^= s >> 17; s ^= s << 5;
        w = words[s % 8];
        for (k = 0; w[k] && i < n; k++) b[i++] = (unsigned char)w[k];
        if (i < n) b[i++] = (unsigned char)(s >> 24);
    }
}

void bench_refpack(const bench_opts *o, int samples) {
    size_t n = 8u << 20, cap = plumbob_refpack_bound(n), cn;
    unsigned char *raw = (unsigned char *)malloc(n), *comp = (unsigned char *)malloc(cap);
    void *work = malloc(plumbob_refpack_compress_work_size());
    rp_ctx c;
    bench_stats s, m;
    char ctx[160];
    make_payload(raw, n);
    if (plumbob_refpack_compress(raw, n, comp, cap, work, plumbob_refpack_compress_work_size(), &cn) != PLUMBOB_OK) abort();
    c.comp = comp;
    c.comp_size = cn;
    c.raw_size = n;
    c.out = (unsigned char *)malloc(n);
    c.copy_src = raw;
    s = bench_time(run_decompress, &c, samples / 4 + 5);
    m = bench_time(run_copy, &c, samples / 4 + 5);
    snprintf(ctx, sizeof ctx, "\"bytes_out\": %zu, \"ratio\": %.3f, \"memcpy_MB_s\": %.0f", n,
             (double)cn / (double)n, (double)n / m.median * 1e-6);
    bench_report(o, "refpack_decompress", "MB/s", (double)n / s.median * 1e-6, (double)n / s.max * 1e-6,
                 (double)n / s.min * 1e-6, s.n, ctx);
    free(raw);
    free(comp);
    free(work);
    free(c.out);
}

typedef struct pkg_ctx {
    unsigned char *data;
    size_t size;
    plumbob_package pkg;
    plumbob_arena arena;
    unsigned char *arena_mem;
    size_t arena_size;
    uint64_t *queries;
    uint32_t nq;
} pkg_ctx;

static void run_open_sort(void *p) {
    pkg_ctx *c = (pkg_ctx *)p;
    if (plumbob_package_open(&c->pkg, c->data, c->size) != PLUMBOB_OK) abort();
    plumbob_arena_init(&c->arena, c->arena_mem, c->arena_size);
    if (plumbob_package_sort(&c->pkg, &c->arena) != PLUMBOB_OK) abort();
}

static void run_lookups(void *p) {
    pkg_ctx *c = (pkg_ctx *)p;
    uint32_t i;
    for (i = 0; i < c->nq; i++) {
        plumbob_package_entry e;
        if (plumbob_package_find(&c->pkg, PLUMBOB_TYPE_CLIP, 0, c->queries[i], &e, NULL) != PLUMBOB_OK) abort();
    }
}

void bench_package_lookup(const bench_opts *o, int samples) {
    enum { N = 100000, Q = 10000 };
    plumbob_package_write_entry *w = (plumbob_package_write_entry *)calloc(N, sizeof *w);
    pkg_ctx c;
    bench_stats s;
    uint32_t i, st = 7;
    size_t cap;
    for (i = 0; i < N; i++) {
        st ^= st << 13; st ^= st >> 17; st ^= st << 5;
        w[i].type = PLUMBOB_TYPE_CLIP;
        w[i].instance = (uint64_t)st << 32 | i;
        w[i].data = "";
    }
    cap = plumbob_package_write_size(w, N, 2);
    c.data = (unsigned char *)malloc(cap);
    if (plumbob_package_write(w, N, 2, c.data, cap, &c.size) != PLUMBOB_OK) abort();
    if (plumbob_package_open(&c.pkg, c.data, c.size) != PLUMBOB_OK) abort();
    c.arena_size = plumbob_package_sort_arena_size(&c.pkg);
    c.arena_mem = (unsigned char *)malloc(c.arena_size);
    c.nq = Q;
    c.queries = (uint64_t *)malloc(sizeof(uint64_t) * Q);
    for (i = 0; i < Q; i++) c.queries[i] = w[(i * 7919u) % N].instance;
    s = bench_time(run_open_sort, &c, samples / 4 + 5);
    bench_report(o, "package_open_sort", "ms", s.median * 1e3, s.min * 1e3, s.max * 1e3, s.n,
                 "\"entries\": 100000");
    s = bench_time(run_lookups, &c, samples / 4 + 5);
    bench_report(o, "package_lookup", "ns_per_find", s.median / Q * 1e9, s.min / Q * 1e9,
                 s.max / Q * 1e9, s.n, "\"entries\": 100000, \"sorted\": true");
    free(w);
    free(c.data);
    free(c.arena_mem);
    free(c.queries);
}
