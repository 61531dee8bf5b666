/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - command-line front end of libonnxslim.
 *
 *   libonnxslim [-q] COMMAND [OPTION...] ARG...
 *   libonnxslim --version | --help | COMMAND --help
 *
 * The commands are in the COMMANDS list below, one file tools/cmd-NAME.c
 * each; `libonnxslim --help` lists them.
 *
 * Uses the public API (<onnxslim.h>) only.
 *
 * Exit status: 0 on success, 1 on failure, 2 on a usage error.
 * `check` exits 0 when MODEL is valid, 1 when it has problems, 2 on a usage
 * error and 3 when MODEL cannot be read (or checked). `diff` exits 0 when
 * the models are equal, 1 when they differ, 2 on a usage error or when a
 * model cannot be read. --json: docs/json.md.
 * Library error messages go to stderr as "libonnxslim: <what>: <message>".
 * Long work draws progress on stderr when it is a terminal; -q, --quiet
 * (before or after the command) leaves only errors on stderr.
 *
 * This file: the command list and the global options; the help texts are
 * in usage.c. What the commands share is declared in tools/cli.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "os.h"

/* The commands, in the order --help lists them. A new command: its file
 * tools/cmd-NAME.c defining `const command cmd_NAME`, and a row here. */
#define COMMANDS(X) \
  X(info)           \
  X(convert)        \
  X(split)          \
  X(merge)          \
  X(fingerprint)    \
  X(check)          \
  X(diff)           \
  X(simplify)       \
  X(infer)

#define DECLARE(name) extern const command cmd_##name;
#define ENTRY(name) &cmd_##name,
COMMANDS(DECLARE)
static const command *const commands[] = {COMMANDS(ENTRY) NULL};

int main(int argc, char **argv) {
  const command *const *cmd;
  const char *arg;

  os_start(&argc, &argv);
  /* global options before the command */
  while (argc >= 2 && (strcmp(argv[1], "-q") == 0 || strcmp(argv[1], "--quiet") == 0)) {
    quiet = 1;
    argc--;
    argv++;
  }
  if (argc < 2) return usage_error("missing command");
  arg = argv[1];
  if (strcmp(arg, "--version") == 0) {
    if (argc != 2) return usage_error("--version takes no arguments");
    printf("%s %s\n", progname, onnxslim_version_string());
    return finish_stdout(EXIT_SUCCESS);
  }
  if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
    print_usage(stdout, commands);
    return finish_stdout(EXIT_SUCCESS);
  }
  if (arg[0] == '-') return usage_error("unknown option '%s'", arg);
  for (cmd = commands; *cmd; cmd++)
    if (strcmp((*cmd)->name, arg) == 0) {
      current_command = *cmd;
      return (*cmd)->run(*cmd, argc - 1, argv + 1);
    }
  return usage_error("unknown command '%s'", arg);
}
