/* SVG plots: plain SVG 1.1 with inline attributes, readable in any browser. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "svg_plot.h"

#define W 960.0
#define LEFT 80.0
#define RIGHT 120.0
#define PANEL_H 150.0
#define GAP 46.0
#define TOP 56.0

/* Past this many panels the plot becomes an overview: a grid of small
 * panels, curves thinned to about one point per pixel, keys counted rather
 * than marked, so a 300-track clip stays a file a browser opens (~1-2 MB,
 * where the stacked layout made 8 MB and 55,000 pixels of height). */
#define OVERVIEW_AFTER 12
#define GRID_COLUMNS 4
#define CELL_W (W / GRID_COLUMNS)
#define CELL_LEFT 44.0
#define CELL_RIGHT 8.0
#define CELL_H 86.0
#define CELL_GAP 34.0

/* Where one panel goes: its plot rectangle and how much detail it gets. */
typedef struct geometry {
    double x0, y0, w, h;
    int compact;
} geometry;

static const char *const colours[PLOT_MAX_COMPONENTS] = {"#d62728", "#2ca02c", "#1f77b4", "#7f7f7f"};

static void xml_text(tool_buf *b, const char *s) {
    for (; *s; s++) {
        switch (*s) {
        case '&': tb_str(b, "&amp;"); break;
        case '<': tb_str(b, "&lt;"); break;
        case '>': tb_str(b, "&gt;"); break;
        case '"': tb_str(b, "&quot;"); break;
        default:
            if ((unsigned char)*s >= 0x20 || *s == '\t') tb_put(b, s, 1); /* control bytes are not XML */
        }
    }
}

