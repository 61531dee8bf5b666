/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim (the command) - `libonnxslim diff A B`: what differs between two
 * models. Exit 0 when they are equal, 1 with the differences listed, 2 on
 * a usage error or when a model cannot be read.
 *
 * The comparison is the library's (onnxslim_diff(), include/onnxslim/diff.h):
 * this file prints its report, one line per difference (escaped: control
 * characters and bytes that are not UTF-8 as \xNN) or as JSON
 * (libonnxslim.diff/1, docs/json.md).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "json.h"

#define EXIT_DIFFERENT 1
#define EXIT_TROUBLE 2

typedef struct diff_settings {
  int storage; /* --storage */
  int json;    /* --json */
} diff_settings;

/* A string of entry i of the report, NULL when absent. */
static const char *maybe(const char *s) {
  if (!s) onnxslim_error_clear();
  return s;
}

/* One element of "differences". */
static void json_entry(json *j, const onnxslim_diff_report *r, size_t i) {
  onnxslim_diff_numbers num = ONNXSLIM_DIFF_NUMBERS_INIT;
  int64_t ia = onnxslim_diff_report_node_index(r, i, ONNXSLIM_DIFF_A);
  int64_t ib = onnxslim_diff_report_node_index(r, i, ONNXSLIM_DIFF_B);
  json_object(j);
  json_kstr(j, "graph", onnxslim_diff_report_graph(r, i));
  json_kstr(j, "kind", onnxslim_diff_kind_name(onnxslim_diff_report_kind(r, i)));
  json_kstr(j, "name", onnxslim_diff_report_name(r, i));
  json_key(j, "index_a");
  if (ia >= 0) json_int(j, ia);
  else json_null(j);
  json_key(j, "index_b");
  if (ib >= 0) json_int(j, ib);
  else json_null(j);
  json_kstr(j, "what", onnxslim_diff_aspect_name(onnxslim_diff_report_aspect(r, i)));
  json_kstr(j, "attribute", maybe(onnxslim_diff_report_attribute(r, i)));
  json_kstr(j, "a", maybe(onnxslim_diff_report_value(r, i, ONNXSLIM_DIFF_A)));
  json_kstr(j, "b", maybe(onnxslim_diff_report_value(r, i, ONNXSLIM_DIFF_B)));
  if (onnxslim_diff_report_numbers(r, i, &num) == ONNXSLIM_OK)
    json_kdouble(j, "max_abs_diff", num.max_abs_diff);
  else json_knull(j, "max_abs_diff");
  json_kstr(j, "digest_a", maybe(onnxslim_diff_report_digest(r, i, ONNXSLIM_DIFF_A)));
  json_kstr(j, "digest_b", maybe(onnxslim_diff_report_digest(r, i, ONNXSLIM_DIFF_B)));
  json_kstr(j, "text", onnxslim_diff_report_text(r, i));
  json_end(j);
}

/* ---- the command ------------------------------------------------------------------ */

static int opt_storage(void *ctx, const char *value) {
  (void)value;
  ((diff_settings *)ctx)->storage = 1;
  return 0;
}

static int opt_json(void *ctx, const char *value) {
  (void)value;
  ((diff_settings *)ctx)->json = 1;
  return 0;
}

static const option_spec diff_options[] = {
    {"--storage", NULL, opt_storage,
     "also list tensors stored differently (raw_data,\n"
     "typed fields or external data)"},
    {"--json", NULL, opt_json, "print the differences as JSON (docs/json.md)"},
    {NULL, NULL, NULL, NULL},
};

static int diff_files(const char *pa, const char *pb, const diff_settings *ds) {
  onnxslim_model *a = NULL, *b = NULL;
  onnxslim_diff_options opts = ONNXSLIM_DIFF_OPTIONS_INIT;
  onnxslim_diff_report *r = NULL;
  int status = EXIT_TROUBLE;
  size_t i, count;

  if (open_model(&a, pa) != EXIT_SUCCESS || open_model(&b, pb) != EXIT_SUCCESS) goto out;
  if (ds->storage) opts.flags |= ONNXSLIM_DIFF_COMPARE_STORAGE;
  if (onnxslim_diff(&r, a, b, &opts) != ONNXSLIM_OK) {
    fail_lib("cannot compare '%s' with '%s'", pa, pb);
    goto out;
  }
  count = onnxslim_diff_report_count(r);
  if (ds->json) {
    json j;
    json_init(&j, stdout);
    json_object(&j);
    json_kstr(&j, "schema", "libonnxslim.diff/1");
    json_kstr(&j, "a", pa);
    json_kstr(&j, "b", pb);
    json_kbool(&j, "storage", ds->storage);
    json_kstr(&j, "fingerprint_a", onnxslim_diff_report_fingerprint(r, ONNXSLIM_DIFF_A));
    json_kstr(&j, "fingerprint_b", onnxslim_diff_report_fingerprint(r, ONNXSLIM_DIFF_B));
    json_karray(&j, "differences");
    for (i = 0; i < count; i++) json_entry(&j, r, i);
    json_end(&j);
    json_kuint(&j, "count", count);
    json_kbool(&j, "equal", count == 0);
    json_end(&j);
    json_finish(&j);
  } else {
    strbuf e = {0};
    for (i = 0; i < count; i++) printf("%s\n", esc(&e, onnxslim_diff_report_text(r, i)));
    sb_free(&e);
    if (count) printf("%zu difference%s\n", count, count == 1 ? "" : "s");
  }
  status = count ? EXIT_DIFFERENT : EXIT_SUCCESS;
  if (finish_stdout(EXIT_SUCCESS) != EXIT_SUCCESS) status = EXIT_TROUBLE;
out:
  onnxslim_diff_report_free(r);
  onnxslim_model_free(a);
  onnxslim_model_free(b);
  return status;
}

static int run_diff(const command *cmd, int argc, char **argv) {
  diff_settings ds = {0, 0};
  const char *pos[2];
  size_t npos;
  int rc = parse_args(cmd, &ds, argc, argv, pos, 2, &npos);
  if (rc != PARSE_CONTINUE) return rc;
  if (npos != 2) return usage_error("%s: expected %s", cmd->name, cmd->args);
  return diff_files(pos[0], pos[1], &ds);
}

const command cmd_diff = {"diff", "A B",
                          "list what differs between models A and B:\n"
                          "model fields, opsets, metadata, graph inputs\n"
                          "and outputs, nodes (by name; unnamed ones by\n"
                          "position among their op type), attributes,\n"
                          "initializers (type, shape, contents: digest\n"
                          "and max abs diff); exit 0 equal, 1 different,\n"
                          "2 usage error or unreadable model",
                          diff_options, run_diff};
