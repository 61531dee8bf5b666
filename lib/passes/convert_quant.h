/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - what convert.c and convert_quant.c (the quantization to
 * INT8 and INT4) share: the report's entries and the selection specs
 * (convert_common.c), and the quantization's entry point.
 */
#ifndef ONNXSLIM_CONVERT_QUANT_H
#define ONNXSLIM_CONVERT_QUANT_H

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
  /* the tensors a conversion kept in their type (ONNXSLIM_OVERFLOW_KEEP):
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

/* Finds the notes of a converted model and adds them to r: with
 * `converted` (not NULL: ONNXSLIM_POLICY_STORAGE_ONLY) a pointer-keyed map
 * (onnxslim__map_add_ptr) from each converted onnxslim_tensor to its type
 * before (the entry's num), now of type `to`, the storage-only notes; then
 * the fold-back notes. Reads no tensor data and changes nothing.
 * 0 or ONNXSLIM_ENOMEM (recorded). */
int onnxslim__convert_notes(onnxslim_convert_report *r, const onnxslim_model *model,
                            const osl_map *converted, int32_t to);
/* Frees the notes of r. */
void onnxslim__convert_notes_free(onnxslim_convert_report *r);

/* Does selection spec `spec` (a name, a glob or op:TYPE[:INDEX]) match
 * value `value` of graph g? */
int onnxslim__convert_spec_matches(const onnxslim_graph *g, const char *spec, const char *value);

/* Are specs[0..n) valid selection specs? 0, or ONNXSLIM_EINVAL with a
 * message naming `what` and the bad spec. */
int onnxslim__convert_specs_valid(const char *what, const char *const *specs, size_t n);

/* onnxslim_quantize() once the options are checked for version, to,
 * targets and specs (o is the caller's options completed with the
 * defaults). r (NULL: no report) receives an entry per tensor; the caller
 * frees it. */
int onnxslim__quantize_model(onnxslim_convert_report *r, onnxslim_model *model,
                             const onnxslim_quant_options *o);

#endif
