/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - tensors (TensorProto, SparseTensorProto) and data types.
 *
 * A tensor's bytes are a reference into the loaded model until asked for.
 * Data types are plain int32 values as stored; values newer than this
 * library (e.g. from a newer ONNX) are kept and reported as they are.
 */
#ifndef ONNXSLIM_TENSOR_H
#define ONNXSLIM_TENSOR_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/** ONNX TensorProto.DataType values. */
#define ONNXSLIM_DTYPE_UNDEFINED 0
#define ONNXSLIM_DTYPE_FLOAT 1
#define ONNXSLIM_DTYPE_UINT8 2
#define ONNXSLIM_DTYPE_INT8 3
#define ONNXSLIM_DTYPE_UINT16 4
#define ONNXSLIM_DTYPE_INT16 5
#define ONNXSLIM_DTYPE_INT32 6
#define ONNXSLIM_DTYPE_INT64 7
#define ONNXSLIM_DTYPE_STRING 8
#define ONNXSLIM_DTYPE_BOOL 9
#define ONNXSLIM_DTYPE_FLOAT16 10
#define ONNXSLIM_DTYPE_DOUBLE 11
#define ONNXSLIM_DTYPE_UINT32 12
#define ONNXSLIM_DTYPE_UINT64 13
#define ONNXSLIM_DTYPE_COMPLEX64 14
#define ONNXSLIM_DTYPE_COMPLEX128 15
#define ONNXSLIM_DTYPE_BFLOAT16 16
#define ONNXSLIM_DTYPE_FLOAT8E4M3FN 17
#define ONNXSLIM_DTYPE_FLOAT8E4M3FNUZ 18
#define ONNXSLIM_DTYPE_FLOAT8E5M2 19
#define ONNXSLIM_DTYPE_FLOAT8E5M2FNUZ 20
#define ONNXSLIM_DTYPE_UINT4 21
#define ONNXSLIM_DTYPE_INT4 22
#define ONNXSLIM_DTYPE_FLOAT4E2M1 23

/**
 * Name of a data type ("FLOAT", "BFLOAT16", ...), or "UNKNOWN" for values
 * this library does not know. Never returns NULL and never fails. The
 * string is static.
 * @since 0.1.0
 */
ONNXSLIM_API const char *onnxslim_dtype_name(int32_t dtype);
/**
 * Size of one element in bits (e.g. 32 for FLOAT, 4 for INT4), or 0 for
 * STRING, UNDEFINED and unknown values.
 * @since 0.1.0
 */
ONNXSLIM_API unsigned int onnxslim_dtype_bits(int32_t dtype);

/** Where a tensor's data is stored (onnxslim_tensor_storage()). */
#define ONNXSLIM_STORAGE_NONE 0     /**< no data at all (e.g. an empty tensor) */
#define ONNXSLIM_STORAGE_RAW 1      /**< raw_data bytes */
#define ONNXSLIM_STORAGE_TYPED 2    /**< a typed field: float_data, int32_data, ... */
#define ONNXSLIM_STORAGE_EXTERNAL 3 /**< data_location = EXTERNAL */

/** The tensor's name, "" when absent; NULL only on error. @since 0.1.0 */
ONNXSLIM_API const char *onnxslim_tensor_name(const onnxslim_tensor *tensor);
/** doc_string, "" when absent. @since 0.1.0 */
ONNXSLIM_API const char *onnxslim_tensor_doc_string(const onnxslim_tensor *tensor);
/** data_type as stored (0 when absent), including values unknown to this library. @since 0.1.0 */
ONNXSLIM_API int32_t onnxslim_tensor_dtype(const onnxslim_tensor *tensor);
/** Number of dims (0 for a scalar). @since 0.1.0 */
ONNXSLIM_API size_t onnxslim_tensor_rank(const onnxslim_tensor *tensor);
/** Dim `index`, or -1 (ONNXSLIM_ERANGE) if out of range. @since 0.1.0 */
ONNXSLIM_API int64_t onnxslim_tensor_dim(const onnxslim_tensor *tensor, size_t index);
/**
 * Number of elements: the product of the dims (1 for a scalar). Dims were
 * checked at load: none is negative and the product fits in int64_t.
 * @since 0.1.0
 */
