/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - the scalar reference of the numeric conversion kernels
 * between FP32, FP16, BF16 and FP64: portable C, the definition of every
 * result and statistic. The SIMD paths (convert_simd.c) give the same bytes
 * and stats; convert_kernels.c dispatches to them or to these.
 *
 * Numeric policy: include/onnxslim/convert.h. Internal entry points:
 * convert_kernels.h (onnxslim__convert_scalar_*).
 *
 * How the kernels are built:
 *   - Each conversion is a branch-free function of one element's bit pattern
 *     (the *_1 functions below), written with integer operations that map to
 *     plain SIMD instructions (add, shift, and/or, compare, select) available
 *     even in baseline SSE2, so GCC -O2 vectorizes the loops. Values are
 *     loaded and stored with memcpy, so buffers need no alignment.
 *   - GCC -O2 uses the "very cheap" vectorizer cost model, which only
 *     vectorizes loops whose trip count is a known multiple of the vector
 *     length. The loops therefore run over blocks of BLK elements (a constant)
 *     and finish the last n % BLK elements one by one with the same function.
 *   - Flags are compile-time constants inside each loop: a switch over the
 *     flags picks a loop specialized for them (the element functions are
 *     forced inline).
 *   - Floating-point operations are used only where they are exact, so the
 *     results do not depend on the rounding mode or FTZ/DAZ: small integers
 *     converted to float/double and multiplied by a power of two (FP16 and
 *     FP32 subnormals when widening), and for FP16 results that are
 *     subnormal, which need a variable shift that baseline SSE2 lacks, a
 *     scaling by 2^24, a truncation to integer and the exact fraction (see
 *     f32_to_f16_1). The FP64 -> FP32 kernel uses the C cast, which is
 *     correctly rounded in the default environment; it checks the
 *     environment once per call and otherwise converts with integers only.
 *   - With a stats object, the input is converted in chunks by the same fast
 *     loops, and a second scalar pass over each chunk (still in cache)
 *     compares inputs and results. The stats path thus writes exactly what the
 *     fast path writes.
 */
#include <string.h>

#include "convert_kernels.h"
#include "onnxslim_config.h"

#if defined(__GNUC__)
#  define OSL_INLINE static inline __attribute__((always_inline))
#else
#  define OSL_INLINE static inline
#endif

#define F_TRUNC ONNXSLIM_CONVERT_TRUNCATE
#define F_SAT ONNXSLIM_CONVERT_SATURATE
#define F_FLUSH ONNXSLIM_CONVERT_FLUSH_SUBNORMALS
#define F_ALL (F_TRUNC | F_SAT | F_FLUSH)

/* Elements per vectorizable block, and per stats chunk. */
#define BLK 64
#define CHUNK 2048

/* ---- loads, stores, bit casts ------------------------------------------- */

OSL_INLINE uint32_t ld16(const unsigned char *p) {
  uint16_t v;
  memcpy(&v, p, sizeof v);
  return v;
}
OSL_INLINE uint32_t ld32(const unsigned char *p) {
  uint32_t v;
  memcpy(&v, p, sizeof v);
  return v;
}
OSL_INLINE uint64_t ld64(const unsigned char *p) {
  uint64_t v;
  memcpy(&v, p, sizeof v);
  return v;
}
OSL_INLINE void st16(unsigned char *p, uint32_t v) {
  uint16_t w = (uint16_t)v;
  memcpy(p, &w, sizeof w);
}
OSL_INLINE void st32(unsigned char *p, uint32_t v) { memcpy(p, &v, sizeof v); }
OSL_INLINE void st64(unsigned char *p, uint64_t v) { memcpy(p, &v, sizeof v); }

OSL_INLINE uint32_t f2u(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}
OSL_INLINE float u2f(uint32_t u) {
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}
OSL_INLINE uint64_t d2u(double d) {
  uint64_t u;
  memcpy(&u, &d, sizeof u);
  return u;
}
OSL_INLINE double u2d(uint64_t u) {
  double d;
  memcpy(&d, &u, sizeof d);
  return d;
}

/* Branch-free select: c ? x : y for c in {0, 1}, written with a mask. Used
 * where a ?: would let GCC move a floating-point operation into a branch
 * (if-conversion then refuses to execute it unconditionally, because it
 * could trap) or build a PHI node with more than four arguments (which
 * if-conversion gives up on). Elsewhere ?: gives GCC more freedom. */
OSL_INLINE uint32_t sel32(uint32_t c, uint32_t x, uint32_t y) {
  uint32_t m = 0u - c;
  return (x & m) | (y & ~m);
}
OSL_INLINE uint64_t sel64(uint32_t c, uint64_t x, uint64_t y) {
  uint64_t m = 0u - (uint64_t)c;
  return (x & m) | (y & ~m);
}

