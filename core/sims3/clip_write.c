/* Sims 3 CLIP writer and key quantizer.  The layout follows the game's own
 * files exactly (see docs/FORMATS.md), so decode -> write is byte-identical. */
#include "plumbob/sims3.h"
#include "pb_bytes.h"
#include "pb_clip.h"


static size_t pad4(size_t n) {
    return (n + 3u) & ~(size_t)3u;
}

/* Section sizes of the layout; 0 from valid() means the clip cannot be written. */
typedef struct clip_layout {
    size_t keys_pos, s3_size, slot_pos, slot_size, actor_pos, actor_size, event_pos, events_size, end_pos, total;
} clip_layout;

static int layout(const plumbob_clip *c, clip_layout *L) {
    size_t pos, i;
    uint32_t k, ev_count;
    if (!c || (c->track_count && !c->tracks) || (c->slot_count && !c->slots)) return 0;
    pos = 48u + (size_t)c->track_count * 20u + c->name.len + 1u + c->source.len + 1u;
    pos += (size_t)c->palette_count * 4u;
    L->keys_pos = pos;
    for (k = 0; k < c->track_count; k++) {
        const plumbob_clip_track *t = &c->tracks[k];
        uint8_t ks, comps;
        pb_clip_key_layout(t->curve, t->target, t->key_count, &ks, &comps);
        if (t->key_count && (!ks || !t->keys)) return 0;
        pos += (size_t)t->key_count * ks;
    }
    L->s3_size = pos;
    pos = pad4(56u + pos);
    L->slot_pos = 0;
    L->slot_size = 0;
    if (c->slot_pos || c->slot_count) { /* present in the source, or has entries */
        uint32_t chains = c->chain_count;
        L->slot_pos = pos;
        L->slot_size = 4u + 4u * (size_t)chains;
        for (k = 0; k < chains; k++) {
            uint32_t n = 0;
            for (i = 0; i < c->slot_count; i++) n += c->slots[i].chain == k;
            L->slot_size += 8u + 4u * (size_t)n + (size_t)n * (4u + 2u * PB_CLIP_SLOT_NAME_SIZE);
        }
        for (i = 0; i < c->slot_count; i++)
            if (c->slots[i].chain >= chains) return 0;
        pos += L->slot_size;
    }
    L->actor_pos = pos;
    L->actor_size = c->actor_pos || c->actor.len ? pad4(c->actor.len + 1u) : 0;
    pos += L->actor_size;
    L->event_pos = pos;
    L->events_size = 0;
    ev_count = c->event_pos || c->events_decoded ? c->events_decoded : 0;
    if (ev_count && !c->events) return 0;
    for (k = 0; k < ev_count; k++) {
        long ps = pb_clip_event_payload_size(c->events[k].type);
        if (ps < 0) return 0;
        L->events_size += 28u + pad4(c->events[k].name.len + 1u) + (size_t)ps;
    }
    if (c->event_pos || ev_count) pos += 20u + L->events_size;
    L->end_pos = pos;
    L->total = pos + 16u;
    return 1;
}

size_t plumbob_clip_write_size(const plumbob_clip *clip) {
    clip_layout L;
    return layout(clip, &L) ? L.total : SIZE_MAX;
}

static void put_bytes(unsigned char *d, const void *s, size_t n) {
    const unsigned char *p = (const unsigned char *)s;
    size_t i;
    for (i = 0; i < n; i++) d[i] = p[i];
}

static void fill(unsigned char *d, unsigned char v, size_t n) {
    size_t i;
    for (i = 0; i < n; i++) d[i] = v;
}

/* A name field of `size` bytes: the raw original when given, else the name,
 * NUL, and `padding` bytes. */
static void put_field(unsigned char *d, const unsigned char *raw, plumbob_string s, size_t size,
                      unsigned char padding) {
    size_t n = s.len < size - 1u ? s.len : size - 1u;
    if (raw) {
        put_bytes(d, raw, size);
        return;
    }
    put_bytes(d, s.ptr, n);
    d[n] = 0;
    fill(d + n + 1u, padding, size - n - 1u);
}

