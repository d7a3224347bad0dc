/* Sims 2 ANIM (cAnimResourceConst) decoding and validation.  One walk over
 * the block serves the measure call (counting) and the decode (storing);
 * keys stay in the caller's buffer. */
#include "plumbob/sims2.h"
#include "pb_bytes.h"
#include "pb_error.h"
#include "pb_rcol2.h"
#include "pb_anim.h"
#include "pb_finite.h"

/* Pad bytes after a string section of `len` bytes: an even section is
 * padded to a multiple of 4, an odd one to 2 more than a multiple of 4
 * (the rule the games' writer follows; bytes 0, 1, 2). */
uint32_t pb_anim_pad(size_t len) {
    if (len % 2u == 0) return (uint32_t)((4u - len % 4u) % 4u);
    return len % 4u == 1u ? 1u : 3u;
}

/* Bytes per key of a packed encoding byte, 0 for an invalid one. */
uint32_t pb_anim_key_size(unsigned packed, plumbob_result *why) {
    unsigned kind = packed & 3u, f32 = (packed & PLUMBOB_ANIM_F32) != 0;
    *why = PLUMBOB_ERR_BAD_DATA;
    if (kind == 3u) return 0;
    if (!f32 && ((packed >> 2) & 3u) == 2u) {
        *why = PLUMBOB_ERR_UNSUPPORTED;
        return 0;
    }
    if (kind == PLUMBOB_ANIM_BAKED) return f32 ? 4u : 2u;
    return (f32 ? 6u : 4u) + 2u * kind; /* time + value, then 1 or 2 tangents */
}

/* A C string of `len` bytes (len < 0: up to the first NUL) and its NUL. */
static plumbob_string read_cstr(plumbob_reader *r, long len) {
    plumbob_string s = {NULL, 0};
    const unsigned char *p = r->data + r->pos;
    size_t n = 0, left = plumbob_reader_remaining(r);
    if (!plumbob_reader_ok(r)) return s;
    if (len >= 0) {
        if ((size_t)len >= left || p[len] != 0) {
            plumbob_reader_fail(r, left <= (size_t)len ? PLUMBOB_ERR_TRUNCATED : PLUMBOB_ERR_BAD_DATA);
            return s;
        }
        n = (size_t)len;
    } else {
        while (n < left && p[n] != 0) n++;
        if (n == left) {
            plumbob_reader_fail(r, PLUMBOB_ERR_TRUNCATED);
            return s;
        }
    }
    s.ptr = (const char *)p;
    s.len = n;
    plumbob_reader_skip(r, n + 1u);
    return s;
}

/* The padding after a string section that began at `start`. */
static void read_pad(plumbob_reader *r, size_t start) {
    uint32_t n, i;
    if (!plumbob_reader_ok(r)) return;
    n = pb_anim_pad(r->pos - start);
    for (i = 0; i < n; i++)
        if (plumbob_read_u8(r) != i && plumbob_reader_ok(r)) plumbob_reader_fail(r, PLUMBOB_ERR_BAD_DATA);
}

/* Filler words: every known file holds 0x11BA05F0 in each, and the writer
 * writes that, so anything else is refused (decode -> write stays exact). */
#define FILLER 0x11BA05F0u
static void filler(plumbob_reader *r, uint32_t words) {
    while (words--)
        if (plumbob_read_u32le(r) != FILLER && plumbob_reader_ok(r)) plumbob_reader_fail(r, PLUMBOB_ERR_BAD_DATA);
}

/* Records of `size` bytes: at most what the bytes left can hold (more:
 * the input ends early). */
static int fits(plumbob_reader *r, size_t count, size_t size) {
    if (!plumbob_reader_ok(r)) return 0;
    if (count > plumbob_reader_remaining(r) / size) {
        plumbob_reader_fail(r, PLUMBOB_ERR_TRUNCATED);
        return 0;
    }
    return 1;
}

