/* Internal: the byte sink the writers emit through (counts when p is NULL,
 * refuses to pass `end`), and the Sims 2 RCOL head both Sims 2 writers use. */
#ifndef PLUMBOB_PB_SINK_H
#define PLUMBOB_PB_SINK_H

#include "plumbob/package.h"
#include "pb_bytes.h"

typedef struct pb_sink {
    unsigned char *p, *end;
    size_t n;
    int full;
} pb_sink;

static inline void pb_sink_init(pb_sink *s, void *out, size_t cap) {
    s->p = (unsigned char *)out;
    s->end = out ? s->p + cap : NULL;
    s->n = 0;
    s->full = 0;
}

static inline void pb_sink_put(pb_sink *s, const void *src, size_t n) {
    const unsigned char *b = (const unsigned char *)src;
    size_t i;
    if (s->p) {
        if ((size_t)(s->end - s->p) < n) {
            s->full = 1;
            return;
        }
        for (i = 0; i < n; i++) s->p[i] = b[i];
        s->p += n;
    }
    s->n += n;
}

static inline void pb_sink_u8(pb_sink *s, unsigned v) {
    unsigned char b = (unsigned char)(v & 0xFFu);
    pb_sink_put(s, &b, 1);
}

static inline void pb_sink_u16(pb_sink *s, unsigned v) {
    unsigned char b[2];
    pb_put_le16(b, (uint16_t)(v & 0xFFFFu));
    pb_sink_put(s, b, 2);
}

static inline void pb_sink_u32(pb_sink *s, uint32_t v) {
    unsigned char b[4];
    pb_put_le32(b, v);
    pb_sink_put(s, b, 4);
}

static inline void pb_sink_f32(pb_sink *s, float v) {
    pb_sink_u32(s, pb_bits_from_f32(v));
}

/* A 7-bit length prefixed string (the RCOL string form). */
static inline void pb_sink_str7(pb_sink *s, plumbob_string str) {
    unsigned char b[5];
    size_t len = str.len, k = 0;
    do {
        b[k] = (unsigned char)(len & 0x7Fu);
        len >>= 7;
        if (len) b[k] |= 0x80u;
        k++;
    } while (len && k < 5);
    pb_sink_put(s, b, k);
    pb_sink_put(s, str.ptr, str.len);
}

/* The RCOL header and block head of a Sims 2 resource whose first block is
 * `block_id`: copied from `source` (links and block list as they were) when
 * it is set, else a fresh header (16-byte link form, no links, one block)
 * with `class_name` and a cSGResource head (id 0, version 2). */
static inline void pb_sink_sims2_head(pb_sink *s, const unsigned char *source, const plumbob_sims2_rcol *rcol,
                                      const plumbob_sims2_block_head *head, plumbob_string class_name,
                                      uint32_t block_id, uint32_t version) {
    static const plumbob_string sg_name = {"cSGResource", 11};
    if (source) {
        pb_sink_put(s, source, rcol->first_block_offset);
    } else {
        pb_sink_u32(s, 0xFFFF0001u);
        pb_sink_u32(s, 0);
        pb_sink_u32(s, 1);
        pb_sink_u32(s, block_id);
    }
    pb_sink_str7(s, source ? head->class_name : class_name);
    pb_sink_u32(s, block_id);
    pb_sink_u32(s, version);
    pb_sink_str7(s, source ? head->sg_name : sg_name);
    pb_sink_u32(s, source ? head->sg_id : 0u);
    pb_sink_u32(s, source ? head->sg_version : 2u);
    pb_sink_str7(s, head->resource_name);
}

/* A writer's emit function, and the two public calls every writer makes
 * of it: the size (SIZE_MAX when it cannot be written) and the write. */
typedef plumbob_result (*pb_emit_fn)(const void *obj, pb_sink *s);

static inline size_t pb_emit_size(pb_emit_fn emit, const void *obj) {
    pb_sink s;
    pb_sink_init(&s, NULL, 0);
    return emit(obj, &s) == PLUMBOB_OK ? s.n : SIZE_MAX;
}

static inline plumbob_result pb_emit_to(pb_emit_fn emit, const void *obj, void *out, size_t out_cap,
                                        size_t *out_size) {
    pb_sink s;
    plumbob_result r;
    if (!out || !out_size) return PLUMBOB_ERR_INVALID_ARGUMENT;
    *out_size = 0;
    pb_sink_init(&s, out, out_cap);
    r = emit(obj, &s);
    if (r == PLUMBOB_OK) *out_size = s.n;
    return r;
}

#endif
