/* libFuzzer target for RefPack: decompress into a heap buffer of exactly the
 * declared size (so any write past it hits ASan), with and without the
 * error location (the same result; the offset inside the input), then check that a
 * successful decode re-compresses and decodes back to the same bytes.  The
 * compressor's 768 KiB work area is allocated once: a fresh one per input made
 * the sanitizer's large-allocation path most of each run's time. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "plumbob.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    size_t out_size, hdr, n = 0;
    unsigned char *out;
    if (plumbob_refpack_header(data, size, &out_size, &hdr) != PLUMBOB_OK) return 0;
    if (out_size > (1u << 22)) return 0; /* keep runs fast */
    out = (unsigned char *)malloc(out_size ? out_size : 1);
    {
        /* the _ex variant: the same result, and a refusal located inside the input */
        plumbob_error err;
        size_t n_ex = 0;
        plumbob_result r = plumbob_refpack_decompress_ex(data, size, out, out_size, &n_ex, &err);
        if (r != err.result || err.offset > size || r != plumbob_refpack_decompress(data, size, out, out_size, &n))
            __builtin_trap();
    }
    if (plumbob_refpack_decompress(data, size, out, out_size, &n) == PLUMBOB_OK) {
        size_t cap = plumbob_refpack_bound(n), cn = 0, dn = 0;
        unsigned char *comp = (unsigned char *)malloc(cap), *back = (unsigned char *)malloc(n ? n : 1);
        static void *work;
        if (!work) work = malloc(plumbob_refpack_compress_work_size());
        if (plumbob_refpack_compress(out, n, comp, cap, work, plumbob_refpack_compress_work_size(), &cn) != PLUMBOB_OK ||
            plumbob_refpack_decompress(comp, cn, back, n, &dn) != PLUMBOB_OK || dn != n ||
            memcmp(out, back, n) != 0)
            __builtin_trap();
        free(comp);
        free(back);
    }
    free(out);
    return 0;
}
