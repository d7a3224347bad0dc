/* Sparse GMDC elements (an element with a non-empty item list holds one
 * item per list entry, as the GMDC page says of Target Indices), built with
 * plumbob's own writer in the shape of a real skinned, morphing Sims 2 body
 * mesh: 1,400 vertices, 65 joints, 3 stored weights per vertex (a 4th
 * implied), morphs "fatbot" and "pregbot", and two Target Indices elements
 * of count 1,400 holding 426 and 94 float3 items.  Decode -> write gives the
 * same bytes; skinning matches a double-precision reference, and a variant
 * whose per-vertex elements are all sparse (item lists in shuffled order)
 * skins to the same bits as the dense one.  Sweeps and error details too. */
#include <string.h>
#include "test.h"
#include "pb_bytes.h"

/* scratch for skin jobs (PLUMBOB_GMDC_SKIN_WORK_SIZE) */
static unsigned char skin_work[PLUMBOB_GMDC_SKIN_WORK_SIZE];

#define BODY_ROWS 35
#define BODY_COLS 40
#define BODY_NV (BODY_ROWS * BODY_COLS) /* 1400 */
#define BODY_JOINTS 65
#define BODY_FAT 426
#define BODY_PREG 94
#define BODY_ELEMENTS 16

/* Element order: the empty initial set (as the page describes), the two
 * Target Indices elements, then the referenced set. */
enum { E_EV, E_EN, E_EUV, E_TI0, E_TI1, E_POS, E_NRM, E_UV, E_BA, E_BW, E_MAP, E_MVD0, E_MVD1, E_MND0, E_MND1, E_BUMP };

typedef struct body_shape {
    uint32_t rows, cols, joints, fat, preg;
    int all_sparse; /* per-vertex elements sparse, item lists shuffled */
} body_shape;

static const body_shape big = {BODY_ROWS, BODY_COLS, BODY_JOINTS, BODY_FAT, BODY_PREG, 0};
static const body_shape big_sparse = {BODY_ROWS, BODY_COLS, BODY_JOINTS, BODY_FAT, BODY_PREG, 1};
static const body_shape small_sparse = {4, 5, 6, 6, 3, 1};

/* The permutation that orders vertices for the morph sets and shuffles
 * item lists: v -> v * 7919 mod n (7919 is prime, so it is one whenever it
 * does not divide n). */
static uint32_t perm(uint32_t v, uint32_t n) { return (uint32_t)(((uint64_t)v * 7919u) % n); }

/* fatbot: vertices whose perm is below fat; pregbot: perm in
 * [fat - fat/16, fat - fat/16 + preg), so some vertices carry both. */
static int in_fat(const body_shape *s, uint32_t v) { return perm(v, s->rows * s->cols) < s->fat; }
static int in_preg(const body_shape *s, uint32_t v) {
    uint32_t p = perm(v, s->rows * s->cols), lo = s->fat - s->fat / 16u;
    return p >= lo && p < lo + s->preg;
}

/* Vertex values: small rationals, so every target builds the same bits. */
static float fr(uint32_t a, uint32_t m) { return (float)(a % m) / (float)m; }
static float val_pos(const body_shape *s, uint32_t v, uint32_t c) {
    uint32_t r = v / s->cols, k = v % s->cols;
    return c == 0 ? 0.02f * (float)k - 0.4f : c == 1 ? 0.1f * fr(r * k + 3u, 7u) - 0.05f : 0.05f * (float)r;
}
static float val_nrm(uint32_t v, uint32_t c) { return c == 2 ? 1.0f : fr(v * 13u + c * 5u, 17u) - 0.5f; }
static float val_uv(const body_shape *s, uint32_t v, uint32_t c) {
    return c == 0 ? (float)(v % s->cols) / (float)(s->cols - 1u) : (float)(v / s->cols) / (float)(s->rows - 1u);
}
static float val_bump(uint32_t v, uint32_t c) { return c == 0 ? 1.0f : fr(v * 3u + c, 11u) - 0.5f; }
/* Four slots into the group's bone list; every third vertex leaves the
 * fourth unused. */
static uint32_t val_assign(const body_shape *s, uint32_t v) {
    uint32_t j = s->joints, a;
    a = v % j | ((v * 7u + 3u) % j) << 8 | ((v * 13u + 5u) % j) << 16;
    return a | (v % 3u == 0 ? 0xFFu : (v * 29u + 11u) % j) << 24;
}
static float val_weight(uint32_t v, uint32_t k) {
    return k == 0 ? 0.5f : k == 1 ? 0.2f + 0.002f * (float)(v % 50u) : 0.1f;
}
static uint32_t val_map(const body_shape *s, uint32_t v) {
    return (in_fat(s, v) ? 1u : 0u) | (in_preg(s, v) ? 2u << 8 : 0u);
}
static float val_delta(uint32_t set, uint32_t v, uint32_t c) {
    return (set ? 0.03f : 0.05f) * (fr(v * (5u + set) + c * 7u, 23u) - 0.25f);
}
static float val_ndelta(uint32_t set, uint32_t v, uint32_t c) {
    return (set ? 0.2f : 0.1f) * (fr(v * (3u + set) + c * 11u, 19u) - 0.5f);
}
static float val_target(uint32_t set, uint32_t k, uint32_t c) { return 0.001f * (float)(k * 3u + c + set * 1000u); }

