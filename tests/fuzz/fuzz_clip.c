/* libFuzzer target for CLIP: measure, decode into an arena of exactly the
 * measured size, then bind, build the schedule, start a cursor and the
 * samplers each in an arena of exactly its query's size (never above the
 * header's macro), sample every track (random access and cursor), run the
 * sampler with the port's kernel and the scalar reference (same finite
 * values), look up events, and re-encode: a decoded clip must write back to
 * the same bytes when the input was a complete, canonical clip.  Issue 47's
 * property (finite_prop.h): wherever overflow cannot happen, every sample
 * is finite, and so are the model matrices of the sampled poses put on a
 * chain of bones. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "plumbob.h"
#include "finite_prop.h"

/* The measure call through its _ex twin: the location it reports is the
 * code it returns and lies inside the input (issue 47). */
static plumbob_result measure_checked(const uint8_t *d, size_t n, size_t *need) {
    plumbob_error err;
    plumbob_result r = plumbob_clip_measure_ex(d, n, need, &err);
    if (err.result != r || err.offset > n || !err.table || !err.reason) __builtin_trap();
    return r;
}

/* The binding's report (issue 47) in an arena of exactly its size: with
 * every hash bound, only tracks of other targets stay unbound; the list is
 * strictly ascending, each entry a track's hash; a bone list of the even
 * tracks' hashes alone binds no more bones than there are. */
static void check_report(const plumbob_clip *c, const plumbob_clip_binding *b, const uint32_t *hashes, size_t n) {
    size_t need = plumbob_clip_binding_report_size(b), i, others = 0;
    unsigned char *mem = (unsigned char *)malloc(need + 1);
    uint32_t *list = (uint32_t *)malloc(sizeof(uint32_t) * (n + 1));
    plumbob_arena a;
    plumbob_clip_bind_report r;
    if (need != PLUMBOB_CLIP_BIND_REPORT_SIZE(n)) __builtin_trap();
    plumbob_arena_init(&a, mem, need);
    if (plumbob_clip_binding_report(b, c->name.ptr, c->name.len, &a, list, (uint32_t)n, &r) != PLUMBOB_OK) __builtin_trap();
    for (i = 0; i < n; i++)
        others += c->tracks[i].target != PLUMBOB_CLIP_TARGET_MORPH && c->tracks[i].target != PLUMBOB_CLIP_TARGET_ROTATION &&
                  c->tracks[i].target != PLUMBOB_CLIP_TARGET_TRANSLATION && c->tracks[i].target != PLUMBOB_CLIP_TARGET_SCALE;
    if (r.track_count != n || r.unbound_tracks != others || r.bound_tracks + r.unbound_tracks != n ||
        r.bound_bones != r.bone_count || r.bone_count > n || r.unbound_hash_count > r.unbound_tracks ||
        (r.fit & PLUMBOB_FIT_FEW_BONES))
        __builtin_trap();
    for (i = 0; i < r.unbound_hash_count; i++) {
        size_t k;
        int found = 0;
        if (i && list[i] <= list[i - 1]) __builtin_trap();
        for (k = 0; k < n && !found; k++) found = hashes[k] == list[i];
        if (!found) __builtin_trap();
    }
    {
        plumbob_clip_binding half;
        uint32_t *even = (uint32_t *)malloc(sizeof(uint32_t) * (n / 2 + 1));
        unsigned char *bmem = (unsigned char *)malloc(plumbob_clip_bind_size(c) + need);
        size_t m = 0;
        for (i = 0; i < n; i += 2) even[m++] = hashes[i];
        plumbob_arena_init(&a, bmem, plumbob_clip_bind_size(c) + need);
        if (plumbob_clip_bind(c, even, (uint32_t)m, NULL, 0, &a, &half) != PLUMBOB_OK ||
            plumbob_clip_binding_report(&half, "auRig", 5, &a, NULL, 0, &r) != PLUMBOB_OK ||
            r.bound_bones > r.bone_count || r.bound_tracks + r.unbound_tracks != n)
            __builtin_trap();
        free(bmem);
        free(even);
    }
    free(list);
    free(mem);
}

/* Every track's hash as a bone and as a morph; both samplers at a few
 * times in a jumpy order must agree wherever the values are finite, and
 * the sampler without a schedule must give the scheduled one's bits. */
/* The largest magnitude a sample can reach: a dequantized value (within 1,
 * or a palette value) times the track's scale plus its offset, for the
 * worst track; lerps between two keys stay within it. */
