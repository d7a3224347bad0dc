/* Binding a Sims 2 ANIM to a CRES skeleton: the channel-to-bone and
 * channel-to-morph rules (plumbob/runtime.h Chapter 18b, docs/API.md), made
 * here once, with the report of what stays unbound. */
#include "plumbob/runtime.h"
#include "pb_ascii.h"

size_t plumbob_anim_bind_size(const plumbob_anim *anim) {
    size_t n = 0;
    if (!anim) return SIZE_MAX;
    if (!plumbob_size_add(&n, plumbob_arena_need(anim->channel_count, sizeof(int32_t))) ||
        !plumbob_size_add(&n, plumbob_arena_need(anim->channel_count, 1u)) ||
        !plumbob_size_add(&n, plumbob_arena_need(anim->channel_count, sizeof(uint32_t))) ||
        !plumbob_size_add(&n, plumbob_arena_need(anim->channel_count, sizeof(plumbob_string))))
        return SIZE_MAX;
    return n;
}

/* s ends in suf (ASCII case-insensitive) with something before it. */
static bool anim_has_suffix(plumbob_string s, const char *suf, size_t n) {
    return s.len > n && pb_ascii_caseeq(s.ptr + s.len - n, suf, n);
}

/* The bone a rotation or translation channel names: its name, else its
 * name without "_rot" or "_trans" (either, whatever the attribute: real
 * files call a root translation "root_trans" and a rotation "root_rot"). */
static int32_t anim_bone_of(const plumbob_cres_skeleton *sk, plumbob_string n) {
    int32_t b = plumbob_cres_find_bone(sk, n.ptr, n.len);
    if (b >= 0) return b;
    if (anim_has_suffix(n, "_rot", 4)) return plumbob_cres_find_bone(sk, n.ptr, n.len - 4u);
    if (anim_has_suffix(n, "_trans", 6)) return plumbob_cres_find_bone(sk, n.ptr, n.len - 6u);
    return -1;
}

/* The first morph pair whose second name is n, or -1. */
static int32_t anim_morph_of(const plumbob_gmdc *mesh, plumbob_string n) {
    uint32_t i;
    if (!mesh || !n.len) return -1;
    for (i = 0; i < mesh->morph_count && i <= (uint32_t)INT32_MAX; i++) {
        plumbob_string m = mesh->morph_names[2u * i + 1u];
        if (m.len == n.len && m.ptr && pb_ascii_caseeq(m.ptr, n.ptr, n.len)) return (int32_t)i;
    }
    return -1;
}

/* What a channel can drive by its attribute and shape: BONE, MORPH (to be
 * matched by name), OTHER or SHAPE. */
static uint8_t anim_kind_of(const plumbob_anim *a, const plumbob_anim_channel *c) {
    uint32_t attr = PLUMBOB_ANIM_ATTRIBUTE(c->flags), n = PLUMBOB_ANIM_COMPONENTS(c->flags);
    if (attr > PLUMBOB_ANIM_ATTR_MORPH) return (uint8_t)PLUMBOB_ANIM_CHANNEL_OTHER;
    /* components outside the ANIM (a caller-filled one) are no shape to play */
    if (c->first_component > a->component_count || n > a->component_count - c->first_component)
        return (uint8_t)PLUMBOB_ANIM_CHANNEL_SHAPE;
    if (attr == PLUMBOB_ANIM_ATTR_ROTATION)
        return (uint8_t)(PLUMBOB_ANIM_VALUE_TYPE(c->flags) == 3u && n == 3u ? PLUMBOB_ANIM_CHANNEL_BONE
                                                                           : PLUMBOB_ANIM_CHANNEL_SHAPE);
    if (attr == PLUMBOB_ANIM_ATTR_TRANSLATION)
        return (uint8_t)(n >= 3u ? PLUMBOB_ANIM_CHANNEL_BONE : PLUMBOB_ANIM_CHANNEL_SHAPE);
    return (uint8_t)(n >= 1u ? PLUMBOB_ANIM_CHANNEL_MORPH : PLUMBOB_ANIM_CHANNEL_SHAPE);
}

