/* plumbob anim plot: the curves of a Sims 2 animation's channels as SVG. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "plot.h"
#include "util/files.h"
#include "svg_plot.h"

#define MAX_SAMPLES 4000u

static const char *const xyz[4] = {"x", "y", "z", "w"};
static const char *const euler[4] = {"x (deg)", "y (deg)", "z (deg)", "w"};

static int cmp_float(const void *a, const void *b) {
    float x = *(const float *)a, y = *(const float *)b;
    return x < y ? -1 : x > y;
}

/* Channel ch sampled every few ticks; keys of all its components at the
 * union of their times (NaN where a component has no key then). */
static int fill_panel(const plumbob_anim *a, uint32_t ch, plot_panel *p, float **mem) {
    const plumbob_anim_channel *c = &a->channels[ch];
    uint32_t comps = PLUMBOB_ANIM_COMPONENTS(c->flags), n, i, k, total_keys = 0, nk = 0;
    int rot = PLUMBOB_ANIM_ATTRIBUTE(c->flags) == PLUMBOB_ANIM_ATTR_ROTATION;
    float step, *st, *sv, *kt, *kv;
    if (comps > PLOT_MAX_COMPONENTS) comps = PLOT_MAX_COMPONENTS;
    if (c->first_component + comps > a->component_count) comps = a->component_count - c->first_component;
    for (k = 0; k < comps; k++) total_keys += a->components[c->first_component + k].key_count;
    n = (uint32_t)a->duration + 1u;
    if (n > MAX_SAMPLES) n = MAX_SAMPLES;
    if (n < 2) n = 2;
    step = (float)a->duration / (float)(n - 1);
    *mem = (float *)malloc(sizeof(float) * ((size_t)n * (comps + 1) + (size_t)total_keys * (comps + 1) + 1));
    if (!*mem) return 0;
    st = *mem;
    sv = st + n;
    kt = sv + (size_t)n * comps;
    kv = kt + total_keys;
    for (i = 0; i < n; i++) {
        st[i] = step * (float)i / 1000.0f; /* ticks are milliseconds */
        for (k = 0; k < comps; k++) sv[(size_t)comps * i + k] = plumbob_anim_sample_component(a, c->first_component + k, step * (float)i);
        if (rot) plot_unwrap(i ? sv + (size_t)comps * (i - 1) : NULL, sv + (size_t)comps * i, comps);
    }
    for (k = 0; k < comps; k++) /* key times of every component, then sorted and merged */
        for (i = 0; i < a->components[c->first_component + k].key_count; i++)
            kt[nk++] = plumbob_anim_key_at(a, c->first_component + k, i).time;
    qsort(kt, nk, sizeof *kt, cmp_float);
    for (i = 0, k = 0; i < nk; i++)
        if (!k || kt[i] != kt[k - 1]) kt[k++] = kt[i];
    nk = k;
    for (i = 0; i < (size_t)nk * comps; i++) kv[i] = NAN;
    for (k = 0; k < comps; k++) {
        const plumbob_anim_component *co = &a->components[c->first_component + k];
        uint32_t key, j = 0;
        for (key = 0; key < co->key_count; key++) {
            plumbob_anim_key ak = plumbob_anim_key_at(a, c->first_component + k, key);
            while (j < nk && kt[j] < ak.time) j++;
            if (j < nk) kv[(size_t)comps * j + k] = ak.value;
        }
    }
    for (i = 0; i < nk; i++) { /* keys next to the (unwrapped) curve */
        uint32_t near = step > 0 ? (uint32_t)(kt[i] / step + 0.5f) : 0u;
        if (near >= n) near = n - 1;
        if (rot) plot_unwrap(sv + (size_t)comps * near, kv + (size_t)comps * i, comps);
        kt[i] /= 1000.0f;
    }
    snprintf(p->title, sizeof p->title, "channel %u: %.*s %s", (unsigned)ch, (int)c->name.len, c->name.ptr,
             rot ? "rotation" : PLUMBOB_ANIM_ATTRIBUTE(c->flags) == PLUMBOB_ANIM_ATTR_TRANSLATION ? "translation"
             : PLUMBOB_ANIM_ATTRIBUTE(c->flags) == PLUMBOB_ANIM_ATTR_MORPH ? "morph weight" : "attribute");
    p->unit = rot ? "degrees (Euler X, Y, Z)" : PLUMBOB_ANIM_ATTRIBUTE(c->flags) == PLUMBOB_ANIM_ATTR_MORPH ? "weight" : "value";
    p->components = comps;
    for (i = 0; i < comps; i++) p->labels[i] = rot ? euler[i] : comps == 1 ? "value" : xyz[i];
    p->samples = n;
    p->sample_t = st;
    p->sample_v = sv;
    p->keys = nk;
    p->key_t = kt;
    p->key_v = kv;
    return 1;
}

static int channel_named(const void *data, uint32_t i, const char *name) {
    const plumbob_string *nm = &((const plumbob_anim *)data)->channels[i].name;
    return strlen(name) == nm->len && memcmp(name, nm->ptr, nm->len) == 0;
}

static int channel_plottable(const void *data, uint32_t i) {
    const plumbob_anim *a = (const plumbob_anim *)data;
    return PLUMBOB_ANIM_COMPONENTS(a->channels[i].flags) != 0 && a->channels[i].first_component < a->component_count;
}

static int channel_fill(const void *data, uint32_t i, plot_panel *p, float **mem) {
    return fill_panel((const plumbob_anim *)data, i, p, mem);
}

int anim_plot_svg(const plumbob_anim *a, const char *title, const char *const *channels, int channel_count,
                  const char *out_path) {
    tool_plot_source src;
    src.data = a;
    src.count = a->channel_count;
    src.named = channel_named;
    src.plottable = channel_plottable;
    src.fill = channel_fill;
    src.duration = (float)a->duration / 1000.0f;
    src.what = "channels";
    src.option = "--channel";
    src.hint = "give a channel name; plumbob anim dump lists them";
    return tool_plot(&src, title, channels, channel_count, out_path);
}
