/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - what differs between two models.
 *
 * onnxslim_diff() first compares the storage-independent fingerprints of
 * the two models (onnxslim_fingerprint()): when they are equal, so are the
 * models (except maybe for where tensor bytes are stored, compared only
 * with ONNXSLIM_DIFF_STORAGE). Otherwise it walks them side by side:
 * model fields, opsets, metadata, functions, then each graph (subgraphs
 * too): name, inputs, outputs, value_info, initializers, sparse
 * initializers and nodes, matched by name (unnamed nodes: the k-th unnamed
 * node of an op type in A with the k-th of that op type in B). Each
 * difference is an entry of the report. Differences the walk does not see
 * (node order, doc strings, fields it does not compare) are reported as one
 * entry of aspect ONNXSLIM_DIFF_OTHER, because the fingerprints differ.
 *
 * Tensor data is streamed in chunks (onnxslim_tensor_read(), which hands
 * the mapped pages back behind it): memory stays flat however large the
 * models are. Tensors of one numeric type are compared value by value; a
 * tensor whose type changed is compared by value too when both types are
 * numeric, and a quantized tensor of B (an integer tensor where A's tensor
 * of the same name is floating point) is compared by its dequantized
 * values when B's graph says how to dequantize it:
 *   - DequantizeLinear reading it (scale and zero point initializers;
 *     per tensor, per axis or blocked), also through a Gather of it and of
 *     its scales (and zero points) along axis 0 (rows gathered, then
 *     dequantized);
 *   - a Gather of it followed by Cast and Mul by a Gather of a scale
 *     initializer of one scale per row (and, asymmetric, Sub of the Cast of
 *     a Gather of a zero point initializer), the form of INT8 tables below
 *     opset 21;
 *   - com.microsoft.GatherBlockQuantized (data, scales, zero_points;
 *     attributes bits, block_size, quantize_axis; 4-bit data packed two a
 *     byte, low nibble first);
 *   - com.microsoft.MatMulNBits (B packed [N, K/block_size, blob], scales,
 *     zero_points; attributes K, N, bits, block_size): compared with A's
 *     [K, N] weight. Its zero points are UINT8 (4-bit ones two a byte), or
 *     float zero points of the scales' type, one a block (the form
 *     onnxruntime's HQQ writes; since 0.3.0), each value read back as
 *     (q - zero point) * scale.
 * The entry's numbers then say how it was dequantized
 * (onnxslim_diff_numbers.dequantized).
 */
#ifndef ONNXSLIM_DIFF_H
#define ONNXSLIM_DIFF_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The result of onnxslim_diff(). Owned by the caller; release with
 * onnxslim_diff_report_free(). It does not refer to the models: it stays
 * valid after they are freed. @since 0.2.0 */
typedef struct onnxslim_diff_report onnxslim_diff_report;

/** What an entry is about (onnxslim_diff_report_kind()); values are never
 * reused. @since 0.2.0 */
typedef enum onnxslim_diff_kind {
  ONNXSLIM_DIFF_KIND_MODEL = 1,               /**< a model field ("model") */
  ONNXSLIM_DIFF_KIND_OPSET = 2,               /**< an opset import ("opset") */
  ONNXSLIM_DIFF_KIND_METADATA = 3,            /**< a metadata_props entry ("metadata") */
  ONNXSLIM_DIFF_KIND_FUNCTION = 4,            /**< a model-local function ("function") */
  ONNXSLIM_DIFF_KIND_GRAPH = 5,               /**< a graph ("graph") */
  ONNXSLIM_DIFF_KIND_INPUT = 6,               /**< a graph input ("input") */
  ONNXSLIM_DIFF_KIND_OUTPUT = 7,              /**< a graph output ("output") */
  ONNXSLIM_DIFF_KIND_VALUE_INFO = 8,          /**< a value_info entry ("value_info") */
  ONNXSLIM_DIFF_KIND_INITIALIZER = 9,         /**< an initializer ("initializer") */
  ONNXSLIM_DIFF_KIND_SPARSE_INITIALIZER = 10, /**< ("sparse_initializer") */
  ONNXSLIM_DIFF_KIND_NODE = 11                /**< a node ("node") */
} onnxslim_diff_kind;

/** The largest onnxslim_diff_kind value of this header. @since 0.2.0 */
#define ONNXSLIM_DIFF_KIND_MAX 11

/** What differs (onnxslim_diff_report_aspect()); values are never reused.
 * @since 0.2.0 */
