/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - the no-op and common-subexpression passes of the
 * simplification (simplify.h). Types, shapes and constants come only from
 * what the model states: initializers (not graph inputs, which a caller may
 * feed), Constant nodes, graph inputs and outputs, value_info.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "passes/simplify_int.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

#define OSL_MAX_RANK 64

/* ---- what the model states -------------------------------------------------- */

static int is_graph_input(const onnxslim_graph *g, const char *name) {
  for (size_t i = 0; i < onnxslim_graph_input_count(g); i++)
    if (strcmp(onnxslim_value_info_name(onnxslim_graph_input(g, i)), name) == 0) return 1;
  return 0;
}
static int is_graph_output(const onnxslim_graph *g, const char *name) {
  for (size_t i = 0; i < onnxslim_graph_output_count(g); i++)
    if (strcmp(onnxslim_value_info_name(onnxslim_graph_output(g, i)), name) == 0) return 1;
  return 0;
}

/* (simplify_int.h) */
const onnxslim_tensor *onnxslim__simp_const(const onnxslim_graph *g, const char *name) {
  if (!name || !name[0]) return NULL;
  onnxslim_tensor *t = onnxslim__graph_initializer_q(g, name);
  if (t) return is_graph_input(g, name) ? NULL : t;
  onnxslim_node *p = onnxslim__graph_producer_q(g, name);
  if (!p || strcmp(onnxslim_node_op_type(p), "Constant") != 0) return NULL;
  const char *d = onnxslim_node_domain(p);
  if (d && d[0] && strcmp(d, "ai.onnx") != 0) return NULL;
  onnxslim_attr *a = onnxslim_node_find_attr(p, "value");
  return a && onnxslim_attr_type(a) == ONNXSLIM_ATTR_TENSOR ? onnxslim_attr_tensor(a) : NULL;
}

/* The integers of constant value `name` (INT64 or INT32, at most cap of
 * them, also a Constant's value_ints): 1 and *n, else 0. */
