/* Batch work: one command over every resource of a kind in several inputs
 * (`clip export --all a.package b.package -o DIR`).  A package gives each of
 * its resources of the kind, any other file stands for itself; each output is
 * named after the resource (its KEY name where the package has one, else its
 * instance) and the run ends with a summary.  One failure does not stop the
 * others; the exit status says whether any failed. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "plumbob.h"
#include "util/dirs.h"
#include "util/files.h"
#include "tool_batch.h"
#include "tool_input.h"

/* Output names already given in this run: a second resource of the same
 * name gets its instance appended rather than replacing the first. */
typedef struct used_names {
    char **v;
    size_t n, cap;
} used_names;

static int used(const used_names *u, const char *s) {
    size_t i;
    for (i = 0; i < u->n; i++)
        if (strcmp(u->v[i], s) == 0) return 1;
    return 0;
}

static int remember(used_names *u, const char *s) {
    char *c;
    if (u->n == u->cap) {
        size_t cap = u->cap ? u->cap * 2 : 64;
        char **v = (char **)realloc(u->v, cap * sizeof *v);
        if (!v) return 0;
        u->v = v;
        u->cap = cap;
    }
    c = (char *)malloc(strlen(s) + 1);
    if (!c) return 0;
    strcpy(c, s);
    u->v[u->n++] = c;
    return 1;
}

/* A resource or file name as a portable file name: letters, digits and
 * - _ . kept, anything else (path separators, spaces, ':') becomes '_'. */
static void file_name(char *out, size_t cap, const char *s) {
    size_t i;
    for (i = 0; s[i] && i + 1 < cap && i < 120; i++) {
        char ch = s[i];
        int keep = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '-' ||
                   ch == '_' || (ch == '.' && i > 0);
        out[i] = keep ? ch : '_';
    }
    out[i] = '\0';
}

/* The last path component without its extension. */
static void base_name(char *out, size_t cap, const char *path) {
    const char *b = path, *p, *dot;
    char tmp[512];
    size_t n;
    for (p = path; *p; p++)
        if (*p == '/' || *p == '\\') b = p + 1;
    dot = strrchr(b, '.');
    n = dot && dot != b ? (size_t)(dot - b) : strlen(b);
    if (n >= sizeof tmp) n = sizeof tmp - 1;
    memcpy(tmp, b, n);
    tmp[n] = '\0';
    file_name(out, cap, tmp[0] ? tmp : "resource");
}

typedef struct batch_run {
    const tool_batch *job;
    used_names names;
    uint32_t done, failed, total;
    int tty;
} batch_run;

static void one(batch_run *run, const char *input, const char *stem) {
    char name[256], out[2048];
    const tool_batch *job = run->job;
    file_name(name, sizeof name, stem);
    snprintf(out, sizeof out, "%s/%s.%s", job->dir, name, job->ext);
    if (used(&run->names, out)) return; /* the caller appends the instance and asks again */
    if (!remember(&run->names, out)) {
        tool_error(NULL, "out of memory");
        run->failed++;
        return;
    }
    if (run->tty) fprintf(stderr, "\r%s %u/%u %-40.40s", job->verb, run->done + run->failed + 1, run->total, name);
    if (job->fn(input, out, job->ctx) == 0) {
        run->done++;
    } else {
        if (run->tty) fputc('\n', stderr);
        run->failed++;
    }
}

