/* Skinning as the GMDC issue asks: a skinned cylinder (3 bones, 1 to 4
 * influences, two morphs, per-joint subsets) against a double-precision
 * reference, and every kernel port against the scalar reference. */
#include <string.h>
#include "test.h"
#include "pb_bytes.h"
#include "kernels.h"
#include "pb_math.h"

/* scratch for skin jobs (PLUMBOB_GMDC_SKIN_WORK_SIZE) */
static unsigned char skin_work[PLUMBOB_GMDC_SKIN_WORK_SIZE];

#define RINGS 9
#define SEGS 8
#define NV (RINGS * SEGS)
#define NF ((RINGS - 1) * SEGS * 6)
#define BONES 3

/* Builds the cylinder (version 4) into out: ring r has 1 + r % 4
 * influences over the three bones (weights 3 stored, the 4th implied),
 * morph "bulge" (delta set 0) on rings 2..6, "twist" (delta set 1) on the
 * top ring; each joint's subset mesh holds its ring's points in bone space. */
static size_t build_cylinder(unsigned char *out, size_t cap) {
    static unsigned char verts[NV * 12], norms[NV * 12], assign[NV * 4], weights[NV * 12], mmap[NV * 4];
    static unsigned char bulge[NV * 12], twist[NV * 12], refs[7 * 2], faces[NF * 2], bones[BONES * 2];
    static unsigned char joints[BONES * 28], sub_verts[BONES][SEGS * 12], sub_faces[BONES][6];
    static const uint32_t ids[7] = {PLUMBOB_GMDC_VERTICES, PLUMBOB_GMDC_NORMALS, PLUMBOB_GMDC_BONE_ASSIGNMENTS,
                                    PLUMBOB_GMDC_BONE_WEIGHTS, PLUMBOB_GMDC_MORPH_VERTEX_MAP,
                                    PLUMBOB_GMDC_MORPH_VERTEX_DELTAS, PLUMBOB_GMDC_MORPH_VERTEX_DELTAS};
    static const uint32_t fmts[7] = {2, 2, 4, 2, 4, 2, 2};
    static const float wset[4][3] = {{1, 0, 0}, {0.7f, 0.3f, 0}, {0.5f, 0.3f, 0.2f}, {0.4f, 0.3f, 0.2f}};
    const unsigned char *datas[7] = {verts, norms, assign, weights, mmap, bulge, twist};
    plumbob_gmdc_element els[7];
    plumbob_gmdc_linkage link;
    plumbob_gmdc_group grp;
    plumbob_gmdc_mesh subsets[BONES];
    plumbob_string names[6];
    plumbob_gmdc g;
    uint32_t r, s, i, k, f = 0;
    size_t n = 0;
    /* a regular octagon without libm */
    static const float cs[SEGS] = {1, 0.70710678f, 0, -0.70710678f, -1, -0.70710678f, 0, 0.70710678f};
    static const float sn[SEGS] = {0, 0.70710678f, 1, 0.70710678f, 0, -0.70710678f, -1, -0.70710678f};
    for (r = 0; r < RINGS; r++) {
        float z = 0.25f * (float)r;
        uint32_t infl = 1u + r % 4u;
        for (s = 0; s < SEGS; s++) {
            uint32_t v = r * SEGS + s, a = 0xFFFFFFFFu;
            pb_put_f32le(verts + 12 * v, 0.5f * cs[s]);
            pb_put_f32le(verts + 12 * v + 4, 0.5f * sn[s]);
            pb_put_f32le(verts + 12 * v + 8, z);
            pb_put_f32le(norms + 12 * v, cs[s]);
            pb_put_f32le(norms + 12 * v + 4, sn[s]);
            pb_put_f32le(norms + 12 * v + 8, 0);
            for (k = 0; k < infl; k++) a = (a & ~(0xFFu << (8 * k))) | (((r / 3u + k) % BONES) << (8 * k));
            if (infl == 4) a = (a & 0x00FFFFFFu) | (1u << 24); /* a fourth influence: bone 1 again */
            pb_put_le32(assign + 4 * v, a);
            for (k = 0; k < 3; k++) pb_put_f32le(weights + 12 * v + 4 * k, wset[infl - 1][k]);
            pb_put_le32(mmap + 4 * v, (r >= 2 && r <= 6 ? 1u : 0u) | (r == RINGS - 1 ? 2u << 8 : 0u));
            pb_put_f32le(bulge + 12 * v, 0.25f * cs[s]);
            pb_put_f32le(bulge + 12 * v + 4, 0.25f * sn[s]);
            pb_put_f32le(bulge + 12 * v + 8, 0);
            pb_put_f32le(twist + 12 * v, -0.1f * sn[s]);
            pb_put_f32le(twist + 12 * v + 4, 0.1f * cs[s]);
            pb_put_f32le(twist + 12 * v + 8, 0.05f);
        }
    }
    for (r = 0; r + 1 < RINGS; r++)
        for (s = 0; s < SEGS; s++) {
            uint32_t a = r * SEGS + s, b = r * SEGS + (s + 1) % SEGS;
            uint32_t tri[6] = {a, b, a + SEGS, a + SEGS, b, b + SEGS};
            for (k = 0; k < 6; k++) pb_put_le16(faces + 2 * f++, (uint16_t)tri[k]);
        }
    for (i = 0; i < BONES; i++) {
        /* inverse bind: a quarter turn about z, then down to the bone's height */
        memset(joints + 28 * i, 0, 28);
        pb_put_f32le(joints + 28 * i + 8, i == 1 ? -0.70710678f : 0.0f);
        pb_put_f32le(joints + 28 * i + 12, i == 1 ? 0.70710678f : 1.0f);
        pb_put_f32le(joints + 28 * i + 24, -0.75f * (float)i);
        pb_put_le16(bones + 2 * i, (uint16_t)i);
        /* subset i: a triangle of bone-space points */
        for (s = 0; s < 3; s++) {
            pb_put_f32le(sub_verts[i] + 12 * s, 0.1f * (float)(s + 1));
            pb_put_f32le(sub_verts[i] + 12 * s + 4, -0.2f * (float)s);
            pb_put_f32le(sub_verts[i] + 12 * s + 8, 0.3f + (float)i);
            pb_put_le16(sub_faces[i] + 2 * s, (uint16_t)s);
        }
        subsets[i].vertex_count = 3;
        subsets[i].vertices = sub_verts[i];
        subsets[i].faces.data = sub_faces[i];
        subsets[i].faces.count = 3;
    }
    for (i = 0; i < 7; i++) {
        memset(&els[i], 0, sizeof els[i]);
        els[i].count = NV;
        els[i].identity = ids[i];
        els[i].group = i == 6 ? 1u : 0u;
        els[i].format = fmts[i];
        els[i].set = i == 1 ? 1u : 0u;
        els[i].byte_size = NV * 4u * (fmts[i] == 4 ? 1u : fmts[i] + 1u);
        els[i].data = datas[i];
        pb_put_le16(refs + 2 * i, (uint16_t)i);
    }
    memset(&link, 0, sizeof link);
    link.refs.data = refs;
    link.refs.count = 7;
    link.vertex_count = NV;
    link.active_count = 7;
    memset(&grp, 0, sizeof grp);
    grp.primitive = 2;
    grp.name.ptr = "cylinder";
    grp.name.len = 8;
    grp.faces.data = faces;
    grp.faces.count = NF;
    grp.opacity = 0xFFFFFFFFu;
    grp.bones.data = bones;
    grp.bones.count = BONES;
    for (i = 0; i < 6; i++) names[i].ptr = (i == 3) ? "bulge" : (i == 5) ? "twist" : "";
    for (i = 0; i < 6; i++) names[i].len = (i == 3 || i == 5) ? 5 : 0;
    memset(&g, 0, sizeof g);
    g.version = 4;
    g.index_size = 2;
    g.head.resource_name.ptr = "cylinder_tslocator_gmdc";
    g.head.resource_name.len = 23;
    g.element_count = 7;
    g.elements = els;
    g.linkage_count = 1;
    g.linkages = &link;
    g.group_count = 1;
    g.groups = &grp;
    g.joint_count = BONES;
    g.joints = joints;
    g.morph_count = 3;
    g.morph_names = names;
    g.subset_count = BONES;
    g.subsets = subsets;
    if (plumbob_gmdc_write(&g, out, cap, &n) != PLUMBOB_OK) return 0;
    return n;
}

