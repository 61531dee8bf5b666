/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - topological sort and removal of unused items, built on the
 * public handle API (passes.h only for errors, the hash map and the count
 * of what a pass holds). Everything they allocate per node, edge or name is
 * counted against the model's max_memory (onnxslim__mem_alloc and the
 * counted maps), one graph's worth at a time (plus the enclosing graphs'
 * while toposort recurses).
 */
#include <stdlib.h>
#include <string.h>

#include "passes/passes.h"

/* Node i's predecessors: producers (in this graph) of the values it reads,
 * directly or through subgraph captures, as index lists. */
typedef struct {
  const onnxslim_model *model; /* counts what the pass holds */
  const char *what;            /* the pass, for its messages */
  size_t n;
  onnxslim_node **nodes;
  size_t *pred_start; /* n + 1 offsets into preds */
  size_t *preds;
  osl_map index; /* node handle -> index (num) */
} osl_deps;

static void deps_free(osl_deps *d) {
  onnxslim__mem_free(d->model, d->nodes);
  onnxslim__mem_free(d->model, d->pred_start);
  onnxslim__mem_free(d->model, d->preds);
  onnxslim__mem_map_free(d->model, &d->index);
  d->nodes = NULL;
  d->pred_start = d->preds = NULL;
}

static int build_deps(onnxslim_graph *g, osl_deps *d, const char *what) {
  memset(d, 0, sizeof *d);
  d->model = onnxslim_graph_model(g);
  d->what = what;
  size_t n = onnxslim_graph_node_count(g);
  if (n > INT32_MAX) /* node indexes are kept in 32 bits (osl_map_entry.num) */
    return onnxslim__err(ONNXSLIM_ELIMIT, "a graph of %zu nodes (at most %d)", n, INT32_MAX);
  d->n = n;
  /* node handle -> index: constant time per lookup, so building the
   * dependencies is linear in nodes + edges */
  int rc = 0;
  if (!(d->nodes = onnxslim__mem_alloc(d->model, (n ? n : 1) * sizeof *d->nodes, what)) ||
      !(d->pred_start = onnxslim__mem_calloc(d->model, n + 1, sizeof *d->pred_start, what)) ||
      (rc = onnxslim__mem_map_reserve(d->model, &d->index, n, what)) != 0)
    goto fail;
  for (size_t i = 0; i < n; i++) d->nodes[i] = onnxslim_graph_node(g, i);
  for (size_t i = 0; i < n; i++) {
    /* a few nodes ahead: the slot a large map puts them in is a cache miss */
    if (i + 8 < n) onnxslim__map_prefetch_ptr(&d->index, d->nodes[i + 8]);
    osl_map_entry *e;
    if ((rc = onnxslim__mem_map_add_ptr(d->model, &d->index, d->nodes[i], &e, what)) < 0) goto fail;
    e->num = (int32_t)i;
  }
  /* edges p -> c for every consumer c of every output of p: count, fill */
  size_t total = 0;
  for (int pass = 0; pass < 2; pass++) {
    size_t *fill = NULL;
    if (pass == 1) {
      for (size_t i = 0; i < n; i++) d->pred_start[i + 1] += d->pred_start[i];
      total = d->pred_start[n];
      if (!(d->preds =
                onnxslim__mem_alloc(d->model, (total ? total : 1) * sizeof *d->preds, what)) ||
          !(fill = onnxslim__mem_alloc(d->model, (n ? n : 1) * sizeof *fill, what)))
        goto fail;
      memcpy(fill, d->pred_start, n * sizeof *fill);
    }
    for (size_t p = 0; p < n; p++) {
      onnxslim_node *pn = d->nodes[p];
      for (size_t k = 0; k < onnxslim_node_output_count(pn); k++) {
        const char *v = onnxslim_node_output(pn, k);
        if (!v[0] || onnxslim__graph_producer_q(g, v) != pn) continue;
        size_t nc = onnxslim__graph_consumer_count_q(g, v);
        for (size_t j = 0; j < nc; j++) {
          onnxslim_node *cn = onnxslim_graph_consumer(g, v, j);
          const osl_map_entry *hit = onnxslim__map_find_ptr(&d->index, cn);
          if (!hit) continue;
          if (pass == 0) d->pred_start[(size_t)hit->num + 1]++;
          else d->preds[fill[(size_t)hit->num]++] = p;
        }
      }
    }
    onnxslim__mem_free(d->model, fill);
  }
  return 0;
fail:
  deps_free(d);
  return rc < 0 ? rc : onnxslim_error_last_code();
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

#define TOPO "sorting the graph"

/* 1 when every node of g reads only values produced before it (or not in
 * g) and no node holds a subgraph (whose captures would be edges too): the
 * sort would keep the order, so the dependencies need not be built (one
 * lookup per input instead of four per edge and a map of every node: on a
 * graph of 1M nodes the largest part of simplify's first step). Else 0
 * (not sorted, a cycle, or captures): the full sort decides. */
static int in_order(onnxslim_graph *g, size_t n) {
  for (size_t i = 0; i < n; i++) {
    onnxslim_node *nd = onnxslim_graph_node(g, i);
    if (onnxslim_node_subgraph_count(nd)) return 0;
    for (size_t k = 0, ni = onnxslim_node_input_count(nd); k < ni; k++) {
      const char *v = onnxslim_node_input(nd, k);
      if (!v) return 0;
      if (!v[0]) continue;
      onnxslim_node *p = onnxslim__graph_producer_q(g, v);
      if (p && !onnxslim__node_before(p, nd)) return 0;
    }
  }
  return 1;
}

static int toposort(onnxslim_graph *g, unsigned int flags, size_t *unused) {
  (void)unused;
  size_t nn = onnxslim_graph_node_count(g);
  if (nn > INT32_MAX) /* as build_deps says */
    return onnxslim__err(ONNXSLIM_ELIMIT, "a graph of %zu nodes (at most %d)", nn, INT32_MAX);
  if (in_order(g, nn)) return 0;
  osl_deps d;
  int rc = build_deps(g, &d, TOPO);
  if (rc) return rc;
  size_t n = d.n, no = 0, n1 = n ? n : 1;
  const onnxslim_model *m = d.model;
  unsigned char *state = NULL; /* 0 new, 1 on stack, 2 done */
  size_t *order = NULL, *stack = NULL, *next = NULL;
  if (!(state = onnxslim__mem_calloc(m, n1, 1, TOPO)) ||
      !(order = onnxslim__mem_alloc(m, n1 * sizeof *order, TOPO)) ||
      !(stack = onnxslim__mem_alloc(m, n1 * sizeof *stack, TOPO)) ||
      !(next = onnxslim__mem_alloc(m, n1 * sizeof *next, TOPO))) {
    rc = onnxslim_error_last_code();
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
      /* the graph's reorder allocates about as much again (uncounted):
       * charged here for it */
      uint64_t edit = onnxslim__mem_cost(n1 * sizeof(osl_field)) +
                      onnxslim__mem_cost(n1 * sizeof(size_t)) + onnxslim__mem_cost(n1);
      onnxslim_node **nodes = onnxslim__mem_alloc(m, n1 * sizeof *nodes, TOPO);
      if (!nodes || (rc = onnxslim__mem_charge(m, edit, TOPO)) != 0) {
        rc = onnxslim_error_last_code();
      } else {
        for (size_t i = 0; i < n; i++) nodes[i] = d.nodes[order[i]];
        rc = onnxslim_graph_reorder_nodes(g, nodes, n);
        onnxslim__mem_release(m, edit);
      }
      onnxslim__mem_free(m, nodes);
    }
  }
  if (!rc && (flags & ONNXSLIM_CLEANUP_RECURSIVE)) rc = for_subgraphs(g, flags, toposort, NULL);
out:
  onnxslim__mem_free(m, state);
  onnxslim__mem_free(m, order);
  onnxslim__mem_free(m, stack);
  onnxslim__mem_free(m, next);
  deps_free(&d);
  return rc;
}

