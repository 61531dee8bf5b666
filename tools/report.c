/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim (the command) - what `convert`, `split` and `merge` did (--report).
 */

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "os.h"
#include "report.h"

/* The conversion report as an aligned table with a totals row, on stdout. */
/* The quantized entries of a conversion report (none: nothing printed):
 * per tensor the bits, block size, scale range and the errors of the
 * dequantized values. */
static int print_quant_report(const onnxslim_convert_report *rep) {
  size_t i, n = onnxslim_convert_report_count(rep), nq = 0;
  table t;
  table_init(&t, "lrrlrrr");
  t.max_width = NAME_MAX_WIDTH;
  table_add(&t, "tensor");
  table_add(&t, "bits");
  table_add(&t, "block");
  table_add(&t, "scales min .. max");
  table_add(&t, "max_abs_err");
  table_add(&t, "max_row_rel_err");
  table_add(&t, "rows >1%");
  for (i = 0; i < n; i++) {
    onnxslim_quant_stats q = ONNXSLIM_QUANT_STATS_INIT;
    if (onnxslim_quant_report_stats(rep, i, &q) != ONNXSLIM_OK) continue;
    nq++;
    table_add_esc(&t, onnxslim_convert_report_name(rep, i));
    table_addf(&t, "%d", q.bits);
    table_addf(&t, "%" PRIu64, q.block_size);
    table_addf(&t, "%.3g .. %.3g", q.scale_min, q.scale_max);
    table_addf(&t, "%.3g", q.max_abs_error);
    table_addf(&t, "%.3g", q.max_row_rel_error);
    table_addf(&t, "%" PRIu64 " of %" PRIu64, q.rows_over_1pct, q.rows);
  }
  onnxslim_error_clear();
  if (nq) {
    printf(
        "quantized %zu tensor%s (errors of the dequantized values; a row's error is\n"
        "||dequantized - original|| / ||original||):\n",
        nq, nq == 1 ? "" : "s");
    table_print(&t, INDENT, NULL);
  }
  table_free(&t);
  return EXIT_SUCCESS;
}

/* The tensors the conversion kept in their type (none: nothing printed). */
static int print_kept(const onnxslim_convert_report *rep) {
  size_t i, n = onnxslim_convert_report_kept_count(rep);
  strbuf s = {0};
  table t;
  if (n == 0) return EXIT_SUCCESS;
  table_init(&t, "llrrr");
  t.max_width = NAME_MAX_WIDTH;
  printf(
      "kept %zu tensor%s in %s type (values out of the target type's range; --force converts "
      "%s):\n",
      n, n == 1 ? "" : "s", n == 1 ? "its" : "their", n == 1 ? "it" : "them");
  table_add(&t, "tensor");
  table_add(&t, "type");
  table_add(&t, "elements");
  table_add(&t, "would be Inf");
  table_add(&t, "would saturate");
  for (i = 0; i < n; i++) {
    const char *name = onnxslim_convert_report_kept_name(rep, i);
    onnxslim_convert_stats st = ONNXSLIM_CONVERT_STATS_INIT;
    if (!name || onnxslim_convert_report_kept_add_stats(rep, i, &st) != ONNXSLIM_OK) {
      table_free(&t);
      sb_free(&s);
      return fail_lib("conversion report kept tensor %zu", i);
    }
    table_add_esc(&t, name);
    sb_reset(&s);
    sb_dtype(&s, onnxslim_convert_report_kept_from(rep, i));
    table_add(&t, sb_str(&s));
    table_addf(&t, "%" PRIu64, st.count);
    table_addf(&t, "%" PRIu64, st.to_inf);
    table_addf(&t, "%" PRIu64, st.saturated);
  }
  table_print(&t, INDENT, NULL);
  table_free(&t);
  sb_free(&s);
  return EXIT_SUCCESS;
}

