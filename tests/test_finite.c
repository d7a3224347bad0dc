/* Finite numbers only (issue 47): every decoder refuses an infinite or NaN
 * float where the value is used, with PLUMBOB_ERR_BAD_DATA and the `_ex`
 * location of that float (offset, table, index, "non-finite ...").  Each
 * test pokes NaN, +inf and -inf at every kind of float position of a
 * writer-built resource (and of real ones where the synthetic has none),
 * and checks that every real resource of the corpus still decodes. */
#include <stdlib.h>
#include <string.h>
#include "test.h"

/* quiet NaN, +infinity, -infinity, a NaN with payload and the sign set */
static const uint32_t bad_bits[4] = {0x7FC00000u, 0x7F800000u, 0xFF800000u, 0xFFA00001u};

typedef enum { F_RIG, F_CLIP, F_CRES, F_ANIM, F_GMDC, F_JAZZ } fmt;

typedef union {
    plumbob_rig rig;
    plumbob_clip clip;
    plumbob_cres cres;
    plumbob_anim anim;
    plumbob_gmdc gmdc;
    plumbob_jazz jazz;
} decoded;

static plumbob_result measure_ex(fmt f, const unsigned char *d, size_t n, size_t *need, plumbob_error *err) {
    switch (f) {
    case F_RIG: return plumbob_rig_measure_ex(d, n, need, err);
    case F_CLIP: return plumbob_clip_measure_ex(d, n, need, err);
    case F_CRES: return plumbob_cres_measure_ex(d, n, need, err);
    case F_ANIM: return plumbob_anim_measure_ex(d, n, need, err);
    case F_GMDC: return plumbob_gmdc_measure_ex(d, n, need, err);
    default: return plumbob_jazz_measure_ex(d, n, need, err);
    }
}

static plumbob_result decode_ex(fmt f, const unsigned char *d, size_t n, plumbob_arena *a, decoded *out,
                                plumbob_error *err) {
    switch (f) {
    case F_RIG: return plumbob_rig_decode_ex(d, n, a, &out->rig, err);
    case F_CLIP: return plumbob_clip_decode_ex(d, n, a, &out->clip, err);
    case F_CRES: return plumbob_cres_decode_ex(d, n, a, &out->cres, err);
    case F_ANIM: return plumbob_anim_decode_ex(d, n, a, &out->anim, err);
    case F_GMDC: return plumbob_gmdc_decode_ex(d, n, a, &out->gmdc, err);
    default: return plumbob_jazz_decode_ex(d, n, a, &out->jazz, err);
    }
}

/* Measure, then decode into an arena of the measured size (*mem, malloc'd:
 * the caller frees it); *err holds the failing call's location. */
static plumbob_result decode_any(fmt f, const unsigned char *d, size_t n, decoded *out, unsigned char **mem,
                                 plumbob_error *err) {
    size_t need = 0;
    plumbob_arena a;
    plumbob_result r = measure_ex(f, d, n, &need, err);
    *mem = NULL;
    if (r != PLUMBOB_OK) return r;
    *mem = (unsigned char *)malloc(need ? need : 1);
    if (!*mem) return PLUMBOB_ERR_OUT_OF_MEMORY;
    plumbob_arena_init(&a, *mem, need);
    return decode_ex(f, d, n, &a, out, err);
}

static bool starts_with(const char *s, const char *prefix) {
    size_t i;
    if (!s) return false;
    for (i = 0; prefix[i]; i++)
        if (s[i] != prefix[i]) return false;
    return true;
}

static bool same_text(const char *a, const char *b) {
    size_t i;
    if (!a || !b) return false;
    for (i = 0; a[i] && a[i] == b[i]; i++) {}
    return a[i] == b[i];
}

/* Every bad pattern at d[at..at+4) is refused with BAD_DATA at `at`, table
 * `table`, index `index` (PLUMBOB_ERROR_NO_INDEX: not checked) and a reason
 * "non-finite ...".  d is restored. */
