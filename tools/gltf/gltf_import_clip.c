/* glTF in, Sims 3 CLIP out: see gltf_import.h.  The glTF samplers are
 * evaluated at every tick (LINEAR with slerp for rotations, STEP, and
 * CUBICSPLINE as glTF defines them), then each track keeps the fewest keys
 * whose straight (nlerp for rotations, as the game plays them) segments stay
 * within the bound of every sampled tick. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gltf_import.h"
#include "gltf_axes.h"
#include "gltf_export.h"
#include "util/namelist.h"

enum { INTERP_LINEAR, INTERP_STEP, INTERP_CUBIC };

typedef struct channel {
    float *times, *values;
    uint32_t n, comps, stride; /* stride: floats per key in values (comps * targets * 3 for cubic) */
    int interp;
} channel;

static void channel_free(channel *c) {
    free(c->times);
    free(c->values);
    memset(c, 0, sizeof *c);
}

static void nlerp4(const float *a, const float *b, float u, float *out) {
    float d = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3], s = d < 0 ? -1.0f : 1.0f, l;
    int i;
    for (i = 0; i < 4; i++) out[i] = a[i] + (s * b[i] - a[i]) * u;
    l = sqrtf(out[0] * out[0] + out[1] * out[1] + out[2] * out[2] + out[3] * out[3]);
    for (i = 0; i < 4; i++) out[i] = l > 0 ? out[i] / l : (i == 3);
}

static void slerp4(const float *a, const float *b, float u, float *out) {
    double d = (double)a[0] * b[0] + (double)a[1] * b[1] + (double)a[2] * b[2] + (double)a[3] * b[3], s = 1, th, w0, w1;
    int i;
    if (d < 0) { d = -d; s = -1; }
    if (d > 0.9995) { nlerp4(a, b, u, out); return; }
    th = acos(d);
    w0 = sin((1 - u) * th) / sin(th);
    w1 = s * sin(u * th) / sin(th);
    for (i = 0; i < 4; i++) out[i] = (float)(w0 * a[i] + w1 * b[i]);
}

/* The channel's value of component block `part` (a morph target; 0 for
 * nodes) at time t, into out[comps].  A key's floats (stride) are, for
 * CUBICSPLINE, every part's in-tangent, then every part's value, then
 * every out-tangent (glTF: a1..an, v1..vn, b1..bn for n morph targets);
 * else every part's value. */
static void evaluate(const channel *c, double t, uint32_t part, int rotation, float *out) {
    uint32_t lo = 0, hi = c->n - 1u, k, i, comps = c->comps;
    const float *v = c->values;
    #define VAL(key, which) (v + (size_t)(key) * c->stride + (size_t)part * comps + \
                             (c->interp == INTERP_CUBIC ? (size_t)(which) * (c->stride / 3u) : 0u))
    if (c->n == 1 || t <= c->times[0]) { memcpy(out, VAL(0, 1), comps * sizeof *out); return; }
    if (t >= c->times[c->n - 1]) { memcpy(out, VAL(c->n - 1, 1), comps * sizeof *out); return; }
    while (hi - lo > 1) { /* times[lo] <= t < times[hi] */
        uint32_t mid = lo + (hi - lo) / 2u;
        if (c->times[mid] <= t) lo = mid; else hi = mid;
    }
    k = lo;
    {
        double dt = (double)c->times[k + 1] - c->times[k], u = (t - c->times[k]) / dt;
        if (c->interp == INTERP_STEP) {
            memcpy(out, VAL(k, 1), comps * sizeof *out);
        } else if (c->interp == INTERP_LINEAR) {
            if (rotation) slerp4(VAL(k, 1), VAL(k + 1, 1), (float)u, out);
            else for (i = 0; i < comps; i++) out[i] = (float)(VAL(k, 1)[i] + (VAL(k + 1, 1)[i] - VAL(k, 1)[i]) * u);
        } else { /* glTF's cubic Hermite: value 1, out-tangent 2 of k; in-tangent 0 of k+1 */
            double u2 = u * u, u3 = u2 * u;
            double h00 = 2 * u3 - 3 * u2 + 1, h10 = u3 - 2 * u2 + u, h01 = -2 * u3 + 3 * u2, h11 = u3 - u2;
            for (i = 0; i < comps; i++)
                out[i] = (float)(h00 * VAL(k, 1)[i] + h10 * dt * VAL(k, 2)[i] + h01 * VAL(k + 1, 1)[i] +
                                 h11 * dt * VAL(k + 1, 0)[i]);
            if (rotation) {
                float l = sqrtf(out[0] * out[0] + out[1] * out[1] + out[2] * out[2] + out[3] * out[3]);
                for (i = 0; i < 4; i++) out[i] = l > 0 ? out[i] / l : (float)(i == 3);
            }
        }
    }
    #undef VAL
}

/* The error between two values of a track: degrees for rotations, distance
 * for translations, difference for morphs. */
