/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - SIMD paths of the conversion kernels and their runtime
 * dispatch (convert_simd.h).
 *
 * The kernels are written once (convert_simd_body.h) and compiled here once
 * per path, each function with its own target attribute, so the library is
 * built with the generic flags and runs on any x86-64: a path's code runs
 * only after __builtin_cpu_supports() said the CPU (and the OS, which must
 * save the wider registers) has its instructions. On AArch64 the NEON
 * paths (convert_neon.c) are chosen here from getauxval() (onnxslim__os_hwcaps()
 * of the platform layer). Elsewhere, or
 * with a compiler without these builtins, only the scalar path exists.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "convert_simd.h"

#define F_TRUNC ONNXSLIM_CONVERT_TRUNCATE
#define F_SAT ONNXSLIM_CONVERT_SATURATE
#define F_FLUSH ONNXSLIM_CONVERT_FLUSH_SUBNORMALS
#define F_ALL (F_TRUNC | F_SAT | F_FLUSH)

#if defined(__x86_64__) && defined(__GNUC__) && \
    ((defined(__clang__) && __clang_major__ >= 9) || (!defined(__clang__) && __GNUC__ >= 12))
#  define OSL_HAVE_X86_PATHS 1
#  include <cpuid.h>
#  include <immintrin.h>
#else
#  define OSL_HAVE_X86_PATHS 0
#endif

#if OSL_HAVE_X86_PATHS

/* Outputs at least this large are written with non-temporal stores
 * (convert_simd_body.h). */
#  define NT_MIN ((size_t)1 << 20)
#  define NT_FENCE() _mm_sfence()

/* ---- AVX2 + F16C: 8 lanes ----------------------------------------------------- */

#  define TA __attribute__((target("avx2,f16c")))
#  define IA static inline __attribute__((always_inline, target("avx2,f16c")))
#  define NA static __attribute__((noinline, target("avx2,f16c")))
#  define W 8
#  define X(name) name##_avx2
#  define HAS_BF16 0
typedef uint32_t u32x8 __attribute__((vector_size(32)));
typedef int32_t i32x8 __attribute__((vector_size(32)));
typedef uint64_t u64x4 __attribute__((vector_size(32)));
typedef int64_t i64x4 __attribute__((vector_size(32)));
typedef double f64x4 __attribute__((vector_size(32)));
typedef float f32x8 __attribute__((vector_size(32)));
#  define VU32 u32x8
#  define VI32 i32x8
#  define VU64 u64x4
#  define VI64 i64x4
#  define VF64 f64x4
#  define VF32 f32x8
#  define VH __m128i

