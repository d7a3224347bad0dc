/* The prepared skinning mesh (plumbob_skin_prepare, plumbob_skin_prepared):
 * against plumbob_skin on the same descriptions (GMDC-like: implied last
 * weights, unused and out-of-table slots, a slot map, strided streams),
 * against a double-precision reference of the description's meaning
 * (both weight modes), the port against the scalar reference bit for
 * bit, ranges against one job, output layouts and the refusals. */
#include <string.h>
#include "test.h"
#include "skin_prepared.h"

#define PV 203u     /* vertices: blocks of 32 and a cut group of 8 at the end */
#define PSLOTS 12u  /* slots the description names */
#define PJOINTS 20u /* palette entries (slot k -> joint 19 - k) */
#define PSTRIDE 24u /* stream strides in bytes, when strided */

static unsigned char p_pos[PV * PSTRIDE], p_nrm[PV * PSTRIDE], p_joints[PV * 8u], p_weights[PV * PSTRIDE];
static uint16_t p_map[PSLOTS];
static unsigned char p_mem[PV * 64u + 4096u];
/* the jobs' work memory: in the shared test work memory, not statics
 * (bare metal's RAM is short); p_work may start at any alignment */
#define p_work (t_work())
#define p_skin_work (t_work() + PLUMBOB_SKIN_PREPARED_WORK_SIZE + 64u)
static float out_a[PV * 8u + 8u], out_b[PV * 8u + 8u], out_c[PV * 8u + 8u];

static void put_f(unsigned char *p, float f) {
    uint32_t u;
    memcpy(&u, &f, 4);
    p[0] = (unsigned char)u;
    p[1] = (unsigned char)(u >> 8);
    p[2] = (unsigned char)(u >> 16);
    p[3] = (unsigned char)(u >> 24);
}
static float get_f(const unsigned char *p) {
    uint32_t u = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    float f;
    memcpy(&f, &u, 4);
    return f;
}
static float frand(uint32_t *s, float lo, float hi) { return lo + (hi - lo) * (float)(t_rand(s) >> 8) / 16777216.0f; }

/* The palette: each joint a turn about an axis of its own, a scale near 1
 * and a move. */
static void p_palette(plumbob_mat34 *pal, uint32_t count) {
    uint32_t j, s = 0x1234567u;
    for (j = 0; j < count; j++) {
        float a = frand(&s, -0.9f, 0.9f), c = 1.0f - a * a / 2.0f + a * a * a * a / 24.0f, sn = a - a * a * a / 6.0f;
        float k = frand(&s, 0.9f, 1.1f);
        memset(&pal[j], 0, sizeof pal[j]);
        pal[j].m[0][0] = c * k;
        pal[j].m[0][1] = -sn * k;
        pal[j].m[1][0] = sn * k;
        pal[j].m[1][1] = c * k;
        pal[j].m[2][2] = k;
        pal[j].m[0][3] = frand(&s, -1, 1);
        pal[j].m[1][3] = frand(&s, -1, 1);
        pal[j].m[2][3] = frand(&s, -1, 1);
    }
}

/* A description of PV vertices: stored weights wc, mode, normals or not,
 * strided or packed streams; rigid runs, unused slots, slots past the
 * table and zero weights among the others. */
static void p_mesh(plumbob_skin_mesh *m, uint32_t wc, uint32_t mode, int normals, int strided, uint32_t seed) {
    uint32_t v, k, s = seed;
    uint32_t influences = mode == PLUMBOB_SKIN_WEIGHTS_EXPLICIT ? wc : wc + 1u;
    memset(m, 0, sizeof *m);
    m->vertex_count = PV;
    m->position_stride = strided ? PSTRIDE : 12u;
    m->normal_stride = strided ? PSTRIDE - 4u : 12u;
    m->joint_stride = strided ? 8u : 4u;
    m->weight_count = wc;
    m->weight_stride = strided ? 4u * wc + 4u : 4u * wc;
    m->weight_mode = mode;
    m->slot_count = PSLOTS;
    for (k = 0; k < PSLOTS; k++) p_map[k] = (uint16_t)(PJOINTS - 1u - k);
    m->slot_joint = p_map;
    m->positions = p_pos;
    m->normals = normals ? p_nrm : NULL;
    m->joints = p_joints;
    m->weights = wc ? p_weights : NULL;
    for (v = 0; v < PV; v++) {
        unsigned char *a = p_joints + m->joint_stride * v;
        float len = 0, q[3];
        int rigid = v >= 32u && v < 96u; /* two blocks of one weighing slot */
        for (k = 0; k < 3; k++) {
            put_f(p_pos + m->position_stride * v + 4u * k, frand(&s, -2, 2));
            q[k] = frand(&s, -1, 1);
            len += q[k] * q[k];
        }
        for (k = 0; k < 3; k++) put_f(p_nrm + m->normal_stride * v + 4u * k, len > 0.01f ? q[k] : (k == 2));
        for (k = 0; k < 4; k++) {
            uint32_t r = t_rand(&s) % 16u;
            a[k] = (unsigned char)(t_rand(&s) % PSLOTS);
            if (k >= influences || (rigid && k > 0)) a[k] = 0xFFu;
            else if (!rigid && r == 0) a[k] = 0xFFu;              /* unused */
            else if (!rigid && r == 1) a[k] = (unsigned char)200; /* past the table: a zero matrix */
        }
        for (k = 0; k < wc; k++) {
            float w = frand(&s, 0.05f, 1.0f / (float)influences);
            if (mode == PLUMBOB_SKIN_WEIGHTS_EXPLICIT && rigid) w = k == 0 ? 1.0f : 0.0f;
            else if (t_rand(&s) % 20u == 0) w = 0.0f;
            put_f(p_weights + m->weight_stride * v + 4u * k, w);
        }
    }
}

/* The description's meaning in doubles: vertex v's position and normal
 * (renormalized unless raw). */
