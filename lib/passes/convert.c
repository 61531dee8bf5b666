/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - converting initializers (and Constant tensors) to another
 * floating-point type, with the graph fixed up by a consumer policy.
 *
 * The conversion itself is a pending transform on the tensor's bytes
 * (osl_xform): it runs chunk by chunk while saving, so no converted copy of
 * the weights is ever held. A statistics pass over the source, also chunked,
 * fills the report when the conversion is requested. Graph edits use the
 * public handle and insertion APIs.
 */
#define _GNU_SOURCE
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "onnx.pb.h"

#include "kernels/convert_kernels.h"
#include "convert_common.h"
#include "convert_notes.h"
#include "passes/passes.h"

/* The conversion, as its memory limit error names it. */
#define CONV "converting the model"

/* ---- kernels as transforms ----------------------------------------------- *
 * A conversion is a transform (osl_xform) that also knows its kernel. The
 * kernels (convert_kernels.c) accept any alignment, as tensor bytes inside
 * a model sit at arbitrary offsets. */

typedef struct {
  osl_xform x;
  const osl_convert_kernel *k;
  onnxslim_convert_stats *stats; /* the statistics pass adds to these (else NULL) */
} osl_cxform;

static int xform_run(const osl_xform *x, size_t first, const uint8_t *src, size_t n, uint8_t *dst) {
  (void)first;
  const osl_cxform *cx = (const osl_cxform *)x;
  cx->k->fn(dst, src, n, x->flags, cx->stats);
  return 0;
}

/* ---- options and report ------------------------------------------------------- */

/* Bytes of onnxslim_convert_options a caller of `version` has: version 1
 * ends before `exclude`, version 2 before `report_flags`, version 3 before
 * `progress`, version 4 before `overflow`. */
static size_t options_size(unsigned int version) {
  if (version == 1) return offsetof(onnxslim_convert_options, exclude);
  if (version == 2) return offsetof(onnxslim_convert_options, report_flags);
  if (version == 3) return offsetof(onnxslim_convert_options, progress);
  if (version == 4) return offsetof(onnxslim_convert_options, overflow);
  return sizeof(onnxslim_convert_options);
}

int onnxslim_convert_options_init(onnxslim_convert_options *opts, unsigned int version) {
  if (!opts) return onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_convert_options_init: opts is NULL");
  if (version < 1 || version > ONNXSLIM_CONVERT_OPTIONS_VERSION)
    return onnxslim__err_options_version("onnxslim_convert_options_init", "convert options",
                                         version, ONNXSLIM_CONVERT_OPTIONS_VERSION);
  onnxslim_convert_options d = ONNXSLIM_CONVERT_OPTIONS_INIT;
  memcpy(opts, &d, options_size(version));
  opts->version = version;
  return 0;
}

size_t onnxslim_convert_report_count(const onnxslim_convert_report *r) { return r ? r->count : 0; }

/* Entry i of r, or NULL with the error set (`who` names the getter). */
static const osl_report_entry *entry_at(const onnxslim_convert_report *r, size_t i,
                                        const char *who) {
  if (!r) {
    onnxslim__err(ONNXSLIM_EINVAL, "%s: NULL report", who);
    return NULL;
  }
  if (i >= r->count) {
    onnxslim__err(ONNXSLIM_ERANGE, "%s: entry %zu out of range (%zu entries)", who, i, r->count);
    return NULL;
  }
  return &r->e[i];
}

const char *onnxslim_convert_report_name(const onnxslim_convert_report *r, size_t i) {
  const osl_report_entry *e = entry_at(r, i, "onnxslim_convert_report_name");
  return e ? e->name : NULL;
}

int32_t onnxslim_convert_report_from(const onnxslim_convert_report *r, size_t i) {
  const osl_report_entry *e = entry_at(r, i, "onnxslim_convert_report_from");
  return e ? e->from : ONNXSLIM_DTYPE_UNDEFINED;
}

int32_t onnxslim_convert_report_to(const onnxslim_convert_report *r, size_t i) {
  const osl_report_entry *e = entry_at(r, i, "onnxslim_convert_report_to");
  return e ? e->to : ONNXSLIM_DTYPE_UNDEFINED;
}

int onnxslim_convert_report_bytes_before(const onnxslim_convert_report *r, size_t i,
                                         uint64_t *out) {
  const char *who = "onnxslim_convert_report_bytes_before";
  if (!out) return onnxslim__err(ONNXSLIM_EINVAL, "%s: NULL out", who);
  const osl_report_entry *e = entry_at(r, i, who);
  if (!e) return onnxslim_error_last_code();
  *out = e->before;
  return 0;
}

int onnxslim_convert_report_bytes_after(const onnxslim_convert_report *r, size_t i, uint64_t *out) {
  const char *who = "onnxslim_convert_report_bytes_after";
  if (!out) return onnxslim__err(ONNXSLIM_EINVAL, "%s: NULL out", who);
  const osl_report_entry *e = entry_at(r, i, who);
  if (!e) return onnxslim_error_last_code();
  *out = e->after;
  return 0;
}

int onnxslim_convert_report_add_stats(const onnxslim_convert_report *r, size_t i,
                                      onnxslim_convert_stats *stats) {
  const char *who = "onnxslim_convert_report_add_stats";
  if (!stats) return onnxslim__err(ONNXSLIM_EINVAL, "%s: NULL stats", who);
  if (stats->version < 1 || stats->version > ONNXSLIM_CONVERT_STATS_VERSION)
    return onnxslim__err_options_version(who, "stats", stats->version,
                                         ONNXSLIM_CONVERT_STATS_VERSION);
  const osl_report_entry *e = entry_at(r, i, who);
  if (!e) return onnxslim_error_last_code();
  const onnxslim_convert_stats *s = &e->stats;
  stats->count += s->count;
  stats->to_inf += s->to_inf;
  stats->saturated += s->saturated;
  stats->flushed += s->flushed;
  stats->nan += s->nan;
  if (s->max_abs_error > stats->max_abs_error) stats->max_abs_error = s->max_abs_error;
  if (s->max_rel_error > stats->max_rel_error) stats->max_rel_error = s->max_rel_error;
  return 0;
}

