/* The format registry (formats.c): what `info` and `check` do with each
 * format.  It names every command file's info and re-encode: only commands
 * include this, never a helper. */
#ifndef PLUMBOB_TOOL_FORMATS_H
#define PLUMBOB_TOOL_FORMATS_H

#include <stddef.h>
#include <stdio.h>
#include "plumbob.h"
#include "tool_input.h"

/* What the tool knows about one format: each format issue adds an entry. */
typedef struct tool_format {
    plumbob_format format;
    /* One short human summary of a resource of this format. */
    int (*info)(const tool_input *in, FILE *out);
    /* Decode, validate, re-encode into a malloc'd buffer (*out, *out_size). */
    plumbob_result (*reencode)(const tool_input *in, unsigned char **out, size_t *out_size);
} tool_format;

/* The entry for a format, or NULL when the tool has no decoder for it yet. */
const tool_format *tool_format_for(plumbob_format f);
/* The format entry for a loaded input: identify, and a Sims 2 RCOL whose
 * first block is a resource node is a CRES. */
const tool_format *tool_format_of(const tool_input *in, plumbob_format *f);
/* The format entry for a package resource of this type (CRES included). */
const tool_format *tool_format_for_type(uint32_t type);

#endif
