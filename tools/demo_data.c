/* Built-in sample data made with plumbob's own writers: a clip that bends a
 * two-bone rig (rotation about Z from 0 to 90 degrees and back), lifts the
 * root, drives a morph, and fires a sound and a script event. */
#include <stdlib.h>
#include <string.h>
#include "tool.h"

#define DEMO_KEYS 31

size_t demo_clip(unsigned char **out) {
    static unsigned char keys[4][DEMO_KEYS * 12];
    plumbob_clip_track tracks[4];
    plumbob_clip_event events[2];
    plumbob_clip c;
    uint16_t ticks[DEMO_KEYS];
    float v[DEMO_KEYS * 4];
    size_t n = 0, cap;
    int k, i;
    memset(&c, 0, sizeof c);
    memset(tracks, 0, sizeof tracks);
    memset(events, 0, sizeof events);
    for (k = 0; k < DEMO_KEYS; k++) ticks[k] = (uint16_t)(k * 2);
    /* track 0: b__Spine0__ rotation about Z, 0 -> 90 -> 0 degrees */
    for (k = 0; k < DEMO_KEYS; k++) {
        float t = (float)k / (DEMO_KEYS - 1), a = (t < 0.5f ? t : 1.0f - t) * 2.0f; /* 0..1..0 */
        float half = a * 0.78539816f, s, c2;
        /* sin/cos of half (<= pi/4) by short Taylor series: the tool needs no libm */
        float h2 = half * half;
        s = half * (1 - h2 / 6 * (1 - h2 / 20 * (1 - h2 / 42)));
        c2 = 1 - h2 / 2 * (1 - h2 / 12 * (1 - h2 / 30));
        v[k * 4 + 0] = 0; v[k * 4 + 1] = 0; v[k * 4 + 2] = s; v[k * 4 + 3] = c2;
    }
    plumbob_clip_encode_track(&tracks[0], plumbob_fnv32_str("b__Spine0__"), 0x14,
                              PLUMBOB_CLIP_TARGET_ROTATION, DEMO_KEYS, ticks, v, keys[0]);
    /* track 1: b__ROOT__ translation, rising 0 -> 0.5 m */
    for (k = 0; k < DEMO_KEYS; k++) {
        v[k * 3 + 0] = 0; v[k * 3 + 1] = 0.5f * (float)k / (DEMO_KEYS - 1); v[k * 3 + 2] = 0;
    }
    plumbob_clip_encode_track(&tracks[1], plumbob_fnv32_str("b__ROOT__"), 0x12,
                              PLUMBOB_CLIP_TARGET_TRANSLATION, DEMO_KEYS, ticks, v, keys[1]);
    /* track 2: morph "bulge", 0 -> 1 */
    for (k = 0; k < DEMO_KEYS; k++) v[k] = (float)k / (DEMO_KEYS - 1);
    plumbob_clip_encode_track(&tracks[2], (uint32_t)plumbob_fnv64_str("bulge"), 0x05,
                              PLUMBOB_CLIP_TARGET_MORPH, DEMO_KEYS, ticks, v, keys[2]);
    /* track 3: keyless root rotation (constant identity) */
    tracks[3].hash = plumbob_fnv32_str("b__ROOT__");
    tracks[3].curve = 0x0C;
    tracks[3].target = PLUMBOB_CLIP_TARGET_ROTATION;
    tracks[3].scale = 1.0f;
    for (i = 0; i < 2; i++) {
        events[i].type = i ? PLUMBOB_CLIP_EVENT_SCRIPT : PLUMBOB_CLIP_EVENT_SOUND;
        events[i].marker = 0xC1E4;
        events[i].id = (uint32_t)i + 1u;
        events[i].time = i ? 1.0f : 0.5f;
        events[i].unknown[0] = events[i].unknown[1] = -1.0f;
        events[i].unknown3 = 3;
    }
    events[0].name.ptr = events[0].sound.ptr = "bend_creak";
    events[0].name.len = events[0].sound.len = 10;
    events[1].name.ptr = "bend_done";
    events[1].name.len = 9;
    c.version = 2;
    c.frame_duration = 1.0f / 30.0f;
    c.tick_count = (DEMO_KEYS - 1) * 2 + 1;
    c.name.ptr = "a_demo_bend_x";
    c.name.len = 13;
    c.source.ptr = "a_demo_bend.ma";
    c.source.len = 14;
    c.actor.ptr = "x";
    c.actor.len = 1;
    c.track_count = 4;
    c.tracks = tracks;
    c.event_version = 0x103;
    c.event_count = c.events_decoded = 2;
    c.events = events;
    cap = plumbob_clip_write_size(&c);
    *out = (unsigned char *)malloc(cap);
    if (plumbob_clip_write(&c, *out, cap, &n) != PLUMBOB_OK) {
        free(*out);
        *out = NULL;
        return 0;
    }
    return n;
}
