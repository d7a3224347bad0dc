/* Skeletons: validation, rest-pose fill, and local -> model against a
 * double-precision reference on a random tree with rotations, translations
 * and non-uniform scales. */
#include <stdlib.h>
#include <string.h>
#include "test.h"
#include "kernels.h"

#define SK_BONES 40

typedef struct { double m[3][4]; } dmat;

static dmat d_from_pose(const plumbob_bone_pose *p) {
    double x = p->rotation.x, y = p->rotation.y, z = p->rotation.z, w = p->rotation.w;
    double s[3] = {p->scale.x, p->scale.y, p->scale.z};
    double r[3][3] = {{1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)},
                      {2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)},
                      {2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)}};
    dmat m;
    int i, j;
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++) m.m[i][j] = r[i][j] * s[j];
    m.m[0][3] = p->translation.x;
    m.m[1][3] = p->translation.y;
    m.m[2][3] = p->translation.z;
    return m;
}

static dmat d_mul(const dmat *a, const dmat *b) {
    dmat r;
    int i, j;
    for (i = 0; i < 3; i++) {
        for (j = 0; j < 4; j++)
            r.m[i][j] = a->m[i][0] * b->m[0][j] + a->m[i][1] * b->m[1][j] + a->m[i][2] * b->m[2][j];
        r.m[i][3] += a->m[i][3];
    }
    return r;
}

static float sk_unit(uint32_t *st) { return (float)(t_rand(st) % 20001u) / 10000.0f - 1.0f; }

static void sk_build(int32_t *parent, plumbob_bone_pose *rest, uint32_t *hash, uint32_t *st) {
    uint32_t i;
    for (i = 0; i < SK_BONES; i++) {
        plumbob_quat q;
        parent[i] = i == 0 ? -1 : (int32_t)(t_rand(st) % i);
        q.x = sk_unit(st); q.y = sk_unit(st); q.z = sk_unit(st); q.w = sk_unit(st) + 1.5f;
        rest[i].rotation = plumbob_quat_normalize(q);
        rest[i].translation.x = sk_unit(st) * 0.5f;
        rest[i].translation.y = sk_unit(st) * 0.5f + 0.25f;
        rest[i].translation.z = sk_unit(st) * 0.5f;
        rest[i].scale.x = 1.0f + sk_unit(st) * 0.1f;
        rest[i].scale.y = 1.0f;
        rest[i].scale.z = 1.0f + sk_unit(st) * 0.05f;
        hash[i] = 0x1000u + i * 7u;
    }
}

void test_skeleton_model_matches_reference(void) {
    static int32_t parent[SK_BONES];
    static plumbob_bone_pose rest[SK_BONES], posed[SK_BONES];
    static uint32_t hash[SK_BONES];
    static plumbob_mat34 model[SK_BONES];
    static dmat ref[SK_BONES];
    plumbob_skeleton s;
    uint32_t st = 0x5EED5u, i;
    int pass, r, c;
    sk_build(parent, rest, hash, &st);
    s.bone_count = SK_BONES;
    s.parent = parent;
    s.rest = rest;
    s.name_hash = hash;
    s.name = NULL;
    CHECK_OK(plumbob_skeleton_validate(&s));
    CHECK_EQ(plumbob_skeleton_find(&s, 0x1000u + 13u * 7u), 13);
    CHECK_EQ(plumbob_skeleton_find(&s, 0x1000u), 0); /* the first bone is found too */
    CHECK_EQ(plumbob_skeleton_find(&s, 0xDEADu), (uint64_t)(int64_t)-1);
    for (pass = 0; pass < 2; pass++) {
        /* pass 0: the rest pose (local NULL); pass 1: the rest fill, then half the
         * bones rotated the way a sampler would write them */
        const plumbob_bone_pose *local = NULL;
        if (pass == 1) {
            CHECK_OK(plumbob_skeleton_rest_pose(&s, 0, SK_BONES, posed, (uint32_t)(sizeof posed / sizeof posed[0])));
            for (i = 0; i < SK_BONES; i += 2) {
                plumbob_quat q = {sk_unit(&st), sk_unit(&st), sk_unit(&st), 1.0f};
                posed[i].rotation = plumbob_quat_normalize(q);
            }
            /* the rest fill is the whole rest pose: every bone's translation and
             * scale, and the rotation of the bones not rotated above */
            for (i = 0; i < SK_BONES; i++) {
                CHECK(posed[i].translation.x == rest[i].translation.x && posed[i].translation.y == rest[i].translation.y &&
                      posed[i].translation.z == rest[i].translation.z);
                CHECK(posed[i].scale.x == rest[i].scale.x && posed[i].scale.y == rest[i].scale.y &&
                      posed[i].scale.z == rest[i].scale.z);
                if (i % 2)
                    CHECK(posed[i].rotation.x == rest[i].rotation.x && posed[i].rotation.y == rest[i].rotation.y &&
                          posed[i].rotation.z == rest[i].rotation.z && posed[i].rotation.w == rest[i].rotation.w);
            }
            local = posed;
        }
        CHECK_OK(plumbob_skeleton_model(&s, local, model, (uint32_t)(sizeof model / sizeof model[0])));
        for (i = 0; i < SK_BONES; i++) {
            dmat m = d_from_pose(local ? &local[i] : &rest[i]);
            ref[i] = parent[i] < 0 ? m : d_mul(&ref[parent[i]], &m);
            for (r = 0; r < 3; r++)
                for (c = 0; c < 4; c++) {
                    CHECK_NEAR(model[i].m[r][c], ref[i].m[r][c], 2e-5);
                    t_digest_f32(model[i].m[r][c]);
                }
        }
    }
}