/* ---- one element ----------------------------------------------------------- *
 * Bit layouts: FP32 s|e8|m23, bias 127; FP16 s|e5|m10, bias 15; BF16 s|e8|m7
 * (the top half of an FP32); FP64 s|e11|m52, bias 1023. `a` is always the
 * input without its sign bit.
 *
 * The narrowing functions build the result in the high bits of a 32-bit
 * value and shift it down as the very last step. A 16-bit result computed
 * directly would let GCC narrow every intermediate value to 16-bit lanes,
 * and each narrowing costs several shuffles in SSE2; this way there is one
 * narrowing per result vector. */

/* FP32 -> BF16. Round to nearest even: add 0x7FFF plus the lowest kept bit;
 * a carry out of the mantissa correctly increments the exponent, up to Inf.
 * NaNs are replaced afterwards, so the add cannot turn a NaN into Inf (or wrap
 * a negative NaN). Result in bits 16..31. */
OSL_INLINE uint32_t f32_to_bf16_1(uint32_t u, unsigned int fl) {
  int32_t a = (int32_t)(u & 0x7FFFFFFFu);
  uint32_t r = (fl & F_TRUNC) ? u : u + 0x7FFFu + ((u >> 16) & 1u);
  if ((fl & F_SAT) && !(fl & F_TRUNC)) /* finite values that round to Inf */
    r = (a >= 0x7F7F8000 && a < 0x7F800000) ? (u & 0x80000000u) | 0x7F7F0000u : r;
  if (fl & F_FLUSH) /* exponent field 0 after rounding: subnormal (or zero) */
    r = (r & 0x7F800000u) == 0 ? r & 0x80000000u : r;
  r = a > 0x7F800000 ? u | 0x00400000u : r;
  return r >> 16;
}

/* FP32 -> FP16. Result in bits 13..28 of r.
 * Normal results (|x| >= 2^-14): rebias the exponent in place (subtract
 * (127-15) << 23) and add the rounding increment 0xFFF plus the lowest kept
 * bit (round to nearest even on the 13 dropped bits).
 * Subnormal results (|x| < 2^-14): the FP16 mantissa is |x| * 2^24 rounded to
 * an integer (0..1024; 1024 is the smallest normal number, which the layout
 * produces by itself). That needs a variable shift, which baseline SSE2 does
 * not have, so it is computed in float with exact operations only: the
 * product y = |x| * 2^24 (a power of two), its truncation to an integer i, and
 * the fraction y - i are all exact, and the rounding decision compares the
 * fraction with 0.5. No result depends on the rounding mode or on FTZ/DAZ
 * (under DAZ an FP32 subnormal input reads as 0, and it rounds to 0 anyway).
 * The float operations run on every lane, on `a` with bit 30 cleared, so they
 * only ever see finite values below 2.
 * Overflow: |x| >= 65520 (0x477FF000) rounds to Inf. */
OSL_INLINE uint32_t f32_to_f16_1(uint32_t u, unsigned int fl) {
  int32_t a = (int32_t)(u & 0x7FFFFFFFu); /* signed: SSE2 compares are signed */
  uint32_t x = (uint32_t)a - 0x38000000u;
  uint32_t r = x + 0xFFFu + ((x >> 13) & 1u);
  uint32_t sub;
  if (fl & F_FLUSH) {
    /* Only [2^-14 - 2^-25, 2^-14) rounds up to the smallest normal 0x400;
     * every other subnormal-range value becomes 0. */
    sub = (uint32_t)(a >= 0x387FE000) << 10;
  } else {
    float y = u2f((uint32_t)a & 0x3FFFFFFFu) * 0x1p24f;
    int32_t i = (int32_t)y;
    float frac = y - (float)i;
    sub = (uint32_t)i + ((uint32_t)(frac > 0.5f) | ((uint32_t)(frac == 0.5f) & (uint32_t)i));
  }
  r = sel32(a < 0x38800000, sub << 13, r);
  /* overflow: Inf, or with SATURATE 0x7BFF for finite values (Inf stays Inf:
   * 0x7BFF + 1 = 0x7C00) */
  uint32_t big = (fl & F_SAT) ? (0x7BFFu + (uint32_t)(a >= 0x7F800000)) << 13 : 0x7C00u << 13;
  r = sel32(a >= 0x477FF000, big, r);
  r |= sel32(a > 0x7F800000, 0x00400000u | ((uint32_t)a & 0x007FE000u), 0); /* NaN */
  r |= (u >> 3) & 0x10000000u;                                              /* sign */
  return r >> 13;
}

/* BF16 -> FP32: the bits are the top half; NaNs get the quiet bit. */
OSL_INLINE uint32_t bf16_to_f32_1(uint32_t h) {
  uint32_t r = h << 16;
  return (h & 0x7FFFu) > 0x7F80u ? r | 0x00400000u : r;
}

/* FP16 -> FP32. Normal: rebias. Zero and subnormal: the value is a * 2^-24
 * with a < 1024, computed exactly in float (small integer times a power of
 * two, the result a normal float): no rounding, no FTZ/DAZ effect. */
