/* libFuzzer target for the pose jobs (runtime.h Chapter 19b): the input's
 * first bytes choose the bone count, the layer count, each layer's weight
 * and whether it has a mask, the threshold, whether values may be hostile
 * (NaN, infinities, FLT_MAX, subnormals) and an additive weight; the rest
 * seed the poses, masks and mirror table.  Every job must refuse what does
 * not fit with a code, stay inside its output (guard poses after an exactly
 * sized span), give finite outputs for finite inputs, the blend's port
 * kernel the scalar reference's bits, the blocked blend the AoS blend's
 * bits (its port the scalar reference's, its padding finite), the
 * blocked additive apply likewise, the mirror the scalar reference's
 * bits and mirroring twice the input, and local -> model over blocks the
 * AoS job's result code and bits (its port the scalar reference's) on a
 * random tree, whatever the padding lanes hold. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "plumbob.h"
#include "kernels.h"

#define MAXB 160
#define MAXL 5
#define GUARD 4

static uint32_t next(uint32_t *s) {
    uint32_t x = *s;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return *s = x ? x : 0x9E3779B9u;
}

static float value(uint32_t *s, int hostile) {
    static const uint32_t bad[] = {0x7FC00000u, 0x7F800000u, 0xFF800000u, 0x7F7FFFFFu,
                                   0x00000001u, 0x80000000u, 0x4E6E6B28u, 0xFF7FFFFFu};
    static const uint32_t big[] = {0x7F7FFFFFu, 0xFF7FFFFFu, 0x00000001u, 0x80000000u, 0x3F800000u, 0x0u};
    uint32_t r = next(s), bits;
    float f;
    if (r % 8 == 0) {
        bits = hostile ? bad[(r >> 8) % 8] : big[(r >> 8) % 6]; /* finite extremes when not hostile */
        memcpy(&f, &bits, sizeof f);
        return f;
    }
    return (float)((int32_t)(r >> 8) % 4001 - 2000) / 1000.0f;
}

static int finite(float x) { return x - x == 0.0f; }

static int poses_finite(const plumbob_bone_pose *p, uint32_t n) {
    uint32_t i, k;
    for (i = 0; i < n; i++)
        for (k = 0; k < 10; k++)
            if (!finite((&p[i].rotation.x)[k])) return 0;
    return 1;
}

