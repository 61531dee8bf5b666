/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim (the command) - errors and output: a failed library call, a
 * model opened with progress, stdout finished (declared in cli.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "interrupt.h"

void sb_byte_count(strbuf *sb, uint64_t n) {
  char h[32];
  human_size(h, sizeof h, n);
  sb_printf(sb, "%" PRIu64 " byte%s", n, n == 1 ? "" : "s");
  if (h[0]) sb_printf(sb, " (%s)", h);
}

int fail_lib(const char *fmt, ...) {
  /* Copy the message first: it is only valid until the next library call. */
  char *msg = xstrdup(onnxslim_error_last());
  int code = onnxslim_error_last_code();
  va_list ap;

  if (code == ONNXSLIM_ECANCELED && interrupted()) {
    free(msg); /* canceled by a signal: interrupt_exit() says so */
    return EXIT_FAILURE;
  }

  if (!msg[0]) {
    free(msg);
    msg = xstrdup(code ? onnxslim_strerror(code) : "unknown error");
  }
  fflush(stdout);
  fprintf(stderr, "%s: ", progname);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fprintf(stderr, ": %s\n", msg);
  free(msg);
  return EXIT_FAILURE;
}

int open_model(onnxslim_model **model, const char *path) {
  int rc;
  *model = NULL;
  if (strcmp(path, "-") == 0) {
    fflush(stdout);
    fprintf(stderr, "%s: '-' (standard input or output) is not supported: name a file\n", progname);
    return EXIT_USAGE;
  }
  onnxslim_load_options o = ONNXSLIM_LOAD_OPTIONS_INIT;
  progress_line line;
  o.progress = progress_begin(&line, "loading", path);
  o.progress_payload = &line;
  rc = onnxslim_model_open(model, path, &o);
  progress_end(&line);
  if (rc == ONNXSLIM_OK) return EXIT_SUCCESS;
  fail_lib("cannot load '%s'", path);
  if (rc == ONNXSLIM_EPARSE)
    fprintf(stderr,
            "%s: hint: '%s' is not a well-formed ONNX protobuf file: is this an ONNX model?\n",
            progname, path);
  return EXIT_FAILURE;
}

int finish_stdout(int status) {
  if (fflush(stdout) != 0 || ferror(stdout)) {
    fprintf(stderr, "%s: writing to standard output: %s\n", progname, strerror(errno));
    return EXIT_FAILURE;
  }
  return status;
}
