/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim (the command) - `libonnxslim merge IN OUT`: every tensor inline.
 */
#include <stdlib.h>

#include "cli.h"
#include "convert.h"

static const option_spec merge_options[] = {
    OPT_ALLOW_LARGE,          OPT_TOPOSORT, OPT_REPORT("print the files written"), OPT_JSON_REPORT,
    {NULL, NULL, NULL, NULL},
};

static int run_merge(const command *cmd, int argc, char **argv) {
  convert_settings cs;
  const char *pos[2];
  size_t npos;
  int rc;

  convert_settings_init(&cs);
  rc = parse_args(cmd, &cs, argc, argv, pos, 2, &npos);
  if (rc != PARSE_CONTINUE) return rc;
  if (npos != 2) return usage_error("%s: expected %s", cmd->name, cmd->args);
  cs.mode = ONNXSLIM_LAYOUT_INLINE;
  return convert_model(pos[0], pos[1], &cs);
}

const command cmd_merge = {"merge", "IN OUT", "save IN as OUT with every tensor inline",
                           merge_options, run_merge};
