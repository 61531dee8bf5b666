/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - simplification (simplify.h): the pipeline, options, pass
 * names and the dead-code pass. The no-op and common-subexpression passes
 * are in simplify_rules.c, the report in simplify_report.c. Built on the public handle API; what a
 * pass holds per node or name is counted against the model's max_memory.
 */
#include <stdlib.h>
#include <string.h>

#include "onnx.pb.h"

#include "passes/simplify_int.h"

/* ---- options and pass names ---------------------------------------------- */

int onnxslim_simplify_options_init(onnxslim_simplify_options *opts, unsigned int version) {
  if (!opts) return onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_simplify_options_init: NULL opts");
  if (version < 1 || version > ONNXSLIM_SIMPLIFY_OPTIONS_VERSION)
    return onnxslim__err(ONNXSLIM_EINVAL,
                         "onnxslim_simplify_options_init: unknown version %u (1 to %d)", version,
                         ONNXSLIM_SIMPLIFY_OPTIONS_VERSION);
  onnxslim_simplify_options d = ONNXSLIM_SIMPLIFY_OPTIONS_INIT;
  d.version = version;
  *opts = d;
  return 0;
}

static const struct {
  unsigned int bit;
  const char *name;
} pass_names[] = {
    {ONNXSLIM_SIMPLIFY_NOOP, "noop"},
    {ONNXSLIM_SIMPLIFY_CSE, "cse"},
    {ONNXSLIM_SIMPLIFY_FOLD, "fold"},
    {ONNXSLIM_SIMPLIFY_DEAD, "dead"},
};
#define N_PASSES (sizeof pass_names / sizeof pass_names[0])

const char *onnxslim_simplify_pass_name(unsigned int pass) {
  for (size_t i = 0; i < N_PASSES; i++)
    if (pass_names[i].bit == pass) return pass_names[i].name;
  onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_simplify_pass_name: no pass %u", pass);
  return NULL;
}

int onnxslim_simplify_parse_passes(const char *list, unsigned int *passes) {
  if (!list || !passes)
    return onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_simplify_parse_passes: NULL argument");
  unsigned int bits = 0;
  const char *p = list;
  for (;;) {
    const char *e = strchr(p, ',');
    size_t n = e ? (size_t)(e - p) : strlen(p);
    unsigned int bit = 0;
    if (n == 3 && memcmp(p, "all", 3) == 0) bit = ONNXSLIM_SIMPLIFY_ALL;
    for (size_t i = 0; i < N_PASSES && !bit; i++)
      if (strlen(pass_names[i].name) == n && memcmp(p, pass_names[i].name, n) == 0)
        bit = pass_names[i].bit;
    if (!bit)
      return onnxslim__err(ONNXSLIM_EINVAL,
                           "unknown simplification pass '%.*s' (known: noop, cse, fold, dead, all)",
                           (int)(n > 64 ? 64 : n), p);
    bits |= bit;
    if (!e) break;
    p = e + 1;
  }
  *passes = bits;
  return 0;
}

/* ---- counting and checks -------------------------------------------------- */

static void count_graph(const onnxslim_graph *g, uint64_t *nodes, uint64_t *inits) {
  size_t n = onnxslim_graph_node_count(g);
  *nodes += n;
  *inits += onnxslim_graph_initializer_count(g);
  for (size_t i = 0; i < n; i++) {
    onnxslim_node *nd = onnxslim_graph_node(g, i);
    for (size_t k = 0; k < onnxslim_node_subgraph_count(nd); k++)
      count_graph(onnxslim_node_subgraph(nd, k), nodes, inits);
  }
}

/* Every value of g (graph inputs, initializers, node outputs) defined once
 * (a graph input may also be an initializer); then the same for the
 * subgraphs. */
