/* glTF in, Sims 2 CRES out: see gltf_import.h.  The inverse of what
 * gltf_export.c writes for a CRES skeleton: each node's local rest goes
 * back from glTF's Y-up to the game's Z-up, parents come from the nodes'
 * children, and a bone's joint field is its index in the skin. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gltf_import.h"
#include "gltf_axes.h"
#include "util/cres_build.h"

#define NONE 0xFFFFFFFFu

/* Node i's local rest (Z-up) from its TRS or matrix; *scaled when its
 * scale is not 1 (a CRES bone has none). */
static int node_rest(const gltf_doc *doc, const json_value *node, plumbob_quat *q, plumbob_vec3 *t, int *scaled,
                     char *why, size_t cap, uint32_t index) {
    const json_value *r = json_get(node, "rotation"), *tr = json_get(node, "translation"), *s = json_get(node, "scale");
    const json_value *m = json_get(node, "matrix");
    uint32_t k;
    (void)doc;
    q->x = q->y = q->z = 0.0f;
    q->w = 1.0f;
    t->x = t->y = t->z = 0.0f;
    *scaled = 0;
    if (m) {
        float f[16];
        if (m->kind != JSON_ARRAY || m->count != 16) goto bad;
        for (k = 0; k < 16; k++) {
            if (m->items[k].kind != JSON_NUMBER) goto bad;
            f[k] = (float)m->items[k].number;
        }
        *q = gltf_matrix_quat(f);
        t->x = f[12]; t->y = f[13]; t->z = f[14];
        for (k = 0; k < 3; k++) { /* column lengths: the scale */
            double l2 = (double)f[4 * k] * f[4 * k] + (double)f[4 * k + 1] * f[4 * k + 1] + (double)f[4 * k + 2] * f[4 * k + 2];
            if (l2 < 0.999998 || l2 > 1.000002) *scaled = 1;
        }
    } else {
        if (r) {
            if (r->kind != JSON_ARRAY || r->count != 4) goto bad;
            for (k = 0; k < 4; k++)
                if (r->items[k].kind != JSON_NUMBER) goto bad;
            q->x = (float)r->items[0].number; q->y = (float)r->items[1].number;
            q->z = (float)r->items[2].number; q->w = (float)r->items[3].number;
        }
        if (tr) {
            if (tr->kind != JSON_ARRAY || tr->count != 3) goto bad;
            for (k = 0; k < 3; k++)
                if (tr->items[k].kind != JSON_NUMBER) goto bad;
            t->x = (float)tr->items[0].number; t->y = (float)tr->items[1].number; t->z = (float)tr->items[2].number;
        }
        if (s) {
            if (s->kind != JSON_ARRAY || s->count != 3) goto bad;
            for (k = 0; k < 3; k++) {
                if (s->items[k].kind != JSON_NUMBER) goto bad;
                if (s->items[k].number < 0.999999 || s->items[k].number > 1.000001) *scaled = 1;
            }
        }
    }
    *q = gltf_quat_y_up_to_z_up(*q);
    *t = gltf_y_up_to_z_up(*t);
    return 1;
bad:
    snprintf(why, cap, "nodes[%u]: a malformed rotation, translation, scale or matrix", (unsigned)index);
    return 0;
}

