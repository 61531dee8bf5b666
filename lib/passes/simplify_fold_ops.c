/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - what constant folding computes (simplify.h,
 * ONNXSLIM_SIMPLIFY_FOLD): the shape and integer operators, each exactly
 * as onnxruntime's CPU kernels compute it. Anything else (a type a rule
 * does not take, a value onnxruntime would refuse at run time such as an
 * index out of range or an integer division by zero, a result over the
 * cap) is left to the runtime: the rule answers 0. Values are packed
 * little-endian (the library refuses big-endian targets).
 */
#include <limits.h>
#include <string.h>

#include "passes/simplify_int.h"

/* ---- values ------------------------------------------------------------------- */

static int is_int(int32_t dt) { return dt == ONNXSLIM_DTYPE_INT32 || dt == ONNXSLIM_DTYPE_INT64; }

/* Integer types a Cast folds between (bool included). */
static int is_intlike(int32_t dt) {
  switch (dt) {
  case ONNXSLIM_DTYPE_BOOL:
  case ONNXSLIM_DTYPE_INT8:
  case ONNXSLIM_DTYPE_UINT8:
  case ONNXSLIM_DTYPE_INT16:
  case ONNXSLIM_DTYPE_UINT16:
  case ONNXSLIM_DTYPE_INT32:
  case ONNXSLIM_DTYPE_UINT32:
  case ONNXSLIM_DTYPE_INT64:
  case ONNXSLIM_DTYPE_UINT64: return 1;
  default: return 0;
  }
}
static int is_signed(int32_t dt) {
  return dt == ONNXSLIM_DTYPE_INT8 || dt == ONNXSLIM_DTYPE_INT16 || dt == ONNXSLIM_DTYPE_INT32 ||
         dt == ONNXSLIM_DTYPE_INT64;
}

/* Element i of an integer value, sign- or zero-extended (uint64 as its
 * bits). */
static int64_t get_i(const osl_cv *v, uint64_t i) {
  const uint8_t *b = v->p + i * v->esz;
  uint64_t u = 0;
  for (size_t k = v->esz; k-- > 0;) u = (u << 8) | b[k];
  if (is_signed(v->dt) && v->esz < 8) {
    uint64_t sign = (uint64_t)1 << (8 * v->esz - 1);
    u = (u ^ sign) - sign;
  }
  return (int64_t)u;
}
/* Stores the low esz bytes of x as element i (two's complement wrap). */
static void put_i(osl_cv *v, uint64_t i, int64_t x) {
  uint8_t *b = v->own + i * v->esz;
  uint64_t u = (uint64_t)x;
  for (size_t k = 0; k < v->esz; k++) b[k] = (uint8_t)(u >> (8 * k));
}

static int is_float(int32_t dt) {
  return dt == ONNXSLIM_DTYPE_FLOAT || dt == ONNXSLIM_DTYPE_DOUBLE;
}

/* Element i of a FLOAT or DOUBLE value (a float widens exactly). */
static double get_f(const osl_cv *v, uint64_t i) {
  if (v->dt == ONNXSLIM_DTYPE_FLOAT) {
    float x;
    memcpy(&x, v->p + 4 * i, 4);
    return x;
  }
  double x;
  memcpy(&x, v->p + 8 * i, 8);
  return x;
}
/* Stores x as element i of a FLOAT value (x is a float already: exact) or
 * a DOUBLE one. */
static void put_f(osl_cv *v, uint64_t i, double x) {
  if (v->dt == ONNXSLIM_DTYPE_FLOAT) {
    float y = (float)x;
    memcpy(v->own + 4 * i, &y, 4);
  } else {
    memcpy(v->own + 8 * i, &x, 8);
  }
}
static int is_nan(double x) { return x != x; }
/* 1 when no element of the FLOAT or DOUBLE value v is a NaN: a NaN's bits
 * (sign, payload) are what C and onnxruntime may not agree on, so no
 * fold reads or makes one. */
static int no_nan(const osl_cv *v) {
  for (uint64_t i = 0; i < v->count; i++)
    if (is_nan(get_f(v, i))) return 0;
  return 1;
}

/* floor(sqrt(n)), digit by digit. */
static uint64_t isqrt64(uint64_t n) {
  uint64_t r = 0, bit = (uint64_t)1 << 62;
  while (bit > n) bit >>= 2;
  for (; bit; bit >>= 2) {
    if (n >= r + bit) {
      n -= r + bit;
      r = (r >> 1) + bit;
    } else {
      r >>= 1;
    }
  }
  return r;
}

/* The square root of a float, correctly rounded (to nearest, ties to
 * even) as IEEE 754 and so every runtime's sqrt gives it, in integer
 * arithmetic (the library links no math library): 1, or 0 for a negative
 * number or a NaN. */
static int sqrt_f32(float x, float *out) {
  uint32_t b;
  memcpy(&b, &x, 4);
  uint32_t ex = (b >> 23) & 0xff, man = b & 0x7fffff;
  if ((b << 1) == 0 || b == 0x7f800000u) { /* +-0 and +inf: themselves */
    *out = x;
    return 1;
  }
  if ((b >> 31) || ex == 0xff) return 0;
  /* x = m * 2^e, m normalized to [2^23, 2^24), then e made even */
  uint64_t m = ex ? (man | 0x800000u) : man;
  int e = ex ? (int)ex - 150 : -149;
  while (m < 0x800000u) {
    m <<= 1;
    e--;
  }
  if (e & 1) {
    m <<= 1;
    e--;
  }
  /* sqrt(x) = sqrt(m << 36) * 2^((e - 36) / 2): 30 or 31 bits of root */
  uint64_t big = m << 36, r = isqrt64(big);
  int sticky = r * r != big, bits = 0;
  for (uint64_t t = r; t; t >>= 1) bits++;
  int drop = bits - 24, re = (e - 36) / 2 + drop;
  uint64_t q = r >> drop, rest = r & (((uint64_t)1 << drop) - 1), half = (uint64_t)1 << (drop - 1);
  if (rest > half || (rest == half && (sticky || (q & 1)))) q++;
  if (q == (uint64_t)1 << 24) {
    q >>= 1;
    re++;
  }
  /* q * 2^re with q in [2^23, 2^24): a normal float, biased exponent re + 150 */
  uint32_t ob = ((uint32_t)(re + 150) << 23) | (uint32_t)(q & 0x7fffff);
  memcpy(out, &ob, 4);
  return 1;
}

/* Sets out's type and dims and allocates its elements: 1, 0 when the
 * result would pass the cap (or has an unsupported type), or an error. */
