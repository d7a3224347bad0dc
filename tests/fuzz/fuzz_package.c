/* libFuzzer target for DBPF packages: open, iterate, sort, find and read
 * every entry of any input into a buffer of the size
 * plumbob_package_read_size gives; then write what was read with plumbob's writer
 * (stored, zlib entries of a 2.0 package carried as they are) and open the
 * result: the same keys in the same order, each reading back the same
 * bytes. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "plumbob.h"

#define MAX_ENTRIES 256u
#define MAX_BYTES (1u << 22)

static unsigned char arena_mem[1 << 20];

/* Every entry's bytes as the reader gives them (NULL when it refuses). */
typedef struct read_entry {
    plumbob_package_entry e;
    const unsigned char *bytes;
    size_t size;
    unsigned char *owned;
} read_entry;

static void round_trip(const plumbob_package *pkg, read_entry *r, uint32_t n) {
    plumbob_package_write_entry w[MAX_ENTRIES];
    uint32_t i, m = 0;
    size_t need, got;
    unsigned char *out;
    plumbob_package back;
    uint32_t major = pkg->major == 2 ? 2u : 1u;
    for (i = 0; i < n; i++) {
        plumbob_package_write_entry *x = &w[m];
        if (major == 1 && r[i].e.type == PLUMBOB_TYPE_SIMS2_DIR) continue; /* the writer makes it */
        x->type = r[i].e.type;
        x->group = r[i].e.group;
        x->instance = r[i].e.instance;
        if (r[i].bytes) {
            x->data = r[i].bytes;
            x->size = x->mem_size = (uint32_t)r[i].size;
            x->compression = PLUMBOB_COMPRESSION_NONE;
        } else if (major == 2 && r[i].e.compression == PLUMBOB_COMPRESSION_ZLIB) {
            x->data = plumbob_package_raw(pkg, &r[i].e);
            x->size = r[i].e.file_size;
            x->mem_size = r[i].e.mem_size;
            x->compression = PLUMBOB_COMPRESSION_ZLIB;
        } else {
            continue; /* unreadable: nothing to carry */
        }
        m++;
    }
    need = plumbob_package_write_size(w, m, major);
    if (need == SIZE_MAX || need > (64u << 20)) return;
    out = (unsigned char *)malloc(need);
    if (plumbob_package_write(w, m, major, out, need, &got) != PLUMBOB_OK || got != need) __builtin_trap();
    if (plumbob_package_open(&back, out, got) != PLUMBOB_OK) __builtin_trap();
    for (i = 0; i < m; i++) {
        plumbob_package_entry e;
        const unsigned char *res;
        size_t rs;
        if (plumbob_package_entry_at(&back, i, &e) != PLUMBOB_OK) __builtin_trap();
        if (e.type != w[i].type || e.group != w[i].group || e.instance != w[i].instance ||
            e.mem_size != w[i].mem_size || e.compression != w[i].compression)
            __builtin_trap();
        if (w[i].compression == PLUMBOB_COMPRESSION_ZLIB) {
            if (e.file_size != w[i].size || memcmp(plumbob_package_raw(&back, &e), w[i].data, w[i].size) != 0)
                __builtin_trap();
            continue;
        }
        if (plumbob_package_read(&back, &e, NULL, 0, &res, &rs) != PLUMBOB_OK || rs != w[i].size ||
            (rs && memcmp(res, w[i].data, rs) != 0))
            __builtin_trap();
    }
    free(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    plumbob_package pkg;
    plumbob_arena arena;
    read_entry r[MAX_ENTRIES];
    uint32_t i, n = 0;
    if (plumbob_package_open(&pkg, data, size) != PLUMBOB_OK) return 0;
    plumbob_arena_init(&arena, arena_mem, sizeof arena_mem);
    (void)plumbob_package_sort(&pkg, &arena);
    for (i = 0; i < pkg.count && i < 4096; i++) {
        plumbob_package_entry e, f;
        const unsigned char *res = NULL;
        size_t rs = 0;
        unsigned char *buf;
        if (plumbob_package_entry_at(&pkg, i, &e) != PLUMBOB_OK) __builtin_trap();
        if (plumbob_package_find(&pkg, e.type, e.group, e.instance, &f, NULL) != PLUMBOB_OK) __builtin_trap();
        size_t need = 0;
        plumbob_result sized = plumbob_package_read_size(&pkg, &e, &need);
        if (e.mem_size > MAX_BYTES) continue;
        /* exactly the size the query gives (ASan sees any write past it);
         * a refused claim must not read */
        buf = (unsigned char *)malloc(need ? need : 1);
        if (plumbob_package_read(&pkg, &e, buf, need, &res, &rs) == PLUMBOB_OK) {
            if (sized != PLUMBOB_OK) __builtin_trap();
            volatile unsigned char sink = 0;
            size_t k;
            for (k = 0; k < rs; k++) sink ^= res[k]; /* ASan checks every byte */
            (void)sink;
        } else {
            res = NULL;
        }
        if (n < MAX_ENTRIES) {
            r[n].e = e;
            r[n].bytes = res;
            r[n].size = rs;
            r[n].owned = buf;
            n++;
        } else {
            free(buf);
        }
    }
    if (pkg.count <= MAX_ENTRIES) round_trip(&pkg, r, n);
    for (i = 0; i < n; i++) free(r[i].owned);
    return 0;
}
