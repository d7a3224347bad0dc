/* Shared pieces of the plumbob command-line tool (hosted code). */
#ifndef PLUMBOB_TOOL_H
#define PLUMBOB_TOOL_H

#include <stddef.h>
#include <stdio.h>
#include "plumbob.h"

/* A loaded input: the bytes of a file (or, later, of one package resource). */
typedef struct tool_input {
    const char *name;     /* what to call it in messages */
    unsigned char *data;  /* malloc'd */
    size_t size;
} tool_input;

/* Reads FILE into *in; prints "plumbob: FILE: why" and returns 0 on failure. */
int tool_load(const char *path, tool_input *in);
void tool_free(tool_input *in);

/* Prints "plumbob: <where>: <what>" to stderr. */
void tool_error(const char *where, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

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

/* Subcommands: argc/argv start at the subcommand's own name. */
int cmd_info(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_demo(int argc, char **argv);

#endif