static int out_alloc(const osl_fold *f, osl_cv *out, int32_t dt, const int64_t *dims, size_t rank) {
  unsigned int bits = onnxslim_dtype_bits(dt);
  if (!bits || bits % 8 || dt == ONNXSLIM_DTYPE_STRING || rank > OSL_FOLD_MAX_RANK) return 0;
  uint64_t n = 1;
  for (size_t i = 0; i < rank; i++) {
    if (dims[i] < 0) return 0;
    if (dims[i] && n > UINT64_MAX / (uint64_t)dims[i]) return 0;
    n *= (uint64_t)dims[i];
  }
  size_t esz = bits / 8;
  if (n > f->max_bytes / esz) return 0;
  memset(out, 0, sizeof *out);
  out->dt = dt;
  out->rank = rank;
  out->esz = esz;
  out->count = n;
  if (rank) memmove(out->dims, dims, rank * sizeof *dims);
  out->own = onnxslim__mem_alloc(f->model, n ? (size_t)(n * esz) : 1, "folding constants");
  if (!out->own) return -1;
  out->p = out->own;
  return 1;
}
static int fail_code(void) {
  int e = onnxslim_error_last_code();
  return e < 0 ? e : ONNXSLIM_ENOMEM;
}

static int has_data(const osl_cv *v) { return v->dt && v->p; }

static int64_t attr_int(const onnxslim_node *n, const char *name, int64_t dflt) {
  onnxslim_attr *a = onnxslim_node_find_attr(n, name);
  int64_t v;
  return a && onnxslim_attr_int(a, &v) == 0 ? v : dflt;
}

/* The integers of a 0-d or 1-d int32/int64 input, at most cap: 1 and *n. */
static int int_list(const osl_cv *v, int64_t *out, size_t cap, size_t *n) {
  if (!has_data(v) || !is_int(v->dt) || v->rank > 1 || v->count > cap) return 0;
  for (uint64_t i = 0; i < v->count; i++) out[i] = get_i(v, i);
  *n = (size_t)v->count;
  return 1;
}
/* The ints attribute `name`, at most cap: 1 and *n; 0 when absent. */
static int attr_list(const onnxslim_node *nd, const char *name, int64_t *out, size_t cap,
                     size_t *n) {
  onnxslim_attr *a = onnxslim_node_find_attr(nd, name);
  const int64_t *v;
  size_t cnt;
  if (!a || onnxslim_attr_ints(a, &v, &cnt) < 0 || cnt > cap) return 0;
  if (cnt) memcpy(out, v, cnt * sizeof *v);
  *n = cnt;
  return 1;
}

/* Normalizes axis a for rank r (-r..r-1): 1 and *ax, else 0. */
static int norm_axis(int64_t a, size_t r, size_t *ax) {
  int64_t rr = (int64_t)r;
  if (a < -rr || a >= rr) return 0;
  *ax = (size_t)(a < 0 ? a + rr : a);
  return 1;
}

/* ---- broadcasting --------------------------------------------------------------- */

/* The numpy broadcast of in[0..k): 1 and dims/rank, or 0. */
static int bcast_shape(const osl_cv *const *in, size_t k, int64_t *dims, size_t *rank) {
  size_t r = 0;
  for (size_t i = 0; i < k; i++)
    if (in[i]->rank > r) r = in[i]->rank;
  for (size_t d = 0; d < r; d++) {
    int64_t v = 1;
    for (size_t i = 0; i < k; i++) {
      if (d + in[i]->rank < r) continue;
      int64_t x = in[i]->dims[d + in[i]->rank - r];
      if (x == v || x == 1) continue;
      if (v != 1) return 0;
      v = x;
    }
    dims[d] = v;
  }
  *rank = r;
  return 1;
}
/* The element of a that output element o (of dims[0..r)) reads. */
static uint64_t bcast_at(const osl_cv *a, const int64_t *dims, size_t r, uint64_t o) {
  uint64_t off = 0, stride = 1;
  for (size_t d = r; d-- > 0;) {
    uint64_t c = o % (uint64_t)dims[d];
    o /= (uint64_t)dims[d];
    if (d + a->rank < r) continue;
    uint64_t ad = (uint64_t)a->dims[d + a->rank - r];
    off += (ad == 1 ? 0 : c) * stride;
    stride *= ad;
  }
  return off;
}

/* ---- elementwise integer arithmetic and comparisons -------------------------- */

enum {
  EW_ADD,
  EW_SUB,
  EW_MUL,
  EW_DIV,
  EW_MOD,
  EW_FMOD,
  EW_MIN,
  EW_MAX,
  EW_EQ,
  EW_LT,
  EW_GT,
  EW_LE,
  EW_GE,
  EW_AND,
  EW_OR,
  EW_XOR
};

/* One binary step on int64 (wrapping); 0 when onnxruntime would fail or
 * the C result is undefined (division by zero, MIN / -1). */
static int ew_step(int op, int64_t a, int64_t b, int64_t lo, int64_t *r) {
  switch (op) {
  case EW_ADD: *r = (int64_t)((uint64_t)a + (uint64_t)b); return 1;
  case EW_SUB: *r = (int64_t)((uint64_t)a - (uint64_t)b); return 1;
  case EW_MUL: *r = (int64_t)((uint64_t)a * (uint64_t)b); return 1;
  case EW_DIV:
  case EW_MOD:
  case EW_FMOD:
    if (b == 0 || (b == -1 && a == lo)) return 0;
    if (op == EW_DIV) *r = a / b;
    else {
      int64_t m = a % b;
      /* Mod (fmod 0) takes the divisor's sign, as Python's % */
      if (op == EW_MOD && m != 0 && ((m < 0) != (b < 0))) m += b;
      *r = m;
    }
    return 1;
  case EW_MIN: *r = a < b ? a : b; return 1;
  case EW_MAX: *r = a > b ? a : b; return 1;
  case EW_EQ: *r = a == b; return 1;
  case EW_LT: *r = a < b; return 1;
  case EW_GT: *r = a > b; return 1;
  case EW_LE: *r = a <= b; return 1;
  case EW_GE: *r = a >= b; return 1;
  case EW_AND: *r = a && b; return 1;
  case EW_OR: *r = a || b; return 1;
  case EW_XOR: *r = (a != 0) != (b != 0); return 1;
  default: return 0;
  }
}

/* One binary step of FLOAT (in float arithmetic: a and b are floats, each
 * operation rounds once, as onnxruntime's kernels do) or DOUBLE values;
 * the IEEE operations only, so the result is the one onnxruntime gets. */
static int ew_step_f(int op, int single, double a, double b, double *r) {
  if (single) {
    float x = (float)a, y = (float)b;
    switch (op) {
    case EW_ADD: *r = x + y; return 1;
    case EW_SUB: *r = x - y; return 1;
    case EW_MUL: *r = x * y; return 1;
    case EW_DIV: *r = x / y; return 1;
    default: break;
    }
  } else {
    switch (op) {
    case EW_ADD: *r = a + b; return 1;
    case EW_SUB: *r = a - b; return 1;
    case EW_MUL: *r = a * b; return 1;
    case EW_DIV: *r = a / b; return 1;
    default: break;
    }
  }
  switch (op) {
  case EW_EQ: *r = a == b; return 1;
  case EW_LT: *r = a < b; return 1;
  case EW_GT: *r = a > b; return 1;
  case EW_LE: *r = a <= b; return 1;
  case EW_GE: *r = a >= b; return 1;
  default: return 0; /* Min, Max (signed zeros), Mod: left to the runtime */
  }
}

