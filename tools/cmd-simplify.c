/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim (the command) - `libonnxslim simplify IN OUT`: exact graph
 * simplification (onnxslim/simplify.h), then the save of `convert`.
 */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "convert.h"

static int opt_passes(void *ctx, const char *value) {
  convert_settings *cs = ctx;
  unsigned int passes = 0;
  if (onnxslim_simplify_parse_passes(value, &passes) != ONNXSLIM_OK)
    return bad_value("--passes", "%s", onnxslim_error_last());
  cs->simplify = passes;
  return 0;
}

static int opt_fold_max_bytes(void *ctx, const char *value) {
  convert_settings *cs = ctx;
  if (parse_bytes("--fold-max-bytes", value, &cs->fold_max_bytes) != 0) return -1;
  if (!cs->fold_max_bytes) return bad_value("--fold-max-bytes", "must be at least 1");
  return 0;
}

static const option_spec simplify_options[] = {
    {"--passes", "LIST", opt_passes,
     "comma-separated passes: noop, cse, fold, dead\nor all (default all)"},
    {"--fold-max-bytes", "N", opt_fold_max_bytes,
     "largest tensor constant folding reads or\ncreates (K, M or G suffix; default 1M)"},
    OPT_REPORT("print each pass run's node and initializer\n"
               "counts and every node and initializer removed\n"
               "or merged"),
    {"--external-data", NULL, opt_external_data,
     "save OUT with tensor data in an external file;\n"
     "the options below up to --per-tensor need it"},
    OPT_THRESHOLD,
    OPT_ALIGN,
    OPT_LOCATION,
    OPT_PER_TENSOR,
    OPT_ALLOW_LARGE,
    {"--verify", NULL, opt_verify,
     "check the simplified model before writing it, and\n"
     "write nothing if it fails a check IN passed\n(the default)"},
    {"--no-verify", NULL, opt_no_verify, "write the simplified model unchecked"},
    OPT_JSON_REPORT,
    {NULL, NULL, NULL, NULL},
};

static int run_simplify(const command *cmd, int argc, char **argv) {
  convert_settings cs;
  const char *pos[2];
  size_t npos;

  convert_settings_init(&cs);
  cs.simplify = ONNXSLIM_SIMPLIFY_ALL;
  int rc = parse_args(cmd, &cs, argc, argv, pos, 2, &npos);
  if (rc == PARSE_CONTINUE && npos != 2) rc = usage_error("%s: expected %s", cmd->name, cmd->args);
  if (rc == PARSE_CONTINUE) rc = convert_settings_check(cmd, &cs, pos[1]);
  if (rc == PARSE_CONTINUE) rc = convert_model(pos[0], pos[1], &cs);
  return rc;
}

const command cmd_simplify = {"simplify", "IN OUT",
                              "remove no-op nodes, merge equal nodes and\n"
                              "initializers, fold constants, drop dead code\n"
                              "(exact: the model computes the same numbers),\n"
                              "save it as OUT",
                              simplify_options, run_simplify};
