/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - inference rules of If, Loop and Scan: each body is walked
 * in a scope of its own (outer values visible, its own values gone after),
 * its inputs seeded from what they declare (a Loop's carried values may
 * change shape from one iteration to the next: only their declared type
 * is used) and a Scan's per-iteration slices; a body output's type is
 * what it declares, completed by what the walk found. Where two types meet
 * (the branches of If, a loop's initial and final values) they are
 * merged: a dimension both sides agree on is kept, anything else unknown.
 */
#include <stdint.h>
#include <string.h>

#include "passes/infer_int.h"

static onnxslim_graph *body(const onnxslim_node *n, const char *name) {
  onnxslim_attr *a = onnxslim_node_find_attr(n, name);
  return a && onnxslim_attr_type(a) == ONNXSLIM_ATTR_GRAPH ? onnxslim_attr_graph(a) : NULL;
}

/* Bodies nest at most this deep; deeper ones are not walked. */
#define BODY_DEPTH_MAX 8

/* Declared type d completed by inferred w: w when nothing is declared;
 * else d's dims, unknown ones taken from w when the ranks agree. */
static void pick(ictx *c, const ival *d, const ival *w, ival *o) {
  *o = UNKNOWN;
  if (!d->dtype && d->rank < 0) {
    o->dtype = w->dtype;
    o->rank = w->rank;
    o->d = w->d;
    return;
  }
  o->dtype = d->dtype ? d->dtype : w->dtype;
  if (d->rank < 0 || w->rank != d->rank) {
    o->rank = d->rank;
    o->d = d->d;
    return;
  }
  set_shape(c, o, d->rank);
  for (int j = 0; o->rank >= 0 && j < d->rank; j++)
    o->d[j] = d->d[j].k == DK_UNKNOWN ? w->d[j] : d->d[j];
}

/* Output i of body g: declared, completed by the walk (when walked). */
static void body_out(ictx *c, onnxslim_graph *g, size_t i, ival *v) {
  *v = UNKNOWN;
  if (!g || i >= onnxslim_graph_output_count(g)) return;
  onnxslim_value_info *vi = onnxslim_graph_output(g, i);
  ival d;
  read_vi(c, vi, &d);
  pick(c, &d, get(c, onnxslim_value_info_name(vi)), v);
}

/* Pushes a scope for body g; 0 when g is not to be walked (too deep). */
static int enter(ictx *c, iscope *s, onnxslim_graph *g) {
  if (!g || !c->walk_body || c->depth >= BODY_DEPTH_MAX) return 0;
  memset(s, 0, sizeof *s);
  s->up = c->scope;
  c->scope = s;
  c->depth++;
  return 1;
}

static void leave(ictx *c, iscope *s) {
  c->scope = s->up;
  c->depth--;
}

/* Seeds body input i of g: its declared type, the element type from
 * `dflt` when it declares none, the shape of `shape` when not NULL and it
 * declares none. */
static void seed_input(ictx *c, onnxslim_graph *g, size_t i, const ival *dflt, const ival *shape) {
  if (i >= onnxslim_graph_input_count(g)) return;
  onnxslim_value_info *vi = onnxslim_graph_input(g, i);
  const char *name = onnxslim_value_info_name(vi);
  ival *v = new_val(c, 0, -1);
  if (!v || !name || !name[0]) return;
  read_vi(c, vi, v);
  if (!v->dtype && dflt) v->dtype = dflt->dtype;
  if (v->rank < 0 && shape) {
    v->rank = shape->rank;
    v->d = shape->d;
  }
  put(c, name, v);
}

/* Two types the same value may have (the schemas bind both to one type
 * parameter): the element type either gives (none when they differ), the
 * shape when both have the rank, each dim when both agree. */
static void merge(ictx *c, const ival *a, const ival *b, ival *o) {
  if (a->dtype || b->dtype)
    o->dtype = !a->dtype ? b->dtype : !b->dtype || a->dtype == b->dtype ? a->dtype : 0;
  if (a->rank < 0 || a->rank != b->rank) return;
  set_shape(c, o, a->rank);
  for (int j = 0; o->rank >= 0 && j < a->rank; j++)
    if (dim_eq(&a->d[j], &b->d[j])) o->d[j] = a->d[j];
}

/* A scan output: the body's per-iteration shape with `len` inserted at axis. */
static void stacked(ictx *c, const ival *per, idim len, int64_t axis, ival *o) {
  if (per->dtype) o->dtype = per->dtype;
  int64_t a;
  if (per->rank < 0 || per->rank + 1 > RANK_MAX || !norm_axis(axis, per->rank + 1, &a)) return;
  set_shape(c, o, per->rank + 1);
  for (int j = 0, k = 0; o->rank >= 0 && j < o->rank; j++) o->d[j] = j == a ? len : per->d[k++];
}

int onnxslim__infer_ops_ctrl(ictx *c, const onnxslim_node *n, const char *op, ival *outs,
                             size_t nout) {
  size_t nin = onnxslim_node_input_count(n);
  if (strcmp(op, "If") == 0) {
    onnxslim_graph *t = body(n, "then_branch"), *e = body(n, "else_branch");
    if (!t || !e || nout > RANK_MAX) return 1;
    ival a[RANK_MAX];
    iscope s;
    int in = enter(c, &s, t);
    if (in && c->walk_body(c, t) == ONNXSLIM_ENOMEM) c->oom = 1;
    for (size_t k = 0; k < nout; k++) body_out(c, t, k, &a[k]);
    if (in) leave(c, &s);
    in = enter(c, &s, e);
    if (in && c->walk_body(c, e) == ONNXSLIM_ENOMEM) c->oom = 1;
    for (size_t k = 0; k < nout; k++) {
      ival b;
      body_out(c, e, k, &b);
      merge(c, &a[k], &b, &outs[k]);
    }
    if (in) leave(c, &s);
  } else if (strcmp(op, "Loop") == 0) {
    /* inputs M, cond, v_initial[N]; body outputs cond, carried[N], scans[K] */
    onnxslim_graph *g = body(n, "body");
    if (!g || nin < 2) return 1;
    size_t nc = nin - 2;
    idim unk = {0, NULL, DK_UNKNOWN};
    iscope s;
    int in = enter(c, &s, g);
    if (in) {
      ival iter = UNKNOWN, cond = UNKNOWN;
      iter.dtype = ONNXSLIM_DTYPE_INT64;
      cond.dtype = ONNXSLIM_DTYPE_BOOL;
      iter.rank = cond.rank = 0;
      seed_input(c, g, 0, &iter, &iter);
      seed_input(c, g, 1, &cond, &cond);
      for (size_t k = 0; k < nc; k++)
        seed_input(c, g, 2 + k, get(c, onnxslim_node_input(n, 2 + k)), NULL);
      if (c->walk_body(c, g) == ONNXSLIM_ENOMEM) c->oom = 1;
    }
    for (size_t k = 0; k < nout; k++) {
      ival per;
      body_out(c, g, k + 1, &per);
      if (k < nc) merge(c, get(c, onnxslim_node_input(n, 2 + k)), &per, &outs[k]);
      else stacked(c, &per, unk, 0, &outs[k]);
    }
    if (in) leave(c, &s);
  } else if (strcmp(op, "Scan") == 0) {
    /* opset 9+: inputs states[N], scan inputs[M]; body outputs states[N], scans[K] */
    onnxslim_graph *g = body(n, "body");
    int64_t m = attr_int(n, "num_scan_inputs", -1);
    if (!g || c->opset < 9 || m < 1 || (size_t)m > nin) return 1;
    size_t ns = nin - (size_t)m;
    const int64_t *ia = NULL, *oa = NULL;
    size_t nia = 0, noa = 0;
    attr_ints(n, "scan_input_axes", &ia, &nia);
    attr_ints(n, "scan_output_axes", &oa, &noa);
    const ival *first = get(c, onnxslim_node_input(n, ns));
    idim len = {0, NULL, DK_UNKNOWN};
    int64_t ax;
    if (first->rank >= 1 && norm_axis(nia ? ia[0] : 0, first->rank, &ax)) len = first->d[ax];
    iscope s;
    int in = enter(c, &s, g);
    if (in) {
      for (size_t k = 0; k < ns; k++) seed_input(c, g, k, get(c, onnxslim_node_input(n, k)), NULL);
      for (size_t j = 0; j < (size_t)m; j++) {
        /* a scan input's slice: its dims without the scan axis */
        const ival *x = get(c, onnxslim_node_input(n, ns + j));
        ival slice = UNKNOWN;
        int64_t a;
        if (x->rank >= 1 && norm_axis(j < nia ? ia[j] : 0, x->rank, &a)) {
          set_shape(c, &slice, x->rank - 1);
          for (int q = 0, r = 0; slice.rank >= 0 && q < x->rank; q++)
            if (q != a) slice.d[r++] = x->d[q];
        }
        seed_input(c, g, ns + j, x, slice.rank >= 0 ? &slice : NULL);
      }
      if (c->walk_body(c, g) == ONNXSLIM_ENOMEM) c->oom = 1;
    }
    for (size_t k = 0; k < nout; k++) {
      ival per;
      body_out(c, g, k, &per);
      if (k < ns) merge(c, get(c, onnxslim_node_input(n, k)), &per, &outs[k]);
      else stacked(c, &per, len, k - ns < noa ? oa[k - ns] : 0, &outs[k]);
    }
    if (in) leave(c, &s);
  } else {
    return 0;
  }
  return 1;
}
