/* The ANIM sampler: a bound ANIM played frame by frame.  Each animated
 * component keeps the pair of keys around the last time it was asked for,
 * decoded, so a frame evaluates each curve with the arithmetic of
 * plumbob_anim_sample_component (sims2/anim_sample.c) and the same bits,
 * without its binary search and key decoding.  Constant components, and
 * rotations whose three angles are constant, are computed at init. */
#include "plumbob/runtime.h"

/* One animated component (2 keys or more).  Timed keys: the pair
 * (key, key + 1) with k0t the first's time, t_hi the second's (the span is
 * [k0t, t_hi); key 0 also holds every earlier time and the last key every
 * later one), v0 / m0 the first's value and out tangent, v1 / m1 the
 * second's value (unwrapped for angles) and in tangent, dt the gap.
 * Baked keys: k0t the duration, t_hi the key count - 1, v0 / v1 the pair
 * at `key`, m0 / m1 the first and last key values. */
typedef struct curve {
    float k0t, t_hi, v0, m0, v1, m1, dt;
    uint32_t component;
    uint32_t value;           /* where its value goes in sampler->values */
    uint16_t key;
    uint8_t flags;
    uint8_t reserved;
} curve;

#define CURVE_BAKED 1u
#define CURVE_ANGULAR 2u
#define CURVE_LOADED 4u       /* the pair at `key` is decoded (baked: the end values) */
#define CURVE_FLAT 8u         /* the pair's keys share a time */

/* One bound channel. */
typedef struct output {
    plumbob_quat q;           /* constant rotations: the quaternion */
    uint32_t slot;            /* bone or morph pair */
    uint32_t value;           /* its first component's value index */
    uint8_t kind;
    uint8_t reserved[3];
} output;

enum { OUT_ROTATION, OUT_ROTATION_CONSTANT, OUT_TRANSLATION, OUT_MORPH };

/* The sizes plumbob/runtime.h promises. */
typedef char curve_bytes_checked[sizeof(curve) <= PLUMBOB_ANIM_SAMPLER_CURVE_BYTES ? 1 : -1];
typedef char output_bytes_checked[sizeof(output) <= PLUMBOB_ANIM_SAMPLER_OUTPUT_BYTES ? 1 : -1];

/* Components of a bound channel the sampler reads: 3 for bones, 1 for morphs. */
static uint32_t used_components(const plumbob_anim_binding *b, uint32_t ch) {
    if (b->status[ch] == PLUMBOB_ANIM_CHANNEL_BONE) return 3u;
    return b->status[ch] == PLUMBOB_ANIM_CHANNEL_MORPH ? 1u : 0u;
}

/* The binding fits its ANIM and skeleton (it may be caller-filled). */
static bool binding_ok(const plumbob_anim_binding *b) {
    uint32_t ch, k;
    if (!b || !b->anim || !b->skeleton || b->channel_count != b->anim->channel_count || !b->slot || !b->status ||
        b->bone_count != b->skeleton->skeleton.bone_count || (b->bone_count && !b->skeleton->skeleton.rest))
        return false;
    for (ch = 0; ch < b->channel_count; ch++) {
        const plumbob_anim_channel *c = &b->anim->channels[ch];
        uint32_t n = used_components(b, ch);
        if (!n) continue;
        if (b->slot[ch] < 0 || (uint32_t)b->slot[ch] >= (n == 3u ? b->bone_count : b->morph_count) ||
            PLUMBOB_ANIM_COMPONENTS(c->flags) < n || c->first_component > b->anim->component_count ||
            n > b->anim->component_count - c->first_component)
            return false;
        if (n == 3u && PLUMBOB_ANIM_ATTRIBUTE(c->flags) > PLUMBOB_ANIM_ATTR_TRANSLATION) return false;
        for (k = 0; k < n; k++) /* curves read their channel through the component, as the reference */
            if (b->anim->components[c->first_component + k].channel != ch) return false;
    }
    return true;
}

