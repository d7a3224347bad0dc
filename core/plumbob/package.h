/* plumbob/package.h: the package layer of plumbob.h (docs/ARCHITECTURE.md):
 * RefPack, DBPF packages and the resource type ids,
 * KEY name tables and the Sims 2 RCOL container.
 * A game includes plumbob.h, which includes every layer; this file may be
 * included alone and brings the layers it builds on. */
#ifndef PLUMBOB_PACKAGE_H
#define PLUMBOB_PACKAGE_H

#include "base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ===================================================================== */
/* Chapter 8  RefPack compression                                        */
/* ===================================================================== */

/* RefPack (also called QFS) is the LZ77 scheme of both games' packages.  A
 * stream is a header (flags byte, 0xFB, optional compressed size, then the
 * decompressed size, big-endian, 3 or 4 bytes) and a command stream. */

/* Reads a stream's header: the decompressed size and the header length.
 * Errors: PLUMBOB_ERR_INVALID_ARGUMENT (NULL pointers), PLUMBOB_ERR_TRUNCATED
 * (fewer bytes than the header needs), PLUMBOB_ERR_BAD_MAGIC (second byte not
 * 0xFB, or flags without 0x10 or with bits other than 0x80/0x40/0x10/0x01;
 * 0x40, a "restricted window" some encoders set, is read as without it). */
PLUMBOB_API plumbob_result plumbob_refpack_header(const void *src, size_t src_size,
                                                  size_t *decompressed_size, size_t *header_size);

/* Decompresses src[0..src_size) into dst[0..dst_cap).  Never reads outside
 * src, never writes outside dst[0..decompressed size).  On success *out_size
 * is the decompressed size; on error dst holds unspecified bytes.
 * Errors: those of plumbob_refpack_header; PLUMBOB_ERR_OUT_OF_MEMORY (dst_cap
 * below the declared size); PLUMBOB_ERR_TRUNCATED (commands or literals run
 * past the input, or no stop command); PLUMBOB_ERR_BAD_OFFSET (a copy from
 * before the start of the output); PLUMBOB_ERR_BAD_COUNT (output longer or
 * shorter than declared). */
PLUMBOB_API plumbob_result plumbob_refpack_decompress(const void *src, size_t src_size, void *dst,
                                                      size_t dst_cap, size_t *out_size);

/* Largest compressed size of n input bytes (all literals, one command byte
 * per 112 of them, the longest header and the stop command); SIZE_MAX when
 * that does not fit size_t.  The macro is the same formula at compile time
 * (where it fits size_t: n up to 0x7FFFFFFF on 32-bit targets). */
PLUMBOB_API size_t plumbob_refpack_bound(size_t n);
#define PLUMBOB_REFPACK_BOUND(n) ((size_t)(n) + (size_t)(n) / 112u + 9u)

/* Work memory plumbob_refpack_compress needs, in bytes: always
 * PLUMBOB_REFPACK_COMPRESS_WORK_SIZE (hash-chain tables of 192 Ki u32,
 * plus 3 bytes to align them in memory of any alignment). */
PLUMBOB_API size_t plumbob_refpack_compress_work_size(void);
#define PLUMBOB_REFPACK_COMPRESS_WORK_SIZE ((size_t)(65536u + 131072u) * 4u + 3u)

/* Compresses src[0..src_size) into dst[0..dst_cap) with hash-chain matching
 * and one-step lazy evaluation, using `work` (at least
 * plumbob_refpack_compress_work_size() bytes, any alignment) as scratch.
 * Output decompresses with plumbob_refpack_decompress and with the games'.
 * Errors: PLUMBOB_ERR_INVALID_ARGUMENT (NULL pointers, work too small),
 * PLUMBOB_ERR_OUT_OF_MEMORY (dst_cap too small: plumbob_refpack_bound always
 * suffices), PLUMBOB_ERR_LIMIT_EXCEEDED (src_size above 0xFFFFFFFF). */
PLUMBOB_API plumbob_result plumbob_refpack_compress(const void *src, size_t src_size, void *dst,
                                                    size_t dst_cap, void *work, size_t work_size,
                                                    size_t *out_size);


