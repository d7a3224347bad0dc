/* SVG plots: plain SVG 1.1 with inline attributes, readable in any browser. */
#include <math.h>
#include <string.h>
#include "svg_plot.h"

#define W 960.0
#define LEFT 80.0
#define RIGHT 120.0
#define PANEL_H 150.0
#define GAP 46.0
#define TOP 56.0

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

static double py(double val, double y0, double lo, double hi) {
    return y0 + PANEL_H - (val - lo) / (hi - lo) * PANEL_H;
}

static void panel(tool_buf *b, const plot_panel *p, double y0, float duration) {
    double lo = INFINITY, hi = -INFINITY, step, v, plot_w = W - LEFT - RIGHT;
    uint32_t i, c;
    for (i = 0; i < p->samples * p->components; i++)
        if (isfinite(p->sample_v[i])) { lo = fmin(lo, p->sample_v[i]); hi = fmax(hi, p->sample_v[i]); }
    for (i = 0; i < p->keys * p->components; i++)
        if (isfinite(p->key_v[i])) { lo = fmin(lo, p->key_v[i]); hi = fmax(hi, p->key_v[i]); }
    if (!(lo <= hi)) { lo = 0; hi = 1; }
    if (hi - lo < 1e-6) { lo -= 0.5; hi += 0.5; } /* a flat line sits mid-panel */
    step = nice_step(hi - lo, 4);
    lo = floor(lo / step) * step;
    hi = ceil(hi / step) * step;
    tb_str(b, "<g>\n<text x=\"10\" y=\"");
    tb_printf(b, "%.1f\" font-size=\"14\" font-weight=\"bold\">", y0 - 10);
    xml_text(b, p->title);
    tb_printf(b, "</text>\n<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#fafafa\" stroke=\"#444\"/>\n",
              LEFT, y0, plot_w, PANEL_H);
    for (v = lo; v <= hi + step / 2; v += step) { /* y grid and labels */
        double y = py(v, y0, lo, hi);
        tb_printf(b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>", LEFT, y, LEFT + plot_w, y);
        tb_printf(b, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\">%g</text>\n", LEFT - 6, y + 4,
                  fabs(v) < step * 1e-6 ? 0.0 : v);
    }
    tb_printf(b, "<text transform=\"translate(16 %.1f) rotate(-90)\" font-size=\"11\" text-anchor=\"middle\">", y0 + PANEL_H / 2);
    xml_text(b, p->unit);
    tb_str(b, "</text>\n");
    for (c = 0; c < p->components; c++) {
        int open = 0;
        for (i = 0; i < p->samples; i++) {
            float val = p->sample_v[i * p->components + c];
            if (!isfinite(val)) { /* a gap, not a spike */
                if (open) tb_str(b, "\"/>\n");
                open = 0;
                continue;
            }
            if (!open) tb_printf(b, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" points=\"", colours[c]);
            tb_printf(b, "%s%.1f,%.1f", open ? " " : "", px(p->sample_t[i], duration), py(val, y0, lo, hi));
            open = 1;
        }
        if (open) tb_str(b, "\"/>\n");
        for (i = 0; i < p->keys; i++) {
            float val = p->key_v[i * p->components + c];
            if (isfinite(val))
                tb_printf(b, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"%s\"/>", px(p->key_t[i], duration), py(val, y0, lo, hi), colours[c]);
        }
        if (p->keys) tb_str(b, "\n");
        tb_printf(b, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\" fill=\"%s\">", LEFT + plot_w + 10, y0 + 16 + 16.0 * c,
                  colours[c]);
        xml_text(b, p->labels[c] ? p->labels[c] : "?");
        tb_str(b, "</text>\n");
    }
    if (p->keys) tb_printf(b, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" fill=\"#444\">%u keys</text>\n",
                           LEFT + plot_w + 10, y0 + PANEL_H - 4, (unsigned)p->keys);
    tb_str(b, "</g>\n");
}

int svg_plot(tool_buf *b, const char *title, float duration, const plot_panel *panels, uint32_t count) {
    double h = TOP + count * (PANEL_H + GAP) + 30, plot_w = W - LEFT - RIGHT, t, step;
    uint32_t i;
    tb_printf(b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                 "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
                 "font-family=\"sans-serif\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
                 "<text x=\"10\" y=\"24\" font-size=\"18\">", W, h, W, h);
    xml_text(b, title);
    tb_str(b, "</text>\n");
    for (i = 0; i < count; i++) panel(b, &panels[i], TOP + GAP / 2 + i * (PANEL_H + GAP), duration);
    step = nice_step(duration > 0 ? duration : 1.0, 10);
    for (t = 0; t <= duration + step * 1e-6; t += step) { /* the time axis, under the last panel */
        double x = px(t, duration), y = TOP + GAP / 2 + count * (PANEL_H + GAP) - GAP;
        tb_printf(b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#444\"/>", x, y, x, y + 5);
        tb_printf(b, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"middle\">%g</text>\n", x, y + 17, t);
    }
    tb_printf(b, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\" text-anchor=\"middle\">time (s)</text>\n",
              LEFT + plot_w / 2, TOP + GAP / 2 + count * (PANEL_H + GAP) - GAP + 34);
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
