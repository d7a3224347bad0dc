/* Sims 2 CRES: a 65-joint body skeleton built with plumbob's writer (every
 * block kind, children listed before their parents, an unknown last block),
 * the skeleton and joint map it gives, a mesh bound to it whose palette is
 * the identity at rest, malformed inputs, sweeps and the real teapot CRES. */
#include <stdlib.h>
#include <string.h>
#include "test.h"
#include "pb_bytes.h"

/* scratch for skin jobs (PLUMBOB_GMDC_SKIN_WORK_SIZE) */
static unsigned char skin_work[PLUMBOB_GMDC_SKIN_WORK_SIZE];

#define CJ 65                      /* joints */
#define C_FIRST_JOINT 5            /* block of the last joint; joints are stored last first */
#define C_BLOCKS (C_FIRST_JOINT + 2 * CJ + 1)

static plumbob_cres_block cb[C_BLOCKS];
static plumbob_cres_ref c_children[CJ][2], c_ext[CJ], c_root_children[2], c_grp_child[1], c_res_ext[1],
    c_shapes[1];
static char c_names[CJ][12];
static plumbob_string c_groups[1], c_morph_names[2];
static unsigned char c_morph_weights[8], c_list[128], c_unknown[6];
static size_t c_list_size;
static plumbob_sims2_link c_link;

static plumbob_string lit(const char *s) {
    plumbob_string v;
    v.ptr = s;
    v.len = strlen(s);
    return v;
}

static plumbob_cres_head hd(const char *name, uint32_t id, uint32_t version) {
    plumbob_cres_head h;
    h.name = lit(name);
    h.id = id;
    h.version = version;
    return h;
}

static plumbob_cres_ref iref(uint32_t index) {
    plumbob_cres_ref r;
    r.present = 1;
    r.external = 0;
    r.index = index;
    return r;
}

static uint32_t joint_block(uint32_t j) { return C_FIRST_JOINT + (CJ - 1u - j); }
static int32_t joint_parent(uint32_t j) { return j == 0 ? -1 : (int32_t)((j - 1u) / 2u); }

/* Joint j's rest transform: a small rotation and an offset from its parent. */
static void joint_rest(uint32_t j, plumbob_quat *q, plumbob_vec3 *t) {
    plumbob_quat r;
    r.x = 0.05f * (float)(j % 5u) - 0.1f;
    r.y = 0.03f * (float)(j % 7u);
    r.z = -0.02f * (float)(j % 3u);
    r.w = 1.0f;
    *q = plumbob_quat_normalize(r);
    t->x = 0.01f * (float)(j % 4u);
    t->y = j == 0 ? 1.0f : 0.1f + 0.001f * (float)j;
    t->z = -0.005f * (float)(j % 6u);
}

static void tree_node(plumbob_cres_node *n, const char *tag, const plumbob_cres_ref *ext, uint32_t n_ext,
                      const plumbob_cres_ref *children, uint32_t n_children) {
    n->tree = hd("cCompositionTreeNode", 0, 11);
    n->graph = hd("cObjectGraphNode", 0, 4);
    n->extensions = ext;
    n->extension_count = n_ext;
    n->tag = lit(tag);
    n->children = children;
    n->child_count = n_children;
}

/* Blocks: 0 resource, 1 data list, 2 shape ref, 3 group transform (no
 * joint), 4 .. joints (stored last joint first), bone data per joint, and an
 * unknown kind last. */
