/* A CRES and its skeleton, loaded or found in a package (tool_cres.c). */
#ifndef PLUMBOB_TOOL_CRES_H
#define PLUMBOB_TOOL_CRES_H

#include <stdint.h>
#include "plumbob.h"
#include "tool_input.h"

/* A decoded CRES with its skeleton (tool_cres.c): mem holds the decode's
 * arena, sk_mem the skeleton's. */
typedef struct tool_cres {
    tool_input in;
    unsigned char *mem, *sk_mem;
    plumbob_cres cres;
    plumbob_cres_skeleton sk;
} tool_cres;
/* Decodes in->data as a CRES and builds its skeleton; prints nothing. */
plumbob_result tool_cres_decode(const tool_input *in, tool_cres *tc);
/* Loads FILE or PACKAGE@KEY as a CRES; prints why and returns 0 on failure. */
int tool_cres_load(const char *path, const char *opt, tool_cres *tc);
/* The CRES of the package `from` came from that fits best: maps the most of
 * joint_count mesh joints plus the most of anim's channels (anim may be
 * NULL).  Returns 0 (silently) when there is none that fits at all. */
int tool_cres_find(const tool_input *from, uint32_t joint_count, const plumbob_anim *anim, tool_cres *tc);
void tool_cres_free(tool_cres *tc);
/* How many of anim's channels drive a bone of tc's skeleton, by the core's
 * rules (plumbob_anim_bind's bone_channel_count); 0 when it cannot bind. */
uint32_t tool_cres_anim_bones(const tool_cres *tc, const plumbob_anim *anim);

#endif
