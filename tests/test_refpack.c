/* RefPack: header forms, a hand-assembled stream with every command, round
 * trips through our compressor, malformed streams, truncation and bit flips. */
#include <string.h>
#include "test.h"

void test_refpack_header_forms(void) {
    static const unsigned char h3[] = {0x10, 0xFB, 0x01, 0x02, 0x03};
    static const unsigned char h4[] = {0x90, 0xFB, 0x01, 0x02, 0x03, 0x04};
    static const unsigned char hc[] = {0x11, 0xFB, 0x00, 0x00, 0x09, 0x00, 0x00, 0x20};
    size_t size, hdr;
    CHECK_OK(plumbob_refpack_header(h3, sizeof h3, &size, &hdr));
    CHECK_EQ(size, 0x010203);
    CHECK_EQ(hdr, 5);
    CHECK_OK(plumbob_refpack_header(h4, sizeof h4, &size, &hdr));
    CHECK_EQ(size, 0x01020304);
    CHECK_EQ(hdr, 6);
    CHECK_OK(plumbob_refpack_header(hc, sizeof hc, &size, &hdr)); /* compressed size first */
    CHECK_EQ(size, 0x20);
    CHECK_EQ(hdr, 8);
    CHECK_EQ(plumbob_refpack_header(h3, 4, &size, &hdr), PLUMBOB_ERR_TRUNCATED);
    CHECK_EQ(plumbob_refpack_header(h3, 1, &size, &hdr), PLUMBOB_ERR_TRUNCATED);
    {
        unsigned char bad[5];
        memcpy(bad, h3, 5);
        bad[1] = 0xFA;
        CHECK_EQ(plumbob_refpack_header(bad, 5, &size, &hdr), PLUMBOB_ERR_BAD_MAGIC);
        bad[1] = 0xFB;
        bad[0] = 0x00; /* 0x10 missing */
        CHECK_EQ(plumbob_refpack_header(bad, 5, &size, &hdr), PLUMBOB_ERR_BAD_MAGIC);
        bad[0] = 0x12; /* unknown flag bit */
        CHECK_EQ(plumbob_refpack_header(bad, 5, &size, &hdr), PLUMBOB_ERR_BAD_MAGIC);
        bad[0] = 0x30;
        CHECK_EQ(plumbob_refpack_header(bad, 5, &size, &hdr), PLUMBOB_ERR_BAD_MAGIC);
    }
    { /* 0x40, the "restricted window" flag some encoders set: read as without it */
        static const unsigned char stream[] = {0x50, 0xFB, 0x00, 0x00, 0x05, 0xE0, 'a', 'b', 'c', 'd', 0xFD, 'e'};
        unsigned char out[5];
        size_t n = 0;
        CHECK_OK(plumbob_refpack_header(stream, sizeof stream, &size, &hdr));
        CHECK(size == 5 && hdr == 5);
        CHECK_OK(plumbob_refpack_decompress(stream, sizeof stream, out, sizeof out, &n));
        CHECK(n == 5 && memcmp(out, "abcde", 5) == 0);
        CHECK_EQ(plumbob_identify(stream, sizeof stream), PLUMBOB_FORMAT_REFPACK);
    }
    CHECK_EQ(plumbob_refpack_header(NULL, 5, &size, &hdr), PLUMBOB_ERR_INVALID_ARGUMENT);
}

/* Every command form, assembled by hand:
 *   E0 + 4 literals          "abcd"
 *   2-byte: 1 lit 'e', len 3, off 5       -> "e" + "abc"
 *   3-byte: 2 lits "fg", len 4, off 10    -> "fg" + "abcd"
 *   4-byte: 3 lits "hij", len 5, off 16   -> "hij" + "bcdea"
 *   stop with 2 trailing literals "kl"
 * Output: "abcdeabcfgabcdhijbcdeakl" (24 bytes). */
