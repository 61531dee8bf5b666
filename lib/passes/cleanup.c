/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - topological sort and removal of unused items, built on the
 * public handle API (passes.h only for errors and the hash map).
 */
#include <stdlib.h>
#include <string.h>

#include "passes/passes.h"

/* Node i's predecessors: producers (in this graph) of the values it reads,
 * directly or through subgraph captures, as index lists. */
typedef struct {
  size_t n;
  onnxslim_node **nodes;
  size_t *pred_start; /* n + 1 offsets into preds */
  size_t *preds;
} osl_deps;

static void deps_free(osl_deps *d) {
  free(d->nodes);
  free(d->pred_start);
  free(d->preds);
}

static int build_deps(onnxslim_graph *g, osl_deps *d) {
  memset(d, 0, sizeof *d);
  size_t n = onnxslim_graph_node_count(g);
  if (n > INT32_MAX) /* node indexes are kept in 32 bits (osl_map_entry.num) */
    return onnxslim__err(ONNXSLIM_ELIMIT, "a graph of %zu nodes (at most %d)", n, INT32_MAX);
  d->n = n;
  d->nodes = malloc((n ? n : 1) * sizeof *d->nodes);
  d->pred_start = calloc(n + 1, sizeof *d->pred_start);
  /* node handle -> index: constant time per lookup, so building the
   * dependencies is linear in nodes + edges */
  osl_map index = {0};
  if (!d->nodes || !d->pred_start) goto nomem;
  for (size_t i = 0; i < n; i++) {
    d->nodes[i] = onnxslim_graph_node(g, i);
    osl_map_entry *e;
    if (onnxslim__map_add_ptr(NULL, &index, d->nodes[i], &e) < 0) goto nomem;
    e->num = (int32_t)i;
  }
  /* edges p -> c for every consumer c of every output of p: count, fill */
  size_t total = 0;
  for (int pass = 0; pass < 2; pass++) {
    size_t *fill = NULL;
    if (pass == 1) {
      for (size_t i = 0; i < n; i++) d->pred_start[i + 1] += d->pred_start[i];
      total = d->pred_start[n];
      d->preds = malloc((total ? total : 1) * sizeof *d->preds);
      fill = malloc((n ? n : 1) * sizeof *fill);
      if (!d->preds || !fill) {
        free(fill);
        goto nomem;
      }
      memcpy(fill, d->pred_start, n * sizeof *fill);
    }
    for (size_t p = 0; p < n; p++) {
      onnxslim_node *pn = d->nodes[p];
      for (size_t k = 0; k < onnxslim_node_output_count(pn); k++) {
        const char *v = onnxslim_node_output(pn, k);
        if (!v[0] || onnxslim_graph_producer(g, v) != pn) continue;
        size_t nc = onnxslim_graph_consumer_count(g, v);
        for (size_t j = 0; j < nc; j++) {
          onnxslim_node *cn = onnxslim_graph_consumer(g, v, j);
          const osl_map_entry *hit = onnxslim__map_find_ptr(&index, cn);
          if (!hit) continue;
          if (pass == 0) d->pred_start[(size_t)hit->num + 1]++;
          else d->preds[fill[(size_t)hit->num]++] = p;
        }
      }
    }
    free(fill);
  }
  onnxslim__map_free(&index);
  return 0;
nomem:
  onnxslim__map_free(&index);
  deps_free(d);
  return onnxslim__err_nomem(NULL);
}

static int for_subgraphs(onnxslim_graph *g, unsigned int flags,
                         int (*fn)(onnxslim_graph *, unsigned int, size_t *), size_t *count) {
  for (size_t i = 0; i < onnxslim_graph_node_count(g); i++) {
    onnxslim_node *n = onnxslim_graph_node(g, i);
    for (size_t j = 0; j < onnxslim_node_subgraph_count(n); j++) {
      int rc = fn(onnxslim_node_subgraph(n, j), flags, count);
      if (rc) return rc;
    }
  }
  return 0;
}

static int toposort(onnxslim_graph *g, unsigned int flags, size_t *unused) {
  (void)unused;
  osl_deps d;
  int rc = build_deps(g, &d);
  if (rc) return rc;
  size_t n = d.n;
  unsigned char *state = calloc(n ? n : 1, 1); /* 0 new, 1 on stack, 2 done */
  size_t *order = malloc((n ? n : 1) * sizeof *order);
  size_t *stack = malloc((n ? n : 1) * sizeof *stack), *next = malloc((n ? n : 1) * sizeof *next);
  size_t no = 0;
  if (!state || !order || !stack || !next) {
    rc = onnxslim__err_nomem(NULL);
    goto out;
  }
  /* depth-first over predecessors, roots in original order: stable */
  for (size_t root = 0; root < n && !rc; root++) {
    if (state[root]) continue;
    size_t sp = 0;
    stack[sp] = root;
    next[sp] = d.pred_start[root];
    state[root] = 1;
    sp++;
    while (sp && !rc) {
      size_t v = stack[sp - 1];
      if (next[sp - 1] < d.pred_start[v + 1]) {
        size_t p = d.preds[next[sp - 1]++];
        if (state[p] == 1) {
          rc = onnxslim__err(ONNXSLIM_EMODEL, "cycle in graph '%s' through node %zu '%s' (%s)",
                             onnxslim_graph_name(g), p, onnxslim_node_name(d.nodes[p]),
                             onnxslim_node_op_type(d.nodes[p]));
        } else if (state[p] == 0) {
          state[p] = 1;
          stack[sp] = p;
          next[sp] = d.pred_start[p];
          sp++;
        }
      } else {
        state[v] = 2;
        order[no++] = v;
        sp--;
      }
    }
  }
  if (!rc) {
    int changed = 0;
    for (size_t i = 0; i < n; i++) changed |= order[i] != i;
    if (changed) {
      onnxslim_node **nodes = malloc((n ? n : 1) * sizeof *nodes);
      if (!nodes) {
        rc = onnxslim__err_nomem(NULL);
      } else {
        for (size_t i = 0; i < n; i++) nodes[i] = d.nodes[order[i]];
        rc = onnxslim_graph_reorder_nodes(g, nodes, n);
        free(nodes);
      }
    }
  }
  if (!rc && (flags & ONNXSLIM_CLEANUP_RECURSIVE)) rc = for_subgraphs(g, flags, toposort, NULL);
out:
  free(state);
  free(order);
  free(stack);
  free(next);
  deps_free(&d);
  return rc;
}

