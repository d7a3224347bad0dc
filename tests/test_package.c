/* DBPF packages: writer round trips (2.0 and 1.1), lookups, malformed input,
 * truncation and bit-flip sweeps, and the real sample packages. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "test.h"

/* Builds a small package of `major` with a mix of stored and RefPack
 * entries into out; returns its size.  payloads go to scratch. */
static size_t build_package(uint32_t major, unsigned char *out, size_t cap) {
    plumbob_package_write_entry e[4];
    unsigned char *raw = t_scratch(), *comp = t_scratch() + 8192;
    size_t cn = 0, n = 0;
    int i;
    for (i = 0; i < 2000; i++) raw[i] = (unsigned char)("clip data "[i % 10] + (i / 500));
    CHECK_OK(plumbob_refpack_compress(raw, 2000, comp, 4096, t_work(),
                                      plumbob_refpack_compress_work_size(), &cn));
    memset(e, 0, sizeof e);
    e[0].type = PLUMBOB_TYPE_CLIP; e[0].group = 0; e[0].instance = 0x3D40CC19DAAFD164ull;
    e[0].data = comp; e[0].size = (uint32_t)cn; e[0].mem_size = 2000;
    e[0].compression = PLUMBOB_COMPRESSION_REFPACK;
    e[1].type = PLUMBOB_TYPE_KEY; e[1].group = 0; e[1].instance = 0;
    e[1].data = "key table"; e[1].size = 9; e[1].mem_size = 9;
    e[2].type = PLUMBOB_TYPE_CLIP; e[2].group = PLUMBOB_CLIP_GROUP_PETS; e[2].instance = 0xBC78ECD3046CB427ull;
    e[2].data = raw; e[2].size = 100; e[2].mem_size = 100;
    e[3].type = PLUMBOB_TYPE_JAZZ; e[3].group = 0; e[3].instance = 0x91B95750336A8701ull;
    e[3].data = ""; e[3].size = 0; e[3].mem_size = 0;
    CHECK_EQ(plumbob_package_write_size(e, 4, major), major == 2 ? 96u + cn + 9 + 100 + 4 + 4 * 32
                                                                : 96u + cn + 4 + 9 + 100 + 20 + 5 * 24);
    CHECK_OK(plumbob_package_write(e, 4, major, out, cap, &n));
    CHECK_EQ(n, plumbob_package_write_size(e, 4, major));
    return n;
}

static void check_package(const unsigned char *pkgdata, size_t size, uint32_t major) {
    plumbob_package pkg;
    plumbob_package_entry e;
    const unsigned char *res;
    size_t rs;
    unsigned char *dst = t_scratch() + 16384;
    uint32_t idx = 99;
    plumbob_arena arena;
    CHECK_OK(plumbob_package_open(&pkg, pkgdata, size));
    CHECK_EQ(pkg.major, major);
    CHECK_EQ(pkg.count, major == 2 ? 4 : 5); /* 1.1 adds the compression directory */
    CHECK_OK(plumbob_package_entry_at(&pkg, 0, &e));
    CHECK_EQ(e.type, PLUMBOB_TYPE_CLIP);
    CHECK_EQ(e.instance, 0x3D40CC19DAAFD164ull);
    CHECK_EQ(e.compression, PLUMBOB_COMPRESSION_REFPACK);
    CHECK_EQ(e.mem_size, 2000);
    CHECK_OK(plumbob_package_read(&pkg, &e, dst, 2000, &res, &rs));
    CHECK_EQ(rs, 2000);
    CHECK(res == dst && memcmp(res, "clip data clip", 14) == 0);
    CHECK_EQ(plumbob_package_read(&pkg, &e, dst, 1999, &res, &rs), PLUMBOB_ERR_OUT_OF_MEMORY);
    /* stored entry: zero copy, found by linear scan */
    CHECK_OK(plumbob_package_find(&pkg, PLUMBOB_TYPE_KEY, 0, 0, &e, &idx));
    CHECK_EQ(idx, 1);
    CHECK_OK(plumbob_package_read(&pkg, &e, NULL, 0, &res, &rs));
    CHECK(rs == 9 && memcmp(res, "key table", 9) == 0);
    CHECK(res == pkgdata + e.offset);
    CHECK_EQ(plumbob_package_find(&pkg, PLUMBOB_TYPE_KEY, 1, 0, &e, NULL), PLUMBOB_ERR_NOT_FOUND);
    /* the same through the sorted view */
    plumbob_arena_init(&arena, t_arena_mem(), plumbob_package_sort_arena_size(&pkg));
    CHECK_OK(plumbob_package_sort(&pkg, &arena));
    CHECK_OK(plumbob_package_find(&pkg, PLUMBOB_TYPE_CLIP, PLUMBOB_CLIP_GROUP_PETS, 0xBC78ECD3046CB427ull, &e, &idx));
    CHECK_EQ(idx, 2);
    CHECK_EQ(e.file_size, 100);
    CHECK_OK(plumbob_package_find(&pkg, PLUMBOB_TYPE_JAZZ, 0, 0x91B95750336A8701ull, &e, &idx));
    CHECK_EQ(idx, 3);
    CHECK_EQ(e.file_size, 0);
    CHECK_EQ(plumbob_package_find(&pkg, PLUMBOB_TYPE_JAZZ, 0, 0x91B95750336A8700ull, &e, &idx), PLUMBOB_ERR_NOT_FOUND);
    CHECK_EQ(plumbob_package_entry_at(&pkg, 5, &e), PLUMBOB_ERR_BAD_INDEX);
}

