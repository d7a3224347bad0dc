/* Whole-file reads and writes, the tool's error line, small string parsing.
 * Hosted C (POSIX for the safe writes); depends on nothing of the tool's. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "files.h"
#ifdef _WIN32
/* mingw-w64: no fchmod or fsync, rename does not replace a file, and stat
 * has no inode numbers (st_ino 0), so no input can be told apart there. */
#include <io.h>
#include <windows.h>
#define fsync(fd) _commit(fd)
#define fchmod(fd, mode) 0
#define rename(from, to) (MoveFileExA((from), (to), MOVEFILE_REPLACE_EXISTING) ? 0 : -1)
#endif

/* The command as typed ("clip export", "ls"), set once by main(); every
 * error line starts with it. */
static char command_text[64];
static size_t family_len;

void tool_set_command(const char *family, const char *sub) {
    size_t n = strlen(family);
    if (n >= sizeof command_text) n = sizeof command_text - 1;
    memcpy(command_text, family, n);
    command_text[n] = 0;
    family_len = n;
    if (sub && n + 1 + strlen(sub) < sizeof command_text) {
        command_text[n] = ' ';
        memcpy(command_text + n + 1, sub, strlen(sub) + 1);
    }
}

const char *tool_command(void) { return command_text; }

/* A `where` that only repeats the command ("clip", or "gmdc skin" said
 * inside gmdc export) adds nothing: the line already names the command. */
static int names_the_command(const char *where) {
    return family_len && strncmp(where, command_text, family_len) == 0 &&
           (where[family_len] == 0 || where[family_len] == ' ');
}

static void error_start(const char *where) {
    fputs("plumbob: ", stderr);
    if (command_text[0]) fprintf(stderr, "%s: ", command_text);
    if (where && where[0] && !names_the_command(where)) fprintf(stderr, "%s: ", where);
}