static int const_ints(const onnxslim_graph *g, const char *name, int64_t *v, size_t cap,
                      size_t *n) {
  const onnxslim_tensor *t = onnxslim__simp_const(g, name);
  if (!t) {
    onnxslim_node *p = name && name[0] ? onnxslim__graph_producer_q(g, name) : NULL;
    if (!p || strcmp(onnxslim_node_op_type(p), "Constant") != 0) return 0;
    onnxslim_attr *a = onnxslim_node_find_attr(p, "value_ints");
    const int64_t *vals;
    size_t cnt;
    if (!a || onnxslim_attr_ints(a, &vals, &cnt) < 0 || cnt > cap) return 0;
    memcpy(v, vals, cnt * sizeof *v);
    *n = cnt;
    return 1;
  }
  int32_t dt = onnxslim_tensor_dtype(t);
  if (onnxslim_tensor_rank(t) > 1) return 0;
  int64_t cnt = onnxslim_tensor_element_count(t);
  if (cnt < 0 || (uint64_t)cnt > cap) return 0;
  const void *data;
  size_t size;
  if (onnxslim_tensor_data(t, &data, &size) < 0) return 0;
  if (dt == ONNXSLIM_DTYPE_INT64 && size == (size_t)cnt * 8) {
    for (int64_t i = 0; i < cnt; i++) {
      const uint8_t *b = (const uint8_t *)data + 8 * i;
      uint64_t u = 0;
      for (int k = 7; k >= 0; k--) u = (u << 8) | b[k];
      v[i] = (int64_t)u;
    }
  } else if (dt == ONNXSLIM_DTYPE_INT32 && size == (size_t)cnt * 4) {
    for (int64_t i = 0; i < cnt; i++) {
      const uint8_t *b = (const uint8_t *)data + 4 * i;
      uint32_t u =
          (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
      v[i] = (int32_t)u;
    }
  } else return 0;
  *n = (size_t)cnt;
  return 1;
}

/* The entry of c's inference for value `name` of g (the main graph) that
 * agrees with the model, else -1. */
static long inferred(const osl_simp *c, const onnxslim_graph *g, const char *name) {
  if (!c->inf || g != onnxslim_model_graph(c->model)) return -1;
  osl_map_entry *e = onnxslim__map_find(&c->inf_names, name);
  return e ? (long)e->num : -1;
}

/* The element type the model states for value `name` of g, else the one
 * inference finds; 0: unknown. */
static int32_t stated_dtype(const osl_simp *c, const onnxslim_graph *g, const char *name) {
  const onnxslim_tensor *t = onnxslim__simp_const(g, name);
  if (t) return onnxslim_tensor_dtype(t);
  int32_t dt = onnxslim__known_dtype(g, name);
  long i = dt > 0 ? -1 : inferred(c, g, name);
  return i >= 0 ? onnxslim_infer_report_dtype(c->inf, (size_t)i) : dt;
}

/* The shape the model states for value `name` of g, else the one inference
 * finds: 1 with its rank and dims (-1 for a dimension not known as a
 * number), else 0. */
static int stated_shape(const osl_simp *c, const onnxslim_graph *g, const char *name, int64_t *dims,
                        size_t *rank) {
  const onnxslim_tensor *t = onnxslim__simp_const(g, name);
  if (t) {
    size_t r = onnxslim_tensor_rank(t);
    if (r > OSL_MAX_RANK) return 0;
    for (size_t i = 0; i < r; i++) dims[i] = onnxslim_tensor_dim(t, i);
    *rank = r;
    return 1;
  }
  const onnxslim_value_info *vi = onnxslim__graph_value_info_q(g, name);
  const onnxslim_type *ty = vi ? onnxslim_value_info_type(vi) : NULL;
  if (!ty || onnxslim_type_kind(ty) != ONNXSLIM_TYPE_TENSOR || onnxslim_type_has_shape(ty) != 1) {
    long e = inferred(c, g, name);
    int64_t r = e >= 0 ? onnxslim_infer_report_rank(c->inf, (size_t)e) : -1;
    if (r < 0 || r > OSL_MAX_RANK) return 0;
    for (size_t i = 0; i < (size_t)r; i++) {
      int64_t v = 0;
      dims[i] =
          onnxslim_infer_report_dim(c->inf, (size_t)e, i, &v, NULL) == ONNXSLIM_DIM_VALUE && v >= 0
              ? v
              : -1;
    }
    *rank = (size_t)r;
    return 1;
  }
  size_t r = onnxslim_type_rank(ty);
  if (r > OSL_MAX_RANK) return 0;
  for (size_t i = 0; i < r; i++) {
    int64_t v = 0;
    dims[i] = onnxslim_type_dim(ty, i, &v, NULL) == ONNXSLIM_DIM_VALUE && v >= 0 ? v : -1;
  }
  *rank = r;
  return 1;
}
static int all_static(const int64_t *dims, size_t rank) {
  for (size_t i = 0; i < rank; i++)
    if (dims[i] < 0) return 0;
  return 1;
}

static int64_t attr_int(const onnxslim_node *n, const char *name, int64_t dflt) {
  onnxslim_attr *a = onnxslim_node_find_attr(n, name);
  int64_t v;
  return a && onnxslim_attr_int(a, &v) == 0 ? v : dflt;
}

static int64_t opset_of(const onnxslim_model *m) {
  for (size_t i = 0; i < onnxslim_model_opset_count(m); i++) {
    const char *d = NULL;
    int64_t v = 0;
    if (onnxslim_model_opset(m, i, &d, &v) == 0 && (!d[0] || strcmp(d, "ai.onnx") == 0)) return v;
  }
  return -1;
}

static int input_at(const onnxslim_node *n, size_t k, const char **name) {
  if (k >= onnxslim_node_input_count(n)) return 0;
  *name = onnxslim_node_input(n, k);
  return *name && (*name)[0];
}

/* Some node reading `name` in g has subgraphs (it may capture names). */
static int read_by_subgraph_node(const onnxslim_graph *g, const char *name) {
  size_t nc = onnxslim__graph_consumer_count_q(g, name);
  for (size_t j = 0; j < nc; j++)
    if (onnxslim_node_subgraph_count(onnxslim_graph_consumer(g, name, j))) return 1;
  return 0;
}

/* ---- the no-op rules ----------------------------------------------------------- */

/* 1 when Slice node n (of g) keeps every element of its input. */
static int slice_noop(const osl_simp *c, const onnxslim_graph *g, const onnxslim_node *n,
                      int64_t opset) {
  int64_t starts[OSL_MAX_RANK], ends[OSL_MAX_RANK], axes[OSL_MAX_RANK], steps[OSL_MAX_RANK];
  int64_t dims[OSL_MAX_RANK];
  size_t ns, ne, na, nst, rank;
  const char *x, *s;
  if (!input_at(n, 0, &x) || !stated_shape(c, g, x, dims, &rank)) return 0;
  if (opset >= 10) {
    if (!input_at(n, 1, &s) || !const_ints(g, s, starts, OSL_MAX_RANK, &ns)) return 0;
    if (!input_at(n, 2, &s) || !const_ints(g, s, ends, OSL_MAX_RANK, &ne)) return 0;
    na = ns;
    if (input_at(n, 3, &s)) {
      if (!const_ints(g, s, axes, OSL_MAX_RANK, &na)) return 0;
    } else
      for (size_t i = 0; i < ns; i++) axes[i] = (int64_t)i;
    nst = ns;
    if (input_at(n, 4, &s)) {
      if (!const_ints(g, s, steps, OSL_MAX_RANK, &nst)) return 0;
    } else
      for (size_t i = 0; i < ns; i++) steps[i] = 1;
  } else {
    onnxslim_attr *a;
    const int64_t *v;
    if (!(a = onnxslim_node_find_attr(n, "starts")) || onnxslim_attr_ints(a, &v, &ns) < 0 ||
        ns > OSL_MAX_RANK)
      return 0;
    memcpy(starts, v, ns * sizeof *v);
    if (!(a = onnxslim_node_find_attr(n, "ends")) || onnxslim_attr_ints(a, &v, &ne) < 0 ||
        ne > OSL_MAX_RANK)
      return 0;
    memcpy(ends, v, ne * sizeof *v);
    na = ns;
    if ((a = onnxslim_node_find_attr(n, "axes"))) {
      if (onnxslim_attr_ints(a, &v, &na) < 0 || na > OSL_MAX_RANK) return 0;
      memcpy(axes, v, na * sizeof *v);
    } else
      for (size_t i = 0; i < ns; i++) axes[i] = (int64_t)i;
    nst = ns;
    for (size_t i = 0; i < ns; i++) steps[i] = 1;
  }
  if (ne != ns || na != ns || nst != ns) return 0;
  for (size_t i = 0; i < ns; i++) {
    int64_t ax = axes[i] < 0 ? axes[i] + (int64_t)rank : axes[i];
    if (ax < 0 || ax >= (int64_t)rank || steps[i] != 1) return 0;
    int64_t d = dims[ax];
    /* start: 0, or negative reaching past the front of a known dim */
    if (!(starts[i] == 0 || (d >= 0 && starts[i] <= -d))) return 0;
    /* end: INT64_MAX, or at least a known dim */
    if (!(ends[i] == INT64_MAX || (d >= 0 && ends[i] >= d))) return 0;
  }
  return 1;
}

/* The axis of Concat n: 1 with it in *axis (opset 1's default 1 when the
 * attribute is absent), else 0. */
static int concat_axis(const onnxslim_node *n, int64_t opset, int64_t *axis) {
  onnxslim_attr *a = onnxslim_node_find_attr(n, "axis");
  if (onnxslim_node_attr_count(n) != (a ? 1u : 0u)) return 0;
  if (!a) {
    *axis = 1;
    return opset < 4;
  }
  return onnxslim_attr_int(a, axis) == 0;
}

/* 1 when value `name` of g has no element along axis `axis`, as a fact:
 * a constant's dims, a graph input's stated dims (the runtime checks
 * them), or the main graph's inferred shape (inference from the inputs
 * and constants alone: a computed value's stated shape may be wrong, see
 * simplify_fold.c). */
static int empty_along(const osl_simp *c, const onnxslim_graph *g, const char *name, int64_t axis) {
  const onnxslim_tensor *t = onnxslim__simp_const(g, name);
  int64_t r = -1, d = -1;
  if (t) {
    r = (int64_t)onnxslim_tensor_rank(t);
    if (axis < 0) axis += r;
    return axis >= 0 && axis < r && onnxslim_tensor_dim(t, (size_t)axis) == 0;
  }
  if (g != onnxslim_model_graph(c->model)) return 0;
  if (is_graph_input(g, name)) {
    const onnxslim_value_info *vi = onnxslim__graph_value_info_q(g, name);
    const onnxslim_type *ty = vi ? onnxslim_value_info_type(vi) : NULL;
    if (!ty || onnxslim_type_kind(ty) != ONNXSLIM_TYPE_TENSOR || onnxslim_type_has_shape(ty) != 1)
      return 0;
    r = (int64_t)onnxslim_type_rank(ty);
    if (axis < 0) axis += r;
    return axis >= 0 && axis < r &&
           onnxslim_type_dim(ty, (size_t)axis, &d, NULL) == ONNXSLIM_DIM_VALUE && d == 0;
  }
  long e = inferred(c, g, name);
  if (e < 0 || (r = onnxslim_infer_report_rank(c->inf, (size_t)e)) < 0) return 0;
  if (axis < 0) axis += r;
  return axis >= 0 && axis < r &&
         onnxslim_infer_report_dim(c->inf, (size_t)e, (size_t)axis, &d, NULL) ==
             ONNXSLIM_DIM_VALUE &&
         d == 0;
}

/* ---- additions of zero ----------------------------------------------------------- */

#define OSL_ZERO_MAX_BYTES (64u << 10) /* a constant read to see its values */

static int is_float_type(int32_t dt) {
  return dt == ONNXSLIM_DTYPE_FLOAT || dt == ONNXSLIM_DTYPE_DOUBLE ||
         dt == ONNXSLIM_DTYPE_FLOAT16 || dt == ONNXSLIM_DTYPE_BFLOAT16;
}
static int is_int_type(int32_t dt) {
  return dt == ONNXSLIM_DTYPE_UINT8 || dt == ONNXSLIM_DTYPE_INT8 || dt == ONNXSLIM_DTYPE_UINT16 ||
         dt == ONNXSLIM_DTYPE_INT16 || dt == ONNXSLIM_DTYPE_INT32 || dt == ONNXSLIM_DTYPE_INT64 ||
         dt == ONNXSLIM_DTYPE_UINT32 || dt == ONNXSLIM_DTYPE_UINT64;
}

/* Element i of float-typed data p (FLOAT, DOUBLE, FLOAT16, BFLOAT16): its
 * sign, and whether it is zero, at most -1 (or -inf), or NaN. */
typedef struct {
  int neg, zero, le_minus1, nan, one;
} osl_fclass;
static osl_fclass fclass(int32_t dt, const uint8_t *p, size_t i) {
  osl_fclass f = {0, 0, 0, 0, 0};
  uint64_t b = 0;
  unsigned ebits, mbits, bytes;
  switch (dt) {
  case ONNXSLIM_DTYPE_DOUBLE: bytes = 8, ebits = 11, mbits = 52; break;
  case ONNXSLIM_DTYPE_FLOAT: bytes = 4, ebits = 8, mbits = 23; break;
  case ONNXSLIM_DTYPE_FLOAT16: bytes = 2, ebits = 5, mbits = 10; break;
  default: bytes = 2, ebits = 8, mbits = 7; break; /* BFLOAT16 */
  }
  for (unsigned k = 0; k < bytes; k++) b |= (uint64_t)p[i * bytes + k] << (8 * k);
  uint64_t e = (b >> mbits) & ((1u << ebits) - 1), m = b & ((UINT64_C(1) << mbits) - 1);
  uint64_t bias = (1u << (ebits - 1)) - 1;
  f.neg = (int)(b >> (ebits + mbits)) & 1;
  f.zero = e == 0 && m == 0;
  f.nan = e == (UINT64_C(1) << ebits) - 1 && m != 0;
  f.le_minus1 = f.neg && !f.nan && e >= bias; /* |x| >= 1, inf included */
  f.one = !f.neg && e == bias && m == 0;
  return f;
}

/* The data of constant `name` of g when its type is a float or integer
 * one and it has at most OSL_ZERO_MAX_BYTES: 1, else 0. */
static int small_const(const onnxslim_graph *g, const char *name, const onnxslim_tensor **t,
                       const uint8_t **p, size_t *count) {
  *t = onnxslim__simp_const(g, name);
  if (!*t) return 0;
  int32_t dt = onnxslim_tensor_dtype(*t);
  int64_t cnt = onnxslim_tensor_element_count(*t);
  uint64_t size = 0;
  const void *data;
  size_t n;
  if ((!is_float_type(dt) && !is_int_type(dt)) || cnt < 0 ||
      onnxslim_tensor_byte_size(*t, &size) < 0 || size > OSL_ZERO_MAX_BYTES ||
      onnxslim_tensor_data(*t, &data, &n) < 0 || n != size)
    return 0;
  *p = data;
  *count = (size_t)cnt;
  return 1;
}

/* 1 when no element of value `name` of g can be -0.0 or a negative number
 * that rounds to -0.0 in a narrower float type: each is +0.0, positive,
 * NaN or at most -1. Holds for integers and booleans, for the constants
 * whose elements are so, and through Where of two such values, Abs, and a
 * Cast or CastLike (to any type: the property survives every conversion
 * between these types) of one. */
static int no_neg_zero(const osl_simp *c, const onnxslim_graph *g, const char *name, int depth) {
  int32_t dt = stated_dtype(c, g, name);
  if (is_int_type(dt) || dt == ONNXSLIM_DTYPE_BOOL) return 1;
  const onnxslim_tensor *t;
  const uint8_t *p;
  size_t cnt;
  if (small_const(g, name, &t, &p, &cnt)) {
    int32_t cdt = onnxslim_tensor_dtype(t);
    if (is_int_type(cdt)) return 1;
    for (size_t i = 0; i < cnt; i++) {
      osl_fclass f = fclass(cdt, p, i);
      if (f.neg && !f.nan && !f.le_minus1) return 0; /* -0.0 or in (-1, 0) */
    }
    return 1;
  }
  if (onnxslim__simp_const(g, name) || depth <= 0) return 0;
  onnxslim_node *n = onnxslim__graph_producer_q(g, name);
  const char *d = n ? onnxslim_node_domain(n) : NULL, *op = n ? onnxslim_node_op_type(n) : NULL;
  const char *a, *b;
  if (!n || !op || (d && d[0] && strcmp(d, "ai.onnx") != 0) || onnxslim_node_subgraph_count(n))
    return 0;
  if (strcmp(op, "Where") == 0)
    return input_at(n, 1, &a) && input_at(n, 2, &b) && no_neg_zero(c, g, a, depth - 1) &&
           no_neg_zero(c, g, b, depth - 1);
  if (strcmp(op, "Abs") == 0) return 1;
  if (strcmp(op, "Cast") == 0 || strcmp(op, "CastLike") == 0)
    return input_at(n, 0, &a) && no_neg_zero(c, g, a, depth - 1);
  return 0;
}

/* Add (x + zero, zero + x) or Sub (x - zero) node n of g, zero a constant
 * whose every element is a zero that leaves x as it is, or Mul (x * one,
 * one * x) or Div (x / one) of a constant whose every element is one, and
 * whose shape broadcast to x's is x's (its rank at most x's, each dim 1 or
 * x's): 1 with *in = x, else 0. Integers: any zero, one. Floats: x * 1.0,
 * x / 1.0, x + (-0.0) and x - (+0.0) are x for every x; x + (+0.0) and
 * x - (-0.0) turn x = -0.0 into +0.0, so they need an x that is never -0.0
 * (no_neg_zero: an attention mask made by Where of -inf and +0.0 added to
 * an all-zero bias). */
static int identity_operand(osl_simp *c, const onnxslim_graph *g, const onnxslim_node *n,
                            const char **in) {
  const char *op = onnxslim_node_op_type(n);
  int sub = strcmp(op, "Sub") == 0, div = strcmp(op, "Div") == 0;
  int mul = div || strcmp(op, "Mul") == 0;
  if (onnxslim_node_input_count(n) != 2 || onnxslim_node_output_count(n) != 1) return 0;
  for (size_t zi = sub || div ? 1 : 0; zi < 2; zi++) {
    const char *z, *x;
    const onnxslim_tensor *t;
    const uint8_t *p;
    size_t cnt, xr;
    if (!input_at(n, zi, &z) || !input_at(n, 1 - zi, &x) || !small_const(g, z, &t, &p, &cnt))
      continue;
    int32_t dt = onnxslim_tensor_dtype(t);
    int plus = 0, minus = 0, ok = 1;
    if (is_int_type(dt)) { /* little-endian: a one is its first byte 1, the others 0 */
      uint64_t size = 0;
      (void)onnxslim_tensor_byte_size(t, &size);
      size_t esz = cnt ? (size_t)(size / (uint64_t)cnt) : 1;
      for (uint64_t i = 0; i < size && ok; i++) ok = p[i] == (mul && i % esz == 0 ? 1 : 0);
    } else
      for (size_t i = 0; i < cnt && ok; i++) {
        osl_fclass f = fclass(dt, p, i);
        ok = mul ? f.one : f.zero;
        if (f.neg) minus = 1;
        else plus = 1;
      }
    if (!ok) continue;
    /* the zero that is not exact for x = -0.0: +0.0 added, -0.0 subtracted */
    if (!mul && (sub ? minus : plus) && !no_neg_zero(c, g, x, 8)) continue;
    int64_t xd[OSL_MAX_RANK];
    if (!stated_shape(c, g, x, xd, &xr)) continue;
    size_t zr = onnxslim_tensor_rank(t);
    if (zr > xr) continue;
    for (size_t i = 0; i < zr && ok; i++) {
      int64_t zd = onnxslim_tensor_dim(t, zr - 1 - i), d = xd[xr - 1 - i];
      ok = zd == 1 || (d >= 0 && zd == d);
    }
    if (!ok) continue;
    *in = x;
    return 1;
  }
  return 0;
}

/* 1 when node n of g computes its first input: *in receives it. */
static int noop_input(osl_simp *c, const onnxslim_graph *g, const onnxslim_node *n, int64_t opset,
                      const char **in) {
  const char *d = onnxslim_node_domain(n), *op = onnxslim_node_op_type(n), *x, *s;
  if ((d && d[0] && strcmp(d, "ai.onnx") != 0) || !op) return 0;
  if (onnxslim_node_output_count(n) < 1 || onnxslim_node_subgraph_count(n)) return 0;
  if (!input_at(n, 0, &x)) return 0;
  *in = x;
  int64_t v[OSL_MAX_RANK], dims[OSL_MAX_RANK];
  size_t nv, rank;
  if (strcmp(op, "Identity") == 0) return onnxslim_node_output_count(n) == 1;
  if (strcmp(op, "Dropout") == 0) {
    if (onnxslim_node_output_count(n) > 1) {
      const char *mask = onnxslim_node_output(n, 1);
      if (mask[0] && (onnxslim__graph_consumer_count_q(g, mask) || is_graph_output(g, mask)))
        return 0;
    }
    if (opset < 7 && attr_int(n, "is_test", 0) != 1) return 0;
    if (input_at(n, 2, &s)) { /* training_mode: a constant false only */
      const onnxslim_tensor *t = onnxslim__simp_const(g, s);
      const void *data;
      size_t size;
      if (!t || onnxslim_tensor_dtype(t) != ONNXSLIM_DTYPE_BOOL ||
          onnxslim_tensor_data(t, &data, &size) < 0 || size != 1 || *(const uint8_t *)data)
        return 0;
    }
    return 1;
  }
  if (strcmp(op, "Cast") == 0) {
    int64_t to = attr_int(n, "to", -1);
    int32_t dt = stated_dtype(c, g, x);
    return dt > 0 && to == dt && onnxslim_node_output_count(n) == 1;
  }
  if (strcmp(op, "Reshape") == 0) {
    if (!input_at(n, 1, &s) || !const_ints(g, s, v, OSL_MAX_RANK, &nv)) return 0;
    if (!stated_shape(c, g, x, dims, &rank) || !all_static(dims, rank) || nv != rank) return 0;
    int allowzero = attr_int(n, "allowzero", 0) != 0;
    size_t minus = 0, other_ok = 1, zero_dim = 0;
    for (size_t i = 0; i < rank; i++) {
      if (dims[i] == 0) zero_dim = 1;
      if (v[i] == -1) minus++;
      else if (!(v[i] == dims[i] || (v[i] == 0 && !allowzero))) other_ok = 0;
    }
    return other_ok && (minus == 0 || (minus == 1 && !zero_dim));
  }
  if (strcmp(op, "Transpose") == 0) {
    onnxslim_attr *a = onnxslim_node_find_attr(n, "perm");
    const int64_t *perm;
    size_t np;
    if (!a) return stated_shape(c, g, x, dims, &rank) && rank <= 1;
    if (onnxslim_attr_ints(a, &perm, &np) < 0) return 0;
    for (size_t i = 0; i < np; i++)
      if (perm[i] != (int64_t)i) return 0;
    return 1;
  }
  if (strcmp(op, "Slice") == 0) return slice_noop(c, g, n, opset);
  if (strcmp(op, "Add") == 0 || strcmp(op, "Sub") == 0 || strcmp(op, "Mul") == 0 ||
      strcmp(op, "Div") == 0)
    return identity_operand(c, g, n, in);
  if (strcmp(op, "Concat") == 0) { /* every input but one empty along the axis */
    int64_t axis;
    size_t ni = onnxslim_node_input_count(n), keep = SIZE_MAX;
    if (onnxslim_node_output_count(n) != 1 || !concat_axis(n, opset, &axis)) return 0;
    for (size_t k = 0; k < ni; k++) {
      if (!input_at(n, k, &s)) return 0;
      if (empty_along(c, g, s, axis)) continue;
      if (keep != SIZE_MAX) return 0;
      keep = k;
    }
    *in = onnxslim_node_input(n, keep == SIZE_MAX ? 0 : keep); /* all empty: any one */
    return 1;
  }
  if (strcmp(op, "Pad") == 0) {
    if (opset >= 11) {
      if (!input_at(n, 1, &s) || !const_ints(g, s, v, OSL_MAX_RANK * 2, &nv)) return 0;
    } else {
      onnxslim_attr *a = onnxslim_node_find_attr(n, opset < 2 ? "paddings" : "pads");
      const int64_t *p;
      if (!a || onnxslim_attr_ints(a, &p, &nv) < 0 || nv > OSL_MAX_RANK * 2) return 0;
      memcpy(v, p, nv * sizeof *p);
    }
    for (size_t i = 0; i < nv; i++)
      if (v[i] != 0) return 0;
    return 1;
  }
  if (strcmp(op, "Expand") == 0) {
    if (!input_at(n, 1, &s) || !const_ints(g, s, v, OSL_MAX_RANK, &nv)) return 0;
    if (!stated_shape(c, g, x, dims, &rank) || nv > rank) return 0;
    for (size_t i = 0; i < nv; i++) {
      int64_t want = v[nv - 1 - i], have = dims[rank - 1 - i];
      if (want != 1 && !(have >= 0 && want == have)) return 0;
    }
    return 1;
  }
  return 0;
}

/* (simplify_int.h) */
int onnxslim__simp_nodes(const onnxslim_model *m, const onnxslim_graph *g, onnxslim_node ***out,
                         size_t *n) {
  size_t count = onnxslim_graph_node_count(g);
  *out = onnxslim__mem_alloc(m, (count ? count : 1) * sizeof **out, "simplify: nodes");
  *n = 0;
  if (!*out) return ONNXSLIM_ENOMEM;
  for (size_t i = 0; i < count; i++) (*out)[i] = onnxslim_graph_node(g, i);
  *n = count;
  return 0;
}

void onnxslim__simp_nodes_free(const onnxslim_model *m, onnxslim_node **nodes, size_t n) {
  (void)n;
  onnxslim__mem_free(m, nodes);
}

int onnxslim__simp_gone(const onnxslim_node *n) { return ((const osl_msg *)n)->detached; }

int onnxslim__simp_drop_value_info(onnxslim_graph *g, const char *name) {
  return onnxslim__graph_drop_value_info((osl_msg *)g, name);
}

/* Removes no-op node n whose output 0 equals its input x: 1 removed, 0
 * kept, or an error. */
static int bypass(osl_simp *c, onnxslim_graph *g, onnxslim_node *n, const char *x) {
  const char *y = onnxslim_node_output(n, 0);
  if (!y[0] || strcmp(x, y) == 0) return 0;
  if (read_by_subgraph_node(g, y)) return 0;
  /* strings of the model stay valid after edits, until it is freed */
  const char *label = onnxslim__simp_label(n);
  int rc;
  if (!is_graph_output(g, y)) {
    if ((rc = onnxslim__simp_drop_value_info(g, y)) < 0 ||
        (rc = onnxslim_graph_remove_node(g, n)) < 0 ||
        (rc = onnxslim_graph_rename_value(g, y, x)) < 0)
      return rc;
    return onnxslim__simp_change(c, g, ONNXSLIM_SIMPLIFY_REMOVED_NODE, label, x) < 0 ? -1 : 1;
  }
  /* y is a graph output: x takes its name when a node of g produces x and
   * x is neither an interface name nor read from a subgraph */
  onnxslim_node *p = onnxslim__graph_producer_q(g, x);
  if (!p || p == n || is_graph_output(g, x) || is_graph_input(g, x) ||
      onnxslim__graph_initializer_q(g, x) || read_by_subgraph_node(g, x))
    return 0;
  if ((rc = onnxslim__simp_drop_value_info(g, x)) < 0 ||
      (rc = onnxslim__simp_drop_value_info(g, y)) < 0 ||
      (rc = onnxslim_graph_remove_node(g, n)) < 0 ||
      (rc = onnxslim_graph_rename_value(g, x, y)) < 0)
    return rc;
  return onnxslim__simp_change(c, g, ONNXSLIM_SIMPLIFY_REMOVED_NODE, label, y) < 0 ? -1 : 1;
}

/* A Reshape by a constant shape without 0 (or with allowzero) whose input
 * y comes from a Reshape, Flatten, Squeeze or Unsqueeze read by it alone:
 * the same elements in the same order, so the Reshape reads that node's
 * input and the node goes (an export's Unsqueeze -> Expand -> Reshape of
 * grouped-query K and V, once the Expand that changes nothing is gone,
 * then ends as a Reshape of the value to its own shape, a no-op). 1
 * removed, 0 kept, or an error. */
static int reshape_through(osl_simp *c, onnxslim_graph *g, onnxslim_node *n) {
  const char *d = onnxslim_node_domain(n), *y, *s, *x;
  if ((d && d[0] && strcmp(d, "ai.onnx") != 0) || strcmp(onnxslim_node_op_type(n), "Reshape") != 0)
    return 0;
  int64_t v[OSL_MAX_RANK];
  size_t nv;
  if (!input_at(n, 0, &y) || !input_at(n, 1, &s) || !const_ints(g, s, v, OSL_MAX_RANK, &nv))
    return 0;
  if (!attr_int(n, "allowzero", 0))
    for (size_t i = 0; i < nv; i++)
      if (v[i] == 0) return 0; /* 0 copies a dim of y, not of the input before */
  onnxslim_node *p = onnxslim__graph_producer_q(g, y);
  if (!p || p == n || onnxslim_node_subgraph_count(p) || onnxslim_node_output_count(p) != 1 ||
      !input_at(p, 0, &x))
    return 0;
  const char *pd = onnxslim_node_domain(p), *op = onnxslim_node_op_type(p);
  if ((pd && pd[0] && strcmp(pd, "ai.onnx") != 0) ||
      !(strcmp(op, "Reshape") == 0 || strcmp(op, "Flatten") == 0 || strcmp(op, "Squeeze") == 0 ||
        strcmp(op, "Unsqueeze") == 0))
    return 0;
  if (onnxslim__graph_consumer_count_q(g, y) != 1 || is_graph_output(g, y)) return 0;
  const char *label = onnxslim__simp_label(p);
  int rc;
  if ((rc = onnxslim_node_set_input(n, 0, x)) < 0 ||
      (rc = onnxslim__simp_drop_value_info(g, y)) < 0 ||
      (rc = onnxslim_graph_remove_node(g, p)) < 0)
    return rc;
  return onnxslim__simp_change(c, g, ONNXSLIM_SIMPLIFY_REMOVED_NODE, label, x) < 0 ? -1 : 1;
}

/* The perm of Transpose n: 1 with *has (the attribute is there) and it
 * in perm[0..*np), or 0 when it is not a permutation of 0..np-1 or n has
 * another attribute. */
static int perm_of(const onnxslim_node *n, int64_t *perm, size_t *np, int *has) {
  onnxslim_attr *a = onnxslim_node_find_attr(n, "perm");
  *np = 0;
  *has = a != NULL;
  if (onnxslim_node_attr_count(n) != (a ? 1u : 0u)) return 0;
  if (!a) return 1;
  const int64_t *v;
  size_t k;
  if (onnxslim_attr_ints(a, &v, &k) < 0 || k > OSL_MAX_RANK) return 0;
  uint8_t seen[OSL_MAX_RANK] = {0};
  for (size_t i = 0; i < k; i++) {
    if (v[i] < 0 || v[i] >= (int64_t)k || seen[v[i]]) return 0;
    seen[v[i]] = 1;
    perm[i] = v[i];
  }
  *np = k;
  return 1;
}

/* A Transpose (perm p2) whose input y comes from a Transpose (perm p1) of
 * x: its output is x transposed by q[j] = p1[p2[j]], so it reads x with
 * perm q and, when y has no other reader, the first Transpose goes; when q
 * is the identity (two perm-less Transposes too, whatever the rank) the
 * second goes as well, also when y has other readers (they keep the first).
 * Exact: only the order of the elements changes. 1 changed, 0 kept, or an
 * error. */
static int transpose_through(osl_simp *c, onnxslim_graph *g, onnxslim_node *n) {
  const char *d = onnxslim_node_domain(n), *y, *x;
  if ((d && d[0] && strcmp(d, "ai.onnx") != 0) ||
      strcmp(onnxslim_node_op_type(n), "Transpose") != 0 || onnxslim_node_input_count(n) != 1 ||
      onnxslim_node_output_count(n) != 1)
    return 0;
  if (!input_at(n, 0, &y)) return 0;
  onnxslim_node *p = onnxslim__graph_producer_q(g, y);
  if (!p || p == n || onnxslim_node_input_count(p) != 1 || onnxslim_node_output_count(p) != 1 ||
      !input_at(p, 0, &x) || strcmp(x, y) == 0)
    return 0;
  const char *pd = onnxslim_node_domain(p);
  if ((pd && pd[0] && strcmp(pd, "ai.onnx") != 0) ||
      strcmp(onnxslim_node_op_type(p), "Transpose") != 0)
    return 0;
  int64_t p1[OSL_MAX_RANK], p2[OSL_MAX_RANK], q[OSL_MAX_RANK];
  size_t n1, n2, r = 0;
  int h1, h2, identity = 1;
  if (!perm_of(p, p1, &n1, &h1) || !perm_of(n, p2, &n2, &h2)) return 0;
  if (h1 || h2) { /* else reversed twice: the identity, whatever the rank */
    r = h2 ? n2 : n1;
    if ((h1 && n1 != r) || (h2 && n2 != r)) return 0; /* ranks that disagree: invalid */
    for (size_t i = 0; i < r; i++) {
      if (!h1) p1[i] = (int64_t)(r - 1 - i);
      if (!h2) p2[i] = (int64_t)(r - 1 - i);
    }
    for (size_t j = 0; j < r; j++) {
      q[j] = p1[p2[j]];
      if (q[j] != (int64_t)j) identity = 0;
    }
  }
  int only = onnxslim__graph_consumer_count_q(g, y) == 1 && !is_graph_output(g, y);
  if (!identity && !only) return 0;
  const char *label = onnxslim__simp_label(p);
  int rc;
  if (identity) {
    if ((rc = bypass(c, g, n, x)) <= 0) return rc;
  } else if ((rc = onnxslim_node_set_input(n, 0, x)) < 0 ||
             (rc = onnxslim_node_set_attr_ints(n, "perm", q, r)) < 0)
    return rc;
  if (!only || onnxslim__graph_consumer_count_q(g, y)) return 1;
  if ((rc = onnxslim__simp_drop_value_info(g, y)) < 0 ||
      (rc = onnxslim_graph_remove_node(g, p)) < 0)
    return rc;
  return onnxslim__simp_change(c, g, ONNXSLIM_SIMPLIFY_REMOVED_NODE, label, x) < 0 ? -1 : 1;
}

/* 1 when Concat nodes n and p (p's output y an input of n) concatenate on
 * the same axis: the same attribute, or axes that agree once normalized by
 * the rank of y (stated, or else inferred). */
static int same_concat_axis(const osl_simp *c, const onnxslim_graph *g, const onnxslim_node *n,
                            const onnxslim_node *p, const char *y, int64_t opset) {
  int64_t an, ap, dims[OSL_MAX_RANK];
  size_t rank;
  if (!concat_axis(n, opset, &an) || !concat_axis(p, opset, &ap)) return 0;
  if (an == ap) return 1;
  if (!stated_shape(c, g, y, dims, &rank) || rank == 0) return 0;
  if (an < 0) an += (int64_t)rank;
  if (ap < 0) ap += (int64_t)rank;
  return an == ap && an >= 0 && an < (int64_t)rank;
}

/* The Concat of n's input y whose producer (a node of g) concatenates on
 * the same axis and that only n reads (not a graph output): n reads that
 * Concat's inputs in y's place and it goes. Concat(Concat(a, b), c) is
 * Concat(a, b, c): the same elements in the same order (an export's rotary
 * embedding concatenates the rotated halves, then the part not rotated).
 * 1 changed, 0 kept, or an error. */
static int concat_through(osl_simp *c, onnxslim_graph *g, onnxslim_node *n, int64_t opset) {
  const char *d = onnxslim_node_domain(n), *op = onnxslim_node_op_type(n);
  if ((d && d[0] && strcmp(d, "ai.onnx") != 0) || !op || strcmp(op, "Concat") != 0 ||
      onnxslim_node_output_count(n) != 1 || onnxslim_node_subgraph_count(n))
    return 0;
  size_t ni = onnxslim_node_input_count(n);
  for (size_t i = 0; i < ni; i++) {
    const char *y = onnxslim_node_input(n, i);
    if (!y || !y[0]) return 0; /* Concat has no optional input */
    onnxslim_node *p = onnxslim__graph_producer_q(g, y);
    const char *pop = p ? onnxslim_node_op_type(p) : NULL;
    if (!p || p == n || !pop || strcmp(pop, "Concat") != 0) continue;
    const char *pd = onnxslim_node_domain(p);
    size_t pi = onnxslim_node_input_count(p);
    if ((pd && pd[0] && strcmp(pd, "ai.onnx") != 0) || onnxslim_node_output_count(p) != 1 ||
        onnxslim_node_subgraph_count(p) || pi == 0 || onnxslim__graph_consumer_count_q(g, y) != 1 ||
        is_graph_output(g, y) || !same_concat_axis(c, g, n, p, y, opset))
      continue;
    int skip = 0;
    for (size_t k = 0; k < pi; k++) {
      const char *x = onnxslim_node_input(p, k);
      if (!x || !x[0]) skip = 1;
    }
    if (skip) continue;
    /* n's inputs with p's in place of each y (n may read y more than once) */
    size_t uses = 0;
    for (size_t k = 0; k < ni; k++)
      if (strcmp(onnxslim_node_input(n, k), y) == 0) uses++;
    size_t cnt = ni - uses + uses * pi, at = 0;
    const char **names = malloc(cnt * sizeof *names);
    if (!names) return onnxslim__err_nomem("simplify: concat");
    for (size_t k = 0; k < ni; k++) {
      const char *v = onnxslim_node_input(n, k);
      if (strcmp(v, y) != 0) names[at++] = v;
      else
        for (size_t j = 0; j < pi; j++) names[at++] = onnxslim_node_input(p, j);
    }
    /* strings of the model stay valid after edits, until it is freed */
    const char *label = onnxslim__simp_label(p), *into = onnxslim__simp_label(n);
    int rc = onnxslim_node_set_inputs(n, names, cnt);
    free(names);
    if (rc < 0 || (rc = onnxslim__simp_drop_value_info(g, y)) < 0 ||
        (rc = onnxslim_graph_remove_node(g, p)) < 0)
      return rc;
    return onnxslim__simp_change(c, g, ONNXSLIM_SIMPLIFY_MERGED_NODE, label, into) < 0 ? -1 : 1;
  }
  return 0;
}

static int noop_graph(osl_simp *c, onnxslim_graph *g) {
  int64_t opset = opset_of(c->model);
  onnxslim_node **nodes;
  size_t nn;
  int rc = onnxslim__simp_nodes(c->model, g, &nodes, &nn);
  for (size_t i = 0; i < nn && rc >= 0; i++) {
    const char *x = NULL;
    if (onnxslim__simp_gone(nodes[i])) continue;
    if ((rc = reshape_through(c, g, nodes[i])) < 0) break;
    if ((rc = transpose_through(c, g, nodes[i])) < 0) break;
    if (onnxslim__simp_gone(nodes[i])) continue;
    while ((rc = concat_through(c, g, nodes[i], opset)) == 1) {}
    if (rc < 0) break;
    rc = noop_input(c, g, nodes[i], opset, &x);
    if (rc == 1) rc = bypass(c, g, nodes[i], x);
  }
  onnxslim__simp_nodes_free(c->model, nodes, nn);
  if (rc < 0) return rc;
  for (size_t i = 0; i < onnxslim_graph_node_count(g); i++) {
    onnxslim_node *n = onnxslim_graph_node(g, i);
    for (size_t k = 0; k < onnxslim_node_subgraph_count(n); k++)
      if ((rc = noop_graph(c, onnxslim_node_subgraph(n, k))) < 0) return rc;
  }
  return 0;
}

/* Inference (dry run) of the main graph into c->inf and c->inf_names: the
 * no-op rules fall back on it for the values whose type the model does not
 * state (a Cast to the type its input already has, a Reshape to the shape
 * a fold made known). It starts from the graph's inputs, initializers and
 * operators alone, not from the stated types of computed values (as the
 * fold pass's): a Concat input inferred empty is a fact. An inference the
 * model makes fail leaves the rules on the stated types; running out of
 * memory is an error. */
static int noop_infer(osl_simp *c) {
  int rc =
      onnxslim__infer_shapes(&c->inf, c->model, ONNXSLIM_INFER_DRY_RUN | ONNXSLIM__INFER_UNSTATED);
  if (rc < 0) return rc == ONNXSLIM_ENOMEM || rc == ONNXSLIM_ELIMIT ? rc : 0;
  size_t n = onnxslim_infer_report_count(c->inf);
  if ((rc = onnxslim__mem_map_reserve(c->model, &c->inf_names, n, "simplify: no-op rules")) < 0)
    return rc;
  for (size_t i = 0; i < n && i < INT32_MAX; i++) {
    if (i + OSL_SIMP_AHEAD < n)
      onnxslim__map_prefetch(&c->inf_names, onnxslim_infer_report_name(c->inf, i + OSL_SIMP_AHEAD));
    if (onnxslim_infer_report_status(c->inf, i) == ONNXSLIM_INFER_CONFLICT) continue;
    osl_map_entry *e;
    rc = onnxslim__mem_map_add(c->model, &c->inf_names, onnxslim_infer_report_name(c->inf, i), &e,
                               "simplify: no-op rules");
    if (rc < 0) return rc;
    e->num = (int32_t)i;
  }
  return 0;
}

int onnxslim__simp_noop(osl_simp *c, onnxslim_graph *g) {
  int rc = noop_infer(c);
  if (rc >= 0) rc = noop_graph(c, g);
  onnxslim__mem_map_free(c->model, &c->inf_names);
  onnxslim_infer_report_free(c->inf);
  c->inf = NULL;
  return rc < 0 ? rc : 0;
}

/* ---- common subexpressions -------------------------------------------------- */

typedef struct {
  osl_sink sink;
  uint8_t *p;
  size_t n, cap;
} osl_bufsink;

static int bufsink_write(osl_sink *s, const uint8_t *data, size_t size) {
  osl_bufsink *b = (osl_bufsink *)s;
  if (b->n + size > b->cap) {
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->n + size) cap *= 2;
    uint8_t *p = realloc(b->p, cap);
    if (!p) return onnxslim__err_nomem("simplify: node key");
    b->p = p;
    b->cap = cap;
  }
  if (size) memcpy(b->p + b->n, data, size);
  b->n += size;
  return 0;
}
static int key_str(osl_bufsink *b, const char *s) {
  return bufsink_write(&b->sink, (const uint8_t *)(s ? s : ""), strlen(s ? s : "") + 1);
}

