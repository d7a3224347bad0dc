/* Little-endian loads and stores for the tool's file writers and readers.
 * The tool's own copy: the core's byte helpers are private to the library, and
 * tools/ uses only the public header (tests/build-tests.sh checks that). Each
 * value is built from single bytes, so output is the same on every host. */
#ifndef PLUMBOB_TOOL_BYTES_H
#define PLUMBOB_TOOL_BYTES_H

#include <stdint.h>
#include <string.h>

static inline uint16_t tool_le16(const unsigned char *p) {
    return (uint16_t)(p[0] | (p[1] << 8));
}
static inline uint32_t tool_le32(const unsigned char *p) {
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}
static inline float tool_f32le(const unsigned char *p) {
    uint32_t u = tool_le32(p);
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}
static inline void tool_put_le16(unsigned char *p, uint16_t v) {
    p[0] = (unsigned char)(v & 0xFFu);
    p[1] = (unsigned char)(v >> 8);
}
static inline void tool_put_le32(unsigned char *p, uint32_t v) {
    p[0] = (unsigned char)(v & 0xFFu);
    p[1] = (unsigned char)((v >> 8) & 0xFFu);
    p[2] = (unsigned char)((v >> 16) & 0xFFu);
    p[3] = (unsigned char)(v >> 24);
}
static inline void tool_put_le64(unsigned char *p, uint64_t v) {
    tool_put_le32(p, (uint32_t)(v & 0xFFFFFFFFu));
    tool_put_le32(p + 4, (uint32_t)(v >> 32));
}
static inline void tool_put_f32le(unsigned char *p, float f) {
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    tool_put_le32(p, u);
}

#endif