void test_refpack_every_command(void) {
    static const unsigned char stream[] = {
        0x10, 0xFB, 0x00, 0x00, 24,
        0xE0, 'a', 'b', 'c', 'd',
        0x01, 0x04, 'e',
        0x80, 0x80, 0x09, 'f', 'g',
        0xC3, 0x00, 0x0F, 0x00, 'h', 'i', 'j',
        0xFE, 'k', 'l',
    };
    static const char want[] = "abcdeabcfgabcdhijbcdeakl";
    unsigned char out[32];
    size_t n = 0;
    memset(out, 0x55, sizeof out);
    CHECK_OK(plumbob_refpack_decompress(stream, sizeof stream, out, 24, &n));
    CHECK_EQ(n, 24);
    CHECK(memcmp(out, want, 24) == 0);
    t_digest_bytes(out, n);
    /* overlapping copy (off 1 repeats one byte), the run-length case */
    {
        static const unsigned char rle[] = {0x10, 0xFB, 0x00, 0x00, 11, 0x1D, 0x00, 'z', 0xFC};
        CHECK_OK(plumbob_refpack_decompress(rle, sizeof rle, out, sizeof out, &n));
        CHECK_EQ(n, 11);
        CHECK(memcmp(out, "zzzzzzzzzzz", 11) == 0);
    }
}

void test_refpack_malformed(void) {
    unsigned char out[64];
    size_t n;
    /* copy from before the start */
    static const unsigned char before[] = {0x10, 0xFB, 0x00, 0x00, 4, 0x00, 0x01, 0xFC};
    /* output longer than declared */
    static const unsigned char longer[] = {0x10, 0xFB, 0x00, 0x00, 2, 0xE0, 'a', 'b', 'c', 'd', 0xFC};
    /* output shorter than declared */
    static const unsigned char shorter[] = {0x10, 0xFB, 0x00, 0x00, 9, 0xE0, 'a', 'b', 'c', 'd', 0xFC};
    /* literals run past the input */
    static const unsigned char litpast[] = {0x10, 0xFB, 0x00, 0x00, 8, 0xE1, 'a', 'b'};
    /* no stop command and output not full */
    static const unsigned char nostop[] = {0x10, 0xFB, 0x00, 0x00, 8, 0xE0, 'a', 'b', 'c', 'd'};
    /* no stop but output exactly full: accepted */
    static const unsigned char fullnostop[] = {0x10, 0xFB, 0x00, 0x00, 4, 0xE0, 'a', 'b', 'c', 'd'};
    /* command cut in the middle */
    static const unsigned char cut[] = {0x10, 0xFB, 0x00, 0x00, 8, 0xE0, 'a', 'b', 'c', 'd', 0xC0, 0x00};
    CHECK_EQ(plumbob_refpack_decompress(before, sizeof before, out, sizeof out, &n), PLUMBOB_ERR_BAD_OFFSET);
    CHECK_EQ(plumbob_refpack_decompress(longer, sizeof longer, out, sizeof out, &n), PLUMBOB_ERR_BAD_COUNT);
    CHECK_EQ(plumbob_refpack_decompress(shorter, sizeof shorter, out, sizeof out, &n), PLUMBOB_ERR_BAD_COUNT);
    CHECK_EQ(plumbob_refpack_decompress(litpast, sizeof litpast, out, sizeof out, &n), PLUMBOB_ERR_TRUNCATED);
    CHECK_EQ(plumbob_refpack_decompress(nostop, sizeof nostop, out, sizeof out, &n), PLUMBOB_ERR_TRUNCATED);
    CHECK_OK(plumbob_refpack_decompress(fullnostop, sizeof fullnostop, out, sizeof out, &n));
    CHECK_EQ(plumbob_refpack_decompress(cut, sizeof cut, out, sizeof out, &n), PLUMBOB_ERR_TRUNCATED);
    CHECK_EQ(plumbob_refpack_decompress(shorter, sizeof shorter, out, 8, &n), PLUMBOB_ERR_OUT_OF_MEMORY);
    CHECK_EQ(plumbob_refpack_decompress(shorter, sizeof shorter, NULL, 8, &n), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_refpack_decompress(shorter, sizeof shorter, out, 64, NULL), PLUMBOB_ERR_INVALID_ARGUMENT);
}