/* sqrt in double without libm (Newton from the float root). */
static double t_sqrt(double x) {
    double y = plumbob_sqrtf((float)x);
    if (y <= 0) return 0;
    y = 0.5 * (y + x / y);
    return 0.5 * (y + x / y);
}

static void quat_matrix(const double q[4], double m[3][3]) {
    double x = q[0], y = q[1], z = q[2], w = q[3];
    m[0][0] = 1 - 2 * (y * y + z * z); m[0][1] = 2 * (x * y - z * w); m[0][2] = 2 * (x * z + y * w);
    m[1][0] = 2 * (x * y + z * w); m[1][1] = 1 - 2 * (x * x + z * z); m[1][2] = 2 * (y * z - x * w);
    m[2][0] = 2 * (x * z - y * w); m[2][1] = 2 * (y * z + x * w); m[2][2] = 1 - 2 * (x * x + y * y);
}

/* The pose under test: bone 0 stays, bone 1 bends 30 degrees about x and
 * moves, bone 2 turns about z; as quaternion + translation in double. */
static const double pose_q[BONES][4] = {{0, 0, 0, 1}, {0.25881904510252076, 0, 0, 0.9659258262890683},
                                        {0, 0, 0.3826834323650898, 0.9238795325112867}};
static const double pose_t[BONES][3] = {{0, 0, 0}, {0.1, 0, 0.8}, {0, 0.2, 1.5}};

/* Double reference of joint j's skinning matrix palette = model * invbind. */
static void ref_palette(const plumbob_gmdc *g, uint32_t j, double out[3][4]) {
    double mr[3][3], br[3][3], bq[4], bt[3];
    uint32_t a, b;
    plumbob_quat q;
    plumbob_vec3 t;
    plumbob_gmdc_joint(g, j, &q, &t);
    bq[0] = q.x; bq[1] = q.y; bq[2] = q.z; bq[3] = q.w;
    bt[0] = t.x; bt[1] = t.y; bt[2] = t.z;
    {
        double len = bq[0] * bq[0] + bq[1] * bq[1] + bq[2] * bq[2] + bq[3] * bq[3];
        /* the stored quaternion is unit to float precision; one Newton step */
        double inv = 1.5 - 0.5 * len;
        for (a = 0; a < 4; a++) bq[a] *= inv;
    }
    quat_matrix(pose_q[j], mr);
    quat_matrix(bq, br);
    for (a = 0; a < 3; a++) {
        for (b = 0; b < 3; b++) out[a][b] = mr[a][0] * br[0][b] + mr[a][1] * br[1][b] + mr[a][2] * br[2][b];
        out[a][3] = mr[a][0] * bt[0] + mr[a][1] * bt[1] + mr[a][2] * bt[2] + pose_t[j][a];
    }
}

static void float_pose(plumbob_mat34 *model) {
    uint32_t j;
    for (j = 0; j < BONES; j++) {
        plumbob_quat q;
        plumbob_vec3 t;
        q.x = (float)pose_q[j][0]; q.y = (float)pose_q[j][1]; q.z = (float)pose_q[j][2]; q.w = (float)pose_q[j][3];
        t.x = (float)pose_t[j][0]; t.y = (float)pose_t[j][1]; t.z = (float)pose_t[j][2];
        model[j] = plumbob_mat34_from_rt(q, t);
    }
}

static float el_f(const plumbob_gmdc *g, uint32_t id, uint32_t set, uint32_t v, uint32_t k) {
    return plumbob_gmdc_float(plumbob_gmdc_find_element(g, 0, id, set), v, k);
}

static plumbob_result skin_cylinder(const plumbob_gmdc *g, const plumbob_mat34 *model, const float *morphs,
                                    uint32_t flags, float *pos, float *nrm) {
    plumbob_mat34 palette[BONES];
    plumbob_gmdc_skin_job job;
    plumbob_result res = plumbob_gmdc_palette(g, model, palette, (uint32_t)(sizeof palette / sizeof palette[0]));
    if (res != PLUMBOB_OK) return res;
    memset(&job, 0, sizeof job);
    job.work = skin_work;
    job.gmdc = g;
    job.palette = palette;
    job.palette_count = BONES;
    job.morph_weights = morphs;
    job.morph_weight_count = 3; /* the callers' morphs[3] */
    job.position_count = job.normal_count = NV; /* the callers' pos and nrm [NV * 3] */
    job.positions = pos;
    job.position_stride = 3;
    job.normals = nrm;
    job.normal_stride = 3;
    job.flags = flags;
    return plumbob_gmdc_skin(&job);
}

void test_skin_cylinder_reference(void) {
    unsigned char *buf = t_scratch();
    static float pos[NV * 3], nrm[NV * 3];
    float morphs[3] = {0, 0.8f, 0.5f};
    plumbob_mat34 model[BONES];
    plumbob_arena arena;
    plumbob_gmdc g;
    double pal[BONES][3][4];
    uint32_t v, k, c, j;
    size_t n = build_cylinder(buf, 512 * 1024);
    CHECK(n > 0);
    plumbob_arena_init(&arena, t_arena_mem(), 256 * 1024);
    CHECK_OK(plumbob_gmdc_decode(buf, n, &arena, &g));
    CHECK_EQ(g.linkages[0].vertex_count, NV);
    float_pose(model);
    for (j = 0; j < BONES; j++) ref_palette(&g, j, pal[j]);
    CHECK_OK(skin_cylinder(&g, model, morphs, 0, pos, nrm));
    for (v = 0; v < NV; v++) {
        uint32_t a = pb_le32(plumbob_gmdc_find_element(&g, 0, PLUMBOB_GMDC_BONE_ASSIGNMENTS, 0)->data + 4 * v);
        uint32_t ids = pb_le32(plumbob_gmdc_find_element(&g, 0, PLUMBOB_GMDC_MORPH_VERTEX_MAP, 0)->data + 4 * v);
        double p[3], nn[3], want[3] = {0, 0, 0}, wn[3] = {0, 0, 0}, sum = 0, len = 0;
        for (c = 0; c < 3; c++) {
            p[c] = el_f(&g, PLUMBOB_GMDC_VERTICES, 0, v, c);
            nn[c] = el_f(&g, PLUMBOB_GMDC_NORMALS, 0, v, c);
        }
        for (k = 0; k < 2; k++) { /* morph map byte k picks delta set k */
            uint32_t id = (ids >> (8 * k)) & 0xFF;
            if (id)
                for (c = 0; c < 3; c++) p[c] += morphs[id] * el_f(&g, PLUMBOB_GMDC_MORPH_VERTEX_DELTAS, k, v, c);
        }
        for (k = 0; k < 4; k++) {
            uint32_t slot = (a >> (8 * k)) & 0xFF;
            double w;
            if (slot == 0xFF) continue;
            w = k < 3 ? el_f(&g, PLUMBOB_GMDC_BONE_WEIGHTS, 0, v, k) : 1.0 - sum;
            sum += w;
            for (c = 0; c < 3; c++) {
                want[c] += w * (pal[slot][c][0] * p[0] + pal[slot][c][1] * p[1] + pal[slot][c][2] * p[2] + pal[slot][c][3]);
                wn[c] += w * (pal[slot][c][0] * nn[0] + pal[slot][c][1] * nn[1] + pal[slot][c][2] * nn[2]);
            }
        }
        for (c = 0; c < 3; c++) len += wn[c] * wn[c];
        for (c = 0; c < 3; c++) {
            CHECK_NEAR(pos[3 * v + c], want[c], 1e-5);
            CHECK_NEAR(nrm[3 * v + c], wn[c] / t_sqrt(len), 1e-5);
            t_digest_f32(pos[3 * v + c]);
            t_digest_f32(nrm[3 * v + c]);
        }
    }
    /* PLUMBOB_SKIN_UNNORMALIZED: the same positions, normals as the blend
     * gives them (not unit where joints of different rotations blend) */
    {
        static float pos2[NV * 3], nrm2[NV * 3];
        uint32_t shorter = 0;
        CHECK_OK(skin_cylinder(&g, model, morphs, PLUMBOB_SKIN_UNNORMALIZED, pos2, nrm2));
        CHECK(memcmp(pos, pos2, sizeof pos) == 0);
        for (v = 0; v < NV; v++) {
            double l2 = 0, l = 0;
            for (c = 0; c < 3; c++) l2 += (double)nrm2[3 * v + c] * nrm2[3 * v + c];
            l = t_sqrt(l2);
            for (c = 0; c < 3; c++) CHECK_NEAR(nrm2[3 * v + c] / l, nrm[3 * v + c], 1e-5);
            if (l < 0.999) shorter++;
        }
        CHECK(shorter > 0);
        CHECK_OK(skin_cylinder(&g, model, morphs, PLUMBOB_SKIN_UNNORMALIZED | PLUMBOB_SKIN_REFERENCE, pos2, nrm));
        CHECK(memcmp(nrm, nrm2, sizeof nrm) == 0); /* the scalar reference's bits */
        CHECK_EQ(skin_cylinder(&g, model, morphs, 4u, pos2, nrm2), PLUMBOB_ERR_INVALID_ARGUMENT);
    }
    /* every influence count was exercised: rings 0..3 have 1..4 */
    CHECK_EQ(pb_le32(plumbob_gmdc_find_element(&g, 0, PLUMBOB_GMDC_BONE_ASSIGNMENTS, 0)->data + 4 * 3 * SEGS) >> 24, 1);
}