int onnxslim_quant_report_stats(const onnxslim_quant_report *r, size_t i,
                                onnxslim_quant_stats *stats) {
  const char *who = "onnxslim_quant_report_stats";
  if (!stats) return onnxslim__err(ONNXSLIM_EINVAL, "%s: NULL stats", who);
  if (stats->version < 1 || stats->version > ONNXSLIM_QUANT_STATS_VERSION)
    return onnxslim__err_options_version(who, "quant stats", stats->version,
                                         ONNXSLIM_QUANT_STATS_VERSION);
  const osl_report_entry *e = entry_at(r, i, who);
  if (!e) return onnxslim_error_last_code();
  if (!e->quantized)
    return onnxslim__err(ONNXSLIM_ENOTFOUND, "%s: entry %zu ('%s') was not quantized", who, i,
                         e->name);
  *stats = e->quant; /* version 1 is the whole struct */
  return 0;
}

/* The quantization's report is a conversion report: its getters are those
 * above under the name of quant.h (the messages name the getter called). */
size_t onnxslim_quant_report_count(const onnxslim_quant_report *r) { return r ? r->count : 0; }

const char *onnxslim_quant_report_name(const onnxslim_quant_report *r, size_t i) {
  const osl_report_entry *e = entry_at(r, i, "onnxslim_quant_report_name");
  return e ? e->name : NULL;
}

int32_t onnxslim_quant_report_from(const onnxslim_quant_report *r, size_t i) {
  const osl_report_entry *e = entry_at(r, i, "onnxslim_quant_report_from");
  return e ? e->from : ONNXSLIM_DTYPE_UNDEFINED;
}

int32_t onnxslim_quant_report_to(const onnxslim_quant_report *r, size_t i) {
  const osl_report_entry *e = entry_at(r, i, "onnxslim_quant_report_to");
  return e ? e->to : ONNXSLIM_DTYPE_UNDEFINED;
}

int onnxslim_quant_report_bytes_before(const onnxslim_quant_report *r, size_t i, uint64_t *out) {
  const char *who = "onnxslim_quant_report_bytes_before";
  if (!out) return onnxslim__err(ONNXSLIM_EINVAL, "%s: NULL out", who);
  const osl_report_entry *e = entry_at(r, i, who);
  if (!e) return onnxslim_error_last_code();
  *out = e->before;
  return 0;
}

int onnxslim_quant_report_bytes_after(const onnxslim_quant_report *r, size_t i, uint64_t *out) {
  const char *who = "onnxslim_quant_report_bytes_after";
  if (!out) return onnxslim__err(ONNXSLIM_EINVAL, "%s: NULL out", who);
  const osl_report_entry *e = entry_at(r, i, who);
  if (!e) return onnxslim_error_last_code();
  *out = e->after;
  return 0;
}

/* Kept tensor i of r, or NULL with the error set (`who` names the getter). */
static const osl_report_entry *kept_at(const onnxslim_convert_report *r, size_t i,
                                       const char *who) {
  if (!r) {
    onnxslim__err(ONNXSLIM_EINVAL, "%s: NULL report", who);
    return NULL;
  }
  if (i >= r->kept_count) {
    onnxslim__err(ONNXSLIM_ERANGE, "%s: kept tensor %zu out of range (%zu kept)", who, i,
                  r->kept_count);
    return NULL;
  }
  return &r->kept[i];
}

size_t onnxslim_convert_report_kept_count(const onnxslim_convert_report *r) {
  return r ? r->kept_count : 0;
}

const char *onnxslim_convert_report_kept_name(const onnxslim_convert_report *r, size_t i) {
  const osl_report_entry *e = kept_at(r, i, "onnxslim_convert_report_kept_name");
  return e ? e->name : NULL;
}

int32_t onnxslim_convert_report_kept_from(const onnxslim_convert_report *r, size_t i) {
  const osl_report_entry *e = kept_at(r, i, "onnxslim_convert_report_kept_from");
  return e ? e->from : ONNXSLIM_DTYPE_UNDEFINED;
}

static void stats_merge(onnxslim_convert_stats *to, const onnxslim_convert_stats *from);

int onnxslim_convert_report_kept_add_stats(const onnxslim_convert_report *r, size_t i,
                                           onnxslim_convert_stats *stats) {
  const char *who = "onnxslim_convert_report_kept_add_stats";
  if (!stats) return onnxslim__err(ONNXSLIM_EINVAL, "%s: NULL stats", who);
  if (stats->version < 1 || stats->version > ONNXSLIM_CONVERT_STATS_VERSION)
    return onnxslim__err_options_version(who, "stats", stats->version,
                                         ONNXSLIM_CONVERT_STATS_VERSION);
  const osl_report_entry *e = kept_at(r, i, who);
  if (!e) return onnxslim_error_last_code();
  stats_merge(stats, &e->stats);
  return 0;
}

/* ---- selection ------------------------------------------------------------- */

/* ---- graph fix-up ---------------------------------------------------------- */

static const char *short_name(int32_t dt) {
  switch (dt) {
  case ONNXSLIM_DTYPE_FLOAT: return "fp32";
  case ONNXSLIM_DTYPE_FLOAT16: return "fp16";
  case ONNXSLIM_DTYPE_BFLOAT16: return "bf16";
  case ONNXSLIM_DTYPE_DOUBLE: return "fp64";
  default: return "cvt";
  }
}

