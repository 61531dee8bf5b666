/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * The report of onnxslim_infer_shapes() (infer.c fills it in): its getters
 * and its free.
 */
#include <stdlib.h>

#include "passes/infer_int.h"

void onnxslim_infer_report_free(onnxslim_infer_report *r) {
  if (!r) return;
  free(r->e);
  onnxslim__arena_free(&r->arena);
  free(r);
}

size_t onnxslim_infer_report_count(const onnxslim_infer_report *r) { return r ? r->n : 0; }
size_t onnxslim_infer_report_conflicts(const onnxslim_infer_report *r) {
  return r ? r->conflicts : 0;
}

static const rep_entry *entry(const onnxslim_infer_report *r, size_t i) {
  return r && i < r->n ? &r->e[i] : NULL;
}

const char *onnxslim_infer_report_name(const onnxslim_infer_report *r, size_t i) {
  const rep_entry *e = entry(r, i);
  return e ? e->name : "";
}
int onnxslim_infer_report_status(const onnxslim_infer_report *r, size_t i) {
  const rep_entry *e = entry(r, i);
  return e ? e->status : 0;
}
int32_t onnxslim_infer_report_dtype(const onnxslim_infer_report *r, size_t i) {
  const rep_entry *e = entry(r, i);
  return e ? e->dtype : 0;
}
int64_t onnxslim_infer_report_rank(const onnxslim_infer_report *r, size_t i) {
  const rep_entry *e = entry(r, i);
  return e ? e->rank : -1;
}
int onnxslim_infer_report_dim(const onnxslim_infer_report *r, size_t i, size_t k, int64_t *value,
                              const char **param) {
  const rep_entry *e = entry(r, i);
  if (value) *value = 0;
  if (param) *param = "";
  if (!e || e->rank < 0 || k >= (size_t)e->rank) return ONNXSLIM_DIM_UNKNOWN;
  const idim *d = &e->d[k];
  if (d->k == DK_VALUE && value) *value = d->v;
  if (d->k == DK_PARAM && param) *param = d->p;
  return d->k == DK_VALUE   ? ONNXSLIM_DIM_VALUE
         : d->k == DK_PARAM ? ONNXSLIM_DIM_PARAM
                            : ONNXSLIM_DIM_UNKNOWN;
}
