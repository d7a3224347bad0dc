/* libFuzzer target for skinning: a fuzzed GMDC, then a pose and morph
 * weights drawn from the input's own bytes (NaN, infinities, huge and tiny
 * values among them), skinned group by group with the port's kernel and with
 * the scalar reference into buffers sized exactly, with guard floats after
 * them, normals renormalized or not, in three layouts: positions and
 * normals in arrays of their own (strides 3 to 5; 3 is the kernels'
 * packed stores), interleaved in one (strides 6, normals 3 floats in: the
 * kernels' interleaved stores), or positions only.  Skinning must stay
 * inside its outputs, and the twins must give the same bits (NaN compared
 * as NaN).  Issue 47's property (finite_prop.h): when the pose and the
 * morph weights drawn are finite and nothing can overflow, the palette and
 * every output are finite. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "plumbob.h"
#include "finite_prop.h"

/* scratch for skin jobs (PLUMBOB_GMDC_SKIN_WORK_SIZE) */
static unsigned char skin_work[PLUMBOB_GMDC_SKIN_WORK_SIZE];

#include "fuzz_floats.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    size_t need;
    unsigned char *mem;
    plumbob_arena a;
    plumbob_gmdc g;
    uint32_t seed = 0x9E3779B9u, i, j;
    for (i = 0; i < size && i < 64; i++) seed = (seed ^ data[i]) * 0x01000193u;
    if (!seed) seed = 1;
    if (plumbob_gmdc_measure(data, size, &need) != PLUMBOB_OK || need > (64u << 20)) return 0;
    mem = (unsigned char *)malloc(need ? need : 1);
    plumbob_arena_init(&a, mem, need);
    if (plumbob_gmdc_decode(data, size, &a, &g) == PLUMBOB_OK && g.joint_count <= 4096) {
        plumbob_mat34 *model = (plumbob_mat34 *)malloc((g.joint_count + 1) * sizeof *model);
        plumbob_mat34 *palette = (plumbob_mat34 *)malloc((g.joint_count + 1) * sizeof *palette);
        float *weights = (float *)malloc((g.morph_count + 1) * sizeof *weights);
        for (j = 0; j < g.joint_count; j++) {
            int r, c;
            for (r = 0; r < 3; r++)
                for (c = 0; c < 4; c++) model[j].m[r][c] = value(&seed);
        }
        for (j = 0; j < g.morph_count; j++) weights[j] = value(&seed);
        int bind = next(&seed) % 4 == 0, bounded;
        double gmax = fp_gmdc_max(&g) /* 1e300 for a non-finite one: refused by the decoder (issue 47) */, mmax = bind ? 1.0 : fp_max_abs(&model[0].m[0][0], 12u * (size_t)g.joint_count);
        double wmax = fp_max_abs(weights, g.morph_count), pmax;
        if (gmax >= 1e300) __builtin_trap();
        if (plumbob_gmdc_palette(&g, bind ? NULL : model, palette, g.joint_count + 1u) != PLUMBOB_OK)
            __builtin_trap(); /* a decoded mesh always has a palette */
        /* a model matrix times an inverse bind (entries within 9 times the largest joint float) */
        if (fp_cap(3.0 * mmax * (9.0 * gmax + 1.0)) < FP_SAFE)
            fp_require_finite(&palette[0].m[0][0], 12u * (size_t)g.joint_count);
        pmax = fp_max_abs(&palette[0].m[0][0], 12u * (size_t)g.joint_count);
        for (i = 0; i < g.group_count && i < 64; i++) {
            uint32_t n = g.linkages[g.groups[i].link].vertex_count, layout = next(&seed) % 4, k;
            uint32_t stride = layout == 1 ? 6u : 3u + next(&seed) % 3; /* 0, 3: arrays; 1: interleaved; 2: no normals */
            uint32_t unnormalized = next(&seed) % 2 ? PLUMBOB_SKIN_UNNORMALIZED : 0u; /* both kernels alike */
            size_t floats = (size_t)n * stride + GUARD;
            float *out[2], *nrm[2];
            plumbob_result r[2];
            if (n > (1u << 16)) continue; /* bounded work per input */
            bounded = fp_skin_bound(gmax, pmax, wmax) < FP_SAFE; /* the weights even when unused: conservative */
            for (k = 0; k < 2; k++) {
                plumbob_gmdc_skin_job job;
                uint32_t q;
                out[k] = (float *)malloc(floats * sizeof(float));
                nrm[k] = (float *)malloc(floats * sizeof(float));
                for (q = 0; q < floats; q++) out[k][q] = nrm[k][q] = -12345.0f;
                memset(&job, 0, sizeof job);
                job.work = skin_work;
                job.gmdc = &g;
                job.group = i;
                job.palette = palette;
                job.palette_count = g.joint_count + 1u;
                job.morph_weights = g.morph_count && (seed & 1) ? weights : NULL;
                job.morph_weight_count = g.morph_count + 1u;
                job.positions = out[k];
                job.position_stride = stride;
                job.position_count = n; /* n * stride floats and a guard */
                job.normals = layout == 2 ? NULL : layout == 1 ? out[k] + 3 : nrm[k];
                job.normal_stride = stride;
                job.normal_count = n;
                job.flags = (k ? PLUMBOB_SKIN_REFERENCE : 0u) | unnormalized;
                r[k] = plumbob_gmdc_skin(&job);
                for (q = 0; q < GUARD; q++) /* nothing written past the last vertex's stride */
                    if (out[k][(size_t)n * stride + q] != -12345.0f || nrm[k][(size_t)n * stride + q] != -12345.0f)
                        __builtin_trap();
            }
            if (r[0] != r[1]) __builtin_trap();
            if (r[0] == PLUMBOB_OK && bounded) { /* guard and gap floats are -12345: finite too */
                fp_require_finite(out[0], floats);
                fp_require_finite(nrm[0], floats);
            }
            if (r[0] == PLUMBOB_OK && (!same_bits(out[0], out[1], floats) || !same_bits(nrm[0], nrm[1], floats)))
                __builtin_trap();
            for (k = 0; k < 2; k++) {
                free(out[k]);
                free(nrm[k]);
            }
        }
        free(model);
        free(palette);
        free(weights);
    }
    free(mem);
    return 0;
}