int onnxslim_cleanup_options_init(onnxslim_cleanup_options *opts, unsigned int version) {
  if (!opts) return onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_cleanup_options_init: opts is NULL");
  if (version < 1 || version > ONNXSLIM_CLEANUP_OPTIONS_VERSION)
    return onnxslim__err_options_version("onnxslim_cleanup_options_init", "cleanup options",
                                         version, ONNXSLIM_CLEANUP_OPTIONS_VERSION);
  onnxslim_cleanup_options d = ONNXSLIM_CLEANUP_OPTIONS_INIT;
  d.version = version;
  *opts = d; /* version 1 is the whole struct */
  return 0;
}

/* The flags of opts (NULL: the defaults), checked; 0 or ONNXSLIM_EINVAL. */
static int cleanup_flags(const onnxslim_graph *graph, const onnxslim_cleanup_options *opts,
                         unsigned int *flags, const char *fn) {
  *flags = 0;
  if (!graph) return onnxslim__err(ONNXSLIM_EINVAL, "%s: NULL graph", fn);
  if (opts) {
    if (opts->version < 1 || opts->version > ONNXSLIM_CLEANUP_OPTIONS_VERSION)
      return onnxslim__err_options_version(fn, "cleanup options", opts->version,
                                           ONNXSLIM_CLEANUP_OPTIONS_VERSION);
    if (opts->flags & ~ONNXSLIM_CLEANUP_RECURSIVE)
      return onnxslim__err(ONNXSLIM_EINVAL, "%s: reserved flags 0x%x set", fn,
                           opts->flags & ~ONNXSLIM_CLEANUP_RECURSIVE);
    *flags = opts->flags;
  }
  if (!onnxslim_graph_model(graph)) return ONNXSLIM_EINVAL;
  return 0;
}