double clip_import_error(const float *a, const float *b, uint32_t comps) {
    if (comps == 4) { /* the rotation angle between them: 4 asin(|a - b| / 2), b on a's side (acos of a dot
                         product near 1 would turn float rounding into hundredths of a degree) */
        double d = (double)a[0] * b[0] + (double)a[1] * b[1] + (double)a[2] * b[2] + (double)a[3] * b[3], sg = d < 0 ? -1 : 1;
        double s = 0, h;
        uint32_t i;
        for (i = 0; i < 4; i++) s += ((double)a[i] - sg * b[i]) * ((double)a[i] - sg * b[i]);
        h = sqrt(s) / 2;
        return 4 * asin(h < 1 ? h : 1) * 57.29577951308232;
    } else {
        double s = 0;
        uint32_t i;
        for (i = 0; i < comps; i++) s += ((double)a[i] - b[i]) * ((double)a[i] - b[i]);
        return sqrt(s);
    }
}

/* Keeps the fewest keys of samples[0..n) whose segments stay within bound:
 * greedy, extending each segment while every tick it spans fits. */
uint32_t clip_import_reduce(const float *s, uint32_t n, uint32_t comps, double bound, uint16_t *ticks, float *kept) {
    uint32_t a = 0, b, m = 0, i;
    float interp[4];
    ticks[m] = 0;
    memcpy(kept, s, comps * sizeof *kept);
    m++;
    if (n == 1) return m;
    for (b = 2; b < n; b++) {
        int fits = b - a <= 256u; /* a key at least every 256 ticks keeps this linear in the ticks */
        for (i = a + 1; i < b && fits; i++) {
            float u = (float)(i - a) / (float)(b - a);
            uint32_t j;
            if (comps == 4) nlerp4(s + (size_t)a * 4, s + (size_t)b * 4, u, interp);
            else for (j = 0; j < comps; j++) interp[j] = s[(size_t)a * comps + j] + (s[(size_t)b * comps + j] - s[(size_t)a * comps + j]) * u;
            fits = clip_import_error(interp, s + (size_t)i * comps, comps) <= bound;
        }
        if (!fits) { /* b - 1 ends the segment */
            a = b - 1u;
            ticks[m] = (uint16_t)a;
            memcpy(kept + (size_t)m * comps, s + (size_t)a * comps, comps * sizeof *kept);
            m++;
        }
    }
    ticks[m] = (uint16_t)(n - 1u);
    memcpy(kept + (size_t)m * comps, s + (size_t)(n - 1u) * comps, comps * sizeof *kept);
    return m + 1u;
}

static int read_channel(const gltf_doc *doc, const json_value *sampler, uint32_t comps, uint32_t parts, channel *c,
                        const char *what, char *why, size_t cap) {
    uint32_t in = 0, out = 0, n_out = 0, i;
    const json_value *ip = json_get(sampler, "interpolation");
    memset(c, 0, sizeof *c);
    c->comps = comps;
    c->interp = !ip ? INTERP_LINEAR : ip->kind != JSON_STRING ? -1 : strcmp(ip->str, "LINEAR") == 0 ? INTERP_LINEAR
              : strcmp(ip->str, "STEP") == 0 ? INTERP_STEP : strcmp(ip->str, "CUBICSPLINE") == 0 ? INTERP_CUBIC : -1;
    if (c->interp < 0) {
        snprintf(why, cap, "%s: interpolation is not LINEAR, STEP or CUBICSPLINE", what);
        return 0;
    }
    if (!gltf_uint(sampler, "input", &in) || !gltf_uint(sampler, "output", &out)) {
        snprintf(why, cap, "%s: no input or output accessor", what);
        return 0;
    }
    if (!gltf_read_floats(doc, in, 1, &c->times, &c->n, why, cap)) return 0;
    if (!gltf_read_floats(doc, out, comps, &c->values, &n_out, why, cap)) return 0;
    c->stride = comps * parts * (c->interp == INTERP_CUBIC ? 3u : 1u);
    if (c->n == 0 || (uint64_t)n_out * comps != (uint64_t)c->n * c->stride) {
        snprintf(why, cap, "%s: %u outputs for %u key times (%u values a key)", what, (unsigned)n_out, (unsigned)c->n,
                 (unsigned)(c->stride / comps));
        return 0;
    }
    for (i = 0; i < c->n; i++)
        if (c->times[i] < 0 || (i && !(c->times[i] > c->times[i - 1]))) {
            snprintf(why, cap, "%s: key times must rise from 0 (key %u)", what, (unsigned)i);
            return 0;
        }
    return 1;
}

/* One clip track from a channel's part: sampled at ticks 0..ticks-1,
 * reduced, quantized.  0 on memory failure. */
