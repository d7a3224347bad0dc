/* glTF in, Sims 2 GMDC out: see gltf_import.h.  The inverse of what
 * gltf_export.c writes for a mesh: positions and normals go back from
 * glTF's Y-up to the game's Z-up, joints' inverse bind matrices back to the
 * joint table's rotation and translation. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gltf_import.h"
#include "gltf_axes.h"
#include "util/bytes.h"
#include "util/namelist.h"

#define MAX_TARGETS 4u /* a morph vertex map holds four delta sets a vertex */

static void *keep(gmdc_import *gi, size_t bytes) {
    void *p;
    if (gi->owned_n == gi->owned_cap) {
        uint32_t cap = gi->owned_cap ? gi->owned_cap * 2u : 64u;
        void **o = (void **)realloc(gi->owned, cap * sizeof *o);
        if (!o) return NULL;
        gi->owned = o;
        gi->owned_cap = cap;
    }
    p = calloc(bytes ? bytes : 1u, 1);
    if (p) gi->owned[gi->owned_n++] = p;
    return p;
}

static void note(gmdc_import *gi, const char *what) {
    gi->skipped++;
    tool_namelist_add(gi->skipped_names, sizeof gi->skipped_names, what, 3); /* each name once */
}

static plumbob_string str_of(gmdc_import *gi, const char *s) {
    plumbob_string r;
    size_t n = strlen(s);
    char *c = (char *)keep(gi, n + 1u);
    r.ptr = c;
    r.len = c ? n : 0;
    if (c) memcpy(c, s, n);
    return r;
}

/* Writes n float3 (optionally Y-up -> Z-up) as an element's bytes. */
static unsigned char *floats3(gmdc_import *gi, const float *v, uint32_t n, int convert) {
    unsigned char *p = (unsigned char *)keep(gi, (size_t)n * 12u);
    uint32_t i;
    if (!p) return NULL;
    for (i = 0; i < n; i++) {
        plumbob_vec3 a;
        a.x = v[3 * i]; a.y = v[3 * i + 1]; a.z = v[3 * i + 2];
        if (convert) a = gltf_y_up_to_z_up(a);
        tool_put_f32le(p + 12u * i, a.x);
        tool_put_f32le(p + 12u * i + 4, a.y);
        tool_put_f32le(p + 12u * i + 8, a.z);
    }
    return p;
}

/* Does target t of the primitive move vertex v (its position or normal)? */
#define MOVES(in, t, v)                                                                                   \
    ((in).delta[t][3 * (v)] != 0 || (in).delta[t][3 * (v) + 1] != 0 || (in).delta[t][3 * (v) + 2] != 0 || \
     ((in).ndelta[t] && ((in).ndelta[t][3 * (v)] != 0 || (in).ndelta[t][3 * (v) + 1] != 0 ||              \
                         (in).ndelta[t][3 * (v) + 2] != 0)))

/* A delta set's element: dense, or sparse (an item per moved vertex and the
 * list of those vertices, as the GMDC page describes sparse elements) when
 * that is smaller; items are u16 (version 4). */
static int delta_element(gmdc_import *gi, plumbob_gmdc_element *e, uint32_t identity, uint32_t set, const float *d,
                         uint32_t n, const unsigned char *items, uint32_t moved) {
    e->identity = identity; e->format = 2; e->group = set; e->count = n;
    if (items && 14u * (size_t)moved < 12u * (size_t)n) {
        float *packed = (float *)malloc(12u * (size_t)moved + 12u);
        uint32_t k;
        if (!packed) return 0;
        for (k = 0; k < moved; k++) {
            uint32_t v = tool_le16(items + 2u * k);
            packed[3 * k] = d[3 * v]; packed[3 * k + 1] = d[3 * v + 1]; packed[3 * k + 2] = d[3 * v + 2];
        }
        e->data = floats3(gi, packed, moved, 1);
        free(packed);
        e->byte_size = 12u * moved;
        e->items.data = items;
        e->items.count = moved;
    } else {
        e->data = floats3(gi, d, n, 1);
        e->byte_size = 12u * n;
    }
    return e->data != NULL;
}

typedef struct prim_in {
    float *pos, *nrm, *uv, *w, *delta[MAX_TARGETS], *ndelta[MAX_TARGETS]; /* ndelta: NULL when a target moves no normal */
    uint32_t *idx, *jnt, n, ni, targets;
} prim_in;

/* Every group's triangles in one list, for the bounding mesh: model-space
 * positions (Z-up) and each triangle's joint, the one with the most weight
 * over its three vertices (-1: none, or an unskinned mesh). */
typedef struct bound_acc {
    float *pos;
    uint32_t n, cap;
    uint32_t *tri;
    int32_t *joint;
    uint32_t nt, tcap;
} bound_acc;

static void acc_free(bound_acc *a) {
    free(a->pos);
    free(a->tri);
    free(a->joint);
    memset(a, 0, sizeof *a);
}

