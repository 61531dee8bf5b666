/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - float zero points for MatMulNBits
 * (ONNXSLIM_QUANT_FLOAT_ZERO_POINTS): per block of an INT4 weight, a scale
 * s and a zero point z of the scales' type, read back as (q - z) * s with
 * codes q = rne(x / s + z) in 0..15. The search, alternating least squares:
 * with the codes fixed, the least-squares line x ~ a q + b over the block
 * gives s = a and z = -b / a (rounded to the scales' type); the codes of
 * that pair replace the block's when its squared error is lower, and again.
 * Two starts, the better kept: the integer result of the scale search of
 * convert_quant_blocks.c (so a block never reads back worse than with
 * integer zero points) and the block's range with its float zero point.
 * Every sum is in double in value order, the codes' quotients in double:
 * the same bytes on every build, and the data pass recomputes the codes of
 * the kept scale and zero point exactly as the search did.
 */
#include <float.h>
#include <string.h>

#include "convert_quant_blocks.h"
#include "onnxslim_config.h"

#if defined(__GNUC__) && !defined(__clang__)
/* the codes' loop below is written to be vectorized */
#  pragma GCC optimize("O3")
#endif
/* The codes' loop is also compiled for AVX2 and chosen at load time, as
 * the block kernel's scale search (convert_quant_blocks.c): the same
 * operations per value, so the same bytes. */
#if ONNXSLIM_HAVE_TARGET_CLONES /* scripts/probe-platform.sh */
#  define OSL_FZP_MULTIVERSION __attribute__((target_clones("avx2", "default")))
#else
#  define OSL_FZP_MULTIVERSION
#endif

/* Rounds of the search from each start: the error stops falling after two
 * on bench/make_heavy.py's weights (bench/float_zp_search.py). */
#define OSL_FZP_ROUNDS 2

/* v rounded to the scales' type st (*h its FLOAT16 pattern); 0 when that
 * is not finite. */
static int in_type(double v, int32_t st, float *out, uint16_t *h) {
  if (!(v >= -FLT_MAX && v <= FLT_MAX)) return -1;
  float f = (float)v;
  if (st == ONNXSLIM_DTYPE_FLOAT16) {
    uint16_t b = onnxslim__quant_f16_nearest(f);
    if ((b & 0x7c00u) == 0x7c00u) return -1;
    *h = b;
    f = onnxslim__quant_f16_value(b);
  }
  *out = f;
  return 0;
}

/* A usable pair: s > 0 and every (q - z) * s, q in 0..qmax, finite in the
 * scales' type. */
static int usable(const osl_qx *q, float s, float z) {
  double lim = q->scale_type == ONNXSLIM_DTYPE_FLOAT16 ? 65504.0 : (double)FLT_MAX;
  double lo = (0.0 - z) * (double)s, hi = ((double)q->qmax - z) * (double)s;
  return s > 0 && lo > -lim && lo < lim && hi > -lim && hi < lim;
}

/* The codes of scale s and zero point z into qb (stored, 0..qmax): round
 * half to even of x / s + z (in double), clamped; the number of values
 * clamped. Without a branch, whatever the rounding mode (the conversion to
 * an integer truncates; the value is first shifted by 2 to be positive), so
 * that the compiler vectorizes it; the same results in every width. */
OSL_FZP_MULTIVERSION
static uint64_t codes(const osl_qx *q, const float *v, float s, float z, int8_t *qb) {
  double ds = s, dz = (double)z + 2.0, top = q->qmax + 3.0;
  int hi = q->qmax + 2;
  uint64_t sat = 0;
  for (size_t i = 0; i < q->bs; i++) {
    double t = (double)v[i] / ds + dz;
    t = t < 1.0 ? 1.0 : t > top ? top : t; /* also Inf */
    int k = (int)t;
    double d = t - (double)k; /* exact */
    int r = k + ((d > 0.5) | ((d == 0.5) & (k & 1)));
    int c = r < 2 ? 2 : r > hi ? hi : r;
    sat += (uint64_t)(c != r);
    qb[i] = (int8_t)(uint8_t)(c - 2);
  }
  return sat;
}

/* The squared error of codes qb read back as MatMulNBits does, (q - z) * s
 * in FLOAT. */
static double err2(const osl_qx *q, const float *v, const int8_t *qb, float s, float z) {
  double e = 0;
  for (size_t i = 0; i < q->bs; i++) {
    float d = ((float)(uint8_t)qb[i] - z) * s;
    double x = (double)d - (double)v[i];
    e += x * x;
  }
  return e;
}

typedef struct {
  float s, z;
  uint16_t h; /* s as FLOAT16 */
  uint64_t sat;
  double e;
} osl_fzp_pair;

/* Up to OSL_FZP_ROUNDS rounds of alternating least squares from codes qb
 * of pair *p (its error computed); tmp: bs bytes. */
static void refine(const osl_qx *q, const float *v, int8_t *qb, int8_t *tmp, osl_fzp_pair *p) {
  for (int round = 0; round < OSL_FZP_ROUNDS; round++) {
    osl_qline l = onnxslim__qline_sums(q->bs, v, qb);
    double a, zr;
    if (!onnxslim__qline_fit(&l, &a, &zr)) return;
    osl_fzp_pair c = *p;
    uint16_t zh;
    if (in_type(a, q->scale_type, &c.s, &c.h) || in_type(zr, q->scale_type, &c.z, &zh) ||
        !usable(q, c.s, c.z))
      return;
    c.sat = codes(q, v, c.s, c.z, tmp);
    c.e = err2(q, v, tmp, c.s, c.z);
    if (!(c.e < p->e)) return; /* the same codes again would give the same line */
    *p = c;
    memcpy(qb, tmp, q->bs);
  }
}

uint64_t onnxslim__quant_fzp_block(const osl_qx *q, const float *v, int8_t *qb, int8_t *work,
                                   float *s, uint16_t *h, float *z, int given) {
  if (given) return codes(q, v, *s, *z, qb);
  size_t bs = q->bs;
  int8_t *tmp = work, *qr = work + bs;
  /* the integer start: its codes again as rne(x / s + z), as stored */
  osl_fzp_pair a = {*s, *z, *h, 0, 0};
  a.sat = codes(q, v, a.s, a.z, qb);
  a.e = err2(q, v, qb, a.s, a.z);
  refine(q, v, qb, tmp, &a);
  /* the range's start: [min, max] with 0 included, its float zero point */
  float mn = 0, mx = 0;
  for (size_t i = 0; i < bs; i++) {
    mn = v[i] < mn ? v[i] : mn;
    mx = v[i] > mx ? v[i] : mx;
  }
  osl_fzp_pair r = a;
  uint16_t zh;
  double span = ((double)mx - (double)mn) / q->qmax;
  if (span > 0 && !in_type(span, q->scale_type, &r.s, &r.h) &&
      !in_type(-(double)mn / r.s, q->scale_type, &r.z, &zh) && usable(q, r.s, r.z)) {
    r.sat = codes(q, v, r.s, r.z, qr);
    r.e = err2(q, v, qr, r.s, r.z);
    refine(q, v, qr, tmp, &r);
    if (r.e < a.e) {
      a = r;
      memcpy(qb, qr, bs);
    }
  }
  *s = a.s;
  *z = a.z;
  if (q->scale_type == ONNXSLIM_DTYPE_FLOAT16) *h = a.h;
  return a.sat;
}