void test_skin_cylinder_bind_rigid_morph(void) {
    unsigned char *buf = t_scratch();
    static float pos[NV * 3], nrm[NV * 3], base[NV * 3];
    plumbob_mat34 model[BONES], rigid;
    plumbob_arena arena;
    plumbob_gmdc g;
    uint32_t v, c, j;
    size_t n = build_cylinder(buf, 512 * 1024);
    plumbob_arena_init(&arena, t_arena_mem(), 256 * 1024);
    CHECK_OK(plumbob_gmdc_decode(buf, n, &arena, &g));
    /* bind pose (identity palette): the input back */
    CHECK_OK(skin_cylinder(&g, NULL, NULL, 0, base, nrm));
    for (v = 0; v < NV; v++)
        for (c = 0; c < 3; c++) {
            CHECK_NEAR(base[3 * v + c], el_f(&g, PLUMBOB_GMDC_VERTICES, 0, v, c), 1e-6);
            CHECK_NEAR(nrm[3 * v + c], el_f(&g, PLUMBOB_GMDC_NORMALS, 0, v, c), 1e-6);
        }
    /* the same rigid motion on every joint (model = rigid * bind): rigid mesh */
    {
        plumbob_quat q = {0.1825742f, 0.3651484f, 0.5477226f, 0.7302967f};
        plumbob_vec3 t = {1, -2, 0.5f};
        rigid = plumbob_mat34_from_rt(q, t);
    }
    for (j = 0; j < BONES; j++) {
        plumbob_quat q;
        plumbob_vec3 t, ti;
        plumbob_mat34 bind;
        plumbob_gmdc_joint(&g, j, &q, &t);
        q = plumbob_quat_normalize(q);
        q.x = -q.x; q.y = -q.y; q.z = -q.z;
        ti = plumbob_quat_rotate(q, t);
        ti.x = -ti.x; ti.y = -ti.y; ti.z = -ti.z;
        bind = plumbob_mat34_from_rt(q, ti);
        model[j] = plumbob_mat34_mul(&rigid, &bind);
    }
    CHECK_OK(skin_cylinder(&g, model, NULL, 0, pos, nrm));
    for (v = 0; v < NV; v++) {
        plumbob_vec3 p = {base[3 * v], base[3 * v + 1], base[3 * v + 2]}, w = plumbob_mat34_transform_point(&rigid, p);
        CHECK_NEAR(pos[3 * v], w.x, 1e-5);
        CHECK_NEAR(pos[3 * v + 1], w.y, 1e-5);
        CHECK_NEAR(pos[3 * v + 2], w.z, 1e-5);
    }
    /* a morph at weight 1 in the bind pose moves by exactly its delta */
    {
        float morphs[3] = {0, 1, 1};
        CHECK_OK(skin_cylinder(&g, NULL, morphs, 0, pos, nrm));
        for (v = 0; v < NV; v++) {
            uint32_t ring = v / SEGS;
            for (c = 0; c < 3; c++) {
                float d = 0;
                if (ring >= 2 && ring <= 6) d = el_f(&g, PLUMBOB_GMDC_MORPH_VERTEX_DELTAS, 0, v, c);
                if (ring == RINGS - 1) d = el_f(&g, PLUMBOB_GMDC_MORPH_VERTEX_DELTAS, 1, v, c);
                if (ring % 4 == 0) /* one influence of weight 1: the blend is exact */
                    CHECK_EQ(pb_bits_from_f32(pos[3 * v + c]), pb_bits_from_f32(base[3 * v + c] + d));
                else
                    CHECK_NEAR(pos[3 * v + c], base[3 * v + c] + d, 1e-6);
            }
        }
    }
}

/* Subset meshes are in bone space: posed, subset j = model j * v. */
void test_skin_subsets(void) {
    unsigned char *buf = t_scratch();
    static float pos[BONES * 3 * 3];
    plumbob_mat34 model[BONES], palette[BONES];
    plumbob_arena arena;
    plumbob_gmdc g;
    uint32_t j, s, c;
    size_t n = build_cylinder(buf, 512 * 1024);
    plumbob_arena_init(&arena, t_arena_mem(), 256 * 1024);
    CHECK_OK(plumbob_gmdc_decode(buf, n, &arena, &g));
    CHECK_EQ(plumbob_gmdc_subset_vertex_count(&g), BONES * 3);
    float_pose(model);
    {   /* the palette's span: one short is output_too_small, nothing written
         * (the sentinel past it too); the exact size works */
        static plumbob_mat34 span[BONES + 1];
        const unsigned char *b = (const unsigned char *)span;
        size_t i;
        CHECK(g.joint_count == BONES);
        memset(span, 0x5A, sizeof span);
        CHECK_EQ(plumbob_gmdc_palette(&g, model, span, BONES - 1u), PLUMBOB_ERR_OUTPUT_TOO_SMALL);
        for (i = 0; i < sizeof span; i++) CHECK_EQ(b[i], 0x5A);
        CHECK_OK(plumbob_gmdc_palette(&g, model, span, BONES));
        for (i = 0; i < sizeof span[0]; i++) CHECK_EQ(b[sizeof span[0] * BONES + i], 0x5A);
    }
    CHECK_OK(plumbob_gmdc_palette(&g, model, palette, (uint32_t)(sizeof palette / sizeof palette[0])));
    CHECK_OK(plumbob_gmdc_skin_subsets(&g, palette, pos, 3, BONES * 3));
    for (j = 0; j < BONES; j++) {
        double m[3][3];
        quat_matrix(pose_q[j], m);
        for (s = 0; s < 3; s++) {
            double p[3];
            for (c = 0; c < 3; c++) p[c] = pb_f32_from_bits(pb_le32(g.subsets[j].vertices + 12 * s + 4 * c));
            for (c = 0; c < 3; c++) {
                double want = m[c][0] * p[0] + m[c][1] * p[1] + m[c][2] * p[2] + pose_t[j][c];
                CHECK_NEAR(pos[9 * j + 3 * s + c], want, 1e-5);
                t_digest_f32(pos[9 * j + 3 * s + c]);
            }
        }
    }
    CHECK_EQ(plumbob_gmdc_skin_subsets(&g, NULL, pos, 3, BONES * 3), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_gmdc_skin_subsets(&g, palette, pos, 2, BONES * 3), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_gmdc_skin_subsets(&g, palette, pos, 3, BONES * 3 - 1u), PLUMBOB_ERR_OUTPUT_TOO_SMALL);
}

/* The compiled port against the scalar reference on random data, bit for
 * bit: every influence count, normals on and off, unused and out-of-range
 * slots, zero-length normals, odd counts and strides. */
/* An independent double-precision reading of the kernel contract in
 * ports/kernels.h, so the port test can fail even where the port is the
 * scalar reference itself: the worst difference from the kernel's output. */
