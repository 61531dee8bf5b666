/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim (the command) - the work of `convert`, `split` and `merge`:
 * load, convert, plan the outputs, save, warn.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "convert.h"
#include "interrupt.h"
#include "os.h"
#include "report.h"

void convert_settings_init(convert_settings *cs) {
  memset(cs, 0, sizeof *cs);
  cs->threshold = ONNXSLIM_SAVE_DEFAULT_THRESHOLD;
  cs->align = ONNXSLIM_SAVE_DEFAULT_ALIGN;
}

int opt_verify(void *ctx, const char *value) {
  (void)value;
  ((convert_settings *)ctx)->no_verify = 0;
  return 0;
}

int opt_no_verify(void *ctx, const char *value) {
  (void)value;
  ((convert_settings *)ctx)->no_verify = 1;
  return 0;
}

int opt_simplify(void *ctx, const char *value) {
  (void)value;
  ((convert_settings *)ctx)->simplify = ONNXSLIM_SIMPLIFY_ALL;
  return 0;
}

int opt_external_data(void *ctx, const char *value) {
  (void)value;
  ((convert_settings *)ctx)->external = 1;
  return 0;
}

int opt_report(void *ctx, const char *value) {
  (void)value;
  ((convert_settings *)ctx)->report = 1;
  return 0;
}

int opt_json_report(void *ctx, const char *value) {
  (void)value;
  ((convert_settings *)ctx)->json = 1;
  return 0;
}

int opt_threshold(void *ctx, const char *value) {
  convert_settings *cs = ctx;
  if (!cs->needs_external) cs->needs_external = "--threshold";
  return parse_bytes("--threshold", value, &cs->threshold);
}

int opt_align(void *ctx, const char *value) {
  convert_settings *cs = ctx;
  uint64_t a;
  if (!cs->needs_external) cs->needs_external = "--align";
  if (parse_bytes("--align", value, &a) != 0) return -1;
  if (a == 0 || (a & (a - 1)) != 0)
    return bad_value("--align", "%s is not a power of two (1, 2, 4, ... 4K ...)", value);
  cs->align = a;
  return 0;
}

int opt_location(void *ctx, const char *value) {
  convert_settings *cs = ctx;
  if (!cs->needs_external) cs->needs_external = "--location";
  if (!value[0]) return bad_value("--location", "empty file name");
  cs->location = value;
  return 0;
}

int opt_per_tensor(void *ctx, const char *value) {
  convert_settings *cs = ctx;
  (void)value;
  if (!cs->needs_external) cs->needs_external = "--per-tensor";
  cs->per_tensor = 1;
  return 0;
}

int opt_checksum(void *ctx, const char *value) {
  convert_settings *cs = ctx;
  (void)value;
  if (!cs->needs_external) cs->needs_external = "--checksum";
  cs->ext_flags |= ONNXSLIM_SAVE_CHECKSUM;
  return 0;
}

int opt_force_shape_inputs(void *ctx, const char *value) {
  convert_settings *cs = ctx;
  (void)value;
  if (!cs->needs_external) cs->needs_external = "--force-shape-inputs";
  cs->ext_flags |= ONNXSLIM_SAVE_FORCE_SHAPE_INPUTS;
  return 0;
}

int opt_toposort(void *ctx, const char *value) {
  (void)value;
  ((convert_settings *)ctx)->toposort = 1;
  return 0;
}

int opt_constants(void *ctx, const char *value) {
  convert_settings *cs = ctx;
  (void)value;
  cs->ext_flags |= ONNXSLIM_SAVE_CONSTANTS;
  if (!cs->needs_external) cs->needs_external = "--constants";
  return 0;
}

int opt_allow_large(void *ctx, const char *value) {
  (void)value;
  ((convert_settings *)ctx)->ext_flags |= ONNXSLIM_SAVE_ALLOW_LARGE;
  return 0;
}

/* Checks the combination of options of `convert` once all are read.
 * Returns PARSE_CONTINUE or EXIT_USAGE (reported). */
int convert_settings_check(const command *cmd, convert_settings *cs, const char *out) {
  if (cs->gather_to && cs->to)
    return usage_error("%s: --gather-to and --to exclude each other", cmd->name);
  if (cs->n_select && !cs->to)
    return usage_error("%s: --select needs --to%s", cmd->name,
                       cs->gather_to ? " (--gather-to selects the Gather tables itself)" : "");
  if (cs->needs_conversion && !cs->gather_to && !cs->to)
    return usage_error("%s: %s needs --gather-to or --to", cmd->name, cs->needs_conversion);
  int32_t target = cs->gather_to ? cs->gather_to : cs->to;
  int quant = target == ONNXSLIM_DTYPE_INT8 || target == ONNXSLIM_DTYPE_INT4;
  if (cs->needs_quant && !quant)
    return usage_error("%s: %s needs --gather-to or --to int8 or int4", cmd->name, cs->needs_quant);
  if (quant && cs->policy && cs->policy != ONNXSLIM_CONVERT_POLICY_CAST_AFTER_GATHER)
    return usage_error("%s: --policy does not apply to int8 and int4", cmd->name);
  if (quant && (cs->conv_flags & (ONNXSLIM_CONVERT_SATURATE | ONNXSLIM_CONVERT_FLUSH_SUBNORMALS)))
    return usage_error("%s: --saturate and --flush-subnormals do not apply to int8 and int4",
                       cmd->name);
  if (quant && cs->force)
    return usage_error(
        "%s: --force does not apply to int8 and int4 (quantization keeps every "
        "value finite)",
        cmd->name);
  if ((cs->conv_flags & ONNXSLIM_CONVERT_TRUNCATE) &&
      (cs->gather_to ? cs->gather_to : cs->to) != ONNXSLIM_DTYPE_BFLOAT16)
    return usage_error("%s: --round truncate applies to conversions to bf16 only", cmd->name);
  if (cs->needs_external && !cs->external)
    return usage_error("%s: %s needs --external-data", cmd->name, cs->needs_external);
  if (cs->per_tensor && cs->location)
    return usage_error("%s: --location and --per-tensor exclude each other", cmd->name);
  if (cs->also_single && strcmp(cs->also_single, out) == 0)
    return usage_error("%s: --also-single-file must name another file than OUT", cmd->name);
  if (cs->external)
    cs->mode = cs->per_tensor ? ONNXSLIM_LAYOUT_PER_TENSOR : ONNXSLIM_LAYOUT_ONE_FILE;
  return PARSE_CONTINUE;
}

