/* Sims 3 clip names -> package keys: the age/species prefix rule and the
 * fallback chain a game uses when an age-specific clip does not exist. */
#include "plumbob/sims3.h"
#include "pb_hash.h"
#include "pb_ascii.h"

static const struct {
    char text[3];
    unsigned char code;
} age_codes[] = {
    {"a", 0x00}, {"o", 0x00}, {"b", 0x01}, {"p", 0x02}, {"c", 0x03}, {"t", 0x04},
    {"h", 0x05}, {"e", 0x06}, {"ad", 0x08}, {"cd", 0x09}, {"al", 0x0A}, {"ac", 0x0D},
    {"cc", 0x0E}, {"ah", 0x10}, {"ch", 0x11}, {"ab", 0x12}, {"ar", 0x13},
};

int plumbob_age_code(const char *code, size_t len) {
    size_t i;
    if (!code || len == 0 || len > 2) return -1;
    for (i = 0; i < sizeof age_codes / sizeof age_codes[0]; i++) {
        const char *t = age_codes[i].text;
        if (pb_ascii_caseeq(code, t, len) && (len == 2 || t[1] == '\0'))
            return age_codes[i].code;
    }
    return -1;
}

bool pb_age_code_valid(int code) {
    size_t i;
    for (i = 0; i < sizeof age_codes / sizeof age_codes[0]; i++)
        if (age_codes[i].code == code) return true;
    return false;
}

/* The parsed prefix of a clip name. */
typedef struct clip_prefix {
    bool present;       /* false: the name is hashed exactly as given */
    bool two_actor;     /* "x2y_" rather than "x_" */
    bool actor_object;  /* slot letter was 'o' (never replaced) */
    bool target_object;
    int actor, target;  /* codes, 0 = generic */
    size_t rest;        /* index of the '_' that ends the prefix */
} clip_prefix;

static bool is_object(const char *s, size_t len) {
    return len == 1 && pb_ascii_caseeq(s, "o", 1);
}

static clip_prefix parse_prefix(const char *name, size_t len) {
    clip_prefix p = {false, false, false, false, 0, 0, 0};
    size_t us, two;
    for (us = 0; us < len && us <= 5 && name[us] != '_'; us++) {}
    if (us >= len || us > 5 || us == 0 || name[us] != '_') return p;
    for (two = 0; two < us && name[two] != '2'; two++) {}
    if (two < us) {
        int a = plumbob_age_code(name, two);
        int t = plumbob_age_code(name + two + 1, us - two - 1);
        if (a < 0 || t < 0) return p;
        p.two_actor = true;
        p.actor = a;
        p.target = t;
        p.actor_object = is_object(name, two);
        p.target_object = is_object(name + two + 1, us - two - 1);
    } else {
        int a = plumbob_age_code(name, us);
        if (a < 0) return p;
        p.actor = a;
        p.actor_object = is_object(name, us);
    }
    p.present = true;
    p.rest = us;
    return p;
}

/* Hash of the name with the prefix rewritten generically, plus the codes. */
static plumbob_clip_key key_for(const char *name, size_t len, const clip_prefix *p, int actor,
                                int target) {
    plumbob_clip_key k;
    uint64_t h = PB_FNV64_OFFSET;
    if (!p->present) {
        h = pb_fnv64_update(h, name, len);
        k.instance = h & 0x7FFFFFFFFFFFFFFFull;
        k.group = 0;
        return k;
    }
    h = pb_fnv64_update(h, p->actor_object ? "o" : "a", 1);
    if (p->two_actor) {
        h = pb_fnv64_update(h, "2", 1);
        h = pb_fnv64_update(h, p->target_object ? "o" : "a", 1);
    }
    h = pb_fnv64_update(h, name + p->rest, len - p->rest);
    k.instance = h & 0x7FFFFFFFFFFFFFFFull;
    if (actor != 0 || target != 0)
        k.instance ^= (uint64_t)(0x8000u | (unsigned)actor << 8 | (unsigned)target) << 48;
    k.group = (actor > 6 || target > 6) ? PLUMBOB_CLIP_GROUP_PETS : 0u;
    return k;
}

plumbob_result plumbob_clip_key_from_name(const char *name, size_t len, plumbob_clip_key *out) {
    clip_prefix p;
    if (!out || (!name && len > 0)) return PLUMBOB_ERR_INVALID_ARGUMENT;
    p = parse_prefix(name, len);
    *out = key_for(name, len, &p, p.actor, p.target);
    return PLUMBOB_OK;
}

plumbob_result plumbob_clip_fallbacks(const char *name, size_t len, int actor, int target,
                                      plumbob_clip_key out[PLUMBOB_CLIP_MAX_FALLBACKS],
                                      size_t *count) {
    clip_prefix p;
    int a, t;
    plumbob_clip_key own, generic;
    if (!out || !count || (!name && len > 0)) return PLUMBOB_ERR_INVALID_ARGUMENT;
    if (!pb_age_code_valid(actor) || !pb_age_code_valid(target)) return PLUMBOB_ERR_INVALID_ARGUMENT;
    p = parse_prefix(name, len);
    a = p.actor_object ? 0 : (actor != PLUMBOB_AGE_GENERIC ? actor : p.actor);
    t = (!p.two_actor || p.target_object) ? 0 : (target != PLUMBOB_AGE_GENERIC ? target : p.target);
    own = key_for(name, len, &p, a, t);
    generic = key_for(name, len, &p, 0, 0);
    out[0] = own;
    *count = 1;
    if (generic.instance != own.instance || generic.group != own.group) {
        out[1] = generic;
        *count = 2;
    }
    return PLUMBOB_OK;
}
