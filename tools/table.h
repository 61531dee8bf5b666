/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim (the command) - aligned tables of text cells on stdout.
 */
#ifndef ONNXSLIM_TOOLS_TABLE_H
#define ONNXSLIM_TOOLS_TABLE_H

#include <stddef.h>

#include "strbuf.h"

#define TABLE_MAX_COLS 12
/* Columns wider than this are not padded further; long cells just overflow. */
#define TABLE_MAX_WIDTH 48
/* Tables whose first column is a tensor name stay aligned up to this width. */
#define NAME_MAX_WIDTH 80

typedef struct table {
  const char *align; /* one 'l' or 'r' per column */
  size_t ncols;
  size_t max_width; /* cells wider than this do not widen their column */
  char **cells;
  size_t ncells, cap;
} table;

void table_init(table *t, const char *align);
/* Adds a cell (copied); rows fill up left to right. */
void table_add(table *t, const char *text);
void table_addf(table *t, const char *fmt, ...) PRINTF_LIKE(2, 3);
/* Adds s with control characters escaped (esc()). */
void table_add_esc(table *t, const char *s);
size_t table_rows(const table *t);
/* Widens w[] (TABLE_MAX_COLS entries) to fit the table's cells. Measuring
 * several tables into one w[] aligns them with each other. */
void table_measure(const table *t, size_t *w);
/* Prints each row on stdout after indent, columns as wide as widths[]
 * (NULL: as the table's own cells need). */
void table_print(const table *t, const char *indent, const size_t *widths);
void table_free(table *t);

#endif
