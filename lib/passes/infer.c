/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - type and shape inference (infer.h).
 *
 * One walk over the main graph's nodes in order. Every value gets an
 * `ival`: element type (0 unknown), rank (-1 unknown) and dims, each a
 * fixed value, a symbol (dim_param) or unknown; small int64/int32 tensors
 * of rank 0 or 1 also carry their elements as dims ("data"), so a shape
 * computed by Shape/Gather/Concat reaches Reshape. Types come from the
 * schema tables' constraints (generic); shapes from the rules below, one
 * function per family of operators. Everything is held in one arena and
 * written only at the end, after a strict check has found no conflict.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opschema/opschema.h"
#include "passes/passes.h"
#include "passes/infer_int.h"

/* Ranks above this are left unknown; data is followed up to DATA_MAX elements. */
#define RANK_MAX 64
#define DATA_MAX 64

/* A write decided during the walk, done at the end. */
typedef struct pending {
  const char *name;
  onnxslim_value_info *vi; /* NULL: add a value_info entry */
  ival v;
} pending;

typedef struct ictx {
  osl_arena arena;
  osl_map vals; /* name -> ival* */
  onnxslim_graph *g;
  unsigned flags;
  int64_t opset; /* of the default domain, 0 when not imported */
  const onnxslim_model *model;
  onnxslim_infer_report *rep;
  pending *pend;
  size_t npend, cappend;
  int oom;
} ictx;

static const ival UNKNOWN = {0, -1, NULL, -1, NULL};

/* ---- small helpers ---------------------------------------------------------- */

static ival *new_val(ictx *c, int32_t dtype, int rank) {
  ival *v = onnxslim__arena_alloc(&c->arena, sizeof *v);
  if (!v) {
    c->oom = 1;
    return NULL;
  }
  v->dtype = dtype;
  v->rank = rank;
  v->nd = -1;
  v->data = NULL;
  v->d = NULL;
  if (rank > 0) {
    v->d = onnxslim__arena_alloc(&c->arena, (size_t)rank * sizeof *v->d);
    if (!v->d) {
      c->oom = 1;
      return NULL;
    }
    for (int i = 0; i < rank; i++) v->d[i] = (idim){0, NULL, DK_UNKNOWN};
  }
  return v;
}

static idim *new_dims(ictx *c, int n) {
  idim *d = onnxslim__arena_alloc(&c->arena, (size_t)(n > 0 ? n : 1) * sizeof *d);
  if (!d) c->oom = 1;
  for (int i = 0; d && i < n; i++) d[i] = (idim){0, NULL, DK_UNKNOWN};
  return d;
}

static const ival *get(const ictx *c, const char *name) {
  if (!name || !name[0]) return &UNKNOWN;
  const ival *v = onnxslim__map_get(&c->vals, name);
  return v ? v : &UNKNOWN;
}

static int put(ictx *c, const char *name, ival *v) {
  osl_map_entry *e = NULL;
  int rc = onnxslim__map_add(&c->arena, &c->vals, name, &e);
  if (rc < 0) {
    c->oom = 1;
    return rc;
  }
  e->value = v;
  return 0;
}

static int64_t attr_int(const onnxslim_node *n, const char *name, int64_t dflt) {
  onnxslim_attr *a = onnxslim_node_find_attr(n, name);
  int64_t v;
  if (a && onnxslim_attr_type(a) == ONNXSLIM_ATTR_INT && onnxslim_attr_int(a, &v) == 0) return v;
  return dflt;
}

/* The INTS attribute `name`: 1 and *vals, *n, or 0 when absent. */
static int attr_ints(const onnxslim_node *n, const char *name, const int64_t **vals, size_t *cnt) {
  onnxslim_attr *a = onnxslim_node_find_attr(n, name);
  if (!a || onnxslim_attr_type(a) != ONNXSLIM_ATTR_INTS) return 0;
  return onnxslim_attr_ints(a, vals, cnt) == 0;
}

/* The values of input `i` as int64s when its data is fully known: count, or -1. */
static int const_ints(const ictx *c, const onnxslim_node *n, size_t i, int64_t *out, int cap) {
  if (i >= onnxslim_node_input_count(n)) return -1;
  const ival *v = get(c, onnxslim_node_input(n, i));
  if (v->nd < 0 || v->nd > cap) return -1;
  for (int k = 0; k < v->nd; k++) {
    if (v->data[k].k != DK_VALUE) return -1;
    out[k] = v->data[k].v;
  }
  return v->nd;
}

/* Axes of a node: from input `in` (when the node has it, opset >= since) or
 * from attribute "axes". Returns the count, -1 when absent, -2 when given
 * but not known. */
static int node_axes(const ictx *c, const onnxslim_node *n, size_t in, int64_t since,
                     int64_t *axes) {
  if (c->opset >= since) {
    if (in >= onnxslim_node_input_count(n) || !onnxslim_node_input(n, in)[0]) return -1;
    int k = const_ints(c, n, in, axes, RANK_MAX);
    return k < 0 ? -2 : k;
  }
  const int64_t *a;
  size_t cnt;
  if (!attr_ints(n, "axes", &a, &cnt)) return -1;
  if (cnt > RANK_MAX) return -2;
  memcpy(axes, a, cnt * sizeof *a);
  return (int)cnt;
}

static int norm_axis(int64_t a, int rank, int64_t *out) {
  if (a < -(int64_t)rank || a >= rank) return 0;
  *out = a < 0 ? a + rank : a;
  return 1;
}

static int dim_eq(const idim *a, const idim *b) {
  if (a->k != b->k) return 0;
  if (a->k == DK_VALUE) return a->v == b->v;
  if (a->k == DK_PARAM) return strcmp(a->p, b->p) == 0;
  return 0;
}

/* Two dims known to be the same size: the more informative. */
static idim dim_merge(idim a, idim b) {
  if (a.k == DK_VALUE) return a;
  if (b.k == DK_VALUE) return b;
  if (a.k == DK_PARAM) return a;
  return b;
}

/* ---- shape rules ----------------------------------------------------------------- */

