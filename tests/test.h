/* plumbob's own tiny test runner: table-driven, no framework.
 * A test is `void test_NAME(void)` listed in test_list.h.  Checks record a
 * failure and carry on; T_SKIP ends the test as skipped with a reason.
 * Every test feeds what it decoded into the run digest (t_digest_*), which
 * must come out identical on every target: that is the byte-order proof. */
#ifndef PLUMBOB_TEST_H
#define PLUMBOB_TEST_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include "plumbob.h"

void t_fail(const char *file, int line, const char *what);
void t_fail_u64(const char *file, int line, const char *what, uint64_t got, uint64_t want);
void t_fail_f64(const char *file, int line, const char *what, double got, double want);
void t_skip(const char *reason);
bool t_skipped(void);

#define CHECK(c) \
    do { if (!(c)) t_fail(__FILE__, __LINE__, #c); } while (0)
#define CHECK_EQ(got, want) \
    do { uint64_t g_ = (uint64_t)(got), w_ = (uint64_t)(want); \
         if (g_ != w_) t_fail_u64(__FILE__, __LINE__, #got " == " #want, g_, w_); } while (0)
#define CHECK_NEAR(got, want, eps) \
    do { double g_ = (double)(got), w_ = (double)(want); \
         if (!(g_ - w_ <= (eps) && w_ - g_ <= (eps))) \
             t_fail_f64(__FILE__, __LINE__, #got " ~ " #want, g_, w_); } while (0)
#define CHECK_OK(expr) CHECK_EQ((expr), PLUMBOB_OK)
#define T_SKIP(reason) do { t_skip(reason); return; } while (0)

/* Run digest: FNV-1a 64 over canonical little-endian bytes. */
void t_digest_bytes(const void *p, size_t n);
void t_digest_u32(uint32_t v);
void t_digest_u64(uint64_t v);
void t_digest_f32(float v);

/* Shared memory for tests: the arena is a static buffer of T_ARENA_SIZE bytes
 * (the bare-metal target has no more), scratch is for building inputs. */
#define T_ARENA_SIZE (256u * 1024u)
#define T_SCRATCH_SIZE (512u * 1024u)
#define T_WORK_SIZE (800u * 1024u) /* RefPack compressor tables (768 KiB) */
unsigned char *t_arena_mem(void);
unsigned char *t_scratch(void);
unsigned char *t_work(void);

/* Real sample files under ../shared/corpus.  Returns a malloc'd buffer or
 * NULL (and the caller skips with the reason from t_corpus_missing()). */
unsigned char *t_corpus_load(const char *relpath, size_t *size);
void t_mark_corpus(void); /* called by t_corpus_load: the test feeds the corpus digest */
const char *t_corpus_missing(void);

/* Deterministic pseudo-random numbers (xorshift32) for synthetic inputs. */
static inline uint32_t t_rand(uint32_t *state) {
    uint32_t x = *state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return *state = x;
}

/* Issue 47's sweep (test_errors.c): the measure_ex of `format` ("gmdc",
 * "anim", "cres", "clip", "rig", "jazz", "geom") accepts d[0..n) and refuses every
 * shorter prefix with PLUMBOB_ERR_TRUNCATED (a CRES cut after a block may
 * still decode: an unknown kind of block takes the rest), err.result the
 * code and err.offset <= the prefix's length; every other decoder refuses
 * d.  The codes feed the digest. */
void t_error_sweep(const char *format, const unsigned char *d, size_t n);

/* Declarations of every test. */
#define T(name) void test_##name(void);
#include "test_list.h"
#undef T

#endif
