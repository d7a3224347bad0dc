/* The counters and CHECK of the hosted test programs (tools' code, which
 * the core's test runner does not link): each program includes this once
 * and ends with hosted_summary(). */
#ifndef PLUMBOB_HOSTED_CHECK_H
#define PLUMBOB_HOSTED_CHECK_H

#include <stdio.h>

static int passed, failed, skipped;

#define CHECK(cond)                                                             \
    do {                                                                        \
        if (cond) {                                                             \
            passed++;                                                           \
        } else {                                                                \
            failed++;                                                           \
            printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);              \
        }                                                                       \
    } while (0)

/* Prints `N passed, N failed[, N skipped]`; the exit status to return. */
static int hosted_summary(void) {
    if (skipped)
        printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
    else
        printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}

#endif
