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
 * Two starts, the better of them refined: the block's range with an
 * integer zero point (the smallest scale that clamps no value: a block
 * never reads back worse than that) and the same range with its float
 * zero point.
 *
 * Eight blocks at a time, one a lane: a pass computes, for each lane's
 * pair, the codes' clamped count, their squared error read back as
 * MatMulNBits does and the least-squares sums, each lane's sums in double
 * in value order. The same loop is compiled for AVX-512, for AVX2 and
 * without vectorization (the reference: LIBONNXSLIM_KERNELS=scalar, and
 * CPUs without either): a lane's operations are the same in every width
 * and the lanes never mix, so the results are the same bits on every path
 * (test step 59 compares them). The data pass recomputes the codes of the
 * kept scale and zero point exactly as the search did.
 */
#include <float.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "convert_quant_blocks.h"
#include "kernels/convert_simd.h"
#include "onnxslim_config.h"

/* no fused multiply-add anywhere: each path must round as the reference
 * (GCC's -std=c11 already keeps a * b + c apart; clang contracts unless told) */
#if defined(__clang__)
#  pragma clang fp contract(off)
#endif

#if defined(__x86_64__) && defined(__GNUC__) && \
    ((defined(__clang__) && __clang_major__ >= 9) || (!defined(__clang__) && __GNUC__ >= 12))
#  define OSL_FZP_X86 1
#  include <immintrin.h>
#else
#  define OSL_FZP_X86 0
#endif

#if defined(__GNUC__) && !defined(__clang__)
/* the loops below are written to be vectorized */
#  pragma GCC optimize("O3")
#endif
/* The data pass's codes loop is also compiled for AVX-512 and AVX2 and
 * chosen at load time, as the block kernel's scale search
 * (convert_quant_blocks.c): the same operations per value, so the same
 * bytes. */
#if ONNXSLIM_HAVE_TARGET_CLONES /* scripts/probe-platform.sh */
#  define OSL_FZP_MULTIVERSION __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#  define OSL_FZP_MULTIVERSION
#endif

/* Rounds of the search from the better start: the error stops falling
 * after two on bench/make_heavy.py's weights (bench/float_zp_search.py). */
#define OSL_FZP_ROUNDS 2

/* Blocks searched together, one a lane. */
#define OSL_FZP_L 8

/* v rounded to the scales' type st (*h its FLOAT16 pattern); -1 when that
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
 * 0..qmax, into *u; 1 when it was clamped. Without a branch, whatever the
 * rounding mode (the conversion to an integer truncates; the value is
 * first shifted by 2 to be positive), so that the compiler vectorizes the
 * loops that call it; the same results in every width. ds = s, dz = z + 2,
 * top = qmax + 3, hi = qmax + 2. */
static inline __attribute__((always_inline)) int code_of(float x, double ds, double dz, double top,
                                                         int hi, int *u) {
  double t = (double)x / ds + dz;
  t = t < 1.0 ? 1.0 : t > top ? top : t; /* also Inf */
  int k = (int)t;
  double d = t - (double)k; /* exact */
  int r = k + ((d > 0.5) | ((d == 0.5) & (k & 1)));
  int c = r < 2 ? 2 : r > hi ? hi : r;
  *u = c - 2;
  return c != r;
}

/* The codes of scale s and zero point z into qb (stored, 0..qmax); the
 * number of values clamped (the data pass: the codes of the kept pair). */
OSL_FZP_MULTIVERSION
static uint64_t codes(const osl_qx *q, const float *v, float s, float z, int8_t *qb) {
  double ds = s, dz = (double)z + 2.0, top = q->qmax + 3.0;
  int hi = q->qmax + 2;
  uint64_t sat = 0;
  for (size_t i = 0; i < q->bs; i++) {
    int u;
    sat += (uint64_t)code_of(v[i], ds, dz, top, hi, &u);
    qb[i] = (int8_t)(uint8_t)u;
  }
  return sat;
}

uint64_t onnxslim__quant_fzp_codes(const osl_qx *q, const float *v, int8_t *qb, float s, float z) {
  return codes(q, v, s, z, qb);
}

/* What one pass gives for each lane's pair: its codes' clamped count,
 * their squared error read back as MatMulNBits does ((q - z) * s in
 * FLOAT), and the sums of the least-squares line through them. */
typedef struct {
  double e[OSL_FZP_L], su[OSL_FZP_L], sx[OSL_FZP_L], suu[OSL_FZP_L], sux[OSL_FZP_L];
  int32_t sat[OSL_FZP_L];
} osl_fzp_sums;

/* The pass over blocks vt (value i of lane j at vt[i * OSL_FZP_L + j]) with
 * lane j's pair s[j], z[j]: every sum in value order, lane by lane. */
