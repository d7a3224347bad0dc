/* Root motion: the ground-plane part (x, z and yaw about Y) of a root
 * bone's motion, taken out of a clip as deltas an object accumulates, and
 * taken out of the sampled pose so the body stays over the object.  Yaw
 * is the rotation's twist about Y ((0, y, 0, w) normalized): no angles, so
 * no trigonometry, and a half turn about a level axis has no yaw. */
#include "plumbob/runtime.h"
#include "pb_ik_math.h"
#include "pb_clip_track.h"

static plumbob_quat yaw_of(plumbob_quat q) {
    float l2 = q.y * q.y + q.w * q.w, s;
    if (!(l2 > 1e-12f) || !pb_ik_finite(l2)) return pb_q(0.0f, 0.0f, 0.0f, 1.0f);
    s = pb_rsqrtf(l2);
    if (q.w < 0.0f) s = -s; /* one sign for one yaw */
    return pb_q(0.0f, q.y * s, 0.0f, q.w * s);
}

static plumbob_quat yaw_unit(plumbob_quat q) { return yaw_of(pb_q(0.0f, q.y, 0.0f, q.w)); }

plumbob_result plumbob_root_motion_frame(const plumbob_bone_pose *root, plumbob_root_motion *frame) {
    if (!root || !frame) return PLUMBOB_ERR_INVALID_ARGUMENT;
    frame->translation = pb_v3(root->translation.x, 0.0f, root->translation.z);
    frame->yaw = yaw_of(root->rotation);
    return PLUMBOB_OK;
}

plumbob_result plumbob_root_motion_delta(const plumbob_root_motion *from, const plumbob_root_motion *to,
                                         plumbob_root_motion *delta) {
    plumbob_quat inv;
    plumbob_vec3 d;
    if (!from || !to || !delta) return PLUMBOB_ERR_INVALID_ARGUMENT;
    inv = pb_q_conj(yaw_unit(from->yaw));
    d = pb_q_rot(inv, pb_v3_sub(to->translation, from->translation));
    delta->translation = pb_v3(d.x, 0.0f, d.z);
    delta->yaw = yaw_unit(pb_q_mul(inv, yaw_unit(to->yaw)));
    return PLUMBOB_OK;
}

plumbob_result plumbob_root_motion_accumulate(plumbob_root_motion *object, const plumbob_root_motion *delta) {
    plumbob_quat yaw;
    plumbob_vec3 d;
    if (!object || !delta) return PLUMBOB_ERR_INVALID_ARGUMENT;
    yaw = yaw_unit(object->yaw);
    d = pb_q_rot(yaw, pb_v3(delta->translation.x, 0.0f, delta->translation.z));
    object->translation = pb_v3(object->translation.x + d.x, 0.0f, object->translation.z + d.z);
    object->yaw = yaw_unit(pb_q_mul(yaw, yaw_unit(delta->yaw)));
    return PLUMBOB_OK;
}

plumbob_result plumbob_root_motion_remove(const plumbob_root_motion *reference, plumbob_bone_pose *root) {
    plumbob_root_motion f;
    plumbob_quat turn;
    plumbob_vec3 rel;
    if (!reference || !root) return PLUMBOB_ERR_INVALID_ARGUMENT;
    plumbob_root_motion_frame(root, &f);
    turn = pb_q_mul(yaw_unit(reference->yaw), pb_q_conj(f.yaw)); /* F0 inverse(F) */
    rel = pb_q_rot(turn, pb_v3_sub(root->translation, f.translation));
    root->translation = pb_v3(rel.x + reference->translation.x, rel.y, rel.z + reference->translation.z);
    root->rotation = pb_q_unit(pb_q_mul(turn, root->rotation));
    return PLUMBOB_OK;
}

