/* FNV vectors and the clip-name rules, all from ../shared/specs/NOTES.md. */
#include <string.h>
#include "test.h"

void test_hash_fnv_vectors(void) {
    static const struct { const char *name; uint32_t h; } v32[] = {
        {"b__ROOT__", 0xFEAE6981u}, {"b__ROOT_bind__", 0x57884BB9u},
        {"b__Pelvis__", 0x556B181Au}, {"b__Spine0__", 0x6FA96266u},
        {"x", 0x050C5D67u}, {"y", 0x050C5D66u}, {"petgardening", 0x10647401u},
        {"", 0x811C9DC5u},
    };
    size_t i;
    for (i = 0; i < sizeof v32 / sizeof v32[0]; i++) {
        CHECK_EQ(plumbob_fnv32_str(v32[i].name), v32[i].h);
        CHECK_EQ(plumbob_fnv32(v32[i].name, strlen(v32[i].name)), v32[i].h);
        t_digest_u32(plumbob_fnv32_str(v32[i].name));
    }
    CHECK_EQ(plumbob_fnv64_str("petgardening"), 0x91B95750336A8701ull);
    CHECK_EQ(plumbob_fnv64("petgardening", 12), 0x91B95750336A8701ull);
    CHECK_EQ(plumbob_fnv64_str(NULL), 0xCBF29CE484222325ull);
    CHECK_EQ(plumbob_fnv32(NULL, 0), 0x811C9DC5u);
    /* a length shorter than the string hashes only the prefix */
    CHECK_EQ(plumbob_fnv32("xyz", 1), 0x050C5D67u);
    t_digest_u64(plumbob_fnv64_str("petgardening"));
}

void test_hash_case_insensitive(void) {
    CHECK_EQ(plumbob_fnv32_str("B__root__"), 0xFEAE6981u);
    CHECK_EQ(plumbob_fnv64_str("PetGardening"), 0x91B95750336A8701ull);
    /* only ASCII letters fold: bytes above 0x7F hash as they are */
    CHECK(plumbob_fnv32_str("\xC3\x89") != plumbob_fnv32_str("\xC3\xA9"));
    CHECK(plumbob_fnv32_str("[") != plumbob_fnv32_str("{"));
    /* names compare the way they hash: A-Z and a-z fold, nothing else */
    CHECK(plumbob_name_equal("B__Root__", 9, "b__root__", 9));
    CHECK(!plumbob_name_equal("b__root__", 9, "b__root_", 8));
    CHECK(!plumbob_name_equal("[", 1, "{", 1));           /* 0x5B, 0x7B: not letters */
    CHECK(!plumbob_name_equal("\xC3\x89", 2, "\xC3\xA9", 2)); /* bytes above 0x7F are themselves */
    CHECK(plumbob_name_equal("a\0b", 3, "A\0B", 3));      /* a NUL is a byte like any other */
    CHECK(plumbob_name_equal(NULL, 0, "", 0));
    CHECK(!plumbob_name_equal(NULL, 1, "a", 1));
}

/* The Sims 2 instance CRCs: the catalogue check values of CRC-32/MPEG-2
 * (0x0376E6E7) and CRC-24/OpenPGP (0x21CF02) over "123456789", the empty
 * name (the initial values), case folding, and a length that cuts the name. */
void test_hash_sims2_instance(void) {
    CHECK_EQ(plumbob_sims2_instance("123456789", 9), 0x0376E6E7FF21CF02ull);
    CHECK_EQ(plumbob_sims2_instance(NULL, 0), 0xFFFFFFFFFFB704CEull);
    CHECK_EQ(plumbob_sims2_instance("", 0), 0xFFFFFFFFFFB704CEull);
    CHECK_EQ(plumbob_sims2_instance("Teapot_TSLocator_GMDC", 21), plumbob_sims2_instance("teapot_tslocator_gmdc", 21));
    CHECK_EQ(plumbob_sims2_instance("1234567890", 9), 0x0376E6E7FF21CF02ull);
    CHECK(plumbob_sims2_instance("a", 1) != plumbob_sims2_instance("b", 1));
    CHECK_EQ(plumbob_sims2_instance("x", 1) >> 24 & 0xFFu, 0xFFu); /* instance's top byte */
}

