/* libFuzzer target: the glTF reader and clip import on arbitrary bytes.
 * Every input is refused with a reason or imported into a clip that
 * plumbob's writer writes and its decoder reads back. */
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
    gltf_doc_free(&doc);
    return 0;
}