/* The bytes that make two nodes the same computation: op type, domain,
 * inputs, output count and the attributes as encoded. */
static int node_key(const onnxslim_node *n, osl_bufsink *b) {
  b->n = 0;
  int rc;
  char num[32];
  if ((rc = key_str(b, onnxslim_node_op_type(n))) < 0) return rc;
  if ((rc = key_str(b, onnxslim_node_domain(n))) < 0) return rc;
  size_t ni = onnxslim_node_input_count(n), na = onnxslim_node_attr_count(n);
  snprintf(num, sizeof num, "%zu/%zu/%zu", ni, onnxslim_node_output_count(n), na);
  if ((rc = key_str(b, num)) < 0) return rc;
  for (size_t i = 0; i < ni; i++)
    if ((rc = key_str(b, onnxslim_node_input(n, i))) < 0) return rc;
  for (size_t i = 0; i < na; i++) {
    size_t at = b->n;
    uint8_t len[8] = {0};
    if ((rc = bufsink_write(&b->sink, len, sizeof len)) < 0) return rc;
    if ((rc = onnxslim__msg_write((osl_msg *)onnxslim_node_attr(n, i), &b->sink)) < 0) return rc;
    uint64_t L = b->n - at - sizeof len;
    for (int k = 0; k < 8; k++) b->p[at + k] = (uint8_t)(L >> (8 * k));
  }
  return 0;
}

