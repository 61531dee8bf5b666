/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/* libonnxslim - error codes and the thread-local last-error message. */
#include <stdio.h>
#include <string.h>

#include "base/base.h"

static _Thread_local char last_msg[1024];
static _Thread_local int last_code;
_Static_assert(sizeof last_msg == sizeof((osl_err_saved *)0)->msg, "osl_err_saved holds a message");

int onnxslim__err(int code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(last_msg, sizeof last_msg, fmt, ap);
  va_end(ap);
  last_code = code;
  return code;
}

int onnxslim__err_options_version(const char *who, const char *what, unsigned int version,
                                  unsigned int max) {
  if (max <= 1)
    return onnxslim__err(ONNXSLIM_EINVAL,
                         "%s%sunknown %s version %u (this library knows version 1 only)",
                         who ? who : "", who ? ": " : "", what, version);
  return onnxslim__err(ONNXSLIM_EINVAL,
                       "%s%sunknown %s version %u (this library knows versions 1 to %u)",
                       who ? who : "", who ? ": " : "", what, version, max);
}

int onnxslim__err_nomem(const char *what) {
  if (what && *what) return onnxslim__err(ONNXSLIM_ENOMEM, "out of memory: %s", what);
  return onnxslim__err(ONNXSLIM_ENOMEM, "out of memory");
}

void onnxslim__err_save(osl_err_saved *s) {
  memcpy(s->msg, last_msg, sizeof s->msg);
  s->code = last_code;
}

void onnxslim__err_restore(const osl_err_saved *s) {
  memcpy(last_msg, s->msg, sizeof last_msg);
  last_code = s->code;
}

const char *onnxslim_strerror(int code) {
  switch (code) {
  case ONNXSLIM_OK: return "success";
  case ONNXSLIM_EINVAL: return "invalid argument";
  case ONNXSLIM_ENOMEM: return "out of memory";
  case ONNXSLIM_EIO: return "input/output error";
  case ONNXSLIM_EPARSE: return "malformed protobuf";
  case ONNXSLIM_ELIMIT: return "limit exceeded";
  case ONNXSLIM_ENOTFOUND: return "not found";
  case ONNXSLIM_ERANGE: return "index out of range";
  case ONNXSLIM_EUNSUPPORTED: return "not supported";
  case ONNXSLIM_EBUFSIZE: return "buffer too small";
  case ONNXSLIM_EMODEL: return "invalid model";
  case ONNXSLIM_ETYPE: return "wrong type";
  case ONNXSLIM_ENOSPC: return "no space or file size limit";
  case ONNXSLIM_ECANCELED: return "canceled";
  default: return "unknown error";
  }
}

const char *onnxslim_error_last(void) { return last_msg; }

int onnxslim_error_last_code(void) { return last_code; }

void onnxslim_error_clear(void) {
  last_msg[0] = '\0';
  last_code = 0;
}