IA u32x8 sel_avx2(i32x8 m, u32x8 a, u32x8 b) { return (a & (u32x8)m) | (b & ~(u32x8)m); }
IA u32x8 sel_gt_avx2(i32x8 a, int32_t b, u32x8 x, u32x8 y) { return sel_avx2(a > b, x, y); }
IA u64x4 sel64_avx2(i64x4 m, u64x4 a, u64x4 b) { return (a & (u64x4)m) | (b & ~(u64x4)m); }
IA u32x8 ld32_avx2(const unsigned char *p) { return (u32x8)_mm256_loadu_si256((const void *)p); }
IA void st32_avx2(unsigned char *p, u32x8 v, int nt) {
  if (nt) _mm256_stream_si256((void *)p, (__m256i)v);
  else _mm256_storeu_si256((void *)p, (__m256i)v);
}
IA u64x4 ldpd_avx2(const unsigned char *p) { return (u64x4)_mm256_loadu_si256((const void *)p); }
IA void stpd_avx2(unsigned char *p, u64x4 v, int nt) { st32_avx2(p, (u32x8)v, nt); }
IA u32x8 ld16_avx2(const unsigned char *p) {
  return (u32x8)_mm256_cvtepu16_epi32(_mm_loadu_si128((const void *)p));
}
/* The low 16 bits of each lane (the lanes hold values below 2^16). */
IA void sth_avx2(unsigned char *p, __m128i h, int nt) {
  if (nt) _mm_stream_si128((void *)p, h);
  else _mm_storeu_si128((void *)p, h);
}
IA void st16_avx2(unsigned char *p, u32x8 v, int nt) {
  __m256i x = (__m256i)v;
  sth_avx2(p, _mm_packus_epi32(_mm256_castsi256_si128(x), _mm256_extracti128_si256(x, 1)), nt);
}
IA __m128i ldh_avx2(const unsigned char *p) { return _mm_loadu_si128((const void *)p); }
IA __m128i cvtph_avx2(u32x8 bits) {
  return _mm256_cvtps_ph((__m256)bits, _MM_FROUND_TO_NEAREST_INT);
}
IA u32x8 h2f_avx2(__m128i h) { return (u32x8)_mm256_cvtph_ps(h); }
/* f32_f16's flags on the input (see there). */
IA u32x8 f16_flags_avx2(u32x8 u, unsigned int fl) {
  i32x8 a = (i32x8)(u & 0x7FFFFFFFu);
  u32x8 s = u & 0x80000000u;
  if (fl & F_SAT) u = sel_avx2((a >= 0x477FF000) & (a < 0x7F800000), s | 0x477FE000u, u);
  if (fl & F_FLUSH) u = sel_avx2(a < 0x387FE000, s, u);
  return u;
}
IA int any32_avx2(i32x8 m) { return !_mm256_testz_si256((__m256i)m, (__m256i)m); }
/* 16-bit lanes: |x|; x where s > 0, 0 where s = 0 (s >= 0); the maximum */
typedef int16_t i16x16 __attribute__((vector_size(32)));
IA i16x16 abs16_avx2(i16x16 x) { return (i16x16)_mm256_abs_epi16((__m256i)x); }
IA i16x16 nz16_avx2(i16x16 x, i16x16 s) {
  return (i16x16)_mm256_sign_epi16((__m256i)x, (__m256i)s);
}
IA i16x16 max16_avx2(i16x16 a, i16x16 b) {
  return (i16x16)_mm256_max_epi16((__m256i)a, (__m256i)b);
}
IA f32x8 maxps_avx2(f32x8 a, f32x8 b) { return (f32x8)_mm256_max_ps((__m256)a, (__m256)b); }
/* some lane with a > b (signed), a > b unsigned, two pairs of 64-bit lanes */
IA int gti_any_avx2(i32x8 a, int32_t b) {
  return !_mm256_testz_si256(_mm256_cmpgt_epi32((__m256i)a, _mm256_set1_epi32(b)),
                             _mm256_set1_epi32(-1));
}
IA int gti64_any_avx2(i64x4 a, i64x4 c, int64_t b) {
  __m256i x = _mm256_set1_epi64x(b);
  return !_mm256_testz_si256(
      _mm256_or_si256(_mm256_cmpgt_epi64((__m256i)a, x), _mm256_cmpgt_epi64((__m256i)c, x)),
      _mm256_set1_epi32(-1));
}
IA int gtu_any_avx2(u32x8 a, u32x8 b) {
  __m256i m = _mm256_set1_epi32((int)0x80000000u);
  return !_mm256_testz_si256(
      _mm256_cmpgt_epi32(_mm256_xor_si256((__m256i)a, m), _mm256_xor_si256((__m256i)b, m)),
      _mm256_set1_epi32(-1));
}
IA int gtu64_any_avx2(u64x4 a, u64x4 b, u64x4 c, u64x4 d) {
  __m256i m = _mm256_set1_epi64x((long long)0x8000000000000000u);
  __m256i x = _mm256_cmpgt_epi64(_mm256_xor_si256((__m256i)a, m), _mm256_xor_si256((__m256i)b, m));
  __m256i y = _mm256_cmpgt_epi64(_mm256_xor_si256((__m256i)c, m), _mm256_xor_si256((__m256i)d, m));
  return !_mm256_testz_si256(_mm256_or_si256(x, y), _mm256_set1_epi32(-1));
}
/* The stats' relative-error test (convert_simd_body.h): some lane with
 * p >= x > 0 (unsigned), or p > x when sub = 0. */