static int add_track(clip_import *ci, const channel *c, uint32_t part, uint32_t hash, uint8_t target, double bound,
                     double fd, uint32_t ticks, const char *name) {
    uint32_t comps = c->comps, k, n;
    float *s = (float *)malloc(sizeof(float) * comps * ticks), *kept = (float *)malloc(sizeof(float) * comps * ticks);
    uint16_t *kt = (uint16_t *)malloc(sizeof(uint16_t) * ticks);
    uint32_t t = ci->clip.track_count;
    int ok = s && kept && kt;
    for (k = 0; ok && k < ticks; k++) {
        evaluate(c, (double)k * fd, part, comps == 4, s + (size_t)k * comps);
        if (comps == 4 && k) { /* one hemisphere, so segments take the short way */
            float *q = s + (size_t)k * 4, *p = q - 4;
            if (q[0] * p[0] + q[1] * p[1] + q[2] * p[2] + q[3] * p[3] < 0) { q[0] = -q[0]; q[1] = -q[1]; q[2] = -q[2]; q[3] = -q[3]; }
        }
    }
    if (ok && target == PLUMBOB_CLIP_TARGET_TRANSLATION) { /* no Sim bone moves 10 m from its parent */
        double far = 0;
        for (k = 0; k < ticks; k++) {
            const float *v = s + (size_t)k * 3;
            double d = sqrt((double)v[0] * v[0] + (double)v[1] * v[1] + (double)v[2] * v[2]);
            if (d > far) far = d;
        }
        if (far > 10.0) {
            if (!ci->far_translations++) snprintf(ci->far_name, sizeof ci->far_name, "%s", name);
            if (far > ci->far_max) ci->far_max = far;
        }
    }
    if (ok) {
        n = clip_import_reduce(s, ticks, comps, bound, kt, kept);
        ci->keys[t] = (unsigned char *)malloc((size_t)n * 12u);
        ok = ci->keys[t] != NULL;
        if (ok)
            ok = plumbob_clip_encode_track(&ci->clip.tracks[t], hash, comps == 4 ? 0x14 : comps == 3 ? 0x12 : 0x05, target,
                                           (uint16_t)n, kt, kept, ci->keys[t]) == PLUMBOB_OK;
        if (ok) { /* the error as the game will play it: the quantized keys, sampled at every tick */
            plumbob_clip one;
            float v[4];
            memset(&one, 0, sizeof one);
            one.frame_duration = (float)fd;
            one.tick_count = (uint16_t)ticks;
            one.track_count = 1;
            one.tracks = &ci->clip.tracks[t];
            ci->report[t].worst = 0;
            for (k = 0; k < ticks; k++) {
                double e;
                (void)plumbob_clip_sample_track(&one, 0, (float)((double)k * fd), v); /* track 0 of 1: never fails */
                e = clip_import_error(v, s + (size_t)k * comps, comps);
                if (e > ci->report[t].worst) ci->report[t].worst = e;
            }
            snprintf(ci->report[t].name, sizeof ci->report[t].name, "%s", name);
            ci->report[t].target = target;
            ci->report[t].samples = ticks;
            ci->report[t].kept = n;
            ci->clip.track_count++;
        }
    }
    free(s);
    free(kept);
    free(kt);
    return ok;
}

static void note_skipped(clip_import *ci, const char *what) {
    ci->skipped_channels++;
    tool_namelist_add(ci->skipped_names, sizeof ci->skipped_names, what, 3); /* each name once */
}

static int hex_member(const json_value *v, const char *key, uint32_t *out) {
    const json_value *h = json_get(v, key);
    unsigned x = 0;
    int n = 0;
    if (!h || h->kind != JSON_STRING || sscanf(h->str, "0x%8x%n", &x, &n) != 1 || h->str[n]) return 0;
    *out = (uint32_t)x;
    return 1;
}

static int hex_nibble(char ch) {
    return ch >= '0' && ch <= '9' ? ch - '0' : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 : ch >= 'A' && ch <= 'F' ? ch - 'A' + 10 : -1;
}

/* The events clip export keeps in extras.plumbob.events (the form clip
 * dump --json prints): each record's fields, and its payload bytes when
 * given as hex of the size its type has.  Returns 0 on memory failure. */
static int read_events(clip_import *ci, const json_value *list) {
    uint32_t i, n = 0;
    ci->events = (plumbob_clip_event *)calloc(list->count + 1u, sizeof *ci->events);
    ci->payloads = (unsigned char **)calloc(list->count + 1u, sizeof *ci->payloads);
    if (!ci->events || !ci->payloads) return 0;
    ci->event_slots = (uint32_t)list->count;
    for (i = 0; i < list->count; i++) {
        const json_value *e = &list->items[i], *t = json_get(e, "time"), *nm = json_get(e, "name"), *u = json_get(e, "unknown");
        const json_value *hex = json_get(e, "payload"), *snd = json_get(e, "sound"), *vis = json_get(e, "visibility");
        plumbob_clip_event *ev = &ci->events[n];
        uint32_t type = 0, v = 0, k;
        int32_t size;
        if (!gltf_uint(e, "type", &type) || type > 0xFFFFu || (size = plumbob_clip_event_payload_size((uint16_t)type)) < 0 ||
            !t || t->kind != JSON_NUMBER || !(t->number >= 0 && t->number < 1e6)) {
            ci->events_skipped++;
            continue;
        }
        ev->type = (uint16_t)type;
        ev->time = (float)t->number;
        ev->id = gltf_uint(e, "id", &v) ? v : n + 1u;
        ev->marker = (uint16_t)(gltf_uint(e, "marker", &v) && v <= 0xFFFFu ? v : 0xC1E4u);
        ev->unknown3 = gltf_uint(e, "unknown3", &v) ? v : 0u;
        for (k = 0; k < 2; k++)
            ev->unknown[k] = u && u->kind == JSON_ARRAY && u->count == 2 && u->items[k].kind == JSON_NUMBER ? (float)u->items[k].number : 0.0f;
        if (nm && nm->kind == JSON_STRING) { ev->name.ptr = nm->str; ev->name.len = nm->len; }
        if (hex && hex->kind == JSON_STRING && hex->len == 2u * (size_t)size && size > 0) {
            unsigned char *p = (unsigned char *)malloc((size_t)size);
            int bad = !p;
            for (k = 0; !bad && k < (uint32_t)size; k++) {
                int hi = hex_nibble(hex->str[2 * k]), lo = hex_nibble(hex->str[2 * k + 1]);
                bad = hi < 0 || lo < 0;
                if (!bad) p[k] = (unsigned char)(hi << 4 | lo);
            }
            if (bad) free(p);
            else { ci->payloads[n] = p; ev->payload = p; ev->payload_size = (uint32_t)size; }
        }
        if (!ev->payload) { /* from the fields, as the writer lays them out */
            switch (ev->type) {
            case PLUMBOB_CLIP_EVENT_ATTACH:
                (void)hex_member(e, "prop", &ev->hash[0]); (void)hex_member(e, "object", &ev->hash[1]);
                (void)hex_member(e, "slot", &ev->hash[2]);
                break;
            case PLUMBOB_CLIP_EVENT_UNPARENT: (void)hex_member(e, "object", &ev->hash[0]); break;
            case PLUMBOB_CLIP_EVENT_DESTROY_PROP: (void)hex_member(e, "prop", &ev->hash[0]); break;
            case PLUMBOB_CLIP_EVENT_STOP_EFFECT: (void)hex_member(e, "effect", &ev->hash[0]); break;
            case PLUMBOB_CLIP_EVENT_EFFECT:
                (void)hex_member(e, "effect", &ev->hash[2]); (void)hex_member(e, "actor", &ev->hash[3]);
                (void)hex_member(e, "bone", &ev->hash[4]);
                break;
            case PLUMBOB_CLIP_EVENT_SOUND:
                if (snd && snd->kind == JSON_STRING) { ev->sound.ptr = snd->str; ev->sound.len = snd->len; }
                break;
            case PLUMBOB_CLIP_EVENT_VISIBILITY:
                ev->visibility = vis && vis->kind == JSON_NUMBER ? (float)vis->number : 1.0f;
                break;
            default:
                break;
            }
        }
        n++;
    }
    ci->clip.events = ci->events;
    ci->clip.event_count = ci->clip.events_decoded = n;
    ci->clip.events_complete = true;
    return 1;
}

