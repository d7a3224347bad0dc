/* Sims 2 GMDC: synthetic meshes through plumbob's writer (versions 1, 2, 4),
 * index validation, sweeps, and the real teapot. */
#include <stdlib.h>
#include <string.h>
#include "test.h"
#include "pb_bytes.h"

/* scratch for skin jobs (PLUMBOB_GMDC_SKIN_WORK_SIZE) */
static unsigned char skin_work[PLUMBOB_GMDC_SKIN_WORK_SIZE];

/* Little-endian builders: the core's own byte helpers. */
#define put32 pb_put_le32
#define putf pb_put_f32le
static void put_index(unsigned char *p, uint32_t isz, uint32_t v) {
    if (isz == 2) { p[0] = (unsigned char)v; p[1] = (unsigned char)(v >> 8); }
    else put32(p, v);
}

/* A 4-vertex quad (two triangles) skinned to two joints, with normals,
 * 2 weights per vertex, a morph map and one morph delta set. */
static unsigned char verts[4 * 12], norms[4 * 12], assign[4 * 4], weights[4 * 8], mmap[4 * 4], deltas[4 * 12];
static unsigned char refs[8 * 4], faces[6 * 4], bones[2 * 4], joints[2 * 28], bverts[3 * 12], bfaces[3 * 4];
static plumbob_gmdc_element els[6];
static plumbob_gmdc_linkage link1;
static plumbob_gmdc_group grp;
static plumbob_string morph_names[4];
static const plumbob_gmdc_indices *test_aliases; /* when set: the linkage's three alias lists */

static size_t build_gmdc(uint32_t version, unsigned char *out, size_t cap) {
    plumbob_gmdc g;
    uint32_t isz = version == 4 ? 2u : 4u, i;
    size_t n = 0;
    static const uint32_t ids[6] = {PLUMBOB_GMDC_VERTICES, PLUMBOB_GMDC_NORMALS, PLUMBOB_GMDC_BONE_ASSIGNMENTS,
                                    PLUMBOB_GMDC_BONE_WEIGHTS, PLUMBOB_GMDC_MORPH_VERTEX_MAP,
                                    PLUMBOB_GMDC_MORPH_VERTEX_DELTAS};
    static const uint32_t fmts[6] = {2, 2, 4, 1, 4, 2};
    const unsigned char *datas[6] = {verts, norms, assign, weights, mmap, deltas};
    memset(&g, 0, sizeof g);
    for (i = 0; i < 4; i++) {
        putf(verts + 12 * i, (float)(i & 1));
        putf(verts + 12 * i + 4, 0.0f);
        putf(verts + 12 * i + 8, (float)(i >> 1));
        putf(norms + 12 * i, 0.0f); putf(norms + 12 * i + 4, 1.0f); putf(norms + 12 * i + 8, 0.0f);
        put32(assign + 4 * i, i < 2 ? 0xFFFFFF00u : 0xFFFF0100u); /* slot 0; slots 1,0 */
        putf(weights + 8 * i, i < 2 ? 1.0f : 0.75f);
        putf(weights + 8 * i + 4, i < 2 ? 0.0f : 0.25f);
        put32(mmap + 4 * i, i == 3 ? 1u : 0u); /* vertex 3 takes morph 1 in delta set 0 */
        putf(deltas + 12 * i, 0.0f); putf(deltas + 12 * i + 4, i == 3 ? 0.5f : 0.0f); putf(deltas + 12 * i + 8, 0.0f);
    }
    for (i = 0; i < 6; i++) {
        memset(&els[i], 0, sizeof els[i]);
        els[i].count = 4;
        els[i].identity = ids[i];
        els[i].format = fmts[i];
        els[i].byte_size = 4u * (fmts[i] == 4 ? 4u : 4u * (fmts[i] + 1u));
        els[i].data = datas[i];
        put_index(refs + i * isz, isz, i);
    }
    memset(&link1, 0, sizeof link1);
    link1.refs.data = refs;
    link1.refs.count = 6;
    link1.vertex_count = 4;
    link1.active_count = 6;
    if (test_aliases) memcpy(link1.aliases, test_aliases, sizeof link1.aliases);
    {
        static const uint32_t f[6] = {0, 1, 2, 2, 1, 3};
        for (i = 0; i < 6; i++) put_index(faces + i * isz, isz, f[i]);
    }
    put_index(bones, isz, 1); /* group slot 0 -> joint 1, slot 1 -> joint 0 */
    put_index(bones + isz, isz, 0);
    memset(&grp, 0, sizeof grp);
    grp.primitive = 2;
    grp.name.ptr = "quad";
    grp.name.len = 4;
    grp.faces.data = faces;
    grp.faces.count = 6;
    grp.opacity = 0xFFFFFFFFu;
    if (version >= 2) {
        grp.bones.data = bones;
        grp.bones.count = 2;
    }
    for (i = 0; i < 2; i++) { /* joint i: identity rotation, translation (0, -i, 0) */
        memset(joints + 28 * i, 0, 28);
        putf(joints + 28 * i + 12, 1.0f);
        putf(joints + 28 * i + 20, -(float)i);
    }
    morph_names[0].ptr = ""; morph_names[0].len = 0;
    morph_names[1].ptr = ""; morph_names[1].len = 0;
    morph_names[2].ptr = "bulge"; morph_names[2].len = 5;
    morph_names[3].ptr = "bulgeUp"; morph_names[3].len = 7;
    for (i = 0; i < 3; i++) {
        putf(bverts + 12 * i, (float)i); putf(bverts + 12 * i + 4, 0); putf(bverts + 12 * i + 8, 0);
        put_index(bfaces + i * isz, isz, i);
    }
    g.version = version;
    g.index_size = isz;
    g.head.resource_name.ptr = "quad_tslocator_gmdc";
    g.head.resource_name.len = 19;
    g.element_count = 6;
    g.elements = els;
    g.linkage_count = 1;
    g.linkages = &link1;
    g.group_count = 1;
    g.groups = &grp;
    g.joint_count = 2;
    g.joints = joints;
    g.morph_count = 2;
    g.morph_names = morph_names;
    g.bounding.vertex_count = 3;
    g.bounding.vertices = bverts;
    g.bounding.faces.data = bfaces;
    g.bounding.faces.count = 3;
    CHECK_OK(plumbob_gmdc_write(&g, out, cap, &n));
    CHECK_EQ(n, plumbob_gmdc_write_size(&g));
    return n;
}

