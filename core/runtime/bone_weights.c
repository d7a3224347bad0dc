/* Per-bone weight arrays (masks) from bones a caller names: each listed
 * bone and everything below it weigh `inside`, the rest `outside`.  One
 * forward pass: parents come first (checked), so a bone's parent has its
 * value already, and with inside != outside that value says whether the
 * parent is in a listed subtree; no scratch memory. */
#include "plumbob/runtime.h"

plumbob_result plumbob_bone_weights_subtrees(const plumbob_skeleton *skeleton, const uint32_t *bone_hashes,
                                             uint32_t hash_count, float inside, float outside, float *weights,
                                             uint32_t weight_count) {
    uint32_t k, h, n;
    plumbob_result r;
    if (!skeleton || !weights || (hash_count && !bone_hashes)) return PLUMBOB_ERR_INVALID_ARGUMENT;
    if (!(inside >= 0.0f && inside <= 1.0f && outside >= 0.0f && outside <= 1.0f))
        return PLUMBOB_ERR_INVALID_ARGUMENT;
    r = plumbob_skeleton_validate(skeleton);
    if (r != PLUMBOB_OK) return r;
    n = skeleton->bone_count;
    if (hash_count && !skeleton->name_hash) return PLUMBOB_ERR_INVALID_ARGUMENT;
    for (h = 0; h < hash_count; h++)
        if (plumbob_skeleton_find(skeleton, bone_hashes[h]) < 0) return PLUMBOB_ERR_NOT_FOUND;
    if (weight_count < n) return PLUMBOB_ERR_OUTPUT_TOO_SMALL;
    for (k = 0; k < n; k++) {
        int32_t p = skeleton->parent[k];
        int in = inside != outside && p >= 0 && weights[p] == inside;
        for (h = 0; !in && h < hash_count; h++) in = skeleton->name_hash[k] == bone_hashes[h];
        weights[k] = in ? inside : outside;
    }
    return PLUMBOB_OK;
}