/* A JSON string of 2n hex digits into out[n]: 1, else 0. */
static int hex_bytes(const json_value *hex, unsigned char *out, size_t n) {
    size_t k;
    if (!hex || hex->kind != JSON_STRING || hex->len != 2u * n) return 0;
    for (k = 0; k < n; k++) {
        int hi = hex_nibble(hex->str[2 * k]), lo = hex_nibble(hex->str[2 * k + 1]);
        if (hi < 0 || lo < 0) return 0;
        out[k] = (unsigned char)(hi << 4 | lo);
    }
    return 1;
}

/* The IK slot table clip export keeps in extras.plumbob: slotTable (is
 * there one), slotChains, slots [{chain, index, actor, slot, actorRaw,
 * slotRaw}] in the clip's order.  Returns 0 on memory failure. */
static int read_slots(clip_import *ci, const json_value *ex) {
    const json_value *list = json_get(ex, "slots"), *tab = json_get(ex, "slotTable");
    uint32_t i, n = 0, chains = 0, v = 0, raws = 0;
    size_t most;
    if (!list || list->kind != JSON_ARRAY) return 1;
    ci->has_slots = 1;
    most = list->count < PLUMBOB_CLIP_MAX_SLOTS ? list->count : PLUMBOB_CLIP_MAX_SLOTS; /* the rest are skipped */
    for (i = 0; i < most; i++)
        raws += json_get(&list->items[i], "actorRaw") || json_get(&list->items[i], "slotRaw");
    ci->slots = (plumbob_clip_slot *)calloc(most + 1u, sizeof *ci->slots);
    ci->slot_raw = raws ? (unsigned char *)malloc(most * 2u * GLTF_CLIP_SLOT_FIELD) : NULL;
    if (!ci->slots || (raws && !ci->slot_raw)) return 0;
    for (i = 0; i < list->count; i++) {
        const json_value *e = &list->items[i], *a = json_get(e, "actor"), *sl = json_get(e, "slot");
        plumbob_clip_slot *out = &ci->slots[n];
        uint32_t chain = 0, index = 0;
        if (n >= PLUMBOB_CLIP_MAX_SLOTS || !gltf_uint(e, "chain", &chain) || chain >= PLUMBOB_CLIP_MAX_SLOTS ||
            !gltf_uint(e, "index", &index) || !a || a->kind != JSON_STRING || !sl || sl->kind != JSON_STRING) {
            ci->slots_skipped++;
            continue;
        }
        out->chain = chain;
        out->index = index;
        out->actor.ptr = a->str;
        out->actor.len = a->len;
        out->slot.ptr = sl->str;
        out->slot.len = sl->len;
        if (ci->slot_raw) {
            unsigned char *raw = ci->slot_raw + (size_t)n * 2u * GLTF_CLIP_SLOT_FIELD;
            if (hex_bytes(json_get(e, "actorRaw"), raw, GLTF_CLIP_SLOT_FIELD)) out->actor_raw = raw;
            if (hex_bytes(json_get(e, "slotRaw"), raw + GLTF_CLIP_SLOT_FIELD, GLTF_CLIP_SLOT_FIELD))
                out->slot_raw = raw + GLTF_CLIP_SLOT_FIELD;
        }
        if (chain + 1u > chains) chains = chain + 1u;
        n++;
    }
    if (gltf_uint(ex, "slotChains", &v) && v <= PLUMBOB_CLIP_MAX_SLOTS && v > chains) chains = v;
    ci->clip.slots = ci->slots;
    ci->clip.slot_count = n;
    ci->clip.chain_count = chains;
    /* an (empty) table is written when the clip had one: slot_pos marks it */
    ci->clip.slot_pos = n || chains || (tab && tab->kind == JSON_BOOL && tab->number != 0) ? 1u : 0u;
    return 1;
}