static inline __attribute__((always_inline)) void pass_body(size_t bs, int qmax, const float *vt,
                                                            const float *s, const float *z,
                                                            osl_fzp_sums *o) {
  double ds[OSL_FZP_L], dz[OSL_FZP_L], e[OSL_FZP_L], su[OSL_FZP_L], sx[OSL_FZP_L], suu[OSL_FZP_L],
      sux[OSL_FZP_L];
  int32_t sat[OSL_FZP_L];
  double top = qmax + 3.0;
  int hi = qmax + 2;
  for (int j = 0; j < OSL_FZP_L; j++) {
    ds[j] = s[j];
    dz[j] = (double)z[j] + 2.0;
    e[j] = su[j] = sx[j] = suu[j] = sux[j] = 0;
    sat[j] = 0;
  }
  for (size_t i = 0; i < bs; i++) {
    const float *x = vt + i * OSL_FZP_L;
    for (int j = 0; j < OSL_FZP_L; j++) {
      int u;
      sat[j] += code_of(x[j], ds[j], dz[j], top, hi, &u);
      float fu = (float)u, d = (fu - z[j]) * s[j];
      double ex = (double)d - (double)x[j], du = fu, dx = x[j];
      e[j] += ex * ex;
      su[j] += du;
      sx[j] += dx;
      suu[j] += du * du;
      sux[j] += du * dx;
    }
  }
  memcpy(o->e, e, sizeof e);
  memcpy(o->su, su, sizeof su);
  memcpy(o->sx, sx, sizeof sx);
  memcpy(o->suu, suu, sizeof suu);
  memcpy(o->sux, sux, sizeof sux);
  memcpy(o->sat, sat, sizeof sat);
}

typedef void (*osl_fzp_pass_fn)(size_t bs, int qmax, const float *vt, const float *s,
                                const float *z, osl_fzp_sums *o);

/* The reference (GCC does not vectorize it). */
static void pass_ref(size_t bs, int qmax, const float *vt, const float *s, const float *z,
                     osl_fzp_sums *o) {
  pass_body(bs, qmax, vt, s, z, o);
}

#if OSL_FZP_X86
/* The pass in AVX-512 (F, VL, BW, DQ) and in AVX2, a lane a block as the
 * reference, each lane doing the reference's operations in its order (the
 * division, sums and products in double, the read-back in FLOAT, no fused
 * multiply-add); the code is rounded half to even by the vector rounding
 * instruction, the reference's truncation and comparisons giving the same
 * integer (t >= 1, t - trunc(t) exact), clamped and counted in double. */
