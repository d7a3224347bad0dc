/* The aim (look-at) job, solved in the joint's own frame, where the
 * rotation found is the local correction itself: the offset ray
 * (offset + s forward) is a line at distance |offset's part across
 * forward| from the joint; its point at the target's distance, turned onto
 * the target by the shortest rotation, puts the target on the ray.
 *
 * Speed: the two turns stay unnormalized until the end (a quaternion's
 * length does not change the rotation it stands for), so the solve has
 * one root-and-divide pair on its dependent chain before the last
 * normalization instead of four; the root that makes the pole's direction
 * unit depends only on the input and runs beside them. */
#include "plumbob/runtime.h"
#include "pb_ik_math.h"
#include "pb_over.h"

/* Every number finite and within 1e15, the twist within 1e6.  On SSE2
 * (pb_over.h) the joint's 12 numbers and the job's 17 after it (target
 * to twist_angle, in a row: checked below) four at a time. */
#if defined(PB_PORT_HAS_OVER)
typedef char pb_aim_job_row[(offsetof(plumbob_ik_aim_job, twist_angle) - offsetof(plumbob_ik_aim_job, target) ==
                             16 * sizeof(float)) ? 1 : -1];
static bool job_ok(const plumbob_ik_aim_job *j) {
    uint32_t bad = pb_port_over(&j->joint->m[0][0], 12u, PB_IK_LIMIT_BITS) |
                   pb_port_over(&j->target.x, 17u, PB_IK_LIMIT_BITS);
    return bad == 0u && j->twist_angle <= 1e6f && j->twist_angle >= -1e6f;
}
#else
static bool job_ok(const plumbob_ik_aim_job *j) {
    uint32_t bad = pb_ik_over_mat(j->joint) | pb_ik_over3(j->target) | pb_ik_over3(j->forward) | pb_ik_over3(j->up) |
                   pb_ik_over3(j->pole) | pb_ik_over3(j->offset) | pb_ik_over(j->weight) | pb_ik_over(j->twist_angle);
    return (bad >> 31) == 0u && j->twist_angle <= 1e6f && j->twist_angle >= -1e6f;
}
#endif

/* q v q* for q of any length: |q|^2 times q's rotation of v. */
static plumbob_vec3 rot_scaled(plumbob_quat q, plumbob_vec3 v) {
    plumbob_vec3 a = pb_v3(q.x, q.y, q.z), c = pb_v3_cross(a, v);
    float s = q.w * q.w - pb_v3_dot(a, a), d = 2.0f * pb_v3_dot(a, v), w2 = 2.0f * q.w;
    return pb_v3(s * v.x + d * a.x + w2 * c.x, s * v.y + d * a.y + w2 * c.y, s * v.z + d * a.z + w2 * c.z);
}

plumbob_result plumbob_ik_aim(const plumbob_ik_aim_job *job, plumbob_ik_aim_result *result) {
    plumbob_quat r;
    pb_ik_frame fr;
    plumbob_vec3 f, t, o_perp, from, k, zero = pb_v3(0.0f, 0.0f, 0.0f);
    float t2, o2, s2, weight;
    bool reached = false;
    if (!job || !result || !job->joint || !job_ok(job)) return PLUMBOB_ERR_INVALID_ARGUMENT;
    f = pb_v3_unit_or(job->forward, zero);
    if (pb_v3_dot(f, f) == 0.0f) return PLUMBOB_ERR_INVALID_ARGUMENT;
    weight = job->weight > 0.0f ? (job->weight < 1.0f ? job->weight : 1.0f) : 0.0f;
    fr = pb_ik_frame_of(job->joint);
    t = pb_ik_to_local(&fr, pb_v3_sub(job->target, pb_mat_col(job->joint, 3))); /* joint frame */
    t2 = pb_v3_dot(t, t);
    r = pb_q(0.0f, 0.0f, 0.0f, 1.0f);
    if (t2 > PB_IK_EPS2) {
        float inv_t = pb_ik_rsqrt(t2), d, n;
        plumbob_vec3 pole = pb_ik_to_local(&fr, job->pole), pp;
        float pp2;
        k = pb_v3_scale(t, inv_t);
        /* the pole's part across the aim line, unit (off the chain: input only) */
        pp = pb_v3_sub(pole, pb_v3_scale(k, pb_v3_dot(k, pole)));
        pp2 = pb_v3_dot(pp, pp);
        pp = pb_v3_scale(pp, pb_ik_rsqrt(pp2));
        o_perp = pb_v3_sub(job->offset, pb_v3_scale(f, pb_v3_dot(f, job->offset)));
        o2 = pb_v3_dot(o_perp, o_perp);
        s2 = t2 - o2;
        if (s2 > 0.0f) {
            /* |from|^2 = |o_perp|^2 + s2 = |t|^2: unit by t's own length */
            from = pb_v3_scale(pb_v3_add(o_perp, pb_v3_scale(f, pb_ik_sqrt(s2))), inv_t);
            reached = true;
        } else {
            from = f; /* the target is inside the offset's circle: aim the axis itself */
        }
        /* the shortest turn from -> k as (from x k, 1 + from.k), |r|^2 = 2 (1 + from.k)
         * in [0.2, 4]; near half a turn pb_q_from_to's two steps (unit) */
        d = pb_v3_dot(from, k);
        if (d > -0.9f) {
            plumbob_vec3 c = pb_v3_cross(from, k);
            r = pb_q(c.x, c.y, c.z, 1.0f + d);
        } else {
            r = pb_q_from_to(from, k);
        }
        n = r.x * r.x + r.y * r.y + r.z * r.z + r.w * r.w;
        /* up toward the pole, about the aim line: up turned by r is n times
         * as long, so its threshold is n^2 times the unit one's */
        {
            plumbob_vec3 up = rot_scaled(r, job->up);
            plumbob_vec3 up_p = pb_v3_sub(up, pb_v3_scale(k, pb_v3_dot(k, up)));
            float up2 = pb_v3_dot(up_p, up_p);
            if (pp2 > PB_IK_EPS2 && up2 > PB_IK_EPS2 * n * n) {
                /* pb_q_about_cs's half-angle forms, scaled by |up_p| (pp is unit), unnormalized */
                float c = pb_v3_dot(up_p, pp), s = pb_v3_dot(pb_v3_cross(up_p, pp), k), len = pb_ik_sqrt(up2);
                plumbob_quat a = c >= 0.0f ? pb_q(k.x * s, k.y * s, k.z * s, len + c)
                                           : pb_q(k.x * (len - c), k.y * (len - c), k.z * (len - c), s);
                r = pb_q_mul(a, r);
            }
        }
        if (job->twist_angle != 0.0f) r = pb_q_mul(pb_q_axis_angle(k, job->twist_angle), r);
    }
    if (weight < 1.0f) r = pb_q_weight(pb_q_unit(r), weight);
    result->correction = pb_q_unit(r);
    result->reached = reached;
    return PLUMBOB_OK;
}