static void write_event_payload(unsigned char *p, const plumbob_clip_event *e, size_t size) {
    uint32_t k;
    if (e->payload) {
        put_bytes(p, e->payload, size);
        return;
    }
    fill(p, 0, size);
    switch (e->type) {
    case PLUMBOB_CLIP_EVENT_ATTACH:
        for (k = 0; k < 4; k++) pb_put_le32(p + 4 * k, e->hash[k]);
        for (k = 0; k < 4; k++) pb_put_f32le(p + 16 + 20 * k, 1.0f); /* identity matrix */
        break;
    case PLUMBOB_CLIP_EVENT_UNPARENT:
    case PLUMBOB_CLIP_EVENT_DESTROY_PROP:
        pb_put_le32(p, e->hash[0]);
        break;
    case PLUMBOB_CLIP_EVENT_SOUND:
        put_bytes(p, e->sound.ptr, e->sound.len < 127 ? e->sound.len : 127);
        break;
    case PLUMBOB_CLIP_EVENT_EFFECT:
        for (k = 0; k < 5; k++) pb_put_le32(p + 4 * k, e->hash[k]);
        break;
    case PLUMBOB_CLIP_EVENT_VISIBILITY:
        pb_put_f32le(p, e->visibility);
        break;
    case PLUMBOB_CLIP_EVENT_STOP_EFFECT:
        pb_put_le32(p, e->hash[0]);
        pb_put_le32(p + 4, e->hash[1]);
        break;
    default:
        break;
    }
}

