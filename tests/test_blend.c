/* Pose jobs (runtime.h Chapter 19b): blending against a double-precision
 * reference, the port's kernel against the scalar one bit for bit, the
 * rest-pose fallback and cross-fade ends, additive delta and apply, and
 * mirroring on the real adult rig. */
#include <stdlib.h>
#include <string.h>
#include "test.h"
#include "kernels.h"

#define BL_BONES 300
#define BL_LAYERS 4

static float bl_unit(uint32_t *st) { return (float)(t_rand(st) % 20001u) / 10000.0f - 1.0f; }

static void bl_pose(plumbob_bone_pose *p, uint32_t *st) {
    plumbob_quat q;
    q.x = bl_unit(st); q.y = bl_unit(st); q.z = bl_unit(st); q.w = bl_unit(st);
    p->rotation = plumbob_quat_normalize(q);
    p->translation.x = bl_unit(st); p->translation.y = bl_unit(st); p->translation.z = bl_unit(st) * 0.25f;
    p->scale.x = 1.0f + bl_unit(st) * 0.2f; p->scale.y = 1.0f + bl_unit(st) * 0.2f; p->scale.z = 1.0f;
}

/* Tests link no libm (bare metal): square root by Newton's steps. */
static double bl_sqrt(double x) {
    double r = x > 1 ? x : 1;
    int i;
    if (!(x > 0)) return 0;
    for (i = 0; i < 200; i++) r = 0.5 * (r + x / r);
    return r;
}

static double bl_fabs(double x) { return x < 0 ? -x : x; }

static float bl_nan(void) {
    volatile float z = 0.0f;
    return z / z;
}

static float bl_inf(void) {
    volatile float m = 3e38f;
    return m * m;
}

/* Angle between two unit quaternions, degrees (either sign), from the
 * chord: |a - b| = 2 sin(angle / 4), close to angle / 2 for small angles
 * (and a resolution floats keep, unlike 1 - dot). */
static double bl_angle_deg(const plumbob_quat *a, const double b[4]) {
    double d = a->x * b[0] + a->y * b[1] + a->z * b[2] + a->w * b[3], s = d < 0 ? -1 : 1;
    double e0 = a->x - s * b[0], e1 = a->y - s * b[1], e2 = a->z - s * b[2], e3 = a->w - s * b[3];
    return 2.0 * bl_sqrt(e0 * e0 + e1 * e1 + e2 * e2 + e3 * e3) * 57.29577951308232;
}

static double bl_clamp01(double x) { return x > 0 ? (x < 1 ? x : 1) : 0; }

/* plumbob_pose_blend's formula in double. */
static void bl_reference(const plumbob_blend_layer *layers, uint32_t n, const plumbob_bone_pose *rest, uint32_t b,
                         float threshold, double out[10]) {
    double acc[10] = {0}, W = 0;
    const float *ref = n ? &layers[0].poses[b].rotation.x : &rest[b].rotation.x;
    uint32_t k, i;
    for (k = 0; k <= n; k++) {
        const float *p;
        double w, s, dot = 0;
        if (k < n) {
            p = &layers[k].poses[b].rotation.x;
            w = bl_clamp01(layers[k].weight) * (layers[k].bone_weights ? bl_clamp01(layers[k].bone_weights[b]) : 1.0);
        } else {
            if (W >= threshold) break;
            p = &rest[b].rotation.x;
            w = threshold - W;
        }
        for (i = 0; i < 4; i++) dot += (double)ref[i] * p[i];
        s = dot < 0 ? -w : w;
        for (i = 0; i < 4; i++) acc[i] += s * p[i];
        for (i = 4; i < 10; i++) acc[i] += w * p[i];
        W += w;
    }
    {
        double len = bl_sqrt(acc[0] * acc[0] + acc[1] * acc[1] + acc[2] * acc[2] + acc[3] * acc[3]);
        for (i = 0; i < 4; i++) out[i] = acc[i] / len;
        for (i = 4; i < 10; i++) out[i] = acc[i] / W;
    }
}

static double bl_qdot(const plumbob_quat *a, const plumbob_quat *b) {
    double d = (double)a->x * b->x + (double)a->y * b->y + (double)a->z * b->z + (double)a->w * b->w;
    return d < 0 ? -d : d;
}

/* The layers' poses, the rest pose, the output and the masks live in the
 * shared test scratch memory, not in statics: bare metal's RAM is short. */
#define bl_layer_poses ((plumbob_bone_pose(*)[BL_BONES])(void *)t_scratch())
#define bl_rest ((plumbob_bone_pose *)(void *)t_scratch() + BL_LAYERS * BL_BONES)
#define bl_out (bl_rest + BL_BONES)
#define bl_mask ((float(*)[BL_BONES])(void *)(bl_out + BL_BONES))

static void bl_build(uint32_t seed, plumbob_blend_layer *layers) {
    uint32_t st = seed, k, b;
    for (b = 0; b < BL_BONES; b++) bl_pose(&bl_rest[b], &st);
    for (k = 0; k < BL_LAYERS; k++) {
        for (b = 0; b < BL_BONES; b++) {
            bl_pose(&bl_layer_poses[k][b], &st);
            /* masks with zeros, ones, fractions, out-of-range values and whole vanishing bones */
            bl_mask[k][b] = b % 7u == 0 ? 0.0f : (b % 5u == 0 ? 1.0f : (float)(t_rand(&st) % 1200u) / 1000.0f);
            if (b % 11u == 0) bl_mask[k][b] = k == 0 ? 0.02f : 0.0f;
            if (b % 13u == 0) bl_mask[k][b] = -0.5f;
        }
        layers[k].poses = bl_layer_poses[k];
        layers[k].weight = k == 0 ? 0.7f : 0.3f + 0.2f * (float)k;
        layers[k].bone_weights = k == 2 ? NULL : bl_mask[k];
    }
}

