/* malloc and friends for the wasm32 test module (tests/wasm/libc.c). */
#ifndef PB_WASM_STDLIB_H
#define PB_WASM_STDLIB_H
#include <stddef.h>
void *malloc(size_t n);
void *calloc(size_t n, size_t size);
void free(void *p);
char *getenv(const char *name);
#endif
