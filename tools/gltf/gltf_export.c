/* The glTF scene: skeleton nodes, the GMDC mesh and skin, the clip's animation. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gltf_export.h"
#include "gltf_write.h"
#include "util/bytes.h"
#include "util/namelist.h"

static plumbob_quat quat_conj(plumbob_quat q) {
    q.x = -q.x; q.y = -q.y; q.z = -q.z;
    return q;
}

static plumbob_vec3 vsub(plumbob_vec3 a, plumbob_vec3 b) {
    a.x -= b.x; a.y -= b.y; a.z -= b.z;
    return a;
}

void gltf_joint_bind(const plumbob_gmdc *g, uint32_t j, plumbob_quat *q, plumbob_vec3 *t) {
    plumbob_gmdc_joint_bind(g, j, q, t);
    *q = gltf_quat_z_up_to_y_up(*q);
    *t = gltf_z_up_to_y_up(*t);
}

void gltf_relative(plumbob_quat pq, plumbob_vec3 pt, plumbob_quat *q, plumbob_vec3 *t) {
    *t = plumbob_quat_rotate(quat_conj(pq), vsub(*t, pt));
    *q = plumbob_quat_normalize(plumbob_quat_mul(quat_conj(pq), *q));
}

/* A node of the skeleton: a mesh joint, a rig bone or a clip track's bone. */
typedef struct bone {
    char name[RIG_MAX_NAME];
    uint32_t hash;
    int32_t parent;
    plumbob_quat model_q; /* bind pose in model space (Y-up) */
    plumbob_vec3 model_t;
    int has_model;
    plumbob_bone_pose local; /* rest pose relative to the parent, Y-up (rig resources, CRES skeletons) */
    int has_local;
    uint32_t node;
} bone;

typedef struct scene {
    const gltf_export_src *src;
    gltf_writer w;
    bone *bones;
    uint32_t bone_count, joint_count;
    int32_t *joint_bone;     /* mesh joint -> bone */
    uint32_t *target_pair;   /* morph target -> morph pair */
    uint32_t target_count;
    int32_t mesh_node;
    gltf_export_stats *stats;
} scene;

static int32_t find_bone(const scene *s, uint32_t hash) {
    uint32_t i;
    for (i = 0; i < s->bone_count; i++)
        if (s->bones[i].hash == hash) return (int32_t)i;
    return -1;
}

static void add_bone(scene *s, const char *name, int32_t parent) {
    bone *b = &s->bones[s->bone_count++];
    memset(b, 0, sizeof *b);
    snprintf(b->name, sizeof b->name, "%s", name);
    b->hash = plumbob_fnv32_str(name);
    b->parent = parent;
    b->model_q = plumbob_quat_identity();
}

/* A CRES skeleton: its bones in order (names, parents, rest transforms),
 * then a flat joint_N bone for each mesh joint no bone claims. */
static int collect_skeleton(scene *s) {
    const plumbob_cres_skeleton *sk = s->src->skeleton;
    uint32_t i, j, cap = sk->skeleton.bone_count + s->joint_count + 1u;
    s->bones = (bone *)calloc(cap, sizeof *s->bones);
    s->joint_bone = (int32_t *)calloc(s->joint_count + 1u, sizeof *s->joint_bone);
    if (!s->bones || !s->joint_bone) return 0;
    for (i = 0; i < sk->skeleton.bone_count; i++) {
        char name[RIG_MAX_NAME];
        const plumbob_bone_pose *r = &sk->skeleton.rest[i];
        snprintf(name, sizeof name, "%.*s", (int)sk->skeleton.name[i].len, sk->skeleton.name[i].ptr);
        if (!name[0]) snprintf(name, sizeof name, "node_%u", (unsigned)i);
        add_bone(s, name, sk->skeleton.parent[i]);
        s->bones[i].local.rotation = gltf_quat_z_up_to_y_up(plumbob_quat_normalize(r->rotation));
        s->bones[i].local.translation = gltf_z_up_to_y_up(r->translation);
        s->bones[i].local.scale.x = s->bones[i].local.scale.y = s->bones[i].local.scale.z = 1.0f;
        s->bones[i].has_local = 1;
    }
    plumbob_cres_joint_map(sk, s->joint_count, s->joint_bone);
    for (j = 0; j < s->joint_count; j++) {
        char name[32];
        if (s->joint_bone[j] >= 0) continue;
        snprintf(name, sizeof name, "joint_%u", (unsigned)j);
        s->joint_bone[j] = (int32_t)s->bone_count;
        add_bone(s, name, -1);
        gltf_joint_bind(s->src->mesh, j, &s->bones[s->bone_count - 1].model_q, &s->bones[s->bone_count - 1].model_t);
        s->bones[s->bone_count - 1].has_model = 1;
    }
    return 1;
}

/* A bone at the origin, named 0xHASH, for each GEOM bone hash the rig
 * lacks (its vertices keep their rest place, as plumbob_geom_bind leaves
 * them).  A skin's joints need a common root (glTF), so when there are
 * such bones they and the rig's roots hang under one more root at the
 * origin, GEOM_ROOT_NAME, written last (write_bone_nodes links it). */
#define GEOM_ROOT_NAME "plumbob_unbound_root"
static void collect_geom_bones(scene *s, uint32_t rig_count) {
    uint32_t m, k, first = s->bone_count;
    for (m = 0; m < s->src->geom_count; m++) {
        const plumbob_geom *g = s->src->geoms[m];
        for (k = 0; k < g->bone_count; k++) {
            char name[16];
            if (find_bone(s, g->bone_hashes[k]) >= 0) continue;
            snprintf(name, sizeof name, "0x%08X", (unsigned)g->bone_hashes[k]);
            add_bone(s, name, -1);
            s->bones[s->bone_count - 1].hash = g->bone_hashes[k];
        }
    }
    if (s->bone_count > first) {
        int32_t root = (int32_t)s->bone_count;
        add_bone(s, GEOM_ROOT_NAME, -1);
        for (k = 0; k < (uint32_t)root; k++)
            if (s->bones[k].parent < 0 && (k < rig_count || k >= first)) s->bones[k].parent = root;
    }
}

/* Joints first (named by the rig), then the rig's other bones, then the
 * GEOM bone hashes no rig bone has, then the bones of clip tracks no rig
 * names. */
static int collect_bones(scene *s) {
    const gltf_export_src *src = s->src;
    uint32_t j, cap, rig_count = src->rig ? src->rig->count : 0u;
    s->joint_count = src->mesh ? src->mesh->joint_count : 0u;
    if (src->skeleton) return collect_skeleton(s);
    cap = s->joint_count + rig_count + (src->clip ? src->clip->track_count : 0u) + 1u;
    for (j = 0; j < src->geom_count; j++) cap += src->geoms[j]->bone_count + 1u;
    s->bones = (bone *)calloc(cap, sizeof *s->bones);
    s->joint_bone = (int32_t *)calloc(s->joint_count + 1u, sizeof *s->joint_bone);
    if (!s->bones || !s->joint_bone) return 0;
    for (j = 0; j < s->joint_count; j++) s->joint_bone[j] = (int32_t)j;
    for (j = 0; j < s->joint_count || j < rig_count; j++) {
        char name[RIG_MAX_NAME];
        int32_t parent = j < rig_count ? src->rig->parent[j] : -1;
        if (j < rig_count) snprintf(name, sizeof name, "%s", src->rig->names[j]);
        else snprintf(name, sizeof name, "joint_%u", (unsigned)j);
        add_bone(s, name, parent);
        if (j < rig_count) s->bones[j].hash = src->rig->hash[j]; /* a resource's stored hash */
        if (j < rig_count && src->rig->rest) {
            s->bones[j].local = src->rig->rest[j];
            s->bones[j].has_local = 1;
        }
        if (j < s->joint_count) {
            gltf_joint_bind(src->mesh, j, &s->bones[j].model_q, &s->bones[j].model_t);
            s->bones[j].has_model = 1;
        }
    }
    collect_geom_bones(s, rig_count);
    if (src->clip)
        for (j = 0; j < src->clip->track_count; j++) {
            const plumbob_clip_track *t = &src->clip->tracks[j];
            char name[RIG_MAX_NAME];
            const char *known = tool_dict_bone(src->names, t->hash);
            if (t->target == PLUMBOB_CLIP_TARGET_MORPH || find_bone(s, t->hash) >= 0) continue;
            if (known) snprintf(name, sizeof name, "%s", known);
            else snprintf(name, sizeof name, "0x%08X", (unsigned)t->hash);
            add_bone(s, name, -1);
            if (s->stats->unmatched_tracks < 3) {
                char *un = s->stats->unmatched_names;
                size_t used = strlen(un);
                snprintf(un + used, sizeof s->stats->unmatched_names - used, "%s%s", used ? ", " : "", name);
            }
            s->stats->unmatched_named += known != NULL;
            s->bones[s->bone_count - 1].hash = t->hash;
            s->stats->unmatched_tracks++;
        }
    return 1;
}

