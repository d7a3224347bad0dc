/* Decodes a Sims 3 clip with plumbob::core and prints, per track, its
 * target hash and its value at 1 s: the lines tests/cmake-tests.sh compares
 * with `plumbob clip sample FILE --time 1`.  Hosted C99 (stdio) over the
 * freestanding core; all of the core's memory is the static arena below. */
#include <stdio.h>
#define PLUMBOB_TOOLS_API /* plumbob_clip_sample_track: the tools surface, opt-in */
#include "plumbob.h"

static unsigned char file[1u << 20];
static unsigned char memory[64u * 1024u];

int main(int argc, char **argv) {
    FILE *f;
    size_t size, need, i;
    plumbob_arena arena;
    plumbob_clip clip;
    plumbob_result r;
    if (argc != 2 || !(f = fopen(argv[1], "rb"))) {
        fprintf(stderr, "usage: consumer FILE.clip\n");
        return 2;
    }
    size = fread(file, 1, sizeof file, f);
    fclose(f);
    printf("plumbob %s (%u) port %s\n", PLUMBOB_VERSION_STRING, plumbob_version_number(), plumbob_port_name());
    printf("fnv32(b__Pelvis__) 0x%08lX\n", (unsigned long)plumbob_fnv32_str("b__Pelvis__"));
    if ((r = plumbob_clip_measure(file, size, &need)) != PLUMBOB_OK || need > sizeof memory) {
        printf("measure: %s\n", plumbob_result_str(r));
        return 1;
    }
    plumbob_arena_init(&arena, memory, sizeof memory);
    if ((r = plumbob_clip_decode(file, size, &arena, &clip)) != PLUMBOB_OK) {
        printf("decode: %s\n", plumbob_result_str(r));
        return 1;
    }
    printf("clip %.*s, %u ticks, %lu tracks\n", (int)clip.name.len, clip.name.ptr,
           (unsigned)clip.tick_count, (unsigned long)clip.track_count);
    for (i = 0; i < clip.track_count; i++) {
        float v[4];
        unsigned c;
        plumbob_clip_sample_track(&clip, (uint32_t)i, 1.0f, v);
        printf("0x%08lX", (unsigned long)clip.tracks[i].hash);
        for (c = 0; c < clip.tracks[i].components; c++) printf(" %.6f", (double)v[c]);
        printf("\n");
    }
    return 0;
}
