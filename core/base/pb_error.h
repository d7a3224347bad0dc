/* Internal: filling a caller's plumbob_error (may be NULL) with the first
 * failure of a decode, the way every `_ex` decoder does.  The offset is a
 * byte position in the caller's input, so it never exceeds its size. */
#ifndef PLUMBOB_PB_ERROR_H
#define PLUMBOB_PB_ERROR_H

#include "plumbob/base.h"

/* Records res at offset (table, index, reason) unless err already holds a
 * failure; returns res, so `return pb_note(...)` reads as one step. */
static inline plumbob_result pb_note(plumbob_error *err, plumbob_result res, size_t offset, const char *table,
                                     uint32_t index, const char *reason) {
    if (err && err->result == PLUMBOB_OK && res != PLUMBOB_OK) {
        err->result = res;
        err->offset = offset;
        err->table = table;
        err->index = index;
        err->reason = reason;
    }
    return res;
}

/* A reader's sticky error (or any code) in words, for a failure whose only
 * story is where it happened. */
static inline const char *pb_reason(plumbob_result res) {
    switch (res) {
    case PLUMBOB_ERR_TRUNCATED: return "runs past the end of the data";
    case PLUMBOB_ERR_BAD_MAGIC: return "not the expected signature or resource kind";
    case PLUMBOB_ERR_UNSUPPORTED_VERSION: return "a version this decoder does not read";
    case PLUMBOB_ERR_BAD_OFFSET: return "offset outside the data";
    case PLUMBOB_ERR_BAD_COUNT: return "count above the limit or the bytes left";
    case PLUMBOB_ERR_BAD_INDEX: return "index out of range";
    case PLUMBOB_ERR_BAD_DATA: return "a value breaks a rule of the format";
    case PLUMBOB_ERR_UNSUPPORTED: return "a feature this decoder does not implement";
    case PLUMBOB_ERR_OUT_OF_MEMORY: return "the arena is smaller than the measure call says";
    default: return "cannot be read";
    }
}

/* Where reader r stands, as a byte offset from base (the input's first
 * byte); r may be a sub-reader of it.  Clamped to size. */
static inline size_t pb_reader_at(const plumbob_reader *r, const unsigned char *base, size_t size) {
    size_t at;
    if (!r->data || !base || r->data < base) return 0;
    at = (size_t)(r->data - base) + r->pos;
    return at > size ? size : at;
}

#endif