void test_package_round_trip_v2(void) {
    unsigned char *out = t_arena_mem() + 128 * 1024;
    size_t n = build_package(2, out, 64 * 1024);
    check_package(out, n, 2);
    CHECK_EQ(out[60], 3);                       /* index minor of the game's packages */
    {   /* DBPF 2.0 keeps the index position at 64 (40 is the 1.x field, 0 here)
         * and the index size at 44; the writer puts the index last */
        uint32_t pos = (uint32_t)out[64] | (uint32_t)out[65] << 8 | (uint32_t)out[66] << 16 | (uint32_t)out[67] << 24;
        uint32_t len = (uint32_t)out[44] | (uint32_t)out[45] << 8 | (uint32_t)out[46] << 16 | (uint32_t)out[47] << 24;
        plumbob_package pkg;
        CHECK_OK(plumbob_package_open(&pkg, out, n));
        CHECK_EQ(pos, pkg.index_offset);
        CHECK_EQ((uint64_t)pos + len, n);
        CHECK(pos > 96);
    }
    t_digest_bytes(out, n);
}

void test_package_round_trip_v1(void) {
    unsigned char *out = t_arena_mem() + 128 * 1024;
    size_t n = build_package(1, out, 64 * 1024);
    plumbob_package pkg;
    plumbob_package_entry e;
    check_package(out, n, 1);
    CHECK_OK(plumbob_package_open(&pkg, out, n));
    CHECK_EQ(pkg.index_minor, 2);
    CHECK_EQ(pkg.dir_count, 1);
    CHECK_OK(plumbob_package_entry_at(&pkg, 4, &e));
    CHECK_EQ(e.type, PLUMBOB_TYPE_SIMS2_DIR);
    t_digest_bytes(out, n);
}

void test_package_malformed(void) {
    unsigned char *p = t_arena_mem() + 128 * 1024;
    size_t n = build_package(2, p, 64 * 1024);
    plumbob_package pkg;
    plumbob_package_entry e;
    const unsigned char *res;
    size_t rs;
    CHECK_EQ(plumbob_package_open(&pkg, p, 95), PLUMBOB_ERR_TRUNCATED);
    CHECK_EQ(plumbob_package_open(NULL, p, n), PLUMBOB_ERR_INVALID_ARGUMENT);
    p[0] = 'X';
    CHECK_EQ(plumbob_package_open(&pkg, p, n), PLUMBOB_ERR_BAD_MAGIC);
    p[0] = 'D';
    p[4] = 3;
    CHECK_EQ(plumbob_package_open(&pkg, p, n), PLUMBOB_ERR_UNSUPPORTED_VERSION);
    p[4] = 2;
    p[64 + 3] = 0x70; /* index far past the end: the input ends early (issue 47) */
    CHECK_EQ(plumbob_package_open(&pkg, p, n), PLUMBOB_ERR_TRUNCATED);
    p[64 + 3] = 0;
    p[36] = 200; /* more entries than the index holds */
    CHECK_EQ(plumbob_package_open(&pkg, p, n), PLUMBOB_ERR_BAD_COUNT);
    p[36] = 4;
    CHECK_OK(plumbob_package_open(&pkg, p, n));
    {
        /* flags with an unknown bit; then an entry whose data leaves the file */
        unsigned char *idx = p + pkg.index_offset;
        idx[0] |= 8;
        CHECK_EQ(plumbob_package_open(&pkg, p, n), PLUMBOB_ERR_UNSUPPORTED);
        idx[0] &= (unsigned char)~8u;
        CHECK_OK(plumbob_package_open(&pkg, p, n));
        /* entry 3's offset field follows its non-constant key fields and instance-low */
        idx = p + pkg.entries_offset + 3 * pkg.entry_size + (pkg.entry_size - 32u + 12u) + 4u;
        CHECK_EQ(pkg.entry_size, 32); /* this package has no constant fields */
        idx[3] = 0x7F;
        CHECK_EQ(plumbob_package_open(&pkg, p, n), PLUMBOB_ERR_TRUNCATED);
    }
    n = build_package(2, p, 64 * 1024);
    CHECK_OK(plumbob_package_open(&pkg, p, n));
    CHECK_OK(plumbob_package_entry_at(&pkg, 0, &e));
    e.compression = PLUMBOB_COMPRESSION_ZLIB;
    CHECK_EQ(plumbob_package_read(&pkg, &e, t_scratch(), 4096, &res, &rs), PLUMBOB_ERR_UNSUPPORTED);
    e.compression = PLUMBOB_COMPRESSION_DELETED;
    CHECK_EQ(plumbob_package_read(&pkg, &e, t_scratch(), 4096, &res, &rs), PLUMBOB_ERR_UNSUPPORTED);
    /* writer argument checks */
    {
        plumbob_package_write_entry w;
        memset(&w, 0, sizeof w);
        w.data = "abc"; w.size = 3; w.mem_size = 4;
        CHECK_EQ(plumbob_package_write(&w, 1, 2, p, 1000, &rs), PLUMBOB_ERR_INVALID_ARGUMENT);
        w.mem_size = 3;
        CHECK_EQ(plumbob_package_write(&w, 1, 3, p, 1000, &rs), PLUMBOB_ERR_INVALID_ARGUMENT);
        CHECK_EQ(plumbob_package_write(&w, 1, 2, p, 100, &rs), PLUMBOB_ERR_OUT_OF_MEMORY);
        w.compression = 0x1234;
        CHECK_EQ(plumbob_package_write(&w, 1, 2, p, 1000, &rs), PLUMBOB_ERR_INVALID_ARGUMENT);
    }
    /* an empty package is valid */
    CHECK_OK(plumbob_package_write(NULL, 0, 2, p, 1000, &rs));
    CHECK_EQ(rs, 100);
    CHECK_OK(plumbob_package_open(&pkg, p, rs));
    CHECK_EQ(pkg.count, 0);
}

