/* The skinning benchmark's mesh and palette (bench_mesh.c). */
#ifndef PLUMBOB_BENCH_MESH_H
#define PLUMBOB_BENCH_MESH_H

#include <stddef.h>
#include <stdint.h>
#include "plumbob.h"

#define BENCH_SKIN_JOINTS 32

/* A version-2 GMDC of n vertices, each with `infl` (1..4) influences over
 * 32 joints, and triangles over all of them, in malloc'd memory. */
unsigned char *bench_skin_mesh(uint32_t n, uint32_t infl, size_t *size);

/* The same with 4 slots, of which slots 1..3 are each unused at random
 * (vertices use one to four), as a real mesh's vertices differ. */
unsigned char *bench_skin_mesh_drops(uint32_t n, size_t *size);

/* The mesh decoded into *g, in a malloc'd arena of *need bytes (returned;
 * the caller frees it); aborts if it does not decode. */
unsigned char *bench_skin_decode(const unsigned char *mesh, size_t size, plumbob_gmdc *g, size_t *need);

/* The palette the benchmark poses it with: joint j turned 11.5 degrees
 * about z and moved 0.1 j along x. */
void bench_skin_palette(const plumbob_gmdc *g, plumbob_mat34 palette[BENCH_SKIN_JOINTS]);

#endif