/* Fills buf with one of several kinds of synthetic data. */
static void make_data(unsigned char *buf, size_t n, int kind, uint32_t seed) {
    size_t i;
    uint32_t s = seed;
    for (i = 0; i < n; i++) {
        switch (kind) {
        case 0: buf[i] = (unsigned char)t_rand(&s); break;                 /* random */
        case 1: buf[i] = (unsigned char)("plumbob "[i % 8]); break;        /* repetitive */
        case 2: buf[i] = 0; break;                                        /* zeros */
        case 3: /* text-like: words from a small vocabulary, varied spacing */
            if (i % 7 == 0) s = t_rand(&s);
            buf[i] = (unsigned char)("the sim walks to the fridge and eats "[(s >> (i % 5)) % 37]);
            break;
        default: /* float tracks: slowly varying little-endian floats */
            buf[i] = (unsigned char)((i & 3) == 3 ? 0x3F : (i * 7 / 64) & 0xFF);
            break;
        }
    }
}

void test_refpack_round_trip(void) {
    static const size_t sizes[] = {0, 1, 2, 3, 4, 5, 7, 112, 113, 1000, 1029, 70000, 150000};
    unsigned char *in = t_scratch(), *back = t_scratch() + 160000, *comp = t_arena_mem();
    size_t si;
    int kind;
    for (kind = 0; kind < 5; kind++) {
        for (si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
            size_t n = sizes[si], cn = 0, dn = 0;
            make_data(in, n, kind, (uint32_t)(n * 31u + (size_t)kind + 1u));
            CHECK(plumbob_refpack_bound(n) <= T_ARENA_SIZE);
            CHECK_OK(plumbob_refpack_compress(in, n, comp, plumbob_refpack_bound(n), t_work(),
                                              plumbob_refpack_compress_work_size(), &cn));
            CHECK(cn <= plumbob_refpack_bound(n));
            CHECK_OK(plumbob_refpack_decompress(comp, cn, back, n, &dn));
            CHECK_EQ(dn, n);
            CHECK(memcmp(in, back, n) == 0);
            if (kind == 1 && n >= 1000) CHECK(cn < n / 20);  /* repetitive data must shrink */
            /* zeros: header, one literal, 4-byte copies of up to 1028 bytes, stop */
            if (kind == 2 && n >= 1000) CHECK(cn <= 5 + 1 + 4 * (n / 1028 + 1) + 1);
            if (kind == 0) CHECK(cn <= n + n / 112 + 9); /* random data barely grows */
            t_digest_u32((uint32_t)cn);
            t_digest_bytes(comp, cn); /* the compressor is deterministic on every target */
        }
    }
    /* too small an output buffer is reported, not overrun */
    {
        size_t cn;
        make_data(in, 5000, 0, 7);
        CHECK_EQ(plumbob_refpack_compress(in, 5000, comp, 100, t_work(),
                                          plumbob_refpack_compress_work_size(), &cn),
                 PLUMBOB_ERR_OUT_OF_MEMORY);
        CHECK_EQ(plumbob_refpack_compress(in, 5000, comp, 9000, t_work(), 1000, &cn),
                 PLUMBOB_ERR_INVALID_ARGUMENT);
    }
    /* work memory at an odd address works (the tables are aligned inside it) */
    {
        size_t cn = 0, dn = 0;
        make_data(in, 3000, 3, 9);
        CHECK_OK(plumbob_refpack_compress(in, 3000, comp, plumbob_refpack_bound(3000), t_work() + 1,
                                          plumbob_refpack_compress_work_size(), &cn));
        CHECK_OK(plumbob_refpack_decompress(comp, cn, back, 3000, &dn));
        CHECK(dn == 3000 && memcmp(in, back, 3000) == 0);
    }
}

