/* The few stdio calls the unit tests make, for the wasm32 test module
 * (tests/wasm/libc.c; node supplies the bytes through imports). */
#ifndef PB_WASM_STDIO_H
#define PB_WASM_STDIO_H
#include <stdarg.h>
#include <stddef.h>

typedef struct pb_wasm_file FILE;
extern FILE *const stdout;
extern FILE *const stderr;
#define EOF (-1)
#define SEEK_SET 0
#define SEEK_CUR 1
#define SEEK_END 2

int printf(const char *fmt, ...);
int fprintf(FILE *f, const char *fmt, ...);
int snprintf(char *dst, size_t cap, const char *fmt, ...);
int vsnprintf(char *dst, size_t cap, const char *fmt, va_list ap);
int vfprintf(FILE *f, const char *fmt, va_list ap);
int puts(const char *s);
int putchar(int c);
int fflush(FILE *f);
FILE *fopen(const char *path, const char *mode);
int fclose(FILE *f);
size_t fread(void *dst, size_t size, size_t n, FILE *f);
int fseek(FILE *f, long off, int whence);
long ftell(FILE *f);
#endif
