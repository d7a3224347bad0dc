/* Pose-job benchmarks (runtime.h Chapter 19b): blends of 2 and 4 layers,
 * each layer but the first with a per-bone mask, on a 257-bone pose (the
 * Sims 3 adult rig's size) and a 1,000-bone one; additive apply with a
 * mask; mirror (the job, and its kernel alone: scalar reference and the
 * port's twin); the blocked blend (plumbob_pose_blend_soa) on the same
 * poses.  ns per call and per bone. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "bench_cases.h"
#include "plumbob.h"
#include "kernels.h"

#define MAX_BONES 1000u
#define MAX_LAYERS 4u

typedef struct blend_ctx {
    plumbob_bone_pose layer[MAX_LAYERS][MAX_BONES], rest[MAX_BONES], out[MAX_BONES];
    float mask[MAX_LAYERS][MAX_BONES];
    plumbob_blend_layer layers[MAX_LAYERS];
    plumbob_pose_soa soa[MAX_LAYERS][MAX_BONES / 4u], soa_rest[MAX_BONES / 4u], soa_out[MAX_BONES / 4u];
    plumbob_blend_layer_soa soa_layers[MAX_LAYERS];
    int32_t opposite[MAX_BONES];
    uint32_t bones, layer_count;
} blend_ctx;

static float unit(uint32_t *st) {
    *st ^= *st << 13; *st ^= *st >> 17; *st ^= *st << 5;
    return (float)(*st % 20001u) / 10000.0f - 1.0f;
}

static void run_blend(void *p) {
    blend_ctx *c = (blend_ctx *)p;
    if (plumbob_pose_blend(c->layers, c->layer_count, c->rest, c->bones, PLUMBOB_BLEND_THRESHOLD, c->out, c->bones) !=
        PLUMBOB_OK)
        abort();
    bench_keep(c->out);
}

static void run_blend_soa(void *p) {
    blend_ctx *c = (blend_ctx *)p;
    if (plumbob_pose_blend_soa(c->soa_layers, c->layer_count, c->soa_rest, c->bones, PLUMBOB_BLEND_THRESHOLD, c->soa_out,
                               plumbob_pose_soa_blocks(c->bones)) != PLUMBOB_OK)
        abort();
    bench_keep(c->soa_out);
}

static void run_additive(void *p) {
    blend_ctx *c = (blend_ctx *)p;
    if (plumbob_pose_additive_apply(c->layer[0], c->layer[1], 0.7f, c->mask[1], c->bones, c->out, c->bones) !=
        PLUMBOB_OK)
        abort();
    bench_keep(c->out);
}

static void run_mirror(void *p) {
    blend_ctx *c = (blend_ctx *)p;
    if (plumbob_pose_mirror(c->opposite, c->layer[0], c->bones, c->out, c->bones) != PLUMBOB_OK) abort();
    bench_keep(c->out);
}

/* The kernel alone (the table already checked): the scalar reference, to
 * set beside the port's twin that plumbob_pose_mirror calls. */
static void run_mirror_scalar(void *p) {
    blend_ctx *c = (blend_ctx *)p;
    pb_pose_mirror_scalar(c->opposite, &c->layer[0][0].rotation.x, c->bones, &c->out[0].rotation.x);
    bench_keep(c->out);
}

static void run_mirror_port(void *p) {
    blend_ctx *c = (blend_ctx *)p;
    PB_POSE_MIRROR(c->opposite, &c->layer[0][0].rotation.x, c->bones, &c->out[0].rotation.x);
    bench_keep(c->out);
}

static void report(const bench_opts *o, const char *name, bench_stats s, uint32_t bones, uint32_t layers,
                   const char *port) {
    char ctx[128];
    snprintf(ctx, sizeof ctx, "\"bones\": %u, \"layers\": %u, \"port\": \"%s\", \"ns_per_bone\": %.3f",
             (unsigned)bones, (unsigned)layers, port, s.median / bones * 1e9);
    bench_report(o, name, "ns_per_call", s.median * 1e9, s.min * 1e9, s.max * 1e9, s.n, ctx);
}

void bench_blend(const bench_opts *o, int samples) {
    static blend_ctx c;
    static const uint32_t sizes[2] = {257u, MAX_BONES};
    uint32_t st = 0xB1E4Du, k, b, z;
    char name[64];
    for (k = 0; k < MAX_LAYERS; k++)
        for (b = 0; b < MAX_BONES; b++) {
            plumbob_quat q;
            plumbob_bone_pose *p = &c.layer[k][b];
            q.x = unit(&st); q.y = unit(&st); q.z = unit(&st); q.w = unit(&st);
            p->rotation = plumbob_quat_normalize(q);
            p->translation.x = unit(&st); p->translation.y = unit(&st); p->translation.z = unit(&st);
            p->scale.x = p->scale.y = p->scale.z = 1.0f;
            /* masks: an upper-body layer (half the bones 1, a ramp, the rest 0) */
            c.mask[k][b] = b % 4u == 0 ? 0.0f : (b % 4u == 1 ? 0.5f : 1.0f);
        }
    for (b = 0; b < MAX_BONES; b++) {
        c.rest[b] = c.layer[3][(b * 7u) % MAX_BONES];
    }
    for (k = 0; k < MAX_LAYERS; k++) {
        c.layers[k].poses = c.layer[k];
        c.layers[k].weight = k == 0 ? 1.0f : 0.5f;
        c.layers[k].bone_weights = k == 0 ? NULL : c.mask[k];
        if (plumbob_pose_to_soa(c.layer[k], MAX_BONES, c.soa[k], MAX_BONES / 4u) != PLUMBOB_OK) abort();
        c.soa_layers[k].poses = c.soa[k];
        c.soa_layers[k].weight = c.layers[k].weight;
        c.soa_layers[k].bone_weights = c.layers[k].bone_weights;
    }
    if (plumbob_pose_to_soa(c.rest, MAX_BONES, c.soa_rest, MAX_BONES / 4u) != PLUMBOB_OK) abort();
    for (z = 0; z < 2; z++) {
        c.bones = sizes[z];
        for (b = 0; b < c.bones; b++) c.opposite[b] = (int32_t)((b ^ 1u) < c.bones ? b ^ 1u : b); /* pairs */
        for (c.layer_count = 2; c.layer_count <= 4; c.layer_count += 2) {
            snprintf(name, sizeof name, "blend_%u_layers_masked", (unsigned)c.layer_count);
            report(o, name, bench_time(run_blend, &c, samples * 10), c.bones, c.layer_count, plumbob_port_name());
            snprintf(name, sizeof name, "blend_soa_%u_layers_masked", (unsigned)c.layer_count);
            report(o, name, bench_time(run_blend_soa, &c, samples * 10), c.bones, c.layer_count, plumbob_port_name());
        }
        report(o, "additive_masked", bench_time(run_additive, &c, samples * 10), c.bones, 1, "scalar");
        report(o, "mirror", bench_time(run_mirror, &c, samples * 10), c.bones, 1, plumbob_port_name());
        report(o, "mirror_kernel_scalar", bench_time(run_mirror_scalar, &c, samples * 10), c.bones, 1, "scalar");
        report(o, "mirror_kernel_port", bench_time(run_mirror_port, &c, samples * 10), c.bones, 1, plumbob_port_name());
    }
}
