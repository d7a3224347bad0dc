/* Curve plots as SVG (hosted): one panel per track, time across, the
 * components of a value as coloured lines, keys marked. */
#ifndef PLUMBOB_SVG_PLOT_H
#define PLUMBOB_SVG_PLOT_H

#include <stdint.h>
#include "util/tool_buf.h"

#define PLOT_MAX_COMPONENTS 4

typedef struct plot_panel {
    char title[160];
    const char *unit;                        /* y axis: "degrees", "metres", "weight" */
    uint32_t components;                     /* 1..4 */
    const char *labels[PLOT_MAX_COMPONENTS]; /* "x", "y", ... */
    uint32_t samples;                        /* the curve, evenly or not, in time order */
    const float *sample_t, *sample_v;        /* samples; samples * components */
    uint32_t keys;                           /* marked points */
    const float *key_t, *key_v;              /* keys; keys * components */
} plot_panel;

/* The whole SVG document: `title` on top, panels stacked, a shared time
 * axis from 0 to `duration` seconds.  Returns 0 when memory ran out. */
int svg_plot(tool_buf *out, const char *title, float duration, const plot_panel *panels, uint32_t count);

/* Euler angles in degrees (X, then Y, then Z: q = qz * qy * qx, the
 * convention of Sims 2 animations) of a unit quaternion. */
void plot_quat_to_euler(const float q[4], float degrees[3]);
/* Keeps each angle within 180 degrees of the previous one (so a curve does
 * not jump at +-180); prev NULL for the first. */
void plot_unwrap(const float *prev, float *angles, unsigned n);

#endif
