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

/* One pass run: the model, the report, the pass bit, changes made, the
 * folding pass's cap on a tensor's bytes. */
typedef struct {
  onnxslim_model *model;
  onnxslim_simplify_report *report;
  unsigned int pass;
  size_t changes;
  uint64_t fold_max_bytes;
  /* the no-op pass: what inference finds for the main graph's values
   * (their names -> entries of inf), for the values the model states no
   * type of */
  onnxslim_infer_report *inf;
  osl_map inf_names;
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
/* Removes the value_info entries (not inputs or outputs) of value `name`
 * from g; 0 or a negative ONNXSLIM_E* code. */
int onnxslim__simp_drop_value_info(onnxslim_graph *g, const char *name);
/* The nodes of g as they are now, into *out (counted scratch of the
 * model; free with onnxslim__simp_nodes_free): a pass walks this copy, so
 * a removal does not make the next node's lookup apply the graph's queued
 * edits (which made a pass quadratic). 0 or ONNXSLIM_ENOMEM. */
int onnxslim__simp_nodes(const onnxslim_model *m, const onnxslim_graph *g, onnxslim_node ***out,
                         size_t *n);
void onnxslim__simp_nodes_free(const onnxslim_model *m, onnxslim_node **nodes, size_t n);
/* 1 when node n was removed from its graph. */
int onnxslim__simp_gone(const onnxslim_node *n);
/* The passes over g and, recursively, its subgraphs (simplify_rules.c). */
int onnxslim__simp_noop(osl_simp *c, onnxslim_graph *g);
int onnxslim__simp_cse(osl_simp *c, onnxslim_graph *g);
/* The constant-folding pass over the main graph and its subgraphs
 * (simplify_fold.c). */
int onnxslim__simp_fold(osl_simp *c);
/* simplify_const.c: Constant nodes (not graph outputs) become initializers;
 * part of the fold pass. 0 or an error. */
int onnxslim__simp_const_nodes(osl_simp *c);

/* 1 when a graph output of g may be an initializer (the main graph of a
 * model of ir_version 4 or later), else 0: a Constant node then
 * (simplify_fold.c). */
int onnxslim__simp_output_init(const onnxslim_model *m, const onnxslim_graph *g);

/* The constant tensor of value `name` of g: an initializer that is not a
 * graph input, or the value of a Constant node's `value`; NULL
 * (simplify_rules.c). */
const onnxslim_tensor *onnxslim__simp_const(const onnxslim_graph *g, const char *name);

/* ---- constant folding's values (simplify_fold.c, simplify_fold_ops.c) ---- */

#define OSL_FOLD_MAX_RANK 64
/* How many items ahead a loop that fills a map from a list prefetches
 * the slot of the item it will add (onnxslim__map_prefetch). */
#define OSL_SIMP_AHEAD 8

/* A constant value: element type, dims, packed little-endian elements of
 * esz bytes. p is borrowed from the model (an input) or is `own`, counted
 * scratch of the model (a result). A Shape or Size input may have dims
 * only (p NULL). */
typedef struct osl_cv {
  int32_t dt;
  size_t rank, esz;
  int64_t dims[OSL_FOLD_MAX_RANK];
  uint64_t count;
  const uint8_t *p;
  uint8_t *own;
} osl_cv;

/* What the computation of one node needs to know. */
typedef struct osl_fold {
  const onnxslim_model *model;
  const onnxslim_node *node;
  int64_t opset;      /* the model's ai.onnx opset */
  uint64_t max_bytes; /* cap on a result's bytes */
} osl_fold;

/* 1 when op (default domain) is one constant folding computes. */
int onnxslim__fold_known(const char *op);
/* Computes f->node (op `op`) from its inputs in[0..nin) (an omitted
 * optional input has dt 0) into *out (out->own allocated, counted): 1
 * done, 0 not folded (an input or a result the rules leave alone: an
 * unsupported type, a result over the cap, a value onnxruntime would
 * refuse), or an error (ONNXSLIM_ENOMEM, ONNXSLIM_ELIMIT). */
int onnxslim__fold_compute(const osl_fold *f, const char *op, const osl_cv *in, size_t nin,
                           osl_cv *out);
/* The dims s[0..*n) Reshape f->node gives x (dims and count only) with
 * the constant shape `shape`: 1, or 0 when it is not a valid reshape. */
int onnxslim__fold_reshape_dims(const osl_fold *f, const osl_cv *x, const osl_cv *shape, int64_t *s,
                                size_t *n);

#endif /* ONNXSLIM_SIMPLIFY_INT_H */
