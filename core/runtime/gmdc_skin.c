/* Sims 2 GMDC skinning: palette from joint transforms; the preparer that
 * describes a group as a plumbob_skin_mesh (its slot table, morphs and
 * sparse elements staged) for skin.c's run of the ports/kernels.h kernel;
 * also the rigid skinning of the per-joint subset (bounding) meshes. */
#include "plumbob/runtime.h"
#include "pb_bytes.h"
#include "pb_math.h"
#include "kernels.h"
#include "pb_skin.h"

plumbob_result plumbob_gmdc_palette(const plumbob_gmdc *g, const plumbob_mat34 *joint_model,
                                    plumbob_mat34 *palette, uint32_t palette_count) {
    uint32_t j;
    if (!g || !palette || (g->joint_count && !g->joints)) return PLUMBOB_ERR_INVALID_ARGUMENT;
    if (palette_count < g->joint_count) return PLUMBOB_ERR_OUTPUT_TOO_SMALL;
    for (j = 0; j < g->joint_count; j++) {
        plumbob_quat q;
        plumbob_vec3 t;
        plumbob_mat34 inv_bind;
        if (!joint_model) {
            palette[j] = plumbob_mat34_identity();
            continue;
        }
        plumbob_gmdc_joint(g, j, &q, &t);
        inv_bind = plumbob_mat34_from_rt(plumbob_quat_normalize(q), t);
        palette[j] = plumbob_mat34_mul(&joint_model[j], &inv_bind);
    }
    return PLUMBOB_OK;
}

plumbob_result plumbob_gmdc_palette_mapped(const plumbob_gmdc *g, const plumbob_mat34 *model, uint32_t model_count,
                                           const int32_t *bone_of_joint, uint32_t joint_count,
                                           plumbob_mat34 *palette, uint32_t palette_count) {
    uint32_t j;
    if (!g || !palette || (g->joint_count && !g->joints) || (!bone_of_joint && joint_count))
        return PLUMBOB_ERR_INVALID_ARGUMENT;
    if (palette_count < g->joint_count) return PLUMBOB_ERR_OUTPUT_TOO_SMALL;
    /* every mapped bone checked before anything is written */
    for (j = 0; model && j < g->joint_count && j < joint_count; j++)
        if (bone_of_joint[j] >= 0 && (uint32_t)bone_of_joint[j] >= model_count) return PLUMBOB_ERR_BAD_INDEX;
    for (j = 0; j < g->joint_count; j++) {
        plumbob_quat q;
        plumbob_vec3 t;
        plumbob_mat34 inv_bind;
        int32_t b = j < joint_count ? bone_of_joint[j] : -1;
        if (!model || b < 0) { /* at rest, or a joint no bone claims: it keeps its bind pose */
            palette[j] = plumbob_mat34_identity();
            continue;
        }
        plumbob_gmdc_joint(g, j, &q, &t);
        inv_bind = plumbob_mat34_from_rt(plumbob_quat_normalize(q), t);
        palette[j] = plumbob_mat34_mul(&model[b], &inv_bind);
    }
    return PLUMBOB_OK;
}


typedef struct skin_inputs {
    const plumbob_gmdc *g;
    const plumbob_gmdc_element *pos, *nrm, *map, *mvd[4], *mnd[4];
    const float *weights;
    uint32_t morph_count;
} skin_inputs;

/* Vertex v's item of e (item_size bytes), or NULL when e holds none. */
static const unsigned char *item_at(const plumbob_gmdc *g, const plumbob_gmdc_element *e, uint32_t v,
                                    uint32_t item_size) {
    uint32_t k = plumbob_gmdc_item(g, e, v);
    return k == PLUMBOB_GMDC_NO_ITEM ? NULL : e->data + (size_t)k * item_size;
}

/* Positions and normals of vertices v0 .. v0+n-1 with morph deltas added,
 * written back as little-endian floats so the kernel reads one layout.
 * Every element is read through plumbob_gmdc_item, so sparse ones work;
 * a missing item reads as the defaults plumbob.h lists. */
