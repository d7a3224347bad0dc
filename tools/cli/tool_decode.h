/* Decoding a loaded input into the tool's own structs, arenas from malloc
 * (tool_decode.c). */
#ifndef PLUMBOB_TOOL_DECODE_H
#define PLUMBOB_TOOL_DECODE_H

#include <stddef.h>
#include <stdint.h>
#include "plumbob.h"
#include "tool_input.h"

/* Decoded resources for the tool: a CLIP with its arena (malloc'd). */
typedef struct tool_clip {
    plumbob_clip clip;
    unsigned char *arena_mem;
} tool_clip;
/* Decodes in->data as a CLIP (arena from malloc); prints nothing. */
plumbob_result tool_clip_decode(const tool_input *in, tool_clip *tc);
/* A CLIP track's target as the tool prints it: translation, rotation, scale,
 * morph (unknown for any other value). */
const char *tool_clip_target_name(uint8_t target);
void tool_clip_free(tool_clip *tc);

/* A decoded Sims 3 rig with its arena (malloc'd). */
typedef struct tool_rig_res {
    plumbob_rig rig;
    unsigned char *arena_mem;
} tool_rig_res;
/* Decodes in->data as a rig; prints nothing. */
plumbob_result tool_rig_decode(const tool_input *in, tool_rig_res *tr);
/* The same, saying why on failure (Granny rigs by name); 0 then. */
int tool_rig_decode_or_say(const tool_input *in, tool_rig_res *tr);
void tool_rig_res_free(tool_rig_res *tr);
/* Model matrices (plumbob_skeleton_model) and model rotations (the
 * normalized local rotations composed along the chain) of a skeleton in
 * pose `local` (NULL: rest).  0 when the skeleton is refused. */
int tool_skeleton_pose(const plumbob_skeleton *sk, const plumbob_bone_pose *local, plumbob_mat34 *model,
                       plumbob_quat *model_rotation);
/* A clip at t seconds on a rig (clip sample --rig, geom skin --clip): the
 * rig's rest pose, the clip's bone tracks bound by the rig's name hashes
 * sampled over it, then model space.  poses, model (and model_rotation,
 * tracked when not NULL) hold rig->skeleton.bone_count entries, in the
 * skeleton view's order; tracked[k] is 1 when a track drives bone k.
 * Returns 1; 0 when the clip cannot be bound (or memory ran out); -1 when
 * the rig's skeleton is refused.  Prints nothing. */
int tool_rig_sample(const plumbob_clip *clip, const plumbob_rig *rig, float t, plumbob_bone_pose *poses,
                    plumbob_mat34 *model, plumbob_quat *model_rotation, unsigned char *tracked);
/* Decodes in->data as a GMDC; the arena (*mem, free it) comes from malloc.
 * Prints nothing; on failure in->why (when set) says where and why. */
plumbob_result tool_gmdc_decode(const tool_input *in, plumbob_gmdc *g, unsigned char **mem);
/* 1 when every group is a triangle list (what skinning and export draw);
 * else prints which group is not, naming `where`, and returns 0. */
int tool_gmdc_drawable(const plumbob_gmdc *g, const char *where);
/* A decode error's detail as one line: "RESULT at byte N (0xN), TABLE I: REASON". */
void tool_error_detail(const plumbob_error *e, char *out, size_t cap);
/* What to say after "not a valid X: ": the location a decode left in
 * in->why_text, else the bare code's name. */
const char *tool_why(const tool_input *in, plumbob_result r);
/* What to say after "not a readable package: ": where plumbob_package_open
 * refused data (into buf), else the code's name. */
const char *tool_package_why(const void *data, size_t size, plumbob_result r, char *buf, size_t cap);
/* Puts a failed decode's location (tool_error_detail) into in->why_text,
 * when in->why points there (a struct copy keeps the old pointer). */
void tool_say_where(const tool_input *in, const plumbob_error *err);
/* Decodes in->data as a Sims 3 GEOM (arena from malloc, *mem); prints
 * nothing; on failure in->why (when set) says where and why. */
plumbob_result tool_geom_decode(const tool_input *in, plumbob_geom *g, unsigned char **mem);
/* Decodes in->data as a Sims 2 ANIM (arena from malloc, *mem); prints nothing. */
plumbob_result tool_anim_decode(const tool_input *in, plumbob_anim *a, unsigned char **mem);
/* The warning gmdc import and clip import give for a skin whose n inverse
 * binds carry a scale, with what that does to the output. */
void tool_warn_scaled_binds(const char *where, uint32_t n, const char *effect);

#endif
