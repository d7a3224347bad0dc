/* The aim (look-at) job, solved in the joint's own frame, where the
 * rotation found is the local correction itself: the offset ray
 * (offset + s forward) is a line at distance |offset's part across
 * forward| from the joint; its point at the target's distance, turned onto
 * the target by the shortest rotation, puts the target on the ray. */
#include "plumbob/runtime.h"
#include "pb_ik_math.h"

/* Every number finite and within 1e15, the twist within 1e6. */
static bool job_ok(const plumbob_ik_aim_job *j) {
    uint32_t bad = pb_ik_over_mat(j->joint) | pb_ik_over3(j->target) | pb_ik_over3(j->forward) | pb_ik_over3(j->up) |
                   pb_ik_over3(j->pole) | pb_ik_over3(j->offset) | pb_ik_over(j->weight) | pb_ik_over(j->twist_angle);
    return (bad >> 31) == 0u && j->twist_angle <= 1e6f && j->twist_angle >= -1e6f;
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
        float inv_t = pb_ik_rsqrt(t2);
        k = pb_v3_scale(t, inv_t);
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
        r = pb_q_from_to(from, k);
        /* up toward the pole, about the aim line */
        {
            plumbob_vec3 pole = pb_ik_to_local(&fr, job->pole);
            plumbob_vec3 up = pb_q_rot(r, job->up);
            plumbob_vec3 pp = pb_v3_sub(pole, pb_v3_scale(k, pb_v3_dot(k, pole)));
            plumbob_vec3 up_p = pb_v3_sub(up, pb_v3_scale(k, pb_v3_dot(k, up)));
            if (pb_v3_dot(pp, pp) > PB_IK_EPS2 && pb_v3_dot(up_p, up_p) > PB_IK_EPS2)
                r = pb_q_mul(pb_q_about_any(k, up_p, pp), r);
        }
        if (job->twist_angle != 0.0f) r = pb_q_mul(pb_q_axis_angle(k, job->twist_angle), r);
    }
    result->correction = pb_q_unit(pb_q_weight(r, weight));
    result->reached = reached;
    return PLUMBOB_OK;
}
