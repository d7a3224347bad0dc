/* Whole-file reads and writes, the tool's error line, small string parsing.
 * Hosted C (POSIX for the safe writes); depends on nothing of the tool's. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "files.h"
#include "util/ascii.h"
#ifdef _WIN32
/* mingw-w64: no fchmod, fchown or fsync, rename does not replace a file,
 * stat has no inode numbers (st_ino 0; so no input can be told apart there)
 * and st_nlink is always 1, no symbolic links are followed here, and there
 * is no sigaction: signal() alone. */
#include <io.h>
#include <windows.h>
#define fsync(fd) _commit(fd)
#define fchmod(fd, mode) 0
#define rename(from, to) (MoveFileExA((from), (to), MOVEFILE_REPLACE_EXISTING) ? 0 : -1)
#ifndef W_OK
#define W_OK 2
#endif
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

/* The file an edit command (add, jazz compile --package ...) updates: a
 * refusal to replace it speaks of editing. */
static struct { dev_t dev; ino_t ino; int set; const char *path; } edited;

void tool_forget_input(const char *path) {
    struct stat st;
    unsigned i;
    edited.path = path; /* where there are no inode numbers (Windows) */
    if (stat(path, &st) != 0) return;
    edited.dev = st.st_dev;
    edited.ino = st.st_ino;
    edited.set = st.st_ino != 0;
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

/* Temporary files that exist right now, for the signal handler: SIGINT
 * (Ctrl-C), SIGTERM and SIGHUP remove them before the tool dies, so an
 * interrupted edit leaves the package as it was and nothing beside it.
 * The table only changes with those signals blocked; the handler does
 * nothing but unlink (async-signal-safe) and die of the signal as it would
 * have.  A signal ignored when the tool started (nohup, a background job of
 * a script) stays ignored. */
#define TEMP_SLOTS 8
static char *volatile temp_paths[TEMP_SLOTS];
static int handlers_set;
static const int cleanup_signals[] = {
    SIGINT, SIGTERM,
#ifdef SIGHUP
    SIGHUP,
#endif
};
#define CLEANUP_SIGNAL_COUNT (sizeof cleanup_signals / sizeof cleanup_signals[0])

static void on_signal(int sig) {
    unsigned i;
    for (i = 0; i < TEMP_SLOTS; i++)
        if (temp_paths[i]) unlink(temp_paths[i]);
#ifdef _WIN32
    signal(sig, SIG_DFL);
    raise(sig);
#else
    {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = SIG_DFL;
        sigemptyset(&sa.sa_mask);
        sigaction(sig, &sa, NULL);
        raise(sig); /* pending until this handler returns, then fatal */
    }
#endif
}

static void set_handlers(void) {
    unsigned i;
    if (handlers_set) return;
    handlers_set = 1;
    for (i = 0; i < CLEANUP_SIGNAL_COUNT; i++) {
#ifdef _WIN32
        if (signal(cleanup_signals[i], on_signal) == SIG_IGN) signal(cleanup_signals[i], SIG_IGN);
#else
        struct sigaction sa, old;
        if (sigaction(cleanup_signals[i], NULL, &old) != 0 || old.sa_handler == SIG_IGN) continue;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        sigaction(cleanup_signals[i], &sa, NULL);
#endif
    }
}

#ifdef _WIN32
typedef int signal_set;
static void block_signals(signal_set *old) { *old = 0; }
static void restore_signals(const signal_set *old) { (void)old; }
#else
typedef sigset_t signal_set;
static void block_signals(signal_set *old) {
    sigset_t set;
    unsigned i;
    sigemptyset(&set);
    for (i = 0; i < CLEANUP_SIGNAL_COUNT; i++) sigaddset(&set, cleanup_signals[i]);
    sigprocmask(SIG_BLOCK, &set, old);
}
static void restore_signals(const signal_set *old) { sigprocmask(SIG_SETMASK, old, NULL); }
#endif

static void temp_register(char *path) { /* signals blocked */
    unsigned i;
    for (i = 0; i < TEMP_SLOTS; i++)
        if (!temp_paths[i]) {
            temp_paths[i] = path;
            return;
        }
}

static void temp_forget(const char *path) { /* signals blocked */
    unsigned i;
    for (i = 0; i < TEMP_SLOTS; i++)
        if (temp_paths[i] == path) temp_paths[i] = NULL;
}

static char *copy_string(const char *s, size_t n) {
    char *c = (char *)malloc(n + 1);
    if (c) {
        memcpy(c, s, n);
        c[n] = 0;
    }
    return c;
}

/* The file writing `path` should replace: path itself, or the file its
 * symbolic links lead to (which need not exist yet).  Replacing the link
 * would leave the real file, the one the link exists to reach (a package
 * in the game's Mods folder), as it was.  NULL after saying why. */
static char *link_target(const char *path) {
    char *p = copy_string(path, strlen(path));
#ifndef _WIN32
    unsigned hops;
    for (hops = 0; p; hops++) {
        struct stat st;
        char buf[4096];
        ssize_t n;
        char *next, *slash;
        size_t dir;
        if (lstat(p, &st) != 0 || !S_ISLNK(st.st_mode)) break;
        if (hops == 40) {
            tool_error(path, "too many levels of symbolic links; not writing it");
            free(p);
            return NULL;
        }
        n = readlink(p, buf, sizeof buf - 1);
        if (n <= 0) {
            tool_error(path, "cannot read the symbolic link: %s", n < 0 ? strerror(errno) : "empty");
            free(p);
            return NULL;
        }
        buf[n] = 0;
        slash = strrchr(p, '/');
        dir = buf[0] == '/' || !slash ? 0 : (size_t)(slash - p) + 1u; /* relative to the link's directory */
        next = (char *)malloc(dir + (size_t)n + 1u);
        if (next) {
            memcpy(next, p, dir);
            memcpy(next + dir, buf, (size_t)n + 1u);
        }
        free(p);
        p = next;
    }
#endif
    if (!p) tool_error(path, "out of memory");
    return p;
}

/* Whether the file at target (path as given, for messages) may be replaced:
 * 1 with *exists, *in_place (hard-linked, --force) and *read_only (no write
 * bit, --force) set; 0 after saying why. */
static int check_target(const char *path, const char *target, struct stat *st, int *exists, int *in_place,
                        int *read_only) {
    int edit;
    unsigned mode;
    *exists = stat(target, st) == 0;
    *in_place = *read_only = 0;
    if (!*exists) {
        if (errno == ENOENT) return 1;
        tool_error(path, "cannot write: %s", strerror(errno));
        return 0;
    }
    edit = (edited.set && st->st_dev == edited.dev && st->st_ino == edited.ino) ||
           (edited.path && strcmp(edited.path, path) == 0);
    mode = (unsigned)st->st_mode & 07777u;
    if (S_ISDIR(st->st_mode)) {
        tool_error(path, "cannot write: %s", strerror(EISDIR));
        return 0;
    }
    if (!S_ISREG(st->st_mode)) {
        tool_error(path, "is not a regular file (a device, a pipe...); refusing to replace it");
        return 0;
    }
    /* the write bit, checked as such: root may write anything, but a
     * modder who takes the write bits off a package means "keep it" */
    if (!force_overwrite && (st->st_mode & 0222) == 0) {
        tool_error(path, "is read-only (mode %04o); refusing to %s it (--force overrides the write bit; the mode is kept)",
                   mode, edit ? "edit" : "replace");
        return 0;
    }
    if (!force_overwrite && access(target, W_OK) != 0) {
        tool_error(path, "is not writable by this user (mode %04o): %s; refusing to %s it (--force replaces it anyway)",
                   mode, strerror(errno), edit ? "edit" : "replace");
        return 0;
    }
    if (st->st_nlink > 1) {
        if (!force_overwrite) {
            tool_error(path,
                       "has %lu hard links; refusing to %s it: replacing it would split them (the other names "
                       "keeping the old bytes) and writing in place risks every name on a crash (copy it to "
                       "break the links, or --force to write the new bytes into the shared file)",
                       (unsigned long)st->st_nlink, edit ? "edit" : "replace");
            return 0;
        }
        *in_place = 1;
    }
    *read_only = (st->st_mode & 0222) == 0;
    return 1;
}

int tool_edit_check(const char *path) {
    struct stat st;
    int exists, in_place, read_only, ok;
    char *target;
    tool_forget_input(path);
    target = link_target(path);
    if (!target) return 0;
    ok = check_target(path, target, &st, &exists, &in_place, &read_only);
    free(target);
    return ok;
}

/* Outputs are written to a temporary file beside the file replaced and
 * renamed over it only once complete and flushed to disk, so a failure (disk
 * full, a signal, a bug) leaves the old file or nothing, never half a file.
 * An existing file keeps its mode, owner and group; through a symbolic link
 * its target is replaced, the link stays; a read-only file, one of several
 * hard links, or anything but a regular file is refused (--force writes the
 * first two). */
int tool_out_open(tool_out *o, const char *path) {
    size_t n;
    int fd, exists;
    struct stat st;
    signal_set old;
    memset(o, 0, sizeof *o);
    o->path = path;
    if (!force_overwrite && is_input(path)) {
        tool_error(path, "is one of this command's inputs; refusing to overwrite it (add --force to do it anyway)");
        return 0;
    }
    o->target = link_target(path);
    if (!o->target) return 0;
    if (!check_target(path, o->target, &st, &exists, &o->in_place, &o->read_only)) goto fail;
    n = strlen(o->target);
    o->tmp = (char *)malloc(n + 16);
    if (!o->tmp) {
        tool_error(path, "out of memory");
        goto fail;
    }
    memcpy(o->tmp, o->target, n);
    memcpy(o->tmp + n, ".tmp-XXXXXX", 12);
    set_handlers();
    block_signals(&old); /* the temporary file is registered as it comes to be */
    fd = mkstemp(o->tmp);
    if (fd >= 0) temp_register(o->tmp);
    restore_signals(&old);
    if (fd < 0) {
        tool_error(path, "cannot create a file beside it: %s", strerror(errno));
        free(o->tmp); /* no file of ours by that name */
        o->tmp = NULL;
        goto fail;
    }
    if (exists && !o->in_place) { /* the replacement is the same file to everyone else */
        int owned = 1;
#ifndef _WIN32
        /* as root always; as a user only when it changes nothing or to a
         * group of theirs (EPERM otherwise: the file becomes the user's,
         * as any edit by them would make it) */
        owned = fchown(fd, st.st_uid, st.st_gid) == 0;
#endif
        (void)owned;
        (void)fchmod(fd, (mode_t)(st.st_mode & (owned ? 07777 : 0777)));
    } else if (!exists) {
        mode_t mask = (mode_t)umask(0);
        umask(mask);
        (void)fchmod(fd, 0666 & ~mask); /* mkstemp makes 0600; new outputs get the usual mode */
    } /* in place: the temporary file is only a source (and a copy kept if the copy back fails) */
    o->f = fdopen(fd, "wb");
    if (!o->f) {
        tool_error(path, "cannot write: %s", strerror(errno));
        close(fd);
        goto fail;
    }
    return 1;
fail:
    tool_out_abort(o);
    return 0;
}

void tool_out_abort(tool_out *o) {
    signal_set old;
    if (o->f) fclose(o->f);
    if (o->tmp) {
        block_signals(&old);
        unlink(o->tmp);
        temp_forget(o->tmp);
        restore_signals(&old);
        free(o->tmp);
    }
    free(o->target);
    o->f = NULL;
    o->tmp = NULL;
    o->target = NULL;
}

/* Tests only (tests/tool/perms.sh): sleep this many seconds once the
 * temporary file is complete, before it replaces the target, so that a
 * signal can be sent at that point. */
static void test_pause(void) {
    const char *s = getenv("PLUMBOB_TEST_PAUSE_BEFORE_RENAME");
    int secs = s ? atoi(s) : 0;
    if (secs <= 0) return;
#ifdef _WIN32
    Sleep((DWORD)secs * 1000u);
#else
    while ((secs = (int)sleep((unsigned)secs)) > 0) {}
#endif
}

/* Copies the complete temporary file over the target's own bytes, for a
 * hard-linked target (--force): every name sees the edit.  Signals wait
 * until it is done; a failure keeps the temporary file, whole, and says so. */
static int copy_in_place(tool_out *o) {
    int ok = 0, err = 0;
#ifndef _WIN32
    int in = open(o->tmp, O_RDONLY), out = in < 0 ? -1 : open(o->target, O_WRONLY);
    static unsigned char buf[65536];
    off_t total = 0;
    int touched = 0; /* the target's bytes changed */
    signal_set old;
    block_signals(&old);
    if (in < 0 || out < 0) {
        err = errno;
    } else {
        for (;;) {
            ssize_t got = read(in, buf, sizeof buf), put = 0;
            if (got < 0) { err = errno; break; }
            if (got == 0) { ok = 1; break; }
            while (put < got) {
                ssize_t w = write(out, buf + put, (size_t)(got - put));
                if (w < 0) { err = errno; break; }
                put += w;
                touched = 1;
            }
            if (put < got) break;
            total += got;
        }
        if (ok && (ftruncate(out, total) != 0 || fsync(out) != 0)) ok = 0, err = errno, touched = 1;
    }
    if (in >= 0) close(in);
    if (out >= 0 && close(out) != 0 && ok) ok = 0, err = errno;
    if (ok) unlink(o->tmp);
    temp_forget(o->tmp);
    restore_signals(&old);
    if (!ok)
        tool_error(o->path, "cannot write it in place: %s; %sthe complete new file is kept as %s", strerror(err),
                   touched ? "it may be damaged; " : "it is unchanged; ", o->tmp);
#else
    (void)err;
    (void)o; /* never in place: st_nlink is 1 there */
#endif
    return ok;
}

int tool_out_commit(tool_out *o) {
    int ok = o->f != NULL, err = 0;
    signal_set old;
    if (ok && (ferror(o->f) || fflush(o->f) != 0 || fsync(fileno(o->f)) != 0)) ok = 0, err = errno;
    if (o->f && fclose(o->f) != 0 && ok) ok = 0, err = errno;
    o->f = NULL;
    if (ok) test_pause();
    if (ok && o->in_place) {
        ok = copy_in_place(o);
        free(o->tmp);
        o->tmp = NULL;
        free(o->target);
        o->target = NULL;
        return ok;
    }
    if (ok) {
        block_signals(&old);
#ifdef _WIN32
        /* the read-only attribute is Windows' whole mode: no rename over a
         * file that has it, so it comes off for the rename and back on the
         * new file (or the old one, when the rename fails) */
        if (o->read_only) (void)_chmod(o->target, _S_IREAD | _S_IWRITE);
#endif
        if (rename(o->tmp, o->target) != 0) ok = 0, err = errno;
        else temp_forget(o->tmp);
#ifdef _WIN32
        if (o->read_only) (void)_chmod(o->target, _S_IREAD);
#endif
        restore_signals(&old);
    }
    if (!ok) {
        tool_error(o->path, "cannot write: %s", err ? strerror(err) : "write error");
        tool_out_abort(o);
        return 0;
    }
    free(o->tmp);
    o->tmp = NULL;
    free(o->target);
    o->target = NULL;
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
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && tool_ascii_ncaseeq(s + n - m, suffix, m);
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