static void poke(fmt f, unsigned char *d, size_t n, size_t at, const char *table, uint32_t index) {
    unsigned char keep[4];
    size_t b;
    CHECK(at + 4 <= n);
    if (at + 4 > n) return;
    memcpy(keep, d + at, 4);
    for (b = 0; b < sizeof bad_bits / sizeof bad_bits[0]; b++) {
        decoded out;
        unsigned char *mem;
        plumbob_error err;
        plumbob_result r;
        d[at] = (unsigned char)(bad_bits[b] & 0xFFu);
        d[at + 1] = (unsigned char)((bad_bits[b] >> 8) & 0xFFu);
        d[at + 2] = (unsigned char)((bad_bits[b] >> 16) & 0xFFu);
        d[at + 3] = (unsigned char)(bad_bits[b] >> 24);
        r = decode_any(f, d, n, &out, &mem, &err);
        CHECK_EQ(r, PLUMBOB_ERR_BAD_DATA);
        CHECK_EQ(err.result, r);
        CHECK_EQ(err.offset, at);
        CHECK(same_text(err.table, table));
        if (index != PLUMBOB_ERROR_NO_INDEX) CHECK_EQ(err.index, index);
        CHECK(starts_with(err.reason, "non-finite "));
        t_digest_u32((uint32_t)r);
        t_digest_u32((uint32_t)err.offset);
        free(mem);
    }
    memcpy(d + at, keep, 4);
}

/* Every non-finite half float (exponent all ones) at d[at..at+2) is
 * refused like poke's floats; d is restored. */
static void poke_half(fmt f, unsigned char *d, size_t n, size_t at, const char *table, uint32_t index) {
    static const uint16_t bad_half[4] = {0x7C00u, 0xFC00u, 0x7E00u, 0x7C01u};
    unsigned char keep[2];
    size_t b;
    CHECK(at + 2 <= n);
    if (at + 2 > n) return;
    memcpy(keep, d + at, 2);
    for (b = 0; b < 4; b++) {
        decoded out;
        unsigned char *mem;
        plumbob_error err;
        plumbob_result r;
        d[at] = (unsigned char)(bad_half[b] & 0xFFu);
        d[at + 1] = (unsigned char)(bad_half[b] >> 8);
        r = decode_any(f, d, n, &out, &mem, &err);
        CHECK_EQ(r, PLUMBOB_ERR_BAD_DATA);
        CHECK_EQ(err.offset, at);
        CHECK(same_text(err.table, table));
        CHECK_EQ(err.index, index);
        CHECK(starts_with(err.reason, "non-finite "));
        t_digest_u32((uint32_t)err.offset);
        free(mem);
    }
    memcpy(d + at, keep, 2);
}

/* The first k-byte match of needle in hay[from..n), or n. */
static size_t find_bytes(const unsigned char *hay, size_t n, size_t from, const void *needle, size_t k) {
    size_t i;
    for (i = from; i + k <= n; i++)
        if (memcmp(hay + i, needle, k) == 0) return i;
    return n;
}

static bool pb_finite_test(float v) {
    union { float f; uint32_t u; } x;
    x.f = v;
    return (x.u & 0x7F800000u) != 0x7F800000u;
}

static void put_f32(unsigned char *p, float v) {
    union { float f; uint32_t u; } x;
    x.f = v;
    p[0] = (unsigned char)(x.u & 0xFFu);
    p[1] = (unsigned char)((x.u >> 8) & 0xFFu);
    p[2] = (unsigned char)((x.u >> 16) & 0xFFu);
    p[3] = (unsigned char)(x.u >> 24);
}

/* The little-endian bytes of n floats, for searching the input. */
static void floats_le(const float *v, size_t n, unsigned char *out) {
    size_t i;
    for (i = 0; i < n; i++) put_f32(out + 4 * i, v[i]);
}

/* --- rigs ---------------------------------------------------------------- */

/* Bone k of t_build_rig's rig starts at 12 + 68 k: 10 floats, an 8-byte
 * name with its length, 4 words. */
#define RIG_BONE_AT(k) (12u + 68u * (k))

void test_finite_rig(void) {
    unsigned char *d = t_scratch();
    size_t n = t_build_rig(d, T_SCRATCH_SIZE, 5), k;
    decoded out;
    unsigned char *mem;
    plumbob_error err;
    CHECK(n > 0);
    CHECK_OK(decode_any(F_RIG, d, n, &out, &mem, &err));
    CHECK_EQ(out.rig.bone_count, 5);
    free(mem);
    for (k = 0; k < 10; k++) { /* position, orientation, scale of bones 0 and 3 */
        unsigned char keep[4];
        poke(F_RIG, d, n, RIG_BONE_AT(0) + 4 * k, "bone", 0);
        poke(F_RIG, d, n, RIG_BONE_AT(3) + 4 * k, "bone", 3);
        memcpy(keep, d + RIG_BONE_AT(3) + 4 * k, 4);
        put_f32(d + RIG_BONE_AT(3) + 4 * k, -3e38f); /* finite, however large: decodes */
        CHECK_OK(decode_any(F_RIG, d, n, &out, &mem, &err));
        free(mem);
        d[RIG_BONE_AT(3) + 4 * k + 3] = 0x7F; /* exponent all ones: +inf or NaN */
        d[RIG_BONE_AT(3) + 4 * k + 2] |= 0x80;
        CHECK_EQ(decode_any(F_RIG, d, n, &out, &mem, &err), PLUMBOB_ERR_BAD_DATA);
        CHECK(same_text(err.reason, k < 3 ? "non-finite position" : k < 7 ? "non-finite orientation"
                                                                           : "non-finite scale"));
        free(mem);
        memcpy(d + RIG_BONE_AT(3) + 4 * k, keep, 4);
    }
}

