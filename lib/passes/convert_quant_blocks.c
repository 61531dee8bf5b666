/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - the quantizer's numbers: the block kernel (scales, rounding
 * to nearest even, packing into the stored layouts) run as a pending
 * transform (osl_xform) of the source bytes, and the clip percentile (the
 * cap of a tensor). convert_quant.c selects the tensors and rewrites the
 * graph; docs/quantization.md gives the method.
 */
#define _GNU_SOURCE
#if defined(__GNUC__) && !defined(__clang__)
/* the block loops below are written to be vectorized, which -O2 of GCC does
 * not do for loops of unknown length */
#  pragma GCC optimize("O3")
#endif
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "convert_quant_blocks.h"
#include "onnxslim_config.h"

/* The scale search is also compiled for AVX2 and chosen at load time (GCC
 * function multiversioning, as the conversion kernels): the same C over
 * 256-bit registers. The results are the same bytes: the estimate's eight
 * lanes are the same sums in either width, and ISO C mode (-std=c11) does
 * not contract a * b + c into a fused multiply-add. */
#if ONNXSLIM_HAVE_TARGET_CLONES /* scripts/probe-platform.sh */
#  define OSL_MULTIVERSION __attribute__((target_clones("avx2", "default")))
#else
#  define OSL_MULTIVERSION
#endif
#if defined(__GNUC__)
#  define OSL_ALWAYS_INLINE static inline __attribute__((always_inline))
#else
#  define OSL_ALWAYS_INLINE static inline
#endif

/* ---- the block kernel ---------------------------------------------------- */

/* (The library does not link libm: these few helpers are its own.) */
static double dabs(double v) { return __builtin_fabs(v); }

/* The next float above v > 0. */
static float next_up(float v) {
  uint32_t b;
  memcpy(&b, &v, sizeof b);
  b++;
  memcpy(&v, &b, sizeof v);
  return v;
}

/* The next float below v > 0. */
static float next_down(float v) {
  uint32_t b;
  memcpy(&b, &v, sizeof b);
  b--;
  memcpy(&v, &b, sizeof v);
  return v;
}

static int rne(double v);

/* The value of FLOAT16 pattern h, exactly (integer arithmetic, no call:
 * the block loops convert one value at a time). */
OSL_ALWAYS_INLINE float f16_value(uint16_t h) {
  uint32_t e = (h >> 10) & 31u, m = h & 0x3ffu, u = (uint32_t)(h >> 15) << 31;
  float v;
  if (e == 31) u |= 0x7f800000u | (m << 13); /* infinity or NaN */
  else if (e) u |= ((e + 112u) << 23) | (m << 13);
  else { /* zero or subnormal: m * 2^-24, exact */ v = (float)m * 0x1p-24f;
    return u ? -v : v;
  }
  memcpy(&v, &u, sizeof v);
  return v;
}

/* The pattern of the FLOAT16 nearest v (0 <= v, finite), ties to even, as
 * the library's conversion gives it: 0x7c00 (Inf) from 65520 up. */
OSL_ALWAYS_INLINE uint16_t f16_nearest(float v) {
  uint32_t u;
  memcpy(&u, &v, sizeof u);
  if (u >= 0x477ff000u) return 0x7c00u;
  if (u >= 0x38800000u) { /* normal: rebias, round the 13 bits dropped */
    uint32_t b = u - 0x38000000u, h = b >> 13, rem = b & 0x1fffu;
    h += rem > 0x1000u || (rem == 0x1000u && (h & 1u));
    return (uint16_t)h;
  }
  return (uint16_t)rne((double)v * 0x1p24); /* subnormal: units of 2^-24 (exact product) */
}

uint16_t onnxslim__quant_f16_nearest(float v) {
  return v < 0 ? (uint16_t)(f16_nearest(-v) | 0x8000u) : f16_nearest(v);
}

float onnxslim__quant_f16_value(uint16_t h) { return f16_value(h); }

/* Products at or above these magnitudes round to infinity: in FLOAT
 * (FLT_MAX plus half its last step; exact in double) and in FLOAT16 (65504
 * plus half of 32). Dequantization computes q * scale in the scales' type. */
#define OSL_F32_INF_EDGE ((double)FLT_MAX + 0x1p103)
#define OSL_F16_INF_EDGE 65520.0

/* The product q * s rounds to infinity in the scales' type st. */
static int product_overflows(double q, float s, int32_t st) {
  double p = dabs(q * (double)s); /* exact: q has at most 9 bits */
  return p >= (st == ONNXSLIM_DTYPE_FLOAT16 ? OSL_F16_INF_EDGE : OSL_F32_INF_EDGE);
}

/* Lowers a symmetric block's scale (*s; FLOAT16: its pattern *h too) until
 * qmax * scale reads back finite in the scales' type: a block whose
 * largest magnitude amax is within a rounding step of the type's largest
 * value (+-FLT_MAX with FLOAT scales, +-65504 with FLOAT16 ones) would
 * otherwise dequantize to +-Inf. amax / scale then exceeds qmax by less
 * than a few steps of the scale (below qmax + 0.5: amax still rounds to
 * qmax, nothing saturates). */
static void finite_scale(float amax, int qmax, int32_t st, float *s, uint16_t *h) {
  if (st == ONNXSLIM_DTYPE_FLOAT16) {
    while (product_overflows(qmax, *s, st) && *h > 1) {
      uint16_t b = (uint16_t)(*h - 1);
      float v;
      v = f16_value(b);
      if ((double)amax >= (qmax + 0.5) * (double)v) break;
      *h = b;
      *s = v;
    }
    return;
  }
  while (product_overflows(qmax, *s, st) && (double)amax < (qmax + 0.5) * (double)next_down(*s))
    *s = next_down(*s);
}

/* sqrt of v >= 0 (Newton's iteration; for the report only). */
double onnxslim__quant_dsqrt(double v) {
  if (!(v > 0)) return 0;
  double r = v > 1 ? v : 1;
  for (int i = 0; i < 200; i++) {
    double n = 0.5 * (r + v / r);
    if (n >= r) break;
    r = n;
  }
  return r;
}

/* Round half to even of v (|v| <= 2^30), independent of the floating-point
 * environment's rounding mode. */
static int rne(double v) {
  double a = dabs(v);
  long r = (long)(a + 0.5); /* a + 0.5 is exact for the values quantized */
  if ((double)r - a == 0.5 && (r & 1)) r--;
  return v < 0 ? -(int)r : (int)r;
}

/* Adding and subtracting 1.5 * 2^52 rounds a double of magnitude below 2^51
 * to an integer, half to even, when the rounding mode is the default. */
#define OSL_RNE_MAGIC 6755399441055744.0

/* Is the floating-point environment rounding to nearest (the default)? */
static int rounds_to_nearest(void) {
  volatile double one = 1.0, quarter = 0x1p-54, three_quarters = 0x1.8p-53;
  double a = one + quarter, b = one + three_quarters;
  return a == 1.0 && b == 1.0 + 0x1p-52;
}

/* Is it the default one altogether: rounding to nearest, and subnormal
 * floats neither flushed to zero as results nor read as zero? */
static int env_is_default(void) {
  volatile float tiny = FLT_TRUE_MIN;
  return rounds_to_nearest() && tiny * 2.0f == 2 * FLT_TRUE_MIN;
}

/* Adding and subtracting 1.5 * 2^23 rounds a float of magnitude below 2^22
 * to an integer, half to even, when the rounding mode is the default. */
#define OSL_RNE_MAGIC_F 12582912.0f

static void load_block(float *dst, const uint8_t *src, size_t n, int32_t type) {
  if (type == ONNXSLIM_DTYPE_FLOAT) memcpy(dst, src, n * sizeof(float));
  else onnxslim_convert_f16_to_f32(dst, (const uint16_t *)(const void *)src, n);
}

/* The scale of a block whose largest magnitude is amax: the smallest value
 * of the scale type at or above amax / qmax such that amax / scale <= qmax,
 * so no value saturates (1 for a block of zeros). *s the scale's value,
 * *h its FLOAT16 pattern. -1: no FLOAT16 scale is large enough. */