/* Nodes in bone order (parents come first), with the local rest transform.
 * Each bone's children are linked in index order first (a scan of the later
 * bones per bone took seconds past 10,000 bones).  0 when out of memory. */
#define NO_CHILD UINT32_MAX
static int write_bone_nodes(scene *s) {
    uint32_t i, k;
    uint32_t *first_child = (uint32_t *)malloc(sizeof(uint32_t) * (s->bone_count + 1u));
    uint32_t *next_sibling = (uint32_t *)malloc(sizeof(uint32_t) * (s->bone_count + 1u));
    if (!first_child || !next_sibling) {
        free(first_child);
        free(next_sibling);
        return 0;
    }
    for (i = 0; i < s->bone_count; i++) first_child[i] = next_sibling[i] = NO_CHILD;
    for (k = s->bone_count; k-- > 0;) { /* children come later than their parent, but for a root */
        int32_t p = s->bones[k].parent;
        /* a later parent only as a root (collect_geom_bones' common root): no cycle */
        if (p >= 0 && (uint32_t)p != k && (uint32_t)p < s->bone_count && ((uint32_t)p < k || s->bones[p].parent < 0)) {
            next_sibling[k] = first_child[p];
            first_child[p] = k;
        }
    }
    for (i = 0; i < s->bone_count; i++) {
        bone *b = &s->bones[i];
        tool_buf *t = gltf_begin(&s->w, GLTF_NODES, &b->node);
        plumbob_quat q = b->model_q;
        plumbob_vec3 p = b->model_t;
        int first = 1;
        plumbob_vec3 sc = {1.0f, 1.0f, 1.0f};
        if (!b->has_model && b->has_local) { /* a rest pose already parent-relative (rig, CRES) */
            q = plumbob_quat_normalize(b->local.rotation);
            p = b->local.translation;
            sc = b->local.scale;
        } else if (b->parent >= 0 && b->has_model && s->bones[b->parent].has_model) {
            gltf_relative(s->bones[b->parent].model_q, s->bones[b->parent].model_t, &q, &p);
        }
        tb_str(t, "\"name\": ");
        tb_json_string(t, b->name, strlen(b->name));
        {
            const float trs[10] = {q.x, q.y, q.z, q.w, p.x, p.y, p.z, sc.x, sc.y, sc.z};
            unsigned nk = sc.x != 1.0f || sc.y != 1.0f || sc.z != 1.0f ? 10u : 7u;
            for (k = 0; k < nk; k++) {
                tb_str(t, k == 0 ? ", \"rotation\": [" : k == 4 ? "], \"translation\": [" : k == 7 ? "], \"scale\": [" : ", ");
                tb_json_float(t, trs[k] + 0.0f); /* + 0.0f: no "-0" in the file */
            }
            tb_str(t, "]");
        }
        for (k = first_child[i]; k != NO_CHILD; k = next_sibling[k]) {
            tb_printf(t, first ? ", \"children\": [%u" : ", %u", (unsigned)k);
            first = 0;
        }
        if (!first) tb_str(t, "]");
        gltf_end(&s->w, GLTF_NODES);
        if (b->parent < 0) gltf_scene_root(&s->w, b->node);
        s->stats->nodes++;
    }
    free(first_child);
    free(next_sibling);
    return 1;
}

/* The morph pairs that become targets: every pair with a name. */
static int collect_targets(scene *s) {
    const plumbob_gmdc *g = s->src->mesh;
    uint32_t i;
    s->target_pair = (uint32_t *)calloc(g->morph_count + 1u, sizeof *s->target_pair);
    if (!s->target_pair) return 0;
    for (i = 0; i < g->morph_count; i++)
        if (g->morph_names[2 * i + 1].len) s->target_pair[s->target_count++] = i;
    return 1;
}

/* Vertex v's float3 of element e, dense or sparse (0 when e is missing,
 * not float3, or holds no item for v). */
static plumbob_vec3 item3(const plumbob_gmdc *g, const plumbob_gmdc_element *e, uint32_t v) {
    plumbob_vec3 r = {0, 0, 0};
    uint32_t k = e && e->format == 2 ? plumbob_gmdc_item(g, e, v) : PLUMBOB_GMDC_NO_ITEM;
    if (k != PLUMBOB_GMDC_NO_ITEM) {
        r.x = plumbob_gmdc_float(e, k, 0);
        r.y = plumbob_gmdc_float(e, k, 1);
        r.z = plumbob_gmdc_float(e, k, 2);
    }
    return r;
}

/* Vertex v's u32 of a format-4 element (`none` when it holds no item). */
static uint32_t item32(const plumbob_gmdc *g, const plumbob_gmdc_element *e, uint32_t v, uint32_t none) {
    uint32_t k = e && e->format == 4 ? plumbob_gmdc_item(g, e, v) : PLUMBOB_GMDC_NO_ITEM;
    return k == PLUMBOB_GMDC_NO_ITEM ? none : tool_le32(e->data + 4u * (size_t)k);
}

static void put3(float *out, plumbob_vec3 v) {
    out[0] = v.x; out[1] = v.y; out[2] = v.z;
}

/* JOINTS_0 and WEIGHTS_0 of vertex v: the kernel's rule
 * (plumbob_gmdc_influences), then normalized as glTF asks. */
static void influences(const scene *s, const plumbob_gmdc_group *gr, uint32_t v, uint16_t joints[4],
                       float weights[4]) {
    uint32_t joint_of[4], k;
    float weight_of[4], total = 0.0f;
    plumbob_gmdc_influences(s->src->mesh, gr, v, joint_of, weight_of);
    for (k = 0; k < 4; k++) {
        uint32_t joint = joint_of[k];
        float w = weight_of[k];
        joints[k] = 0;
        weights[k] = 0.0f;
        if (!(w > 0.0f)) continue;
        total += w;
        {
            /* two slots naming one joint: one influence (glTF allows no
             * duplicate joints with weight in a vertex) */
            uint32_t m;
            for (m = 0; m < k; m++)
                if (weights[m] > 0.0f && joints[m] == joint) break;
            if (m < k) {
                weights[m] += w;
                continue;
            }
        }
        joints[k] = (uint16_t)joint;
        weights[k] = w;
    }
    if (!(total > 0.0f)) {
        weights[0] = 1.0f;
        joints[0] = 0;
        return;
    }
    for (k = 0; k < 4; k++) weights[k] /= total;
}

static plumbob_vec3 unit(plumbob_vec3 v) {
    float l2 = v.x * v.x + v.y * v.y + v.z * v.z, l;
    if (!(l2 > 1e-20f)) { /* a zero normal: up (Y-up), as glTF needs a unit vector */
        v.x = 0; v.y = 1; v.z = 0;
        return v;
    }
    l = sqrtf(l2);
    v.x /= l; v.y /= l; v.z /= l;
    return v;
}

/* COLOR_0 of vertex v into rgba: format 4 as a D3DCOLOR (u32 0xAARRGGBB,
 * the Direct3D vertex colour the game's engine uses), float3 as RGB with
 * alpha 1; values clamped to [0, 1] as glTF asks. */
static void colour(const plumbob_gmdc *g, const plumbob_gmdc_element *e, uint32_t v, float rgba[4]) {
    uint32_t k;
    rgba[0] = rgba[1] = rgba[2] = rgba[3] = 1.0f;
    if (e->format == 4) {
        uint32_t c = item32(g, e, v, 0xFFFFFFFFu);
        rgba[0] = (float)((c >> 16) & 0xFFu) / 255.0f;
        rgba[1] = (float)((c >> 8) & 0xFFu) / 255.0f;
        rgba[2] = (float)(c & 0xFFu) / 255.0f;
        rgba[3] = (float)(c >> 24) / 255.0f;
    } else {
        plumbob_vec3 c = item3(g, e, v);
        rgba[0] = c.x; rgba[1] = c.y; rgba[2] = c.z;
    }
    for (k = 0; k < 4; k++) rgba[k] = !(rgba[k] > 0.0f) ? 0.0f : rgba[k] > 1.0f ? 1.0f : rgba[k];
}

/* Can this element become COLOR_0? */
static int colour_format(const plumbob_gmdc_element *e) {
    return e && (e->format == 4 || e->format == 2);
}

/* One primitive's JSON for group gi; returns 0 when memory ran out, 2 when
 * the group is left out (no vertices or faces, or not a triangle list: the
 * CLI refuses those before it gets here). */
