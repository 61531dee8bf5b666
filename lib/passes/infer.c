/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - type and shape inference (infer.h).
 *
 * One walk over the main graph's nodes in order. Every value gets an
 * `ival`: element type (0 unknown), rank (-1 unknown) and dims, each a
 * fixed value, a symbol (dim_param) or unknown; small int64/int32 tensors
 * of rank 0 or 1 also carry their elements as dims ("data"), so a shape
 * computed by Shape/Gather/Concat reaches Reshape. Types come from the
 * schema tables' constraints (generic); shapes from the rules of
 * infer_ops*.c, one file per family of operators. Everything is held in one arena and
 * written only at the end, after a strict check has found no conflict.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opschema/opschema.h"
#include "passes/passes.h"
#include "passes/infer_int.h"

/* ---- existing types, merge, report --------------------------------------- */

/* 1 when a and b cannot both be the value's type. */
static int conflicts(const ival *a, const ival *b) {
  if (a->dtype && b->dtype && a->dtype != b->dtype) return 1;
  if (a->rank < 0 || b->rank < 0) return 0;
  if (a->rank != b->rank) return 1;
  for (int j = 0; j < a->rank; j++)
    if (a->d[j].k == DK_VALUE && b->d[j].k == DK_VALUE && a->d[j].v != b->d[j].v) return 1;
  return 0;
}

static int report_add(ictx *c, const char *name, int status, const ival *v) {
  onnxslim_infer_report *r = c->rep;
  if (!r) return 0;
  if (r->n == r->cap) {
    size_t cap = r->cap ? r->cap * 2 : 64;
    rep_entry *e = realloc(r->e, cap * sizeof *e);
    if (!e) return -1;
    r->e = e;
    r->cap = cap;
  }
  rep_entry *e = &r->e[r->n];
  e->name = onnxslim__arena_strndup(&r->arena, name, strlen(name));
  e->status = status;
  e->dtype = v->dtype;
  e->rank = v->rank;
  e->d = NULL;
  if (!e->name) return -1;
  if (v->rank > 0) {
    e->d = onnxslim__arena_alloc(&r->arena, (size_t)v->rank * sizeof *e->d);
    if (!e->d) return -1;
    for (int j = 0; j < v->rank; j++) {
      e->d[j] = v->d[j];
      if (v->d[j].k == DK_PARAM &&
          !(e->d[j].p = onnxslim__arena_strndup(&r->arena, v->d[j].p, strlen(v->d[j].p))))
        return -1;
    }
  }
  r->n++;
  if (status == ONNXSLIM_INFER_CONFLICT) r->conflicts++;
  return 0;
}

static int pend_add(ictx *c, const char *name, onnxslim_value_info *vi, const ival *v) {
  if (c->npend == c->cappend) {
    size_t cap = c->cappend ? c->cappend * 2 : 64;
    pending *p = realloc(c->pend, cap * sizeof *p);
    if (!p) return -1;
    c->pend = p;
    c->cappend = cap;
  }
  c->pend[c->npend++] = (pending){name, vi, *v};
  return 0;
}

static void describe(char *buf, size_t cap, const ival *v) {
  size_t k = (size_t)snprintf(buf, cap, "%s", v->dtype ? onnxslim_dtype_name(v->dtype) : "?");
  if (v->rank < 0 || k >= cap) return;
  k += (size_t)snprintf(buf + k, cap - k, "[");
  for (int j = 0; j < v->rank && k < cap; j++) {
    const idim *d = &v->d[j];
    if (d->k == DK_VALUE) k += (size_t)snprintf(buf + k, cap - k, "%s%" PRId64, j ? "," : "", d->v);
    else
      k += (size_t)snprintf(buf + k, cap - k, "%s%s", j ? "," : "", d->k == DK_PARAM ? d->p : "?");
  }
  if (k < cap) snprintf(buf + k, cap - k, "]");
}

/* Merges what inference found for value `name` with its existing type,
 * records it for what follows, the report and the write. */
