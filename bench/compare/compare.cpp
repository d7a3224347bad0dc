// plumbob beside ozz-animation and ACL, in one process run (issue 26).
//
// The same inputs for every system: the Sims 3 clips of the corpus packages
// (converted key for key into ozz's RawAnimation, and into ACL's raw tracks
// sampled at every tick, which is the same curve: CLIP keys sit on ticks and
// interpolate linearly), and bench_skin.c's mesh and palette.  Each case runs
// every system once per round, in a rotating order, and reports the median
// of the rounds; the kernels see warm caches unless the case says cold.
//
// Prints a table and writes one JSON object per figure (case, then each
// system's value under its name) to build/compare/compare.jsonl.
// Build and run: make bench-compare OZZ=DIR ACL=DIR RTM=DIR (bench/compare/build.sh).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <time.h>
#include <vector>
#include <sched.h>
#include <unistd.h>

extern "C" {
#include "plumbob.h"
#include "ports.h"
#include "../bench_mesh.h"
/* bench_ik.c's chains, shared with plumbob-bench */
void bench_ik_chains(plumbob_mat34 (*m)[3], plumbob_vec3 *target, plumbob_vec3 *pole, uint32_t n);
}

#include "ozz/animation/offline/animation_builder.h"
#include "ozz/animation/offline/raw_animation.h"
#include "ozz/animation/offline/raw_skeleton.h"
#include "ozz/animation/offline/skeleton_builder.h"
#include "ozz/animation/runtime/animation.h"
#include "ozz/animation/runtime/ik_aim_job.h"
#include "ozz/animation/runtime/ik_two_bone_job.h"
#include "ozz/animation/runtime/local_to_model_job.h"
#include "ozz/animation/runtime/blending_job.h"
#include "ozz/animation/runtime/sampling_job.h"
#include "ozz/animation/runtime/skeleton.h"
#include "ozz/base/maths/simd_math.h"
#include "ozz/base/maths/simd_quaternion.h"
#include "ozz/base/maths/soa_transform.h"
#include "ozz/base/memory/allocator.h"
#include "ozz/base/span.h"
#include "ozz/geometry/runtime/skinning_job.h"

#include <acl/compression/compress.h>
#include <acl/compression/track_array.h>
#include <acl/compression/transform_error_metrics.h>
#include <acl/core/ansi_allocator.h>
#include <acl/decompression/decompress.h>

namespace {

// --- timing and reporting ----------------------------------------------------

double now() {
    timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}

volatile float g_sink;
void keep(const float *p) { g_sink = g_sink + p[0]; }

FILE *g_json;
bool g_quick;

// One figure: the case's context as JSON fragments, and each system's value.
void report(const char *name, const char *unit, const std::string &context,
            const std::vector<std::pair<const char *, double>> &values) {
    printf("%-24s %-16s", name, unit);
    for (auto &v : values) printf(" %s %-10.4g", v.first, v.second);
    printf(" %s\n", context.c_str());
    if (!g_json) return;
    fprintf(g_json, "{\"case\": \"%s\", \"unit\": \"%s\"%s%s", name, unit, context.empty() ? "" : ", ",
            context.c_str());
    for (auto &v : values) fprintf(g_json, ", \"%s\": %.6g", v.first, v.second);
    fprintf(g_json, "}\n");
}

// Runs each system's job `rounds` times, interleaved, in a new shuffled
// order each round (a fixed seed).  Each timed call comes right after an
// untimed call of the same job, so every system starts with its own data as
// warm as the caches hold it: what ran just before otherwise decides that,
// and a rotating order (which keeps each job's predecessor fixed) moved
// ozz's skinning medians by up to 25% against a shuffled one.  Returns each
// one's median seconds per call.
std::vector<double> interleaved(const std::vector<std::function<void()>> &jobs, int rounds) {
    std::vector<std::vector<double>> t(jobs.size());
    std::vector<size_t> order(jobs.size());
    uint32_t seed = 0x9E3779B9u;
    for (auto &j : jobs) j(); // warm-up
    for (size_t k = 0; k < order.size(); k++) order[k] = k;
    for (int r = 0; r < rounds; r++) {
        for (size_t k = order.size(); k > 1; k--) { // Fisher-Yates
            seed = seed * 1664525u + 1013904223u;
            std::swap(order[k - 1], order[(seed >> 8) % k]);
        }
        for (size_t i : order) {
            jobs[i](); // warms this job's data
            double t0 = now();
            jobs[i]();
            t[i].push_back(now() - t0);
        }
    }
    std::vector<double> m;
    for (auto &x : t) m.push_back(median(x));
    return m;
}

// ozz's allocations, counted: what a SamplingJob::Context holds.
class CountingAllocator : public ozz::memory::Allocator {
  public:
    explicit CountingAllocator(ozz::memory::Allocator *inner) : inner_(inner) {}
    void *Allocate(size_t size, size_t alignment) override {
        bytes += size;
        return inner_->Allocate(size, alignment);
    }
    void Deallocate(void *block) override { inner_->Deallocate(block); }
    size_t bytes = 0;

