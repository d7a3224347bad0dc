/* Runs every test in test_list.h, prints one line per test, a summary line
 * the matrix script reads, and the closing "N passed, N failed" line. */
#include <stdio.h>
#include <string.h>
#include "test.h"
#include "expected_digests.h"
#include "ports.h"

typedef struct test_case {
    const char *name;
    void (*fn)(void);
} test_case;

static const test_case all_tests[] = {
#define T(name) {#name, test_##name},
#include "test_list.h"
#undef T
};

static int cur_failures;
static const char *cur_skip;
static const char *cur_name;
static uint64_t digest = 0xCBF29CE484222325ull;      /* the whole run */
static uint64_t corpus_digest = 0xCBF29CE484222325ull; /* tests that read ../shared/corpus */
static uint64_t test_digest;                         /* the current test */
static bool cur_corpus;

/* Unions give the buffers the strictest scalar alignment on every target;
 * tests that want a misaligned base offset from it on purpose. */
static union { unsigned char b[T_ARENA_SIZE]; uint64_t u; double d; void *p; } arena_mem;
static union { unsigned char b[T_SCRATCH_SIZE]; uint64_t u; double d; void *p; } scratch_mem;
static union { unsigned char b[T_WORK_SIZE]; uint64_t u; double d; void *p; } work_mem;
unsigned char *t_work(void) { return work_mem.b; }
void t_mark_corpus(void) { cur_corpus = true; }
unsigned char *t_arena_mem(void) { return arena_mem.b; }
unsigned char *t_scratch(void) { return scratch_mem.b; }

static void hexu64(char *out, uint64_t v) {
    /* %llx is not in every embedded printf; format by hand. */
    static const char hex[] = "0123456789abcdef";
    int i;
    for (i = 15; i >= 0; i--) {
        out[i] = hex[v & 15u];
        v >>= 4;
    }
    out[16] = '\0';
}

void t_fail(const char *file, int line, const char *what) {
    if (cur_failures < 5) printf("  FAIL %s:%d: %s\n", file, line, what);
    cur_failures++;
}

void t_fail_u64(const char *file, int line, const char *what, uint64_t got, uint64_t want) {
    if (cur_failures < 5) {
        char g[17], w[17];
        hexu64(g, got);
        hexu64(w, want);
        printf("  FAIL %s:%d: %s (got 0x%s, want 0x%s)\n", file, line, what, g, w);
    }
    cur_failures++;
}

void t_fail_f64(const char *file, int line, const char *what, double got, double want) {
    if (cur_failures < 5) printf("  FAIL %s:%d: %s (got %.9g, want %.9g)\n", file, line, what, got, want);
    cur_failures++;
}

void t_skip(const char *reason) { cur_skip = reason; }
bool t_skipped(void) { return cur_skip != NULL; }

void t_digest_bytes(const void *p, size_t n) {
    const unsigned char *b = (const unsigned char *)p;
    size_t i;
    for (i = 0; i < n; i++) {
        test_digest ^= b[i];
        test_digest *= 0x100000001B3ull;
    }
}
void t_digest_u32(uint32_t v) {
    unsigned char b[4];
    b[0] = (unsigned char)v;
    b[1] = (unsigned char)(v >> 8);
    b[2] = (unsigned char)(v >> 16);
    b[3] = (unsigned char)(v >> 24);
    t_digest_bytes(b, 4);
}
void t_digest_u64(uint64_t v) {
    t_digest_u32((uint32_t)v);
    t_digest_u32((uint32_t)(v >> 32));
}
void t_digest_f32(float v) {
    union { float f; uint32_t u; } x;
    x.f = v;
    /* one NaN: CPUs differ in the NaN an operation makes (MIPS legacy NaNs) */
    t_digest_u32(v != v ? 0x7FC00000u : x.u);
}

#ifndef PLUMBOB_TEST_TARGET
#  if defined(PLUMBOB_TEST_BAREMETAL)
#    define PLUMBOB_TEST_TARGET "cortex-m4"
#  elif defined(__x86_64__)
#    define PLUMBOB_TEST_TARGET "x86_64"
#  elif defined(__aarch64__)
#    define PLUMBOB_TEST_TARGET "aarch64"
#  elif defined(__arm__)
#    define PLUMBOB_TEST_TARGET "armhf"
#  elif defined(__s390x__)
#    define PLUMBOB_TEST_TARGET "s390x"
#  elif defined(__mips__)
#    define PLUMBOB_TEST_TARGET "mips"
#  elif defined(__powerpc__)
#    define PLUMBOB_TEST_TARGET "ppc"
#  else
#    define PLUMBOB_TEST_TARGET "unknown"
#  endif
#endif