int onnxslim_cleanup_toposort_with(onnxslim_graph *graph, const onnxslim_cleanup_options *opts) {
  unsigned int flags;
  int rc = cleanup_flags(graph, opts, &flags, "onnxslim_cleanup_toposort");
  return rc ? rc : toposort(graph, flags, NULL);
}

int onnxslim_cleanup_toposort(onnxslim_graph *graph, unsigned int flags) {
  onnxslim_cleanup_options o = ONNXSLIM_CLEANUP_OPTIONS_INIT;
  o.flags = flags;
  return onnxslim_cleanup_toposort_with(graph, &o);
}

#define UNUSED "removing unused items"

/* The nodes of g that a graph output needs, when no node of g holds a
 * subgraph (no captures): from the outputs' producers back through the
 * producers of the values each needed node reads, one lookup a value read
 * and an array by node slot (onnxslim__node_slot) instead of the
 * dependencies (build_deps: four lookups an edge and a map of every node).
 * d->nodes (the n nodes in order) and live[n] (1: needed) are filled.
 * Returns 1 done, 0 (a node holds a subgraph: build_deps then), or an
 * error. */
static void need_value(onnxslim_graph *g, const char *v, unsigned char *need, size_t slots,
                       onnxslim_node **work, size_t *top) {
  onnxslim_node *p = v && v[0] ? onnxslim__graph_producer_q(g, v) : NULL;
  size_t s = p ? onnxslim__node_slot(p) : SIZE_MAX;
  if (s < slots && !need[s]) {
    need[s] = 1;
    work[(*top)++] = p;
  }
}

