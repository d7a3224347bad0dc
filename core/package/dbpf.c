/* DBPF packages: open, iterate, look up, read.  Zero copy: entries are
 * decoded from the caller's buffer on demand.  Open validates every entry,
 * so nothing after it can read outside the file. */
#include "plumbob/package.h"
#include "pb_bytes.h"
#include "pb_error.h"
#include "pb_sort.h"

#define DBPF_HEADER_SIZE 96u

static uint32_t popcount3(uint32_t v) {
    return (v & 1u) + ((v >> 1) & 1u) + ((v >> 2) & 1u);
}

/* Decodes index entry i without checks (open has validated the index). */
static void decode_entry(const plumbob_package *pkg, uint32_t i, plumbob_package_entry *e) {
    const unsigned char *p = pkg->data + pkg->entries_offset + (size_t)i * pkg->entry_size;
    if (pkg->major == 2) {
        uint32_t hi;
        if (pkg->index_flags & 1u) e->type = pkg->const_type; else { e->type = pb_le32(p); p += 4; }
        if (pkg->index_flags & 2u) e->group = pkg->const_group; else { e->group = pb_le32(p); p += 4; }
        if (pkg->index_flags & 4u) hi = pkg->const_instance_hi; else { hi = pb_le32(p); p += 4; }
        e->instance = (uint64_t)hi << 32 | pb_le32(p);
        e->offset = pb_le32(p + 4);
        e->file_size = pb_le32(p + 8) & 0x7FFFFFFFu;
        e->mem_size = pb_le32(p + 12);
        e->compression = pb_le16(p + 16);
        e->flags = pb_le16(p + 18);
    } else {
        uint32_t lo, hi = 0;
        e->type = pb_le32(p);
        e->group = pb_le32(p + 4);
        lo = pb_le32(p + 8);
        p += 12;
        if (pkg->entry_size == 24) { hi = pb_le32(p); p += 4; }
        e->instance = (uint64_t)hi << 32 | lo;
        e->offset = pb_le32(p);
        e->file_size = pb_le32(p + 4);
        e->mem_size = e->file_size;
        e->compression = PLUMBOB_COMPRESSION_NONE;
        e->flags = 0;
    }
}

/* Whether directory record d (record_size 16: type, group, instance, size;
 * 20: instance-high before the size) names entry e.  A 16-byte record in
 * a package whose entries carry instance-high names the low half only. */
static int dir_names(const unsigned char *d, uint32_t record_size, const plumbob_package_entry *e) {
    if (pb_le32(d) != e->type || pb_le32(d + 4) != e->group || pb_le32(d + 8) != (uint32_t)e->instance) return 0;
    return record_size == 16u || pb_le32(d + 12) == (uint32_t)(e->instance >> 32);
}

/* DBPF 1.x: the directory says which entries are compressed and their
 * decompressed size.  A linear scan of the directory. */
static void apply_sims2_directory(const plumbob_package *pkg, plumbob_package_entry *e) {
    uint32_t k;
    for (k = 0; k < pkg->dir_count; k++) {
        const unsigned char *d = pkg->data + pkg->dir_offset + (size_t)k * pkg->dir_entry_size;
        if (dir_names(d, pkg->dir_entry_size, e)) {
            e->compression = PLUMBOB_COMPRESSION_REFPACK;
            e->mem_size = pb_le32(d + pkg->dir_entry_size - 4);
            return;
        }
    }
}

/* How many of the first records of a directory read as record_size-byte
 * records name an entry of the index (at most 4 records, each a scan). */
#define DIR_PROBE 4u
static uint32_t dir_matches(const plumbob_package *pkg, uint32_t offset, uint32_t size, uint32_t record_size) {
    uint32_t k, i, n = size / record_size < DIR_PROBE ? size / record_size : DIR_PROBE, found = 0;
    for (k = 0; k < n; k++) {
        const unsigned char *d = pkg->data + offset + (size_t)k * record_size;
        for (i = 0; i < pkg->count; i++) {
            plumbob_package_entry e;
            decode_entry(pkg, i, &e);
            if (e.type != PLUMBOB_TYPE_SIMS2_DIR && dir_names(d, record_size, &e)) {
                found++;
                break;
            }
        }
    }
    return found;
}

/* The directory's record size.  Its records have 16 bytes in packages of
 * index 7.0 and 20 (with instance-high) in those of 7.1, but not in every
 * package the game and its tools wrote (SimPE reads the other layout when
 * the first one's records name no file; the SimsWiki page checks which of
 * 16 and 20 divides the size): the size decides when only one divides it,
 * else the layout whose first records name more entries, the index's
 * own on a tie. */
