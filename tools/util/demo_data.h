/* Built-in sample data, made by plumbob's own writers (util/demo_data.c):
 * the demo, the tool tests and the benchmarks use it. */
#ifndef PLUMBOB_TOOL_DEMO_DATA_H
#define PLUMBOB_TOOL_DEMO_DATA_H

#include <stddef.h>

/* A malloc'd CLIP (two tracks, events), its size. */
size_t demo_clip(unsigned char **out);
/* A skinned, morphing cylinder GMDC (3 bones, morphs "bulge" and "pinch"). */
size_t demo_gmdc(unsigned char **out);
/* A small jazz state machine: a Sim walks through a door. */
size_t demo_jazz(unsigned char **out);
/* A small Sims 2 ANIM: a bending spine, a rising root, a morph, an event. */
size_t demo_anim(unsigned char **out);

#endif