static int set_elem(onnxslim_graph *g, const char *value, int32_t dt) {
  /* every entry naming the value: inputs, outputs, value_info (found
   * through the graph's index: a type edit leaves it as it is) */
  osl_msg *const *vi;
  size_t n = onnxslim__graph_value_infos((osl_msg *)g, value, &vi);
  int rc = 0;
  for (size_t i = 0; i < n && !rc; i++)
    rc = onnxslim_value_info_set_dtype((onnxslim_value_info *)vi[i], dt);
  return rc;
}

/* The wished-for name of a new edge: value_bf16 and the like (the
 * insertion makes it unique). Returned in the model's arena via
 * onnxslim_model_unique_name() semantics is not wanted here: the insertion
 * does it, so this only builds the string. */
static char *fresh_for(const char *value, int32_t dt) {
  char *buf = malloc(strlen(value) + 8);
  if (buf) sprintf(buf, "%s_%s", value, short_name(dt));
  else onnxslim__err_nomem(NULL);
  return buf;
}

/* Casts value (now of type `to`) back to `orig` for the given consumers (all
 * when n == 0) and records the new types. */
static int cast_before(onnxslim_graph *g, const char *value, int has_producer, int32_t orig,
                       int32_t to, onnxslim_node *const *consumers, size_t n) {
  size_t nc = onnxslim_graph_consumer_count(g, value);
  if (nc == 0) return set_elem(g, value, to);
  int takeover = has_producer && (n == 0 || n == nc);
  /* the fresh edge holds the converted data when the Cast takes over the
   * name, else it is the Cast's output in the original type */
  char *want = fresh_for(value, takeover ? to : orig);
  if (!want) return ONNXSLIM_ENOMEM;
  onnxslim_node *cast = NULL;
  int rc = onnxslim_insert_cast_after(g, value, orig, consumers, n, want, &cast);
  free(want);
  if (!rc) rc = set_elem(g, takeover ? onnxslim_node_input(cast, 0) : value, to);
  return rc;
}

/* Does node c read `value` as a table (input 0 of a Gather of the default
 * domain, and nowhere else: a Gather that also reads the table elsewhere,
 * e.g. as indices, keeps the original type through a Cast before it)? */
static int reads_table(const onnxslim_node *c, const char *value) {
  if (strcmp(onnxslim_node_op_type(c), "Gather") != 0 || onnxslim_node_domain(c)[0] != '\0' ||
      onnxslim_node_input_count(c) < 2 || strcmp(onnxslim_node_input(c, 0), value) != 0)
    return 0;
  for (size_t k = 1; k < onnxslim_node_input_count(c); k++)
    if (strcmp(onnxslim_node_input(c, k), value) == 0) return 0;
  return 1;
}

/* The policy cast-after-gather casts each Gather's output back: refuses,
 * before anything changes, a table read by a Gather without an output
 * (none, or an empty name), as the check reports it. */
static int gather_outputs_ok(const onnxslim_graph *g, const char *value, int32_t from) {
  size_t nc = onnxslim_graph_consumer_count(g, value);
  for (size_t i = 0; i < nc; i++) {
    onnxslim_node *c = onnxslim_graph_consumer(g, value, i);
    if (!reads_table(c, value)) continue;
    if (onnxslim_node_output_count(c) == 0 || !onnxslim_node_output(c, 0)[0]) {
      const char *name = onnxslim_node_name(c);
      return onnxslim__err(ONNXSLIM_EMODEL,
                           "graph '%s': the Gather node%s%s%s reading table '%s' has %s: there "
                           "is nothing to cast back to %s (the check reports it); nothing "
                           "was converted",
                           onnxslim_graph_name(g), name[0] ? " '" : "", name, name[0] ? "'" : "",
                           value,
                           onnxslim_node_output_count(c) ? "an empty output name" : "no output",
                           onnxslim_dtype_name(from));
    }
  }
  return 0;
}

/* The schema checks of the Casts that convert_tensor() inserts for `value`
 * (a tensor of type `from` becoming `to`), run before anything changes, on
 * the model as it is: the Cast after each table Gather (from its output's
 * recorded type back to `from`, read by that output's consumers) and the
 * Cast before the other readers (from `to` back to `from`). A refusal then
 * leaves the model as it was, instead of after the conversions of the
 * tensors before this one. */
static int casts_ok(const onnxslim_model *m, const onnxslim_graph *g, const char *value,
                    int32_t from, int32_t to, int policy) {
  size_t nc = onnxslim_graph_consumer_count(g, value);
  int others = 0, rc = 0;
  for (size_t i = 0; i < nc && !rc; i++) {
    onnxslim_node *c = onnxslim_graph_consumer(g, value, i);
    if (policy == ONNXSLIM_CONVERT_POLICY_CAST_AFTER_GATHER && reads_table(c, value)) {
      const char *out = onnxslim_node_output(c, 0);
      rc = onnxslim__check_cast_edit(m, onnxslim__known_dtype(g, out), from);
      size_t nr = onnxslim_graph_consumer_count(g, out);
      for (size_t j = 0; j < nr && !rc; j++) {
        onnxslim_node *r = onnxslim_graph_consumer(g, out, j);
        for (size_t k = 0; k < onnxslim_node_input_count(r) && !rc; k++)
          if (strcmp(onnxslim_node_input(r, k), out) == 0)
            rc = onnxslim__check_reader_edit(g, r, k, from);
      }
    } else {
      others = 1;
      for (size_t k = 0; k < onnxslim_node_input_count(c) && !rc; k++)
        if (strcmp(onnxslim_node_input(c, k), value) == 0)
          rc = onnxslim__check_reader_edit(g, c, k, from);
    }
  }
  if (!rc && others) rc = onnxslim__check_cast_edit(m, to, from);
  return rc;
}