/* Adds a primitive (positions in glTF's Y-up); 0 when out of memory. */
static int acc_add(bound_acc *a, const prim_in *in, const gmdc_import_joints *joints, uint32_t joint_count) {
    uint32_t v, t, k, c, nt = in->ni / 3u;
    if (a->n + in->n > a->cap) {
        uint32_t cap = (a->n + in->n) * 2u;
        float *p = (float *)realloc(a->pos, sizeof(float) * 3u * cap);
        if (!p) return 0;
        a->pos = p;
        a->cap = cap;
    }
    if (a->nt + nt > a->tcap) {
        uint32_t cap = (a->nt + nt) * 2u + 1u;
        uint32_t *tr = (uint32_t *)realloc(a->tri, sizeof(uint32_t) * 3u * cap);
        int32_t *jo;
        if (!tr) return 0;
        a->tri = tr;
        jo = (int32_t *)realloc(a->joint, sizeof(int32_t) * cap);
        if (!jo) return 0;
        a->joint = jo;
        a->tcap = cap;
    }
    for (v = 0; v < in->n; v++) {
        plumbob_vec3 q;
        q.x = in->pos[3 * v]; q.y = in->pos[3 * v + 1]; q.z = in->pos[3 * v + 2];
        q = gltf_y_up_to_z_up(q);
        a->pos[3u * (a->n + v)] = q.x; a->pos[3u * (a->n + v) + 1] = q.y; a->pos[3u * (a->n + v) + 2] = q.z;
    }
    for (t = 0; t < nt; t++) {
        uint32_t jj[12], m = 0, best = 0;
        float ww[12];
        for (c = 0; c < 3; c++) {
            uint32_t vv = in->idx[3 * t + c];
            a->tri[3u * (a->nt + t) + c] = a->n + vv;
            for (k = 0; in->jnt && k < 4; k++) {
                uint32_t j = in->jnt[4 * vv + k], x;
                float w = in->w[4 * vv + k];
                if (!(w > 0) || j >= joint_count) continue;
                if (joints) j = joints->of_skin_joint[j];
                for (x = 0; x < m && jj[x] != j; x++) continue;
                if (x == m) { jj[m] = j; ww[m++] = 0; }
                ww[x] += w;
            }
        }
        for (k = 1; k < m; k++)
            if (ww[k] > ww[best] || (ww[k] == ww[best] && jj[k] < jj[best])) best = k;
        a->joint[a->nt + t] = m ? (int32_t)jj[best] : -1;
    }
    a->n += in->n;
    a->nt += nt;
    return 1;
}

typedef struct corner {
    uint32_t key[3], at; /* the position's bits, the corner's place in the face list */
} corner;

static int corner_cmp(const void *pa, const void *pb) {
    const corner *a = (const corner *)pa, *b = (const corner *)pb;
    int k;
    for (k = 0; k < 3; k++)
        if (a->key[k] != b->key[k]) return a->key[k] < b->key[k] ? -1 : 1;
    return a->at < b->at ? -1 : a->at > b->at;
}

/* The mesh of the triangles whose joint is `joint` (all of them when
 * `all`): each position once, faces into them; positions through the joint
 * table row `row` into bone space when row is not NULL.  Returns 0 when out
 * of memory; leaves *m empty when more than 65535 positions (16-bit faces). */
static int bound_mesh(gmdc_import *gi, const bound_acc *a, int all, int32_t joint, const unsigned char *row,
                      plumbob_gmdc_mesh *m, uint32_t *too_big) {
    uint32_t t, n = 0, k, u = 0;
    corner *cs;
    unsigned char *verts, *faces;
    memset(m, 0, sizeof *m);
    for (t = 0; t < a->nt; t++) n += all || a->joint[t] == joint;
    if (n == 0) return 1;
    cs = (corner *)malloc(sizeof(corner) * 3u * n);
    if (!cs) return 0;
    for (t = 0, n = 0; t < a->nt; t++) {
        if (!all && a->joint[t] != joint) continue;
        for (k = 0; k < 3; k++) {
            const float *p = a->pos + 3u * a->tri[3u * t + k];
            memcpy(cs[3u * n + k].key, p, 12);
            cs[3u * n + k].at = 3u * n + k;
        }
        n++;
    }
    qsort(cs, 3u * n, sizeof *cs, corner_cmp);
    for (k = 0; k < 3u * n; k++) u += k == 0 || memcmp(cs[k].key, cs[k - 1].key, 12) != 0;
    if (u > 65535u) {
        (*too_big)++;
        free(cs);
        return 1;
    }
    verts = (unsigned char *)keep(gi, 12u * u);
    faces = (unsigned char *)keep(gi, 2u * 3u * n);
    if (!verts || !faces) {
        free(cs);
        return 0;
    }
    for (k = 0, u = 0; k < 3u * n; k++) {
        if (k == 0 || memcmp(cs[k].key, cs[k - 1].key, 12) != 0) {
            plumbob_vec3 p;
            memcpy(&p.x, &cs[k].key[0], 4); memcpy(&p.y, &cs[k].key[1], 4); memcpy(&p.z, &cs[k].key[2], 4);
            if (row) { /* bone space: the joint table row's rotation, then its translation */
                plumbob_quat q;
                plumbob_vec3 r;
                q.x = tool_f32le(row); q.y = tool_f32le(row + 4); q.z = tool_f32le(row + 8);
                q.w = tool_f32le(row + 12);
                r = plumbob_quat_rotate(plumbob_quat_normalize(q), p);
                p.x = r.x + tool_f32le(row + 16); p.y = r.y + tool_f32le(row + 20); p.z = r.z + tool_f32le(row + 24);
            }
            tool_put_f32le(verts + 12u * u, p.x); tool_put_f32le(verts + 12u * u + 4, p.y);
            tool_put_f32le(verts + 12u * u + 8, p.z);
            u++;
        }
        tool_put_le16(faces + 2u * cs[k].at, (uint16_t)(u - 1u));
    }
    free(cs);
    m->vertex_count = u;
    m->vertices = verts;
    m->faces.data = faces;
    m->faces.count = 3u * n;
    return 1;
}

static void prim_free(prim_in *p) {
    uint32_t t;
    free(p->pos); free(p->nrm); free(p->uv); free(p->w); free(p->idx); free(p->jnt);
    for (t = 0; t < MAX_TARGETS; t++) {
        free(p->delta[t]);
        free(p->ndelta[t]);
    }
    memset(p, 0, sizeof *p);
}