static int check_single_def(const onnxslim_model *m, const onnxslim_graph *g) {
  static const char what[] = "simplify: value names";
  osl_map defs = {0};
  osl_map_entry *e;
  /* sized once (about one value a node): no growth while it fills */
  int rc = onnxslim__mem_map_reserve(m, &defs,
                                     onnxslim_graph_input_count(g) +
                                         onnxslim_graph_initializer_count(g) +
                                         onnxslim_graph_node_count(g),
                                     what);
  for (size_t i = 0; i < onnxslim_graph_input_count(g) && rc >= 0; i++)
    rc = onnxslim__mem_map_add(m, &defs, onnxslim_value_info_name(onnxslim_graph_input(g, i)), &e,
                               what);
  for (size_t i = 0; i < onnxslim_graph_initializer_count(g) && rc >= 0; i++) {
    const char *name = onnxslim_tensor_name(onnxslim_graph_initializer(g, i));
    if (!name || !name[0]) continue;
    rc = onnxslim__mem_map_add(m, &defs, name, &e, what);
    if (rc == 0 && e->num == 2) {
      rc = onnxslim__err(ONNXSLIM_EMODEL, "graph '%s': two initializers are named '%s'",
                         onnxslim_graph_name(g), name);
      break;
    }
    if (rc >= 0) e->num = 2;
  }
  size_t n = onnxslim_graph_node_count(g);
  for (size_t i = 0; i < n && rc >= 0; i++) {
    onnxslim_node *nd = onnxslim_graph_node(g, i);
    if (i + OSL_SIMP_AHEAD < n) { /* the slots a few nodes ahead: the fetches overlap */
      onnxslim_node *ahead = onnxslim_graph_node(g, i + OSL_SIMP_AHEAD);
      for (size_t k = 0, na = onnxslim_node_output_count(ahead); k < na; k++) {
        const char *v = onnxslim_node_output(ahead, k);
        if (v) onnxslim__map_prefetch(&defs, v);
      }
    }
    for (size_t k = 0; k < onnxslim_node_output_count(nd) && rc >= 0; k++) {
      const char *v = onnxslim_node_output(nd, k);
      if (!v || !v[0]) continue;
      rc = onnxslim__mem_map_add(m, &defs, v, &e, what);
      if (rc == 0) {
        rc = onnxslim__err(ONNXSLIM_EMODEL,
                           "graph '%s': value '%s' is defined twice (node '%s' produces it again)",
                           onnxslim_graph_name(g), v, onnxslim__simp_label(nd));
        break;
      }
    }
  }
  onnxslim__mem_map_free(m, &defs);
  if (rc < 0) return rc;
  for (size_t i = 0; i < n; i++) {
    onnxslim_node *nd = onnxslim_graph_node(g, i);
    for (size_t k = 0; k < onnxslim_node_subgraph_count(nd); k++)
      if ((rc = check_single_def(m, onnxslim_node_subgraph(nd, k))) < 0) return rc;
  }
  return 0;
}

/* ---- the dead-code pass ------------------------------------------------------ */

typedef struct {
  const void *ptr;
  char *label, *graph;
  int kind;
} osl_dead_item;
typedef struct {
  osl_dead_item *v;
  size_t n, cap;
} osl_dead_list;

static int dead_push(osl_dead_list *l, const void *ptr, const char *label, int kind,
                     const onnxslim_graph *g) {
  if (l->n == l->cap) {
    size_t cap = l->cap ? 2 * l->cap : 64;
    osl_dead_item *p = realloc(l->v, cap * sizeof *p);
    if (!p) return onnxslim__err_nomem("simplify: dead code");
    l->v = p;
    l->cap = cap;
  }
  osl_dead_item *it = &l->v[l->n];
  it->ptr = ptr;
  it->kind = kind;
  it->label = onnxslim__simp_strdup(label);
  it->graph = onnxslim__simp_strdup(onnxslim_graph_name(g));
  if (!it->label || !it->graph) {
    free(it->label);
    free(it->graph);
    return onnxslim__err_nomem("simplify: dead code");
  }
  l->n++;
  return 0;
}