IA int rel_test_avx2(u32x8 p, u32x8 x, int sub) { return gtu_any_avx2(p, sub ? x - 1u : x); }
/* The stats' first test of a vector (quick32 in convert_simd_body.h): the
 * lanes with a > lim, or e * finv > a as floats (>= a > 0 when sub); a and
 * the bits compared as floats are non-negative, a - 1 of a = 0 is a NaN, for
 * which the ordered compare is false. sub = 0: the lanes with e * finv > a
 * or a NaN product (the special lanes' error is NaN there). */
IA unsigned int stats_hit_avx2(i32x8 a, f32x8 e, f32x8 finv, int32_t lim, int sub) {
  __m256 p = _mm256_mul_ps((__m256)e, (__m256)finv);
  if (!sub) return (unsigned int)_mm256_movemask_ps(_mm256_cmp_ps(p, (__m256)a, _CMP_NLE_UQ));
  __m256i m = _mm256_or_si256((__m256i)_mm256_cmp_ps(p, (__m256)(a - 1), _CMP_GT_OQ),
                              _mm256_cmpgt_epi32((__m256i)a, _mm256_set1_epi32(lim)));
  return (unsigned int)_mm256_movemask_ps((__m256)m);
}
IA f64x4 maxpd_avx2(f64x4 a, f64x4 b) { return (f64x4)_mm256_max_pd((__m256d)a, (__m256d)b); }
IA u32x8 pd2ps_avx2(f64x4 lo, f64x4 hi) {
  return (u32x8)_mm256_set_m128(_mm256_cvtpd_ps((__m256d)hi), _mm256_cvtpd_ps((__m256d)lo));
}
IA void ps2pd_avx2(u32x8 bits, f64x4 *lo, f64x4 *hi) {
  __m256 f = (__m256)bits;
  *lo = (f64x4)_mm256_cvtps_pd(_mm256_castps256_ps128(f));
  *hi = (f64x4)_mm256_cvtps_pd(_mm256_extractf128_ps(f, 1));
}

#  include "convert_simd_body.h"

#  undef TA
#  undef IA
#  undef NA
#  undef W
#  undef X
#  undef HAS_BF16
#  undef VU32
#  undef VI32
#  undef VU64
#  undef VI64
#  undef VF64
#  undef VF32
#  undef VH

/* ---- AVX-512 F/BW/VL/BF16: 16 lanes ------------------------------------------ */

#  define AVX512_TARGET "avx512f,avx512bw,avx512dq,avx512vl,avx512bf16,avx2,f16c"
#  define TA __attribute__((target(AVX512_TARGET)))
#  define IA static inline __attribute__((always_inline, target(AVX512_TARGET)))
#  define NA static __attribute__((noinline, target(AVX512_TARGET)))
#  define W 16
#  define X(name) name##_avx512
#  define HAS_BF16 1
typedef uint32_t u32x16 __attribute__((vector_size(64)));
typedef int32_t i32x16 __attribute__((vector_size(64)));
typedef uint64_t u64x8 __attribute__((vector_size(64)));
typedef int64_t i64x8 __attribute__((vector_size(64)));
typedef double f64x8 __attribute__((vector_size(64)));
typedef float f32x16 __attribute__((vector_size(64)));
#  define VU32 u32x16
#  define VI32 i32x16
#  define VU64 u64x8
#  define VI64 i64x8
#  define VF64 f64x8
#  define VF32 f32x16
#  define VH __m256i

/* Selects with a mask register: written with bit operations, GCC makes the
 * compare's mask a vector with vpternlogd, whose inputs are whatever register
 * it picks, a false dependency that chained the iterations of a loop. */