static int block_scale(float amax, int qmax, int32_t st, float *s, uint16_t *h) {
  /* amax / v <= qmax is tested as amax <= qmax * v: exact in double (a
   * float times an integer below 2^8 fits in 53 bits), so the result does
   * not depend on how a division would round */
  double a = amax, qm = qmax;
  float v = 1.0f;
  if (amax > 0) {
    v = amax / (float)qmax;
    if (v == 0) v = FLT_TRUE_MIN;
    while (a > qm * v) v = next_up(v);
    /* the smallest such value, whatever the rounding of the division was */
    while (v > FLT_TRUE_MIN && a <= qm * next_down(v)) v = next_down(v);
  }
  if (st == ONNXSLIM_DTYPE_FLOAT16) {
    uint16_t b = f16_nearest(v);
    if (b == 0) b = 1; /* the smallest subnormal */
    for (;;) {
      if ((b & 0x7c00) == 0x7c00) return -1;
      v = f16_value(b);
      if (!(amax > 0) || a <= qm * v) break;
      b++;
    }
    *h = b;
  }
  *s = v;
  finite_scale(amax, qmax, st, s, h);
  return 0;
}

/* The largest value stored for a block of range [mn, mx] (mn <= 0 <= mx,
 * nmn = -mn) with scale s, its zero point being rne(-mn / s): rne(mx / s) +
 * rne(-mn / s) (q(mn) is 0, rne being odd). Not increasing in s. */
static int asym_span(double mx, double nmn, double s) {
  double a = mx / s, b = nmn / s;
  if (!(a < 1e9 && b < 1e9)) return 1 << 30;
  return rne(a) + rne(b);
}

/* The smallest float scale with asym_span() <= qmax, by a binary search on
 * the bit patterns (positive floats order as their bits) between range /
 * (qmax + 1) and a valid scale near range / qmax. */
static float asym_bisect(double dmx, double nmn, double range, int qmax) {
  float hi = (float)(range / qmax);
  if (!(hi > 0)) hi = FLT_TRUE_MIN;
  while (asym_span(dmx, nmn, hi) > qmax) hi = next_up(hi);
  float lo = (float)(range / (qmax + 1));
  if (!(lo < hi) || asym_span(dmx, nmn, lo) <= qmax) lo = 0; /* pattern 0: never valid */
  uint32_t lb, hb;
  memcpy(&lb, &lo, sizeof lb);
  memcpy(&hb, &hi, sizeof hb);
  while (hb - lb > 1) {
    uint32_t mb = lb + (hb - lb) / 2;
    float m;
    memcpy(&m, &mb, sizeof m);
    if (asym_span(dmx, nmn, m) <= qmax) hb = mb;
    else lb = mb;
  }
  float v;
  memcpy(&v, &hb, sizeof v);
  return v;
}

/* A guess, within a few floats, of that smallest scale: a value of
 * rne(mx / s) <= k and rne(nmn / s) <= qmax - k needs s >= mx / (k + 0.5)
 * and s >= nmn / (qmax - k + 0.5); the larger of the two is least for k
 * near the point where they meet, (qmax + 1) * mx / range - 0.5. */
static float asym_guess(double dmx, double nmn, int qmax) {
  double c = (qmax + 1) * dmx / (dmx + nmn) - 0.5, best = -1;
  long k0 = (long)c;
  for (long k = k0 - 1; k <= k0 + 2; k++) {
    if (k < 0 || k > qmax) continue;
    double s1 = dmx / ((double)k + 0.5), s2 = nmn / ((double)(qmax - k) + 0.5);
    double m = s1 > s2 ? s1 : s2;
    if (best < 0 || m < best) best = m;
  }
  return (float)best;
}

/* The scale of an asymmetric block whose values span [mn, mx] (mn <= 0 <=
 * mx: 0 is always in the range): the smallest value of the scale type such
 * that asym_span() <= qmax, so no value saturates (1 for a block of zeros);
 * *zp its zero point rne(-mn / scale). *s, *h and -1 as block_scale(). */
static int asym_scale(float mn, float mx, int qmax, int32_t st, float *s, uint16_t *h, int *zp) {
  double dmx = mx, nmn = -(double)mn;
  float v = 1.0f;
  if (mx > mn) {
    double range = dmx + nmn;
    /* the span only falls as the scale grows, so the valid scales are the
     * floats from the smallest valid one up: step from a close guess to it
     * (a few steps), or, should that take more, bisect */
    v = asym_guess(dmx, nmn, qmax);
    int found = 0;
    if (v > 0 && v <= FLT_MAX) {
      int steps = 0;
      if (asym_span(dmx, nmn, v) <= qmax) {
        for (float d = next_down(v); steps < 8 && d > 0 && asym_span(dmx, nmn, d) <= qmax;
             d = next_down(v), steps++)
          v = d;
        found = steps < 8;
      } else {
        while (steps < 8 && asym_span(dmx, nmn, v) > qmax) v = next_up(v), steps++;
        found = asym_span(dmx, nmn, v) <= qmax;
      }
    }
    if (!found) v = asym_bisect(dmx, nmn, range, qmax);
  }
  if (st == ONNXSLIM_DTYPE_FLOAT16) {
    /* the FLOAT16 nearest v, raised until valid: the smallest valid one, as
     * v is the smallest valid FLOAT */
    uint16_t b = f16_nearest(v);
    if (b == 0) b = 1;
    for (;;) {
      if ((b & 0x7c00) == 0x7c00) return -1;
      v = f16_value(b);
      if (!(mx > mn) || asym_span(dmx, nmn, v) <= qmax) break;
      b++;
    }
    *h = b;
  }
  *s = v;
  *zp = mx > mn ? rne(nmn / v) : 0;
  return 0;
}

/* Adds a quantized block's counts (after its errors) to acc; nonzero: the
 * block is not all zeros (its scale counts in the range). */
static void acc_block(osl_qacc *acc, size_t bs, float s, int nonzero) {
  s = s < 0 ? -s : s; /* the search's scales may be negative: their magnitudes */
  acc->s.count += bs;
  acc->q.blocks++;
  if (nonzero) { /* the range of the scales of blocks not all zero */
    if (acc->q.scale_max == 0 || s < acc->q.scale_min) acc->q.scale_min = s;
    if (s > acc->q.scale_max) acc->q.scale_max = s;
  }
  if (++acc->in_row == acc->blocks_per_row) {
    /* squared here; validate() takes the root */
    double rel2 = acc->norm2 > 0 ? acc->err2 / acc->norm2 : 0;
    if (rel2 > acc->q.max_row_rel_error) acc->q.max_row_rel_error = rel2;
    if (rel2 > 1e-4) acc->q.rows_over_1pct++;
    acc->q.rows++;
    acc->in_row = 0;
    acc->err2 = acc->norm2 = 0;
  }
}

/* ---- the scale search (ONNXSLIM_QUANT_SCALES_MSE) -------------------------
 * A block's scale from its largest magnitude (absmax) never saturates, but
 * a smaller one often reads the block back closer: the few largest values
 * are clamped, the many others are rounded on a finer grid. The search
 * tries the absmax scale times the factors 1 - k * step, estimates each
 * one's squared error (in FLOAT, with the reciprocal of the scale), refines
 * around the best, and keeps the best candidate only when its exact error
 * (the codes as they are stored, read back as DequantizeLinear does) is
 * below that of the absmax scale. Every sum has a fixed order (eight lanes,
 * value i in lane i % 8; the estimate's lanes then summed pairwise, the
 * exact one's in order), so the result does not depend on how the loops
 * are vectorized. It runs only when the floating-point environment rounds
 * to nearest (onnxslim__quant_qx_run()). */

/* Factors tried: 1 - k * step, k = 0 .. OSL_MSE_GRID - 1, then the best
 * one +- step / 2 (and / 4). */