static void stage_block(const skin_inputs *in, uint32_t v0, uint32_t n, unsigned char *pos_out,
                        unsigned char *nrm_out) {
    uint32_t i, k, c;
    for (i = 0; i < n; i++) {
        uint32_t v = v0 + i;
        float p[3] = {0.0f, 0.0f, 0.0f}, m[3] = {0.0f, 0.0f, 1.0f}; /* a mesh without normals faces up */
        const unsigned char *src = item_at(in->g, in->pos, v, 12u);
        if (src)
            for (c = 0; c < 3; c++) p[c] = pb_f32le(src + 4u * c);
        src = in->nrm ? item_at(in->g, in->nrm, v, 12u) : NULL;
        if (src)
            for (c = 0; c < 3; c++) m[c] = pb_f32le(src + 4u * c);
        src = in->map ? item_at(in->g, in->map, v, 4u) : NULL;
        if (src) {
            uint32_t ids = pb_le32(src);
            for (k = 0; k < 4; k++) {
                uint32_t id = (ids >> (8u * k)) & 0xFFu;
                const unsigned char *d;
                float w;
                if (!id || id >= in->morph_count) continue;
                w = in->weights[id];
                if (w == 0.0f) continue;
                d = in->mvd[k] ? item_at(in->g, in->mvd[k], v, 12u) : NULL;
                if (d)
                    for (c = 0; c < 3; c++) p[c] += w * pb_f32le(d + 4u * c);
                d = in->mnd[k] && in->nrm ? item_at(in->g, in->mnd[k], v, 12u) : NULL;
                if (d)
                    for (c = 0; c < 3; c++) m[c] += w * pb_f32le(d + 4u * c);
            }
        }
        for (c = 0; c < 3; c++) {
            pb_put_f32le(pos_out + 12u * i + 4u * c, p[c]);
            pb_put_f32le(nrm_out + 12u * i + 4u * c, m[c]);
        }
    }
}

/* Bone assignments and weights of a block from sparse elements: a vertex
 * without an assignment item has no influence (0xFFFFFFFF), one without a
 * weight item weighs 0. */
static void stage_bones(const plumbob_gmdc *g, const plumbob_gmdc_element *ba, const plumbob_gmdc_element *bw,
                        uint32_t weight_count, uint32_t v0, uint32_t n, unsigned char *assign_out,
                        unsigned char *weight_out) {
    uint32_t i, c;
    for (i = 0; i < n; i++) {
        const unsigned char *a = item_at(g, ba, v0 + i, 4u);
        const unsigned char *w = bw ? item_at(g, bw, v0 + i, 4u * weight_count) : NULL;
        for (c = 0; c < 4; c++) assign_out[4u * i + c] = a ? a[c] : 0xFFu;
        for (c = 0; c < 4u * weight_count; c++) weight_out[4u * weight_count * i + c] = w ? w[c] : 0u;
    }
}

/* The GMDC preparer: the group's elements as a plumbob_skin_mesh (its
 * bone list as the slot map), run by plumbob_skin's inside; morphed,
 * made-up or sparse vertices are staged in blocks, each run as a packed
 * mesh of its own. */