  private:
    ozz::memory::Allocator *inner_;
};

// --- skinning ----------------------------------------------------------------

const uint32_t kJoints = BENCH_SKIN_JOINTS;

// ozz's inputs for a decoded bench mesh: the same positions, normals, joint
// indices and weights, read back from the GMDC's elements.
struct OzzMesh {
    std::vector<float> pos, nrm, weights;
    std::vector<uint16_t> indices;
};

OzzMesh ozz_inputs(const plumbob_gmdc &g, uint32_t n, uint32_t infl) {
    OzzMesh m;
    const plumbob_gmdc_element *p = plumbob_gmdc_find_element(&g, 0, PLUMBOB_GMDC_VERTICES, 0);
    const plumbob_gmdc_element *q = plumbob_gmdc_find_element(&g, 0, PLUMBOB_GMDC_NORMALS, 0);
    const plumbob_gmdc_element *a = plumbob_gmdc_find_element(&g, 0, PLUMBOB_GMDC_BONE_ASSIGNMENTS, 0);
    const plumbob_gmdc_element *w = plumbob_gmdc_find_element(&g, 0, PLUMBOB_GMDC_BONE_WEIGHTS, 0);
    m.pos.resize(n * 3u); m.nrm.resize(n * 3u); m.indices.resize((size_t)n * infl);
    m.weights.resize((size_t)n * (infl - 1u));
    for (uint32_t i = 0; i < n; i++) {
        const unsigned char *ab = a->data + 4u * i;
        for (uint32_t k = 0; k < 3; k++) {
            m.pos[3u * i + k] = plumbob_gmdc_float(p, i, k);
            m.nrm[3u * i + k] = plumbob_gmdc_float(q, i, k);
        }
        for (uint32_t k = 0; k < infl; k++) m.indices[(size_t)i * infl + k] = ab[k]; // slot k: joint (bones[s] = s)
        for (uint32_t k = 0; k + 1 < infl; k++) m.weights[(size_t)i * (infl - 1) + k] = plumbob_gmdc_float(w, i, k);
    }
    return m;
}

// The format-neutral description of the decoded bench mesh (what
// plumbob_gmdc_skin describes to plumbob_skin): the elements' own bytes,
// implied last weights, slot k = joint k.
plumbob_skin_mesh skin_description(const plumbob_gmdc &g, uint32_t n, uint32_t infl) {
    plumbob_skin_mesh d;
    memset(&d, 0, sizeof d);
    d.vertex_count = n;
    d.positions = plumbob_gmdc_find_element(&g, 0, PLUMBOB_GMDC_VERTICES, 0)->data;
    d.position_stride = 12;
    d.normals = plumbob_gmdc_find_element(&g, 0, PLUMBOB_GMDC_NORMALS, 0)->data;
    d.normal_stride = 12;
    d.joints = plumbob_gmdc_find_element(&g, 0, PLUMBOB_GMDC_BONE_ASSIGNMENTS, 0)->data;
    d.joint_stride = 4;
    d.weight_count = infl - 1u;
    d.weights = infl > 1 ? plumbob_gmdc_find_element(&g, 0, PLUMBOB_GMDC_BONE_WEIGHTS, 0)->data : nullptr;
    d.weight_stride = 4u * (infl - 1u);
    d.weight_mode = PLUMBOB_SKIN_WEIGHTS_IMPLIED_LAST;
    d.slot_count = kJoints;
    return d;
}

// The skinning cases' rounds: interleaved() with each job's minimum as well
// as its median.  At 1M vertices (40-70 MB of streams a round) this guest's
// times jump by up to 10x from round to round (other processes' memory
// traffic), so the medians there say little; the minimum of many rounds is
// the uncontended speed, and the harness reports both.
struct SkinTimes {
    std::vector<double> median, min;
};
SkinTimes skin_rounds(const std::vector<std::function<void()>> &jobs, int rounds) {
    std::vector<std::vector<double>> t(jobs.size());
    std::vector<size_t> order(jobs.size());
    uint32_t seed = 0x9E3779B9u;
    for (auto &j : jobs) j(); // warm-up: every output page touched
    for (size_t k = 0; k < order.size(); k++) order[k] = k;
    for (int r = 0; r < rounds; r++) {
        for (size_t k = order.size(); k > 1; k--) {
            seed = seed * 1664525u + 1013904223u;
            std::swap(order[k - 1], order[(seed >> 8) % k]);
        }
        for (size_t i : order) {
            jobs[i]();
            double t0 = now();
            jobs[i]();
            t[i].push_back(now() - t0);
        }
    }
    SkinTimes s;
    for (auto &x : t) {
        s.median.push_back(median(x));
        s.min.push_back(*std::min_element(x.begin(), x.end()));
    }
    return s;
}

// A real mesh (issue 49): the corpus's Sims 3 GEOM (an adult top, 2,011
// vertices, 4 stored weights each, 51 bones), described by
// plumbob_geom_skin_mesh, prepared, and skinned beside plumbob_skin on the
// same description and ozz's SkinningJob on the same influences (4 per
// vertex: the slot bytes as joint indices, the first three weights, ozz's
// last implied).  The palette is synthetic (bench_skin_palette's turns and
// moves for 51 joints): only the mesh's own influences matter for speed.
// Skipped when the corpus is absent.
void bench_skinning_real() {
    const char *dir = getenv("PLUMBOB_CORPUS");
    std::string path = std::string(dir ? dir : "../shared/corpus") + "/sims3/afTopBlouseOffShoulder_lod1.simgeom";
    FILE *f = fopen(path.c_str(), "rb");
    if (!f) {
        printf("skin_real: %s not found, skipped\n", path.c_str());
        return;
    }
    std::vector<unsigned char> data;
    unsigned char buf[65536];
    size_t got;
    while ((got = fread(buf, 1, sizeof buf, f)) > 0) data.insert(data.end(), buf, buf + got);
    fclose(f);
    size_t need = 0;
    if (plumbob_geom_measure(data.data(), data.size(), &need) != PLUMBOB_OK) abort();
    std::vector<unsigned char> mem(need + 64);
    plumbob_arena a;
    plumbob_geom g;
    plumbob_arena_init(&a, mem.data(), mem.size());
    if (plumbob_geom_decode(data.data(), data.size(), &a, &g) != PLUMBOB_OK) abort();
    const uint32_t n = g.vertex_count;
    static unsigned char work[PLUMBOB_SKIN_WORK_SIZE], pwork[PLUMBOB_SKIN_PREPARED_WORK_SIZE];
    for (int normals = 0; normals <= 1; normals++) {
        plumbob_skin_mesh desc;
        if (plumbob_geom_skin_mesh(&g, normals ? PLUMBOB_GEOM_NORMAL : 0u, &desc) != PLUMBOB_OK) abort();
        const uint32_t joints = desc.slot_count;
        std::vector<plumbob_mat34> palette(joints);
        for (uint32_t j = 0; j < joints; j++) {
            plumbob_quat q = {0, 0, 0.0998334f, 0.9950042f};
            plumbob_vec3 t = {0.1f * (float)(j % 32u), 0.01f * (float)(j / 32u), 0};
            palette[j] = plumbob_mat34_from_rt(q, t);
        }
        std::vector<ozz::math::Float4x4> mats(joints);
        for (uint32_t j = 0; j < joints; j++)
            for (int c = 0; c < 4; c++)
                mats[j].cols[c] = ozz::math::simd_float4::Load(palette[j].m[0][c], palette[j].m[1][c],
                                                             palette[j].m[2][c], c == 3 ? 1.0f : 0.0f);
        // ozz's inputs: 4 influences, slots past the list (unused) as joint 0 weight 0
        std::vector<float> pos((size_t)n * 3), nrm((size_t)n * 3), weights((size_t)n * 3);
        std::vector<uint16_t> idx((size_t)n * 4);
        uint32_t used[5] = {0, 0, 0, 0, 0};
        for (uint32_t v = 0; v < n; v++) {
            const unsigned char *jb = desc.joints + desc.joint_stride * (size_t)v;
            uint32_t u = 0;
            for (uint32_t c = 0; c < 3; c++) {
                float x;
                memcpy(&x, desc.positions + desc.position_stride * (size_t)v + 4u * c, 4);
                pos[3u * v + c] = x;
                if (normals) memcpy(&x, desc.normals + desc.normal_stride * (size_t)v + 4u * c, 4);
                nrm[3u * v + c] = normals ? x : 0.0f;
            }
            for (uint32_t k = 0; k < 4; k++) {
                float w;
                memcpy(&w, desc.weights + desc.weight_stride * (size_t)v + 4u * k, 4);
                idx[4u * v + k] = jb[k] < joints ? jb[k] : 0;
                if (jb[k] >= joints) w = 0.0f;
                if (k < 3) weights[3u * v + k] = w;
                u += w != 0.0f;
            }
            used[u]++;
        }
        size_t stride = normals ? 6 : 3;
        std::vector<float> out_s((size_t)n * stride), out_o((size_t)n * stride), out_q((size_t)n * stride),
            out_qr((size_t)n * stride);
        plumbob_skin_job sj;
        memset(&sj, 0, sizeof sj);
        sj.mesh = &desc;
        sj.palette = palette.data();
        sj.palette_count = joints;
        sj.work = work;
        sj.positions = out_s.data();
        sj.position_stride = stride;
        sj.position_count = n;
        sj.normals = normals ? out_s.data() + 3 : nullptr;
        sj.normal_stride = 6;
        sj.normal_count = n;
        ozz::geometry::SkinningJob oj;
        oj.vertex_count = (int)n;
        oj.influences_count = 4;
        oj.joint_matrices = ozz::make_span(mats);
        oj.joint_indices = ozz::make_span(idx);
        oj.joint_indices_stride = sizeof(uint16_t) * 4;
        oj.joint_weights = ozz::make_span(weights);
        oj.joint_weights_stride = sizeof(float) * 3;
        oj.in_positions = ozz::make_span(pos);
        oj.in_positions_stride = sizeof(float) * 3;
        oj.out_positions = ozz::make_span(out_o);
        oj.out_positions_stride = sizeof(float) * stride;
        if (normals) {
            oj.in_normals = ozz::make_span(nrm);
            oj.in_normals_stride = sizeof(float) * 3;
            oj.out_normals = ozz::span<float>(out_o.data() + 3, out_o.size() - 3);
            oj.out_normals_stride = sizeof(float) * 6;
        }
        if (!oj.Validate()) abort();
        // ozz as its own mesh format runs it: vertices split into parts by
        // the influences they use (1 to 4, zero weights dropped), one job a
        // part, the part's vertices packed (so in another order)
        struct Part {
            std::vector<float> pos, nrm, w, out;
            std::vector<uint16_t> idx;
            ozz::geometry::SkinningJob job;
        };
        std::vector<Part> parts(4);
        for (uint32_t v = 0; v < n; v++) {
            uint16_t ji[4];
            float wv[4];
            uint32_t u = 0;
            for (uint32_t k = 0; k < 4; k++) {
                float w;
                memcpy(&w, desc.weights + desc.weight_stride * (size_t)v + 4u * k, 4);
                uint32_t jb = desc.joints[desc.joint_stride * (size_t)v + k];
                if (jb >= joints || w == 0.0f) continue;
                ji[u] = (uint16_t)jb;
                wv[u++] = w;
            }
            if (!u) ji[u] = 0, wv[u++] = 1.0f;
            Part &pt = parts[u - 1];
            for (uint32_t c = 0; c < 3; c++) {
                pt.pos.push_back(pos[3u * v + c]);
                pt.nrm.push_back(nrm[3u * v + c]);
            }
            for (uint32_t k = 0; k < u; k++) pt.idx.push_back(ji[k]);
            for (uint32_t k = 0; k + 1 < u; k++) pt.w.push_back(wv[k]);
        }
        for (uint32_t k = 0; k < 4; k++) {
            Part &pt = parts[k];
            size_t pn = pt.pos.size() / 3;
            pt.out.resize(pn * stride + 1);
            ozz::geometry::SkinningJob &j = pt.job;
            j.vertex_count = (int)pn;
            j.influences_count = (int)k + 1;
            j.joint_matrices = ozz::make_span(mats);
            j.joint_indices = ozz::make_span(pt.idx);
            j.joint_indices_stride = sizeof(uint16_t) * (k + 1);
            if (k) {
                j.joint_weights = ozz::make_span(pt.w);
                j.joint_weights_stride = sizeof(float) * k;
            }
            j.in_positions = ozz::make_span(pt.pos);
            j.in_positions_stride = sizeof(float) * 3;
            j.out_positions = ozz::make_span(pt.out);
            j.out_positions_stride = sizeof(float) * stride;
            if (normals) {
                j.in_normals = ozz::make_span(pt.nrm);
                j.in_normals_stride = sizeof(float) * 3;
                j.out_normals = ozz::span<float>(pt.out.data() + 3, pt.out.size() - 3);
                j.out_normals_stride = sizeof(float) * 6;
            }
            if (pn && !j.Validate()) abort();
        }
        uint32_t popt = normals ? 0u : PLUMBOB_SKIN_PREPARE_POSITIONS_ONLY;
        size_t pbytes = 0;
        if (plumbob_skin_prepared_size(&desc, popt, &pbytes) != PLUMBOB_OK) abort();
        std::vector<unsigned char> pmem(pbytes);
        plumbob_skin_prepared_mesh pm;
        std::vector<double> prep_t;
        for (int r = 0; r < 31; r++) {
            double t0 = now();
            if (plumbob_skin_prepare(&desc, popt, pmem.data(), pmem.size(), &pm) != PLUMBOB_OK) abort();
            prep_t.push_back(now() - t0);
        }
        plumbob_skin_prepared_job pj;
        memset(&pj, 0, sizeof pj);
        pj.mesh = &pm;
        pj.palette = palette.data();
        pj.palette_count = joints;
        pj.work = pwork;
        pj.positions = out_q.data();
        pj.position_stride = stride;
        pj.position_count = n;
        pj.normals = normals ? out_q.data() + 3 : nullptr;
        pj.normal_stride = 6;
        pj.normal_count = n;
        plumbob_skin_prepared_job pjr = pj;
        pjr.flags = PLUMBOB_SKIN_UNNORMALIZED;
        pjr.positions = out_qr.data();
        pjr.normals = normals ? out_qr.data() + 3 : nullptr;
        // the sorted layout (PLUMBOB_SKIN_PREPARE_SORTED): spans of one
        // shape, output in the prepared order
        size_t sbytes = 0;
        if (plumbob_skin_prepared_size(&desc, popt | PLUMBOB_SKIN_PREPARE_SORTED, &sbytes) != PLUMBOB_OK) abort();
        std::vector<unsigned char> smem(sbytes);
        plumbob_skin_prepared_mesh sm;
        std::vector<double> sprep_t;
        for (int r = 0; r < 31; r++) {
            double t0 = now();
            if (plumbob_skin_prepare(&desc, popt | PLUMBOB_SKIN_PREPARE_SORTED, smem.data(), smem.size(), &sm) != PLUMBOB_OK)
                abort();
            sprep_t.push_back(now() - t0);
        }
        std::vector<uint32_t> order(n);
        if (plumbob_skin_prepared_order(&desc, PLUMBOB_SKIN_PREPARE_SORTED, order.data(), n) != PLUMBOB_OK) abort();
        std::vector<float> out_sr((size_t)n * stride), out_ss((size_t)n * stride);
        // the shared layout (PLUMBOB_SKIN_PREPARE_SHARED): fours of one
        // tuple share their matrices
        size_t hbytes = 0;
        if (plumbob_skin_prepared_size(&desc, popt | PLUMBOB_SKIN_PREPARE_SHARED, &hbytes) != PLUMBOB_OK) abort();
        std::vector<unsigned char> hmem(hbytes);
        plumbob_skin_prepared_mesh hm;
        std::vector<double> hprep_t;
        for (int r = 0; r < 31; r++) {
            double t0 = now();
            if (plumbob_skin_prepare(&desc, popt | PLUMBOB_SKIN_PREPARE_SHARED, hmem.data(), hmem.size(), &hm) != PLUMBOB_OK)
                abort();
            hprep_t.push_back(now() - t0);
        }
        std::vector<uint32_t> horder(n);
        if (plumbob_skin_prepared_order(&desc, PLUMBOB_SKIN_PREPARE_SHARED, horder.data(), n) != PLUMBOB_OK) abort();
        std::vector<float> out_hs((size_t)n * stride), out_hr((size_t)n * stride);
        plumbob_skin_prepared_job phj = pj, phr = pjr;
        phj.mesh = &hm;
        phj.positions = out_hs.data();
        phj.normals = normals ? out_hs.data() + 3 : nullptr;
        phr.mesh = &hm;
        phr.positions = out_hr.data();
        phr.normals = normals ? out_hr.data() + 3 : nullptr;
        plumbob_skin_prepared_job psj = pj, psr = pjr;
        psj.mesh = &sm;
        psj.positions = out_ss.data();
        psj.normals = normals ? out_ss.data() + 3 : nullptr;
        psr.mesh = &sm;
        psr.positions = out_sr.data();
        psr.normals = normals ? out_sr.data() + 3 : nullptr;
        SkinTimes t = skin_rounds(
            {[&] { if (plumbob_skin(&sj) != PLUMBOB_OK) abort(); keep(out_s.data()); },
             [&] { if (!oj.Run()) abort(); keep(out_o.data()); },
             [&] { if (plumbob_skin_prepared(&pj) != PLUMBOB_OK) abort(); keep(out_q.data()); },
             [&] { if (plumbob_skin_prepared(&pjr) != PLUMBOB_OK) abort(); keep(out_qr.data()); },
             [&] {
                 for (Part &pt : parts)
                     if (pt.job.vertex_count && !pt.job.Run()) abort();
                 keep(parts[0].out.data());
             },
             [&] { if (plumbob_skin_prepared(&psj) != PLUMBOB_OK) abort(); keep(out_ss.data()); },
             [&] { if (plumbob_skin_prepared(&psr) != PLUMBOB_OK) abort(); keep(out_sr.data()); },
             [&] { if (plumbob_skin_prepared(&phj) != PLUMBOB_OK) abort(); keep(out_hs.data()); },
             [&] { if (plumbob_skin_prepared(&phr) != PLUMBOB_OK) abort(); keep(out_hr.data()); }},
            g_quick ? 21 : 401);
        // the shared output: vertex horder[i] at i, within float rounding
        double worst_h = 0;
        for (uint32_t i = 0; i < n; i++)
            for (size_t c = 0; c < stride; c++)
                worst_h = std::max(worst_h, (double)std::fabs(out_hr[stride * i + c] - out_qr[stride * horder[i] + c]));
        // the sorted output is the unsorted one, vertex order[i] at i
        for (uint32_t i = 0; i < n; i++)
            for (size_t c = 0; c < stride; c++)
                if (out_sr[stride * i + c] != out_qr[stride * order[i] + c]) abort();
        double worst = 0, worst_s = 0;
        for (size_t i = 0; i < out_qr.size(); i++) worst = std::max(worst, (double)std::fabs(out_qr[i] - out_o[i]));
        for (size_t i = 0; i < out_q.size(); i++) worst_s = std::max(worst_s, (double)std::fabs(out_q[i] - out_s[i]));
        char ctx[512];
        snprintf(ctx, sizeof ctx,
                 "\"mesh\": \"afTopBlouseOffShoulder_lod1\", \"vertices\": %u, \"joints\": %u, \"normals\": %s, "
                 "\"vertices_by_influences\": [%u, %u, %u, %u, %u], \"spans\": %u, \"port\": \"%s\", "
                 "\"unnormalized_max_difference_ozz\": %.2g, \"max_difference_skin\": %.2g",
                 n, joints, normals ? "true" : "false", used[0], used[1], used[2], used[3], used[4], pm.span_count,
                 PLUMBOB_PORT_NAME, worst, worst_s);
        double ozz_part_bytes = 0;
        for (Part &pt : parts) ozz_part_bytes += 4.0 * (pt.pos.size() + (normals ? pt.nrm.size() : 0) + pt.w.size()) + 2.0 * pt.idx.size();
        report("skin_real", "ns_per_vertex", ctx,
               {{"skin", t.median[0] / n * 1e9}, {"prepared", t.median[2] / n * 1e9},
                {"prepared_unnormalized", t.median[3] / n * 1e9}, {"ozz4", t.median[1] / n * 1e9},
                {"ozz_parts", t.median[4] / n * 1e9}, {"sorted", t.median[5] / n * 1e9},
                {"sorted_unnormalized", t.median[6] / n * 1e9}});
        report("skin_real_sorted", "x/ozz_parts", ctx,
               {{"sorted", t.median[5] / t.median[4]}, {"sorted_unnormalized", t.median[6] / t.median[4]},
                {"sorted_unnormalized_min", t.min[6] / t.min[4]}, {"bytes_per_vertex", (double)sm.bytes / n},
                {"spans", (double)sm.span_count}, {"prepare_ns_per_vertex", median(sprep_t) / n * 1e9}});
        report("skin_real_shared", "x/ozz_parts", ctx,
               {{"shared", t.median[7] / t.median[4]}, {"shared_unnormalized", t.median[8] / t.median[4]},
                {"shared_unnormalized_min", t.min[8] / t.min[4]}, {"shared_ns_per_vertex", t.median[7] / n * 1e9},
                {"shared_unnormalized_ns_per_vertex", t.median[8] / n * 1e9},
                {"shared_fraction", (double)hm.shared_vertices / n}, {"bytes_per_vertex", (double)hm.bytes / n},
                {"spans", (double)hm.span_count}, {"prepare_ns_per_vertex", median(hprep_t) / n * 1e9},
                {"max_difference_prepared", worst_h}});
        report("skin_real_ratio", "x/ozz_parts", ctx,
               {{"skin", t.median[0] / t.median[4]}, {"prepared", t.median[2] / t.median[4]},
                {"prepared_unnormalized", t.median[3] / t.median[4]}, {"prepared_unnormalized_over_ozz4", t.median[3] / t.median[1]},
                {"prepared_unnormalized_min", t.min[3] / t.min[4]}});
        report("skin_real_mesh", "bytes_per_vertex", ctx,
               {{"prepared", (double)pm.bytes / n}, {"ozz4", 12.0 + (normals ? 12.0 : 0.0) + 8.0 + 12.0},
                {"ozz_parts", ozz_part_bytes / n}, {"prepare_ns_per_vertex", median(prep_t) / n * 1e9}});
    }
}

void bench_skinning() {
    static const uint32_t sizes[3] = {10000, 100000, 1000000};
    static unsigned char work[PLUMBOB_GMDC_SKIN_WORK_SIZE];
    static unsigned char pwork[PLUMBOB_SKIN_PREPARED_WORK_SIZE];
    for (uint32_t size : sizes) {
        if (g_quick && size == 1000000) break;
        for (uint32_t infl = 1; infl <= 4; infl++) {
            size_t bytes, need;
            unsigned char *mesh = bench_skin_mesh(size, infl, &bytes); // bench_skin.c's own mesh
            if (plumbob_gmdc_measure(mesh, bytes, &need) != PLUMBOB_OK) abort();
            std::vector<unsigned char> mem(need);
            plumbob_arena a;
            plumbob_gmdc g;
            plumbob_arena_init(&a, mem.data(), need);
            if (plumbob_gmdc_decode(mesh, bytes, &a, &g) != PLUMBOB_OK) abort();
            plumbob_mat34 palette[kJoints];
            bench_skin_palette(&g, palette);
            OzzMesh m = ozz_inputs(g, size, infl);
            // the same matrices for ozz: columns of the 3x4 rows, w row 0 0 0 1
            std::vector<ozz::math::Float4x4> mats(kJoints);
            for (uint32_t j = 0; j < kJoints; j++)
                for (int c = 0; c < 4; c++)
                    mats[j].cols[c] = ozz::math::simd_float4::Load(palette[j].m[0][c], palette[j].m[1][c],
                                                                 palette[j].m[2][c], c == 3 ? 1.0f : 0.0f);
            for (int normals = 0; normals <= 1; normals++) {
                size_t stride = normals ? 6 : 3;
                std::vector<float> out_p((size_t)size * stride), out_o((size_t)size * stride);
                plumbob_gmdc_skin_job job;
                memset(&job, 0, sizeof job);
                job.gmdc = &g;
                job.palette = palette;
                job.palette_count = kJoints;
                job.work = work;
                job.positions = out_p.data();
                job.position_stride = stride;
                job.position_count = (uint32_t)size;
                job.normals = normals ? out_p.data() + 3 : nullptr;
                job.normal_stride = 6;
                job.normal_count = (uint32_t)size;
                ozz::geometry::SkinningJob oj;
                oj.vertex_count = (int)size;
                oj.influences_count = (int)infl;
                oj.joint_matrices = ozz::make_span(mats);
                oj.joint_indices = ozz::make_span(m.indices);
                oj.joint_indices_stride = sizeof(uint16_t) * infl;
                if (infl > 1) {
                    oj.joint_weights = ozz::make_span(m.weights);
                    oj.joint_weights_stride = sizeof(float) * (infl - 1);
                }
                oj.in_positions = ozz::make_span(m.pos);
                oj.in_positions_stride = sizeof(float) * 3;
                oj.out_positions = ozz::make_span(out_o);
                oj.out_positions_stride = sizeof(float) * stride;
                if (normals) {
                    oj.in_normals = ozz::make_span(m.nrm);
                    oj.in_normals_stride = sizeof(float) * 3;
                    oj.out_normals = ozz::span<float>(out_o.data() + 3, out_o.size() - 3);
                    oj.out_normals_stride = sizeof(float) * 6;
                }
                if (!oj.Validate()) abort();
                // memcpy of the same bytes in and out: the bandwidth line
                size_t bytes_in = (size_t)size * (12u + 4u + 4u * (infl > 1 ? infl - 1 : 1) + (normals ? 12u : 0u));
                size_t bytes_out = (size_t)size * (normals ? 24u : 12u);
                std::vector<unsigned char> cin(bytes_in + bytes_out, 1), cout(bytes_in + bytes_out, 2);
                int rounds = g_quick ? 5 : size >= 1000000 ? 41 : 31;
                // the option that skips renormalizing normals, as ozz does
                plumbob_gmdc_skin_job raw = job;
                std::vector<float> out_r((size_t)size * stride);
                raw.flags = PLUMBOB_SKIN_UNNORMALIZED;
                raw.positions = out_r.data();
                raw.normals = normals ? out_r.data() + 3 : nullptr;
                // the prepared mesh (issue 49): prepared once from the
                // description, positions only where the case has no normals
                plumbob_skin_mesh desc = skin_description(g, size, infl);
                uint32_t popt = normals ? 0u : PLUMBOB_SKIN_PREPARE_POSITIONS_ONLY;
                size_t pbytes = 0;
                if (plumbob_skin_prepared_size(&desc, popt, &pbytes) != PLUMBOB_OK) abort();
                std::vector<unsigned char> pmem(pbytes);
                plumbob_skin_prepared_mesh pm;
                std::vector<double> prep_t;
                for (int r = 0; r < (size >= 1000000 ? 3 : 7); r++) {
                    double t0 = now();
                    if (plumbob_skin_prepare(&desc, popt, pmem.data(), pmem.size(), &pm) != PLUMBOB_OK) abort();
                    prep_t.push_back(now() - t0);
                }
                plumbob_skin_prepared_job pj;
                memset(&pj, 0, sizeof pj);
                pj.mesh = &pm;
                pj.palette = palette;
                pj.palette_count = kJoints;
                pj.work = pwork;
                std::vector<float> out_q((size_t)size * stride), out_qr((size_t)size * stride);
                pj.positions = out_q.data();
                pj.position_stride = stride;
                pj.position_count = (uint32_t)size;
                pj.normals = normals ? out_q.data() + 3 : nullptr;
                pj.normal_stride = 6;
                pj.normal_count = (uint32_t)size;
                plumbob_skin_prepared_job pjr = pj;
                pjr.flags = PLUMBOB_SKIN_UNNORMALIZED;
                pjr.positions = out_qr.data();
                pjr.normals = normals ? out_qr.data() + 3 : nullptr;
                // the shared layout (PLUMBOB_SKIN_PREPARE_SHARED): output in its order
                uint32_t hopt = popt | PLUMBOB_SKIN_PREPARE_SHARED;
                size_t hbytes = 0;
                if (plumbob_skin_prepared_size(&desc, hopt, &hbytes) != PLUMBOB_OK) abort();
                std::vector<unsigned char> hmem(hbytes);
                plumbob_skin_prepared_mesh hm;
                std::vector<double> hprep_t;
                for (int r = 0; r < (size >= 1000000 ? 3 : 7); r++) {
                    double t0 = now();
                    if (plumbob_skin_prepare(&desc, hopt, hmem.data(), hmem.size(), &hm) != PLUMBOB_OK) abort();
                    hprep_t.push_back(now() - t0);
                }
                std::vector<uint32_t> horder(size);
                if (plumbob_skin_prepared_order(&desc, hopt, horder.data(), size) != PLUMBOB_OK) abort();
                std::vector<float> out_h((size_t)size * stride), out_hr((size_t)size * stride);
                plumbob_skin_prepared_job phj = pj, phr = pjr;
                phj.mesh = &hm;
                phj.positions = out_h.data();
                phj.normals = normals ? out_h.data() + 3 : nullptr;
                phr.mesh = &hm;
                phr.positions = out_hr.data();
                phr.normals = normals ? out_hr.data() + 3 : nullptr;
                SkinTimes st = skin_rounds(
                    {[&] { if (plumbob_gmdc_skin(&job) != PLUMBOB_OK) abort(); keep(out_p.data()); },
                     [&] { if (!oj.Run()) abort(); keep(out_o.data()); },
                     [&] { memcpy(cout.data(), cin.data(), cin.size()); keep((const float *)cout.data()); },
                     [&] { if (plumbob_gmdc_skin(&raw) != PLUMBOB_OK) abort(); keep(out_r.data()); },
                     [&] { if (plumbob_skin_prepared(&pj) != PLUMBOB_OK) abort(); keep(out_q.data()); },
                     [&] { if (plumbob_skin_prepared(&pjr) != PLUMBOB_OK) abort(); keep(out_qr.data()); },
                     [&] { if (plumbob_skin_prepared(&phj) != PLUMBOB_OK) abort(); keep(out_h.data()); },
                     [&] { if (plumbob_skin_prepared(&phr) != PLUMBOB_OK) abort(); keep(out_hr.data()); }},
                    rounds);
                double worst_h = 0; // vertex horder[i] at i, against ozz's
                for (uint32_t i = 0; i < size; i++)
                    for (size_t c = 0; c < stride; c++)
                        worst_h = std::max(worst_h, (double)std::fabs(out_hr[stride * i + c] - out_o[stride * horder[i] + c]));
                const std::vector<double> &t = st.median, &tm = st.min;
                // both computed the same vertices (within float rounding)
                double worst = 0, worst_raw = 0;
                for (size_t i = 0; i < out_p.size(); i++) worst = std::max(worst, (double)std::fabs(out_p[i] - out_o[i]));
                for (size_t i = 0; i < out_r.size(); i++) worst_raw = std::max(worst_raw, (double)std::fabs(out_r[i] - out_o[i]));
                double worst_q = 0;
                for (size_t i = 0; i < out_qr.size(); i++) worst_q = std::max(worst_q, (double)std::fabs(out_qr[i] - out_o[i]));
                double ozz_bytes = 12.0 + (normals ? 12.0 : 0.0) + 2.0 * infl + 4.0 * (infl - 1);
                char ctx[256];
                snprintf(ctx, sizeof ctx, "\"vertices\": %u, \"influences\": %u, \"normals\": %s, \"port\": \"%s\", "
                         "\"max_difference\": %.2g, \"unnormalized_max_difference\": %.2g, \"memcpy_ns_per_vertex\": %.3f",
                         size, infl, normals ? "true" : "false", PLUMBOB_PORT_NAME, worst, worst_raw, t[2] / size * 1e9);
                report("skin", "ns_per_vertex", ctx,
                       {{"plumbob", t[0] / size * 1e9}, {"plumbob_unnormalized", t[3] / size * 1e9}, {"ozz", t[1] / size * 1e9}});
                report("skin_ratio", "plumbob/ozz", ctx, {{"plumbob", t[0] / t[1]}, {"plumbob_unnormalized", t[3] / t[1]}});
                report("skin_bandwidth", "memcpy_fraction", ctx,
                       {{"plumbob", t[2] / t[0]}, {"plumbob_unnormalized", t[2] / t[3]}, {"ozz", t[2] / t[1]}});
                char pctx[448];
                snprintf(pctx, sizeof pctx, "%s, \"prepared_max_difference\": %.2g", ctx, worst_q);
                report("skin_prepared", "ns_per_vertex", pctx,
                       {{"prepared", t[4] / size * 1e9}, {"prepared_unnormalized", t[5] / size * 1e9}, {"ozz", t[1] / size * 1e9}});
                report("skin_prepared_ratio", "prepared/ozz", pctx,
                       {{"prepared", t[4] / t[1]}, {"prepared_unnormalized", t[5] / t[1]}});
                report("skin_prepared_bandwidth", "memcpy_fraction", pctx,
                       {{"prepared", t[2] / t[4]}, {"prepared_unnormalized", t[2] / t[5]}});
                // the fastest round of each: the uncontended figures (what the 1M rows can use)
                report("skin_prepared_min", "ns_per_vertex", pctx,
                       {{"prepared", tm[4] / size * 1e9}, {"prepared_unnormalized", tm[5] / size * 1e9},
                        {"ozz", tm[1] / size * 1e9}, {"memcpy", tm[2] / size * 1e9}});
                report("skin_prepared_min_ratio", "prepared/ozz", pctx,
                       {{"prepared", tm[4] / tm[1]}, {"prepared_unnormalized", tm[5] / tm[1]},
                        {"memcpy_fraction_unnormalized", tm[2] / tm[5]}, {"memcpy_fraction_ozz", tm[2] / tm[1]}});
                report("skin_prepared_mesh", "bytes_per_vertex", pctx,
                       {{"prepared", (double)pm.bytes / size}, {"ozz", ozz_bytes},
                        {"prepare_ns_per_vertex", median(prep_t) / size * 1e9}});
                report("skin_prepared_shared", "ns_per_vertex", pctx,
                       {{"shared", t[6] / size * 1e9}, {"shared_unnormalized", t[7] / size * 1e9}, {"ozz", t[1] / size * 1e9},
                        {"shared_min", tm[6] / size * 1e9}, {"shared_unnormalized_min", tm[7] / size * 1e9},
                        {"ozz_min", tm[1] / size * 1e9}});
                report("skin_prepared_shared_ratio", "shared/ozz", pctx,
                       {{"shared", t[6] / t[1]}, {"shared_unnormalized", t[7] / t[1]},
                        {"shared_min", tm[6] / tm[1]}, {"shared_unnormalized_min", tm[7] / tm[1]},
                        {"shared_over_prepared_unnormalized", t[7] / t[5]}});
                report("skin_prepared_shared_mesh", "bytes_per_vertex", pctx,
                       {{"shared", (double)hm.bytes / size}, {"ozz", ozz_bytes},
                        {"shared_fraction", (double)hm.shared_vertices / size},
                        {"prepare_ns_per_vertex", median(hprep_t) / size * 1e9},
                        {"unnormalized_max_difference_ozz", worst_h}});
            }
            free(mesh);
        }
    }
    bench_skinning_real();
}

// --- IK ----------------------------------------------------------------------

// plumbob's 3x4 row-major matrix (column vectors) as ozz's column-major 4x4.
ozz::math::Float4x4 ozz_matrix(const plumbob_mat34 &m) {
    ozz::math::Float4x4 r;
    for (int c = 0; c < 4; c++)
        r.cols[c] = ozz::math::simd_float4::Load(m.m[0][c], m.m[1][c], m.m[2][c], c == 3 ? 1.0f : 0.0f);
    return r;
}

// The two-bone and aim jobs over bench_ik.c's 1,024 chains, ns per solve.
// ozz's two-bone job wants the middle joint's bend axis in its local space:
// the current bend plane's normal, as plumbob's job takes it; both get the
// same target, pole, weight 1 and soften 0.97.  The aim case aims the end
// joint's x axis, y up, with an offset of 5 cm along y.
void bench_ik() {
    const uint32_t n = 1024;
    std::vector<plumbob_mat34> flat(n * 3);
    std::vector<plumbob_vec3> target(n), pole(n);
    bench_ik_chains(reinterpret_cast<plumbob_mat34(*)[3]>(flat.data()), target.data(), pole.data(), n);
    std::vector<ozz::math::Float4x4> om(n * 3);
    std::vector<ozz::math::SimdFloat4> ot(n), op(n), axis(n);
    for (uint32_t k = 0; k < n; k++) {
        for (int i = 0; i < 3; i++) om[3 * k + i] = ozz_matrix(flat[3 * k + i]);
        ot[k] = ozz::math::simd_float4::Load(target[k].x, target[k].y, target[k].z, 1.0f);
        op[k] = ozz::math::simd_float4::Load(pole[k].x, pole[k].y, pole[k].z, 0.0f);
        // bend normal (start - mid) x (end - mid), in the middle joint's frame
        const plumbob_mat34 &s = flat[3 * k], &m = flat[3 * k + 1], &e = flat[3 * k + 2];
        double u[3], v[3], c[3], l[3] = {0, 0, 0}, len = 0;
        for (int i = 0; i < 3; i++) { u[i] = s.m[i][3] - m.m[i][3]; v[i] = e.m[i][3] - m.m[i][3]; }
        c[0] = u[1] * v[2] - u[2] * v[1]; c[1] = u[2] * v[0] - u[0] * v[2]; c[2] = u[0] * v[1] - u[1] * v[0];
        for (int j = 0; j < 3; j++)
            for (int i = 0; i < 3; i++) l[j] += m.m[i][j] * c[i]; // transpose of the rotation
        for (int j = 0; j < 3; j++) len += l[j] * l[j];
        len = std::sqrt(len);
        axis[k] = ozz::math::simd_float4::Load((float)(l[0] / len), (float)(l[1] / len), (float)(l[2] / len), 0.0f);
    }
    std::vector<plumbob_ik_two_bone_result> pout(n);
    std::vector<plumbob_ik_aim_result> paim(n);
    std::vector<ozz::math::SimdQuaternion> oq(n * 2), oaim(n);
    std::vector<char> oreached(n);
    int rounds = g_quick ? 9 : 101;
    auto run_p2 = [&] {
        for (uint32_t k = 0; k < n; k++) {
            plumbob_ik_two_bone_job j;
            j.start = &flat[3 * k]; j.mid = &flat[3 * k + 1]; j.end = &flat[3 * k + 2];
            j.target = target[k]; j.pole = pole[k];
            j.weight = 1.0f; j.soften = 0.97f; j.twist_angle = 0.0f;
            if (plumbob_ik_two_bone(&j, &pout[k]) != PLUMBOB_OK) abort();
        }
        keep(&pout[0].start_correction.x);
    };
    auto run_o2 = [&] {
        for (uint32_t k = 0; k < n; k++) {
            ozz::animation::IKTwoBoneJob j;
            bool reached;
            j.target = ot[k]; j.pole_vector = op[k]; j.mid_axis = axis[k];
            j.weight = 1.0f; j.soften = 0.97f; j.twist_angle = 0.0f;
            j.start_joint = &om[3 * k]; j.mid_joint = &om[3 * k + 1]; j.end_joint = &om[3 * k + 2];
            j.start_joint_correction = &oq[2 * k]; j.mid_joint_correction = &oq[2 * k + 1];
            j.reached = &reached;
            if (!j.Run()) abort();
            oreached[k] = reached;
        }
        keep(reinterpret_cast<const float *>(&oq[0]));
    };
    auto run_pa = [&] {
        for (uint32_t k = 0; k < n; k++) {
            plumbob_ik_aim_job j;
            memset(&j, 0, sizeof j);
            j.joint = &flat[3 * k + 2]; j.target = target[k];
            j.forward.x = 1.0f; j.up.y = 1.0f; j.pole = pole[k]; j.offset.y = 0.05f; j.weight = 1.0f;
            if (plumbob_ik_aim(&j, &paim[k]) != PLUMBOB_OK) abort();
        }
        keep(&paim[0].correction.x);
    };
    const ozz::math::SimdFloat4 fwd = ozz::math::simd_float4::x_axis(), up = ozz::math::simd_float4::y_axis(),
                                off = ozz::math::simd_float4::Load(0.0f, 0.05f, 0.0f, 0.0f);
    auto run_oa = [&] {
        for (uint32_t k = 0; k < n; k++) {
            ozz::animation::IKAimJob j;
            bool reached;
            j.target = ot[k]; j.forward = fwd; j.up = up; j.pole_vector = op[k]; j.offset = off; j.weight = 1.0f;
            j.joint = &om[3 * k + 2];
            j.joint_correction = &oaim[k];
            j.reached = &reached;
            if (!j.Run()) abort();
        }
        keep(reinterpret_cast<const float *>(&oaim[0]));
    };
    std::vector<double> t = interleaved({run_p2, run_o2, run_pa, run_oa}, rounds);
    // the two-bone solves agree: the same end position after each system's corrections
    // (compared as rotations would also compare the freedom about the target axis)
    uint32_t agree = 0;
    for (uint32_t k = 0; k < n; k++) agree += (pout[k].reached == (oreached[k] != 0)) ? 1u : 0u;
    char ctx[160];
    snprintf(ctx, sizeof ctx, "\"solves\": %u, \"soften\": 0.97, \"reached_agree\": %u, \"port\": \"%s\"", n, agree,
             PLUMBOB_PORT_NAME);
    report("ik_two_bone", "ns_per_solve", ctx, {{"plumbob", t[0] / n * 1e9}, {"ozz", t[1] / n * 1e9}});
    report("ik_two_bone_ratio", "plumbob/ozz", ctx, {{"plumbob", t[0] / t[1]}});
    snprintf(ctx, sizeof ctx, "\"solves\": %u, \"offset\": true, \"port\": \"%s\"", n, PLUMBOB_PORT_NAME);
    report("ik_aim", "ns_per_solve", ctx, {{"plumbob", t[2] / n * 1e9}, {"ozz", t[3] / n * 1e9}});
    report("ik_aim_ratio", "plumbob/ozz", ctx, {{"plumbob", t[2] / t[3]}});
}

// --- pose blending -----------------------------------------------------------

// plumbob_pose_blend beside ozz's BlendingJob on the same poses: 2 and 4
// layers, every layer after the first masked (per-bone weights 0, 0.5, 1,
// 1 repeating), over 257 bones (the Sims 3 adult rig) and 1,000; and
// additive: plumbob_pose_additive_apply with a mask beside a BlendingJob
// of one normal and one masked additive layer (ozz applies additive layers
// inside the blend, so its figure holds a one-layer blend too; the ratio
// against it flatters ozz, if anything).  Random unit rotations,
// translations in [-1, 1], unit scales.
void bench_blend() {
    static const uint32_t sizes[2] = {257, 1000};
    int rounds = g_quick ? 201 : 2001;
    for (uint32_t bones : sizes) {
        const uint32_t soa = (bones + 3) / 4;
        std::vector<plumbob_bone_pose> pl[4], rest(bones), out_p(bones);
        std::vector<float> mask(bones);
        std::vector<ozz::math::SoaTransform> ol[4], orest(soa), out_o(soa);
        std::vector<ozz::math::SimdFloat4> omask(soa);
        uint32_t st = 0xB1E4Du;
        auto unit = [&] { st ^= st << 13; st ^= st >> 17; st ^= st << 5; return (float)(st % 20001u) / 10000.0f - 1.0f; };
        for (uint32_t b = 0; b < bones; b++) mask[b] = b % 4u == 0 ? 0.0f : (b % 4u == 1 ? 0.5f : 1.0f);
        auto to_soa = [&](const std::vector<plumbob_bone_pose> &p, std::vector<ozz::math::SoaTransform> &o) {
            o.resize(soa);
            for (uint32_t g = 0; g < soa; g++) {
                float v[10][4];
                for (int l = 0; l < 4; l++) {
                    uint32_t b = 4 * g + (uint32_t)l < bones ? 4 * g + (uint32_t)l : bones - 1;
                    const float *f = &p[b].rotation.x;
                    for (int k = 0; k < 10; k++) v[k][l] = f[k];
                }
                auto ld = [&](int k) { return ozz::math::simd_float4::LoadPtrU(v[k]); };
                o[g].rotation = {ld(0), ld(1), ld(2), ld(3)};
                o[g].translation = {ld(4), ld(5), ld(6)};
                o[g].scale = {ld(7), ld(8), ld(9)};
            }
        };
        for (int k = 0; k < 5; k++) {
            std::vector<plumbob_bone_pose> &p = k < 4 ? pl[k] : rest;
            p.resize(bones);
            for (uint32_t b = 0; b < bones; b++) {
                plumbob_quat q;
                q.x = unit(); q.y = unit(); q.z = unit(); q.w = unit();
                p[b].rotation = plumbob_quat_normalize(q);
                p[b].translation.x = unit(); p[b].translation.y = unit(); p[b].translation.z = unit();
                p[b].scale.x = p[b].scale.y = p[b].scale.z = 1.0f;
            }
            if (k < 4) to_soa(p, ol[k]); else to_soa(p, orest);
        }
        for (uint32_t g = 0; g < soa; g++) {
            float v[4];
            for (int l = 0; l < 4; l++) v[l] = mask[4 * g + (uint32_t)l < bones ? 4 * g + (uint32_t)l : bones - 1];
            omask[g] = ozz::math::simd_float4::LoadPtrU(v);
        }
        for (uint32_t layers = 2; layers <= 4; layers += 2) {
            plumbob_blend_layer lp[4];
            ozz::animation::BlendingJob::Layer lo[4];
            for (uint32_t k = 0; k < layers; k++) {
                lp[k].poses = pl[k].data();
                lp[k].weight = k == 0 ? 1.0f : 0.5f;
                lp[k].bone_weights = k == 0 ? nullptr : mask.data();
                lo[k].weight = lp[k].weight;
                lo[k].transform = ozz::make_span(ol[k]);
                if (k) lo[k].joint_weights = ozz::make_span(omask);
            }
            ozz::animation::BlendingJob oj;
            oj.threshold = PLUMBOB_BLEND_THRESHOLD;
            oj.layers = ozz::span<const ozz::animation::BlendingJob::Layer>(lo, layers);
            oj.rest_pose = ozz::make_span(orest);
            oj.output = ozz::make_span(out_o);
            std::vector<double> t = interleaved(
                {[&] { if (plumbob_pose_blend(lp, layers, rest.data(), bones, PLUMBOB_BLEND_THRESHOLD, out_p.data(), bones) != PLUMBOB_OK) abort(); keep(&out_p[0].rotation.x); },
                 [&] { if (!oj.Run()) abort(); keep((const float *)out_o.data()); }},
                rounds);
            // the same pose (within float rounding; either rotation sign)
            double worst = 0;
            for (uint32_t b = 0; b < bones; b++) {
                const ozz::math::SoaTransform &s = out_o[b / 4];
                float x[4], y[4], z[4], w[4], tx[4];
                ozz::math::StorePtrU(s.rotation.x, x); ozz::math::StorePtrU(s.rotation.y, y);
                ozz::math::StorePtrU(s.rotation.z, z); ozz::math::StorePtrU(s.rotation.w, w);
                ozz::math::StorePtrU(s.translation.x, tx);
                const plumbob_quat &q = out_p[b].rotation;
                double d = std::fabs((double)q.x * x[b % 4] + (double)q.y * y[b % 4] + (double)q.z * z[b % 4] + (double)q.w * w[b % 4]);
                worst = std::max(worst, 1.0 - d);
                worst = std::max(worst, (double)std::fabs(out_p[b].translation.x - tx[b % 4]));
            }
            char ctx[192];
            snprintf(ctx, sizeof ctx, "\"bones\": %u, \"layers\": %u, \"masked_layers\": %u, \"port\": \"%s\", \"max_difference\": %.2g",
                     bones, layers, layers - 1, PLUMBOB_PORT_NAME, worst);
            report("blend", "ns_per_call", ctx, {{"plumbob", t[0] * 1e9}, {"ozz", t[1] * 1e9}});
            report("blend_ratio", "plumbob/ozz", ctx, {{"plumbob", t[0] / t[1]}});
        }
        {   // additive: one masked additive layer at weight 0.7 on a base
            plumbob_blend_layer lp[1];
            ozz::animation::BlendingJob::Layer lo[1], la[1];
            lp[0].poses = pl[0].data(); lp[0].weight = 1.0f; lp[0].bone_weights = nullptr;
            lo[0].weight = 1.0f; lo[0].transform = ozz::make_span(ol[0]);
            la[0].weight = 0.7f; la[0].transform = ozz::make_span(ol[1]); la[0].joint_weights = ozz::make_span(omask);
            ozz::animation::BlendingJob oj;
            oj.layers = ozz::span<const ozz::animation::BlendingJob::Layer>(lo, 1);
            oj.additive_layers = ozz::span<const ozz::animation::BlendingJob::Layer>(la, 1);
            oj.rest_pose = ozz::make_span(orest);
            oj.output = ozz::make_span(out_o);
            std::vector<double> t = interleaved(
                {[&] { if (plumbob_pose_additive_apply(pl[0].data(), pl[1].data(), 0.7f, mask.data(), bones, out_p.data(), bones) != PLUMBOB_OK) abort(); keep(&out_p[0].rotation.x); },
                 [&] { if (!oj.Run()) abort(); keep((const float *)out_o.data()); },
                 [&] { if (plumbob_pose_blend(lp, 1, rest.data(), bones, PLUMBOB_BLEND_THRESHOLD, out_p.data(), bones) != PLUMBOB_OK) abort();
                       if (plumbob_pose_additive_apply(out_p.data(), pl[1].data(), 0.7f, mask.data(), bones, out_p.data(), bones) != PLUMBOB_OK) abort();
                       keep(&out_p[0].rotation.x); }},
                rounds);
            char ctx[160];
            snprintf(ctx, sizeof ctx, "\"bones\": %u, \"port\": \"%s\", \"plumbob_blend_then_additive_ns\": %.1f",
                     bones, PLUMBOB_PORT_NAME, t[2] * 1e9);
            report("additive", "ns_per_call", ctx, {{"plumbob", t[0] * 1e9}, {"ozz", t[1] * 1e9}});
            report("additive_ratio", "plumbob/ozz", ctx, {{"plumbob", t[0] / t[1]}, {"plumbob_with_blend", t[2] / t[1]}});
        }
    }
}

// --- pose blending over blocks (plumbob_pose_soa) ---------------------------

// The same random poses, masks and weights as bench_blend (every layer after
// the first masked 0, 0.5, 1, 1), in both plumbob forms and ozz's, so one run
// times plumbob_pose_blend_soa, plumbob_pose_blend and BlendingJob side by
// side (interleaved), and checks the blocked job gives the AoS job's bits.
struct BlendPoses {
    uint32_t bones, soa;
    std::vector<plumbob_bone_pose> pl[4], rest;
    std::vector<plumbob_pose_soa> sl[4], srest;
    std::vector<float> mask;
    std::vector<ozz::math::SoaTransform> ol[4], orest;
    std::vector<ozz::math::SimdFloat4> omask;
};

void blend_poses(BlendPoses &P, uint32_t bones) {
    P.bones = bones;
    P.soa = plumbob_pose_soa_blocks(bones);
    uint32_t st = 0xB1E4Du;
    auto unit = [&] { st ^= st << 13; st ^= st >> 17; st ^= st << 5; return (float)(st % 20001u) / 10000.0f - 1.0f; };
    P.mask.resize(bones);
    for (uint32_t b = 0; b < bones; b++) P.mask[b] = b % 4u == 0 ? 0.0f : (b % 4u == 1 ? 0.5f : 1.0f);
    auto to_ozz = [&](const std::vector<plumbob_pose_soa> &p, std::vector<ozz::math::SoaTransform> &o) {
        o.resize(P.soa);
        for (uint32_t g = 0; g < P.soa; g++) {
            auto ld = [&](const float *f) { return ozz::math::simd_float4::LoadPtrU(f); };
            o[g].rotation = {ld(p[g].rx), ld(p[g].ry), ld(p[g].rz), ld(p[g].rw)};
            o[g].translation = {ld(p[g].tx), ld(p[g].ty), ld(p[g].tz)};
            o[g].scale = {ld(p[g].sx), ld(p[g].sy), ld(p[g].sz)};
        }
    };
    for (int k = 0; k < 5; k++) {
        std::vector<plumbob_bone_pose> &p = k < 4 ? P.pl[k] : P.rest;
        std::vector<plumbob_pose_soa> &s = k < 4 ? P.sl[k] : P.srest;
        p.resize(bones);
        s.resize(P.soa);
        for (uint32_t b = 0; b < bones; b++) {
            plumbob_quat q;
            q.x = unit(); q.y = unit(); q.z = unit(); q.w = unit();
            p[b].rotation = plumbob_quat_normalize(q);
            p[b].translation.x = unit(); p[b].translation.y = unit(); p[b].translation.z = unit();
            p[b].scale.x = p[b].scale.y = p[b].scale.z = 1.0f;
        }
        if (plumbob_pose_to_soa(p.data(), bones, s.data(), P.soa) != PLUMBOB_OK) abort();
        to_ozz(s, k < 4 ? P.ol[k] : P.orest);
    }
    P.omask.resize(P.soa);
    for (uint32_t g = 0; g < P.soa; g++) {
        float v[4];
        for (uint32_t l = 0; l < 4; l++) v[l] = 4 * g + l < bones ? P.mask[4 * g + l] : 1.0f; // padding: 1, as plumbob reads it
        P.omask[g] = ozz::math::simd_float4::LoadPtrU(v);
    }
}

void bench_blend_soa() {
    static const uint32_t sizes[2] = {257, 1000};
    int rounds = g_quick ? 201 : 2001;
    for (uint32_t bones : sizes) {
        BlendPoses P;
        blend_poses(P, bones);
        std::vector<plumbob_bone_pose> out_p(bones), back(bones);
        std::vector<plumbob_pose_soa> out_s(P.soa);
        std::vector<ozz::math::SoaTransform> out_o(P.soa);
        for (uint32_t layers = 2; layers <= 4; layers += 2) {
            plumbob_blend_layer lp[4];
            plumbob_blend_layer_soa ls[4];
            ozz::animation::BlendingJob::Layer lo[4];
            for (uint32_t k = 0; k < layers; k++) {
                lp[k].poses = P.pl[k].data();
                lp[k].weight = k == 0 ? 1.0f : 0.5f;
                lp[k].bone_weights = k == 0 ? nullptr : P.mask.data();
                ls[k].poses = P.sl[k].data();
                ls[k].weight = lp[k].weight;
                ls[k].bone_weights = lp[k].bone_weights;
                lo[k].weight = lp[k].weight;
                lo[k].transform = ozz::make_span(P.ol[k]);
                if (k) lo[k].joint_weights = ozz::make_span(P.omask);
            }
            ozz::animation::BlendingJob oj;
            oj.threshold = PLUMBOB_BLEND_THRESHOLD;
            oj.layers = ozz::span<const ozz::animation::BlendingJob::Layer>(lo, layers);
            oj.rest_pose = ozz::make_span(P.orest);
            oj.output = ozz::make_span(out_o);
            std::vector<double> t = interleaved(
                {[&] { if (plumbob_pose_blend_soa(ls, layers, P.srest.data(), bones, PLUMBOB_BLEND_THRESHOLD, out_s.data(), P.soa) != PLUMBOB_OK) abort(); keep(out_s[0].rx); },
                 [&] { if (!oj.Run()) abort(); keep((const float *)out_o.data()); },
                 [&] { if (plumbob_pose_blend(lp, layers, P.rest.data(), bones, PLUMBOB_BLEND_THRESHOLD, out_p.data(), bones) != PLUMBOB_OK) abort(); keep(&out_p[0].rotation.x); }},
                rounds);
            // the blocked job's bits are the AoS job's; against ozz, the same pose within rounding
            if (plumbob_pose_from_soa(out_s.data(), bones, back.data(), bones) != PLUMBOB_OK) abort();
            bool same = memcmp(back.data(), out_p.data(), bones * sizeof back[0]) == 0;
            double worst = 0;
            for (uint32_t b = 0; b < bones; b++) {
                const ozz::math::SoaTransform &s = out_o[b / 4];
                float x[4], y[4], z[4], w[4], tx[4];
                ozz::math::StorePtrU(s.rotation.x, x); ozz::math::StorePtrU(s.rotation.y, y);
                ozz::math::StorePtrU(s.rotation.z, z); ozz::math::StorePtrU(s.rotation.w, w);
                ozz::math::StorePtrU(s.translation.x, tx);
                const plumbob_quat &q = back[b].rotation;
                double d = std::fabs((double)q.x * x[b % 4] + (double)q.y * y[b % 4] + (double)q.z * z[b % 4] + (double)q.w * w[b % 4]);
                worst = std::max(worst, 1.0 - d);
                worst = std::max(worst, (double)std::fabs(back[b].translation.x - tx[b % 4]));
            }
            char ctx[224];
            snprintf(ctx, sizeof ctx, "\"bones\": %u, \"layers\": %u, \"masked_layers\": %u, \"port\": \"%s\", \"same_bits_as_aos\": %s, \"max_difference\": %.2g",
                     bones, layers, layers - 1, PLUMBOB_PORT_NAME, same ? "true" : "false", worst);
            report("blend_soa", "ns_per_call", ctx, {{"plumbob_soa", t[0] * 1e9}, {"ozz", t[1] * 1e9}, {"plumbob_aos", t[2] * 1e9}});
            report("blend_soa_ratio", "plumbob/ozz", ctx, {{"plumbob_soa", t[0] / t[1]}, {"plumbob_aos", t[2] / t[1]}});
        }
        {   // additive: one masked layer at weight 0.7 on a base, as bench_blend's additive case
            plumbob_blend_layer_soa lb[1];
            ozz::animation::BlendingJob::Layer lo[1], la[1];
            lb[0].poses = P.sl[0].data(); lb[0].weight = 1.0f; lb[0].bone_weights = nullptr;
            lo[0].weight = 1.0f; lo[0].transform = ozz::make_span(P.ol[0]);
            la[0].weight = 0.7f; la[0].transform = ozz::make_span(P.ol[1]); la[0].joint_weights = ozz::make_span(P.omask);
            ozz::animation::BlendingJob oj;
            oj.layers = ozz::span<const ozz::animation::BlendingJob::Layer>(lo, 1);
            oj.additive_layers = ozz::span<const ozz::animation::BlendingJob::Layer>(la, 1);
            oj.rest_pose = ozz::make_span(P.orest);
            oj.output = ozz::make_span(out_o);
            std::vector<double> t = interleaved(
                {[&] { if (plumbob_pose_additive_apply_soa(P.sl[0].data(), P.sl[1].data(), 0.7f, P.mask.data(), bones, out_s.data(), P.soa) != PLUMBOB_OK) abort(); keep(out_s[0].rx); },
                 [&] { if (!oj.Run()) abort(); keep((const float *)out_o.data()); },
                 [&] { if (plumbob_pose_additive_apply(P.pl[0].data(), P.pl[1].data(), 0.7f, P.mask.data(), bones, out_p.data(), bones) != PLUMBOB_OK) abort(); keep(&out_p[0].rotation.x); },
                 [&] { if (plumbob_pose_blend_soa(lb, 1, P.srest.data(), bones, PLUMBOB_BLEND_THRESHOLD, out_s.data(), P.soa) != PLUMBOB_OK) abort();
                       if (plumbob_pose_additive_apply_soa(out_s.data(), P.sl[1].data(), 0.7f, P.mask.data(), bones, out_s.data(), P.soa) != PLUMBOB_OK) abort();
                       keep(out_s[0].rx); }},
                rounds);
            if (plumbob_pose_additive_apply_soa(P.sl[0].data(), P.sl[1].data(), 0.7f, P.mask.data(), bones, out_s.data(), P.soa) != PLUMBOB_OK) abort();
            if (plumbob_pose_from_soa(out_s.data(), bones, back.data(), bones) != PLUMBOB_OK) abort();
            bool same = memcmp(back.data(), out_p.data(), bones * sizeof back[0]) == 0;
            char ctx[192];
            snprintf(ctx, sizeof ctx, "\"bones\": %u, \"port\": \"%s\", \"same_bits_as_aos\": %s, \"plumbob_soa_blend_then_additive_ns\": %.1f",
                     bones, PLUMBOB_PORT_NAME, same ? "true" : "false", t[3] * 1e9);
            report("additive_soa", "ns_per_call", ctx, {{"plumbob_soa", t[0] * 1e9}, {"ozz", t[1] * 1e9}, {"plumbob_aos", t[2] * 1e9}});
            report("additive_soa_ratio", "plumbob/ozz", ctx, {{"plumbob_soa", t[0] / t[1]}, {"plumbob_soa_with_blend", t[3] / t[1]}, {"plumbob_aos", t[2] / t[1]}});
        }
    }
}

// --- clips -------------------------------------------------------------------

// A clip as each system holds it.
struct Clip {
    std::string label;
    std::vector<unsigned char> bytes;
    std::vector<unsigned char> arena, schedule_mem;
    plumbob_clip clip;
    plumbob_clip_binding binding;
    plumbob_clip_schedule schedule;
    plumbob_clip_sampler sampler;
    plumbob_clip_sampler direct;      // the sampler without a schedule
    size_t schedule_bytes = 0, sampler_bytes = 0, direct_bytes = 0;
    uint32_t keys = 0;                // rotation and translation keys of the clip
    std::vector<uint32_t> bones;      // the bone hashes, in slot order
    std::vector<int> rot_track, tr_track; // per bone: the clip track, or -1
    float duration = 0;
    // ozz
    ozz::unique_ptr<ozz::animation::Animation> ozz_anim;
    size_t ozz_context_bytes = 0;
    // ACL
    acl::compressed_tracks *acl_tracks = nullptr;
};

acl::ansi_allocator g_acl_alloc;

// A pose writer for ACL: floats per bone, as a game's pose buffer.
struct PoseWriter : public acl::track_writer {
    float *rot, *tr;
    void RTM_SIMD_CALL write_rotation(uint32_t i, rtm::quatf_arg0 q) { rtm::quat_store(q, rot + 4 * i); }
    void RTM_SIMD_CALL write_translation(uint32_t i, rtm::vector4f_arg0 v) { rtm::vector_store3(v, tr + 3 * i); }
    void RTM_SIMD_CALL write_scale(uint32_t, rtm::vector4f_arg0) {}
    static constexpr bool skip_all_scales() { return true; }
};

// The clip's value at `seconds`, in double: plumbob's rule (docs/FORMATS.md:
// clamp, lerp, shorter-arc nlerp) over the decoded key values.
void reference(const plumbob_clip *c, uint32_t track, double seconds, double out[4]) {
    const plumbob_clip_track &t = c->tracks[track];
    double tick = seconds / c->frame_duration;
    uint32_t n = t.key_count, lo = 0;
    uint16_t k0, k1;
    float a[4], b[4];
    plumbob_clip_key_value(c, track, 0, &k0, a);
    if (n == 1 || tick <= k0) { for (int i = 0; i < 4; i++) out[i] = a[i]; lo = n; }
    if (lo != n) {
        plumbob_clip_key_value(c, track, n - 1, &k1, b);
        if (tick >= k1) { for (int i = 0; i < 4; i++) out[i] = b[i]; lo = n; }
    }
    if (lo != n) {
        uint32_t l = 0, h = n - 1; // keys l <= tick < keys h
        while (h - l > 1) {
            uint32_t m = (l + h) / 2;
            plumbob_clip_key_value(c, track, m, &k0, a);
            if (k0 <= tick) l = m; else h = m;
        }
        plumbob_clip_key_value(c, track, l, &k0, a);
        plumbob_clip_key_value(c, track, h, &k1, b);
        double f = (tick - k0) / (double)(k1 - k0), dot = 0;
        for (int i = 0; i < 4; i++) dot += (double)a[i] * b[i];
        double sb = t.components == 4 && dot < 0 ? -1.0 : 1.0;
        for (int i = 0; i < 4; i++) out[i] = a[i] + ((double)b[i] * sb - a[i]) * f;
    }
    if (t.components == 4) {
        double l = std::sqrt(out[0] * out[0] + out[1] * out[1] + out[2] * out[2] + out[3] * out[3]);
        for (int i = 0; i < 4; i++) out[i] /= l;
    }
}

double angle_deg(const double r[4], const float q[4]) {
    double d = 0, l = 0;
    for (int i = 0; i < 4; i++) { d += r[i] * q[i]; l += (double)q[i] * q[i]; }
    d = std::fabs(d) / std::sqrt(l);
    return 2.0 * std::acos(std::min(1.0, d)) * 180.0 / M_PI;
}

bool setup(Clip &c) {
    size_t need;
    if (plumbob_clip_measure(c.bytes.data(), c.bytes.size(), &need) != PLUMBOB_OK) return false;
    c.arena.resize(need + 256 * 1024);
    plumbob_arena a, s;
    plumbob_arena_init(&a, c.arena.data(), c.arena.size());
    if (plumbob_clip_decode(c.bytes.data(), c.bytes.size(), &a, &c.clip) != PLUMBOB_OK) return false;
    c.duration = plumbob_clip_duration(&c.clip);
    for (uint32_t t = 0; t < c.clip.track_count; t++) {
        const plumbob_clip_track &tr = c.clip.tracks[t];
        if (tr.target != PLUMBOB_CLIP_TARGET_ROTATION && tr.target != PLUMBOB_CLIP_TARGET_TRANSLATION) continue;
        if (tr.key_count == 0) continue;
        size_t b = std::find(c.bones.begin(), c.bones.end(), tr.hash) - c.bones.begin();
        if (b == c.bones.size()) { c.bones.push_back(tr.hash); c.rot_track.push_back(-1); c.tr_track.push_back(-1); }
        (tr.target == PLUMBOB_CLIP_TARGET_ROTATION ? c.rot_track : c.tr_track)[b] = (int)t;
        c.keys += tr.key_count;
    }
    if (c.bones.empty() || c.duration <= 0) return false;
    size_t sneed = plumbob_clip_schedule_size(&c.clip);
    c.schedule_mem.resize(sneed);
    plumbob_arena_init(&s, c.schedule_mem.data(), sneed);
    if (plumbob_clip_bind(&c.clip, c.bones.data(), (uint32_t)c.bones.size(), nullptr, 0, &a, &c.binding) != PLUMBOB_OK ||
        plumbob_clip_schedule_build(&c.clip, &s, &c.schedule) != PLUMBOB_OK)
        abort();
    c.schedule_bytes = s.used; // the build hands its temporary table back
    c.sampler_bytes = plumbob_clip_sampler_size(&c.schedule, &c.binding);
    c.direct_bytes = plumbob_clip_sampler_size(nullptr, &c.binding);
    if (plumbob_clip_sampler_init(&c.schedule, &c.binding, 0, &a, &c.sampler) != PLUMBOB_OK ||
        plumbob_clip_sampler_init(nullptr, &c.binding, 0, &a, &c.direct) != PLUMBOB_OK)
        abort();

    // ozz: the same keys, at the same times
    ozz::animation::offline::RawAnimation raw;
    raw.duration = c.duration;
    raw.tracks.resize(c.bones.size());
    for (size_t b = 0; b < c.bones.size(); b++) {
        auto &jt = raw.tracks[b];
        for (int which = 0; which < 2; which++) {
            int t = which ? c.tr_track[b] : c.rot_track[b];
            if (t < 0) continue;
            for (uint32_t k = 0; k < c.clip.tracks[t].key_count; k++) {
                uint16_t tick;
                float v[4];
                plumbob_clip_key_value(&c.clip, (uint32_t)t, k, &tick, v);
                float time = std::min((float)tick * c.clip.frame_duration, c.duration);
                if (which) {
                    jt.translations.push_back({time, ozz::math::Float3(v[0], v[1], v[2])});
                } else {
                    float l = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3]);
                    jt.rotations.push_back({time, ozz::math::Quaternion(v[0] / l, v[1] / l, v[2] / l, v[3] / l)});
                }
            }
        }
    }
    if (!raw.Validate()) { fprintf(stderr, "%s: ozz refuses the raw animation\n", c.label.c_str()); return false; }
    ozz::animation::offline::AnimationBuilder builder;
    c.ozz_anim = builder(raw);
    if (!c.ozz_anim) abort();
    {
        CountingAllocator counter(ozz::memory::default_allocator());
        ozz::memory::Allocator *old = ozz::memory::SetDefaulAllocator(&counter);
        { ozz::animation::SamplingJob::Context probe((int)c.bones.size()); }
        ozz::memory::SetDefaulAllocator(old);
        c.ozz_context_bytes = counter.bytes;
    }

    // ACL: the curve at every tick (the raw clip ACL compresses), roots only
    uint32_t samples = (uint32_t)c.clip.tick_count + 1u;
    float rate = 1.0f / c.clip.frame_duration;
    acl::track_array_qvvf tracks(g_acl_alloc, (uint32_t)c.bones.size());
    for (size_t b = 0; b < c.bones.size(); b++) {
        acl::track_desc_transformf desc;
        desc.output_index = (uint32_t)b;
        desc.precision = 0.0001f;    // 0.1 mm: Sims 3 units are metres
        desc.shell_distance = 0.1f;  // a joint's reach, metres
        acl::track_qvvf t = acl::track_qvvf::make_reserve(desc, g_acl_alloc, samples, rate);
        for (uint32_t s2 = 0; s2 < samples; s2++) {
            double r[4] = {0, 0, 0, 1}, p[4] = {0, 0, 0, 0};
            double sec = (double)s2 * c.clip.frame_duration;
            if (c.rot_track[b] >= 0) reference(&c.clip, (uint32_t)c.rot_track[b], sec, r);
            if (c.tr_track[b] >= 0) reference(&c.clip, (uint32_t)c.tr_track[b], sec, p);
            t[s2].rotation = rtm::quat_normalize(rtm::quat_set((float)r[0], (float)r[1], (float)r[2], (float)r[3]));
            t[s2].translation = rtm::vector_set((float)p[0], (float)p[1], (float)p[2], 0.0f);
            t[s2].scale = rtm::vector_set(1.0f);
        }
        tracks[(uint32_t)b] = std::move(t);
    }
    acl::compression_settings settings = acl::get_default_compression_settings();
    acl::qvvf_transform_error_metric metric;
    settings.error_metric = &metric;
    acl::output_stats stats;
    acl::error_result r = acl::compress_track_list(g_acl_alloc, tracks, settings, c.acl_tracks, stats);
    if (r.any()) { fprintf(stderr, "%s: ACL: %s\n", c.label.c_str(), r.c_str()); return false; }
    return true;
}

