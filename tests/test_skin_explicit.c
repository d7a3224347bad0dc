/* Explicit weights (PLUMBOB_SKIN_WEIGHTS_EXPLICIT, GEOM's): one stored
 * weight per influence, none implied.  The compiled port against the
 * scalar reference bit for bit (every count 1..4, every output layout the
 * SIMD kernels store specially, one-slot runs, odd values), both against a
 * double-precision reading of the contract, and the format-neutral job on
 * strided (staged) and packed streams.  Checks only: the unit digest is
 * the one it was before explicit weights. */
#include <string.h>
#include "test.h"
#include "pb_bytes.h"
#include "kernels.h"
#include "pb_math.h"

static double ex_sqrt(double x) {
    double r = x > 1.0 ? x : 1.0;
    int i;
    if (x <= 0.0) return 0.0;
    for (i = 0; i < 60; i++) r = 0.5 * (r + x / r);
    return r;
}

/* The contract in doubles: C = sum over k < weight_count of w_k M_slot_k
 * (0xFF weighs 0, a slot past the table a zero matrix); the worst
 * difference from the kernel's output. */
static double explicit_contract_error(const pb_skin_range *r) {
    double worst = 0.0;
    uint32_t v, k, j;
    for (v = 0; v < r->count; v++) {
        double rows[3][4] = {{0}}, nrm[3], len2 = 0.0, d;
        for (k = 0; k < r->weight_count; k++) {
            uint32_t slot = r->assignments[4 * v + k];
            double w = pb_f32le(r->weights + 4 * (r->weight_count * v + k));
            if (slot == 0xFFu || slot >= r->slot_count) continue;
            for (j = 0; j < 12; j++) rows[j / 4][j % 4] += w * r->slot_table[PB_SKIN_ENTRY * slot + j];
        }
        for (j = 0; j < 3; j++) {
            const unsigned char *p = r->positions + 12 * v;
            d = rows[j][0] * pb_f32le(p) + rows[j][1] * pb_f32le(p + 4) + rows[j][2] * pb_f32le(p + 8) + rows[j][3] -
                r->out_positions[r->position_stride * v + j];
            if (d < 0) d = -d;
            if (d > worst) worst = d;
        }
        if (!r->normals) continue;
        for (j = 0; j < 3; j++) {
            const unsigned char *p = r->normals + 12 * v;
            nrm[j] = rows[j][0] * pb_f32le(p) + rows[j][1] * pb_f32le(p + 4) + rows[j][2] * pb_f32le(p + 8);
            len2 += nrm[j] * nrm[j];
        }
        if (r->normalize && len2 < 1e-6) continue; /* direction undefined */
        for (j = 0; j < 3; j++) {
            d = (r->normalize ? nrm[j] / ex_sqrt(len2) : nrm[j]) - r->out_normals[r->normal_stride * v + j];
            if (d < 0) d = -d;
            if (d > worst) worst = d;
        }
    }
    return worst;
}

static int ex_same_or_both_nan(const float *a, const float *b, size_t n) {
    size_t i;
    for (i = 0; i < n; i++)
        if (memcmp(&a[i], &b[i], sizeof(float)) != 0 && !(a[i] != a[i] && b[i] != b[i])) return 0;
    return 1;
}

/* Every explicit weight count (1..4), normals or not, normalized or not,
 * the three output layouts (any strides, packed triples, positions and
 * normals interleaved), unused slots and slots past the table, runs of
 * vertices using only their first slot (weight exactly 1: rigid blocks;
 * other weights: one-weight blocks, where one explicit influence adds no
 * +0 term), odd values (+-0, infinities, NaN, huge, subnormals but on
 * ARMv7 NEON) in half the rounds: the port gives the reference's bits
 * (NaN payloads aside), nothing is written past the last vertex, and on
 * tame values both meet the double-precision contract. */
