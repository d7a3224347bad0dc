/* The format-neutral skinning job: a prepared mesh's streams, the palette
 * as a slot table, then the skinning kernel of ports/kernels.h. */
#include "plumbob/runtime.h"
#include "pb_bytes.h"
#include "pb_math.h"
#include "kernels.h"
#include "pb_skin.h"

void pb_skin_work_of(void *work, pb_skin_work *w) {
    w->table = (float *)(void *)(((uintptr_t)work + 63u) & ~(uintptr_t)63u);
    w->offsets = (uint16_t *)(void *)(w->table + 256u * PB_SKIN_ENTRY);
    w->positions = (unsigned char *)(w->offsets + 256u);
    w->normals = w->positions + PB_SKIN_STAGE * 12u;
    w->joints = w->normals + PB_SKIN_STAGE * 12u;
    w->weights = w->joints + PB_SKIN_STAGE * 4u;
}

/* Unskinned vertices: positions as they are, normals renormalized (or as
 * they are, when the job asks for unnormalized normals). */
static void pass_through(const pb_skin_range *r) {
    uint32_t v, c;
    for (v = 0; v < r->count; v++) {
        for (c = 0; c < 3; c++) r->out_positions[r->position_stride * v + c] = pb_f32le(r->positions + 12u * v + 4u * c);
        if (r->normals) {
            float m[3], inv;
            for (c = 0; c < 3; c++) m[c] = pb_f32le(r->normals + 12u * v + 4u * c);
            inv = r->normalize ? pb_normal_scale((m[0] * m[0] + m[1] * m[1]) + m[2] * m[2]) : 1.0f; /* x * 1 is x */
            for (c = 0; c < 3; c++) r->out_normals[r->normal_stride * v + c] = m[c] * inv;
        }
    }
}

static void run(pb_skin_range *r, int skinned, uint32_t flags) {
    if (!skinned) pass_through(r);
    else if (flags & PLUMBOB_SKIN_REFERENCE) pb_skin_scalar(r);
    else PB_SKIN(r);
}

static void copy_bytes(unsigned char *dst, const unsigned char *src, size_t n) {
    size_t i;
    for (i = 0; i < n; i++) dst[i] = src[i];
}

void pb_skin_mesh_run(const plumbob_skin_mesh *m, const pb_skin_work *w, uint32_t slots, uint32_t first,
                      uint32_t end, float *out_positions, size_t position_stride, float *out_normals,
                      size_t normal_stride, uint32_t flags) {
    pb_skin_range r;
    int skinned = m->joints != NULL;
    uint32_t wc = skinned ? m->weight_count : 0u;
    int packed = m->position_stride == 12u && (!out_normals || (m->normals && m->normal_stride == 12u)) &&
                 (!skinned || (m->joint_stride == 4u && (!wc || m->weight_stride == 4u * wc)));
    r.weight_count = wc;
    r.explicit_weights = skinned && m->weight_mode == PLUMBOB_SKIN_WEIGHTS_EXPLICIT;
    r.slot_count = slots;
    r.slot_table = w->table;
    r.slot_offset = w->offsets;
    r.position_stride = position_stride;
    r.normal_stride = normal_stride;
    r.normalize = (flags & PLUMBOB_SKIN_UNNORMALIZED) == 0u;
    if (first == end) return;
    if (packed) { /* straight from the streams */
        r.count = end - first;
        r.positions = m->positions + 12u * (size_t)first;
        r.normals = out_normals ? m->normals + 12u * (size_t)first : NULL;
        r.assignments = skinned ? m->joints + 4u * (size_t)first : NULL;
        r.weights = wc ? m->weights + 4u * (size_t)wc * first : NULL;
        r.out_positions = out_positions + position_stride * first;
        r.out_normals = out_normals ? out_normals + normal_stride * first : NULL;
        run(&r, skinned, flags);
    } else { /* strided streams or made-up normals: packed blocks in the work memory */
        /* the weight staging holds 3 floats a vertex for PB_SKIN_STAGE
         * vertices: four explicit weights stage 3/4 as many a block */
        uint32_t v0, i, c, stage = wc > 3u ? PB_SKIN_STAGE / 4u * 3u : PB_SKIN_STAGE;
        for (v0 = first; v0 < end; v0 += stage) {
            uint32_t count = end - v0 < stage ? end - v0 : stage;
            for (i = 0; i < count; i++) {
                size_t v = (size_t)v0 + i;
                copy_bytes(w->positions + 12u * i, m->positions + m->position_stride * v, 12u);
                if (out_normals && m->normals) copy_bytes(w->normals + 12u * i, m->normals + m->normal_stride * v, 12u);
                else if (out_normals) /* a mesh without normals faces up */
                    for (c = 0; c < 3; c++) pb_put_f32le(w->normals + 12u * i + 4u * c, c == 2 ? 1.0f : 0.0f);
                if (skinned) copy_bytes(w->joints + 4u * i, m->joints + m->joint_stride * v, 4u);
                if (wc) copy_bytes(w->weights + 4u * wc * i, m->weights + m->weight_stride * v, 4u * wc);
            }
            r.count = count;
            r.positions = w->positions;
            r.normals = out_normals ? w->normals : NULL;
            r.assignments = skinned ? w->joints : NULL;
            r.weights = wc ? w->weights : NULL;
            r.out_positions = out_positions + position_stride * v0;
            r.out_normals = out_normals ? out_normals + normal_stride * v0 : NULL;
            run(&r, skinned, flags);
        }
    }
}

