/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim (the command) - a growable NUL-terminated string.
 */
#ifndef ONNXSLIM_TOOLS_STRBUF_H
#define ONNXSLIM_TOOLS_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

#if defined(__GNUC__)
#  define PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))
#else
#  define PRINTF_LIKE(f, a)
#endif

/* A growable NUL-terminated string. Zero-initialize before use. */
typedef struct strbuf {
  char *p;
  size_t len, cap;
} strbuf;

void sb_reserve(strbuf *sb, size_t extra);
void sb_reset(strbuf *sb);
const char *sb_str(const strbuf *sb);
void sb_free(strbuf *sb);
void sb_putn(strbuf *sb, const char *s, size_t n);
void sb_puts(strbuf *sb, const char *s);
void sb_vprintf(strbuf *sb, const char *fmt, va_list ap) PRINTF_LIKE(2, 0);
void sb_printf(strbuf *sb, const char *fmt, ...) PRINTF_LIKE(2, 3);
/* Appends s with control characters escaped, so that names from a model
 * cannot break the layout of the output. UTF-8 passes through. */
void sb_escaped(strbuf *sb, const char *s);
/* Escaped copy of s in *sb (reset first); returns the text. */
const char *esc(strbuf *sb, const char *s);

#endif
