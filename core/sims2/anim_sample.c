/* Sims 2 ANIM keys and sampling: fixed-point values, half-float tangents,
 * Hermite curves, Euler angles to quaternions.  Units are in
 * docs/FORMATS.md; keys were validated by the decoder. */
#include "plumbob/sims2.h"
#include "pb_bytes.h"
#include "pb_math.h"
#include "pb_anim.h"
#include "pb_curve.h"

/* Tangents are IEEE half floats holding the value change per 150 ticks
 * (inferred from the three real animations; see docs/FORMATS.md). */
#define TANGENT_TICKS 150.0f

static float half_to_float(uint16_t h) {
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16, exp = (h >> 10) & 0x1Fu, mant = h & 0x3FFu;
    if (exp == 0x1Fu) return pb_f32_from_bits(sign | 0x7F800000u | (mant << 13)); /* inf, NaN */
    if (exp == 0) { /* zero or subnormal: mant * 2^-24 */
        float v = (float)mant * (1.0f / 16777216.0f);
        return sign ? -v : v;
    }
    return pb_f32_from_bits(sign | ((exp + 112u) << 23) | (mant << 13));
}

/* Fixed point: bits 2-3 choose 8.7 / 5.10 / 3.12 for baked values (16
 * bits) and 9.7 / 5.11 / 3.13 for timed ones (17 bits, the low one
 * borrowed from the time word's top bit). */
static const float baked_scale[4] = {1.0f / 128.0f, 1.0f / 1024.0f, 0.0f, 1.0f / 4096.0f};
static const float timed_scale[4] = {1.0f / 128.0f, 1.0f / 2048.0f, 0.0f, 1.0f / 8192.0f};


static float channel_duration(const plumbob_anim *a, const plumbob_anim_component *c) {
    return (float)PLUMBOB_ANIM_DURATION(a->channels[c->channel].flags);
}

plumbob_anim_key plumbob_anim_key_at(const plumbob_anim *a, uint32_t ci, uint32_t k) {
    plumbob_anim_key key = {0.0f, 0.0f, 0.0f, 0.0f};
    const plumbob_anim_component *c;
    const unsigned char *p;
    unsigned kind, fmt;
    if (!a || ci >= a->component_count || k >= a->components[ci].key_count) return key;
    c = &a->components[ci];
    p = c->keys + (size_t)k * c->key_size;
    kind = c->packed & 3u;
    fmt = (c->packed >> 2) & 3u;
    if (kind == PLUMBOB_ANIM_BAKED) {
        key.value = (c->packed & PLUMBOB_ANIM_F32) ? pb_f32le(p) : (float)(int16_t)pb_le16(p) * baked_scale[fmt];
        key.time = c->key_count > 1 ? channel_duration(a, c) * (float)k / (float)(c->key_count - 1u) : 0.0f;
        return key;
    }
    key.time = (float)pb_anim_key_time(c, k);
    if (c->packed & PLUMBOB_ANIM_F32) {
        key.value = pb_f32le(p + 2);
        p += 6;
    } else {
        int32_t v = (int32_t)(int16_t)pb_le16(p + 2) * 2 + (int32_t)(p[1] >> 7); /* low bit: time's bit 15 */
        key.value = (float)v * timed_scale[fmt];
        p += 4;
    }
    key.tangent_in = half_to_float(pb_le16(p)) * (1.0f / TANGENT_TICKS);
    key.tangent_out = kind == PLUMBOB_ANIM_DISCONTINUOUS ? half_to_float(pb_le16(p + 2)) * (1.0f / TANGENT_TICKS)
                                                          : key.tangent_in;
    return key;
}

/* b - a wrapped into [-180, 180] degrees (values from the file are finite
 * and small: fixed point, or f32 that we clamp the loop count of). */
static float angle_delta(float a, float b) {
    float d = b - a;
    int guard = 0;
    if (!(d == d) || d > 1e6f || d < -1e6f) return d;
    while (d > 180.0f && guard++ < 4096) d -= 360.0f;
    while (d < -180.0f && guard++ < 4096) d += 360.0f;
    return d;
}

