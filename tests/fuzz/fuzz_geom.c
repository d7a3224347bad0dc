/* libFuzzer target for Sims 3 GEOM body meshes: measure, decode into an
 * arena of exactly the measured size, read every element and index back
 * through the accessors (what the decoder validated must hold: finite
 * floats, indices and weighted bone slots in range), re-encode (the writer
 * must reproduce the input exactly) and decode the copy again. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "plumbob.h"

/* The measure call through its _ex twin: the location it reports is the
 * code it returns and lies inside the input (issue 47). */
static plumbob_result measure_checked(const uint8_t *d, size_t n, size_t *need) {
    plumbob_error err;
    plumbob_result r = plumbob_geom_measure_ex(d, n, need, &err);
    if (err.result != r || err.offset > n || !err.table || !err.reason) __builtin_trap();
    return r;
}

static int is_float_usage(uint32_t u) {
    return u == PLUMBOB_GEOM_POSITION || u == PLUMBOB_GEOM_NORMAL || u == PLUMBOB_GEOM_UV ||
           u == PLUMBOB_GEOM_WEIGHTS || u == PLUMBOB_GEOM_TANGENT;
}

static void exercise(const plumbob_geom *g) {
    const plumbob_geom_element *as = plumbob_geom_find_element(g, PLUMBOB_GEOM_ASSIGNMENT, 0);
    const plumbob_geom_element *wt = plumbob_geom_find_element(g, PLUMBOB_GEOM_WEIGHTS, 0);
    uint32_t i, v, k;
    for (i = 0; i < g->element_count; i++) {
        const plumbob_geom_element *e = &g->elements[i];
        if (!is_float_usage(e->usage)) continue;
        for (v = 0; v < g->vertex_count && v < 4096u; v++)
            for (k = 0; k < e->size / 4u; k++) {
                float f = plumbob_geom_float(g, e, v, k);
                if (f != f || f - f != 0.0f) __builtin_trap();
            }
    }
    for (i = 0; i < g->index_count; i++)
        if (plumbob_geom_index(g, i) >= g->vertex_count) __builtin_trap();
    if (as && wt)
        for (v = 0; v < g->vertex_count && v < 4096u; v++)
            for (k = 0; k < 4u; k++)
                if (plumbob_geom_float(g, wt, v, k) != 0.0f &&
                    g->vertices[(size_t)v * g->vertex_stride + as->offset + k] >= g->bone_count)
                    __builtin_trap();
    if (g->tgi_count ? g->skin_controller >= g->tgi_count : g->skin_controller != 0) __builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    size_t need;
    unsigned char *mem;
    plumbob_arena a;
    plumbob_geom g;
    if (measure_checked(data, size, &need) != PLUMBOB_OK || need > (64u << 20)) return 0;
    mem = (unsigned char *)malloc(need ? need : 1);
    plumbob_arena_init(&a, mem, need);
    if (plumbob_geom_decode(data, size, &a, &g) != PLUMBOB_OK) __builtin_trap(); /* measured: must decode */
    {
        size_t ws = plumbob_geom_write_size(&g), got = 0, need2 = 0;
        unsigned char *o, *mem2;
        plumbob_arena a2;
        plumbob_geom g2;
        exercise(&g);
        if (ws == SIZE_MAX) __builtin_trap(); /* everything decoded must be writable */
        o = (unsigned char *)malloc(ws ? ws : 1);
        if (plumbob_geom_write(&g, o, ws, &got) != PLUMBOB_OK || got != size || memcmp(o, data, size) != 0)
            __builtin_trap();
        /* the copy decodes to the same shape, in the same arena bytes */
        if (measure_checked(o, got, &need2) != PLUMBOB_OK || need2 != need) __builtin_trap();
        mem2 = (unsigned char *)malloc(need2 ? need2 : 1);
        plumbob_arena_init(&a2, mem2, need2);
        if (plumbob_geom_decode(o, got, &a2, &g2) != PLUMBOB_OK || g2.vertex_count != g.vertex_count ||
            g2.index_count != g.index_count || g2.bone_count != g.bone_count || g2.tgi_count != g.tgi_count ||
            g2.vertex_stride != g.vertex_stride)
            __builtin_trap();
        free(mem2);
        free(o);
    }
    free(mem);
    return 0;
}