void test_blend_matches_reference(void) {
    plumbob_blend_layer layers[BL_LAYERS];
    uint32_t n, b, i;
    double worst_deg = 0, worst_pos = 0;
    bl_build(0xB1E4Du, layers);
    for (n = 0; n <= BL_LAYERS; n++) {
        CHECK_OK(plumbob_pose_blend(layers, n, bl_rest, BL_BONES, PLUMBOB_BLEND_THRESHOLD, bl_out, BL_BONES));
        for (b = 0; b < BL_BONES; b++) {
            double d[10];
            const float *o = &bl_out[b].rotation.x;
            bl_reference(layers, n, bl_rest, b, PLUMBOB_BLEND_THRESHOLD, d);
            if (bl_angle_deg(&bl_out[b].rotation, d) > worst_deg) worst_deg = bl_angle_deg(&bl_out[b].rotation, d);
            for (i = 4; i < 10; i++)
                if (bl_fabs(o[i] - d[i]) > worst_pos) worst_pos = bl_fabs(o[i] - d[i]);
        }
    }
    CHECK(worst_deg < 0.01);
    CHECK(worst_pos < 1e-5);
    /* no layer weighs: the rest pose exactly */
    layers[0].weight = 0.0f;
    CHECK_OK(plumbob_pose_blend(layers, 1, bl_rest, BL_BONES, 0.25f, bl_out, BL_BONES));
    for (b = 0; b < BL_BONES; b++) {
        CHECK_NEAR(bl_out[b].translation.x, bl_rest[b].translation.x, 1e-6);
        CHECK_NEAR(bl_out[b].scale.y, bl_rest[b].scale.y, 1e-6);
        CHECK(bl_qdot(&bl_out[b].rotation, &bl_rest[b].rotation) > 1.0 - 1e-6);
    }
}

void test_blend_port_matches_scalar(void) {
    plumbob_blend_layer layers[BL_LAYERS];
    float *acc_s = (float *)(void *)t_work(), *acc_p = acc_s + 10 * BL_BONES, *ws_s = acc_p + 10 * BL_BONES,
          *ws_p = ws_s + BL_BONES;
    uint32_t k;
    bl_build(0x5EEDu, layers);
    bl_layer_poses[1][3].translation.x = -0.0f; /* signed zeros and a rotation opposite layer 0's */
    bl_layer_poses[1][4].rotation.x = -bl_layer_poses[0][4].rotation.x;
    bl_layer_poses[1][4].rotation.y = -bl_layer_poses[0][4].rotation.y;
    bl_layer_poses[1][4].rotation.z = -bl_layer_poses[0][4].rotation.z;
    bl_layer_poses[1][4].rotation.w = -bl_layer_poses[0][4].rotation.w;
    for (k = 0; k < BL_LAYERS; k++) {
        pb_blend_layer_scalar(&layers[k].poses[0].rotation.x, &layers[0].poses[0].rotation.x, pb_weight01(layers[k].weight),
                              layers[k].bone_weights, BL_BONES, k == 0, acc_s, ws_s);
        PB_BLEND_LAYER(&layers[k].poses[0].rotation.x, &layers[0].poses[0].rotation.x, pb_weight01(layers[k].weight),
                       layers[k].bone_weights, BL_BONES, k == 0, acc_p, ws_p);
    }
    CHECK(memcmp(acc_s, acc_p, 10 * BL_BONES * sizeof *acc_s) == 0);
    CHECK(memcmp(ws_s, ws_p, BL_BONES * sizeof *ws_s) == 0);
    /* the end of the blend: some bones below the threshold, one zero and one huge sum */
    ws_s[5] = ws_p[5] = 0.0f;
    ws_s[9] = ws_p[9] = 0.05f;
    acc_s[30] = acc_p[30] = 3e38f;
    acc_s[31] = acc_p[31] = -3e38f;
    pb_blend_finish_scalar(acc_s, ws_s, &bl_rest[0].rotation.x, &layers[0].poses[0].rotation.x, 0.1f, BL_BONES);
    PB_BLEND_FINISH(acc_p, ws_p, &bl_rest[0].rotation.x, &layers[0].poses[0].rotation.x, 0.1f, BL_BONES);
    CHECK(memcmp(acc_s, acc_p, 10 * BL_BONES * sizeof *acc_s) == 0);
    /* the whole job (vector ports take groups of four bones in one pass)
     * against the scalar layer passes and end, 1 to 4 layers, an odd bone
     * count, a threshold some bones fall below, huge and infinite values */
    bl_layer_poses[0][8].translation.y = 3e38f;
    bl_layer_poses[1][8].translation.y = 3e38f;
    bl_layer_poses[2][13].scale.z = bl_inf();
    for (k = 1; k <= BL_LAYERS; k++) {
        uint32_t j, n = BL_BONES - 3;
        for (j = 0; j < k; j++)
            pb_blend_layer_scalar(&layers[j].poses[0].rotation.x, &layers[0].poses[0].rotation.x,
                                  pb_weight01(layers[j].weight), layers[j].bone_weights, n, j == 0, acc_s, ws_s);
        pb_blend_finish_scalar(acc_s, ws_s, &bl_rest[0].rotation.x, &layers[0].poses[0].rotation.x, 0.6f, n);
        CHECK_OK(plumbob_pose_blend(layers, k, bl_rest, n, 0.6f, bl_out, n));
        CHECK(memcmp(acc_s, bl_out, n * sizeof *bl_out) == 0);
    }
}

/* A cross-fade of two poses: its ends are the poses themselves (rotation
 * normalized), and it moves in small steps as the fade does. */
void test_blend_cross_fade(void) {
    plumbob_blend_layer layers[BL_LAYERS];
    plumbob_bone_pose *prev = (plumbob_bone_pose *)(void *)t_work();
    uint32_t b, step;
    double worst_step = 0;
    bl_build(0xFADEu, layers);
    layers[0].bone_weights = layers[1].bone_weights = NULL;
    for (step = 0; step <= 100; step++) {
        float f = (float)step / 100.0f;
        layers[0].weight = 1.0f - f;
        layers[1].weight = f;
        CHECK_OK(plumbob_pose_blend(layers, 2, bl_rest, BL_BONES, PLUMBOB_BLEND_THRESHOLD, bl_out, BL_BONES));
        for (b = 0; b < BL_BONES; b++) {
            if (step == 0 || step == 100) {
                const plumbob_bone_pose *e = &bl_layer_poses[step ? 1 : 0][b];
                double d = bl_fabs(e->rotation.x * bl_out[b].rotation.x + e->rotation.y * bl_out[b].rotation.y +
                                e->rotation.z * bl_out[b].rotation.z + e->rotation.w * bl_out[b].rotation.w);
                CHECK(d > 1.0 - 1e-6);
                CHECK_NEAR(bl_out[b].translation.y, e->translation.y, 1e-6);
                CHECK_NEAR(bl_out[b].scale.x, e->scale.x, 1e-6);
            } else {
                double dt = bl_fabs(bl_out[b].translation.x - prev[b].translation.x);
                if (dt > worst_step) worst_step = dt;
            }
            prev[b] = bl_out[b];
        }
    }
    CHECK(worst_step < 0.05); /* translations within [-1, 1]: a 1/100 fade step moves at most 0.02 */
}