static void build_cres(plumbob_cres *c) {
    uint32_t j, i;
    memset(c, 0, sizeof *c);
    memset(cb, 0, sizeof cb);
    cb[0].kind = PLUMBOB_CRES_KIND_RESOURCE;
    cb[0].head = hd("cResourceNode", PLUMBOB_CRES_RESOURCE_NODE, 7);
    cb[0].u.resource.form = 1;
    cb[0].u.resource.sg = hd("cSGResource", 0, 2);
    cb[0].u.resource.name = lit("afbodytest_cres");
    c_res_ext[0] = iref(1);
    c_root_children[0] = iref(2);
    c_root_children[1] = iref(3);
    tree_node(&cb[0].u.resource.node, "afbodytest_cres", c_res_ext, 1, c_root_children, 2);
    cb[0].u.resource.skin_type = 3;

    /* data list: list "thumbnail" of a string and an i32 */
    {
        unsigned char *p = c_list;
        *p++ = 7; *p++ = 9; memcpy(p, "thumbnail", 9); p += 9;
        pb_put_le32(p, 2); p += 4;
        *p++ = 6; *p++ = 1; *p++ = 's'; *p++ = 3; memcpy(p, "abc", 3); p += 3;
        *p++ = 2; *p++ = 1; *p++ = 'n'; pb_put_le32(p, 42); p += 4;
        c_list_size = (size_t)(p - c_list);
    }
    cb[1].kind = PLUMBOB_CRES_KIND_DATA_LIST;
    cb[1].head = hd("cDataListExtension", PLUMBOB_CRES_DATA_LIST_EXTENSION, 1);
    cb[1].u.data_list.extension = hd("cExtension", 0, 3);
    cb[1].u.data_list.items = c_list;
    cb[1].u.data_list.items_size = c_list_size;

    cb[2].kind = PLUMBOB_CRES_KIND_SHAPE_REF;
    cb[2].head = hd("cShapeRefNode", PLUMBOB_CRES_SHAPE_REF_NODE, 21);
    {
        plumbob_cres_shape_ref *s = &cb[2].u.shape_ref;
        s->renderable = hd("cRenderableNode", 0, 5);
        s->bounded = hd("cBoundedNode", 0, 5);
        s->transform_head = hd("cTransformNode", PLUMBOB_CRES_TRANSFORM_NODE, 7);
        tree_node(&s->transform.node, "body", NULL, 0, NULL, 0);
        s->transform.rotation = plumbob_quat_identity();
        s->transform.joint = 0; /* as in real files: not a joint, since it is a shape */
        s->bounded_flag = 1;
        c_groups[0] = lit("Practical");
        s->groups = c_groups;
        s->group_count = 1;
        s->display = 1;
        c_shapes[0].present = 1;
        c_shapes[0].external = 1;
        c_shapes[0].index = 0;
        s->shapes = c_shapes;
        s->shape_count = 1;
        s->display_flags = 0x10;
        pb_put_f32le(c_morph_weights, 0.25f);
        pb_put_f32le(c_morph_weights + 4, 0.0f);
        c_morph_names[0] = lit("fat");
        c_morph_names[1] = lit("preg");
        s->morph_count = 2;
        s->morph_weights = c_morph_weights;
        s->morph_names = c_morph_names;
        s->colour = 0xFFFFFFFFu;
    }

    cb[3].kind = PLUMBOB_CRES_KIND_TRANSFORM;
    cb[3].head = hd("cTransformNode", PLUMBOB_CRES_TRANSFORM_NODE, 7);
    c_grp_child[0] = iref(joint_block(0));
    tree_node(&cb[3].u.transform.node, "auskel", NULL, 0, c_grp_child, 1);
    cb[3].u.transform.rotation = plumbob_quat_identity();
    cb[3].u.transform.joint = PLUMBOB_CRES_NO_JOINT;

    cb[4].kind = PLUMBOB_CRES_KIND_BONE_DATA; /* one bone data block not referenced */
    cb[4].head = hd("cBoneDataExtension", PLUMBOB_CRES_BONE_DATA_EXTENSION, 3);
    cb[4].u.bone_data.extension = hd("cExtension", 0, 3);
    cb[4].u.bone_data.stretch = 1.0f;

    for (j = 0; j < CJ; j++) {
        plumbob_cres_block *b = &cb[joint_block(j)], *d = &cb[C_FIRST_JOINT + CJ + j];
        uint32_t n = 0;
        for (i = 1; i <= 2; i++)
            if (2u * j + i < CJ) c_children[j][n++] = iref(joint_block(2u * j + i));
        c_ext[j] = iref(C_FIRST_JOINT + CJ + j);
        memcpy(c_names[j], "bone_", 5);
        c_names[j][5] = (char)('0' + j / 10u);
        c_names[j][6] = (char)('0' + j % 10u);
        c_names[j][7] = 0;
        b->kind = PLUMBOB_CRES_KIND_TRANSFORM;
        b->head = hd("cTransformNode", PLUMBOB_CRES_TRANSFORM_NODE, 7);
        tree_node(&b->u.transform.node, c_names[j], &c_ext[j], 1, c_children[j], n);
        joint_rest(j, &b->u.transform.rotation, &b->u.transform.translation);
        b->u.transform.joint = j;
        d->kind = PLUMBOB_CRES_KIND_BONE_DATA;
        d->head = hd("cBoneDataExtension", PLUMBOB_CRES_BONE_DATA_EXTENSION, 5);
        d->u.bone_data.extension = hd("cExtension", 0, 3);
        d->u.bone_data.heading_axis = (int32_t)(j % 3u);
        d->u.bone_data.mirror_axis = -1;
        d->u.bone_data.stretch_axis = 1;
        d->u.bone_data.stretch = 1.0f + 0.01f * (float)j;
        d->u.bone_data.orientation = plumbob_quat_identity();
    }
    cb[C_BLOCKS - 1].kind = PLUMBOB_CRES_KIND_UNKNOWN;
    cb[C_BLOCKS - 1].head = hd("cTagExtension", 0x9A809646u, 3);
    memcpy(c_unknown, "\x02xy\x01\x02\x03", 6);
    cb[C_BLOCKS - 1].u.raw.bytes = c_unknown;
    cb[C_BLOCKS - 1].u.raw.size = 6;
    c->block_count = C_BLOCKS;
    c->blocks = cb;
    c_link.group = 0x1C0532FAu; /* the shape this node draws */
    c_link.instance = 0x12345678u;
    c_link.instance_hi = 0x9ABCDEF0u;
    c_link.type = 0xFC6EB1F7u;
    c->rcol.link_count = 1;
    c->links = &c_link;
}

static plumbob_result decode_cres(const unsigned char *d, size_t n, plumbob_arena *a, plumbob_cres *c) {
    size_t need;
    plumbob_result r = plumbob_cres_measure(d, n, &need);
    if (r != PLUMBOB_OK) {
        if (need != SIZE_MAX) t_fail(__FILE__, __LINE__, "measure failed without storing SIZE_MAX");
        return r;
    }
    if (need > T_ARENA_SIZE / 2) return PLUMBOB_ERR_OUT_OF_MEMORY;
    plumbob_arena_init(a, t_arena_mem(), T_ARENA_SIZE);
    r = plumbob_cres_decode(d, n, a, c);
    if (r == PLUMBOB_OK && a->used > need) t_fail(__FILE__, __LINE__, "measure below what decode used");
    return r;
}

static size_t write_body(unsigned char *out, size_t cap) {
    plumbob_cres c;
    size_t n = 0;
    build_cres(&c);
    CHECK_OK(plumbob_cres_write(&c, out, cap, &n));
    CHECK_EQ(n, plumbob_cres_write_size(&c));
    return n;
}