/* Builder memory: one pool, handed out in order. */
static unsigned char pool[240u * 1024u];
static size_t pool_used;
static unsigned char *take(size_t n) {
    unsigned char *p = pool + pool_used;
    pool_used += (n + 3u) & ~(size_t)3u;
    return pool_used <= sizeof pool ? p : NULL;
}

/* Fills element e from its list of vertices (NULL: dense over n). */
static int fill(plumbob_gmdc_element *e, const body_shape *s, uint32_t id, uint32_t kind, uint32_t set,
                uint32_t format, uint32_t n, const uint32_t *list, uint32_t entries) {
    uint32_t isz = format == 4 ? 4u : 4u * (format + 1u), k, c, items = list ? entries : n;
    unsigned char *d = take((size_t)items * isz), *il = list ? take((size_t)entries * 2u) : NULL;
    if (!d || (list && !il)) return 0;
    memset(e, 0, sizeof *e);
    e->count = n;
    e->identity = id;
    e->group = set;
    e->format = format;
    e->set = kind == E_NRM ? 1u : kind == E_UV ? 2u : 0u;
    e->byte_size = items * isz;
    e->data = d;
    if (list) {
        e->items.data = il;
        e->items.count = entries;
        for (k = 0; k < entries; k++) pb_put_le16(il + 2u * k, (uint16_t)list[k]);
    }
    for (k = 0; k < items; k++) {
        uint32_t v = list ? list[k] : k;
        unsigned char *p = d + (size_t)k * isz;
        switch (kind) {
        case E_TI0: case E_TI1:
            for (c = 0; c < 3; c++) pb_put_f32le(p + 4u * c, val_target(kind == E_TI1, k, c));
            break;
        case E_POS: for (c = 0; c < 3; c++) pb_put_f32le(p + 4u * c, val_pos(s, v, c)); break;
        case E_NRM: for (c = 0; c < 3; c++) pb_put_f32le(p + 4u * c, val_nrm(v, c)); break;
        case E_UV: for (c = 0; c < 2; c++) pb_put_f32le(p + 4u * c, val_uv(s, v, c)); break;
        case E_BUMP: for (c = 0; c < 3; c++) pb_put_f32le(p + 4u * c, val_bump(v, c)); break;
        case E_BA: pb_put_le32(p, val_assign(s, v)); break;
        case E_BW: for (c = 0; c < 3; c++) pb_put_f32le(p + 4u * c, val_weight(v, c)); break;
        case E_MAP: pb_put_le32(p, val_map(s, v)); break;
        case E_MVD0: case E_MVD1:
            for (c = 0; c < 3; c++) pb_put_f32le(p + 4u * c, val_delta(kind == E_MVD1, v, c));
            break;
        default: /* E_MND0, E_MND1 */
            for (c = 0; c < 3; c++) pb_put_f32le(p + 4u * c, val_ndelta(kind == E_MND1, v, c));
            break;
        }
    }
    return 1;
}