static plumbob_result decode(const unsigned char *d, size_t n, plumbob_gmdc *g) {
    plumbob_arena a;
    size_t need;
    plumbob_result r = plumbob_gmdc_measure(d, n, &need);
    if (r != PLUMBOB_OK) return r;
    if (need > T_ARENA_SIZE) return PLUMBOB_ERR_OUT_OF_MEMORY;
    plumbob_arena_init(&a, t_arena_mem(), need);
    return plumbob_gmdc_decode(d, n, &a, g);
}

void test_gmdc_synthetic_round_trip(void) {
    static const uint32_t versions[3] = {1, 2, 4};
    int v;
    for (v = 0; v < 3; v++) {
        unsigned char *buf = t_scratch(), *again = t_scratch() + 65536;
        size_t n = build_gmdc(versions[v], buf, 65536), n2 = 0;
        plumbob_gmdc g;
        const plumbob_gmdc_element *e;
        plumbob_quat q;
        plumbob_vec3 t;
        CHECK_OK(decode(buf, n, &g));
        CHECK_EQ(g.version, versions[v]);
        CHECK_EQ(plumbob_identify(buf, n), PLUMBOB_FORMAT_GMDC);
        {
            plumbob_string nm;
            CHECK_OK(plumbob_sims2_rcol_name(&g.rcol, &nm));
            CHECK(nm.len == 19 && memcmp(nm.ptr, "quad_tslocator_gmdc", 19) == 0);
        }
        CHECK_EQ(g.element_count, 6);
        CHECK_EQ(g.groups[0].faces.count, 6);
        CHECK_EQ(plumbob_gmdc_index(&g, &g.groups[0].faces, 5), 3);
        CHECK_EQ(g.groups[0].bones.count, versions[v] >= 2 ? 2 : 0);
        CHECK(g.groups[0].name.len == 4 && memcmp(g.groups[0].name.ptr, "quad", 4) == 0);
        CHECK(g.morph_names[3].len == 7 && memcmp(g.morph_names[3].ptr, "bulgeUp", 7) == 0);
        e = plumbob_gmdc_find_element(&g, 0, PLUMBOB_GMDC_VERTICES, 0);
        CHECK(e != NULL);
        if (e) CHECK_NEAR(plumbob_gmdc_float(e, 3, 2), 1.0, 0.0);
        e = plumbob_gmdc_find_element(&g, 0, PLUMBOB_GMDC_MORPH_VERTEX_DELTAS, 0);
        CHECK(e != NULL);
        CHECK(plumbob_gmdc_find_element(&g, 0, PLUMBOB_GMDC_MORPH_VERTEX_DELTAS, 1) == NULL);
        CHECK(plumbob_gmdc_find_element(&g, 0, PLUMBOB_GMDC_UVS, 0) == NULL);
        plumbob_gmdc_joint(&g, 1, &q, &t);
        CHECK(q.w == 1.0f && t.y == -1.0f);
        CHECK_EQ(g.bounding.vertex_count, 3);
        CHECK_EQ(g.end_pos, n);
        CHECK_OK(plumbob_gmdc_write(&g, again, 65536, &n2));
        CHECK_EQ(n2, n);
        CHECK(memcmp(buf, again, n) == 0);
        t_digest_bytes(buf, n);
        {
            /* influences, by hand: vertex 0 has slot 0 at 1.0; vertex 2,
             * patched to slots 0, 1, 0 with stored 0.5 and 0.25, takes the
             * implied 0.25 in slot 2; slot k names bones[k] (slot 0 -> joint 1,
             * slot 1 -> joint 0) from version 2, joint k in version 1 */
            uint32_t jo[4], one = versions[v] >= 2 ? 1u : 0u;
            float wo[4];
            const plumbob_gmdc_element *ea = plumbob_gmdc_find_element(&g, 0, PLUMBOB_GMDC_BONE_ASSIGNMENTS, 0);
            const plumbob_gmdc_element *ew = plumbob_gmdc_find_element(&g, 0, PLUMBOB_GMDC_BONE_WEIGHTS, 0);
            CHECK_EQ(plumbob_gmdc_influences(&g, &g.groups[0], 0, jo, wo), 1);
            CHECK(jo[0] == one && wo[0] == 1.0f && wo[1] == 0.0f && wo[2] == 0.0f && wo[3] == 0.0f);
            CHECK(ea != NULL && ew != NULL);
            if (ea && ew) {
                put32(buf + (size_t)(ea->data - buf) + 8, 0xFF000100u);
                putf(buf + (size_t)(ew->data - buf) + 16, 0.5f);
                CHECK_EQ(plumbob_gmdc_influences(&g, &g.groups[0], 2, jo, wo), 3);
                CHECK(jo[0] == one && jo[1] == 1u - one && jo[2] == one && jo[3] == 0);
                CHECK(wo[0] == 0.5f && wo[1] == 0.25f && wo[2] == 0.25f && wo[3] == 0.0f);
            }
            CHECK_EQ(plumbob_gmdc_influences(&g, &g.groups[0], 4, jo, wo), 0); /* past the vertices */
            CHECK(jo[0] == 0 && wo[0] == 0.0f);
            CHECK_EQ(plumbob_gmdc_influences(NULL, &g.groups[0], 0, jo, wo), 0);
        }
    }
    {
        /* a joint's bind pose by hand: inverse bind rotation 90 degrees about
         * z, stored unnormalized (0, 0, 2, 2), translation (1, 2, 3); the bind
         * pose is the rotation -90 degrees about z and -(R^-1 t) = (-2, 1, -3) */
        unsigned char jb[28];
        plumbob_gmdc mg;
        plumbob_quat bq;
        plumbob_vec3 bt;
        memset(&mg, 0, sizeof mg);
        memset(jb, 0, sizeof jb);
        putf(jb + 8, 2.0f);
        putf(jb + 12, 2.0f);
        putf(jb + 16, 1.0f);
        putf(jb + 20, 2.0f);
        putf(jb + 24, 3.0f);
        mg.joint_count = 1;
        mg.joints = jb;
        plumbob_gmdc_joint_bind(&mg, 0, &bq, &bt);
        CHECK(bq.x == 0.0f && bq.y == 0.0f);
        CHECK_NEAR(bq.z, -0.70710678, 1e-6);
        CHECK_NEAR(bq.w, 0.70710678, 1e-6);
        CHECK_NEAR(bt.x, -2.0, 1e-5);
        CHECK_NEAR(bt.y, 1.0, 1e-5);
        CHECK_NEAR(bt.z, -3.0, 1e-5);
        plumbob_gmdc_joint_bind(&mg, 1, &bq, &bt); /* past the table: the identity */
        CHECK(bq.x == 0.0f && bq.y == 0.0f && bq.z == 0.0f && bq.w == 1.0f);
        CHECK(bt.x == 0.0f && bt.y == 0.0f && bt.z == 0.0f);
    }
    {
        /* A linkage's three alias lists keep their order through the writer
         * and the reader: lists {7}, {8, 9} and {} must be in the file as the
         * bytes worked out here (a u32 count, then 16-bit indices, after the
         * linkage's refs and its two counts) and decode in that order. */
        static const unsigned char a0[2] = {7, 0}, a1[4] = {8, 0, 9, 0};
        static const unsigned char want[] = {
            6, 0, 0, 0, 0, 0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, /* refs: 6 of them, 0..5 */
            4, 0, 0, 0, 6, 0, 0, 0,                         /* vertex count 4, active count 6 */
            1, 0, 0, 0, 7, 0,                               /* alias list 0: {7} */
            2, 0, 0, 0, 8, 0, 9, 0,                         /* alias list 1: {8, 9} */
            0, 0, 0, 0,                                     /* alias list 2: {} */
            1, 0, 0, 0};                                    /* then the group count */
        plumbob_gmdc_indices lists[3];
        unsigned char *buf = t_scratch();
        size_t n, at, found = 0;
        plumbob_gmdc g;
        memset(lists, 0, sizeof lists);
        lists[0].data = a0;
        lists[0].count = 1;
        lists[1].data = a1;
        lists[1].count = 2;
        test_aliases = lists;
        n = build_gmdc(4, buf, 65536);
        test_aliases = NULL;
        for (at = 0; at + sizeof want <= n; at++) found += memcmp(buf + at, want, sizeof want) == 0;
        CHECK_EQ(found, 1);
        CHECK_OK(decode(buf, n, &g));
        CHECK_EQ(g.linkages[0].aliases[0].count, 1);
        CHECK_EQ(g.linkages[0].aliases[1].count, 2);
        CHECK_EQ(g.linkages[0].aliases[2].count, 0);
        if (g.linkages[0].aliases[0].count == 1 && g.linkages[0].aliases[1].count == 2) {
            CHECK_EQ(plumbob_gmdc_index(&g, &g.linkages[0].aliases[0], 0), 7);
            CHECK_EQ(plumbob_gmdc_index(&g, &g.linkages[0].aliases[1], 0), 8);
            CHECK_EQ(plumbob_gmdc_index(&g, &g.linkages[0].aliases[1], 1), 9);
        }
    }
}

