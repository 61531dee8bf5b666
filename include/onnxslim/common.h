/*
 * libonnxslim - common definitions shared by every module header.
 *
 * Ownership, one rule for the whole library:
 *   - A LEADING `**out` parameter gives a new object OWNED by the caller, to
 *     be freed with the matching _free function: onnxslim_model_open() and
 *     onnxslim_model_from_buffer() (onnxslim_model_free()), onnxslim_check()
 *     (onnxslim_check_report_free()), onnxslim_convert_model() and
 *     onnxslim_convert_gather_tables() (onnxslim_convert_report_free()),
 *     onnxslim_save() (onnxslim_save_report_free()).
 *     On failure *out is set to NULL and there is nothing to free.
 *   - A TRAILING `**out` parameter, and every other pointer the library
 *     returns (graphs, nodes, attributes, tensors, value infos, types,
 *     strings, data pointers, the new items that edits give through `out`),
 *     is BORROWED: from the model that holds it, valid until that model is
 *     freed, or from the report that holds it, valid until that report is
 *     freed. Never free it.
 *   - Pointers passed in are borrowed for the call only, unless the
 *     function says otherwise (ONNXSLIM_BORROW below).
 *   - *_free(NULL) is a no-op.
 *
 * Errors: functions returning int return 0 (ONNXSLIM_OK) or a negative
 * ONNXSLIM_E* code and set the thread-local last-error message
 * (see onnxslim/error.h). Functions returning a pointer return NULL on error
 * and set the same message.
 */
#ifndef ONNXSLIM_COMMON_H
#define ONNXSLIM_COMMON_H

#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32)
#  define ONNXSLIM_API
#elif defined(__GNUC__) && __GNUC__ >= 4
#  define ONNXSLIM_API __attribute__((visibility("default")))
#else
#  define ONNXSLIM_API
#endif

/* Copy or borrow, for the functions that take caller bytes
 * (onnxslim_model_from_buffer(), onnxslim_graph_add_initializer(),
 * onnxslim_tensor_set_data()); the other flag bits are reserved. */
/** Copy the bytes before the call returns (the default): the caller may free
 * or reuse its buffer at once. */
#define ONNXSLIM_COPY 0u
/** Borrow the bytes: the caller keeps them allocated and unchanged until the
 * model is freed. */
#define ONNXSLIM_BORROW 1u

#ifdef __cplusplus
extern "C" {
#endif

/** A loaded model. Owned by the caller; release with onnxslim_model_free(). */
typedef struct onnxslim_model onnxslim_model;
/** A graph: the main graph of a model or a subgraph held by an attribute. Borrowed. */
typedef struct onnxslim_graph onnxslim_graph;
/** A node of a graph or function. Borrowed. */
typedef struct onnxslim_node onnxslim_node;
/** An attribute of a node. Borrowed. */
typedef struct onnxslim_attr onnxslim_attr;
/** A dense tensor: initializer, Constant value, attribute tensor. Borrowed. */
typedef struct onnxslim_tensor onnxslim_tensor;
/** A sparse tensor: sparse initializer or attribute. Borrowed. */
typedef struct onnxslim_sparse_tensor onnxslim_sparse_tensor;
/** A named value with an optional type: graph input, output or value_info. Borrowed. */
typedef struct onnxslim_value_info onnxslim_value_info;
/** A type (TypeProto): tensor, sequence, map, optional or sparse tensor. Borrowed. */
typedef struct onnxslim_type onnxslim_type;
/** A model-local function (FunctionProto). Borrowed. */
typedef struct onnxslim_function onnxslim_function;

#ifdef __cplusplus
}
#endif

#endif /* ONNXSLIM_COMMON_H */
