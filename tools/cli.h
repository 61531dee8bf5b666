/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim (the command) - what the files of tools/ share: the command and
 * option tables, option parsing, errors and output, allocation, and the
 * text forms of ONNX things. Internal to the command; the library is used
 * through its public API (<onnxslim.h>) only.
 *
 * A command is one file, tools/cmd-NAME.c, that defines
 *   const command cmd_NAME = {"NAME", "ARGS", "summary", NAME_options, run};
 * and one row in the command list of tools/main.c (docs/contributing.md).
 */
#ifndef ONNXSLIM_TOOLS_CLI_H
#define ONNXSLIM_TOOLS_CLI_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h> /* EXIT_SUCCESS, EXIT_FAILURE */

#include <onnxslim.h>

#include "json.h"
#include "process.h"
#include "progress.h"
#include "strbuf.h"
#include "table.h"

#define EXIT_USAGE 2

/* Indent of the lines under a heading. */
#define INDENT "    "

/* ---- sizes --------------------------------------------------------------- */

/* "N bytes" or "N bytes (1.2 MiB)" */
void sb_byte_count(strbuf *sb, uint64_t n);

/* ---- errors and output ------------------------------------------------- */

/* Reports a failed library call: "libonnxslim: <what>: <last error>".
 * Returns EXIT_FAILURE. Call it right after the failing call. */
int fail_lib(const char *fmt, ...) PRINTF_LIKE(1, 2);
/* Loads the model at `path` for a command, with progress on a terminal.
 * '-' is refused (models are mapped, not read from a pipe). On failure
 * reports why - with a hint when the bytes are not ONNX protobuf at all -
 * and returns the exit status; returns EXIT_SUCCESS with *model set
 * otherwise. */
int open_model(onnxslim_model **model, const char *path);
/* Makes sure everything written to stdout arrived; turns status into the
 * exit status of the program. */
int finish_stdout(int status);

/* ---- text forms of ONNX things (describe.c) ------------------------------ */

/* "FLOAT", or "dtype(N)" for a type this library does not know. */
void sb_dtype(strbuf *sb, int32_t dtype);
/* "FLOAT[batch, 3, ?, 224]", "INT64[]" (scalar), "FLOAT (no shape)",
 * "sequence<...>", "map<INT64, FLOAT>", "optional<...>".
 * Returns 0 or -1 on a library error. */
int sb_type(strbuf *sb, const onnxslim_type *type);
/* "[64, 3, 7, 7]", "[]" for a scalar. Returns 0 or -1. */
int sb_tensor_dims(strbuf *sb, const onnxslim_tensor *t);
/* "raw_data", "typed", "external" or "none" for an ONNXSLIM_STORAGE_* value. */
const char *storage_name(int storage);
/* The members "type" (the text of sb_type()), "kind" ("tensor", "sequence",
 * ...), "elem_type" and "shape" (each dim an integer, a symbol or null) of
 * a value's type, all null when it has none (docs/json.md). Returns 0 or -1
 * on a library error. */
int json_value_type(json *j, const onnxslim_value_info *vi);
/* The dims of a tensor as a JSON array. Returns 0 or -1. */
int json_tensor_dims(json *j, const onnxslim_tensor *t);

/* ---- commands and options ------------------------------------------------ */

/*
 * Options of a command. To add one, write a handler that stores the value in
 * the command's context struct and add a row to the command's table, e.g.
 *   {"--min-size", "BYTES", opt_min_size, "convert only tensors of at least BYTES"},
 * (help text may span lines with '\n').
 * Both "--name VALUE" and "--name=VALUE" are accepted for options taking a
 * value. A handler returns 0, or prints why the value is bad and returns -1
 * (a usage error).
 */
typedef int (*option_handler)(void *ctx, const char *value);

typedef struct option_spec {
  const char *name;    /* "--gather-to"; NULL ends the table */
  const char *metavar; /* name of the value in the help, NULL: takes none */
  option_handler handler;
  const char *help;
} option_spec;

typedef struct command {
  const char *name;
  const char *args;    /* positional arguments for the usage text */
  const char *summary; /* may contain '\n' for more lines */
  const option_spec *options;
  int (*run)(const struct command *cmd, int argc, char **argv);
} command;

/* The command being run (for usage errors), NULL before one is chosen. */
extern const command *current_command;

/* `libonnxslim COMMAND --help` (usage.c) */
void print_command_usage(FILE *f, const command *cmd);
/* `libonnxslim --help`: the program's usage with the commands listed, a
 * NULL-terminated array (usage.c). */
void print_usage(FILE *f, const command *const *commands);

/* Prints "libonnxslim: MESSAGE", the usage line of the current command (or of
 * the program) and where to find more; returns EXIT_USAGE. */
int usage_error(const char *fmt, ...) PRINTF_LIKE(1, 2);

#define PARSE_CONTINUE (-1)

/*
 * Parses argv[1..argc-1] of a command (argv[0] is the command name): options
 * from cmd->options go to their handlers with ctx, everything else is
 * collected into pos[] (at most max_pos entries; *npos receives the count).
 * "--" ends the options; "-" alone is an argument.
 * Returns PARSE_CONTINUE, or an exit status: 0 after --help, EXIT_USAGE after
 * a usage error (already reported).
 */
int parse_args(const command *cmd, void *ctx, int argc, char **argv, const char **pos,
               size_t max_pos, size_t *npos);

/* Prints "libonnxslim: OPTION: MESSAGE" for a bad option value; returns -1. */
int bad_value(const char *option, const char *fmt, ...) PRINTF_LIKE(2, 3);
/* Parses a byte count: decimal digits with an optional suffix K, M or G
 * (upper or lower case; powers of 1024). Returns 0, or -1 after printing
 * why the value is bad. */
int parse_bytes(const char *option, const char *s, uint64_t *out);

/* The handler of an option without a value for a command whose context is
 * one int: sets it to 1 (e.g. --json of info, check and fingerprint). */
int opt_flag(void *ctx, const char *value);

/* The --json row of an option table (docs/json.md). */
#define OPT_JSON(what) \
  { "--json", NULL, opt_flag, what " as JSON (docs/json.md)" }

typedef struct name_value {
  const char *name;
  int value;
} name_value;

/* Looks s up in table (case-insensitive); returns 0 or -1. */
int lookup_name(const name_value *names, const char *s, int *value);

#endif
