/* The tool's name dictionary (names.h).  The built-in list holds the
 * standard Sims 3 bone, IK and slot names documented in public modding
 * notes (the human rig's deform skeleton, fingers, face helpers, the
 * export/IK subtree, carry slots, object-rig bones); every one of them
 * except the two carry slots is also confirmed by a track hash of the
 * sample clips.  Lookups are linear: a dictionary holds a few hundred names. */
#include <stdlib.h>
#include <string.h>
#include "names.h"

static const char *const builtin[] = {
    "L_Info1", "L_Info10", "L_Info2", "L_Info3", "L_Info4", "L_Info5", "L_Info6", "L_Info7",
    "L_Info8", "L_Info9", "L_armExportPole", "L_footOffset", "L_footWorld", "L_legExportPole",
    "L_slotInfo", "L_slotOffset", "R_Info1", "R_Info10", "R_Info2", "R_Info3", "R_Info4", "R_Info5",
    "R_Info6", "R_Info7", "R_Info8", "R_Info9", "R_armExportPole", "R_footOffset", "R_footWorld",
    "R_legExportPole", "R_slotInfo", "R_slotOffset", "Root_info", "b__Chin__", "b__HeadDome__",
    "b__HeadNew__", "b__Head__", "b__JawComp__", "b__Jaw__", "b__L_Bicep__", "b__L_Calf__",
    "b__L_Clavicle__", "b__L_Foot__", "b__L_Forearm__", "b__L_Hand__", "b__L_Index0__",
    "b__L_Index1__", "b__L_Index2__", "b__L_Mid0__", "b__L_Mid1__", "b__L_Mid2__", "b__L_Pinky0__",
    "b__L_Pinky1__", "b__L_Pinky2__", "b__L_Ring0__", "b__L_Ring1__", "b__L_Ring2__",
    "b__L_ThighTwist__", "b__L_Thigh__", "b__L_Thumb0__", "b__L_Thumb1__", "b__L_Thumb2__",
    "b__L_Toe__", "b__L_UpperArm__", "b__L_Wrist__", "b__L_breast__", "b__LeftEar__",
    "b__LeftEye__", "b__Neck__", "b__NoseArea__", "b__Pelvis__", "b__ROOT__", "b__ROOT_bind__",
    "b__ROOT_export__", "b__R_Bicep__", "b__R_Calf__", "b__R_Clavicle__", "b__R_Foot__",
    "b__R_Forearm__", "b__R_Hand__", "b__R_Index0__", "b__R_Index1__", "b__R_Index2__",
    "b__R_Mid0__", "b__R_Mid1__", "b__R_Mid2__", "b__R_Pinky0__", "b__R_Pinky1__", "b__R_Pinky2__",
    "b__R_Ring0__", "b__R_Ring1__", "b__R_Ring2__", "b__R_ThighTwist__", "b__R_Thigh__",
    "b__R_Thumb0__", "b__R_Thumb1__", "b__R_Thumb2__", "b__R_Toe__", "b__R_UpperArm__",
    "b__R_Wrist__", "b__R_breast__", "b__RightEar__", "b__RightEye__", "b__Spine0__", "b__Spine1__",
    "b__Spine2__", "b__Tongue1__", "b__Tongue2__", "b__belly__", "b__carryGroupOffset_noBind__",
    "b__carryGroup_noBind__", "b__lower_skirt__", "b__upper_skirt__", "rootOffset", "rootWorld",
    "world_offset", "b__L_carry_slot", "b__R_carry_slot",
    "offsetBone", "transformBone",
};

size_t tool_dict_builtin_count(void) { return sizeof builtin / sizeof builtin[0]; }

void tool_dict_init(tool_dict *d) {
    size_t i;
    memset(d, 0, sizeof *d);
    for (i = 0; i < tool_dict_builtin_count(); i++) tool_dict_add(d, builtin[i], strlen(builtin[i]), 0);
}

void tool_dict_free(tool_dict *d) {
    size_t i;
    for (i = 0; i < d->count; i++) free(d->e[i].name);
    free(d->e);
    memset(d, 0, sizeof *d);
}

