/* DBPF writer: header, resource data in entry order, then the index.
 * DBPF 2.0 stores a field once in the index header when every entry shares
 * it (as the game's packages do); DBPF 1.1 uses 24-byte entries and, when
 * anything is compressed, a compression directory resource. */
#include "plumbob/package.h"
#include "pb_bytes.h"

#define DBPF_HEADER_SIZE 96u
#define SIMS2_DIR_GROUP 0xE86B1EEFu
#define SIMS2_DIR_INSTANCE 0x286B1F03u

static uint32_t count_compressed(const plumbob_package_write_entry *e, uint32_t n) {
    uint32_t i, c = 0;
    for (i = 0; i < n; i++) c += e[i].compression == PLUMBOB_COMPRESSION_REFPACK;
    return c;
}

/* Index flags for 2.0: bit set when every entry shares that field. */
static uint32_t constant_fields(const plumbob_package_write_entry *e, uint32_t n) {
    uint32_t i, flags = n ? 7u : 0u;
    for (i = 1; i < n; i++) {
        if (e[i].type != e[0].type) flags &= ~1u;
        if (e[i].group != e[0].group) flags &= ~2u;
        if ((e[i].instance >> 32) != (e[0].instance >> 32)) flags &= ~4u;
    }
    return flags;
}

static uint64_t layout_size(const plumbob_package_write_entry *e, uint32_t n, uint32_t major) {
    uint64_t total = DBPF_HEADER_SIZE;
    uint32_t i, nc = major == 1 ? count_compressed(e, n) : 0;
    for (i = 0; i < n; i++) {
        total += e[i].size;
        if (major == 1 && e[i].compression == PLUMBOB_COMPRESSION_REFPACK) total += 4u;
    }
    if (major == 2) {
        uint32_t flags = constant_fields(e, n), consts = (flags & 1u) + ((flags >> 1) & 1u) + ((flags >> 2) & 1u);
        total += 4u + 4u * consts + (uint64_t)n * (32u - 4u * consts);
    } else {
        total += (uint64_t)nc * 20u;              /* directory */
        total += (uint64_t)(n + (nc ? 1u : 0u)) * 24u; /* index */
    }
    return total;
}

size_t plumbob_package_write_size(const plumbob_package_write_entry *entries, uint32_t count,
                                  uint32_t major) {
    uint64_t t;
    if ((!entries && count) || (major != 1 && major != 2)) return SIZE_MAX;
    t = layout_size(entries, count, major);
    return t > 0xFFFFFFFFu || t > SIZE_MAX ? SIZE_MAX : (size_t)t;
}

static void put_bytes(unsigned char *dst, const void *src, size_t n) {
    const unsigned char *s = (const unsigned char *)src;
    size_t i;
    for (i = 0; i < n; i++) dst[i] = s[i];
}

