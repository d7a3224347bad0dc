/* Sims 3 CLIP decoding and validation.  Everything is checked here, once,
 * so that sampling can read keys without a bounds check per key. */
#include "plumbob/sims3.h"
#include "pb_bytes.h"
#include "pb_error.h"
#include "pb_finite.h"
#include "pb_clip.h"

#define CLIP_TYPE_ID 0x6B20C4F3u
#define OUTER_HEADER_SIZE 56u
#define S3CLIP_HEADER_SIZE 48u
#define TRACK_RECORD_SIZE 20u
#define EVENT_HEAD_SIZE 28u

static const unsigned char s3clip_magic[8] = {'_', 'p', 'i', 'l', 'C', '3', 'S', '_'};

/* Bytes per key and values per sample for a curve's data type (0: unknown). */
void pb_clip_key_layout(uint8_t curve, uint8_t target, uint16_t key_count, uint8_t *key_size,
                        uint8_t *components) {
    switch (curve & 7u) {
    case 4: *key_size = 12; *components = 4; break; /* 12-bit quaternion */
    case 2: *key_size = 8; *components = 3; break;  /* 3 x 10 bits in a u32 */
    case 3: *key_size = 10; *components = 3; break; /* 3 palette indices */
    case 5: *key_size = 6; *components = 1; break;  /* u16 scalar (morph) */
    default: *key_size = 0; *components = 0; break;
    }
    if (key_count == 0) {
        *key_size = 0;
        *components = target == PLUMBOB_CLIP_TARGET_ROTATION ? 4 : target == PLUMBOB_CLIP_TARGET_MORPH ? 1 : 3;
    }
}

/* A NUL-terminated string at data[pos..limit): the string, or NULL. */
static plumbob_string c_string(const unsigned char *data, size_t pos, size_t limit) {
    plumbob_string s = {NULL, 0};
    size_t i;
    if (pos >= limit) return s;
    for (i = pos; i < limit; i++) {
        if (data[i] == 0) {
            s.ptr = (const char *)data + pos;
            s.len = i - pos;
            return s;
        }
    }
    return s;
}

/* Absolute position of a self-relative offset field at `field` (0: absent). */
static size_t rel(const unsigned char *d, size_t field) {
    uint32_t v = pb_le32(d + field);
    return v ? field + v : 0;
}

/* Payload bytes of each known event type (-1: unknown type). */
long pb_clip_event_payload_size(uint16_t type) {
    switch (type) {
    case PLUMBOB_CLIP_EVENT_ATTACH: return 16 + 64;
    case PLUMBOB_CLIP_EVENT_UNPARENT: return 4;
    case PLUMBOB_CLIP_EVENT_SOUND: return 128;
    case PLUMBOB_CLIP_EVENT_SCRIPT: return 0;
    case PLUMBOB_CLIP_EVENT_EFFECT: return 24; /* 5 u32 as documented, plus a 6th (0) that real clips carry (docs/FORMATS.md) */
    case PLUMBOB_CLIP_EVENT_VISIBILITY: return 4;
    case PLUMBOB_CLIP_EVENT_DESTROY_PROP: return 4;
    case PLUMBOB_CLIP_EVENT_STOP_EFFECT: return 8;
    }
    return -1;
}

int32_t plumbob_clip_event_payload_size(uint16_t type) {
    return (int32_t)pb_clip_event_payload_size(type);
}

/* Header, S3Clip header and the counts every table needs.  Fills the
 * header fields of c; tracks/slots/events pointers are left NULL. */
