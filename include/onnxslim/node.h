/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - nodes and their attributes.
 *
 * All handles and strings are borrowed from the model.
 */
#ifndef ONNXSLIM_NODE_H
#define ONNXSLIM_NODE_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The node's name, "" when absent; NULL only on error. @since 0.1.0 */
ONNXSLIM_API const char *onnxslim_node_name(const onnxslim_node *node);
/** op_type, "" when absent. @since 0.1.0 */
ONNXSLIM_API const char *onnxslim_node_op_type(const onnxslim_node *node);
/** domain, "" (the default ONNX domain) when absent. @since 0.1.0 */
ONNXSLIM_API const char *onnxslim_node_domain(const onnxslim_node *node);
/** doc_string, "" when absent. @since 0.1.0 */
ONNXSLIM_API const char *onnxslim_node_doc_string(const onnxslim_node *node);
/** The graph holding the node, NULL for a node of a function body. @since 0.1.0 */
ONNXSLIM_API onnxslim_graph *onnxslim_node_graph(const onnxslim_node *node);

/** Number of inputs, counting empty (omitted optional) ones. @since 0.1.0 */
ONNXSLIM_API size_t onnxslim_node_input_count(const onnxslim_node *node);
/** Input `index`; "" for an omitted optional input; NULL if out of range. @since 0.1.0 */
ONNXSLIM_API const char *onnxslim_node_input(const onnxslim_node *node, size_t index);
/** Number of outputs, counting empty ones. @since 0.1.0 */
ONNXSLIM_API size_t onnxslim_node_output_count(const onnxslim_node *node);
/** Output `index`; "" for an omitted optional output; NULL if out of range. @since 0.1.0 */
ONNXSLIM_API const char *onnxslim_node_output(const onnxslim_node *node, size_t index);

/** Number of attributes. @since 0.1.0 */
ONNXSLIM_API size_t onnxslim_node_attr_count(const onnxslim_node *node);
/** Attribute `index`; NULL if out of range. @since 0.1.0 */
ONNXSLIM_API onnxslim_attr *onnxslim_node_attr(const onnxslim_node *node, size_t index);
/** The attribute named `name`; NULL (ONNXSLIM_ENOTFOUND) if none. @since 0.1.0 */
ONNXSLIM_API onnxslim_attr *onnxslim_node_find_attr(const onnxslim_node *node, const char *name);

/**
 * Number of subgraphs the node holds: the graphs of all its GRAPH and
 * GRAPHS attributes (e.g. 2 for an If, 1 for a Loop or Scan).
 * @since 0.1.0
 */
ONNXSLIM_API size_t onnxslim_node_subgraph_count(const onnxslim_node *node);
/**
 * Subgraph `index` of the node, in attribute order (a GRAPHS attribute
 * contributes its graphs in list order); NULL (ONNXSLIM_ERANGE) if out of
 * range. Borrowed.
 * @since 0.1.0
 */
ONNXSLIM_API onnxslim_graph *onnxslim_node_subgraph(const onnxslim_node *node, size_t index);

/**
 * Renames the node (copies `name`). Only this NodeProto is re-encoded on
 * save; fields unknown to the library survive. Strings returned before stay
 * valid. Errors: ONNXSLIM_EINVAL, ONNXSLIM_ENOMEM.
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_node_set_name(onnxslim_node *node, const char *name);

/* ---- attributes -------------------------------------------------------- */

/** Attribute types; values equal ONNX's AttributeProto.AttributeType. */
#define ONNXSLIM_ATTR_UNDEFINED 0
#define ONNXSLIM_ATTR_FLOAT 1
#define ONNXSLIM_ATTR_INT 2
#define ONNXSLIM_ATTR_STRING 3
#define ONNXSLIM_ATTR_TENSOR 4
#define ONNXSLIM_ATTR_GRAPH 5
#define ONNXSLIM_ATTR_FLOATS 6
#define ONNXSLIM_ATTR_INTS 7
#define ONNXSLIM_ATTR_STRINGS 8
#define ONNXSLIM_ATTR_TENSORS 9
#define ONNXSLIM_ATTR_GRAPHS 10
#define ONNXSLIM_ATTR_SPARSE_TENSOR 11
#define ONNXSLIM_ATTR_SPARSE_TENSORS 12
#define ONNXSLIM_ATTR_TYPE_PROTO 13
#define ONNXSLIM_ATTR_TYPE_PROTOS 14

