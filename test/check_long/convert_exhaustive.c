/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/* Exhaustive check of the FP32 -> kernels of include/onnxslim/convert.h over
 * all 2^32 FP32 bit patterns, against references that share no code with the
 * library (run by `make check-long`; about three minutes on two cores):
 *
 *   FP32 -> BF16   a rounding written in double arithmetic with libm: the
 *                  quantum at the value's exponent (ilogb, ldexp), the value
 *                  divided by it (exact), rint() or trunc(), multiplied back;
 *                  flags 0, TRUNCATE, SATURATE, FLUSH, SATURATE|FLUSH,
 *                  TRUNCATE|FLUSH
 *   FP32 -> FP16   GCC's _Float16 conversion (the CPU's F16C instruction when
 *                  there is one, else libgcc's soft-fp __truncsfhf2);
 *                  flags 0, SATURATE, FLUSH, SATURATE|FLUSH
 *   FP32 -> FP64   the C cast (the CPU's conversion)
 *   FP64 -> FP32   for every FP32 value x: x itself, the midpoint between x
 *                  and the next larger magnitude, and the doubles just below
 *                  and above that midpoint (4 * 2^32 inputs), against the C
 *                  cast; flags 0, SATURATE, FLUSH
 *
 * NaN results are checked against the policy (quiet, sign, top payload bits);
 * SATURATE and FLUSH expectations are derived from the plain reference by
 * the documented rules.
 *
 * Stats: the stats path must write exactly what the fast path writes (all
 * inputs; FP64 -> FP32 on the sampled blocks), and on the sampled blocks its
 * counters and maximum errors must equal those recomputed here from the
 * reference results. Sampled: every 4th block of 2^16 inputs (2^30 FP32
 * inputs) and the blocks around each boundary of the policy (zero, subnormal
 * and normal limits, overflow thresholds, Inf and NaN).
 *
 * Environments: every 64th block is also converted in a non-default
 * floating-point environment (another rounding mode, or on x86 flush-to-zero
 * and/or denormals-are-zero) and must give the same bytes. For FP64 -> FP32
 * that runs the library's integer fallback path, which the FP status flags
 * show (the cast raises overflow for 1e300, integers do not).
 *
 * Paths: the kernels have a scalar reference and SIMD paths chosen at run
 * time (lib/kernels/convert_simd.h). Every check above runs for every path
 * this CPU has, on the same references (computed once per block): this
 * program calls each path's kernels directly, with the same rule as the
 * dispatcher (the scalar code in a non-default environment), so it is
 * linked with the library's objects. Stats are printed per path.
 *
 * Usage: convert_exhaustive [threads [stride]]: threads default to the online
 * CPUs; a stride k > 1 checks only every k-th block of 2^16 inputs (a quick
 * partial run). Prints one line per check and "N passed, N failed". */
#define _GNU_SOURCE
#include <fenv.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <onnxslim.h>

#include "kernels/convert_simd.h"

/* ---- the kernels of one dispatch path ------------------------------------------ */

static int paths[OSL_PATH_COUNT], npaths; /* the paths this CPU has */
static __thread int cur_path;             /* the path the k_* functions run */

static const osl_convert_fn scalar_fn[K_COUNT] = {
    [K_F32_BF16] = onnxslim__convert_scalar_f32_to_bf16,
    [K_F32_F16] = onnxslim__convert_scalar_f32_to_f16,
    [K_BF16_F32] = onnxslim__convert_scalar_bf16_to_f32,
    [K_F16_F32] = onnxslim__convert_scalar_f16_to_f32,
    [K_F64_F32] = onnxslim__convert_scalar_f64_to_f32,
    [K_F32_F64] = onnxslim__convert_scalar_f32_to_f64,
    [K_F16_BF16] = onnxslim__convert_scalar_f16_to_bf16,
    [K_BF16_F16] = onnxslim__convert_scalar_bf16_to_f16,
};

