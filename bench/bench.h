/* Benchmark harness: warm-up, repeated samples, median and spread.
 * Each case reports one figure; the table and the JSON lines come from here. */
#ifndef PLUMBOB_BENCH_H
#define PLUMBOB_BENCH_H

#include <stddef.h>

typedef struct bench_opts {
    int quick; /* fewer repetitions: the whole run under 30 seconds */
    int json;  /* one JSON object per line instead of the table */
    const char *only; /* run one group of cases (NULL: all) */
} bench_opts;

/* Whether the group of cases `group` runs under these options. */
int bench_wanted(const bench_opts *o, const char *group);

/* Times fn(ctx) `samples` times after a warm-up call; returns seconds per
 * call as median, min and max over the samples. */
typedef struct bench_stats {
    double median, min, max;
    int n;
} bench_stats;
bench_stats bench_time(void (*fn)(void *ctx), void *ctx, int samples);

/* Prints one result: name, unit, the figure's median/min/max, and context
 * as `"key": value` JSON fragments (may be NULL). */
void bench_report(const bench_opts *o, const char *name, const char *unit, double median,
                  double min, double max, int n, const char *context);

/* A whole file in malloc'd memory (*size bytes), or NULL when it cannot
 * be read (the corpus is optional). */
unsigned char *bench_read_file(const char *path, size_t *size);

/* Keeps a value alive so the compiler cannot drop the work that made it. */
void bench_keep(const void *p);

/* A monotonic clock, in seconds. */
double bench_now(void);

/* Sorts n times ascending (medians, extremes). */
void bench_sort(double *t, int n);

#endif
