/* Who a clip is for and who wears a rig, from their names: the clip name's
 * actor prefix (a_, ad_, c2a_, ...) and a Sim rig's name (auRig, adRig, ...),
 * so a binding report can say when a clip meets a rig it was not made for. */
#include "plumbob/sims3.h"
#include "pb_ascii.h"

/* Adult-sized humans (teen to elder) share one rig; "a" (generic) is read as
 * a human clip, as the games play a_ clips on Sims.  "y" (young adult) is no
 * key code but appears in clip names. */
static const struct {
    char text[3];
    unsigned char body;
} body_clip_codes[] = {
    {"o", PLUMBOB_BODY_OBJECT},    {"a", PLUMBOB_BODY_HUMAN},      {"t", PLUMBOB_BODY_HUMAN},
    {"y", PLUMBOB_BODY_HUMAN},     {"h", PLUMBOB_BODY_HUMAN},      {"e", PLUMBOB_BODY_HUMAN},
    {"c", PLUMBOB_BODY_CHILD},     {"p", PLUMBOB_BODY_TODDLER},    {"b", PLUMBOB_BODY_BABY},
    {"ad", PLUMBOB_BODY_DOG},      {"cd", PLUMBOB_BODY_PUPPY},     {"al", PLUMBOB_BODY_SMALL_DOG},
    {"ac", PLUMBOB_BODY_CAT},      {"cc", PLUMBOB_BODY_KITTEN},    {"ah", PLUMBOB_BODY_HORSE},
    {"ch", PLUMBOB_BODY_FOAL},
};

/* A Sim rig's name is the body's two letters (age, species) and "Rig". */
static const struct {
    char text[3];
    unsigned char body;
} body_rig_codes[] = {
    {"au", PLUMBOB_BODY_HUMAN},  {"cu", PLUMBOB_BODY_CHILD},     {"pu", PLUMBOB_BODY_TODDLER},
    {"bu", PLUMBOB_BODY_BABY},   {"ad", PLUMBOB_BODY_DOG},       {"cd", PLUMBOB_BODY_PUPPY},
    {"al", PLUMBOB_BODY_SMALL_DOG}, {"ac", PLUMBOB_BODY_CAT},    {"cc", PLUMBOB_BODY_KITTEN},
    {"ah", PLUMBOB_BODY_HORSE},  {"ch", PLUMBOB_BODY_FOAL},
};

int plumbob_clip_name_body(const char *name, size_t len) {
    size_t n = 0, i;
    if (!name) return PLUMBOB_BODY_UNKNOWN;
    while (n < len && n < 5 && name[n] != '_' && name[n] != '2') n++;
    if (n == 0 || n >= len || (name[n] != '_' && name[n] != '2')) return PLUMBOB_BODY_UNKNOWN;
    for (i = 0; i < sizeof body_clip_codes / sizeof body_clip_codes[0]; i++) {
        const char *t = body_clip_codes[i].text;
        if ((t[1] ? 2u : 1u) == n && pb_ascii_caseeq(name, t, n)) return body_clip_codes[i].body;
    }
    return PLUMBOB_BODY_UNKNOWN;
}

int plumbob_rig_name_body(const char *name, size_t len) {
    size_t i;
    if (!name || len == 0) return PLUMBOB_BODY_UNKNOWN;
    if (len == 5 && pb_ascii_caseeq(name + 2, "rig", 3))
        for (i = 0; i < sizeof body_rig_codes / sizeof body_rig_codes[0]; i++)
            if (pb_ascii_caseeq(name, body_rig_codes[i].text, 2)) return body_rig_codes[i].body;
    return PLUMBOB_BODY_OBJECT;
}

int plumbob_body_species(int body) {
    switch (body) {
    case PLUMBOB_BODY_HUMAN: case PLUMBOB_BODY_CHILD: case PLUMBOB_BODY_TODDLER: case PLUMBOB_BODY_BABY:
        return PLUMBOB_BODY_HUMAN;
    case PLUMBOB_BODY_DOG: case PLUMBOB_BODY_PUPPY: return PLUMBOB_BODY_DOG;
    case PLUMBOB_BODY_CAT: case PLUMBOB_BODY_KITTEN: return PLUMBOB_BODY_CAT;
    case PLUMBOB_BODY_HORSE: case PLUMBOB_BODY_FOAL: return PLUMBOB_BODY_HORSE;
    case PLUMBOB_BODY_SMALL_DOG: case PLUMBOB_BODY_OBJECT: return body;
    default: return PLUMBOB_BODY_UNKNOWN;
    }
}
