/* Sims 2 RCOL: links, block ids and the common block head (shared by GMDC,
 * ANIM and every other Sims 2 scenegraph resource). */
#include "plumbob/package.h"
#include "pb_bytes.h"
#include "pb_error.h"
#include "pb_rcol2.h"

plumbob_string plumbob_read_string7(plumbob_reader *r) {
    plumbob_string s = {NULL, 0};
    size_t len = 0;
    unsigned shift = 0;
    for (;;) {
        uint8_t b = plumbob_read_u8(r);
        if (!plumbob_reader_ok(r)) return s;
        len |= (size_t)(b & 0x7Fu) << shift;
        if (!(b & 0x80u)) {
            if (b == 0 && shift > 0) { /* a padded, non-canonical length */
                plumbob_reader_fail(r, PLUMBOB_ERR_BAD_DATA);
                return s;
            }
            break;
        }
        shift += 7;
        if (shift > 28) {
            plumbob_reader_fail(r, PLUMBOB_ERR_BAD_DATA);
            return s;
        }
    }
    s.ptr = (const char *)plumbob_read_bytes(r, len);
    s.len = s.ptr ? len : 0;
    return s;
}

plumbob_result pb_rcol2_open(plumbob_sims2_rcol *rc, const void *data, size_t size, uint32_t kind,
                             plumbob_error *err) {
    static const char not_rcol[] = "neither a link count nor the 0xFFFF0001 marker: not a Sims 2 RCOL";
    plumbob_reader r;
    uint32_t first;
    size_t link_size, fit;
    if (!rc || (!data && size))
        return pb_note(err, PLUMBOB_ERR_INVALID_ARGUMENT, 0, "arguments", PLUMBOB_ERROR_NO_INDEX, "NULL pointer");
    plumbob_reader_init(&r, data, size);
    rc->data = (const unsigned char *)data;
    rc->size = size;
    first = plumbob_read_u32le(&r);
    if (plumbob_reader_ok(&r) && first != 0xFFFF0001u && first > PLUMBOB_SIMS2_MAX_LINKS)
        return pb_note(err, PLUMBOB_ERR_BAD_MAGIC, 0, "rcol", PLUMBOB_ERROR_NO_INDEX, not_rcol);
    rc->long_links = first == 0xFFFF0001u;
    rc->link_count = rc->long_links ? plumbob_read_u32le(&r) : first;
    if (!plumbob_reader_ok(&r))
        return pb_note(err, r.error, size, "rcol", PLUMBOB_ERROR_NO_INDEX, "the link count runs past the end");
    if (rc->link_count > PLUMBOB_SIMS2_MAX_LINKS)
        return pb_note(err, PLUMBOB_ERR_BAD_COUNT, 4, "rcol", PLUMBOB_ERROR_NO_INDEX, "more than 65,536 links");
    link_size = rc->long_links ? 16u : 12u;
    rc->links_offset = r.pos;
    fit = plumbob_reader_remaining(&r) / link_size;
    if (rc->link_count > fit)
        return pb_note(err, PLUMBOB_ERR_TRUNCATED, r.pos + fit * link_size, "link", (uint32_t)fit,
                       "the link list runs past the end");
    plumbob_reader_skip(&r, rc->link_count * link_size);
    rc->block_count = plumbob_read_u32le(&r);
    if (!plumbob_reader_ok(&r))
        return pb_note(err, r.error, r.pos, "rcol", PLUMBOB_ERROR_NO_INDEX, "the block count runs past the end");
    if (rc->block_count == 0 || rc->block_count > PLUMBOB_SIMS2_MAX_BLOCKS)
        return pb_note(err, PLUMBOB_ERR_BAD_MAGIC, r.pos - 4u, "rcol", PLUMBOB_ERROR_NO_INDEX,
                       "a block count of 0 or above 4,096: not a Sims 2 RCOL");
    rc->block_ids_offset = r.pos;
    /* the kind is known from the first id, before the rest must fit */
    if (kind && plumbob_reader_remaining(&r) >= 4u && pb_le32(rc->data + r.pos) != kind)
        return pb_note(err, PLUMBOB_ERR_BAD_MAGIC, r.pos, "rcol", 0, "the first block is of another kind");
    fit = plumbob_reader_remaining(&r) / 4u;
    if (rc->block_count > fit)
        return pb_note(err, PLUMBOB_ERR_TRUNCATED, r.pos + fit * 4u, "block id", (uint32_t)fit,
                       "the block id list runs past the end");
    plumbob_reader_skip(&r, (size_t)rc->block_count * 4u);
    rc->first_block_offset = r.pos;
    return PLUMBOB_OK;
}

