/* libFuzzer target for track masks (TkMk): decode any bytes; a refusal
 * must carry a located error (offset inside the input, same code as the
 * plain call); an accepted mask must give its weights and write back the
 * input byte for byte. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "plumbob.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static float w[65536];
    static unsigned char out[60 + 4 * 65536];
    plumbob_track_mask m, m2;
    plumbob_error err;
    size_t n = 0;
    plumbob_result r = plumbob_track_mask_decode_ex(data, size, &m, &err);
    if (r != plumbob_track_mask_decode(data, size, &m2) || err.result != r) abort();
    if (r != PLUMBOB_OK) {
        if (err.offset > size || !err.table || !err.reason) abort();
        return 0;
    }
    if (plumbob_track_mask_weights(&m, w, 65536) != PLUMBOB_OK) abort();
    if (plumbob_track_mask_write(&m, w, m.weight_count, out, sizeof out, &n) != PLUMBOB_OK) abort();
    if (n != size || memcmp(out, data, size) != 0) abort();
    return 0;
}
