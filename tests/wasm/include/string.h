/* The string and memory calls of the unit tests, for the wasm32 test module. */
#ifndef PB_WASM_STRING_H
#define PB_WASM_STRING_H
#include <stddef.h>
void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
int strcmp(const char *a, const char *b);
char *strstr(const char *hay, const char *needle);
char *strcpy(char *dst, const char *src);
char *strcat(char *dst, const char *src);
void *memchr(const void *p, int c, size_t n);
#endif
