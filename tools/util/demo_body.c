/* A Sims 2 body made with plumbob's own writers: a 65-joint CRES skeleton
 * (every block kind plumbob reads, children stored before their parents),
 * a mesh skinned to it (three weights per vertex, morphs "fat" and "thin")
 * and an ANIM that moves the root and bends a branch, in one DBPF 1.1
 * package.  Z-up, as Sims 2 models are.  No libm: the bytes are the same
 * everywhere. */
#include <stdlib.h>
#include <string.h>
#include "plumbob.h"
#include "demo_data.h"
#include "util/bytes.h"
#include "util/cres_build.h"

#define BJ DEMO_SKEL_JOINTS
#define FIRST_JOINT_BLOCK 5 /* blocks: resource, data list, shape, group node, spare bone data, joints */
#define BLOCKS (FIRST_JOINT_BLOCK + 2 * BJ)
#define NV (4 * BJ)
#define NF (6 * BJ)

static void joint_name(uint32_t j, char out[16]) {
    if (j == 0) { memcpy(out, "root_trans", 11); return; }
    if (j == 1) { memcpy(out, "root_rot", 9); return; }
    memcpy(out, "bone_", 5);
    out[5] = (char)('0' + j / 10u);
    out[6] = (char)('0' + j % 10u);
    out[7] = 0;
}

static int32_t joint_parent(uint32_t j) { return j == 0 ? -1 : (int32_t)((j - 1u) / 2u); }
static uint32_t joint_block(uint32_t j) { return FIRST_JOINT_BLOCK + (BJ - 1u - j); }

/* Local rest: a step up and to one side of the parent, a small twist. */
static void joint_rest(uint32_t j, plumbob_quat *q, plumbob_vec3 *t) {
    plumbob_quat r;
    r.x = 0.0f;
    r.y = 0.01f * (float)(j % 3u);
    r.z = 0.02f * (float)(j % 5u) - 0.04f;
    r.w = 1.0f;
    *q = plumbob_quat_normalize(r);
    t->x = j == 0 ? 0.0f : (j & 1u) ? 0.08f : -0.08f;
    t->y = j == 0 ? 0.0f : 0.01f * (float)(j % 4u);
    t->z = j == 0 ? 1.0f : 0.12f;
}

/* Model rest transforms (rotation, translation) of every joint. */
static void joint_models(plumbob_quat *mq, plumbob_vec3 *mt) {
    uint32_t j;
    for (j = 0; j < BJ; j++) {
        plumbob_quat q;
        plumbob_vec3 t;
        int32_t p = joint_parent(j);
        joint_rest(j, &q, &t);
        if (p < 0) {
            mq[j] = q;
            mt[j] = t;
        } else {
            plumbob_vec3 r = plumbob_quat_rotate(mq[p], t);
            mq[j] = plumbob_quat_normalize(plumbob_quat_mul(mq[p], q));
            mt[j].x = mt[p].x + r.x;
            mt[j].y = mt[p].y + r.y;
            mt[j].z = mt[p].z + r.z;
        }
    }
}

static size_t finish(plumbob_result (*write)(const void *, void *, size_t, size_t *), size_t cap, const void *obj,
                     unsigned char **out) {
    size_t n = 0;
    if (cap == SIZE_MAX) return 0;
    *out = (unsigned char *)malloc(cap ? cap : 1);
    if (!*out || write(obj, *out, cap, &n) != PLUMBOB_OK) {
        free(*out);
        *out = NULL;
        return 0;
    }
    return n;
}

static plumbob_result write_cres(const void *c, void *out, size_t cap, size_t *n) {
    return plumbob_cres_write((const plumbob_cres *)c, out, cap, n);
}
static plumbob_result write_gmdc(const void *g, void *out, size_t cap, size_t *n) {
    return plumbob_gmdc_write((const plumbob_gmdc *)g, out, cap, n);
}
static plumbob_result write_anim(const void *a, void *out, size_t cap, size_t *n) {
    return plumbob_anim_write((const plumbob_anim *)a, out, cap, n);
}

