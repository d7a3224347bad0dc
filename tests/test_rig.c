/* Sims 3 rigs: rigs made by our writer (version 4 with every field and IK
 * chains, version 3 with hundreds of bones listed children first), the
 * skeleton view and its reordering, malformed and Granny inputs,
 * truncation and bit-flip sweeps, the three real rigs, and a clip posed on
 * a rig against a double-precision reference. */
#include <stdlib.h>
#include <string.h>
#include "test.h"

#define RIG_MAX 400

typedef struct { double m[3][4]; } rmat;

static rmat r_from(double tx, double ty, double tz, double qx, double qy, double qz, double qw, double sx,
                   double sy, double sz) {
    double r[3][3] = {{1 - 2 * (qy * qy + qz * qz), 2 * (qx * qy - qw * qz), 2 * (qx * qz + qw * qy)},
                      {2 * (qx * qy + qw * qz), 1 - 2 * (qx * qx + qz * qz), 2 * (qy * qz - qw * qx)},
                      {2 * (qx * qz - qw * qy), 2 * (qy * qz + qw * qx), 1 - 2 * (qx * qx + qy * qy)}};
    double s[3] = {sx, sy, sz};
    rmat m;
    int i, j;
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++) m.m[i][j] = r[i][j] * s[j];
    m.m[0][3] = tx;
    m.m[1][3] = ty;
    m.m[2][3] = tz;
    return m;
}

static rmat r_mul(const rmat *a, const rmat *b) {
    rmat r;
    int i, j;
    for (i = 0; i < 3; i++) {
        for (j = 0; j < 4; j++)
            r.m[i][j] = a->m[i][0] * b->m[0][j] + a->m[i][1] * b->m[1][j] + a->m[i][2] * b->m[2][j];
        r.m[i][3] += a->m[i][3];
    }
    return r;
}

/* Model transforms of a rig's bones in file order, by walking each bone's
 * parent chain (no order assumed). */
static void r_model(const plumbob_rig_bone *b, uint32_t n, rmat *out) {
    uint32_t i;
    for (i = 0; i < n; i++) {
        int32_t chain[RIG_MAX];
        uint32_t len = 0, k;
        int32_t c = (int32_t)i;
        while (c >= 0 && len < RIG_MAX) { chain[len++] = c; c = b[c].parent; }
        out[i] = r_from(0, 0, 0, 0, 0, 0, 1, 1, 1, 1);
        for (k = len; k-- > 0;) {
            const plumbob_rig_bone *x = &b[chain[k]];
            rmat m = r_from(x->position.x, x->position.y, x->position.z, x->orientation.x, x->orientation.y,
                            x->orientation.z, x->orientation.w, x->scale.x, x->scale.y, x->scale.z);
            out[i] = r_mul(&out[i], &m);
        }
    }
}

static double d_sqrt(double x) { /* Newton in double: the tests link no libm */
    double g = x > 1.0 ? x : 1.0;
    int i;
    for (i = 0; i < 60; i++) g = 0.5 * (g + x / g);
    return g;
}

static float r_unit(uint32_t *st) { return (float)(t_rand(st) % 20001u) / 10000.0f - 1.0f; }

static char rig_names[RIG_MAX][12];
static plumbob_rig_bone rig_bones[RIG_MAX];
static int32_t chain_bones[3][4];
static plumbob_rig_ik_chain chains[3];

static void bone_name(char *out, uint32_t i) {
    memcpy(out, "bone_", 5);
    out[5] = (char)('0' + i / 100u % 10u);
    out[6] = (char)('0' + i / 10u % 10u);
    out[7] = (char)('0' + i % 10u);
}

/* A rig of n bones: a random tree whose bones are placed at shuffled file
 * positions when `shuffle` (so children may come before their parents),
 * with every field set.  Version 4 gets three IK chains. */
static size_t build_rig(unsigned char *out, size_t cap, uint32_t major, uint32_t n, int shuffle, uint32_t seed) {
    uint32_t pos[RIG_MAX], i, st = seed;
    int32_t tree_parent[RIG_MAX];
    plumbob_rig rig;
    size_t got = 0;
    for (i = 0; i < n; i++) {
        pos[i] = i;
        tree_parent[i] = i == 0 ? -1 : (int32_t)(t_rand(&st) % i);
    }
    if (shuffle)
        for (i = n; i-- > 1;) {
            uint32_t j = t_rand(&st) % (i + 1u), t = pos[i];
            pos[i] = pos[j];
            pos[j] = t;
        }
    for (i = 0; i < n; i++) { /* tree bone i lives at file position pos[i] */
        plumbob_rig_bone *b = &rig_bones[pos[i]];
        plumbob_quat q;
        q.x = r_unit(&st); q.y = r_unit(&st); q.z = r_unit(&st); q.w = r_unit(&st) + 1.5f;
        b->orientation = plumbob_quat_normalize(q);
        b->position.x = r_unit(&st) * 0.3f;
        b->position.y = r_unit(&st) * 0.3f + 0.2f;
        b->position.z = r_unit(&st) * 0.3f;
        b->scale.x = 1.0f + r_unit(&st) * 0.05f;
        b->scale.y = 1.0f;
        b->scale.z = 1.0f - r_unit(&st) * 0.05f;
        bone_name(rig_names[pos[i]], i);
        b->name.ptr = rig_names[pos[i]];
        b->name.len = 8;
        b->hash = plumbob_fnv32(b->name.ptr, 8);
        b->parent = tree_parent[i] < 0 ? -1 : (int32_t)pos[tree_parent[i]];
        b->opposite = (int32_t)pos[(i ^ 1u) < n ? (i ^ 1u) : i];
        b->flags = (i & 1u) ? 0x3Fu : 0x23u;
    }
    memset(&rig, 0, sizeof rig);
    rig.major = major;
    rig.minor = 2;
    rig.bone_count = n;
    rig.bones = rig_bones;
    rig.skeleton_name.ptr = "synthetic_rig";
    rig.skeleton_name.len = 13;
    if (major >= 4) {
        for (i = 0; i < 3; i++) {
            uint32_t k;
            chains[i].bone_count = i + 2u;
            chains[i].bones = chain_bones[i];
            for (k = 0; k < i + 2u; k++) chain_bones[i][k] = (int32_t)((i * 3u + k) % n);
            for (k = 0; k < PLUMBOB_RIG_IK_INFO_NODES; k++)
                chains[i].info_nodes[k] = k == 10 ? -1 : (int32_t)((k * 7u + i) % n);
            chains[i].pole_vector = (int32_t)(i % n);
            chains[i].slot_info = -1;
            chains[i].slot_offset = (int32_t)((i + 1u) % n);
            chains[i].root = 0;
        }
        rig.ik_chain_count = 3;
        rig.ik_chains = chains;
    }
    if (plumbob_rig_write(&rig, out, cap, &got) != PLUMBOB_OK) return 0;
    CHECK_EQ(got, plumbob_rig_write_size(&rig));
    return got;
}

