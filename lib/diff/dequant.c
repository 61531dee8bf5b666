/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - the diff's dequantization lookup: how B's graph
 * dequantizes a quantized tensor (DequantizeLinear, Gather then
 * DequantizeLinear, Gather then Cast and Mul, com.microsoft
 * GatherBlockQuantized and MatMulNBits), and the comparison of A's values
 * with B's dequantized ones, streamed: A's values a chunk at a time, B's
 * codes, scales and zero points through small windows read as needed.
 */
#include <math.h>
#include <string.h>

#include "diff/diff.h"

/* ---- the graph -------------------------------------------------------------- */

static int is_default_domain(const char *d) { return !d[0] || strcmp(d, "ai.onnx") == 0; }

static int64_t attr_int(const onnxslim_node *n, const char *name, int64_t dflt) {
  const onnxslim_attr *a = onnxslim_node_find_attr(n, name);
  int64_t v;
  if (!a || onnxslim_attr_int(a, &v) != ONNXSLIM_OK) return dflt;
  return v;
}

static const char *input(const onnxslim_node *n, size_t i) {
  const char *s = i < onnxslim_node_input_count(n) ? onnxslim_node_input(n, i) : NULL;
  return s && s[0] ? s : NULL;
}

/* The initializer of gb named `name`, NULL when there is none. */
static const onnxslim_tensor *init_of(const onnxslim_graph *g, const char *name) {
  return name ? onnxslim_graph_find_initializer(g, name) : NULL;
}

/* The initializer read through a Gather (axis 0) of it whose output is `name`
 * and whose indices are `indices`; NULL otherwise. */
static const onnxslim_tensor *gathered(const onnxslim_graph *g, const char *name,
                                       const char *indices) {
  const onnxslim_node *p = name ? onnxslim_graph_producer(g, name) : NULL;
  if (!p || !is_default_domain(onnxslim_node_domain(p)) ||
      strcmp(onnxslim_node_op_type(p), "Gather") != 0 || attr_int(p, "axis", 0) != 0)
    return NULL;
  if (!input(p, 1) || strcmp(input(p, 1), indices) != 0) return NULL;
  return init_of(g, input(p, 0));
}

/* The only consumer of `name` in g that is op `op` of the default domain, or NULL. */
static const onnxslim_node *consumer_op(const onnxslim_graph *g, const char *name, const char *op,
                                        size_t *index) {
  size_t i, n = onnxslim_graph_consumer_count(g, name);
  for (i = 0; i < n; i++) {
    const onnxslim_node *c = onnxslim_graph_consumer(g, name, i);
    size_t k;
    if (!c || !is_default_domain(onnxslim_node_domain(c)) ||
        strcmp(onnxslim_node_op_type(c), op) != 0)
      continue;
    for (k = 0; k < onnxslim_node_input_count(c); k++)
      if (input(c, k) && strcmp(input(c, k), name) == 0) {
        if (index) *index = k;
        return c;
      }
  }
  return NULL;
}

static uint64_t count_of(const onnxslim_tensor *t) {
  int64_t n = onnxslim_tensor_element_count(t);
  return n > 0 ? (uint64_t)n : 0;
}

static int is_scale_type(int32_t dt) {
  return dt == ONNXSLIM_DTYPE_FLOAT || dt == ONNXSLIM_DTYPE_FLOAT16 ||
         dt == ONNXSLIM_DTYPE_BFLOAT16 || dt == ONNXSLIM_DTYPE_DOUBLE;
}

static int is_code_type(int32_t dt) {
  return dt == ONNXSLIM_DTYPE_INT8 || dt == ONNXSLIM_DTYPE_UINT8 || dt == ONNXSLIM_DTYPE_INT16 ||
         dt == ONNXSLIM_DTYPE_UINT16 || dt == ONNXSLIM_DTYPE_INT32 || dt == ONNXSLIM_DTYPE_INT4 ||
         dt == ONNXSLIM_DTYPE_UINT4;
}

