/* A rig for the tool: bone names and parents, for naming a mesh's joints
 * and matching clip tracks (FNV-32 of the name) to them.  From a rig list
 * (text) or from a Sims 3 rig resource, which also gives rest transforms. */
#ifndef PLUMBOB_RIG_H
#define PLUMBOB_RIG_H

#include <stdint.h>
#include "plumbob.h"

#define RIG_MAX_NAME 128
#define RIG_MAX_BONES 4096

typedef struct tool_rig {
    uint32_t count;
    char (*names)[RIG_MAX_NAME];
    uint32_t *hash;    /* plumbob_fnv32 of the name (lowercased, as the games hash) */
    int32_t *parent;   /* index of the parent bone, or -1 */
    plumbob_bone_pose *rest; /* local rest transforms (rig resources), or NULL (lists) */
    char name[64];     /* the rig resource's skeleton name ("auRig"), "" for lists */
} tool_rig;

/* Parses a rig list: one bone per line, `NAME [PARENT]`, in the mesh's
 * joint order; a parent must be listed before its children; '#' starts a
 * comment.  On error prints "WHERE:LINE: why" and returns 0. */
int tool_rig_parse(const char *text, size_t len, const char *where, tool_rig *rig);
int tool_rig_load(const char *path, tool_rig *rig);
/* A rig resource's skeleton view as a tool rig: bones in the view's
 * (parent-before-child) order, the stored hashes, rest transforms.
 * Returns 0 when memory ran out. */
int tool_rig_from_skeleton(const plumbob_skeleton *sk, tool_rig *rig);
/* The bone whose name hashes to `hash`, or -1. */
int32_t tool_rig_find(const tool_rig *rig, uint32_t hash);
void tool_rig_free(tool_rig *rig);

#endif
