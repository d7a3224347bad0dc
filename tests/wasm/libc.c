/* A tiny C library for the wasm32 unit-test module: just what the unit tests
 * call (printf-style formatting, malloc, mem and str functions, and the
 * stdio file calls tests/test_corpus.c uses).  Output and files go through
 * functions the host imports from module "env" (tests/wasm/run.js gives
 * them in node).  The core itself never sees any of this: it builds into a
 * module with no imports at all (tests/wasm-tests.sh checks).
 * Freestanding C99; compiled with clang --target=wasm32 -mbulk-memory. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define IMPORT(name) __attribute__((import_module("env"), import_name(#name)))
IMPORT(write) void host_write(int fd, const char *p, size_t n);
IMPORT(getenv) int host_getenv(const char *name, size_t len, char *dst, size_t cap);
IMPORT(file_open) int host_file_open(const char *path, size_t len);
IMPORT(file_size) long host_file_size(int handle);
IMPORT(file_read) size_t host_file_read(int handle, long pos, void *dst, size_t n);
IMPORT(file_close) void host_file_close(int handle);

/* --- memory and strings ------------------------------------------------ */
void *memcpy(void *dst, const void *src, size_t n) { return __builtin_memcpy(dst, src, n); }
void *memmove(void *dst, const void *src, size_t n) { return __builtin_memmove(dst, src, n); }
void *memset(void *dst, int c, size_t n) { return __builtin_memset(dst, c, n); }
int memcmp(const void *a, const void *b, size_t n) {
    const unsigned char *x = (const unsigned char *)a, *y = (const unsigned char *)b;
    size_t i;
    for (i = 0; i < n; i++)
        if (x[i] != y[i]) return x[i] < y[i] ? -1 : 1;
    return 0;
}
size_t strlen(const char *s) {
    const char *p = s;
    while (*p) p++;
    return (size_t)(p - s);
}
int strcmp(const char *a, const char *b) {
    while (*a && *a == *b) a++, b++;
    return (unsigned char)*a - (unsigned char)*b;
}
char *strcpy(char *dst, const char *src) {
    char *d = dst;
    while ((*d++ = *src++) != 0) {}
    return dst;
}
char *strcat(char *dst, const char *src) {
    strcpy(dst + strlen(dst), src);
    return dst;
}
void *memchr(const void *p, int c, size_t n) {
    const unsigned char *s = (const unsigned char *)p;
    size_t i;
    for (i = 0; i < n; i++)
        if (s[i] == (unsigned char)c) return (void *)(s + i);
    return NULL;
}
char *strstr(const char *hay, const char *needle) {
    size_t n = strlen(needle);
    for (; *hay; hay++)
        if (memcmp(hay, needle, n) == 0) return (char *)hay;
    return n ? NULL : (char *)hay;
}

/* --- malloc: first fit over a free list, memory.grow for more ------------ */
typedef struct block { size_t size; struct block *next; } block; /* 8 bytes before each allocation */
extern unsigned char __heap_base;
static unsigned char *heap_top;
static block *free_list;

void *malloc(size_t n) {
    block **pp, *b;
    size_t need = (n + 15u) & ~(size_t)15u;
    if (n > 0x7FFF0000u) return NULL;
    for (pp = &free_list; (b = *pp) != NULL; pp = &b->next)
        if (b->size >= need) {
            *pp = b->next;
            return b + 2;
        }
    if (!heap_top) heap_top = (unsigned char *)(((uintptr_t)&__heap_base + 15u) & ~(uintptr_t)15u);
    {
        uintptr_t end = (uintptr_t)heap_top + 16u + need, have = __builtin_wasm_memory_size(0) * 65536u;
        if (end > have && __builtin_wasm_memory_grow(0, (end - have + 65535u) / 65536u) == (size_t)-1) return NULL;
    }
    b = (block *)heap_top;
    b->size = need;
    heap_top += 16u + need;
    return b + 2; /* 16-byte aligned */
}
void *calloc(size_t n, size_t size) {
    void *p = size && n > (size_t)-1 / size ? NULL : malloc(n * size);
    return p ? memset(p, 0, n * size) : NULL;
}
void free(void *p) {
    block *b;
    if (!p) return;
    b = (block *)p - 2;
    b->next = free_list;
    free_list = b;
}

