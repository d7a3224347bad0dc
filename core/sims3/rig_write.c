/* Sims 3 rig writer: the plain format (versions 3 and 4) from a decoded or
 * caller-filled plumbob_rig, laid out exactly as the decoder reads it. */
#include "plumbob/sims3.h"
#include "pb_sink.h"

static plumbob_result put_name(pb_sink *s, plumbob_string name) {
    if (name.len > 0x7FFFFFFFu || (!name.ptr && name.len)) return PLUMBOB_ERR_INVALID_ARGUMENT;
    pb_sink_u32(s, (uint32_t)name.len);
    pb_sink_put(s, name.ptr, name.len);
    return PLUMBOB_OK;
}

static plumbob_result emit_rig(const void *obj, pb_sink *s) {
    const plumbob_rig *rig = (const plumbob_rig *)obj;
    uint32_t i, k;
    plumbob_result r;
    if (!rig || (rig->major != 3 && rig->major != 4) || (rig->bone_count && !rig->bones) ||
        (rig->major < 4 && rig->ik_chain_count) || (rig->ik_chain_count && !rig->ik_chains))
        return PLUMBOB_ERR_INVALID_ARGUMENT;
    pb_sink_u32(s, rig->major);
    pb_sink_u32(s, rig->minor);
    pb_sink_u32(s, rig->bone_count);
    for (i = 0; i < rig->bone_count; i++) {
        const plumbob_rig_bone *b = &rig->bones[i];
        pb_sink_f32(s, b->position.x);
        pb_sink_f32(s, b->position.y);
        pb_sink_f32(s, b->position.z);
        pb_sink_f32(s, b->orientation.x);
        pb_sink_f32(s, b->orientation.y);
        pb_sink_f32(s, b->orientation.z);
        pb_sink_f32(s, b->orientation.w);
        pb_sink_f32(s, b->scale.x);
        pb_sink_f32(s, b->scale.y);
        pb_sink_f32(s, b->scale.z);
        r = put_name(s, b->name);
        if (r != PLUMBOB_OK) return r;
        pb_sink_u32(s, (uint32_t)b->opposite);
        pb_sink_u32(s, (uint32_t)b->parent);
        pb_sink_u32(s, b->hash);
        pb_sink_u32(s, b->flags);
    }
    r = put_name(s, rig->skeleton_name);
    if (r != PLUMBOB_OK) return r;
    if (rig->major >= 4) {
        pb_sink_u32(s, rig->ik_chain_count);
        for (i = 0; i < rig->ik_chain_count; i++) {
            const plumbob_rig_ik_chain *c = &rig->ik_chains[i];
            if (c->bone_count && !c->bones) return PLUMBOB_ERR_INVALID_ARGUMENT;
            pb_sink_u32(s, c->bone_count);
            for (k = 0; k < c->bone_count; k++) pb_sink_u32(s, (uint32_t)c->bones[k]);
            for (k = 0; k < PLUMBOB_RIG_IK_INFO_NODES; k++) pb_sink_u32(s, (uint32_t)c->info_nodes[k]);
            pb_sink_u32(s, (uint32_t)c->pole_vector);
            pb_sink_u32(s, (uint32_t)c->slot_info);
            pb_sink_u32(s, (uint32_t)c->slot_offset);
            pb_sink_u32(s, (uint32_t)c->root);
        }
    }
    return s->full ? PLUMBOB_ERR_OUT_OF_MEMORY : PLUMBOB_OK;
}

size_t plumbob_rig_write_size(const plumbob_rig *rig) {
    return pb_emit_size(emit_rig, rig);
}

plumbob_result plumbob_rig_write(const plumbob_rig *rig, void *out, size_t out_cap, size_t *out_size) {
    return pb_emit_to(emit_rig, rig, out, out_cap, out_size);
}