/* Two FLOAT or DOUBLE inputs of one type: arithmetic and comparisons;
 * nothing that reads or would make a NaN. */
static int fold_elementwise_f(const osl_fold *f, int op, const osl_cv *in, size_t nin,
                              osl_cv *out) {
  const osl_cv *v[2] = {&in[0], &in[1]};
  if (nin != 2 || !no_nan(v[0]) || !no_nan(v[1])) return 0;
  int cmp = op >= EW_EQ && op <= EW_GE;
  if (!cmp && op != EW_ADD && op != EW_SUB && op != EW_MUL && op != EW_DIV) return 0;
  int64_t dims[OSL_FOLD_MAX_RANK];
  size_t r;
  if (!bcast_shape(v, 2, dims, &r)) return 0;
  int rc = out_alloc(f, out, cmp ? ONNXSLIM_DTYPE_BOOL : in[0].dt, dims, r);
  if (rc <= 0) return rc < 0 ? fail_code() : 0;
  int single = in[0].dt == ONNXSLIM_DTYPE_FLOAT;
  for (uint64_t o = 0; o < out->count; o++) {
    double y;
    if (!ew_step_f(op, single, get_f(v[0], bcast_at(v[0], dims, r, o)),
                   get_f(v[1], bcast_at(v[1], dims, r, o)), &y) ||
        is_nan(y))
      return 0;
    if (cmp) put_i(out, o, (int64_t)y);
    else put_f(out, o, y);
  }
  return 1;
}

static int fold_elementwise(const osl_fold *f, int op, const osl_cv *in, size_t nin, osl_cv *out) {
  const osl_cv *v[OSL_FOLD_MAX_RANK];
  if (nin < 2 || nin > OSL_FOLD_MAX_RANK) return 0;
  int logic = op == EW_AND || op == EW_OR || op == EW_XOR;
  int cmp = op >= EW_EQ && op <= EW_GE;
  for (size_t i = 0; i < nin; i++) {
    if (!has_data(&in[i]) || in[i].dt != in[0].dt) return 0;
    v[i] = &in[i];
  }
  int32_t dt = in[0].dt;
  if (is_float(dt) && !logic) return fold_elementwise_f(f, op, in, nin, out);
  if (logic ? dt != ONNXSLIM_DTYPE_BOOL
            : !(is_int(dt) || (op == EW_EQ && dt == ONNXSLIM_DTYPE_BOOL)))
    return 0;
  if (nin > 2 && op != EW_MIN && op != EW_MAX) return 0;
  int64_t dims[OSL_FOLD_MAX_RANK];
  size_t r;
  if (!bcast_shape(v, nin, dims, &r)) return 0;
  int rc = out_alloc(f, out, cmp ? ONNXSLIM_DTYPE_BOOL : dt, dims, r);
  if (rc <= 0) return rc < 0 ? fail_code() : 0;
  int64_t lo = dt == ONNXSLIM_DTYPE_INT32 ? INT32_MIN : INT64_MIN;
  for (uint64_t o = 0; o < out->count; o++) {
    int64_t acc = get_i(v[0], bcast_at(v[0], dims, r, o));
    for (size_t i = 1; i < nin; i++) {
      int64_t b = get_i(v[i], bcast_at(v[i], dims, r, o));
      if (!ew_step(op, acc, b, lo, &acc)) return 0; /* out->own freed by the caller */
    }
    put_i(out, o, acc);
  }
  return 1;
}

static int fold_unary(const osl_fold *f, const char *op, const osl_cv *x, osl_cv *out) {
  int neg = strcmp(op, "Neg") == 0, abs_ = strcmp(op, "Abs") == 0, not_ = strcmp(op, "Not") == 0;
  if (has_data(x) && is_float(x->dt) && !not_) {
    /* Neg and Abs change the sign bit, Reciprocal is one IEEE division
     * and Sqrt correctly rounded: the runtime's results exactly. The
     * square root of FLOAT only. */
    int sqrt_ = strcmp(op, "Sqrt") == 0, single = x->dt == ONNXSLIM_DTYPE_FLOAT;
    if (!no_nan(x) || (sqrt_ && !single)) return 0;
    int rc = out_alloc(f, out, x->dt, x->dims, x->rank);
    if (rc <= 0) return rc < 0 ? fail_code() : 0;
    for (uint64_t i = 0; i < x->count; i++) {
      double a = get_f(x, i), y;
      float r;
      if (neg) y = -a;
      else if (abs_) y = a < 0 || (a == 0 && 1 / a < 0) ? -a : a; /* -0 too */
      else if (sqrt_) {
        if (!sqrt_f32((float)a, &r)) return 0; /* a negative number */
        y = r;
      } else y = single ? (double)(1.0f / (float)a) : 1.0 / a;
      put_f(out, i, y);
    }
    return 1;
  }
  if (!has_data(x) || (not_ ? x->dt != ONNXSLIM_DTYPE_BOOL : !is_int(x->dt))) return 0;
  if (!neg && !abs_ && !not_) return 0;
  int rc = out_alloc(f, out, x->dt, x->dims, x->rank);
  if (rc <= 0) return rc < 0 ? fail_code() : 0;
  for (uint64_t i = 0; i < x->count; i++) {
    int64_t a = get_i(x, i);
    /* the minimum stays itself (wraps), as in onnxruntime */
    if (neg || (abs_ && a < 0)) a = (int64_t)(0 - (uint64_t)a);
    if (not_) a = !a;
    put_i(out, i, a);
  }
  return 1;
}

static int fold_where(const osl_fold *f, const osl_cv *in, size_t nin, osl_cv *out) {
  if (nin != 3 || !has_data(&in[0]) || !has_data(&in[1]) || !has_data(&in[2])) return 0;
  if (in[0].dt != ONNXSLIM_DTYPE_BOOL || in[1].dt != in[2].dt) return 0;
  const osl_cv *v[3] = {&in[0], &in[1], &in[2]};
  int64_t dims[OSL_FOLD_MAX_RANK];
  size_t r;
  if (!bcast_shape(v, 3, dims, &r)) return 0;
  int rc = out_alloc(f, out, in[1].dt, dims, r);
  if (rc <= 0) return rc < 0 ? fail_code() : 0;
  for (uint64_t o = 0; o < out->count; o++) {
    const osl_cv *s = in[0].p[bcast_at(v[0], dims, r, o)] ? v[1] : v[2];
    memcpy(out->own + o * out->esz, s->p + bcast_at(s, dims, r, o) * s->esz, out->esz);
  }
  return 1;
}

/* ---- shapes ------------------------------------------------------------------------- */

