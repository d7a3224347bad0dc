/* Sims 3 KEY resources: the instance id -> name table of a package. */
#include "plumbob/package.h"
#include "pb_bytes.h"
#include "pb_error.h"

plumbob_result plumbob_key_table_open_ex(plumbob_key_table *kt, const void *data, size_t size, plumbob_error *err) {
    plumbob_reader r;
    uint32_t i;
    plumbob_error_clear(err);
    if (!kt || (!data && size)) return pb_note(err, PLUMBOB_ERR_INVALID_ARGUMENT, 0, "arguments", PLUMBOB_ERROR_NO_INDEX, "NULL pointer");
    plumbob_reader_init(&r, data, size);
    kt->data = (const unsigned char *)data;
    kt->size = size;
    kt->version = plumbob_read_u32le(&r);
    kt->count = plumbob_read_u32le(&r);
    if (!plumbob_reader_ok(&r)) return pb_note(err, r.error, r.pos, "header", PLUMBOB_ERROR_NO_INDEX, pb_reason(r.error));
    /* the version (1 in every KEY table) is the only signature one has */
    if (kt->version != PLUMBOB_KEY_TABLE_VERSION)
        return pb_note(err, PLUMBOB_ERR_BAD_MAGIC, 0, "header", PLUMBOB_ERROR_NO_INDEX, "version not 1: not a KEY table");
    if (kt->count > plumbob_reader_remaining(&r) / 12u) /* the input ends early */
        return pb_note(err, PLUMBOB_ERR_TRUNCATED, 4, "header", PLUMBOB_ERROR_NO_INDEX, pb_reason(PLUMBOB_ERR_TRUNCATED));
    for (i = 0; i < kt->count && plumbob_reader_ok(&r); i++) {
        uint32_t len;
        size_t at = r.pos;
        plumbob_reader_skip(&r, 8);
        len = plumbob_read_u32le(&r);
        plumbob_reader_skip(&r, len);
        if (!plumbob_reader_ok(&r)) pb_note(err, r.error, at, "entry", i, pb_reason(r.error));
    }
    return r.error;
}

plumbob_result plumbob_key_table_open(plumbob_key_table *kt, const void *data, size_t size) {
    return plumbob_key_table_open_ex(kt, data, size, NULL);
}

/* Walks to entry i; entries are variable-length, so this is linear. */
static void seek_entry(const plumbob_key_table *kt, uint32_t i, plumbob_reader *r) {
    uint32_t k;
    plumbob_reader_init(r, kt->data, kt->size);
    plumbob_reader_skip(r, 8);
    for (k = 0; k < i; k++) {
        plumbob_reader_skip(r, 8);
        plumbob_reader_skip(r, plumbob_read_u32le(r));
    }
}

static void read_entry(plumbob_reader *r, uint64_t *instance, plumbob_string *name) {
    uint32_t len;
    *instance = plumbob_read_u64le(r);
    len = plumbob_read_u32le(r);
    name->ptr = (const char *)plumbob_read_bytes(r, len);
    name->len = name->ptr ? len : 0;
}

plumbob_result plumbob_key_table_entry(const plumbob_key_table *kt, uint32_t i, uint64_t *instance,
                                       plumbob_string *name) {
    plumbob_reader r;
    if (!kt || !instance || !name) return PLUMBOB_ERR_INVALID_ARGUMENT;
    if (i >= kt->count) return PLUMBOB_ERR_BAD_INDEX;
    seek_entry(kt, i, &r);
    read_entry(&r, instance, name);
    return r.error;
}

plumbob_result plumbob_key_table_find(const plumbob_key_table *kt, uint64_t instance,
                                      plumbob_string *name) {
    plumbob_reader r;
    uint32_t i;
    if (!kt || !name) return PLUMBOB_ERR_INVALID_ARGUMENT;
    seek_entry(kt, 0, &r);
    for (i = 0; i < kt->count && plumbob_reader_ok(&r); i++) {
        uint64_t inst;
        read_entry(&r, &inst, name);
        if (inst == instance && plumbob_reader_ok(&r)) return PLUMBOB_OK;
    }
    name->ptr = NULL;
    name->len = 0;
    return r.error != PLUMBOB_OK ? r.error : PLUMBOB_ERR_NOT_FOUND;
}

/* The entries' extent: the header and every entry, walked as open checked. */
size_t plumbob_key_table_write_size(const plumbob_key_table *kt) {
    plumbob_reader r;
    uint32_t i;
    if (!kt || (!kt->data && kt->size)) return SIZE_MAX;
    seek_entry(kt, 0, &r);
    for (i = 0; i < kt->count && plumbob_reader_ok(&r); i++) {
        plumbob_reader_skip(&r, 8);
        plumbob_reader_skip(&r, plumbob_read_u32le(&r));
    }
    return plumbob_reader_ok(&r) ? r.pos : SIZE_MAX;
}

plumbob_result plumbob_key_table_write(const plumbob_key_table *kt, void *out, size_t out_cap, size_t *out_size) {
    unsigned char *o = (unsigned char *)out;
    size_t need = plumbob_key_table_write_size(kt), at = 8;
    plumbob_reader r;
    uint32_t i, k;
    if (out_size) *out_size = 0;
    if (!out || !out_size || need == SIZE_MAX) return PLUMBOB_ERR_INVALID_ARGUMENT;
    if (out_cap < need) return PLUMBOB_ERR_OUT_OF_MEMORY;
    pb_put_le32(o, kt->version);
    pb_put_le32(o + 4, kt->count);
    seek_entry(kt, 0, &r);
    for (i = 0; i < kt->count; i++) { /* field by field, as a table built from names would be */
        uint64_t instance;
        plumbob_string name;
        read_entry(&r, &instance, &name);
        pb_put_le64(o + at, instance);
        pb_put_le32(o + at + 8, (uint32_t)name.len);
        at += 12;
        for (k = 0; k < name.len; k++) o[at + k] = (unsigned char)name.ptr[k];
        at += name.len;
    }
    *out_size = at;
    return PLUMBOB_OK;
}
