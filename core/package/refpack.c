/* RefPack decompression: bounds-checked, never writes past the declared size.
 *
 * Commands (b0 is the first byte; "lit" literal bytes follow the command and
 * are copied first, then "len" bytes are copied from "off" bytes back):
 *   0xxxxxxx  2 bytes  lit b0&3, len 3..10,  off 1..1024
 *   10xxxxxx  3 bytes  lit b1>>6, len 4..67, off 1..16384
 *   110xxxxx  4 bytes  lit b0&3, len 5..1028, off 1..131072
 *   111xxxxx  1 byte   0xE0..0xFB: 4..112 literals, no copy
 *             1 byte   0xFC..0xFF: stop, 0..3 trailing literals */
#include "plumbob/package.h"
#include "pb_copy.h"
#include "pb_error.h"

plumbob_result plumbob_refpack_header(const void *src, size_t src_size, size_t *decompressed_size,
                                      size_t *header_size) {
    const unsigned char *p = (const unsigned char *)src;
    size_t width, need, i, v = 0;
    if (!src || !decompressed_size || !header_size) return PLUMBOB_ERR_INVALID_ARGUMENT;
    if (src_size < 2) return PLUMBOB_ERR_TRUNCATED;
    /* flags: 0x10 always; 0x01 compressed size first; 0x80 4-byte sizes;
     * 0x40 ("restricted window", which some encoders set) changes nothing
     * in how the stream decodes */
    if (p[1] != 0xFBu || (p[0] & 0x10u) == 0 || (p[0] & ~0xD1u) != 0) return PLUMBOB_ERR_BAD_MAGIC;
    width = (p[0] & 0x80u) ? 4u : 3u;
    need = 2u + width * ((p[0] & 0x01u) ? 2u : 1u); /* optional compressed size first */
    if (src_size < need) return PLUMBOB_ERR_TRUNCATED;
    for (i = need - width; i < need; i++) v = (v << 8) | p[i];
    *decompressed_size = v;
    *header_size = need;
    return PLUMBOB_OK;
}

/* Copies len bytes from off bytes back in whole 16- or 8-byte moves (a move
 * never overlaps its own source, because off is at least its width), so up
 * to 15 bytes past op + len are written; the caller leaves that room.
 * Offsets under 8 repeat a short pattern and go byte by byte. */
static void copy_match(unsigned char *op, size_t off, size_t len) {
    const unsigned char *from = op - off;
    size_t k;
    if (off >= 16) {
        for (k = 0; k < len; k += 16) PB_COPY16(op + k, from + k);
    } else if (off >= 8) {
        for (k = 0; k < len; k += 8) PB_COPY8(op + k, from + k);
    } else {
        for (k = 0; k < len; k++) op[k] = from[k];
    }
}

/* Input and output slack the fast loop keeps: a copy command is at most 4
 * bytes and its up-to-3 literals are moved as 8; a literal run or a match
 * is moved in 16-byte steps. */
#define FAST_IN 20u
#define FAST_OUT 48u

/* The fast loop: while both buffers have slack, a command costs one bound
 * test and whole-word moves that may run past its end (inside the
 * buffers; later commands overwrite the extra bytes).  The forms are
 * tested most common first (a branchless select of all three copy forms
 * measured slower: it lengthens the chain to the next command's address).
 * A command that would fail a check, the stop command and the last bytes
 * are left to the careful loop, so errors and output are the same as
 * without this loop. */
static void decompress_fast(const unsigned char **ipp, const unsigned char *iend, unsigned char **opp,
                            unsigned char *obase, unsigned char *oend) {
    const unsigned char *ip = *ipp;
    unsigned char *op = *opp;
    while ((size_t)(iend - ip) >= FAST_IN && (size_t)(oend - op) >= FAST_OUT) {
        size_t b0 = ip[0], b1 = ip[1], n, lit, len, off;
        if (b0 < 0x80u) { /* the most common form first */
            n = 2;
            lit = b0 & 3u;
            len = ((b0 >> 2) & 7u) + 3u;
            off = ((b0 & 0x60u) << 3) + b1 + 1u;
        } else if (b0 < 0xC0u) {
            n = 3;
            lit = b1 >> 6;
            len = (b0 & 0x3Fu) + 4u;
            off = ((b1 & 0x3Fu) << 8) + ip[2] + 1u;
        } else if (b0 < 0xE0u) {
            n = 4;
            lit = b0 & 3u;
            len = ((b0 & 0x0Cu) << 6) + ip[3] + 5u;
            off = ((b0 & 0x10u) << 12) + (b1 << 8) + ip[2] + 1u;
        } else if (b0 < 0xFCu) {
            /* a literal run of 4..112 bytes: two 16-byte moves cover most */
            size_t k;
            lit = ((b0 & 0x1Fu) << 2) + 4u;
            if (lit + 32u > (size_t)(iend - ip) || lit + 32u > (size_t)(oend - op)) break;
            PB_COPY16(op, ip + 1);
            PB_COPY16(op + 16, ip + 17);
            for (k = 32; k < lit; k += 16) PB_COPY16(op + k, ip + 1 + k);
            ip += 1u + lit;
            op += lit;
            continue;
        } else {
            break; /* stop */
        }
        if (off > (size_t)(op - obase) + lit || len + lit + 16u > (size_t)(oend - op)) break;
        PB_COPY8(op, ip + n);
        ip += n + lit;
        op += lit;
        if (off >= 16u) {
            PB_COPY16(op, op - off);
            if (len > 16u) copy_match(op + 16, off, len - 16u);
        } else if (off >= 8u && len <= 8u) {
            PB_COPY8(op, op - off);
        } else {
            copy_match(op, off, len);
        }
        op += len;
    }
    *ipp = ip;
    *opp = op;
}

