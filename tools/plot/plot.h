/* Plots: a clip's tracks or an ANIM's channels as one SVG of panels
 * (svg_plot.h renders, plot.c picks the items and writes the file). */
#ifndef PLUMBOB_TOOL_PLOT_H
#define PLUMBOB_TOOL_PLOT_H

#include <stdint.h>
#include "plumbob.h"

/* clip plot (plot/clip_plot.c): the tracks picked by `tracks` (hex hashes or
 * names; all when track_count is 0) as an SVG at out_path, panels titled
 * with the names `names` (may be NULL) knows.  0 or 1. */
struct tool_dict;
int clip_plot_svg(const plumbob_clip *c, const char *title, const char *const *tracks, int track_count,
                  const char *out_path, const struct tool_dict *names);
/* anim plot (plot/anim_plot.c): the channels named in `channels` (all when
 * channel_count is 0) of a Sims 2 ANIM as an SVG.  0 or 1. */
int anim_plot_svg(const plumbob_anim *a, const char *title, const char *const *channels, int channel_count,
                  const char *out_path);
/* Renders plot panels (svg_plot.h) and writes them to out_path, saying so:
 * "N <what> over S s".  0 or 1 after printing why (plot/plot.c). */
struct plot_panel;
int tool_write_plot(const char *out_path, const char *title, float duration, const struct plot_panel *panels,
                    uint32_t n, const char *what);
/* What a plot command plots: `count` items; `named` says whether item i
 * answers to a name the user gave, `plottable` whether it has values,
 * `fill` builds its panel (*mem: the panel's arrays, freed by tool_plot). */
typedef struct tool_plot_source {
    const void *data;
    uint32_t count;
    int (*named)(const void *data, uint32_t i, const char *name);
    int (*plottable)(const void *data, uint32_t i);
    int (*fill)(const void *data, uint32_t i, struct plot_panel *p, float **mem);
    float duration;           /* seconds: the time axis */
    const char *what;         /* "tracks", "channels" */
    const char *option;       /* the option that picks items: "--track" */
    const char *hint;         /* how to name an item, for a name that picks none */
} tool_plot_source;
/* The items picked by `names` (all when name_count is 0) plotted to
 * out_path.  0, or 1 after printing why. */
int tool_plot(const tool_plot_source *src, const char *title, const char *const *names, int name_count,
              const char *out_path);

#endif