static char env_value[256];
char *getenv(const char *name) {
    int n = host_getenv(name, strlen(name), env_value, sizeof env_value - 1);
    if (n < 0) return NULL;
    env_value[n] = '\0';
    return env_value;
}

/* --- formatting ------------------------------------------------------------ */
typedef struct out { char *p; size_t cap, n; } out;
static void put(out *o, char c) {
    if (o->n + 1 < o->cap) o->p[o->n] = c;
    o->n++;
}
static void put_padded(out *o, const char *s, size_t len, int width, int left, char pad) {
    size_t w = width > 0 ? (size_t)width : 0, i;
    if (!left && pad == '0' && len < w && (*s == '-' || *s == '+')) {
        put(o, *s++);
        len--, w--;
    }
    if (!left)
        for (i = len; i < w; i++) put(o, pad);
    for (i = 0; i < len; i++) put(o, s[i]);
    if (left)
        for (i = len; i < w; i++) put(o, ' ');
}
static size_t utoa(char *buf, uint64_t v, unsigned base, int upper) {
    const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
    char tmp[24];
    size_t n = 0, i;
    do tmp[n++] = digits[v % base]; while ((v /= base) != 0);
    for (i = 0; i < n; i++) buf[i] = tmp[n - 1 - i];
    return n;
}
/* Fixed notation with `prec` decimals (values below 1e18; others go to %e). */
static size_t ftoa_fixed(char *buf, double v, int prec) {
    double scale = 1.0, r;
    uint64_t whole, frac;
    size_t n = 0;
    int i;
    for (i = 0; i < prec; i++) scale *= 10.0;
    r = v * scale + 0.5;
    whole = (uint64_t)(r / scale);
    frac = (uint64_t)(r - (double)whole * scale);
    if ((double)frac >= scale) whole++, frac = 0;
    n = utoa(buf, whole, 10, 0);
    if (prec > 0) {
        char f[24];
        size_t k = utoa(f, frac, 10, 0);
        buf[n++] = '.';
        for (i = (int)k; i < prec; i++) buf[n++] = '0';
        memcpy(buf + n, f, k);
        n += k;
    }
    return n;
}
static size_t ftoa_exp(char *buf, double v, int prec, int *exp10) {
    int e = 0;
    size_t n;
    if (v != 0.0) {
        while (v >= 10.0) v /= 10.0, e++;
        while (v < 1.0) v *= 10.0, e--;
    }
    n = ftoa_fixed(buf, v, prec);
    if (buf[0] == '1' && buf[1] == '0') { /* rounded up to 10.0... */
        n = ftoa_fixed(buf, v / 10.0, prec);
        e++;
    }
    *exp10 = e;
    return n;
}
static size_t fmt_double(char *buf, double v, char conv, int prec) {
    size_t n = 0;
    int e;
    if (v != v) return (size_t)(memcpy(buf, "nan", 3), 3);
    if (v < 0.0 || (v == 0.0 && 1.0 / v < 0.0)) buf[n++] = '-', v = -v;
    if (v > 1.7976931348623157e308) return n + (size_t)(memcpy(buf + n, "inf", 3), 3);
    if (prec < 0) prec = 6;
    if (conv == 'f' && v < 1e18) return n + ftoa_fixed(buf + n, v, prec);
    if (conv == 'g') {
        int p = prec ? prec : 1;
        char tmp[64];
        size_t k = ftoa_exp(tmp, v, p - 1, &e);
        if (e >= -4 && e < p && v < 1e18) k = ftoa_fixed(tmp, v, p - 1 - e);
        else {
            tmp[k++] = 'e';
            tmp[k++] = e < 0 ? '-' : '+';
            if (e < 0) e = -e;
            if (e < 10) tmp[k++] = '0';
            k += utoa(tmp + k, (uint64_t)e, 10, 0);
        }
        /* %g drops trailing zeros of the fraction */
        {
            size_t dot = 0, end = k, i;
            for (i = 0; i < k && tmp[i] != 'e'; i++)
                if (tmp[i] == '.') dot = i + 1;
            if (dot) {
                size_t ep = i, z = ep;
                while (z > dot && tmp[z - 1] == '0') z--;
                if (z == dot) z--;
                memmove(tmp + z, tmp + ep, end - ep);
                k = z + (end - ep);
            }
        }
        memcpy(buf + n, tmp, k);
        return n + k;
    }
    n += ftoa_exp(buf + n, v, prec, &e);
    buf[n++] = 'e';
    buf[n++] = e < 0 ? '-' : '+';
    if (e < 0) e = -e;
    if (e < 10) buf[n++] = '0';
    return n + utoa(buf + n, (uint64_t)e, 10, 0);
}

