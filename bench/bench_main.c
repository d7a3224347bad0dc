/* plumbob-bench: microbenchmarks with in-run baselines.
 *   plumbob-bench [--quick] [--json]
 * Figures are medians over many samples; each case prints its baseline
 * (memcpy of the same bytes) beside it.  Format cases join as they land. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "bench_cases.h"
#include "plumbob.h"

typedef struct copy_ctx {
    unsigned char *src, *dst;
    size_t size;
} copy_ctx;

static void run_memcpy(void *p) {
    copy_ctx *c = (copy_ctx *)p;
    memcpy(c->dst, c->src, c->size);
    bench_keep(c->dst);
}

typedef struct hash_ctx {
    char names[1024][24];
    uint32_t sum;
} hash_ctx;

static void run_fnv32(void *p) {
    hash_ctx *h = (hash_ctx *)p;
    int i;
    for (i = 0; i < 1024; i++) h->sum += plumbob_fnv32_str(h->names[i]);
    bench_keep(&h->sum);
}

int main(int argc, char **argv) {
    bench_opts o = {0, 0, NULL};
    int i, samples;
    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0) o.quick = 1;
        else if (strcmp(argv[i], "--json") == 0) o.json = 1;
        else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc) o.only = argv[++i];
        else {
            fprintf(stderr, "usage: plumbob-bench [--quick] [--json] [--only memcpy|hash|refpack|package|clip|import|skin|avx2|jazz|rig|anim|ik|blend]\n");
            return 2;
        }
    }
    samples = o.quick ? 15 : 101;
    if (!o.json) printf("plumbob %s bench, port %s\n", PLUMBOB_VERSION_STRING, plumbob_port_name());

    if (bench_wanted(&o, "memcpy")) { /* memcpy: the bandwidth ceiling later cases are compared with */
        static const size_t sizes[] = {64u << 10, 64u << 20};
        size_t k;
        for (k = 0; k < 2; k++) {
            copy_ctx c;
            bench_stats s;
            char ctx[64];
            c.size = sizes[k];
            c.src = (unsigned char *)malloc(c.size);
            c.dst = (unsigned char *)malloc(c.size);
            memset(c.src, 1, c.size);
            memset(c.dst, 2, c.size);
            s = bench_time(run_memcpy, &c, k == 0 ? samples * 10 : samples / 4 + 3);
            snprintf(ctx, sizeof ctx, "\"bytes\": %zu", c.size);
            bench_report(&o, "memcpy", "GB/s", (double)c.size / s.median * 1e-9,
                         (double)c.size / s.max * 1e-9, (double)c.size / s.min * 1e-9, s.n, ctx);
            free(c.src);
            free(c.dst);
        }
    }
    if (bench_wanted(&o, "hash")) { /* name hashing: bone names of typical length */
        static hash_ctx h;
        bench_stats s;
        for (i = 0; i < 1024; i++) snprintf(h.names[i], sizeof h.names[i], "b__Bone%04d_bind__", i);
        s = bench_time(run_fnv32, &h, samples);
        bench_report(&o, "fnv32_name", "ns_per_name", s.median / 1024 * 1e9, s.min / 1024 * 1e9,
                     s.max / 1024 * 1e9, s.n, "\"length\": 18");
    }
    if (bench_wanted(&o, "refpack")) bench_refpack(&o, samples);
    if (bench_wanted(&o, "package")) bench_package_lookup(&o, samples);
    if (bench_wanted(&o, "clip")) bench_clips(&o, samples);
    if (bench_wanted(&o, "import")) bench_import(&o, samples); /* clip import's key reduction */
    if (bench_wanted(&o, "rig")) bench_rig(&o, samples);
    if (bench_wanted(&o, "ik")) bench_ik(&o, samples);
    if (bench_wanted(&o, "blend")) bench_blend(&o, samples); /* pose jobs: blend, additive, mirror */
    if (bench_wanted(&o, "skin")) bench_skinning(&o, samples);
    if (bench_wanted(&o, "avx2")) bench_avx2(&o, samples); /* the SSE2 kernel against its -mavx2 build */
    if (bench_wanted(&o, "jazz")) bench_jazz(&o, samples);
    if (bench_wanted(&o, "anim")) bench_anim(&o, samples); /* an ANIM pose against a clip pose, same bones */
    return 0;
}