static int cast_after_gather(onnxslim_graph *g, const char *value, int has_producer, int32_t orig,
                             int32_t to) {
  size_t nc = onnxslim_graph_consumer_count(g, value);
  const onnxslim_model *m = onnxslim_graph_model(g);
  onnxslim_node **gathers = onnxslim__mem_alloc(m, (nc ? nc : 1) * sizeof *gathers, CONV);
  onnxslim_node **others =
      gathers ? onnxslim__mem_alloc(m, (nc ? nc : 1) * sizeof *others, CONV) : NULL;
  size_t ng = 0, no = 0;
  int rc = 0;
  if (!gathers || !others) {
    rc = onnxslim_error_last_code();
    goto out;
  }
  for (size_t i = 0; i < nc; i++) {
    onnxslim_node *c = onnxslim_graph_consumer(g, value, i);
    if (reads_table(c, value)) gathers[ng++] = c;
    else others[no++] = c;
  }
  /* gather_outputs_ok() refused the conversion before anything changed
   * when a Gather had no output to cast back */
  for (size_t i = 0; i < ng && !rc; i++) {
    const char *out = onnxslim_node_output(gathers[i], 0);
    if (!out || !out[0]) {
      rc = onnxslim__err(ONNXSLIM_EMODEL, "Gather without an output");
      break;
    }
    char *want = fresh_for(out, to);
    onnxslim_node *cast = NULL;
    if (!want) rc = ONNXSLIM_ENOMEM;
    if (!rc) rc = onnxslim_insert_cast_after(g, out, orig, NULL, 0, want, &cast);
    free(want);
    /* the Gather now writes the converted rows into the Cast's input */
    if (!rc) rc = set_elem(g, onnxslim_node_input(cast, 0), to);
  }
  if (!rc && no) rc = cast_before(g, value, has_producer, orig, to, others, no);
  if (!rc && !no) rc = set_elem(g, value, to);
out:
  onnxslim__mem_free(m, gathers);
  onnxslim__mem_free(m, others);
  return rc;
}

/* ---- opset requirements ------------------------------------------------------ *
 * From the ONNX operator schemas: Cast, Gather and Constant accept FLOAT16
 * and DOUBLE from their first versions, but bfloat16 only from opset 13
 * (Cast-13, Gather-13, Constant-13; the arithmetic ops likewise). Before
 * opset 6, Cast names its target type with a string attribute; the Casts
 * this library inserts use the integer form of Cast-6 and later. */

#define OSL_OPSET_BF16 13
#define OSL_OPSET_CAST 6

/* The ai.onnx opset the model imports ("" or "ai.onnx"); models of IR
 * version 1 and 2 had no opset_import and imply opset 1; 0 when none. */
static int64_t default_opset(const onnxslim_model *m) {
  size_t n = onnxslim_model_opset_count(m);
  for (size_t i = 0; i < n; i++) {
    const char *d = NULL;
    int64_t v = 0;
    if (onnxslim_model_opset(m, i, &d, &v) == 0 && (!d[0] || strcmp(d, "ai.onnx") == 0)) return v;
  }
  return n == 0 && onnxslim_model_ir_version(m) < 3 ? 1 : 0;
}

/* Refuses a conversion whose result the model's opset does not allow. */
static int check_opset(const onnxslim_model *m, const onnxslim_convert_options *o) {
  int64_t have = default_opset(m);
  char imports[64];
  if (have > 0) snprintf(imports, sizeof imports, "imports ai.onnx opset %lld", (long long)have);
  else snprintf(imports, sizeof imports, "imports no ai.onnx opset");
  if (o->to == ONNXSLIM_DTYPE_BFLOAT16 && have < OSL_OPSET_BF16)
    return onnxslim__err(ONNXSLIM_EMODEL,
                         "converting to BFLOAT16 needs opset %d or later (Cast, Gather and most "
                         "other ops accept bfloat16 from opset %d); the model %s",
                         OSL_OPSET_BF16, OSL_OPSET_BF16, imports);
  if (o->policy != ONNXSLIM_CONVERT_POLICY_STORAGE_ONLY && have < OSL_OPSET_CAST)
    return onnxslim__err(ONNXSLIM_EMODEL,
                         "the conversion inserts Casts, which need opset %d or later (Cast-1 "
                         "takes its target type as a string); the model %s",
                         OSL_OPSET_CAST, imports);
  return 0;
}

/* ---- the conversion ---------------------------------------------------------- */

typedef struct {
  onnxslim_model *model;
  const onnxslim_convert_options *o;
  onnxslim_convert_report *report;
  unsigned char *matched; /* per select entry: matched a convertible tensor */
  osl_progress *progress; /* the statistics pass */
  uint64_t held;          /* charged for the report's entries (onnxslim__mem_charge) */
} osl_conv;

/* What a candidate's entry in the report costs (the entry, its name). */
static uint64_t entry_cost(const char *value) {
  return sizeof(osl_report_entry) + onnxslim__mem_cost(strlen(value) + 1);
}

/* The payload of stats_chunk: output chunks counted as the bytes read. */
typedef struct {
  osl_progress *progress;
  size_t in_size, out_size;
} osl_progress_chunk;

/* Does a select entry match `value` (all do when there are none)? Marks
 * every entry that matches, so that an entry matching nothing is found. */
static int selected(osl_conv *cv, const onnxslim_graph *g, const char *value) {
  const onnxslim_convert_options *o = cv->o;
  if (!o->n_select) return 1;
  int any = 0;
  for (size_t i = 0; i < o->n_select; i++) {
    if (any && cv->matched[i]) continue; /* nothing more to learn */
    if (onnxslim__convert_spec_matches(g, o->select[i], value)) any = cv->matched[i] = 1;
  }
  return any;
}

static int excluded(const onnxslim_convert_options *o, const onnxslim_graph *g, const char *value) {
  for (size_t i = 0; i < o->n_exclude; i++)
    if (onnxslim__convert_spec_matches(g, o->exclude[i], value)) return 1;
  return 0;
}