int print_convert_report(const onnxslim_convert_report *rep) {
  size_t i, n = onnxslim_convert_report_count(rep);
  onnxslim_convert_stats total = ONNXSLIM_CONVERT_STATS_INIT;
  uint64_t total_before = 0, total_after = 0;
  char h1[32], h2[32];
  strbuf s = {0};
  table t;
  int status = EXIT_FAILURE;

  table_init(&t, "llrrrrrrrr");
  t.max_width = NAME_MAX_WIDTH;
  printf("converted %zu tensor%s:\n", n, n == 1 ? "" : "s");
  if (n == 0) {
    status = print_kept(rep);
    goto out;
  }
  table_add(&t, "tensor");
  table_add(&t, "from -> to");
  table_add(&t, "elements");
  table_add(&t, "bytes before -> after");
  table_add(&t, "to_inf");
  table_add(&t, "saturated");
  table_add(&t, "flushed");
  table_add(&t, "nan");
  table_add(&t, "max_abs_err");
  table_add(&t, "max_rel_err");
  for (i = 0; i < n; i++) {
    const char *name = onnxslim_convert_report_name(rep, i);
    int32_t from = onnxslim_convert_report_from(rep, i), to = onnxslim_convert_report_to(rep, i);
    uint64_t before = 0, after = 0;
    onnxslim_convert_stats st = ONNXSLIM_CONVERT_STATS_INIT;

    if (!name || onnxslim_convert_report_bytes_before(rep, i, &before) != ONNXSLIM_OK ||
        onnxslim_convert_report_bytes_after(rep, i, &after) != ONNXSLIM_OK ||
        onnxslim_convert_report_add_stats(rep, i, &st) != ONNXSLIM_OK) {
      fail_lib("conversion report entry %zu", i);
      goto out;
    }
    table_add_esc(&t, name ? name : "?");
    sb_reset(&s);
    sb_dtype(&s, from);
    sb_puts(&s, " -> ");
    sb_dtype(&s, to);
    table_add(&t, sb_str(&s));
    table_addf(&t, "%" PRIu64, st.count);
    table_addf(&t, "%" PRIu64 " -> %" PRIu64, before, after);
    table_addf(&t, "%" PRIu64, st.to_inf);
    table_addf(&t, "%" PRIu64, st.saturated);
    table_addf(&t, "%" PRIu64, st.flushed);
    table_addf(&t, "%" PRIu64, st.nan);
    table_addf(&t, "%.3g", st.max_abs_error);
    table_addf(&t, "%.3g", st.max_rel_error);
    total.count = add_sat(total.count, st.count);
    total.to_inf = add_sat(total.to_inf, st.to_inf);
    total.saturated = add_sat(total.saturated, st.saturated);
    total.flushed = add_sat(total.flushed, st.flushed);
    total.nan = add_sat(total.nan, st.nan);
    if (st.max_abs_error > total.max_abs_error) total.max_abs_error = st.max_abs_error;
    if (st.max_rel_error > total.max_rel_error) total.max_rel_error = st.max_rel_error;
    total_before = add_sat(total_before, before);
    total_after = add_sat(total_after, after);
  }
  table_addf(&t, "total (%zu)", n);
  table_add(&t, "");
  table_addf(&t, "%" PRIu64, total.count);
  table_addf(&t, "%" PRIu64 " -> %" PRIu64, total_before, total_after);
  table_addf(&t, "%" PRIu64, total.to_inf);
  table_addf(&t, "%" PRIu64, total.saturated);
  table_addf(&t, "%" PRIu64, total.flushed);
  table_addf(&t, "%" PRIu64, total.nan);
  table_addf(&t, "%.3g", total.max_abs_error);
  table_addf(&t, "%.3g", total.max_rel_error);
  table_print(&t, INDENT, NULL);
  human_size(h1, sizeof h1, total_before);
  human_size(h2, sizeof h2, total_after);
  printf("tensor bytes: %" PRIu64 "%s%s%s -> %" PRIu64 "%s%s%s", total_before, h1[0] ? " (" : "",
         h1, h1[0] ? ")" : "", total_after, h2[0] ? " (" : "", h2, h2[0] ? ")" : "");
  if (total_after < total_before) printf(", %" PRIu64 " saved", total_before - total_after);
  putchar('\n');
  status = print_quant_report(rep);
  if (status == EXIT_SUCCESS) status = print_kept(rep);
out:
  table_free(&t);
  sb_free(&s);
  return status;
}

/* What a save report counts, for the text and the JSON report. */
typedef struct {
  size_t written, below, shape, nolayout, files;
  uint64_t bytes;
  const char *first_loc; /* the first data file (borrowed from the report) */
} save_tally;