static plumbob_result decode(const unsigned char *d, size_t n, plumbob_rig *rig) {
    plumbob_arena a;
    size_t need;
    plumbob_result r = plumbob_rig_measure(d, n, &need);
    if (r != PLUMBOB_OK) return r;
    if (need > T_ARENA_SIZE) return PLUMBOB_ERR_OUT_OF_MEMORY;
    plumbob_arena_init(&a, t_arena_mem(), need); /* exactly the measured size */
    return plumbob_rig_decode(d, n, &a, rig);
}

/* Everything about a decoded rig that does not depend on the order: the
 * view is parent-before-child, both mappings agree, and the model-space
 * rest pose equals the double-precision walk over the file's parents. */
static void check_view(const plumbob_rig *rig) {
    static plumbob_mat34 model[RIG_MAX];
    static rmat ref[RIG_MAX];
    uint32_t k, n = rig->bone_count;
    int r, c;
    CHECK_OK(plumbob_skeleton_validate(&rig->skeleton));
    CHECK_EQ(rig->skeleton.bone_count, n);
    CHECK_OK(plumbob_skeleton_model(&rig->skeleton, NULL, model, (uint32_t)(sizeof model / sizeof model[0])));
    r_model(rig->bones, n, ref);
    for (k = 0; k < n; k++) {
        uint32_t f = rig->file_index[k];
        const plumbob_rig_bone *b = &rig->bones[f];
        CHECK(f < n);
        CHECK_EQ(rig->skeleton_index[f], k);
        CHECK_EQ(rig->skeleton.name_hash[k], b->hash);
        CHECK(rig->skeleton.name[k].ptr == b->name.ptr);
        CHECK_EQ(rig->skeleton.parent[k], b->parent < 0 ? -1 : (int64_t)rig->skeleton_index[b->parent]);
        /* the whole rest pose is the file's bone: position, orientation, scale */
        CHECK(rig->skeleton.rest[k].translation.x == b->position.x);
        CHECK(rig->skeleton.rest[k].translation.y == b->position.y);
        CHECK(rig->skeleton.rest[k].translation.z == b->position.z);
        CHECK(rig->skeleton.rest[k].rotation.x == b->orientation.x);
        CHECK(rig->skeleton.rest[k].rotation.y == b->orientation.y);
        CHECK(rig->skeleton.rest[k].rotation.z == b->orientation.z);
        CHECK(rig->skeleton.rest[k].rotation.w == b->orientation.w);
        CHECK(rig->skeleton.rest[k].scale.x == b->scale.x);
        CHECK(rig->skeleton.rest[k].scale.y == b->scale.y);
        CHECK(rig->skeleton.rest[k].scale.z == b->scale.z);
        for (r = 0; r < 3; r++)
            for (c = 0; c < 4; c++) {
                CHECK_NEAR(model[k].m[r][c], ref[f].m[r][c], 2e-5);
                t_digest_f32(model[k].m[r][c]);
            }
    }
}

void test_rig_synthetic_round_trip(void) {
    unsigned char *buf = t_scratch(), *again = t_scratch() + 65536;
    size_t n, n2;
    plumbob_rig rig;
    uint32_t i;
    /* version 4, every field, parents first: the view is the file's order */
    n = build_rig(buf, 65536, 4, 12, 0, 0xB0E5u);
    CHECK(n > 0);
    CHECK_OK(decode(buf, n, &rig));
    {
        size_t need = 0;
        CHECK_OK(plumbob_rig_measure(buf, n, &need));
        CHECK_EQ(need, PLUMBOB_RIG_DECODE_SIZE(12, 3, 2 + 3 + 4, 0));
    }
    CHECK_EQ(rig.major, 4);
    CHECK_EQ(rig.minor, 2);
    CHECK_EQ(rig.bone_count, 12);
    CHECK(!rig.reordered);
    CHECK_EQ(rig.ik_chain_count, 3);
    CHECK_EQ(rig.ik_chains[2].bone_count, 4);
    CHECK_EQ(rig.ik_chains[2].bones[3], 9);
    CHECK_EQ(rig.ik_chains[1].info_nodes[10], -1);
    CHECK_EQ(rig.ik_chains[1].info_nodes[3], 22u % 12u);
    CHECK_EQ(rig.ik_chains[2].slot_offset, 3);
    CHECK(rig.skeleton_name.len == 13 && memcmp(rig.skeleton_name.ptr, "synthetic_rig", 13) == 0);
    CHECK(rig.bones[5].name.len == 8 && memcmp(rig.bones[5].name.ptr, "bone_005", 8) == 0);
    CHECK_EQ(rig.bones[5].hash, plumbob_fnv32_str("bone_005"));
    CHECK_EQ(rig.bones[5].flags, 0x3F);
    CHECK_EQ(rig.bones[5].opposite, 4);
    for (i = 0; i < 12; i++) CHECK(memcmp(&rig.bones[i].position, &rig_bones[i].position, sizeof(plumbob_vec3)) == 0);
    CHECK_EQ(plumbob_skeleton_find(&rig.skeleton, plumbob_fnv32_str("BONE_007")), 7);
    check_view(&rig);
    CHECK_EQ(plumbob_rig_write_size(&rig), n);
    CHECK_OK(plumbob_rig_write(&rig, again, 65536, &n2));
    CHECK_EQ(n2, n);
    CHECK(memcmp(buf, again, n) == 0);
    t_digest_bytes(buf, n);
    CHECK_EQ(plumbob_identify(buf, n), PLUMBOB_FORMAT_RIG);

    /* version 3 (no IK chains), 300 bones listed in shuffled order: the view
     * is reordered, depth by depth, and writing gives the file's order back */
    n = build_rig(buf, 65536, 3, 300, 1, 0x5A5Au);
    CHECK(n > 0);
    CHECK_OK(decode(buf, n, &rig));
    CHECK_EQ(rig.major, 3);
    CHECK_EQ(rig.bone_count, 300);
    {
        size_t need = 0;
        CHECK_OK(plumbob_rig_measure(buf, n, &need));
        CHECK_EQ(need, PLUMBOB_RIG_DECODE_SIZE(300, 0, 0, 1)); /* shuffled: the sort's temporaries too */
        CHECK(need > PLUMBOB_RIG_DECODE_SIZE(300, 0, 0, 0));
    }
    CHECK_EQ(rig.ik_chain_count, 0);
    CHECK(rig.reordered);
    CHECK_EQ(rig.skeleton.parent[0], -1);
    CHECK_EQ(rig.bones[rig.file_index[0]].parent, -1);
    check_view(&rig);
    CHECK_OK(plumbob_rig_write(&rig, again, 65536, &n2));
    CHECK_EQ(n2, n);
    CHECK(memcmp(buf, again, n) == 0);
    t_digest_bytes(buf, n);
    CHECK_EQ(plumbob_identify(buf, n), PLUMBOB_FORMAT_RIG);
}