static int fold_shape(const osl_fold *f, const osl_cv *x, osl_cv *out) {
  int64_t r = (int64_t)x->rank;
  int64_t start = attr_int(f->node, "start", 0), end = attr_int(f->node, "end", r);
  if (start < 0) start += r;
  if (end < 0) end += r;
  start = start < 0 ? 0 : start > r ? r : start;
  end = end < 0 ? 0 : end > r ? r : end;
  int64_t n = end > start ? end - start : 0;
  int rc = out_alloc(f, out, ONNXSLIM_DTYPE_INT64, &n, 1);
  if (rc <= 0) return rc < 0 ? fail_code() : 0;
  for (int64_t i = 0; i < n; i++) put_i(out, (uint64_t)i, x->dims[start + i]);
  return 1;
}

static int fold_size(const osl_fold *f, const osl_cv *x, osl_cv *out) {
  int64_t n = 1;
  for (size_t i = 0; i < x->rank; i++) {
    if (x->dims[i] < 0 || (x->dims[i] && n > INT64_MAX / x->dims[i])) return 0;
    n *= x->dims[i];
  }
  int rc = out_alloc(f, out, ONNXSLIM_DTYPE_INT64, NULL, 0);
  if (rc <= 0) return rc < 0 ? fail_code() : 0;
  put_i(out, 0, n);
  return 1;
}

/* The same elements under new dims (Reshape, Squeeze, Unsqueeze,
 * Identity, Flatten). */
static int same_data(const osl_fold *f, const osl_cv *x, const int64_t *dims, size_t rank,
                     osl_cv *out) {
  int rc = out_alloc(f, out, x->dt, dims, rank);
  if (rc <= 0) return rc < 0 ? fail_code() : 0;
  if (out->count != x->count) return 0;
  if (x->count) memcpy(out->own, x->p, (size_t)(x->count * x->esz));
  return 1;
}

int onnxslim__fold_reshape_dims(const osl_fold *f, const osl_cv *x, const osl_cv *shape, int64_t *s,
                                size_t *n) {
  if (f->opset < 5 || !int_list(shape, s, OSL_FOLD_MAX_RANK, n) || shape->rank != 1) return 0;
  int allowzero = attr_int(f->node, "allowzero", 0) != 0;
  int64_t known = 1, minus = -1;
  for (size_t i = 0; i < *n; i++) {
    if (s[i] == 0 && !allowzero) {
      if (i >= x->rank) return 0;
      s[i] = x->dims[i];
    }
    if (s[i] == -1) {
      if (minus >= 0) return 0;
      minus = (int64_t)i;
    } else if (s[i] < 0) return 0;
    else if (s[i] && known > INT64_MAX / s[i]) return 0;
    else known *= s[i];
  }
  if (minus >= 0) {
    if (known == 0 || x->count % (uint64_t)known) return 0;
    s[minus] = (int64_t)(x->count / (uint64_t)known);
  } else if ((uint64_t)known != x->count) return 0;
  return 1;
}

static int fold_reshape(const osl_fold *f, const osl_cv *in, size_t nin, osl_cv *out) {
  int64_t s[OSL_FOLD_MAX_RANK];
  size_t n;
  if (nin < 2 || !has_data(&in[0])) return 0;
  if (!onnxslim__fold_reshape_dims(f, &in[0], &in[1], s, &n)) return 0;
  return same_data(f, &in[0], s, n, out);
}

/* The axes of Squeeze/Unsqueeze: the attribute before opset 13, the
 * second input from 13; 1 with *n (present) or *n = SIZE_MAX (absent). */
static int axes_of(const osl_fold *f, const osl_cv *in, size_t nin, int64_t *axes, size_t *n) {
  if (f->opset < 13) {
    if (!attr_list(f->node, "axes", axes, OSL_FOLD_MAX_RANK, n)) *n = SIZE_MAX;
    return 1;
  }
  if (nin < 2 || !in[1].dt) {
    *n = SIZE_MAX;
    return 1;
  }
  return int_list(&in[1], axes, OSL_FOLD_MAX_RANK, n);
}

static int fold_squeeze(const osl_fold *f, const osl_cv *in, size_t nin, osl_cv *out) {
  int64_t axes[OSL_FOLD_MAX_RANK], dims[OSL_FOLD_MAX_RANK];
  unsigned char drop[OSL_FOLD_MAX_RANK] = {0};
  size_t n, r = 0;
  const osl_cv *x = &in[0];
  if (!has_data(x) || !axes_of(f, in, nin, axes, &n)) return 0;
  if (n == SIZE_MAX)
    for (size_t i = 0; i < x->rank; i++) drop[i] = x->dims[i] == 1;
  for (size_t i = 0; n != SIZE_MAX && i < n; i++) {
    size_t ax;
    if (!norm_axis(axes[i], x->rank, &ax) || x->dims[ax] != 1) return 0;
    drop[ax] = 1;
  }
  for (size_t i = 0; i < x->rank; i++)
    if (!drop[i]) dims[r++] = x->dims[i];
  return same_data(f, x, dims, r, out);
}

static int fold_unsqueeze(const osl_fold *f, const osl_cv *in, size_t nin, osl_cv *out) {
  int64_t axes[OSL_FOLD_MAX_RANK], dims[OSL_FOLD_MAX_RANK];
  unsigned char add[OSL_FOLD_MAX_RANK] = {0};
  size_t n;
  const osl_cv *x = &in[0];
  if (!has_data(x) || !axes_of(f, in, nin, axes, &n) || n == SIZE_MAX) return 0;
  size_t r = x->rank + n;
  if (r > OSL_FOLD_MAX_RANK) return 0;
  for (size_t i = 0; i < n; i++) {
    size_t ax;
    if (!norm_axis(axes[i], r, &ax) || add[ax]) return 0;
    add[ax] = 1;
  }
  for (size_t i = 0, k = 0; i < r; i++) dims[i] = add[i] ? 1 : x->dims[k++];
  return same_data(f, x, dims, r, out);
}

static int fold_flatten(const osl_fold *f, const osl_cv *x, osl_cv *out) {
  int64_t a = attr_int(f->node, "axis", 1), r = (int64_t)x->rank;
  if (!has_data(x) || a < -r || a > r) return 0;
  if (a < 0) a += r;
  int64_t dims[2] = {1, 1};
  for (int64_t i = 0; i < r; i++) dims[i < a ? 0 : 1] *= x->dims[i];
  return same_data(f, x, dims, 2, out);
}

/* ---- moving elements ---------------------------------------------------------------- */

