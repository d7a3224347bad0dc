/* The two-bone IK job: law of cosines for the middle joint, then the
 * start joint aims the end at the target and turns the bend plane toward
 * the pole.  No angles are formed: the middle joint's new direction is
 * built from the bend's cosine and sine in the plane's own basis, and
 * rotations come from pairs of directions, so there is no acos, no libm,
 * and small corrections keep their digits. */
#include "plumbob/runtime.h"
#include "pb_ik_math.h"
#include "pb_over.h"

static float clamp01(float x) { return x > 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f; }

/* Smooth ease of the reach past `da` toward `total` (soften < 1): the
 * excess x = (d - da) / (total - da) maps to 1 - 1 / (1 + x / 4)^4, whose
 * slope at 0 is 1 (no kink where softening starts) and which nears 1 (full
 * stretch) only as the target goes to infinity. */
static float softened(float d, float total, float soften, bool *changed) {
    float da = total * soften, ds = total - da, x, k;
    *changed = false;
    if (soften >= 1.0f || !(d > da) || !(ds > 0.0f)) return d;
    x = (d - da) / ds;
    k = 1.0f + 0.25f * x;
    k = k * k;
    k = k * k;
    *changed = true;
    return da + ds * (1.0f - 1.0f / k);
}

/* Every number finite and within 1e15, the twist within 1e6. */
#if defined(PB_PORT_HAS_OVER)
/* SSE2 (pb_over.h): the three joints' 12 numbers each and the job's 9
 * from target to twist_angle (in a row: checked below) four at a time */
typedef char pb_two_bone_job_row[(offsetof(plumbob_ik_two_bone_job, twist_angle) -
                                  offsetof(plumbob_ik_two_bone_job, target) == 8 * sizeof(float)) ? 1 : -1];
static bool job_ok(const plumbob_ik_two_bone_job *j) {
    uint32_t bad = pb_port_over(&j->start->m[0][0], 12u, PB_IK_LIMIT_BITS) |
                   pb_port_over(&j->mid->m[0][0], 12u, PB_IK_LIMIT_BITS) |
                   pb_port_over(&j->end->m[0][0], 12u, PB_IK_LIMIT_BITS) |
                   pb_port_over(&j->target.x, 9u, PB_IK_LIMIT_BITS);
    return bad == 0u && j->twist_angle <= 1e6f && j->twist_angle >= -1e6f;
}
#else
static bool job_ok(const plumbob_ik_two_bone_job *j) {
    uint32_t bad = pb_ik_over_mat(j->start) | pb_ik_over_mat(j->mid) | pb_ik_over_mat(j->end) | pb_ik_over3(j->target) |
                   pb_ik_over3(j->pole) | pb_ik_over(j->weight) | pb_ik_over(j->soften) | pb_ik_over(j->twist_angle);
    return (bad >> 31) == 0u && j->twist_angle <= 1e6f && j->twist_angle >= -1e6f;
}
#endif