size_t demo_skel_cres(unsigned char **out) {
    static plumbob_cres_block b[BLOCKS];
    static plumbob_cres_ref children[BJ][2], ext[BJ], root_children[2], grp_child[1], res_ext[1], shapes[1];
    static char names[BJ][16];
    static plumbob_string groups[1], morph_names[2];
    static unsigned char morph_weights[8], list[64];
    static plumbob_sims2_link link;
    plumbob_cres c;
    unsigned char *p = list;
    uint32_t j, i;
    memset(b, 0, sizeof b);
    memset(&c, 0, sizeof c);
    b[0].kind = PLUMBOB_CRES_KIND_RESOURCE;
    b[0].head = cres_head("cResourceNode", PLUMBOB_CRES_RESOURCE_NODE, 7);
    b[0].u.resource.form = 1;
    b[0].u.resource.sg = cres_head("cSGResource", 0, 2);
    b[0].u.resource.name = cres_lit("demo_skel_cres");
    res_ext[0] = cres_block_ref(1);
    root_children[0] = cres_block_ref(2);
    root_children[1] = cres_block_ref(3);
    cres_tree_node(&b[0].u.resource.node, cres_lit("demo_skel_cres"), res_ext, 1, root_children, 2);
    b[0].u.resource.skin_type = 3; /* full body */
    /* data list: "thumbnailExtension" listing the shape's thumbnail name */
    *p++ = 7; *p++ = 18; memcpy(p, "thumbnailExtension", 18); p += 18;
    tool_put_le32(p, 1); p += 4;
    *p++ = 6; *p++ = 4; memcpy(p, "name", 4); p += 4; *p++ = 10; memcpy(p, "demo_thumb", 10); p += 10;
    b[1].kind = PLUMBOB_CRES_KIND_DATA_LIST;
    b[1].head = cres_head("cDataListExtension", PLUMBOB_CRES_DATA_LIST_EXTENSION, 1);
    b[1].u.data_list.extension = cres_head("cExtension", 0, 3);
    b[1].u.data_list.items = list;
    b[1].u.data_list.items_size = (size_t)(p - list);
    b[2].kind = PLUMBOB_CRES_KIND_SHAPE_REF;
    b[2].head = cres_head("cShapeRefNode", PLUMBOB_CRES_SHAPE_REF_NODE, 21);
    {
        plumbob_cres_shape_ref *s = &b[2].u.shape_ref;
        s->renderable = cres_head("cRenderableNode", 0, 5);
        s->bounded = cres_head("cBoundedNode", 0, 5);
        s->transform_head = cres_head("cTransformNode", PLUMBOB_CRES_TRANSFORM_NODE, 7);
        cres_tree_node(&s->transform.node, cres_lit("demo_body"), NULL, 0, NULL, 0);
        s->transform.rotation = plumbob_quat_identity();
        s->bounded_flag = 1;
        groups[0] = cres_lit("Practical");
        s->groups = groups;
        s->group_count = 1;
        s->display = 1;
        shapes[0].present = 1;
        shapes[0].external = 1;
        shapes[0].index = 0;
        s->shapes = shapes;
        s->shape_count = 1;
        s->display_flags = 0x10;
        tool_put_f32le(morph_weights, 0.0f);
        tool_put_f32le(morph_weights + 4, 0.0f);
        morph_names[0] = cres_lit("fat");
        morph_names[1] = cres_lit("thin");
        s->morph_count = 2;
        s->morph_weights = morph_weights;
        s->morph_names = morph_names;
        s->colour = 0xFFFFFFFFu;
    }
    b[3].kind = PLUMBOB_CRES_KIND_TRANSFORM; /* a grouping node that is no joint */
    b[3].head = cres_head("cTransformNode", PLUMBOB_CRES_TRANSFORM_NODE, 7);
    grp_child[0] = cres_block_ref(joint_block(0));
    cres_tree_node(&b[3].u.transform.node, cres_lit("auskel"), NULL, 0, grp_child, 1);
    b[3].u.transform.rotation = plumbob_quat_identity();
    b[3].u.transform.joint = PLUMBOB_CRES_NO_JOINT;
    b[4].kind = PLUMBOB_CRES_KIND_BONE_DATA; /* version 3: no orientation */
    b[4].head = cres_head("cBoneDataExtension", PLUMBOB_CRES_BONE_DATA_EXTENSION, 3);
    b[4].u.bone_data.extension = cres_head("cExtension", 0, 3);
    b[4].u.bone_data.stretch = 1.0f;
    for (j = 0; j < BJ; j++) {
        plumbob_cres_block *t = &b[joint_block(j)], *d = &b[FIRST_JOINT_BLOCK + BJ + j];
        uint32_t n = 0;
        for (i = 1; i <= 2; i++)
            if (2u * j + i < BJ) children[j][n++] = cres_block_ref(joint_block(2u * j + i));
        ext[j] = cres_block_ref(FIRST_JOINT_BLOCK + BJ + j);
        joint_name(j, names[j]);
        t->kind = PLUMBOB_CRES_KIND_TRANSFORM;
        t->head = cres_head("cTransformNode", PLUMBOB_CRES_TRANSFORM_NODE, 7);
        cres_tree_node(&t->u.transform.node, cres_lit(names[j]), &ext[j], 1, children[j], n);
        joint_rest(j, &t->u.transform.rotation, &t->u.transform.translation);
        t->u.transform.joint = j;
        d->kind = PLUMBOB_CRES_KIND_BONE_DATA;
        d->head = cres_head("cBoneDataExtension", PLUMBOB_CRES_BONE_DATA_EXTENSION, 5);
        d->u.bone_data.extension = cres_head("cExtension", 0, 3);
        d->u.bone_data.heading_axis = (int32_t)(j % 3u);
        d->u.bone_data.mirror_axis = -1;
        d->u.bone_data.stretch_axis = 1;
        d->u.bone_data.stretch = 1.0f;
        d->u.bone_data.orientation = plumbob_quat_identity();
    }
    link.group = DEMO_SKEL_GROUP; /* the shape (SHPE) this node draws */
    link.instance = 0xC3B4A5A3u;
    link.instance_hi = 0x00F0E1D2u;
    link.type = 0xFC6EB1F7u;
    c.rcol.link_count = 1;
    c.links = &link;
    c.block_count = BLOCKS;
    c.blocks = b;
    return finish(write_cres, plumbob_cres_write_size(&c), &c, out);
}