void test_cres_synthetic_round_trip(void) {
    unsigned char *buf = t_scratch(), *again = buf + 65536;
    plumbob_arena a;
    plumbob_cres c;
    plumbob_cres_skeleton sk;
    size_t n = write_body(buf, 65536), m = 0, need;
    int32_t bone_of_joint[CJ + 1];
    uint32_t j;
    CHECK_OK(decode_cres(buf, n, &a, &c));
    if (!c.blocks) return;
    CHECK_EQ(c.block_count, C_BLOCKS);
    CHECK_OK(plumbob_cres_write(&c, again, 65536, &m));
    CHECK_EQ(m, n);
    CHECK(memcmp(buf, again, n) == 0);
    CHECK_EQ(c.blocks[0].u.resource.skin_type, 3);
    CHECK_EQ(c.blocks[1].kind, PLUMBOB_CRES_KIND_DATA_LIST);
    CHECK_EQ(c.blocks[1].u.data_list.item_type, 7);
    CHECK_EQ(c.blocks[1].u.data_list.item_count, 2);
    CHECK(c.blocks[1].u.data_list.item_name.len == 9 && memcmp(c.blocks[1].u.data_list.item_name.ptr, "thumbnail", 9) == 0);
    CHECK_EQ(c.blocks[2].u.shape_ref.morph_count, 2);
    CHECK(c.blocks[2].u.shape_ref.morph_names[1].len == 4);
    CHECK_EQ(c.blocks[C_BLOCKS - 1].kind, PLUMBOB_CRES_KIND_UNKNOWN);
    CHECK_EQ(c.blocks[C_BLOCKS - 1].u.raw.size, 6);
    CHECK_NEAR(c.blocks[C_FIRST_JOINT + CJ + 7].u.bone_data.stretch, 1.07, 1e-6);

    need = plumbob_cres_skeleton_size(&c);
    CHECK(need > 0 && need < plumbob_arena_remaining(&a, 0));
    {
        size_t before = a.used;
        CHECK_OK(plumbob_cres_skeleton_build(&c, &a, &sk));
        CHECK(a.used - before <= need);
    }
    CHECK_EQ(sk.skeleton.bone_count, CJ + 2); /* joints, the group node and the shape */
    CHECK_OK(plumbob_skeleton_validate(&sk.skeleton));
    /* depth first from the resource node: shape, auskel, bone_00, bone_01, bone_03 ... */
    CHECK_EQ(sk.block_of_bone[0], 2);
    CHECK_EQ(sk.block_of_bone[1], 3);
    CHECK_EQ(sk.block_of_bone[2], joint_block(0));
    CHECK_EQ(sk.block_of_bone[3], joint_block(1));
    CHECK_EQ(sk.block_of_bone[4], joint_block(3));
    CHECK_EQ(sk.skeleton.parent[0], -1);
    CHECK_EQ(sk.skeleton.parent[1], -1);
    CHECK_EQ(sk.skeleton.parent[2], 1);
    CHECK_EQ(sk.joint_of_bone[0], PLUMBOB_CRES_NO_JOINT);
    CHECK_EQ(sk.joint_of_bone[1], PLUMBOB_CRES_NO_JOINT);
    CHECK_EQ(sk.bone_of_block[0], -1);
    CHECK_EQ(sk.bone_of_block[joint_block(0)], 2);
    CHECK_EQ(plumbob_cres_joint_map(&sk, CJ + 1, bone_of_joint), CJ);
    CHECK_EQ(bone_of_joint[CJ], -1);
    for (j = 0; j < CJ; j++) {
        int32_t b = bone_of_joint[j], pj = joint_parent(j);
        plumbob_quat q;
        plumbob_vec3 t;
        CHECK(b >= 0);
        if (b < 0) continue;
        CHECK_EQ(sk.joint_of_bone[b], j);
        CHECK(sk.skeleton.name[b].len == 7 && memcmp(sk.skeleton.name[b].ptr, c_names[j], 7) == 0);
        CHECK_EQ(sk.skeleton.name_hash[b], plumbob_fnv32_str(c_names[j]));
        CHECK_EQ(sk.skeleton.parent[b], pj < 0 ? 1 : bone_of_joint[pj]);
        joint_rest(j, &q, &t);
        /* the whole rest pose: rotation, translation, unit scale */
        CHECK_NEAR(sk.skeleton.rest[b].rotation.x, q.x, 0);
        CHECK_NEAR(sk.skeleton.rest[b].rotation.y, q.y, 0);
        CHECK_NEAR(sk.skeleton.rest[b].rotation.z, q.z, 0);
        CHECK_NEAR(sk.skeleton.rest[b].rotation.w, q.w, 0);
        CHECK_NEAR(sk.skeleton.rest[b].translation.x, t.x, 0);
        CHECK_NEAR(sk.skeleton.rest[b].translation.y, t.y, 0);
        CHECK_NEAR(sk.skeleton.rest[b].translation.z, t.z, 0);
        CHECK_NEAR(sk.skeleton.rest[b].scale.x, 1.0, 0);
        CHECK_NEAR(sk.skeleton.rest[b].scale.y, 1.0, 0);
        CHECK_NEAR(sk.skeleton.rest[b].scale.z, 1.0, 0);
        t_digest_u32((uint32_t)sk.skeleton.parent[b]);
        t_digest_f32(sk.skeleton.rest[b].rotation.w);
    }
    CHECK_EQ(plumbob_cres_find_bone(&sk, "BONE_07", 7), bone_of_joint[7]);
    CHECK_EQ(plumbob_cres_find_bone(&sk, "bone_7", 6), -1);
    t_digest_u64(n);
    t_digest_bytes(buf, n);
}

/* A mesh bound to the skeleton: each joint's inverse bind is the inverse of
 * its model rest transform, so palette = model * inverse bind is the
 * identity at rest and skinning at rest gives the stored positions. */
