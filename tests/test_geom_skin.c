/* GEOM skinning (issue 48): a hand-built plumbob_geom (no writer needed:
 * the struct is public) on a hand-built rig skeleton.  Bind, palette and
 * plumbob_skin with explicit weights against a double-precision
 * reference; the rest pose gives the stored positions; tangents by a
 * second job; morphs by vertex id; refusals.  Checks only: nothing feeds
 * the unit digest. */
#include <stdlib.h>
#include <string.h>
#include "test.h"
#include "pb_bytes.h"

#define GS_BONES 5      /* rig bones */
#define GS_MESH_BONES 5 /* the mesh's bone list: one hash the rig lacks */
#define GS_V 37u        /* vertices */
#define GS_STRIDE 60u   /* position, normal, assignment, weights, vertex id, tangent */

static const uint32_t gs_hash[GS_BONES] = {0x556B181Au, 0x11111111u, 0x22222222u, 0x33333333u, 0x44444444u};
static const int32_t gs_parent[GS_BONES] = {-1, 0, 1, 2, 1};
/* mesh slot -> hash: spine2, root, (missing), arm, hand, so slots are not rig order */
static const uint32_t gs_mesh_hash[GS_MESH_BONES] = {0x22222222u, 0x556B181Au, 0xDEADBEEFu, 0x44444444u,
                                                     0x33333333u};

static double gs_sqrt(double x) {
    double r = x > 1.0 ? x : 1.0;
    int i;
    if (x <= 0.0) return 0.0;
    for (i = 0; i < 60; i++) r = 0.5 * (r + x / r);
    return r;
}

static plumbob_quat gs_quat(float x, float y, float z, float w) {
    plumbob_quat q;
    q.x = x;
    q.y = y;
    q.z = z;
    q.w = w;
    return plumbob_quat_normalize(q);
}

/* Rest poses: rotated and translated, one bone scaled (the inverse is general). */
static void gs_rest(plumbob_bone_pose *rest) {
    int b;
    for (b = 0; b < GS_BONES; b++) {
        rest[b].rotation = gs_quat(0.1f * (float)b, 0.2f, -0.05f * (float)b, 1.0f);
        rest[b].translation.x = 0.1f * (float)b;
        rest[b].translation.y = b ? 0.3f : 1.0f;
        rest[b].translation.z = -0.05f * (float)b;
        rest[b].scale.x = rest[b].scale.y = rest[b].scale.z = b == 3 ? 1.25f : 1.0f;
    }
}

static void gs_skeleton(plumbob_rig *rig, plumbob_bone_pose *rest) {
    memset(rig, 0, sizeof *rig);
    gs_rest(rest);
    rig->bone_count = GS_BONES;
    rig->skeleton.bone_count = GS_BONES;
    rig->skeleton.parent = gs_parent;
    rig->skeleton.rest = rest;
    rig->skeleton.name_hash = gs_hash;
}

/* --- double-precision reference ------------------------------------------ */

typedef struct gs_m {
    double m[3][4];
} gs_m;

static gs_m gs_local(const plumbob_bone_pose *p) {
    double x = p->rotation.x, y = p->rotation.y, z = p->rotation.z, w = p->rotation.w, s[3];
    double r[3][3];
    gs_m o;
    int i, j;
    s[0] = p->scale.x;
    s[1] = p->scale.y;
    s[2] = p->scale.z;
    r[0][0] = 1 - 2 * (y * y + z * z); r[0][1] = 2 * (x * y - z * w); r[0][2] = 2 * (x * z + y * w);
    r[1][0] = 2 * (x * y + z * w); r[1][1] = 1 - 2 * (x * x + z * z); r[1][2] = 2 * (y * z - x * w);
    r[2][0] = 2 * (x * z - y * w); r[2][1] = 2 * (y * z + x * w); r[2][2] = 1 - 2 * (x * x + y * y);
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++) o.m[i][j] = r[i][j] * s[j];
    o.m[0][3] = p->translation.x;
    o.m[1][3] = p->translation.y;
    o.m[2][3] = p->translation.z;
    return o;
}

static gs_m gs_mul(const gs_m *a, const gs_m *b) {
    gs_m o;
    int i, j;
    for (i = 0; i < 3; i++)
        for (j = 0; j < 4; j++)
            o.m[i][j] = a->m[i][0] * b->m[0][j] + a->m[i][1] * b->m[1][j] + a->m[i][2] * b->m[2][j] + (j == 3 ? a->m[i][3] : 0);
    return o;
}

static gs_m gs_inverse(const gs_m *a) {
    const double(*m)[4] = a->m;
    double c[3][3], det;
    gs_m o;
    int i, j;
    c[0][0] = m[1][1] * m[2][2] - m[1][2] * m[2][1];
    c[0][1] = m[0][2] * m[2][1] - m[0][1] * m[2][2];
    c[0][2] = m[0][1] * m[1][2] - m[0][2] * m[1][1];
    c[1][0] = m[1][2] * m[2][0] - m[1][0] * m[2][2];
    c[1][1] = m[0][0] * m[2][2] - m[0][2] * m[2][0];
    c[1][2] = m[0][2] * m[1][0] - m[0][0] * m[1][2];
    c[2][0] = m[1][0] * m[2][1] - m[1][1] * m[2][0];
    c[2][1] = m[0][1] * m[2][0] - m[0][0] * m[2][1];
    c[2][2] = m[0][0] * m[1][1] - m[0][1] * m[1][0];
    det = m[0][0] * c[0][0] + m[0][1] * c[1][0] + m[0][2] * c[2][0];
    for (i = 0; i < 3; i++) {
        for (j = 0; j < 3; j++) o.m[i][j] = c[i][j] / det;
        o.m[i][3] = -(o.m[i][0] * m[0][3] + o.m[i][1] * m[1][3] + o.m[i][2] * m[2][3]);
    }
    return o;
}

