/* A clip's IK slot chains solved against another actor's skeleton: each
 * slot entry naming that actor resolves its slot bone by name hash, and
 * the chain's two-bone job runs with that bone's model position as the
 * target.  Counting comes first, so a short output span is refused before
 * anything is written. */
#include "plumbob/runtime.h"
#include "pb_ascii.h"
#include "pb_ik_math.h"

static bool names_actor(const plumbob_clip_slot *e, plumbob_string actor) {
    return e->actor.len == actor.len && (actor.len == 0 || (e->actor.ptr && actor.ptr &&
                                                            pb_ascii_caseeq(e->actor.ptr, actor.ptr, actor.len)));
}

static void solve_one(const plumbob_ik_slot_job *job, const plumbob_clip_slot *e, plumbob_ik_slot_solve *out) {
    plumbob_ik_two_bone_job ik;
    uint32_t hash;
    int32_t bone;
    out->chain = e->chain;
    out->slot_bone = -1;
    out->target = pb_v3(0.0f, 0.0f, 0.0f);
    out->ik.start_correction = out->ik.mid_correction = pb_q(0.0f, 0.0f, 0.0f, 1.0f);
    out->ik.reached = false;
    out->bones.start = out->bones.mid = out->bones.end = 0;
    out->bones.pole = -1;
    hash = plumbob_fnv32(e->slot.ptr, e->slot.ptr ? e->slot.len : 0u);
    bone = plumbob_skeleton_find(job->other, hash);
    out->slot_bone = bone;
    if (bone >= 0) {
        out->target = pb_mat_col(&job->other_model[bone], 3);
        if (job->other_to_model) out->target = plumbob_mat34_transform_point(job->other_to_model, out->target);
    }
    out->status = plumbob_rig_ik_chain_bones(job->rig, e->chain, &out->bones);
    if (out->status != PLUMBOB_OK) return;
    if (bone < 0) {
        out->status = PLUMBOB_ERR_NOT_FOUND;
        return;
    }
    ik.start = &job->model[out->bones.start];
    ik.mid = &job->model[out->bones.mid];
    ik.end = &job->model[out->bones.end];
    ik.target = out->target;
    ik.pole = out->bones.pole >= 0 ? pb_v3_sub(pb_mat_col(&job->model[out->bones.pole], 3), pb_mat_col(ik.start, 3))
                                   : pb_v3(0.0f, 0.0f, 0.0f);
    ik.weight = job->weight;
    ik.soften = job->soften;
    ik.twist_angle = 0.0f;
    out->status = plumbob_ik_two_bone(&ik, &out->ik);
}

plumbob_result plumbob_ik_slots_solve(const plumbob_ik_slot_job *job, plumbob_ik_slot_solve *solves,
                                      uint32_t solve_capacity, uint32_t *solve_count, uint32_t *unresolved) {
    const plumbob_clip *clip;
    plumbob_result r;
    uint32_t i, n = 0, bad = 0;
    if (!job || !solves || !solve_count || !job->clip || !job->rig || !job->model || !job->other ||
        !job->other_model || !job->other->name_hash || (job->actor.len && !job->actor.ptr))
        return PLUMBOB_ERR_INVALID_ARGUMENT;
    if (job->other_to_model && !pb_ik_sane_mat(job->other_to_model)) return PLUMBOB_ERR_INVALID_ARGUMENT;
    clip = job->clip;
    if (clip->slot_count && !clip->slots) return PLUMBOB_ERR_INVALID_ARGUMENT;
    r = plumbob_skeleton_validate(&job->rig->skeleton);
    if (r == PLUMBOB_OK) r = plumbob_skeleton_validate(job->other);
    if (r != PLUMBOB_OK) return r;
    if (job->model_count < job->rig->skeleton.bone_count || job->other_model_count < job->other->bone_count)
        return PLUMBOB_ERR_OUTPUT_TOO_SMALL;
    for (i = 0; i < clip->slot_count; i++) n += names_actor(&clip->slots[i], job->actor) ? 1u : 0u;
    *solve_count = n;
    if (n > solve_capacity) return PLUMBOB_ERR_OUTPUT_TOO_SMALL;
    n = 0;
    for (i = 0; i < clip->slot_count; i++) {
        if (!names_actor(&clip->slots[i], job->actor)) continue;
        solves[n].slot_entry = i;
        solve_one(job, &clip->slots[i], &solves[n]);
        if (solves[n].status != PLUMBOB_OK) bad++;
        n++;
    }
    if (unresolved) *unresolved = bad;
    return PLUMBOB_OK;
}
