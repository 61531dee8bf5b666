/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim (the command) - `libonnxslim fingerprint MODEL`: the storage-independent digest.
 */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"

static const option_spec fingerprint_options[] = {
    OPT_JSON("print the fingerprint"),
    {NULL, NULL, NULL, NULL},
};

static int run_fingerprint(const command *cmd, int argc, char **argv) {
  onnxslim_model *model = NULL;
  char digest[ONNXSLIM_FINGERPRINT_SIZE];
  const char *pos[1];
  size_t npos;
  int as_json = 0;
  int rc = parse_args(cmd, &as_json, argc, argv, pos, 1, &npos);

  if (rc != PARSE_CONTINUE) return rc;
  if (npos != 1) return usage_error("%s: expected %s", cmd->name, cmd->args);
  rc = open_model(&model, pos[0]);
  if (rc != EXIT_SUCCESS) return rc;
  onnxslim_fingerprint_options fo = ONNXSLIM_FINGERPRINT_OPTIONS_INIT;
  progress_line line;
  fo.progress = progress_begin(&line, "fingerprinting", pos[0]);
  fo.progress_payload = &line;
  rc = onnxslim_fingerprint_with(digest, sizeof digest, model, &fo);
  progress_end(&line);
  if (rc != ONNXSLIM_OK) {
    rc = fail_lib("cannot fingerprint '%s'", pos[0]);
    onnxslim_model_free(model);
    return rc;
  }
  onnxslim_model_free(model);
  if (as_json) {
    json j;
    json_init(&j, stdout);
    json_object(&j);
    json_kstr(&j, "schema", "libonnxslim.fingerprint/1");
    json_kstr(&j, "file", pos[0]);
    json_kstr(&j, "fingerprint", digest);
    json_end(&j);
    json_finish(&j);
  } else {
    puts(digest);
  }
  return finish_stdout(EXIT_SUCCESS);
}

const command cmd_fingerprint = {"fingerprint", "MODEL",
                                 "print MODEL's 32-hex-digit digest, which does not\n"
                                 "depend on where tensor bytes are stored",
                                 fingerprint_options, run_fingerprint};
