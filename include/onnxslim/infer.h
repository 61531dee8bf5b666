/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - type and shape inference over the model's handles.
 *
 * Element types come from the operator schemas' type constraints (an
 * output whose type parameter is bound by an input gets that input's
 * type), for every operator the tables know. Shapes, with symbolic
 * dimensions (dim_param) carried, come from per-operator rules (listed in
 * docs/infer.md); small integer shape tensors (Shape, Size, Constant,
 * ConstantOfShape, initializers of at most 64 int64/int32 elements) are
 * followed through Gather, Slice, Concat, Squeeze, Unsqueeze, Cast and
 * integer Add/Sub/Mul/Div ("data propagation")
 * so that a Reshape fed by a Shape chain gets its shape. Weights are never
 * read. A shape that cannot be inferred stays unknown; a dimension is
 * written only when it is certain.
 */
#ifndef ONNXSLIM_INFER_H
#define ONNXSLIM_INFER_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Only infer: change nothing in the model (read the report). */
#define ONNXSLIM_INFER_DRY_RUN 1u
/** A conflict with an existing type is an error (ONNXSLIM_EMODEL) instead
 * of a report entry. */
#define ONNXSLIM_INFER_STRICT 2u
/** Do not follow the values of shape tensors (no data propagation). */
#define ONNXSLIM_INFER_NO_DATA_PROP 4u

/** Current version of onnxslim_infer_options. @since 0.3.0 */
#define ONNXSLIM_INFER_OPTIONS_VERSION 1

/**
 * How onnxslim_infer_shapes() works. Fields are only appended; the library
 * reads only the fields of the caller's `version`.
 * @since 0.3.0
 */
typedef struct onnxslim_infer_options {
  unsigned int version; /**< ONNXSLIM_INFER_OPTIONS_VERSION */
  /** ONNXSLIM_INFER_* bits; 0 = write value_info, lenient, data propagation
   * on. Other bits are reserved and must be 0. */
  unsigned int flags;
} onnxslim_infer_options;

#define ONNXSLIM_INFER_OPTIONS_INIT \
  { ONNXSLIM_INFER_OPTIONS_VERSION, 0 }

/**
 * Sets *opts to the defaults of the given version (1 to
 * ONNXSLIM_INFER_OPTIONS_VERSION): flags 0.
 * Errors: ONNXSLIM_EINVAL (NULL opts, unknown version).
 * @since 0.3.0
 */
ONNXSLIM_API int onnxslim_infer_options_init(onnxslim_infer_options *opts, unsigned int version);

/** What onnxslim_infer_shapes() found, value by value. @since 0.3.0 */
typedef struct onnxslim_infer_report onnxslim_infer_report;

/** What inference did with one value (onnxslim_infer_report_status()). */
#define ONNXSLIM_INFER_NEW 1      /**< the value had no type; inference gave one */
#define ONNXSLIM_INFER_REFINED 2  /**< the existing type was completed (dims, rank) */
#define ONNXSLIM_INFER_SAME 3     /**< inference agrees with the existing type */
#define ONNXSLIM_INFER_CONFLICT 4 /**< inference disagrees; the existing type is kept */

/**
 * Infers the element type and shape of every value produced by a node of
 * the main graph (nodes in order; the bodies of If, Loop and Scan are
 * walked so that those nodes' outputs get types, but values inside bodies
 * are neither reported nor written; the outputs of model-local functions
 * are left unknown in this version).
 * Unless ONNXSLIM_INFER_DRY_RUN, each value whose inferred type adds
 * something is written: a graph output's type is completed in place, other
 * values get a value_info entry (added, or completed in place). An
 * existing type that disagrees (another dtype, rank or fixed dimension) is
 * never overwritten: lenient (default) keeps it, uses it for what follows
 * and reports ONNXSLIM_INFER_CONFLICT; ONNXSLIM_INFER_STRICT fails with
 * ONNXSLIM_EMODEL naming the value and the model is unchanged.
 * *out (out may be NULL: no report) receives a new report, owned by the
 * caller and freed with onnxslim_infer_report_free(); on failure *out is
 * set to NULL. One entry per value with a known type (NEW, REFINED, SAME or
 * CONFLICT), in node order; the report does not refer to the model.
 * The model's opset_import selects the schemas; a node of an unknown
 * domain or op gets nothing. Memory: a few hundred bytes a value, freed
 * before return. Node, graph and tensor handles stay valid; value_info
 * handles of the graph may be invalidated by the additions.
 * Errors: ONNXSLIM_EINVAL (NULL model, unknown opts->version, reserved
 * flags), ONNXSLIM_EMODEL (strict conflict), ONNXSLIM_ENOMEM (then nothing
 * is written).
 * opts NULL means the defaults (ONNXSLIM_INFER_OPTIONS_INIT); it is
 * borrowed for the call. A successful call leaves the thread's last error
 * (onnxslim_error_last()) as it was before the call.
 * @since 0.3.0
 */
ONNXSLIM_API int onnxslim_infer_shapes(onnxslim_infer_report **out, onnxslim_model *model,
                                       const onnxslim_infer_options *opts);

/** Frees a report; NULL is a no-op. @since 0.3.0 */
ONNXSLIM_API void onnxslim_infer_report_free(onnxslim_infer_report *report);
/** Number of entries; 0 for NULL. @since 0.3.0 */
ONNXSLIM_API size_t onnxslim_infer_report_count(const onnxslim_infer_report *report);
/** Number of CONFLICT entries; 0 for NULL. @since 0.3.0 */
ONNXSLIM_API size_t onnxslim_infer_report_conflicts(const onnxslim_infer_report *report);
/** Value name of entry i (borrowed from the report), "" for a bad index or
 * NULL report. @since 0.3.0 */
ONNXSLIM_API const char *onnxslim_infer_report_name(const onnxslim_infer_report *report, size_t i);
/** ONNXSLIM_INFER_* status of entry i, 0 for a bad index or NULL report.
 * Never fails. @since 0.3.0 */
ONNXSLIM_API int onnxslim_infer_report_status(const onnxslim_infer_report *report, size_t i);
/** Inferred element type (ONNXSLIM_DTYPE_*) of entry i, 0 when unknown or a
 * bad index. For a CONFLICT entry: what inference found. @since 0.3.0 */
ONNXSLIM_API int32_t onnxslim_infer_report_dtype(const onnxslim_infer_report *report, size_t i);
/** Inferred rank of entry i, or -1 when the shape is unknown (or a bad
 * index). @since 0.3.0 */
ONNXSLIM_API int64_t onnxslim_infer_report_rank(const onnxslim_infer_report *report, size_t i);
/**
 * Dimension k of entry i: returns its ONNXSLIM_DIM_* kind and sets *value
 * (ONNXSLIM_DIM_VALUE, else 0) and *param (ONNXSLIM_DIM_PARAM, borrowed
 * from the report, else ""); either out pointer may be NULL.
 * ONNXSLIM_DIM_UNKNOWN for a bad index or NULL report. Never fails.
 * @since 0.3.0
 */
ONNXSLIM_API int onnxslim_infer_report_dim(const onnxslim_infer_report *report, size_t i, size_t k,
                                           int64_t *value, const char **param);

#ifdef __cplusplus
}
#endif

#endif /* ONNXSLIM_INFER_H */
