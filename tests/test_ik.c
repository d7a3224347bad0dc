/* Root motion and IK (runtime.h Chapter 19c) against double-precision
 * references: the same constructions in double, compared within 0.01
 * degree for rotations and 1e-5 m for positions; then what the solves
 * promise (reach within 1e-4 m, bone lengths kept, full stretch toward an
 * unreachable target) and finite answers for degenerate input. */
#include <stdlib.h>
#include <string.h>
#include "test.h"

/* libm-free double math (the unit tests link without libm): Newton square
 * root, Taylor sine and cosine after reduction, arctangent by halving */
static double d_abs(double x) { return x < 0 ? -x : x; }
/* NaN, infinity and a finiteness test without <math.h> (the freestanding
 * wasm32 build of the tests has none) */
static float ik_bits(uint32_t u) {
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}
#define NAN ik_bits(0x7FC00000u)
#define INFINITY ik_bits(0x7F800000u)
static bool isfinite_f(float x) { return x - x == 0.0f; }

static double d_sqrt(double x) {
    double y;
    int i;
    if (!(x > 0)) return 0;
    y = (double)plumbob_sqrtf((float)x);
    if (!(y > 0)) y = x < 1 ? 1e-20 : x;
    for (i = 0; i < 3; i++) y = 0.5 * (y + x / y);
    return y;
}
#define D_PI 3.14159265358979323846
static void d_sincos(double x, double *s, double *c) {
    double k = (double)(long long)(x / (2 * D_PI) + (x < 0 ? -0.5 : 0.5)), r = x - k * 2 * D_PI, r2, term, ss = 0, cc = 0;
    int n;
    r2 = r * r;
    term = r;
    for (n = 1; n < 40; n += 2) { ss += term; term *= -r2 / ((n + 1) * (n + 2)); }
    term = 1;
    for (n = 0; n < 40; n += 2) { cc += term; term *= -r2 / ((n + 1) * (n + 2)); }
    *s = ss;
    *c = cc;
}
static double d_atan(double x) { /* x >= 0 */
    double r = 0, t, x2;
    int n, halvings = 0;
    if (x > 1) return D_PI / 2 - d_atan(1 / x);
    while (x > 0.1 && halvings < 8) { x = x / (1 + d_sqrt(1 + x * x)); halvings++; }
    x2 = x * x;
    t = x;
    for (n = 1; n < 40; n += 2) { r += t / n; t *= -x2; }
    return r * (double)(1 << halvings);
}
static double d_atan2(double y, double x) { /* y >= 0 */
    if (x > 0) return d_atan(y / x);
    if (x < 0) return D_PI - d_atan(y / -x);
    return y > 0 ? D_PI / 2 : 0;
}

typedef struct { double x, y, z; } dv;
typedef struct { double x, y, z, w; } dq;

