/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim (the command) - the ground floor of tools/ (process.h): the
 * program's name, allocation that exits on failure, sizes for people.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "process.h"

const char *progname = "libonnxslim";

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
