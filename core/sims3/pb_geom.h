/* Internal: the GEOM chunk's tag, version and fixed sizes, shared by the
 * decoder and the writer so the two cannot disagree. */
#ifndef PLUMBOB_PB_GEOM_H
#define PLUMBOB_PB_GEOM_H

#include "plumbob/sims3.h"

#define PB_GEOM_TAG 0x4D4F4547u /* "GEOM" read as a little-endian u32 */
#define PB_GEOM_VERSION 5u      /* The Sims 3's */
#define PB_GEOM_SIMS4_VERSION 12u /* and up: The Sims 4's layout (refused) */
#define PB_GEOM_ELEMENT_BYTES 9u  /* u32 usage, u32 data type, u8 size */
#define PB_GEOM_TGI_BYTES 16u     /* u32 type, u32 group, u64 instance */
#define PB_GEOM_TGI_TABLE_AT 12u  /* the TGI offset counts from the end of its own field */

/* Bytes per vertex a known usage takes, 0 for a usage kept but not read. */
static inline uint32_t pb_geom_usage_size(uint32_t usage) {
    switch (usage) {
    case PLUMBOB_GEOM_POSITION:
    case PLUMBOB_GEOM_NORMAL:
    case PLUMBOB_GEOM_TANGENT: return 12u;
    case PLUMBOB_GEOM_UV: return 8u;
    case PLUMBOB_GEOM_WEIGHTS: return 16u;
    case PLUMBOB_GEOM_ASSIGNMENT:
    case PLUMBOB_GEOM_TAG:
    case PLUMBOB_GEOM_VERTEX_ID: return 4u;
    default: return 0u;
    }
}

/* Whether a usage's bytes are floats that must be finite. */
static inline bool pb_geom_usage_floats(uint32_t usage) {
    return usage == PLUMBOB_GEOM_POSITION || usage == PLUMBOB_GEOM_NORMAL || usage == PLUMBOB_GEOM_UV ||
           usage == PLUMBOB_GEOM_WEIGHTS || usage == PLUMBOB_GEOM_TANGENT;
}

#endif