/* A's tensor as [outer, axis_len, inner] around `axis` (of A's dims). */
static int layout(const onnxslim_tensor *ta, int64_t axis, osl_dequant *dq) {
  size_t i, rank = onnxslim_tensor_rank(ta);
  if (axis < 0) axis += (int64_t)rank;
  if (axis < 0 || (size_t)axis >= rank) return 0;
  dq->outer = dq->inner = 1;
  for (i = 0; i < rank; i++) {
    uint64_t d = (uint64_t)onnxslim_tensor_dim(ta, i);
    if (i < (size_t)axis) dq->outer *= d;
    else if (i > (size_t)axis) dq->inner *= d;
    else dq->axis_len = d;
  }
  return dq->axis_len > 0;
}

/* Sets the block so that the scales count matches: blocks along the axis
 * of `block` values; 1 when the scales and zero points fit. */
static int fit(osl_dequant *dq, const onnxslim_tensor *ta) {
  uint64_t nblk;
  if (dq->per_tensor) return count_of(dq->scale) == 1;
  if (!dq->block) return 0;
  nblk = (dq->axis_len + dq->block - 1) / dq->block;
  (void)ta;
  return count_of(dq->scale) == dq->outer * nblk * dq->inner;
}

/* DequantizeLinear(q, scale, zero) with its axis and block_size over A's layout. */
static int from_dql(const onnxslim_node *dql, const onnxslim_tensor *ta,
                    const onnxslim_tensor *scale, const onnxslim_tensor *zero, int64_t axis,
                    osl_dequant *dq) {
  int64_t block = attr_int(dql, "block_size", 0);
  if (!scale || !is_scale_type(onnxslim_tensor_dtype(scale))) return 0;
  dq->scale = scale;
  dq->zero = zero;
  if (count_of(scale) == 1 && block == 0) {
    dq->per_tensor = 1;
    dq->outer = 1;
    dq->axis_len = count_of(ta);
    dq->inner = 1;
    dq->block = dq->axis_len ? dq->axis_len : 1;
    return 1;
  }
  if (!layout(ta, axis, dq)) return 0;
  if (block > 0) {
    dq->block = (uint64_t)block;
    return fit(dq, ta);
  }
  /* per axis: one scale per index of the axis */
  if (onnxslim_tensor_rank(scale) != 1 || count_of(scale) != dq->axis_len) return 0;
  dq->per_axis = 1;
  dq->block = 1;
  return 1;
}

/* Rows gathered then dequantized along the last axis: the scales (and zero
 * points) are [rows, blocks] tables gathered with the same indices. */
static int from_gathered(const onnxslim_tensor *ta, const onnxslim_tensor *scale,
                         const onnxslim_tensor *zero, osl_dequant *dq) {
  size_t rank = onnxslim_tensor_rank(ta);
  uint64_t rows, nblk;
  if (!scale || rank < 1 || !is_scale_type(onnxslim_tensor_dtype(scale))) return 0;
  if (!layout(ta, (int64_t)rank - 1, dq)) return 0;
  rows = dq->outer;
  if (!rows || count_of(scale) % rows) return 0;
  nblk = count_of(scale) / rows;
  if (!nblk || dq->axis_len % nblk) return 0;
  dq->block = dq->axis_len / nblk;
  dq->scale = scale;
  dq->zero = zero;
  return 1;
}

