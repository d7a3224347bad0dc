/* plumbob clip diff A B: how two clips differ, track by track (sampled at
 * every tick of either), and in their events, IK slots, duration and other
 * fields.  Exit 0 identical, 1 different, 2 trouble, as diff(1). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "plumbob.h"
#include "util/files.h"
#include "commands.h"
#include "tool_args.h"
#include "tool_decode.h"
#include "tool_input.h"
#include "tool_kind.h"
#include "tool_output.h"
#include "gltf/gltf_export.h"
#include "gltf/gltf_import.h"
#include "util/names.h"

static int same_str(plumbob_string a, plumbob_string b) {
    return a.len == b.len && (a.len == 0 || memcmp(a.ptr, b.ptr, a.len) == 0) && !a.ptr == !b.ptr;
}

/* Track k of a and its match in b: the largest difference of their values
 * at every tick of either clip (degrees between rotations, distance between
 * translations, the largest component difference else), and when. */
static double track_diff(const plumbob_clip *a, uint32_t ka, const plumbob_clip *b, uint32_t kb, double *at) {
    const plumbob_clip_track *ta = &a->tracks[ka], *tb = &b->tracks[kb];
    double worst = 0;
    uint32_t pass, k;
    *at = 0;
    if (ta->type == tb->type && ta->key_count == tb->key_count && ta->offset == tb->offset && ta->scale == tb->scale &&
        ta->key_size == tb->key_size && (ta->key_count == 0 || memcmp(ta->keys, tb->keys, (size_t)ta->key_count * ta->key_size) == 0) &&
        a->frame_duration == b->frame_duration)
        return 0; /* the same key bytes */
    for (pass = 0; pass < 2; pass++) {
        const plumbob_clip *g = pass ? b : a;
        uint32_t ticks = g->tick_count ? g->tick_count : 1u;
        for (k = 0; k < ticks; k++) {
            float t = (float)k * g->frame_duration, va[4] = {0, 0, 0, 0}, vb[4] = {0, 0, 0, 0};
            double d = 0;
            uint32_t c;
            (void)plumbob_clip_sample_track(a, ka, t, va); /* indices in range: never fails */
            (void)plumbob_clip_sample_track(b, kb, t, vb);
            if (ta->target == PLUMBOB_CLIP_TARGET_ROTATION || ta->target == PLUMBOB_CLIP_TARGET_TRANSLATION) {
                d = clip_import_error(va, vb, ta->target == PLUMBOB_CLIP_TARGET_ROTATION ? 4u : 3u);
            } else {
                for (c = 0; c < 4; c++)
                    if (fabs((double)va[c] - vb[c]) > d) d = fabs((double)va[c] - vb[c]);
            }
            if (d > worst) {
                worst = d;
                *at = t;
            }
        }
    }
    return worst;
}

static int same_event(const plumbob_clip_event *x, const plumbob_clip_event *y) {
    return x->type == y->type && x->marker == y->marker && x->id == y->id && x->time == y->time &&
           x->unknown[0] == y->unknown[0] && x->unknown[1] == y->unknown[1] && x->unknown3 == y->unknown3 &&
           same_str(x->name, y->name) && x->payload_size == y->payload_size &&
           (x->payload_size == 0 || memcmp(x->payload, y->payload, x->payload_size) == 0);
}

/* Slot name fields compare as the writer lays them out (the raw 512 bytes
 * when kept, else the name): so a slot read back from extras equals the
 * original's exactly when its bytes would. */
static int same_slot(const plumbob_clip_slot *x, const plumbob_clip_slot *y) {
    if (x->chain != y->chain || x->index != y->index || !same_str(x->actor, y->actor) || !same_str(x->slot, y->slot))
        return 0;
    if (x->actor_raw && y->actor_raw && memcmp(x->actor_raw, y->actor_raw, 512) != 0) return 0;
    if (x->slot_raw && y->slot_raw && memcmp(x->slot_raw, y->slot_raw, 512) != 0) return 0;
    return 1;
}

