/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - what the floating-point conversion (convert.c) and the
 * quantization (convert_quant.c) share: the report's entries and the
 * selection specs.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "convert_common.h"

static osl_report_entry *entry_add(osl_report_entry **list, size_t *count, size_t *cap,
                                   const char *name) {
  if (*count == *cap) {
    size_t n = *cap ? *cap * 2 : 8;
    osl_report_entry *e = realloc(*list, n * sizeof *e);
    if (!e) return NULL;
    *list = e;
    *cap = n;
  }
  osl_report_entry *e = &(*list)[*count];
  memset(e, 0, sizeof *e);
  e->name = strdup(name);
  if (!e->name) return NULL;
  onnxslim_convert_stats init = ONNXSLIM_CONVERT_STATS_INIT;
  e->stats = init;
  (*count)++;
  return e;
}

osl_report_entry *onnxslim__convert_report_add(onnxslim_convert_report *r, const char *name) {
  return entry_add(&r->e, &r->count, &r->cap, name);
}

osl_report_entry *onnxslim__convert_report_add_kept(onnxslim_convert_report *r, const char *name) {
  return entry_add(&r->kept, &r->kept_count, &r->kept_cap, name);
}

/* "op:TYPE" or "op:TYPE:INDEX": does a consumer match? */
static int consumer_spec_matches(const onnxslim_graph *g, const char *spec, const char *value) {
  const char *op = spec + 3;
  const char *colon = strchr(op, ':');
  size_t oplen = colon ? (size_t)(colon - op) : strlen(op);
  long want = -1;
  if (colon) want = strtol(colon + 1, NULL, 10);
  size_t nc = onnxslim_graph_consumer_count(g, value);
  for (size_t i = 0; i < nc; i++) {
    onnxslim_node *c = onnxslim_graph_consumer(g, value, i);
    const char *ot = onnxslim_node_op_type(c);
    if (strlen(ot) != oplen || strncmp(ot, op, oplen) != 0) continue;
    for (size_t k = 0; k < onnxslim_node_input_count(c); k++)
      if ((want < 0 || (size_t)want == k) && strcmp(onnxslim_node_input(c, k), value) == 0)
        return 1;
  }
  return 0;
}

int onnxslim__convert_spec_matches(const onnxslim_graph *g, const char *spec, const char *value) {
  if (strncmp(spec, "op:", 3) == 0) return consumer_spec_matches(g, spec, value);
  /* an exact name matches even when it contains glob characters */
  return strcmp(spec, value) == 0 || onnxslim__os_fnmatch(spec, value);
}

/* ---- the report's end and the selection specs' syntax ------------------------ */

void onnxslim__convert_notes_free(onnxslim_convert_report *r) {
  for (size_t i = 0; i < r->note_count; i++) {
    free(r->notes[i].name);
    free(r->notes[i].op);
    free(r->notes[i].node);
    free(r->notes[i].message);
  }
  free(r->notes);
  r->notes = NULL;
  r->note_count = r->note_cap = 0;
}

void onnxslim_convert_report_free(onnxslim_convert_report *r) {
  if (!r) return;
  for (size_t i = 0; i < r->count; i++) free(r->e[i].name);
  for (size_t i = 0; i < r->kept_count; i++) free(r->kept[i].name);
  free(r->e);
  free(r->kept);
  onnxslim__convert_notes_free(r);
  free(r);
}

void onnxslim_quant_report_free(onnxslim_quant_report *r) { onnxslim_convert_report_free(r); }

static int spec_valid(const char *spec) {
  if (!spec || !spec[0]) return 0;
  if (strncmp(spec, "op:", 3) != 0) return 1;
  const char *op = spec + 3, *colon = strchr(op, ':');
  if (op[0] == '\0' || op[0] == ':') return 0;
  if (!colon) return 1;
  const char *d = colon + 1;
  if (!*d || strlen(d) > 9) return 0;
  for (; *d; d++)
    if (*d < '0' || *d > '9') return 0;
  return 1;
}

int onnxslim__convert_specs_valid(const char *what, const char *const *specs, size_t n) {
  if (!specs && n)
    return onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_convert_model: NULL %s list", what);
  for (size_t i = 0; i < n; i++)
    if (!spec_valid(specs[i]))
      return onnxslim__err(ONNXSLIM_EINVAL, "invalid %s '%s' (a name, a glob, or op:TYPE[:INDEX])",
                           what, specs[i] ? specs[i] : "(null)");
  return 0;
}
