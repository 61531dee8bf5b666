/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim (the command) - `libonnxslim info MODEL`: a summary of the model.
 */

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "os.h"
#include "json.h"

#define LABEL_WIDTH 22
#define TOP_INITIALIZERS 5

static void field(const char *label, const char *fmt, ...) PRINTF_LIKE(2, 3);
static void field(const char *label, const char *fmt, ...) {
  va_list ap;
  char l[LABEL_WIDTH + 2];
  snprintf(l, sizeof l, "%s:", label);
  printf("%-*s", LABEL_WIDTH, l);
  va_start(ap, fmt);
  vprintf(fmt, ap);
  va_end(ap);
  putchar('\n');
}

/* Adds "name  type" rows for the graph's inputs (outputs if !inputs). */
static int add_value_rows(const char *path, const onnxslim_graph *g, int inputs, table *t) {
  const char *what = inputs ? "input" : "output";
  size_t n = inputs ? onnxslim_graph_input_count(g) : onnxslim_graph_output_count(g);
  strbuf sb = {0};
  size_t i;

  for (i = 0; i < n; i++) {
    const onnxslim_value_info *vi =
        inputs ? onnxslim_graph_input(g, i) : onnxslim_graph_output(g, i);
    const onnxslim_type *type;
    const char *name;

    if (!vi || !(name = onnxslim_value_info_name(vi))) {
      sb_free(&sb);
      return fail_lib("%s: graph %s %zu", path, what, i);
    }
    table_add_esc(t, name);
    sb_reset(&sb);
    type = onnxslim_value_info_type(vi);
    if (!type) {
      if (onnxslim_error_last_code() != ONNXSLIM_ENOTFOUND) {
        sb_free(&sb);
        return fail_lib("%s: type of graph %s %zu", path, what, i);
      }
      sb_puts(&sb, "(no type)");
    } else if (sb_type(&sb, type) != 0) {
      sb_free(&sb);
      return fail_lib("%s: type of graph %s %zu", path, what, i);
    }
    table_add(t, sb_str(&sb));
  }
  sb_free(&sb);
  return 0;
}

typedef struct subgraph_stats {
  size_t graphs; /* subgraphs at any depth */
  size_t nodes;  /* nodes in all of them */
} subgraph_stats;

static int walk_graph(const onnxslim_graph *g, subgraph_stats *st);

static int visit_subgraph(const onnxslim_graph *g, subgraph_stats *st) {
  st->graphs++;
  st->nodes += onnxslim_graph_node_count(g);
  return walk_graph(g, st);
}

/* Counts the subgraphs held by the node's GRAPH and GRAPHS attributes,
 * recursively. Returns 0 or -1 on a library error. */
static int walk_node(const onnxslim_node *node, subgraph_stats *st) {
  size_t i, n = onnxslim_node_subgraph_count(node);

  for (i = 0; i < n; i++) {
    const onnxslim_graph *sg = onnxslim_node_subgraph(node, i);
    if (!sg || visit_subgraph(sg, st) != 0) return -1;
  }
  return 0;
}

static int walk_graph(const onnxslim_graph *g, subgraph_stats *st) {
  size_t i, n = onnxslim_graph_node_count(g);
  for (i = 0; i < n; i++) {
    const onnxslim_node *node = onnxslim_graph_node(g, i);
    if (!node || walk_node(node, st) != 0) return -1;
  }
  return 0;
}

/* ---- op type histogram -------------------------------------------------- */

typedef struct op_count {
  const char *domain; /* borrowed from the model */
  const char *op_type;
  size_t count;
} op_count;

static int cmp_op_name(const void *pa, const void *pb) {
  const op_count *a = pa, *b = pb;
  int c = strcmp(a->op_type, b->op_type);
  return c ? c : strcmp(a->domain, b->domain);
}