static int tally_save_report(const onnxslim_save_report *rep, save_tally *t) {
  size_t i, n = onnxslim_save_report_count(rep);
  const char *prev_loc = NULL;
  memset(t, 0, sizeof *t);
  for (i = 0; i < n; i++) {
    const char *loc = onnxslim_save_report_location(rep, i);
    int st = onnxslim_save_report_placement(rep, i);
    uint64_t len = 0;
    if (st < 0 || onnxslim_save_report_length(rep, i, &len) != ONNXSLIM_OK)
      return fail_lib("external data report entry %zu", i);
    switch (st) {
    case ONNXSLIM_SAVE_PLACEMENT_EXTERNAL:
      t->written++;
      t->bytes = add_sat(t->bytes, len);
      if (loc && (!prev_loc || strcmp(prev_loc, loc) != 0))
        t->files++; /* one file: all the same; per tensor: one each */
      if (!t->first_loc) t->first_loc = loc;
      prev_loc = loc;
      break;
    case ONNXSLIM_SAVE_PLACEMENT_BELOW_THRESHOLD: t->below++; break;
    case ONNXSLIM_SAVE_PLACEMENT_SHAPE_INPUT: t->shape++; break;
    default: t->nolayout++; break;
    }
  }
  return EXIT_SUCCESS;
}

/*
 * What an external-data save did. With verbose (--report), on stdout: where
 * the tensors went and each tensor kept inline for being a shape input.
 * Otherwise one line on stderr when shape inputs were kept inline (not
 * with --quiet).
 */
int print_external_report(const onnxslim_save_report *rep, int mode, int verbose) {
  size_t i, n = onnxslim_save_report_count(rep);
  save_tally t;
  strbuf s = {0};
  char h[32];

  if (tally_save_report(rep, &t) != EXIT_SUCCESS) return EXIT_FAILURE;
  if (!verbose) {
    if (t.shape > 0 && !quiet) {
      fflush(stdout);
      fprintf(stderr,
              "%s: kept %zu shape-input tensor%s inline (onnxruntime cannot load them from "
              "external data; --force-shape-inputs moves them out)\n",
              progname, t.shape, t.shape == 1 ? "" : "s");
    }
    return EXIT_SUCCESS;
  }
  if (mode == ONNXSLIM_LAYOUT_INLINE) {
    printf("every tensor inline (%zu considered)\n", n);
    return EXIT_SUCCESS;
  }
  human_size(h, sizeof h, t.bytes);
  printf("external data: %zu tensor%s, %" PRIu64 " bytes%s%s%s", t.written,
         t.written == 1 ? "" : "s", t.bytes, h[0] ? " (" : "", h, h[0] ? ")" : "");
  if (t.files == 1 && t.first_loc) printf(" in '%s'\n", esc(&s, t.first_loc));
  else printf(" in %zu files\n", t.files);
  printf(
      "kept inline: %zu tensor%s (%zu below the threshold, %zu shape input%s, %zu without a "
      "byte layout)\n",
      t.below + t.shape + t.nolayout, t.below + t.shape + t.nolayout == 1 ? "" : "s", t.below,
      t.shape, t.shape == 1 ? "" : "s", t.nolayout);
  if (t.shape > 0) {
    printf(
        "shape inputs kept inline (onnxruntime cannot load them from external data; "
        "--force-shape-inputs moves them out):\n");
    for (i = 0; i < n; i++) {
      const char *name = onnxslim_save_report_name(rep, i);
      int st = onnxslim_save_report_placement(rep, i);
      if (!name || st < 0) {
        sb_free(&s);
        return fail_lib("external data report entry %zu", i);
      }
      if (st == ONNXSLIM_SAVE_PLACEMENT_SHAPE_INPUT)
        printf(INDENT "%s\n", esc(&s, name ? name : "?"));
    }
  }
  sb_free(&s);
  return EXIT_SUCCESS;
}

/* A written file for the --report list: "path  N bytes  (h)". */
static void add_file_row(table *t, const char *path) {
  char h[32];
  table_add_esc(t, path);
  uint64_t fsize;
  if (os_file_size(path, &fsize) != 0) {
    table_add(t, "?");
    table_add(t, "");
    return;
  }
  table_addf(t, "%" PRIu64 " bytes", fsize);
  human_size(h, sizeof h, fsize);
  if (h[0]) table_addf(t, "(%s)", h);
  else table_add(t, "");
}

