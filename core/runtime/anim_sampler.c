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

/* A scheduled sampler's lanes: its values rounded up to 4, each with 6
 * floats of pair (t0, 1 / dt, the cubic) and a value. */
#define ANIM_LANE_FLOATS 6u
#define ANIM_LANE_BYTES ((ANIM_LANE_FLOATS + 1u) * sizeof(float))
typedef char anim_lane_bytes_checked[ANIM_LANE_BYTES <= PLUMBOB_ANIM_SAMPLER_LANE_BYTES ? 1 : -1];

static uint32_t anim_lane_count(uint32_t values) {
    return (values + 3u) & ~3u;
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
        (c.rotations && !plumbob_size_add(&n, plumbob_arena_need(c.rotations, sizeof(uint32_t)))) ||
        !plumbob_size_add(&n, plumbob_arena_need(anim_lane_count(c.values), ANIM_LANE_BYTES)))
        return SIZE_MAX;
    return n;
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

/* Whether a scheduled sampler plays component c from the schedule: timed,
 * 2 keys or more, key times never going back. */
static bool anim_scheduled(const plumbob_anim *a, uint32_t c, uint32_t flags) {
    const plumbob_anim_component *k = &a->components[c];
    uint32_t i;
    if (!anim_moves(a, c, flags) || (k->packed & 3u) == PLUMBOB_ANIM_BAKED) return false;
    for (i = 1; i < k->key_count; i++)
        if (anim_key_time(k, i) < anim_key_time(k, i - 1u)) return false;
    return true;
}

/* The lanes' rows: t0 (values at or before it hold c0), 1 / dt, c0..c3. */
enum { LANE_T0, LANE_INV, LANE_C0, LANE_C1, LANE_C2, LANE_C3 };

/* Lane i holds v at every time. */
static void anim_lane_hold(float *lane, uint32_t lanes, uint32_t i, float v) {
    lane[LANE_T0 * lanes + i] = pb_f32_from_bits(0x7F800000u);
    lane[LANE_INV * lanes + i] = 0.0f;
    lane[LANE_C0 * lanes + i] = v;
    lane[LANE_C1 * lanes + i] = lane[LANE_C2 * lanes + i] = lane[LANE_C3 * lanes + i] = 0.0f;
}

/* One schedule record: from tick `at` on, lane `lane` plays this pair. */
typedef struct anim_record {
    float at;
    uint32_t lane;
    float t0, inv_dt, c[4];
} anim_record;

/* The record of component ci's pair (k, k + 1), or of its last key k (a
 * hold), made as anim_set_pair makes the pair: the same bits.  Returns
 * false for a pair whose keys share a time (no record: the next key's
 * starts then). */
static bool anim_pair_record(const plumbob_anim *a, uint32_t ci, bool angular, uint32_t k, anim_record *r) {
    const plumbob_anim_component *comp = &a->components[ci];
    plumbob_anim_key k0 = anim_timed_key(comp, k), k1;
    float dt;
    r->at = k0.time;
    r->c[1] = r->c[2] = r->c[3] = 0.0f;
    if (k + 1u >= comp->key_count) { /* the last key holds */
        r->t0 = pb_f32_from_bits(0x7F800000u);
        r->inv_dt = 0.0f;
        r->c[0] = k0.value;
        return true;
    }
    k1 = anim_timed_key(comp, k + 1u);
    dt = k1.time - k0.time;
    if (dt <= 0.0f) return false;
    r->t0 = k0.time;
    r->inv_dt = 1.0f / dt;
    pb_hermite_cubic(k0.value, k0.tangent_out, angular ? k0.value + anim_angle_delta(k0.value, k1.value) : k1.value,
                     k1.tangent_in, dt, r->c);
    return true;
}

PB_FORCE_INLINE void anim_lane_set(float *lane, uint32_t lanes, uint32_t i, const anim_record *r) {
    lane[LANE_T0 * lanes + i] = r->t0;
    lane[LANE_INV * lanes + i] = r->inv_dt;
    lane[LANE_C0 * lanes + i] = r->c[0];
    lane[LANE_C1 * lanes + i] = r->c[1];
    lane[LANE_C2 * lanes + i] = r->c[2];
    lane[LANE_C3 * lanes + i] = r->c[3];
}