static uint32_t dir_record_size(const plumbob_package *pkg, uint32_t offset, uint32_t size) {
    uint32_t own = pkg->entry_size == 24 ? 20u : 16u, other = own == 20u ? 16u : 20u;
    int own_fits = size % own == 0, other_fits = size % other == 0;
    if (own_fits != other_fits) return own_fits ? own : other;
    return dir_matches(pkg, offset, size, other) > dir_matches(pkg, offset, size, own) ? other : own;
}

plumbob_result plumbob_package_open_ex(plumbob_package *pkg, const void *data, size_t size, plumbob_error *err) {
    const unsigned char *p = (const unsigned char *)data;
    plumbob_reader r;
    uint32_t i, dirs = 0, dir_offset = 0, dir_bytes = 0;
    plumbob_error_clear(err);
    if (!pkg || !data) return pb_note(err, PLUMBOB_ERR_INVALID_ARGUMENT, 0, "arguments", PLUMBOB_ERROR_NO_INDEX, "NULL pointer");
    {
        plumbob_package empty = {0};
        *pkg = empty;
    }
    if (size < DBPF_HEADER_SIZE) return pb_note(err, PLUMBOB_ERR_TRUNCATED, size, "header", PLUMBOB_ERROR_NO_INDEX, pb_reason(PLUMBOB_ERR_TRUNCATED));
    if (p[0] != 'D' || p[1] != 'B' || p[2] != 'P' || p[3] != 'F') return pb_note(err, PLUMBOB_ERR_BAD_MAGIC, 0, "header", PLUMBOB_ERROR_NO_INDEX, pb_reason(PLUMBOB_ERR_BAD_MAGIC));
    pkg->data = p;
    pkg->size = size;
    pkg->major = pb_le32(p + 4);
    pkg->minor = pb_le32(p + 8);
    pkg->count = pb_le32(p + 36);
    if (pkg->major == 2) {
        pkg->index_size = pb_le32(p + 44);
        pkg->index_offset = pb_le32(p + 64);
        if (pkg->index_offset == 0) pkg->index_offset = pb_le32(p + 40);
    } else if (pkg->major == 1) {
        pkg->index_offset = pb_le32(p + 40);
        pkg->index_size = pb_le32(p + 44);
        pkg->index_minor = pb_le32(p + 60);
    } else {
        return pb_note(err, PLUMBOB_ERR_UNSUPPORTED_VERSION, 4, "header", PLUMBOB_ERROR_NO_INDEX, pb_reason(PLUMBOB_ERR_UNSUPPORTED_VERSION));
    }
    if (pkg->count == 0) {
        pkg->entry_size = pkg->major == 2 ? 32u : (pkg->index_minor == 2 ? 24u : 20u);
        return PLUMBOB_OK; /* an empty package needs no index */
    }
    plumbob_reader_init(&r, p, size);
    r = plumbob_reader_sub(&r, pkg->index_offset, pkg->index_size);
    if (!plumbob_reader_ok(&r)) /* the index runs past the end: the input ends early */
        return pb_note(err, PLUMBOB_ERR_TRUNCATED, pkg->major == 2 ? 64u : 40u, "header", PLUMBOB_ERROR_NO_INDEX, pb_reason(PLUMBOB_ERR_TRUNCATED));
    if (pkg->major == 2) {
        pkg->index_flags = plumbob_read_u32le(&r);
        if (pkg->index_flags & ~7u) return pb_note(err, PLUMBOB_ERR_UNSUPPORTED, pkg->index_offset, "index", PLUMBOB_ERROR_NO_INDEX, pb_reason(PLUMBOB_ERR_UNSUPPORTED));
        if (pkg->index_flags & 1u) pkg->const_type = plumbob_read_u32le(&r);
        if (pkg->index_flags & 2u) pkg->const_group = plumbob_read_u32le(&r);
        if (pkg->index_flags & 4u) pkg->const_instance_hi = plumbob_read_u32le(&r);
        if (!plumbob_reader_ok(&r)) return pb_note(err, PLUMBOB_ERR_TRUNCATED, pb_reader_at(&r, p, size), "index", PLUMBOB_ERROR_NO_INDEX, pb_reason(PLUMBOB_ERR_TRUNCATED));
        pkg->entry_size = 32u - 4u * popcount3(pkg->index_flags);
    } else {
        pkg->entry_size = pkg->index_minor == 2 ? 24u : 20u;
    }
    pkg->entries_offset = pkg->index_offset + (uint32_t)r.pos;
    if (pkg->count > plumbob_reader_remaining(&r) / pkg->entry_size)
        return pb_note(err, PLUMBOB_ERR_BAD_COUNT, 36, "header", PLUMBOB_ERROR_NO_INDEX, "more entries than the index holds");

    /* Every entry's bytes inside the file; find the 1.x directory.  Two
     * directories contradict each other about which entries are compressed:
     * refused rather than guessed. */
    for (i = 0; i < pkg->count; i++) {
        plumbob_package_entry e;
        decode_entry(pkg, i, &e);
        if (e.offset > size || e.file_size > size - e.offset) /* past the end: the input ends early */
            return pb_note(err, PLUMBOB_ERR_TRUNCATED, pkg->entries_offset + (size_t)i * pkg->entry_size, "entry", i, "the entry's data runs past the end of the data");
        if (pkg->major == 1 && e.type == PLUMBOB_TYPE_SIMS2_DIR && dirs++ > 0)
            return pb_note(err, PLUMBOB_ERR_BAD_DATA, pkg->entries_offset + (size_t)i * pkg->entry_size, "entry", i, "a second directory");
        if (pkg->major == 1 && e.type == PLUMBOB_TYPE_SIMS2_DIR) {
            dir_offset = e.offset;
            dir_bytes = e.file_size;
        }
    }
    if (dir_bytes) { /* every entry checked: the records can be matched against them */
        pkg->dir_entry_size = dir_record_size(pkg, dir_offset, dir_bytes);
        pkg->dir_offset = dir_offset;
        pkg->dir_count = dir_bytes / pkg->dir_entry_size;
    }
    return PLUMBOB_OK;
}

