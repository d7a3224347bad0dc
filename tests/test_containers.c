/* KEY name tables, 7-bit strings and the Sims 2 RCOL wrapper. */
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include "test.h"
#include "pb_bytes.h"

/* Writes v little-endian and returns its size (the core's byte helper). */
static size_t put32(unsigned char *p, uint32_t v) {
    pb_put_le32(p, v);
    return 4;
}

static size_t make_key_table(unsigned char *b) {
    size_t n = 0;
    n += put32(b + n, 1);
    n += put32(b + n, 2);
    n += put32(b + n, 0x336A8701u); n += put32(b + n, 0x91B95750u);
    n += put32(b + n, 12); memcpy(b + n, "petgardening", 12); n += 12;
    n += put32(b + n, 7); n += put32(b + n, 0);
    n += put32(b + n, 0);
    return n;
}

void test_key_table(void) {
    unsigned char *b = t_scratch();
    size_t n = make_key_table(b), len;
    plumbob_key_table kt;
    plumbob_string name;
    uint64_t inst;
    CHECK_OK(plumbob_key_table_open(&kt, b, n));
    CHECK_EQ(kt.count, 2);
    CHECK_OK(plumbob_key_table_find(&kt, 0x91B95750336A8701ull, &name));
    CHECK(name.len == 12 && memcmp(name.ptr, "petgardening", 12) == 0);
    CHECK_OK(plumbob_key_table_entry(&kt, 1, &inst, &name));
    CHECK_EQ(inst, 7);
    CHECK_EQ(name.len, 0);
    CHECK_EQ(plumbob_key_table_find(&kt, 8, &name), PLUMBOB_ERR_NOT_FOUND);
    CHECK_EQ(plumbob_key_table_entry(&kt, 2, &inst, &name), PLUMBOB_ERR_BAD_INDEX);
    for (len = 0; len < n; len++) { /* every prefix: truncated, inside the prefix (issue 47) */
        plumbob_error err;
        CHECK_EQ(plumbob_key_table_open_ex(&kt, b, len, &err), PLUMBOB_ERR_TRUNCATED);
        CHECK(err.result == PLUMBOB_ERR_TRUNCATED && err.offset <= len);
    }
    { /* open -> write gives the bytes back; a short output, an unopened table refused */
        unsigned char out[64];
        size_t w = 0;
        plumbob_key_table none;
        memset(&none, 0, sizeof none);
        CHECK_OK(plumbob_key_table_open(&kt, b, n));
        CHECK_EQ(plumbob_key_table_write_size(&kt), n);
        CHECK(n <= sizeof out);
        CHECK_OK(plumbob_key_table_write(&kt, out, sizeof out, &w));
        CHECK(w == n && memcmp(out, b, n) == 0);
        CHECK_EQ(plumbob_key_table_write(&kt, out, n - 1, &w), PLUMBOB_ERR_OUT_OF_MEMORY);
        CHECK_EQ(plumbob_key_table_write_size(&none), SIZE_MAX);
        CHECK_EQ(plumbob_key_table_write(&none, out, sizeof out, &w), PLUMBOB_ERR_INVALID_ARGUMENT);
        CHECK_EQ(plumbob_key_table_write_size(NULL), SIZE_MAX);
        b[0] = 2; /* the version is the signature: another is another kind */
        CHECK_EQ(plumbob_key_table_open(&kt, b, n), PLUMBOB_ERR_BAD_MAGIC);
        b[0] = 1;
    }
    b[4] = 0xFF; /* count far beyond the bytes: the input ends early (issue 47) */
    CHECK_EQ(plumbob_key_table_open(&kt, b, n), PLUMBOB_ERR_TRUNCATED);
    t_digest_u64(0x91B95750336A8701ull);
}