static int live_in_order(onnxslim_graph *g, osl_deps *d, unsigned char *live) {
  const onnxslim_model *m = d->model;
  size_t n = d->n, slots = onnxslim__graph_slots(g);
  for (size_t i = 0; i < n; i++) {
    d->nodes[i] = onnxslim_graph_node(g, i);
    if (onnxslim_node_subgraph_count(d->nodes[i])) return 0;
  }
  unsigned char *need = onnxslim__mem_calloc(m, slots ? slots : 1, 1, UNUSED);
  onnxslim_node **work = need ? onnxslim__mem_alloc(m, (n ? n : 1) * sizeof *work, UNUSED) : NULL;
  if (!work) {
    onnxslim__mem_free(m, need);
    return onnxslim_error_last_code();
  }
  size_t top = 0, nout = onnxslim_graph_output_count(g);
  for (size_t i = 0; i < nout; i++)
    need_value(g, onnxslim_value_info_name(onnxslim_graph_output(g, i)), need, slots, work, &top);
  while (top) {
    onnxslim_node *c = work[--top];
    for (size_t k = 0, nv = onnxslim_node_input_count(c); k < nv; k++)
      need_value(g, onnxslim_node_input(c, k), need, slots, work, &top);
  }
  for (size_t i = 0; i < n; i++) {
    size_t s = onnxslim__node_slot(d->nodes[i]);
    live[i] = s < slots && need[s];
  }
  onnxslim__mem_free(m, need);
  onnxslim__mem_free(m, work);
  return 1;
}

/* The nodes of g a graph output needs, by the dependencies (subgraph
 * captures included): d built, live[n] filled; 0 or an error. */
static int live_by_deps(onnxslim_graph *g, osl_deps *d, unsigned char *live) {
  int rc = build_deps(g, d, UNUSED);
  if (rc) return rc;
  size_t n1 = d->n ? d->n : 1, top = 0, nout = onnxslim_graph_output_count(g);
  size_t *work = onnxslim__mem_alloc(d->model, n1 * sizeof *work, UNUSED);
  if (!work) return onnxslim_error_last_code();
  for (size_t i = 0; i < nout; i++) {
    const char *v = onnxslim_value_info_name(onnxslim_graph_output(g, i));
    onnxslim_node *p = onnxslim__graph_producer_q(g, v);
    const osl_map_entry *hit = p ? onnxslim__map_find_ptr(&d->index, p) : NULL;
    if (hit && !live[hit->num]) {
      live[hit->num] = 1;
      work[top++] = (size_t)hit->num;
    }
  }
  while (top) {
    size_t c = work[--top];
    for (size_t e = d->pred_start[c]; e < d->pred_start[c + 1]; e++)
      if (!live[d->preds[e]]) {
        live[d->preds[e]] = 1;
        work[top++] = d->preds[e];
      }
  }
  onnxslim__mem_free(d->model, work);
  return 0;
}

