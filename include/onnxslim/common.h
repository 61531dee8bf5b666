/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - common definitions shared by every module header.
 *
 * Ownership, one rule for the whole library:
 *   - A LEADING `**out` parameter gives a new object OWNED by the caller, to
 *     be freed with the matching _free function: onnxslim_model_open() and
 *     onnxslim_model_from_buffer() (onnxslim_model_free()), onnxslim_check()
 *     (onnxslim_check_report_free()), onnxslim_convert_model() and
 *     onnxslim_convert_gather_tables() (onnxslim_convert_report_free()),
 *     onnxslim_quantize() (onnxslim_quant_report_free()),
 *     onnxslim_save() (onnxslim_save_report_free()), onnxslim_diff()
 *     (onnxslim_diff_report_free()).
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
 *
 * Options, one rule for every operation: an operation takes a versioned
 * options struct (`unsigned int version` first, fields only appended, an
 * `_INIT` macro and an `_init()` function; NULL means the defaults). A
 * function released with positional arguments instead keeps them, as a
 * documented shorthand, and gets a sibling of the same name plus `_with`
 * that takes the options struct (onnxslim_check() and
 * onnxslim_check_with(), onnxslim_convert_gather_tables() and
 * onnxslim_convert_gather_tables_with(), onnxslim_cleanup_toposort() and
 * onnxslim_cleanup_toposort_with(), the onnxslim_insert_*() functions and
 * their _with forms, onnxslim_fingerprint() and onnxslim_fingerprint_with());
 * the shorthand is the _with form with NULL options (or with the options
 * its positional arguments give) and calls it.
 *
 * Getters, one rule for every function that returns what it reads (a
 * pointer, a count, a value) instead of an int status: on failure it
 * returns its type's empty value - NULL for a pointer, 0 for a count, a
 * size or a value whose absent form is 0 (onnxslim_tensor_dtype(),
 * onnxslim_type_dtype()), -1 for a value that may be 0 (a dimension) -
 * and always sets the last error: ONNXSLIM_EINVAL for a NULL, wrong-kind
 * or removed handle, ONNXSLIM_ERANGE for an index past the end,
 * ONNXSLIM_ENOTFOUND for a lookup that finds nothing or an optional part
 * that is absent (the parent node of a main graph, a value's type). A
 * getter that succeeds leaves the last error as it was. An absent string
 * field reads as "", so NULL from a string getter always means an error;
 * to tell a 0 that is an answer (no nodes, no dtype) from a failure, call
 * onnxslim_error_clear() before and onnxslim_error_last_code() after.
 * Getters of reports (onnxslim_*_report_*()) take a NULL report or an
 * index past the end as "nothing" and set no error ("Never fails").
 *
 * Names, one rule each:
 *   - functions are onnxslim_<module or object>_<verb>_<noun>, the verb
 *     before what it acts on (onnxslim_graph_find_node(),
 *     onnxslim_model_find_file(), onnxslim_node_set_attr_int()); a getter
 *     has no verb (onnxslim_graph_node(), onnxslim_tensor_dtype());
 *   - constants are ONNXSLIM_<MODULE>_*, the module being the header's
 *     (ONNXSLIM_CONVERT_POLICY_*, ONNXSLIM_SAVE_PLACEMENT_*,
 *     ONNXSLIM_QUANT_*); the handle headers' constants are named after the
 *     value they classify, as its getter is (ONNXSLIM_DTYPE_* for
 *     onnxslim_tensor_dtype(), ONNXSLIM_ATTR_* for onnxslim_attr_type(),
 *     ONNXSLIM_TYPE_* for onnxslim_type_kind(), ONNXSLIM_STORAGE_* for
 *     onnxslim_tensor_storage(), ONNXSLIM_DIM_* for onnxslim_type_dim());
 *   - one word for one idea: an element type is a "dtype" everywhere
 *     (onnxslim_tensor_dtype(), onnxslim_type_dtype(),
 *     onnxslim_value_info_set_dtype());
 *   - lists: a list that is a part of an object is read as
 *     <object>_<item>_count() and <object>_<item>(object, index)
 *     (onnxslim_graph_node(), onnxslim_node_input(),
 *     onnxslim_tensor_string()); a list attribute is read by the plural of
 *     its type, as it is written: the getter of an ONNXSLIM_ATTR_X value is
 *     onnxslim_attr_x() and its setter onnxslim_node_set_attr_x() - numbers
 *     as one array (onnxslim_attr_floats(), onnxslim_attr_ints()), strings,
 *     tensors, graphs, sparse tensors and types one element at a time by
 *     index (onnxslim_attr_strings(attr, index, ...),
 *     onnxslim_attr_tensors(attr, index)), their number from
 *     onnxslim_attr_list_count().
 *
 * Deprecation: a released name found wrong is never removed (the ABI
 * keeps it); the right name is added and the old one marked
 * ONNXSLIM_DEPRECATED("use <new name>"), which makes GCC, Clang and MSVC
 * warn where it is used; it behaves exactly as its replacement. Define
 * ONNXSLIM_NO_DEPRECATION_WARNINGS before including the headers to silence
 * the warnings. docs/api.md lists each deprecated name and its
 * replacement.
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

/* ONNXSLIM_DEPRECATED(msg) marks a deprecated function; the
 * ONNXSLIM_DEPRECATED_ENUMERATOR(msg) variant a deprecated enum constant
 * (after its name; MSVC has no such attribute, so it is empty there). */
#if defined(ONNXSLIM_NO_DEPRECATION_WARNINGS)
#  define ONNXSLIM_DEPRECATED(msg)
#  define ONNXSLIM_DEPRECATED_ENUMERATOR(msg)
#elif defined(__GNUC__) && (__GNUC__ >= 6 || defined(__clang__))
#  define ONNXSLIM_DEPRECATED(msg) __attribute__((deprecated(msg)))
#  define ONNXSLIM_DEPRECATED_ENUMERATOR(msg) __attribute__((deprecated(msg)))
#elif defined(_MSC_VER)
#  define ONNXSLIM_DEPRECATED(msg) __declspec(deprecated(msg))
#  define ONNXSLIM_DEPRECATED_ENUMERATOR(msg)
#else
#  define ONNXSLIM_DEPRECATED(msg)
#  define ONNXSLIM_DEPRECATED_ENUMERATOR(msg)
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

/**
 * Progress of long work: a caller's function that the library calls while
 * it loads a model (onnxslim_load_options), converts tensors
 * (onnxslim_convert_options) or saves (onnxslim_save_options), in the
 * calling thread, with `payload` as the caller set it next to the function
 * in the options.
 *
 * `total` is the amount of work, in bytes, known before the first call and
 * the same in every call of one operation: for a load the size of the model
 * file (or buffer), parsed; for a conversion the bytes of the tensors its
 * statistics pass reads (0 without that pass); for a save the bytes it
 * writes (model file and data files; with external data the model file's
 * size is computed before the data files get their final names, so it may
 * be off by a few bytes: done never exceeds total all the same). `done` is
 * how much of it is done; it never decreases and never exceeds total.
 *
 * The calls: first done = 0 (before the work starts; not made when total is
 * 0); then, as the work goes on, calls with 0 < done < total, at most one
 * per MiB of progress and about a thousand per operation (so the function
 * may be slow-ish, e.g. Python, without slowing the work); a save makes one
 * more with done == total - 1 once its files are written and synced, just
 * before it puts them in place (the other calls stay below total - 1), so
 * a cancel asked for while the data was being synced still leaves every
 * file as it was; last, done == total once the work has succeeded, and only
 * then (an operation that fails or is canceled makes no last call).
 *
 * Return 0 to go on. Any other value cancels the work: the operation stops
 * at once and fails with ONNXSLIM_ECANCELED, leaving things as a failure
 * does (a canceled load gives no model, a canceled conversion leaves the
 * model unchanged, a canceled save leaves every file as it was before the
 * save). The return value of the last call (done == total) is ignored: the
 * work is complete by then.
 *
 * The function must not use the model the operation works on. The library
 * never prints; drawing a progress bar is the caller's business (the
 * libonnxslim command draws one on a terminal).
 * @since 0.2.0
 */
typedef int (*onnxslim_progress_fn)(uint64_t done, uint64_t total, void *payload);

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
