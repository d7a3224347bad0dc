/* Track masks (jazz's per-bone play weights): a fixed 60-byte head, then
 * a counted float array that stays in the input. */
#include "plumbob/sims3.h"
#include "pb_bytes.h"
#include "pb_error.h"

#define PB_TKMK_HEAD 60u /* magic, version, 48 header bytes, count */
#define PB_TKMK_MAX 65536u

plumbob_result plumbob_track_mask_decode_ex(const void *data, size_t size, plumbob_track_mask *mask,
                                            plumbob_error *err) {
    const unsigned char *d = (const unsigned char *)data;
    uint32_t version, count, i;
    if (err) {
        err->result = PLUMBOB_OK;
        err->offset = 0;
        err->table = NULL;
        err->index = 0;
        err->reason = NULL;
    }
    if (!mask || (!d && size)) return pb_note(err, PLUMBOB_ERR_INVALID_ARGUMENT, 0, "arguments", 0, "NULL");
    if (size < 8) return pb_note(err, PLUMBOB_ERR_TRUNCATED, size, "track_mask", 0, "runs past the end of the data");
    if (d[0] != 'T' || d[1] != 'k' || d[2] != 'M' || d[3] != 'k')
        return pb_note(err, PLUMBOB_ERR_BAD_MAGIC, 0, "track_mask", 0, "not TkMk");
    version = pb_le32(d + 4);
    if (version != 0x200u && version != 0x201u)
        return pb_note(err, PLUMBOB_ERR_UNSUPPORTED_VERSION, 4, "track_mask", 0, "version not 0x200 or 0x201");
    if (size < PB_TKMK_HEAD)
        return pb_note(err, PLUMBOB_ERR_TRUNCATED, size, "track_mask", 0, "runs past the end of the data");
    count = pb_le32(d + 56);
    if (count > PB_TKMK_MAX) /* also a negative i32 */
        return pb_note(err, PLUMBOB_ERR_BAD_COUNT, 56, "weights", 0, "negative or above 65,536");
    if ((size - PB_TKMK_HEAD) / 4u < count)
        return pb_note(err, PLUMBOB_ERR_TRUNCATED, size, "weights", (uint32_t)((size - PB_TKMK_HEAD) / 4u),
                       "runs past the end of the data");
    if (size - PB_TKMK_HEAD != 4u * (size_t)count)
        return pb_note(err, PLUMBOB_ERR_BAD_DATA, PB_TKMK_HEAD + 4u * (size_t)count, "track_mask", 0,
                       "bytes after the last weight");
    mask->version = version;
    for (i = 0; i < 48u; i++) mask->header[i] = d[8 + i];
    mask->facial_weight = version == 0x201u ? pb_f32le(d + 24) : 0.0f;
    mask->weight_count = count;
    mask->weights = d + PB_TKMK_HEAD;
    return PLUMBOB_OK;
}

plumbob_result plumbob_track_mask_decode(const void *data, size_t size, plumbob_track_mask *mask) {
    return plumbob_track_mask_decode_ex(data, size, mask, NULL);
}

plumbob_result plumbob_track_mask_weights(const plumbob_track_mask *mask, float *out, uint32_t out_count) {
    uint32_t i;
    if (!mask || !out || (mask->weight_count && !mask->weights)) return PLUMBOB_ERR_INVALID_ARGUMENT;
    if (out_count < mask->weight_count) return PLUMBOB_ERR_OUTPUT_TOO_SMALL;
    for (i = 0; i < mask->weight_count; i++) out[i] = pb_f32le(mask->weights + 4u * i);
    return PLUMBOB_OK;
}

size_t plumbob_track_mask_write_size(uint32_t weight_count) {
    return PB_TKMK_HEAD + 4u * (size_t)weight_count;
}

plumbob_result plumbob_track_mask_write(const plumbob_track_mask *mask, const float *weights, uint32_t weight_count,
                                        void *out, size_t out_cap, size_t *out_size) {
    unsigned char *o = (unsigned char *)out;
    size_t need;
    uint32_t i;
    if (!mask || !o || (weight_count && !weights) || weight_count > PB_TKMK_MAX ||
        (mask->version != 0x200u && mask->version != 0x201u))
        return PLUMBOB_ERR_INVALID_ARGUMENT;
    need = plumbob_track_mask_write_size(weight_count);
    if (out_cap < need) return PLUMBOB_ERR_OUT_OF_MEMORY;
    o[0] = 'T';
    o[1] = 'k';
    o[2] = 'M';
    o[3] = 'k';
    pb_put_le32(o + 4, mask->version);
    for (i = 0; i < 48u; i++) o[8 + i] = mask->header[i];
    if (mask->version == 0x201u) pb_put_f32le(o + 24, mask->facial_weight);
    pb_put_le32(o + 56, weight_count);
    for (i = 0; i < weight_count; i++) pb_put_f32le(o + PB_TKMK_HEAD + 4u * i, weights[i]);
    if (out_size) *out_size = need;
    return PLUMBOB_OK;
}