void test_blend_errors(void) {
    plumbob_blend_layer layers[BL_LAYERS];
    bl_build(7u, layers);
    memset(bl_out, 0xA5, BL_BONES * sizeof *bl_out);
    CHECK_EQ(plumbob_pose_blend(NULL, 1, bl_rest, BL_BONES, 0.1f, bl_out, BL_BONES), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_pose_blend(layers, 2, NULL, BL_BONES, 0.1f, bl_out, BL_BONES), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_pose_blend(layers, 2, bl_rest, BL_BONES, 0.1f, NULL, BL_BONES), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_pose_blend(layers, 2, bl_rest, BL_BONES, 0.0f, bl_out, BL_BONES), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_pose_blend(layers, 2, bl_rest, BL_BONES, 1.5f, bl_out, BL_BONES), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_pose_blend(layers, 2, bl_rest, BL_BONES, bl_nan(), bl_out, BL_BONES),
             PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_pose_blend(layers, 2, bl_rest, BL_BONES, 0.1f, bl_layer_poses[1], BL_BONES),
             PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_pose_blend(layers, 2, bl_rest, BL_BONES, 0.1f, bl_rest, BL_BONES), PLUMBOB_ERR_INVALID_ARGUMENT);
    layers[1].poses = NULL;
    CHECK_EQ(plumbob_pose_blend(layers, 2, bl_rest, BL_BONES, 0.1f, bl_out, BL_BONES), PLUMBOB_ERR_INVALID_ARGUMENT);
    layers[1].poses = bl_layer_poses[1];
    CHECK_EQ(plumbob_pose_blend(layers, 2, bl_rest, BL_BONES, 0.1f, bl_out, BL_BONES - 1),
             PLUMBOB_ERR_OUTPUT_TOO_SMALL);
    {   /* nothing was written */
        unsigned char *o = (unsigned char *)bl_out;
        size_t i;
        int same = 1;
        for (i = 0; i < BL_BONES * sizeof *bl_out; i++) same &= o[i] == 0xA5;
        CHECK(same);
    }
    CHECK_OK(plumbob_pose_blend(NULL, 0, NULL, 0, 0.1f, NULL, 0));
    /* huge finite inputs: finite out */
    bl_layer_poses[0][0].translation.x = 3e38f;
    bl_layer_poses[1][0].translation.x = 3e38f;
    layers[0].weight = layers[1].weight = 1.0f;
    layers[0].bone_weights = layers[1].bone_weights = NULL;
    CHECK_OK(plumbob_pose_blend(layers, 2, bl_rest, BL_BONES, 0.1f, bl_out, BL_BONES));
    CHECK(bl_out[0].translation.x <= 3.4028235e38f && bl_out[0].translation.x >= 1e38f);
}

/* plumbob_pose_additive_apply's formula in double, with slerp-free nlerp
 * normalized before the product (the job normalizes once, after it: the
 * same rotation up to rounding). */
static void bl_additive_reference(const plumbob_bone_pose *s, const plumbob_bone_pose *d, double w, double out[10]) {
    const float *sq = &s->rotation.x, *dq = &d->rotation.x;
    double p[4], sgn = dq[3] < 0 ? -1 : 1, len, o[4];
    int i;
    for (i = 0; i < 4; i++) p[i] = sgn * w * dq[i];
    p[3] += 1 - w;
    len = bl_sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2] + p[3] * p[3]);
    for (i = 0; i < 4; i++) p[i] /= len;
    o[0] = sq[3] * p[0] + sq[0] * p[3] + sq[1] * p[2] - sq[2] * p[1];
    o[1] = sq[3] * p[1] - sq[0] * p[2] + sq[1] * p[3] + sq[2] * p[0];
    o[2] = sq[3] * p[2] + sq[0] * p[1] - sq[1] * p[0] + sq[2] * p[3];
    o[3] = sq[3] * p[3] - sq[0] * p[0] - sq[1] * p[1] - sq[2] * p[2];
    len = bl_sqrt(o[0] * o[0] + o[1] * o[1] + o[2] * o[2] + o[3] * o[3]);
    for (i = 0; i < 4; i++) out[i] = o[i] / len;
    for (i = 4; i < 7; i++) out[i] = sq[i] + w * dq[i];
    for (i = 7; i < 10; i++) out[i] = sq[i] * (1 + w * (dq[i] - 1));
}

/* delta of pose against ref, applied on ref with weight 1, gives pose;
 * weight 0 gives the base; half way against a double slerp-free reference. */