int vsnprintf(char *dst, size_t cap, const char *fmt, va_list ap) {
    out o;
    o.p = dst, o.cap = cap, o.n = 0;
    for (; *fmt; fmt++) {
        int left = 0, width = 0, prec = -1, lng = 0;
        char pad = ' ', buf[400];
        size_t len;
        if (*fmt != '%') { put(&o, *fmt); continue; }
        fmt++;
        for (;; fmt++) {
            if (*fmt == '-') left = 1;
            else if (*fmt == '0') pad = '0';
            else if (*fmt != '+' && *fmt != ' ' && *fmt != '#') break;
        }
        if (*fmt == '*') width = va_arg(ap, int), fmt++;
        else while (*fmt >= '0' && *fmt <= '9') width = width * 10 + (*fmt++ - '0');
        if (width < 0) left = 1, width = -width;
        if (*fmt == '.') {
            fmt++;
            prec = 0;
            if (*fmt == '*') prec = va_arg(ap, int), fmt++;
            else while (*fmt >= '0' && *fmt <= '9') prec = prec * 10 + (*fmt++ - '0');
        }
        while (*fmt == 'l' || *fmt == 'z' || *fmt == 'h' || *fmt == 'j' || *fmt == 't')
            lng += (*fmt == 'l' || *fmt == 'j') ? (*fmt == 'j' ? 2 : 1) : (*fmt == 'z' || *fmt == 't' ? 0 : 0), fmt++;
        switch (*fmt) {
        case 'd': case 'i': {
            int64_t v = lng >= 2 ? va_arg(ap, long long) : lng == 1 ? va_arg(ap, long) : va_arg(ap, int);
            uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
            len = 0;
            if (v < 0) buf[len++] = '-';
            len += utoa(buf + len, u, 10, 0);
            put_padded(&o, buf, len, width, left, pad);
            break;
        }
        case 'u': case 'x': case 'X': {
            uint64_t u = lng >= 2 ? va_arg(ap, unsigned long long) : lng == 1 ? va_arg(ap, unsigned long) : va_arg(ap, unsigned);
            len = utoa(buf, u, *fmt == 'u' ? 10u : 16u, *fmt == 'X');
            put_padded(&o, buf, len, width, left, pad);
            break;
        }
        case 'p':
            buf[0] = '0', buf[1] = 'x';
            len = 2 + utoa(buf + 2, (uintptr_t)va_arg(ap, void *), 16, 0);
            put_padded(&o, buf, len, width, left, ' ');
            break;
        case 'c':
            buf[0] = (char)va_arg(ap, int);
            put_padded(&o, buf, 1, width, left, ' ');
            break;
        case 's': {
            const char *s = va_arg(ap, const char *);
            if (!s) s = "(null)";
            len = 0;
            while (s[len] && (prec < 0 || len < (size_t)prec)) len++;
            put_padded(&o, s, len, width, left, ' ');
            break;
        }
        case 'f': case 'g': case 'e':
            len = fmt_double(buf, va_arg(ap, double), *fmt, prec);
            put_padded(&o, buf, len, width, left, pad);
            break;
        case '%':
            put(&o, '%');
            break;
        default:
            put(&o, '%');
            if (*fmt) put(&o, *fmt);
            else fmt--;
        }
    }
    if (cap) dst[o.n < cap ? o.n : cap - 1] = '\0';
    return (int)o.n;
}

