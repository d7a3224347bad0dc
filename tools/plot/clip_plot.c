/* plumbob clip plot: the curves of a clip's tracks as SVG. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "plot.h"
#include "util/files.h"
#include "util/names.h"
#include "svg_plot.h"

#define MAX_SAMPLES 4000u

static const char *const xyz[4] = {"x", "y", "z", "w"};
static const char *const euler[3] = {"x (deg)", "y (deg)", "z (deg)"};

/* The track's curve sampled at every tick and its keys, as the plot shows
 * them: rotations as Euler angles, unwrapped, keys matched to the curve. */
typedef struct clip_plot_data {
    const plumbob_clip *clip;
    const tool_dict *names;
} clip_plot_data;

static int fill_panel(const plumbob_clip *c, const tool_dict *names, uint32_t ti, plot_panel *p, float **mem) {
    const plumbob_clip_track *t = &c->tracks[ti];
    int rot = t->target == PLUMBOB_CLIP_TARGET_ROTATION;
    uint32_t comps = rot ? 3u : t->components, n, i, k;
    float step, *st, *sv, *kt, *kv;
    const char *nm;
    n = c->tick_count + 1u;
    if (n > MAX_SAMPLES) n = MAX_SAMPLES;
    if (n < 2) n = 2;
    step = plumbob_clip_duration(c) / (float)(n - 1);
    *mem = (float *)malloc(sizeof(float) * ((size_t)n * (comps + 1) + (size_t)t->key_count * (comps + 1) + 1));
    if (!*mem) return 0;
    st = *mem;
    sv = st + n;
    kt = sv + (size_t)n * comps;
    kv = kt + t->key_count;
    for (i = 0; i < n; i++) {
        float v[4] = {0, 0, 0, 1};
        st[i] = step * (float)i;
        (void)plumbob_clip_sample_track(c, ti, st[i], v); /* ti < track_count: never fails */
        if (rot) {
            plot_quat_to_euler(v, sv + 3 * i);
            plot_unwrap(i ? sv + 3 * (i - 1) : NULL, sv + 3 * i, 3);
        } else {
            memcpy(sv + (size_t)comps * i, v, sizeof(float) * comps);
        }
    }
    for (k = 0; k < t->key_count; k++) {
        float v[4] = {0, 0, 0, 1};
        uint32_t near;
        uint16_t tick = 0;
        (void)plumbob_clip_key_value(c, ti, k, &tick, v); /* k < key_count: never fails */
        kt[k] = (float)tick * c->frame_duration;
        near = step > 0 ? (uint32_t)(kt[k] / step + 0.5f) : 0u;
        if (near >= n) near = n - 1;
        if (rot) {
            float l2 = v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3];
            plumbob_quat q;
            q.x = v[0]; q.y = v[1]; q.z = v[2]; q.w = v[3];
            if (l2 > 0) q = plumbob_quat_normalize(q);
            v[0] = q.x; v[1] = q.y; v[2] = q.z; v[3] = q.w;
            plot_quat_to_euler(v, kv + 3 * k);
            plot_unwrap(sv + 3 * near, kv + 3 * k, 3);
        } else {
            memcpy(kv + (size_t)comps * k, v, sizeof(float) * comps);
        }
    }
    nm = tool_dict_track(names, t->hash, t->target == PLUMBOB_CLIP_TARGET_MORPH);
    snprintf(p->title, sizeof p->title, "track %u: %s%s0x%08X %s (type 0x%04X%s)", (unsigned)ti, nm ? nm : "",
             nm ? " " : "", (unsigned)t->hash,
             t->target == PLUMBOB_CLIP_TARGET_ROTATION ? "rotation" : t->target == PLUMBOB_CLIP_TARGET_TRANSLATION ? "translation"
             : t->target == PLUMBOB_CLIP_TARGET_SCALE ? "scale" : t->target == PLUMBOB_CLIP_TARGET_MORPH ? "morph" : "unknown",
             (unsigned)t->type, t->key_count ? "" : ", no keys: constant");
    p->unit = rot ? "degrees (Euler X, Y, Z)" : t->target == PLUMBOB_CLIP_TARGET_TRANSLATION ? "metres"
            : t->target == PLUMBOB_CLIP_TARGET_MORPH ? "weight" : "value";
    p->components = comps;
    for (i = 0; i < comps; i++) p->labels[i] = rot ? euler[i] : comps == 1 ? "weight" : xyz[i];
    p->samples = n;
    p->sample_t = st;
    p->sample_v = sv;
    p->keys = t->key_count;
    p->key_t = kt;
    p->key_v = kv;
    return 1;
}

/* Does `want` (hex hash or a name) pick track t? */
static int track_matches(const plumbob_clip_track *t, const char *want) {
    uint64_t h;
    if (tool_parse_hex(want, strlen(want), &h) && (strncmp(want, "0x", 2) == 0 || strncmp(want, "0X", 2) == 0))
        return t->hash == (uint32_t)h;
    if (t->target == PLUMBOB_CLIP_TARGET_MORPH) return t->hash == (uint32_t)plumbob_fnv64_str(want);
    return t->hash == plumbob_fnv32_str(want);
}

static int track_named(const void *data, uint32_t i, const char *name) {
    return track_matches(&((const clip_plot_data *)data)->clip->tracks[i], name);
}

static int track_plottable(const void *data, uint32_t i) {
    return ((const clip_plot_data *)data)->clip->tracks[i].components != 0;
}

static int track_fill(const void *data, uint32_t i, plot_panel *p, float **mem) {
    const clip_plot_data *d = (const clip_plot_data *)data;
    return fill_panel(d->clip, d->names, i, p, mem);
}

int clip_plot_svg(const plumbob_clip *c, const char *title, const char *const *tracks, int track_count,
                  const char *out_path, const tool_dict *names) {
    tool_plot_source src;
    clip_plot_data d;
    d.clip = c;
    d.names = names;
    src.data = &d;
    src.count = c->track_count;
    src.named = track_named;
    src.plottable = track_plottable;
    src.fill = track_fill;
    src.duration = plumbob_clip_duration(c);
    src.what = "tracks";
    src.option = "--track";
    src.hint = "give a hash such as 0x6FA96266 or a bone or morph name; plumbob clip dump lists them";
    return tool_plot(&src, title, tracks, track_count, out_path);
}