plumbob_result plumbob_gmdc_skin(const plumbob_gmdc_skin_job *job) {
    const plumbob_gmdc *g;
    const plumbob_gmdc_group *gr;
    const plumbob_gmdc_element *ba, *bw;
    skin_inputs in;
    plumbob_skin_mesh mesh;
    pb_skin_work w;
    uint32_t n, k, slots, first, end;
    int skinned, sparse_bones, sparse;
    if (!job || !job->gmdc || !job->positions || !job->work || job->position_stride < 3 ||
        (job->normals && job->normal_stride < 3) ||
        (job->flags & ~(PLUMBOB_SKIN_REFERENCE | PLUMBOB_SKIN_UNNORMALIZED)))
        return PLUMBOB_ERR_INVALID_ARGUMENT;
    g = job->gmdc;
    if (job->group >= g->group_count) return PLUMBOB_ERR_INVALID_ARGUMENT;
    gr = &g->groups[job->group];
    n = g->linkages[gr->link].vertex_count;
    first = job->first_vertex;
    if (first > n || job->vertex_count > n - first) return PLUMBOB_ERR_INVALID_ARGUMENT;
    end = job->vertex_count ? first + job->vertex_count : n;
    if (gr->primitive != PLUMBOB_GMDC_PRIMITIVE_TRIANGLES) return PLUMBOB_ERR_UNSUPPORTED;
    if (job->morph_weights && job->morph_weight_count < g->morph_count) return PLUMBOB_ERR_INVALID_ARGUMENT;
    if (job->position_count < end || (job->normals && job->normal_count < end)) return PLUMBOB_ERR_OUTPUT_TOO_SMALL;
    if (first == end) return PLUMBOB_OK; /* nothing to skin: an empty group needs no Vertices element */
    in.g = g;
    in.pos = plumbob_gmdc_find_element(g, gr->link, PLUMBOB_GMDC_VERTICES, 0);
    if (!in.pos || in.pos->format != 2) return PLUMBOB_ERR_BAD_DATA;
    /* normals are read and blended only when the caller wants them */
    in.nrm = job->normals ? plumbob_gmdc_find_element(g, gr->link, PLUMBOB_GMDC_NORMALS, 0) : NULL;
    if (in.nrm && in.nrm->format != 2) in.nrm = NULL;
    ba = plumbob_gmdc_find_element(g, gr->link, PLUMBOB_GMDC_BONE_ASSIGNMENTS, 0);
    bw = plumbob_gmdc_find_element(g, gr->link, PLUMBOB_GMDC_BONE_WEIGHTS, 0);
    if (ba && !job->palette && g->joint_count) return PLUMBOB_ERR_INVALID_ARGUMENT;
    if (ba && g->joint_count && job->palette_count < g->joint_count) return PLUMBOB_ERR_INVALID_ARGUMENT;
    if (bw && bw->format > 2) bw = NULL;
    in.map = job->morph_weights ? plumbob_gmdc_find_element(g, gr->link, PLUMBOB_GMDC_MORPH_VERTEX_MAP, 0) : NULL;
    in.weights = job->morph_weights;
    in.morph_count = g->morph_count;
    for (k = 0; k < 4; k++) {
        in.mvd[k] = in.map ? plumbob_gmdc_find_element(g, gr->link, PLUMBOB_GMDC_MORPH_VERTEX_DELTAS, k) : NULL;
        in.mnd[k] = in.map ? plumbob_gmdc_find_element(g, gr->link, PLUMBOB_GMDC_MORPH_NORMAL_DELTAS, k) : NULL;
        if (in.mvd[k] && in.mvd[k]->format != 2) in.mvd[k] = NULL;
        if (in.mnd[k] && in.mnd[k]->format != 2) in.mnd[k] = NULL;
    }
    skinned = ba && g->joint_count;
    sparse_bones = skinned && (ba->items.count || (bw && bw->items.count));
    sparse = sparse_bones || in.pos->items.count || (in.nrm && in.nrm->items.count);
    slots = skinned ? (g->version >= 2 ? gr->bones.count : g->joint_count) : 0u;
    if (slots > 255u) slots = 255u;
    pb_skin_work_of(job->work, &w);
    /* the slot table: version 2 slots name joints through the group's bone list */
    for (k = 0; k < slots; k++) {
        const plumbob_mat34 *m = &job->palette[g->version >= 2 ? plumbob_gmdc_index(g, &gr->bones, k) : k];
        pb_skin_put_table(w.table + PB_SKIN_ENTRY * k, NULL, m, NULL, 1, job->flags);
    }
    pb_skin_put_entry(w.table + PB_SKIN_ENTRY * PB_SKIN_ZERO_SLOT, NULL);
    pb_skin_slot_offsets(w.offsets, slots);
    mesh.weight_count = skinned && bw ? bw->format + 1u : 0u;
    mesh.weight_mode = PLUMBOB_SKIN_WEIGHTS_IMPLIED_LAST;
    mesh.slot_count = slots;
    mesh.slot_joint = NULL; /* the table above is built */
    mesh.position_stride = mesh.normal_stride = 12u;
    mesh.joint_stride = 4u;
    mesh.weight_stride = 4u * mesh.weight_count;
    if (!in.map && !sparse && (in.nrm || !job->normals)) { /* straight from the mesh's bytes */
        mesh.vertex_count = n;
        mesh.positions = in.pos->data;
        mesh.normals = in.nrm ? in.nrm->data : NULL;
        mesh.joints = skinned ? ba->data : NULL;
        mesh.weights = mesh.weight_count ? bw->data : NULL;
        pb_skin_mesh_run(&mesh, &w, slots, first, end, job->positions, job->position_stride, job->normals,
                         job->normal_stride, job->flags);
    } else { /* morphs, normals made up or sparse elements: stage blocks */
        uint32_t v0;
        for (v0 = first; v0 < end; v0 += PB_SKIN_STAGE) {
            uint32_t count = end - v0 < PB_SKIN_STAGE ? end - v0 : PB_SKIN_STAGE;
            stage_block(&in, v0, count, w.positions, w.normals);
            mesh.vertex_count = count;
            mesh.positions = w.positions;
            mesh.normals = w.normals;
            if (!skinned) {
                mesh.joints = NULL;
                mesh.weights = NULL;
            } else if (sparse_bones) {
                stage_bones(g, ba, bw, mesh.weight_count, v0, count, w.joints, w.weights);
                mesh.joints = w.joints;
                mesh.weights = mesh.weight_count ? w.weights : NULL;
            } else {
                mesh.joints = ba->data + 4u * (size_t)v0;
                mesh.weights = mesh.weight_count ? bw->data + 4u * (size_t)mesh.weight_count * v0 : NULL;
            }
            pb_skin_mesh_run(&mesh, &w, slots, 0, count, job->positions + job->position_stride * v0,
                             job->position_stride, job->normals ? job->normals + job->normal_stride * v0 : NULL,
                             job->normal_stride, job->flags);
        }
    }
    return PLUMBOB_OK;
}

