/* Every benchmark case, one function each, run in order by bench_main.c. */
#ifndef PLUMBOB_BENCH_CASES_H
#define PLUMBOB_BENCH_CASES_H
#include "bench.h"
#include "plumbob.h"

void bench_refpack(const bench_opts *o, int samples);
void bench_package_lookup(const bench_opts *o, int samples);
void bench_clips(const bench_opts *o, int samples);
/* A synthetic clip (bench_clip.c): 150 bones x (rotation + translation),
 * 240 keys each, in malloc'd memory; returns its size. */
size_t bench_synthetic_clip(unsigned char **out);
void bench_import(const bench_opts *o, int samples);
void bench_skinning(const bench_opts *o, int samples);
void bench_avx2(const bench_opts *o, int samples);
void bench_jazz(const bench_opts *o, int samples);
void bench_rig(const bench_opts *o, int samples);
/* Sims 2 ANIM pose beside a Sims 3 clip pose of the same bones (bench_anim.c). */
void bench_anim(const bench_opts *o, int samples);
void bench_ik(const bench_opts *o, int samples);
/* bench_ik.c's 1,024 chains (model matrices, targets, poles), for bench/compare too. */
void bench_ik_chains(plumbob_mat34 (*m)[3], plumbob_vec3 *target, plumbob_vec3 *pole, uint32_t n);
void bench_blend(const bench_opts *o, int samples);

#endif