IA u32x16 sel_avx512(i32x16 m, u32x16 a, u32x16 b) {
  return (u32x16)_mm512_mask_blend_epi32(_mm512_test_epi32_mask((__m512i)m, (__m512i)m), (__m512i)b,
                                         (__m512i)a);
}
/* a > b ? x : y lane by lane, the compare's mask register used as it is. */
IA u32x16 sel_gt_avx512(i32x16 a, int32_t b, u32x16 x, u32x16 y) {
  return (u32x16)_mm512_mask_blend_epi32(_mm512_cmpgt_epi32_mask((__m512i)a, _mm512_set1_epi32(b)),
                                         (__m512i)y, (__m512i)x);
}
IA u64x8 sel64_avx512(i64x8 m, u64x8 a, u64x8 b) {
  return (u64x8)_mm512_mask_blend_epi64(_mm512_test_epi64_mask((__m512i)m, (__m512i)m), (__m512i)b,
                                        (__m512i)a);
}
IA u32x16 ld32_avx512(const unsigned char *p) { return (u32x16)_mm512_loadu_si512(p); }
IA void st32_avx512(unsigned char *p, u32x16 v, int nt) {
  if (nt) _mm512_stream_si512((void *)p, (__m512i)v);
  else _mm512_storeu_si512(p, (__m512i)v);
}
IA u64x8 ldpd_avx512(const unsigned char *p) { return (u64x8)_mm512_loadu_si512(p); }
IA void stpd_avx512(unsigned char *p, u64x8 v, int nt) { st32_avx512(p, (u32x16)v, nt); }
IA u32x16 ld16_avx512(const unsigned char *p) {
  return (u32x16)_mm512_cvtepu16_epi32(_mm256_loadu_si256((const void *)p));
}
IA void sth_avx512(unsigned char *p, __m256i h, int nt) {
  if (nt) _mm256_stream_si256((void *)p, h);
  else _mm256_storeu_si256((void *)p, h);
}
IA void st16_avx512(unsigned char *p, u32x16 v, int nt) {
  sth_avx512(p, _mm512_cvtepi32_epi16((__m512i)v), nt);
}
IA __m256i ldh_avx512(const unsigned char *p) { return _mm256_loadu_si256((const void *)p); }
IA __m256i cvtph_avx512(u32x16 bits) {
  return _mm512_cvtps_ph((__m512)bits, _MM_FROUND_TO_NEAREST_INT);
}
IA u32x16 h2f_avx512(__m256i h) { return (u32x16)_mm512_cvtph_ps(h); }
/* f32_f16's flags on the input (see there), with mask registers. */
IA u32x16 f16_flags_avx512(u32x16 u, unsigned int fl) {
  __m512i x = (__m512i)u;
  __m512i a = _mm512_and_si512(x, _mm512_set1_epi32(0x7FFFFFFF));
  __m512i s = _mm512_and_si512(x, _mm512_set1_epi32((int)0x80000000u));
  if (fl & F_SAT) {
    __mmask16 m =
        _mm512_mask_cmplt_epi32_mask(_mm512_cmpge_epi32_mask(a, _mm512_set1_epi32(0x477FF000)), a,
                                     _mm512_set1_epi32(0x7F800000));
    x = _mm512_mask_or_epi32(x, m, s, _mm512_set1_epi32(0x477FE000));
  }
  if (fl & F_FLUSH)
    x = _mm512_mask_mov_epi32(x, _mm512_cmplt_epi32_mask(a, _mm512_set1_epi32(0x387FE000)), s);
  return (u32x16)x;
}
IA int any32_avx512(i32x16 m) { return _mm512_test_epi32_mask((__m512i)m, (__m512i)m) != 0; }
/* 16-bit lanes: |x|; x where s > 0, 0 where s = 0 (s >= 0); the maximum */
typedef int16_t i16x32 __attribute__((vector_size(64)));
IA i16x32 abs16_avx512(i16x32 x) { return (i16x32)_mm512_abs_epi16((__m512i)x); }
IA i16x32 nz16_avx512(i16x32 x, i16x32 s) {
  return (i16x32)_mm512_maskz_mov_epi16(_mm512_test_epi16_mask((__m512i)s, (__m512i)s), (__m512i)x);
}
IA i16x32 max16_avx512(i16x32 a, i16x32 b) {
  return (i16x32)_mm512_max_epi16((__m512i)a, (__m512i)b);
}
IA f32x16 maxps_avx512(f32x16 a, f32x16 b) { return (f32x16)_mm512_max_ps((__m512)a, (__m512)b); }
IA int gti_any_avx512(i32x16 a, int32_t b) {
  return _mm512_cmpgt_epi32_mask((__m512i)a, _mm512_set1_epi32(b)) != 0;
}
IA int gti64_any_avx512(i64x8 a, i64x8 c, int64_t b) {
  __m512i x = _mm512_set1_epi64(b);
  return (_mm512_cmpgt_epi64_mask((__m512i)a, x) | _mm512_cmpgt_epi64_mask((__m512i)c, x)) != 0;
}
IA int gtu_any_avx512(u32x16 a, u32x16 b) {
  return _mm512_cmpgt_epu32_mask((__m512i)a, (__m512i)b) != 0;
}
IA int gtu64_any_avx512(u64x8 a, u64x8 b, u64x8 c, u64x8 d) {
  return (_mm512_cmpgt_epu64_mask((__m512i)a, (__m512i)b) |
          _mm512_cmpgt_epu64_mask((__m512i)c, (__m512i)d)) != 0;
}
IA unsigned int stats_hit_avx512(i32x16 a, f32x16 e, f32x16 finv, int32_t lim, int sub) {
  __m512 p = _mm512_mul_ps((__m512)e, (__m512)finv);
  if (!sub) return _mm512_cmp_ps_mask(p, (__m512)a, _CMP_NLE_UQ);
  return _mm512_cmp_ps_mask(p, (__m512)(a - 1), _CMP_GT_OQ) |
         _mm512_cmpgt_epi32_mask((__m512i)a, _mm512_set1_epi32(lim));
}
IA int rel_test_avx512(u32x16 p, u32x16 x, int sub) {
  if (!sub) return _mm512_cmpgt_epu32_mask((__m512i)p, (__m512i)x) != 0;
  return _mm512_mask_cmpge_epu32_mask(_mm512_test_epi32_mask((__m512i)x, (__m512i)x), (__m512i)p,
                                      (__m512i)x) != 0;
}
IA f64x8 maxpd_avx512(f64x8 a, f64x8 b) { return (f64x8)_mm512_max_pd((__m512d)a, (__m512d)b); }
IA u32x16 pd2ps_avx512(f64x8 lo, f64x8 hi) {
  __m512d l = _mm512_castps_pd(_mm512_castps256_ps512(_mm512_cvtpd_ps((__m512d)lo)));
  return (u32x16)_mm512_insertf64x4(l, _mm256_castps_pd(_mm512_cvtpd_ps((__m512d)hi)), 1);
}
IA void ps2pd_avx512(u32x16 bits, f64x8 *lo, f64x8 *hi) {
  __m512 f = (__m512)bits;
  *lo = (f64x8)_mm512_cvtps_pd(_mm512_castps512_ps256(f));
  *hi = (f64x8)_mm512_cvtps_pd(_mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(f), 1)));
}