/* A library refusal of an option value (a selection spec, a location) is
 * a usage error; anything else is a failure. */
static int lib_status(int rc) { return rc == ONNXSLIM_EINVAL ? EXIT_USAGE : EXIT_FAILURE; }

/* ---- warnings about a conversion ------------------------------------------- */

#define WARN_WORST 5 /* tensors named in a warning */

typedef struct damaged {
  const char *name;
  onnxslim_convert_stats st;
} damaged;

/* Worst first: most values overflowed (to Inf or saturated), then most flushed. */
static int cmp_damage(const void *pa, const void *pb) {
  const damaged *a = pa, *b = pb;
  uint64_t oa = add_sat(a->st.to_inf, a->st.saturated), ob = add_sat(b->st.to_inf, b->st.saturated);
  if (oa != ob) return oa < ob ? 1 : -1;
  if (a->st.flushed != b->st.flushed) return a->st.flushed < b->st.flushed ? 1 : -1;
  return strcmp(a->name, b->name);
}

/* "N became +-Inf, N saturated to +-MAX, N flushed to 0": the nonzero parts. */
static void sb_damage(strbuf *sb, const onnxslim_convert_stats *st, const char *max) {
  const char *sep = "";
  if (st->to_inf) {
    sb_printf(sb, "%" PRIu64 " became +-Inf", st->to_inf);
    sep = ", ";
  }
  if (st->saturated) {
    sb_printf(sb, "%s%" PRIu64 " saturated to +-%s", sep, st->saturated, max);
    sep = ", ";
  }
  if (st->flushed) sb_printf(sb, "%s%" PRIu64 " flushed to 0", sep, st->flushed);
}

/*
 * On stderr, whether or not --report was given: the tensors in which the
 * conversion turned finite values into Inf or saturated them (only with
 * --force: else such tensors are kept in their type), the worst first, and
 * what to do about it. Values flushed to zero (subnormal results, or below
 * the target's subnormal range: an absolute error under the smallest
 * normal value) are counted by --report only: they do not change outputs
 * much, and a warning for them teaches users to ignore warnings.
 */
static void warn_damage(const onnxslim_convert_report *rep, int32_t to) {
  size_t i, n = onnxslim_convert_report_count(rep), nd = 0;
  damaged *d = xmalloc_array(n ? n : 1, sizeof *d);
  onnxslim_convert_stats total = ONNXSLIM_CONVERT_STATS_INIT;
  const char *max = to == ONNXSLIM_DTYPE_FLOAT16    ? "65504"
                    : to == ONNXSLIM_DTYPE_BFLOAT16 ? "3.39e38"
                                                    : "3.40e38";
  strbuf sb = {0}, name = {0};

  for (i = 0; i < n; i++) {
    const char *nm = onnxslim_convert_report_name(rep, i);
    onnxslim_convert_stats st = ONNXSLIM_CONVERT_STATS_INIT;
    if (!nm || onnxslim_convert_report_add_stats(rep, i, &st) != ONNXSLIM_OK ||
        !(st.to_inf || st.saturated))
      continue;
    d[nd].name = nm ? nm : "?";
    d[nd++].st = st;
    total.to_inf = add_sat(total.to_inf, st.to_inf);
    total.saturated = add_sat(total.saturated, st.saturated);
    total.flushed = add_sat(total.flushed, st.flushed);
  }
  if (nd) {
    qsort(d, nd, sizeof *d, cmp_damage);
    fflush(stdout);
    sb_damage(&sb, &total, max);
    fprintf(stderr,
            "%s: warning: converting to %s changed values beyond rounding in %zu tensor%s: %s\n",
            progname, onnxslim_dtype_name(to), nd, nd == 1 ? "" : "s", sb_str(&sb));
    for (i = 0; i < nd && i < WARN_WORST; i++) {
      sb_reset(&sb);
      sb_damage(&sb, &d[i].st, max);
      fprintf(stderr, "  %s (%" PRIu64 " value%s): %s\n", esc(&name, d[i].name), d[i].st.count,
              d[i].st.count == 1 ? "" : "s", sb_str(&sb));
    }
    if (nd > WARN_WORST)
      fprintf(stderr, "  and %zu more tensor%s (--report lists every tensor)\n", nd - WARN_WORST,
              nd - WARN_WORST == 1 ? "" : "s");
    fprintf(stderr,
            "%s: the model's outputs may change a lot: without --force such tensors keep their "
            "type%s\n",
            progname, to == ONNXSLIM_DTYPE_FLOAT16 ? " (bf16 has FP32's range)" : "");
  }
  free(d);
  sb_free(&sb);
  sb_free(&name);
}

/* A note on stderr for each tensor kept in its type (the default without
 * --force): its name and why. */
static void note_kept(const onnxslim_convert_report *rep, int32_t to) {
  size_t i, n = onnxslim_convert_report_kept_count(rep);
  const char *max = to == ONNXSLIM_DTYPE_FLOAT16    ? "65504"
                    : to == ONNXSLIM_DTYPE_BFLOAT16 ? "3.39e38"
                                                    : "3.40e38";
  strbuf name = {0};
  if (n) fflush(stdout);
  for (i = 0; i < n; i++) {
    const char *nm = onnxslim_convert_report_kept_name(rep, i);
    onnxslim_convert_stats st = ONNXSLIM_CONVERT_STATS_INIT;
    if (!nm || onnxslim_convert_report_kept_add_stats(rep, i, &st) != ONNXSLIM_OK) continue;
    uint64_t out = add_sat(st.to_inf, st.saturated);
    fprintf(stderr,
            "%s: note: kept '%s' as %s: %" PRIu64 " of its %" PRIu64
            " value%s %s beyond %s's range (+-%s) and would %s; --force converts it anyway\n",
            progname, esc(&name, nm),
            onnxslim_dtype_name(onnxslim_convert_report_kept_from(rep, i)), out, st.count,
            st.count == 1 ? "" : "s", out == 1 ? "is" : "are", onnxslim_dtype_name(to), max,
            st.to_inf ? "become +-Inf" : "saturate");
  }
  sb_free(&name);
}