typedef enum onnxslim_diff_aspect {
  ONNXSLIM_DIFF_PRESENCE = 1,   /**< in one model only ("presence") */
  ONNXSLIM_DIFF_VALUE = 2,      /**< a field's or attribute's value ("value") */
  ONNXSLIM_DIFF_VERSION = 3,    /**< an opset's version ("version") */
  ONNXSLIM_DIFF_NAME = 4,       /**< a graph's name ("name") */
  ONNXSLIM_DIFF_TYPE = 5,       /**< an input's, output's or value_info's type ("type") */
  ONNXSLIM_DIFF_ORDER = 6,      /**< the same inputs or outputs in another order ("order") */
  ONNXSLIM_DIFF_INPUTS = 7,     /**< a node's or function's inputs ("inputs") */
  ONNXSLIM_DIFF_OUTPUTS = 8,    /**< a node's or function's outputs ("outputs") */
  ONNXSLIM_DIFF_ATTRIBUTES = 9, /**< a function's attribute names ("attributes") */
  ONNXSLIM_DIFF_OP_TYPE = 10,   /**< a node's domain and op type ("op_type") */
  ONNXSLIM_DIFF_DTYPE = 11,     /**< a tensor's data type ("dtype") */
  ONNXSLIM_DIFF_SHAPE = 12,     /**< a tensor's dims ("shape") */
  ONNXSLIM_DIFF_CONTENTS = 13,  /**< a tensor's data, same type and dims ("contents") */
  ONNXSLIM_DIFF_STORAGE = 14,   /**< where its bytes are stored ("storage") */
  ONNXSLIM_DIFF_INDICES = 15,   /**< a sparse tensor's indices ("indices") */
  ONNXSLIM_DIFF_OTHER = 16      /**< what the walk does not list ("other") */
} onnxslim_diff_aspect;

/** The largest onnxslim_diff_aspect value of this header. @since 0.2.0 */
#define ONNXSLIM_DIFF_ASPECT_MAX 16

/** How a tensor of B was dequantized for the comparison
 * (onnxslim_diff_numbers.dequantized). @since 0.2.0 */
typedef enum onnxslim_diff_dequant {
  ONNXSLIM_DIFF_DEQUANT_NONE = 0,                   /**< compared as stored */
  ONNXSLIM_DIFF_DEQUANT_DEQUANTIZE_LINEAR = 1,      /**< DequantizeLinear */
  ONNXSLIM_DIFF_DEQUANT_CAST_MUL = 2,               /**< Gather, Cast, (Sub,) Mul */
  ONNXSLIM_DIFF_DEQUANT_GATHER_BLOCK_QUANTIZED = 3, /**< com.microsoft.GatherBlockQuantized */
  ONNXSLIM_DIFF_DEQUANT_MATMUL_NBITS = 4            /**< com.microsoft.MatMulNBits */
} onnxslim_diff_dequant;

/** Which model: A (the first) or B. @since 0.2.0 */
#define ONNXSLIM_DIFF_A 0
/** @since 0.2.0 */
#define ONNXSLIM_DIFF_B 1

/** onnxslim_diff_options.flags: also compare where tensor bytes are stored
 * (raw_data, typed fields, external data; aspect ONNXSLIM_DIFF_STORAGE),
 * and walk the models even when their fingerprints are equal. @since 0.2.0 */
#define ONNXSLIM_DIFF_COMPARE_STORAGE 1u

/** Current version of onnxslim_diff_options. @since 0.2.0 */
#define ONNXSLIM_DIFF_OPTIONS_VERSION 1

/**
 * How onnxslim_diff() compares. Fields are only appended; the library
 * reads only the fields of the caller's `version`.
 * @since 0.2.0
 */
typedef struct onnxslim_diff_options {
  unsigned int version; /**< ONNXSLIM_DIFF_OPTIONS_VERSION */
  /** ONNXSLIM_DIFF_COMPARE_STORAGE or 0; other bits are reserved and must be 0. */
  unsigned int flags;
} onnxslim_diff_options;

/** The defaults: storage not compared. @since 0.2.0 */
#define ONNXSLIM_DIFF_OPTIONS_INIT \
  { ONNXSLIM_DIFF_OPTIONS_VERSION, 0 }

/**
 * Sets *opts to the defaults of the given version (1 to
 * ONNXSLIM_DIFF_OPTIONS_VERSION); only the fields of that version are
 * written. Errors: ONNXSLIM_EINVAL (NULL opts, unknown version).
 * @since 0.2.0
 */
ONNXSLIM_API int onnxslim_diff_options_init(onnxslim_diff_options *opts, unsigned int version);