/* ===================================================================== */
/* Chapter 9  Packages (DBPF)                                            */
/* ===================================================================== */

/* A .package file: DBPF 2.0 (The Sims 3) or DBPF 1.x (The Sims 2).  Opening
 * one checks the header and every index entry against the file size, so
 * later calls cannot fail on bounds.  Nothing is copied: entries are decoded
 * from the caller's buffer on demand, which must outlive the package. */

#define PLUMBOB_COMPRESSION_NONE 0x0000u
#define PLUMBOB_COMPRESSION_REFPACK 0xFFFFu
#define PLUMBOB_COMPRESSION_ZLIB 0x5A42u    /* later games; rejected */
#define PLUMBOB_COMPRESSION_DELETED 0xFFE0u /* later games; rejected */

/* Resource types plumbob knows by name. */
#define PLUMBOB_TYPE_CLIP 0x6B20C4F3u
#define PLUMBOB_TYPE_JAZZ 0x02D5DF13u
#define PLUMBOB_TYPE_KEY 0x0166038Cu
#define PLUMBOB_TYPE_GMDC 0xAC4F8687u
#define PLUMBOB_TYPE_ANIM 0xFB00791Eu
#define PLUMBOB_TYPE_RIG 0x8EAF13DEu
#define PLUMBOB_TYPE_CRES 0xE519C933u
#define PLUMBOB_TYPE_GEOM 0x015A1849u /* Sims 3 body mesh (Chapter 16b) */
#define PLUMBOB_TYPE_SIMS2_DIR 0xE86B1EEFu /* DBPF 1.x compression directory */

typedef struct plumbob_package_entry {
    uint32_t type;
    uint32_t group;
    uint64_t instance;     /* DBPF 1.x: instance-high << 32 | instance */
    uint32_t offset;       /* absolute offset of the stored bytes in the file */
    uint32_t file_size;    /* stored bytes (DBPF 2.0: with bit 31 cleared) */
    uint32_t mem_size;     /* bytes once decompressed */
    uint16_t compression;  /* PLUMBOB_COMPRESSION_* (DBPF 1.x: NONE or REFPACK) */
    uint16_t flags;        /* DBPF 2.0: the u16 after compression (1 = committed) */
} plumbob_package_entry;

/* Sorted lookup key, built in the arena by plumbob_package_sort. */
typedef struct plumbob_package_key {
    uint64_t instance;
    uint32_t type;
    uint32_t group;
    uint32_t index;
} plumbob_package_key;

typedef struct plumbob_package {
    const unsigned char *data;
    size_t size;
    uint32_t major, minor;      /* 2.0 Sims 3; 1.0 / 1.1 Sims 2 */
    uint32_t count;             /* index entries */
    uint32_t index_offset;
    uint32_t index_size;
    uint32_t entry_size;        /* bytes per index entry */
    uint32_t entries_offset;    /* first entry (after 2.0 flags and constants) */
    uint32_t index_flags;       /* 2.0: bit 0 type, 1 group, 2 instance-high constant */
    uint32_t const_type, const_group, const_instance_hi;
    uint32_t index_minor;       /* 1.x: 2 means 24-byte entries */
    /* 1.x compression directory (zero-copy view), 0 entries when absent;
     * records of 16 or 20 bytes, whichever the directory holds (see
     * docs/FORMATS.md), not always the index's own layout */
    uint32_t dir_offset, dir_count, dir_entry_size;
    /* Optional sorted view for binary search (plumbob_package_sort). */
    const plumbob_package_key *sorted;
} plumbob_package;

/* Opens a package held in data[0..size).
 * Errors: PLUMBOB_ERR_INVALID_ARGUMENT (NULL), PLUMBOB_ERR_TRUNCATED (shorter
 * than the 96-byte header), PLUMBOB_ERR_BAD_MAGIC (not "DBPF"),
 * PLUMBOB_ERR_UNSUPPORTED_VERSION (major not 1 or 2), PLUMBOB_ERR_BAD_OFFSET
 * (index, an entry's data or the directory outside the file),
 * PLUMBOB_ERR_BAD_COUNT (entry count does not fit the index size),
 * PLUMBOB_ERR_UNSUPPORTED (2.0 index flag bits above bit 2),
 * PLUMBOB_ERR_BAD_DATA (a 1.x package with two compression directories: they
 * would disagree about which entries are compressed). */
