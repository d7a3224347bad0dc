/* POSE.json, the pose `gmdc skin --pose` reads: one rotation and one
 * translation per joint, in the mesh's joint order. */
#ifndef PLUMBOB_POSE_JSON_H
#define PLUMBOB_POSE_JSON_H

#include <stddef.h>
#include <stdint.h>
#include "plumbob.h"

/* Parses {"joints": [{"rotation": [x,y,z,w], "translation": [x,y,z]}, ...]}
 * from text[0..size) into model[joints] (rotations normalized).  Exactly
 * `joints` of each, finite numbers only.  On error prints "WHERE: why" and
 * returns 0. */
int tool_pose_parse(const char *text, size_t size, const char *where, uint32_t joints, plumbob_mat34 *model);

#endif