/* Issue 47's scenario: a rig with a NaN orientation and an infinite
 * position decoded and gave 2,577 non-finite model-matrix values; now it is
 * refused at the first of them. */
void test_finite_rig_issue_scenario(void) {
    unsigned char *d = t_scratch();
    size_t n = t_build_rig(d, T_SCRATCH_SIZE, 40);
    decoded out;
    unsigned char *mem;
    plumbob_error err;
    CHECK(n > 0);
    d[RIG_BONE_AT(7) + 12] = 0x00; /* orientation x: quiet NaN */
    d[RIG_BONE_AT(7) + 13] = 0x00;
    d[RIG_BONE_AT(7) + 14] = 0xC0;
    d[RIG_BONE_AT(7) + 15] = 0x7F;
    d[RIG_BONE_AT(20) + 4] = 0x00; /* position y: +infinity */
    d[RIG_BONE_AT(20) + 5] = 0x00;
    d[RIG_BONE_AT(20) + 6] = 0x80;
    d[RIG_BONE_AT(20) + 7] = 0x7F;
    CHECK_EQ(decode_any(F_RIG, d, n, &out, &mem, &err), PLUMBOB_ERR_BAD_DATA);
    CHECK_EQ(err.offset, RIG_BONE_AT(7) + 12);
    CHECK_EQ(err.index, 7);
    CHECK(same_text(err.reason, "non-finite orientation"));
    free(mem);
    CHECK_EQ(plumbob_rig_measure_ex(d, n, &n, &err), PLUMBOB_ERR_BAD_DATA); /* measure refuses it too */
    t_digest_u32((uint32_t)err.offset);
}

/* --- clips --------------------------------------------------------------- */

void test_finite_clip(void) {
    unsigned char *d = t_scratch();
    size_t n = t_build_clip(d, T_SCRATCH_SIZE), table;
    decoded out;
    unsigned char *mem;
    plumbob_error err;
    uint32_t i, count;
    size_t event_time[PLUMBOB_CLIP_MAX_EVENTS > 64 ? 64 : PLUMBOB_CLIP_MAX_EVENTS];
    uint32_t events;
    CHECK(n > 0);
    CHECK_OK(decode_any(F_CLIP, d, n, &out, &mem, &err));
    table = out.clip.s3clip_pos + (d[out.clip.s3clip_pos + 32] | (size_t)d[out.clip.s3clip_pos + 33] << 8);
    count = out.clip.track_count;
    events = out.clip.events_decoded < 64 ? out.clip.events_decoded : 64;
    /* an event's time is 20 bytes before its name: id, time, 2 floats, a word, the name's length */
    for (i = 0; i < events; i++) event_time[i] = (size_t)((const unsigned char *)out.clip.events[i].name.ptr - d) - 20u;
    free(mem);
    CHECK(count > 0 && events > 0);
    for (i = 0; i < count; i++) {
        poke(F_CLIP, d, n, table + 20u * i + 8u, "track", i);  /* offset */
        poke(F_CLIP, d, n, table + 20u * i + 12u, "track", i); /* scale */
    }
    for (i = 0; i < events; i++) poke(F_CLIP, d, n, event_time[i], "event", i);
    CHECK_OK(decode_any(F_CLIP, d, n, &out, &mem, &err));
    table = out.clip.s3clip_pos + 16u; /* the frame duration */
    free(mem);
    poke(F_CLIP, d, n, table, "s3clip", PLUMBOB_ERROR_NO_INDEX);
}

/* Issue 47's scenario: a clip with an infinite track offset decoded and
 * gave 621 non-finite values after sampling; now it is refused there. */