void test_string7(void) {
    static const unsigned char one[] = {3, 'a', 'b', 'c'};
    static const unsigned char two[] = {0x81, 0x01, 'x'}; /* 129: truncated */
    static const unsigned char bad[] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01};
    plumbob_reader r;
    plumbob_string s;
    plumbob_reader_init(&r, one, sizeof one);
    s = plumbob_read_string7(&r);
    CHECK(s.len == 3 && memcmp(s.ptr, "abc", 3) == 0);
    plumbob_reader_init(&r, two, sizeof two);
    s = plumbob_read_string7(&r);
    CHECK_EQ(r.error, PLUMBOB_ERR_TRUNCATED);
    CHECK(s.ptr == NULL);
    plumbob_reader_init(&r, bad, sizeof bad);
    (void)plumbob_read_string7(&r);
    CHECK_EQ(r.error, PLUMBOB_ERR_BAD_DATA);
    {
        static const unsigned char padded[] = {0x83, 0x00, 'a', 'b', 'c'}; /* 3, non-canonically */
        static const unsigned char long_ok[] = {0x80, 0x01};            /* 128: canonical */
        plumbob_reader_init(&r, padded, sizeof padded);
        (void)plumbob_read_string7(&r);
        CHECK_EQ(r.error, PLUMBOB_ERR_BAD_DATA);
        plumbob_reader_init(&r, long_ok, sizeof long_ok);
        (void)plumbob_read_string7(&r);
        CHECK_EQ(r.error, PLUMBOB_ERR_TRUNCATED); /* 128 bytes announced, none there */
    }
}

/* A Sims 2 RCOL with one link and one block head, in either link form. */
static size_t make_rcol(unsigned char *b, int long_links) {
    size_t n = 0;
    if (long_links) { n += put32(b + n, 0xFFFF0001u); n += put32(b + n, 1); }
    else n += put32(b + n, 1);
    n += put32(b + n, 0x1C0532FAu); n += put32(b + n, 0xFF3BD317u);
    if (long_links) n += put32(b + n, 0x0E007074u);
    n += put32(b + n, 0x7BA3838Cu);
    n += put32(b + n, 1);
    n += put32(b + n, PLUMBOB_TYPE_GMDC);
    b[n++] = 22; memcpy(b + n, "cGeometryDataContainer", 22); n += 22;
    n += put32(b + n, PLUMBOB_TYPE_GMDC);
    n += put32(b + n, 4);
    b[n++] = 11; memcpy(b + n, "cSGResource", 11); n += 11;
    n += put32(b + n, 0);
    n += put32(b + n, 2);
    b[n++] = 6; memcpy(b + n, "teapot", 6); n += 6;
    return n;
}

void test_sims2_rcol(void) {
    int form;
    for (form = 0; form < 2; form++) {
        unsigned char *b = t_scratch();
        size_t n = make_rcol(b, form), len;
        plumbob_sims2_rcol rc;
        plumbob_sims2_link link;
        plumbob_sims2_block_head h;
        plumbob_reader r;
        CHECK_OK(plumbob_sims2_rcol_open(&rc, b, n));
        CHECK_EQ(rc.long_links, form);
        CHECK_EQ(rc.link_count, 1);
        CHECK_OK(plumbob_sims2_rcol_link(&rc, 0, &link));
        CHECK_EQ(link.type, 0x7BA3838Cu);
        CHECK_EQ(link.instance_hi, form ? 0x0E007074u : 0);
        CHECK_EQ(plumbob_sims2_rcol_link(&rc, 1, &link), PLUMBOB_ERR_BAD_INDEX);
        CHECK_EQ(plumbob_sims2_rcol_block_id(&rc, 0), PLUMBOB_TYPE_GMDC);
        CHECK_EQ(plumbob_identify(b, n), PLUMBOB_FORMAT_GMDC);
        plumbob_reader_init(&r, b, n);
        plumbob_reader_seek(&r, rc.first_block_offset);
        CHECK_OK(plumbob_sims2_block_head_read(&r, &h));
        CHECK_EQ(h.version, 4);
        CHECK(h.resource_name.len == 6 && memcmp(h.resource_name.ptr, "teapot", 6) == 0);
        CHECK_EQ(r.pos, n);
        for (len = 0; len < n; len++) { /* truncation sweep over header and block head */
            if (plumbob_sims2_rcol_open(&rc, b, len) != PLUMBOB_OK) continue;
            plumbob_reader_init(&r, b, len);
            plumbob_reader_seek(&r, rc.first_block_offset);
            CHECK(plumbob_sims2_block_head_read(&r, &h) == PLUMBOB_ERR_TRUNCATED);
        }
        b[form ? 8 + 16 + 4 + 4 + 23 + 8 + 1 : 4 + 12 + 4 + 4 + 23 + 8 + 1] = 'X'; /* cSGResource -> XSGResource */
        plumbob_reader_init(&r, b, n);
        plumbob_reader_seek(&r, rc.first_block_offset);
        CHECK_EQ(plumbob_sims2_block_head_read(&r, &h), PLUMBOB_ERR_BAD_MAGIC);
        t_digest_u32((uint32_t)n);
    }
    {
        unsigned char b[16];
        plumbob_sims2_rcol rc;
        memset(b, 0, sizeof b);
        CHECK_EQ(plumbob_sims2_rcol_open(&rc, b, 8), PLUMBOB_ERR_BAD_MAGIC); /* no blocks: not an RCOL */
        b[0] = 0xFF; b[1] = 0xFF; b[2] = 0x7F;
        CHECK_EQ(plumbob_sims2_rcol_open(&rc, b, 16), PLUMBOB_ERR_BAD_MAGIC); /* absurd link count: not an RCOL */
        b[0] = 0x01; b[1] = 0x00; b[2] = 0xFF; b[3] = 0xFF; b[4] = 0x01; b[6] = 0x01; /* the marker, then 65,537 links */
        CHECK_EQ(plumbob_sims2_rcol_open(&rc, b, 16), PLUMBOB_ERR_BAD_COUNT);
    }
}

