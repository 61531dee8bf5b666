/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - validation (onnxslim_check): the driver. Its report, the
 * state of a check (check_report.c) and the opsets, tensors and operator
 * schemas (check_schema.c) are below it; what they share is in check_int.h.
 *
 * Built on the public read API only: these files walk graphs, nodes,
 * attributes and tensors through the same handles an application uses.
 * passes.h is included for onnxslim__err() and, to verify checksums,
 * onnxslim__external_entry() (the checksum key).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "passes/check_int.h"

/* ---- graphs and function bodies --------------------------------------------- */

/* A list of nodes: a graph's or a function's. */
typedef struct body {
  const onnxslim_graph *g;
  const onnxslim_function *fn;
} body;

static size_t body_count(const body *b) {
  return b->g ? onnxslim_graph_node_count(b->g) : onnxslim_function_node_count(b->fn);
}
static onnxslim_node *body_node(const body *b, size_t i) {
  return b->g ? onnxslim_graph_node(b->g, i) : onnxslim_function_node(b->fn, i);
}

static int check_graph(ck *c, const onnxslim_graph *g, const scope *outer, const osl_map *opsets);

/* Finds name in the scopes enclosing s (not in s itself). */
static const osl_map_entry *outer_find(const scope *s, const char *name, const scope **where) {
  for (const scope *o = s->parent; o; o = o->parent) {
    const osl_map_entry *e = map_find(&o->values, name);
    if (e) {
      if (where) *where = o;
      return e;
    }
  }
  return NULL;
}

/* Describes where an existing definition comes from, for messages. */
static void describe_def(ck_str *out, const body *b, const osl_map_entry *e) {
  if (def_is_input(e->num)) {
    onnxslim__ck_str_add(out, "%s", b->g ? "a graph input" : "a function input");
  } else if (def_is_init(e->num)) {
    onnxslim__ck_str_add(out, "%s",
                         def_init_sparse(e->num) ? "a sparse initializer" : "an initializer");
  } else {
    onnxslim__ck_str_add(out, "an output of ");
    onnxslim__ck_describe_node(out, body_node(b, (size_t)e->num), (size_t)e->num);
  }
}

/* First pass over the nodes: enters every node output into s->values and
 * reports values defined twice. */
/* How many nodes ahead enter_outputs prefetches. */
#define CK_AHEAD 8

static int enter_outputs(ck *c, const body *b, scope *s) {
  size_t n = body_count(b);
  ck_str why = {0};
  int rc = 0;
  if (n > INT32_MAX) /* node indexes are kept in 32 bits (osl_map_entry.num) */
    return onnxslim__err(ONNXSLIM_ELIMIT, "onnxslim_check: a graph of %zu nodes (at most %d)", n,
                         INT32_MAX);
  for (size_t i = 0; i < n && !rc; i++) {
    const onnxslim_node *node = body_node(b, i);
    if (!node) {
      rc = onnxslim__ck_failed(c);
      break;
    }
    /* the slots of a node's outputs a few nodes ahead (a large map misses
     * the caches: the fetches overlap) */
    const onnxslim_node *ahead = i + CK_AHEAD < n ? body_node(b, i + CK_AHEAD) : NULL;
    for (size_t k = 0, na = ahead ? onnxslim_node_output_count(ahead) : 0; k < na; k++) {
      const char *v = onnxslim_node_output(ahead, k);
      if (v) onnxslim__map_prefetch(&s->values, v);
    }
    size_t nout = onnxslim_node_output_count(node);
    for (size_t k = 0; k < nout && !rc; k++) {
      const char *out = onnxslim_node_output(node, k);
      if (!out) {
        rc = onnxslim__ck_failed(c);
        break;
      }
      if (!out[0]) continue;
      osl_map_entry *e = NULL;
      int put = map_put(&s->values, out, NULL, (int32_t)i, &e);
      if (put < 0) {
        rc = onnxslim__ck_nomem(c);
        break;
      }
      const scope *os = NULL;
      const osl_map_entry *oe = put ? outer_find(s, out, &os) : NULL;
      /* an outer value counts when it is visible at the holding node: a
       * graph input, an initializer or an output of an earlier node */
      if (oe && oe->num >= 0 && (size_t)oe->num >= os->holder) oe = NULL;
      if (put && !oe) continue;
      const char *name = onnxslim_node_name(node);
      if (!name) {
        rc = onnxslim__ck_failed(c);
        break;
      }
      size_t mark = c->path.len;
      onnxslim__ck_push_node(c, node, i, name);
      onnxslim__ck_str_cut(&why, 0);
      if (oe) {
        onnxslim__ck_str_add(&why, "a value of an enclosing graph");
      } else if (e->num == (int64_t)i) {
        onnxslim__ck_str_add(&why, "an earlier output of this node");
      } else {
        describe_def(&why, b, e);
      }
      if (why.oom) {
        rc = onnxslim__ck_nomem(c);
      } else {
        c->subj_what = "output";
        c->subj_name = out;
        rc = onnxslim__ck_problem(c, ONNXSLIM_CHECK_DUPLICATE_OUTPUT,
                                  "output '%s' is already defined as %s", out, why.p);
        c->subj_what = NULL;
      }
      onnxslim__ck_path_cut(c, mark);
    }
  }
  free(why.p);
  return rc;
}

static int check_attr_tensors(ck *c, const onnxslim_attr *a, int type) {
  if (type == ONNXSLIM_ATTR_TENSOR) {
    const onnxslim_tensor *t = onnxslim_attr_tensor(a);
    return t ? onnxslim__check_tensor(c, t) : 0;
  }
  if (type == ONNXSLIM_ATTR_SPARSE_TENSOR) {
    const onnxslim_sparse_tensor *s = onnxslim_attr_sparse_tensor(a);
    return s ? onnxslim__check_sparse(c, s) : 0;
  }
  size_t n = onnxslim_attr_list_count(a);
  for (size_t k = 0; k < n; k++) {
    size_t mark = onnxslim__ck_push(c, "[%zu]", k);
    int rc = 0;
    if (type == ONNXSLIM_ATTR_TENSORS) {
      const onnxslim_tensor *t = onnxslim_attr_tensors(a, k);
      rc = t ? onnxslim__check_tensor(c, t) : onnxslim__ck_failed(c);
    } else {
      const onnxslim_sparse_tensor *s = onnxslim_attr_sparse_tensors(a, k);
      rc = s ? onnxslim__check_sparse(c, s) : onnxslim__ck_failed(c);
    }
    onnxslim__ck_path_cut(c, mark);
    if (rc) return rc;
  }
  return 0;
}

/* Tensor attributes and subgraphs of a node (location: the node). */
/* ONNXSLIM_CHECK_EXTERNAL_LOAD_INPUT: tensor t, value `name` of g, stored
 * in external data and read by a node at an input onnxruntime reads at
 * load (passes/load_inputs.c). */