void test_skin_explicit_port_matches_scalar(void) {
    static const float odd[] = {0.0f, -0.0f, 1.0f / 0.0f, -1.0f / 0.0f, 3e38f, -3e38f, 0.5f, 1.0f, -1.0f,
                                0.0f / 0.0f, 1e-40f, -1e-40f}; /* subnormals last */
    static float rows_mem[256 * PB_SKIN_ENTRY + 16];
    static uint16_t offsets[256];
    static unsigned char in[301 * 44 + 8];
    static float out_a[301 * 9 + 8], out_b[301 * 9 + 8];
    float *rows = (float *)(void *)(((uintptr_t)rows_mem + 63u) & ~(uintptr_t)63u);
    uint32_t seed = 0xE8B1u, i, round, n_odd = (uint32_t)(sizeof odd / sizeof odd[0]);
#if defined(PLUMBOB_PORT_NEON) && !defined(__aarch64__)
    n_odd -= 2; /* ARMv7 NEON flushes subnormals (kernels.h) */
#endif
    for (round = 0; round < 192; round++) {
        pb_skin_range r;
        uint32_t wc = 1u + round % 4u, normals = round / 4u % 2u, layout = round / 16u % 3u;
        uint32_t special = round / 48u % 2u, runs = round / 96u, count = 1u + t_rand(&seed) % 300u;
        unsigned char *p = in + round % 4u; /* float-aligned or not */
        size_t floats, nrm_off;
        memset(&r, 0, sizeof r);
        r.normalize = round / 8u % 2u;
        r.count = count;
        r.positions = p;
        r.normals = normals ? p + 12 * count : NULL;
        r.assignments = p + 24 * count;
        r.weights = p + 28 * count;
        r.weight_count = wc;
        r.explicit_weights = 1;
        r.slot_count = 1u + t_rand(&seed) % 40u;
        r.slot_table = rows;
        pb_skin_slot_offsets(offsets, r.slot_count);
        r.slot_offset = offsets;
        for (i = 0; i < 256; i++) {
            float m[12];
            uint32_t e;
            for (e = 0; e < 12; e++)
                m[e] = special && t_rand(&seed) % 8 == 0 ? odd[t_rand(&seed) % n_odd]
                                                         : (float)((int)(t_rand(&seed) % 2001) - 1000) / 500.0f;
            pb_skin_put_entry(rows + PB_SKIN_ENTRY * i, i < 255 ? m : NULL);
        }
        for (i = 0; i < count * 6; i++) {
            float f = special && t_rand(&seed) % 4 == 0 ? odd[t_rand(&seed) % n_odd]
                                                        : (float)((int)(t_rand(&seed) % 2001) - 1000) / 250.0f;
            if (!special && i >= count * 3 && (i / 3) % 37 == 5) f = 0.0f; /* some zero normals */
            pb_put_f32le(p + 4 * i, f);
        }
        for (i = 0; i < count; i++) {
            uint32_t k, a = 0;
            for (k = 0; k < 4; k++) {
                uint32_t s = t_rand(&seed) % 64;
                if (s >= 52) s = 0xFF;                    /* unused */
                else if (s >= 48) s = 200;                /* past the table: adds nothing */
                else s %= r.slot_count;
                a |= s << (8 * k);
            }
            if (runs && i % 40 < 33) a |= 0xFFFFFF00u; /* runs using the first slot only */
            pb_put_le32(p + 24 * count + 4 * i, a);
            for (k = 0; k < wc; k++) {
                float w = (float)(t_rand(&seed) % 1000) / 2000.0f;
                if (runs && k == 0 && (i / 64) % 2 == 0 && i != 100) w = 1.0f; /* rigid blocks, one not */
                if (special && t_rand(&seed) % 6 == 0) w = odd[t_rand(&seed) % n_odd];
                pb_put_f32le(p + 28 * count + 4 * (wc * i + k), w);
            }
        }
        if (layout == 0) { /* any strides */
            r.position_stride = 4;
            r.normal_stride = 5;
            nrm_off = 4u * count;
            floats = 9u * count;
        } else if (layout == 1) { /* packed triples */
            r.position_stride = r.normal_stride = 3;
            nrm_off = 3u * count;
            floats = 6u * count;
        } else { /* interleaved: p n p n ... */
            r.position_stride = r.normal_stride = 6;
            nrm_off = 3;
            floats = 6u * count;
        }
        memset(out_a, 0xAB, sizeof out_a);
        memset(out_b, 0xAB, sizeof out_b);
        r.out_positions = out_a;
        r.out_normals = normals ? out_a + nrm_off : NULL;
        pb_skin_scalar(&r);
        r.out_positions = out_b;
        r.out_normals = normals ? out_b + nrm_off : NULL;
        PB_SKIN(&r);
        CHECK(ex_same_or_both_nan(out_a, out_b, sizeof out_a / sizeof out_a[0]));
        CHECK(pb_le32((const unsigned char *)&out_b[floats]) == 0xABABABABu);
        if (!special) CHECK_NEAR(explicit_contract_error(&r), 0.0, 1e-4);
    }
}

/* By hand: one explicit influence keeps a -0 in the blend (R = t0, no +0
 * added), which an implied-weight mesh's unused terms would turn to +0;
 * a weight of -1 on an identity entry gives -x for a point x, -0 for 0. */