plumbob_result plumbob_package_open(plumbob_package *pkg, const void *data, size_t size) {
    return plumbob_package_open_ex(pkg, data, size, NULL);
}

plumbob_result plumbob_package_entry_at(const plumbob_package *pkg, uint32_t i,
                                        plumbob_package_entry *out) {
    if (!pkg || !out) return PLUMBOB_ERR_INVALID_ARGUMENT;
    if (i >= pkg->count) return PLUMBOB_ERR_BAD_INDEX;
    decode_entry(pkg, i, out);
    if (pkg->dir_count && out->type != PLUMBOB_TYPE_SIMS2_DIR) apply_sims2_directory(pkg, out);
    return PLUMBOB_OK;
}

plumbob_result plumbob_package_next_of_type(const plumbob_package *pkg, uint32_t type, uint32_t *cursor,
                                            plumbob_package_entry *out) {
    if (!pkg || !cursor || !out) return PLUMBOB_ERR_INVALID_ARGUMENT;
    while (*cursor < pkg->count) {
        uint32_t i = (*cursor)++;
        decode_entry(pkg, i, out); /* the directory is looked up only for a match */
        if (out->type != type) continue;
        if (pkg->dir_count && out->type != PLUMBOB_TYPE_SIMS2_DIR) apply_sims2_directory(pkg, out);
        return PLUMBOB_OK;
    }
    return PLUMBOB_ERR_NOT_FOUND;
}

const unsigned char *plumbob_package_raw(const plumbob_package *pkg, const plumbob_package_entry *e) {
    if (!pkg || !e || e->offset > pkg->size || e->file_size > pkg->size - e->offset) return NULL;
    return pkg->data + e->offset;
}

/* --- sorted lookup --------------------------------------------------------- */

/* The order of the sorted keys (sort_keys, and the lookup's search). */
static int key_less(const void *ctx, const void *ea, const void *eb) {
    const plumbob_package_key *a = (const plumbob_package_key *)ea, *b = (const plumbob_package_key *)eb;
    (void)ctx;
    if (a->type != b->type) return a->type < b->type;
    if (a->group != b->group) return a->group < b->group;
    if (a->instance != b->instance) return a->instance < b->instance;
    return a->index < b->index; /* stable: the first of duplicates wins */
}

static void sort_keys(plumbob_package_key *base, size_t n, const void *ctx)
    PB_HEAP_SORT_BODY(key_less, sizeof(plumbob_package_key))

size_t plumbob_package_sort_arena_size(const plumbob_package *pkg) {
    return pkg ? plumbob_arena_need(pkg->count, sizeof(plumbob_package_key)) : SIZE_MAX; /* the sizing rule */
}

plumbob_result plumbob_package_sort(plumbob_package *pkg, plumbob_arena *arena) {
    plumbob_package_key *k;
    size_t i, n;
    if (!pkg || !arena) return PLUMBOB_ERR_INVALID_ARGUMENT;
    n = pkg->count;
    k = (plumbob_package_key *)plumbob_arena_alloc_array(arena, n, sizeof *k, 0);
    if (!k) return PLUMBOB_ERR_OUT_OF_MEMORY;
    for (i = 0; i < n; i++) {
        plumbob_package_entry e;
        decode_entry(pkg, (uint32_t)i, &e);
        k[i].type = e.type;
        k[i].group = e.group;
        k[i].instance = e.instance;
        k[i].index = (uint32_t)i;
    }
    sort_keys(k, n, NULL); /* a heap sort: O(n log n), no recursion, no extra memory */
    pkg->sorted = k;
    return PLUMBOB_OK;
}

