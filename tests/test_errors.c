/* Errors that say where, the same way everywhere (issue 47): every prefix
 * of a valid resource is refused with PLUMBOB_ERR_TRUNCATED and a location
 * inside the prefix; every decoder given another format's resource refuses
 * it.  The per-format tests call t_error_sweep with their own synthetic
 * resources (and corpus files where they read them). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "test.h"

typedef plumbob_result (*measure_ex_fn)(const void *data, size_t size, size_t *arena_bytes, plumbob_error *err);

/* The KEY table's open, shaped as a measure call. */
static plumbob_result key_measure_ex(const void *data, size_t size, size_t *arena_bytes, plumbob_error *err) {
    plumbob_key_table kt;
    *arena_bytes = 0;
    return plumbob_key_table_open_ex(&kt, data, size, err);
}

static const struct {
    const char *name;
    measure_ex_fn measure;
    uint32_t type;
} decoders[] = {
    {"gmdc", plumbob_gmdc_measure_ex, PLUMBOB_TYPE_GMDC}, {"anim", plumbob_anim_measure_ex, PLUMBOB_TYPE_ANIM},
    {"cres", plumbob_cres_measure_ex, PLUMBOB_TYPE_CRES}, {"clip", plumbob_clip_measure_ex, PLUMBOB_TYPE_CLIP},
    {"rig", plumbob_rig_measure_ex, PLUMBOB_TYPE_RIG},    {"jazz", plumbob_jazz_measure_ex, PLUMBOB_TYPE_JAZZ},
    {"key", key_measure_ex, PLUMBOB_TYPE_KEY},
    {"geom", plumbob_geom_measure_ex, PLUMBOB_TYPE_GEOM},
};
#define N_DECODERS (sizeof decoders / sizeof decoders[0])

static measure_ex_fn find(const char *name, size_t *at) {
    size_t i, k;
    for (i = 0; i < N_DECODERS; i++) {
        for (k = 0; name[k] && name[k] == decoders[i].name[k]; k++) {}
        if (!name[k] && !decoders[i].name[k]) {
            *at = i;
            return decoders[i].measure;
        }
    }
    return NULL;
}

/* What decoder i may answer for a resource of another kind: BAD_MAGIC, or
 * the documented exceptions (docs/API.md, "Errors that say where"):
 * TRUNCATED when the bytes could begin a resource of the decoder's kind
 * (a Sims 2 RCOL's link list, a KEY table's entries run past the end), a
 * rig's UNSUPPORTED_VERSION for a version pair under 256 it does not read. */
static bool wrong_kind_ok(size_t i, plumbob_result r) {
    if (r == PLUMBOB_ERR_BAD_MAGIC || r == PLUMBOB_ERR_TRUNCATED) return true;
    return decoders[i].type == PLUMBOB_TYPE_RIG && r == PLUMBOB_ERR_UNSUPPORTED_VERSION;
}

/* One call: the code is err.result and the offset lies inside the input. */
static plumbob_result checked(measure_ex_fn m, const unsigned char *d, size_t n) {
    plumbob_error err;
    size_t need = 0;
    plumbob_result r = m(d, n, &need, &err);
    CHECK_EQ(err.result, r);
    CHECK(err.offset <= n);
    CHECK(err.table != NULL && err.reason != NULL);
    if (r != PLUMBOB_OK) CHECK(err.table[0] != 0 && err.reason[0] != 0);
    else CHECK_EQ(err.offset, 0);
    return r;
}

void t_error_sweep(const char *format, const unsigned char *d, size_t n) {
    size_t self = 0, len, step, i;
    measure_ex_fn m = find(format, &self);
    unsigned hist[PLUMBOB_RESULT_COUNT] = {0};
    bool last_block_open = format[0] == 'c' && format[1] == 'r'; /* CRES */
    CHECK(m != NULL);
    if (!m) return;
    CHECK_OK(checked(m, d, n));
    /* every length below 4 KiB, then a dense subset: a few seconds at most */
    step = n <= 4096u ? 1u : n / 4096u + 1u;
    for (len = 0; len < n; len += len < 512u ? 1u : step) {
        plumbob_result r = checked(m, d, len);
        if ((unsigned)r < PLUMBOB_RESULT_COUNT) hist[r]++;
        /* the one exception: a CRES cut right after a block, when an unknown
         * kind of block (which may only come last) takes the rest */
        if (r == PLUMBOB_OK && last_block_open) continue;
        if (r != PLUMBOB_ERR_TRUNCATED) {
            CHECK_EQ(r, PLUMBOB_ERR_TRUNCATED);
            break;
        }
    }
    /* (code, count) of the codes seen: a result code added later does not move the digest */
    for (i = 0; i < PLUMBOB_RESULT_COUNT; i++)
        if (hist[i]) {
            t_digest_u32((uint32_t)i);
            t_digest_u32(hist[i]);
        }
    /* the wrong kind of resource */
    for (i = 0; i < N_DECODERS; i++) {
        plumbob_result r;
        if (i == self) continue;
        r = checked(decoders[i].measure, d, n);
        if (!wrong_kind_ok(i, r)) printf("  %s fed to %s: %s\n", format, decoders[i].name, plumbob_result_str(r));
        CHECK(wrong_kind_ok(i, r));
        t_digest_u32((uint32_t)r);
    }
}

