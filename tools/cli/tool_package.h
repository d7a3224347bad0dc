/* Package edits in place (tool_package.c): add, replace and remove, and
 * resources the commands make put into a package; the TYPE_GROUP_INSTANCE.ext
 * names of extracted files. */
#ifndef PLUMBOB_TOOL_PACKAGE_H
#define PLUMBOB_TOOL_PACKAGE_H

#include <stddef.h>
#include <stdint.h>
#include "plumbob.h"

/* TYPE_GROUP_INSTANCE (8, 8 and 16 hex digits) from a path's last
 * component named exactly as extract names files: TYPE_GROUP_INSTANCE.ext
 * or TYPE_GROUP_INSTANCE.N.ext (a repeated key), ext letters and digits.
 * 0 for anything else, backups and copies too (X.clip~, X.clip.bak,
 * X.clip.tmp-..., "X - Copy.clip", "X (2).clip"): tool_bad_tgi_name says why. */
int tool_parse_tgi_name(const char *path, uint32_t *t, uint32_t *g, uint64_t *i);
/* The error line for a FILE tool_parse_tgi_name refused (the caller exits 2). */
void tool_bad_tgi_name(const char *path);
/* Resources for tool_package_put_all: key, bytes, and a name for the KEY
 * table (NULL: none; Sims 2 packages have no KEY table). */
typedef struct tool_put {
    uint32_t type, group;
    uint64_t instance;
    const unsigned char *data;
    size_t size;
    const char *name;
} tool_put;
#define TOOL_PUT_MAX 8
/* Puts n (at most TOOL_PUT_MAX) resources into the package at pkg_path, a
 * Sims 2 one (major 1) or a Sims 3 one (major 2), made when there is none:
 * each added, or replacing the resource of its key, compressed as the
 * package has it, in one safe edit (all or none).  0, or 1 after saying
 * why. */
int tool_package_put_all(const char *pkg_path, uint32_t major, const tool_put *items, uint32_t n);
/* One resource into a Sims 3 package, name into its KEY table. */
int tool_package_put(const char *pkg_path, uint32_t type, uint32_t group, uint64_t instance, const unsigned char *data,
                     size_t size, const char *name);

/* One package being edited in place (add, replace, remove and
 * tool_package_put_all): its entries as they will be written, and its KEY
 * table's names. */
typedef struct tool_key_name {
    uint64_t instance;
    char *text;
    size_t len;
} tool_key_name;

typedef struct tool_edit {
    const char *path;
    unsigned char *bytes;
    size_t size;
    plumbob_package pkg;
    plumbob_package_write_entry *w; /* what will be written, in package order */
    uint32_t n, cap;
    unsigned char **owned; /* buffers the entries point into, freed at the end */
    uint32_t owned_n, owned_cap;
    int key_at;            /* index in w of the KEY table; -1 none; -2 one that does not read; -3 removed */
    uint16_t key_compression;
    uint32_t key_version;
    tool_key_name *names;
    uint32_t names_n, names_cap;
    int names_changed;
    uint32_t compressed, dropped_deleted;
    void *work; /* the RefPack compressor's work area */
} tool_edit;
/* Reads the package and lays out its entries as stored.  0 after saying why. */
int tool_edit_open(tool_edit *ed, const char *path);
/* The index in ed->w of the entry with this key; -1 when there is none. */
int tool_edit_find(const tool_edit *ed, uint32_t type, uint32_t group, uint64_t instance);
/* A new entry at the end of ed->w; NULL when out of memory. */
plumbob_package_write_entry *tool_edit_append(tool_edit *ed);
/* The stored form of data for a new or replaced entry: RefPack when
 * compress (and it fits RefPack's 16 MiB), else the bytes as they are.
 * Takes data (malloc'd).  0 after saying why at `where`. */
int tool_edit_store(tool_edit *ed, plumbob_package_write_entry *w, unsigned char *data, size_t size, int compress,
                    const char *where);
/* Sets or forgets the KEY-table name of an instance (set: 0 when out of memory). */
int tool_edit_set_name(tool_edit *ed, uint64_t instance, const char *text, size_t len);
void tool_edit_drop_name(tool_edit *ed, uint64_t instance);
/* Writes the edited package over the old one.  0 after saying why. */
int tool_edit_commit(tool_edit *ed);
void tool_edit_free(tool_edit *ed);
/* "6B20C4F3:00000000:3D40CC19DAAFD164 (CLIP)" (the type's name when known) into out. */
void tool_key_label(char *out, size_t cap, uint32_t t, uint32_t g, uint64_t i);
#endif
