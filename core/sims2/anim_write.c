/* Sims 2 ANIM writer: the block in the order the decoder reads it, with the
 * games' filler words and string-section paddings. */
#include "plumbob/sims2.h"
#include "pb_sink.h"
#include "pb_anim.h"

#define FILLER 0x11BA05F0u

static void fillers(pb_sink *s, uint32_t n) {
    while (n--) pb_sink_u32(s, FILLER);
}

static void cstr(pb_sink *s, plumbob_string str) {
    pb_sink_put(s, str.ptr, str.len);
    pb_sink_u8(s, 0);
}

static void pad(pb_sink *s, size_t section_start) {
    uint32_t n = pb_anim_pad(s->n - section_start), i;
    for (i = 0; i < n; i++) pb_sink_u8(s, i);
}

static plumbob_result emit(const void *obj, pb_sink *s) {
    const plumbob_anim *a = (const plumbob_anim *)obj;
    static const plumbob_string class_name = {"cAnimResourceConst", 18};
    uint32_t i, channels = 0, components = 0, chains = 0, targets = 0;
    size_t size_at, start;
    plumbob_result why;
    if (!a || a->skeleton.len > 255u || a->data_string.len > 255u || a->target_count > 0xFFFFu ||
        a->event_count > 0xFFFFu)
        return PLUMBOB_ERR_INVALID_ARGUMENT;
    for (i = 0; i < a->target_count; i++) {
        if (a->targets[i].name.len > 0xFFFFu) return PLUMBOB_ERR_INVALID_ARGUMENT;
        channels += a->targets[i].channel_count;
        chains += a->targets[i].ik_chain_count;
    }
    for (i = 0; i < a->channel_count && channels == a->channel_count; i++)
        components += PLUMBOB_ANIM_COMPONENTS(a->channels[i].flags);
    for (i = 0; i < a->ik_chain_count; i++) targets += a->ik_chains[i].target_count;
    if (channels != a->channel_count || components != a->component_count || chains != a->ik_chain_count ||
        targets != a->ik_target_count)
        return PLUMBOB_ERR_INVALID_ARGUMENT;
    for (i = 0; i < a->component_count; i++)
        if (pb_anim_key_size(a->components[i].packed, &why) != a->components[i].key_size)
            return PLUMBOB_ERR_INVALID_ARGUMENT;
    for (i = 0; i < a->event_count; i++)
        if (a->events[i].text.len > 0xFFFFu) return PLUMBOB_ERR_INVALID_ARGUMENT;

    pb_sink_sims2_head(s, a->data, &a->rcol, &a->head, class_name, PLUMBOB_TYPE_ANIM,
                       a->data ? a->head.version : 6u);
    size_at = s->n;
    pb_sink_u32(s, 0); /* size: patched below once known */
    pb_sink_u16(s, a->duration);
    pb_sink_u16(s, a->target_count);
    pb_sink_u16(s, a->event_count);
    pb_sink_u8(s, (unsigned)a->data_string.len);
    pb_sink_u8(s, a->version);
    pb_sink_u8(s, a->type);
    pb_sink_u8(s, a->priority);
    pb_sink_u8(s, a->locomotion);
    pb_sink_u8(s, (unsigned)a->skeleton.len);
    fillers(s, 4);
    for (i = 0; i < 9; i++) pb_sink_f32(s, a->params[i]);
    start = s->n;
    cstr(s, a->skeleton);
    cstr(s, a->data_string);
    pad(s, start);
    for (i = 0; i < a->target_count; i++) {
        const plumbob_anim_target *t = &a->targets[i];
        fillers(s, 2);
        pb_sink_u16(s, t->kind);
        pb_sink_u16(s, t->channel_count);
        pb_sink_u8(s, t->ik_chain_count);
        pb_sink_u8(s, t->unknown);
        pb_sink_u16(s, (unsigned)t->name.len);
        fillers(s, 3);
    }
    start = s->n;
    for (i = 0; i < a->target_count; i++) cstr(s, a->targets[i].name);
    pad(s, start);
    for (i = 0; i < a->channel_count; i++) {
        fillers(s, 2);
        pb_sink_u32(s, a->channels[i].crc);
        fillers(s, 1);
        pb_sink_u32(s, a->channels[i].flags);
        fillers(s, 1);
    }
    start = s->n;
    for (i = 0; i < a->channel_count; i++) cstr(s, a->channels[i].name);
    pad(s, start);
    for (i = 0; i < a->component_count; i++) {
        pb_sink_u16(s, a->components[i].key_count);
        pb_sink_u8(s, a->components[i].packed);
        pb_sink_u8(s, a->components[i].reserved);
        fillers(s, 1);
    }
    for (i = 0; i < a->component_count; i++)
        pb_sink_put(s, a->components[i].keys, (size_t)a->components[i].key_count * a->components[i].key_size);
    for (i = 0; i < a->ik_chain_count; i++) pb_sink_put(s, a->ik_chains[i].record, PLUMBOB_ANIM_RECORD_IK_CHAIN);
    for (i = 0; i < a->ik_target_count; i++) pb_sink_put(s, a->ik_targets[i].record, PLUMBOB_ANIM_RECORD_IK_TARGET);
    for (i = 0; i < a->event_count; i++) {
        fillers(s, 1);
        pb_sink_u16(s, a->events[i].time);
        pb_sink_u16(s, a->events[i].type);
        pb_sink_u16(s, (unsigned)a->events[i].text.len);
        fillers(s, 1);
    }
    for (i = 0; i < a->event_count; i++) cstr(s, a->events[i].text);
    if (s->p && !s->full) { /* the size field counts the bytes after it */
        unsigned char *base = s->p - (s->n - size_at);
        pb_put_le32(base, (uint32_t)(s->n - size_at - 4u));
    }
    if (a->data && a->end_pos < a->size) pb_sink_put(s, a->data + a->end_pos, a->size - a->end_pos);
    return s->full ? PLUMBOB_ERR_OUT_OF_MEMORY : PLUMBOB_OK;
}

size_t plumbob_anim_write_size(const plumbob_anim *obj) {
    return pb_emit_size(emit, obj);
}

plumbob_result plumbob_anim_write(const plumbob_anim *obj, void *out, size_t out_cap, size_t *out_size) {
    return pb_emit_to(emit, obj, out, out_cap, out_size);
}