void test_finite_clip_issue_scenario(void) {
    unsigned char *d = t_scratch();
    size_t n = t_build_clip(d, T_SCRATCH_SIZE), at;
    decoded out;
    unsigned char *mem;
    plumbob_error err;
    CHECK(n > 0);
    CHECK_OK(decode_any(F_CLIP, d, n, &out, &mem, &err));
    at = out.clip.s3clip_pos + (d[out.clip.s3clip_pos + 32] | (size_t)d[out.clip.s3clip_pos + 33] << 8) + 2u * 20u + 8u;
    free(mem);
    d[at] = 0x00;
    d[at + 1] = 0x00;
    d[at + 2] = 0x80;
    d[at + 3] = 0x7F;
    CHECK_EQ(decode_any(F_CLIP, d, n, &out, &mem, &err), PLUMBOB_ERR_BAD_DATA);
    CHECK_EQ(err.offset, at);
    CHECK(same_text(err.table, "track"));
    CHECK_EQ(err.index, 2);
    CHECK(same_text(err.reason, "non-finite track offset"));
    free(mem);
}

/* Palette values (keys of data type 3 index them): a clip with one
 * palette track of two keys over a palette of four floats. */
void test_finite_clip_palette(void) {
    static const float palette[4] = {0.25f, -0.5f, 1.0f, 0.125f};
    unsigned char keys[20], *d = t_scratch();
    plumbob_clip c, back;
    plumbob_clip_track t;
    size_t n = 0, pal;
    unsigned char *mem;
    plumbob_error err;
    decoded out;
    uint32_t k;
    memset(&c, 0, sizeof c);
    memset(&t, 0, sizeof t);
    for (k = 0; k < 2; k++) { /* tick, flags, three palette indices */
        unsigned char *key = keys + 10u * k;
        key[0] = (unsigned char)(4u * k); key[1] = 0; key[2] = 0; key[3] = 0;
        key[4] = (unsigned char)k; key[5] = 0; key[6] = 2; key[7] = 0; key[8] = (unsigned char)(3u - k); key[9] = 0;
    }
    t.hash = 0x57884BB9u;
    t.curve = 0x03;
    t.target = PLUMBOB_CLIP_TARGET_TRANSLATION;
    t.type = (uint16_t)(t.target << 8 | t.curve);
    t.key_count = 2;
    t.key_size = 10;
    t.components = 3;
    t.offset = 0.0f;
    t.scale = 1.0f;
    t.keys = keys;
    c.version = 2;
    c.frame_duration = 1.0f / 30.0f;
    c.tick_count = 5;
    c.name.ptr = "a_palette_x";
    c.name.len = 11;
    c.source.ptr = "a_palette.ma";
    c.source.len = 12;
    c.track_count = 1;
    c.tracks = &t;
    c.palette_count = 4;
    {
        static unsigned char pal_bytes[16];
        floats_le(palette, 4, pal_bytes);
        c.palette = pal_bytes;
    }
    CHECK_OK(plumbob_clip_write(&c, d, T_SCRATCH_SIZE, &n));
    CHECK_OK(decode_any(F_CLIP, d, n, &out, &mem, &err));
    back = out.clip;
    CHECK_EQ(back.palette_count, 4);
    pal = (size_t)(back.palette - d);
    free(mem);
    for (k = 0; k < 4; k++) poke(F_CLIP, d, n, pal + 4u * k, "palette", k);
}

/* The writer's range fit stays finite for finite values of any size, so a
 * track encoded from them decodes (the decoder refuses what is not). */
void test_finite_clip_fit_range_huge(void) {
    static const float sets[3][2] = {{-3e38f, 3e38f}, {3e38f, 3.4e38f}, {-3.4e38f, -1e38f}};
    uint32_t k;
    for (k = 0; k < 3; k++) {
        float off = 0.0f, sc = 0.0f, values[6];
        uint16_t ticks[2] = {0, 4};
        unsigned char keys[16], *d = t_scratch();
        plumbob_clip c;
        plumbob_clip_track t;
        size_t n = 0;
        decoded out;
        unsigned char *mem;
        plumbob_error err;
        plumbob_clip_fit_range(sets[k], 2, 1, &off, &sc);
        CHECK(pb_finite_test(off) && pb_finite_test(sc) && sc > 0.0f);
        t_digest_f32(off);
        t_digest_f32(sc);
        values[0] = values[1] = values[2] = sets[k][0];
        values[3] = values[4] = values[5] = sets[k][1];
        memset(&c, 0, sizeof c);
        memset(&t, 0, sizeof t);
        CHECK_OK(plumbob_clip_encode_track(&t, 0x57884BB9u, 0x12, PLUMBOB_CLIP_TARGET_TRANSLATION, 2, ticks, values, keys));
        c.version = 2;
        c.frame_duration = 1.0f / 30.0f;
        c.tick_count = 5;
        c.name.ptr = "a_huge_x";
        c.name.len = 8;
        c.source.ptr = "a_huge.ma";
        c.source.len = 9;
        c.track_count = 1;
        c.tracks = &t;
        CHECK_OK(plumbob_clip_write(&c, d, T_SCRATCH_SIZE, &n));
        CHECK_OK(decode_any(F_CLIP, d, n, &out, &mem, &err));
        free(mem);
    }
}