/* A refusal of the command at `at` (an offset in src), noted in err. */
#define CMD_FAIL(code, why) \
    return pb_note(err, (code), (size_t)(cmd - (const unsigned char *)src), "command", PLUMBOB_ERROR_NO_INDEX, (why))

plumbob_result plumbob_refpack_decompress_ex(const void *src, size_t src_size, void *dst, size_t dst_cap,
                                             size_t *out_size, plumbob_error *err) {
    const unsigned char *ip, *iend, *cmd;
    unsigned char *op, *oend, *obase;
    size_t size, hdr;
    plumbob_result r;
    plumbob_error_clear(err);
    if ((!dst && dst_cap) || !out_size || !src)
        return pb_note(err, PLUMBOB_ERR_INVALID_ARGUMENT, 0, "arguments", PLUMBOB_ERROR_NO_INDEX, "NULL pointer");
    *out_size = 0;
    r = plumbob_refpack_header(src, src_size, &size, &hdr);
    if (r == PLUMBOB_ERR_BAD_MAGIC)
        return pb_note(err, r, 0, "header", PLUMBOB_ERROR_NO_INDEX, "not a RefPack header (flags, then 0xFB)");
    if (r != PLUMBOB_OK)
        return pb_note(err, r, src_size, "header", PLUMBOB_ERROR_NO_INDEX, "the header runs past the end");
    if (size > dst_cap)
        return pb_note(err, PLUMBOB_ERR_OUT_OF_MEMORY, hdr - ((((const unsigned char *)src)[0] & 0x80u) ? 4u : 3u),
                       "header", PLUMBOB_ERROR_NO_INDEX, "the declared size is above dst_cap");
    ip = (const unsigned char *)src + hdr;
    iend = (const unsigned char *)src + src_size;
    obase = op = (unsigned char *)dst;
    oend = obase + size;
    decompress_fast(&ip, iend, &op, obase, oend);
    for (;;) {
        size_t lit, len = 0, off = 0, avail = (size_t)(iend - ip), k;
        unsigned b0;
        int stop = 0;
        cmd = ip;
        if (avail == 0) {
            /* A stream that fills its output exactly may end without a stop. */
            if (op == oend) break;
            CMD_FAIL(PLUMBOB_ERR_TRUNCATED, "the stream ends before its output is complete");
        }
        b0 = ip[0];
        if (b0 < 0x80u) {
            if (avail < 2) CMD_FAIL(PLUMBOB_ERR_TRUNCATED, "a 2-byte command runs past the end");
            lit = b0 & 3u;
            len = ((b0 >> 2) & 7u) + 3u;
            off = (((size_t)b0 & 0x60u) << 3) + ip[1] + 1u;
            ip += 2;
        } else if (b0 < 0xC0u) {
            if (avail < 3) CMD_FAIL(PLUMBOB_ERR_TRUNCATED, "a 3-byte command runs past the end");
            lit = (size_t)ip[1] >> 6;
            len = (b0 & 0x3Fu) + 4u;
            off = (((size_t)ip[1] & 0x3Fu) << 8) + ip[2] + 1u;
            ip += 3;
        } else if (b0 < 0xE0u) {
            if (avail < 4) CMD_FAIL(PLUMBOB_ERR_TRUNCATED, "a 4-byte command runs past the end");
            lit = b0 & 3u;
            len = (((size_t)b0 & 0x0Cu) << 6) + ip[3] + 5u;
            off = (((size_t)b0 & 0x10u) << 12) + ((size_t)ip[1] << 8) + ip[2] + 1u;
            ip += 4;
        } else if (b0 < 0xFCu) {
            lit = ((b0 & 0x1Fu) << 2) + 4u;
            ip += 1;
        } else {
            lit = b0 & 3u;
            stop = 1;
            ip += 1;
        }
        if (lit > (size_t)(iend - ip)) CMD_FAIL(PLUMBOB_ERR_TRUNCATED, "the command's literals run past the end");
        if (lit > (size_t)(oend - op)) CMD_FAIL(PLUMBOB_ERR_BAD_COUNT, "literals past the declared size");
        /* only the stream's last bytes (and broken streams) get here, so
         * literals go byte by byte; a match that leaves copy_match its
         * 15 bytes of room still moves in words */
        for (k = 0; k < lit; k++) op[k] = ip[k];
        op += lit;
        ip += lit;
        if (len) {
            if (off > (size_t)(op - obase)) CMD_FAIL(PLUMBOB_ERR_BAD_OFFSET, "a copy from before the output's start");
            if (len > (size_t)(oend - op)) CMD_FAIL(PLUMBOB_ERR_BAD_COUNT, "a copy past the declared size");
            if (len + 15u <= (size_t)(oend - op)) copy_match(op, off, len);
            else for (k = 0; k < len; k++) op[k] = (op - off)[k];
            op += len;
        }
        if (stop) break;
    }
    if (op != oend)
        return pb_note(err, PLUMBOB_ERR_BAD_COUNT, (size_t)(ip - (const unsigned char *)src), "command",
                       PLUMBOB_ERROR_NO_INDEX, "the stop command comes before the declared size is filled");
    *out_size = size;
    return PLUMBOB_OK;
}
#undef CMD_FAIL

plumbob_result plumbob_refpack_decompress(const void *src, size_t src_size, void *dst,
                                          size_t dst_cap, size_t *out_size) {
    return plumbob_refpack_decompress_ex(src, src_size, dst, dst_cap, out_size, NULL);
}