int onnxslim__diff_find_dequant(osl_diff *c, const onnxslim_graph *gb, const onnxslim_tensor *ta,
                                const onnxslim_tensor *tb, osl_dequant *dq) {
  const char *name = onnxslim_tensor_name(tb);
  int32_t dt = onnxslim_tensor_dtype(tb);
  size_t i, n, at = 0;
  uint64_t elems = count_of(ta);

  memset(dq, 0, sizeof *dq);
  dq->q = tb;
  dq->bits = onnxslim_dtype_bits(dt) == 4 ? 4 : 8;
  if (!name || !is_code_type(dt) || !elems || c->rc) return 0;
  n = onnxslim_graph_consumer_count(gb, name);
  for (i = 0; i < n; i++) {
    const onnxslim_node *u = onnxslim_graph_consumer(gb, name, i);
    const char *op, *dom;
    if (!u || !input(u, 0) || strcmp(input(u, 0), name) != 0) continue;
    op = onnxslim_node_op_type(u);
    dom = onnxslim_node_domain(u);
    memset(dq, 0, sizeof *dq);
    dq->q = tb;
    dq->bits = onnxslim_dtype_bits(dt) == 4 ? 4 : 8;
    if (is_default_domain(dom) && strcmp(op, "DequantizeLinear") == 0) {
      if (count_of(tb) != elems) continue;
      dq->form = ONNXSLIM_DIFF_DEQUANT_DEQUANTIZE_LINEAR;
      if (from_dql(u, ta, init_of(gb, input(u, 1)), init_of(gb, input(u, 2)),
                   attr_int(u, "axis", 1), dq) &&
          (!input(u, 2) || dq->zero))
        return 1;
    } else if (is_default_domain(dom) && strcmp(op, "Gather") == 0 && attr_int(u, "axis", 0) == 0 &&
               onnxslim_node_output_count(u) == 1 && input(u, 1) && count_of(tb) == elems) {
      const char *g = onnxslim_node_output(u, 0), *idx = input(u, 1);
      const onnxslim_node *dql = consumer_op(gb, g, "DequantizeLinear", &at), *cast, *mul;
      if (dql && at == 0) {
        /* the scales are tables gathered with the same indices: their
         * counts (checked by from_gathered) fix the blocks along the rows */
        dq->form = ONNXSLIM_DIFF_DEQUANT_DEQUANTIZE_LINEAR;
        if (from_gathered(ta, gathered(gb, input(dql, 1), idx), gathered(gb, input(dql, 2), idx),
                          dq) &&
            (!input(dql, 2) || dq->zero))
          return 1;
        continue;
      }
      /* Gather, Cast, (Sub Cast(Gather(zero points)),) Mul by Gather(scales) */
      cast = consumer_op(gb, g, "Cast", NULL);
      if (!cast || onnxslim_node_output_count(cast) != 1) continue;
      {
        const char *cv = onnxslim_node_output(cast, 0), *mv = cv, *zname = NULL;
        const onnxslim_node *sub = consumer_op(gb, cv, "Sub", &at);
        if (sub && at == 0 && input(sub, 1)) {
          const onnxslim_node *zc = onnxslim_graph_producer(gb, input(sub, 1));
          if (zc && strcmp(onnxslim_node_op_type(zc), "Cast") == 0) zname = input(zc, 0);
          mv = onnxslim_node_output(sub, 0);
        }
        mul = consumer_op(gb, mv, "Mul", &at);
        if (!mul || !input(mul, 1 - at)) continue;
        dq->form = ONNXSLIM_DIFF_DEQUANT_CAST_MUL;
        if (from_gathered(ta, gathered(gb, input(mul, 1 - at), idx),
                          zname ? gathered(gb, zname, idx) : NULL, dq) &&
            (!zname || dq->zero))
          return 1;
      }
    } else if (strcmp(dom, "com.microsoft") == 0 && strcmp(op, "GatherBlockQuantized") == 0) {
      int64_t bits = attr_int(u, "bits", 4), qaxis = attr_int(u, "quantize_axis", 1);
      size_t rank = onnxslim_tensor_rank(ta);
      if (attr_int(u, "gather_axis", 0) != 0 || rank < 1 ||
          (qaxis != (int64_t)rank - 1 && qaxis != -1))
        continue;
      if (bits != 4 && bits != 8) continue;
      dq->bits = (int)bits;
      dq->packed_uint8 = bits == 4 && dt == ONNXSLIM_DTYPE_UINT8;
      if (dq->packed_uint8 ? count_of(tb) * 2 != elems : count_of(tb) != elems) continue;
      dq->default_zero = dt == ONNXSLIM_DTYPE_UINT8 ? (bits == 4 ? 8 : 128) : 0;
      dq->form = ONNXSLIM_DIFF_DEQUANT_GATHER_BLOCK_QUANTIZED;
      if (from_gathered(ta, init_of(gb, input(u, 2)), init_of(gb, input(u, 3)), dq) &&
          (!input(u, 3) || dq->zero)) {
        int64_t bs = attr_int(u, "block_size", 128);
        if (bs > 0 && (uint64_t)bs != dq->block) continue;
        dq->zero_row_pad = dq->zero && dq->bits == 4;
        return 1;
      }
    }
  }
  /* MatMulNBits(A, B = tb, scales, zero_points): A's weight is [K, N] */
  for (i = 0; i < n; i++) {
    const onnxslim_node *u = onnxslim_graph_consumer(gb, name, i);
    int64_t K, N, bits, bs;
    uint64_t nblk;
    int zfloat;
    if (!u || strcmp(onnxslim_node_domain(u), "com.microsoft") != 0 ||
        strcmp(onnxslim_node_op_type(u), "MatMulNBits") != 0 || !input(u, 1) ||
        strcmp(input(u, 1), name) != 0 || dt != ONNXSLIM_DTYPE_UINT8)
      continue;
    K = attr_int(u, "K", 0);
    N = attr_int(u, "N", 0);
    bits = attr_int(u, "bits", 4);
    bs = attr_int(u, "block_size", 0);
    if (K <= 0 || N <= 0 || bs <= 0 || (bits != 4 && bits != 8) || onnxslim_tensor_rank(ta) != 2 ||
        onnxslim_tensor_dim(ta, 0) != K || onnxslim_tensor_dim(ta, 1) != N)
      continue;
    nblk = ((uint64_t)K + (uint64_t)bs - 1) / (uint64_t)bs;
    memset(dq, 0, sizeof *dq);
    dq->q = tb;
    dq->form = ONNXSLIM_DIFF_DEQUANT_MATMUL_NBITS;
    dq->bits = (int)bits;
    dq->packed_uint8 = bits == 4;
    dq->transposed = 1;
    dq->k = (uint64_t)K;
    dq->n = (uint64_t)N;
    dq->block = (uint64_t)bs;
    dq->default_zero = bits == 4 ? 8 : 128;
    dq->scale = init_of(gb, input(u, 2));
    dq->zero = init_of(gb, input(u, 3));
    if (!dq->scale || !is_scale_type(onnxslim_tensor_dtype(dq->scale)) ||
        count_of(dq->scale) != (uint64_t)N * nblk)
      continue;
    /* zero points: UINT8 (4-bit ones two a byte, each row padded to a
     * byte), or one a block of the scales' type (a float zero point, as
     * onnxruntime's HQQ writes them) */
    zfloat = dq->zero && onnxslim_tensor_dtype(dq->zero) == onnxslim_tensor_dtype(dq->scale);
    if (input(u, 3) &&
        (!dq->zero || (onnxslim_tensor_dtype(dq->zero) != ONNXSLIM_DTYPE_UINT8 && !zfloat) ||
         (zfloat && count_of(dq->zero) != (uint64_t)N * nblk)))
      continue;
    if (count_of(tb) * (bits == 4 ? 2 : 1) != (uint64_t)N * nblk * (uint64_t)bs) continue;
    dq->zero_row_pad = dq->zero && bits == 4 && !zfloat;
    return 1;
  }
  return 0;
}