#define OSL_MSE_GRID 6

static double mse_step(int qmax) { return qmax <= 15 ? 0.05 : 0.01; }

/* An estimate of the squared error of symmetric block v[0..bs) with scale
 * s, codes clamped to lo..hi; symmetric: zp 0; asymmetric: zp and codes
 * 0..hi (lo = -zp, hi = qmax - zp). +Inf where it cannot be estimated. */
OSL_ALWAYS_INLINE double est_err2(const float *v, size_t bs, float s, float lo, float hi) {
  float inv = 1.0f / s; /* s may be negative (the search's sign) */
  if (!(inv <= FLT_MAX && inv >= -FLT_MAX) || !(s != 0)) return DBL_MAX;
  float acc[8] = {0};
  size_t i = 0;
  for (; i + 8 <= bs; i += 8)
    for (size_t j = 0; j < 8; j++) {
      float t = v[i + j] * inv, r = (t + OSL_RNE_MAGIC_F) - OSL_RNE_MAGIC_F;
      r = r < lo ? lo : r;
      r = r > hi ? hi : r;
      float d = r * s - v[i + j];
      acc[j] += d * d;
    }
  for (size_t j = 0; i < bs; i++, j++) {
    float t = v[i] * inv, r = (t + OSL_RNE_MAGIC_F) - OSL_RNE_MAGIC_F;
    r = r < lo ? lo : r;
    r = r > hi ? hi : r;
    float d = r * s - v[i];
    acc[j] += d * d;
  }
  /* the lanes summed pairwise (0+4, 1+5, ..., then 0+2, 1+3, then 0+1):
   * three vector steps, not eight dependent scalar ones */
  float b0 = acc[0] + acc[4], b1 = acc[1] + acc[5], b2 = acc[2] + acc[6], b3 = acc[3] + acc[7];
  double sum = (b0 + b2) + (b1 + b3);
  return sum == sum && sum <= FLT_MAX ? sum : DBL_MAX;
}

/* The exact squared error of codes qb (zero point zp) with scale s: each
 * value read back as (q - zp) * s rounded to FLOAT, against the original. */
OSL_ALWAYS_INLINE double exact_err2(const float *v, const int8_t *qb, size_t bs, float s, int zp,
                                    int asym) {
  double acc[8] = {0}; /* eight lanes (value i in lane i % 8), summed in order */
  size_t i = 0;
  for (; i + 8 <= bs; i += 8)
    for (size_t j = 0; j < 8; j++) {
      int q = asym ? (int)(uint8_t)qb[i + j] - zp : qb[i + j];
      float d = (float)q * s;
      double e = (double)d - (double)v[i + j];
      acc[j] += e * e;
    }
  for (size_t j = 0; i < bs; i++, j++) {
    int q = asym ? (int)(uint8_t)qb[i] - zp : qb[i];
    float d = (float)q * s;
    double e = (double)d - (double)v[i];
    acc[j] += e * e;
  }
  double sum = 0;
  for (size_t j = 0; j < 8; j++) sum += acc[j];
  return sum;
}

/* The candidate scale s0 * f in the scales' type: *s its value, *h its
 * FLOAT16 pattern. 0: usable (positive, finite, and no code lo..hi times it
 * rounds to infinity in that type). */
OSL_ALWAYS_INLINE int mse_candidate(float s0, double f, int neg, int32_t st, int qext, float *s,
                                    uint16_t *h) {
  float v = (float)((double)s0 * f);
  if (!(v > 0)) return -1;
  if (st == ONNXSLIM_DTYPE_FLOAT16) {
    uint16_t b = f16_nearest(v);
    if (b == 0 || (b & 0x7c00) == 0x7c00) return -1;
    v = f16_value(b);
    *h = (uint16_t)(neg ? b | 0x8000u : b);
  }
  if (product_overflows(qext, v, st)) return -1;
  *s = neg ? -v : v;
  return 0;
}

/* Symmetric: the codes of block v with scale s clamped to lo..hi into qb,
 * rounded as everywhere (x / s in double, half to even); the number of
 * values clamped. */
OSL_ALWAYS_INLINE uint64_t sym_codes(const float *v, size_t bs, float s, int lo, int hi, int8_t *qb,
                                     int fast, int rne_default) {
  uint64_t sat = 0;
  if (fast) {
    /* in FLOAT first, as quantize() does (the same codes unless a quotient
     * is a half-integer: then the loop below does the block again); the
     * clamp after the rounding, which is monotonic, keeps them the same */
    int half = 0;
    float flo = (float)lo, fhi = (float)hi;
    for (size_t i = 0; i < bs; i++) {
      float t = v[i] / s, r = (t + OSL_RNE_MAGIC_F) - OSL_RNE_MAGIC_F, d = t - r;
      half |= (d == 0.5f) | (d == -0.5f);
      sat += (uint64_t)(r < flo) + (uint64_t)(r > fhi);
      r = r < flo ? flo : r;
      r = r > fhi ? fhi : r;
      qb[i] = (int8_t)(int)r;
    }
    if (!half) return sat;
    sat = 0;
  }
  for (size_t i = 0; i < bs; i++) {
    double t = (double)v[i] / (double)s;
    double lim = 2.0 * (hi > -lo ? hi : -lo);
    t = t > lim ? lim : t < -lim ? -lim : t;
    int r = rne_default ? (int)((t + OSL_RNE_MAGIC) - OSL_RNE_MAGIC) : rne(t);
    if (r > hi) r = hi, sat++;
    if (r < lo) r = lo, sat++;
    qb[i] = (int8_t)r;
  }
  return sat;
}

/* The search for a symmetric block whose absmax scale is s0 (*s, *h) and
 * codes qb (already computed, nothing clamped): on a better candidate, *s,
 * *h and qb are replaced and the number of values clamped returned. tmp:
 * bs bytes. Codes: -(qmax + 1) .. qmax (INT4's -8, INT8's -128 too). */
OSL_MULTIVERSION
static uint64_t sym_search(const osl_qx *q, const float *v, float *s, uint16_t *h, int8_t *qb,
                           int8_t *tmp, int fast, int rne_default) {
  size_t bs = q->bs;
  int lo = -(q->qmax + 1), hi = q->qmax;
  double step = mse_step(q->qmax), bestf = 1, beste = est_err2(v, bs, *s, (float)lo, (float)hi);
  float s0 = *s, cs, mn = 0, mx = 0;
  uint16_t ch = 0;
  /* the sign of the candidates: negative when the block's value of largest
   * magnitude is positive, so that it, not its opposite, may take the code
   * -(qmax + 1) */
  for (size_t i = 0; i < bs; i++) {
    mn = v[i] < mn ? v[i] : mn;
    mx = v[i] > mx ? v[i] : mx;
  }
  int neg = mx > -mn;
  for (int k = 1; k <= OSL_MSE_GRID; k++) {
    /* the grid, then qmax / (qmax + 1): the largest magnitude on -(qmax + 1) */
    double f = k < OSL_MSE_GRID ? 1 - k * step : (double)q->qmax / (q->qmax + 1);
    if (mse_candidate(s0, f, neg, q->scale_type, -lo, &cs, &ch)) continue;
    double e = est_err2(v, bs, cs, (float)lo, (float)hi);
    if (e < beste) beste = e, bestf = f;
  }
  for (double d = step / 2; d > step / 5; d /= 2) {
    double base = bestf;
    for (int sgn = -1; sgn <= 1; sgn += 2) {
      double f = base + sgn * d;
      if (f > 1 || mse_candidate(s0, f, neg, q->scale_type, -lo, &cs, &ch)) continue;
      double e = est_err2(v, bs, cs, (float)lo, (float)hi);
      if (e < beste) beste = e, bestf = f;
    }
  }
  if (bestf == 1 || mse_candidate(s0, bestf, neg, q->scale_type, -lo, &cs, &ch)) return 0;
  uint64_t sat = sym_codes(v, bs, cs, lo, hi, tmp, fast, rne_default);
  if (!(exact_err2(v, tmp, bs, cs, 0, 0) < exact_err2(v, qb, bs, s0, 0, 0))) return 0;
  memcpy(qb, tmp, bs);
  *s = cs;
  if (q->scale_type == ONNXSLIM_DTYPE_FLOAT16) *h = ch;
  return sat;
}