static void p_ref(const plumbob_skin_mesh *m, const plumbob_mat34 *pal, uint32_t v, int raw, double p[3], double n[3]) {
    double c[12] = {0}, x[3], q[3], sum = 0, len = 0;
    uint32_t k, j, influences = m->weight_mode == PLUMBOB_SKIN_WEIGHTS_EXPLICIT ? m->weight_count : m->weight_count + 1u;
    float fsum = 0;
    for (k = 0; k < influences; k++) {
        uint32_t slot = m->joints[m->joint_stride * v + k];
        float w;
        if (slot == 0xFFu) continue;
        w = k < m->weight_count ? get_f(m->weights + m->weight_stride * v + 4u * k) : 1.0f - fsum;
        fsum += w;
        if (slot >= m->slot_count) continue;
        for (j = 0; j < 12; j++) c[j] += (double)w * pal[m->slot_joint[slot]].m[j / 4][j % 4];
    }
    (void)sum;
    for (j = 0; j < 3; j++) {
        x[j] = get_f(m->positions + m->position_stride * v + 4u * j);
        q[j] = m->normals ? get_f(m->normals + m->normal_stride * v + 4u * j) : (j == 2);
    }
    for (j = 0; j < 3; j++) {
        p[j] = c[4 * j] * x[0] + c[4 * j + 1] * x[1] + c[4 * j + 2] * x[2] + c[4 * j + 3];
        n[j] = c[4 * j] * q[0] + c[4 * j + 1] * q[1] + c[4 * j + 2] * q[2];
        len += n[j] * n[j];
    }
    if (!raw && len > 0) {
        double r = 1, lo = 0, hi = len > 1 ? len : 1; /* sqrt by bisection: no libm */
        for (j = 0; j < 200; j++) {
            r = (lo + hi) / 2;
            if (r * r > len) hi = r;
            else lo = r;
        }
        for (j = 0; j < 3; j++) n[j] /= r;
    }
}

/* Prepares m into p_mem (at an odd offset: any alignment). */
static plumbob_result p_prepare(const plumbob_skin_mesh *m, uint32_t options, plumbob_skin_prepared_mesh *pm) {
    size_t need = 0;
    plumbob_result rc = plumbob_skin_prepared_size(m, options, &need);
    if (rc != PLUMBOB_OK) return rc;
    CHECK(need + 1u <= sizeof p_mem);
    if (need + 1u > sizeof p_mem) return PLUMBOB_ERR_OUT_OF_MEMORY;
    rc = plumbob_skin_prepare(m, options, p_mem + 1, need, pm);
    if (rc == PLUMBOB_OK) CHECK(pm->bytes <= need);
    return rc;
}

static void p_job(plumbob_skin_prepared_job *j, const plumbob_skin_prepared_mesh *pm, const plumbob_mat34 *pal,
                  float *out, size_t stride, int normals, uint32_t flags) {
    memset(j, 0, sizeof *j);
    j->mesh = pm;
    j->palette = pal;
    j->palette_count = PJOINTS;
    j->positions = out;
    j->position_stride = stride;
    j->position_count = PV;
    j->normals = normals ? out + 3 : NULL;
    j->normal_stride = stride;
    j->normal_count = PV;
    j->flags = flags;
    j->work = p_work + 3;
}

/* The same mesh through plumbob_skin (the GMDC-reading path), positions
 * and normals interleaved at stride 6 into out. */
static plumbob_result p_skin_plain(plumbob_skin_job *sj, const plumbob_skin_mesh *m, const plumbob_mat34 *pal, float *out,
                                   uint32_t flags) {
    memset(sj, 0, sizeof *sj);
    sj->mesh = m;
    sj->palette = pal;
    sj->palette_count = PJOINTS;
    sj->positions = out;
    sj->position_stride = 6;
    sj->position_count = PV;
    sj->normals = out + 3;
    sj->normal_stride = 6;
    sj->normal_count = PV;
    sj->flags = flags;
    sj->work = p_skin_work;
    return plumbob_skin(sj);
}

static int same_bits(const float *a, const float *b, size_t n) { return memcmp(a, b, n * sizeof(float)) == 0; }

/* Implied-last descriptions of 1..4 influences, normals on and off,
 * packed and strided: the prepared path (port and reference, both normal
 * modes) against plumbob_skin within float rounding and against the
 * doubles; the port's bits are the reference's. */
void test_skin_prepared_matches_skin(void) {
    plumbob_mat34 pal[PJOINTS];
    uint32_t wc, nrm, strided, raw, v, c, spans_seen = 0;
    p_palette(pal, PJOINTS);
    for (wc = 0; wc <= 3; wc++)
        for (nrm = 0; nrm <= 1; nrm++)
            for (strided = 0; strided <= 1; strided++)
                for (raw = 0; raw <= 1; raw++) {
                    plumbob_skin_mesh m;
                    plumbob_skin_prepared_mesh pm;
                    plumbob_skin_prepared_job j;
                    plumbob_skin_job sj;
                    double worst = 0, worst_ref = 0;
                    uint32_t flags = raw ? PLUMBOB_SKIN_UNNORMALIZED : 0u;
                    p_mesh(&m, wc, PLUMBOB_SKIN_WEIGHTS_IMPLIED_LAST, (int)nrm, (int)strided, 0x9E3779B9u + wc);
                    CHECK_OK(p_prepare(&m, 0, &pm));
                    spans_seen += pm.span_count;
                    p_job(&j, &pm, pal, out_a, 6, 1, flags);
                    CHECK_OK(plumbob_skin_prepared(&j));
                    j.positions = out_b;
                    j.normals = out_b + 3;
                    j.flags = flags | PLUMBOB_SKIN_REFERENCE;
                    CHECK_OK(plumbob_skin_prepared(&j));
                    CHECK(same_bits(out_a, out_b, PV * 6u));
                    CHECK_OK(p_skin_plain(&sj, &m, pal, out_c, flags));
                    for (v = 0; v < PV; v++) {
                        double p[3], n[3];
                        p_ref(&m, pal, v, (int)raw, p, n);
                        for (c = 0; c < 6; c++) {
                            double d = (double)out_a[6 * v + c] - (double)out_c[6 * v + c];
                            double e = (double)out_a[6 * v + c] - (c < 3 ? p[c] : n[c - 3]);
                            if (d < 0) d = -d;
                            if (e < 0) e = -e;
                            if (d > worst) worst = d;
                            if (e > worst_ref) worst_ref = e;
                        }
                    }
                    CHECK(worst < 4e-6);
                    CHECK(worst_ref < 4e-6);
                }
    CHECK(spans_seen > 16u * 2u); /* rigid blocks and blended ones make several spans */
}

