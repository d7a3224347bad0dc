/* Resource types by name (tool_types.c): names, file extensions, the game
 * whose packages hold them, the format the tool decodes them as. */
#ifndef PLUMBOB_TOOL_TYPES_H
#define PLUMBOB_TOOL_TYPES_H

#include <stddef.h>
#include <stdint.h>
#include "plumbob.h"

/* Resource type names and file extensions ("CLIP", "clip"); NULL if unknown. */
const char *tool_type_name(uint32_t type);
const char *tool_type_ext(uint32_t type);
/* The game whose packages hold this type: 2 (Sims 2), 3 (Sims 3), 0 unknown. */
int tool_type_game(uint32_t type);
/* A resource type from s[0..len): a name from the table above (CLIP, RIG,
 * case-insensitive; the first type of that name) or a hex number.  0 on junk. */
int tool_parse_type(const char *s, size_t len, uint64_t *out);

/* The format of a resource of this package type (CLIP, JAZZ, GMDC, ANIM),
 * or PLUMBOB_FORMAT_UNKNOWN for types the tool has no decoder for. */
plumbob_format tool_format_of_type(uint32_t type);
/* "CRES (type 0xE519C933)" or "type 0x12345678" into out. */
void tool_type_label(uint32_t type, char *out, size_t cap);

#endif