OSL_INLINE uint32_t f16_to_f32_1(uint32_t h) {
  uint32_t s = (h & 0x8000u) << 16;
  uint32_t a = h & 0x7FFFu;
  uint32_t normal = (a << 13) + 0x38000000u;
  uint32_t sub = f2u((float)(int32_t)a * 0x1p-24f);
  uint32_t special = (a << 13) | 0x7F800000u | ((uint32_t)(a > 0x7C00u) << 22);
  uint32_t r = sel32(a < 0x0400u, sub, normal);
  r = sel32(a >= 0x7C00u, special, r);
  return r | s;
}

/* FP32 -> FP64, exact. Subnormal FP32 inputs (value a * 2^-149) are computed
 * exactly in double, as in f16_to_f32_1. */
OSL_INLINE uint64_t f32_to_f64_1(uint32_t u) {
  uint64_t s = (uint64_t)(u & 0x80000000u) << 32;
  uint32_t a = u & 0x7FFFFFFFu;
  uint64_t w = (uint64_t)a << 29;
  uint64_t normal = w + ((uint64_t)(1023 - 127) << 52);
  uint64_t sub = d2u((double)(int32_t)a * 0x1p-149);
  uint64_t special = w | 0x7FF0000000000000u | ((uint64_t)(a > 0x7F800000u) << 51);
  uint64_t r = sel64(a < 0x00800000u, sub, normal);
  r = sel64(a >= 0x7F800000u, special, r);
  return r | s;
}

/* FP64 -> FP32 with the C cast (correctly rounded in the default
 * environment; the caller checks it), then the policy: NaN payload and sign
 * made explicit (not left to the hardware), saturation, flushing. Only 32-bit
 * integer tests. */
OSL_INLINE uint32_t f64_to_f32_1(uint64_t b, unsigned int fl) {
  uint32_t hi = (uint32_t)(b >> 32);
  uint32_t s = hi & 0x80000000u;
  float f = (float)u2d(b);
  uint32_t r = f2u(f);
  uint32_t ra = r & 0x7FFFFFFFu;
  if (fl & F_SAT) /* finite input (exponent not all ones) that became Inf */
    r = sel32(ra == 0x7F800000u && (hi & 0x7FFFFFFFu) < 0x7FF00000u, s | 0x7F7FFFFFu, r);
  if (fl & F_FLUSH) r = sel32(ra < 0x00800000u, s, r);
  return sel32(ra > 0x7F800000u, s | 0x7FC00000u | ((uint32_t)(b >> 29) & 0x003FFFFFu), r);
}

/* FP64 -> FP32 with integers only (one value; used when the floating-point
 * environment is not the default one, and by the tests). */
static uint32_t f64_to_f32_int1(uint64_t b, unsigned int fl) {
  uint32_t s = (uint32_t)(b >> 32) & 0x80000000u;
  uint64_t a = b & 0x7FFFFFFFFFFFFFFFu;
  uint32_t r;
  if (a > 0x7FF0000000000000u) return s | 0x7FC00000u | (uint32_t)((a >> 29) & 0x003FFFFFu);
  if (a == 0x7FF0000000000000u) return s | 0x7F800000u;
  /* At or above the midpoint of FLT_MAX and 2^128 (ties go to the even 2^128). */
  if (a >= 0x47EFFFFFF0000000u) return s | ((fl & F_SAT) ? 0x7F7FFFFFu : 0x7F800000u);
  if (a >= 0x3810000000000000u) { /* |x| >= 2^-126: normal result */
    uint64_t x = a - ((uint64_t)(1023 - 127) << 52);
    r = (uint32_t)((x + 0x0FFFFFFFu + ((x >> 29) & 1u)) >> 29);
  } else { /* subnormal or zero result: mantissa = round(m * 2^(e-926)) */
    unsigned int e = (unsigned int)(a >> 52);
    uint64_t m = (a & 0x000FFFFFFFFFFFFFu) | 0x0010000000000000u;
    unsigned int sh = 926u - e; /* >= 30 */
    if (sh > 60u) sh = 60u;     /* m < 2^53: everything rounds to 0 from 54 on */
    uint64_t q = m >> sh, rem = m & ((UINT64_C(1) << sh) - 1u), half = UINT64_C(1) << (sh - 1u);
    r = (uint32_t)q + (uint32_t)(rem > half || (rem == half && (q & 1u)));
  }
  if ((fl & F_FLUSH) && r < 0x00800000u) r = 0;
  return s | r;
}

int onnxslim__fp_env_default(void) {
  /* 1 + 0.75 ulp and its negative round to +-(1 + ulp) only when rounding to
   * nearest; 2^-140 stays a (nonzero) subnormal float only without FTZ.
   * Compared as bits, so DAZ cannot hide a flushed result. */
  volatile double p = 1.0 + 0x1.8p-24, m = -1.0 - 0x1.8p-24, t = 0x1p-140;
  float fp = (float)p, fm = (float)m, ft = (float)t;
  return f2u(fp) == 0x3F800001u && f2u(fm) == 0xBF800001u && f2u(ft) == 0x00000200u;
}

