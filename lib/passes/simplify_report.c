/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - the report of a simplification (simplify.h): what the
 * passes record and the public getters.
 */
#include <stdlib.h>
#include <string.h>

#include "passes/simplify_int.h"

/* ---- report ------------------------------------------------------------- */

char *onnxslim__simp_strdup(const char *s) {
  if (!s) s = "";
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (d) memcpy(d, s, n);
  return d;
}

int onnxslim__simp_change(osl_simp *c, onnxslim_graph *g, int kind, const char *name,
                          const char *into) {
  onnxslim_simplify_report *r = c->report;
  c->changes++;
  if (r->nch == r->capch) {
    size_t cap = r->capch ? 2 * r->capch : 16;
    struct osl_simp_change *p = realloc(r->ch, cap * sizeof *p);
    if (!p) return onnxslim__err_nomem("simplify report");
    r->ch = p;
    r->capch = cap;
  }
  struct osl_simp_change *e = &r->ch[r->nch];
  const char *gn = g ? onnxslim_graph_name(g) : "";
  e->pass = c->pass;
  e->kind = kind;
  e->name = onnxslim__simp_strdup(name);
  e->into = onnxslim__simp_strdup(into);
  e->graph = onnxslim__simp_strdup(gn);
  if (!e->name || !e->into || !e->graph) {
    free(e->name);
    free(e->into);
    free(e->graph);
    return onnxslim__err_nomem("simplify report");
  }
  r->nch++;
  return 0;
}

const char *onnxslim__simp_label(const onnxslim_node *n) {
  const char *s = onnxslim_node_name(n);
  if (s && s[0]) return s;
  for (size_t k = 0; k < onnxslim_node_output_count(n); k++) {
    s = onnxslim_node_output(n, k);
    if (s && s[0]) return s;
  }
  s = onnxslim_node_op_type(n);
  return s ? s : "";
}

int onnxslim__simp_step(onnxslim_simplify_report *r, const struct osl_simp_step *s) {
  if (r->nsteps == r->capsteps) {
    size_t cap = r->capsteps ? 2 * r->capsteps : 8;
    struct osl_simp_step *p = realloc(r->steps, cap * sizeof *p);
    if (!p) return onnxslim__err_nomem("simplify report");
    r->steps = p;
    r->capsteps = cap;
  }
  r->steps[r->nsteps++] = *s;
  return 0;
}

void onnxslim_simplify_report_free(onnxslim_simplify_report *r) {
  if (!r) return;
  for (size_t i = 0; i < r->nch; i++) {
    free(r->ch[i].name);
    free(r->ch[i].into);
    free(r->ch[i].graph);
  }
  free(r->ch);
  free(r->steps);
  free(r);
}

unsigned int onnxslim_simplify_report_iterations(const onnxslim_simplify_report *r) {
  return r ? r->iterations : 0;
}
size_t onnxslim_simplify_report_step_count(const onnxslim_simplify_report *r) {
  return r ? r->nsteps : 0;
}
size_t onnxslim_simplify_report_change_count(const onnxslim_simplify_report *r) {
  return r ? r->nch : 0;
}

int onnxslim_simplify_report_step(const onnxslim_simplify_report *r, size_t i, unsigned int *pass,
                                  unsigned int *iteration, uint64_t *nodes_before,
                                  uint64_t *nodes_after, uint64_t *inits_before,
                                  uint64_t *inits_after) {
  if (!r) return onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_simplify_report_step: NULL report");
  if (i >= r->nsteps)
    return onnxslim__err(ONNXSLIM_ERANGE, "onnxslim_simplify_report_step: index %zu of %zu", i,
                         r->nsteps);
  const struct osl_simp_step *s = &r->steps[i];
  if (pass) *pass = s->pass;
  if (iteration) *iteration = s->iteration;
  if (nodes_before) *nodes_before = s->nodes_before;
  if (nodes_after) *nodes_after = s->nodes_after;
  if (inits_before) *inits_before = s->inits_before;
  if (inits_after) *inits_after = s->inits_after;
  return 0;
}

int onnxslim_simplify_report_change(const onnxslim_simplify_report *r, size_t i, unsigned int *pass,
                                    int *kind, const char **name, const char **into,
                                    const char **graph) {
  if (!r) return onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_simplify_report_change: NULL report");
  if (i >= r->nch)
    return onnxslim__err(ONNXSLIM_ERANGE, "onnxslim_simplify_report_change: index %zu of %zu", i,
                         r->nch);
  const struct osl_simp_change *e = &r->ch[i];
  if (pass) *pass = e->pass;
  if (kind) *kind = e->kind;
  if (name) *name = e->name;
  if (into) *into = e->into;
  if (graph) *graph = e->graph;
  return 0;
}
