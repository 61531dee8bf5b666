/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - error codes and the thread-local last-error message.
 *
 * Every function that returns int returns ONNXSLIM_OK (0) or one of the
 * negative codes below. Codes are never reused for another meaning. On every
 * failure the library also records a message in a thread-local buffer that
 * says what went wrong and where, e.g.
 *   "truncated length-delimited field 1 (length 200, 12 bytes left) at byte
 *    1234 in graph.node[17]".
 * The library never aborts, exits or prints on its own.
 */
#ifndef ONNXSLIM_ERROR_H
#define ONNXSLIM_ERROR_H

#include "common.h"

/** The result codes. Functions return them as int; the values are part of the
 * ABI and never change. */
typedef enum onnxslim_error_code {
  /** Success. */
  ONNXSLIM_OK = 0,
  /** An argument is invalid (NULL where not allowed, wrong handle kind, reserved bits set). */
  ONNXSLIM_EINVAL = -1,
  /** Memory allocation failed. */
  ONNXSLIM_ENOMEM = -2,
  /** An operating-system call failed (open, read, write, fsync, rename, ...). */
  ONNXSLIM_EIO = -3,
  /** The bytes are not a well-formed ONNX protobuf message. */
  ONNXSLIM_EPARSE = -4,
  /** A limit was exceeded: nesting depth, size, element count. */
  ONNXSLIM_ELIMIT = -5,
  /** A looked-up item does not exist. */
  ONNXSLIM_ENOTFOUND = -6,
  /** An index is out of range. */
  ONNXSLIM_ERANGE = -7,
  /** The operation is not supported for this input (e.g. unknown data type). */
  ONNXSLIM_EUNSUPPORTED = -8,
  /** A caller-provided buffer is too small; the needed size was reported. */
  ONNXSLIM_EBUFSIZE = -9,
  /** The model is well-formed protobuf but semantically invalid (e.g. negative dims). */
  ONNXSLIM_EMODEL = -10,
  /** The item has another type than the one asked for (e.g. reading an INT attribute as FLOAT). */
  ONNXSLIM_ETYPE = -11,
  /** No space left on the device, or the file-size limit (RLIMIT_FSIZE) would be exceeded. */
  ONNXSLIM_ENOSPC = -12,
  /** The caller's progress function (onnxslim_progress_fn) asked to stop;
   * nothing was changed. @since 0.2.0 */
  ONNXSLIM_ECANCELED = -13
} onnxslim_error_code;

#ifdef __cplusplus
extern "C" {
#endif

/**
 * A short static description of an error code, e.g. "malformed protobuf".
 * Unknown codes give "unknown error". Never returns NULL. Never fails.
 * @since 0.1.0
 */
ONNXSLIM_API const char *onnxslim_strerror(int code);

/**
 * The message of the last error that happened in the calling thread.
 * Returns "" if no error happened since the last onnxslim_error_clear().
 * Never returns NULL. Successful calls do not clear it. The string is owned
 * by the library and stays unchanged until the next failing library call (or
 * onnxslim_error_clear()) in the same thread.
 * @since 0.1.0
 */
ONNXSLIM_API const char *onnxslim_error_last(void);

/**
 * The code of the last error in the calling thread (0 if none). Never fails.
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_error_last_code(void);

/**
 * Clears the calling thread's last error. Never fails.
 * @since 0.1.0
 */
ONNXSLIM_API void onnxslim_error_clear(void);

#ifdef __cplusplus
}
#endif

#endif /* ONNXSLIM_ERROR_H */