// Each system's output pose and its per-clip state (ozz's sampling context,
// ACL's decompression context; plumbob's is the clip's sampler).  The output
// is the Poses' own vectors unless share_output points it elsewhere.
struct Poses {
    std::vector<plumbob_bone_pose> plumbob;
    std::vector<ozz::math::SoaTransform> ozz;
    std::vector<float> acl_rot, acl_tr;
    std::unique_ptr<ozz::animation::SamplingJob::Context> ozz_ctx;
    acl::decompression_context<acl::default_transform_decompression_settings> acl_ctx;
    PoseWriter writer;
    plumbob_bone_pose *out_plumbob;
    ozz::span<ozz::math::SoaTransform> out_ozz;
    explicit Poses(Clip &c)
        : plumbob(c.bones.size()), ozz((c.bones.size() + 3) / 4), acl_rot(c.bones.size() * 4),
          acl_tr(c.bones.size() * 3), ozz_ctx(new ozz::animation::SamplingJob::Context((int)c.bones.size())) {
        if (!acl_ctx.initialize(*c.acl_tracks)) abort();
        writer.rot = acl_rot.data();
        writer.tr = acl_tr.data();
        out_plumbob = plumbob.data();
        out_ozz = ozz::make_span(ozz);
    }
    // Writes into o's outputs (which must hold at least as many bones).
    void share_output(Poses &o) {
        out_plumbob = o.plumbob.data();
        out_ozz = ozz::span<ozz::math::SoaTransform>(o.ozz.data(), ozz.size());
        writer.rot = o.acl_rot.data();
        writer.tr = o.acl_tr.data();
    }
};

