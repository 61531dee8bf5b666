/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - internal entry points of the numeric conversion kernels
 * (convert_kernels.c, convert_scalar.c, convert_simd.c), for the initializer-level conversion
 * (convert.c). Never installed.
 *
 * Every kernel has the same signature and the numeric policy documented in
 * include/onnxslim/convert.h. Unlike the public functions, kernels do not
 * check their arguments: the caller first calls onnxslim__convert_check()
 * (or knows the arguments are valid). dst and src are byte buffers in host
 * byte order; they need no alignment and must not overlap. stats may be
 * NULL; when given, it accumulates (count, nan, ... are added to). The
 * widening kernels ignore flags and, given stats, count elements and NaNs
 * (their error is always 0).
 */
#ifndef ONNXSLIM_CONVERT_KERNELS_H
#define ONNXSLIM_CONVERT_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#include "onnxslim/convert.h"

typedef void (*osl_convert_fn)(void *dst, const void *src, size_t n, unsigned int flags,
                               onnxslim_convert_stats *stats);

/* One supported conversion. */
typedef struct osl_convert_kernel {
  int32_t from, to;           /* ONNXSLIM_DTYPE_* */
  unsigned int from_size;     /* bytes per element of src */
  unsigned int to_size;       /* bytes per element of dst */
  unsigned int flags_allowed; /* ONNXSLIM_CONVERT_* flags the kernel accepts */
  osl_convert_fn fn;
  const char *name; /* e.g. "f32_to_bf16" */
} osl_convert_kernel;

/* The kernel converting dtype `from` to dtype `to` (ONNXSLIM_DTYPE_FLOAT,
 * FLOAT16, BFLOAT16, DOUBLE), or NULL when there is none (also from == to). */
const osl_convert_kernel *onnxslim__convert_kernel(int32_t from, int32_t to);

/* Validates the arguments of a call of kernel k the way the public functions
 * do: 0, or ONNXSLIM_EINVAL with a last-error message that starts with
 * `who` (NULL dst/src with n > 0, flags outside k->flags_allowed, unknown
 * stats->version). */
int onnxslim__convert_check(const char *who, const osl_convert_kernel *k, const void *dst,
                            const void *src, size_t n, unsigned int flags,
                            const onnxslim_convert_stats *stats);

/* Index of each kernel in the kernel table (also the SIMD tables). */
enum {
  K_F32_BF16,
  K_F32_F16,
  K_BF16_F32,
  K_F16_F32,
  K_F64_F32,
  K_F32_F64,
  K_F16_BF16,
  K_BF16_F16,
  K_COUNT
};

/* The kernels themselves: the SIMD code of the dispatched path
 * (convert_simd.h) when there is one, else the scalar reference. */
void onnxslim__convert_f32_to_bf16(void *dst, const void *src, size_t n, unsigned int flags,
                                   onnxslim_convert_stats *stats);
void onnxslim__convert_f32_to_f16(void *dst, const void *src, size_t n, unsigned int flags,
                                  onnxslim_convert_stats *stats);
void onnxslim__convert_bf16_to_f32(void *dst, const void *src, size_t n, unsigned int flags,
                                   onnxslim_convert_stats *stats);
void onnxslim__convert_f16_to_f32(void *dst, const void *src, size_t n, unsigned int flags,
                                  onnxslim_convert_stats *stats);
void onnxslim__convert_f64_to_f32(void *dst, const void *src, size_t n, unsigned int flags,
                                  onnxslim_convert_stats *stats);
void onnxslim__convert_f32_to_f64(void *dst, const void *src, size_t n, unsigned int flags,
                                  onnxslim_convert_stats *stats);
void onnxslim__convert_f16_to_bf16(void *dst, const void *src, size_t n, unsigned int flags,
                                   onnxslim_convert_stats *stats);
void onnxslim__convert_bf16_to_f16(void *dst, const void *src, size_t n, unsigned int flags,
                                   onnxslim_convert_stats *stats);

/* The scalar references: portable C, the definition of every result and
 * stats value (the SIMD paths must give the same bytes and stats). */
void onnxslim__convert_scalar_f32_to_bf16(void *dst, const void *src, size_t n, unsigned int flags,
                                          onnxslim_convert_stats *stats);
void onnxslim__convert_scalar_f32_to_f16(void *dst, const void *src, size_t n, unsigned int flags,
                                         onnxslim_convert_stats *stats);
void onnxslim__convert_scalar_bf16_to_f32(void *dst, const void *src, size_t n, unsigned int flags,
                                          onnxslim_convert_stats *stats);
void onnxslim__convert_scalar_f16_to_f32(void *dst, const void *src, size_t n, unsigned int flags,
                                         onnxslim_convert_stats *stats);
void onnxslim__convert_scalar_f64_to_f32(void *dst, const void *src, size_t n, unsigned int flags,
                                         onnxslim_convert_stats *stats);
void onnxslim__convert_scalar_f32_to_f64(void *dst, const void *src, size_t n, unsigned int flags,
                                         onnxslim_convert_stats *stats);
void onnxslim__convert_scalar_f16_to_bf16(void *dst, const void *src, size_t n, unsigned int flags,
                                          onnxslim_convert_stats *stats);
void onnxslim__convert_scalar_bf16_to_f16(void *dst, const void *src, size_t n, unsigned int flags,
                                          onnxslim_convert_stats *stats);

/* FP64 -> FP32 by integer arithmetic only, one value at a time: the path the
 * FP64 kernel takes when the floating-point environment is not the default
 * one. Exposed for the exhaustive tests. */
void onnxslim__convert_f64_to_f32_int(void *dst, const void *src, size_t n, unsigned int flags);

/* 1 when the calling thread's floating-point environment rounds to nearest
 * and keeps subnormal floats (no flush-to-zero / denormals-are-zero). */
int onnxslim__fp_env_default(void);

#endif /* ONNXSLIM_CONVERT_KERNELS_H */
