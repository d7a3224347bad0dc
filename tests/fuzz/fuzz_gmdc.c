/* libFuzzer target for GMDC: measure, decode into an arena of exactly the
 * measured size, touch every validated index, read every element through
 * plumbob_gmdc_item (sparse ones too), skin every group, and re-encode a
 * decoded mesh: the writer must reproduce the input exactly. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "plumbob.h"
#include "finite_prop.h"

/* The measure call through its _ex twin: the location it reports is the
 * code it returns and lies inside the input (issue 47). */
static plumbob_result measure_checked(const uint8_t *d, size_t n, size_t *need) {
    plumbob_error err;
    plumbob_result r = plumbob_gmdc_measure_ex(d, n, need, &err);
    if (err.result != r || err.offset > n || !err.table || !err.reason) __builtin_trap();
    return r;
}

/* scratch for skin jobs (PLUMBOB_GMDC_SKIN_WORK_SIZE) */
static unsigned char skin_work[PLUMBOB_GMDC_SKIN_WORK_SIZE];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    size_t need;
    unsigned char *mem;
    plumbob_arena a;
    plumbob_gmdc g;
    uint32_t i, k;
    if (measure_checked(data, size, &need) != PLUMBOB_OK || need > (64u << 20)) return 0;
    mem = (unsigned char *)malloc(need ? need : 1);
    plumbob_arena_init(&a, mem, need);
    if (plumbob_gmdc_decode(data, size, &a, &g) == PLUMBOB_OK) {
        volatile float sink = 0;
        for (i = 0; i < g.group_count; i++) {
            const plumbob_gmdc_element *v = plumbob_gmdc_find_element(&g, g.groups[i].link, PLUMBOB_GMDC_VERTICES, 0);
            for (k = 0; v && v->format == 2 && k < g.groups[i].faces.count; k++)
                sink += plumbob_gmdc_float(v, plumbob_gmdc_index(&g, &g.groups[i].faces, k), 2);
        }
        /* every element through plumbob_gmdc_item (dense and sparse) */
        for (i = 0; i < g.element_count; i++) {
            const plumbob_gmdc_element *e = &g.elements[i];
            for (k = 0; k < e->count && k < 4096; k++) {
                uint32_t item = plumbob_gmdc_item(&g, e, k);
                if (item != PLUMBOB_GMDC_NO_ITEM && e->format <= 2) sink += plumbob_gmdc_float(e, item, e->format);
            }
        }
        /* skin every group in the bind pose with every morph at 1 (sparse
         * elements go through their item lists) */
        if (g.joint_count <= 4096 && g.morph_count <= 256) {
            plumbob_mat34 *palette = (plumbob_mat34 *)malloc(sizeof(plumbob_mat34) * (g.joint_count + 1u));
            float morphs[256];
            for (k = 0; k < 256; k++) morphs[k] = 1.0f;
            double gmax = fp_gmdc_max(&g) /* 1e300 for a non-finite one: refused by the decoder (issue 47) */, pmax;
            int bounded;
            if (gmax >= 1e300) __builtin_trap();
            plumbob_gmdc_palette(&g, NULL, palette, g.joint_count + 1u);
            /* the bind palette: joint inverses, entries within 9 times the largest joint float */
            if (9.0 * gmax < FP_SAFE) fp_require_finite(&palette[0].m[0][0], 12u * (size_t)g.joint_count);
            pmax = fp_max_abs(&palette[0].m[0][0], 12u * (size_t)g.joint_count);
            bounded = fp_skin_bound(gmax, pmax, 1.0) < FP_SAFE;
            for (i = 0; i < g.group_count; i++) {
                uint32_t n = g.linkages[g.groups[i].link].vertex_count;
                plumbob_gmdc_skin_job job;
                float *pos, *nrm;
                if (n > (1u << 20)) continue;
                pos = (float *)calloc(3u * (n + 1u), sizeof(float));
                nrm = (float *)calloc(3u * (n + 1u), sizeof(float));
                memset(&job, 0, sizeof job);
                job.work = skin_work;
                job.gmdc = &g;
                job.group = i;
                job.palette = palette;
                job.palette_count = g.joint_count + 1u;
                job.morph_weights = morphs;
                job.morph_weight_count = 256;
                job.positions = pos;
                job.position_stride = 3;
                job.position_count = n + 1u;
                job.normals = nrm;
                job.normal_stride = 3;
                job.normal_count = n + 1u;
                /* issue 47's property: from finite decoded values, finite
                 * outputs wherever overflow cannot happen (finite_prop.h) */
                if (plumbob_gmdc_skin(&job) == PLUMBOB_OK && bounded) {
                    fp_require_finite(pos, 3u * (size_t)(n + 1u));
                    fp_require_finite(nrm, 3u * (size_t)(n + 1u));
                }
                free(pos);
                free(nrm);
            }
            free(palette);
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
