/* Whole-file reads and writes, the tool's error line, small string parsing. */
#ifndef PLUMBOB_TOOL_FILES_H
#define PLUMBOB_TOOL_FILES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Prints "plumbob: COMMAND: WHERE: what" to stderr.  COMMAND is the one
 * tool_set_command recorded; WHERE (FILE or PACKAGE@KEY; NULL for none) is
 * left out when it only repeats the command or its family. */
void tool_error(const char *where, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* The same line with "warning: " before the text (stderr too). */
void tool_warning(const char *where, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Records the command as typed: its family ("clip") and subcommand
 * ("export", or NULL). */
void tool_set_command(const char *family, const char *sub);
/* The command as recorded ("clip export"; "" before main recorded one). */
const char *tool_command(void);
/* Reads a whole file; returns 0 (after printing why) on failure. */
int tool_read_file(const char *path, unsigned char **data, size_t *size);
/* Writes data[0..n) to path, safely (tool_out); returns 0 (after printing
 * why) on failure, leaving whatever was at path untouched. */
int tool_write_file(const char *path, const void *data, size_t n);

/* A streamed output: write to o.f, then commit (renamed into place once
 * complete and on disk; 0 after printing why, with nothing left behind) or
 * abort (the temporary file removed, path untouched). */
typedef struct tool_out {
    FILE *f;
    const char *path;
    char *tmp;      /* TARGET.tmp-XXXXXX, removed on abort and by SIGINT/SIGTERM/SIGHUP */
    char *target;   /* the file replaced: path, or where its symbolic links lead */
    int in_place;   /* a hard-linked target (--force): copied over in place */
    int read_only;  /* a target with no write bit (--force): kept so */
} tool_out;
int tool_out_open(tool_out *o, const char *path);
/* Outputs that are one of the files this run read (tool_read_file) are
 * refused unless force is set (the tool's --force). */
void tool_set_force(int force);
/* Whether --force was given (other refusals it overrides ask here). */
int tool_force(void);
/* Batch work (many outputs in one run) prints a summary, not a "wrote" line
 * per file: writers ask tool_quiet() before saying what they wrote. */
void tool_set_quiet(int quiet);
int tool_quiet(void);
/* For commands whose purpose is to update a file in place (jazz compile
 * --package): that input may be replaced. */
void tool_forget_input(const char *path);
/* For those commands, before the work: tool_forget_input(path), then whether
 * tool_out_open would refuse it (read-only, hard-linked, not a regular
 * file); 0 after saying why. */
int tool_edit_check(const char *path);
int tool_out_commit(tool_out *o);
void tool_out_abort(tool_out *o);
/* Does s end with `suffix` (lowercase), ignoring ASCII case? */
int tool_ends_with(const char *s, const char *suffix);
/* Parses s[0..len) as a hex number (0x optional, at most 16 digits);
 * returns 0 on junk. */
int tool_parse_hex(const char *s, size_t len, uint64_t *out);

#endif