static int is_onnx_op(const onnxslim_node *n, const char *op) {
  const char *dom = onnxslim_node_domain(n);
  return strcmp(onnxslim_node_op_type(n), op) == 0 && (!dom[0] || strcmp(dom, "ai.onnx") == 0);
}

/* --policy storage-only: warns on stderr when a converted tensor is read by a
 * node that still expects the original type (the report's storage-only
 * notes): runtimes refuse such a model. */
static void warn_storage_only(const onnxslim_convert_report *rep) {
  size_t i, n = onnxslim_convert_report_count(rep), tensors = 0, first = 0;
  int32_t from = 0, to = 0;
  strbuf a = {0}, b = {0}, c = {0};

  for (i = 0; i < n; i++) {
    if (!onnxslim_convert_report_name(rep, i)) continue;
    from = onnxslim_convert_report_from(rep, i);
    to = onnxslim_convert_report_to(rep, i);
  }
  for (i = 0; i < onnxslim_convert_report_note_count(rep); i++) {
    int code = onnxslim_convert_report_note_code(rep, i);
    if (code != ONNXSLIM_CONVERT_NOTE_STORAGE_ONLY_READ &&
        code != ONNXSLIM_CONVERT_NOTE_STORAGE_ONLY_GATHER)
      continue;
    if (tensors++ == 0) first = i;
  }
  if (tensors) {
    const char *name = onnxslim_convert_report_note_name(rep, first);
    const char *op = onnxslim_convert_report_note_op(rep, first);
    const char *nn = onnxslim_convert_report_note_node(rep, first);
    const char *was = onnxslim_dtype_name(from);
    const char *now = onnxslim_dtype_name(to);
    size_t input = 0;
    int captured = onnxslim_convert_report_note_input(rep, first, &input) != ONNXSLIM_OK;
    if (captured) onnxslim_error_clear();
    if (!name) name = "?";
    if (!op) op = "?";
    if (!nn) nn = "";
    sb_printf(&c, "%s%s%s", esc(&a, op), nn[0] ? " " : "", nn[0] ? esc(&b, nn) : "");
    sb_reset(&a);
    sb_printf(&a, "'%s'", name);
    fflush(stdout);
    fprintf(stderr,
            "%s: warning: --policy storage-only: %zu converted tensor%s now %s %s read where %s is "
            "expected; runtimes such as onnxruntime refuse such a model\n",
            progname, tensors, tensors == 1 ? "" : "s", now, tensors == 1 ? "is" : "are", was);
    if (onnxslim_convert_report_note_code(rep, first) == ONNXSLIM_CONVERT_NOTE_STORAGE_ONLY_GATHER)
      fprintf(stderr, "  e.g. %s: %s passes its %s rows on to nodes other than Cast\n",
              esc(&b, sb_str(&a)), sb_str(&c), now);
    else if (captured)
      fprintf(stderr, "  e.g. %s read inside a subgraph of %s\n", esc(&b, sb_str(&a)), sb_str(&c));
    else fprintf(stderr, "  e.g. %s at input %zu of %s\n", esc(&b, sb_str(&a)), input, sb_str(&c));
    fprintf(stderr,
            "%s: the default policy (cast-after-gather) or cast-before adds the Casts "
            "that keep the model runnable\n",
            progname);
  }
  sb_free(&a);
  sb_free(&b);
  sb_free(&c);
}

/* ---- the fold-back shape ------------------------------------------------------------ */

/* Warns on stderr when the converted model has 16-bit initializers that only
 * a Cast to FLOAT reads (the report's fold-back notes: what --policy
 * cast-before makes, and --to with the default policy for tensors other
 * than Gather tables): onnxruntime's graph optimizations fold each
 * Cast(initializer) into a FLOAT initializer when a session is created, so
 * the model is smaller on disk but not in memory. */
static void warn_foldback(const onnxslim_convert_report *rep) {
  size_t i, tensors = 0;
  uint64_t bytes = 0, first_size = 0;
  const char *first = NULL;
  char h[32], h2[32];
  strbuf a = {0};
  for (i = 0; i < onnxslim_convert_report_note_count(rep); i++) {
    uint64_t size = 0;
    if (onnxslim_convert_report_note_code(rep, i) != ONNXSLIM_CONVERT_NOTE_FOLD_BACK) continue;
    if (onnxslim_convert_report_note_bytes(rep, i, &size) != ONNXSLIM_OK) size = 0;
    tensors++;
    bytes += size;
    if (!first || size > first_size) {
      first = onnxslim_convert_report_note_name(rep, i);
      first_size = size;
    }
  }
  if (!tensors) return;
  human_size(h, sizeof h, bytes);
  human_size(h2, sizeof h2, bytes * 2);
  if (!h[0]) snprintf(h, sizeof h, "%" PRIu64 " B", bytes);
  if (!h2[0]) snprintf(h2, sizeof h2, "%" PRIu64 " B", bytes * 2);
  fflush(stdout);
  fprintf(stderr,
          "%s: warning: %zu 16-bit initializer%s (%s) %s read only by a Cast to FLOAT: "
          "onnxruntime's graph optimizations turn %s back into FLOAT initializers (%s) when "
          "a session is created, so the saving is on disk only\n",
          progname, tensors, tensors == 1 ? "" : "s", h, tensors == 1 ? "is" : "are",
          tensors == 1 ? "it" : "them", h2);
  fprintf(stderr, "  e.g. '%s'\n", esc(&a, first ? first : "?"));
  fprintf(stderr,
          "%s: onnxruntime keeps the saving with the session config entry "
          "optimization.disable_specified_optimizers="
          "ConstantFolding;FuseFp16InitializerToFp32NodeTransformer and the CPU memory arena off, "
          "but each run then converts the weights again (slower); a Gather table keeps it with "
          "the default policy (cast-after-gather) and default settings: see docs/recipe.md, "
          "\"At runtime\"\n",
          progname);
  sb_free(&a);
}

