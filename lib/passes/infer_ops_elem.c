/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - inference rules of the element-wise operators (the output
 * has input 0's shape), broadcasting, MatMul and Gemm, the reductions.
 */
#include <stdint.h>
#include <string.h>

#include "passes/infer_int.h"

static void matmul(ictx *c, const ival *a, const ival *b, ival *out) {
  if (a->rank < 1 || b->rank < 1) return;
  /* batch dims: broadcast of a[:-2] and b[:-2] */
  ival ba = {0, a->rank >= 2 ? a->rank - 2 : 0, a->d, -1, NULL, NULL, 0};
  ival bb = {0, b->rank >= 2 ? b->rank - 2 : 0, b->d, -1, NULL, NULL, 0};
  const ival *both[2] = {&ba, &bb};
  ival batch = UNKNOWN;
  onnxslim__infer_bcast(c, both, 2, &batch);
  if (batch.rank < 0) return;
  int r = batch.rank + (a->rank >= 2) + (b->rank >= 2);
  set_shape(c, out, r);
  if (out->rank < 0) return;
  for (int i = 0; i < batch.rank; i++) out->d[i] = batch.d[i];
  int j = batch.rank;
  if (a->rank >= 2) out->d[j++] = a->d[a->rank - 2];
  if (b->rank >= 2) out->d[j++] = b->d[b->rank - 1];
}

/* One label's dimension from its occurrences: the same value or the same
 * symbol everywhere; a known value other than 1 beside unknown ones (they
 * must equal it, or be 1 and broadcast); else unknown. */
static idim label_dim(const idim *const *occ, int n) {
  const idim *val = NULL;
  int same = 1;
  for (int i = 0; i < n; i++) {
    const idim *x = occ[i];
    if (x->k != occ[0]->k || (x->k == DK_VALUE && x->v != occ[0]->v) ||
        (x->k == DK_PARAM && strcmp(x->p, occ[0]->p) != 0) || x->k == DK_UNKNOWN)
      same = 0;
    if (x->k == DK_VALUE) {
      if (val && val->v != x->v) return (idim){0, NULL, DK_UNKNOWN};
      val = x;
    }
  }
  if (same) return *occ[0];
  if (val && val->v != 1) return *val;
  return (idim){0, NULL, DK_UNKNOWN};
}

/* Einsum: the equation's labels (letters) and one "..." per term; the
 * output is the right-hand side, or (implicit) the ellipsis dims and then
 * the labels used once, in order. onnx sorts those alphabetically and
 * onnxruntime lower case first: mixed cases there stay unknown. */
static void einsum(ictx *c, const onnxslim_node *n, ival *out) {
  onnxslim_attr *a = onnxslim_node_find_attr(n, "equation");
  const char *eq = NULL;
  size_t len = 0;
  if (!a || onnxslim_attr_string(a, &eq, &len) != 0) return;
  size_t nin = onnxslim_node_input_count(n);
  if (!nin || nin > 16) return;
  /* each label's occurrences (a-z, then A-Z) */
  enum { MAXOCC = 16 };
  const idim *occ[52][MAXOCC];
  int nocc[52] = {0}, uses[52] = {0};
  const ival *ell[16];
  ival ells[16];
  int nell = 0, term = 0, has_arrow = 0;
  size_t i = 0;
  while (i <= len && !has_arrow) {
    if ((size_t)term >= nin) return;
    const ival *x = get(c, onnxslim_node_input(n, (size_t)term));
    if (x->rank < 0) return;
    /* one term: count its labels first, to place the ellipsis */
    size_t end = i;
    int letters = 0, dots = 0;
    while (end < len && eq[end] != ',' &&
           !(eq[end] == '-' && end + 1 < len && eq[end + 1] == '>')) {
      char ch = eq[end];
      if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z')) letters++;
      else if (ch == '.') dots++;
      else if (ch != ' ') return;
      end++;
    }
    if (dots != 0 && dots != 3) return;
    int ne = x->rank - letters;
    if (ne < 0 || (!dots && ne != 0)) return;
    int j = 0;
    for (size_t k = i; k < end; k++) {
      char ch = eq[k];
      if (ch == ' ') continue;
      if (ch == '.') {
        if (k + 2 >= end || eq[k + 1] != '.' || eq[k + 2] != '.') return;
        ells[nell] = (ival){0, ne, x->d + j, -1, NULL, NULL, 0};
        ell[nell] = &ells[nell];
        nell++;
        j += ne;
        k += 2;
        continue;
      }
      int l = ch >= 'a' ? ch - 'a' : 26 + ch - 'A';
      if (nocc[l] >= MAXOCC) return;
      occ[l][nocc[l]++] = &x->d[j++];
      uses[l]++;
    }
    term++;
    if (end < len && eq[end] == '-') {
      has_arrow = 1;
      i = end + 2;
    } else {
      i = end + 1;
    }
  }
  if ((size_t)term != nin) return;
  ival eb = UNKNOWN;
  if (nell) {
    onnxslim__infer_bcast(c, ell, (size_t)nell, &eb);
    if (eb.rank < 0) return;
  } else {
    eb.rank = 0;
  }
  idim res[RANK_MAX];
  int r = 0;
  if (has_arrow) {
    int ellipses = 0;
    for (; i < len; i++) {
      char ch = eq[i];
      if (ch == ' ') continue;
      if (ch == '.') {
        if (i + 2 >= len || eq[i + 1] != '.' || eq[i + 2] != '.') return;
        if (ellipses++ || !nell || r + eb.rank > RANK_MAX) return;
        for (int k = 0; k < eb.rank; k++) res[r++] = eb.d[k];
        i += 2;
        continue;
      }
      if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z'))) return;
      int l = ch >= 'a' ? ch - 'a' : 26 + ch - 'A';
      if (!nocc[l] || r >= RANK_MAX) return;
      res[r++] = label_dim(occ[l], nocc[l]);
    }
  } else {
    int lower = 0, upper = 0;
    for (int l = 0; l < 52; l++)
      if (uses[l] == 1) *(l < 26 ? &lower : &upper) += 1;
    if (lower && upper) return;
    if (eb.rank + lower + upper > RANK_MAX) return;
    for (int k = 0; k < eb.rank; k++) res[r++] = eb.d[k];
    for (int l = 0; l < 52; l++)
      if (uses[l] == 1) res[r++] = label_dim(occ[l], nocc[l]);
  }
  set_shape(c, out, r);
  for (int k = 0; out->rank >= 0 && k < r; k++) out->d[k] = res[k];
}

static void reduce(ictx *c, const onnxslim_node *n, const char *op, const ival *x, ival *out) {
  if (x->rank < 0) return;
  int64_t since = strcmp(op, "ReduceSum") == 0 ? 13 : 18;
  int64_t axes[RANK_MAX];
  int na = node_axes(c, n, 1, since, axes);
  int keep = (int)attr_int(n, "keepdims", 1);
  if (na == -2) {
    if (keep) set_shape(c, out, x->rank); /* rank kept, which dims are 1 unknown */
    return;
  }
  char red[RANK_MAX] = {0};
  if (na <= 0) {
    if (c->opset >= since && attr_int(n, "noop_with_empty_axes", 0)) {
      copy_shape(x, out);
      return;
    }
    for (int j = 0; j < x->rank; j++) red[j] = 1;
  }
  for (int i = 0; i < na; i++) {
    int64_t a;
    if (!norm_axis(axes[i], x->rank, &a)) return;
    red[a] = 1;
  }
  int r = 0;
  for (int j = 0; j < x->rank; j++) r += keep || !red[j];
  set_shape(c, out, r);
  for (int j = 0, k = 0; out->rank >= 0 && j < x->rank; j++) {
    if (red[j] && keep) out->d[k++] = (idim){1, NULL, DK_VALUE};
    else if (!red[j]) out->d[k++] = x->d[j];
  }
}

static void argreduce(ictx *c, const onnxslim_node *n, const ival *x, ival *out) {
  int64_t axis;
  if (x->rank < 1 || !norm_axis(attr_int(n, "axis", 0), x->rank, &axis)) return;
  int keep = (int)attr_int(n, "keepdims", 1);
  set_shape(c, out, keep ? x->rank : x->rank - 1);
  for (int j = 0, k = 0; out->rank >= 0 && j < x->rank; j++) {
    if (j != axis) out->d[k++] = x->d[j];
    else if (keep) out->d[k++] = (idim){1, NULL, DK_VALUE};
  }
}

/* Operators whose output 0 has the shape of input 0. */
static const char *const SAME_SHAPE[] = {"Abs",
                                         "Acos",
                                         "Acosh",
                                         "Asin",
                                         "Asinh",
                                         "Atan",
                                         "Atanh",
                                         "BatchNormalization",
                                         "BitwiseNot",
                                         "Cast",
                                         "CastLike",
                                         "Ceil",
                                         "Celu",
                                         "Clip",
                                         "Cos",
                                         "Cosh",
                                         "DequantizeLinear",
                                         "Dropout",
                                         "Elu",
                                         "Erf",
                                         "Exp",
                                         "Floor",
                                         "Gelu",
                                         "HardSigmoid",
                                         "HardSwish",
                                         "Hardmax",
                                         "InstanceNormalization",
                                         "IsInf",
                                         "IsNaN",
                                         "LayerNormalization",
                                         "LeakyRelu",
                                         "Log",
                                         "LogSoftmax",
                                         "LpNormalization",
                                         "Mish",
                                         "Neg",
                                         "Not",
                                         "QuantizeLinear",
                                         "Reciprocal",
                                         "Relu",
                                         "Round",
                                         "Selu",
                                         "Shrink",
                                         "Sigmoid",
                                         "Sign",
                                         "Sin",
                                         "Sinh",
                                         "Softmax",
                                         "Softplus",
                                         "Softsign",
                                         "Sqrt",
                                         "Tan",
                                         "Tanh",
                                         "ThresholdedRelu",
                                         "Trilu",
                                         "CumSum",
                                         "CumProd",
                                         "RMSNormalization",
                                         "Swish",
                                         "Bernoulli",
                                         "RandomUniformLike",
                                         "RandomNormalLike",
                                         "ReverseSequence",
                                         "ScatterND",
                                         "ScatterElements",
                                         "Scatter",
                                         "TensorScatter",
                                         "LRN",
                                         "MeanVarianceNormalization",
                                         "EyeLike",
                                         "RotaryEmbedding",
                                         "DynamicQuantizeLinear",
                                         "Identity",
                                         NULL};

/* Multidirectional broadcasting of all inputs. */
static const char *const BROADCAST[] = {
    "Add",        "And",         "BitShift", "BitwiseAnd", "BitwiseOr",
    "BitwiseXor", "Div",         "Equal",    "Greater",    "GreaterOrEqual",
    "Less",       "LessOrEqual", "Max",      "Mean",       "Min",
    "Mod",        "Mul",         "Or",       "Pow",        "Sub",
    "Sum",        "Where",       "Xor",      NULL};

static const char *const REDUCE[] = {
    "ReduceL1",  "ReduceL2",   "ReduceLogSum", "ReduceLogSumExp", "ReduceMax", "ReduceMean",
    "ReduceMin", "ReduceProd", "ReduceSum",    "ReduceSumSquare", NULL};

/* Data propagation through integer Add, Sub, Mul and Div of shape values
 * (as onnx's data_prop): elementwise over the data of both inputs, a
 * one-element input broadcast; an element is known when both are fixed
 * values and the result is exact (no overflow; Div only of non-negative
 * values by a positive one, where C's and numpy's division agree). */
static void arith_data(ictx *c, const char *op, const ival *a, const ival *b, ival *o) {
  if (a->nd < 0 || b->nd < 0 || a->rank > 1 || b->rank > 1 || o->rank < 0 || o->rank > 1) return;
  if (a->nd != b->nd && a->nd != 1 && b->nd != 1) return;
  int n = a->nd > b->nd ? a->nd : b->nd;
  if (o->rank == 0 ? n != 1 : !(o->d[0].k == DK_VALUE && o->d[0].v == n)) return;
  char k = op[0] == 'A' ? '+' : op[0] == 'S' ? '-' : op[0] == 'M' ? '*' : '/';
  idim *d = new_dims(c, n);
  if (!d) return;
  for (int i = 0; i < n; i++) {
    const idim *x = &a->data[a->nd == 1 ? 0 : i], *y = &b->data[b->nd == 1 ? 0 : i];
    if (x->k != DK_VALUE || y->k != DK_VALUE) continue;
    int64_t r = 0;
    int bad = 0;
    if (k == '+') bad = __builtin_add_overflow(x->v, y->v, &r);
    else if (k == '-') bad = __builtin_sub_overflow(x->v, y->v, &r);
    else if (k == '*') bad = __builtin_mul_overflow(x->v, y->v, &r);
    else if (x->v >= 0 && y->v > 0) r = x->v / y->v;
    else bad = 1;
    if (!bad) d[i] = (idim){r, NULL, DK_VALUE};
  }
  o->data = d;
  o->nd = n;
}

int onnxslim__infer_ops_elem(ictx *c, const onnxslim_node *n, const char *op, ival *outs,
                             size_t nout) {
  size_t nin = onnxslim_node_input_count(n);
  const ival *x = nin ? get(c, onnxslim_node_input(n, 0)) : &UNKNOWN;
  ival *o = &outs[0];
  if (in_list(SAME_SHAPE, op)) {
    if (nin) copy_shape(x, o);
    if (strcmp(op, "Cast") == 0) {
      int64_t to = attr_int(n, "to", 0);
      if (to > 0 && to <= INT32_MAX) o->dtype = (int32_t)to;
      if (x->nd >= 0 && (o->dtype == ONNXSLIM_DTYPE_INT64 || o->dtype == ONNXSLIM_DTYPE_INT32) &&
          (x->dtype == ONNXSLIM_DTYPE_INT64 || x->dtype == ONNXSLIM_DTYPE_INT32)) {
        o->data = x->data;
        o->nd = x->nd;
      }
    }
    if (strcmp(op, "Identity") == 0 && x->nd >= 0) {
      o->data = x->data;
      o->nd = x->nd;
    }
    if (strcmp(op, "Dropout") == 0 && nout > 1) copy_shape(x, &outs[1]);
    if (strcmp(op, "DequantizeLinear") == 0 && !o->dtype && nin > 1) {
      /* y: output_dtype (opset 23+) or x_scale's type */
      int64_t to = attr_int(n, "output_dtype", 0);
      o->dtype = to > 0 && to <= INT32_MAX ? (int32_t)to : get(c, onnxslim_node_input(n, 1))->dtype;
    }
    if (strcmp(op, "DynamicQuantizeLinear") == 0) /* y_scale, y_zero_point: scalars */
      for (size_t k = 1; k < nout && k < 3; k++) set_shape(c, &outs[k], 0);
    if (strcmp(op, "LayerNormalization") == 0 && nout > 1 && x->rank >= 0) {
      /* Mean and InvStdDev: the dims from axis on are 1 */
      int64_t axis;
      if (!norm_axis(attr_int(n, "axis", -1), x->rank, &axis)) return 1;
      int64_t stash = attr_int(n, "stash_type", ONNXSLIM_DTYPE_FLOAT);
      for (size_t k = 1; k < nout && k < 3; k++) {
        if (!outs[k].dtype && stash > 0 && stash <= INT32_MAX) outs[k].dtype = (int32_t)stash;
        set_shape(c, &outs[k], x->rank);
        for (int j = 0; outs[k].rank >= 0 && j < x->rank; j++)
          outs[k].d[j] = j < axis ? x->d[j] : (idim){1, NULL, DK_VALUE};
      }
    }
  } else if (in_list(BROADCAST, op)) {
    const ival *ins[16];
    if (nin > 16 || !nin) return 1;
    for (size_t i = 0; i < nin; i++) ins[i] = get(c, onnxslim_node_input(n, i));
    onnxslim__infer_bcast(c, ins, nin, o);
    if (nin == 2 && (strcmp(op, "Add") == 0 || strcmp(op, "Sub") == 0 || strcmp(op, "Mul") == 0 ||
                     strcmp(op, "Div") == 0))
      arith_data(c, op, ins[0], ins[1], o);
  } else if (strcmp(op, "PRelu") == 0 && nin == 2) {
    const ival *ins[2] = {x, get(c, onnxslim_node_input(n, 1))};
    onnxslim__infer_bcast(c, ins, 2, o);
  } else if (strcmp(op, "MatMul") == 0 && nin == 2) {
    matmul(c, x, get(c, onnxslim_node_input(n, 1)), o);
  } else if (strcmp(op, "Gemm") == 0 && nin >= 2) {
    const ival *b = get(c, onnxslim_node_input(n, 1));
    if (x->rank != 2 || b->rank != 2) return 1;
    set_shape(c, o, 2);
    if (o->rank < 0) return 1;
    o->d[0] = x->d[attr_int(n, "transA", 0) ? 1 : 0];
    o->d[1] = b->d[attr_int(n, "transB", 0) ? 0 : 1];
  } else if (strcmp(op, "Einsum") == 0) {
    einsum(c, n, o);
  } else if (strcmp(op, "Det") == 0) {
    if (x->rank < 2) return 1;
    set_shape(c, o, x->rank - 2);
    for (int j = 0; o->rank >= 0 && j < x->rank - 2; j++) o->d[j] = x->d[j];
  } else if (strcmp(op, "SequenceLength") == 0 || strcmp(op, "OptionalHasElement") == 0) {
    set_shape(c, o, 0);
  } else if (in_list(REDUCE, op)) {
    reduce(c, n, op, x, o);
  } else if (strcmp(op, "ArgMax") == 0 || strcmp(op, "ArgMin") == 0) {
    argreduce(c, n, x, o);
  } else {
    return 0;
  }
  return 1;
}
