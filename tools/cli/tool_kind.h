/* Loading an input as the kind a command wants (tool_kind.c). */
#ifndef PLUMBOB_TOOL_KIND_H
#define PLUMBOB_TOOL_KIND_H

#include <stdint.h>
#include "tool_input.h"
#include "util/rig.h"

/* tool_load for a command that wants one kind of resource (a package type:
 * PLUMBOB_TYPE_CLIP, _GMDC, _ANIM, _CRES, _JAZZ, _RIG, _GEOM).  An input of another
 * kind is refused naming what it is and the command that fits; a whole
 * package stands for its only resource of that kind, and with several lists
 * them (PACKAGE@INSTANCE and name).  opt: the option that named the file
 * ("--cres"), NULL for the command's own input.  Bytes nothing recognises
 * are loaded for the decoder to say why.  Prints why and returns 0 on failure. */
int tool_load_kind(const char *path, uint32_t type, const char *opt, tool_input *in);
/* For an option that reads text (a rig list): 1 when in is not some binary
 * kind plumbob recognises, else prints "OPT wants WANTS; this is a KIND"
 * and returns 0. */
int tool_text_not_binary(const tool_input *in, const char *opt, const char *wants);
/* "unknown format (N bytes): ..." for bytes no format plumbob reads, or
 * "is a PNG image (N bytes), ..." when they are a common non-game file. */
void tool_unknown_format(const tool_input *in);
/* tool_rig_load for option opt, refusing binary files by kind. */
int tool_rig_list_load(const char *path, const char *opt, tool_rig *rig);

#endif
