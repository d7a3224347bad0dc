/* Sims 3 rigs (0x8EAF13DE), plain format versions 3 and 4: decoding,
 * validation and the parent-before-child skeleton view.  One walk over the
 * resource serves the measure call (counting) and the decode (storing);
 * names stay in the caller's buffer.  Granny 2 rigs are recognised by
 * their wrapper id or file signature and refused. */
#include "plumbob/sims3.h"
#include "pb_bytes.h"
#include "pb_error.h"
#include "pb_finite.h"

/* Smallest bone record: 10 floats, an empty name's length, 4 words. */
#define BONE_MIN 60u
/* Smallest IK chain record (version 4): length, 11 info nodes, 4 indices. */
#define CHAIN_MIN 64u

/* Granny 2: the wrapper (the resource type, then 0) and the first four
 * bytes of the little-endian file signatures (32-bit format 6 and 7,
 * 64-bit format 7). */
static bool is_granny(const unsigned char *p, size_t n) {
    static const unsigned char sig[3][4] = {
        {0xB8, 0x67, 0xB0, 0xCA}, {0x29, 0xDE, 0x6C, 0xC0}, {0xE5, 0x9B, 0x49, 0x5E}};
    unsigned k;
    if (n >= 8 && pb_le32(p) == PLUMBOB_TYPE_RIG && pb_le32(p + 4) == 0) return true;
    if (n < 16) return false;
    for (k = 0; k < 3; k++)
        if (p[0] == sig[k][0] && p[1] == sig[k][1] && p[2] == sig[k][2] && p[3] == sig[k][3]) return true;
    return false;
}

static plumbob_string read_name(plumbob_reader *r) {
    plumbob_string s = {NULL, 0};
    uint32_t len = plumbob_read_u32le(r);
    const unsigned char *p;
    if (!plumbob_reader_ok(r)) return s;
    if (len > plumbob_reader_remaining(r)) {
        plumbob_reader_fail(r, PLUMBOB_ERR_TRUNCATED);
        return s;
    }
    p = plumbob_read_bytes(r, len);
    s.ptr = (const char *)p;
    s.len = p ? len : 0;
    return s;
}

static int32_t read_index(plumbob_reader *r, uint32_t count, int32_t lowest) {
    int32_t v = (int32_t)plumbob_read_u32le(r);
    if (plumbob_reader_ok(r) && (v < lowest || (v >= 0 && (uint32_t)v >= count)))
        plumbob_reader_fail(r, PLUMBOB_ERR_BAD_INDEX);
    return v;
}

/* Header checks: the version pair, or why not. */
static plumbob_result open_rig(const unsigned char *p, size_t size, plumbob_rig *rig, plumbob_reader *r) {
    plumbob_reader_init(r, p, size);
    rig->data = p;
    rig->size = size;
    rig->bone_count = 0;
    rig->ik_chain_count = 0;
    rig->reordered = false;
    if (is_granny(p, size)) return PLUMBOB_ERR_UNSUPPORTED;
    rig->major = plumbob_read_u32le(r);
    rig->minor = plumbob_read_u32le(r);
    if (!plumbob_reader_ok(r)) return r->error;
    /* the version pair is a rig's only signature: numbers no version of
     * anything would have mean another kind of resource (issue 47's rule) */
    if (rig->major > 255u || rig->minor > 255u) return PLUMBOB_ERR_BAD_MAGIC;
    if ((rig->major != 3 && rig->major != 4) || (rig->minor != 1 && rig->minor != 2))
        return PLUMBOB_ERR_UNSUPPORTED_VERSION;
    return PLUMBOB_OK;
}

/* Walks bones, skeleton name and chains.  Counting pass (store false): sets
 * bone_count, ik_chain_count and *chain_bones (the chains' bones in all).
 * Storing pass: fills the arrays the caller allocated from those counts. */