/* ---- fast loops ------------------------------------------------------------ *
 * BLOCKED(IN, OUT, BODY) runs BODY for element k with input at s + IN*k and
 * output at d + OUT*k: blocks of BLK (vectorized), then the tail. Each block
 * first asks for the input PREFETCH_AHEAD bytes further on: on the machines
 * we measured, the kernels streaming from memory ran at about half speed
 * without it (the hardware prefetcher alone did not keep up). It is a hint
 * only (GCC and Clang builtin; nothing elsewhere), and is issued only while
 * that address is still inside the input. */
#if defined(__GNUC__)
#  define OSL_PREFETCH(p) __builtin_prefetch(p)
#else
#  define OSL_PREFETCH(p) ((void)0)
#endif
#define PREFETCH_AHEAD 4096

#define PREFETCH_BLOCK(IN)                   \
  if (n - i_ >= BLK + PREFETCH_AHEAD / (IN)) \
    for (size_t q = 0; q < (IN)*BLK; q += 64) OSL_PREFETCH(s + PREFETCH_AHEAD + q)

#define BLOCKED(IN, OUT, BODY)                                        \
  do {                                                                \
    size_t i_ = 0;                                                    \
    for (; n - i_ >= BLK; i_ += BLK, s += (IN)*BLK, d += (OUT)*BLK) { \
      PREFETCH_BLOCK(IN);                                             \
      for (size_t k = 0; k < BLK; k++) BODY;                          \
    }                                                                 \
    for (size_t k = 0; k < n - i_; k++) BODY;                         \
  } while (0)

/* 1 when FP32 bits u convert to a nonzero FP16 subnormal: 2^-25 < |x| <
 * 2^-14 - 2^-25. */
OSL_INLINE uint32_t f16_subnormal_result(uint32_t u) {
  int32_t a = (int32_t)(u & 0x7FFFFFFFu);
  return (uint32_t)(a > 0x33000000) & (uint32_t)(a < 0x387FE000);
}

/* FP16 results without FLUSH_SUBNORMALS. The exact computation of subnormal
 * results is the expensive part of f32_to_f16_1 and rarely needed, so each
 * block is first converted as if flushing, which is exact for every result
 * that is not a nonzero subnormal, and converted again in full only when one
 * of its values has a nonzero subnormal result. LOAD32(k) gives element k as
 * FP32 bits (input at s + IN*k). */
#define F16_BLOCKED(IN, LOAD32)                                                       \
  do {                                                                                \
    size_t i_ = 0;                                                                    \
    for (; n - i_ >= BLK; i_ += BLK, s += (IN)*BLK, d += 2 * BLK) {                   \
      uint32_t any = 0;                                                               \
      PREFETCH_BLOCK(IN);                                                             \
      for (size_t k = 0; k < BLK; k++) {                                              \
        uint32_t u = LOAD32(k);                                                       \
        st16(d + 2 * k, f32_to_f16_1(u, fl | F_FLUSH));                               \
        any |= f16_subnormal_result(u);                                               \
      }                                                                               \
      if (any)                                                                        \
        for (size_t k = 0; k < BLK; k++) {                                            \
          uint32_t u = LOAD32(k);                                                     \
          if (f16_subnormal_result(u)) st16(d + 2 * k, f32_to_f16_1(u, fl));          \
        }                                                                             \
    }                                                                                 \
    for (size_t k = 0; k < n - i_; k++) st16(d + 2 * k, f32_to_f16_1(LOAD32(k), fl)); \
  } while (0)

#define LOAD_F32(k) ld32(s + 4 * (k))
#define LOAD_BF16(k) bf16_to_f32_1(ld16(s + 2 * (k)))

OSL_INLINE void loop_f32_to_bf16(unsigned char *restrict d, const unsigned char *restrict s,
                                 size_t n, unsigned int fl) {
  BLOCKED(4, 2, st16(d + 2 * k, f32_to_bf16_1(ld32(s + 4 * k), fl)));
}
OSL_INLINE void loop_f32_to_f16(unsigned char *restrict d, const unsigned char *restrict s,
                                size_t n, unsigned int fl) {
  if (fl & F_FLUSH) BLOCKED(4, 2, st16(d + 2 * k, f32_to_f16_1(LOAD_F32(k), fl)));
  else F16_BLOCKED(4, LOAD_F32);
}
OSL_INLINE void loop_f64_to_f32(unsigned char *restrict d, const unsigned char *restrict s,
                                size_t n, unsigned int fl) {
  BLOCKED(8, 4, st32(d + 4 * k, f64_to_f32_1(ld64(s + 8 * k), fl)));
}
OSL_INLINE void loop_f16_to_bf16(unsigned char *restrict d, const unsigned char *restrict s,
                                 size_t n, unsigned int fl) {
  BLOCKED(2, 2, st16(d + 2 * k, f32_to_bf16_1(f16_to_f32_1(ld16(s + 2 * k)), fl)));
}
OSL_INLINE void loop_bf16_to_f16(unsigned char *restrict d, const unsigned char *restrict s,
                                 size_t n, unsigned int fl) {
  if (fl & F_FLUSH) BLOCKED(2, 2, st16(d + 2 * k, f32_to_f16_1(LOAD_BF16(k), fl)));
  else F16_BLOCKED(2, LOAD_BF16);
}

