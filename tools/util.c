/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim (the command) - allocation, sizes, errors and output.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

void *xrealloc(void *p, size_t n) {
  void *q = realloc(p, n ? n : 1);
  if (!q) {
    fprintf(stderr, "%s: out of memory\n", progname);
    exit(EXIT_FAILURE);
  }
  return q;
}

void *xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p) {
    fprintf(stderr, "%s: out of memory\n", progname);
    exit(EXIT_FAILURE);
  }
  return p;
}

void *xmalloc_array(size_t count, size_t size) {
  if (size && count > SIZE_MAX / size) {
    fprintf(stderr, "%s: out of memory\n", progname);
    exit(EXIT_FAILURE);
  }
  return xmalloc(count * size);
}

char *xstrdup(const char *s) {
  size_t n = strlen(s) + 1;
  return memcpy(xmalloc(n), s, n);
}

void human_size(char *buf, size_t bufsize, uint64_t n) {
  static const char *const units[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double v = (double)n;
  size_t u = 0;

  if (n < 1024) {
    buf[0] = '\0';
    return;
  }
  v /= 1024.0;
  while (v >= 1024.0 && u + 1 < sizeof units / sizeof units[0]) {
    v /= 1024.0;
    u++;
  }
  snprintf(buf, bufsize, "%.1f %s", v, units[u]);
}

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