int gltf_import_cres(const gltf_doc *doc, const char *name, cres_import *ci, char *why, size_t cap) {
    const json_value *nodes = json_get(&doc->root, "nodes"), *skin = gltf_first_skin(doc), *joints;
    uint32_t n, i, k, j, bones = 0, roots = 0, joint_count, *parent = NULL, *joint = NULL, *order = NULL, *block = NULL;
    uint32_t *stack = NULL, blocks, kept = 0;
    uint8_t *keep = NULL;
    plumbob_cres_block *b;
    memset(ci, 0, sizeof *ci);
    if (!skin) {
        snprintf(why, cap, "no node has a mesh and a skin: there is no skeleton to write");
        return 0;
    }
    joints = json_get(skin, "joints");
    n = (uint32_t)nodes->count; /* a skin's node has a mesh: nodes is an array */
    joint_count = joints && joints->kind == JSON_ARRAY ? (uint32_t)joints->count : 0u;
    if (joint_count == 0) {
        snprintf(why, cap, "the skin lists no joints");
        return 0;
    }
    parent = (uint32_t *)malloc(sizeof(uint32_t) * n);
    joint = (uint32_t *)malloc(sizeof(uint32_t) * n);
    order = (uint32_t *)malloc(sizeof(uint32_t) * n);
    block = (uint32_t *)malloc(sizeof(uint32_t) * n);
    stack = (uint32_t *)malloc(sizeof(uint32_t) * n);
    keep = (uint8_t *)calloc(n, 1);
    if (!parent || !joint || !order || !block || !stack || !keep) goto oom;
    for (i = 0; i < n; i++) parent[i] = joint[i] = block[i] = NONE;
    for (i = 0; i < n; i++) { /* parents from children lists (the first parent a node is given) */
        const json_value *ch = json_get(&nodes->items[i], "children");
        for (k = 0; ch && ch->kind == JSON_ARRAY && k < ch->count; k++) {
            const json_value *c = &ch->items[k];
            uint32_t ci_ = c->kind == JSON_NUMBER && c->number >= 0 && c->number < n ? (uint32_t)c->number : NONE;
            if (ci_ == NONE || (double)ci_ != c->number) {
                snprintf(why, cap, "nodes[%u].children[%u] is not a node", (unsigned)i, (unsigned)k);
                goto fail;
            }
            if (parent[ci_] == NONE && ci_ != i) parent[ci_] = i;
        }
    }
    for (k = 0; k < joint_count; k++) {
        const json_value *v = &joints->items[k];
        uint32_t x = v->kind == JSON_NUMBER && v->number >= 0 && v->number < n ? (uint32_t)v->number : NONE;
        if (x == NONE || (double)x != v->number) {
            snprintf(why, cap, "skins.joints[%u] is not a node", (unsigned)k);
            goto fail;
        }
        if (joint[x] != NONE) {
            snprintf(why, cap, "skins.joints[%u] repeats joint %u (node %u)", (unsigned)k, (unsigned)joint[x], (unsigned)x);
            goto fail;
        }
        joint[x] = k;
        /* the joint and its ancestors are bones; a cycle of parents ends
         * when it meets a node already kept */
        for (i = x; i != NONE && !keep[i]; i = parent[i]) {
            keep[i] = 1;
            kept++;
        }
    }
    /* bones in depth-first order from the roots, parents before children */
    for (i = 0; i < n; i++) {
        uint32_t top = 0, r;
        if (!keep[i] || (parent[i] != NONE && keep[parent[i]])) continue;
        roots++;
        stack[top++] = i;
        while (top) {
            const json_value *ch;
            r = stack[--top];
            if (block[r] != NONE) continue;
            block[r] = 1u + bones;
            order[bones++] = r;
            ch = json_get(&nodes->items[r], "children");
            /* push in reverse so the first child comes out first */
            for (k = ch && ch->kind == JSON_ARRAY ? (uint32_t)ch->count : 0u; k-- > 0;) {
                uint32_t c = (uint32_t)ch->items[k].number;
                if (keep[c] && parent[c] == r && block[c] == NONE && top < n) stack[top++] = c;
            }
        }
    }
    if (bones != kept) { /* glTF's nodes are a forest; these ones loop */
        snprintf(why, cap, "the parents of the skin's joints form a cycle (nodes' children)");
        goto fail;
    }
    /* blocks: the resource node, the bones, a bone data extension per joint */
    blocks = 1u + bones + joint_count;
    ci->blocks = b = (plumbob_cres_block *)calloc(blocks, sizeof *b);
    ci->refs = (plumbob_cres_ref *)calloc(roots + 2u * bones + 1u, sizeof *ci->refs);
    ci->names = (char *)calloc(bones, 96);
    if (!b || !ci->refs || !ci->names) goto oom;
    snprintf(ci->name, sizeof ci->name, "%s", name && name[0] ? name : "skeleton_cres");
    {
        plumbob_cres_ref *ref = ci->refs;
        plumbob_string res_name;
        res_name.ptr = ci->name;
        res_name.len = strlen(ci->name);
        b[0].kind = PLUMBOB_CRES_KIND_RESOURCE;
        b[0].head = cres_head("cResourceNode", PLUMBOB_CRES_RESOURCE_NODE, 7);
        b[0].u.resource.form = 1;
        b[0].u.resource.sg = cres_head("cSGResource", 0, 2);
        b[0].u.resource.name = res_name;
        cres_tree_node(&b[0].u.resource.node, res_name, NULL, 0, NULL, 0);
        b[0].u.resource.node.children = ref;
        for (k = 0; k < bones; k++)
            if (parent[order[k]] == NONE || !keep[parent[order[k]]]) *ref++ = cres_block_ref(block[order[k]]);
        b[0].u.resource.node.child_count = roots;
        b[0].u.resource.skin_type = 2; /* a skeleton (docs/FORMATS.md) */
        for (k = 0; k < bones; k++) {
            uint32_t x = order[k], c;
            plumbob_cres_block *t = &b[1u + k];
            const json_value *nm = json_get(&nodes->items[x], "name"), *ch = json_get(&nodes->items[x], "children");
            char *tag = ci->names + 96u * k;
            plumbob_string s;
            int scaled;
            if (nm && nm->kind == JSON_STRING && nm->len > 0) snprintf(tag, 96, "%s", nm->str);
            else if (joint[x] != NONE) snprintf(tag, 96, "joint_%u", (unsigned)joint[x]);
            else snprintf(tag, 96, "node_%u", (unsigned)x);
            s.ptr = tag;
            s.len = strlen(tag);
            t->kind = PLUMBOB_CRES_KIND_TRANSFORM;
            t->head = cres_head("cTransformNode", PLUMBOB_CRES_TRANSFORM_NODE, 7);
            cres_tree_node(&t->u.transform.node, s, NULL, 0, NULL, 0);
            if (!node_rest(doc, &nodes->items[x], &t->u.transform.rotation, &t->u.transform.translation, &scaled, why,
                           cap, x))
                goto fail;
            if (scaled) ci->scaled++;
            t->u.transform.joint = joint[x] != NONE ? joint[x] : PLUMBOB_CRES_NO_JOINT;
            if (joint[x] != NONE) {
                plumbob_cres_block *d = &b[1u + bones + joint[x]];
                *ref = cres_block_ref(1u + bones + joint[x]);
                t->u.transform.node.extensions = ref++;
                t->u.transform.node.extension_count = 1;
                d->kind = PLUMBOB_CRES_KIND_BONE_DATA;
                d->head = cres_head("cBoneDataExtension", PLUMBOB_CRES_BONE_DATA_EXTENSION, 5);
                d->u.bone_data.extension = cres_head("cExtension", 0, 3);
                d->u.bone_data.heading_axis = 0;
                d->u.bone_data.mirror_axis = -1;
                d->u.bone_data.stretch_axis = 1;
                d->u.bone_data.stretch = 1.0f;
                d->u.bone_data.orientation.w = 1.0f;
            }
            t->u.transform.node.children = ref;
            for (c = 0, j = 0; ch && ch->kind == JSON_ARRAY && j < ch->count; j++) {
                uint32_t y = (uint32_t)ch->items[j].number;
                if (keep[y] && parent[y] == x) {
                    *ref++ = cres_block_ref(block[y]);
                    c++;
                }
            }
            t->u.transform.node.child_count = c;
        }
    }
    ci->cres.block_count = blocks;
    ci->cres.blocks = b;
    ci->bones = bones;
    ci->joints = joint_count;
    free(parent); free(joint); free(order); free(block); free(stack); free(keep);
    return 1;
oom:
    snprintf(why, cap, "out of memory");
fail:
    free(parent); free(joint); free(order); free(block); free(stack); free(keep);
    cres_import_free(ci);
    return 0;
}