static int write_primitive(scene *s, tool_buf *mesh_json, uint32_t gi, int first) {
    const plumbob_gmdc *g = s->src->mesh;
    const plumbob_gmdc_group *gr = &g->groups[gi];
    uint32_t link = gr->link, n = g->linkages[link].vertex_count, v, k, t, nf = gr->faces.count / 3u * 3u;
    const plumbob_gmdc_element *pos = plumbob_gmdc_find_element(g, link, PLUMBOB_GMDC_VERTICES, 0);
    const plumbob_gmdc_element *nrm = plumbob_gmdc_find_element(g, link, PLUMBOB_GMDC_NORMALS, 0);
    const plumbob_gmdc_element *uv = plumbob_gmdc_find_element(g, link, PLUMBOB_GMDC_UVS, 0);
    const plumbob_gmdc_element *map = plumbob_gmdc_find_element(g, link, PLUMBOB_GMDC_MORPH_VERTEX_MAP, 0);
    const plumbob_gmdc_element *bump = plumbob_gmdc_find_element(g, link, PLUMBOB_GMDC_BUMP_NORMALS, 0);
    const plumbob_gmdc_element *binorm = plumbob_gmdc_find_element(g, link, PLUMBOB_GMDC_BINORMALS, 0);
    const plumbob_gmdc_element *col = plumbob_gmdc_find_element(g, link, PLUMBOB_GMDC_COLOUR, 0);
    const plumbob_gmdc_element *mnd[4];
    float *f = (float *)malloc(sizeof(float) * 4u * (n + 1u));
    uint16_t *j16 = (uint16_t *)malloc(sizeof(uint16_t) * 4u * (n + 1u));
    uint32_t *idx = (uint32_t *)malloc(sizeof(uint32_t) * (nf + 1u));
    uint32_t a_pos, a_nrm = 0, a_uv = 0, a_j = 0, a_w = 0, a_tan = 0, a_col = 0, a_idx;
    int skinned = s->joint_count > 0, ok = 1, has_nrm = nrm && nrm->format == 2, has_mnd = 0;
    /* tangents need normals (glTF ignores them otherwise) */
    int has_tan = has_nrm && bump && bump->format == 2, has_col = colour_format(col);
    if (!f || !j16 || !idx || !pos || pos->format != 2 || !n || !nf ||
        gr->primitive != PLUMBOB_GMDC_PRIMITIVE_TRIANGLES) {
        ok = f && j16 && idx; /* a group without vertices or faces is left out */
        free(f); free(j16); free(idx);
        return ok ? 2 : 0;
    }
    for (k = 0; k < 4; k++) {
        mnd[k] = plumbob_gmdc_find_element(g, link, PLUMBOB_GMDC_MORPH_NORMAL_DELTAS, k);
        if (mnd[k] && mnd[k]->format != 2) mnd[k] = NULL;
        if (mnd[k]) has_mnd = 1;
    }
    has_mnd = has_mnd && has_nrm && map && map->format == 4;
    for (v = 0; v < n; v++) put3(f + 3 * v, gltf_z_up_to_y_up(item3(g, pos, v)));
    a_pos = gltf_accessor(&s->w, f, n, GLTF_FLOAT, 3, GLTF_ARRAY_BUFFER, 1);
    if (has_nrm) {
        for (v = 0; v < n; v++) put3(f + 3 * v, unit(gltf_z_up_to_y_up(item3(g, nrm, v))));
        a_nrm = gltf_accessor(&s->w, f, n, GLTF_FLOAT, 3, GLTF_ARRAY_BUFFER, 0);
    }
    if (has_tan) {
        /* bump-map normals are the tangents; the sign says which way the
         * bitangent goes: + when cross(N, T) agrees with the binormal */
        for (v = 0; v < n; v++) {
            plumbob_vec3 tn = unit(gltf_z_up_to_y_up(item3(g, bump, v))), nn, bn, c;
            float w = 1.0f;
            if (binorm && binorm->format == 2) {
                nn = gltf_z_up_to_y_up(item3(g, nrm, v));
                bn = gltf_z_up_to_y_up(item3(g, binorm, v));
                c.x = nn.y * tn.z - nn.z * tn.y;
                c.y = nn.z * tn.x - nn.x * tn.z;
                c.z = nn.x * tn.y - nn.y * tn.x;
                if (c.x * bn.x + c.y * bn.y + c.z * bn.z < 0.0f) w = -1.0f;
            }
            put3(f + 4 * v, tn);
            f[4 * v + 3] = w;
        }
        a_tan = gltf_accessor(&s->w, f, n, GLTF_FLOAT, 4, GLTF_ARRAY_BUFFER, 0);
    }
    if (uv && uv->format == 1) {
        for (v = 0; v < n; v++) {
            uint32_t item = plumbob_gmdc_item(g, uv, v);
            f[2 * v] = item != PLUMBOB_GMDC_NO_ITEM ? plumbob_gmdc_float(uv, item, 0) : 0.0f;
            f[2 * v + 1] = item != PLUMBOB_GMDC_NO_ITEM ? plumbob_gmdc_float(uv, item, 1) : 0.0f;
        }
        a_uv = gltf_accessor(&s->w, f, n, GLTF_FLOAT, 2, GLTF_ARRAY_BUFFER, 0);
    }
    if (has_col) {
        for (v = 0; v < n; v++) colour(g, col, v, f + 4 * v);
        a_col = gltf_accessor(&s->w, f, n, GLTF_FLOAT, 4, GLTF_ARRAY_BUFFER, 0);
    }
    if (skinned) {
        for (v = 0; v < n; v++) influences(s, gr, v, j16 + 4 * v, f + 4 * v);
        a_j = gltf_accessor(&s->w, j16, n, GLTF_USHORT, 4, GLTF_ARRAY_BUFFER, 0);
        a_w = gltf_accessor(&s->w, f, n, GLTF_FLOAT, 4, GLTF_ARRAY_BUFFER, 0);
    }
    for (k = 0; k < nf; k++) idx[k] = plumbob_gmdc_index(g, &gr->faces, k);
    a_idx = gltf_accessor(&s->w, idx, nf, GLTF_UINT, 1, GLTF_ELEMENT_ARRAY_BUFFER, 0);
    tb_printf(mesh_json, "%s{\"mode\": 4, \"indices\": %u, \"attributes\": {\"POSITION\": %u", first ? "" : ", ",
              (unsigned)a_idx, (unsigned)a_pos);
    if (has_nrm) tb_printf(mesh_json, ", \"NORMAL\": %u", (unsigned)a_nrm);
    if (has_tan) tb_printf(mesh_json, ", \"TANGENT\": %u", (unsigned)a_tan);
    if (uv && uv->format == 1) tb_printf(mesh_json, ", \"TEXCOORD_0\": %u", (unsigned)a_uv);
    if (has_col) tb_printf(mesh_json, ", \"COLOR_0\": %u", (unsigned)a_col);
    if (skinned) tb_printf(mesh_json, ", \"JOINTS_0\": %u, \"WEIGHTS_0\": %u", (unsigned)a_j, (unsigned)a_w);
    tb_str(mesh_json, "}");
    for (t = 0; t < s->target_count; t++) { /* every primitive has every target */
        uint32_t pair = s->target_pair[t], a_t, a_tn = 0, pass;
        for (pass = 0; pass < (has_mnd ? 2u : 1u); pass++) {
            /* pass 0: position deltas, pass 1: normal deltas */
            for (v = 0; v < n; v++) {
                plumbob_vec3 d = {0, 0, 0};
                uint32_t ids = item32(g, map, v, 0);
                for (k = 0; k < 4; k++)
                    if (((ids >> (8u * k)) & 0xFFu) == pair) {
                        plumbob_vec3 e = pass ? item3(g, mnd[k], v)
                                              : item3(g, plumbob_gmdc_find_element(g, link, PLUMBOB_GMDC_MORPH_VERTEX_DELTAS, k), v);
                        d.x += e.x; d.y += e.y; d.z += e.z;
                    }
                put3(f + 3 * v, gltf_z_up_to_y_up(d));
            }
            if (pass) a_tn = gltf_accessor(&s->w, f, n, GLTF_FLOAT, 3, GLTF_ARRAY_BUFFER, 0);
            else a_t = gltf_accessor(&s->w, f, n, GLTF_FLOAT, 3, GLTF_ARRAY_BUFFER, 1);
        }
        tb_printf(mesh_json, t ? ", {\"POSITION\": %u" : ", \"targets\": [{\"POSITION\": %u", (unsigned)a_t);
        if (has_mnd) tb_printf(mesh_json, ", \"NORMAL\": %u", (unsigned)a_tn);
        tb_str(mesh_json, "}");
    }
    if (s->target_count) tb_str(mesh_json, "]");
    tb_str(mesh_json, "}");
    s->stats->primitives++;
    s->stats->vertices += n;
    free(f); free(j16); free(idx);
    return 1;
}