typedef struct {
  onnxslim_graph *g;
  onnxslim_tensor *t;
  const char *value;
  onnxslim_node *constant;
  int32_t from;   /* its type before the conversion */
  osl_cxform *cx; /* its transform, once prepared */
} osl_cand;

typedef struct {
  size_t count, cap;
  osl_cand *c;
} osl_cands;

/* Is tensor t (known in graph g as `value`) to be converted? Refuses, before
 * anything is changed, tensors whose bytes cannot be read. */
static int want(osl_conv *cv, onnxslim_graph *g, onnxslim_tensor *t, const char *value,
                onnxslim_node *constant, osl_cands *out) {
  const onnxslim_convert_options *o = cv->o;
  if (!onnxslim__convert_kernel(onnxslim_tensor_dtype(t), o->to) || !selected(cv, g, value))
    return 0;
  uint64_t before;
  if (onnxslim_tensor_byte_size(t, &before) || before < o->min_size || excluded(o, g, value))
    return 0;
  const void *data;
  size_t size;
  int rc = onnxslim_tensor_data(t, &data, &size);
  if (!rc && o->policy == ONNXSLIM_CONVERT_POLICY_CAST_AFTER_GATHER)
    rc = gather_outputs_ok(g, value, onnxslim_tensor_dtype(t));
  if (!rc && o->policy != ONNXSLIM_CONVERT_POLICY_STORAGE_ONLY)
    rc = casts_ok(cv->model, g, value, onnxslim_tensor_dtype(t), o->to, o->policy);
  if (rc) return rc;
  /* the candidate and its report entry count against max_memory */
  if ((rc = onnxslim__mem_charge(cv->model, entry_cost(value), CONV)) != 0) return rc;
  cv->held += entry_cost(value);
  if (out->count == out->cap) {
    size_t cap = out->cap ? out->cap * 2 : 16;
    osl_cand *c = onnxslim__mem_realloc(cv->model, out->c, cap * sizeof *c, CONV);
    if (!c) return onnxslim_error_last_code();
    out->c = c;
    out->cap = cap;
  }
  out->c[out->count++] = (osl_cand){g, t, value, constant, onnxslim_tensor_dtype(t), NULL};
  return 0;
}

/* Bytes the statistics pass reads (the progress meter's unit). */
static int stats_chunk(void *payload, const uint8_t *out, size_t n) {
  (void)out;
  osl_progress_chunk *pc = payload;
  return onnxslim__progress_add(pc->progress, (uint64_t)(n / pc->out_size) * pc->in_size);
}

/* ---- the statistics pass over large tensors, on two threads --------------
 * A tensor of at least OSL_STATS_SPLIT_MIN bytes is counted in slices of
 * OSL_STATS_SLICE elements, each slice in two halves counted at the same
 * time (the second on a thread of its own, into stats of its own), the
 * progress meter (and its cancel) told after each slice. Counts add up and
 * maxima are maxima, so the merged report is the one a single pass gives. */
#define OSL_STATS_SPLIT_MIN (16u << 20)
#define OSL_STATS_SLICE ((size_t)1 << 23)

typedef struct {
  const onnxslim_model *model;
  osl_cxform sx; /* the second half, counting into its own stats */
  int rc;
  char err[256];
} osl_half;

static void half_run(void *arg) {
  osl_half *h = arg;
  h->rc = onnxslim__xform_chunks(h->model, &h->sx.x, NULL, NULL, NULL);
  if (h->rc) snprintf(h->err, sizeof h->err, "%s", onnxslim_error_last());
}

static void stats_merge(onnxslim_convert_stats *to, const onnxslim_convert_stats *from) {
  to->count += from->count;
  to->to_inf += from->to_inf;
  to->saturated += from->saturated;
  to->flushed += from->flushed;
  to->nan += from->nan;
  if (from->max_abs_error > to->max_abs_error) to->max_abs_error = from->max_abs_error;
  if (from->max_rel_error > to->max_rel_error) to->max_rel_error = from->max_rel_error;
}

/* The statistics of sx (its stats set, counting from zero) over its whole
 * source, on two threads (see above; one when no thread can be made). */
static int stats_split(osl_conv *cv, const osl_cxform *sx) {
  const osl_xform *x = &sx->x;
  int rc = 0;
  for (size_t i = 0; i < x->count && !rc; i += OSL_STATS_SLICE) {
    size_t n = x->count - i < OSL_STATS_SLICE ? x->count - i : OSL_STATS_SLICE;
    size_t na = n / 2;
    osl_cxform a = *sx;
    a.x.src = x->src + i * x->in_size;
    a.x.count = na;
    osl_half h;
    memset(&h, 0, sizeof h);
    h.model = cv->model;
    h.sx = *sx;
    h.sx.x.src = a.x.src + na * x->in_size;
    h.sx.x.count = n - na;
    onnxslim_convert_stats hs = *sx->stats;
    hs.count = hs.to_inf = hs.saturated = hs.flushed = hs.nan = 0;
    hs.max_abs_error = hs.max_rel_error = 0.0;
    h.sx.stats = &hs;
    osl_os_thread *th = onnxslim__os_thread_start(half_run, &h);
    if (!th) half_run(&h);
    rc = onnxslim__xform_chunks(cv->model, &a.x, NULL, NULL, NULL);
    if (th) onnxslim__os_thread_join(th);
    if (!rc && h.rc) rc = onnxslim__err(h.rc, "%s", h.err);
    if (!rc) {
      stats_merge(sx->stats, &hs);
      rc = onnxslim__progress_add(cv->progress, (uint64_t)n * x->in_size);
    }
  }
  return rc;
}

/* Can converting from -> to (with these flags) make a finite value
 * overflow? Widening never does, nor FLOAT16 -> BFLOAT16, nor truncation
 * to BFLOAT16. */