void test_additive_round_trip(void) {
    /* in the shared work memory, not statics: bare metal's RAM is short */
    plumbob_bone_pose *ref = (plumbob_bone_pose *)(void *)t_work(), *pose = ref + BL_BONES, *delta = pose + BL_BONES,
                      *out = delta + BL_BONES;
    uint32_t st = 0xADD1u, b;
    double worst = 0;
    for (b = 0; b < BL_BONES; b++) {
        bl_pose(&ref[b], &st);
        bl_pose(&pose[b], &st);
    }
    CHECK_OK(plumbob_pose_additive_delta(ref, pose, BL_BONES, delta, BL_BONES));
    CHECK_OK(plumbob_pose_additive_apply(ref, delta, 1.0f, NULL, BL_BONES, out, BL_BONES));
    for (b = 0; b < BL_BONES; b++) {
        double pd[4];
        double a;
        pd[0] = pose[b].rotation.x; pd[1] = pose[b].rotation.y; pd[2] = pose[b].rotation.z; pd[3] = pose[b].rotation.w;
        a = bl_angle_deg(&out[b].rotation, pd);
        if (a > worst) worst = a;
        CHECK_NEAR(out[b].translation.x, pose[b].translation.x, 1e-5);
        CHECK_NEAR(out[b].translation.z, pose[b].translation.z, 1e-5);
        CHECK_NEAR(out[b].scale.y, pose[b].scale.y, 1e-5);
    }
    CHECK(worst < 0.01);
    CHECK_OK(plumbob_pose_additive_apply(ref, delta, 0.0f, NULL, BL_BONES, out, BL_BONES));
    for (b = 0; b < BL_BONES; b++) {
        CHECK(bl_qdot(&out[b].rotation, &ref[b].rotation) > 1.0 - 1e-6);
        CHECK_EQ(memcmp(&out[b].translation, &ref[b].translation, sizeof out[b].translation), 0);
    }
    /* weight 0.7 under a mask of 0 .. 1 against the double reference */
    {
        float *mask = (float *)(void *)(out + BL_BONES);
        double worst_pos = 0;
        worst = 0;
        for (b = 0; b < BL_BONES; b++) mask[b] = (float)(b % 5u) * 0.25f;
        CHECK_OK(plumbob_pose_additive_apply(pose, delta, 0.7f, mask, BL_BONES, out, BL_BONES));
        for (b = 0; b < BL_BONES; b++) {
            double r[10], a;
            uint32_t i;
            bl_additive_reference(&pose[b], &delta[b], 0.7 * mask[b], r);
            a = bl_angle_deg(&out[b].rotation, r);
            if (a > worst) worst = a;
            for (i = 4; i < 10; i++) {
                double e = bl_fabs((&out[b].rotation.x)[i] - r[i]);
                if (e > worst_pos) worst_pos = e;
            }
        }
        CHECK(worst < 0.01);
        CHECK(worst_pos < 1e-5);
        /* a zero delta rotation at weight 1 has no direction: the identity;
         * at weight 0.5 it only scales the product: the base, normalized */
        delta[0].rotation.x = delta[0].rotation.y = delta[0].rotation.z = delta[0].rotation.w = 0.0f;
        CHECK_OK(plumbob_pose_additive_apply(pose, delta, 1.0f, NULL, 1, out, 1));
        CHECK(out[0].rotation.x == 0.0f && out[0].rotation.y == 0.0f && out[0].rotation.z == 0.0f &&
              out[0].rotation.w == 1.0f);
        CHECK_OK(plumbob_pose_additive_apply(pose, delta, 0.5f, NULL, 1, out, 1));
        CHECK(bl_qdot(&out[0].rotation, &pose[0].rotation) > 1.0 - 1e-6);
        CHECK_OK(plumbob_pose_additive_delta(ref, pose, 1, delta, 1));
    }
    /* a per-bone mask of 0 leaves the bone; in place on the base */
    {
        plumbob_bone_pose *base = out + BL_BONES;
        float *mask = (float *)(void *)(base + BL_BONES);
        for (b = 0; b < BL_BONES; b++) mask[b] = b % 2u ? 1.0f : 0.0f;
        memcpy(base, ref, BL_BONES * sizeof *base);
        CHECK_OK(plumbob_pose_additive_apply(base, delta, 1.0f, mask, BL_BONES, base, BL_BONES));
        CHECK_NEAR(base[0].translation.x, ref[0].translation.x, 0);
        CHECK_NEAR(base[1].translation.x, pose[1].translation.x, 1e-5);
    }
    /* in place delta (delta = pose) and errors */
    CHECK_OK(plumbob_pose_additive_delta(ref, pose, BL_BONES, pose, BL_BONES));
    CHECK(memcmp(pose, delta, BL_BONES * sizeof *pose) == 0);
    CHECK_EQ(plumbob_pose_additive_delta(ref, pose, BL_BONES, ref, BL_BONES), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_pose_additive_delta(ref, NULL, BL_BONES, out, BL_BONES), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_pose_additive_delta(ref, pose, BL_BONES, out, 3), PLUMBOB_ERR_OUTPUT_TOO_SMALL);
    CHECK_EQ(plumbob_pose_additive_apply(ref, delta, 1.0f, NULL, BL_BONES, delta, BL_BONES),
             PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_pose_additive_apply(ref, delta, 1.0f, NULL, BL_BONES, out, 0), PLUMBOB_ERR_OUTPUT_TOO_SMALL);
    /* a zero reference scale gives delta scale 1; a NaN weight is 0 */
    ref[0].scale.x = 0.0f;
    CHECK_OK(plumbob_pose_additive_delta(ref, pose, 1, delta, 1));
    CHECK_NEAR(delta[0].scale.x, 1.0, 0);
    CHECK_OK(plumbob_pose_additive_apply(ref, delta, bl_nan(), NULL, 1, out, 1));
    CHECK_NEAR(out[0].translation.x, ref[0].translation.x, 0);
}

/* The adult rig: mirrored rest pose is the rest pose (the rig is built
 * symmetric, to a few thousandths), twice mirrored is the input exactly. */
void test_mirror_adult_rig(void) {
    size_t size, need;
    unsigned char *data = t_corpus_load("sims3/auRig.rig", &size), *mem;
    plumbob_rig rig;
    plumbob_arena arena;
    static int32_t opp[512];
    /* in the shared work memory, not statics: bare metal's RAM is short */
    plumbob_bone_pose *once = (plumbob_bone_pose *)(void *)t_work(), *twice = once + 512, *posed = twice + 512;
    uint32_t b, st = 0x3A3Au, pairs = 0;
    double worst_t = 0, worst_q = 0;
    if (!data) T_SKIP(t_corpus_missing());
    CHECK_OK(plumbob_rig_measure(data, size, &need));
    mem = (unsigned char *)malloc(need);
    plumbob_arena_init(&arena, mem, need);
    CHECK_OK(plumbob_rig_decode(data, size, &arena, &rig));
    CHECK_EQ(rig.skeleton.bone_count, 257);
    CHECK_EQ(plumbob_rig_mirror_table(&rig, opp, 10), PLUMBOB_ERR_OUTPUT_TOO_SMALL);
    CHECK_OK(plumbob_rig_mirror_table(&rig, opp, 512));
    for (b = 0; b < rig.skeleton.bone_count; b++) {
        CHECK(opp[b] >= 0 && (uint32_t)opp[b] < rig.skeleton.bone_count);
        CHECK_EQ(opp[opp[b]], b);
        if ((uint32_t)opp[b] != b) pairs++;
    }
    CHECK(pairs > 100);
    CHECK_OK(plumbob_pose_mirror(opp, rig.skeleton.rest, rig.skeleton.bone_count, once, 512));
    for (b = 0; b < rig.skeleton.bone_count; b++) {
        const plumbob_bone_pose *r = &rig.skeleton.rest[b];
        double dq = bl_qdot(&once[b].rotation, &r->rotation);
        double e = bl_fabs(once[b].translation.x - r->translation.x) + bl_fabs(once[b].translation.y - r->translation.y) +
                   bl_fabs(once[b].translation.z - r->translation.z);
        if (e > worst_t) worst_t = e;
        if (1.0 - dq > worst_q) worst_q = 1.0 - dq;
    }
    CHECK(worst_t < 0.01);  /* metres: the rig's own asymmetry is below 1 mm... */
    CHECK(worst_q < 1e-3);  /* ...and a fraction of a degree */
    for (b = 0; b < rig.skeleton.bone_count; b++) bl_pose(&posed[b], &st);
    CHECK_OK(plumbob_pose_mirror(opp, posed, rig.skeleton.bone_count, once, 512));
    CHECK_OK(plumbob_pose_mirror(opp, once, rig.skeleton.bone_count, twice, 512));
    CHECK(memcmp(twice, posed, sizeof(plumbob_bone_pose) * rig.skeleton.bone_count) == 0);
    /* errors */
    CHECK_EQ(plumbob_pose_mirror(opp, posed, rig.skeleton.bone_count, posed, 512), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_pose_mirror(opp, posed, rig.skeleton.bone_count, once, 256), PLUMBOB_ERR_OUTPUT_TOO_SMALL);
    opp[7] = 257;
    CHECK_EQ(plumbob_pose_mirror(opp, posed, rig.skeleton.bone_count, once, 512), PLUMBOB_ERR_BAD_INDEX);
    opp[7] = -1;
    CHECK_EQ(plumbob_pose_mirror(opp, posed, rig.skeleton.bone_count, once, 512), PLUMBOB_ERR_BAD_INDEX);
    CHECK_EQ(plumbob_rig_mirror_table(NULL, opp, 512), PLUMBOB_ERR_INVALID_ARGUMENT);
    free(mem);
    free(data);
}