/* --- CRES ---------------------------------------------------------------- */

void test_finite_cres(void) {
    unsigned char *d = t_scratch();
    size_t n = t_build_cres(d, T_SCRATCH_SIZE), from = 0;
    decoded out;
    unsigned char *mem;
    plumbob_error err;
    uint32_t i, transforms = 0, bone_data = 0;
    size_t at[64];
    uint32_t block[64], kind[64], found = 0;
    CHECK(n > 0);
    CHECK_OK(decode_any(F_CRES, d, n, &out, &mem, &err));
    /* where each block's floats lie: found in block order after the last */
    for (i = 0; i < out.cres.block_count && found < 64; i++) {
        const plumbob_cres_block *b = &out.cres.blocks[i];
        float v[7];
        unsigned char pat[28];
        size_t k, len;
        if (b->kind == PLUMBOB_CRES_KIND_TRANSFORM || b->kind == PLUMBOB_CRES_KIND_SHAPE_REF) {
            const plumbob_cres_transform *t =
                b->kind == PLUMBOB_CRES_KIND_TRANSFORM ? &b->u.transform : &b->u.shape_ref.transform;
            v[0] = t->translation.x; v[1] = t->translation.y; v[2] = t->translation.z;
            v[3] = t->rotation.x; v[4] = t->rotation.y; v[5] = t->rotation.z; v[6] = t->rotation.w;
            len = 7;
        } else if (b->kind == PLUMBOB_CRES_KIND_BONE_DATA && b->head.version >= 4) {
            v[0] = b->u.bone_data.stretch;
            v[1] = b->u.bone_data.orientation.x; v[2] = b->u.bone_data.orientation.y;
            v[3] = b->u.bone_data.orientation.z; v[4] = b->u.bone_data.orientation.w;
            len = 5;
        } else {
            continue;
        }
        floats_le(v, len, pat);
        k = find_bytes(d, n, from, pat, 4 * len);
        CHECK(k < n);
        if (k >= n) continue;
        at[found] = k;
        block[found] = i;
        kind[found] = b->kind;
        found++;
        from = k + 4 * len;
    }
    free(mem);
    for (i = 0; i < found; i++) {
        uint32_t f, floats = kind[i] == PLUMBOB_CRES_KIND_BONE_DATA ? 5u : 7u;
        for (f = 0; f < floats; f++) poke(F_CRES, d, n, at[i] + 4u * f, "block", block[i]);
        if (floats == 7) transforms++;
        else bone_data++;
    }
    CHECK(transforms > 0);
    t_digest_u32(transforms);
    t_digest_u32(bone_data);
}

/* The skeleton builder refuses a non-finite transform a caller put into a
 * CRES (the decoder never gives one) instead of replacing it, and keeps the
 * direction of a finite rotation whose squared length overflows. */