/* Numpy broadcasting of n shapes into out (out->rank set). */
static void bcast(ictx *c, const ival *const *in, size_t n, ival *out) {
  int r = 0;
  for (size_t i = 0; i < n; i++) {
    if (in[i]->rank < 0) return;
    if (in[i]->rank > r) r = in[i]->rank;
  }
  idim *d = new_dims(c, r);
  if (!d) return;
  for (int j = 0; j < r; j++) {
    int64_t big = -1;
    const char *sym = NULL;
    int nsym = 0, unk = 0, bad = 0;
    for (size_t i = 0; i < n; i++) {
      int off = r - in[i]->rank;
      if (j < off) continue;
      const idim *x = &in[i]->d[j - off];
      if (x->k == DK_VALUE) {
        if (x->v == 1) continue;
        if (big >= 0 && big != x->v) bad = 1;
        big = x->v;
      } else if (x->k == DK_PARAM) {
        if (sym && strcmp(sym, x->p) != 0) nsym = 2;
        else if (!sym) nsym = 1;
        sym = x->p;
      } else {
        unk = 1;
      }
    }
    if (bad) return; /* incompatible: leave the shape unknown */
    if (big >= 0) d[j] = (idim){big, NULL, DK_VALUE};
    else if (!unk && nsym == 0) d[j] = (idim){1, NULL, DK_VALUE};
    else if (!unk && nsym == 1) d[j] = (idim){0, sym, DK_PARAM};
  }
  out->rank = r;
  out->d = d;
}

static void copy_shape(const ival *in, ival *out) {
  out->rank = in->rank;
  out->d = in->d;
}

static void set_shape(ictx *c, ival *out, int rank) {
  out->rank = rank;
  out->d = new_dims(c, rank);
  if (!out->d) out->rank = -1;
}

static void matmul(ictx *c, const ival *a, const ival *b, ival *out) {
  if (a->rank < 1 || b->rank < 1) return;
  /* batch dims: broadcast of a[:-2] and b[:-2] */
  ival ba = {0, a->rank >= 2 ? a->rank - 2 : 0, a->d, -1, NULL};
  ival bb = {0, b->rank >= 2 ? b->rank - 2 : 0, b->d, -1, NULL};
  const ival *both[2] = {&ba, &bb};
  ival batch = UNKNOWN;
  bcast(c, both, 2, &batch);
  if (batch.rank < 0) return;
  int r = batch.rank + (a->rank >= 2) + (b->rank >= 2);
  set_shape(c, out, r);
  if (out->rank < 0) return;
  for (int i = 0; i < batch.rank; i++) out->d[i] = batch.d[i];
  int j = batch.rank;
  if (a->rank >= 2) out->d[j++] = a->d[a->rank - 2];
  if (b->rank >= 2) out->d[j++] = b->d[b->rank - 1];
}

/* The length of a 1-D shape tensor whose values are unknown, or -1. */
static int shape_len(const ival *s) {
  if (s->rank != 1 || s->d[0].k != DK_VALUE || s->d[0].v < 0 || s->d[0].v > RANK_MAX) return -1;
  return (int)s->d[0].v;
}

static void reshape(ictx *c, const onnxslim_node *n, const ival *x, ival *out) {
  const ival *s = get(c, onnxslim_node_input(n, 1));
  if (s->nd < 0) {
    int r = shape_len(s); /* the rank only */
    if (r >= 0) set_shape(c, out, r);
    return;
  }
  int allowzero = (int)attr_int(n, "allowzero", 0);
  set_shape(c, out, s->nd);
  if (out->rank < 0) return;
  int minus = -1;
  for (int i = 0; i < s->nd; i++) {
    idim e = s->data[i];
    if (e.k == DK_VALUE && e.v == 0 && !allowzero) {
      if (x->rank > i) out->d[i] = x->d[i];
      else if (x->rank >= 0) return (void)(out->rank = -1);
    } else if (e.k == DK_VALUE && e.v == -1) {
      minus = i;
    } else if (e.k == DK_VALUE && e.v < 0) {
      out->rank = -1;
      return;
    } else {
      out->d[i] = e;
    }
  }
  if (minus >= 0 && x->rank >= 0) {
    /* -1: the input's element count over the others', when all are values */
    int64_t total = 1, rest = 1;
    for (int i = 0; i < x->rank; i++) {
      if (x->d[i].k != DK_VALUE) return;
      total *= x->d[i].v;
    }
    for (int i = 0; i < out->rank; i++) {
      if (i == minus) continue;
      if (out->d[i].k != DK_VALUE) return;
      rest *= out->d[i].v;
    }
    if (rest > 0 && total % rest == 0) out->d[minus] = (idim){total / rest, NULL, DK_VALUE};
  }
}

static void transpose(ictx *c, const onnxslim_node *n, const ival *x, ival *out) {
  if (x->rank < 0) return;
  const int64_t *perm;
  size_t cnt;
  int has = attr_ints(n, "perm", &perm, &cnt);
  if (has && cnt != (size_t)x->rank) return;
  set_shape(c, out, x->rank);
  for (int i = 0; out->rank >= 0 && i < x->rank; i++) {
    int64_t p = has ? perm[i] : x->rank - 1 - i;
    if (p < 0 || p >= x->rank) {
      out->rank = -1;
      return;
    }
    out->d[i] = x->d[p];
  }
}

static void concat(ictx *c, const onnxslim_node *n, ival *out) {
  size_t nin = onnxslim_node_input_count(n);
  if (!nin) return;
  const ival *first = get(c, onnxslim_node_input(n, 0));
  int r = first->rank;
  for (size_t i = 0; i < nin; i++)
    if (get(c, onnxslim_node_input(n, i))->rank != r) return;
  int64_t axis;
  if (r < 1 || !norm_axis(attr_int(n, "axis", 0), r, &axis)) return;
  set_shape(c, out, r);
  if (out->rank < 0) return;
  int64_t sum = 0;
  int sum_ok = 1;
  for (int j = 0; j < r; j++) {
    idim m = first->d[j];
    for (size_t i = 0; i < nin; i++) {
      const idim *x = &get(c, onnxslim_node_input(n, i))->d[j];
      if (j == axis) {
        if (x->k == DK_VALUE) sum += x->v;
        else sum_ok = 0;
      } else if (i > 0) {
        if (m.k == DK_VALUE || x->k == DK_VALUE) m = dim_merge(m, *x);
        else if (!dim_eq(&m, x)) m = (idim){0, NULL, DK_UNKNOWN};
      }
    }
    out->d[j] =
        j == axis ? (sum_ok ? (idim){sum, NULL, DK_VALUE} : (idim){0, NULL, DK_UNKNOWN}) : m;
  }
  /* data: the elements of 1-D inputs one after the other */
  if (r == 1 && axis == 0) {
    int total = 0;
    for (size_t i = 0; i < nin; i++) {
      const ival *x = get(c, onnxslim_node_input(n, i));
      if (x->nd < 0) return;
      total += x->nd;
    }
    if (total > DATA_MAX) return;
    idim *d = new_dims(c, total);
    if (!d) return;
    int k = 0;
    for (size_t i = 0; i < nin; i++) {
      const ival *x = get(c, onnxslim_node_input(n, i));
      for (int e = 0; e < x->nd; e++) d[k++] = x->data[e];
    }
    out->data = d;
    out->nd = total;
  }
}

