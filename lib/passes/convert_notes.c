/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - the notes of a conversion report: what the converted model
 * will do at run time that the caller should know (onnxslim_convert_note_code).
 *
 * Both kinds are found by one walk over the graphs each, after the
 * conversion: the readers come from the graph's consumer index, the graph
 * outputs from a map built once per graph, so the cost is linear in the
 * size of the graphs. No tensor data is read and nothing is changed.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "convert_common.h"
#include "convert_notes.h"

/* ---- the notes and their getters -------------------------------------------- */

static const char *const code_names[] = {NULL, "fold_back", "storage_only_read",
                                         "storage_only_gather"};

const char *onnxslim_convert_note_code_name(int code) {
  if (code < 1 || code > ONNXSLIM_CONVERT_NOTE_CODE_MAX) {
    onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_convert_note_code_name: %d is no note code", code);
    return NULL;
  }
  return code_names[code];
}

size_t onnxslim_convert_report_note_count(const onnxslim_convert_report *r) {
  return r ? r->note_count : 0;
}

static const osl_note *note_at(const onnxslim_convert_report *r, size_t i, const char *who) {
  if (!r) {
    onnxslim__err(ONNXSLIM_EINVAL, "%s: NULL report", who);
    return NULL;
  }
  if (i >= r->note_count) {
    onnxslim__err(ONNXSLIM_ERANGE, "%s: note %zu out of range (%zu notes)", who, i, r->note_count);
    return NULL;
  }
  return &r->notes[i];
}

int onnxslim_convert_report_note_code(const onnxslim_convert_report *r, size_t i) {
  const osl_note *n = note_at(r, i, __func__);
  return n ? n->code : onnxslim_error_last_code();
}

const char *onnxslim_convert_report_note_name(const onnxslim_convert_report *r, size_t i) {
  const osl_note *n = note_at(r, i, __func__);
  return n ? n->name : NULL;
}

const char *onnxslim_convert_report_note_op(const onnxslim_convert_report *r, size_t i) {
  const osl_note *n = note_at(r, i, __func__);
  return n ? n->op : NULL;
}

const char *onnxslim_convert_report_note_node(const onnxslim_convert_report *r, size_t i) {
  const osl_note *n = note_at(r, i, __func__);
  return n ? n->node : NULL;
}

const char *onnxslim_convert_report_note_message(const onnxslim_convert_report *r, size_t i) {
  const osl_note *n = note_at(r, i, __func__);
  return n ? n->message : NULL;
}

int onnxslim_convert_report_note_input(const onnxslim_convert_report *r, size_t i, size_t *out) {
  if (!out) return onnxslim__err(ONNXSLIM_EINVAL, "%s: NULL out", __func__);
  const osl_note *n = note_at(r, i, __func__);
  if (!n) return onnxslim_error_last_code();
  if (n->captured)
    return onnxslim__err(ONNXSLIM_ENOTFOUND,
                         "note %zu: %s reads '%s' inside a subgraph only, at no input of its own",
                         i, n->op, n->name);
  *out = n->input;
  return 0;
}

int onnxslim_convert_report_note_bytes(const onnxslim_convert_report *r, size_t i, uint64_t *out) {
  if (!out) return onnxslim__err(ONNXSLIM_EINVAL, "%s: NULL out", __func__);
  const osl_note *n = note_at(r, i, __func__);
  if (!n) return onnxslim_error_last_code();
  *out = n->bytes;
  return 0;
}

/* A malloc'ed string from a printf format; NULL when out of memory. */
static char *fmt(const char *f, ...) __attribute__((format(OSL_PRINTF, 1, 2)));
static char *fmt(const char *f, ...) {
  va_list ap;
  va_start(ap, f);
  int n = vsnprintf(NULL, 0, f, ap);
  va_end(ap);
  char *s = n < 0 ? NULL : malloc((size_t)n + 1);
  if (!s) return NULL;
  va_start(ap, f);
  vsnprintf(s, (size_t)n + 1, f, ap);
  va_end(ap);
  return s;
}

/* Appends a note whose message is `message` (malloc'ed, taken over). */
static int note_add(onnxslim_convert_report *r, int code, const char *name,
                    const onnxslim_node *reader, size_t input, int captured, uint64_t bytes,
                    char *message) {
  if (r->note_count == r->note_cap) {
    size_t cap = r->note_cap ? r->note_cap * 2 : 4;
    osl_note *v = realloc(r->notes, cap * sizeof *v);
    if (!v) {
      free(message);
      return onnxslim__err_nomem("conversion report notes");
    }
    r->notes = v;
    r->note_cap = cap;
  }
  osl_note *n = &r->notes[r->note_count];
  memset(n, 0, sizeof *n);
  n->code = code;
  n->input = input;
  n->captured = captured;
  n->bytes = bytes;
  n->message = message;
  n->name = strdup(name);
  n->op = strdup(onnxslim_node_op_type(reader));
  n->node = strdup(onnxslim_node_name(reader));
  r->note_count++; /* freed with the report even when incomplete */
  if (!message || !n->name || !n->op || !n->node)
    return onnxslim__err_nomem("conversion report notes");
  return 0;
}

