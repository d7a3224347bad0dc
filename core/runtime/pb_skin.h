/* The skinning job's inside, shared by plumbob_skin and its format
 * preparers (gmdc_skin.c): the slot table in the caller's work memory and
 * the run of a prepared mesh's range through the port's kernel. */
#ifndef PB_SKIN_H
#define PB_SKIN_H

#include "plumbob/runtime.h"
#include "kernels.h"
#include "skin_prepared.h"

/* Every exported symbol starts with plumbob_. */
#define pb_skin_work_of plumbob_pb_skin_work_of
#define pb_skin_mesh_run plumbob_pb_skin_mesh_run

/* Vertices staged per block (strided or made-up streams, GMDC morphs and
 * sparse elements); 3/4 as many with four explicit weights, whose 16
 * bytes a vertex the 12-byte weight staging holds for fewer. */
#define PB_SKIN_STAGE 64u

/* The parts of job work memory (PLUMBOB_SKIN_WORK_SIZE bytes): the slot
 * table, 64-byte aligned so no entry's 32-byte rows straddle a cache line
 * (AVX2 loads them whole) (the 255 a slot byte can name, and the zero
 * entry the kernels read for unused slots: 32 KiB), each slot byte's
 * offset into it (512 bytes), then the staging blocks: positions and
 * normals (12 bytes a vertex each), joints (4), weights (12). */
typedef struct pb_skin_work {
    float *table;
    uint16_t *offsets;
    unsigned char *positions, *normals, *joints, *weights;
} pb_skin_work;

void pb_skin_work_of(void *work, pb_skin_work *w);

/* Runs vertices [first, end) of m, whose slot table w holds for slots
 * [0, slots), into out_positions / out_normals (vertex v at out + v *
 * stride, floats; out_normals NULL: no normals).  Streams that are not
 * packed (or normals made up) are staged through w in blocks.  The caller
 * has checked everything. */
void pb_skin_mesh_run(const plumbob_skin_mesh *m, const pb_skin_work *w, uint32_t slots, uint32_t first,
                      uint32_t end, float *out_positions, size_t position_stride, float *out_normals,
                      size_t normal_stride, uint32_t flags);

/* A job's slot table entries [0, count) and, splat not NULL, their
 * splatted entries (pb_skin_put_entries, ports/skin_prepared.h): the
 * port's kernel, or with PLUMBOB_SKIN_REFERENCE in flags the scalar loop
 * (the same bits; the reference job runs nothing of the port's). */
static inline void pb_skin_put_table(float *table, float *splat, const plumbob_mat34 *palette, const uint16_t *joint,
                                     uint32_t count, uint32_t flags) {
    if (flags & PLUMBOB_SKIN_REFERENCE) pb_skin_put_entries_scalar(table, splat, palette, joint, count);
    else PB_SKIN_PUT_ENTRIES(table, splat, palette, joint, count);
}

#endif