int snprintf(char *dst, size_t cap, const char *fmt, ...) {
    va_list ap;
    int n;
    va_start(ap, fmt);
    n = vsnprintf(dst, cap, fmt, ap);
    va_end(ap);
    return n;
}

/* --- stdio: stdout is line buffered, files are read through the host ----- */
struct pb_wasm_file { int fd, handle; long pos, size; };
static struct pb_wasm_file std_files[2] = {{1, -1, 0, 0}, {2, -1, 0, 0}};
FILE *const stdout = &std_files[0];
FILE *const stderr = &std_files[1];
static char line[4096];
static size_t line_n;

int fflush(FILE *f) {
    (void)f;
    if (line_n) host_write(1, line, line_n);
    line_n = 0;
    return 0;
}
static void emit(FILE *f, const char *s, size_t n) {
    size_t i;
    if (f != stdout) {
        fflush(stdout);
        host_write(f->fd, s, n);
        return;
    }
    for (i = 0; i < n; i++) {
        line[line_n++] = s[i];
        if (s[i] == '\n' || line_n == sizeof line) fflush(stdout);
    }
}
int vfprintf(FILE *f, const char *fmt, va_list ap) {
    char buf[2048];
    va_list copy;
    int n;
    va_copy(copy, ap);
    n = vsnprintf(buf, sizeof buf, fmt, copy);
    va_end(copy);
    emit(f, buf, (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
    return n;
}
int fprintf(FILE *f, const char *fmt, ...) {
    va_list ap;
    int n;
    va_start(ap, fmt);
    n = vfprintf(f, fmt, ap);
    va_end(ap);
    return n;
}
int printf(const char *fmt, ...) {
    va_list ap;
    int n;
    va_start(ap, fmt);
    n = vfprintf(stdout, fmt, ap);
    va_end(ap);
    return n;
}
int puts(const char *s) {
    emit(stdout, s, strlen(s));
    emit(stdout, "\n", 1);
    return 0;
}
int putchar(int c) {
    char ch = (char)c;
    emit(stdout, &ch, 1);
    return c;
}

FILE *fopen(const char *path, const char *mode) {
    FILE *f;
    int h;
    if (mode[0] != 'r') return NULL; /* the tests only read */
    h = host_file_open(path, strlen(path));
    if (h < 0) return NULL;
    f = (FILE *)malloc(sizeof *f);
    if (!f) { host_file_close(h); return NULL; }
    f->fd = -1, f->handle = h, f->pos = 0, f->size = host_file_size(h);
    return f;
}
int fclose(FILE *f) {
    if (f && f->handle >= 0) host_file_close(f->handle);
    free(f);
    return 0;
}
size_t fread(void *dst, size_t size, size_t n, FILE *f) {
    size_t got;
    if (!size || !n) return 0;
    got = host_file_read(f->handle, f->pos, dst, size * n);
    f->pos += (long)got;
    return got / size;
}
int fseek(FILE *f, long off, int whence) {
    long base = whence == SEEK_SET ? 0 : whence == SEEK_CUR ? f->pos : f->size;
    if (base + off < 0) return -1;
    f->pos = base + off;
    return 0;
}
long ftell(FILE *f) { return f->pos; }

/* --- the entry node calls ------------------------------------------------------ */
int main(int argc, char **argv);
__attribute__((export_name("pb_wasm_run"))) int pb_wasm_run(void) {
    static char prog[] = "plumbob-tests";
    char *argv[2];
    int rc;
    argv[0] = prog, argv[1] = NULL;
    rc = main(1, argv);
    fflush(stdout);
    return rc;
}