static double clip_bound(const plumbob_clip *c) {
    double pal = 1.0, worst = 0;
    uint32_t i;
    for (i = 0; i < c->palette_count; i++) {
        float f;
        memcpy(&f, c->palette + 4u * i, 4);
        if (fp_max_abs(&f, 1) > pal) pal = fp_max_abs(&f, 1);
    }
    for (i = 0; i < c->track_count; i++) {
        double b = fp_max_abs(&c->tracks[i].offset, 1) + fp_max_abs(&c->tracks[i].scale, 1) * pal;
        if (b > worst) worst = b;
    }
    return 2.0 * worst;
}

/* The sampled poses as the local poses of a chain (bone k's parent k - 1):
 * their model matrices hold no NaN or infinity where no overflow can. */
static void chain_model(const plumbob_bone_pose *poses, uint32_t n) {
    int32_t *parent = (int32_t *)malloc(sizeof(int32_t) * n);
    plumbob_skeleton sk;
    uint32_t k;
    if (!parent) __builtin_trap();
    for (k = 0; k < n; k++) parent[k] = (int32_t)k - 1;
    memset(&sk, 0, sizeof sk);
    sk.bone_count = n;
    sk.parent = parent;
    sk.rest = poses;
    fp_check_model(&sk, poses);
    free(parent);
}