/* Is `name` of subgraph g read there as a quantization target would be (input
 * 0 of a Gather: a table; input 1 of a MatMul or Gemm: a weight)? */
static int quant_use(const onnxslim_graph *g, const char *name, unsigned int targets) {
  size_t i, k, nc = onnxslim_graph_consumer_count(g, name);
  for (i = 0; i < nc; i++) {
    const onnxslim_node *c = onnxslim_graph_consumer(g, name, i);
    int table = is_onnx_op(c, "Gather"), weight = is_onnx_op(c, "MatMul") || is_onnx_op(c, "Gemm");
    if (!(table && (targets & ONNXSLIM_QUANT_TABLES)) &&
        !(weight && (targets & ONNXSLIM_QUANT_WEIGHTS)))
      continue;
    for (k = 0; k < onnxslim_node_input_count(c); k++)
      if (k == (size_t)(table ? 0 : 1) && strcmp(onnxslim_node_input(c, k), name) == 0) return 1;
  }
  return 0;
}

static int quant_shape(const onnxslim_tensor *t) {
  int32_t dt = t ? onnxslim_tensor_dtype(t) : 0;
  return (dt == ONNXSLIM_DTYPE_FLOAT || dt == ONNXSLIM_DTYPE_FLOAT16) &&
         onnxslim_tensor_rank(t) == 2;
}

/* Counts, in the subgraphs of g's nodes (and theirs), the FLOAT or FLOAT16
 * tensors of rank 2 (initializers of the subgraph or values of its Constant
 * nodes) read there as tables or weights: what the quantization, which
 * covers the main graph only, leaves. *eg: the first, *eg_node: the node
 * whose subgraph holds it. */
static void count_sub_quant(const onnxslim_graph *g, unsigned int targets, int sub, size_t *n,
                            const char **eg, const onnxslim_node **eg_node) {
  size_t i, k;
  if (sub)
    for (i = 0; i < onnxslim_graph_initializer_count(g); i++) {
      const onnxslim_tensor *t = onnxslim_graph_initializer(g, i);
      if (quant_shape(t) && quant_use(g, onnxslim_tensor_name(t), targets) && !(*n)++)
        *eg = onnxslim_tensor_name(t);
    }
  for (i = 0; i < onnxslim_graph_node_count(g); i++) {
    const onnxslim_node *node = onnxslim_graph_node(g, i);
    if (sub && is_onnx_op(node, "Constant") && onnxslim_node_output_count(node) == 1) {
      const onnxslim_attr *a = onnxslim_node_find_attr(node, "value");
      const onnxslim_tensor *t =
          a && onnxslim_attr_type(a) == ONNXSLIM_ATTR_TENSOR ? onnxslim_attr_tensor(a) : NULL;
      if (quant_shape(t) && quant_use(g, onnxslim_node_output(node, 0), targets) && !(*n)++)
        *eg = onnxslim_node_output(node, 0);
    }
    for (k = 0; k < onnxslim_node_subgraph_count(node); k++) {
      size_t before = *n;
      count_sub_quant(onnxslim_node_subgraph(node, k), targets, 1, n, eg, eg_node);
      if (!before && *n && !*eg_node) *eg_node = node;
    }
  }
}

/* After a quantization: a note when tensors it would take sit inside
 * subgraphs (If, Loop, Scan bodies), which it leaves as they are. */
static void note_sub_quant(const onnxslim_model *model, unsigned int targets) {
  size_t n = 0;
  const char *eg = NULL;
  const onnxslim_node *eg_node = NULL;
  strbuf a = {0}, b = {0};
  if (quiet) return;
  count_sub_quant(onnxslim_model_graph(model), targets, 0, &n, &eg, &eg_node);
  if (!n || !eg || !eg_node) return;
  fflush(stdout);
  fprintf(stderr,
          "%s: note: %zu tensor%s inside subgraphs %s left as %s (e.g. '%s' in a subgraph of %s "
          "'%s'): quantization covers the main graph only\n",
          progname, n, n == 1 ? "" : "s", n == 1 ? "was" : "were", n == 1 ? "it was" : "they were",
          esc(&a, eg), onnxslim_node_op_type(eg_node), esc(&b, onnxslim_node_name(eg_node)));
  sb_free(&a);
  sb_free(&b);
}

/* Applies --gather-to / --to to the loaded model; *rep receives the report.
 * The report always has its statistics: the warnings need them. */
