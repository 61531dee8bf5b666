/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - numeric conversion kernels between FP32, FP16, BF16 and FP64:
 * dispatch, the kernel table, argument checks and the public functions.
 *
 * Numeric policy: include/onnxslim/convert.h. Internal entry points:
 * convert_kernels.h. The kernels themselves: the scalar reference
 * (convert_scalar.c) and the SIMD paths (convert_simd.c).
 */
#include <string.h>

#include "convert_kernels.h"
#include "convert_simd.h"
#include "base/base.h"

#define F_TRUNC ONNXSLIM_CONVERT_TRUNCATE
#define F_SAT ONNXSLIM_CONVERT_SATURATE
#define F_FLUSH ONNXSLIM_CONVERT_FLUSH_SUBNORMALS
#define F_ALL (F_TRUNC | F_SAT | F_FLUSH)

/* ---- dispatch ---------------------------------------------------------------- *
 * Every kernel runs the SIMD code of the path chosen at the first call
 * (convert_simd.c) when there is one and the floating-point environment lets
 * it run, else the scalar reference above. Both give the same bytes and the
 * same stats. */
#define DISPATCH(KIND, NAME)                                                              \
  void onnxslim__convert_##NAME(void *dst, const void *src, size_t n, unsigned int flags, \
                                onnxslim_convert_stats *stats) {                          \
    osl_convert_fn f = onnxslim__convert_simd(KIND);                                      \
    (f ? f : onnxslim__convert_scalar_##NAME)(dst, src, n, flags, stats);                 \
  }
DISPATCH(K_F32_BF16, f32_to_bf16)
DISPATCH(K_F32_F16, f32_to_f16)
DISPATCH(K_BF16_F32, bf16_to_f32)
DISPATCH(K_F16_F32, f16_to_f32)
DISPATCH(K_F64_F32, f64_to_f32)
DISPATCH(K_F32_F64, f32_to_f64)
DISPATCH(K_F16_BF16, f16_to_bf16)
DISPATCH(K_BF16_F16, bf16_to_f16)

/* ---- kernel table, argument checks ---------------------------------------------- */

static const osl_convert_kernel kernels[K_COUNT] = {
    [K_F32_BF16] = {ONNXSLIM_DTYPE_FLOAT, ONNXSLIM_DTYPE_BFLOAT16, 4, 2, F_ALL,
                    onnxslim__convert_f32_to_bf16, "f32_to_bf16"},
    [K_F32_F16] = {ONNXSLIM_DTYPE_FLOAT, ONNXSLIM_DTYPE_FLOAT16, 4, 2, F_SAT | F_FLUSH,
                   onnxslim__convert_f32_to_f16, "f32_to_f16"},
    [K_BF16_F32] = {ONNXSLIM_DTYPE_BFLOAT16, ONNXSLIM_DTYPE_FLOAT, 2, 4, 0,
                    onnxslim__convert_bf16_to_f32, "bf16_to_f32"},
    [K_F16_F32] = {ONNXSLIM_DTYPE_FLOAT16, ONNXSLIM_DTYPE_FLOAT, 2, 4, 0,
                   onnxslim__convert_f16_to_f32, "f16_to_f32"},
    [K_F64_F32] = {ONNXSLIM_DTYPE_DOUBLE, ONNXSLIM_DTYPE_FLOAT, 8, 4, F_SAT | F_FLUSH,
                   onnxslim__convert_f64_to_f32, "f64_to_f32"},
    [K_F32_F64] = {ONNXSLIM_DTYPE_FLOAT, ONNXSLIM_DTYPE_DOUBLE, 4, 8, 0,
                   onnxslim__convert_f32_to_f64, "f32_to_f64"},
    [K_F16_BF16] = {ONNXSLIM_DTYPE_FLOAT16, ONNXSLIM_DTYPE_BFLOAT16, 2, 2, F_ALL,
                    onnxslim__convert_f16_to_bf16, "f16_to_bf16"},
    [K_BF16_F16] = {ONNXSLIM_DTYPE_BFLOAT16, ONNXSLIM_DTYPE_FLOAT16, 2, 2, F_SAT | F_FLUSH,
                    onnxslim__convert_bf16_to_f16, "bf16_to_f16"},
};

const osl_convert_kernel *onnxslim__convert_kernel(int32_t from, int32_t to) {
  for (size_t i = 0; i < K_COUNT; i++)
    if (kernels[i].from == from && kernels[i].to == to) return &kernels[i];
  return NULL;
}

int onnxslim__convert_check(const char *who, const osl_convert_kernel *k, const void *dst,
                            const void *src, size_t n, unsigned int flags,
                            const onnxslim_convert_stats *stats) {
  if (n > 0 && (!dst || !src))
    return onnxslim__err(ONNXSLIM_EINVAL, "%s: %s is NULL with n = %zu", who, !dst ? "dst" : "src",
                         n);
  if (flags & ~F_ALL)
    return onnxslim__err(ONNXSLIM_EINVAL, "%s: reserved flag bits 0x%x set", who, flags & ~F_ALL);
  if (flags & ~k->flags_allowed)
    return onnxslim__err(ONNXSLIM_EINVAL, "%s: flags 0x%x do not apply (%s)", who,
                         flags & ~k->flags_allowed,
                         (flags & ~k->flags_allowed & F_TRUNC)
                             ? "ONNXSLIM_CONVERT_TRUNCATE applies only to conversions to BF16"
                             : "widening conversions take no flags");
  if (stats && (stats->version < 1 || stats->version > ONNXSLIM_CONVERT_STATS_VERSION))
    return onnxslim__err_options_version(who, "stats", stats->version,
                                         ONNXSLIM_CONVERT_STATS_VERSION);
  return 0;
}

/* ---- public API ------------------------------------------------------------------ */

int onnxslim_convert_stats_init(onnxslim_convert_stats *stats, unsigned int version) {
  if (!stats) return onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_convert_stats_init: stats is NULL");
  if (version < 1 || version > ONNXSLIM_CONVERT_STATS_VERSION)
    return onnxslim__err_options_version("onnxslim_convert_stats_init", "stats", version,
                                         ONNXSLIM_CONVERT_STATS_VERSION);
  memset(stats, 0, sizeof *stats);
  stats->version = version;
  return 0;
}

#define NARROW(KIND, NAME)                                                           \
  int rc = onnxslim__convert_check(NAME, &kernels[KIND], dst, src, n, flags, stats); \
  if (rc) return rc;                                                                 \
  kernels[KIND].fn(dst, src, n, flags, stats);                                       \
  return 0

#define WIDEN(KIND, NAME)                                                       \
  int rc = onnxslim__convert_check(NAME, &kernels[KIND], dst, src, n, 0, NULL); \
  if (rc) return rc;                                                            \
  kernels[KIND].fn(dst, src, n, 0, NULL);                                       \
  return 0

int onnxslim_convert_f32_to_bf16(uint16_t *dst, const float *src, size_t n, unsigned int flags,
                                 onnxslim_convert_stats *stats) {
  NARROW(K_F32_BF16, "onnxslim_convert_f32_to_bf16");
}

int onnxslim_convert_f32_to_f16(uint16_t *dst, const float *src, size_t n, unsigned int flags,
                                onnxslim_convert_stats *stats) {
  NARROW(K_F32_F16, "onnxslim_convert_f32_to_f16");
}

int onnxslim_convert_bf16_to_f32(float *dst, const uint16_t *src, size_t n) {
  WIDEN(K_BF16_F32, "onnxslim_convert_bf16_to_f32");
}

int onnxslim_convert_f16_to_f32(float *dst, const uint16_t *src, size_t n) {
  WIDEN(K_F16_F32, "onnxslim_convert_f16_to_f32");
}

int onnxslim_convert_f64_to_f32(float *dst, const double *src, size_t n, unsigned int flags,
                                onnxslim_convert_stats *stats) {
  NARROW(K_F64_F32, "onnxslim_convert_f64_to_f32");
}

int onnxslim_convert_f32_to_f64(double *dst, const float *src, size_t n) {
  WIDEN(K_F32_F64, "onnxslim_convert_f32_to_f64");
}

int onnxslim_convert_f16_to_bf16(uint16_t *dst, const uint16_t *src, size_t n, unsigned int flags,
                                 onnxslim_convert_stats *stats) {
  NARROW(K_F16_BF16, "onnxslim_convert_f16_to_bf16");
}

int onnxslim_convert_bf16_to_f16(uint16_t *dst, const uint16_t *src, size_t n, unsigned int flags,
                                 onnxslim_convert_stats *stats) {
  NARROW(K_BF16_F16, "onnxslim_convert_bf16_to_f16");
}