int main(int argc, char **argv) {
    size_t i, n = sizeof all_tests / sizeof all_tests[0];
    int passed = 0, failed = 0, skipped = 0;
    const char *only = argc > 1 ? argv[1] : NULL;
    char dig[17], cdig[17];
    int full, corpus_ran = 0, ran = 0, corpus_skipped = 0, other_skipped = 0;
    const char *first_corpus_skip = NULL, *first_other_skip = NULL;
    for (i = 0; i < n; i++) {
        if (only && !strstr(all_tests[i].name, only)) continue;
        ran++;
        cur_failures = 0;
        cur_skip = NULL;
        cur_name = all_tests[i].name;
        test_digest = 0xCBF29CE484222325ull;
        cur_corpus = false;
        all_tests[i].fn();
        /* Fold the test's digest into the run's (corpus tests into their own,
         * since bare metal has no files); print its low 32 bits so two
         * targets' logs can be diffed to find the test that differs. */
        if (!cur_skip) {
            uint64_t d = test_digest, *into = cur_corpus ? &corpus_digest : &digest;
            int k;
            for (k = 0; k < 8; k++) {
                *into ^= (unsigned char)(d >> (8 * k));
                *into *= 0x100000001B3ull;
            }
        }
        /* a skipped corpus test (it read a corpus file, or skipped for want
         * of one, failed too under CI=true) leaves the corpus digest short */
        if (cur_skip && (cur_corpus || cur_skip == t_corpus_missing())) {
            corpus_skipped++;
            if (!first_corpus_skip) first_corpus_skip = cur_name;
        } else if (cur_skip) {
            other_skipped++;
            if (!first_other_skip) first_other_skip = cur_name;
        }
        hexu64(dig, test_digest);
        if (cur_failures) {
            printf("FAIL %s (%d checks)\n", cur_name, cur_failures);
            failed++;
        } else if (cur_skip) {
            printf("skip %s: %s\n", cur_name, cur_skip);
            skipped++;
        } else {
            printf("ok   %-32s %s\n", cur_name, dig + 8);
            passed++;
        }
        if (cur_corpus && !cur_skip) corpus_ran = 1;
    }
    hexu64(dig, digest);
    hexu64(cdig, corpus_digest);
    /* The whole run must give the pinned digests (tests/expected_digests.h):
     * a change that moves every target the same way fails here too.  They
     * are compared whenever the tests that made them all ran: the synthetic
     * digest on every run of the full list (a skipped synthetic test takes
     * its part out, so the comparison fails and says so), the corpus digest
     * when no corpus test skipped (bare metal has no files; a hosted run
     * without the corpus skips them with a reason).  What is not compared
     * is said, with the reason. */
    full = ran == (int)n;
    if (!full) {
        printf("digest: not compared with tests/expected_digests.h: only the %d tests matching '%s' ran (of %d)\n",
               ran, only, (int)n);
    } else {
        if (strcmp(dig, T_EXPECTED_DIGEST) != 0) {
            printf("FAIL digest_pinned: synthetic digest %s, tests/expected_digests.h says %s", dig, T_EXPECTED_DIGEST);
            if (other_skipped)
                printf(" (%d non-corpus tests skipped, first %s: their part is missing)", other_skipped,
                       first_other_skip);
            printf("\n");
            failed++;
        }
        if (corpus_skipped) {
            printf("digest: corpus digest not compared with tests/expected_digests.h: %d corpus tests skipped "
                   "(first %s)\n", corpus_skipped, first_corpus_skip);
        } else if (corpus_ran && strcmp(cdig, T_EXPECTED_CORPUS_DIGEST) != 0) {
            printf("FAIL digest_pinned: corpus digest %s, tests/expected_digests.h says %s\n", cdig,
                   T_EXPECTED_CORPUS_DIGEST);
            failed++;
        }
    }
    /* pinned= says which digests were compared with the pins (run-all.sh
     * wants the synthetic one on every unit-test stage) */
    printf("summary: target=%s port=%s passed=%d failed=%d skipped=%d digest=%s corpus=%s pinned=%s\n",
           PLUMBOB_TEST_TARGET, plumbob_port_name(), passed, failed, skipped, dig,
           corpus_ran ? cdig : "-",
           !full ? "none" : corpus_skipped || !corpus_ran ? "synthetic" : "synthetic+corpus");
    if (skipped)
        printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
    else
        printf("%d passed, %d failed\n", passed, failed);
    fflush(stdout);
    return failed ? 1 : 0;
}
