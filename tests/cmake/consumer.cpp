// The C++11 side of the consumer: plumbob.h compiled as C++ (-Wall -Wextra
// -Wpedantic -Werror), the same clip decoded and the same lines printed as
// consumer.c, so tests/cmake-tests.sh can compare both with the tool.
#include <cstdio>
#include <fstream>
#include <iterator>
#include <vector>
#define PLUMBOB_TOOLS_API /* plumbob_clip_sample_track: the tools surface, opt-in */
#include "plumbob.h"

int main(int argc, char **argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: consumer_cpp FILE.clip\n");
        return 2;
    }
    std::ifstream in(argv[1], std::ios::binary);
    std::vector<unsigned char> file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::printf("plumbob %s (%u) port %s\n", PLUMBOB_VERSION_STRING, plumbob_version_number(), plumbob_port_name());
    std::printf("fnv32(b__Pelvis__) 0x%08lX\n", static_cast<unsigned long>(plumbob_fnv32_str("b__Pelvis__")));
    size_t need = 0;
    plumbob_result r = plumbob_clip_measure(file.data(), file.size(), &need);
    if (r != PLUMBOB_OK) {
        std::printf("measure: %s\n", plumbob_result_str(r));
        return 1;
    }
    std::vector<unsigned char> memory(need);
    plumbob_arena arena;
    plumbob_arena_init(&arena, memory.data(), memory.size());
    plumbob_clip clip;
    r = plumbob_clip_decode(file.data(), file.size(), &arena, &clip);
    if (r != PLUMBOB_OK) {
        std::printf("decode: %s\n", plumbob_result_str(r));
        return 1;
    }
    std::printf("clip %.*s, %u ticks, %lu tracks\n", static_cast<int>(clip.name.len), clip.name.ptr,
                static_cast<unsigned>(clip.tick_count), static_cast<unsigned long>(clip.track_count));
    for (uint32_t i = 0; i < clip.track_count; i++) {
        float v[4];
        plumbob_clip_sample_track(&clip, i, 1.0f, v);
        std::printf("0x%08lX", static_cast<unsigned long>(clip.tracks[i].hash));
        for (unsigned c = 0; c < clip.tracks[i].components; c++) std::printf(" %.6f", static_cast<double>(v[c]));
        std::printf("\n");
    }
    return 0;
}
