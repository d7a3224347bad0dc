/* A small glTF 2.0 writer (hosted): one binary buffer, one bufferView per
 * accessor, JSON parts built as text.  Output as .gltf (the buffer embedded
 * as a base64 data URI, so the file stands alone) or .glb. */
#ifndef PLUMBOB_GLTF_WRITE_H
#define PLUMBOB_GLTF_WRITE_H

#include <stdint.h>
#include "util/tool_buf.h"

#define GLTF_UBYTE 5121
#define GLTF_USHORT 5123
#define GLTF_UINT 5125
#define GLTF_FLOAT 5126
#define GLTF_ARRAY_BUFFER 34962
#define GLTF_ELEMENT_ARRAY_BUFFER 34963

/* The top-level arrays a writer fills, in output order. */
enum { GLTF_NODES, GLTF_MESHES, GLTF_SKINS, GLTF_ANIMATIONS, GLTF_ACCESSORS, GLTF_VIEWS, GLTF_PARTS };

typedef struct gltf_writer {
    tool_buf bin;
    tool_buf part[GLTF_PARTS];
    uint32_t count[GLTF_PARTS];
    tool_buf roots;          /* the scene's root nodes, "0,3,..." */
    uint32_t root_count;
    tool_buf scene_extras;   /* the scene's "extras" value when not empty */
} gltf_writer;

/* Starts object number *index of `part` and returns the text to write its
 * members into (without the braces); close it with gltf_end. */
tool_buf *gltf_begin(gltf_writer *w, int part, uint32_t *index);
void gltf_end(gltf_writer *w, int part);
void gltf_scene_root(gltf_writer *w, uint32_t node);

/* An accessor over `count` elements of `components` values each (1, 2, 3,
 * 4 or 16) taken from `values` (host-order floats, or uint8/uint16/uint32
 * by `ctype`), stored little-endian in a bufferView of its own.  `target`
 * is GLTF_ARRAY_BUFFER, GLTF_ELEMENT_ARRAY_BUFFER or 0; with `minmax` the
 * accessor gets min and max (glTF requires them on POSITION and on
 * animation inputs).  Returns the accessor's index. */
uint32_t gltf_accessor(gltf_writer *w, const void *values, uint32_t count, int ctype,
                       unsigned components, int target, int minmax);

/* The whole file: binary = 0 for .gltf JSON, 1 for .glb.  Returns 0 when
 * memory ran out.  Frees nothing; call gltf_free. */
int gltf_finish(gltf_writer *w, int binary, const char *generator, tool_buf *out);
void gltf_free(gltf_writer *w);

#endif