plumbob_result plumbob_clip_write(const plumbob_clip *c, void *out_v, size_t out_cap, size_t *out_size) {
    unsigned char *out = (unsigned char *)out_v, *s3;
    clip_layout L;
    size_t pos, i;
    uint32_t k;
    if (!c || !out || !out_size) return PLUMBOB_ERR_INVALID_ARGUMENT;
    *out_size = 0;
    if (!layout(c, &L)) return PLUMBOB_ERR_INVALID_ARGUMENT;
    if (L.total > out_cap) return PLUMBOB_ERR_OUT_OF_MEMORY;

    /* outer header: offsets count from their own field */
    fill(out, 0, 56);
    pb_put_le32(out, 0x6B20C4F3u);
    pb_put_le32(out + 4, c->linked_offset);
    pb_put_le32(out + 8, (uint32_t)L.s3_size);
    pb_put_le32(out + 12, 56u - 12u);
    pb_put_le32(out + 16, L.slot_pos ? (uint32_t)(L.slot_pos - 16u) : 0u);
    pb_put_le32(out + 20, L.actor_size ? (uint32_t)(L.actor_pos - 20u) : 0u);
    pb_put_le32(out + 24, L.end_pos > L.event_pos ? (uint32_t)(L.event_pos - 24u) : 0u);
    pb_put_le32(out + 28, c->header_unknown[0]);
    pb_put_le32(out + 32, c->header_unknown[1]);
    pb_put_le32(out + 36, (uint32_t)(L.end_pos - 36u));

    /* S3Clip: header, track table, name, source, palette, keys */
    s3 = out + 56;
    put_bytes(s3, "_pilC3S_", 8);
    pb_put_le32(s3 + 8, c->version);
    pb_put_le32(s3 + 12, c->flags);
    pb_put_f32le(s3 + 16, c->frame_duration);
    pb_put_le16(s3 + 20, c->tick_count);
    pb_put_le16(s3 + 22, c->tick_pad);
    pb_put_le32(s3 + 24, c->track_count);
    pb_put_le32(s3 + 28, c->palette_count);
    pb_put_le32(s3 + 32, 48u);
    pos = 48u + (size_t)c->track_count * 20u;
    pb_put_le32(s3 + 40, (uint32_t)pos);
    put_bytes(s3 + pos, c->name.ptr, c->name.len);
    s3[pos + c->name.len] = 0;
    pos += c->name.len + 1u;
    pb_put_le32(s3 + 44, (uint32_t)pos);
    put_bytes(s3 + pos, c->source.ptr, c->source.len);
    s3[pos + c->source.len] = 0;
    pos += c->source.len + 1u;
    pb_put_le32(s3 + 36, (uint32_t)pos);
    put_bytes(s3 + pos, c->palette, (size_t)c->palette_count * 4u);
    pos = L.keys_pos;
    for (k = 0; k < c->track_count; k++) {
        const plumbob_clip_track *t = &c->tracks[k];
        unsigned char *rec = s3 + 48 + 20u * k;
        uint8_t ks, comps;
        pb_clip_key_layout(t->curve, t->target, t->key_count, &ks, &comps);
        /* keyless tracks point at the current position, as the game's do */
        pb_put_le32(rec, (uint32_t)pos);
        pb_put_le32(rec + 4, t->hash);
        pb_put_f32le(rec + 8, t->offset);
        pb_put_f32le(rec + 12, t->scale);
        pb_put_le16(rec + 16, t->key_count);
        rec[18] = t->curve;
        rec[19] = t->target;
        put_bytes(s3 + pos, t->keys, (size_t)t->key_count * ks);
        pos += (size_t)t->key_count * ks;
    }
    pos = 56u + L.s3_size;
    fill(out + pos, 0x7E, pad4(pos) - pos);

    /* IK slot table: offsets count from the start of their offset array */
    if (L.slot_pos) {
        unsigned char *t = out + L.slot_pos;
        size_t chain_at = 4u + 4u * (size_t)c->chain_count;
        pb_put_le32(t, c->chain_count);
        for (k = 0; k < c->chain_count; k++) {
            uint32_t n = 0, j = 0;
            unsigned char *ch = t + chain_at;
            size_t entry_at;
            for (i = 0; i < c->slot_count; i++) n += c->slots[i].chain == k;
            pb_put_le32(t + 4 + 4u * k, (uint32_t)(chain_at - 4u));
            pb_put_le32(ch, 0x7E7E7E7Eu);
            pb_put_le32(ch + 4, n);
            entry_at = 8u + 4u * n;
            for (i = 0; i < c->slot_count; i++) {
                const plumbob_clip_slot *sl = &c->slots[i];
                if (sl->chain != k) continue;
                pb_put_le32(ch + 8 + 4u * j, (uint32_t)(entry_at - 8u));
                pb_put_le32(ch + entry_at, sl->index);
                put_field(ch + entry_at + 4, sl->actor_raw, sl->actor, PB_CLIP_SLOT_NAME_SIZE, '#');
                put_field(ch + entry_at + 4 + PB_CLIP_SLOT_NAME_SIZE, sl->slot_raw, sl->slot, PB_CLIP_SLOT_NAME_SIZE, '#');
                entry_at += 4u + 2u * PB_CLIP_SLOT_NAME_SIZE;
                j++;
            }
            chain_at += entry_at;
        }
    }

    /* actor name, padded with 0x7E */
    if (L.actor_size) put_field(out + L.actor_pos, NULL, c->actor, L.actor_size, 0x7E);

    /* events */
    if (L.end_pos > L.event_pos) {
        unsigned char *e = out + L.event_pos;
        put_bytes(e, "=CE=", 4);
        pb_put_le32(e + 4, c->event_version);
        pb_put_le32(e + 8, c->events_decoded);
        pb_put_le32(e + 12, (uint32_t)L.events_size);
        pb_put_le32(e + 16, c->events_decoded ? 4u : 0u);
        pos = 20;
        for (k = 0; k < c->events_decoded; k++) {
            const plumbob_clip_event *ev = &c->events[k];
            size_t nl = pad4(ev->name.len + 1u), ps = (size_t)pb_clip_event_payload_size(ev->type);
            pb_put_le16(e + pos, ev->type);
            pb_put_le16(e + pos + 2, ev->marker);
            pb_put_le32(e + pos + 4, ev->id);
            pb_put_f32le(e + pos + 8, ev->time);
            pb_put_f32le(e + pos + 12, ev->unknown[0]);
            pb_put_f32le(e + pos + 16, ev->unknown[1]);
            pb_put_le32(e + pos + 20, ev->unknown3);
            pb_put_le32(e + pos + 24, (uint32_t)ev->name.len);
            put_bytes(e + pos + 28, ev->name.ptr, ev->name.len);
            fill(e + pos + 28 + ev->name.len, 0, nl - ev->name.len);
            write_event_payload(e + pos + 28 + nl, ev, ps);
            pos += 28u + nl + ps;
        }
    }

    /* end block: as decoded, or the usual 0, 0, 0, 1.0f */
    if (c->end_block) {
        put_bytes(out + L.end_pos, c->end_block, 16);
    } else {
        fill(out + L.end_pos, 0, 12);
        pb_put_f32le(out + L.end_pos + 12, 1.0f);
    }
    *out_size = L.total;
    return PLUMBOB_OK;
}

