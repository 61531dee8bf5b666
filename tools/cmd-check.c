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
    {NULL, NULL, NULL, NULL},
};

/* Prints "LOCATION: MESSAGE" per problem on stdout, or "MODEL: ok". */
static int check_model(const char *path) {
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
  {
    size_t order = 0;
    for (i = 0; i < n; i++) order += onnxslim_check_report_code(report, i) == ONNXSLIM_CHECK_ORDER;
    if (order)
      printf(
          "%s: the graph is not topologically sorted (%zu use%s before definition); "
          "'%s convert --toposort %s OUT' sorts it\n",
          esc(&loc, path), order, order == 1 ? "" : "s", progname, esc(&msg, path));
  }
  for (i = 0; i < n; i++) {
    const char *l = onnxslim_check_report_location(report, i);
    const char *m = onnxslim_check_report_message(report, i);
    printf("%s: ", esc(&loc, l ? l : "?"));
    printf("%s\n", esc(&msg, m ? m : "?"));
  }
  if (n == 0) printf("%s: ok\n", esc(&loc, path));
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
  int rc = parse_args(cmd, NULL, argc, argv, pos, 1, &npos);
  if (rc != PARSE_CONTINUE) return rc;
  if (npos != 1) return usage_error("%s: expected %s", cmd->name, cmd->args);
  return check_model(pos[0]);
}

const command cmd_check = {"check", "MODEL",
                           "check MODEL: print each problem as\n"
                           "LOCATION: MESSAGE; exit 1 if there are any,\n"
                           "3 if MODEL cannot be read",
                           check_options, run_check};