void test_containers_corpus(void) {
    size_t size;
    unsigned char *data = t_corpus_load("sims3/WarriorCats.package", &size);
    plumbob_package pkg;
    plumbob_package_entry e;
    plumbob_key_table kt;
    plumbob_string name;
    const unsigned char *res;
    size_t rs;
    unsigned char *buf;
    if (!data) T_SKIP(t_corpus_missing());
    CHECK_OK(plumbob_package_open(&pkg, data, size));
    CHECK_OK(plumbob_package_find(&pkg, PLUMBOB_TYPE_KEY, 0, 0, &e, NULL));
    buf = (unsigned char *)malloc(e.mem_size);
    CHECK_OK(plumbob_package_read(&pkg, &e, buf, e.mem_size, &res, &rs));
    CHECK_OK(plumbob_key_table_open(&kt, res, rs));
    CHECK_EQ(kt.count, 111);
    CHECK_OK(plumbob_key_table_find(&kt, 0x48ED3A6003E9AD6Dull, &name));
    CHECK(name.len == 5 && memcmp(name.ptr, "my.cs", 5) == 0);
    t_digest_u32(kt.count);
    free(buf);
    free(data);

    data = t_corpus_load("sims2/teapot_model.package", &size);
    if (!data) T_SKIP(t_corpus_missing());
    CHECK_OK(plumbob_package_open(&pkg, data, size));
    CHECK_OK(plumbob_package_entry_at(&pkg, 0, &e));
    CHECK_OK(plumbob_package_read(&pkg, &e, NULL, 0, &res, &rs));
    {
        plumbob_sims2_rcol rc;
        plumbob_sims2_block_head h;
        plumbob_reader r;
        CHECK_OK(plumbob_sims2_rcol_open(&rc, res, rs));
        CHECK(rc.long_links);
        CHECK_EQ(rc.link_count, 0);
        plumbob_reader_init(&r, res, rs);
        plumbob_reader_seek(&r, rc.first_block_offset);
        CHECK_OK(plumbob_sims2_block_head_read(&r, &h));
        CHECK(h.class_name.len == 22 && memcmp(h.class_name.ptr, "cGeometryDataContainer", 22) == 0);
        CHECK_EQ(h.version, 4);
        CHECK(h.resource_name.len == 21 && memcmp(h.resource_name.ptr, "teapot_tslocator_gmdc", 21) == 0);
        t_digest_bytes(h.resource_name.ptr, h.resource_name.len);
    }
    free(data);
}