static int write_mesh(scene *s) {
    const plumbob_gmdc *g = s->src->mesh;
    tool_buf prims = {0};
    uint32_t gi, mesh, skin = 0, t, written = 0, node;
    tool_buf *b;
    if (!collect_targets(s)) return 0;
    s->stats->targets = s->target_count;
    for (gi = 0; gi < g->group_count; gi++) {
        int r = write_primitive(s, &prims, gi, written == 0);
        if (!r) { tb_free(&prims); return 0; }
        if (r == 1) written++;
    }
    if (!written) { /* nothing drawable: no mesh */
        tb_free(&prims);
        return 1;
    }
    b = gltf_begin(&s->w, GLTF_MESHES, &mesh);
    tb_str(b, "\"name\": ");
    tb_json_string(b, g->head.resource_name.ptr, g->head.resource_name.len);
    tb_str(b, ", \"primitives\": [");
    tb_put(b, prims.data, prims.size);
    tb_str(b, "]");
    tb_free(&prims);
    if (s->target_count) {
        tb_str(b, ", \"weights\": [");
        for (t = 0; t < s->target_count; t++) tb_str(b, t ? ", 0" : "0");
        tb_str(b, "], \"extras\": {\"targetNames\": [");
        for (t = 0; t < s->target_count; t++) {
            const plumbob_string *nm = &g->morph_names[2 * s->target_pair[t] + 1];
            if (t) tb_str(b, ", ");
            tb_json_string(b, nm->ptr, nm->len);
        }
        tb_str(b, "]}");
    }
    gltf_end(&s->w, GLTF_MESHES);
    if (s->joint_count) {
        float *ibm = (float *)calloc(16u * s->joint_count, sizeof(float));
        uint32_t j, r, c;
        if (!ibm) return 0;
        for (j = 0; j < s->joint_count; j++) {
            plumbob_quat q;
            plumbob_vec3 tr;
            plumbob_mat34 m;
            plumbob_gmdc_joint(g, j, &q, &tr);
            m = plumbob_mat34_from_rt(gltf_quat_z_up_to_y_up(plumbob_quat_normalize(q)), gltf_z_up_to_y_up(tr));
            for (c = 0; c < 4; c++)
                for (r = 0; r < 3; r++) ibm[16 * j + 4 * c + r] = m.m[r][c];
            ibm[16 * j + 15] = 1.0f;
        }
        t = gltf_accessor(&s->w, ibm, s->joint_count, GLTF_FLOAT, 16, 0, 0);
        free(ibm);
        b = gltf_begin(&s->w, GLTF_SKINS, &skin);
        tb_printf(b, "\"inverseBindMatrices\": %u, \"joints\": [", (unsigned)t);
        for (j = 0; j < s->joint_count; j++) tb_printf(b, j ? ", %u" : "%u", (unsigned)s->bones[s->joint_bone[j]].node);
        tb_str(b, "]");
        gltf_end(&s->w, GLTF_SKINS);
    }
    b = gltf_begin(&s->w, GLTF_NODES, &node);
    tb_str(b, "\"name\": ");
    tb_json_string(b, g->head.resource_name.ptr, g->head.resource_name.len);
    tb_printf(b, ", \"mesh\": %u", (unsigned)mesh);
    if (s->joint_count) tb_printf(b, ", \"skin\": %u", (unsigned)skin);
    gltf_end(&s->w, GLTF_NODES);
    gltf_scene_root(&s->w, node);
    s->mesh_node = (int32_t)node;
    s->stats->nodes++;
    return 1;
}

/* The inverse of an affine transform (a rest model transform: rotation,
 * translation and the rig's scale); the identity when it is singular. */
static plumbob_mat34 affine_inverse(const plumbob_mat34 *m) {
    double a = m->m[0][0], b = m->m[0][1], c = m->m[0][2], d = m->m[1][0], e = m->m[1][1], f = m->m[1][2];
    double g = m->m[2][0], h = m->m[2][1], i = m->m[2][2], det, inv[3][3];
    plumbob_mat34 r = plumbob_mat34_identity();
    int row, col;
    det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g);
    if (!(fabs(det) > 1e-20)) return r;
    inv[0][0] = (e * i - f * h) / det; inv[0][1] = (c * h - b * i) / det; inv[0][2] = (b * f - c * e) / det;
    inv[1][0] = (f * g - d * i) / det; inv[1][1] = (a * i - c * g) / det; inv[1][2] = (c * d - a * f) / det;
    inv[2][0] = (d * h - e * g) / det; inv[2][1] = (b * g - a * h) / det; inv[2][2] = (a * e - b * d) / det;
    for (row = 0; row < 3; row++) {
        double t = 0.0;
        for (col = 0; col < 3; col++) {
            r.m[row][col] = (float)inv[row][col];
            t -= inv[row][col] * m->m[col][3];
        }
        r.m[row][3] = (float)t;
    }
    return r;
}

/* Each bone's rest model transform: its local rest composed down from its
 * root (parents come first); the identity for a bone with no rest. */
static plumbob_mat34 *rest_models(const scene *s) {
    plumbob_mat34 *model = (plumbob_mat34 *)malloc(sizeof *model * (s->bone_count + 1u));
    uint32_t i;
    if (!model) return NULL;
    for (i = 0; i < s->bone_count; i++) {
        const bone *b = &s->bones[i];
        plumbob_mat34 local;
        if (!b->has_local) {
            model[i] = plumbob_mat34_identity();
            continue;
        }
        local = plumbob_mat34_from_pose(&b->local);
        model[i] = b->parent >= 0 && (uint32_t)b->parent < i ? plumbob_mat34_mul(&model[b->parent], &local) : local;
    }
    return model;
}

/* JOINTS_0 / WEIGHTS_0 of GEOM vertex v: the four stored weights (slots at
 * or past the bone list, or weighing nothing, left out), a joint named
 * twice counted once, normalized as glTF asks (no weight: joint 0, 1). */
static void geom_influences(const plumbob_geom *g, const plumbob_geom_element *asg, const plumbob_geom_element *wts,
                            const uint32_t *joint_of_slot, uint32_t v, uint16_t joints[4], float weights[4]) {
    const unsigned char *slots = g->vertices + (size_t)v * g->vertex_stride + asg->offset;
    float total = 0.0f;
    uint32_t k, m;
    for (k = 0; k < 4; k++) {
        float w = plumbob_geom_float(g, wts, v, k);
        joints[k] = 0;
        weights[k] = 0.0f;
        if (!(w > 0.0f) || slots[k] >= g->bone_count) continue;
        total += w;
        for (m = 0; m < k; m++)
            if (weights[m] > 0.0f && joints[m] == joint_of_slot[slots[k]]) break;
        if (m < k) {
            weights[m] += w;
            continue;
        }
        joints[k] = (uint16_t)joint_of_slot[slots[k]];
        weights[k] = w;
    }
    if (!(total > 0.0f)) {
        weights[0] = 1.0f;
        return;
    }
    for (m = 0; m < 4; m++) weights[m] /= total; /* glTF asks sum 1 */
}

/* GEOM mesh gi as a mesh node with its own skin; 0 when memory ran out,
 * 2 when it has no position, vertices or triangles (left out). */