static uint32_t member_uint(const json_value *v, const char *key, uint32_t dflt, uint32_t max) {
    uint32_t x = 0;
    return gltf_uint(v, key, &x) && x <= max ? x : dflt;
}

/* The suffix Blender gives a duplicate name: ".001" to ".999" (more
 * digits after); the length of the name without it, else 0. */
static size_t duplicate_suffix(const char *name) {
    size_t n = strlen(name), d = 0;
    while (d < n && name[n - 1u - d] >= '0' && name[n - 1u - d] <= '9') d++;
    return d >= 3 && d + 1u < n && name[n - 1u - d] == '.' ? n - 1u - d : 0u;
}

/* The hash a node name stands for: 0xHASH as written by plumbob for bones
 * it has no name of, else FNV-32 of the name; a Blender duplicate suffix
 * (b__Head__.001) is taken off, and noted the first time for a node. */
static uint32_t node_hash(clip_import *ci, const char *name, int first_time) {
    unsigned x = 0;
    int n = 0;
    char base[200];
    size_t cut = duplicate_suffix(name);
    if (cut && cut < sizeof base) {
        size_t used = strlen(ci->renamed_names);
        memcpy(base, name, cut);
        base[cut] = 0;
        if (first_time && ci->renamed++ < 2 && used + 8 < sizeof ci->renamed_names)
            snprintf(ci->renamed_names + used, sizeof ci->renamed_names - used, "%s%.60s -> %.60s", used ? ", " : "", name, base);
        name = base;
    }
    if (strlen(name) == 10 && sscanf(name, "0x%8x%n", &x, &n) == 1 && n == 10) return (uint32_t)x;
    return plumbob_fnv32_str(name);
}

/* Key times off the clip's grid of fps, counted; and which common frame
 * rate they all sit on instead (grid_fps; -1 once no rate fits them all). */
static void check_grid(clip_import *ci, const float *times, uint32_t n, double fps) {
    static const double rates[] = {24, 25, 30, 48, 50, 60, 120, 12, 15};
    uint32_t k, r, off = 0;
    for (k = 0; k < n; k++) {
        double f = times[k] * fps;
        off += fabs(f - floor(f + 0.5)) > 0.01;
    }
    ci->keys_checked += n;
    ci->off_grid_keys += off;
    if (!off || ci->grid_fps < 0) return;
    for (r = 0; r < sizeof rates / sizeof *rates; r++) {
        if (ci->grid_fps > 0 && rates[r] != ci->grid_fps) continue; /* the rate earlier channels sit on, or none */
        for (k = 0; k < n; k++) {
            double g = times[k] * rates[r];
            if (fabs(g - floor(g + 0.5)) > 0.01) break;
        }
        if (k == n) break;
    }
    ci->grid_fps = r < sizeof rates / sizeof *rates ? rates[r] : -1;
}

/* A scale or rotation the clip cannot hold: on a root node above the
 * animated ones that no channel animates (an armature object's transform),
 * or in the skin's inverse binds (an armature scale applied to the mesh). */
static void check_transforms(const gltf_doc *doc, const json_value *chans, clip_import *ci) {
    const json_value *nodes = json_get(&doc->root, "nodes");
    uint32_t *parent, i, ni;
    unsigned char *animated;
    ci->scaled_binds = gltf_skin_scaled_binds(doc, gltf_first_skin(doc) ? gltf_first_skin(doc)
                                                                        : gltf_at(&doc->root, "skins", 0));
    if (!nodes || nodes->kind != JSON_ARRAY || !nodes->count) return;
    parent = gltf_node_parents(nodes);
    animated = (unsigned char *)calloc(nodes->count, 1);
    for (i = 0; parent && animated && i < chans->count; i++)
        if (gltf_uint(json_get(&chans->items[i], "target"), "node", &ni) && ni < nodes->count) animated[ni] = 1;
    for (i = 0; parent && animated && i < nodes->count && !ci->root_name[0]; i++) {
        uint32_t n = i, depth = 0;
        if (!animated[i]) continue;
        while (parent[n] != UINT32_MAX && depth++ < nodes->count) n = parent[n];
        if (!animated[n]) {
            plumbob_mat34 m = gltf_node_local(&nodes->items[n]);
            float cm[16];
            double off, far = 0, angle;
            uint32_t r, c;
            plumbob_quat q;
            const json_value *nm = json_get(&nodes->items[n], "name");
            for (r = 0; r < 4; r++)
                for (c = 0; c < 4; c++) cm[4 * c + r] = r < 3 ? m.m[r][c] : (float)(c == 3);
            q = gltf_matrix_quat_scaled(cm, &off);
            angle = 2 * acos(fmin(1.0, fabs((double)q.w))) * 57.29577951308232;
            for (c = 0; c < 3; c++) {
                double len = sqrt((double)m.m[0][c] * m.m[0][c] + (double)m.m[1][c] * m.m[1][c] + (double)m.m[2][c] * m.m[2][c]);
                if (fabs(len - 1) > fabs(far - 1) || c == 0) far = len;
            }
            if (angle > 0.01 || fabs(far - 1) > 1e-4 || off < 0) {
                snprintf(ci->root_name, sizeof ci->root_name, "%s", nm && nm->kind == JSON_STRING ? nm->str : "(no name)");
                ci->root_angle = angle;
                ci->root_scale = far;
            }
        }
    }
    free(parent);
    free(animated);
}