/* Explicit weights (GEOM's): 1..4 stored, none implied, against the
 * doubles; port against reference. */
void test_skin_prepared_explicit(void) {
    plumbob_mat34 pal[PJOINTS];
    uint32_t wc, v, c;
    p_palette(pal, PJOINTS);
    for (wc = 1; wc <= 4; wc++) {
        plumbob_skin_mesh m;
        plumbob_skin_prepared_mesh pm;
        plumbob_skin_prepared_job j;
        double worst = 0;
        p_mesh(&m, wc, PLUMBOB_SKIN_WEIGHTS_EXPLICIT, 1, wc % 2u, 0xABCDEFu + wc);
        CHECK_OK(p_prepare(&m, 0, &pm));
        p_job(&j, &pm, pal, out_a, 6, 1, PLUMBOB_SKIN_UNNORMALIZED);
        CHECK_OK(plumbob_skin_prepared(&j));
        j.positions = out_b;
        j.normals = out_b + 3;
        j.flags |= PLUMBOB_SKIN_REFERENCE;
        CHECK_OK(plumbob_skin_prepared(&j));
        CHECK(same_bits(out_a, out_b, PV * 6u));
        for (v = 0; v < PV; v++) {
            double p[3], n[3];
            p_ref(&m, pal, v, 1, p, n);
            for (c = 0; c < 6; c++) {
                double e = (double)out_a[6 * v + c] - (c < 3 ? p[c] : n[c - 3]);
                if (e < 0) e = -e;
                if (e > worst) worst = e;
            }
        }
        CHECK(worst < 4e-6);
    }
}

/* Output layouts (packed, separate packed arrays, a stride of 7 with
 * guards between), normals renormalized or not, positions-only meshes:
 * port against reference, nothing written outside a vertex's floats;
 * the positions-only mesh is smaller. */
void test_skin_prepared_layouts(void) {
    plumbob_mat34 pal[PJOINTS];
    uint32_t wc, layout, raw, i;
    p_palette(pal, PJOINTS);
    for (wc = 0; wc <= 3; wc++)
        for (layout = 0; layout < 4; layout++)
            for (raw = 0; raw <= 1; raw++) {
                plumbob_skin_mesh m;
                plumbob_skin_prepared_mesh pm;
                plumbob_skin_prepared_job j;
                float *outs[2] = {out_a, out_b};
                uint32_t o, flags = raw ? PLUMBOB_SKIN_UNNORMALIZED : 0u;
                size_t full, small;
                p_mesh(&m, wc, PLUMBOB_SKIN_WEIGHTS_IMPLIED_LAST, 1, 0, 77u + wc);
                CHECK_OK(plumbob_skin_prepared_size(&m, 0, &full));
                CHECK_OK(plumbob_skin_prepared_size(&m, PLUMBOB_SKIN_PREPARE_POSITIONS_ONLY, &small));
                CHECK(small + PV * 12u <= full);
                CHECK_OK(p_prepare(&m, layout == 3 ? PLUMBOB_SKIN_PREPARE_POSITIONS_ONLY : 0u, &pm));
                for (o = 0; o < 2; o++) {
                    float *out = outs[o];
                    memset(out, 0xEE, sizeof out_a);
                    memset(out_c, 0xEE, sizeof out_c);
                    if (layout == 0) { /* packed positions, packed normals apart */
                        p_job(&j, &pm, pal, out, 3, 0, flags);
                        j.normals = out_c + o * PV * 3u;
                        j.normal_stride = 3;
                    } else if (layout == 1) { /* stride 7: a guard float between vertices */
                        p_job(&j, &pm, pal, out, 7, 1, flags);
                    } else if (layout == 2) { /* interleaved, 6 */
                        p_job(&j, &pm, pal, out, 6, 1, flags);
                    } else { /* positions only, packed */
                        p_job(&j, &pm, pal, out, 3, 0, flags);
                    }
                    if (o) j.flags |= PLUMBOB_SKIN_REFERENCE;
                    CHECK_OK(plumbob_skin_prepared(&j));
                    if (layout == 0) memcpy(out + PV * 3u, out_c + o * PV * 3u, PV * 3u * sizeof(float));
                }
                CHECK(same_bits(out_a, out_b, PV * 7u + 8u));
                if (layout == 1) /* the guards stayed */
                    for (i = 0; i < PV; i++) CHECK_EQ(((unsigned char *)&out_a[7 * i + 6])[0], 0xEE);
                if (layout == 0 || layout == 3) /* nothing past the packed spans */
                    CHECK_EQ(((unsigned char *)&out_a[PV * (layout == 0 ? 6u : 3u)])[0], 0xEE);
                if (layout == 2) CHECK_EQ(((unsigned char *)&out_a[PV * 6u])[0], 0xEE);
            }
}

/* Normals the renormalization clamps (pb_normal_scale_clamped): zero,
 * squares that underflow to 0 or to a subnormal, squares that overflow
 * to infinity; rigid, blended and unskinned spans.  The port gives the
 * reference's bits (on ARMv7 too: only the squares are subnormal, and
 * flushed or not they clamp to FLT_MIN), every output is finite, a zero
 * normal stays zero and the others keep their direction. */
