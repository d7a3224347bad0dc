/* Access to the real sample packages in ../shared/corpus (tests only).
 * The directory comes from $PLUMBOB_CORPUS or ../shared/corpus relative to
 * the project root (where make runs the tests). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "test.h"

static char missing_reason[1200];

const char *t_corpus_missing(void) { return missing_reason; }

#ifdef PLUMBOB_TEST_BAREMETAL
unsigned char *t_corpus_load(const char *relpath, size_t *size) {
    (void)relpath;
    *size = 0;
    snprintf(missing_reason, sizeof missing_reason, "no file system on bare metal (corpus tests run on the hosted targets)");
    return NULL;
}
#else
unsigned char *t_corpus_load(const char *relpath, size_t *size) {
    const char *dir = getenv("PLUMBOB_CORPUS");
    char path[1024];
    FILE *f;
    long len;
    unsigned char *buf;
    if (!dir || !*dir) dir = "../shared/corpus";
    snprintf(path, sizeof path, "%s/%s", dir, relpath);
    *size = 0;
    f = fopen(path, "rb");
    if (!f) {
        snprintf(missing_reason, sizeof missing_reason,
                 "corpus file %s not found (set PLUMBOB_CORPUS to the corpus folder; see README)", path);
        /* CI promises every target runs: there a missing corpus fails the test */
        if (getenv("CI") && strcmp(getenv("CI"), "true") == 0) t_fail(__FILE__, __LINE__, missing_reason);
        return NULL;
    }
    if (fseek(f, 0, SEEK_END) != 0 || (len = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
        fclose(f);
        snprintf(missing_reason, sizeof missing_reason, "cannot size %s", path);
        return NULL;
    }
    buf = (unsigned char *)malloc((size_t)len + 1);
    if (!buf || fread(buf, 1, (size_t)len, f) != (size_t)len) {
        free(buf);
        fclose(f);
        snprintf(missing_reason, sizeof missing_reason, "cannot read %s", path);
        return NULL;
    }
    fclose(f);
    *size = (size_t)len;
    t_mark_corpus();
    return buf;
}
#endif