void test_skeleton_errors(void) {
    int32_t parent[3] = {-1, 0, 1};
    plumbob_bone_pose rest[3], out[3];
    plumbob_mat34 model[3];
    plumbob_skeleton s = {3, parent, rest, NULL, NULL};
    uint32_t i;
    for (i = 0; i < 3; i++) {
        rest[i].rotation = plumbob_quat_identity();
        rest[i].translation.x = 0.0f; rest[i].translation.y = (float)i; rest[i].translation.z = 0.0f;
        rest[i].scale.x = rest[i].scale.y = rest[i].scale.z = 1.0f;
    }
    CHECK_OK(plumbob_skeleton_model(&s, NULL, model, (uint32_t)(sizeof model / sizeof model[0])));
    CHECK_NEAR(model[2].m[1][3], 3.0, 0.0); /* 0 + 1 + 2 down the chain */
    CHECK_EQ(plumbob_skeleton_find(&s, 5), (uint64_t)(int64_t)-1); /* no hashes */
    parent[2] = 2; /* its own parent */
    CHECK_EQ(plumbob_skeleton_validate(&s), PLUMBOB_ERR_BAD_INDEX);
    CHECK_EQ(plumbob_skeleton_model(&s, NULL, model, (uint32_t)(sizeof model / sizeof model[0])), PLUMBOB_ERR_BAD_INDEX);
    parent[2] = -2;
    CHECK_EQ(plumbob_skeleton_validate(&s), PLUMBOB_ERR_BAD_INDEX);
    parent[2] = 1;
    CHECK_EQ(plumbob_skeleton_validate(NULL), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_skeleton_model(&s, NULL, NULL, 0), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_skeleton_rest_pose(&s, 2, 2, out, (uint32_t)(sizeof out / sizeof out[0])), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_skeleton_rest_pose(&s, 4, 0, out, (uint32_t)(sizeof out / sizeof out[0])), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_OK(plumbob_skeleton_rest_pose(&s, 1, 2, out, (uint32_t)(sizeof out / sizeof out[0])));
    CHECK(out[2].translation.y == 2.0f);
    {   /* the output spans: one short is output_too_small, nothing written
         * (the sentinel past the span too); the exact size works */
        plumbob_bone_pose p[4];
        plumbob_mat34 m[4];
        const unsigned char *pb = (const unsigned char *)p, *mb = (const unsigned char *)m;
        size_t k;
        memset(p, 0x5A, sizeof p);
        memset(m, 0x5A, sizeof m);
        CHECK_EQ(plumbob_skeleton_rest_pose(&s, 0, 3, p, 2), PLUMBOB_ERR_OUTPUT_TOO_SMALL);
        CHECK_EQ(plumbob_skeleton_rest_pose(&s, 1, 2, p, 2), PLUMBOB_ERR_OUTPUT_TOO_SMALL);
        CHECK_EQ(plumbob_skeleton_model(&s, NULL, m, 2), PLUMBOB_ERR_OUTPUT_TOO_SMALL);
        CHECK_EQ(plumbob_skeleton_model(&s, p, m, 2), PLUMBOB_ERR_OUTPUT_TOO_SMALL);
        for (k = 0; k < sizeof p; k++) CHECK_EQ(pb[k], 0x5A);
        for (k = 0; k < sizeof m; k++) CHECK_EQ(mb[k], 0x5A);
        CHECK_OK(plumbob_skeleton_rest_pose(&s, 0, 3, p, 3));
        CHECK_OK(plumbob_skeleton_model(&s, p, m, 3));
        for (k = 3 * sizeof p[0]; k < sizeof p; k++) CHECK_EQ(pb[k], 0x5A);
        for (k = 3 * sizeof m[0]; k < sizeof m; k++) CHECK_EQ(mb[k], 0x5A);
        CHECK(m[2].m[1][3] == 3.0f);
    }
    {   /* model-space rotations: three bones each turned 90 degrees about z
         * (the root's quaternion twice its unit length) are 90, 180 and 270
         * degrees about z, by hand: (0, 0, s, c), (0, 0, 1, 0), (0, 0, c, -s)
         * with s = c = sqrt(1/2); one short is output_too_small, nothing
         * written */
        plumbob_bone_pose p[3];
        plumbob_quat q[4];
        const unsigned char *qb = (const unsigned char *)q;
        const float h = 0.70710678f;
        size_t k;
        for (k = 0; k < 3; k++) {
            p[k] = rest[k];
            p[k].rotation.x = 0.0f;
            p[k].rotation.y = 0.0f;
            p[k].rotation.z = k == 0 ? 2.0f * h : h;
            p[k].rotation.w = k == 0 ? 2.0f * h : h;
        }
        memset(q, 0x5A, sizeof q);
        CHECK_EQ(plumbob_skeleton_model_rotations(&s, p, q, 2), PLUMBOB_ERR_OUTPUT_TOO_SMALL);
        CHECK_EQ(plumbob_skeleton_model_rotations(&s, p, NULL, 3), PLUMBOB_ERR_INVALID_ARGUMENT);
        for (k = 0; k < sizeof q; k++) CHECK_EQ(qb[k], 0x5A);
        CHECK_OK(plumbob_skeleton_model_rotations(&s, p, q, 3));
        for (k = 3 * sizeof q[0]; k < sizeof q; k++) CHECK_EQ(qb[k], 0x5A);
        CHECK_NEAR(q[0].x, 0.0, 1e-6); CHECK_NEAR(q[0].y, 0.0, 1e-6); CHECK_NEAR(q[0].z, h, 1e-6); CHECK_NEAR(q[0].w, h, 1e-6);
        CHECK_NEAR(q[1].x, 0.0, 1e-6); CHECK_NEAR(q[1].y, 0.0, 1e-6); CHECK_NEAR(q[1].z, 1.0, 1e-6); CHECK_NEAR(q[1].w, 0.0, 1e-6);
        CHECK_NEAR(q[2].x, 0.0, 1e-6); CHECK_NEAR(q[2].y, 0.0, 1e-6); CHECK_NEAR(q[2].z, h, 1e-6); CHECK_NEAR(q[2].w, -h, 1e-6);
    }
    s.rest = NULL;
    CHECK_EQ(plumbob_skeleton_validate(&s), PLUMBOB_ERR_INVALID_ARGUMENT);
}

/* The port's local -> model kernel against the scalar reference: the same
 * bits (memcmp) on a 500-bone tree with unnormalized rotations, non-uniform
 * and negative scales and signed zeros, and both within float rounding of
 * the double-precision walk (so the test can fail on a scalar target too). */
#define SKP_BONES 500
void test_skeleton_port_matches_scalar(void) {
    static int32_t parent[SKP_BONES];
    static plumbob_bone_pose pose[SKP_BONES];
    static plumbob_mat34 ref[SKP_BONES], port[SKP_BONES];
    static dmat d[SKP_BONES];
    uint32_t st = 0xB0B0u, i;
    int r, c;
    double worst = 0;
    for (i = 0; i < SKP_BONES; i++) {
        plumbob_bone_pose *p = &pose[i];
        parent[i] = i == 0 ? -1 : (i % 37u == 0 ? -1 : (int32_t)(t_rand(&st) % i));
        p->rotation.x = sk_unit(&st); p->rotation.y = sk_unit(&st);
        p->rotation.z = sk_unit(&st); p->rotation.w = sk_unit(&st);
        if (i % 3u) p->rotation = plumbob_quat_normalize(p->rotation); /* every third one as sampled: unnormalized */
        p->translation.x = i % 5u == 0 ? -0.0f : sk_unit(&st);
        p->translation.y = i % 7u == 0 ? 0.0f : sk_unit(&st);
        p->translation.z = i % 11u == 0 ? -0.0f : sk_unit(&st) * 0.25f;
        p->scale.x = 1.0f + sk_unit(&st) * 0.1f;
        p->scale.y = i % 13u == 0 ? -1.0f : 1.0f;
        p->scale.z = 1.0f;
        if (i % 17u == 0) { /* identity rotation on a -0 translation */
            p->rotation = plumbob_quat_identity();
            p->translation.x = p->translation.y = p->translation.z = -0.0f;
        }
    }
    pb_skeleton_model_scalar(parent, &pose[0].rotation.x, SKP_BONES, &ref[0].m[0][0]);
    PB_SKELETON_MODEL(parent, &pose[0].rotation.x, SKP_BONES, &port[0].m[0][0]);
    CHECK(memcmp(ref, port, sizeof ref) == 0);
    for (i = 0; i < SKP_BONES; i++) {
        /* the reference in double, depth limited so float error stays small: compare
           only bones whose chain is short, where 1e-4 is generous */
        dmat m = d_from_pose(&pose[i]);
        uint32_t depth = 0;
        int32_t q = parent[i];
        while (q >= 0) { depth++; q = parent[q]; }
        d[i] = parent[i] < 0 ? m : d_mul(&d[parent[i]], &m);
        for (r = 0; r < 3; r++)
            for (c = 0; c < 4; c++) {
                double e = ref[i].m[r][c] - d[i].m[r][c];
                if (e < 0) e = -e;
                if (depth <= 6 && e > worst) worst = e;
                t_digest_f32(port[i].m[r][c]);
            }
    }
    CHECK(worst < 1e-3);
    CHECK(worst > 0.0); /* float rounding shows: the comparison is real */
    /* chains (the SIMD kernel keeps a parent that is the bone just before in
       registers) at every length of a last, partial group of four, and no
       write past the bones */
    for (i = 0; i < SKP_BONES; i++) parent[i] = i == 0 ? -1 : (i % 5u == 0 ? (int32_t)(i / 2u) : (int32_t)(i - 1u));
    pb_skeleton_model_scalar(parent, &pose[0].rotation.x, SKP_BONES, &ref[0].m[0][0]);
    PB_SKELETON_MODEL(parent, &pose[0].rotation.x, SKP_BONES, &port[0].m[0][0]);
    CHECK(memcmp(ref, port, sizeof ref) == 0);
    for (c = 1; c <= 9; c++) {
        const unsigned char *pb = (const unsigned char *)&port[c];
        size_t k;
        memset(port, 0x5A, sizeof port);
        pb_skeleton_model_scalar(parent, &pose[7].rotation.x, (uint32_t)c, &ref[0].m[0][0]);
        PB_SKELETON_MODEL(parent, &pose[7].rotation.x, (uint32_t)c, &port[0].m[0][0]);
        CHECK(memcmp(ref, port, sizeof port[0] * (size_t)c) == 0);
        for (k = 0; k < sizeof port[0]; k++) CHECK_EQ(pb[k], 0x5A);
    }
}

/* --- The blocked job (plumbob_skeleton_model_soa) -------------------------- */

/* n random poses (unit rotations, scales near 1, signed zeros now and then)
 * on a rig whose parents follow mode: 0 any earlier bone, 1 a chain (the
 * bone just before), 2 a mix with a root every 7 bones. */
static void sks_rig(uint32_t n, int mode, uint32_t *st, int32_t *parent, plumbob_bone_pose *pose) {
    uint32_t i;
    for (i = 0; i < n; i++) {
        plumbob_bone_pose *p = &pose[i];
        if (i == 0) parent[i] = -1;
        else if (mode == 0) parent[i] = (int32_t)(t_rand(st) % i);
        else if (mode == 1) parent[i] = (int32_t)(i - 1u);
        else parent[i] = i % 7u == 0 ? -1 : (i % 3u ? (int32_t)(i - 1u) : (int32_t)(t_rand(st) % i));
        p->rotation.x = sk_unit(st); p->rotation.y = sk_unit(st);
        p->rotation.z = sk_unit(st); p->rotation.w = sk_unit(st) + 0.5f;
        p->rotation = plumbob_quat_normalize(p->rotation);
        p->translation.x = i % 5u == 0 ? -0.0f : sk_unit(st) * 0.3f;
        p->translation.y = sk_unit(st) * 0.3f + 0.1f;
        p->translation.z = i % 6u == 0 ? 0.0f : sk_unit(st) * 0.3f;
        p->scale.x = 1.0f + sk_unit(st) * 0.1f;
        p->scale.y = i % 11u == 0 ? -1.0f : 1.0f;
        p->scale.z = 1.0f + sk_unit(st) * 0.05f;
    }
}

/* The padding lanes of the last block: values no model may show (NaN, huge). */
static void sks_spoil_padding(plumbob_pose_soa *blocks, uint32_t n) {
    plumbob_pose_soa *b = &blocks[(n - 1u) / 4u];
    uint32_t l, nan_bits = 0x7FC00000u;
    float nan;
    memcpy(&nan, &nan_bits, sizeof nan);
    for (l = n % 4u ? n % 4u : 4u; l < 4u; l++) {
        b->rx[l] = nan; b->ry[l] = 1e30f; b->rz[l] = nan; b->rw[l] = -1e30f;
        b->tx[l] = nan; b->ty[l] = 3e38f; b->tz[l] = nan;
        b->sx[l] = nan; b->sy[l] = 0.0f; b->sz[l] = -3e38f;
    }
}

/* The blocked job gives the bone_pose job's bits (memcmp) and the port the
 * scalar reference's, on random rigs of 1..9 bones (every tail of a last
 * block) and 300, parents anywhere earlier, chains and mixes, with NaN and
 * huge padding lanes; nothing is written past bone_count; and the matrices
 * are within float rounding of a double-precision walk. */
#define SKS_MAX 300
void test_skeleton_model_soa_matches_aos(void) {
    unsigned char *w = t_work();
    int32_t *parent = (int32_t *)(void *)w;
    plumbob_bone_pose *pose = (plumbob_bone_pose *)(void *)(w + 4096);
    plumbob_pose_soa *blocks = (plumbob_pose_soa *)(void *)(pose + SKS_MAX);
    plumbob_mat34 *aos = (plumbob_mat34 *)(void *)(blocks + SKS_MAX / 4), *soa = aos + SKS_MAX + 1,
                  *ref = soa + SKS_MAX + 1;
    dmat *d = (dmat *)(void *)(ref + SKS_MAX + 1);
    static const uint32_t sizes[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 63, SKS_MAX};
    uint32_t st = 0x50A50Au, n, i, z;
    int mode, r, c;
    double worst = 0;
    for (mode = 0; mode < 3; mode++) {
        for (z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
            plumbob_skeleton s;
            const unsigned char *tail;
            size_t k;
            n = sizes[z];
            tail = (const unsigned char *)&soa[n];
            sks_rig(n, mode, &st, parent, pose);
            s.bone_count = n;
            s.parent = parent;
            s.rest = pose;
            s.name_hash = NULL;
            s.name = NULL;
            CHECK_OK(plumbob_pose_to_soa(pose, n, blocks, plumbob_pose_soa_blocks(n)));
            sks_spoil_padding(blocks, n);
            memset(soa, 0x5A, sizeof soa[0] * (n + 1u));
            CHECK_OK(plumbob_skeleton_model(&s, pose, aos, n));
            CHECK_OK(plumbob_skeleton_model_soa(&s, blocks, plumbob_pose_soa_blocks(n), soa, n + 1u));
            CHECK(memcmp(aos, soa, sizeof aos[0] * n) == 0);
            for (k = 0; k < sizeof soa[0]; k++) CHECK_EQ(tail[k], 0x5A);
            pb_skeleton_model_soa_scalar(parent, blocks, n, &ref[0].m[0][0]);
            CHECK(memcmp(ref, soa, sizeof ref[0] * n) == 0);
            for (i = 0; i < n; i++) { /* the double walk, on chains no deeper than 8 */
                dmat m = d_from_pose(&pose[i]);
                uint32_t depth = 0;
                int32_t q = parent[i];
                while (q >= 0) { depth++; q = parent[q]; }
                d[i] = parent[i] < 0 ? m : d_mul(&d[parent[i]], &m);
                if (depth > 8) continue;
                for (r = 0; r < 3; r++)
                    for (c = 0; c < 4; c++) {
                        double e = soa[i].m[r][c] - d[i].m[r][c];
                        if (e < 0) e = -e;
                        if (e > worst) worst = e;
                    }
            }
        }
    }
    CHECK(worst < 1e-5);
    CHECK(worst > 0.0); /* float rounding shows: the comparison is real */
}

/* The adult rig (257 bones) at rest and in random poses near it: blocked
 * and bone_pose jobs agree bit for bit, and model positions are within
 * 1e-5 m of the double-precision walk. */
void test_skeleton_model_soa_adult_rig(void) {
    size_t size, need;
    unsigned char *data = t_corpus_load("sims3/auRig.rig", &size), *mem;
    unsigned char *w = t_work();
    plumbob_bone_pose *pose = (plumbob_bone_pose *)(void *)w;
    plumbob_pose_soa *blocks = (plumbob_pose_soa *)(void *)(pose + 512);
    plumbob_mat34 *aos = (plumbob_mat34 *)(void *)(blocks + 128), *soa = aos + 512;
    dmat *d = (dmat *)(void *)(soa + 512);
    plumbob_rig rig;
    plumbob_arena arena;
    uint32_t st = 0xADu, b, round, n;
    double worst = 0;
    if (!data) T_SKIP(t_corpus_missing());
    CHECK_OK(plumbob_rig_measure(data, size, &need));
    mem = (unsigned char *)malloc(need);
    if (!mem) { free(data); T_SKIP("out of memory"); }
    plumbob_arena_init(&arena, mem, need);
    CHECK_OK(plumbob_rig_decode(data, size, &arena, &rig));
    n = rig.skeleton.bone_count;
    CHECK_EQ(n, 257);
    for (round = 0; round < 4; round++) {
        for (b = 0; b < n; b++) {
            pose[b] = rig.skeleton.rest[b];
            if (round) { /* a random pose near rest (round 0: the rest pose) */
                pose[b].rotation.x += sk_unit(&st) * 0.2f;
                pose[b].rotation.y += sk_unit(&st) * 0.2f;
                pose[b].rotation = plumbob_quat_normalize(pose[b].rotation);
                pose[b].translation.y += sk_unit(&st) * 0.01f;
                pose[b].scale.x = 1.0f + sk_unit(&st) * 0.05f;
            }
        }
        CHECK_OK(plumbob_pose_to_soa(pose, n, blocks, plumbob_pose_soa_blocks(n)));
        sks_spoil_padding(blocks, n);
        CHECK_OK(plumbob_skeleton_model(&rig.skeleton, pose, aos, n));
        CHECK_OK(plumbob_skeleton_model_soa(&rig.skeleton, blocks, plumbob_pose_soa_blocks(n), soa, n));
        CHECK(memcmp(aos, soa, sizeof aos[0] * n) == 0);
        for (b = 0; b < n; b++) {
            dmat m = d_from_pose(&pose[b]);
            int32_t p = rig.skeleton.parent[b];
            int r;
            d[b] = p < 0 ? m : d_mul(&d[p], &m);
            for (r = 0; r < 3; r++) {
                double e = soa[b].m[r][3] - d[b].m[r][3];
                if (e < 0) e = -e;
                if (e > worst) worst = e;
            }
        }
    }
    CHECK(worst < 1e-5);
    CHECK(worst > 0.0);
    free(mem);
    free(data);
}

/* Errors of the blocked job, each with nothing written. */
void test_skeleton_model_soa_errors(void) {
    int32_t parent[5] = {-1, 0, 1, 1, 3};
    plumbob_bone_pose pose[5];
    plumbob_pose_soa blocks[2];
    plumbob_mat34 model[6];
    const unsigned char *mb = (const unsigned char *)model;
    plumbob_skeleton s;
    uint32_t i;
    size_t k;
    for (i = 0; i < 5; i++) {
        pose[i].rotation = plumbob_quat_identity();
        pose[i].translation.x = pose[i].translation.y = pose[i].translation.z = 0.0f;
        pose[i].scale.x = pose[i].scale.y = pose[i].scale.z = 1.0f;
    }
    s.bone_count = 5;
    s.parent = parent;
    s.rest = pose;
    s.name_hash = NULL;
    s.name = NULL;
    CHECK_OK(plumbob_pose_to_soa(pose, 5, blocks, 2));
    memset(model, 0x5A, sizeof model);
    CHECK_EQ(plumbob_skeleton_model_soa(NULL, blocks, 2, model, 6), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_skeleton_model_soa(&s, blocks, 2, NULL, 6), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_skeleton_model_soa(&s, NULL, 2, model, 6), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_skeleton_model_soa(&s, blocks, 1, model, 6), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_skeleton_model_soa(&s, (const plumbob_pose_soa *)(void *)model, 2, model, 6),
             PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_skeleton_model_soa(&s, blocks, 2, model, 4), PLUMBOB_ERR_OUTPUT_TOO_SMALL);
    parent[3] = 3; /* its own parent */
    CHECK_EQ(plumbob_skeleton_model_soa(&s, blocks, 2, model, 6), PLUMBOB_ERR_BAD_INDEX);
    parent[3] = -2;
    CHECK_EQ(plumbob_skeleton_model_soa(&s, blocks, 2, model, 6), PLUMBOB_ERR_BAD_INDEX);
    parent[3] = INT32_MIN;
    CHECK_EQ(plumbob_skeleton_model_soa(&s, blocks, 2, model, 6), PLUMBOB_ERR_BAD_INDEX);
    parent[3] = 1;
    parent[4] = 4; /* past the validation's steps of four bones */
    CHECK_EQ(plumbob_skeleton_model_soa(&s, blocks, 2, model, 6), PLUMBOB_ERR_BAD_INDEX);
    CHECK_EQ(plumbob_skeleton_model(&s, pose, model, 6), PLUMBOB_ERR_BAD_INDEX);
    parent[4] = -3;
    CHECK_EQ(plumbob_skeleton_model_soa(&s, blocks, 2, model, 6), PLUMBOB_ERR_BAD_INDEX);
    parent[4] = 3;
    s.parent = NULL;
    CHECK_EQ(plumbob_skeleton_model_soa(&s, blocks, 2, model, 6), PLUMBOB_ERR_INVALID_ARGUMENT);
    s.parent = parent;
    for (k = 0; k < sizeof model; k++) CHECK_EQ(mb[k], 0x5A);
    s.bone_count = 0; /* no bones: nothing to read, nothing written */
    CHECK_OK(plumbob_skeleton_model_soa(&s, NULL, 0, model, 0));
    for (k = 0; k < sizeof model; k++) CHECK_EQ(mb[k], 0x5A);
    s.bone_count = 5; /* then it runs: identity poses give identity matrices */
    CHECK_OK(plumbob_skeleton_model_soa(&s, blocks, 2, model, 5));
    for (i = 0; i < 5; i++) {
        int r, c;
        for (r = 0; r < 3; r++)
            for (c = 0; c < 4; c++) CHECK(model[i].m[r][c] == (r == c ? 1.0f : 0.0f));
    }
    for (k = 5 * sizeof model[0]; k < sizeof model; k++) CHECK_EQ(mb[k], 0x5A);
}