PLUMBOB_API plumbob_result plumbob_package_open(plumbob_package *pkg, const void *data, size_t size);
/* plumbob_package_open that also says where it failed (plumbob_error, as
 * plumbob_gmdc_measure_ex): table "header", "index" or "entry" (with the
 * entry's index), the byte offset of the field.  Same results. */
PLUMBOB_API plumbob_result plumbob_package_open_ex(plumbob_package *pkg, const void *data, size_t size,
                                                   plumbob_error *err);

/* Entry i (0 <= i < count).  Errors: PLUMBOB_ERR_BAD_INDEX. */
PLUMBOB_API plumbob_result plumbob_package_entry_at(const plumbob_package *pkg, uint32_t i,
                                                    plumbob_package_entry *out);

/* Arena bytes plumbob_package_sort needs for this package (SIZE_MAX for
 * NULL). */
PLUMBOB_API size_t plumbob_package_sort_arena_size(const plumbob_package *pkg);

/* Builds a sorted key view in the arena so plumbob_package_find is a binary
 * search (worth it above a few dozen entries; without it find is a linear
 * scan).  Errors: PLUMBOB_ERR_OUT_OF_MEMORY. */
PLUMBOB_API plumbob_result plumbob_package_sort(plumbob_package *pkg, plumbob_arena *arena);

/* Finds the first entry with this type, group and instance; *index_out (may
 * be NULL) receives its position.  Errors: PLUMBOB_ERR_NOT_FOUND. */
PLUMBOB_API plumbob_result plumbob_package_find(const plumbob_package *pkg, uint32_t type,
                                                uint32_t group, uint64_t instance,
                                                plumbob_package_entry *out, uint32_t *index_out);

/* The stored bytes of an entry (zero copy, possibly compressed). */
PLUMBOB_API const unsigned char *plumbob_package_raw(const plumbob_package *pkg,
                                                     const plumbob_package_entry *e);

/* The resource's bytes, decompressed into dst[0..dst_cap) when compressed.
 * For stored entries *out points into the package (zero copy) and dst is
 * not touched; for compressed ones *out == dst.  e->mem_size bytes suffice.
 * Errors: PLUMBOB_ERR_UNSUPPORTED (zlib or deleted entries, unknown
 * compression), PLUMBOB_ERR_OUT_OF_MEMORY (dst_cap < mem_size), the errors of
 * plumbob_refpack_decompress, PLUMBOB_ERR_BAD_COUNT (decompressed size differs
 * from the index's memory size). */
/* Bytes of dst plumbob_package_read needs for this entry, checked before
 * anyone allocates them: 0 for stored entries (read in place), else the
 * decompressed size, once the RefPack header agrees with the index's
 * memory size and the stored bytes could expand that far (RefPack gives at
 * most 257 bytes per stored byte).  Errors: PLUMBOB_ERR_INVALID_ARGUMENT
 * (NULL), PLUMBOB_ERR_BAD_OFFSET, PLUMBOB_ERR_UNSUPPORTED (zlib, deleted or
 * unknown compression), PLUMBOB_ERR_TRUNCATED and PLUMBOB_ERR_BAD_MAGIC
 * (no RefPack header), PLUMBOB_ERR_BAD_COUNT (the header's size differs
 * from the index's, or is more than the stored bytes can hold). */
PLUMBOB_API plumbob_result plumbob_package_read_size(const plumbob_package *pkg,
                                                     const plumbob_package_entry *e, size_t *dst_bytes);

PLUMBOB_API plumbob_result plumbob_package_read(const plumbob_package *pkg,
                                                const plumbob_package_entry *e, void *dst,
                                                size_t dst_cap, const unsigned char **out,
                                                size_t *out_size);

