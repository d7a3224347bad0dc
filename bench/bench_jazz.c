/* Jazz runtime benchmark: one request cycle through a state machine (enter
 * the entry state, then request a state along the transitions), in ns,
 * on the demo's door machine (made by plumbob's writer) and on
 * WarriorCats' machine when the corpus is there. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "bench_cases.h"
#include "plumbob.h"

#include "util/demo_data.h"

typedef struct jazz_ctx {
    plumbob_jazz_instance inst;
    uint32_t enter, target;
    plumbob_jazz_action actions[64];
    size_t actions_total;
} jazz_ctx;

#define REQUESTS 1000

static void run_requests(void *p) {
    jazz_ctx *c = (jazz_ctx *)p;
    size_t n = 0;
    int i;
    for (i = 0; i < REQUESTS; i++) {
        if (plumbob_jazz_enter(&c->inst, c->enter, c->actions, 64, &n) != PLUMBOB_OK) abort();
        c->actions_total += n;
        if (plumbob_jazz_request(&c->inst, c->target, c->actions, 64, &n) != PLUMBOB_OK) abort();
        c->actions_total += n;
    }
    bench_keep(&c->actions_total);
}

static void bench_machine(const bench_opts *o, int samples, const char *label, const unsigned char *data, size_t size,
                          const char *enter, const char *target, const char *actor) {
    plumbob_jazz jazz;
    plumbob_arena a;
    plumbob_jazz_limits limits = {4096, 64};
    static jazz_ctx c;
    unsigned char *mem, *inst_mem;
    plumbob_arena ia;
    size_t need, n = 0, inst_size;
    bench_stats s;
    char ctx[160];
    double per;
    if (plumbob_jazz_measure(data, size, &need) != PLUMBOB_OK) abort();
    mem = (unsigned char *)malloc(need);
    plumbob_arena_init(&a, mem, need);
    if (plumbob_jazz_decode(data, size, &a, &jazz) != PLUMBOB_OK) abort();
    memset(&c, 0, sizeof c);
    inst_size = plumbob_jazz_instance_size(&jazz, &limits);
    inst_mem = (unsigned char *)malloc(inst_size);
    plumbob_arena_init(&ia, inst_mem, inst_size);
    if (plumbob_jazz_instance_init(&c.inst, &jazz, &limits, NULL, 1, &ia) != PLUMBOB_OK) abort();
    if (plumbob_jazz_bind_actor(&c.inst, plumbob_fnv32_str(actor), 1, 0) != PLUMBOB_OK) abort();
    c.enter = plumbob_fnv32_str(enter);
    c.target = plumbob_fnv32_str(target);
    if (plumbob_jazz_enter(&c.inst, c.enter, c.actions, 64, &n) != PLUMBOB_OK) abort();
    if (plumbob_jazz_request(&c.inst, c.target, c.actions, 64, &n) != PLUMBOB_OK) abort();
    s = bench_time(run_requests, &c, samples);
    per = 1e9 / REQUESTS;
    snprintf(ctx, sizeof ctx, "\"machine\": \"%s\", \"states\": %u, \"actions_per_request\": %.1f", label,
             (unsigned)jazz.state_count, (double)c.actions_total / ((double)REQUESTS * (s.n + 1)));
    bench_report(o, "jazz_request", "ns", s.median * per, s.min * per, s.max * per, s.n, ctx);
    free(mem);
    free(inst_mem);
}

void bench_jazz(const bench_opts *o, int samples) {
    unsigned char *demo, *pkg_data;
    size_t n = demo_jazz(&demo), len = 0;
    if (!n) abort();
    bench_machine(o, samples, "demoDoor", demo, n, "Enter", "Exit", "x");
    free(demo);
    pkg_data = bench_read_file("../shared/corpus/sims3/WarriorCats.package", &len);
    if (pkg_data) {
        plumbob_package pkg;
        plumbob_package_entry e;
        const unsigned char *res;
        size_t rs;
        unsigned char *buf;
        if (plumbob_package_open(&pkg, pkg_data, len) != PLUMBOB_OK ||
            plumbob_package_find(&pkg, PLUMBOB_TYPE_JAZZ, 0, 0x91B95750336A8701ull, &e, NULL) != PLUMBOB_OK)
            abort();
        buf = (unsigned char *)malloc(e.mem_size);
        if (plumbob_package_read(&pkg, &e, buf, e.mem_size, &res, &rs) != PLUMBOB_OK) abort();
        bench_machine(o, samples, "petGardening", res, rs, "Enter Standing", "Loop Harvest", "x");
        free(buf);
        free(pkg_data);
    }
}
