/* JSON output helpers (tool_output.c). */
#ifndef PLUMBOB_TOOL_OUTPUT_H
#define PLUMBOB_TOOL_OUTPUT_H

#include <stdio.h>
#include "plumbob.h"

void json_string(FILE *out, const char *s, size_t len);
/* A float with enough digits to round-trip (%.9g); null when not finite. */
void json_float(FILE *out, float f);
/* [a, b, ...] of n floats, each as json_float. */
void json_floats(FILE *out, const float *v, unsigned n);
/* "translation", "rotation", "scale", "model_translation", "model_rotation"
 * members (no braces) of one bone. */
void json_bone_pose(FILE *out, const plumbob_bone_pose *local, const plumbob_mat34 *model, const plumbob_quat *mq);

#endif
