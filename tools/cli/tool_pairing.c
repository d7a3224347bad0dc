/* A clip on a rig it was not made for: said as a warning (issue 44).  Two
 * signs: fewer than half of the clip's animated bones are bones of the rig,
 * or the clip name's actor prefix (a_, ad_, c_, ...) names another species
 * or age than the rig's name (auRig, adRig, cuRig; any other name is taken
 * for an object's rig, and a Sim's clip on it said only when few bones bind). */
#include <string.h>
#include "plumbob.h"
#include "util/ascii.h"
#include "util/files.h"
#include "tool_pairing.h"

typedef struct who {
    char species; /* 'u' human, 'd' dog, 'l' small dog, 'c' cat, 'h' horse, 'o' object, 0 unknown */
    char age;     /* 'a' adult-sized, 'c' child, 'p' toddler, 'b' baby (0 for objects) */
    const char *words;
} who;

/* The clip's actor from its name: the letters before '2' or '_'. */
static who clip_actor(const char *name, size_t len) {
    static const struct { const char *code; who w; } codes[] = {
        {"o", {'o', 0, "an object's clip"}},     {"a", {'u', 'a', "a human clip"}},
        {"t", {'u', 'a', "a teen's clip"}},      {"y", {'u', 'a', "a young adult's clip"}},
        {"h", {'u', 'a', "an adult's clip"}},    {"e", {'u', 'a', "an elder's clip"}},
        {"c", {'u', 'c', "a child's clip"}},     {"p", {'u', 'p', "a toddler's clip"}},
        {"b", {'u', 'b', "a baby's clip"}},      {"ad", {'d', 'a', "a dog's clip"}},
        {"cd", {'d', 'c', "a puppy's clip"}},    {"al", {'l', 'a', "a small dog's clip"}},
        {"ac", {'c', 'a', "a cat's clip"}},      {"cc", {'c', 'c', "a kitten's clip"}},
        {"ah", {'h', 'a', "a horse's clip"}},    {"ch", {'h', 'c', "a foal's clip"}},
    };
    who none = {0, 0, NULL};
    size_t n = 0, i;
    while (n < len && n < 5 && name[n] != '_' && name[n] != '2') n++;
    if (n == 0 || n >= len || (name[n] != '_' && name[n] != '2')) return none;
    for (i = 0; i < sizeof codes / sizeof codes[0]; i++)
        if (tool_ascii_ieq(name, n, codes[i].code)) return codes[i].w;
    return none;
}

/* The rig's wearer from its name: two letters (age, species) and "Rig". */
static who rig_wearer(const char *name) {
    static const struct { const char *code; who w; } rigs[] = {
        {"au", {'u', 'a', "an adult human rig"}}, {"cu", {'u', 'c', "a child's rig"}},
        {"pu", {'u', 'p', "a toddler's rig"}},    {"bu", {'u', 'b', "a baby's rig"}},
        {"ad", {'d', 'a', "a dog's rig"}},        {"cd", {'d', 'c', "a puppy's rig"}},
        {"al", {'l', 'a', "a small dog's rig"}},  {"ac", {'c', 'a', "a cat's rig"}},
        {"cc", {'c', 'c', "a kitten's rig"}},     {"ah", {'h', 'a', "a horse's rig"}},
        {"ch", {'h', 'c', "a foal's rig"}},
    };
    who obj = {'o', 0, "an object's rig"}, none = {0, 0, NULL};
    size_t i;
    if (!name || !name[0]) return none;
    if (strlen(name) == 5 && tool_ascii_ncaseeq(name + 2, "rig", 3))
        for (i = 0; i < sizeof rigs / sizeof rigs[0]; i++)
            if (tool_ascii_ncaseeq(name, rigs[i].code, 2)) return rigs[i].w;
    return obj;
}

void tool_warn_pairing(const plumbob_clip *clip, const char *clip_where, const uint32_t *bone_hash,
                       uint32_t bone_count, const char *rig_name) {
    uint32_t i, j, tracks = 0, bound = 0;
    who a = clip_actor(clip->name.ptr, clip->name.len), r = rig_wearer(rig_name);
    for (i = 0; i < clip->track_count; i++) { /* distinct animated bones */
        const plumbob_clip_track *t = &clip->tracks[i];
        int seen = 0;
        if (t->target == PLUMBOB_CLIP_TARGET_MORPH) continue;
        for (j = 0; j < i && !seen; j++)
            seen = clip->tracks[j].target != PLUMBOB_CLIP_TARGET_MORPH && clip->tracks[j].hash == t->hash;
        if (seen) continue;
        tracks++;
        for (j = 0; j < bone_count; j++)
            if (bone_hash[j] == t->hash) {
                bound++;
                break;
            }
    }
    /* a rig of another name is an object's only by a guess: a Sim's clip on it
     * is said when the bones say so too (a modder's "demo_spine" rig fits) */
    if (a.species && r.species && (a.species != r.species || a.age != r.age) &&
        !(r.species == 'o' && !(tracks && bound * 2 < tracks))) {
        size_t pl = 0;
        while (pl < clip->name.len && clip->name.ptr[pl] != '_') pl++;
        tool_warning(clip_where, "%.*s is %s (prefix %.*s_) and %s is %s: the wrong rig?", (int)clip->name.len,
                     clip->name.ptr, a.words, (int)pl, clip->name.ptr, rig_name, r.words);
    }
    if (tracks && bound * 2 < tracks)
        tool_warning(clip_where, "only %u of the clip's %u animated bones are bones of the rig%s%s: the wrong rig?",
                     (unsigned)bound, (unsigned)tracks, rig_name && rig_name[0] ? " " : "",
                     rig_name ? rig_name : "");
}