static int dead_collect(osl_dead_list *l, const onnxslim_graph *g) {
  int rc;
  for (size_t i = 0; i < onnxslim_graph_initializer_count(g); i++) {
    onnxslim_tensor *t = onnxslim_graph_initializer(g, i);
    if ((rc = dead_push(l, t, onnxslim_tensor_name(t), ONNXSLIM_SIMPLIFY_REMOVED_INITIALIZER, g)))
      return rc;
  }
  for (size_t i = 0; i < onnxslim_graph_node_count(g); i++) {
    onnxslim_node *nd = onnxslim_graph_node(g, i);
    if ((rc = dead_push(l, nd, onnxslim__simp_label(nd), ONNXSLIM_SIMPLIFY_REMOVED_NODE, g)))
      return rc;
    for (size_t k = 0; k < onnxslim_node_subgraph_count(nd); k++)
      if ((rc = dead_collect(l, onnxslim_node_subgraph(nd, k)))) return rc;
  }
  return 0;
}

static int dead_mark(const onnxslim_model *m, osl_map *live, const onnxslim_graph *g) {
  int rc;
  osl_map_entry *e;
  for (size_t i = 0; i < onnxslim_graph_initializer_count(g); i++)
    if ((rc = onnxslim__mem_map_add_ptr(m, live, onnxslim_graph_initializer(g, i), &e,
                                        "simplify: dead code")) < 0)
      return rc;
  for (size_t i = 0; i < onnxslim_graph_node_count(g); i++) {
    onnxslim_node *nd = onnxslim_graph_node(g, i);
    if ((rc = onnxslim__mem_map_add_ptr(m, live, nd, &e, "simplify: dead code")) < 0) return rc;
    for (size_t k = 0; k < onnxslim_node_subgraph_count(nd); k++)
      if ((rc = dead_mark(m, live, onnxslim_node_subgraph(nd, k))) < 0) return rc;
  }
  return 0;
}

static int domain_default(const char *d) { return !d || !d[0] || strcmp(d, "ai.onnx") == 0; }

static int domains_used(const onnxslim_model *m, osl_map *used, const onnxslim_graph *g) {
  int rc;
  osl_map_entry *e;
  for (size_t i = 0; i < onnxslim_graph_node_count(g); i++) {
    onnxslim_node *nd = onnxslim_graph_node(g, i);
    const char *d = onnxslim_node_domain(nd);
    if (!domain_default(d) && (rc = onnxslim__mem_map_add(m, used, d, &e, "simplify: domains")) < 0)
      return rc;
    for (size_t k = 0; k < onnxslim_node_subgraph_count(nd); k++)
      if ((rc = domains_used(m, used, onnxslim_node_subgraph(nd, k))) < 0) return rc;
  }
  return 0;
}

/* Unused opset imports: domains no node of any graph or local function
 * uses (nor a local function's own domain). */
static int dead_opsets(osl_simp *c) {
  onnxslim_model *m = c->model;
  osl_map used = {0};
  osl_map_entry *e;
  int rc = domains_used(m, &used, onnxslim_model_graph(m));
  for (size_t f = 0; f < onnxslim_model_function_count(m) && rc >= 0; f++) {
    onnxslim_function *fn = onnxslim_model_function(m, f);
    const char *fd = onnxslim_function_domain(fn);
    if (!domain_default(fd) && (rc = onnxslim__mem_map_add(m, &used, fd, &e, "simplify")) < 0)
      break;
    for (size_t i = 0; i < onnxslim_function_node_count(fn) && rc >= 0; i++) {
      onnxslim_node *nd = onnxslim_function_node(fn, i);
      const char *d = onnxslim_node_domain(nd);
      if (!domain_default(d)) rc = onnxslim__mem_map_add(m, &used, d, &e, "simplify");
      for (size_t k = 0; k < onnxslim_node_subgraph_count(nd) && rc >= 0; k++)
        rc = domains_used(m, &used, onnxslim_node_subgraph(nd, k));
    }
  }
  for (size_t i = 0; i < onnxslim_model_opset_count(m) && rc >= 0;) {
    const char *d = NULL;
    if ((rc = onnxslim_model_opset(m, i, &d, NULL)) < 0) break;
    if (domain_default(d) || onnxslim__map_find(&used, d)) {
      i++;
      continue;
    }
    char *keep = onnxslim__simp_strdup(d);
    if (!keep) {
      rc = onnxslim__err_nomem("simplify");
      break;
    }
    rc = onnxslim_model_remove_opset(m, keep);
    if (rc >= 0) rc = onnxslim__simp_change(c, NULL, ONNXSLIM_SIMPLIFY_REMOVED_OPSET, keep, "");
    free(keep);
  }
  onnxslim__mem_map_free(m, &used);
  return rc < 0 ? rc : 0;
}