static uint64_t key_of(const char *name) {
    plumbob_clip_key k = {0, 0};
    CHECK_OK(plumbob_clip_key_from_name(name, strlen(name), &k));
    t_digest_u64(k.instance);
    return k.instance;
}

void test_clip_key_vectors(void) {
    CHECK_EQ(key_of("a_harvestableUpdate_eat_start_x"), 0x674F041B05156E14ull);
    CHECK_EQ(key_of("ac_idle_sit_hack_x"), 0xBC78ECD3046CB427ull);
    CHECK_EQ(key_of("al_idle_sit_hack_x"), 0xBB78ECD3046CB427ull);
    CHECK_EQ(key_of("ad_idle_sit_hack_x"), 0xB978ECD3046CB427ull);
    CHECK_EQ(key_of("a_buff_EWGermy_coughing_x"), 0x2D79976FFBB8D529ull);
    CHECK_EQ(key_of("c_buff_EWGermy_coughing_x"), 0xAE79976FFBB8D529ull);
    CHECK_EQ(key_of("al2a_soc_neutral_attackSim_insulting_neutral_x"), 0xC06363A8DEA2048Eull);
    CHECK_EQ(key_of("AC_idle_sit_hack_x"), 0xBC78ECD3046CB427ull); /* prefix case-insensitive */
    /* no age prefix: plain FNV-64 with the top bit cleared */
    CHECK_EQ(key_of("petgardening"), 0x91B95750336A8701ull & 0x7FFFFFFFFFFFFFFFull);
    CHECK_EQ(key_of("zz_unknownprefix"), plumbob_fnv64_str("zz_unknownprefix") & 0x7FFFFFFFFFFFFFFFull);
    CHECK_EQ(key_of("abcdef_long"), plumbob_fnv64_str("abcdef_long") & 0x7FFFFFFFFFFFFFFFull);
    CHECK_EQ(key_of("a2_x"), plumbob_fnv64_str("a2_x") & 0x7FFFFFFFFFFFFFFFull);
    CHECK_EQ(key_of("_x"), plumbob_fnv64_str("_x") & 0x7FFFFFFFFFFFFFFFull);
    {
        plumbob_clip_key k;
        CHECK_EQ(plumbob_clip_key_from_name(NULL, 3, &k), PLUMBOB_ERR_INVALID_ARGUMENT);
        CHECK_EQ(plumbob_clip_key_from_name("a_x", 3, NULL), PLUMBOB_ERR_INVALID_ARGUMENT);
    }
}

void test_clip_key_groups(void) {
    plumbob_clip_key k;
    CHECK_OK(plumbob_clip_key_from_name("ac_idle_sit_hack_x", 18, &k));
    CHECK_EQ(k.group, PLUMBOB_CLIP_GROUP_PETS);
    CHECK_OK(plumbob_clip_key_from_name("e_idle", 6, &k)); /* elder: code 6, not a pet */
    CHECK_EQ(k.group, 0);
    CHECK_OK(plumbob_clip_key_from_name("a2cd_play", 9, &k)); /* pet as the target */
    CHECK_EQ(k.group, PLUMBOB_CLIP_GROUP_PETS);
    CHECK_EQ(k.instance >> 63, 1);
    CHECK_EQ((k.instance >> 48) & 0x7FFF, ((plumbob_fnv64_str("a2a_play") >> 48) & 0x7FFF) ^ 0x0009);
    /* an object actor slot stays "o" in the hashed name (not rewritten to the
     * generic "a"): FNV-1 64 of "o_walk", top bit clear, computed outside
     * plumbob; "a_walk" would be 0x11A06AB91BCA6BDE */
    CHECK_OK(plumbob_clip_key_from_name("o_walk", 6, &k));
    CHECK_EQ(k.instance, 0x5384973A9F68D058ull);
    CHECK_EQ(k.group, 0);
}

