/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - value infos (ValueInfoProto) and types (TypeProto).
 *
 * All handles and strings are borrowed from the model.
 */
#ifndef ONNXSLIM_TYPE_H
#define ONNXSLIM_TYPE_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The value's name, "" when absent; NULL only on error. @since 0.1.0 */
ONNXSLIM_API const char *onnxslim_value_info_name(const onnxslim_value_info *vi);
/** doc_string, "" when absent. @since 0.1.0 */
ONNXSLIM_API const char *onnxslim_value_info_doc_string(const onnxslim_value_info *vi);
/** The value's type, or NULL (ONNXSLIM_ENOTFOUND) if it has none. @since 0.1.0 */
ONNXSLIM_API onnxslim_type *onnxslim_value_info_type(const onnxslim_value_info *vi);

/** Kinds of type (onnxslim_type_kind()). */
#define ONNXSLIM_TYPE_UNKNOWN 0 /**< no or an unknown value field */
#define ONNXSLIM_TYPE_TENSOR 1
#define ONNXSLIM_TYPE_SEQUENCE 2
#define ONNXSLIM_TYPE_MAP 3
#define ONNXSLIM_TYPE_OPTIONAL 4
#define ONNXSLIM_TYPE_SPARSE_TENSOR 5

/**
 * ONNXSLIM_TYPE_* kind of the type.
 * Errors: ONNXSLIM_TYPE_UNKNOWN with an ONNXSLIM_EINVAL last error for a
 * NULL or wrong-kind handle.
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_type_kind(const onnxslim_type *type);
/** denotation, "" when absent. @since 0.1.0 */
ONNXSLIM_API const char *onnxslim_type_denotation(const onnxslim_type *type);
/**
 * Element type (ONNXSLIM_DTYPE_*) of a tensor or sparse-tensor type, or the
 * key type of a map; 0 when absent or for other kinds (and on error,
 * ONNXSLIM_EINVAL, as every getter: onnxslim/common.h).
 * @since 0.2.0
 */
ONNXSLIM_API int32_t onnxslim_type_dtype(const onnxslim_type *type);
/** Deprecated (0.2.0): onnxslim_type_dtype(), which it is. @since 0.1.0 */
ONNXSLIM_API ONNXSLIM_DEPRECATED("use onnxslim_type_dtype") int32_t
    onnxslim_type_elem_type(const onnxslim_type *type);
/**
 * The inner type: element type of a sequence or optional, value type of a
 * map; NULL (ONNXSLIM_ENOTFOUND) for other kinds or when absent.
 * @since 0.1.0
 */
ONNXSLIM_API onnxslim_type *onnxslim_type_inner(const onnxslim_type *type);

/**
 * 1 if a tensor or sparse-tensor type has a shape (possibly rank 0), else 0.
 * Errors: 0 with an ONNXSLIM_EINVAL last error for a NULL or wrong-kind
 * handle.
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_type_has_shape(const onnxslim_type *type);
/** Rank of the shape; 0 when there is no shape. @since 0.1.0 */
ONNXSLIM_API size_t onnxslim_type_rank(const onnxslim_type *type);

/** Kinds of dimension (onnxslim_type_dim()). */
#define ONNXSLIM_DIM_UNKNOWN 0 /**< neither a value nor a symbol */
#define ONNXSLIM_DIM_VALUE 1   /**< a fixed size */
#define ONNXSLIM_DIM_PARAM 2   /**< a symbolic size such as "batch" */

/**
 * Dimension `index` of the shape. Returns its kind (ONNXSLIM_DIM_*, >= 0) and
 * sets *value (for ONNXSLIM_DIM_VALUE, else 0) and *param (for
 * ONNXSLIM_DIM_PARAM, else ""); either out pointer may be NULL.
 * Errors (negative): ONNXSLIM_EINVAL, ONNXSLIM_ERANGE.
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_type_dim(const onnxslim_type *type, size_t index, int64_t *value,
                                   const char **param);

/* ---- edits ------------------------------------------------------------------- */

/** Renames the value info entry only (copied). Errors: EINVAL, ENOMEM. @since 0.1.0 */
ONNXSLIM_API int onnxslim_value_info_set_name(onnxslim_value_info *vi, const char *name);
/**
 * Sets the type to a copy of `type` (from any model), or removes it when
 * type is NULL. Errors: ONNXSLIM_EINVAL, ONNXSLIM_ENOMEM.
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_value_info_set_type(onnxslim_value_info *vi, const onnxslim_type *type);
/**
 * Sets a tensor type: element type (dtype) and, unless rank is SIZE_MAX (no shape),
 * a shape of `rank` dims where dim i is params[i] when params and params[i]
 * are non-NULL (symbolic), else dims[i] when dims and dims[i] >= 0, else
 * unknown. Errors: ONNXSLIM_EINVAL, ONNXSLIM_ENOMEM.
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_value_info_set_tensor_type(onnxslim_value_info *vi, int32_t dtype,
                                                     const int64_t *dims, const char *const *params,
                                                     size_t rank);
/**
 * Changes the element type (dtype) of a tensor (or sparse tensor) type,
 * keeping its shape; a value without a type gets a shapeless tensor type.
 * Errors: ONNXSLIM_EINVAL, ONNXSLIM_ETYPE (a sequence, map or optional type),
 * ONNXSLIM_ENOMEM.
 * @since 0.2.0
 */
ONNXSLIM_API int onnxslim_value_info_set_dtype(onnxslim_value_info *vi, int32_t dtype);
/** Deprecated (0.2.0): onnxslim_value_info_set_dtype(), which it is. Errors
 * as onnxslim_value_info_set_dtype(). @since 0.1.0 */
ONNXSLIM_API
ONNXSLIM_DEPRECATED("use onnxslim_value_info_set_dtype")
int onnxslim_value_info_set_elem_type(onnxslim_value_info *vi, int32_t elem_type);

#ifdef __cplusplus
}
#endif

#endif /* ONNXSLIM_TYPE_H */
