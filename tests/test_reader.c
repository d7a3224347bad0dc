/* Bounded reader: both byte orders, every function at every misalignment,
 * sticky errors, skips, seeks, sub-ranges and a truncation sweep. */
#include <string.h>
#include "test.h"

static const unsigned char sample[] = {
    0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, /* u8 / u16 / u32 / u64 */
    0x00, 0x00, 0x80, 0x3F,                         /* 1.0f little-endian */
    0xC0, 0x49, 0x0F, 0xDB,                         /* -3.14159274f big-endian */
    0xFF, 0xFE, 0xFD, 0xFC, 0xFB, 0xFA, 0xF9, 0xF8,
};

void test_reader_little_endian(void) {
    plumbob_reader r;
    plumbob_reader_init(&r, sample, sizeof sample);
    CHECK_EQ(plumbob_read_u8(&r), 0x01);
    CHECK_EQ(plumbob_read_u16le(&r), 0x0302);
    CHECK_EQ(plumbob_read_u32le(&r), 0x07060504);
    plumbob_reader_seek(&r, 0);
    CHECK_EQ(plumbob_read_u64le(&r), 0x0807060504030201ull);
    CHECK_NEAR(plumbob_read_f32le(&r), 1.0, 0.0);
    plumbob_reader_seek(&r, 16);
    CHECK_EQ(plumbob_read_u64le(&r), 0xF8F9FAFBFCFDFEFFull);
    CHECK(plumbob_reader_ok(&r));
    CHECK_EQ(plumbob_reader_remaining(&r), 0);
    t_digest_u64(0x0807060504030201ull);
}

void test_reader_big_endian(void) {
    plumbob_reader r;
    float f;
    plumbob_reader_init(&r, sample, sizeof sample);
    CHECK_EQ(plumbob_read_u16be(&r), 0x0102);
    CHECK_EQ(plumbob_read_u32be(&r), 0x03040506);
    plumbob_reader_seek(&r, 0);
    CHECK_EQ(plumbob_read_u64be(&r), 0x0102030405060708ull);
    plumbob_reader_seek(&r, 12);
    f = plumbob_read_f32be(&r);
    CHECK_NEAR(f, -3.14159274, 1e-7);
    t_digest_f32(f);
    CHECK(plumbob_reader_ok(&r));
}

/* Each reader function on data placed at buffer + 1, + 2, + 3: a pointer
 * cast load would trap on armhf and mips here. */
void test_reader_misaligned(void) {
    unsigned char *buf = t_scratch();
    size_t shift;
    for (shift = 0; shift < 4; shift++) {
        plumbob_reader r;
        const unsigned char *bytes;
        plumbob_reader sub;
        memset(buf, 0xEE, 64);
        memcpy(buf + shift, sample, sizeof sample);
        plumbob_reader_init(&r, buf + shift, sizeof sample);
        CHECK_EQ(plumbob_read_u8(&r), 0x01);
        CHECK_EQ(plumbob_read_u16le(&r), 0x0302);
        CHECK_EQ(plumbob_read_u16be(&r), 0x0405);
        CHECK_EQ(plumbob_read_u8(&r), 0x06);
        plumbob_reader_seek(&r, 1);
        CHECK_EQ(plumbob_read_u32le(&r), 0x05040302);
        plumbob_reader_seek(&r, 1);
        CHECK_EQ(plumbob_read_u32be(&r), 0x02030405);
        plumbob_reader_seek(&r, 0);
        CHECK_EQ(plumbob_read_u64le(&r), 0x0807060504030201ull);
        plumbob_reader_seek(&r, 0);
        CHECK_EQ(plumbob_read_u64be(&r), 0x0102030405060708ull);
        CHECK_NEAR(plumbob_read_f32le(&r), 1.0, 0.0);
        CHECK_NEAR(plumbob_read_f32be(&r), -3.14159274, 1e-7);
        plumbob_reader_seek(&r, 3);
        bytes = plumbob_read_bytes(&r, 2);
        CHECK(bytes == buf + shift + 3);
        plumbob_reader_align4(&r);
        CHECK_EQ(r.pos, 8);
        sub = plumbob_reader_sub(&r, 5, 8);
        CHECK_EQ(plumbob_read_u16le(&sub), 0x0706);
        CHECK_EQ(plumbob_read_u32be(&sub), 0x08000080);
        plumbob_reader_skip(&sub, 2);
        CHECK_EQ(plumbob_reader_remaining(&sub), 0);
        CHECK(plumbob_reader_ok(&r));
        CHECK(plumbob_reader_ok(&sub));
    }
}

