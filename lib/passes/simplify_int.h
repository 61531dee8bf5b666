/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - what the files of the simplification (simplify.c,
 * simplify_rules.c, simplify_report.c) share. Never installed.
 */
#ifndef ONNXSLIM_SIMPLIFY_INT_H
#define ONNXSLIM_SIMPLIFY_INT_H

#include "passes/passes.h"

struct osl_simp_step {
  unsigned int pass, iteration;
  uint64_t nodes_before, nodes_after, inits_before, inits_after;
};
struct osl_simp_change {
  unsigned int pass;
  int kind;
  char *name, *into, *graph; /* malloc'ed */
};
struct onnxslim_simplify_report {
  unsigned int iterations;
  size_t nsteps, capsteps, nch, capch;
  struct osl_simp_step *steps;
  struct osl_simp_change *ch;
};

/* One pass run: the model, the report, the pass bit, changes made. */
typedef struct {
  onnxslim_model *model;
  onnxslim_simplify_report *report;
  unsigned int pass;
  size_t changes;
} osl_simp;

/* Records a change (kind onnxslim_simplify_change) in graph g (NULL: none)
 * and counts it; 0 or ONNXSLIM_ENOMEM. */
int onnxslim__simp_change(osl_simp *c, onnxslim_graph *g, int kind, const char *name,
                          const char *into);
/* A malloc'ed copy of s (NULL: ""), NULL when out of memory. */
char *onnxslim__simp_strdup(const char *s);
/* Appends a pass run to the report; 0 or ONNXSLIM_ENOMEM. */
int onnxslim__simp_step(onnxslim_simplify_report *r, const struct osl_simp_step *s);
/* A node's label: its name, else its first output, else its op type. */
const char *onnxslim__simp_label(const onnxslim_node *n);
/* The passes over g and, recursively, its subgraphs (simplify_rules.c). */
int onnxslim__simp_noop(osl_simp *c, onnxslim_graph *g);
int onnxslim__simp_cse(osl_simp *c, onnxslim_graph *g);

#endif /* ONNXSLIM_SIMPLIFY_INT_H */