static int cmp_op_count(const void *pa, const void *pb) {
  const op_count *a = pa, *b = pb;
  if (a->count != b->count) return a->count > b->count ? -1 : 1;
  return cmp_op_name(pa, pb);
}

/* ---- largest initializers ----------------------------------------------- */

typedef struct sized_tensor {
  const onnxslim_tensor *tensor;
  uint64_t bytes;
} sized_tensor;

/* Keeps top[] (capacity TOP_INITIALIZERS, *n used) sorted by size, largest
 * first; on equal sizes the earlier initializer stays first. */
static void top_insert(sized_tensor *top, size_t *n, const onnxslim_tensor *t, uint64_t bytes) {
  size_t p = *n;
  while (p > 0 && top[p - 1].bytes < bytes) p--;
  if (p >= TOP_INITIALIZERS) return;
  if (*n < TOP_INITIALIZERS) (*n)++;
  memmove(&top[p + 1], &top[p], (*n - 1 - p) * sizeof *top);
  top[p].tensor = t;
  top[p].bytes = bytes;
}

/* ---- the summary -------------------------------------------------------- */

/* What the summary counts in a graph. */
typedef struct graph_summary {
  size_t n_nodes, n_init, n_distinct, n_top, unsized, external;
  op_count *ops; /* n_distinct (domain, op_type) counts, most frequent first */
  subgraph_stats sub;
  sized_tensor top[TOP_INITIALIZERS];
  uint64_t total; /* bytes of the initializers of known size */
} graph_summary;

/* Fills *su (zeroed by the caller; free su->ops). Returns 0, or -1 after
 * reporting a library error. */
static int summarize(const char *path, const onnxslim_graph *g, graph_summary *su) {
  size_t i;

  /* nodes: op types and subgraphs */
  su->n_nodes = onnxslim_graph_node_count(g);
  su->ops = xmalloc_array(su->n_nodes, sizeof *su->ops);
  for (i = 0; i < su->n_nodes; i++) {
    const onnxslim_node *node = onnxslim_graph_node(g, i);
    if (!node || !(su->ops[i].op_type = onnxslim_node_op_type(node)) ||
        !(su->ops[i].domain = onnxslim_node_domain(node))) {
      fail_lib("%s: node %zu", path, i);
      return -1;
    }
    su->ops[i].count = 1;
    if (walk_node(node, &su->sub) != 0) {
      fail_lib("%s: subgraphs of node %zu", path, i);
      return -1;
    }
  }
  /* group equal (domain, op_type) pairs, then order by count */
  if (su->n_nodes > 0) {
    qsort(su->ops, su->n_nodes, sizeof *su->ops, cmp_op_name);
    su->n_distinct = 1;
    for (i = 1; i < su->n_nodes; i++) {
      if (cmp_op_name(&su->ops[i], &su->ops[su->n_distinct - 1]) == 0)
        su->ops[su->n_distinct - 1].count++;
      else su->ops[su->n_distinct++] = su->ops[i];
    }
    qsort(su->ops, su->n_distinct, sizeof *su->ops, cmp_op_count);
  }

  /* initializers */
  su->n_init = onnxslim_graph_initializer_count(g);
  for (i = 0; i < su->n_init; i++) {
    const onnxslim_tensor *t = onnxslim_graph_initializer(g, i);
    uint64_t bytes;
    if (!t) {
      fail_lib("%s: initializer %zu", path, i);
      return -1;
    }
    if (onnxslim_tensor_storage(t) == ONNXSLIM_STORAGE_EXTERNAL) su->external++;
    if (onnxslim_tensor_byte_size(t, &bytes) != ONNXSLIM_OK) {
      su->unsized++; /* STRING or unknown data type */
      continue;
    }
    su->total = (su->total > UINT64_MAX - bytes) ? UINT64_MAX : su->total + bytes;
    top_insert(su->top, &su->n_top, t, bytes);
  }

  return 0;
}