static int settle(ictx *c, const char *name, ival *inf, int constant) {
  onnxslim_value_info *vi = onnxslim__graph_value_info_q(c->g, name);
  ival old;
  read_vi(c, vi, &old);
  if (c->oom) return ONNXSLIM_ENOMEM;
  ival *keep = new_val(c, 0, -1);
  if (!keep) return ONNXSLIM_ENOMEM;
  /* the fold's run reads only what follows from the graph's inputs and
   * constants: a stated type of a computed value is not checked by a runtime */
  int has_old = !(c->flags & ONNXSLIM__INFER_UNSTATED) && (old.dtype != 0 || old.rank >= 0);
  int status;
  if (!has_old) {
    *keep = *inf;
    status = inf->dtype ? ONNXSLIM_INFER_NEW : 0;
  } else if (conflicts(&old, inf)) {
    if (c->flags & ONNXSLIM_INFER_STRICT) {
      char a[256], b[256];
      describe(a, sizeof a, inf);
      describe(b, sizeof b, &old);
      return onnxslim__err(ONNXSLIM_EMODEL,
                           "onnxslim_infer_shapes: value '%s': inferred %s, the model says %s",
                           name, a, b);
    }
    *keep = old;
    status = ONNXSLIM_INFER_CONFLICT;
    if (report_add(c, name, status, inf)) return onnxslim__err_nomem("an inference report");
    return put(c, name, keep) ? ONNXSLIM_ENOMEM : 0;
  } else {
    int changed = 0;
    keep->dtype = old.dtype ? old.dtype : inf->dtype;
    changed |= !old.dtype && inf->dtype;
    if (old.rank < 0 && inf->rank >= 0) {
      keep->rank = inf->rank;
      keep->d = inf->d;
      changed = 1;
    } else if (old.rank >= 0) {
      keep->rank = old.rank;
      keep->d = old.d;
      if (inf->rank == old.rank) {
        keep->d = new_dims(c, old.rank);
        if (!keep->d) return ONNXSLIM_ENOMEM;
        for (int j = 0; j < old.rank; j++) {
          keep->d[j] = old.d[j];
          if (old.d[j].k == DK_UNKNOWN && inf->d[j].k != DK_UNKNOWN)
            keep->d[j] = inf->d[j], changed = 1;
          else if (old.d[j].k == DK_PARAM && inf->d[j].k == DK_VALUE)
            keep->d[j] = inf->d[j], changed = 1;
        }
      }
    }
    keep->nd = inf->nd;
    keep->data = inf->data;
    status = changed ? ONNXSLIM_INFER_REFINED : ONNXSLIM_INFER_SAME;
    if (!keep->dtype) status = 0;
  }
  /* without data propagation only constants keep their values (as onnx's
   * inference reads initializers and Constant nodes) */
  if ((c->flags & ONNXSLIM_INFER_NO_DATA_PROP) && !constant) keep->nd = -1;
  if (put(c, name, keep)) return ONNXSLIM_ENOMEM;
  if (!status) return 0;
  if (report_add(c, name, status, keep)) return onnxslim__err_nomem("an inference report");
  if ((status == ONNXSLIM_INFER_NEW || status == ONNXSLIM_INFER_REFINED) &&
      !(c->flags & ONNXSLIM_INFER_DRY_RUN) && pend_add(c, name, vi, keep))
    return onnxslim__err_nomem("onnxslim_infer_shapes");
  return 0;
}

/* ---- seeds and the walk ------------------------------------------------------ */