/* "domain\x1fname" of a call or a function, the default domain as "". */
static char *call_key(const char *domain, const char *name) {
  if (domain_default(domain)) domain = "";
  if (!name) name = "";
  size_t a = strlen(domain), b = strlen(name);
  char *k = malloc(a + b + 2);
  if (!k) return NULL;
  memcpy(k, domain, a);
  k[a] = '\x1f';
  memcpy(k + a + 1, name, b + 1);
  return k;
}

typedef struct {
  char **v;
  size_t n, cap;
} osl_keys;

static int keys_add(osl_keys *ks, const char *domain, const char *name) {
  char *k = call_key(domain, name);
  if (!k) return onnxslim__err_nomem("simplify: functions");
  for (size_t i = 0; i < ks->n; i++)
    if (strcmp(ks->v[i], k) == 0) {
      free(k);
      return 0;
    }
  if (ks->n == ks->cap) {
    size_t cap = ks->cap ? 2 * ks->cap : 16;
    char **p = realloc(ks->v, cap * sizeof *p);
    if (!p) {
      free(k);
      return onnxslim__err_nomem("simplify: functions");
    }
    ks->v = p;
    ks->cap = cap;
  }
  ks->v[ks->n++] = k;
  return 1;
}
static int keys_has(const osl_keys *ks, const char *domain, const char *name) {
  char *k = call_key(domain, name);
  int hit = 0;
  for (size_t i = 0; k && i < ks->n && !hit; i++) hit = strcmp(ks->v[i], k) == 0;
  free(k);
  return hit;
}

/* The (domain, op) of every node of g and its subgraphs into ks. */
static int calls_of_graph(osl_keys *ks, const onnxslim_graph *g) {
  int rc;
  for (size_t i = 0; i < onnxslim_graph_node_count(g); i++) {
    onnxslim_node *nd = onnxslim_graph_node(g, i);
    if ((rc = keys_add(ks, onnxslim_node_domain(nd), onnxslim_node_op_type(nd))) < 0) return rc;
    for (size_t k = 0; k < onnxslim_node_subgraph_count(nd); k++)
      if ((rc = calls_of_graph(ks, onnxslim_node_subgraph(nd, k))) < 0) return rc;
  }
  return 0;
}

/* Local functions no node of the main graph calls, directly or through
 * the functions it calls (every overload of a called name is kept). */