/* Whether component c moves: 2 keys or more (baked ones also need a duration). */
static bool moves(const plumbob_anim *a, uint32_t c, uint32_t flags) {
    const plumbob_anim_component *k = &a->components[c];
    if (k->key_count < 2u) return false;
    return (k->packed & 3u) != PLUMBOB_ANIM_BAKED || PLUMBOB_ANIM_DURATION(flags) > 0u;
}

size_t plumbob_anim_sampler_size(const plumbob_anim_binding *binding) {
    uint32_t ch, curves = 0, outputs = 0, values = 0;
    size_t n = 0;
    if (!binding_ok(binding)) return SIZE_MAX;
    for (ch = 0; ch < binding->channel_count; ch++) {
        uint32_t k, u = used_components(binding, ch);
        const plumbob_anim_channel *c = &binding->anim->channels[ch];
        if (!u) continue;
        outputs++;
        values += u;
        for (k = 0; k < u; k++) curves += moves(binding->anim, c->first_component + k, c->flags);
    }
    if (!plumbob_size_add(&n, plumbob_arena_need(curves, sizeof(curve))) ||
        !plumbob_size_add(&n, plumbob_arena_need(outputs, sizeof(output))) ||
        !plumbob_size_add(&n, plumbob_arena_need(values, sizeof(float))))
        return SIZE_MAX;
    return n;
}

plumbob_result plumbob_anim_sampler_init(const plumbob_anim_binding *binding, plumbob_arena *arena,
                                         plumbob_anim_sampler *sampler) {
    const plumbob_anim *a;
    uint32_t ch, curves = 0, outputs = 0, values = 0;
    curve *cv;
    output *out;
    size_t mark;
    if (!binding_ok(binding) || !arena || !sampler) return PLUMBOB_ERR_INVALID_ARGUMENT;
    a = binding->anim;
    for (ch = 0; ch < binding->channel_count; ch++) {
        uint32_t k, u = used_components(binding, ch);
        if (!u) continue;
        outputs++;
        values += u;
        for (k = 0; k < u; k++) curves += moves(a, a->channels[ch].first_component + k, a->channels[ch].flags);
    }
    mark = plumbob_arena_mark(arena);
    cv = (curve *)plumbob_arena_alloc_array(arena, curves, sizeof(curve), 0);
    out = (output *)plumbob_arena_alloc_array(arena, outputs, sizeof(output), 0);
    sampler->values = (float *)plumbob_arena_alloc_array(arena, values, sizeof(float), 0);
    if (!cv || !out || !sampler->values) {
        plumbob_arena_reset(arena, mark);
        return PLUMBOB_ERR_OUT_OF_MEMORY;
    }
    sampler->binding = binding;
    sampler->anim = a;
    sampler->rest = binding->skeleton->skeleton.rest;
    sampler->curves = cv;
    sampler->outputs = out;
    sampler->bone_count = binding->bone_count;
    sampler->morph_count = binding->morph_count;
    curves = outputs = values = 0;
    for (ch = 0; ch < binding->channel_count; ch++) {
        const plumbob_anim_channel *c = &a->channels[ch];
        uint32_t k, u = used_components(binding, ch), moving = 0;
        output *o;
        if (!u) continue;
        o = &out[outputs++];
        o->slot = (uint32_t)binding->slot[ch];
        o->value = values;
        o->reserved[0] = o->reserved[1] = o->reserved[2] = 0;
        for (k = 0; k < u; k++, values++) {
            uint32_t ci = c->first_component + k;
            sampler->values[values] = plumbob_anim_sample_component(a, ci, 0.0f); /* constants keep it */
            if (!moves(a, ci, c->flags)) continue;
            moving++;
            cv[curves].component = ci;
            cv[curves].value = values;
            cv[curves].key = 0;
            cv[curves].flags = (uint8_t)(((a->components[ci].packed & 3u) == PLUMBOB_ANIM_BAKED ? CURVE_BAKED : 0u) |
                                         (PLUMBOB_ANIM_ATTRIBUTE(c->flags) == PLUMBOB_ANIM_ATTR_ROTATION ? CURVE_ANGULAR : 0u));
            cv[curves].reserved = 0;
            cv[curves].k0t = cv[curves].t_hi = cv[curves].v0 = cv[curves].m0 = 0.0f;
            cv[curves].v1 = cv[curves].m1 = cv[curves].dt = 0.0f;
            curves++;
        }
        if (PLUMBOB_ANIM_ATTRIBUTE(c->flags) == PLUMBOB_ANIM_ATTR_ROTATION) {
            o->kind = (uint8_t)(moving ? OUT_ROTATION : OUT_ROTATION_CONSTANT);
            o->q = plumbob_anim_euler_to_quat(sampler->values[o->value], sampler->values[o->value + 1u],
                                              sampler->values[o->value + 2u]);
        } else {
            o->kind = (uint8_t)(u == 3u ? OUT_TRANSLATION : OUT_MORPH);
            o->q = plumbob_quat_identity();
        }
    }
    sampler->curve_count = curves;
    sampler->output_count = outputs;
    return PLUMBOB_OK;
}