/* Directory part of path with its trailing '/', or "" (borrowed into *sb). */
static const char *dir_of(strbuf *sb, const char *path) {
  const char *slash = strrchr(path, '/');
  sb_reset(sb);
  if (slash) sb_putn(sb, path, (size_t)(slash - path) + 1);
  return sb_str(sb);
}

/* Lists the files just written: OUT, its data files, the single file. */
void print_files(const char *out, const onnxslim_save_report *rep, const char *also_single) {
  size_t i, n = onnxslim_save_report_count(rep), files = 0;
  uint64_t data_bytes = 0;
  const char *prev = NULL;
  strbuf dir = {0}, path = {0};
  table t;

  table_init(&t, "lrl");
  add_file_row(&t, out);
  dir_of(&dir, out);
  for (i = 0; i < n; i++) {
    const char *loc = onnxslim_save_report_location(rep, i);
    if (onnxslim_save_report_placement(rep, i) != ONNXSLIM_SAVE_PLACEMENT_EXTERNAL || !loc ||
        (prev && strcmp(prev, loc) == 0))
      continue;
    prev = loc;
    sb_reset(&path);
    sb_puts(&path, sb_str(&dir));
    sb_puts(&path, loc);
    files++;
    if (files <= 3) add_file_row(&t, sb_str(&path));
    uint64_t fsize;
    if (os_file_size(sb_str(&path), &fsize) == 0) data_bytes = add_sat(data_bytes, fsize);
  }
  if (files > 3) {
    char h[32];
    human_size(h, sizeof h, data_bytes);
    table_addf(&t, "... %zu data files in all", files);
    table_addf(&t, "%" PRIu64 " bytes", data_bytes);
    if (h[0]) table_addf(&t, "(%s)", h);
    else table_add(&t, "");
  }
  if (also_single) add_file_row(&t, also_single);
  printf("files written:\n");
  table_print(&t, INDENT, NULL);
  table_free(&t);
  sb_free(&dir);
  sb_free(&path);
}

/* ---- the work ------------------------------------------------------------- */

/* ---- --json (libonnxslim.convert/1, docs/json.md) ---------------------------------- */

static const char *layout_name(int mode) {
  switch (mode) {
  case ONNXSLIM_LAYOUT_ONE_FILE: return "one_file";
  case ONNXSLIM_LAYOUT_PER_TENSOR: return "per_tensor";
  case ONNXSLIM_LAYOUT_INLINE: return "inline";
  default: return "as_loaded";
  }
}

static void json_stats(json *j, const onnxslim_convert_stats *st) {
  json_kuint(j, "elements", st->count);
  json_kuint(j, "to_inf", st->to_inf);
  json_kuint(j, "saturated", st->saturated);
  json_kuint(j, "flushed", st->flushed);
  json_kuint(j, "nan", st->nan);
  json_kdouble(j, "max_abs_error", st->max_abs_error);
  json_kdouble(j, "max_rel_error", st->max_rel_error);
}

