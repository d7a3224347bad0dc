/* One command over every resource of a kind in several inputs (tool_batch.c). */
#ifndef PLUMBOB_TOOL_BATCH_H
#define PLUMBOB_TOOL_BATCH_H

#include <stdint.h>

/* Batch work (tool_batch.c): fn(input, out_path, ctx) once per resource of
 * `type` in the inputs (a package: each such resource, as PACKAGE@T:G:I; any
 * other file: itself), out_path = DIR/NAME.EXT named by the resource's KEY
 * name, else its instance (a taken name gets the instance appended).  fn
 * returns 0, or 1 after saying why; the others still run.  A progress line on
 * a terminal, then "DONE_VERB N of M KIND to DIR" on stdout.  Returns 0 when
 * every one succeeded, 1 otherwise (also when there was none). */
typedef struct tool_batch {
    uint32_t type;
    const char *kind;      /* "clips" */
    const char *verb;      /* "exporting" (progress line) */
    const char *done_verb; /* "exported" (summary) */
    const char *dir, *ext;
    int (*fn)(const char *input, const char *out_path, void *ctx);
    void *ctx;
} tool_batch;
int tool_batch_run(const tool_batch *job, const char *const *inputs, int n);
/* An export command's --all (or several inputs, or --gltf): checks that --all
 * was given and -o names a directory (exit 2 after saying why), then exports
 * every resource of `type` in the inputs to DIR/NAME.glb (.gltf with
 * gltf_text) with tool_batch_run.  one/many: "clip"/"clips". */
int tool_batch_export(uint32_t type, const char *one, const char *many, const char *const *inputs, int n, int all,
                      int gltf_text, const char *dir, int (*fn)(const char *, const char *, void *), void *ctx);

#endif