void sample_plumbob(Clip &c, Poses &p, float t) {
    if (plumbob_clip_sampler_sample(&c.sampler, t, p.out_plumbob, (uint32_t)p.plumbob.size(), nullptr, 0) != PLUMBOB_OK) abort();
}
void sample_direct(Clip &c, Poses &p, float t) {
    if (plumbob_clip_sampler_sample(&c.direct, t, p.out_plumbob, (uint32_t)p.plumbob.size(), nullptr, 0) != PLUMBOB_OK) abort();
}
void sample_ozz(Clip &c, Poses &p, float t) {
    ozz::animation::SamplingJob job;
    job.animation = c.ozz_anim.get();
    job.context = p.ozz_ctx.get();
    job.ratio = t / c.duration;
    job.output = p.out_ozz;
    if (!job.Run()) abort();
}
void sample_acl(Clip &, Poses &p, float t) {
    p.acl_ctx.seek(t, acl::sample_rounding_policy::none);
    p.acl_ctx.decompress_tracks(p.writer);
}

// Worst errors of each system against the double reference over the frames.
struct Errors { double rot_deg = 0, tr_mm = 0; };

void accuracy(Clip &c, Poses &p, const std::vector<float> &times, Errors e[4]) {
    std::vector<plumbob_bone_pose> by[2];
    for (float t : times) {
        sample_plumbob(c, p, t);
        by[0] = p.plumbob;
        sample_direct(c, p, t);
        by[1] = p.plumbob;
        sample_ozz(c, p, t);
        sample_acl(c, p, t);
        for (size_t b = 0; b < c.bones.size(); b++) {
            const ozz::math::SoaTransform &s = p.ozz[b / 4];
            float ox[4], oy[4], oz[4], ow[4], tx[4], ty[4], tz[4];
            ozz::math::StorePtrU(s.rotation.x, ox); ozz::math::StorePtrU(s.rotation.y, oy);
            ozz::math::StorePtrU(s.rotation.z, oz); ozz::math::StorePtrU(s.rotation.w, ow);
            ozz::math::StorePtrU(s.translation.x, tx); ozz::math::StorePtrU(s.translation.y, ty);
            ozz::math::StorePtrU(s.translation.z, tz);
            size_t l = b % 4;
            double ref[4];
            if (c.rot_track[b] >= 0) {
                reference(&c.clip, (uint32_t)c.rot_track[b], t, ref);
                for (int k = 0; k < 2; k++) {
                    const plumbob_quat &q = by[k][b].rotation;
                    float pq[4] = {q.x, q.y, q.z, q.w};
                    e[k].rot_deg = std::max(e[k].rot_deg, angle_deg(ref, pq));
                }
                float oq[4] = {ox[l], oy[l], oz[l], ow[l]};
                e[2].rot_deg = std::max(e[2].rot_deg, angle_deg(ref, oq));
                e[3].rot_deg = std::max(e[3].rot_deg, angle_deg(ref, &p.acl_rot[4 * b]));
            }
            if (c.tr_track[b] >= 0) {
                reference(&c.clip, (uint32_t)c.tr_track[b], t, ref);
                float ov[3] = {tx[l], ty[l], tz[l]};
                const float *av = &p.acl_tr[3 * b];
                for (int i = 0; i < 3; i++) {
                    for (int k = 0; k < 2; k++) {
                        const plumbob_vec3 &v = by[k][b].translation;
                        float pv[3] = {v.x, v.y, v.z};
                        e[k].tr_mm = std::max(e[k].tr_mm, std::fabs(pv[i] - ref[i]) * 1e3);
                    }
                    e[2].tr_mm = std::max(e[2].tr_mm, std::fabs(ov[i] - ref[i]) * 1e3);
                    e[3].tr_mm = std::max(e[3].tr_mm, std::fabs(av[i] - ref[i]) * 1e3);
                }
            }
        }
    }
}