/* The codes of an asymmetric block (scale s, zero point zp) into qb, as
 * stored (r + zp, 0..qmax); clipped: values beyond the range saturate to 0
 * or qmax. The number of values saturated. */
static uint64_t asym_codes(const osl_qx *q, const float *v, float s, int zp, int clipped,
                           int8_t *qb, int rne_default) {
  uint64_t sat = 0;
  for (size_t i = 0; i < q->bs; i++) {
    double t = (double)v[i] / (double)s;
    if (clipped) { /* |t| beyond qmax + 1 saturates whatever zp is */
      double lim = q->qmax + 1.0;
      t = t > lim ? lim : t < -lim ? -lim : t;
    }
    int r = rne_default ? (int)((t + OSL_RNE_MAGIC) - OSL_RNE_MAGIC) : rne(t);
    if (clipped && (r + zp < 0 || r + zp > q->qmax)) {
      r = r + zp < 0 ? -zp : q->qmax - zp;
      sat++;
    }
    /* a range near the type's largest value (+-FLT_MAX, +-65504 with
     * FLOAT16 scales): (q - zp) * scale may round to +-Inf; the code one
     * step nearer the zero point reads back finite (counted as saturated) */
    if (product_overflows(r, s, q->scale_type)) {
      r += r > 0 ? -1 : 1;
      sat++;
    }
    qb[i] = (int8_t)(uint8_t)(r + zp);
  }
  return sat;
}

/* The refinement of an asymmetric block after the search
 * (ONNXSLIM_QUANT_SCALES_MSE), one round of alternating least squares:
 * with the block's codes u (stored, 0..qmax) fixed, the least-squares line
 * x ~ a * u + b gives the zero point z = rne(-b / a) (kept in 0..qmax) and
 * then the scale sum((u - z) x) / sum((u - z)^2), rounded to the scales'
 * type; the codes of that scale and zero point replace the block's when
 * their exact error (as DequantizeLinear reads them back) is lower. The
 * sums are in double in value order: the same result on every build and
 * kernel path (the data pass recomputes the codes with asym_codes() from
 * the kept scale and zero point, as here). More rounds lower the error a
 * little further (0.0958 instead of 0.0960 on bench/make_heavy.py's
 * weights after four) at a cost the conversion's time does not allow
 * (docs/quantization.md). The number of values saturated. tmp: bs bytes. */
static uint64_t asym_refine(const osl_qx *q, const float *v, int8_t *qb, int8_t *tmp, float *s,
                            uint16_t *h, int *zp, uint64_t sat, int rne_default) {
  size_t bs = q->bs;
  osl_qline l = onnxslim__qline_sums(bs, v, qb);
  double n = l.n, su = l.su, sx = l.sx, suu = l.suu, sux = l.sux, a, zr;
  if (!onnxslim__qline_fit(&l, &a, &zr)) return sat;
  if (!(zr > -1e6 && zr < 1e6)) return sat;
  int z = rne(zr);
  z = z < 0 ? 0 : z > q->qmax ? q->qmax : z;
  double zd = z, num = sux - zd * sx, den = suu - 2 * zd * su + zd * zd * n;
  if (!(den > 0) || !(num > 0)) return sat;
  float cs = (float)(num / den);
  uint16_t ch = 0;
  if (!(cs > 0) || !(cs <= FLT_MAX)) return sat;
  if (q->scale_type == ONNXSLIM_DTYPE_FLOAT16) {
    ch = f16_nearest(cs);
    if (ch == 0 || (ch & 0x7c00) == 0x7c00) return sat;
    cs = f16_value(ch);
  }
  if (product_overflows(q->qmax, cs, q->scale_type)) return sat;
  uint64_t csat = asym_codes(q, v, cs, z, 1, tmp, rne_default);
  if (!(exact_err2(v, tmp, bs, cs, z, 1) < exact_err2(v, qb, bs, *s, *zp, 1))) return sat;
  memcpy(qb, tmp, bs);
  *s = cs;
  *h = ch;
  *zp = z;
  return csat;
}

/* Adds asymmetric block v's errors to acc: codes qb (stored, 0..qmax),
 * scale s, zero point z (an integer, or with float zero points any
 * float), sat values saturated. */
void onnxslim__quant_asym_stats(osl_qacc *acc, const float *v, const int8_t *qb, size_t bs, float s,
                                float z, uint64_t sat) {
  double err2 = 0, norm2 = 0;
  float mn = 0, mx = 0;
  for (size_t i = 0; i < bs; i++) {
    /* what DequantizeLinear (MatMulNBits) reads back: (q - zp) * scale in
     * FLOAT (an integer zp: q - zp is exact) */
    float r = (float)(uint8_t)qb[i] - z, d = r * s, x0 = v[i];
    double err = dabs((double)d - (double)x0), ax = dabs((double)x0);
    double rel = ax > 0 ? err / ax : 0;
    mn = x0 < mn ? x0 : mn;
    mx = x0 > mx ? x0 : mx;
    if (err > acc->q.max_abs_error) acc->q.max_abs_error = err;
    if (rel > acc->s.max_rel_error) acc->s.max_rel_error = rel;
    acc->s.flushed += (uint64_t)(d == 0) & (uint64_t)(ax > 0);
    err2 += err * err;
    norm2 += ax * ax;
  }
  acc->err2 += err2;
  acc->norm2 += norm2;
  acc->q.saturated += sat;
  acc->s.saturated += sat;
  acc_block(acc, bs, s, mx > mn);
}

/* Quantizes block v[0..bs) asymmetrically: the stored bytes q (0..qmax) to
 * qb, the scale to *s and *h, the zero point to *zp; adds to acc. tmp: bs
 * bytes (the scale search's). 0, or ONNXSLIM_EMODEL (the scale overflows
 * FLOAT16). */
static int asym_block(const osl_qx *q, const float *v, int8_t *qb, int8_t *tmp, float *s,
                      uint16_t *h, int *zp, int rne_default, int mse, osl_qacc *acc) {
  size_t bs = q->bs;
  float mn = 0, mx = 0;
  for (size_t i = 0; i < bs; i++) {
    mn = v[i] < mn ? v[i] : mn;
    mx = v[i] > mx ? v[i] : mx;
  }
  /* clipping: the range within [-cap, cap] (a cap of 0 as the smallest
   * float); values beyond saturate to 0 or qmax */
  int clipped = 0;
  if (q->clip) {
    float c = q->cap > 0 ? q->cap : FLT_TRUE_MIN;
    if (mx > c) mx = c, clipped = 1;
    if (mn < -c) mn = -c, clipped = 1;
  }
  if (asym_scale(mn, mx, q->qmax, q->scale_type, s, h, zp))
    return onnxslim__err(ONNXSLIM_EMODEL,
                         "a block's range (%g to %g) needs a scale beyond FLOAT16's range; use "
                         "FLOAT scales",
                         (double)mn, (double)mx);
  uint64_t sat = asym_codes(q, v, *s, *zp, clipped, qb, rne_default);
  if (mse && !q->clip && mx > mn) {
    /* the search: the range [mn, mx] shrunk by each factor, its scale and
     * zero point chosen by the rule above, values beyond it saturating */
    double step = mse_step(q->qmax), bestf = 1;
    double beste = est_err2(v, bs, *s, (float)-*zp, (float)(q->qmax - *zp));
    float cs;
    uint16_t ch = 0;
    int cz = 0;
    for (int k = 1; k < OSL_MSE_GRID + 2 * 2; k++) {
      /* the grid, then the best factor +- step / 2 and +- step / 4 */
      int r = k - OSL_MSE_GRID; /* the refinements: 0, 1 by step / 2, 2, 3 by step / 4 */
      double f = r < 0 ? 1 - k * step : bestf + (r % 2 ? 1 : -1) * step / (r < 2 ? 2 : 4);
      if (f > 1 || f <= 0) continue;
      float fmn = (float)((double)mn * f), fmx = (float)((double)mx * f);
      if (!(fmx > fmn) || asym_scale(fmn, fmx, q->qmax, q->scale_type, &cs, &ch, &cz)) continue;
      double e = est_err2(v, bs, cs, (float)-cz, (float)(q->qmax - cz));
      if (e < beste) beste = e, bestf = f;
    }
    if (bestf != 1) {
      float fmn = (float)((double)mn * bestf), fmx = (float)((double)mx * bestf);
      if (!asym_scale(fmn, fmx, q->qmax, q->scale_type, &cs, &ch, &cz)) {
        uint64_t csat = asym_codes(q, v, cs, cz, 1, tmp, rne_default);
        if (exact_err2(v, tmp, bs, cs, cz, 1) < exact_err2(v, qb, bs, *s, *zp, 1)) {
          memcpy(qb, tmp, bs);
          *s = cs;
          *h = ch;
          *zp = cz;
          sat = csat;
        }
      }
    }
    sat = asym_refine(q, v, qb, tmp, s, h, zp, sat, rne_default);
  }
  if (q->layout == OSL_QL_SCALES || q->layout == OSL_QL_ZP) {
    if (!acc) return 0;
  }
  if (acc) onnxslim__quant_asym_stats(acc, v, qb, bs, *s, (float)*zp, sat);
  return 0;
}

