/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - quantizing embedding tables (the tensors read as input 0 of
 * Gathers) to INT8 or INT4, symmetric or (ONNXSLIM_QUANT_ASYMMETRIC) with a
 * zero point, one scale per block of a row, and fixing the graph up so that
 * only the rows read are dequantized: standard ops (Gather + Gather of the
 * scales + DequantizeLinear, or Cast and Mul; for INT4, a Gather of UINT8
 * pairs unpacked with standard ops: the nibbles form) or onnxruntime's
 * com.microsoft.GatherBlockQuantized. docs/quantization.md gives the method.
 *
 * As for the floating-point conversions (convert.c), the quantized table
 * and its scales are pending transforms (osl_xform) of the source bytes,
 * one element per block: they run chunk by chunk while the model is saved,
 * so no quantized copy is ever held. A first pass over the source (chunked
 * too) checks every value is finite and fills the report. With a clip
 * percentile, one or two passes before it find the tensor's cap
 * (onnxslim__quant_clip_cap()); blocks over the cap get their scale from it and their
 * values beyond saturate.
 *
 * This file selects the tensors, plans and rewrites the graph (the nodes
 * it inserts); the numbers (block scales, rounding, packing, the clip
 * percentile) are in convert_quant_blocks.c, what both use in
 * convert_quant_blocks.h.
 */
#define _GNU_SOURCE
#if defined(__GNUC__) && !defined(__clang__)
/* the block loops below are written to be vectorized, which -O2 of GCC does
 * not do for loops of unknown length */
#  pragma GCC optimize("O3")
#endif
#include <float.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "convert_notes.h"
#include "convert_quant_blocks.h"

/* ---- selection ----------------------------------------------------------- */

static int is_onnx(const onnxslim_node *n, const char *op) {
  const char *d = onnxslim_node_domain(n);
  return strcmp(onnxslim_node_op_type(n), op) == 0 && (!d[0] || strcmp(d, "ai.onnx") == 0);
}

/* Is tensor t, known in graph g as `name` (an initializer or a Constant
 * node's value), read only as input `pos` (of two; of Gemms, two or three)
 * of nodes of op_type `op` (Gathers: along axis 0) that have one output,
 * named (the rewrite reads and renames it), rank 2,
 * FLOAT or FLOAT16, and no graph input or output? pos 0 of Gather: an
 * embedding table; pos 1 of MatMul or Gemm: a weight. */