void test_skin_explicit_one_influence(void) {
    static float rows_mem[256 * PB_SKIN_ENTRY + 16];
    static uint16_t offsets[256];
    static unsigned char in[8 * 28];
    static float out_a[8 * 3], out_b[8 * 3];
    float *rows = (float *)(void *)(((uintptr_t)rows_mem + 63u) & ~(uintptr_t)63u);
    float ident[12] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0};
    pb_skin_range r;
    uint32_t i;
    pb_skin_put_entry(rows, ident);
    pb_skin_put_entry(rows + PB_SKIN_ENTRY * PB_SKIN_ZERO_SLOT, NULL);
    pb_skin_slot_offsets(offsets, 1);
    for (i = 0; i < 8; i++) {
        pb_put_f32le(in + 12 * i, (float)i);
        pb_put_f32le(in + 12 * i + 4, 0.0f);
        pb_put_f32le(in + 12 * i + 8, 2.0f);
        pb_put_le32(in + 96 + 4 * i, 0x01020300u); /* bytes 1..3 ignored with one influence */
        pb_put_f32le(in + 128 + 4 * i, -1.0f);
    }
    memset(&r, 0, sizeof r);
    r.count = 8;
    r.positions = in;
    r.assignments = in + 96;
    r.weights = in + 128;
    r.weight_count = 1;
    r.explicit_weights = 1;
    r.slot_count = 1;
    r.slot_table = rows;
    r.slot_offset = offsets;
    r.position_stride = 3;
    r.out_positions = out_a;
    pb_skin_scalar(&r);
    r.out_positions = out_b;
    PB_SKIN(&r);
    CHECK(memcmp(out_a, out_b, sizeof out_a) == 0);
    for (i = 0; i < 8; i++) {
        CHECK(out_b[3 * i] == -(float)i);
        CHECK(out_b[3 * i + 2] == -2.0f);
    }
    /* -1 * (0 x + 1 * 0 + 0 z) + -1 * 0 = -0 + -0: the sign survives */
    CHECK_EQ(pb_le32((const unsigned char *)&out_b[1]), 0x80000000u);
}

/* The job: interleaved streams (44 bytes a vertex: position, normal, four
 * joint bytes, four weights) staged in blocks (48 vertices with four
 * weights), a slot map, unused influences and a slot past the map with a
 * weight, against a double reference; the packed layout and the
 * reference kernel give the same bits, so do split ranges; refusals. */
