/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim (the command) - the help texts: `libonnxslim --help` (the
 * command list given by main.c) and `libonnxslim COMMAND --help` (called
 * by the option parsing). Declared in cli.h.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"

/* Prints s, indenting the lines after the first by indent columns. */
static void print_indented(FILE *f, const char *s, int indent) {
  for (; *s; s++) {
    fputc(*s, f);
    if (*s == '\n') fprintf(f, "%*s", indent, "");
  }
  fputc('\n', f);
}

#define SUMMARY_COL 22
#define OPTION_COL 30

static void print_command(FILE *f, const command *cmd) {
  const option_spec *opt;
  char head[64];

  snprintf(head, sizeof head, "%s %s", cmd->name, cmd->args);
  fprintf(f, "  %-*s", SUMMARY_COL - 2, head);
  if (strlen(head) > SUMMARY_COL - 3) fprintf(f, "\n%*s", SUMMARY_COL, "");
  print_indented(f, cmd->summary, SUMMARY_COL);
  for (opt = cmd->options; opt->name; opt++) {
    char o[64];
    snprintf(o, sizeof o, "%s%s%s", opt->name, opt->metavar ? " " : "",
             opt->metavar ? opt->metavar : "");
    fprintf(f, "      %-*s", OPTION_COL - 6, o);
    if (strlen(o) > OPTION_COL - 7) fprintf(f, "\n%*s", OPTION_COL, "");
    print_indented(f, opt->help, OPTION_COL);
  }
}

static const char sizes_note[] =
    "BYTES: a number of bytes, optionally followed by K, M or G (powers of 1024).\n";

static const char files_note[] =
    "Files: no output (OUT, a data file, the --also-single-file copy) may be one\n"
    "of the input's files - the model or its external data, under any name or\n"
    "link: that is a usage error and nothing is written. Every model written loads\n"
    "on its own: if IN keeps tensors in external data and OUT is in another\n"
    "directory, those tensors are written to OUT.data next to OUT (in IN's own\n"
    "directory OUT refers to IN's data files, as IN does). '-' is not stdin/stdout.\n"
    "A save with external data is atomic as a pair: killed at any point, OUT is\n"
    "the old model with its data or the new one with its data. The new data never\n"
    "replaces a file the old OUT reads: saving to OUT again writes NAME_1.EXT\n"
    "(out_1.bin, out.onnx_1.data), then NAME.EXT again; the old data files are\n"
    "removed once the new OUT is in place. --report lists the files written.\n"
    "While saving, hidden temporary files .OUT.tmp-PID-TID-*, .NAME.bak-PID-TID-*\n"
    "and .OUT.journal-PID-TID-* sit next to OUT and its data files, and .OUT.lock\n"
    "(saves to one OUT take turns); the next save to OUT removes those a killed\n"
    "save left behind. SIGINT (Ctrl-C) or SIGTERM cancels: what the save wrote is\n"
    "removed, OUT stays as it was, and the command dies of the signal (130, 143).\n";

static const char quiet_note[] =
    "Progress: loading, converting and saving draw one updating line on stderr\n"
    "(percent, bytes done of total, rate, time left) when stderr is a terminal.\n"
    "-q, --quiet (before or after COMMAND): nothing on stderr but errors - no\n"
    "progress, warnings or notes.\n";

static const char exit_note[] =
    "Exit status: 0 on success, 1 on failure, 2 on a usage error;\n"
    "check: 0 valid, 1 problems found, 2 usage error, 3 MODEL unreadable;\n"
    "diff: 0 equal, 1 different, 2 usage error or a model unreadable.\n";

void print_command_usage(FILE *f, const command *cmd) {
  const option_spec *opt;
  int takes_bytes = 0;

  fprintf(f, "Usage: %s %s%s %s\n\n", progname, cmd->name,
          cmd->options[0].name ? " [OPTION...]" : "", cmd->args);
  print_command(f, cmd);
  for (opt = cmd->options; opt->name; opt++)
    if (opt->metavar && strcmp(opt->metavar, "BYTES") == 0) takes_bytes = 1;
  fputc('\n', f);
  if (takes_bytes) fputs(sizes_note, f);
  if (strcmp(cmd->args, "IN OUT") == 0) fputs(files_note, f);
  fputs(quiet_note, f);
  fputs(exit_note, f);
}

void print_usage(FILE *f, const command *const *commands) {
  const command *const *cmd;

  fprintf(f,
          "Usage: %s [-q] COMMAND [OPTION...] ARG...\n"
          "       %s COMMAND --help\n"
          "       %s --version\n"
          "       %s --help\n"
          "\n"
          "Commands:\n",
          progname, progname, progname, progname);
  for (cmd = commands; *cmd; cmd++) {
    if (cmd != commands && ((*cmd)->options[0].name || cmd[-1]->options[0].name))
      fputc('\n', f); /* a blank line around commands with options */
    print_command(f, *cmd);
  }
  fprintf(f,
          "\n"
          "Options:\n"
          "  -h, --help            print this help and exit\n"
          "      --version         print the library version and exit\n"
          "  -q, --quiet           print nothing on stderr but errors (also after\n"
          "                        COMMAND, with its options)\n"
          "\n");
  fputs(sizes_note, f);
  fputs(files_note, f);
  fputs(quiet_note, f);
  fputs(exit_note, f);
}