static int cse_eligible(const onnxslim_node *n) {
  static const char *const never[] = {
      "RandomNormal", "RandomNormalLike", "RandomUniform", "RandomUniformLike",
      "Bernoulli",    "Multinomial",      "Dropout"}; /* random in training mode */
  const char *d = onnxslim_node_domain(n), *op = onnxslim_node_op_type(n);
  if (!op || onnxslim_node_output_count(n) == 0) return 0;
  if (d && d[0] && strcmp(d, "ai.onnx") != 0 && strcmp(d, "ai.onnx.ml") != 0) return 0;
  for (size_t i = 0; i < sizeof never / sizeof never[0]; i++)
    if (strcmp(op, never[i]) == 0) return 0;
  return 1;
}

/* An open-addressing table of (hash, item) for one graph. */
typedef struct {
  uint64_t *h;
  const void **item;
  size_t cap;
} osl_htab;

static int htab_init(const onnxslim_model *m, osl_htab *t, size_t n) {
  t->cap = 16;
  while (t->cap < 2 * n + 2) t->cap *= 2;
  t->h = onnxslim__mem_calloc(m, t->cap, sizeof *t->h, "simplify: subexpressions");
  t->item = onnxslim__mem_calloc(m, t->cap, sizeof *t->item, "simplify: subexpressions");
  return t->h && t->item ? 0 : ONNXSLIM_ENOMEM;
}
static void htab_free(const onnxslim_model *m, osl_htab *t) {
  onnxslim__mem_free(m, t->h);
  onnxslim__mem_free(m, (void *)t->item);
}

