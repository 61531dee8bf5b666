/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim (the command) - a growable NUL-terminated string.
 */
#ifndef ONNXSLIM_TOOLS_STRBUF_H
#define ONNXSLIM_TOOLS_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

#if defined(__MINGW32__)
/* mingw-w64's C99 printf (__USE_MINGW_ANSI_STDIO, set by the Makefile):
 * GCC's "printf" there is Microsoft's, without %zu */
#  define PRINTF_LIKE(f, a) __attribute__((format(gnu_printf, f, a)))
#elif defined(__GNUC__)
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
/* Length of the well-formed UTF-8 sequence at s[0..n), 0 if there is none
 * (Unicode's table of well-formed byte sequences: no overlong forms, no
 * surrogates, nothing above U+10FFFF). */
size_t utf8_seq_len(const unsigned char *s, size_t n);
/* Appends s with control characters and the bytes of ill-formed UTF-8
 * escaped (\n, \t, \r, \xNN), so that names from a model cannot break
 * the layout of the output or the terminal. Well-formed UTF-8 passes
 * through. */
void sb_escaped(strbuf *sb, const char *s);
/* Appends the n bytes at s, a NUL byte as the four characters \x00 (a
 * string of a model that may hold NUL, e.g. a STRING attribute, kept
 * whole in a NUL-terminated text). */
void sb_put_nul_escaped(strbuf *sb, const char *s, size_t n);
/* Escaped copy of s in *sb (reset first); returns the text. */
const char *esc(strbuf *sb, const char *s);

#endif