/* The integer start of the float-zero-point search of a block whose
 * values span [mn, mx] (0 included; unclipped): the scale and zero point
 * asym_block() starts from, the smallest scale that leaves no value
 * saturated, without its search (the float search starts from these and
 * from the range's float zero point, and its least-squares rounds reach a
 * lower error than the integer search would give: convert_quant_fzp.c).
 * 0, or ONNXSLIM_EMODEL as asym_block(). */
int onnxslim__quant_asym_start(const osl_qx *q, float mn, float mx, float *s, uint16_t *h,
                               int *zp) {
  if (asym_scale(mn, mx, q->qmax, q->scale_type, s, h, zp))
    return onnxslim__err(ONNXSLIM_EMODEL,
                         "a block's range (%g to %g) needs a scale beyond FLOAT16's range; use "
                         "FLOAT scales",
                         (double)mn, (double)mx);
  return 0;
}

/* The smallest FLOAT16 value at or above v (0 < v, finite, v <= 65504):
 * its pattern, or a value >= 0x7c00 (Inf) when v > 65504. Integer
 * arithmetic on v's bits. */
static uint32_t ceil_f16(float v) {
  uint32_t u;
  memcpy(&u, &v, sizeof u);
  if (u >= 0x38800000u) /* 2^-14 and above: FLOAT16 normal; a carry out of
                           the 10 mantissa bits moves to the exponent */
    return ((u - 0x38000000u) >> 13) + ((u & 0x1fffu) != 0);
  /* a FLOAT16 subnormal, in units of 2^-24: ceil(m * 2^(e - 126)) */
  uint32_t e = u >> 23, m = u & 0x7fffffu;
  if (e) m |= 0x800000u;
  else e = 1;
  uint32_t sh = 126 - e; /* >= 14 */
  if (sh >= 32) return 1;
  return (m >> sh) + ((m & ((1u << sh) - 1)) != 0);
}

/* block_scale() when the floating-point environment is the default one
 * (round to nearest, no flush-to-zero, no denormals-are-zero), with the
 * same results and fewer steps. amax / qmax in FLOAT is the float nearest
 * the exact quotient r, so the smallest float v with amax <= qmax * v
 * (i.e. v >= r) is that value or the next one up; the FLOAT16 scale is then
 * the smallest FLOAT16 at or above v (every FLOAT16 is a float, so it is
 * also the smallest at or above r), which block_scale() reaches by stepping
 * up from v rounded to nearest. */
static int block_scale_fast(float amax, int qmax, int32_t st, float *s, uint16_t *h) {
  float v = 1.0f;
  if (amax > 0) {
    v = amax / (float)qmax;
    if (v == 0) v = FLT_TRUE_MIN;
    uint32_t u;
    memcpy(&u, &v, sizeof u);
    u += (double)amax > (double)qmax * v; /* without a branch: either way is as likely */
    memcpy(&v, &u, sizeof v);
  }
  if (st == ONNXSLIM_DTYPE_FLOAT16) {
    uint32_t b = ceil_f16(v);
    if (b >= 0x7c00u) return -1;
    if (b >= 0x400u) { /* normal: exponent rebiased, mantissa shifted */
      uint32_t fb = (b << 13) + 0x38000000u;
      memcpy(&v, &fb, sizeof v);
    } else {
      v = (float)b * 0x1p-24f; /* exact */
    }
    *h = (uint16_t)b;
  }
  *s = v;
  finite_scale(amax, qmax, st, s, h);
  return 0;
}

/* One value of type `type` at p. */
static float load_one(const uint8_t *p, int32_t type) {
  float f;
  if (type == ONNXSLIM_DTYPE_FLOAT) memcpy(&f, p, sizeof f);
  else {
    uint16_t h;
    memcpy(&h, p, sizeof h);
    f = f16_value(h);
  }
  return f;
}

/* Gathers the values of block b of element `elem` (index `index` in the
 * transform) into v[0..bs). */
void onnxslim__quant_gather(const osl_qx *q, const uint8_t *elem, size_t index, size_t b,
                            float *v) {
  size_t bs = q->bs, esz = q->src == ONNXSLIM_DTYPE_FLOAT ? 4 : 2;
  if (q->geom == OSL_QG_ROW) {
    load_block(v, elem, bs, q->src);
  } else if (q->geom == OSL_QG_COLS) { /* column b of bs rows of ncols */
    for (size_t t = 0; t < bs; t++) v[t] = load_one(elem + (t * q->ncols + b) * esz, q->src);
  } else { /* (column n, block kb) of a [K, ncols] matrix */
    size_t n = index / q->kblocks, kb = index % q->kblocks;
    const uint8_t *base = q->whole + (kb * bs * q->ncols + n) * esz;
    for (size_t t = 0; t < bs; t++) v[t] = load_one(base + t * q->ncols * esz, q->src);
  }
}

/* The bit pattern of the largest magnitude of v[0..n): for values that
 * are not NaN, the order of |x| is that of its bits without the sign; at
 * 0x7f800000 or above (all exponent bits set), a NaN or an infinity is
 * among them. */
static uint32_t max_bits(const float *v, size_t n) {
  int32_t m = 0; /* signed: SSE2 has no unsigned compare */
  const uint32_t *vb = (const uint32_t *)(const void *)v;
  for (size_t i = 0; i < n; i++) {
    int32_t a = (int32_t)(vb[i] & 0x7fffffffu);
    m = a > m ? a : m;
  }
  return (uint32_t)m;
}

/* Blocks of the fast path, prepared OSL_QGROUP_VALUES values at a time:
 * their values, largest magnitudes and scales, so that the scales are
 * computed side by side, not one after another. */
#define OSL_QGROUP_VALUES 2048
typedef struct {
  size_t cap;      /* blocks */
  float *v;        /* cap * bs values */
  float *amax, *s; /* cap each */
  uint16_t *h;
  uint8_t *bad; /* 1: a NaN or an infinity among the values, 2: no FLOAT16 scale */
} osl_qgroup;

/* The bits of block_scale_fast()'s FLOAT scale for largest magnitude a
 * (not NaN, not infinite; qf = qd = qmax), without branches: a / qmax in
 * FLOAT, stepped up a float where it is below the exact quotient (a
 * quotient of 0 becomes the smallest float that way, as a > 0 * qmax); 1
 * for a block of zeros. */