static int seed(ictx *c) {
  /* the main graph's map sized once for every value it can hold (slots
   * malloc'd, huge pages when large): no rehash while it fills */
  size_t n = onnxslim_graph_input_count(c->g) + onnxslim_graph_initializer_count(c->g);
  for (size_t i = 0, nn = onnxslim_graph_node_count(c->g); i < nn; i++)
    n += onnxslim_node_output_count(onnxslim_graph_node(c->g, i));
  if (onnxslim__map_reserve(NULL, &c->vals, n)) {
    c->oom = 1;
    return ONNXSLIM_ENOMEM;
  }
  /* graph inputs first: an initializer that is also an input is only a
   * default the caller may override, so its values are not followed */
  n = onnxslim_graph_input_count(c->g);
  for (size_t i = 0; i < n; i++) {
    onnxslim_value_info *vi = onnxslim_graph_input(c->g, i);
    const char *name = onnxslim_value_info_name(vi);
    if (!name || !name[0]) continue;
    ival *v = new_val(c, 0, -1);
    if (!v) return ONNXSLIM_ENOMEM;
    read_vi(c, vi, v);
    if (put(c, name, v)) return ONNXSLIM_ENOMEM;
  }
  n = onnxslim_graph_initializer_count(c->g);
  for (size_t i = 0; i < n; i++) {
    onnxslim_tensor *t = onnxslim_graph_initializer(c->g, i);
    const char *name = t ? onnxslim_tensor_name(t) : NULL;
    if (!name) return ONNXSLIM_ENOMEM;
    if (onnxslim__map_get(&c->vals, name)) continue;
    ival *v = new_val(c, 0, -1);
    if (!v) return ONNXSLIM_ENOMEM;
    onnxslim__infer_from_tensor(c, t, v);
    if (put(c, name, v)) return ONNXSLIM_ENOMEM;
  }
  return c->oom ? ONNXSLIM_ENOMEM : 0;
}

/* The schema of node at the version its domain is imported at, or NULL. */
static const osl_op_schema *node_schema(const onnxslim_model *model, const onnxslim_node *node) {
  const char *dom = onnxslim_node_domain(node), *op = onnxslim_node_op_type(node);
  int nd = onnxslim__opschema_domain(dom);
  if (nd < 0) return NULL;
  size_t no = onnxslim_model_opset_count(model);
  int64_t ver = -1;
  for (size_t k = 0; k < no; k++) {
    const char *od = NULL;
    int64_t v = 0;
    if (onnxslim_model_opset(model, k, &od, &v) == 0 && od && onnxslim__opschema_domain(od) == nd)
      ver = v;
  }
  const osl_op_schema *sc = NULL;
  if (ver > 0 && ver <= onnxslim__opschema_domain_max(nd))
    sc = onnxslim__opschema_find(nd, op, ver, NULL, NULL);
  return sc && sc->deprecated ? NULL : sc;
}

/* ---- model-local functions ----------------------------------------------------
 * A node that no schema knows and that calls a model-local function gets
 * its outputs from the function's body, walked in a sealed scope (the
 * body sees its formal inputs, bound to the call's inputs, and its own
 * values only), as onnx's inference does. A body is walked only when what
 * its nodes read means the same inside as at the call: no attribute
 * references (the rules would read a reference as an absent attribute)
 * and no subgraphs, and the function imports each domain at the version
 * the model does. Otherwise, and past FUNCTION_DEPTH_MAX nested calls
 * (recursion is invalid), the outputs stay unknown. */

#define FUNCTION_DEPTH_MAX 8

static int same_domain(const char *a, const char *b) {
  if (!a || !b) return 0;
  if (strcmp(a, "ai.onnx") == 0) a = "";
  if (strcmp(b, "ai.onnx") == 0) b = "";
  return strcmp(a, b) == 0;
}

/* The model-local function node calls, or NULL. */
static const onnxslim_function *called_function(const onnxslim_model *m, const onnxslim_node *n) {
  size_t nf = onnxslim_model_function_count(m);
  for (size_t i = 0; i < nf; i++) {
    const onnxslim_function *f = onnxslim_model_function(m, i);
    const char *name = f ? onnxslim_function_name(f) : NULL;
    if (name && strcmp(name, onnxslim_node_op_type(n)) == 0 &&
        same_domain(onnxslim_function_domain(f), onnxslim_node_domain(n)))
      return f;
  }
  return NULL;
}