static plumbob_result open_block(const unsigned char *d, size_t size, plumbob_anim *a, plumbob_reader *r,
                                 plumbob_error *err) {
    plumbob_result res;
    {
        plumbob_anim empty = {0};
        *a = empty;
    }
    a->data = d;
    a->size = size;
    res = pb_rcol2_open(&a->rcol, d, size, PLUMBOB_TYPE_ANIM, err); /* notes where it refused */
    if (res != PLUMBOB_OK) return res;
    plumbob_reader_init(r, d, size);
    plumbob_reader_seek(r, a->rcol.first_block_offset);
    res = plumbob_sims2_block_head_read(r, &a->head);
    if (res != PLUMBOB_OK) return res;
    return a->head.block_id == PLUMBOB_TYPE_ANIM ? PLUMBOB_OK : PLUMBOB_ERR_BAD_MAGIC;
}

/* Key times of timed components must not go backwards. */
static plumbob_result check_key_order(const plumbob_anim_component *c) {
    uint32_t k, prev = 0;
    if ((c->packed & 3u) == PLUMBOB_ANIM_BAKED) return PLUMBOB_OK;
    for (k = 0; k < c->key_count; k++) {
        uint32_t t = pb_anim_key_time(c, k);
        if (t < prev) return PLUMBOB_ERR_BAD_DATA;
        prev = t;
    }
    return PLUMBOB_OK;
}

/* The first non-finite float of n keys of `packed` at p (issue 47): an f32
 * value, or a half-float tangent whose exponent is all ones.  Returns the
 * byte offset from p and sets *why, or returns SIZE_MAX when all are
 * finite.  Fixed-point values cannot be non-finite. */
static size_t first_nonfinite_key(const unsigned char *p, uint32_t n, unsigned packed, uint32_t ksize,
                                  const char **why) {
    unsigned kind = packed & 3u, f32 = (packed & PLUMBOB_ANIM_F32) != 0;
    uint32_t k, t, tangents = kind == PLUMBOB_ANIM_BAKED ? 0u : kind; /* 1 continuous, 2 discontinuous */
    size_t value_at = kind == PLUMBOB_ANIM_BAKED ? 0u : 2u, tangent_at = f32 ? 6u : 4u;
    for (k = 0; k < n; k++, p += ksize) {
        if (f32 && !pb_finite_bits(pb_le32(p + value_at))) {
            *why = "non-finite key value";
            return (size_t)k * ksize + value_at;
        }
        for (t = 0; t < tangents; t++)
            if ((pb_le16(p + tangent_at + 2u * t) & 0x7C00u) == 0x7C00u) {
                *why = "non-finite key tangent";
                return (size_t)k * ksize + tangent_at + 2u * t;
            }
    }
    return SIZE_MAX;
}