int onnxslim_cleanup_toposort(onnxslim_graph *graph, unsigned int flags) {
  if (!graph || (flags & ~ONNXSLIM_CLEANUP_RECURSIVE))
    return onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_cleanup_toposort: bad arguments");
  if (!onnxslim_graph_model(graph)) return ONNXSLIM_EINVAL;
  return toposort(graph, flags, NULL);
}

static int remove_unused(onnxslim_graph *g, unsigned int flags, size_t *removed) {
  int rc = 0;
  /* recurse first: a subgraph that shrinks may stop capturing outer values */
  if (flags & ONNXSLIM_CLEANUP_RECURSIVE) rc = for_subgraphs(g, flags, remove_unused, removed);
  if (rc) return rc;
  osl_deps d;
  rc = build_deps(g, &d);
  if (rc) return rc;
  size_t n = d.n;
  unsigned char *live = calloc(n ? n : 1, 1);
  size_t *work = malloc((n ? n : 1) * sizeof *work);
  if (!live || !work) {
    rc = onnxslim__err_nomem(NULL);
    goto out;
  }
  size_t top = 0;
  for (size_t i = 0; i < onnxslim_graph_output_count(g); i++) {
    const char *v = onnxslim_value_info_name(onnxslim_graph_output(g, i));
    onnxslim_node *p = onnxslim_graph_producer(g, v);
    for (size_t k = 0; p && k < n; k++)
      if (d.nodes[k] == p && !live[k]) {
        live[k] = 1;
        work[top++] = k;
      }
  }
  while (top) {
    size_t c = work[--top];
    for (size_t e = d.pred_start[c]; e < d.pred_start[c + 1]; e++)
      if (!live[d.preds[e]]) {
        live[d.preds[e]] = 1;
        work[top++] = d.preds[e];
      }
  }
  for (size_t i = n; i-- > 0 && !rc;)
    if (!live[i]) {
      rc = onnxslim_graph_remove_node(g, d.nodes[i]);
      if (!rc && removed) (*removed)++;
    }
  /* initializers nothing reads any more */
  for (size_t i = onnxslim_graph_initializer_count(g); i-- > 0 && !rc;) {
    onnxslim_tensor *t = onnxslim_graph_initializer(g, i);
    const char *name = onnxslim_tensor_name(t);
    onnxslim_value_info *vi = onnxslim_graph_find_value_info(g, name);
    int is_io = 0;
    for (size_t k = 0; vi && k < onnxslim_graph_input_count(g); k++)
      is_io |= onnxslim_graph_input(g, k) == vi;
    for (size_t k = 0; k < onnxslim_graph_output_count(g); k++)
      is_io |= strcmp(onnxslim_value_info_name(onnxslim_graph_output(g, k)), name) == 0;
    if (!is_io && onnxslim_graph_consumer_count(g, name) == 0) {
      rc = onnxslim_graph_remove_initializer(g, t);
      if (!rc && removed) (*removed)++;
    }
  }
  /* value_info of values that no longer exist */
  for (size_t i = onnxslim_graph_value_info_count(g); i-- > 0 && !rc;) {
    onnxslim_value_info *vi = onnxslim_graph_value_info(g, i);
    const char *name = onnxslim_value_info_name(vi);
    if (!onnxslim_graph_producer(g, name) && !onnxslim_graph_consumer_count(g, name) &&
        !onnxslim_graph_find_initializer(g, name)) {
      rc = onnxslim_graph_remove_value_info(g, vi);
      if (!rc && removed) (*removed)++;
    }
  }
out:
  free(live);
  free(work);
  deps_free(&d);
  return rc;
}

int onnxslim_cleanup_remove_unused(onnxslim_graph *graph, unsigned int flags, size_t *removed) {
  if (removed) *removed = 0;
  if (!graph || (flags & ~ONNXSLIM_CLEANUP_RECURSIVE))
    return onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_cleanup_remove_unused: bad arguments");
  if (!onnxslim_graph_model(graph)) return ONNXSLIM_EINVAL;
  return remove_unused(graph, flags, removed);
}
