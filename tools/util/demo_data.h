/* Built-in sample data, made by plumbob's own writers (util/demo_data.c):
 * the demo, the tool tests and the benchmarks use it. */
#ifndef PLUMBOB_TOOL_DEMO_DATA_H
#define PLUMBOB_TOOL_DEMO_DATA_H

#include <stddef.h>

/* A malloc'd CLIP (two tracks, events), its size. */
size_t demo_clip(unsigned char **out);
/* A skinned, morphing cylinder GMDC (3 bones, morphs "bulge" and "pinch"). */
size_t demo_gmdc(unsigned char **out);
/* A body-shaped GMDC (1,400 vertices, 65 joints, morphs "fatbot" and
 * "pregbot", sparse Target Indices elements of 426 and 94 items). */
size_t demo_body_gmdc(unsigned char **out);
/* A small jazz state machine: a Sim walks through a door. */
size_t demo_jazz(unsigned char **out);
/* A Sims 3 rig for the clip: b__ROOT__ > b__Spine0__ > b__Spine1__ >
 * b__Head__, with one IK chain. */
size_t demo_rig_resource(unsigned char **out);
/* A small Sims 2 ANIM: a bending spine, a rising root, a morph, an event. */
size_t demo_anim(unsigned char **out);

/* A Sims 2 body on its skeleton (util/demo_body.c), Z-up: a DEMO_SKEL_JOINTS-joint CRES
 * skeleton (joints "root_trans", "root_rot", "bone_02" ... in a binary tree
 * under a grouping node "auskel"), a mesh skinned to it with three weights
 * per vertex and morphs "fat" and "thin", and an ANIM that lifts and turns
 * the root, bends bone_03 and swells "fat".  demo_skel_package puts the
 * three in a DBPF 1.1 package (the demo's body.package), group DEMO_SKEL_GROUP, instances DEMO_SKEL_INSTANCE + 0
 * (CRES), + 1 (GMDC), + 2 (ANIM). */
#define DEMO_SKEL_JOINTS 65u
#define DEMO_SKEL_GROUP 0x1C0532FAu
#define DEMO_SKEL_INSTANCE 0x00F0E1D2C3B4A5A0ull
size_t demo_skel_cres(unsigned char **out);
size_t demo_skel_gmdc(unsigned char **out);
size_t demo_skel_anim(unsigned char **out);
size_t demo_skel_package(unsigned char **out);

#endif