/* The port's mirror kernel against the scalar reference, bit for bit:
 * poses of random bits (NaNs, infinities, signed zeros, subnormals) under
 * the identity table, a reversal, random pairs with self-opposite bones
 * and a random table (not a pairing), every length 0..33 and 300; the
 * public job gives the reference's bits and, with a pairing table,
 * mirroring twice gives the input. */
void test_pose_mirror_port_matches_scalar(void) {
    /* in the shared work memory, not statics: bare metal's RAM is short */
    plumbob_bone_pose *in = (plumbob_bone_pose *)(void *)t_work(), *ref = in + BL_BONES, *port = ref + BL_BONES,
                      *twice = port + BL_BONES;
    int32_t *opp = (int32_t *)(void *)(twice + BL_BONES);
    uint32_t st = 0x31A0u, kind, n, b;
    for (b = 0; b < 10u * BL_BONES; b++) {
        uint32_t bits = t_rand(&st) * 2654435761u ^ t_rand(&st) << 16;
        memcpy((float *)(void *)in + b, &bits, 4);
    }
    for (kind = 0; kind < 4u; kind++) {
        for (n = 0; n <= BL_BONES; n = n < 33u ? n + 1u : BL_BONES) {
            for (b = 0; b < n; b++) {
                if (kind == 0) opp[b] = (int32_t)b;
                else if (kind == 1) opp[b] = (int32_t)(n - 1u - b);
                else if (kind == 2) opp[b] = (int32_t)((b / 2u) % 3u == 2u || (b ^ 1u) >= n ? b : b ^ 1u); /* pairs, some alone */
                else opp[b] = (int32_t)(t_rand(&st) % n);
            }
            memset(ref, 0xA5, sizeof *ref * BL_BONES);
            memset(port, 0x5A, sizeof *port * BL_BONES);
            pb_pose_mirror_scalar(opp, &in[0].rotation.x, n, &ref[0].rotation.x);
            PB_POSE_MIRROR(opp, &in[0].rotation.x, n, &port[0].rotation.x);
            CHECK(memcmp(ref, port, sizeof *ref * n) == 0);
            CHECK_OK(plumbob_pose_mirror(opp, in, n, port, BL_BONES));
            CHECK(memcmp(ref, port, sizeof *ref * n) == 0);
            if (n && kind < 3u) {
                CHECK_OK(plumbob_pose_mirror(opp, port, n, twice, BL_BONES));
                CHECK(memcmp(twice, in, sizeof *in * n) == 0);
            }
            if (n == BL_BONES) break;
        }
    }
    /* one bone by hand: the reflection's signs */
    in[0].rotation.x = 0.5f; in[0].rotation.y = 0.25f; in[0].rotation.z = -0.0f; in[0].rotation.w = 1.0f;
    in[0].translation.x = 2.0f; in[0].translation.y = 3.0f; in[0].translation.z = 4.0f;
    in[0].scale.x = 5.0f; in[0].scale.y = 6.0f; in[0].scale.z = 7.0f;
    opp[0] = 0;
    CHECK_OK(plumbob_pose_mirror(opp, in, 1, port, 1));
    CHECK(port[0].rotation.x == 0.5f && port[0].rotation.y == -0.25f && port[0].rotation.w == 1.0f);
    memcpy(&b, &port[0].rotation.z, 4);
    CHECK_EQ(b, 0); /* -(-0) is +0 */
    CHECK(port[0].translation.x == -2.0f && port[0].translation.y == 3.0f && port[0].translation.z == 4.0f);
    CHECK(port[0].scale.x == 5.0f && port[0].scale.y == 6.0f && port[0].scale.z == 7.0f);
}

/* Masks from bone names on the adult rig: the left arm from the clavicle
 * down, and the error cases. */
void test_bone_weights_subtrees(void) {
    size_t size, need;
    unsigned char *data = t_corpus_load("sims3/auRig.rig", &size), *mem;
    plumbob_rig rig;
    plumbob_arena arena;
    static float w[512];
    uint32_t h[2], b, inside = 0;
    int32_t cl, hand, spine;
    if (!data) T_SKIP(t_corpus_missing());
    CHECK_OK(plumbob_rig_measure(data, size, &need));
    mem = (unsigned char *)malloc(need);
    plumbob_arena_init(&arena, mem, need);
    CHECK_OK(plumbob_rig_decode(data, size, &arena, &rig));
    h[0] = plumbob_fnv32_str("b__L_Clavicle__");
    h[1] = plumbob_fnv32_str("b__R_Clavicle__");
    cl = plumbob_skeleton_find(&rig.skeleton, h[0]);
    hand = plumbob_skeleton_find(&rig.skeleton, plumbob_fnv32_str("b__L_Hand__"));
    spine = plumbob_skeleton_find(&rig.skeleton, plumbob_fnv32_str("b__Spine0__"));
    CHECK(cl >= 0 && hand >= 0);
    CHECK_OK(plumbob_bone_weights_subtrees(&rig.skeleton, h, 1, 1.0f, 0.0f, w, 512));
    for (b = 0; b < rig.skeleton.bone_count; b++) {
        int32_t p = (int32_t)b, in = 0;
        while (p >= 0 && !in) { in = p == cl; p = rig.skeleton.parent[p]; } /* the definition, walked up */
        CHECK_NEAR(w[b], in ? 1.0 : 0.0, 0);
        inside += (uint32_t)in;
    }
    CHECK(inside > 20 && w[hand] == 1.0f);
    if (spine >= 0) CHECK_NEAR(w[spine], 0.0, 0);
    CHECK_OK(plumbob_bone_weights_subtrees(&rig.skeleton, h, 2, 0.25f, 1.0f, w, 512));
    CHECK_NEAR(w[hand], 0.25, 0);
    CHECK_NEAR(w[0], 1.0, 0);
    h[1] = 0x12345678u;
    CHECK_EQ(plumbob_bone_weights_subtrees(&rig.skeleton, h, 2, 1.0f, 0.0f, w, 512), PLUMBOB_ERR_NOT_FOUND);
    CHECK_EQ(plumbob_bone_weights_subtrees(&rig.skeleton, h, 1, 1.0f, 0.0f, w, 10), PLUMBOB_ERR_OUTPUT_TOO_SMALL);
    CHECK_EQ(plumbob_bone_weights_subtrees(&rig.skeleton, h, 1, 2.0f, 0.0f, w, 512), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_bone_weights_subtrees(&rig.skeleton, NULL, 1, 1.0f, 0.0f, w, 512), PLUMBOB_ERR_INVALID_ARGUMENT);
    free(mem);
    free(data);
}