static inline uint32_t f32_scale_bits(float a, float qf, double qd) {
  float v = a / qf;
  uint32_t u;
  memcpy(&u, &v, sizeof u);
  u += (double)a > qd * (double)v;
  return a > 0 ? u : 0x3f800000u;
}

/* Blocks k0 .. k0 + gn - 1 of this run (block k: block k % nb of element
 * k / nb) into g: block_scale_fast() of each. */
static void prepare(const osl_qx *q, size_t first, const uint8_t *src, size_t nb, size_t k0,
                    size_t gn, osl_qgroup *g) {
  size_t bs = q->bs;
  for (size_t j = 0; j < gn; j++) {
    size_t k = k0 + j, e = k / nb;
    float *v = g->v + j * bs;
    onnxslim__quant_gather(q, src + e * q->x.in_size, first + e, k % nb, v);
    uint32_t m = max_bits(v, bs);
    memcpy(&g->amax[j], &m, sizeof m);
    g->bad[j] = m >= 0x7f800000u;
  }
  /* block_scale_fast() without branches */
  float qf = (float)q->qmax;
  double qd = q->qmax;
  uint8_t *odd = g->bad + g->cap; /* blocks left to block_scale_fast() */
  if (q->scale_type == ONNXSLIM_DTYPE_FLOAT) {
    for (size_t j = 0; j < gn; j++) {
      uint32_t u = f32_scale_bits(g->amax[j], qf, qd);
      memcpy(&g->s[j], &u, sizeof u);
      if (product_overflows(qd, g->s[j], ONNXSLIM_DTYPE_FLOAT)) /* near FLT_MAX: rare */
        finite_scale(g->amax[j], q->qmax, ONNXSLIM_DTYPE_FLOAT, &g->s[j], &g->h[j]);
    }
    return;
  }
  unsigned any = 0;
  for (size_t j = 0; j < gn; j++) {
    uint32_t u = f32_scale_bits(g->amax[j], qf, qd);
    /* ceil_f16() where the result is a normal FLOAT16 */
    uint32_t b = ((u - 0x38000000u) >> 13) + ((u & 0x1fffu) != 0);
    uint32_t fb = (b << 13) + 0x38000000u;
    /* near 65504, qmax * scale may round to Inf: finite_scale() (rare) */
    float fv;
    memcpy(&fv, &fb, sizeof fv);
    odd[j] = (uint8_t)((u < 0x38800000u) | (b >= 0x7c00u) | (qd * (double)fv >= OSL_F16_INF_EDGE));
    any |= odd[j];
    g->h[j] = (uint16_t)b;
    memcpy(&g->s[j], &fb, sizeof fb);
  }
  if (!any) return;
  for (size_t j = 0; j < gn; j++)
    if (odd[j] && !g->bad[j] &&
        block_scale_fast(g->amax[j], q->qmax, q->scale_type, &g->s[j], &g->h[j]))
      g->bad[j] = 2;
}

/* q = round half to even of x / s, in double precision, for the bs
 * values v of a block into qb (fast: the default floating-point
 * environment; rne_default: rounding to nearest). */
static void quantize(const float *v, size_t bs, float s, int8_t *qb, int fast, int rne_default) {
  int half = 1; /* the block is still to do */
  if (fast) {
    /* the same in FLOAT, where the division rounds to the nearest float:
     * t = x / s rounded is on the same side of each half-integer k + 0.5
     * as x / s (k + 0.5 is a float, rounding is monotonic), so round half
     * to even of t is that of x / s unless t is a half-integer itself;
     * such blocks are done again in double (below), whose quotient is a
     * half-integer only where the float one is, so that x / s rounds the
     * same as there */
    half = 0;
    for (size_t i = 0; i < bs; i++) {
      float t = v[i] / s, r = (t + OSL_RNE_MAGIC_F) - OSL_RNE_MAGIC_F, d = t - r;
      half |= (d == 0.5f) | (d == -0.5f); /* t - r is exact */
      qb[i] = (int8_t)(int)r;
    }
  }
  if (half && rne_default) {
    for (size_t i = 0; i < bs; i++) {
      double t = (double)v[i] / (double)s;
      qb[i] = (int8_t)(int)((t + OSL_RNE_MAGIC) - OSL_RNE_MAGIC);
    }
  } else if (half) {
    for (size_t i = 0; i < bs; i++) qb[i] = (int8_t)rne((double)v[i] / s);
  }
}

/* The nv quantized values qv into out in layout `layout` (not SCALES). */
static void pack(int layout, const int8_t *qv, size_t nv, uint8_t *out) {
  switch (layout) {
  case OSL_QL_I8: memcpy(out, qv, nv); break;
  case OSL_QL_U8:
    for (size_t i = 0; i < nv; i++) out[i] = (uint8_t)(qv[i] + 128);
    break;
  case OSL_QL_I4: /* ONNX's order: element 2j in the low nibble of byte j */
    for (size_t i = 0; i < nv / 2; i++)
      out[i] = (uint8_t)(((unsigned)qv[2 * i] & 15u) | (((unsigned)qv[2 * i + 1] & 15u) << 4));
    break;
  default: /* OSL_QL_U4: q + 8, low nibble first */
    for (size_t i = 0; i < nv / 2; i++)
      out[i] = (uint8_t)((unsigned)(qv[2 * i] + 8) | ((unsigned)(qv[2 * i + 1] + 8) << 4));
  }
}