/* Model transforms of poses (NULL: rest) in doubles. */
static void gs_model(const plumbob_bone_pose *poses, gs_m *out) {
    int b;
    for (b = 0; b < GS_BONES; b++) {
        gs_m l = gs_local(&poses[b]);
        out[b] = gs_parent[b] < 0 ? l : gs_mul(&out[gs_parent[b]], &l);
    }
}

/* The reference palette: posed model x inverse rest model, identity unbound. */
static void gs_palette(const plumbob_bone_pose *rest, const plumbob_bone_pose *posed, gs_m *pal) {
    gs_m mr[GS_BONES], mp[GS_BONES];
    int k, b;
    gs_model(rest, mr);
    gs_model(posed, mp);
    for (k = 0; k < GS_MESH_BONES; k++) {
        gs_m inv;
        memset(&pal[k], 0, sizeof pal[k]);
        pal[k].m[0][0] = pal[k].m[1][1] = pal[k].m[2][2] = 1;
        for (b = 0; b < GS_BONES; b++)
            if (gs_hash[b] == gs_mesh_hash[k]) {
                inv = gs_inverse(&mr[b]);
                pal[k] = gs_mul(&mp[b], &inv);
            }
    }
}

/* --- the mesh ------------------------------------------------------------------- */

static plumbob_geom_element gs_elements[6];
static unsigned char gs_vertices[GS_V * GS_STRIDE];

static void gs_element(plumbob_geom_element *e, uint32_t usage, uint32_t size, uint32_t offset) {
    e->usage = usage;
    e->data_type = 1;
    e->size = size;
    e->offset = offset;
}

/* Vertices away from the origin, four influences with real weights (every
 * slot used, the unbound one among them), zero-weight slots whose
 * assignment bytes are out of range (200) or 0xFF, unit normals and
 * tangents, vertex ids with seams (vertices 3k and 3k + 1 share one). */
static void gs_mesh(plumbob_geom *g, uint32_t *bone_hashes) {
    uint32_t seed = 0x6E0Du, v, k;
    static const float w4[4][4] = {{0.4f, 0.3f, 0.2f, 0.1f}, {0.7f, 0.3f, 0, 0}, {1, 0, 0, 0}, {0.25f, 0.25f, 0.25f, 0.25f}};
    memset(g, 0, sizeof *g);
    gs_element(&gs_elements[0], PLUMBOB_GEOM_POSITION, 12, 0);
    gs_element(&gs_elements[1], PLUMBOB_GEOM_NORMAL, 12, 12);
    gs_element(&gs_elements[2], PLUMBOB_GEOM_ASSIGNMENT, 4, 24);
    gs_element(&gs_elements[3], PLUMBOB_GEOM_WEIGHTS, 16, 28);
    gs_element(&gs_elements[4], PLUMBOB_GEOM_VERTEX_ID, 4, 44);
    gs_element(&gs_elements[5], PLUMBOB_GEOM_TANGENT, 12, 48);
    for (v = 0; v < GS_V; v++) {
        unsigned char *b = gs_vertices + GS_STRIDE * v;
        const float *w = w4[v % 4];
        float n[3], t[3], len;
        for (k = 0; k < 3; k++) {
            pb_put_f32le(b + 4 * k, (float)((int)(t_rand(&seed) % 2001) - 1000) / 2000.0f + (k == 1 ? 1.2f : 0.3f));
            n[k] = (float)((int)(t_rand(&seed) % 2001) - 1000) / 1000.0f;
        }
        n[1] += 1.5f;
        len = (float)gs_sqrt((double)(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]));
        t[0] = n[1] / len; /* a tangent: perpendicular to the normal */
        t[1] = -n[0] / len;
        t[2] = 0;
        for (k = 0; k < 3; k++) {
            pb_put_f32le(b + 12 + 4 * k, n[k] / len);
            pb_put_f32le(b + 48 + 4 * k, t[k]);
        }
        for (k = 0; k < 4; k++) {
            unsigned char slot = (unsigned char)((v + k) % GS_MESH_BONES);
            if (w[k] == 0.0f) slot = k == 2 ? 200u : 0xFFu; /* zero weight: out of range or none */
            b[24 + k] = slot;
            pb_put_f32le(b + 28 + 4 * k, w[k]);
        }
        pb_put_le32(b + 44, 1000u + v / 3u * 2u); /* 3k, 3k+1, 3k+2 share one id */
    }
    for (k = 0; k < GS_MESH_BONES; k++) bone_hashes[k] = gs_mesh_hash[k];
    g->version = 5;
    g->vertex_count = GS_V;
    g->element_count = 6;
    g->elements = gs_elements;
    g->vertex_stride = GS_STRIDE;
    g->vertices = gs_vertices;
    g->bone_count = GS_MESH_BONES;
    g->bone_hashes = bone_hashes;
}

/* Worst distance of skinned stream `out` (stride 3) from the reference
 * palette applied to the geom's element at `offset` (point or vector). */
static double gs_error(const gs_m *pal, const float *out, uint32_t offset, int point, int normalize) {
    double worst = 0;
    uint32_t v, k, c;
    for (v = 0; v < GS_V; v++) {
        const unsigned char *b = gs_vertices + GS_STRIDE * v;
        double M[3][4] = {{0}}, q[3], len = 0;
        for (k = 0; k < 4; k++) {
            uint32_t slot = b[24 + k];
            double w = pb_f32le(b + 28 + 4 * k);
            int i, j;
            if (slot >= GS_MESH_BONES) continue;
            for (i = 0; i < 3; i++)
                for (j = 0; j < 4; j++) M[i][j] += w * pal[slot].m[i][j];
        }
        for (c = 0; c < 3; c++) {
            q[c] = point ? M[c][3] : 0;
            for (k = 0; k < 3; k++) q[c] += M[c][k] * pb_f32le(b + offset + 4 * k);
            len += q[c] * q[c];
        }
        len = normalize ? gs_sqrt(len) : 1.0;
        for (c = 0; c < 3; c++) {
            double d = q[c] / len - out[3 * v + c];
            if (d < 0) d = -d;
            if (d > worst) worst = d;
        }
    }
    return worst;
}