/* Opens and reads everything of each prefix and of each single-bit flip. */
static plumbob_result open_and_read_all(const unsigned char *p, size_t n) {
    plumbob_package pkg;
    plumbob_result r = plumbob_package_open(&pkg, p, n);
    uint32_t i;
    if (r != PLUMBOB_OK) return r;
    for (i = 0; i < pkg.count; i++) {
        plumbob_package_entry e;
        const unsigned char *res;
        size_t rs;
        r = plumbob_package_entry_at(&pkg, i, &e);
        if (r != PLUMBOB_OK) return r;
        if (e.mem_size > 8192) return PLUMBOB_ERR_OUT_OF_MEMORY;
        r = plumbob_package_read(&pkg, &e, t_scratch() + 65536, 8192, &res, &rs);
        if (r != PLUMBOB_OK) return r;
    }
    return PLUMBOB_OK;
}

void test_package_truncation_and_bitflips(void) {
    unsigned char *p = t_arena_mem() + 128 * 1024;
    uint32_t major;
    for (major = 1; major <= 2; major++) {
        size_t n = build_package(major, p, 64 * 1024), len, bit;
        int oks = 0;
        CHECK_OK(open_and_read_all(p, n));
        for (len = 0; len < n; len++) {
            plumbob_result r = open_and_read_all(p, len);
            CHECK(r != PLUMBOB_OK); /* the index is at the end: every prefix loses it */
            CHECK(r != PLUMBOB_OK && (unsigned)r < PLUMBOB_RESULT_COUNT);
        }
        for (bit = 0; bit < n * 8; bit += 3) {
            plumbob_result r;
            p[bit / 8] ^= (unsigned char)(1u << (bit % 8));
            r = open_and_read_all(p, n);
            p[bit / 8] ^= (unsigned char)(1u << (bit % 8));
            CHECK((unsigned)r < PLUMBOB_RESULT_COUNT);
            oks += r == PLUMBOB_OK;
        }
        t_digest_u32((uint32_t)oks);
    }
}