// Systems in figure order: plumbob's sampler on a schedule, plumbob's
// sampler without one, ozz, ACL.
const int kSystems = 4;
const char *kNames[kSystems] = {"plumbob", "plumbob_noschedule", "ozz", "acl"};
struct ClipFigures { double fwd[kSystems], bytes_clip[kSystems], bytes_extra[kSystems], rot[kSystems], tr[kSystems]; };

std::vector<std::pair<const char *, double>> row(const double v[kSystems]) {
    std::vector<std::pair<const char *, double>> r;
    for (int i = 0; i < kSystems; i++) r.push_back({kNames[i], v[i]});
    return r;
}

ClipFigures bench_clip(Clip &c) {
    ClipFigures f;
    Poses p(c);
    uint32_t frames = (uint32_t)(c.duration * 60.0f) + 1u;
    std::vector<float> times(frames);
    for (uint32_t i = 0; i < frames; i++) times[i] = std::min((float)i / 60.0f, c.duration);
    Errors e[kSystems];
    accuracy(c, p, times, e);
    // forward playback at 60 Hz, one pose per frame
    int rounds = g_quick ? 5 : 15;
    std::vector<double> t = interleaved(
        {[&] { for (float x : times) sample_plumbob(c, p, x); keep(&p.plumbob[0].rotation.x); },
         [&] { for (float x : times) sample_direct(c, p, x); keep(&p.plumbob[0].rotation.x); },
         [&] { for (float x : times) sample_ozz(c, p, x); keep((const float *)p.ozz.data()); },
         [&] { for (float x : times) sample_acl(c, p, x); keep(p.acl_rot.data()); }},
        rounds);
    double keys = c.keys;
    size_t acl_ctx = sizeof(p.acl_ctx);
    for (int i = 0; i < kSystems; i++) { f.fwd[i] = t[i] / frames * 1e9; f.rot[i] = e[i].rot_deg; f.tr[i] = e[i].tr_mm; }
    f.bytes_clip[0] = f.bytes_clip[1] = c.bytes.size() / keys;
    f.bytes_clip[2] = c.ozz_anim->size() / keys;
    f.bytes_clip[3] = c.acl_tracks->get_size() / keys;
    // what a sampler needs beside the clip (plumbob: the binding is the
    // rig's, shared, and counted for no one)
    f.bytes_extra[0] = (double)(c.schedule_bytes + c.sampler_bytes) / keys;
    f.bytes_extra[1] = (double)c.direct_bytes / keys;
    f.bytes_extra[2] = (double)c.ozz_context_bytes / keys;
    f.bytes_extra[3] = (double)acl_ctx / keys;
    char ctx[256];
    snprintf(ctx, sizeof ctx, "\"clip\": \"%s\", \"bones\": %zu, \"keys\": %u, \"frames\": %u", c.label.c_str(),
             c.bones.size(), c.keys, frames);
    report("sample_forward", "ns_per_pose", ctx, row(f.fwd));
    report("runtime_bytes_per_key", "bytes", ctx, row(f.bytes_clip));
    report("sampler_bytes_per_key", "bytes", ctx, row(f.bytes_extra));
    report("max_rotation_error", "degrees", ctx, row(f.rot));
    report("max_translation_error", "mm", ctx, row(f.tr));
    return f;
}

