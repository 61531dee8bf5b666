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
 * onnxslim_convert_gather_tables_with()); the shorthand calls it.
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