ONNXSLIM_API int64_t onnxslim_tensor_element_count(const onnxslim_tensor *tensor);
/**
 * Size of the data in bytes as implied by dims and data type (sub-byte types
 * rounded up to whole bytes). Errors: ONNXSLIM_EINVAL, ONNXSLIM_EUNSUPPORTED
 * (STRING or unknown data type), ONNXSLIM_ELIMIT (overflow).
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_tensor_byte_size(const onnxslim_tensor *tensor, uint64_t *size);
/**
 * ONNXSLIM_STORAGE_* value describing where the data lives.
 * Errors (negative): ONNXSLIM_EINVAL (NULL, wrong-kind or removed handle).
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_tensor_storage(const onnxslim_tensor *tensor);

/**
 * The tensor's data as packed little-endian bytes in its data type's layout
 * (the raw_data layout), *data borrowed and valid until the model is freed.
 * For raw_data this is a pointer into the loaded model, and for external
 * data a pointer into the data file, mapped at load: no copy either way.
 * For typed fields the values are converted once and cached in the model.
 * Errors: ONNXSLIM_EINVAL, ONNXSLIM_EUNSUPPORTED (STRING tensors, unknown
 * types), ONNXSLIM_EMODEL (stored or external size does not match dims),
 * ONNXSLIM_ENOMEM.
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_tensor_data(const onnxslim_tensor *tensor, const void **data,
                                      size_t *size);

/**
 * Copies `size` bytes of the tensor's data (layout as onnxslim_tensor_data())
 * starting at byte `offset` into `buf`. Use it to stream a large tensor in
 * flat memory: the mapped pages the copied bytes came from are handed back
 * to the kernel (in runs of a few MiB), so reading a tensor piece by piece
 * keeps only the last few MiB of it resident. Pointers from
 * onnxslim_tensor_data() stay valid (the pages are read again when used).
 * Errors as onnxslim_tensor_data(), plus ONNXSLIM_ERANGE when offset+size
 * exceeds the data.
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_tensor_read(const onnxslim_tensor *tensor, uint64_t offset, void *buf,
                                      size_t size);

/** Number of string_data elements of a STRING tensor. @since 0.1.0 */
ONNXSLIM_API size_t onnxslim_tensor_string_count(const onnxslim_tensor *tensor);
/**
 * Element `index` of a STRING tensor (bytes, borrowed). Errors: EINVAL, ERANGE, ENOMEM.
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_tensor_string(const onnxslim_tensor *tensor, size_t index,
                                        const char **data, size_t *size);

/* ---- sparse tensors ---------------------------------------------------- */

/** The values tensor (its name is the sparse tensor's name); NULL if absent. @since 0.1.0 */
ONNXSLIM_API onnxslim_tensor *onnxslim_sparse_tensor_values(const onnxslim_sparse_tensor *sparse);
/** The indices tensor; NULL if absent. @since 0.1.0 */
ONNXSLIM_API onnxslim_tensor *onnxslim_sparse_tensor_indices(const onnxslim_sparse_tensor *sparse);
/** Number of dims of the dense shape. @since 0.1.0 */
ONNXSLIM_API size_t onnxslim_sparse_tensor_rank(const onnxslim_sparse_tensor *sparse);
/** Dense dim `index`, or -1 if out of range. @since 0.1.0 */
ONNXSLIM_API int64_t onnxslim_sparse_tensor_dim(const onnxslim_sparse_tensor *sparse, size_t index);

/* ---- edits ------------------------------------------------------------------- */

/**
 * Renames the tensor (copied). Uses of the old name elsewhere are not
 * changed (see onnxslim_graph_rename_value()).
 * Errors: ONNXSLIM_EINVAL, ONNXSLIM_ENOMEM.
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_tensor_set_name(onnxslim_tensor *tensor, const char *name);

/**
 * Replaces the tensor's data type, dims and data: raw little-endian bytes
 * data[0..size), stored as raw_data; typed fields and external-data keys are
 * dropped. flags: ONNXSLIM_COPY or ONNXSLIM_BORROW (onnxslim/common.h).
 * Pointers from an earlier onnxslim_tensor_data() stay valid but describe
 * the old data. Errors: ONNXSLIM_EINVAL (bad dims, size mismatch, flags),
 * ONNXSLIM_EUNSUPPORTED (STRING or unknown dtype), ONNXSLIM_ENOMEM.
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_tensor_set_data(onnxslim_tensor *tensor, int32_t dtype,
                                          const int64_t *dims, size_t rank, const void *data,
                                          size_t size, unsigned int flags);

#ifdef __cplusplus
}
#endif

#endif /* ONNXSLIM_TENSOR_H */