/* Kernel `kind` of path cur_path, as the dispatcher would run it. */
static void kcall(int kind, void *dst, const void *src, size_t n, unsigned int fl,
                  onnxslim_convert_stats *st) {
  osl_convert_fn f = onnxslim__convert_simd_of(cur_path, kind);
  (f ? f : scalar_fn[kind])(dst, src, n, fl, st);
}
static int k_f32_to_bf16(uint16_t *d, const float *s, size_t n, unsigned int fl,
                         onnxslim_convert_stats *st) {
  kcall(K_F32_BF16, d, s, n, fl, st);
  return 0;
}
static int k_f32_to_f16(uint16_t *d, const float *s, size_t n, unsigned int fl,
                        onnxslim_convert_stats *st) {
  kcall(K_F32_F16, d, s, n, fl, st);
  return 0;
}
static int k_f64_to_f32(float *d, const double *s, size_t n, unsigned int fl,
                        onnxslim_convert_stats *st) {
  kcall(K_F64_F32, d, s, n, fl, st);
  return 0;
}
static int k_f32_to_f64(double *d, const float *s, size_t n) {
  kcall(K_F32_F64, d, s, n, 0, NULL);
  return 0;
}

#if defined(__SSE__) || defined(__x86_64__)
#  include <xmmintrin.h>
#  define HAVE_MXCSR 1
#endif

#define TRUNC ONNXSLIM_CONVERT_TRUNCATE
#define SAT ONNXSLIM_CONVERT_SATURATE
#define FLUSH ONNXSLIM_CONVERT_FLUSH_SUBNORMALS

#define BLOCK_BITS 16
#define BLOCK (1u << BLOCK_BITS)
#define NBLOCKS (1u << (32 - BLOCK_BITS))

/* ---- checks and their tallies ------------------------------------------------ */

enum {
  C_BF16, C_BF16_T, C_BF16_S, C_BF16_F, C_BF16_SF, C_BF16_TF,
  C_F16, C_F16_S, C_F16_F, C_F16_SF,
  C_F64, C_D2F, C_D2F_S, C_D2F_F,
  C_STATS_SAME, C_STATS_COUNTS, C_ENV, C_PATH, NCHECK
};
static const char *check_name[NCHECK] = {
    "f32->bf16 round to nearest even", "f32->bf16 truncate", "f32->bf16 saturate",
    "f32->bf16 flush subnormals", "f32->bf16 saturate|flush", "f32->bf16 truncate|flush",
    "f32->f16 default", "f32->f16 saturate", "f32->f16 flush subnormals",
    "f32->f16 saturate|flush", "f32->f64", "f64->f32 (x, midpoints, around midpoints)",
    "f64->f32 saturate", "f64->f32 flush subnormals",
    "stats path writes the fast path's bytes", "stats counters and maxima",
    "same bytes in non-default FP environments",
    "f64->f32 takes the cast path only when rounding to nearest without FTZ"};

/* Stats kinds compared with recomputed expectations. */
enum { S_BF16, S_BF16_TF, S_BF16_S, S_F16, S_F16_SF, S_D2F_S, NSTATS };

typedef struct {
  uint64_t count, to_inf, saturated, flushed, nan;
  double max_abs, max_rel;
} expect;

typedef struct {
  unsigned first, last; /* block range [first, last) */
  uint64_t bad[NCHECK], tried[NCHECK];
  char first_bad[NCHECK][160];
  onnxslim_convert_stats got[OSL_PATH_COUNT][NSTATS]; /* per path */
  expect want[OSL_PATH_COUNT][NSTATS];
  uint64_t ref_nan_differs; /* GCC's FP16 NaN != ours (information only) */
} work;

