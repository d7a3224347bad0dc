/* Sims 2 GMDC skinning: palette from joint transforms, then morph and
 * linear blend skinning of one group, scalar reference. */
#include "plumbob.h"
#include "pb_bytes.h"
#include "pb_math.h"

plumbob_result plumbob_gmdc_palette(const plumbob_gmdc *g, const plumbob_mat34 *joint_model,
                                    plumbob_mat34 *palette) {
    uint32_t j;
    if (!g || !palette || (g->joint_count && !g->joints)) return PLUMBOB_ERR_INVALID_ARGUMENT;
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

static float rd(const unsigned char *p) {
    return pb_f32_from_bits(pb_le32(p));
}

plumbob_result plumbob_gmdc_skin(const plumbob_gmdc_skin_job *job) {
    const plumbob_gmdc *g;
    const plumbob_gmdc_group *gr;
    const plumbob_gmdc_element *pos, *nrm, *ba, *bw, *map, *mvd[4], *mnd[4];
    uint32_t v, n, k, nw;
    if (!job || !job->gmdc || !job->positions || job->position_stride < 3 ||
        (job->normals && job->normal_stride < 3))
        return PLUMBOB_ERR_INVALID_ARGUMENT;
    g = job->gmdc;
    if (job->group >= g->group_count) return PLUMBOB_ERR_INVALID_ARGUMENT;
    gr = &g->groups[job->group];
    n = g->linkages[gr->link].vertex_count;
    pos = plumbob_gmdc_find_element(g, gr->link, PLUMBOB_GMDC_VERTICES, 0);
    if (!pos || pos->format != 2) return PLUMBOB_ERR_BAD_DATA;
    /* normals are read and blended only when the caller wants them */
    nrm = job->normals ? plumbob_gmdc_find_element(g, gr->link, PLUMBOB_GMDC_NORMALS, 0) : NULL;
    if (nrm && nrm->format != 2) nrm = NULL;
    ba = plumbob_gmdc_find_element(g, gr->link, PLUMBOB_GMDC_BONE_ASSIGNMENTS, 0);
    bw = plumbob_gmdc_find_element(g, gr->link, PLUMBOB_GMDC_BONE_WEIGHTS, 0);
    if (ba && !job->palette && g->joint_count) return PLUMBOB_ERR_INVALID_ARGUMENT;
    if (bw && bw->format > 2) bw = NULL;
    nw = bw ? bw->format + 1u : 0u;
    map = job->morph_weights ? plumbob_gmdc_find_element(g, gr->link, PLUMBOB_GMDC_MORPH_VERTEX_MAP, 0) : NULL;
    for (k = 0; k < 4; k++) {
        mvd[k] = map ? plumbob_gmdc_find_element(g, gr->link, PLUMBOB_GMDC_MORPH_VERTEX_DELTAS, k) : NULL;
        mnd[k] = map ? plumbob_gmdc_find_element(g, gr->link, PLUMBOB_GMDC_MORPH_NORMAL_DELTAS, k) : NULL;
        if (mvd[k] && mvd[k]->format != 2) mvd[k] = NULL;
        if (mnd[k] && mnd[k]->format != 2) mnd[k] = NULL;
    }
    /* Slots are bytes: resolve the group's (at most 255) slots to palette
     * entries once, so the vertex loop does no index lookups. */
    {
    const plumbob_mat34 *slot_matrix[255];
    uint32_t slots = ba ? (g->version >= 2 ? gr->bones.count : g->joint_count) : 0u;
    if (slots > 255u) slots = 255u;
    for (k = 0; k < slots; k++)
        slot_matrix[k] = &job->palette[g->version >= 2 ? plumbob_gmdc_index(g, &gr->bones, k) : k];
    for (v = 0; v < n; v++) {
        const unsigned char *pp = pos->data + 12u * v;
        float p[3], q[3] = {0, 0, 0}, m[3] = {0, 0, 1}, o[3] = {0, 0, 0};
        p[0] = rd(pp); p[1] = rd(pp + 4); p[2] = rd(pp + 8);
        if (nrm) {
            const unsigned char *np = nrm->data + 12u * v;
            m[0] = rd(np); m[1] = rd(np + 4); m[2] = rd(np + 8);
        }
        if (map) { /* morphs before skinning */
            uint32_t ids = pb_le32(map->data + 4u * v);
            for (k = 0; k < 4; k++) {
                uint32_t id = (ids >> (8 * k)) & 0xFFu;
                float w;
                if (!id || id >= g->morph_count) continue;
                w = job->morph_weights[id];
                if (w == 0.0f) continue;
                if (mvd[k]) {
                    const unsigned char *d = mvd[k]->data + 12u * v;
                    p[0] += w * rd(d); p[1] += w * rd(d + 4); p[2] += w * rd(d + 8);
                }
                if (mnd[k] && nrm) {
                    const unsigned char *d = mnd[k]->data + 12u * v;
                    m[0] += w * rd(d); m[1] += w * rd(d + 4); m[2] += w * rd(d + 8);
                }
            }
        }
        if (ba && g->joint_count) {
            uint32_t a = pb_le32(ba->data + 4u * v);
            float sum = 0.0f, wk;
            for (k = 0; k < 4; k++) {
                uint32_t slot = (a >> (8 * k)) & 0xFFu;
                const plumbob_mat34 *M;
                if (slot == 0xFFu) continue;
                if (k < nw) wk = rd(bw->data + 4u * (v * nw + k));
                else if (k == nw) wk = 1.0f - sum; /* the implied last weight */
                else wk = 0.0f;
                sum += wk;
                if (wk == 0.0f || slot >= slots) continue; /* slots were validated for faces' vertices */
                M = slot_matrix[slot];
                q[0] += wk * (M->m[0][0] * p[0] + M->m[0][1] * p[1] + M->m[0][2] * p[2] + M->m[0][3]);
                q[1] += wk * (M->m[1][0] * p[0] + M->m[1][1] * p[1] + M->m[1][2] * p[2] + M->m[1][3]);
                q[2] += wk * (M->m[2][0] * p[0] + M->m[2][1] * p[1] + M->m[2][2] * p[2] + M->m[2][3]);
                if (!job->normals) continue;
                o[0] += wk * (M->m[0][0] * m[0] + M->m[0][1] * m[1] + M->m[0][2] * m[2]);
                o[1] += wk * (M->m[1][0] * m[0] + M->m[1][1] * m[1] + M->m[1][2] * m[2]);
                o[2] += wk * (M->m[2][0] * m[0] + M->m[2][1] * m[1] + M->m[2][2] * m[2]);
            }
        } else { /* unskinned: pass through */
            q[0] = p[0]; q[1] = p[1]; q[2] = p[2];
            o[0] = m[0]; o[1] = m[1]; o[2] = m[2];
        }
        job->positions[v * job->position_stride + 0] = q[0];
        job->positions[v * job->position_stride + 1] = q[1];
        job->positions[v * job->position_stride + 2] = q[2];
        if (job->normals) {
            float len2 = o[0] * o[0] + o[1] * o[1] + o[2] * o[2], inv = len2 > 0.0f ? pb_rsqrtf(len2) : 0.0f;
            job->normals[v * job->normal_stride + 0] = o[0] * inv;
            job->normals[v * job->normal_stride + 1] = o[1] * inv;
            job->normals[v * job->normal_stride + 2] = o[2] * inv;
        }
    }
    }
    return PLUMBOB_OK;
}