static plumbob_result read_headers(const unsigned char *d, size_t size, plumbob_clip *c, plumbob_error *err) {
    plumbob_reader r, s;
    uint32_t tto, po, no, so, k;
    size_t i;
    {
        plumbob_clip empty = {0};
        *c = empty;
    }
    c->data = d;
    c->size = size;
    if (size < OUTER_HEADER_SIZE) return pb_note(err, PLUMBOB_ERR_TRUNCATED, size, "header", PLUMBOB_ERROR_NO_INDEX, pb_reason(PLUMBOB_ERR_TRUNCATED));
    if (pb_le32(d) != CLIP_TYPE_ID) return pb_note(err, PLUMBOB_ERR_BAD_MAGIC, 0, "header", PLUMBOB_ERROR_NO_INDEX, pb_reason(PLUMBOB_ERR_BAD_MAGIC));
    c->linked_offset = pb_le32(d + 4);
    c->s3clip_size = pb_le32(d + 8);
    c->s3clip_pos = rel(d, 12);
    c->slot_pos = rel(d, 16);
    c->actor_pos = rel(d, 20);
    c->event_pos = rel(d, 24);
    c->header_unknown[0] = pb_le32(d + 28);
    c->header_unknown[1] = pb_le32(d + 32);
    c->end_pos = rel(d, 36);
    /* an offset or range past the end of the input: the input ends early */
    if (c->s3clip_pos == 0)
        return pb_note(err, PLUMBOB_ERR_BAD_OFFSET, 12, "header", PLUMBOB_ERROR_NO_INDEX, pb_reason(PLUMBOB_ERR_BAD_OFFSET));
    if (c->s3clip_pos > size || c->s3clip_size > size - c->s3clip_pos)
        return pb_note(err, PLUMBOB_ERR_TRUNCATED, 8, "header", PLUMBOB_ERROR_NO_INDEX, pb_reason(PLUMBOB_ERR_TRUNCATED));
    if (c->slot_pos > size || c->actor_pos > size || c->event_pos > size)
        return pb_note(err, PLUMBOB_ERR_TRUNCATED, 16, "header", PLUMBOB_ERROR_NO_INDEX, pb_reason(PLUMBOB_ERR_TRUNCATED));
    if (c->end_pos == 0)
        return pb_note(err, PLUMBOB_ERR_BAD_OFFSET, 36, "header", PLUMBOB_ERROR_NO_INDEX, pb_reason(PLUMBOB_ERR_BAD_OFFSET));
    if (c->end_pos > size || size - c->end_pos < 16)
        return pb_note(err, PLUMBOB_ERR_TRUNCATED, 36, "header", PLUMBOB_ERROR_NO_INDEX, pb_reason(PLUMBOB_ERR_TRUNCATED));
    c->end_block = d + c->end_pos;

    plumbob_reader_init(&r, d, size);
    s = plumbob_reader_sub(&r, c->s3clip_pos, c->s3clip_size);
    {
        const unsigned char *m = plumbob_read_bytes(&s, 8);
        if (!m) return pb_note(err, s.error, pb_reader_at(&s, d, size), "s3clip", PLUMBOB_ERROR_NO_INDEX, pb_reason(s.error));
        for (i = 0; i < 8; i++)
            if (m[i] != s3clip_magic[i]) return pb_note(err, PLUMBOB_ERR_BAD_MAGIC, c->s3clip_pos, "s3clip", PLUMBOB_ERROR_NO_INDEX, pb_reason(PLUMBOB_ERR_BAD_MAGIC));
    }
    c->version = plumbob_read_u32le(&s);
    c->flags = plumbob_read_u32le(&s);
    c->frame_duration = plumbob_read_f32le(&s);
    c->tick_count = plumbob_read_u16le(&s);
    c->tick_pad = plumbob_read_u16le(&s);
    c->track_count = plumbob_read_u32le(&s);
    c->palette_count = plumbob_read_u32le(&s);
    tto = plumbob_read_u32le(&s);
    po = plumbob_read_u32le(&s);
    no = plumbob_read_u32le(&s);
    so = plumbob_read_u32le(&s);
    if (!plumbob_reader_ok(&s)) return pb_note(err, s.error, pb_reader_at(&s, d, size), "s3clip", PLUMBOB_ERROR_NO_INDEX, pb_reason(s.error));
    if (c->version != 2) return pb_note(err, PLUMBOB_ERR_UNSUPPORTED_VERSION, c->s3clip_pos + 8u, "s3clip", PLUMBOB_ERROR_NO_INDEX, pb_reason(PLUMBOB_ERR_UNSUPPORTED_VERSION));
    if (!(c->frame_duration > 0.0f) || c->frame_duration > 1e6f)
        return pb_note(err, PLUMBOB_ERR_BAD_DATA, c->s3clip_pos + 16u, "s3clip", PLUMBOB_ERROR_NO_INDEX,
                       pb_finite(c->frame_duration) ? "frame duration not in (0, 1e6] seconds"
                                                    : "non-finite frame duration");
    if (c->track_count > PLUMBOB_CLIP_MAX_TRACKS) return pb_note(err, PLUMBOB_ERR_BAD_COUNT, c->s3clip_pos + 24u, "s3clip", PLUMBOB_ERROR_NO_INDEX, pb_reason(PLUMBOB_ERR_BAD_COUNT));
    if (tto > c->s3clip_size || c->track_count > (c->s3clip_size - tto) / TRACK_RECORD_SIZE)
        return pb_note(err, PLUMBOB_ERR_BAD_OFFSET, c->s3clip_pos + 32u, "s3clip", PLUMBOB_ERROR_NO_INDEX, pb_reason(PLUMBOB_ERR_BAD_OFFSET));
    if (po > c->s3clip_size || c->palette_count > (c->s3clip_size - po) / 4u)
        return pb_note(err, PLUMBOB_ERR_BAD_OFFSET, c->s3clip_pos + 36u, "s3clip", PLUMBOB_ERROR_NO_INDEX, pb_reason(PLUMBOB_ERR_BAD_OFFSET));
    c->palette = d + c->s3clip_pos + po;
    c->name = c_string(d, c->s3clip_pos + no, c->s3clip_pos + c->s3clip_size);
    c->source = c_string(d, c->s3clip_pos + so, c->s3clip_pos + c->s3clip_size);
    if (!c->name.ptr || !c->source.ptr) return pb_note(err, PLUMBOB_ERR_BAD_OFFSET, c->s3clip_pos + 40u, "s3clip", PLUMBOB_ERROR_NO_INDEX, pb_reason(PLUMBOB_ERR_BAD_OFFSET));
    if (c->actor_pos) {
        c->actor = c_string(d, c->actor_pos, size);
        if (!c->actor.ptr) return pb_note(err, PLUMBOB_ERR_BAD_OFFSET, 20, "header", PLUMBOB_ERROR_NO_INDEX, pb_reason(PLUMBOB_ERR_BAD_OFFSET));
    }

    /* slot table: count entries (chains -> entries) */
    if (c->slot_pos) {
        plumbob_reader t = plumbob_reader_sub(&r, c->slot_pos, size - c->slot_pos);
        c->chain_count = plumbob_read_u32le(&t);
        if (!plumbob_reader_ok(&t)) return pb_note(err, t.error, pb_reader_at(&t, d, size), "slot", PLUMBOB_ERROR_NO_INDEX, pb_reason(t.error));
        if (c->chain_count > plumbob_reader_remaining(&t) / 4u) return pb_note(err, PLUMBOB_ERR_BAD_COUNT, c->slot_pos, "slot", PLUMBOB_ERROR_NO_INDEX, pb_reason(PLUMBOB_ERR_BAD_COUNT));
        for (k = 0; k < c->chain_count; k++) {
            /* offsets count from the start of their offset array */
            uint32_t off = plumbob_read_u32le(&t), n;
            plumbob_reader ch = plumbob_reader_sub(&r, c->slot_pos, size - c->slot_pos);
            plumbob_reader_skip(&ch, 4);
            plumbob_reader_skip(&ch, off);
            plumbob_reader_skip(&ch, 4); /* 0x7E7E7E7E */
            n = plumbob_read_u32le(&ch);
            if (!plumbob_reader_ok(&ch)) return pb_note(err, PLUMBOB_ERR_BAD_OFFSET, pb_reader_at(&t, d, size), "slot", PLUMBOB_ERROR_NO_INDEX, pb_reason(PLUMBOB_ERR_BAD_OFFSET));
            if (n > plumbob_reader_remaining(&ch) / (4u + 4u + 2u * PB_CLIP_SLOT_NAME_SIZE))
                return pb_note(err, PLUMBOB_ERR_BAD_COUNT, pb_reader_at(&ch, d, size), "slot", PLUMBOB_ERROR_NO_INDEX, pb_reason(PLUMBOB_ERR_BAD_COUNT));
            c->slot_count += n;
            if (c->slot_count > PLUMBOB_CLIP_MAX_SLOTS)
                return pb_note(err, PLUMBOB_ERR_BAD_COUNT, pb_reader_at(&ch, d, size), "slot", PLUMBOB_ERROR_NO_INDEX, pb_reason(PLUMBOB_ERR_BAD_COUNT));
        }
        if (!plumbob_reader_ok(&t)) return pb_note(err, t.error, pb_reader_at(&t, d, size), "slot", PLUMBOB_ERROR_NO_INDEX, pb_reason(t.error));
    }

    /* event table header */
    if (c->event_pos) {
        plumbob_reader e = plumbob_reader_sub(&r, c->event_pos, size - c->event_pos);
        const unsigned char *m = plumbob_read_bytes(&e, 4);
        if (!m) return pb_note(err, e.error, pb_reader_at(&e, d, size), "event", PLUMBOB_ERROR_NO_INDEX, pb_reason(e.error));
        if (m[0] != '=' || m[1] != 'C' || m[2] != 'E' || m[3] != '=') return pb_note(err, PLUMBOB_ERR_BAD_MAGIC, c->event_pos, "event", PLUMBOB_ERROR_NO_INDEX, pb_reason(PLUMBOB_ERR_BAD_MAGIC));
        c->event_version = plumbob_read_u32le(&e);
        c->event_count = plumbob_read_u32le(&e);
        if (!plumbob_reader_ok(&e)) return pb_note(err, e.error, pb_reader_at(&e, d, size), "event", PLUMBOB_ERROR_NO_INDEX, pb_reason(e.error));
        if (c->event_count > PLUMBOB_CLIP_MAX_EVENTS ||
            c->event_count > plumbob_reader_remaining(&e) / EVENT_HEAD_SIZE)
            return pb_note(err, PLUMBOB_ERR_BAD_COUNT, c->event_pos + 8u, "event", PLUMBOB_ERROR_NO_INDEX, pb_reason(PLUMBOB_ERR_BAD_COUNT));
    }
    return PLUMBOB_OK;
}

