/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - node insertion on edges.
 *
 * Built on the public handle API (lib/insert.c uses nothing else). Names of
 * values the rest of the graph reads stay unchanged wherever possible:
 *
 *  - After a value with a producer node, for all its consumers: the new node
 *    takes over the value's name and the producer's output gets a fresh
 *    name. Consumers, subgraphs that capture the value and graph outputs keep
 *    reading the same name, now produced by the new node. (This is how the
 *    published Gather -> Cast recipe leaves the rest of the graph untouched.)
 *  - After a graph input, an initializer or an outer-scope value, or for a
 *    chosen subset of consumers: the new node writes a fresh name and only
 *    the chosen consumers (all of them when none are chosen) are rewired,
 *    including their subgraphs' captures. Graph outputs keep their names.
 *  - Before one input of one consumer: the new node reads that input and
 *    writes a fresh name the consumer then reads.
 *
 * Fresh names (values and the new node's name) never collide with any name
 * in the model, subgraphs included (onnxslim_model_unique_name()).
 * The new node is placed right after the producer (or before the first
 * rewired consumer, or the consumer for *_before), so a topologically sorted
 * graph stays sorted. Type information: when the original edge has a value
 * info (graph input, output or value_info), the new edge gets a copy of it;
 * the Cast helpers also set the element type of the Cast's output edge.
 */
#ifndef ONNXSLIM_INSERT_H
#define ONNXSLIM_INSERT_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Current version of onnxslim_insert_options. @since 0.2.0 */
#define ONNXSLIM_INSERT_OPTIONS_VERSION 1

/**
 * Which consumers an insertion rewires and how the new edge is named
 * (onnxslim_insert_after_with() and the other _with forms). Fields are only
 * appended; the library reads only the fields of the caller's `version`.
 * @since 0.2.0
 */
typedef struct onnxslim_insert_options {
  unsigned int version; /**< ONNXSLIM_INSERT_OPTIONS_VERSION */
  /** The consumers that read the new node's output, consumers[0..n_consumers)
   * (borrowed for the call); NULL / 0 means all. Only for the *_after forms:
   * the *_before forms rewire their one consumer and refuse a list
   * (ONNXSLIM_EINVAL). */
  onnxslim_node *const *consumers;
  size_t n_consumers; /**< number of entries of consumers */
  /** The name given to the new edge (the producer's renamed output in the
   * take-over case, else the new node's output): used as given when no name
   * in the model uses it, else made unique by appending _N; NULL generates
   * one from the value (borrowed for the call). */
  const char *fresh_name;
} onnxslim_insert_options;

#define ONNXSLIM_INSERT_OPTIONS_INIT \
  { ONNXSLIM_INSERT_OPTIONS_VERSION, NULL, 0, NULL }

/**
 * Sets *opts to the defaults of the given version (1 to
 * ONNXSLIM_INSERT_OPTIONS_VERSION): every consumer, a generated name.
 * Errors: ONNXSLIM_EINVAL (NULL opts, unknown version).
 * @since 0.2.0
 */
ONNXSLIM_API int onnxslim_insert_options_init(onnxslim_insert_options *opts, unsigned int version);

/**
 * Inserts a node `op_type` (in `domain`, NULL or "" = default ONNX domain)
 * with one input and one output on value `value` of `graph`; opts (NULL:
 * the defaults, ONNXSLIM_INSERT_OPTIONS_INIT; borrowed for the call)
 * chooses the consumers that read the new node's output and the name of
 * the new edge (see onnxslim_insert_options).
 * *out (may be NULL) receives the new node; add attributes with the
 * onnxslim_node_set_attr_* functions. Lookup indexes of the graph are
 * rebuilt on next use.
 * Errors: ONNXSLIM_EINVAL (NULL arguments, a consumer that does not read the
 * value, an unknown opts->version), ONNXSLIM_ENOTFOUND (value neither
 * produced, consumed, a graph input nor an initializer in this graph),
 * ONNXSLIM_ENOMEM, ONNXSLIM_ELIMIT (below).
 * Memory: counts against the model's max_memory (onnxslim_load_options),
 * with the model's structure (which the model's name set, built on the
 * first fresh name, and the edit grow), what the insertion holds: about 40
 * bytes a consumer of `value`; ONNXSLIM_ELIMIT when over, the model
 * unchanged. Linear in the consumers, however many are chosen.
 * @since 0.2.0
 */
ONNXSLIM_API int onnxslim_insert_after_with(onnxslim_graph *graph, const char *value,
                                            const char *op_type, const char *domain,
                                            const onnxslim_insert_options *opts,
                                            onnxslim_node **out);

/**
 * Inserts a node `op_type` before input `input_index` of `consumer` (a node
 * of `graph`): the node reads that value and the consumer reads the node's
 * output, named after opts->fresh_name as in onnxslim_insert_after_with()
 * (opts NULL or fresh_name NULL: generated; opts->n_consumers must be 0).
 * Errors: ONNXSLIM_EINVAL (NULL arguments, an unknown opts->version, a
 * consumer list), ONNXSLIM_ERANGE (no such input, or an omitted optional
 * input), ONNXSLIM_ENOMEM, ONNXSLIM_ELIMIT (the model's structure over
 * max_memory once its name set is built, as onnxslim_model_unique_name();
 * the model unchanged).
 * @since 0.2.0
 */
ONNXSLIM_API int onnxslim_insert_before_with(onnxslim_graph *graph, onnxslim_node *consumer,
                                             size_t input_index, const char *op_type,
                                             const char *domain,
                                             const onnxslim_insert_options *opts,
                                             onnxslim_node **out);

/**
 * onnxslim_insert_after_with() of a Cast node with attribute to = `to`
 * (ONNXSLIM_DTYPE_*). The value info of the Cast's output edge, when there
 * is one, gets element type `to`. Errors as onnxslim_insert_after_with(),
 * and ONNXSLIM_EMODEL, the model unchanged, when the edit would violate an
 * operator schema at the model's ai.onnx opset (as onnxslim_check() would
 * report it; the message ends with the check's name, e.g.
 * "[type_constraint]"): a Cast that opset does not allow (no integer `to`
 * before opset 6, `to` or the value's known type outside Cast's
 * constraints, e.g. BFLOAT16 before 13), or a rewired consumer that does
 * not take `to` at that input (alone, or with the known types of its other
 * inputs of the same constraint). Opsets newer than the schema tables are
 * not checked.
 * @since 0.2.0
 */
ONNXSLIM_API int onnxslim_insert_cast_after_with(onnxslim_graph *graph, const char *value,
                                                 int32_t to, const onnxslim_insert_options *opts,
                                                 onnxslim_node **out);

/**
 * onnxslim_insert_before_with() of a Cast node with attribute to = `to`.
 * Errors as onnxslim_insert_before_with(), and ONNXSLIM_EMODEL as
 * onnxslim_insert_cast_after_with() (the Cast, and the consumer reading
 * `to`).
 * @since 0.2.0
 */
ONNXSLIM_API int onnxslim_insert_cast_before_with(onnxslim_graph *graph, onnxslim_node *consumer,
                                                  size_t input_index, int32_t to,
                                                  const onnxslim_insert_options *opts,
                                                  onnxslim_node **out);

/* The shorthands of 0.1.0: the _with forms with options made of their
 * positional arguments. */

/**
 * The shorthand of onnxslim_insert_after_with() with options {consumers,
 * n_consumers, fresh_name}. Errors as onnxslim_insert_after_with().
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_insert_after(onnxslim_graph *graph, const char *value,
                                       const char *op_type, const char *domain,
                                       onnxslim_node *const *consumers, size_t n_consumers,
                                       const char *fresh_name, onnxslim_node **out);

/**
 * The shorthand of onnxslim_insert_before_with() with options {fresh_name}.
 * Errors as onnxslim_insert_before_with().
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_insert_before(onnxslim_graph *graph, onnxslim_node *consumer,
                                        size_t input_index, const char *op_type, const char *domain,
                                        const char *fresh_name, onnxslim_node **out);

/**
 * The shorthand of onnxslim_insert_cast_after_with() with options
 * {consumers, n_consumers, fresh_name}. Errors as
 * onnxslim_insert_cast_after_with() (ONNXSLIM_EMODEL since 0.2.0).
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_insert_cast_after(onnxslim_graph *graph, const char *value, int32_t to,
                                            onnxslim_node *const *consumers, size_t n_consumers,
                                            const char *fresh_name, onnxslim_node **out);

/**
 * The shorthand of onnxslim_insert_cast_before_with() with options
 * {fresh_name}. Errors as onnxslim_insert_cast_before_with()
 * (ONNXSLIM_EMODEL since 0.2.0).
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_insert_cast_before(onnxslim_graph *graph, onnxslim_node *consumer,
                                             size_t input_index, int32_t to, const char *fresh_name,
                                             onnxslim_node **out);

#ifdef __cplusplus
}
#endif

#endif /* ONNXSLIM_INSERT_H */
