/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - validation: structural checks of a loaded model.
 *
 * onnxslim_check() walks the main graph, every subgraph (If/Loop/Scan
 * bodies, at any depth) and every model-local function, and collects the
 * problems it finds into a report. Each problem has a stable kind
 * (ONNXSLIM_CHECK_*), a location such as
 *   "graph 'main' node[3] 'Gather_1'"
 *   "graph 'main' node[2] 'If_0' attribute 'then_branch' node[0] 'c'"
 *   "graph 'main' initializer 'W'"
 *   "function 'MyFn' node[1] 'n1'"
 * and a message that names the value involved. Nodes without a name are
 * shown by their op type: "node[4] (Add)".
 *
 * The check is built on the public read API only; it does not edit the
 * model. It checks how values are defined and used, the opset imports,
 * tensor sizes and type conflicts visible in the model itself and, since
 * 0.2.0, every node of the standard domains ("" / ai.onnx, ai.onnx.ml,
 * ai.onnx.preview, ai.onnx.preview.training) against its operator schema at
 * the model's opset: the schemas of onnx 1.23.2 (opsets up to 28 of the
 * default domain, 5 of ai.onnx.ml; element types up to INT4, UINT4, FLOAT8*,
 * FLOAT4E2M1), compiled into the library. A domain imported at a newer
 * opset than the tables know is not checked against schemas; the report's
 * note (onnxslim_check_report_note()) says so. Nodes of other domains are
 * not checked against schemas. Types are known from initializers, graph
 * inputs, outputs and value_info, Constant values and Cast's `to`, and are
 * followed through every node whose output type a type constraint fixes
 * (e.g. Add's T). Each kind of problem can be switched off
 * (onnxslim_check_with()). docs/check.md lists the differences with onnx's
 * checker.
 *
 * Scoping rules used:
 *   - A node input is defined by a graph input, an initializer (dense or
 *     sparse), or an output of an earlier node of the same graph. An empty
 *     input name is an omitted optional input and is fine.
 *   - Inside a subgraph, every value of the enclosing graphs is visible
 *     (their inputs, initializers and the outputs of all their nodes,
 *     regardless of order).
 *   - A graph input that is also an initializer is fine (IR < 4 style).
 *   - A function body sees its formal inputs and its own node outputs.
 */
#ifndef ONNXSLIM_CHECK_H
#define ONNXSLIM_CHECK_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The result of onnxslim_check(). Owned by the caller; release with
 * onnxslim_check_report_free(). It does not refer to the model: it stays valid
 * after the model is freed. */
typedef struct onnxslim_check_report onnxslim_check_report;

/** Problem kinds (onnxslim_check_report_code()); values are never reused. */
typedef enum onnxslim_check_code {
  /** A node input names a value that is defined nowhere in scope. */
  ONNXSLIM_CHECK_UNDEFINED_INPUT = 1,
  /** A value is defined more than once: two node outputs, a node output that
   * is also a graph input or initializer, two graph inputs or two
   * initializers of the same name. */
  ONNXSLIM_CHECK_DUPLICATE_OUTPUT = 2,
  /** A node input is produced by a later node of the same graph (or by the
   * node itself): the nodes are not in topological order. */
  ONNXSLIM_CHECK_ORDER = 3,
  /** A tensor (initializer, sparse initializer, tensor attribute such as a
   * Constant's value) stores another number of bytes or elements than its
   * dims and data type require; for a tensor in external data: its `length`
   * (the rest of the file from `offset` when absent) is not dims x data type
   * size. */
  ONNXSLIM_CHECK_TENSOR_SIZE = 4,
  /** A node's domain has no opset_import entry (in the model, or in the
   * function that holds the node). "" and "ai.onnx" are the same domain. */
  ONNXSLIM_CHECK_OPSET = 5,
  /** A graph or function output is produced by no node and is not an input,
   * an initializer or (in a subgraph) a value of an enclosing graph. */
  ONNXSLIM_CHECK_OUTPUT_NOT_PRODUCED = 6,
  /** Conflicting types: a graph input, output or value_info entry whose element
   * type differs from the data type of the initializer of the same name; two
   * such entries for one value that disagree; a Cast whose `to` (or a
   * Constant whose value's data type) differs from the recorded element type
   * of its output. */
  ONNXSLIM_CHECK_TYPE = 7,
  /** A name that must not be empty is empty: a graph input, graph output,
   * value_info entry, initializer, or a function's formal input or output. */
  ONNXSLIM_CHECK_EMPTY_NAME = 8,
  /** (0.2.0) An op_type that its domain does not define at the model's
   * opset: unknown, added in a later opset, or deprecated at that opset. */
  ONNXSLIM_CHECK_UNKNOWN_OP = 9,
  /** (0.2.0) A node has fewer or more inputs or outputs than its schema
   * allows, or an empty name for a required (non-optional) input. */
  ONNXSLIM_CHECK_ARITY = 10,
  /** (0.2.0) A required attribute of the schema is absent from the node. */
  ONNXSLIM_CHECK_ATTR_MISSING = 11,
  /** (0.2.0) A node attribute that its schema does not define. */
  ONNXSLIM_CHECK_ATTR_UNKNOWN = 12,
  /** (0.2.0) A node attribute of another type than its schema says. */
  ONNXSLIM_CHECK_ATTR_TYPE = 13,
  /** (0.2.0) A known element type that the schema's type constraint does
   * not allow at the model's opset (e.g. BFLOAT16 into Cast at opset 11),
   * or two values bound to one constraint with different types (e.g. Add
   * of FLOAT16 and FLOAT), or an output recorded with another type than
   * the constraint gives it. */
  ONNXSLIM_CHECK_TYPE_CONSTRAINT = 14,
  /** (0.2.0) An input or output of the main graph without a type, or with
   * a tensor type without an element type (subgraph inputs and outputs may
   * leave their types to inference). */
  ONNXSLIM_CHECK_UNTYPED_IO = 15,
  /** (0.2.0) Only with ONNXSLIM_CHECK_VERIFY_CHECKSUMS: a tensor in
   * external data whose bytes' SHA-1 is not its `checksum` key, or whose
   * key is not 40 hex digits. */
  ONNXSLIM_CHECK_CHECKSUM = 16,
  /** (0.2.0) Model-local functions: two with the same (domain, name,
   * overload) key, or one whose body calls itself, directly or through
   * other functions (nodes of subgraphs inside the body included). */
  ONNXSLIM_CHECK_FUNCTION = 17,
  /** (0.2.0) A warning (onnxslim_check_code_is_warning()): a tensor stored
   * in external data (an initializer, or a Constant's value) that a node
   * reads at an input onnxruntime reads when it loads the model (Reshape's
   * shape, Resize's scales, ...: the table of docs/external-data.md, per
   * op and opset). The model is valid ONNX, but onnxruntime 1.30 refuses
   * it ("Cannot parse data from external tensors"); onnxslim_save() keeps
   * such tensors inline unless ONNXSLIM_SAVE_FORCE_SHAPE_INPUTS. */
  ONNXSLIM_CHECK_EXTERNAL_LOAD_INPUT = 18
} onnxslim_check_code;

/** The largest onnxslim_check_code value of this version of the header.
 * @since 0.2.0 */
#define ONNXSLIM_CHECK_CODE_MAX 18

/**
 * Checks the model and returns what it found in a new report.
 * `flags` is reserved and must be 0.
 * Returns 0 when the check ran, whatever it found: a valid model gives a
 * report with onnxslim_check_report_count() == 0, or with warnings only
 * (onnxslim_check_code_is_warning()).
 * Ownership: on success *out is a new report OWNED by the caller (free it
 * with onnxslim_check_report_free()); on failure *out is set to NULL (when
 * out is not NULL). The model is borrowed for the call.
 * Tensor data stored inline is inspected; for external data the recorded
 * length is compared with dims and type (the bytes are not read); typed
 * fields (float_data, ...) are decoded once and cached in the model, as
 * onnxslim_tensor_data() does. The model is not modified otherwise; handles
 * and strings borrowed from it stay valid.
 * Memory: the model's structure (which the lookups of the check grow) and
 * what the check holds (its report, about 100 bytes a problem, and its maps)
 * count together against the model's max_memory (onnxslim_load_options):
 * over it the check stops with ONNXSLIM_ELIMIT, "checking the model needs
 * more memory than its max_memory allows (N bytes): ..." (since 0.2.0).
 * Errors: ONNXSLIM_EINVAL (NULL out or model, flags not 0), ONNXSLIM_ENOMEM,
 * ONNXSLIM_ELIMIT (over max_memory).
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_check(onnxslim_check_report **out, const onnxslim_model *model,
                                unsigned int flags);

/**
 * Number of problems in the report; 0 for a valid model and for NULL.
 * Never fails.
 * @since 0.1.0
 */
ONNXSLIM_API size_t onnxslim_check_report_count(const onnxslim_check_report *report);

/**
 * Where problem `index` is, e.g. "graph 'main' node[3] 'Gather_1'".
 * The string is borrowed from the report and valid until
 * onnxslim_check_report_free(). Names are copied as stored in the model.
 * Returns NULL (ONNXSLIM_EINVAL, ONNXSLIM_ERANGE) for a NULL report or an
 * index out of range.
 * @since 0.1.0
 */
ONNXSLIM_API const char *onnxslim_check_report_location(const onnxslim_check_report *report,
                                                        size_t index);

/**
 * What problem `index` is, in words that name the value involved, e.g.
 * "input 'x' is not defined in this scope". Borrowed from the report as
 * onnxslim_check_report_location(). Returns NULL (ONNXSLIM_EINVAL,
 * ONNXSLIM_ERANGE) for a NULL report or an index out of range.
 * @since 0.1.0
 */
ONNXSLIM_API const char *onnxslim_check_report_message(const onnxslim_check_report *report,
                                                       size_t index);

/**
 * The kind of problem `index`: one of the onnxslim_check_code values (> 0).
 * Errors (negative): ONNXSLIM_EINVAL (NULL report), ONNXSLIM_ERANGE.
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_check_report_code(const onnxslim_check_report *report, size_t index);

/**
 * A note on what the check could not do, e.g. "schemas not checked for
 * domain 'ai.onnx' at opset 29: the tables know opsets up to 28 (onnx
 * 1.23.2)", one sentence a line; "" when there is nothing to say. Borrowed
 * from the report as onnxslim_check_report_location(). Returns NULL
 * (ONNXSLIM_EINVAL) for a NULL report.
 * @since 0.2.0
 */
ONNXSLIM_API const char *onnxslim_check_report_note(const onnxslim_check_report *report);

/** Current version of onnxslim_check_options: 2 added baseline.
 * @since 0.2.0 */
#define ONNXSLIM_CHECK_OPTIONS_VERSION 2

/**
 * onnxslim_check_options.flags: read the bytes of every tensor in external
 * data that has a `checksum` key (ONNX: SHA-1 of the tensor's bytes, in
 * hex, as ONNXSLIM_SAVE_CHECKSUM writes it) and report a mismatch
 * (ONNXSLIM_CHECK_CHECKSUM). The bytes are read from the files a chunk at
 * a time (1 MiB): memory does not grow with the model, time grows with the
 * external data's size. Tensors without the key are not read. A library
 * older than this flag refuses it (ONNXSLIM_EINVAL: reserved flag).
 * @since 0.2.0
 */
#define ONNXSLIM_CHECK_VERIFY_CHECKSUMS 1u

/**
 * How onnxslim_check_with() checks. Fields are only appended; the library
 * reads only the fields of the caller's `version`.
 * @since 0.2.0
 */
typedef struct onnxslim_check_options {
  unsigned int version; /**< ONNXSLIM_CHECK_OPTIONS_VERSION */
  /** Problem kinds (onnxslim_check_code values) not to look for; borrowed
   * for the call. A value that is no code is an error (ONNXSLIM_EINVAL). */
  const int *skip;
  size_t n_skip; /**< number of entries of skip */
  /** ONNXSLIM_CHECK_VERIFY_CHECKSUMS or 0; other bits are reserved and
   * must be 0. */
  unsigned int flags;
  /** Since version 2 (0.2.0). A report of an earlier check (typically of
   * the model before an edit or a conversion, or of the model it was made
   * from), borrowed for the call: the new report then holds only the
   * problems `baseline` does not have, so that a pass can tell the
   * problems it introduced from the ones its input already had. Problems
   * are compared by what they are, not by where in the node lists they are:
   * their kind, the nodes on their location named by node name (an
   * unnamed node by its op_type and output names) instead of by index, the
   * rest of the location, and the message, except that an `order` problem
   * is compared by the input it is about and a `duplicate_output` problem
   * by the output it is about (their messages name another node by its
   * index). Inserting or removing nodes thus shifts no problem out of the
   * baseline. Each baseline problem cancels one equal problem: a problem
   * found twice where the baseline has it once is reported once. The cost
   * is linear in the number of problems of both reports. NULL: every
   * problem is reported. */
  const onnxslim_check_report *baseline;
} onnxslim_check_options;

#define ONNXSLIM_CHECK_OPTIONS_INIT \
  { ONNXSLIM_CHECK_OPTIONS_VERSION, NULL, 0, 0, NULL }

/**
 * Sets *opts to the defaults of the given version (1 to
 * ONNXSLIM_CHECK_OPTIONS_VERSION): every check on, no baseline. Only the
 * fields of that version are written, so a caller built against an older
 * header passes its own version.
 * Errors: ONNXSLIM_EINVAL (NULL opts, unknown version).
 * @since 0.2.0
 */
ONNXSLIM_API int onnxslim_check_options_init(onnxslim_check_options *opts, unsigned int version);

/**
 * onnxslim_check() with options: `opts` NULL checks everything (the same
 * as onnxslim_check(out, model, 0)). Problems of a skipped kind are not
 * looked for and never appear in the report. With opts->baseline (version
 * 2) the report holds only the problems the baseline report does not
 * have (see onnxslim_check_options.baseline); its note is the model's.
 * Ownership and errors as onnxslim_check(); also ONNXSLIM_EINVAL for an
 * unknown opts->version, reserved flags set or a skip entry that is no code;
 * with ONNXSLIM_CHECK_VERIFY_CHECKSUMS, ONNXSLIM_EIO when external data
 * cannot be read.
 * @since 0.2.0
 */
ONNXSLIM_API int onnxslim_check_with(onnxslim_check_report **out, const onnxslim_model *model,
                                     const onnxslim_check_options *opts);

/**
 * The stable name of a problem kind, as the command line uses it:
 * "undefined_input", "duplicate_output", "order", "tensor_size", "opset",
 * "output_not_produced", "type", "empty_name", "unknown_op", "arity",
 * "attr_missing", "attr_unknown", "attr_type", "type_constraint",
 * "untyped_io", "checksum", "function", "external_load_input". A static string; NULL
 * (ONNXSLIM_EINVAL) for a value that is no code. Codes run from 1 to ONNXSLIM_CHECK_CODE_MAX (of
 * the library version running: ask until NULL).
 * @since 0.2.0
 */
ONNXSLIM_API const char *onnxslim_check_code_name(int code);

/**
 * One line saying what a problem kind is about, e.g. "an op_type its
 * domain does not define at the model's opset". A static string; NULL
 * (ONNXSLIM_EINVAL) for a value that is no code.
 * @since 0.2.0
 */
ONNXSLIM_API const char *onnxslim_check_code_description(int code);

/**
 * The code of a problem kind named as onnxslim_check_code_name() names it.
 * Returns the code (> 0).
 * Errors: ONNXSLIM_ENOTFOUND (unknown name), ONNXSLIM_EINVAL (NULL name).
 * @since 0.2.0
 */
ONNXSLIM_API int onnxslim_check_code_from_name(const char *name);

/**
 * Whether problems of kind `code` are warnings: 1 for a warning (the model
 * is valid ONNX, but a known runtime refuses or mishandles it:
 * ONNXSLIM_CHECK_EXTERNAL_LOAD_INPUT), 0 for an error (the other kinds).
 * A report whose problems are all warnings is that of a valid model;
 * onnxslim_check_report_count() counts warnings too.
 * Errors (negative): ONNXSLIM_EINVAL for a value that is no code.
 * @since 0.2.0
 */
ONNXSLIM_API int onnxslim_check_code_is_warning(int code);

/**
 * Frees the report and its strings. NULL is a no-op.
 * @since 0.1.0
 */
ONNXSLIM_API void onnxslim_check_report_free(onnxslim_check_report *report);

#ifdef __cplusplus
}
#endif

#endif /* ONNXSLIM_CHECK_H */