static int fold_transpose(const osl_fold *f, const osl_cv *x, osl_cv *out) {
  int64_t perm[OSL_FOLD_MAX_RANK], dims[OSL_FOLD_MAX_RANK];
  unsigned char seen[OSL_FOLD_MAX_RANK] = {0};
  size_t np, r = x->rank;
  if (!has_data(x)) return 0;
  if (!attr_list(f->node, "perm", perm, OSL_FOLD_MAX_RANK, &np)) {
    np = r;
    for (size_t i = 0; i < r; i++) perm[i] = (int64_t)(r - 1 - i);
  }
  if (np != r) return 0;
  for (size_t i = 0; i < r; i++) {
    if (perm[i] < 0 || perm[i] >= (int64_t)r || seen[perm[i]]) return 0;
    seen[perm[i]] = 1;
    dims[i] = x->dims[perm[i]];
  }
  int rc = out_alloc(f, out, x->dt, dims, r);
  if (rc <= 0) return rc < 0 ? fail_code() : 0;
  uint64_t st[OSL_FOLD_MAX_RANK];
  for (size_t i = r, s = 1; i-- > 0;) {
    st[i] = s;
    s *= (uint64_t)x->dims[i];
  }
  for (uint64_t o = 0; o < out->count; o++) {
    uint64_t rest = o, src = 0;
    for (size_t i = r; i-- > 0;) {
      src += (rest % (uint64_t)dims[i]) * st[perm[i]];
      rest /= (uint64_t)dims[i];
    }
    memcpy(out->own + o * x->esz, x->p + src * x->esz, x->esz);
  }
  return 1;
}

static int fold_gather(const osl_fold *f, const osl_cv *in, size_t nin, osl_cv *out) {
  if (nin != 2 || !has_data(&in[0]) || !has_data(&in[1]) || !is_int(in[1].dt)) return 0;
  const osl_cv *x = &in[0], *ix = &in[1];
  size_t ax;
  if (x->rank < 1 || !norm_axis(attr_int(f->node, "axis", 0), x->rank, &ax)) return 0;
  size_t r = x->rank - 1 + ix->rank;
  int64_t dims[OSL_FOLD_MAX_RANK];
  if (r > OSL_FOLD_MAX_RANK) return 0;
  size_t k = 0;
  for (size_t i = 0; i < ax; i++) dims[k++] = x->dims[i];
  for (size_t i = 0; i < ix->rank; i++) dims[k++] = ix->dims[i];
  for (size_t i = ax + 1; i < x->rank; i++) dims[k++] = x->dims[i];
  uint64_t outer = 1, inner = 1, d = (uint64_t)x->dims[ax];
  for (size_t i = 0; i < ax; i++) outer *= (uint64_t)x->dims[i];
  for (size_t i = ax + 1; i < x->rank; i++) inner *= (uint64_t)x->dims[i];
  for (uint64_t j = 0; j < ix->count; j++) {
    int64_t v = get_i(ix, j);
    if (v < -(int64_t)d || v >= (int64_t)d) return 0; /* onnxruntime refuses it */
  }
  int rc = out_alloc(f, out, x->dt, dims, r);
  if (rc <= 0) return rc < 0 ? fail_code() : 0;
  size_t row = (size_t)(inner * x->esz);
  uint8_t *dst = out->own;
  for (uint64_t o = 0; o < outer; o++)
    for (uint64_t j = 0; j < ix->count; j++) {
      int64_t v = get_i(ix, j);
      if (v < 0) v += (int64_t)d;
      if (row) memcpy(dst, x->p + ((o * d + (uint64_t)v) * inner) * x->esz, row);
      dst += row;
    }
  return 1;
}

static int fold_concat(const osl_fold *f, const osl_cv *in, size_t nin, osl_cv *out) {
  if (nin < 1 || !has_data(&in[0]) || in[0].rank < 1) return 0;
  size_t r = in[0].rank, ax;
  if (!norm_axis(attr_int(f->node, "axis", INT64_MAX), r, &ax)) return 0;
  int64_t dims[OSL_FOLD_MAX_RANK];
  memcpy(dims, in[0].dims, r * sizeof *dims);
  dims[ax] = 0;
  for (size_t i = 0; i < nin; i++) {
    if (!has_data(&in[i]) || in[i].dt != in[0].dt || in[i].rank != r) return 0;
    for (size_t k = 0; k < r; k++)
      if (k != ax && in[i].dims[k] != in[0].dims[k]) return 0;
    dims[ax] += in[i].dims[ax];
  }
  int rc = out_alloc(f, out, in[0].dt, dims, r);
  if (rc <= 0) return rc < 0 ? fail_code() : 0;
  uint64_t outer = 1, inner = 1;
  for (size_t k = 0; k < ax; k++) outer *= (uint64_t)dims[k];
  for (size_t k = ax + 1; k < r; k++) inner *= (uint64_t)dims[k];
  uint8_t *dst = out->own;
  for (uint64_t o = 0; o < outer; o++)
    for (size_t i = 0; i < nin; i++) {
      size_t block = (size_t)((uint64_t)in[i].dims[ax] * inner * in[i].esz);
      if (block) memcpy(dst, in[i].p + o * block, block);
      dst += block;
    }
  return 1;
}

static int fold_slice(const osl_fold *f, const osl_cv *in, size_t nin, osl_cv *out) {
  int64_t st[OSL_FOLD_MAX_RANK], en[OSL_FOLD_MAX_RANK], ax[OSL_FOLD_MAX_RANK],
      sp[OSL_FOLD_MAX_RANK];
  size_t ns, ne, na, nst;
  const osl_cv *x = &in[0];
  size_t r = x->rank;
  if (!has_data(x)) return 0;
  if (f->opset >= 10) {
    if (nin < 3 || !int_list(&in[1], st, OSL_FOLD_MAX_RANK, &ns) ||
        !int_list(&in[2], en, OSL_FOLD_MAX_RANK, &ne))
      return 0;
    na = nst = ns;
    if (nin > 3 && in[3].dt) {
      if (!int_list(&in[3], ax, OSL_FOLD_MAX_RANK, &na)) return 0;
    } else
      for (size_t i = 0; i < ns; i++) ax[i] = (int64_t)i;
    if (nin > 4 && in[4].dt) {
      if (!int_list(&in[4], sp, OSL_FOLD_MAX_RANK, &nst)) return 0;
    } else
      for (size_t i = 0; i < ns; i++) sp[i] = 1;
  } else {
    if (!attr_list(f->node, "starts", st, OSL_FOLD_MAX_RANK, &ns) ||
        !attr_list(f->node, "ends", en, OSL_FOLD_MAX_RANK, &ne))
      return 0;
    na = nst = ns;
    if (!attr_list(f->node, "axes", ax, OSL_FOLD_MAX_RANK, &na))
      for (size_t i = 0; i < ns; i++) ax[i] = (int64_t)i;
    for (size_t i = 0; i < ns; i++) sp[i] = 1;
  }
  if (ne != ns || na != ns || nst != ns) return 0;
  int64_t start[OSL_FOLD_MAX_RANK], step[OSL_FOLD_MAX_RANK], dims[OSL_FOLD_MAX_RANK];
  unsigned char seen[OSL_FOLD_MAX_RANK] = {0};
  for (size_t i = 0; i < r; i++) {
    start[i] = 0;
    step[i] = 1;
    dims[i] = x->dims[i];
  }
  for (size_t i = 0; i < ns; i++) {
    size_t a;
    if (!norm_axis(ax[i], r, &a) || seen[a] || sp[i] == 0 || sp[i] == INT64_MIN) return 0;
    seen[a] = 1;
    int64_t d = x->dims[a], s = st[i], e = en[i], k = sp[i], n = 0;
    /* a negative step with a start or end that needs clamping: onnxruntime
     * disagreed with the spec's clamping in the fuzzed graphs of step 33 */
    if (k < 0 && (s < -d || s >= d || e < -d || e >= d)) return 0;
    if (s < 0) s += d; /* no overflow: d >= 0 */
    if (e < 0) e += d;
    if (k > 0) {
      s = s < 0 ? 0 : s > d ? d : s;
      e = e < 0 ? 0 : e > d ? d : e;
      if (e > s) n = (e - s - 1) / k + 1;
    } else if (d > 0) {
      s = s < 0 ? 0 : s > d - 1 ? d - 1 : s;
      e = e < -1 ? -1 : e > d - 1 ? d - 1 : e;
      if (s > e) n = (s - e - 1) / -k + 1;
    }
    start[a] = s;
    step[a] = k;
    dims[a] = n;
  }
  int rc = out_alloc(f, out, x->dt, dims, r);
  if (rc <= 0) return rc < 0 ? fail_code() : 0;
  uint64_t xs[OSL_FOLD_MAX_RANK];
  for (size_t i = r, s = 1; i-- > 0;) {
    xs[i] = s;
    s *= (uint64_t)x->dims[i];
  }
  for (uint64_t o = 0; o < out->count; o++) {
    uint64_t rest = o;
    int64_t src = 0;
    for (size_t i = r; i-- > 0;) {
      int64_t c = (int64_t)(rest % (uint64_t)dims[i]);
      rest /= (uint64_t)dims[i];
      src += (start[i] + c * step[i]) * (int64_t)xs[i];
    }
    memcpy(out->own + o * x->esz, x->p + (uint64_t)src * x->esz, x->esz);
  }
  return 1;
}