void test_package_many_entries(void) {
    /* 6000 entries in shuffled order: sorted binary search finds every one */
    enum { N = 6000 };
    plumbob_package_write_entry *w = (plumbob_package_write_entry *)(void *)t_scratch();
    unsigned char *out = t_work();
    plumbob_package pkg;
    plumbob_arena arena;
    size_t n, i;
    uint32_t s = 12345;
    CHECK(N * sizeof *w <= T_SCRATCH_SIZE);
    for (i = 0; i < N; i++) {
        memset(&w[i], 0, sizeof w[i]);
        w[i].type = i % 3 ? PLUMBOB_TYPE_CLIP : PLUMBOB_TYPE_KEY;
        w[i].group = i % 5 == 0 ? PLUMBOB_CLIP_GROUP_PETS : 0;
        w[i].instance = ((uint64_t)t_rand(&s) << 32) | (uint32_t)i;
        w[i].data = "";
    }
    CHECK(plumbob_package_write_size(w, N, 2) <= T_WORK_SIZE);
    CHECK_OK(plumbob_package_write(w, N, 2, out, T_WORK_SIZE, &n));
    CHECK_OK(plumbob_package_open(&pkg, out, n));
    CHECK_EQ(pkg.count, N);
    plumbob_arena_init(&arena, t_arena_mem(), T_ARENA_SIZE);
    CHECK(plumbob_package_sort_arena_size(&pkg) <= T_ARENA_SIZE);
    CHECK_EQ(plumbob_package_sort_arena_size(NULL), SIZE_MAX); /* the sizing rule */
    CHECK_OK(plumbob_package_sort(&pkg, &arena));
    for (i = 0; i < N; i++) {
        plumbob_package_entry e;
        uint32_t idx = 0;
        CHECK_OK(plumbob_package_find(&pkg, w[i].type, w[i].group, w[i].instance, &e, &idx));
        CHECK_EQ(idx, i);
        CHECK_OK(plumbob_package_find(&pkg, w[i].type, w[i].group ^ 1u, w[i].instance, &e, &idx) == PLUMBOB_ERR_NOT_FOUND ? PLUMBOB_OK : PLUMBOB_ERR_BAD_DATA);
    }
    for (i = 1; i < N; i++) {
        const plumbob_package_key *a = &pkg.sorted[i - 1], *b = &pkg.sorted[i];
        CHECK(a->type < b->type || (a->type == b->type && (a->group < b->group ||
              (a->group == b->group && a->instance <= b->instance))));
    }
    { /* the entries of one type: every third one, in index order, then none */
        plumbob_package_entry e, f;
        uint32_t at = 0, seen = 0;
        while (plumbob_package_next_of_type(&pkg, PLUMBOB_TYPE_KEY, &at, &e) == PLUMBOB_OK) {
            CHECK_EQ((at - 1u) % 3u, 0);
            CHECK_OK(plumbob_package_entry_at(&pkg, at - 1u, &f));
            CHECK(memcmp(&e, &f, sizeof e) == 0);
            seen++;
        }
        CHECK_EQ(seen, N / 3);
        CHECK_EQ(at, N);
        CHECK_EQ(plumbob_package_next_of_type(&pkg, PLUMBOB_TYPE_KEY, &at, &e), PLUMBOB_ERR_NOT_FOUND);
        at = 0;
        CHECK_EQ(plumbob_package_next_of_type(&pkg, PLUMBOB_TYPE_RIG, &at, &e), PLUMBOB_ERR_NOT_FOUND);
        CHECK_EQ(plumbob_package_next_of_type(NULL, PLUMBOB_TYPE_KEY, &at, &e), PLUMBOB_ERR_INVALID_ARGUMENT);
        CHECK_EQ(plumbob_package_next_of_type(&pkg, PLUMBOB_TYPE_KEY, NULL, &e), PLUMBOB_ERR_INVALID_ARGUMENT);
        CHECK_EQ(plumbob_package_next_of_type(&pkg, PLUMBOB_TYPE_KEY, &at, NULL), PLUMBOB_ERR_INVALID_ARGUMENT);
    }
    plumbob_arena_init(&arena, t_arena_mem(), 100);
    CHECK_EQ(plumbob_package_sort(&pkg, &arena), PLUMBOB_ERR_OUT_OF_MEMORY);
    t_digest_u32(pkg.sorted[0].index);
}

/* --- the real packages ------------------------------------------------------ */

typedef struct corpus_package {
    const char *path;
    uint32_t major, entries, clips, jazz, anims, gmdcs;
} corpus_package;

static const corpus_package corpus_packages[] = {
    {"sims3/EWBreastfeed.package", 2, 40, 9, 1, 0, 0},
    {"sims3/PetFightingSkill.package", 2, 53, 10, 0, 0, 0},
    {"sims3/WarriorCats.package", 2, 38, 0, 1, 0, 0},
    {"sims2/animation.package", 1, 3, 0, 0, 3, 0},
    {"sims2/teapot_model.package", 1, 4, 0, 0, 0, 1},
};