static int json_conversion(json *j, const onnxslim_convert_report *rep) {
  size_t i, n = onnxslim_convert_report_count(rep);
  onnxslim_convert_stats total = ONNXSLIM_CONVERT_STATS_INIT;
  uint64_t total_before = 0, total_after = 0;
  strbuf s = {0};

  json_object(j);
  json_karray(j, "tensors");
  for (i = 0; i < n; i++) {
    const char *name = onnxslim_convert_report_name(rep, i);
    uint64_t before = 0, after = 0;
    onnxslim_convert_stats st = ONNXSLIM_CONVERT_STATS_INIT;
    if (!name || onnxslim_convert_report_bytes_before(rep, i, &before) != ONNXSLIM_OK ||
        onnxslim_convert_report_bytes_after(rep, i, &after) != ONNXSLIM_OK ||
        onnxslim_convert_report_add_stats(rep, i, &st) != ONNXSLIM_OK) {
      sb_free(&s);
      return fail_lib("conversion report entry %zu", i);
    }
    json_object(j);
    json_kstr(j, "name", name);
    sb_reset(&s);
    sb_dtype(&s, onnxslim_convert_report_from(rep, i));
    json_kstr(j, "from", sb_str(&s));
    sb_reset(&s);
    sb_dtype(&s, onnxslim_convert_report_to(rep, i));
    json_kstr(j, "to", sb_str(&s));
    json_kuint(j, "bytes_before", before);
    json_kuint(j, "bytes_after", after);
    json_stats(j, &st);
    onnxslim_quant_stats q = ONNXSLIM_QUANT_STATS_INIT;
    if (onnxslim_quant_report_stats(rep, i, &q) == ONNXSLIM_OK) {
      json_kobject(j, "quantization");
      json_kint(j, "bits", q.bits);
      json_kuint(j, "block_size", q.block_size);
      json_kuint(j, "rows", q.rows);
      json_kuint(j, "blocks", q.blocks);
      json_kuint(j, "saturated", q.saturated);
      json_kdouble(j, "scale_min", q.scale_min);
      json_kdouble(j, "scale_max", q.scale_max);
      json_kdouble(j, "max_abs_error", q.max_abs_error);
      json_kdouble(j, "max_row_rel_error", q.max_row_rel_error);
      json_kuint(j, "rows_over_1pct", q.rows_over_1pct);
      json_end(j);
    } else {
      onnxslim_error_clear();
      json_knull(j, "quantization");
    }
    json_end(j);
    total.count = add_sat(total.count, st.count);
    total.to_inf = add_sat(total.to_inf, st.to_inf);
    total.saturated = add_sat(total.saturated, st.saturated);
    total.flushed = add_sat(total.flushed, st.flushed);
    total.nan = add_sat(total.nan, st.nan);
    if (st.max_abs_error > total.max_abs_error) total.max_abs_error = st.max_abs_error;
    if (st.max_rel_error > total.max_rel_error) total.max_rel_error = st.max_rel_error;
    total_before = add_sat(total_before, before);
    total_after = add_sat(total_after, after);
  }
  json_end(j);
  json_kobject(j, "total");
  json_kuint(j, "tensors", n);
  json_kuint(j, "bytes_before", total_before);
  json_kuint(j, "bytes_after", total_after);
  json_stats(j, &total);
  json_end(j);
  json_karray(j, "kept");
  for (i = 0; i < onnxslim_convert_report_kept_count(rep); i++) {
    const char *name = onnxslim_convert_report_kept_name(rep, i);
    onnxslim_convert_stats st = ONNXSLIM_CONVERT_STATS_INIT;
    if (!name || onnxslim_convert_report_kept_add_stats(rep, i, &st) != ONNXSLIM_OK) {
      sb_free(&s);
      return fail_lib("conversion report kept tensor %zu", i);
    }
    json_object(j);
    json_kstr(j, "name", name);
    sb_reset(&s);
    sb_dtype(&s, onnxslim_convert_report_kept_from(rep, i));
    json_kstr(j, "type", sb_str(&s));
    json_kuint(j, "elements", st.count);
    json_kuint(j, "to_inf", st.to_inf);
    json_kuint(j, "saturated", st.saturated);
    json_end(j);
  }
  json_end(j);
  json_karray(j, "notes");
  for (i = 0; i < onnxslim_convert_report_note_count(rep); i++) {
    const char *code = onnxslim_convert_note_code_name(onnxslim_convert_report_note_code(rep, i));
    const char *name = onnxslim_convert_report_note_name(rep, i);
    const char *op = onnxslim_convert_report_note_op(rep, i);
    const char *node = onnxslim_convert_report_note_node(rep, i);
    const char *message = onnxslim_convert_report_note_message(rep, i);
    uint64_t bytes = 0;
    size_t input = 0;
    if (!code || !name || !op || !node || !message ||
        onnxslim_convert_report_note_bytes(rep, i, &bytes) != ONNXSLIM_OK) {
      sb_free(&s);
      return fail_lib("conversion report note %zu", i);
    }
    json_object(j);
    json_kstr(j, "code", code);
    json_kstr(j, "name", name);
    json_kstr(j, "op", op);
    json_kstr(j, "node", node);
    if (onnxslim_convert_report_note_input(rep, i, &input) == ONNXSLIM_OK) {
      json_kuint(j, "input", input);
    } else {
      onnxslim_error_clear();
      json_knull(j, "input");
    }
    json_kuint(j, "bytes", bytes);
    json_kstr(j, "message", message);
    json_end(j);
  }
  json_end(j);
  json_end(j);
  sb_free(&s);
  return EXIT_SUCCESS;
}