static plumbob_result gs_skin(const plumbob_skin_mesh *m, const plumbob_mat34 *palette, float *pos, float *nrm) {
    plumbob_skin_job job;
    memset(&job, 0, sizeof job);
    job.mesh = m;
    job.palette = palette;
    job.palette_count = GS_MESH_BONES;
    job.positions = pos;
    job.position_stride = 3;
    job.position_count = GS_V;
    job.normals = nrm;
    job.normal_stride = 3;
    job.normal_count = GS_V;
    job.work = t_work(); /* PLUMBOB_SKIN_WORK_SIZE bytes of the shared test work memory */
    return plumbob_skin(&job);
}

/* Bind (the unbound hash reported, identity), the rest pose (stored
 * positions within 1e-6), a posed skeleton against the double reference
 * (positions, normals, and tangents by a second job), the palette's and
 * the mesh description's refusals. */
void test_geom_skin_hand_built(void) {
    plumbob_bone_pose rest[GS_BONES], posed[GS_BONES];
    plumbob_mat34 model[GS_BONES], palette[GS_MESH_BONES];
    static float pos[GS_V * 3], nrm[GS_V * 3], tan[GS_V * 3];
    uint32_t bone_hashes[GS_MESH_BONES], v, c, k;
    gs_m ref[GS_MESH_BONES];
    plumbob_rig rig;
    plumbob_geom g;
    plumbob_geom_binding bind;
    plumbob_skin_mesh m, mt;
    plumbob_arena arena;
    size_t need;
    gs_skeleton(&rig, rest);
    gs_mesh(&g, bone_hashes);
    need = plumbob_geom_bind_size(&g, &rig);
    CHECK(need != SIZE_MAX && need < 4096);
    CHECK_EQ(plumbob_geom_bind_size(NULL, &rig), SIZE_MAX);
    plumbob_arena_init(&arena, t_arena_mem(), need);
    CHECK_OK(plumbob_geom_bind(&g, &rig, &arena, &bind));
    CHECK_EQ(bind.bone_count, GS_MESH_BONES);
    CHECK_EQ(bind.bound, 4u);
    CHECK_EQ(bind.unbound, 1u);
    CHECK_EQ(bind.rig_bone[0], 2);
    CHECK_EQ(bind.rig_bone[1], 0);
    CHECK_EQ(bind.rig_bone[2], -1); /* 0xDEADBEEF: not in the rig */
    CHECK_EQ(bind.rig_bone[3], 4);
    CHECK_EQ(bind.rig_bone[4], 3);
    for (c = 0; c < 3; c++)
        for (k = 0; k < 4; k++) CHECK(bind.inverse_rest[2].m[c][k] == (c == k ? 1.0f : 0.0f));
    CHECK(arena.peak <= need);
    CHECK_OK(plumbob_geom_skin_mesh(&g, PLUMBOB_GEOM_NORMAL, &m));
    CHECK(m.joints != NULL && m.weight_count == 4 && m.weight_mode == PLUMBOB_SKIN_WEIGHTS_EXPLICIT);
    CHECK_EQ(m.slot_count, GS_MESH_BONES);
    /* the rest pose: model at rest gives (nearly) identities, the stored positions */
    CHECK_OK(plumbob_skeleton_model(&rig.skeleton, NULL, model, GS_BONES));
    CHECK_OK(plumbob_geom_palette(&bind, model, GS_BONES, palette, GS_MESH_BONES));
    CHECK_OK(gs_skin(&m, palette, pos, nrm));
    for (v = 0; v < GS_V; v++)
        for (c = 0; c < 3; c++) {
            CHECK_NEAR(pos[3 * v + c], pb_f32le(gs_vertices + GS_STRIDE * v + 4 * c), 1e-6);
            CHECK_NEAR(nrm[3 * v + c], pb_f32le(gs_vertices + GS_STRIDE * v + 12 + 4 * c), 1e-6);
        }
    /* model NULL: every entry the identity (weights sum to 1 within an ulp) */
    CHECK_OK(plumbob_geom_palette(&bind, NULL, 0, palette, GS_MESH_BONES));
    CHECK_OK(gs_skin(&m, palette, pos, NULL));
    for (v = 0; v < GS_V; v++)
        for (c = 0; c < 3; c++) CHECK_NEAR(pos[3 * v + c], pb_f32le(gs_vertices + GS_STRIDE * v + 4 * c), 1e-6);
    /* posed: bones rotated (the root moved too) */
    memcpy(posed, rest, sizeof posed);
    posed[0].translation.x += 0.5f;
    posed[0].rotation = gs_quat(0, 0.3f, 0, 1);
    posed[2].rotation = gs_quat(0.5f, -0.2f, 0.1f, 1);
    posed[3].rotation = gs_quat(-0.4f, 0.6f, 0.3f, 1);
    posed[4].rotation = gs_quat(0.2f, 0.1f, -0.7f, 1);
    CHECK_OK(plumbob_skeleton_model(&rig.skeleton, posed, model, GS_BONES));
    CHECK_OK(plumbob_geom_palette(&bind, model, GS_BONES, palette, GS_MESH_BONES));
    gs_palette(rest, posed, ref);
    for (k = 0; k < GS_MESH_BONES; k++)
        for (c = 0; c < 12; c++) CHECK_NEAR(palette[k].m[c / 4][c % 4], ref[k].m[c / 4][c % 4], 2e-6);
    CHECK_OK(gs_skin(&m, palette, pos, nrm));
    CHECK_NEAR(gs_error(ref, pos, 0, 1, 0), 0.0, 1e-5);
    CHECK_NEAR(gs_error(ref, nrm, 12, 0, 1), 0.0, 1e-5);
    for (v = 0; v < GS_V; v++) /* moved: posing did something */
        if (v % 4 == 2 && (v % GS_MESH_BONES) != 2) CHECK(pos[3 * v] != pb_f32le(gs_vertices + GS_STRIDE * v));
    /* tangents: the second job, the same palette */
    CHECK_OK(plumbob_geom_skin_mesh(&g, PLUMBOB_GEOM_TANGENT, &mt));
    CHECK_OK(gs_skin(&mt, palette, pos, tan));
    CHECK_NEAR(gs_error(ref, tan, 48, 0, 1), 0.0, 1e-5);
    CHECK_NEAR(gs_error(ref, pos, 0, 1, 0), 0.0, 1e-5);
    /* the palette's refusals */
    CHECK_EQ(plumbob_geom_palette(NULL, model, GS_BONES, palette, GS_MESH_BONES), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_geom_palette(&bind, model, GS_BONES, NULL, GS_MESH_BONES), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_geom_palette(&bind, model, GS_BONES, palette, GS_MESH_BONES - 1), PLUMBOB_ERR_OUTPUT_TOO_SMALL);
    CHECK_EQ(plumbob_geom_palette(&bind, model, 4, palette, GS_MESH_BONES), PLUMBOB_ERR_OUTPUT_TOO_SMALL); /* bone 4 */
    /* the mesh description's refusals and the unskinned case */
    CHECK_EQ(plumbob_geom_skin_mesh(NULL, 0, &m), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_geom_skin_mesh(&g, PLUMBOB_GEOM_UV, &m), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_OK(plumbob_geom_skin_mesh(&g, 0, &m));
    CHECK(m.normals == NULL && m.joints != NULL);
    g.element_count = 5; /* no tangents */
    CHECK_EQ(plumbob_geom_skin_mesh(&g, PLUMBOB_GEOM_TANGENT, &m), PLUMBOB_ERR_NOT_FOUND);
    g.element_count = 3; /* no weights: unskinned, positions as stored */
    CHECK_OK(plumbob_geom_skin_mesh(&g, PLUMBOB_GEOM_NORMAL, &m));
    CHECK(m.joints == NULL);
    CHECK_OK(gs_skin(&m, palette, pos, nrm));
    for (v = 0; v < GS_V; v++)
        for (c = 0; c < 3; c++) CHECK(pos[3 * v + c] == pb_f32le(gs_vertices + GS_STRIDE * v + 4 * c));
    g.element_count = 6;
    gs_elements[3].size = 4; /* weights as bytes (The Sims 4's): not this job's */
    CHECK_EQ(plumbob_geom_skin_mesh(&g, PLUMBOB_GEOM_NORMAL, &m), PLUMBOB_ERR_INVALID_ARGUMENT);
    gs_elements[3].size = 16;
    gs_elements[5].offset = GS_STRIDE - 8u; /* past the vertex */
    CHECK_EQ(plumbob_geom_skin_mesh(&g, PLUMBOB_GEOM_TANGENT, &m), PLUMBOB_ERR_INVALID_ARGUMENT);
    gs_elements[5].offset = 48;
    g.element_count = 0; /* no position */
    CHECK_EQ(plumbob_geom_skin_mesh(&g, 0, &m), PLUMBOB_ERR_NOT_FOUND);
}

/* Bind's refusals: NULLs, a short arena, a bone whose rest transform has
 * no inverse (a zero scale); a rig without hashes binds nothing. */
void test_geom_skin_bind_errors(void) {
    plumbob_bone_pose rest[GS_BONES];
    uint32_t bone_hashes[GS_MESH_BONES];
    plumbob_rig rig;
    plumbob_geom g;
    plumbob_geom_binding bind;
    plumbob_arena arena;
    size_t need;
    gs_skeleton(&rig, rest);
    gs_mesh(&g, bone_hashes);
    need = plumbob_geom_bind_size(&g, &rig);
    plumbob_arena_init(&arena, t_arena_mem(), need);
    CHECK_EQ(plumbob_geom_bind(NULL, &rig, &arena, &bind), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_geom_bind(&g, NULL, &arena, &bind), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_geom_bind(&g, &rig, NULL, &bind), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_geom_bind(&g, &rig, &arena, NULL), PLUMBOB_ERR_INVALID_ARGUMENT);
    plumbob_arena_init(&arena, t_arena_mem(), 100); /* the binding's arrays do not fit */
    CHECK_EQ(plumbob_geom_bind(&g, &rig, &arena, &bind), PLUMBOB_ERR_OUT_OF_MEMORY);
    plumbob_arena_init(&arena, t_arena_mem(), 400); /* the rest matrices do not */
    CHECK_EQ(plumbob_geom_bind(&g, &rig, &arena, &bind), PLUMBOB_ERR_OUT_OF_MEMORY);
    plumbob_arena_init(&arena, t_arena_mem(), need);
    rest[3].scale.y = 0.0f; /* arm: flat */
    CHECK_EQ(plumbob_geom_bind(&g, &rig, &arena, &bind), PLUMBOB_ERR_BAD_DATA);
    rest[3].scale.y = 1.25f;
    rig.skeleton.name_hash = NULL;
    plumbob_arena_init(&arena, t_arena_mem(), need);
    CHECK_OK(plumbob_geom_bind(&g, &rig, &arena, &bind));
    CHECK_EQ(bind.bound, 0u);
    CHECK_EQ(bind.unbound, GS_MESH_BONES);
}

/* Morph by vertex id: a morph of fewer vertices in another order (with
 * normals deltas), whose ids each match three base vertices (a seam):
 * all three move by weight x delta; ids the morph lacks stay; a morph
 * vertex at the same index with the same id is the one used.  Refusals. */
#define GS_MV 6u
void test_geom_skin_morph(void) {
    static unsigned char mv[GS_MV * 28];
    static float pos[GS_V * 4], nrm[GS_V * 3], before[GS_V * 4];
    static unsigned char work[GS_MV * 4 + 3 + 1];
    plumbob_geom_element me[3];
    uint32_t bone_hashes[GS_MESH_BONES], v, c, i;
    plumbob_geom g, mg;
    gs_mesh(&g, bone_hashes);
    memset(&mg, 0, sizeof mg);
    gs_element(&me[0], PLUMBOB_GEOM_POSITION, 12, 0);
    gs_element(&me[1], PLUMBOB_GEOM_NORMAL, 12, 12);
    gs_element(&me[2], PLUMBOB_GEOM_VERTEX_ID, 4, 24);
    /* morph vertex i carries id 1000 + 2 * (5 - i) (groups 5..0, reversed),
     * delta (i + 1, -i, 0.5) and normal delta (0, 0.1 i, 0); group 3 (base
     * vertices 9..11) is missing: its id is replaced with one no base holds */
    for (i = 0; i < GS_MV; i++) {
        unsigned char *b = mv + 28 * i;
        pb_put_f32le(b, (float)(i + 1));
        pb_put_f32le(b + 4, -(float)i);
        pb_put_f32le(b + 8, 0.5f);
        pb_put_f32le(b + 12, 0);
        pb_put_f32le(b + 16, 0.1f * (float)i);
        pb_put_f32le(b + 20, 0);
        pb_put_le32(b + 24, (5u - i) == 3u ? 7u : 1000u + 2u * (5u - i));
    }
    mg.vertex_count = GS_MV;
    mg.element_count = 3;
    mg.elements = me;
    mg.vertex_stride = 28;
    mg.vertices = mv;
    for (v = 0; v < GS_V; v++)
        for (c = 0; c < 3; c++) {
            pos[4 * v + c] = pb_f32le(gs_vertices + GS_STRIDE * v + 4 * c);
            nrm[3 * v + c] = pb_f32le(gs_vertices + GS_STRIDE * v + 12 + 4 * c);
        }
    memcpy(before, pos, sizeof pos);
    CHECK_EQ(plumbob_geom_morph_work_size(&mg), (size_t)(GS_MV * 4 + 3));
    CHECK_OK(plumbob_geom_morph(&g, &mg, 0.5f, pos, 4, nrm, 3, GS_V, work + 1, sizeof work - 1));
    for (v = 0; v < GS_V; v++) {
        uint32_t group = v / 3u;
        int moved = group <= 5u && group != 3u;
        float d[3], n[3];
        i = 5u - group; /* the morph vertex of this group */
        d[0] = moved ? (float)(i + 1) : 0.0f;
        d[1] = moved ? -(float)i : 0.0f;
        d[2] = moved ? 0.5f : 0.0f;
        n[0] = 0;
        n[1] = moved ? 0.1f * (float)i : 0.0f;
        n[2] = 0;
        for (c = 0; c < 3; c++) {
            CHECK(pos[4 * v + c] == before[4 * v + c] + 0.5f * d[c]);
            CHECK(nrm[3 * v + c] == pb_f32le(gs_vertices + GS_STRIDE * v + 12 + 4 * c) + 0.5f * n[c]);
        }
        CHECK(pos[4 * v + 3] == before[4 * v + 3]); /* between vertices: untouched */
    }
    /* two morph vertices with one id (1 and 4, group 1): base vertex 4
     * takes morph vertex 4 (the same index, its id matching), base 3 and 5
     * the first with the id (1); group 4 (base 12..14) lost its morph
     * vertex and stays */
    pb_put_le32(mv + 28 * 1 + 24, 1002u);
    memcpy(pos, before, sizeof pos);
    CHECK_OK(plumbob_geom_morph(&g, &mg, 1.0f, pos, 4, NULL, 0, GS_V, work, sizeof work));
    CHECK(pos[4 * 3] == before[4 * 3] + 2.0f);
    CHECK(pos[4 * 4] == before[4 * 4] + 5.0f);
    CHECK(pos[4 * 5] == before[4 * 5] + 2.0f);
    CHECK(pos[4 * 12] == before[4 * 12]);
    CHECK(pos[4 * 15] == before[4 * 15] + 1.0f); /* group 5: morph vertex 0 */
    /* refusals; nothing written */
    memcpy(pos, before, sizeof pos);
    CHECK_EQ(plumbob_geom_morph(&g, &mg, 1.0f, pos, 4, NULL, 0, GS_V - 1u, work, sizeof work), PLUMBOB_ERR_OUTPUT_TOO_SMALL);
    CHECK_EQ(plumbob_geom_morph(&g, &mg, 1.0f, pos, 4, NULL, 0, GS_V, work, GS_MV * 4 + 2), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_geom_morph(&g, &mg, 1.0f, pos, 4, NULL, 0, GS_V, NULL, sizeof work), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_geom_morph(&g, &mg, 0.0f / 0.0f, pos, 4, NULL, 0, GS_V, work, sizeof work), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_geom_morph(&g, &mg, 1.0f, pos, 2, NULL, 0, GS_V, work, sizeof work), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_geom_morph(&g, NULL, 1.0f, pos, 4, NULL, 0, GS_V, work, sizeof work), PLUMBOB_ERR_INVALID_ARGUMENT);
    mg.element_count = 2; /* a morph without ids */
    CHECK_EQ(plumbob_geom_morph(&g, &mg, 1.0f, pos, 4, NULL, 0, GS_V, work, sizeof work), PLUMBOB_ERR_INVALID_ARGUMENT);
    mg.element_count = 3;
    g.element_count = 4; /* a base without ids */
    CHECK_EQ(plumbob_geom_morph(&g, &mg, 1.0f, pos, 4, NULL, 0, GS_V, work, sizeof work), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK(memcmp(pos, before, sizeof pos) == 0);
    CHECK_EQ(plumbob_geom_morph_work_size(NULL), SIZE_MAX);
}

/* --- the corpus: a real top on auRig ------------------------------------- */

/* Model transforms of a skeleton's poses (NULL: its rest) in doubles. */
static void gs_skel_model(const plumbob_skeleton *s, const plumbob_bone_pose *poses, gs_m *out) {
    uint32_t b;
    for (b = 0; b < s->bone_count; b++) {
        gs_m l = gs_local(poses ? &poses[b] : &s->rest[b]);
        out[b] = s->parent[b] < 0 ? l : gs_mul(&out[s->parent[b]], &l);
    }
}

/* The worst distance of skinned positions from the double reference: the
 * geom's stored weights over palette entries posed model x inverse rest
 * model (identity unbound), all in doubles from the same local poses. */
static double gs_corpus_error(const plumbob_geom *g, const plumbob_geom_binding *bind, const plumbob_skeleton *s,
                              const plumbob_bone_pose *poses, const float *out, double *moved) {
    gs_m *rest = (gs_m *)malloc(sizeof(gs_m) * s->bone_count), *posed = (gs_m *)malloc(sizeof(gs_m) * s->bone_count);
    gs_m *pal = (gs_m *)malloc(sizeof(gs_m) * (g->bone_count + 1u));
    const plumbob_geom_element *pe = plumbob_geom_find_element(g, PLUMBOB_GEOM_POSITION, 0),
                               *ae = plumbob_geom_find_element(g, PLUMBOB_GEOM_ASSIGNMENT, 0),
                               *we = plumbob_geom_find_element(g, PLUMBOB_GEOM_WEIGHTS, 0);
    double worst = 0;
    uint32_t k, v, c;
    gs_skel_model(s, NULL, rest);
    gs_skel_model(s, poses, posed);
    for (k = 0; k < g->bone_count; k++) {
        memset(&pal[k], 0, sizeof pal[k]);
        pal[k].m[0][0] = pal[k].m[1][1] = pal[k].m[2][2] = 1;
        if (bind->rig_bone[k] >= 0) {
            gs_m inv = gs_inverse(&rest[bind->rig_bone[k]]);
            pal[k] = gs_mul(&posed[bind->rig_bone[k]], &inv);
        }
    }
    *moved = 0;
    for (v = 0; v < g->vertex_count; v++) {
        const unsigned char *b = g->vertices + (size_t)g->vertex_stride * v;
        double M[3][4] = {{0}};
        for (k = 0; k < 4; k++) {
            uint32_t slot = b[ae->offset + k];
            double w = pb_f32le(b + we->offset + 4 * k);
            int i, j;
            if (slot >= g->bone_count || w == 0.0) continue;
            for (i = 0; i < 3; i++)
                for (j = 0; j < 4; j++) M[i][j] += w * pal[slot].m[i][j];
        }
        for (c = 0; c < 3; c++) {
            double q = M[c][3], d, p0 = pb_f32le(b + pe->offset + 4 * c);
            for (k = 0; k < 3; k++) q += M[c][k] * pb_f32le(b + pe->offset + 4 * k);
            d = q - out[3 * v + c];
            if (d < 0) d = -d;
            if (d > worst) worst = d;
            d = q - p0;
            if (d < 0) d = -d;
            if (d > *moved) *moved = d;
        }
    }
    free(rest);
    free(posed);
    free(pal);
    return worst;
}

/* The corpus top (afTopBlouseOffShoulder, 2,011 vertices, 51 bones) on the
 * adult rig: every bone hash binds; at the rest pose the skinned vertices
 * are the stored ones (1e-5); posed by the corpus clip that binds the most
 * auRig bones, at its start, middle and end, they match the double
 * reference within 1e-4 m (and moved), positions and normals both through
 * plumbob_skin's port, with the reference kernel's bits; the prepared
 * meshes of its normal and tangent descriptions (plumbob_skin_prepare)
 * give plumbob_skin's positions, normals and tangents within 4e-6,
 * renormalized and not, the port with the prepared reference's bits. */
void test_geom_skin_corpus(void) {
    size_t gsize, rsize, psize, need;
    unsigned char *gdata = t_corpus_load("sims3/afTopBlouseOffShoulder_lod1.simgeom", &gsize);
    unsigned char *rdata = gdata ? t_corpus_load("sims3/auRig.rig", &rsize) : NULL;
    unsigned char *pdata = rdata ? t_corpus_load("sims3/EWBreastfeed.package", &psize) : NULL;
    unsigned char *gmem, *rmem, *amem, *work;
    plumbob_arena ga, ra, a;
    plumbob_geom g;
    plumbob_rig rig;
    plumbob_geom_binding bind;
    plumbob_skin_mesh mesh;
    plumbob_skin_job job;
    plumbob_package pkg;
    plumbob_mat34 *model, palette[255];
    plumbob_bone_pose *poses;
    float *pos, *nrm, *pos_ref, *nrm_ref, *tan, *pp, *pq;
    plumbob_skin_mesh tmesh;
    plumbob_skin_prepared_mesh pm[4];
    unsigned char *pmem[4], *pwork;
    uint32_t *order[2];
    uint32_t v, c, i, best_bound = 0, n;
    uint64_t best = 0;
    double worst, moved;
    if (!gdata || !rdata || !pdata) {
        free(gdata);
        free(rdata);
        T_SKIP(t_corpus_missing());
    }
    work = (unsigned char *)malloc(PLUMBOB_SKIN_WORK_SIZE);
    CHECK_OK(plumbob_geom_measure(gdata, gsize, &need));
    gmem = (unsigned char *)malloc(need);
    plumbob_arena_init(&ga, gmem, need);
    CHECK_OK(plumbob_geom_decode(gdata, gsize, &ga, &g));
    CHECK_OK(plumbob_rig_measure(rdata, rsize, &need));
    rmem = (unsigned char *)malloc(need);
    plumbob_arena_init(&ra, rmem, need);
    CHECK_OK(plumbob_rig_decode(rdata, rsize, &ra, &rig));
    n = rig.skeleton.bone_count;
    need = plumbob_geom_bind_size(&g, &rig) + (4u << 20);
    amem = (unsigned char *)malloc(need);
    plumbob_arena_init(&a, amem, need);
    CHECK_OK(plumbob_geom_bind(&g, &rig, &a, &bind));
    CHECK_EQ(bind.bone_count, g.bone_count);
    CHECK_EQ(bind.unbound, 0u); /* every bone of the top is an auRig bone */
    CHECK_OK(plumbob_geom_skin_mesh(&g, PLUMBOB_GEOM_NORMAL, &mesh));
    CHECK(mesh.joints != NULL);
    /* the prepared meshes (issue 49): normals, and tangents from the
     * tangent description (skinned as its normals, as plumbob_skin's
     * second job does) */
    CHECK_OK(plumbob_geom_skin_mesh(&g, PLUMBOB_GEOM_TANGENT, &tmesh));
    for (i = 0; i < 4; i++) { /* 2, 3: PLUMBOB_SKIN_PREPARE_SHARED, output in its order */
        uint32_t opt = i >= 2u ? PLUMBOB_SKIN_PREPARE_SHARED : 0u;
        CHECK_OK(plumbob_skin_prepared_size(i % 2u ? &tmesh : &mesh, opt, &need));
        pmem[i] = (unsigned char *)malloc(need);
        CHECK_OK(plumbob_skin_prepare(i % 2u ? &tmesh : &mesh, opt, pmem[i], need, &pm[i]));
        if (i >= 2u) {
            order[i - 2u] = (uint32_t *)malloc(4u * g.vertex_count);
            CHECK_OK(plumbob_skin_prepared_order(i % 2u ? &tmesh : &mesh, opt, order[i - 2u], g.vertex_count));
            CHECK(pm[i].shared_vertices > g.vertex_count * 7u / 8u); /* 1,792 of 2,011 */
        }
    }
    pwork = (unsigned char *)malloc(PLUMBOB_SKIN_PREPARED_WORK_SIZE);
    tan = (float *)malloc(12u * g.vertex_count);
    pp = (float *)malloc(12u * g.vertex_count * 2u);
    pq = (float *)malloc(12u * g.vertex_count * 2u);
    model = (plumbob_mat34 *)malloc(sizeof(plumbob_mat34) * n);
    poses = (plumbob_bone_pose *)malloc(sizeof(plumbob_bone_pose) * n);
    pos = (float *)malloc(12u * g.vertex_count);
    nrm = (float *)malloc(12u * g.vertex_count);
    pos_ref = (float *)malloc(12u * g.vertex_count);
    nrm_ref = (float *)malloc(12u * g.vertex_count);
    memset(&job, 0, sizeof job);
    job.mesh = &mesh;
    job.palette = palette;
    job.palette_count = g.bone_count;
    job.positions = pos;
    job.position_stride = 3;
    job.position_count = g.vertex_count;
    job.normals = nrm;
    job.normal_stride = 3;
    job.normal_count = g.vertex_count;
    job.work = work;
    /* the rest pose */
    CHECK_OK(plumbob_skeleton_model(&rig.skeleton, NULL, model, n));
    CHECK_OK(plumbob_geom_palette(&bind, model, n, palette, g.bone_count));
    CHECK_OK(plumbob_skin(&job));
    worst = 0;
    for (v = 0; v < g.vertex_count; v++)
        for (c = 0; c < 3; c++) {
            double d = pos[3 * v + c] - plumbob_geom_float(&g, plumbob_geom_find_element(&g, PLUMBOB_GEOM_POSITION, 0), v, c);
            if (d < 0) d = -d;
            if (d > worst) worst = d;
        }
    CHECK_NEAR(worst, 0.0, 1e-5);
    /* the clip that binds the most auRig bones */
    CHECK_OK(plumbob_package_open(&pkg, pdata, psize));
    for (i = 0; i < pkg.count; i++) {
        plumbob_package_entry e;
        const unsigned char *res;
        size_t rs;
        unsigned char *buf, *cmem;
        plumbob_arena ca;
        plumbob_clip clip;
        plumbob_clip_binding cb;
        uint32_t t, bound = 0;
        CHECK_OK(plumbob_package_entry_at(&pkg, i, &e));
        if (e.type != PLUMBOB_TYPE_CLIP) continue;
        buf = (unsigned char *)malloc(e.mem_size);
        CHECK_OK(plumbob_package_read(&pkg, &e, buf, e.mem_size, &res, &rs));
        CHECK_OK(plumbob_clip_measure(res, rs, &need));
        need += 1u << 20; /* the binding */
        cmem = (unsigned char *)malloc(need);
        plumbob_arena_init(&ca, cmem, need);
        CHECK_OK(plumbob_clip_decode(res, rs, &ca, &clip));
        CHECK_OK(plumbob_rig_bind(&clip, &rig, NULL, 0, &ca, &cb));
        for (t = 0; t < cb.track_count; t++) bound += cb.bone_of_track[t] >= 0;
        if (bound > best_bound) {
            best_bound = bound;
            best = e.instance;
        }
        free(cmem);
        free(buf);
    }
    CHECK(best_bound >= 50u);
    {
        plumbob_package_entry e;
        const unsigned char *res;
        size_t rs;
        unsigned char *buf, *cmem;
        plumbob_arena ca;
        plumbob_clip clip;
        plumbob_clip_binding cb;
        plumbob_clip_sampler s;
        uint32_t step;
        CHECK_OK(plumbob_package_find(&pkg, PLUMBOB_TYPE_CLIP, 0, best, &e, NULL));
        buf = (unsigned char *)malloc(e.mem_size);
        CHECK_OK(plumbob_package_read(&pkg, &e, buf, e.mem_size, &res, &rs));
        CHECK_OK(plumbob_clip_measure(res, rs, &need));
        need += 4u << 20;
        cmem = (unsigned char *)malloc(need);
        plumbob_arena_init(&ca, cmem, need);
        CHECK_OK(plumbob_clip_decode(res, rs, &ca, &clip));
        CHECK_OK(plumbob_rig_bind(&clip, &rig, NULL, 0, &ca, &cb));
        CHECK_OK(plumbob_clip_sampler_init(NULL, &cb, 0, &ca, &s));
        for (step = 0; step < 3; step++) {
            float seconds = plumbob_clip_duration(&clip) * 0.5f * (float)step;
            CHECK_OK(plumbob_skeleton_rest_pose(&rig.skeleton, 0, n, poses, n));
            CHECK_OK(plumbob_clip_sampler_sample(&s, seconds, poses, n, NULL, 0));
            CHECK_OK(plumbob_skeleton_model(&rig.skeleton, poses, model, n));
            CHECK_OK(plumbob_geom_palette(&bind, model, n, palette, g.bone_count));
            job.flags = 0;
            job.positions = pos;
            job.normals = nrm;
            CHECK_OK(plumbob_skin(&job));
            worst = gs_corpus_error(&g, &bind, &rig.skeleton, poses, pos, &moved);
            CHECK_NEAR(worst, 0.0, 1e-4);
            CHECK(moved > 0.01); /* the clip moves the top */
            job.flags = PLUMBOB_SKIN_REFERENCE;
            job.positions = pos_ref;
            job.normals = nrm_ref;
            CHECK_OK(plumbob_skin(&job));
            CHECK(memcmp(pos, pos_ref, 12u * g.vertex_count) == 0);
            CHECK(memcmp(nrm, nrm_ref, 12u * g.vertex_count) == 0);
            for (v = 0; v < g.vertex_count; v++) { /* normals: unit */
                double l = 0;
                for (c = 0; c < 3; c++) l += (double)nrm[3 * v + c] * nrm[3 * v + c];
                CHECK_NEAR(l, 1.0, 1e-5);
            }
            /* the prepared meshes against plumbob_skin (normals, then
             * tangents by its second job), renormalized and not: within
             * float rounding (the blend sums in another order), the port
             * with the prepared reference's bits */
            for (i = 0; i < 8; i++) {
                plumbob_skin_prepared_job pj;
                uint32_t raw = i & 1u, tangents = (i >> 1) & 1u, shared = i >> 2;
                float *want = tangents ? tan : nrm;
                double dp = 0, dq = 0;
                job.flags = raw ? PLUMBOB_SKIN_UNNORMALIZED : 0u;
                job.mesh = tangents ? &tmesh : &mesh;
                job.positions = pos;
                job.normals = want;
                CHECK_OK(plumbob_skin(&job));
                job.mesh = &mesh;
                memset(&pj, 0, sizeof pj);
                pj.mesh = &pm[tangents + 2u * shared];
                pj.palette = palette;
                pj.palette_count = g.bone_count;
                pj.positions = pp;
                pj.position_stride = 6;
                pj.position_count = g.vertex_count;
                pj.normals = pp + 3;
                pj.normal_stride = 6;
                pj.normal_count = g.vertex_count;
                pj.flags = job.flags;
                pj.work = pwork;
                CHECK_OK(plumbob_skin_prepared(&pj));
                pj.positions = pq;
                pj.normals = pq + 3;
                pj.flags |= PLUMBOB_SKIN_REFERENCE;
                CHECK_OK(plumbob_skin_prepared(&pj));
                CHECK(memcmp(pp, pq, 24u * g.vertex_count) == 0);
                for (v = 0; v < g.vertex_count; v++)
                    for (c = 0; c < 3; c++) {
                        uint32_t o = shared ? order[tangents][v] : v;
                        double d = (double)pp[6 * v + c] - pos[3 * o + c], dn = (double)pp[6 * v + 3 + c] - want[3 * o + c];
                        if (d < 0) d = -d;
                        if (dn < 0) dn = -dn;
                        if (d > dp) dp = d;
                        if (dn > dq) dq = dn;
                    }
                CHECK_NEAR(dp, 0.0, 4e-6);
                CHECK_NEAR(dq, 0.0, 4e-6);
            }
            job.flags = 0;
        }
        free(cmem);
        free(buf);
    }
    free(model);
    free(poses);
    free(pos);
    free(nrm);
    free(pos_ref);
    free(nrm_ref);
    free(tan);
    free(pp);
    free(pq);
    free(pwork);
    for (i = 0; i < 4; i++) free(pmem[i]);
    free(order[0]);
    free(order[1]);
    free(amem);
    free(rmem);
    free(gmem);
    free(work);
    free(pdata);
    free(rdata);
    free(gdata);
}