static int fold_expand(const osl_fold *f, const osl_cv *in, size_t nin, osl_cv *out) {
  int64_t s[OSL_FOLD_MAX_RANK], dims[OSL_FOLD_MAX_RANK];
  size_t n, r;
  if (nin != 2 || !has_data(&in[0]) || !int_list(&in[1], s, OSL_FOLD_MAX_RANK, &n)) return 0;
  if (in[1].rank != 1 || in[1].dt != ONNXSLIM_DTYPE_INT64) return 0;
  osl_cv shape = {0};
  shape.rank = n;
  for (size_t i = 0; i < n; i++) {
    if (s[i] < 0) return 0;
    shape.dims[i] = s[i];
  }
  const osl_cv *v[2] = {&in[0], &shape};
  if (!bcast_shape(v, 2, dims, &r)) return 0;
  int rc = out_alloc(f, out, in[0].dt, dims, r);
  if (rc <= 0) return rc < 0 ? fail_code() : 0;
  for (uint64_t o = 0; o < out->count; o++)
    memcpy(out->own + o * out->esz, in[0].p + bcast_at(&in[0], dims, r, o) * in[0].esz, out->esz);
  return 1;
}

static int fold_constant_of_shape(const osl_fold *f, const osl_cv *in, size_t nin, osl_cv *out) {
  int64_t s[OSL_FOLD_MAX_RANK];
  size_t n;
  if (nin != 1 || !int_list(&in[0], s, OSL_FOLD_MAX_RANK, &n) || in[0].rank != 1 ||
      in[0].dt != ONNXSLIM_DTYPE_INT64)
    return 0;
  for (size_t i = 0; i < n; i++)
    if (s[i] < 0) return 0;
  int32_t dt = ONNXSLIM_DTYPE_FLOAT;
  const void *val = NULL;
  size_t vsize = 0;
  onnxslim_attr *a = onnxslim_node_find_attr(f->node, "value");
  if (a) {
    const onnxslim_tensor *t = onnxslim_attr_tensor(a);
    if (!t || onnxslim_tensor_element_count(t) != 1) return 0;
    dt = onnxslim_tensor_dtype(t);
    if (onnxslim_tensor_data(t, &val, &vsize) < 0) return 0;
  }
  int rc = out_alloc(f, out, dt, s, n);
  if (rc <= 0) return rc < 0 ? fail_code() : 0;
  if (val && vsize != out->esz) return 0;
  for (uint64_t o = 0; o < out->count; o++) {
    if (val) memcpy(out->own + o * out->esz, val, out->esz);
    else memset(out->own + o * out->esz, 0, out->esz);
  }
  return 1;
}

/* Range over int32/int64 scalars: onnxruntime counts ceil((limit - start)
 * / delta) in double, so the values stay within 2^50 where that is exact. */
static int fold_range(const osl_fold *f, const osl_cv *in, size_t nin, osl_cv *out) {
  if (nin != 3) return 0;
  int64_t v[3];
  for (size_t i = 0; i < 3; i++) {
    if (!has_data(&in[i]) || !is_int(in[i].dt) || in[i].dt != in[0].dt || in[i].count != 1)
      return 0;
    v[i] = get_i(&in[i], 0);
    if (v[i] > ((int64_t)1 << 50) || v[i] < -((int64_t)1 << 50)) return 0;
  }
  int64_t start = v[0], limit = v[1], delta = v[2], n = 0;
  if (delta == 0) return 0;
  if (delta > 0 && limit > start) n = (limit - start + delta - 1) / delta;
  if (delta < 0 && limit < start) n = (start - limit - delta - 1) / -delta;
  int rc = out_alloc(f, out, in[0].dt, &n, 1);
  if (rc <= 0) return rc < 0 ? fail_code() : 0;
  for (int64_t i = 0; i < n; i++) put_i(out, (uint64_t)i, start + i * delta);
  return 1;
}

/* Cast to the value's own type (the value itself, any fixed-size type),
 * between integer types (bool included: nonzero is true), and from int32,
 * int64 or bool to float or double when every value is exact. Never from
 * a float or a quantized (8-bit or narrower) type to another float type. */