plumbob_result plumbob_package_find(const plumbob_package *pkg, uint32_t type, uint32_t group,
                                    uint64_t instance, plumbob_package_entry *out,
                                    uint32_t *index_out) {
    uint32_t found = 0;
    int ok = 0;
    if (!pkg || !out) return PLUMBOB_ERR_INVALID_ARGUMENT;
    if (pkg->sorted) {
        plumbob_package_key want;
        size_t lo = 0, hi = pkg->count;
        want.type = type;
        want.group = group;
        want.instance = instance;
        want.index = 0;
        while (lo < hi) { /* first key not less than want */
            size_t mid = lo + (hi - lo) / 2u;
            if (key_less(NULL, &pkg->sorted[mid], &want)) lo = mid + 1u; else hi = mid;
        }
        if (lo < pkg->count && pkg->sorted[lo].type == type && pkg->sorted[lo].group == group &&
            pkg->sorted[lo].instance == instance) {
            found = pkg->sorted[lo].index;
            ok = 1;
        }
    } else {
        uint32_t i;
        for (i = 0; i < pkg->count && !ok; i++) {
            plumbob_package_entry e;
            decode_entry(pkg, i, &e);
            if (e.type == type && e.group == group && e.instance == instance) {
                found = i;
                ok = 1;
            }
        }
    }
    if (!ok) return PLUMBOB_ERR_NOT_FOUND;
    if (index_out) *index_out = found;
    return plumbob_package_entry_at(pkg, found, out);
}

/* --- reading a resource ------------------------------------------------------ */

/* The most output one stored byte of RefPack can give: a 4-byte long copy
 * command copies at most 1028 bytes. */
#define REFPACK_MAX_RATIO 257u

plumbob_result plumbob_package_read_size(const plumbob_package *pkg, const plumbob_package_entry *e,
                                         size_t *dst_bytes) {
    const unsigned char *raw;
    size_t raw_size, declared, header;
    plumbob_result r;
    if (!pkg || !e || !dst_bytes) return PLUMBOB_ERR_INVALID_ARGUMENT;
    *dst_bytes = 0;
    raw = plumbob_package_raw(pkg, e);
    if (!raw) return PLUMBOB_ERR_BAD_OFFSET;
    raw_size = e->file_size;
    if (e->compression == PLUMBOB_COMPRESSION_NONE) return PLUMBOB_OK; /* read in place */
    if (e->compression != PLUMBOB_COMPRESSION_REFPACK) return PLUMBOB_ERR_UNSUPPORTED;
    if (pkg->major == 1) {
        if (raw_size < 4) return PLUMBOB_ERR_TRUNCATED;
        raw += 4;
        raw_size -= 4;
    }
    r = plumbob_refpack_header(raw, raw_size, &declared, &header);
    if (r != PLUMBOB_OK) return r;
    /* the index and the stream must agree, and the stream must be able to
     * hold that much: a claim of gigabytes from a few bytes is refused here,
     * before anyone allocates for it */
    if (declared != e->mem_size || declared / REFPACK_MAX_RATIO > raw_size) return PLUMBOB_ERR_BAD_COUNT;
    *dst_bytes = declared;
    return PLUMBOB_OK;
}

plumbob_result plumbob_package_read(const plumbob_package *pkg, const plumbob_package_entry *e,
                                    void *dst, size_t dst_cap, const unsigned char **out,
                                    size_t *out_size) {
    const unsigned char *raw;
    size_t raw_size, got;
    plumbob_result r;
    if (!pkg || !e || !out || !out_size) return PLUMBOB_ERR_INVALID_ARGUMENT;
    *out = NULL;
    *out_size = 0;
    raw = plumbob_package_raw(pkg, e);
    if (!raw) return PLUMBOB_ERR_BAD_OFFSET;
    raw_size = e->file_size;
    if (e->compression == PLUMBOB_COMPRESSION_NONE) {
        *out = raw;
        *out_size = raw_size;
        return PLUMBOB_OK;
    }
    if (e->compression != PLUMBOB_COMPRESSION_REFPACK) return PLUMBOB_ERR_UNSUPPORTED;
    if (dst_cap < e->mem_size) return PLUMBOB_ERR_OUT_OF_MEMORY;
    if (pkg->major == 1) { /* 1.x: a u32 compressed size comes first */
        if (raw_size < 4) return PLUMBOB_ERR_TRUNCATED;
        raw += 4;
        raw_size -= 4;
    }
    r = plumbob_refpack_decompress(raw, raw_size, dst, dst_cap, &got);
    if (r != PLUMBOB_OK) return r;
    if (got != e->mem_size) return PLUMBOB_ERR_BAD_COUNT;
    *out = (const unsigned char *)dst;
    *out_size = got;
    return PLUMBOB_OK;
}
