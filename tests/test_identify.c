/* Format sniffing on hand-made headers. */
#include <string.h>
#include "test.h"

void test_identify_formats(void) {
    unsigned char b[64];
    memset(b, 0, sizeof b);
    CHECK_EQ(plumbob_identify(NULL, 10), PLUMBOB_FORMAT_UNKNOWN);
    CHECK_EQ(plumbob_identify(b, 0), PLUMBOB_FORMAT_UNKNOWN);
    memcpy(b, "DBPF", 4);
    CHECK_EQ(plumbob_identify(b, 4), PLUMBOB_FORMAT_DBPF);
    memcpy(b, "\xF3\xC4\x20\x6B", 4); /* CLIP type id, little-endian */
    CHECK_EQ(plumbob_identify(b, sizeof b), PLUMBOB_FORMAT_CLIP);
    memset(b, 0, sizeof b);
    b[0] = 3;
    memcpy(b + 28, "\x13\xDF\xD5\x02", 4); /* first chunk key type = jazz */
    CHECK_EQ(plumbob_identify(b, sizeof b), PLUMBOB_FORMAT_JAZZ);
    /* Sims 2 RCOL, 16-byte link form, no links, one GMDC block */
    memset(b, 0, sizeof b);
    memcpy(b, "\x01\x00\xFF\xFF", 4);
    b[8] = 1;
    memcpy(b + 12, "\x87\x86\x4F\xAC", 4);
    CHECK_EQ(plumbob_identify(b, sizeof b), PLUMBOB_FORMAT_GMDC);
    memcpy(b + 12, "\x1E\x79\x00\xFB", 4);
    CHECK_EQ(plumbob_identify(b, sizeof b), PLUMBOB_FORMAT_ANIM);
    memcpy(b + 12, "\x33\xC9\x19\xE5", 4); /* cResourceNode */
    CHECK_EQ(plumbob_identify(b, sizeof b), PLUMBOB_FORMAT_CRES);
    memcpy(b + 12, "\x11\x22\x33\x44", 4);
    CHECK_EQ(plumbob_identify(b, sizeof b), PLUMBOB_FORMAT_SIMS2_RCOL);
    /* the same with the old 12-byte link form and one link */
    memset(b, 0, sizeof b);
    b[0] = 1;
    b[16] = 1;
    memcpy(b + 20, "\x87\x86\x4F\xAC", 4);
    CHECK_EQ(plumbob_identify(b, sizeof b), PLUMBOB_FORMAT_GMDC);
    CHECK_EQ(plumbob_identify(b, 20), PLUMBOB_FORMAT_UNKNOWN); /* cut before the block id */
    memset(b, 0, sizeof b);
    b[0] = 0x10;
    b[1] = 0xFB;
    CHECK_EQ(plumbob_identify(b, 5), PLUMBOB_FORMAT_REFPACK);
    b[0] = 0x90;
    CHECK_EQ(plumbob_identify(b, 5), PLUMBOB_FORMAT_REFPACK);
    b[0] = 0x12;
    CHECK_EQ(plumbob_identify(b, 5), PLUMBOB_FORMAT_UNKNOWN);
    CHECK(strcmp(plumbob_format_name(PLUMBOB_FORMAT_GMDC), "gmdc") == 0);
    CHECK(strcmp(plumbob_format_name(PLUMBOB_FORMAT_SIMS2_RCOL), "sims2-rcol") == 0);
    CHECK(strcmp(plumbob_format_name(PLUMBOB_FORMAT_CRES), "cres") == 0);
    CHECK(strcmp(plumbob_format_name(PLUMBOB_FORMAT_KEY), "key") == 0);
    CHECK(strcmp(plumbob_format_name(PLUMBOB_FORMAT_GEOM), "geom") == 0);
    CHECK(strcmp(plumbob_format_name(PLUMBOB_FORMAT_TRACK_MASK), "track-mask") == 0);
    CHECK(strcmp(plumbob_format_name((plumbob_format)99), "unknown") == 0);
    { /* a track mask by its magic; "TkM" alone is not one */
        static const unsigned char tk[] = {'T', 'k', 'M', 'k', 0, 2, 0, 0};
        CHECK_EQ(plumbob_identify(tk, sizeof tk), PLUMBOB_FORMAT_TRACK_MASK);
        CHECK(plumbob_identify(tk, 3) != PLUMBOB_FORMAT_TRACK_MASK);
    }
    { /* a KEY table: version 1, entries that end exactly at the end */
        static const unsigned char key[] = {1, 0, 0, 0, 2, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 1, 0, 0, 0, 'a',
                                            9, 9, 9, 9, 9, 9, 9, 9, 3, 0, 0, 0, 'b', 'c', 'd'};
        static const unsigned char empty[] = {1, 0, 0, 0, 0, 0, 0, 0};
        unsigned char k2[sizeof key + 1];
        CHECK_EQ(plumbob_identify(key, sizeof key), PLUMBOB_FORMAT_KEY);
        CHECK_EQ(plumbob_identify(empty, sizeof empty), PLUMBOB_FORMAT_KEY);
        CHECK(plumbob_identify(key, sizeof key - 1) != PLUMBOB_FORMAT_KEY); /* cut */
        memcpy(k2, key, sizeof key);
        k2[sizeof key] = 0;
        CHECK(plumbob_identify(k2, sizeof k2) != PLUMBOB_FORMAT_KEY); /* a byte too many */
        k2[0] = 2;
        CHECK(plumbob_identify(k2, sizeof key) != PLUMBOB_FORMAT_KEY); /* version 2 */
    }
}

/* A Sims 3 RCOL whose one internal chunk starts with "GEOM", found through
 * the chunk table (the keys are zero in real files), past external keys. */
void test_identify_geom(void) {
    unsigned char b[80];
    memset(b, 0, sizeof b);
    b[0] = 3;
    b[16] = 1;  /* one internal chunk, no external keys */
    b[36] = 44; /* its offset: right after the chunk table */
    b[40] = 36;
    memcpy(b + 44, "GEOM\x05", 5);
    CHECK_EQ(plumbob_identify(b, sizeof b), PLUMBOB_FORMAT_GEOM);
    CHECK(strcmp(plumbob_format_name(PLUMBOB_FORMAT_GEOM), "geom") == 0);
    CHECK_EQ(plumbob_identify(b, 47), PLUMBOB_FORMAT_UNKNOWN); /* cut inside the tag */
    b[47] = 'X';
    CHECK(plumbob_identify(b, sizeof b) != PLUMBOB_FORMAT_GEOM);
    b[47] = 'M';
    b[0] = 2; /* not version 3 */
    CHECK(plumbob_identify(b, sizeof b) != PLUMBOB_FORMAT_GEOM);
    /* one external key moves the table and the chunk by 16 */
    memset(b, 0, sizeof b);
    b[0] = 3;
    b[12] = 1;
    b[16] = 1;
    b[52] = 60;
    memcpy(b + 60, "GEOM", 4);
    CHECK_EQ(plumbob_identify(b, sizeof b), PLUMBOB_FORMAT_GEOM);
    /* a jazz resource stays jazz: its first key's type names it */
    memcpy(b + 28, "\x13\xDF\xD5\x02", 4);
    CHECK_EQ(plumbob_identify(b, sizeof b), PLUMBOB_FORMAT_JAZZ);
}