/* Walks the block.  store: fill the arrays (sized by a counting walk). */
static plumbob_result walk(plumbob_reader *r, plumbob_anim *a, int store, plumbob_error *err) {
    uint32_t i, k, size_field, dlen, tlen, sum;
    size_t body, start;
    plumbob_result why = PLUMBOB_OK;
    size_field = plumbob_read_u32le(r);
    body = r->pos;
    if (plumbob_reader_ok(r) && size_field > plumbob_reader_remaining(r)) plumbob_reader_fail(r, PLUMBOB_ERR_TRUNCATED);
    a->duration = plumbob_read_u16le(r);
    a->target_count = plumbob_read_u16le(r);
    a->event_count = plumbob_read_u16le(r);
    dlen = plumbob_read_u8(r);
    a->version = plumbob_read_u8(r);
    a->type = plumbob_read_u8(r);
    a->priority = plumbob_read_u8(r);
    a->locomotion = plumbob_read_u8(r);
    tlen = plumbob_read_u8(r);
    filler(r, 4);
    for (i = 0; i < 9; i++) a->params[i] = plumbob_read_f32le(r);
    start = r->pos;
    a->skeleton = read_cstr(r, (long)tlen);
    a->data_string = read_cstr(r, (long)dlen);
    read_pad(r, start);

    /* targets (28 bytes each), then their names */
    if (!fits(r, a->target_count, 28)) return r->error;
    start = r->pos;
    for (i = 0, sum = 0; i < a->target_count && plumbob_reader_ok(r); i++) {
        plumbob_anim_target t = {{NULL, 0}, 0, 0, 0, 0, 0};
        filler(r, 2);
        t.kind = plumbob_read_u16le(r);
        t.channel_count = plumbob_read_u16le(r);
        t.ik_chain_count = plumbob_read_u8(r);
        t.unknown = plumbob_read_u8(r);
        plumbob_reader_skip(r, 2); /* name length: checked with the name */
        filler(r, 3);
        t.first_channel = sum;
        sum += t.channel_count;
        a->ik_chain_count += t.ik_chain_count;
        if (store) a->targets[i] = t;
    }
    a->channel_count = sum;
    {
        size_t records = start;
        start = r->pos;
        for (i = 0; i < a->target_count && plumbob_reader_ok(r); i++) {
            plumbob_string name = read_cstr(r, (long)pb_le16(r->data + records + 28u * i + 14u));
            if (store) a->targets[i].name = name;
        }
    }
    read_pad(r, start);

    /* channels (24 bytes each), then their names */
    if (!fits(r, a->channel_count, 24)) return r->error;
    for (i = 0, sum = 0, k = 0; i < a->channel_count && plumbob_reader_ok(r); i++) {
        uint32_t crc, flags;
        filler(r, 2);
        crc = plumbob_read_u32le(r);
        filler(r, 1);
        flags = plumbob_read_u32le(r);
        filler(r, 1);
        if (store) {
            plumbob_anim_channel *c = &a->channels[i];
            c->crc = crc;
            c->flags = flags;
            c->first_component = sum;
            while (k + 1u < a->target_count && a->targets[k + 1u].first_channel <= i) k++;
            c->target = k;
        }
        sum += PLUMBOB_ANIM_COMPONENTS(flags);
    }
    a->component_count = sum;
    start = r->pos;
    for (i = 0; i < a->channel_count && plumbob_reader_ok(r); i++) {
        plumbob_string s = read_cstr(r, -1);
        if (store) a->channels[i].name = s;
    }
    read_pad(r, start);

    /* components (8 bytes each), then every key */
    if (!fits(r, a->component_count, 8)) return r->error;
    start = r->pos;
    for (i = 0, k = 0; i < a->component_count && plumbob_reader_ok(r); i++) {
        uint16_t keys = plumbob_read_u16le(r);
        uint8_t packed = plumbob_read_u8(r), reserved = plumbob_read_u8(r);
        filler(r, 1);
        if (store) {
            plumbob_anim_component *c = &a->components[i];
            c->key_count = keys;
            c->packed = packed;
            c->reserved = reserved;
            while (k + 1u < a->channel_count && a->channels[k + 1u].first_component <= i) k++;
            c->channel = k;
        }
    }
    for (i = 0; i < a->component_count && plumbob_reader_ok(r); i++) {
        /* the counting walk has no component array: re-read the record */
        const unsigned char *rec = r->data + start + 8u * i;
        uint32_t keys = pb_le16(rec), ksize = pb_anim_key_size(rec[2], &why);
        if (!ksize) {
            plumbob_reader_fail(r, why);
            break;
        }
        if (!fits(r, keys, ksize)) break;
        {
            const char *bad_why = NULL;
            size_t bad = first_nonfinite_key(r->data + r->pos, keys, rec[2], ksize, &bad_why);
            if (bad != SIZE_MAX) {
                plumbob_reader_fail(r, PLUMBOB_ERR_BAD_DATA);
                return pb_note(err, PLUMBOB_ERR_BAD_DATA, r->pos + bad, "component", i, bad_why);
            }
        }
        if (store) {
            a->components[i].key_size = ksize;
            a->components[i].keys = r->data + r->pos;
            why = check_key_order(&a->components[i]);
            if (why != PLUMBOB_OK) plumbob_reader_fail(r, why);
        }
        plumbob_reader_skip(r, (size_t)keys * ksize);
    }

    /* IK chains (70 bytes), IK targets (43 bytes), events (14 bytes + text) */
    if (!fits(r, a->ik_chain_count, PLUMBOB_ANIM_RECORD_IK_CHAIN)) return r->error;
    for (i = 0, sum = 0; i < a->ik_chain_count && plumbob_reader_ok(r); i++) {
        const unsigned char *rec = plumbob_read_bytes(r, PLUMBOB_ANIM_RECORD_IK_CHAIN);
        if (!rec) break;
        sum += rec[10];
        if (store) {
            a->ik_chains[i].record = rec;
            a->ik_chains[i].target_count = rec[10];
        }
    }
    a->ik_target_count = sum;
    if (!fits(r, a->ik_target_count, PLUMBOB_ANIM_RECORD_IK_TARGET)) return r->error;
    for (i = 0; i < a->ik_target_count && plumbob_reader_ok(r); i++) {
        const unsigned char *rec = plumbob_read_bytes(r, PLUMBOB_ANIM_RECORD_IK_TARGET);
        if (!rec) break;
        if (pb_le16(rec + 10) >= a->ik_chain_count) plumbob_reader_fail(r, PLUMBOB_ERR_BAD_INDEX);
        if (store) {
            a->ik_targets[i].record = rec;
            a->ik_targets[i].chain = pb_le16(rec + 10);
        }
    }
    if (!fits(r, a->event_count, 14)) return r->error;
    start = r->pos;
    for (i = 0; i < a->event_count && plumbob_reader_ok(r); i++) {
        filler(r, 1);
        plumbob_reader_skip(r, 6);
        filler(r, 1);
    }
    for (i = 0; i < a->event_count && plumbob_reader_ok(r); i++) {
        const unsigned char *rec = r->data + start + 14u * i;
        plumbob_string s = read_cstr(r, (long)pb_le16(rec + 8));
        if (store) {
            a->events[i].time = pb_le16(rec + 4);
            a->events[i].type = pb_le16(rec + 6);
            a->events[i].text = s;
        }
    }
    if (plumbob_reader_ok(r) && r->pos - body != size_field) plumbob_reader_fail(r, PLUMBOB_ERR_BAD_COUNT);
    a->end_pos = r->pos;
    return r->error;
}

