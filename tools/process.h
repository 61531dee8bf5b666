/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim (the command) - the ground floor of tools/: what every other
 * file may use and what uses no other file of tools/ (process.c). The
 * files of tools/ call each other one way only, this file at the bottom
 * and main.c at the top (test/check_cycles.py).
 */
#ifndef ONNXSLIM_TOOLS_PROCESS_H
#define ONNXSLIM_TOOLS_PROCESS_H

#include <stddef.h>
#include <stdint.h>

/* "libonnxslim": the first word of every message. */
extern const char *progname;

/* ---- allocation: these print "out of memory" and exit on failure ------- */

void *xrealloc(void *p, size_t n);
void *xmalloc(size_t n);
void *xmalloc_array(size_t count, size_t size);
char *xstrdup(const char *s);

/* ---- sizes --------------------------------------------------------------- */

/* "37.5 KiB" etc. for n >= 1024, else "" (callers print bytes anyway). */
void human_size(char *buf, size_t bufsize, uint64_t n);

/* a + b, or UINT64_MAX when the sum would not fit. */
static inline uint64_t add_sat(uint64_t a, uint64_t b) {
  return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

#endif