static int can_overflow(const osl_convert_kernel *k, int32_t from, int32_t to, unsigned int flags) {
  if (!(k->flags_allowed & ONNXSLIM_CONVERT_SATURATE)) return 0;
  if (from == ONNXSLIM_DTYPE_FLOAT16 && to == ONNXSLIM_DTYPE_BFLOAT16) return 0;
  return !(to == ONNXSLIM_DTYPE_BFLOAT16 && (flags & ONNXSLIM_CONVERT_TRUNCATE));
}

/* Does candidate c need the statistics pass: for the report, or to decide
 * whether it overflows (ONNXSLIM_CONVERT_OVERFLOW_KEEP)? */
static int needs_pass(const osl_conv *cv, const osl_cand *c) {
  const onnxslim_convert_options *o = cv->o;
  if (cv->report && !(o->report_flags & ONNXSLIM_CONVERT_REPORT_NO_STATS)) return 1;
  const osl_convert_kernel *k = onnxslim__convert_kernel(c->from, o->to);
  return o->overflow == ONNXSLIM_CONVERT_OVERFLOW_KEEP && can_overflow(k, c->from, o->to, o->flags);
}

/* Prepares candidate c without changing the model: its pending transform,
 * its report entry and the statistics pass (the long part: the one the
 * progress meter follows, and where a cancel stops). A tensor that would
 * overflow under ONNXSLIM_CONVERT_OVERFLOW_KEEP is kept: c->cx stays NULL and the
 * report lists it among the kept tensors. */
static int prepare_tensor(osl_conv *cv, osl_cand *c) {
  const onnxslim_convert_options *o = cv->o;
  onnxslim_tensor *t = c->t;
  int32_t from = c->from;
  const osl_convert_kernel *k = onnxslim__convert_kernel(from, o->to);
  uint64_t before = 0;
  const void *data;
  size_t size;
  int rc = onnxslim_tensor_byte_size(t, &before);
  if (!rc) rc = onnxslim_tensor_data(t, &data, &size);
  if (rc) return rc;
  osl_cxform *cx = onnxslim__arena_alloc(&cv->model->arena, sizeof *cx);
  if (!cx) return onnxslim__err_nomem(NULL);
  memset(cx, 0, sizeof *cx);
  cx->k = k;
  osl_xform *x = &cx->x;
  x->src = data;
  x->count = size / k->from_size;
  x->in_size = k->from_size;
  x->out_size = k->to_size;
  x->run = xform_run;
  /* flags that do not apply to this kernel (truncation is a BF16 rounding
   * mode, widening has no rounding) are dropped, not refused */
  x->flags = o->flags & k->flags_allowed;
  /* statistics pass, only when wanted: chunked, nothing kept, the source
   * pages released as we go */
  onnxslim_convert_stats st = ONNXSLIM_CONVERT_STATS_INIT;
  int counted = needs_pass(cv, c);
  if (counted) {
    osl_cxform sx = *cx; /* the same transform, counting */
    sx.stats = &st;
    if ((uint64_t)x->count * x->in_size >= OSL_STATS_SPLIT_MIN) {
      rc = stats_split(cv, &sx);
    } else {
      osl_progress_chunk pc = {cv->progress, x->in_size, x->out_size};
      rc = onnxslim__xform_chunks(cv->model, &sx.x, NULL, stats_chunk, &pc);
    }
    if (rc) return rc;
  }
  int keep =
      counted && o->overflow == ONNXSLIM_CONVERT_OVERFLOW_KEEP && (st.to_inf || st.saturated);
  if (cv->report) {
    osl_report_entry *e = keep ? onnxslim__convert_report_add_kept(cv->report, c->value)
                               : onnxslim__convert_report_add(cv->report, c->value);
    if (!e) return onnxslim__err_nomem(NULL);
    e->from = from;
    e->to = keep ? from : o->to;
    e->before = before;
    e->after = keep ? before : (uint64_t)x->count * x->out_size;
    if (counted && (keep || !(o->report_flags & ONNXSLIM_CONVERT_REPORT_NO_STATS))) e->stats = st;
    else e->stats.count = x->count;
  }
  if (!keep) c->cx = cx;
  return 0;
}

/* Converts prepared candidate c: the pending transform, the graph. */
static int convert_tensor(osl_conv *cv, const osl_cand *c) {
  const onnxslim_convert_options *o = cv->o;
  int32_t from = c->from;
  int rc = onnxslim__tensor_set_xform((osl_msg *)c->t, o->to, &c->cx->x);
  if (rc) return rc;
  int has_producer = c->constant != NULL;
  switch (o->policy) {
  case ONNXSLIM_CONVERT_POLICY_STORAGE_ONLY: return set_elem(c->g, c->value, o->to);
  case ONNXSLIM_CONVERT_POLICY_CAST_BEFORE:
    return cast_before(c->g, c->value, has_producer, from, o->to, NULL, 0);
  default: return cast_after_gather(c->g, c->value, has_producer, from, o->to);
  }
}

/* ONNXSLIM_CONVERT_POLICY_STORAGE_ONLY changes the types the readers of the tensors
 * see: the schema check, run as if the candidates (and the value infos
 * naming them, as set_elem() updates them) had type `to` already, must find
 * no type_constraint problem the model does not have as it is. */
