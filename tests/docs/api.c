/* The context docs/API.md's fragments assume (tests/docs-examples.sh pastes
 * each one in place of the marked line): the caller's bytes, arena, buffers,
 * skeleton and decoded objects, as a game would hold them.  Globals, so the
 * names a fragment leaves unused cost no warning; compiled, never run. */
#include <stdio.h>
#include "plumbob.h"

#define MAX_JOINTS 64
#define MAX_BONES 128

/* input and memory */
const unsigned char *bytes, *data, *src, *file_bytes;
size_t size, src_size, file_size, need, count, n;
unsigned char buffer[4096], dst[4096];
unsigned char *work;
plumbob_arena arena;
uint64_t instance, seed;
/* a skeleton and what a frame writes */
plumbob_skeleton skeleton;
plumbob_bone_pose *poses, *poses_or_NULL;
plumbob_mat34 *model, *palette, *joint_model_transforms;
const uint32_t *my_morph_hashes;
uint32_t n_morphs, joints, n_weights, n_out, my_sim_handle;
float *morph_weights, *weights, *out_xyz, *out, *out_n;
float seconds, previous_time, t, time_ms;
bool looping;
/* decoded objects the later fragments use */
plumbob_gmdc mesh;
plumbob_clip clip;
plumbob_rig rig;
plumbob_clip_binding bind;
plumbob_clip_sampler sampler;
const plumbob_key_table *key_table_or_NULL;
plumbob_key_table key_table;
plumbob_anim anim;
plumbob_cres_skeleton sk;
float ticks;
plumbob_geom geom;
float *out_p, *out_t;
plumbob_skin_mesh m;
unsigned char *memory;
/* what the caller does with values a fragment reads */
void use(uint32_t value);
void use_float(float a, float b);

void example(void);
void example(void) {
    /* @example */
}