/* vcvtneps2bf16 rounds to nearest even, and makes NaNs quiet keeping the top
 * payload bits as f32_to_bf16_1 does, but it reads subnormal inputs as zero
 * (and flushes subnormal results). The lanes whose input is subnormal (or a
 * NaN, so the result never depends on the CPU's NaN handling) take the
 * integer rounding instead; such lanes are rare, so it is computed only for
 * vectors that have one. */
IA __mmask16 bf16_fixup_avx512(u32x16 u) {
  __m512i a = _mm512_and_si512((__m512i)u, _mm512_set1_epi32(0x7FFFFFFF));
  __mmask16 nan = _mm512_cmpgt_epu32_mask(a, _mm512_set1_epi32(0x7F800000));
  return _mm512_cmplt_epu32_mask(_mm512_sub_epi32(a, _mm512_set1_epi32(1)),
                                 _mm512_set1_epi32(0x007FFFFF)) |
         nan;
}
IA u32x16 f32_bf16_avx512(u32x16 u, unsigned int fl);
IA u32x16 bf16_rne_avx512(u32x16 u) {
  __m512i r = _mm512_cvtepu16_epi32((__m256i)_mm512_cvtneps_pbh((__m512)u));
  __mmask16 fix = bf16_fixup_avx512(u);
  if (fix) r = _mm512_mask_mov_epi32(r, fix, (__m512i)f32_bf16_avx512(u, 0));
  return (u32x16)r;
}
IA void st_bf16_rne_avx512(unsigned char *p, u32x16 u, int nt) {
  __m256i r = (__m256i)_mm512_cvtneps_pbh((__m512)u);
  __mmask16 fix = bf16_fixup_avx512(u);
  if (fix) r = _mm256_mask_mov_epi16(r, fix, _mm512_cvtepi32_epi16((__m512i)f32_bf16_avx512(u, 0)));
  sth_avx512(p, r, nt);
}