/* b - a wrapped into [-180, 180] degrees: sims2/anim_sample.c's
 * angle_delta, which this must match bit for bit. */
static float angle_delta(float a, float b) {
    float d = b - a;
    int guard = 0;
    if (!(d == d) || d > 1e6f || d < -1e6f) return d;
    while (d > 180.0f && guard++ < 4096) d -= 360.0f;
    while (d < -180.0f && guard++ < 4096) d += 360.0f;
    return d;
}

/* Decodes the pair (k, k + 1) of a timed curve (k + 1 may be past the end). */
static void load_timed(const plumbob_anim *a, curve *c, uint32_t k) {
    uint32_t count = a->components[c->component].key_count;
    plumbob_anim_key k0 = plumbob_anim_key_at(a, c->component, k);
    c->key = (uint16_t)k;
    c->k0t = k0.time;
    c->v0 = k0.value;
    c->m0 = k0.tangent_out;
    c->flags = (uint8_t)((c->flags & ~CURVE_FLAT) | CURVE_LOADED);
    if (k + 1u < count) {
        plumbob_anim_key k1 = plumbob_anim_key_at(a, c->component, k + 1u);
        c->t_hi = k1.time;
        c->dt = k1.time - k0.time;
        c->m1 = k1.tangent_in;
        if (c->dt <= 0.0f) { /* two keys at one time: the reference gives the second's value */
            c->v1 = k1.value;
            c->flags = (uint8_t)(c->flags | CURVE_FLAT);
        } else {
            c->v1 = (c->flags & CURVE_ANGULAR) ? k0.value + angle_delta(k0.value, k1.value) : k1.value;
        }
    }
}

/* A timed curve at ticks (not NaN): the pair whose span holds ticks (the
 * one the reference's search finds), then the reference's Hermite. */
static float timed_value(const plumbob_anim *a, curve *c, float ticks) {
    uint32_t last = a->components[c->component].key_count - 1u, k = c->key;
    float dt, u;
    if (!((c->flags & CURVE_LOADED) && (k == 0u || c->k0t <= ticks) && (k == last || ticks < c->t_hi))) {
        if ((c->flags & CURVE_LOADED) && k < last && ticks >= c->t_hi &&
            (k + 1u == last || ticks < plumbob_anim_key_at(a, c->component, k + 2u).time)) {
            k++; /* forward playback: the next pair */
        } else { /* the reference's search: the last key at or before ticks, else the first */
            uint32_t lo = 0, hi = last + 1u;
            while (hi - lo > 1u) {
                uint32_t mid = lo + (hi - lo) / 2u;
                if (plumbob_anim_key_at(a, c->component, mid).time <= ticks) lo = mid; else hi = mid;
            }
            k = lo;
        }
        load_timed(a, c, k);
    }
    if (k == last || ticks <= c->k0t) return c->v0;
    if (c->flags & CURVE_FLAT) return c->v1;
    dt = c->dt;
    u = (ticks - c->k0t) / dt;
    if (u > 1.0f) u = 1.0f;
    {
        float u2 = u * u, u3 = u2 * u;
        float h00 = 2.0f * u3 - 3.0f * u2 + 1.0f, h10 = u3 - 2.0f * u2 + u;
        float h01 = 3.0f * u2 - 2.0f * u3, h11 = u3 - u2;
        return h00 * c->v0 + h10 * dt * c->m0 + h01 * c->v1 + h11 * dt * c->m1;
    }
}