/* A step of 1, 2 or 5 times a power of ten giving about `want` ticks. */
static double nice_step(double range, int want) {
    double raw = range / want, p = pow(10.0, floor(log10(raw))), f = raw / p;
    return (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * p;
}

static double px(double t, float duration) {
    return LEFT + (duration > 0 ? t / duration : 0.0) * (W - LEFT - RIGHT);
}

static double gx(const geometry *g, double t, float duration) {
    return g->x0 + (duration > 0 ? t / duration : 0.0) * g->w;
}

static double gy(const geometry *g, double val, double lo, double hi) {
    return g->y0 + g->h - (val - lo) / (hi - lo) * g->h;
}

static void panel(tool_buf *b, const plot_panel *p, const geometry *g, float duration) {
    double lo = INFINITY, hi = -INFINITY, step, v;
    const char *num = g->compact ? "%.0f" : "%.1f";
    uint32_t i, c, stride = 1;
    for (i = 0; i < p->samples * p->components; i++)
        if (isfinite(p->sample_v[i])) { lo = fmin(lo, p->sample_v[i]); hi = fmax(hi, p->sample_v[i]); }
    for (i = 0; i < p->keys * p->components; i++)
        if (isfinite(p->key_v[i])) { lo = fmin(lo, p->key_v[i]); hi = fmax(hi, p->key_v[i]); }
    if (!(lo <= hi)) { lo = 0; hi = 1; }
    if (hi - lo < 1e-6) { lo -= 0.5; hi += 0.5; } /* a flat line sits mid-panel */
    step = nice_step(hi - lo, g->compact ? 2 : 4);
    lo = floor(lo / step) * step;
    hi = ceil(hi / step) * step;
    if (g->compact && p->samples > (uint32_t)g->w) stride = (p->samples + (uint32_t)g->w - 1) / (uint32_t)g->w;
    tb_printf(b, "<g>\n<text x=\"%.1f\" y=\"%.1f\" font-size=\"%d\" font-weight=\"bold\">",
              g->compact ? g->x0 - CELL_LEFT + 4 : 10.0, g->y0 - (g->compact ? 6 : 10), g->compact ? 10 : 14);
    if (g->compact) { /* what fits in a grid cell at this font size */
        char cut[48];
        size_t n = strlen(p->title);
        snprintf(cut, sizeof cut, "%.*s%s", n > 38 ? 36 : (int)n, p->title, n > 38 ? ".." : "");
        xml_text(b, cut);
    } else {
        xml_text(b, p->title);
    }
    tb_printf(b, "</text>\n<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#fafafa\" stroke=\"#444\"/>\n",
              g->x0, g->y0, g->w, g->h);
    for (v = lo; v <= hi + step / 2; v += step) { /* y grid and labels */
        double y = gy(g, v, lo, hi);
        tb_printf(b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>", g->x0, y, g->x0 + g->w, y);
        tb_printf(b, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%d\" text-anchor=\"end\">%g</text>\n", g->x0 - (g->compact ? 4 : 6),
                  y + 4, g->compact ? 9 : 11, fabs(v) < step * 1e-6 ? 0.0 : v);
    }
    if (!g->compact) {
        tb_printf(b, "<text transform=\"translate(16 %.1f) rotate(-90)\" font-size=\"11\" text-anchor=\"middle\">",
                  g->y0 + g->h / 2);
        xml_text(b, p->unit);
        tb_str(b, "</text>\n");
    }
    for (c = 0; c < p->components; c++) {
        int open = 0;
        for (i = 0; i < p->samples; i++) {
            float val = p->sample_v[i * p->components + c];
            if (i % stride != 0 && i + 1 != p->samples) continue; /* thinned, the last point kept */
            if (!isfinite(val)) { /* a gap, not a spike */
                if (open) tb_str(b, "\"/>\n");
                open = 0;
                continue;
            }
            if (!open)
                tb_printf(b, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"%s\" points=\"", colours[c],
                          g->compact ? "1" : "1.5");
            if (open) tb_str(b, " ");
            tb_printf(b, num, gx(g, p->sample_t[i], duration));
            tb_str(b, ",");
            tb_printf(b, num, gy(g, val, lo, hi));
            open = 1;
        }
        if (open) tb_str(b, "\"/>\n");
        if (g->compact) continue; /* the overview counts keys in the title instead */
        for (i = 0; i < p->keys; i++) {
            float val = p->key_v[i * p->components + c];
            if (isfinite(val))
                tb_printf(b, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"%s\"/>", gx(g, p->key_t[i], duration),
                          gy(g, val, lo, hi), colours[c]);
        }
        if (p->keys) tb_str(b, "\n");
        tb_printf(b, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\" fill=\"%s\">", g->x0 + g->w + 10,
                  g->y0 + 16 + 16.0 * c, colours[c]);
        xml_text(b, p->labels[c] ? p->labels[c] : "?");
        tb_str(b, "</text>\n");
    }
    if (p->keys && !g->compact)
        tb_printf(b, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" fill=\"#444\">%u keys</text>\n", g->x0 + g->w + 10,
                  g->y0 + g->h - 4, (unsigned)p->keys);
    tb_str(b, "</g>\n");
}

int svg_plot(tool_buf *b, const char *title, float duration, const plot_panel *panels, uint32_t count) {
    int overview = count > OVERVIEW_AFTER;
    uint32_t rows = overview ? (count + GRID_COLUMNS - 1) / GRID_COLUMNS : count;
    double plot_w = W - LEFT - RIGHT, t, step, axis_y, h;
    uint32_t i, c;
    axis_y = overview ? TOP + 20 + rows * (CELL_H + CELL_GAP) - CELL_GAP + 4 : TOP + GAP / 2 + count * (PANEL_H + GAP) - GAP;
    h = axis_y + 44;
    tb_printf(b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                 "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
                 "font-family=\"sans-serif\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
                 "<text x=\"10\" y=\"24\" font-size=\"18\">", W, h, W, h);
    xml_text(b, title);
    tb_str(b, "</text>\n");
    if (overview) { /* one colour legend for the grid */
        static const char *const names[PLOT_MAX_COMPONENTS] = {"x", "y", "z", "w"};
        tb_printf(b, "<text x=\"10\" y=\"44\" font-size=\"12\">overview of %u panels, each over 0 to %g s (plot fewer "
                     "with --track for keys, units and axes); components:", (unsigned)count, (double)duration);
        for (c = 0; c < PLOT_MAX_COMPONENTS; c++) tb_printf(b, " <tspan fill=\"%s\">%s</tspan>", colours[c], names[c]);
        tb_str(b, "</text>\n");
    }
    for (i = 0; i < count; i++) {
        geometry g;
        if (overview) {
            g.x0 = (i % GRID_COLUMNS) * CELL_W + CELL_LEFT;
            g.y0 = TOP + 20 + (i / GRID_COLUMNS) * (CELL_H + CELL_GAP);
            g.w = CELL_W - CELL_LEFT - CELL_RIGHT;
            g.h = CELL_H;
            g.compact = 1;
        } else {
            g.x0 = LEFT;
            g.y0 = TOP + GAP / 2 + i * (PANEL_H + GAP);
            g.w = plot_w;
            g.h = PANEL_H;
            g.compact = 0;
        }
        panel(b, &panels[i], &g, duration);
    }
    if (!overview) {
        step = nice_step(duration > 0 ? duration : 1.0, 10);
        for (t = 0; t <= duration + step * 1e-6; t += step) { /* the time axis, under the last panel */
            double x = px(t, duration);
            tb_printf(b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#444\"/>", x, axis_y, x, axis_y + 5);
            tb_printf(b, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"middle\">%g</text>\n", x, axis_y + 17, t);
        }
        tb_printf(b, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\" text-anchor=\"middle\">time (s)</text>\n",
                  LEFT + plot_w / 2, axis_y + 34);
    }
    tb_str(b, "</svg>\n");
    return !b->failed;
}

void plot_quat_to_euler(const float q[4], float d[3]) {
    const double r2d = 57.29577951308232;
    double x = q[0], y = q[1], z = q[2], w = q[3], s = 2 * (w * y - z * x);
    if (s > 1) s = 1;
    if (s < -1) s = -1;
    d[0] = (float)(atan2(2 * (w * x + y * z), 1 - 2 * (x * x + y * y)) * r2d);
    d[1] = (float)(asin(s) * r2d);
    d[2] = (float)(atan2(2 * (w * z + x * y), 1 - 2 * (y * y + z * z)) * r2d);
}

void plot_unwrap(const float *prev, float *a, unsigned n) {
    unsigned i;
    if (!prev) return;
    for (i = 0; i < n; i++) {
        double d = (double)a[i] - prev[i];
        if (isfinite(d) && fabs(d) > 180.0) a[i] = (float)(a[i] - 360.0 * floor(d / 360.0 + 0.5));
    }
}
