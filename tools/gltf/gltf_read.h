/* Reading a glTF 2.0 file another program wrote (hosted): the JSON tree,
 * its buffers (the GLB binary chunk, base64 data URIs, or .bin files beside
 * the .gltf) and accessors as floats.  Every index, offset and count is
 * checked against what the file holds; a problem is said as
 * "accessors[3]: what". */
#ifndef PLUMBOB_GLTF_READ_H
#define PLUMBOB_GLTF_READ_H

#include <stddef.h>
#include <stdint.h>
#include "util/json_parse.h"

typedef struct gltf_doc {
    json_value root;
    unsigned char **buffers; /* buffer i's bytes (malloc'd, or into the GLB) */
    size_t *buffer_size;
    unsigned char *owned;    /* per buffer: 1 when buffers[i] is malloc'd */
    uint32_t buffer_count;
} gltf_doc;

/* Parses data[0..size) (GLB or JSON); path locates external buffers.
 * Returns 0 with the reason in why. */
int gltf_read(const unsigned char *data, size_t size, const char *path, gltf_doc *doc, char *why, size_t why_cap);
void gltf_doc_free(gltf_doc *doc);

/* Accessor `index` as count * comps floats (malloc'd into *out): FLOAT, or
 * normalized integers scaled as glTF says; sparse substitutions applied.
 * comps must be the accessor type's (1 SCALAR, 2 VEC2, 3 VEC3, 4 VEC4, 16 MAT4).  Returns 0
 * with the reason in why. */
int gltf_read_floats(const gltf_doc *doc, uint32_t index, uint32_t comps, float **out, uint32_t *count, char *why,
                     size_t why_cap);

/* Accessor `index` as count * comps unsigned integers (malloc'd): UNSIGNED_BYTE,
 * UNSIGNED_SHORT or UNSIGNED_INT components (indices, JOINTS_0).  comps as
 * above.  Returns 0 with the reason in why. */
int gltf_read_uints(const gltf_doc *doc, uint32_t index, uint32_t comps, uint32_t **out, uint32_t *count, char *why,
                    size_t why_cap);

/* Element i of array member `key` of v, or NULL. */
const json_value *gltf_at(const json_value *v, const char *key, uint32_t i);
/* A non-negative integer member `key` of v into *out; 0 when missing or not one. */
int gltf_uint(const json_value *v, const char *key, uint32_t *out);

#endif