static double skin_contract_error(const pb_skin_range *r) {
    double worst = 0.0;
    uint32_t v, k, j;
    for (v = 0; v < r->count; v++) {
        uint32_t a = pb_le32(r->assignments + 4 * v);
        double w[4] = {0, 0, 0, 0}, used = 0.0, rows[3][4] = {{0}}, pos[3], nrm[3], len2 = 0.0;
        for (k = 0; k < 4; k++) {
            uint32_t slot = a >> (8 * k) & 0xFFu;
            if (slot == 0xFFu) continue;
            if (k < r->weight_count) { w[k] = pb_f32le(r->weights + 4 * (r->weight_count * v + k)); used += w[k]; }
            else if (k == r->weight_count) w[k] = 1.0 - used;
        }
        for (k = 0; k < 4; k++) {
            uint32_t slot = a >> (8 * k) & 0xFFu;
            if (w[k] == 0.0 || slot >= r->slot_count) continue;
            for (j = 0; j < 12; j++) rows[j / 4][j % 4] += w[k] * r->slot_table[PB_SKIN_ENTRY * slot + j];
        }
        for (j = 0; j < 3; j++) {
            double x = pb_f32le(r->positions + 12 * v), y = pb_f32le(r->positions + 12 * v + 4),
                   z = pb_f32le(r->positions + 12 * v + 8), d;
            pos[j] = rows[j][0] * x + rows[j][1] * y + rows[j][2] * z + rows[j][3];
            d = pos[j] - r->out_positions[r->position_stride * v + j];
            if (d < 0) d = -d;
            if (d > worst) worst = d;
        }
        if (!r->normals) continue;
        for (j = 0; j < 3; j++) {
            double x = pb_f32le(r->normals + 12 * v), y = pb_f32le(r->normals + 12 * v + 4),
                   z = pb_f32le(r->normals + 12 * v + 8);
            nrm[j] = rows[j][0] * x + rows[j][1] * y + rows[j][2] * z;
            len2 += nrm[j] * nrm[j];
        }
        if (r->normalize && len2 < 1e-6) continue; /* near-zero normals: direction undefined */
        for (j = 0; j < 3; j++) {
            double d = (r->normalize ? nrm[j] / t_sqrt(len2) : nrm[j]) - r->out_normals[r->normal_stride * v + j];
            if (d < 0) d = -d;
            if (d > worst) worst = d;
        }
    }
    return worst;
}

/* The reference into a and the port into b (both pre-filled with 0xAB),
 * positions at the start and normals from floats_before_normals on. */
static void skin_both(pb_skin_range *r, float *a, float *b, size_t floats, size_t floats_before_normals) {
    memset(a, 0xAB, sizeof(float) * floats);
    memset(b, 0xAB, sizeof(float) * floats);
    r->out_positions = a;
    r->out_normals = r->normals ? a + floats_before_normals : NULL;
    pb_skin_scalar(r);
    r->out_positions = b;
    r->out_normals = r->normals ? b + floats_before_normals : NULL;
    PB_SKIN(r);
}

#define SP_OUT_FLOATS (4096u * 7u)
void test_skin_port_matches_scalar(void) {
    /* about 420 KiB: in the shared work memory, not statics (bare metal's RAM
     * holds the code, the statics, the heap and the stack in 4 MiB) */
    float *rows_mem = (float *)(void *)t_work();
    static uint16_t offsets[256];
    unsigned char *in = (unsigned char *)(rows_mem + 256 * PB_SKIN_ENTRY + 4);
    float *out_a = (float *)(void *)(in + (4096 * 12 * 2 + 4096 * 4 + 4096 * 12 + 8)), *out_b = out_a + SP_OUT_FLOATS;
    float *rows = (float *)(void *)(((uintptr_t)rows_mem + 15u) & ~(uintptr_t)15u);
    uint32_t seed = 0x5EEDu, i, round;
    for (round = 0; round < 16; round++) {
        pb_skin_range r;
        uint32_t count = 1 + t_rand(&seed) % 600, wc = round % 4, normals = (round / 4) % 2;
        /* float-aligned, or not, as element data may be (NEON loads differ) */
        unsigned char *p = in + (4u - (uintptr_t)in % 4u) % 4u + round / 8u;
        memset(&r, 0, sizeof r);
        r.normalize = 1;
        r.count = count;
        r.positions = p;
        r.normals = normals ? p + 12 * count : NULL;
        r.assignments = p + 24 * count;
        r.weights = wc ? p + 28 * count : NULL; /* one influence: no weight stream at all */
        r.weight_count = wc;
        r.slot_count = 1 + t_rand(&seed) % 40;
        r.slot_table = rows;
        pb_skin_slot_offsets(offsets, r.slot_count);
        r.slot_offset = offsets;
        r.position_stride = 3 + round % 3;
        r.normal_stride = 4;
        for (i = 0; i < 256; i++) { /* drawn column by column */
            float m[12];
            uint32_t e;
            for (e = 0; e < 12 && i < 255; e++) m[e % 3 * 4 + e / 3] = (float)((int)(t_rand(&seed) % 2001) - 1000) / 500.0f;
            pb_skin_put_entry(rows + PB_SKIN_ENTRY * i, i < 255 ? m : NULL);
        }
        for (i = 0; i < count * 6; i++) {
            float f = (float)((int)(t_rand(&seed) % 2001) - 1000) / 250.0f;
            if (i >= count * 3 && i % 3 == 0 && (i / 3) % 37 == 5) f = 0.0f; /* some zero normals */
            pb_put_f32le(p + 4 * i, (i >= count * 3 && (i / 3) % 37 == 5) ? 0.0f : f);
        }
        for (i = 0; i < count; i++) {
            uint32_t a = 0, k;
            for (k = 0; k < 4; k++) {
                uint32_t s = t_rand(&seed) % 64;
                if (s >= 48) s = 0xFF;      /* unused */
                else if (s >= 44) s = 200;  /* beyond the slot table: adds nothing */
                a |= s << (8 * k);
            }
            pb_put_le32(p + 24 * count + 4 * i, a);
            for (k = 0; k < 3; k++)
                pb_put_f32le(p + 28 * count + 4 * (wc * i + k), (float)(t_rand(&seed) % 1000) / 2000.0f);
        }
        skin_both(&r, out_a, out_b, SP_OUT_FLOATS, r.position_stride * count);
        CHECK(memcmp(out_a, out_b, SP_OUT_FLOATS * sizeof(float)) == 0); /* the twin: same bits */
        CHECK_NEAR(skin_contract_error(&r), 0.0, 1e-4); /* both: the contract */
        for (i = 0; i < (r.position_stride + (normals ? 4u : 0u)) * count; i++) t_digest_f32(out_b[i]);
        if (normals) { /* normals as the blend gives them: the same bits again, and the contract */
            r.normalize = 0;
            skin_both(&r, out_a, out_b, SP_OUT_FLOATS, r.position_stride * count);
            CHECK(memcmp(out_a, out_b, SP_OUT_FLOATS * sizeof(float)) == 0);
            CHECK_NEAR(skin_contract_error(&r), 0.0, 1e-4);
        }
    }
}

/* One-matrix blocks load a point as 16 bytes, but for the streams' last
 * vertex: here every stream ends where its own array does, so the
 * sanitizer stages (ASan's redzones around globals) see any read past it.
 * Rigid (one influence) and one-weight meshes, 1 to 9 vertices, with and
 * without normals; the same bits as the reference. */