static int info_graph(const char *path, const onnxslim_graph *g) {
  strbuf s = {0};
  table io_in, io_out, hist, big;
  size_t w[TABLE_MAX_COLS] = {0};
  size_t i;
  graph_summary sum;
  const char *name;
  int status = EXIT_FAILURE;

  memset(&sum, 0, sizeof sum);

  table_init(&io_in, "ll");
  table_init(&io_out, "ll");
  table_init(&hist, "rl");
  table_init(&big, "lllrll");
  big.max_width = NAME_MAX_WIDTH;

  if (!(name = onnxslim_graph_name(g))) {
    fail_lib("%s: graph name", path);
    goto out;
  }
  field("graph", "%s", name[0] ? esc(&s, name) : "(unnamed)");

  /* inputs and outputs, aligned with each other */
  if (add_value_rows(path, g, 1, &io_in) != 0 || add_value_rows(path, g, 0, &io_out) != 0) goto out;
  table_measure(&io_in, w);
  table_measure(&io_out, w);
  field("inputs", "%zu", table_rows(&io_in));
  table_print(&io_in, INDENT, w);
  field("outputs", "%zu", table_rows(&io_out));
  table_print(&io_out, INDENT, w);

  if (summarize(path, g, &sum) != 0) goto out;
  /* counts */
  sb_reset(&s);
  sb_printf(&s, "%zu", sum.n_nodes);
  if (sum.sub.nodes > 0) sb_printf(&s, " (+%zu in subgraphs)", sum.sub.nodes);
  field("nodes", "%s", sb_str(&s));
  field("initializers", "%zu", sum.n_init);
  field("sparse_initializers", "%zu", onnxslim_graph_sparse_initializer_count(g));
  field("value_info", "%zu", onnxslim_graph_value_info_count(g));
  field("subgraphs", "%zu", sum.sub.graphs);

  /* op type histogram */
  field("op_types", "%zu distinct", sum.n_distinct);
  for (i = 0; i < sum.n_distinct; i++) {
    strbuf k = {0};
    table_addf(&hist, "%zu", sum.ops[i].count);
    sb_escaped(&k, sum.ops[i].op_type[0] ? sum.ops[i].op_type : "(empty)");
    if (sum.ops[i].domain[0]) {
      sb_puts(&k, " (");
      sb_escaped(&k, sum.ops[i].domain);
      sb_puts(&k, ")");
    }
    table_add(&hist, sb_str(&k));
    sb_free(&k);
  }
  table_print(&hist, INDENT, NULL);

  /* initializer sizes */
  sb_reset(&s);
  sb_byte_count(&s, sum.total);
  if (sum.unsized) sb_printf(&s, ", %zu of unknown size", sum.unsized);
  if (sum.external) sb_printf(&s, ", %zu external", sum.external);
  field("initializer_bytes", "%s", sb_str(&s));
  if (sum.n_top > 0) {
    printf("largest initializers:\n");
    for (i = 0; i < sum.n_top; i++) {
      const onnxslim_tensor *t = sum.top[i].tensor;
      const char *tname = onnxslim_tensor_name(t);
      char h[32];
      if (!tname) {
        fail_lib("%s: initializer name", path);
        goto out;
      }
      table_add_esc(&big, tname);
      sb_reset(&s);
      sb_dtype(&s, onnxslim_tensor_dtype(t));
      table_add(&big, sb_str(&s));
      sb_reset(&s);
      if (sb_tensor_dims(&s, t) != 0) {
        fail_lib("%s: dims of initializer '%s'", path, tname);
        goto out;
      }
      table_add(&big, sb_str(&s));
      table_addf(&big, "%" PRIu64 " byte%s", sum.top[i].bytes, sum.top[i].bytes == 1 ? "" : "s");
      human_size(h, sizeof h, sum.top[i].bytes);
      sb_reset(&s);
      if (h[0]) sb_printf(&s, "(%s)", h);
      table_add(&big, sb_str(&s));
      table_add(&big, onnxslim_tensor_storage(t) == ONNXSLIM_STORAGE_EXTERNAL ? "external" : "");
    }
    table_print(&big, INDENT, NULL);
  }
  status = EXIT_SUCCESS;

out:
  free(sum.ops);
  table_free(&io_in);
  table_free(&io_out);
  table_free(&hist);
  table_free(&big);
  sb_free(&s);
  return status;
}

