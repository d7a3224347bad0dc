/* Internal: the Sims 3 RCOL wrapper every Sims 3 RCOL resource (jazz, GEOM)
 * starts with: five u32 (version 3, public chunk count, a word, external
 * count, internal count), the internal then the external keys (u64
 * instance, u32 type, u32 group), then one (u32 offset, u32 size) per
 * internal chunk.  The numbers live here once, so readers and writers of
 * each kind cannot disagree about them. */
#ifndef PLUMBOB_PB_RCOL3_H
#define PLUMBOB_PB_RCOL3_H

#include <stddef.h>
#include <stdint.h>

#define PB_RCOL3_VERSION 3u
#define PB_RCOL3_HEADER_BYTES 20u
#define PB_RCOL3_KEY_BYTES 16u
#define PB_RCOL3_CHUNK_ENTRY_BYTES 8u

/* Where the parts of the wrapper lie for `internal` and `external` keys
 * (size_t arithmetic: counts are u32, so nothing overflows on 64 bits and
 * the callers bound them first on 32). */
static inline size_t pb_rcol3_external_keys_at(uint32_t internal) {
    return PB_RCOL3_HEADER_BYTES + (size_t)internal * PB_RCOL3_KEY_BYTES;
}
static inline size_t pb_rcol3_chunk_table_at(uint32_t internal, uint32_t external) {
    return PB_RCOL3_HEADER_BYTES + ((size_t)internal + external) * PB_RCOL3_KEY_BYTES;
}
static inline size_t pb_rcol3_chunks_at(uint32_t internal, uint32_t external) {
    return pb_rcol3_chunk_table_at(internal, external) + (size_t)internal * PB_RCOL3_CHUNK_ENTRY_BYTES;
}

#endif