static plumbob_result anim_init(const plumbob_anim_binding *binding, const plumbob_anim_schedule *sch,
                                plumbob_arena *arena, plumbob_anim_sampler *sampler) {
    const plumbob_anim *a;
    anim_counts n;
    uint32_t ch, curves = 0, outputs = 0, values, rotations = 0, lanes, i;
    anim_curve *cv;
    anim_output *out;
    uint32_t *slots = NULL;
    float *lane = NULL;
    size_t mark;
    if (!anim_binding_ok(binding) || !arena || !sampler) return PLUMBOB_ERR_INVALID_ARGUMENT;
    a = binding->anim;
    n = anim_count(binding);
    lanes = sch ? anim_lane_count(n.values) : 0u;
    if (sch && (sch->lane_count != lanes || (lanes && (!sch->lane_component || !sch->start_lanes)) ||
                (sch->record_count && !sch->records)))
        return PLUMBOB_ERR_INVALID_ARGUMENT;
    mark = plumbob_arena_mark(arena);
    cv = (anim_curve *)plumbob_arena_alloc_array(arena, n.curves, sizeof(anim_curve), 0);
    out = (anim_output *)plumbob_arena_alloc_array(arena, n.outputs, sizeof(anim_output), 0);
    sampler->values = (float *)plumbob_arena_alloc_array(arena, sch ? lanes : n.values, sizeof(float), 0);
    if (n.rotations) slots = (uint32_t *)plumbob_arena_alloc_array(arena, n.rotations, sizeof(uint32_t), 0);
    if (sch) lane = (float *)plumbob_arena_alloc_array(arena, (size_t)lanes * ANIM_LANE_FLOATS, sizeof(float), 0);
    if (!cv || !out || !sampler->values || (n.rotations && !slots) || (sch && lanes && !lane)) {
        plumbob_arena_reset(arena, mark);
        return PLUMBOB_ERR_OUT_OF_MEMORY;
    }
    for (i = n.values; i < lanes; i++) sampler->values[i] = 0.0f;
    sampler->schedule = sch;
    sampler->lanes = lane;
    sampler->lane_count = lanes;
    sampler->cursor = 0;
    sampler->played = pb_f32_from_bits(0xFF800000u); /* -inf: every lane before its first key */
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
            if (sch && sch->lane_component[vi] != UINT32_MAX) {
                if (sch->lane_component[vi] != ci || !anim_scheduled(a, ci, c->flags)) break; /* another binding's */
                continue;
            }
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
        if (k < u) {
            plumbob_arena_reset(arena, mark);
            return PLUMBOB_ERR_INVALID_ARGUMENT;
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
    for (i = 0; i < lanes; i++)
        if (i >= n.values && sch->lane_component[i] != UINT32_MAX) {
            plumbob_arena_reset(arena, mark); /* a schedule made for another binding */
            return PLUMBOB_ERR_INVALID_ARGUMENT;
        }
    for (i = 0; i < lanes * ANIM_LANE_FLOATS; i++) lane[i] = sch->start_lanes[i]; /* the time before any key */
    return PLUMBOB_OK;
}

plumbob_result plumbob_anim_sampler_init(const plumbob_anim_binding *binding, plumbob_arena *arena,
                                         plumbob_anim_sampler *sampler) {
    return anim_init(binding, NULL, arena, sampler);
}

plumbob_result plumbob_anim_sampler_init_scheduled(const plumbob_anim_schedule *schedule, plumbob_arena *arena,
                                                   plumbob_anim_sampler *sampler) {
    if (!schedule) return PLUMBOB_ERR_INVALID_ARGUMENT;
    return anim_init(schedule->binding, schedule, arena, sampler);
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

/* --- the schedule ------------------------------------------------------ */

/* Component ci's records (its pairs with a gap, and its last key) and its
 * last key's tick. */
static uint32_t anim_record_count(const plumbob_anim *a, uint32_t ci, uint32_t *last_tick) {
    const plumbob_anim_component *c = &a->components[ci];
    uint32_t k, n = 1;
    for (k = 0; k + 1u < c->key_count; k++) n += anim_key_time(c, k + 1u) > anim_key_time(c, k);
    *last_tick = (uint32_t)anim_key_time(c, c->key_count - 1u);
    return n;
}

/* Records and the largest tick of a binding's scheduled components. */
static bool anim_schedule_count(const plumbob_anim_binding *b, uint32_t *records, uint32_t *last_tick) {
    uint32_t ch, k;
    *records = *last_tick = 0;
    for (ch = 0; ch < b->channel_count; ch++) {
        const plumbob_anim_channel *c = &b->anim->channels[ch];
        uint32_t u = anim_used_components(b, ch);
        for (k = 0; k < u; k++) {
            uint32_t ci = c->first_component + k, t, n;
            if (!anim_scheduled(b->anim, ci, c->flags)) continue;
            n = anim_record_count(b->anim, ci, &t);
            if (n > UINT32_MAX - *records) return false;
            *records += n;
            if (t > *last_tick) *last_tick = t;
        }
    }
    return true;
}

size_t plumbob_anim_schedule_size(const plumbob_anim_binding *binding) {
    uint32_t records, last_tick;
    size_t n = 0;
    if (!anim_binding_ok(binding) || !anim_schedule_count(binding, &records, &last_tick)) return SIZE_MAX;
    if (!plumbob_size_add(&n, plumbob_arena_need(anim_lane_count(anim_count(binding).values), sizeof(uint32_t))) ||
        !plumbob_size_add(&n, plumbob_arena_need((size_t)anim_lane_count(anim_count(binding).values) * ANIM_LANE_FLOATS,
                                                 sizeof(float))) ||
        !plumbob_size_add(&n, plumbob_arena_need(records, sizeof(anim_record))) ||
        !plumbob_size_add(&n, plumbob_arena_need((size_t)last_tick + 1u, sizeof(uint32_t))))
        return SIZE_MAX;
    return n;
}

plumbob_result plumbob_anim_schedule_build(const plumbob_anim_binding *binding, plumbob_arena *arena,
                                           plumbob_anim_schedule *schedule) {
    const plumbob_anim *a;
    anim_counts n;
    uint32_t records, last_tick, lanes, *comp, *start, ch, k, i, sum = 0, values, rotations = 0;
    anim_record *rec;
    float *image;
    size_t first, mark;
    if (!anim_binding_ok(binding) || !arena || !schedule || !anim_schedule_count(binding, &records, &last_tick))
        return PLUMBOB_ERR_INVALID_ARGUMENT;
    a = binding->anim;
    n = anim_count(binding);
    lanes = anim_lane_count(n.values);
    first = plumbob_arena_mark(arena);
    comp = (uint32_t *)plumbob_arena_alloc_array(arena, lanes, sizeof(uint32_t), 0);
    rec = (anim_record *)plumbob_arena_alloc_array(arena, records, sizeof(anim_record), 0);
    image = (float *)plumbob_arena_alloc_array(arena, (size_t)lanes * ANIM_LANE_FLOATS, sizeof(float), 0);
    mark = plumbob_arena_mark(arena);
    start = (uint32_t *)plumbob_arena_alloc_array(arena, (size_t)last_tick + 1u, sizeof(uint32_t), 0);
    if ((lanes && (!comp || !image)) || (records && !rec) || !start) {
        plumbob_arena_reset(arena, first);
        return PLUMBOB_ERR_OUT_OF_MEMORY;
    }
    /* each value's component, where plumbob_anim_sampler_init puts it, and
     * the lanes before any key: scheduled curves hold their first key,
     * the others their value at init (baked ones are overwritten) */
    for (i = 0; i < lanes; i++) {
        comp[i] = UINT32_MAX;
        anim_lane_hold(image, lanes, i, 0.0f);
    }
    values = 3u * n.rotations;
    for (ch = 0; ch < binding->channel_count; ch++) {
        const plumbob_anim_channel *c = &a->channels[ch];
        uint32_t u = anim_used_components(binding, ch), ignored = 0, first_value, step = 1;
        if (!u) continue;
        if (anim_channel_moves(binding, ch, u, &ignored)) {
            first_value = rotations++;
            step = n.rotations;
        } else {
            first_value = values;
            values += u;
        }
        for (k = 0; k < u; k++) {
            uint32_t ci = c->first_component + k, vi = first_value + k * step;
            if (anim_scheduled(a, ci, c->flags)) {
                comp[vi] = ci;
                anim_lane_hold(image, lanes, vi, anim_timed_key(&a->components[ci], 0).value);
            } else {
                anim_lane_hold(image, lanes, vi, plumbob_anim_sample_component(a, ci, 0.0f));
            }
        }
    }
    /* a counting sort on the start tick; within a tick, lane then key order */
    for (i = 0; i <= last_tick; i++) start[i] = 0;
    for (i = 0; i < lanes; i++) {
        anim_record r;
        bool angular;
        if (comp[i] == UINT32_MAX) continue;
        angular = PLUMBOB_ANIM_ATTRIBUTE(a->channels[a->components[comp[i]].channel].flags) == PLUMBOB_ANIM_ATTR_ROTATION;
        for (k = 0; k < a->components[comp[i]].key_count; k++)
            if (anim_pair_record(a, comp[i], angular, k, &r)) start[(uint32_t)r.at]++;
    }
    for (i = 0; i <= last_tick; i++) {
        uint32_t c = start[i];
        start[i] = sum;
        sum += c;
    }
    for (i = 0; i < lanes; i++) {
        anim_record r;
        bool angular;
        if (comp[i] == UINT32_MAX) continue;
        angular = PLUMBOB_ANIM_ATTRIBUTE(a->channels[a->components[comp[i]].channel].flags) == PLUMBOB_ANIM_ATTR_ROTATION;
        for (k = 0; k < a->components[comp[i]].key_count; k++)
            if (anim_pair_record(a, comp[i], angular, k, &r)) {
                r.lane = i;
                rec[start[(uint32_t)r.at]++] = r;
            }
    }
    plumbob_arena_reset(arena, mark); /* the tick table was temporary */
    schedule->binding = binding;
    schedule->lane_component = comp;
    schedule->lane_count = lanes;
    schedule->records = rec;
    schedule->record_count = records;
    schedule->start_lanes = image;
    return PLUMBOB_OK;
}

/* A scheduled sampler at a time before the last one played: with few
 * records up to ticks, back to the start (anim_lanes replays them);
 * else every scheduled lane gets the pair the reference's search finds
 * (or holds its first key before it), and the cursor the first record
 * after ticks. */
static void anim_seek(plumbob_anim_sampler *s, float ticks) {
    const plumbob_anim_schedule *sch = s->schedule;
    const plumbob_anim *a = s->anim;
    const anim_record *rec = (const anim_record *)sch->records;
    uint32_t i, lo = 0, hi = sch->record_count;
    while (lo < hi) { /* the first record after ticks */
        uint32_t mid = lo + (hi - lo) / 2u;
        if (rec[mid].at <= ticks) lo = mid + 1u; else hi = mid;
    }
    if (lo / 8u <= s->lane_count) { /* few records to replay (a loop's restart): from the start */
        for (i = 0; i < s->lane_count * ANIM_LANE_FLOATS; i++) s->lanes[i] = sch->start_lanes[i];
        s->cursor = 0;
        return;
    }
    s->cursor = lo;
    for (i = 0; i < s->lane_count; i++) {
        uint32_t ci = sch->lane_component[i];
        const plumbob_anim_component *comp;
        anim_record r;
        if (ci == UINT32_MAX) continue;
        comp = &a->components[ci];
        lo = 0;
        hi = comp->key_count;
        while (hi - lo > 1u) {
            uint32_t mid = lo + (hi - lo) / 2u;
            if (anim_key_time(comp, mid) <= ticks) lo = mid; else hi = mid;
        }
        if (anim_key_time(comp, lo) <= ticks &&
            anim_pair_record(a, ci, PLUMBOB_ANIM_ATTRIBUTE(a->channels[comp->channel].flags) == PLUMBOB_ANIM_ATTR_ROTATION,
                             lo, &r))
            anim_lane_set(s->lanes, s->lane_count, i, &r);
        else
            anim_lane_hold(s->lanes, s->lane_count, i, anim_timed_key(comp, 0).value);
    }
}

/* The scheduled lanes at ticks: forward, the records that start by then
 * copied in; then every lane's value in the port's lanes, as the
 * reference computes it (at or before t0 the hold value c0, else the cubic
 * at u = (ticks - t0) / dt, at most 1). */
static void anim_lanes(plumbob_anim_sampler *s, float ticks) {
    const anim_record *rec = (const anim_record *)s->schedule->records;
    uint32_t n = s->schedule->record_count, lanes = s->lane_count, i;
    float *l = s->lanes, *v = s->values;
    if (ticks < s->played || s->cursor > n) anim_seek(s, ticks);
    for (i = s->cursor; i < n && rec[i].at <= ticks; i++)
        if (rec[i].lane < lanes) anim_lane_set(l, lanes, rec[i].lane, &rec[i]);
    s->cursor = i;
    s->played = ticks;
    PB_ANIM_CURVES(l, lanes, ticks, v);
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
        (sampler->rotation_count && !sampler->rotation_slots) ||
        (sampler->schedule && (!sampler->lanes || !sampler->schedule->lane_component ||
                               sampler->lane_count != sampler->schedule->lane_count)))
        return PLUMBOB_ERR_INVALID_ARGUMENT;
    if ((poses && pose_count < sampler->bone_count) || (morph_weights && morph_count < sampler->morph_count))
        return PLUMBOB_ERR_OUTPUT_TOO_SMALL;
    a = sampler->anim;
    cv = (anim_curve *)sampler->curves;
    out = (const anim_output *)sampler->outputs;
    v = sampler->values;
    if (!(ticks == ticks)) ticks = 0.0f; /* NaN plays the first key */
    if (sampler->schedule) anim_lanes(sampler, ticks);
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