void test_cres_palette_identity_at_rest(void) {
    unsigned char *buf = t_scratch(), *mesh = buf + 65536;
    static unsigned char joints[CJ * 28], verts[CJ * 12], assign[CJ * 4], weights[CJ * 12], refs[3 * 2],
        faces[3 * 2], bones[CJ * 2];
    static plumbob_mat34 model[CJ + 2], jm[CJ], palette[CJ];
    static float out[CJ * 3];
    plumbob_gmdc_element els[3];
    plumbob_gmdc_linkage link;
    plumbob_gmdc_group grp;
    plumbob_gmdc g, dg;
    plumbob_arena a;
    plumbob_cres c;
    plumbob_cres_skeleton sk;
    int32_t bone_of_joint[CJ];
    plumbob_gmdc_skin_job job;
    size_t n = write_body(buf, 65536), m = 0, need;
    uint32_t j, k;
    CHECK_OK(decode_cres(buf, n, &a, &c));
    if (!c.blocks) return;
    CHECK_OK(plumbob_cres_skeleton_build(&c, &a, &sk));
    CHECK_OK(plumbob_skeleton_model(&sk.skeleton, NULL, model, (uint32_t)(sizeof model / sizeof model[0])));
    CHECK_EQ(plumbob_cres_joint_map(&sk, CJ, bone_of_joint), CJ);
    for (j = 0; j < CJ; j++) {
        /* inverse of a rigid T*R: R^-1, then -R^-1 t */
        const plumbob_mat34 *mm = &model[bone_of_joint[j]];
        plumbob_bone_pose p;
        plumbob_quat q, qi;
        plumbob_vec3 t;
        float tr = mm->m[0][0] + mm->m[1][1] + mm->m[2][2];
        /* the model rotation as a quaternion (rotations here stay small, so w is large) */
        q.w = plumbob_sqrtf(1.0f + tr) * 0.5f;
        q.x = (mm->m[2][1] - mm->m[1][2]) / (4.0f * q.w);
        q.y = (mm->m[0][2] - mm->m[2][0]) / (4.0f * q.w);
        q.z = (mm->m[1][0] - mm->m[0][1]) / (4.0f * q.w);
        qi.x = -q.x; qi.y = -q.y; qi.z = -q.z; qi.w = q.w;
        p.rotation = qi;
        p.scale.x = p.scale.y = p.scale.z = 1.0f;
        p.translation.x = p.translation.y = p.translation.z = 0.0f;
        t.x = -mm->m[0][3]; t.y = -mm->m[1][3]; t.z = -mm->m[2][3];
        t = plumbob_quat_rotate(qi, t);
        pb_put_f32le(joints + 28 * j, qi.x);
        pb_put_f32le(joints + 28 * j + 4, qi.y);
        pb_put_f32le(joints + 28 * j + 8, qi.z);
        pb_put_f32le(joints + 28 * j + 12, qi.w);
        pb_put_f32le(joints + 28 * j + 16, t.x);
        pb_put_f32le(joints + 28 * j + 20, t.y);
        pb_put_f32le(joints + 28 * j + 24, t.z);
        /* one vertex per joint near that joint, three influences */
        pb_put_f32le(verts + 12 * j, mm->m[0][3] + 0.01f);
        pb_put_f32le(verts + 12 * j + 4, mm->m[1][3]);
        pb_put_f32le(verts + 12 * j + 8, mm->m[2][3] - 0.02f);
        pb_put_le32(assign + 4 * j, 0xFF000000u | j | ((j + 1) % CJ) << 8 | ((j + 2) % CJ) << 16);
        pb_put_f32le(weights + 12 * j, 0.5f);
        pb_put_f32le(weights + 12 * j + 4, 0.3f);
        pb_put_f32le(weights + 12 * j + 8, 0.2f);
        pb_put_le16(bones + 2 * j, (uint16_t)j);
        (void)p;
    }
    memset(els, 0, sizeof els);
    for (k = 0; k < 3; k++) {
        static const uint32_t ids[3] = {PLUMBOB_GMDC_VERTICES, PLUMBOB_GMDC_BONE_ASSIGNMENTS, PLUMBOB_GMDC_BONE_WEIGHTS};
        static const uint32_t fmt[3] = {2, 4, 2};
        els[k].count = CJ;
        els[k].identity = ids[k];
        els[k].format = fmt[k];
        els[k].byte_size = CJ * (fmt[k] == 4 ? 4u : 12u);
        pb_put_le16(refs + 2 * k, (uint16_t)k);
        pb_put_le16(faces + 2 * k, (uint16_t)k);
    }
    els[0].data = verts;
    els[1].data = assign;
    els[2].data = weights;
    memset(&link, 0, sizeof link);
    link.refs.data = refs;
    link.refs.count = 3;
    link.vertex_count = CJ;
    link.active_count = 3;
    memset(&grp, 0, sizeof grp);
    grp.primitive = 2;
    grp.name = lit("body");
    grp.faces.data = faces;
    grp.faces.count = 3;
    grp.bones.data = bones;
    grp.bones.count = CJ;
    memset(&g, 0, sizeof g);
    g.version = 4;
    g.index_size = 2;
    g.head.resource_name = lit("afbodytest_tslocator_gmdc");
    g.element_count = 3;
    g.elements = els;
    g.linkage_count = 1;
    g.linkages = &link;
    g.group_count = 1;
    g.groups = &grp;
    g.joint_count = CJ;
    g.joints = joints;
    CHECK_OK(plumbob_gmdc_write(&g, mesh, 65536, &m));
    CHECK_OK(plumbob_gmdc_measure(mesh, m, &need));
    CHECK_OK(plumbob_gmdc_decode(mesh, m, &a, &dg));
    {
        /* The model rest transforms and the inverse binds written above do not
         * come from the function under test alone: each joint's model matrix
         * is walked here in double precision from joint_rest over
         * joint_parent (the blocks above joint 0 are identities), and each
         * inverse bind, read back from the GMDC's joint table, times that
         * reference must be the identity. */
        static double ref[CJ][3][4];
        for (j = 0; j < CJ; j++) {
            plumbob_quat q;
            plumbob_vec3 t;
            double x, y, z, w, l[3][4], ib[3][4];
            int32_t pj = joint_parent(j);
            int r2, c2, k2;
            joint_rest(j, &q, &t);
            x = q.x; y = q.y; z = q.z; w = q.w;
            l[0][0] = 1 - 2 * (y * y + z * z); l[0][1] = 2 * (x * y - z * w); l[0][2] = 2 * (x * z + y * w); l[0][3] = t.x;
            l[1][0] = 2 * (x * y + z * w); l[1][1] = 1 - 2 * (x * x + z * z); l[1][2] = 2 * (y * z - x * w); l[1][3] = t.y;
            l[2][0] = 2 * (x * z - y * w); l[2][1] = 2 * (y * z + x * w); l[2][2] = 1 - 2 * (x * x + y * y); l[2][3] = t.z;
            for (r2 = 0; r2 < 3; r2++)
                for (c2 = 0; c2 < 4; c2++) {
                    double v = c2 == 3 && pj >= 0 ? ref[pj][r2][3] : 0.0;
                    if (pj < 0) v = l[r2][c2];
                    else
                        for (k2 = 0; k2 < 3; k2++) v += ref[pj][r2][k2] * l[k2][c2];
                    ref[j][r2][c2] = v;
                }
            for (r2 = 0; r2 < 3; r2++)
                for (c2 = 0; c2 < 4; c2++) CHECK_NEAR(model[bone_of_joint[j]].m[r2][c2], ref[j][r2][c2], 2e-6);
            /* the inverse bind as stored: quaternion x y z w, translation */
            x = pb_f32le(joints + 28 * j); y = pb_f32le(joints + 28 * j + 4);
            z = pb_f32le(joints + 28 * j + 8); w = pb_f32le(joints + 28 * j + 12);
            ib[0][0] = 1 - 2 * (y * y + z * z); ib[0][1] = 2 * (x * y - z * w); ib[0][2] = 2 * (x * z + y * w);
            ib[1][0] = 2 * (x * y + z * w); ib[1][1] = 1 - 2 * (x * x + z * z); ib[1][2] = 2 * (y * z - x * w);
            ib[2][0] = 2 * (x * z - y * w); ib[2][1] = 2 * (y * z + x * w); ib[2][2] = 1 - 2 * (x * x + y * y);
            for (r2 = 0; r2 < 3; r2++) ib[r2][3] = pb_f32le(joints + 28 * j + 16 + 4 * r2);
            for (r2 = 0; r2 < 3; r2++)
                for (c2 = 0; c2 < 4; c2++) {
                    double v = c2 == 3 ? ref[j][r2][3] : 0.0;
                    for (k2 = 0; k2 < 3; k2++) v += ref[j][r2][k2] * ib[k2][c2];
                    CHECK_NEAR(v, r2 == c2 ? 1.0 : 0.0, 2e-5);
                }
        }
    }
    for (j = 0; j < CJ; j++) jm[j] = model[bone_of_joint[j]];
    CHECK_OK(plumbob_gmdc_palette(&dg, jm, palette, (uint32_t)(sizeof palette / sizeof palette[0])));
    for (j = 0; j < CJ; j++) {
        int r2, c2;
        for (r2 = 0; r2 < 3; r2++)
            for (c2 = 0; c2 < 4; c2++) CHECK_NEAR(palette[j].m[r2][c2], r2 == c2 ? 1.0 : 0.0, 2e-5);
    }
    /* the same palette through the joint map (issue 47): the same bits; an
     * unclaimed joint (-1, or past the map) keeps its bind pose, the identity */
    {
        static plumbob_mat34 mapped[CJ + 1];
        int32_t map2[CJ];
        uint32_t model_count = (uint32_t)(sizeof model / sizeof model[0]);
        plumbob_mat34 id = plumbob_mat34_identity(), sentinel;
        CHECK_OK(plumbob_gmdc_palette_mapped(&dg, model, model_count, bone_of_joint, CJ, mapped, CJ));
        CHECK(memcmp(mapped, palette, sizeof palette) == 0);
        memcpy(map2, bone_of_joint, sizeof map2);
        map2[1] = -1;
        CHECK_OK(plumbob_gmdc_palette_mapped(&dg, model, model_count, map2, CJ - 1u, mapped, CJ + 1u));
        CHECK(memcmp(&mapped[1], &id, sizeof id) == 0);
        CHECK(memcmp(&mapped[CJ - 1], &id, sizeof id) == 0);
        CHECK(memcmp(&mapped[0], &palette[0], sizeof id) == 0);
        CHECK_OK(plumbob_gmdc_palette_mapped(&dg, NULL, 0, bone_of_joint, CJ, mapped, CJ));
        CHECK(memcmp(&mapped[0], &id, sizeof id) == 0);
        /* refusals write nothing */
        memset(&sentinel, 0x5A, sizeof sentinel);
        mapped[0] = sentinel;
        CHECK_EQ(plumbob_gmdc_palette_mapped(&dg, model, model_count, bone_of_joint, CJ, mapped, CJ - 1u),
                 PLUMBOB_ERR_OUTPUT_TOO_SMALL);
        map2[1] = (int32_t)model_count;
        CHECK_EQ(plumbob_gmdc_palette_mapped(&dg, model, model_count, map2, CJ, mapped, CJ), PLUMBOB_ERR_BAD_INDEX);
        CHECK(memcmp(&mapped[0], &sentinel, sizeof sentinel) == 0);
        CHECK_EQ(plumbob_gmdc_palette_mapped(&dg, model, model_count, NULL, CJ, mapped, CJ),
                 PLUMBOB_ERR_INVALID_ARGUMENT);
        CHECK_EQ(plumbob_gmdc_palette_mapped(NULL, model, model_count, bone_of_joint, CJ, mapped, CJ),
                 PLUMBOB_ERR_INVALID_ARGUMENT);
        CHECK_EQ(plumbob_gmdc_palette_mapped(&dg, model, model_count, bone_of_joint, CJ, NULL, CJ),
                 PLUMBOB_ERR_INVALID_ARGUMENT);
    }
    memset(&job, 0, sizeof job);
    job.work = skin_work;
    job.gmdc = &dg;
    job.group = 0;
    job.palette = palette;
    job.palette_count = CJ;
    job.positions = out;
    job.position_stride = 3;
    job.position_count = CJ;
    CHECK_OK(plumbob_gmdc_skin(&job));
    for (j = 0; j < CJ; j++) {
        CHECK_NEAR(out[3 * j], pb_f32le(verts + 12 * j), 2e-5);
        CHECK_NEAR(out[3 * j + 1], pb_f32le(verts + 12 * j + 4), 2e-5);
        CHECK_NEAR(out[3 * j + 2], pb_f32le(verts + 12 * j + 8), 2e-5);
    }
    /* bone_64 is at depth 6 under auskel: its model translation sums the chain */
    CHECK_NEAR(model[bone_of_joint[0]].m[1][3], 1.0, 1e-6);
    t_digest_f32(model[bone_of_joint[CJ - 1]].m[1][3]);
    t_digest_f32(palette[CJ - 1].m[0][3]);
}