plumbob_result plumbob_clip_measure_ex(const void *data, size_t size, size_t *arena_bytes, plumbob_error *err) {
    plumbob_clip c;
    plumbob_result res;
    size_t need = 0;
    plumbob_error_clear(err);
    if (arena_bytes) *arena_bytes = SIZE_MAX;
    if (!data || !arena_bytes)
        return pb_note(err, PLUMBOB_ERR_INVALID_ARGUMENT, 0, "arguments", PLUMBOB_ERROR_NO_INDEX, "NULL pointer");
    res = read_headers((const unsigned char *)data, size, &c, err);
    if (res != PLUMBOB_OK) return res;
    plumbob_size_add(&need, plumbob_arena_need(c.track_count, sizeof(plumbob_clip_track)));
    plumbob_size_add(&need, plumbob_arena_need(c.slot_count, sizeof(plumbob_clip_slot)));
    plumbob_size_add(&need, plumbob_arena_need(c.event_count, sizeof(plumbob_clip_event)));
    *arena_bytes = need;
    return PLUMBOB_OK;
}

plumbob_result plumbob_clip_measure(const void *data, size_t size, size_t *arena_bytes) {
    return plumbob_clip_measure_ex(data, size, arena_bytes, NULL);
}

/* Tracks, then the palette: every float a sample is made of must be finite
 * (issue 47); a non-finite one is noted at its own offset. */
