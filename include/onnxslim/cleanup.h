/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - graph cleanup: topological sort and removal of unused
 * nodes, initializers and value infos. Built on the public handle API.
 */
#ifndef ONNXSLIM_CLEANUP_H
#define ONNXSLIM_CLEANUP_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Also process the subgraphs of the graph's nodes, recursively. */
#define ONNXSLIM_CLEANUP_RECURSIVE 1u

/** Current version of onnxslim_cleanup_options. @since 0.2.0 */
#define ONNXSLIM_CLEANUP_OPTIONS_VERSION 1

/**
 * How onnxslim_cleanup_toposort_with() and
 * onnxslim_cleanup_remove_unused_with() work. Fields are only appended; the
 * library reads only the fields of the caller's `version`.
 * @since 0.2.0
 */
typedef struct onnxslim_cleanup_options {
  unsigned int version; /**< ONNXSLIM_CLEANUP_OPTIONS_VERSION */
  /** 0 or ONNXSLIM_CLEANUP_RECURSIVE; other bits are reserved and must be 0. */
  unsigned int flags;
} onnxslim_cleanup_options;

#define ONNXSLIM_CLEANUP_OPTIONS_INIT \
  { ONNXSLIM_CLEANUP_OPTIONS_VERSION, 0 }

/**
 * Sets *opts to the defaults of the given version (1 to
 * ONNXSLIM_CLEANUP_OPTIONS_VERSION): flags 0 (this graph only).
 * Errors: ONNXSLIM_EINVAL (NULL opts, unknown version).
 * @since 0.2.0
 */
ONNXSLIM_API int onnxslim_cleanup_options_init(onnxslim_cleanup_options *opts,
                                               unsigned int version);

/**
 * Sorts the graph's nodes topologically, in linear time. The sort is stable:
 * a node moves only when a value it reads (directly, or through a subgraph
 * that captures it) is produced by a later node; an already sorted graph is
 * left unchanged (and is not re-encoded). opts->flags: 0 or
 * ONNXSLIM_CLEANUP_RECURSIVE. Node handles stay valid; node indexes change.
 * Memory: counts against the model's max_memory (onnxslim_load_options),
 * with the model's structure, what the sort holds: about 60 bytes a node
 * and 8 an edge of the graph it sorts (and of the enclosing ones while it
 * sorts subgraphs); ONNXSLIM_ELIMIT when over, that graph unchanged (since
 * 0.2.0). A graph already in order none of whose nodes holds a subgraph
 * is only checked (one lookup a value read) and holds nothing (since
 * 0.3.0).
 * Errors: ONNXSLIM_EINVAL (NULL graph, unknown opts->version, reserved
 * flags), ONNXSLIM_EMODEL (a cycle: the message names a node on it; the
 * graph is unchanged), ONNXSLIM_ENOMEM, ONNXSLIM_ELIMIT.
 * opts NULL means the defaults (ONNXSLIM_CLEANUP_OPTIONS_INIT); it is
 * borrowed for the call.
 * @since 0.2.0
 */
ONNXSLIM_API int onnxslim_cleanup_toposort_with(onnxslim_graph *graph,
                                                const onnxslim_cleanup_options *opts);

/**
 * The shorthand of onnxslim_cleanup_toposort_with() with options whose
 * flags are `flags`. Errors as onnxslim_cleanup_toposort_with().
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_cleanup_toposort(onnxslim_graph *graph, unsigned int flags);

/**
 * Removes what nothing needs: nodes none of whose outputs reach a graph
 * output (directly or through other nodes, subgraph captures included),
 * then initializers no remaining node or graph output reads (unless they
 * are also graph inputs), then value_info entries naming values that no
 * longer exist. Graph inputs and outputs are never removed. opts->flags: 0 or
 * ONNXSLIM_CLEANUP_RECURSIVE. *removed (may be NULL) receives the number of
 * items removed. Handles of removed items become invalid. Linear in the
 * graph's nodes, edges, initializers and value infos.
 * Memory: counts against the model's max_memory, with the model's
 * structure, what it holds for one graph at a time: about 50 bytes a node,
 * 8 an edge, an initializer or a value info and 40 a graph input or output
 * (about 20 bytes a node and nothing an edge when no node of that graph
 * holds a subgraph, since 0.3.0); ONNXSLIM_ELIMIT when
 * over, before that graph changes (with ONNXSLIM_CLEANUP_RECURSIVE the subgraphs cleaned before
 * stay cleaned) (since 0.2.0). Errors: ONNXSLIM_EINVAL (NULL graph, unknown opts->version,
 * reserved flags), ONNXSLIM_ENOMEM, ONNXSLIM_ELIMIT. opts NULL means the defaults
 * (ONNXSLIM_CLEANUP_OPTIONS_INIT); it is borrowed for the call.
 * @since 0.2.0
 */
ONNXSLIM_API int onnxslim_cleanup_remove_unused_with(onnxslim_graph *graph,
                                                     const onnxslim_cleanup_options *opts,
                                                     size_t *removed);

/**
 * The shorthand of onnxslim_cleanup_remove_unused_with() with options whose
 * flags are `flags`. Errors as onnxslim_cleanup_remove_unused_with().
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_cleanup_remove_unused(onnxslim_graph *graph, unsigned int flags,
                                                size_t *removed);

#ifdef __cplusplus
}
#endif

#endif /* ONNXSLIM_CLEANUP_H */