void test_skin_port_stream_ends(void) {
    static float rows_mem[256 * PB_SKIN_ENTRY + 16];
    static uint16_t offsets[256];
    static unsigned char pos[9 * 12], nrm[9 * 12], assign[9 * 4], weights[9 * 4];
    static float out_a[9 * 7], out_b[9 * 7];
    float *rows = (float *)(void *)(((uintptr_t)rows_mem + 63u) & ~(uintptr_t)63u);
    uint32_t seed = 0xE5D5u, i, count, wc, normals;
    for (i = 0; i < 256; i++) {
        float m[12];
        uint32_t e;
        for (e = 0; e < 12; e++) m[e] = (float)((int)(t_rand(&seed) % 2001) - 1000) / 500.0f;
        pb_skin_put_entry(rows + PB_SKIN_ENTRY * i, i < 255 ? m : NULL);
    }
    pb_skin_slot_offsets(offsets, 8);
    for (count = 1; count <= 9; count++)
        for (wc = 0; wc < 2; wc++)
            for (normals = 0; normals < 2; normals++) {
                pb_skin_range r;
                size_t n = 9u - count; /* the streams start here, so they end with their arrays */
                memset(&r, 0, sizeof r);
                for (i = 0; i < 9u * 3u; i++) {
                    pb_put_f32le(pos + 4 * i, (float)((int)(t_rand(&seed) % 2001) - 1000) / 250.0f);
                    pb_put_f32le(nrm + 4 * i, (float)((int)(t_rand(&seed) % 2001) - 1000) / 250.0f);
                }
                for (i = 0; i < 9; i++) {
                    pb_put_le32(assign + 4 * i, 0xFFFFFF00u | t_rand(&seed) % 8u); /* the first slot only */
                    pb_put_f32le(weights + 4 * i, i % 2 ? 1.0f : 0.75f);          /* rigid and lone runs */
                }
                r.count = count;
                r.positions = pos + 12 * n;
                r.normals = normals ? nrm + 12 * n : NULL;
                r.assignments = assign + 4 * n;
                r.weights = wc ? weights + 4 * n : NULL;
                r.weight_count = wc;
                r.slot_count = 8;
                r.slot_table = rows;
                r.slot_offset = offsets;
                r.position_stride = 3;
                r.normal_stride = 4;
                r.normalize = count % 2;
                skin_both(&r, out_a, out_b, sizeof out_a / sizeof out_a[0], 3u * count);
                CHECK(memcmp(out_a, out_b, sizeof out_a) == 0);
                CHECK_NEAR(skin_contract_error(&r), 0.0, 1e-4);
                for (i = 0; i < 7u * count; i++) t_digest_f32(out_b[i]);
            }
}

/* Equal bits, or both NaN: which NaN's payload survives where two meet
 * depends on operand order, which kernels.h leaves to each port. */
static int same_or_both_nan(const float *a, const float *b, size_t n) {
    size_t i;
    for (i = 0; i < n; i++)
        if (memcmp(&a[i], &b[i], sizeof(float)) != 0 && !(a[i] != a[i] && b[i] != b[i])) return 0;
    return 1;
}

/* The port against the reference on values no mesh should hold but any
 * file may: +-0, infinities, NaN, subnormals (not on ARMv7 NEON, which
 * flushes them) and huge values in positions,
 * normals, weights and matrices, with strides 6 and 7 (the AVX2 build's
 * 256-bit body included), blended and rigid, normalized or not. */
void test_skin_port_special_values(void) {
    static const float odd[] = {0.0f, -0.0f, 1.0f / 0.0f, -1.0f / 0.0f, 3e38f, -3e38f, 0.5f, 1.0f, -1.0f,
                                0.0f / 0.0f, 1e-40f, -1e-40f}; /* subnormals last */
    static float rows_mem[256 * PB_SKIN_ENTRY + 4];
    static uint16_t offsets[256];
    static unsigned char in[301 * 40 + 4];
    static float out_a[301 * 7 * 2], out_b[301 * 7 * 2];
    float *rows = (float *)(void *)(((uintptr_t)rows_mem + 15u) & ~(uintptr_t)15u);
    uint32_t seed = 0x0DDu, i, round, n = (uint32_t)(sizeof odd / sizeof odd[0]);
#if defined(PLUMBOB_PORT_NEON) && !defined(__aarch64__)
    n -= 2; /* ARMv7 NEON flushes subnormals (kernels.h): leave them out there */
#endif
    for (round = 0; round < 24; round++) {
        pb_skin_range r;
        uint32_t count = 37u + round * 11u, wc = round % 4;
        unsigned char *p = in + round % 4u;
        memset(&r, 0, sizeof r);
        r.normalize = (round / 4) % 2 == 0;
        r.count = count;
        r.positions = p;
        r.normals = p + 12 * count;
        r.assignments = p + 24 * count;
        r.weights = wc ? p + 28 * count : NULL;
        r.weight_count = wc;
        r.slot_count = 8;
        r.slot_table = rows;
        pb_skin_slot_offsets(offsets, r.slot_count);
        r.slot_offset = offsets;
        r.position_stride = 6 + round % 2;
        r.normal_stride = 7 - round % 2;
        for (i = 0; i < 256; i++) { /* mostly tame matrices, an odd value now and then */
            float m[12];
            uint32_t e;
            for (e = 0; e < 12; e++)
                m[e] = t_rand(&seed) % 8 ? (float)((int)(t_rand(&seed) % 2001) - 1000) / 500.0f : odd[t_rand(&seed) % n];
            pb_skin_put_entry(rows + PB_SKIN_ENTRY * i, i < 255 ? m : NULL);
        }
        for (i = 0; i < count * 6; i++)
            pb_put_f32le(p + 4 * i, t_rand(&seed) % 4 ? (float)((int)(t_rand(&seed) % 2001) - 1000) / 250.0f
                                                     : odd[t_rand(&seed) % n]);
        for (i = 0; i < count; i++) {
            uint32_t a = 0, k;
            for (k = 0; k < 4; k++) {
                uint32_t sl = t_rand(&seed) % 12;
                a |= (sl >= 10 ? 0xFFu : sl) << (8 * k); /* unused, in the table, or past it */
            }
            if (round >= 12 && i % 40 < 33) a |= 0xFFFFFF00u; /* runs of rigid vertices */
            pb_put_le32(p + 24 * count + 4 * i, a);
            for (k = 0; k < 3; k++)
                pb_put_f32le(p + 28 * count + 4 * (wc * i + k),
                             t_rand(&seed) % 6 ? (float)(t_rand(&seed) % 1000) / 2000.0f : odd[t_rand(&seed) % n]);
        }
        skin_both(&r, out_a, out_b, sizeof out_a / sizeof out_a[0], r.position_stride * count);
        CHECK(same_or_both_nan(out_a, out_b, sizeof out_a / sizeof out_a[0]));
    }
}

/* The SIMD kernels store a blended group of four with 16-byte stores where
 * the output layout allows: positions and normals interleaved in one
 * stream (normals 3 floats after the positions, both strides 6), or packed
 * triples (stride 3, normals in their own array or none).  Every influence
 * count, normalized or not, group tails and block edges (1 to 70
 * vertices), unused and out-of-range slots and odd values now and then:
 * the reference's bits, and nothing written past the last vertex. */
void test_skin_port_layouts(void) {
    static const float odd[] = {0.0f, -0.0f, 1.0f / 0.0f, -1.0f / 0.0f, 3e38f, 0.5f, 1.0f, 0.0f / 0.0f};
    static float rows_mem[256 * PB_SKIN_ENTRY + 4];
    static uint16_t offsets[256];
    static unsigned char in[70 * 40 + 4];
    static float out_a[70 * 6 + 8], out_b[70 * 6 + 8];
    float *rows = (float *)(void *)(((uintptr_t)rows_mem + 15u) & ~(uintptr_t)15u);
    uint32_t seed = 0x1A7u, i, round;
    for (i = 0; i < 256; i++) {
        float m[12];
        uint32_t e;
        for (e = 0; e < 12; e++)
            m[e] = t_rand(&seed) % 16 ? (float)((int)(t_rand(&seed) % 2001) - 1000) / 500.0f : odd[t_rand(&seed) % 8];
        pb_skin_put_entry(rows + PB_SKIN_ENTRY * i, i < 255 ? m : NULL);
    }
    pb_skin_slot_offsets(offsets, 12);
    for (round = 0; round < 96; round++) {
        pb_skin_range r;
        uint32_t layout = round % 3, wc = round / 3 % 4, count = 1u + (round * 29u) % 70u, normals = layout != 2;
        size_t floats;
        memset(&r, 0, sizeof r);
        r.normalize = round / 12 % 2;
        r.count = count;
        r.positions = in;
        r.normals = normals ? in + 12 * count : NULL;
        r.assignments = in + 24 * count;
        r.weights = wc ? in + 28 * count : NULL;
        r.weight_count = wc;
        r.slot_count = 12;
        r.slot_table = rows;
        r.slot_offset = offsets;
        for (i = 0; i < count * 6; i++)
            pb_put_f32le(in + 4 * i, t_rand(&seed) % 16 ? (float)((int)(t_rand(&seed) % 2001) - 1000) / 250.0f
                                                      : odd[t_rand(&seed) % 8]);
        for (i = 0; i < count; i++) {
            uint32_t a = 0, k;
            for (k = 0; k < 4; k++) {
                uint32_t sl = t_rand(&seed) % 16;
                a |= (sl >= 14 ? 0xFFu : sl) << (8 * k); /* unused, in the table, or past it */
            }
            pb_put_le32(in + 24 * count + 4 * i, a);
            for (k = 0; k < 3; k++)
                pb_put_f32le(in + 28 * count + 4 * (wc * i + k),
                             t_rand(&seed) % 12 ? (float)(t_rand(&seed) % 1000) / 2000.0f : odd[t_rand(&seed) % 8]);
        }
        if (layout == 0) { /* interleaved: p n p n ... */
            r.position_stride = r.normal_stride = 6;
            skin_both(&r, out_a, out_b, sizeof out_a / sizeof out_a[0], 3);
            floats = 6u * count;
        } else { /* packed: positions, then normals in their own array */
            r.position_stride = r.normal_stride = 3;
            skin_both(&r, out_a, out_b, sizeof out_a / sizeof out_a[0], 3u * count);
            floats = (normals ? 6u : 3u) * count;
        }
        CHECK(same_or_both_nan(out_a, out_b, sizeof out_a / sizeof out_a[0]));
        CHECK(pb_le32((const unsigned char *)&out_b[floats]) == 0xABABABABu); /* nothing past the last vertex */
        for (i = 0; i < floats; i++) t_digest_f32(out_b[i] == out_b[i] ? out_b[i] : 0.0f);
    }
}