/* The two narrowing kernels the recipe uses are also compiled for AVX2 and
 * chosen at load time (GCC function multiversioning, an ifunc): the same C,
 * vectorized over 256-bit registers where the CPU has them. */
#if ONNXSLIM_HAVE_TARGET_CLONES /* scripts/probe-platform.sh */
#  define OSL_MULTIVERSION __attribute__((target_clones("avx2", "default")))
#else
#  define OSL_MULTIVERSION
#endif

OSL_MULTIVERSION
static void fast_f32_to_bf16(unsigned char *restrict d, const unsigned char *restrict s, size_t n,
                             unsigned int fl) {
  switch (fl & F_ALL) {
  case 0: loop_f32_to_bf16(d, s, n, 0); break;
  case F_SAT: loop_f32_to_bf16(d, s, n, F_SAT); break;
  case F_FLUSH: loop_f32_to_bf16(d, s, n, F_FLUSH); break;
  case F_SAT | F_FLUSH: loop_f32_to_bf16(d, s, n, F_SAT | F_FLUSH); break;
  case F_TRUNC:
  case F_TRUNC | F_SAT: loop_f32_to_bf16(d, s, n, F_TRUNC); break;
  default: loop_f32_to_bf16(d, s, n, F_TRUNC | F_FLUSH); break;
  }
}

OSL_MULTIVERSION
static void fast_f32_to_f16(unsigned char *restrict d, const unsigned char *restrict s, size_t n,
                            unsigned int fl) {
  switch (fl & (F_SAT | F_FLUSH)) {
  case 0: loop_f32_to_f16(d, s, n, 0); break;
  case F_SAT: loop_f32_to_f16(d, s, n, F_SAT); break;
  case F_FLUSH: loop_f32_to_f16(d, s, n, F_FLUSH); break;
  default: loop_f32_to_f16(d, s, n, F_SAT | F_FLUSH); break;
  }
}

static void fast_f64_to_f32(unsigned char *restrict d, const unsigned char *restrict s, size_t n,
                            unsigned int fl) {
  if (!onnxslim__fp_env_default()) {
    for (size_t k = 0; k < n; k++) st32(d + 4 * k, f64_to_f32_int1(ld64(s + 8 * k), fl));
    return;
  }
  switch (fl & (F_SAT | F_FLUSH)) {
  case 0: loop_f64_to_f32(d, s, n, 0); break;
  case F_SAT: loop_f64_to_f32(d, s, n, F_SAT); break;
  case F_FLUSH: loop_f64_to_f32(d, s, n, F_FLUSH); break;
  default: loop_f64_to_f32(d, s, n, F_SAT | F_FLUSH); break;
  }
}

static void fast_f16_to_bf16(unsigned char *restrict d, const unsigned char *restrict s, size_t n,
                             unsigned int fl) {
  /* No FP16 value overflows or is subnormal in BF16: only TRUNCATE matters. */
  if (fl & F_TRUNC) loop_f16_to_bf16(d, s, n, F_TRUNC);
  else loop_f16_to_bf16(d, s, n, 0);
}

static void fast_bf16_to_f16(unsigned char *restrict d, const unsigned char *restrict s, size_t n,
                             unsigned int fl) {
  switch (fl & (F_SAT | F_FLUSH)) {
  case 0: loop_bf16_to_f16(d, s, n, 0); break;
  case F_SAT: loop_bf16_to_f16(d, s, n, F_SAT); break;
  case F_FLUSH: loop_bf16_to_f16(d, s, n, F_FLUSH); break;
  default: loop_bf16_to_f16(d, s, n, F_SAT | F_FLUSH); break;
  }
}

static void fast_bf16_to_f32(unsigned char *restrict d, const unsigned char *restrict s, size_t n) {
  BLOCKED(2, 4, st32(d + 4 * k, bf16_to_f32_1(ld16(s + 2 * k))));
}
static void fast_f16_to_f32(unsigned char *restrict d, const unsigned char *restrict s, size_t n) {
  BLOCKED(2, 4, st32(d + 4 * k, f16_to_f32_1(ld16(s + 2 * k))));
}
static void fast_f32_to_f64(unsigned char *restrict d, const unsigned char *restrict s, size_t n) {
  BLOCKED(4, 8, st64(d + 8 * k, f32_to_f64_1(ld32(s + 4 * k))));
}

/* ---- stats ------------------------------------------------------------------ */

typedef struct osl_acc {
  uint64_t to_inf, saturated, flushed, nan;
  double max_abs, max_rel;
} osl_acc;

