/* What a clip binding found: bound and unbound tracks and bones, the
 * unbound hashes, and whether the clip's name prefix fits the rig's name
 * (the check the tool's "wrong rig?" warning makes).  Distinct hashes are
 * counted by sorting {hash, kind} pairs in borrowed arena bytes, so a clip
 * of 65,536 tracks costs n log n, never n squared. */
#include "plumbob/runtime.h"
#include "pb_clip_track.h"
#include "pb_sort.h"

/* The second word of a pair: the kind (bone 0, morph 1, other 2) over the
 * bound bit, so one hash's bone tracks sort together. */
static uint32_t report_kind_of(const plumbob_clip_track *t) {
    if (t->target == PLUMBOB_CLIP_TARGET_MORPH) return 1u;
    if (t->target == PLUMBOB_CLIP_TARGET_ROTATION || t->target == PLUMBOB_CLIP_TARGET_TRANSLATION ||
        t->target == PLUMBOB_CLIP_TARGET_SCALE)
        return 0u;
    return 2u;
}

size_t plumbob_clip_binding_report_size(const plumbob_clip_binding *binding) {
    if (!binding) return SIZE_MAX;
    return plumbob_arena_need(binding->track_count, 2u * sizeof(uint32_t));
}

/* Over the sorted pairs: counts the distinct animated bones and the bound
 * ones (when bones is not NULL), writes the distinct unbound hashes in
 * ascending order (when out is not NULL) and returns how many there are.
 * Within one hash and kind, unbound pairs sort first; one hash binds all
 * its tracks of a kind or none (the first match wins). */
static uint32_t report_walk(const uint32_t *pairs, uint32_t n, uint32_t *bones, uint32_t *bound_bones, uint32_t *out) {
    uint32_t i, unbound = 0;
    int listed = 0;
    for (i = 0; i < n; i++) {
        uint32_t h = pairs[2u * i], k = pairs[2u * i + 1u];
        int first_of_hash = i == 0 || pairs[2u * (i - 1u)] != h;
        int first_of_kind = first_of_hash || (pairs[2u * (i - 1u) + 1u] >> 1) != (k >> 1);
        if (first_of_hash) listed = 0;
        if (bones && (k >> 1) == 0u && first_of_kind) {
            (*bones)++;
            if (k & 1u) (*bound_bones)++;
        }
        if (!(k & 1u) && !listed) {
            if (out) out[unbound] = h;
            unbound++;
            listed = 1;
        }
    }
    return unbound;
}

static uint32_t report_fit_of(const plumbob_clip_bind_report *r) {
    uint32_t fit = 0;
    if (r->bone_count && r->bound_bones < r->bone_count - r->bound_bones) fit |= PLUMBOB_FIT_FEW_BONES;
    if (r->clip_body != PLUMBOB_BODY_UNKNOWN && r->rig_body != PLUMBOB_BODY_UNKNOWN &&
        r->clip_body != r->rig_body && (r->rig_body != PLUMBOB_BODY_OBJECT || (fit & PLUMBOB_FIT_FEW_BONES)))
        fit |= plumbob_body_species(r->clip_body) != plumbob_body_species(r->rig_body) ? PLUMBOB_FIT_OTHER_SPECIES
                                                                                      : PLUMBOB_FIT_OTHER_AGE;
    return fit;
}

plumbob_result plumbob_clip_binding_report(const plumbob_clip_binding *binding, const char *rig_name,
                                           size_t rig_name_len, plumbob_arena *arena, uint32_t *unbound_hashes,
                                           uint32_t unbound_cap, plumbob_clip_bind_report *report) {
    const plumbob_clip *clip;
    plumbob_clip_bind_report r;
    uint32_t *pairs, i, n;
    size_t mark;
    if (!binding || !report || !arena || !binding->clip || !pb_clip_binding_of(binding, binding->clip) ||
        (!rig_name && rig_name_len))
        return PLUMBOB_ERR_INVALID_ARGUMENT;
    clip = binding->clip;
    n = clip->track_count;
    mark = plumbob_arena_mark(arena);
    pairs = (uint32_t *)plumbob_arena_alloc_array(arena, n, 2u * sizeof(uint32_t), 0);
    if (!pairs) return PLUMBOB_ERR_OUT_OF_MEMORY;
    r.track_count = n;
    r.bound_tracks = 0;
    for (i = 0; i < n; i++) {
        int bound = binding->bone_of_track[i] >= 0 || binding->morph_of_track[i] >= 0;
        r.bound_tracks += bound ? 1u : 0u;
        pairs[2u * i] = clip->tracks[i].hash;
        pairs[2u * i + 1u] = report_kind_of(&clip->tracks[i]) << 1 | (bound ? 1u : 0u);
    }
    r.unbound_tracks = n - r.bound_tracks;
    pb_sort_pairs(pairs, n);
    r.bone_count = r.bound_bones = 0;
    r.unbound_hash_count = report_walk(pairs, n, &r.bone_count, &r.bound_bones, NULL);
    if (unbound_hashes && unbound_cap >= r.unbound_hash_count) (void)report_walk(pairs, n, NULL, NULL, unbound_hashes);
    plumbob_arena_reset(arena, mark);
    r.clip_body = plumbob_clip_name_body(clip->name.ptr, clip->name.len);
    r.rig_body = plumbob_rig_name_body(rig_name, rig_name_len);
    r.fit = report_fit_of(&r);
    *report = r;
    if (unbound_hashes && unbound_cap < r.unbound_hash_count) return PLUMBOB_ERR_OUTPUT_TOO_SMALL;
    return PLUMBOB_OK;
}

plumbob_result plumbob_clip_track_name(uint32_t hash, const plumbob_rig *rig, const plumbob_key_table *names,
                                       plumbob_string *name) {
    uint32_t i;
    if (!name) return PLUMBOB_ERR_INVALID_ARGUMENT;
    if (rig && rig->bones)
        for (i = 0; i < rig->bone_count; i++)
            if (rig->bones[i].hash == hash) {
                *name = rig->bones[i].name;
                return PLUMBOB_OK;
            }
    if (names)
        for (i = 0; i < names->count; i++) {
            uint64_t instance;
            plumbob_string s;
            if (plumbob_key_table_entry(names, i, &instance, &s) != PLUMBOB_OK) break;
            if (plumbob_fnv32(s.ptr, s.len) == hash || (uint32_t)plumbob_fnv64(s.ptr, s.len) == hash) {
                *name = s;
                return PLUMBOB_OK;
            }
        }
    return PLUMBOB_ERR_NOT_FOUND;
}