// The last-level cache's size as the OS reports it: the L3's, else the L2's,
// else 8 MB (ACL's assumption).
size_t llc_bytes() {
    long v = -1;
#ifdef _SC_LEVEL3_CACHE_SIZE
    v = sysconf(_SC_LEVEL3_CACHE_SIZE);
    if (v <= 0) v = sysconf(_SC_LEVEL2_CACHE_SIZE);
#endif
    return v > 0 ? (size_t)v : (size_t)8 << 20;
}

// Evicts the caches as ACL's benchmark does: plain writes over 4x the LLC.
// One store per 64-byte line owns the line; volatile, so the compiler makes
// no memset call of it, whose large-size path streams past the caches and
// would evict nothing.
void flush_caches(std::vector<uint64_t> &buf, uint64_t value) {
    volatile uint64_t *p = buf.data();
    for (size_t i = 0; i < buf.size(); i += 8) p[i] = value;
}

// Cold cache, ACL's method (tools/acl_decompressor): copies of every clip,
// each system's own data and per-clip state; the caches are flushed, then
// every copy samples its next frame once into one output pose per system
// (as ACL's tool writes one pose), so each sample starts with none of its
// clip's data cached. Only the sampling is timed, never the flush. The
// copies mix sizes like a crowd.
void bench_cold(std::vector<Clip> &clips, double cold[kSystems]) {
    const size_t target = g_quick ? (16u << 20) : (64u << 20);
    const size_t llc = llc_bytes();
    std::vector<uint64_t> flush(std::min(llc * 4, (size_t)1 << 31) / 8); // at most 2 GiB
    std::vector<std::unique_ptr<Clip>> copies;
    std::vector<std::unique_ptr<Poses>> poses;
    size_t bytes = 0;
    for (size_t i = 0; bytes < target; i++) {
        Clip &src = clips[i % clips.size()];
        std::unique_ptr<Clip> c(new Clip);
        c->label = src.label;
        c->bytes = src.bytes;
        if (!setup(*c)) abort();
        bytes += std::min(c->bytes.size() + c->schedule_bytes, c->ozz_anim->size());
        poses.emplace_back(new Poses(*c));
        copies.push_back(std::move(c));
    }
    size_t widest = 0; // the output every copy writes: sized for the most bones
    for (size_t i = 0; i < copies.size(); i++)
        if (copies[i]->bones.size() > copies[widest]->bones.size()) widest = i;
    for (auto &p : poses) p->share_output(*poses[widest]);
    const int cycles = g_quick ? 2 : 4; // flushes per timed call
    std::vector<uint32_t> next(copies.size() * kSystems, 0);
    std::vector<std::vector<double>> sampled(kSystems); // seconds per pose, one per call
    uint64_t fill = 1;
    auto run = [&](int sys) {
        double total = 0;
        for (int k = 0; k < cycles; k++) {
            flush_caches(flush, fill++);
            double t0 = now();
            for (size_t i = 0; i < copies.size(); i++) {
                Clip &c = *copies[i];
                uint32_t fr = next[i * kSystems + sys]++;
                float t = std::fmod((float)fr / 60.0f, c.duration);
                if (sys == 0) sample_plumbob(c, *poses[i], t);
                else if (sys == 1) sample_direct(c, *poses[i], t);
                else if (sys == 2) sample_ozz(c, *poses[i], t);
                else sample_acl(c, *poses[i], t);
            }
            total += now() - t0;
        }
        sampled[sys].push_back(total / (double)(cycles * copies.size()));
    };
    interleaved({[&] { run(0); }, [&] { run(1); }, [&] { run(2); }, [&] { run(3); }}, g_quick ? 3 : 7);
    for (int i = 0; i < kSystems; i++) cold[i] = median(sampled[i]) * 1e9;
    char ctx[160];
    snprintf(ctx, sizeof ctx, "\"copies\": %zu, \"megabytes\": %.0f, \"flush_megabytes\": %.0f", copies.size(),
             bytes / 1048576.0, flush.size() * 8 / 1048576.0);
    report("sample_cold", "ns_per_pose", ctx, row(cold));
    for (auto &c : copies) g_acl_alloc.deallocate(c->acl_tracks, c->acl_tracks->get_size());
}