static int write_geom(scene *s, uint32_t gi, const plumbob_mat34 *rest) {
    const plumbob_geom *g = s->src->geoms[gi];
    const char *name = s->src->geom_names ? s->src->geom_names[gi] : "geom";
    const plumbob_geom_element *pos = plumbob_geom_find_element(g, PLUMBOB_GEOM_POSITION, 0);
    const plumbob_geom_element *nrm = plumbob_geom_find_element(g, PLUMBOB_GEOM_NORMAL, 0);
    const plumbob_geom_element *tan = plumbob_geom_find_element(g, PLUMBOB_GEOM_TANGENT, 0);
    const plumbob_geom_element *asg = plumbob_geom_find_element(g, PLUMBOB_GEOM_ASSIGNMENT, 0);
    const plumbob_geom_element *wts = plumbob_geom_find_element(g, PLUMBOB_GEOM_WEIGHTS, 0);
    uint32_t n = g->vertex_count, nf = g->index_count / 3u * 3u, v, k, uv_count = 0, a_uv[8];
    uint32_t a_pos, a_nrm = 0, a_tan = 0, a_j = 0, a_w = 0, a_idx, mesh, skin = 0, node, joints = 0;
    int skinned = asg && wts && g->bone_count > 0, ok;
    float *f = (float *)malloc(sizeof(float) * 4u * (n + 1u));
    uint16_t *j16 = (uint16_t *)malloc(sizeof(uint16_t) * 4u * (n + 1u));
    uint32_t *idx = (uint32_t *)malloc(sizeof(uint32_t) * (nf + 1u));
    uint32_t *joint_of_slot = (uint32_t *)calloc(g->bone_count + 1u, sizeof(uint32_t));
    int32_t *joint_bone = (int32_t *)calloc(g->bone_count + 1u, sizeof(int32_t));
    tool_buf *b;
    if (!f || !j16 || !idx || !joint_of_slot || !joint_bone || !pos || !n || !nf) {
        ok = f && j16 && idx && joint_of_slot && joint_bone;
        free(f); free(j16); free(idx); free(joint_of_slot); free(joint_bone);
        return ok ? 2 : 0;
    }
    for (v = 0; v < n; v++)
        for (k = 0; k < 3; k++) f[3 * v + k] = plumbob_geom_float(g, pos, v, k);
    a_pos = gltf_accessor(&s->w, f, n, GLTF_FLOAT, 3, GLTF_ARRAY_BUFFER, 1);
    if (nrm) {
        for (v = 0; v < n; v++) {
            plumbob_vec3 p = {plumbob_geom_float(g, nrm, v, 0), plumbob_geom_float(g, nrm, v, 1),
                              plumbob_geom_float(g, nrm, v, 2)};
            put3(f + 3 * v, unit(p));
        }
        a_nrm = gltf_accessor(&s->w, f, n, GLTF_FLOAT, 3, GLTF_ARRAY_BUFFER, 0);
    }
    if (nrm && tan) { /* tangents need normals (glTF ignores them otherwise); GEOM keeps no handedness */
        for (v = 0; v < n; v++) {
            plumbob_vec3 t = {plumbob_geom_float(g, tan, v, 0), plumbob_geom_float(g, tan, v, 1),
                              plumbob_geom_float(g, tan, v, 2)};
            put3(f + 4 * v, unit(t));
            f[4 * v + 3] = 1.0f;
        }
        a_tan = gltf_accessor(&s->w, f, n, GLTF_FLOAT, 4, GLTF_ARRAY_BUFFER, 0);
    }
    for (uv_count = 0; uv_count < 8; uv_count++) {
        const plumbob_geom_element *uv = plumbob_geom_find_element(g, PLUMBOB_GEOM_UV, uv_count);
        if (!uv) break;
        for (v = 0; v < n; v++) {
            f[2 * v] = plumbob_geom_float(g, uv, v, 0);
            f[2 * v + 1] = plumbob_geom_float(g, uv, v, 1);
        }
        a_uv[uv_count] = gltf_accessor(&s->w, f, n, GLTF_FLOAT, 2, GLTF_ARRAY_BUFFER, 0);
    }
    if (skinned) { /* the skin's joints: the bone list's bones, each once */
        for (k = 0; k < g->bone_count; k++) {
            int32_t bi = find_bone(s, g->bone_hashes[k]);
            uint32_t m;
            if (bi < 0) bi = 0; /* collect_geom_bones added every hash */
            for (m = 0; m < joints && joint_bone[m] != bi; m++) {}
            if (m == joints) joint_bone[joints++] = bi;
            joint_of_slot[k] = m;
        }
        for (v = 0; v < n; v++) geom_influences(g, asg, wts, joint_of_slot, v, j16 + 4 * v, f + 4 * v);
        a_j = gltf_accessor(&s->w, j16, n, GLTF_USHORT, 4, GLTF_ARRAY_BUFFER, 0);
        a_w = gltf_accessor(&s->w, f, n, GLTF_FLOAT, 4, GLTF_ARRAY_BUFFER, 0);
    }
    for (k = 0; k < nf; k++) idx[k] = plumbob_geom_index(g, k);
    a_idx = gltf_accessor(&s->w, idx, nf, GLTF_UINT, 1, GLTF_ELEMENT_ARRAY_BUFFER, 0);
    b = gltf_begin(&s->w, GLTF_MESHES, &mesh);
    tb_str(b, "\"name\": ");
    tb_json_string(b, name, strlen(name));
    tb_printf(b, ", \"primitives\": [{\"mode\": 4, \"indices\": %u, \"attributes\": {\"POSITION\": %u", (unsigned)a_idx,
              (unsigned)a_pos);
    if (nrm) tb_printf(b, ", \"NORMAL\": %u", (unsigned)a_nrm);
    if (nrm && tan) tb_printf(b, ", \"TANGENT\": %u", (unsigned)a_tan);
    for (k = 0; k < uv_count; k++) tb_printf(b, ", \"TEXCOORD_%u\": %u", (unsigned)k, (unsigned)a_uv[k]);
    if (skinned) tb_printf(b, ", \"JOINTS_0\": %u, \"WEIGHTS_0\": %u", (unsigned)a_j, (unsigned)a_w);
    tb_str(b, "}}]");
    gltf_end(&s->w, GLTF_MESHES);
    if (skinned) {
        float *ibm = (float *)calloc(16u * joints, sizeof(float));
        uint32_t j, r, c, t;
        if (!ibm) {
            free(f); free(j16); free(idx); free(joint_of_slot); free(joint_bone);
            return 0;
        }
        for (j = 0; j < joints; j++) {
            plumbob_mat34 m = affine_inverse(&rest[joint_bone[j]]);
            for (c = 0; c < 4; c++)
                for (r = 0; r < 3; r++) ibm[16 * j + 4 * c + r] = m.m[r][c];
            ibm[16 * j + 15] = 1.0f;
        }
        t = gltf_accessor(&s->w, ibm, joints, GLTF_FLOAT, 16, 0, 0);
        free(ibm);
        b = gltf_begin(&s->w, GLTF_SKINS, &skin);
        tb_printf(b, "\"inverseBindMatrices\": %u, \"joints\": [", (unsigned)t);
        for (j = 0; j < joints; j++) tb_printf(b, j ? ", %u" : "%u", (unsigned)s->bones[joint_bone[j]].node);
        tb_str(b, "]");
        gltf_end(&s->w, GLTF_SKINS);
    }
    b = gltf_begin(&s->w, GLTF_NODES, &node);
    tb_str(b, "\"name\": ");
    tb_json_string(b, name, strlen(name));
    tb_printf(b, ", \"mesh\": %u", (unsigned)mesh);
    if (skinned) tb_printf(b, ", \"skin\": %u", (unsigned)skin);
    gltf_end(&s->w, GLTF_NODES);
    gltf_scene_root(&s->w, node);
    s->stats->nodes++;
    s->stats->primitives++;
    s->stats->vertices += n;
    free(f); free(j16); free(idx); free(joint_of_slot); free(joint_bone);
    return 1;
}

static int write_geoms(scene *s) {
    plumbob_mat34 *rest = rest_models(s);
    uint32_t i;
    int ok = rest != NULL;
    for (i = 0; ok && i < s->src->geom_count; i++) ok = write_geom(s, i, rest) != 0;
    free(rest);
    return ok;
}

/* A last key at the clip's duration holding the value before it, when the
 * keys end earlier: every channel then ends where the clip does (a viewer
 * takes the animation's length from its last key time).  Room for one
 * more key is the caller's. */
static uint32_t hold_to_end(const plumbob_clip *c, float *times, float *values, uint32_t n, uint32_t comps) {
    float end = plumbob_clip_duration(c);
    if (!n || !(times[n - 1] < end)) return n;
    times[n] = end;
    memcpy(values + (size_t)comps * n, values + (size_t)comps * (n - 1u), sizeof(float) * comps);
    return n + 1u;
}

/* Key times and values of one track; keys on the same tick as the one
 * before are dropped (glTF inputs must increase strictly); then held to
 * the clip's end.  times and values have room for key_count + 1 keys. */
static uint32_t track_keys(const plumbob_clip *c, const plumbob_clip_track *t, float *times, float *values) {
    uint32_t k, n = 0, comps = t->target == PLUMBOB_CLIP_TARGET_ROTATION ? 4u : t->target == PLUMBOB_CLIP_TARGET_MORPH ? 1u : 3u;
    int last = -1;
    if (!t->key_count) { /* keyless: constant */
        float v[4];
        (void)plumbob_clip_sample_track(c, (uint32_t)(t - c->tracks), 0.0f, v); /* t is c's: never fails */
        times[0] = 0.0f;
        memcpy(values, v, sizeof(float) * comps);
        return hold_to_end(c, times, values, 1u, comps);
    }
    for (k = 0; k < t->key_count; k++) {
        float v[4] = {0, 0, 0, 1};
        uint16_t tick = 0;
        if (plumbob_clip_key_value(c, (uint32_t)(t - c->tracks), k, &tick, v) != PLUMBOB_OK) break;
        if ((int)tick == last) continue;
        last = tick;
        times[n] = (float)tick * c->frame_duration;
        if (comps == 4) {
            plumbob_quat q;
            q.x = v[0]; q.y = v[1]; q.z = v[2]; q.w = v[3];
            q = plumbob_quat_normalize(q);
            if (n && q.x * values[4 * n - 4] + q.y * values[4 * n - 3] + q.z * values[4 * n - 2] + q.w * values[4 * n - 1] < 0.0f) {
                q.x = -q.x; q.y = -q.y; q.z = -q.z; q.w = -q.w; /* stay in one hemisphere */
            }
            values[4 * n] = q.x; values[4 * n + 1] = q.y; values[4 * n + 2] = q.z; values[4 * n + 3] = q.w;
        } else {
            memcpy(values + comps * n, v, sizeof(float) * comps);
        }
        n++;
    }
    return hold_to_end(c, times, values, n, comps);
}

