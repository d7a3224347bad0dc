/* A Sims 2 ANIM on a CRES skeleton: which bone each channel drives, and
 * the local pose at a time (hosted helper over the core). */
#ifndef PLUMBOB_SIMS2_POSE_H
#define PLUMBOB_SIMS2_POSE_H

#include "plumbob.h"

/* The bone channel ch drives, or -1: its name matched case-insensitively
 * against the bone names, then without a "_rot" / "_trans" suffix
 * ("root_rot" drives bone "root" when no bone is called "root_rot").  Only
 * rotation (Euler) and translation channels drive bones. */
int32_t sims2_channel_bone(const plumbob_cres_skeleton *sk, const plumbob_anim *a, uint32_t ch);

/* poses[bone_count]: the rest pose, then every bone-driving channel's value
 * at `ticks` (an ANIM value replaces the rest value: rotations as the Euler
 * angles' quaternion, translations as stored).  Returns how many channels
 * drove a bone. */
uint32_t sims2_anim_pose(const plumbob_cres_skeleton *sk, const plumbob_anim *a, float ticks,
                         plumbob_bone_pose *poses);

/* Morph channels onto a mesh's morph pairs: weights[pair] = the value at
 * `ticks` of the morph channel named like the pair's morph name (its second
 * name; case-insensitive).  Pairs no channel names are left as they were.
 * Returns how many pairs got a value. */
uint32_t sims2_anim_morphs(const plumbob_gmdc *g, const plumbob_anim *a, float ticks, float *weights);

/* The morph channel of `a` named name[0..len), or -1. */
int32_t sims2_morph_channel(const plumbob_anim *a, const char *name, size_t len);

#endif