/* --- the blocked pose form (plumbob_pose_soa) --------------------------- */

/* The layers, rest and outputs of bl_build as blocks, in the work memory. */
#define BS_BLOCKS ((BL_BONES + 3) / 4)
#define bs_layer ((plumbob_pose_soa(*)[BS_BLOCKS])(void *)t_work())
#define bs_rest ((plumbob_pose_soa *)(void *)t_work() + BL_LAYERS * BS_BLOCKS)
#define bs_out (bs_rest + BS_BLOCKS)
#define bs_out2 (bs_out + BS_BLOCKS)
#define bs_back ((plumbob_bone_pose *)(void *)(bs_out2 + BS_BLOCKS))

static void bs_convert(const plumbob_blend_layer *layers, uint32_t bones, plumbob_blend_layer_soa *soa) {
    uint32_t k;
    for (k = 0; k < BL_LAYERS; k++) {
        CHECK_OK(plumbob_pose_to_soa(layers[k].poses, bones, bs_layer[k], BS_BLOCKS));
        soa[k].poses = bs_layer[k];
        soa[k].weight = layers[k].weight;
        soa[k].bone_weights = layers[k].bone_weights;
    }
    CHECK_OK(plumbob_pose_to_soa(bl_rest, bones, bs_rest, BS_BLOCKS));
}

/* Bone for bone the AoS job's bits, for every layer count and bone counts
 * with and without padding; within the double reference's tolerances;
 * padding bones finite (the identity's blend). */
void test_blend_soa_matches_aos(void) {
    static const uint32_t counts[4] = {BL_BONES, BL_BONES - 3, 5, 1};
    plumbob_blend_layer layers[BL_LAYERS];
    plumbob_blend_layer_soa soa[BL_LAYERS];
    uint32_t c, n, b, i;
    double worst_deg = 0, worst_pos = 0;
    bl_build(0x50Au, layers);
    bl_layer_poses[1][6].rotation.x = -bl_layer_poses[0][6].rotation.x; /* opposite hemispheres */
    bl_layer_poses[1][6].rotation.y = -bl_layer_poses[0][6].rotation.y;
    bl_layer_poses[1][6].rotation.z = -bl_layer_poses[0][6].rotation.z;
    bl_layer_poses[1][6].rotation.w = -bl_layer_poses[0][6].rotation.w;
    bl_layer_poses[2][8].translation.y = -0.0f;
    for (c = 0; c < 4; c++) {
        uint32_t bones = counts[c], blocks = plumbob_pose_soa_blocks(bones);
        bs_convert(layers, bones, soa);
        for (n = 0; n <= BL_LAYERS; n++) {
            int same;
            CHECK_OK(plumbob_pose_blend(layers, n, bl_rest, bones, PLUMBOB_BLEND_THRESHOLD, bl_out, bones));
            CHECK_OK(plumbob_pose_blend_soa(soa, n, bs_rest, bones, PLUMBOB_BLEND_THRESHOLD, bs_out, blocks));
            CHECK_OK(plumbob_pose_from_soa(bs_out, bones, bs_back, bones));
            same = memcmp(bs_back, bl_out, bones * sizeof *bl_out) == 0;
            CHECK(same);
            for (b = bones; b < 4 * blocks; b++) { /* padding: the identity */
                const float *o = (const float *)(const void *)&bs_out[b / 4];
                CHECK_NEAR(o[12 + b % 4], 1.0, 1e-6);
                CHECK_NEAR(o[16 + b % 4], 0.0, 1e-6);
                CHECK_NEAR(o[28 + b % 4], 1.0, 1e-6);
            }
            if (c == 0)
                for (b = 0; b < bones; b++) {
                    double d[10];
                    const float *o = &bs_back[b].rotation.x;
                    bl_reference(layers, n, bl_rest, b, PLUMBOB_BLEND_THRESHOLD, d);
                    if (bl_angle_deg(&bs_back[b].rotation, d) > worst_deg) worst_deg = bl_angle_deg(&bs_back[b].rotation, d);
                    for (i = 4; i < 10; i++)
                        if (bl_fabs(o[i] - d[i]) > worst_pos) worst_pos = bl_fabs(o[i] - d[i]);
                }
        }
    }
    CHECK(worst_deg < 0.01);
    CHECK(worst_pos < 1e-5);
}

/* The port's kernel against the scalar reference, bit for bit, with bones
 * below the threshold, zero weights, huge sums and signed zeros. */
