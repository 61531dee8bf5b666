/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim (the command) - a JSON writer for --json (docs/json.md).
 *
 * Writes one document to a FILE, indented by two spaces per level, keys in
 * the order written. Strings are written as valid UTF-8 whatever their
 * bytes: '"', '\' and control characters (U+0000-U+001F, U+007F) are
 * escaped, well-formed UTF-8 passes through, and each byte that is not
 * part of a well-formed UTF-8 sequence becomes U+FFFD. Numbers that JSON
 * cannot hold (NaN, infinities) are written as null.
 *
 *   json j;
 *   json_init(&j, stdout);
 *   json_object(&j);                 // {
 *   json_kstr(&j, "schema", "libonnxslim.info/1");
 *   json_karray(&j, "inputs");       //   "inputs": [
 *   json_str(&j, "x");               //     "x"
 *   json_end(&j);                    //   ]
 *   json_end(&j);                    // }
 *   json_finish(&j);                 // newline
 */
#ifndef ONNXSLIM_TOOLS_JSON_H
#define ONNXSLIM_TOOLS_JSON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "strbuf.h"

#define JSON_MAX_DEPTH 32

typedef struct json {
  FILE *f;
  int depth;
  int after_key;                 /* a key was written, its value comes next */
  char open[JSON_MAX_DEPTH];     /* '{' or '[' per open level */
  char nonempty[JSON_MAX_DEPTH]; /* a member was written at this level */
} json;

void json_init(json *j, FILE *f);

/* Values: inside an array, or after json_key(). */
void json_object(json *j); /* starts an object */
void json_array(json *j);  /* starts an array */
void json_end(json *j);    /* ends the innermost object or array */
void json_str(json *j, const char *s);
void json_strn(json *j, const char *s, size_t n);
void json_int(json *j, int64_t v);
void json_uint(json *j, uint64_t v);
void json_double(json *j, double v); /* shortest form that reads back exactly */
void json_bool(json *j, int v);
void json_null(json *j);

/* A member of the current object: its key, then one value. */
void json_key(json *j, const char *key);
/* json_key() and a value in one call. */
void json_kstr(json *j, const char *key, const char *s); /* s NULL: null */
void json_kint(json *j, const char *key, int64_t v);
void json_kuint(json *j, const char *key, uint64_t v);
void json_kdouble(json *j, const char *key, double v);
void json_kbool(json *j, const char *key, int v);
void json_knull(json *j, const char *key);
void json_kobject(json *j, const char *key);
void json_karray(json *j, const char *key);

/* Ends the document (a newline). */
void json_finish(json *j);

/* Appends s[0..n) to sb as a JSON string, quotes included (the escaping
 * described above). */
void json_escape(strbuf *sb, const char *s, size_t n);

#endif
