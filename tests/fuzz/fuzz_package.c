/* libFuzzer target for DBPF packages: open, iterate, sort, find and read
 * every entry of any input. */
#include <stdint.h>
#include <stdlib.h>
#include "plumbob.h"

static unsigned char arena_mem[1 << 20];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    plumbob_package pkg;
    plumbob_arena arena;
    uint32_t i;
    if (plumbob_package_open(&pkg, data, size) != PLUMBOB_OK) return 0;
    plumbob_arena_init(&arena, arena_mem, sizeof arena_mem);
    (void)plumbob_package_sort(&pkg, &arena);
    for (i = 0; i < pkg.count && i < 4096; i++) {
        plumbob_package_entry e, f;
        const unsigned char *res;
        size_t rs;
        unsigned char *buf;
        if (plumbob_package_entry_at(&pkg, i, &e) != PLUMBOB_OK) __builtin_trap();
        if (plumbob_package_find(&pkg, e.type, e.group, e.instance, &f, NULL) != PLUMBOB_OK) __builtin_trap();
        if (e.mem_size > (1u << 22)) continue;
        buf = (unsigned char *)malloc(e.mem_size ? e.mem_size : 1);
        if (plumbob_package_read(&pkg, &e, buf, e.mem_size, &res, &rs) == PLUMBOB_OK) {
            volatile unsigned char sink = 0;
            size_t k;
            for (k = 0; k < rs; k++) sink ^= res[k]; /* ASan checks every byte */
            (void)sink;
        }
        free(buf);
    }
    return 0;
}
