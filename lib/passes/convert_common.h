/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - what convert.c, convert_quant.c (the quantization to INT8
 * and INT4) and convert_notes.c share: the report (its entries, kept
 * tensors and notes; it is freed here) and the selection specs
 * (convert_common.c, below the three).
 */
#ifndef ONNXSLIM_CONVERT_COMMON_H
#define ONNXSLIM_CONVERT_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "passes/passes.h"

/* One entry of a conversion report. */
typedef struct osl_report_entry {
  char *name;
  int32_t from, to;
  uint64_t before, after;
  onnxslim_convert_stats stats;
  int quantized;              /* quant is filled */
  onnxslim_quant_stats quant; /* the quantization's own statistics */
} osl_report_entry;

struct onnxslim_convert_report {
  size_t count, cap;
  osl_report_entry *e;
  /* the tensors a conversion kept in their type (ONNXSLIM_CONVERT_OVERFLOW_KEEP):
   * stats says what converting them would have done */
  size_t kept_count, kept_cap;
  osl_report_entry *kept;
  /* what the converted model will do at run time (convert_notes.c) */
  size_t note_count, note_cap;
  struct osl_note *notes;
};

/* Appends an entry named `name` (copied) to r; NULL when out of memory. */
osl_report_entry *onnxslim__convert_report_add(onnxslim_convert_report *r, const char *name);
/* The same for the list of kept tensors. */
osl_report_entry *onnxslim__convert_report_add_kept(onnxslim_convert_report *r, const char *name);

/* ---- the report's notes (convert_notes.c) ---- */

/* One note: a finding about a tensor of the converted model and its reader. */
typedef struct osl_note {
  int code;                         /* onnxslim_convert_note_code */
  char *name, *op, *node, *message; /* malloc'ed */
  size_t input;                     /* the reader's input */
  int captured;                     /* the reader reads it inside a subgraph only */
  uint64_t bytes;                   /* the tensor's stored bytes */
} osl_note;

/* Frees the notes of r. */
void onnxslim__convert_notes_free(onnxslim_convert_report *r);

/* Does selection spec `spec` (a name, a glob or op:TYPE[:INDEX]) match
 * value `value` of graph g? */
int onnxslim__convert_spec_matches(const onnxslim_graph *g, const char *spec, const char *value);

/* Are specs[0..n) valid selection specs? 0, or ONNXSLIM_EINVAL with a
 * message naming `what` and the bad spec. */
int onnxslim__convert_specs_valid(const char *what, const char *const *specs, size_t n);

#endif
