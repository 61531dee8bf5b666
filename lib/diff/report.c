/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - the diff's report (entries, their text, the getters), its
 * options, the memory charge of the diff and its string buffer.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff/diff.h"

/* ---- memory ------------------------------------------------------------------- */

/* The one place the diff's memory is counted: against model a's
 * max_memory, with a's structure (its arena). */
int onnxslim__diff_charge(osl_diff *c, int64_t n) {
  if (n <= 0) {
    uint64_t k = (uint64_t)-n < c->used ? (uint64_t)-n : c->used;
    c->used -= k;
    onnxslim__mem_release(c->a, k);
    return 0;
  }
  /* model A's count, which every pass shares (lib/handles/handles.h) */
  if (onnxslim__mem_charge(c->a, (uint64_t)n, "comparing the models") != 0)
    return onnxslim__diff_fail(c, ONNXSLIM_ELIMIT, "%s (%zu differences in its report)",
                               onnxslim_error_last(), c->report ? c->report->count : (size_t)0);
  c->used += (uint64_t)n;
  return 0;
}

void *onnxslim__diff_alloc(osl_diff *c, size_t n) {
  void *p;
  if (c->rc) return NULL;
  if (onnxslim__diff_charge(c, (int64_t)n) != 0) return NULL;
  p = malloc(n ? n : 1);
  if (!p) {
    onnxslim__diff_charge(c, -(int64_t)n);
    onnxslim__diff_fail(c, ONNXSLIM_ENOMEM, "out of memory: comparing the models");
  }
  return p;
}

void *onnxslim__diff_alloc_array(osl_diff *c, size_t count, size_t size) {
  if (size && count > SIZE_MAX / size) {
    onnxslim__diff_fail(c, ONNXSLIM_ENOMEM, "out of memory: comparing the models");
    return NULL;
  }
  return onnxslim__diff_alloc(c, count * size);
}

void onnxslim__diff_free(osl_diff *c, void *p, size_t n) {
  if (!p) return;
  free(p);
  onnxslim__diff_charge(c, -(int64_t)n);
}

int onnxslim__diff_fail(osl_diff *c, int code, const char *fmt, ...) {
  char msg[1024];
  va_list ap;
  if (c->rc) return c->rc;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  c->rc = onnxslim__err(code, "%s", msg);
  return c->rc;
}

int onnxslim__diff_fail_lib(osl_diff *c, const char *fmt, ...) {
  char what[512], last[1024];
  int code = onnxslim_error_last_code();
  va_list ap;
  if (c->rc) return c->rc;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  snprintf(last, sizeof last, "%s", onnxslim_error_last());
  c->rc = onnxslim__err(code < 0 ? code : ONNXSLIM_EMODEL, "%s: %s", what, last);
  return c->rc;
}

/* ---- string buffer -------------------------------------------------------------- */

static int sb_grow(osl_sbuf *sb, size_t extra) {
  size_t cap;
  char *p;
  if (sb->c->rc) return -1;
  if (sb->len + extra + 1 <= sb->cap) return 0;
  cap = sb->cap ? sb->cap : 64;
  while (cap < sb->len + extra + 1) cap *= 2;
  if (onnxslim__diff_charge(sb->c, (int64_t)(cap - sb->cap)) != 0) return -1;
  p = realloc(sb->p, cap);
  if (!p) {
    onnxslim__diff_charge(sb->c, -(int64_t)(cap - sb->cap));
    onnxslim__diff_fail(sb->c, ONNXSLIM_ENOMEM, "out of memory: comparing the models");
    return -1;
  }
  sb->p = p;
  sb->cap = cap;
  return 0;
}

void onnxslim__sb_putn(osl_sbuf *sb, const char *s, size_t n) {
  if (sb_grow(sb, n) != 0) return;
  memcpy(sb->p + sb->len, s, n);
  sb->len += n;
  sb->p[sb->len] = '\0';
}

void onnxslim__sb_puts(osl_sbuf *sb, const char *s) { onnxslim__sb_putn(sb, s, strlen(s)); }

void onnxslim__sb_printf(osl_sbuf *sb, const char *fmt, ...) {
  va_list ap;
  int n;
  va_start(ap, fmt);
  n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0 || sb_grow(sb, (size_t)n) != 0) return;
  va_start(ap, fmt);
  vsnprintf(sb->p + sb->len, (size_t)n + 1, fmt, ap);
  va_end(ap);
  sb->len += (size_t)n;
}