void test_package_corpus(void) {
    size_t k;
    for (k = 0; k < sizeof corpus_packages / sizeof corpus_packages[0]; k++) {
        const corpus_package *c = &corpus_packages[k];
        size_t size;
        unsigned char *data = t_corpus_load(c->path, &size);
        plumbob_package pkg;
        uint32_t i, clips = 0, jazz = 0, anims = 0, gmdcs = 0;
        if (!data) T_SKIP(t_corpus_missing());
        CHECK_OK(plumbob_package_open(&pkg, data, size));
        CHECK_EQ(pkg.major, c->major);
        CHECK_EQ(pkg.count, c->entries);
        for (i = 0; i < pkg.count; i++) {
            plumbob_package_entry e;
            const unsigned char *res = NULL;
            size_t rs = 0;
            unsigned char *buf;
            CHECK_OK(plumbob_package_entry_at(&pkg, i, &e));
            buf = (unsigned char *)malloc(e.mem_size + 1u);
            CHECK_OK(plumbob_package_read(&pkg, &e, buf, e.mem_size, &res, &rs));
            CHECK_EQ(rs, e.mem_size); /* every decompressed size equals the index's */
            clips += e.type == PLUMBOB_TYPE_CLIP;
            jazz += e.type == PLUMBOB_TYPE_JAZZ;
            anims += e.type == PLUMBOB_TYPE_ANIM;
            gmdcs += e.type == PLUMBOB_TYPE_GMDC;
            if (e.type == PLUMBOB_TYPE_CLIP && c->clips == 10) CHECK_EQ(e.group, PLUMBOB_CLIP_GROUP_PETS);
            if (e.type == PLUMBOB_TYPE_CLIP) CHECK_EQ(plumbob_identify(res, rs), PLUMBOB_FORMAT_CLIP);
            if (e.type == PLUMBOB_TYPE_GMDC) CHECK_EQ(plumbob_identify(res, rs), PLUMBOB_FORMAT_GMDC);
            if (e.type == PLUMBOB_TYPE_ANIM) CHECK_EQ(plumbob_identify(res, rs), PLUMBOB_FORMAT_ANIM);
            t_digest_u32(e.type);
            t_digest_u64(e.instance);
            t_digest_u32(plumbob_fnv32((const char *)res, rs)); /* content digest */
            free(buf);
        }
        CHECK_EQ(clips, c->clips);
        CHECK_EQ(jazz, c->jazz);
        CHECK_EQ(anims, c->anims);
        CHECK_EQ(gmdcs, c->gmdcs);
        { /* the iterator finds the same (compression from the 1.x directory too) */
            static const uint32_t types[4] = {PLUMBOB_TYPE_CLIP, PLUMBOB_TYPE_JAZZ, PLUMBOB_TYPE_ANIM, PLUMBOB_TYPE_GMDC};
            const uint32_t want[4] = {c->clips, c->jazz, c->anims, c->gmdcs};
            uint32_t t;
            for (t = 0; t < 4; t++) {
                plumbob_package_entry e, f;
                uint32_t at = 0, n = 0;
                while (plumbob_package_next_of_type(&pkg, types[t], &at, &e) == PLUMBOB_OK) {
                    CHECK_OK(plumbob_package_entry_at(&pkg, at - 1u, &f));
                    CHECK(memcmp(&e, &f, sizeof e) == 0);
                    n++;
                }
                CHECK_EQ(n, want[t]);
            }
        }
        free(data);
    }
}

/* Our compressor against EA's on the same resources: round trip, and the
 * total compressed size no larger than the original RefPack data. */
void test_refpack_corpus_ratio(void) {
    size_t k, ea = 0, ours = 0, raw = 0;
    void *work = malloc(plumbob_refpack_compress_work_size());
    for (k = 0; k < 3; k++) {
        size_t size;
        unsigned char *data = t_corpus_load(corpus_packages[k].path, &size);
        plumbob_package pkg;
        uint32_t i;
        if (!data) { free(work); T_SKIP(t_corpus_missing()); }
        CHECK_OK(plumbob_package_open(&pkg, data, size));
        for (i = 0; i < pkg.count; i++) {
            plumbob_package_entry e;
            const unsigned char *res;
            size_t rs, cn = 0, dn = 0;
            unsigned char *buf, *comp, *back;
            CHECK_OK(plumbob_package_entry_at(&pkg, i, &e));
            if (e.compression != PLUMBOB_COMPRESSION_REFPACK) continue;
            buf = (unsigned char *)malloc(e.mem_size);
            comp = (unsigned char *)malloc(plumbob_refpack_bound(e.mem_size));
            back = (unsigned char *)malloc(e.mem_size);
            CHECK_OK(plumbob_package_read(&pkg, &e, buf, e.mem_size, &res, &rs));
            CHECK_OK(plumbob_refpack_compress(buf, rs, comp, plumbob_refpack_bound(rs), work,
                                              plumbob_refpack_compress_work_size(), &cn));
            CHECK_OK(plumbob_refpack_decompress(comp, cn, back, rs, &dn));
            CHECK(dn == rs && memcmp(buf, back, rs) == 0);
            ea += e.file_size;
            ours += cn;
            raw += rs;
            t_digest_u32((uint32_t)cn);
            free(buf); free(comp); free(back);
        }
        free(data);
    }
    free(work);
    CHECK(ours <= ea);
    printf("  refpack on corpus: %lu bytes -> EA %lu, plumbob %lu (%.2f%% of EA's size)\n",
           (unsigned long)raw, (unsigned long)ea, (unsigned long)ours, 100.0 * (double)ours / (double)ea);
}

