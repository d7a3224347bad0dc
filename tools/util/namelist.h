/* A short ", "-separated list of names for a warning, each name once. */
#ifndef PLUMBOB_TOOL_NAMELIST_H
#define PLUMBOB_TOOL_NAMELIST_H
#include <stddef.h>

/* Appends `what` to list (NUL-ended, cap bytes) unless it is already an item
 * of it or the list holds max items already ("scale, scale, scale" is said
 * "scale").  Returns 1 when appended. */
int tool_namelist_add(char *list, size_t cap, const char *what, unsigned max);

#endif