void test_blend_soa_port_matches_scalar(void) {
    plumbob_blend_layer layers[BL_LAYERS];
    plumbob_blend_layer_soa soa[BL_LAYERS];
    uint32_t n;
    bl_build(0x5EEDu, layers);
    bl_layer_poses[0][9].translation.x = 3e38f; /* a sum past FLT_MAX: clamped */
    bl_layer_poses[1][9].translation.x = 3e38f;
    bl_layer_poses[0][10].rotation.x = 3e38f;   /* len2 infinite: the identity */
    bl_layer_poses[1][3].translation.x = -0.0f;
    bl_layer_poses[0][3].translation.x = -0.0f;
    /* whole blocks whose rows need no clamp but fail the finite test
     * (rows finite, their sum not), or hold an infinity or a NaN: the
     * port's clamps run only there and must give the scalar's bits */
    bl_layer_poses[0][20].translation.y = 3e38f; /* bones 20 and 25: mask 1 */
    bl_layer_poses[0][20].scale.z = 3e38f;
    bl_layer_poses[1][25].scale.y = -bl_inf(); /* clamped to -FLT_MAX */
    bl_layer_poses[0][30].translation.z = bl_nan();
    bs_convert(layers, BL_BONES - 1, soa);
    for (n = 0; n <= BL_LAYERS; n++) {
        pb_blend_soa_scalar(soa, n, bs_rest, BL_BONES - 1, 0.3f, bs_out);
        PB_BLEND_SOA(soa, n, bs_rest, BL_BONES - 1, 0.3f, bs_out2);
        CHECK(memcmp(bs_out, bs_out2, BS_BLOCKS * sizeof *bs_out) == 0);
    }
    CHECK(((const float *)(const void *)&bs_out[2])[4 * 3 + 2] == 1.0f); /* bone 10's w */
    CHECK(((const float *)(const void *)&bs_out2[6])[4 * 8 + 1] == -FLT_MAX); /* bone 25's scale y */
}

/* Converters: blocks query, round trip, padding, errors. */
void test_pose_soa_convert(void) {
    plumbob_blend_layer layers[BL_LAYERS];
    uint32_t b;
    const float *last;
    CHECK_EQ(plumbob_pose_soa_blocks(0), 0u);
    CHECK_EQ(plumbob_pose_soa_blocks(1), 1u);
    CHECK_EQ(plumbob_pose_soa_blocks(4), 1u);
    CHECK_EQ(plumbob_pose_soa_blocks(5), 2u);
    CHECK_EQ(plumbob_pose_soa_blocks(0xFFFFFFFFu), 0x40000000u);
    bl_build(0xC0u, layers);
    CHECK_OK(plumbob_pose_to_soa(bl_rest, 297, bs_out, plumbob_pose_soa_blocks(297)));
    CHECK_OK(plumbob_pose_from_soa(bs_out, 297, bs_back, 297));
    CHECK(memcmp(bs_back, bl_rest, 297 * sizeof *bl_rest) == 0);
    CHECK_EQ(bs_out[5].tz[2], bl_rest[22].translation.z);
    CHECK_EQ(bs_out[5].rw[2], bl_rest[22].rotation.w);
    last = (const float *)(const void *)&bs_out[74]; /* bones 296..299: 297..299 padding */
    for (b = 1; b < 4; b++) {
        CHECK_EQ(last[b], 0.0f);
        CHECK_EQ(last[12 + b], 1.0f);
        CHECK_EQ(last[16 + b], 0.0f);
        CHECK_EQ(last[28 + b], 1.0f);
        CHECK_EQ(last[36 + b], 1.0f);
    }
    /* any bits (NaN payloads, -0, subnormals) through the port's kernels
     * as through the scalar loops, and back; 1 .. 9 bones write nothing
     * past their own */
    {
        uint32_t *bits = (uint32_t *)(void *)bl_layer_poses[0], st = 0xB175u, n, i;
        for (i = 0; i < 12u * 10u; i++) bits[i] = t_rand(&st) * 2654435761u ^ t_rand(&st);
        bits[3] = 0x7FC01234u;
        bits[17] = 0xFFC00001u;
        bits[25] = 0x80000000u;
        bits[38] = 0x00000001u;
        PB_POSE_TO_SOA(&bl_layer_poses[0][0].rotation.x, 3, (float *)(void *)bs_out);
        pb_pose_to_soa_scalar(&bl_layer_poses[0][0].rotation.x, 3, (float *)(void *)bs_out2);
        CHECK(memcmp(bs_out, bs_out2, 3 * sizeof *bs_out) == 0);
        PB_POSE_FROM_SOA((const float *)(const void *)bs_out, 3, &bs_back[0].rotation.x);
        CHECK(memcmp(bs_back, bl_layer_poses[0], 12 * sizeof *bs_back) == 0);
        pb_pose_from_soa_scalar((const float *)(const void *)bs_out2, 3, &bs_back[0].rotation.x);
        CHECK(memcmp(bs_back, bl_layer_poses[0], 12 * sizeof *bs_back) == 0);
        for (n = 1; n <= 9u; n++) {
            memset(bs_back, 0x5A, 12 * sizeof *bs_back);
            CHECK_OK(plumbob_pose_to_soa(bl_layer_poses[0], n, bs_out, plumbob_pose_soa_blocks(n)));
            CHECK_OK(plumbob_pose_from_soa(bs_out, n, bs_back, n));
            CHECK(memcmp(bs_back, bl_layer_poses[0], n * sizeof *bs_back) == 0);
            CHECK_EQ(((const unsigned char *)(const void *)&bs_back[n])[0], 0x5A);
        }
    }
    memset(bs_out2, 0xA5, BS_BLOCKS * sizeof *bs_out2);
    CHECK_EQ(plumbob_pose_to_soa(NULL, 5, bs_out2, 2), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_pose_to_soa(bl_rest, 5, NULL, 2), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_pose_to_soa(bl_rest, 5, bs_out2, 1), PLUMBOB_ERR_OUTPUT_TOO_SMALL);
    CHECK_EQ(plumbob_pose_from_soa(NULL, 5, bs_back, 5), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_pose_from_soa(bs_out, 5, NULL, 5), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_pose_from_soa(bs_out, 5, bs_back, 4), PLUMBOB_ERR_OUTPUT_TOO_SMALL);
    CHECK_OK(plumbob_pose_to_soa(NULL, 0, NULL, 0));
    CHECK_OK(plumbob_pose_from_soa(NULL, 0, NULL, 0));
    {
        const unsigned char *o = (const unsigned char *)bs_out2;
        size_t i;
        int same = 1;
        for (i = 0; i < BS_BLOCKS * sizeof *bs_out2; i++) same &= o[i] == 0xA5;
        CHECK(same);
    }
}

