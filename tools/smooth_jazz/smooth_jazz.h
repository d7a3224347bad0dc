/* Smooth Jazz: the text form of Sims 3 jazz state machines, compiled to and
 * decompiled from the binary model (docs/SMOOTH-JAZZ.md).  Hosted code with
 * no global state: everything lives in the structs passed in. */
#ifndef PLUMBOB_SMOOTH_JAZZ_H
#define PLUMBOB_SMOOTH_JAZZ_H
#include <stddef.h>
#include <stdio.h>
#include "plumbob.h"
#include "util/jazz_build.h"

/* Blocks nest at most this deep, in the compiler and the decompiler alike. */
#define SJ_MAX_DEPTH 100u
/* Default resource types of track masks and props (clips: PLUMBOB_TYPE_CLIP). */
#define SJ_TYPE_TRACK_MASK 0x033260E3u
#define SJ_TYPE_PROP 0x139F7591u

/* Code point cp as UTF-8 into out (surrogates encoded as three bytes, so
 * \u escapes of lone surrogates survive); returns the byte count, 1 to 4. */
size_t sj_utf8_encode(uint32_t cp, char out[4]);

/* Where and why compiling failed.  line and col are 1-based (col counts
 * bytes); the message says what was expected and what was found. */
typedef struct sj_error {
    unsigned line, col;
    char message[240];
} sj_error;

/* Prints "FILE:LINE:COL: error: MESSAGE", the source line and a caret under
 * the column, the way compilers do. */
void sj_error_print(FILE *out, const char *file, const char *text, size_t len, const sj_error *err);

/* A name table: hash <-> text.  `instance` is the KEY table's id: the FNV-32
 * hash for 32-bit names, the 64-bit id for clips, masks and the machine. */
typedef struct sj_name {
    uint64_t instance;
    char *text;
    size_t len;
} sj_name;

typedef struct sj_names {
    sj_name *items;
    size_t count, cap;
    uint32_t *double_hash; /* per item: FNV-32 of "0x%08x" of its FNV-32 (filled by sj_names_index) */
} sj_names;

/* Adds a copy of text[0..len) under instance unless that pair is present.
 * Returns 0 when out of memory. */
int sj_names_add(sj_names *n, uint64_t instance, const char *text, size_t len);
/* Adds every entry of a KEY table. */
int sj_names_add_key_table(sj_names *n, const plumbob_key_table *kt);
/* Computes the double hashes (call after the last add, before lookups). */
int sj_names_index(sj_names *n);
/* A name whose FNV-32 is h (*star = 0), or whose double hash is h
 * (*star = 1); NULL when none. */
const sj_name *sj_names_find32(const sj_names *n, uint32_t h, int *star);
/* A name listed under the 64-bit id `instance`; NULL when none. */
const sj_name *sj_names_find64(const sj_names *n, uint64_t instance);
/* The KEY resource for these names (version 1, entries in table order),
 * malloc'd; returns 0 when out of memory. */
int sj_names_key_table(const sj_names *n, unsigned char **out, size_t *size);
void sj_names_free(sj_names *n);

/* What a compile produced: the model in a builder, the resource key it
 * belongs under, and every name the script spelled out. */
typedef struct sj_program {
    jazz_build build;      /* build.jazz is the model */
    uint32_t group;        /* resource group (Group field, default 0) */
    uint64_t instance;     /* resource instance (Instance field, default FNV-64 of the name) */
    sj_names names;        /* (hash, text) for every string name used */
} sj_program;

/* Compiles text[0..len).  Returns 1 with *prog filled (free it with
 * sj_program_free even on failure), or 0 with *err set. */
int sj_compile(const char *text, size_t len, sj_program *prog, sj_error *err);
void sj_program_free(sj_program *prog);

/* Writes the Smooth Jazz text of `jazz` into a malloc'd, NUL-ended buffer.
 * `names` (may be NULL, must be indexed) turns hashes back into names.
 * Returns 1, or 0 with *err set (a graph with a cycle cannot be written as
 * nested blocks; out of memory). */
int sj_decompile(const plumbob_jazz *jazz, const sj_names *names, char **out, size_t *out_len, sj_error *err);

/* Keyword tables shared by the compiler and the decompiler (sj_words.c). */
typedef struct sj_word {
    const char *name;
    uint32_t value;
} sj_word;
extern const sj_word sj_machine_flags[];  /* Properties of a state machine */
extern const sj_word sj_state_flags[];    /* Properties of a state */
extern const sj_word sj_anim_flags[];     /* Flags of Play and Stop */
extern const sj_word sj_random_flags[];   /* Flags of Select Random */
extern const sj_word sj_priorities[];     /* named priorities */
extern const sj_word sj_actor_ops[];      /* Actor Operation names */
/* The entry of `table` (ends with a NULL name) whose name is word[0..len),
 * case-insensitive; NULL when none. */
const sj_word *sj_word_find(const sj_word *table, const char *word, size_t len);
/* Case-insensitive compare of word[0..len) with the NUL-ended keyword. */
int sj_word_is(const char *word, size_t len, const char *keyword);

#endif
