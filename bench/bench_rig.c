/* Rig and skeleton benchmarks: decoding a 257-bone rig (the size of the
 * Sims 3 human rigs, built by plumbob's writer with every bone named), and
 * the local -> model job on it, the port's kernel beside the scalar
 * reference (ns per bone). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "bench_cases.h"
#include "plumbob.h"
#include "kernels.h"

#define BONES 257

typedef struct rig_ctx {
    unsigned char *bytes, *mem;
    size_t size, need;
    plumbob_rig rig;
    plumbob_bone_pose poses[BONES];
    plumbob_mat34 model[BONES];
} rig_ctx;

static void run_decode(void *p) {
    rig_ctx *c = (rig_ctx *)p;
    plumbob_arena a;
    plumbob_arena_init(&a, c->mem, c->need);
    if (plumbob_rig_decode(c->bytes, c->size, &a, &c->rig) != PLUMBOB_OK) abort();
    bench_keep(&c->rig);
}

static void run_model(void *p) {
    rig_ctx *c = (rig_ctx *)p;
    if (plumbob_skeleton_model(&c->rig.skeleton, c->poses, c->model, BONES) != PLUMBOB_OK) abort();
    bench_keep(c->model);
}

static void run_model_scalar(void *p) {
    rig_ctx *c = (rig_ctx *)p;
    pb_skeleton_model_scalar(c->rig.skeleton.parent, &c->poses[0].rotation.x, BONES, &c->model[0].m[0][0]);
    bench_keep(c->model);
}

void bench_rig(const bench_opts *o, int samples) {
    static rig_ctx c;
    static plumbob_rig_bone bones[BONES];
    static char names[BONES][24];
    plumbob_rig src;
    bench_stats s;
    uint32_t i, st = 7;
    char ctx[96];
    memset(&src, 0, sizeof src);
    for (i = 0; i < BONES; i++) {
        plumbob_quat q;
        st ^= st << 13; st ^= st >> 17; st ^= st << 5;
        snprintf(names[i], sizeof names[i], "b__Bone%03u__", (unsigned)i);
        q.x = (float)(st % 100u) / 400.0f; q.y = 0.1f; q.z = -0.05f; q.w = 1.0f;
        bones[i].orientation = plumbob_quat_normalize(q);
        bones[i].position.x = 0.01f * (float)(i % 9u);
        bones[i].position.y = 0.1f;
        bones[i].position.z = 0.0f;
        bones[i].scale.x = bones[i].scale.y = bones[i].scale.z = 1.0f;
        bones[i].name.ptr = names[i];
        bones[i].name.len = strlen(names[i]);
        bones[i].opposite = (int32_t)i;
        bones[i].parent = i ? (int32_t)(st % i) : -1;
        bones[i].hash = plumbob_fnv32_str(names[i]);
        bones[i].flags = 0x23;
    }
    src.major = 4;
    src.minor = 2;
    src.bone_count = BONES;
    src.bones = bones;
    src.skeleton_name.ptr = "benchRig";
    src.skeleton_name.len = 8;
    c.size = plumbob_rig_write_size(&src);
    c.bytes = (unsigned char *)malloc(c.size);
    if (!c.bytes || plumbob_rig_write(&src, c.bytes, c.size, &c.size) != PLUMBOB_OK ||
        plumbob_rig_measure(c.bytes, c.size, &c.need) != PLUMBOB_OK) {
        fprintf(stderr, "bench: cannot build the rig\n");
        free(c.bytes);
        return;
    }
    c.mem = (unsigned char *)malloc(c.need);
    s = bench_time(run_decode, &c, samples);
    snprintf(ctx, sizeof ctx, "\"bones\": %u, \"bytes\": %zu", (unsigned)BONES, c.size);
    bench_report(o, "decode_rig", "ns_per_bone", s.median / BONES * 1e9, s.min / BONES * 1e9, s.max / BONES * 1e9,
                 s.n, ctx);
    plumbob_skeleton_rest_pose(&c.rig.skeleton, 0, BONES, c.poses, BONES);
    snprintf(ctx, sizeof ctx, "\"bones\": %u, \"port\": \"%s\"", (unsigned)BONES, plumbob_port_name());
    s = bench_time(run_model, &c, samples * 10);
    bench_report(o, "skeleton_model", "ns_per_bone", s.median / BONES * 1e9, s.min / BONES * 1e9,
                 s.max / BONES * 1e9, s.n, ctx);
    snprintf(ctx, sizeof ctx, "\"bones\": %u, \"port\": \"scalar\"", (unsigned)BONES);
    s = bench_time(run_model_scalar, &c, samples * 10);
    bench_report(o, "skeleton_model_scalar", "ns_per_bone", s.median / BONES * 1e9, s.min / BONES * 1e9,
                 s.max / BONES * 1e9, s.n, ctx);
    free(c.mem);
    free(c.bytes);
}