static int check_storage_only(const onnxslim_model *m, const osl_cands *cands, int32_t to) {
  osl_retype rt;
  memset(&rt, 0, sizeof rt);
  int rc = onnxslim__mem_map_reserve(m, &rt.tensors, cands->count, CONV);
  for (size_t i = 0; i < cands->count && !rc; i++) {
    const osl_cand *c = &cands->c[i];
    if (!c->cx) continue; /* kept in its type */
    osl_map_entry *e;
    if ((rc = onnxslim__mem_map_add_ptr(m, &rt.tensors, c->t, &e, CONV)) < 0) break;
    rc = 0;
    e->num = to;
    osl_msg *const *vi;
    size_t n = onnxslim__graph_value_infos((osl_msg *)c->g, c->value, &vi);
    for (size_t k = 0; k < n && !rc; k++) {
      if ((rc = onnxslim__mem_map_add_ptr(m, &rt.infos, vi[k], &e, CONV)) >= 0) {
        rc = 0;
        e->num = to;
      }
    }
  }
  if (!rc) {
    char what[128];
    snprintf(what, sizeof what,
             "storage-only conversion to %s refused: a node would read a type its schema does "
             "not allow",
             onnxslim_dtype_name(to));
    rc = onnxslim__check_retype_edit(
        m, &rt, what, "the policies cast-before and cast-after-gather insert Casts instead");
  }
  onnxslim__mem_map_free(m, &rt.tensors);
  onnxslim__mem_map_free(m, &rt.infos);
  return rc;
}

static int collect(osl_conv *cv, onnxslim_graph *g, osl_cands *out) {
  int rc = 0;
  for (size_t i = 0; i < onnxslim_graph_initializer_count(g) && !rc; i++) {
    onnxslim_tensor *t = onnxslim_graph_initializer(g, i);
    rc = want(cv, g, t, onnxslim_tensor_name(t), NULL, out);
  }
  for (size_t i = 0; i < onnxslim_graph_node_count(g) && !rc; i++) {
    onnxslim_node *n = onnxslim_graph_node(g, i);
    if (strcmp(onnxslim_node_op_type(n), "Constant") == 0 && onnxslim_node_domain(n)[0] == '\0' &&
        onnxslim_node_output_count(n) == 1) {
      onnxslim_attr *a = onnxslim_node_find_attr(n, "value");
      onnxslim_tensor *t =
          a && onnxslim_attr_type(a) == ONNXSLIM_ATTR_TENSOR ? onnxslim_attr_tensor(a) : NULL;
      if (t) rc = want(cv, g, t, onnxslim_node_output(n, 0), n, out);
    }
    for (size_t j = 0; j < onnxslim_node_subgraph_count(n) && !rc; j++)
      rc = collect(cv, onnxslim_node_subgraph(n, j), out);
  }
  return rc;
}

/* The notes of the converted model (convert_notes.c); for a storage-only
 * conversion, with the converted tensors. */
static int add_notes(const onnxslim_model *model, const onnxslim_convert_options *o,
                     const osl_cands *cands, onnxslim_convert_report *r) {
  osl_map converted = {NULL, 0, 0};
  osl_map_entry *e;
  int rc = 0;
  if (o->policy == ONNXSLIM_CONVERT_POLICY_STORAGE_ONLY)
    for (size_t i = 0; i < cands->count && !rc; i++) {
      if (!cands->c[i].cx) continue; /* kept in its type */
      if (onnxslim__map_add_ptr(NULL, &converted, cands->c[i].t, &e) < 0)
        rc = onnxslim__err_nomem("conversion report notes");
      else e->num = cands->c[i].from;
    }
  if (!rc) rc = onnxslim__convert_notes(r, model, &converted, o->to);
  onnxslim__map_free(&converted);
  return rc;
}