/* Can node b (of g) be merged into node a: same outputs present, none of
 * b's a graph output or read by a node with subgraphs. */
static int mergeable(const onnxslim_graph *g, const onnxslim_node *a, const onnxslim_node *b) {
  for (size_t k = 0; k < onnxslim_node_output_count(b); k++) {
    const char *bo = onnxslim_node_output(b, k), *ao = onnxslim_node_output(a, k);
    if (!bo[0]) continue;
    if (!ao[0] || is_graph_output(g, bo) || read_by_subgraph_node(g, bo)) return 0;
  }
  return 1;
}

static int cse_nodes(osl_simp *c, onnxslim_graph *g) {
  const onnxslim_model *m = c->model;
  osl_htab t = {0};
  osl_bufsink kb = {{bufsink_write}, NULL, 0, 0}, ob = {{bufsink_write}, NULL, 0, 0};
  onnxslim_node **nodes = NULL;
  size_t nn = 0;
  int rc = htab_init(m, &t, onnxslim_graph_node_count(g));
  if (rc >= 0) rc = onnxslim__simp_nodes(m, g, &nodes, &nn);
  for (size_t i = 0; rc >= 0 && i < nn; i++) {
    onnxslim_node *n = nodes[i];
    if (onnxslim__simp_gone(n) || !cse_eligible(n)) continue;
    if ((rc = node_key(n, &kb)) < 0) break;
    uint64_t h = XXH3_64bits(kb.p, kb.n);
    size_t s = (size_t)h & (t.cap - 1);
    onnxslim_node *same = NULL;
    for (; t.item[s]; s = (s + 1) & (t.cap - 1)) {
      if (t.h[s] != h) continue;
      if ((rc = node_key(t.item[s], &ob)) < 0) break;
      if (ob.n == kb.n && memcmp(ob.p, kb.p, kb.n) == 0) {
        same = (onnxslim_node *)t.item[s];
        break;
      }
    }
    if (rc < 0) break;
    if (!same || !mergeable(g, same, n)) {
      if (!same) { /* s is the empty slot the probe ended on */
        t.h[s] = h;
        t.item[s] = n;
      }
      continue;
    }
    const char *label = onnxslim__simp_label(n), *into = onnxslim__simp_label(same);
    size_t no = onnxslim_node_output_count(n);
    const char **outs = malloc((no ? no : 1) * sizeof *outs);
    if (!outs) {
      rc = onnxslim__err_nomem("simplify");
      break;
    }
    for (size_t k = 0; k < no; k++) outs[k] = onnxslim_node_output(n, k);
    for (size_t k = 0; k < no && rc >= 0; k++)
      if (outs[k][0]) rc = onnxslim__simp_drop_value_info(g, outs[k]);
    if (rc >= 0) rc = onnxslim_graph_remove_node(g, n);
    for (size_t k = 0; k < no && rc >= 0; k++)
      if (outs[k][0]) rc = onnxslim_graph_rename_value(g, outs[k], onnxslim_node_output(same, k));
    free(outs);
    if (rc >= 0) rc = onnxslim__simp_change(c, g, ONNXSLIM_SIMPLIFY_MERGED_NODE, label, into);
  }
  onnxslim__simp_nodes_free(m, nodes, nn);
  free(kb.p);
  free(ob.p);
  htab_free(m, &t);
  return rc < 0 ? rc : 0;
}