static int dead_functions(osl_simp *c) {
  onnxslim_model *m = c->model;
  size_t nf = onnxslim_model_function_count(m);
  if (!nf) return 0;
  osl_keys used = {0};
  int rc = calls_of_graph(&used, onnxslim_model_graph(m));
  for (int grew = 1; rc >= 0 && grew;) {
    grew = 0;
    for (size_t f = 0; f < nf && rc >= 0; f++) {
      onnxslim_function *fn = onnxslim_model_function(m, f);
      if (!keys_has(&used, onnxslim_function_domain(fn), onnxslim_function_name(fn))) continue;
      for (size_t i = 0; i < onnxslim_function_node_count(fn) && rc >= 0; i++) {
        onnxslim_node *nd = onnxslim_function_node(fn, i);
        rc = keys_add(&used, onnxslim_node_domain(nd), onnxslim_node_op_type(nd));
        if (rc > 0) grew = 1;
        for (size_t k = 0; k < onnxslim_node_subgraph_count(nd) && rc >= 0; k++)
          rc = calls_of_graph(&used, onnxslim_node_subgraph(nd, k));
      }
    }
  }
  osl_msg *root = rc >= 0 ? onnxslim__model_root(m, "onnxslim_simplify") : NULL;
  if (rc >= 0 && !root) rc = ONNXSLIM_EINVAL;
  for (size_t f = 0; rc >= 0 && f < onnxslim_model_function_count(m);) {
    onnxslim_function *fn = onnxslim_model_function(m, f);
    const char *d = onnxslim_function_domain(fn), *name = onnxslim_function_name(fn);
    if (keys_has(&used, d, name)) {
      f++;
      continue;
    }
    size_t pos = onnxslim__msg_pos_of(root, (osl_msg *)fn);
    if (pos == SIZE_MAX || root->f[pos].number != onnx_ModelProto_functions_tag) {
      rc = onnxslim__err(ONNXSLIM_EMODEL, "simplify: cannot find function '%s'", name);
      break;
    }
    char *label = call_key(d, name);
    if (!label) {
      rc = onnxslim__err_nomem("simplify: functions");
      break;
    }
    label[strlen(domain_default(d) ? "" : d)] = ':';
    onnxslim__msg_remove(root, pos);
    rc = onnxslim__simp_change(c, NULL, ONNXSLIM_SIMPLIFY_REMOVED_FUNCTION,
                               label[0] == ':' ? label + 1 : label, "");
    free(label);
  }
  for (size_t i = 0; i < used.n; i++) free(used.v[i]);
  free(used.v);
  return rc < 0 ? rc : 0;
}

static int pass_dead(osl_simp *c) {
  onnxslim_model *m = c->model;
  onnxslim_graph *g = onnxslim_model_graph(m);
  osl_dead_list before = {0};
  osl_map live = {0};
  size_t removed = 0;
  int rc = dead_collect(&before, g);
  if (rc == 0) rc = onnxslim_cleanup_remove_unused(g, ONNXSLIM_CLEANUP_RECURSIVE, &removed);
  if (rc == 0 && removed) rc = dead_mark(m, &live, g);
  for (size_t i = 0; i < before.n && rc >= 0 && removed; i++) {
    osl_dead_item *it = &before.v[i];
    if (onnxslim__map_find_ptr(&live, it->ptr)) continue;
    rc = onnxslim__simp_change(c, NULL, it->kind, it->label, "");
    if (rc >= 0) {
      /* the graph's name as collected (the graph may be gone) */
      struct osl_simp_change *e = &c->report->ch[c->report->nch - 1];
      free(e->graph);
      e->graph = it->graph;
      it->graph = NULL;
    }
  }
  for (size_t i = 0; i < before.n; i++) {
    free(before.v[i].label);
    free(before.v[i].graph);
  }
  free(before.v);
  onnxslim__mem_map_free(m, &live);
  if (rc < 0) return rc;
  if ((rc = dead_functions(c)) < 0) return rc;
  return dead_opsets(c);
}

/* ---- the pipeline ---------------------------------------------------------- */