#  define OSL_TA512 __attribute__((target("avx512f,avx512vl,avx512bw,avx512dq")))
OSL_TA512 static void pass_avx512(size_t bs, int qmax, const float *vt, const float *s,
                                  const float *z, osl_fzp_sums *o) {
  __m256 fs = _mm256_loadu_ps(s), fz = _mm256_loadu_ps(z);
  __m512d ds = _mm512_cvtps_pd(fs), dz = _mm512_add_pd(_mm512_cvtps_pd(fz), _mm512_set1_pd(2.0));
  __m512d one = _mm512_set1_pd(1.0), two = _mm512_set1_pd(2.0), top = _mm512_set1_pd(qmax + 3.0);
  __m512d hi = _mm512_set1_pd(qmax + 2.0);
  __m512d e = _mm512_setzero_pd(), su = e, sx = e, suu = e, sux = e, sat = e;
  for (size_t i = 0; i < bs; i++) {
    __m512d dx = _mm512_cvtps_pd(_mm256_loadu_ps(vt + i * OSL_FZP_L));
    __m512d t = _mm512_add_pd(_mm512_div_pd(dx, ds), dz);
    t = _mm512_min_pd(_mm512_max_pd(t, one), top); /* never NaN: x and s are finite */
    __m512d r = _mm512_roundscale_pd(t, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    __m512d c = _mm512_min_pd(_mm512_max_pd(r, two), hi);
    sat = _mm512_mask_add_pd(sat, _mm512_cmp_pd_mask(c, r, _CMP_NEQ_OQ), sat, one);
    __m512d du = _mm512_sub_pd(c, two);
    __m256 rd = _mm256_mul_ps(_mm256_sub_ps(_mm512_cvtpd_ps(du), fz), fs);
    __m512d ex = _mm512_sub_pd(_mm512_cvtps_pd(rd), dx);
    e = _mm512_add_pd(e, _mm512_mul_pd(ex, ex));
    su = _mm512_add_pd(su, du);
    sx = _mm512_add_pd(sx, dx);
    suu = _mm512_add_pd(suu, _mm512_mul_pd(du, du));
    sux = _mm512_add_pd(sux, _mm512_mul_pd(du, dx));
  }
  double st[OSL_FZP_L];
  _mm512_storeu_pd(o->e, e);
  _mm512_storeu_pd(o->su, su);
  _mm512_storeu_pd(o->sx, sx);
  _mm512_storeu_pd(o->suu, suu);
  _mm512_storeu_pd(o->sux, sux);
  _mm512_storeu_pd(st, sat);
  for (int j = 0; j < OSL_FZP_L; j++) o->sat[j] = (int32_t)st[j];
}
#  undef OSL_TA512

/* AVX2: the eight lanes as two halves of four. */
__attribute__((target("avx2"))) static void pass_avx2(size_t bs, int qmax, const float *vt,
                                                      const float *s, const float *z,
                                                      osl_fzp_sums *o) {
  __m256d one = _mm256_set1_pd(1.0), two = _mm256_set1_pd(2.0), top = _mm256_set1_pd(qmax + 3.0);
  __m256d hi = _mm256_set1_pd(qmax + 2.0);
  for (int h = 0; h < OSL_FZP_L; h += 4) {
    __m128 fs = _mm_loadu_ps(s + h), fz = _mm_loadu_ps(z + h);
    __m256d ds = _mm256_cvtps_pd(fs), dz = _mm256_add_pd(_mm256_cvtps_pd(fz), two);
    __m256d e = _mm256_setzero_pd(), su = e, sx = e, suu = e, sux = e, sat = e;
    for (size_t i = 0; i < bs; i++) {
      __m256d dx = _mm256_cvtps_pd(_mm_loadu_ps(vt + i * OSL_FZP_L + h));
      __m256d t = _mm256_add_pd(_mm256_div_pd(dx, ds), dz);
      t = _mm256_min_pd(_mm256_max_pd(t, one), top);
      __m256d r = _mm256_round_pd(t, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
      __m256d c = _mm256_min_pd(_mm256_max_pd(r, two), hi);
      sat = _mm256_add_pd(sat, _mm256_and_pd(_mm256_cmp_pd(c, r, _CMP_NEQ_OQ), one));
      __m256d du = _mm256_sub_pd(c, two);
      __m128 rd = _mm_mul_ps(_mm_sub_ps(_mm256_cvtpd_ps(du), fz), fs);
      __m256d ex = _mm256_sub_pd(_mm256_cvtps_pd(rd), dx);
      e = _mm256_add_pd(e, _mm256_mul_pd(ex, ex));
      su = _mm256_add_pd(su, du);
      sx = _mm256_add_pd(sx, dx);
      suu = _mm256_add_pd(suu, _mm256_mul_pd(du, du));
      sux = _mm256_add_pd(sux, _mm256_mul_pd(du, dx));
    }
    double st[4];
    _mm256_storeu_pd(o->e + h, e);
    _mm256_storeu_pd(o->su + h, su);
    _mm256_storeu_pd(o->sx + h, sx);
    _mm256_storeu_pd(o->suu + h, suu);
    _mm256_storeu_pd(o->sux + h, sux);
    _mm256_storeu_pd(st, sat);
    for (int j = 0; j < 4; j++) o->sat[h + j] = (int32_t)st[j];
  }
}

/* 2 when this CPU (and its OS) runs pass_avx512(), 1 pass_avx2(), else 0. */
static int x86_level(void) {
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
      __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq"))
    return 2;
  return __builtin_cpu_supports("avx2") ? 1 : 0;
}
#endif

/* The width of this CPU and the conversions' path (LIBONNXSLIM_KERNELS):
 * 2 (AVX-512) on the AVX-512 path, 1 (AVX2) on the AVX2 one (or on the
 * AVX-512 path of a CPU without AVX-512 DQ), else 0 (the reference). */
#if OSL_FZP_X86
static int level(void) {
  static atomic_int found = -1; /* every thread finds the same */
  int l = atomic_load_explicit(&found, memory_order_relaxed);
  if (l < 0) atomic_store_explicit(&found, l = x86_level(), memory_order_relaxed);
  int path = onnxslim__convert_path();
  if (path == OSL_PATH_AVX512 && l >= 2) return 2;
  if ((path == OSL_PATH_AVX512 || path == OSL_PATH_AVX2) && l >= 1) return 1;
  return 0;
}
#endif

/* The pass of that width. */
static osl_fzp_pass_fn pick_pass(void) {
#if OSL_FZP_X86
  int l = level();
  if (l == 2) return pass_avx512;
  if (l == 1) return pass_avx2;
#endif
  return pass_ref;
}

/* Lane j of b into lane j of a (pair and sums). */
static void take(osl_fzp_sums *a, const osl_fzp_sums *b, int j) {
  a->e[j] = b->e[j];
  a->su[j] = b->su[j];
  a->sx[j] = b->sx[j];
  a->suu[j] = b->suu[j];
  a->sux[j] = b->sux[j];
  a->sat[j] = b->sat[j];
}

/* The search of OSL_FZP_L blocks vt (as pass_body()) whose ranges are
 * [mn[j], mx[j]] (0 included), from each lane's integer start s[j] (h[j]),
 * z[j]: the better start, then up to
 * OSL_FZP_ROUNDS rounds of alternating least squares, each lane stopping
 * at its first round that does not lower its error; the lanes' pairs
 * replaced by the best found, sat[j] their clamped counts. */
static void search(const osl_qx *q, osl_fzp_pass_fn pass, const float *vt, const float *mn,
                   const float *mx, float *s, uint16_t *h, float *z, uint64_t *sat) {
  size_t bs = q->bs;
  float cs[OSL_FZP_L], cz[OSL_FZP_L];
  uint16_t ch[OSL_FZP_L] = {0}, zh;
  int live[OSL_FZP_L];
  osl_fzp_sums a, c;
  pass(bs, q->qmax, vt, s, z, &a);
  /* the range's start: [min, max] with 0 included, its float zero point */
  for (int j = 0; j < OSL_FZP_L; j++) {
    double span = ((double)mx[j] - (double)mn[j]) / q->qmax;
    live[j] = span > 0 && !in_type(span, q->scale_type, &cs[j], &ch[j]) &&
              !in_type(-(double)mn[j] / cs[j], q->scale_type, &cz[j], &zh) &&
              usable(q, cs[j], cz[j]);
    if (!live[j]) cs[j] = s[j], cz[j] = z[j], ch[j] = h[j];
  }
  pass(bs, q->qmax, vt, cs, cz, &c);
  for (int j = 0; j < OSL_FZP_L; j++) {
    if (live[j] && c.e[j] < a.e[j]) {
      take(&a, &c, j);
      s[j] = cs[j], z[j] = cz[j], h[j] = ch[j];
    }
    live[j] = 1;
  }
  for (int round = 0; round < OSL_FZP_ROUNDS; round++) {
    int any = 0;
    for (int j = 0; j < OSL_FZP_L; j++) {
      osl_qline l = {(double)bs, a.su[j], a.sx[j], a.suu[j], a.sux[j]};
      double fa, zr;
      live[j] = live[j] && onnxslim__qline_fit(&l, &fa, &zr) &&
                !in_type(fa, q->scale_type, &cs[j], &ch[j]) &&
                !in_type(zr, q->scale_type, &cz[j], &zh) && usable(q, cs[j], cz[j]);
      if (!live[j]) cs[j] = s[j], cz[j] = z[j], ch[j] = h[j];
      any |= live[j];
    }
    if (!any) break;
    pass(bs, q->qmax, vt, cs, cz, &c);
    for (int j = 0; j < OSL_FZP_L; j++) {
      /* not lower: the same codes again would give the same line */
      live[j] = live[j] && c.e[j] < a.e[j];
      if (live[j]) {
        take(&a, &c, j);
        s[j] = cs[j], z[j] = cz[j], h[j] = ch[j];
      }
    }
  }
  for (int j = 0; j < OSL_FZP_L; j++) sat[j] = (uint64_t)a.sat[j];
}

/* ---- the passes over a tensor -------------------------------------------
 * A strided tensor (OSL_QG_STRIDED: a [K, N] MatMul weight whose blocks run
 * along K, so that each block is a piece of a column) is read in stripes
 * of columns: the search's eight lanes are eight neighbouring columns'
 * blocks at the same rows, so that each row of the stripe is eight values
 * side by side, loaded as they are (no gather, each cache line read once
 * for two groups), and the data pass makes the codes of sixteen such
 * blocks a row at a time. A block's result does not depend on its lane or
 * its group: the same bytes in any order. Elements of a run that do not
 * fill a stripe (a run may start or end within a column) are gathered one
 * by one into their lanes, as the other geometries' blocks are. */

/* Source values n..n + w of row r of a strided tensor's [K, N] matrix, as
 * FLOAT, into out. */
static void row_values(const osl_qx *q, size_t r, size_t c, size_t w, float *out) {
  if (q->src == ONNXSLIM_DTYPE_FLOAT) memcpy(out, q->whole + (r * q->ncols + c) * 4, w * 4);
  else
    onnxslim_convert_f16_to_f32(
        out, (const uint16_t *)(const void *)(q->whole + (r * q->ncols + c) * 2), w);
}

/* A run of the first pass: what its groups share. */
typedef struct {
  const osl_qx *q;
  const uint8_t *src; /* the run's source elements */
  uint8_t *dst;       /* its output (OSL_QL_ZP: a byte per block) */
  size_t at, nb;      /* its first element in the whole tensor, blocks an element */
  osl_fzp_pass_fn pass;
  float *vb, *vt; /* OSL_FZP_L blocks, block by block and lane by lane */
  int8_t *qb;     /* a block's codes (the statistics) */
} osl_fzp_run;

/* Blocks gi[0..gn) (their indexes among the scales) of the run into the
 * lanes of r->vt, gathered one by one; the lanes from gn on are copies of
 * lane 0. */
static void lanes_gather(osl_fzp_run *r, const size_t *gi, size_t gn) {
  const osl_qx *q = r->q;
  size_t bs = q->bs;
  for (size_t j = 0; j < gn; j++) {
    size_t e = gi[j] / r->nb - r->at, b = gi[j] % r->nb;
    onnxslim__quant_gather(q, r->src + e * q->x.in_size, r->at + e, b, r->vb + j * bs);
  }
  for (size_t i = 0; i < bs; i++)
    for (size_t j = 0; j < OSL_FZP_L; j++)
      r->vt[i * OSL_FZP_L + j] = r->vb[(j < gn ? j : 0) * bs + i];
}

/* The search of the group of blocks gi[0..gn) whose values are in r->vt
 * (lanes_gather()), then each block's pair kept (keep_s, keep_z), its
 * statistics added and its 0 written. A NaN or an infinity, or a range
 * without a FLOAT16 scale, is an error, the lanes checked in order. */
static int group(osl_fzp_run *r, const size_t *gi, size_t gn) {
  const osl_qx *q = r->q;
  size_t bs = q->bs, ssz = q->scale_type == ONNXSLIM_DTYPE_FLOAT ? 4 : 2;
  const float *vt = r->vt;
  float s[OSL_FZP_L] = {0}, z[OSL_FZP_L] = {0};
  uint16_t h[OSL_FZP_L] = {0};
  uint64_t sat[OSL_FZP_L];
  /* every lane's range, and whether a value is NaN or infinite: |x| (its
   * bits without the sign) at or above those of infinity */
  float mn[OSL_FZP_L] = {0}, mx[OSL_FZP_L] = {0};
  uint32_t top[OSL_FZP_L] = {0};
  for (size_t i = 0; i < bs; i++)
    for (size_t j = 0; j < OSL_FZP_L; j++) {
      float v = vt[i * OSL_FZP_L + j];
      uint32_t b;
      memcpy(&b, &v, sizeof b);
      b &= 0x7fffffffu;
      mn[j] = v < mn[j] ? v : mn[j];
      mx[j] = v > mx[j] ? v : mx[j];
      top[j] = b > top[j] ? b : top[j];
    }
  for (size_t j = 0; j < gn; j++) {
    for (size_t i = 0; top[j] >= 0x7f800000u && i < bs; i++) {
      float v = vt[i * OSL_FZP_L + j];
      if (!(v <= FLT_MAX && v >= -FLT_MAX))
        return onnxslim__err(ONNXSLIM_EMODEL, "a %s value cannot be quantized",
                             v != v ? "NaN" : "infinite");
    }
    int zp = 0, rc = onnxslim__quant_asym_start(q, mn[j], mx[j], &s[j], &h[j], &zp);
    if (rc) return rc;
    z[j] = (float)zp;
  }
  for (size_t j = gn; j < OSL_FZP_L; j++) /* a short group: lane 0 again, unused */
    s[j] = s[0], z[j] = z[0], h[j] = h[0], mn[j] = mn[0], mx[j] = mx[0];
  search(q, r->pass, vt, mn, mx, s, h, z, sat);
  for (size_t j = 0; j < gn; j++) {
    if (q->acc) {
      float *v = r->vb + j * bs;
      for (size_t i = 0; i < bs; i++) v[i] = vt[i * OSL_FZP_L + j];
      codes(q, v, s[j], z[j], r->qb);
      onnxslim__quant_asym_stats(q->acc, v, r->qb, bs, s[j], z[j], sat[j]);
    }
    if (q->keep_s) memcpy(q->keep_s + gi[j] * ssz, ssz == 4 ? (void *)&s[j] : (void *)&h[j], ssz);
    if (q->keep_z && ssz == 4) {
      memcpy(q->keep_z + gi[j] * 4, &z[j], 4);
    } else if (q->keep_z) {
      uint16_t zh = onnxslim__quant_f16_nearest(z[j]);
      memcpy(q->keep_z + gi[j] * 2, &zh, 2);
    }
    r->dst[gi[j] - r->at * r->nb] = 0; /* the float ones are in keep_z */
  }
  return 0;
}

/* Stripes of this many columns: OSL_FZP_L columns a group (the search), two
 * groups a stripe (the data pass); OSL_FZP_WIDE columns (four cache lines
 * of FLOAT values a row) walked down together, a stripe or group after
 * the other at the same rows. */
#define OSL_FZP_STRIPE (2 * OSL_FZP_L)
#define OSL_FZP_WIDE (8 * OSL_FZP_L)

/* The first pass over elements at..at + n of a strided tensor: stripe by
 * stripe, block row by block row. */
static int strided_first(osl_fzp_run *r, size_t n) {
  const osl_qx *q = r->q;
  size_t kbn = q->kblocks, bs = q->bs, at = r->at;
  size_t c_end = (at + n + kbn - 1) / kbn, gi[OSL_FZP_L];
  int rc = 0;
  for (size_t c0 = at / kbn; c0 < c_end && !rc; c0 += OSL_FZP_WIDE)
    for (size_t kb = 0; kb < kbn && !rc; kb++)
      for (size_t g0 = c0; g0 < c0 + OSL_FZP_WIDE && g0 < c_end && !rc; g0 += OSL_FZP_L) {
        size_t gn = 0;
        for (size_t j = 0; j < OSL_FZP_L && g0 + j < c_end; j++) {
          size_t idx = (g0 + j) * kbn + kb;
          if (idx >= at && idx < at + n) gi[gn++] = idx;
        }
        if (!gn) continue;
        if (gn == OSL_FZP_L) /* columns g0 .. g0 + 7, whole */
          for (size_t i = 0; i < bs; i++)
            row_values(q, kb * bs + i, g0, OSL_FZP_L, r->vt + i * OSL_FZP_L);
        else lanes_gather(r, gi, gn);
        rc = group(r, gi, gn);
      }
  return rc;
}

/* The data pass's codes of a whole stripe: OSL_FZP_STRIPE blocks vt
 * (value i of lane j at vt[i * OSL_FZP_STRIPE + j]), lane j with the pair
 * ds[j] = s, dz[j] = z + 2 (as code_of() takes them), packed two a byte:
 * pk[t * OSL_FZP_STRIPE + j] holds lane j's codes of values 2t (low
 * nibble) and 2t + 1. The reference and, on x86-64, AVX-512 and AVX2, each
 * lane doing code_of()'s operations as pass_avx512() does them: the same
 * codes. */
typedef void (*osl_fzp_pack_fn)(size_t bs, int qmax, const float *vt, const double *ds,
                                const double *dz, int32_t *pk);

static void stripe_ref(size_t bs, int qmax, const float *vt, const double *ds, const double *dz,
                       int32_t *pk) {
  double top = qmax + 3.0;
  int hi = qmax + 2;
  for (size_t t = 0; t < bs / 2; t++)
    for (size_t j = 0; j < OSL_FZP_STRIPE; j++) {
      int u0, u1;
      code_of(vt[2 * t * OSL_FZP_STRIPE + j], ds[j], dz[j], top, hi, &u0);
      code_of(vt[(2 * t + 1) * OSL_FZP_STRIPE + j], ds[j], dz[j], top, hi, &u1);
      pk[t * OSL_FZP_STRIPE + j] = (int32_t)((u0 & 15) | (u1 & 15) << 4);
    }
}

#if OSL_FZP_X86
#  define OSL_TA512 __attribute__((target("avx512f,avx512vl,avx512bw,avx512dq")))
/* One value a lane of code_of(), 8 lanes: the code minus 2 plus 2, in double. */
OSL_TA512 static inline __m512d code8(__m512d dx, __m512d ds, __m512d dz, __m512d top, __m512d hi) {
  __m512d t = _mm512_add_pd(_mm512_div_pd(dx, ds), dz);
  t = _mm512_min_pd(_mm512_max_pd(t, _mm512_set1_pd(1.0)), top);
  __m512d r = _mm512_roundscale_pd(t, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  return _mm512_min_pd(_mm512_max_pd(r, _mm512_set1_pd(2.0)), hi);
}

OSL_TA512 static void stripe_avx512(size_t bs, int qmax, const float *vt, const double *ds,
                                    const double *dz, int32_t *pk) {
  __m512d top = _mm512_set1_pd(qmax + 3.0), hi = _mm512_set1_pd(qmax + 2.0);
  /* u0 + 16 u1 = (c0 - 2) + 16 (c1 - 2), exact */
  __m512d off = _mm512_set1_pd(-34.0), sixteen = _mm512_set1_pd(16.0);
  for (size_t h = 0; h < OSL_FZP_STRIPE; h += 8) {
    __m512d s = _mm512_loadu_pd(ds + h), z = _mm512_loadu_pd(dz + h);
    for (size_t t = 0; t < bs / 2; t++) {
      const float *x = vt + 2 * t * OSL_FZP_STRIPE + h;
      __m512d c0 = code8(_mm512_cvtps_pd(_mm256_loadu_ps(x)), s, z, top, hi);
      __m512d c1 = code8(_mm512_cvtps_pd(_mm256_loadu_ps(x + OSL_FZP_STRIPE)), s, z, top, hi);
      __m512d b = _mm512_add_pd(_mm512_add_pd(c0, _mm512_mul_pd(c1, sixteen)), off);
      _mm256_storeu_si256((__m256i *)(void *)(pk + t * OSL_FZP_STRIPE + h), _mm512_cvtpd_epi32(b));
    }
  }
}
#  undef OSL_TA512

__attribute__((target("avx2"))) static inline __m256d code4(__m256d dx, __m256d ds, __m256d dz,
                                                            __m256d top, __m256d hi) {
  __m256d t = _mm256_add_pd(_mm256_div_pd(dx, ds), dz);
  t = _mm256_min_pd(_mm256_max_pd(t, _mm256_set1_pd(1.0)), top);
  __m256d r = _mm256_round_pd(t, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  return _mm256_min_pd(_mm256_max_pd(r, _mm256_set1_pd(2.0)), hi);
}

__attribute__((target("avx2"))) static void stripe_avx2(size_t bs, int qmax, const float *vt,
                                                        const double *ds, const double *dz,
                                                        int32_t *pk) {
  __m256d top = _mm256_set1_pd(qmax + 3.0), hi = _mm256_set1_pd(qmax + 2.0);
  __m256d off = _mm256_set1_pd(-34.0), sixteen = _mm256_set1_pd(16.0);
  for (size_t h = 0; h < OSL_FZP_STRIPE; h += 4) {
    __m256d s = _mm256_loadu_pd(ds + h), z = _mm256_loadu_pd(dz + h);
    for (size_t t = 0; t < bs / 2; t++) {
      const float *x = vt + 2 * t * OSL_FZP_STRIPE + h;
      __m256d c0 = code4(_mm256_cvtps_pd(_mm_loadu_ps(x)), s, z, top, hi);
      __m256d c1 = code4(_mm256_cvtps_pd(_mm_loadu_ps(x + OSL_FZP_STRIPE)), s, z, top, hi);
      __m256d b = _mm256_add_pd(_mm256_add_pd(c0, _mm256_mul_pd(c1, sixteen)), off);
      _mm_storeu_si128((__m128i *)(void *)(pk + t * OSL_FZP_STRIPE + h), _mm256_cvtpd_epi32(b));
    }
  }
}
#endif

static osl_fzp_pack_fn pick_stripe(void) {
#if OSL_FZP_X86
  int l = level();
  if (l == 2) return stripe_avx512;
  if (l == 1) return stripe_avx2;
#endif
  return stripe_ref;
}

/* The kept pair of block gi: its scale's value *s and zero point's *z. */
static void given_pair(const osl_qx *q, size_t gi, float *s, float *z) {
  if (q->scale_type == ONNXSLIM_DTYPE_FLOAT) {
    memcpy(s, q->given_s + gi * 4, 4);
    memcpy(z, q->given_z + gi * 4, 4);
  } else {
    uint16_t hs, hz;
    memcpy(&hs, q->given_s + gi * 2, 2);
    memcpy(&hz, q->given_z + gi * 2, 2);
    *s = onnxslim__quant_f16_value(hs);
    *z = onnxslim__quant_f16_value(hz);
  }
}

/* The data pass over elements at..at + n of a strided tensor stored as
 * nibbles (OSL_QL_I4 or _U4: the codes 0..qmax as they are, two a byte,
 * low nibble first) into dst: whole stripes a row at a time, the other
 * blocks one by one, each as onnxslim__quant_qx_run() makes it (the codes
 * of the kept pair, packed). 0, or ONNXSLIM_ENOMEM. */
static int strided_data(const osl_qx *q, size_t at, size_t n, uint8_t *dst) {
  size_t kbn = q->kblocks, bs = q->bs, c_end = (at + n + kbn - 1) / kbn, osz = q->x.out_size;
  float *vt = malloc(OSL_FZP_STRIPE * bs * sizeof *vt);
  int32_t *pk = malloc(OSL_FZP_STRIPE * (bs / 2 ? bs / 2 : 1) * sizeof *pk);
  int8_t *qb = malloc(bs);
  osl_fzp_pack_fn stripe = pick_stripe();
  if (!vt || !pk || !qb) {
    free(vt);
    free(pk);
    free(qb);
    return onnxslim__err_nomem(NULL);
  }
  for (size_t w0 = at / kbn; w0 < c_end; w0 += OSL_FZP_WIDE)
    for (size_t kb = 0; kb < kbn; kb++)
      for (size_t c0 = w0; c0 < w0 + OSL_FZP_WIDE && c0 < c_end; c0 += OSL_FZP_STRIPE) {
        size_t idx0 = c0 * kbn + kb;
        if (c0 + OSL_FZP_STRIPE <= c_end && idx0 >= at &&
            idx0 + (OSL_FZP_STRIPE - 1) * kbn < at + n) { /* a whole stripe */
          double ds[OSL_FZP_STRIPE], dz[OSL_FZP_STRIPE];
          for (size_t j = 0; j < OSL_FZP_STRIPE; j++) {
            float s, z;
            given_pair(q, idx0 + j * kbn, &s, &z);
            ds[j] = s;
            dz[j] = (double)z + 2.0;
          }
          for (size_t i = 0; i < bs; i++)
            row_values(q, kb * bs + i, c0, OSL_FZP_STRIPE, vt + i * OSL_FZP_STRIPE);
          stripe(bs, q->qmax, vt, ds, dz, pk);
          for (size_t j = 0; j < OSL_FZP_STRIPE; j++) {
            uint8_t *out = dst + (idx0 + j * kbn - at) * osz;
            for (size_t t = 0; t < bs / 2; t++) out[t] = (uint8_t)pk[t * OSL_FZP_STRIPE + j];
          }
          continue;
        }
        for (size_t j = 0; j < OSL_FZP_STRIPE && c0 + j < c_end; j++) {
          size_t idx = idx0 + j * kbn;
          if (idx < at || idx >= at + n) continue;
          float s, z;
          given_pair(q, idx, &s, &z);
          onnxslim__quant_gather(q, NULL, idx, 0, vt);
          codes(q, vt, s, z, qb);
          uint8_t *out = dst + (idx - at) * osz;
          for (size_t t = 0; t < bs / 2; t++)
            out[t] =
                (uint8_t)(((unsigned)qb[2 * t] & 15u) | (((unsigned)qb[2 * t + 1] & 15u) << 4));
        }
      }
  free(vt);
  free(pk);
  free(qb);
  return 0;
}

int onnxslim__quant_fzp_run(const osl_xform *x, size_t first, const uint8_t *src, size_t n,
                            uint8_t *dst) {
  const osl_qx *q = (const osl_qx *)x;
  size_t at = first + q->base; /* this run's first element in the whole tensor */
  int rc = 0;
  if (q->given_s && q->given_z) { /* the data pass */
    if (q->geom != OSL_QG_STRIDED || q->acc || q->keep_s || q->keep_z || q->bs % 2 ||
        (q->layout != OSL_QL_I4 && q->layout != OSL_QL_U4))
      return onnxslim__quant_qx_run(x, first, src, n, dst);
    rc = strided_data(q, at, n, dst);
  } else {
    if (q->layout != OSL_QL_ZP)
      return onnxslim__err(ONNXSLIM_EINVAL,
                           "float zero points: a data pass without the kept scales");
    size_t bs = q->bs, nb = q->geom == OSL_QG_COLS ? q->ncols : 1, total = n * nb;
    osl_fzp_run r = {q, src, dst, at, nb, pick_pass(), NULL, NULL, NULL};
    r.vb = malloc(2 * OSL_FZP_L * bs * sizeof *r.vb);
    r.qb = malloc(bs);
    rc = r.vb && r.qb ? 0 : onnxslim__err_nomem(NULL);
    if (!rc) r.vt = r.vb + OSL_FZP_L * bs;
    if (!rc && q->geom == OSL_QG_STRIDED) {
      rc = strided_first(&r, n);
    } else {
      size_t gi[OSL_FZP_L];
      for (size_t k0 = 0; k0 < total && !rc; k0 += OSL_FZP_L) {
        size_t gn = total - k0 < OSL_FZP_L ? total - k0 : OSL_FZP_L;
        for (size_t j = 0; j < gn; j++) gi[j] = at * nb + k0 + j;
        lanes_gather(&r, gi, gn);
        rc = group(&r, gi, gn);
      }
    }
    free(r.vb);
    free(r.qb);
  }
  /* a strided pass touches the whole matrix in each chunk, so the chunks'
   * own releases cannot keep its pages out: they go once it is done */
  if (!rc && q->geom == OSL_QG_STRIDED && q->model && at + n == q->base + x->count)
    onnxslim__release(q->model, x->src, x->count * x->in_size);
  return rc;
}