/* ---- the rules ---------------------------------------------------------------- */

static int is_onnx_op(const onnxslim_node *n, const char *op) {
  const char *dom = onnxslim_node_domain(n);
  return strcmp(onnxslim_node_op_type(n), op) == 0 && (!dom[0] || strcmp(dom, "ai.onnx") == 0);
}

/* The names of g's outputs, as keys of *outs (slots counted against the
 * model's max_memory). */
static int output_names(const onnxslim_model *m, const onnxslim_graph *g, osl_map *outs) {
  size_t n = onnxslim_graph_output_count(g);
  osl_map_entry *e;
  for (size_t i = 0; i < n; i++) {
    const char *name = onnxslim_value_info_name(onnxslim_graph_output(g, i));
    int rc = name ? onnxslim__mem_map_add(m, outs, name, &e, "the conversion report's notes") : 0;
    if (rc < 0) return rc;
  }
  return 0;
}

/* The node reading `value` (of g) and the index of its first such input;
 * *input 0 and *captured 1 when it reads it only inside a subgraph.
 * Returns the number of its inputs naming value. */
static size_t uses_of(const onnxslim_node *node, const char *value, size_t *input, int *captured) {
  size_t uses = 0, ni = onnxslim_node_input_count(node);
  *input = 0;
  for (size_t k = 0; k < ni; k++)
    if (strcmp(onnxslim_node_input(node, k), value) == 0 && uses++ == 0) *input = k;
  *captured = uses == 0;
  return uses;
}

/* Is value read in g by Casts only (at least one; to FLOAT if to_float),
 * and no output of g? */
static int only_casts_read(const onnxslim_graph *g, const osl_map *outs, const char *value,
                           int to_float) {
  size_t nc = onnxslim_graph_consumer_count(g, value);
  if (onnxslim__map_find(outs, value)) return 0;
  for (size_t i = 0; i < nc; i++) {
    const onnxslim_node *c = onnxslim_graph_consumer(g, value, i);
    if (!is_onnx_op(c, "Cast")) return 0;
    if (to_float) {
      const onnxslim_attr *to = onnxslim_node_find_attr(c, "to");
      int64_t t = 0;
      if (!to || onnxslim_attr_int(to, &t) != 0 || t != ONNXSLIM_DTYPE_FLOAT) return 0;
    }
  }
  return nc > 0;
}

typedef struct {
  onnxslim_convert_report *r;
  const osl_map *converted; /* storage-only: tensor -> its type before */
  int32_t to;
  const onnxslim_model *model; /* whose max_memory the walk counts against */
} osl_notes;

/* Storage-only: converted tensor t, known in g as value, is read by a node
 * that does not accept its new type: any op but a Cast, other than the
 * table of a Gather whose output only Casts read. One note, for the first
 * such reader. */
static int storage_only(osl_notes *w, const onnxslim_graph *g, const osl_map *outs,
                        const onnxslim_tensor *t, const char *value) {
  const osl_map_entry *e = onnxslim__map_find_ptr(w->converted, t);
  if (!e) return 0;
  const char *was = onnxslim_dtype_name(e->num), *now = onnxslim_dtype_name(w->to);
  size_t nc = onnxslim_graph_consumer_count(g, value);
  for (size_t j = 0; j < nc; j++) {
    const onnxslim_node *c = onnxslim_graph_consumer(g, value, j);
    size_t input;
    int captured;
    size_t uses = uses_of(c, value, &input, &captured);
    if (!captured && is_onnx_op(c, "Cast")) continue;
    int gather = !captured && input == 0 && is_onnx_op(c, "Gather");
    if (gather && uses == 1 && onnxslim_node_output_count(c) >= 1 &&
        only_casts_read(g, outs, onnxslim_node_output(c, 0), 0))
      continue;
    const char *op = onnxslim_node_op_type(c), *nn = onnxslim_node_name(c);
    uint64_t bytes = 0;
    if (onnxslim_tensor_byte_size(t, &bytes) != 0) bytes = 0;
    char *msg;
    if (gather)
      msg =
          fmt("'%s' is now %s, and %s%s%s%s passes its %s rows on to nodes other than Cast, "
              "which expect %s; runtimes such as onnxruntime refuse such a model",
              value, now, op, nn[0] ? " '" : "", nn, nn[0] ? "'" : "", now, was);
    else if (captured)
      msg =
          fmt("'%s' is now %s, but a subgraph of %s%s%s%s reads it where %s is expected; "
              "runtimes such as onnxruntime refuse such a model",
              value, now, op, nn[0] ? " '" : "", nn, nn[0] ? "'" : "", was);
    else
      msg =
          fmt("'%s' is now %s, but %s%s%s%s reads it at input %zu where %s is expected; "
              "runtimes such as onnxruntime refuse such a model",
              value, now, op, nn[0] ? " '" : "", nn, nn[0] ? "'" : "", input, was);
    return note_add(w->r,
                    gather ? ONNXSLIM_CONVERT_NOTE_STORAGE_ONLY_GATHER
                           : ONNXSLIM_CONVERT_NOTE_STORAGE_ONLY_READ,
                    value, c, input, captured, bytes, msg);
  }
  return 0;
}

