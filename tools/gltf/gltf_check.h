/* plumbob's own glTF 2.0 checker (hosted): the structure, every index and
 * byte range, and the data rules viewers depend on.  Used by
 * `plumbob check FILE.gltf|FILE.glb` and by the tests on every exported file. */
#ifndef PLUMBOB_GLTF_CHECK_H
#define PLUMBOB_GLTF_CHECK_H

#include <stddef.h>
#include <stdint.h>

typedef struct gltf_check_report {
    int binary;               /* 1 for .glb */
    uint32_t nodes, meshes, primitives, vertices, targets, skins, joints, animations, channels, accessors;
} gltf_check_report;

/* Checks a .gltf (JSON, buffers as base64 data URIs) or .glb file:
 * the GLB header and chunks; asset.version "2.0"; every index into nodes,
 * meshes, skins, accessors, bufferViews, buffers; bufferViews inside their
 * buffers; accessors inside their bufferViews and aligned; declared
 * min/max equal to the data's; POSITION with min/max; the attributes of a
 * primitive with one count; indices below it; triangle lists a multiple
 * of 3; unit normals and rotations; JOINTS_0 below the skin's joint count
 * and WEIGHTS_0 summing to 1; morph target counts and mesh weights; node
 * trees without cycles or second parents; skins with one MAT4 per joint;
 * animation inputs strictly increasing with min/max, outputs of the size
 * their path needs, one channel per node and path.  External buffer files
 * are reported as unsupported.  Returns 1 when valid; otherwise 0 and the
 * first problem in `why` ("accessors[3]: ..."). */
int gltf_check(const unsigned char *data, size_t size, gltf_check_report *report, char *why, size_t why_cap);

#endif
