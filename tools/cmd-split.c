/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim (the command) - `libonnxslim split IN OUT`: tensors to external data.
 */
#include <stdlib.h>

#include "cli.h"
#include "convert.h"

static const option_spec split_options[] = {
    OPT_THRESHOLD,   OPT_ALIGN,
    OPT_LOCATION,    OPT_PER_TENSOR,
    OPT_CHECKSUM,    OPT_FORCE_SHAPE_INPUTS,
    OPT_CONSTANTS,   OPT_ALLOW_LARGE,
    OPT_TOPOSORT,    OPT_REPORT("print where tensors went and the files written"),
    OPT_JSON_REPORT, {NULL, NULL, NULL, NULL},
};

static int run_split(const command *cmd, int argc, char **argv) {
  convert_settings cs;
  const char *pos[2];
  size_t npos;
  int rc;

  convert_settings_init(&cs);
  cs.external = 1;
  rc = parse_args(cmd, &cs, argc, argv, pos, 2, &npos);
  if (rc != PARSE_CONTINUE) return rc;
  if (npos != 2) return usage_error("%s: expected %s", cmd->name, cmd->args);
  rc = convert_settings_check(cmd, &cs, pos[1]);
  if (rc != PARSE_CONTINUE) return rc;
  return convert_model(pos[0], pos[1], &cs);
}

const command cmd_split = {"split", "IN OUT",
                           "save IN as OUT with its tensors in external data\n"
                           "(no type change)",
                           split_options, run_split};
