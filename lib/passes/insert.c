/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - node insertion on edges, built on the public handle API,
 * plus two internal helpers that keep a batch of insertions linear in the
 * graph's size: the new node is placed next to a node handle (no node
 * index, so the graph's queued edits stay queued), and graph inputs are
 * found through the graph's index.
 */
#include <stdlib.h>
#include <string.h>

#include "onnx.pb.h"

#include "passes/passes.h"

/* An insertion, as its memory limit error names it. */
#define INSERT "inserting a node"

static int is_graph_input(const onnxslim_graph *g, const char *name) {
  osl_msg *const *vi;
  size_t n = onnxslim__graph_value_infos((osl_msg *)g, name, &vi);
  for (size_t i = 0; i < n; i++)
    if (vi[i]->fnum == onnx_GraphProto_input_tag) return 1;
  return 0;
}

/* Creates the node right before (after = 0) or right after node `anchor`. */
static int add_node_near(onnxslim_graph *g, onnxslim_node *anchor, int after, const char *op_type,
                         const char *domain, const char *name, const char *in, const char *out_name,
                         onnxslim_node **out) {
  const char *ins[1] = {in}, *outs[1] = {out_name};
  return onnxslim__graph_add_node_near((osl_msg *)g, (osl_msg *)anchor, after, op_type, domain,
                                       name, ins, 1, outs, 1, (osl_msg **)out);
}

/* Does subgraph g define `name` itself (so uses inside refer to its own)? */
static int defines(const onnxslim_graph *g, const char *name) {
  return is_graph_input(g, name) || onnxslim_graph_find_initializer(g, name) ||
         onnxslim_graph_producer(g, name);
}

/* Rewires node n to read `to` where it read `from`: its inputs and the
 * captures of its subgraphs. */
static int rewire(onnxslim_node *n, const char *from, const char *to) {
  int rc = 0;
  for (size_t k = 0; k < onnxslim_node_input_count(n) && !rc; k++)
    if (strcmp(onnxslim_node_input(n, k), from) == 0) rc = onnxslim_node_set_input(n, k, to);
  for (size_t j = 0; j < onnxslim_node_subgraph_count(n) && !rc; j++) {
    onnxslim_graph *sub = onnxslim_node_subgraph(n, j);
    if (!defines(sub, from)) rc = onnxslim_graph_rename_value(sub, from, to);
  }
  return rc;
}

/* Gives the new edge `edge` a copy of the original edge's value info, and
 * the new node's output `out_name` element type `cast_to` (>= 0). */
static int copy_type(onnxslim_graph *g, const char *orig, const char *edge, const char *out_name,
                     int32_t cast_to) {
  onnxslim_value_info *vi = onnxslim_graph_find_value_info(g, orig);
  if (!vi) return 0; /* nothing known about this edge */
  onnxslim_type *ty = onnxslim_value_info_type(vi);
  onnxslim_value_info *nv = NULL;
  int rc = onnxslim_graph_add_value_info(g, edge, &nv);
  if (!rc && ty) rc = onnxslim_value_info_set_type(nv, ty);
  if (!rc && cast_to >= 0) {
    onnxslim_value_info *ov = onnxslim_graph_find_value_info(g, out_name);
    rc = ov ? onnxslim_value_info_set_dtype(ov, cast_to) : 0;
  }
  return rc;
}

/* A name unused in the model: `wanted` if given, else base + sep + suffix,
 * made unique by onnxslim_model_unique_name(). */
static int fresh(onnxslim_model *m, const char *wanted, const char *base, const char *sep,
                 const char *suffix, const char **out) {
  if (wanted) return onnxslim_model_unique_name(m, wanted, out);
  char *buf = malloc(strlen(base) + strlen(sep) + strlen(suffix) + 1);
  if (!buf) return onnxslim__err_nomem(NULL);
  strcpy(buf, base);
  strcat(buf, sep);
  strcat(buf, suffix);
  int rc = onnxslim_model_unique_name(m, buf, out);
  free(buf);
  return rc;
}