int gltf_attribute(const gltf_doc *doc, const json_value *attrs, const char *key, uint32_t comps, uint32_t n,
                     float **out, const char *what, char *why, size_t cap) {
    uint32_t a, count = 0;
    *out = NULL;
    if (!gltf_uint(attrs, key, &a)) return 1;
    if (!gltf_read_floats(doc, a, comps, out, &count, why, cap)) return 0;
    if (count != n) {
        snprintf(why, cap, "%s: %s has %u items for %u positions", what, key, (unsigned)count, (unsigned)n);
        free(*out);
        *out = NULL;
        return 0;
    }
    return 1;
}

plumbob_mat34 gltf_node_local(const json_value *node) {
    const json_value *mx = json_get(node, "matrix"), *t = json_get(node, "translation"), *r = json_get(node, "rotation"),
                     *sc = json_get(node, "scale");
    plumbob_bone_pose pose;
    plumbob_mat34 m;
    float *tr = &pose.translation.x, *q = &pose.rotation.x, *s3 = &pose.scale.x;
    uint32_t k;
    if (mx && mx->kind == JSON_ARRAY && mx->count == 16) {
        for (k = 0; k < 12; k++) { /* row k / 4, column k % 4 */
            const json_value *e = &mx->items[4u * (k % 4u) + k / 4u];
            m.m[k / 4u][k % 4u] = e->kind == JSON_NUMBER ? (float)e->number : (float)(k % 4u == k / 4u);
        }
        return m;
    }
    pose.rotation = plumbob_quat_identity();
    pose.translation.x = pose.translation.y = pose.translation.z = 0.0f;
    pose.scale.x = pose.scale.y = pose.scale.z = 1.0f;
    for (k = 0; t && t->kind == JSON_ARRAY && t->count == 3 && k < 3; k++)
        if (t->items[k].kind == JSON_NUMBER) tr[k] = (float)t->items[k].number;
    for (k = 0; r && r->kind == JSON_ARRAY && r->count == 4 && k < 4; k++)
        if (r->items[k].kind == JSON_NUMBER) q[k] = (float)r->items[k].number;
    for (k = 0; sc && sc->kind == JSON_ARRAY && sc->count == 3 && k < 3; k++)
        if (sc->items[k].kind == JSON_NUMBER) s3[k] = (float)sc->items[k].number;
    return plumbob_mat34_from_pose(&pose);
}

uint32_t gltf_heaviest_four(uint32_t *jnt, float *w, const uint32_t *j1, const float *w1, uint32_t n) {
    uint32_t v, x, y, dropped = 0;
    for (v = 0; v < n; v++) {
        uint32_t jj[8];
        float ww[8];
        for (x = 0; x < 4; x++) {
            jj[x] = jnt[4 * v + x]; ww[x] = w[4 * v + x];
            jj[4 + x] = j1[4 * v + x]; ww[4 + x] = w1[4 * v + x];
        }
        for (x = 0; x < 8; x++) /* heaviest first */
            for (y = x + 1; y < 8; y++)
                if (ww[y] > ww[x]) { float tw = ww[x]; uint32_t tj = jj[x]; ww[x] = ww[y]; jj[x] = jj[y]; ww[y] = tw; jj[y] = tj; }
        dropped += ww[4] > 0;
        for (x = 0; x < 4; x++) { jnt[4 * v + x] = jj[x]; w[4 * v + x] = ww[x]; }
    }
    return dropped;
}

uint32_t *gltf_node_parents(const json_value *nodes) {
    uint32_t *parent = (uint32_t *)malloc(sizeof *parent * (nodes->count + 1u)), i, k;
    if (!parent) return NULL;
    for (i = 0; i < nodes->count; i++) parent[i] = UINT32_MAX;
    for (i = 0; i < nodes->count; i++) {
        const json_value *ch = json_get(&nodes->items[i], "children");
        for (k = 0; ch && ch->kind == JSON_ARRAY && k < ch->count; k++) {
            double c = ch->items[k].number;
            if (ch->items[k].kind == JSON_NUMBER && c >= 0 && c < (double)nodes->count && parent[(uint32_t)c] == UINT32_MAX &&
                (uint32_t)c != i)
                parent[(uint32_t)c] = i;
        }
    }
    return parent;
}

/* Node n's world matrix: its ancestors' local matrices times its own (a
 * chain no longer than the node count, so a cycle ends). */
static plumbob_mat34 node_world(const json_value *nodes, const uint32_t *parent, uint32_t n) {
    plumbob_mat34 m = gltf_node_local(&nodes->items[n]);
    uint32_t depth;
    for (depth = 0; depth < nodes->count && parent[n] != UINT32_MAX; depth++) {
        plumbob_mat34 pm;
        n = parent[n];
        pm = gltf_node_local(&nodes->items[n]);
        m = plumbob_mat34_mul(&pm, &m);
    }
    return m;
}

/* Places an unskinned primitive where its node's world matrix m puts it
 * (glTF: a mesh's vertices are in its node's space): positions by m,
 * normals by its inverse transpose (renormalized), morph deltas by its
 * linear part and that inverse transpose; a mirroring m reverses the
 * triangles' winding, as glTF says its negative determinant does. */