static void add_channel(scene *s, tool_buf *samplers, tool_buf *channels, uint32_t input, uint32_t output,
                        uint32_t node, const char *path) {
    uint32_t i = s->stats->channels++;
    tb_printf(samplers, "%s{\"input\": %u, \"output\": %u, \"interpolation\": \"LINEAR\"}", i ? ", " : "",
              (unsigned)input, (unsigned)output);
    tb_printf(channels, "%s{\"sampler\": %u, \"target\": {\"node\": %u, \"path\": \"%s\"}}", i ? ", " : "",
              (unsigned)i, (unsigned)node, path);
}

/* Morph tracks become one weights channel on the mesh node, sampled at
 * every tick where any of them has a key. */
static int write_weights(scene *s, tool_buf *samplers, tool_buf *channels, unsigned char *carried) {
    const plumbob_clip *c = s->src->clip;
    const plumbob_gmdc *g = s->src->mesh;
    int32_t *track_of = (int32_t *)malloc(sizeof(int32_t) * (s->target_count + 1u));
    unsigned char *tick_used = (unsigned char *)calloc((size_t)c->tick_count + 1u, 1);
    uint32_t t, k, n = 0, any = 0;
    float *times, *w;
    if (!track_of || !tick_used) { free(track_of); free(tick_used); return 0; }
    for (t = 0; t < s->target_count; t++) {
        const plumbob_string *nm = &g->morph_names[2 * s->target_pair[t] + 1];
        char name[256];
        uint32_t h;
        snprintf(name, sizeof name, "%.*s", (int)nm->len, nm->ptr);
        h = (uint32_t)plumbob_fnv64_str(name);
        track_of[t] = -1;
        for (k = 0; k < c->track_count; k++)
            if (c->tracks[k].target == PLUMBOB_CLIP_TARGET_MORPH && c->tracks[k].hash == h) {
                uint32_t key;
                track_of[t] = (int32_t)k;
                carried[k] = 1;
                any = 1;
                for (key = 0; key < c->tracks[k].key_count; key++) {
                    float v[4];
                    uint16_t tick = 0;
                    if (plumbob_clip_key_value(c, k, key, &tick, v) == PLUMBOB_OK && tick <= c->tick_count)
                        tick_used[tick] = 1;
                }
                if (!c->tracks[k].key_count) tick_used[0] = 1;
                break;
            }
    }
    if (!any) { free(track_of); free(tick_used); return 1; }
    tick_used[c->tick_count] = 1; /* the weights end where the clip does */
    for (k = 0; k <= c->tick_count; k++) n += tick_used[k];
    times = (float *)malloc(sizeof(float) * (n + 1u));
    w = (float *)malloc(sizeof(float) * ((size_t)n * s->target_count + 1u));
    if (!times || !w) { free(track_of); free(tick_used); free(times); free(w); return 0; }
    n = 0;
    for (k = 0; k <= c->tick_count; k++) {
        if (!tick_used[k]) continue;
        times[n] = (float)k * c->frame_duration;
        for (t = 0; t < s->target_count; t++) {
            float v[4] = {0, 0, 0, 0};
            if (track_of[t] >= 0) (void)plumbob_clip_sample_track(c, (uint32_t)track_of[t], times[n], v); /* v stays 0 on error */
            w[(size_t)n * s->target_count + t] = v[0];
        }
        n++;
    }
    {
        uint32_t in = gltf_accessor(&s->w, times, n, GLTF_FLOAT, 1, 0, 1);
        uint32_t out = gltf_accessor(&s->w, w, n * s->target_count, GLTF_FLOAT, 1, 0, 0);
        add_channel(s, samplers, channels, in, out, (uint32_t)s->mesh_node, "weights");
    }
    free(track_of); free(tick_used); free(times); free(w);
    return 1;
}

const char *gltf_clip_event_kind(uint16_t type) {
    switch (type) {
    case PLUMBOB_CLIP_EVENT_ATTACH: return "attach";
    case PLUMBOB_CLIP_EVENT_UNPARENT: return "unparent";
    case PLUMBOB_CLIP_EVENT_SOUND: return "sound";
    case PLUMBOB_CLIP_EVENT_SCRIPT: return "script";
    case PLUMBOB_CLIP_EVENT_EFFECT: return "effect";
    case PLUMBOB_CLIP_EVENT_VISIBILITY: return "visibility";
    case PLUMBOB_CLIP_EVENT_DESTROY_PROP: return "destroy_prop";
    case PLUMBOB_CLIP_EVENT_STOP_EFFECT: return "stop_effect";
    }
    return "unknown";
}

/* `, "KEY": "name"` when the dictionary knows the hash. */
static void json_known(tool_buf *b, const char *key, const tool_dict *names, uint32_t hash) {
    const char *nm = tool_dict_bone(names, hash);
    if (!nm) return;
    tb_printf(b, ", \"%s\": ", key);
    tb_json_string(b, nm, strlen(nm));
}

void gltf_clip_event_json(tool_buf *b, const plumbob_clip_event *e, const tool_dict *names) {
    tb_printf(b, "{\"type\": %u, \"kind\": \"%s\", \"id\": %u, \"time\": ", (unsigned)e->type,
              gltf_clip_event_kind(e->type), (unsigned)e->id);
    tb_json_float(b, e->time);
    tb_str(b, ", \"name\": ");
    tb_json_string(b, e->name.ptr, e->name.len);
    switch (e->type) {
    case PLUMBOB_CLIP_EVENT_ATTACH:
        tb_printf(b, ", \"prop\": \"0x%08X\", \"object\": \"0x%08X\", \"slot\": \"0x%08X\"",
                  (unsigned)e->hash[0], (unsigned)e->hash[1], (unsigned)e->hash[2]);
        json_known(b, "slot_name", names, e->hash[2]);
        break;
    case PLUMBOB_CLIP_EVENT_UNPARENT:
        tb_printf(b, ", \"object\": \"0x%08X\"", (unsigned)e->hash[0]);
        break;
    case PLUMBOB_CLIP_EVENT_DESTROY_PROP:
        tb_printf(b, ", \"prop\": \"0x%08X\"", (unsigned)e->hash[0]);
        break;
    case PLUMBOB_CLIP_EVENT_SOUND:
        tb_str(b, ", \"sound\": ");
        tb_json_string(b, e->sound.ptr, e->sound.len);
        break;
    case PLUMBOB_CLIP_EVENT_EFFECT:
        tb_printf(b, ", \"effect\": \"0x%08X\", \"actor\": \"0x%08X\", \"bone\": \"0x%08X\"",
                  (unsigned)e->hash[2], (unsigned)e->hash[3], (unsigned)e->hash[4]);
        json_known(b, "bone_name", names, e->hash[4]);
        break;
    case PLUMBOB_CLIP_EVENT_VISIBILITY:
        tb_str(b, ", \"visibility\": ");
        tb_json_float(b, e->visibility);
        break;
    case PLUMBOB_CLIP_EVENT_STOP_EFFECT:
        tb_printf(b, ", \"effect\": \"0x%08X\"", (unsigned)e->hash[0]);
        break;
    default:
        break;
    }
    /* the rest of the record, so that an event read back is the same bytes */
    tb_printf(b, ", \"marker\": %u, \"unknown\": [", (unsigned)e->marker);
    tb_json_float(b, e->unknown[0]);
    tb_str(b, ", ");
    tb_json_float(b, e->unknown[1]);
    tb_printf(b, "], \"unknown3\": %u", (unsigned)e->unknown3);
    if (e->payload) {
        uint32_t i;
        tb_str(b, ", \"payload\": \"");
        for (i = 0; i < e->payload_size; i++) tb_printf(b, "%02x", (unsigned)e->payload[i]);
        tb_str(b, "\"");
    }
    tb_str(b, "}");
}