static int insert_after(onnxslim_graph *g, const char *value, const char *op_type,
                        const char *domain, onnxslim_node *const *consumers, size_t n_consumers,
                        const char *fresh_name, int32_t cast_to, onnxslim_node **out) {
  if (out) *out = NULL;
  if (!g || !value || !op_type || (!consumers && n_consumers))
    return onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_insert_after: NULL argument");
  if (!value[0])
    return onnxslim__err(ONNXSLIM_ENOTFOUND,
                         "onnxslim_insert_after: the empty name is no value (it marks an omitted "
                         "input or output)");
  onnxslim_model *m = onnxslim_graph_model(g);
  if (!m) return ONNXSLIM_EINVAL;
  /* gather what the edit will need before changing anything */
  onnxslim_node *producer = onnxslim_graph_producer(g, value);
  size_t nc = onnxslim_graph_consumer_count(g, value);
  if (!producer && !nc && !onnxslim_graph_find_initializer(g, value) && !is_graph_input(g, value))
    return onnxslim__err(ONNXSLIM_ENOTFOUND, "no value '%s' in graph '%s'", value,
                         onnxslim_graph_name(g));
  /* the consumers, and (when some are chosen) a set of them: one lookup
   * per chosen node, not a scan; both count against max_memory */
  onnxslim_node **all = onnxslim__mem_alloc(m, (nc ? nc : 1) * sizeof *all, INSERT);
  if (!all) return onnxslim_error_last_code();
  for (size_t i = 0; i < nc; i++) all[i] = onnxslim_graph_consumer(g, value, i);
  osl_map set = {0};
  int rc = n_consumers ? onnxslim__mem_map_reserve(m, &set, nc, INSERT) : 0;
  for (size_t i = 0; i < nc && n_consumers && rc >= 0; i++) {
    osl_map_entry *e;
    rc = onnxslim__mem_map_add_ptr(m, &set, all[i], &e, INSERT);
  }
  if (rc > 0) rc = 0;
  for (size_t i = 0; i < n_consumers && !rc; i++) {
    osl_map_entry *e = consumers[i] ? onnxslim__map_find_ptr(&set, consumers[i]) : NULL;
    if (!e)
      rc = onnxslim__err(ONNXSLIM_EINVAL, "node '%s' does not read value '%s'",
                         consumers[i] ? onnxslim_node_name(consumers[i]) : "(null)", value);
    else e->num = 1; /* chosen */
  }
  int takeover = producer && (n_consumers == 0 || n_consumers == nc);
  onnxslim_node *const *chosen = all;
  size_t n_chosen = nc;
  if (n_consumers && !rc) {
    /* the chosen ones, in node order (the order of `all`) */
    size_t k = 0;
    for (size_t i = 0; i < nc; i++) {
      const osl_map_entry *e = onnxslim__map_find_ptr(&set, all[i]);
      if (e && e->num) all[k++] = all[i];
    }
    n_chosen = k;
  }
  onnxslim__mem_map_free(m, &set);
  /* a Cast the schemas at the model's opset forbid is refused, unchanged:
   * the Cast itself, and each chosen consumer reading `to` */
  if (!rc && cast_to >= 0)
    rc = onnxslim__check_cast_edit(m, onnxslim__known_dtype(g, value), cast_to);
  for (size_t i = 0; i < n_chosen && !rc && cast_to >= 0; i++)
    for (size_t k = 0; k < onnxslim_node_input_count(chosen[i]) && !rc; k++)
      if (strcmp(onnxslim_node_input(chosen[i], k), value) == 0)
        rc = onnxslim__check_reader_edit(g, chosen[i], k, cast_to);
  const char *edge = NULL, *node_name = NULL;
  if (!rc) rc = fresh(m, fresh_name, value, "", takeover ? "_pre" : "_out", &edge);
  if (!rc) rc = fresh(m, NULL, value, "_", op_type, &node_name);
  /* the new node goes right after the producer, else right before the
   * first chosen consumer in node order, else first in the graph */
  onnxslim_node *first = NULL;
  for (size_t i = 0; i < n_chosen && !rc; i++)
    if (!first || onnxslim__msg_order_cmp((osl_msg *)chosen[i], (osl_msg *)first) < 0)
      first = chosen[i];
  onnxslim_node *node = NULL;
  if (!rc && takeover) {
    /* the producer writes the fresh edge; the new node takes over `value` */
    for (size_t k = 0; k < onnxslim_node_output_count(producer) && !rc; k++)
      if (strcmp(onnxslim_node_output(producer, k), value) == 0)
        rc = onnxslim_node_set_output(producer, k, edge);
    if (!rc) rc = add_node_near(g, producer, 1, op_type, domain, node_name, edge, value, &node);
    if (!rc) rc = copy_type(g, value, edge, value, cast_to);
  } else if (!rc) {
    if (producer) {
      rc = add_node_near(g, producer, 1, op_type, domain, node_name, value, edge, &node);
    } else if (first) {
      rc = add_node_near(g, first, 0, op_type, domain, node_name, value, edge, &node);
    } else {
      const char *in[1] = {value}, *outs[1] = {edge};
      rc = onnxslim_graph_add_node(g, 0, op_type, domain, node_name, in, 1, outs, 1, &node);
    }
    /* last reader first: each leaves the value's reader list (kept in node
     * order) at its end, so rewiring many readers stays linear */
    for (size_t i = n_chosen; i-- > 0 && !rc;) rc = rewire(chosen[i], value, edge);
    if (!rc) rc = copy_type(g, value, edge, edge, cast_to);
  }
  if (!rc && cast_to >= 0) rc = onnxslim_node_set_attr_int(node, "to", cast_to);
  onnxslim__mem_free(m, all);
  if (!rc && out) *out = node;
  return rc;
}

