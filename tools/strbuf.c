/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim (the command) - a growable NUL-terminated string.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "process.h"
#include "strbuf.h"

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

size_t utf8_seq_len(const unsigned char *s, size_t n) {
  unsigned char c = s[0], lo = 0x80, hi = 0xBF;
  size_t len, i;
  if (c < 0x80) return 1;
  if (c >= 0xC2 && c <= 0xDF) len = 2;
  else if (c >= 0xE0 && c <= 0xEF) {
    len = 3;
    if (c == 0xE0) lo = 0xA0;
    if (c == 0xED) hi = 0x9F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    len = 4;
    if (c == 0xF0) lo = 0x90;
    if (c == 0xF4) hi = 0x8F;
  } else return 0;
  if (n < len) return 0;
  if (s[1] < lo || s[1] > hi) return 0;
  for (i = 2; i < len; i++)
    if (s[i] < 0x80 || s[i] > 0xBF) return 0;
  return len;
}

void sb_escaped(strbuf *sb, const char *s) {
  size_t n = strlen(s), i = 0;
  while (i < n) {
    unsigned char c = (unsigned char)s[i];
    size_t len = 1;
    if (c == '\n') sb_puts(sb, "\\n");
    else if (c == '\t') sb_puts(sb, "\\t");
    else if (c == '\r') sb_puts(sb, "\\r");
    else if (c < 0x20 || c == 0x7f) sb_printf(sb, "\\x%02x", c);
    else if (c < 0x80) sb_putn(sb, s + i, 1);
    else if ((len = utf8_seq_len((const unsigned char *)s + i, n - i)) != 0)
      sb_putn(sb, s + i, len);
    else /* not UTF-8: the byte, escaped */ sb_printf(sb, "\\x%02x", c), len = 1;
    i += len;
  }
}

void sb_put_nul_escaped(strbuf *sb, const char *s, size_t n) {
  for (size_t i = 0; i < n; i++) {
    if (s[i]) sb_putn(sb, s + i, 1);
    else sb_puts(sb, "\\x00");
  }
}

const char *esc(strbuf *sb, const char *s) {
  sb_reset(sb);
  sb_escaped(sb, s);
  return sb_str(sb);
}