/* --- Writing packages (for tools and tests) --- */

/* One resource to write.  `data` holds `size` stored bytes: when
 * compression is PLUMBOB_COMPRESSION_REFPACK they are a RefPack stream (make
 * one with plumbob_refpack_compress) and mem_size is its decompressed size;
 * when NONE, mem_size must equal size.  Major 2 also takes
 * PLUMBOB_COMPRESSION_ZLIB: the stored bytes of an existing entry (from
 * plumbob_package_raw), carried as they are, so that editing a package made
 * by s3pe keeps them (plumbob does not decompress zlib). */
typedef struct plumbob_package_write_entry {
    uint32_t type, group;
    uint64_t instance;
    const void *data;
    uint32_t size;
    uint32_t mem_size;
    uint16_t compression;
} plumbob_package_write_entry;

/* Bytes plumbob_package_write produces for these entries (SIZE_MAX when the
 * result would exceed 4 GiB).  major is 2 (Sims 3) or 1 (Sims 2, written as
 * 1.1 with 24-byte entries, plus a compression directory when any entry is
 * compressed; its compressed entries get the 4-byte size prefix). */
PLUMBOB_API size_t plumbob_package_write_size(const plumbob_package_write_entry *entries,
                                              uint32_t count, uint32_t major);

/* Writes a package: header, resource data in entry order, then the index.
 * Errors: PLUMBOB_ERR_INVALID_ARGUMENT (NULL, major not 1 or 2, NONE entry
 * with mem_size != size, unknown compression or zlib with major 1, an entry of type
 * PLUMBOB_TYPE_SIMS2_DIR with major 1: the writer builds that directory from
 * the entries' compression itself), PLUMBOB_ERR_OUT_OF_MEMORY
 * (out_cap too small), PLUMBOB_ERR_LIMIT_EXCEEDED (over 4 GiB). */
PLUMBOB_API plumbob_result plumbob_package_write(const plumbob_package_write_entry *entries,
                                                 uint32_t count, uint32_t major, void *out,
                                                 size_t out_cap, size_t *out_size);


/* ===================================================================== */
/* Chapter 10 Shared containers: KEY name tables, Sims 2 RCOL            */
/* ===================================================================== */

/* Sims 3 KEY resource (PLUMBOB_TYPE_KEY): instance id -> name, as
 * u32 version, u32 count, then {u64 instance, u32 length, chars}. */
typedef struct plumbob_key_table {
    const unsigned char *data;
    size_t size;
    uint32_t version;
    uint32_t count;
} plumbob_key_table;

/* Validates every entry.  Errors: PLUMBOB_ERR_INVALID_ARGUMENT,
 * PLUMBOB_ERR_TRUNCATED (an entry runs past the end), PLUMBOB_ERR_BAD_COUNT
 * (more entries than bytes could hold). */
PLUMBOB_API plumbob_result plumbob_key_table_open(plumbob_key_table *kt, const void *data, size_t size);
/* plumbob_key_table_open that also says where it failed (plumbob_error):
 * table "header" or "entry" (with its index).  Same results. */
PLUMBOB_API plumbob_result plumbob_key_table_open_ex(plumbob_key_table *kt, const void *data, size_t size,
                                                     plumbob_error *err);
/* The name of `instance` (first match, linear scan).  Errors: PLUMBOB_ERR_NOT_FOUND. */
PLUMBOB_API plumbob_result plumbob_key_table_find(const plumbob_key_table *kt, uint64_t instance,
                                                  plumbob_string *name);
/* Entry i in file order.  Errors: PLUMBOB_ERR_BAD_INDEX. */
PLUMBOB_API plumbob_result plumbob_key_table_entry(const plumbob_key_table *kt, uint32_t i,
                                                   uint64_t *instance, plumbob_string *name);

#if defined(PLUMBOB_TOOLS_API) && !defined(PLUMBOB_STABLE_ONLY) /* the general reader's string helper */
/* Reads a string with a 7-bit-encoded length prefix (1 to 5 bytes, low
 * groups first), as Sims 2 resources store them.  Records
 * PLUMBOB_ERR_BAD_DATA in the reader for an over-long or padded
 * (non-canonical) prefix, so every accepted string re-encodes identically. */