void test_gmdc_malformed(void) {
    unsigned char *buf = t_scratch();
    size_t n;
    plumbob_gmdc g;
    plumbob_arena a;
    /* a face index beyond the linkage's 4 vertices */
    n = build_gmdc(4, buf, 65536);
    CHECK_OK(decode(buf, n, &g));
    {
        const unsigned char *f = g.groups[0].faces.data;
        buf[f - buf] = 4;
        CHECK_EQ(decode(buf, n, &g), PLUMBOB_ERR_BAD_INDEX);
        buf[f - buf] = 0;
    }
    /* a bone slot beyond the group's 2-entry bone list */
    CHECK_OK(decode(buf, n, &g));
    {
        const unsigned char *ba = plumbob_gmdc_find_element(&g, 0, PLUMBOB_GMDC_BONE_ASSIGNMENTS, 0)->data;
        buf[ba - buf] = 2;
        CHECK_EQ(decode(buf, n, &g), PLUMBOB_ERR_BAD_INDEX);
        buf[ba - buf] = 0;
    }
    /* a bone list entry beyond the 2 joints */
    CHECK_OK(decode(buf, n, &g));
    {
        const unsigned char *b = g.groups[0].bones.data;
        buf[b - buf] = 2;
        CHECK_EQ(decode(buf, n, &g), PLUMBOB_ERR_BAD_INDEX);
        buf[b - buf] = 1;
    }
    /* a morph id beyond the 2 pairs */
    CHECK_OK(decode(buf, n, &g));
    {
        const unsigned char *m = plumbob_gmdc_find_element(&g, 0, PLUMBOB_GMDC_MORPH_VERTEX_MAP, 0)->data;
        buf[m - buf + 12] = 2;
        CHECK_EQ(decode(buf, n, &g), PLUMBOB_ERR_BAD_INDEX);
        buf[m - buf + 12] = 1;
    }
    /* an element whose byte size does not match count and format */
    CHECK_OK(decode(buf, n, &g));
    {
        size_t size_field = (size_t)(g.elements[0].data - buf) - 4;
        buf[size_field] ^= 4;
        CHECK_EQ(decode(buf, n, &g), PLUMBOB_ERR_BAD_DATA);
        buf[size_field] ^= 4;
    }
    /* version 3; a first block that is not a GMDC */
    CHECK_OK(decode(buf, n, &g));
    {
        size_t vpos = 16 + 1 + 22 + 4;
        CHECK_EQ(buf[vpos], 4);
        buf[vpos] = 3;
        CHECK_EQ(decode(buf, n, &g), PLUMBOB_ERR_UNSUPPORTED_VERSION);
        buf[vpos] = 4;
        buf[12] ^= 1;
        CHECK_EQ(decode(buf, n, &g), PLUMBOB_ERR_BAD_MAGIC);
        buf[12] ^= 1;
    }
    CHECK_OK(decode(buf, n, &g));
    plumbob_arena_init(&a, t_arena_mem(), 16);
    CHECK_EQ(plumbob_gmdc_decode(buf, n, &a, &g), PLUMBOB_ERR_OUT_OF_MEMORY);
    CHECK_EQ(a.used, 0);
    /* version 4 cannot hold more than 65535 vertices in a linkage: neither
     * the decoder nor the writer accepts it */
    CHECK_OK(decode(buf, n, &g));
    {
        size_t vc = (size_t)((const unsigned char *)g.linkages[0].refs.data - buf) + 6u * 2u;
        buf[vc + 2] = 1; /* vertex count 4 -> 65540 */
        CHECK_EQ(decode(buf, n, &g), PLUMBOB_ERR_BAD_COUNT);
        buf[vc + 2] = 0;
    }
    CHECK_OK(decode(buf, n, &g));
    g.linkages[0].vertex_count = 70000;
    CHECK_EQ(plumbob_gmdc_write_size(&g), SIZE_MAX);
    CHECK_EQ(plumbob_gmdc_write(&g, t_scratch() + 65536, 65536, &n), PLUMBOB_ERR_LIMIT_EXCEEDED);
}

