/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - models: load and inspect (saving: onnxslim/save.h).
 *
 * Loading maps the file (or borrows/copies the caller's buffer) and parses the
 * message structure only. Tensor bytes are never copied at load: a tensor is a
 * reference into the mapping until its bytes are asked for.
 *
 * Threads: different models may be used from different threads at once; one
 * model must be used by one thread at a time (that includes read calls, which
 * fill caches).
 */
#ifndef ONNXSLIM_MODEL_H
#define ONNXSLIM_MODEL_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- load options ------------------------------------------------------ */

/** Current version of onnxslim_load_options: 2 added base_dir, 3
 * max_memory, 4 (0.2.0) progress and progress_payload. */
#define ONNXSLIM_LOAD_OPTIONS_VERSION 4
/** Default maximum nesting depth of protobuf messages. */
#define ONNXSLIM_DEFAULT_MAX_DEPTH 100
/**
 * Largest max_depth accepted (larger values: ONNXSLIM_EINVAL). Parsing needs
 * no stack per nesting level, but some passes over a loaded model (check,
 * toposort, remove_unused, fingerprint, save, unique names, conversion,
 * external data) recurse once per level: measured at most about 260 bytes
 * per level (x86-64, gcc 12, -O2 and -O0), so at this depth every call fits
 * in a thread with a 256 KiB stack, with half of it to spare. Edits that
 * would nest messages deeper than the model's max_depth (copying a graph
 * into one of its own nodes, say) fail with ONNXSLIM_ELIMIT.
 * @since 0.1.0
 */
#define ONNXSLIM_MAX_DEPTH_LIMIT 500
/**
 * Default max_memory: 1 GiB. The structure of a model costs about 56 bytes
 * per protobuf field and 104 per message (an empty node: 160 bytes; a
 * typical node with a few inputs and attributes: 0.5 to 1 KiB), so 1 GiB
 * holds a graph of a million nodes; the ONNX test models and BERT-sized
 * graphs take a few MiB at most. Crafted files reach it from a few tens of
 * MB (for example 20 million empty nodes in 40 MB).
 * @since 0.1.0
 */
#define ONNXSLIM_DEFAULT_MAX_MEMORY ((uint64_t)1 << 30)
/** max_memory value that means no limit. @since 0.1.0 */
#define ONNXSLIM_MAX_MEMORY_UNLIMITED UINT64_MAX

/**
 * Options for onnxslim_model_open() and onnxslim_model_from_buffer().
 * Initialize with ONNXSLIM_LOAD_OPTIONS_INIT or onnxslim_load_options_init().
 * Fields are only ever appended; `version` tells the library which exist.
 */
typedef struct onnxslim_load_options {
  unsigned int version; /**< ONNXSLIM_LOAD_OPTIONS_VERSION */
  unsigned int flags;   /**< reserved, must be 0 */
  /** max message nesting; 0 = ONNXSLIM_DEFAULT_MAX_DEPTH; at most
   * ONNXSLIM_MAX_DEPTH_LIMIT. Edits never nest deeper either. */
  unsigned int max_depth;
  /** Since version 2. Directory that external-data locations are relative
   * to (borrowed for the call). NULL: the directory of the model file; required when a model
   * loaded from a buffer has external data. */
  const char *base_dir;
  /** Since version 3. Most bytes a load may allocate for the model's
   * structure (its message tree: fields, messages, the tensor checks at
   * load), not counting the input bytes themselves (mapped or copied).
   * Over it the load fails with ONNXSLIM_ELIMIT, in most cases after one
   * pass over the offending message and before allocating for it. 0 =
   * ONNXSLIM_DEFAULT_MAX_MEMORY (also for versions 1 and 2);
   * ONNXSLIM_MAX_MEMORY_UNLIMITED for no limit. Since 0.2.0 the limit
   * holds after the load too, for the passes: onnxslim_check(),
   * onnxslim_cleanup_toposort(), onnxslim_cleanup_remove_unused(),
   * onnxslim_convert_model(), the onnxslim_insert_* functions,
   * onnxslim_model_unique_name() and onnxslim_save() count what they hold
   * in proportion to the model (reports, maps, plans, tables; each
   * function's documentation says what) with the model's structure (which
   * lookups and edits grow) against it, and fail with ONNXSLIM_ELIMIT
   * ("WHAT needs more memory than its max_memory allows (N bytes): the
   * model's structure takes S bytes, ...") when over, in most cases before
   * changing anything. Single lookups and edits are not refused; what
   * they add counts for the next pass. onnxslim_fingerprint() and the
   * streamed tensor bytes of conversions and saves take bounded memory. */
  uint64_t max_memory;
  /** Since version 4 (0.2.0). Called as the load goes on (see
   * onnxslim_progress_fn in onnxslim/common.h): total is the size of the
   * model file or buffer, done how far the parse got in it. NULL: none. A
   * nonzero return stops the load: ONNXSLIM_ECANCELED, no model. */
  onnxslim_progress_fn progress;
  /** Since version 4: passed to progress. */
  void *progress_payload;
} onnxslim_load_options;

#define ONNXSLIM_LOAD_OPTIONS_INIT \
  { ONNXSLIM_LOAD_OPTIONS_VERSION, 0, 0, NULL, 0, NULL, NULL }

/**
 * Sets *opts to the defaults of the given options version (1 to
 * ONNXSLIM_LOAD_OPTIONS_VERSION); only the fields of that version are
 * written, so a caller built against an older header passes its own version.
 * Errors: ONNXSLIM_EINVAL if opts is NULL or version is unknown.
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_load_options_init(onnxslim_load_options *opts, unsigned int version);

/* ---- load / free ------------------------------------------------------- */

/**
 * Loads the model in the file at `path`. The file is memory-mapped read-only
 * and must not be modified while the model is alive (replacing it with a new
 * file, as onnxslim_save() does, is fine).
 * External data (tensors with data_location EXTERNAL) is resolved relative
 * to opts->base_dir or the model's directory, and every referenced file is
 * opened, checked and mapped at load; its bytes are read only when asked
 * for. Refused with ONNXSLIM_EMODEL, naming the tensor and the location: an
 * absolute location, a ".." segment, a path that leaves the base directory
 * through a symlink (each location is opened beneath a descriptor of the
 * base directory, race-free: symlinks are followed only while they stay
 * beneath it, absolute ones never), a location naming a directory, a
 * missing or non-regular file, an offset or length that is malformed,
 * overflows or lies beyond the end of the file, a key (location, offset,
 * length, checksum) given twice or a value with a NUL byte. A model
 * loaded from a buffer that has external data but no base_dir: ONNXSLIM_EINVAL.
 * Since 0.2.0, a load that opens external data checks afterwards that
 * `path` still names the file it parsed: when a save (onnxslim_save())
 * replaced it meanwhile, the data files opened may belong to another save,
 * so the load starts again with the new file; after 10 replacements in a
 * row it fails with ONNXSLIM_EIO ("... was replaced while its external data
 * was being opened ..."). A load never returns the model of one save with
 * the data of another save by this library to the same path.
 * On success *out is a new model owned by the caller (onnxslim_model_free()).
 * On failure *out is set to NULL.
 * opts may be NULL for defaults.
 * Errors: ONNXSLIM_EINVAL (NULL out/path, bad options), ONNXSLIM_EIO (cannot
 * open/map, or `path` is not a regular file: a FIFO, device or directory is
 * refused at once, never waited on; replaced by saves 10 times while
 * loading), ONNXSLIM_EPARSE (malformed bytes), ONNXSLIM_ELIMIT (nesting
 * too deep, structure over max_memory), ONNXSLIM_EMODEL (no graph, negative or overflowing tensor
 * dims), ONNXSLIM_ENOMEM, ONNXSLIM_ECANCELED (opts->progress asked to stop).
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_model_open(onnxslim_model **out, const char *path,
                                     const onnxslim_load_options *opts);

/**
 * Loads a model from `size` bytes at `data`. `flags` is ONNXSLIM_COPY
 * or ONNXSLIM_BORROW; other bits are reserved and must be 0.
 * data may be NULL only when size is 0. Ownership and errors as for
 * onnxslim_model_open().
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_model_from_buffer(onnxslim_model **out, const void *data, size_t size,
                                            unsigned int flags, const onnxslim_load_options *opts);

/**
 * Frees the model and everything borrowed from it. NULL is a no-op.
 * @since 0.1.0
 */
ONNXSLIM_API void onnxslim_model_free(onnxslim_model *model);

/* ---- model fields ------------------------------------------------------ */

/** ir_version, 0 when absent. @since 0.1.0 */
ONNXSLIM_API int64_t onnxslim_model_ir_version(const onnxslim_model *model);
/** producer_name, "" when absent; NULL only on error (NULL model, no memory). @since 0.1.0 */
ONNXSLIM_API const char *onnxslim_model_producer_name(const onnxslim_model *model);
/** producer_version, "" when absent. @since 0.1.0 */
ONNXSLIM_API const char *onnxslim_model_producer_version(const onnxslim_model *model);
/** domain, "" when absent. @since 0.1.0 */
ONNXSLIM_API const char *onnxslim_model_domain(const onnxslim_model *model);
/** model_version, 0 when absent. @since 0.1.0 */
ONNXSLIM_API int64_t onnxslim_model_version(const onnxslim_model *model);
/** doc_string, "" when absent. @since 0.1.0 */
ONNXSLIM_API const char *onnxslim_model_doc_string(const onnxslim_model *model);

/** Number of opset_import entries. @since 0.1.0 */
ONNXSLIM_API size_t onnxslim_model_opset_count(const onnxslim_model *model);
/**
 * Entry `index` of opset_import: *domain ("" = the default ONNX domain) and
 * *version. Either out pointer may be NULL. Strings are borrowed.
 * Errors: ONNXSLIM_EINVAL, ONNXSLIM_ERANGE.
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_model_opset(const onnxslim_model *model, size_t index,
                                      const char **domain, int64_t *version);

/** Number of metadata_props entries. @since 0.1.0 */
ONNXSLIM_API size_t onnxslim_model_metadata_count(const onnxslim_model *model);
/**
 * Entry `index` of metadata_props. Either out pointer may be NULL.
 * Errors: ONNXSLIM_EINVAL, ONNXSLIM_ERANGE.
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_model_metadata(const onnxslim_model *model, size_t index,
                                         const char **key, const char **value);

/** The main graph; never NULL for a loaded model (loading refuses models without one). NULL only
 * for a NULL model. @since 0.1.0 */
ONNXSLIM_API onnxslim_graph *onnxslim_model_graph(const onnxslim_model *model);

/** Number of model-local functions. @since 0.1.0 */
ONNXSLIM_API size_t onnxslim_model_function_count(const onnxslim_model *model);
/** Function `index`, or NULL if out of range. @since 0.1.0 */
ONNXSLIM_API onnxslim_function *onnxslim_model_function(const onnxslim_model *model, size_t index);

/* ---- functions (FunctionProto) ----------------------------------------- */

/** name, "" when absent. @since 0.1.0 */
ONNXSLIM_API const char *onnxslim_function_name(const onnxslim_function *fn);
/** domain, "" when absent. @since 0.1.0 */
ONNXSLIM_API const char *onnxslim_function_domain(const onnxslim_function *fn);
/** doc_string, "" when absent. @since 0.1.0 */
ONNXSLIM_API const char *onnxslim_function_doc_string(const onnxslim_function *fn);
/** Number of formal inputs. @since 0.1.0 */
ONNXSLIM_API size_t onnxslim_function_input_count(const onnxslim_function *fn);
/** Formal input `index`, NULL if out of range. @since 0.1.0 */
ONNXSLIM_API const char *onnxslim_function_input(const onnxslim_function *fn, size_t index);
/** Number of formal outputs. @since 0.1.0 */
ONNXSLIM_API size_t onnxslim_function_output_count(const onnxslim_function *fn);
/** Formal output `index`, NULL if out of range. @since 0.1.0 */
ONNXSLIM_API const char *onnxslim_function_output(const onnxslim_function *fn, size_t index);
/** Number of attribute names the function declares. @since 0.1.0 */
ONNXSLIM_API size_t onnxslim_function_attribute_count(const onnxslim_function *fn);
/** Declared attribute name `index`, NULL if out of range. @since 0.1.0 */
ONNXSLIM_API const char *onnxslim_function_attribute(const onnxslim_function *fn, size_t index);
/** Number of nodes of the function body. @since 0.1.0 */
ONNXSLIM_API size_t onnxslim_function_node_count(const onnxslim_function *fn);
/** Body node `index`, NULL if out of range. @since 0.1.0 */
ONNXSLIM_API onnxslim_node *onnxslim_function_node(const onnxslim_function *fn, size_t index);
/** Number of opset_import entries of the function. @since 0.1.0 */
ONNXSLIM_API size_t onnxslim_function_opset_count(const onnxslim_function *fn);
/** Entry `index` of the function's opset_import; as onnxslim_model_opset(). @since 0.1.0 */
ONNXSLIM_API int onnxslim_function_opset(const onnxslim_function *fn, size_t index,
                                         const char **domain, int64_t *version);

/* ---- files the model reads --------------------------------------------- */

/**
 * Number of files the model reads from: the model file itself (when loaded
 * with onnxslim_model_open()) and each external data file it references,
 * each counted once. 0 for a model loaded from a buffer without external
 * data, and for NULL (with ONNXSLIM_EINVAL as the last error, since 0.2.0).
 * @since 0.1.0
 */
ONNXSLIM_API size_t onnxslim_model_file_count(const onnxslim_model *model);

/**
 * Path of file `index` (see onnxslim_model_file_count()): for a model loaded
 * from a file, index 0 is that file, as its path was given to
 * onnxslim_model_open(); the external data files follow, as resolved
 * absolute paths. Borrowed: valid until the model is freed.
 * NULL when index is out of range (ONNXSLIM_ERANGE) or model is NULL.
 * @since 0.1.0
 */
ONNXSLIM_API const char *onnxslim_model_file(const onnxslim_model *model, size_t index);

/**
 * Is `path` one of the files the model reads? Files are compared by device
 * and inode, so other spellings of a path, symlinks and hard links are
 * recognised. On a match, returns 0 and sets *index (may be NULL) to the
 * file's index for onnxslim_model_file(). Use it to keep a program from
 * writing over its own input (the libonnxslim command refuses such outputs).
 * Errors: ONNXSLIM_ENOTFOUND (no such file, or not one the model reads),
 * ONNXSLIM_EINVAL (NULL model or path).
 * @since 0.2.0
 */
ONNXSLIM_API int onnxslim_model_find_file(const onnxslim_model *model, const char *path,
                                          size_t *index);
/** Deprecated (0.2.0): onnxslim_model_find_file(), which it is. Errors as
 * onnxslim_model_find_file(). @since 0.1.0 */
ONNXSLIM_API ONNXSLIM_DEPRECATED("use onnxslim_model_find_file") int onnxslim_model_file_find(
    const onnxslim_model *model, const char *path, size_t *index);

/* ---- small edits ------------------------------------------------------- */

/**
 * Sets producer_name and producer_version. Either may be NULL to leave it
 * unchanged. Copies the strings. Only the ModelProto message is re-encoded;
 * its other fields, known or not, keep their bytes and their order.
 * Previously returned producer strings stay valid.
 * Errors: ONNXSLIM_EINVAL, ONNXSLIM_ENOMEM.
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_model_set_producer(onnxslim_model *model, const char *name,
                                             const char *version);

/**
 * Sets the model's doc_string (copied). Errors: ONNXSLIM_EINVAL, ONNXSLIM_ENOMEM.
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_model_set_doc_string(onnxslim_model *model, const char *doc);

/**
 * Sets ir_version. Errors: ONNXSLIM_EINVAL (also for a negative version),
 * ONNXSLIM_ENOMEM.
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_model_set_ir_version(onnxslim_model *model, int64_t version);
/**
 * Sets the opset version imported for `domain` (NULL or "" = the default
 * ONNX domain, also matched by "ai.onnx"), adding an entry if none exists.
 * Errors: ONNXSLIM_EINVAL (also for a version below 1), ONNXSLIM_ENOMEM.
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_model_set_opset(onnxslim_model *model, const char *domain,
                                          int64_t version);
/** Removes the opset import of `domain`. Errors: EINVAL, ENOTFOUND. @since 0.1.0 */
ONNXSLIM_API int onnxslim_model_remove_opset(onnxslim_model *model, const char *domain);
/** Sets metadata_props[key] = value (copied), adding the key if needed. Errors: EINVAL, ENOMEM.
 * @since 0.1.0 */
ONNXSLIM_API int onnxslim_model_set_metadata(onnxslim_model *model, const char *key,
                                             const char *value);
/** Removes metadata key `key`. Errors: EINVAL, ENOTFOUND. @since 0.1.0 */
ONNXSLIM_API int onnxslim_model_remove_metadata(onnxslim_model *model, const char *key);

/**
 * A name not used anywhere in the model (node, value, tensor, graph and
 * function names, subgraphs included) and not returned by an earlier call:
 * `base` itself if free, else base_N. *out is borrowed (valid until the
 * model is freed).
 * Memory: the first call builds the model's name set (about 24 bytes a
 * name, part of the model's structure, kept and then updated by the
 * edits); when the structure is then over the model's max_memory, the call
 * fails with ONNXSLIM_ELIMIT (since 0.2.0), as any pass would.
 * Errors: ONNXSLIM_EINVAL, ONNXSLIM_ENOMEM, ONNXSLIM_ELIMIT.
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_model_unique_name(onnxslim_model *model, const char *base,
                                            const char **out);

#ifdef __cplusplus
}
#endif

#endif /* ONNXSLIM_MODEL_H */