/* Writes the body mesh of shape s into out; returns its size (0 on failure). */
static size_t build_body(const body_shape *s, unsigned char *out, size_t cap) {
    static uint32_t fat[BODY_NV], preg[BODY_NV], all[BODY_NV];
    static const uint32_t ids[BODY_ELEMENTS] = {
        PLUMBOB_GMDC_VERTICES, PLUMBOB_GMDC_NORMALS, PLUMBOB_GMDC_UVS, PLUMBOB_GMDC_TARGET_INDICES,
        PLUMBOB_GMDC_TARGET_INDICES, PLUMBOB_GMDC_VERTICES, PLUMBOB_GMDC_NORMALS, PLUMBOB_GMDC_UVS,
        PLUMBOB_GMDC_BONE_ASSIGNMENTS, PLUMBOB_GMDC_BONE_WEIGHTS, PLUMBOB_GMDC_MORPH_VERTEX_MAP,
        PLUMBOB_GMDC_MORPH_VERTEX_DELTAS, PLUMBOB_GMDC_MORPH_VERTEX_DELTAS, PLUMBOB_GMDC_MORPH_NORMAL_DELTAS,
        PLUMBOB_GMDC_MORPH_NORMAL_DELTAS, PLUMBOB_GMDC_BUMP_NORMALS};
    static const uint32_t fmts[BODY_ELEMENTS] = {2, 2, 1, 2, 2, 2, 2, 1, 4, 2, 4, 2, 2, 2, 2, 2};
    static plumbob_gmdc_element els[BODY_ELEMENTS];
    static plumbob_string names[6];
    plumbob_gmdc_linkage link;
    plumbob_gmdc_group grp;
    plumbob_gmdc g;
    uint32_t n = s->rows * s->cols, nfat = 0, npreg = 0, i, r, c, f = 0;
    unsigned char *refs, *faces, *bones, *joints;
    size_t written = 0;
    uint32_t state = 0x5EED1400u;
    pool_used = 0;
    /* morph sets in perm order (an unsorted list, as a real file may have) */
    for (i = 0; i < n; i++) all[perm(i, n)] = i;
    for (i = 0; i < n; i++) {
        uint32_t v = all[i];
        if (in_fat(s, v)) fat[nfat++] = v;
        if (in_preg(s, v)) preg[npreg++] = v;
    }
    CHECK_EQ(nfat, s->fat);
    CHECK_EQ(npreg, s->preg);
    for (i = 0; i < BODY_ELEMENTS; i++) {
        const uint32_t *list = NULL;
        uint32_t entries = 0, count = n;
        if (i <= E_EUV) count = 0;
        else if (i == E_TI0 || ((i == E_MVD0 || i == E_MND0) && s->all_sparse)) { list = fat; entries = nfat; }
        else if (i == E_TI1 || ((i == E_MVD1 || i == E_MND1) && s->all_sparse)) { list = preg; entries = npreg; }
        else if (s->all_sparse && i != E_UV && i != E_BUMP) { list = all; entries = n; }
        if (!fill(&els[i], s, ids[i], i, i == E_TI1 || i == E_MVD1 || i == E_MND1 ? 1u : 0u, fmts[i], count, list,
                  entries))
            return 0;
    }
    refs = take(2u * (E_BUMP - E_POS + 1u));
    faces = take(2u * 6u * (s->rows - 1u) * (s->cols - 1u));
    bones = take(2u * s->joints);
    joints = take(28u * s->joints);
    if (!refs || !faces || !bones || !joints) return 0;
    for (i = E_POS; i <= E_BUMP; i++) pb_put_le16(refs + 2u * (i - E_POS), (uint16_t)i);
    for (r = 0; r + 1 < s->rows; r++)
        for (c = 0; c + 1 < s->cols; c++) {
            uint32_t a = r * s->cols + c, tri[6], k;
            tri[0] = a; tri[1] = a + 1u; tri[2] = a + s->cols;
            tri[3] = a + s->cols; tri[4] = a + 1u; tri[5] = a + s->cols + 1u;
            for (k = 0; k < 6; k++) pb_put_le16(faces + 2u * f++, (uint16_t)tri[k]);
        }
    for (i = 0; i < s->joints; i++) {
        /* slot i -> joint i * 17 mod joints (a permutation for 65 joints);
         * inverse binds: unit quaternions and translations from xorshift */
        plumbob_quat q;
        pb_put_le16(bones + 2u * i, (uint16_t)((i * 17u) % s->joints));
        q.x = fr(t_rand(&state), 1000u) - 0.5f;
        q.y = fr(t_rand(&state), 1000u) - 0.5f;
        q.z = fr(t_rand(&state), 1000u) - 0.5f;
        q.w = fr(t_rand(&state), 1000u) + 0.1f;
        q = plumbob_quat_normalize(q);
        pb_put_f32le(joints + 28u * i, q.x);
        pb_put_f32le(joints + 28u * i + 4u, q.y);
        pb_put_f32le(joints + 28u * i + 8u, q.z);
        pb_put_f32le(joints + 28u * i + 12u, q.w);
        for (c = 0; c < 3; c++) pb_put_f32le(joints + 28u * i + 16u + 4u * c, fr(t_rand(&state), 1000u) - 0.5f);
    }
    memset(&link, 0, sizeof link);
    link.refs.data = refs;
    link.refs.count = E_BUMP - E_POS + 1u;
    link.vertex_count = n;
    link.active_count = link.refs.count;
    memset(&grp, 0, sizeof grp);
    grp.primitive = PLUMBOB_GMDC_PRIMITIVE_TRIANGLES;
    grp.link = 0;
    grp.name.ptr = "body";
    grp.name.len = 4;
    grp.faces.data = faces;
    grp.faces.count = f;
    grp.opacity = 0xFFFFFFFFu;
    grp.bones.data = bones;
    grp.bones.count = s->joints;
    names[0].ptr = names[1].ptr = "";
    names[0].len = names[1].len = 0;
    names[2].ptr = names[3].ptr = "fatbot";
    names[2].len = names[3].len = 6;
    names[4].ptr = names[5].ptr = "pregbot";
    names[4].len = names[5].len = 7;
    memset(&g, 0, sizeof g);
    g.version = 4;
    g.index_size = 2;
    g.head.resource_name.ptr = "afBodyNaked_tslocator_gmdc";
    g.head.resource_name.len = 26;
    g.element_count = BODY_ELEMENTS;
    g.elements = els;
    g.linkage_count = 1;
    g.linkages = &link;
    g.group_count = 1;
    g.groups = &grp;
    g.joint_count = s->joints;
    g.joints = joints;
    g.morph_count = 3;
    g.morph_names = names;
    if (plumbob_gmdc_write(&g, out, cap, &written) != PLUMBOB_OK) return 0;
    CHECK_EQ(plumbob_gmdc_write_size(&g), written);
    return written;
}

static plumbob_result decode_body(const unsigned char *d, size_t n, plumbob_gmdc *g, plumbob_error *err) {
    plumbob_arena a;
    size_t need;
    plumbob_result r = plumbob_gmdc_measure_ex(d, n, &need, err);
    if (r != PLUMBOB_OK) return r;
    if (need > T_ARENA_SIZE) return PLUMBOB_ERR_OUT_OF_MEMORY;
    plumbob_arena_init(&a, t_arena_mem(), need);
    r = plumbob_gmdc_decode_ex(d, n, &a, g, err);
    if (r == PLUMBOB_OK) CHECK(a.used <= need && a.used + 64u * 8u >= need); /* the measure is close */
    return r;
}

