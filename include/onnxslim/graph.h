/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - graphs: the main graph and subgraphs (If/Loop/Scan bodies).
 *
 * Subgraphs are graphs with the same API, reached through
 * onnxslim_attr_graph(). All handles and strings are borrowed from the model.
 */
#ifndef ONNXSLIM_GRAPH_H
#define ONNXSLIM_GRAPH_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The graph's name, "" when absent; NULL only on error. @since 0.1.0 */
ONNXSLIM_API const char *onnxslim_graph_name(const onnxslim_graph *graph);
/** The graph's doc_string, "" when absent. @since 0.1.0 */
ONNXSLIM_API const char *onnxslim_graph_doc_string(const onnxslim_graph *graph);
/** The model the graph belongs to. @since 0.1.0 */
ONNXSLIM_API onnxslim_model *onnxslim_graph_model(const onnxslim_graph *graph);
/** The node whose attribute holds this graph; NULL for the main graph (with
 * ONNXSLIM_ENOTFOUND as the last error since 0.2.0). @since 0.1.0 */
ONNXSLIM_API onnxslim_node *onnxslim_graph_parent_node(const onnxslim_graph *graph);

/** Number of nodes. @since 0.1.0 */
ONNXSLIM_API size_t onnxslim_graph_node_count(const onnxslim_graph *graph);
/** Node `index` in stored order; NULL (ONNXSLIM_ERANGE) if out of range. @since 0.1.0 */
ONNXSLIM_API onnxslim_node *onnxslim_graph_node(const onnxslim_graph *graph, size_t index);

/** Number of graph inputs. @since 0.1.0 */
ONNXSLIM_API size_t onnxslim_graph_input_count(const onnxslim_graph *graph);
/** Graph input `index`; NULL if out of range. @since 0.1.0 */
ONNXSLIM_API onnxslim_value_info *onnxslim_graph_input(const onnxslim_graph *graph, size_t index);
/** Number of graph outputs. @since 0.1.0 */
ONNXSLIM_API size_t onnxslim_graph_output_count(const onnxslim_graph *graph);
/** Graph output `index`; NULL if out of range. @since 0.1.0 */
ONNXSLIM_API onnxslim_value_info *onnxslim_graph_output(const onnxslim_graph *graph, size_t index);
/** Number of value_info entries. @since 0.1.0 */
ONNXSLIM_API size_t onnxslim_graph_value_info_count(const onnxslim_graph *graph);
/** value_info entry `index`; NULL if out of range. @since 0.1.0 */
ONNXSLIM_API onnxslim_value_info *onnxslim_graph_value_info(const onnxslim_graph *graph,
                                                            size_t index);

/** Number of (dense) initializers. @since 0.1.0 */
ONNXSLIM_API size_t onnxslim_graph_initializer_count(const onnxslim_graph *graph);
/** Initializer `index`; NULL if out of range. @since 0.1.0 */
ONNXSLIM_API onnxslim_tensor *onnxslim_graph_initializer(const onnxslim_graph *graph, size_t index);
/** Number of sparse initializers. @since 0.1.0 */
ONNXSLIM_API size_t onnxslim_graph_sparse_initializer_count(const onnxslim_graph *graph);
/** Sparse initializer `index`; NULL if out of range. @since 0.1.0 */
ONNXSLIM_API onnxslim_sparse_tensor *onnxslim_graph_sparse_initializer(const onnxslim_graph *graph,
                                                                       size_t index);

/* ---- lookup by name ---------------------------------------------------- *
 * Lookups use indexes built on first use (linear time in the graph size) and
 * only search this graph, not its subgraphs. They return NULL with an
 * ONNXSLIM_ENOTFOUND last error when nothing matches.                       */

/** The first node named `name` (node names, not value names). @since 0.1.0 */
ONNXSLIM_API onnxslim_node *onnxslim_graph_find_node(const onnxslim_graph *graph, const char *name);
/** The initializer named `name`. @since 0.1.0 */
ONNXSLIM_API onnxslim_tensor *onnxslim_graph_find_initializer(const onnxslim_graph *graph,
                                                              const char *name);
/**
 * The graph input, output or value_info entry for value `name` (searched in that order).
 * @since 0.1.0
 */
ONNXSLIM_API onnxslim_value_info *onnxslim_graph_find_value_info(const onnxslim_graph *graph,
                                                                 const char *name);
/** The node of this graph that produces value `name`. @since 0.1.0 */
ONNXSLIM_API onnxslim_node *onnxslim_graph_producer(const onnxslim_graph *graph, const char *name);

/**
 * Number of nodes of this graph that consume value `name`: nodes listing it
 * as an input, and nodes with a subgraph that uses it from the outer scope
 * (a capture). A node counts once however often it uses the value.
 * @since 0.1.0
 */
ONNXSLIM_API size_t onnxslim_graph_consumer_count(const onnxslim_graph *graph, const char *name);
/** Consumer `index` of value `name`, in node order; NULL if out of range. @since 0.1.0 */
ONNXSLIM_API onnxslim_node *onnxslim_graph_consumer(const onnxslim_graph *graph, const char *name,
                                                    size_t index);

/* ---- edits ---------------------------------------------------------------- *
 * Edits mark only the messages they change for re-encoding; everything else
 * is saved as its original bytes. Lookups stay up to date: an edit costs
 * the items it touches, not a rebuild of the graph's index, so a batch of
 * edits costs time and memory linear in the graph's size. Appends (index
 * SIZE_MAX) and the insertion helpers (insert.h) are queued and applied in
 * one pass when something next reads the graph's item lists or positions;
 * an insert at a given index reads positions, so it costs one pass over the
 * graph when other inserts are still queued.
 * Handles of removed items become invalid: functions given one return
 * ONNXSLIM_EINVAL ("... was removed"); their memory stays until the model is
 * freed, so holding them is safe. Inserting or removing items shifts the
 * indexes of the items after them. Strings returned before an edit stay
 * valid until the model is freed.                                            */