static void place(prim_in *in, const plumbob_mat34 *m) {
    const float (*a)[4] = m->m;
    double c[3][3], det; /* cofactors: the inverse transpose is c / det */
    uint32_t v, t, k, i;
    for (i = 0; i < 3; i++)
        for (k = 0; k < 3; k++) {
            uint32_t i1 = (i + 1) % 3, i2 = (i + 2) % 3, k1 = (k + 1) % 3, k2 = (k + 2) % 3;
            c[i][k] = (double)a[i1][k1] * a[i2][k2] - (double)a[i1][k2] * a[i2][k1];
        }
    det = a[0][0] * c[0][0] + a[0][1] * c[0][1] + a[0][2] * c[0][2];
    for (v = 0; v < in->n; v++) {
        plumbob_vec3 p;
        p.x = in->pos[3u * v]; p.y = in->pos[3u * v + 1]; p.z = in->pos[3u * v + 2];
        p = plumbob_mat34_transform_point(m, p);
        in->pos[3u * v] = p.x; in->pos[3u * v + 1] = p.y; in->pos[3u * v + 2] = p.z;
        for (t = 0; t < in->targets; t++) {
            float *d = in->delta[t] + 3u * v;
            p.x = d[0]; p.y = d[1]; p.z = d[2];
            p = plumbob_mat34_transform_vector(m, p);
            d[0] = p.x; d[1] = p.y; d[2] = p.z;
        }
        for (t = 0; t <= in->targets; t++) { /* the normals, then each target's normal deltas */
            float *nv = t == 0 ? (in->nrm ? in->nrm + 3u * v : NULL) : (in->ndelta[t - 1] ? in->ndelta[t - 1] + 3u * v : NULL);
            double n[3], l;
            if (!nv) continue;
            for (i = 0; i < 3; i++) n[i] = c[i][0] * nv[0] + c[i][1] * nv[1] + c[i][2] * nv[2];
            /* a normal renormalized (keeping the sign det gives it), a delta over det */
            l = t == 0 ? sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]) * (det < 0 ? -1 : 1) : (det != 0 ? det : 1);
            if (l != 0)
                for (i = 0; i < 3; i++) nv[i] = (float)(n[i] / l);
        }
    }
    if (det < 0)
        for (k = 0; k + 2 < in->ni; k += 3) {
            uint32_t tmp = in->idx[k + 1];
            in->idx[k + 1] = in->idx[k + 2];
            in->idx[k + 2] = tmp;
        }
}

const json_value *gltf_first_skin(const gltf_doc *doc) {
    const json_value *nodes = json_get(&doc->root, "nodes");
    const json_value *skin = NULL;
    uint32_t i, s;
    for (i = 0; nodes && nodes->kind == JSON_ARRAY && i < nodes->count && !skin; i++)
        if (json_get(&nodes->items[i], "mesh") && gltf_uint(&nodes->items[i], "skin", &s)) skin = gltf_at(&doc->root, "skins", s);
    return skin;
}

/* A mesh as a node uses it (node -1: a mesh no node uses). */
typedef struct mesh_use {
    int32_t node;
    uint32_t mesh;
} mesh_use;