void test_gmdc_truncation_and_bitflips(void) {
    unsigned char *buf = t_scratch();
    size_t n = build_gmdc(2, buf, 65536), len, bit;
    int oks = 0;
    plumbob_gmdc g;
    for (len = 0; len < n; len++) {
        plumbob_result r = decode(buf, len, &g);
        CHECK(r != PLUMBOB_OK && (unsigned)r < PLUMBOB_RESULT_COUNT);
    }
    for (bit = 0; bit < n * 8; bit += 3) {
        plumbob_result r;
        buf[bit / 8] ^= (unsigned char)(1u << (bit % 8));
        r = decode(buf, n, &g);
        buf[bit / 8] ^= (unsigned char)(1u << (bit % 8));
        CHECK((unsigned)r < PLUMBOB_RESULT_COUNT);
        oks += r == PLUMBOB_OK;
    }
    CHECK(oks > 0);
    t_digest_u32((uint32_t)oks);
}

void test_gmdc_corpus_teapot(void) {
    size_t size, rs, need, wn = 0;
    unsigned char *data = t_corpus_load("sims2/teapot_model.package", &size), *mem, *out;
    plumbob_package pkg;
    plumbob_package_entry e;
    const unsigned char *res;
    plumbob_gmdc g;
    plumbob_arena a;
    const plumbob_gmdc_element *v;
    uint32_t i, max_face = 0;
    if (!data) T_SKIP(t_corpus_missing());
    CHECK_OK(plumbob_package_open(&pkg, data, size));
    CHECK_OK(plumbob_package_entry_at(&pkg, 0, &e));
    CHECK_OK(plumbob_package_read(&pkg, &e, NULL, 0, &res, &rs));
    CHECK_OK(plumbob_gmdc_measure(res, rs, &need));
    mem = (unsigned char *)malloc(need);
    plumbob_arena_init(&a, mem, need);
    CHECK_OK(plumbob_gmdc_decode(res, rs, &a, &g));
    CHECK_EQ(g.version, 4);
    /* the package files the mesh under its name's Sims 2 instance */
    CHECK_EQ(plumbob_sims2_instance(g.head.resource_name.ptr, g.head.resource_name.len), e.instance);
    CHECK_EQ(e.group, PLUMBOB_SIMS2_LOCAL_GROUP);
    CHECK_EQ(g.linkage_count, 1);
    CHECK_EQ(g.linkages[0].vertex_count, 13248);
    CHECK_EQ(g.groups[0].faces.count, 18960);
    CHECK_EQ(g.joint_count, 0);
    CHECK_EQ(g.bounding.vertex_count, 3241);
    for (i = 0; i < g.groups[0].faces.count; i++) {
        uint32_t f = plumbob_gmdc_index(&g, &g.groups[0].faces, i);
        if (f > max_face) max_face = f;
    }
    CHECK(max_face < 13248);
    CHECK_EQ(max_face, 13247);
    v = plumbob_gmdc_find_element(&g, 0, PLUMBOB_GMDC_VERTICES, 0);
    CHECK(v != NULL && v->count == 13248 && v->format == 2);
    if (v) for (i = 0; i < 13248; i += 997) t_digest_f32(plumbob_gmdc_float(v, i, 1));
    out = (unsigned char *)malloc(rs);
    CHECK_OK(plumbob_gmdc_write(&g, out, rs, &wn));
    CHECK_EQ(wn, rs);
    CHECK(memcmp(out, res, rs) == 0); /* byte-identical */
    free(out);
    free(mem);
    free(data);
}

