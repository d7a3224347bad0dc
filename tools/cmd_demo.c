/* plumbob demo: a first look at plumbob on built-in data (no files needed). */
#include <string.h>
#include "tool.h"

int cmd_demo(int argc, char **argv) {
    static unsigned char arena_mem[4096];
    plumbob_arena arena;
    plumbob_clip_key keys[PLUMBOB_CLIP_MAX_FALLBACKS];
    size_t n = 0, i;
    const char *clip = "t2c_soc_hug_x";
    plumbob_quat a = {0, 0, 0, 1}, b = {0, 0, 0.70710678f, 0.70710678f}, q;
    (void)argv;
    if (argc > 1) {
        printf("usage: plumbob demo\n  Runs plumbob on built-in sample data and prints what it did.\n");
        return 0;
    }
    printf("plumbob %s demo (kernel port: %s)\n\n", PLUMBOB_VERSION_STRING, plumbob_port_name());
    plumbob_arena_init(&arena, arena_mem, sizeof arena_mem);
    printf("Arena: %zu bytes of caller memory, nothing from malloc.\n", arena.size);

    printf("\nNames -> hashes (FNV-1, lowercased):\n");
    printf("  bone b__ROOT__      -> 0x%08X\n", plumbob_fnv32_str("b__ROOT__"));
    printf("  bone b__Pelvis__    -> 0x%08X\n", plumbob_fnv32_str("b__Pelvis__"));
    printf("\nClip %s: keys a game tries, in order:\n", clip);
    if (plumbob_clip_fallbacks(clip, strlen(clip), 0, 0, keys, &n) == PLUMBOB_OK)
        for (i = 0; i < n; i++)
            printf("  %zu. instance 0x%016llX group 0x%08X\n", i + 1,
                   (unsigned long long)keys[i].instance, (unsigned)keys[i].group);

    printf("\nRotation 0 -> 90 degrees about Z, shorter-arc nlerp:\n");
    for (i = 0; i <= 4; i++) {
        q = plumbob_quat_nlerp(a, b, (float)i / 4.0f);
        printf("  t=%.2f  q = (%.4f, %.4f, %.4f, %.4f)\n", (double)i / 4.0, (double)q.x,
               (double)q.y, (double)q.z, (double)q.w);
    }
    printf("\nMore arrives with each format: CLIP sampling, GMDC skinning, jazz, packages.\n");
    return 0;
}