#  include "convert_simd_body.h"

/* ---- dispatch -------------------------------------------------------------------- */

/* CPUID and XGETBV directly (the feature names __builtin_cpu_supports knows
 * differ between compilers): the instructions, and the OS saving the
 * registers they use (XCR0: SSE and AVX state; AVX-512 also opmask and upper
 * ZMM state). */
static int cpu_has(int p) {
  unsigned int a, b, c, d, xcr0 = 0;
  if (p == OSL_PATH_SCALAR) return 1;
  if (!__get_cpuid_count(1, 0, &a, &b, &c, &d)) return 0;
  int avx = (c >> 27 & 1) && (c >> 28 & 1), f16c = c >> 29 & 1;
  if (avx) {
    unsigned int hi;
    __asm__ volatile("xgetbv" : "=a"(xcr0), "=d"(hi) : "c"(0));
  }
  if (!avx || !f16c || (xcr0 & 0x6) != 0x6) return 0;
  if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return 0;
  int avx2 = b >> 5 & 1;
  int avx512 = (b >> 16 & 1) && (b >> 17 & 1) && (b >> 30 & 1) && (b >> 31 & 1); /* F DQ BW VL */
  if (p == OSL_PATH_AVX2) return avx2;
  if (p != OSL_PATH_AVX512 || !avx2 || !avx512 || (xcr0 & 0xE0) != 0xE0) return 0;
  if (a < 1 || !__get_cpuid_count(7, 1, &a, &b, &c, &d)) return 0;
  return a >> 5 & 1; /* AVX512_BF16 */
}

static int env_default(void) {
  /* MXCSR: rounding control (bits 13-14) round to nearest, FTZ (bit 15) and
   * DAZ (bit 6) off. */
  return (_mm_getcsr() & 0xE040u) == 0;
}

static const osl_convert_fn *const tables[OSL_PATH_COUNT] = {NULL, table_avx2, table_avx512, NULL,
                                                             NULL};
#  define HOST_PATH_FIRST OSL_PATH_AVX2
#  define HOST_PATH_LAST OSL_PATH_AVX512

#elif OSL_HAVE_NEON_PATHS

#  include "base/platform.h"

/* Advanced SIMD is in every AArch64 Linux system (HWCAP_ASIMD, bit 1);
 * BF16 is HWCAP2_BF16 (bit 14). Without getauxval only the baseline. */