void tool_dict_add(tool_dict *d, const char *name, size_t len, uint32_t h32) {
    tool_dict_entry *e;
    size_t i;
    if (!name || !len) return;
    if (!h32) h32 = plumbob_fnv32(name, len);
    for (i = 0; i < d->count; i++)
        if (d->e[i].h32 == h32 && strlen(d->e[i].name) == len && memcmp(d->e[i].name, name, len) == 0) return;
    if (d->count == d->cap) {
        size_t cap = d->cap ? d->cap * 2 : 256;
        tool_dict_entry *ne = (tool_dict_entry *)realloc(d->e, cap * sizeof *ne);
        if (!ne) return; /* out of memory: the name is simply not known */
        d->e = ne;
        d->cap = cap;
    }
    e = &d->e[d->count];
    e->name = (char *)malloc(len + 1);
    if (!e->name) return;
    memcpy(e->name, name, len);
    e->name[len] = '\0';
    e->h32 = h32;
    e->h64 = (uint32_t)plumbob_fnv64(name, len);
    d->count++;
}

void tool_dict_add_skeleton(tool_dict *d, const plumbob_skeleton *sk) {
    uint32_t i;
    if (!sk->name) return;
    for (i = 0; i < sk->bone_count; i++)
        tool_dict_add(d, sk->name[i].ptr, sk->name[i].len, sk->name_hash ? sk->name_hash[i] : 0);
}

void tool_dict_add_key_table(tool_dict *d, const plumbob_key_table *kt) {
    uint32_t i;
    for (i = 0; i < kt->count; i++) {
        uint64_t inst;
        plumbob_string s;
        if (plumbob_key_table_entry(kt, i, &inst, &s) == PLUMBOB_OK) tool_dict_add(d, s.ptr, s.len, 0);
    }
}

void tool_dict_add_package(tool_dict *d, const unsigned char *data, size_t size) {
    plumbob_package pkg;
    uint32_t i;
    if (!data || plumbob_package_open(&pkg, data, size) != PLUMBOB_OK) return;
    for (i = 0; i < pkg.count; i++) {
        plumbob_package_entry e;
        unsigned char *buf;
        const unsigned char *res;
        size_t rs, need;
        if (plumbob_package_entry_at(&pkg, i, &e) != PLUMBOB_OK) continue;
        if (e.type != PLUMBOB_TYPE_KEY && e.type != PLUMBOB_TYPE_RIG) continue;
        if (plumbob_package_read_size(&pkg, &e, &need) != PLUMBOB_OK) continue; /* checked before allocating */
        buf = (unsigned char *)malloc(need ? need : 1);
        if (buf && plumbob_package_read(&pkg, &e, buf, e.mem_size, &res, &rs) == PLUMBOB_OK) {
            if (e.type == PLUMBOB_TYPE_KEY) {
                plumbob_key_table kt;
                if (plumbob_key_table_open(&kt, res, rs) == PLUMBOB_OK) tool_dict_add_key_table(d, &kt);
            } else if (plumbob_rig_measure(res, rs, &need) == PLUMBOB_OK) {
                unsigned char *mem = (unsigned char *)malloc(need ? need : 1);
                plumbob_arena a;
                plumbob_rig rig;
                plumbob_arena_init(&a, mem, mem ? need : 0);
                if (mem && plumbob_rig_decode(res, rs, &a, &rig) == PLUMBOB_OK) tool_dict_add_skeleton(d, &rig.skeleton);
                free(mem);
            }
        }
        free(buf);
    }
}

const char *tool_dict_bone(const tool_dict *d, uint32_t hash) {
    size_t i;
    for (i = 0; d && i < d->count; i++)
        if (d->e[i].h32 == hash) return d->e[i].name;
    return NULL;
}

const char *tool_dict_morph(const tool_dict *d, uint32_t hash) {
    size_t i;
    for (i = 0; d && i < d->count; i++)
        if (d->e[i].h64 == hash) return d->e[i].name;
    return NULL;
}

const char *tool_dict_track(const tool_dict *d, uint32_t hash, int morph) {
    return morph ? tool_dict_morph(d, hash) : tool_dict_bone(d, hash);
}