static plumbob_result walk(plumbob_reader *r, plumbob_rig *rig, bool store, size_t *chain_bones,
                           int32_t *chain_pool, plumbob_error *err) {
    static const char *const why[3] = {"non-finite position", "non-finite orientation", "non-finite scale"};
    uint32_t n, i, c;
    n = plumbob_read_u32le(r);
    if (!plumbob_reader_ok(r)) return r->error;
    if (n > PLUMBOB_RIG_MAX_BONES) return PLUMBOB_ERR_BAD_COUNT;
    if (n > plumbob_reader_remaining(r) / BONE_MIN) return PLUMBOB_ERR_TRUNCATED; /* the input ends early */
    rig->bone_count = n;
    for (i = 0; i < n && plumbob_reader_ok(r); i++) {
        plumbob_rig_bone b;
        size_t at = r->pos, bad;
        b.position.x = plumbob_read_f32le(r);
        b.position.y = plumbob_read_f32le(r);
        b.position.z = plumbob_read_f32le(r);
        b.orientation.x = plumbob_read_f32le(r);
        b.orientation.y = plumbob_read_f32le(r);
        b.orientation.z = plumbob_read_f32le(r);
        b.orientation.w = plumbob_read_f32le(r);
        b.scale.x = plumbob_read_f32le(r);
        b.scale.y = plumbob_read_f32le(r);
        b.scale.z = plumbob_read_f32le(r);
        /* every transform float is used by the skeleton: infinity or NaN is refused where it stands */
        if (plumbob_reader_ok(r) && (bad = pb_first_nonfinite_le(r->data + at, 10)) < 10)
            return pb_note(err, PLUMBOB_ERR_BAD_DATA, at + 4u * bad, "bone", i, why[bad < 3 ? 0 : bad < 7 ? 1 : 2]);
        b.name = read_name(r);
        b.opposite = (int32_t)plumbob_read_u32le(r); /* not checked: a sample rig has one past the end */
        b.parent = read_index(r, n, -1);
        b.hash = plumbob_read_u32le(r);
        b.flags = plumbob_read_u32le(r);
        if (plumbob_reader_ok(r) && b.parent == (int32_t)i) plumbob_reader_fail(r, PLUMBOB_ERR_BAD_INDEX);
        if (b.parent > (int32_t)i) rig->reordered = true; /* a child listed before its parent */
        if (store) rig->bones[i] = b;
    }
    /* the skeleton name: always in Sims 3 rigs (version 3 and 4) */
    rig->skeleton_name = read_name(r);
    if (!plumbob_reader_ok(r)) return r->error;
    if (rig->major >= 4) {
        size_t pool = 0;
        c = plumbob_read_u32le(r);
        if (!plumbob_reader_ok(r)) return r->error;
        if (c > PLUMBOB_RIG_MAX_IK_CHAINS) return PLUMBOB_ERR_BAD_COUNT;
        if (c > plumbob_reader_remaining(r) / CHAIN_MIN) return PLUMBOB_ERR_TRUNCATED;
        rig->ik_chain_count = c;
        for (i = 0; i < c && plumbob_reader_ok(r); i++) {
            plumbob_rig_ik_chain ch;
            uint32_t k, len = plumbob_read_u32le(r);
            size_t rem = plumbob_reader_remaining(r);
            if (!plumbob_reader_ok(r)) break;
            /* the chain's bones, then 15 more indices */
            if (rem < CHAIN_MIN - 4u || len > (rem - (CHAIN_MIN - 4u)) / 4u) {
                plumbob_reader_fail(r, PLUMBOB_ERR_TRUNCATED);
                break;
            }
            ch.bone_count = len;
            ch.bones = store ? chain_pool + pool : NULL;
            for (k = 0; k < len; k++) {
                int32_t b = read_index(r, n, 0);
                if (store) ch.bones[k] = b;
            }
            pool += len;
            for (k = 0; k < PLUMBOB_RIG_IK_INFO_NODES; k++) ch.info_nodes[k] = read_index(r, n, -1);
            ch.pole_vector = read_index(r, n, -1);
            ch.slot_info = read_index(r, n, -1);
            ch.slot_offset = read_index(r, n, -1);
            ch.root = read_index(r, n, -1);
            if (store) rig->ik_chains[i] = ch;
        }
        *chain_bones = pool;
    } else {
        *chain_bones = 0;
    }
    if (plumbob_reader_ok(r) && plumbob_reader_remaining(r) != 0) return PLUMBOB_ERR_BAD_DATA;
    return r->error;
}