/* A baked curve at ticks (not NaN): keys evenly spaced over the duration
 * k0t, t_hi + 1 of them; linear between them, as the reference. */
static float baked_value(const plumbob_anim *a, curve *c, float ticks) {
    float pos, u;
    uint32_t lo;
    if (!(c->flags & CURVE_LOADED)) {
        uint32_t count = a->components[c->component].key_count;
        c->k0t = (float)PLUMBOB_ANIM_DURATION(a->channels[a->components[c->component].channel].flags);
        c->t_hi = (float)(count - 1u);
        c->m0 = plumbob_anim_key_at(a, c->component, 0).value;
        c->m1 = plumbob_anim_key_at(a, c->component, count - 1u).value;
        c->key = UINT16_MAX; /* no pair yet */
        c->flags = (uint8_t)(c->flags | CURVE_LOADED);
    }
    if (ticks <= 0.0f) return c->m0;
    pos = ticks / c->k0t * c->t_hi;
    if (pos >= c->t_hi) return c->m1;
    lo = (uint32_t)pos;
    if (lo != c->key) {
        plumbob_anim_key k0 = plumbob_anim_key_at(a, c->component, lo), k1 = plumbob_anim_key_at(a, c->component, lo + 1u);
        c->key = (uint16_t)lo;
        c->v0 = k0.value;
        c->v1 = (c->flags & CURVE_ANGULAR) ? k0.value + angle_delta(k0.value, k1.value) : k1.value;
    }
    u = pos - (float)lo;
    return c->v0 + (c->v1 - c->v0) * u;
}

plumbob_result plumbob_anim_sampler_sample(plumbob_anim_sampler *sampler, float ticks, plumbob_bone_pose *poses,
                                           uint32_t pose_count, float *morph_weights, uint32_t morph_count) {
    const plumbob_anim *a;
    curve *cv;
    const output *out;
    float *v;
    uint32_t i;
    if (!sampler || !sampler->anim || !sampler->values || (sampler->curve_count && !sampler->curves) ||
        (sampler->output_count && !sampler->outputs) || (sampler->bone_count && !sampler->rest))
        return PLUMBOB_ERR_INVALID_ARGUMENT;
    if ((poses && pose_count < sampler->bone_count) || (morph_weights && morph_count < sampler->morph_count))
        return PLUMBOB_ERR_OUTPUT_TOO_SMALL;
    a = sampler->anim;
    cv = (curve *)sampler->curves;
    out = (const output *)sampler->outputs;
    v = sampler->values;
    if (!(ticks == ticks)) ticks = 0.0f; /* NaN plays the first key */
    for (i = 0; i < sampler->curve_count; i++)
        v[cv[i].value] = (cv[i].flags & CURVE_BAKED) ? baked_value(a, &cv[i], ticks) : timed_value(a, &cv[i], ticks);
    if (poses)
        for (i = 0; i < sampler->bone_count; i++) poses[i] = sampler->rest[i];
    for (i = 0; i < sampler->output_count; i++) {
        const output *o = &out[i];
        const float *x = v + o->value;
        switch (o->kind) {
        case OUT_ROTATION:
            if (poses) poses[o->slot].rotation = plumbob_anim_euler_to_quat(x[0], x[1], x[2]);
            break;
        case OUT_ROTATION_CONSTANT:
            if (poses) poses[o->slot].rotation = o->q;
            break;
        case OUT_TRANSLATION:
            if (poses) {
                poses[o->slot].translation.x = x[0];
                poses[o->slot].translation.y = x[1];
                poses[o->slot].translation.z = x[2];
            }
            break;
        default:
            if (morph_weights) morph_weights[o->slot] = x[0];
            break;
        }
    }
    return PLUMBOB_OK;
}