plumbob_result plumbob_sims2_rcol_open(plumbob_sims2_rcol *rc, const void *data, size_t size) {
    return pb_rcol2_open(rc, data, size, 0, NULL);
}

plumbob_result plumbob_sims2_rcol_link(const plumbob_sims2_rcol *rc, uint32_t i,
                                       plumbob_sims2_link *out) {
    const unsigned char *p;
    if (!rc || !out) return PLUMBOB_ERR_INVALID_ARGUMENT;
    if (i >= rc->link_count) return PLUMBOB_ERR_BAD_INDEX;
    p = rc->data + rc->links_offset + (size_t)i * (rc->long_links ? 16u : 12u);
    out->group = pb_le32(p);
    out->instance = pb_le32(p + 4);
    if (rc->long_links) {
        out->instance_hi = pb_le32(p + 8);
        out->type = pb_le32(p + 12);
    } else {
        out->instance_hi = 0;
        out->type = pb_le32(p + 8);
    }
    return PLUMBOB_OK;
}

uint32_t plumbob_sims2_rcol_block_id(const plumbob_sims2_rcol *rc, uint32_t i) {
    if (!rc || i >= rc->block_count) return 0;
    return pb_le32(rc->data + rc->block_ids_offset + (size_t)i * 4u);
}

/* The cSGResource head and the resource name, at r's position. */
static void read_sg(plumbob_reader *r, plumbob_sims2_block_head *out) {
    static const char sg[] = "cSGResource";
    size_t i;
    out->sg_name = plumbob_read_string7(r);
    if (plumbob_reader_ok(r)) {
        int same = out->sg_name.len == sizeof sg - 1u;
        for (i = 0; same && i < out->sg_name.len; i++) same = out->sg_name.ptr[i] == sg[i];
        if (!same) plumbob_reader_fail(r, PLUMBOB_ERR_BAD_MAGIC);
    }
    out->sg_id = plumbob_read_u32le(r);
    out->sg_version = plumbob_read_u32le(r);
    out->resource_name = plumbob_read_string7(r);
}

plumbob_result plumbob_sims2_block_head_read(plumbob_reader *r, plumbob_sims2_block_head *out) {
    if (!r || !out) return PLUMBOB_ERR_INVALID_ARGUMENT;
    out->class_name = plumbob_read_string7(r);
    out->block_id = plumbob_read_u32le(r);
    out->version = plumbob_read_u32le(r);
    read_sg(r, out);
    return r->error;
}

plumbob_result plumbob_sims2_rcol_name(const plumbob_sims2_rcol *rc, plumbob_string *name) {
    plumbob_reader r;
    plumbob_sims2_block_head h;
    if (name) {
        name->ptr = NULL;
        name->len = 0;
    }
    if (!rc || !rc->data || !name) return PLUMBOB_ERR_INVALID_ARGUMENT;
    plumbob_reader_init(&r, rc->data, rc->size);
    plumbob_reader_seek(&r, rc->first_block_offset);
    if (plumbob_sims2_rcol_block_id(rc, 0) != PLUMBOB_TYPE_CRES) {
        if (plumbob_sims2_block_head_read(&r, &h) != PLUMBOB_OK) return r.error;
    } else {
        /* cResourceNode: its class head, a form byte, then (form 1 only)
         * the cSGResource head and the name */
        (void)plumbob_read_string7(&r);
        plumbob_reader_skip(&r, 8);
        if (plumbob_read_u8(&r) != 1) return r.error;
        read_sg(&r, &h);
        if (!plumbob_reader_ok(&r)) return r.error;
    }
    *name = h.resource_name;
    return PLUMBOB_OK;
}
