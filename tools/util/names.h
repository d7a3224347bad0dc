/* The tool's name dictionary: hash -> name for bones, slots and morphs,
 * from a built-in list of the standard Sims 3 bone and slot names, from
 * rigs (their stored name hashes) and from KEY tables.  Bone and slot
 * hashes are FNV-32 of the lowercased name; morph hashes the low 32 bits of
 * FNV-64 (as clip tracks carry them). */
#ifndef PLUMBOB_TOOL_NAMES_H
#define PLUMBOB_TOOL_NAMES_H

#include <stddef.h>
#include <stdint.h>
#include "plumbob.h"

typedef struct tool_dict_entry {
    uint32_t h32;   /* FNV-32, or a rig's stored hash */
    uint32_t h64;   /* low 32 bits of FNV-64 */
    char *name;     /* malloc'd, NUL-terminated */
} tool_dict_entry;

typedef struct tool_dict {
    tool_dict_entry *e;
    size_t count, cap;
} tool_dict;

/* Starts a dictionary holding the built-in names. */
void tool_dict_init(tool_dict *d);
void tool_dict_free(tool_dict *d);
/* Adds a name (hashes computed); `h32` overrides its FNV-32 when not 0
 * (a rig's stored hash).  Names already present are not added twice. */
void tool_dict_add(tool_dict *d, const char *name, size_t len, uint32_t h32);
/* Every bone name of a skeleton, with its stored hash. */
void tool_dict_add_skeleton(tool_dict *d, const plumbob_skeleton *sk);
/* Every name of a KEY table. */
void tool_dict_add_key_table(tool_dict *d, const plumbob_key_table *kt);
/* The KEY names and every plain rig's bone names of a package (bytes of a
 * whole .package; anything unreadable is skipped). */
void tool_dict_add_package(tool_dict *d, const unsigned char *data, size_t size);
/* The name of a bone or slot hash (FNV-32), or NULL. */
const char *tool_dict_bone(const tool_dict *d, uint32_t hash);
/* The name of a morph hash (low 32 bits of FNV-64), or NULL. */
const char *tool_dict_morph(const tool_dict *d, uint32_t hash);
/* The name of a clip track's hash by its target (morph or bone), or NULL. */
const char *tool_dict_track(const tool_dict *d, uint32_t hash, int morph);
/* How many built-in names there are. */
size_t tool_dict_builtin_count(void);

#endif
