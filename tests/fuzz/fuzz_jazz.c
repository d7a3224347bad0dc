/* libFuzzer target for Sims 3 jazz: measure, decode into an arena of exactly
 * the measured size, re-encode (the writer must reproduce the input), then
 * run the machine: enter every entry state, request every state and tick,
 * with small limits so cyclic graphs end quickly; every call stays within
 * them.  The floats the runtime hands on (blend times, speeds, random
 * weights) are finite (issue 47).  fuzz_jazz_run.c drives random machines
 * built directly. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "plumbob.h"
#include "finite_prop.h"

/* The measure call through its _ex twin: the location it reports is the
 * code it returns and lies inside the input (issue 47). */
static plumbob_result measure_checked(const uint8_t *d, size_t n, size_t *need) {
    plumbob_error err;
    plumbob_result r = plumbob_jazz_measure_ex(d, n, need, &err);
    if (err.result != r || err.offset > n || !err.table || !err.reason) __builtin_trap();
    return r;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    size_t need;
    unsigned char *mem;
    plumbob_arena a;
    plumbob_jazz j;
    if (measure_checked(data, size, &need) != PLUMBOB_OK || need > (64u << 20)) return 0;
    mem = (unsigned char *)malloc(need ? need : 1);
    plumbob_arena_init(&a, mem, need);
    if (plumbob_jazz_decode(data, size, &a, &j) == PLUMBOB_OK) {
        size_t ws = plumbob_jazz_write_size(&j), got = 0;
        unsigned char *o = (unsigned char *)malloc(ws ? ws : 1), *imem;
        plumbob_jazz_limits limits = {256, 64};
        plumbob_jazz_action actions[64];
        plumbob_jazz_instance inst;
        plumbob_arena ia;
        uint32_t s, t;
        for (s = 0; s < j.node_count; s++) {
            const plumbob_jazz_node *nd = &j.nodes[s];
            const plumbob_jazz_anim *an = nd->kind == PLUMBOB_JAZZ_PLAY   ? &nd->u.play.anim
                                          : nd->kind == PLUMBOB_JAZZ_STOP ? &nd->u.stop
                                                                          : NULL;
            if (an) {
                fp_require_finite(&an->blend_in, 1);
                fp_require_finite(&an->blend_out, 1);
                fp_require_finite(&an->speed, 1);
            }
            for (t = 0; nd->kind == PLUMBOB_JAZZ_RANDOM && t < nd->branch_count; t++)
                fp_require_finite(&nd->branches[t].weight, 1);
        }
        if (ws == SIZE_MAX) __builtin_trap(); /* everything decoded must be writable */
        if (plumbob_jazz_write(&j, o, ws, &got) != PLUMBOB_OK || got != size || memcmp(o, data, size) != 0)
            __builtin_trap();
        free(o);
        need = plumbob_jazz_instance_size(&j, &limits);
        imem = (unsigned char *)malloc(need ? need : 1);
        for (s = 0; s < j.state_count && s < 64; s++) {
            if (!(j.states[s].flags & PLUMBOB_JAZZ_STATE_ENTRY)) continue;
            for (t = 0; t < j.state_count && t < 64; t++) {
                size_t n;
                plumbob_arena_init(&ia, imem, need);
                if (plumbob_jazz_instance_init(&inst, &j, &limits, NULL, t, &ia) != PLUMBOB_OK) __builtin_trap();
                if (plumbob_jazz_enter(&inst, j.states[s].name, actions, 64, &n) != PLUMBOB_OK) continue;
                (void)plumbob_jazz_request(&inst, j.states[t].name, actions, 64, &n);
                if (n > 64 || inst.report.steps > limits.max_steps) __builtin_trap();
                (void)plumbob_jazz_tick(&inst, actions, 64, &n);
                if (n > 64 || inst.report.steps > limits.max_steps) __builtin_trap();
            }
        }
        free(imem);
    }
    free(mem);
    return 0;
}
