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

/* The pass for this CPU and the conversions' path (LIBONNXSLIM_KERNELS):
 * AVX-512 on the AVX-512 path, AVX2 on the AVX2 one (or on the AVX-512
 * path of a CPU without AVX-512 DQ), else the reference. */
static osl_fzp_pass_fn pick_pass(void) {
#if OSL_FZP_X86
  static atomic_int level = -1; /* every thread finds the same */
  int l = atomic_load_explicit(&level, memory_order_relaxed);
  if (l < 0) atomic_store_explicit(&level, l = x86_level(), memory_order_relaxed);
  int path = onnxslim__convert_path();
  if (path == OSL_PATH_AVX512 && l >= 2) return pass_avx512;
  if ((path == OSL_PATH_AVX512 || path == OSL_PATH_AVX2) && l >= 1) return pass_avx2;
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

/* The search of OSL_FZP_L blocks vt (as pass_body()), from each lane's
 * integer start s[j] (h[j]), z[j]: the better start, then up to
 * OSL_FZP_ROUNDS rounds of alternating least squares, each lane stopping
 * at its first round that does not lower its error; the lanes' pairs
 * replaced by the best found, sat[j] their clamped counts. */
static void search(const osl_qx *q, osl_fzp_pass_fn pass, const float *vt, float *s, uint16_t *h,
                   float *z, uint64_t *sat) {
  size_t bs = q->bs;
  float mn[OSL_FZP_L], mx[OSL_FZP_L], cs[OSL_FZP_L], cz[OSL_FZP_L];
  uint16_t ch[OSL_FZP_L] = {0}, zh;
  int live[OSL_FZP_L];
  for (int j = 0; j < OSL_FZP_L; j++) mn[j] = mx[j] = 0;
  for (size_t i = 0; i < bs; i++)
    for (int j = 0; j < OSL_FZP_L; j++) {
      float x = vt[i * OSL_FZP_L + j];
      mn[j] = x < mn[j] ? x : mn[j];
      mx[j] = x > mx[j] ? x : mx[j];
    }
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

int onnxslim__quant_fzp_run(const osl_xform *x, size_t first, const uint8_t *src, size_t n,
                            uint8_t *dst) {
  const osl_qx *q = (const osl_qx *)x;
  if (q->given_s && q->given_z) return onnxslim__quant_qx_run(x, first, src, n, dst);
  if (q->layout != OSL_QL_ZP)
    return onnxslim__err(ONNXSLIM_EINVAL, "float zero points: a data pass without the kept scales");
  size_t bs = q->bs, nb = q->geom == OSL_QG_COLS ? q->ncols : 1, total = n * nb;
  size_t ssz = q->scale_type == ONNXSLIM_DTYPE_FLOAT ? 4 : 2;
  size_t at = first + q->base; /* this run's first element in the whole tensor */
  float *vb = malloc(2 * OSL_FZP_L * bs * sizeof *vb), *vt = vb + OSL_FZP_L * bs;
  int8_t *qb = malloc(bs);
  osl_fzp_pass_fn pass = pick_pass();
  osl_qacc *acc = q->acc;
  int rc = vb && qb ? 0 : onnxslim__err_nomem(NULL);
  for (size_t k0 = 0; k0 < total && !rc; k0 += OSL_FZP_L) {
    size_t gn = total - k0 < OSL_FZP_L ? total - k0 : OSL_FZP_L;
    float s[OSL_FZP_L], z[OSL_FZP_L];
    uint16_t h[OSL_FZP_L] = {0};
    uint64_t sat[OSL_FZP_L];
    for (size_t j = 0; j < gn && !rc; j++) {
      size_t e = (k0 + j) / nb, b = (k0 + j) % nb;
      float *v = vb + j * bs;
      onnxslim__quant_gather(q, src + e * x->in_size, at + e, b, v);
      for (size_t i = 0; i < bs; i++)
        if (!(v[i] <= FLT_MAX && v[i] >= -FLT_MAX)) {
          rc = onnxslim__err(ONNXSLIM_EMODEL, "a %s value cannot be quantized",
                             v[i] != v[i] ? "NaN" : "infinite");
          break;
        }
      int zp = 0;
      if (!rc) rc = onnxslim__quant_asym_start(q, v, &s[j], &h[j], &zp);
      z[j] = (float)zp;
    }
    if (rc) break;
    for (size_t j = gn; j < OSL_FZP_L; j++) { /* a short group: lane 0 again, unused */
      memcpy(vb + j * bs, vb, bs * sizeof *vb);
      s[j] = s[0], z[j] = z[0], h[j] = h[0];
    }
    for (size_t i = 0; i < bs; i++)
      for (size_t j = 0; j < OSL_FZP_L; j++) vt[i * OSL_FZP_L + j] = vb[j * bs + i];
    search(q, pass, vt, s, h, z, sat);
    for (size_t j = 0; j < gn; j++) {
      size_t e = (k0 + j) / nb, b = (k0 + j) % nb, gi = (at + e) * nb + b;
      if (acc) {
        codes(q, vb + j * bs, s[j], z[j], qb);
        onnxslim__quant_asym_stats(acc, vb + j * bs, qb, bs, s[j], z[j], sat[j]);
      }
      if (q->keep_s) memcpy(q->keep_s + gi * ssz, ssz == 4 ? (void *)&s[j] : (void *)&h[j], ssz);
      if (q->keep_z) {
        uint16_t zh = onnxslim__quant_f16_nearest(z[j]);
        memcpy(q->keep_z + gi * ssz, ssz == 4 ? (void *)&z[j] : (void *)&zh, ssz);
      }
      dst[e * x->out_size + b] = 0; /* the float ones are in keep_z */
    }
  }
  free(vb);
  free(qb);
  /* a strided pass touches the whole matrix in each chunk, so the chunks'
   * own releases cannot keep its pages out: they go once it is done */
  if (!rc && q->geom == OSL_QG_STRIDED && q->model && at + n == q->base + x->count)
    onnxslim__release(q->model, x->src, x->count * x->in_size);
  return rc;
}
