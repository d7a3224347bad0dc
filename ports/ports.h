/* The one place that chooses the kernel port at compile time.
 *
 *   PLUMBOB_NO_SIMD defined       -> scalar reference kernels only
 *   SSE2 available (x86, x86-64)  -> PLUMBOB_PORT_SSE2 (named "avx2" when
 *                                    built with -mavx2: the same kernels
 *                                    VEX-encoded, with 256-bit bodies for
 *                                    blended skinning and clip lanes
 *                                    (skin_avx2.h, clip_avx2.h); no FMA,
 *                                    so the same bits)
 *   NEON available (AArch64, ARMv7 with -mfpu=neon) -> PLUMBOB_PORT_NEON
 *   otherwise                     -> scalar
 *
 * The scalar kernels are always compiled: they are the reference the SIMD
 * twins are tested against.  Kernels are added here by the format that
 * needs them (track sampling, skinning). */
#ifndef PLUMBOB_PORTS_H
#define PLUMBOB_PORTS_H

#if !defined(PLUMBOB_NO_SIMD)
#  if defined(__SSE2__) || defined(_M_X64) || (defined(_M_IX86_FP) && _M_IX86_FP >= 2)
#    define PLUMBOB_PORT_SSE2 1
#    if defined(__AVX2__)
#      define PLUMBOB_PORT_NAME "avx2"
#    else
#      define PLUMBOB_PORT_NAME "sse2"
#    endif
#  elif defined(__ARM_NEON) || defined(__ARM_NEON__)
#    define PLUMBOB_PORT_NEON 1
#    define PLUMBOB_PORT_NAME "neon"
#  endif
#endif
#ifndef PLUMBOB_PORT_NAME
#  define PLUMBOB_PORT_SCALAR 1
#  define PLUMBOB_PORT_NAME "scalar"
#endif

#endif