int onnxslim__quant_qx_run(const osl_xform *x, size_t first, const uint8_t *src, size_t n,
                           uint8_t *dst) {
  const osl_qx *q = (const osl_qx *)x;
  first += q->base; /* the index in the whole tensor */
  size_t bs = q->bs, nb = q->geom == OSL_QG_COLS ? q->ncols : 1, total = n * nb;
  int rne_default = rounds_to_nearest();
  int fast = env_is_default() && !q->asym && !q->clip && !q->mse; /* symmetric, unclipped */
  /* the scale search estimates errors in FLOAT: it runs when rounding to
   * nearest (the default), so that its choice is the same everywhere;
   * under another rounding mode the blocks keep their absmax scales */
  int mse = q->mse && rne_default;
  int fenv = env_is_default(); /* the float shortcuts of quantize() and sym_codes() */
  size_t ssz = q->scale_type == ONNXSLIM_DTYPE_FLOAT ? 4 : 2;
  /* the data pass after a first pass that searched and kept the scales */
  int given = mse && q->given_s && (!q->asym || q->given_zp);
  /* float zero points: the kept ones (the first pass, which searches them,
   * is onnxslim__quant_fzp_run()) */
  if (q->fzp) given = 1;
  osl_qgroup g = {0};
  g.cap = OSL_QGROUP_VALUES / bs ? OSL_QGROUP_VALUES / bs : 1;
  float *vbuf = malloc((fast ? g.cap : 1) * bs * sizeof *vbuf);
  int8_t *qv = malloc(nb * bs), *kq = malloc(bs), *tq = malloc(bs);
  if (fast) {
    g.amax = malloc(g.cap * sizeof *g.amax);
    g.s = malloc(g.cap * sizeof *g.s);
    g.h = malloc(g.cap * sizeof *g.h);
    g.bad = malloc(2 * g.cap);
  }
  g.v = vbuf;
  int rc = 0;
  if (!vbuf || !qv || !kq || !tq || (fast && (!g.amax || !g.s || !g.h || !g.bad)))
    rc = onnxslim__err_nomem(NULL);
  osl_qacc *acc = q->acc;
  size_t e0 = 0; /* the elements before are done */
  if (fast && !acc && nb == 1) {
    /* one block an element and no statistics: a group of blocks at a time,
     * until a group with an error, which the loop below does again and
     * reports as ever */
    for (; e0 < n && !rc; e0 += g.cap) {
      size_t gn = n - e0 < g.cap ? n - e0 : g.cap, j = 0;
      prepare(q, first, src, 1, e0, gn, &g);
      while (j < gn && !g.bad[j]) j++;
      if (j < gn) break;
      for (j = 0; j < gn; j++) {
        uint8_t *out = dst + (e0 + j) * x->out_size;
        if (q->layout != OSL_QL_SCALES) {
          quantize(g.v + j * bs, bs, g.s[j], qv, 1, rne_default);
          pack(q->layout, qv, bs, out);
        } else if (q->scale_type == ONNXSLIM_DTYPE_FLOAT) {
          memcpy(out, &g.s[j], sizeof g.s[j]);
        } else {
          memcpy(out, &g.h[j], sizeof g.h[j]);
        }
      }
    }
  }
  for (size_t e = e0; e < n && !rc; e++) {
    uint8_t *out = dst + e * x->out_size;
    for (size_t b = 0; b < nb && !rc; b++) {
      float *v = vbuf, amax, s = 1.0f;
      uint16_t h = 0;
      int bad;
      if (fast) {
        size_t k = e * nb + b, j = k % g.cap;
        if (j == 0) prepare(q, first, src, nb, k, total - k < g.cap ? total - k : g.cap, &g);
        v = g.v + j * bs;
        amax = g.amax[j];
        s = g.s[j];
        h = g.h[j];
        bad = g.bad[j];
      } else {
        onnxslim__quant_gather(q, src + e * x->in_size, first + e, b, v);
        uint32_t bmax = max_bits(v, bs);
        memcpy(&amax, &bmax, sizeof amax);
        bad = bmax >= 0x7f800000u;
      }
      if (bad == 1) {
        for (size_t i = 0; i < bs; i++)
          if (!(v[i] <= FLT_MAX && v[i] >= -FLT_MAX)) {
            rc = onnxslim__err(ONNXSLIM_EMODEL, "a %s value cannot be quantized",
                               v[i] != v[i] ? "NaN" : "infinite");
            break;
          }
        break;
      }
      /* the block's range: its largest magnitude, or the tensor's cap when
       * clipping and that is smaller (a cap of 0 as the smallest float, so
       * that the scale is the smallest positive one); the fast path does
       * neither clipping nor asymmetric blocks */
      float range = amax;
      if (q->clip && amax > q->cap) range = q->cap > 0 ? q->cap : FLT_TRUE_MIN;
      size_t gi = (first + e) * nb + b; /* the block's index among the scales */
      if (given) {
        if (ssz == 4) memcpy(&s, q->given_s + gi * 4, sizeof s);
        else memcpy(&h, q->given_s + gi * 2, sizeof h), s = f16_value(h);
      }
      if (q->asym) {
        int zp = 0;
        int8_t *qb = q->geom == OSL_QG_COLS ? kq : qv;
        float fz = 0;
        if (q->fzp) { /* float zero points: the codes of the kept pair */
          if (ssz == 4) memcpy(&fz, q->given_z + gi * 4, sizeof fz);
          else {
            uint16_t zh;
            memcpy(&zh, q->given_z + gi * 2, sizeof zh);
            fz = f16_value(zh);
          }
          q->fzp(q, v, qb, s, fz);
          if (q->keep_s) memcpy(q->keep_s + gi * ssz, ssz == 4 ? (void *)&s : (void *)&h, ssz);
          if (q->keep_z) {
            uint16_t zh = onnxslim__quant_f16_nearest(fz);
            memcpy(q->keep_z + gi * ssz, ssz == 4 ? (void *)&fz : (void *)&zh, ssz);
          }
          if (q->layout == OSL_QL_SCALES) {
            if (q->scale_type == ONNXSLIM_DTYPE_FLOAT) memcpy(out + b * 4, &s, sizeof s);
            else memcpy(out + b * 2, &h, sizeof h);
          } else if (q->layout == OSL_QL_ZP) {
            out[b] = 0; /* the float ones are in keep_z */
          } else if (q->geom == OSL_QG_COLS) {
            for (size_t i = 0; i < bs; i++) qv[i * q->ncols + b] = kq[i];
          }
          continue;
        }
        if (given) { /* the codes of the kept scale and zero point */
          zp = q->given_zp[gi];
          uint64_t sat = asym_codes(q, v, s, zp, 1, qb, rne_default);
          if (acc) {
            acc->q.saturated += sat;
            acc->s.saturated += sat;
          }
        } else {
          rc = asym_block(q, v, qb, tq, &s, &h, &zp, rne_default, mse, acc);
        }
        if (rc) break;
        if (q->keep_s) memcpy(q->keep_s + gi * ssz, ssz == 4 ? (void *)&s : (void *)&h, ssz);
        if (q->layout == OSL_QL_SCALES) {
          if (q->scale_type == ONNXSLIM_DTYPE_FLOAT) memcpy(out + b * 4, &s, sizeof s);
          else memcpy(out + b * 2, &h, sizeof h);
        } else if (q->layout == OSL_QL_ZP) {
          out[b] = (uint8_t)zp;
        } else if (q->geom == OSL_QG_COLS) {
          for (size_t i = 0; i < bs; i++) qv[i * q->ncols + b] = kq[i];
        }
        continue;
      }
      if (given) {
        /* the kept scale */
      } else if (!fast && (fenv ? block_scale_fast(range, q->qmax, q->scale_type, &s, &h)
                                : block_scale(range, q->qmax, q->scale_type, &s, &h))) {
        bad = 2;
      }
      if (bad) {
        rc = onnxslim__err(ONNXSLIM_EMODEL,
                           "a block's largest magnitude (%g) needs a scale beyond FLOAT16's "
                           "range; use FLOAT scales",
                           (double)amax);
        break;
      }
      int8_t *qb = q->geom == OSL_QG_COLS ? kq : qv;
      uint64_t msat = 0; /* values the searched scale clamps */
      int searched = given || (mse && range == amax && amax > 0);
      if (given) { /* the codes of the kept scale, -(qmax + 1) .. qmax as the search's */
        msat = sym_codes(v, bs, s, -(q->qmax + 1), q->qmax, qb, fenv, rne_default);
      } else if (searched) { /* the absmax codes, then the search (which needs them) */
        quantize(v, bs, s, qb, fenv, rne_default);
        msat = sym_search(q, v, &s, &h, qb, tq, fenv, rne_default);
      }
      if (searched && acc) {
        acc->q.saturated += msat;
        acc->s.saturated += msat;
      }
      if (q->keep_s) memcpy(q->keep_s + gi * ssz, ssz == 4 ? (void *)&s : (void *)&h, ssz);
      if (q->layout == OSL_QL_SCALES) {
        if (q->scale_type == ONNXSLIM_DTYPE_FLOAT) memcpy(out + b * 4, &s, sizeof s);
        else memcpy(out + b * 2, &h, sizeof h);
        if (!acc || !searched) continue;
      }
      if (searched) {
        /* the codes are in qb */
      } else if (range < amax) {
        /* clipped: |x / s| >= qmax + 0.5 would round beyond qmax (qmax is
         * odd, so qmax + 0.5 rounds up): +-qmax, counted */
        double lim = q->qmax + 0.5;
        uint64_t sat = 0;
        for (size_t i = 0; i < bs; i++) {
          double t = (double)v[i] / (double)s;
          if (t >= lim || t <= -lim) {
            qb[i] = (int8_t)(t > 0 ? q->qmax : -q->qmax);
            sat++;
          } else if (rne_default) {
            qb[i] = (int8_t)(int)((t + OSL_RNE_MAGIC) - OSL_RNE_MAGIC);
          } else {
            qb[i] = (int8_t)rne(t);
          }
        }
        if (acc) {
          acc->q.saturated += sat;
          acc->s.saturated += sat;
        }
      } else {
        quantize(v, bs, s, qb, fast, rne_default);
      }
      if (q->geom == OSL_QG_COLS)
        for (size_t i = 0; i < bs; i++) qv[i * q->ncols + b] = kq[i];
      if (acc) {
        double rel_max = acc->s.max_rel_error, abs_max = acc->q.max_abs_error;
        double err2 = 0, norm2 = 0;
        uint64_t flushed = 0;
        for (size_t i = 0; i < bs; i++) {
          float d = (float)qb[i] * s, x0 = v[i];
          double err = dabs((double)d - (double)x0), ax = dabs((double)x0);
          double rel = ax > 0 ? err / ax : 0;
          abs_max = err > abs_max ? err : abs_max;
          rel_max = rel > rel_max ? rel : rel_max;
          flushed += (uint64_t)(qb[i] == 0) & (uint64_t)(ax > 0);
          err2 += err * err;
          norm2 += ax * ax;
        }
        acc->s.max_rel_error = rel_max;
        acc->q.max_abs_error = abs_max;
        acc->s.flushed += flushed;
        acc->err2 += err2;
        acc->norm2 += norm2;
      }
      if (acc) acc_block(acc, bs, s, amax > 0);
    }
    if (rc || q->layout == OSL_QL_SCALES || q->layout == OSL_QL_ZP) continue;
    int layout = q->layout;
    /* asymmetric values are stored as they are: bytes, or nibbles low first */
    if (q->asym)
      layout = layout == OSL_QL_U8 ? OSL_QL_I8 : layout == OSL_QL_U4 ? OSL_QL_I4 : layout;
    pack(layout, qv, nb * bs, out);
  }
  free(vbuf);
  free(qv);
  free(kq);
  free(tq);
  free(g.amax);
  free(g.s);
  free(g.h);
  free(g.bad);
  /* a strided pass touches the whole matrix in each chunk, so the chunks'
   * own releases cannot keep its pages out: they go once it is done */
  if (!rc && q->geom == OSL_QG_STRIDED && q->model && first + n == q->base + x->count)
    onnxslim__release(q->model, x->src, x->count * x->in_size);
  return rc;
}