static int cast_to(const osl_fold *f, const osl_cv *x, int64_t to, osl_cv *out) {
  if (has_data(x) && x->dt == to) return same_data(f, x, x->dims, x->rank, out);
  if (has_data(x) && is_float(x->dt) && is_float((int32_t)to)) {
    /* FLOAT <-> DOUBLE: widening is exact, narrowing rounds to nearest
     * even (C's conversion and onnxruntime's static_cast) */
    if (!no_nan(x)) return 0;
    int rc = out_alloc(f, out, (int32_t)to, x->dims, x->rank);
    if (rc <= 0) return rc < 0 ? fail_code() : 0;
    for (uint64_t i = 0; i < x->count; i++)
      put_f(out, i, to == ONNXSLIM_DTYPE_FLOAT ? (double)(float)get_f(x, i) : get_f(x, i));
    return 1;
  }
  if (!has_data(x) || !is_intlike(x->dt)) return 0;
  int tofloat = to == ONNXSLIM_DTYPE_FLOAT || to == ONNXSLIM_DTYPE_DOUBLE;
  if (!is_intlike((int32_t)to) && !tofloat) return 0;
  if (tofloat && !is_int(x->dt) && x->dt != ONNXSLIM_DTYPE_BOOL) return 0;
  int64_t exact = to == ONNXSLIM_DTYPE_FLOAT ? (int64_t)1 << 24 : (int64_t)1 << 53;
  if (tofloat)
    for (uint64_t i = 0; i < x->count; i++) {
      int64_t v = get_i(x, i);
      if (v > exact || v < -exact) return 0;
    }
  int rc = out_alloc(f, out, (int32_t)to, x->dims, x->rank);
  if (rc <= 0) return rc < 0 ? fail_code() : 0;
  for (uint64_t i = 0; i < x->count; i++) {
    int64_t v = get_i(x, i);
    if (to == ONNXSLIM_DTYPE_FLOAT) {
      float y = (float)v;
      memcpy(out->own + 4 * i, &y, 4);
    } else if (to == ONNXSLIM_DTYPE_DOUBLE) {
      double y = (double)v;
      memcpy(out->own + 8 * i, &y, 8);
    } else put_i(out, i, to == ONNXSLIM_DTYPE_BOOL ? v != 0 : v);
  }
  return 1;
}

static int fold_cast(const osl_fold *f, const osl_cv *x, osl_cv *out) {
  return cast_to(f, x, attr_int(f->node, "to", 0), out);
}

/* CastLike: a Cast to the element type of the second input (its dt: the
 * caller gives it without data when the value is not constant). */
static int fold_cast_like(const osl_fold *f, const osl_cv *in, size_t nin, osl_cv *out) {
  return nin == 2 && in[1].dt ? cast_to(f, &in[0], in[1].dt, out) : 0;
}

/* ---- reductions ------------------------------------------------------------------- */

/* Sums of integers fold only when the sum of the magnitudes of each group
 * is at most 2^52: then every partial sum, in any order, is exact in
 * int64 and in double, so onnxruntime's kernels agree whatever they do
 * (older ones add in T and wrap, newer ones add in double and saturate;
 * ReduceMean divides in T, or in double and truncates: the same integer
 * while |sum| < 2^53). */
#define OSL_REDUCE_EXACT ((uint64_t)1 << 52)

enum { RED_MAX, RED_MIN, RED_SUM, RED_MEAN };

static int neg_zero(double v) {
  uint64_t b;
  memcpy(&b, &v, sizeof b);
  return b == (uint64_t)1 << 63;
}

/* ReduceMax, ReduceMin (int32, int64, int8 and uint8 from opset 12, bool
 * from opset 20, float, double: one of the elements, no rounding; not a
 * NaN, nor a zero picked from a group holding both signed zeros) and
 * ReduceSum, ReduceMean (int32, int64, OSL_REDUCE_EXACT). The axes: the
 * attribute before opset 18 (ReduceSum: 13), the optional second input
 * from then, with noop_with_empty_axes; keepdims. A group of no elements
 * (a reduced dim of 0) is left to the runtime. */
static int fold_reduce(const osl_fold *f, int kind, const osl_cv *in, size_t nin, osl_cv *out) {
  const osl_cv *x = &in[0];
  int32_t dt = x->dt;
  if (!has_data(x) || x->count == 0) return 0;
  int fl = is_float(dt), narrow = dt == ONNXSLIM_DTYPE_INT8 || dt == ONNXSLIM_DTYPE_UINT8;
  if (kind == RED_SUM || kind == RED_MEAN) {
    if (!is_int(dt)) return 0;
  } else if (!(fl || is_int(dt) || (narrow && f->opset >= 12) ||
               (dt == ONNXSLIM_DTYPE_BOOL && f->opset >= 20)))
    return 0;
  if (fl && !no_nan(x)) return 0;
  int64_t axes[OSL_FOLD_MAX_RANK];
  size_t na = SIZE_MAX;
  if (f->opset < (kind == RED_SUM ? 13 : 18)) {
    if (onnxslim_node_find_attr(f->node, "axes") &&
        !attr_list(f->node, "axes", axes, OSL_FOLD_MAX_RANK, &na))
      return 0;
  } else {
    if (nin > 1 && in[1].dt && !int_list(&in[1], axes, OSL_FOLD_MAX_RANK, &na)) return 0;
    if ((na == SIZE_MAX || na == 0) && attr_int(f->node, "noop_with_empty_axes", 0))
      return same_data(f, x, x->dims, x->rank, out);
  }
  if (nin > 2) return 0;
  unsigned char red[OSL_FOLD_MAX_RANK] = {0};
  if (na == SIZE_MAX || na == 0) memset(red, 1, sizeof red);
  else
    for (size_t i = 0; i < na; i++) {
      size_t ax;
      if (!norm_axis(axes[i], x->rank, &ax) || red[ax]) return 0;
      red[ax] = 1;
    }
  int keep = attr_int(f->node, "keepdims", 1) != 0;
  int64_t dims[OSL_FOLD_MAX_RANK];
  uint64_t ostride[OSL_FOLD_MAX_RANK], s = 1;
  size_t r = 0;
  for (size_t d = 0; d < x->rank; d++)
    if (!red[d]) dims[r++] = x->dims[d];
    else if (keep) dims[r++] = 1;
  for (size_t d = x->rank; d-- > 0;) {
    ostride[d] = red[d] ? 0 : s;
    if (!red[d]) s *= (uint64_t)x->dims[d];
  }
  int rc = out_alloc(f, out, dt, dims, r);
  if (rc <= 0) return rc < 0 ? fail_code() : 0;
  uint64_t no = out->count, group = x->count / (no ? no : 1);
  /* per output element: the value so far (int64 bits or a double), the
   * magnitudes' sum, and 1 +0 seen, 2 -0 seen, 4 any element seen */
  int64_t *acc = onnxslim__mem_alloc(f->model, (size_t)(no ? no : 1) * sizeof *acc, "folding");
  uint64_t *mag = onnxslim__mem_alloc(f->model, (size_t)(no ? no : 1) * sizeof *mag, "folding");
  uint8_t *seen = onnxslim__mem_calloc(f->model, (size_t)(no ? no : 1), 1, "folding");
  rc = acc && mag && seen ? 1 : fail_code();
  for (uint64_t i = 0; i < x->count && rc == 1; i++) {
    uint64_t o = 0, rest = i;
    for (size_t d = x->rank; d-- > 0;) {
      uint64_t dd = (uint64_t)x->dims[d];
      o += (rest % dd) * ostride[d];
      rest /= dd;
    }
    if (fl) {
      double v, best;
      v = get_f(x, i);
      if (v == 0) seen[o] |= neg_zero(v) ? 2 : 1;
      memcpy(&best, &acc[o], sizeof best);
      if (!(seen[o] & 4) || (kind == RED_MAX ? v > best : v < best)) memcpy(&acc[o], &v, sizeof v);
    } else {
      int64_t v = get_i(x, i);
      if (kind == RED_MAX || kind == RED_MIN) {
        if (!(seen[o] & 4) || (kind == RED_MAX ? v > acc[o] : v < acc[o])) acc[o] = v;
      } else {
        uint64_t m = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
        if (!(seen[o] & 4)) acc[o] = 0, mag[o] = 0;
        if (m > OSL_REDUCE_EXACT || mag[o] + m > OSL_REDUCE_EXACT) rc = 0;
        mag[o] += m;
        acc[o] += v;
      }
    }
    seen[o] |= 4;
  }
  for (uint64_t o = 0; o < no && rc == 1; o++) {
    if (fl) {
      double v;
      memcpy(&v, &acc[o], sizeof v);
      if (v == 0 && (seen[o] & 3) == 3) rc = 0; /* which zero is the runtime's */
      else put_f(out, o, v);
      continue;
    }
    int64_t v = acc[o];
    if (kind == RED_MEAN) v /= (int64_t)group; /* truncating, as onnxruntime */
    if (dt == ONNXSLIM_DTYPE_INT32 && (v < INT32_MIN || v > INT32_MAX)) rc = 0;
    else put_i(out, o, v);
  }
  onnxslim__mem_free(f->model, acc);
  onnxslim__mem_free(f->model, mag);
  onnxslim__mem_free(f->model, seen);
  return rc;
}

