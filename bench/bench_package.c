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

static void bench_refpack_corpus(const bench_opts *o, int samples);

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
    snprintf(ctx, sizeof ctx, "\"data\": \"synthetic\", \"bytes_out\": %zu, \"ratio\": %.3f, \"memcpy_MB_s\": %.0f", n,
             (double)cn / (double)n, (double)n / m.median * 1e-6);
    bench_report(o, "refpack_decompress", "MB/s", (double)n / s.median * 1e-6, (double)n / s.max * 1e-6,
                 (double)n / s.min * 1e-6, s.n, ctx);
    free(raw);
    free(comp);
    free(work);
    free(c.out);
    bench_refpack_corpus(o, samples);
}

/* Every RefPack resource of the Sims 3 corpus packages, decompressed in
 * turn: the streams the game's own compressor wrote (short copies, many
 * literal runs, offsets under 16 that hit store forwarding). */
#define CORPUS_MAX 512
typedef struct rp_corpus {
    const unsigned char *src[CORPUS_MAX];
    size_t src_size[CORPUS_MAX], raw_size[CORPUS_MAX];
    int count;
    size_t total_in, total_out, largest;
    unsigned char *out, *copy_src;
} rp_corpus;

static void run_decompress_corpus(void *p) {
    rp_corpus *c = (rp_corpus *)p;
    int i;
    for (i = 0; i < c->count; i++) {
        size_t n;
        if (plumbob_refpack_decompress(c->src[i], c->src_size[i], c->out, c->raw_size[i], &n) != PLUMBOB_OK) abort();
    }
    bench_keep(c->out);
}

/* The baseline: a memcpy of each resource's decompressed size. */
static void run_copy_corpus(void *p) {
    rp_corpus *c = (rp_corpus *)p;
    int i;
    for (i = 0; i < c->count; i++) memcpy(c->out, c->copy_src, c->raw_size[i]);
    bench_keep(c->out);
}

static void bench_refpack_corpus(const bench_opts *o, int samples) {
    static const char *pkgs[] = {"../shared/corpus/sims3/EWBreastfeed.package",
                                 "../shared/corpus/sims3/PetFightingSkill.package",
                                 "../shared/corpus/sims3/WarriorCats.package"};
    unsigned char *files[3] = {NULL, NULL, NULL};
    rp_corpus *c = (rp_corpus *)calloc(1, sizeof *c);
    bench_stats s, m;
    char ctx[200];
    size_t f;
    for (f = 0; f < 3; f++) {
        size_t size;
        plumbob_package pkg;
        uint32_t i;
        files[f] = bench_read_file(pkgs[f], &size);
        if (!files[f] || plumbob_package_open(&pkg, files[f], size) != PLUMBOB_OK) continue;
        for (i = 0; i < pkg.count && c->count < CORPUS_MAX; i++) {
            plumbob_package_entry e;
            if (plumbob_package_entry_at(&pkg, i, &e) != PLUMBOB_OK || e.compression != PLUMBOB_COMPRESSION_REFPACK) continue;
            c->src[c->count] = plumbob_package_raw(&pkg, &e);
            c->src_size[c->count] = e.file_size;
            c->raw_size[c->count] = e.mem_size;
            c->total_in += e.file_size;
            c->total_out += e.mem_size;
            if (e.mem_size > c->largest) c->largest = e.mem_size;
            c->count++;
        }
    }
    if (c->count == 0) {
        if (!o->json) printf("(../shared/corpus not found: no corpus RefPack figure)\n");
    } else {
        c->out = (unsigned char *)malloc(c->largest);
        c->copy_src = (unsigned char *)calloc(1, c->largest);
        s = bench_time(run_decompress_corpus, c, samples / 2 + 5);
        m = bench_time(run_copy_corpus, c, samples / 2 + 5);
        snprintf(ctx, sizeof ctx, "\"data\": \"corpus\", \"resources\": %d, \"bytes_out\": %zu, \"ratio\": %.3f, "
                 "\"memcpy_MB_s\": %.0f", c->count, c->total_out, (double)c->total_in / (double)c->total_out,
                 (double)c->total_out / m.median * 1e-6);
        bench_report(o, "refpack_decompress", "MB/s", (double)c->total_out / s.median * 1e-6,
                     (double)c->total_out / s.max * 1e-6, (double)c->total_out / s.min * 1e-6, s.n, ctx);
        free(c->out);
        free(c->copy_src);
    }
    for (f = 0; f < 3; f++) free(files[f]);
    free(c);
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
