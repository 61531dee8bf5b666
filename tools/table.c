/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim (the command) - aligned tables of text cells.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "process.h"
#include "strbuf.h"
#include "table.h"

/* Width on a terminal, counting one column per UTF-8 code point. */
static size_t display_width(const char *s) {
  size_t w = 0;
  for (; *s; s++)
    if (((unsigned char)*s & 0xC0) != 0x80) w++;
  return w;
}

void table_init(table *t, const char *align) {
  memset(t, 0, sizeof *t);
  t->align = align;
  t->ncols = strlen(align);
  t->max_width = TABLE_MAX_WIDTH;
}

void table_add(table *t, const char *text) {
  if (t->ncells == t->cap) {
    t->cap = t->cap ? t->cap * 2 : 16;
    t->cells = xrealloc(t->cells, t->cap * sizeof *t->cells);
  }
  t->cells[t->ncells++] = xstrdup(text);
}

void table_addf(table *t, const char *fmt, ...) {
  strbuf sb = {0};
  va_list ap;
  va_start(ap, fmt);
  sb_vprintf(&sb, fmt, ap);
  va_end(ap);
  table_add(t, sb_str(&sb));
  sb_free(&sb);
}

void table_add_esc(table *t, const char *s) {
  strbuf sb = {0};
  table_add(t, esc(&sb, s));
  sb_free(&sb);
}

size_t table_rows(const table *t) { return t->ncols ? t->ncells / t->ncols : 0; }

void table_measure(const table *t, size_t *w) {
  size_t i;
  for (i = 0; i < t->ncells; i++) {
    size_t c = i % t->ncols, dw = display_width(t->cells[i]);
    if (dw > t->max_width) dw = t->max_width;
    if (dw > w[c]) w[c] = dw;
  }
}

void table_print(const table *t, const char *indent, const size_t *widths) {
  size_t own[TABLE_MAX_COLS] = {0};
  strbuf line = {0};
  size_t r, c;

  if (!widths) {
    table_measure(t, own);
    widths = own;
  }
  for (r = 0; r < table_rows(t); r++) {
    sb_reset(&line);
    sb_puts(&line, indent);
    for (c = 0; c < t->ncols; c++) {
      const char *cell = t->cells[r * t->ncols + c];
      size_t dw = display_width(cell), pad = dw < widths[c] ? widths[c] - dw : 0;
      if (c > 0) sb_puts(&line, "  ");
      if (t->align[c] == 'r')
        while (pad--) sb_putn(&line, " ", 1);
      sb_puts(&line, cell);
      if (t->align[c] != 'r')
        while (pad--) sb_putn(&line, " ", 1);
    }
    while (line.len > 0 && line.p[line.len - 1] == ' ') line.p[--line.len] = '\0';
    puts(sb_str(&line));
  }
  sb_free(&line);
}

void table_free(table *t) {
  size_t i;
  for (i = 0; i < t->ncells; i++) free(t->cells[i]);
  free(t->cells);
  memset(t, 0, sizeof *t);
}