static int check_load_input(ck *c, const onnxslim_graph *g, const onnxslim_tensor *t,
                            const char *name) {
  if ((c->skip & (1u << ONNXSLIM_CHECK_EXTERNAL_LOAD_INPUT)) || !g ||
      onnxslim_tensor_storage(t) != ONNXSLIM_STORAGE_EXTERNAL)
    return 0;
  size_t k = 0;
  const onnxslim_node *r = onnxslim__load_reader(c->model, g, name, &k);
  if (!r) return 0;
  const char *rn = onnxslim_node_name(r), *op = onnxslim_node_op_type(r);
  if (rn && rn[0])
    return onnxslim__ck_problem(
        c, ONNXSLIM_CHECK_EXTERNAL_LOAD_INPUT,
        "'%s' is in external data but node '%s' (%s) reads it as input %zu when "
        "onnxruntime loads the model: onnxruntime refuses the model (\"Cannot parse "
        "data from external tensors\"); a save with external data keeps it inline",
        name, rn, op, k);
  return onnxslim__ck_problem(
      c, ONNXSLIM_CHECK_EXTERNAL_LOAD_INPUT,
      "'%s' is in external data but a %s node reads it as input %zu when onnxruntime "
      "loads the model: onnxruntime refuses the model (\"Cannot parse data from "
      "external tensors\"); a save with external data keeps it inline",
      name, op, k);
}

static int check_attrs(ck *c, const onnxslim_node *node, scope *s, const osl_map *opsets) {
  size_t n = onnxslim_node_attr_count(node);
  for (size_t j = 0; j < n; j++) {
    const onnxslim_attr *a = onnxslim_node_attr(node, j);
    if (!a) return onnxslim__ck_failed(c);
    int type = onnxslim_attr_type(a);
    if (type != ONNXSLIM_ATTR_TENSOR && type != ONNXSLIM_ATTR_TENSORS &&
        type != ONNXSLIM_ATTR_SPARSE_TENSOR && type != ONNXSLIM_ATTR_SPARSE_TENSORS &&
        type != ONNXSLIM_ATTR_GRAPH && type != ONNXSLIM_ATTR_GRAPHS)
      continue;
    const char *aname = onnxslim_attr_name(a);
    if (!aname) return onnxslim__ck_failed(c);
    size_t mark = onnxslim__ck_push(c, " attribute '%s'", aname);
    int rc = 0;
    if (type == ONNXSLIM_ATTR_GRAPH) {
      const onnxslim_graph *sg = onnxslim_attr_graph(a);
      /* a GRAPH attribute without a value refers to a function attribute */
      c->in_subgraph++;
      if (sg) rc = check_graph(c, sg, s, opsets);
      c->in_subgraph--;
    } else if (type == ONNXSLIM_ATTR_GRAPHS) {
      size_t m = onnxslim_attr_list_count(a);
      for (size_t k = 0; k < m && !rc; k++) {
        size_t mk = onnxslim__ck_push(c, "[%zu]", k);
        const onnxslim_graph *sg = onnxslim_attr_graphs(a, k);
        c->in_subgraph++;
        rc = sg ? check_graph(c, sg, s, opsets) : onnxslim__ck_failed(c);
        c->in_subgraph--;
        onnxslim__ck_path_cut(c, mk);
      }
    } else {
      rc = check_attr_tensors(c, a, type);
      /* a Constant's value is the tensor of its output */
      if (!rc && type == ONNXSLIM_ATTR_TENSOR && strcmp(aname, "value") == 0 &&
          strcmp(onnxslim_node_op_type(node), "Constant") == 0 && !onnxslim_node_domain(node)[0] &&
          onnxslim_node_output_count(node) > 0 && onnxslim_node_output(node, 0)[0] &&
          onnxslim_attr_tensor(a))
        rc = check_load_input(c, onnxslim_node_graph(node), onnxslim_attr_tensor(a),
                              onnxslim_node_output(node, 0));
    }
    onnxslim__ck_path_cut(c, mark);
    if (rc) return rc;
  }
  return 0;
}
/* Second pass: inputs, opsets, attributes and types of every node. */
static int check_nodes(ck *c, const body *b, scope *s, const osl_map *opsets,
                       const osl_map *types) {
  size_t n = body_count(b);
  ck_str why = {0};
  int rc = 0;
  for (size_t i = 0; i < n && !rc; i++) {
    if ((i & 4095) == 4095 && (rc = onnxslim__ck_charge(c, 0)) != 0) break;
    const onnxslim_node *node = body_node(b, i);
    const char *name = node ? onnxslim_node_name(node) : NULL;
    const char *dom = node ? onnxslim_node_domain(node) : NULL;
    if (!name || !dom) {
      rc = onnxslim__ck_failed(c);
      break;
    }
    size_t mark = c->path.len;
    c->pend = node;
    c->pend_index = i;
    c->pend_name = name;

    if (opsets && !map_find(opsets, dom)) {
      const char *op = onnxslim_node_op_type(node);
      rc = onnxslim__ck_problem(
          c, ONNXSLIM_CHECK_OPSET, "domain '%s' of op '%s' has no opset_import%s",
          dom[0] ? dom : "ai.onnx", op ? op : "?", b->g ? "" : " in the function");
    }

    size_t nin = onnxslim_node_input_count(node);
    for (size_t k = 0; k < nin && !rc; k++) {
      const char *in = onnxslim_node_input(node, k);
      if (!in) {
        rc = onnxslim__ck_failed(c);
        break;
      }
      if (!in[0]) continue; /* omitted optional input */
      const osl_map_entry *e = map_find(&s->values, in);
      if (e && e->num < (int64_t)i) continue;
      if (e) {
        /* keyed by the input, not by the producer's index or name */
        c->subj_what = "input";
        c->subj_name = in;
        if (e->num == (int64_t)i) {
          rc = onnxslim__ck_problem(c, ONNXSLIM_CHECK_ORDER,
                                    "input '%s' is an output of this same node", in);
          c->subj_what = NULL;
          continue;
        }
        onnxslim__ck_str_cut(&why, 0);
        onnxslim__ck_describe_node(&why, body_node(b, (size_t)e->num), (size_t)e->num);
        if (why.oom) {
          rc = onnxslim__ck_nomem(c);
          break;
        }
        rc = onnxslim__ck_problem(c, ONNXSLIM_CHECK_ORDER, "input '%s' is produced later, by %s",
                                  in, why.p);
        c->subj_what = NULL;
        continue;
      }
      if (outer_find(s, in, NULL)) continue;
      rc = onnxslim__ck_problem(c, ONNXSLIM_CHECK_UNDEFINED_INPUT,
                                "input '%s' is not defined: no %s or node output has this name%s",
                                in, b->g ? "graph input, initializer" : "function input",
                                s->parent ? " here or in an enclosing graph" : "");
    }

    if (!rc && types) {
      const char *what = NULL;
      int32_t dt = onnxslim__ck_node_out_dtype(c, node, &what);
      const char *out =
          dt && onnxslim_node_output_count(node) > 0 ? onnxslim_node_output(node, 0) : NULL;
      const osl_map_entry *e = out && out[0] ? map_find(types, out) : NULL;
      if (e) {
        const onnxslim_type *ty = e->value;
        int kind = onnxslim_type_kind(ty);
        int32_t et = e->num; /* the element type recorded (or assumed) */
        char b1[32], b2[32];
        if (kind == ONNXSLIM_TYPE_TENSOR && et && et != dt)
          rc = onnxslim__ck_problem(c, ONNXSLIM_CHECK_TYPE,
                                    "%s %s, but its output '%s' is recorded as %s", what,
                                    onnxslim__ck_dtype_str(b1, sizeof b1, dt), out,
                                    onnxslim__ck_dtype_str(b2, sizeof b2, et));
      }
    }

    if (!rc) rc = onnxslim__check_schema(c, node, s, opsets, types != NULL);

    if (!rc) {
      s->holder = i;
      rc = check_attrs(c, node, s, opsets);
    }
    c->pend = NULL;
    onnxslim__ck_path_cut(c, mark);
  }
  s->holder = n;
  free(why.p);
  return rc;
}