/**
 * Compares model `a` with model `b` and returns the differences in a new
 * report (empty when they are equal). `opts` NULL means the defaults.
 * Ownership: on success *out is a new report OWNED by the caller (free it
 * with onnxslim_diff_report_free()); on failure *out is set to NULL (when
 * out is not NULL). The models are borrowed for the call and not modified
 * (as onnxslim_fingerprint() and onnxslim_tensor_read() leave them).
 * Memory: tensor data is read in chunks of at most 512 KiB per model; what
 * the diff holds (its report, the tables that match names) counts, with
 * model a's structure, against a's max_memory (onnxslim_load_options): over
 * it the diff stops with ONNXSLIM_ELIMIT.
 * Errors: ONNXSLIM_EINVAL (NULL out, a or b; unknown opts->version;
 * reserved flags), ONNXSLIM_ENOMEM, ONNXSLIM_ELIMIT, ONNXSLIM_EMODEL or
 * ONNXSLIM_EIO (tensor data that cannot be read).
 * @since 0.2.0
 */
ONNXSLIM_API int onnxslim_diff(onnxslim_diff_report **out, const onnxslim_model *a,
                               const onnxslim_model *b, const onnxslim_diff_options *opts);

/** Number of differences in the report; 0 for equal models and for NULL.
 * Never fails. @since 0.2.0 */
ONNXSLIM_API size_t onnxslim_diff_report_count(const onnxslim_diff_report *report);

/**
 * The fingerprint (onnxslim_fingerprint(): 32 hex digits) of model A
 * (which ONNXSLIM_DIFF_A) or B (ONNXSLIM_DIFF_B), borrowed from the report.
 * NULL (ONNXSLIM_EINVAL) for a NULL report or another `which`.
 * @since 0.2.0
 */
ONNXSLIM_API const char *onnxslim_diff_report_fingerprint(const onnxslim_diff_report *report,
                                                          int which);

/**
 * The kind of entry `index` (an onnxslim_diff_kind value, > 0).
 * Errors (negative): ONNXSLIM_EINVAL (NULL report), ONNXSLIM_ERANGE.
 * @since 0.2.0
 */
ONNXSLIM_API int onnxslim_diff_report_kind(const onnxslim_diff_report *report, size_t index);

/**
 * What differs in entry `index` (an onnxslim_diff_aspect value, > 0).
 * Errors (negative): ONNXSLIM_EINVAL (NULL report), ONNXSLIM_ERANGE.
 * @since 0.2.0
 */
ONNXSLIM_API int onnxslim_diff_report_aspect(const onnxslim_diff_report *report, size_t index);

/*
 * The strings below are borrowed from the report, valid until
 * onnxslim_diff_report_free(), raw: names are copied as stored in the
 * models (not escaped; a NUL inside a STRING attribute's value is shown as
 * the four characters \x00). They return NULL for a NULL report
 * (ONNXSLIM_EINVAL) or an index out of range (ONNXSLIM_ERANGE), and those
 * that may be absent return NULL with ONNXSLIM_ENOTFOUND.
 */

/**
 * The path of the (sub)graph of entry `index`: "" for the main graph and
 * what is outside graphs; "node 'If_0' attribute 'then_branch'" for a
 * subgraph; "function 'dom:name'" for a function's nodes.
 * @since 0.2.0
 */
ONNXSLIM_API const char *onnxslim_diff_report_graph(const onnxslim_diff_report *report,
                                                    size_t index);

/**
 * The name of the item of entry `index`: a field ("ir_version"), an opset
 * domain, a metadata key, "domain:name" of a function, the name of an
 * input, output, value_info, initializer or node ("" for an unnamed node
 * and for a graph).
 * @since 0.2.0
 */
ONNXSLIM_API const char *onnxslim_diff_report_name(const onnxslim_diff_report *report,
                                                   size_t index);

/**
 * How the text names the item of entry `index`: "node 'x'", "node #3
 * (Add)" (unnamed), "initializer 'W'", "model ir_version", "inputs" (for
 * an order change), ...
 * @since 0.2.0
 */
ONNXSLIM_API const char *onnxslim_diff_report_label(const onnxslim_diff_report *report,
                                                    size_t index);

/**
 * The node attribute of entry `index` ("axis", or "value[2]" for an
 * element of a list of tensors or graphs); NULL (ONNXSLIM_ENOTFOUND) for
 * entries not about an attribute.
 * @since 0.2.0
 */
ONNXSLIM_API const char *onnxslim_diff_report_attribute(const onnxslim_diff_report *report,
                                                        size_t index);