plumbob_result plumbob_root_motion_apply(const plumbob_root_motion *object, const plumbob_root_motion *reference,
                                         plumbob_bone_pose *carrier) {
    plumbob_quat turn;
    plumbob_vec3 t, r;
    if (!object || !reference || !carrier) return PLUMBOB_ERR_INVALID_ARGUMENT;
    turn = yaw_unit(pb_q_mul(yaw_unit(object->yaw), pb_q_conj(yaw_unit(reference->yaw)))); /* object inverse(reference) */
    r = pb_q_rot(turn, pb_v3(reference->translation.x, 0.0f, reference->translation.z));
    t = pb_v3((object->translation.x - r.x) * carrier->scale.x, 0.0f, (object->translation.z - r.z) * carrier->scale.z);
    carrier->translation = pb_v3_add(carrier->translation, pb_q_rot(carrier->rotation, t));
    carrier->rotation = pb_q_unit(pb_q_mul(carrier->rotation, turn));
    return PLUMBOB_OK;
}

/* The root's ground frame at `seconds` from its tracks (-1: none). */
static void frame_at(const plumbob_clip *clip, int32_t rot, int32_t tra, float seconds, plumbob_root_motion *f) {
    plumbob_bone_pose p;
    float ticks = pb_clip_ticks(clip, seconds), v[4];
    p.rotation = pb_q(0.0f, 0.0f, 0.0f, 1.0f);
    p.translation = pb_v3(0.0f, 0.0f, 0.0f);
    p.scale = pb_v3(1.0f, 1.0f, 1.0f);
    if (rot >= 0) {
        const plumbob_clip_track *t = &clip->tracks[rot];
        pb_clip_sample_at(clip, t, t->key_count ? pb_clip_find_key(t, ticks) : 0u, ticks, v);
        p.rotation = pb_q(v[0], v[1], v[2], v[3]);
    }
    if (tra >= 0) {
        const plumbob_clip_track *t = &clip->tracks[tra];
        pb_clip_sample_at(clip, t, t->key_count ? pb_clip_find_key(t, ticks) : 0u, ticks, v);
        p.translation = pb_v3(v[0], v[1], v[2]);
        if (!pb_ik_sane3(p.translation)) p.translation = pb_v3(0.0f, 0.0f, 0.0f); /* a hostile track's scale */
    }
    plumbob_root_motion_frame(&p, f);
}

static float clamp_time(float t, float duration) { return t < 0.0f ? 0.0f : (t > duration ? duration : t); }

plumbob_result plumbob_root_motion_extract(const plumbob_clip *clip, uint32_t root_hash, float t0, float t1,
                                           bool looping, plumbob_root_motion *delta) {
    int32_t rot = -1, tra = -1;
    uint32_t i;
    float duration;
    plumbob_root_motion a, b, d;
    if (!clip || !delta || t0 != t0 || t1 != t1 || (clip->track_count && !clip->tracks))
        return PLUMBOB_ERR_INVALID_ARGUMENT;
    delta->translation = pb_v3(0.0f, 0.0f, 0.0f);
    delta->yaw = pb_q(0.0f, 0.0f, 0.0f, 1.0f);
    for (i = 0; i < clip->track_count; i++) { /* the first track of each channel, as sampling's order */
        const plumbob_clip_track *t = &clip->tracks[i];
        if (t->hash != root_hash) continue;
        if (rot < 0 && t->target == PLUMBOB_CLIP_TARGET_ROTATION && t->components == 4) rot = (int32_t)i;
        if (tra < 0 && t->target == PLUMBOB_CLIP_TARGET_TRANSLATION && t->components == 3) tra = (int32_t)i;
    }
    if (rot < 0 && tra < 0) return PLUMBOB_ERR_NOT_FOUND;
    duration = plumbob_clip_duration(clip);
    if (!(duration > 0.0f) || !pb_ik_finite(duration)) duration = 0.0f;
    t0 = clamp_time(t0, duration);
    t1 = clamp_time(t1, duration);
    frame_at(clip, rot, tra, t0, &a);
    if (looping && t1 < t0) { /* t0 -> end, then start -> t1 */
        frame_at(clip, rot, tra, duration, &b);
        plumbob_root_motion_delta(&a, &b, &d);
        plumbob_root_motion_accumulate(delta, &d);
        frame_at(clip, rot, tra, 0.0f, &a);
    }
    frame_at(clip, rot, tra, t1, &b);
    plumbob_root_motion_delta(&a, &b, &d);
    plumbob_root_motion_accumulate(delta, &d);
    return PLUMBOB_OK;
}