static void put32(unsigned char *p, uint32_t v) {
    p[0] = (unsigned char)v; p[1] = (unsigned char)(v >> 8); p[2] = (unsigned char)(v >> 16); p[3] = (unsigned char)(v >> 24);
}

/* Offset of bone i's parent field in a build_rig output (names are 8 bytes). */
#define BONE_SIZE (40u + 4u + 8u + 16u)
#define PARENT_AT(i) (12u + (i) * BONE_SIZE + 56u)

static plumbob_result set_and_decode(unsigned char *buf, size_t n, size_t at, uint32_t v, plumbob_rig *rig) {
    unsigned char save[4];
    plumbob_result r;
    memcpy(save, buf + at, 4);
    put32(buf + at, v);
    r = decode(buf, n, rig);
    memcpy(buf + at, save, 4);
    return r;
}

void test_rig_malformed(void) {
    unsigned char *buf = t_scratch(), *out = t_scratch() + 65536, small[32];
    size_t n = build_rig(buf, 65536, 4, 6, 0, 0x77u), n2 = 0, need = 0;
    size_t chain0 = 12u + 6u * BONE_SIZE + 4u + 13u + 4u + 4u; /* first chain's first bone */
    plumbob_rig rig;
    plumbob_arena a;
    CHECK_OK(decode(buf, n, &rig));
    CHECK_EQ(rig.bones[3].parent, (int32_t)(buf[PARENT_AT(3)] | (buf[PARENT_AT(3) + 1] << 8)));
    /* Granny rigs: the wrapper and a raw Granny 2 file are refused, never read */
    memset(small, 0, sizeof small);
    put32(small, PLUMBOB_TYPE_RIG);
    CHECK_EQ(plumbob_rig_measure(small, sizeof small, &need), PLUMBOB_ERR_UNSUPPORTED);
    CHECK_EQ(need, SIZE_MAX); /* a failed measure answers SIZE_MAX */
    CHECK_EQ(decode(small, sizeof small, &rig), PLUMBOB_ERR_UNSUPPORTED);
    CHECK_EQ(plumbob_identify(small, sizeof small), PLUMBOB_FORMAT_RIG);
    memcpy(small, "\x29\xDE\x6C\xC0\xBA\xA4\x53\x2B", 8);
    CHECK_EQ(decode(small, sizeof small, &rig), PLUMBOB_ERR_UNSUPPORTED);
    CHECK_EQ(plumbob_identify(small, sizeof small), PLUMBOB_FORMAT_RIG);
    /* versions */
    CHECK_EQ(set_and_decode(buf, n, 0, 5, &rig), PLUMBOB_ERR_UNSUPPORTED_VERSION);
    CHECK_EQ(set_and_decode(buf, n, 0, 2, &rig), PLUMBOB_ERR_UNSUPPORTED_VERSION);
    CHECK_EQ(set_and_decode(buf, n, 4, 3, &rig), PLUMBOB_ERR_UNSUPPORTED_VERSION);
    CHECK_EQ(set_and_decode(buf, n, 0, PLUMBOB_TYPE_CLIP, &rig), PLUMBOB_ERR_BAD_MAGIC); /* not a rig (issue 47) */
    CHECK_EQ(decode(buf, 7, &rig), PLUMBOB_ERR_TRUNCATED);
    /* counts */
    CHECK_EQ(set_and_decode(buf, n, 8, 0x7FFFFFFFu, &rig), PLUMBOB_ERR_BAD_COUNT);
    /* a count below the limit that the bytes cannot hold: the input ends early (issue 47) */
    CHECK_EQ(set_and_decode(buf, n, 8, (uint32_t)(n / 60u + 1u), &rig), PLUMBOB_ERR_TRUNCATED);
    CHECK_EQ(set_and_decode(buf, n, 8, 7, &rig), PLUMBOB_ERR_TRUNCATED); /* fits the count check, not the bytes */
    CHECK_EQ(set_and_decode(buf, n, chain0 - 8u, 5000, &rig), PLUMBOB_ERR_BAD_COUNT);  /* chain count */
    CHECK_EQ(set_and_decode(buf, n, chain0 - 4u, 1000, &rig), PLUMBOB_ERR_TRUNCATED);  /* chain length */
    /* indices: parent out of range, below -1, the bone itself, a cycle; mirror; chain */
    CHECK_EQ(set_and_decode(buf, n, PARENT_AT(3), 6, &rig), PLUMBOB_ERR_BAD_INDEX);
    CHECK_EQ(set_and_decode(buf, n, PARENT_AT(3), (uint32_t)-2, &rig), PLUMBOB_ERR_BAD_INDEX);
    CHECK_EQ(set_and_decode(buf, n, PARENT_AT(3), 3, &rig), PLUMBOB_ERR_BAD_INDEX);
    CHECK_OK(set_and_decode(buf, n, PARENT_AT(3) - 4u, 77, &rig)); /* the mirror index is not checked */
    CHECK_EQ(rig.bones[3].opposite, 77);
    CHECK_EQ(set_and_decode(buf, n, chain0, (uint32_t)-1, &rig), PLUMBOB_ERR_BAD_INDEX);
    CHECK_EQ(set_and_decode(buf, n, chain0 + 8u, 6, &rig), PLUMBOB_ERR_BAD_INDEX);     /* info node */
    {
        unsigned char save[4];
        memcpy(save, buf + PARENT_AT(1), 4);
        put32(buf + PARENT_AT(1), 2);
        CHECK_EQ(set_and_decode(buf, n, PARENT_AT(2), 1, &rig), PLUMBOB_ERR_BAD_INDEX); /* 1 <-> 2 */
        CHECK_OK(set_and_decode(buf, n, PARENT_AT(2), 0, &rig));  /* 1 below 2: reordered, fine */
        CHECK(rig.reordered);
        CHECK_EQ(rig.skeleton_index[2] < rig.skeleton_index[1], 1);
        memcpy(buf + PARENT_AT(1), save, 4);
    }
    /* bytes after the last chain */
    buf[n] = 0;
    CHECK_EQ(decode(buf, n + 1u, &rig), PLUMBOB_ERR_BAD_DATA);
    /* arena one byte short: refused, the arena given back */
    CHECK_OK(plumbob_rig_measure(buf, n, &need));
    plumbob_arena_init(&a, t_arena_mem(), need / 2u);
    CHECK_EQ(plumbob_rig_decode(buf, n, &a, &rig), PLUMBOB_ERR_OUT_OF_MEMORY);
    CHECK_EQ(a.used, 0);
    CHECK_EQ(plumbob_rig_decode(NULL, n, &a, &rig), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_rig_measure(buf, n, NULL), PLUMBOB_ERR_INVALID_ARGUMENT);
    /* writer */
    CHECK_OK(decode(buf, n, &rig));
    CHECK_EQ(plumbob_rig_write(&rig, out, n - 1u, &n2), PLUMBOB_ERR_OUT_OF_MEMORY);
    CHECK_EQ(plumbob_rig_write(NULL, out, n, &n2), PLUMBOB_ERR_INVALID_ARGUMENT);
    rig.major = 3; /* version 3 has no IK chains */
    CHECK_EQ(plumbob_rig_write(&rig, out, 65536, &n2), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_rig_write_size(&rig), SIZE_MAX);
    rig.ik_chain_count = 0;
    CHECK_OK(plumbob_rig_write(&rig, out, 65536, &n2));
    CHECK_EQ(n2, n - 4u - 3u * 4u * (11u + 4u + 1u) - 4u * (2u + 3u + 4u)); /* no chain section */
    CHECK_OK(decode(out, n2, &rig));
    CHECK_EQ(rig.major, 3);
    CHECK_EQ(plumbob_rig_bind(NULL, &rig, NULL, 0, &a, NULL), PLUMBOB_ERR_INVALID_ARGUMENT);
}

