/* libFuzzer target for GEOM skinning: the input is a GEOM resource; what
 * decodes is bound to a small rig made from its own bone hashes (one the
 * mesh lacks, rest poses and a zero scale now and then from the input's
 * bytes) in an arena of exactly plumbob_geom_bind_size, posed, turned into
 * a palette and skinned (normals, tangents, none) with the port and the
 * scalar reference into exactly sized outputs with guard floats: nothing
 * written outside, the same bits (NaN as NaN); then morphed onto itself
 * (every vertex finds its own id) with exact work memory. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "plumbob.h"

#define RIG_BONES 9u
#define GUARD 8u
#define SENTINEL -12345.0f

static unsigned char skin_work[PLUMBOB_SKIN_WORK_SIZE];

static uint32_t next(uint32_t *s) {
    uint32_t x = *s;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return *s = x;
}

static float unit(uint32_t *s) { return (float)((int32_t)(next(s) >> 8) % 2001 - 1000) / 1000.0f; }

static int same_bits(const float *a, const float *b, size_t n) {
    size_t i;
    for (i = 0; i < n; i++) {
        if (a[i] != a[i] && b[i] != b[i]) continue;
        if (memcmp(&a[i], &b[i], sizeof a[i]) != 0) return 0;
    }
    return 1;
}

static float *guarded(size_t floats) {
    float *p = (float *)malloc((floats + GUARD) * sizeof(float));
    size_t i;
    for (i = 0; i < floats + GUARD; i++) p[i] = SENTINEL;
    return p;
}

static void check_guard(const float *p, size_t floats) {
    size_t i;
    for (i = 0; i < GUARD; i++)
        if (p[floats + i] != SENTINEL) __builtin_trap();
}

/* One skinning job of mesh with the port or the reference. */
static plumbob_result skin(const plumbob_skin_mesh *m, const plumbob_mat34 *palette, uint32_t palette_count,
                           float *pos, float *vec, uint32_t n, uint32_t flags) {
    plumbob_skin_job job;
    memset(&job, 0, sizeof job);
    job.mesh = m;
    job.palette = palette;
    job.palette_count = palette_count;
    job.positions = pos;
    job.position_stride = 3;
    job.position_count = n;
    job.normals = m->normals ? vec : NULL;
    job.normal_stride = 3;
    job.normal_count = n;
    job.flags = flags;
    job.work = skin_work;
    return plumbob_skin(&job);
}

static void skin_all(const plumbob_geom *g, const plumbob_mat34 *palette) {
    static const uint32_t vectors[3] = {PLUMBOB_GEOM_NORMAL, PLUMBOB_GEOM_TANGENT, 0};
    size_t floats = (size_t)g->vertex_count * 3u;
    uint32_t k;
    for (k = 0; k < 3; k++) {
        plumbob_skin_mesh m;
        float *p0, *p1, *v0, *v1;
        plumbob_result r0, r1;
        if (plumbob_geom_skin_mesh(g, vectors[k], &m) != PLUMBOB_OK) continue;
        if (m.weight_mode != PLUMBOB_SKIN_WEIGHTS_EXPLICIT || m.slot_count != (m.joints ? g->bone_count : 0u))
            __builtin_trap();
        p0 = guarded(floats);
        p1 = guarded(floats);
        v0 = guarded(floats);
        v1 = guarded(floats);
        r0 = skin(&m, palette, g->bone_count, p0, v0, g->vertex_count, 0);
        r1 = skin(&m, palette, g->bone_count, p1, v1, g->vertex_count, PLUMBOB_SKIN_REFERENCE);
        if (r0 != PLUMBOB_OK || r1 != PLUMBOB_OK) __builtin_trap(); /* a decoded mesh always skins */
        if (!same_bits(p0, p1, floats) || !same_bits(v0, v1, floats)) __builtin_trap();
        check_guard(p0, floats);
        check_guard(p1, floats);
        check_guard(v0, floats);
        check_guard(v1, floats);
        free(p0);
        free(p1);
        free(v0);
        free(v1);
    }
}