/** The attribute's name, "" when absent. @since 0.1.0 */
ONNXSLIM_API const char *onnxslim_attr_name(const onnxslim_attr *attr);
/** doc_string, "" when absent. @since 0.1.0 */
ONNXSLIM_API const char *onnxslim_attr_doc_string(const onnxslim_attr *attr);
/** ref_attr_name (attribute reference inside a function body), "" when absent. @since 0.1.0 */
ONNXSLIM_API const char *onnxslim_attr_ref_attr_name(const onnxslim_attr *attr);
/**
 * The attribute type (ONNXSLIM_ATTR_*). When the stored `type` field is
 * absent (very old models) it is inferred from the field that holds a value.
 * Values this library does not know are returned as stored.
 * Errors: ONNXSLIM_ATTR_UNDEFINED with an ONNXSLIM_EINVAL last error for a
 * NULL, wrong-kind or removed handle.
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_attr_type(const onnxslim_attr *attr);

/** Value of a FLOAT attribute. Errors: ONNXSLIM_EINVAL, ONNXSLIM_ETYPE. @since 0.1.0 */
ONNXSLIM_API int onnxslim_attr_float(const onnxslim_attr *attr, float *out);
/** Value of an INT attribute. Errors: ONNXSLIM_EINVAL, ONNXSLIM_ETYPE. @since 0.1.0 */
ONNXSLIM_API int onnxslim_attr_int(const onnxslim_attr *attr, int64_t *out);
/**
 * Value of a STRING attribute: *data points to *size bytes (borrowed, also
 * NUL-terminated for convenience; the bytes may contain NULs).
 * Errors: ONNXSLIM_EINVAL, ONNXSLIM_ETYPE, ONNXSLIM_ENOMEM.
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_attr_string(const onnxslim_attr *attr, const char **data, size_t *size);
/** Value of a TENSOR attribute; NULL (ONNXSLIM_ETYPE) otherwise. @since 0.1.0 */
ONNXSLIM_API onnxslim_tensor *onnxslim_attr_tensor(const onnxslim_attr *attr);
/** Value of a GRAPH attribute (a subgraph); NULL (ONNXSLIM_ETYPE) otherwise. @since 0.1.0 */
ONNXSLIM_API onnxslim_graph *onnxslim_attr_graph(const onnxslim_attr *attr);
/** Value of a SPARSE_TENSOR attribute; NULL otherwise. @since 0.1.0 */
ONNXSLIM_API onnxslim_sparse_tensor *onnxslim_attr_sparse_tensor(const onnxslim_attr *attr);
/** Value of a TYPE_PROTO attribute; NULL otherwise. @since 0.1.0 */
ONNXSLIM_API onnxslim_type *onnxslim_attr_type_proto(const onnxslim_attr *attr);

/**
 * Number of elements of a list attribute (FLOATS, INTS, STRINGS, TENSORS,
 * GRAPHS, SPARSE_TENSORS, TYPE_PROTOS); 0 for other types.
 * @since 0.1.0
 */
ONNXSLIM_API size_t onnxslim_attr_list_count(const onnxslim_attr *attr);
/**
 * Values of a FLOATS attribute: *values (borrowed, may be NULL when *count is
 * 0) and *count. Errors: ONNXSLIM_EINVAL, ONNXSLIM_ETYPE, ONNXSLIM_ENOMEM.
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_attr_floats(const onnxslim_attr *attr, const float **values,
                                      size_t *count);
/** Values of an INTS attribute; as onnxslim_attr_floats(). @since 0.1.0 */
ONNXSLIM_API int onnxslim_attr_ints(const onnxslim_attr *attr, const int64_t **values,
                                    size_t *count);
/**
 * Element `index` of a STRINGS attribute; as onnxslim_attr_string(), plus
 * ONNXSLIM_ERANGE. (The getter of an ONNXSLIM_ATTR_X value is
 * onnxslim_attr_x(): see "lists" in onnxslim/common.h.)
 * @since 0.2.0
 */
ONNXSLIM_API int onnxslim_attr_strings(const onnxslim_attr *attr, size_t index, const char **data,
                                       size_t *size);