void test_gmdc_sparse_body_round_trip(void) {
    unsigned char *buf = t_scratch(), *again = t_work();
    size_t n = build_body(&big, buf, T_SCRATCH_SIZE), n2 = 0;
    plumbob_gmdc g;
    plumbob_error err;
    const plumbob_gmdc_element *ti0, *ti1;
    uint32_t v, k, hits = 0;
    CHECK(n > 150000);
    CHECK_OK(decode_body(buf, n, &g, &err));
    CHECK_EQ(err.result, PLUMBOB_OK);
    CHECK_EQ(err.index, PLUMBOB_ERROR_NO_INDEX);
    CHECK_EQ(g.element_count, BODY_ELEMENTS);
    CHECK_EQ(g.linkages[0].vertex_count, BODY_NV);
    CHECK_EQ(g.joint_count, BODY_JOINTS);
    CHECK_EQ(g.groups[0].bones.count, BODY_JOINTS);
    CHECK_EQ(g.morph_count, 3);
    CHECK(g.morph_names[3].len == 6 && memcmp(g.morph_names[3].ptr, "fatbot", 6) == 0);
    CHECK(g.morph_names[5].len == 7 && memcmp(g.morph_names[5].ptr, "pregbot", 7) == 0);
    ti0 = &g.elements[E_TI0];
    ti1 = &g.elements[E_TI1];
    /* the shape of the real mesh: count 1400, one float3 per item-list entry */
    CHECK_EQ(ti0->identity, PLUMBOB_GMDC_TARGET_INDICES);
    CHECK_EQ(ti0->count, 1400);
    CHECK_EQ(ti0->items.count, 426);
    CHECK_EQ(ti0->byte_size, 426 * 12);
    CHECK_EQ(ti1->count, 1400);
    CHECK_EQ(ti1->items.count, 94);
    CHECK_EQ(ti1->byte_size, 94 * 12);
    CHECK(ti0->sparse != NULL && ti1->sparse != NULL && g.elements[E_POS].sparse == NULL);
    CHECK_EQ(g.elements[E_BW].format, 2); /* 3 stored weights */
    /* every vertex: its item is the list entry naming it, else none */
    for (v = 0; v < BODY_NV; v++) {
        uint32_t item = plumbob_gmdc_item(&g, ti0, v);
        if (in_fat(&big, v)) {
            CHECK(item < 426 && plumbob_gmdc_index(&g, &ti0->items, item) == v);
            hits++;
        } else {
            CHECK_EQ(item, PLUMBOB_GMDC_NO_ITEM);
        }
        item = plumbob_gmdc_item(&g, ti1, v);
        if (in_preg(&big, v)) CHECK(item < 94 && plumbob_gmdc_index(&g, &ti1->items, item) == v);
        else CHECK_EQ(item, PLUMBOB_GMDC_NO_ITEM);
        CHECK_EQ(plumbob_gmdc_item(&g, &g.elements[E_POS], v), v);
    }
    CHECK_EQ(hits, 426);
    CHECK_EQ(plumbob_gmdc_item(&g, ti0, BODY_NV), PLUMBOB_GMDC_NO_ITEM);
    CHECK_EQ(plumbob_gmdc_item(&g, &g.elements[E_POS], BODY_NV), PLUMBOB_GMDC_NO_ITEM);
    /* item k of the list holds target k's float3 */
    for (k = 0; k < 426; k += 25) {
        CHECK_EQ(pb_bits_from_f32(plumbob_gmdc_float(ti0, k, 1)), pb_bits_from_f32(val_target(0, k, 1)));
        t_digest_u32(plumbob_gmdc_index(&g, &ti0->items, k));
        t_digest_f32(plumbob_gmdc_float(ti0, k, 2));
    }
    CHECK_EQ(pb_bits_from_f32(plumbob_gmdc_float(ti1, 93, 0)), pb_bits_from_f32(val_target(1, 93, 0)));
    /* decode -> write: the same bytes */
    CHECK_EQ(plumbob_gmdc_write_size(&g), n);
    CHECK_OK(plumbob_gmdc_write(&g, again, T_WORK_SIZE, &n2));
    CHECK_EQ(n2, n);
    CHECK(memcmp(again, buf, n) == 0);
    t_digest_u32((uint32_t)n);
    /* the all-sparse variant round-trips too */
    n = build_body(&big_sparse, buf, T_SCRATCH_SIZE);
    CHECK(n > 0);
    CHECK_OK(decode_body(buf, n, &g, NULL));
    CHECK_EQ(g.elements[E_POS].items.count, BODY_NV);
    CHECK_EQ(g.elements[E_MVD1].items.count, 94);
    CHECK_OK(plumbob_gmdc_write(&g, again, T_WORK_SIZE, &n2));
    CHECK(n2 == n && memcmp(again, buf, n) == 0);
    t_digest_u32((uint32_t)n);
}

/* --- skinning against a double-precision reference --- */

static double d_sqrt(double x) {
    double y = plumbob_sqrtf((float)x);
    if (y <= 0) return 0;
    y = 0.5 * (y + x / y);
    return 0.5 * (y + x / y);
}

static void d_quat_matrix(const double q[4], double m[3][3]) {
    double x = q[0], y = q[1], z = q[2], w = q[3];
    m[0][0] = 1 - 2 * (y * y + z * z); m[0][1] = 2 * (x * y - z * w); m[0][2] = 2 * (x * z + y * w);
    m[1][0] = 2 * (x * y + z * w); m[1][1] = 1 - 2 * (x * x + z * z); m[1][2] = 2 * (y * z - x * w);
    m[2][0] = 2 * (x * z - y * w); m[2][1] = 2 * (y * z + x * w); m[2][2] = 1 - 2 * (x * x + y * y);
}

/* The pose: joint j's model transform, a unit quaternion and translation
 * from xorshift (the same floats go to plumbob and, widened, to the
 * reference). */