/**
 * Sets the graph's name (copied). Errors: ONNXSLIM_EINVAL, ONNXSLIM_ENOMEM.
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_graph_set_name(onnxslim_graph *graph, const char *name);

/**
 * Creates a node and inserts it at node position `index` (SIZE_MAX or the
 * node count: append). `domain` and `name` may be NULL or "" (omitted);
 * input and output names are copied, NULL entries mean "" (an omitted
 * optional input). *out (may be NULL) receives the new node, borrowed.
 * Errors: ONNXSLIM_EINVAL, ONNXSLIM_ERANGE (index past the end), ONNXSLIM_ENOMEM.
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_graph_add_node(onnxslim_graph *graph, size_t index, const char *op_type,
                                         const char *domain, const char *name,
                                         const char *const *inputs, size_t n_inputs,
                                         const char *const *outputs, size_t n_outputs,
                                         onnxslim_node **out);

/**
 * Removes a node of this graph. The node handle (and handles inside its
 * subgraphs) become invalid. Values it produced are not renamed or removed
 * elsewhere. Errors: ONNXSLIM_EINVAL (not a node of this graph).
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_graph_remove_node(onnxslim_graph *graph, onnxslim_node *node);

/**
 * Moves a node of this graph to node position `index` (counted after the
 * node is taken out). The handle stays valid.
 * Errors: ONNXSLIM_EINVAL, ONNXSLIM_ERANGE, ONNXSLIM_ENOMEM.
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_graph_move_node(onnxslim_graph *graph, onnxslim_node *node, size_t index);

/**
 * Appends an initializer `name` of data type `dtype` and shape dims[0..rank)
 * whose raw little-endian bytes are data[0..size); size must equal what the
 * dims and type imply. flags: ONNXSLIM_COPY or ONNXSLIM_BORROW.
 * *out (may be NULL) receives the new tensor. Does not add a graph input.
 * Errors: ONNXSLIM_EINVAL (bad dims, size mismatch, flags), ONNXSLIM_EUNSUPPORTED
 * (STRING or unknown dtype), ONNXSLIM_ENOMEM.
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_graph_add_initializer(onnxslim_graph *graph, const char *name,
                                                int32_t dtype, const int64_t *dims, size_t rank,
                                                const void *data, size_t size, unsigned int flags,
                                                onnxslim_tensor **out);

/**
 * Appends a copy of tensor `src` (from this or any other model, e.g. a
 * Constant node's value) as an initializer, renamed to `name` unless NULL.
 * Bytes are shared when src belongs to the same model, copied otherwise.
 * Errors: ONNXSLIM_EINVAL, ONNXSLIM_ENOMEM.
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_graph_add_initializer_copy(onnxslim_graph *graph,
                                                     const onnxslim_tensor *src, const char *name,
                                                     onnxslim_tensor **out);

/**
 * Removes an initializer of this graph; its handle becomes invalid.
 * Errors: ONNXSLIM_EINVAL (not an initializer of this graph).
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_graph_remove_initializer(onnxslim_graph *graph, onnxslim_tensor *tensor);

/**
 * Appends a graph input named `name` without a type (set one with
 * onnxslim_value_info_set_tensor_type() or onnxslim_value_info_set_type()).
 * Errors: ONNXSLIM_EINVAL, ONNXSLIM_ENOMEM.
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_graph_add_input(onnxslim_graph *graph, const char *name,
                                          onnxslim_value_info **out);
/** Appends a graph output; as onnxslim_graph_add_input(). @since 0.1.0 */
ONNXSLIM_API int onnxslim_graph_add_output(onnxslim_graph *graph, const char *name,
                                           onnxslim_value_info **out);
/** Appends a value_info entry; as onnxslim_graph_add_input(). @since 0.1.0 */
ONNXSLIM_API int onnxslim_graph_add_value_info(onnxslim_graph *graph, const char *name,
                                               onnxslim_value_info **out);

/**
 * Removes a graph input, output or value_info entry of this graph; the
 * handle becomes invalid. Errors: ONNXSLIM_EINVAL.
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_graph_remove_value_info(onnxslim_graph *graph, onnxslim_value_info *vi);

/**
 * Reorders the graph's nodes: order[0..count) must list every node of the
 * graph exactly once; other fields keep their places. Linear time.
 * Errors: ONNXSLIM_EINVAL (wrong count, foreign or repeated node; then the
 * graph is unchanged), ONNXSLIM_ENOMEM.
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_graph_reorder_nodes(onnxslim_graph *graph, onnxslim_node *const *order,
                                              size_t count);

/**
 * Renames value `from` to `to` everywhere it appears in this graph: node
 * inputs and outputs, graph inputs, outputs and value_info, initializer and
 * sparse-initializer names, and uses inside subgraphs that capture it from
 * this scope (a subgraph that defines its own `from` is left alone). Does not
 * check that `to` is unused (see onnxslim_model_unique_name()).
 * Errors: ONNXSLIM_EINVAL (NULL or empty names), ONNXSLIM_ENOMEM.
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_graph_rename_value(onnxslim_graph *graph, const char *from,
                                             const char *to);

#ifdef __cplusplus
}
#endif

#endif /* ONNXSLIM_GRAPH_H */
