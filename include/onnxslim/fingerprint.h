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

/**
 * A digest of the model that does not depend on where tensor bytes are
 * stored: the graph (every message and field, unknown ones included, in
 * order) and each tensor's data type, dims and contents in raw layout, but
 * not raw_data vs typed fields vs external files, file names, offsets or
 * alignment. Equal for the single-file and external-data variants of a
 * model; different when any weight, node or attribute changes.
 * Writes 32 lowercase hex digits and a NUL (XXH3-128) to out[0..33);
 * `size` is the size of out, at least ONNXSLIM_FINGERPRINT_SIZE.
 * Errors: ONNXSLIM_EINVAL (NULL out or model), ONNXSLIM_EBUFSIZE (size
 * smaller than ONNXSLIM_FINGERPRINT_SIZE: nothing is written),
 * ONNXSLIM_EMODEL (unreadable tensor data), ONNXSLIM_ENOMEM.
 * Memory: a 1 MiB buffer, whatever the model: nothing counts against the
 * model's max_memory.
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_fingerprint(char *out, size_t size, const onnxslim_model *model);

#ifdef __cplusplus
}
#endif

#endif /* ONNXSLIM_FINGERPRINT_H */
