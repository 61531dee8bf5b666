/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - inference rules of the shape operators (Reshape, Concat,
 * Slice, Gather, Squeeze, Unsqueeze, Shape, Expand, ...), with the data
 * of small integer tensors followed through them (data propagation).
 */
#include <stdint.h>
#include <string.h>

#include "passes/infer_int.h"

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
      else if (x->rank >= 0) {
        out->rank = -1;
        return;
      }
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
  /* data: the elements of 1-D inputs one after the other; an input of
   * known length whose values are not followed gives unknown elements */
  if (r == 1 && axis == 0) {
    int total = 0, some = 0;
    for (size_t i = 0; i < nin; i++) {
      const ival *x = get(c, onnxslim_node_input(n, i));
      int len = x->nd >= 0 ? x->nd : shape_len(x);
      if (len < 0 || len > DATA_MAX) return;
      some |= x->nd > 0;
      total += len;
    }
    if (total > DATA_MAX || !some) return;
    idim *d = new_dims(c, total);
    if (!d) return;
    int k = 0;
    for (size_t i = 0; i < nin; i++) {
      const ival *x = get(c, onnxslim_node_input(n, i));
      if (x->nd < 0) k += shape_len(x); /* new_dims made them unknown */
      else
        for (int e = 0; e < x->nd; e++) d[k++] = x->data[e];
    }
    out->data = d;
    out->nd = total;
  }
}

/* The size of one sliced axis of extent d, or -1. A negative step whose end
 * lies past the axis's last element is left unknown: onnx's definition
 * clamps that end to d - 1 (an empty slice when start is below it), while
 * onnxruntime reads an end of INT32_MAX or INT64_MAX with a negative step
 * as "through the first element" (-3, INT64_MAX, -1 on 5 elements gives 3
 * elements there). The runtime decides what the model computes, the spec
 * what a checker expects; neither size may be written down. */