static int json_external(json *j, const onnxslim_save_report *rep) {
  size_t i, n = onnxslim_save_report_count(rep);
  save_tally t;

  if (tally_save_report(rep, &t) != EXIT_SUCCESS) return EXIT_FAILURE;
  json_object(j);
  json_kuint(j, "tensors", t.written);
  json_kuint(j, "bytes", t.bytes);
  json_kuint(j, "files", t.files);
  json_kstr(j, "location", t.files == 1 ? t.first_loc : NULL);
  json_kuint(j, "kept_inline", t.below + t.shape + t.nolayout);
  json_kuint(j, "below_threshold", t.below);
  json_kuint(j, "shape_inputs", t.shape);
  json_kuint(j, "without_layout", t.nolayout);
  json_karray(j, "shape_inputs_kept");
  for (i = 0; i < n; i++) {
    const char *name = onnxslim_save_report_name(rep, i);
    if (!name) return fail_lib("external data report entry %zu", i);
    if (onnxslim_save_report_placement(rep, i) == ONNXSLIM_SAVE_PLACEMENT_SHAPE_INPUT)
      json_str(j, name);
  }
  json_end(j);
  json_end(j);
  return EXIT_SUCCESS;
}

static void json_file(json *j, const char *path) {
  json_object(j);
  json_kstr(j, "path", path);
  json_key(j, "bytes");
  uint64_t fsize;
  if (os_file_size(path, &fsize) == 0) json_uint(j, fsize);
  else json_null(j);
  json_end(j);
}

static const char *change_kind(int kind) {
  switch (kind) {
  case ONNXSLIM_SIMPLIFY_REMOVED_NODE: return "removed_node";
  case ONNXSLIM_SIMPLIFY_MERGED_NODE: return "merged_node";
  case ONNXSLIM_SIMPLIFY_REMOVED_INITIALIZER: return "removed_initializer";
  case ONNXSLIM_SIMPLIFY_MERGED_INITIALIZER: return "merged_initializer";
  case ONNXSLIM_SIMPLIFY_REMOVED_OPSET: return "removed_opset";
  case ONNXSLIM_SIMPLIFY_REMOVED_FUNCTION: return "removed_function";
  case ONNXSLIM_SIMPLIFY_FOLDED_NODE: return "folded_node";
  default: return "?";
  }
}

/* The counts before the first pass run and after the last. */
static void simplify_totals(const onnxslim_simplify_report *r, uint64_t t[4]) {
  size_t n = onnxslim_simplify_report_step_count(r);
  uint64_t x[4] = {0, 0, 0, 0};
  t[0] = t[1] = t[2] = t[3] = 0;
  if (!n) return;
  onnxslim_simplify_report_step(r, 0, NULL, NULL, &t[0], &x[0], &t[2], &x[1]);
  onnxslim_simplify_report_step(r, n - 1, NULL, NULL, &x[2], &t[1], &x[3], &t[3]);
}

int print_simplify_report(const onnxslim_simplify_report *r) {
  uint64_t t[4];
  simplify_totals(r, t);
  printf("simplified in %u round%s: nodes %" PRIu64 " -> %" PRIu64 ", initializers %" PRIu64
         " -> %" PRIu64 "\n",
         onnxslim_simplify_report_iterations(r),
         onnxslim_simplify_report_iterations(r) == 1 ? "" : "s", t[0], t[1], t[2], t[3]);
  for (size_t i = 0; i < onnxslim_simplify_report_step_count(r); i++) {
    unsigned int pass = 0, it = 0;
    uint64_t nb = 0, na = 0, ib = 0, ia = 0;
    onnxslim_simplify_report_step(r, i, &pass, &it, &nb, &na, &ib, &ia);
    if (nb == na && ib == ia) continue;
    printf(INDENT "round %u %-5s nodes %" PRIu64 " -> %" PRIu64 ", initializers %" PRIu64
                  " -> %" PRIu64 "\n",
           it, onnxslim_simplify_pass_name(pass), nb, na, ib, ia);
  }
  for (size_t i = 0; i < onnxslim_simplify_report_change_count(r); i++) {
    unsigned int pass = 0;
    int kind = 0;
    const char *name = "", *into = "", *graph = "";
    onnxslim_simplify_report_change(r, i, &pass, &kind, &name, &into, &graph);
    printf(INDENT "%-5s %-19s %s%s%s%s%s\n", onnxslim_simplify_pass_name(pass), change_kind(kind),
           name, into[0] ? " -> " : "", into, graph[0] ? "  in graph " : "", graph);
  }
  return EXIT_SUCCESS;
}