size_t demo_skel_gmdc(unsigned char **out) {
    static unsigned char verts[NV * 12], norms[NV * 12], assign[NV * 4], weights[NV * 12], mmap[NV * 4],
        fat[NV * 12], thin[NV * 12], refs[7 * 2], faces[NF * 2], bones[BJ * 2], joints[BJ * 28];
    static plumbob_gmdc_element els[7];
    static plumbob_gmdc_linkage link;
    static plumbob_gmdc_group grp;
    static plumbob_string mnames[6];
    static plumbob_quat mq[BJ];
    static plumbob_vec3 mt[BJ];
    plumbob_gmdc g;
    uint32_t j, k, i;
    joint_models(mq, mt);
    for (j = 0; j < BJ; j++) {
        /* inverse bind: R^-1, -R^-1 t */
        plumbob_quat iq = mq[j];
        plumbob_vec3 it, nt;
        int32_t p = joint_parent(j), pp = p < 0 ? -1 : joint_parent((uint32_t)p);
        /* three distinct joints: itself, its parent, its grandparent (near the
           root: the first joints that are not taken yet) */
        uint32_t s1 = p < 0 ? 1u : (uint32_t)p, s2 = pp >= 0 ? (uint32_t)pp : (j == 2u ? 1u : 2u);
        iq.x = -iq.x; iq.y = -iq.y; iq.z = -iq.z;
        nt.x = -mt[j].x; nt.y = -mt[j].y; nt.z = -mt[j].z;
        it = plumbob_quat_rotate(iq, nt);
        tool_put_f32le(joints + 28 * j, iq.x);
        tool_put_f32le(joints + 28 * j + 4, iq.y);
        tool_put_f32le(joints + 28 * j + 8, iq.z);
        tool_put_f32le(joints + 28 * j + 12, iq.w);
        tool_put_f32le(joints + 28 * j + 16, it.x);
        tool_put_f32le(joints + 28 * j + 20, it.y);
        tool_put_f32le(joints + 28 * j + 24, it.z);
        tool_put_le16(bones + 2 * j, (uint16_t)j);
        for (k = 0; k < 4; k++) { /* a small square around the joint, facing up */
            uint32_t v = 4 * j + k;
            float dx = (k == 1 || k == 2) ? 0.03f : -0.03f, dy = k >= 2 ? 0.03f : -0.03f;
            tool_put_f32le(verts + 12 * v, mt[j].x + dx);
            tool_put_f32le(verts + 12 * v + 4, mt[j].y + dy);
            tool_put_f32le(verts + 12 * v + 8, mt[j].z);
            tool_put_f32le(norms + 12 * v, 0.0f);
            tool_put_f32le(norms + 12 * v + 4, 0.0f);
            tool_put_f32le(norms + 12 * v + 8, 1.0f);
            /* slots = joints (the bone list is the identity) */
            tool_put_le32(assign + 4 * v, 0xFF000000u | j | s1 << 8 | s2 << 16);
            tool_put_f32le(weights + 12 * v, 0.6f);
            tool_put_f32le(weights + 12 * v + 4, 0.3f);
            tool_put_f32le(weights + 12 * v + 8, 0.1f);
            tool_put_le32(mmap + 4 * v, 0x0201u); /* byte 0: morph 1 (fat), byte 1: morph 2 (thin) */
            tool_put_f32le(fat + 12 * v, dx * 0.5f);
            tool_put_f32le(fat + 12 * v + 4, dy * 0.5f);
            tool_put_f32le(fat + 12 * v + 8, 0.0f);
            tool_put_f32le(thin + 12 * v, -dx * 0.5f);
            tool_put_f32le(thin + 12 * v + 4, -dy * 0.5f);
            tool_put_f32le(thin + 12 * v + 8, 0.0f);
        }
        {
            static const uint32_t quad[6] = {0, 1, 2, 0, 2, 3};
            for (k = 0; k < 6; k++) tool_put_le16(faces + 2 * (6 * j + k), (uint16_t)(4 * j + quad[k]));
        }
    }
    {
        static const uint32_t ids[7] = {PLUMBOB_GMDC_VERTICES, PLUMBOB_GMDC_NORMALS, PLUMBOB_GMDC_BONE_ASSIGNMENTS,
                                        PLUMBOB_GMDC_BONE_WEIGHTS, PLUMBOB_GMDC_MORPH_VERTEX_MAP,
                                        PLUMBOB_GMDC_MORPH_VERTEX_DELTAS, PLUMBOB_GMDC_MORPH_VERTEX_DELTAS};
        static const uint32_t fmts[7] = {2, 2, 4, 2, 4, 2, 2}, sets[7] = {0, 1, 0, 0, 0, 0, 0};
        const unsigned char *datas[7] = {verts, norms, assign, weights, mmap, fat, thin};
        for (i = 0; i < 7; i++) {
            memset(&els[i], 0, sizeof els[i]);
            els[i].count = NV;
            els[i].identity = ids[i];
            els[i].group = i == 6 ? 1u : 0u; /* thin is delta set 1 (morph map byte 1) */
            els[i].format = fmts[i];
            els[i].set = sets[i];
            els[i].byte_size = NV * 4u * (fmts[i] == 4 ? 1u : fmts[i] + 1u);
            els[i].data = datas[i];
            tool_put_le16(refs + 2 * i, (uint16_t)i);
        }
    }
    memset(&link, 0, sizeof link);
    link.refs.data = refs;
    link.refs.count = 7;
    link.vertex_count = NV;
    link.active_count = 7;
    memset(&grp, 0, sizeof grp);
    grp.primitive = 2;
    grp.name = cres_lit("body");
    grp.faces.data = faces;
    grp.faces.count = NF;
    grp.opacity = 0xFFFFFFFFu;
    grp.bones.data = bones;
    grp.bones.count = BJ;
    mnames[0] = cres_lit(""); mnames[1] = cres_lit("");
    mnames[2] = cres_lit("body"); mnames[3] = cres_lit("fat");
    mnames[4] = cres_lit("body"); mnames[5] = cres_lit("thin");
    memset(&g, 0, sizeof g);
    g.version = 4;
    g.index_size = 2;
    g.head.resource_name = cres_lit("demo_skel_tslocator_gmdc");
    g.element_count = 7;
    g.elements = els;
    g.linkage_count = 1;
    g.linkages = &link;
    g.group_count = 1;
    g.groups = &grp;
    g.joint_count = BJ;
    g.joints = joints;
    g.morph_count = 3;
    g.morph_names = mnames;
    return finish(write_gmdc, plumbob_gmdc_write_size(&g), &g, out);
}