int onnxslim_insert_options_init(onnxslim_insert_options *opts, unsigned int version) {
  if (!opts) return onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_insert_options_init: opts is NULL");
  if (version < 1 || version > ONNXSLIM_INSERT_OPTIONS_VERSION)
    return onnxslim__err_options_version("onnxslim_insert_options_init", "insert options", version,
                                         ONNXSLIM_INSERT_OPTIONS_VERSION);
  onnxslim_insert_options d = ONNXSLIM_INSERT_OPTIONS_INIT;
  d.version = version;
  *opts = d; /* version 1 is the whole struct */
  return 0;
}

/* opts (NULL: the defaults) checked and copied to *o; 0 or ONNXSLIM_EINVAL.
 * `before`: a *_before form, which takes no consumer list. */
static int insert_opts(const onnxslim_insert_options *opts, onnxslim_insert_options *o, int before,
                       const char *fn) {
  onnxslim_insert_options d = ONNXSLIM_INSERT_OPTIONS_INIT;
  *o = d;
  if (!opts) return 0;
  if (opts->version < 1 || opts->version > ONNXSLIM_INSERT_OPTIONS_VERSION)
    return onnxslim__err_options_version(fn, "insert options", opts->version,
                                         ONNXSLIM_INSERT_OPTIONS_VERSION);
  *o = *opts;
  if (before && (o->consumers || o->n_consumers))
    return onnxslim__err(ONNXSLIM_EINVAL,
                         "%s rewires its one consumer: the options' consumer list must be empty",
                         fn);
  return 0;
}

int onnxslim_insert_after_with(onnxslim_graph *graph, const char *value, const char *op_type,
                               const char *domain, const onnxslim_insert_options *opts,
                               onnxslim_node **out) {
  onnxslim_insert_options o;
  if (out) *out = NULL;
  int rc = insert_opts(opts, &o, 0, "onnxslim_insert_after");
  if (rc) return rc;
  return insert_after(graph, value, op_type, domain, o.consumers, o.n_consumers, o.fresh_name, -1,
                      out);
}

int onnxslim_insert_cast_after_with(onnxslim_graph *graph, const char *value, int32_t to,
                                    const onnxslim_insert_options *opts, onnxslim_node **out) {
  onnxslim_insert_options o;
  if (out) *out = NULL;
  int rc = insert_opts(opts, &o, 0, "onnxslim_insert_cast_after");
  if (rc) return rc;
  if (to < 0) return onnxslim__err(ONNXSLIM_EINVAL, "invalid Cast target type %d", (int)to);
  return insert_after(graph, value, "Cast", NULL, o.consumers, o.n_consumers, o.fresh_name, to,
                      out);
}

int onnxslim_insert_after(onnxslim_graph *graph, const char *value, const char *op_type,
                          const char *domain, onnxslim_node *const *consumers, size_t n_consumers,
                          const char *fresh_name, onnxslim_node **out) {
  onnxslim_insert_options o = {ONNXSLIM_INSERT_OPTIONS_VERSION, consumers, n_consumers, fresh_name};
  return onnxslim_insert_after_with(graph, value, op_type, domain, &o, out);
}

