/* libFuzzer target: the glTF reader, clip import and GMDC import on
 * arbitrary bytes.  Every input is refused with a reason or imported into a
 * clip or mesh that plumbob's writers write and its decoders read back. */
#include <stdlib.h>
#include "gltf/gltf_import.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
    static unsigned char out[1u << 20];
    static unsigned char arena_mem[1u << 16];
    gltf_doc doc;
    clip_import ci;
    clip_import_opts o = {0};
    char why[300];
    o.fps = 30;
    o.max_rotation_deg = 0.01;
    o.max_translation = 0.0001;
    o.max_morph = 0.001;
    o.max_samples = 200000; /* keep one input quick */
    if (gltf_read(data, size, "/nonexistent/fuzz.gltf", &doc, why, sizeof why) &&
        gltf_import_clip(&doc, &o, &ci, why, sizeof why)) {
        size_t need = plumbob_clip_write_size(&ci.clip), got = 0;
        if (need != SIZE_MAX && need <= sizeof out) {
            plumbob_clip back;
            plumbob_arena arena;
            if (plumbob_clip_write(&ci.clip, out, need, &got) != PLUMBOB_OK) abort();
            plumbob_arena_init(&arena, arena_mem, sizeof arena_mem);
            {
                plumbob_result r = plumbob_clip_decode(out, got, &arena, &back);
                if (r != PLUMBOB_OK && r != PLUMBOB_ERR_OUT_OF_MEMORY) abort();
            }
        }
        clip_import_free(&ci);
    }
    if (doc.buffers) {
        gmdc_import gi;
        if (gltf_import_gmdc(&doc, NULL, &gi, why, sizeof why)) {
            size_t need = plumbob_gmdc_write_size(&gi.gmdc), got = 0, arena_bytes = 0;
            if (need != SIZE_MAX && need <= sizeof out) {
                if (plumbob_gmdc_write(&gi.gmdc, out, need, &got) != PLUMBOB_OK) abort();
                if (plumbob_gmdc_measure(out, got, &arena_bytes) != PLUMBOB_OK) abort();
                {
                    void *mem = malloc(arena_bytes ? arena_bytes : 1);
                    plumbob_arena arena;
                    plumbob_gmdc back;
                    plumbob_arena_init(&arena, mem, arena_bytes);
                    if (!mem || plumbob_gmdc_decode(out, got, &arena, &back) != PLUMBOB_OK) abort();
                    free(mem);
                }
            }
            gmdc_import_free(&gi);
        }
    }
    gltf_doc_free(&doc);
    return 0;
}
