/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - part of the constant-folding pass of the simplification
 * (simplify.h, ONNXSLIM_SIMPLIFY_FOLD): a Constant node (ai.onnx) of the
 * main graph becomes an initializer named as its output (a graph output
 * too: an initializer may be one, see onnxslim__simp_output_init), from
 * its value, value_float, value_floats, value_int or value_ints
 * attribute. Constants of strings and sparse
 * constants stay nodes, and so do the Constants of subgraphs (with them as
 * subgraph initializers, onnxruntime-node 1.30 crashed in step 32 on an
 * onnx node test model with If branches; not investigated). Models of
 * ir_version below 4 are left alone (an initializer there must also be a
 * graph input).
 */
#include <string.h>

#include "passes/simplify_int.h"

static int is_output(const onnxslim_graph *g, const char *name) {
  for (size_t i = 0; i < onnxslim_graph_output_count(g); i++)
    if (strcmp(onnxslim_value_info_name(onnxslim_graph_output(g, i)), name) == 0) return 1;
  return 0;
}

/* Adds the value of Constant node n as the initializer y of g: 1 added, 0
 * not such a constant (nothing changed), or an error. */
static int add_value(onnxslim_graph *g, const onnxslim_node *n, const char *y) {
  if (onnxslim_node_attr_count(n) != 1) return 0;
  const onnxslim_attr *a = onnxslim_node_attr(n, 0);
  const char *an = onnxslim_attr_name(a);
  if (!strcmp(an, "value")) {
    const onnxslim_tensor *t = onnxslim_attr_tensor(a);
    if (!t || onnxslim_tensor_dtype(t) == ONNXSLIM_DTYPE_STRING) return 0;
    int rc = onnxslim_graph_add_initializer_copy(g, t, y, NULL);
    return rc < 0 ? rc : 1;
  }
  int64_t dim, iv;
  float fv;
  const void *p = NULL;
  size_t count = 0, rank = 0, esz = 8;
  int32_t dt = ONNXSLIM_DTYPE_INT64;
  if (!strcmp(an, "value_ints")) {
    const int64_t *v;
    if (onnxslim_attr_ints(a, &v, &count) < 0) return 0;
    p = v, rank = 1;
  } else if (!strcmp(an, "value_floats")) {
    const float *v;
    if (onnxslim_attr_floats(a, &v, &count) < 0) return 0;
    p = v, rank = 1, esz = 4, dt = ONNXSLIM_DTYPE_FLOAT;
  } else if (!strcmp(an, "value_int")) {
    if (onnxslim_attr_int(a, &iv) < 0) return 0;
    p = &iv, count = 1;
  } else if (!strcmp(an, "value_float")) {
    if (onnxslim_attr_float(a, &fv) < 0) return 0;
    p = &fv, count = 1, esz = 4, dt = ONNXSLIM_DTYPE_FLOAT;
  } else {
    return 0; /* value_string(s), sparse_value, or not a Constant's attribute */
  }
  dim = (int64_t)count;
  int rc = onnxslim_graph_add_initializer(g, y, dt, &dim, rank, count ? p : NULL, count * esz,
                                          ONNXSLIM_COPY, NULL);
  return rc < 0 ? rc : 1;
}

/* Node n (a Constant or not) of g becomes an initializer when it can: 1
 * done (n is gone), 0 left, or an error. */
static int const_node(osl_simp *c, onnxslim_graph *g, onnxslim_node *n) {
  const char *d = onnxslim_node_domain(n);
  if (strcmp(onnxslim_node_op_type(n), "Constant") != 0 || (d && d[0] && strcmp(d, "ai.onnx")))
    return 0;
  if (onnxslim_node_input_count(n) != 0 || onnxslim_node_output_count(n) != 1) return 0;
  const char *y = onnxslim_node_output(n, 0);
  if (!y || !y[0] || (is_output(g, y) && !onnxslim__simp_output_init(c->model, g))) return 0;
  size_t before = onnxslim_graph_initializer_count(g);
  int rc = add_value(g, n, y);
  if (rc <= 0) return rc;
  const char *label = onnxslim__simp_label(n);
  if ((rc = onnxslim__simp_drop_value_info(g, y)) >= 0 &&
      (rc = onnxslim__simp_change(c, g, ONNXSLIM_SIMPLIFY_FOLDED_NODE, label, y)) >= 0 &&
      (rc = onnxslim_graph_remove_node(g, n)) >= 0)
    return 1;
  /* undo: the initializer just added is the last one */
  if (onnxslim_graph_initializer_count(g) > before)
    (void)onnxslim_graph_remove_initializer(g, onnxslim_graph_initializer(g, before));
  return rc;
}

static int const_graph(osl_simp *c, onnxslim_graph *g) {
  onnxslim_node **nodes;
  size_t nn;
  int rc = onnxslim__simp_nodes(c->model, g, &nodes, &nn);
  for (size_t i = 0; i < nn && rc >= 0; i++)
    if (!onnxslim__simp_gone(nodes[i])) rc = const_node(c, g, nodes[i]);
  onnxslim__simp_nodes_free(c->model, nodes, nn);
  return rc < 0 ? rc : 0;
}

int onnxslim__simp_const_nodes(osl_simp *c) {
  int64_t ir = onnxslim_model_ir_version(c->model);
  if (ir > 0 && ir < 4) return 0;
  return const_graph(c, onnxslim_model_graph(c->model));
}
