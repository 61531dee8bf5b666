/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim (the command) - progress on stderr and --quiet (progress.h).
 */
#include <stdio.h>
#include <string.h>

#include "process.h"
#include "os.h"
#include "strbuf.h"
#include "interrupt.h"
#include "progress.h"

int quiet;

int progress_shown(void) {
  static int tty = -1;
  if (tty < 0) tty = os_stderr_tty();
  return tty && !quiet;
}

/* Columns of the terminal on stderr (80 when unknown). */
static size_t columns(void) {
  size_t c = os_stderr_columns();
  return c ? c : 80;
}

void progress_size(char *buf, size_t cap, uint64_t n) {
  if (n < 1024) snprintf(buf, cap, "%u B", (unsigned)n);
  else human_size(buf, cap, n);
}

/* "1:05", "1:02:05"; "--:--" when unknown. */
static void duration(char *buf, size_t cap, double s) {
  if (!(s >= 0) || s > 360000.0) {
    snprintf(buf, cap, "--:--");
    return;
  }
  unsigned long t = (unsigned long)(s + 0.5);
  if (t >= 3600) snprintf(buf, cap, "%lu:%02lu:%02lu", t / 3600, t / 60 % 60, t % 60);
  else snprintf(buf, cap, "%lu:%02lu", t / 60, t % 60);
}

onnxslim_progress_fn progress_begin(progress_line *p, const char *what, const char *name) {
  p->what = what;
  p->name = name;
  p->start = 0;
  p->pct = -1;
  p->drawn = 0;
  /* also unseen while SIGINT and SIGTERM are caught: it cancels the work */
  return progress_shown() || interrupt_armed() ? progress_update : NULL;
}

/* Cuts sb to at most n bytes, not inside a UTF-8 sequence. */
static void cut(strbuf *sb, size_t n) {
  if (sb->len <= n) return;
  while (n > 0 && ((unsigned char)sb->p[n] & 0xC0) == 0x80) n--;
  sb->p[n] = '\0';
  sb->len = n;
}

int progress_update(uint64_t done, uint64_t total, void *payload) {
  progress_line *p = payload;
  double t = os_now();
  int pct;
  char sd[32], st[32], rate[32], left[32];
  strbuf stats = {0}, line = {0}, name = {0};
  size_t cols, len;

  if (interrupted()) return 1; /* cancel: the library removes what it wrote */
  if (!progress_shown()) return 0;
  if (p->pct < 0 && done == 0) p->start = t;
  if (done >= total) return 0; /* the end: progress_end erases the line */
  pct = (int)(done * 100 / total);
  if (pct == p->pct) return 0;
  p->pct = pct;
  progress_size(sd, sizeof sd, done);
  progress_size(st, sizeof st, total);
  if (done > 0 && t > p->start) {
    double r = (double)done / (t - p->start);
    progress_size(rate, sizeof rate, (uint64_t)r);
    strcat(rate, "/s");
    duration(left, sizeof left, (double)(total - done) / r);
  } else {
    snprintf(rate, sizeof rate, "--/s");
    duration(left, sizeof left, -1);
  }
  sb_printf(&stats, "%3d%%  %s of %s  %s  %s left", pct, sd, st, rate, left);
  cols = columns();
  if (cols < 2) cols = 2;
  /* "saving out.onnx: STATS", the name shortened to its last part, then
   * dropped, then the whole cut to the terminal's width */
  if (p->name) {
    sb_escaped(&name, p->name);
    if (strlen(p->what) + name.len + stats.len + 3 > cols - 1) {
      const char *slash = strrchr(p->name, '/');
      if (slash) esc(&name, slash + 1);
    }
    if (strlen(p->what) + name.len + stats.len + 3 > cols - 1) sb_reset(&name);
  }
  sb_printf(&line, "%s%s%s: %s", p->what, name.len ? " " : "", sb_str(&name), sb_str(&stats));
  cut(&line, cols - 1);
  len = line.len;
  /* padded over what the last line had left */
  fprintf(stderr, "\r%s%*s", sb_str(&line), p->drawn > len ? (int)(p->drawn - len) : 0, "");
  fflush(stderr);
  if (len > p->drawn) p->drawn = len;
  sb_free(&stats);
  sb_free(&line);
  sb_free(&name);
  return 0;
}

void progress_end(progress_line *p) {
  if (!p->drawn) return;
  fprintf(stderr, "\r%*s\r", (int)p->drawn, "");
  fflush(stderr);
  p->drawn = 0;
  p->pct = -1;
}