static int sole_operand_named(const onnxslim_graph *g, const onnxslim_tensor *t, const char *name,
                              const char *op, size_t pos) {
  int32_t dt = onnxslim_tensor_dtype(t);
  if (onnxslim_tensor_rank(t) != 2 || (dt != ONNXSLIM_DTYPE_FLOAT && dt != ONNXSLIM_DTYPE_FLOAT16))
    return 0;
  size_t nc = onnxslim_graph_consumer_count(g, name);
  if (!nc) return 0;
  int gemm = strcmp(op, "Gemm") == 0;
  for (size_t i = 0; i < nc; i++) {
    onnxslim_node *c = onnxslim_graph_consumer(g, name, i);
    size_t nin = is_onnx(c, op) ? onnxslim_node_input_count(c) : 0;
    if (!(nin == 2 || (gemm && nin == 3)) || strcmp(onnxslim_node_input(c, pos), name) != 0 ||
        strcmp(onnxslim_node_input(c, 1 - pos), name) == 0 ||
        (nin == 3 && strcmp(onnxslim_node_input(c, 2), name) == 0) ||
        onnxslim_node_output_count(c) != 1 || !onnxslim_node_output(c, 0)[0])
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

/* Gemm node n's integer attribute `name` (default `def`); -1 when it is
 * not an integer. */
static int64_t gemm_int(const onnxslim_node *n, const char *name, int64_t def) {
  onnxslim_attr *a = onnxslim_node_find_attr(n, name);
  int64_t v = def;
  if (a && onnxslim_attr_int(a, &v)) return -1;
  return v;
}

/* The transB of the Gemms that read `name` (0 or 1), -1 when they differ
 * (the weight is stored in one orientation) or one is not an integer. */
static int gemm_trans_b(const onnxslim_graph *g, const char *name) {
  int t = -1;
  size_t nc = onnxslim_graph_consumer_count(g, name);
  for (size_t i = 0; i < nc; i++) {
    int64_t v = gemm_int(onnxslim_graph_consumer(g, name, i), "transB", 0);
    v = v < 0 ? -1 : v != 0;
    if (v < 0 || (i && v != t)) return -1;
    t = (int)v;
  }
  return t;
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
  int asym;        /* ONNXSLIM_QUANT_ASYMMETRIC: unsigned values and zero points */
  int nibbles;     /* ONNXSLIM_QUANT_FORMAT_NIBBLES (tables): UINT8 pairs unpacked after the
                      Gather */
  int32_t zp_type; /* asymmetric: the zero points' type (UINT8 or UINT4) */
  int mse;         /* ONNXSLIM_QUANT_SCALES_MSE: each block's scale searched */
  int fzp;         /* ONNXSLIM_QUANT_FLOAT_ZERO_POINTS: zero points of the scales' type */
} osl_qplan;

static int plan_common(const onnxslim_quant_options *o, osl_qplan *p) {
  memset(p, 0, sizeof *p);
  p->to = o->to;
  p->bits = o->to == ONNXSLIM_DTYPE_INT4 ? 4 : 8;
  p->ort = o->format == ONNXSLIM_QUANT_FORMAT_ORT;
  p->scale_type = o->scale_type;
  p->asym = !!(o->flags & ONNXSLIM_QUANT_ASYMMETRIC);
  p->mse = o->scale_method == ONNXSLIM_QUANT_SCALES_MSE;
  p->fzp = !!(o->flags & ONNXSLIM_QUANT_FLOAT_ZERO_POINTS);
  p->asym |= p->fzp;
  p->nibbles = o->format == ONNXSLIM_QUANT_FORMAT_NIBBLES;
  p->zp_type = ONNXSLIM_DTYPE_UINT8;
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
static int plan_tables(const onnxslim_model *m, const onnxslim_quant_options *o, osl_qplan *p) {
  plan_common(o, p);
  int64_t opset = default_opset(m);
  if (p->fzp)
    return onnxslim__err(ONNXSLIM_EINVAL,
                         "float zero points are MatMulNBits' (MatMul and Gemm weights): "
                         "GatherBlockQuantized and DequantizeLinear take integer zero points, so "
                         "an embedding table cannot have them (quantize the weights alone: "
                         "targets ONNXSLIM_QUANT_WEIGHTS, --select op:MatMul)");
  if (p->ort) return 0;
  if (p->nibbles) {
    if (p->bits != 4)
      return onnxslim__err(ONNXSLIM_EINVAL,
                           "the nibbles format stores 4-bit values: it takes INT4, not INT8");
    if (opset < 7)
      return onnxslim__err(ONNXSLIM_EMODEL,
                           "the nibbles format unpacks with Div, Floor and broadcasting Mul and "
                           "Sub, which need opset 7 or later; the model imports ai.onnx opset "
                           "%lld",
                           (long long)opset);
    /* the bytes of GatherBlockQuantized's 4 bits: q + 8 (or q), low nibble
     * first */
    p->layout = OSL_QL_U4;
    p->stored = ONNXSLIM_DTYPE_UINT8;
    return 0;
  }
  if (p->bits == 8 || opset < 21) {
    if (p->bits == 4 && !(o->flags & ONNXSLIM_QUANT_ALLOW_UNPACKED)) return int4_refused(opset);
    p->layout = OSL_QL_I8;
    p->stored = p->asym ? ONNXSLIM_DTYPE_UINT8 : ONNXSLIM_DTYPE_INT8;
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
  p->stored = p->asym ? ONNXSLIM_DTYPE_UINT4 : ONNXSLIM_DTYPE_INT4;
  p->zp_type = ONNXSLIM_DTYPE_UINT4;
  p->dq_table = 1;
  return 0;
}

/* MatMul weights: DequantizeLinear before the MatMul (blocked along K at
 * opset 21, per column from 13), or MatMulNBits. */
static int plan_weights(const onnxslim_model *m, const onnxslim_quant_options *o, osl_qplan *p) {
  plan_common(o, p);
  int64_t opset = default_opset(m);
  /* the default scale method for INT4 MatMulNBits: float zero points
   * (closer than absmax and onnxruntime's RTN and HQQ at about absmax's
   * time; docs/quantization.md), unless the caller asked for integer zero
   * points (ONNXSLIM_QUANT_ASYMMETRIC) or a clip */
  if (p->ort && p->bits == 4 && !p->asym && o->scale_method == ONNXSLIM_QUANT_SCALES_DEFAULT &&
      o->clip_percentile == 0)
    p->fzp = p->asym = 1;
  if (p->ort) return 0;
  if (p->nibbles)
    return onnxslim__err(ONNXSLIM_EINVAL,
                         "the nibbles format is for embedding tables (read by Gathers), not "
                         "MatMul or Gemm weights: use the standard or ort format");
  p->dq_table = 1;
  if (opset >= 21) {
    p->layout = p->bits == 8 ? OSL_QL_I8 : OSL_QL_I4;
    p->stored = p->bits == 8 ? ONNXSLIM_DTYPE_INT8 : ONNXSLIM_DTYPE_INT4;
    if (p->asym) {
      p->stored = p->bits == 8 ? ONNXSLIM_DTYPE_UINT8 : ONNXSLIM_DTYPE_UINT4;
      p->zp_type = p->stored;
    }
    return 0;
  }
  if (opset < 13)
    return onnxslim__err(ONNXSLIM_EMODEL,
                         "a MatMul or Gemm weight is dequantized by DequantizeLinear per axis, "
                         "which needs opset 13 or later; the model imports ai.onnx opset %lld",
                         (long long)opset);
  if (p->bits == 4 && !(o->flags & ONNXSLIM_QUANT_ALLOW_UNPACKED)) return int4_refused(opset);
  if (o->block_size)
    return onnxslim__err(ONNXSLIM_EMODEL,
                         "blocks of %llu values need DequantizeLinear with block_size (opset 21); "
                         "the model imports ai.onnx opset %lld: quantize per column (block size "
                         "0) or use the onnxruntime format",
                         (unsigned long long)o->block_size, (long long)opset);
  p->layout = OSL_QL_I8;
  p->stored = p->asym ? ONNXSLIM_DTYPE_UINT8 : ONNXSLIM_DTYPE_INT8;
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

/* K (the reduction axis) and N of weight c. */
static int64_t weight_k(const osl_qcand *c) { return c->kt ? c->cols : c->rows; }
static int64_t weight_n(const osl_qcand *c) { return c->kt ? c->rows : c->cols; }

/* Refuses (ONNXSLIM_EMODEL) a Gemm reading weight c that MatMulNBits cannot
 * compute: it computes A x B (+ a bias [N]), so transA 0, alpha 1, and no
 * C, or C of shape [N] (known from an initializer or value_info) with beta 1. */
static int gemm_nbits_fits(const onnxslim_graph *g, const osl_qcand *c) {
  size_t nc = onnxslim_graph_consumer_count(g, c->name);
  for (size_t i = 0; i < nc; i++) {
    onnxslim_node *n = onnxslim_graph_consumer(g, c->name, i);
    const char *why = NULL;
    float alpha = 1, beta = 1;
    onnxslim_attr *a = onnxslim_node_find_attr(n, "alpha");
    onnxslim_attr *b = onnxslim_node_find_attr(n, "beta");
    const char *cn = onnxslim_node_input_count(n) == 3 ? onnxslim_node_input(n, 2) : "";
    if (gemm_int(n, "transA", 0) != 0) why = "transA is not 0";
    else if ((a && onnxslim_attr_float(a, &alpha)) || alpha != 1.0f) why = "alpha is not 1";
    else if (cn[0] && ((b && onnxslim_attr_float(b, &beta)) || beta != 1.0f))
      why = "it has C and beta is not 1";
    else if (cn[0]) {
      /* C's shape: an initializer's, else a value_info's */
      int64_t d = -1;
      size_t rank = 0;
      onnxslim_tensor *t = onnxslim_graph_find_initializer(g, cn);
      onnxslim_value_info *vi = t ? NULL : onnxslim_graph_find_value_info(g, cn);
      onnxslim_type *ty = vi ? onnxslim_value_info_type(vi) : NULL;
      if (t) {
        rank = onnxslim_tensor_rank(t);
        if (rank == 1) d = onnxslim_tensor_dim(t, 0);
      } else if (ty && onnxslim_type_has_shape(ty)) {
        rank = onnxslim_type_rank(ty);
        if (rank != 1 || onnxslim_type_dim(ty, 0, &d, NULL) != ONNXSLIM_DIM_VALUE) d = -1;
      }
      if (rank != 1 || d != weight_n(c)) why = "its C is not known to be a vector of N values";
    }
    if (why) {
      const char *nm = onnxslim_node_name(n);
      return onnxslim__err(ONNXSLIM_EMODEL,
                           "'%s': Gemm '%s' (output '%s') cannot be rewritten as MatMulNBits: %s "
                           "(MatMulNBits computes A x B + bias[N]; use the standard format, or "
                           "exclude the weight)",
                           c->name, nm ? nm : "", onnxslim_node_output(n, 0), why);
    }
  }
  return 0;
}

/* Rewrites MatMul node mn, which reads weight c (now quantized, scales in
 * `scales`, zero points `zps` or NULL), as a MatMulNBits; a Gemm
 * (gemm_nbits_fits() said it fits) likewise, its C (if any) becoming
 * MatMulNBits' bias (input 5). */
static int fix_matmul(onnxslim_node *mn, const osl_qcand *c, const osl_qplan *p, const char *scales,
                      const char *zps) {
  size_t nin = onnxslim_node_input_count(mn);
  char *a = strdup(onnxslim_node_input(mn, 0));
  char *bias = strdup(c->gemm && nin == 3 ? onnxslim_node_input(mn, 2) : "");
  if (!a || !bias) {
    free(a);
    free(bias);
    return onnxslim__err_nomem(NULL);
  }
  const char *in[6] = {a, c->name, scales, zps ? zps : "", "", bias};
  static const char *const gemm_attrs[4] = {"transA", "transB", "alpha", "beta"};
  int rc = onnxslim_node_set_op_type(mn, "MatMulNBits");
  if (!rc) rc = onnxslim_node_set_domain(mn, "com.microsoft");
  if (!rc) rc = onnxslim_node_set_inputs(mn, in, bias[0] ? 6 : zps ? 4 : 3);
  for (size_t i = 0; i < 4 && !rc && c->gemm; i++)
    if (onnxslim_node_find_attr(mn, gemm_attrs[i]))
      rc = onnxslim_node_remove_attr(mn, gemm_attrs[i]);
  if (!rc) rc = onnxslim_node_set_attr_int(mn, "K", weight_k(c));
  if (!rc) rc = onnxslim_node_set_attr_int(mn, "N", weight_n(c));
  if (!rc) rc = onnxslim_node_set_attr_int(mn, "bits", p->bits);
  if (!rc) rc = onnxslim_node_set_attr_int(mn, "block_size", (int64_t)c->bs);
  free(a);
  free(bias);
  return rc;
}

/* A new initializer `base``suffix` of graph g (its name in *name): a copy
 * of the `size` bytes at v, of type dtype and shape dims (rank 0: a
 * scalar). */
static int add_const(onnxslim_model *m, onnxslim_graph *g, const char *base, const char *suffix,
                     int32_t dtype, const int64_t *dims, size_t rank, const void *v, size_t size,
                     const char **name) {
  int rc = fresh(m, base, suffix, name);
  if (!rc)
    rc = onnxslim_graph_add_initializer(g, *name, dtype, dims, rank, v, size, ONNXSLIM_COPY, NULL);
  return rc;
}

/* The nibbles form: Gather gn now gathers the packed rows (UINT8 [..., K/2])
 * of table c; after it (from *at on), the pairs are unpacked in FLOAT
 * (hi = Floor(b / 16), lo = b - 16 hi, interleaved by a Concat of the two
 * as columns of [-1, 2]), centred (- 8, or - the gathered zero point),
 * scaled per block ([-1, blocks, block] * [-1, blocks, 1]) and reshaped
 * to Shape(indices) + [K], which `deq` receives in the scales' type. The
 * arithmetic is exact up to the one product, rounded once to FLOAT and, for
 * FLOAT16 scales, once more to FLOAT16, as GatherBlockQuantized does. */
static int fix_gather_nibbles(onnxslim_model *m, onnxslim_graph *g, onnxslim_node *gn,
                              const osl_qcand *c, const osl_qplan *p, const char *scales,
                              const char *zps, const char *iname, const char *yname,
                              const char *deq, onnxslim_node **at) {
  const char *yp = NULL, *pf = NULL, *pr = NULL, *hd = NULL, *hi = NULL, *h16 = NULL, *lo = NULL;
  const char *pv = NULL, *vb = NULL, *vc = NULL, *ys = NULL, *sr = NULL, *yd = NULL, *ish = NULL;
  const char *osh = NULL, *yo = NULL, *k16 = NULL, *k8 = NULL, *shp_pairs = NULL;
  const char *shp_blocks = NULL, *shp_sc = NULL, *kdim = NULL;
  int64_t nb = c->cols / (int64_t)c->bs, bs = (int64_t)c->bs;
  int64_t pairs[2] = {-1, 1}, blocks[3] = {-1, nb, bs}, sc[3] = {-1, nb, 1}, kd[1] = {c->cols};
  int64_t d1 = 2, d3 = 3, d1k = 1;
  float f16 = 16.0f, f8 = 8.0f;
  int rc = fresh(m, yname, "_packed", &yp);
  if (!rc) rc = onnxslim_node_set_output(gn, 0, yp);
  if (!rc) rc = add_const(m, g, yname, "_sixteen", ONNXSLIM_DTYPE_FLOAT, NULL, 0, &f16, 4, &k16);
  if (!rc && !zps)
    rc = add_const(m, g, yname, "_eight", ONNXSLIM_DTYPE_FLOAT, NULL, 0, &f8, 4, &k8);
  if (!rc)
    rc =
        add_const(m, g, yname, "_pairs_shape", ONNXSLIM_DTYPE_INT64, &d1, 1, pairs, 16, &shp_pairs);
  if (!rc)
    rc = add_const(m, g, yname, "_blocks_shape", ONNXSLIM_DTYPE_INT64, &d3, 1, blocks, 24,
                   &shp_blocks);
  if (!rc)
    rc = add_const(m, g, yname, "_scales_shape", ONNXSLIM_DTYPE_INT64, &d3, 1, sc, 24, &shp_sc);
  if (!rc) rc = add_const(m, g, yname, "_row_dim", ONNXSLIM_DTYPE_INT64, &d1k, 1, kd, 8, &kdim);
  const char *names[] = {"_packed_float", "_packed_pairs", "_high_div",      "_high",    "_high16",
                         "_low",          "_values",       "_blocks",        "_centred", "_scale",
                         "_scale_blocks", "_scaled",       "_indices_shape", "_shape",   "_float"};
  const char **outs[] = {&pf, &pr, &hd, &hi, &h16, &lo,  &pv, &vb,
                         &vc, &ys, &sr, &yd, &ish, &osh, &yo};
  for (size_t i = 0; i < sizeof names / sizeof *names && !rc; i++)
    rc = fresh(m, yname, names[i], outs[i]);
  /* unpack */
  if (!rc) rc = add_after(g, at, "Cast", NULL, &yp, 1, pf);
  if (!rc) rc = onnxslim_node_set_attr_int(*at, "to", ONNXSLIM_DTYPE_FLOAT);
  const char *in_pr[2] = {pf, shp_pairs}, *in_hd[2] = {pr, k16}, *in_h16[2] = {hi, k16};
  const char *in_lo[2] = {pr, h16}, *in_pv[2] = {lo, hi}, *in_vb[2] = {pv, shp_blocks};
  if (!rc) rc = add_after(g, at, "Reshape", NULL, in_pr, 2, pr);
  if (!rc) rc = add_after(g, at, "Div", NULL, in_hd, 2, hd);
  if (!rc) rc = add_after(g, at, "Floor", NULL, &hd, 1, hi);
  if (!rc) rc = add_after(g, at, "Mul", NULL, in_h16, 2, h16);
  if (!rc) rc = add_after(g, at, "Sub", NULL, in_lo, 2, lo);
  if (!rc) rc = add_after(g, at, "Concat", NULL, in_pv, 2, pv);
  if (!rc) rc = onnxslim_node_set_attr_int(*at, "axis", 1);
  if (!rc) rc = add_after(g, at, "Reshape", NULL, in_vb, 2, vb);
  /* centre */
  if (!rc && zps) {
    const char *yz = NULL, *zf = NULL, *zr = NULL;
    const char *in_gz[2] = {zps, iname};
    rc = fresh(m, yname, "_zero_point", &yz);
    if (!rc) rc = fresh(m, yname, "_zero_point_float", &zf);
    if (!rc) rc = fresh(m, yname, "_zero_point_blocks", &zr);
    if (!rc) rc = add_after(g, at, "Gather", NULL, in_gz, 2, yz);
    if (!rc) rc = add_after(g, at, "Cast", NULL, &yz, 1, zf);
    if (!rc) rc = onnxslim_node_set_attr_int(*at, "to", ONNXSLIM_DTYPE_FLOAT);
    const char *in_zr[2] = {zf, shp_sc}, *in_vc[2] = {vb, zr};
    if (!rc) rc = add_after(g, at, "Reshape", NULL, in_zr, 2, zr);
    if (!rc) rc = add_after(g, at, "Sub", NULL, in_vc, 2, vc);
  } else if (!rc) {
    const char *in_vc[2] = {vb, k8};
    rc = add_after(g, at, "Sub", NULL, in_vc, 2, vc);
  }
  /* scale */
  const char *in_gs[2] = {scales, iname};
  if (!rc) rc = add_after(g, at, "Gather", NULL, in_gs, 2, ys);
  if (!rc && p->scale_type != ONNXSLIM_DTYPE_FLOAT) {
    const char *ysf = NULL;
    rc = fresh(m, yname, "_scale_float", &ysf);
    if (!rc) rc = add_after(g, at, "Cast", NULL, &ys, 1, ysf);
    if (!rc) rc = onnxslim_node_set_attr_int(*at, "to", ONNXSLIM_DTYPE_FLOAT);
    ys = ysf;
  }
  const char *in_sr[2] = {ys, shp_sc}, *in_yd[2] = {vc, sr};
  if (!rc) rc = add_after(g, at, "Reshape", NULL, in_sr, 2, sr);
  if (!rc) rc = add_after(g, at, "Mul", NULL, in_yd, 2, yd);
  /* the rows' shape: the indices' shape and K */
  const char *in_osh[2] = {ish, kdim};
  if (!rc) rc = add_after(g, at, "Shape", NULL, &iname, 1, ish);
  if (!rc) rc = add_after(g, at, "Concat", NULL, in_osh, 2, osh);
  if (!rc) rc = onnxslim_node_set_attr_int(*at, "axis", 0);
  int f32 = p->scale_type == ONNXSLIM_DTYPE_FLOAT;
  const char *in_yo[2] = {yd, osh};
  if (!rc) rc = add_after(g, at, "Reshape", NULL, in_yo, 2, f32 ? deq : yo);
  if (!rc && !f32) { /* FLOAT16 scales: the product rounded to them */
    rc = add_after(g, at, "Cast", NULL, &yo, 1, deq);
    if (!rc) rc = onnxslim_node_set_attr_int(*at, "to", p->scale_type);
  }
  return rc;
}

/* Rewrites Gather node gn, which reads table c (now quantized, scales in
 * `scales`): see the file's head. */
static int fix_gather(onnxslim_model *m, onnxslim_graph *g, onnxslim_node *gn, const osl_qcand *c,
                      const osl_qplan *p, const char *scales, const char *zps,
                      const char *table_dq) {
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
    const char *in[4] = {c->name, iname, scales, zps};
    rc = onnxslim_node_set_op_type(gn, "GatherBlockQuantized");
    if (!rc) rc = onnxslim_node_set_domain(gn, "com.microsoft");
    if (!rc) rc = onnxslim_node_set_inputs(gn, in, zps ? 4 : 3);
    if (!rc && onnxslim_node_find_attr(gn, "axis")) rc = onnxslim_node_remove_attr(gn, "axis");
    if (!rc) rc = onnxslim_node_set_attr_int(gn, "bits", p->bits);
    if (!rc) rc = onnxslim_node_set_attr_int(gn, "block_size", (int64_t)c->bs);
    if (!rc) rc = onnxslim_node_set_attr_int(gn, "gather_axis", 0);
    if (!rc) rc = onnxslim_node_set_attr_int(gn, "quantize_axis", 1);
    if (!rc) rc = onnxslim_node_set_output(gn, 0, deq);
  } else if (p->nibbles) {
    rc = fix_gather_nibbles(m, g, gn, c, p, scales, zps, iname, yname, deq, &at);
  } else if (p->dq_table) {
    rc = onnxslim_node_set_input(gn, 0, table_dq);
    if (!rc) rc = onnxslim_node_set_output(gn, 0, deq);
  } else {
    const char *yq, *ys, *yz = NULL;
    rc = fresh(m, yname, "_q", &yq);
    if (!rc) rc = fresh(m, yname, "_scale", &ys);
    if (!rc) rc = onnxslim_node_set_output(gn, 0, yq);
    const char *gs_in[2] = {scales, iname};
    if (!rc) rc = add_after(g, &at, "Gather", NULL, gs_in, 2, ys);
    if (!rc && zps) { /* the zero points, gathered with the same indices */
      const char *gz_in[2] = {zps, iname};
      rc = fresh(m, yname, "_zero_point", &yz);
      if (!rc) rc = add_after(g, &at, "Gather", NULL, gz_in, 2, yz);
    }
    if (!rc && p->dq) {
      const char *in[3] = {yq, ys, yz};
      rc = add_after(g, &at, "DequantizeLinear", NULL, in, yz ? 3 : 2, deq);
      if (!rc) rc = onnxslim_node_set_attr_int(at, "axis", -1);
      if (!rc) rc = onnxslim_node_set_attr_int(at, "block_size", (int64_t)c->bs);
    } else if (!rc) {
      const char *yc;
      rc = fresh(m, yname, "_int", &yc);
      if (!rc) rc = add_after(g, &at, "Cast", NULL, &yq, 1, yc);
      if (!rc) rc = onnxslim_node_set_attr_int(at, "to", p->scale_type);
      if (!rc && yz) { /* (Cast(q) - Cast(zp)) * scale: the difference is exact */
        const char *yzc = NULL, *yd = NULL;
        rc = fresh(m, yname, "_zero_point_cast", &yzc);
        if (!rc) rc = fresh(m, yname, "_centered", &yd);
        if (!rc) rc = add_after(g, &at, "Cast", NULL, &yz, 1, yzc);
        if (!rc) rc = onnxslim_node_set_attr_int(at, "to", p->scale_type);
        const char *sub_in[2] = {yc, yzc};
        if (!rc) rc = add_after(g, &at, "Sub", NULL, sub_in, 2, yd);
        yc = yd;
      }
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
  q->whole = c->data;
  q->x.run = onnxslim__quant_qx_run;
  q->src = c->from;
  q->scale_type = p->scale_type;
  q->qmax = p->asym ? (p->bits == 8 ? 255 : 15) : (p->bits == 8 ? 127 : 7);
  q->asym = p->asym;
  q->layout = layout;
  q->bs = bs;
  q->clip = c->clip;
  q->cap = c->cap;
  q->mse = (p->mse || p->fzp) && !c->clip;
  q->fzp = p->fzp ? onnxslim__quant_fzp_codes : NULL;
  if (p->fzp) q->x.run = onnxslim__quant_fzp_run;
  if (!c->mm || c->kt) { /* blocks along the stored rows */
    q->geom = OSL_QG_ROW;
    q->x.count = rows * cols / bs;
  } else if (p->ort) {
    q->geom = OSL_QG_STRIDED;
    q->x.in_place = 1; /* its blocks are read from the whole source (q->whole) */
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
  case OSL_QL_ZP: q->x.out_size = per; break;
  default: q->x.out_size = per * ssz;
  }
}

/* Scales of at most this many bytes are computed by the first pass (which
 * then also checks the values) and kept, instead of being a second pending
 * transform that reads the whole tensor again while saving. */
#define OSL_SCALES_KEPT ((size_t)16 << 20)

/* ---- the first pass on two threads -----------------------------------------
 * The first pass (validate(), keep_scales()) over a tensor of at least
 * OSL_QSPLIT_MIN source bytes goes in slices
 * of about OSL_QSLICE_BYTES, each slice in two halves run at the same time
 * (the second on a thread of its own, into statistics of its own), the
 * progress meter (and its cancel) told after each slice. Each block is
 * computed alone, whichever thread does it, and the halves end on row
 * boundaries: the same outputs, kept scales and zero points, and merged
 * statistics as one pass gives (counts add up, maxima are maxima). The
 * scale search (asymmetric, mse, float zero points) is most of a
 * quantization's time: this halves it on two cores. */
#define OSL_QSPLIT_MIN ((size_t)1 << 20)
#define OSL_QSLICE_BYTES ((size_t)64 << 20)

typedef struct {
  const onnxslim_model *model;
  osl_qx q; /* the half: its own elements, statistics and buffers */
  uint8_t *dst;
  osl_qacc acc;
  int rc;
  char err[256];
} osl_qhalf;

static void qhalf_run(void *arg) {
  osl_qhalf *h = arg;
  h->rc = onnxslim__xform_chunks(h->model, &h->q.x, h->dst, NULL, NULL);
  if (h->rc) snprintf(h->err, sizeof h->err, "%s", onnxslim_error_last());
}

/* Elements first..first+n of q (the whole tensor's transform) as a
 * transform of their own, its statistics into acc (when q has some):
 * half h, output at dst (of the whole, or NULL). */
static void qhalf_init(osl_qhalf *h, const onnxslim_model *m, const osl_qx *q, size_t first,
                       size_t n, uint8_t *dst) {
  memset(h, 0, sizeof *h);
  h->model = m;
  h->q = *q;
  h->q.model = NULL; /* a strided source's pages go once the whole pass is done */
  h->q.base = first;
  h->q.x.src = q->x.src + first * q->x.in_size;
  h->q.x.count = n;
  h->dst = dst ? dst + first * q->x.out_size : NULL;
  if (q->acc) {
    onnxslim_convert_stats init = ONNXSLIM_CONVERT_STATS_INIT;
    h->acc.s = init;
    h->acc.blocks_per_row = q->acc->blocks_per_row;
    h->q.acc = &h->acc;
  }
}

static void qacc_merge(osl_qacc *to, const osl_qacc *from) {
  to->q.rows += from->q.rows;
  to->q.blocks += from->q.blocks;
  to->q.saturated += from->q.saturated;
  to->q.rows_over_1pct += from->q.rows_over_1pct;
  if (from->q.scale_max > 0) { /* acc_block()'s range of the scales */
    if (to->q.scale_max == 0 || from->q.scale_min < to->q.scale_min)
      to->q.scale_min = from->q.scale_min;
    if (from->q.scale_max > to->q.scale_max) to->q.scale_max = from->q.scale_max;
  }
  if (from->q.max_abs_error > to->q.max_abs_error) to->q.max_abs_error = from->q.max_abs_error;
  if (from->q.max_row_rel_error > to->q.max_row_rel_error)
    to->q.max_row_rel_error = from->q.max_row_rel_error;
  to->s.count += from->s.count;
  to->s.to_inf += from->s.to_inf;
  to->s.saturated += from->s.saturated;
  to->s.flushed += from->s.flushed;
  to->s.nan += from->s.nan;
  if (from->s.max_abs_error > to->s.max_abs_error) to->s.max_abs_error = from->s.max_abs_error;
  if (from->s.max_rel_error > to->s.max_rel_error) to->s.max_rel_error = from->s.max_rel_error;
}

/* The first pass of q (output to dst, or dropped) on two threads (one when
 * no thread can be made), as above; then a strided source's pages released. */
static int qx_split(onnxslim_model *m, const osl_qx *q, uint8_t *dst, osl_progress *prog) {
  const osl_xform *x = &q->x;
  /* halves and slices end on rows: blocks_per_row elements of one block
   * (a table), or any element (a weight: a row is a block) */
  size_t row = q->acc && q->geom == OSL_QG_ROW ? (size_t)q->acc->blocks_per_row : 1;
  size_t slice = OSL_QSLICE_BYTES / (x->in_size ? x->in_size : 1) / row * row;
  if (slice < 2 * row) slice = 2 * row;
  int rc = 0;
  for (size_t i = 0; i < x->count && !rc; i += slice) {
    size_t n = x->count - i < slice ? x->count - i : slice, na = n / 2 / row * row;
    osl_qhalf a, b;
    qhalf_init(&a, m, q, i, na, dst);
    qhalf_init(&b, m, q, i + na, n - na, dst);
    osl_os_thread *th = onnxslim__os_thread_start(qhalf_run, &b);
    if (!th) qhalf_run(&b);
    qhalf_run(&a);
    if (th) onnxslim__os_thread_join(th);
    if (a.rc) rc = onnxslim__err(a.rc, "%s", a.err);
    else if (b.rc) rc = onnxslim__err(b.rc, "%s", b.err);
    if (!rc && q->acc) {
      qacc_merge(q->acc, &a.acc);
      qacc_merge(q->acc, &b.acc);
    }
    if (!rc) rc = onnxslim__progress_add(prog, (uint64_t)n * x->in_size);
  }
  if (!rc && q->geom == OSL_QG_STRIDED && q->model)
    onnxslim__release(q->model, x->src, x->count * x->in_size);
  return rc;
}

/* The validation pass over candidate c's source: with stats, the report's
 * statistics; asymmetric, also the zero points (c->zps). */
static int validate(onnxslim_model *m, osl_qcand *c, const osl_qplan *p, osl_progress *prog,
                    int stats) {
  osl_qx q;
  qx_init(&q, c, p, p->layout);
  q.model = m;
  memset(&c->acc, 0, sizeof c->acc);
  c->acc.blocks_per_row = c->mm ? 1 : (uint64_t)c->cols / c->bs;
  onnxslim_convert_stats init = ONNXSLIM_CONVERT_STATS_INIT;
  c->acc.s = init;
  q.acc = &c->acc;
  uint8_t *zps = NULL;
  if (p->asym) {
    /* the pass also computes the zero points, kept until the save (a byte
     * per block) */
    qx_init(&q, c, p, OSL_QL_ZP);
    q.model = m;
    q.acc = stats ? &c->acc : NULL;
    size_t nz = q.x.count * q.x.out_size;
    zps = onnxslim__arena_alloc(&m->arena, nz ? nz : 1);
    if (!zps) return onnxslim__err_nomem(NULL);
  }
  /* the scale search: its scales kept for the data pass (when small, as
   * keep_scales() keeps them), which then does not search again */
  uint8_t *kept = NULL, *kept_z = NULL;
  if (q.mse) {
    osl_qx sq;
    qx_init(&sq, c, p, OSL_QL_SCALES);
    size_t ns = sq.x.count * sq.x.out_size;
    /* float zero points: always kept (the data pass cannot search again
     * without them), as the zero points in the scales' type */
    if (ns <= OSL_SCALES_KEPT || p->fzp) {
      kept = onnxslim__arena_alloc(&m->arena, ns ? ns : 1);
      if (!kept) return onnxslim__err_nomem(NULL);
      q.keep_s = kept;
    }
    if (p->fzp) {
      kept_z = onnxslim__arena_alloc(&m->arena, ns ? ns : 1);
      if (!kept_z) return onnxslim__err_nomem(NULL);
      q.keep_z = kept_z;
    }
  }
  osl_qprog qp = {prog, q.x.in_size, q.x.out_size};
  int rc = q.x.count * q.x.in_size >= OSL_QSPLIT_MIN
               ? qx_split(m, &q, zps, prog)
               : onnxslim__xform_chunks(m, &q.x, zps, prog_chunk, &qp);
  if (!rc) c->zps = zps;
  if (!rc && kept) c->scales = kept;
  if (!rc && kept_z) c->fzps = kept_z;
  c->acc.q.max_row_rel_error = onnxslim__quant_dsqrt(c->acc.q.max_row_rel_error);
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
  int rc = q.x.count * q.x.in_size >= OSL_QSPLIT_MIN
               ? qx_split(m, &q, buf, prog)
               : onnxslim__xform_chunks(m, &q.x, buf, prog_chunk, &qp);
  if (rc == ONNXSLIM_EMODEL) {
    char msg[256];
    snprintf(msg, sizeof msg, "%s", onnxslim_error_last());
    return onnxslim__err(ONNXSLIM_EMODEL, "quantizing '%s': %s", c->name, msg);
  }
  if (!rc) c->scales = buf;
  return rc;
}

/* The zero points' bytes of asymmetric candidate c (one per block in
 * c->zps, in the scales' order) in the layout of plan p, dims (rank 1 or
 * 2) being the scales' shape on entry and the zero points' on return:
 * UINT8 of that shape; UINT4 (ONNX) of that shape packed over the whole
 * tensor, element 2i in the low nibble of byte i; GatherBlockQuantized and
 * MatMulNBits with 4 bits: UINT8 [rows, ceil(last / 2)], two a byte along
 * each row, low nibble first. */
static int zero_points(onnxslim_model *m, const osl_qcand *c, const osl_qplan *p,
                       const uint8_t **out, size_t *size, int64_t *dims, size_t rank) {
  size_t nb = (size_t)dims[rank - 1], rows = rank == 2 ? (size_t)dims[0] : 1, n = rows * nb;
  if (p->layout == OSL_QL_I8 || p->layout == OSL_QL_U8 || p->nibbles) {
    *out = c->zps;
    *size = n;
    return 0;
  }
  size_t per = p->layout == OSL_QL_U4 ? (nb + 1) / 2 : 0;
  *size = per ? rows * per : (n + 1) / 2;
  uint8_t *b = onnxslim__arena_alloc(&m->arena, *size ? *size : 1);
  if (!b) return onnxslim__err_nomem(NULL);
  memset(b, 0, *size);
  for (size_t i = 0; i < n; i++) {
    size_t r = i / nb, k = i % nb;
    size_t j = per ? r * per * 2 + k : i; /* the nibble's index */
    b[j / 2] |= (uint8_t)((c->zps[i] & 15u) << (j % 2 * 4));
  }
  if (per) dims[rank - 1] = (int64_t)per;
  *out = b;
  return 0;
}

/* Quantizes validated candidate c and fixes its readers up. */
static int apply(onnxslim_model *m, onnxslim_graph *g, osl_qcand *c, const osl_qplan *p) {
  osl_qx *data = onnxslim__arena_alloc(&m->arena, sizeof *data);
  osl_qx *sc = onnxslim__arena_alloc(&m->arena, sizeof *sc);
  if (!data || !sc) return onnxslim__err_nomem(NULL);
  qx_init(data, c, p, p->layout);
  qx_init(sc, c, p, OSL_QL_SCALES);
  data->model = sc->model = m;
  /* the searched scales (and zero points) of the first pass, when kept */
  data->given_s = c->scales;
  data->given_zp = c->zps;
  data->given_z = c->fzps;
  /* consumers first: the handles stay valid as the tensor changes */
  size_t nc = onnxslim_graph_consumer_count(g, c->name);
  onnxslim_node **readers = onnxslim__mem_alloc(m, (nc ? nc : 1) * sizeof *readers, QUANT);
  if (!readers) return onnxslim_error_last_code();
  for (size_t i = 0; i < nc; i++) readers[i] = onnxslim_graph_consumer(g, c->name, i);
  char *tname = strdup(c->name);
  const char *sname = NULL, *tdq = NULL, *zname = NULL;
  int rc = tname ? fresh(m, tname, "_scale", &sname) : onnxslim__err_nomem(NULL);
  int64_t rows = c->rows, cols = c->cols, bs = (int64_t)c->bs;
  /* the scales' shape */
  int64_t sdims[2] = {rows, cols / bs};
  size_t srank = 2;
  if (c->kt) srank = p->per_axis ? 1 : 2; /* [N, K/block] or [N], as tables */
  else if (c->mm && p->ort) sdims[0] = cols, sdims[1] = rows / bs;
  else if (c->mm && p->per_axis) sdims[0] = cols, srank = 1;
  else if (c->mm) sdims[0] = rows / bs, sdims[1] = cols;
  size_t zsize = 0;
  if (!rc && p->asym) {
    /* the zero points: a new initializer of their own bytes */
    const uint8_t *zb = NULL;
    int64_t zdims[2] = {sdims[0], sdims[1]};
    if (p->fzp) { /* float zero points: the scales' type and shape */
      zb = c->fzps;
      zsize = (size_t)sc->x.count * sc->x.out_size;
    } else {
      rc = zero_points(m, c, p, &zb, &zsize, zdims, srank);
    }
    if (!rc) rc = fresh(m, tname, "_zero_point", &zname);
    if (!rc)
      rc = onnxslim_graph_add_initializer(g, zname, p->fzp ? p->scale_type : p->zp_type, zdims,
                                          srank, zb, zsize, ONNXSLIM_BORROW, NULL);
  }
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
    int64_t dims[3] = {weight_n(c), weight_k(c) / bs, bs * p->bits / 8};
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
    const char *in[3] = {tname, sname, zname};
    onnxslim_node *at = NULL;
    rc = fresh(m, tname, "_dequantized", &tdq);
    if (!rc) rc = add_after(g, &at, "DequantizeLinear", NULL, in, zname ? 3 : 2, tdq);
    /* the blocks' axis: 0 along a [K, N] weight's rows, else 1; per axis,
     * the other one */
    int64_t axis = c->mm && !c->kt ? 0 : 1;
    if (!rc) rc = onnxslim_node_set_attr_int(at, "axis", p->per_axis ? 1 - axis : axis);
    if (!rc && !p->per_axis) rc = onnxslim_node_set_attr_int(at, "block_size", bs);
  }
  for (size_t i = 0; i < nc && !rc; i++) {
    if (c->mm && p->ort) rc = fix_matmul(readers[i], c, p, sname, zname);
    else if (c->mm) rc = onnxslim_node_set_input(readers[i], 1, tdq);
    else rc = fix_gather(m, g, readers[i], c, p, sname, zname, tdq);
  }
  if (!rc && c->e) {
    c->e->after = dsize + ssize + zsize;
    c->e->stats = c->acc.s;
    c->e->stats.max_abs_error = c->acc.q.max_abs_error;
    c->e->quantized = 1;
    c->e->quant = c->acc.q;
  }
  onnxslim__mem_free(m, readers);
  free(tname);
  return rc;
}

#define OSL_ORT_DEFAULT_BLOCK 128u

static int is_pow2(uint64_t v) { return v && !(v & (v - 1)); }

/* The block size of the onnxruntime format when none is given:
 * onnxruntime's own default, 128 (GatherBlockQuantized's block_size, its
 * MatMulNBits quantizers'), or the largest power of two from 64 down to 16
 * that divides len when 128 does not; len itself when none does (refused
 * by shape_ok()). */
static uint64_t ort_default_block(uint64_t len) {
  for (uint64_t b = OSL_ORT_DEFAULT_BLOCK; b >= 16; b /= 2)
    if (len % b == 0) return b;
  return len;
}

/* A weight or table held in a Constant node becomes an initializer named
 * after the node's output (its bytes shared, not copied) and the node goes:
 * the rewrite then treats it as any initializer. Done only once every
 * candidate was checked and measured, so a refusal leaves the model as it
 * was. */
static int lift_constant(onnxslim_graph *g, osl_qcand *c) {
  onnxslim_tensor *init = NULL;
  const void *d = NULL;
  size_t size = 0;
  char *name = strdup(c->name);
  int rc =
      name ? onnxslim_graph_add_initializer_copy(g, c->t, name, &init) : onnxslim__err_nomem(NULL);
  free(name);
  if (!rc) rc = onnxslim_graph_remove_node(g, c->constant);
  if (!rc) rc = onnxslim_tensor_data(init, &d, &size);
  if (rc) return rc;
  c->t = init;
  c->name = onnxslim_tensor_name(init);
  c->data = d;
  c->constant = NULL;
  return 0;
}

/* Checks candidate c's shape against the block size and the plan. */
static int shape_ok(const osl_qcand *c, const osl_qplan *p, const onnxslim_quant_options *o) {
  const char *what = c->mm && !c->kt ? "columns" : "rows";
  int64_t len = c->mm ? weight_k(c) : c->cols; /* along the blocks */
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
                         "of %lld values, which no power of two from 16 to 128 divides)",
                         c->name, c->mm ? "MatMulNBits" : "GatherBlockQuantized", what,
                         (long long)len);
  if (c->mm && (p->ort || o->scale_type) && p->scale_type != c->from)
    return onnxslim__err(ONNXSLIM_EINVAL,
                         "'%s': the scales of a MatMul or Gemm weight have the weight's type (%s)",
                         c->name, onnxslim_dtype_name(c->from));
  return 0;
}

static int quantize_model(onnxslim_convert_report *r, onnxslim_model *model,
                          const onnxslim_quant_options *o) {
  if (o->format != ONNXSLIM_QUANT_FORMAT_STANDARD && o->format != ONNXSLIM_QUANT_FORMAT_ORT &&
      o->format != ONNXSLIM_QUANT_FORMAT_NIBBLES)
    return onnxslim__err(ONNXSLIM_EINVAL, "unknown quantization format %d", o->format);
  if (o->flags & ~(ONNXSLIM_QUANT_ALLOW_UNPACKED | ONNXSLIM_QUANT_ASYMMETRIC |
                   ONNXSLIM_QUANT_FLOAT_ZERO_POINTS))
    return onnxslim__err(ONNXSLIM_EINVAL, "reserved quantization flags 0x%x set", o->flags);
  if ((o->flags & ONNXSLIM_QUANT_FLOAT_ZERO_POINTS) &&
      (o->to != ONNXSLIM_DTYPE_INT4 || o->format != ONNXSLIM_QUANT_FORMAT_ORT ||
       o->clip_percentile != 0))
    return onnxslim__err(ONNXSLIM_EINVAL,
                         "float zero points are written for MatMulNBits only: they need INT4, "
                         "the onnxruntime format and no clip percentile (DequantizeLinear and "
                         "GatherBlockQuantized take integer zero points)");
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
  /* the initializers, then the values of Constant nodes (weights held in
   * Constants are quantized too: each becomes an initializer of its output's
   * name once everything is checked) */
  size_t ni = onnxslim_graph_initializer_count(g), nn = onnxslim_graph_node_count(g);
  osl_qcand *cands = onnxslim__mem_calloc(model, ni + nn ? ni + nn : 1, sizeof *cands, QUANT);
  unsigned char *hit = calloc(o->n_select ? o->n_select : 1, 1);
  size_t nc = 0;
  if (!cands || !hit) {
    rc = cands ? onnxslim__err_nomem(NULL) : onnxslim_error_last_code();
    goto out;
  }
  for (size_t i = 0; i < ni + nn && !rc; i++) {
    onnxslim_tensor *t = NULL;
    onnxslim_node *constant = NULL;
    const char *name;
    if (i < ni) {
      t = onnxslim_graph_initializer(g, i);
      name = onnxslim_tensor_name(t);
    } else {
      constant = onnxslim_graph_node(g, i - ni);
      onnxslim_attr *a = is_onnx(constant, "Constant") && onnxslim_node_output_count(constant) == 1
                             ? onnxslim_node_find_attr(constant, "value")
                             : NULL;
      t = a && onnxslim_attr_type(a) == ONNXSLIM_ATTR_TENSOR ? onnxslim_attr_tensor(a) : NULL;
      if (!t) continue;
      name = onnxslim_node_output(constant, 0);
    }
    int mm, gemm = 0, kt = 0;
    if (sole_operand_named(g, t, name, "Gather", 0)) mm = 0;
    else if (sole_operand_named(g, t, name, "MatMul", 1)) mm = 1;
    else if (sole_operand_named(g, t, name, "Gemm", 1) && (kt = gemm_trans_b(g, name)) >= 0)
      mm = gemm = 1;
    else continue;
    if (!(o->targets & (mm ? ONNXSLIM_QUANT_WEIGHTS : ONNXSLIM_QUANT_TABLES))) continue;
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
    c->constant = constant;
    c->mm = mm;
    c->gemm = gemm;
    c->kt = kt;
    c->from = onnxslim_tensor_dtype(t);
    c->rows = onnxslim_tensor_dim(t, 0);
    c->cols = onnxslim_tensor_dim(t, 1);
    if (c->rows <= 0 || c->cols <= 0) continue;
    uint64_t len = (uint64_t)(mm ? weight_k(c) : c->cols);
    c->bs = o->block_size                            ? o->block_size
            : o->format == ONNXSLIM_QUANT_FORMAT_ORT ? ort_default_block(len)
                                                     : len;
    osl_qplan pc = *p;
    if (!o->scale_type) pc.scale_type = c->from;
    rc = shape_ok(c, &pc, o);
    if (!rc && gemm && pc.ort) rc = gemm_nbits_fits(g, c);
    const void *d;
    if (!rc) rc = onnxslim_tensor_data(t, &d, &c->size);
    if (!rc) c->data = d;
    if (!rc) nc++;
  }
  for (size_t i = 0; i < o->n_select && !rc; i++)
    if (!hit[i])
      rc = onnxslim__err(ONNXSLIM_ENOTFOUND,
                         "selection '%s' matches no tensor that can be quantized to %s (an "
                         "embedding table or MatMul or Gemm weight: a FLOAT or FLOAT16 "
                         "initializer of rank 2 read only as the data of Gathers along axis 0, "
                         "only as input 1 of MatMuls, or only as input B of Gemms of one transB)",
                         o->select[i], onnxslim_dtype_name(o->to));
  /* no selection and nothing of the kinds quantized: not an error (as for
   * the floating-point conversions), an empty report */
  if (rc) goto out;
  /* the validation pass, then the model */
  uint64_t total = 0;
  for (size_t i = 0; i < nc; i++) {
    total += cands[i].size;
    /* the clip percentile's histogram passes */
    if (o->clip_percentile != 0)
      total += cands[i].size * (cands[i].from == ONNXSLIM_DTYPE_FLOAT ? 2 : 1);
  }
  osl_progress prog;
  rc = onnxslim__progress_start(&prog, o->progress, o->progress_payload, total);
  int any_ort = 0;
  /* the statistics pass only for a report that wants it; else a check that
   * every value is finite, which costs little more than reading them */
  int stats = r && !(o->report_flags & ONNXSLIM_QUANT_REPORT_NO_STATS);
  for (size_t i = 0; i < nc && !rc; i++) {
    osl_qplan pi = plans[cands[i].mm];
    if (!o->scale_type) pi.scale_type = cands[i].from;
    any_ort |= pi.ort;
    if (o->clip_percentile != 0)
      rc = onnxslim__quant_clip_cap(model, &cands[i], o->clip_percentile, &prog);
    if (rc) break;
    osl_qx sq;
    qx_init(&sq, &cands[i], &pi, OSL_QL_SCALES);
    if (stats || pi.asym) rc = validate(model, &cands[i], &pi, &prog, stats);
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
    if (c->constant) rc = lift_constant(g, c);
    if (rc) break;
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
  onnxslim__mem_free(model, cands);
  free(hit);
  return rc;
}

/* ---- the public entry points ------------------------------------------------- */

/* Bytes of onnxslim_quant_options a caller of `version` has (version 1:
 * up to scale_method). */
static size_t quant_options_size(unsigned int version) {
  if (version == 1) return offsetof(onnxslim_quant_options, scale_method);
  return sizeof(onnxslim_quant_options);
}

int onnxslim_quant_options_init(onnxslim_quant_options *opts, unsigned int version) {
  if (!opts) return onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_quant_options_init: NULL opts");
  if (version < 1 || version > ONNXSLIM_QUANT_OPTIONS_VERSION)
    return onnxslim__err_options_version("onnxslim_quant_options_init", "quant options", version,
                                         ONNXSLIM_QUANT_OPTIONS_VERSION);
  const onnxslim_quant_options d = ONNXSLIM_QUANT_OPTIONS_INIT;
  memcpy(opts, &d, quant_options_size(version));
  opts->version = version;
  return 0;
}

int onnxslim_quantize(onnxslim_quant_report **out, onnxslim_model *model,
                      const onnxslim_quant_options *options) {
  if (out) *out = NULL;
  if (!model) return onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_quantize: NULL model");
  onnxslim_quant_options o = ONNXSLIM_QUANT_OPTIONS_INIT;
  if (options) {
    if (options->version < 1 || options->version > ONNXSLIM_QUANT_OPTIONS_VERSION)
      return onnxslim__err_options_version("onnxslim_quantize", "quant options", options->version,
                                           ONNXSLIM_QUANT_OPTIONS_VERSION);
    memcpy(&o, options, quant_options_size(options->version));
    /* a caller of version 1 (0.2.0) keeps 0.2.0's scales */
    if (options->version < 2) o.scale_method = ONNXSLIM_QUANT_SCALES_ABSMAX;
  }
  if (o.to != ONNXSLIM_DTYPE_INT8 && o.to != ONNXSLIM_DTYPE_INT4)
    return onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_quantize: quantizes to INT8 or INT4, not %s",
                         onnxslim_dtype_name(o.to));
  if (!o.targets || (o.targets & ~(ONNXSLIM_QUANT_TABLES | ONNXSLIM_QUANT_WEIGHTS)))
    return onnxslim__err(ONNXSLIM_EINVAL,
                         "onnxslim_quantize: targets 0x%x (ONNXSLIM_QUANT_TABLES and/or "
                         "ONNXSLIM_QUANT_WEIGHTS)",
                         o.targets);
  if (o.report_flags & ~ONNXSLIM_QUANT_REPORT_NO_STATS)
    return onnxslim__err(ONNXSLIM_EINVAL, "reserved quantization report flags 0x%x set",
                         o.report_flags);
  if (o.clip_percentile != 0 && !(o.clip_percentile > 0 && o.clip_percentile < 100))
    return onnxslim__err(ONNXSLIM_EINVAL,
                         "clip percentile %g: it must be above 0 and below 100 (0: no clipping)",
                         o.clip_percentile);
  if (o.scale_method < ONNXSLIM_QUANT_SCALES_DEFAULT || o.scale_method > ONNXSLIM_QUANT_SCALES_MSE)
    return onnxslim__err(ONNXSLIM_EINVAL,
                         "onnxslim_quantize: unknown scale method %d (0 default, 1 absmax, 2 mse)",
                         o.scale_method);
  int rc = onnxslim__convert_specs_valid("selection", o.select, o.n_select);
  if (!rc) rc = onnxslim__convert_specs_valid("exclusion", o.exclude, o.n_exclude);
  if (rc) return rc;
  onnxslim_convert_report *r = out ? calloc(1, sizeof *r) : NULL;
  if (out && !r) return onnxslim__err_nomem(NULL);
  rc = quantize_model(r, model, &o);
  if (!rc && r)
    rc = onnxslim__convert_notes(r, model, NULL, o.to); /* what it will do at run time */
  if (rc || !out) onnxslim_convert_report_free(r);
  else *out = r;
  return rc;
}