/* Only the first slot used (the GMDC page's "single weight section", or
 * a rigid run in a 3- or 4-slot mesh): the SIMD kernels skip the other
 * terms of a block whose vertices all leave them unused, adding +0 as the
 * reference does, and skip the multiply too where every weight of the
 * block is exactly 1.  Runs of such vertices, blocks that mix them with
 * two-weight vertices, a tail, weights of 0, negative and infinite ones
 * (where t0 + 0 turns a -0 into +0), a non-1 weight anywhere in a block,
 * and matrices with -0 (stored as +0): the same bits as the reference, with
 * 2, 3 and 4 slots, normals or not, normalized or not. */
void test_skin_one_weight_runs(void) {
    static float rows_mem[256 * PB_SKIN_ENTRY + 4];
    static uint16_t offsets[256];
    static unsigned char in[267 * 40 + 4];
    static float out_a[267 * 6], out_b[267 * 6];
    float *rows = (float *)(void *)(((uintptr_t)rows_mem + 15u) & ~(uintptr_t)15u);
    uint32_t seed = 0x1E0Eu, i, pass, count = 267, wc, k;
    pb_skin_range r;
    for (i = 0; i < 256; i++) { /* -0 elements: pb_skin_put_entry stores them as +0 */
        float m[12];
        uint32_t e;
        for (e = 0; e < 12; e++) {
            int v = (int)(t_rand(&seed) % 9) - 4;
            m[e] = v == 0 ? -0.0f : (float)v * 0.25f;
        }
        pb_skin_put_entry(rows + PB_SKIN_ENTRY * i, i < 255 ? m : NULL);
    }
    pb_skin_slot_offsets(offsets, 12);
    /* two, three and four slots (one to three stored weights, those after
     * the first unused wherever the second is) */
    for (wc = 1; wc <= 3; wc++) {
        for (i = 0; i < count; i++) {
            /* vertices 0..99 and 150..: second slot unused; 100..149 two
             * weights; from 150 every first weight exactly 1 (rigid blocks,
             * where the kernels skip the multiply), one first slot unused
             * and one past the table among them, except one weight of 0.75
             * third in a group of four (194) and one in a range's last three
             * (265), each of which makes its block one-weight, not rigid;
             * vertex 40 has no slot at all and an infinite weight, which
             * weighs 0 */
            uint32_t lone = i < 100 || i >= 150, s0 = t_rand(&seed) % 12, s1 = lone ? 0xFFu : t_rand(&seed) % 12;
            int w = (int)(t_rand(&seed) % 5) - 1; /* -1 .. 3 quarters, 0 among them */
            float w0 = i % 5 == 0 || i >= 150 ? 1.0f : (float)w * 0.25f;
            if (i == 170 || i == 40) s0 = 0xFFu;
            if (i == 180) s0 = 200u;
            if (i == 194 || i == 265) w0 = 0.75f;
            if (i == 40) w0 = 1e30f * 1e30f; /* +inf */
            pb_put_le32(in + 24 * count + 4 * i, 0xFFFF0000u | s1 << 8 | s0);
            pb_put_f32le(in + 28 * count + 4 * wc * i, w0);
            for (k = 1; k < wc; k++) pb_put_f32le(in + 28 * count + 4 * (wc * i + k), 0.375f); /* unused: weigh 0 */
            pb_put_f32le(in + 12 * i, (float)(i % 7) - 3.0f);
            pb_put_f32le(in + 12 * i + 4, i % 3 == 0 ? -0.0f : 0.5f);
            pb_put_f32le(in + 12 * i + 8, 1.0f);
            pb_put_f32le(in + 12 * count + 12 * i, 0.0f);
            pb_put_f32le(in + 12 * count + 12 * i + 4, i % 2 ? 1.0f : -0.0f);
            pb_put_f32le(in + 12 * count + 12 * i + 8, 0.5f);
        }
        /* passes: positions only; normals normalized; unnormalized;
         * normalized again from vertex 1, so every block straddles the runs
         * differently */
        for (pass = 0; pass < 4; pass++) {
            uint32_t o = pass == 3; /* first vertex */
            memset(&r, 0, sizeof r);
            r.count = count - o;
            r.positions = in + 12 * o;
            r.normals = pass ? in + 12 * count + 12 * o : NULL;
            r.assignments = in + 24 * count + 4 * o;
            r.weights = in + 28 * count + 4 * wc * o;
            r.weight_count = wc;
            r.slot_count = 12;
            r.slot_table = rows;
            r.slot_offset = offsets;
            r.position_stride = 3;
            r.normal_stride = 3;
            r.normalize = pass != 2;
            memset(out_a, 0xAB, sizeof out_a);
            memset(out_b, 0xAB, sizeof out_b);
            r.out_positions = out_a;
            r.out_normals = out_a + 3 * count;
            pb_skin_scalar(&r);
            r.out_positions = out_b;
            r.out_normals = out_b + 3 * count;
            PB_SKIN(&r);
            CHECK(memcmp(out_a, out_b, sizeof out_a) == 0);
            for (i = 0; i < 6 * count; i++) t_digest_f32(out_b[i]);
            if (pass == 0) { /* vertex 0 by hand: weight 1, position (-3, -0, 1), rows + 0 */
                const float *m = rows + PB_SKIN_ENTRY * in[24 * count];
                float c[4];
                for (i = 0; i < 4; i++) c[i] = 1.0f * m[i] + 0.0f;
                CHECK(out_b[0] == ((c[0] * -3.0f + c[1] * -0.0f) + c[2] * 1.0f) + c[3]);
            }
            if (pass == 1) { /* vertex 160, rigid: its entry as it is, the normal normalized */
                const float *m = rows + PB_SKIN_ENTRY * in[24 * count + 4 * 160];
                float p[3], n[3], inv;
                const unsigned char *pp = in + 12 * 160, *nn = in + 12 * count + 12 * 160;
                for (i = 0; i < 3; i++) {
                    p[i] = ((m[4 * i] * pb_f32le(pp) + m[4 * i + 1] * pb_f32le(pp + 4)) + m[4 * i + 2] * pb_f32le(pp + 8)) +
                           m[4 * i + 3];
                    n[i] = (m[4 * i] * pb_f32le(nn) + m[4 * i + 1] * pb_f32le(nn + 4)) + m[4 * i + 2] * pb_f32le(nn + 8);
                }
                inv = pb_normal_scale((n[0] * n[0] + n[1] * n[1]) + n[2] * n[2]);
                for (i = 0; i < 3; i++) {
                    CHECK(out_b[3 * 160 + i] == p[i]);
                    CHECK(out_b[3 * count + 3 * 160 + i] == n[i] * inv);
                }
            }
        }
    }
}

static void gmdc_skin_spans(void);
static void skin_neutral_job(void);