/* Records the type of graph input/output/value_info entry `index` in
 * `types` and reports conflicts with earlier entries and with the
 * initializers of g (found in `values`, coded by def_init()). */
static int check_value_info(ck *c, const onnxslim_graph *g, const onnxslim_value_info *vi,
                            const char *what, size_t index, osl_map *types, const osl_map *values) {
  const char *name = onnxslim_value_info_name(vi);
  if (!name) return onnxslim__ck_failed(c);
  if (!name[0]) {
    size_t mark = onnxslim__ck_push(c, " %s[%zu]", what, index);
    int rc = onnxslim__ck_problem(c, ONNXSLIM_CHECK_EMPTY_NAME, "graph %s without a name", what);
    onnxslim__ck_path_cut(c, mark);
    return rc;
  }
  const onnxslim_type *ty = onnxslim_value_info_type(vi);
  int kind = ty ? onnxslim_type_kind(ty) : ONNXSLIM_TYPE_UNKNOWN;
  int32_t et = ty ? info_elem_type(c, vi, ty) : 0;
  if (!c->in_subgraph && strcmp(what, "value_info") != 0 &&
      (kind == ONNXSLIM_TYPE_UNKNOWN || (kind == ONNXSLIM_TYPE_TENSOR && et <= 0))) {
    size_t mark = onnxslim__ck_push(c, " %s '%s'", what, name);
    int rc = onnxslim__ck_problem(c, ONNXSLIM_CHECK_UNTYPED_IO,
                                  kind == ONNXSLIM_TYPE_UNKNOWN
                                      ? "graph %s '%s' has no type"
                                      : "graph %s '%s' is a tensor without element type",
                                  what, name);
    onnxslim__ck_path_cut(c, mark);
    if (rc) return rc;
  }
  if (!ty) return 0; /* no type recorded */
  int tensorish = kind == ONNXSLIM_TYPE_TENSOR || kind == ONNXSLIM_TYPE_SPARSE_TENSOR;
  char b1[32], b2[32];
  size_t mark = onnxslim__ck_push(c, " %s '%s'", what, name);
  int rc = 0;
  const osl_map_entry *ini = map_find(values, name);
  if (ini && def_is_init(ini->num) && kind != ONNXSLIM_TYPE_UNKNOWN) {
    size_t ix = def_init_index(ini->num);
    int sparse = def_init_sparse(ini->num);
    const onnxslim_sparse_tensor *sp = sparse ? onnxslim_graph_sparse_initializer(g, ix) : NULL;
    const onnxslim_tensor *it = sparse ? (sp ? onnxslim_sparse_tensor_values(sp) : NULL)
                                       : onnxslim_graph_initializer(g, ix);
    if (!it) {
      onnxslim__ck_path_cut(c, mark);
      return onnxslim__ck_failed(c);
    }
    int32_t idt = tensor_dtype(c, it);
    const char *noun = sparse ? "sparse initializer" : "initializer";
    if (!tensorish)
      rc = onnxslim__ck_problem(c, ONNXSLIM_CHECK_TYPE, "'%s' is %s here but %s '%s' is a tensor",
                                name, onnxslim__ck_kind_str(kind), noun, name);
    else if (et && idt && et != idt)
      rc = onnxslim__ck_problem(c, ONNXSLIM_CHECK_TYPE,
                                "'%s' has element type %s here but %s '%s' has data type %s", name,
                                onnxslim__ck_dtype_str(b1, sizeof b1, et), noun, name,
                                onnxslim__ck_dtype_str(b2, sizeof b2, idt));
  }
  osl_map_entry *e = NULL;
  int put = rc ? 1 : map_put(types, name, ty, et, &e);
  if (put < 0) rc = onnxslim__ck_nomem(c);
  if (put == 0) {
    const onnxslim_type *prev = e->value;
    int pkind = onnxslim_type_kind(prev);
    int32_t pet = e->num;
    int ptensorish = pkind == ONNXSLIM_TYPE_TENSOR || pkind == ONNXSLIM_TYPE_SPARSE_TENSOR;
    if (kind != ONNXSLIM_TYPE_UNKNOWN && pkind != ONNXSLIM_TYPE_UNKNOWN && kind != pkind)
      rc =
          onnxslim__ck_problem(c, ONNXSLIM_CHECK_TYPE, "'%s' is %s here but %s in an earlier entry",
                               name, onnxslim__ck_kind_str(kind), onnxslim__ck_kind_str(pkind));
    else if (tensorish && ptensorish && et && pet && et != pet)
      rc = onnxslim__ck_problem(
          c, ONNXSLIM_CHECK_TYPE, "'%s' has element type %s here but %s in an earlier entry", name,
          onnxslim__ck_dtype_str(b1, sizeof b1, et), onnxslim__ck_dtype_str(b2, sizeof b2, pet));
  }
  onnxslim__ck_path_cut(c, mark);
  return rc;
}