/* ---- reading codes, scales and zero points through a window ------------------ */

typedef struct window {
  const onnxslim_tensor *t;
  int32_t dt;
  int nibbles; /* 4-bit values, two a byte (low nibble first) */
  int sign;    /* signed nibbles (INT4) */
  uint64_t total, start, count, size;
  uint8_t *raw;
  double *val;
} window;

/* Loads the window at element `at`. 0 or c->rc. */
static int win_load(osl_diff *c, window *w, uint64_t at) {
  uint64_t k = w->total - at < w->size ? w->total - at : w->size, off, bytes = 0, i;
  unsigned bits = w->nibbles ? 4 : onnxslim_dtype_bits(w->dt);
  size_t len;
  if (onnxslim_tensor_byte_size(w->t, &bytes) != ONNXSLIM_OK)
    return onnxslim__diff_fail_lib(c, "%s: size of the data", onnxslim_tensor_name(w->t));
  off = at * bits / 8;
  len = (size_t)((((at + k) * bits + 7) / 8) - off);
  if (off + len > bytes)
    return onnxslim__diff_fail(c, ONNXSLIM_EMODEL, "'%s': data too short",
                               onnxslim_tensor_name(w->t));
  if (onnxslim_tensor_read(w->t, off, w->raw, len) != ONNXSLIM_OK)
    return onnxslim__diff_fail_lib(c, "%s: reading the data", onnxslim_tensor_name(w->t));
  if (w->nibbles) {
    for (i = 0; i < k; i++) {
      uint64_t e = at + i;
      unsigned v = (w->raw[e / 2 - off] >> (e % 2 ? 4 : 0)) & 15u;
      w->val[i] = w->sign && v >= 8 ? (double)v - 16 : (double)v;
    }
  } else onnxslim__diff_decode(c, w->dt, w->raw, (size_t)k, w->val);
  w->start = at;
  w->count = k;
  return 0;
}