plumbob_result plumbob_ik_two_bone(const plumbob_ik_two_bone_job *job, plumbob_ik_two_bone_result *result) {
    plumbob_vec3 s, m, e, u, v, e1, e2, vn, vnew, e_bent, dir, k, pole_perp;
    plumbob_quat r_mid, r_start;
    pb_ik_frame fs, fm;
    float a2, b2, a, b, d2, d, c, cos_n, sin_n, lo, hi, weight;
    bool soft, reached, bent = false, bent_len = false;
    if (!job || !result || !job->start || !job->mid || !job->end) return PLUMBOB_ERR_INVALID_ARGUMENT;
    if (!job_ok(job)) return PLUMBOB_ERR_INVALID_ARGUMENT;
    weight = clamp01(job->weight);
    s = pb_mat_col(job->start, 3);
    m = pb_mat_col(job->mid, 3);
    e = pb_mat_col(job->end, 3);
    u = pb_v3_sub(s, m); /* mid -> start */
    v = pb_v3_sub(e, m); /* mid -> end */
    a2 = pb_v3_dot(u, u);
    b2 = pb_v3_dot(v, v);
    a = pb_ik_sqrt(a2);
    b = pb_ik_sqrt(b2);
    dir = pb_v3_sub(job->target, s);
    d2 = pb_v3_dot(dir, dir);
    d = pb_ik_sqrt(d2);

    /* the distance the end will have from the start */
    c = softened(d, a + b, clamp01(job->soften), &soft);
    lo = a > b ? a - b : b - a;
    hi = a + b;
    reached = !soft && d >= lo && d <= hi;
    c = c < lo ? lo : (c > hi ? hi : c);

    /* middle joint: in the bend plane (basis e1 toward the start, e2 the
     * end's side), put the end at interior angle N: cos N by the law of
     * cosines, sin N >= 0 */
    r_mid = pb_q(0.0f, 0.0f, 0.0f, 1.0f);
    e_bent = e;
    if (a2 > PB_IK_EPS2 && b2 > PB_IK_EPS2) {
        plumbob_vec3 side;
        float cos_0, sin_0, side2;
        e1 = pb_v3_scale(u, 1.0f / a);
        vn = pb_v3_scale(v, 1.0f / b);
        cos_0 = pb_v3_dot(e1, vn);
        side = pb_v3_sub(vn, pb_v3_scale(e1, cos_0));
        side2 = pb_v3_dot(side, side);
        if (side2 > 1e-10f) {
            sin_0 = pb_ik_sqrt(side2);
            e2 = pb_v3_scale(side, 1.0f / sin_0);
        } else { /* straight or folded: bend toward the pole if there is one */
            plumbob_vec3 p = pb_v3_sub(job->pole, pb_v3_scale(e1, pb_v3_dot(e1, job->pole)));
            e2 = pb_v3_unit_or(p, pb_v3_any_perp(e1));
            sin_0 = 0.0f;
        }
        if (c >= hi) { /* stretched: exactly straight (the cosine there is ill-conditioned) */
            cos_n = -1.0f;
            sin_n = 0.0f;
        } else if (c <= lo) { /* folded */
            cos_n = 1.0f;
            sin_n = 0.0f;
        } else {
            cos_n = (a2 + b2 - c * c) / (2.0f * a * b);
            cos_n = cos_n < -1.0f ? -1.0f : (cos_n > 1.0f ? 1.0f : cos_n);
            sin_n = pb_ik_sqrt(1.0f - cos_n * cos_n);
        }
        vnew = pb_v3_add(pb_v3_scale(e1, cos_n), pb_v3_scale(e2, sin_n));
        /* about the plane's normal e1 x e2, from angle 0 to N: cosine and
         * sine of N - 0 from the two angles' own */
        r_mid = pb_q_about_cs(pb_v3_cross(e1, e2), cos_n * cos_0 + sin_n * sin_0, sin_n * cos_0 - cos_n * sin_0,
                              1.0f);
        e_bent = pb_v3_add(m, pb_v3_scale(vnew, b));
        bent = sin_n > 0.0f;
        bent_len = true; /* |e_bent - s| = c by the law of cosines */
    }

    /* start joint: end onto the start -> target line, then the pole, then
     * the twist, all about the start joint */
    r_start = pb_q(0.0f, 0.0f, 0.0f, 1.0f);
    if (d2 > PB_IK_EPS2) {
        plumbob_vec3 to_end = pb_v3_sub(e_bent, s), mid_rel, mid_perp;
        k = pb_v3_scale(dir, 1.0f / d);
        if (pb_v3_dot(to_end, to_end) > PB_IK_EPS2) /* bent, its length is c: no root needed */
            r_start = pb_q_from_to(bent_len && c > 1e-6f ? pb_v3_scale(to_end, 1.0f / c)
                                                          : pb_v3_unit_or(to_end, k),
                                   k);
        pole_perp = pb_v3_sub(job->pole, pb_v3_scale(k, pb_v3_dot(k, job->pole)));
        mid_rel = pb_q_rot(r_start, pb_v3_sub(m, s));
        mid_perp = pb_v3_sub(mid_rel, pb_v3_scale(k, pb_v3_dot(k, mid_rel)));
        /* a straight or folded chain lies on the line: no plane to turn */
        if (bent && pb_v3_dot(pole_perp, pole_perp) > PB_IK_EPS2 && pb_v3_dot(mid_perp, mid_perp) > PB_IK_EPS2) {
            plumbob_quat turn = pb_q_about_any(k, mid_perp, pole_perp);
            r_start = pb_q_mul(turn, r_start);
        }
        if (job->twist_angle != 0.0f)
            r_start = pb_q_mul(pb_q_axis_angle(k, job->twist_angle), r_start);
    }

    /* model-space turns -> local corrections (the start's turn moves the
     * whole subtree, so the middle joint's correction does not depend on it) */
    fs = pb_ik_frame_of(job->start);
    fm = pb_ik_frame_of(job->mid);
    result->start_correction = pb_ik_local_turn(&fs, pb_q_weight(r_start, weight));
    result->mid_correction = pb_ik_local_turn(&fm, pb_q_weight(r_mid, weight));
    result->reached = reached;
    return PLUMBOB_OK;
}
