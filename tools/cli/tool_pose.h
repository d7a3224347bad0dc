/* Poses on a Sims 3 rig as output (tool_pose.c): frames of local poses made
 * into a clip, written as CLIP or glTF, printed as JSON (clip blend, rig ik). */
#ifndef PLUMBOB_TOOL_POSE_H
#define PLUMBOB_TOOL_POSE_H

#include <stddef.h>
#include <stdint.h>
#include "plumbob.h"

/* A clip of `ticks` frames (frames[i * bone_count + k]: tick i, bone k of
 * the rig's skeleton view), keyed at every tick: per bone a rotation and a
 * translation track, and a scale track where a scale is not 1.  The
 * version and actor come from `like` (may be NULL).  *bytes is malloc'd.
 * Returns 0 after saying why. */
int tool_pose_clip(const plumbob_rig *rig, const plumbob_bone_pose *frames, uint32_t ticks, float frame_seconds,
                   const char *name, const char *source, const plumbob_clip *like, unsigned char **bytes,
                   size_t *size);
/* The clip's name for -o PATH: `name` when given, else PATH's file name
 * without its extension. */
void tool_pose_clip_name(const char *path, const char *name, char *out, size_t cap);
/* Writes the clip to PATH: .clip as it is, .glb/.gltf as a glTF animation
 * on the rig's skeleton (checked as every export is).  Nothing is left at
 * PATH on failure.  Returns 0 after saying why. */
int tool_pose_write(const char *path, const plumbob_rig *rig, const unsigned char *bytes, size_t size);
/* The JSON array of every rig bone (file order) in pose `local` (skeleton
 * view order), as clip sample --rig --json prints it, to stdout. */
void tool_pose_json_bones(const plumbob_rig *rig, const plumbob_bone_pose *local);
/* The skeleton-view index of the rig bone named name[0 .. len) (any case)
 * or 0xHASH, or -1. */
int32_t tool_pose_find_bone(const plumbob_rig *rig, const char *name, size_t len);
/* "X,Y,Z" as a vector for option opt (each finite, |x| <= 1e6); 0 after
 * saying why. */
int tool_pose_vec3(const char *opt, const char *s, plumbob_vec3 *v);

#endif