void test_finite_cres_skeleton_refuses(void) {
    unsigned char *d = t_scratch();
    size_t n = t_build_cres(d, T_SCRATCH_SIZE), need;
    decoded out;
    unsigned char *mem, *smem;
    plumbob_error err;
    plumbob_cres_skeleton sk;
    plumbob_arena a;
    uint32_t i, node = UINT32_MAX;
    plumbob_cres_transform *t = NULL;
    plumbob_quat keep;
    CHECK(n > 0);
    CHECK_OK(decode_any(F_CRES, d, n, &out, &mem, &err));
    for (i = 0; i < out.cres.block_count && node == UINT32_MAX; i++)
        if (out.cres.blocks[i].kind == PLUMBOB_CRES_KIND_TRANSFORM) node = i;
    CHECK(node != UINT32_MAX);
    if (node == UINT32_MAX) {
        free(mem);
        return;
    }
    t = &out.cres.blocks[node].u.transform;
    need = plumbob_cres_skeleton_size(&out.cres);
    smem = (unsigned char *)malloc(need);
    plumbob_arena_init(&a, smem, need);
    CHECK_OK(plumbob_cres_skeleton_build(&out.cres, &a, &sk));
    keep = t->rotation;
    for (i = 0; i < 4; i++) {
        union { float f; uint32_t u; } x;
        x.u = bad_bits[i];
        t->rotation.y = x.f;
        plumbob_arena_init(&a, smem, need);
        CHECK_EQ(plumbob_cres_skeleton_build(&out.cres, &a, &sk), PLUMBOB_ERR_BAD_DATA);
        t->rotation = keep;
        t->translation.z = x.f;
        plumbob_arena_init(&a, smem, need);
        CHECK_EQ(plumbob_cres_skeleton_build(&out.cres, &a, &sk), PLUMBOB_ERR_BAD_DATA);
        t->translation.z = 0.0f;
    }
    /* finite but huge: (3e38, 0, 0, 1e38) is (0.949, 0, 0, 0.316), not the identity */
    t->rotation.x = 3e38f;
    t->rotation.y = 0.0f;
    t->rotation.z = 0.0f;
    t->rotation.w = 1e38f;
    plumbob_arena_init(&a, smem, need);
    CHECK_OK(plumbob_cres_skeleton_build(&out.cres, &a, &sk));
    {
        int32_t bone = sk.bone_of_block[node];
        CHECK(bone >= 0);
        if (bone >= 0) {
            plumbob_quat q = sk.skeleton.rest[bone].rotation;
            CHECK_NEAR(q.x, 0.9486833, 1e-5);
            CHECK_NEAR(q.w, 0.3162278, 1e-5);
            t_digest_f32(q.x);
            t_digest_f32(q.w);
        }
    }
    free(smem);
    free(mem);
}

/* --- ANIM ---------------------------------------------------------------- */

/* f32 key values (baked and timed) and half-float tangents (one or two per
 * key) of every component, at its first and last key. */
void test_finite_anim(void) {
    unsigned char *d = t_scratch();
    size_t n = t_build_anim(d, T_SCRATCH_SIZE);
    decoded out;
    unsigned char *mem;
    plumbob_error err;
    uint32_t c, count, values = 0, tangents = 0;
    struct {
        size_t keys;
        uint32_t key_count, key_size;
        uint8_t packed;
    } comp[32];
    CHECK(n > 0);
    CHECK_OK(decode_any(F_ANIM, d, n, &out, &mem, &err));
    count = out.anim.component_count < 32 ? out.anim.component_count : 32;
    for (c = 0; c < count; c++) {
        const plumbob_anim_component *k = &out.anim.components[c];
        comp[c].keys = (size_t)(k->keys - d);
        comp[c].key_count = k->key_count;
        comp[c].key_size = k->key_size;
        comp[c].packed = k->packed;
    }
    free(mem);
    for (c = 0; c < count; c++) {
        unsigned kind = comp[c].packed & 3u, f32 = (comp[c].packed & PLUMBOB_ANIM_F32) != 0;
        uint32_t k, t;
        for (k = 0; k < comp[c].key_count; k += comp[c].key_count > 1 ? comp[c].key_count - 1u : 1u) {
            size_t key = comp[c].keys + (size_t)k * comp[c].key_size;
            if (f32) {
                poke(F_ANIM, d, n, key + (kind == PLUMBOB_ANIM_BAKED ? 0u : 2u), "component", c);
                values++;
            }
            for (t = 0; kind != PLUMBOB_ANIM_BAKED && t < kind; t++) {
                poke_half(F_ANIM, d, n, key + (f32 ? 6u : 4u) + 2u * t, "component", c);
                tangents++;
            }
        }
    }
    CHECK(values > 0 && tangents > 0);
    t_digest_u32(values);
    t_digest_u32(tangents);
}

/* --- GMDC ---------------------------------------------------------------- */

/* Every float of every element skinning reads (first, middle and last) and
 * of every joint, in versions 1, 2 and 4; a UV-like element is not
 * checked, so nothing else is refused. */