/* Skinning in pieces (as worker threads would: disjoint vertex ranges into
 * one output, each with its own work memory) gives the same bits as one job
 * over the whole group, on the straight path (no morphs) and the staged one
 * (morphs; ranges not aligned to the staging blocks); vertices outside a
 * range are not touched; ranges past the end and a missing work area are
 * refused.  Then the spans' checks and the format-neutral job. */
void test_skin_vertex_ranges(void) {
    unsigned char *buf = t_scratch();
    static float whole_p[NV * 3], whole_n[NV * 3], part_p[NV * 3], part_n[NV * 3];
    static unsigned char work2[PLUMBOB_GMDC_SKIN_WORK_SIZE + 7];
    static const uint32_t cuts[][2] = {{0, 7}, {7, 43}, {50, 0}, {43, 7}}; /* first, count (0: to the end) */
    float morphs[3] = {0, 0.8f, 0.5f};
    plumbob_mat34 model[BONES], palette[BONES];
    plumbob_arena arena;
    plumbob_gmdc g;
    plumbob_gmdc_skin_job job;
    uint32_t pass, c, v;
    size_t n = build_cylinder(buf, 512 * 1024);
    plumbob_arena_init(&arena, t_arena_mem(), 256 * 1024);
    CHECK_OK(plumbob_gmdc_decode(buf, n, &arena, &g));
    float_pose(model);
    CHECK_OK(plumbob_gmdc_palette(&g, model, palette, (uint32_t)(sizeof palette / sizeof palette[0])));
    for (pass = 0; pass < 2; pass++) {
        memset(&job, 0, sizeof job);
        job.gmdc = &g;
        job.palette = palette;
        job.palette_count = BONES;
        job.morph_weights = pass ? morphs : NULL;
        job.morph_weight_count = 3;
        job.position_stride = job.normal_stride = 3;
        job.position_count = job.normal_count = NV;
        job.work = skin_work;
        job.positions = whole_p;
        job.normals = whole_n;
        CHECK_OK(plumbob_gmdc_skin(&job));
        memset(part_p, 0xCD, sizeof part_p);
        memset(part_n, 0xCD, sizeof part_n);
        job.positions = part_p;
        job.normals = part_n;
        for (c = 0; c < 4; c++) {
            job.first_vertex = cuts[c][0];
            job.vertex_count = cuts[c][1];
            job.work = c % 2 ? (void *)(work2 + c) : (void *)skin_work; /* any alignment */
            CHECK_OK(plumbob_gmdc_skin(&job));
            if (c == 0) /* only [0, 7) so far: the rest untouched */
                for (v = 7 * 3; v < NV * 3; v++) CHECK_EQ(((unsigned char *)&part_p[v])[0], 0xCD);
        }
        CHECK(memcmp(whole_p, part_p, sizeof whole_p) == 0);
        CHECK(memcmp(whole_n, part_n, sizeof whole_n) == 0);
        for (v = 0; v < NV * 3; v++) t_digest_f32(part_p[v]);
    }
    job.first_vertex = NV;
    job.vertex_count = 0;
    CHECK_OK(plumbob_gmdc_skin(&job)); /* an empty range at the end */
    job.vertex_count = 1;
    CHECK_EQ(plumbob_gmdc_skin(&job), PLUMBOB_ERR_INVALID_ARGUMENT);
    job.first_vertex = NV + 1;
    job.vertex_count = 0;
    CHECK_EQ(plumbob_gmdc_skin(&job), PLUMBOB_ERR_INVALID_ARGUMENT);
    job.first_vertex = 5;
    job.vertex_count = 0xFFFFFFFFu; /* first + count wraps */
    CHECK_EQ(plumbob_gmdc_skin(&job), PLUMBOB_ERR_INVALID_ARGUMENT);
    job.vertex_count = 1;
    job.work = NULL;
    CHECK_EQ(plumbob_gmdc_skin(&job), PLUMBOB_ERR_INVALID_ARGUMENT);
    /* the spans of the GMDC job and the format-neutral job beneath it
     * (checks only: the run digest is the one it always was) */
    gmdc_skin_spans();
    skin_neutral_job();
}

/* The format-neutral job on a hand-built mesh: interleaved streams (36
 * bytes a vertex: position, normal, four joint bytes, two stored weights
 * and the third implied), a slot map, unused influences; against a double
 * reference, and the packed layout, the reference kernel and split ranges
 * give the same bits.  Output spans one short are refused, untouched. */