void test_blend_soa_errors(void) {
    plumbob_blend_layer layers[BL_LAYERS];
    plumbob_blend_layer_soa soa[BL_LAYERS];
    bl_build(7u, layers);
    bs_convert(layers, BL_BONES, soa);
    memset(bs_out, 0xA5, BS_BLOCKS * sizeof *bs_out);
    CHECK_EQ(plumbob_pose_blend_soa(NULL, 1, bs_rest, BL_BONES, 0.1f, bs_out, BS_BLOCKS), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_pose_blend_soa(soa, 2, NULL, BL_BONES, 0.1f, bs_out, BS_BLOCKS), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_pose_blend_soa(soa, 2, bs_rest, BL_BONES, 0.1f, NULL, BS_BLOCKS), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_pose_blend_soa(soa, 2, bs_rest, BL_BONES, 0.0f, bs_out, BS_BLOCKS), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_pose_blend_soa(soa, 2, bs_rest, BL_BONES, 1.5f, bs_out, BS_BLOCKS), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_pose_blend_soa(soa, 2, bs_rest, BL_BONES, bl_nan(), bs_out, BS_BLOCKS),
             PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_pose_blend_soa(soa, 2, bs_rest, BL_BONES, 0.1f, bs_layer[1], BS_BLOCKS),
             PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_pose_blend_soa(soa, 2, bs_rest, BL_BONES, 0.1f, bs_rest, BS_BLOCKS), PLUMBOB_ERR_INVALID_ARGUMENT);
    soa[1].poses = NULL;
    CHECK_EQ(plumbob_pose_blend_soa(soa, 2, bs_rest, BL_BONES, 0.1f, bs_out, BS_BLOCKS), PLUMBOB_ERR_INVALID_ARGUMENT);
    soa[1].poses = bs_layer[1];
    CHECK_EQ(plumbob_pose_blend_soa(soa, 2, bs_rest, BL_BONES, 0.1f, bs_out, BS_BLOCKS - 1),
             PLUMBOB_ERR_OUTPUT_TOO_SMALL);
    {
        const unsigned char *o = (const unsigned char *)bs_out;
        size_t i;
        int same = 1;
        for (i = 0; i < BS_BLOCKS * sizeof *bs_out; i++) same &= o[i] == 0xA5;
        CHECK(same);
    }
    CHECK_OK(plumbob_pose_blend_soa(NULL, 0, NULL, 0, 0.1f, NULL, 0));
    /* huge finite inputs, NaN and out-of-range weights and masks: finite out */
    bs_layer[0][0].tx[0] = 3e38f;
    bs_layer[1][0].tx[0] = 3e38f;
    soa[0].weight = bl_nan();
    soa[1].weight = 7.0f;
    soa[1].bone_weights = NULL;
    CHECK_OK(plumbob_pose_blend_soa(soa, 2, bs_rest, BL_BONES, 0.1f, bs_out, BS_BLOCKS));
    CHECK(bs_out[0].tx[0] <= 3.4028235e38f && bs_out[0].tx[0] >= 1e38f);
}

/* The blocked additive apply: the AoS job's bits bone for bone (with and
 * without a mask, weights past the ends, in place), the port's kernel the
 * scalar reference's, errors. */
void test_additive_soa(void) {
    plumbob_blend_layer layers[BL_LAYERS];
    plumbob_blend_layer_soa soa[BL_LAYERS];
    static const float weights[4] = {0.7f, 1.0f, 0.0f, 3.0f};
    uint32_t c, bones = BL_BONES - 2, blocks = plumbob_pose_soa_blocks(BL_BONES - 2);
    bl_build(0xADD5u, layers);
    bl_layer_poses[1][4].rotation.w = -bl_layer_poses[1][4].rotation.w; /* a delta on the far arc */
    bl_layer_poses[1][5].rotation.x = 1e-30f; /* degenerate and tiny rotations */
    bl_layer_poses[1][5].rotation.y = bl_layer_poses[1][5].rotation.z = bl_layer_poses[1][5].rotation.w = 0.0f;
    bl_layer_poses[1][6].rotation.x = bl_layer_poses[1][6].rotation.y = 0.0f;
    bl_layer_poses[1][6].rotation.z = bl_layer_poses[1][6].rotation.w = 0.0f;
    bl_layer_poses[1][7].translation.x = 3e38f;
    bl_layer_poses[0][7].translation.x = 3e38f;
    bs_convert(layers, bones, soa);
    for (c = 0; c < 8; c++) {
        const float *mask = c & 1 ? bl_mask[1] : NULL;
        int same;
        CHECK_OK(plumbob_pose_additive_apply(bl_layer_poses[0], bl_layer_poses[1], weights[c / 2], mask, bones, bl_out,
                                             bones));
        CHECK_OK(plumbob_pose_additive_apply_soa(bs_layer[0], bs_layer[1], weights[c / 2], mask, bones, bs_out, blocks));
        CHECK_OK(plumbob_pose_from_soa(bs_out, bones, bs_back, bones));
        same = memcmp(bs_back, bl_out, bones * sizeof *bl_out) == 0;
        CHECK(same);
        pb_additive_soa_scalar(bs_layer[0], bs_layer[1], pb_weight01(weights[c / 2]), mask, bones, bs_out2);
        CHECK(memcmp(bs_out, bs_out2, blocks * sizeof *bs_out) == 0);
    }
    /* in place on the base */
    CHECK_OK(plumbob_pose_additive_apply_soa(bs_layer[2], bs_layer[1], 0.5f, bl_mask[1], bones, bs_out, blocks));
    CHECK_OK(plumbob_pose_additive_apply_soa(bs_layer[2], bs_layer[1], 0.5f, bl_mask[1], bones, bs_layer[2], blocks));
    CHECK(memcmp(bs_out, bs_layer[2], blocks * sizeof *bs_out) == 0);
    memset(bs_out2, 0xA5, BS_BLOCKS * sizeof *bs_out2);
    CHECK_EQ(plumbob_pose_additive_apply_soa(NULL, bs_layer[1], 1.0f, NULL, bones, bs_out2, blocks), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_pose_additive_apply_soa(bs_layer[0], NULL, 1.0f, NULL, bones, bs_out2, blocks), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_pose_additive_apply_soa(bs_layer[0], bs_layer[1], 1.0f, NULL, bones, NULL, blocks), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_pose_additive_apply_soa(bs_layer[0], bs_layer[1], 1.0f, NULL, bones, bs_layer[1], blocks),
             PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_pose_additive_apply_soa(bs_layer[0], bs_layer[1], 1.0f, NULL, bones, bs_out2, blocks - 1),
             PLUMBOB_ERR_OUTPUT_TOO_SMALL);
    CHECK_OK(plumbob_pose_additive_apply_soa(NULL, NULL, 1.0f, NULL, 0, NULL, 0));
    {
        const unsigned char *o = (const unsigned char *)bs_out2;
        size_t i;
        int untouched = 1;
        for (i = 0; i < BS_BLOCKS * sizeof *bs_out2; i++) untouched &= o[i] == 0xA5;
        CHECK(untouched);
    }
}