/* --- skinning ------------------------------------------------------------------ */

/* Double-precision reference: M = T(t) * R(q) applied to p. */
static void ref_transform(const double q[4], const double t[3], const double p[3], double out[3]) {
    double x = q[0], y = q[1], z = q[2], w = q[3];
    double r[3][3] = {{1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)},
                      {2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)},
                      {2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)}};
    int i;
    for (i = 0; i < 3; i++) out[i] = r[i][0] * p[0] + r[i][1] * p[1] + r[i][2] * p[2] + t[i];
}

static void skin(const plumbob_gmdc *g, const plumbob_mat34 *model, const float *morphs, float *pos, float *nrm) {
    plumbob_mat34 palette[2];
    plumbob_gmdc_skin_job job;
    CHECK_OK(plumbob_gmdc_palette(g, model, palette, (uint32_t)(sizeof palette / sizeof palette[0])));
    memset(&job, 0, sizeof job);
    job.work = skin_work;
    job.gmdc = g;
    job.palette = palette;
    job.palette_count = 2;
    job.morph_weights = morphs;
    job.morph_weight_count = g->morph_count; /* the callers' weight arrays hold morph_count */
    job.positions = pos;
    job.position_stride = 3;
    job.position_count = 4; /* the callers' pos[12] */
    job.normals = nrm;
    job.normal_stride = 4; /* a strided layout */
    job.normal_count = 4;   /* nrm[16] */
    CHECK_OK(plumbob_gmdc_skin(&job));
}

