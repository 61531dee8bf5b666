/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim (the command) - the JSON writer (json.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

void json_init(json *j, FILE *f) {
  memset(j, 0, sizeof *j);
  j->f = f;
}

static void newline(json *j) {
  int i;
  fputc('\n', j->f);
  for (i = 0; i < j->depth; i++) fputs("  ", j->f);
}

/* Before any value: the separator and indent its position needs. */
static void before_value(json *j) {
  if (j->after_key) {
    j->after_key = 0;
    return;
  }
  if (j->depth > 0) {
    if (j->nonempty[j->depth - 1]) fputc(',', j->f);
    j->nonempty[j->depth - 1] = 1;
    newline(j);
  }
}

static void begin(json *j, char c) {
  before_value(j);
  fputc(c, j->f);
  if (j->depth < JSON_MAX_DEPTH) {
    j->open[j->depth] = c;
    j->nonempty[j->depth] = 0;
  }
  j->depth++;
}

void json_object(json *j) { begin(j, '{'); }
void json_array(json *j) { begin(j, '['); }

void json_end(json *j) {
  int had;
  char c;
  if (j->depth == 0) return;
  j->depth--;
  c = j->depth < JSON_MAX_DEPTH ? j->open[j->depth] : '{';
  had = j->depth < JSON_MAX_DEPTH ? j->nonempty[j->depth] : 1;
  if (had) newline(j);
  fputc(c == '{' ? '}' : ']', j->f);
}

void json_key(json *j, const char *key) {
  strbuf sb = {0};
  before_value(j);
  json_escape(&sb, key, strlen(key));
  fputs(sb_str(&sb), j->f);
  fputs(": ", j->f);
  sb_free(&sb);
  j->after_key = 1;
}

/* Length of the well-formed UTF-8 sequence at s[0..n), 0 if there is none
 * (the bounds of Unicode's table of well-formed byte sequences: no overlong
 * forms, no surrogates, nothing above U+10FFFF). */
static size_t utf8_len(const unsigned char *s, size_t n) {
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

void json_escape(strbuf *sb, const char *str, size_t n) {
  const unsigned char *s = (const unsigned char *)str;
  size_t i = 0;
  sb_putn(sb, "\"", 1);
  while (i < n) {
    unsigned char c = s[i];
    size_t len;
    switch (c) {
    case '"': sb_puts(sb, "\\\""); break;
    case '\\': sb_puts(sb, "\\\\"); break;
    case '\b': sb_puts(sb, "\\b"); break;
    case '\f': sb_puts(sb, "\\f"); break;
    case '\n': sb_puts(sb, "\\n"); break;
    case '\r': sb_puts(sb, "\\r"); break;
    case '\t': sb_puts(sb, "\\t"); break;
    default:
      if (c < 0x20 || c == 0x7F) {
        sb_printf(sb, "\\u%04x", c);
        break;
      }
      len = utf8_len(s + i, n - i);
      if (len == 0) {
        sb_puts(sb, "\\ufffd"); /* not UTF-8: the replacement character */
        break;
      }
      sb_putn(sb, (const char *)s + i, len);
      i += len;
      continue;
    }
    i++;
  }
  sb_putn(sb, "\"", 1);
}

void json_strn(json *j, const char *s, size_t n) {
  strbuf sb = {0};
  before_value(j);
  json_escape(&sb, s, n);
  fputs(sb_str(&sb), j->f);
  sb_free(&sb);
}

void json_str(json *j, const char *s) { json_strn(j, s, strlen(s)); }

void json_int(json *j, int64_t v) {
  before_value(j);
  fprintf(j->f, "%lld", (long long)v);
}

void json_uint(json *j, uint64_t v) {
  before_value(j);
  fprintf(j->f, "%llu", (unsigned long long)v);
}

void json_double(json *j, double v) {
  char buf[40];
  int prec;
  if (!isfinite(v)) {
    json_null(j);
    return;
  }
  /* the shortest of %.15g .. %.17g that reads back as v */
  for (prec = 15; prec < 17; prec++) {
    snprintf(buf, sizeof buf, "%.*g", prec, v);
    if (strtod(buf, NULL) == v) break;
  }
  snprintf(buf, sizeof buf, "%.*g", prec, v);
  before_value(j);
  fputs(buf, j->f); /* "%g" forms such as 1e+20, 0.5 or -0 are JSON numbers */
}

void json_bool(json *j, int v) {
  before_value(j);
  fputs(v ? "true" : "false", j->f);
}

void json_null(json *j) {
  before_value(j);
  fputs("null", j->f);
}

void json_kstr(json *j, const char *key, const char *s) {
  json_key(j, key);
  if (s) json_str(j, s);
  else json_null(j);
}

void json_kint(json *j, const char *key, int64_t v) {
  json_key(j, key);
  json_int(j, v);
}

void json_kuint(json *j, const char *key, uint64_t v) {
  json_key(j, key);
  json_uint(j, v);
}

void json_kdouble(json *j, const char *key, double v) {
  json_key(j, key);
  json_double(j, v);
}

void json_kbool(json *j, const char *key, int v) {
  json_key(j, key);
  json_bool(j, v);
}

void json_knull(json *j, const char *key) {
  json_key(j, key);
  json_null(j);
}

void json_kobject(json *j, const char *key) {
  json_key(j, key);
  json_object(j);
}

void json_karray(json *j, const char *key) {
  json_key(j, key);
  json_array(j);
}

void json_finish(json *j) { fputc('\n', j->f); }
