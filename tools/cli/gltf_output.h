/* Writing and checking glTF, loading --rig and glTF inputs (gltf_output.c). */
#ifndef PLUMBOB_TOOL_GLTF_OUTPUT_H
#define PLUMBOB_TOOL_GLTF_OUTPUT_H

#include <stdio.h>
#include "plumbob.h"
#include "tool_input.h"
#include "util/rig.h"

struct gltf_export_src;
struct gltf_doc;

/* What --rig takes, for messages. */
#define RIG_ARG_WANTS "a Sims 3 rig, a GMDC mesh or a `NAME [PARENT]` list"
/* Writes the scene to PATH (.glb: binary, otherwise .gltf), checks the bytes
 * with plumbob's glTF checker and says what it wrote.  With `source` (the
 * input's name, or NULL) it also warns of what the file does not carry in
 * glTF proper (a clip's extras) or at all.  Returns 0, or 1 after printing why. */
int tool_write_gltf(const char *path, const struct gltf_export_src *src, const char *source);
/* --rig FILE for exports: a GMDC mesh (then *mesh is decoded, *mesh_mem
 * to free), a Sims 3 rig resource or a rig list (then *rig is filled).  Returns 0 after printing why. */
int tool_load_rig_arg(const char *path, tool_rig *rig, int *have_rig, plumbob_gmdc *mesh,
                      unsigned char **mesh_mem, tool_input *mesh_in);

/* The import commands' input: checks IN and -o OUT (ending in ext, ".clip";
 * out_path may be NULL when package is not), loads IN and reads it as glTF
 * into *doc.  0, or the exit status after saying why (nothing to free then). */
int tool_load_gltf(const char *in_path, const char *out_path, const char *package, const char *ext, tool_input *in,
                   struct gltf_doc *doc);
/* glTF input: is it one (GLB magic or a .gltf name), and the checker's
 * verdict printed as one line; 0 when valid. */
int tool_is_gltf(const tool_input *in);
int tool_check_gltf(const tool_input *in, FILE *out);

#endif