/* Offset of the first occurrence of needle in hay, or SIZE_MAX. */
/* Node blocks the resource node does not reach (form 0 lists nothing)
 * hang under the nodes that list them even when a child's block comes
 * first: "hand" (block 1) under "arm" (block 2, which lists it), for a
 * form-0 resource node and for a form-1 one with an empty child list. */
void test_cres_skeleton_unreached_child_first(void) {
    unsigned form;
    for (form = 0; form < 2; form++) {
        static plumbob_cres_block b[3];
        static plumbob_cres_ref kids[1];
        static unsigned char out[4096];
        plumbob_cres built, c;
        plumbob_cres_skeleton sk;
        plumbob_mat34 model[2];
        plumbob_arena a;
        size_t m = 0;
        int32_t hand, arm;
        memset(&built, 0, sizeof built);
        memset(b, 0, sizeof b);
        b[0].kind = PLUMBOB_CRES_KIND_RESOURCE;
        b[0].head = hd("cResourceNode", PLUMBOB_CRES_RESOURCE_NODE, 7);
        b[0].u.resource.form = (uint8_t)form;
        if (form == 1) {
            b[0].u.resource.sg = hd("cSGResource", 0, 2);
            b[0].u.resource.name = lit("test_cres");
        }
        tree_node(&b[0].u.resource.node, "test_cres", NULL, 0, NULL, 0);
        b[1].kind = PLUMBOB_CRES_KIND_TRANSFORM;
        b[1].head = hd("cTransformNode", PLUMBOB_CRES_TRANSFORM_NODE, 7);
        tree_node(&b[1].u.transform.node, "hand", NULL, 0, NULL, 0);
        b[1].u.transform.translation.x = 1.0f;
        b[1].u.transform.rotation = plumbob_quat_identity();
        b[1].u.transform.joint = 1;
        kids[0] = iref(1);
        b[2].kind = PLUMBOB_CRES_KIND_TRANSFORM;
        b[2].head = hd("cTransformNode", PLUMBOB_CRES_TRANSFORM_NODE, 7);
        tree_node(&b[2].u.transform.node, "arm", NULL, 0, kids, 1);
        b[2].u.transform.translation.y = 5.0f;
        b[2].u.transform.rotation = plumbob_quat_identity();
        built.block_count = 3;
        built.blocks = b;
        CHECK_OK(plumbob_cres_write(&built, out, sizeof out, &m));
        {
            /* the resource name from the RCOL alone: form 1 has it, form 0 none */
            plumbob_sims2_rcol rc;
            plumbob_string nm;
            CHECK_OK(plumbob_sims2_rcol_open(&rc, out, m));
            CHECK_OK(plumbob_sims2_rcol_name(&rc, &nm));
            if (form == 1) CHECK(nm.len == 9 && memcmp(nm.ptr, "test_cres", 9) == 0);
            else CHECK(nm.len == 0 && nm.ptr == NULL);
            rc.size = rc.first_block_offset + 20u; /* cut inside the head */
            CHECK_EQ(plumbob_sims2_rcol_name(&rc, &nm), PLUMBOB_ERR_TRUNCATED);
            CHECK(nm.len == 0);
            CHECK_EQ(plumbob_sims2_rcol_name(NULL, &nm), PLUMBOB_ERR_INVALID_ARGUMENT);
        }
        plumbob_arena_init(&a, t_arena_mem(), T_ARENA_SIZE);
        CHECK_OK(decode_cres(out, m, &a, &c));
        CHECK(plumbob_cres_skeleton_size(&c) <= T_ARENA_SIZE);
        CHECK_OK(plumbob_cres_skeleton_build(&c, &a, &sk));
        CHECK_EQ(sk.skeleton.bone_count, 2);
        hand = plumbob_cres_find_bone(&sk, "hand", 4);
        arm = plumbob_cres_find_bone(&sk, "arm", 3);
        CHECK(hand >= 0 && arm >= 0 && hand < 2 && arm < 2);
        if (hand < 0 || arm < 0 || hand > 1 || arm > 1) continue;
        CHECK_EQ(sk.skeleton.parent[arm], -1);
        CHECK_EQ(sk.skeleton.parent[hand], arm);
        CHECK(arm < hand); /* parent before child */
        CHECK_OK(plumbob_skeleton_model(&sk.skeleton, NULL, model, (uint32_t)(sizeof model / sizeof model[0])));
        CHECK(model[hand].m[0][3] == 1.0f && model[hand].m[1][3] == 5.0f && model[hand].m[2][3] == 0.0f);
        t_digest_u32((uint32_t)hand);
    }
}