/* The compile-time sizes: a game declares its compressor memory with the
 * macros, and the queries give the same numbers. */
typedef char t_work_fits_macro[PLUMBOB_REFPACK_COMPRESS_WORK_SIZE <= T_WORK_SIZE ? 1 : -1];

void test_refpack_sizes_match_macros(void) {
    static const size_t sizes[] = {0, 1, 111, 112, 113, 4000, 65536, 0x7FFFFFFFu};
    static unsigned char out[PLUMBOB_REFPACK_BOUND(4000)]; /* a static buffer sized at compile time */
    unsigned char *in = t_scratch(), *back = t_scratch() + 8192;
    size_t i, cn = 0, dn = 0;
    CHECK_EQ(plumbob_refpack_compress_work_size(), PLUMBOB_REFPACK_COMPRESS_WORK_SIZE);
    CHECK_EQ(PLUMBOB_REFPACK_COMPRESS_WORK_SIZE, 786435u);
    for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        CHECK_EQ(plumbob_refpack_bound(sizes[i]), PLUMBOB_REFPACK_BOUND(sizes[i]));
        t_digest_u64(plumbob_refpack_bound(sizes[i]));
    }
    CHECK_EQ(PLUMBOB_REFPACK_BOUND(112), 122u);
    /* too big for size_t: SIZE_MAX, never a wrapped small number */
    CHECK_EQ(plumbob_refpack_bound(SIZE_MAX), SIZE_MAX);
    CHECK_EQ(plumbob_refpack_bound(SIZE_MAX - 8u), SIZE_MAX);
    /* incompressible input fits the macro's buffer exactly as declared */
    make_data(in, 4000, 0, 0xB0u);
    CHECK_OK(plumbob_refpack_compress(in, 4000, out, sizeof out, t_work(), PLUMBOB_REFPACK_COMPRESS_WORK_SIZE, &cn));
    CHECK(cn > 4000u && cn <= sizeof out);
    CHECK_OK(plumbob_refpack_decompress(out, cn, back, 4000, &dn));
    CHECK(dn == 4000 && memcmp(in, back, 4000) == 0);
    /* one byte less work memory is refused */
    CHECK_EQ(plumbob_refpack_compress(in, 4000, out, sizeof out, t_work(), PLUMBOB_REFPACK_COMPRESS_WORK_SIZE - 1u,
                                      &cn),
             PLUMBOB_ERR_INVALID_ARGUMENT);
}

/* Every prefix of a stream decodes to OK (only the whole stream) or a named
 * error; every single-bit flip gives OK or a named error.  ASan and the
 * strict-alignment targets watch for any access outside the buffers. */
void test_refpack_truncation_and_bitflips(void) {
    unsigned char *in = t_scratch(), *out = t_scratch() + 65536, *comp = t_arena_mem();
    size_t n = 3000, cn = 0, len, dn, bit;
    int oks = 0, errors[PLUMBOB_RESULT_COUNT] = {0};
    make_data(in, n, 3, 99);
    CHECK_OK(plumbob_refpack_compress(in, n, comp, plumbob_refpack_bound(n), t_work(),
                                      plumbob_refpack_compress_work_size(), &cn));
    for (len = 0; len < cn; len++) {
        plumbob_result r = plumbob_refpack_decompress(comp, len, out, n, &dn);
        if (r == PLUMBOB_OK) {
            /* only a prefix that lacks just a bare stop byte may decode, and
             * then it must give the whole, right output */
            CHECK_EQ(len, cn - 1);
            CHECK(dn == n && memcmp(out, in, n) == 0);
        } else {
            CHECK(r == PLUMBOB_ERR_TRUNCATED || r == PLUMBOB_ERR_BAD_COUNT);
        }
    }
    for (bit = 0; bit < cn * 8; bit++) {
        plumbob_result r;
        comp[bit / 8] ^= (unsigned char)(1u << (bit % 8));
        r = plumbob_refpack_decompress(comp, cn, out, n, &dn);
        comp[bit / 8] ^= (unsigned char)(1u << (bit % 8));
        CHECK((unsigned)r < PLUMBOB_RESULT_COUNT);
        if (r == PLUMBOB_OK) oks++; else errors[r]++;
        if (r == PLUMBOB_OK) CHECK_EQ(dn, n);
    }
    t_digest_u32((uint32_t)oks);
    /* the codes the digest has always counted; no later code comes from a decoder */
    for (bit = 0; bit < PLUMBOB_RESULT_COUNT; bit++) {
        if (bit <= PLUMBOB_ERR_UNREACHABLE) t_digest_u32((uint32_t)errors[bit]);
        else CHECK_EQ(errors[bit], 0);
    }
    CHECK(oks > 0);                                     /* literal bit flips still decode */
    CHECK(errors[PLUMBOB_ERR_BAD_COUNT] > 0);           /* and many flips are caught */
}

