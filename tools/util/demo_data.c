/* Built-in sample data made with plumbob's own writers: a clip that bends a
 * two-bone rig (rotation about Z from 0 to 90 degrees and back), lifts the
 * root, drives a morph, and fires a sound and a script event. */
#include <stdlib.h>
#include <string.h>
#include "demo_data.h"
#include "jazz_build.h"
#include "util/bytes.h"

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
        /* sin/cos of half (<= pi/4) by short Taylor series, so the demo clip's
           bytes do not depend on the C library's sinf/cosf */
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

/* --- a skinned, morphing cylinder ------------------------------------------------ */

#define CYL_RINGS 9
#define CYL_SEGS 12
#define CYL_BONES 3

/* Little-endian builders: the core's own byte helpers. */
#define put32 tool_put_le32
#define putf tool_put_f32le
#define put16(p, v) tool_put_le16((p), (uint16_t)(v))

/* A Z-up cylinder of radius 0.5 and height 2, rings every 0.25, skinned to
 * three bones at z = 0, 1, 2 (weights blend between neighbours, so vertices
 * have 1 to 3 influences, the third implied), with two morphs: "bulge"
 * (middle rings outwards) and "pinch" (top ring inwards). Version 4. */
size_t demo_gmdc(unsigned char **out) {
    enum { NV = CYL_RINGS * CYL_SEGS, NF = (CYL_RINGS - 1) * CYL_SEGS * 6 };
    static unsigned char verts[NV * 12], norms[NV * 12], assign[NV * 4], weights[NV * 8], mmap[NV * 4];
    static unsigned char bulge[NV * 12], pinch[NV * 12], refs[7 * 2], faces[NF * 2], bones[CYL_BONES * 2];
    static unsigned char joints[CYL_BONES * 28];
    plumbob_gmdc_element els[7];
    plumbob_gmdc_linkage link;
    plumbob_gmdc_group grp;
    plumbob_string names[6];
    plumbob_gmdc g;
    static const float cosv[CYL_SEGS] = {1, 0.8660254f, 0.5f, 0, -0.5f, -0.8660254f, -1, -0.8660254f, -0.5f, 0, 0.5f, 0.8660254f};
    static const float sinv[CYL_SEGS] = {0, 0.5f, 0.8660254f, 1, 0.8660254f, 0.5f, 0, -0.5f, -0.8660254f, -1, -0.8660254f, -0.5f};
    uint32_t r, s, i, f = 0;
    size_t n = 0, cap;
    for (r = 0; r < CYL_RINGS; r++) {
        float z = 0.25f * (float)r, b = z; /* bone coordinate 0..2 */
        uint32_t lo = b >= 2.0f ? 1u : (uint32_t)b;
        float t = b - (float)lo;           /* share of the upper bone */
        for (s = 0; s < CYL_SEGS; s++) {
            uint32_t v = r * CYL_SEGS + s;
            putf(verts + 12 * v, 0.5f * cosv[s]); putf(verts + 12 * v + 4, 0.5f * sinv[s]); putf(verts + 12 * v + 8, z);
            putf(norms + 12 * v, cosv[s]); putf(norms + 12 * v + 4, sinv[s]); putf(norms + 12 * v + 8, 0);
            /* slots: lower bone, upper bone, and on the middle ring a third (implied) */
            if (r == 4) {
                put32(assign + 4 * v, 0xFF000201u); /* slots 1, 2, 0 */
                putf(weights + 8 * v, 0.6f); putf(weights + 8 * v + 4, 0.2f); /* third implied: 0.2 */
            } else if (t == 0.0f) {
                put32(assign + 4 * v, 0xFFFFFF00u | lo); /* one influence */
                putf(weights + 8 * v, 1.0f); putf(weights + 8 * v + 4, 0.0f);
            } else {
                put32(assign + 4 * v, 0xFFFF0000u | (lo + 1u) << 8 | lo);
                putf(weights + 8 * v, 1.0f - t); putf(weights + 8 * v + 4, t);
            }
            put32(mmap + 4 * v, (r >= 3 && r <= 5 ? 1u : 0u) | (r == CYL_RINGS - 1 ? 2u << 8 : 0u));
            putf(bulge + 12 * v, 0.2f * cosv[s]); putf(bulge + 12 * v + 4, 0.2f * sinv[s]); putf(bulge + 12 * v + 8, 0);
            putf(pinch + 12 * v, -0.3f * cosv[s]); putf(pinch + 12 * v + 4, -0.3f * sinv[s]); putf(pinch + 12 * v + 8, 0);
        }
    }
    for (r = 0; r + 1 < CYL_RINGS; r++)
        for (s = 0; s < CYL_SEGS; s++) {
            uint32_t a = r * CYL_SEGS + s, b = r * CYL_SEGS + (s + 1) % CYL_SEGS, c = a + CYL_SEGS, d = b + CYL_SEGS;
            put16(faces + 2 * f++, a); put16(faces + 2 * f++, b); put16(faces + 2 * f++, c);
            put16(faces + 2 * f++, c); put16(faces + 2 * f++, b); put16(faces + 2 * f++, d);
        }
    for (i = 0; i < CYL_BONES; i++) { /* inverse bind: translate by -z of the bone */
        memset(joints + 28 * i, 0, 28);
        putf(joints + 28 * i + 12, 1.0f);
        putf(joints + 28 * i + 24, -(float)i);
        put16(bones + 2 * i, i);
    }
    {
        static const uint32_t ids[7] = {PLUMBOB_GMDC_VERTICES, PLUMBOB_GMDC_NORMALS, PLUMBOB_GMDC_BONE_ASSIGNMENTS,
                                        PLUMBOB_GMDC_BONE_WEIGHTS, PLUMBOB_GMDC_MORPH_VERTEX_MAP,
                                        PLUMBOB_GMDC_MORPH_VERTEX_DELTAS, PLUMBOB_GMDC_MORPH_VERTEX_DELTAS};
        static const uint32_t fmts[7] = {2, 2, 4, 1, 4, 2, 2}, sets[7] = {0, 1, 0, 0, 0, 0, 0};
        const unsigned char *datas[7] = {verts, norms, assign, weights, mmap, bulge, pinch};
        for (i = 0; i < 7; i++) {
            memset(&els[i], 0, sizeof els[i]);
            els[i].count = NV;
            els[i].identity = ids[i];
            els[i].group = i == 6 ? 1u : 0u; /* pinch is delta set 1 (morph map byte 1) */
            els[i].format = fmts[i];
            els[i].set = sets[i];
            els[i].byte_size = NV * 4u * (fmts[i] == 4 ? 1u : fmts[i] + 1u);
            els[i].data = datas[i];
            put16(refs + 2 * i, i);
        }
    }
    memset(&link, 0, sizeof link);
    link.refs.data = refs;
    link.refs.count = 7;
    link.vertex_count = NV;
    link.active_count = 7;
    memset(&grp, 0, sizeof grp);
    grp.primitive = 2;
    grp.name.ptr = "cylinder";
    grp.name.len = 8;
    grp.faces.data = faces;
    grp.faces.count = NF;
    grp.opacity = 0xFFFFFFFFu;
    grp.bones.data = bones;
    grp.bones.count = CYL_BONES;
    names[0].ptr = names[1].ptr = "";
    names[0].len = names[1].len = 0;
    names[2].ptr = "demo"; names[2].len = 4; names[3].ptr = "bulge"; names[3].len = 5;
    names[4].ptr = "demo"; names[4].len = 4; names[5].ptr = "pinch"; names[5].len = 5;
    memset(&g, 0, sizeof g);
    g.version = 4;
    g.index_size = 2;
    g.head.resource_name.ptr = "demo_cylinder_tslocator_gmdc";
    g.head.resource_name.len = 28;
    g.element_count = 7;
    g.elements = els;
    g.linkage_count = 1;
    g.linkages = &link;
    g.group_count = 1;
    g.groups = &grp;
    g.joint_count = CYL_BONES;
    g.joints = joints;
    g.morph_count = 3;
    g.morph_names = names;
    cap = plumbob_gmdc_write_size(&g);
    *out = (unsigned char *)malloc(cap);
    if (plumbob_gmdc_write(&g, *out, cap, &n) != PLUMBOB_OK) {
        free(*out);
        *out = NULL;
        return 0;
    }
    return n;
}

