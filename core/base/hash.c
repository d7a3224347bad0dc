/* Name hashes over ASCII-lowercased names: FNV-1 (Sims 3 keys and bone
 * hashes) and the Sims 2 instance CRCs. */
#include "plumbob/base.h"
#include "pb_hash.h"
#include "pb_ascii.h"

#define FNV32_OFFSET PB_FNV32_OFFSET
#define FNV32_PRIME 0x01000193u
#define FNV64_OFFSET PB_FNV64_OFFSET
#define FNV64_PRIME 0x00000100000001B3ull

uint32_t pb_fnv32_update(uint32_t h, const char *s, size_t len) {
    size_t i;
    for (i = 0; i < len; i++) {
        h *= FNV32_PRIME;
        h ^= pb_ascii_lower((unsigned char)s[i]);
    }
    return h;
}

uint64_t pb_fnv64_update(uint64_t h, const char *s, size_t len) {
    size_t i;
    for (i = 0; i < len; i++) {
        h *= FNV64_PRIME;
        h ^= pb_ascii_lower((unsigned char)s[i]);
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

bool plumbob_name_equal(const char *a, size_t a_len, const char *b, size_t b_len) {
    if (a_len != b_len) return false;
    if (a_len == 0) return true;
    return a && b && pb_ascii_caseeq(a, b, a_len);
}

/* MSB-first CRC of `width` bits (24 or 32) over the lowercased name, bit by
 * bit: names are short, and a table would be a global. */
static uint32_t crc_msb(const char *s, size_t len, uint32_t poly, uint32_t init, unsigned width) {
    uint32_t top = 1u << (width - 1u), mask = width == 32u ? 0xFFFFFFFFu : (1u << width) - 1u, c = init;
    size_t i;
    unsigned b;
    for (i = 0; i < len; i++) {
        c ^= (uint32_t)pb_ascii_lower((unsigned char)s[i]) << (width - 8u);
        for (b = 0; b < 8u; b++) c = (c & top) ? ((c << 1) ^ poly) & mask : (c << 1) & mask;
    }
    return c;
}

uint64_t plumbob_sims2_instance(const char *name, size_t len) {
    uint32_t hi, lo;
    if (!name) len = 0;
    hi = crc_msb(name, len, 0x04C11DB7u, 0xFFFFFFFFu, 32u);
    lo = crc_msb(name, len, 0x864CFBu, 0xB704CEu, 24u) | 0xFF000000u;
    return (uint64_t)hi << 32 | lo;
}
