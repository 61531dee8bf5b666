/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - graph simplification: exact rewrites that never change a
 * number the model computes. onnxslim_simplify() runs the chosen passes
 * over the main graph and, recursively, the bodies of If, Loop and Scan
 * (any node's subgraphs), until a round changes nothing (or a cap on the
 * rounds), and returns a report of what each pass did. The guide is
 * docs/simplify.md.
 *
 * The passes use only what the model states: element types and shapes
 * come from initializers, Constant nodes, graph inputs and outputs and
 * value_info entries. A value whose type or shape the model does not state
 * is not simplified by a rule that needs it. The model's interface (graph
 * inputs and outputs, their names and order) never changes.
 */
#ifndef ONNXSLIM_SIMPLIFY_H
#define ONNXSLIM_SIMPLIFY_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/** onnxslim_simplify_options.passes: remove nodes that compute nothing:
 * Identity; Dropout of an inference model (opset 7 or later, or is_test 1;
 * no mask read; no training_mode input, or a constant false one); Cast to
 * the element type the model states for its input; Reshape to a constant
 * shape equal to the input's stated static shape; Transpose with an
 * identity perm; Slice that keeps every element, Pad with all pads 0, Expand
 * to a shape the input already has (constant inputs, stated shapes);
 * Add/Sub of a constant zero and Mul/Div by a constant one that keep the
 * other input's shape, where exact for every input (x + (+0.0) only when x
 * can never be -0.0). It also shortens chains: a Reshape by a constant
 * shape reads through a Reshape, Flatten, Squeeze or Unsqueeze that only
 * it reads; a Transpose of a Transpose reads the first's input with the
 * composed perm (a pair composing to the identity goes whole); a Concat of
 * a Concat on the same axis that only it reads takes its inputs; a Concat
 * whose other inputs are empty along its axis, or with one input, goes
 * (docs/simplify.md says each rule's conditions). A
 * removed node's readers read its input instead; when its output is a
 * graph output, its input takes that name if a node of the same graph
 * produces it and nothing else is lost by the rename, else the node stays.
 * A value read from a subgraph (an outer-scope capture) keeps its node.
 * @since 0.3.0 */
#define ONNXSLIM_SIMPLIFY_NOOP 1u
/** onnxslim_simplify_options.passes: common subexpression elimination:
 * nodes of one graph with the same op type, domain, inputs and attributes
 * (compared as their encoded bytes, subgraphs included) are merged into the
 * first; so are initializers of one graph with the same element type, dims
 * and bytes (compared without loading external data whole) that are not
 * graph inputs. Never merged: nodes with no outputs, RandomNormal,
 * RandomNormalLike, RandomUniform, RandomUniformLike, Bernoulli,
 * Multinomial, Dropout (random in training mode), nodes of a domain other than ai.onnx and
 * ai.onnx.ml, and a node or initializer whose outputs are graph outputs. @since 0.3.0 */
#define ONNXSLIM_SIMPLIFY_CSE 2u
/** onnxslim_simplify_options.passes: remove what nothing reads: nodes none
 * of whose outputs reach a graph output, initializers no node reads (unless
 * graph inputs), value_info entries of values that no longer exist (as
 * onnxslim_cleanup_remove_unused() with ONNXSLIM_CLEANUP_RECURSIVE), then
 * local functions no node of the main graph calls (directly or through the
 * functions it calls; every overload of a called name stays), then opset
 * imports of domains no node of the model uses (the default domain is
 * always kept). @since 0.3.0 */
#define ONNXSLIM_SIMPLIFY_DEAD 4u
/** onnxslim_simplify_options.passes: constant folding: a node whose
 * inputs are all constant (initializers that are not graph inputs,
 * Constant nodes, values folded before it) is computed and replaced by an
 * initializer named as its output (also a graph output of the main graph
 * when ir_version is 4 or later; else a Constant node keeps the graph
 * output), for the operators whose results the library computes
 * exactly as onnxruntime does: Shape, Size, Gather, Concat, Slice,
 * Squeeze, Unsqueeze, Reshape, Flatten, Expand, Transpose, Identity, Where
 * and ConstantOfShape on any fixed-size element type; Range, Neg, Abs, Add,
 * Sub, Mul, Div (truncating), Mod, Min, Max, Equal, Less, Greater,
 * LessOrEqual, GreaterOrEqual on int32 and int64 (wrapping as onnxruntime
 * does); Not, And, Or, Xor and Equal on bool; ReduceMax and ReduceMin (of
 * integers, bool and floats: one element, no NaN), ReduceSum and
 * ReduceMean of int32 and int64 (exact sums only); Cast between integer and
 * bool types, and from int32, int64 or bool to float or double when every
 * value is exact. Never folded: a Cast from a floating-point or 8-bit type
 * to a float type (a 16-bit float or quantized weight stays as the model
 * stores it), a node onnxruntime would refuse at run time (an index out of
 * range, an integer division by zero), a node of a domain other than
 * ai.onnx, and a node whose constant inputs or result exceed
 * onnxslim_simplify_options.fold_max_bytes. Shape and Size also fold when
 * their input's shape is static, as the model states it or as
 * onnxslim_infer_shapes() infers it (main graph); no weight is read for
 * them. Constants and folds of a subgraph stay in that subgraph. The pass
 * also turns each Constant node of the main graph (value, value_float(s),
 * value_int(s); not strings, not sparse) whose output is not a graph
 * output into an initializer named as that output, reported as a
 * ONNXSLIM_SIMPLIFY_FOLDED_NODE; not in a model of ir_version below 4.
 * @since 0.3.0 */
#define ONNXSLIM_SIMPLIFY_FOLD 8u
/** Every pass of this version. @since 0.3.0 */
#define ONNXSLIM_SIMPLIFY_ALL 15u

/** The default onnxslim_simplify_options.fold_max_bytes: 1 MiB.
 * @since 0.3.0 */
#define ONNXSLIM_SIMPLIFY_FOLD_MAX_BYTES 1048576u

/** Current version of onnxslim_simplify_options. @since 0.3.0 */
#define ONNXSLIM_SIMPLIFY_OPTIONS_VERSION 1

/** The default and largest onnxslim_simplify_options.max_iterations.
 * @since 0.3.0 */
#define ONNXSLIM_SIMPLIFY_MAX_ITERATIONS 100u

/**
 * How onnxslim_simplify() works. Fields are only appended; the library
 * reads only the fields of the caller's `version`.
 * @since 0.3.0
 */
typedef struct onnxslim_simplify_options {
  unsigned int version; /**< ONNXSLIM_SIMPLIFY_OPTIONS_VERSION */
  /** ONNXSLIM_SIMPLIFY_* bits (default ONNXSLIM_SIMPLIFY_ALL); other bits
   * are reserved and must be 0; 0 is refused. */
  unsigned int passes;
  /** Rounds of the passes at most: a round runs each chosen pass once, in
   * the order NOOP, CSE, FOLD, DEAD; the rounds stop after one that changed
   * nothing. 0 means ONNXSLIM_SIMPLIFY_MAX_ITERATIONS (the default); more
   * than that is refused. */
  unsigned int max_iterations;
  /** 0; reserved for flags, must be 0. */
  unsigned int flags;
  /** Called between passes (onnxslim_progress_fn), `total` being
   * max_iterations times the number of chosen passes, `done` the passes
   * run so far (the rounds not run count as done at the end); a nonzero
   * return cancels. NULL: none. */
  onnxslim_progress_fn progress;
  void *progress_payload; /**< passed to progress */
  /** The largest tensor, in bytes, constant folding reads or creates: a
   * node with a constant input or a result larger is left as it is. 0
   * means ONNXSLIM_SIMPLIFY_FOLD_MAX_BYTES (the default). */
  uint64_t fold_max_bytes;
} onnxslim_simplify_options;

#define ONNXSLIM_SIMPLIFY_OPTIONS_INIT \
  { ONNXSLIM_SIMPLIFY_OPTIONS_VERSION, ONNXSLIM_SIMPLIFY_ALL, 0, 0, NULL, NULL, 0 }

/**
 * Sets *opts to the defaults of the given version (1 to
 * ONNXSLIM_SIMPLIFY_OPTIONS_VERSION): every pass, up to
 * ONNXSLIM_SIMPLIFY_MAX_ITERATIONS rounds, no progress.
 * Errors: ONNXSLIM_EINVAL (NULL opts, unknown version).
 * @since 0.3.0
 */
ONNXSLIM_API int onnxslim_simplify_options_init(onnxslim_simplify_options *opts,
                                                unsigned int version);

/** What one change of a report did (onnxslim_simplify_report_change()).
 * Values never change. @since 0.3.0 */
typedef enum onnxslim_simplify_change {
  /** A node was removed; its output values now read `into` (a no-op) or
   * nothing reads them (dead code). */
  ONNXSLIM_SIMPLIFY_REMOVED_NODE = 1,
  /** A node was merged into the node `into` (named by its label). */
  ONNXSLIM_SIMPLIFY_MERGED_NODE = 2,
  /** An initializer was removed (nothing read it). */
  ONNXSLIM_SIMPLIFY_REMOVED_INITIALIZER = 3,
  /** An initializer was merged into the initializer `into`. */
  ONNXSLIM_SIMPLIFY_MERGED_INITIALIZER = 4,
  /** An opset import was removed (`name` is its domain). */
  ONNXSLIM_SIMPLIFY_REMOVED_OPSET = 5,
  /** A local function no node calls was removed (`name` is
   * "DOMAIN:NAME", or NAME in the default domain). */
  ONNXSLIM_SIMPLIFY_REMOVED_FUNCTION = 6,
  /** A node was computed (constant folding); `into` names the initializer
   * (or, for a graph output of a subgraph or of a model of ir_version
   * below 4, the Constant node's output) that holds its result. */
  ONNXSLIM_SIMPLIFY_FOLDED_NODE = 7
} onnxslim_simplify_change;

/** The report of onnxslim_simplify(); free with
 * onnxslim_simplify_report_free(). It holds copies of every name and does
 * not refer to the model. @since 0.3.0 */
typedef struct onnxslim_simplify_report onnxslim_simplify_report;

/**
 * Simplifies the model in place with the passes of opts (see
 * ONNXSLIM_SIMPLIFY_NOOP, _CSE, _FOLD, _DEAD). First every graph is sorted
 * topologically (onnxslim_cleanup_toposort(), which leaves a sorted graph
 * as it is), and every graph is checked to produce each value once.
 * Handles of removed nodes, initializers and value infos become invalid;
 * node indexes change. *out (may be NULL) receives the report, owned by
 * the caller and freed with onnxslim_simplify_report_free(); on failure
 * it is NULL.
 * Errors: ONNXSLIM_EINVAL (NULL model, unknown opts->version, reserved or
 * no passes, max_iterations too large, flags), ONNXSLIM_EMODEL (a cycle; a
 * value produced twice in one graph: the message names it; in both cases
 * before anything changed), ONNXSLIM_ECANCELED (opts->progress asked to
 * stop), ONNXSLIM_ENOMEM, ONNXSLIM_ELIMIT, ONNXSLIM_EIO (external data
 * unreadable while comparing). Each pass leaves a valid model that computes
 * what the original did: after a failure or a cancel in the middle of the
 * rounds, the passes already run stay done and the model is still valid.
 * opts NULL means the defaults (ONNXSLIM_SIMPLIFY_OPTIONS_INIT); it is
 * borrowed for the call.
 * @since 0.3.0
 */
ONNXSLIM_API int onnxslim_simplify(onnxslim_simplify_report **out, onnxslim_model *model,
                                   const onnxslim_simplify_options *opts);

/**
 * The name of pass bit `pass` ("noop", "cse", "fold", "dead"), or NULL for
 * anything else (ONNXSLIM_EINVAL). Static.
 * @since 0.3.0
 */
ONNXSLIM_API const char *onnxslim_simplify_pass_name(unsigned int pass);

/**
 * Parses a comma-separated list of pass names ("noop,cse", "all") into
 * *passes. Errors: ONNXSLIM_EINVAL (NULL argument, empty list or an
 * unknown name, which the message names).
 * @since 0.3.0
 */
ONNXSLIM_API int onnxslim_simplify_parse_passes(const char *list, unsigned int *passes);

/** Rounds the simplification ran (0 for a NULL report). @since 0.3.0 */
ONNXSLIM_API unsigned int onnxslim_simplify_report_iterations(
    const onnxslim_simplify_report *report);

/** Number of pass runs of the report, one per pass per round (0 for a
 * NULL report). @since 0.3.0 */
ONNXSLIM_API size_t onnxslim_simplify_report_step_count(const onnxslim_simplify_report *report);

/**
 * Pass run `index` (0 .. onnxslim_simplify_report_step_count() - 1): its
 * pass bit, its round (from 1), and the model's nodes and initializers
 * (every graph's, subgraphs included) before and after it. Any out pointer
 * may be NULL. Errors: ONNXSLIM_EINVAL (NULL report), ONNXSLIM_ERANGE.
 * @since 0.3.0
 */
ONNXSLIM_API int onnxslim_simplify_report_step(const onnxslim_simplify_report *report, size_t index,
                                               unsigned int *pass, unsigned int *iteration,
                                               uint64_t *nodes_before, uint64_t *nodes_after,
                                               uint64_t *inits_before, uint64_t *inits_after);

/** Number of changes recorded in the report (0 for a NULL report).
 * @since 0.3.0 */
ONNXSLIM_API size_t onnxslim_simplify_report_change_count(const onnxslim_simplify_report *report);

/**
 * Change `index`, in the order they were made: its pass bit, its kind (an
 * onnxslim_simplify_change), the label of what changed (a node's name, or
 * for a nameless node its first output; an initializer's name; a domain;
 * a function's "DOMAIN:NAME")
 * and `into` (what it was merged into or what its readers read now; ""
 * when nothing), both borrowed from the report; `graph` the name of the
 * graph it was in ("" for a nameless one). Any out pointer may be NULL.
 * Errors: ONNXSLIM_EINVAL (NULL report), ONNXSLIM_ERANGE.
 * @since 0.3.0
 */
ONNXSLIM_API int onnxslim_simplify_report_change(const onnxslim_simplify_report *report,
                                                 size_t index, unsigned int *pass, int *kind,
                                                 const char **name, const char **into,
                                                 const char **graph);

/** Frees a report; NULL is a no-op. @since 0.3.0 */
ONNXSLIM_API void onnxslim_simplify_report_free(onnxslim_simplify_report *report);

#ifdef __cplusplus
}
#endif

#endif /* ONNXSLIM_SIMPLIFY_H */