static void body_pose(uint32_t joints, plumbob_quat *q, plumbob_vec3 *t) {
    uint32_t state = 0xB0D1E5u, j;
    for (j = 0; j < joints; j++) {
        q[j].x = fr(t_rand(&state), 997u) - 0.5f;
        q[j].y = fr(t_rand(&state), 997u) - 0.5f;
        q[j].z = fr(t_rand(&state), 997u) - 0.5f;
        q[j].w = fr(t_rand(&state), 997u) + 0.2f;
        q[j] = plumbob_quat_normalize(q[j]);
        t[j].x = fr(t_rand(&state), 997u) - 0.5f;
        t[j].y = fr(t_rand(&state), 997u);
        t[j].z = fr(t_rand(&state), 997u) * 1.5f;
    }
}

/* palette[j] = model[j] * inverse_bind[j], all in double. */
static void d_palette(const plumbob_gmdc *g, const plumbob_quat *pq, const plumbob_vec3 *pt, uint32_t j,
                      double out[3][4]) {
    double mq[4], bq[4], bt[3], mr[3][3], br[3][3], mt[3], len;
    uint32_t a, b;
    plumbob_quat q;
    plumbob_vec3 t;
    plumbob_gmdc_joint(g, j, &q, &t);
    bq[0] = q.x; bq[1] = q.y; bq[2] = q.z; bq[3] = q.w;
    bt[0] = t.x; bt[1] = t.y; bt[2] = t.z;
    len = d_sqrt(bq[0] * bq[0] + bq[1] * bq[1] + bq[2] * bq[2] + bq[3] * bq[3]);
    for (a = 0; a < 4; a++) bq[a] /= len;
    mq[0] = pq[j].x; mq[1] = pq[j].y; mq[2] = pq[j].z; mq[3] = pq[j].w;
    mt[0] = pt[j].x; mt[1] = pt[j].y; mt[2] = pt[j].z;
    d_quat_matrix(mq, mr);
    d_quat_matrix(bq, br);
    for (a = 0; a < 3; a++) {
        for (b = 0; b < 3; b++) out[a][b] = mr[a][0] * br[0][b] + mr[a][1] * br[1][b] + mr[a][2] * br[2][b];
        out[a][3] = mr[a][0] * bt[0] + mr[a][1] * bt[1] + mr[a][2] * bt[2] + mt[a];
    }
}

static plumbob_result skin_body(const plumbob_gmdc *g, const plumbob_quat *pq, const plumbob_vec3 *pt,
                                const float *morphs, uint32_t flags, float *pos, float *nrm, uint32_t cap) {
    static plumbob_mat34 model[BODY_JOINTS], palette[BODY_JOINTS];
    plumbob_gmdc_skin_job job;
    uint32_t j;
    for (j = 0; j < g->joint_count; j++) model[j] = plumbob_mat34_from_rt(pq[j], pt[j]);
    CHECK_OK(plumbob_gmdc_palette(g, model, palette, (uint32_t)(sizeof palette / sizeof palette[0])));
    memset(&job, 0, sizeof job);
    job.work = skin_work;
    job.gmdc = g;
    job.palette = palette;
    job.palette_count = BODY_JOINTS;
    job.morph_weights = morphs;
    job.morph_weight_count = g->morph_count; /* the callers' weights hold morph_count */
    job.positions = pos;
    job.position_stride = 3;
    job.position_count = cap; /* vertices pos and nrm hold */
    job.normals = nrm;
    job.normal_stride = 3;
    job.normal_count = cap;
    job.flags = flags;
    return plumbob_gmdc_skin(&job);
}

