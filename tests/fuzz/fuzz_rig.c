/* libFuzzer target for Sims 3 rigs: measure, decode into an arena of
 * exactly the measured size, pose the skeleton view at rest, and
 * re-encode: the writer must reproduce the input exactly.  The rest pose's
 * model matrices are finite wherever overflow cannot happen (issue 47's
 * property, finite_prop.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "plumbob.h"
#include "finite_prop.h"

/* The measure call through its _ex twin: the location it reports is the
 * code it returns and lies inside the input (issue 47). */
static plumbob_result measure_checked(const uint8_t *d, size_t n, size_t *need) {
    plumbob_error err;
    plumbob_result r = plumbob_rig_measure_ex(d, n, need, &err);
    if (err.result != r || err.offset > n || !err.table || !err.reason) __builtin_trap();
    return r;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    size_t need;
    unsigned char *mem;
    plumbob_arena a;
    plumbob_rig rig;
    if (measure_checked(data, size, &need) != PLUMBOB_OK || need > (64u << 20)) return 0;
    mem = (unsigned char *)malloc(need ? need : 1);
    plumbob_arena_init(&a, mem, need);
    if (plumbob_rig_decode(data, size, &a, &rig) == PLUMBOB_OK) {
        plumbob_mat34 *model = (plumbob_mat34 *)malloc((rig.bone_count ? rig.bone_count : 1) * sizeof *model);
        size_t ws = plumbob_rig_write_size(&rig), got = 0;
        unsigned char *o;
        uint32_t k;
        if (plumbob_skeleton_model(&rig.skeleton, NULL, model, rig.bone_count ? rig.bone_count : 1u) != PLUMBOB_OK) __builtin_trap();
        fp_check_model(&rig.skeleton, NULL);
        for (k = 0; k < rig.bone_count; k++)
            if (rig.skeleton_index[rig.file_index[k]] != k) __builtin_trap();
        if (ws == SIZE_MAX) __builtin_trap(); /* everything decoded must be writable */
        o = (unsigned char *)malloc(ws ? ws : 1);
        if (plumbob_rig_write(&rig, o, ws, &got) != PLUMBOB_OK || got != size || memcmp(o, data, size) != 0)
            __builtin_trap();
        free(o);
        free(model);
    }
    free(mem);
    return 0;
}