/* 1 when f's body can be walked with the model's rules (see above). */
static int body_walkable(const onnxslim_model *m, const onnxslim_function *f) {
  size_t nfo = onnxslim_function_opset_count(f), nmo = onnxslim_model_opset_count(m);
  for (size_t i = 0; i < nfo; i++) {
    const char *fd = NULL, *md = NULL;
    int64_t fv = 0, mv = 0, at = -1;
    if (onnxslim_function_opset(f, i, &fd, &fv) != 0) return 0;
    for (size_t k = 0; k < nmo; k++)
      if (onnxslim_model_opset(m, k, &md, &mv) == 0 && same_domain(md, fd)) at = mv;
    if (at != fv) return 0;
  }
  size_t nn = onnxslim_function_node_count(f);
  for (size_t i = 0; i < nn; i++) {
    const onnxslim_node *n = onnxslim_function_node(f, i);
    size_t na = n ? onnxslim_node_attr_count(n) : 0;
    if (!n) return 0;
    for (size_t k = 0; k < na; k++) {
      const onnxslim_attr *a = onnxslim_node_attr(n, k);
      const char *ref = a ? onnxslim_attr_ref_attr_name(a) : NULL;
      int t = a ? onnxslim_attr_type(a) : ONNXSLIM_ATTR_UNDEFINED;
      if (!a || (ref && ref[0]) || t == ONNXSLIM_ATTR_GRAPH || t == ONNXSLIM_ATTR_GRAPHS) return 0;
    }
  }
  return 1;
}

static ival *node_outs(ictx *c, const onnxslim_node *node, size_t *nout, int *rc);

/* The outputs of a call of f (outs[nout], UNKNOWN on entry). */
static void infer_call(ictx *c, const onnxslim_node *node, const onnxslim_function *f, ival *outs,
                       size_t nout) {
  if (c->depth >= FUNCTION_DEPTH_MAX || !body_walkable(c->model, f)) return;
  /* the call's inputs, read before the body's scope hides them */
  size_t nin = onnxslim_function_input_count(f), ncall = onnxslim_node_input_count(node);
  const ival **args = onnxslim__arena_alloc(&c->arena, (nin ? nin : 1) * sizeof *args);
  if (!args) {
    c->oom = 1;
    return;
  }
  for (size_t i = 0; i < nin; i++)
    args[i] = i < ncall ? get(c, onnxslim_node_input(node, i)) : &UNKNOWN;
  iscope s;
  memset(&s, 0, sizeof s);
  s.up = c->scope;
  s.sealed = 1;
  c->scope = &s;
  c->depth++;
  for (size_t i = 0; i < nin && !c->oom; i++) {
    const char *formal = onnxslim_function_input(f, i);
    if (formal && formal[0]) put(c, formal, (ival *)args[i]);
  }
  size_t nn = onnxslim_function_node_count(f);
  int rc = 0;
  for (size_t i = 0; i < nn && !rc && !c->oom; i++) {
    onnxslim_node *bn = onnxslim_function_node(f, i);
    size_t bnout = 0;
    ival *bouts = node_outs(c, bn, &bnout, &rc);
    for (size_t k = 0; bouts && k < bnout; k++) {
      const char *name = onnxslim_node_output(bn, k);
      if (name && name[0] && put(c, name, &bouts[k])) rc = ONNXSLIM_ENOMEM;
    }
  }
  size_t nfo = onnxslim_function_output_count(f);
  for (size_t k = 0; !rc && !c->oom && k < nout && k < nfo; k++)
    outs[k] = *get(c, onnxslim_function_output(f, k));
  c->scope = s.up;
  c->depth--;
  if (rc == ONNXSLIM_ENOMEM) c->oom = 1;
  else if (rc)
    for (size_t k = 0; k < nout; k++) outs[k] = UNKNOWN;
}

