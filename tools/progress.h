/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim (the command) - progress on stderr and --quiet.
 *
 * Long work (loading, converting, saving) draws one line on stderr that
 * updates in place ("\r"): what, the file, percent, bytes done of total,
 * rate and time left; the line is erased when the work ends. Only when
 * stderr is a terminal and --quiet was not given; the numbers come from the
 * library's progress function (onnxslim_progress_fn).
 */
#ifndef ONNXSLIM_TOOLS_PROGRESS_H
#define ONNXSLIM_TOOLS_PROGRESS_H

#include <stddef.h>
#include <stdint.h>

#include <onnxslim.h>

/* -q, --quiet: nothing on stderr but errors (no progress, warnings or
 * notes). Set by the option parsing (main.c, options.c). */
extern int quiet;

/* 1 when progress is drawn: stderr is a terminal and not --quiet. */
int progress_shown(void);

/* One line of progress, for one piece of work. */
typedef struct progress_line {
  const char *what; /* "loading", "converting", "saving" */
  const char *name; /* the file, or NULL */
  double start;     /* when the first call came (monotonic seconds) */
  int pct;          /* percent drawn last, -1: nothing drawn yet */
  size_t drawn;     /* characters of the line on the terminal (0: none) */
} progress_line;

/* Sets p up; returns the function for the options' `progress` field
 * (progress_update), or NULL when progress is not shown. Pass p as the
 * options' progress_payload. */
onnxslim_progress_fn progress_begin(progress_line *p, const char *what, const char *name);
/* The library's progress function: redraws the line when the percent
 * changes. Never cancels (returns 0). */
int progress_update(uint64_t done, uint64_t total, void *payload);
/* The work ended (done or failed): erases the line, if one was drawn. Call
 * it before printing anything else on stderr. */
void progress_end(progress_line *p);

/* "512 B", "37.5 KiB", "1.1 GiB" (the line's sizes). */
void progress_size(char *buf, size_t cap, uint64_t n);

#endif