/* Where a decoded clip's sections after the S3Clip start (0: unknown). */
static size_t rest_start(const plumbob_clip *c) {
    size_t at[4], best = 0;
    int k;
    at[0] = c->slot_pos; at[1] = c->actor_pos; at[2] = c->event_pos; at[3] = c->end_pos;
    for (k = 0; k < 4; k++)
        if (at[k] && at[k] <= c->size && (!best || at[k] < best)) best = at[k];
    return c->data ? best : 0;
}

/* The bytes the clip writes after its tracks: the IK slot table, actor,
 * event list and end block, with the outer header's fields; compared by
 * writing both without tracks, name or source. */
static int same_rest(const plumbob_clip *a, const plumbob_clip *b) {
    plumbob_clip x = *a, y = *b;
    unsigned char *bx, *by;
    size_t nx, ny, gx = 0, gy = 0;
    int same;
    x.track_count = y.track_count = 0;
    x.palette_count = y.palette_count = 0;
    x.name.len = y.name.len = x.source.len = y.source.len = 0;
    y.version = x.version;
    y.flags = x.flags;
    y.frame_duration = x.frame_duration;
    y.tick_count = x.tick_count;
    y.tick_pad = x.tick_pad;
    if (!x.events_complete || !y.events_complete) { /* events the writer cannot lay out: the bytes as they are */
        size_t sa = rest_start(a), sb = rest_start(b);
        return sa && sb && a->size - sa == b->size - sb && memcmp(a->data + sa, b->data + sb, a->size - sa) == 0 &&
               a->linked_offset == b->linked_offset && a->header_unknown[0] == b->header_unknown[0] &&
               a->header_unknown[1] == b->header_unknown[1];
    }
    nx = plumbob_clip_write_size(&x);
    ny = plumbob_clip_write_size(&y);
    if (nx == SIZE_MAX || ny == SIZE_MAX || nx != ny) return 0;
    bx = (unsigned char *)malloc(nx);
    by = (unsigned char *)malloc(ny);
    same = bx && by && plumbob_clip_write(&x, bx, nx, &gx) == PLUMBOB_OK && plumbob_clip_write(&y, by, ny, &gy) == PLUMBOB_OK &&
           gx == gy && memcmp(bx, by, gx) == 0;
    free(bx);
    free(by);
    return same;
}

static int usage(FILE *f, int rc) {
    fprintf(f, "usage: plumbob clip diff A B [--json]\n"
               "  A and B: each a CLIP resource or PACKAGE@KEY.  Per track (matched by bone\n"
               "  hash and target): the largest difference of the two at every tick of either\n"
               "  clip (degrees for rotations, metres for translations, absolute for scale and\n"
               "  morph), and tracks in only one; then duration, events, IK slots, the clip's\n"
               "  other fields.  Exit 0 when identical, 1 when they differ, 2 on trouble.\n"
               "  example: plumbob clip diff EWBreastfeed.package@a2o_bassinet_feed_stop_x edited.clip\n");
    return rc;
}