/* --- a body-shaped mesh with sparse elements -------------------------------- */

/* The shape of a skinned, morphing Sims 2 body mesh: a 35 x 40 grid of
 * 1,400 vertices (Z-up, 0.8 m wide, 1.7 m tall) on 65 joints, 3 stored
 * weights per vertex (the 4th implied), morphs "fatbot" and "pregbot" with
 * vertex and normal deltas, and, in the empty initial set of elements, two
 * Target Indices elements of count 1,400 holding 426 and 94 float3 items
 * (sparse: one item per entry of their item lists).  Also UVs, bump-map
 * normals with binormals, and vertex colours.  Version 4. */
#define BODY_ROWS 35u
#define BODY_COLS 40u
#define BODY_NV (BODY_ROWS * BODY_COLS)
#define BODY_JOINTS 65u
#define BODY_FAT 426u
#define BODY_PREG 94u
#define BODY_EL 19u

/* Vertex v's place in the morph order (a permutation: 919 is prime). */
static uint32_t body_perm(uint32_t v) { return (v * 919u) % BODY_NV; }

size_t demo_body_gmdc(unsigned char **out) {
    enum { EV, EN, EUV, ETI0, ETI1, POS, NRM, UV, BUMP, BIN, COL, BA, BW, MAP, MVD0, MVD1, MND0, MND1, LAST };
    static const uint32_t ids[BODY_EL] = {
        PLUMBOB_GMDC_VERTICES, PLUMBOB_GMDC_NORMALS, PLUMBOB_GMDC_UVS, PLUMBOB_GMDC_TARGET_INDICES,
        PLUMBOB_GMDC_TARGET_INDICES, PLUMBOB_GMDC_VERTICES, PLUMBOB_GMDC_NORMALS, PLUMBOB_GMDC_UVS,
        PLUMBOB_GMDC_BUMP_NORMALS, PLUMBOB_GMDC_BINORMALS, PLUMBOB_GMDC_COLOUR, PLUMBOB_GMDC_BONE_ASSIGNMENTS,
        PLUMBOB_GMDC_BONE_WEIGHTS, PLUMBOB_GMDC_MORPH_VERTEX_MAP, PLUMBOB_GMDC_MORPH_VERTEX_DELTAS,
        PLUMBOB_GMDC_MORPH_VERTEX_DELTAS, PLUMBOB_GMDC_MORPH_NORMAL_DELTAS, PLUMBOB_GMDC_MORPH_NORMAL_DELTAS, 0};
    static const uint32_t fmts[BODY_EL] = {2, 2, 1, 2, 2, 2, 2, 1, 2, 2, 4, 4, 2, 4, 2, 2, 2, 2, 0};
    plumbob_gmdc_element els[BODY_EL];
    unsigned char *data[BODY_EL], *ti_items[2], refs[2 * (LAST - POS)], *faces, bones[2 * BODY_JOINTS];
    unsigned char joints[28 * BODY_JOINTS];
    uint16_t order[BODY_NV]; /* vertex at each place of the morph order */
    plumbob_gmdc_linkage link;
    plumbob_gmdc_group grp;
    plumbob_string names[6];
    plumbob_gmdc g;
    uint32_t i, v, c, r, f = 0, nti[2] = {0, 0}, nf = 6u * (BODY_ROWS - 1u) * (BODY_COLS - 1u);
    size_t n = 0, cap;
    int ok = 1;
    memset(data, 0, sizeof data);
    faces = (unsigned char *)malloc(2u * nf);
    ti_items[0] = (unsigned char *)malloc(2u * BODY_FAT);
    ti_items[1] = (unsigned char *)malloc(2u * BODY_PREG);
    for (i = POS; i < LAST; i++) data[i] = (unsigned char *)malloc(12u * BODY_NV);
    data[ETI0] = (unsigned char *)malloc(12u * BODY_FAT);
    data[ETI1] = (unsigned char *)malloc(12u * BODY_PREG);
    for (i = ETI0; i < LAST; i++) ok = ok && data[i];
    *out = NULL;
    if (!ok || !faces || !ti_items[0] || !ti_items[1]) goto done;
    for (v = 0; v < BODY_NV; v++) {
        uint32_t row = v / BODY_COLS, col = v % BODY_COLS, p = body_perm(v);
        int fat = p < BODY_FAT, preg = p >= BODY_FAT - 26u && p < BODY_FAT - 26u + BODY_PREG;
        float x = 0.02f * (float)col - 0.4f, z = 0.05f * (float)row;
        putf(data[POS] + 12 * v, x); putf(data[POS] + 12 * v + 4, 0.05f * (float)((row * col) % 5u) / 5.0f);
        putf(data[POS] + 12 * v + 8, z);
        putf(data[NRM] + 12 * v, 0.0f); putf(data[NRM] + 12 * v + 4, -1.0f); putf(data[NRM] + 12 * v + 8, 0.0f);
        putf(data[UV] + 8 * v, (float)col / (float)(BODY_COLS - 1u));
        putf(data[UV] + 8 * v + 4, 1.0f - (float)row / (float)(BODY_ROWS - 1u));
        putf(data[BUMP] + 12 * v, 1.0f); putf(data[BUMP] + 12 * v + 4, 0.0f); putf(data[BUMP] + 12 * v + 8, 0.0f);
        putf(data[BIN] + 12 * v, 0.0f); putf(data[BIN] + 12 * v + 4, 0.0f); putf(data[BIN] + 12 * v + 8, 1.0f);
        put32(data[COL] + 4 * v, 0xFF000000u | (row * 7u) << 16 | (col * 6u) << 8 | 0x80u);
        /* four slots over the 65 joints (every third vertex uses three) */
        put32(data[BA] + 4 * v, (row + col) % BODY_JOINTS | ((row * 2u + 1u) % BODY_JOINTS) << 8 |
                                    ((col + 30u) % BODY_JOINTS) << 16 |
                                    (v % 3u == 0 ? 0xFFu : (v * 7u) % BODY_JOINTS) << 24);
        putf(data[BW] + 12 * v, 0.5f); putf(data[BW] + 12 * v + 4, 0.25f);
        putf(data[BW] + 12 * v + 8, v % 3u == 0 ? 0.25f : 0.125f);
        put32(data[MAP] + 4 * v, (fat ? 1u : 0u) | (preg ? 2u << 8 : 0u));
        for (c = 0; c < 3; c++) {
            float dir = c == 1 ? -1.0f : 0.0f; /* outwards: -Y is the front */
            putf(data[MVD0] + 12 * v + 4 * c, 0.04f * dir);
            putf(data[MVD1] + 12 * v + 4 * c, 0.08f * dir * (float)(row % 7u) / 7.0f);
            putf(data[MND0] + 12 * v + 4 * c, c == 0 ? 0.1f : 0.0f);
            putf(data[MND1] + 12 * v + 4 * c, c == 2 ? -0.1f : 0.0f);
        }
    }
    /* Target Indices: the morph vertices in morph order (not sorted) */
    for (v = 0; v < BODY_NV; v++) order[body_perm(v)] = (uint16_t)v;
    for (r = 0; r < BODY_NV; r++) { /* r: place in the morph order */
        v = order[r];
        if (r < BODY_FAT) {
            put16(ti_items[0] + 2 * nti[0], v);
            for (c = 0; c < 3; c++) putf(data[ETI0] + 12 * nti[0] + 4 * c, 0.001f * (float)(3u * nti[0] + c));
            nti[0]++;
        }
        if (r >= BODY_FAT - 26u && r < BODY_FAT - 26u + BODY_PREG) {
            put16(ti_items[1] + 2 * nti[1], v);
            for (c = 0; c < 3; c++) putf(data[ETI1] + 12 * nti[1] + 4 * c, 0.002f * (float)(3u * nti[1] + c));
            nti[1]++;
        }
    }
    for (r = 0; r + 1 < BODY_ROWS; r++)
        for (c = 0; c + 1 < BODY_COLS; c++) {
            uint32_t a = r * BODY_COLS + c;
            put16(faces + 2 * f++, a); put16(faces + 2 * f++, a + 1u); put16(faces + 2 * f++, a + BODY_COLS);
            put16(faces + 2 * f++, a + BODY_COLS); put16(faces + 2 * f++, a + 1u); put16(faces + 2 * f++, a + BODY_COLS + 1u);
        }
    for (i = 0; i < BODY_JOINTS; i++) { /* inverse bind: down to joint i's height */
        memset(joints + 28 * i, 0, 28);
        putf(joints + 28 * i + 12, 1.0f);
        putf(joints + 28 * i + 24, -0.025f * (float)i);
        put16(bones + 2 * i, i);
    }
    for (i = 0; i < LAST; i++) {
        uint32_t isz = fmts[i] == 4 ? 4u : 4u * (fmts[i] + 1u);
        memset(&els[i], 0, sizeof els[i]);
        els[i].identity = ids[i];
        els[i].format = fmts[i];
        els[i].group = i == ETI1 || i == MVD1 || i == MND1 ? 1u : 0u;
        els[i].set = i == NRM ? 1u : i == UV ? 2u : 0u;
        els[i].data = data[i] ? data[i] : faces; /* empty elements point anywhere */
        if (i == ETI0 || i == ETI1) {
            els[i].count = BODY_NV;
            els[i].items.data = ti_items[i - ETI0];
            els[i].items.count = nti[i - ETI0];
            els[i].byte_size = nti[i - ETI0] * isz;
        } else if (i >= POS) {
            els[i].count = BODY_NV;
            els[i].byte_size = BODY_NV * isz;
            put16(refs + 2 * (i - POS), i);
        }
    }
    memset(&link, 0, sizeof link);
    link.refs.data = refs;
    link.refs.count = LAST - POS;
    link.vertex_count = BODY_NV;
    link.active_count = LAST - POS;
    memset(&grp, 0, sizeof grp);
    grp.primitive = PLUMBOB_GMDC_PRIMITIVE_TRIANGLES;
    grp.name.ptr = "body";
    grp.name.len = 4;
    grp.faces.data = faces;
    grp.faces.count = nf;
    grp.opacity = 0xFFFFFFFFu;
    grp.bones.data = bones;
    grp.bones.count = BODY_JOINTS;
    names[0].ptr = names[1].ptr = "";
    names[0].len = names[1].len = 0;
    names[2].ptr = names[3].ptr = "fatbot";
    names[2].len = names[3].len = 6;
    names[4].ptr = names[5].ptr = "pregbot";
    names[4].len = names[5].len = 7;
    memset(&g, 0, sizeof g);
    g.version = 4;
    g.index_size = 2;
    g.head.resource_name.ptr = "demo_body_tslocator_gmdc";
    g.head.resource_name.len = 24;
    g.element_count = LAST;
    g.elements = els;
    g.linkage_count = 1;
    g.linkages = &link;
    g.group_count = 1;
    g.groups = &grp;
    g.joint_count = BODY_JOINTS;
    g.joints = joints;
    g.morph_count = 3;
    g.morph_names = names;
    cap = plumbob_gmdc_write_size(&g);
    *out = (unsigned char *)malloc(cap);
    if (*out && plumbob_gmdc_write(&g, *out, cap, &n) != PLUMBOB_OK) {
        free(*out);
        *out = NULL;
        n = 0;
    }
done:
    for (i = 0; i < LAST; i++) free(data[i]);
    free(faces);
    free(ti_items[0]);
    free(ti_items[1]);
    return n;
}

