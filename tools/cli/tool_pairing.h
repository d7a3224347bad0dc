/* Does a clip fit a rig (tool_pairing.c). */
#ifndef PLUMBOB_TOOL_PAIRING_H
#define PLUMBOB_TOOL_PAIRING_H

#include <stdint.h>
#include "plumbob.h"

/* Warns when a clip does not fit a rig (tool_pairing.c, by the core's
 * plumbob_clip_binding_report): fewer than half of
 * its animated bones among bone_hash[0..bone_count), or a clip-name prefix
 * (a_, ad_, c_, o_, ...) of another species or age than rig_name (auRig,
 * adRig, ...; another name is an object's rig; NULL or "": not checked). */
void tool_warn_pairing(const plumbob_clip *clip, const char *clip_where, const uint32_t *bone_hash,
                       uint32_t bone_count, const char *rig_name);

#endif