uint32_t plumbob_gmdc_subset_vertex_count(const plumbob_gmdc *g) {
    uint32_t j, total = 0;
    if (!g) return 0;
    for (j = 0; j < g->subset_count; j++) total += g->subsets[j].vertex_count;
    return total;
}

plumbob_result plumbob_gmdc_skin_subsets(const plumbob_gmdc *g, const plumbob_mat34 *palette,
                                         float *positions, size_t stride, uint32_t position_count) {
    uint32_t j, v, out = 0;
    if (!g || !positions || stride < 3 || (!palette && g->joint_count)) return PLUMBOB_ERR_INVALID_ARGUMENT;
    if (position_count < plumbob_gmdc_subset_vertex_count(g)) return PLUMBOB_ERR_OUTPUT_TOO_SMALL;
    for (j = 0; j < g->subset_count; j++) {
        const plumbob_gmdc_mesh *s = &g->subsets[j];
        plumbob_mat34 m = plumbob_mat34_identity();
        if (j < g->joint_count) {
            /* subset vertices are in bone space: palette * bind = joint model */
            plumbob_quat q, qi;
            plumbob_vec3 t, ti;
            plumbob_mat34 bind;
            plumbob_gmdc_joint(g, j, &q, &t);
            qi = plumbob_quat_normalize(q);
            qi.x = -qi.x; qi.y = -qi.y; qi.z = -qi.z;
            ti = plumbob_quat_rotate(qi, t);
            ti.x = -ti.x; ti.y = -ti.y; ti.z = -ti.z;
            bind = plumbob_mat34_from_rt(qi, ti);
            m = plumbob_mat34_mul(&palette[j], &bind);
        }
        for (v = 0; v < s->vertex_count; v++, out++) {
            plumbob_vec3 p;
            p.x = pb_f32le(s->vertices + 12u * v);
            p.y = pb_f32le(s->vertices + 12u * v + 4u);
            p.z = pb_f32le(s->vertices + 12u * v + 8u);
            p = plumbob_mat34_transform_point(&m, p);
            positions[stride * out + 0] = p.x;
            positions[stride * out + 1] = p.y;
            positions[stride * out + 2] = p.z;
        }
    }
    return PLUMBOB_OK;
}