static plumbob_result decode_tracks(plumbob_clip *c, plumbob_reader *s, plumbob_error *err) {
    uint32_t i, k;
    size_t bad = pb_first_nonfinite_le(c->palette, c->palette_count);
    if (bad < c->palette_count)
        return pb_note(err, PLUMBOB_ERR_BAD_DATA, (size_t)(c->palette - c->data) + 4u * bad, "palette", (uint32_t)bad,
                       "non-finite palette value");
    for (i = 0; i < c->track_count; i++) {
        plumbob_clip_track *t = &c->tracks[i];
        size_t bytes, at;
        t->data_offset = plumbob_read_u32le(s);
        t->hash = plumbob_read_u32le(s);
        at = pb_reader_at(s, c->data, c->size);
        t->offset = plumbob_read_f32le(s);
        t->scale = plumbob_read_f32le(s);
        t->key_count = plumbob_read_u16le(s);
        t->curve = plumbob_read_u8(s);
        t->target = plumbob_read_u8(s);
        if (!plumbob_reader_ok(s)) return s->error;
        if (!pb_finite(t->offset)) return pb_note(err, PLUMBOB_ERR_BAD_DATA, at, "track", i, "non-finite track offset");
        if (!pb_finite(t->scale)) return pb_note(err, PLUMBOB_ERR_BAD_DATA, at + 4u, "track", i, "non-finite track scale");
        t->type = (uint16_t)(t->target << 8 | t->curve);
        pb_clip_key_layout(t->curve, t->target, t->key_count, &t->key_size, &t->components);
        if (t->key_count && !t->key_size) return PLUMBOB_ERR_UNSUPPORTED;
        bytes = (size_t)t->key_count * t->key_size;
        if (t->data_offset > c->s3clip_size || bytes > c->s3clip_size - t->data_offset)
            return PLUMBOB_ERR_BAD_OFFSET;
        t->keys = c->data + c->s3clip_pos + t->data_offset;
        for (k = 0; k < t->key_count; k++) {
            const unsigned char *key = t->keys + (size_t)k * t->key_size;
            if (k > 0 && pb_le16(key) < pb_le16(key - t->key_size)) return PLUMBOB_ERR_BAD_DATA;
            if ((t->curve & 7u) == 3) { /* palette indices must exist */
                if (pb_le16(key + 4) >= c->palette_count || pb_le16(key + 6) >= c->palette_count ||
                    pb_le16(key + 8) >= c->palette_count)
                    return PLUMBOB_ERR_BAD_DATA;
            }
        }
    }
    return PLUMBOB_OK;
}

