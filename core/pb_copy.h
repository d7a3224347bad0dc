/* Internal: small fixed-size copies for the decompressor's hot loop.
 * __builtin_memcpy of a constant 8 bytes compiles to one unaligned-safe
 * load and store (on strict-alignment CPUs the compiler emits byte-safe
 * code), and never calls the library.  Other compilers get a byte loop. */
#ifndef PLUMBOB_PB_COPY_H
#define PLUMBOB_PB_COPY_H

#if defined(__GNUC__) || defined(__clang__)
#  define PB_COPY8(dst, src) __builtin_memcpy((dst), (src), 8)
#else
#  define PB_COPY8(dst, src) \
    do { unsigned char *d_ = (dst); const unsigned char *s_ = (src); int k_; \
         for (k_ = 0; k_ < 8; k_++) d_[k_] = s_[k_]; } while (0)
#endif

#endif