void test_finite_gmdc(void) {
    static const uint32_t versions[3] = {1, 2, 4};
    uint32_t v, checked = 0;
    for (v = 0; v < 3; v++) {
        unsigned char *d = t_scratch();
        size_t n = t_build_gmdc(versions[v], d, T_SCRATCH_SIZE), joints;
        decoded out;
        unsigned char *mem;
        plumbob_error err;
        uint32_t i, count, jc;
        struct {
            size_t at, floats;
            uint32_t identity, format;
        } el[32];
        CHECK(n > 0);
        CHECK_OK(decode_any(F_GMDC, d, n, &out, &mem, &err));
        count = out.gmdc.element_count < 32 ? out.gmdc.element_count : 32;
        for (i = 0; i < count; i++) {
            const plumbob_gmdc_element *e = &out.gmdc.elements[i];
            el[i].at = e->data ? (size_t)(e->data - d) : 0u;
            el[i].floats = e->byte_size / 4u;
            el[i].identity = e->identity;
            el[i].format = e->format;
        }
        jc = out.gmdc.joint_count;
        joints = out.gmdc.joints ? (size_t)(out.gmdc.joints - d) : 0u;
        free(mem);
        for (i = 0; i < count; i++) {
            size_t k;
            if (el[i].format > 2u || el[i].floats == 0) continue;
            CHECK(el[i].identity == PLUMBOB_GMDC_VERTICES || el[i].identity == PLUMBOB_GMDC_NORMALS ||
                  el[i].identity == PLUMBOB_GMDC_BONE_WEIGHTS || el[i].identity == PLUMBOB_GMDC_MORPH_VERTEX_DELTAS);
            for (k = 0; k < el[i].floats; k += el[i].floats > 2 ? el[i].floats / 2u : 1u) {
                poke(F_GMDC, d, n, el[i].at + 4u * k, "element", i);
                checked++;
            }
            poke(F_GMDC, d, n, el[i].at + 4u * (el[i].floats - 1u), "element", i);
        }
        CHECK(jc > 0);
        for (i = 0; i < jc; i++) {
            size_t k;
            for (k = 0; k < 7; k++) poke(F_GMDC, d, n, joints + 28u * i + 4u * k, "joint", i);
            checked++;
        }
    }
    t_digest_u32(checked);
}

/* --- jazz ---------------------------------------------------------------- */

/* The blend-in and blend-out times and the speed of every Play and Stop
 * node, and the weight of every Random branch, each found by its
 * neighbours' bytes, searching on from the last one found (nodes are
 * decoded in chunk order, and chunks lie in that order). */
void test_finite_jazz(void) {
    unsigned char *d = (unsigned char *)malloc(T_SCRATCH_SIZE);
    size_t n, at, from = 0;
    decoded out;
    unsigned char *mem;
    plumbob_error err;
    uint32_t i, b, anims = 0, weights = 0;
    struct {
        size_t at;
        uint32_t chunk, kind;
    } found[64];
    uint32_t nf = 0;
    if (!d) {
        CHECK(d != NULL);
        return;
    }
    n = t_build_jazz(d, T_SCRATCH_SIZE);
    CHECK(n > 0);
    CHECK_OK(decode_any(F_JAZZ, d, n, &out, &mem, &err));
    for (i = 0; i < out.jazz.node_count && nf < 64; i++) {
        const plumbob_jazz_node *node = &out.jazz.nodes[i];
        const plumbob_jazz_anim *a = node->kind == PLUMBOB_JAZZ_PLAY   ? &node->u.play.anim
                                     : node->kind == PLUMBOB_JAZZ_STOP ? &node->u.stop
                                                                       : NULL;
        if (a) { /* flags, priority, then the five floats */
            unsigned char pat[28];
            float v[5];
            v[0] = a->unknown1; v[1] = a->blend_in; v[2] = a->blend_out; v[3] = a->unknown2; v[4] = a->speed;
            pat[0] = (unsigned char)(a->flags & 0xFFu); pat[1] = (unsigned char)((a->flags >> 8) & 0xFFu);
            pat[2] = (unsigned char)((a->flags >> 16) & 0xFFu); pat[3] = (unsigned char)(a->flags >> 24);
            pat[4] = (unsigned char)(a->priority & 0xFFu); pat[5] = (unsigned char)((a->priority >> 8) & 0xFFu);
            pat[6] = (unsigned char)((a->priority >> 16) & 0xFFu); pat[7] = (unsigned char)(a->priority >> 24);
            floats_le(v, 5, pat + 8);
            at = find_bytes(d, n, from, pat, 28);
            CHECK(at < n);
            if (at < n) {
                from = at + 28u;
                found[nf].at = at + 8u;
                found[nf].chunk = node->chunk;
                found[nf].kind = 0;
                nf++;
            }
        }
        for (b = 0; node->kind == PLUMBOB_JAZZ_RANDOM && b < node->branch_count && nf < 64; b++) {
            unsigned char pat[8]; /* the weight, then the child count */
            floats_le(&node->branches[b].weight, 1, pat);
            pat[4] = (unsigned char)(node->branches[b].child_count & 0xFFu);
            pat[5] = (unsigned char)((node->branches[b].child_count >> 8) & 0xFFu);
            pat[6] = (unsigned char)((node->branches[b].child_count >> 16) & 0xFFu);
            pat[7] = (unsigned char)(node->branches[b].child_count >> 24);
            at = find_bytes(d, n, from, pat, 8);
            CHECK(at < n);
            if (at < n) {
                from = at + 8u;
                found[nf].at = at;
                found[nf].chunk = node->chunk;
                found[nf].kind = 1;
                nf++;
            }
        }
    }
    free(mem);
    for (i = 0; i < nf; i++) {
        if (found[i].kind == 0) {
            poke(F_JAZZ, d, n, found[i].at + 4u, "chunk", found[i].chunk);  /* blend in */
            poke(F_JAZZ, d, n, found[i].at + 8u, "chunk", found[i].chunk);  /* blend out */
            poke(F_JAZZ, d, n, found[i].at + 16u, "chunk", found[i].chunk); /* speed */
            anims++;
        } else {
            poke(F_JAZZ, d, n, found[i].at, "chunk", found[i].chunk);
            weights++;
        }
    }
    CHECK(anims > 0 && weights > 0);
    t_digest_u32(anims);
    t_digest_u32(weights);
    free(d);
}