/* The first failure of open_block or walk, at the reader's position. */
static plumbob_result anim_fail(plumbob_error *err, plumbob_result res, const plumbob_reader *r,
                                const void *data, size_t size) {
    return pb_note(err, res, pb_reader_at(r, (const unsigned char *)data, size), "anim", PLUMBOB_ERROR_NO_INDEX,
                   pb_reason(res));
}

plumbob_result plumbob_anim_measure_ex(const void *data, size_t size, size_t *arena_bytes, plumbob_error *err) {
    plumbob_anim a;
    plumbob_reader r;
    plumbob_result res;
    size_t need = 0;
    plumbob_error_clear(err);
    if (arena_bytes) *arena_bytes = SIZE_MAX;
    if (!data || !arena_bytes)
        return pb_note(err, PLUMBOB_ERR_INVALID_ARGUMENT, 0, "arguments", PLUMBOB_ERROR_NO_INDEX, "NULL pointer");
    plumbob_reader_init(&r, data, size);
    res = open_block((const unsigned char *)data, size, &a, &r, err);
    if (res == PLUMBOB_OK) res = walk(&r, &a, 0, err);
    if (res != PLUMBOB_OK) return anim_fail(err, res, &r, data, size);
    plumbob_size_add(&need, plumbob_arena_need(a.target_count, sizeof(plumbob_anim_target)));
    plumbob_size_add(&need, plumbob_arena_need(a.channel_count, sizeof(plumbob_anim_channel)));
    plumbob_size_add(&need, plumbob_arena_need(a.component_count, sizeof(plumbob_anim_component)));
    plumbob_size_add(&need, plumbob_arena_need(a.ik_chain_count, sizeof(plumbob_anim_ik_chain)));
    plumbob_size_add(&need, plumbob_arena_need(a.ik_target_count, sizeof(plumbob_anim_ik_target)));
    plumbob_size_add(&need, plumbob_arena_need(a.event_count, sizeof(plumbob_anim_event)));
    *arena_bytes = need;
    return PLUMBOB_OK;
}