void test_clip_fallbacks(void) {
    plumbob_clip_key out[PLUMBOB_CLIP_MAX_FALLBACKS];
    size_t n = 99;
    /* t2c_x: its own key first, then the generic a2a_x */
    CHECK_OK(plumbob_clip_fallbacks("t2c_x", 5, PLUMBOB_AGE_GENERIC, PLUMBOB_AGE_GENERIC, out, &n));
    CHECK_EQ(n, 2);
    CHECK_EQ(out[0].instance, 0xBB222BC64D4E1594ull);
    CHECK_EQ(out[1].instance, 0x3F212BC64D4E1594ull);
    CHECK_EQ(out[1].instance, key_of("a2a_x"));
    /* a generic name asked for a teen acting on a child gives the same chain */
    CHECK_OK(plumbob_clip_fallbacks("a2a_x", 5, PLUMBOB_AGE_TEEN, PLUMBOB_AGE_CHILD, out, &n));
    CHECK_EQ(n, 2);
    CHECK_EQ(out[0].instance, 0xBB222BC64D4E1594ull);
    /* an object slot is never replaced */
    CHECK_OK(plumbob_clip_fallbacks("a2o_x", 5, PLUMBOB_AGE_TEEN, PLUMBOB_AGE_CHILD, out, &n));
    CHECK_EQ(n, 2);
    CHECK_EQ(out[0].instance, 0xBB19EBC64D478A06ull);
    CHECK_EQ(out[1].instance, 0x3F19EBC64D478A06ull);
    /* generic with generic codes: one entry */
    CHECK_OK(plumbob_clip_fallbacks("a_x", 3, 0, 0, out, &n));
    CHECK_EQ(n, 1);
    /* a one-actor name ignores the target code */
    CHECK_OK(plumbob_clip_fallbacks("a_idle_sit_hack_x", 17, PLUMBOB_AGE_CAT, PLUMBOB_AGE_CHILD, out, &n));
    CHECK_EQ(n, 2);
    CHECK_EQ(out[0].instance, 0xBC78ECD3046CB427ull);
    CHECK_EQ(out[0].group, PLUMBOB_CLIP_GROUP_PETS);
    CHECK_EQ(out[1].group, 0);
    /* bad codes and pointers */
    CHECK_EQ(plumbob_clip_fallbacks("a_x", 3, 7, 0, out, &n), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_clip_fallbacks("a_x", 3, 0, 0x14, out, &n), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_clip_fallbacks("a_x", 3, 0, 0, NULL, &n), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_clip_fallbacks("a_x", 3, 0, 0, out, NULL), PLUMBOB_ERR_INVALID_ARGUMENT);
}

