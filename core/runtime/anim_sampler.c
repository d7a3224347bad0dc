/* The ANIM sampler: a bound ANIM played frame by frame.  Each animated
 * component keeps the pair of keys around the last time it was asked for,
 * decoded, so a frame evaluates each curve with the arithmetic of
 * plumbob_anim_sample_component (sims2/anim_sample.c) and the same bits,
 * without its binary search and key decoding.  Constant components, and
 * rotations whose three angles are constant, are computed at init.  The
 * angles of the rotations that move are the first values, as rows (every
 * X, every Y, every Z), so the port's Euler kernel reads them as the
 * curves left them. */
#include "plumbob/runtime.h"
#include "kernels.h"
#include "pb_bytes.h"
#include "pb_curve.h"
#include "pb_math.h"

/* One animated component (2 keys or more).  Timed keys: the pair
 * (key, key + 1) with k0t the first's time, t_hi the second's (the span is
 * [k0t, t_hi); key 0 also holds every earlier time and the last key every
 * later one), inv_dt 1 / the gap, c the pair's Hermite cubic in u (c[0] the
 * first's value; FLAT pairs: c[0] the first's value, c[1] the second's),
 * k1v / k1m the second key's stored value and out tangent (the next pair's
 * first key).  Baked keys: k0t the duration, t_hi the key count - 1, c[0] /
 * c[1] the pair at `key`, c[2] / c[3] the first and last key values. */
typedef struct anim_curve {
    float k0t, t_hi, inv_dt, c[4];
    float k1v, k1m;
    uint32_t component;
    uint32_t value;           /* where its value goes in sampler->values */
    uint16_t key;
    uint8_t flags;
    uint8_t reserved;
} anim_curve;

#define ANIM_CURVE_BAKED 1u
#define ANIM_CURVE_ANGULAR 2u
#define ANIM_CURVE_LOADED 4u       /* the pair at `key` is decoded (baked: the end values) */
#define ANIM_CURVE_FLAT 8u         /* the pair's keys share a time */
#define ANIM_CURVE_LAST 16u        /* timed: `key` is the last key (no pair: it holds) */

/* One bound channel, except the rotations whose angles move (those are
 * rotation_slots and the first values). */
typedef struct anim_output {
    plumbob_quat q;           /* constant rotations: the quaternion */
    uint32_t slot;            /* bone or morph pair */
    uint32_t value;           /* its first component's value index */
    uint8_t kind;
    uint8_t reserved[3];
} anim_output;

enum { ANIM_OUT_ROTATION_CONSTANT, ANIM_OUT_TRANSLATION, ANIM_OUT_MORPH };

/* The sizes plumbob/runtime.h promises. */
typedef char anim_curve_bytes_checked[sizeof(anim_curve) <= PLUMBOB_ANIM_SAMPLER_CURVE_BYTES ? 1 : -1];
typedef char anim_output_bytes_checked[sizeof(anim_output) <= PLUMBOB_ANIM_SAMPLER_OUTPUT_BYTES ? 1 : -1];
/* The Euler kernel writes a bone's rotation 10 floats after the last one's. */
typedef char anim_pose_floats_checked[sizeof(plumbob_bone_pose) == 10u * sizeof(float) ? 1 : -1];

/* Components of a bound channel the sampler reads: 3 for bones, 1 for morphs. */
static uint32_t anim_used_components(const plumbob_anim_binding *b, uint32_t ch) {
    if (b->status[ch] == PLUMBOB_ANIM_CHANNEL_BONE) return 3u;
    return b->status[ch] == PLUMBOB_ANIM_CHANNEL_MORPH ? 1u : 0u;
}