/* The corpus files: every package's resources, and the loose ones. */
static const char *const corpus_files[] = {
    "sims2/animation.package",     "sims2/teapot_model.package", "sims3/EWBreastfeed.package",
    "sims3/EWWheatAndFlour.package", "sims3/PetFightingSkill.package", "sims3/WarriorCats.package",
    "sims3/auRig.rig",             "sims3/afTopBlouseOffShoulder_lod1.simgeom",
};
#define N_CORPUS_FILES (sizeof corpus_files / sizeof corpus_files[0])

/* Calls fn on a copy of each resource of file f (the file itself when it
 * is no package) sized exactly, so ASan sees any overread; type 0 for a
 * loose file.  Returns the resources seen. */
typedef void (*resource_fn)(uint32_t type, const unsigned char *d, size_t n, void *ctx);
static uint32_t each_resource(const char *f, resource_fn fn, void *ctx) {
    size_t size;
    unsigned char *data = t_corpus_load(f, &size);
    plumbob_package pkg;
    uint32_t e, seen = 0;
    if (!data) return 0;
    if (plumbob_package_open(&pkg, data, size) != PLUMBOB_OK) {
        fn(0, data, size, ctx);
        free(data);
        return 1;
    }
    for (e = 0; e < pkg.count; e++) {
        plumbob_package_entry ent;
        const unsigned char *res;
        unsigned char *raw;
        size_t rs;
        CHECK_OK(plumbob_package_entry_at(&pkg, e, &ent));
        if (pkg.major == 1 && ent.type == PLUMBOB_TYPE_SIMS2_DIR) continue;
        raw = (unsigned char *)malloc(ent.mem_size ? ent.mem_size : 1);
        if (plumbob_package_read(&pkg, &ent, raw, ent.mem_size, &res, &rs) == PLUMBOB_OK) {
            unsigned char *copy = (unsigned char *)malloc(rs ? rs : 1);
            memcpy(copy, res, rs);
            fn(ent.type, copy, rs, ctx);
            free(copy);
            seen++;
        }
        free(raw);
    }
    free(data);
    return seen;
}

/* Every resource of the corpus fed to every decoder: its own decodes (or,
 * for a loose file, the one plumbob_identify names), every other answers
 * BAD_MAGIC or a documented exception (wrong_kind_ok). */
static void cross_feed(uint32_t type, const unsigned char *d, size_t n, void *ctx) {
    unsigned *hist = (unsigned *)ctx;
    size_t i;
    if (type) CHECK((plumbob_identify(d, n) == PLUMBOB_FORMAT_KEY) == (type == PLUMBOB_TYPE_KEY));
    for (i = 0; i < N_DECODERS; i++) {
        plumbob_result r = checked(decoders[i].measure, d, n);
        if (decoders[i].type == type || (type == 0 && r == PLUMBOB_OK)) {
            CHECK_OK(r);
            continue;
        }
        if (!wrong_kind_ok(i, r))
            printf("  type %08X (%zu bytes) fed to %s: %s\n", (unsigned)type, n, decoders[i].name, plumbob_result_str(r));
        CHECK(wrong_kind_ok(i, r));
        if ((unsigned)r < PLUMBOB_RESULT_COUNT) hist[r]++;
    }
}

void test_error_wrong_kind_corpus(void) {
    unsigned hist[PLUMBOB_RESULT_COUNT] = {0}, total = 0, i;
    size_t f;
    for (f = 0; f < N_CORPUS_FILES; f++) {
        uint32_t seen = each_resource(corpus_files[f], cross_feed, hist);
        if (!seen) T_SKIP(t_corpus_missing());
    }
    for (i = 0; i < PLUMBOB_RESULT_COUNT; i++) {
        total += hist[i];
        t_digest_u32(hist[i]);
    }
    /* the exceptions stay exceptions: nearly every answer is BAD_MAGIC */
    CHECK(hist[PLUMBOB_ERR_BAD_MAGIC] * 20u >= total * 19u);
    printf("  wrong kind: %u answers, %u bad_magic, %u truncated, %u unsupported_version\n", total,
           hist[PLUMBOB_ERR_BAD_MAGIC], hist[PLUMBOB_ERR_TRUNCATED], hist[PLUMBOB_ERR_UNSUPPORTED_VERSION]);
}