void test_skin_prepared_degenerate_normals(void) {
    static const float scale[5] = {0.0f, 1e-25f, 1e-20f, 1e25f, 1.0f};
    plumbob_mat34 pal[PJOINTS];
    uint32_t wc, skinned, v, c;
    p_palette(pal, PJOINTS);
    for (wc = 0; wc <= 3; wc++)
        for (skinned = 0; skinned <= 1; skinned++) {
            plumbob_skin_mesh m;
            plumbob_skin_prepared_mesh pm;
            plumbob_skin_prepared_job j;
            p_mesh(&m, wc, PLUMBOB_SKIN_WEIGHTS_IMPLIED_LAST, 1, 0, 0xC0FFEEu + wc);
            if (!skinned) m.joints = NULL; /* the pass-through spans */
            for (v = 0; v < PV; v++)
                for (c = 0; c < 3; c++) {
                    float f = get_f(p_nrm + 12u * v + 4u * c) * scale[v % 5u];
                    put_f(p_nrm + 12u * v + 4u * c, f);
                }
            CHECK_OK(p_prepare(&m, 0, &pm));
            p_job(&j, &pm, pal, out_a, 6, 1, 0);
            CHECK_OK(plumbob_skin_prepared(&j));
            p_job(&j, &pm, pal, out_b, 6, 1, PLUMBOB_SKIN_REFERENCE);
            CHECK_OK(plumbob_skin_prepared(&j));
            CHECK(same_bits(out_a, out_b, PV * 6u));
            for (v = 0; v < PV; v++) {
                float *n = out_a + 6u * v + 3u;
                for (c = 0; c < 6; c++) CHECK(out_a[6u * v + c] - out_a[6u * v + c] == 0.0f);
                if (v % 5u == 0u) CHECK(n[0] == 0.0f && n[1] == 0.0f && n[2] == 0.0f);
            }
        }
}

/* PLUMBOB_SKIN_PREPARE_SORTED: the order is a permutation whose classes
 * (no weighing influence, rigid, then 1..4 influences that weigh) never
 * decrease and which keeps mesh order inside a class; the sorted mesh's
 * output at position i is the unsorted one's at vertex order[i] (as
 * floats: a padded zero influence may turn a -0 into +0), in no more
 * bytes; a range in the prepared order; the port gives the reference's
 * bits; the refusals. */
static uint32_t p_class(const plumbob_skin_mesh *m, uint32_t v) {
    uint32_t k, n = 0, influences = m->weight_mode == PLUMBOB_SKIN_WEIGHTS_EXPLICIT ? m->weight_count : m->weight_count + 1u;
    float sum = 0, w0 = 0;
    for (k = 0; k < influences; k++) {
        uint32_t slot = m->joints[m->joint_stride * v + k];
        float w;
        if (slot == 0xFFu) continue;
        w = k < m->weight_count ? get_f(m->weights + m->weight_stride * v + 4u * k) : 1.0f - sum;
        sum += w;
        if (slot >= m->slot_count || w == 0.0f) continue;
        if (!n) w0 = w;
        n++;
    }
    return n == 0 ? 0u : n == 1u && w0 == 1.0f ? 1u : 1u + n;
}

void test_skin_prepared_sorted(void) {
    static uint32_t order[PV + 1u], seen[PV];
    plumbob_mat34 pal[PJOINTS];
    uint32_t wc, raw, i, c;
    p_palette(pal, PJOINTS);
    for (wc = 0; wc <= 3; wc++)
        for (raw = 0; raw <= 1; raw++) {
            plumbob_skin_mesh m;
            plumbob_skin_prepared_mesh pm;
            plumbob_skin_prepared_job j;
            uint32_t flags = raw ? PLUMBOB_SKIN_UNNORMALIZED : 0u;
            size_t plain, sorted;
            p_mesh(&m, wc, PLUMBOB_SKIN_WEIGHTS_IMPLIED_LAST, 1, (int)(wc & 1u), 0x5EED0u + wc);
            CHECK_OK(plumbob_skin_prepared_size(&m, 0, &plain));
            CHECK_OK(plumbob_skin_prepared_size(&m, PLUMBOB_SKIN_PREPARE_SORTED, &sorted));
            CHECK(sorted <= plain);
            CHECK_OK(plumbob_skin_prepared_order(&m, PLUMBOB_SKIN_PREPARE_SORTED, order, PV));
            memset(seen, 0, sizeof seen);
            for (i = 0; i < PV; i++) {
                CHECK(order[i] < PV);
                if (order[i] < PV) seen[order[i]]++;
                if (i) {
                    uint32_t a = p_class(&m, order[i - 1u]), b = p_class(&m, order[i]);
                    CHECK(a < b || (a == b && order[i - 1u] < order[i]));
                }
            }
            for (i = 0; i < PV; i++) CHECK_EQ(seen[i], 1u);
            /* unsorted: the plain mesh's output */
            CHECK_OK(p_prepare(&m, 0, &pm));
            p_job(&j, &pm, pal, out_c, 6, 1, flags);
            CHECK_OK(plumbob_skin_prepared(&j));
            CHECK_OK(p_prepare(&m, PLUMBOB_SKIN_PREPARE_SORTED, &pm));
            p_job(&j, &pm, pal, out_a, 6, 1, flags);
            CHECK_OK(plumbob_skin_prepared(&j));
            p_job(&j, &pm, pal, out_b, 6, 1, flags | PLUMBOB_SKIN_REFERENCE);
            CHECK_OK(plumbob_skin_prepared(&j));
            CHECK(same_bits(out_a, out_b, PV * 6u));
            for (i = 0; i < PV; i++)
                for (c = 0; c < 6; c++) CHECK(out_a[6u * i + c] == out_c[6u * order[i] + c]);
            /* a range in the prepared order: one job's bits */
            memset(out_b, 0, sizeof out_b);
            p_job(&j, &pm, pal, out_b, 6, 1, flags);
            j.first_vertex = 37;
            j.vertex_count = 101;
            CHECK_OK(plumbob_skin_prepared(&j));
            CHECK(same_bits(out_a + 6u * 37u, out_b + 6u * 37u, 101u * 6u));
        }
    {
        plumbob_skin_mesh m;
        p_mesh(&m, 2, PLUMBOB_SKIN_WEIGHTS_IMPLIED_LAST, 1, 0, 9u);
        CHECK_OK(plumbob_skin_prepared_order(&m, 0, order, PV));
        for (i = 0; i < PV; i++) CHECK_EQ(order[i], i);
        CHECK_EQ(plumbob_skin_prepared_order(NULL, 0, order, PV), PLUMBOB_ERR_INVALID_ARGUMENT);
        CHECK_EQ(plumbob_skin_prepared_order(&m, 0, NULL, PV), PLUMBOB_ERR_INVALID_ARGUMENT);
        CHECK_EQ(plumbob_skin_prepared_order(&m, 8u, order, PV), PLUMBOB_ERR_INVALID_ARGUMENT);
        CHECK_EQ(plumbob_skin_prepared_order(&m, PLUMBOB_SKIN_PREPARE_SORTED, order, PV - 1u),
                 PLUMBOB_ERR_OUTPUT_TOO_SMALL);
        put_f(p_weights + m.weight_stride * 150u, 1e38f * 10.0f); /* not finite */
        CHECK_EQ(plumbob_skin_prepared_order(&m, PLUMBOB_SKIN_PREPARE_SORTED, order, PV), PLUMBOB_ERR_BAD_DATA);
        m.joints = NULL; /* unskinned: the mesh's order */
        CHECK_OK(plumbob_skin_prepared_order(&m, PLUMBOB_SKIN_PREPARE_SORTED, order, PV));
        for (i = 0; i < PV; i++) CHECK_EQ(order[i], i);
    }
}