static int64_t slice_len(int64_t d, int64_t start, int64_t end, int64_t step) {
  if (step == 0) return -1;
  if (step < 0 && end > d - 1) return -1;
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
  set_shape(c, out, x->rank); /* the rank at least: the sizes below when known */
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
  ival sh = {0, s->nd, s->data, -1, NULL, NULL, 0};
  const ival *both[2] = {x, &sh};
  onnxslim__infer_bcast(c, both, 2, out);
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

static void constant(ictx *c, const onnxslim_node *n, ival *out) {
  onnxslim_attr *a = onnxslim_node_find_attr(n, "value");
  if (a && onnxslim_attr_type(a) == ONNXSLIM_ATTR_TENSOR) {
    onnxslim_tensor *t = onnxslim_attr_tensor(a);
    if (t) onnxslim__infer_from_tensor(c, t, out);
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
    const float *fv;
    size_t nf;
    if (onnxslim_attr_floats(a, &fv, &nf) == 0 && nf <= DATA_MAX) {
      out->fdata = fv;
      out->nf = (int)nf;
    }
  }
}

/* x's shape with dim `axis` replaced by d, into o */
static void with_dim(ictx *c, const ival *x, int64_t axis, idim d, ival *o) {
  set_shape(c, o, x->rank);
  for (int j = 0; o->rank >= 0 && j < x->rank; j++) o->d[j] = j == axis ? d : x->d[j];
}

static const idim DIM_UNK = {0, NULL, DK_UNKNOWN};

static int has_input(const onnxslim_node *n, size_t i) {
  return i < onnxslim_node_input_count(n) && onnxslim_node_input(n, i)[0];
}

/* Split: sizes from input 1 (opset 13+) or attribute "split", else equal
 * parts (opset 18+: num_outputs, the last part smaller). */
static void split(ictx *c, const onnxslim_node *n, const ival *x, ival *outs, size_t nout) {
  int64_t axis, sz[RANK_MAX];
  if (x->rank < 1 || !norm_axis(attr_int(n, "axis", 0), x->rank, &axis) || nout > RANK_MAX) return;
  int ns = -1; /* -1: not given, -2: given, unknown */
  if (c->opset >= 13) {
    if (has_input(n, 1))
      ns = const_ints(c, n, 1, sz, RANK_MAX) < 0 ? -2 : const_ints(c, n, 1, sz, RANK_MAX);
  } else {
    const int64_t *a;
    size_t cnt;
    if (attr_ints(n, "split", &a, &cnt) && cnt <= RANK_MAX) {
      memcpy(sz, a, cnt * sizeof *a);
      ns = (int)cnt;
    }
  }
  const idim *d = &x->d[axis];
  for (size_t k = 0; k < nout; k++) {
    idim e = DIM_UNK;
    if (ns >= 0) {
      if ((size_t)ns == nout && sz[k] >= 0) e = (idim){sz[k], NULL, DK_VALUE};
    } else if (ns == -1 && d->k == DK_VALUE && nout > 0) {
      int64_t chunk = (d->v + (int64_t)nout - 1) / (int64_t)nout;
      int64_t last = d->v - chunk * (int64_t)(nout - 1);
      if (d->v % (int64_t)nout == 0) e = (idim){d->v / (int64_t)nout, NULL, DK_VALUE};
      else if (c->opset >= 18 && last >= 0) e = (idim){k + 1 < nout ? chunk : last, NULL, DK_VALUE};
    }
    with_dim(c, x, axis, e, &outs[k]);
  }
}

/* Pad: pads from input 1 (opset 11+, axes from input 3 at 18+) or the
 * attribute "pads" ("paddings" at opset 1); each padded size when fixed. */
static void pad(ictx *c, const onnxslim_node *n, const ival *x, ival *o) {
  if (x->rank < 0) return;
  set_shape(c, o, x->rank);
  if (o->rank < 0) return;
  int64_t pads[2 * RANK_MAX], axes[RANK_MAX];
  int np = -1, na = -1;
  if (c->opset >= 11) {
    np = const_ints(c, n, 1, pads, 2 * RANK_MAX);
    if (c->opset >= 18 && has_input(n, 3)) {
      na = const_ints(c, n, 3, axes, RANK_MAX);
      if (na < 0) return;
    }
  } else {
    const int64_t *a;
    size_t cnt;
    if ((attr_ints(n, "pads", &a, &cnt) || attr_ints(n, "paddings", &a, &cnt)) &&
        cnt <= 2 * RANK_MAX) {
      memcpy(pads, a, cnt * sizeof *a);
      np = (int)cnt;
    }
  }
  if (np < 0) return;
  if (na < 0) {
    na = x->rank;
    for (int i = 0; i < na; i++) axes[i] = i;
  }
  if (np != 2 * na) return;
  char padded[RANK_MAX] = {0};
  for (int i = 0; i < na; i++) {
    int64_t a;
    if (!norm_axis(axes[i], x->rank, &a) || padded[a]) return;
    padded[a] = 1;
    axes[i] = a;
  }
  for (int j = 0; j < x->rank; j++)
    if (!padded[j]) o->d[j] = x->d[j];
  for (int i = 0; i < na; i++) {
    const idim *d = &x->d[axes[i]];
    int64_t v;
    if (d->k == DK_VALUE && !__builtin_add_overflow(d->v, pads[i] + pads[i + na], &v) && v >= 0)
      o->d[axes[i]] = (idim){v, NULL, DK_VALUE};
    else if (pads[i] == 0 && pads[i + na] == 0) o->d[axes[i]] = *d;
  }
}

/* Tile: each size times its repeat (input 1) */
static void tile(ictx *c, const onnxslim_node *n, const ival *x, ival *o) {
  if (x->rank < 0) return;
  set_shape(c, o, x->rank);
  int64_t rep[RANK_MAX];
  if (o->rank < 0 || const_ints(c, n, 1, rep, RANK_MAX) != x->rank) return;
  for (int j = 0; j < x->rank; j++) {
    int64_t v;
    if (rep[j] == 1) o->d[j] = x->d[j];
    else if (x->d[j].k == DK_VALUE && rep[j] >= 0 && !__builtin_mul_overflow(x->d[j].v, rep[j], &v))
      o->d[j] = (idim){v, NULL, DK_VALUE};
  }
}

/* TopK: values and indices have x's shape with K along axis */
static void topk(ictx *c, const onnxslim_node *n, const ival *x, ival *outs, size_t nout) {
  int64_t axis, k[1];
  if (x->rank < 1 || !norm_axis(attr_int(n, "axis", -1), x->rank, &axis)) return;
  idim e = DIM_UNK;
  if (c->opset >= 10) {
    if (const_ints(c, n, 1, k, 1) == 1 && k[0] >= 0) e = (idim){k[0], NULL, DK_VALUE};
  } else if (attr_int(n, "k", -1) >= 0) {
    e = (idim){attr_int(n, "k", -1), NULL, DK_VALUE};
  }
  for (size_t i = 0; i < nout && i < 2; i++) with_dim(c, x, axis, e, &outs[i]);
}

/* OneHot: the indices' dims with depth inserted at axis */
static void onehot(ictx *c, const onnxslim_node *n, const ival *x, ival *o) {
  int64_t axis, depth[1];
  if (x->rank < 0 || x->rank + 1 > RANK_MAX ||
      !norm_axis(attr_int(n, "axis", -1), x->rank + 1, &axis))
    return;
  idim e = DIM_UNK;
  /* depth may be a float tensor: only an integer one is followed */
  if (const_ints(c, n, 1, depth, 1) == 1 && depth[0] >= 0) e = (idim){depth[0], NULL, DK_VALUE};
  set_shape(c, o, x->rank + 1);
  for (int j = 0, k = 0; o->rank >= 0 && j < o->rank; j++) o->d[j] = j == axis ? e : x->d[k++];
}

/* DepthToSpace / SpaceToDepth on [N, C, H, W] */
static void depth_space(ictx *c, const onnxslim_node *n, int to_space, const ival *x, ival *o) {
  int64_t b = attr_int(n, "blocksize", 0);
  if (x->rank != 4 || b < 1 || b > 65536) return;
  set_shape(c, o, 4);
  if (o->rank < 0) return;
  o->d[0] = x->d[0];
  const idim *ch = &x->d[1];
  if (ch->k == DK_VALUE) {
    if (!to_space) o->d[1] = (idim){ch->v * b * b, NULL, DK_VALUE};
    else if (ch->v % (b * b) == 0) o->d[1] = (idim){ch->v / (b * b), NULL, DK_VALUE};
  }
  for (int j = 2; j < 4; j++) {
    const idim *d = &x->d[j];
    if (d->k != DK_VALUE) continue;
    if (to_space) o->d[j] = (idim){d->v * b, NULL, DK_VALUE};
    else if (d->v % b == 0) o->d[j] = (idim){d->v / b, NULL, DK_VALUE};
  }
}

int onnxslim__infer_ops_shape(ictx *c, const onnxslim_node *n, const char *op, ival *outs,
                              size_t nout) {
  size_t nin = onnxslim_node_input_count(n);
  const ival *x = nin ? get(c, onnxslim_node_input(n, 0)) : &UNKNOWN;
  ival *o = &outs[0];
  if (strcmp(op, "Transpose") == 0) {
    transpose(c, n, x, o);
  } else if (strcmp(op, "Reshape") == 0) {
    if (c->opset >= 5 && nin == 2) reshape(c, n, x, o);
  } else if (strcmp(op, "Concat") == 0) {
    concat(c, n, o);
  } else if (strcmp(op, "Slice") == 0) {
    slice(c, n, x, o);
  } else if (strcmp(op, "Gather") == 0) {
    if (nin == 2) gather(c, n, x, get(c, onnxslim_node_input(n, 1)), o);
  } else if (strcmp(op, "Unsqueeze") == 0) {
    unsqueeze(c, n, x, o);
  } else if (strcmp(op, "Squeeze") == 0) {
    squeeze(c, n, x, o);
  } else if (strcmp(op, "Shape") == 0) {
    shape_op(c, n, x, o);
  } else if (strcmp(op, "Range") == 0) {
    range(c, n, o);
  } else if (strcmp(op, "Size") == 0) {
    set_shape(c, o, 0);
    /* data: the element count when every dim is fixed */
    int64_t p = 1;
    for (int j = 0; j < x->rank; j++)
      if (x->d[j].k != DK_VALUE || x->d[j].v < 0 || __builtin_mul_overflow(p, x->d[j].v, &p))
        return 1;
    idim *d = x->rank >= 0 ? new_dims(c, 1) : NULL;
    if (!d) return 1;
    d[0] = (idim){p, NULL, DK_VALUE};
    o->data = d;
    o->nd = 1;
  } else if (strcmp(op, "Flatten") == 0) {
    flatten(c, n, x, o);
  } else if (strcmp(op, "Expand") == 0) {
    if (nin == 2) expand(c, n, x, o);
  } else if (strcmp(op, "Split") == 0) {
    split(c, n, x, outs, nout);
  } else if (strcmp(op, "Pad") == 0) {
    pad(c, n, x, o);
  } else if (strcmp(op, "Tile") == 0) {
    tile(c, n, x, o);
  } else if (strcmp(op, "TopK") == 0) {
    topk(c, n, x, outs, nout);
  } else if (strcmp(op, "OneHot") == 0) {
    onehot(c, n, x, o);
  } else if (strcmp(op, "DepthToSpace") == 0 || strcmp(op, "SpaceToDepth") == 0) {
    depth_space(c, n, op[0] == 'D', x, o);
  } else if (strcmp(op, "GatherElements") == 0) {
    if (nin == 2) copy_shape(get(c, onnxslim_node_input(n, 1)), o);
  } else if (strcmp(op, "NonZero") == 0) {
    if (x->rank < 0) return 1;
    set_shape(c, o, 2);
    if (o->rank >= 0) o->d[0] = (idim){x->rank, NULL, DK_VALUE};
  } else if (strcmp(op, "Compress") == 0) {
    int64_t axis;
    if (!onnxslim_node_find_attr(n, "axis")) set_shape(c, o, 1);
    else if (x->rank >= 1 && norm_axis(attr_int(n, "axis", 0), x->rank, &axis))
      with_dim(c, x, axis, DIM_UNK, o);
  } else if (strcmp(op, "Unique") == 0) {
    int64_t axis;
    if (!onnxslim_node_find_attr(n, "axis")) set_shape(c, o, 1);
    else if (x->rank >= 1 && norm_axis(attr_int(n, "axis", 0), x->rank, &axis))
      with_dim(c, x, axis, DIM_UNK, o);
    for (size_t k = 1; k < nout && k < 4; k++) set_shape(c, &outs[k], 1);
  } else if (strcmp(op, "Constant") == 0) {
    constant(c, n, o);
  } else if (strcmp(op, "ConstantOfShape") == 0) {
    onnxslim_attr *a = onnxslim_node_find_attr(n, "value");
    onnxslim_tensor *t = a ? onnxslim_attr_tensor(a) : NULL;
    o->dtype = t ? onnxslim_tensor_dtype(t) : ONNXSLIM_DTYPE_FLOAT;
    if (x->nd >= 0) {
      for (int i = 0; i < x->nd; i++)
        if (x->data[i].k == DK_VALUE && x->data[i].v < 0) return 1;
      o->rank = x->nd;
      o->d = x->data;
    } else if (shape_len(x) >= 0) {
      set_shape(c, o, shape_len(x));
    }
    /* data: a small 1-D integer output is its value repeated */
    ival tv = UNKNOWN;
    if (t && o->rank == 1 && o->d[0].k == DK_VALUE && o->d[0].v <= DATA_MAX)
      onnxslim__infer_from_tensor(c, t, &tv);
    if (tv.nd == 1 && tv.data[0].k == DK_VALUE) {
      int len = (int)o->d[0].v;
      idim *d = new_dims(c, len);
      if (!d) return 1;
      for (int i = 0; i < len; i++) d[i] = tv.data[0];
      o->data = d;
      o->nd = len;
    }
  } else {
    return 0;
  }
  return 1;
}