/**
 * The text of what entry `index` found in model A (which ONNXSLIM_DIFF_A)
 * or B: a value ("17"), a type ("FLOAT[2, 3]"), a list ("['x', 'y']"), ...;
 * for a presence entry the item's short description in the model that has
 * it (the op type of a node, the type of an initializer; may be ""), and
 * NULL (ONNXSLIM_ENOTFOUND) for the model that does not have it; for a
 * contents entry NULL in both (see onnxslim_diff_report_digest()); for an
 * "other" entry the fingerprints. NULL (ONNXSLIM_EINVAL) for another
 * `which`.
 * @since 0.2.0
 */
ONNXSLIM_API const char *onnxslim_diff_report_value(const onnxslim_diff_report *report,
                                                    size_t index, int which);

/**
 * The entry as one line of text, e.g. "node 'a': op_type Add -> Sub",
 * "initializer 'W': contents differ, max abs diff 3, digest X -> Y": what
 * `libonnxslim diff` prints (which escapes control characters and bytes
 * that are not UTF-8).
 * @since 0.2.0
 */
ONNXSLIM_API const char *onnxslim_diff_report_text(const onnxslim_diff_report *report,
                                                   size_t index);

/**
 * The digest (XXH3-128 of the data in raw layout; 32 hex digits) of the
 * tensor of model A (which ONNXSLIM_DIFF_A) or B in a contents entry (or
 * an indices entry); NULL (ONNXSLIM_ENOTFOUND) for other entries.
 * @since 0.2.0
 */
ONNXSLIM_API const char *onnxslim_diff_report_digest(const onnxslim_diff_report *report,
                                                     size_t index, int which);

/**
 * The position of the node of entry `index` in its graph (or function) in
 * model A (which ONNXSLIM_DIFF_A) or B; -1 when the entry is not about a
 * node or the node is not in that model.
 * Errors (negative, below -1): ONNXSLIM_EINVAL (NULL report, other which),
 * ONNXSLIM_ERANGE.
 * @since 0.2.0
 */
ONNXSLIM_API int64_t onnxslim_diff_report_node_index(const onnxslim_diff_report *report,
                                                     size_t index, int which);

/** Current version of onnxslim_diff_numbers. @since 0.2.0 */
#define ONNXSLIM_DIFF_NUMBERS_VERSION 1

/**
 * The numeric comparison of two tensors of entry `index` (a contents
 * entry, or a dtype entry over the same dims), as
 * onnxslim_diff_report_numbers() gives it. Fields are only appended.
 * @since 0.2.0
 */
typedef struct onnxslim_diff_numbers {
  unsigned int version;    /**< ONNXSLIM_DIFF_NUMBERS_VERSION */
  uint64_t elements;       /**< values compared */
  uint64_t differing;      /**< values that differ (+0 equals -0, NaN equals NaN) */
  uint64_t nan_mismatches; /**< values that are NaN in one model only */
  /** max |a - b| over the values; NaN when nan_mismatches is not 0. */
  double max_abs_diff;
  /** An onnxslim_diff_dequant value: how B's values were dequantized
   * (ONNXSLIM_DIFF_DEQUANT_NONE: compared as stored). */
  int dequantized;
} onnxslim_diff_numbers;

/** An empty onnxslim_diff_numbers of the current version. @since 0.2.0 */
#define ONNXSLIM_DIFF_NUMBERS_INIT \
  { ONNXSLIM_DIFF_NUMBERS_VERSION, 0, 0, 0, 0.0, 0 }

/**
 * Copies the numbers of entry `index` to *numbers (the fields of
 * numbers->version, which the caller sets). Entries without a numeric
 * comparison (presence, shapes, non-numeric types, ...): ONNXSLIM_ENOTFOUND.
 * Errors: ONNXSLIM_EINVAL (NULL report or numbers, unknown version),
 * ONNXSLIM_ERANGE, ONNXSLIM_ENOTFOUND; *numbers is then unchanged.
 * @since 0.2.0
 */
ONNXSLIM_API int onnxslim_diff_report_numbers(const onnxslim_diff_report *report, size_t index,
                                              onnxslim_diff_numbers *numbers);

/** The stable name of a kind ("initializer"), a static string; NULL
 * (ONNXSLIM_EINVAL) for a value that is no kind. @since 0.2.0 */
ONNXSLIM_API const char *onnxslim_diff_kind_name(int kind);

/** The stable name of an aspect ("contents"), a static string; NULL
 * (ONNXSLIM_EINVAL) for a value that is no aspect. @since 0.2.0 */
ONNXSLIM_API const char *onnxslim_diff_aspect_name(int aspect);

/** Frees the report and its strings. NULL is a no-op. @since 0.2.0 */
ONNXSLIM_API void onnxslim_diff_report_free(onnxslim_diff_report *report);

#ifdef __cplusplus
}
#endif

#endif /* ONNXSLIM_DIFF_H */