int gltf_import_clip(const gltf_doc *doc, const clip_import_opts *o, clip_import *ci, char *why, size_t cap) {
    const json_value *anims = json_get(&doc->root, "animations"), *anim = NULL, *chans, *samplers, *ex, *mt;
    uint32_t ai = 0, i, max_tracks = 0, ticks;
    channel *chs = NULL;
    unsigned char *noted = NULL; /* nodes whose duplicate suffix was noted */
    double end = 0, fd = 1.0 / o->fps;
    int ok = 0, own_pose = 0;
    char what[80];
    memset(ci, 0, sizeof *ci);
    if (!anims || anims->kind != JSON_ARRAY || anims->count == 0) {
        snprintf(why, cap, "the glTF has no animation");
        return 0;
    }
    if (o->animation) { /* by name, else by index */
        char *e;
        unsigned long idx = strtoul(o->animation, &e, 10);
        for (i = 0; i < anims->count && !anim; i++) {
            const json_value *nm = json_get(&anims->items[i], "name");
            if (nm && nm->kind == JSON_STRING && strcmp(nm->str, o->animation) == 0) anim = &anims->items[i], ai = i;
        }
        if (!anim && *o->animation && !*e && idx < anims->count) anim = &anims->items[idx], ai = (uint32_t)idx;
        if (!anim) {
            snprintf(why, cap, "no animation named or numbered '%s' (it has %u)", o->animation, (unsigned)anims->count);
            return 0;
        }
    } else {
        anim = &anims->items[0];
    }
    chans = json_get(anim, "channels");
    samplers = json_get(anim, "samplers");
    if (!chans || chans->kind != JSON_ARRAY || !samplers || samplers->kind != JSON_ARRAY) {
        snprintf(why, cap, "animations[%u]: no channels or samplers", (unsigned)ai);
        return 0;
    }
    chs = (channel *)calloc(chans->count + 1u, sizeof *chs);
    if (!chs) goto oom;
    /* read every channel first: the clip's length is the last key time of all */
    for (i = 0; i < chans->count; i++) {
        const json_value *ch = &chans->items[i], *tg = json_get(ch, "target"), *path = tg ? json_get(tg, "path") : NULL;
        const json_value *node, *mesh, *names;
        uint32_t s = 0, ni = 0, mi = 0, comps, parts = 1;
        snprintf(what, sizeof what, "animations[%u].channels[%u]", (unsigned)ai, (unsigned)i);
        if (!tg || !path || path->kind != JSON_STRING || !gltf_uint(ch, "sampler", &s) || s >= samplers->count ||
            !gltf_uint(tg, "node", &ni) || !(node = gltf_at(&doc->root, "nodes", ni))) {
            snprintf(why, cap, "%s: no sampler, target node or path", what);
            goto fail;
        }
        if (strcmp(path->str, "rotation") == 0) comps = 4;
        else if (strcmp(path->str, "translation") == 0) comps = 3;
        else if (strcmp(path->str, "weights") == 0) {
            comps = 1;
            mesh = gltf_uint(node, "mesh", &mi) ? gltf_at(&doc->root, "meshes", mi) : NULL;
            names = mesh ? json_get(json_get(mesh, "extras"), "targetNames") : NULL;
            if (!names || names->kind != JSON_ARRAY || names->count == 0) {
                note_skipped(ci, "weights without mesh.extras.targetNames");
                continue;
            }
            parts = (uint32_t)names->count;
        } else {
            note_skipped(ci, path->str); /* scale: Sims 3 clips animate rotation and translation */
            continue;
        }
        if (!read_channel(doc, &samplers->items[s], comps, parts, &chs[i], what, why, cap)) goto fail;
        check_grid(ci, chs[i].times, chs[i].n, o->fps);
        if (chs[i].times[chs[i].n - 1] > end) end = chs[i].times[chs[i].n - 1];
        max_tracks += parts;
    }
    /* morph tracks plumbob's export keeps in extras (no mesh plays them) */
    ex = json_get(json_get(anim, "extras"), "plumbob");
    mt = ex ? json_get(ex, "morphTracks") : NULL;
    if (mt && mt->kind == JSON_ARRAY) {
        max_tracks += (uint32_t)mt->count;
        for (i = 0; i < mt->count; i++) {
            const json_value *tm = json_get(&mt->items[i], "times");
            if (tm && tm->kind == JSON_ARRAY && tm->count && tm->items[tm->count - 1].kind == JSON_NUMBER &&
                tm->items[tm->count - 1].number > end)
                end = tm->items[tm->count - 1].number;
        }
    }
    if (ex && json_get(ex, "events") && json_get(ex, "events")->kind == JSON_ARRAY) {
        ci->has_events = 1;
        if (!read_events(ci, json_get(ex, "events"))) goto oom;
    }
    if (ex && !read_slots(ci, ex)) goto oom;
    if (end * o->fps > 65534.0) {
        snprintf(why, cap, "animations[%u] lasts %.1f s: more than a clip's 65534 ticks at %g fps", (unsigned)ai, end, o->fps);
        goto fail;
    }
    /* the clip lasts to the last key: ticks 0 .. round(end * fps) - 1, and one
     * more when some channel's last key is a pose of its own rather than a
     * hold of the one before (plumbob's export holds every channel to the end) */
    ticks = (uint32_t)(end * o->fps + 0.5);
    for (i = 0; i < chans->count && ticks; i++) {
        const channel *c = &chs[i];
        float a[4], b[4];
        uint32_t p, parts = c->stride ? c->stride / c->comps / (c->interp == INTERP_CUBIC ? 3u : 1u) : 0;
        if (!c->n || c->times[c->n - 1] < end - 0.25 * fd) continue;
        for (p = 0; p < parts && !own_pose; p++) {
            evaluate(c, end, p, c->comps == 4, a);
            evaluate(c, (double)(ticks - 1u) * fd, p, c->comps == 4, b);
            own_pose = clip_import_error(a, b, c->comps) > (c->comps == 4 ? o->max_rotation_deg : c->comps == 3 ? o->max_translation : o->max_morph);
        }
    }
    if (own_pose || ticks == 0) ticks++;
    if ((uint64_t)ticks * max_tracks > (o->max_samples ? o->max_samples : 400000000u)) {
        snprintf(why, cap, "animations[%u]: %u tracks over %u ticks is more than plumbob imports at once", (unsigned)ai,
                 (unsigned)max_tracks, (unsigned)ticks);
        goto fail;
    }
    ci->last_tick_kept = own_pose;
    ci->clip.tracks = (plumbob_clip_track *)calloc(max_tracks + 1u, sizeof *ci->clip.tracks);
    ci->report = (clip_import_track *)calloc(max_tracks + 1u, sizeof *ci->report);
    ci->keys = (unsigned char **)calloc(max_tracks + 1u, sizeof *ci->keys);
    if (!ci->clip.tracks || !ci->report || !ci->keys) goto oom;
    ci->key_slots = max_tracks + 1u;
    {
        const json_value *nodes = json_get(&doc->root, "nodes");
        noted = (unsigned char *)calloc(nodes && nodes->kind == JSON_ARRAY ? nodes->count + 1u : 1u, 1);
        if (!noted) goto oom;
    }
    for (i = 0; i < chans->count; i++) {
        const json_value *tg = json_get(&chans->items[i], "target"), *node, *nm;
        uint32_t ni = 0, mi = 0, p;
        if (!chs[i].n) continue;
        (void)gltf_uint(tg, "node", &ni);
        node = gltf_at(&doc->root, "nodes", ni);
        nm = json_get(node, "name");
        if (chs[i].comps == 1) { /* each morph target a track, hashed as the game names morphs */
            const json_value *names = json_get(json_get(gltf_at(&doc->root, "meshes", gltf_uint(node, "mesh", &mi) ? mi : 0), "extras"), "targetNames");
            for (p = 0; p < names->count; p++) {
                const char *tn = names->items[p].kind == JSON_STRING ? names->items[p].str : NULL;
                if (!tn) { note_skipped(ci, "a morph target without a name"); continue; }
                if (!add_track(ci, &chs[i], p, (uint32_t)plumbob_fnv64_str(tn), PLUMBOB_CLIP_TARGET_MORPH, o->max_morph, fd, ticks, tn))
                    goto oom;
            }
            continue;
        }
        if (!nm || nm->kind != JSON_STRING || !nm->str[0]) {
            char un[40];
            snprintf(un, sizeof un, "nodes[%u] (no name)", (unsigned)ni);
            note_skipped(ci, un);
            continue;
        }
        {
            uint32_t h, k;
            h = node_hash(ci, nm->str, noted && !noted[ni]); /* a node's rotation and translation: one note */
            if (noted) noted[ni] = 1;
            uint8_t target = chs[i].comps == 4 ? PLUMBOB_CLIP_TARGET_ROTATION : PLUMBOB_CLIP_TARGET_TRANSLATION;
            for (k = 0; k < ci->clip.track_count; k++)
                if (ci->clip.tracks[k].hash == h && ci->clip.tracks[k].target == target) break;
            if (k < ci->clip.track_count) { /* b__Head__ and b__Head__.001 both animated: the first drives it */
                char un[120];
                snprintf(un, sizeof un, "%s (%s of that bone twice)", nm->str, chs[i].comps == 4 ? "rotation" : "translation");
                note_skipped(ci, un);
                ci->duplicate_tracks++;
                continue;
            }
            if (!add_track(ci, &chs[i], 0, h, target, chs[i].comps == 4 ? o->max_rotation_deg : o->max_translation, fd,
                           ticks, nm->str))
                goto oom;
        }
    }
    for (i = 0; mt && mt->kind == JSON_ARRAY && i < mt->count; i++) {
        const json_value *m = &mt->items[i], *h = json_get(m, "hash"), *nm = json_get(m, "name");
        const json_value *tm = json_get(m, "times"), *vs = json_get(m, "values");
        channel c;
        uint32_t k;
        unsigned hx = 0;
        char label[96];
        if (!h || h->kind != JSON_STRING || sscanf(h->str, "0x%8x", &hx) != 1 || !tm || !vs || tm->kind != JSON_ARRAY ||
            vs->kind != JSON_ARRAY || tm->count == 0 || tm->count != vs->count) {
            snprintf(why, cap, "animations[%u].extras.plumbob.morphTracks[%u]: needs hash, times and values of one length",
                     (unsigned)ai, (unsigned)i);
            goto fail;
        }
        memset(&c, 0, sizeof c);
        c.n = (uint32_t)tm->count;
        c.comps = c.stride = 1;
        c.times = (float *)malloc(sizeof(float) * c.n);
        c.values = (float *)malloc(sizeof(float) * c.n);
        if (!c.times || !c.values) { channel_free(&c); goto oom; }
        for (k = 0; k < c.n; k++) {
            c.times[k] = tm->items[k].kind == JSON_NUMBER ? (float)tm->items[k].number : -1.0f;
            c.values[k] = vs->items[k].kind == JSON_NUMBER ? (float)vs->items[k].number : 0.0f;
            if (c.times[k] < 0 || (k && !(c.times[k] > c.times[k - 1]))) {
                snprintf(why, cap, "animations[%u].extras.plumbob.morphTracks[%u]: times must rise from 0", (unsigned)ai, (unsigned)i);
                channel_free(&c);
                goto fail;
            }
        }
        snprintf(label, sizeof label, "%s", nm && nm->kind == JSON_STRING ? nm->str : h->str);
        k = add_track(ci, &c, 0, (uint32_t)hx, PLUMBOB_CLIP_TARGET_MORPH, o->max_morph, fd, ticks, label);
        channel_free(&c);
        if (!k) goto oom;
    }
    {
        const json_value *an = json_get(anim, "name"), *h = ex ? json_get(ex, "clip") : NULL;
        const json_value *hn = json_get(h, "name"), *hs = json_get(h, "source"), *ha = json_get(h, "actor");
        const json_value *hu = json_get(h, "headerUnknown"), *el = json_get(h, "eventList");
        snprintf(ci->name, sizeof ci->name, "%s", o->name ? o->name : an && an->kind == JSON_STRING && an->str[0] ? an->str
                                                   : hn && hn->kind == JSON_STRING && hn->str[0] ? hn->str : "imported_x");
        snprintf(ci->source, sizeof ci->source, "%s", o->source ? o->source : "");
        ci->clip.source.ptr = ci->source;
        ci->clip.source.len = strlen(ci->source);
        ci->clip.actor.ptr = "x";
        ci->clip.actor.len = 1;
        ci->clip.event_version = 0x103;
        ci->clip.event_pos = 1; /* an (empty) event list is written, as the game's clips have one */
        if (h && h->kind == JSON_OBJECT) { /* the rest of the clip plumbob's export keeps */
            ci->has_header = 1;
            if (hs && hs->kind == JSON_STRING) { ci->clip.source.ptr = hs->str; ci->clip.source.len = hs->len; }
            if (ha && ha->kind == JSON_STRING) { ci->clip.actor.ptr = ha->str; ci->clip.actor.len = ha->len; }
            else if (ha && ha->kind == JSON_NULL) { ci->clip.actor.ptr = NULL; ci->clip.actor.len = 0; }
            ci->clip.flags = member_uint(h, "flags", 0, UINT32_MAX);
            ci->clip.linked_offset = member_uint(h, "linkedOffset", 0, UINT32_MAX);
            for (i = 0; i < 2; i++)
                ci->clip.header_unknown[i] = hu && hu->kind == JSON_ARRAY && hu->count == 2 && hu->items[i].kind == JSON_NUMBER &&
                                             hu->items[i].number >= 0 && hu->items[i].number <= 4294967295.0
                                                 ? (uint32_t)hu->items[i].number : 0u;
            ci->clip.tick_pad = (uint16_t)member_uint(h, "tickPad", 0, 0xFFFFu);
            ci->clip.event_version = member_uint(h, "eventVersion", 0x103, UINT32_MAX);
            if (el && el->kind == JSON_BOOL && el->number == 0 && ci->clip.events_decoded == 0) ci->clip.event_pos = 0;
            if (hex_bytes(json_get(h, "endBlock"), ci->end_block, 16)) ci->clip.end_block = ci->end_block;
        }
    }
    ci->clip.version = 2;
    ci->clip.frame_duration = (float)fd;
    ci->clip.tick_count = (uint16_t)ticks;
    ci->clip.name.ptr = ci->name;
    ci->clip.name.len = strlen(ci->name);
    check_transforms(doc, chans, ci);
    ok = 1;
    goto done;
oom:
    snprintf(why, cap, "out of memory");
fail:
    clip_import_free(ci);
done:
    for (i = 0; chs && i < chans->count; i++) channel_free(&chs[i]);
    free(chs);
    free(noted);
    return ok;
}

void clip_import_free(clip_import *ci) {
    uint32_t i;
    free(ci->slots);
    free(ci->slot_raw);
    for (i = 0; ci->payloads && i < ci->event_slots; i++) free(ci->payloads[i]);
    free(ci->payloads);
    free(ci->events);
    for (i = 0; ci->keys && i < ci->key_slots; i++) free(ci->keys[i]);
    free(ci->keys);
    free(ci->report);
    free(ci->clip.tracks);
    memset(ci, 0, sizeof *ci);
}