/* 1 when err / x (rounded) may be larger than r, for x > 0: the quotient
 * rounds above r only if err >= r * x exactly; the two rounded products here
 * exceed r * x by less than 2^-52 of it, and the factor 1 - 2^-51 makes up
 * for that, so this never misses a new maximum (and rarely lets a
 * non-maximum through to the division). 0 for x = 0. */
OSL_INLINE int rel_may_exceed(double err, double x, double r) {
  return (err > r * x * 0x1.ffffffffffffcp-1) & (x > 0);
}

/* Accounts for the error of one finite input whose result is finite, given
 * as magnitudes (the result always has the input's sign): |x| and |y|. The
 * division is done only when the relative error may be a new maximum, and
 * never for x = 0 (then y = 0 and err = 0). No data-dependent branch is
 * taken often: the error is an absolute value by masking, the counters are
 * sums of comparisons. */
OSL_INLINE void acc_error(osl_acc *acc, double x, double y) {
  double err = u2d(d2u(y - x) & 0x7FFFFFFFFFFFFFFFu);
  if (err > acc->max_abs) acc->max_abs = err;
  if (rel_may_exceed(err, x, acc->max_rel)) {
    double rel = err / x;
    if (rel > acc->max_rel) acc->max_rel = rel;
  }
}

/* One value converted to FP32 bits `in`, its result converted (exactly) to
 * FP32 bits `out`. sat_min: smallest |input| bits that overflow when rounded
 * (0xFFFFFFFF when nothing can overflow). */
OSL_INLINE void acc_f32(osl_acc *acc, uint32_t in, uint32_t out, uint32_t sat_min) {
  uint32_t a = in & 0x7FFFFFFFu, oa = out & 0x7FFFFFFFu;
  if (a >= 0x7F800000u) { /* NaN (counted) or Inf (stays Inf) */
    acc->nan += a > 0x7F800000u;
    return;
  }
  if (oa == 0x7F800000u) {
    acc->to_inf++;
    return;
  }
  acc->saturated += a >= sat_min;
  acc->flushed += (oa == 0) & (a != 0);
  if ((a < 0x00800000u) | (oa < 0x00800000u)) /* zero or subnormal: exact conversion */
    acc_error(acc, u2d(f32_to_f64_1(a)), u2d(f32_to_f64_1(oa)));
  else /* normal floats: the cast is exact and not affected by FTZ/DAZ */
    acc_error(acc, (double)u2f(a), (double)u2f(oa));
}

static void stats_merge(onnxslim_convert_stats *st, const osl_acc *acc, size_t n) {
  st->count += n;
  st->to_inf += acc->to_inf;
  st->saturated += acc->saturated;
  st->flushed += acc->flushed;
  st->nan += acc->nan;
  if (acc->max_abs > st->max_abs_error) st->max_abs_error = acc->max_abs;
  if (acc->max_rel > st->max_rel_error) st->max_rel_error = acc->max_rel;
}

/* Vectorized stats of whole blocks (FP32, FP16 and BF16 kernels): every
 * element of a block is classified with comparisons summed into counters,
 * and its errors are computed in double on every lane (0 for lanes that do
 * not count) and kept as per-lane maxima, folded into the accumulator at the
 * end. Same definitions and the same values as acc_f32. The float -> double
 * casts are exact, unless the thread runs with denormals-are-zero: then an
 * FP32 subnormal would read as 0, so callers use the blocks only when
 * daz_off() (and acc_f32, which never casts a subnormal, otherwise). */
typedef struct osl_lanes {
  double abs[BLK], rel[BLK];
} osl_lanes;

OSL_INLINE void lanes_fold(osl_acc *acc, const osl_lanes *l) {
  for (size_t k = 0; k < BLK; k++) {
    if (l->abs[k] > acc->max_abs) acc->max_abs = l->abs[k];
    if (l->rel[k] > acc->max_rel) acc->max_rel = l->rel[k];
  }
}

static int daz_off(void) {
  volatile float tiny = 0x1p-140f;
  double d = tiny;
  return d != 0.0;
}

/* Defines NAME(acc, lanes, s, d, sat_min): the stats of the BLK elements at
 * s (input) and d (result); INBITS and OUTBITS give element k as FP32 bits.
 * Divisions are slow, so the first loop only flags the block when some
 * relative error may exceed its lane's maximum (rel_may_exceed); the second
 * loop, which divides, runs for flagged blocks only (after the first blocks
 * of a tensor, rarely). */