/* Arena bytes of the skeleton view for n bones, with the sort's
 * temporaries when the file lists a child before its parent. */
static size_t view_need(uint32_t n, bool reorder) {
    size_t need = 0;
    plumbob_size_add(&need, plumbob_arena_need(n, sizeof(int32_t)));            /* parent */
    plumbob_size_add(&need, plumbob_arena_need(n, sizeof(plumbob_bone_pose)));  /* rest */
    plumbob_size_add(&need, plumbob_arena_need(n, sizeof(uint32_t)));           /* name_hash */
    plumbob_size_add(&need, plumbob_arena_need(n, sizeof(plumbob_string)));     /* name */
    plumbob_size_add(&need, plumbob_arena_need(n, sizeof(uint32_t)));           /* file_index */
    plumbob_size_add(&need, plumbob_arena_need(n, sizeof(uint32_t)));           /* skeleton_index */
    if (reorder) {
        plumbob_size_add(&need, plumbob_arena_need(n, sizeof(uint32_t)));              /* depth */
        plumbob_size_add(&need, plumbob_arena_need((size_t)n + 1u, sizeof(uint32_t))); /* buckets */
    }
    return need;
}

/* The first failure of open_rig or walk, at the reader's position.  A
 * rig's only signature is its version pair, which other resources can
 * share (a jazz or GEOM resource starts 3, then 1 or 0; a KEY table 1): so
 * when the walk fails on bytes plumbob_identify names as such a kind,
 * the refusal is that (BAD_MAGIC), never what the walk tripped on.  A rig,
 * whole or cut short, is never named another kind. */
static plumbob_result rig_fail(plumbob_error *err, plumbob_result res, const plumbob_reader *r,
                               const void *data, size_t size) {
    plumbob_format f = plumbob_identify(data, size);
    /* only kinds with more signature than a rig's own (a Sims 2 RCOL's
     * shape is weaker: a broken rig can take it) */
    if (f == PLUMBOB_FORMAT_DBPF || f == PLUMBOB_FORMAT_CLIP || f == PLUMBOB_FORMAT_JAZZ ||
        f == PLUMBOB_FORMAT_GEOM || f == PLUMBOB_FORMAT_KEY || f == PLUMBOB_FORMAT_TRACK_MASK)
        return pb_note(err, PLUMBOB_ERR_BAD_MAGIC, 0, "rig", PLUMBOB_ERROR_NO_INDEX,
                       "another kind of resource (plumbob_identify names it), not a rig");
    /* every Sims 3 RCOL (VPXY, MODL, FTPT, ...) starts 3, 1, 0: as a rig,
     * version 3.1 without bones, which then does not end where it should
     * (a rig cut short fails as TRUNCATED, and stays so) */
    if (res != PLUMBOB_ERR_TRUNCATED && size >= 12 && pb_le32((const unsigned char *)data) == 3u &&
        pb_le32((const unsigned char *)data + 8) == 0)
        return pb_note(err, PLUMBOB_ERR_BAD_MAGIC, 0, "rig", PLUMBOB_ERROR_NO_INDEX,
                       "a Sims 3 RCOL header (3, 1, 0), not a rig");
    return pb_note(err, res, pb_reader_at(r, (const unsigned char *)data, size), "rig", PLUMBOB_ERROR_NO_INDEX,
                   pb_reason(res));
}

