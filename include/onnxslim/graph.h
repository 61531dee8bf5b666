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
/** The node whose attribute holds this graph, NULL for the main graph. @since 0.1.0 */
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
ONNXSLIM_API onnxslim_value_info *onnxslim_graph_value_info(const onnxslim_graph *graph, size_t index);

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
/** The graph input, output or value_info entry for value `name` (searched in that order). @since 0.1.0 */
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

#ifdef __cplusplus
}
#endif

#endif /* ONNXSLIM_GRAPH_H */
