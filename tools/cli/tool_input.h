/* Loading FILE or PACKAGE@KEY (tool_input.c): the loaded input, finding a
 * resource in a package, the package's own names for its resources. */
#ifndef PLUMBOB_TOOL_INPUT_H
#define PLUMBOB_TOOL_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include "plumbob.h"

/* A loaded input: the bytes of a file, or of one resource in a package. */
typedef struct tool_input {
    char name[1100];      /* what to call it in messages: FILE or PACKAGE@T:G:I */
    unsigned char *data;  /* malloc'd */
    size_t size;
    int from_package;     /* 1 when FILE was PACKAGE@... */
    plumbob_package_entry entry; /* the resource's index entry, when from_package */
    unsigned char *package_data; /* the whole package, kept for name lookups */
    size_t package_size;
    /* Where a decode of this input failed, in words, when the decoder can say
     * (GMDC: "bad_index at byte 4660 (0x1234), element 4: ..."); tool_load
     * points `why` at why_text and empties it.  NULL: nobody listens. */
    char *why;
    char why_text[320];
} tool_input;

/* Reads FILE into *in.  FILE may be PACKAGE@INSTANCE or
 * PACKAGE@TYPE:GROUP:INSTANCE (hex numbers, 0x optional) to take one resource
 * out of a package (decompressed).  Prints "plumbob: WHERE: why" and
 * returns 0 on failure. */
int tool_load(const char *path, tool_input *in);
void tool_free(tool_input *in);
/* A buffer for reading entry e with plumbob_package_read (pass e->mem_size
 * as its capacity): sized by plumbob_package_read_size, so a claim its
 * stored bytes cannot give (gigabytes from a few bytes) is refused before
 * anything is allocated.  NULL when refused or out of memory, after saying
 * why at `where` (NULL: silently, for optional lookups). */
unsigned char *tool_entry_buffer(const plumbob_package *pkg, const plumbob_package_entry *e, const char *where);
/* Finds the resource `spec` names in a package: TYPE:GROUP:INSTANCE (TYPE in
 * hex or a name such as CLIP), INSTANCE in hex, or a name from the KEY table.
 * Several matches: the one resource of a type plumbob decodes, unless strict
 * (then any several are ambiguous).  Returns 1 with *out set, 0 when nothing
 * matches, -1 on a spec that is none of these, -2 when ambiguous (the matches
 * listed on stderr after an error line naming `where`). */
int tool_find_resource(const plumbob_package *pkg, const char *spec, const char *where, int strict,
                       plumbob_package_entry *out);

/* What an input is: a resource taken from a package by the index's type
 * (the index is the truth), a file by its bytes (plumbob_identify). */
plumbob_format tool_input_format(const tool_input *in);

/* A package's own names for its resources: the KEY table (Sims 3). */
typedef struct tool_names {
    unsigned char *buf;    /* the decompressed KEY resource */
    plumbob_key_table kt;
    int have;
} tool_names;
void tool_names_load(const plumbob_package *pkg, tool_names *names);
void tool_names_free(tool_names *names);
/* The name of a resource: its KEY entry (Sims 3) or the name inside a
 * Sims 2 RCOL.  Returns 0 when there is none. */
int tool_resource_name(const plumbob_package *pkg, const tool_names *names,
                       const plumbob_package_entry *e, char *out, size_t cap);

#endif