void onnxslim__sb_reset(osl_sbuf *sb) {
  sb->len = 0;
  if (sb->p) sb->p[0] = '\0';
}

const char *onnxslim__sb_str(const osl_sbuf *sb) { return sb->p ? sb->p : ""; }

void onnxslim__sb_free(osl_sbuf *sb) {
  if (sb->p) {
    free(sb->p);
    onnxslim__diff_charge(sb->c, -(int64_t)sb->cap);
  }
  sb->p = NULL;
  sb->len = sb->cap = 0;
}

#define sb_puts onnxslim__sb_puts
#define sb_printf onnxslim__sb_printf
#define sb_str onnxslim__sb_str

/* ---- entries ----------------------------------------------------------------------- */

static const char *const kind_names[] = {
    NULL,    "model",  "opset",      "metadata",    "function",           "graph",
    "input", "output", "value_info", "initializer", "sparse_initializer", "node"};
static const char *const aspect_names[] = {
    NULL,    "presence", "value",   "version",    "name",    "type",
    "order", "inputs",   "outputs", "attributes", "op_type", "dtype",
    "shape", "contents", "storage", "indices",    "other"};

const char *onnxslim_diff_kind_name(int kind) {
  if (kind < 1 || kind > ONNXSLIM_DIFF_KIND_MAX) {
    onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_diff_kind_name: %d is no diff kind", kind);
    return NULL;
  }
  return kind_names[kind];
}

const char *onnxslim_diff_aspect_name(int aspect) {
  if (aspect < 1 || aspect > ONNXSLIM_DIFF_ASPECT_MAX) {
    onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_diff_aspect_name: %d is no diff aspect", aspect);
    return NULL;
  }
  return aspect_names[aspect];
}

osl_diff_at onnxslim__diff_at(const char *graph, int kind, const char *name, const char *label) {
  osl_diff_at d;
  memset(&d, 0, sizeof d);
  d.graph = graph;
  d.kind = kind;
  d.name = name;
  d.label = label;
  d.index_a = d.index_b = -1;
  return d;
}

static const char *dequant_names[] = {"", "DequantizeLinear", "Cast and Mul",
                                      "GatherBlockQuantized", "MatMulNBits"};

/* The entry's line of text. */
static void compose(osl_sbuf *line, const osl_diff_at *d) {
  if (d->graph[0]) sb_printf(line, "%s: ", d->graph);
  sb_puts(line, d->label);
  if (d->attribute) sb_printf(line, " attribute '%s'", d->attribute);
  sb_puts(line, ": ");
  if (!d->a != !d->b) {
    const char *v = d->a ? d->a : d->b;
    size_t lv = strlen(v), ll = strlen(d->label);
    sb_printf(line, "only in %s", d->a ? "A" : "B");
    /* "node #3 (Add): only in A", not "... only in A (Add)" */
    if (v[0] && !(ll > lv + 1 && d->label[ll - 1] == ')' && d->label[ll - lv - 2] == '(' &&
                  memcmp(d->label + ll - lv - 1, v, lv) == 0))
      sb_printf(line, " (%s)", v);
  } else if (d->aspect == ONNXSLIM_DIFF_CONTENTS) {
    sb_puts(line, "contents differ");
  } else if (d->aspect == ONNXSLIM_DIFF_OTHER) {
    sb_printf(line,
              "differs in what diff does not list (node order, doc strings, ...): "
              "fingerprint %s -> %s",
              d->a, d->b);
  } else {
    if (d->aspect != ONNXSLIM_DIFF_VALUE) sb_printf(line, "%s ", aspect_names[d->aspect]);
    sb_printf(line, "%s -> %s", d->a ? d->a : "", d->b ? d->b : "");
  }
  if (d->has_numbers) {
    sb_puts(line, ", max abs diff ");
    if (isnan(d->numbers.max_abs_diff)) sb_puts(line, "nan");
    else sb_printf(line, "%.6g", d->numbers.max_abs_diff);
    if (d->numbers.dequantized > 0 && d->numbers.dequantized <= ONNXSLIM_DIFF_DEQUANT_MATMUL_NBITS)
      sb_printf(line, " (B dequantized as %s does)", dequant_names[d->numbers.dequantized]);
  }
  if (d->digest_a && d->digest_b) sb_printf(line, ", digest %s -> %s", d->digest_a, d->digest_b);
}

