/* Key reduction as `clip import` does it, on every corpus clip: each track
 * sampled at every tick as the game plays it, reduced within the import's
 * default bounds (0.01 degrees, 0.1 mm, 0.001), quantized as the clip
 * writer quantizes, then measured at every tick.  Reports the time per clip
 * and, as context, keys kept against the original's and the worst errors on
 * the float curve (within the bound by construction) and after quantization. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "plumbob.h"
#include "gltf/gltf_import.h"

typedef struct import_ctx {
    const plumbob_clip *clip;
    float *samples, *kept;
    uint16_t *ticks;
    unsigned char *keys;
    uint32_t kept_keys, original_keys, sampled;
    double worst_curve[3], worst_quant[3];
} import_ctx;

static double bound_of(uint32_t comps) { return comps == 4 ? 0.01 : comps == 3 ? 0.0001 : 0.001; }

/* One pass over the clip; with measure, the errors too. */
static void reduce_clip(import_ctx *c, int measure) {
    const plumbob_clip *clip = c->clip;
    uint32_t t, k;
    c->kept_keys = c->original_keys = c->sampled = 0;
    for (t = 0; t < clip->track_count; t++) {
        const plumbob_clip_track *tr = &clip->tracks[t];
        uint32_t comps = tr->components, n, kind = comps == 4 ? 0 : comps == 3 ? 1 : 2;
        uint8_t curve = comps == 4 ? 0x14 : comps == 3 ? 0x12 : 0x05;
        plumbob_clip_track enc;
        if (!tr->key_count || (comps != 4 && comps != 3 && comps != 1)) continue;
        for (k = 0; k < clip->tick_count; k++) {
            float *v = c->samples + (size_t)k * comps;
            (void)plumbob_clip_sample_track(clip, t, (float)k * clip->frame_duration, v);
            if (comps == 4 && k && v[0] * v[-4] + v[1] * v[-3] + v[2] * v[-2] + v[3] * v[-1] < 0) {
                v[0] = -v[0]; v[1] = -v[1]; v[2] = -v[2]; v[3] = -v[3];
            }
        }
        n = clip_import_reduce(c->samples, clip->tick_count, comps, bound_of(comps), c->ticks, c->kept);
        memset(&enc, 0, sizeof enc);
        if (plumbob_clip_encode_track(&enc, tr->hash, curve, tr->target, (uint16_t)n, c->ticks, c->kept, c->keys) != PLUMBOB_OK)
            abort();
        c->kept_keys += n;
        c->original_keys += tr->key_count;
        c->sampled += clip->tick_count;
        if (measure) {
            plumbob_clip one;
            memset(&one, 0, sizeof one);
            one.frame_duration = clip->frame_duration;
            one.tick_count = clip->tick_count;
            one.track_count = 1;
            one.tracks = &enc;
            for (k = 0; k < clip->tick_count; k++) {
                float q[4], *s = c->samples + (size_t)k * comps, line[4];
                double e;
                uint32_t a = 0, j;
                (void)plumbob_clip_sample_track(&one, 0, (float)k * clip->frame_duration, q);
                e = clip_import_error(q, s, comps);
                if (e > c->worst_quant[kind]) c->worst_quant[kind] = e;
                /* the float curve: the kept keys' segment through tick k */
                while (a + 1 < n && c->ticks[a + 1] <= k) a++;
                if (a + 1 < n) {
                    float u = (float)(k - c->ticks[a]) / (float)(c->ticks[a + 1] - c->ticks[a]);
                    const float *p0 = c->kept + (size_t)a * comps, *p1 = p0 + comps;
                    float d = 0, l = 0;
                    for (j = 0; j < comps; j++) d += p0[j] * p1[j];
                    for (j = 0; j < comps; j++) line[j] = p0[j] + ((comps == 4 && d < 0 ? -p1[j] : p1[j]) - p0[j]) * u;
                    if (comps == 4) {
                        for (j = 0; j < 4; j++) l += line[j] * line[j];
                        for (j = 0; j < 4; j++) line[j] /= l > 0 ? sqrtf(l) : 1.0f;
                    }
                } else {
                    memcpy(line, c->kept + (size_t)a * comps, comps * sizeof(float));
                }
                e = clip_import_error(line, s, comps);
                if (e > c->worst_curve[kind]) c->worst_curve[kind] = e;
            }
        }
    }
}