static size_t find(const unsigned char *hay, size_t n, const void *needle, size_t k) {
    size_t i;
    for (i = 0; i + k <= n; i++)
        if (memcmp(hay + i, needle, k) == 0) return i;
    return SIZE_MAX;
}

void test_cres_malformed(void) {
    unsigned char *buf = t_scratch(), *bad = buf + 65536, *out = buf + 131072;
    plumbob_arena a;
    plumbob_cres c, built;
    plumbob_cres_skeleton sk;
    size_t n = write_body(buf, 65536), at, m;
    uint32_t unknown_id = 0x9A809646u;
    /* a block id in the list that is not the block's own */
    memcpy(bad, buf, n);
    bad[8 + 16 + 4] ^= 1; /* block 0's id in the block list */
    CHECK_EQ(decode_cres(bad, n, &a, &c), PLUMBOB_ERR_BAD_MAGIC);
    /* first block not a resource node */
    build_cres(&built);
    {
        plumbob_cres_block saved = cb[0];
        cb[0] = cb[3];
        CHECK_OK(plumbob_cres_write(&built, bad, 65536, &m));
        CHECK_EQ(decode_cres(bad, m, &a, &c), PLUMBOB_ERR_BAD_MAGIC);
        cb[0] = saved;
    }
    /* the unknown block moved before the last: unsupported, never guessed */
    {
        plumbob_cres_block saved = cb[4];
        cb[4] = cb[C_BLOCKS - 1];
        CHECK_OK(plumbob_cres_write(&built, bad, 65536, &m));
        CHECK_EQ(decode_cres(bad, m, &a, &c), PLUMBOB_ERR_UNSUPPORTED);
        cb[4] = saved;
    }
    /* a child reference past the last block */
    c_children[0][0].index = C_BLOCKS;
    CHECK_OK(plumbob_cres_write(&built, bad, 65536, &m));
    CHECK_EQ(decode_cres(bad, m, &a, &c), PLUMBOB_ERR_BAD_INDEX);
    c_children[0][0] = iref(joint_block(1));
    /* an external reference past the links (the body has none) */
    c_ext[3].external = 1;
    CHECK_OK(plumbob_cres_write(&built, bad, 65536, &m));
    CHECK_EQ(decode_cres(bad, m, &a, &c), PLUMBOB_ERR_BAD_INDEX);
    c_ext[3].external = 0;
    /* resource form 2 */
    cb[0].u.resource.form = 2;
    CHECK_EQ(plumbob_cres_write(&built, bad, 65536, &m), PLUMBOB_ERR_INVALID_ARGUMENT);
    cb[0].u.resource.form = 1;
    at = find(buf, n, "\x0b" "cSGResource", 12);
    CHECK(at != SIZE_MAX && at > 0);
    memcpy(bad, buf, n);
    bad[at - 1] = 2;
    CHECK_EQ(decode_cres(bad, n, &a, &c), PLUMBOB_ERR_BAD_DATA);
    /* a sub-head with the wrong class name */
    memcpy(bad, buf, n);
    at = find(bad, n, "cObjectGraphNode", 16);
    bad[at + 1] = 'X';
    CHECK_EQ(decode_cres(bad, n, &a, &c), PLUMBOB_ERR_BAD_MAGIC);
    /* an unknown data list item type */
    memcpy(bad, buf, n);
    at = find(bad, n, "\x06\x01s", 3);
    bad[at] = 0x0A;
    CHECK_EQ(decode_cres(bad, n, &a, &c), PLUMBOB_ERR_BAD_DATA);
    /* a list count beyond the bytes */
    memcpy(bad, buf, n);
    at = find(bad, n, "thumbnail", 9);
    pb_put_le32(bad + at + 9, 0x7FFFFFFFu); /* the input ends early (issue 47) */
    CHECK_EQ(decode_cres(bad, n, &a, &c), PLUMBOB_ERR_TRUNCATED);
    /* bytes after the last block: an unknown last block takes them */
    memcpy(bad, buf, n);
    bad[n] = 0;
    CHECK_OK(decode_cres(bad, n + 1, &a, &c));
    CHECK_EQ(c.blocks[C_BLOCKS - 1].u.raw.size, 7);
    /* after a known last block they are refused */
    {
        plumbob_cres_block saved = cb[C_BLOCKS - 1];
        built.block_count = C_BLOCKS - 1;
        CHECK_OK(plumbob_cres_write(&built, bad, 65536, &m));
        bad[m] = 0;
        CHECK_EQ(decode_cres(bad, m + 1, &a, &c), PLUMBOB_ERR_BAD_DATA);
        CHECK_OK(decode_cres(bad, m, &a, &c));
        built.block_count = C_BLOCKS;
        cb[C_BLOCKS - 1] = saved;
    }
    /* data lists nested 17 deep */
    {
        unsigned char *p = c_list;
        unsigned d;
        for (d = 0; d < 17; d++) {
            *p++ = 7; *p++ = 0; pb_put_le32(p, d == 16 ? 0u : 1u); p += 4;
        }
        cb[1].u.data_list.items_size = (size_t)(p - c_list);
        CHECK_OK(plumbob_cres_write(&built, bad, 65536, &m));
        CHECK_EQ(decode_cres(bad, m, &a, &c), PLUMBOB_ERR_BAD_DATA);
        cb[1].u.data_list.items_size = 6u * 16u; /* 16 deep: accepted */
        pb_put_le32(c_list + 6u * 15u + 2u, 0);
        CHECK_OK(plumbob_cres_write(&built, bad, 65536, &m));
        CHECK_OK(decode_cres(bad, m, &a, &c));
        CHECK_EQ(c.blocks[1].u.data_list.item_count, 1);
    }
    /* cycles and shared children: every block expanded once */
    build_cres(&built);
    c_children[10][0] = iref(joint_block(0)); /* bone_10 lists the root joint */
    c_children[10][1] = iref(joint_block(10)); /* and itself */
    c_grp_child[0] = iref(joint_block(5));     /* auskel reaches bone_05 first */
    CHECK_OK(plumbob_cres_write(&built, bad, 65536, &m));
    CHECK_OK(decode_cres(bad, m, &a, &c));
    CHECK_OK(plumbob_cres_skeleton_build(&c, &a, &sk));
    CHECK_EQ(sk.skeleton.bone_count, CJ + 2);
    CHECK_OK(plumbob_skeleton_validate(&sk.skeleton));
    /* walked in block order after the resource node's tree, bone_10 (stored
       before bone_00) becomes a root and its listing of bone_00 wins; bone_10
       listing itself and bone_00's path back to it are dropped */
    {
        int32_t b0 = sk.bone_of_block[joint_block(0)], b5 = sk.bone_of_block[joint_block(5)],
                b10 = sk.bone_of_block[joint_block(10)];
        CHECK(b0 >= 0 && b5 >= 0 && b10 >= 0);
        CHECK_EQ(sk.skeleton.parent[b5], sk.bone_of_block[3]);
        CHECK_EQ(sk.skeleton.parent[b10], -1);
        CHECK_EQ(sk.skeleton.parent[b0], b10);
        CHECK(b0 > b10 && b10 > b5);
        t_digest_u32((uint32_t)b0);
        t_digest_u32((uint32_t)b10);
    }
    /* a form 0 resource node (an object graph node only, no children): it
       writes back as it was, and every node block becomes a root or hangs
       under the nodes that list it, in block order */
    build_cres(&built);
    cb[0].u.resource.form = 0;
    cb[0].u.resource.location.present = 1;
    cb[0].u.resource.location.external = 1;
    cb[0].u.resource.location.index = 0;
    CHECK_OK(plumbob_cres_write(&built, bad, 65536, &m));
    CHECK_OK(decode_cres(bad, m, &a, &c));
    if (c.blocks) {
        size_t m2 = 0;
        CHECK_EQ(c.blocks[0].u.resource.form, 0);
        CHECK_EQ(c.blocks[0].u.resource.node.child_count, 0);
        CHECK_EQ(c.blocks[0].u.resource.node.tree.name.len, 0);
        CHECK_EQ(c.blocks[0].u.resource.location.external, 1);
        CHECK_OK(plumbob_cres_write(&c, out, 65536, &m2));
        CHECK(m2 == m && memcmp(out, bad, m) == 0);
        CHECK_OK(plumbob_cres_skeleton_build(&c, &a, &sk));
        CHECK_EQ(sk.skeleton.bone_count, CJ + 2);
        CHECK_EQ(sk.block_of_bone[0], 2);      /* the shape: first node block, a root */
        CHECK_EQ(sk.block_of_bone[1], 3);      /* auskel, a root, then its tree */
        CHECK_EQ(sk.block_of_bone[2], joint_block(0));
        CHECK_EQ(sk.skeleton.parent[1], -1);
        CHECK_EQ(sk.skeleton.parent[2], 1);
        t_digest_u64(m);
    }
    /* rest rotations: non-unit ones normalized, zero ones the identity */
    build_cres(&built);
    cb[joint_block(5)].u.transform.rotation.x = 0.0f;
    cb[joint_block(5)].u.transform.rotation.y = 0.0f;
    cb[joint_block(5)].u.transform.rotation.z = 0.6f;
    cb[joint_block(5)].u.transform.rotation.w = 0.8f * 2.0f; /* (0, 0, 0.6, 1.6): length^2 2.92 */
    memset(&cb[joint_block(6)].u.transform.rotation, 0, sizeof(plumbob_quat));
    CHECK_OK(plumbob_cres_write(&built, bad, 65536, &m));
    CHECK_OK(decode_cres(bad, m, &a, &c));
    CHECK_OK(plumbob_cres_skeleton_build(&c, &a, &sk));
    {
        const plumbob_quat *q5 = &sk.skeleton.rest[sk.bone_of_block[joint_block(5)]].rotation;
        const plumbob_quat *q6 = &sk.skeleton.rest[sk.bone_of_block[joint_block(6)]].rotation;
        CHECK_NEAR(q5->z, 0.6 / 1.70880075, 1e-6);
        CHECK_NEAR(q5->w, 1.6 / 1.70880075, 1e-6);
        CHECK_NEAR(q6->w, 1.0, 0);
        CHECK_NEAR(q6->x, 0.0, 0);
        t_digest_f32(q5->w);
    }
    /* arena too small */
    {
        size_t used;
        plumbob_arena_init(&a, t_arena_mem(), T_ARENA_SIZE);
        CHECK_OK(plumbob_cres_decode(buf, n, &a, &c));
        used = a.used;
        plumbob_arena_init(&a, t_arena_mem(), used - 1);
        CHECK_EQ(plumbob_cres_decode(buf, n, &a, &c), PLUMBOB_ERR_OUT_OF_MEMORY);
        CHECK_EQ(a.used, 0);
    }
    CHECK_EQ(plumbob_cres_decode(NULL, 0, &a, &c), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_cres_write_size(NULL), SIZE_MAX);
    CHECK_EQ(plumbob_cres_skeleton_size(NULL), SIZE_MAX);
    {
        size_t need = 0;
        CHECK_EQ(plumbob_cres_measure(NULL, 0, &need), PLUMBOB_ERR_INVALID_ARGUMENT);
        CHECK_EQ(need, SIZE_MAX);
        CHECK_EQ(plumbob_cres_measure(buf, n, NULL), PLUMBOB_ERR_INVALID_ARGUMENT);
    }
    CHECK_EQ(plumbob_cres_skeleton_build(NULL, &a, &sk), PLUMBOB_ERR_INVALID_ARGUMENT);
    (void)unknown_id;
    (void)out;
}