/* DBPF 1.x: the index (with its one compression directory) is the truth.
 * Extract every resource of a package with compressed and stored entries,
 * pack them again with our writer (all stored, then all compressed): the same
 * resources come back.  The writer refuses a directory given as a resource,
 * and a package with two directories does not open. */
/* The compression directory's records are 20 bytes in a package of index
 * 7.1 as plumbob writes it, but packages of the game's tools also hold
 * 16-byte records (no instance-high) under a 7.1 index: read either way,
 * the same entry reads compressed, with its size. */
void test_package_v1_directory_layouts(void) {
    unsigned char *out = t_arena_mem() + 128 * 1024, *dst = t_scratch() + 16384;
    size_t n = build_package(1, out, 64 * 1024), rs;
    plumbob_package pkg;
    plumbob_package_entry e, dir;
    const unsigned char *res;
    unsigned char *rec, *size_field;
    CHECK_OK(plumbob_package_open(&pkg, out, n));
    CHECK_EQ(pkg.dir_entry_size, 20);
    CHECK_OK(plumbob_package_entry_at(&pkg, 4, &dir));
    CHECK(dir.type == PLUMBOB_TYPE_SIMS2_DIR && dir.file_size == 20);
    /* rewrite the record as 16 bytes: type, group, instance (low), size */
    rec = out + dir.offset;
    memmove(rec + 12, rec + 16, 4);
    size_field = out + pkg.entries_offset + 24u * 4u + 20u;
    CHECK_EQ(size_field[0], 20);
    size_field[0] = 16;
    CHECK_OK(plumbob_package_open(&pkg, out, n));
    CHECK_EQ(pkg.dir_entry_size, 16);
    CHECK_EQ(pkg.dir_count, 1);
    CHECK_OK(plumbob_package_entry_at(&pkg, 0, &e));
    CHECK(e.compression == PLUMBOB_COMPRESSION_REFPACK && e.mem_size == 2000);
    CHECK_OK(plumbob_package_read(&pkg, &e, dst, 2000, &res, &rs));
    CHECK(rs == 2000 && memcmp(res, "clip data clip", 14) == 0);
    CHECK_OK(plumbob_package_entry_at(&pkg, 1, &e)); /* not in the directory: stored */
    CHECK(e.compression == PLUMBOB_COMPRESSION_NONE && e.mem_size == 9);
}