/* A small Sims 2 ANIM made with plumbob's writer: "spine0" bends about Y
 * (continuous 9.7 keys, 0 -> 45 -> 0 degrees), "root_trans" rises (baked
 * f32), the morph "bulge" swells (continuous 3.13), one sound event. */
size_t demo_anim(unsigned char **out) {
    static unsigned char rot_keys[3 * 6], zero_key[2], lift_keys[5 * 4], morph_keys[3 * 6];
    static const uint16_t t3[3] = {0, 500, 1000};
    static const float bend[3] = {0.0f, 45.0f, 0.0f}, swell[3] = {0.0f, 1.0f, 0.25f};
    plumbob_anim_target target;
    plumbob_anim_channel ch[3];
    plumbob_anim_component co[7];
    plumbob_anim_event ev;
    plumbob_anim a;
    size_t n = 0, cap;
    uint32_t k, i;
    for (k = 0; k < 3; k++) { /* 17-bit fixed point: the low bit rides in the time word */
        int32_t v = (int32_t)(bend[k] * 128.0f), m = (int32_t)(swell[k] * 8192.0f);
        tool_put_le16(rot_keys + 6 * k, (uint16_t)(t3[k] | (uint16_t)((v & 1) << 15)));
        tool_put_le16(rot_keys + 6 * k + 2, (uint16_t)(int16_t)(v >> 1));
        tool_put_le16(rot_keys + 6 * k + 4, 0);
        tool_put_le16(morph_keys + 6 * k, (uint16_t)(t3[k] | (uint16_t)((m & 1) << 15)));
        tool_put_le16(morph_keys + 6 * k + 2, (uint16_t)(int16_t)(m >> 1));
        tool_put_le16(morph_keys + 6 * k + 4, 0);
    }
    for (k = 0; k < 5; k++) tool_put_f32le(lift_keys + 4 * k, 0.1f * (float)k);
    tool_put_le16(zero_key, 0);
    memset(co, 0, sizeof co);
    memset(ch, 0, sizeof ch);
    for (i = 0; i < 7; i++) { /* defaults: one baked 8.7 zero */
        co[i].key_count = 1;
        co[i].packed = 0;
        co[i].key_size = 2;
        co[i].keys = zero_key;
    }
    co[1].key_count = 3; co[1].packed = 0x01; co[1].key_size = 6; co[1].keys = rot_keys;     /* spine0 y */
    co[5].key_count = 5; co[5].packed = 0x10; co[5].key_size = 4; co[5].keys = lift_keys;    /* root z */
    co[6].key_count = 3; co[6].packed = 0x0D; co[6].key_size = 6; co[6].keys = morph_keys;   /* bulge */
    ch[0].name.ptr = "spine0"; ch[0].name.len = 6;
    ch[0].flags = 1000u | 0x8000u | 0u << 17 | 3u << 22 | 15u << 25 | 3u << 29;
    ch[1].name.ptr = "root_trans"; ch[1].name.len = 10;
    ch[1].flags = 1000u | 0x8000u | 1u << 17 | 4u << 22 | 15u << 25 | 3u << 29;
    ch[2].name.ptr = "bulge"; ch[2].name.len = 5;
    ch[2].flags = 1000u | 0x8000u | 2u << 17 | 0u << 22 | 15u << 25 | 1u << 29;
    for (i = 0; i < 3; i++) ch[i].crc = plumbob_fnv32(ch[i].name.ptr, ch[i].name.len); /* any stable id */
    memset(&target, 0, sizeof target);
    target.name.ptr = "auskel";
    target.name.len = 6;
    target.kind = 1;
    target.channel_count = 3;
    target.unknown = 1;
    ev.time = 500;
    ev.type = 1014;
    ev.text.ptr = "sound_name=demo_creak\nsound_source=center_of_object\n";
    ev.text.len = strlen(ev.text.ptr);
    memset(&a, 0, sizeof a);
    a.head.resource_name.ptr = "a-demo-bend_anim";
    a.head.resource_name.len = 16;
    a.duration = 1001;
    a.version = 6;
    a.type = 7;
    a.priority = 2;
    a.params[7] = 1.0f; /* skeleton scale */
    a.skeleton.ptr = "auskel";
    a.skeleton.len = 6;
    a.data_string.ptr = "";
    a.target_count = 1;
    a.targets = &target;
    a.channel_count = 3;
    a.channels = ch;
    a.component_count = 7;
    a.components = co;
    a.event_count = 1;
    a.events = &ev;
    cap = plumbob_anim_write_size(&a);
    if (cap == SIZE_MAX) return 0;
    *out = (unsigned char *)malloc(cap);
    if (plumbob_anim_write(&a, *out, cap, &n) != PLUMBOB_OK) {
        free(*out);
        *out = NULL;
        return 0;
    }
    return n;
}