/* Ranges (cut groups, spans and blocks, any work alignment) give one
 * job's bits and touch nothing else; an unskinned mesh passes through. */
void test_skin_prepared_ranges(void) {
    static const uint32_t cuts[][2] = {{0, 5}, {5, 30}, {35, 61}, {96, 1}, {97, 100}, {197, 0}};
    plumbob_mat34 pal[PJOINTS];
    uint32_t wc, c, v;
    p_palette(pal, PJOINTS);
    for (wc = 0; wc <= 4; wc++) {
        plumbob_skin_mesh m;
        plumbob_skin_prepared_mesh pm;
        plumbob_skin_prepared_job j;
        p_mesh(&m, wc > 3 ? 2u : wc, PLUMBOB_SKIN_WEIGHTS_IMPLIED_LAST, 1, 1, 5u + wc);
        if (wc == 4) m.joints = NULL; /* unskinned */
        CHECK_OK(p_prepare(&m, 0, &pm));
        p_job(&j, &pm, pal, out_a, 6, 1, 0);
        CHECK_OK(plumbob_skin_prepared(&j));
        memset(out_b, 0xCD, sizeof out_b);
        j.positions = out_b;
        j.normals = out_b + 3;
        for (c = 0; c < sizeof cuts / sizeof cuts[0]; c++) {
            j.first_vertex = cuts[c][0];
            j.vertex_count = cuts[c][1];
            j.work = p_work + c % 3u;
            CHECK_OK(plumbob_skin_prepared(&j));
            if (c == 0)
                for (v = 5 * 6; v < PV * 6u; v++) CHECK_EQ(((unsigned char *)&out_b[v])[0], 0xCD);
        }
        CHECK(same_bits(out_a, out_b, PV * 6u));
        if (wc == 4) /* positions as they are */
            for (v = 0; v < PV; v++) CHECK(out_a[6 * v + 1] == get_f(p_pos + m.position_stride * v + 4u));
    }
}