/* --- quantizing float curves ------------------------------------------------ */

void plumbob_clip_fit_range(const float *values, uint32_t count, uint32_t components, float *offset,
                            float *scale) {
    float lo = 0.0f, hi = 0.0f;
    size_t i, n = (size_t)count * components;
    for (i = 0; i < n; i++) {
        if (i == 0 || values[i] < lo) lo = values[i];
        if (i == 0 || values[i] > hi) hi = values[i];
    }
    /* halved before adding: the same bits for normal values (a power of two
     * commutes with rounding), and finite for any finite ones, where
     * lo + hi or hi - lo could overflow into an infinity that the decoder
     * refuses (issue 47) */
    *offset = 0.5f * lo + 0.5f * hi;
    *scale = hi > lo ? 0.5f * hi - 0.5f * lo : 1.0f;
}

/* Nearest integer magnitude of |v| in 0..max, and its sign bit. */
static unsigned quantize(float x, float offset, float scale, unsigned max, unsigned *sign) {
    float v = (x - offset) / scale, q;
    *sign = v < 0.0f;
    if (v < 0.0f) v = -v;
    if (!(v <= 1.0f)) v = 1.0f; /* also NaN */
    q = v * (float)max + 0.5f;
    return (unsigned)q > max ? max : (unsigned)q;
}

plumbob_result plumbob_clip_quantize(const plumbob_clip_track *t, const uint16_t *ticks,
                                     const float *values, unsigned char *keys) {
    uint32_t k, i;
    unsigned max, comps;
    if (!t || !ticks || !values || !keys || !(t->scale != 0.0f)) return PLUMBOB_ERR_INVALID_ARGUMENT;
    switch (t->curve) {
    case 0x14: max = 4095; comps = 4; break;
    case 0x12: max = 1023; comps = 3; break;
    case 0x05: max = 65535; comps = 1; break;
    default: return PLUMBOB_ERR_INVALID_ARGUMENT;
    }
    for (k = 0; k < t->key_count; k++) {
        const float *v = values + (size_t)k * comps;
        unsigned signs = 0, sign, q[4];
        unsigned char *key;
        for (i = 0; i < comps; i++) {
            q[i] = quantize(v[i], t->offset, t->scale, max, &sign);
            signs |= sign << i;
        }
        if (t->curve == 0x14) {
            key = keys + (size_t)k * 12u;
            for (i = 0; i < 4; i++) pb_put_le16(key + 4 + 2 * i, (uint16_t)q[i]);
        } else if (t->curve == 0x12) {
            key = keys + (size_t)k * 8u;
            pb_put_le32(key + 4, (uint32_t)(q[0] | q[1] << 10 | q[2] << 20));
        } else {
            key = keys + (size_t)k * 6u;
            pb_put_le16(key + 4, (uint16_t)q[0]);
        }
        pb_put_le16(key, ticks[k]);
        pb_put_le16(key + 2, (uint16_t)signs);
    }
    return PLUMBOB_OK;
}

plumbob_result plumbob_clip_encode_track(plumbob_clip_track *t, uint32_t hash, uint8_t curve,
                                         uint8_t target, uint16_t key_count, const uint16_t *ticks,
                                         const float *values, unsigned char *keys) {
    uint8_t key_size, comps;
    if (!t || (curve != 0x14 && curve != 0x12 && curve != 0x05)) return PLUMBOB_ERR_INVALID_ARGUMENT;
    pb_clip_key_layout(curve, target, key_count, &key_size, &comps);
    t->hash = hash;
    t->curve = curve;
    t->target = target;
    t->key_count = key_count;
    t->type = (uint16_t)(target << 8 | curve);
    t->components = comps;
    t->key_size = key_size;
    t->data_offset = 0;
    t->keys = keys;
    if (!values) return PLUMBOB_ERR_INVALID_ARGUMENT;
    plumbob_clip_fit_range(values, key_count, comps, &t->offset, &t->scale);
    return plumbob_clip_quantize(t, ticks, values, keys);
}