static double win_get(osl_diff *c, window *w, uint64_t at) {
  if (at >= w->total) {
    onnxslim__diff_fail(c, ONNXSLIM_EMODEL, "'%s': element %llu beyond its data",
                        onnxslim_tensor_name(w->t), (unsigned long long)at);
    return 0;
  }
  if (at < w->start || at >= w->start + w->count)
    if (win_load(c, w, at) != 0) return 0;
  return w->val[at - w->start];
}

static void win_init(window *w, const onnxslim_tensor *t, int nibbles, uint64_t size, uint8_t *raw,
                     double *val) {
  memset(w, 0, sizeof *w);
  w->t = t;
  w->dt = onnxslim_tensor_dtype(t);
  w->nibbles = nibbles || onnxslim_dtype_bits(w->dt) == 4;
  w->sign = w->dt == ONNXSLIM_DTYPE_INT4;
  w->total = count_of(t) * (nibbles ? 2 : 1);
  w->size = size;
  w->raw = raw;
  w->val = val;
}

/* ---- the comparison --------------------------------------------------------------- */

#define TILE 256

int onnxslim__diff_dequant_compare(osl_diff *c, const onnxslim_tensor *ta, const osl_dequant *dq,
                                   const char *what, onnxslim_diff_numbers *num) {
  const size_t W = OSL_DIFF_CHUNK;
  uint64_t n = count_of(ta), e, nblk = 0, zrow = 0;
  int32_t dta = onnxslim_tensor_dtype(ta);
  unsigned ba = onnxslim_dtype_bits(dta);
  uint8_t *raw = onnxslim__diff_alloc(c, 3 * W * 8);
  double *val = onnxslim__diff_alloc_array(c, 3 * W, sizeof *val);
  window wq, ws, wz;
  onnxslim_diff_numbers z = ONNXSLIM_DIFF_NUMBERS_INIT;

  *num = z;
  num->elements = n;
  num->dequantized = dq->form;
  if (c->rc) goto out;
  win_init(&wq, dq->q, dq->packed_uint8, dq->transposed ? TILE : W, raw, val);
  win_init(&ws, dq->scale, 0, dq->transposed ? TILE / (dq->block ? dq->block : 1) + 2 : W,
           raw + W * 8, val + W);
  if (dq->zero) win_init(&wz, dq->zero, dq->zero_row_pad, ws.size, raw + 2 * W * 8, val + 2 * W);
  if (dq->transposed) {
    nblk = (dq->k + dq->block - 1) / dq->block;
  } else if (!dq->per_tensor) {
    nblk = (dq->axis_len + dq->block - 1) / dq->block;
  }
  zrow = dq->zero_row_pad ? 2 * ((nblk + 1) / 2) : nblk;
  if (!dq->transposed) {
    for (e = 0; e < n && !c->rc; e += W) {
      uint64_t k = n - e < W ? n - e : W, i;
      if (onnxslim_tensor_read(ta, e * ba / 8, c->ra, (size_t)(k * ba / 8)) != ONNXSLIM_OK) {
        onnxslim__diff_fail_lib(c, "%s: reading the data", what);
        break;
      }
      onnxslim__diff_decode(c, dta, c->ra, (size_t)k, c->da);
      for (i = 0; i < k && !c->rc; i++) {
        uint64_t f = e + i, s = 0, zi;
        double q = win_get(c, &wq, f), zp = (double)dq->default_zero, sc;
        if (!dq->per_tensor) {
          uint64_t o = f / (dq->axis_len * dq->inner), x = (f / dq->inner) % dq->axis_len,
                   in = f % dq->inner;
          s = dq->per_axis ? x : (o * nblk + x / dq->block) * dq->inner + in;
        }
        sc = win_get(c, &ws, s);
        if (dq->zero) {
          zi = dq->zero_row_pad ? (s / nblk) * zrow + s % nblk : s;
          zp = win_get(c, &wz, zi);
        }
        c->db[i] = (double)(float)((q - zp) * sc);
      }
      onnxslim__diff_fold(c->da, c->db, (size_t)k, num);
    }
  } else {
    /* A [K, N] in tiles of TILE x TILE against B's rows n (K codes each) */
    uint64_t K = dq->k, N = dq->n, kp = nblk * dq->block, k0, n0;
    for (k0 = 0; k0 < K && !c->rc; k0 += TILE)
      for (n0 = 0; n0 < N && !c->rc; n0 += TILE) {
        uint64_t R = K - k0 < TILE ? K - k0 : TILE, C = N - n0 < TILE ? N - n0 : TILE, r, j;
        for (r = 0; r < R && !c->rc; r++) {
          if (onnxslim_tensor_read(ta, ((k0 + r) * N + n0) * ba / 8, c->ra + r * C * ba / 8,
                                   (size_t)(C * ba / 8)) != ONNXSLIM_OK)
            onnxslim__diff_fail_lib(c, "%s: reading the data", what);
        }
        if (c->rc) break;
        onnxslim__diff_decode(c, dta, c->ra, (size_t)(R * C), c->da);
        for (j = 0; j < C && !c->rc; j++) {
          uint64_t col = n0 + j;
          for (r = 0; r < R && !c->rc; r++) {
            uint64_t kk = k0 + r, s = col * nblk + kk / dq->block;
            double q = win_get(c, &wq, col * kp + kk), zp = (double)dq->default_zero;
            double sc = win_get(c, &ws, s);
            if (dq->zero) zp = win_get(c, &wz, col * zrow + kk / dq->block);
            c->db[r * C + j] = (double)(float)((q - zp) * sc);
          }
        }
        onnxslim__diff_fold(c->da, c->db, (size_t)(R * C), num);
      }
  }
  if (num->nan_mismatches) num->max_abs_diff = NAN;
out:
  onnxslim__diff_free(c, raw, 3 * W * 8);
  onnxslim__diff_free(c, val, 3 * W * sizeof *val);
  return c->rc;
}