/** Element `index` of a TENSORS attribute; NULL on error (ONNXSLIM_EINVAL,
 * ONNXSLIM_ETYPE, ONNXSLIM_ERANGE). @since 0.2.0 */
ONNXSLIM_API onnxslim_tensor *onnxslim_attr_tensors(const onnxslim_attr *attr, size_t index);
/** Element `index` of a GRAPHS attribute; NULL on error, as
 * onnxslim_attr_tensors(). @since 0.2.0 */
ONNXSLIM_API onnxslim_graph *onnxslim_attr_graphs(const onnxslim_attr *attr, size_t index);
/** Element `index` of a SPARSE_TENSORS attribute; NULL on error, as
 * onnxslim_attr_tensors(). @since 0.2.0 */
ONNXSLIM_API onnxslim_sparse_tensor *onnxslim_attr_sparse_tensors(const onnxslim_attr *attr,
                                                                  size_t index);
/** Element `index` of a TYPE_PROTOS attribute; NULL on error, as
 * onnxslim_attr_tensors(). @since 0.2.0 */
ONNXSLIM_API onnxslim_type *onnxslim_attr_type_protos(const onnxslim_attr *attr, size_t index);

/** Deprecated (0.2.0): onnxslim_attr_strings(), which it is. Errors as
 * onnxslim_attr_strings(). @since 0.1.0 */
ONNXSLIM_API ONNXSLIM_DEPRECATED("use onnxslim_attr_strings") int onnxslim_attr_list_string(
    const onnxslim_attr *attr, size_t index, const char **data, size_t *size);
/** Deprecated (0.2.0): onnxslim_attr_tensors(), which it is. @since 0.1.0 */
ONNXSLIM_API ONNXSLIM_DEPRECATED("use onnxslim_attr_tensors")
    onnxslim_tensor *onnxslim_attr_list_tensor(const onnxslim_attr *attr, size_t index);
/** Deprecated (0.2.0): onnxslim_attr_graphs(), which it is. @since 0.1.0 */
ONNXSLIM_API ONNXSLIM_DEPRECATED("use onnxslim_attr_graphs")
    onnxslim_graph *onnxslim_attr_list_graph(const onnxslim_attr *attr, size_t index);
/** Deprecated (0.2.0): onnxslim_attr_sparse_tensors(), which it is. @since 0.1.0 */
ONNXSLIM_API ONNXSLIM_DEPRECATED("use onnxslim_attr_sparse_tensors")
    onnxslim_sparse_tensor *onnxslim_attr_list_sparse_tensor(const onnxslim_attr *attr,
                                                             size_t index);
/** Deprecated (0.2.0): onnxslim_attr_type_protos(), which it is. @since 0.1.0 */
ONNXSLIM_API ONNXSLIM_DEPRECATED("use onnxslim_attr_type_protos")
    onnxslim_type *onnxslim_attr_list_type_proto(const onnxslim_attr *attr, size_t index);

/* ---- edits ------------------------------------------------------------------ *
 * Same rules as the graph edits (onnxslim/graph.h): only this NodeProto is
 * re-encoded on save, strings returned before stay valid, a replaced or
 * removed attribute's handle becomes invalid.                                 */

/** Sets op_type (copied). Errors: ONNXSLIM_EINVAL, ONNXSLIM_ENOMEM. @since 0.1.0 */
ONNXSLIM_API int onnxslim_node_set_op_type(onnxslim_node *node, const char *op_type);
/**
 * Sets domain (copied; "" = default ONNX domain).
 * Errors: ONNXSLIM_EINVAL, ONNXSLIM_ENOMEM.
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_node_set_domain(onnxslim_node *node, const char *domain);
/**
 * Sets input `index` to `name` ("" = omitted optional input); index equal to
 * the input count appends. Errors: ONNXSLIM_EINVAL, ONNXSLIM_ERANGE, ONNXSLIM_ENOMEM.
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_node_set_input(onnxslim_node *node, size_t index, const char *name);
/** Sets output `index`; as onnxslim_node_set_input(). @since 0.1.0 */
ONNXSLIM_API int onnxslim_node_set_output(onnxslim_node *node, size_t index, const char *name);
/**
 * Replaces all inputs by names[0..count) (copied; NULL entries mean "").
 * Errors: ONNXSLIM_EINVAL, ONNXSLIM_ENOMEM (then the node is unchanged).
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_node_set_inputs(onnxslim_node *node, const char *const *names,
                                          size_t count);
/** Replaces all outputs; as onnxslim_node_set_inputs(). @since 0.1.0 */
ONNXSLIM_API int onnxslim_node_set_outputs(onnxslim_node *node, const char *const *names,
                                           size_t count);

