/* libFuzzer target for ANIM playback (plumbob/runtime.h Chapter 18b):
 * decode an ANIM, bind it to a skeleton of its own channel names (every
 * third one without its "_rot"/"_trans" suffix, so both rules bind) and a
 * mesh whose morph pairs are named after its morph channels, then sample
 * at several times in a shuffled order, with and without a schedule
 * (plumbob_anim_schedule_build).  Properties: the report adds up,
 * the sizes keep their promises, the sampler gives
 * plumbob_anim_sample_channel's bits, and no NaN or infinity comes out
 * when the keys the bound channels read are finite and moderate (|v| <=
 * 1e6: a key near FLT_MAX can overflow in the Hermite sum; decoders
 * refusing such values is issue 47's "finite numbers only").  Also the
 * sampler's Euler kernel on the input's first bytes read as angles (any
 * float: NaN, infinities, subnormals): the port's bits are the scalar
 * reference's. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "plumbob.h"
#include "kernels.h"

#define MAX_BONES 512u

static int same(float a, float b) {
    uint32_t x, y;
    if (a != a && b != b) return 1;
    memcpy(&x, &a, 4);
    memcpy(&y, &b, 4);
    return x == y;
}

static int finite(float v) {
    return v == v && v <= 3.4e38f && v >= -3.4e38f;
}

/* The keys of component c are finite and moderate, tangents finite. */
static int tame(const plumbob_anim *a, uint32_t c) {
    uint32_t k;
    for (k = 0; k < a->components[c].key_count; k++) {
        plumbob_anim_key key = plumbob_anim_key_at(a, c, k);
        if (!finite(key.value) || key.value > 1e6f || key.value < -1e6f || !finite(key.tangent_in) ||
            !finite(key.tangent_out))
            return 0;
    }
    return 1;
}

/* pb_anim_euler_scalar and the port's twin on up to 21 rotations whose
 * angles are the input's first bytes, into every other pose. */
