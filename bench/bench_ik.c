/* IK benchmarks: the two-bone and aim jobs over 1,024 prepared random
 * chains and joints (model matrices as plumbob_skeleton_model gives them,
 * targets mostly within reach, a pole each), ns per solve.  The same
 * setup as bench/compare's ozz IKTwoBoneJob / IKAimJob case. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "bench_cases.h"
#include "plumbob.h"

#define IK_N 1024

typedef struct ik_ctx {
    plumbob_mat34 m[IK_N][3];
    plumbob_vec3 target[IK_N], pole[IK_N];
    plumbob_ik_two_bone_result out[IK_N];
    plumbob_ik_aim_result aim_out[IK_N];
} ik_ctx;

static void run_two_bone(void *p) {
    ik_ctx *c = (ik_ctx *)p;
    uint32_t k;
    for (k = 0; k < IK_N; k++) {
        plumbob_ik_two_bone_job j;
        j.start = &c->m[k][0];
        j.mid = &c->m[k][1];
        j.end = &c->m[k][2];
        j.target = c->target[k];
        j.pole = c->pole[k];
        j.weight = 1.0f;
        j.soften = 0.97f;
        j.twist_angle = 0.0f;
        if (plumbob_ik_two_bone(&j, &c->out[k]) != PLUMBOB_OK) abort();
    }
    bench_keep(c->out);
}

static void run_aim(void *p) {
    ik_ctx *c = (ik_ctx *)p;
    uint32_t k;
    for (k = 0; k < IK_N; k++) {
        plumbob_ik_aim_job j;
        memset(&j, 0, sizeof j);
        j.joint = &c->m[k][2];
        j.target = c->target[k];
        j.forward.x = 1.0f;
        j.up.y = 1.0f;
        j.pole = c->pole[k];
        j.offset.y = 0.05f;
        j.weight = 1.0f;
        if (plumbob_ik_aim(&j, &c->aim_out[k]) != PLUMBOB_OK) abort();
    }
    bench_keep(c->aim_out);
}

void bench_ik(const bench_opts *o, int samples) {
    static ik_ctx c;
    bench_stats s;
    bench_ik_chains(c.m, c.target, c.pole, IK_N);
    s = bench_time(run_two_bone, &c, samples * 10);
    bench_report(o, "ik_two_bone", "ns_per_solve", s.median / IK_N * 1e9, s.min / IK_N * 1e9, s.max / IK_N * 1e9,
                 s.n, "\"solves\": 1024, \"soften\": 0.97");
    s = bench_time(run_aim, &c, samples * 10);
    bench_report(o, "ik_aim", "ns_per_solve", s.median / IK_N * 1e9, s.min / IK_N * 1e9, s.max / IK_N * 1e9, s.n,
                 "\"solves\": 1024, \"offset\": true");
}