void test_gmdc_skinning(void) {
    unsigned char *buf = t_scratch();
    size_t n = build_gmdc(4, buf, 65536);
    plumbob_gmdc g;
    float pos[12], nrm[16];
    plumbob_mat34 model[2];
    int i, k;
    CHECK_OK(decode(buf, n, &g));
    /* bind pose gives the input back */
    skin(&g, NULL, NULL, pos, nrm);
    for (i = 0; i < 4; i++) {
        CHECK_NEAR(pos[3 * i], (float)(i & 1), 1e-6);
        CHECK_NEAR(pos[3 * i + 2], (float)(i >> 1), 1e-6);
        CHECK_NEAR(nrm[4 * i + 1], 1.0, 1e-6);
    }
    /* explicit bind pose (model = inverse of each inverse bind) gives it back too */
    for (k = 0; k < 2; k++) {
        plumbob_quat id = {0, 0, 0, 1};
        plumbob_vec3 t = {0, (float)k, 0};
        model[k] = plumbob_mat34_from_rt(id, t);
    }
    skin(&g, model, NULL, pos, nrm);
    for (i = 0; i < 4; i++) CHECK_NEAR(pos[3 * i + 2], (float)(i >> 1), 1e-6);
    /* one rigid motion for every joint keeps the mesh rigid (weights sum to 1) */
    {
        plumbob_quat r = {0, 0.38268343f, 0, 0.92387953f}; /* 45 degrees about y */
        plumbob_vec3 t = {1, 2, 3};
        plumbob_mat34 rigid = plumbob_mat34_from_rt(r, t);
        for (k = 0; k < 2; k++) {
            plumbob_quat id = {0, 0, 0, 1};
            plumbob_vec3 b = {0, (float)k, 0};
            plumbob_mat34 bind = plumbob_mat34_from_rt(id, b);
            model[k] = plumbob_mat34_mul(&rigid, &bind);
        }
        skin(&g, model, NULL, pos, nrm);
        for (i = 0; i < 4; i++) {
            plumbob_vec3 p = {(float)(i & 1), 0, (float)(i >> 1)}, want = plumbob_mat34_transform_point(&rigid, p);
            CHECK_NEAR(pos[3 * i], want.x, 1e-5);
            CHECK_NEAR(pos[3 * i + 1], want.y, 1e-5);
            CHECK_NEAR(pos[3 * i + 2], want.z, 1e-5);
            CHECK_NEAR(nrm[4 * i] * nrm[4 * i] + nrm[4 * i + 1] * nrm[4 * i + 1] + nrm[4 * i + 2] * nrm[4 * i + 2], 1.0, 2e-6);
        }
    }
    /* two different joint poses against a double-precision reference:
     * joint 0 turns 90 degrees about z at its bind place; joint 1 lifts by 2 */
    {
        double q0[4] = {0, 0, 0.70710678118654752, 0.70710678118654752}, t0[3] = {0, 0, 0};
        double q1[4] = {0, 0, 0, 1}, t1[3] = {0, 3, 0}; /* bind at y=1, now y=3 */
        plumbob_quat f0 = {0, 0, 0.70710678f, 0.70710678f}, f1 = {0, 0, 0, 1};
        plumbob_vec3 u0 = {0, 0, 0}, u1 = {0, 3, 0};
        model[0] = plumbob_mat34_from_rt(f0, u0);
        model[1] = plumbob_mat34_from_rt(f1, u1);
        skin(&g, model, NULL, pos, nrm);
        for (i = 0; i < 4; i++) {
            /* slot 0 -> joint 1, slot 1 -> joint 0 (the group's bone list) */
            double p[3] = {(double)(i & 1), 0, (double)(i >> 1)}, a[3], b[3], want[3];
            double w_j1 = i < 2 ? 1.0 : 0.75, w_j0 = i < 2 ? 0.0 : 0.25;
            /* palette j = model j * inverse bind j; inverse bind j is T(0,-j,0) */
            double pb0[3] = {p[0], p[1], p[2]}, pb1[3] = {p[0], p[1] - 1, p[2]};
            ref_transform(q0, t0, pb0, a);
            ref_transform(q1, t1, pb1, b);
            for (k = 0; k < 3; k++) want[k] = w_j0 * a[k] + w_j1 * b[k];
            for (k = 0; k < 3; k++) CHECK_NEAR(pos[3 * i + k], want[k], 1e-5);
            for (k = 0; k < 3; k++) t_digest_f32(pos[3 * i + k]);
        }
    }
    /* a morph at weight 1 moves vertex 3 by exactly its delta; 0.5 by half */
    {
        float w1[2] = {0, 1}, wh[2] = {0, 0.5f};
        skin(&g, NULL, w1, pos, nrm);
        CHECK_NEAR(pos[3 * 3 + 1], 0.5, 0.0);
        CHECK_NEAR(pos[3 * 2 + 1], 0.0, 0.0); /* others untouched */
        skin(&g, NULL, wh, pos, nrm);
        CHECK_NEAR(pos[3 * 3 + 1], 0.25, 0.0);
    }
    /* argument checks */
    {
        plumbob_gmdc_skin_job job;
        memset(&job, 0, sizeof job);
        job.work = skin_work;
        job.gmdc = &g;
        job.positions = pos;
        job.position_count = 4;
        job.position_stride = 2;
        CHECK_EQ(plumbob_gmdc_skin(&job), PLUMBOB_ERR_INVALID_ARGUMENT);
        job.position_stride = 3;
        job.group = 1;
        CHECK_EQ(plumbob_gmdc_skin(&job), PLUMBOB_ERR_INVALID_ARGUMENT);
    }
}

