/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - the AArch64 NEON paths of the conversion kernels
 * (convert_simd.h): the kernels of convert_simd_body.h over 128-bit vectors,
 * compiled twice:
 *   neon       Advanced SIMD of ARMv8.0, with its FP16 conversions
 *              (FCVTN/FCVTL are baseline, not the ARMv8.2 FP16 extension)
 *   neon-bf16  the same, and BFCVTN of ARMv8.6 BF16 for FP32 -> BF16;
 *              compiled with a target attribute, run only when the kernel
 *              says the CPU has it (HWCAP2_BF16, convert_simd.c)
 * Elsewhere than AArch64 this file is empty.
 */
#include "convert_simd.h"

#if OSL_HAVE_NEON_PATHS

#  include <arm_neon.h>
#  include <string.h>

#  define F_TRUNC ONNXSLIM_CONVERT_TRUNCATE
#  define F_SAT ONNXSLIM_CONVERT_SATURATE
#  define F_FLUSH ONNXSLIM_CONVERT_FLUSH_SUBNORMALS
#  define F_ALL (F_TRUNC | F_SAT | F_FLUSH)

/* No non-temporal stores: AArch64's STNP is only a hint, and the output
 * head/tail split they need buys nothing measurable under emulation. */
#  define NT_MIN SIZE_MAX
#  define NT_FENCE() ((void)0)

typedef uint32_t osl_u32x4 __attribute__((vector_size(16)));
typedef int32_t osl_i32x4 __attribute__((vector_size(16)));
typedef uint64_t osl_u64x2 __attribute__((vector_size(16)));
typedef int64_t osl_i64x2 __attribute__((vector_size(16)));
typedef double osl_f64x2 __attribute__((vector_size(16)));
typedef float osl_f32x4 __attribute__((vector_size(16)));
typedef int16_t osl_i16x8 __attribute__((vector_size(16)));
#  define W 4
#  define VU32 osl_u32x4
#  define VI32 osl_i32x4
#  define VU64 osl_u64x2
#  define VI64 osl_i64x2
#  define VF64 osl_f64x2
#  define VF32 osl_f32x4
#  define VI16 osl_i16x8
#  define VH uint16x4_t

/* ---- neon: ARMv8.0 Advanced SIMD ----------------------------------------------- */

#  define TA
#  define IA static inline __attribute__((always_inline))
#  define NA static __attribute__((noinline))
#  define X(name) name##_neon
#  define HAS_BF16 0
#  include "convert_neon_ops.h"
#  include "convert_simd_body.h"
#  undef TA
#  undef IA
#  undef NA
#  undef X
#  undef HAS_BF16

/* ---- neon-bf16: and ARMv8.6 BF16 ------------------------------------------------ */

#  define NEON_BF16_TARGET "arch=armv8.2-a+bf16"
#  define TA __attribute__((target(NEON_BF16_TARGET)))
#  define IA static inline __attribute__((always_inline, target(NEON_BF16_TARGET)))
#  define NA static __attribute__((noinline, target(NEON_BF16_TARGET)))
#  define X(name) name##_neonbf16
#  define HAS_BF16 1
#  include "convert_neon_ops.h"
#  include "convert_simd_body.h"

const osl_convert_fn *onnxslim__convert_neon_table(int bf16) {
  return bf16 ? table_neonbf16 : table_neon;
}

#endif