static int check_graph(ck *c, const onnxslim_graph *g, const scope *outer, const osl_map *opsets) {
  const char *gname = onnxslim_graph_name(g);
  if (!gname) return onnxslim__ck_failed(c);
  /* the main graph starts the path; subgraphs are named by their attribute */
  size_t gmark = outer ? c->path.len : onnxslim__ck_push(c, "graph '%s'", gname);
  scope s = {outer, {0}, 0};
  osl_map types = {0};
  body b = {g, NULL};
  int rc = 0;

  /* maps sized once from the counts: no rehash however large the graph */
  size_t nvals = onnxslim_graph_input_count(g) + onnxslim_graph_initializer_count(g) +
                 onnxslim_graph_sparse_initializer_count(g);
  for (size_t i = 0, nn = onnxslim_graph_node_count(g); i < nn && !rc; i++) {
    const onnxslim_node *node = onnxslim_graph_node(g, i);
    nvals += node ? onnxslim_node_output_count(node) : 0;
    /* the handles grow the model's arena as they are asked for */
    if ((i & 4095) == 4095) rc = onnxslim__ck_charge(c, 0);
  }
  size_t ntypes = onnxslim_graph_input_count(g) + onnxslim_graph_output_count(g) +
                  onnxslim_graph_value_info_count(g);
  if (onnxslim_graph_initializer_count(g) > DEF_INIT_MAX ||
      onnxslim_graph_sparse_initializer_count(g) > DEF_INIT_MAX) {
    rc = onnxslim__err(ONNXSLIM_ELIMIT, "onnxslim_check: a graph of more than %zu initializers",
                       DEF_INIT_MAX);
    if (!c->rc) c->rc = rc;
  } else if (onnxslim__map_reserve(NULL, &s.values, nvals) ||
             onnxslim__map_reserve(NULL, &types, ntypes)) {
    rc = onnxslim__ck_nomem(c);
  }
  int64_t maps = (int64_t)((s.values.cap + types.cap) * sizeof(osl_map_entry));
  if (!rc) rc = onnxslim__ck_charge(c, maps);

  /* graph inputs */
  size_t n = onnxslim_graph_input_count(g);
  for (size_t i = 0; i < n && !rc; i++) {
    const onnxslim_value_info *vi = onnxslim_graph_input(g, i);
    const char *name = vi ? onnxslim_value_info_name(vi) : NULL;
    if (!name) {
      rc = onnxslim__ck_failed(c);
      break;
    }
    if (!name[0]) continue; /* reported by check_value_info */
    int put = map_put(&s.values, name, NULL, DEF_INPUT, NULL);
    if (put < 0) rc = onnxslim__ck_nomem(c);
    if (put == 0) {
      size_t mark = onnxslim__ck_push(c, " input '%s'", name);
      rc = onnxslim__ck_problem(c, ONNXSLIM_CHECK_DUPLICATE_OUTPUT,
                                "graph input '%s' is listed twice", name);
      onnxslim__ck_path_cut(c, mark);
    }
  }

  /* initializers, dense and sparse */
  n = onnxslim_graph_initializer_count(g);
  for (size_t i = 0; i < n && !rc; i++) {
    const onnxslim_tensor *t = onnxslim_graph_initializer(g, i);
    const char *name = t ? onnxslim_tensor_name(t) : NULL;
    if (!name) {
      rc = onnxslim__ck_failed(c);
      break;
    }
    size_t mark = onnxslim__ck_pend_item(c, "initializer", name, i);
    if (!name[0]) {
      rc = onnxslim__ck_problem(c, ONNXSLIM_CHECK_EMPTY_NAME, "initializer without a name");
    } else {
      osl_map_entry *e = NULL;
      int put = map_put(&s.values, name, NULL, def_init(i, 0, 0), &e);
      if (put >= 0) onnxslim__ck_set_dtype(e, tensor_dtype(c, t));
      if (put < 0) rc = onnxslim__ck_nomem(c);
      /* a graph input that is also an initializer is a default value (the
       * first initializer of a name is the one its entry names) */
      if (put == 0 && e->num == DEF_INPUT) e->num = def_init(i, 0, 1);
      else if (put == 0 && !def_is_input(e->num))
        rc = onnxslim__ck_problem(c, ONNXSLIM_CHECK_DUPLICATE_OUTPUT,
                                  "initializer '%s' is defined twice", name);
    }
    if (!rc) rc = onnxslim__check_tensor(c, t);
    if (!rc && name[0]) rc = check_load_input(c, g, t, name);
    c->pend_what = NULL;
    onnxslim__ck_path_cut(c, mark);
  }
  n = onnxslim_graph_sparse_initializer_count(g);
  for (size_t i = 0; i < n && !rc; i++) {
    const onnxslim_sparse_tensor *sp = onnxslim_graph_sparse_initializer(g, i);
    if (!sp) {
      rc = onnxslim__ck_failed(c);
      break;
    }
    const onnxslim_tensor *vals = onnxslim_sparse_tensor_values(sp);
    const char *name = vals ? onnxslim_tensor_name(vals) : "";
    if (!name) {
      rc = onnxslim__ck_failed(c);
      break;
    }
    size_t mark = onnxslim__ck_pend_item(c, "sparse_initializer", name, i);
    if (!name[0]) {
      rc = onnxslim__ck_problem(c, ONNXSLIM_CHECK_EMPTY_NAME, "sparse initializer without a name");
    } else {
      osl_map_entry *e = NULL;
      int put = map_put(&s.values, name, NULL, def_init(i, 1, 0), &e);
      if (put < 0) rc = onnxslim__ck_nomem(c);
      if (put == 0 && e->num == DEF_INPUT) e->num = def_init(i, 1, 1);
      else if (put == 0 && !def_is_input(e->num))
        rc = onnxslim__ck_problem(c, ONNXSLIM_CHECK_DUPLICATE_OUTPUT,
                                  "sparse initializer '%s' is defined twice", name);
    }
    if (!rc) rc = onnxslim__check_sparse(c, sp);
    c->pend_what = NULL;
    onnxslim__ck_path_cut(c, mark);
  }

  /* node outputs */
  if (!rc) rc = enter_outputs(c, &b, &s);

  /* recorded types: inputs, outputs, value_info */
  static const char *const kinds[] = {"input", "output", "value_info"};
  for (int k = 0; k < 3 && !rc; k++) {
    n = k == 0   ? onnxslim_graph_input_count(g)
        : k == 1 ? onnxslim_graph_output_count(g)
                 : onnxslim_graph_value_info_count(g);
    for (size_t i = 0; i < n && !rc; i++) {
      const onnxslim_value_info *vi = k == 0   ? onnxslim_graph_input(g, i)
                                      : k == 1 ? onnxslim_graph_output(g, i)
                                               : onnxslim_graph_value_info(g, i);
      if (!vi) {
        rc = onnxslim__ck_failed(c);
        break;
      }
      rc = check_value_info(c, g, vi, kinds[k], i, &types, &s.values);
      /* the element types known before the nodes are followed */
      const char *vn = rc ? NULL : onnxslim_value_info_name(vi);
      const onnxslim_type *ty = vn && vn[0] ? onnxslim_value_info_type(vi) : NULL;
      if (ty && onnxslim_type_kind(ty) == ONNXSLIM_TYPE_TENSOR)
        onnxslim__ck_set_dtype(map_find(&s.values, vn), info_elem_type(c, vi, ty));
    }
  }

  /* nodes */
  if (!rc) rc = check_nodes(c, &b, &s, opsets, &types);

  /* graph outputs */
  n = onnxslim_graph_output_count(g);
  for (size_t i = 0; i < n && !rc; i++) {
    const onnxslim_value_info *vi = onnxslim_graph_output(g, i);
    const char *name = vi ? onnxslim_value_info_name(vi) : NULL;
    if (!name) {
      rc = onnxslim__ck_failed(c);
      break;
    }
    if (!name[0] || map_find(&s.values, name) || outer_find(&s, name, NULL)) continue;
    size_t mark = onnxslim__ck_push(c, " output '%s'", name);
    rc = onnxslim__ck_problem(
        c, ONNXSLIM_CHECK_OUTPUT_NOT_PRODUCED,
        "graph output '%s' is produced by no node and is not an input or initializer%s", name,
        outer ? " here or in an enclosing graph" : "");
    onnxslim__ck_path_cut(c, mark);
  }

  onnxslim__map_free(&s.values);
  onnxslim__map_free(&types);
  onnxslim__ck_charge(c, -maps);
  onnxslim__ck_path_cut(c, gmark);
  return rc;
}