static void run_samplers(const plumbob_clip *c) {
    size_t n = c->track_count, need, i, j;
    uint32_t *hashes = (uint32_t *)malloc(sizeof(uint32_t) * (n + 1));
    plumbob_bone_pose *p0 = (plumbob_bone_pose *)calloc(n + 1, sizeof *p0), *p1 = (plumbob_bone_pose *)calloc(n + 1, sizeof *p1);
    plumbob_bone_pose *p2 = (plumbob_bone_pose *)calloc(n + 1, sizeof *p2);
    float *m0 = (float *)calloc(n + 1, sizeof(float)), *m1 = (float *)calloc(n + 1, sizeof(float));
    float *m2 = (float *)calloc(n + 1, sizeof(float));
    unsigned char *mem;
    plumbob_arena a;
    plumbob_clip_binding b;
    plumbob_clip_schedule sc;
    plumbob_clip_sampler s0, s1, s2;
    unsigned char *smem;
    static const float times[] = {0.0f, 0.02f, 0.5f, 0.51f, 0.1f, 9.0f, -1.0f, 0.26f};
    int bounded = clip_bound(c) < FP_SAFE;
    for (i = 0; i < n; i++) hashes[i] = c->tracks[i].hash;
    need = plumbob_clip_bind_size(c);
    if (need != PLUMBOB_CLIP_BIND_SIZE(n)) __builtin_trap();
    mem = (unsigned char *)malloc(need);
    plumbob_arena_init(&a, mem, need);
    if (plumbob_clip_bind(c, hashes, (uint32_t)n, hashes, (uint32_t)n, &a, &b) != PLUMBOB_OK) __builtin_trap();
    check_report(c, &b, hashes, n);
    need = plumbob_clip_schedule_size(c); /* exactly the size: the build must fit */
    {
        size_t keys = 0;
        for (i = 0; i < n; i++) keys += c->tracks[i].key_count;
        if (need > PLUMBOB_CLIP_SCHEDULE_SIZE(n, keys, 65536u)) __builtin_trap();
    }
    smem = (unsigned char *)malloc(need);
    plumbob_arena_init(&a, smem, need);
    if (plumbob_clip_schedule_build(c, &a, &sc) != PLUMBOB_OK) __builtin_trap();
    need = plumbob_clip_sampler_size(&sc, &b);
    if (need > PLUMBOB_CLIP_SAMPLER_SIZE(n)) __builtin_trap();
    if (plumbob_clip_sampler_size(NULL, &b) != need) __builtin_trap();
    free(hashes);
    hashes = (uint32_t *)malloc(3 * need + 1);
    plumbob_arena_init(&a, hashes, 3 * need + 1);
    if (plumbob_clip_sampler_init(&sc, &b, 0, &a, &s0) != PLUMBOB_OK ||
        plumbob_clip_sampler_init(&sc, &b, PLUMBOB_CLIP_SAMPLER_REFERENCE, &a, &s1) != PLUMBOB_OK ||
        plumbob_clip_sampler_init(NULL, &b, 0, &a, &s2) != PLUMBOB_OK)
        __builtin_trap();
    for (i = 0; i < sizeof times / sizeof times[0]; i++) {
        if (plumbob_clip_sampler_sample(&s0, times[i], p0, (uint32_t)n + 1u, m0, (uint32_t)n + 1u) != PLUMBOB_OK ||
            plumbob_clip_sampler_sample(&s1, times[i], p1, (uint32_t)n + 1u, m1, (uint32_t)n + 1u) != PLUMBOB_OK ||
            plumbob_clip_sampler_sample(&s2, times[i], p2, (uint32_t)n + 1u, m2, (uint32_t)n + 1u) != PLUMBOB_OK)
            __builtin_trap();
        if (memcmp(p0, p2, (n + 1) * sizeof *p0) != 0 || memcmp(m0, m2, (n + 1) * sizeof *m0) != 0) __builtin_trap();
        if (bounded) { /* issue 47: finite decoded values, finite samples */
            fp_require_finite(&p0[0].rotation.x, (n + 1) * 10u);
            fp_require_finite(&p1[0].rotation.x, (n + 1) * 10u);
            fp_require_finite(m0, n + 1);
            fp_require_finite(m1, n + 1);
        }
        if (i == 2 && bounded) chain_model(p0, (uint32_t)n + 1u);
        for (j = 0; j < n; j++) {
            const float *x = &p0[j].rotation.x, *y = &p1[j].rotation.x;
            int k;
            for (k = 0; k < 10; k++)
                if (x[k] - x[k] == 0.0f && y[k] - y[k] == 0.0f && x[k] != y[k]) __builtin_trap();
        }
    }
    free(hashes);
    free(smem);
    free(mem);
    free(p0);
    free(p1);
    free(p2);
    free(m0);
    free(m1);
    free(m2);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    size_t need, i;
    unsigned char *mem;
    plumbob_arena a;
    plumbob_clip c;
    plumbob_clip_cursor cur;
    uint32_t tr, idx[16], n;
    if (measure_checked(data, size, &need) != PLUMBOB_OK) {
        if (need != SIZE_MAX) __builtin_trap();
        return 0;
    }
    if (need > (64u << 20)) return 0;
    mem = (unsigned char *)malloc(need + PLUMBOB_CLIP_CURSOR_SIZE(PLUMBOB_CLIP_MAX_TRACKS));
    plumbob_arena_init(&a, mem, need);
    if (plumbob_clip_decode(data, size, &a, &c) == PLUMBOB_OK) {
        size_t cneed = plumbob_clip_cursor_size(&c);
        if (need != PLUMBOB_CLIP_DECODE_SIZE(c.track_count, c.slot_count, c.event_count) ||
            cneed != PLUMBOB_CLIP_CURSOR_SIZE(c.track_count))
            __builtin_trap();
        int bounded = clip_bound(&c) < FP_SAFE;
        /* what the decoder hands on is finite (issue 47) */
        for (tr = 0; tr < c.track_count; tr++) {
            fp_require_finite(&c.tracks[tr].offset, 1);
            fp_require_finite(&c.tracks[tr].scale, 1);
        }
        for (tr = 0; tr < c.palette_count; tr++) {
            float f;
            memcpy(&f, c.palette + 4u * tr, 4);
            fp_require_finite(&f, 1);
        }
        for (tr = 0; tr < c.events_decoded; tr++) fp_require_finite(&c.events[tr].time, 1);
        plumbob_arena_init(&a, mem + need, cneed);
        if (plumbob_clip_cursor_init(&c, &a, &cur) != PLUMBOB_OK) __builtin_trap();
        for (i = 0; i < 5; i++) {
            float t = (float)i * 0.37f - 0.1f;
            for (tr = 0; tr < c.track_count; tr++) {
                float x[4], y[4];
                if (plumbob_clip_sample_track(&c, tr, t, x) != PLUMBOB_OK ||
                    plumbob_clip_sample_track_cursor(&c, &cur, tr, t, y) != PLUMBOB_OK)
                    __builtin_trap();
                if (memcmp(x, y, sizeof(float) * c.tracks[tr].components) != 0 && x[0] == x[0]) __builtin_trap();
                if (bounded) fp_require_finite(x, c.tracks[tr].components);
            }
        }
        run_samplers(&c);
        (void)plumbob_clip_events_between(&c, 0.0f, 1.0f, false, idx, 16, &n);
        {
            size_t ws = plumbob_clip_write_size(&c), got = 0;
            if (ws != SIZE_MAX) {
                unsigned char *out = (unsigned char *)malloc(ws);
                if (plumbob_clip_write(&c, out, ws, &got) != PLUMBOB_OK || got != ws) __builtin_trap();
                free(out);
            }
        }
    }
    free(mem);
    return 0;
}