static void json_floats_tb(tool_buf *b, const float *v, uint32_t n) {
    uint32_t i;
    tb_str(b, "[");
    for (i = 0; i < n; i++) {
        if (i) tb_str(b, ", ");
        tb_json_float(b, v[i]);
    }
    tb_str(b, "]");
}

/* `, "KEY": "hex"` of n bytes. */
static void json_hex(tool_buf *b, const char *key, const unsigned char *p, size_t n) {
    size_t i;
    tb_printf(b, ", \"%s\": \"", key);
    for (i = 0; i < n; i++) tb_printf(b, "%02x", (unsigned)p[i]);
    tb_str(b, "\"");
}

/* Is a slot's raw name field (NULL: none) what the writer makes of the
 * name: the name, a NUL, '#' to the end? */
static int slot_field_usual(const unsigned char *raw, plumbob_string s) {
    size_t i;
    if (!raw) return 1;
    if (s.len >= GLTF_CLIP_SLOT_FIELD || memcmp(raw, s.ptr, s.len) != 0 || raw[s.len] != 0) return 0;
    for (i = s.len + 1u; i < GLTF_CLIP_SLOT_FIELD; i++)
        if (raw[i] != '#') return 0;
    return 1;
}

/* What glTF proper cannot hold, as {"plumbob": {...}} for an extras
 * member: the clip's duration, every event (as clip dump --json shows
 * them), the morph tracks no weights channel plays (keys in seconds, held
 * to the end like the channels) and the IK slot table. */
static void clip_extras(scene *s, tool_buf *b, const unsigned char *carried, float *times, float *values) {
    const plumbob_clip *c = s->src->clip;
    uint32_t i, k, n, first = 1;
    tb_str(b, "{\"plumbob\": {\"duration\": ");
    tb_json_float(b, plumbob_clip_duration(c));
    tb_str(b, ", \"events\": [");
    for (i = 0; i < c->events_decoded; i++) {
        if (i) tb_str(b, ", ");
        gltf_clip_event_json(b, &c->events[i], s->src->names);
    }
    tb_printf(b, "], \"eventsComplete\": %s, \"morphTracks\": [", c->events_complete ? "true" : "false");
    for (i = 0; i < c->track_count; i++) {
        const plumbob_clip_track *t = &c->tracks[i];
        const char *nm = tool_dict_track(s->src->names, t->hash, 1);
        if (t->target != PLUMBOB_CLIP_TARGET_MORPH || carried[i]) continue;
        tb_printf(b, "%s{\"hash\": \"0x%08X\"", first ? "" : ", ", (unsigned)t->hash);
        first = 0;
        if (nm) {
            tb_str(b, ", \"name\": ");
            tb_json_string(b, nm, strlen(nm));
        }
        n = track_keys(c, t, times, values);
        tb_str(b, ", \"times\": ");
        json_floats_tb(b, times, n);
        tb_str(b, ", \"values\": ");
        json_floats_tb(b, values, n);
        tb_str(b, "}");
        s->stats->extras_morph_tracks++;
    }
    tb_printf(b, "], \"slotTable\": %s, \"slotChains\": %u, \"slots\": [", c->slot_pos || c->slot_count ? "true" : "false",
              (unsigned)c->chain_count);
    for (k = 0; k < c->slot_count; k++) {
        const plumbob_clip_slot *sl = &c->slots[k];
        tb_printf(b, "%s{\"chain\": %u, \"index\": %u, \"actor\": ", k ? ", " : "", (unsigned)sl->chain,
                  (unsigned)sl->index);
        tb_json_string(b, sl->actor.ptr, sl->actor.len);
        tb_str(b, ", \"slot\": ");
        tb_json_string(b, sl->slot.ptr, sl->slot.len);
        /* the 512-byte fields as they are, when not the name + NUL + '#' padding the writer makes */
        if (!slot_field_usual(sl->actor_raw, sl->actor)) json_hex(b, "actorRaw", sl->actor_raw, GLTF_CLIP_SLOT_FIELD);
        if (!slot_field_usual(sl->slot_raw, sl->slot)) json_hex(b, "slotRaw", sl->slot_raw, GLTF_CLIP_SLOT_FIELD);
        tb_str(b, "}");
    }
    /* the rest of the CLIP beyond its tracks, so that an import gives it back */
    tb_str(b, "], \"clip\": {\"name\": ");
    tb_json_string(b, c->name.ptr, c->name.len);
    tb_str(b, ", \"source\": ");
    tb_json_string(b, c->source.ptr, c->source.len);
    tb_str(b, ", \"actor\": ");
    if (c->actor.ptr) tb_json_string(b, c->actor.ptr, c->actor.len); else tb_str(b, "null");
    tb_printf(b, ", \"flags\": %u, \"linkedOffset\": %u, \"headerUnknown\": [%u, %u], \"tickPad\": %u, "
                 "\"eventVersion\": %u, \"eventList\": %s",
              (unsigned)c->flags, (unsigned)c->linked_offset, (unsigned)c->header_unknown[0],
              (unsigned)c->header_unknown[1], (unsigned)c->tick_pad, (unsigned)c->event_version,
              c->event_pos || c->events_decoded ? "true" : "false");
    if (c->end_block) json_hex(b, "endBlock", c->end_block, 16);
    tb_str(b, "}}}");
    s->stats->extras_events = c->events_decoded;
    s->stats->extras_slots = c->slot_count;
    s->stats->events_lost = c->events_complete || c->event_count < c->events_decoded ? 0u
                                                                                      : c->event_count - c->events_decoded;
}

/* Names the first few left-out tracks in the stats. */
static void note_dropped(scene *s, const plumbob_clip_track *t) {
    const char *nm = tool_dict_track(s->src->names, t->hash, t->target == PLUMBOB_CLIP_TARGET_MORPH);
    gltf_export_stats *st = s->stats;
    char hex[16];
    st->dropped_tracks++;
    snprintf(hex, sizeof hex, "0x%08X", (unsigned)t->hash);
    tool_namelist_add(st->dropped_names, sizeof st->dropped_names, nm ? nm : hex, 3);
}

static int write_animation(scene *s) {
    const plumbob_clip *c = s->src->clip;
    tool_buf samplers = {0}, channels = {0}, extras = {0};
    unsigned char *done = (unsigned char *)calloc((size_t)s->bone_count * 3u + 1u, 1);
    unsigned char *carried = (unsigned char *)calloc((size_t)c->track_count + 1u, 1);
    uint32_t i, max_keys = 1;
    float *times, *values;
    int ok = 1;
    for (i = 0; i < c->track_count; i++)
        if (c->tracks[i].key_count > max_keys) max_keys = c->tracks[i].key_count;
    max_keys++; /* the key that holds to the clip's end */
    times = (float *)malloc(sizeof(float) * max_keys);
    values = (float *)malloc(sizeof(float) * 4u * max_keys);
    if (!done || !carried || !times || !values) ok = 0;
    for (i = 0; ok && i < c->track_count; i++) {
        const plumbob_clip_track *t = &c->tracks[i];
        int path = t->target == PLUMBOB_CLIP_TARGET_ROTATION ? 0 : t->target == PLUMBOB_CLIP_TARGET_TRANSLATION ? 1
                 : t->target == PLUMBOB_CLIP_TARGET_SCALE ? 2 : -1;
        static const char *const paths[3] = {"rotation", "translation", "scale"};
        int32_t b = find_bone(s, t->hash);
        uint32_t n, in, out;
        if (t->target == PLUMBOB_CLIP_TARGET_MORPH) continue; /* weights or extras */
        if (path < 0 || b < 0 || done[3 * b + path]) { /* one channel per node and path */
            note_dropped(s, t);
            s->stats->dropped_unknown_target += path < 0;
            continue;
        }
        done[3 * b + path] = 1;
        carried[i] = 1;
        n = track_keys(c, t, times, values);
        in = gltf_accessor(&s->w, times, n, GLTF_FLOAT, 1, 0, 1);
        out = gltf_accessor(&s->w, values, n, GLTF_FLOAT, path ? 3u : 4u, 0, 0);
        add_channel(s, &samplers, &channels, in, out, s->bones[b].node, paths[path]);
    }
    if (ok && s->mesh_node >= 0 && s->target_count) ok = write_weights(s, &samplers, &channels, carried);
    if (ok) clip_extras(s, &extras, carried, times, values);
    if (ok && s->stats->channels) {
        tool_buf *b = gltf_begin(&s->w, GLTF_ANIMATIONS, NULL);
        tb_str(b, "\"name\": ");
        tb_json_string(b, c->name.ptr, c->name.len);
        tb_str(b, ", \"samplers\": [");
        tb_put(b, samplers.data, samplers.size);
        tb_str(b, "], \"channels\": [");
        tb_put(b, channels.data, channels.size);
        tb_str(b, "], \"extras\": ");
        tb_put(b, extras.data, extras.size);
        gltf_end(&s->w, GLTF_ANIMATIONS);
    } else if (ok) { /* no channel, so no animation (glTF wants one): the scene holds the extras */
        tb_put(&s->w.scene_extras, extras.data, extras.size);
        s->stats->extras_on_scene = 1;
    }
    ok = ok && !samplers.failed && !channels.failed && !extras.failed;
    tb_free(&samplers);
    tb_free(&channels);
    tb_free(&extras);
    free(done); free(carried); free(times); free(values);
    return ok;
}