/* One node's outputs, in outs (arena), or NULL with c->oom / EINVAL. */
static ival *node_outs(ictx *c, const onnxslim_node *node, size_t *nout, int *rc) {
  *rc = 0;
  if (!onnxslim_node_domain(node) || !onnxslim_node_op_type(node)) {
    *rc = ONNXSLIM_EINVAL;
    return NULL;
  }
  *nout = onnxslim_node_output_count(node);
  ival *outs = onnxslim__arena_alloc(&c->arena, (*nout ? *nout : 1) * sizeof *outs);
  if (!outs) {
    *rc = ONNXSLIM_ENOMEM;
    return NULL;
  }
  for (size_t k = 0; k < *nout; k++) outs[k] = UNKNOWN;
  const osl_op_schema *sc = node_schema(c->model, node);
  const onnxslim_function *f = sc ? NULL : called_function(c->model, node);
  if (f) infer_call(c, node, f, outs, *nout);
  else onnxslim__infer_node(c, node, sc, outs, *nout);
  if (c->oom) *rc = ONNXSLIM_ENOMEM;
  return *rc ? NULL : outs;
}

/* A subgraph: its initializers and its nodes' outputs go into the current
 * scope; nothing is reported or written. */
static int walk_body(ictx *c, onnxslim_graph *g) {
  size_t n = onnxslim_graph_initializer_count(g);
  for (size_t i = 0; i < n; i++) {
    onnxslim_tensor *t = onnxslim_graph_initializer(g, i);
    const char *name = t ? onnxslim_tensor_name(t) : NULL;
    ival *v = new_val(c, 0, -1);
    if (!name || !v) return ONNXSLIM_ENOMEM;
    onnxslim__infer_from_tensor(c, t, v);
    if (put(c, name, v)) return ONNXSLIM_ENOMEM;
  }
  n = onnxslim_graph_node_count(g);
  for (size_t i = 0; i < n; i++) {
    onnxslim_node *node = onnxslim_graph_node(g, i);
    size_t nout = 0;
    int rc;
    ival *outs = node_outs(c, node, &nout, &rc);
    if (!outs) return rc;
    int constant = strcmp(onnxslim_node_op_type(node), "Constant") == 0;
    for (size_t k = 0; k < nout; k++) {
      const char *name = onnxslim_node_output(node, k);
      if (!name || !name[0]) continue;
      if ((c->flags & ONNXSLIM_INFER_NO_DATA_PROP) && !constant) outs[k].nd = -1;
      if (put(c, name, &outs[k])) return ONNXSLIM_ENOMEM;
    }
  }
  return c->oom ? ONNXSLIM_ENOMEM : 0;
}

static int walk(ictx *c) {
  size_t n = onnxslim_graph_node_count(c->g);
  for (size_t i = 0; i < n; i++) {
    onnxslim_node *node = onnxslim_graph_node(c->g, i);
    if (i + 1 < n) { /* where the next node's outputs go in (a large map misses the caches) */
      onnxslim_node *next = onnxslim_graph_node(c->g, i + 1);
      for (size_t k = 0, no = onnxslim_node_output_count(next); k < no; k++)
        onnxslim__map_prefetch(&c->vals, onnxslim_node_output(next, k));
    }
    size_t nout = 0;
    int rc;
    ival *outs = node_outs(c, node, &nout, &rc);
    if (!outs) return rc;
    for (size_t k = 0; k < nout; k++) {
      const char *name = onnxslim_node_output(node, k);
      if (!name || !name[0]) continue;
      rc = settle(c, name, &outs[k], strcmp(onnxslim_node_op_type(node), "Constant") == 0);
      if (rc) return rc;
    }
  }
  return 0;
}

static int write_one(ictx *c, const pending *p) {
  onnxslim_value_info *vi = onnxslim__graph_value_info_q(c->g, p->name);
  if (!vi) {
    int rc = onnxslim_graph_add_value_info(c->g, p->name, &vi);
    if (rc) return rc;
  }
  const ival *v = &p->v;
  if (v->rank < 0) return onnxslim_value_info_set_tensor_type(vi, v->dtype, NULL, NULL, SIZE_MAX);
  int64_t dims[RANK_MAX];
  const char *params[RANK_MAX];
  for (int j = 0; j < v->rank; j++) {
    dims[j] = v->d[j].k == DK_VALUE ? v->d[j].v : -1;
    params[j] = v->d[j].k == DK_PARAM ? v->d[j].p : NULL;
  }
  return onnxslim_value_info_set_tensor_type(vi, v->dtype, dims, params, (size_t)v->rank);
}

