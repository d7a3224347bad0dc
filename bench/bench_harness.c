/* Timing and reporting shared by every benchmark case. */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "bench.h"

double bench_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

void bench_sort(double *t, int n) {
    qsort(t, (size_t)n, sizeof(double), cmp_double);
}

bench_stats bench_time(void (*fn)(void *ctx), void *ctx, int samples) {
    double *t = (double *)malloc(sizeof(double) * (size_t)samples);
    bench_stats s = {0, 0, 0, samples};
    int i;
    fn(ctx); /* warm-up: caches, branch predictors, page faults */
    for (i = 0; i < samples; i++) {
        double t0 = bench_now();
        fn(ctx);
        t[i] = bench_now() - t0;
    }
    bench_sort(t, samples);
    s.median = t[samples / 2];
    s.min = t[0];
    s.max = t[samples - 1];
    free(t);
    return s;
}

void bench_report(const bench_opts *o, const char *name, const char *unit, double median,
                  double min, double max, int n, const char *context) {
    if (o->json) {
        printf("{\"name\": \"%s\", \"unit\": \"%s\", \"value\": %.6g, \"min\": %.6g, \"max\": %.6g, "
               "\"n\": %d%s%s}\n", name, unit, median, min, max, n, context ? ", " : "",
               context ? context : "");
    } else {
        printf("%-28s %12.4g %-12s (min %.4g, max %.4g, n=%d)  %s\n", name, median, unit, min, max,
               n, context ? context : "");
    }
    fflush(stdout);
}

volatile const void *bench_sink;
void bench_keep(const void *p) {
    bench_sink = p;
}

int bench_wanted(const bench_opts *o, const char *group) {
    return !o->only || strcmp(o->only, group) == 0;
}

unsigned char *bench_read_file(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    long len;
    unsigned char *data;
    if (!f) return NULL;
    if (fseek(f, 0, SEEK_END) != 0 || (len = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
        fclose(f);
        return NULL;
    }
    data = (unsigned char *)malloc(len ? (size_t)len : 1u);
    if (data && fread(data, 1, (size_t)len, f) != (size_t)len) {
        free(data);
        data = NULL;
    }
    fclose(f);
    *size = (size_t)len;
    return data;
}