int clip_diff(int argc, char **argv) {
    const char *path[2] = {NULL, NULL};
    tool_input in[2];
    tool_clip tc[2];
    tool_dict names;
    int json = 0, i, loaded = 0, differ = 0, rest_same, events_same, slots_same;
    uint32_t k, j, same_tracks = 0, diff_tracks = 0, only[2] = {0, 0}, first_event = UINT32_MAX, first_slot = UINT32_MAX;
    unsigned char *used;
    const plumbob_clip *a, *b;
    double dur[2], worst_of[3] = {0, 0, 0}; /* degrees, metres, absolute */
    for (i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0) json = 1;
        else if (strcmp(argv[i], "--help") == 0) return usage(stdout, 0);
        else if (argv[i][0] != '-' && !path[0]) path[0] = argv[i];
        else if (argv[i][0] != '-' && !path[1]) path[1] = argv[i];
        else return tool_bad_argument(argc, argv, i);
    }
    if (!path[1]) {
        tool_error(NULL, "which two clips? (plumbob clip diff A B)");
        return usage(stderr, 2);
    }
    memset(in, 0, sizeof in);
    for (loaded = 0; loaded < 2; loaded++) {
        plumbob_result r;
        if (!tool_load_kind(path[loaded], PLUMBOB_TYPE_CLIP, NULL, &in[loaded])) break;
        r = tool_clip_decode(&in[loaded], &tc[loaded]);
        if (r != PLUMBOB_OK) {
            tool_error(in[loaded].name, "not a valid CLIP: %s", tool_why(&in[loaded], r));
            tool_free(&in[loaded]);
            break;
        }
    }
    if (loaded < 2) {
        if (loaded == 1) { tool_clip_free(&tc[0]); tool_free(&in[0]); }
        return 2;
    }
    a = &tc[0].clip;
    b = &tc[1].clip;
    tool_dict_init(&names);
    for (i = 0; i < 2; i++)
        if (in[i].package_data) tool_dict_add_package(&names, in[i].package_data, in[i].package_size);
    used = (unsigned char *)calloc((size_t)b->track_count + 1u, 1);
    if (!used) {
        tool_error(NULL, "out of memory");
        tool_dict_free(&names);
        for (i = 0; i < 2; i++) { tool_clip_free(&tc[i]); tool_free(&in[i]); }
        return 2;
    }
    dur[0] = (double)plumbob_clip_duration(a);
    dur[1] = (double)plumbob_clip_duration(b);
    if (json) {
        printf("{\"a\": ");
        json_string(stdout, in[0].name, strlen(in[0].name));
        printf(", \"b\": ");
        json_string(stdout, in[1].name, strlen(in[1].name));
        printf(",\n \"tracks\": [");
    } else {
        printf("--- %s\n+++ %s\n", in[0].name, in[1].name);
    }
    /* tracks of a, each with its match in b; then those only in b */
    for (k = 0; k < a->track_count + b->track_count; k++) {
        const plumbob_clip *c = k < a->track_count ? a : b;
        uint32_t idx = k < a->track_count ? k : k - a->track_count, m = UINT32_MAX;
        const plumbob_clip_track *t = &c->tracks[idx];
        const char *nm = tool_dict_track(&names, t->hash, t->target == PLUMBOB_CLIP_TARGET_MORPH);
        const char *unit = t->target == PLUMBOB_CLIP_TARGET_ROTATION ? "deg" : t->target == PLUMBOB_CLIP_TARGET_TRANSLATION ? "m" : "";
        double worst = 0, at = 0;
        if (c == a) {
            for (j = 0; j < b->track_count && m == UINT32_MAX; j++)
                if (!used[j] && b->tracks[j].hash == t->hash && b->tracks[j].target == t->target) m = j;
            if (m != UINT32_MAX) {
                used[m] = 1;
                worst = track_diff(a, idx, b, m, &at);
            } else {
                only[0]++;
            }
        } else {
            if (used[idx]) continue;
            only[1]++;
        }
        if (m != UINT32_MAX) {
            int kind = t->target == PLUMBOB_CLIP_TARGET_ROTATION ? 0 : t->target == PLUMBOB_CLIP_TARGET_TRANSLATION ? 1 : 2;
            if (worst > 0) diff_tracks++; else same_tracks++;
            if (worst > worst_of[kind]) worst_of[kind] = worst;
        }
        if (json) {
            printf("%s\n  {\"hash\": \"0x%08X\", ", k ? "," : "", (unsigned)t->hash);
            if (nm) {
                printf("\"name\": ");
                json_string(stdout, nm, strlen(nm));
                printf(", ");
            }
            printf("\"target\": \"%s\", \"in\": \"%s\"", tool_clip_target_name(t->target), m != UINT32_MAX ? "both" : c == a ? "a" : "b");
            if (m != UINT32_MAX) {
                printf(", \"same\": %s, \"max\": %.6g, \"unit\": \"%s\", \"at\": ", worst > 0 ? "false" : "true", worst,
                       t->target == PLUMBOB_CLIP_TARGET_ROTATION ? "deg" : t->target == PLUMBOB_CLIP_TARGET_TRANSLATION ? "m" : "abs");
                json_float(stdout, (float)at);
            }
            printf("}");
        } else if (m == UINT32_MAX) {
            printf("only in %s: track 0x%08X %s %s\n", c == a ? "A" : "B", (unsigned)t->hash, nm ? nm : "-", tool_clip_target_name(t->target));
        } else if (worst > 0) {
            printf("track 0x%08X %-28s %-11s differs: max %.4g%s%s at %.3f s\n", (unsigned)t->hash, nm ? nm : "-",
                   tool_clip_target_name(t->target), worst, unit[0] ? " " : "", unit, at);
        }
    }
    /* events, compared record by record */
    events_same = a->events_decoded == b->events_decoded && a->events_complete == b->events_complete &&
                  a->event_count == b->event_count;
    for (k = 0; k < a->events_decoded && k < b->events_decoded; k++)
        if (!same_event(&a->events[k], &b->events[k])) {
            first_event = k;
            events_same = 0;
            break;
        }
    slots_same = a->slot_count == b->slot_count && a->chain_count == b->chain_count && !a->slot_pos == !b->slot_pos;
    for (k = 0; k < a->slot_count && k < b->slot_count; k++)
        if (!same_slot(&a->slots[k], &b->slots[k])) {
            first_slot = k;
            slots_same = 0;
            break;
        }
    rest_same = same_rest(a, b);
    {
        int name_same = same_str(a->name, b->name), source_same = same_str(a->source, b->source);
        int actor_same = same_str(a->actor, b->actor), dur_same = a->tick_count == b->tick_count && a->frame_duration == b->frame_duration;
        int fields_same = a->flags == b->flags && a->tick_pad == b->tick_pad && a->version == b->version;
        differ = diff_tracks || only[0] || only[1] || !events_same || !slots_same || !rest_same || !name_same || !source_same ||
                 !actor_same || !dur_same || !fields_same;
        if (json) {
            printf("],\n \"tracks_same\": %u, \"tracks_differ\": %u, \"only_a\": %u, \"only_b\": %u, \"worst\": "
                   "{\"deg\": %.6g, \"m\": %.6g, \"abs\": %.6g},\n", (unsigned)same_tracks, (unsigned)diff_tracks,
                   (unsigned)only[0], (unsigned)only[1], worst_of[0], worst_of[1], worst_of[2]);
            printf(" \"duration\": [");
            json_float(stdout, (float)dur[0]);
            printf(", ");
            json_float(stdout, (float)dur[1]);
            printf("], \"ticks\": [%u, %u], \"duration_same\": %s,\n", (unsigned)a->tick_count, (unsigned)b->tick_count,
                   dur_same ? "true" : "false");
            printf(" \"name_same\": %s, \"source_same\": %s, \"actor_same\": %s, \"flags_same\": %s,\n",
                   name_same ? "true" : "false", source_same ? "true" : "false", actor_same ? "true" : "false",
                   fields_same ? "true" : "false");
            printf(" \"events\": [%u, %u], \"events_same\": %s, \"first_event_difference\": ", (unsigned)a->events_decoded,
                   (unsigned)b->events_decoded, events_same ? "true" : "false");
            if (first_event != UINT32_MAX) printf("%u", (unsigned)first_event); else printf("null");
            printf(",\n \"slots\": [%u, %u], \"chains\": [%u, %u], \"slots_same\": %s, \"first_slot_difference\": ",
                   (unsigned)a->slot_count, (unsigned)b->slot_count, (unsigned)a->chain_count, (unsigned)b->chain_count,
                   slots_same ? "true" : "false");
            if (first_slot != UINT32_MAX) printf("%u", (unsigned)first_slot); else printf("null");
            printf(",\n \"rest_same\": %s, \"same\": %s}\n", rest_same ? "true" : "false", differ ? "false" : "true");
        } else {
            printf("tracks: %u in A, %u in B: %u the same, %u differ, %u only in A, %u only in B; worst %.4g deg, %.4g m, "
                   "%.4g\n", (unsigned)a->track_count, (unsigned)b->track_count, (unsigned)same_tracks, (unsigned)diff_tracks,
                   (unsigned)only[0], (unsigned)only[1], worst_of[0], worst_of[1], worst_of[2]);
            if (dur_same) printf("duration: the same, %.3f s (%u ticks)\n", dur[0], (unsigned)a->tick_count);
            else printf("duration: %.3f s (%u ticks of %.4f s) in A, %.3f s (%u ticks of %.4f s) in B\n", dur[0],
                        (unsigned)a->tick_count, (double)a->frame_duration, dur[1], (unsigned)b->tick_count, (double)b->frame_duration);
            if (events_same) printf("events: the same, %u\n", (unsigned)a->events_decoded);
            else if (first_event != UINT32_MAX)
                printf("events: %u in A, %u in B; event %u differs (%s %.*s at %.3f s in A, %s %.*s at %.3f s in B)\n",
                       (unsigned)a->events_decoded, (unsigned)b->events_decoded, (unsigned)first_event,
                       gltf_clip_event_kind(a->events[first_event].type), (int)a->events[first_event].name.len,
                       a->events[first_event].name.ptr, (double)a->events[first_event].time,
                       gltf_clip_event_kind(b->events[first_event].type), (int)b->events[first_event].name.len,
                       b->events[first_event].name.ptr, (double)b->events[first_event].time);
            else printf("events: %u in A, %u in B\n", (unsigned)a->events_decoded, (unsigned)b->events_decoded);
            if (slots_same) printf("IK slots: the same, %u in %u chains\n", (unsigned)a->slot_count, (unsigned)a->chain_count);
            else if (first_slot != UINT32_MAX)
                printf("IK slots: %u in %u chains in A, %u in %u chains in B; slot %u differs (chain %u %.*s -> %.*s in A, "
                       "chain %u %.*s -> %.*s in B)\n", (unsigned)a->slot_count, (unsigned)a->chain_count, (unsigned)b->slot_count,
                       (unsigned)b->chain_count, (unsigned)first_slot, (unsigned)a->slots[first_slot].chain,
                       (int)a->slots[first_slot].actor.len, a->slots[first_slot].actor.ptr, (int)a->slots[first_slot].slot.len,
                       a->slots[first_slot].slot.ptr, (unsigned)b->slots[first_slot].chain, (int)b->slots[first_slot].actor.len,
                       b->slots[first_slot].actor.ptr, (int)b->slots[first_slot].slot.len, b->slots[first_slot].slot.ptr);
            else printf("IK slots: %u in %u chains in A, %u in %u chains in B\n", (unsigned)a->slot_count,
                        (unsigned)a->chain_count, (unsigned)b->slot_count, (unsigned)b->chain_count);
            if (!name_same) printf("name: %.*s in A, %.*s in B\n", (int)a->name.len, a->name.ptr, (int)b->name.len, b->name.ptr);
            if (!source_same)
                printf("source: %.*s in A, %.*s in B\n", (int)a->source.len, a->source.ptr, (int)b->source.len, b->source.ptr);
            if (!actor_same)
                printf("actor: %.*s in A, %.*s in B\n", a->actor.ptr ? (int)a->actor.len : 6, a->actor.ptr ? a->actor.ptr : "(none)",
                       b->actor.ptr ? (int)b->actor.len : 6, b->actor.ptr ? b->actor.ptr : "(none)");
            if (!fields_same) printf("header: flags 0x%X, tick pad %u in A; flags 0x%X, tick pad %u in B\n", (unsigned)a->flags,
                                     (unsigned)a->tick_pad, (unsigned)b->flags, (unsigned)b->tick_pad);
            printf("rest (IK slot table, actor, event list, end block, outer header): %s\n",
                   rest_same ? "the same bytes" : "differs");
            printf("%s\n", differ ? "the clips differ" : "the clips are identical");
        }
    }
    free(used);
    tool_dict_free(&names);
    for (i = 0; i < 2; i++) {
        tool_clip_free(&tc[i]);
        tool_free(&in[i]);
    }
    return differ ? 1 : 0;
}