static int same_bits(const float *a, const float *b, size_t n) {
    size_t i;
    for (i = 0; i < n; i++) {
        if (a[i] != a[i] && b[i] != b[i]) continue;
        if (memcmp(&a[i], &b[i], sizeof a[i]) != 0) return 0;
    }
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static plumbob_bone_pose lp[MAXL][MAXB], rest[MAXB], out[MAXB + GUARD], out2[MAXB + GUARD], delta[MAXB];
    static float mask[MAXL][MAXB], acc_s[10 * MAXB], acc_p[10 * MAXB], ws_s[MAXB], ws_p[MAXB];
    static int32_t opp[MAXB];
    static plumbob_pose_soa sl[MAXL][MAXB / 4], srest[MAXB / 4], sout[MAXB / 4 + GUARD], sout2[MAXB / 4];
    static plumbob_bone_pose back[MAXB];
    static plumbob_mat34 maos[MAXB], msoa[MAXB + GUARD], mref[MAXB];
    static int32_t parent[MAXB];
    plumbob_skeleton sk;
    plumbob_result ra;
    plumbob_blend_layer_soa slayers[MAXL];
    uint32_t blocks;
    plumbob_blend_layer layers[MAXL];
    uint32_t bones, nl, k, b, st = 1, i;
    int hostile;
    float threshold, aw;
    plumbob_result r;
    if (size < 8) return 0;
    bones = data[0] % (MAXB + 1);
    nl = data[1] % (MAXL + 1);
    hostile = data[2] & 1;
    threshold = (float)(data[3] % 12) / 10.0f; /* 0 (refused) .. 1.1 (refused) */
    aw = (float)((int)data[4] - 64) / 64.0f;   /* -1 .. 3: clamped */
    for (i = 5; i < size; i++) st = (st ^ data[i]) * 0x01000193u;
    if (!st) st = 1;
    for (k = 0; k < MAXL; k++) {
        for (b = 0; b < bones; b++) {
            float *f = &lp[k][b].rotation.x;
            for (i = 0; i < 10; i++) f[i] = value(&st, hostile);
            mask[k][b] = value(&st, hostile);
        }
        layers[k].poses = lp[k];
        layers[k].weight = value(&st, hostile);
        layers[k].bone_weights = (data[5 + k % 3] >> k) & 1 ? mask[k] : NULL;
    }
    for (b = 0; b < bones; b++) {
        float *f = &rest[b].rotation.x;
        for (i = 0; i < 10; i++) f[i] = value(&st, hostile);
        opp[b] = (int32_t)(next(&st) % (bones + 1)); /* sometimes out of range */
    }
    memset(out, 0x5A, sizeof out);
    r = plumbob_pose_blend(layers, nl, rest, bones, threshold, out, bones);
    if (!(threshold > 0.0f && threshold <= 1.0f)) {
        if (bones && r != PLUMBOB_ERR_INVALID_ARGUMENT) abort();
    } else if (r != PLUMBOB_OK) {
        abort();
    } else if (!hostile && !poses_finite(out, bones)) {
        abort();
    }
    for (i = 0; i < GUARD * sizeof(plumbob_bone_pose); i++)
        if (((unsigned char *)&out[bones])[i] != 0x5A) abort();
    /* the blocked blend: the AoS job's code and bits, its port the scalar
     * reference's, padding bones finite, nothing past its blocks */
    blocks = plumbob_pose_soa_blocks(bones);
    for (k = 0; k < MAXL; k++) {
        if (plumbob_pose_to_soa(lp[k], bones, sl[k], blocks) != PLUMBOB_OK) abort();
        slayers[k].poses = sl[k];
        slayers[k].weight = layers[k].weight;
        slayers[k].bone_weights = layers[k].bone_weights;
    }
    if (plumbob_pose_to_soa(rest, bones, srest, blocks) != PLUMBOB_OK) abort();
    memset(sout, 0x5A, sizeof sout);
    if (bones && plumbob_pose_blend_soa(slayers, nl, srest, bones, threshold, sout, blocks - 1) !=
                     (threshold > 0.0f && threshold <= 1.0f ? PLUMBOB_ERR_OUTPUT_TOO_SMALL : PLUMBOB_ERR_INVALID_ARGUMENT))
        abort();
    if (plumbob_pose_blend_soa(slayers, nl, srest, bones, threshold, sout, blocks) != r) abort();
    for (i = 0; i < GUARD * sizeof(plumbob_pose_soa); i++)
        if (((unsigned char *)&sout[blocks])[i] != 0x5A) abort();
    if (r == PLUMBOB_OK && bones) {
        if (plumbob_pose_from_soa(sout, bones, back, bones) != PLUMBOB_OK) abort();
        if (!same_bits(&back[0].rotation.x, &out[0].rotation.x, 10u * bones)) abort();
        for (i = 0; !hostile && i < 40u * blocks; i++)
            if (!finite(((const float *)sout)[i])) abort();
        pb_blend_soa_scalar(slayers, nl, srest, bones, threshold, sout2);
        if (!same_bits((const float *)sout2, (const float *)sout, 40u * blocks)) abort();
    }
    /* the port's layer kernel against the scalar one */
    for (k = 0; k < nl; k++) {
        float lw = pb_weight01(layers[k].weight);
        pb_blend_layer_scalar(&lp[k][0].rotation.x, &lp[0][0].rotation.x, lw, layers[k].bone_weights, bones, k == 0,
                              acc_s, ws_s);
        PB_BLEND_LAYER(&lp[k][0].rotation.x, &lp[0][0].rotation.x, lw, layers[k].bone_weights, bones, k == 0, acc_p,
                       ws_p);
    }
    if (nl && (!same_bits(acc_s, acc_p, 10u * bones) || !same_bits(ws_s, ws_p, bones))) abort();
    if (nl && threshold > 0.0f && threshold <= 1.0f) { /* and the end of the blend */
        pb_blend_finish_scalar(acc_s, ws_s, &rest[0].rotation.x, &lp[0][0].rotation.x, threshold, bones);
        PB_BLEND_FINISH(acc_p, ws_p, &rest[0].rotation.x, &lp[0][0].rotation.x, threshold, bones);
        if (!same_bits(acc_s, acc_p, 10u * bones)) abort();
    }
    /* additive: delta of layer 1 against layer 0, applied on the rest pose */
    if (plumbob_pose_additive_delta(lp[0], lp[1], bones, delta, bones) != PLUMBOB_OK) abort();
    if (!hostile && !poses_finite(delta, bones)) abort();
    if (plumbob_pose_additive_apply(rest, delta, aw, layers[2].bone_weights, bones, out, bones) != PLUMBOB_OK) abort();
    if (!hostile && !poses_finite(out, bones)) abort();
    /* the blocked additive apply: the AoS job's bits, its port the scalar reference's */
    if (plumbob_pose_to_soa(delta, bones, sl[1], blocks) != PLUMBOB_OK) abort();
    if (plumbob_pose_additive_apply_soa(srest, sl[1], aw, layers[2].bone_weights, bones, sout, blocks) != PLUMBOB_OK)
        abort();
    if (plumbob_pose_from_soa(sout, bones, back, bones) != PLUMBOB_OK) abort();
    if (bones && !same_bits(&back[0].rotation.x, &out[0].rotation.x, 10u * bones)) abort();
    pb_additive_soa_scalar(srest, sl[1], pb_weight01(aw), layers[2].bone_weights, bones, sout2);
    if (!same_bits((const float *)sout2, (const float *)sout, 40u * blocks)) abort();
    /* mirror: refused when the table leaves the bones; else twice is the input */
    r = plumbob_pose_mirror(opp, lp[0], bones, out, bones);
    for (b = 0; b < bones; b++)
        if ((uint32_t)opp[b] >= bones) break;
    if (b < bones) {
        if (r != PLUMBOB_ERR_BAD_INDEX) abort();
    } else {
        if (r != PLUMBOB_OK) abort();
        /* the port's kernel (in the job) against the scalar reference */
        pb_pose_mirror_scalar(opp, &lp[0][0].rotation.x, bones, &out2[0].rotation.x);
        if (bones && !same_bits(&out2[0].rotation.x, &out[0].rotation.x, 10u * bones)) abort();
        for (b = 0; b < bones; b++) opp[opp[b]] = (int32_t)b; /* make it pair both ways where it can */
        for (k = 1; k;) { /* unpaired bones become their own, until every pair holds */
            k = 0;
            for (b = 0; b < bones; b++)
                if (opp[opp[b]] != (int32_t)b) {
                    opp[b] = (int32_t)b;
                    k = 1;
                }
        }
        for (b = 0; b < bones; b++)
            if (opp[opp[b]] != (int32_t)b) abort();
        if (plumbob_pose_mirror(opp, lp[0], bones, out, bones) != PLUMBOB_OK) abort();
        if (plumbob_pose_mirror(opp, out, bones, out2, bones) != PLUMBOB_OK) abort();
        if (bones && !same_bits(&out2[0].rotation.x, &lp[0][0].rotation.x, 10u * bones)) abort();
    }
    /* local -> model over blocks (layer 0's poses, still in sl[0]): parents
     * anywhere before each bone, one out of order now and then */
    for (b = 0; b < bones; b++) parent[b] = (int32_t)(next(&st) % (b + 1u)) - 1;
    if (bones > 1 && (data[6] & 0x80)) parent[next(&st) % bones] = (int32_t)bones - 1;
    if (bones % 4u) /* the padding lanes: anything */
        for (i = bones % 4u; i < 4; i++)
            for (k = 0; k < 10; k++) (&sl[0][blocks - 1].rx[0])[4 * k + i] = value(&st, 1);
    sk.bone_count = bones;
    sk.parent = parent;
    sk.rest = rest;
    sk.name_hash = NULL;
    sk.name = NULL;
    memset(msoa, 0x5A, sizeof msoa);
    ra = plumbob_skeleton_model(&sk, lp[0], maos, bones);
    if (bones && plumbob_skeleton_model_soa(&sk, sl[0], blocks - 1, msoa, bones) !=
                     (ra == PLUMBOB_OK ? PLUMBOB_ERR_INVALID_ARGUMENT : ra))
        abort();
    if (plumbob_skeleton_model_soa(&sk, sl[0], blocks, msoa, bones) != ra) abort();
    for (i = 0; i < GUARD * sizeof(plumbob_mat34); i++)
        if (((unsigned char *)&msoa[bones])[i] != 0x5A) abort();
    if (ra == PLUMBOB_OK && bones) {
        if (!same_bits(&maos[0].m[0][0], &msoa[0].m[0][0], 12u * bones)) abort();
        pb_skeleton_model_soa_scalar(parent, sl[0], bones, &mref[0].m[0][0]);
        if (!same_bits(&mref[0].m[0][0], &msoa[0].m[0][0], 12u * bones)) abort();
    }
    return 0;
}
