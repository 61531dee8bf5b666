/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim (the command) - `libonnxslim check MODEL`: validate, print each problem.
 */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"

/* Exit status of `check` (besides EXIT_SUCCESS and EXIT_USAGE). */
#define EXIT_CHECK_PROBLEMS 1
#define EXIT_CHECK_UNREADABLE 3

/* What `check` was asked for. */
typedef struct check_ctx {
  int as_json;
  int list;
  int skip[64];
  size_t n_skip;
} check_ctx;

static int opt_check_json(void *ctx, const char *value) {
  (void)value;
  ((check_ctx *)ctx)->as_json = 1;
  return 0;
}

static int opt_list_checks(void *ctx, const char *value) {
  (void)value;
  ((check_ctx *)ctx)->list = 1;
  return 0;
}

static int opt_skip(void *ctx, const char *value) {
  check_ctx *c = ctx;
  int code = onnxslim_check_code_from_name(value);
  if (code <= 0) return bad_value("--skip", "no check named '%s' (see --list-checks)", value);
  if (c->n_skip < sizeof c->skip / sizeof c->skip[0]) c->skip[c->n_skip++] = code;
  return 0;
}

static const option_spec check_options[] = {
    {"--json", NULL, opt_check_json, "print the problems as JSON (docs/json.md)"},
    {"--skip", "NAME", opt_skip, "do not look for problems of this kind (repeatable)"},
    {"--list-checks", NULL, opt_list_checks, "list the kinds of problems, by name, and exit"},
    {NULL, NULL, NULL, NULL},
};

/* Names of the ONNXSLIM_CHECK_* codes in JSON (docs/json.md). */
static const char *code_name(int code) {
  const char *n =
      code > 0 && code <= ONNXSLIM_CHECK_CODE_MAX ? onnxslim_check_code_name(code) : NULL;
  return n ? n : "unknown";
}

/* --list-checks: "NAME  WHAT" per kind. */
static int list_checks(void) {
  for (int code = 1;; code++) {
    const char *n = onnxslim_check_code_name(code);
    if (!n) break;
    printf("%-20s %s\n", n, onnxslim_check_code_description(code));
  }
  onnxslim_error_clear();
  return finish_stdout(EXIT_SUCCESS);
}

/* Prints "LOCATION: MESSAGE" per problem on stdout, or "MODEL: ok"; with
 * as_json the same as one JSON document (libonnxslim.check/1). */
static int check_model(const char *path, const check_ctx *ctx) {
  int as_json = ctx->as_json;
  onnxslim_model *model = NULL;
  onnxslim_check_report *report = NULL;
  strbuf loc = {0}, msg = {0};
  size_t i, n;
  int status;

  status = open_model(&model, path);
  if (status != EXIT_SUCCESS) return status == EXIT_USAGE ? status : EXIT_CHECK_UNREADABLE;
  onnxslim_check_options opts = ONNXSLIM_CHECK_OPTIONS_INIT;
  opts.skip = ctx->skip;
  opts.n_skip = ctx->n_skip;
  if (onnxslim_check_with(&report, model, &opts) != ONNXSLIM_OK) {
    fail_lib("cannot check '%s'", path);
    onnxslim_model_free(model);
    return EXIT_CHECK_UNREADABLE;
  }
  n = onnxslim_check_report_count(report);
  if (as_json) {
    json j;
    size_t order = 0;
    json_init(&j, stdout);
    json_object(&j);
    json_kstr(&j, "schema", "libonnxslim.check/1");
    json_kstr(&j, "file", path);
    json_kbool(&j, "ok", n == 0);
    json_karray(&j, "problems");
    for (i = 0; i < n; i++) {
      const char *l = onnxslim_check_report_location(report, i);
      const char *m = onnxslim_check_report_message(report, i);
      int code = onnxslim_check_report_code(report, i);
      order += code == ONNXSLIM_CHECK_ORDER;
      json_object(&j);
      json_kint(&j, "code", code);
      json_kstr(&j, "code_name", code_name(code));
      json_kstr(&j, "location", l ? l : "?");
      json_kstr(&j, "message", m ? m : "?");
      json_end(&j);
    }
    json_end(&j);
    json_kuint(&j, "unsorted_uses", order);
    json_kstr(&j, "note", onnxslim_check_report_note(report));
    json_end(&j);
    json_finish(&j);
  } else {
    size_t order = 0;
    for (i = 0; i < n; i++) order += onnxslim_check_report_code(report, i) == ONNXSLIM_CHECK_ORDER;
    if (order)
      printf(
          "%s: the graph is not topologically sorted (%zu use%s before definition); "
          "'%s convert --toposort %s OUT' sorts it\n",
          esc(&loc, path), order, order == 1 ? "" : "s", progname, esc(&msg, path));
    for (i = 0; i < n; i++) {
      const char *l = onnxslim_check_report_location(report, i);
      const char *m = onnxslim_check_report_message(report, i);
      printf("%s: ", esc(&loc, l ? l : "?"));
      printf("%s\n", esc(&msg, m ? m : "?"));
    }
    if (n == 0) printf("%s: ok\n", esc(&loc, path));
    const char *note = onnxslim_check_report_note(report);
    if (note && note[0]) fprintf(stderr, "%s: %s: note: %s\n", progname, esc(&loc, path), note);
  }
  status = n ? EXIT_CHECK_PROBLEMS : EXIT_SUCCESS;
  if (finish_stdout(EXIT_SUCCESS) != EXIT_SUCCESS) status = EXIT_CHECK_UNREADABLE;
  else if (n)
    fprintf(stderr, "%s: %s: %zu problem%s\n", progname, esc(&loc, path), n, n == 1 ? "" : "s");
  sb_free(&loc);
  sb_free(&msg);
  onnxslim_check_report_free(report);
  onnxslim_model_free(model);
  return status;
}

static int run_check(const command *cmd, int argc, char **argv) {
  const char *pos[1];
  size_t npos;
  check_ctx ctx = {0};
  int rc = parse_args(cmd, &ctx, argc, argv, pos, 1, &npos);
  if (rc != PARSE_CONTINUE) return rc;
  if (ctx.list)
    return npos == 0 ? list_checks() : usage_error("%s: --list-checks takes no MODEL", cmd->name);
  if (npos != 1) return usage_error("%s: expected %s", cmd->name, cmd->args);
  return check_model(pos[0], &ctx);
}

const command cmd_check = {"check", "MODEL",
                           "check MODEL (structure and operator schemas at\n"
                           "its opset): print each problem as\n"
                           "LOCATION: MESSAGE; exit 1 if there are any,\n"
                           "3 if MODEL cannot be read",
                           check_options, run_check};
