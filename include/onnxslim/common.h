/*
 * libonnxslim - common definitions shared by every module header.
 *
 * Ownership rules (they apply to every function of the library):
 *   - You own the model that onnxslim_model_open() / onnxslim_model_from_buffer()
 *     give through their `out` parameter (onnxslim_model_free()), and the
 *     reports of onnxslim_model_check(), onnxslim_model_convert*() and
 *     onnxslim_save() (onnxslim_report_free(),
 *     onnxslim_convert_report_free(), onnxslim_save_report_free()).
 *   - Everything else (graphs, nodes, attributes, tensors, value infos,
 *     types, strings, data pointers, the new items that edits give through
 *     `out`) is BORROWED from the model that holds it and stays valid until
 *     that model is freed; strings from a report are borrowed from the
 *     report. A function that says otherwise says so in its comment.
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