static int check_function(ck *c, const onnxslim_model *model, const onnxslim_function *fn,
                          size_t index, const osl_map *model_opsets) {
  const char *name = onnxslim_function_name(fn), *dom = onnxslim_function_domain(fn);
  if (!name || !dom) return onnxslim__ck_failed(c);
  size_t gmark = !name[0] ? onnxslim__ck_push(c, "function[%zu]", index)
                 : dom[0] ? onnxslim__ck_push(c, "function '%s' (domain '%s')", name, dom)
                          : onnxslim__ck_push(c, "function '%s'", name);
  scope s = {NULL, {0}, 0};
  osl_map own = {0};
  const osl_map *opsets = model_opsets;
  body b = {NULL, fn};
  int rc = 0;

  /* a function without opset_import of its own uses the model's */
  if (onnxslim_function_opset_count(fn) > 0) {
    rc = onnxslim__ck_load_opsets(c, model, fn, &own);
    opsets = &own;
  }

  size_t n = onnxslim_function_input_count(fn);
  for (size_t i = 0; i < n && !rc; i++) {
    const char *in = onnxslim_function_input(fn, i);
    if (!in) {
      rc = onnxslim__ck_failed(c);
      break;
    }
    if (!in[0]) {
      size_t mark = onnxslim__ck_push(c, " input[%zu]", i);
      rc = onnxslim__ck_problem(c, ONNXSLIM_CHECK_EMPTY_NAME, "function input without a name");
      onnxslim__ck_path_cut(c, mark);
      continue;
    }
    int put = map_put(&s.values, in, NULL, DEF_INPUT, NULL);
    if (put < 0) rc = onnxslim__ck_nomem(c);
    if (put == 0) {
      size_t mark = onnxslim__ck_push(c, " input '%s'", in);
      rc = onnxslim__ck_problem(c, ONNXSLIM_CHECK_DUPLICATE_OUTPUT,
                                "function input '%s' is listed twice", in);
      onnxslim__ck_path_cut(c, mark);
    }
  }
  if (!rc) rc = enter_outputs(c, &b, &s);
  if (!rc) rc = check_nodes(c, &b, &s, opsets, NULL);
  n = onnxslim_function_output_count(fn);
  for (size_t i = 0; i < n && !rc; i++) {
    const char *out = onnxslim_function_output(fn, i);
    if (!out) {
      rc = onnxslim__ck_failed(c);
      break;
    }
    size_t mark = out[0] ? onnxslim__ck_push(c, " output '%s'", out)
                         : onnxslim__ck_push(c, " output[%zu]", i);
    if (!out[0])
      rc = onnxslim__ck_problem(c, ONNXSLIM_CHECK_EMPTY_NAME, "function output without a name");
    else if (!map_find(&s.values, out))
      rc = onnxslim__ck_problem(c, ONNXSLIM_CHECK_OUTPUT_NOT_PRODUCED,
                                "function output '%s' is produced by no node and is not an input",
                                out);
    onnxslim__ck_path_cut(c, mark);
  }
  onnxslim__map_free(&s.values);
  onnxslim__map_free(&own);
  onnxslim__ck_path_cut(c, gmark);
  return rc;
}

static int run_check(onnxslim_check_report **out, const onnxslim_model *model, unsigned skip,
                     unsigned flags, const osl_retype *retype,
                     const onnxslim_check_report *baseline);

int onnxslim_check(onnxslim_check_report **out, const onnxslim_model *model, unsigned int flags) {
  if (out) *out = NULL;
  if (!model || !out)
    return onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_check: NULL %s", model ? "out" : "model");
  if (flags)
    return onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_check: reserved flags 0x%x set", flags);
  return run_check(out, model, 0, 0, NULL, NULL);
}

int onnxslim_check_with(onnxslim_check_report **out, const onnxslim_model *model,
                        const onnxslim_check_options *opts) {
  if (out) *out = NULL;
  if (!model || !out)
    return onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_check_with: NULL %s", model ? "out" : "model");
  unsigned skip = 0, flags = 0;
  const onnxslim_check_report *baseline = NULL;
  if (opts) {
    if (!onnxslim__check_options_size(opts->version))
      return onnxslim__err_options_version("onnxslim_check_with", "check options", opts->version,
                                           ONNXSLIM_CHECK_OPTIONS_VERSION);
    if (opts->flags & ~ONNXSLIM_CHECK_VERIFY_CHECKSUMS)
      return onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_check_with: reserved flags 0x%x set",
                           opts->flags & ~ONNXSLIM_CHECK_VERIFY_CHECKSUMS);
    flags = opts->flags;
    if (opts->n_skip && !opts->skip)
      return onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_check_with: skip is NULL, n_skip %zu",
                           opts->n_skip);
    for (size_t i = 0; i < opts->n_skip; i++) {
      int code = opts->skip[i];
      if (code < 1 || code > ONNXSLIM_CHECK_CODE_MAX)
        return onnxslim__err(ONNXSLIM_EINVAL,
                             "onnxslim_check_with: skip[%zu] = %d is no check code", i, code);
      skip |= 1u << code;
    }
    if (opts->version >= 2) baseline = opts->baseline;
  }
  return run_check(out, model, skip, flags, NULL, baseline);
}

/* ---- model-local functions: duplicates and recursion -------------------------- */

/* The overload of a FunctionProto (field 13) or NodeProto (field 8), IR
 * version 10: unknown to the bundled onnx.proto, read from the kept field;
 * "" when absent. */