/* Every resource of job->type in one package; 0 when the file is not one. */
static int package_resources(batch_run *run, const char *path, int count_only, uint32_t *found) {
    unsigned char *data;
    size_t size;
    plumbob_package pkg;
    tool_names names;
    uint32_t k;
    FILE *f = fopen(path, "rb");
    unsigned char head[4];
    int is_pkg = f && fread(head, 1, 4, f) == 4 && memcmp(head, "DBPF", 4) == 0;
    if (f) fclose(f);
    if (!is_pkg) return 0;
    if (!tool_read_file(path, &data, &size)) return -1;
    if (plumbob_package_open(&pkg, data, size) != PLUMBOB_OK) {
        free(data);
        return 0; /* a broken package: the command itself says why */
    }
    tool_names_load(&pkg, &names);
    for (k = 0; k < pkg.count; k++) {
        plumbob_package_entry e;
        char input[2048], stem[512], rname[256];
        if (plumbob_package_entry_at(&pkg, k, &e) != PLUMBOB_OK || e.type != run->job->type) continue;
        (*found)++;
        if (count_only) continue;
        snprintf(input, sizeof input, "%s@%08X:%08X:%016llX", path, (unsigned)e.type, (unsigned)e.group,
                 (unsigned long long)e.instance);
        if (!tool_resource_name(&pkg, &names, &e, rname, sizeof rname) || !rname[0])
            snprintf(rname, sizeof rname, "%016llX", (unsigned long long)e.instance);
        snprintf(stem, sizeof stem, "%s", rname);
        {
            uint32_t before = run->done + run->failed;
            one(run, input, stem);
            if (run->done + run->failed == before) { /* the name was taken: add the instance */
                snprintf(stem, sizeof stem, "%.200s_%016llX", rname, (unsigned long long)e.instance);
                one(run, input, stem);
                if (run->done + run->failed == before) { /* the same resource twice: name it by its key */
                    snprintf(stem, sizeof stem, "%08X_%08X_%016llX", (unsigned)e.type, (unsigned)e.group,
                             (unsigned long long)e.instance);
                    one(run, input, stem);
                }
            }
        }
    }
    tool_names_free(&names);
    free(data);
    return 1;
}

int tool_batch_run(const tool_batch *job, const char *const *inputs, int n) {
    batch_run run;
    int i;
    uint32_t found = 0;
    memset(&run, 0, sizeof run);
    run.job = job;
    run.tty = isatty(2);
    if (mkdir(job->dir, 0777) != 0 && errno != EEXIST) {
        tool_error(job->dir, "cannot create the directory: %s", strerror(errno));
        return 1;
    }
    for (i = 0; i < n; i++) { /* count first, for the progress line */
        uint32_t f = 0;
        int r = package_resources(&run, inputs[i], 1, &f);
        if (r < 0) return 1;
        run.total += r ? f : 1;
        found += r ? f : 1;
    }
    tool_set_quiet(1);
    for (i = 0; i < n; i++) {
        uint32_t f = 0;
        int r = package_resources(&run, inputs[i], 0, &f);
        if (r == 0) {
            char stem[256];
            uint32_t before = run.done + run.failed;
            base_name(stem, sizeof stem, inputs[i]);
            one(&run, inputs[i], stem);
            if (run.done + run.failed == before) {
                char again[300];
                snprintf(again, sizeof again, "%s_%d", stem, i + 1);
                one(&run, inputs[i], again);
            }
        } else if (r > 0 && f == 0) {
            tool_warning(inputs[i], "has no %s", job->kind);
        }
    }
    tool_set_quiet(0);
    if (run.tty && run.total) fputc('\n', stderr);
    for (i = 0; (size_t)i < run.names.n; i++) free(run.names.v[i]);
    free(run.names.v);
    if (found == 0) {
        tool_error(NULL, "no %s in the %s given", job->kind, n == 1 ? "file" : "files");
        return 1;
    }
    printf("%s %u of %u %s to %s", job->done_verb, run.done, run.total, job->kind, job->dir);
    if (run.failed) printf("; %u failed (said why above)", run.failed);
    printf("\n");
    return run.failed ? 1 : 0;
}

int tool_batch_export(uint32_t type, const char *one, const char *many, const char *const *inputs, int n, int all,
                      int gltf_text, const char *dir, int (*fn)(const char *, const char *, void *), void *ctx) {
    tool_batch job;
    if (!all) {
        if (n > 1) tool_error(NULL, "%d inputs: give --all to export every %s of each to a directory", n, one);
        else tool_error(NULL, "--gltf goes with --all (one file: name it OUT.gltf)");
        return 2;
    }
    if (tool_ends_with(dir, ".gltf") || tool_ends_with(dir, ".glb") || tool_ends_with(dir, ".obj")) {
        tool_error(NULL, "--all writes one file per %s: -o names a directory, not %s", one, dir);
        return 2;
    }
    memset(&job, 0, sizeof job);
    job.type = type;
    job.kind = many;
    job.verb = "exporting";
    job.done_verb = "exported";
    job.dir = dir;
    job.ext = gltf_text ? "gltf" : "glb";
    job.fn = fn;
    job.ctx = ctx;
    return tool_batch_run(&job, inputs, n);
}
