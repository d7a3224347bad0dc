/* libFuzzer target for the format-neutral skinning job (plumbob_skin): the
 * input's first bytes choose the mesh's shape (vertex count, every stride,
 * stored weight count and weight mode (implied last or explicit), slot count, a slot -> palette map or none, normals
 * and joints present or not, the range, the flags, the output strides) and
 * the rest are its streams, read as they lie; the palette comes from the
 * input's bytes too (NaN, infinities and huge values among them).  The job
 * must refuse what does not fit with a code, stay inside its outputs (guard
 * floats after exactly sized spans), give the scalar reference's bits with
 * the port's kernel, and give the same bits skinned as two ranges as in one
 * (NaN compared as NaN). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "plumbob.h"

static unsigned char skin_work[PLUMBOB_SKIN_WORK_SIZE];

#include "fuzz_floats.h"

/* Skins [first, first + count) of mesh into fresh outputs (sentinels and a
 * guard after n * stride floats); traps on a write past them. */
static plumbob_result skin(const plumbob_skin_mesh *mesh, const plumbob_mat34 *palette, uint32_t palette_count,
                           float *pos, float *nrm, uint32_t stride, int normals, uint32_t flags, uint32_t first,
                           uint32_t count) {
    plumbob_skin_job job;
    size_t q, floats = (size_t)mesh->vertex_count * stride;
    plumbob_result r;
    memset(&job, 0, sizeof job);
    job.mesh = mesh;
    job.palette = palette;
    job.palette_count = palette_count;
    job.positions = pos;
    job.position_stride = stride;
    job.position_count = mesh->vertex_count;
    job.normals = normals ? nrm : NULL;
    job.normal_stride = stride;
    job.normal_count = mesh->vertex_count;
    job.flags = flags;
    job.first_vertex = first;
    job.vertex_count = count;
    job.work = skin_work;
    r = plumbob_skin(&job);
    for (q = 0; q < GUARD; q++)
        if (pos[floats + q] != SENTINEL || nrm[floats + q] != SENTINEL) __builtin_trap();
    return r;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    plumbob_skin_mesh mesh;
    plumbob_mat34 palette[256];
    uint16_t slot_joint[255];
    const uint8_t *p = data;
    uint32_t seed = 0x9E3779B9u, n, palette_count, stride, flags, first, count, mid, k;
    size_t i, need, floats;
    int normals;
    float *out[3], *nrm[3];
    plumbob_result r[3];
    if (size < 16) return 0;
    for (i = 0; i < size && i < 64; i++) seed = (seed ^ data[i]) * 0x01000193u;
    if (!seed) seed = 1;
    memset(&mesh, 0, sizeof mesh);
    n = mesh.vertex_count = p[0] % 97u; /* over one staging block (64 vertices, 48 with 4 explicit weights) */
    mesh.position_stride = 12u + p[1] % 9u;
    mesh.normal_stride = 12u + p[2] % 9u;
    mesh.joint_stride = 4u + p[3] % 5u;
    mesh.weight_count = p[4] % 5u;            /* implied: 4 refused; explicit: 0 refused */
    mesh.weight_stride = 4u * (mesh.weight_count ? mesh.weight_count : 1u) + p[5] % 5u;
    mesh.slot_count = p[6] % 2u ? p[7] : 256u; /* 256: refused */
    mesh.weight_mode = p[8] % 8u == 0 ? 2u /* neither: refused */
                       : p[8] % 2u ? PLUMBOB_SKIN_WEIGHTS_EXPLICIT : PLUMBOB_SKIN_WEIGHTS_IMPLIED_LAST;
    palette_count = 1u + p[9];
    stride = 3u + p[10] % 3u;
    normals = p[11] % 3u != 0;
    flags = (p[12] & 1u ? PLUMBOB_SKIN_UNNORMALIZED : 0u) | (p[12] % 16u == 2u ? 4u : 0u); /* 4: not a flag */
    first = n ? p[13] % (n + 1u) : 0u;
    count = p[14] % 2u ? 0u : p[14] % (n - first + 2u); /* one past the end: refused */
    p += 16;
    size -= 16;
    for (k = 0; k < 255; k++) slot_joint[k] = (uint16_t)(next(&seed) % (palette_count + 1u)); /* may miss */
    /* the streams, read in place: only when the input holds all of them */
    need = (size_t)n * (mesh.position_stride + (data[11] % 2u ? mesh.normal_stride : 0u) + mesh.joint_stride +
                        (mesh.weight_count ? mesh.weight_stride : 0u));
    if (size < need) return 0;
    mesh.positions = p;
    p += (size_t)n * mesh.position_stride;
    if (data[11] % 2u) {
        mesh.normals = p;
        p += (size_t)n * mesh.normal_stride;
    }
    if (data[15] % 4u) { /* else unskinned */
        mesh.joints = p;
        mesh.slot_joint = data[15] % 2u ? slot_joint : NULL;
    }
    p += (size_t)n * mesh.joint_stride;
    if (mesh.weight_count) mesh.weights = p;
    for (k = 0; k < 256; k++) {
        int row, col;
        for (row = 0; row < 3; row++)
            for (col = 0; col < 4; col++) palette[k].m[row][col] = value(&seed);
    }
    if (palette_count > 256u) palette_count = 256u;
    floats = (size_t)n * stride + GUARD;
    for (k = 0; k < 3; k++) {
        size_t q;
        out[k] = (float *)malloc(floats * sizeof(float));
        nrm[k] = (float *)malloc(floats * sizeof(float));
        for (q = 0; q < floats; q++) out[k][q] = nrm[k][q] = SENTINEL;
    }
    /* the port's kernel, the scalar reference, and the port over two ranges */
    r[0] = skin(&mesh, palette, palette_count, out[0], nrm[0], stride, normals, flags, first, count);
    r[1] = skin(&mesh, palette, palette_count, out[1], nrm[1], stride, normals, flags | PLUMBOB_SKIN_REFERENCE, first,
                count);
    if (r[0] != r[1]) __builtin_trap();
    if (r[0] == PLUMBOB_OK) {
        uint32_t end = count ? first + count : n;
        if (!same_bits(out[0], out[1], floats) || !same_bits(nrm[0], nrm[1], floats)) __builtin_trap();
        mid = first + (end - first) / 2u;
        if (mid > first) { /* (a count of 0 means to the end, so no empty first half) */
            r[2] = skin(&mesh, palette, palette_count, out[2], nrm[2], stride, normals, flags, first, mid - first);
            if (r[2] == PLUMBOB_OK) r[2] = skin(&mesh, palette, palette_count, out[2], nrm[2], stride, normals, flags, mid, end - mid);
            if (r[2] != PLUMBOB_OK || !same_bits(out[0], out[2], floats) || !same_bits(nrm[0], nrm[2], floats))
                __builtin_trap();
        }
    }
    for (k = 0; k < 3; k++) {
        free(out[k]);
        free(nrm[k]);
    }
    return 0;
}
