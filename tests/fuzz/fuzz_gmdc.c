/* libFuzzer target for GMDC: measure, decode into an arena of exactly the
 * measured size, touch every validated index, and re-encode a decoded mesh:
 * the writer must reproduce the input exactly. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "plumbob.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    size_t need;
    unsigned char *mem;
    plumbob_arena a;
    plumbob_gmdc g;
    uint32_t i, k;
    if (plumbob_gmdc_measure(data, size, &need) != PLUMBOB_OK || need > (64u << 20)) return 0;
    mem = (unsigned char *)malloc(need ? need : 1);
    plumbob_arena_init(&a, mem, need);
    if (plumbob_gmdc_decode(data, size, &a, &g) == PLUMBOB_OK) {
        volatile float sink = 0;
        for (i = 0; i < g.group_count; i++) {
            const plumbob_gmdc_element *v = plumbob_gmdc_find_element(&g, g.groups[i].link, PLUMBOB_GMDC_VERTICES, 0);
            for (k = 0; v && v->format == 2 && k < g.groups[i].faces.count; k++)
                sink += plumbob_gmdc_float(v, plumbob_gmdc_index(&g, &g.groups[i].faces, k), 2);
        }
        (void)sink;
        {
            size_t ws = plumbob_gmdc_write_size(&g), got = 0;
            unsigned char *out;
            if (ws == SIZE_MAX) __builtin_trap(); /* everything decoded must be writable */
            out = (unsigned char *)malloc(ws ? ws : 1);
            if (plumbob_gmdc_write(&g, out, ws, &got) != PLUMBOB_OK || got != size || memcmp(out, data, size) != 0)
                __builtin_trap();
            free(out);
        }
    }
    free(mem);
    return 0;
}
