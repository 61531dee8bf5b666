/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - the report of onnxslim_save(): one entry per tensor placed.
 */
#include <stdlib.h>

#include "passes/passes.h"

size_t onnxslim_save_report_count(const onnxslim_save_report *r) { return r ? r->count : 0; }

/* Entry i of r, or NULL with the error set (fn names the getter). */
static const struct osl_save_entry *report_entry(const onnxslim_save_report *r, size_t i,
                                                 const char *fn) {
  if (!r) {
    onnxslim__err(ONNXSLIM_EINVAL, "%s: NULL report", fn);
    return NULL;
  }
  if (i >= r->count) {
    onnxslim__err(ONNXSLIM_ERANGE, "%s: entry %zu out of range (%zu entries)", fn, i, r->count);
    return NULL;
  }
  return &r->e[i];
}

const char *onnxslim_save_report_name(const onnxslim_save_report *r, size_t i) {
  const struct osl_save_entry *e = report_entry(r, i, __func__);
  return e ? e->name : NULL;
}

int onnxslim_save_report_placement(const onnxslim_save_report *r, size_t i) {
  const struct osl_save_entry *e = report_entry(r, i, __func__);
  return e ? e->placement : onnxslim_error_last_code();
}

const char *onnxslim_save_report_location(const onnxslim_save_report *r, size_t i) {
  const struct osl_save_entry *e = report_entry(r, i, __func__);
  return e ? e->location : NULL;
}

int onnxslim_save_report_offset(const onnxslim_save_report *r, size_t i, uint64_t *out) {
  if (!out) return onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_save_report_offset: NULL out");
  const struct osl_save_entry *e = report_entry(r, i, __func__);
  if (!e) return onnxslim_error_last_code();
  *out = e->offset;
  return 0;
}

int onnxslim_save_report_length(const onnxslim_save_report *r, size_t i, uint64_t *out) {
  if (!out) return onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_save_report_length: NULL out");
  const struct osl_save_entry *e = report_entry(r, i, __func__);
  if (!e) return onnxslim_error_last_code();
  *out = e->length;
  return 0;
}

uint64_t onnxslim_save_report_kernel_copied(const onnxslim_save_report *r) {
  return r ? r->copied : 0;
}

void onnxslim_save_report_free(onnxslim_save_report *r) {
  if (!r) return;
  for (size_t i = 0; i < r->count; i++) {
    free(r->e[i].name);
    free(r->e[i].location);
  }
  free(r->e);
  free(r);
}
