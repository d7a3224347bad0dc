/* The plot commands' shared driver: pick the items, build their panels,
 * write the SVG (svg_plot.c renders). */
#include <stdio.h>
#include <stdlib.h>
#include "plot.h"
#include "util/files.h"
#include "svg_plot.h"

int tool_write_plot(const char *out_path, const char *title, float duration, const plot_panel *panels, uint32_t n,
                    const char *what) {
    tool_buf svg = {0};
    int rc = 0;
    if (!svg_plot(&svg, title, duration, panels, n)) {
        tool_error(out_path, "out of memory");
        rc = 1;
    } else if (!tool_write_file(out_path, svg.data, svg.size)) {
        rc = 1;
    } else {
        printf("wrote %s (%zu bytes): %u %s over %.3f s; open it in a web browser\n", out_path, svg.size, (unsigned)n,
               what, (double)duration);
    }
    tb_free(&svg);
    return rc;
}

int tool_plot(const tool_plot_source *src, const char *title, const char *const *names, int name_count,
              const char *out_path) {
    plot_panel *panels = (plot_panel *)calloc(src->count + 1u, sizeof *panels);
    float **mem = (float **)calloc(src->count + 1u, sizeof *mem);
    uint32_t i, n = 0;
    int k, rc = 0;
    if (!panels || !mem) {
        free(panels);
        free(mem);
        tool_error(out_path, "out of memory");
        return 1;
    }
    /* every name must pick something: a typo is not silently left out */
    for (k = 0; k < name_count && rc == 0; k++) {
        for (i = 0; i < src->count && !src->named(src->data, i, names[k]); i++) {
        }
        if (i == src->count) {
            tool_error(title, "%s %s matches none of the %u %s (%s)", src->option, names[k], (unsigned)src->count,
                       src->what, src->hint);
            rc = 1;
        }
    }
    for (i = 0; i < src->count && rc == 0; i++) {
        int pick = name_count == 0;
        for (k = 0; k < name_count && !pick; k++) pick = src->named(src->data, i, names[k]);
        if (!pick || !src->plottable(src->data, i)) continue;
        if (!src->fill(src->data, i, &panels[n], &mem[n])) {
            tool_error(out_path, "out of memory");
            rc = 1;
        }
        n++;
    }
    if (rc == 0 && n == 0) {
        tool_error(title, "nothing to plot: the %s picked have no keys", src->what);
        rc = 1;
    }
    if (rc == 0) rc = tool_write_plot(out_path, title, src->duration, panels, n, src->what);
    for (i = 0; i < n; i++) free(mem[i]);
    free(mem);
    free(panels);
    return rc;
}