/* ---- public ---------------------------------------------------------------------- */

int onnxslim_infer_options_init(onnxslim_infer_options *opts, unsigned int version) {
  if (!opts) return onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_infer_options_init: NULL opts");
  if (version < 1 || version > ONNXSLIM_INFER_OPTIONS_VERSION)
    return onnxslim__err_options_version("onnxslim_infer_options_init", "infer options", version,
                                         ONNXSLIM_INFER_OPTIONS_VERSION);
  onnxslim_infer_options d = ONNXSLIM_INFER_OPTIONS_INIT;
  d.version = version;
  *opts = d;
  return 0;
}

#define INFER_FLAGS (ONNXSLIM_INFER_DRY_RUN | ONNXSLIM_INFER_STRICT | ONNXSLIM_INFER_NO_DATA_PROP)

int onnxslim_infer_shapes(onnxslim_infer_report **report, onnxslim_model *model,
                          const onnxslim_infer_options *opts) {
  const char *fn = "onnxslim_infer_shapes";
  if (report) *report = NULL;
  if (!model) return onnxslim__err(ONNXSLIM_EINVAL, "%s: NULL model", fn);
  unsigned flags = 0;
  if (opts) {
    if (opts->version < 1 || opts->version > ONNXSLIM_INFER_OPTIONS_VERSION)
      return onnxslim__err_options_version(fn, "infer options", opts->version,
                                           ONNXSLIM_INFER_OPTIONS_VERSION);
    if (opts->flags & ~INFER_FLAGS)
      return onnxslim__err(ONNXSLIM_EINVAL, "%s: reserved flags 0x%x set", fn,
                           opts->flags & ~INFER_FLAGS);
    flags = opts->flags;
  }
  return onnxslim__infer_shapes(report, model, flags);
}

int onnxslim__infer_shapes(onnxslim_infer_report **report, onnxslim_model *model, unsigned flags) {
  const char *fn = "onnxslim_infer_shapes";
  if (report) *report = NULL;
  if (!model) return onnxslim__err(ONNXSLIM_EINVAL, "%s: NULL model", fn);
  /* lookups on the way (a value without value_info, an absent attribute)
   * record ENOTFOUND: a success puts the caller's last error back */
  osl_err_saved saved;
  onnxslim__err_save(&saved);
  ictx c;
  memset(&c, 0, sizeof c);
  c.g = onnxslim_model_graph(model);
  c.flags = flags;
  c.model = model;
  c.walk_body = walk_body;
  if (!c.g) return onnxslim__err(ONNXSLIM_EINVAL, "%s: the model has no graph", fn);
  size_t no = onnxslim_model_opset_count(model);
  for (size_t k = 0; k < no; k++) {
    const char *od = NULL;
    int64_t v = 0;
    if (onnxslim_model_opset(model, k, &od, &v) == 0 && od &&
        (!od[0] || strcmp(od, "ai.onnx") == 0))
      c.opset = v;
  }
  if (report) {
    c.rep = calloc(1, sizeof *c.rep);
    if (!c.rep) return onnxslim__err_nomem("an inference report");
  }
  int rc = seed(&c);
  if (!rc) rc = walk(&c);
  if (rc == ONNXSLIM_ENOMEM && c.oom) rc = onnxslim__err_nomem(fn);
  for (size_t i = 0; !rc && i < c.npend; i++) rc = write_one(&c, &c.pend[i]);
  free(c.pend);
  onnxslim__map_free(&c.vals);
  onnxslim__arena_free(&c.arena);
  if (rc) {
    onnxslim_infer_report_free(c.rep);
    return rc;
  }
  if (report) *report = c.rep;
  onnxslim__err_restore(&saved);
  return 0;
}
