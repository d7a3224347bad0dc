/* What bytes are (tool_identify.c), below any loading: the package type a
 * file stands for, each kind's name and command family. */
#ifndef PLUMBOB_TOOL_IDENTIFY_H
#define PLUMBOB_TOOL_IDENTIFY_H

#include <stddef.h>
#include <stdint.h>

/* A kind of resource a command reads: its package type (PLUMBOB_TYPE_CLIP,
 * _GMDC, _ANIM, _CRES, _JAZZ, _RIG, _GEOM), what to call it, its command family. */
typedef struct tool_kind {
    uint32_t type;
    const char *name;   /* what to call it in a message */
    const char *family; /* the command family that reads it */
} tool_kind;
/* The kind of a package type; NULL for a type no command reads. */
const tool_kind *tool_kind_of_type(uint32_t type);
/* The package type a file's bytes stand for, by plumbob_identify (a CRES:
 * PLUMBOB_TYPE_CRES); 0 for a package or anything else. */
uint32_t tool_identify_type(const unsigned char *data, size_t size);
/* What these bytes are, in words ("Sims 3 CLIP", "DBPF package"); NULL when
 * plumbob does not recognise them. */
const char *tool_kind_name(const unsigned char *data, size_t size);

#endif