void test_gmdc_sparse_body_skinning(void) {
    static float pos[BODY_NV * 3], nrm[BODY_NV * 3], pos2[BODY_NV * 3], nrm2[BODY_NV * 3];
    static double pal[BODY_JOINTS][3][4];
    static plumbob_quat pq[BODY_JOINTS];
    static plumbob_vec3 pt[BODY_JOINTS];
    static const float morphs[3] = {0, 0.75f, 0.5f}; /* fatbot 0.75, pregbot 0.5 */
    unsigned char *buf = t_scratch();
    size_t n = build_body(&big, buf, T_SCRATCH_SIZE);
    plumbob_gmdc g;
    double worst_p = 0, worst_n = 0;
    uint32_t v, k, c, j, moved = 0;
    CHECK_OK(decode_body(buf, n, &g, NULL));
    body_pose(BODY_JOINTS, pq, pt);
    for (j = 0; j < BODY_JOINTS; j++) d_palette(&g, pq, pt, j, pal[j]);
    CHECK_OK(skin_body(&g, pq, pt, morphs, 0, pos, nrm, (uint32_t)(sizeof pos / sizeof pos[0] / 3)));
    for (v = 0; v < BODY_NV; v++) {
        uint32_t a = val_assign(&big, v), ids = val_map(&big, v);
        double p[3] = {0, 0, 0}, nn[3] = {0, 0, 0}, want[3] = {0, 0, 0}, wn[3] = {0, 0, 0}, sum = 0, len = 0, d;
        for (c = 0; c < 3; c++) {
            p[c] = val_pos(&big, v, c);
            nn[c] = val_nrm(v, c);
        }
        for (k = 0; k < 2; k++) { /* morph map byte k: delta set k */
            uint32_t id = (ids >> (8 * k)) & 0xFFu;
            if (!id) continue;
            for (c = 0; c < 3; c++) {
                p[c] += (double)morphs[id] * val_delta(k, v, c);
                nn[c] += (double)morphs[id] * val_ndelta(k, v, c);
            }
        }
        moved += ids != 0;
        for (k = 0; k < 4; k++) { /* slot -> bone list -> joint; 4th weight implied */
            uint32_t slot = (a >> (8 * k)) & 0xFFu, joint;
            double w;
            if (slot == 0xFFu) continue;
            joint = (slot * 17u) % BODY_JOINTS;
            w = k < 3 ? (double)val_weight(v, k) : 1.0 - sum;
            sum += w;
            for (c = 0; c < 3; c++) {
                want[c] += w * (pal[joint][c][0] * p[0] + pal[joint][c][1] * p[1] + pal[joint][c][2] * p[2] + pal[joint][c][3]);
                wn[c] += w * (pal[joint][c][0] * nn[0] + pal[joint][c][1] * nn[1] + pal[joint][c][2] * nn[2]);
            }
        }
        for (c = 0; c < 3; c++) len += wn[c] * wn[c];
        len = d_sqrt(len);
        for (c = 0; c < 3; c++) {
            d = pos[3 * v + c] - want[c];
            if (d < 0) d = -d;
            if (d > worst_p) worst_p = d;
            d = nrm[3 * v + c] - wn[c] / len;
            if (d < 0) d = -d;
            if (d > worst_n) worst_n = d;
            t_digest_f32(pos[3 * v + c]);
            t_digest_f32(nrm[3 * v + c]);
        }
    }
    CHECK_EQ(moved, 426 + 94 - 426 / 16);
    CHECK_NEAR(worst_p, 0, 4e-6); /* measured 3.7e-7 on x86-64 */
    CHECK_NEAR(worst_n, 0, 4e-6); /* measured 4.6e-7 */
    /* the scalar reference kernel gives the same bits */
    CHECK_OK(skin_body(&g, pq, pt, morphs, PLUMBOB_SKIN_REFERENCE, pos2, nrm2, (uint32_t)(sizeof pos2 / sizeof pos2[0] / 3)));
    CHECK(memcmp(pos, pos2, sizeof pos) == 0 && memcmp(nrm, nrm2, sizeof nrm) == 0);
    /* every per-vertex element sparse, item lists shuffled: the same bits */
    n = build_body(&big_sparse, buf, T_SCRATCH_SIZE);
    CHECK_OK(decode_body(buf, n, &g, NULL));
    CHECK(g.elements[E_BA].sparse != NULL && g.elements[E_MND0].items.count == 426);
    memset(pos2, 0, sizeof pos2);
    memset(nrm2, 0, sizeof nrm2);
    CHECK_OK(skin_body(&g, pq, pt, morphs, 0, pos2, nrm2, (uint32_t)(sizeof pos2 / sizeof pos2[0] / 3)));
    CHECK(memcmp(pos, pos2, sizeof pos) == 0 && memcmp(nrm, nrm2, sizeof nrm) == 0);
    /* and without normals (positions only, still through the item lists) */
    {
        plumbob_gmdc_skin_job job;
        static plumbob_mat34 model[BODY_JOINTS], palette[BODY_JOINTS];
        for (j = 0; j < BODY_JOINTS; j++) model[j] = plumbob_mat34_from_rt(pq[j], pt[j]);
        CHECK_OK(plumbob_gmdc_palette(&g, model, palette, (uint32_t)(sizeof palette / sizeof palette[0])));
        memset(&job, 0, sizeof job);
        job.work = skin_work;
        memset(pos2, 0, sizeof pos2);
        job.gmdc = &g;
        job.palette = palette;
        job.palette_count = BODY_JOINTS;
        job.morph_weights = morphs;
        job.morph_weight_count = 3;
        job.positions = pos2;
        job.position_stride = 3;
        job.position_count = BODY_NV;
        CHECK_OK(plumbob_gmdc_skin(&job));
        CHECK(memcmp(pos, pos2, sizeof pos) == 0);
    }
}

/* A sparse element's lookups with and without the decoded index, a vertex
 * named twice (the first entry counts), and vertices without items in the
 * skinner (the defaults plumbob.h lists). */