static const char *keep(osl_diff *c, const char *s) {
  char *p;
  uint64_t before;
  if (!s || c->rc) return NULL;
  before = c->report->strings.total;
  p = onnxslim__arena_strndup(&c->report->strings, s, strlen(s));
  if (!p) {
    onnxslim__diff_fail(c, ONNXSLIM_ENOMEM, "out of memory: diff report");
    return NULL;
  }
  if (c->report->strings.total != before)
    onnxslim__diff_charge(c, (int64_t)(c->report->strings.total - before));
  return p;
}

void onnxslim__diff_add(osl_diff *c, const osl_diff_at *d) {
  onnxslim_diff_report *r = c->report;
  osl_diff_entry *e;
  osl_sbuf line = {c, NULL, 0, 0};
  if (c->rc) return;
  if (r->count == r->cap) {
    size_t cap = r->cap ? r->cap * 2 : 16;
    osl_diff_entry *v;
    if (onnxslim__diff_charge(c, (int64_t)((cap - r->cap) * sizeof *v)) != 0) return;
    v = realloc(r->e, cap * sizeof *v);
    if (!v) {
      onnxslim__diff_fail(c, ONNXSLIM_ENOMEM, "out of memory: diff report");
      return;
    }
    r->e = v;
    r->cap = cap;
  }
  compose(&line, d);
  if (c->rc) {
    onnxslim__sb_free(&line);
    return;
  }
  e = &r->e[r->count];
  memset(e, 0, sizeof *e);
  e->kind = d->kind;
  e->aspect = d->aspect;
  e->graph = keep(c, d->graph);
  e->name = keep(c, d->name);
  e->label = keep(c, d->label);
  e->attribute = keep(c, d->attribute);
  e->a = keep(c, d->a);
  e->b = keep(c, d->b);
  e->digest_a = keep(c, d->digest_a);
  e->digest_b = keep(c, d->digest_b);
  e->text = keep(c, sb_str(&line));
  e->index_a = d->index_a;
  e->index_b = d->index_b;
  e->has_numbers = d->has_numbers;
  e->numbers = d->numbers;
  onnxslim__sb_free(&line);
  if (!c->rc) r->count++;
}

void onnxslim__diff_add_if_differs(osl_diff *c, const osl_diff_at *where, int aspect, const char *a,
                                   const char *b) {
  osl_diff_at d = *where;
  if (strcmp(a, b) == 0) return;
  d.aspect = aspect;
  d.a = a;
  d.b = b;
  onnxslim__diff_add(c, &d);
}

void onnxslim__diff_add_presence(osl_diff *c, const osl_diff_at *where, const char *a,
                                 const char *b) {
  osl_diff_at d = *where;
  d.aspect = ONNXSLIM_DIFF_PRESENCE;
  d.a = a;
  d.b = b;
  onnxslim__diff_add(c, &d);
}

/* ---- the report's getters ----------------------------------------------------------- */

size_t onnxslim_diff_report_count(const onnxslim_diff_report *report) {
  return report ? report->count : 0;
}

void onnxslim_diff_report_free(onnxslim_diff_report *report) {
  if (!report) return;
  free(report->e);
  onnxslim__arena_free(&report->strings);
  free(report);
}

const char *onnxslim_diff_report_fingerprint(const onnxslim_diff_report *report, int which) {
  if (!report || (which != ONNXSLIM_DIFF_A && which != ONNXSLIM_DIFF_B)) {
    onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_diff_report_fingerprint: %s",
                  report ? "which is neither ONNXSLIM_DIFF_A nor ONNXSLIM_DIFF_B" : "NULL report");
    return NULL;
  }
  return report->fingerprint[which];
}

static const osl_diff_entry *entry(const onnxslim_diff_report *report, size_t index,
                                   const char *fn) {
  if (!report) {
    onnxslim__err(ONNXSLIM_EINVAL, "%s: NULL report", fn);
    return NULL;
  }
  if (index >= report->count) {
    onnxslim__err(ONNXSLIM_ERANGE, "%s: entry index %zu out of range (%zu differences)", fn, index,
                  report->count);
    return NULL;
  }
  return &report->e[index];
}

static const char *maybe(const char *s, const char *fn, const char *what) {
  if (!s) onnxslim__err(ONNXSLIM_ENOTFOUND, "%s: the entry has no %s", fn, what);
  return s;
}