/* Every truncation fails with a named error; every single-bit flip either
 * fails or decodes to something that writes back to the flipped bytes and
 * gives a valid skeleton. */
static void sweep(const unsigned char *src, size_t n, size_t firm, unsigned char *tmp, unsigned char *out,
                  uint32_t step) {
    plumbob_arena a;
    plumbob_cres c;
    plumbob_cres_skeleton sk;
    size_t i, m;
    uint32_t accepted = 0;
    /* below `firm` every cut fails; an unknown last block may end anywhere,
       and then the shorter resource writes back as it is */
    for (i = 0; i < n; i++) {
        plumbob_result r = decode_cres(src, i, &a, &c);
        CHECK(r < PLUMBOB_RESULT_COUNT);
        if (i < firm) CHECK(r != PLUMBOB_OK);
        if (r == PLUMBOB_OK) {
            CHECK_OK(plumbob_cres_write(&c, out, n, &m));
            CHECK(m == i && memcmp(out, src, i) == 0);
        }
    }
    for (i = 0; i < n * 8; i += step) {
        plumbob_result r;
        memcpy(tmp, src, n);
        tmp[i / 8] ^= (unsigned char)(1u << (i % 8));
        r = decode_cres(tmp, n, &a, &c);
        if (r != PLUMBOB_OK) continue;
        accepted++;
        CHECK_OK(plumbob_cres_write(&c, out, n, &m));
        CHECK(m == n && memcmp(out, tmp, n) == 0);
        CHECK_OK(plumbob_cres_skeleton_build(&c, &a, &sk));
        CHECK_OK(plumbob_skeleton_validate(&sk.skeleton));
    }
    CHECK(accepted > 0);
    t_digest_u32(accepted);
}