/* The truncation sweep over every real resource a decoder reads (the
 * sweep's own stride keeps the large clips to a few thousand lengths). */
static void sweep_one(uint32_t type, const unsigned char *d, size_t n, void *ctx) {
    size_t i;
    uint32_t *count = (uint32_t *)ctx;
    for (i = 0; i < N_DECODERS; i++) {
        if (decoders[i].type == type || (type == 0 && checked(decoders[i].measure, d, n) == PLUMBOB_OK)) {
            t_error_sweep(decoders[i].name, d, n);
            (*count)++;
            return;
        }
    }
}

void test_error_sweep_corpus(void) {
    uint32_t swept = 0;
    size_t f;
    for (f = 0; f < N_CORPUS_FILES; f++)
        if (!each_resource(corpus_files[f], sweep_one, &swept)) T_SKIP(t_corpus_missing());
    CHECK(swept >= 30u);
    t_digest_u32(swept);
}

/* RefPack streams (every compressed entry of the corpus) and whole
 * packages, cut at every length (a stride past 4 KiB): TRUNCATED, the
 * offset inside the input. */
static void cut_refpack(const unsigned char *s, size_t n, size_t mem, unsigned *cuts) {
    unsigned char *dst = (unsigned char *)malloc(mem ? mem : 1);
    size_t len, out, step = n <= 4096u ? 1u : n / 2048u + 1u;
    plumbob_error err;
    CHECK_OK(plumbob_refpack_decompress_ex(s, n, dst, mem, &out, &err));
    CHECK_EQ(out, mem);
    for (len = 0; len < n; len += len < 512u ? 1u : step) {
        plumbob_result r = plumbob_refpack_decompress_ex(s, len, dst, mem, &out, &err);
        CHECK_EQ(err.result, r);
        CHECK(err.offset <= len);
        (*cuts)++;
        /* a stream whose output is whole may end without its stop command */
        if (r == PLUMBOB_OK && len + 1u == n && s[len] == 0xFCu) continue;
        if (r != PLUMBOB_ERR_TRUNCATED) {
            CHECK_EQ(r, PLUMBOB_ERR_TRUNCATED);
            break;
        }
    }
    free(dst);
}

void test_error_sweep_corpus_containers(void) {
    size_t f;
    unsigned streams = 0, cuts = 0;
    for (f = 0; f < N_CORPUS_FILES; f++) {
        size_t size, len, step;
        unsigned char *data = t_corpus_load(corpus_files[f], &size);
        plumbob_package pkg;
        plumbob_error err;
        uint32_t e;
        if (!data) T_SKIP(t_corpus_missing());
        if (plumbob_package_open_ex(&pkg, data, size, &err) != PLUMBOB_OK) {
            free(data);
            continue;
        }
        for (e = 0; e < pkg.count; e++) {
            plumbob_package_entry ent;
            const unsigned char *raw;
            CHECK_OK(plumbob_package_entry_at(&pkg, e, &ent));
            if (ent.compression != PLUMBOB_COMPRESSION_REFPACK) continue;
            raw = plumbob_package_raw(&pkg, &ent);
            if (pkg.major == 1) cut_refpack(raw + 4, ent.file_size - 4u, ent.mem_size, &cuts); /* a size word first */
            else cut_refpack(raw, ent.file_size, ent.mem_size, &cuts);
            streams++;
        }
        /* the package itself, cut: a copy of each length, so ASan sees overreads */
        step = size / 512u + 1u;
        for (len = 0; len < size; len += len < 256u ? 1u : step) {
            unsigned char *cut = (unsigned char *)malloc(len ? len : 1);
            plumbob_result r;
            memcpy(cut, data, len);
            r = plumbob_package_open_ex(&pkg, cut, len, &err);
            CHECK_EQ(err.result, r);
            CHECK(err.offset <= len);
            free(cut);
            if (r != PLUMBOB_ERR_TRUNCATED) {
                printf("  %s cut at %zu: %s (%s: %s)\n", corpus_files[f], len, plumbob_result_str(r), err.table, err.reason);
                CHECK_EQ(r, PLUMBOB_ERR_TRUNCATED);
                break;
            }
        }
        free(data);
    }
    CHECK(streams > 0);
    t_digest_u32(streams);
    t_digest_u32(cuts);
}