/* A small jazz state machine built with plumbob's model builder: a Sim ("x")
 * walks through a door.  Enter -> Open (which way depends on the parameter
 * "side": the front plays a clip key, the back a name with {side}
 * substituted), then Idle (a random fidget, no repeats) or straight to
 * Close (door closes, then the Sim turns), then Exit. */
size_t demo_jazz(unsigned char **out) {
    jazz_build b;
    uint32_t x, door, enter, open, idle, close, exit_state, sel, front, back, walk, rnd, closing, turn;
    plumbob_jazz_branch *br;
    size_t n = 0, cap;
    jazz_build_init(&b, "demoDoor");
    x = jazz_build_actor(&b, "x");
    door = jazz_build_actor(&b, "door");
    jazz_build_param(&b, "side", "front");
    enter = jazz_build_state(&b, "Enter", PLUMBOB_JAZZ_STATE_PUBLIC | PLUMBOB_JAZZ_STATE_ENTRY);
    open = jazz_build_state(&b, "Open", PLUMBOB_JAZZ_STATE_PUBLIC);
    idle = jazz_build_state(&b, "Idle", PLUMBOB_JAZZ_STATE_LOOP);
    close = jazz_build_state(&b, "Close", 0);
    exit_state = jazz_build_state(&b, "Exit", PLUMBOB_JAZZ_STATE_PUBLIC | PLUMBOB_JAZZ_STATE_EXIT);
    { uint32_t t[1]; t[0] = open; jazz_build_transitions(&b, enter, 1, t); }
    { uint32_t t[2]; t[0] = idle; t[1] = close; jazz_build_transitions(&b, open, 2, t); }
    { uint32_t t[2]; t[0] = close; t[1] = idle; jazz_build_transitions(&b, idle, 2, t); }
    { uint32_t t[1]; t[0] = exit_state; jazz_build_transitions(&b, close, 1, t); }
    /* Open: select on "side" */
    sel = jazz_build_node(&b, PLUMBOB_JAZZ_SELECT_PARAM);
    front = jazz_build_play(&b, "o_door_open_front", door);
    walk = jazz_build_play(&b, "a2o_door_walkThrough_x", x);
    back = jazz_build_node(&b, PLUMBOB_JAZZ_PLAY);
    if (!b.failed) {
        static const unsigned char name[] = "o\0_\0d\0o\0o\0r\0_\0o\0p\0e\0n\0_\0{\0s\0i\0d\0e\0}\0";
        b.nodes[back].u.play.name.units = name;
        b.nodes[back].u.play.name.length = 18;
        b.nodes[back].u.play.anim.actor = door;
        b.nodes[sel].u.select.param = 0;
        b.nodes[front].children = jazz_build_list(&b, 1, &walk);
        b.nodes[front].child_count = 1;
        b.nodes[back].children = jazz_build_list(&b, 1, &walk);
        b.nodes[back].child_count = 1;
        b.nodes[front].u.play.anim.blend_in = 0.2f;
    }
    br = jazz_build_branches(&b, sel, 2);
    if (br) {
        br[0].value = plumbob_fnv32_str("front");
        br[0].children = jazz_build_list(&b, 1, &front);
        br[0].child_count = 1;
        br[1].value = plumbob_fnv32_str("back");
        br[1].children = jazz_build_list(&b, 1, &back);
        br[1].child_count = 1;
    }
    jazz_build_roots(&b, open, 1, &sel);
    /* Idle: one of three fidgets, weighted, never the same twice in a row */
    rnd = jazz_build_node(&b, PLUMBOB_JAZZ_RANDOM);
    {
        static const char *fidgets[3] = {"a_idle_lookAround_x", "a_idle_stretch_x", "a_idle_yawn_x"};
        static const float weights[3] = {3.0f, 1.0f, 1.0f};
        uint32_t k, play[3];
        for (k = 0; k < 3; k++) play[k] = jazz_build_play(&b, fidgets[k], x);
        br = jazz_build_branches(&b, rnd, 3);
        for (k = 0; br && k < 3; k++) {
            br[k].weight = weights[k];
            br[k].children = jazz_build_list(&b, 1, &play[k]);
            br[k].child_count = 1;
        }
        if (!b.failed) b.nodes[rnd].u.random.flags = PLUMBOB_JAZZ_RANDOM_AVOID_REPEATS;
    }
    jazz_build_roots(&b, idle, 1, &rnd);
    /* Close: the door closes, then the Sim turns away */
    closing = jazz_build_play(&b, "o_door_close", door);
    turn = jazz_build_play(&b, "a_door_turnAway_x", x);
    if (!b.failed) {
        b.nodes[closing].children = jazz_build_list(&b, 1, &turn);
        b.nodes[closing].child_count = 1;
    }
    jazz_build_roots(&b, close, 1, &closing);
    if (!jazz_build_finish(&b)) {
        jazz_build_free(&b);
        return 0;
    }
    cap = plumbob_jazz_write_size(&b.jazz);
    *out = cap == SIZE_MAX ? NULL : (unsigned char *)malloc(cap);
    if (!*out || plumbob_jazz_write(&b.jazz, *out, cap, &n) != PLUMBOB_OK) {
        free(*out);
        *out = NULL;
        n = 0;
    }
    jazz_build_free(&b);
    return n;
}