/* A byte-at-a-time decoder written from the format table, with the core's
 * documented error order: the core's fast loop must give the same bytes
 * and the same error on every stream. */
static plumbob_result ref_decode(const unsigned char *s, size_t n, unsigned char *out, size_t size) {
    size_t i = 5, o = 0, k; /* 3-byte-size header */
    for (;;) {
        size_t lit, len = 0, off = 0, avail = n - i;
        unsigned b0;
        int stop = 0;
        if (avail == 0) return o == size ? PLUMBOB_OK : PLUMBOB_ERR_TRUNCATED;
        b0 = s[i];
        if (b0 < 0x80u) {
            if (avail < 2) return PLUMBOB_ERR_TRUNCATED;
            lit = b0 & 3u; len = ((b0 >> 2) & 7u) + 3u; off = ((b0 & 0x60u) << 3) + s[i + 1] + 1u; i += 2;
        } else if (b0 < 0xC0u) {
            if (avail < 3) return PLUMBOB_ERR_TRUNCATED;
            lit = s[i + 1] >> 6u; len = (b0 & 0x3Fu) + 4u; off = ((s[i + 1] & 0x3Fu) << 8) + s[i + 2] + 1u; i += 3;
        } else if (b0 < 0xE0u) {
            if (avail < 4) return PLUMBOB_ERR_TRUNCATED;
            lit = b0 & 3u; len = ((b0 & 0x0Cu) << 6) + s[i + 3] + 5u;
            off = ((b0 & 0x10u) << 12) + ((size_t)s[i + 1] << 8) + s[i + 2] + 1u; i += 4;
        } else if (b0 < 0xFCu) {
            lit = ((b0 & 0x1Fu) << 2) + 4u; i += 1;
        } else {
            lit = b0 & 3u; stop = 1; i += 1;
        }
        if (lit > n - i) return PLUMBOB_ERR_TRUNCATED;
        if (lit > size - o) return PLUMBOB_ERR_BAD_COUNT;
        for (k = 0; k < lit; k++) out[o++] = s[i++];
        if (len) {
            if (off > o) return PLUMBOB_ERR_BAD_OFFSET;
            if (len > size - o) return PLUMBOB_ERR_BAD_COUNT;
            for (k = 0; k < len; k++, o++) out[o] = out[o - off];
        }
        if (stop) return o == size ? PLUMBOB_OK : PLUMBOB_ERR_BAD_COUNT;
    }
}

/* Random command streams (every form, offsets 1..17 and far ones, a few
 * offsets before the start, sizes declared one off now and then, cuts
 * anywhere): the decoder agrees with ref_decode in result and bytes. */