static const char *overload_of(const void *handle, uint32_t number) {
  osl_field *f = onnxslim__msg_last((const osl_msg *)handle, number);
  if (!f || f->wt != OSL_WT_LEN) return "";
  return onnxslim__field_cstr(((const osl_msg *)handle)->model, f);
}
#define OSL_FUNCTION_OVERLOAD 13
#define OSL_NODE_OVERLOAD 8

/* The key of a function or of a call: domain ("" for ai.onnx), name and
 * overload, \x1f between them. */
static void def_key(ck_str *s, const char *dom, const char *name, const char *ov) {
  onnxslim__ck_str_add(s, "%s\x1f%s\x1f%s", is_onnx_domain(dom) ? "" : dom, name, ov);
}

/* The call graph of the model's functions: the callees of function i are
 * to[from[i]] .. to[from[i + 1] - 1]. */
typedef struct fn_graph {
  osl_map idx; /* key -> index of its first definition (num) */
  ck_str key;  /* scratch */
  size_t *to;
  size_t n, cap;
  int oom;
} fn_graph;

static void add_calls_of_graph(fn_graph *fg, const onnxslim_graph *g, int depth);
/* Adds the function node n calls, if any, and those of its subgraphs. */
static void add_calls_of_node(fn_graph *fg, const onnxslim_node *n, int depth) {
  const char *op = onnxslim_node_op_type(n), *dom = onnxslim_node_domain(n);
  const char *ov = overload_of(n, OSL_NODE_OVERLOAD);
  if (op && dom && ov) {
    onnxslim__ck_str_cut(&fg->key, 0);
    def_key(&fg->key, dom, op, ov);
    osl_map_entry *e = fg->key.oom ? NULL : map_find(&fg->idx, fg->key.p);
    if (fg->key.oom) fg->oom = 1;
    if (e) {
      if (fg->n == fg->cap) {
        size_t cap = fg->cap ? fg->cap * 2 : 64;
        size_t *to = realloc(fg->to, cap * sizeof *to);
        if (!to) {
          fg->oom = 1;
          return;
        }
        fg->to = to;
        fg->cap = cap;
      }
      fg->to[fg->n++] = (size_t)e->num;
    }
  }
  if (depth > 64) return; /* the loader bounds nesting too */
  for (size_t j = 0; j < onnxslim_node_subgraph_count(n); j++)
    add_calls_of_graph(fg, onnxslim_node_subgraph(n, j), depth + 1);
}
static void add_calls_of_graph(fn_graph *fg, const onnxslim_graph *g, int depth) {
  for (size_t i = 0; g && i < onnxslim_graph_node_count(g); i++)
    add_calls_of_node(fg, onnxslim_graph_node(g, i), depth);
}

static size_t push_function(ck *c, const onnxslim_function *fn, size_t index) {
  const char *name = onnxslim_function_name(fn), *dom = onnxslim_function_domain(fn);
  return !name[0] ? onnxslim__ck_push(c, "function[%zu]", index)
         : dom[0] ? onnxslim__ck_push(c, "function '%s' (domain '%s')", name, dom)
                  : onnxslim__ck_push(c, "function '%s'", name);
}

/* ONNXSLIM_CHECK_FUNCTION: two functions with one (domain, name, overload)
 * key; a function whose body calls itself, directly or through other
 * functions (onnx's checker refuses both; a runtime that inlines functions
 * would never end). Linear in the number of functions and of the nodes of
 * their bodies: the keys go into a map, the cycles are the strongly
 * connected components of the call graph (Tarjan's algorithm, iterative). */
static int check_function_defs(ck *c, const onnxslim_model *model) {
  size_t nf = onnxslim_model_function_count(model);
  if (nf == 0 || (c->skip & (1u << ONNXSLIM_CHECK_FUNCTION))) return 0;
  int rc = 0;
  fn_graph fg = {0};
  ck_str keys = {0};
  /* one block: from (nf + 1), at (nf), then Tarjan's index, low, stack,
   * the DFS's frames (function, next edge) and the SCC ids */
  size_t *mem = malloc((nf + 1 + nf + 4 * nf + 2 * nf + nf) * sizeof *mem);
  unsigned char *on_stack = calloc(nf, 1);
  if (!mem || !on_stack) {
    rc = onnxslim__ck_nomem(c);
    goto done;
  }
  size_t *from = mem, *at = from + nf + 1, *index = at + nf, *low = index + nf;
  size_t *stack = low + nf, *frame_fn = stack + nf, *frame_edge = frame_fn + nf;
  size_t *scc = frame_edge + nf;
  for (size_t i = 0; i < nf; i++) {
    const onnxslim_function *fn = onnxslim_model_function(model, i);
    if (!fn) {
      rc = onnxslim__ck_failed(c);
      goto done;
    }
    at[i] = keys.len;
    def_key(&keys, onnxslim_function_domain(fn), onnxslim_function_name(fn),
            overload_of(fn, OSL_FUNCTION_OVERLOAD));
    onnxslim__ck_str_add(&keys, "%c", 0); /* keys are NUL-separated in one block */
  }
  if (keys.oom) {
    rc = onnxslim__ck_nomem(c);
    goto done;
  }
  rc = onnxslim__ck_charge(c, (int64_t)(block_cost(keys.cap) + 2 * nf * sizeof(osl_map_entry) +
                                        block_cost((10 * nf + 1) * sizeof *mem)));
  if (!rc && onnxslim__map_reserve(NULL, &fg.idx, nf)) rc = onnxslim__ck_nomem(c);
  /* duplicates: a key already in the map */
  for (size_t j = 0; j < nf && !rc; j++) {
    osl_map_entry *e = NULL;
    int r = map_put(&fg.idx, keys.p + at[j], NULL, (int32_t)j, &e);
    if (r < 0) {
      rc = onnxslim__ck_nomem(c);
      break;
    }
    if (r == 1) continue;
    const onnxslim_function *fj = onnxslim_model_function(model, j);
    size_t mark = push_function(c, fj, j);
    const char *ov = overload_of(fj, OSL_FUNCTION_OVERLOAD);
    rc = onnxslim__ck_problem(c, ONNXSLIM_CHECK_FUNCTION,
                              "function '%s'%s%s%s is defined twice (also function[%zu])",
                              onnxslim_function_name(fj), ov[0] ? " (overload '" : "", ov,
                              ov[0] ? "')" : "", (size_t)e->num);
    onnxslim__ck_str_cut(&c->path, mark);
  }
  if (rc) goto done;
  /* the call graph */
  for (size_t i = 0; i < nf && !fg.oom; i++) {
    const onnxslim_function *fn = onnxslim_model_function(model, i);
    from[i] = fg.n;
    for (size_t k = 0; k < onnxslim_function_node_count(fn); k++)
      add_calls_of_node(&fg, onnxslim_function_node(fn, k), 0);
  }
  from[nf] = fg.n;
  if (fg.oom) {
    rc = onnxslim__ck_nomem(c);
    goto done;
  }
  rc = onnxslim__ck_charge(c, (int64_t)block_cost(fg.cap * sizeof *fg.to));
  if (rc) goto done;
  /* Tarjan: index[v] 0 = not visited yet, else its visit order + 1 */
  size_t order = 0, sp = 0, nscc = 0;
  for (size_t i = 0; i < nf; i++) index[i] = 0;
  for (size_t root = 0; root < nf; root++) {
    if (index[root]) continue;
    size_t depth = 0;
    frame_fn[depth] = root;
    frame_edge[depth] = from[root];
    index[root] = low[root] = ++order;
    stack[sp++] = root;
    on_stack[root] = 1;
    while (1) {
      size_t v = frame_fn[depth];
      if (frame_edge[depth] < from[v + 1]) {
        size_t w = fg.to[frame_edge[depth]++];
        if (!index[w]) {
          index[w] = low[w] = ++order;
          stack[sp++] = w;
          on_stack[w] = 1;
          depth++;
          frame_fn[depth] = w;
          frame_edge[depth] = from[w];
        } else if (on_stack[w] && index[w] < low[v]) {
          low[v] = index[w];
        }
        continue;
      }
      if (low[v] == index[v]) { /* v is the root of a component */
        size_t w;
        do {
          w = stack[--sp];
          on_stack[w] = 0;
          scc[w] = nscc;
        } while (w != v);
        nscc++;
      }
      if (depth == 0) break;
      depth--;
      size_t u = frame_fn[depth];
      if (low[v] < low[u]) low[u] = low[v];
    }
  }
  /* a function is on a cycle when it calls itself, or its component has
   * another function: then it calls one of them directly */
  for (size_t i = 0; i < nf && !rc; i++) {
    size_t self = 0, via = SIZE_MAX, others = 0;
    for (size_t e = from[i]; e < from[i + 1]; e++) {
      size_t w = fg.to[e];
      if (w == i) self = 1;
      else if (scc[w] == scc[i]) {
        others = 1;
        if (via == SIZE_MAX) via = w;
      }
    }
    if (!self && !others) continue;
    const onnxslim_function *fn = onnxslim_model_function(model, i);
    size_t mark = push_function(c, fn, i);
    if (self)
      rc = onnxslim__ck_problem(c, ONNXSLIM_CHECK_FUNCTION, "function '%s' calls itself",
                                onnxslim_function_name(fn));
    else
      rc = onnxslim__ck_problem(
          c, ONNXSLIM_CHECK_FUNCTION, "function '%s' calls itself through function '%s'",
          onnxslim_function_name(fn), onnxslim_function_name(onnxslim_model_function(model, via)));
    onnxslim__ck_str_cut(&c->path, mark);
  }
done:
  free(mem);
  free(on_stack);
  free(keys.p);
  free(fg.key.p);
  free(fg.to);
  onnxslim__map_free(&fg.idx);
  return rc;
}

