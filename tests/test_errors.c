/* Errors that say where, the same way everywhere (issue 47): every prefix
 * of a valid resource is refused with PLUMBOB_ERR_TRUNCATED and a location
 * inside the prefix; every decoder given another format's resource refuses
 * it.  The per-format tests call t_error_sweep with their own synthetic
 * resources (and corpus files where they read them). */
#include <stdlib.h>
#include <string.h>
#include "test.h"

typedef plumbob_result (*measure_ex_fn)(const void *data, size_t size, size_t *arena_bytes, plumbob_error *err);

static const struct {
    const char *name;
    measure_ex_fn measure;
} decoders[] = {
    {"gmdc", plumbob_gmdc_measure_ex}, {"anim", plumbob_anim_measure_ex}, {"cres", plumbob_cres_measure_ex},
    {"clip", plumbob_clip_measure_ex}, {"rig", plumbob_rig_measure_ex},   {"jazz", plumbob_jazz_measure_ex},
    {"geom", plumbob_geom_measure_ex},
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
        CHECK(r != PLUMBOB_OK);
        t_digest_u32((uint32_t)r);
    }
}

/* The sweep over real resources: a few of each kind from the corpus. */
void test_error_sweep_corpus(void) {
    static const struct {
        const char *path;
        uint32_t type;
        const char *format;
    } src[] = {
        {"sims3/EWBreastfeed.package", PLUMBOB_TYPE_CLIP, "clip"},
        {"sims3/EWBreastfeed.package", PLUMBOB_TYPE_JAZZ, "jazz"},
        {"sims3/EWWheatAndFlour.package", PLUMBOB_TYPE_RIG, "rig"},
        {"sims2/teapot_model.package", PLUMBOB_TYPE_GMDC, "gmdc"},
        {"sims2/teapot_model.package", PLUMBOB_TYPE_CRES, "cres"},
        {"sims2/animation.package", PLUMBOB_TYPE_ANIM, "anim"},
    };
    size_t s;
    for (s = 0; s < sizeof src / sizeof src[0]; s++) {
        size_t size, rs;
        unsigned char *data = t_corpus_load(src[s].path, &size);
        plumbob_package pkg;
        uint32_t e, done = 0;
        if (!data) T_SKIP(t_corpus_missing());
        CHECK_OK(plumbob_package_open(&pkg, data, size));
        for (e = 0; e < pkg.count && done < 2; e++) {
            plumbob_package_entry ent;
            const unsigned char *res;
            unsigned char *raw;
            CHECK_OK(plumbob_package_entry_at(&pkg, e, &ent));
            if (ent.type != src[s].type) continue;
            raw = (unsigned char *)malloc(ent.mem_size ? ent.mem_size : 1);
            if (plumbob_package_read(&pkg, &ent, raw, ent.mem_size, &res, &rs) == PLUMBOB_OK) {
                unsigned char *copy = (unsigned char *)malloc(rs ? rs : 1); /* exactly rs: ASan sees overreads */
                memcpy(copy, res, rs);
                t_error_sweep(src[s].format, copy, rs);
                free(copy);
                done++;
            }
            free(raw);
        }
        CHECK(done > 0);
        free(data);
    }
}