#define EX_V 131u
#define EX_STRIDE 44u
void test_skin_explicit_job(void) {
    static unsigned char mesh_bytes[EX_V * EX_STRIDE], packed[EX_V * 44u];
    static float out_a[EX_V * 3], nrm_a[EX_V * 4], out_b[EX_V * 3], nrm_b[EX_V * 4];
    static unsigned char work[PLUMBOB_SKIN_WORK_SIZE + 3];
    static const uint16_t slot_joint[5] = {4, 2, 1, 0, 3};
    plumbob_mat34 palette[5];
    plumbob_skin_mesh m, p;
    plumbob_skin_job job;
    uint32_t seed = 0xE7B0u, v, k, c, wc;
    for (k = 0; k < 5; k++) {
        plumbob_quat q;
        plumbob_vec3 t;
        q.x = (float)(t_rand(&seed) % 200) / 100.0f - 1.0f;
        q.y = (float)(t_rand(&seed) % 200) / 100.0f - 1.0f;
        q.z = (float)(t_rand(&seed) % 200) / 100.0f - 1.0f;
        q.w = 1.0f;
        t.x = (float)k;
        t.y = -0.5f * (float)k;
        t.z = 0.25f;
        palette[k] = plumbob_mat34_from_rt(plumbob_quat_normalize(q), t);
    }
    for (v = 0; v < EX_V; v++) {
        unsigned char *b = mesh_bytes + EX_STRIDE * v;
        for (c = 0; c < 3; c++) {
            pb_put_f32le(b + 4u * c, (float)(t_rand(&seed) % 400) / 100.0f - 2.0f);
            pb_put_f32le(b + 12u + 4u * c, c == 1 ? 1.0f : (float)(t_rand(&seed) % 100) / 100.0f);
        }
        for (c = 0; c < 4; c++) {
            b[24u + c] = (unsigned char)(t_rand(&seed) % 5u);
            pb_put_f32le(b + 28u + 4u * c, (float)(t_rand(&seed) % 100) / 200.0f);
        }
        if (v % 4 == 1) b[24u + 1] = 0xFFu; /* unused: weighs 0 */
        if (v % 7 == 3) b[24u + 3] = 9u;    /* past the slots: a zero matrix */
        memcpy(packed + 12u * v, b, 12u);
        memcpy(packed + 12u * EX_V + 12u * v, b + 12u, 12u);
        memcpy(packed + 24u * EX_V + 4u * v, b + 24u, 4u);
    }
    for (wc = 1; wc <= 4; wc++) {
        for (v = 0; v < EX_V; v++) memcpy(packed + 28u * EX_V + 4u * wc * v, mesh_bytes + EX_STRIDE * v + 28u, 4u * wc);
        memset(&m, 0, sizeof m);
        m.vertex_count = EX_V;
        m.positions = mesh_bytes;
        m.normals = mesh_bytes + 12u;
        m.joints = mesh_bytes + 24u;
        m.weights = mesh_bytes + 28u;
        m.position_stride = m.normal_stride = m.joint_stride = m.weight_stride = EX_STRIDE;
        m.weight_count = wc;
        m.weight_mode = PLUMBOB_SKIN_WEIGHTS_EXPLICIT;
        m.slot_count = 5;
        m.slot_joint = slot_joint;
        memset(&job, 0, sizeof job);
        job.mesh = &m;
        job.palette = palette;
        job.palette_count = 5;
        job.positions = out_a;
        job.position_stride = 3;
        job.position_count = EX_V;
        job.normals = nrm_a;
        job.normal_stride = 4;
        job.normal_count = EX_V;
        job.work = work + wc % 4u; /* any alignment */
        CHECK_OK(plumbob_skin(&job));
        for (v = 0; v < EX_V; v++) {
            const unsigned char *b = mesh_bytes + EX_STRIDE * v;
            double M[3][4] = {{0}}, pp[3], nn[3], len = 0;
            for (k = 0; k < wc; k++) {
                uint32_t slot = b[24u + k];
                double w = pb_f32le(b + 28u + 4u * k);
                int r, cc;
                if (slot >= 5u) continue;
                for (r = 0; r < 3; r++)
                    for (cc = 0; cc < 4; cc++) M[r][cc] += w * (double)palette[slot_joint[slot]].m[r][cc];
            }
            for (c = 0; c < 3; c++) {
                pp[c] = M[c][3];
                nn[c] = 0;
                for (k = 0; k < 3; k++) {
                    pp[c] += M[c][k] * (double)pb_f32le(b + 4u * k);
                    nn[c] += M[c][k] * (double)pb_f32le(b + 12u + 4u * k);
                }
                len += nn[c] * nn[c];
            }
            len = ex_sqrt(len);
            for (c = 0; c < 3; c++) {
                CHECK_NEAR(out_a[3 * v + c], pp[c], 2e-5);
                if (len > 1e-3) CHECK_NEAR(nrm_a[4 * v + c], nn[c] / len, 1e-4);
            }
        }
        /* packed streams (straight to the kernel), the scalar reference: the same bits */
        p = m;
        p.positions = packed;
        p.normals = packed + 12u * EX_V;
        p.joints = packed + 24u * EX_V;
        p.weights = packed + 28u * EX_V;
        p.position_stride = p.normal_stride = 12;
        p.joint_stride = 4;
        p.weight_stride = 4u * wc;
        job.mesh = &p;
        job.flags = PLUMBOB_SKIN_REFERENCE;
        job.positions = out_b;
        job.normals = nrm_b;
        CHECK_OK(plumbob_skin(&job));
        CHECK(memcmp(out_a, out_b, sizeof out_a) == 0);
        for (v = 0; v < EX_V; v++) CHECK(memcmp(&nrm_a[4 * v], &nrm_b[4 * v], 12) == 0);
        /* split ranges of the strided mesh, across staging blocks: the same bits */
        memset(out_b, 0, sizeof out_b);
        job.mesh = &m;
        job.flags = 0;
        job.vertex_count = 50;
        CHECK_OK(plumbob_skin(&job));
        job.first_vertex = 50;
        job.vertex_count = 0;
        CHECK_OK(plumbob_skin(&job));
        CHECK(memcmp(out_a, out_b, sizeof out_a) == 0);
        job.first_vertex = 0;
    }
    /* refusals: explicit counts 0 and 5, no weights, an unknown mode */
    m.weight_count = 0;
    CHECK_EQ(plumbob_skin(&job), PLUMBOB_ERR_INVALID_ARGUMENT);
    m.weight_count = 5;
    CHECK_EQ(plumbob_skin(&job), PLUMBOB_ERR_INVALID_ARGUMENT);
    m.weight_count = 4;
    m.weights = NULL;
    CHECK_EQ(plumbob_skin(&job), PLUMBOB_ERR_INVALID_ARGUMENT);
    m.weights = mesh_bytes + 28u;
    m.weight_stride = 12u;
    CHECK_EQ(plumbob_skin(&job), PLUMBOB_ERR_INVALID_ARGUMENT);
    m.weight_stride = EX_STRIDE;
    m.weight_mode = 2u;
    CHECK_EQ(plumbob_skin(&job), PLUMBOB_ERR_UNSUPPORTED);
    m.weight_mode = PLUMBOB_SKIN_WEIGHTS_EXPLICIT;
    CHECK_OK(plumbob_skin(&job));
}