static int apply_conversion(onnxslim_model *model, const char *in, const convert_settings *cs,
                            onnxslim_convert_report **rep) {
  static const char *const gather_tables[] = {"op:Gather:0"};
  int policy = cs->policy ? cs->policy : ONNXSLIM_CONVERT_POLICY_CAST_AFTER_GATHER;
  int32_t to = cs->gather_to ? cs->gather_to : cs->to;
  int quant = to == ONNXSLIM_DTYPE_INT8 || to == ONNXSLIM_DTYPE_INT4;
  progress_line line;
  onnxslim_progress_fn progress = progress_begin(&line, "converting", NULL);
  int rc;

  if (quant) {
    onnxslim_quant_options q;
    if (onnxslim_quant_options_init(&q, ONNXSLIM_QUANT_OPTIONS_VERSION) != ONNXSLIM_OK)
      return fail_lib("quantization options");
    q.to = to;
    q.min_size = cs->min_size;
    if (cs->gather_to) {
      q.targets = ONNXSLIM_QUANT_TABLES;
      q.select = gather_tables;
      q.n_select = 1;
    } else {
      q.select = cs->select;
      q.n_select = cs->n_select;
      /* float zero points are MatMulNBits': the weights only */
      if (cs->quant_flags & ONNXSLIM_QUANT_FLOAT_ZERO_POINTS) q.targets = ONNXSLIM_QUANT_WEIGHTS;
    }
    q.exclude = cs->exclude;
    q.n_exclude = cs->n_exclude;
    q.progress = progress;
    q.progress_payload = &line;
    q.block_size = cs->block_size;
    q.format = cs->format;
    q.scale_type = cs->scale_type;
    q.flags = cs->quant_flags;
    q.clip_percentile = cs->clip_percentile;
    q.scale_method = cs->scale_method;
    /* --zero-point int: not the default's float zero points */
    if (cs->zero_point_int && !q.scale_method) q.scale_method = ONNXSLIM_QUANT_SCALES_ABSMAX;
    /* the statistics pass (one more read of the tensors) only for the report */
    if (!cs->report && !cs->json) q.report_flags = ONNXSLIM_QUANT_REPORT_NO_STATS;
    rc = onnxslim_quantize(rep, model, &q);
    progress_end(&line);
  } else {
    onnxslim_convert_options o;
    if (onnxslim_convert_options_init(&o, ONNXSLIM_CONVERT_OPTIONS_VERSION) != ONNXSLIM_OK)
      return fail_lib("conversion options");
    o.to = to;
    o.policy = policy;
    o.flags = cs->conv_flags;
    o.min_size = cs->min_size;
    o.select = cs->select;
    o.n_select = cs->n_select;
    o.exclude = cs->exclude;
    o.n_exclude = cs->n_exclude;
    o.progress = progress;
    o.progress_payload = &line;
    o.overflow = cs->force ? ONNXSLIM_CONVERT_OVERFLOW_CONVERT : ONNXSLIM_CONVERT_OVERFLOW_KEEP;
    /* --gather-to: the Gather tables (on a model without one, unchanged, the
     * message says so) */
    rc = cs->gather_to ? onnxslim_convert_gather_tables_with(rep, model, &o)
                       : onnxslim_convert_model(rep, model, &o);
    progress_end(&line);
  }
  /* --gather-to asks for all the Gather tables there are, as --to without
   * --select asks for all the tensors of its kind: finding none is not an
   * error (exit 0, OUT a copy, a note says why); a --select entry that
   * matches nothing is (exit 1, nothing written). The library refuses an
   * unmatched selection before it changes anything. */
  if (rc == ONNXSLIM_ENOTFOUND && cs->gather_to) {
    if (!quiet && quant) {
      /* the library names the selection the command made for --gather-to,
       * which the user never wrote: say what it means instead */
      fflush(stdout);
      fprintf(stderr,
              "%s: note: nothing converted: the main graph has no Gather table that can be "
              "quantized to %s (a FLOAT or FLOAT16 initializer of rank 2 read only as the "
              "data of Gathers along axis 0%s%s)\n",
              progname, onnxslim_dtype_name(to), cs->min_size ? ", of at least the --min-size" : "",
              cs->n_exclude ? ", that --exclude leaves" : "");
    } else if (!quiet) {
      strbuf e = {0};
      fflush(stdout);
      fprintf(stderr, "%s: note: nothing converted: %s\n", progname,
              esc(&e, onnxslim_error_last()));
      sb_free(&e);
    }
    onnxslim_error_clear();
    *rep = NULL;
    if (quant) note_sub_quant(model, ONNXSLIM_QUANT_TABLES);
    return EXIT_SUCCESS;
  }
  if (rc != ONNXSLIM_OK) {
    fail_lib("cannot convert '%s'", in);
    if (quant && rc == ONNXSLIM_ENOTFOUND)
      note_sub_quant(model, cs->gather_to ? ONNXSLIM_QUANT_TABLES
                                          : ONNXSLIM_QUANT_TABLES | ONNXSLIM_QUANT_WEIGHTS);
    return lib_status(rc);
  }
  if (quiet) return EXIT_SUCCESS; /* the notes and warnings below */
  if (onnxslim_convert_report_count(*rep) == 0 && onnxslim_convert_report_kept_count(*rep) == 0) {
    fflush(stdout);
    fprintf(stderr, "%s: note: nothing converted: '%s' has no %s%s%s%s\n", progname, in,
            cs->n_select ? "tensor the selection matched"
            : quant      ? "tensor that can be quantized (an embedding table read by Gathers, or "
                           "a MatMul or Gemm weight)"
                         : "floating-point tensor that converts to ",
            cs->n_select || quant ? "" : onnxslim_dtype_name(to),
            cs->min_size ? " of at least the --min-size" : "",
            cs->n_exclude ? " that --exclude leaves" : "");
  }
  if (quant)
    note_sub_quant(model, cs->gather_to ? ONNXSLIM_QUANT_TABLES
                                        : ONNXSLIM_QUANT_TABLES | ONNXSLIM_QUANT_WEIGHTS);
  if (!quant) {
    note_kept(*rep, to);
    warn_damage(*rep, to);
  }
  if (policy == ONNXSLIM_CONVERT_POLICY_STORAGE_ONLY) warn_storage_only(*rep);
  warn_foldback(*rep);
  return EXIT_SUCCESS;
}

/* The floating-point tensors of more than one value (weights; not scalars,
 * nor the small integer shape inputs a save keeps inline anyway) of
 * Constant nodes in g and its subgraphs of at least `threshold` bytes: what
 * --constants would move to external data. */
static void count_constants(const onnxslim_graph *g, uint64_t threshold, size_t *n,
                            uint64_t *bytes) {
  size_t i, k;
  for (i = 0; i < onnxslim_graph_node_count(g); i++) {
    const onnxslim_node *node = onnxslim_graph_node(g, i);
    if (is_onnx_op(node, "Constant")) {
      const onnxslim_attr *a = onnxslim_node_find_attr(node, "value");
      const onnxslim_tensor *t =
          a && onnxslim_attr_type(a) == ONNXSLIM_ATTR_TENSOR ? onnxslim_attr_tensor(a) : NULL;
      int32_t dt = t ? onnxslim_tensor_dtype(t) : 0;
      uint64_t one = dt == ONNXSLIM_DTYPE_FLOAT                                      ? 4
                     : dt == ONNXSLIM_DTYPE_DOUBLE                                   ? 8
                     : dt == ONNXSLIM_DTYPE_FLOAT16 || dt == ONNXSLIM_DTYPE_BFLOAT16 ? 2
                                                                                     : 0;
      uint64_t size = 0;
      if (one && onnxslim_tensor_byte_size(t, &size) == ONNXSLIM_OK && size > one &&
          size >= threshold) {
        (*n)++;
        *bytes = add_sat(*bytes, size);
      }
    }
    for (k = 0; k < onnxslim_node_subgraph_count(node); k++)
      count_constants(onnxslim_node_subgraph(node, k), threshold, n, bytes);
  }
}