std::vector<unsigned char> read_file(const char *path) {
    std::vector<unsigned char> d;
    FILE *f = fopen(path, "rb");
    if (!f) return d;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    d.resize((size_t)n);
    if (fread(d.data(), 1, d.size(), f) != d.size()) d.clear();
    fclose(f);
    return d;
}

void bench_clips(const std::vector<std::string> &packages, bool cold_only) {
    std::vector<Clip> clips;
    clips.reserve(64);
    for (auto &path : packages) {
        std::vector<unsigned char> data = read_file(path.c_str());
        plumbob_package pkg;
        if (data.empty() || plumbob_package_open(&pkg, data.data(), data.size()) != PLUMBOB_OK) {
            fprintf(stderr, "%s: not read\n", path.c_str());
            continue;
        }
        for (uint32_t i = 0; i < pkg.count; i++) {
            plumbob_package_entry e;
            plumbob_package_entry_at(&pkg, i, &e);
            if (e.type != PLUMBOB_TYPE_CLIP) continue;
            std::vector<unsigned char> buf(e.mem_size);
            const unsigned char *res;
            size_t rs;
            if (plumbob_package_read(&pkg, &e, buf.data(), buf.size(), &res, &rs) != PLUMBOB_OK) continue;
            clips.emplace_back();
            Clip &c = clips.back();
            char label[32];
            snprintf(label, sizeof label, "%016llX", (unsigned long long)e.instance);
            c.label = label;
            c.bytes.assign(res, res + rs);
            if (!setup(c)) clips.pop_back();
            if (g_quick && clips.size() >= 3) break;
        }
    }
    if (clips.empty()) {
        printf("no clips: give Sims 3 packages (the corpus: ../shared/corpus/sims3/*.package)\n");
        return;
    }
    std::vector<double> m[5][kSystems];
    for (Clip &c : clips) {
        if (cold_only) break; // the cold-cache case alone: no per-clip figures
        ClipFigures f = bench_clip(c);
        for (int s = 0; s < kSystems; s++) {
            m[0][s].push_back(f.fwd[s]); m[1][s].push_back(f.bytes_clip[s]); m[2][s].push_back(f.bytes_extra[s]);
            m[3][s].push_back(f.rot[s]); m[4][s].push_back(f.tr[s]);
        }
    }
    double cold[kSystems];
    bench_cold(clips, cold);
    char ctx[64];
    snprintf(ctx, sizeof ctx, "\"clips\": %zu", clips.size());
    static const char *names[5] = {"median_sample_forward", "median_runtime_bytes_per_key",
                                   "median_sampler_bytes_per_key", "median_max_rotation_error",
                                   "median_max_translation_error"};
    static const char *units[5] = {"ns_per_pose", "bytes", "bytes", "degrees", "mm"};
    for (int k = 0; k < 5 && !cold_only; k++) {
        double v[kSystems];
        for (int s = 0; s < kSystems; s++) v[s] = median(m[k][s]);
        report(names[k], units[k], ctx, row(v));
    }
    // each plumbob path's time over ozz's and ACL's: the median and the worst clip
    for (int path = 0; path < 2; path++) {
        std::vector<double> ro, ra;
        for (size_t i = 0; i < m[0][0].size(); i++) {
            ro.push_back(m[0][path][i] / m[0][2][i]);
            ra.push_back(m[0][path][i] / m[0][3][i]);
        }
        std::string c2 = std::string(ctx) + ", \"path\": \"" + (path ? "noschedule" : "schedule") + "\"";
        if (!cold_only)
            report("sample_forward_ratio", "plumbob/other", c2,
                   {{"ozz", median(ro)}, {"acl", median(ra)}, {"ozz_worst", *std::max_element(ro.begin(), ro.end())},
                    {"acl_worst", *std::max_element(ra.begin(), ra.end())}});
        report("sample_cold_ratio", "plumbob/other", c2, {{"ozz", cold[path] / cold[2]}, {"acl", cold[path] / cold[3]}});
    }
    for (Clip &c : clips) g_acl_alloc.deallocate(c.acl_tracks, c.acl_tracks->get_size());
}

// --- a whole frame -----------------------------------------------------------

// One clip of the frame case, bound to the rig (plumbob) and converted for
// ozz in the order of ozz's skeleton.
struct FrameClip {
    std::string label;
    std::vector<unsigned char> bytes, arena, schedule_mem;
    plumbob_clip clip;
    plumbob_clip_binding binding;
    plumbob_clip_schedule schedule;
    plumbob_clip_sampler sampler;
    uint32_t bound_bones = 0, keys = 0;
    float duration = 0;
    ozz::unique_ptr<ozz::animation::Animation> ozz_anim;
};