void test_cres_truncation_and_bitflips(void) {
    unsigned char *buf = t_scratch();
    size_t n = write_body(buf, 65536);
    sweep(buf, n, n - 6, buf + 65536, buf + 131072, 7);
}

static size_t teapot_cres(unsigned char **file, const unsigned char **res) {
    plumbob_package pkg;
    plumbob_package_entry e;
    size_t size, n = 0;
    uint32_t i;
    *file = t_corpus_load("sims2/teapot_model.package", &size);
    if (!*file) return 0;
    CHECK_OK(plumbob_package_open(&pkg, *file, size));
    for (i = 0; i < pkg.count; i++) {
        CHECK_OK(plumbob_package_entry_at(&pkg, i, &e));
        if (e.type == PLUMBOB_TYPE_CRES) {
            CHECK_OK(plumbob_package_read(&pkg, &e, NULL, 0, res, &n));
            break;
        }
    }
    return n;
}

void test_cres_corpus_teapot(void) {
    unsigned char *file, *out = t_scratch();
    const unsigned char *d = NULL;
    plumbob_arena a;
    plumbob_cres c;
    plumbob_cres_skeleton sk;
    const plumbob_cres_shape_ref *s;
    size_t n = teapot_cres(&file, &d), m = 0;
    int32_t map[1];
    if (!file) T_SKIP(t_corpus_missing());
    CHECK_EQ(n, 524);
    CHECK_OK(decode_cres(d, n, &a, &c));
    if (!c.blocks) return;
    CHECK_EQ(c.block_count, 3);
    CHECK_EQ(c.rcol.link_count, 1);
    CHECK_OK(plumbob_cres_write(&c, out, 65536, &m));
    CHECK(m == n && memcmp(out, d, n) == 0);
    CHECK_EQ(c.blocks[0].kind, PLUMBOB_CRES_KIND_RESOURCE);
    CHECK(c.blocks[0].u.resource.name.len == 13 && memcmp(c.blocks[0].u.resource.name.ptr, "ufoCrash_cres", 13) == 0);
    CHECK_EQ(c.blocks[0].u.resource.skin_type, 12);
    CHECK_EQ(c.blocks[0].u.resource.location.present, 0);
    CHECK_EQ(c.blocks[0].u.resource.node.child_count, 1);
    CHECK_EQ(c.blocks[0].u.resource.node.children[0].index, 2);
    CHECK_EQ(c.blocks[0].u.resource.node.extensions[0].index, 1);
    CHECK_EQ(c.blocks[1].kind, PLUMBOB_CRES_KIND_DATA_LIST);
    CHECK(c.blocks[1].u.data_list.item_name.len == 18 &&
          memcmp(c.blocks[1].u.data_list.item_name.ptr, "thumbnailExtension", 18) == 0);
    CHECK_EQ(c.blocks[1].u.data_list.item_count, 1);
    CHECK_EQ(c.blocks[2].kind, PLUMBOB_CRES_KIND_SHAPE_REF);
    CHECK_EQ(c.blocks[2].head.version, 20);
    s = &c.blocks[2].u.shape_ref;
    CHECK(s->transform.node.tag.len == 3 && memcmp(s->transform.node.tag.ptr, "ufo", 3) == 0);
    CHECK_EQ(s->group_count, 1);
    CHECK(s->groups[0].len == 9 && memcmp(s->groups[0].ptr, "Practical", 9) == 0);
    CHECK_EQ(s->shape_count, 1);
    CHECK_EQ(s->shapes[0].external, 1);
    CHECK_EQ(s->display_flags, 0x10);
    CHECK_EQ(s->colour, 0xFFFFFFFFu);
    CHECK_NEAR(s->transform.rotation.w, 1.0, 0);
    CHECK_OK(plumbob_cres_skeleton_build(&c, &a, &sk));
    CHECK_EQ(sk.skeleton.bone_count, 1);
    CHECK_EQ(sk.skeleton.parent[0], -1);
    CHECK_EQ(sk.joint_of_bone[0], PLUMBOB_CRES_NO_JOINT);
    CHECK_EQ(plumbob_cres_joint_map(&sk, 1, map), 0);
    t_digest_bytes(d, n);
    t_digest_u32(sk.skeleton.name_hash[0]);
    sweep(d, n, n, out, out + 65536, 3);
    free(file);
}

void test_cres_error_sweep(void) {
    unsigned char *buf = t_scratch();
    size_t n = write_body(buf, 65536);
    t_error_sweep("cres", buf, n);
}

/* The synthetic CRES body for other test files (test_finite.c). */
size_t t_build_cres(unsigned char *out, size_t cap) {
    return write_body(out, cap);
}