int onnxslim_convert_model(onnxslim_convert_report **out, onnxslim_model *model,
                           const onnxslim_convert_options *options) {
  if (out) *out = NULL;
  if (!model) return onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_convert_model: NULL model");
  /* the fields the caller's version has; the later ones (and all of them
   * for NULL options) keep their defaults */
  onnxslim_convert_options o = ONNXSLIM_CONVERT_OPTIONS_INIT;
  if (options) {
    if (options->version < 1 || options->version > ONNXSLIM_CONVERT_OPTIONS_VERSION)
      return onnxslim__err_options_version(NULL, "convert options", options->version,
                                           ONNXSLIM_CONVERT_OPTIONS_VERSION);
    memcpy(&o, options, options_size(options->version));
  }
  const onnxslim_convert_options *opts = &o;
  if (opts->policy < ONNXSLIM_CONVERT_POLICY_CAST_AFTER_GATHER ||
      opts->policy > ONNXSLIM_CONVERT_POLICY_STORAGE_ONLY)
    return onnxslim__err(ONNXSLIM_EINVAL, "unknown conversion policy %d", opts->policy);
  if (opts->flags &
      ~(ONNXSLIM_CONVERT_TRUNCATE | ONNXSLIM_CONVERT_SATURATE | ONNXSLIM_CONVERT_FLUSH_SUBNORMALS))
    return onnxslim__err(ONNXSLIM_EINVAL, "reserved conversion flags 0x%x set", opts->flags);
  if ((opts->flags & ONNXSLIM_CONVERT_TRUNCATE) && opts->to != ONNXSLIM_DTYPE_BFLOAT16)
    return onnxslim__err(ONNXSLIM_EINVAL,
                         "ONNXSLIM_CONVERT_TRUNCATE applies only to conversions to BF16, not to %s",
                         onnxslim_dtype_name(opts->to));
  if (opts->report_flags & ~ONNXSLIM_CONVERT_REPORT_NO_STATS)
    return onnxslim__err(ONNXSLIM_EINVAL, "reserved conversion report flags 0x%x set",
                         opts->report_flags);
  if (opts->overflow != ONNXSLIM_CONVERT_OVERFLOW_KEEP &&
      opts->overflow != ONNXSLIM_CONVERT_OVERFLOW_CONVERT)
    return onnxslim__err(ONNXSLIM_EINVAL,
                         "unknown overflow policy %d (expected ONNXSLIM_CONVERT_OVERFLOW_KEEP or "
                         "ONNXSLIM_CONVERT_OVERFLOW_CONVERT)",
                         opts->overflow);
  int rc = onnxslim__convert_specs_valid("selection", opts->select, opts->n_select);
  if (!rc) rc = onnxslim__convert_specs_valid("exclusion", opts->exclude, opts->n_exclude);
  if (rc) return rc;
  if (opts->to == ONNXSLIM_DTYPE_INT8 || opts->to == ONNXSLIM_DTYPE_INT4)
    return onnxslim__err(ONNXSLIM_EUNSUPPORTED,
                         "onnxslim_convert_model converts between floating-point types; quantize "
                         "to %s with onnxslim_quantize()",
                         onnxslim_dtype_name(opts->to));
  static const int32_t sources[] = {ONNXSLIM_DTYPE_FLOAT, ONNXSLIM_DTYPE_FLOAT16,
                                    ONNXSLIM_DTYPE_BFLOAT16, ONNXSLIM_DTYPE_DOUBLE};
  int known = 0;
  for (size_t i = 0; i < sizeof sources / sizeof sources[0]; i++)
    known |= onnxslim__convert_kernel(sources[i], opts->to) != NULL;
  if (!known)
    return onnxslim__err(ONNXSLIM_EUNSUPPORTED, "no conversion to data type %d", (int)opts->to);
  onnxslim_graph *g = onnxslim_model_graph(model);
  if (!g) return ONNXSLIM_EINVAL;
  rc = check_opset(model, opts);
  if (rc) return rc;
  onnxslim_convert_report *r = NULL;
  unsigned char *matched = calloc(opts->n_select ? opts->n_select : 1, 1);
  if (!matched || (out && !(r = calloc(1, sizeof *r)))) {
    free(matched);
    return onnxslim__err_nomem(NULL);
  }
  osl_progress progress;
  osl_conv cv = {model, opts, r, matched, &progress, 0};
  /* select and check everything first, so a refusal changes nothing */
  osl_cands cands = {0, 0, NULL};
  rc = collect(&cv, g, &cands);
  for (size_t i = 0; i < opts->n_select && !rc; i++)
    if (!matched[i])
      rc = onnxslim__err(ONNXSLIM_ENOTFOUND,
                         "selection '%s' matches no tensor that can be converted to %s (a "
                         "floating-point initializer or Constant value of another type)",
                         opts->select[i], onnxslim_dtype_name(opts->to));
  /* then the statistics pass over every tensor that needs it (a cancel
   * there changes nothing either; it decides which tensors are kept), the
   * schema check of a storage-only conversion of the others, and only then
   * the model */
  uint64_t total = 0;
  for (size_t i = 0; i < cands.count && !rc; i++) {
    uint64_t size = 0;
    if (needs_pass(&cv, &cands.c[i]) && !onnxslim_tensor_byte_size(cands.c[i].t, &size))
      total += size;
  }
  if (!rc) rc = onnxslim__progress_start(&progress, opts->progress, opts->progress_payload, total);
  for (size_t i = 0; i < cands.count && !rc; i++) rc = prepare_tensor(&cv, &cands.c[i]);
  if (!rc && opts->policy == ONNXSLIM_CONVERT_POLICY_STORAGE_ONLY && cands.count)
    rc = check_storage_only(model, &cands, opts->to);
  for (size_t i = 0; i < cands.count && !rc; i++)
    if (cands.c[i].cx) rc = convert_tensor(&cv, &cands.c[i]);
  if (!rc && r) rc = add_notes(model, opts, &cands, r);
  onnxslim__mem_free(model, cands.c);
  onnxslim__mem_release(model, cv.held);
  free(matched);
  if (rc || !out) onnxslim_convert_report_free(r);
  else *out = r;
  if (!rc) onnxslim__progress_end(&progress);
  return rc;
}

int onnxslim_convert_gather_tables_with(onnxslim_convert_report **out, onnxslim_model *model,
                                        const onnxslim_convert_options *options) {
  static const char *const spec[] = {"op:Gather:0"};
  if (out) *out = NULL;
  onnxslim_convert_options o = ONNXSLIM_CONVERT_OPTIONS_INIT;
  if (options) {
    if (options->version < 1 || options->version > ONNXSLIM_CONVERT_OPTIONS_VERSION)
      return onnxslim__err_options_version("onnxslim_convert_gather_tables_with", "convert options",
                                           options->version, ONNXSLIM_CONVERT_OPTIONS_VERSION);
    memcpy(&o, options, options_size(options->version));
  }
  if (o.n_select)
    return onnxslim__err(ONNXSLIM_EINVAL,
                         "onnxslim_convert_gather_tables_with selects the Gather tables itself: "
                         "n_select must be 0");
  if (o.to == ONNXSLIM_DTYPE_INT8 || o.to == ONNXSLIM_DTYPE_INT4)
    return onnxslim__err(ONNXSLIM_EUNSUPPORTED,
                         "onnxslim_convert_gather_tables converts to BFLOAT16 or FLOAT16; "
                         "quantize with onnxslim_quantize() (to %s)",
                         onnxslim_dtype_name(o.to));
  o.version = ONNXSLIM_CONVERT_OPTIONS_VERSION;
  o.select = spec;
  o.n_select = 1;
  int rc = onnxslim_convert_model(out, model, &o);
  if (rc == ONNXSLIM_ENOTFOUND)
    rc = onnxslim__err(ONNXSLIM_ENOTFOUND,
                       "the model has no Gather table (a floating-point tensor read as input 0 "
                       "of a Gather) that can be converted to %s",
                       onnxslim_dtype_name(o.to));
  return rc;
}

int onnxslim_convert_gather_tables(onnxslim_convert_report **out, onnxslim_model *model, int32_t to,
                                   uint64_t min_size, unsigned int flags) {
  onnxslim_convert_options o = ONNXSLIM_CONVERT_OPTIONS_INIT;
  o.to = to;
  o.flags = flags;
  o.min_size = min_size;
  return onnxslim_convert_gather_tables_with(out, model, &o);
}