// Issue 50's whole frame on the Sims 3 adult rig (auRig.rig beside the
// packages, 257 bones): sample two real clips, blend them (the second layer
// at 0.5 under a per-bone mask 0, 0.5, 1, 1 repeating, as bench_blend), local
// to model.  plumbob twice, AoS blend and blocked blend (with the
// converters into and out of blocks, since the sampler and the model job
// take AoS poses), beside ozz's SamplingJob x2 + BlendingJob +
// LocalToModelJob; and each part alone.  Every job plays 120 frames
// forward at 60 Hz; figures are ns per frame.  ozz's animations carry the
// rest value as one key on every channel the clip leaves alone; plumbob's
// pose buffers are filled with the rest pose once (the samplers write only
// what the clips drive, so the rest values stay).
void bench_frame(const std::vector<std::string> &packages) {
    std::string dir = packages.empty() ? std::string() : packages[0].substr(0, packages[0].rfind('/') + 1);
    std::vector<unsigned char> rig_bytes = packages.empty() ? std::vector<unsigned char>() : read_file((dir + "auRig.rig").c_str());
    size_t rneed;
    if (rig_bytes.empty() || plumbob_rig_measure(rig_bytes.data(), rig_bytes.size(), &rneed) != PLUMBOB_OK) {
        printf("frame: no auRig.rig beside the packages (the corpus: ../shared/corpus/sims3/); skipped\n");
        return;
    }
    std::vector<unsigned char> rig_mem(rneed);
    plumbob_arena ra;
    plumbob_arena_init(&ra, rig_mem.data(), rig_mem.size());
    plumbob_rig rig;
    if (plumbob_rig_decode(rig_bytes.data(), rig_bytes.size(), &ra, &rig) != PLUMBOB_OK) abort();
    const plumbob_skeleton &sk = rig.skeleton;
    const uint32_t bones = sk.bone_count, soa = plumbob_pose_soa_blocks(bones);

    // the two clips of the packages that drive the most rig bones (a clean fit)
    std::vector<std::unique_ptr<FrameClip>> cand;
    for (auto &path : packages) {
        std::vector<unsigned char> data = read_file(path.c_str());
        plumbob_package pkg;
        if (data.empty() || plumbob_package_open(&pkg, data.data(), data.size()) != PLUMBOB_OK) continue;
        for (uint32_t i = 0; i < pkg.count; i++) {
            plumbob_package_entry e;
            plumbob_package_entry_at(&pkg, i, &e);
            if (e.type != PLUMBOB_TYPE_CLIP) continue;
            std::vector<unsigned char> buf(e.mem_size);
            const unsigned char *res;
            size_t rs, need;
            if (plumbob_package_read(&pkg, &e, buf.data(), buf.size(), &res, &rs) != PLUMBOB_OK) continue;
            if (plumbob_clip_measure(res, rs, &need) != PLUMBOB_OK) continue;
            std::unique_ptr<FrameClip> c(new FrameClip);
            char label[32];
            snprintf(label, sizeof label, "%016llX", (unsigned long long)e.instance);
            c->label = label;
            c->bytes.assign(res, res + rs);
            c->arena.resize(need + 256 * 1024);
            plumbob_arena a;
            plumbob_arena_init(&a, c->arena.data(), c->arena.size());
            if (plumbob_clip_decode(c->bytes.data(), c->bytes.size(), &a, &c->clip) != PLUMBOB_OK) continue;
            c->duration = plumbob_clip_duration(&c->clip);
            if (c->duration <= 0 || plumbob_rig_bind(&c->clip, &rig, nullptr, 0, &a, &c->binding) != PLUMBOB_OK) continue;
            plumbob_clip_bind_report rep;
            if (plumbob_clip_binding_report(&c->binding, rig.skeleton_name.ptr, rig.skeleton_name.len, &a, nullptr, 0, &rep) != PLUMBOB_OK ||
                rep.fit != 0)
                continue;
            c->bound_bones = rep.bound_bones;
            size_t sneed = plumbob_clip_schedule_size(&c->clip);
            c->schedule_mem.resize(sneed);
            plumbob_arena s;
            plumbob_arena_init(&s, c->schedule_mem.data(), sneed);
            if (plumbob_clip_schedule_build(&c->clip, &s, &c->schedule) != PLUMBOB_OK ||
                plumbob_clip_sampler_init(&c->schedule, &c->binding, 0, &a, &c->sampler) != PLUMBOB_OK)
                continue;
            cand.push_back(std::move(c));
        }
    }
    if (cand.size() < 2) { printf("frame: fewer than two clips fit auRig.rig; skipped\n"); return; }
    std::stable_sort(cand.begin(), cand.end(), [](const std::unique_ptr<FrameClip> &x, const std::unique_ptr<FrameClip> &y) {
        return x->bound_bones > y->bound_bones;
    });
    FrameClip &A = *cand[0], &B = *cand[1];

    // ozz's skeleton from the same bones and rest poses; its joints come out
    // depth first, so each is named by its plumbob index to map back
    ozz::animation::offline::RawSkeleton raw_sk;
    std::vector<std::vector<uint32_t>> children(bones);
    std::vector<uint32_t> roots;
    for (uint32_t b = 0; b < bones; b++) (sk.parent[b] < 0 ? roots : children[(uint32_t)sk.parent[b]]).push_back(b);
    std::function<void(uint32_t, ozz::animation::offline::RawSkeleton::Joint &)> fill =
        [&](uint32_t b, ozz::animation::offline::RawSkeleton::Joint &j) {
            const plumbob_bone_pose &r = sk.rest[b];
            j.name = std::to_string(b).c_str();
            j.transform.translation = ozz::math::Float3(r.translation.x, r.translation.y, r.translation.z);
            j.transform.rotation = ozz::math::Quaternion(r.rotation.x, r.rotation.y, r.rotation.z, r.rotation.w);
            j.transform.scale = ozz::math::Float3(r.scale.x, r.scale.y, r.scale.z);
            j.children.resize(children[b].size());
            for (size_t k = 0; k < children[b].size(); k++) fill(children[b][k], j.children[k]);
        };
    raw_sk.roots.resize(roots.size());
    for (size_t k = 0; k < roots.size(); k++) fill(roots[k], raw_sk.roots[k]);
    ozz::animation::offline::SkeletonBuilder sk_builder;
    ozz::unique_ptr<ozz::animation::Skeleton> osk = sk_builder(raw_sk);
    if (!osk || (uint32_t)osk->num_joints() != bones) abort();
    std::vector<uint32_t> of(bones); // ozz joint -> plumbob bone
    for (uint32_t j = 0; j < bones; j++) of[j] = (uint32_t)atoi(osk->joint_names()[j]);

    // the clips for ozz: each joint's tracks, the rest value where the clip has none
    std::vector<plumbob_bone_pose> rest(bones);
    if (plumbob_skeleton_rest_pose(&sk, 0, bones, rest.data(), bones) != PLUMBOB_OK) abort();
    for (FrameClip *c : {&A, &B}) {
        ozz::animation::offline::RawAnimation raw;
        raw.duration = c->duration;
        raw.tracks.resize(bones);
        for (uint32_t j = 0; j < bones; j++) {
            uint32_t b = of[j];
            auto &jt = raw.tracks[j];
            for (uint32_t t = 0; t < c->clip.track_count; t++) {
                const plumbob_clip_track &tr = c->clip.tracks[t];
                if (tr.hash != sk.name_hash[b] || tr.key_count == 0) continue;
                bool rot = tr.target == PLUMBOB_CLIP_TARGET_ROTATION, pos = tr.target == PLUMBOB_CLIP_TARGET_TRANSLATION,
                     scl = tr.target == PLUMBOB_CLIP_TARGET_SCALE;
                if ((rot && !jt.rotations.empty()) || (pos && !jt.translations.empty()) || (scl && !jt.scales.empty()) ||
                    !(rot || pos || scl))
                    continue; // the first track per channel
                for (uint32_t k = 0; k < tr.key_count; k++) {
                    uint16_t tick;
                    float v[4];
                    plumbob_clip_key_value(&c->clip, t, k, &tick, v);
                    float time = std::min((float)tick * c->clip.frame_duration, c->duration);
                    if (k && time <= (rot ? jt.rotations.back().time : pos ? jt.translations.back().time : jt.scales.back().time))
                        continue;
                    if (pos) jt.translations.push_back({time, ozz::math::Float3(v[0], v[1], v[2])});
                    else if (scl) jt.scales.push_back({time, ozz::math::Float3(v[0], v[1], v[2])});
                    else {
                        float l = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3]);
                        jt.rotations.push_back({time, ozz::math::Quaternion(v[0] / l, v[1] / l, v[2] / l, v[3] / l)});
                    }
                }
            }
            const plumbob_bone_pose &r = rest[b];
            if (jt.rotations.empty()) jt.rotations.push_back({0.0f, ozz::math::Quaternion(r.rotation.x, r.rotation.y, r.rotation.z, r.rotation.w)});
            if (jt.translations.empty()) jt.translations.push_back({0.0f, ozz::math::Float3(r.translation.x, r.translation.y, r.translation.z)});
            if (jt.scales.empty()) jt.scales.push_back({0.0f, ozz::math::Float3(r.scale.x, r.scale.y, r.scale.z)});
        }
        if (!raw.Validate()) { fprintf(stderr, "frame: %s: ozz refuses the raw animation\n", c->label.c_str()); return; }
        ozz::animation::offline::AnimationBuilder builder;
        c->ozz_anim = builder(raw);
        if (!c->ozz_anim) abort();
    }

    // buffers, mask and layers
    std::vector<plumbob_bone_pose> pa(rest), pb(rest), out(bones);
    std::vector<plumbob_pose_soa> sa(soa), sb(soa), srest(soa), so(soa);
    std::vector<plumbob_mat34> model(bones), model_soa(bones);
    std::vector<float> mask(bones);
    for (uint32_t b = 0; b < bones; b++) mask[b] = b % 4u == 0 ? 0.0f : (b % 4u == 1 ? 0.5f : 1.0f);
    if (plumbob_pose_to_soa(rest.data(), bones, srest.data(), soa) != PLUMBOB_OK) abort();
    plumbob_blend_layer lp[2];
    plumbob_blend_layer_soa ls[2];
    lp[0].poses = pa.data(); lp[0].weight = 1.0f; lp[0].bone_weights = nullptr;
    lp[1].poses = pb.data(); lp[1].weight = 0.5f; lp[1].bone_weights = mask.data();
    ls[0].poses = sa.data(); ls[0].weight = 1.0f; ls[0].bone_weights = nullptr;
    ls[1].poses = sb.data(); ls[1].weight = 0.5f; ls[1].bone_weights = mask.data();
    std::vector<ozz::math::SoaTransform> oa(soa), ob(soa), oout(soa);
    std::vector<ozz::math::SimdFloat4> omask(soa);
    for (uint32_t g = 0; g < soa; g++) {
        float v[4];
        for (uint32_t l = 0; l < 4; l++) v[l] = 4 * g + l < bones ? mask[of[4 * g + l]] : 1.0f;
        omask[g] = ozz::math::simd_float4::LoadPtrU(v);
    }
    std::vector<ozz::math::Float4x4> omodel(bones);
    ozz::animation::SamplingJob::Context ca(bones), cb(bones);
    ozz::animation::BlendingJob::Layer lo[2];
    lo[0].weight = 1.0f; lo[0].transform = ozz::make_span(oa);
    lo[1].weight = 0.5f; lo[1].transform = ozz::make_span(ob); lo[1].joint_weights = ozz::make_span(omask);
    ozz::animation::BlendingJob obj;
    obj.threshold = PLUMBOB_BLEND_THRESHOLD;
    obj.layers = ozz::span<const ozz::animation::BlendingJob::Layer>(lo, 2);
    obj.rest_pose = osk->joint_rest_poses();
    obj.output = ozz::make_span(oout);
    ozz::animation::LocalToModelJob ol2m;
    ol2m.skeleton = osk.get();
    ol2m.input = ozz::make_span(oout);
    ol2m.output = ozz::make_span(omodel);

    // the frame's parts, one frame at a time
    const uint32_t frames = 120;
    std::vector<float> ta(frames), tb(frames);
    for (uint32_t i = 0; i < frames; i++) {
        ta[i] = std::fmod((float)i / 60.0f, A.duration);
        tb[i] = std::fmod((float)i / 60.0f, B.duration);
    }
    auto p_sample = [&](uint32_t i) {
        if (plumbob_clip_sampler_sample(&A.sampler, ta[i], pa.data(), bones, nullptr, 0) != PLUMBOB_OK ||
            plumbob_clip_sampler_sample(&B.sampler, tb[i], pb.data(), bones, nullptr, 0) != PLUMBOB_OK)
            abort();
    };
    auto p_blend = [&] { if (plumbob_pose_blend(lp, 2, rest.data(), bones, PLUMBOB_BLEND_THRESHOLD, out.data(), bones) != PLUMBOB_OK) abort(); };
    auto p_to = [&] {
        if (plumbob_pose_to_soa(pa.data(), bones, sa.data(), soa) != PLUMBOB_OK ||
            plumbob_pose_to_soa(pb.data(), bones, sb.data(), soa) != PLUMBOB_OK)
            abort();
    };
    auto p_blend_soa = [&] { if (plumbob_pose_blend_soa(ls, 2, srest.data(), bones, PLUMBOB_BLEND_THRESHOLD, so.data(), soa) != PLUMBOB_OK) abort(); };
    auto p_from = [&] { if (plumbob_pose_from_soa(so.data(), bones, out.data(), bones) != PLUMBOB_OK) abort(); };
    auto p_model = [&] { if (plumbob_skeleton_model(&sk, out.data(), model.data(), bones) != PLUMBOB_OK) abort(); };
    auto p_model_soa = [&] {
        if (plumbob_skeleton_model_soa(&sk, so.data(), soa, model_soa.data(), bones) != PLUMBOB_OK) abort();
    };
    auto o_sample = [&](uint32_t i) {
        ozz::animation::SamplingJob ja, jb;
        ja.animation = A.ozz_anim.get(); ja.context = &ca; ja.ratio = ta[i] / A.duration; ja.output = ozz::make_span(oa);
        jb.animation = B.ozz_anim.get(); jb.context = &cb; jb.ratio = tb[i] / B.duration; jb.output = ozz::make_span(ob);
        if (!ja.Run() || !jb.Run()) abort();
    };
    auto o_blend = [&] { if (!obj.Run()) abort(); };
    auto o_l2m = [&] { if (!ol2m.Run()) abort(); };
    std::vector<double> t = interleaved(
        {[&] { for (uint32_t i = 0; i < frames; i++) { p_sample(i); p_blend(); p_model(); } keep(&model[0].m[0][0]); },
         [&] { for (uint32_t i = 0; i < frames; i++) { p_sample(i); p_to(); p_blend_soa(); p_model_soa(); } keep(&model_soa[0].m[0][0]); },
         [&] { for (uint32_t i = 0; i < frames; i++) { o_sample(i); o_blend(); o_l2m(); } keep((const float *)omodel.data()); },
         [&] { for (uint32_t i = 0; i < frames; i++) p_sample(i); keep(&pa[0].rotation.x); },
         [&] { for (uint32_t i = 0; i < frames; i++) p_blend(); keep(&out[0].rotation.x); },
         [&] { for (uint32_t i = 0; i < frames; i++) p_model(); keep(&model[0].m[0][0]); },
         [&] { for (uint32_t i = 0; i < frames; i++) p_to(); keep(sa[0].rx); },
         [&] { for (uint32_t i = 0; i < frames; i++) p_blend_soa(); keep(so[0].rx); },
         [&] { for (uint32_t i = 0; i < frames; i++) p_from(); keep(&out[0].rotation.x); },
         [&] { for (uint32_t i = 0; i < frames; i++) o_sample(i); keep((const float *)oa.data()); },
         [&] { for (uint32_t i = 0; i < frames; i++) o_blend(); keep((const float *)oout.data()); },
         [&] { for (uint32_t i = 0; i < frames; i++) o_l2m(); keep((const float *)omodel.data()); },
         [&] { for (uint32_t i = 0; i < frames; i++) p_model_soa(); keep(&model_soa[0].m[0][0]); }},
        g_quick ? 5 : 41);
    for (double &x : t) x = x / frames * 1e9;

    // the same model-space bone positions from both (mm), over every frame
    double worst = 0;
    bool same_bits = true; // the blocked frame's matrices are the AoS frame's
    for (uint32_t i = 0; i < frames; i++) {
        p_sample(i); p_to(); p_blend_soa(); p_model_soa();
        p_sample(i); p_blend(); p_model();
        same_bits = same_bits && memcmp(model.data(), model_soa.data(), sizeof(plumbob_mat34) * bones) == 0;
        o_sample(i); o_blend(); o_l2m();
        for (uint32_t j = 0; j < bones; j++) {
            float c[4];
            ozz::math::StorePtrU(omodel[j].cols[3], c);
            const plumbob_mat34 &m = model[of[j]];
            for (int k = 0; k < 3; k++) worst = std::max(worst, (double)std::fabs(m.m[k][3] - c[k]) * 1e3);
        }
    }
    char ctx[360];
    snprintf(ctx, sizeof ctx, "\"bones\": %u, \"clips\": [\"%s\", \"%s\"], \"bound_bones\": [%u, %u], \"layers\": 2, \"masked_layers\": 1, "
             "\"frames\": %u, \"port\": \"%s\", \"max_position_difference_mm\": %.2g, \"blocked_same_bits\": %s",
             bones, A.label.c_str(), B.label.c_str(), A.bound_bones, B.bound_bones, frames, PLUMBOB_PORT_NAME, worst,
             same_bits ? "true" : "false");
    report("frame", "ns_per_frame", ctx, {{"plumbob_aos", t[0]}, {"plumbob_soa", t[1]}, {"ozz", t[2]}});
    report("frame_ratio", "plumbob/ozz", ctx, {{"plumbob_aos", t[0] / t[2]}, {"plumbob_soa", t[1] / t[2]}});
    report("frame_parts_plumbob", "ns_per_frame", ctx,
           {{"sample_2", t[3]}, {"blend", t[4]}, {"model", t[5]}, {"to_soa_2", t[6]}, {"blend_soa", t[7]}, {"from_soa", t[8]},
            {"model_soa", t[12]}});
    report("frame_parts_ozz", "ns_per_frame", ctx, {{"sample_2", t[9]}, {"blend", t[10]}, {"local_to_model", t[11]}});
}

} // namespace

int main(int argc, char **argv) {
    std::vector<std::string> packages;
    const char *json = "build/compare/compare.jsonl";
    const char *only = nullptr;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick")) g_quick = true;
        else if (!strcmp(argv[i], "--json") && i + 1 < argc) json = argv[++i];
        else if (!strcmp(argv[i], "--only") && i + 1 < argc) only = argv[++i];
        else if (argv[i][0] == '-') {
            fprintf(stderr, "usage: plumbob-compare [--quick] [--only skin|skin_real|clips|cold|ik|blend|blend_soa|frame] [--json FILE] [PACKAGE...]\n");
            return 2;
        } else packages.push_back(argv[i]);
    }
    // one core, as the numbers in docs/BENCHMARKS.md were taken
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(0, &set);
    sched_setaffinity(0, sizeof set, &set);
    g_json = fopen(json, "w");
    if (!g_json) { fprintf(stderr, "%s: cannot write\n", json); return 1; }
    printf("plumbob %s (port %s) beside ozz-animation and ACL; medians of interleaved rounds\n",
           PLUMBOB_VERSION_STRING, PLUMBOB_PORT_NAME);
    if (!only || !strcmp(only, "clips") || !strcmp(only, "cold")) bench_clips(packages, only && !strcmp(only, "cold"));
    if (!only || !strcmp(only, "skin")) bench_skinning();
    if (only && !strcmp(only, "skin_real")) bench_skinning_real();
    if (!only || !strcmp(only, "ik")) bench_ik();
    if (!only || !strcmp(only, "blend")) bench_blend();
    if (!only || !strcmp(only, "blend") || !strcmp(only, "blend_soa")) bench_blend_soa();
    if (!only || !strcmp(only, "frame")) bench_frame(packages);
    fclose(g_json);
    printf("JSON lines: %s\n", json);
    return 0;
}