void cres_import_free(cres_import *ci) {
    free(ci->blocks);
    free(ci->refs);
    free(ci->names);
    memset(ci, 0, sizeof *ci);
}

/* Model rest transform (Z-up) of bone b: its parents' rests composed. */
static void bone_model(const plumbob_skeleton *s, int32_t b, plumbob_quat *q, plumbob_vec3 *t) {
    plumbob_quat mq = plumbob_quat_identity();
    plumbob_vec3 mt = {0, 0, 0};
    uint32_t depth = 0;
    /* walk up to the root, composing child-first: model = parent * local */
    for (; b >= 0 && depth <= s->bone_count; b = s->parent[b], depth++) {
        plumbob_quat lq = plumbob_quat_normalize(s->rest[b].rotation);
        plumbob_vec3 r = plumbob_quat_rotate(lq, mt);
        mt.x = r.x + s->rest[b].translation.x;
        mt.y = r.y + s->rest[b].translation.y;
        mt.z = r.z + s->rest[b].translation.z;
        mq = plumbob_quat_normalize(plumbob_quat_mul(lq, mq));
    }
    *q = mq;
    *t = mt;
}

int gltf_match_cres(const gltf_doc *doc, const plumbob_cres_skeleton *sk, gmdc_import_joints *out, char *why,
                    size_t cap) {
    const json_value *nodes = json_get(&doc->root, "nodes"), *skin = gltf_first_skin(doc), *joints;
    uint32_t b, k, n, count = 0, *owner = NULL;
    memset(out, 0, sizeof *out);
    if (!skin) {
        snprintf(why, cap, "no node has a mesh and a skin: there are no joints to match");
        return 0;
    }
    joints = json_get(skin, "joints");
    n = (uint32_t)nodes->count;
    out->skin_count = joints && joints->kind == JSON_ARRAY ? (uint32_t)joints->count : 0u;
    for (b = 0; b < sk->skeleton.bone_count; b++) /* the table holds every joint the CRES names */
        if (sk->joint_of_bone[b] != PLUMBOB_CRES_NO_JOINT && sk->joint_of_bone[b] + 1u > count) count = sk->joint_of_bone[b] + 1u;
    if (count > 65535u) {
        snprintf(why, cap, "the CRES names joint %u; a GMDC holds 65535", (unsigned)(count - 1u));
        return 0;
    }
    out->of_skin_joint = (uint32_t *)malloc(sizeof(uint32_t) * (out->skin_count + 1u));
    if (!out->of_skin_joint) goto oom;
    for (k = 0; k < out->skin_count; k++) { /* by name; an unclaimed joint_N (how export names them) is N */
        const json_value *v = &joints->items[k], *nm;
        uint32_t x = v->kind == JSON_NUMBER && v->number >= 0 && v->number < n ? (uint32_t)v->number : NONE, j = NONE;
        int32_t bone;
        char *end;
        if (x == NONE || (double)x != v->number) {
            snprintf(why, cap, "skins.joints[%u] is not a node", (unsigned)k);
            goto fail;
        }
        nm = json_get(&nodes->items[x], "name");
        if (!nm || nm->kind != JSON_STRING || nm->len == 0) {
            snprintf(why, cap, "skins.joints[%u] (node %u) has no name to find in the CRES", (unsigned)k, (unsigned)x);
            goto fail;
        }
        bone = plumbob_cres_find_bone(sk, nm->str, nm->len);
        if (bone >= 0) {
            j = sk->joint_of_bone[bone];
            if (j == PLUMBOB_CRES_NO_JOINT) {
                snprintf(why, cap, "joint '%s' is a bone of the CRES that stands for no mesh joint", nm->str);
                goto fail;
            }
        } else if (strncmp(nm->str, "joint_", 6) == 0 && nm->str[6] >= '0' && nm->str[6] <= '9') {
            unsigned long v2 = strtoul(nm->str + 6, &end, 10);
            uint32_t c;
            if (*end == 0 && v2 < 65535u) {
                j = (uint32_t)v2;
                for (c = 0; c < sk->skeleton.bone_count; c++) /* a joint some bone claims is not free */
                    if (sk->joint_of_bone[c] == j) j = NONE;
            }
        }
        if (j == NONE) {
            snprintf(why, cap, "joint '%s' (skins.joints[%u]) is not a bone of the CRES", nm->str, (unsigned)k);
            goto fail;
        }
        out->of_skin_joint[k] = j;
        if (j + 1u > count) count = j + 1u;
    }
    owner = (uint32_t *)malloc(sizeof(uint32_t) * (count + 1u));
    out->bind = (float *)calloc((size_t)count * 7u + 1u, sizeof(float));
    if (!owner || !out->bind) goto oom;
    for (k = 0; k < count; k++) owner[k] = NONE;
    for (k = 0; k < out->skin_count; k++) {
        uint32_t j = out->of_skin_joint[k];
        if (owner[j] != NONE) {
            snprintf(why, cap, "skins.joints[%u] and [%u] are both joint %u of the CRES", (unsigned)owner[j], (unsigned)k,
                     (unsigned)j);
            goto fail;
        }
        owner[j] = k;
    }
    for (k = 0; k < count; k++) out->bind[7u * k + 3u] = 1.0f;
    for (b = 0; b < sk->skeleton.bone_count; b++) { /* joints no skin joint fills: the CRES rest, inverted */
        uint32_t j = sk->joint_of_bone[b];
        plumbob_quat q, iq;
        plumbob_vec3 t, it;
        if (j == PLUMBOB_CRES_NO_JOINT || j >= count || owner[j] != NONE) continue;
        owner[j] = NONE - 1u; /* the first bone claiming it, as plumbob_cres_joint_map */
        bone_model(&sk->skeleton, (int32_t)b, &q, &t);
        iq.x = -q.x; iq.y = -q.y; iq.z = -q.z; iq.w = q.w;
        it = plumbob_quat_rotate(iq, t);
        out->bind[7u * j] = iq.x; out->bind[7u * j + 1u] = iq.y; out->bind[7u * j + 2u] = iq.z; out->bind[7u * j + 3u] = iq.w;
        out->bind[7u * j + 4u] = -it.x; out->bind[7u * j + 5u] = -it.y; out->bind[7u * j + 6u] = -it.z;
    }
    out->table_count = count;
    free(owner);
    return 1;
oom:
    snprintf(why, cap, "out of memory");
fail:
    free(owner);
    gmdc_import_joints_free(out);
    return 0;
}

void gmdc_import_joints_free(gmdc_import_joints *j) {
    free(j->of_skin_joint);
    free(j->bind);
    memset(j, 0, sizeof *j);
}