static int bad_which(int which, const char *fn) {
  if (which == ONNXSLIM_DIFF_A || which == ONNXSLIM_DIFF_B) return 0;
  onnxslim__err(ONNXSLIM_EINVAL, "%s: which %d is neither ONNXSLIM_DIFF_A nor ONNXSLIM_DIFF_B", fn,
                which);
  return 1;
}

int onnxslim_diff_report_kind(const onnxslim_diff_report *report, size_t index) {
  const osl_diff_entry *e = entry(report, index, __func__);
  return e ? e->kind : onnxslim_error_last_code();
}

int onnxslim_diff_report_aspect(const onnxslim_diff_report *report, size_t index) {
  const osl_diff_entry *e = entry(report, index, __func__);
  return e ? e->aspect : onnxslim_error_last_code();
}

const char *onnxslim_diff_report_graph(const onnxslim_diff_report *report, size_t index) {
  const osl_diff_entry *e = entry(report, index, __func__);
  return e ? e->graph : NULL;
}

const char *onnxslim_diff_report_name(const onnxslim_diff_report *report, size_t index) {
  const osl_diff_entry *e = entry(report, index, __func__);
  return e ? e->name : NULL;
}

const char *onnxslim_diff_report_label(const onnxslim_diff_report *report, size_t index) {
  const osl_diff_entry *e = entry(report, index, __func__);
  return e ? e->label : NULL;
}

const char *onnxslim_diff_report_attribute(const onnxslim_diff_report *report, size_t index) {
  const osl_diff_entry *e = entry(report, index, __func__);
  return e ? maybe(e->attribute, __func__, "attribute") : NULL;
}

const char *onnxslim_diff_report_value(const onnxslim_diff_report *report, size_t index,
                                       int which) {
  const osl_diff_entry *e = entry(report, index, __func__);
  if (!e || bad_which(which, __func__)) return NULL;
  return maybe(which == ONNXSLIM_DIFF_A ? e->a : e->b, __func__, "value in that model");
}

const char *onnxslim_diff_report_text(const onnxslim_diff_report *report, size_t index) {
  const osl_diff_entry *e = entry(report, index, __func__);
  return e ? e->text : NULL;
}

const char *onnxslim_diff_report_digest(const onnxslim_diff_report *report, size_t index,
                                        int which) {
  const osl_diff_entry *e = entry(report, index, __func__);
  if (!e || bad_which(which, __func__)) return NULL;
  return maybe(which == ONNXSLIM_DIFF_A ? e->digest_a : e->digest_b, __func__, "digest");
}

int64_t onnxslim_diff_report_node_index(const onnxslim_diff_report *report, size_t index,
                                        int which) {
  const osl_diff_entry *e = entry(report, index, __func__);
  if (!e || bad_which(which, __func__)) return onnxslim_error_last_code();
  return which == ONNXSLIM_DIFF_A ? e->index_a : e->index_b;
}

int onnxslim_diff_report_numbers(const onnxslim_diff_report *report, size_t index,
                                 onnxslim_diff_numbers *numbers) {
  const osl_diff_entry *e = entry(report, index, __func__);
  if (!e) return onnxslim_error_last_code();
  if (!numbers) return onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_diff_report_numbers: NULL numbers");
  if (numbers->version != 1)
    return onnxslim__err_options_version("onnxslim_diff_report_numbers", "diff numbers",
                                         numbers->version, ONNXSLIM_DIFF_NUMBERS_VERSION);
  if (!e->has_numbers)
    return onnxslim__err(ONNXSLIM_ENOTFOUND,
                         "onnxslim_diff_report_numbers: entry %zu compares no values", index);
  *numbers = e->numbers;
  numbers->version = 1;
  return 0;
}

/* ---- options -------------------------------------------------------------------------- */

int onnxslim_diff_options_init(onnxslim_diff_options *opts, unsigned int version) {
  onnxslim_diff_options d = ONNXSLIM_DIFF_OPTIONS_INIT;
  if (!opts) return onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_diff_options_init: opts is NULL");
  if (version != 1)
    return onnxslim__err_options_version("onnxslim_diff_options_init", "diff options", version,
                                         ONNXSLIM_DIFF_OPTIONS_VERSION);
  d.version = version;
  *opts = d;
  return 0;
}
