/* FNV-1 hashes over ASCII-lowercased names (the games' name hashing). */
#include "plumbob.h"
#include "pb_hash.h"

#define FNV32_OFFSET PB_FNV32_OFFSET
#define FNV32_PRIME 0x01000193u
#define FNV64_OFFSET PB_FNV64_OFFSET
#define FNV64_PRIME 0x00000100000001B3ull

static unsigned char lower_ascii(unsigned char c) {
    return (c >= 'A' && c <= 'Z') ? (unsigned char)(c + ('a' - 'A')) : c;
}

uint32_t pb_fnv32_update(uint32_t h, const char *s, size_t len) {
    size_t i;
    for (i = 0; i < len; i++) {
        h *= FNV32_PRIME;
        h ^= lower_ascii((unsigned char)s[i]);
    }
    return h;
}

uint64_t pb_fnv64_update(uint64_t h, const char *s, size_t len) {
    size_t i;
    for (i = 0; i < len; i++) {
        h *= FNV64_PRIME;
        h ^= lower_ascii((unsigned char)s[i]);
    }
    return h;
}

uint32_t plumbob_fnv32(const char *name, size_t len) {
    return name ? pb_fnv32_update(FNV32_OFFSET, name, len) : FNV32_OFFSET;
}

uint64_t plumbob_fnv64(const char *name, size_t len) {
    return name ? pb_fnv64_update(FNV64_OFFSET, name, len) : FNV64_OFFSET;
}

size_t pb_strlen(const char *s) {
    /* A pointer walk: gcc turns the indexed form (while (s[n]) n++) into a
     * call to libc's strlen, which the core must not need. */
    const char *p = s;
    if (!s) return 0;
    while (*p) p++;
    return (size_t)(p - s);
}

uint32_t plumbob_fnv32_str(const char *name) {
    return plumbob_fnv32(name, pb_strlen(name));
}

uint64_t plumbob_fnv64_str(const char *name) {
    return plumbob_fnv64(name, pb_strlen(name));
}
