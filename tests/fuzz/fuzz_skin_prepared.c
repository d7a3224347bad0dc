/* libFuzzer target for the prepared skinning mesh (plumbob_skin_prepare,
 * plumbob_skin_prepared): the input's first bytes choose the description's
 * shape (vertex count, every stride, weight mode and count, slot count, a
 * slot -> palette map or none, normals and joints present or not, the
 * prepare options, the range, the flags, the output strides) and the rest
 * are its streams, read as they lie; the palette comes from the input's
 * bytes too (NaN, infinities and huge values among them).  The size query
 * and the preparation must agree, refuse what does not fit with a code and
 * stay inside exactly sized memory (a guard after it); the job must refuse
 * with a code, stay inside its outputs (guard floats after exactly sized
 * spans), give the scalar reference's bits with the port's kernel, and the
 * same bits as two ranges as in one (NaN compared as NaN). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "plumbob.h"

static unsigned char prep_work[PLUMBOB_SKIN_PREPARED_WORK_SIZE];

#include "fuzz_floats.h"

/* Skins [first, first + count) into fresh outputs (sentinels and a guard
 * after n * stride floats); traps on a write past them. */
static plumbob_result skin(const plumbob_skin_prepared_mesh *mesh, const plumbob_mat34 *palette,
                           uint32_t palette_count, float *pos, float *nrm, uint32_t stride, int normals, uint32_t flags,
                           uint32_t first, uint32_t count) {
    plumbob_skin_prepared_job job;
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
    job.work = prep_work;
    r = plumbob_skin_prepared(&job);
    for (q = 0; q < GUARD; q++)
        if (pos[floats + q] != SENTINEL || nrm[floats + q] != SENTINEL) __builtin_trap();
    return r;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    plumbob_skin_mesh mesh;
    plumbob_skin_prepared_mesh pm;
    plumbob_mat34 palette[256];
    uint16_t slot_joint[255];
    const uint8_t *p = data;
    uint32_t seed = 0x9E3779B9u, n, palette_count, stride, flags, first, count, mid, k, options;
    size_t i, need, floats, bytes = 0;
    int normals;
    float *out[3], *nrm[3];
    unsigned char *mem, *few = NULL;
    plumbob_result r[3], rs;
    if (size < 16) return 0;
    for (i = 0; i < size && i < 64; i++) seed = (seed ^ data[i]) * 0x01000193u;
    if (!seed) seed = 1;
    memset(&mesh, 0, sizeof mesh);
    n = mesh.vertex_count = p[0] % 131u; /* over four blocks of 32 */
    mesh.position_stride = 12u + p[1] % 9u;
    mesh.normal_stride = 12u + p[2] % 9u;
    mesh.joint_stride = 4u + p[3] % 5u;
    mesh.weight_mode = p[8] % 3u == 0 ? PLUMBOB_SKIN_WEIGHTS_EXPLICIT : p[8] % 16u == 1u ? 5u /* refused */
                                                                                         : PLUMBOB_SKIN_WEIGHTS_IMPLIED_LAST;
    mesh.weight_count = p[4] % 6u;            /* 4 implied, 0 or 5 explicit: refused */
    mesh.weight_stride = 4u * (mesh.weight_count ? mesh.weight_count : 1u) + p[5] % 5u;
    mesh.slot_count = p[6] % 2u ? p[7] : 256u; /* 256: refused */
    palette_count = 1u + p[9];
    stride = 3u + p[10] % 5u;
    normals = p[11] % 3u != 0;
    options = (p[8] & 0x40u ? PLUMBOB_SKIN_PREPARE_POSITIONS_ONLY : 0u) | (p[8] & 0x20u ? PLUMBOB_SKIN_PREPARE_SORTED : 0u) |
              (p[8] & 0x80u ? PLUMBOB_SKIN_PREPARE_SHARED : 0u) | (p[12] & 0x40u ? 8u : 0u); /* 8: not an option */
    flags = (p[12] & 1u ? PLUMBOB_SKIN_UNNORMALIZED : 0u) | (p[12] % 16u == 2u ? 4u : 0u); /* 4: not a flag */
    first = n ? p[13] % (n + 1u) : 0u;
    count = p[14] % 2u ? 0u : p[14] % (n - first + 2u); /* one past the end: refused */
    p += 16;
    size -= 16;
    for (k = 0; k < 255; k++) slot_joint[k] = (uint16_t)(next(&seed) % (palette_count + 1u)); /* may miss */
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
        if ((options & PLUMBOB_SKIN_PREPARE_SHARED) && (data[12] & 0x20u)) {
            /* few slots, so tuples repeat and shared blocks form */
            size_t q, jb = (size_t)n * mesh.joint_stride;
            few = (unsigned char *)malloc(jb + 1u);
            for (q = 0; q < jb; q++) few[q] = p[q] & 0x80u ? p[q] : (unsigned char)(p[q] % 3u);
            mesh.joints = few;
        }
    }
    p += (size_t)n * mesh.joint_stride;
    if (mesh.weight_count) mesh.weights = p;
    /* the size query and the preparation into exactly that much (and a guard) */
    rs = plumbob_skin_prepared_size(&mesh, options, &bytes);
    mem = (unsigned char *)malloc(bytes + GUARD);
    memset(mem, 0xA5, bytes + GUARD);
    r[0] = plumbob_skin_prepare(&mesh, options, mem, bytes, &pm);
    if (r[0] != (rs == PLUMBOB_OK ? PLUMBOB_OK : rs)) __builtin_trap();
    for (i = 0; i < GUARD; i++)
        if (mem[bytes + i] != 0xA5u) __builtin_trap();
    if (r[0] != PLUMBOB_OK) {
        free(mem);
        free(few);
        return 0;
    }
    if (pm.bytes > bytes || pm.vertex_count != n || pm.shared_vertices > n) __builtin_trap();
    { /* the prepared order: a permutation of the vertices */
        uint32_t *order = (uint32_t *)malloc(sizeof(uint32_t) * (n + 1u)), *seen = (uint32_t *)calloc(n + 1u, sizeof(uint32_t));
        if (plumbob_skin_prepared_order(&mesh, options, order, n) != PLUMBOB_OK) __builtin_trap();
        for (i = 0; i < n; i++) {
            if (order[i] >= n || seen[order[i]]++) __builtin_trap();
            if (!(options & (PLUMBOB_SKIN_PREPARE_SORTED | PLUMBOB_SKIN_PREPARE_SHARED)) && order[i] != i) __builtin_trap();
        }
        if (n && plumbob_skin_prepared_order(&mesh, options, order, n - 1u) != PLUMBOB_ERR_OUTPUT_TOO_SMALL) __builtin_trap();
        free(order);
        free(seen);
    }
    if (bytes && plumbob_skin_prepare(&mesh, options, mem, bytes - 1u, &pm) != PLUMBOB_ERR_OUT_OF_MEMORY) __builtin_trap();
    if (plumbob_skin_prepare(&mesh, options, mem, bytes, &pm) != PLUMBOB_OK) __builtin_trap();
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
    r[0] = skin(&pm, palette, palette_count, out[0], nrm[0], stride, normals, flags, first, count);
    r[1] = skin(&pm, palette, palette_count, out[1], nrm[1], stride, normals, flags | PLUMBOB_SKIN_REFERENCE, first,
                count);
    if (r[0] != r[1]) __builtin_trap();
    if (r[0] == PLUMBOB_OK) {
        uint32_t end = count ? first + count : n;
        if (!same_bits(out[0], out[1], floats) || !same_bits(nrm[0], nrm[1], floats)) __builtin_trap();
        mid = first + (end - first) / 2u;
        if (mid > first) { /* (a count of 0 means to the end, so no empty first half) */
            r[2] = skin(&pm, palette, palette_count, out[2], nrm[2], stride, normals, flags, first, mid - first);
            if (r[2] == PLUMBOB_OK) r[2] = skin(&pm, palette, palette_count, out[2], nrm[2], stride, normals, flags, mid, end - mid);
            if (r[2] != PLUMBOB_OK || !same_bits(out[0], out[2], floats) || !same_bits(nrm[0], nrm[2], floats))
                __builtin_trap();
        }
    }
    for (k = 0; k < 3; k++) {
        free(out[k]);
        free(nrm[k]);
    }
    free(mem);
    free(few);
    return 0;
}