void test_gmdc_sparse_lookup_and_defaults(void) {
    unsigned char *buf = t_scratch();
    size_t n = build_body(&small_sparse, buf, T_SCRATCH_SIZE);
    plumbob_gmdc g;
    plumbob_gmdc_element e;
    unsigned char items[8], data[4 * 12];
    static const uint16_t list[4] = {5, 3, 5, 1};
    uint32_t k;
    CHECK(n > 0);
    CHECK_OK(decode_body(buf, n, &g, NULL));
    memset(&e, 0, sizeof e);
    for (k = 0; k < 4; k++) pb_put_le16(items + 2 * k, list[k]);
    e.count = 6;
    e.format = 2;
    e.byte_size = sizeof data;
    e.data = data;
    e.items.data = items;
    e.items.count = 4;
    CHECK_EQ(plumbob_gmdc_item(&g, &e, 5), 0); /* scan: first entry */
    CHECK_EQ(plumbob_gmdc_item(&g, &e, 3), 1);
    CHECK_EQ(plumbob_gmdc_item(&g, &e, 1), 3);
    CHECK_EQ(plumbob_gmdc_item(&g, &e, 0), PLUMBOB_GMDC_NO_ITEM);
    CHECK_EQ(plumbob_gmdc_item(&g, &e, 6), PLUMBOB_GMDC_NO_ITEM);
    CHECK_EQ(plumbob_gmdc_item(&g, NULL, 0), PLUMBOB_GMDC_NO_ITEM);
    {
        /* the same list through a decode: binary search, same answers */
        plumbob_gmdc_element *ti = &g.elements[E_TI1];
        unsigned char *il = buf + (ti->items.data - buf);
        CHECK_EQ(ti->items.count, 3);
        pb_put_le16(il, 5); pb_put_le16(il + 2, 5); pb_put_le16(il + 4, 1);
        CHECK_OK(decode_body(buf, n, &g, NULL));
        ti = &g.elements[E_TI1];
        CHECK_EQ(plumbob_gmdc_item(&g, ti, 5), 0);
        CHECK_EQ(plumbob_gmdc_item(&g, ti, 1), 2);
        CHECK_EQ(plumbob_gmdc_item(&g, ti, 3), PLUMBOB_GMDC_NO_ITEM);
    }
    {
        /* drop vertex all[0]'s entry from the sparse positions and bone
         * assignments (point it at another vertex): it reads position 0 and
         * no influence, so it skins to the origin */
        static float pos[20 * 3], nrm[20 * 3];
        static plumbob_quat pq[6];
        static plumbob_vec3 pt[6];
        plumbob_gmdc_element *pe = &g.elements[E_POS], *be = &g.elements[E_BA];
        uint32_t victim = plumbob_gmdc_index(&g, &pe->items, 0), other = plumbob_gmdc_index(&g, &pe->items, 1);
        unsigned char *pl = buf + (pe->items.data - buf), *bl = buf + (be->items.data - buf);
        CHECK_EQ(plumbob_gmdc_index(&g, &be->items, 0), victim);
        pb_put_le16(pl, (uint16_t)other);
        pb_put_le16(bl, (uint16_t)other);
        CHECK_OK(decode_body(buf, n, &g, NULL));
        CHECK_EQ(plumbob_gmdc_item(&g, &g.elements[E_POS], victim), PLUMBOB_GMDC_NO_ITEM);
        CHECK_EQ(plumbob_gmdc_item(&g, &g.elements[E_POS], other), 0); /* first entry counts */
        body_pose(6, pq, pt);
        CHECK_OK(skin_body(&g, pq, pt, NULL, 0, pos, nrm, (uint32_t)(sizeof pos / sizeof pos[0] / 3)));
        CHECK_EQ(pb_bits_from_f32(pos[3 * victim]), 0);
        CHECK_EQ(pb_bits_from_f32(pos[3 * victim + 1]), 0);
        CHECK_EQ(pb_bits_from_f32(pos[3 * victim + 2]), 0);
        CHECK(pos[3 * other] != 0 || pos[3 * other + 1] != 0);
        for (k = 0; k < 60; k++) t_digest_f32(pos[k]);
    }
}

