/* Every command's entry points: the command table (plumbob.c), the format
 * registry (formats.c) and commands that hand over to another family.  Only
 * commands include this, never a helper (tests/tools-graph.sh). */
#ifndef PLUMBOB_TOOL_COMMANDS_H
#define PLUMBOB_TOOL_COMMANDS_H

#include <stddef.h>
#include <stdio.h>
#include "plumbob.h"
#include "tool_input.h"

/* Subcommands: argc/argv start at the subcommand's own name. */
int cmd_info(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_demo(int argc, char **argv);
int cmd_ls(int argc, char **argv);     /* cmd_package.c */
int cmd_extract(int argc, char **argv);
int cmd_pack(int argc, char **argv);
int cmd_add(int argc, char **argv);    /* cmd_edit.c: package editing in place */
int cmd_replace(int argc, char **argv);
int cmd_remove(int argc, char **argv);
int cmd_clip(int argc, char **argv);
int cmd_gmdc(int argc, char **argv);
int cmd_anim(int argc, char **argv);
int cmd_cres(int argc, char **argv);
int cmd_rig(int argc, char **argv);
int cmd_jazz(int argc, char **argv);
int cmd_geom(int argc, char **argv);
/* plumbob clip diff A B [--json] (cmd_clip_diff.c): 0 identical, 1 differ, 2 trouble. */
int clip_diff(int argc, char **argv);
/* plumbob clip blend A B --rig RIG ... (cmd_clip_blend.c). */
int clip_blend(int argc, char **argv);
/* plumbob rig ik RIG ... (cmd_rig_ik.c). */
int rig_ik(int argc, char **argv);
/* geom import (cmd_geom_import.c). */
int import_geom(int argc, char **argv);
/* jazz decompile / compile (cmd_smooth_jazz.c). */
int jazz_decompile(const tool_input *in, const plumbob_jazz *jazz, const tool_names *names, const char *out_path);
int jazz_compile(int argc, char **argv);

/* Each format's `info` summary and `check` re-encode, for the format
 * registry (formats.c). */
int package_info(const tool_input *in, FILE *out);
int clip_info(const tool_input *in, FILE *out);
plumbob_result clip_reencode(const tool_input *in, unsigned char **out, size_t *out_size);
int gmdc_info(const tool_input *in, FILE *out);
plumbob_result gmdc_reencode(const tool_input *in, unsigned char **out, size_t *out_size);
int anim_info(const tool_input *in, FILE *out);
plumbob_result anim_reencode(const tool_input *in, unsigned char **out, size_t *out_size);
int cres_info(const tool_input *in, FILE *out);
plumbob_result cres_reencode(const tool_input *in, unsigned char **out, size_t *out_size);
int rig_info(const tool_input *in, FILE *out);
plumbob_result rig_reencode(const tool_input *in, unsigned char **out, size_t *out_size);
int geom_info(const tool_input *in, FILE *out);
plumbob_result geom_reencode(const tool_input *in, unsigned char **out, size_t *out_size);
int jazz_info(const tool_input *in, FILE *out);
plumbob_result jazz_reencode(const tool_input *in, unsigned char **out, size_t *out_size);
int key_info(const tool_input *in, FILE *out);
plumbob_result key_reencode(const tool_input *in, unsigned char **out, size_t *out_size);
int track_mask_info(const tool_input *in, FILE *out);
plumbob_result track_mask_reencode(const tool_input *in, unsigned char **out, size_t *out_size);

#endif
