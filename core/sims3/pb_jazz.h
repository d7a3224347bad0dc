/* Internal: jazz chunk tags, RCOL types and versions, shared by the decoder
 * and the writer so the two cannot disagree. */
#ifndef PLUMBOB_PB_JAZZ_H
#define PLUMBOB_PB_JAZZ_H

#include "plumbob/sims3.h"
#include "pb_rcol3.h"

#define PB_JAZZ_DEADBEEF 0xDEADBEEFu
#define PB_JAZZ_END_DGN 0x4E47442Fu /* "/DGN" read as a little-endian u32 */
#define PB_JAZZ_REF_PRIVATE 0x10000000u
#define PB_JAZZ_RCOL_VERSION PB_RCOL3_VERSION
#define PB_JAZZ_HEADER_BYTES PB_RCOL3_HEADER_BYTES
#define PB_JAZZ_KEY_BYTES PB_RCOL3_KEY_BYTES

/* One row per chunk kind a jazz resource holds: the tag as a little-endian
 * u32, the RCOL key type, the only version decoded, and what it is. */
typedef struct pb_jazz_tag {
    uint32_t tag, type, version;
    uint32_t kind;      /* plumbob_jazz_kind */
    uint32_t node_kind; /* plumbob_jazz_node_kind for PLUMBOB_JAZZ_NODE */
} pb_jazz_tag;

/* Shared between files of the library, so not static: renamed into the
 * plumbob_ namespace so libplumbob exports no other prefix (checked by
 * tests/build-tests.sh). */
#define pb_jazz_tag_find plumbob_pb_jazz_tag_find
#define pb_jazz_tag_for plumbob_pb_jazz_tag_for

/* The row for a tag word, or NULL. */
const pb_jazz_tag *pb_jazz_tag_find(uint32_t tag);

/* The row for a chunk kind and (for nodes) node kind, or NULL. */
const pb_jazz_tag *pb_jazz_tag_for(uint32_t kind, uint32_t node_kind);

#endif