/* Version 1 has no group bone lists: slots index the joint table directly. */
void test_gmdc_skinning_version1(void) {
    unsigned char *buf = t_scratch();
    size_t n = build_gmdc(1, buf, 65536);
    plumbob_gmdc g;
    float pos[12], nrm[16];
    plumbob_mat34 model[2];
    plumbob_quat id = {0, 0, 0, 1};
    plumbob_vec3 t0 = {5, 0, 0}, t1 = {0, 1, 0};
    CHECK_OK(decode(buf, n, &g));
    model[0] = plumbob_mat34_from_rt(id, t0); /* joint 0 moves +5 in x */
    model[1] = plumbob_mat34_from_rt(id, t1); /* joint 1 stays at its bind */
    skin(&g, model, NULL, pos, nrm);
    /* vertex 0 uses slot 0 = joint 0 here (version 1): moved by 5 */
    CHECK_NEAR(pos[0], 5.0, 1e-6);
    /* vertex 3: slot 0 (joint 0) weight 0.75, slot 1 (joint 1) weight 0.25 */
    CHECK_NEAR(pos[9], 1.0 + 0.75 * 5.0, 1e-5);
    {
        /* Unskinned vertices (a mesh without joints): positions as stored,
         * normals scaled to unit length, or as stored with
         * PLUMBOB_SKIN_UNNORMALIZED.  Non-unit normals, their unit vectors
         * worked in double precision here. */
        static const float raw[4][3] = {{3, 0, 4}, {0, -2, 0}, {1, 1, 1}, {0.5f, -0.25f, 2}};
        static const double len[4] = {5, 2, 1.7320508075688772, 2.0766559657295187}; /* sqrt(3), sqrt(4.3125) */
        float unit_pos[12], unit_nrm[16];
        unsigned char *nb;
        plumbob_gmdc_skin_job job;
        uint32_t flags, i, c;
        n = build_gmdc(4, buf, 65536);
        CHECK_OK(decode(buf, n, &g));
        nb = buf + (plumbob_gmdc_find_element(&g, 0, PLUMBOB_GMDC_NORMALS, 0)->data - buf);
        for (i = 0; i < 4; i++)
            for (c = 0; c < 3; c++) putf(nb + 12 * i + 4 * c, raw[i][c]);
        g.joint_count = 0; /* no joints: every vertex passes through */
        for (flags = 0; flags <= PLUMBOB_SKIN_UNNORMALIZED; flags += PLUMBOB_SKIN_UNNORMALIZED) {
            memset(&job, 0, sizeof job);
            job.work = skin_work;
            job.gmdc = &g;
            job.positions = unit_pos;
            job.position_stride = 3;
            job.position_count = 4;
            job.normals = unit_nrm;
            job.normal_stride = 4;
            job.normal_count = 4;
            job.flags = flags;
            CHECK_OK(plumbob_gmdc_skin(&job));
            for (i = 0; i < 4; i++) {
                double l = flags ? 1.0 : len[i];
                CHECK_NEAR(unit_pos[3 * i], (float)(i & 1), 0);
                CHECK_NEAR(unit_pos[3 * i + 2], (float)(i >> 1), 0);
                for (c = 0; c < 3; c++) CHECK_NEAR(unit_nrm[4 * i + c], raw[i][c] / l, 2e-7);
            }
        }
    }
}

/* Decode validates bone slots of vertices that faces use; the skinner also
 * visits vertices no face uses, and must not follow their slots past the
 * group's bone list. */
void test_gmdc_skin_unreferenced_vertex(void) {
    unsigned char *buf = t_scratch();
    size_t n = build_gmdc(4, buf, 65536);
    plumbob_gmdc g;
    float pos[12], nrm[16];
    CHECK_OK(decode(buf, n, &g));
    {
        unsigned char *f = buf + (g.groups[0].faces.data - buf);
        unsigned char *ba = buf + (plumbob_gmdc_find_element(&g, 0, PLUMBOB_GMDC_BONE_ASSIGNMENTS, 0)->data - buf);
        f[10] = 1;          /* the last triangle no longer uses vertex 3 */
        ba[12] = 0xF0;      /* vertex 3, slot 0: far beyond the 2-entry bone list */
    }
    CHECK_OK(decode(buf, n, &g));
    skin(&g, NULL, NULL, pos, nrm);
    CHECK(pos[9] == pos[9] && pos[10] == pos[10] && pos[11] == pos[11]); /* finite, no stray read */
    CHECK_NEAR(pos[0], 0.0, 1e-6);
}

