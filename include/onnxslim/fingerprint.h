/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - a digest of a model that does not depend on where its
 * tensor bytes are stored.
 */
#ifndef ONNXSLIM_FINGERPRINT_H
#define ONNXSLIM_FINGERPRINT_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Bytes onnxslim_fingerprint() writes: 32 hex digits and a NUL. @since 0.1.0 */
#define ONNXSLIM_FINGERPRINT_SIZE 33

/** Current version of onnxslim_fingerprint_options. @since 0.2.0 */
#define ONNXSLIM_FINGERPRINT_OPTIONS_VERSION 1

/**
 * How onnxslim_fingerprint_with() works. Fields are only appended; the
 * library reads only the fields of the caller's `version`.
 * @since 0.2.0
 */
typedef struct onnxslim_fingerprint_options {
  unsigned int version; /**< ONNXSLIM_FINGERPRINT_OPTIONS_VERSION */
  /** Called as the digest goes on (see onnxslim_progress_fn in
   * onnxslim/common.h); total is the bytes of tensor data the digest reads
   * (the sizes of the model's tensors of a known numeric type, as
   * onnxslim_tensor_byte_size() gives them). NULL: none. A nonzero return
   * stops it: ONNXSLIM_ECANCELED, nothing written to out. */
  onnxslim_progress_fn progress;
  void *progress_payload; /**< passed to progress */
} onnxslim_fingerprint_options;

#define ONNXSLIM_FINGERPRINT_OPTIONS_INIT \
  { ONNXSLIM_FINGERPRINT_OPTIONS_VERSION, NULL, NULL }

/**
 * Sets *opts to the defaults of the given version (1 to
 * ONNXSLIM_FINGERPRINT_OPTIONS_VERSION): no progress callback.
 * Errors: ONNXSLIM_EINVAL (NULL opts, unknown version).
 * @since 0.2.0
 */
ONNXSLIM_API int onnxslim_fingerprint_options_init(onnxslim_fingerprint_options *opts,
                                                   unsigned int version);

/**
 * A digest of the model that does not depend on where tensor bytes are
 * stored: the graph (every message and field, unknown ones included, in
 * order) and each tensor's data type, dims and contents in raw layout, but
 * not raw_data vs typed fields vs external files, file names, offsets or
 * alignment. Equal for the single-file and external-data variants of a
 * model; different when any weight, node or attribute changes. The options
 * do not change the digest.
 * Writes 32 lowercase hex digits and a NUL (XXH3-128) to out[0..33);
 * `size` is the size of out, at least ONNXSLIM_FINGERPRINT_SIZE. opts NULL
 * means the defaults (ONNXSLIM_FINGERPRINT_OPTIONS_INIT); it is borrowed
 * for the call.
 * Errors: ONNXSLIM_EINVAL (NULL out or model, an unknown opts->version),
 * ONNXSLIM_EBUFSIZE (size smaller than ONNXSLIM_FINGERPRINT_SIZE: nothing
 * is written), ONNXSLIM_EMODEL (unreadable tensor data), ONNXSLIM_EIO,
 * ONNXSLIM_ECANCELED (the progress callback asked to stop: nothing is
 * written), ONNXSLIM_ENOMEM.
 * Memory: a 1 MiB buffer, whatever the model: nothing counts against the
 * model's max_memory.
 * @since 0.2.0
 */
ONNXSLIM_API int onnxslim_fingerprint_with(char *out, size_t size, const onnxslim_model *model,
                                           const onnxslim_fingerprint_options *opts);

/**
 * The shorthand of onnxslim_fingerprint_with() with opts NULL (the same
 * digest, no progress). Errors as onnxslim_fingerprint_with().
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_fingerprint(char *out, size_t size, const onnxslim_model *model);

#ifdef __cplusplus
}
#endif

#endif /* ONNXSLIM_FINGERPRINT_H */
