/* Whole-file reads and writes, the tool's error line, small string parsing. */
#ifndef PLUMBOB_TOOL_FILES_H
#define PLUMBOB_TOOL_FILES_H

#include <stddef.h>
#include <stdint.h>

/* Prints "plumbob: <where>: <what>" to stderr. */
void tool_error(const char *where, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Reads a whole file; returns 0 (after printing why) on failure. */
int tool_read_file(const char *path, unsigned char **data, size_t *size);
/* Writes data[0..n) to path; returns 0 (after printing why) on failure. */
int tool_write_file(const char *path, const void *data, size_t n);
/* Does s end with `suffix` (lowercase), ignoring ASCII case? */
int tool_ends_with(const char *s, const char *suffix);
/* Parses s[0..len) as a hex number (0x optional, at most 16 digits);
 * returns 0 on junk. */
int tool_parse_hex(const char *s, size_t len, uint64_t *out);

#endif