void test_rig_truncation_and_bitflips(void) {
    unsigned char *buf = t_scratch();
    size_t n = build_rig(buf, 65536, 4, 5, 0, 0x99u), len, bit;
    int oks = 0;
    plumbob_rig rig;
    for (len = 0; len < n; len++) {
        plumbob_result r = decode(buf, len, &rig);
        CHECK(r != PLUMBOB_OK && (unsigned)r < PLUMBOB_RESULT_COUNT);
    }
    for (bit = 0; bit < n * 8; bit++) {
        plumbob_result r;
        buf[bit / 8] ^= (unsigned char)(1u << (bit % 8));
        r = decode(buf, n, &rig);
        if (r == PLUMBOB_OK) { /* whatever decoded must pose and write back */
            static plumbob_mat34 model[8];
            static unsigned char again[4096];
            size_t n2 = 0;
            CHECK(rig.bone_count >= 1 && rig.bone_count <= 8);
            CHECK_OK(plumbob_skeleton_model(&rig.skeleton, NULL, model, (uint32_t)(sizeof model / sizeof model[0])));
            CHECK_OK(plumbob_rig_write(&rig, again, sizeof again, &n2));
            CHECK(n2 == n && memcmp(again, buf, n) == 0);
            if (rig.bone_count) t_digest_u32(rig.skeleton.name_hash[rig.bone_count - 1u]);
        }
        buf[bit / 8] ^= (unsigned char)(1u << (bit % 8));
        CHECK((unsigned)r < PLUMBOB_RESULT_COUNT);
        oks += r == PLUMBOB_OK;
    }
    CHECK(oks > 0);
    t_digest_u32((uint32_t)oks);
}

/* The three object rigs of EWWheatAndFlour.package (plain format 4.2,
 * RefPack-compressed in the package): decode, write back the same bytes,
 * known counts, names and values. */
/* Issue 47's numbers: the binding reports of real clips on auRig.  Every
 * EWBreastfeed clip binds all but its prop's tracks and fits; the small
 * dog's fight clip binds 116 of its 324 tracks (58 of 162 bones) and its
 * prefix names another species.  Parts whose files are absent are left
 * out (the rest of test_rig_corpus ran). */