/* A Sims 3 rig (plain format 4.2) for the demo clip: b__ROOT__ > b__Spine0__
 * > b__Spine1__ > b__Head__, one metre apart up Y (the head half a metre),
 * and one IK chain over the spine.  The clip animates the root and
 * b__Spine0__; b__Spine1__ and b__Head__ stay at rest. */
size_t demo_rig_resource(unsigned char **out) {
    static const char *const names[4] = {"b__ROOT__", "b__Spine0__", "b__Spine1__", "b__Head__"};
    plumbob_rig_bone bones[4];
    plumbob_rig_ik_chain chain;
    int32_t chain_bones[3] = {1, 2, 3};
    plumbob_rig rig;
    size_t n = 0, cap;
    int i;
    memset(bones, 0, sizeof bones);
    memset(&chain, 0, sizeof chain);
    memset(&rig, 0, sizeof rig);
    for (i = 0; i < 4; i++) {
        bones[i].position.y = i == 0 ? 0.0f : i == 3 ? 0.5f : 1.0f;
        bones[i].orientation.w = 1.0f;
        bones[i].scale.x = bones[i].scale.y = bones[i].scale.z = 1.0f;
        bones[i].name.ptr = names[i];
        bones[i].name.len = strlen(names[i]);
        bones[i].opposite = i;
        bones[i].parent = i - 1;
        bones[i].hash = plumbob_fnv32_str(names[i]);
        bones[i].flags = 0x23;
    }
    chain.bone_count = 3;
    chain.bones = chain_bones;
    for (i = 0; i < PLUMBOB_RIG_IK_INFO_NODES; i++) chain.info_nodes[i] = -1;
    chain.pole_vector = 2;
    chain.slot_info = -1;
    chain.slot_offset = -1;
    chain.root = 0;
    rig.major = 4;
    rig.minor = 2;
    rig.bone_count = 4;
    rig.bones = bones;
    rig.skeleton_name.ptr = "demo_spine";
    rig.skeleton_name.len = 10;
    rig.ik_chain_count = 1;
    rig.ik_chains = &chain;
    cap = plumbob_rig_write_size(&rig);
    *out = (unsigned char *)malloc(cap == SIZE_MAX ? 1 : cap);
    if (!*out || cap == SIZE_MAX || plumbob_rig_write(&rig, *out, cap, &n) != PLUMBOB_OK) {
        free(*out);
        *out = NULL;
        return 0;
    }
    return n;
}