int onnxslim_simplify(onnxslim_simplify_report **out, onnxslim_model *model,
                      const onnxslim_simplify_options *opts) {
  if (out) *out = NULL;
  if (!model) return onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_simplify: NULL model");
  onnxslim_simplify_options o = ONNXSLIM_SIMPLIFY_OPTIONS_INIT;
  if (opts) {
    if (opts->version < 1 || opts->version > ONNXSLIM_SIMPLIFY_OPTIONS_VERSION)
      return onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_simplify: unknown options version %u",
                           opts->version);
    o = *opts;
  }
  if (!o.passes || (o.passes & ~ONNXSLIM_SIMPLIFY_ALL))
    return onnxslim__err(ONNXSLIM_EINVAL,
                         "onnxslim_simplify: passes 0x%x (a nonzero mix of NOOP, CSE, FOLD, DEAD)",
                         o.passes);
  if (o.max_iterations > ONNXSLIM_SIMPLIFY_MAX_ITERATIONS)
    return onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_simplify: max_iterations %u (at most %u)",
                         o.max_iterations, ONNXSLIM_SIMPLIFY_MAX_ITERATIONS);
  if (o.flags) return onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_simplify: reserved flags set");
  unsigned int iters = o.max_iterations ? o.max_iterations : ONNXSLIM_SIMPLIFY_MAX_ITERATIONS;
  onnxslim_graph *g = onnxslim_model_graph(model);
  if (!g) return onnxslim__err(ONNXSLIM_EMODEL, "onnxslim_simplify: the model has no graph");

  int rc = onnxslim_cleanup_toposort(g, ONNXSLIM_CLEANUP_RECURSIVE);
  if (rc < 0) return rc;
  if ((rc = check_single_def(model, g)) < 0) return rc;

  onnxslim_simplify_report *r = calloc(1, sizeof *r);
  if (!r) return onnxslim__err_nomem("simplify report");
  unsigned int npass = 0;
  for (size_t i = 0; i < N_PASSES; i++)
    if (o.passes & pass_names[i].bit) npass++;
  /* progress: 0, then after each pass run (below total), then total */
  uint64_t total = (uint64_t)iters * npass, done = 0;
  if (o.progress && o.progress(0, total, o.progress_payload) != 0)
    rc = onnxslim__err(ONNXSLIM_ECANCELED, "simplify: canceled by the progress function");
  osl_simp c = {0};
  c.model = model;
  c.report = r;
  c.fold_max_bytes = o.fold_max_bytes ? o.fold_max_bytes : ONNXSLIM_SIMPLIFY_FOLD_MAX_BYTES;
  for (unsigned int it = 1; it <= iters && rc >= 0; it++) {
    size_t round = 0;
    r->iterations = it;
    for (size_t i = 0; i < N_PASSES && rc >= 0; i++) {
      if (!(o.passes & pass_names[i].bit)) continue;
      struct osl_simp_step s = {pass_names[i].bit, it, 0, 0, 0, 0};
      count_graph(g, &s.nodes_before, &s.inits_before);
      c.pass = pass_names[i].bit;
      c.changes = 0;
      if (c.pass == ONNXSLIM_SIMPLIFY_NOOP) rc = onnxslim__simp_noop(&c, g);
      else if (c.pass == ONNXSLIM_SIMPLIFY_CSE) rc = onnxslim__simp_cse(&c, g);
      else if (c.pass == ONNXSLIM_SIMPLIFY_FOLD) {
        rc = onnxslim__simp_fold(&c);
        if (rc >= 0) rc = onnxslim__simp_const_nodes(&c);
      } else rc = pass_dead(&c);
      count_graph(g, &s.nodes_after, &s.inits_after);
      if (rc >= 0) rc = onnxslim__simp_step(r, &s);
      round += c.changes;
      if (rc >= 0 && o.progress && ++done < total &&
          o.progress(done, total, o.progress_payload) != 0)
        rc = onnxslim__err(ONNXSLIM_ECANCELED, "simplify: canceled by the progress function");
    }
    if (!round) break;
  }
  if (rc < 0) {
    onnxslim_simplify_report_free(r);
    return rc;
  }
  if (o.progress) (void)o.progress(total, total, o.progress_payload);
  if (out) *out = r;
  else onnxslim_simplify_report_free(r);
  return 0;
}