plumbob_result plumbob_anim_measure(const void *data, size_t size, size_t *arena_bytes) {
    return plumbob_anim_measure_ex(data, size, arena_bytes, NULL);
}

plumbob_result plumbob_anim_decode_ex(const void *data, size_t size, plumbob_arena *arena, plumbob_anim *a,
                                      plumbob_error *err) {
    plumbob_reader r;
    plumbob_result res;
    plumbob_anim counted;
    size_t mark;
    plumbob_error_clear(err);
    if (!data || !arena || !a)
        return pb_note(err, PLUMBOB_ERR_INVALID_ARGUMENT, 0, "arguments", PLUMBOB_ERROR_NO_INDEX, "NULL pointer");
    plumbob_reader_init(&r, data, size);
    res = open_block((const unsigned char *)data, size, &counted, &r, err);
    if (res == PLUMBOB_OK) res = walk(&r, &counted, 0, err);
    if (res != PLUMBOB_OK) return anim_fail(err, res, &r, data, size);
    res = open_block((const unsigned char *)data, size, a, &r, err);
    if (res != PLUMBOB_OK) return anim_fail(err, res, &r, data, size);
    mark = plumbob_arena_mark(arena);
    a->targets = (plumbob_anim_target *)plumbob_arena_alloc_array(arena, counted.target_count, sizeof(plumbob_anim_target), 0);
    a->channels = (plumbob_anim_channel *)plumbob_arena_alloc_array(arena, counted.channel_count, sizeof(plumbob_anim_channel), 0);
    a->components = (plumbob_anim_component *)plumbob_arena_alloc_array(arena, counted.component_count, sizeof(plumbob_anim_component), 0);
    a->ik_chains = (plumbob_anim_ik_chain *)plumbob_arena_alloc_array(arena, counted.ik_chain_count, sizeof(plumbob_anim_ik_chain), 0);
    a->ik_targets = (plumbob_anim_ik_target *)plumbob_arena_alloc_array(arena, counted.ik_target_count, sizeof(plumbob_anim_ik_target), 0);
    a->events = (plumbob_anim_event *)plumbob_arena_alloc_array(arena, counted.event_count, sizeof(plumbob_anim_event), 0);
    if (!a->targets || !a->channels || !a->components || !a->ik_chains || !a->ik_targets || !a->events) {
        plumbob_arena_reset(arena, mark);
        return pb_note(err, PLUMBOB_ERR_OUT_OF_MEMORY, 0, "arena", PLUMBOB_ERROR_NO_INDEX,
                       "the arena is smaller than plumbob_anim_measure says");
    }
    res = walk(&r, a, 1, err);
    if (res != PLUMBOB_OK) {
        plumbob_arena_reset(arena, mark);
        return anim_fail(err, res, &r, data, size);
    }
    return res;
}

plumbob_result plumbob_anim_decode(const void *data, size_t size, plumbob_arena *arena, plumbob_anim *a) {
    return plumbob_anim_decode_ex(data, size, arena, a, NULL);
}