void test_package_v1_directory_is_the_truth(void) {
    unsigned char *orig = t_arena_mem() + 128 * 1024, *again = t_arena_mem() + 192 * 1024;
    unsigned char *res_copy = t_scratch() + 65536, *comp = t_scratch() + 131072, *back = t_scratch() + 196608;
    size_t n = build_package(1, orig, 64 * 1024), off[8], sizes[8], used = 0, m = 0, k;
    plumbob_package pkg, pkg2;
    plumbob_package_write_entry w[8];
    uint32_t i, count = 0, dir_at = 0, pass;
    CHECK_OK(plumbob_package_open(&pkg, orig, n));
    memset(w, 0, sizeof w);
    /* extract: every entry, decompressed, the directory too (as the old tool did) */
    for (i = 0; i < pkg.count; i++) {
        plumbob_package_entry e;
        const unsigned char *res;
        size_t rs;
        CHECK_OK(plumbob_package_entry_at(&pkg, i, &e));
        CHECK_OK(plumbob_package_read(&pkg, &e, res_copy + used, 8192, &res, &rs));
        if (res != res_copy + used) memcpy(res_copy + used, res, rs);
        if (e.type == PLUMBOB_TYPE_SIMS2_DIR) dir_at = count;
        w[count].type = e.type;
        w[count].group = e.group;
        w[count].instance = e.instance;
        w[count].data = res_copy + used;
        w[count].size = w[count].mem_size = (uint32_t)rs;
        off[count] = used;
        sizes[count] = rs;
        used += rs;
        count++;
    }
    CHECK_EQ(count, 5);
    CHECK_EQ(w[dir_at].type, PLUMBOB_TYPE_SIMS2_DIR);
    /* the directory as a resource: refused for 1.x (it would be a second one) */
    CHECK_EQ(plumbob_package_write(w, count, 1, again, 64 * 1024, &m), PLUMBOB_ERR_INVALID_ARGUMENT);
    /* without it: stored, then RefPack, each reads back the same resources */
    w[dir_at] = w[count - 1];
    off[dir_at] = off[count - 1];
    sizes[dir_at] = sizes[count - 1];
    count--;
    for (pass = 0; pass < 2; pass++) {
        size_t comp_used = 0;
        for (i = 0; i < count; i++) {
            w[i].data = res_copy + off[i];
            w[i].size = w[i].mem_size = (uint32_t)sizes[i];
            w[i].compression = PLUMBOB_COMPRESSION_NONE;
            if (pass == 1) {
                size_t cn = 0;
                CHECK_OK(plumbob_refpack_compress(res_copy + off[i], sizes[i], comp + comp_used, 8192, t_work(),
                                                  plumbob_refpack_compress_work_size(), &cn));
                w[i].data = comp + comp_used;
                w[i].size = (uint32_t)cn;
                w[i].compression = PLUMBOB_COMPRESSION_REFPACK;
                comp_used += cn;
            }
        }
        CHECK_OK(plumbob_package_write(w, count, 1, again, 64 * 1024, &m));
        CHECK_OK(plumbob_package_open(&pkg2, again, m));
        CHECK_EQ(pkg2.count, pass ? count + 1u : count); /* the writer's own directory */
        for (k = 0; k < count; k++) {
            plumbob_package_entry e;
            const unsigned char *res;
            size_t rs;
            CHECK_OK(plumbob_package_find(&pkg2, w[k].type, w[k].group, w[k].instance, &e, NULL));
            CHECK_EQ(e.compression, pass ? PLUMBOB_COMPRESSION_REFPACK : PLUMBOB_COMPRESSION_NONE);
            CHECK_OK(plumbob_package_read(&pkg2, &e, back, 8192, &res, &rs));
            CHECK(rs == sizes[k] && memcmp(res, res_copy + off[k], rs) == 0);
            t_digest_u32((uint32_t)rs);
        }
    }
    /* two directories (the KEY entry's type changed to DIR): refused */
    {
        uint32_t index_pos = (uint32_t)orig[40] | (uint32_t)orig[41] << 8 | (uint32_t)orig[42] << 16 | (uint32_t)orig[43] << 24;
        unsigned char *t = orig + index_pos + 24u * 1u;
        CHECK_EQ(t[0] | t[1] << 8 | t[2] << 16 | (uint32_t)t[3] << 24, PLUMBOB_TYPE_KEY);
        t[0] = 0xEF; t[1] = 0x1E; t[2] = 0x6B; t[3] = 0xE8;
        CHECK_EQ(plumbob_package_open(&pkg2, orig, n), PLUMBOB_ERR_BAD_DATA);
    }
}

void test_package_zlib_carried(void) {
    /* a 2.0 zlib entry (as s3pe writes them) goes through the writer as it
     * is: same index fields and bytes; reading it says unsupported */
    static const unsigned char z[] = {0x78, 0x9C, 0x4B, 0x4C, 0x4A, 0x06, 0x00, 0x02, 0x4D, 0x01, 0x27};
    plumbob_package_write_entry w[2];
    unsigned char *out = t_work(), *again = t_work() + 4096;
    plumbob_package pkg;
    plumbob_package_entry e;
    const unsigned char *res;
    size_t n = 0, n2 = 0, rs;
    memset(w, 0, sizeof w);
    w[0].type = PLUMBOB_TYPE_CLIP; w[0].instance = 0x1234;
    w[0].data = z; w[0].size = sizeof z; w[0].mem_size = 3; w[0].compression = PLUMBOB_COMPRESSION_ZLIB;
    w[1].type = PLUMBOB_TYPE_KEY; w[1].data = "k"; w[1].size = 1; w[1].mem_size = 1;
    CHECK_OK(plumbob_package_write(w, 2, 2, out, 4096, &n));
    CHECK_OK(plumbob_package_open(&pkg, out, n));
    CHECK_OK(plumbob_package_entry_at(&pkg, 0, &e));
    CHECK_EQ(e.compression, PLUMBOB_COMPRESSION_ZLIB);
    CHECK_EQ(e.mem_size, 3);
    CHECK_EQ(e.file_size, sizeof z);
    CHECK(memcmp(plumbob_package_raw(&pkg, &e), z, sizeof z) == 0);
    CHECK_EQ(plumbob_package_read(&pkg, &e, again, 16, &res, &rs), PLUMBOB_ERR_UNSUPPORTED);
    /* carried again from the raw bytes: the same file */
    w[0].data = plumbob_package_raw(&pkg, &e);
    CHECK_OK(plumbob_package_write(w, 2, 2, again, 4096, &n2));
    CHECK(n2 == n && memcmp(out, again, n) == 0);
    /* 1.x has no zlib */
    CHECK_EQ(plumbob_package_write(w, 2, 1, again, 4096, &n2), PLUMBOB_ERR_INVALID_ARGUMENT);
}