static int run_check(onnxslim_check_report **out, const onnxslim_model *model, unsigned skip,
                     unsigned flags, const osl_retype *retype,
                     const onnxslim_check_report *baseline) {
  ck c = {0};
  ck_base base = {0};
  c.skip = skip;
  c.flags = flags;
  c.model = model;
  c.retype = retype;
  if (baseline) {
    int brc = onnxslim__ck_base_build(&base, baseline, skip);
    if (!brc) brc = onnxslim__ck_charge(&c, (int64_t)block_cost((base.mask + 1) * sizeof(ck_slot)));
    if (brc) {
      free(base.slots);
      onnxslim__mem_release(model, c.used);
      return brc;
    }
    c.base = &base;
  }
  c.rep = calloc(1, sizeof *c.rep);
  if (!c.rep) {
    free(base.slots);
    onnxslim__mem_release(model, c.used);
    return onnxslim__err_nomem("checking the model");
  }
  osl_map opsets = {0};
  int rc = onnxslim__ck_load_opsets(&c, model, NULL, &opsets);
  /* IR versions before 3 had no opset_import: the default domain is implied */
  const osl_map *use_opsets =
      onnxslim_model_opset_count(model) == 0 && onnxslim_model_ir_version(model) < 3 ? NULL
                                                                                     : &opsets;
  if (!rc) {
    const onnxslim_graph *g = onnxslim_model_graph(model);
    if (g) rc = check_graph(&c, g, NULL, use_opsets);
    else if (onnxslim_error_last_code() != ONNXSLIM_ENOTFOUND) rc = onnxslim__ck_failed(&c);
  }
  size_t nf = onnxslim_model_function_count(model);
  for (size_t i = 0; i < nf && !rc; i++) {
    const onnxslim_function *fn = onnxslim_model_function(model, i);
    rc = fn ? check_function(&c, model, fn, i, use_opsets) : onnxslim__ck_failed(&c);
  }
  if (!rc) rc = check_function_defs(&c, model);
  onnxslim__map_free(&opsets);
  free(c.path.p);
  free(c.msg.p);
  free(c.chunk);
  free(c.key.p);
  free(c.segs);
  free(base.slots);
  onnxslim__map_free(&c.fns);
  free(c.fnkeys);
  onnxslim__mem_release(model, c.used); /* the report is the caller's now */
  if (!rc && c.note.oom) rc = onnxslim__ck_nomem(&c);
  c.rep->note = c.note.p;
  if (rc) {
    onnxslim_check_report_free(c.rep);
    return c.rc ? c.rc : rc;
  }
  *out = c.rep;
  return 0;
}

/* ---- schema checks of edits (passes/passes.h) ------------------------------------ */

/* The version the model imports for a domain index of the tables, -1 when
 * none (0 for the default domain of IR versions before 3, which had no
 * opset_import: then nothing is checked either). */
static int64_t imported_opset(const onnxslim_model *m, int d) {
  size_t n = onnxslim_model_opset_count(m);
  for (size_t i = 0; i < n; i++) {
    const char *dom = NULL;
    int64_t v = 0;
    if (onnxslim_model_opset(m, i, &dom, &v) == 0 && onnxslim__opschema_domain(dom ? dom : "") == d)
      return v;
  }
  return -1;
}

/* The element type of a value of g known without inference: an
 * initializer's data type, else a tensor value info's element type; 0. */
static int32_t known_dtype(const onnxslim_graph *g, const char *name) {
  const onnxslim_tensor *t = onnxslim_graph_find_initializer(g, name);
  if (t) return onnxslim_tensor_dtype(t);
  const onnxslim_value_info *vi = onnxslim_graph_find_value_info(g, name);
  const onnxslim_type *ty = vi ? onnxslim_value_info_type(vi) : NULL;
  if (ty && onnxslim_type_kind(ty) == ONNXSLIM_TYPE_TENSOR) return onnxslim_type_dtype(ty);
  return 0;
}

