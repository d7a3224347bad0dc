/* Jazz track masks in `info` and `check` (the format registry's entry; no
 * command family of their own): the core reads and writes them. */
#include <stdlib.h>
#include "plumbob.h"
#include "util/files.h"
#include "commands.h"
#include "tool_input.h"
#include "tool_types.h"

/* A track mask: its version, its weights and how many of them mask a bone
 * (below 1), and the pet facial weight of version 0x201. */
int track_mask_info(const tool_input *in, FILE *out) {
    plumbob_track_mask m;
    plumbob_error err;
    plumbob_result r = plumbob_track_mask_decode_ex(in->data, in->size, &m, &err);
    char label[64];
    uint32_t i, below = 0;
    float *w;
    if (r != PLUMBOB_OK) {
        tool_error(in->name, "not a valid track mask: %s at byte %zu, %s: %s", plumbob_result_str(r), err.offset,
                   err.table, err.reason);
        return 1;
    }
    w = (float *)malloc(m.weight_count ? 4u * (size_t)m.weight_count : 1u);
    if (!w || plumbob_track_mask_weights(&m, w, m.weight_count) != PLUMBOB_OK) {
        free(w);
        tool_error(in->name, "out of memory");
        return 1;
    }
    for (i = 0; i < m.weight_count; i++)
        if (!(w[i] >= 1.0f)) below++;
    free(w);
    tool_type_label(PLUMBOB_TYPE_TRACK_MASK, label, sizeof label);
    fprintf(out, "%s: %s track mask, version 0x%X, %u bone weights (%u below 1)", in->name, label,
            (unsigned)m.version, (unsigned)m.weight_count, (unsigned)below);
    if (m.version == 0x201u) fprintf(out, ", facial weight %g", (double)m.facial_weight);
    fprintf(out, ", %zu bytes\n", in->size);
    return 0;
}

/* decode -> weights -> write: the core's round trip, byte for byte */
plumbob_result track_mask_reencode(const tool_input *in, unsigned char **out, size_t *out_size) {
    plumbob_track_mask m;
    plumbob_result r = plumbob_track_mask_decode(in->data, in->size, &m);
    float *w;
    size_t ws;
    if (r != PLUMBOB_OK) return r;
    w = (float *)malloc(m.weight_count ? 4u * (size_t)m.weight_count : 1u);
    if (!w) return PLUMBOB_ERR_OUT_OF_MEMORY;
    r = plumbob_track_mask_weights(&m, w, m.weight_count);
    ws = plumbob_track_mask_write_size(m.weight_count);
    *out = r == PLUMBOB_OK ? (unsigned char *)malloc(ws) : NULL;
    if (r == PLUMBOB_OK && !*out) r = PLUMBOB_ERR_OUT_OF_MEMORY;
    if (r == PLUMBOB_OK) r = plumbob_track_mask_write(&m, w, m.weight_count, *out, ws, out_size);
    free(w);
    return r;
}