/* --- the corpus ------------------------------------------------------------ */

/* Every real resource of the six formats still decodes (the finite rule
 * refuses nothing the games shipped), and what it decodes to is finite. */
void test_finite_corpus_decodes(void) {
    static const char *pkgs[] = {"sims2/animation.package",     "sims2/teapot_model.package",
                                 "sims3/EWBreastfeed.package",  "sims3/EWWheatAndFlour.package",
                                 "sims3/PetFightingSkill.package", "sims3/WarriorCats.package"};
    static const struct {
        uint32_t type;
        fmt f;
    } kinds[] = {{PLUMBOB_TYPE_RIG, F_RIG},   {PLUMBOB_TYPE_CLIP, F_CLIP}, {PLUMBOB_TYPE_CRES, F_CRES},
                 {PLUMBOB_TYPE_ANIM, F_ANIM}, {PLUMBOB_TYPE_GMDC, F_GMDC}, {PLUMBOB_TYPE_JAZZ, F_JAZZ}};
    uint32_t seen[6] = {0, 0, 0, 0, 0, 0};
    size_t p, k;
    for (p = 0; p < sizeof pkgs / sizeof pkgs[0]; p++) {
        size_t size;
        unsigned char *data = t_corpus_load(pkgs[p], &size);
        plumbob_package pkg;
        uint32_t e;
        if (!data) T_SKIP(t_corpus_missing());
        CHECK_OK(plumbob_package_open(&pkg, data, size));
        for (e = 0; e < pkg.count; e++) {
            plumbob_package_entry ent;
            const unsigned char *res;
            unsigned char *raw, *mem;
            size_t rs;
            decoded out;
            plumbob_error err;
            plumbob_result r;
            CHECK_OK(plumbob_package_entry_at(&pkg, e, &ent));
            for (k = 0; k < 6 && kinds[k].type != ent.type; k++) {}
            if (k == 6) continue;
            raw = (unsigned char *)malloc(ent.mem_size ? ent.mem_size : 1);
            CHECK_OK(plumbob_package_read(&pkg, &ent, raw, ent.mem_size, &res, &rs));
            r = decode_any(kinds[k].f, res, rs, &out, &mem, &err);
            if (kinds[k].f == F_RIG && r == PLUMBOB_ERR_UNSUPPORTED) r = PLUMBOB_OK; /* Granny 2 */
            CHECK_OK(r);
            if (r != PLUMBOB_OK) t_fail(__FILE__, __LINE__, err.reason ? err.reason : "?");
            seen[k]++;
            free(mem);
            free(raw);
        }
        free(data);
    }
    for (k = 0; k < 6; k++) {
        CHECK(seen[k] > 0);
        t_digest_u32(seen[k]);
    }
}
