/* libFuzzer target for Sims 2 ANIM: measure (SIZE_MAX on error, the
 * header's PLUMBOB_ANIM_DECODE_SIZE on success), decode into an arena of
 * exactly the measured size, sample every component and channel, and
 * re-encode: the writer must reproduce the input exactly.  Samples are
 * finite wherever overflow cannot happen (issue 47's property,
 * finite_prop.h): Hermite terms stay within four times the largest key
 * value plus the largest tangent over the longest gap (2^16 ticks times
 * 65504 / 150 per tick, below 1e8). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "plumbob.h"
#include "finite_prop.h"

/* The measure call through its _ex twin: the location it reports is the
 * code it returns and lies inside the input (issue 47). */
static plumbob_result measure_checked(const uint8_t *d, size_t n, size_t *need) {
    plumbob_error err;
    plumbob_result r = plumbob_anim_measure_ex(d, n, need, &err);
    if (err.result != r || err.offset > n || !err.table || !err.reason) __builtin_trap();
    return r;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    size_t need;
    unsigned char *mem;
    plumbob_arena a;
    plumbob_anim an;
    uint32_t i;
    if (measure_checked(data, size, &need) != PLUMBOB_OK) {
        if (need != SIZE_MAX) __builtin_trap(); /* the sizing rule: never 0 for bad input */
        return 0;
    }
    if (need > (64u << 20)) return 0;
    mem = (unsigned char *)malloc(need ? need : 1);
    plumbob_arena_init(&a, mem, need);
    if (plumbob_anim_decode(data, size, &a, &an) == PLUMBOB_OK) {
        if (need != PLUMBOB_ANIM_DECODE_SIZE(an.target_count, an.channel_count, an.component_count, an.ik_chain_count,
                                             an.ik_target_count, an.event_count))
            __builtin_trap();
        volatile float sink = 0;
        float out[8];
        plumbob_quat q;
        double vmax = 0;
        int bounded;
        for (i = 0; i < an.component_count; i++) {
            uint32_t k;
            for (k = 0; k < an.components[i].key_count; k++) {
                plumbob_anim_key key = plumbob_anim_key_at(&an, i, k);
                fp_require_finite(&key.value, 1); /* what the decoder hands on is finite (issue 47) */
                fp_require_finite(&key.tangent_in, 1);
                fp_require_finite(&key.tangent_out, 1);
                if (fp_max_abs(&key.value, 1) > vmax) vmax = fp_max_abs(&key.value, 1);
            }
        }
        bounded = 4.0 * vmax + 1e8 < FP_SAFE;
        for (i = 0; i < an.component_count; i++) {
            float v = plumbob_anim_sample_component(&an, i, (float)(i * 37u % 4000u));
            if (bounded) fp_require_finite(&v, 1);
            sink += v;
        }
        for (i = 0; i < an.channel_count; i++) {
            /* at most 7 components per channel fit the flags; out has 8 */
            uint32_t got;
            q = plumbob_quat_identity();
            got = plumbob_anim_sample_channel(&an, i, 100.0f, out, &q);
            if (got) sink += out[0];
            if (bounded) {
                fp_require_finite(out, got);
                fp_require_finite(&q.x, 4);
            }
        }
        (void)sink;
        {
            size_t ws = plumbob_anim_write_size(&an), got = 0;
            unsigned char *o;
            if (ws == SIZE_MAX) __builtin_trap(); /* everything decoded must be writable */
            o = (unsigned char *)malloc(ws ? ws : 1);
            if (plumbob_anim_write(&an, o, ws, &got) != PLUMBOB_OK || got != size || memcmp(o, data, size) != 0)
                __builtin_trap();
            free(o);
        }
    }
    free(mem);
    return 0;
}