static void report_package_clips(const plumbob_rig *rig, const char *path, uint64_t only,
                                 uint32_t *clips, plumbob_clip_bind_report *last) {
    size_t size, rs, need;
    unsigned char *data = t_corpus_load(path, &size);
    plumbob_package pkg;
    uint32_t e;
    if (!data) return;
    CHECK_OK(plumbob_package_open(&pkg, data, size));
    for (e = 0; e < pkg.count; e++) {
        plumbob_package_entry ent;
        const unsigned char *res;
        unsigned char *raw, *mem;
        plumbob_clip clip;
        plumbob_clip_binding bind;
        plumbob_arena arena;
        CHECK_OK(plumbob_package_entry_at(&pkg, e, &ent));
        if (ent.type != PLUMBOB_TYPE_CLIP || (only && ent.instance != only)) continue;
        raw = (unsigned char *)malloc(ent.mem_size);
        CHECK_OK(plumbob_package_read(&pkg, &ent, raw, ent.mem_size, &res, &rs));
        CHECK_OK(plumbob_clip_measure(res, rs, &need));
        need += PLUMBOB_CLIP_BIND_SIZE(PLUMBOB_CLIP_MAX_TRACKS) + PLUMBOB_CLIP_BIND_REPORT_SIZE(PLUMBOB_CLIP_MAX_TRACKS);
        mem = (unsigned char *)malloc(need);
        plumbob_arena_init(&arena, mem, need);
        CHECK_OK(plumbob_clip_decode(res, rs, &arena, &clip));
        CHECK_OK(plumbob_rig_bind(&clip, rig, NULL, 0, &arena, &bind));
        CHECK(plumbob_clip_binding_report_size(&bind) <= plumbob_arena_remaining(&arena, 0));
        CHECK_OK(plumbob_clip_binding_report(&bind, rig->skeleton_name.ptr, rig->skeleton_name.len, &arena, NULL, 0,
                                             last));
        CHECK_EQ(last->bound_tracks + last->unbound_tracks, clip.track_count);
        if (!only) { /* EWBreastfeed: the bassinet's 29 bones (58 tracks) are the prop's */
            CHECK_EQ(last->unbound_tracks, 58);
            CHECK_EQ(last->unbound_hash_count, 29);
            CHECK_EQ(last->fit, 0);
        }
        (*clips)++;
        free(mem);
        free(raw);
    }
    free(data);
}

static void rig_corpus_reports(void) {
    size_t size, need;
    unsigned char *data = t_corpus_load("sims3/auRig.rig", &size), *mem;
    plumbob_rig rig;
    plumbob_arena arena;
    plumbob_clip_bind_report rep;
    uint32_t clips = 0;
    if (!data) return;
    CHECK_OK(plumbob_rig_measure(data, size, &need));
    mem = (unsigned char *)malloc(need);
    plumbob_arena_init(&arena, mem, need);
    CHECK_OK(plumbob_rig_decode(data, size, &arena, &rig));
    CHECK_EQ(plumbob_rig_name_body(rig.skeleton_name.ptr, rig.skeleton_name.len), PLUMBOB_BODY_HUMAN);
    memset(&rep, 0, sizeof rep);
    report_package_clips(&rig, "sims3/PetFightingSkill.package", 0xC06363A8DEA2048Eull, &clips, &rep);
    if (clips) {
        CHECK_EQ(clips, 1);
        CHECK_EQ(rep.track_count, 324);
        CHECK_EQ(rep.bound_tracks, 116);
        CHECK_EQ(rep.bone_count, 162);
        CHECK_EQ(rep.bound_bones, 58);
        CHECK_EQ(rep.unbound_hash_count, 104);
        CHECK_EQ(rep.clip_body, PLUMBOB_BODY_SMALL_DOG);
        CHECK_EQ(rep.fit, PLUMBOB_FIT_FEW_BONES | PLUMBOB_FIT_OTHER_SPECIES);
    }
    clips = 0;
    report_package_clips(&rig, "sims3/EWBreastfeed.package", 0, &clips, &rep);
    if (clips) {
        CHECK_EQ(clips, 9);
        CHECK_EQ(rep.clip_body, PLUMBOB_BODY_HUMAN);
    }
    free(mem);
    free(data);
}

void test_rig_corpus(void) {
    size_t size, rs, need, wn;
    unsigned char *data = t_corpus_load("sims3/EWWheatAndFlour.package", &size);
    plumbob_package pkg;
    uint32_t e, seen = 0, bones = 0;
    if (!data) T_SKIP(t_corpus_missing());
    CHECK_OK(plumbob_package_open(&pkg, data, size));
    for (e = 0; e < pkg.count; e++) {
        plumbob_package_entry ent;
        const unsigned char *res;
        unsigned char *raw, *mem, *out;
        plumbob_rig rig;
        plumbob_arena arena;
        CHECK_OK(plumbob_package_entry_at(&pkg, e, &ent));
        if (ent.type != PLUMBOB_TYPE_RIG) continue;
        raw = (unsigned char *)malloc(ent.mem_size);
        CHECK_OK(plumbob_package_read(&pkg, &ent, raw, ent.mem_size, &res, &rs));
        CHECK_EQ(ent.compression, PLUMBOB_COMPRESSION_REFPACK);
        CHECK_EQ(plumbob_identify(res, rs), PLUMBOB_FORMAT_RIG);
        CHECK_OK(plumbob_rig_measure(res, rs, &need));
        mem = (unsigned char *)malloc(need);
        plumbob_arena_init(&arena, mem, need);
        CHECK_OK(plumbob_rig_decode(res, rs, &arena, &rig));
        seen++;
        bones += rig.bone_count;
        CHECK_EQ(rig.major, 4);
        CHECK_EQ(rig.minor, 2);
        CHECK_EQ(rig.ik_chain_count, 0);
        CHECK(!rig.reordered);
        CHECK(rig.bone_count >= 1);
        CHECK(rig.bones[0].name.len == 9 && memcmp(rig.bones[0].name.ptr, "b__ROOT__", 9) == 0);
        CHECK_EQ(rig.bones[0].hash, 0xFEAE6981u);
        CHECK_EQ(rig.bones[0].parent, -1);
        CHECK_EQ(rig.bones[0].flags, 0x23);
        if (rig.bone_count == 16) {
            CHECK(rig.skeleton_name.len == 14 && memcmp(rig.skeleton_name.ptr, "plantSmallVine", 14) == 0);
            CHECK(rig.bones[1].name.len == 10 && memcmp(rig.bones[1].name.ptr, "_route_0_E", 10) == 0);
            CHECK(rig.bones[1].position.x == -0.7f);
            CHECK_EQ(rig.bones[10].parent, 9);
            CHECK_EQ(rig.bones[15].parent, 10);
        } else {
            CHECK_EQ(rig.bone_count, 3);
            CHECK_EQ(rig.bones[2].parent, 1);
            CHECK(rig.bones[2].name.len == 13 && memcmp(rig.bones[2].name.ptr, "transformBone", 13) == 0);
        }
        {
            uint32_t i;
            for (i = 0; i < rig.bone_count; i++) {
                CHECK_EQ(rig.bones[i].hash, plumbob_fnv32(rig.bones[i].name.ptr, rig.bones[i].name.len));
                /* each bone is its own mirror, except _FX_talk (15) whose 17 is past the end */
                CHECK_EQ(rig.bones[i].opposite, rig.bone_count == 16 && i == 15 ? 17u : i);
            }
        }
        check_view(&rig);
        out = (unsigned char *)malloc(rs);
        wn = 0;
        CHECK_OK(plumbob_rig_write(&rig, out, rs, &wn));
        CHECK_EQ(wn, rs);
        CHECK(memcmp(out, res, rs) == 0);
        t_digest_u32(rig.bone_count);
        t_digest_bytes(res, rs);
        free(out);
        free(mem);
        free(raw);
    }
    CHECK_EQ(seen, 3);
    CHECK_EQ(bones, 22);
    free(data);
    rig_corpus_reports();
}

