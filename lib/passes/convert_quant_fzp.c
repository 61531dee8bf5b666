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
 * One pass over the block per candidate pair (its codes, their squared
 * error and the line's sums), every sum in double in eight lanes added in
 * a fixed order, the codes' quotients in double: the same bytes on every
 * build and path (the portable reference, AVX-512), and the data pass
 * recomputes the codes of the kept scale and zero point exactly as the
 * search did.
 */
#include <float.h>
#include <stdatomic.h>
#include <string.h>

#include "convert_quant_blocks.h"
#include "kernels/convert_simd.h"
#include "onnxslim_config.h"

#if defined(__x86_64__) && defined(__GNUC__) && \
    ((defined(__clang__) && __clang_major__ >= 9) || (!defined(__clang__) && __GNUC__ >= 12))
#  define OSL_FZP_AVX512 1
#  include <immintrin.h>
#else
#  define OSL_FZP_AVX512 0
#endif

#if defined(__GNUC__) && !defined(__clang__)
/* the data pass's codes loop below is written to be vectorized */
#  pragma GCC optimize("O3")
#endif
/* That loop is also compiled for AVX-512 and AVX2 and chosen at load
 * time, as the block kernel's scale search (convert_quant_blocks.c): the
 * same operations per value, so the same bytes. */
#if ONNXSLIM_HAVE_TARGET_CLONES /* scripts/probe-platform.sh */
#  define OSL_FZP_MULTIVERSION __attribute__((target_clones("avx512f", "avx2", "default")))
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

/* One code: round half to even of x / s + z (in double), clamped to
 * 0..qmax, stored in *qb; 1 when it was clamped. Without a branch,
 * whatever the rounding mode (the conversion to an integer truncates; the
 * value is first shifted by 2 to be positive), so that the compiler
 * vectorizes the loops that call it; the same results in every width.
 * ds = s, dz = z + 2, top = qmax + 3, hi = qmax + 2. */
static inline __attribute__((always_inline)) int code_of(float x, double ds, double dz, double top,
                                                         int hi, int8_t *qb) {
  double t = (double)x / ds + dz;
  t = t < 1.0 ? 1.0 : t > top ? top : t; /* also Inf */
  int k = (int)t;
  double d = t - (double)k; /* exact */
  int r = k + ((d > 0.5) | ((d == 0.5) & (k & 1)));
  int c = r < 2 ? 2 : r > hi ? hi : r;
  *qb = (int8_t)(uint8_t)(c - 2);
  return c != r;
}

/* The codes of scale s and zero point z into qb (stored, 0..qmax); the
 * number of values clamped (the data pass: the codes of the kept pair). */
OSL_FZP_MULTIVERSION
static uint64_t codes(const osl_qx *q, const float *v, float s, float z, int8_t *qb) {
  double ds = s, dz = (double)z + 2.0, top = q->qmax + 3.0;
  int hi = q->qmax + 2;
  uint64_t sat = 0;
  for (size_t i = 0; i < q->bs; i++) sat += (uint64_t)code_of(v[i], ds, dz, top, hi, qb + i);
  return sat;
}

/* What one pass over a block gives for a pair: its codes' clamped count,
 * their squared error read back as MatMulNBits does ((q - z) * s in
 * FLOAT), and the sums of the least-squares line through them. */
typedef struct {
  uint64_t sat;
  double e;
  osl_qline l;
} osl_fzp_pass;

/* One value x of lane sums e, su, sx, suu, sux: its code into *qb, the
 * squared error of its read-back and the least-squares sums; 1 when it was
 * clamped. */
static inline __attribute__((always_inline)) int pass_one(float x, float s, float z, double ds,
                                                          double dz, double top, int hi, int8_t *qb,
                                                          double *e, double *su, double *sx,
                                                          double *suu, double *sux) {
  int sat = code_of(x, ds, dz, top, hi, qb);
  float u = (float)(uint8_t)*qb, d = (u - z) * s;
  double ex = (double)d - (double)x, du = u, dx = x;
  *e += ex * ex;
  *su += du;
  *sx += dx;
  *suu += du * du;
  *sux += du * dx;
  return sat;
}

/* The values from i on (after the lanes' loop) into lanes j = 0, 1, ...
 * (value i in lane i % 8, i being a multiple of 8), then the lanes added in
 * a fixed order into *o. */
static inline __attribute__((always_inline)) void pass_tail(const osl_qx *q, const float *v,
                                                            size_t i, float s, float z, double ds,
                                                            double dz, double top, int hi,
                                                            int8_t *qb, double *e, double *su,
                                                            double *sx, double *suu, double *sux,
                                                            int *sat, osl_fzp_pass *o) {
  for (size_t j = 0; i < q->bs; i++, j++)
    sat[j] +=
        pass_one(v[i], s, z, ds, dz, top, hi, qb + i, &e[j], &su[j], &sx[j], &suu[j], &sux[j]);
    /* lanes 0+4, 1+5, 2+6, 3+7, then 0+2, 1+3, then 0+1 */
#define OSL_FZP_LANES(a) \
  ((((a)[0] + (a)[4]) + ((a)[2] + (a)[6])) + (((a)[1] + (a)[5]) + ((a)[3] + (a)[7])))
  o->sat = (uint64_t)(sat[0] + sat[1] + sat[2] + sat[3] + sat[4] + sat[5] + sat[6] + sat[7]);
  o->e = OSL_FZP_LANES(e);
  o->l.n = (double)q->bs;
  o->l.su = OSL_FZP_LANES(su);
  o->l.sx = OSL_FZP_LANES(sx);
  o->l.suu = OSL_FZP_LANES(suu);
  o->l.sux = OSL_FZP_LANES(sux);
#undef OSL_FZP_LANES
}

/* The pass, the reference: the codes of s and z into qb and the above, in
 * one loop. Every sum in eight lanes (value i in lane i % 8), the lanes
 * then added in a fixed order, so that a SIMD path doing each lane's
 * operations in the same order (pass_avx512() below) gives the same
 * results; ISO C mode (-std=c11) does not contract a * b + c into a fused
 * multiply-add. Not vectorized: it is the reference (LIBONNXSLIM_KERNELS=
 * scalar, CPUs without AVX-512; tests compare the paths' bytes). */
#if defined(__GNUC__) && !defined(__clang__)
#  pragma GCC push_options
#  pragma GCC optimize("no-tree-vectorize")
#endif
static void pass_ref(const osl_qx *q, const float *v, float s, float z, int8_t *qb,
                     osl_fzp_pass *o) {
  double ds = s, dz = (double)z + 2.0, top = q->qmax + 3.0;
  int hi = q->qmax + 2;
  double e[8] = {0}, su[8] = {0}, sx[8] = {0}, suu[8] = {0}, sux[8] = {0};
  int sat[8] = {0};
  size_t bs = q->bs, i = 0;
  for (; i + 8 <= bs; i += 8)
    for (size_t j = 0; j < 8; j++)
      sat[j] += pass_one(v[i + j], s, z, ds, dz, top, hi, qb + i + j, &e[j], &su[j], &sx[j],
                         &suu[j], &sux[j]);
  pass_tail(q, v, i, s, z, ds, dz, top, hi, qb, e, su, sx, suu, sux, sat, o);
}
#if defined(__GNUC__) && !defined(__clang__)
#  pragma GCC pop_options
#endif

typedef void (*osl_fzp_pass_fn)(const osl_qx *q, const float *v, float s, float z, int8_t *qb,
                                osl_fzp_pass *o);

#if OSL_FZP_AVX512
/* The pass in AVX-512 (F, VL, BW, DQ), eight values a step, value i in
 * lane i % 8: each lane does the reference's operations in the same order
 * (the division, sums and products in double, the read-back in FLOAT, no
 * fused multiply-add), so its results are the reference's, bit for bit;
 * the values after the last multiple of 8 go through the reference's loop
 * on the same lanes. */
#  define OSL_TA __attribute__((target("avx512f,avx512vl,avx512bw,avx512dq")))
OSL_TA static void pass_avx512(const osl_qx *q, const float *v, float s, float z, int8_t *qb,
                               osl_fzp_pass *o) {
  double ds = s, dz = (double)z + 2.0, top = q->qmax + 3.0;
  int hi = q->qmax + 2;
  size_t bs = q->bs, i = 0;
  __m512d vds = _mm512_set1_pd(ds), vdz = _mm512_set1_pd(dz), vtop = _mm512_set1_pd(top);
  __m512d one = _mm512_set1_pd(1.0), half = _mm512_set1_pd(0.5);
  __m256i i1 = _mm256_set1_epi32(1), i2 = _mm256_set1_epi32(2), ihi = _mm256_set1_epi32(hi);
  __m256 fz = _mm256_set1_ps(z), fs = _mm256_set1_ps(s);
  __m512d e = _mm512_setzero_pd(), su = e, sx = e, suu = e, sux = e;
  int nsat = 0;
  for (; i + 8 <= bs; i += 8) {
    __m256 x = _mm256_loadu_ps(v + i);
    __m512d dx = _mm512_cvtps_pd(x);
    __m512d t = _mm512_add_pd(_mm512_div_pd(dx, vds), vdz);
    t = _mm512_min_pd(_mm512_max_pd(t, one), vtop); /* t is never NaN: x and s are finite */
    __m256i k = _mm512_cvttpd_epi32(t);
    __m512d d = _mm512_sub_pd(t, _mm512_cvtepi32_pd(k));
    __mmask8 up = _mm512_cmp_pd_mask(d, half, _CMP_GT_OQ) |
                  (_mm512_cmp_pd_mask(d, half, _CMP_EQ_OQ) & _mm256_test_epi32_mask(k, i1));
    __m256i r = _mm256_mask_add_epi32(k, up, k, i1);
    __m256i c = _mm256_min_epi32(_mm256_max_epi32(r, i2), ihi);
    nsat += __builtin_popcount((unsigned)_mm256_cmpneq_epi32_mask(c, r));
    __m256i u = _mm256_sub_epi32(c, i2);
    _mm_storel_epi64((__m128i *)(void *)(qb + i), _mm256_cvtepi32_epi8(u));
    __m256 rd = _mm256_mul_ps(_mm256_sub_ps(_mm256_cvtepi32_ps(u), fz), fs);
    __m512d ex = _mm512_sub_pd(_mm512_cvtps_pd(rd), dx), du = _mm512_cvtepi32_pd(u);
    e = _mm512_add_pd(e, _mm512_mul_pd(ex, ex));
    su = _mm512_add_pd(su, du);
    sx = _mm512_add_pd(sx, dx);
    suu = _mm512_add_pd(suu, _mm512_mul_pd(du, du));
    sux = _mm512_add_pd(sux, _mm512_mul_pd(du, dx));
  }
  double ea[8], sua[8], sxa[8], suua[8], suxa[8];
  _mm512_storeu_pd(ea, e);
  _mm512_storeu_pd(sua, su);
  _mm512_storeu_pd(sxa, sx);
  _mm512_storeu_pd(suua, suu);
  _mm512_storeu_pd(suxa, sux);
  int sat[8] = {nsat, 0, 0, 0, 0, 0, 0, 0};
  pass_tail(q, v, i, s, z, ds, dz, top, hi, qb, ea, sua, sxa, suua, suxa, sat, o);
}
#  undef OSL_TA

/* 1 when this CPU (and its OS) runs pass_avx512(). */
static int have_avx512(void) {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
         __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq");
}
#endif

typedef struct {
  float s, z;
  uint16_t h; /* s as FLOAT16 */
  osl_fzp_pass p;
} osl_fzp_pair;

/* Up to OSL_FZP_ROUNDS rounds of alternating least squares from codes qb
 * of pair *p (its pass done); tmp: bs bytes. */
static void refine(const osl_qx *q, osl_fzp_pass_fn pass, const float *v, int8_t *qb, int8_t *tmp,
                   osl_fzp_pair *p) {
  for (int round = 0; round < OSL_FZP_ROUNDS; round++) {
    double a, zr;
    if (!onnxslim__qline_fit(&p->p.l, &a, &zr)) return;
    osl_fzp_pair c = *p;
    uint16_t zh;
    if (in_type(a, q->scale_type, &c.s, &c.h) || in_type(zr, q->scale_type, &c.z, &zh) ||
        !usable(q, c.s, c.z))
      return;
    pass(q, v, c.s, c.z, tmp, &c.p);
    if (!(c.p.e < p->p.e)) return; /* the same codes again would give the same line */
    *p = c;
    memcpy(qb, tmp, q->bs);
  }
}

uint64_t onnxslim__quant_fzp_block(const osl_qx *q, const float *v, int8_t *qb, int8_t *work,
                                   float *s, uint16_t *h, float *z, int given) {
  if (given) return codes(q, v, *s, *z, qb);
  osl_fzp_pass_fn pass = pass_ref;
#if OSL_FZP_AVX512
  /* AVX-512 when the CPU has it, but on the conversions' scalar path
   * (LIBONNXSLIM_KERNELS=scalar) */
  static atomic_int avx512 = -1; /* every thread finds the same */
  int has = atomic_load_explicit(&avx512, memory_order_relaxed);
  if (has < 0) atomic_store_explicit(&avx512, has = have_avx512(), memory_order_relaxed);
  if (has && onnxslim__convert_path() != OSL_PATH_SCALAR) pass = pass_avx512;
#endif
  size_t bs = q->bs;
  int8_t *tmp = work, *qr = work + bs;
  /* the integer start: its codes again as rne(x / s + z), as stored */
  osl_fzp_pair a = {*s, *z, *h, {0, 0, {0, 0, 0, 0, 0}}};
  pass(q, v, a.s, a.z, qb, &a.p);
  refine(q, pass, v, qb, tmp, &a);
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
    pass(q, v, r.s, r.z, qr, &r.p);
    refine(q, pass, v, qr, tmp, &r);
    if (r.p.e < a.p.e) {
      a = r;
      memcpy(qb, qr, bs);
    }
  }
  *s = a.s;
  *z = a.z;
  if (q->scale_type == ONNXSLIM_DTYPE_FLOAT16) *h = a.h;
  return a.p.sat;
}