static int remove_unused(onnxslim_graph *g, unsigned int flags, size_t *removed) {
  int rc = 0;
  /* recurse first: a subgraph that shrinks may stop capturing outer values */
  if (flags & ONNXSLIM_CLEANUP_RECURSIVE) rc = for_subgraphs(g, flags, remove_unused, removed);
  if (rc) return rc;
  osl_deps d;
  memset(&d, 0, sizeof d);
  d.model = onnxslim_graph_model(g);
  d.what = UNUSED;
  d.n = onnxslim_graph_node_count(g);
  size_t n = d.n, n1 = n ? n : 1;
  const onnxslim_model *m = d.model;
  size_t nini = onnxslim_graph_initializer_count(g), nvi = onnxslim_graph_value_info_count(g);
  size_t ndrop = 0, most = nini > nvi ? nini : nvi;
  unsigned char *live = onnxslim__mem_calloc(m, n1, 1, UNUSED);
  void **drop = live ? onnxslim__mem_alloc(m, (most ? most : 1) * sizeof *drop, UNUSED) : NULL;
  /* the names of the graph's inputs and outputs (which keep their
   * initializers): one lookup per initializer, not a scan */
  osl_map io = {0};
  if (!live || !drop) {
    rc = onnxslim_error_last_code();
    goto out;
  }
  if (n > INT32_MAX) { /* as build_deps says */
    rc = onnxslim__err(ONNXSLIM_ELIMIT, "a graph of %zu nodes (at most %d)", n, INT32_MAX);
    goto out;
  }
  if (!(d.nodes = onnxslim__mem_alloc(m, n1 * sizeof *d.nodes, UNUSED))) {
    rc = onnxslim_error_last_code();
    goto out;
  }
  rc = live_in_order(g, &d, live);
  if (rc == 0) {
    onnxslim__mem_free(m, d.nodes);
    d.nodes = NULL;
    rc = live_by_deps(g, &d, live);
  } else if (rc == 1) {
    rc = 0;
  }
  if (rc) goto out;
  size_t nin = onnxslim_graph_input_count(g), nout = onnxslim_graph_output_count(g);
  if ((rc = onnxslim__mem_map_reserve(m, &io, nin + nout, UNUSED)) != 0) goto out;
  for (size_t k = 0; k < nin + nout && rc >= 0; k++) {
    const onnxslim_value_info *vi =
        k < nin ? onnxslim_graph_input(g, k) : onnxslim_graph_output(g, k - nin);
    const char *name = vi ? onnxslim_value_info_name(vi) : NULL;
    osl_map_entry *e;
    if (name) rc = onnxslim__mem_map_add(m, &io, name, &e, UNUSED);
  }
  if (rc < 0) goto out;
  rc = 0;
  for (size_t i = n; i-- > 0 && !rc;)
    if (!live[i]) {
      rc = onnxslim_graph_remove_node(g, d.nodes[i]);
      if (!rc && removed) (*removed)++;
    }
  /* initializers nothing reads any more, then value_info of values that
   * no longer exist: each kind gathered first, then removed (a lookup by
   * index between removals would apply the queued removal each time:
   * quadratic) */
  for (size_t i = 0; i < nini && !rc; i++) {
    onnxslim_tensor *t = onnxslim_graph_initializer(g, i);
    const char *name = onnxslim_tensor_name(t);
    if (!onnxslim__map_find(&io, name) && onnxslim__graph_consumer_count_q(g, name) == 0)
      drop[ndrop++] = t;
  }
  for (size_t i = ndrop; i-- > 0 && !rc;) {
    rc = onnxslim_graph_remove_initializer(g, (onnxslim_tensor *)drop[i]);
    if (!rc && removed) (*removed)++;
  }
  ndrop = 0;
  for (size_t i = 0; i < nvi && !rc; i++) {
    onnxslim_value_info *vi = onnxslim_graph_value_info(g, i);
    const char *name = onnxslim_value_info_name(vi);
    if (!onnxslim__graph_producer_q(g, name) && !onnxslim__graph_consumer_count_q(g, name) &&
        !onnxslim__graph_initializer_q(g, name))
      drop[ndrop++] = vi;
  }
  for (size_t i = ndrop; i-- > 0 && !rc;) {
    rc = onnxslim_graph_remove_value_info(g, (onnxslim_value_info *)drop[i]);
    if (!rc && removed) (*removed)++;
  }
out:
  onnxslim__mem_map_free(m, &io);
  onnxslim__mem_free(m, live);
  onnxslim__mem_free(m, drop);
  deps_free(&d);
  return rc;
}

int onnxslim_cleanup_remove_unused_with(onnxslim_graph *graph, const onnxslim_cleanup_options *opts,
                                        size_t *removed) {
  if (removed) *removed = 0;
  unsigned int flags;
  int rc = cleanup_flags(graph, opts, &flags, "onnxslim_cleanup_remove_unused");
  return rc ? rc : remove_unused(graph, flags, removed);
}

int onnxslim_cleanup_remove_unused(onnxslim_graph *graph, unsigned int flags, size_t *removed) {
  onnxslim_cleanup_options o = ONNXSLIM_CLEANUP_OPTIONS_INIT;
  o.flags = flags;
  return onnxslim_cleanup_remove_unused_with(graph, &o, removed);
}