int onnxslim__check_cast_edit(const onnxslim_model *m, int32_t from, int32_t to) {
  char b1[32];
  int64_t opset = imported_opset(m, 0);
  if (opset < 0 || opset > onnxslim__opschema_domain_max(0)) return 0; /* cannot tell */
  const osl_op_schema *sc = onnxslim__opschema_find(0, "Cast", opset, NULL, NULL);
  if (!sc)
    return onnxslim__err(ONNXSLIM_EMODEL, "a Cast is not valid at opset %" PRId64 " [unknown_op]",
                         opset);
  const osl_op_attr *a = onnxslim__opschema_attr(sc, "to");
  if (a && a->type != ONNXSLIM_ATTR_INT)
    return onnxslim__err(ONNXSLIM_EMODEL,
                         "attribute 'to' of Cast-%d (opset %" PRId64
                         ") is a STRING; a Cast with an integer 'to' needs opset 6 [attr_type]",
                         (int)sc->since, opset);
  const osl_op_formal *fin = osl_op_inputs(sc), *fout = osl_op_outputs(sc);
  const osl_op_constraint *tc = osl_op_constraints(sc);
  struct {
    int32_t dt;
    const osl_op_formal *f;
    const char *what;
  } v[2] = {{from, &fin[0], "input"}, {to, &fout[0], "'to'"}};
  for (int i = 0; i < 2; i++) {
    if (v[i].dt <= 0 || v[i].f->constraint >= sc->n_tc) continue;
    const osl_op_constraint *c = &tc[v[i].f->constraint];
    if (v[i].dt < 32 && (c->dtype_mask & (1u << v[i].dt))) continue;
    return onnxslim__err(ONNXSLIM_EMODEL,
                         "Cast %s %s: %s of Cast-%d does not allow it at opset %" PRId64
                         " [type_constraint]",
                         v[i].what, onnxslim__ck_dtype_str(b1, sizeof b1, v[i].dt),
                         OSL_OPS_STR(c->name), (int)sc->since, opset);
  }
  return 0;
}

int onnxslim__check_reader_edit(const onnxslim_graph *g, const onnxslim_node *node, size_t index,
                                int32_t dt) {
  char b1[32], b2[32];
  const onnxslim_model *m = onnxslim_graph_model(g);
  const char *op = onnxslim_node_op_type(node), *dom = onnxslim_node_domain(node);
  int d = m && op && dom ? onnxslim__opschema_domain(dom) : -1;
  if (d < 0 || dt <= 0) return 0;
  int64_t opset = imported_opset(m, d);
  if (opset < 0 || opset > onnxslim__opschema_domain_max(d)) return 0;
  const osl_op_schema *sc = onnxslim__opschema_find(d, op, opset, NULL, NULL);
  if (!sc) return 0; /* the node is wrong already: not this edit's doing */
  const osl_op_formal *fin = osl_op_inputs(sc), *f = onnxslim__ck_formal_at(fin, sc->n_in, index);
  if (!f) return 0;
  const char *name = onnxslim_node_name(node);
  if (!name || !name[0]) name = op;
  if (f->constraint == OSL_OP_NONE) {
    int want = onnxslim__ops_type_dtype[f->type];
    if (want && want != dt)
      return onnxslim__err(
          ONNXSLIM_EMODEL,
          "node '%s' input %zu ('%s' of %s) would be %s, the schema (opset %" PRId64
          ") wants %s [type_constraint]",
          name, index, OSL_OPS_STR(f->name), op, onnxslim__ck_dtype_str(b1, sizeof b1, dt), opset,
          onnxslim__ck_op_type_name(f->type));
    return 0;
  }
  if (f->constraint >= sc->n_tc) return 0;
  const osl_op_constraint *c = &osl_op_constraints(sc)[f->constraint];
  if (!c->dtype_mask) return 0;
  if (dt >= 32 || !(c->dtype_mask & (1u << dt)))
    return onnxslim__err(ONNXSLIM_EMODEL,
                         "node '%s' input %zu ('%s' of %s) would be %s, which %s does not allow at "
                         "opset %" PRId64 " [type_constraint]",
                         name, index, OSL_OPS_STR(f->name), op,
                         onnxslim__ck_dtype_str(b1, sizeof b1, dt), OSL_OPS_STR(c->name), opset);
  if (f->option == OSL_OP_VARIADIC && !f->homogeneous) return 0;
  /* the other inputs bound to the same constraint */
  size_t nin = onnxslim_node_input_count(node);
  for (size_t k = 0; k < nin; k++) {
    const osl_op_formal *fk = onnxslim__ck_formal_at(fin, sc->n_in, k);
    const char *in = onnxslim_node_input(node, k);
    if (k == index || !fk || fk->constraint != f->constraint || !in || !in[0]) continue;
    if (fk->option == OSL_OP_VARIADIC && !fk->homogeneous) continue;
    int32_t other = known_dtype(g, in);
    if (other > 0 && other != dt)
      return onnxslim__err(ONNXSLIM_EMODEL,
                           "node '%s' input %zu ('%s' of %s) would be %s, but input %zu '%s' is %s "
                           "and %s needs one type [type_constraint]",
                           name, index, OSL_OPS_STR(f->name), op,
                           onnxslim__ck_dtype_str(b1, sizeof b1, dt), k, in,
                           onnxslim__ck_dtype_str(b2, sizeof b2, other), OSL_OPS_STR(c->name));
  }
  return 0;
}

int32_t onnxslim__known_dtype(const onnxslim_graph *g, const char *name) {
  return known_dtype(g, name);
}

int onnxslim__check_retype_edit(const onnxslim_model *m, const osl_retype *retype, const char *what,
                                const char *hint) {
  /* only the type constraints are reported (the other kinds are not this
   * edit's doing); every type is still followed through the nodes */
  unsigned skip = ~(1u << ONNXSLIM_CHECK_TYPE_CONSTRAINT);
  onnxslim_check_report *before = NULL, *after = NULL;
  int rc = run_check(&before, m, skip, 0, NULL, NULL);
  /* only the problems the retyping adds (linear in the number of problems) */
  if (!rc) rc = run_check(&after, m, skip, 0, retype, before);
  size_t fresh = rc ? 0 : after->count;
  if (fresh) {
    const ck_item *it = &after->items[0];
    char more[64] = "";
    if (fresh > 1)
      snprintf(more, sizeof more, " (and %zu more problem%s)", fresh - 1, fresh > 2 ? "s" : "");
    rc = onnxslim__err(ONNXSLIM_EMODEL, "%s: %s: %s [%s]%s%s%s", what, it->loc, it->msg,
                       onnxslim__ck_codes[it->code].name, more, hint && hint[0] ? "; " : "",
                       hint ? hint : "");
  }
  onnxslim_check_report_free(before);
  onnxslim_check_report_free(after);
  return rc;
}