/* A clip on a rig: bone tracks bound through the rig's name hashes land in
 * skeleton order, a morph track whose hash equals a bone's stays a morph,
 * bones without tracks keep their rest values, and the model-space joints
 * at a key's tick equal a double-precision walk over the file's parents
 * with the keys' values. */
#define CR_BONES 20
#define CR_TRACKS 6
#define CR_KEYS 4
void test_rig_clip_pose(void) {
    static unsigned char keys[CR_TRACKS][CR_KEYS * 12];
    static plumbob_clip_track tracks[CR_TRACKS];
    static plumbob_bone_pose poses[CR_BONES];
    static plumbob_mat34 model[CR_BONES];
    static plumbob_rig_bone posed[CR_BONES];
    static rmat ref[CR_BONES];
    /* file bones driven by tracks 0..3; track 4 is a morph with bone 6's hash,
     * track 5 a bone the rig does not have */
    static const uint32_t file_bone[4] = {3, 6, 6, 11};
    static const uint8_t curve[CR_TRACKS] = {0x14, 0x14, 0x12, 0x12, 0x05, 0x14};
    static const uint8_t target[CR_TRACKS] = {2, 2, 1, 1, 7, 2};
    unsigned char *rbuf = t_scratch(), *cbuf = t_scratch() + 65536;
    size_t rn, cn = 0, need;
    plumbob_rig rig;
    plumbob_clip clip, c;
    plumbob_clip_binding bind;
    plumbob_arena a;
    uint32_t morph_hash[1], st = 0xC0FFEEu, t, k, i;
    uint16_t ticks[CR_KEYS] = {0, 3, 6, 9};
    float values[CR_KEYS * 4], morph = -1.0f;
    int r, col;
    rn = build_rig(rbuf, 65536, 4, CR_BONES, 1, 0x1234u);
    CHECK_OK(decode(rbuf, rn, &rig));
    CHECK(rig.reordered);
    memcpy(posed, rig.bones, sizeof posed);
    memset(&c, 0, sizeof c);
    for (t = 0; t < CR_TRACKS; t++) {
        uint32_t comps = curve[t] == 0x14 ? 4u : curve[t] == 0x12 ? 3u : 1u;
        uint32_t hash = t < 4 ? rig.bones[file_bone[t]].hash : t == 4 ? rig.bones[6].hash : 0xABCDEF01u;
        for (k = 0; k < CR_KEYS * comps; k++) values[k] = r_unit(&st) * (comps == 3 ? 0.4f : 1.0f);
        if (comps == 4)
            for (k = 0; k < CR_KEYS; k++) values[k * 4 + 3] += 2.0f;
        CHECK_OK(plumbob_clip_encode_track(&tracks[t], hash, curve[t], target[t], CR_KEYS, ticks, values, keys[t]));
    }
    c.version = 2;
    c.frame_duration = 1.0f / 30.0f;
    c.tick_count = 10;
    c.name.ptr = "a_rigtest";
    c.name.len = 9;
    c.source.ptr = "a_rigtest.ma";
    c.source.len = 12;
    c.actor.ptr = "x";
    c.actor.len = 1;
    c.track_count = CR_TRACKS;
    c.tracks = tracks;
    c.event_version = 0x103;
    CHECK_OK(plumbob_clip_write(&c, cbuf, 65536, &cn));
    /* the clip's arena after the rig's: the rig's arrays live in t_arena_mem() */
    CHECK_OK(plumbob_clip_measure(cbuf, cn, &need));
    plumbob_arena_init(&a, t_arena_mem() + 128u * 1024u, 128u * 1024u);
    CHECK_OK(plumbob_clip_decode(cbuf, cn, &a, &clip));
    morph_hash[0] = rig.bones[6].hash;
    CHECK_EQ(plumbob_rig_bind_size(&clip, &rig), plumbob_clip_bind_size(&clip));
    CHECK_EQ(plumbob_rig_bind_size(&clip, NULL), SIZE_MAX);
    {
        size_t mark = plumbob_arena_mark(&a), before = plumbob_arena_remaining(&a, 0);
        CHECK_OK(plumbob_rig_bind(&clip, &rig, morph_hash, 1, &a, &bind));
        CHECK(before - plumbob_arena_remaining(&a, 0) <= plumbob_rig_bind_size(&clip, &rig));
        plumbob_arena_reset(&a, mark);
    }
    CHECK_OK(plumbob_rig_bind(&clip, &rig, morph_hash, 1, &a, &bind));
    CHECK_EQ(bind.bone_of_track[0], rig.skeleton_index[3]);
    CHECK_EQ(bind.bone_of_track[1], rig.skeleton_index[6]);
    CHECK_EQ(bind.bone_of_track[2], rig.skeleton_index[6]);
    CHECK_EQ(bind.bone_of_track[3], rig.skeleton_index[11]);
    CHECK_EQ(bind.bone_of_track[4], -1);
    CHECK_EQ(bind.morph_of_track[4], 0);
    CHECK_EQ(bind.bone_of_track[5], -1);
    /* pose at the second key's tick (0.1 s): rest fill, sample, model */
    CHECK_OK(plumbob_skeleton_rest_pose(&rig.skeleton, 0, CR_BONES, poses, (uint32_t)(sizeof poses / sizeof poses[0])));
    plumbob_clip_sample_pose(&clip, &bind, NULL, 3.0f / 30.0f, poses, &morph);
    CHECK(morph != -1.0f);
    CHECK_OK(plumbob_skeleton_model(&rig.skeleton, poses, model, (uint32_t)(sizeof model / sizeof model[0])));
    /* reference: the keys' values (rotations normalized in double) on the file's bones */
    for (t = 0; t < 4; t++) {
        float v[4];
        uint16_t tick = 0;
        plumbob_rig_bone *b = &posed[file_bone[t]];
        CHECK_OK(plumbob_clip_key_value(&clip, t, 1, &tick, v));
        CHECK_EQ(tick, 3);
        if (clip.tracks[t].target == 2) {
            double l = v[0] * (double)v[0] + v[1] * (double)v[1] + v[2] * (double)v[2] + v[3] * (double)v[3];
            double inv = 1.0 / d_sqrt(l);
            b->orientation.x = (float)(v[0] * inv); b->orientation.y = (float)(v[1] * inv);
            b->orientation.z = (float)(v[2] * inv); b->orientation.w = (float)(v[3] * inv);
        } else {
            b->position.x = v[0]; b->position.y = v[1]; b->position.z = v[2];
        }
    }
    /* the engine path: schedule and sampler on the same binding give the same pose */
    {
        static plumbob_bone_pose poses2[CR_BONES];
        static plumbob_mat34 model2[CR_BONES];
        plumbob_clip_schedule sched;
        plumbob_clip_sampler smp;
        float morph2 = -1.0f;
        CHECK(plumbob_clip_schedule_size(&clip) <= plumbob_arena_remaining(&a, 0));
        CHECK_OK(plumbob_clip_schedule_build(&clip, &a, &sched));
        CHECK_OK(plumbob_clip_sampler_init(&sched, &bind, 0, &a, &smp));
        CHECK_OK(plumbob_skeleton_rest_pose(&rig.skeleton, 0, CR_BONES, poses2, (uint32_t)(sizeof poses2 / sizeof poses2[0])));
        plumbob_clip_sampler_sample(&smp, 3.0f / 30.0f, poses2, CR_BONES, &morph2, 1);
        CHECK_NEAR(morph2, morph, 1e-6);
        CHECK_OK(plumbob_skeleton_model(&rig.skeleton, poses2, model2, (uint32_t)(sizeof model2 / sizeof model2[0])));
        for (i = 0; i < CR_BONES; i++)
            for (r = 0; r < 3; r++)
                for (col = 0; col < 4; col++) CHECK_NEAR(model2[i].m[r][col], model[i].m[r][col], 1e-5);
    }
    /* the binding's report (issue 47): 5 of 6 tracks bound; bones 3, 6, 11
     * and 0xABCDEF01 animated (the morph with bone 6's hash is no bone),
     * three bound; the name a_rigtest is a human clip */
    {
        plumbob_clip_bind_report rep;
        plumbob_clip_binding few;
        plumbob_arena none;
        uint32_t unbound[2] = {7, 7};
        size_t mark = plumbob_arena_mark(&a), before = plumbob_arena_remaining(&a, 0);
        CHECK_EQ(plumbob_clip_binding_report_size(&bind), PLUMBOB_CLIP_BIND_REPORT_SIZE(CR_TRACKS));
        CHECK_EQ(plumbob_clip_binding_report_size(NULL), SIZE_MAX);
        CHECK_OK(plumbob_clip_binding_report(&bind, "auRig", 5, &a, unbound, 2, &rep));
        CHECK_EQ(plumbob_arena_remaining(&a, 0), before); /* borrowed bytes given back */
        CHECK_EQ(rep.track_count, 6);
        CHECK_EQ(rep.bound_tracks, 5);
        CHECK_EQ(rep.unbound_tracks, 1);
        CHECK_EQ(rep.bone_count, 4);
        CHECK_EQ(rep.bound_bones, 3);
        CHECK_EQ(rep.unbound_hash_count, 1);
        CHECK_EQ(unbound[0], 0xABCDEF01u);
        CHECK_EQ(unbound[1], 7);
        CHECK_EQ(rep.clip_body, PLUMBOB_BODY_HUMAN);
        CHECK_EQ(rep.rig_body, PLUMBOB_BODY_HUMAN);
        CHECK_EQ(rep.fit, 0);
        CHECK_OK(plumbob_clip_binding_report(&bind, "adRig", 5, &a, NULL, 0, &rep));
        CHECK_EQ(rep.fit, PLUMBOB_FIT_OTHER_SPECIES);
        CHECK_OK(plumbob_clip_binding_report(&bind, "cuRig", 5, &a, NULL, 0, &rep));
        CHECK_EQ(rep.fit, PLUMBOB_FIT_OTHER_AGE);
        CHECK_OK(plumbob_clip_binding_report(&bind, NULL, 0, &a, NULL, 0, &rep));
        CHECK_EQ(rep.rig_body, PLUMBOB_BODY_UNKNOWN);
        CHECK_EQ(rep.fit, 0);
        CHECK_OK(plumbob_clip_binding_report(&bind, "vine", 4, &a, NULL, 0, &rep));
        CHECK_EQ(rep.rig_body, PLUMBOB_BODY_OBJECT);
        CHECK_EQ(rep.fit, 0); /* any name may be a modder's rig: said only with few bones */
        /* one bone of four bound: few bones, and then the object's rig is said too */
        CHECK_OK(plumbob_clip_bind(&clip, &rig.bones[3].hash, 1, NULL, 0, &a, &few));
        CHECK_OK(plumbob_clip_binding_report(&few, "vine", 4, &a, NULL, 0, &rep));
        CHECK_EQ(rep.bound_bones, 1);
        CHECK_EQ(rep.bound_tracks, 1);
        CHECK_EQ(rep.unbound_hash_count, 3); /* bones 6 (the morph's hash too: listed once), 11, 0xABCDEF01 */
        CHECK_EQ(rep.fit, PLUMBOB_FIT_FEW_BONES | PLUMBOB_FIT_OTHER_SPECIES);
        CHECK_OK(plumbob_clip_binding_report(&few, "auRig", 5, &a, NULL, 0, &rep));
        CHECK_EQ(rep.fit, PLUMBOB_FIT_FEW_BONES);
        /* a list too short: the report is filled, the list untouched */
        unbound[0] = 7;
        CHECK_EQ(plumbob_clip_binding_report(&few, "auRig", 5, &a, unbound, 2, &rep), PLUMBOB_ERR_OUTPUT_TOO_SMALL);
        CHECK_EQ(rep.unbound_hash_count, 3);
        CHECK_EQ(unbound[0], 7);
        plumbob_arena_init(&none, NULL, 0);
        CHECK_EQ(plumbob_clip_binding_report(&bind, "auRig", 5, &none, NULL, 0, &rep), PLUMBOB_ERR_OUT_OF_MEMORY);
        CHECK_EQ(plumbob_clip_binding_report(NULL, "auRig", 5, &a, NULL, 0, &rep), PLUMBOB_ERR_INVALID_ARGUMENT);
        CHECK_EQ(plumbob_clip_binding_report(&bind, "auRig", 5, NULL, NULL, 0, &rep), PLUMBOB_ERR_INVALID_ARGUMENT);
        CHECK_EQ(plumbob_clip_binding_report(&bind, "auRig", 5, &a, NULL, 0, NULL), PLUMBOB_ERR_INVALID_ARGUMENT);
        CHECK_EQ(plumbob_clip_binding_report(&bind, NULL, 5, &a, NULL, 0, &rep), PLUMBOB_ERR_INVALID_ARGUMENT);
        few.clip = NULL;
        CHECK_EQ(plumbob_clip_binding_report(&few, "auRig", 5, &a, NULL, 0, &rep), PLUMBOB_ERR_INVALID_ARGUMENT);
        plumbob_arena_reset(&a, mark);
    }
    /* names for hashes: the rig's bones, then a KEY table's names */
    {
        static const unsigned char key_bytes[] = {
            1, 0, 0, 0, 2, 0, 0, 0,
            1, 0, 0, 0, 0, 0, 0, 0, 8, 0, 0, 0, 'b', '_', '_', 'F', 'o', 'o', '_', '_',
            2, 0, 0, 0, 0, 0, 0, 0, 6, 0, 0, 0, 'm', 'o', 'r', 'p', 'h', 'X',
        };
        plumbob_key_table kt;
        plumbob_string nm;
        CHECK_OK(plumbob_key_table_open(&kt, key_bytes, sizeof key_bytes));
        CHECK_OK(plumbob_clip_track_name(rig.bones[3].hash, &rig, &kt, &nm));
        CHECK(nm.ptr == rig.bones[3].name.ptr && nm.len == rig.bones[3].name.len);
        CHECK_OK(plumbob_clip_track_name(plumbob_fnv32_str("b__foo__"), &rig, &kt, &nm));
        CHECK(nm.len == 8 && memcmp(nm.ptr, "b__Foo__", 8) == 0);
        CHECK_OK(plumbob_clip_track_name((uint32_t)plumbob_fnv64_str("morphX"), NULL, &kt, &nm));
        CHECK(nm.len == 6 && memcmp(nm.ptr, "morphX", 6) == 0);
        CHECK_EQ(plumbob_clip_track_name(0xABCDEF01u, &rig, &kt, &nm), PLUMBOB_ERR_NOT_FOUND);
        CHECK_EQ(plumbob_clip_track_name(rig.bones[3].hash, NULL, NULL, &nm), PLUMBOB_ERR_NOT_FOUND);
        CHECK_EQ(plumbob_clip_track_name(rig.bones[3].hash, &rig, NULL, NULL), PLUMBOB_ERR_INVALID_ARGUMENT);
    }
    r_model(posed, CR_BONES, ref);
    for (i = 0; i < CR_BONES; i++) {
        uint32_t k2 = rig.skeleton_index[i];
        if (i != 3 && i != 6 && i != 11) {
            CHECK(memcmp(&poses[k2], &rig.skeleton.rest[k2], sizeof poses[k2]) == 0); /* untracked: rest */
        }
        for (r = 0; r < 3; r++)
            for (col = 0; col < 4; col++) {
                CHECK_NEAR(model[k2].m[r][col], ref[i].m[r][col], 2e-5);
                t_digest_f32(model[k2].m[r][col]);
            }
    }
}

void test_rig_error_sweep(void) {
    unsigned char *buf = t_scratch();
    size_t n = build_rig(buf, 65536, 4, 12, 0, 0xB0E5u);
    t_error_sweep("rig", buf, n);
    n = build_rig(buf, 65536, 3, 40, 1, 0x5A5Au);
    t_error_sweep("rig", buf, n);
}

/* A synthetic version 4 rig of n bones (n <= 64) for other test files
 * (test_finite.c), in file order (no child before its parent). */
size_t t_build_rig(unsigned char *out, size_t cap, uint32_t n) {
    return build_rig(out, cap, 4, n, 0, 0x5EEDu);
}