/* The size of one sliced axis of extent d, or -1. */
static int64_t slice_len(int64_t d, int64_t start, int64_t end, int64_t step) {
  if (step == 0) return -1;
  if (start < 0) start += d;
  if (end < 0) end += d;
  if (step > 0) {
    start = start < 0 ? 0 : start > d ? d : start;
    end = end < 0 ? 0 : end > d ? d : end;
    return end > start ? (end - start + step - 1) / step : 0;
  }
  start = start < 0 ? 0 : start > d - 1 ? d - 1 : start;
  end = end < -1 ? -1 : end > d - 1 ? d - 1 : end;
  return start > end ? (start - end + (-step) - 1) / (-step) : 0;
}

static int64_t clamp_start(int64_t d, int64_t start, int64_t step) {
  if (start < 0) start += d;
  if (step > 0) return start < 0 ? 0 : start > d ? d : start;
  return start < 0 ? 0 : start > d - 1 ? d - 1 : start;
}

static void slice(ictx *c, const onnxslim_node *n, const ival *x, ival *out) {
  if (x->rank < 0) return;
  int64_t starts[RANK_MAX], ends[RANK_MAX], axes[RANK_MAX], steps[RANK_MAX];
  int ns, ne, na = -1, nt = -1;
  if (c->opset >= 10) {
    ns = const_ints(c, n, 1, starts, RANK_MAX);
    ne = const_ints(c, n, 2, ends, RANK_MAX);
    if (onnxslim_node_input_count(n) > 3 && onnxslim_node_input(n, 3)[0]) {
      na = const_ints(c, n, 3, axes, RANK_MAX);
      if (na < 0) return;
    }
    if (onnxslim_node_input_count(n) > 4 && onnxslim_node_input(n, 4)[0]) {
      nt = const_ints(c, n, 4, steps, RANK_MAX);
      if (nt < 0) return;
    }
  } else {
    const int64_t *a;
    size_t cnt;
    ns = attr_ints(n, "starts", &a, &cnt) && cnt <= RANK_MAX ? (int)cnt : -1;
    if (ns >= 0) memcpy(starts, a, cnt * sizeof *a);
    ne = attr_ints(n, "ends", &a, &cnt) && cnt <= RANK_MAX ? (int)cnt : -1;
    if (ne >= 0) memcpy(ends, a, cnt * sizeof *a);
    if (attr_ints(n, "axes", &a, &cnt)) {
      if (cnt > RANK_MAX) return;
      na = (int)cnt;
      memcpy(axes, a, cnt * sizeof *a);
    }
  }
  if (ns < 0 || ne != ns || (na >= 0 && na != ns) || (nt >= 0 && nt != ns)) return;
  for (int i = 0; i < ns; i++) {
    if (na < 0) axes[i] = i;
    if (nt < 0) steps[i] = 1;
    if (!norm_axis(axes[i], x->rank, &axes[i]) || steps[i] == 0) return;
  }
  set_shape(c, out, x->rank);
  if (out->rank < 0) return;
  for (int j = 0; j < x->rank; j++) out->d[j] = x->d[j];
  for (int i = 0; i < ns; i++) {
    const idim *d = &x->d[axes[i]];
    int64_t len = d->k == DK_VALUE ? slice_len(d->v, starts[i], ends[i], steps[i]) : -1;
    out->d[axes[i]] = len >= 0 ? (idim){len, NULL, DK_VALUE} : (idim){0, NULL, DK_UNKNOWN};
  }
  /* data of a 1-D input */
  if (x->rank == 1 && x->nd >= 0 && ns == 1) {
    int64_t len = slice_len(x->nd, starts[0], ends[0], steps[0]);
    if (len < 0) return;
    idim *d = new_dims(c, (int)len);
    if (!d) return;
    int64_t p = clamp_start(x->nd, starts[0], steps[0]);
    for (int64_t k = 0; k < len; k++, p += steps[0]) d[k] = x->data[p];
    out->data = d;
    out->nd = (int)len;
  }
}

static void gather(ictx *c, const onnxslim_node *n, const ival *x, const ival *idx, ival *out) {
  int64_t axis;
  if (x->rank < 1 || idx->rank < 0 || !norm_axis(attr_int(n, "axis", 0), x->rank, &axis)) return;
  int r = x->rank - 1 + idx->rank;
  if (r > RANK_MAX) return;
  set_shape(c, out, r);
  if (out->rank < 0) return;
  int k = 0;
  for (int j = 0; j < axis; j++) out->d[k++] = x->d[j];
  for (int j = 0; j < idx->rank; j++) out->d[k++] = idx->d[j];
  for (int j = (int)axis + 1; j < x->rank; j++) out->d[k++] = x->d[j];
  if (x->rank == 1 && x->nd >= 0 && idx->nd >= 0 && idx->rank <= 1) {
    idim *d = new_dims(c, idx->nd);
    if (!d) return;
    for (int e = 0; e < idx->nd; e++) {
      if (idx->data[e].k != DK_VALUE) return;
      int64_t i = idx->data[e].v;
      if (i < 0) i += x->nd;
      if (i < 0 || i >= x->nd) return;
      d[e] = x->data[i];
    }
    out->data = d;
    out->nd = idx->nd;
  }
}

static void unsqueeze(ictx *c, const onnxslim_node *n, const ival *x, ival *out) {
  int64_t axes[RANK_MAX];
  int na = node_axes(c, n, 1, 13, axes);
  if (x->rank < 0 || na < 0) return;
  int r = x->rank + na;
  if (r > RANK_MAX) return;
  char is1[RANK_MAX] = {0};
  for (int i = 0; i < na; i++) {
    int64_t a;
    if (!norm_axis(axes[i], r, &a) || is1[a]) return;
    is1[a] = 1;
  }
  set_shape(c, out, r);
  if (out->rank < 0) return;
  for (int j = 0, k = 0; j < r; j++) out->d[j] = is1[j] ? (idim){1, NULL, DK_VALUE} : x->d[k++];
  if (x->rank == 0 && x->nd == 1 && r == 1) {
    out->data = x->data;
    out->nd = 1;
  }
}