static void run_reduce(void *p) { reduce_clip((import_ctx *)p, 0); }

void bench_import(const bench_opts *o, int samples) {
    static const char *pkgs[] = {"../shared/corpus/sims3/EWBreastfeed.package",
                                 "../shared/corpus/sims3/PetFightingSkill.package"};
    size_t p;
    int found = 0;
    for (p = 0; p < 2; p++) {
        size_t len = 0;
        unsigned char *data = bench_read_file(pkgs[p], &len);
        plumbob_package pkg;
        uint32_t i;
        if (!data) continue;
        if (plumbob_package_open(&pkg, data, len) != PLUMBOB_OK) abort();
        for (i = 0; i < pkg.count && !(o->quick && found >= 2); i++) {
            plumbob_package_entry e;
            const unsigned char *res;
            size_t rs, need = 0;
            unsigned char *buf, *mem;
            plumbob_arena arena;
            plumbob_clip clip;
            import_ctx c;
            bench_stats st;
            char name[64], ctx[400];
            plumbob_package_entry_at(&pkg, i, &e);
            if (e.type != PLUMBOB_TYPE_CLIP) continue;
            buf = (unsigned char *)malloc(e.mem_size);
            if (plumbob_package_read(&pkg, &e, buf, e.mem_size, &res, &rs) != PLUMBOB_OK ||
                plumbob_clip_measure(res, rs, &need) != PLUMBOB_OK)
                abort();
            mem = (unsigned char *)malloc(need ? need : 1);
            plumbob_arena_init(&arena, mem, need);
            if (plumbob_clip_decode(res, rs, &arena, &clip) != PLUMBOB_OK) abort();
            memset(&c, 0, sizeof c);
            c.clip = &clip;
            c.samples = (float *)malloc(sizeof(float) * 4u * (clip.tick_count + 1u));
            c.kept = (float *)malloc(sizeof(float) * 4u * (clip.tick_count + 1u));
            c.ticks = (uint16_t *)malloc(sizeof(uint16_t) * (clip.tick_count + 1u));
            c.keys = (unsigned char *)malloc(12u * (clip.tick_count + 1u));
            if (!c.samples || !c.kept || !c.ticks || !c.keys) abort();
            reduce_clip(&c, 1);
            st = bench_time(run_reduce, &c, samples < 3 ? samples : 3);
            snprintf(name, sizeof name, "import_reduce %016llX", (unsigned long long)e.instance);
            snprintf(ctx, sizeof ctx,
                     "\"tracks\": %u, \"ticks\": %u, \"sampled_keys\": %u, \"kept_keys\": %u, \"original_keys\": %u, "
                     "\"worst_curve_deg\": %.4g, \"worst_curve_m\": %.4g, \"worst_deg\": %.4g, \"worst_m\": %.4g, \"worst_morph\": %.4g",
                     (unsigned)clip.track_count, (unsigned)clip.tick_count, (unsigned)c.sampled, (unsigned)c.kept_keys,
                     (unsigned)c.original_keys, c.worst_curve[0], c.worst_curve[1], c.worst_quant[0], c.worst_quant[1],
                     c.worst_quant[2]);
            bench_report(o, name, "ms", st.median * 1e3, st.min * 1e3, st.max * 1e3, st.n, ctx);
            free(c.samples); free(c.kept); free(c.ticks); free(c.keys);
            free(mem);
            free(buf);
            found++;
        }
        free(data);
    }
    if (!found && !o->json) printf("(../shared/corpus not found: no import_reduce cases)\n");
}
