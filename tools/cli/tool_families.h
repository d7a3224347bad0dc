/* Each command family's subcommands (tool_families.c). */
#ifndef PLUMBOB_TOOL_FAMILIES_H
#define PLUMBOB_TOOL_FAMILIES_H


/* Does command family `family` ("clip") have subcommand `sub` (tool_families.c)? */
int tool_family_has(const char *family, const char *sub);

#endif