void tool_error(const char *where, const char *fmt, ...) {
    va_list ap;
    error_start(where);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

void tool_warning(const char *where, const char *fmt, ...) {
    va_list ap;
    error_start(where);
    fputs("warning: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

/* The files this run has read, so that no output can overwrite one of them
 * (`plumbob clip plot a.clip -o a.clip`) unless --force says so.  A tool
 * run reads a handful of files: a small fixed table is enough. */
static struct { dev_t dev; ino_t ino; } inputs[64];
static unsigned input_count;
static int force_overwrite;

static int quiet_success;

void tool_set_force(int force) { force_overwrite = force; }
void tool_set_quiet(int quiet) { quiet_success = quiet; }
int tool_quiet(void) { return quiet_success; }
int tool_force(void) { return force_overwrite; }

static void remember_input(FILE *f) {
    struct stat st;
    unsigned i;
    if (fstat(fileno(f), &st) != 0 || st.st_ino == 0) return;
    for (i = 0; i < input_count; i++) /* batch work reads one package many times */
        if (inputs[i].dev == st.st_dev && inputs[i].ino == st.st_ino) return;
    if (input_count < sizeof inputs / sizeof inputs[0]) {
        inputs[input_count].dev = st.st_dev;
        inputs[input_count].ino = st.st_ino;
        input_count++;
    }
}

static int is_input(const char *path) {
    struct stat st;
    unsigned i;
    if (stat(path, &st) != 0) return 0;
    for (i = 0; i < input_count; i++)
        if (inputs[i].dev == st.st_dev && inputs[i].ino == st.st_ino) return 1;
    return 0;
}

void tool_forget_input(const char *path) {
    struct stat st;
    unsigned i;
    if (stat(path, &st) != 0) return;
    for (i = 0; i < input_count; i++)
        if (inputs[i].dev == st.st_dev && inputs[i].ino == st.st_ino) inputs[i] = inputs[--input_count], i--;
}

int tool_read_file(const char *path, unsigned char **data, size_t *size) {
    FILE *f = fopen(path, "rb");
    struct stat st;
    long len;
    *data = NULL;
    *size = 0;
    if (!f) {
        tool_error(path, "cannot open: %s", strerror(errno));
        return 0;
    }
    if (fstat(fileno(f), &st) == 0 && !S_ISREG(st.st_mode)) {
        tool_error(path, S_ISDIR(st.st_mode) ? "is a directory, not a file" : "is not a regular file");
        fclose(f);
        return 0;
    }
    if (fseek(f, 0, SEEK_END) != 0 || (len = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
        tool_error(path, "cannot determine the size (not a regular file?)");
        fclose(f);
        return 0;
    }
    *data = (unsigned char *)malloc(len > 0 ? (size_t)len : 1);
    if (!*data || fread(*data, 1, (size_t)len, f) != (size_t)len) {
        tool_error(path, "cannot read %ld bytes", len);
        free(*data);
        *data = NULL;
        fclose(f);
        return 0;
    }
    remember_input(f);
    fclose(f);
    *size = (size_t)len;
    return 1;
}

/* Outputs are written to a temporary file beside the target and renamed
 * over it only once complete and flushed to disk, so a failure (disk full,
 * a signal, a bug) leaves the old file or nothing, never half a file. */
int tool_out_open(tool_out *o, const char *path) {
    size_t n = strlen(path);
    int fd;
    mode_t mask;
    memset(o, 0, sizeof *o);
    o->path = path;
    if (!force_overwrite && is_input(path)) {
        tool_error(path, "is one of this command's inputs; refusing to overwrite it (add --force to do it anyway)");
        return 0;
    }
    o->tmp = (char *)malloc(n + 16);
    if (!o->tmp) {
        tool_error(path, "out of memory");
        return 0;
    }
    memcpy(o->tmp, path, n);
    memcpy(o->tmp + n, ".tmp-XXXXXX", 12);
    fd = mkstemp(o->tmp);
    if (fd < 0) {
        tool_error(path, "cannot create a file beside it: %s", strerror(errno));
        free(o->tmp);
        o->tmp = NULL;
        return 0;
    }
    mask = umask(0);
    umask(mask);
    (void)fchmod(fd, 0666 & ~mask); /* mkstemp makes 0600; outputs get the usual mode */
    o->f = fdopen(fd, "wb");
    if (!o->f) {
        tool_error(path, "cannot write: %s", strerror(errno));
        close(fd);
        unlink(o->tmp);
        free(o->tmp);
        o->tmp = NULL;
        return 0;
    }
    return 1;
}

void tool_out_abort(tool_out *o) {
    if (o->f) fclose(o->f);
    if (o->tmp) {
        unlink(o->tmp);
        free(o->tmp);
    }
    o->f = NULL;
    o->tmp = NULL;
}

int tool_out_commit(tool_out *o) {
    int ok = o->f != NULL, err = 0;
    if (ok && (ferror(o->f) || fflush(o->f) != 0 || fsync(fileno(o->f)) != 0)) ok = 0, err = errno;
    if (o->f && fclose(o->f) != 0 && ok) ok = 0, err = errno;
    o->f = NULL;
    if (ok && rename(o->tmp, o->path) != 0) ok = 0, err = errno;
    if (!ok) {
        tool_error(o->path, "cannot write: %s", err ? strerror(err) : "write error");
        if (o->tmp) unlink(o->tmp);
    }
    free(o->tmp);
    o->tmp = NULL;
    return ok;
}

int tool_write_file(const char *path, const void *data, size_t n) {
    tool_out o;
    if (!tool_out_open(&o, path)) return 0;
    if (n && fwrite(data, 1, n, o.f) != n) {
        tool_error(path, "cannot write: %s", strerror(errno));
        tool_out_abort(&o);
        return 0;
    }
    return tool_out_commit(&o);
}

int tool_ends_with(const char *s, const char *suffix) {
    size_t n = strlen(s), m = strlen(suffix), i;
    if (n < m) return 0;
    for (i = 0; i < m; i++) {
        char c = s[n - m + i];
        if (c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
        if (c != suffix[i]) return 0;
    }
    return 1;
}

int tool_parse_hex(const char *s, size_t len, uint64_t *out) {
    uint64_t v = 0;
    size_t i = 0;
    if (len >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) i = 2;
    if (i == len || len - i > 16) return 0;
    for (; i < len; i++) {
        char c = s[i];
        int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
              : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0) return 0;
        v = v << 4 | (uint64_t)d;
    }
    *out = v;
    return 1;
}

/* Finds the resource SPEC names in a package: TYPE:GROUP:INSTANCE, or an
 * INSTANCE alone (the first entry with it, preferring formats plumbob reads). */