#define DEFINE_STATS_BLOCK(NAME, INBITS, OUTBITS)                                                  \
  OSL_INLINE void NAME(osl_acc *acc, osl_lanes *l, const unsigned char *s, const unsigned char *d, \
                       uint32_t sat_min) {                                                         \
    uint32_t c_nan = 0, c_inf = 0, c_sat = 0, c_flush = 0, more = 0;                               \
    for (size_t k = 0; k < BLK; k++) {                                                             \
      uint32_t a = (INBITS)&0x7FFFFFFFu, oa = (OUTBITS)&0x7FFFFFFFu;                               \
      uint32_t fin = a < 0x7F800000u, inf = oa == 0x7F800000u;                                     \
      uint32_t ok = fin & (inf ^ 1u);                                                              \
      c_nan += a > 0x7F800000u;                                                                    \
      c_inf += fin & inf;                                                                          \
      c_sat += ok & (a >= sat_min);                                                                \
      c_flush += ok & (oa == 0) & (a != 0);                                                        \
      double x = u2f(sel32(ok, a, 0)), y = u2f(sel32(ok, oa, 0));                                  \
      double err = u2d(d2u(y - x) & 0x7FFFFFFFFFFFFFFFu);                                          \
      l->abs[k] = err > l->abs[k] ? err : l->abs[k];                                               \
      more |= (uint32_t)rel_may_exceed(err, x, l->rel[k]);                                         \
    }                                                                                              \
    acc->nan += c_nan, acc->to_inf += c_inf, acc->saturated += c_sat;                              \
    acc->flushed += c_flush;                                                                       \
    if (!more) return;                                                                             \
    for (size_t k = 0; k < BLK; k++) {                                                             \
      uint32_t a = (INBITS)&0x7FFFFFFFu, oa = (OUTBITS)&0x7FFFFFFFu;                               \
      uint32_t ok = (a < 0x7F800000u) & (oa != 0x7F800000u) & (a != 0);                            \
      double x = u2f(sel32(ok, a, 0x3F800000u)), y = u2f(sel32(ok, oa, 0x3F800000u));              \
      double rel = u2d(d2u(y - x) & 0x7FFFFFFFFFFFFFFFu) / x;                                      \
      l->rel[k] = rel > l->rel[k] ? rel : l->rel[k];                                               \
    }                                                                                              \
  }

DEFINE_STATS_BLOCK(stats_block_f32_bf16, ld32(s + 4 * k), bf16_to_f32_1(ld16(d + 2 * k)))
DEFINE_STATS_BLOCK(stats_block_f32_f16, ld32(s + 4 * k), f16_to_f32_1(ld16(d + 2 * k)))
DEFINE_STATS_BLOCK(stats_block_f16_bf16, f16_to_f32_1(ld16(s + 2 * k)),
                   bf16_to_f32_1(ld16(d + 2 * k)))
DEFINE_STATS_BLOCK(stats_block_bf16_f16, bf16_to_f32_1(ld16(s + 2 * k)),
                   f16_to_f32_1(ld16(d + 2 * k)))

/* Runs FAST over chunks of CHUNK elements, then the stats of each chunk:
 * BLOCK on its whole blocks, ONE(acc, k) on the rest (element k with input at
 * s + IN*k and result at d + OUT*k). BLOCK may be omitted (scalar only). */
#define WITH_STATS(IN, OUT, FAST, BLOCK, ONE)                \
  do {                                                       \
    osl_acc acc = {0, 0, 0, 0, 0.0, 0.0};                    \
    osl_lanes lanes;                                         \
    memset(&lanes, 0, sizeof lanes);                         \
    const unsigned char *s = (const unsigned char *)src;     \
    unsigned char *d = (unsigned char *)dst;                 \
    int vector_ok = daz_off();                               \
    for (size_t done = 0; done < n;) {                       \
      size_t c = n - done < CHUNK ? n - done : CHUNK, k = 0; \
      FAST(d, s, c, flags);                                  \
      if (vector_ok) BLOCK;                                  \
      for (; k < c; k++) ONE(&acc, k);                       \
      done += c, s += (IN)*c, d += (OUT)*c;                  \
    }                                                        \
    lanes_fold(&acc, &lanes);                                \
    stats_merge(stats, &acc, n);                             \
  } while (0)

#define BLOCKS_OF(FN, IN, OUT, SAT_MIN) \
  for (; c - k >= BLK; k += BLK) FN(&acc, &lanes, s + (IN)*k, d + (OUT)*k, SAT_MIN)

/* ---- kernels (internal API) -------------------------------------------------- */

void onnxslim__convert_scalar_f32_to_bf16(void *dst, const void *src, size_t n, unsigned int flags,
                                          onnxslim_convert_stats *stats) {
  if (!stats) {
    fast_f32_to_bf16(dst, src, n, flags);
    return;
  }
  uint32_t sat_min = (flags & F_TRUNC) ? 0xFFFFFFFFu : 0x7F7F8000u;
#define ONE(A, k) acc_f32(A, ld32(s + 4 * (k)), bf16_to_f32_1(ld16(d + 2 * (k))), sat_min)
  WITH_STATS(4, 2, fast_f32_to_bf16, BLOCKS_OF(stats_block_f32_bf16, 4, 2, sat_min), ONE);
#undef ONE
}

void onnxslim__convert_scalar_f32_to_f16(void *dst, const void *src, size_t n, unsigned int flags,
                                         onnxslim_convert_stats *stats) {
  if (!stats) {
    fast_f32_to_f16(dst, src, n, flags);
    return;
  }
#define ONE(A, k) acc_f32(A, ld32(s + 4 * (k)), f16_to_f32_1(ld16(d + 2 * (k))), 0x477FF000u)
  WITH_STATS(4, 2, fast_f32_to_f16, BLOCKS_OF(stats_block_f32_f16, 4, 2, 0x477FF000u), ONE);
#undef ONE
}

