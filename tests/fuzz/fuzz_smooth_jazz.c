/* libFuzzer target: the Smooth Jazz compiler on arbitrary text.  Whatever
 * compiles must write a resource the core decodes, and its decompiled text
 * must compile back to the same bytes.  Failures to compile must carry a
 * place. */
#include <stdlib.h>
#include <string.h>
#include "smooth_jazz/smooth_jazz.h"

static unsigned char *emit(sj_program *prog, size_t *size) {
    size_t need = plumbob_jazz_write_size(&prog->build.jazz), got;
    unsigned char *out;
    if (need == SIZE_MAX) abort();
    out = (unsigned char *)malloc(need ? need : 1);
    if (plumbob_jazz_write(&prog->build.jazz, out, need, &got) != PLUMBOB_OK || got != need) abort();
    *size = got;
    return out;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
    sj_program prog, prog2;
    sj_error err;
    if (sj_compile((const char *)data, size, &prog, &err)) {
        size_t n, need, text_len, n2;
        unsigned char *bytes = emit(&prog, &n), *bytes2;
        plumbob_jazz j;
        plumbob_arena arena;
        void *mem;
        char *text;
        if (plumbob_jazz_measure(bytes, n, &need) != PLUMBOB_OK) abort();
        mem = malloc(need ? need : 1);
        plumbob_arena_init(&arena, mem, need);
        if (plumbob_jazz_decode(bytes, n, &arena, &j) != PLUMBOB_OK) abort();
        if (!sj_decompile(&j, NULL, &text, &text_len, &err)) abort();
        if (!sj_compile(text, text_len, &prog2, &err)) abort();
        bytes2 = emit(&prog2, &n2);
        if (n2 != n || memcmp(bytes, bytes2, n) != 0) abort();
        sj_program_free(&prog2);
        free(bytes2);
        free(text);
        free(mem);
        free(bytes);
    } else if (err.line == 0 || err.col == 0 || err.message[0] == '\0') {
        abort();
    }
    sj_program_free(&prog);
    return 0;
}
