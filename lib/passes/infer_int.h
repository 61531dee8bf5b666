/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * What infer.c (the inference) and infer_report.c (the report's getters)
 * share: a dimension, a value's type and shape, and the report.
 * Internal: not installed.
 */
#ifndef ONNXSLIM_INFER_INT_H
#define ONNXSLIM_INFER_INT_H

#include <stddef.h>
#include <stdint.h>

#include "base/base.h"
#include "onnxslim/infer.h"

enum { DK_UNKNOWN = 0, DK_VALUE = 1, DK_PARAM = 2 };

typedef struct idim {
  int64_t v;     /* DK_VALUE: the value (data elements may be negative) */
  const char *p; /* DK_PARAM: the symbol */
  int k;         /* DK_* */
} idim;

typedef struct ival {
  int32_t dtype; /* 0: unknown */
  int rank;      /* -1: unknown */
  idim *d;
  int nd; /* -1: no data; else the number of elements in data */
  idim *data;
} ival;

typedef struct rep_entry {
  const char *name;
  int status;
  int32_t dtype;
  int rank;
  idim *d;
} rep_entry;

struct onnxslim_infer_report {
  osl_arena arena;
  rep_entry *e;
  size_t n, cap, conflicts;
};

#endif