plumbob_result plumbob_skin(const plumbob_skin_job *job) {
    const plumbob_skin_mesh *m;
    pb_skin_work w;
    uint32_t first, end, k;
    if (!job || !job->mesh || !job->positions || !job->work || job->position_stride < 3 ||
        (job->normals && job->normal_stride < 3) ||
        (job->flags & ~(PLUMBOB_SKIN_REFERENCE | PLUMBOB_SKIN_UNNORMALIZED)))
        return PLUMBOB_ERR_INVALID_ARGUMENT;
    m = job->mesh;
    first = job->first_vertex;
    if (first > m->vertex_count || job->vertex_count > m->vertex_count - first) return PLUMBOB_ERR_INVALID_ARGUMENT;
    end = job->vertex_count ? first + job->vertex_count : m->vertex_count;
    if ((first < end && !m->positions) || m->position_stride < 12u || (m->normals && m->normal_stride < 12u))
        return PLUMBOB_ERR_INVALID_ARGUMENT;
    if (m->joints) {
        int explicit_weights = m->weight_mode == PLUMBOB_SKIN_WEIGHTS_EXPLICIT;
        if (!explicit_weights && m->weight_mode != PLUMBOB_SKIN_WEIGHTS_IMPLIED_LAST) return PLUMBOB_ERR_UNSUPPORTED;
        if (m->joint_stride < 4u || m->slot_count > 255u ||
            (explicit_weights ? m->weight_count - 1u > 3u : m->weight_count > 3u) ||
            (m->weight_count && (!m->weights || m->weight_stride < 4u * m->weight_count)) ||
            (m->slot_count && !job->palette))
            return PLUMBOB_ERR_INVALID_ARGUMENT;
        for (k = 0; k < m->slot_count; k++)
            if ((m->slot_joint ? m->slot_joint[k] : k) >= job->palette_count) return PLUMBOB_ERR_BAD_INDEX;
    }
    if (job->position_count < end || (job->normals && job->normal_count < end)) return PLUMBOB_ERR_OUTPUT_TOO_SMALL;
    if (first == end) return PLUMBOB_OK;
    pb_skin_work_of(job->work, &w);
    if (m->joints) {
        pb_skin_put_table(w.table, NULL, job->palette, m->slot_joint, m->slot_count, job->flags);
        pb_skin_put_entry(w.table + PB_SKIN_ENTRY * PB_SKIN_ZERO_SLOT, NULL);
        pb_skin_slot_offsets(w.offsets, m->slot_count);
    }
    pb_skin_mesh_run(m, &w, m->joints ? m->slot_count : 0u, first, end, job->positions, job->position_stride,
                     job->normals, job->normal_stride, job->flags);
    return PLUMBOB_OK;
}
