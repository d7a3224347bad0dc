/* plumbob demo: a first look at plumbob on built-in data (no files needed). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "tool.h"

/* plumbob demo --write DIR: the built-in sample files, for trying the tool. */
static int write_sample(const char *dir, const char *name, size_t (*build)(unsigned char **)) {
    unsigned char *bytes;
    size_t n = build(&bytes);
    char path[1024];
    int ok;
    if (!n) {
        tool_error("demo", "could not build %s", name);
        return 0;
    }
    snprintf(path, sizeof path, "%s/%s", dir, name);
    ok = tool_write_file(path, bytes, n);
    if (ok) printf("wrote %s (%zu bytes)\n", path, n);
    free(bytes);
    return ok;
}

static int write_samples(const char *dir) {
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        tool_error(dir, "cannot create: %s", strerror(errno));
        return 1;
    }
    if (!write_sample(dir, "6B20C4F3_00000000_00F0E1D2C3B4A596.clip", demo_clip)) return 1;
    if (!write_sample(dir, "AC4F8687_1C0532FA_00F0E1D2C3B4A597.gmdc", demo_gmdc)) return 1;
    if (!write_sample(dir, "FB00791E_1C0532FA_00F0E1D2C3B4A598.anim", demo_anim)) return 1;
    if (!write_sample(dir, "02D5DF13_00000000_ECE52D7E1B5E7C09.jazz", demo_jazz)) return 1;
    return 0;
}

int cmd_demo(int argc, char **argv) {
    static unsigned char arena_mem[4096];
    plumbob_arena arena;
    plumbob_clip_key keys[PLUMBOB_CLIP_MAX_FALLBACKS];
    size_t n = 0, i;
    const char *clip = "t2c_soc_hug_x";
    plumbob_quat a = {0, 0, 0, 1}, b = {0, 0, 0.70710678f, 0.70710678f}, q;
    if (argc == 3 && strcmp(argv[1], "--write") == 0) return write_samples(argv[2]);
    if (argc > 1) {
        printf("usage: plumbob demo [--write DIR]\n"
               "  Runs plumbob on built-in sample data and prints what it did.\n"
               "  --write DIR saves the sample files (made by plumbob's own writers) to DIR.\n");
        return strcmp(argv[1], "--help") == 0 ? 0 : 2;
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
    {
        unsigned char *bytes;
        size_t size = demo_clip(&bytes), need;
        plumbob_clip c;
        plumbob_arena ca;
        static unsigned char clip_arena[4096];
        float v[4];
        if (size && plumbob_clip_measure(bytes, size, &need) == PLUMBOB_OK && need <= sizeof clip_arena) {
            plumbob_arena_init(&ca, clip_arena, sizeof clip_arena);
            if (plumbob_clip_decode(bytes, size, &ca, &c) == PLUMBOB_OK) {
                printf("\nA CLIP written by plumbob (%zu bytes, %zu arena bytes), sampled:\n", size, need);
                for (i = 0; i <= 4; i++) {
                    float t = plumbob_clip_duration(&c) * (float)i / 4.0f;
                    plumbob_clip_sample_track(&c, 0, t, v);
                    printf("  t=%.2fs  spine rotation z=%.4f w=%.4f", (double)t, (double)v[2], (double)v[3]);
                    plumbob_clip_sample_track(&c, 1, t, v);
                    printf("  root y=%.3f\n", (double)v[1]);
                }
            }
        }
        free(bytes);
    }
    printf("\nTry: build/plumbob demo --write build/demo && build/plumbob clip dump build/demo/*.clip\n");
    printf("     build/plumbob jazz run build/demo/*.jazz --param side=back --enter Enter --request Exit\n");
    return 0;
}