static int info_model(const char *path) {
  onnxslim_model *model = NULL;
  const onnxslim_graph *g;
  const char *pn, *pv, *dom;
  strbuf s = {0}, s2 = {0};
  table tab;
  size_t i, n;
  int status = EXIT_FAILURE;

  status = open_model(&model, path);
  if (status != EXIT_SUCCESS) return status;
  status = EXIT_FAILURE;
  table_init(&tab, "ll");

  field("file", "%s", esc(&s, path));
  uint64_t fsize;
  if (os_file_size(path, &fsize) == 0) {
    sb_reset(&s);
    sb_byte_count(&s, fsize);
    field("size", "%s", sb_str(&s));
  }
  field("ir_version", "%" PRId64, onnxslim_model_ir_version(model));

  pn = onnxslim_model_producer_name(model);
  pv = onnxslim_model_producer_version(model);
  dom = onnxslim_model_domain(model);
  if (!pn || !pv || !dom) {
    fail_lib("%s: model fields", path);
    goto out;
  }
  if (pn[0] || pv[0])
    field("producer", "%s%s%s", esc(&s, pn), pn[0] && pv[0] ? " " : "", esc(&s2, pv));
  else field("producer", "(none)");
  field("domain", "%s", dom[0] ? esc(&s, dom) : "(none)");
  field("model_version", "%" PRId64, onnxslim_model_version(model));

  /* opset imports */
  n = onnxslim_model_opset_count(model);
  field("opset_import", "%zu", n);
  for (i = 0; i < n; i++) {
    const char *d = NULL;
    int64_t v = 0;
    if (onnxslim_model_opset(model, i, &d, &v) != ONNXSLIM_OK) {
      fail_lib("%s: opset_import %zu", path, i);
      goto out;
    }
    table_add_esc(&tab, d && d[0] ? d : "ai.onnx");
    table_addf(&tab, "%" PRId64, v);
  }
  table_print(&tab, INDENT, NULL);
  table_free(&tab);

  /* metadata */
  n = onnxslim_model_metadata_count(model);
  field("metadata_props", "%zu", n);
  for (i = 0; i < n; i++) {
    const char *k = NULL, *v = NULL;
    if (onnxslim_model_metadata(model, i, &k, &v) != ONNXSLIM_OK) {
      fail_lib("%s: metadata_props %zu", path, i);
      goto out;
    }
    printf(INDENT "%s=", esc(&s, k ? k : ""));
    printf("%s\n", esc(&s, v ? v : ""));
  }

  /* model-local functions */
  n = onnxslim_model_function_count(model);
  field("functions", "%zu", n);
  table_init(&tab, "lll");
  for (i = 0; i < n; i++) {
    const onnxslim_function *fn = onnxslim_model_function(model, i);
    const char *fname, *fdom;
    size_t nodes;
    if (!fn || !(fname = onnxslim_function_name(fn)) || !(fdom = onnxslim_function_domain(fn))) {
      fail_lib("%s: function %zu", path, i);
      goto out;
    }
    nodes = onnxslim_function_node_count(fn);
    table_add_esc(&tab, fname);
    table_add_esc(&tab, fdom);
    table_addf(&tab, "%zu node%s", nodes, nodes == 1 ? "" : "s");
  }
  table_print(&tab, INDENT, NULL);

  /* main graph */
  g = onnxslim_model_graph(model);
  if (!g) {
    if (onnxslim_error_last_code() != ONNXSLIM_ENOTFOUND) {
      fail_lib("%s: graph", path);
      goto out;
    }
    field("graph", "(none)");
    status = EXIT_SUCCESS;
    goto out;
  }
  status = info_graph(path, g);

out:
  table_free(&tab);
  sb_free(&s);
  sb_free(&s2);
  onnxslim_model_free(model);
  return status;
}