/* The binding fits its ANIM and skeleton (it may be caller-filled). */
static bool anim_binding_ok(const plumbob_anim_binding *b) {
    uint32_t ch, k;
    if (!b || !b->anim || !b->skeleton || b->channel_count != b->anim->channel_count || !b->slot || !b->status ||
        b->bone_count != b->skeleton->skeleton.bone_count || (b->bone_count && !b->skeleton->skeleton.rest))
        return false;
    for (ch = 0; ch < b->channel_count; ch++) {
        const plumbob_anim_channel *c = &b->anim->channels[ch];
        uint32_t n = anim_used_components(b, ch);
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
static bool anim_moves(const plumbob_anim *a, uint32_t c, uint32_t flags) {
    const plumbob_anim_component *k = &a->components[c];
    if (k->key_count < 2u) return false;
    return (k->packed & 3u) != PLUMBOB_ANIM_BAKED || PLUMBOB_ANIM_DURATION(flags) > 0u;
}

/* What a binding's sampler holds: animated components, outputs (moving
 * rotations apart), values, and rotations whose angles move. */
typedef struct anim_counts {
    uint32_t curves, outputs, values, rotations;
} anim_counts;

/* Whether channel ch (u components used) is a rotation with a moving angle;
 * adds its moving components to *curves. */
static bool anim_channel_moves(const plumbob_anim_binding *b, uint32_t ch, uint32_t u, uint32_t *curves) {
    const plumbob_anim_channel *c = &b->anim->channels[ch];
    uint32_t k, moving = 0;
    for (k = 0; k < u; k++) moving += anim_moves(b->anim, c->first_component + k, c->flags);
    *curves += moving;
    return moving && PLUMBOB_ANIM_ATTRIBUTE(c->flags) == PLUMBOB_ANIM_ATTR_ROTATION;
}

static anim_counts anim_count(const plumbob_anim_binding *b) {
    anim_counts n = {0, 0, 0, 0};
    uint32_t ch;
    for (ch = 0; ch < b->channel_count; ch++) {
        uint32_t u = anim_used_components(b, ch);
        if (!u) continue;
        n.values += u;
        if (anim_channel_moves(b, ch, u, &n.curves)) n.rotations++; else n.outputs++;
    }
    return n;
}

/* Within PLUMBOB_ANIM_SAMPLER_SIZE: a moving rotation's 4 slot bytes (and
 * their padding, below 8) replace its 28 output bytes. */
size_t plumbob_anim_sampler_size(const plumbob_anim_binding *binding) {
    anim_counts c;
    size_t n = 0;
    if (!anim_binding_ok(binding)) return SIZE_MAX;
    c = anim_count(binding);
    if (!plumbob_size_add(&n, plumbob_arena_need(c.curves, sizeof(anim_curve))) ||
        !plumbob_size_add(&n, plumbob_arena_need(c.outputs, sizeof(anim_output))) ||
        !plumbob_size_add(&n, plumbob_arena_need(c.values, sizeof(float))) ||
        (c.rotations && !plumbob_size_add(&n, plumbob_arena_need(c.rotations, sizeof(uint32_t)))))
        return SIZE_MAX;
    return n;
}

plumbob_result plumbob_anim_sampler_init(const plumbob_anim_binding *binding, plumbob_arena *arena,
                                         plumbob_anim_sampler *sampler) {
    const plumbob_anim *a;
    anim_counts n;
    uint32_t ch, curves = 0, outputs = 0, values, rotations = 0;
    anim_curve *cv;
    anim_output *out;
    uint32_t *slots = NULL;
    size_t mark;
    if (!anim_binding_ok(binding) || !arena || !sampler) return PLUMBOB_ERR_INVALID_ARGUMENT;
    a = binding->anim;
    n = anim_count(binding);
    mark = plumbob_arena_mark(arena);
    cv = (anim_curve *)plumbob_arena_alloc_array(arena, n.curves, sizeof(anim_curve), 0);
    out = (anim_output *)plumbob_arena_alloc_array(arena, n.outputs, sizeof(anim_output), 0);
    sampler->values = (float *)plumbob_arena_alloc_array(arena, n.values, sizeof(float), 0);
    if (n.rotations) slots = (uint32_t *)plumbob_arena_alloc_array(arena, n.rotations, sizeof(uint32_t), 0);
    if (!cv || !out || !sampler->values || (n.rotations && !slots)) {
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
    sampler->rotation_slots = slots;
    sampler->rotation_count = n.rotations;
    values = 3u * n.rotations; /* the other channels' values follow the angle rows */
    for (ch = 0; ch < binding->channel_count; ch++) {
        const plumbob_anim_channel *c = &a->channels[ch];
        uint32_t k, u = anim_used_components(binding, ch), ignored = 0, first, step = 1;
        anim_output *o = NULL;
        if (!u) continue;
        if (anim_channel_moves(binding, ch, u, &ignored)) { /* its angles in the rows */
            first = rotations;
            step = n.rotations;
            slots[rotations++] = (uint32_t)binding->slot[ch];
        } else {
            o = &out[outputs++];
            o->slot = (uint32_t)binding->slot[ch];
            o->value = first = values;
            o->reserved[0] = o->reserved[1] = o->reserved[2] = 0;
            values += u;
        }
        for (k = 0; k < u; k++) {
            uint32_t ci = c->first_component + k, vi = first + k * step;
            sampler->values[vi] = plumbob_anim_sample_component(a, ci, 0.0f); /* constants keep it */
            if (!anim_moves(a, ci, c->flags)) continue;
            cv[curves].component = ci;
            cv[curves].value = vi;
            cv[curves].key = 0;
            cv[curves].flags = (uint8_t)(((a->components[ci].packed & 3u) == PLUMBOB_ANIM_BAKED ? ANIM_CURVE_BAKED : 0u) |
                                         (PLUMBOB_ANIM_ATTRIBUTE(c->flags) == PLUMBOB_ANIM_ATTR_ROTATION ? ANIM_CURVE_ANGULAR : 0u));
            cv[curves].reserved = 0;
            cv[curves].k0t = cv[curves].t_hi = cv[curves].inv_dt = cv[curves].k1v = cv[curves].k1m = 0.0f;
            cv[curves].c[0] = cv[curves].c[1] = cv[curves].c[2] = cv[curves].c[3] = 0.0f;
            curves++;
        }
        if (!o) continue;
        if (PLUMBOB_ANIM_ATTRIBUTE(c->flags) == PLUMBOB_ANIM_ATTR_ROTATION) {
            o->kind = ANIM_OUT_ROTATION_CONSTANT;
            o->q = plumbob_anim_euler_to_quat(sampler->values[o->value], sampler->values[o->value + 1u],
                                              sampler->values[o->value + 2u]);
        } else {
            o->kind = (uint8_t)(u == 3u ? ANIM_OUT_TRANSLATION : ANIM_OUT_MORPH);
            o->q = plumbob_quat_identity();
        }
    }
    sampler->curve_count = curves;
    sampler->output_count = outputs;
    return PLUMBOB_OK;
}

/* b - a wrapped into [-180, 180] degrees: sims2/anim_sample.c's
 * angle_delta, which this must match bit for bit. */
static float anim_angle_delta(float a, float b) {
    float d = b - a;
    int guard = 0;
    if (!(d == d) || d > 1e6f || d < -1e6f) return d;
    while (d > 180.0f && guard++ < 4096) d -= 360.0f;
    while (d < -180.0f && guard++ < 4096) d += 360.0f;
    return d;
}

/* The time word of key k of a timed component, as the decoder reads it
 * (sims2/pb_anim.h's pb_anim_key_time: bit 15 belongs to a fixed-point
 * value), as plumbob_anim_key_at's time. */
static float anim_key_time(const plumbob_anim_component *c, uint32_t k) {
    uint32_t t = pb_le16(c->keys + (size_t)k * c->key_size);
    return (float)((c->packed & PLUMBOB_ANIM_F32) ? t : t & 0x7FFFu);
}

/* Key k of a timed component, decoded as plumbob_anim_key_at decodes it
 * (sims2/anim_sample.c: the same operations, so the same bits), without
 * its index checks and kind dispatch: the pair loads of forward playback. */
static float anim_half(uint16_t h) {
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16, exp = (h >> 10) & 0x1Fu, mant = h & 0x3FFu;
    if (exp == 0x1Fu) return pb_f32_from_bits(sign | 0x7F800000u | (mant << 13));
    if (exp == 0) {
        float v = (float)mant * (1.0f / 16777216.0f);
        return sign ? -v : v;
    }
    return pb_f32_from_bits(sign | ((exp + 112u) << 23) | (mant << 13));
}

static plumbob_anim_key anim_timed_key(const plumbob_anim_component *c, uint32_t k) {
    static const float timed_scale[4] = {1.0f / 128.0f, 1.0f / 2048.0f, 0.0f, 1.0f / 8192.0f};
    const unsigned char *p = c->keys + (size_t)k * c->key_size;
    plumbob_anim_key key;
    uint32_t t = pb_le16(p);
    key.time = (float)((c->packed & PLUMBOB_ANIM_F32) ? t : t & 0x7FFFu);
    if (c->packed & PLUMBOB_ANIM_F32) {
        key.value = pb_f32le(p + 2);
        p += 6;
    } else {
        int32_t v = (int32_t)(int16_t)pb_le16(p + 2) * 2 + (int32_t)(p[1] >> 7);
        key.value = (float)v * timed_scale[(c->packed >> 2) & 3u];
        p += 4;
    }
    key.tangent_in = anim_half(pb_le16(p)) * (1.0f / 150.0f);
    key.tangent_out = (c->packed & 3u) == PLUMBOB_ANIM_DISCONTINUOUS ? anim_half(pb_le16(p + 2)) * (1.0f / 150.0f)
                                                                      : key.tangent_in;
    return key;
}

/* Makes (k, k + 1) the pair of a timed curve (k + 1 may be past the end),
 * given key k decoded: its cubic made once, as the reference makes it. */
static void anim_set_pair(const plumbob_anim *a, anim_curve *c, uint32_t k, float k0time, float k0value, float k0out) {
    uint32_t count = a->components[c->component].key_count;
    c->key = (uint16_t)k;
    c->k0t = k0time;
    c->c[0] = k0value;
    c->flags = (uint8_t)((c->flags & ~(ANIM_CURVE_FLAT | ANIM_CURVE_LAST)) | ANIM_CURVE_LOADED |
                         (k + 1u < count ? 0u : ANIM_CURVE_LAST));
    if (k + 1u < count) {
        plumbob_anim_key k1 = anim_timed_key(&a->components[c->component], k + 1u);
        float dt = k1.time - k0time;
        c->t_hi = k1.time;
        c->k1v = k1.value;
        c->k1m = k1.tangent_out;
        if (dt <= 0.0f) { /* two keys at one time: the reference gives the second's value */
            c->c[1] = k1.value;
            c->flags = (uint8_t)(c->flags | ANIM_CURVE_FLAT);
        } else {
            float v1 = (c->flags & ANIM_CURVE_ANGULAR) ? k0value + anim_angle_delta(k0value, k1.value) : k1.value;
            c->inv_dt = 1.0f / dt;
            pb_hermite_cubic(k0value, k0out, v1, k1.tangent_in, dt, c->c);
        }
    }
}

static void anim_load_timed(const plumbob_anim *a, anim_curve *c, uint32_t k) {
    plumbob_anim_key k0 = plumbob_anim_key_at(a, c->component, k);
    anim_set_pair(a, c, k, k0.time, k0.value, k0.tangent_out);
}

/* A timed curve at ticks (not NaN): the pair whose span holds ticks (the
 * one the reference's search finds), then its cubic. */
static float anim_timed_value(const plumbob_anim *a, anim_curve *c, float ticks) {
    uint32_t k = c->key;
    unsigned f = c->flags;
    float u;
    /* the loaded pair's span holds ticks: the common case, without reading the component */
    if (!((f & ANIM_CURVE_LOADED) && (k == 0u || c->k0t <= ticks) && ((f & ANIM_CURVE_LAST) || ticks < c->t_hi))) {
        const plumbob_anim_component *comp = &a->components[c->component];
        uint32_t last = comp->key_count - 1u;
        if ((f & ANIM_CURVE_LOADED) && k < last && ticks >= c->t_hi &&
            (k + 1u == last || ticks < anim_key_time(comp, k + 2u))) {
            k++; /* forward playback: the next pair starts with the old second key */
            anim_set_pair(a, c, k, c->t_hi, c->k1v, c->k1m);
        } else { /* the reference's search: the last key at or before ticks, else the first */
            uint32_t lo = 0, hi = last + 1u;
            while (hi - lo > 1u) {
                uint32_t mid = lo + (hi - lo) / 2u;
                if (anim_key_time(comp, mid) <= ticks) lo = mid; else hi = mid;
            }
            k = lo;
            anim_load_timed(a, c, k);
        }
        f = c->flags;
    }
    if ((f & ANIM_CURVE_LAST) || ticks <= c->k0t) return c->c[0];
    if (f & ANIM_CURVE_FLAT) return c->c[1];
    u = (ticks - c->k0t) * c->inv_dt;
    if (u > 1.0f) u = 1.0f;
    return pb_cubic_at(c->c[0], c->c[1], c->c[2], c->c[3], u);
}

/* A baked curve at ticks (not NaN): keys evenly spaced over the duration
 * k0t, t_hi + 1 of them; linear between them, as the reference. */
static float anim_baked_value(const plumbob_anim *a, anim_curve *c, float ticks) {
    float pos, u;
    uint32_t lo;
    if (!(c->flags & ANIM_CURVE_LOADED)) {
        uint32_t count = a->components[c->component].key_count;
        c->k0t = (float)PLUMBOB_ANIM_DURATION(a->channels[a->components[c->component].channel].flags);
        c->t_hi = (float)(count - 1u);
        c->c[2] = plumbob_anim_key_at(a, c->component, 0).value;
        c->c[3] = plumbob_anim_key_at(a, c->component, count - 1u).value;
        c->key = UINT16_MAX; /* no pair yet */
        c->flags = (uint8_t)(c->flags | ANIM_CURVE_LOADED);
    }
    if (ticks <= 0.0f) return c->c[2];
    pos = ticks / c->k0t * c->t_hi;
    if (pos >= c->t_hi) return c->c[3];
    lo = (uint32_t)pos;
    if (lo != c->key) {
        plumbob_anim_key k0 = plumbob_anim_key_at(a, c->component, lo), k1 = plumbob_anim_key_at(a, c->component, lo + 1u);
        c->key = (uint16_t)lo;
        c->c[0] = k0.value;
        c->c[1] = (c->flags & ANIM_CURVE_ANGULAR) ? k0.value + anim_angle_delta(k0.value, k1.value) : k1.value;
    }
    u = pos - (float)lo;
    return c->c[0] + (c->c[1] - c->c[0]) * u;
}

plumbob_result plumbob_anim_sampler_sample(plumbob_anim_sampler *sampler, float ticks, plumbob_bone_pose *poses,
                                           uint32_t pose_count, float *morph_weights, uint32_t morph_count) {
    const plumbob_anim *a;
    anim_curve *cv;
    const anim_output *out;
    float *v;
    uint32_t i;
    if (!sampler || !sampler->anim || !sampler->values || (sampler->curve_count && !sampler->curves) ||
        (sampler->output_count && !sampler->outputs) || (sampler->bone_count && !sampler->rest) ||
        (sampler->rotation_count && !sampler->rotation_slots))
        return PLUMBOB_ERR_INVALID_ARGUMENT;
    if ((poses && pose_count < sampler->bone_count) || (morph_weights && morph_count < sampler->morph_count))
        return PLUMBOB_ERR_OUTPUT_TOO_SMALL;
    a = sampler->anim;
    cv = (anim_curve *)sampler->curves;
    out = (const anim_output *)sampler->outputs;
    v = sampler->values;
    if (!(ticks == ticks)) ticks = 0.0f; /* NaN plays the first key */
    for (i = 0; i < sampler->curve_count; i++)
        v[cv[i].value] = (cv[i].flags & ANIM_CURVE_BAKED) ? anim_baked_value(a, &cv[i], ticks) : anim_timed_value(a, &cv[i], ticks);
    if (poses)
        for (i = 0; i < sampler->bone_count; i++) poses[i] = sampler->rest[i];
    if (poses && sampler->rotation_count) /* the moving rotations, in the port's lanes */
        PB_ANIM_EULER(v, sampler->rotation_count, sampler->rotation_slots, &poses[0].rotation.x, 10u);
    for (i = 0; i < sampler->output_count; i++) {
        const anim_output *o = &out[i];
        const float *x = v + o->value;
        switch (o->kind) {
        case ANIM_OUT_ROTATION_CONSTANT:
            if (poses) poses[o->slot].rotation = o->q;
            break;
        case ANIM_OUT_TRANSLATION:
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
