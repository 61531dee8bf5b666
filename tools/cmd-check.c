/*
 * onnxslim (the command) - `onnxslim check MODEL`: validate, print each problem.
 */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"

/* Exit status of `check` (besides EXIT_SUCCESS and EXIT_USAGE). */
#define EXIT_CHECK_PROBLEMS 1
#define EXIT_CHECK_UNREADABLE 3

static const option_spec check_options[] = {
    OPT_JSON("print the problems"),
    {NULL, NULL, NULL, NULL},
};

/* Names of the ONNXSLIM_CHECK_* codes in JSON (docs/json.md). */
static const char *code_name(int code) {
  static const char *const names[] = {
      "unknown",     "undefined_input", "duplicate_output",    "order",
      "tensor_size", "opset",           "output_not_produced", "type",
      "empty_name",
  };
  return code > 0 && code < (int)(sizeof names / sizeof names[0]) ? names[code] : "unknown";
}

/* Prints "LOCATION: MESSAGE" per problem on stdout, or "MODEL: ok"; with
 * as_json the same as one JSON document (onnxslim.check/1). */
static int check_model(const char *path, int as_json) {
  onnxslim_model *model = NULL;
  onnxslim_check_report *report = NULL;
  strbuf loc = {0}, msg = {0};
  size_t i, n;
  int status;

  status = open_model(&model, path);
  if (status != EXIT_SUCCESS) return status == EXIT_USAGE ? status : EXIT_CHECK_UNREADABLE;
  if (onnxslim_check(&report, model, 0) != ONNXSLIM_OK) {
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
    json_kstr(&j, "schema", "onnxslim.check/1");
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
  int as_json = 0;
  int rc = parse_args(cmd, &as_json, argc, argv, pos, 1, &npos);
  if (rc != PARSE_CONTINUE) return rc;
  if (npos != 1) return usage_error("%s: expected %s", cmd->name, cmd->args);
  return check_model(pos[0], as_json);
}

const command cmd_check = {"check", "MODEL",
                           "check MODEL: print each problem as\n"
                           "LOCATION: MESSAGE; exit 1 if there are any,\n"
                           "3 if MODEL cannot be read",
                           check_options, run_check};