#define NJ_V 10u
#define NJ_STRIDE 36u
static void skin_neutral_job(void) {
    static unsigned char mesh_bytes[NJ_V * NJ_STRIDE], packed[NJ_V * 40u];
    static float out_a[NJ_V * 3 + 3], nrm_a[NJ_V * 4 + 4], out_b[NJ_V * 3 + 3], nrm_b[NJ_V * 4 + 4];
    static const uint16_t slot_joint[4] = {3, 2, 1, 0};
    plumbob_mat34 palette[4];
    plumbob_skin_mesh m, p;
    plumbob_skin_job job;
    uint32_t seed = 0x5C1Du, v, k, c;
    for (k = 0; k < 4; k++) {
        plumbob_quat q;
        plumbob_vec3 t;
        q.x = (float)(t_rand(&seed) % 200) / 100.0f - 1.0f;
        q.y = (float)(t_rand(&seed) % 200) / 100.0f - 1.0f;
        q.z = (float)(t_rand(&seed) % 200) / 100.0f - 1.0f;
        q.w = 1.0f;
        t.x = (float)k; t.y = 0.5f * (float)k; t.z = -1.0f;
        palette[k] = plumbob_mat34_from_rt(plumbob_quat_normalize(q), t);
    }
    for (v = 0; v < NJ_V; v++) {
        unsigned char *b = mesh_bytes + NJ_STRIDE * v;
        float w0 = (float)(t_rand(&seed) % 50) / 100.0f, w1 = (float)(t_rand(&seed) % 40) / 100.0f;
        for (c = 0; c < 3; c++) {
            pb_put_f32le(b + 4u * c, (float)(t_rand(&seed) % 400) / 100.0f - 2.0f);
            pb_put_f32le(b + 12u + 4u * c, c == 1 ? 1.0f : (float)(t_rand(&seed) % 100) / 100.0f);
        }
        for (c = 0; c < 4; c++) b[24u + c] = (unsigned char)(t_rand(&seed) % 4u);
        if (v % 4 == 1) b[24u + 1] = 0xFFu; /* an unused influence weighs 0 */
        if (v % 5 == 2) b[24u + 2] = 0xFFu; /* the implied one unused */
        pb_put_f32le(b + 28u, w0);
        pb_put_f32le(b + 32u, w1);
        /* the packed copy: positions, normals, joints, weights, each a stream */
        memcpy(packed + 12u * v, b, 12u);
        memcpy(packed + 12u * NJ_V + 12u * v, b + 12u, 12u);
        memcpy(packed + 24u * NJ_V + 4u * v, b + 24u, 4u);
        memcpy(packed + 28u * NJ_V + 8u * v, b + 28u, 8u);
    }
    memset(&m, 0, sizeof m);
    m.vertex_count = NJ_V;
    m.positions = mesh_bytes;
    m.normals = mesh_bytes + 12u;
    m.joints = mesh_bytes + 24u;
    m.weights = mesh_bytes + 28u;
    m.position_stride = m.normal_stride = m.joint_stride = m.weight_stride = NJ_STRIDE;
    m.weight_count = 2;
    m.weight_mode = PLUMBOB_SKIN_WEIGHTS_IMPLIED_LAST;
    m.slot_count = 4;
    m.slot_joint = slot_joint;
    memset(&job, 0, sizeof job);
    job.mesh = &m;
    job.palette = palette;
    job.palette_count = 4;
    job.positions = out_a;
    job.position_stride = 3;
    job.position_count = NJ_V;
    job.normals = nrm_a;
    job.normal_stride = 4;
    job.normal_count = NJ_V;
    job.work = skin_work;
    /* spans one short: refused, nothing written, the sentinel past them too */
    memset(out_a, 0x5A, sizeof out_a);
    memset(nrm_a, 0x5A, sizeof nrm_a);
    job.position_count = NJ_V - 1u;
    CHECK_EQ(plumbob_skin(&job), PLUMBOB_ERR_OUTPUT_TOO_SMALL);
    job.position_count = NJ_V;
    job.normal_count = NJ_V - 1u;
    CHECK_EQ(plumbob_skin(&job), PLUMBOB_ERR_OUTPUT_TOO_SMALL);
    job.normal_count = NJ_V;
    for (v = 0; v < sizeof out_a; v++) CHECK_EQ(((unsigned char *)out_a)[v], 0x5A);
    for (v = 0; v < sizeof nrm_a; v++) CHECK_EQ(((unsigned char *)nrm_a)[v], 0x5A);
    /* the exact sizes work; the sentinel past them stays */
    CHECK_OK(plumbob_skin(&job));
    for (v = 3 * NJ_V * 4; v < sizeof out_a; v++) CHECK_EQ(((unsigned char *)out_a)[v], 0x5A);
    for (v = 4 * NJ_V * 4 - 4; v < sizeof nrm_a; v++) CHECK_EQ(((unsigned char *)nrm_a)[v], 0x5A);
    for (v = 0; v < NJ_V; v++) {
        const unsigned char *b = mesh_bytes + NJ_STRIDE * v;
        double M[3][4] = {{0}}, sum = 0, pp[3], nn[3], len = 0;
        for (k = 0; k < 3; k++) {
            uint32_t slot = b[24u + k];
            double w;
            int r, cc;
            if (slot == 0xFFu) continue;
            w = k < 2 ? (double)pb_f32le(b + 28u + 4u * k) : 1.0 - sum;
            if (k < 2) sum += w;
            for (r = 0; r < 3; r++)
                for (cc = 0; cc < 4; cc++) M[r][cc] += w * (double)palette[slot_joint[slot]].m[r][cc];
        }
        for (c = 0; c < 3; c++) {
            pp[c] = M[c][3];
            nn[c] = 0;
            for (k = 0; k < 3; k++) {
                pp[c] += M[c][k] * (double)pb_f32le(b + 4u * k);
                nn[c] += M[c][k] * (double)pb_f32le(b + 12u + 4u * k);
            }
            len += nn[c] * nn[c];
        }
        len = t_sqrt(len);
        for (c = 0; c < 3; c++) {
            CHECK_NEAR(out_a[3 * v + c], pp[c], 2e-5);
            CHECK_NEAR(nrm_a[4 * v + c], nn[c] / len, 2e-5);
        }
    }
    /* the packed layout (straight to the kernel) and the scalar reference: the same bits */
    p = m;
    p.positions = packed;
    p.normals = packed + 12u * NJ_V;
    p.joints = packed + 24u * NJ_V;
    p.weights = packed + 28u * NJ_V;
    p.position_stride = p.normal_stride = 12;
    p.joint_stride = 4;
    p.weight_stride = 8;
    memcpy(out_b, out_a, sizeof out_b);
    memcpy(nrm_b, nrm_a, sizeof nrm_b);
    memset(out_a, 0, 3 * NJ_V * 4);
    memset(nrm_a, 0, 4 * NJ_V * 4);
    job.mesh = &p;
    job.flags = PLUMBOB_SKIN_REFERENCE;
    CHECK_OK(plumbob_skin(&job));
    CHECK(memcmp(out_a, out_b, sizeof out_a) == 0);
    for (v = 0; v < NJ_V; v++) CHECK(memcmp(&nrm_a[4 * v], &nrm_b[4 * v], 12) == 0);
    /* split ranges on the strided mesh: the same bits */
    memset(out_a, 0, 3 * NJ_V * 4);
    job.mesh = &m;
    job.flags = 0;
    job.first_vertex = 0;
    job.vertex_count = 4;
    CHECK_OK(plumbob_skin(&job));
    job.first_vertex = 4;
    job.vertex_count = 0;
    CHECK_OK(plumbob_skin(&job));
    CHECK(memcmp(out_a, out_b, sizeof out_a) == 0);
    job.first_vertex = 0;
    /* refusals */
    job.palette_count = 3; /* slot 0 names palette[3] */
    CHECK_EQ(plumbob_skin(&job), PLUMBOB_ERR_BAD_INDEX);
    job.palette_count = 4;
    m.weight_mode = 2u; /* neither mode */
    CHECK_EQ(plumbob_skin(&job), PLUMBOB_ERR_UNSUPPORTED);
    m.weight_mode = PLUMBOB_SKIN_WEIGHTS_IMPLIED_LAST;
    m.weight_count = 4;
    CHECK_EQ(plumbob_skin(&job), PLUMBOB_ERR_INVALID_ARGUMENT);
    m.weight_count = 2;
    job.first_vertex = NJ_V + 1u;
    CHECK_EQ(plumbob_skin(&job), PLUMBOB_ERR_INVALID_ARGUMENT);
    job.first_vertex = 0;
    CHECK_EQ(plumbob_skin(NULL), PLUMBOB_ERR_INVALID_ARGUMENT);
    /* unskinned, without normals in: positions pass through, normals face up */
    m.joints = NULL;
    m.normals = NULL;
    CHECK_OK(plumbob_skin(&job));
    for (v = 0; v < NJ_V; v++) {
        for (c = 0; c < 3; c++) CHECK(out_a[3 * v + c] == pb_f32le(mesh_bytes + NJ_STRIDE * v + 4u * c));
        CHECK(nrm_a[4 * v] == 0.0f && nrm_a[4 * v + 1] == 0.0f && nrm_a[4 * v + 2] == 1.0f);
    }
}

/* The GMDC job's spans: one short is output_too_small (nothing written),
 * short inputs are invalid_argument. */
static void gmdc_skin_spans(void) {
    unsigned char *buf = t_scratch();
    static float pos[NV * 3 + 3], nrm[NV * 3 + 3];
    float morphs[3] = {0, 0.8f, 0.5f};
    plumbob_mat34 model[BONES], palette[BONES];
    plumbob_arena arena;
    plumbob_gmdc g;
    plumbob_gmdc_skin_job job;
    uint32_t i;
    size_t n = build_cylinder(buf, 512 * 1024);
    plumbob_arena_init(&arena, t_arena_mem(), 256 * 1024);
    CHECK_OK(plumbob_gmdc_decode(buf, n, &arena, &g));
    float_pose(model);
    CHECK_OK(plumbob_gmdc_palette(&g, model, palette, BONES));
    memset(&job, 0, sizeof job);
    job.gmdc = &g;
    job.palette = palette;
    job.palette_count = BONES;
    job.morph_weights = morphs;
    job.morph_weight_count = 3;
    job.positions = pos;
    job.position_stride = 3;
    job.position_count = NV;
    job.normals = nrm;
    job.normal_stride = 3;
    job.normal_count = NV;
    job.work = skin_work;
    memset(pos, 0x5A, sizeof pos);
    memset(nrm, 0x5A, sizeof nrm);
    job.position_count = NV - 1u;
    CHECK_EQ(plumbob_gmdc_skin(&job), PLUMBOB_ERR_OUTPUT_TOO_SMALL);
    job.position_count = NV;
    job.normal_count = NV - 1u;
    CHECK_EQ(plumbob_gmdc_skin(&job), PLUMBOB_ERR_OUTPUT_TOO_SMALL);
    job.normal_count = NV;
    job.palette_count = BONES - 1u;
    CHECK_EQ(plumbob_gmdc_skin(&job), PLUMBOB_ERR_INVALID_ARGUMENT);
    job.palette_count = BONES;
    job.morph_weight_count = g.morph_count - 1u;
    CHECK_EQ(plumbob_gmdc_skin(&job), PLUMBOB_ERR_INVALID_ARGUMENT);
    job.morph_weight_count = 3;
    for (i = 0; i < sizeof pos; i++) CHECK_EQ(((unsigned char *)pos)[i], 0x5A);
    for (i = 0; i < sizeof nrm; i++) CHECK_EQ(((unsigned char *)nrm)[i], 0x5A);
    CHECK_OK(plumbob_gmdc_skin(&job));
    for (i = 3 * NV * 4; i < sizeof pos; i++) CHECK_EQ(((unsigned char *)pos)[i], 0x5A);
    for (i = 3 * NV * 4; i < sizeof nrm; i++) CHECK_EQ(((unsigned char *)nrm)[i], 0x5A);
}