/* The root rises 0.2 m, turns 90 degrees about Z, bone_03 bends 30
 * degrees about X and the morph "fat" swells to 1, over one second (baked
 * f32 keys). */
size_t demo_skel_anim(unsigned char **out) {
    static unsigned char zero[4], rise[5 * 4], turn[5 * 4], bend[5 * 4], swell[5 * 4];
    plumbob_anim_target target;
    plumbob_anim_channel ch[4];
    plumbob_anim_component co[10];
    plumbob_anim a;
    uint32_t k, i;
    for (k = 0; k < 5; k++) {
        tool_put_f32le(rise + 4 * k, 1.0f + 0.05f * (float)k);
        tool_put_f32le(turn + 4 * k, 22.5f * (float)k);
        tool_put_f32le(bend + 4 * k, 7.5f * (float)k);
        tool_put_f32le(swell + 4 * k, 0.25f * (float)k);
    }
    tool_put_f32le(zero, 0.0f);
    memset(co, 0, sizeof co);
    memset(ch, 0, sizeof ch);
    for (i = 0; i < 10; i++) {
        co[i].key_count = 1;
        co[i].packed = 0x10;
        co[i].key_size = 4;
        co[i].keys = zero;
    }
    co[2].key_count = 5; co[2].keys = rise;  /* root_trans z */
    co[5].key_count = 5; co[5].keys = turn;  /* root_rot z */
    co[6].key_count = 5; co[6].keys = bend;  /* bone_03 x */
    co[9].key_count = 5; co[9].keys = swell; /* fat */
    ch[0].name = cres_lit("root_trans");
    ch[0].flags = 1000u | 0x8000u | 1u << 17 | 4u << 22 | 15u << 25 | 3u << 29;
    ch[1].name = cres_lit("root_rot");
    ch[1].flags = 1000u | 0x8000u | 0u << 17 | 3u << 22 | 15u << 25 | 3u << 29;
    ch[2].name = cres_lit("bone_03");
    ch[2].flags = 1000u | 0x8000u | 0u << 17 | 3u << 22 | 15u << 25 | 3u << 29;
    ch[3].name = cres_lit("fat");
    ch[3].flags = 1000u | 0x8000u | 2u << 17 | 0u << 22 | 15u << 25 | 1u << 29;
    for (i = 0; i < 4; i++) {
        ch[i].crc = plumbob_fnv32(ch[i].name.ptr, ch[i].name.len); /* any stable id */
        ch[i].first_component = 3 * i;
    }
    for (i = 0; i < 10; i++) co[i].channel = i < 9 ? i / 3 : 3u;
    memset(&target, 0, sizeof target);
    target.name = cres_lit("auskel");
    target.kind = 1;
    target.channel_count = 4;
    target.unknown = 1;
    memset(&a, 0, sizeof a);
    a.head.resource_name = cres_lit("a-demo-body-turn_anim");
    a.duration = 1000;
    a.version = 6;
    a.type = 7;
    a.priority = 2;
    a.params[7] = 1.0f;
    a.skeleton = cres_lit("auskel");
    a.data_string = cres_lit("");
    a.target_count = 1;
    a.targets = &target;
    a.channel_count = 4;
    a.channels = ch;
    a.component_count = 10;
    a.components = co;
    return finish(write_anim, plumbob_anim_write_size(&a), &a, out);
}

