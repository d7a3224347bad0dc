/* libFuzzer target for the bounded reader: the first bytes of the input are
 * a little program of reader operations run over the rest.  Any read outside
 * the data, any error that is not sticky, any position past the end is a bug. */
#include <stddef.h>
#include <stdint.h>
#include "plumbob.h"

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    plumbob_reader r, s;
    size_t prog_len, i;
    plumbob_result first = PLUMBOB_OK;
    if (size < 1) return 0;
    prog_len = data[0] % 32u;
    if (prog_len > size - 1) prog_len = size - 1;
    plumbob_reader_init(&r, data + 1 + prog_len, size - 1 - prog_len);
    for (i = 0; i < prog_len; i++) {
        unsigned op = data[1 + i];
        size_t arg = (size_t)(op >> 4) * 3u;
        switch (op & 15u) {
        case 0: (void)plumbob_read_u8(&r); break;
        case 1: (void)plumbob_read_u16le(&r); break;
        case 2: (void)plumbob_read_u16be(&r); break;
        case 3: (void)plumbob_read_u32le(&r); break;
        case 4: (void)plumbob_read_u32be(&r); break;
        case 5: (void)plumbob_read_u64le(&r); break;
        case 6: (void)plumbob_read_u64be(&r); break;
        case 7: (void)plumbob_read_f32le(&r); break;
        case 8: (void)plumbob_read_f32be(&r); break;
        case 9: {
            const unsigned char *p = plumbob_read_bytes(&r, arg);
            volatile unsigned char sink = 0;
            size_t k;
            if (p) for (k = 0; k < arg; k++) sink ^= p[k]; /* ASan checks every byte */
            (void)sink;
            break;
        }
        case 10: plumbob_reader_skip(&r, arg); break;
        case 11: plumbob_reader_align4(&r); break;
        case 12: plumbob_reader_seek(&r, arg); break;
        case 13:
            s = plumbob_reader_sub(&r, arg, (size_t)(op & 0x30u));
            while (plumbob_reader_ok(&s) && plumbob_reader_remaining(&s) > 0) (void)plumbob_read_u8(&s);
            break;
        case 14: (void)plumbob_identify(data, size); break;
        default: {
            plumbob_clip_key k;
            (void)plumbob_clip_key_from_name((const char *)data, size, &k);
            break;
        }
        }
        CHECK(r.pos <= r.size);
        if (first != PLUMBOB_OK) CHECK(r.error == first); /* errors stick */
        first = r.error;
    }
    return 0;
}