/* Fold-back: initializer t of g, stored as FLOAT16 or BFLOAT16, that only
 * Casts to FLOAT read. */
static int fold_back(osl_notes *w, const onnxslim_graph *g, const osl_map *outs,
                     const onnxslim_tensor *t) {
  int32_t dt = onnxslim_tensor_dtype(t);
  const char *value = onnxslim_tensor_name(t);
  if (dt != ONNXSLIM_DTYPE_FLOAT16 && dt != ONNXSLIM_DTYPE_BFLOAT16) return 0;
  if (!only_casts_read(g, outs, value, 1)) return 0;
  size_t nc = onnxslim_graph_consumer_count(g, value), input;
  int captured;
  const onnxslim_node *c = onnxslim_graph_consumer(g, value, 0);
  uint64_t bytes = 0;
  if (onnxslim_tensor_byte_size(t, &bytes) != 0) bytes = 0;
  uses_of(c, value, &input, &captured);
  char *msg = fmt("'%s' (%s, %" PRIu64
                  " bytes) is read only by %s to FLOAT: onnxruntime's graph "
                  "optimizations turn it back into a FLOAT initializer when a session is created, "
                  "so the saving is on disk only",
                  value, onnxslim_dtype_name(dt), bytes, nc == 1 ? "a Cast" : "Casts");
  return note_add(w->r, ONNXSLIM_CONVERT_NOTE_FOLD_BACK, value, c, input, captured, bytes, msg);
}

/* One pass over g and its subgraphs: storage-only notes (pass 0: the
 * initializers, then the Constants, in the order of the conversion's own
 * walk) or fold-back notes (pass 1: the initializers). */
static int walk(osl_notes *w, const onnxslim_graph *g, int pass) {
  osl_map outs = {NULL, 0, 0};
  int rc = output_names(w->model, g, &outs);
  for (size_t i = 0; i < onnxslim_graph_initializer_count(g) && !rc; i++) {
    const onnxslim_tensor *t = onnxslim_graph_initializer(g, i);
    rc = pass ? fold_back(w, g, &outs, t) : storage_only(w, g, &outs, t, onnxslim_tensor_name(t));
  }
  for (size_t i = 0; i < onnxslim_graph_node_count(g) && !rc; i++) {
    const onnxslim_node *node = onnxslim_graph_node(g, i);
    if (!pass && is_onnx_op(node, "Constant") && onnxslim_node_output_count(node) == 1) {
      const onnxslim_attr *a = onnxslim_node_find_attr(node, "value");
      const onnxslim_tensor *t =
          a && onnxslim_attr_type(a) == ONNXSLIM_ATTR_TENSOR ? onnxslim_attr_tensor(a) : NULL;
      if (t) rc = storage_only(w, g, &outs, t, onnxslim_node_output(node, 0));
    }
    for (size_t k = 0; k < onnxslim_node_subgraph_count(node) && !rc; k++)
      rc = walk(w, onnxslim_node_subgraph(node, k), pass);
  }
  onnxslim__mem_map_free(w->model, &outs);
  return rc;
}

int onnxslim__convert_notes(onnxslim_convert_report *r, const onnxslim_model *model,
                            const osl_map *converted, int32_t to) {
  osl_notes w = {r, converted, to, model};
  const onnxslim_graph *g = onnxslim_model_graph(model);
  if (!g) return 0;
  int rc = converted && converted->len ? walk(&w, g, 0) : 0;
  if (!rc) rc = walk(&w, g, 1);
  return rc;
}