static int cpu_has(int p) {
  if (p == OSL_PATH_SCALAR) return 1;
  unsigned long hw, hw2;
  if (!onnxslim__os_hwcaps(&hw, &hw2)) return p == OSL_PATH_NEON;
  if (p == OSL_PATH_NEON) return (hw >> 1 & 1) != 0;
  if (p == OSL_PATH_NEON_BF16) return (hw >> 1 & 1) && (hw2 >> 14 & 1);
  return 0;
}

static int env_default(void) {
  /* FPCR: RMode (bits 22-23) round to nearest; FZ16 (19), FZ (24), DN (25)
   * and AHP (26) off. */
  uint64_t fpcr;
  __asm__ volatile("mrs %0, fpcr" : "=r"(fpcr));
  return (fpcr & 0x07C80000u) == 0;
}

static const osl_convert_fn *table_of(int p) {
  return p == OSL_PATH_NEON || p == OSL_PATH_NEON_BF16
             ? onnxslim__convert_neon_table(p == OSL_PATH_NEON_BF16)
             : NULL;
}
#  define HOST_PATH_FIRST OSL_PATH_NEON
#  define HOST_PATH_LAST OSL_PATH_NEON_BF16

#else /* neither */

static int cpu_has(int p) { return p == OSL_PATH_SCALAR; }
static int env_default(void) { return 0; }
#  define HOST_PATH_FIRST 1
#  define HOST_PATH_LAST 0

#endif

#if !OSL_HAVE_NEON_PATHS
static const osl_convert_fn *table_of(int p) {
#  if OSL_HAVE_X86_PATHS
  return tables[p];
#  else
  (void)p;
  return NULL;
#  endif
}
#endif

static const char *const path_names[OSL_PATH_COUNT] = {"scalar", "avx2", "avx512", "neon",
                                                       "neon-bf16"};

/* -1 until chosen; then the path. Chosen by whichever thread comes first
 * (every thread computes the same choice; the store is atomic). */
static atomic_int path_now = -1;

const char *onnxslim__convert_path_name(int p) {
  return p >= 0 && p < OSL_PATH_COUNT ? path_names[p] : "?";
}

int onnxslim__convert_path_available(int p) { return p >= 0 && p < OSL_PATH_COUNT && cpu_has(p); }

int onnxslim__convert_path_requested(void) {
  const char *e = getenv("LIBONNXSLIM_KERNELS");
  for (int p = 0; e && p < OSL_PATH_COUNT; p++)
    if (strcmp(e, path_names[p]) == 0) return p;
  return -1;
}

static int choose(void) {
  int p = onnxslim__convert_path_requested();
  /* unset, or a path of another architecture: the widest this CPU has */
  if (p < 0 || (p != OSL_PATH_SCALAR && (p < HOST_PATH_FIRST || p > HOST_PATH_LAST)))
    p = OSL_PATH_COUNT - 1;
  while (p > 0 && !cpu_has(p)) p--;
  return p;
}

int onnxslim__convert_path(void) {
  int p = atomic_load_explicit(&path_now, memory_order_relaxed);
  if (p < 0) {
    p = choose();
    atomic_store_explicit(&path_now, p, memory_order_relaxed);
  }
  return p;
}

int onnxslim__convert_set_path(int p) {
  if (p == -1) p = choose();
  else if (!onnxslim__convert_path_available(p)) return -1;
  atomic_store_explicit(&path_now, p, memory_order_relaxed);
  return 0;
}

osl_convert_fn onnxslim__convert_simd_of(int p, int kind) {
  if (p <= OSL_PATH_SCALAR || p >= OSL_PATH_COUNT || !env_default()) return NULL;
  return table_of(p)[kind];
}

osl_convert_fn onnxslim__convert_simd(int kind) {
  return onnxslim__convert_simd_of(onnxslim__convert_path(), kind);
}
