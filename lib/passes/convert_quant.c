/*
 * libonnxslim - quantizing embedding tables (the tensors read as input 0 of
 * Gathers) to INT8 or INT4, symmetric, one scale per block of a row, and
 * fixing the graph up so that only the rows read are dequantized: standard
 * ops (Gather + Gather of the scales + DequantizeLinear, or Cast and Mul)
 * or onnxruntime's com.microsoft.GatherBlockQuantized. docs/quantization.md
 * gives the method.
 *
 * As for the floating-point conversions (convert.c), the quantized table
 * and its scales are pending transforms (osl_xform) of the source bytes,
 * one element per block: they run chunk by chunk while the model is saved,
 * so no quantized copy is ever held. A first pass over the source (chunked
 * too) checks every value is finite and fills the report.
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

#include "convert_quant.h"

/* ---- the block kernel ---------------------------------------------------- */

/* Layouts of a quantized block's bytes. */
enum {
  OSL_QL_I8,    /* one signed byte per value (INT8; INT4 values unpacked) */
  OSL_QL_U8,    /* one byte per value, q + 128 (GatherBlockQuantized bits 8) */
  OSL_QL_I4,    /* two values a byte, q & 15, the first in the low nibble (INT4) */
  OSL_QL_U4,    /* two values a byte, q + 8, low nibble first (GBQ bits 4) */
  OSL_QL_SCALES /* the block's scale (FLOAT or FLOAT16) */
};

/* Statistics of a validation pass, in block order. */
typedef struct {
  onnxslim_quant_stats q;
  onnxslim_convert_stats s;
  uint64_t blocks_per_row, in_row;
  double err2, norm2; /* of the row so far */
} osl_qacc;

/* Where an element's blocks are in the source. */
enum {
  OSL_QG_ROW,    /* an element is one block of consecutive values (a table's row) */
  OSL_QG_COLS,   /* an element is bs consecutive rows of ncols values; block j is
                    column j (a MatMul weight [K, N] in blocks along K, kept in place) */
  OSL_QG_STRIDED /* element i is block i % kblocks of column i / kblocks of a [K, ncols]
                    matrix (MatMulNBits' transposed layout) */
};

typedef struct {
  osl_xform x;
  int geom;                    /* OSL_QG_* */
  size_t ncols, kblocks;       /* OSL_QG_COLS and _STRIDED */
  const onnxslim_model *model; /* _STRIDED: releases the source's pages at its end */
  int32_t src;                 /* FLOAT or FLOAT16 */
  int32_t scale_type;          /* FLOAT or FLOAT16 */
  int qmax;                    /* 127 or 7 */
  int layout;                  /* OSL_QL_* */
  size_t bs;                   /* values per block */
  osl_qacc *acc;               /* the validation pass adds to it (else NULL) */
} osl_qx;

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

/* sqrt of v >= 0 (Newton's iteration; for the report only). */
static double dsqrt(double v) {
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
    uint16_t b;
    onnxslim_convert_f32_to_f16(&b, &v, 1, 0, NULL);
    if (b == 0) b = 1; /* the smallest subnormal */
    for (;;) {
      if ((b & 0x7c00) == 0x7c00) return -1;
      onnxslim_convert_f16_to_f32(&v, &b, 1);
      if (!(amax > 0) || a <= qm * v) break;
      b++;
    }
    *h = b;
  }
  *s = v;
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
  return 0;
}

/* One value of type `type` at p. */
static float load_one(const uint8_t *p, int32_t type) {
  float f;
  if (type == ONNXSLIM_DTYPE_FLOAT) memcpy(&f, p, sizeof f);
  else onnxslim_convert_f16_to_f32(&f, (const uint16_t *)(const void *)p, 1);
  return f;
}

/* Gathers the values of block b of element `elem` (index `index` in the
 * transform) into v[0..bs). */
