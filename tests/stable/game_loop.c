/* A game's playback loop built against the stable surface only
 * (PLUMBOB_STABLE_ONLY hides the helpers for tools and tests): decode a
 * Sims 3 clip and its rig, bind, build the schedule, start a sampler, then
 * per frame rest pose -> sample -> model space.  tests/build-tests.sh
 * compiles it with -DPLUMBOB_STABLE_ONLY -Werror and compares what it
 * prints with `plumbob clip sample --rig`.
 * Usage: game_loop CLIP RIG SECONDS   (prints each bone's model translation) */
#include <stdio.h>
#include <stdlib.h>
#include "plumbob.h"

static unsigned char *slurp(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    unsigned char *buf = NULL;
    long n;
    if (!f) return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (buf = malloc((size_t)n)) != NULL && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    if (buf) *size = (size_t)n;
    fclose(f);
    return buf;
}

static int fail(const char *what, plumbob_result r) {
    fprintf(stderr, "game_loop: %s: %s\n", what, plumbob_result_str(r));
    return 1;
}

int main(int argc, char **argv) {
    size_t clip_size = 0, rig_size = 0, need = 0, rig_need = 0, total;
    unsigned char *clip_bytes, *rig_bytes, *mem;
    plumbob_arena arena;
    plumbob_clip clip;
    plumbob_rig rig;
    plumbob_clip_binding binding;
    plumbob_clip_schedule schedule;
    plumbob_clip_sampler sampler;
    plumbob_bone_pose *poses;
    plumbob_mat34 *model;
    plumbob_result r;
    uint32_t b;
    if (argc != 4) {
        fprintf(stderr, "usage: game_loop CLIP RIG SECONDS\n");
        return 2;
    }
    clip_bytes = slurp(argv[1], &clip_size);
    rig_bytes = slurp(argv[2], &rig_size);
    if (!clip_bytes || !rig_bytes) return fail("read", PLUMBOB_ERR_INVALID_ARGUMENT);
    if ((r = plumbob_clip_measure(clip_bytes, clip_size, &need)) != PLUMBOB_OK) return fail("clip", r);
    if ((r = plumbob_rig_measure(rig_bytes, rig_size, &rig_need)) != PLUMBOB_OK) return fail("rig", r);
    total = need + rig_need;
    mem = malloc(total);
    plumbob_arena_init(&arena, mem, total);
    if ((r = plumbob_clip_decode(clip_bytes, clip_size, &arena, &clip)) != PLUMBOB_OK) return fail("clip", r);
    if ((r = plumbob_rig_decode(rig_bytes, rig_size, &arena, &rig)) != PLUMBOB_OK) return fail("rig", r);

    /* the per-clip and per-instance memory, each sized by its query */
    total = plumbob_rig_bind_size(&clip, &rig);
    mem = malloc(total);
    plumbob_arena_init(&arena, mem, total);
    if ((r = plumbob_rig_bind(&clip, &rig, NULL, 0, &arena, &binding)) != PLUMBOB_OK) return fail("bind", r);
    total = plumbob_clip_schedule_size(&clip);
    mem = malloc(total);
    plumbob_arena_init(&arena, mem, total);
    if ((r = plumbob_clip_schedule_build(&clip, &arena, &schedule)) != PLUMBOB_OK) return fail("schedule", r);
    total = plumbob_clip_sampler_size(&schedule, &binding);
    mem = malloc(total);
    plumbob_arena_init(&arena, mem, total);
    if ((r = plumbob_clip_sampler_init(&schedule, &binding, 0, &arena, &sampler)) != PLUMBOB_OK)
        return fail("sampler", r);

    /* one frame */
    poses = malloc(sizeof *poses * rig.skeleton.bone_count);
    model = malloc(sizeof *model * rig.skeleton.bone_count);
    if ((r = plumbob_skeleton_rest_pose(&rig.skeleton, 0, rig.skeleton.bone_count, poses, rig.skeleton.bone_count)) != PLUMBOB_OK)
        return fail("rest pose", r);
    if ((r = plumbob_clip_sampler_sample(&sampler, (float)atof(argv[3]), poses, rig.skeleton.bone_count, NULL, 0)) != PLUMBOB_OK)
        return fail("sample", r);
    if ((r = plumbob_skeleton_model(&rig.skeleton, poses, model, rig.skeleton.bone_count)) != PLUMBOB_OK) return fail("model", r);
    for (b = 0; b < rig.skeleton.bone_count; b++)
        printf("%.*s %.6f %.6f %.6f\n", (int)rig.skeleton.name[b].len, rig.skeleton.name[b].ptr,
               (double)model[b].m[0][3], (double)model[b].m[1][3], (double)model[b].m[2][3]);
    return 0; /* the process ends: no frees needed for a test */
}