static void morph_self(const plumbob_geom *g, float weight) {
    size_t floats = (size_t)g->vertex_count * 4u, ws = plumbob_geom_morph_work_size(g), i;
    float *pos = guarded(floats), *nrm = guarded(floats);
    unsigned char *work = (unsigned char *)malloc(ws ? ws : 1);
    plumbob_result r;
    for (i = 0; i < floats; i++) pos[i] = nrm[i] = 0.0f;
    r = plumbob_geom_morph(g, g, weight, pos, 4, nrm, 4, g->vertex_count, work, ws);
    if (r != PLUMBOB_OK && r != PLUMBOB_ERR_INVALID_ARGUMENT) __builtin_trap();
    /* only x y z of each vertex (stride 4) may change */
    for (i = 3; i < floats; i += 4)
        if (pos[i] != 0.0f || nrm[i] != 0.0f) __builtin_trap();
    check_guard(pos, floats);
    check_guard(nrm, floats);
    free(pos);
    free(nrm);
    free(work);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static const int32_t parent[RIG_BONES] = {-1, 0, 1, 2, 1, 4, 0, 6, 7};
    plumbob_bone_pose rest[RIG_BONES], posed[RIG_BONES];
    uint32_t hash[RIG_BONES], seed = 0x9E3779B9u, b;
    plumbob_mat34 model[RIG_BONES], palette[255];
    plumbob_rig rig;
    plumbob_geom g;
    plumbob_geom_binding bind;
    plumbob_arena arena;
    size_t need, i;
    unsigned char *mem, *bmem;
    plumbob_result r;
    if (plumbob_geom_measure(data, size, &need) != PLUMBOB_OK) return 0;
    mem = (unsigned char *)malloc(need ? need : 1);
    plumbob_arena_init(&arena, mem, need);
    if (plumbob_geom_decode(data, size, &arena, &g) != PLUMBOB_OK) {
        free(mem);
        return 0;
    }
    for (i = 0; i < size && i < 256; i++) seed = (seed ^ data[i]) * 0x01000193u;
    if (!seed) seed = 1;
    /* the rig: the mesh's first hashes (the last bone's hash none of them) */
    for (b = 0; b < RIG_BONES; b++) {
        hash[b] = b + 1u < RIG_BONES && b < g.bone_count ? g.bone_hashes[(b * 7u) % g.bone_count] : 0xA5A5A5A5u;
        rest[b].rotation.x = unit(&seed);
        rest[b].rotation.y = unit(&seed);
        rest[b].rotation.z = unit(&seed);
        rest[b].rotation.w = 1.0f;
        rest[b].rotation = plumbob_quat_normalize(rest[b].rotation);
        rest[b].translation.x = unit(&seed);
        rest[b].translation.y = unit(&seed);
        rest[b].translation.z = unit(&seed);
        rest[b].scale.x = rest[b].scale.y = rest[b].scale.z = next(&seed) % 64u == 0 ? 0.0f : 1.0f;
        posed[b] = rest[b];
        posed[b].rotation.x += unit(&seed);
        posed[b].rotation = plumbob_quat_normalize(posed[b].rotation);
    }
    memset(&rig, 0, sizeof rig);
    rig.skeleton.bone_count = RIG_BONES;
    rig.skeleton.parent = parent;
    rig.skeleton.rest = rest;
    rig.skeleton.name_hash = hash;
    need = plumbob_geom_bind_size(&g, &rig);
    bmem = (unsigned char *)malloc(need ? need : 1);
    plumbob_arena_init(&arena, bmem, need);
    r = plumbob_geom_bind(&g, &rig, &arena, &bind);
    if (r == PLUMBOB_OK) {
        if (bind.bound + bind.unbound != g.bone_count || arena.peak > need) __builtin_trap();
        for (b = 0; b < bind.bone_count; b++)
            if (bind.rig_bone[b] < -1 || bind.rig_bone[b] >= (int32_t)RIG_BONES) __builtin_trap();
        if (plumbob_skeleton_model(&rig.skeleton, posed, model, RIG_BONES) != PLUMBOB_OK) __builtin_trap();
        if (plumbob_geom_palette(&bind, model, RIG_BONES, palette, 255) != PLUMBOB_OK) __builtin_trap();
        skin_all(&g, palette);
    } else if (r != PLUMBOB_ERR_BAD_DATA) { /* only a zero scale is refused */
        __builtin_trap();
    }
    morph_self(&g, unit(&seed) * 2.0f);
    free(bmem);
    free(mem);
    return 0;
}