static void fail(work *w, int c, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
#include <stdarg.h>
static void fail(work *w, int c, const char *fmt, ...) {
  if (w->bad[c]++ == 0) {
    va_list ap;
    va_start(ap, fmt);
    int k = snprintf(w->first_bad[c], sizeof w->first_bad[c], "[%s] ",
                     onnxslim__convert_path_name(cur_path));
    vsnprintf(w->first_bad[c] + k, sizeof w->first_bad[c] - (size_t)k, fmt, ap);
    va_end(ap);
  }
}

/* ---- references -------------------------------------------------------------- */

static float f32_of(uint32_t u) {
  float f;
  memcpy(&f, &u, 4);
  return f;
}
static uint32_t bits32(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}
static uint64_t bits64(double d) {
  uint64_t u;
  memcpy(&u, &d, 8);
  return u;
}
static double f64_of(uint64_t u) {
  double d;
  memcpy(&d, &u, 8);
  return d;
}

/* BF16 roundings of a finite float in double arithmetic: 8 significant bits,
 * the quantum fixed at 2^-133 below the normal range; to nearest even
 * (rint, default rounding mode) and toward zero (trunc). Sets the BF16 bits. */
static void ref_bf16(float f, uint16_t *nearest, uint16_t *toward_zero) {
  double x = f;
  if (x == 0 || isinf(x)) {
    *nearest = *toward_zero = (uint16_t)(bits32(f) >> 16);
    return;
  }
  int e = ilogb(x);
  if (e < -126) e = -126;
  double q = ldexp(1.0, e - 7);
  float rn = (float)(rint(x / q) * q); /* exact, or +-Inf for +-2^128 */
  float rz = (float)(trunc(x / q) * q);
  if ((bits32(rn) & 0xFFFF) || (bits32(rz) & 0xFFFF)) abort(); /* reference broken */
  *nearest = (uint16_t)(bits32(rn) >> 16);
  *toward_zero = (uint16_t)(bits32(rz) >> 16);
}

static uint16_t ref_f16(float f) {
  _Float16 h = (_Float16)f;
  uint16_t b;
  memcpy(&b, &h, 2);
  return b;
}

/* GCC's _Float16 conversion of a block: with the CPU's F16C instruction when
 * it has one (much faster than libgcc's soft-fp, and just as independent of
 * the library), else libgcc. */
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
__attribute__((target("f16c"))) static void ref_f16_block_f16c(uint16_t *o, const uint32_t *in,
                                                               size_t n) {
  for (size_t i = 0; i < n; i++) {
    _Float16 h = (_Float16)f32_of(in[i]);
    memcpy(&o[i], &h, 2);
  }
}
static int have_f16c(void) { return __builtin_cpu_supports("f16c"); }
#else
static void ref_f16_block_f16c(uint16_t *o, const uint32_t *in, size_t n) {
  (void)o, (void)in, (void)n;
}
static int have_f16c(void) { return 0; }
#endif
static int use_f16c;
static void ref_f16_block(uint16_t *o, const uint32_t *in, size_t n) {
  if (use_f16c)
    ref_f16_block_f16c(o, in, n);
  else
    for (size_t i = 0; i < n; i++) o[i] = ref_f16(f32_of(in[i]));
}

/* Derived expectations. */
static uint32_t sat_rule(uint32_t r, uint32_t in_finite, uint32_t inf, uint32_t maxf,
                         uint32_t sign) {
  return (in_finite && (r & ~sign) == inf) ? (r & sign) | maxf : r;
}
static uint32_t flush_rule(uint32_t r, uint32_t expmask, uint32_t sign) {
  return ((r & expmask) == 0) ? r & sign : r;
}

static double bf16_value(uint16_t h) { return (double)f32_of((uint32_t)h << 16); }
static double f16_table[65536]; /* value of every FP16 pattern, via _Float16 */
static double f16_value(uint16_t h) { return f16_table[h]; }

static inline void expect_add(expect *e, double x, double y, int x_nan, int x_inf, int y_inf,
                       int sat) {
  e->count++;
  if (x_nan) {
    e->nan++;
    return;
  }
  if (x_inf) return;
  if (y_inf) {
    e->to_inf++;
    return;
  }
  e->saturated += (uint64_t)sat;
  e->flushed += (y == 0 && x != 0);
  double err = fabs(y - x), ax = fabs(x);
  if (err > e->max_abs) e->max_abs = err;
  /* divide only when the quotient can exceed the maximum (a division per
   * input would dominate the run): err / ax > r needs err >= r * ax */
  if (ax != 0 && err >= e->max_rel * ax * 0.99999999 && err / ax > e->max_rel)
    e->max_rel = err / ax;
}

/* ---- non-default floating-point environments --------------------------------- */

/* 0-2: the other rounding modes; x86 only: 3 flush-to-zero and
 * denormals-are-zero, 4 the same rounding upward, 5 denormals-are-zero alone
 * (the FP64 -> FP32 kernel keeps its cast path there). */
static int n_env(void) {
#ifdef HAVE_MXCSR
  return 6;
#else
  return 3;
#endif
}
static void set_env(int k) {
  static const int modes[6] = {FE_UPWARD,    FE_DOWNWARD, FE_TOWARDZERO,
                               FE_TONEAREST, FE_UPWARD,   FE_TONEAREST};
  fesetround(modes[k]);
#ifdef HAVE_MXCSR
  if (k == 3 || k == 4) _mm_setcsr(_mm_getcsr() | 0x8040u); /* FTZ | DAZ */
  if (k == 5) _mm_setcsr(_mm_getcsr() | 0x0040u);           /* DAZ */
#endif
}
static void reset_env(void) {
  fesetround(FE_TONEAREST);
#ifdef HAVE_MXCSR
  _mm_setcsr(_mm_getcsr() & ~0x8040u);
#endif
}

/* ---- one block of 2^16 FP32 patterns ------------------------------------------ */

typedef struct {
  uint32_t in[BLOCK];
  uint16_t rb[BLOCK], rbt[BLOCK], rh[BLOCK];
  uint16_t o16[BLOCK], s16[BLOCK];
  double d[4 * BLOCK], o64[BLOCK];
  float o32[4 * BLOCK], s32[4 * BLOCK], ref32[4 * BLOCK];
} bufs;

static void merge_stats(onnxslim_convert_stats *into, const onnxslim_convert_stats *s) {
  into->count += s->count, into->to_inf += s->to_inf, into->saturated += s->saturated;
  into->flushed += s->flushed, into->nan += s->nan;
  if (s->max_abs_error > into->max_abs_error) into->max_abs_error = s->max_abs_error;
  if (s->max_rel_error > into->max_rel_error) into->max_rel_error = s->max_rel_error;
}

/* Runs a 16-bit-result kernel with and without stats; checks the bytes. */
typedef int (*k16)(uint16_t *, const float *, size_t, unsigned int, onnxslim_convert_stats *);
static void run16(work *w, bufs *b, k16 fn, unsigned int fl, int stats_kind, int sampled) {
  if (fn(b->o16, (const float *)b->in, BLOCK, fl, NULL) != 0) abort();
  if (stats_kind >= 0) {
    onnxslim_convert_stats st = ONNXSLIM_CONVERT_STATS_INIT;
    if (fn(b->s16, (const float *)b->in, BLOCK, fl, &st) != 0) abort();
    w->tried[C_STATS_SAME]++;
    if (memcmp(b->o16, b->s16, sizeof b->o16) != 0)
      fail(w, C_STATS_SAME, "16-bit kernel flags %u, block at %08x", fl, b->in[0]);
    if (sampled) merge_stats(&w->got[cur_path][stats_kind], &st);
  }
}

static void check_kernels(work *w, bufs *b, unsigned blk, uint32_t base, int sampled);

static void check_block(work *w, bufs *b, unsigned blk) {
  uint32_t base = blk << BLOCK_BITS;
  /* counters and maxima are recomputed for a quarter of the blocks and for
   * the blocks around every boundary of the policy */
  static const unsigned edges[] = {0x0000, 0x007F, 0x0080, 0x3300, 0x3380, 0x387F, 0x3880,
                                   0x477F, 0x4780, 0x7F7F, 0x7F80, 0x7FC0};
  int sampled = blk % 4 == 1;
  for (size_t e = 0; e < sizeof edges / sizeof edges[0]; e++) sampled |= (blk & 0x7FFFu) == edges[e];
  for (uint32_t i = 0; i < BLOCK; i++) b->in[i] = base + i;

  /* references, in the default environment */
  for (uint32_t i = 0; i < BLOCK; i++) {
    uint32_t u = b->in[i], a = u & 0x7FFFFFFFu;
    if (a > 0x7F800000u) continue;
    ref_bf16(f32_of(u), &b->rb[i], &b->rbt[i]);
  }
  ref_f16_block(b->rh, b->in, BLOCK);
  for (int p = 0; p < npaths; p++) {
    cur_path = paths[p];
    check_kernels(w, b, blk, base, sampled);
  }
}

/* The kernels of path cur_path on block blk, against the references in b. */
static void check_kernels(work *w, bufs *b, unsigned blk, uint32_t base, int sampled) {

  /* FP32 -> BF16 */
  static const unsigned int bf_flags[6] = {0, TRUNC, SAT, FLUSH, SAT | FLUSH, TRUNC | FLUSH};
  static const int bf_stats[6] = {S_BF16, -1, S_BF16_S, -1, -1, S_BF16_TF};
  for (int v = 0; v < 6; v++) {
    unsigned int fl = bf_flags[v];
    run16(w, b, k_f32_to_bf16, fl, bf_stats[v], sampled);
    w->tried[C_BF16 + v] += BLOCK;
    for (uint32_t i = 0; i < BLOCK; i++) {
      uint32_t u = b->in[i], a = u & 0x7FFFFFFFu, want;
      if (a > 0x7F800000u) {
        want = (u >> 16) | 0x0040u;
      } else {
        want = (fl & TRUNC) ? b->rbt[i] : b->rb[i];
        if (fl & SAT) want = sat_rule(want, a < 0x7F800000u, 0x7F80, 0x7F7F, 0x8000);
        if (fl & FLUSH) want = flush_rule(want, 0x7F80, 0x8000);
      }
      if (b->o16[i] != want)
        fail(w, C_BF16 + v, "%08x -> %04x, want %04x", u, b->o16[i], want);
      if (sampled && bf_stats[v] >= 0) {
        double x = f32_of(u), y = bf16_value((uint16_t)want);
        expect_add(&w->want[cur_path][bf_stats[v]], x, y, a > 0x7F800000u, a == 0x7F800000u,
                   (want & 0x7FFF) == 0x7F80 && a != 0x7F800000u,
                   (fl & SAT) && !(fl & TRUNC) && a >= 0x7F7F8000u && a < 0x7F800000u);
      }
    }
  }

  /* FP32 -> FP16 */
  static const unsigned int h_flags[4] = {0, SAT, FLUSH, SAT | FLUSH};
  static const int h_stats[4] = {S_F16, -1, -1, S_F16_SF};
  for (int v = 0; v < 4; v++) {
    unsigned int fl = h_flags[v];
    run16(w, b, k_f32_to_f16, fl, h_stats[v], sampled);
    w->tried[C_F16 + v] += BLOCK;
    for (uint32_t i = 0; i < BLOCK; i++) {
      uint32_t u = b->in[i], a = u & 0x7FFFFFFFu, want;
      if (a > 0x7F800000u) {
        want = ((u >> 16) & 0x8000u) | 0x7E00u | ((a >> 13) & 0x3FFu);
        if (v == 0 && b->rh[i] != want) w->ref_nan_differs++;
      } else {
        want = b->rh[i];
        if (fl & SAT) want = sat_rule(want, a < 0x7F800000u, 0x7C00, 0x7BFF, 0x8000);
        if (fl & FLUSH) want = flush_rule(want, 0x7C00, 0x8000);
      }
      if (b->o16[i] != want)
        fail(w, C_F16 + v, "%08x -> %04x, want %04x", u, b->o16[i], want);
      if (sampled && h_stats[v] >= 0) {
        double x = f32_of(u), y = a > 0x7F800000u ? 0 : f16_value((uint16_t)want);
        expect_add(&w->want[cur_path][h_stats[v]], x, y, a > 0x7F800000u, a == 0x7F800000u,
                   (want & 0x7FFF) == 0x7C00 && a != 0x7F800000u,
                   (fl & SAT) && a >= 0x477FF000u && a < 0x7F800000u);
      }
    }
  }

  /* FP32 -> FP64 */
  if (k_f32_to_f64(b->o64, (const float *)b->in, BLOCK) != 0) abort();
  w->tried[C_F64] += BLOCK;
  for (uint32_t i = 0; i < BLOCK; i++) {
    double want = (double)f32_of(b->in[i]);
    if (bits64(b->o64[i]) != bits64(want))
      fail(w, C_F64, "%08x -> %016llx, want %016llx", b->in[i],
           (unsigned long long)bits64(b->o64[i]), (unsigned long long)bits64(want));
  }

  /* FP64 -> FP32: x, the midpoint m to the next magnitude, m -+ 1 ulp */
  for (uint32_t i = 0; i < BLOCK; i++) {
    uint32_t u = b->in[i], a = u & 0x7FFFFFFFu;
    double x = f32_of(u);
    b->d[4 * i] = x;
    if (a >= 0x7F800000u) { /* Inf and NaN: also a NaN with payload only in the low bits */
      uint64_t xb = bits64(x);
      b->d[4 * i + 1] = f64_of(xb | 1u);
      b->d[4 * i + 2] = f64_of(xb | 0x10000000u);
      b->d[4 * i + 3] = f64_of(xb ^ 0x8000000000000000u);
      continue;
    }
    double next = a == 0x7F7FFFFFu ? ldexp(1.0, 128) : (double)f32_of(a + 1);
    double m = ((double)f32_of(a) + next) / 2; /* exact */
    if (u >> 31) m = -m;
    uint64_t mb = bits64(m);
    b->d[4 * i + 1] = f64_of(mb - 1);
    b->d[4 * i + 2] = m;
    b->d[4 * i + 3] = f64_of(mb + 1);
  }
  for (uint32_t i = 0; i < 4 * BLOCK; i++) b->ref32[i] = (float)b->d[i];
  static const unsigned int d_flags[3] = {0, SAT, FLUSH};
  static const int d_stats[3] = {-1, S_D2F_S, -1}; /* stats path on sampled blocks only */
  for (int v = 0; v < 3; v++) {
    unsigned int fl = d_flags[v];
    if (k_f64_to_f32(b->o32, b->d, 4 * BLOCK, fl, NULL) != 0) abort();
    w->tried[v == 0 ? C_D2F : v == 1 ? C_D2F_S : C_D2F_F] += 4 * BLOCK;
    if (sampled && d_stats[v] >= 0) {
      onnxslim_convert_stats st = ONNXSLIM_CONVERT_STATS_INIT;
      if (k_f64_to_f32(b->s32, b->d, 4 * BLOCK, fl, &st) != 0) abort();
      w->tried[C_STATS_SAME]++;
      if (memcmp(b->o32, b->s32, sizeof b->o32) != 0)
        fail(w, C_STATS_SAME, "f64->f32 flags %u, block at %08x", fl, base);
      merge_stats(&w->got[cur_path][d_stats[v]], &st);
    }
    for (uint32_t i = 0; i < 4 * BLOCK; i++) {
      uint64_t db = bits64(b->d[i]), da = db & 0x7FFFFFFFFFFFFFFFu;
      uint32_t sign = (uint32_t)(db >> 32) & 0x80000000u, want;
      if (da > 0x7FF0000000000000u) {
        want = sign | 0x7FC00000u | (uint32_t)((da >> 29) & 0x3FFFFFu);
      } else {
        want = bits32(b->ref32[i]);
        if (fl & SAT) want = sat_rule(want, da < 0x7FF0000000000000u, 0x7F800000u, 0x7F7FFFFFu,
                                      0x80000000u);
        if (fl & FLUSH) want = flush_rule(want, 0x7F800000u, 0x80000000u);
      }
      int c = v == 0 ? C_D2F : v == 1 ? C_D2F_S : C_D2F_F;
      if (bits32(b->o32[i]) != want)
        fail(w, c, "%016llx -> %08x, want %08x", (unsigned long long)db, bits32(b->o32[i]),
             want);
      if (sampled && d_stats[v] >= 0) {
        double y = f32_of(want);
        expect_add(&w->want[cur_path][d_stats[v]], b->d[i], da > 0x7FF0000000000000u ? 0 : y,
                   da > 0x7FF0000000000000u, da == 0x7FF0000000000000u,
                   (want & 0x7FFFFFFFu) == 0x7F800000u && da != 0x7FF0000000000000u,
                   (fl & SAT) && da >= 0x47EFFFFFF0000000u && da < 0x7FF0000000000000u);
      }
    }
  }

  /* The same bytes in a non-default floating-point environment. */
  if (blk % 64 == 0) {
    int env = (int)((blk / 64) % (unsigned)n_env());
    uint16_t *x16 = b->s16;
    float *x32 = b->s32;
    const unsigned int all[3] = {0, SAT | FLUSH, TRUNC};
    for (int v = 0; v < 3; v++) {
      unsigned int fl = all[v];
      /* default environment results */
      if (k_f32_to_bf16(b->o16, (const float *)b->in, BLOCK, fl, NULL)) abort();
      set_env(env);
      int r = k_f32_to_bf16(x16, (const float *)b->in, BLOCK, fl, NULL);
      reset_env();
      w->tried[C_ENV]++;
      if (r || memcmp(b->o16, x16, sizeof b->o16))
        fail(w, C_ENV, "f32->bf16 flags %u env %d block %08x", fl, env, base);
      if (fl & TRUNC) continue;
      if (k_f32_to_f16(b->o16, (const float *)b->in, BLOCK, fl, NULL)) abort();
      set_env(env);
      r = k_f32_to_f16(x16, (const float *)b->in, BLOCK, fl, NULL);
      reset_env();
      w->tried[C_ENV]++;
      if (r || memcmp(b->o16, x16, sizeof b->o16))
        fail(w, C_ENV, "f32->f16 flags %u env %d block %08x", fl, env, base);
      if (k_f64_to_f32(b->o32, b->d, 4 * BLOCK, fl, NULL)) abort();
      set_env(env);
      r = k_f64_to_f32(x32, b->d, 4 * BLOCK, fl, NULL);
      reset_env();
      w->tried[C_ENV]++;
      if (r || memcmp(b->o32, x32, sizeof b->o32))
        fail(w, C_ENV, "f64->f32 flags %u env %d block %08x", fl, env, base);
    }
    set_env(env);
    int r = k_f32_to_f64(b->o64, (const float *)b->in, BLOCK);
    reset_env();
    w->tried[C_ENV]++;
    for (uint32_t i = 0; i < BLOCK && !r; i++)
      if (bits64(b->o64[i]) != bits64((double)f32_of(b->in[i]))) {
        fail(w, C_ENV, "f32->f64 env %d input %08x", env, b->in[i]);
        break;
      }
  }
}

static unsigned stride = 1; /* 1: every block; more for a quick partial run */

/* The two f64->f32 paths give the same bytes; they differ in the FP status
 * flags: the cast raises overflow for 1e300, the integer path raises none. */
static void check_paths(work *w) {
  double big = 1e300;
  float f;
  feclearexcept(FE_ALL_EXCEPT);
  k_f64_to_f32(&f, &big, 1, 0, NULL);
  int cast_default = fetestexcept(FE_OVERFLOW) != 0;
  for (int env = 0; env < n_env(); env++) {
    set_env(env);
    feclearexcept(FE_ALL_EXCEPT);
    k_f64_to_f32(&f, &big, 1, 0, NULL);
    int cast_other = fetestexcept(FE_OVERFLOW) != 0;
    reset_env();
    w->tried[C_PATH]++;
    if (!cast_default || cast_other != (env == 5))
      fail(w, C_PATH, "environment %d: overflow flag %d (default environment: %d)", env,
           cast_other, cast_default);
  }
}

static void *thread_main(void *arg) {
  work *w = arg;
  bufs *b = malloc(sizeof *b);
  if (!b) abort();
  for (int p = 0; p < npaths; p++) {
    cur_path = paths[p];
    check_paths(w);
  }
  for (unsigned blk = w->first; blk < w->last; blk += stride) check_block(w, b, blk);
  free(b);
  return NULL;
}

int main(int argc, char **argv) {
  long nt = argc > 1 ? atol(argv[1]) : sysconf(_SC_NPROCESSORS_ONLN);
  if (nt < 1) nt = 1;
  if (nt > 64) nt = 64;
  if (argc > 2 && atoi(argv[2]) > 1) stride = (unsigned)atoi(argv[2]);
  struct timespec t0, t1;
  use_f16c = have_f16c();
  for (int p = 0; p < OSL_PATH_COUNT; p++) {
    if (onnxslim__convert_path_available(p)) paths[npaths++] = p;
    printf("   path %-6s %s\n", onnxslim__convert_path_name(p),
           onnxslim__convert_path_available(p) ? "checked" : "not on this CPU, not checked");
  }
  fflush(stdout);
  for (uint32_t h = 0; h < 65536; h++) {
    _Float16 v;
    uint16_t hb = (uint16_t)h;
    memcpy(&v, &hb, 2);
    f16_table[h] = (double)v;
  }
  clock_gettime(CLOCK_MONOTONIC, &t0);
  work *w = calloc((size_t)nt, sizeof *w);
  pthread_t *th = calloc((size_t)nt, sizeof *th);
  if (!w || !th) return 1;
  for (long t = 0; t < nt; t++) {
    /* contiguous ranges: with two threads, the positive and the negative
     * half, which take the same time */
    w[t].first = (unsigned)(NBLOCKS * (uint64_t)t / (uint64_t)nt);
    w[t].last = (unsigned)(NBLOCKS * (uint64_t)(t + 1) / (uint64_t)nt);
    for (int p = 0; p < OSL_PATH_COUNT; p++)
      for (int s = 0; s < NSTATS; s++) w[t].got[p][s].version = ONNXSLIM_CONVERT_STATS_VERSION;
    if (pthread_create(&th[t], NULL, thread_main, &w[t]) != 0) return 1;
  }
  for (long t = 0; t < nt; t++) pthread_join(th[t], NULL);

  /* merge */
  work all;
  memset(&all, 0, sizeof all);
  for (long t = 0; t < nt; t++) {
    for (int c = 0; c < NCHECK; c++) {
      if (w[t].bad[c] && !all.bad[c]) memcpy(all.first_bad[c], w[t].first_bad[c], 160);
      all.bad[c] += w[t].bad[c], all.tried[c] += w[t].tried[c];
    }
    for (int p = 0; p < OSL_PATH_COUNT; p++)
      for (int s = 0; s < NSTATS; s++) {
        merge_stats(&all.got[p][s], &w[t].got[p][s]);
        expect *e = &all.want[p][s], *f = &w[t].want[p][s];
        e->count += f->count, e->to_inf += f->to_inf, e->saturated += f->saturated;
        e->flushed += f->flushed, e->nan += f->nan;
        if (f->max_abs > e->max_abs) e->max_abs = f->max_abs;
        if (f->max_rel > e->max_rel) e->max_rel = f->max_rel;
      }
    all.ref_nan_differs += w[t].ref_nan_differs;
  }
  static const char *sname[NSTATS] = {"f32->bf16", "f32->bf16 truncate|flush",
                                      "f32->bf16 saturate", "f32->f16",
                                      "f32->f16 saturate|flush", "f64->f32 saturate"};
  for (int i = 0; i < npaths; i++)
  for (int s = 0; s < NSTATS; s++) {
    int p = paths[i];
    onnxslim_convert_stats *g = &all.got[p][s];
    expect *e = &all.want[p][s];
    all.tried[C_STATS_COUNTS]++;
    printf("   stats %-6s %-26s count %llu nan %llu to_inf %llu saturated %llu flushed %llu "
           "max_abs %.6g max_rel %.6g\n",
           onnxslim__convert_path_name(p), sname[s], (unsigned long long)g->count, (unsigned long long)g->nan,
           (unsigned long long)g->to_inf, (unsigned long long)g->saturated,
           (unsigned long long)g->flushed, g->max_abs_error, g->max_rel_error);
    if (g->count != e->count || g->nan != e->nan || g->to_inf != e->to_inf ||
        g->saturated != e->saturated || g->flushed != e->flushed ||
        g->max_abs_error != e->max_abs || g->max_rel_error != e->max_rel) {
      char msg[160];
      snprintf(msg, sizeof msg,
               "[%s] %s: want count %llu nan %llu to_inf %llu sat %llu flushed %llu abs %.17g "
               "rel %.17g",
               onnxslim__convert_path_name(p), sname[s], (unsigned long long)e->count, (unsigned long long)e->nan,
               (unsigned long long)e->to_inf, (unsigned long long)e->saturated,
               (unsigned long long)e->flushed, e->max_abs, e->max_rel);
      if (!all.bad[C_STATS_COUNTS]) memcpy(all.first_bad[C_STATS_COUNTS], msg, sizeof msg);
      all.bad[C_STATS_COUNTS]++;
    }
  }
  int passed = 0, failed = 0;
  for (int c = 0; c < NCHECK; c++) {
    if (all.bad[c]) {
      failed++;
      printf("FAIL %s: %llu of %llu wrong; first: %s\n", check_name[c],
             (unsigned long long)all.bad[c], (unsigned long long)all.tried[c],
             all.first_bad[c]);
    } else {
      passed++;
      printf("ok   %s (%llu)\n", check_name[c], (unsigned long long)all.tried[c]);
    }
  }
  printf("   FP16 NaN results that differ from GCC's _Float16 conversion: %llu "
         "(information: NaNs are checked against the policy)\n",
         (unsigned long long)all.ref_nan_differs);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  printf("   %ld threads, %.1f s\n", nt,
         (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9);
  printf("%d passed, %d failed\n", passed, failed);
  free(w), free(th);
  return failed != 0;
}
