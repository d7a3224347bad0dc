/* Bounded reader: every read checks the end and records the first error. */
#include "plumbob/base.h"
#include "pb_bytes.h"

void plumbob_reader_init(plumbob_reader *r, const void *data, size_t size) {
    r->data = (const unsigned char *)data;
    r->size = data ? size : 0;
    r->pos = 0;
    r->error = PLUMBOB_OK;
}

void plumbob_reader_fail(plumbob_reader *r, plumbob_result err) {
    if (r->error == PLUMBOB_OK) r->error = err;
}

bool plumbob_reader_ok(const plumbob_reader *r) {
    return r->error == PLUMBOB_OK;
}

size_t plumbob_reader_remaining(const plumbob_reader *r) {
    return r->error == PLUMBOB_OK ? r->size - r->pos : 0;
}

/* Returns the next n bytes and advances, or NULL (and records truncated). */
static const unsigned char *take(plumbob_reader *r, size_t n) {
    const unsigned char *p;
    if (r->error != PLUMBOB_OK) return NULL;
    if (n > r->size - r->pos) {
        r->error = PLUMBOB_ERR_TRUNCATED;
        return NULL;
    }
    p = r->data + r->pos;
    r->pos += n;
    return p;
}

uint8_t plumbob_read_u8(plumbob_reader *r) {
    const unsigned char *p = take(r, 1);
    return p ? p[0] : 0;
}
uint16_t plumbob_read_u16le(plumbob_reader *r) {
    const unsigned char *p = take(r, 2);
    return p ? pb_le16(p) : 0;
}
uint16_t plumbob_read_u16be(plumbob_reader *r) {
    const unsigned char *p = take(r, 2);
    return p ? pb_be16(p) : 0;
}
uint32_t plumbob_read_u32le(plumbob_reader *r) {
    const unsigned char *p = take(r, 4);
    return p ? pb_le32(p) : 0;
}
uint32_t plumbob_read_u32be(plumbob_reader *r) {
    const unsigned char *p = take(r, 4);
    return p ? pb_be32(p) : 0;
}
uint64_t plumbob_read_u64le(plumbob_reader *r) {
    const unsigned char *p = take(r, 8);
    return p ? pb_le64(p) : 0;
}
uint64_t plumbob_read_u64be(plumbob_reader *r) {
    const unsigned char *p = take(r, 8);
    return p ? pb_be64(p) : 0;
}
float plumbob_read_f32le(plumbob_reader *r) {
    const unsigned char *p = take(r, 4);
    return p ? pb_f32le(p) : 0.0f;
}
float plumbob_read_f32be(plumbob_reader *r) {
    const unsigned char *p = take(r, 4);
    return p ? pb_f32_from_bits(pb_be32(p)) : 0.0f;
}

const unsigned char *plumbob_read_bytes(plumbob_reader *r, size_t n) {
    return take(r, n);
}

void plumbob_reader_skip(plumbob_reader *r, size_t n) {
    (void)take(r, n);
}

void plumbob_reader_align4(plumbob_reader *r) {
    size_t pad = (4u - (r->pos & 3u)) & 3u;
    (void)take(r, pad);
}

void plumbob_reader_seek(plumbob_reader *r, size_t pos) {
    if (r->error != PLUMBOB_OK) return;
    if (pos > r->size) {
        r->error = PLUMBOB_ERR_BAD_OFFSET;
        return;
    }
    r->pos = pos;
}

plumbob_reader plumbob_reader_sub(const plumbob_reader *r, size_t offset, size_t size) {
    plumbob_reader s;
    s.data = r->data;
    s.size = 0;
    s.pos = 0;
    s.error = r->error;
    if (s.error != PLUMBOB_OK) return s;
    if (offset > r->size || size > r->size - offset) {
        s.error = PLUMBOB_ERR_BAD_OFFSET;
        return s;
    }
    s.data = r->data + offset;
    s.size = size;
    return s;
}