plumbob_result plumbob_rig_measure_ex(const void *data, size_t size, size_t *arena_bytes, plumbob_error *err) {
    plumbob_rig rig;
    plumbob_reader r;
    plumbob_result res;
    size_t need = 0, pool = 0;
    plumbob_error_clear(err);
    if (arena_bytes) *arena_bytes = SIZE_MAX;
    if (!data || !arena_bytes)
        return pb_note(err, PLUMBOB_ERR_INVALID_ARGUMENT, 0, "arguments", PLUMBOB_ERROR_NO_INDEX, "NULL pointer");
    res = open_rig((const unsigned char *)data, size, &rig, &r);
    if (res == PLUMBOB_OK) res = walk(&r, &rig, false, &pool, NULL, err);
    if (res != PLUMBOB_OK) return rig_fail(err, res, &r, data, size);
    if (!plumbob_size_add(&need, plumbob_arena_need(rig.bone_count, sizeof(plumbob_rig_bone))) ||
        !plumbob_size_add(&need, plumbob_arena_need(rig.ik_chain_count, sizeof(plumbob_rig_ik_chain))) ||
        !plumbob_size_add(&need, plumbob_arena_need(pool, sizeof(int32_t))) ||
        !plumbob_size_add(&need, view_need(rig.bone_count, rig.reordered)))
        return pb_note(err, PLUMBOB_ERR_OUT_OF_MEMORY, 0, "arena", PLUMBOB_ERROR_NO_INDEX,
                       "the arena size does not fit size_t"); /* not reachable with the limits */
    *arena_bytes = need;
    return PLUMBOB_OK;
}

plumbob_result plumbob_rig_measure(const void *data, size_t size, size_t *arena_bytes) {
    return plumbob_rig_measure_ex(data, size, arena_bytes, NULL);
}

#define DEPTH_UNKNOWN 0xFFFFFFFFu

/* Depth of every bone (roots 0), each walk stopping at the first bone whose
 * depth is known, so the whole pass is linear; a walk longer than the bone
 * count is a parent cycle. */
static plumbob_result depths(const plumbob_rig_bone *bones, uint32_t n, uint32_t *depth) {
    uint32_t i, k;
    for (i = 0; i < n; i++) depth[i] = DEPTH_UNKNOWN;
    for (i = 0; i < n; i++) {
        uint32_t b = i, len = 0, top;
        while (depth[b] == DEPTH_UNKNOWN && bones[b].parent >= 0) {
            b = (uint32_t)bones[b].parent;
            if (++len > n) return PLUMBOB_ERR_BAD_INDEX;
        }
        if (depth[b] == DEPTH_UNKNOWN) depth[b] = 0; /* a root */
        top = depth[b];
        for (b = i, k = 0; k < len; k++) {
            depth[b] = top + len - k;
            b = (uint32_t)bones[b].parent;
        }
    }
    return PLUMBOB_OK;
}

/* The skeleton view: file order when parents already come first, else a
 * stable counting sort by depth. */
static plumbob_result build_view(plumbob_rig *rig, plumbob_arena *arena) {
    uint32_t n = rig->bone_count, i, k;
    int32_t *parent = (int32_t *)plumbob_arena_alloc_array(arena, n, sizeof(int32_t), 0);
    plumbob_bone_pose *rest = (plumbob_bone_pose *)plumbob_arena_alloc_array(arena, n, sizeof(plumbob_bone_pose), 0);
    uint32_t *hash = (uint32_t *)plumbob_arena_alloc_array(arena, n, sizeof(uint32_t), 0);
    plumbob_string *name = (plumbob_string *)plumbob_arena_alloc_array(arena, n, sizeof(plumbob_string), 0);
    uint32_t *file_index = (uint32_t *)plumbob_arena_alloc_array(arena, n, sizeof(uint32_t), 0);
    uint32_t *skel_index = (uint32_t *)plumbob_arena_alloc_array(arena, n, sizeof(uint32_t), 0);
    bool ordered = true;
    if (!parent || !rest || !hash || !name || !file_index || !skel_index) return PLUMBOB_ERR_OUT_OF_MEMORY;
    for (i = 0; i < n; i++)
        if (rig->bones[i].parent >= (int32_t)i) ordered = false;
    if (ordered) {
        for (i = 0; i < n; i++) file_index[i] = skel_index[i] = i;
    } else {
        size_t mark = plumbob_arena_mark(arena);
        uint32_t *depth = (uint32_t *)plumbob_arena_alloc_array(arena, n, sizeof(uint32_t), 0);
        uint32_t *start = (uint32_t *)plumbob_arena_alloc_array(arena, (size_t)n + 1u, sizeof(uint32_t), 0);
        plumbob_result res;
        if (!depth || !start) return PLUMBOB_ERR_OUT_OF_MEMORY;
        res = depths(rig->bones, n, depth);
        if (res != PLUMBOB_OK) return res;
        for (k = 0; k <= n; k++) start[k] = 0;
        for (i = 0; i < n; i++) start[depth[i] + 1u]++; /* depths are below n */
        for (k = 1; k <= n; k++) start[k] += start[k - 1];
        for (i = 0; i < n; i++) {
            uint32_t slot = start[depth[i]]++;
            file_index[slot] = i;
            skel_index[i] = slot;
        }
        plumbob_arena_reset(arena, mark);
    }
    for (k = 0; k < n; k++) {
        const plumbob_rig_bone *b = &rig->bones[file_index[k]];
        parent[k] = b->parent < 0 ? -1 : (int32_t)skel_index[b->parent];
        rest[k].rotation = b->orientation;
        rest[k].translation = b->position;
        rest[k].scale = b->scale;
        hash[k] = b->hash;
        name[k] = b->name;
    }
    rig->skeleton.bone_count = n;
    rig->skeleton.parent = parent;
    rig->skeleton.rest = rest;
    rig->skeleton.name_hash = hash;
    rig->skeleton.name = name;
    rig->file_index = file_index;
    rig->skeleton_index = skel_index;
    rig->reordered = !ordered;
    return plumbob_skeleton_validate(&rig->skeleton);
}