/* A Sims 2 ANIM on the CRES skeleton: the core's binding says which
 * channel drives what (plumbob_anim_bind), its sampler gives the pose 30
 * times a second (and at the last tick); each bound bone channel becomes a
 * glTF channel, converted to Y-up, and the morph channels of the mesh's
 * targets one weights channel. */
static int write_sims2_animation(scene *s) {
    const plumbob_anim *a = s->src->anim;
    const plumbob_cres_skeleton *sk = s->src->skeleton;
    const plumbob_gmdc *g = s->mesh_node >= 0 ? s->src->mesh : NULL;
    tool_buf samplers = {0}, channels = {0};
    uint32_t frames = (uint32_t)(a->duration * 30u / 1000u) + 2u, f, ch, t, n_times = 0, nb = sk->skeleton.bone_count;
    uint32_t nm = g ? g->morph_count : 0u;
    unsigned char *carried = (unsigned char *)calloc((size_t)a->channel_count + 1u, 1);
    float *times = (float *)malloc(sizeof(float) * frames);
    plumbob_bone_pose *poses = (plumbob_bone_pose *)calloc((size_t)nb * frames + 1u, sizeof *poses);
    float *weights = (float *)calloc((size_t)nm * frames + 1u, sizeof(float));
    float *values = (float *)malloc(sizeof(float) * 4u * frames);
    int32_t *chan = (int32_t *)malloc(sizeof(int32_t) * (s->target_count + 1u));
    size_t need = plumbob_anim_bind_size(a) + PLUMBOB_ANIM_SAMPLER_SIZE(a->channel_count, a->component_count);
    unsigned char *mem = (unsigned char *)malloc(need);
    plumbob_arena arena;
    plumbob_anim_binding bind;
    plumbob_anim_sampler smp;
    uint32_t in = UINT32_MAX, any = 0;
    int ok = carried && times && poses && weights && values && chan && mem;
    for (f = 0; ok && f < frames; f++) { /* ticks 0, 33.3, ... then the duration */
        float ticks = (float)f * (1000.0f / 30.0f);
        if (ticks >= (float)a->duration) ticks = (float)a->duration;
        times[n_times++] = ticks / 1000.0f;
        if (ticks >= (float)a->duration) break;
    }
    if (ok && n_times < 2) times[n_times++] = 1.0f / 30.0f; /* glTF needs some time to pass; hold */
    plumbob_arena_init(&arena, mem, mem ? need : 0);
    ok = ok && plumbob_anim_bind(a, sk, g, &arena, &bind) == PLUMBOB_OK &&
         plumbob_anim_sampler_init(&bind, &arena, &smp) == PLUMBOB_OK;
    for (f = 0; ok && f < n_times; f++)
        ok = plumbob_anim_sampler_sample(&smp, times[f] * 1000.0f, poses + (size_t)f * nb, nb,
                                         weights + (size_t)f * nm, nm) == PLUMBOB_OK;
    for (ch = 0; ok && ch < a->channel_count; ch++) {
        uint32_t b = (uint32_t)bind.slot[ch], out;
        int rot = PLUMBOB_ANIM_ATTRIBUTE(a->channels[ch].flags) == PLUMBOB_ANIM_ATTR_ROTATION;
        if (bind.status[ch] != PLUMBOB_ANIM_CHANNEL_BONE) continue;
        carried[ch] = 1;
        for (f = 0; f < n_times; f++) {
            const plumbob_bone_pose *p = &poses[(size_t)f * nb + b];
            if (rot) {
                plumbob_quat q = gltf_quat_z_up_to_y_up(p->rotation);
                if (f && q.x * values[4 * f - 4] + q.y * values[4 * f - 3] + q.z * values[4 * f - 2] +
                             q.w * values[4 * f - 1] < 0.0f) {
                    q.x = -q.x; q.y = -q.y; q.z = -q.z; q.w = -q.w; /* stay in one hemisphere */
                }
                values[4 * f] = q.x; values[4 * f + 1] = q.y; values[4 * f + 2] = q.z; values[4 * f + 3] = q.w;
            } else {
                put3(values + 3 * f, gltf_z_up_to_y_up(p->translation));
            }
        }
        if (in == UINT32_MAX) in = gltf_accessor(&s->w, times, n_times, GLTF_FLOAT, 1, 0, 1);
        out = gltf_accessor(&s->w, values, n_times, GLTF_FLOAT, rot ? 4u : 3u, 0, 0);
        add_channel(s, &samplers, &channels, in, out, s->bones[b].node, rot ? "rotation" : "translation");
    }
    for (t = 0; ok && t < s->target_count; t++) { /* the morph channel of each target's pair */
        chan[t] = -1;
        for (ch = 0; ch < a->channel_count && chan[t] < 0; ch++)
            if (bind.status[ch] == PLUMBOB_ANIM_CHANNEL_MORPH && (uint32_t)bind.slot[ch] == s->target_pair[t])
                chan[t] = (int32_t)ch;
        if (chan[t] >= 0) carried[chan[t]] = 1, any = 1;
    }
    if (ok && any) { /* morph channels: the mesh's weights */
        float *w = (float *)malloc(sizeof(float) * ((size_t)n_times * s->target_count + 1u));
        ok = w != NULL;
        for (f = 0; ok && f < n_times; f++)
            for (t = 0; t < s->target_count; t++)
                w[(size_t)f * s->target_count + t] = chan[t] >= 0 ? weights[(size_t)f * nm + s->target_pair[t]] : 0.0f;
        if (ok) {
            if (in == UINT32_MAX) in = gltf_accessor(&s->w, times, n_times, GLTF_FLOAT, 1, 0, 1);
            add_channel(s, &samplers, &channels, in,
                        gltf_accessor(&s->w, w, n_times * s->target_count, GLTF_FLOAT, 1, 0, 0),
                        (uint32_t)s->mesh_node, "weights");
        }
        free(w);
    }
    if (ok && s->stats->channels) {
        tool_buf *b = gltf_begin(&s->w, GLTF_ANIMATIONS, NULL);
        tb_str(b, "\"name\": ");
        tb_json_string(b, a->head.resource_name.ptr, a->head.resource_name.len);
        tb_str(b, ", \"samplers\": [");
        tb_put(b, samplers.data, samplers.size);
        tb_str(b, "], \"channels\": [");
        tb_put(b, channels.data, channels.size);
        tb_str(b, "]");
        gltf_end(&s->w, GLTF_ANIMATIONS);
    }
    for (ch = 0; ok && ch < a->channel_count; ch++) { /* what the file does not play, for the warning */
        gltf_export_stats *st = s->stats;
        char nmb[64];
        if (carried[ch]) continue;
        st->anim_unplayed++;
        snprintf(nmb, sizeof nmb, "%.*s", (int)a->channels[ch].name.len, a->channels[ch].name.ptr);
        tool_namelist_add(st->dropped_names, sizeof st->dropped_names, nmb, 3);
    }
    s->stats->anim_events = a->event_count;
    ok = ok && !samplers.failed && !channels.failed;
    tb_free(&samplers);
    tb_free(&channels);
    free(carried); free(times); free(poses); free(weights); free(values); free(chan); free(mem);
    return ok;
}

int gltf_export_build(const gltf_export_src *src, int binary, tool_buf *out, gltf_export_stats *stats) {
    scene s;
    int ok;
    memset(&s, 0, sizeof s);
    memset(stats, 0, sizeof *stats);
    s.src = src;
    s.stats = stats;
    s.mesh_node = -1;
    ok = collect_bones(&s);
    ok = ok && write_bone_nodes(&s);
    if (ok && src->mesh) ok = write_mesh(&s);
    if (ok && src->geom_count) ok = write_geoms(&s);
    if (ok && src->clip) ok = write_animation(&s);
    if (ok && src->anim && src->skeleton) ok = write_sims2_animation(&s);
    ok = ok && gltf_finish(&s.w, binary, "plumbob " PLUMBOB_VERSION_STRING, out);
    gltf_free(&s.w);
    free(s.bones);
    free(s.joint_bone);
    free(s.target_pair);
    return ok;
}