/* An external-data save without --constants leaves the tensors of Constant
 * nodes in OUT: a note says how many, and that --constants moves them (a
 * model whose weights are all Constants would otherwise be copied whole,
 * without a word). */
static void note_constants(const onnxslim_model *model, const convert_settings *cs) {
  size_t n = 0;
  uint64_t bytes = 0;
  char h[32];
  if (quiet || !cs->external || (cs->ext_flags & ONNXSLIM_SAVE_CONSTANTS)) return;
  count_constants(onnxslim_model_graph(model), cs->threshold, &n, &bytes);
  if (!n) return;
  human_size(h, sizeof h, bytes);
  fflush(stdout);
  fprintf(stderr,
          "%s: note: %zu floating-point tensor%s of at least --threshold bytes (%" PRIu64
          " bytes%s%s%s) %s in Constant nodes and stayed in the model file; --constants moves "
          "them to external data too\n",
          progname, n, n == 1 ? "" : "s", bytes, h[0] ? ", " : "", h, "", n == 1 ? "is" : "are");
}

/* After a save refused for its size (over 2 GiB): how to write it anyway. */
static void hint_allow_large(int rc) {
  if (rc == ONNXSLIM_ELIMIT) fprintf(stderr, "%s: --allow-large writes it anyway\n", progname);
}

static int save_external(const onnxslim_model *model, const char *path, int mode,
                         const convert_settings *cs, onnxslim_save_report **rep) {
  onnxslim_save_options eo;
  int rc;
  if (onnxslim_save_options_init(&eo, ONNXSLIM_SAVE_OPTIONS_VERSION) != ONNXSLIM_OK)
    return fail_lib("external data options");
  eo.layout = mode;
  eo.flags = cs->ext_flags;
  if (mode == ONNXSLIM_LAYOUT_INLINE) {
    eo.flags &= ONNXSLIM_SAVE_ALLOW_LARGE | ONNXSLIM_SAVE_NO_FSYNC;
  } else {
    eo.size_threshold = cs->threshold;
    eo.align = cs->align;
    eo.location = cs->location;
  }
  progress_line line;
  eo.progress = progress_begin(&line, "saving", path);
  eo.progress_payload = &line;
  rc = onnxslim_save(rep, model, path, &eo);
  progress_end(&line);
  if (rc != ONNXSLIM_OK) {
    fail_lib("cannot save '%s'", path);
    hint_allow_large(rc);
    return lib_status(rc);
  }
  return EXIT_SUCCESS;
}

/* ---- output paths ---------------------------------------------------------- */

/* Directory part of path, "." when it has none (malloc'ed). */
static char *dir_part(const char *path) {
  const char *slash = strrchr(path, '/');
  char *d;
  if (!slash) return xstrdup(".");
  if (slash == path) return xstrdup("/");
  d = xmalloc((size_t)(slash - path) + 1);
  memcpy(d, path, (size_t)(slash - path));
  d[slash - path] = '\0';
  return d;
}

/* path with its directory resolved (the file itself may not exist yet), or a
 * copy of path when the directory does not resolve (malloc'ed). */
static char *canonical(const char *path) {
  char *dir = dir_part(path), *real = os_realpath(dir), *out;
  const char *slash = strrchr(path, '/');
  const char *name = slash ? slash + 1 : path;
  free(dir);
  if (!real) return xstrdup(path);
  out = xmalloc(strlen(real) + strlen(name) + 2);
  sprintf(out, "%s/%s", real, name);
  free(real);
  return out;
}

/* Do a and b name the same file? By device and inode when both exist (so
 * spellings, symlinks and hard links count), else by resolved spelling. */
static int same_file(const char *a, const char *b) {
  char *ca, *cb;
  int same = os_same_file(a, b);
  if (same >= 0) return same;
  ca = canonical(a);
  cb = canonical(b);
  same = strcmp(ca, cb) == 0;
  free(ca);
  free(cb);
  return same;
}

/* The data file a one-file external save of OUT writes: OUT's directory
 * joined with `location`, or OUT + ".data" (malloc'ed). */
static char *data_file_path(const char *out, const char *location) {
  const char *slash = strrchr(out, '/');
  size_t dirlen = slash ? (size_t)(slash - out) + 1 : 0;
  char *p;
  if (!location) {
    p = xmalloc(strlen(out) + 6);
    sprintf(p, "%s.data", out);
    return p;
  }
  p = xmalloc(dirlen + strlen(location) + 1);
  memcpy(p, out, dirlen);
  strcpy(p + dirlen, location);
  return p;
}

/* Before the model is loaded: an output that cannot be written ('-', a
 * directory) is a usage error, found before any work is done. */
static int check_output_name(const char *path, const char *what) {
  if (strcmp(path, "-") == 0)
    return usage_error("%s: '-' (standard output) is not supported: name a file", what);
  if (os_is_dir(path))
    return usage_error("%s '%s' is a directory: name the file to write", what, path);
  return PARSE_CONTINUE;
}

/* No output may land on a file the loaded model reads: the model file or
 * one of its external data files (compared by device and inode). */
static int check_not_input(const onnxslim_model *model, const char *in, const char *path,
                           const char *what) {
  size_t idx;
  if (onnxslim_model_find_file(model, path, &idx) != ONNXSLIM_OK) return PARSE_CONTINUE;
  if (idx == 0)
    return usage_error("refusing to write %s '%s': it is the input model '%s' itself", what, path,
                       in);
  return usage_error("refusing to write %s '%s': it is '%s', external data of the input '%s'", what,
                     path, onnxslim_model_file(model, idx), in);
}

