/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim (the command) - a growable NUL-terminated string.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

void sb_reserve(strbuf *sb, size_t extra) {
  if (sb->len + extra + 1 > sb->cap) {
    size_t cap = sb->cap ? sb->cap : 64;
    while (cap < sb->len + extra + 1) cap *= 2;
    sb->p = xrealloc(sb->p, cap);
    sb->cap = cap;
  }
}

void sb_reset(strbuf *sb) {
  sb->len = 0;
  if (sb->p) sb->p[0] = '\0';
}

const char *sb_str(const strbuf *sb) { return sb->p ? sb->p : ""; }

void sb_free(strbuf *sb) {
  free(sb->p);
  sb->p = NULL;
  sb->len = sb->cap = 0;
}

void sb_putn(strbuf *sb, const char *s, size_t n) {
  sb_reserve(sb, n);
  memcpy(sb->p + sb->len, s, n);
  sb->len += n;
  sb->p[sb->len] = '\0';
}

void sb_puts(strbuf *sb, const char *s) { sb_putn(sb, s, strlen(s)); }

void sb_vprintf(strbuf *sb, const char *fmt, va_list ap) {
  va_list ap2;
  int n;

  va_copy(ap2, ap);
  n = vsnprintf(NULL, 0, fmt, ap2);
  va_end(ap2);
  if (n < 0) return;
  sb_reserve(sb, (size_t)n);
  vsnprintf(sb->p + sb->len, (size_t)n + 1, fmt, ap);
  sb->len += (size_t)n;
}

void sb_printf(strbuf *sb, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  sb_vprintf(sb, fmt, ap);
  va_end(ap);
}

void sb_escaped(strbuf *sb, const char *s) {
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '\n') sb_puts(sb, "\\n");
    else if (c == '\t') sb_puts(sb, "\\t");
    else if (c == '\r') sb_puts(sb, "\\r");
    else if (c < 0x20 || c == 0x7f) sb_printf(sb, "\\x%02x", c);
    else sb_putn(sb, s, 1);
  }
}

const char *esc(strbuf *sb, const char *s) {
  sb_reset(sb);
  sb_escaped(sb, s);
  return sb_str(sb);
}