int onnxslim_insert_cast_after(onnxslim_graph *graph, const char *value, int32_t to,
                               onnxslim_node *const *consumers, size_t n_consumers,
                               const char *fresh_name, onnxslim_node **out) {
  onnxslim_insert_options o = {ONNXSLIM_INSERT_OPTIONS_VERSION, consumers, n_consumers, fresh_name};
  return onnxslim_insert_cast_after_with(graph, value, to, &o, out);
}

static int insert_before(onnxslim_graph *g, onnxslim_node *consumer, size_t input_index,
                         const char *op_type, const char *domain, const char *fresh_name,
                         int32_t cast_to, onnxslim_node **out) {
  if (out) *out = NULL;
  if (!g || !consumer || !op_type)
    return onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_insert_before: NULL argument");
  if (onnxslim_node_graph(consumer) != g)
    return onnxslim__err(ONNXSLIM_EINVAL,
                         "onnxslim_insert_before: the consumer is not a node of "
                         "this graph");
  if (input_index >= onnxslim_node_input_count(consumer))
    return onnxslim__err(ONNXSLIM_ERANGE, "node '%s' has no input %zu",
                         onnxslim_node_name(consumer), input_index);
  const char *value = onnxslim_node_input(consumer, input_index);
  if (!value[0])
    return onnxslim__err(ONNXSLIM_ERANGE, "input %zu of node '%s' is omitted", input_index,
                         onnxslim_node_name(consumer));
  onnxslim_model *m = onnxslim_graph_model(g);
  const char *edge = NULL, *node_name = NULL;
  int rc = 0;
  if (cast_to >= 0) rc = onnxslim__check_cast_edit(m, onnxslim__known_dtype(g, value), cast_to);
  if (!rc && cast_to >= 0) rc = onnxslim__check_reader_edit(g, consumer, input_index, cast_to);
  if (!rc) rc = fresh(m, fresh_name, value, "", "_in", &edge);
  if (!rc) rc = fresh(m, NULL, value, "_", op_type, &node_name);
  onnxslim_node *node = NULL;
  if (!rc) rc = add_node_near(g, consumer, 0, op_type, domain, node_name, value, edge, &node);
  if (!rc) rc = onnxslim_node_set_input(consumer, input_index, edge);
  if (!rc) rc = copy_type(g, value, edge, edge, cast_to);
  if (!rc && cast_to >= 0) rc = onnxslim_node_set_attr_int(node, "to", cast_to);
  if (!rc && out) *out = node;
  return rc;
}

int onnxslim_insert_before_with(onnxslim_graph *graph, onnxslim_node *consumer, size_t input_index,
                                const char *op_type, const char *domain,
                                const onnxslim_insert_options *opts, onnxslim_node **out) {
  onnxslim_insert_options o;
  if (out) *out = NULL;
  int rc = insert_opts(opts, &o, 1, "onnxslim_insert_before");
  if (rc) return rc;
  return insert_before(graph, consumer, input_index, op_type, domain, o.fresh_name, -1, out);
}

int onnxslim_insert_cast_before_with(onnxslim_graph *graph, onnxslim_node *consumer,
                                     size_t input_index, int32_t to,
                                     const onnxslim_insert_options *opts, onnxslim_node **out) {
  onnxslim_insert_options o;
  if (out) *out = NULL;
  int rc = insert_opts(opts, &o, 1, "onnxslim_insert_cast_before");
  if (rc) return rc;
  if (to < 0) return onnxslim__err(ONNXSLIM_EINVAL, "invalid Cast target type %d", (int)to);
  return insert_before(graph, consumer, input_index, "Cast", NULL, o.fresh_name, to, out);
}

int onnxslim_insert_before(onnxslim_graph *graph, onnxslim_node *consumer, size_t input_index,
                           const char *op_type, const char *domain, const char *fresh_name,
                           onnxslim_node **out) {
  onnxslim_insert_options o = {ONNXSLIM_INSERT_OPTIONS_VERSION, NULL, 0, fresh_name};
  return onnxslim_insert_before_with(graph, consumer, input_index, op_type, domain, &o, out);
}

int onnxslim_insert_cast_before(onnxslim_graph *graph, onnxslim_node *consumer, size_t input_index,
                                int32_t to, const char *fresh_name, onnxslim_node **out) {
  onnxslim_insert_options o = {ONNXSLIM_INSERT_OPTIONS_VERSION, NULL, 0, fresh_name};
  return onnxslim_insert_cast_before_with(graph, consumer, input_index, to, &o, out);
}