/*
 * Attribute setters: each replaces the attribute of the same name (keeping
 * its position) or appends a new one; values are copied. Lists are written
 * unpacked, as ONNX's own tools write them.
 * Errors: ONNXSLIM_EINVAL (NULL node/name, NULL values with count > 0, a
 * handle of the wrong kind), ONNXSLIM_ENOMEM.
 */
/**
 * Sets a FLOAT attribute.
 * Errors: ONNXSLIM_EINVAL, ONNXSLIM_ENOMEM.
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_node_set_attr_float(onnxslim_node *node, const char *name, float value);
/**
 * Sets an INT attribute.
 * Errors: ONNXSLIM_EINVAL, ONNXSLIM_ENOMEM.
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_node_set_attr_int(onnxslim_node *node, const char *name, int64_t value);
/**
 * Sets a STRING attribute to size bytes at data.
 * Errors: ONNXSLIM_EINVAL, ONNXSLIM_ENOMEM.
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_node_set_attr_string(onnxslim_node *node, const char *name,
                                               const void *data, size_t size);
/**
 * Sets a FLOATS attribute.
 * Errors: ONNXSLIM_EINVAL, ONNXSLIM_ENOMEM.
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_node_set_attr_floats(onnxslim_node *node, const char *name,
                                               const float *values, size_t count);
/**
 * Sets an INTS attribute.
 * Errors: ONNXSLIM_EINVAL, ONNXSLIM_ENOMEM.
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_node_set_attr_ints(onnxslim_node *node, const char *name,
                                             const int64_t *values, size_t count);
/**
 * Sets a STRINGS attribute; sizes may be NULL for NUL-terminated values.
 * Errors: ONNXSLIM_EINVAL, ONNXSLIM_ENOMEM.
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_node_set_attr_strings(onnxslim_node *node, const char *name,
                                                const char *const *values, const size_t *sizes,
                                                size_t count);
/**
 * Sets a TENSOR attribute to a copy of `tensor` (from any model).
 * Errors: ONNXSLIM_EINVAL, ONNXSLIM_ENOMEM.
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_node_set_attr_tensor(onnxslim_node *node, const char *name,
                                               const onnxslim_tensor *tensor);
/**
 * Sets a TENSORS attribute to copies of tensors[0..count).
 * Errors: ONNXSLIM_EINVAL, ONNXSLIM_ENOMEM.
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_node_set_attr_tensors(onnxslim_node *node, const char *name,
                                                const onnxslim_tensor *const *tensors,
                                                size_t count);
/**
 * Sets a GRAPH attribute to a copy of `graph` (from any model), or to a new
 * empty graph when graph is NULL. *out (may be NULL) receives the
 * attribute's graph, to be filled with the graph edit functions.
 * Errors: ONNXSLIM_EINVAL, ONNXSLIM_ELIMIT (the graph would be nested deeper
 * than the model's max_depth; nothing changes), ONNXSLIM_ENOMEM.
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_node_set_attr_graph(onnxslim_node *node, const char *name,
                                              const onnxslim_graph *graph, onnxslim_graph **out);
/** Sets a GRAPHS attribute to copies of graphs[0..count). Errors as for
 * onnxslim_node_set_attr_graph(). @since 0.1.0 */
ONNXSLIM_API int onnxslim_node_set_attr_graphs(onnxslim_node *node, const char *name,
                                               const onnxslim_graph *const *graphs, size_t count);
/** Removes the attribute `name`. Errors: ONNXSLIM_EINVAL, ONNXSLIM_ENOTFOUND. @since 0.1.0 */
ONNXSLIM_API int onnxslim_node_remove_attr(onnxslim_node *node, const char *name);

#ifdef __cplusplus
}
#endif

#endif /* ONNXSLIM_NODE_H */