static void squeeze(ictx *c, const onnxslim_node *n, const ival *x, ival *out) {
  int64_t axes[RANK_MAX];
  int na = node_axes(c, n, 1, 13, axes);
  if (x->rank < 0 || na == -2) return;
  char drop[RANK_MAX] = {0};
  int r = x->rank;
  if (na < 0) {
    for (int j = 0; j < x->rank; j++) {
      if (x->d[j].k != DK_VALUE) return; /* which dims are 1 is unknown */
      if (x->d[j].v == 1) drop[j] = 1, r--;
    }
  } else {
    for (int i = 0; i < na; i++) {
      int64_t a;
      if (!norm_axis(axes[i], x->rank, &a) || drop[a]) return;
      if (x->d[a].k == DK_VALUE && x->d[a].v != 1) return;
      drop[a] = 1;
      r--;
    }
  }
  set_shape(c, out, r);
  if (out->rank < 0) return;
  for (int j = 0, k = 0; j < x->rank; j++)
    if (!drop[j]) out->d[k++] = x->d[j];
  if (x->rank == 1 && r == 0 && x->nd == 1) {
    out->data = x->data;
    out->nd = 1;
  }
}

static void shape_op(ictx *c, const onnxslim_node *n, const ival *x, ival *out) {
  if (x->rank < 0) return;
  int64_t s = 0, e = x->rank;
  if (c->opset >= 15) {
    s = attr_int(n, "start", 0);
    e = attr_int(n, "end", x->rank);
  }
  if (s < 0) s += x->rank;
  if (e < 0) e += x->rank;
  s = s < 0 ? 0 : s > x->rank ? x->rank : s;
  e = e < 0 ? 0 : e > x->rank ? x->rank : e;
  int len = e > s ? (int)(e - s) : 0;
  set_shape(c, out, 1);
  if (out->rank < 0) return;
  out->d[0] = (idim){len, NULL, DK_VALUE};
  if (len <= DATA_MAX && x->d) {
    out->data = x->d + s;
    out->nd = len;
  }
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

static void flatten(ictx *c, const onnxslim_node *n, const ival *x, ival *out) {
  int64_t axis = attr_int(n, "axis", 1);
  if (x->rank < 0) return;
  if (axis < 0) axis += x->rank;
  if (axis < 0 || axis > x->rank) return;
  set_shape(c, out, 2);
  if (out->rank < 0) return;
  for (int side = 0; side < 2; side++) {
    int64_t p = 1;
    int ok = 1;
    for (int j = side ? (int)axis : 0; j < (side ? x->rank : axis); j++) {
      if (x->d[j].k != DK_VALUE) ok = 0;
      else p *= x->d[j].v;
    }
    if (ok) out->d[side] = (idim){p, NULL, DK_VALUE};
  }
}

static void expand(ictx *c, const onnxslim_node *n, const ival *x, ival *out) {
  const ival *s = get(c, onnxslim_node_input(n, 1));
  if (s->nd < 0) {
    /* the rank, and the input's sizes above 1 (the shape must be 1 or the same there) */
    int r = shape_len(s);
    if (r < 0 || x->rank < 0) return;
    if (x->rank > r) r = x->rank;
    set_shape(c, out, r);
    for (int j = 0; out->rank >= 0 && j < x->rank; j++) {
      const idim *d = &x->d[j];
      if (d->k == DK_VALUE && d->v > 1) out->d[r - x->rank + j] = *d;
    }
    return;
  }
  for (int i = 0; i < s->nd; i++)
    if (s->data[i].k == DK_VALUE && s->data[i].v < 0) return;
  ival sh = {0, s->nd, s->data, -1, NULL};
  const ival *both[2] = {x, &sh};
  bcast(c, both, 2, out);
}

/* Conv and the pools: [N, C or M, spatial...], each spatial size computed
 * from a fixed input size, the kernel, strides, dilations and pads (or
 * auto_pad); MaxPool/AveragePool with ceil_mode give unknown spatial dims. */
static void conv_pool(ictx *c, const onnxslim_node *n, const char *op, const ival *x, ival *out,
                      size_t nout, ival *outs) {
  int conv = strcmp(op, "Conv") == 0;
  int global = strncmp(op, "Global", 6) == 0;
  if (x->rank < 3) return;
  int sp = x->rank - 2;
  const ival *w =
      conv ? get(c, onnxslim_node_input_count(n) > 1 ? onnxslim_node_input(n, 1) : NULL) : NULL;
  if (conv && w->rank >= 0 && w->rank != x->rank) return;
  set_shape(c, out, x->rank);
  if (out->rank < 0) return;
  out->d[0] = x->d[0];
  out->d[1] = conv ? (w->rank >= 0 ? w->d[0] : (idim){0, NULL, DK_UNKNOWN}) : x->d[1];
  if (global) {
    for (int j = 0; j < sp; j++) out->d[2 + j] = (idim){1, NULL, DK_VALUE};
    return;
  }
  if (strcmp(op, "MaxPool") == 0 && nout > 1) copy_shape(out, &outs[1]);
  if (!conv && attr_int(n, "ceil_mode", 0)) return;
  const int64_t *ks = NULL, *st = NULL, *dl = NULL, *pd = NULL;
  size_t nks = 0, nst = 0, ndl = 0, npd = 0;
  int hk = attr_ints(n, "kernel_shape", &ks, &nks);
  if (hk && nks != (size_t)sp) return;
  if (attr_ints(n, "strides", &st, &nst) && nst != (size_t)sp) return;
  if (attr_ints(n, "dilations", &dl, &ndl) && ndl != (size_t)sp) return;
  if (attr_ints(n, "pads", &pd, &npd) && npd != 2 * (size_t)sp) return;
  const char *ap = "NOTSET";
  size_t apn = 6;
  onnxslim_attr *a = onnxslim_node_find_attr(n, "auto_pad");
  if (a && onnxslim_attr_string(a, &ap, &apn) != 0) return;
  for (int j = 0; j < sp; j++) {
    const idim *d = &x->d[2 + j];
    int64_t k;
    if (hk) k = ks[j];
    else if (conv && w->rank >= 0 && w->d[2 + j].k == DK_VALUE) k = w->d[2 + j].v;
    else continue;
    int64_t s = st ? st[j] : 1, dil = dl ? dl[j] : 1;
    if (d->k != DK_VALUE || k < 1 || s < 1 || dil < 1) continue;
    int64_t ext = (k - 1) * dil + 1, o;
    if (apn == 10 && (memcmp(ap, "SAME_UPPER", 10) == 0 || memcmp(ap, "SAME_LOWER", 10) == 0)) {
      o = (d->v + s - 1) / s;
    } else if (apn == 5 && memcmp(ap, "VALID", 5) == 0) {
      if (d->v < ext) continue;
      o = (d->v - ext) / s + 1;
    } else if (apn == 6 && memcmp(ap, "NOTSET", 6) == 0) {
      int64_t span = d->v + (pd ? pd[j] + pd[sp + j] : 0) - ext;
      if (span < 0) continue;
      o = span / s + 1;
    } else {
      continue;
    }
    out->d[2 + j] = (idim){o, NULL, DK_VALUE};
  }
  if (strcmp(op, "MaxPool") == 0 && nout > 1) copy_shape(out, &outs[1]);
}

/* Range: a 1-D output, its length known from values, or a symbol for
 * Range(0, n, 1) where n is a symbolic dimension. */
static void range(ictx *c, const onnxslim_node *n, ival *out) {
  const ival *in[3];
  for (size_t i = 0; i < 3; i++) {
    in[i] = get(c, i < onnxslim_node_input_count(n) ? onnxslim_node_input(n, i) : NULL);
    if (in[i]->nd != 1) {
      set_shape(c, out, 1);
      return;
    }
  }
  set_shape(c, out, 1);
  if (out->rank < 0) return;
  const idim *s = &in[0]->data[0], *l = &in[1]->data[0], *d = &in[2]->data[0];
  if (s->k == DK_VALUE && l->k == DK_VALUE && d->k == DK_VALUE && d->v != 0) {
    int64_t span = l->v - s->v, len;
    len = d->v > 0 ? (span > 0 ? (span + d->v - 1) / d->v : 0)
                   : (span < 0 ? (-span + (-d->v) - 1) / (-d->v) : 0);
    out->d[0] = (idim){len, NULL, DK_VALUE};
  } else if (s->k == DK_VALUE && s->v == 0 && d->k == DK_VALUE && d->v == 1 && l->k == DK_PARAM) {
    out->d[0] = *l;
  }
}

/* Constant tensors: dtype, dims and (small integers) data. */
static void from_tensor(ictx *c, const onnxslim_tensor *t, ival *out) {
  size_t r = onnxslim_tensor_rank(t);
  if (r > RANK_MAX) return;
  out->dtype = onnxslim_tensor_dtype(t);
  set_shape(c, out, (int)r);
  for (size_t j = 0; out->rank >= 0 && j < r; j++)
    out->d[j] = (idim){onnxslim_tensor_dim(t, j), NULL, DK_VALUE};
  int32_t dt = out->dtype;
  int64_t cnt = onnxslim_tensor_element_count(t);
  if (r > 1 || cnt < 0 || cnt > DATA_MAX ||
      (dt != ONNXSLIM_DTYPE_INT64 && dt != ONNXSLIM_DTYPE_INT32))
    return;
  size_t es = dt == ONNXSLIM_DTYPE_INT64 ? 8 : 4;
  unsigned char buf[DATA_MAX * 8];
  if (cnt && onnxslim_tensor_read(t, 0, buf, (size_t)cnt * es) != 0) return;
  idim *d = new_dims(c, (int)cnt);
  if (!d) return;
  for (int64_t i = 0; i < cnt; i++) {
    int64_t v = 0;
    if (es == 8) {
      uint64_t u = 0;
      for (int b = 7; b >= 0; b--) u = (u << 8) | buf[i * 8 + b];
      v = (int64_t)u;
    } else {
      uint32_t u = 0;
      for (int b = 3; b >= 0; b--) u = (u << 8) | buf[i * 4 + b];
      v = (int32_t)u;
    }
    d[i] = (idim){v, NULL, DK_VALUE};
  }
  out->data = d;
  out->nd = (int)cnt;
}

static void constant(ictx *c, const onnxslim_node *n, ival *out) {
  onnxslim_attr *a = onnxslim_node_find_attr(n, "value");
  if (a && onnxslim_attr_type(a) == ONNXSLIM_ATTR_TENSOR) {
    onnxslim_tensor *t = onnxslim_attr_tensor(a);
    if (t) from_tensor(c, t, out);
    return;
  }
  const int64_t *iv;
  size_t cnt;
  if ((a = onnxslim_node_find_attr(n, "value_int")) != NULL) {
    int64_t v;
    if (onnxslim_attr_int(a, &v)) return;
    out->dtype = ONNXSLIM_DTYPE_INT64;
    set_shape(c, out, 0);
    idim *d = new_dims(c, 1);
    if (!d) return;
    d[0] = (idim){v, NULL, DK_VALUE};
    out->data = d;
    out->nd = 1;
  } else if (attr_ints(n, "value_ints", &iv, &cnt)) {
    out->dtype = ONNXSLIM_DTYPE_INT64;
    set_shape(c, out, 1);
    if (out->rank < 0) return;
    out->d[0] = (idim){(int64_t)cnt, NULL, DK_VALUE};
    if (cnt > DATA_MAX) return;
    idim *d = new_dims(c, (int)cnt);
    if (!d) return;
    for (size_t i = 0; i < cnt; i++) d[i] = (idim){iv[i], NULL, DK_VALUE};
    out->data = d;
    out->nd = (int)cnt;
  } else if (onnxslim_node_find_attr(n, "value_float")) {
    out->dtype = ONNXSLIM_DTYPE_FLOAT;
    set_shape(c, out, 0);
  } else if ((a = onnxslim_node_find_attr(n, "value_floats")) != NULL) {
    out->dtype = ONNXSLIM_DTYPE_FLOAT;
    set_shape(c, out, 1);
    if (out->rank >= 0) out->d[0] = (idim){(int64_t)onnxslim_attr_list_count(a), NULL, DK_VALUE};
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

static int in_list(const char *const *l, const char *op) {
  for (; *l; l++)
    if (strcmp(*l, op) == 0) return 1;
  return 0;
}

/* ---- element types from the schema ---------------------------------------- */

static const osl_op_formal *formal_at(const osl_op_formal *f, size_t nf, size_t i) {
  if (i < nf) return &f[i];
  if (nf && f[nf - 1].option == OSL_OP_VARIADIC) return &f[nf - 1];
  return NULL;
}

static void infer_types(ictx *c, const onnxslim_node *n, const osl_op_schema *sc, ival *outs,
                        size_t nout) {
  const osl_op_formal *fin = osl_op_inputs(sc), *fout = osl_op_outputs(sc);
  const osl_op_constraint *tc = osl_op_constraints(sc);
  size_t nin = onnxslim_node_input_count(n);
  for (size_t k = 0; k < nout; k++) {
    const osl_op_formal *f = formal_at(fout, sc->n_out, k);
    if (!f) continue;
    if (f->constraint == OSL_OP_NONE) {
      outs[k].dtype = f->type < onnxslim__ops_n_types ? onnxslim__ops_type_dtype[f->type] : 0;
      continue;
    }
    if (f->constraint >= sc->n_tc) continue;
    /* a heterogeneous variadic (Scan's, Loop's values) binds nothing */
    int hetero = f->option == OSL_OP_VARIADIC && !f->homogeneous;
    for (size_t i = 0; i < nin && !outs[k].dtype && !hetero; i++) {
      const osl_op_formal *fi = formal_at(fin, sc->n_in, i);
      if (fi && fi->constraint == f->constraint &&
          !(fi->option == OSL_OP_VARIADIC && !fi->homogeneous))
        outs[k].dtype = get(c, onnxslim_node_input(n, i))->dtype;
    }
    const osl_op_constraint *t = &tc[f->constraint];
    if (!outs[k].dtype && t->count == 1) {
      unsigned char ti = onnxslim__ops_typelist[t->first];
      outs[k].dtype = ti < onnxslim__ops_n_types ? onnxslim__ops_type_dtype[ti] : 0;
    }
  }
}

/* ---- one node --------------------------------------------------------------------- */

static void infer_node(ictx *c, const onnxslim_node *n, const osl_op_schema *sc, ival *outs,
                       size_t nout) {
  const char *op = onnxslim_node_op_type(n), *dom = onnxslim_node_domain(n);
  if (sc) infer_types(c, n, sc, outs, nout);
  if (!op || !dom || !(dom[0] == 0 || strcmp(dom, "ai.onnx") == 0) || !nout || !sc) return;
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
    if (strcmp(op, "LayerNormalization") == 0 && nout > 1 && x->rank >= 0) {
      /* Mean and InvStdDev: the dims from axis on are 1 */
      int64_t axis;
      if (!norm_axis(attr_int(n, "axis", -1), x->rank, &axis)) return;
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
    if (nin > 16 || !nin) return;
    for (size_t i = 0; i < nin; i++) ins[i] = get(c, onnxslim_node_input(n, i));
    bcast(c, ins, nin, o);
  } else if (strcmp(op, "PRelu") == 0 && nin == 2) {
    const ival *ins[2] = {x, get(c, onnxslim_node_input(n, 1))};
    bcast(c, ins, 2, o);
  } else if (strcmp(op, "MatMul") == 0 && nin == 2) {
    matmul(c, x, get(c, onnxslim_node_input(n, 1)), o);
  } else if (strcmp(op, "Gemm") == 0 && nin >= 2) {
    const ival *b = get(c, onnxslim_node_input(n, 1));
    if (x->rank != 2 || b->rank != 2) return;
    set_shape(c, o, 2);
    if (o->rank < 0) return;
    o->d[0] = x->d[attr_int(n, "transA", 0) ? 1 : 0];
    o->d[1] = b->d[attr_int(n, "transB", 0) ? 0 : 1];
  } else if (strcmp(op, "Transpose") == 0) {
    transpose(c, n, x, o);
  } else if (strcmp(op, "Reshape") == 0 && c->opset >= 5 && nin == 2) {
    reshape(c, n, x, o);
  } else if (strcmp(op, "Concat") == 0) {
    concat(c, n, o);
  } else if (strcmp(op, "Slice") == 0) {
    slice(c, n, x, o);
  } else if (strcmp(op, "Gather") == 0 && nin == 2) {
    gather(c, n, x, get(c, onnxslim_node_input(n, 1)), o);
  } else if (strcmp(op, "Unsqueeze") == 0) {
    unsqueeze(c, n, x, o);
  } else if (strcmp(op, "Squeeze") == 0) {
    squeeze(c, n, x, o);
  } else if (strcmp(op, "Shape") == 0) {
    shape_op(c, n, x, o);
  } else if (strcmp(op, "Conv") == 0 || strcmp(op, "MaxPool") == 0 ||
             strcmp(op, "AveragePool") == 0 || strcmp(op, "LpPool") == 0 ||
             strcmp(op, "GlobalAveragePool") == 0 || strcmp(op, "GlobalMaxPool") == 0 ||
             strcmp(op, "GlobalLpPool") == 0) {
    conv_pool(c, n, op, x, o, nout, outs);
  } else if (strcmp(op, "Range") == 0) {
    range(c, n, o);
  } else if (strcmp(op, "Size") == 0) {
    set_shape(c, o, 0);
  } else if (in_list(REDUCE, op)) {
    reduce(c, n, op, x, o);
  } else if (strcmp(op, "ArgMax") == 0 || strcmp(op, "ArgMin") == 0) {
    argreduce(c, n, x, o);
  } else if (strcmp(op, "Flatten") == 0) {
    flatten(c, n, x, o);
  } else if (strcmp(op, "Expand") == 0 && nin == 2) {
    expand(c, n, x, o);
  } else if (strcmp(op, "Constant") == 0) {
    constant(c, n, o);
  } else if (strcmp(op, "ConstantOfShape") == 0) {
    onnxslim_attr *a = onnxslim_node_find_attr(n, "value");
    onnxslim_tensor *t = a ? onnxslim_attr_tensor(a) : NULL;
    o->dtype = t ? onnxslim_tensor_dtype(t) : ONNXSLIM_DTYPE_FLOAT;
    if (x->nd >= 0) {
      for (int i = 0; i < x->nd; i++)
        if (x->data[i].k == DK_VALUE && x->data[i].v < 0) return;
      o->rank = x->nd;
      o->d = x->data;
    } else if (shape_len(x) >= 0) {
      set_shape(c, o, shape_len(x));
    }
  }
}

/* ---- existing types, merge, report --------------------------------------- */

/* The tensor type of vi as an ival (dtype 0 when it has none). */
static void read_vi(ictx *c, const onnxslim_value_info *vi, ival *v) {
  *v = UNKNOWN;
  onnxslim_type *t = vi ? onnxslim_value_info_type(vi) : NULL;
  if (!t || onnxslim_type_kind(t) != ONNXSLIM_TYPE_TENSOR) return;
  v->dtype = onnxslim_type_dtype(t);
  if (!onnxslim_type_has_shape(t)) return;
  size_t r = onnxslim_type_rank(t);
  if (r > RANK_MAX) return;
  set_shape(c, v, (int)r);
  for (size_t j = 0; v->rank >= 0 && j < r; j++) {
    int64_t val = 0;
    const char *p = NULL;
    int k = onnxslim_type_dim(t, j, &val, &p);
    if (k == ONNXSLIM_DIM_VALUE) v->d[j] = (idim){val, NULL, DK_VALUE};
    else if (k == ONNXSLIM_DIM_PARAM && p && p[0]) v->d[j] = (idim){0, p, DK_PARAM};
  }
}

/* 1 when a and b cannot both be the value's type. */
static int conflicts(const ival *a, const ival *b) {
  if (a->dtype && b->dtype && a->dtype != b->dtype) return 1;
  if (a->rank < 0 || b->rank < 0) return 0;
  if (a->rank != b->rank) return 1;
  for (int j = 0; j < a->rank; j++)
    if (a->d[j].k == DK_VALUE && b->d[j].k == DK_VALUE && a->d[j].v != b->d[j].v) return 1;
  return 0;
}

static int report_add(ictx *c, const char *name, int status, const ival *v) {
  onnxslim_infer_report *r = c->rep;
  if (!r) return 0;
  if (r->n == r->cap) {
    size_t cap = r->cap ? r->cap * 2 : 64;
    rep_entry *e = realloc(r->e, cap * sizeof *e);
    if (!e) return -1;
    r->e = e;
    r->cap = cap;
  }
  rep_entry *e = &r->e[r->n];
  e->name = onnxslim__arena_strndup(&r->arena, name, strlen(name));
  e->status = status;
  e->dtype = v->dtype;
  e->rank = v->rank;
  e->d = NULL;
  if (!e->name) return -1;
  if (v->rank > 0) {
    e->d = onnxslim__arena_alloc(&r->arena, (size_t)v->rank * sizeof *e->d);
    if (!e->d) return -1;
    for (int j = 0; j < v->rank; j++) {
      e->d[j] = v->d[j];
      if (v->d[j].k == DK_PARAM &&
          !(e->d[j].p = onnxslim__arena_strndup(&r->arena, v->d[j].p, strlen(v->d[j].p))))
        return -1;
    }
  }
  r->n++;
  if (status == ONNXSLIM_INFER_CONFLICT) r->conflicts++;
  return 0;
}

static int pend_add(ictx *c, const char *name, onnxslim_value_info *vi, const ival *v) {
  if (c->npend == c->cappend) {
    size_t cap = c->cappend ? c->cappend * 2 : 64;
    pending *p = realloc(c->pend, cap * sizeof *p);
    if (!p) return -1;
    c->pend = p;
    c->cappend = cap;
  }
  c->pend[c->npend++] = (pending){name, vi, *v};
  return 0;
}

static void describe(char *buf, size_t cap, const ival *v) {
  size_t k = (size_t)snprintf(buf, cap, "%s", v->dtype ? onnxslim_dtype_name(v->dtype) : "?");
  if (v->rank < 0 || k >= cap) return;
  k += (size_t)snprintf(buf + k, cap - k, "[");
  for (int j = 0; j < v->rank && k < cap; j++) {
    const idim *d = &v->d[j];
    if (d->k == DK_VALUE) k += (size_t)snprintf(buf + k, cap - k, "%s%" PRId64, j ? "," : "", d->v);
    else
      k += (size_t)snprintf(buf + k, cap - k, "%s%s", j ? "," : "", d->k == DK_PARAM ? d->p : "?");
  }
  if (k < cap) snprintf(buf + k, cap - k, "]");
}

/* Merges what inference found for value `name` with its existing type,
 * records it for what follows, the report and the write. */
static int settle(ictx *c, const char *name, ival *inf, int constant) {
  onnxslim_value_info *vi = onnxslim_graph_find_value_info(c->g, name);
  ival old;
  read_vi(c, vi, &old);
  if (c->oom) return ONNXSLIM_ENOMEM;
  ival *keep = new_val(c, 0, -1);
  if (!keep) return ONNXSLIM_ENOMEM;
  int has_old = old.dtype != 0 || old.rank >= 0;
  int status;
  if (!has_old) {
    *keep = *inf;
    status = inf->dtype ? ONNXSLIM_INFER_NEW : 0;
  } else if (conflicts(&old, inf)) {
    if (c->flags & ONNXSLIM_INFER_STRICT) {
      char a[256], b[256];
      describe(a, sizeof a, inf);
      describe(b, sizeof b, &old);
      return onnxslim__err(ONNXSLIM_EMODEL,
                           "onnxslim_infer_shapes: value '%s': inferred %s, the model says %s",
                           name, a, b);
    }
    *keep = old;
    status = ONNXSLIM_INFER_CONFLICT;
    if (report_add(c, name, status, inf)) return onnxslim__err_nomem("an inference report");
    return put(c, name, keep) ? ONNXSLIM_ENOMEM : 0;
  } else {
    int changed = 0;
    keep->dtype = old.dtype ? old.dtype : inf->dtype;
    changed |= !old.dtype && inf->dtype;
    if (old.rank < 0 && inf->rank >= 0) {
      keep->rank = inf->rank;
      keep->d = inf->d;
      changed = 1;
    } else if (old.rank >= 0) {
      keep->rank = old.rank;
      keep->d = old.d;
      if (inf->rank == old.rank) {
        keep->d = new_dims(c, old.rank);
        if (!keep->d) return ONNXSLIM_ENOMEM;
        for (int j = 0; j < old.rank; j++) {
          keep->d[j] = old.d[j];
          if (old.d[j].k == DK_UNKNOWN && inf->d[j].k != DK_UNKNOWN)
            keep->d[j] = inf->d[j], changed = 1;
          else if (old.d[j].k == DK_PARAM && inf->d[j].k == DK_VALUE)
            keep->d[j] = inf->d[j], changed = 1;
        }
      }
    }
    keep->nd = inf->nd;
    keep->data = inf->data;
    status = changed ? ONNXSLIM_INFER_REFINED : ONNXSLIM_INFER_SAME;
    if (!keep->dtype) status = 0;
  }
  /* without data propagation only constants keep their values (as onnx's
   * inference reads initializers and Constant nodes) */
  if ((c->flags & ONNXSLIM_INFER_NO_DATA_PROP) && !constant) keep->nd = -1;
  if (put(c, name, keep)) return ONNXSLIM_ENOMEM;
  if (!status) return 0;
  if (report_add(c, name, status, keep)) return onnxslim__err_nomem("an inference report");
  if ((status == ONNXSLIM_INFER_NEW || status == ONNXSLIM_INFER_REFINED) &&
      !(c->flags & ONNXSLIM_INFER_DRY_RUN) && pend_add(c, name, vi, keep))
    return onnxslim__err_nomem("onnxslim_infer_shapes");
  return 0;
}

/* ---- seeds and the walk ------------------------------------------------------ */

static int seed(ictx *c) {
  /* graph inputs first: an initializer that is also an input is only a
   * default the caller may override, so its values are not followed */
  size_t n = onnxslim_graph_input_count(c->g);
  for (size_t i = 0; i < n; i++) {
    onnxslim_value_info *vi = onnxslim_graph_input(c->g, i);
    const char *name = onnxslim_value_info_name(vi);
    if (!name || !name[0]) continue;
    ival *v = new_val(c, 0, -1);
    if (!v) return ONNXSLIM_ENOMEM;
    read_vi(c, vi, v);
    if (put(c, name, v)) return ONNXSLIM_ENOMEM;
  }
  n = onnxslim_graph_initializer_count(c->g);
  for (size_t i = 0; i < n; i++) {
    onnxslim_tensor *t = onnxslim_graph_initializer(c->g, i);
    const char *name = t ? onnxslim_tensor_name(t) : NULL;
    if (!name) return ONNXSLIM_ENOMEM;
    if (onnxslim__map_get(&c->vals, name)) continue;
    ival *v = new_val(c, 0, -1);
    if (!v) return ONNXSLIM_ENOMEM;
    from_tensor(c, t, v);
    if (put(c, name, v)) return ONNXSLIM_ENOMEM;
  }
  return c->oom ? ONNXSLIM_ENOMEM : 0;
}

static int walk(ictx *c, const onnxslim_model *model) {
  size_t no = onnxslim_model_opset_count(model);
  size_t n = onnxslim_graph_node_count(c->g);
  for (size_t i = 0; i < n; i++) {
    onnxslim_node *node = onnxslim_graph_node(c->g, i);
    const char *dom = onnxslim_node_domain(node), *op = onnxslim_node_op_type(node);
    if (!dom || !op) return ONNXSLIM_EINVAL;
    /* the schema at the imported version of the node's domain */
    const osl_op_schema *sc = NULL;
    int nd = onnxslim__opschema_domain(dom);
    if (nd >= 0) {
      int64_t ver = -1;
      for (size_t k = 0; k < no; k++) {
        const char *od = NULL;
        int64_t v = 0;
        if (onnxslim_model_opset(model, k, &od, &v) == 0 && od &&
            onnxslim__opschema_domain(od) == nd)
          ver = v;
      }
      if (ver > 0 && ver <= onnxslim__opschema_domain_max(nd))
        sc = onnxslim__opschema_find(nd, op, ver, NULL, NULL);
      if (sc && sc->deprecated) sc = NULL;
    }
    size_t nout = onnxslim_node_output_count(node);
    ival *outs = nout ? onnxslim__arena_alloc(&c->arena, nout * sizeof *outs) : NULL;
    if (nout && !outs) return ONNXSLIM_ENOMEM;
    for (size_t k = 0; k < nout; k++) outs[k] = UNKNOWN;
    infer_node(c, node, sc, outs, nout);
    if (c->oom) return ONNXSLIM_ENOMEM;
    for (size_t k = 0; k < nout; k++) {
      const char *name = onnxslim_node_output(node, k);
      if (!name || !name[0]) continue;
      int rc = settle(c, name, &outs[k], strcmp(op, "Constant") == 0);
      if (rc) return rc;
    }
  }
  return 0;
}

static int write_one(ictx *c, const pending *p) {
  onnxslim_value_info *vi = onnxslim_graph_find_value_info(c->g, p->name);
  if (!vi) {
    int rc = onnxslim_graph_add_value_info(c->g, p->name, &vi);
    if (rc) return rc;
  }
  const ival *v = &p->v;
  if (v->rank < 0) return onnxslim_value_info_set_tensor_type(vi, v->dtype, NULL, NULL, SIZE_MAX);
  int64_t dims[RANK_MAX];
  const char *params[RANK_MAX];
  for (int j = 0; j < v->rank; j++) {
    dims[j] = v->d[j].k == DK_VALUE ? v->d[j].v : -1;
    params[j] = v->d[j].k == DK_PARAM ? v->d[j].p : NULL;
  }
  return onnxslim_value_info_set_tensor_type(vi, v->dtype, dims, params, (size_t)v->rank);
}

/* ---- public ---------------------------------------------------------------------- */

int onnxslim_infer_options_init(onnxslim_infer_options *opts, unsigned int version) {
  if (!opts) return onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_infer_options_init: NULL opts");
  if (version < 1 || version > ONNXSLIM_INFER_OPTIONS_VERSION)
    return onnxslim__err_options_version("onnxslim_infer_options_init", "infer options", version,
                                         ONNXSLIM_INFER_OPTIONS_VERSION);
  onnxslim_infer_options d = ONNXSLIM_INFER_OPTIONS_INIT;
  d.version = version;
  *opts = d;
  return 0;
}

#define INFER_FLAGS (ONNXSLIM_INFER_DRY_RUN | ONNXSLIM_INFER_STRICT | ONNXSLIM_INFER_NO_DATA_PROP)

int onnxslim_infer_shapes(onnxslim_infer_report **report, onnxslim_model *model,
                          const onnxslim_infer_options *opts) {
  const char *fn = "onnxslim_infer_shapes";
  if (report) *report = NULL;
  if (!model) return onnxslim__err(ONNXSLIM_EINVAL, "%s: NULL model", fn);
  unsigned flags = 0;
  if (opts) {
    if (opts->version < 1 || opts->version > ONNXSLIM_INFER_OPTIONS_VERSION)
      return onnxslim__err_options_version(fn, "infer options", opts->version,
                                           ONNXSLIM_INFER_OPTIONS_VERSION);
    if (opts->flags & ~INFER_FLAGS)
      return onnxslim__err(ONNXSLIM_EINVAL, "%s: reserved flags 0x%x set", fn,
                           opts->flags & ~INFER_FLAGS);
    flags = opts->flags;
  }
  ictx c;
  memset(&c, 0, sizeof c);
  c.g = onnxslim_model_graph(model);
  c.flags = flags;
  c.model = model;
  if (!c.g) return onnxslim__err(ONNXSLIM_EINVAL, "%s: the model has no graph", fn);
  size_t no = onnxslim_model_opset_count(model);
  for (size_t k = 0; k < no; k++) {
    const char *od = NULL;
    int64_t v = 0;
    if (onnxslim_model_opset(model, k, &od, &v) == 0 && od &&
        (!od[0] || strcmp(od, "ai.onnx") == 0))
      c.opset = v;
  }
  if (report) {
    c.rep = calloc(1, sizeof *c.rep);
    if (!c.rep) return onnxslim__err_nomem("an inference report");
  }
  int rc = seed(&c);
  if (!rc) rc = walk(&c, model);
  if (rc == ONNXSLIM_ENOMEM && c.oom) rc = onnxslim__err_nomem(fn);
  for (size_t i = 0; !rc && i < c.npend; i++) rc = write_one(&c, &c.pend[i]);
  free(c.pend);
  onnxslim__arena_free(&c.arena);
  if (rc) {
    onnxslim_infer_report_free(c.rep);
    return rc;
  }
  if (report) *report = c.rep;
  return 0;
}
