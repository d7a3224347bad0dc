/* Sims 3 GEOM meshes for the commands (tool_geom.c): loading one as a
 * kind, the rig it skins on, unbound bones, and the glTF export that
 * `geom export` and `clip export --geom` share. */
#ifndef PLUMBOB_TOOL_GEOM_H
#define PLUMBOB_TOOL_GEOM_H

#include <stdint.h>
#include "plumbob.h"
#include "tool_decode.h"
#include "tool_input.h"
#include "util/names.h"

/* A decoded GEOM with its input (the vertices point into it) and arena. */
typedef struct tool_geom {
    tool_input in;
    plumbob_geom geom;
    unsigned char *mem;
} tool_geom;

/* Loads PATH as a GEOM (opt: the option that named it, NULL for the
 * command's own input) and decodes it; 0 after saying why. */
int tool_geom_load(const char *path, const char *opt, tool_geom *tg);
void tool_geom_free(tool_geom *tg);

/* A Sims 3 rig resource for --rig (FILE or PACKAGE@INSTANCE); 0 after
 * saying why. */
int tool_geom_rig_load(const char *path, tool_input *in, tool_rig_res *tr);

/* Warns, naming the first few, of the mesh's bone hashes no bone of the
 * rig has (their influences keep the vertices' rest place). */
void tool_geom_warn_unbound(const char *where, const plumbob_geom *g, const plumbob_rig *rig);

/* geom export and clip export --geom: the meshes skinned to the rig's
 * skeleton (names, hierarchy, rest pose), with the clip (NULL: none) as
 * the animation; names: names for tracks of bones not in the rig (or
 * NULL).  Writes out_path whole or not at all; 0, or 1 after saying why. */
int tool_geom_export(const char *const *meshes, int mesh_count, const char *rig_path, const plumbob_clip *clip,
                     const char *clip_name, const tool_dict *names, const char *out_path);

#endif