/* ---- the clip percentile ------------------------------------------------- */

/* hi:lo = a * b. */
static void mul64(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo) {
  uint64_t a0 = a & 0xffffffffu, a1 = a >> 32, b0 = b & 0xffffffffu, b1 = b >> 32;
  uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
  uint64_t mid = (p00 >> 32) + (p01 & 0xffffffffu) + (p10 & 0xffffffffu);
  *lo = (p00 & 0xffffffffu) | (mid << 32);
  *hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}

/* hi:lo >> r (0 < r < 128), when the result fits in 64 bits. */
static uint64_t shr128(uint64_t hi, uint64_t lo, unsigned r) {
  if (r >= 64) return hi >> (r - 64);
  return (lo >> r) | (hi << (64 - r));
}

/* The nearest rank of percentile p (0 < p < 100) among n >= 1 values:
 * k = ceil(n * p9 / 100), p9 being p rounded half to even to 9 decimal
 * places, within [1, n]. Integer arithmetic only (exact, whatever the
 * floating-point environment). */
static uint64_t nearest_rank(double p, uint64_t n) {
  uint64_t bits;
  memcpy(&bits, &p, sizeof bits);
  uint64_t e = (bits >> 52) & 0x7ff, m = bits & ((UINT64_C(1) << 52) - 1);
  unsigned sh = 1074; /* p = m / 2^sh; p < 128 makes sh >= 46 */
  if (e) {
    m |= UINT64_C(1) << 52;
    sh = (unsigned)(1075 - e);
  }
  /* P = p * 10^9 rounded half to even: m 10^9 < 2^83, so P = 0 for sh >= 84 */
  uint64_t hi, lo, P = 0;
  mul64(m, 1000000000u, &hi, &lo);
  if (sh < 84) {
    uint64_t t = shr128(hi, lo, sh - 1); /* P and the half bit */
    unsigned r = sh - 1;                 /* the bits below the half bit: sticky */
    int sticky = r >= 64 ? (lo | (hi & ((UINT64_C(1) << (r - 64)) - 1))) != 0
                         : (lo & ((UINT64_C(1) << r) - 1)) != 0;
    P = t >> 1;
    if ((t & 1) && (sticky || (P & 1))) P++;
  }
  /* k = ceil(n P / 10^11): n P < 2^94, divided bit by bit */
  const uint64_t D = UINT64_C(100000000000);
  uint64_t q = 0, rem = 0;
  mul64(n, P, &hi, &lo);
  for (int b = 127; b >= 0; b--) {
    rem = rem << 1 | ((b >= 64 ? hi >> (b - 64) : lo >> b) & 1);
    if (rem >= D) {
      rem -= D;
      if (b < 64) q |= UINT64_C(1) << b;
    }
  }
  uint64_t k = q + (rem != 0);
  if (k < 1) k = 1;
  if (k > n) k = n;
  return k;
}

/* The index of the bin of h[0..nbins) holding the value of rank *k
 * (1-based, at most the sum of h); *k becomes the rank within that bin. */
static size_t rank_bin(const uint64_t *h, size_t nbins, uint64_t *k) {
  size_t i = 0;
  for (; i + 1 < nbins && h[i] < *k; i++) *k -= h[i];
  return i;
}

/* Candidate c's cap: the value of nearest rank nearest_rank(pct, n) among
 * the magnitudes of its n values, from histograms of their bits (the order of
 * |x| is that of its bit pattern without the sign): one pass over a
 * FLOAT16 tensor (32768 bins), two over a FLOAT one (32768 bins on the
 * high half, then 65536 on the low half of the values in the chosen bin).
 * Chunked reads, pages released as they go; NaN and infinities refused. */
int onnxslim__quant_clip_cap(onnxslim_model *m, osl_qcand *c, double pct, osl_progress *prog) {
  size_t chunk = (size_t)1 << 22, esz = c->from == ONNXSLIM_DTYPE_FLOAT ? 4 : 2;
  size_t n = c->size / esz;
  uint64_t *h = calloc(65536, sizeof *h);
  if (!h) return onnxslim__err_nomem(NULL);
  uint64_t k = nearest_rank(pct, n ? n : 1);
  uint32_t high = 0;
  int rc = 0;
  for (int pass = 0; pass < (esz == 4 ? 2 : 1) && !rc; pass++) {
    if (pass) memset(h, 0, 65536 * sizeof *h);
    for (size_t off = 0; off < n * esz && !rc; off += chunk) {
      size_t len = n * esz - off < chunk ? n * esz - off : chunk, cnt = len / esz;
      const uint8_t *p = c->data + off;
      if (esz == 2) {
        for (size_t i = 0; i < cnt; i++) {
          uint16_t b;
          memcpy(&b, p + 2 * i, 2);
          h[b & 0x7fffu]++;
        }
      } else if (pass == 0) {
        for (size_t i = 0; i < cnt; i++) {
          uint32_t b;
          memcpy(&b, p + 4 * i, 4);
          h[(b >> 16) & 0x7fffu]++;
        }
      } else {
        for (size_t i = 0; i < cnt; i++) {
          uint32_t b;
          memcpy(&b, p + 4 * i, 4);
          if (((b >> 16) & 0x7fffu) == high) h[b & 0xffffu]++;
        }
      }
      onnxslim__release(m, p, len);
      rc = onnxslim__progress_add(prog, len);
    }
    if (rc) break;
    /* NaN and infinities: all exponent bits set */
    uint64_t bad = 0;
    for (size_t i = esz == 4 ? 0x7f80u : 0x7c00u; pass == 0 && i < 0x8000u; i++) bad += h[i];
    if (bad) {
      rc = onnxslim__err(ONNXSLIM_EMODEL,
                         "quantizing '%s': a NaN or infinite value cannot be quantized", c->name);
      break;
    }
    if (!n) break;
    if (esz == 2) {
      uint16_t b = (uint16_t)rank_bin(h, 0x7c00u, &k);
      onnxslim_convert_f16_to_f32(&c->cap, &b, 1);
    } else if (pass == 0) {
      high = (uint32_t)rank_bin(h, 0x7f80u, &k);
    } else {
      uint32_t b = high << 16 | (uint32_t)rank_bin(h, 65536, &k);
      memcpy(&c->cap, &b, sizeof b);
    }
  }
  free(h);
  if (!rc) c->clip = 1;
  return rc;
}