void test_age_codes(void) {
    static const struct { const char *s; int code; } v[] = {
        {"a", 0}, {"o", 0}, {"b", 1}, {"p", 2}, {"c", 3}, {"t", 4}, {"h", 5}, {"e", 6},
        {"ad", 8}, {"cd", 9}, {"al", 0xA}, {"ac", 0xD}, {"cc", 0xE}, {"ah", 0x10},
        {"ch", 0x11}, {"ab", 0x12}, {"ar", 0x13}, {"AR", 0x13}, {"x", -1}, {"", -1},
        {"abc", -1}, {"aa", -1},
    };
    size_t i;
    for (i = 0; i < sizeof v / sizeof v[0]; i++) CHECK_EQ(plumbob_age_code(v[i].s, strlen(v[i].s)), v[i].code);
    CHECK_EQ(plumbob_age_code(NULL, 1), -1);
    /* bodies: a clip name's actor prefix, a rig's name (issue 47) */
    {
        static const struct { const char *s; int body; } c[] = {
            {"a2o_bassinet_feed_stop_x", PLUMBOB_BODY_HUMAN}, {"al2a_soc_x", PLUMBOB_BODY_SMALL_DOG},
            {"t_walk", PLUMBOB_BODY_HUMAN}, {"y_walk", PLUMBOB_BODY_HUMAN}, {"E_walk", PLUMBOB_BODY_HUMAN},
            {"c2a_hug", PLUMBOB_BODY_CHILD}, {"p_crawl", PLUMBOB_BODY_TODDLER}, {"b_cry", PLUMBOB_BODY_BABY},
            {"ad_bark", PLUMBOB_BODY_DOG}, {"CD_bark", PLUMBOB_BODY_PUPPY}, {"ac_purr", PLUMBOB_BODY_CAT},
            {"cc_purr", PLUMBOB_BODY_KITTEN}, {"ah_trot", PLUMBOB_BODY_HORSE}, {"ch_trot", PLUMBOB_BODY_FOAL},
            {"o_door_open", PLUMBOB_BODY_OBJECT}, {"ab_x", PLUMBOB_BODY_UNKNOWN}, {"walk", PLUMBOB_BODY_UNKNOWN},
            {"_walk", PLUMBOB_BODY_UNKNOWN}, {"abcde_x", PLUMBOB_BODY_UNKNOWN}, {"a", PLUMBOB_BODY_UNKNOWN},
            {"", PLUMBOB_BODY_UNKNOWN},
        };
        static const struct { const char *s; int body; } r[] = {
            {"auRig", PLUMBOB_BODY_HUMAN}, {"AURIG", PLUMBOB_BODY_HUMAN}, {"cuRig", PLUMBOB_BODY_CHILD},
            {"puRig", PLUMBOB_BODY_TODDLER}, {"buRig", PLUMBOB_BODY_BABY}, {"adRig", PLUMBOB_BODY_DOG},
            {"alRig", PLUMBOB_BODY_SMALL_DOG}, {"chRig", PLUMBOB_BODY_FOAL}, {"plantSmallVine", PLUMBOB_BODY_OBJECT},
            {"xxRig", PLUMBOB_BODY_OBJECT}, {"auRig2", PLUMBOB_BODY_OBJECT}, {"", PLUMBOB_BODY_UNKNOWN},
        };
        for (i = 0; i < sizeof c / sizeof c[0]; i++) CHECK_EQ(plumbob_clip_name_body(c[i].s, strlen(c[i].s)), c[i].body);
        for (i = 0; i < sizeof r / sizeof r[0]; i++) CHECK_EQ(plumbob_rig_name_body(r[i].s, strlen(r[i].s)), r[i].body);
        CHECK_EQ(plumbob_clip_name_body(NULL, 4), PLUMBOB_BODY_UNKNOWN);
        CHECK_EQ(plumbob_rig_name_body(NULL, 5), PLUMBOB_BODY_UNKNOWN);
        CHECK_EQ(plumbob_clip_name_body("ad_bark", 2), PLUMBOB_BODY_UNKNOWN); /* the length is the name's end */
        CHECK_EQ(plumbob_body_species(PLUMBOB_BODY_CHILD), PLUMBOB_BODY_HUMAN);
        CHECK_EQ(plumbob_body_species(PLUMBOB_BODY_PUPPY), PLUMBOB_BODY_DOG);
        CHECK_EQ(plumbob_body_species(PLUMBOB_BODY_KITTEN), PLUMBOB_BODY_CAT);
        CHECK_EQ(plumbob_body_species(PLUMBOB_BODY_FOAL), PLUMBOB_BODY_HORSE);
        CHECK_EQ(plumbob_body_species(PLUMBOB_BODY_SMALL_DOG), PLUMBOB_BODY_SMALL_DOG);
        CHECK_EQ(plumbob_body_species(PLUMBOB_BODY_OBJECT), PLUMBOB_BODY_OBJECT);
        CHECK_EQ(plumbob_body_species(99), PLUMBOB_BODY_UNKNOWN);
    }
}
