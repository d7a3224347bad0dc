/* libFuzzer target for CRES: measure, decode into an arena of exactly the
 * measured size, re-encode (the writer must reproduce the input exactly),
 * then build the skeleton, check its order and run the model job on it:
 * its model matrices are finite wherever overflow cannot happen (issue
 * 47's property, finite_prop.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "plumbob.h"
#include "finite_prop.h"

/* The measure call through its _ex twin: the location it reports is the
 * code it returns and lies inside the input (issue 47). */
static plumbob_result measure_checked(const uint8_t *d, size_t n, size_t *need) {
    plumbob_error err;
    plumbob_result r = plumbob_cres_measure_ex(d, n, need, &err);
    if (err.result != r || err.offset > n || !err.table || !err.reason) __builtin_trap();
    return r;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    size_t need, sk_need;
    unsigned char *mem;
    plumbob_arena a;
    plumbob_cres c;
    if (measure_checked(data, size, &need) != PLUMBOB_OK || need > (64u << 20)) return 0;
    mem = (unsigned char *)malloc(need ? need : 1);
    plumbob_arena_init(&a, mem, need);
    if (plumbob_cres_decode(data, size, &a, &c) == PLUMBOB_OK) {
        size_t ws = plumbob_cres_write_size(&c), got = 0;
        unsigned char *out, *skmem;
        plumbob_arena sa;
        plumbob_cres_skeleton sk;
        if (ws == SIZE_MAX) __builtin_trap(); /* everything decoded must be writable */
        out = (unsigned char *)malloc(ws ? ws : 1);
        if (plumbob_cres_write(&c, out, ws, &got) != PLUMBOB_OK || got != size || memcmp(out, data, size) != 0)
            __builtin_trap();
        free(out);
        sk_need = plumbob_cres_skeleton_size(&c);
        skmem = (unsigned char *)malloc(sk_need ? sk_need : 1);
        plumbob_arena_init(&sa, skmem, sk_need);
        if (plumbob_cres_skeleton_build(&c, &sa, &sk) != PLUMBOB_OK) __builtin_trap();
        if (plumbob_skeleton_validate(&sk.skeleton) != PLUMBOB_OK) __builtin_trap();
        {
            plumbob_mat34 *model = (plumbob_mat34 *)malloc((sk.skeleton.bone_count + 1u) * sizeof *model);
            int32_t map[64];
            if (plumbob_skeleton_model(&sk.skeleton, NULL, model, sk.skeleton.bone_count + 1u) != PLUMBOB_OK) __builtin_trap();
            plumbob_cres_joint_map(&sk, 64, map);
            fp_check_model(&sk.skeleton, NULL);
            free(model);
        }
        free(skmem);
    }
    free(mem);
    return 0;
}
