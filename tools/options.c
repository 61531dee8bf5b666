/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim (the command) - command-line parsing: options, usage errors, option values.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "cli.h"

const command *current_command;

int usage_error(const char *fmt, ...) {
  va_list ap;
  fflush(stdout);
  fprintf(stderr, "%s: ", progname);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  if (current_command)
    fprintf(stderr, "Usage: %s %s [OPTION...] %s\nTry '%s %s --help' for more information.\n",
            progname, current_command->name, current_command->args, progname,
            current_command->name);
  else
    fprintf(stderr, "Usage: %s COMMAND [OPTION...] ARG...\nTry '%s --help' for more information.\n",
            progname, progname);
  return EXIT_USAGE;
}

#define PARSE_CONTINUE (-1)

int parse_args(const command *cmd, void *ctx, int argc, char **argv, const char **pos,
               size_t max_pos, size_t *npos) {
  int i, only_positional = 0;

  *npos = 0;
  for (i = 1; i < argc; i++) {
    const char *arg = argv[i];

    if (!only_positional && strcmp(arg, "--") == 0) {
      only_positional = 1;
      continue;
    }
    if (!only_positional && arg[0] == '-' && arg[1] != '\0') {
      const option_spec *opt;
      const char *eq = strchr(arg, '=');
      size_t namelen = (arg[1] == '-' && eq) ? (size_t)(eq - arg) : strlen(arg);
      const char *value = NULL;

      if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
        print_command_usage(stdout, cmd);
        return finish_stdout(EXIT_SUCCESS);
      }
      if (strcmp(arg, "-q") == 0 || strcmp(arg, "--quiet") == 0) {
        quiet = 1;
        continue;
      }
      for (opt = cmd->options; opt->name; opt++)
        if (strlen(opt->name) == namelen && strncmp(opt->name, arg, namelen) == 0) break;
      if (!opt->name) return usage_error("%s: unknown option '%.*s'", cmd->name, (int)namelen, arg);
      if (opt->metavar) {
        if (arg[namelen] == '=') value = arg + namelen + 1;
        else if (i + 1 < argc) value = argv[++i];
        else
          return usage_error("%s: option '%s' needs a value (%s)", cmd->name, opt->name,
                             opt->metavar);
      } else if (arg[namelen] == '=') {
        return usage_error("%s: option '%s' takes no value", cmd->name, opt->name);
      }
      if (opt->handler(ctx, value) != 0)
        return usage_error("%s: invalid use of option '%s'", cmd->name, opt->name);
      continue;
    }
    if (*npos == max_pos)
      return usage_error("%s: too many arguments (expected %s)", cmd->name, cmd->args);
    pos[(*npos)++] = arg;
  }
  return PARSE_CONTINUE;
}

int bad_value(const char *option, const char *fmt, ...) {
  va_list ap;
  fflush(stdout);
  fprintf(stderr, "%s: %s: ", progname, option);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  return -1;
}

int parse_bytes(const char *option, const char *s, uint64_t *out) {
  const char *p = s;
  uint64_t v = 0;
  unsigned int shift = 0;

  if (*p < '0' || *p > '9')
    return bad_value(option, "'%s' is not a byte count (digits, optionally followed by K, M or G)",
                     s);
  for (; *p >= '0' && *p <= '9'; p++) {
    unsigned int d = (unsigned int)(*p - '0');
    if (v > (UINT64_MAX - d) / 10) return bad_value(option, "'%s' is too large", s);
    v = v * 10 + d;
  }
  switch (*p) {
  case '\0': break;
  case 'K':
  case 'k': shift = 10; break;
  case 'M':
  case 'm': shift = 20; break;
  case 'G':
  case 'g': shift = 30; break;
  default:
    return bad_value(option, "'%s' is not a byte count (digits, optionally followed by K, M or G)",
                     s);
  }
  if (shift) {
    if (p[1] != '\0')
      return bad_value(option,
                       "'%s' is not a byte count (digits, optionally followed by K, M or G)", s);
    if (v > (UINT64_MAX >> shift)) return bad_value(option, "'%s' is too large", s);
    v <<= shift;
  }
  *out = v;
  return 0;
}

int lookup_name(const name_value *names, const char *s, int *value) {
  for (; names->name; names++)
    if (strcasecmp(names->name, s) == 0) {
      *value = names->value;
      return 0;
    }
  return -1;
}

int opt_flag(void *ctx, const char *value) {
  (void)value;
  *(int *)ctx = 1;
  return 0;
}