static void euler_twins(const uint8_t *data, size_t size) {
    static plumbob_bone_pose ps[42], pp[42];
    float angles[63];
    uint32_t slot[21], n = (uint32_t)(size / 12u < 21u ? size / 12u : 21u), i;
    if (!n) return;
    memcpy(angles, data, 12u * n);
    for (i = 0; i < n; i++) slot[i] = 2u * i + (data[0] & 1u);
    memset(ps, 0, sizeof ps);
    memset(pp, 0, sizeof pp);
    pb_anim_euler_scalar(angles, n, slot, &ps[0].rotation.x, 10u);
    PB_ANIM_EULER(angles, n, slot, &pp[0].rotation.x, 10u);
    if (memcmp(ps, pp, sizeof ps) != 0) __builtin_trap();
    for (i = 0; i < n; i++)
        if (!finite(pp[slot[i]].rotation.x) || !finite(pp[slot[i]].rotation.w)) __builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static int32_t parent[MAX_BONES];
    static plumbob_bone_pose rest[MAX_BONES], poses[MAX_BONES];
    static plumbob_string bone_names[MAX_BONES], morph_names[2 * MAX_BONES];
    static float weights[MAX_BONES];
    static const float times[] = {0.0f, 33.3f, 1000.0f, 5.0f, -1.0f, 65535.0f, 0.5f, 20000.0f, 1e30f, -1e30f};
    size_t need;
    unsigned char *mem;
    plumbob_arena arena;
    plumbob_anim an;
    plumbob_cres_skeleton sk;
    plumbob_gmdc mesh;
    plumbob_anim_binding b;
    plumbob_anim_sampler s, ss;
    plumbob_anim_schedule sch;
    plumbob_arena a3;
    unsigned char *sm;
    uint32_t i, nb = 0, nm = 0, t;
    euler_twins(data, size);
    if (plumbob_anim_measure(data, size, &need) != PLUMBOB_OK || need > (16u << 20)) return 0;
    mem = (unsigned char *)malloc(need + 1u);
    plumbob_arena_init(&arena, mem, need + 1u);
    if (plumbob_anim_decode(data, size, &arena, &an) != PLUMBOB_OK) {
        free(mem);
        return 0;
    }
    memset(&sk, 0, sizeof sk);
    memset(&mesh, 0, sizeof mesh);
    for (i = 0; i < an.channel_count; i++) {
        plumbob_string n = an.channels[i].name;
        if (PLUMBOB_ANIM_ATTRIBUTE(an.channels[i].flags) == PLUMBOB_ANIM_ATTR_MORPH) {
            if (nm < MAX_BONES) morph_names[2 * nm + 1] = n, nm++;
            continue;
        }
        if (nb >= MAX_BONES) continue;
        if (i % 3u == 2u && n.len > 4u) n.len -= 4u; /* "x_rot" names "x" */
        bone_names[nb] = n;
        parent[nb] = (int32_t)nb - 1;
        rest[nb].rotation = plumbob_quat_identity();
        rest[nb].translation.x = (float)nb;
        rest[nb].translation.y = rest[nb].translation.z = 0.0f;
        rest[nb].scale.x = rest[nb].scale.y = rest[nb].scale.z = 1.0f;
        nb++;
    }
    sk.skeleton.bone_count = nb;
    sk.skeleton.parent = parent;
    sk.skeleton.rest = rest;
    sk.skeleton.name = bone_names;
    mesh.morph_count = nm;
    mesh.morph_names = morph_names;
    need = plumbob_anim_bind_size(&an);
    if (need != PLUMBOB_ANIM_BIND_SIZE(an.channel_count)) __builtin_trap();
    {
        size_t mark = plumbob_arena_mark(&arena), cap = plumbob_anim_bind_size(&an) +
                                                        PLUMBOB_ANIM_SAMPLER_SIZE(an.channel_count, an.component_count);
        unsigned char *m2 = (unsigned char *)malloc(cap + 1u);
        plumbob_arena a2;
        (void)mark;
        plumbob_arena_init(&a2, m2, cap);
        if (plumbob_anim_bind(&an, &sk, &mesh, &a2, &b) != PLUMBOB_OK) __builtin_trap();
        if (a2.used > need) __builtin_trap();
        if (b.bone_channel_count + b.morph_channel_count + b.unbound_count != an.channel_count ||
            b.unanimated_bone_count > nb)
            __builtin_trap();
        for (i = 0; i < b.unbound_count; i++)
            if (b.unbound_names[i].ptr != an.channels[b.unbound_channels[i]].name.ptr) __builtin_trap();
        need = plumbob_anim_sampler_size(&b);
        if (need > PLUMBOB_ANIM_SAMPLER_SIZE(an.channel_count, an.component_count)) __builtin_trap();
        {
            size_t before = a2.used;
            if (plumbob_anim_sampler_init(&b, &a2, &s) != PLUMBOB_OK || a2.used - before > need) __builtin_trap();
        }
        {
            size_t ns = plumbob_anim_schedule_size(&b);
            if (ns == SIZE_MAX) __builtin_trap();
            sm = (unsigned char *)malloc(ns + need + 1u);
            plumbob_arena_init(&a3, sm, ns + need);
            if (plumbob_anim_schedule_build(&b, &a3, &sch) != PLUMBOB_OK || a3.used > ns ||
                plumbob_anim_sampler_init_scheduled(&sch, &a3, &ss) != PLUMBOB_OK || a3.used > ns + need)
                __builtin_trap();
        }
        for (t = 0; t < 2u * (sizeof times / sizeof times[0] + 2u); t++) {
            uint32_t tt = t % (sizeof times / sizeof times[0] + 2u);
            float at = tt < sizeof times / sizeof times[0] ? times[tt] : (float)(tt * 977u % (an.duration + 1u));
            /* odd steps: the scheduled sampler at the same time (even ones make its time order) */
            plumbob_anim_sampler *sp = t % 2u ? &ss : &s;
            if (t % 2u == 0u && plumbob_anim_sampler_sample(&ss, at * 0.5f, poses, nb, weights, nm) != PLUMBOB_OK)
                __builtin_trap();
            if (plumbob_anim_sampler_sample(sp, at, poses, nb, weights, nm) != PLUMBOB_OK) __builtin_trap();
            for (i = 0; i < an.channel_count; i++) {
                float v[8];
                plumbob_quat q = plumbob_quat_identity();
                const plumbob_anim_channel *c = &an.channels[i];
                uint32_t k, ok = 1, slot = (uint32_t)b.slot[i];
                if (b.status[i] != PLUMBOB_ANIM_CHANNEL_BONE && b.status[i] != PLUMBOB_ANIM_CHANNEL_MORPH) continue;
                plumbob_anim_sample_channel(&an, i, at, v, &q);
                for (k = 0; k < (b.status[i] == PLUMBOB_ANIM_CHANNEL_BONE ? 3u : 1u); k++)
                    ok &= (uint32_t)tame(&an, c->first_component + k);
                if (b.status[i] == PLUMBOB_ANIM_CHANNEL_MORPH) {
                    if (!same(weights[slot], v[0]) || (ok && !finite(weights[slot]))) __builtin_trap();
                } else if (PLUMBOB_ANIM_ATTRIBUTE(c->flags) == PLUMBOB_ANIM_ATTR_ROTATION) {
                    const plumbob_quat *p = &poses[slot].rotation;
                    if (!same(p->x, q.x) || !same(p->y, q.y) || !same(p->z, q.z) || !same(p->w, q.w)) __builtin_trap();
                    if (!finite(p->x) || !finite(p->y) || !finite(p->z) || !finite(p->w)) __builtin_trap();
                } else {
                    const plumbob_vec3 *p = &poses[slot].translation;
                    if (!same(p->x, v[0]) || !same(p->y, v[1]) || !same(p->z, v[2])) __builtin_trap();
                    if (ok && (!finite(p->x) || !finite(p->y) || !finite(p->z))) __builtin_trap();
                }
            }
        }
        if (nb && plumbob_anim_sampler_sample(&s, 1.0f, poses, nb - 1u, NULL, 0) != PLUMBOB_ERR_OUTPUT_TOO_SMALL)
            __builtin_trap();
        free(sm);
        free(m2);
    }
    free(mem);
    return 0;
}