static plumbob_result decode_slots(plumbob_clip *c) {
    plumbob_reader r, t;
    uint32_t k, j, n = 0;
    plumbob_reader_init(&r, c->data, c->size);
    t = plumbob_reader_sub(&r, c->slot_pos, c->size - c->slot_pos);
    plumbob_reader_skip(&t, 4);
    for (k = 0; k < c->chain_count; k++) {
        uint32_t off = plumbob_read_u32le(&t), count;
        size_t chain_pos = c->slot_pos + 4u + off; /* validated by read_headers */
        plumbob_reader ch = plumbob_reader_sub(&r, chain_pos, c->size - chain_pos);
        plumbob_reader_skip(&ch, 4);
        count = plumbob_read_u32le(&ch);
        for (j = 0; j < count && plumbob_reader_ok(&ch); j++) {
            uint32_t eoff = plumbob_read_u32le(&ch);
            plumbob_reader en = plumbob_reader_sub(&r, chain_pos, c->size - chain_pos);
            plumbob_clip_slot *sl = &c->slots[n++];
            size_t at;
            plumbob_reader_skip(&en, 8);
            plumbob_reader_skip(&en, eoff);
            at = chain_pos + en.pos + 4u;
            sl->chain = k;
            sl->index = plumbob_read_u32le(&en);
            sl->actor_raw = plumbob_read_bytes(&en, PB_CLIP_SLOT_NAME_SIZE);
            sl->slot_raw = plumbob_read_bytes(&en, PB_CLIP_SLOT_NAME_SIZE);
            if (!plumbob_reader_ok(&en)) return PLUMBOB_ERR_BAD_OFFSET;
            sl->actor = c_string(c->data, at, at + PB_CLIP_SLOT_NAME_SIZE);
            sl->slot = c_string(c->data, at + PB_CLIP_SLOT_NAME_SIZE, at + 2u * PB_CLIP_SLOT_NAME_SIZE);
            if (!sl->actor.ptr || !sl->slot.ptr) return PLUMBOB_ERR_BAD_DATA;
        }
        if (!plumbob_reader_ok(&ch)) return PLUMBOB_ERR_BAD_OFFSET;
    }
    return n == c->slot_count ? PLUMBOB_OK : PLUMBOB_ERR_BAD_COUNT;
}