/* Errors say where: offset, table, entry, reason. */
void test_gmdc_sparse_errors(void) {
    unsigned char *buf = t_scratch();
    size_t n = build_body(&big, buf, T_SCRATCH_SIZE), at;
    plumbob_gmdc g;
    plumbob_error err;
    CHECK_OK(decode_body(buf, n, &g, &err));
    /* an item-list entry at the element's count */
    at = (size_t)(g.elements[E_TI1].items.data - buf) + 2u * 7u;
    pb_put_le16(buf + at, 1400);
    CHECK_EQ(decode_body(buf, n, &g, &err), PLUMBOB_ERR_BAD_INDEX);
    CHECK_EQ(err.result, PLUMBOB_ERR_BAD_INDEX);
    CHECK_EQ(err.offset, at);
    CHECK(strcmp(err.table, "element") == 0);
    CHECK_EQ(err.index, E_TI1);
    CHECK(strcmp(err.reason, "item-list entry not below the element's count") == 0);
    pb_put_le16(buf + at, 1399);
    CHECK_OK(decode_body(buf, n, &g, &err));
    /* sparse data size not matching the item list (one item short),
     * written by our writer from the decoded mesh */
    {
        size_t n2 = 0;
        at = (size_t)(g.elements[E_TI0].data - buf) - 4u;
        g.elements[E_TI0].byte_size -= 12u;
        CHECK_OK(plumbob_gmdc_write(&g, t_work(), T_WORK_SIZE, &n2));
        CHECK_EQ(n2, n - 12u);
        CHECK_EQ(decode_body(t_work(), n2, &g, &err), PLUMBOB_ERR_BAD_DATA);
        CHECK_EQ(err.index, E_TI0);
        CHECK_EQ(err.offset, at);
        CHECK(strcmp(err.reason, "sparse data size is not item-list entries times the item size") == 0);
        CHECK_OK(decode_body(buf, n, &g, &err));
        /* a triangle list one face index short */
        at = (size_t)(g.groups[0].faces.data - buf) - 4u;
        g.groups[0].faces.count -= 1u;
        CHECK_OK(plumbob_gmdc_write(&g, t_work(), T_WORK_SIZE, &n2));
        CHECK_EQ(decode_body(t_work(), n2, &g, &err), PLUMBOB_ERR_BAD_COUNT);
        CHECK(strcmp(err.table, "group") == 0);
        CHECK_EQ(err.index, 0);
        CHECK_EQ(err.offset, at);
        CHECK_OK(decode_body(buf, n, &g, &err));
    }
    /* a bone slot past the 65-entry bone list, in the dense assignments */
    at = (size_t)(g.elements[E_BA].data - buf) + 4u * 10u + 1u;
    buf[at] = 65;
    CHECK_EQ(decode_body(buf, n, &g, &err), PLUMBOB_ERR_BAD_INDEX);
    CHECK_EQ(err.offset, at);
    CHECK_EQ(err.index, E_BA);
    CHECK(strcmp(err.reason, "bone slot past the group's bone list") == 0);
    buf[at] = 64;
    CHECK_OK(decode_body(buf, n, &g, &err));
    at = (size_t)(g.groups[0].faces.data - buf) - 4u;
    CHECK_EQ(pb_le32(buf + at), 6u * 34u * 39u);
    /* a primitive type the page does not list: decodes and round-trips, but
     * the skinner refuses it */
    {
        size_t prim = at - 5u - 4u - 4u; /* name "body" (1 + 4 bytes), link, primitive */
        plumbob_gmdc_skin_job job;
        static float pos[BODY_NV * 3];
        size_t n2 = 0;
        CHECK_EQ(pb_le32(buf + prim), 2);
        buf[prim] = 1;
        CHECK_OK(decode_body(buf, n, &g, &err));
        CHECK_EQ(g.groups[0].primitive, 1);
        CHECK_OK(plumbob_gmdc_write(&g, t_work(), T_WORK_SIZE, &n2));
        CHECK(n2 == n && memcmp(t_work(), buf, n) == 0);
        memset(&job, 0, sizeof job);
        job.work = skin_work;
        job.gmdc = &g;
        job.positions = pos;
        job.position_stride = 3;
        job.position_count = BODY_NV;
        CHECK_EQ(plumbob_gmdc_skin(&job), PLUMBOB_ERR_UNSUPPORTED);
        buf[prim] = 2;
    }
    /* cut in the middle of the second Target Indices element's data (cut
     * earlier, the element count is already more than the bytes left) */
    CHECK_OK(decode_body(buf, n, &g, &err));
    at = (size_t)(g.elements[E_TI1].data - buf) + 100u;
    CHECK_EQ(decode_body(buf, at, &g, &err), PLUMBOB_ERR_TRUNCATED);
    CHECK(strcmp(err.table, "element") == 0);
    CHECK_EQ(err.index, E_TI1);
    CHECK(err.offset <= at);
    CHECK(strcmp(err.reason, "runs past the end of the data") == 0);
    /* the plain calls give the same results */
    CHECK_EQ(plumbob_gmdc_measure(buf, at, &n), PLUMBOB_ERR_TRUNCATED);
    CHECK_EQ(n, SIZE_MAX); /* the sizing rule: bad input is SIZE_MAX, never 0 */
    CHECK_EQ(plumbob_gmdc_measure(NULL, at, &n), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(n, SIZE_MAX);
    t_digest_u32((uint32_t)err.offset);
}

void test_gmdc_sparse_truncation_and_bitflips(void) {
    unsigned char *buf = t_scratch();
    size_t n = build_body(&small_sparse, buf, T_SCRATCH_SIZE), len, bit, n2;
    int oks = 0, round_trips = 0;
    plumbob_gmdc g;
    plumbob_error err;
    CHECK(n > 0);
    for (len = 0; len < n; len++) {
        plumbob_result r = decode_body(buf, len, &g, &err);
        CHECK(r != PLUMBOB_OK && (unsigned)r < PLUMBOB_RESULT_COUNT);
        CHECK(err.result == r && err.offset <= len && err.reason[0] != 0);
    }
    for (bit = 0; bit < n * 8; bit += 3) {
        plumbob_result r;
        buf[bit / 8] ^= (unsigned char)(1u << (bit % 8));
        r = decode_body(buf, n, &g, &err);
        CHECK((unsigned)r < PLUMBOB_RESULT_COUNT);
        CHECK(err.result == r && err.offset <= n);
        if (r == PLUMBOB_OK) {
            /* whatever decodes writes back to the same bytes and skins */
            static float pos[20 * 3], nrm[20 * 3];
            static plumbob_mat34 palette[64];
            plumbob_gmdc_skin_job job;
            oks++;
            n2 = 0;
            if (plumbob_gmdc_write(&g, t_work(), T_WORK_SIZE, &n2) == PLUMBOB_OK && n2 == n &&
                memcmp(t_work(), buf, n) == 0)
                round_trips++;
            if (g.group_count > 0 && g.joint_count <= 64 && g.linkages[g.groups[0].link].vertex_count <= 20) {
                CHECK_OK(plumbob_gmdc_palette(&g, NULL, palette, (uint32_t)(sizeof palette / sizeof palette[0])));
                memset(&job, 0, sizeof job);
                job.work = skin_work;
                job.gmdc = &g;
                job.palette = palette;
                job.palette_count = 64;
                job.positions = pos;
                job.position_stride = 3;
                job.position_count = 20;
                job.normals = nrm;
                job.normal_stride = 3;
                job.normal_count = 20;
                r = plumbob_gmdc_skin(&job);
                CHECK(r == PLUMBOB_OK || r == PLUMBOB_ERR_UNSUPPORTED || r == PLUMBOB_ERR_BAD_DATA);
            }
        }
        buf[bit / 8] ^= (unsigned char)(1u << (bit % 8));
    }
    CHECK(oks > 0);
    CHECK_EQ(round_trips, oks);
    t_digest_u32((uint32_t)oks);
    t_digest_u32((uint32_t)n);
}
