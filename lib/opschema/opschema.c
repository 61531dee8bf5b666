/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/* libonnxslim - lookup in the operator schema tables (opschema_data.c). */
#include <string.h>

#include "opschema/opschema.h"

int onnxslim__opschema_domain(const char *domain) {
  if (!domain) return -1;
  if (strcmp(domain, "ai.onnx") == 0) domain = "";
  for (unsigned i = 0; i < onnxslim__ops_n_domains; i++)
    if (strcmp(onnxslim__ops_domains[i], domain) == 0) return (int)i;
  return -1;
}

int onnxslim__opschema_domain_max(int d) {
  return d >= 0 && (unsigned)d < onnxslim__ops_n_domains ? onnxslim__ops_domain_max[d] : 0;
}

/* Orders (domain, name) like the generator sorts the schemas. */
static int cmp_key(const osl_op_schema *s, int domain, const char *op_type) {
  if (s->domain != domain) return s->domain < domain ? -1 : 1;
  return strcmp(OSL_OPS_STR(s->name), op_type);
}

const osl_op_schema *onnxslim__opschema_find(int domain, const char *op_type, int64_t opset,
                                             int *exists, int *first_since) {
  if (exists) *exists = 0;
  if (domain < 0 || !op_type) return NULL;
  /* the first schema of (domain, op_type) */
  size_t lo = 0, hi = onnxslim__ops_n_schemas;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (cmp_key(&onnxslim__ops_schemas[mid], domain, op_type) < 0) lo = mid + 1;
    else hi = mid;
  }
  if (lo == onnxslim__ops_n_schemas || cmp_key(&onnxslim__ops_schemas[lo], domain, op_type) != 0)
    return NULL;
  if (exists) *exists = 1;
  if (first_since) *first_since = onnxslim__ops_schemas[lo].since;
  const osl_op_schema *best = NULL;
  for (size_t i = lo;
       i < onnxslim__ops_n_schemas && cmp_key(&onnxslim__ops_schemas[i], domain, op_type) == 0;
       i++) {
    if (onnxslim__ops_schemas[i].since <= opset) best = &onnxslim__ops_schemas[i];
  }
  return best;
}

const osl_op_attr *onnxslim__opschema_attr(const osl_op_schema *s, const char *name) {
  const osl_op_attr *a = osl_op_attrs(s);
  for (unsigned i = 0; i < s->n_attr; i++)
    if (strcmp(OSL_OPS_STR(a[i].name), name) == 0) return &a[i];
  return NULL;
}