static plumbob_result decode_events(plumbob_clip *c, plumbob_error *err) {
    plumbob_reader r, e;
    uint32_t i, start;
    size_t pos;
    plumbob_reader_init(&r, c->data, c->size);
    e = plumbob_reader_sub(&r, c->event_pos, c->size - c->event_pos);
    plumbob_reader_skip(&e, 12);
    (void)plumbob_read_u32le(&e); /* section size: checked by the writer's round trip */
    start = plumbob_read_u32le(&e);
    if (!plumbob_reader_ok(&e)) return e.error;
    pos = start ? 16u + start : 20u; /* self-relative offset of the first event */
    plumbob_reader_seek(&e, pos);
    c->events_complete = true;
    for (i = 0; i < c->event_count; i++) {
        plumbob_clip_event *ev = &c->events[i];
        uint32_t name_len, k;
        long psize;
        const unsigned char *p;
        size_t at;
        ev->type = plumbob_read_u16le(&e);
        ev->marker = plumbob_read_u16le(&e);
        ev->id = plumbob_read_u32le(&e);
        at = pb_reader_at(&e, c->data, c->size);
        ev->time = plumbob_read_f32le(&e);
        /* the time plumbob_clip_events_between compares (the two unknown floats are only kept) */
        if (plumbob_reader_ok(&e) && !pb_finite(ev->time))
            return pb_note(err, PLUMBOB_ERR_BAD_DATA, at, "event", i, "non-finite event time");
        ev->unknown[0] = plumbob_read_f32le(&e);
        ev->unknown[1] = plumbob_read_f32le(&e);
        ev->unknown3 = plumbob_read_u32le(&e);
        name_len = plumbob_read_u32le(&e);
        if (!plumbob_reader_ok(&e)) return e.error;
        p = plumbob_read_bytes(&e, name_len);
        if (!p) return PLUMBOB_ERR_TRUNCATED;
        ev->name.ptr = (const char *)p;
        ev->name.len = name_len;
        /* NUL, then zero padding to a multiple of 4 counted over name + NUL */
        plumbob_reader_skip(&e, ((name_len + 4u) & ~3u) - name_len);
        psize = pb_clip_event_payload_size(ev->type);
        if (psize < 0) {
            c->events_complete = false; /* unknown type: keep what came before */
            break;
        }
        ev->payload = plumbob_read_bytes(&e, (size_t)psize);
        ev->payload_size = (uint32_t)psize;
        if (!plumbob_reader_ok(&e)) return e.error;
        p = ev->payload;
        switch (ev->type) {
        case PLUMBOB_CLIP_EVENT_ATTACH:
            for (k = 0; k < 4; k++) ev->hash[k] = pb_le32(p + 4 * k);
            break;
        case PLUMBOB_CLIP_EVENT_UNPARENT:
        case PLUMBOB_CLIP_EVENT_DESTROY_PROP:
            ev->hash[0] = pb_le32(p);
            break;
        case PLUMBOB_CLIP_EVENT_SOUND:
            ev->sound = c_string(p, 0, 128);
            if (!ev->sound.ptr) {
                ev->sound.ptr = (const char *)p; /* no NUL in 128 bytes: all of it */
                ev->sound.len = 128;
            }
            break;
        case PLUMBOB_CLIP_EVENT_EFFECT:
            for (k = 0; k < 5; k++) ev->hash[k] = pb_le32(p + 4 * k);
            break;
        case PLUMBOB_CLIP_EVENT_VISIBILITY:
            ev->visibility = pb_f32le(p);
            break;
        case PLUMBOB_CLIP_EVENT_STOP_EFFECT:
            ev->hash[0] = pb_le32(p);
            ev->hash[1] = pb_le32(p + 4);
            break;
        default:
            break;
        }
        c->events_decoded = i + 1;
    }
    return PLUMBOB_OK;
}

