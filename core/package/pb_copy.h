/* Internal: small fixed-size copies (8 and 16 bytes; source and destination
 * must not overlap) for the decompressor's hot loop.
 * __builtin_memcpy of a constant 8 bytes compiles to one unaligned-safe
 * load and store (on strict-alignment CPUs the compiler emits byte-safe
 * code), and never calls the library.  Other compilers get a byte loop. */
#ifndef PLUMBOB_PB_COPY_H
#define PLUMBOB_PB_COPY_H

#if defined(__GNUC__) || defined(__clang__)
#  define PB_COPY8(dst, src) __builtin_memcpy((dst), (src), 8)
#  define PB_COPY16(dst, src) __builtin_memcpy((dst), (src), 16)
#else
#  define PB_COPY8(dst, src) \
    do { unsigned char *d_ = (dst); const unsigned char *s_ = (src); int k_; \
         for (k_ = 0; k_ < 8; k_++) d_[k_] = s_[k_]; } while (0)
#  define PB_COPY16(dst, src) \
    do { PB_COPY8((dst), (src)); PB_COPY8((dst) + 8, (src) + 8); } while (0)
#endif

#endif