void test_refpack_matches_reference_decoder(void) {
    unsigned char *s = t_scratch(), *want = t_scratch() + 65536, *got = t_scratch() + 196608;
    uint32_t r = 12345, stream;
    int results[PLUMBOB_RESULT_COUNT] = {0};
    for (stream = 0; stream < 400; stream++) {
        size_t n = 5, produced = 0, size, cut, dn = 0, k;
        plumbob_result a, b;
        while (n < 40000 && produced < 100000) {
            uint32_t pick = t_rand(&r) % 16u, lit = t_rand(&r) % 4u;
            size_t len, off, span = produced + lit;
            if (pick < 4 || span == 0) { /* literal run */
                size_t run = 4u * (t_rand(&r) % 28u + 1u);
                s[n++] = (unsigned char)(0xE0u | ((run - 4u) >> 2));
                for (k = 0; k < run; k++) s[n++] = (unsigned char)t_rand(&r);
                produced += run;
                continue;
            }
            off = t_rand(&r) % 8u == 0 ? t_rand(&r) % 17u + 1u : t_rand(&r) % span + 1u;
            if (off > span) off = span;
            if (stream % 8 == 6 && t_rand(&r) % 512u == 0) off = span + 1u + t_rand(&r) % 4u; /* before the start */
            if (pick < 10 && off <= 1024) {
                len = t_rand(&r) % 8u + 3u;
                s[n++] = (unsigned char)((((off - 1u) >> 3) & 0x60u) | ((len - 3u) << 2) | lit);
                s[n++] = (unsigned char)((off - 1u) & 0xFFu);
            } else if (pick < 14 && off <= 16384) {
                len = t_rand(&r) % 64u + 4u;
                s[n++] = (unsigned char)(0x80u | (len - 4u));
                s[n++] = (unsigned char)((lit << 6) | ((off - 1u) >> 8));
                s[n++] = (unsigned char)((off - 1u) & 0xFFu);
            } else {
                if (off > 131072) off = 131072;
                len = t_rand(&r) % 8u == 0 ? t_rand(&r) % 1024u + 5u : t_rand(&r) % 40u + 5u;
                s[n++] = (unsigned char)(0xC0u | ((((off - 1u) >> 16) & 1u) << 4) | (((len - 5u) >> 8) << 2) | lit);
                s[n++] = (unsigned char)(((off - 1u) >> 8) & 0xFFu);
                s[n++] = (unsigned char)((off - 1u) & 0xFFu);
                s[n++] = (unsigned char)((len - 5u) & 0xFFu);
            }
            for (k = 0; k < lit; k++) s[n++] = (unsigned char)t_rand(&r);
            produced += lit + len;
        }
        s[n++] = 0xFD; /* stop with one literal */
        s[n++] = 'z';
        produced += 1;
        size = produced;
        if (stream % 8 == 3) size += 1;
        if (stream % 8 == 5) size -= 1;
        s[0] = 0x10; s[1] = 0xFB;
        s[2] = (unsigned char)(size >> 16); s[3] = (unsigned char)(size >> 8); s[4] = (unsigned char)size;
        cut = stream % 4 == 1 ? 5u + t_rand(&r) % (n - 5u) : n;
        a = ref_decode(s, cut, want, size);
        b = plumbob_refpack_decompress(s, cut, got, size, &dn);
        CHECK_EQ(b, a);
        if (a == PLUMBOB_OK) CHECK(dn == size && memcmp(got, want, size) == 0);
        if ((unsigned)a < PLUMBOB_RESULT_COUNT) results[a]++;
    }
    /* the streams reach every outcome */
    CHECK(results[PLUMBOB_OK] > 50);
    CHECK(results[PLUMBOB_ERR_BAD_OFFSET] > 10);
    CHECK(results[PLUMBOB_ERR_BAD_COUNT] > 10);
    CHECK(results[PLUMBOB_ERR_TRUNCATED] > 10);
    /* the codes the digest has always counted; no later code comes from a decoder */
    for (stream = 0; stream < PLUMBOB_RESULT_COUNT; stream++) {
        if (stream <= PLUMBOB_ERR_UNREACHABLE) t_digest_u32((uint32_t)results[stream]);
        else CHECK_EQ(results[stream], 0);
    }
}