/* `info --json`: the same facts as JSON (docs/json.md, libonnxslim.info/1). */
static int info_json(const char *path) {
  onnxslim_model *model = NULL;
  const onnxslim_graph *g;
  const char *pn, *pv, *dom;
  graph_summary sum;
  size_t i, n;
  json j;
  int status;

  memset(&sum, 0, sizeof sum);
  status = open_model(&model, path);
  if (status != EXIT_SUCCESS) return status;
  status = EXIT_FAILURE;
  pn = onnxslim_model_producer_name(model);
  pv = onnxslim_model_producer_version(model);
  dom = onnxslim_model_domain(model);
  if (!pn || !pv || !dom) {
    fail_lib("%s: model fields", path);
    goto out;
  }
  g = onnxslim_model_graph(model);
  if (!g && onnxslim_error_last_code() != ONNXSLIM_ENOTFOUND) {
    fail_lib("%s: graph", path);
    goto out;
  }
  /* everything that can fail before the first byte of output */
  if (g && summarize(path, g, &sum) != 0) goto out;

  json_init(&j, stdout);
  json_object(&j);
  json_kstr(&j, "schema", "libonnxslim.info/1");
  json_kstr(&j, "file", path);
  json_key(&j, "size");
  uint64_t fsize;
  if (os_file_size(path, &fsize) == 0) json_uint(&j, fsize);
  else json_null(&j);
  json_kint(&j, "ir_version", onnxslim_model_ir_version(model));
  json_kstr(&j, "producer_name", pn);
  json_kstr(&j, "producer_version", pv);
  json_kstr(&j, "domain", dom);
  json_kint(&j, "model_version", onnxslim_model_version(model));
  json_karray(&j, "opset_import");
  n = onnxslim_model_opset_count(model);
  for (i = 0; i < n; i++) {
    const char *d = NULL;
    int64_t v = 0;
    if (onnxslim_model_opset(model, i, &d, &v) != ONNXSLIM_OK) {
      fail_lib("%s: opset_import %zu", path, i);
      goto out;
    }
    json_object(&j);
    json_kstr(&j, "domain", d ? d : "");
    json_kint(&j, "version", v);
    json_end(&j);
  }
  json_end(&j);
  json_karray(&j, "metadata_props");
  n = onnxslim_model_metadata_count(model);
  for (i = 0; i < n; i++) {
    const char *k = NULL, *v = NULL;
    if (onnxslim_model_metadata(model, i, &k, &v) != ONNXSLIM_OK) {
      fail_lib("%s: metadata_props %zu", path, i);
      goto out;
    }
    json_object(&j);
    json_kstr(&j, "key", k ? k : "");
    json_kstr(&j, "value", v ? v : "");
    json_end(&j);
  }
  json_end(&j);
  json_karray(&j, "functions");
  n = onnxslim_model_function_count(model);
  for (i = 0; i < n; i++) {
    const onnxslim_function *fn = onnxslim_model_function(model, i);
    const char *fname, *fdom;
    if (!fn || !(fname = onnxslim_function_name(fn)) || !(fdom = onnxslim_function_domain(fn))) {
      fail_lib("%s: function %zu", path, i);
      goto out;
    }
    json_object(&j);
    json_kstr(&j, "name", fname);
    json_kstr(&j, "domain", fdom);
    json_kuint(&j, "nodes", onnxslim_function_node_count(fn));
    json_end(&j);
  }
  json_end(&j);

  json_key(&j, "graph");
  if (!g) {
    json_null(&j);
  } else {
    const char *name = onnxslim_graph_name(g);
    int which;
    if (!name) {
      fail_lib("%s: graph name", path);
      goto out;
    }
    json_object(&j);
    json_kstr(&j, "name", name);
    for (which = 0; which < 2; which++) {
      size_t nv = which ? onnxslim_graph_output_count(g) : onnxslim_graph_input_count(g);
      json_karray(&j, which ? "outputs" : "inputs");
      for (i = 0; i < nv; i++) {
        const onnxslim_value_info *vi =
            which ? onnxslim_graph_output(g, i) : onnxslim_graph_input(g, i);
        const char *vname = vi ? onnxslim_value_info_name(vi) : NULL;
        if (!vname) {
          fail_lib("%s: graph %s %zu", path, which ? "output" : "input", i);
          goto out;
        }
        json_object(&j);
        json_kstr(&j, "name", vname);
        if (json_value_type(&j, vi) != 0) {
          fail_lib("%s: type of graph %s %zu", path, which ? "output" : "input", i);
          goto out;
        }
        json_end(&j);
      }
      json_end(&j);
    }
    json_kuint(&j, "nodes", sum.n_nodes);
    json_kuint(&j, "subgraph_nodes", sum.sub.nodes);
    json_kuint(&j, "subgraphs", sum.sub.graphs);
    json_kuint(&j, "initializers", sum.n_init);
    json_kuint(&j, "sparse_initializers", onnxslim_graph_sparse_initializer_count(g));
    json_kuint(&j, "value_info", onnxslim_graph_value_info_count(g));
    json_karray(&j, "op_types");
    for (i = 0; i < sum.n_distinct; i++) {
      json_object(&j);
      json_kstr(&j, "op_type", sum.ops[i].op_type);
      json_kstr(&j, "domain", sum.ops[i].domain);
      json_kuint(&j, "count", sum.ops[i].count);
      json_end(&j);
    }
    json_end(&j);
    json_kuint(&j, "initializer_bytes", sum.total);
    json_kuint(&j, "initializers_unsized", sum.unsized);
    json_kuint(&j, "initializers_external", sum.external);
    json_karray(&j, "largest_initializers");
    for (i = 0; i < sum.n_top; i++) {
      const onnxslim_tensor *t = sum.top[i].tensor;
      const char *tname = onnxslim_tensor_name(t);
      strbuf dt = {0};
      if (!tname) {
        fail_lib("%s: initializer name", path);
        goto out;
      }
      json_object(&j);
      json_kstr(&j, "name", tname);
      sb_dtype(&dt, onnxslim_tensor_dtype(t));
      json_kstr(&j, "dtype", sb_str(&dt));
      sb_free(&dt);
      json_key(&j, "dims");
      if (json_tensor_dims(&j, t) != 0) {
        fail_lib("%s: dims of initializer '%s'", path, tname);
        goto out;
      }
      json_kuint(&j, "bytes", sum.top[i].bytes);
      json_kstr(&j, "storage", storage_name(onnxslim_tensor_storage(t)));
      json_end(&j);
    }
    json_end(&j);
    json_end(&j);
  }
  json_end(&j);
  json_finish(&j);
  status = EXIT_SUCCESS;
out:
  free(sum.ops);
  onnxslim_model_free(model);
  return status;
}

static const option_spec info_options[] = {
    OPT_JSON("print the summary"),
    {NULL, NULL, NULL, NULL},
};

static int run_info(const command *cmd, int argc, char **argv) {
  const char *pos[1];
  size_t npos;
  int as_json = 0;
  int rc = parse_args(cmd, &as_json, argc, argv, pos, 1, &npos);
  if (rc != PARSE_CONTINUE) return rc;
  if (npos != 1) return usage_error("%s: expected %s", cmd->name, cmd->args);
  return finish_stdout(as_json ? info_json(pos[0]) : info_model(pos[0]));
}

const command cmd_info = {"info", "MODEL", "print a summary of MODEL", info_options, run_info};