plumbob_result plumbob_clip_decode_ex(const void *data, size_t size, plumbob_arena *arena,
                                      plumbob_clip *clip, plumbob_error *err) {
    plumbob_result res;
    plumbob_reader r, s;
    size_t mark;
    plumbob_error_clear(err);
    if (!data || !arena || !clip)
        return pb_note(err, PLUMBOB_ERR_INVALID_ARGUMENT, 0, "arguments", PLUMBOB_ERROR_NO_INDEX, "NULL pointer");
    res = read_headers((const unsigned char *)data, size, clip, err);
    if (res != PLUMBOB_OK) return res;
    mark = plumbob_arena_mark(arena);
    clip->tracks = (plumbob_clip_track *)plumbob_arena_alloc_array(arena, clip->track_count,
                                                                   sizeof(plumbob_clip_track), 0);
    clip->slots = (plumbob_clip_slot *)plumbob_arena_alloc_array(arena, clip->slot_count,
                                                                 sizeof(plumbob_clip_slot), 0);
    clip->events = (plumbob_clip_event *)plumbob_arena_alloc_array(arena, clip->event_count,
                                                                   sizeof(plumbob_clip_event), 0);
    if (!clip->tracks || !clip->slots || !clip->events) {
        plumbob_arena_reset(arena, mark);
        return pb_note(err, PLUMBOB_ERR_OUT_OF_MEMORY, 0, "arena", PLUMBOB_ERROR_NO_INDEX,
                       "the arena is smaller than plumbob_clip_measure says");
    }
    {
        /* zeroed event records: fields a type does not use read as 0 */
        unsigned char *z = (unsigned char *)clip->events;
        size_t i, n = (size_t)clip->event_count * sizeof(plumbob_clip_event);
        for (i = 0; i < n; i++) z[i] = 0;
    }
    plumbob_reader_init(&r, data, size);
    s = plumbob_reader_sub(&r, clip->s3clip_pos, clip->s3clip_size);
    plumbob_reader_seek(&s, pb_le32(clip->data + clip->s3clip_pos + 32)); /* track table */
    res = decode_tracks(clip, &s, err);
    if (res != PLUMBOB_OK) {
        pb_note(err, res, pb_reader_at(&s, (const unsigned char *)data, size), "track", PLUMBOB_ERROR_NO_INDEX,
                pb_reason(res));
    } else if (clip->slot_pos && (res = decode_slots(clip)) != PLUMBOB_OK) {
        pb_note(err, res, clip->slot_pos, "slot", PLUMBOB_ERROR_NO_INDEX, pb_reason(res));
    } else if (clip->event_pos && (res = decode_events(clip, err)) != PLUMBOB_OK) {
        pb_note(err, res, clip->event_pos, "event", PLUMBOB_ERROR_NO_INDEX, pb_reason(res));
    }
    if (res != PLUMBOB_OK) plumbob_arena_reset(arena, mark);
    return res;
}

plumbob_result plumbob_clip_decode(const void *data, size_t size, plumbob_arena *arena,
                                   plumbob_clip *clip) {
    return plumbob_clip_decode_ex(data, size, arena, clip, NULL);
}

float plumbob_clip_duration(const plumbob_clip *clip) {
    return clip ? (float)clip->tick_count * clip->frame_duration : 0.0f;
}
