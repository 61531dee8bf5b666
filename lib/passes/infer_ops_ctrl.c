/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - inference rules of If, Loop and Scan: their outputs from
 * the types their bodies' graph outputs declare (the bodies themselves are
 * not walked), merged where two types meet (the branches of If, a loop's
 * initial and carried values): a dimension both sides agree on is kept,
 * anything else is unknown.
 */
#include <stdint.h>
#include <string.h>

#include "passes/infer_int.h"

static onnxslim_graph *body(const onnxslim_node *n, const char *name) {
  onnxslim_attr *a = onnxslim_node_find_attr(n, name);
  return a && onnxslim_attr_type(a) == ONNXSLIM_ATTR_GRAPH ? onnxslim_attr_graph(a) : NULL;
}

static void body_out(ictx *c, onnxslim_graph *g, size_t i, ival *v) {
  *v = UNKNOWN;
  if (g && i < onnxslim_graph_output_count(g)) read_vi(c, onnxslim_graph_output(g, i), v);
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
    for (size_t k = 0; t && e && k < nout; k++) {
      ival a, b;
      body_out(c, t, k, &a);
      body_out(c, e, k, &b);
      merge(c, &a, &b, &outs[k]);
    }
  } else if (strcmp(op, "Loop") == 0) {
    /* inputs M, cond, v_initial[N]; body outputs cond, carried[N], scans[K] */
    onnxslim_graph *g = body(n, "body");
    if (!g || nin < 2) return 1;
    size_t nc = nin - 2;
    idim unk = {0, NULL, DK_UNKNOWN};
    for (size_t k = 0; k < nout; k++) {
      ival per;
      body_out(c, g, k + 1, &per);
      if (k < nc) merge(c, get(c, onnxslim_node_input(n, 2 + k)), &per, &outs[k]);
      else stacked(c, &per, unk, 0, &outs[k]);
    }
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
    for (size_t k = 0; k < nout; k++) {
      ival per;
      body_out(c, g, k, &per);
      if (k < ns) merge(c, get(c, onnxslim_node_input(n, k)), &per, &outs[k]);
      else stacked(c, &per, len, k - ns < noa ? oa[k - ns] : 0, &outs[k]);
    }
  } else {
    return 0;
  }
  return 1;
}