size_t demo_skel_package(unsigned char **out) {
    unsigned char *res[3] = {NULL, NULL, NULL};
    size_t sizes[3], cap, n = 0;
    plumbob_package_write_entry e[3];
    static const uint32_t types[3] = {PLUMBOB_TYPE_CRES, PLUMBOB_TYPE_GMDC, PLUMBOB_TYPE_ANIM};
    uint32_t i;
    sizes[0] = demo_skel_cres(&res[0]);
    sizes[1] = demo_skel_gmdc(&res[1]);
    sizes[2] = demo_skel_anim(&res[2]);
    memset(e, 0, sizeof e);
    for (i = 0; i < 3; i++) {
        if (!sizes[i]) break;
        e[i].type = types[i];
        e[i].group = DEMO_SKEL_GROUP;
        e[i].instance = DEMO_SKEL_INSTANCE + i;
        e[i].data = res[i];
        e[i].size = (uint32_t)sizes[i];
        e[i].mem_size = (uint32_t)sizes[i];
        e[i].compression = PLUMBOB_COMPRESSION_NONE;
    }
    *out = NULL;
    if (i == 3) {
        cap = plumbob_package_write_size(e, 3, 1);
        *out = cap == SIZE_MAX ? NULL : (unsigned char *)malloc(cap);
        if (!*out || plumbob_package_write(e, 3, 1, *out, cap, &n) != PLUMBOB_OK) {
            free(*out);
            *out = NULL;
            n = 0;
        }
    }
    for (i = 0; i < 3; i++) free(res[i]);
    return n;
}