plumbob_result plumbob_rig_decode_ex(const void *data, size_t size, plumbob_arena *arena, plumbob_rig *rig,
                                     plumbob_error *err) {
    plumbob_reader r;
    plumbob_result res;
    plumbob_rig counted;
    size_t pool = 0, mark;
    int32_t *chain_pool;
    plumbob_error_clear(err);
    if (!data || !arena || !rig)
        return pb_note(err, PLUMBOB_ERR_INVALID_ARGUMENT, 0, "arguments", PLUMBOB_ERROR_NO_INDEX, "NULL pointer");
    res = open_rig((const unsigned char *)data, size, &counted, &r);
    if (res == PLUMBOB_OK) res = walk(&r, &counted, false, &pool, NULL, err);
    if (res != PLUMBOB_OK) return rig_fail(err, res, &r, data, size);
    mark = plumbob_arena_mark(arena);
    *rig = counted;
    rig->bones = (plumbob_rig_bone *)plumbob_arena_alloc_array(arena, counted.bone_count, sizeof(plumbob_rig_bone), 0);
    rig->ik_chains = (plumbob_rig_ik_chain *)plumbob_arena_alloc_array(arena, counted.ik_chain_count,
                                                                       sizeof(plumbob_rig_ik_chain), 0);
    chain_pool = (int32_t *)plumbob_arena_alloc_array(arena, pool, sizeof(int32_t), 0);
    if (!rig->bones || !rig->ik_chains || !chain_pool) {
        plumbob_arena_reset(arena, mark);
        return pb_note(err, PLUMBOB_ERR_OUT_OF_MEMORY, 0, "arena", PLUMBOB_ERROR_NO_INDEX,
                       "the arena is smaller than plumbob_rig_measure says");
    }
    res = open_rig((const unsigned char *)data, size, rig, &r);
    if (res == PLUMBOB_OK) res = walk(&r, rig, true, &pool, chain_pool, err);
    if (res != PLUMBOB_OK) {
        plumbob_arena_reset(arena, mark);
        return rig_fail(err, res, &r, data, size);
    }
    res = build_view(rig, arena);
    if (res != PLUMBOB_OK) {
        plumbob_arena_reset(arena, mark);
        return pb_note(err, res, 0, res == PLUMBOB_ERR_OUT_OF_MEMORY ? "arena" : "bone", PLUMBOB_ERROR_NO_INDEX,
                       res == PLUMBOB_ERR_OUT_OF_MEMORY ? "the arena is smaller than plumbob_rig_measure says"
                                                        : "the parent links do not form a tree");
    }
    return res;
}

plumbob_result plumbob_rig_decode(const void *data, size_t size, plumbob_arena *arena, plumbob_rig *rig) {
    return plumbob_rig_decode_ex(data, size, arena, rig, NULL);
}