int gltf_import_gmdc(const gltf_doc *doc, const char *name, const gmdc_import_joints *joints, gmdc_import *gi, char *why,
                     size_t cap) {
    const json_value *meshes = json_get(&doc->root, "meshes"), *skin, *nodes;
    uint32_t mi, pi, k, joint_count = 0, table_count = 0, n_groups = 0, n_elements = 0, morph_pairs = 1, total_prims = 0;
    uint32_t n_uses = 0, ui, *parents = NULL, *first_use = NULL;
    mesh_use *uses = NULL;
    plumbob_gmdc *g = &gi->gmdc;
    plumbob_string *mnames;
    char what[64];
    bound_acc acc;
    memset(gi, 0, sizeof *gi);
    memset(&acc, 0, sizeof acc);
    if (!meshes || meshes->kind != JSON_ARRAY || meshes->count == 0) {
        snprintf(why, cap, "the glTF has no mesh");
        return 0;
    }
    skin = gltf_first_skin(doc);
    /* what is imported: each node that uses a mesh, in mesh order (a mesh two
     * nodes use is two sets of groups); a mesh no node uses, as it is */
    nodes = json_get(&doc->root, "nodes");
    if (!nodes || nodes->kind != JSON_ARRAY) nodes = NULL;
    uses = (mesh_use *)malloc(sizeof *uses * (meshes->count + (nodes ? nodes->count : 0u) + 1u));
    first_use = (uint32_t *)calloc(meshes->count + 2u, sizeof *first_use);
    if (!uses || !first_use) goto oom;
    { /* the nodes of each mesh, in node order: counted, then placed (linear in nodes and meshes) */
        uint32_t nd, m, *next;
        for (nd = 0; nodes && nd < nodes->count; nd++)
            if (gltf_uint(&nodes->items[nd], "mesh", &m) && m < meshes->count) first_use[m + 2u]++;
        for (mi = 0; mi < meshes->count; mi++) { /* each mesh's slots: its nodes, or one for none */
            uint32_t c = first_use[mi + 2u] ? first_use[mi + 2u] : 1u;
            first_use[mi + 2u] = first_use[mi + 1u] + c;
            uses[first_use[mi + 1u]].node = -1;
            uses[first_use[mi + 1u]].mesh = mi;
        }
        n_uses = first_use[meshes->count + 1u];
        next = first_use + 1u; /* next[m]: where mesh m's next node goes */
        for (nd = 0; nodes && nd < nodes->count; nd++)
            if (gltf_uint(&nodes->items[nd], "mesh", &m) && m < meshes->count) {
                uses[next[m]].node = (int32_t)nd;
                uses[next[m]++].mesh = m;
            }
    }
    for (ui = 0; ui < n_uses; ui++) {
        const json_value *prims = json_get(&meshes->items[uses[ui].mesh], "primitives");
        total_prims += prims && prims->kind == JSON_ARRAY ? (uint32_t)prims->count : 0u;
    }
    g->version = 4;
    g->index_size = 2;
    g->elements = (plumbob_gmdc_element *)keep(gi, sizeof *g->elements * (total_prims * (6u + 2u * MAX_TARGETS) + 1u));
    g->linkages = (plumbob_gmdc_linkage *)keep(gi, sizeof *g->linkages * (total_prims + 1u));
    g->groups = (plumbob_gmdc_group *)keep(gi, sizeof *g->groups * (total_prims + 1u));
    mnames = (plumbob_string *)keep(gi, sizeof *mnames * 2u * (total_prims * MAX_TARGETS + 1u));
    if (!g->elements || !g->linkages || !g->groups || !mnames) goto oom;
    mnames[0] = str_of(gi, "");
    mnames[1] = str_of(gi, "");
    if (skin) { /* the joint table: each joint's inverse bind, back to Z-up */
        const json_value *js = json_get(skin, "joints");
        uint32_t ibm, count = 0;
        float *m = NULL;
        unsigned char *jt;
        joint_count = js && js->kind == JSON_ARRAY ? (uint32_t)js->count : 0u;
        if (joint_count > 65535u) {
            snprintf(why, cap, "the skin has %u joints; a GMDC holds 65535", (unsigned)joint_count);
            goto fail;
        }
        if (joints && joints->skin_count != joint_count) {
            snprintf(why, cap, "the joint match is for %u joints, the skin has %u", (unsigned)joints->skin_count,
                     (unsigned)joint_count);
            goto fail;
        }
        table_count = joints ? joints->table_count : joint_count;
        jt = (unsigned char *)keep(gi, 28u * table_count);
        if (!jt) goto oom;
        for (k = 0; joints && k < 7u * table_count; k++) tool_put_f32le(jt + 4u * k, joints->bind[k]);
        if (gltf_uint(skin, "inverseBindMatrices", &ibm) && !gltf_read_floats(doc, ibm, 16, &m, &count, why, cap))
            goto fail;
        for (k = 0; k < joint_count; k++) {
            plumbob_quat q = {0, 0, 0, 1};
            plumbob_vec3 t = {0, 0, 0};
            unsigned char *row = jt + 28u * (joints ? joints->of_skin_joint[k] : k);
            if (m && k < count) {
                q = gltf_quat_y_up_to_z_up(gltf_matrix_quat(m + 16u * k));
                gi->scaled_binds += (uint32_t)gltf_matrix_scaled(m + 16u * k); /* a GMDC joint holds no scale */
                t.x = m[16u * k + 12]; t.y = m[16u * k + 13]; t.z = m[16u * k + 14];
                t = gltf_y_up_to_z_up(t);
            }
            tool_put_f32le(row, q.x); tool_put_f32le(row + 4, q.y);
            tool_put_f32le(row + 8, q.z); tool_put_f32le(row + 12, q.w);
            tool_put_f32le(row + 16, t.x); tool_put_f32le(row + 20, t.y);
            tool_put_f32le(row + 24, t.z);
        }
        free(m);
        g->joints = jt;
        g->joint_count = table_count;
    }
    for (ui = 0; ui < n_uses; ui++) {
        const json_value *mesh = &meshes->items[uses[ui].mesh], *prims = json_get(mesh, "primitives"), *mn = json_get(mesh, "name");
        const json_value *tnames = json_get(json_get(mesh, "extras"), "targetNames");
        const json_value *user = uses[ui].node >= 0 ? &nodes->items[uses[ui].node] : NULL, *user_skin = NULL;
        char inst_name[160];
        const char *mesh_name = mn && mn->kind == JSON_STRING && mn->str[0] ? mn->str : "mesh";
        uint32_t s_index, *skin_map = NULL, skin_joints = 0; /* the node's skin's joints as joints of the first skin */
        plumbob_mat34 world;
        int placed = 0;
        mi = uses[ui].mesh;
        if (ui > 0 && uses[ui - 1].mesh == mi) { /* a further instance: named after its node */
            const json_value *nn = json_get(user, "name");
            if (nn && nn->kind == JSON_STRING && nn->str[0]) snprintf(inst_name, sizeof inst_name, "%s_%s", mesh_name, nn->str);
            else snprintf(inst_name, sizeof inst_name, "%s_node%d", mesh_name, (int)uses[ui].node);
            mesh_name = inst_name;
        }
        if (user && gltf_uint(user, "skin", &s_index)) user_skin = gltf_at(&doc->root, "skins", s_index);
        if (user_skin && skin && user_skin != skin) { /* JOINTS_0 index the node's own skin's joints */
            const json_value *js = json_get(user_skin, "joints"), *j0 = json_get(skin, "joints");
            uint32_t k2, k1;
            skin_map = (uint32_t *)keep(gi, sizeof *skin_map * ((js && js->kind == JSON_ARRAY ? js->count : 0u) + 1u));
            if (!skin_map) goto oom;
            skin_joints = js && js->kind == JSON_ARRAY ? (uint32_t)js->count : 0u;
            for (k2 = 0; js && js->kind == JSON_ARRAY && k2 < js->count; k2++) {
                for (k1 = 0; j0 && j0->kind == JSON_ARRAY && k1 < j0->count; k1++)
                    if (j0->items[k1].number == js->items[k2].number) break;
                if (!j0 || j0->kind != JSON_ARRAY || k1 == j0->count) {
                    snprintf(why, cap, "meshes[%u] is skinned by skins[%u], whose joint nodes[%.0f] the first skin lacks: "
                             "a GMDC has one joint table (join the armatures)", (unsigned)mi, (unsigned)s_index,
                             js->items[k2].number);
                    goto fail;
                }
                skin_map[k2] = k1;
            }
        }
        if (user && !user_skin) { /* an unskinned mesh where its node puts it */
            if (!parents && !(parents = gltf_node_parents(nodes))) goto oom;
            world = node_world(nodes, parents, (uint32_t)uses[ui].node);
            for (k = 0; k < 12; k++)
                if (world.m[k / 4u][k % 4u] != (k % 4u == k / 4u ? 1.0f : 0.0f)) placed = 1;
        }
        if (!name && ui == 0) /* the game's naming, unless the mesh has it already (a plumbob export) */
            snprintf(gi->name, sizeof gi->name, "%s%s", mesh_name,
                     strlen(mesh_name) >= 15 && strcmp(mesh_name + strlen(mesh_name) - 15, "_tslocator_gmdc") == 0 ? "" : "_tslocator_gmdc");
        for (pi = 0; prims && prims->kind == JSON_ARRAY && pi < prims->count; pi++) {
            const json_value *p = &prims->items[pi], *attrs = json_get(p, "attributes"), *targets = json_get(p, "targets");
            uint32_t mode = 4, a, count = 0, first_el = n_elements, v, max_infl = 1, nbones = 0;
            prim_in in;
            plumbob_gmdc_group *gr = &g->groups[n_groups];
            plumbob_gmdc_linkage *lk = &g->linkages[n_groups];
            unsigned char *refs, *faces, *bones = NULL, *assign = NULL, *wts = NULL;
            uint16_t *bone_list = NULL;
            int32_t *slot = NULL;
            memset(&in, 0, sizeof in);
            snprintf(what, sizeof what, "meshes[%u].primitives[%u]", (unsigned)mi, (unsigned)pi);
            (void)gltf_uint(p, "mode", &mode);
            if (mode != 4 || !attrs || !gltf_uint(attrs, "POSITION", &a)) {
                char nm[80];
                snprintf(nm, sizeof nm, "%s (%s)", what, mode != 4 ? "not triangles" : "no POSITION");
                note(gi, nm);
                continue;
            }
            if (!gltf_read_floats(doc, a, 3, &in.pos, &in.n, why, cap)) goto fail_prim;
            if (in.n > 65535u) {
                snprintf(why, cap, "%s: %u vertices; a GMDC group holds 65535", what, (unsigned)in.n);
                goto fail_prim;
            }
            if (!gltf_attribute(doc, attrs, "NORMAL", 3, in.n, &in.nrm, what, why, cap) ||
                !gltf_attribute(doc, attrs, "TEXCOORD_0", 2, in.n, &in.uv, what, why, cap) ||
                !gltf_attribute(doc, attrs, "WEIGHTS_0", 4, in.n, &in.w, what, why, cap))
                goto fail_prim;
            if (gltf_uint(p, "indices", &a)) {
                if (!gltf_read_uints(doc, a, 1, &in.idx, &in.ni, why, cap)) goto fail_prim;
            } else { /* unindexed: 0, 1, 2, ... */
                in.ni = in.n;
                in.idx = (uint32_t *)malloc(sizeof(uint32_t) * (in.n + 1u));
                if (!in.idx) goto oom_prim;
                for (v = 0; v < in.n; v++) in.idx[v] = v;
            }
            if (in.ni % 3u) {
                snprintf(why, cap, "%s: %u indices is not whole triangles", what, (unsigned)in.ni);
                goto fail_prim;
            }
            for (v = 0; v < in.ni; v++)
                if (in.idx[v] >= in.n) {
                    snprintf(why, cap, "%s: index %u of %u vertices", what, (unsigned)in.idx[v], (unsigned)in.n);
                    goto fail_prim;
                }
            if (gltf_uint(attrs, "JOINTS_0", &a)) {
                if (!skin) {
                    snprintf(why, cap, "%s: JOINTS_0 without a skin on its node", what);
                    goto fail_prim;
                }
                if (!in.w) {
                    snprintf(why, cap, "%s: JOINTS_0 without WEIGHTS_0", what);
                    goto fail_prim;
                }
                if (!gltf_read_uints(doc, a, 4, &in.jnt, &count, why, cap)) goto fail_prim;
                if (count != in.n) {
                    snprintf(why, cap, "%s: JOINTS_0 has %u items for %u positions", what, (unsigned)count, (unsigned)in.n);
                    goto fail_prim;
                }
                if (gltf_uint(attrs, "JOINTS_1", &a)) { /* 8 influences (Blender writes them): the 4 heaviest kept */
                    uint32_t *j1 = NULL, c1 = 0;
                    float *w1 = NULL;
                    if (!gltf_attribute(doc, attrs, "WEIGHTS_1", 4, in.n, &w1, what, why, cap) || !w1 ||
                        !gltf_read_uints(doc, a, 4, &j1, &c1, why, cap) || c1 != in.n) {
                        if (!w1 || c1 != in.n) snprintf(why, cap, "%s: JOINTS_1 without WEIGHTS_1 of the same count", what);
                        free(j1); free(w1);
                        goto fail_prim;
                    }
                    gi->dropped_influences += gltf_heaviest_four(in.jnt, in.w, j1, w1, in.n);
                    free(j1);
                    free(w1);
                }
                if (skin_map) /* the node's own skin: its joints as the first skin's (past it: refused below) */
                    for (v = 0; v < 4u * in.n; v++) in.jnt[v] = in.jnt[v] < skin_joints ? skin_map[in.jnt[v]] : joint_count;
            }
            if (targets && targets->kind == JSON_ARRAY) {
                for (k = 0; k < targets->count; k++) {
                    const json_value *tp = &targets->items[k];
                    if (k >= MAX_TARGETS) { gi->dropped_targets++; continue; }
                    if (!gltf_attribute(doc, tp, "POSITION", 3, in.n, &in.delta[in.targets], what, why, cap) ||
                        !gltf_attribute(doc, tp, "NORMAL", 3, in.n, &in.ndelta[in.targets], what, why, cap))
                        goto fail_prim;
                    if (in.ndelta[in.targets]) { /* all zero (an exporter's filler): no element */
                        float *nd = in.ndelta[in.targets];
                        for (v = 0; v < 3u * in.n && nd[v] == 0.0f; v++) continue;
                        if (v == 3u * in.n) { free(nd); in.ndelta[in.targets] = NULL; }
                    }
                    if (!in.delta[in.targets] && !in.ndelta[in.targets]) continue;
                    if (!in.delta[in.targets] && !(in.delta[in.targets] = (float *)calloc(3u * in.n + 1u, sizeof(float))))
                        goto oom_prim; /* a target that moves normals only */
                    in.targets++;
                }
            }
            if (placed) place(&in, &world);
            /* elements of this primitive's linkage */
            {
                plumbob_gmdc_element *e = &g->elements[n_elements];
                e->identity = PLUMBOB_GMDC_VERTICES; e->format = 2; e->set = 0; e->count = in.n;
                e->byte_size = 12u * in.n; e->data = floats3(gi, in.pos, in.n, 1);
                if (!e->data) goto oom_prim;
                n_elements++;
            }
            if (in.nrm) {
                plumbob_gmdc_element *e = &g->elements[n_elements];
                e->identity = PLUMBOB_GMDC_NORMALS; e->format = 2; e->set = 1; e->count = in.n;
                e->byte_size = 12u * in.n; e->data = floats3(gi, in.nrm, in.n, 1);
                if (!e->data) goto oom_prim;
                n_elements++;
            }
            if (in.uv) {
                plumbob_gmdc_element *e = &g->elements[n_elements];
                unsigned char *d = (unsigned char *)keep(gi, 8u * in.n);
                if (!d) goto oom_prim;
                for (v = 0; v < in.n; v++) { tool_put_f32le(d + 8u * v, in.uv[2 * v]); tool_put_f32le(d + 8u * v + 4, in.uv[2 * v + 1]); }
                e->identity = PLUMBOB_GMDC_UVS; e->format = 1; e->set = 2; e->count = in.n; e->byte_size = 8u * in.n; e->data = d;
                n_elements++;
            }
            if (in.jnt) { /* the group's bone list, assignments (slots) and weights, heaviest first */
                slot = (int32_t *)malloc(sizeof(int32_t) * (joint_count + 1u));
                bone_list = (uint16_t *)malloc(sizeof(uint16_t) * (joint_count + 1u));
                assign = (unsigned char *)keep(gi, 4u * in.n);
                if (!slot || !bone_list || !assign) goto oom_prim;
                for (k = 0; k < joint_count; k++) slot[k] = -1;
                for (v = 0; v < in.n; v++) {
                    uint32_t used = 0;
                    for (k = 0; k < 4; k++) used += in.w[4 * v + k] > 0;
                    if (used > max_infl) max_infl = used;
                }
                if (max_infl > 1) {
                    wts = (unsigned char *)keep(gi, 4u * (max_infl - 1u) * in.n);
                    if (!wts) goto oom_prim;
                }
                for (v = 0; v < in.n; v++) {
                    uint32_t order[4] = {0, 1, 2, 3}, x, y, used = 0;
                    float sum = 0;
                    unsigned char b[4] = {0xFF, 0xFF, 0xFF, 0xFF};
                    for (x = 0; x < 4; x++) /* heaviest first */
                        for (y = x + 1; y < 4; y++)
                            if (in.w[4 * v + order[y]] > in.w[4 * v + order[x]]) { uint32_t t = order[x]; order[x] = order[y]; order[y] = t; }
                    for (x = 0; x < 4; x++) sum += in.w[4 * v + order[x]] > 0 ? in.w[4 * v + order[x]] : 0;
                    for (x = 0; x < 4; x++) {
                        float w = in.w[4 * v + order[x]];
                        uint32_t j = in.jnt[4 * v + order[x]];
                        if (!(w > 0)) continue;
                        if (j >= joint_count) {
                            snprintf(why, cap, "%s: JOINTS_0 of vertex %u names joint %u of %u", what, (unsigned)v, (unsigned)j,
                                     (unsigned)joint_count);
                            goto fail_prim;
                        }
                        if (slot[j] < 0) {
                            if (nbones == 255u) {
                                snprintf(why, cap, "%s: more than 255 joints in one primitive (a group's bone list)", what);
                                goto fail_prim;
                            }
                            slot[j] = (int32_t)nbones;
                            bone_list[nbones++] = (uint16_t)(joints ? joints->of_skin_joint[j] : j);
                        }
                        b[used] = (unsigned char)slot[j];
                        if (wts && used < max_infl - 1u) tool_put_f32le(wts + 4u * ((max_infl - 1u) * v + used), sum > 0 ? w / sum : 0);
                        used++;
                    }
                    tool_put_le32(assign + 4u * v, (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24);
                    gi->unweighted += used == 0; /* no bone: the page's 0xFF in every slot */
                }
                {
                    plumbob_gmdc_element *e = &g->elements[n_elements++];
                    e->identity = PLUMBOB_GMDC_BONE_ASSIGNMENTS; e->format = 4; e->count = in.n; e->byte_size = 4u * in.n; e->data = assign;
                }
                if (wts) {
                    plumbob_gmdc_element *e = &g->elements[n_elements++];
                    e->identity = PLUMBOB_GMDC_BONE_WEIGHTS; e->format = max_infl - 2u; e->count = in.n;
                    e->byte_size = 4u * (max_infl - 1u) * in.n; e->data = wts;
                }
                bones = (unsigned char *)keep(gi, 2u * nbones);
                if (!bones) goto oom_prim;
                for (k = 0; k < nbones; k++) tool_put_le16(bones + 2u * k, bone_list[k]);
            }
            if (in.targets) { /* the vertex map names each delta set's morph pair; vertices it does not move: 0 */
                unsigned char *map = (unsigned char *)keep(gi, 4u * in.n);
                uint32_t pair[MAX_TARGETS], t;
                if (!map) goto oom_prim;
                for (t = 0; t < in.targets; t++) {
                    const char *tn = tnames && tnames->kind == JSON_ARRAY && t < tnames->count && tnames->items[t].kind == JSON_STRING
                                   ? tnames->items[t].str : NULL;
                    char fallback[32];
                    uint32_t q;
                    if (!tn) { snprintf(fallback, sizeof fallback, "morph_%u", (unsigned)t); tn = fallback; }
                    for (q = 1; q < morph_pairs; q++)
                        if (mnames[2 * q + 1].len == strlen(tn) && memcmp(mnames[2 * q + 1].ptr, tn, strlen(tn)) == 0) break;
                    if (q == morph_pairs) {
                        mnames[2 * q] = str_of(gi, mesh_name);
                        mnames[2 * q + 1] = str_of(gi, tn);
                        morph_pairs++;
                    }
                    pair[t] = q;
                    {   /* the vertices the target moves: a sparse set's item list */
                        unsigned char *items = (unsigned char *)keep(gi, 2u * in.n);
                        uint32_t moved = 0;
                        if (!items) goto oom_prim;
                        for (v = 0; v < in.n; v++)
                            if (MOVES(in, t, v)) tool_put_le16(items + 2u * moved++, (uint16_t)v);
                        if (!delta_element(gi, &g->elements[n_elements++], PLUMBOB_GMDC_MORPH_VERTEX_DELTAS, t,
                                           in.delta[t], in.n, moved ? items : NULL, moved))
                            goto oom_prim;
                        /* the same set number: the skinner pairs them */
                        if (in.ndelta[t] && !delta_element(gi, &g->elements[n_elements++], PLUMBOB_GMDC_MORPH_NORMAL_DELTAS,
                                                           t, in.ndelta[t], in.n, moved ? items : NULL, moved))
                            goto oom_prim;
                    }
                }
                for (v = 0; v < in.n; v++) {
                    uint32_t word = 0;
                    for (t = 0; t < in.targets; t++)
                        if (MOVES(in, t, v)) word |= pair[t] << (8u * t);
                    tool_put_le32(map + 4u * v, word);
                }
                {
                    plumbob_gmdc_element *e = &g->elements[n_elements++];
                    e->identity = PLUMBOB_GMDC_MORPH_VERTEX_MAP; e->format = 4; e->count = in.n; e->byte_size = 4u * in.n; e->data = map;
                }
            }
            refs = (unsigned char *)keep(gi, 2u * (n_elements - first_el));
            faces = (unsigned char *)keep(gi, 2u * in.ni);
            if (!refs || !faces) goto oom_prim;
            for (k = first_el; k < n_elements; k++) tool_put_le16(refs + 2u * (k - first_el), (uint16_t)k);
            for (k = 0; k < in.ni; k++) tool_put_le16(faces + 2u * k, (uint16_t)in.idx[k]);
            lk->refs.data = refs;
            lk->refs.count = n_elements - first_el;
            lk->vertex_count = in.n;
            lk->active_count = n_elements - first_el;
            gr->primitive = PLUMBOB_GMDC_PRIMITIVE_TRIANGLES;
            gr->link = n_groups;
            {
                char gname[128];
                snprintf(gname, sizeof gname, prims->count > 1 ? "%s_%u" : "%s", mesh_name, (unsigned)pi);
                gr->name = str_of(gi, gname);
            }
            gr->faces.data = faces;
            gr->faces.count = in.ni;
            gr->opacity = 0xFFFFFFFFu;
            gr->bones.data = bones;
            gr->bones.count = bones ? nbones : 0u;
            if (!acc_add(&acc, &in, joints, joint_count)) goto oom_prim;
            gi->vertices += in.n;
            gi->triangles += in.ni / 3u;
            n_groups++;
            free(slot);
            free(bone_list);
            prim_free(&in);
            continue;
        oom_prim:
            snprintf(why, cap, "out of memory");
        fail_prim:
            free(slot);
            free(bone_list);
            prim_free(&in);
            goto fail;
        }
    }
    if (n_groups == 0) {
        snprintf(why, cap, "no triangle primitive with POSITION to import");
        goto fail;
    }
    if (name) snprintf(gi->name, sizeof gi->name, "%s", name);
    g->head.resource_name.ptr = gi->name;
    g->head.resource_name.len = strlen(gi->name);
    g->element_count = n_elements;
    g->linkage_count = n_groups;
    g->group_count = n_groups;
    g->morph_count = morph_pairs;
    g->morph_names = mnames;
    /* the bounding mesh (GMDC page, "Model" and "Subset"): an unskinned mesh's
     * every position once; a skinned one's per joint, in that joint's bone
     * space, each triangle with the joint that weighs most on it */
    if (g->joint_count == 0) {
        if (!bound_mesh(gi, &acc, 1, -1, NULL, &g->bounding, &gi->bounding_too_big)) goto oom;
    } else {
        g->subsets = (plumbob_gmdc_mesh *)keep(gi, sizeof *g->subsets * g->joint_count);
        if (!g->subsets) goto oom;
        g->subset_count = g->joint_count;
        for (k = 0; k < g->joint_count; k++)
            if (!bound_mesh(gi, &acc, 0, (int32_t)k, g->joints + 28u * k, &g->subsets[k], &gi->bounding_too_big)) goto oom;
    }
    acc_free(&acc);
    free(uses);
    free(first_use);
    free(parents);
    return 1;
oom:
    snprintf(why, cap, "out of memory");
fail:
    acc_free(&acc);
    free(uses);
    free(first_use);
    free(parents);
    gmdc_import_free(gi);
    return 0;
}

void gmdc_import_free(gmdc_import *gi) {
    uint32_t i;
    for (i = 0; i < gi->owned_n; i++) free(gi->owned[i]);
    free(gi->owned);
    memset(gi, 0, sizeof *gi);
}

uint32_t gltf_skin_scaled_binds(const gltf_doc *doc, const json_value *skin) {
    uint32_t ibm, count = 0, k, n = 0;
    float *m = NULL;
    char why[200];
    if (!skin || !gltf_uint(skin, "inverseBindMatrices", &ibm) || !gltf_read_floats(doc, ibm, 16, &m, &count, why, sizeof why))
        return 0;
    for (k = 0; k < count; k++) n += (uint32_t)gltf_matrix_scaled(m + 16u * k);
    free(m);
    return n;
}