/* Bytes off..off+k of initializer t, piece by piece: a pending transform
 * (a conversion, a folded Cast) is never materialized. */
static int init_read(const onnxslim_tensor *t, uint64_t off, uint8_t *buf, size_t k) {
  return onnxslim__tensor_read_out((osl_msg *)t, off, buf, k);
}

/* Hashes a transform's chunks until `left` bytes are in (then 1: stop). */
typedef struct {
  XXH3_state_t *st;
  uint64_t left;
} osl_hash_pay;
static int hash_chunk(void *payload, const uint8_t *out, size_t n) {
  osl_hash_pay *h = payload;
  size_t k = n < h->left ? n : (size_t)h->left;
  XXH3_64bits_update(h->st, out, k);
  h->left -= k;
  return h->left ? 0 : 1;
}

/* Hash of an initializer's type, dims and its first `limit` bytes (all of
 * them with UINT64_MAX), read a piece at a time. */
static int init_hash(const onnxslim_tensor *t, uint8_t *buf, size_t cap, uint64_t limit,
                     uint64_t *out) {
  XXH3_state_t st;
  XXH3_64bits_reset(&st);
  int32_t dt = onnxslim_tensor_dtype(t);
  XXH3_64bits_update(&st, &dt, sizeof dt);
  size_t r = onnxslim_tensor_rank(t);
  for (size_t i = 0; i < r; i++) {
    int64_t d = onnxslim_tensor_dim(t, i);
    XXH3_64bits_update(&st, &d, sizeof d);
  }
  uint64_t size;
  int rc = onnxslim_tensor_byte_size(t, &size);
  if (rc < 0) return rc;
  if (size > limit) size = limit;
  const osl_xform *x = NULL;
  const uint8_t *p;
  size_t n;
  if (onnxslim_tensor_storage(t) == ONNXSLIM_STORAGE_RAW &&
      (rc = onnxslim__tensor_source((osl_msg *)t, &x, &p, &n)) < 0)
    return rc;
  if (x) { /* a pending transform: its chunks in order, as the save makes them */
    osl_hash_pay hp = {&st, size};
    if (size &&
        (rc = onnxslim__xform_chunks(((const osl_msg *)t)->model, x, NULL, hash_chunk, &hp)) < 0)
      return rc;
    size = 0;
  }
  for (uint64_t off = 0; off < size;) {
    size_t k = size - off < cap ? (size_t)(size - off) : cap;
    if ((rc = init_read(t, off, buf, k)) < 0) return rc;
    XXH3_64bits_update(&st, buf, k);
    off += k;
  }
  *out = XXH3_64bits_digest(&st);
  return 0;
}