/* Where convert/split/merge write, decided once the model is loaded. */
typedef struct save_plan {
  int mode;           /* ONNXSLIM_LAYOUT_*; ONNXSLIM_LAYOUT_AS_LOADED (0): a plain save */
  unsigned int flags; /* extra ONNXSLIM_SAVE_* flags */
  char *data;         /* the one data file written, NULL if none */
  int relocated;      /* external data moved next to OUT (see below) */
} save_plan;

/*
 * Every model written must load on its own. A plain save keeps external
 * references, which are relative to the input's directory: when OUT is in
 * another directory, the tensors that are external now go to a new data
 * file next to OUT instead (OUT's name + ".data"), keeping the storage form.
 * Then no output may be an input, nor two outputs the same file.
 */
static int plan_save(const onnxslim_model *model, const char *in, const char *out,
                     const convert_settings *cs, save_plan *sp) {
  int rc;
  memset(sp, 0, sizeof *sp);
  sp->mode = cs->mode;
  if (!sp->mode && onnxslim_model_file_count(model) > 1) {
    char *din = dir_part(in), *dout = dir_part(out);
    if (!same_file(din, dout)) {
      sp->mode = ONNXSLIM_LAYOUT_ONE_FILE;
      sp->flags = ONNXSLIM_SAVE_KEEP_STORAGE;
      sp->relocated = 1;
    }
    free(din);
    free(dout);
  }
  if (sp->mode == ONNXSLIM_LAYOUT_ONE_FILE)
    sp->data = data_file_path(out, sp->relocated ? NULL : cs->location);
  rc = check_not_input(model, in, out, "OUT");
  if (rc == PARSE_CONTINUE && sp->data) rc = check_not_input(model, in, sp->data, "the data file");
  if (rc == PARSE_CONTINUE && cs->also_single)
    rc = check_not_input(model, in, cs->also_single, "--also-single-file");
  if (rc == PARSE_CONTINUE && sp->data && same_file(sp->data, out))
    rc = usage_error("the data file '%s' would be OUT itself", sp->data);
  if (rc == PARSE_CONTINUE && cs->also_single && same_file(cs->also_single, out))
    rc = usage_error("--also-single-file '%s' is OUT itself: name another file", cs->also_single);
  if (rc == PARSE_CONTINUE && cs->also_single && sp->data && same_file(cs->also_single, sp->data))
    rc = usage_error("--also-single-file '%s' is OUT's data file: name another file",
                     cs->also_single);
  return rc;
}

/*
 * convert, split and merge: load IN, sort it if asked, apply the conversion
 * once, save OUT as planned by plan_save(), then the single-file variant,
 * then print the reports. Nothing is written before every output path was
 * checked.
 */
/* The check --verify runs: every kind but tensor_size (the converted
 * tensors are pending transforms; reading them would convert them in memory,
 * and their sizes are right by construction) and external_load_input (where
 * tensors are stored is the save's decision, not the model's in memory).
 * With a baseline (the input's
 * report) only the problems the baseline does not have are reported,
 * compared by what they are, not by node index (onnxslim_check_options).
 * NULL on failure (reported). */
static onnxslim_check_report *verify_check(const onnxslim_model *model, const char *what,
                                           const onnxslim_check_report *baseline) {
  static const int skip[] = {ONNXSLIM_CHECK_TENSOR_SIZE, ONNXSLIM_CHECK_EXTERNAL_LOAD_INPUT};
  onnxslim_check_options o = ONNXSLIM_CHECK_OPTIONS_INIT;
  onnxslim_check_report *r = NULL;
  o.skip = skip;
  o.n_skip = sizeof skip / sizeof skip[0];
  o.baseline = baseline;
  if (onnxslim_check_with(&r, model, &o) != ONNXSLIM_OK) {
    fail_lib("--verify: cannot check %s", what);
    return NULL;
  }
  return r;
}

/* --verify: the model about to be written must not fail a check that IN
 * passed. Prints the new problems and returns EXIT_FAILURE (nothing is
 * written then), or EXIT_SUCCESS. */
static int verify_model(const onnxslim_model *model, const onnxslim_check_report *before,
                        const char *in, const char *out, const convert_settings *cs) {
  onnxslim_check_report *r = verify_check(model, "the converted model", before);
  size_t i, fresh;
  strbuf a = {0}, b = {0};
  if (!r) return EXIT_FAILURE;
  fresh = onnxslim_check_report_count(r);
  if (fresh) fflush(stdout);
  for (i = 0; i < fresh; i++) {
    fprintf(stderr, "%s: --verify: %s: %s [%s]\n", progname,
            esc(&a, onnxslim_check_report_location(r, i)),
            esc(&b, onnxslim_check_report_message(r, i)),
            onnxslim_check_code_name(onnxslim_check_report_code(r, i)));
  }
  if (fresh) {
    fprintf(stderr,
            "%s: '%s' not written: the converted model fails %zu check%s that '%s' passed%s; "
            "--no-verify writes it anyway\n",
            progname, esc(&a, out), fresh, fresh == 1 ? "" : "s", esc(&b, in),
            cs->policy == ONNXSLIM_CONVERT_POLICY_STORAGE_ONLY
                ? " (with --policy storage-only the nodes that read a converted tensor still "
                  "expect the old type: --policy cast-before or cast-after-gather inserts Casts)"
                : "");
  }
  sb_free(&a);
  sb_free(&b);
  onnxslim_check_report_free(r);
  return fresh ? EXIT_FAILURE : EXIT_SUCCESS;
}