/* The refusals of prepare and of the job. */
void test_skin_prepared_errors(void) {
    plumbob_mat34 pal[PJOINTS];
    plumbob_skin_mesh m, bad;
    plumbob_skin_prepared_mesh pm;
    plumbob_skin_prepared_job j;
    size_t need;
    p_palette(pal, PJOINTS);
    p_mesh(&m, 2, PLUMBOB_SKIN_WEIGHTS_IMPLIED_LAST, 1, 0, 99u);
    CHECK_EQ(plumbob_skin_prepared_size(NULL, 0, &need), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_skin_prepared_size(&m, 0, NULL), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_skin_prepared_size(&m, 8u, &need), PLUMBOB_ERR_INVALID_ARGUMENT);
    bad = m;
    bad.weight_count = 4;
    CHECK_EQ(plumbob_skin_prepared_size(&bad, 0, &need), PLUMBOB_ERR_INVALID_ARGUMENT);
    bad.weight_mode = PLUMBOB_SKIN_WEIGHTS_EXPLICIT;
    bad.weight_stride = 16;
    CHECK_OK(plumbob_skin_prepared_size(&bad, 0, &need));
    bad.weight_count = 0;
    CHECK_EQ(plumbob_skin_prepared_size(&bad, 0, &need), PLUMBOB_ERR_INVALID_ARGUMENT);
    bad.weight_mode = 7;
    CHECK_EQ(plumbob_skin_prepared_size(&bad, 0, &need), PLUMBOB_ERR_UNSUPPORTED);
    bad = m;
    bad.slot_count = 256;
    CHECK_EQ(plumbob_skin_prepared_size(&bad, 0, &need), PLUMBOB_ERR_INVALID_ARGUMENT);
    bad = m;
    bad.position_stride = 8;
    CHECK_EQ(plumbob_skin_prepared_size(&bad, 0, &need), PLUMBOB_ERR_INVALID_ARGUMENT);
    bad = m;
    bad.weights = NULL;
    CHECK_EQ(plumbob_skin_prepared_size(&bad, 0, &need), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_OK(plumbob_skin_prepared_size(&m, 0, &need));
    CHECK_EQ(plumbob_skin_prepare(&m, 0, p_mem, need - 1u, &pm), PLUMBOB_ERR_OUT_OF_MEMORY);
    CHECK_EQ(plumbob_skin_prepare(&m, 0, NULL, need, &pm), PLUMBOB_ERR_INVALID_ARGUMENT);
    { /* a weight that is not finite, stored or implied */
        float inf = 1e38f;
        inf *= 10.0f;
        unsigned char slot0 = p_joints[4u * 150u];
        p_joints[4u * 150u] = 1;
        put_f(p_weights + 8u * 150u, inf);
        CHECK_EQ(plumbob_skin_prepared_size(&m, 0, &need), PLUMBOB_ERR_BAD_DATA);
        CHECK_EQ(plumbob_skin_prepare(&m, 0, p_mem, sizeof p_mem, &pm), PLUMBOB_ERR_BAD_DATA);
        put_f(p_weights + 8u * 150u, 0.25f);
        p_joints[4u * 150u] = slot0;
    }
    CHECK_OK(p_prepare(&m, PLUMBOB_SKIN_PREPARE_POSITIONS_ONLY, &pm));
    CHECK_EQ(pm.palette_needed, PJOINTS);
    p_job(&j, &pm, pal, out_a, 6, 1, 0);
    CHECK_EQ(plumbob_skin_prepared(&j), PLUMBOB_ERR_INVALID_ARGUMENT); /* normals of a positions-only mesh */
    j.normals = NULL;
    CHECK_OK(plumbob_skin_prepared(&j));
    j.palette_count = PJOINTS - 1u;
    CHECK_EQ(plumbob_skin_prepared(&j), PLUMBOB_ERR_BAD_INDEX);
    j.palette_count = PJOINTS;
    j.position_count = PV - 1u;
    CHECK_EQ(plumbob_skin_prepared(&j), PLUMBOB_ERR_OUTPUT_TOO_SMALL);
    j.position_count = PV;
    j.flags = 4;
    CHECK_EQ(plumbob_skin_prepared(&j), PLUMBOB_ERR_INVALID_ARGUMENT);
    j.flags = 0;
    j.first_vertex = PV;
    CHECK_OK(plumbob_skin_prepared(&j)); /* empty at the end */
    j.vertex_count = 1;
    CHECK_EQ(plumbob_skin_prepared(&j), PLUMBOB_ERR_INVALID_ARGUMENT);
    j.first_vertex = 0;
    j.vertex_count = 0;
    j.work = NULL;
    CHECK_EQ(plumbob_skin_prepared(&j), PLUMBOB_ERR_INVALID_ARGUMENT);
    j.work = p_work;
    j.palette = NULL;
    CHECK_EQ(plumbob_skin_prepared(&j), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_skin_prepared(NULL), PLUMBOB_ERR_INVALID_ARGUMENT);
}

/* --- PLUMBOB_SKIN_PREPARE_SHARED ------------------------------------------ */

/* p_mesh's description with its slots drawn from `patterns` tuples (one
 * with a slot twice) in runs of 1..12 vertices, each vertex listing its
 * tuple's slots in an order of its own; p_mesh's unused, past-the-table
 * and zero-weight influences stay, so a run's vertices weigh subsets of
 * the tuple and the classes mix. */
static void p_mesh_tuples(plumbob_skin_mesh *m, uint32_t wc, uint32_t mode, int normals, int strided, uint32_t seed,
                          uint32_t patterns) {
    static const unsigned char pat[7][4] = {{1, 4, 7, 10}, {2, 3, 5, 11}, {6, 6, 0, 9}, {8, 1, 3, 2},
                                            {0, 11, 4, 5}, {9, 7, 2, 1}, {3, 10, 8, 6}};
    uint32_t v, k, s = seed ^ 0x5bd1e995u, run = 0, p = 0, rot;
    p_mesh(m, wc, mode, normals, strided, seed);
    for (v = 0; v < PV; v++) {
        unsigned char *a = p_joints + m->joint_stride * v;
        if (!run) {
            run = 1u + t_rand(&s) % 12u;
            p = t_rand(&s) % patterns;
        }
        run--;
        rot = t_rand(&s) % 4u;
        for (k = 0; k < 4; k++)
            if (a[k] < PSLOTS) a[k] = pat[p][(k + rot) % 4u];
    }
}

/* Vertex v's weighing slots in slot order (a tuple) and its class. */
static uint64_t p_tuple(const plumbob_skin_mesh *m, uint32_t v) {
    uint32_t k, n = 0, influences = m->weight_mode == PLUMBOB_SKIN_WEIGHTS_EXPLICIT ? m->weight_count : m->weight_count + 1u;
    unsigned char s[4];
    float sum = 0, w1 = 0;
    uint64_t key = 0;
    for (k = 0; k < influences; k++) {
        uint32_t slot = m->joints[m->joint_stride * v + k];
        float w;
        if (slot == 0xFFu) continue;
        w = k < m->weight_count ? get_f(m->weights + m->weight_stride * v + 4u * k) : 1.0f - sum;
        sum += w;
        if (slot >= m->slot_count || w == 0.0f) continue;
        s[n++] = (unsigned char)slot;
        w1 = w;
    }
    for (k = 1; k < n; k++) {
        uint32_t j;
        for (j = k; j > 0 && s[j - 1u] > s[j]; j--) {
            unsigned char t = s[j];
            s[j] = s[j - 1u];
            s[j - 1u] = t;
        }
    }
    for (k = 0; k < 4; k++) key = key << 8 | (k < n ? s[k] : 0xFFu);
    return n == 0 ? 0 : (uint64_t)(n == 1 && w1 == 1.0f ? 1u : 1u + n) << 32 | key;
}

/* Both weight modes, 1..4 influences, 1, 3 and 7 tuples: the shared
 * order is a permutation whose first part is aligned fours of one tuple;
 * the shared mesh's output at i is plumbob_skin's at order[i] within
 * float rounding (and the doubles'); the port gives the reference's bits
 * in every output layout; ranges across shared and other blocks give one
 * job's bits; the mesh keeps fewer bytes than without sharing. */
void test_skin_prepared_shared(void) {
    static uint32_t order[PV], seen[PV];
    static const uint32_t cuts[][2] = {{0, 3}, {3, 30}, {33, 60}, {93, 1}, {94, 101}, {195, 0}};
    plumbob_mat34 pal[PJOINTS];
    uint32_t mode, wc, pats, nrm, i, c, shared_seen = 0;
    p_palette(pal, PJOINTS);
    for (mode = 0; mode < 2; mode++)
        for (wc = mode ? 1u : 0u; wc <= (mode ? 4u : 3u); wc++)
            for (pats = 1; pats <= 7; pats += 3)
                for (nrm = 0; nrm <= 1; nrm++) {
                    uint32_t wm = mode ? PLUMBOB_SKIN_WEIGHTS_EXPLICIT : PLUMBOB_SKIN_WEIGHTS_IMPLIED_LAST;
                    uint32_t opt = PLUMBOB_SKIN_PREPARE_SHARED, layout, raw, lead;
                    plumbob_skin_mesh m;
                    plumbob_skin_prepared_mesh pm;
                    plumbob_skin_prepared_job j;
                    plumbob_skin_job sj;
                    size_t need, plain;
                    double worst = 0, worst_ref = 0;
                    p_mesh_tuples(&m, wc, wm, (int)nrm, (int)(pats & 2u), 0x51u * wc + pats + 7u * mode, pats);
                    CHECK_OK(plumbob_skin_prepared_order(&m, opt, order, PV));
                    memset(seen, 0, sizeof seen);
                    for (i = 0; i < PV; i++)
                        if (order[i] < PV) seen[order[i]]++;
                    for (i = 0; i < PV; i++) CHECK_EQ(seen[i], 1u);
                    /* the lead: aligned fours of one tuple, tuples ascending */
                    for (lead = 0; lead + 4u <= PV; lead += 4u) {
                        uint64_t t = p_tuple(&m, order[lead]);
                        if (t == 0 || p_tuple(&m, order[lead + 1u]) != t || p_tuple(&m, order[lead + 2u]) != t ||
                            p_tuple(&m, order[lead + 3u]) != t || (lead && p_tuple(&m, order[lead - 1u]) > t))
                            break;
                    }
                    CHECK_OK(plumbob_skin_prepared_size(&m, PLUMBOB_SKIN_PREPARE_SORTED, &plain));
                    CHECK_OK(plumbob_skin_prepared_size(&m, opt, &need));
                    CHECK_OK(p_prepare(&m, opt, &pm));
                    { /* the lead holds every run of one tuple cut to fours (the
                       * rest may add a coincidental four) */
                        uint32_t want = 0, v2, u;
                        for (v2 = 0; v2 < PV; v2++) {
                            uint64_t t = p_tuple(&m, v2);
                            uint32_t same = 0, before = 0;
                            if (!t) continue;
                            for (u = 0; u < PV; u++)
                                if (p_tuple(&m, u) == t) {
                                    same++;
                                    if (u < v2) before++;
                                }
                            if (before < same - same % 4u) want++;
                        }
                        CHECK(lead >= want);
                    }
                    CHECK(pm.shared_vertices <= PV);
                    shared_seen += pm.shared_vertices;
                    if (pats == 1 && wc >= 1u) CHECK(pm.shared_vertices >= 64u);
                    /* a shared block keeps fewer entries, the order makes
                     * more spans (each stream aligned to 64) */
                    CHECK(pm.bytes <= plain + 64u * 5u * pm.span_count);
                    for (raw = 0; raw <= 1; raw++) {
                        uint32_t flags = raw ? PLUMBOB_SKIN_UNNORMALIZED : 0u;
                        CHECK_OK(p_skin_plain(&sj, &m, pal, out_c, flags));
                        p_job(&j, &pm, pal, out_a, 6, 1, flags);
                        CHECK_OK(plumbob_skin_prepared(&j));
                        for (i = 0; i < PV; i++) {
                            double p[3], n[3];
                            p_ref(&m, pal, order[i], (int)raw, p, n);
                            for (c = 0; c < 6; c++) {
                                double d = (double)out_a[6 * i + c] - (double)out_c[6 * order[i] + c];
                                double e = (double)out_a[6 * i + c] - (c < 3 ? p[c] : n[c - 3]);
                                if (d < 0) d = -d;
                                if (e < 0) e = -e;
                                if (d > worst) worst = d;
                                if (e > worst_ref) worst_ref = e;
                            }
                        }
                        /* ranges: one job's bits */
                        memset(out_b, 0xCD, sizeof out_b);
                        j.positions = out_b;
                        j.normals = out_b + 3;
                        for (c = 0; c < sizeof cuts / sizeof cuts[0]; c++) {
                            j.first_vertex = cuts[c][0];
                            j.vertex_count = cuts[c][1];
                            j.work = p_work + c % 3u;
                            CHECK_OK(plumbob_skin_prepared(&j));
                        }
                        CHECK(same_bits(out_a, out_b, PV * 6u));
                        /* the port against the reference in each output layout */
                        for (layout = 0; layout < 4; layout++) {
                            float *outs[2] = {out_a, out_b};
                            uint32_t o;
                            for (o = 0; o < 2; o++) {
                                memset(outs[o], 0xEE, sizeof out_a);
                                if (layout == 0) {
                                    p_job(&j, &pm, pal, outs[o], 3, 0, flags);
                                    j.normals = outs[o] + PV * 3u + 4u;
                                    j.normal_stride = 3;
                                } else if (layout == 1) p_job(&j, &pm, pal, outs[o], 7, 1, flags);
                                else if (layout == 2) p_job(&j, &pm, pal, outs[o], 6, 1, flags);
                                else p_job(&j, &pm, pal, outs[o], 3, 0, flags);
                                if (o) j.flags |= PLUMBOB_SKIN_REFERENCE;
                                CHECK_OK(plumbob_skin_prepared(&j));
                            }
                            CHECK(same_bits(out_a, out_b, PV * 7u + 8u));
                        }
                    }
                    CHECK(worst < 4e-6);
                    CHECK(worst_ref < 4e-6);
                }
    CHECK(shared_seen > 1000u);
    { /* refusals: a mesh of 2^31 vertices, a bound below the need */
        plumbob_skin_mesh m;
        plumbob_skin_prepared_mesh pm;
        size_t need;
        p_mesh_tuples(&m, 2, PLUMBOB_SKIN_WEIGHTS_IMPLIED_LAST, 1, 0, 3u, 3);
        CHECK_OK(plumbob_skin_prepared_size(&m, PLUMBOB_SKIN_PREPARE_SHARED, &need));
        CHECK_EQ(plumbob_skin_prepare(&m, PLUMBOB_SKIN_PREPARE_SHARED, p_mem, need - 64u, &pm), PLUMBOB_ERR_OUT_OF_MEMORY);
        put_f(p_weights + m.weight_stride * 150u, 1.0f / 0.0f); /* not finite: refused by all three */
        CHECK_EQ(plumbob_skin_prepared_size(&m, PLUMBOB_SKIN_PREPARE_SHARED, &need), PLUMBOB_ERR_BAD_DATA);
        CHECK_EQ(plumbob_skin_prepare(&m, PLUMBOB_SKIN_PREPARE_SHARED, p_mem, sizeof p_mem, &pm), PLUMBOB_ERR_BAD_DATA);
        CHECK_EQ(plumbob_skin_prepared_order(&m, PLUMBOB_SKIN_PREPARE_SHARED, order, PV), PLUMBOB_ERR_BAD_DATA);
        m.vertex_count = 0x80000000u;
        CHECK_EQ(plumbob_skin_prepared_size(&m, PLUMBOB_SKIN_PREPARE_SHARED, &need), PLUMBOB_ERR_INVALID_ARGUMENT);
        m.vertex_count = PV;
        m.joints = NULL; /* unskinned: the mesh's order, passed through */
        CHECK_OK(plumbob_skin_prepared_order(&m, PLUMBOB_SKIN_PREPARE_SHARED, order, PV));
        for (i = 0; i < PV; i++) CHECK_EQ(order[i], i);
        CHECK_OK(p_prepare(&m, PLUMBOB_SKIN_PREPARE_SHARED, &pm));
        CHECK_EQ(pm.shared_vertices, 0u);
    }
}

/* The jobs' slot tables (pb_skin_put_entries): the port's twin gives the
 * scalar loop's bits (rows, zeros, columns, splats) on matrices holding
 * every special value, through a joint map and without one; and the
 * values themselves: -0 stored as +0, every NaN as 0x7FC00000, the rest
 * (infinities, subnormals) as they are. */
static uint32_t bits_of(float f) {
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}
void test_skin_put_entries_bits(void) {
    static const uint32_t special[] = {0x00000000u, 0x80000000u, 0x7FC00000u, 0x7FC00001u, 0xFFC00000u, 0x7F800001u,
                                       0xFF812345u, 0x7F800000u, 0xFF800000u, 0x00000001u, 0x80000001u, 0x7F7FFFFFu,
                                       0x3F800000u, 0xBF800000u, 0x3DCCCCCDu};
    static plumbob_mat34 pal[9];
    static float ta[9u * PB_SKIN_ENTRY], tb[9u * PB_SKIN_ENTRY], sa[9u * PB_SKINP_SPLAT], sb[9u * PB_SKINP_SPLAT];
    const uint32_t ns = (uint32_t)(sizeof special / sizeof special[0]);
    uint16_t map[9];
    uint32_t k, i, j, s = 7u;
    int pass;
    for (k = 0; k < 9u; k++) {
        map[k] = (uint16_t)(8u - k);
        for (j = 0; j < 3u; j++)
            for (i = 0; i < 4u; i++) {
                uint32_t u = special[(k * 12u + j * 4u + i) % ns];
                if (k >= 5u) u = special[t_rand(&s) % ns];
                memcpy(&pal[k].m[j][i], &u, 4);
            }
    }
    for (pass = 0; pass < 2; pass++) {
        const uint16_t *jm = pass ? map : NULL;
        for (i = 0; i < 9u * PB_SKIN_ENTRY; i++) ta[i] = tb[i] = 5.0f; /* every float written */
        for (i = 0; i < 9u * PB_SKINP_SPLAT; i++) sa[i] = sb[i] = 5.0f;
        pb_skin_put_entries_scalar(ta, sa, pal, jm, 9);
        PB_SKIN_PUT_ENTRIES(tb, sb, pal, jm, 9);
        for (i = 0; i < 9u * PB_SKIN_ENTRY; i++) CHECK_EQ(bits_of(tb[i]), bits_of(ta[i]));
        for (i = 0; i < 9u * PB_SKINP_SPLAT; i++) CHECK_EQ(bits_of(sb[i]), bits_of(sa[i]));
        for (k = 0; k < 9u; k++) {
            const float *m = &pal[jm ? jm[k] : k].m[0][0];
            for (j = 0; j < 12u; j++) {
                uint32_t u = bits_of(m[j]), want = u;
                if ((u & 0x7FFFFFFFu) > 0x7F800000u) want = 0x7FC00000u;
                else if (u == 0x80000000u) want = 0u;
                CHECK_EQ(bits_of(ta[PB_SKIN_ENTRY * k + j]), want);
                CHECK_EQ(bits_of(ta[PB_SKIN_ENTRY * k + PB_SKIN_COLUMNS + 4u * (j % 4u) + j / 4u]), want);
                for (i = 0; i < 4u; i++) CHECK_EQ(bits_of(sa[PB_SKINP_SPLAT * k + 4u * j + i]), want);
            }
            for (j = 12u; j < 16u; j++) CHECK_EQ(bits_of(ta[PB_SKIN_ENTRY * k + j]), 0u);
            for (j = 0; j < 4u; j++) CHECK_EQ(bits_of(ta[PB_SKIN_ENTRY * k + PB_SKIN_COLUMNS + 4u * j + 3u]), 0u);
        }
        /* without splats: the table alone, splat memory untouched */
        for (i = 0; i < 9u * PB_SKINP_SPLAT; i++) sb[i] = 5.0f;
        PB_SKIN_PUT_ENTRIES(tb, NULL, pal, jm, 9);
        for (i = 0; i < 9u * PB_SKIN_ENTRY; i++) CHECK_EQ(bits_of(tb[i]), bits_of(ta[i]));
        for (i = 0; i < 9u * PB_SKINP_SPLAT; i++) CHECK_EQ(bits_of(sb[i]), bits_of(5.0f));
    }
}
