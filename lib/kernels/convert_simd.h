/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - runtime dispatch of the conversion kernels to SIMD code
 * (convert_simd.c). Internal, never installed.
 *
 * A "path" is one instruction set the kernels are written for:
 *   OSL_PATH_SCALAR  portable C (convert_scalar.c): the reference
 *   OSL_PATH_AVX2    x86-64 AVX2 + F16C, 256-bit vectors
 *   OSL_PATH_AVX512  x86-64 AVX-512 F/BW/VL + AVX-512 BF16 (and F16C),
 *                    512-bit vectors; vcvtneps2bf16 for FP32 -> BF16
 *   OSL_PATH_NEON    AArch64 Advanced SIMD (ARMv8.0) with its FP16
 *                    conversions, 128-bit vectors (convert_neon.c)
 *   OSL_PATH_NEON_BF16  the same and ARMv8.6 BF16 (BFCVTN for FP32 -> BF16)
 * Every path gives the same bytes and the same stats as the scalar reference
 * (tests: test/test_convert_paths.c; check-long runs its exhaustive checks on
 * every path the CPU has).
 *
 * The path is chosen once, at the first conversion (thread-safe): the widest
 * the CPU supports, or the one environment variable LIBONNXSLIM_KERNELS names
 * (scalar, avx2, avx512, neon, neon-bf16) when the CPU supports it, else the
 * widest supported one below it. Unknown values, and paths of another
 * architecture (avx2 on arm64), are ignored. On AArch64 the CPU's features
 * come from getauxval(AT_HWCAP, AT_HWCAP2) where the C library has it. Whatever the path, a call
 * made while the floating-point environment is not the default one (SSE's MXCSR or AArch64's FPCR:
 * another rounding mode, flush-to-zero, denormals-are-zero, default NaN, alternative half
 * precision) runs the scalar code, whose results do not depend on it.
 */
#ifndef ONNXSLIM_CONVERT_SIMD_H
#define ONNXSLIM_CONVERT_SIMD_H

#include "convert_kernels.h"

enum {
  OSL_PATH_SCALAR,
  OSL_PATH_AVX2,
  OSL_PATH_AVX512,
  OSL_PATH_NEON,
  OSL_PATH_NEON_BF16,
  OSL_PATH_COUNT
};

#if defined(__aarch64__) && defined(__GNUC__) && \
    ((defined(__clang__) && __clang_major__ >= 11) || (!defined(__clang__) && __GNUC__ >= 10))
#  define OSL_HAVE_NEON_PATHS 1
/* The kernel tables of convert_neon.c (bf16: the neon-bf16 path). */
const osl_convert_fn *onnxslim__convert_neon_table(int bf16);
#else
#  define OSL_HAVE_NEON_PATHS 0
#endif

/* The SIMD function of kernel `kind` (K_*) to call now, or NULL when the
 * scalar reference must run (scalar path, or non-default floating-point
 * environment). Same signature and contract as the kernels. */
osl_convert_fn onnxslim__convert_simd(int kind);

/* The same for path p instead of the path in use (p must be available; for
 * the exhaustive checks, which run every path side by side). */
osl_convert_fn onnxslim__convert_simd_of(int p, int kind);

/* The path in use (chosen on first use if not yet). */
int onnxslim__convert_path(void);

/* The path LIBONNXSLIM_KERNELS asked for, or -1 when unset or unknown. When it
 * differs from onnxslim__convert_path(), the CPU lacks it. */
int onnxslim__convert_path_requested(void);

/* 1 when this CPU (and build) can run path p. */
int onnxslim__convert_path_available(int p);

/* For tests: use path p from now on (all threads). 0, or -1 when p is not
 * available (the path is then unchanged). p = -1 repeats the automatic
 * choice (environment variable included). */
int onnxslim__convert_set_path(int p);

/* "scalar", "avx2", "avx512", "neon", "neon-bf16" ("?" for anything else). */
const char *onnxslim__convert_path_name(int p);

#endif /* ONNXSLIM_CONVERT_SIMD_H */