int convert_model(const char *in, const char *out, const convert_settings *cs) {
  onnxslim_model *model = NULL;
  onnxslim_convert_report *crep = NULL;
  onnxslim_save_report *erep = NULL;
  save_plan sp = {0, 0, NULL, 0};
  onnxslim_check_report *before = NULL;
  onnxslim_simplify_report *srep = NULL;
  int status, rc, saved = 0;

  status = check_output_name(out, "OUT");
  if (status == PARSE_CONTINUE && cs->also_single)
    status = check_output_name(cs->also_single, "--also-single-file");
  if (status != PARSE_CONTINUE) return status;
  /* from here on SIGINT and SIGTERM cancel the work (interrupt.h) */
  interrupt_install();
  status = open_model(&model, in);
  if (status != EXIT_SUCCESS) goto done;
  status = plan_save(model, in, out, cs, &sp);
  if (status != PARSE_CONTINUE) goto done;
  status = EXIT_FAILURE;
  if (!cs->no_verify && !(before = verify_check(model, in, NULL))) goto done;
  if (cs->toposort && onnxslim_cleanup_toposort(onnxslim_model_graph(model),
                                                ONNXSLIM_CLEANUP_RECURSIVE) != ONNXSLIM_OK) {
    fail_lib("cannot sort '%s'", in);
    goto done;
  }
  if (cs->simplify) {
    onnxslim_simplify_options so = ONNXSLIM_SIMPLIFY_OPTIONS_INIT;
    so.passes = cs->simplify;
    so.fold_max_bytes = cs->fold_max_bytes;
    if (onnxslim_simplify(&srep, model, &so) != ONNXSLIM_OK) {
      fail_lib("cannot simplify '%s'", in);
      goto done;
    }
  }
  if (cs->edit && (rc = cs->edit(model, in, cs->edit_payload)) != EXIT_SUCCESS) {
    status = rc;
    goto done;
  }
  if ((cs->gather_to || cs->to) && (rc = apply_conversion(model, in, cs, &crep)) != EXIT_SUCCESS) {
    status = rc;
    goto done;
  }
  if (before && (rc = verify_model(model, before, in, out, cs)) != EXIT_SUCCESS) {
    status = rc;
    goto done;
  }
  if (interrupted()) goto done; /* caught where nothing polls it (the checks) */
  if (sp.mode) {
    convert_settings eff = *cs;
    eff.ext_flags |= sp.flags;
    rc = save_external(model, out, sp.mode, &eff, &erep);
    if (rc != EXIT_SUCCESS) {
      status = rc;
      goto done;
    }
  } else {
    onnxslim_save_options so;
    if (onnxslim_save_options_init(&so, ONNXSLIM_SAVE_OPTIONS_VERSION) != ONNXSLIM_OK) {
      fail_lib("save options");
      goto done;
    }
    if (cs->ext_flags & ONNXSLIM_SAVE_ALLOW_LARGE) so.flags |= ONNXSLIM_SAVE_ALLOW_LARGE;
    progress_line line;
    so.progress = progress_begin(&line, "saving", out);
    so.progress_payload = &line;
    rc = onnxslim_save(NULL, model, out, &so);
    progress_end(&line);
    if (rc != ONNXSLIM_OK) {
      fail_lib("cannot save '%s'", out);
      hint_allow_large(rc);
      status = lib_status(rc);
      goto done;
    }
  }
  saved = 1;
  if (cs->also_single &&
      (interrupted() || (rc = save_external(model, cs->also_single, ONNXSLIM_LAYOUT_INLINE, cs,
                                            NULL)) != EXIT_SUCCESS)) {
    status = interrupted() ? EXIT_FAILURE : rc;
    goto done;
  }
  note_constants(model, cs);
  if (sp.relocated && erep) {
    size_t i, moved = 0;
    const char *where = NULL;
    for (i = 0; i < onnxslim_save_report_count(erep); i++) {
      const char *loc = onnxslim_save_report_location(erep, i);
      if (onnxslim_save_report_placement(erep, i) == ONNXSLIM_SAVE_PLACEMENT_EXTERNAL) {
        moved++;
        if (!where) where = loc;
      }
    }
    if (moved && !quiet) {
      /* the library's name for the file: OUT.data, or OUT_1.data when the
       * OUT being replaced reads OUT.data */
      char *d = dir_part(out);
      fflush(stdout);
      fprintf(stderr,
              "%s: %zu tensor%s of '%s' in external data written to '%s%s%s', next to OUT, so "
              "that OUT loads on its own\n",
              progname, moved, moved == 1 ? "" : "s", in, strrchr(out, '/') ? d : "",
              strrchr(out, '/') && strcmp(d, "/") ? "/" : "", where ? where : "?");
      free(d);
    }
  }

  if (cs->json) {
    if (erep && print_external_report(erep, sp.mode, 0) != EXIT_SUCCESS) goto done;
    if (print_json_report(current_command ? current_command->name : "convert", in, out, crep,
                          cs->gather_to || cs->to, erep, sp.mode, cs->also_single,
                          srep) != EXIT_SUCCESS)
      goto done;
    status = finish_stdout(EXIT_SUCCESS);
    goto done;
  }
  if (cs->report && srep && print_simplify_report(srep) != EXIT_SUCCESS) goto done;
  if (cs->report && (cs->gather_to || cs->to) && print_convert_report(crep) != EXIT_SUCCESS)
    goto done;
  if (cs->report && crep && cs->format == ONNXSLIM_QUANT_FORMAT_ORT && !cs->block_size &&
      onnxslim_convert_report_count(crep))
    printf(
        "block size: --format ort without --block-size quantizes in blocks of 128 values, "
        "onnxruntime's default for GatherBlockQuantized and MatMulNBits (64, 32 or 16 where "
        "128 does not divide a row; the block column above says which)\n");
  if (erep && print_external_report(erep, sp.mode, cs->report) != EXIT_SUCCESS) goto done;
  if (cs->report) print_files(out, erep, cs->also_single);
  status = finish_stdout(EXIT_SUCCESS);
done:
  free(sp.data);
  onnxslim_check_report_free(before);
  onnxslim_convert_report_free(crep);
  onnxslim_save_report_free(erep);
  onnxslim_simplify_report_free(srep);
  onnxslim_model_free(model);
  /* a signal that stopped the work (one caught once every file was in
   * place changes nothing: the work is done) */
  if (status != EXIT_SUCCESS && interrupted()) {
    strbuf a = {0}, b = {0};
    strbuf what = {0};
    if (!saved) sb_printf(&what, "nothing written, '%s' left as it was", esc(&a, out));
    else sb_printf(&what, "'%s' written, '%s' not written", esc(&a, out), esc(&b, cs->also_single));
    status = interrupt_exit(sb_str(&what));
    sb_free(&what);
    sb_free(&a);
    sb_free(&b);
  }
  return status;
}
