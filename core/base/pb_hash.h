/* Internal: streaming FNV-1 so names can be hashed piecewise without a copy. */
#ifndef PLUMBOB_PB_HASH_H
#define PLUMBOB_PB_HASH_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

#define PB_FNV32_OFFSET 0x811C9DC5u
#define PB_FNV64_OFFSET 0xCBF29CE484222325ull

/* Shared between files of the library, so not static: renamed into the
 * plumbob_ namespace so libplumbob exports no other prefix (checked by
 * tests/build-tests.sh). */
#define pb_fnv32_update plumbob_pb_fnv32_update
#define pb_fnv64_update plumbob_pb_fnv64_update
#define pb_strlen plumbob_pb_strlen
#define pb_age_code_valid plumbob_pb_age_code_valid

uint32_t pb_fnv32_update(uint32_t h, const char *s, size_t len);
uint64_t pb_fnv64_update(uint64_t h, const char *s, size_t len);
size_t pb_strlen(const char *s);

/* True when code is one of the PLUMBOB_AGE_* values (clipname.c). */
bool pb_age_code_valid(int code);

#endif
