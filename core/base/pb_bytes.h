/* Internal: byte-assembled loads and stores shared by every core file.
 * No pointer casts into input: each value is built from single bytes, so the
 * result does not depend on the host's byte order or alignment rules.
 * Callers must have checked that the bytes exist (the bounded reader does). */
#ifndef PLUMBOB_PB_BYTES_H
#define PLUMBOB_PB_BYTES_H

#include <stdint.h>

static inline uint16_t pb_le16(const unsigned char *p) {
    return (uint16_t)(p[0] | (p[1] << 8));
}
static inline uint16_t pb_be16(const unsigned char *p) {
    return (uint16_t)((p[0] << 8) | p[1]);
}
static inline uint32_t pb_le32(const unsigned char *p) {
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}
static inline uint32_t pb_be32(const unsigned char *p) {
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}
static inline uint64_t pb_le64(const unsigned char *p) {
    return (uint64_t)pb_le32(p) | ((uint64_t)pb_le32(p + 4) << 32);
}
static inline uint64_t pb_be64(const unsigned char *p) {
    return ((uint64_t)pb_be32(p) << 32) | (uint64_t)pb_be32(p + 4);
}

/* Bit pattern <-> float through a union: defined behaviour in C99 (TC3) and
 * compiled to a register move, with no memcpy call and no aliasing cast. */
static inline float pb_f32_from_bits(uint32_t u) {
    union { uint32_t u; float f; } v;
    v.u = u;
    return v.f;
}
static inline uint32_t pb_bits_from_f32(float f) {
    union { uint32_t u; float f; } v;
    v.f = f;
    return v.u;
}

/* A little-endian f32 (the reader's and every kernel's float load). */
static inline float pb_f32le(const unsigned char *p) {
    return pb_f32_from_bits(pb_le32(p));
}

static inline void pb_put_le16(unsigned char *p, uint16_t v) {
    p[0] = (unsigned char)(v & 0xFFu);
    p[1] = (unsigned char)(v >> 8);
}
static inline void pb_put_le32(unsigned char *p, uint32_t v) {
    p[0] = (unsigned char)(v & 0xFFu);
    p[1] = (unsigned char)((v >> 8) & 0xFFu);
    p[2] = (unsigned char)((v >> 16) & 0xFFu);
    p[3] = (unsigned char)(v >> 24);
}
static inline void pb_put_f32le(unsigned char *p, float f) {
    pb_put_le32(p, pb_bits_from_f32(f));
}
static inline void pb_put_le64(unsigned char *p, uint64_t v) {
    pb_put_le32(p, (uint32_t)(v & 0xFFFFFFFFu));
    pb_put_le32(p + 4, (uint32_t)(v >> 32));
}

#endif