static void json_simplification(json *j, const onnxslim_simplify_report *r) {
  uint64_t t[4];
  simplify_totals(r, t);
  json_object(j);
  json_kint(j, "iterations", onnxslim_simplify_report_iterations(r));
  json_kint(j, "nodes_before", (int64_t)t[0]);
  json_kint(j, "nodes_after", (int64_t)t[1]);
  json_kint(j, "initializers_before", (int64_t)t[2]);
  json_kint(j, "initializers_after", (int64_t)t[3]);
  json_karray(j, "steps");
  for (size_t i = 0; i < onnxslim_simplify_report_step_count(r); i++) {
    unsigned int pass = 0, it = 0;
    uint64_t nb = 0, na = 0, ib = 0, ia = 0;
    onnxslim_simplify_report_step(r, i, &pass, &it, &nb, &na, &ib, &ia);
    json_object(j);
    json_kstr(j, "pass", onnxslim_simplify_pass_name(pass));
    json_kint(j, "iteration", it);
    json_kint(j, "nodes_before", (int64_t)nb);
    json_kint(j, "nodes_after", (int64_t)na);
    json_kint(j, "initializers_before", (int64_t)ib);
    json_kint(j, "initializers_after", (int64_t)ia);
    json_end(j);
  }
  json_end(j);
  json_karray(j, "changes");
  for (size_t i = 0; i < onnxslim_simplify_report_change_count(r); i++) {
    unsigned int pass = 0;
    int kind = 0;
    const char *name = "", *into = "", *graph = "";
    onnxslim_simplify_report_change(r, i, &pass, &kind, &name, &into, &graph);
    json_object(j);
    json_kstr(j, "pass", onnxslim_simplify_pass_name(pass));
    json_kstr(j, "kind", change_kind(kind));
    json_kstr(j, "name", name);
    json_kstr(j, "into", into);
    json_kstr(j, "graph", graph);
    json_end(j);
  }
  json_end(j);
  json_end(j);
}

int print_json_report(const char *command, const char *in, const char *out,
                      const onnxslim_convert_report *crep, int converted,
                      const onnxslim_save_report *erep, int mode, const char *also_single,
                      const onnxslim_simplify_report *srep) {
  json j;
  strbuf dir = {0}, path = {0};
  const char *prev = NULL, *slash = strrchr(out, '/');
  size_t i, n = erep ? onnxslim_save_report_count(erep) : 0;

  json_init(&j, stdout);
  json_object(&j);
  json_kstr(&j, "schema", "libonnxslim.convert/1");
  json_kstr(&j, "command", command);
  json_kstr(&j, "input", in);
  json_kstr(&j, "output", out);
  json_kstr(&j, "single_file", also_single);
  json_kstr(&j, "layout", layout_name(mode));
  json_key(&j, "conversion");
  if (!converted) json_null(&j);
  else if (json_conversion(&j, crep) != EXIT_SUCCESS) return EXIT_FAILURE;
  json_key(&j, "simplification");
  if (!srep) json_null(&j);
  else json_simplification(&j, srep);
  json_key(&j, "external_data");
  if (!erep || mode == ONNXSLIM_LAYOUT_INLINE || mode == ONNXSLIM_LAYOUT_AS_LOADED) json_null(&j);
  else if (json_external(&j, erep) != EXIT_SUCCESS) return EXIT_FAILURE;
  json_karray(&j, "files");
  json_file(&j, out);
  if (slash) sb_putn(&dir, out, (size_t)(slash - out) + 1);
  for (i = 0; i < n; i++) {
    const char *loc = onnxslim_save_report_location(erep, i);
    if (onnxslim_save_report_placement(erep, i) != ONNXSLIM_SAVE_PLACEMENT_EXTERNAL || !loc ||
        (prev && strcmp(prev, loc) == 0))
      continue;
    prev = loc;
    sb_reset(&path);
    sb_puts(&path, sb_str(&dir));
    sb_puts(&path, loc);
    json_file(&j, sb_str(&path));
  }
  if (also_single) json_file(&j, also_single);
  json_end(&j);
  json_end(&j);
  json_finish(&j);
  sb_free(&dir);
  sb_free(&path);
  return EXIT_SUCCESS;
}