void onnxslim__convert_scalar_f16_to_bf16(void *dst, const void *src, size_t n, unsigned int flags,
                                          onnxslim_convert_stats *stats) {
  if (!stats) {
    fast_f16_to_bf16(dst, src, n, flags);
    return;
  }
#define ONE(A, k) \
  acc_f32(A, f16_to_f32_1(ld16(s + 2 * (k))), bf16_to_f32_1(ld16(d + 2 * (k))), 0xFFFFFFFFu)
  WITH_STATS(2, 2, fast_f16_to_bf16, BLOCKS_OF(stats_block_f16_bf16, 2, 2, 0xFFFFFFFFu), ONE);
#undef ONE
}

void onnxslim__convert_scalar_bf16_to_f16(void *dst, const void *src, size_t n, unsigned int flags,
                                          onnxslim_convert_stats *stats) {
  if (!stats) {
    fast_bf16_to_f16(dst, src, n, flags);
    return;
  }
#define ONE(A, k) \
  acc_f32(A, bf16_to_f32_1(ld16(s + 2 * (k))), f16_to_f32_1(ld16(d + 2 * (k))), 0x477FF000u)
  WITH_STATS(2, 2, fast_bf16_to_f16, BLOCKS_OF(stats_block_bf16_f16, 2, 2, 0x477FF000u), ONE);
#undef ONE
}

/* Stats of one FP64 input `in` and its FP32 result `out`. */
OSL_INLINE void acc_f64(osl_acc *acc, uint64_t in, uint32_t out) {
  uint64_t a = in & 0x7FFFFFFFFFFFFFFFu;
  uint32_t oa = out & 0x7FFFFFFFu;
  if (a >= 0x7FF0000000000000u) {
    acc->nan += a > 0x7FF0000000000000u;
    return;
  }
  if (oa == 0x7F800000u) {
    acc->to_inf++;
    return;
  }
  acc->saturated += a >= 0x47EFFFFFF0000000u;
  acc->flushed += (oa == 0) & (a != 0);
  acc_error(acc, u2d(a), u2d(f32_to_f64_1(oa)));
}

void onnxslim__convert_scalar_f64_to_f32(void *dst, const void *src, size_t n, unsigned int flags,
                                         onnxslim_convert_stats *stats) {
  if (!stats) {
    fast_f64_to_f32(dst, src, n, flags);
    return;
  }
#define ONE(A, k) acc_f64(A, ld64(s + 8 * (k)), ld32(d + 4 * (k)))
  WITH_STATS(8, 4, fast_f64_to_f32, (void)0, ONE);
#undef ONE
}

void onnxslim__convert_f64_to_f32_int(void *dst, const void *src, size_t n, unsigned int flags) {
  unsigned char *d = dst;
  const unsigned char *s = src;
  for (size_t k = 0; k < n; k++) st32(d + 4 * k, f64_to_f32_int1(ld64(s + 8 * k), flags));
}

/* Widening: exact. With stats, count elements and NaN inputs. */
void onnxslim__convert_scalar_bf16_to_f32(void *dst, const void *src, size_t n, unsigned int flags,
                                          onnxslim_convert_stats *stats) {
  (void)flags;
  fast_bf16_to_f32(dst, src, n);
  if (stats) {
    osl_acc acc = {0, 0, 0, 0, 0.0, 0.0};
    const unsigned char *s = src;
    for (size_t k = 0; k < n; k++) acc.nan += (ld16(s + 2 * k) & 0x7FFFu) > 0x7F80u;
    stats_merge(stats, &acc, n);
  }
}

void onnxslim__convert_scalar_f16_to_f32(void *dst, const void *src, size_t n, unsigned int flags,
                                         onnxslim_convert_stats *stats) {
  (void)flags;
  fast_f16_to_f32(dst, src, n);
  if (stats) {
    osl_acc acc = {0, 0, 0, 0, 0.0, 0.0};
    const unsigned char *s = src;
    for (size_t k = 0; k < n; k++) acc.nan += (ld16(s + 2 * k) & 0x7FFFu) > 0x7C00u;
    stats_merge(stats, &acc, n);
  }
}

void onnxslim__convert_scalar_f32_to_f64(void *dst, const void *src, size_t n, unsigned int flags,
                                         onnxslim_convert_stats *stats) {
  (void)flags;
  fast_f32_to_f64(dst, src, n);
  if (stats) {
    osl_acc acc = {0, 0, 0, 0, 0.0, 0.0};
    const unsigned char *s = src;
    for (size_t k = 0; k < n; k++) acc.nan += (ld32(s + 4 * k) & 0x7FFFFFFFu) > 0x7F800000u;
    stats_merge(stats, &acc, n);
  }
}