plumbob_result plumbob_anim_bind(const plumbob_anim *anim, const plumbob_cres_skeleton *skeleton,
                                 const plumbob_gmdc *mesh, plumbob_arena *arena, plumbob_anim_binding *binding) {
    uint32_t ch, n, bound = 0, driven_bones = 0;
    uint32_t *list;
    plumbob_string *names;
    size_t mark;
    if (!anim || !skeleton || !arena || !binding || (anim->channel_count && !anim->channels) ||
        (skeleton->skeleton.bone_count && !skeleton->skeleton.name) ||
        (mesh && mesh->morph_count && !mesh->morph_names))
        return PLUMBOB_ERR_INVALID_ARGUMENT;
    n = anim->channel_count;
    mark = plumbob_arena_mark(arena);
    binding->slot = (int32_t *)plumbob_arena_alloc_array(arena, n, sizeof(int32_t), 0);
    binding->status = (uint8_t *)plumbob_arena_alloc_array(arena, n, 1u, 0);
    list = (uint32_t *)plumbob_arena_alloc_array(arena, n, sizeof(uint32_t), 0);
    names = (plumbob_string *)plumbob_arena_alloc_array(arena, n, sizeof(plumbob_string), 0);
    if (!binding->slot || !binding->status || !list || !names) {
        plumbob_arena_reset(arena, mark);
        return PLUMBOB_ERR_OUT_OF_MEMORY;
    }
    binding->anim = anim;
    binding->skeleton = skeleton;
    binding->channel_count = n;
    binding->bone_count = skeleton->skeleton.bone_count;
    binding->morph_count = mesh ? mesh->morph_count : 0u;
    binding->bone_channel_count = binding->morph_channel_count = binding->unbound_count = 0;
    /* `list` holds the unbound channels from its front and, while binding,
     * the bound ones from its back (the two never meet: together they are
     * the channels seen), so "already driven?" scans the bound ones only. */
    for (ch = 0; ch < n; ch++) {
        const plumbob_anim_channel *c = &anim->channels[ch];
        uint8_t st = anim_kind_of(anim, c);
        int32_t slot = -1;
        uint32_t attr = PLUMBOB_ANIM_ATTRIBUTE(c->flags), i;
        bool bone_seen = false;
        if (st == PLUMBOB_ANIM_CHANNEL_BONE) {
            slot = anim_bone_of(skeleton, c->name);
            if (slot < 0) st = (uint8_t)PLUMBOB_ANIM_CHANNEL_NO_BONE;
        } else if (st == PLUMBOB_ANIM_CHANNEL_MORPH) {
            slot = anim_morph_of(mesh, c->name);
            if (slot < 0) st = (uint8_t)PLUMBOB_ANIM_CHANNEL_NO_MORPH;
        }
        for (i = 0; slot >= 0 && i < bound; i++) { /* the first channel per bone and attribute, or morph, wins */
            uint32_t o = list[n - 1u - i];
            if (binding->status[o] != st || binding->slot[o] != slot) continue;
            if (st == PLUMBOB_ANIM_CHANNEL_MORPH || PLUMBOB_ANIM_ATTRIBUTE(anim->channels[o].flags) == attr) {
                st = (uint8_t)PLUMBOB_ANIM_CHANNEL_SECOND;
                break;
            }
            bone_seen = true;
        }
        if (st != PLUMBOB_ANIM_CHANNEL_BONE && st != PLUMBOB_ANIM_CHANNEL_MORPH) slot = -1;
        binding->status[ch] = st;
        binding->slot[ch] = slot;
        if (slot >= 0) {
            list[n - 1u - bound++] = ch;
            if (st == PLUMBOB_ANIM_CHANNEL_BONE) {
                binding->bone_channel_count++;
                if (!bone_seen) driven_bones++;
            } else {
                binding->morph_channel_count++;
            }
        } else {
            names[binding->unbound_count] = c->name;
            list[binding->unbound_count++] = ch;
        }
    }
    binding->unbound_channels = list;
    binding->unbound_names = names;
    binding->unanimated_bone_count = binding->bone_count - driven_bones;
    return PLUMBOB_OK;
}
