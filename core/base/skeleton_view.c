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
    /* The jobs run this every frame, so four bones a step without a branch
       each: p in [-1, i) is p + 1 in [0, i] as unsigned (a p below -1 wraps
       above any i up to INT32_MAX; longer views take the plain loop). */
    if (s->bone_count <= (uint32_t)INT32_MAX) {
        const int32_t *par = s->parent;
        uint32_t n4 = s->bone_count & ~3u, bad = 0;
        for (i = 0; i < n4; i += 4)
            bad |= (uint32_t)((uint32_t)par[i] + 1u > i) | (uint32_t)((uint32_t)par[i + 1] + 1u > i + 1u) |
                   (uint32_t)((uint32_t)par[i + 2] + 1u > i + 2u) | (uint32_t)((uint32_t)par[i + 3] + 1u > i + 3u);
        if (bad) return PLUMBOB_ERR_BAD_INDEX;
    } else {
        i = 0;
    }
    for (; i < s->bone_count; i++) {
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
