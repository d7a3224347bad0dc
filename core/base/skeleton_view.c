/* Skeleton views (the type every layer shares, plumbob/base.h): the
 * parent-before-child check the decoders of rigs and CRES run on the views
 * they build, and the lookup by bone name hash.  The per-frame jobs over a
 * skeleton are runtime/skeleton.c. */
#include "plumbob/base.h"

plumbob_result plumbob_skeleton_validate(const plumbob_skeleton *s) {
    uint32_t i;
    if (!s) return PLUMBOB_ERR_INVALID_ARGUMENT;
    if (s->bone_count == 0) return PLUMBOB_OK;
    if (!s->parent || !s->rest) return PLUMBOB_ERR_INVALID_ARGUMENT;
    for (i = 0; i < s->bone_count; i++) {
        int32_t p = s->parent[i];
        if (p < -1 || (p >= 0 && (uint32_t)p >= i)) return PLUMBOB_ERR_BAD_INDEX;
    }
    return PLUMBOB_OK;
}

int32_t plumbob_skeleton_find(const plumbob_skeleton *s, uint32_t hash) {
    uint32_t i;
    if (!s || !s->name_hash) return -1;
    for (i = 0; i < s->bone_count && i <= (uint32_t)INT32_MAX; i++) {
        if (s->name_hash[i] == hash) return (int32_t)i;
    }
    return -1;
}