/* 1 when a and b have the same type, dims and bytes; 0; or an error. */
static int init_equal(const onnxslim_tensor *a, const onnxslim_tensor *b, uint8_t *ba, uint8_t *bb,
                      size_t cap) {
  if (onnxslim_tensor_dtype(a) != onnxslim_tensor_dtype(b)) return 0;
  size_t r = onnxslim_tensor_rank(a);
  if (onnxslim_tensor_rank(b) != r) return 0;
  for (size_t i = 0; i < r; i++)
    if (onnxslim_tensor_dim(a, i) != onnxslim_tensor_dim(b, i)) return 0;
  uint64_t sa, sb;
  int rc;
  if ((rc = onnxslim_tensor_byte_size(a, &sa)) < 0 || (rc = onnxslim_tensor_byte_size(b, &sb)) < 0)
    return rc;
  if (sa != sb) return 0;
  for (uint64_t off = 0; off < sa;) {
    size_t k = sa - off < cap ? (size_t)(sa - off) : cap;
    if ((rc = init_read(a, off, ba, k)) < 0 || (rc = init_read(b, off, bb, k)) < 0) return rc;
    if (memcmp(ba, bb, k)) return 0;
    off += k;
  }
  return 1;
}

#define OSL_CSE_BUF (256u << 10)
/* Initializers are first told apart by a hash of their first
 * OSL_CSE_PREFIX bytes; only those whose prefixes agree are hashed whole
 * (once each), then compared. Distinct weights cost a prefix read each per
 * round instead of all their bytes. */