/* ---- the table --------------------------------------------------------------------- */

static const struct {
  const char *op;
  int ew; /* EW_* + 1 for the elementwise ones, else 0 */
} ops[] = {
    {"Shape", 0},
    {"Size", 0},
    {"Gather", 0},
    {"Concat", 0},
    {"Slice", 0},
    {"Squeeze", 0},
    {"Unsqueeze", 0},
    {"Reshape", 0},
    {"Flatten", 0},
    {"Cast", 0},
    {"CastLike", 0},
    {"Range", 0},
    {"ConstantOfShape", 0},
    {"Expand", 0},
    {"Where", 0},
    {"Identity", 0},
    {"Transpose", 0},
    {"Neg", 0},
    {"Abs", 0},
    {"Not", 0},
    {"Sqrt", 0},
    {"Reciprocal", 0},
    {"Add", EW_ADD + 1},
    {"Sub", EW_SUB + 1},
    {"Mul", EW_MUL + 1},
    {"Div", EW_DIV + 1},
    {"Mod", EW_MOD + 1},
    {"Min", EW_MIN + 1},
    {"Max", EW_MAX + 1},
    {"Equal", EW_EQ + 1},
    {"Less", EW_LT + 1},
    {"Greater", EW_GT + 1},
    {"LessOrEqual", EW_LE + 1},
    {"GreaterOrEqual", EW_GE + 1},
    {"And", EW_AND + 1},
    {"Or", EW_OR + 1},
    {"Xor", EW_XOR + 1},
    {"ReduceMax", 0},
    {"ReduceMin", 0},
    {"ReduceSum", 0},
    {"ReduceMean", 0},
};

int onnxslim__fold_known(const char *op) {
  for (size_t i = 0; op && i < sizeof ops / sizeof ops[0]; i++)
    if (strcmp(ops[i].op, op) == 0) return 1;
  return 0;
}

static int compute(const osl_fold *f, const char *op, const osl_cv *in, size_t nin, osl_cv *out) {
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
    if (!ops[i].ew || strcmp(ops[i].op, op) != 0) continue;
    int ew = ops[i].ew - 1;
    /* before opset 7 the arithmetic broadcast by attribute: left alone */
    if (f->opset < 7 || ((ew == EW_MIN || ew == EW_MAX) && f->opset < 8)) return 0;
    if (ew == EW_MOD && attr_int(f->node, "fmod", 0)) ew = EW_FMOD;
    return fold_elementwise(f, ew, in, nin, out);
  }
  if (nin < 1) return 0;
  const osl_cv *x = &in[0];
  if (!strcmp(op, "Shape")) return nin == 1 ? fold_shape(f, x, out) : 0;
  if (!strcmp(op, "Size")) return nin == 1 ? fold_size(f, x, out) : 0;
  if (!strcmp(op, "Identity")) return nin == 1 ? same_data(f, x, x->dims, x->rank, out) : 0;
  if (!strcmp(op, "Gather")) return fold_gather(f, in, nin, out);
  if (!strcmp(op, "Concat")) return fold_concat(f, in, nin, out);
  if (!strcmp(op, "Slice")) return fold_slice(f, in, nin, out);
  if (!strcmp(op, "Squeeze")) return fold_squeeze(f, in, nin, out);
  if (!strcmp(op, "Unsqueeze")) return fold_unsqueeze(f, in, nin, out);
  if (!strcmp(op, "Reshape")) return fold_reshape(f, in, nin, out);
  if (!strcmp(op, "Flatten")) return nin == 1 ? fold_flatten(f, x, out) : 0;
  if (!strcmp(op, "Cast")) return nin == 1 ? fold_cast(f, x, out) : 0;
  if (!strcmp(op, "CastLike")) return fold_cast_like(f, in, nin, out);
  if (!strcmp(op, "Range")) return fold_range(f, in, nin, out);
  if (!strcmp(op, "ConstantOfShape")) return fold_constant_of_shape(f, in, nin, out);
  if (!strcmp(op, "Expand")) return fold_expand(f, in, nin, out);
  if (!strcmp(op, "Where")) return fold_where(f, in, nin, out);
  if (!strcmp(op, "Transpose")) return nin == 1 ? fold_transpose(f, x, out) : 0;
  if (!strcmp(op, "ReduceMax")) return fold_reduce(f, RED_MAX, in, nin, out);
  if (!strcmp(op, "ReduceMin")) return fold_reduce(f, RED_MIN, in, nin, out);
  if (!strcmp(op, "ReduceSum")) return fold_reduce(f, RED_SUM, in, nin, out);
  if (!strcmp(op, "ReduceMean")) return fold_reduce(f, RED_MEAN, in, nin, out);
  if (!strcmp(op, "Neg") || !strcmp(op, "Abs") || !strcmp(op, "Not") || !strcmp(op, "Sqrt") ||
      !strcmp(op, "Reciprocal"))
    return nin == 1 ? fold_unary(f, op, x, out) : 0;
  return 0;
}

int onnxslim__fold_compute(const osl_fold *f, const char *op, const osl_cv *in, size_t nin,
                           osl_cv *out) {
  memset(out, 0, sizeof *out);
  int rc = compute(f, op, in, nin, out);
  if (rc <= 0 && out->own) {
    onnxslim__mem_free(f->model, out->own);
    memset(out, 0, sizeof *out);
  }
  return rc;
}