static dv dv_of(plumbob_vec3 v) { dv r; r.x = v.x; r.y = v.y; r.z = v.z; return r; }
static dv dv_make(double x, double y, double z) { dv r; r.x = x; r.y = y; r.z = z; return r; }
static dv dv_add(dv a, dv b) { return dv_make(a.x + b.x, a.y + b.y, a.z + b.z); }
static dv dv_sub(dv a, dv b) { return dv_make(a.x - b.x, a.y - b.y, a.z - b.z); }
static dv dv_scale(dv a, double s) { return dv_make(a.x * s, a.y * s, a.z * s); }
static double dv_dot(dv a, dv b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static dv dv_cross(dv a, dv b) { return dv_make(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x); }
static double dv_len(dv a) { return d_sqrt(dv_dot(a, a)); }
static dv dv_unit_or(dv a, dv f) { double l = dv_len(a); return l > 1e-6 ? dv_scale(a, 1.0 / l) : f; }
static dv dv_perp(dv u) {
    dv a = u.x * u.x < 0.5 ? dv_make(1, 0, 0) : dv_make(0, 1, 0);
    return dv_unit_or(dv_cross(u, a), dv_make(0, 0, 1));
}
static dv dv_col(const plumbob_mat34 *m, int c) { return dv_make(m->m[0][c], m->m[1][c], m->m[2][c]); }

static dq dq_make(double x, double y, double z, double w) { dq q; q.x = x; q.y = y; q.z = z; q.w = w; return q; }
static dq dq_of(plumbob_quat q) { return dq_make(q.x, q.y, q.z, q.w); }
static dq dq_mul(dq a, dq b) {
    return dq_make(a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                   a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z);
}
static dq dq_conj(dq q) { return dq_make(-q.x, -q.y, -q.z, q.w); }
static dq dq_unit(dq q) {
    double l = d_sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
    return l > 0 ? dq_make(q.x / l, q.y / l, q.z / l, q.w / l) : dq_make(0, 0, 0, 1);
}
static dv dq_rot(dq q, dv v) {
    dq p = dq_mul(dq_mul(q, dq_make(v.x, v.y, v.z, 0)), dq_conj(q));
    return dv_make(p.x, p.y, p.z);
}
static dq dq_axis_angle(dv n, double a) {
    double sn, cs;
    d_sincos(a / 2, &sn, &cs);
    return dq_make(n.x * sn, n.y * sn, n.z * sn, cs);
}
/* shortest arc, half a turn about `axis` when opposite (by angles, not the float job's formula) */
static dq dq_from_to(dv u, dv v, dv axis) {
    double d = dv_dot(u, v);
    dv c = dv_cross(u, v);
    double s = dv_len(c);
    if (d < -1.0 + 1e-7 && s < 1e-3) return dq_make(axis.x, axis.y, axis.z, 0);
    return dq_axis_angle(dv_unit_or(c, axis), d_atan2(s, d));
}
static dq dq_nlerp_id(dq q, double w) { /* identity -> q, shorter arc */
    if (q.w < 0) q = dq_make(-q.x, -q.y, -q.z, -q.w);
    return dq_unit(dq_make(q.x * w, q.y * w, q.z * w, 1 - w + q.w * w));
}
/* the rotation of a matrix with orthonormal-ish columns, via Gram-Schmidt */
static dq dq_of_mat(const plumbob_mat34 *m) {
    dv a = dv_unit_or(dv_col(m, 0), dv_make(1, 0, 0)), b = dv_col(m, 1), c;
    double r[3][3], t;
    b = dv_unit_or(dv_sub(b, dv_scale(a, dv_dot(a, b))), dv_perp(a));
    c = dv_cross(a, b);
    r[0][0] = a.x; r[1][0] = a.y; r[2][0] = a.z;
    r[0][1] = b.x; r[1][1] = b.y; r[2][1] = b.z;
    r[0][2] = c.x; r[1][2] = c.y; r[2][2] = c.z;
    t = r[0][0] + r[1][1] + r[2][2];
    if (t > 0) {
        double s = 2 * d_sqrt(t + 1);
        return dq_make((r[2][1] - r[1][2]) / s, (r[0][2] - r[2][0]) / s, (r[1][0] - r[0][1]) / s, s / 4);
    }
    if (r[0][0] > r[1][1] && r[0][0] > r[2][2]) {
        double s = 2 * d_sqrt(1 + r[0][0] - r[1][1] - r[2][2]);
        return dq_make(s / 4, (r[0][1] + r[1][0]) / s, (r[0][2] + r[2][0]) / s, (r[2][1] - r[1][2]) / s);
    }
    if (r[1][1] > r[2][2]) {
        double s = 2 * d_sqrt(1 + r[1][1] - r[0][0] - r[2][2]);
        return dq_make((r[0][1] + r[1][0]) / s, s / 4, (r[1][2] + r[2][1]) / s, (r[0][2] - r[2][0]) / s);
    }
    {
        double s = 2 * d_sqrt(1 + r[2][2] - r[0][0] - r[1][1]);
        return dq_make((r[0][2] + r[2][0]) / s, (r[1][2] + r[2][1]) / s, s / 4, (r[1][0] - r[0][1]) / s);
    }
}
/* angle between two rotations, in degrees */
static double dq_angle_deg(dq a, dq b) {
    double d = d_abs(a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w);
    dq r = dq_mul(dq_conj(dq_unit(a)), dq_unit(b));
    double s = d_sqrt(r.x * r.x + r.y * r.y + r.z * r.z);
    (void)d;
    return 2.0 * d_atan2(s, d_abs(r.w)) * 180.0 / 3.14159265358979323846;
}
static bool finite_q(plumbob_quat q) { return isfinite_f(q.x) && isfinite_f(q.y) && isfinite_f(q.z) && isfinite_f(q.w); }

/* --- double reference of the two-bone job ------------------------------ */
static void ref_two_bone(const plumbob_ik_two_bone_job *j, dq *cs, dq *cm, bool *reached) {
    dv s = dv_col(j->start, 3), m = dv_col(j->mid, 3), e = dv_col(j->end, 3), t = dv_of(j->target);
    dv pole = dv_of(j->pole), u = dv_sub(s, m), v = dv_sub(e, m), dir = dv_sub(t, s), eb = e;
    double a = dv_len(u), b = dv_len(v), d = dv_len(dir), c = d, lo, hi, soften, w;
    dq rm = dq_make(0, 0, 0, 1), rs = dq_make(0, 0, 0, 1), qs, qm;
    bool soft = false, bent = false;
    soften = j->soften < 0 ? 0 : (j->soften > 1 ? 1 : j->soften);
    w = j->weight < 0 ? 0 : (j->weight > 1 ? 1 : j->weight);
    if (soften < 1) {
        double da = (a + b) * soften, ds = (a + b) - da;
        if (d > da && ds > 0) {
            double x = (d - da) / ds;
            double k4 = (1 + x / 4) * (1 + x / 4);
            c = da + ds * (1 - 1 / (k4 * k4));
            soft = true;
        }
    }
    lo = d_abs(a - b);
    hi = a + b;
    *reached = !soft && d >= lo && d <= hi;
    c = c < lo ? lo : (c > hi ? hi : c);
    if (a > 1e-6 && b > 1e-6) {
        dv e1 = dv_scale(u, 1 / a), vn = dv_scale(v, 1 / b), side = dv_sub(vn, dv_scale(e1, dv_dot(e1, vn))), e2, vnew;
        double cn, sn;
        if (dv_dot(side, side) > 1e-10) e2 = dv_unit_or(side, dv_perp(e1));
        else e2 = dv_unit_or(dv_sub(pole, dv_scale(e1, dv_dot(e1, pole))), dv_perp(e1));
        cn = (a * a + b * b - c * c) / (2 * a * b);
        cn = cn < -1 ? -1 : (cn > 1 ? 1 : cn);
        if (c >= hi) cn = -1;
        if (c <= lo) cn = 1;
        sn = d_sqrt(1 - cn * cn);
        vnew = dv_add(dv_scale(e1, cn), dv_scale(e2, sn));
        rm = dq_from_to(vn, vnew, dv_unit_or(dv_cross(e1, e2), dv_perp(vn)));
        eb = dv_add(m, dv_scale(vnew, b));
        bent = sn > 0;
    }
    if (d > 1e-6) {
        dv k = dv_scale(dir, 1 / d), te = dv_sub(eb, s), pp, mr, mp;
        if (dv_len(te) > 1e-6) rs = dq_from_to(dv_unit_or(te, k), k, dv_perp(k));
        pp = dv_sub(pole, dv_scale(k, dv_dot(k, pole)));
        mr = dq_rot(rs, dv_sub(m, s));
        mp = dv_sub(mr, dv_scale(k, dv_dot(k, mr)));
        if (bent && dv_len(pp) > 1e-6 && dv_len(mp) > 1e-6) rs = dq_mul(dq_from_to(dv_unit_or(mp, k), dv_unit_or(pp, k), k), rs);
        if (j->twist_angle != 0) rs = dq_mul(dq_axis_angle(k, j->twist_angle), rs);
    }
    qs = dq_of_mat(j->start);
    qm = dq_of_mat(j->mid);
    rs = dq_nlerp_id(rs, w);
    rm = dq_nlerp_id(rm, w);
    *cs = dq_mul(dq_conj(qs), dq_mul(rs, qs));
    *cm = dq_mul(dq_conj(qm), dq_mul(rm, qm));
}

/* A 5-bone chain: root, start, (a twist bone between), mid, end. */
#define IKB 5
typedef struct {
    int32_t parent[IKB];
    plumbob_bone_pose local[IKB];
    plumbob_skeleton sk;
    plumbob_mat34 model[IKB];
} ik_chain;

static float ik_unit(uint32_t *st) { return (float)(t_rand(st) % 20001u) / 10000.0f - 1.0f; }
static plumbob_quat ik_rand_q(uint32_t *st, float spread) {
    plumbob_quat q;
    q.x = ik_unit(st) * spread; q.y = ik_unit(st) * spread; q.z = ik_unit(st) * spread; q.w = 1.0f;
    return plumbob_quat_normalize(q);
}

static void ik_chain_make(ik_chain *c, uint32_t *st, float la, float lb) {
    int i;
    for (i = 0; i < IKB; i++) {
        c->parent[i] = i - 1;
        c->local[i].rotation = ik_rand_q(st, 0.6f);
        c->local[i].translation.x = 0.0f;
        c->local[i].translation.y = 0.0f;
        c->local[i].translation.z = 0.0f;
        c->local[i].scale.x = c->local[i].scale.y = c->local[i].scale.z = 1.0f;
    }
    c->local[0].translation.x = ik_unit(st);
    c->local[0].translation.y = 1.0f + ik_unit(st);
    c->local[2].translation.y = la * 0.3f; /* the twist bone along the upper bone */
    c->local[3].translation.y = la * 0.7f;
    c->local[4].translation.y = lb;
    c->local[4].translation.x = lb * 0.1f * ik_unit(st);
    memset(&c->sk, 0, sizeof c->sk);
    c->sk.bone_count = IKB;
    c->sk.parent = c->parent;
    c->sk.rest = c->local;
    CHECK_OK(plumbob_skeleton_model(&c->sk, c->local, c->model, IKB));
}

static double dist(const plumbob_mat34 *a, const plumbob_mat34 *b) { return dv_len(dv_sub(dv_col(a, 3), dv_col(b, 3))); }

void test_ik_two_bone_matches_reference(void) {
    uint32_t st = 0x1CEB00DAu, trial, reached_n = 0, stretched_n = 0;
    double worst_rot = 0, worst_reach = 0, worst_len = 0;
    for (trial = 0; trial < 400; trial++) {
        ik_chain c;
        plumbob_ik_two_bone_job j;
        plumbob_ik_two_bone_result r;
        dq cs, cm;
        bool ref_reached;
        float la = 0.2f + 0.4f * (ik_unit(&st) + 1.0f), lb = 0.2f + 0.4f * (ik_unit(&st) + 1.0f);
        double a, b, d, reach;
        dv s, dir;
        ik_chain_make(&c, &st, la, lb);
        a = dist(&c.model[1], &c.model[3]);
        b = dist(&c.model[3], &c.model[4]);
        memset(&j, 0, sizeof j);
        j.start = &c.model[1];
        j.mid = &c.model[3];
        j.end = &c.model[4];
        s = dv_col(j.start, 3);
        /* targets: most within reach, some beyond, a few nearer than |a - b| */
        reach = trial % 5 == 4 ? (a + b) * (1.2 + (ik_unit(&st) + 1.0f)) :
                trial % 11 == 3 ? d_abs(a - b) * 0.5 : d_abs(a - b) + (a + b - d_abs(a - b)) * (0.02 + 0.96 * (ik_unit(&st) + 1.0f) / 2);
        dir = dv_unit_or(dv_make(ik_unit(&st), ik_unit(&st), ik_unit(&st)), dv_make(0, -1, 0));
        j.target.x = (float)(s.x + dir.x * reach);
        j.target.y = (float)(s.y + dir.y * reach);
        j.target.z = (float)(s.z + dir.z * reach);
        j.pole.x = ik_unit(&st); j.pole.y = ik_unit(&st); j.pole.z = ik_unit(&st);
        j.weight = trial % 7 == 2 ? 0.5f : 1.0f;
        j.soften = trial % 13 == 5 ? 0.8f : 1.0f;
        j.twist_angle = trial % 3 == 1 ? ik_unit(&st) * 3.0f : 0.0f;
        CHECK_OK(plumbob_ik_two_bone(&j, &r));
        ref_two_bone(&j, &cs, &cm, &ref_reached);
        CHECK(r.reached == ref_reached);
        {
            double e1 = dq_angle_deg(dq_of(r.start_correction), cs), e2 = dq_angle_deg(dq_of(r.mid_correction), cm);
            if (e1 > worst_rot) worst_rot = e1;
            if (e2 > worst_rot) worst_rot = e2;
        }
        /* apply and check what the solve promises */
        c.local[1].rotation = plumbob_quat_normalize(plumbob_quat_mul(c.local[1].rotation, r.start_correction));
        c.local[3].rotation = plumbob_quat_normalize(plumbob_quat_mul(c.local[3].rotation, r.mid_correction));
        {
            plumbob_mat34 after[IKB];
            double la2, lb2, miss;
            dv e, t = dv_of(j.target);
            CHECK_OK(plumbob_skeleton_model(&c.sk, c.local, after, IKB));
            la2 = dist(&after[1], &after[3]);
            lb2 = dist(&after[3], &after[4]);
            if (d_abs(la2 - a) > worst_len) worst_len = d_abs(la2 - a);
            if (d_abs(lb2 - b) > worst_len) worst_len = d_abs(lb2 - b);
            e = dv_col(&after[4], 3);
            if (j.weight == 1.0f && j.soften == 1.0f) {
                d = dv_len(dv_sub(t, s));
                if (r.reached) {
                    miss = dv_len(dv_sub(e, t));
                    reached_n++;
                } else if (d > a + b) { /* stretched to a + b along the direction */
                    miss = dv_len(dv_sub(e, dv_add(s, dv_scale(dv_sub(t, s), (a + b) / d))));
                    stretched_n++;
                } else {
                    miss = d_abs(dv_len(dv_sub(e, s)) - d_abs(a - b));
                }
                if (miss > worst_reach) worst_reach = miss;
            }
        }
    }
    CHECK(worst_rot <= 0.01);
    CHECK(worst_reach <= 1e-4);
    CHECK(worst_len <= 1e-5);
    CHECK(reached_n > 150);
    CHECK(stretched_n > 40);
    if (worst_rot > 0.01 || worst_reach > 1e-4 || worst_len > 1e-5)
        t_fail_f64(__FILE__, __LINE__, "worst rotation (deg) / reach (m)", worst_rot, worst_reach);
}

/* Each number of a job, one at a time: NaN, the infinities and the floats
 * just past +-1e15 refused, +-1e15 itself accepted (the SSE2 check reads
 * them four at a time, ports/pb_over.h: the same answers as one by one). */
static float ik_f32(uint32_t bits) {
    union { uint32_t u; float f; } v;
    v.u = bits;
    return v.f;
}
static void ik_each_number(float *const *num, uint32_t n, int (*run)(void)) {
    static const uint32_t bad[] = {0x7FC00000u, 0xFFC00000u, 0x7F800000u, 0xFF800000u, 0x58635FAAu, 0xD8635FAAu,
                                   0x7F7FFFFFu};
    uint32_t i, b;
    for (i = 0; i < n; i++) {
        float keep = *num[i];
        for (b = 0; b < sizeof bad / sizeof bad[0]; b++) {
            *num[i] = ik_f32(bad[b]);
            CHECK_EQ(run(), PLUMBOB_ERR_INVALID_ARGUMENT);
        }
        *num[i] = ik_f32(0x58635FA9u); /* 1e15 */
        CHECK_OK(run());
        *num[i] = ik_f32(0xD8635FA9u);
        CHECK_OK(run());
        *num[i] = keep;
    }
    CHECK_OK(run());
}
static plumbob_ik_aim_job each_aim;
static plumbob_ik_two_bone_job each_two;
static int run_each_aim(void) {
    plumbob_ik_aim_result r;
    return (int)plumbob_ik_aim(&each_aim, &r);
}
static int run_each_two(void) {
    plumbob_ik_two_bone_result r;
    return (int)plumbob_ik_two_bone(&each_two, &r);
}

void test_ik_two_bone_degenerate(void) {
    plumbob_mat34 s = plumbob_mat34_identity(), m = plumbob_mat34_identity(), e = plumbob_mat34_identity();
    plumbob_ik_two_bone_job j;
    plumbob_ik_two_bone_result r;
    uint32_t st = 7u, k;
    memset(&j, 0, sizeof j);
    j.start = &s; j.mid = &m; j.end = &e;
    j.weight = 1.0f; j.soften = 1.0f;
    /* all three joints at one point, target there too */
    CHECK_OK(plumbob_ik_two_bone(&j, &r));
    CHECK(finite_q(r.start_correction) && finite_q(r.mid_correction));
    CHECK(r.reached);
    /* many degenerate arrangements: no NaN, unit corrections */
    for (k = 0; k < 200; k++) {
        float len = (k % 4 == 0) ? 0.0f : 0.5f;
        s.m[0][3] = 0; s.m[1][3] = 1; s.m[2][3] = 0;
        m.m[0][3] = 0; m.m[1][3] = 1.0f - len; m.m[2][3] = 0;             /* zero-length upper bone sometimes */
        e.m[0][3] = 0; e.m[1][3] = 1.0f - len - (k % 3 == 0 ? 0.0f : 0.5f); e.m[2][3] = 0; /* straight or zero lower */
        j.target = (k % 5 == 0) ? plumbob_mat34_transform_point(&s, j.pole) : j.target;
        if (k % 5 == 1) { j.target.x = 0; j.target.y = 1; j.target.z = 0; } /* on the start joint */
        if (k % 5 == 2) { j.target.x = ik_unit(&st); j.target.y = ik_unit(&st); j.target.z = ik_unit(&st); }
        j.pole.x = 0; j.pole.y = (k % 2) ? -1.0f : 0.0f; j.pole.z = 0; /* parallel to the chain, or none */
        if (k % 7 == 3) { j.pole = j.target; j.pole.y -= 1.0f; } /* along start -> target */
        j.twist_angle = (k % 6 == 0) ? 1e6f : 0.0f;
        j.soften = (k % 8 == 0) ? 0.0f : 1.0f;
        j.weight = (k % 9 == 0) ? -3.0f : 1.0f;
        CHECK_OK(plumbob_ik_two_bone(&j, &r));
        CHECK(finite_q(r.start_correction) && finite_q(r.mid_correction));
        CHECK_NEAR(dq_angle_deg(dq_of(r.start_correction), dq_of(r.start_correction)), 0.0, 1e-9);
    }
    /* a straight chain bends toward the pole */
    s.m[0][3] = 0; s.m[1][3] = 1; s.m[2][3] = 0;
    m.m[0][3] = 0; m.m[1][3] = 0.5f; m.m[2][3] = 0;
    e.m[0][3] = 0; e.m[1][3] = 0.0f; e.m[2][3] = 0;
    j.target.x = 0; j.target.y = 0.3f; j.target.z = 0;
    j.pole.x = 0; j.pole.y = 0; j.pole.z = 1;
    j.twist_angle = 0; j.soften = 1; j.weight = 1;
    CHECK_OK(plumbob_ik_two_bone(&j, &r));
    CHECK(r.reached);
    {
        plumbob_vec3 mid = plumbob_quat_rotate(r.start_correction, plumbob_quat_rotate(plumbob_quat_identity(),
                                                                                         (plumbob_vec3){0, -0.5f, 0}));
        CHECK(mid.z > 0.1f);
    }
    /* errors */
    CHECK_EQ(plumbob_ik_two_bone(NULL, &r), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_ik_two_bone(&j, NULL), PLUMBOB_ERR_INVALID_ARGUMENT);
    j.target.x = NAN;
    CHECK_EQ(plumbob_ik_two_bone(&j, &r), PLUMBOB_ERR_INVALID_ARGUMENT);
    j.target.x = 0;
    j.twist_angle = 2e6f;
    CHECK_EQ(plumbob_ik_two_bone(&j, &r), PLUMBOB_ERR_INVALID_ARGUMENT);
    j.twist_angle = 0;
    s.m[1][1] = INFINITY;
    CHECK_EQ(plumbob_ik_two_bone(&j, &r), PLUMBOB_ERR_INVALID_ARGUMENT);
}

/* --- aim ---------------------------------------------------------------- */
static dq ref_aim(const plumbob_ik_aim_job *j, bool *reached) {
    dq q = dq_of_mat(j->joint), r = dq_make(0, 0, 0, 1);
    dv f = dv_unit_or(dv_of(j->forward), dv_make(0, 0, 0)), t = dq_rot(dq_conj(q), dv_sub(dv_of(j->target), dv_col(j->joint, 3)));
    double tl = dv_len(t), w = j->weight < 0 ? 0 : (j->weight > 1 ? 1 : j->weight);
    *reached = false;
    if (tl > 1e-6) {
        dv k = dv_scale(t, 1 / tl), o = dv_of(j->offset), op = dv_sub(o, dv_scale(f, dv_dot(f, o))), from;
        double s2 = tl * tl - dv_dot(op, op);
        if (s2 > 0) {
            from = dv_add(op, dv_scale(f, d_sqrt(s2)));
            *reached = true;
        } else {
            from = f;
        }
        r = dq_from_to(dv_unit_or(from, f), k, dv_perp(k));
        {
            dv pole = dq_rot(dq_conj(q), dv_of(j->pole)), up = dq_rot(r, dv_of(j->up));
            dv pp = dv_sub(pole, dv_scale(k, dv_dot(k, pole))), upp = dv_sub(up, dv_scale(k, dv_dot(k, up)));
            if (dv_len(pp) > 1e-6 && dv_len(upp) > 1e-6) r = dq_mul(dq_from_to(dv_unit_or(upp, k), dv_unit_or(pp, k), k), r);
        }
        if (j->twist_angle != 0) r = dq_mul(dq_axis_angle(k, j->twist_angle), r);
    }
    return dq_nlerp_id(r, w);
}

void test_ik_aim_matches_reference(void) {
    uint32_t st = 0xA1Au, trial, reached_n = 0;
    double worst_rot = 0, worst_ray = 0;
    for (trial = 0; trial < 400; trial++) {
        plumbob_bone_pose p;
        plumbob_mat34 joint, after;
        plumbob_ik_aim_job j;
        plumbob_ik_aim_result r;
        bool ref_reached;
        dq ref;
        p.rotation = ik_rand_q(&st, 2.0f);
        p.translation.x = ik_unit(&st); p.translation.y = 1.5f + ik_unit(&st); p.translation.z = ik_unit(&st);
        p.scale.x = p.scale.y = p.scale.z = 1.0f;
        joint = plumbob_mat34_from_pose(&p);
        memset(&j, 0, sizeof j);
        j.joint = &joint;
        j.target.x = ik_unit(&st) * 3; j.target.y = ik_unit(&st) * 3; j.target.z = ik_unit(&st) * 3;
        j.forward.x = ik_unit(&st); j.forward.y = ik_unit(&st); j.forward.z = ik_unit(&st) + 2.5f;
        j.up.x = 0; j.up.y = 1; j.up.z = 0;
        j.pole.x = ik_unit(&st); j.pole.y = 1; j.pole.z = ik_unit(&st);
        if (trial % 2) { j.offset.x = 0.1f * ik_unit(&st); j.offset.y = 0.1f * ik_unit(&st); j.offset.z = 0.1f * ik_unit(&st); }
        j.weight = trial % 7 == 3 ? 0.4f : 1.0f;
        j.twist_angle = trial % 5 == 1 ? ik_unit(&st) * 4.0f : 0.0f;
        CHECK_OK(plumbob_ik_aim(&j, &r));
        ref = ref_aim(&j, &ref_reached);
        CHECK(ref_reached == r.reached);
        if (dq_angle_deg(dq_of(r.correction), ref) > worst_rot) worst_rot = dq_angle_deg(dq_of(r.correction), ref);
        if (r.reached && j.weight == 1.0f) { /* the offset ray now passes through the target */
            dv o, f, t, rel;
            reached_n++;
            p.rotation = plumbob_quat_normalize(plumbob_quat_mul(p.rotation, r.correction));
            after = plumbob_mat34_from_pose(&p);
            o = dv_of(plumbob_mat34_transform_point(&after, j.offset));
            f = dv_unit_or(dv_of(plumbob_mat34_transform_vector(&after, j.forward)), dv_make(0, 0, 1));
            t = dv_of(j.target);
            rel = dv_sub(t, o);
            rel = dv_sub(rel, dv_scale(f, dv_dot(f, rel)));
            if (dv_len(rel) > worst_ray) worst_ray = dv_len(rel);
            CHECK(dv_dot(f, dv_sub(t, o)) > 0);
        }
    }
    CHECK(worst_rot <= 0.01);
    CHECK(worst_ray <= 1e-5);
    CHECK(reached_n > 200);
    if (worst_rot > 0.01 || worst_ray > 1e-5) t_fail_f64(__FILE__, __LINE__, "aim worst deg / ray m", worst_rot, worst_ray);
}

void test_ik_aim_degenerate(void) {
    plumbob_mat34 joint = plumbob_mat34_identity();
    plumbob_ik_aim_job j;
    plumbob_ik_aim_result r;
    memset(&j, 0, sizeof j);
    j.joint = &joint;
    j.forward.z = 1;
    j.weight = 1;
    CHECK_OK(plumbob_ik_aim(&j, &r)); /* target on the joint */
    CHECK(!r.reached && finite_q(r.correction));
    j.target.z = -2; /* straight behind: half a turn */
    j.up.y = 1; j.pole.y = 1;
    CHECK_OK(plumbob_ik_aim(&j, &r));
    CHECK(r.reached && finite_q(r.correction));
    CHECK_NEAR(plumbob_quat_rotate(r.correction, j.forward).z, -1.0, 1e-6);
    j.offset.x = 5; /* target inside the offset's circle */
    CHECK_OK(plumbob_ik_aim(&j, &r));
    CHECK(!r.reached && finite_q(r.correction));
    j.pole.y = 0; j.pole.z = 1; /* pole along the aim line */
    CHECK_OK(plumbob_ik_aim(&j, &r));
    CHECK(finite_q(r.correction));
    j.forward.z = 0;
    CHECK_EQ(plumbob_ik_aim(&j, &r), PLUMBOB_ERR_INVALID_ARGUMENT);
    j.forward.z = 1;
    j.offset.y = INFINITY;
    CHECK_EQ(plumbob_ik_aim(&j, &r), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_ik_aim(NULL, &r), PLUMBOB_ERR_INVALID_ARGUMENT);
    { /* every number alone: the joint's 12 and the job's 17 */
        static plumbob_mat34 jm;
        float *num[29];
        uint32_t i, c;
        jm = plumbob_mat34_identity();
        memset(&each_aim, 0, sizeof each_aim);
        each_aim.joint = &jm;
        each_aim.target.x = 1; each_aim.target.y = 2; each_aim.forward.z = 1; each_aim.up.y = 1;
        each_aim.pole.y = 1; each_aim.offset.x = 0.1f; each_aim.weight = 1;
        for (i = 0; i < 3; i++)
            for (c = 0; c < 4; c++) num[4 * i + c] = &jm.m[i][c];
        num[12] = &each_aim.target.x; num[13] = &each_aim.target.y; num[14] = &each_aim.target.z;
        num[15] = &each_aim.forward.x; num[16] = &each_aim.forward.y; num[17] = &each_aim.forward.z;
        num[18] = &each_aim.up.x; num[19] = &each_aim.up.y; num[20] = &each_aim.up.z;
        num[21] = &each_aim.pole.x; num[22] = &each_aim.pole.y; num[23] = &each_aim.pole.z;
        num[24] = &each_aim.offset.x; num[25] = &each_aim.offset.y; num[26] = &each_aim.offset.z;
        num[27] = &each_aim.weight;
        ik_each_number(num, 28, run_each_aim); /* twist_angle: its own limit, 1e6 */
        each_aim.twist_angle = 1.5e6f;
        CHECK_EQ(run_each_aim(), PLUMBOB_ERR_INVALID_ARGUMENT);
        each_aim.twist_angle = ik_f32(0x7FC00000u);
        CHECK_EQ(run_each_aim(), PLUMBOB_ERR_INVALID_ARGUMENT);
        each_aim.twist_angle = 1e6f;
        CHECK_OK(run_each_aim());
    }
    { /* the two-bone job: three joints' 36 numbers and the job's 8 after them */
        static plumbob_mat34 jm[3];
        float *num[44];
        uint32_t i, c, k;
        memset(&each_two, 0, sizeof each_two);
        for (k = 0; k < 3; k++) {
            jm[k] = plumbob_mat34_identity();
            jm[k].m[1][3] = 1.0f - 0.5f * (float)k;
            for (i = 0; i < 3; i++)
                for (c = 0; c < 4; c++) num[12 * k + 4 * i + c] = &jm[k].m[i][c];
        }
        each_two.start = &jm[0]; each_two.mid = &jm[1]; each_two.end = &jm[2];
        each_two.target.x = 0.3f; each_two.target.y = 0.4f; each_two.pole.z = 1; each_two.weight = 1;
        each_two.soften = 1;
        num[36] = &each_two.target.x; num[37] = &each_two.target.y; num[38] = &each_two.target.z;
        num[39] = &each_two.pole.x; num[40] = &each_two.pole.y; num[41] = &each_two.pole.z;
        num[42] = &each_two.weight; num[43] = &each_two.soften;
        ik_each_number(num, 44, run_each_two);
        each_two.twist_angle = ik_f32(0xFF800000u);
        CHECK_EQ(run_each_two(), PLUMBOB_ERR_INVALID_ARGUMENT);
    }
}

/* --- root motion -------------------------------------------------------- */
static plumbob_bone_pose rm_pose(double yaw, double tilt, double x, double y, double z) {
    plumbob_bone_pose p;
    dq q = dq_mul(dq_axis_angle(dv_make(0, 1, 0), yaw), dq_axis_angle(dv_make(1, 0, 0), tilt));
    p.rotation.x = (float)q.x; p.rotation.y = (float)q.y; p.rotation.z = (float)q.z; p.rotation.w = (float)q.w;
    p.translation.x = (float)x; p.translation.y = (float)y; p.translation.z = (float)z;
    p.scale.x = p.scale.y = p.scale.z = 1;
    return p;
}

void test_root_motion_frames(void) {
    uint32_t st = 99u, k;
    for (k = 0; k < 200; k++) {
        double y0 = ik_unit(&st) * 3, y1 = ik_unit(&st) * 3, x0 = ik_unit(&st), z0 = ik_unit(&st), x1 = ik_unit(&st), z1 = ik_unit(&st);
        plumbob_bone_pose p0 = rm_pose(y0, ik_unit(&st) * 0.5, x0, 1.0, z0), p1 = rm_pose(y1, ik_unit(&st) * 0.5, x1, 0.9, z1);
        plumbob_root_motion f0, f1, d, obj, ref;
        dv rt;
        CHECK_OK(plumbob_root_motion_frame(&p0, &f0));
        CHECK_OK(plumbob_root_motion_frame(&p1, &f1));
        CHECK_OK(plumbob_root_motion_delta(&f0, &f1, &d));
        /* reference: delta translation in f0's frame, delta yaw y1 - y0 */
        rt = dq_rot(dq_axis_angle(dv_make(0, 1, 0), -y0), dv_make(x1 - x0, 0, z1 - z0));
        CHECK_NEAR(d.translation.x, rt.x, 1e-5);
        CHECK_NEAR(d.translation.z, rt.z, 1e-5);
        CHECK_EQ(d.translation.y == 0.0f, 1);
        CHECK(dq_angle_deg(dq_of(d.yaw), dq_axis_angle(dv_make(0, 1, 0), y1 - y0)) <= 0.01);
        /* accumulating the delta onto f0 gives f1 */
        obj = f0;
        CHECK_OK(plumbob_root_motion_accumulate(&obj, &d));
        CHECK_NEAR(obj.translation.x, x1, 1e-5);
        CHECK_NEAR(obj.translation.z, z1, 1e-5);
        CHECK(dq_angle_deg(dq_of(obj.yaw), dq_of(f1.yaw)) <= 0.01);
        /* removing: the body goes to the reference frame, height and tilt kept */
        ref.translation.x = 0; ref.translation.y = 0; ref.translation.z = 0;
        ref.yaw = plumbob_quat_identity();
        {
            plumbob_bone_pose q = p1;
            plumbob_root_motion fq;
            CHECK_OK(plumbob_root_motion_remove(&ref, &q));
            CHECK_NEAR(q.translation.x, 0, 1e-6);
            CHECK_NEAR(q.translation.z, 0, 1e-6);
            CHECK_NEAR(q.translation.y, 0.9, 1e-6);
            CHECK_OK(plumbob_root_motion_frame(&q, &fq));
            CHECK(dq_angle_deg(dq_of(fq.yaw), dq_make(0, 0, 0, 1)) <= 0.01);
            /* the tilt is what is left */
            CHECK(dq_angle_deg(dq_of(q.rotation), dq_of(p1.rotation)) >= 0.0);
        }
        /* applying: a carrier (a parent bone, moved up 0.5) takes back what remove took
           out relative to f0, so carrier * removed root = carrier's old pose * root */
        {
            plumbob_bone_pose q = p1, c = rm_pose(0, 0, 0, 0.5, 0);
            plumbob_quat cq;
            plumbob_vec3 ct;
            CHECK_OK(plumbob_root_motion_remove(&f0, &q));
            CHECK_OK(plumbob_root_motion_apply(&f1, &f0, &c));
            cq = plumbob_quat_mul(c.rotation, q.rotation);
            ct = plumbob_quat_rotate(c.rotation, q.translation);
            CHECK_NEAR(c.translation.x + ct.x, p1.translation.x, 1e-5);
            CHECK_NEAR(c.translation.y + ct.y, p1.translation.y + 0.5, 1e-5);
            CHECK_NEAR(c.translation.z + ct.z, p1.translation.z, 1e-5);
            CHECK(dq_angle_deg(dq_of(cq), dq_of(p1.rotation)) <= 0.01);
        }
    }
    CHECK_EQ(plumbob_root_motion_apply(NULL, NULL, NULL), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_root_motion_frame(NULL, NULL), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_root_motion_accumulate(NULL, NULL), PLUMBOB_ERR_INVALID_ARGUMENT);
}

/* a corpus clip's root (b__ROOT_bind__): extraction equals the frames of
 * the sampled pose, a wrapped span equals its two halves, and a loop's
 * delta accumulated twice moves the object twice as far (no yaw: twice the
 * translation) */
static unsigned char *ik_clip_load(plumbob_clip *c, unsigned char **mem_out, uint64_t instance) {
    size_t size, rs, need;
    unsigned char *data = t_corpus_load("sims3/EWBreastfeed.package", &size), *buf, *mem;
    plumbob_package pkg;
    plumbob_package_entry e;
    const unsigned char *res;
    plumbob_arena a;
    uint32_t i;
    if (!data) return NULL;
    if (plumbob_package_open(&pkg, data, size) != PLUMBOB_OK) { free(data); return NULL; }
    for (i = 0; i < pkg.count; i++) {
        CHECK_OK(plumbob_package_entry_at(&pkg, i, &e));
        if (e.type == PLUMBOB_TYPE_CLIP && e.instance == instance) break;
    }
    if (i == pkg.count) { free(data); return NULL; }
    buf = (unsigned char *)malloc(e.mem_size);
    CHECK_OK(plumbob_package_read(&pkg, &e, buf, e.mem_size, &res, &rs));
    CHECK_OK(plumbob_clip_measure(res, rs, &need));
    mem = (unsigned char *)malloc(need);
    plumbob_arena_init(&a, mem, need);
    CHECK_OK(plumbob_clip_decode(res, rs, &a, c));
    free(data);
    *mem_out = mem;
    return buf;
}

static void root_at(const plumbob_clip *c, float t, plumbob_root_motion *f) {
    uint32_t i;
    plumbob_bone_pose p = rm_pose(0, 0, 0, 0, 0);
    float v[4];
    bool rot = false, tra = false;
    for (i = 0; i < c->track_count; i++) {
        if (c->tracks[i].hash != PLUMBOB_ROOT_MOTION_BONE_SIMS3) continue;
        CHECK_OK(plumbob_clip_sample_track(c, i, t, v));
        if (c->tracks[i].target == PLUMBOB_CLIP_TARGET_ROTATION && !rot) {
            p.rotation.x = v[0]; p.rotation.y = v[1]; p.rotation.z = v[2]; p.rotation.w = v[3];
            rot = true;
        }
        if (c->tracks[i].target == PLUMBOB_CLIP_TARGET_TRANSLATION && !tra) {
            p.translation.x = v[0]; p.translation.y = v[1]; p.translation.z = v[2];
            tra = true;
        }
    }
    CHECK(rot && tra);
    CHECK_OK(plumbob_root_motion_frame(&p, f));
}

void test_root_motion_corpus(void) {
    plumbob_clip c;
    unsigned char *mem = NULL, *buf = ik_clip_load(&c, &mem, 0x3D40CC19DAAFD164ull);
    plumbob_root_motion d, h1, h2, sum, f0, f1, ref, obj;
    float dur, t0, t1;
    if (!buf) T_SKIP(t_corpus_missing());
    dur = plumbob_clip_duration(&c);
    t0 = dur * 0.3f;
    t1 = dur * 0.8f;
    CHECK_OK(plumbob_root_motion_extract(&c, PLUMBOB_ROOT_MOTION_BONE_SIMS3, t0, t1, true, &d));
    root_at(&c, t0, &f0);
    root_at(&c, t1, &f1);
    CHECK_OK(plumbob_root_motion_delta(&f0, &f1, &ref));
    CHECK_NEAR(d.translation.x, ref.translation.x, 1e-5);
    CHECK_NEAR(d.translation.z, ref.translation.z, 1e-5);
    CHECK(dq_angle_deg(dq_of(d.yaw), dq_of(ref.yaw)) <= 0.01);
    /* wrap: t1 -> end, then start -> t0 */
    CHECK_OK(plumbob_root_motion_extract(&c, PLUMBOB_ROOT_MOTION_BONE_SIMS3, t1, t0, true, &d));
    CHECK_OK(plumbob_root_motion_extract(&c, PLUMBOB_ROOT_MOTION_BONE_SIMS3, t1, dur, false, &h1));
    CHECK_OK(plumbob_root_motion_extract(&c, PLUMBOB_ROOT_MOTION_BONE_SIMS3, 0, t0, false, &h2));
    sum = h1;
    CHECK_OK(plumbob_root_motion_accumulate(&sum, &h2));
    CHECK_NEAR(d.translation.x, sum.translation.x, 1e-5);
    CHECK_NEAR(d.translation.z, sum.translation.z, 1e-5);
    CHECK(dq_angle_deg(dq_of(d.yaw), dq_of(sum.yaw)) <= 0.01);
    /* a whole loop, twice: the object keeps going */
    CHECK_OK(plumbob_root_motion_extract(&c, PLUMBOB_ROOT_MOTION_BONE_SIMS3, 0, dur, false, &d));
    obj.translation.x = obj.translation.y = obj.translation.z = 0;
    obj.yaw = plumbob_quat_identity();
    CHECK_OK(plumbob_root_motion_accumulate(&obj, &d));
    CHECK_OK(plumbob_root_motion_accumulate(&obj, &d));
    {
        dv t1d = dv_of(d.translation), two = dv_add(t1d, dq_rot(dq_of(d.yaw), t1d));
        CHECK_NEAR(obj.translation.x, two.x, 1e-5);
        CHECK_NEAR(obj.translation.z, two.z, 1e-5);
    }
    /* errors */
    CHECK_EQ(plumbob_root_motion_extract(&c, 0x12345u, 0, 1, false, &d), PLUMBOB_ERR_NOT_FOUND);
    CHECK_EQ(plumbob_root_motion_extract(&c, PLUMBOB_ROOT_MOTION_BONE_SIMS3, NAN, 1, false, &d),
             PLUMBOB_ERR_INVALID_ARGUMENT);
    free(mem);
    free(buf);
}

/* --- the rig's chains and a clip's slot chains -------------------------- */
static unsigned char *ik_rig_load(plumbob_rig *rig, unsigned char **mem_out, size_t *rig_size) {
    size_t n, need;
    unsigned char *d = t_corpus_load("sims3/auRig.rig", &n), *mem;
    plumbob_arena a;
    if (!d) return NULL;
    CHECK_OK(plumbob_rig_measure(d, n, &need));
    mem = (unsigned char *)malloc(need);
    plumbob_arena_init(&a, mem, need);
    CHECK_OK(plumbob_rig_decode(d, n, &a, rig));
    *mem_out = mem;
    *rig_size = n;
    return d;
}

static bool bone_named(const plumbob_rig *rig, uint32_t view, const char *name) {
    const plumbob_string *s = &rig->skeleton.name[view];
    return s->len == strlen(name) && memcmp(s->ptr, name, s->len) == 0;
}

void test_ik_rig_chains(void) {
    plumbob_rig rig;
    unsigned char *mem = NULL;
    size_t n;
    unsigned char *d = ik_rig_load(&rig, &mem, &n);
    plumbob_ik_chain_bones b;
    if (!d) T_SKIP(t_corpus_missing());
    CHECK_EQ(rig.ik_chain_count, 5);
    CHECK_OK(plumbob_rig_ik_chain_bones(&rig, 3, &b));
    CHECK(bone_named(&rig, b.start, "b__R_Thigh__") && bone_named(&rig, b.mid, "b__R_Calf__") &&
          bone_named(&rig, b.end, "b__R_Foot__"));
    CHECK(b.pole >= 0 && bone_named(&rig, (uint32_t)b.pole, "R_legExportPole"));
    CHECK_OK(plumbob_rig_ik_chain_bones(&rig, 0, &b));
    CHECK(bone_named(&rig, b.start, "b__L_UpperArm__") && bone_named(&rig, b.end, "b__L_Hand__"));
    CHECK_EQ(plumbob_rig_ik_chain_bones(&rig, 4, &b), PLUMBOB_ERR_UNSUPPORTED); /* the root chain */
    CHECK_EQ(plumbob_rig_ik_chain_bones(&rig, 5, &b), PLUMBOB_ERR_BAD_INDEX);
    CHECK_EQ(plumbob_rig_ik_chain_bones(NULL, 0, &b), PLUMBOB_ERR_INVALID_ARGUMENT);
    /* every two-bone chain on the rest pose: a reachable foot target is reached */
    {
        /* in the shared test work memory, not statics: bare metal's RAM is short */
        plumbob_mat34 *model = (plumbob_mat34 *)(void *)t_work(), *after = model + 300;
        plumbob_bone_pose *local = (plumbob_bone_pose *)(void *)(after + 300);
        uint32_t ch;
        CHECK_OK(plumbob_skeleton_model(&rig.skeleton, NULL, model, 300));
        for (ch = 0; ch < 4; ch++) {
            plumbob_ik_two_bone_job j;
            plumbob_ik_two_bone_result r;
            double a, bl;
            CHECK_OK(plumbob_rig_ik_chain_bones(&rig, ch, &b));
            memset(&j, 0, sizeof j);
            j.start = &model[b.start]; j.mid = &model[b.mid]; j.end = &model[b.end];
            j.target.x = model[b.start].m[0][3] + 0.75f * (model[b.end].m[0][3] - model[b.start].m[0][3]) + 0.03f;
            j.target.y = model[b.start].m[1][3] + 0.75f * (model[b.end].m[1][3] - model[b.start].m[1][3]) + 0.02f;
            j.target.z = model[b.start].m[2][3] + 0.75f * (model[b.end].m[2][3] - model[b.start].m[2][3]) + 0.04f;
            j.pole.x = model[b.pole].m[0][3] - model[b.start].m[0][3];
            j.pole.y = model[b.pole].m[1][3] - model[b.start].m[1][3];
            j.pole.z = model[b.pole].m[2][3] - model[b.start].m[2][3];
            j.weight = 1; j.soften = 1;
            CHECK_OK(plumbob_ik_two_bone(&j, &r));
            CHECK(r.reached);
            CHECK_OK(plumbob_skeleton_rest_pose(&rig.skeleton, 0, rig.skeleton.bone_count, local, 300));
            local[b.start].rotation = plumbob_quat_normalize(plumbob_quat_mul(local[b.start].rotation, r.start_correction));
            local[b.mid].rotation = plumbob_quat_normalize(plumbob_quat_mul(local[b.mid].rotation, r.mid_correction));
            CHECK_OK(plumbob_skeleton_model(&rig.skeleton, local, after, 300));
            CHECK(dv_len(dv_sub(dv_col(&after[b.end], 3), dv_of(j.target))) <= 1e-4);
            a = dist(&model[b.start], &model[b.mid]);
            bl = dist(&model[b.mid], &model[b.end]);
            CHECK_NEAR(dist(&after[b.start], &after[b.mid]), a, 1e-5);
            CHECK_NEAR(dist(&after[b.mid], &after[b.end]), bl, 1e-5);
        }
    }
    free(mem);
    free(d);
}

void test_ik_slots_corpus(void) {
    plumbob_rig rig;
    plumbob_clip c;
    unsigned char *rmem = NULL, *cmem = NULL;
    size_t n;
    unsigned char *d = ik_rig_load(&rig, &rmem, &n), *buf;
    plumbob_mat34 *model = (plumbob_mat34 *)(void *)t_work(); /* not a static: bare metal's RAM is short */
    plumbob_mat34 other_model[2];
    int32_t other_parent[2] = {-1, 0};
    plumbob_bone_pose other_rest[2];
    uint32_t other_hash[2];
    plumbob_skeleton other;
    plumbob_ik_slot_job j;
    plumbob_ik_slot_solve solves[16];
    uint32_t count = 0, bad = 0, i, ok = 0;
    if (!d) T_SKIP(t_corpus_missing());
    buf = ik_clip_load(&c, &cmem, 0x3D40CC19DAAFD164ull);
    if (!buf) { free(rmem); free(d); T_SKIP(t_corpus_missing()); }
    CHECK_OK(plumbob_skeleton_model(&rig.skeleton, NULL, model, 300));
    /* the baby: a root and its IKtarget_baby slot, in front of the adult's chest */
    other_rest[0] = rm_pose(0, 0, 0.0, 1.1, 0.3);
    other_rest[1] = rm_pose(0, 0, 0.0, 0.05, 0.0);
    other_hash[0] = plumbob_fnv32_str("b__ROOT__");
    other_hash[1] = plumbob_fnv32_str("IKtarget_baby");
    memset(&other, 0, sizeof other);
    other.bone_count = 2;
    other.parent = other_parent;
    other.rest = other_rest;
    other.name_hash = other_hash;
    CHECK_OK(plumbob_skeleton_model(&other, NULL, other_model, 2));
    memset(&j, 0, sizeof j);
    j.clip = &c; j.rig = &rig; j.model = model; j.model_count = 300;
    j.actor.ptr = "BABY"; j.actor.len = 4; /* without case */
    j.other = &other; j.other_model = other_model; j.other_model_count = 2;
    j.weight = 1; j.soften = 1;
    CHECK_OK(plumbob_ik_slots_solve(&j, solves, 16, &count, &bad));
    CHECK(count >= 1);
    for (i = 0; i < count; i++) {
        const plumbob_clip_slot *e = &c.slots[solves[i].slot_entry];
        CHECK(e->actor.len == 4);
        if (solves[i].status == PLUMBOB_OK) {
            ok++;
            CHECK_EQ(solves[i].slot_bone, 1);
            CHECK_NEAR(solves[i].target.y, 1.15, 1e-6);
            CHECK(finite_q(solves[i].ik.start_correction) && finite_q(solves[i].ik.mid_correction));
        }
    }
    CHECK(ok >= 1);
    CHECK_EQ(ok + bad, count);
    /* the adult's own entries ("x") name slots the baby has not: reported unresolved */
    j.actor.ptr = "x"; j.actor.len = 1;
    CHECK_OK(plumbob_ik_slots_solve(&j, solves, 16, &count, &bad));
    CHECK(count >= 1 && bad == count);
    for (i = 0; i < count; i++)
        CHECK(solves[i].status == PLUMBOB_ERR_NOT_FOUND || solves[i].status == PLUMBOB_ERR_UNSUPPORTED);
    /* sizes first */
    CHECK_EQ(plumbob_ik_slots_solve(&j, solves, 0, &count, &bad), PLUMBOB_ERR_OUTPUT_TOO_SMALL);
    CHECK(count >= 1);
    j.model_count = 10;
    CHECK_EQ(plumbob_ik_slots_solve(&j, solves, 16, &count, &bad), PLUMBOB_ERR_OUTPUT_TOO_SMALL);
    j.model_count = 300;
    other.name_hash = NULL;
    CHECK_EQ(plumbob_ik_slots_solve(&j, solves, 16, &count, &bad), PLUMBOB_ERR_INVALID_ARGUMENT);
    free(cmem);
    free(buf);
    free(rmem);
    free(d);
}

/* the small sine and cosine behind the twist: against libm */
void test_ik_twist_angles(void) {
    plumbob_mat34 joint = plumbob_mat34_identity();
    plumbob_ik_aim_job j;
    plumbob_ik_aim_result r;
    double worst = 0;
    int k;
    memset(&j, 0, sizeof j);
    j.joint = &joint;
    j.forward.z = 1;
    j.target.z = 1;
    j.weight = 1;
    for (k = -2000; k <= 2000; k++) {
        double a = k * 0.0137;
        j.twist_angle = (float)a;
        CHECK_OK(plumbob_ik_aim(&j, &r));
        {
            double e = dq_angle_deg(dq_of(r.correction), dq_axis_angle(dv_make(0, 0, 1), (double)(float)a));
            if (e > worst) worst = e;
        }
    }
    CHECK(worst <= 0.001);
}