void test_package_read_size(void) {
    /* the buffer a read needs, checked before anyone allocates it: stored
     * entries need none, RefPack ones their size once header, index and
     * stored length agree; a claim of gigabytes from a few bytes is refused */
    static const unsigned char text[] = "abcabcabcabcabcabcabcabcabcabcabcabcabcabc";
    unsigned char comp[256], forged[16], *out = t_scratch(), *work = t_work();
    plumbob_package_write_entry w[3];
    plumbob_package pkg;
    plumbob_package_entry e;
    size_t cn = 0, n = 0, bytes = 7;
    uint32_t major;
    CHECK_OK(plumbob_refpack_compress(text, sizeof text, comp, sizeof comp, work, T_WORK_SIZE, &cn));
    /* a large-header stream claiming 2 GiB - 1 from 7 bytes */
    forged[0] = 0x90; forged[1] = 0xFB; forged[2] = 0x7F; forged[3] = 0xFF; forged[4] = 0xFF; forged[5] = 0xFF;
    forged[6] = 0xFC;
    for (major = 1; major <= 2; major++) {
        memset(w, 0, sizeof w);
        w[0].type = PLUMBOB_TYPE_CLIP; w[0].instance = 1; w[0].data = text; w[0].size = w[0].mem_size = sizeof text;
        w[1].type = PLUMBOB_TYPE_CLIP; w[1].instance = 2; w[1].data = comp; w[1].size = (uint32_t)cn;
        w[1].mem_size = sizeof text; w[1].compression = PLUMBOB_COMPRESSION_REFPACK;
        w[2].type = PLUMBOB_TYPE_CLIP; w[2].instance = 3; w[2].data = forged; w[2].size = 7;
        w[2].mem_size = 0x7FFFFFFFu; w[2].compression = PLUMBOB_COMPRESSION_REFPACK;
        CHECK_OK(plumbob_package_write(w, 3, major, out, 8192, &n));
        CHECK_OK(plumbob_package_open(&pkg, out, n));
        CHECK_OK(plumbob_package_entry_at(&pkg, 0, &e));
        CHECK_OK(plumbob_package_read_size(&pkg, &e, &bytes));
        CHECK_EQ(bytes, 0); /* read in place */
        CHECK_OK(plumbob_package_entry_at(&pkg, 1, &e));
        CHECK_OK(plumbob_package_read_size(&pkg, &e, &bytes));
        CHECK_EQ(bytes, sizeof text);
        e.mem_size++; /* the index and the stream disagree */
        CHECK_EQ(plumbob_package_read_size(&pkg, &e, &bytes), PLUMBOB_ERR_BAD_COUNT);
        CHECK_EQ(bytes, 0);
        CHECK_OK(plumbob_package_entry_at(&pkg, 2, &e));
        CHECK_EQ(plumbob_package_read_size(&pkg, &e, &bytes), PLUMBOB_ERR_BAD_COUNT);
    }
    CHECK_EQ(plumbob_package_read_size(NULL, &e, &bytes), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_package_read_size(&pkg, NULL, &bytes), PLUMBOB_ERR_INVALID_ARGUMENT);
    CHECK_EQ(plumbob_package_read_size(&pkg, &e, NULL), PLUMBOB_ERR_INVALID_ARGUMENT);
    e.compression = PLUMBOB_COMPRESSION_ZLIB;
    CHECK_EQ(plumbob_package_read_size(&pkg, &e, &bytes), PLUMBOB_ERR_UNSUPPORTED);
}

/* Issue 47's rule for packages: every prefix of a package (both majors) is
 * truncated, with its location inside the prefix. */
void test_package_error_sweep(void) {
    unsigned char *p = t_arena_mem() + 128 * 1024;
    uint32_t major;
    for (major = 1; major <= 2; major++) {
        size_t n = build_package(major, p, 64 * 1024), len;
        plumbob_package pkg;
        plumbob_error err;
        CHECK_OK(plumbob_package_open_ex(&pkg, p, n, &err));
        for (len = 0; len < n; len++) {
            plumbob_result r = plumbob_package_open_ex(&pkg, p, len, &err);
            CHECK_EQ(err.result, r);
            CHECK(err.offset <= len);
            if (r != PLUMBOB_ERR_TRUNCATED) {
                CHECK_EQ(r, PLUMBOB_ERR_TRUNCATED);
                break;
            }
        }
        t_digest_u32((uint32_t)n);
    }
}