float plumbob_anim_sample_component(const plumbob_anim *a, uint32_t ci, float ticks) {
    const plumbob_anim_component *c;
    plumbob_anim_key k0, k1;
    uint32_t lo, hi;
    int angular;
    float dt, u, v1;
    if (!a || ci >= a->component_count || a->components[ci].key_count == 0) return 0.0f;
    c = &a->components[ci];
    angular = PLUMBOB_ANIM_ATTRIBUTE(a->channels[c->channel].flags) == PLUMBOB_ANIM_ATTR_ROTATION;
    if (!(ticks == ticks)) ticks = 0.0f; /* NaN plays the first key */
    if ((c->packed & 3u) == PLUMBOB_ANIM_BAKED) {
        float d = channel_duration(a, c), pos;
        if (c->key_count == 1 || d <= 0.0f || ticks <= 0.0f) return plumbob_anim_key_at(a, ci, 0).value;
        pos = ticks / d * (float)(c->key_count - 1u);
        if (pos >= (float)(c->key_count - 1u)) return plumbob_anim_key_at(a, ci, c->key_count - 1u).value;
        lo = (uint32_t)pos;
        k0 = plumbob_anim_key_at(a, ci, lo);
        k1 = plumbob_anim_key_at(a, ci, lo + 1u);
        u = pos - (float)lo;
        v1 = angular ? k0.value + angle_delta(k0.value, k1.value) : k1.value;
        return k0.value + (v1 - k0.value) * u;
    }
    /* last key at or before ticks (binary search on the time words only),
     * then Hermite to the next */
    lo = 0;
    hi = c->key_count;
    while (hi - lo > 1u) {
        uint32_t mid = lo + (hi - lo) / 2u;
        if ((float)pb_anim_key_time(c, mid) <= ticks) lo = mid; else hi = mid;
    }
    k0 = plumbob_anim_key_at(a, ci, lo);
    if (lo + 1u >= c->key_count || ticks <= k0.time) return k0.value;
    k1 = plumbob_anim_key_at(a, ci, lo + 1u);
    dt = k1.time - k0.time;
    if (dt <= 0.0f) return k1.value;
    u = (ticks - k0.time) * (1.0f / dt); /* the sampler keeps 1 / dt per pair */
    if (u > 1.0f) u = 1.0f;
    v1 = angular ? k0.value + angle_delta(k0.value, k1.value) : k1.value;
    {
        float cf[4];
        pb_hermite_cubic(k0.value, k0.tangent_out, v1, k1.tangent_in, dt, cf);
        return pb_cubic_at(cf[0], cf[1], cf[2], cf[3], u);
    }
}

plumbob_quat plumbob_anim_euler_to_quat(float xd, float yd, float zd) {
    float sx, cx, sy, cy, sz, cz;
    plumbob_quat q;
    pb_half_angle_sin_cos(xd, &sx, &cx);
    pb_half_angle_sin_cos(yd, &sy, &cy);
    pb_half_angle_sin_cos(zd, &sz, &cz);
    /* q = qz * qy * qx: X is applied first */
    q.w = cz * cy * cx + sz * sy * sx;
    q.x = cz * cy * sx - sz * sy * cx;
    q.y = cz * sy * cx + sz * cy * sx;
    q.z = sz * cy * cx - cz * sy * sx;
    return plumbob_quat_normalize(q);
}

uint32_t plumbob_anim_sample_channel(const plumbob_anim *a, uint32_t ch, float ticks, float out[8],
                                     plumbob_quat *rotation) {
    const plumbob_anim_channel *c;
    uint32_t n, i;
    if (!a || !out || ch >= a->channel_count) return 0;
    c = &a->channels[ch];
    n = PLUMBOB_ANIM_COMPONENTS(c->flags);
    for (i = 0; i < n; i++) out[i] = plumbob_anim_sample_component(a, c->first_component + i, ticks);
    if (rotation && PLUMBOB_ANIM_ATTRIBUTE(c->flags) == PLUMBOB_ANIM_ATTR_ROTATION && n == 3)
        *rotation = plumbob_anim_euler_to_quat(out[0], out[1], out[2]);
    return n;
}