plumbob_result plumbob_package_write(const plumbob_package_write_entry *entries, uint32_t count,
                                     uint32_t major, void *out_v, size_t out_cap, size_t *out_size) {
    unsigned char *out = (unsigned char *)out_v, *p;
    uint64_t total;
    uint32_t i, nc, index_pos, index_size, flags = 0;
    if ((!entries && count) || !out || !out_size || (major != 1 && major != 2))
        return PLUMBOB_ERR_INVALID_ARGUMENT;
    for (i = 0; i < count; i++) {
        const plumbob_package_write_entry *e = &entries[i];
        if (!e->data && e->size) return PLUMBOB_ERR_INVALID_ARGUMENT;
        /* 1.x: the writer makes the compression directory itself; a second
         * one would contradict it */
        if (major == 1 && e->type == PLUMBOB_TYPE_SIMS2_DIR) return PLUMBOB_ERR_INVALID_ARGUMENT;
        if (e->compression == PLUMBOB_COMPRESSION_NONE) {
            if (e->mem_size != e->size) return PLUMBOB_ERR_INVALID_ARGUMENT;
        } else if (e->compression != PLUMBOB_COMPRESSION_REFPACK &&
                   !(major == 2 && e->compression == PLUMBOB_COMPRESSION_ZLIB)) {
            /* 2.0 carries zlib streams (s3pe writes them) as they are, so a
             * package can be edited without touching them */
            return PLUMBOB_ERR_INVALID_ARGUMENT;
        }
    }
    *out_size = 0;
    total = layout_size(entries, count, major);
    if (total > 0xFFFFFFFFu) return PLUMBOB_ERR_LIMIT_EXCEEDED;
    if (total > out_cap) return PLUMBOB_ERR_OUT_OF_MEMORY;
    nc = major == 1 ? count_compressed(entries, count) : 0;

    for (i = 0; i < DBPF_HEADER_SIZE; i++) out[i] = 0;
    put_bytes(out, "DBPF", 4);
    pb_put_le32(out + 4, major);
    pb_put_le32(out + 8, major == 2 ? 0u : 1u);

    /* resource data, in entry order */
    p = out + DBPF_HEADER_SIZE;
    for (i = 0; i < count; i++) {
        const plumbob_package_write_entry *e = &entries[i];
        if (major == 1 && e->compression == PLUMBOB_COMPRESSION_REFPACK) {
            pb_put_le32(p, e->size + 4u); /* 1.x: stored size first, then the stream */
            p += 4;
        }
        put_bytes(p, e->data, e->size);
        p += e->size;
    }
    {
        /* offsets of each entry's stored bytes, recomputed in the index loop */
        uint32_t off = DBPF_HEADER_SIZE, dir_pos = 0;
        if (major == 1 && nc) { /* directory: type, group, instance, instance-high, mem size */
            dir_pos = (uint32_t)(p - out);
            for (i = 0; i < count; i++) {
                const plumbob_package_write_entry *e = &entries[i];
                if (e->compression != PLUMBOB_COMPRESSION_REFPACK) continue;
                pb_put_le32(p, e->type);
                pb_put_le32(p + 4, e->group);
                pb_put_le32(p + 8, (uint32_t)e->instance);
                pb_put_le32(p + 12, (uint32_t)(e->instance >> 32));
                pb_put_le32(p + 16, e->mem_size);
                p += 20;
            }
        }
        index_pos = (uint32_t)(p - out);
        if (major == 2) {
            flags = constant_fields(entries, count);
            pb_put_le32(p, flags);
            p += 4;
            if (flags & 1u) { pb_put_le32(p, entries[0].type); p += 4; }
            if (flags & 2u) { pb_put_le32(p, entries[0].group); p += 4; }
            if (flags & 4u) { pb_put_le32(p, (uint32_t)(entries[0].instance >> 32)); p += 4; }
        }
        for (i = 0; i < count; i++) {
            const plumbob_package_write_entry *e = &entries[i];
            uint32_t stored = e->size;
            if (major == 2) {
                if (!(flags & 1u)) { pb_put_le32(p, e->type); p += 4; }
                if (!(flags & 2u)) { pb_put_le32(p, e->group); p += 4; }
                if (!(flags & 4u)) { pb_put_le32(p, (uint32_t)(e->instance >> 32)); p += 4; }
                pb_put_le32(p, (uint32_t)e->instance);
                pb_put_le32(p + 4, off);
                pb_put_le32(p + 8, stored | 0x80000000u);
                pb_put_le32(p + 12, e->mem_size);
                pb_put_le16(p + 16, e->compression);
                pb_put_le16(p + 18, 1u);
                p += 20;
            } else {
                if (e->compression == PLUMBOB_COMPRESSION_REFPACK) stored += 4u;
                pb_put_le32(p, e->type);
                pb_put_le32(p + 4, e->group);
                pb_put_le32(p + 8, (uint32_t)e->instance);
                pb_put_le32(p + 12, (uint32_t)(e->instance >> 32));
                pb_put_le32(p + 16, off);
                pb_put_le32(p + 20, stored);
                p += 24;
            }
            off += stored;
        }
        if (major == 1 && nc) {
            pb_put_le32(p, PLUMBOB_TYPE_SIMS2_DIR);
            pb_put_le32(p + 4, SIMS2_DIR_GROUP);
            pb_put_le32(p + 8, SIMS2_DIR_INSTANCE);
            pb_put_le32(p + 12, 0);
            pb_put_le32(p + 16, dir_pos);
            pb_put_le32(p + 20, nc * 20u);
            p += 24;
        }
    }
    index_size = (uint32_t)(p - out) - index_pos;
    pb_put_le32(out + 36, count + (major == 1 && nc ? 1u : 0u));
    pb_put_le32(out + 44, index_size);
    if (major == 2) {
        pb_put_le32(out + 60, 3u);
        pb_put_le32(out + 64, index_pos);
    } else {
        pb_put_le32(out + 32, 7u);
        pb_put_le32(out + 40, index_pos);
        pb_put_le32(out + 60, 2u);
    }
    *out_size = (size_t)(p - out);
    return PLUMBOB_OK;
}