/* A group with nothing to skin (a linkage with no elements and no
 * vertices, no faces) skins to nothing, and its mesh's other groups skin
 * as before. */
void test_gmdc_skin_empty_group(void) {
    unsigned char *buf = t_scratch();
    size_t n = build_gmdc(4, buf, 65536);
    plumbob_gmdc g, two;
    plumbob_gmdc_linkage links[2];
    plumbob_gmdc_group groups[2];
    plumbob_mat34 palette[2];
    plumbob_gmdc_skin_job job;
    float pos[12] = {0}, again[12] = {0}, nrm[16];
    CHECK_OK(decode(buf, n, &g));
    skin(&g, NULL, NULL, pos, nrm);
    two = g;
    links[0] = g.linkages[0];
    memset(&links[1], 0, sizeof links[1]);
    groups[0] = g.groups[0];
    memset(&groups[1], 0, sizeof groups[1]);
    groups[1].primitive = PLUMBOB_GMDC_PRIMITIVE_TRIANGLES;
    groups[1].link = 1;
    two.linkages = links;
    two.linkage_count = 2;
    two.groups = groups;
    two.group_count = 2;
    CHECK_OK(plumbob_gmdc_palette(&two, NULL, palette, (uint32_t)(sizeof palette / sizeof palette[0])));
    memset(&job, 0, sizeof job);
    job.work = skin_work;
    job.gmdc = &two;
    job.palette = palette;
    job.palette_count = 2;
    job.positions = again;
    job.position_stride = 3;
    job.position_count = 4;
    job.group = 1;
    CHECK_OK(plumbob_gmdc_skin(&job));
    CHECK(again[0] == 0.0f && again[11] == 0.0f); /* nothing written */
    job.group = 0;
    CHECK_OK(plumbob_gmdc_skin(&job));
    CHECK(memcmp(pos, again, sizeof pos) == 0);
}

/* The readers that take a caller's index check it: nothing is read outside
 * the arrays, and the answers for out-of-range indices are the documented
 * ones (0xFFFFFFFF, 0.0f, the identity joint). */
void test_gmdc_reader_index_checks(void) {
    static const unsigned char idx16[4] = {0x34, 0x12, 0x78, 0x56};
    static const unsigned char floats[12] = {0, 0, 0x80, 0x3F, 0, 0, 0, 0x40, 0, 0, 0x40, 0x40}; /* 1 2 3 */
    static const unsigned char joint[28] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80, 0x3F,
                                            0, 0, 0x20, 0x41, 0, 0, 0, 0, 0, 0, 0, 0}; /* w 1, tx 10 */
    plumbob_gmdc g;
    plumbob_gmdc_indices ix;
    plumbob_gmdc_element e;
    plumbob_quat q;
    plumbob_vec3 t;
    memset(&g, 0, sizeof g);
    g.index_size = 2;
    ix.data = idx16;
    ix.count = 2;
    CHECK_EQ(plumbob_gmdc_index(&g, &ix, 1), 0x5678);
    CHECK_EQ(plumbob_gmdc_index(&g, &ix, 2), 0xFFFFFFFFu);
    CHECK_EQ(plumbob_gmdc_index(&g, &ix, 0xFFFFFFFFu), 0xFFFFFFFFu);
    CHECK_EQ(plumbob_gmdc_index(NULL, &ix, 0), 0xFFFFFFFFu);
    memset(&e, 0, sizeof e);
    e.format = 2;
    e.count = 1;
    e.byte_size = 12;
    e.data = floats;
    CHECK(plumbob_gmdc_float(&e, 0, 2) == 3.0f);
    CHECK(plumbob_gmdc_float(&e, 1, 0) == 0.0f);            /* item past the data */
    CHECK(plumbob_gmdc_float(&e, 0, 3) == 0.0f);            /* component past the format */
    CHECK(plumbob_gmdc_float(&e, 0x55555556u, 0) == 0.0f);  /* i * 3 wraps 32 bits */
    e.format = 4;
    CHECK(plumbob_gmdc_float(&e, 0, 0) == 0.0f);            /* not a float element */
    g.joints = joint;
    g.joint_count = 1;
    plumbob_gmdc_joint(&g, 0, &q, &t);
    CHECK(q.w == 1.0f && t.x == 10.0f);
    plumbob_gmdc_joint(&g, 1, &q, &t);
    CHECK(q.x == 0.0f && q.y == 0.0f && q.z == 0.0f && q.w == 1.0f && t.x == 0.0f && t.y == 0.0f && t.z == 0.0f);
}

void test_gmdc_error_sweep(void) {
    unsigned char *buf = t_scratch();
    size_t n = build_gmdc(4, buf, 65536);
    t_error_sweep("gmdc", buf, n);
    n = build_gmdc(2, buf, 65536);
    t_error_sweep("gmdc", buf, n);
}

/* The synthetic GMDC of a version (1, 2 or 4) for other test files
 * (test_finite.c). */
size_t t_build_gmdc(uint32_t version, unsigned char *out, size_t cap) {
    return build_gmdc(version, out, cap);
}