PLUMBOB_API plumbob_string plumbob_read_string7(plumbob_reader *r);

#endif /* PLUMBOB_TOOLS_API */

/* Sims 2 RCOL ("scenegraph") wrapper around GMDC, ANIM, CRES, ... blocks. */
typedef struct plumbob_sims2_link {
    uint32_t group, instance, instance_hi, type;
} plumbob_sims2_link;

typedef struct plumbob_sims2_rcol {
    const unsigned char *data;
    size_t size;
    bool long_links;          /* 0xFFFF0001 form: 16-byte links with instance-high */
    uint32_t link_count;
    size_t links_offset;
    uint32_t block_count;
    size_t block_ids_offset;
    size_t first_block_offset; /* where block 0 starts (blocks have no size field) */
} plumbob_sims2_rcol;

/* Limits that keep a hostile header cheap to reject. */
#define PLUMBOB_SIMS2_MAX_LINKS 65536u
#define PLUMBOB_SIMS2_MAX_BLOCKS 4096u

/* Reads the link list and block id list.  Errors: PLUMBOB_ERR_INVALID_ARGUMENT,
 * PLUMBOB_ERR_TRUNCATED, PLUMBOB_ERR_BAD_COUNT (no blocks, or counts above the
 * limits or beyond the bytes present). */
PLUMBOB_API plumbob_result plumbob_sims2_rcol_open(plumbob_sims2_rcol *rc, const void *data, size_t size);
/* Link i.  Errors: PLUMBOB_ERR_BAD_INDEX. */
PLUMBOB_API plumbob_result plumbob_sims2_rcol_link(const plumbob_sims2_rcol *rc, uint32_t i,
                                                   plumbob_sims2_link *out);
/* Block id i (0 when out of range). */
PLUMBOB_API uint32_t plumbob_sims2_rcol_block_id(const plumbob_sims2_rcol *rc, uint32_t i);

/* The common head of every Sims 2 block: class name, block id, version,
 * then the cSGResource header with the resource's own name. */
typedef struct plumbob_sims2_block_head {
    plumbob_string class_name; /* "cGeometryDataContainer", "cAnimResourceConst", ... */
    uint32_t block_id;
    uint32_t version;
    plumbob_string sg_name;    /* "cSGResource" */
    uint32_t sg_id, sg_version;
    plumbob_string resource_name;
} plumbob_sims2_block_head;

#if defined(PLUMBOB_TOOLS_API) && !defined(PLUMBOB_STABLE_ONLY) /* takes the general reader */
/* Reads a block head at r's position and leaves r after it.  Errors (also
 * recorded in r): PLUMBOB_ERR_TRUNCATED, PLUMBOB_ERR_BAD_MAGIC (the second
 * string is not "cSGResource"), PLUMBOB_ERR_BAD_DATA (bad string prefix). */
PLUMBOB_API plumbob_result plumbob_sims2_block_head_read(plumbob_reader *r,
                                                         plumbob_sims2_block_head *out);
#endif /* PLUMBOB_TOOLS_API */

/* The resource name of an opened RCOL: the name in its first block's
 * cSGResource head (the block head's resource_name above), or for a CRES
 * the one a cResourceNode of form 1 carries after its form byte; a form-0
 * node has none (PLUMBOB_OK, an empty name).  The name points into the
 * RCOL's bytes; on any error it is empty.  Errors:
 * PLUMBOB_ERR_INVALID_ARGUMENT, PLUMBOB_ERR_TRUNCATED,
 * PLUMBOB_ERR_BAD_MAGIC (no "cSGResource" where the head is),
 * PLUMBOB_ERR_BAD_DATA (a bad string prefix). */
PLUMBOB_API plumbob_result plumbob_sims2_rcol_name(const plumbob_sims2_rcol *rc, plumbob_string *name);

#ifdef __cplusplus
}
#endif

#endif /* PLUMBOB_PACKAGE_H */
