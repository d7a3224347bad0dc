/* libFuzzer target for the root-motion and IK jobs (runtime.h Chapter
 * 19c): every float of every job is read from the input's bytes as raw
 * bits (NaN, infinities, subnormals, huge values among them).  Any input
 * must not crash; a job that accepts its input (every number finite and
 * within 1e15, twist within 1e6, which it must accept) must give finite, unit corrections;
 * root-motion helpers given finite values below 1e6 must give finite ones.
 * The input's tail, when it decodes as a CLIP, has its root motion
 * extracted between two fuzzed times. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "plumbob.h"

typedef struct {
    const uint8_t *d;
    size_t n, at;
} src;

static float f32(src *s) {
    uint32_t bits = 0;
    float f;
    int k;
    for (k = 0; k < 4; k++) {
        bits |= (uint32_t)(s->n ? s->d[s->at % s->n] : 0u) << (8 * k);
        s->at++;
    }
    memcpy(&f, &bits, sizeof f);
    return f;
}

static int finite(float x) { return x == x && x - x == 0.0f; }
static int ok_in(float x) { return finite(x) && x <= 1e15f && x >= -1e15f; }
static int ok_v(plumbob_vec3 v) { return ok_in(v.x) && ok_in(v.y) && ok_in(v.z); }
static int ok_m(const plumbob_mat34 *m) {
    int r, c;
    for (r = 0; r < 3; r++)
        for (c = 0; c < 4; c++)
            if (!ok_in(m->m[r][c])) return 0;
    return 1;
}
static void unit_q(plumbob_quat q) {
    float l2;
    if (!finite(q.x) || !finite(q.y) || !finite(q.z) || !finite(q.w)) abort();
    l2 = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
    if (!(l2 > 0.999f && l2 < 1.001f)) abort();
}
static plumbob_vec3 vec(src *s) {
    plumbob_vec3 v;
    v.x = f32(s); v.y = f32(s); v.z = f32(s);
    return v;
}
static void mat(src *s, plumbob_mat34 *m) {
    int r, c;
    for (r = 0; r < 3; r++)
        for (c = 0; c < 4; c++) m->m[r][c] = f32(s);
}
/* A bounded finite value from raw bits: below 1e6 in size. */
static float bounded(src *s) {
    float f = f32(s);
    if (!finite(f)) return 0.5f;
    while (f > 1e6f || f < -1e6f) f *= 1e-6f;
    return f;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    src s;
    plumbob_mat34 m[4];
    plumbob_ik_two_bone_job j;
    plumbob_ik_two_bone_result r;
    plumbob_ik_aim_job aj;
    plumbob_ik_aim_result ar;
    plumbob_result res;
    int i;
    s.d = data;
    s.n = size;
    s.at = 0;
    for (i = 0; i < 4; i++) mat(&s, &m[i]);
    /* two-bone */
    memset(&j, 0, sizeof j);
    j.start = &m[0]; j.mid = &m[1]; j.end = &m[2];
    j.target = vec(&s);
    j.pole = vec(&s);
    j.weight = f32(&s);
    j.soften = f32(&s);
    j.twist_angle = f32(&s);
    res = plumbob_ik_two_bone(&j, &r);
    if (ok_m(&m[0]) && ok_m(&m[1]) && ok_m(&m[2]) && ok_v(j.target) && ok_v(j.pole) && ok_in(j.weight) &&
        ok_in(j.soften) && ok_in(j.twist_angle) && j.twist_angle <= 1e6f && j.twist_angle >= -1e6f) {
        if (res != PLUMBOB_OK) abort();
    }
    if (res == PLUMBOB_OK) {
        unit_q(r.start_correction);
        unit_q(r.mid_correction);
    } else if (res != PLUMBOB_ERR_INVALID_ARGUMENT) {
        abort();
    }
    /* aim */
    memset(&aj, 0, sizeof aj);
    aj.joint = &m[3];
    aj.target = vec(&s); aj.forward = vec(&s); aj.up = vec(&s); aj.pole = vec(&s); aj.offset = vec(&s);
    aj.weight = f32(&s);
    aj.twist_angle = f32(&s);
    res = plumbob_ik_aim(&aj, &ar);
    if (res == PLUMBOB_OK) unit_q(ar.correction);
    else if (res != PLUMBOB_ERR_INVALID_ARGUMENT) abort();
    if (res != PLUMBOB_OK && ok_m(&m[3]) && ok_v(aj.target) && ok_v(aj.forward) && ok_v(aj.up) && ok_v(aj.pole) &&
        ok_v(aj.offset) && ok_in(aj.weight) && ok_in(aj.twist_angle) && aj.twist_angle <= 1e6f &&
        aj.twist_angle >= -1e6f && aj.forward.x * aj.forward.x + aj.forward.y * aj.forward.y +
                                           aj.forward.z * aj.forward.z > 1e-10f)
        abort();
    /* root motion on bounded finite values: finite out */
    {
        plumbob_bone_pose p;
        plumbob_root_motion f0, f1, d, obj;
        p.rotation.x = bounded(&s); p.rotation.y = bounded(&s); p.rotation.z = bounded(&s); p.rotation.w = bounded(&s);
        p.translation.x = bounded(&s); p.translation.y = bounded(&s); p.translation.z = bounded(&s);
        p.scale.x = p.scale.y = p.scale.z = 1.0f;
        if (plumbob_root_motion_frame(&p, &f0) != PLUMBOB_OK) abort();
        p.rotation.y = bounded(&s); p.translation.x = bounded(&s);
        if (plumbob_root_motion_frame(&p, &f1) != PLUMBOB_OK) abort();
        if (plumbob_root_motion_delta(&f0, &f1, &d) != PLUMBOB_OK) abort();
        obj = f0;
        if (plumbob_root_motion_accumulate(&obj, &d) != PLUMBOB_OK) abort();
        if (plumbob_root_motion_remove(&f0, &p) != PLUMBOB_OK) abort();
        {
            plumbob_bone_pose c = p; /* a carrier taking the motion back: finite too */
            if (plumbob_root_motion_apply(&obj, &f0, &c) != PLUMBOB_OK) abort();
            unit_q(c.rotation);
            if (!finite(c.translation.x) || !finite(c.translation.y) || !finite(c.translation.z)) abort();
        }
        unit_q(d.yaw);
        unit_q(obj.yaw);
        unit_q(p.rotation);
        if (!finite(obj.translation.x) || !finite(obj.translation.z) || !finite(p.translation.x) ||
            !finite(p.translation.y) || !finite(p.translation.z))
            abort();
    }
    /* a clip in the tail: root motion between fuzzed times (any time) */
    if (size > 200) {
        size_t need;
        const uint8_t *tail = data + 200;
        size_t tn = size - 200;
        if (plumbob_clip_measure(tail, tn, &need) == PLUMBOB_OK && need <= (16u << 20)) {
            unsigned char *mem = (unsigned char *)malloc(need ? need : 1);
            plumbob_arena a;
            plumbob_clip c;
            plumbob_root_motion d;
            plumbob_arena_init(&a, mem, need);
            if (plumbob_clip_decode(tail, tn, &a, &c) == PLUMBOB_OK) {
                float t0 = f32(&s), t1 = f32(&s);
                uint32_t hash = c.track_count ? c.tracks[0].hash : PLUMBOB_ROOT_MOTION_BONE_SIMS3;
                res = plumbob_root_motion_extract(&c, hash, t0, t1, true, &d);
                if (res == PLUMBOB_OK) unit_q(d.yaw);
                else if (res != PLUMBOB_ERR_INVALID_ARGUMENT && res != PLUMBOB_ERR_NOT_FOUND) abort();
            }
            free(mem);
        }
    }
    return 0;
}