void test_reader_sticky_error(void) {
    plumbob_reader r;
    plumbob_reader_init(&r, sample, 3);
    CHECK_EQ(plumbob_read_u16le(&r), 0x0201);
    CHECK_EQ(plumbob_read_u32le(&r), 0); /* only 1 byte left */
    CHECK_EQ(r.error, PLUMBOB_ERR_TRUNCATED);
    CHECK_EQ(r.pos, 2);                  /* a failed read moves nothing */
    CHECK_EQ(plumbob_read_u8(&r), 0);    /* sticky: even a read that would fit */
    CHECK_EQ(plumbob_reader_remaining(&r), 0);
    plumbob_reader_fail(&r, PLUMBOB_ERR_BAD_DATA);
    CHECK_EQ(r.error, PLUMBOB_ERR_TRUNCATED); /* the first error wins */
    plumbob_reader_seek(&r, 0);
    CHECK_EQ(r.pos, 2);
    CHECK(plumbob_read_bytes(&r, 0) == NULL);
    plumbob_reader_init(&r, NULL, 10);
    CHECK_EQ(r.size, 0);
    CHECK_EQ(plumbob_read_u8(&r), 0);
    CHECK_EQ(r.error, PLUMBOB_ERR_TRUNCATED);
}

void test_reader_skip_align_seek(void) {
    plumbob_reader r;
    plumbob_reader_init(&r, sample, sizeof sample);
    plumbob_reader_skip(&r, 5);
    plumbob_reader_align4(&r);
    CHECK_EQ(r.pos, 8);
    plumbob_reader_align4(&r); /* already aligned: stays */
    CHECK_EQ(r.pos, 8);
    plumbob_reader_seek(&r, sizeof sample); /* end is a valid position */
    CHECK(plumbob_reader_ok(&r));
    plumbob_reader_seek(&r, sizeof sample + 1);
    CHECK_EQ(r.error, PLUMBOB_ERR_BAD_OFFSET);
    plumbob_reader_init(&r, sample, 6);
    plumbob_reader_skip(&r, 5);
    plumbob_reader_align4(&r); /* would need 8 bytes */
    CHECK_EQ(r.error, PLUMBOB_ERR_TRUNCATED);
    plumbob_reader_init(&r, sample, 6);
    plumbob_reader_skip(&r, (size_t)-1);
    CHECK_EQ(r.error, PLUMBOB_ERR_TRUNCATED);
}

void test_reader_sub_ranges(void) {
    plumbob_reader r, s;
    plumbob_reader_init(&r, sample, sizeof sample);
    plumbob_reader_skip(&r, 3);
    s = plumbob_reader_sub(&r, 8, 4);
    CHECK_EQ(r.pos, 3); /* the parent does not move */
    CHECK_NEAR(plumbob_read_f32le(&s), 1.0, 0.0);
    CHECK_EQ(plumbob_read_u8(&s), 0);
    CHECK_EQ(s.error, PLUMBOB_ERR_TRUNCATED); /* the view ends at its own end */
    s = plumbob_reader_sub(&r, sizeof sample, 0);
    CHECK(plumbob_reader_ok(&s));
    s = plumbob_reader_sub(&r, sizeof sample, 1);
    CHECK_EQ(s.error, PLUMBOB_ERR_BAD_OFFSET);
    s = plumbob_reader_sub(&r, 4, (size_t)-2); /* offset + size wraps */
    CHECK_EQ(s.error, PLUMBOB_ERR_BAD_OFFSET);
    CHECK_EQ(s.size, 0);
    r.error = PLUMBOB_ERR_BAD_DATA;
    s = plumbob_reader_sub(&r, 0, 4);
    CHECK_EQ(s.error, PLUMBOB_ERR_BAD_DATA); /* errors carry into views */
}

/* Reads a fixed record from every prefix of the sample: each prefix must
 * give exactly the values that fit and then one clean truncated error. */
void test_reader_truncation_sweep(void) {
    size_t len;
    for (len = 0; len <= sizeof sample; len++) {
        plumbob_reader r;
        uint64_t a, d;
        uint32_t b;
        float c;
        plumbob_reader_init(&r, sample, len);
        a = plumbob_read_u64le(&r);
        c = plumbob_read_f32le(&r);
        b = plumbob_read_u32be(&r);
        d = plumbob_read_u64be(&r);
        if (len == sizeof sample) {
            CHECK(plumbob_reader_ok(&r));
            CHECK_EQ(b, 0xC0490FDBu);
            CHECK_EQ(d, 0xFFFEFDFCFBFAF9F8ull);
        } else {
            CHECK_EQ(r.error, PLUMBOB_ERR_TRUNCATED);
            CHECK(r.pos <= len);
        }
        CHECK(len < 8 ? a == 0 : a == 0x0807060504030201ull);
        CHECK(len < 12 ? c == 0.0f : c == 1.0f);
        t_digest_u32((uint32_t)r.pos);
    }
}