#define OSL_CSE_PREFIX (64u << 10)

/* The whole-bytes hash of slot s of t (computed on first use, in full[]). */
static int full_hash(const osl_htab *t, size_t s, uint64_t *full, uint8_t *known, uint8_t *buf) {
  if (!known[s]) {
    int rc = init_hash(t->item[s], buf, OSL_CSE_BUF, UINT64_MAX, &full[s]);
    if (rc < 0) return rc;
    known[s] = 1;
  }
  return 0;
}

static int cse_inits(osl_simp *c, onnxslim_graph *g) {
  const onnxslim_model *m = c->model;
  osl_htab t = {0};
  uint8_t *ba = NULL, *bb = NULL;
  uint64_t *full = NULL; /* per slot: the whole-bytes hash, when known[] */
  uint8_t *known = NULL;
  int rc = htab_init(m, &t, onnxslim_graph_initializer_count(g));
  if (rc >= 0 &&
      (!(full = onnxslim__mem_calloc(m, t.cap, sizeof *full, "simplify: initializers")) ||
       !(known = onnxslim__mem_calloc(m, t.cap, 1, "simplify: initializers"))))
    rc = ONNXSLIM_ENOMEM;
  if (rc >= 0 && (!(ba = malloc(OSL_CSE_BUF)) || !(bb = malloc(OSL_CSE_BUF))))
    rc = onnxslim__err_nomem("simplify: initializers");
  /* a copy of the list, as for nodes (onnxslim__simp_nodes) */
  size_t ni = onnxslim_graph_initializer_count(g);
  onnxslim_tensor **inits = NULL;
  if (rc >= 0 && !(inits = onnxslim__mem_alloc(m, (ni ? ni : 1) * sizeof *inits, "simplify")))
    rc = ONNXSLIM_ENOMEM;
  for (size_t i = 0; rc >= 0 && i < ni; i++) inits[i] = onnxslim_graph_initializer(g, i);
  for (size_t i = 0; rc >= 0 && i < ni; i++) {
    onnxslim_tensor *x = inits[i];
    const char *name = onnxslim_tensor_name(x);
    if (!name || !name[0] || onnxslim_tensor_dtype(x) == ONNXSLIM_DTYPE_STRING ||
        onnxslim_tensor_dtype(x) <= 0 || is_graph_input(g, name))
      continue;
    uint64_t h, xfull = 0, size = 0;
    if ((rc = onnxslim_tensor_byte_size(x, &size)) < 0 ||
        (rc = init_hash(x, ba, OSL_CSE_BUF, OSL_CSE_PREFIX, &h)) < 0)
      break;
    int xknown = size <= OSL_CSE_PREFIX;
    if (xknown) xfull = h;
    size_t s = (size_t)h & (t.cap - 1);
    onnxslim_tensor *same = NULL;
    for (; t.item[s]; s = (s + 1) & (t.cap - 1)) {
      if (t.h[s] != h) continue;
      if (!xknown && (rc = init_hash(x, ba, OSL_CSE_BUF, UINT64_MAX, &xfull)) < 0) break;
      xknown = 1;
      if ((rc = full_hash(&t, s, full, known, ba)) < 0) break;
      if (full[s] != xfull) continue;
      if ((rc = init_equal(t.item[s], x, ba, bb, OSL_CSE_BUF)) < 0) break;
      if (rc == 1) {
        same = (onnxslim_tensor *)t.item[s];
        break;
      }
    }
    if (rc < 0) break;
    rc = 0;
    if (!same || is_graph_output(g, name) || read_by_subgraph_node(g, name)) {
      if (!same) {
        t.h[s] = h;
        t.item[s] = x;
        full[s] = xfull;
        known[s] = (uint8_t)xknown;
      }
      continue;
    }
    const char *label = name, *into = onnxslim_tensor_name(same);
    if ((rc = onnxslim__simp_drop_value_info(g, label)) < 0 ||
        (rc = onnxslim_graph_remove_initializer(g, x)) < 0 ||
        (rc = onnxslim_graph_rename_value(g, label, into)) < 0)
      break;
    rc = onnxslim__simp_change(c, g, ONNXSLIM_SIMPLIFY_MERGED_INITIALIZER, label, into);
  }
  onnxslim__mem_free(m, inits);
  onnxslim__mem_free(m, full);
  onnxslim__mem_free(m, known);
  free(ba);
  free(bb);
  htab_free(m, &t);
  return rc < 0 ? rc : 0;
}

int onnxslim__simp_cse(osl_simp *c, onnxslim_graph *g) {
  int rc;
  if ((rc = cse_inits(c, g)) < 0 || (rc = cse_nodes(c, g)) < 0) return rc;
  for (size_t i = 0; i < onnxslim_graph_node_count(g); i++) {
    onnxslim_node *n = onnxslim_graph_node(g, i);
    for (size_t k = 0; k < onnxslim_node_subgraph_count(n); k++)
      if ((rc = onnxslim__simp_cse(c, onnxslim_node_subgraph(n, k))) < 0) return rc;
  }
  return 0;
}