static void gather_block(const osl_qx *q, const uint8_t *elem, size_t index, size_t b, float *v) {
  size_t bs = q->bs, esz = q->src == ONNXSLIM_DTYPE_FLOAT ? 4 : 2;
  if (q->geom == OSL_QG_ROW) {
    load_block(v, elem, bs, q->src);
  } else if (q->geom == OSL_QG_COLS) { /* column b of bs rows of ncols */
    for (size_t t = 0; t < bs; t++) v[t] = load_one(elem + (t * q->ncols + b) * esz, q->src);
  } else { /* (column n, block kb) of a [K, ncols] matrix */
    size_t n = index / q->kblocks, kb = index % q->kblocks;
    const uint8_t *base = q->x.src + (kb * bs * q->ncols + n) * esz;
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

/* Blocks k0 .. k0 + gn - 1 of this run (block k: block k % nb of element
 * k / nb) into g: block_scale_fast() of each. */
static void prepare(const osl_qx *q, size_t first, const uint8_t *src, size_t nb, size_t k0,
                    size_t gn, osl_qgroup *g) {
  size_t bs = q->bs;
  for (size_t j = 0; j < gn; j++) {
    size_t k = k0 + j, e = k / nb;
    float *v = g->v + j * bs;
    gather_block(q, src + e * q->x.in_size, first + e, k % nb, v);
    uint32_t m = max_bits(v, bs);
    memcpy(&g->amax[j], &m, sizeof m);
    g->bad[j] = m >= 0x7f800000u;
  }
  /* block_scale_fast() without branches (a quotient of 0 becomes the
   * smallest float through the step up, as amax > 0 * qmax) */
  float qf = (float)q->qmax;
  double qd = q->qmax;
  uint8_t *odd = g->bad + g->cap; /* blocks left to block_scale_fast() */
  if (q->scale_type == ONNXSLIM_DTYPE_FLOAT) {
    for (size_t j = 0; j < gn; j++) {
      float a = g->amax[j], v = a / qf;
      uint32_t u;
      memcpy(&u, &v, sizeof u);
      u += (double)a > qd * (double)v;
      u = a > 0 ? u : 0x3f800000u;
      memcpy(&g->s[j], &u, sizeof u);
    }
    return;
  }
  unsigned any = 0;
  for (size_t j = 0; j < gn; j++) {
    float a = g->amax[j], v = a / qf;
    uint32_t u;
    memcpy(&u, &v, sizeof u);
    u += (double)a > qd * (double)v;
    u = a > 0 ? u : 0x3f800000u;
    /* ceil_f16() where the result is a normal FLOAT16 */
    uint32_t b = ((u - 0x38000000u) >> 13) + ((u & 0x1fffu) != 0);
    uint32_t fb = (b << 13) + 0x38000000u;
    odd[j] = (uint8_t)((u < 0x38800000u) | (b >= 0x7c00u));
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

static int qx_run(const osl_xform *x, size_t first, const uint8_t *src, size_t n, uint8_t *dst) {
  const osl_qx *q = (const osl_qx *)x;
  size_t bs = q->bs, nb = q->geom == OSL_QG_COLS ? q->ncols : 1, total = n * nb;
  int rne_default = rounds_to_nearest(), fast = env_is_default();
  osl_qgroup g = {0};
  g.cap = OSL_QGROUP_VALUES / bs ? OSL_QGROUP_VALUES / bs : 1;
  float *vbuf = malloc((fast ? g.cap : 1) * bs * sizeof *vbuf);
  int8_t *qv = malloc(nb * bs), *kq = malloc(bs);
  if (fast) {
    g.amax = malloc(g.cap * sizeof *g.amax);
    g.s = malloc(g.cap * sizeof *g.s);
    g.h = malloc(g.cap * sizeof *g.h);
    g.bad = malloc(2 * g.cap);
  }
  g.v = vbuf;
  int rc = 0;
  if (!vbuf || !qv || !kq || (fast && (!g.amax || !g.s || !g.h || !g.bad)))
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
        gather_block(q, src + e * x->in_size, first + e, b, v);
        uint32_t bmax = max_bits(v, bs);
        memcpy(&amax, &bmax, sizeof amax);
        bad = bmax >= 0x7f800000u ? 1 : block_scale(amax, q->qmax, q->scale_type, &s, &h) ? 2 : 0;
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
      if (bad) {
        rc = onnxslim__err(ONNXSLIM_EMODEL,
                           "a block's largest magnitude (%g) needs a scale beyond FLOAT16's "
                           "range; use FLOAT scales",
                           (double)amax);
        break;
      }
      if (q->layout == OSL_QL_SCALES) {
        if (q->scale_type == ONNXSLIM_DTYPE_FLOAT) memcpy(out + b * 4, &s, sizeof s);
        else memcpy(out + b * 2, &h, sizeof h);
        continue;
      }
      int8_t *qb = q->geom == OSL_QG_COLS ? kq : qv;
      quantize(v, bs, s, qb, fast, rne_default);
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
      if (acc) {
        acc->s.count += bs;
        acc->q.blocks++;
        if (amax > 0) { /* the range of the scales of blocks not all zero */
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
    }
    if (rc || q->layout == OSL_QL_SCALES) continue;
    pack(q->layout, qv, nb * bs, out);
  }
  free(vbuf);
  free(qv);
  free(kq);
  free(g.amax);
  free(g.s);
  free(g.h);
  free(g.bad);
  /* a strided pass touches the whole matrix in each chunk, so the chunks'
   * own releases cannot keep its pages out: they go once it is done */
  if (!rc && q->geom == OSL_QG_STRIDED && q->model && first + n == x->count)
    onnxslim__release(q->model, x->src, x->count * x->in_size);
  return rc;
}

/* ---- selection ----------------------------------------------------------- */

typedef struct {
  onnxslim_tensor *t;
  const char *name;
  int mm; /* a MatMul weight [K, N] (rows K, cols N), else an embedding table */
  int32_t from;
  int64_t rows, cols;
  uint64_t bs;
  const uint8_t *data;
  size_t size;
  osl_report_entry *e;
  osl_qacc acc;
  const uint8_t *scales; /* computed by the first pass (small scales), else NULL */
} osl_qcand;

static int is_onnx(const onnxslim_node *n, const char *op) {
  const char *d = onnxslim_node_domain(n);
  return strcmp(onnxslim_node_op_type(n), op) == 0 && (!d[0] || strcmp(d, "ai.onnx") == 0);
}

/* Is initializer t of graph g read only as input `pos` (of two) of nodes of
 * op_type `op` (Gathers: along axis 0), rank 2, FLOAT or FLOAT16, and no
 * graph input or output? pos 0 of Gather: an embedding table; pos 1 of
 * MatMul: a weight. */
static int sole_operand(const onnxslim_graph *g, const onnxslim_tensor *t, const char *op,
                        size_t pos) {
  const char *name = onnxslim_tensor_name(t);
  int32_t dt = onnxslim_tensor_dtype(t);
  if (onnxslim_tensor_rank(t) != 2 || (dt != ONNXSLIM_DTYPE_FLOAT && dt != ONNXSLIM_DTYPE_FLOAT16))
    return 0;
  size_t nc = onnxslim_graph_consumer_count(g, name);
  if (!nc) return 0;
  for (size_t i = 0; i < nc; i++) {
    onnxslim_node *c = onnxslim_graph_consumer(g, name, i);
    if (!is_onnx(c, op) || onnxslim_node_input_count(c) != 2 ||
        strcmp(onnxslim_node_input(c, pos), name) != 0 ||
        strcmp(onnxslim_node_input(c, 1 - pos), name) == 0 || onnxslim_node_output_count(c) != 1)
      return 0;
    if (strcmp(op, "Gather") == 0) {
      onnxslim_attr *a = onnxslim_node_find_attr(c, "axis");
      int64_t axis = 0;
      if (a && onnxslim_attr_int(a, &axis)) return 0;
      if (axis != 0 && axis != -2) return 0;
    }
  }
  for (size_t i = 0; i < onnxslim_graph_input_count(g); i++)
    if (strcmp(onnxslim_value_info_name(onnxslim_graph_input(g, i)), name) == 0) return 0;
  for (size_t i = 0; i < onnxslim_graph_output_count(g); i++)
    if (strcmp(onnxslim_value_info_name(onnxslim_graph_output(g, i)), name) == 0) return 0;
  return 1;
}

static int matches_any(const onnxslim_graph *g, const char *const *specs, size_t n,
                       const char *value, unsigned char *hit) {
  int any = 0;
  for (size_t i = 0; i < n; i++)
    if (onnxslim__convert_spec_matches(g, specs[i], value)) {
      any = 1;
      if (hit) hit[i] = 1;
    }
  return any;
}

static int64_t default_opset(const onnxslim_model *m) {
  size_t n = onnxslim_model_opset_count(m);
  for (size_t i = 0; i < n; i++) {
    const char *d = NULL;
    int64_t v = 0;
    if (onnxslim_model_opset(m, i, &d, &v) == 0 && (!d[0] || strcmp(d, "ai.onnx") == 0)) return v;
  }
  return n == 0 && onnxslim_model_ir_version(m) < 3 ? 1 : 0;
}

/* ---- the plan ------------------------------------------------------------- */

/* How the tensors of one kind (tables, MatMul weights) are written and read. */
typedef struct {
  int rc;         /* 0, or the error the opset or options give for this kind */
  int ort;        /* GatherBlockQuantized / MatMulNBits */
  int bits;       /* 8 or 4 */
  int dq;         /* tables, standard: DequantizeLinear (opset >= 21), else Cast and Mul */
  int dq_table;   /* DequantizeLinear of the whole tensor before its consumers */
  int per_axis;   /* MatMul weights below opset 21: DequantizeLinear per column */
  int layout;     /* of the quantized tensor */
  int32_t stored; /* its new type */
  int32_t to;     /* the report's: INT8 or INT4 */
  int32_t scale_type;
} osl_qplan;

static int plan_common(const onnxslim_convert_options *o, osl_qplan *p) {
  memset(p, 0, sizeof *p);
  p->to = o->to;
  p->bits = o->to == ONNXSLIM_DTYPE_INT4 ? 4 : 8;
  p->ort = o->format == ONNXSLIM_QUANT_FORMAT_ORT;
  p->scale_type = o->scale_type;
  if (p->ort) {
    p->layout = p->bits == 8 ? OSL_QL_U8 : OSL_QL_U4;
    p->stored = ONNXSLIM_DTYPE_UINT8;
  }
  return 0;
}

static int int4_refused(int64_t opset) {
  return onnxslim__err(ONNXSLIM_EMODEL,
                       "INT4 tensors need opset 21 or later; the model imports ai.onnx opset "
                       "%lld (ONNXSLIM_QUANT_ALLOW_UNPACKED, --allow-unpacked: store the "
                       "4-bit values one per byte as INT8)",
                       (long long)opset);
}

/* Embedding tables. */
static int plan_tables(const onnxslim_model *m, const onnxslim_convert_options *o, osl_qplan *p) {
  plan_common(o, p);
  int64_t opset = default_opset(m);
  if (p->ort) return 0;
  if (p->bits == 8 || opset < 21) {
    if (p->bits == 4 && !(o->quant_flags & ONNXSLIM_QUANT_ALLOW_UNPACKED))
      return int4_refused(opset);
    p->layout = OSL_QL_I8;
    p->stored = ONNXSLIM_DTYPE_INT8;
    p->dq = opset >= 21;
    if (!p->dq && opset < 7)
      return onnxslim__err(ONNXSLIM_EMODEL,
                           "dequantizing with Cast and Mul needs opset 7 or later (broadcasting); "
                           "the model imports ai.onnx opset %lld",
                           (long long)opset);
    if (!p->dq && o->block_size)
      return onnxslim__err(ONNXSLIM_EMODEL,
                           "blocks of %llu values need DequantizeLinear with block_size (opset "
                           "21); the model imports ai.onnx opset %lld: quantize per row "
                           "(block size 0) or use the onnxruntime format",
                           (unsigned long long)o->block_size, (long long)opset);
    return 0;
  }
  /* INT4 at opset >= 21: Gather takes no INT4 (and onnxruntime's Gather
   * neither), so the table is dequantized whole and then gathered */
  p->layout = OSL_QL_I4;
  p->stored = ONNXSLIM_DTYPE_INT4;
  p->dq_table = 1;
  return 0;
}

/* MatMul weights: DequantizeLinear before the MatMul (blocked along K at
 * opset 21, per column from 13), or MatMulNBits. */
static int plan_weights(const onnxslim_model *m, const onnxslim_convert_options *o, osl_qplan *p) {
  plan_common(o, p);
  int64_t opset = default_opset(m);
  if (p->ort) return 0;
  p->dq_table = 1;
  if (opset >= 21) {
    p->layout = p->bits == 8 ? OSL_QL_I8 : OSL_QL_I4;
    p->stored = p->bits == 8 ? ONNXSLIM_DTYPE_INT8 : ONNXSLIM_DTYPE_INT4;
    return 0;
  }
  if (opset < 13)
    return onnxslim__err(ONNXSLIM_EMODEL,
                         "a MatMul weight is dequantized by DequantizeLinear per column, which "
                         "needs opset 13 or later; the model imports ai.onnx opset %lld",
                         (long long)opset);
  if (p->bits == 4 && !(o->quant_flags & ONNXSLIM_QUANT_ALLOW_UNPACKED)) return int4_refused(opset);
  if (o->block_size)
    return onnxslim__err(ONNXSLIM_EMODEL,
                         "blocks of %llu values need DequantizeLinear with block_size (opset 21); "
                         "the model imports ai.onnx opset %lld: quantize per column (block size "
                         "0) or use the onnxruntime format",
                         (unsigned long long)o->block_size, (long long)opset);
  p->layout = OSL_QL_I8;
  p->stored = ONNXSLIM_DTYPE_INT8;
  p->per_axis = 1;
  return 0;
}

/* ---- the graph ------------------------------------------------------------ */

static int fresh(onnxslim_model *m, const char *base, const char *suffix, const char **out) {
  char *buf = malloc(strlen(base) + strlen(suffix) + 1);
  if (!buf) return onnxslim__err_nomem(NULL);
  sprintf(buf, "%s%s", base, suffix);
  int rc = onnxslim_model_unique_name(m, buf, out);
  free(buf);
  return rc;
}

/* Adds node op (ai.onnx) right after `anchor` (at the start when NULL). */
static int add_after(onnxslim_graph *g, onnxslim_node **anchor, const char *op, const char *domain,
                     const char *const *in, size_t nin, const char *out) {
  osl_msg *n = NULL;
  int rc;
  if (*anchor)
    rc = onnxslim__graph_add_node_near((osl_msg *)g, (osl_msg *)*anchor, 1, op, domain, NULL, in,
                                       nin, &out, 1, &n);
  else rc = onnxslim_graph_add_node(g, 0, op, domain, NULL, in, nin, &out, 1, (onnxslim_node **)&n);
  if (!rc) *anchor = (onnxslim_node *)n;
  return rc;
}

/* Rewrites MatMul node mn, which reads weight c (now quantized, scales in
 * `scales`), as a MatMulNBits. */
static int fix_matmul(onnxslim_node *mn, const osl_qcand *c, const osl_qplan *p,
                      const char *scales) {
  char *a = strdup(onnxslim_node_input(mn, 0));
  if (!a) return onnxslim__err_nomem(NULL);
  const char *in[3] = {a, c->name, scales};
  int rc = onnxslim_node_set_op_type(mn, "MatMulNBits");
  if (!rc) rc = onnxslim_node_set_domain(mn, "com.microsoft");
  if (!rc) rc = onnxslim_node_set_inputs(mn, in, 3);
  if (!rc) rc = onnxslim_node_set_attr_int(mn, "K", c->rows);
  if (!rc) rc = onnxslim_node_set_attr_int(mn, "N", c->cols);
  if (!rc) rc = onnxslim_node_set_attr_int(mn, "bits", p->bits);
  if (!rc) rc = onnxslim_node_set_attr_int(mn, "block_size", (int64_t)c->bs);
  free(a);
  return rc;
}

/* Rewrites Gather node gn, which reads table c (now quantized, scales in
 * `scales`): see the file's head. */
static int fix_gather(onnxslim_model *m, onnxslim_graph *g, onnxslim_node *gn, const osl_qcand *c,
                      const osl_qplan *p, const char *scales, const char *table_dq) {
  const char *y = onnxslim_node_output(gn, 0), *idx = onnxslim_node_input(gn, 1);
  char *yname = strdup(y), *iname = strdup(idx);
  int rc = 0;
  if (!yname || !iname) {
    rc = onnxslim__err_nomem(NULL);
    goto out;
  }
  int recast = p->scale_type != c->from;
  const char *deq = yname; /* the dequantized rows, in the scales' type */
  if (recast && (rc = fresh(m, yname, "_deq", &deq))) goto out;
  onnxslim_node *at = gn;
  if (p->ort) {
    const char *in[3] = {c->name, iname, scales};
    rc = onnxslim_node_set_op_type(gn, "GatherBlockQuantized");
    if (!rc) rc = onnxslim_node_set_domain(gn, "com.microsoft");
    if (!rc) rc = onnxslim_node_set_inputs(gn, in, 3);
    if (!rc && onnxslim_node_find_attr(gn, "axis")) rc = onnxslim_node_remove_attr(gn, "axis");
    if (!rc) rc = onnxslim_node_set_attr_int(gn, "bits", p->bits);
    if (!rc) rc = onnxslim_node_set_attr_int(gn, "block_size", (int64_t)c->bs);
    if (!rc) rc = onnxslim_node_set_attr_int(gn, "gather_axis", 0);
    if (!rc) rc = onnxslim_node_set_attr_int(gn, "quantize_axis", 1);
    if (!rc) rc = onnxslim_node_set_output(gn, 0, deq);
  } else if (p->dq_table) {
    rc = onnxslim_node_set_input(gn, 0, table_dq);
    if (!rc) rc = onnxslim_node_set_output(gn, 0, deq);
  } else {
    const char *yq, *ys;
    rc = fresh(m, yname, "_q", &yq);
    if (!rc) rc = fresh(m, yname, "_scale", &ys);
    if (!rc) rc = onnxslim_node_set_output(gn, 0, yq);
    const char *gs_in[2] = {scales, iname};
    if (!rc) rc = add_after(g, &at, "Gather", NULL, gs_in, 2, ys);
    if (!rc && p->dq) {
      const char *in[2] = {yq, ys};
      rc = add_after(g, &at, "DequantizeLinear", NULL, in, 2, deq);
      if (!rc) rc = onnxslim_node_set_attr_int(at, "axis", -1);
      if (!rc) rc = onnxslim_node_set_attr_int(at, "block_size", (int64_t)c->bs);
    } else if (!rc) {
      const char *yc;
      rc = fresh(m, yname, "_int", &yc);
      if (!rc) rc = add_after(g, &at, "Cast", NULL, &yq, 1, yc);
      if (!rc) rc = onnxslim_node_set_attr_int(at, "to", p->scale_type);
      const char *in[2] = {yc, ys};
      if (!rc) rc = add_after(g, &at, "Mul", NULL, in, 2, deq);
    }
  }
  if (!rc && recast) {
    rc = add_after(g, &at, "Cast", NULL, &deq, 1, yname);
    if (!rc) rc = onnxslim_node_set_attr_int(at, "to", c->from);
  }
out:
  free(yname);
  free(iname);
  return rc;
}

/* ---- the conversion --------------------------------------------------------- */

/* Counts a chunk of the validation pass (its input bytes) on the meter. */
typedef struct {
  osl_progress *progress;
  size_t in_size, out_size;
} osl_qprog;

static int prog_chunk(void *payload, const uint8_t *out, size_t n) {
  (void)out;
  osl_qprog *qp = payload;
  return onnxslim__progress_add(qp->progress, (uint64_t)(n / qp->out_size) * qp->in_size);
}

static void qx_init(osl_qx *q, const osl_qcand *c, const osl_qplan *p, int layout) {
  memset(q, 0, sizeof *q);
  size_t esz = c->from == ONNXSLIM_DTYPE_FLOAT ? 4 : 2, bs = c->bs;
  size_t rows = (size_t)c->rows, cols = (size_t)c->cols;
  size_t ssz = p->scale_type == ONNXSLIM_DTYPE_FLOAT ? 4 : 2;
  size_t per = 1; /* blocks an element holds */
  q->x.src = c->data;
  q->x.run = qx_run;
  q->src = c->from;
  q->scale_type = p->scale_type;
  q->qmax = p->bits == 8 ? 127 : 7;
  q->layout = layout;
  q->bs = bs;
  if (!c->mm) {
    q->geom = OSL_QG_ROW;
    q->x.count = rows * cols / bs;
  } else if (p->ort) {
    q->geom = OSL_QG_STRIDED;
    q->ncols = cols;
    q->kblocks = rows / bs;
    q->x.count = cols * (rows / bs);
  } else {
    q->geom = OSL_QG_COLS;
    q->ncols = cols;
    q->x.count = rows / bs;
    per = cols;
  }
  q->x.in_size = bs * per * esz;
  switch (layout) {
  case OSL_QL_I8:
  case OSL_QL_U8: q->x.out_size = bs * per; break;
  case OSL_QL_I4:
  case OSL_QL_U4: q->x.out_size = bs * per / 2; break;
  default: q->x.out_size = per * ssz;
  }
}

/* The validation and statistics pass over candidate c's source. */
static int validate(onnxslim_model *m, osl_qcand *c, const osl_qplan *p, osl_progress *prog) {
  osl_qx q;
  qx_init(&q, c, p, p->layout);
  q.model = m;
  memset(&c->acc, 0, sizeof c->acc);
  c->acc.blocks_per_row = c->mm ? 1 : (uint64_t)c->cols / c->bs;
  onnxslim_convert_stats init = ONNXSLIM_CONVERT_STATS_INIT;
  c->acc.s = init;
  q.acc = &c->acc;
  osl_qprog qp = {prog, q.x.in_size, q.x.out_size};
  int rc = onnxslim__xform_chunks(m, &q.x, NULL, prog_chunk, &qp);
  c->acc.q.max_row_rel_error = dsqrt(c->acc.q.max_row_rel_error);
  if (rc == ONNXSLIM_EMODEL) {
    char msg[256];
    snprintf(msg, sizeof msg, "%s", onnxslim_error_last());
    rc = onnxslim__err(ONNXSLIM_EMODEL, "quantizing '%s': %s", c->name, msg);
  }
  return rc;
}

/* Without the statistics pass: refuses NaN and infinities (all exponent
 * bits set) in candidate c, reading it in chunks and releasing its pages. */
static int check_finite(onnxslim_model *m, osl_qcand *c, osl_progress *prog) {
  size_t chunk = (size_t)1 << 22, esz = c->from == ONNXSLIM_DTYPE_FLOAT ? 4 : 2;
  memset(&c->acc, 0, sizeof c->acc);
  onnxslim_convert_stats init = ONNXSLIM_CONVERT_STATS_INIT;
  c->acc.s = init;
  for (size_t off = 0; off < c->size; off += chunk) {
    size_t n = c->size - off < chunk ? c->size - off : chunk, bad = 0;
    const uint8_t *p = c->data + off;
    if (esz == 4) {
      for (size_t i = 0; i + 4 <= n; i += 4) {
        uint32_t b;
        memcpy(&b, p + i, 4);
        bad |= (b & 0x7f800000u) == 0x7f800000u;
      }
    } else {
      for (size_t i = 0; i + 2 <= n; i += 2) {
        uint16_t b;
        memcpy(&b, p + i, 2);
        bad |= (b & 0x7c00u) == 0x7c00u;
      }
    }
    onnxslim__release(m, p, n);
    if (bad)
      return onnxslim__err(ONNXSLIM_EMODEL,
                           "quantizing '%s': a NaN or infinite value cannot be quantized", c->name);
    int rc = onnxslim__progress_add(prog, n);
    if (rc) return rc;
  }
  return 0;
}

/* Scales of at most this many bytes are computed by the first pass (which
 * then also checks the values) and kept, instead of being a second pending
 * transform that reads the whole tensor again while saving. */
#define OSL_SCALES_KEPT ((size_t)16 << 20)

static int keep_scales(onnxslim_model *m, osl_qcand *c, const osl_qplan *p, osl_progress *prog) {
  osl_qx q;
  qx_init(&q, c, p, OSL_QL_SCALES);
  q.model = m;
  size_t n = q.x.count * q.x.out_size;
  uint8_t *buf = onnxslim__arena_alloc(&m->arena, n ? n : 1);
  if (!buf) return onnxslim__err_nomem(NULL);
  memset(&c->acc, 0, sizeof c->acc);
  onnxslim_convert_stats init = ONNXSLIM_CONVERT_STATS_INIT;
  c->acc.s = init;
  osl_qprog qp = {prog, q.x.in_size, q.x.out_size};
  int rc = onnxslim__xform_chunks(m, &q.x, buf, prog_chunk, &qp);
  if (rc == ONNXSLIM_EMODEL) {
    char msg[256];
    snprintf(msg, sizeof msg, "%s", onnxslim_error_last());
    return onnxslim__err(ONNXSLIM_EMODEL, "quantizing '%s': %s", c->name, msg);
  }
  if (!rc) c->scales = buf;
  return rc;
}

/* Quantizes validated candidate c and fixes its readers up. */
static int apply(onnxslim_model *m, onnxslim_graph *g, osl_qcand *c, const osl_qplan *p) {
  osl_qx *data = onnxslim__arena_alloc(&m->arena, sizeof *data);
  osl_qx *sc = onnxslim__arena_alloc(&m->arena, sizeof *sc);
  if (!data || !sc) return onnxslim__err_nomem(NULL);
  qx_init(data, c, p, p->layout);
  qx_init(sc, c, p, OSL_QL_SCALES);
  data->model = sc->model = m;
  /* consumers first: the handles stay valid as the tensor changes */
  size_t nc = onnxslim_graph_consumer_count(g, c->name);
  onnxslim_node **readers = malloc(nc * sizeof *readers);
  if (!readers) return onnxslim__err_nomem(NULL);
  for (size_t i = 0; i < nc; i++) readers[i] = onnxslim_graph_consumer(g, c->name, i);
  char *tname = strdup(c->name);
  const char *sname = NULL, *tdq = NULL;
  int rc = tname ? fresh(m, tname, "_scale", &sname) : onnxslim__err_nomem(NULL);
  int64_t rows = c->rows, cols = c->cols, bs = (int64_t)c->bs;
  /* the scales' shape */
  int64_t sdims[2] = {rows, cols / bs};
  size_t srank = 2;
  if (c->mm && p->ort) sdims[0] = cols, sdims[1] = rows / bs;
  else if (c->mm && p->per_axis) sdims[0] = cols, srank = 1;
  else if (c->mm) sdims[0] = rows / bs, sdims[1] = cols;
  size_t ssize = (size_t)sc->x.count * sc->x.out_size;
  /* the scales: a new initializer whose bytes are the pending transform
   * (created over the source's own bytes, which are larger, then replaced) */
  onnxslim_tensor *st = NULL;
  if (!rc)
    rc = onnxslim_graph_add_initializer(g, sname, p->scale_type, sdims, srank,
                                        c->scales ? c->scales : c->data, ssize, ONNXSLIM_BORROW,
                                        &st);
  if (!rc && !c->scales) rc = onnxslim__tensor_set_xform((osl_msg *)st, p->scale_type, &sc->x);
  /* a new shape for the quantized tensor where the layout has one */
  size_t dsize = (size_t)data->x.count * data->x.out_size;
  if (!rc && c->mm && p->ort) {
    int64_t dims[3] = {cols, rows / bs, bs * p->bits / 8};
    rc = onnxslim_tensor_set_data(c->t, ONNXSLIM_DTYPE_UINT8, dims, 3, c->data, dsize,
                                  ONNXSLIM_BORROW);
  } else if (!rc && p->layout == OSL_QL_U4) {
    int64_t dims[2] = {rows, cols / 2};
    rc = onnxslim_tensor_set_data(c->t, ONNXSLIM_DTYPE_UINT8, dims, 2, c->data, dsize,
                                  ONNXSLIM_BORROW);
  }
  if (!rc) rc = onnxslim__tensor_set_xform((osl_msg *)c->t, p->stored, &data->x);
  if (!rc && p->dq_table) {
    /* one DequantizeLinear of the whole tensor, first in the graph */
    const char *in[2] = {tname, sname};
    onnxslim_node *at = NULL;
    rc = fresh(m, tname, "_dequantized", &tdq);
    if (!rc) rc = add_after(g, &at, "DequantizeLinear", NULL, in, 2, tdq);
    if (!rc) rc = onnxslim_node_set_attr_int(at, "axis", c->mm && !p->per_axis ? 0 : 1);
    if (!rc && !p->per_axis) rc = onnxslim_node_set_attr_int(at, "block_size", bs);
  }
  for (size_t i = 0; i < nc && !rc; i++) {
    if (c->mm && p->ort) rc = fix_matmul(readers[i], c, p, sname);
    else if (c->mm) rc = onnxslim_node_set_input(readers[i], 1, tdq);
    else rc = fix_gather(m, g, readers[i], c, p, sname, tdq);
  }
  if (!rc && c->e) {
    c->e->after = dsize + ssize;
    c->e->stats = c->acc.s;
    c->e->stats.max_abs_error = c->acc.q.max_abs_error;
    c->e->quantized = 1;
    c->e->quant = c->acc.q;
  }
  free(readers);
  free(tname);
  return rc;
}

static int is_pow2(uint64_t v) { return v && !(v & (v - 1)); }

/* Checks candidate c's shape against the block size and the plan. */
static int shape_ok(const osl_qcand *c, const osl_qplan *p, const onnxslim_convert_options *o) {
  const char *what = c->mm ? "columns" : "rows";
  int64_t len = c->mm ? c->rows : c->cols; /* along the blocks */
  if ((uint64_t)len % c->bs)
    return onnxslim__err(ONNXSLIM_EMODEL,
                         "'%s': its %s of %lld values do not split into blocks of %llu", c->name,
                         what, (long long)len, (unsigned long long)c->bs);
  if (c->bs < 2 || (p->bits == 4 && c->bs % 2))
    return onnxslim__err(ONNXSLIM_EMODEL, "'%s': %s of %lld values cannot be quantized %s", c->name,
                         what, (long long)len,
                         p->bits == 4 ? "to INT4 (an even count is needed)" : "(one value)");
  if (p->ort && (!is_pow2(c->bs) || c->bs < 16))
    return onnxslim__err(ONNXSLIM_EMODEL,
                         "'%s': %s needs a block size that is a power of two of at least 16 (%s "
                         "of %lld values: give a block size)",
                         c->name, c->mm ? "MatMulNBits" : "GatherBlockQuantized", what,
                         (long long)len);
  if (c->mm && (p->ort || o->scale_type) && p->scale_type != c->from)
    return onnxslim__err(ONNXSLIM_EINVAL,
                         "'%s': the scales of a MatMul weight have the weight's type (%s)", c->name,
                         onnxslim_dtype_name(c->from));
  return 0;
}

int onnxslim__quantize_model(onnxslim_convert_report *r, onnxslim_model *model,
                             const onnxslim_convert_options *o) {
  if (o->format != ONNXSLIM_QUANT_FORMAT_STANDARD && o->format != ONNXSLIM_QUANT_FORMAT_ORT)
    return onnxslim__err(ONNXSLIM_EINVAL, "unknown quantization format %d", o->format);
  if (o->quant_flags & ~ONNXSLIM_QUANT_ALLOW_UNPACKED)
    return onnxslim__err(ONNXSLIM_EINVAL, "reserved quantization flags 0x%x set", o->quant_flags);
  if (o->scale_type && o->scale_type != ONNXSLIM_DTYPE_FLOAT &&
      o->scale_type != ONNXSLIM_DTYPE_FLOAT16)
    return onnxslim__err(ONNXSLIM_EINVAL, "scales must be FLOAT or FLOAT16, not %s",
                         onnxslim_dtype_name(o->scale_type));
  if (o->block_size == 1 || (o->to == ONNXSLIM_DTYPE_INT4 && o->block_size % 2))
    return onnxslim__err(ONNXSLIM_EINVAL, "block size %llu: it must be at least 2%s",
                         (unsigned long long)o->block_size,
                         o->to == ONNXSLIM_DTYPE_INT4 ? " and even for INT4" : "");
  if (o->format == ONNXSLIM_QUANT_FORMAT_ORT && o->block_size &&
      (!is_pow2(o->block_size) || o->block_size < 16))
    return onnxslim__err(ONNXSLIM_EINVAL,
                         "block size %llu: GatherBlockQuantized and MatMulNBits take a power of "
                         "two of at least 16",
                         (unsigned long long)o->block_size);
  if (o->policy != ONNXSLIM_POLICY_CAST_AFTER_GATHER)
    return onnxslim__err(ONNXSLIM_EINVAL,
                         "quantization rewrites the graph itself: the policy must be the default "
                         "(cast-after-gather)");
  onnxslim_graph *g = onnxslim_model_graph(model);
  if (!g) return ONNXSLIM_EINVAL;
  /* the plans of both kinds; an error counts only for a kind present */
  osl_qplan plans[2];
  int prc = plan_tables(model, o, &plans[0]);
  plans[0].rc = prc;
  prc = plan_weights(model, o, &plans[1]);
  plans[1].rc = prc;
  onnxslim_error_clear();
  int rc = 0;
  /* select */
  size_t ni = onnxslim_graph_initializer_count(g);
  osl_qcand *cands = calloc(ni ? ni : 1, sizeof *cands);
  unsigned char *hit = calloc(o->n_select ? o->n_select : 1, 1);
  size_t nc = 0;
  if (!cands || !hit) {
    rc = onnxslim__err_nomem(NULL);
    goto out;
  }
  for (size_t i = 0; i < ni && !rc; i++) {
    onnxslim_tensor *t = onnxslim_graph_initializer(g, i);
    const char *name = onnxslim_tensor_name(t);
    int mm;
    if (sole_operand(g, t, "Gather", 0)) mm = 0;
    else if (sole_operand(g, t, "MatMul", 1)) mm = 1;
    else continue;
    if (o->n_select && !matches_any(g, o->select, o->n_select, name, hit)) continue;
    uint64_t before = 0;
    if (onnxslim_tensor_byte_size(t, &before) || before < o->min_size ||
        matches_any(g, o->exclude, o->n_exclude, name, NULL))
      continue;
    const osl_qplan *p = &plans[mm];
    if (p->rc) {
      /* this kind cannot be quantized here: say why (the plan again, for
       * its message) */
      osl_qplan again;
      rc = mm ? plan_weights(model, o, &again) : plan_tables(model, o, &again);
      break;
    }
    osl_qcand *c = &cands[nc];
    c->t = t;
    c->name = name;
    c->mm = mm;
    c->from = onnxslim_tensor_dtype(t);
    c->rows = onnxslim_tensor_dim(t, 0);
    c->cols = onnxslim_tensor_dim(t, 1);
    if (c->rows <= 0 || c->cols <= 0) continue;
    c->bs = o->block_size ? o->block_size : (uint64_t)(mm ? c->rows : c->cols);
    osl_qplan pc = *p;
    if (!o->scale_type) pc.scale_type = c->from;
    rc = shape_ok(c, &pc, o);
    const void *d;
    if (!rc) rc = onnxslim_tensor_data(t, &d, &c->size);
    if (!rc) c->data = d;
    if (!rc) nc++;
  }
  for (size_t i = 0; i < o->n_select && !rc; i++)
    if (!hit[i])
      rc = onnxslim__err(ONNXSLIM_ENOTFOUND,
                         "selection '%s' matches no tensor that can be quantized to %s (an "
                         "embedding table or MatMul weight: a FLOAT or FLOAT16 initializer of "
                         "rank 2 read only as the data of Gathers along axis 0, or only as "
                         "input 1 of MatMuls)",
                         o->select[i], onnxslim_dtype_name(o->to));
  if (!rc && !nc && !o->n_select)
    rc = onnxslim__err(ONNXSLIM_ENOTFOUND,
                       "the model has no tensor that can be quantized to %s (an embedding table "
                       "read by Gathers, or a MatMul weight)",
                       onnxslim_dtype_name(o->to));
  if (rc) goto out;
  /* the validation pass, then the model */
  uint64_t total = 0;
  for (size_t i = 0; i < nc; i++) total += cands[i].size;
  osl_progress prog;
  rc = onnxslim__progress_start(&prog, o->progress, o->progress_payload, total);
  int any_ort = 0;
  /* the statistics pass only for a report that wants it; else a check that
   * every value is finite, which costs little more than reading them */
  int stats = r && !(o->report_flags & ONNXSLIM_CONVERT_REPORT_NO_STATS);
  for (size_t i = 0; i < nc && !rc; i++) {
    osl_qplan pi = plans[cands[i].mm];
    if (!o->scale_type) pi.scale_type = cands[i].from;
    any_ort |= pi.ort;
    osl_qx sq;
    qx_init(&sq, &cands[i], &pi, OSL_QL_SCALES);
    if (stats) rc = validate(model, &cands[i], &pi, &prog);
    else if (sq.x.count * sq.x.out_size <= OSL_SCALES_KEPT)
      rc = keep_scales(model, &cands[i], &pi, &prog);
    else rc = check_finite(model, &cands[i], &prog);
    if (!stats) { /* the counts the report has without the statistics pass */
      uint64_t per = cands[i].mm ? 1 : (uint64_t)cands[i].cols / cands[i].bs;
      cands[i].acc.q.blocks = (uint64_t)cands[i].rows * (uint64_t)cands[i].cols / cands[i].bs;
      cands[i].acc.q.rows = cands[i].acc.q.blocks / per;
      cands[i].acc.s.count = (uint64_t)cands[i].rows * (uint64_t)cands[i].cols;
    }
    cands[i].acc.q.version = ONNXSLIM_QUANT_STATS_VERSION;
    cands[i].acc.q.bits = pi.bits;
    cands[i].acc.q.block_size = cands[i].bs;
  }
  if (!rc && any_ort) rc = onnxslim_model_set_opset(model, "com.microsoft", 1);
  for (size_t i = 0; i < nc && !rc; i++) {
    osl_qcand *c = &cands[i];
    osl_qplan pi = plans[c->mm];
    if (!o->scale_type) pi.scale_type = c->from;
    if (r) {
      c->e = onnxslim__convert_report_add(r, c->name);
      if (!c->e) {
        rc = onnxslim__err_nomem(NULL);
        break;
      }
      c->e->from = c->from;
      c->e->to = pi.to;
      c->e->before = c->size;
    }
    rc = apply(model, g, c, &pi);
  }
  if (!rc) onnxslim__progress_end(&prog);
out:
  free(cands);
  free(hit);
  return rc;
}
