/*
 * libonnxslim - external data: saving tensors to separate files, merging
 * them back, and a storage-independent model fingerprint.
 *
 * Loading external data needs nothing from this header: onnxslim_model_open()
 * resolves it (see onnxslim/model.h for the security rules).
 */
#ifndef ONNXSLIM_EXTERNAL_H
#define ONNXSLIM_EXTERNAL_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Where tensors go (onnxslim_external_options.mode). */
#define ONNXSLIM_EXTERNAL_ONE_FILE 1   /**< all in one data file */
#define ONNXSLIM_EXTERNAL_PER_TENSOR 2 /**< one data file per tensor */
#define ONNXSLIM_EXTERNAL_NONE 3       /**< none: every tensor inline (merge) */

/** Also move Constant nodes' value tensors out. */
#define ONNXSLIM_EXTERNAL_CONSTANTS 1u
/** Write the ONNX "checksum" key (SHA-1 of the tensor's bytes, hex). */
#define ONNXSLIM_EXTERNAL_CHECKSUM 2u
/** Move out also small integer tensors that feed shape inputs (Reshape's
 * shape, Unsqueeze axes, Slice starts, ...), which stay inline by default
 * because onnxruntime 1.30 refuses such models ("Cannot parse data from
 * external tensors"). */
#define ONNXSLIM_EXTERNAL_FORCE_SHAPE_INPUTS 4u
/** Allow a model file over 2 GiB (protobuf's limit: most readers refuse it). */
#define ONNXSLIM_EXTERNAL_ALLOW_LARGE 8u
/** Skip fsync of the files and the directory (faster, not crash-safe). */
#define ONNXSLIM_EXTERNAL_NO_FSYNC 16u
/** Keep each tensor's storage form: a tensor goes to the data file exactly
 * when it is stored in external data now, whatever its size (size_threshold
 * and the shape-input rule do not apply). For saving a model with external
 * data into another directory so that it loads on its own (onnxslim_model_save()
 * refuses that). Since 0.1.0. */
#define ONNXSLIM_EXTERNAL_KEEP_STORAGE 32u

/** Current version of onnxslim_external_options. */
#define ONNXSLIM_EXTERNAL_OPTIONS_VERSION 1
/** Default size_threshold and align. */
#define ONNXSLIM_EXTERNAL_DEFAULT_THRESHOLD 1024
#define ONNXSLIM_EXTERNAL_DEFAULT_ALIGN 4096

/** Options for onnxslim_model_save_external(). Fields are only appended. */
typedef struct onnxslim_external_options {
  unsigned int version; /**< ONNXSLIM_EXTERNAL_OPTIONS_VERSION */
  int mode;             /**< ONNXSLIM_EXTERNAL_* mode */
  unsigned int flags;   /**< ONNXSLIM_EXTERNAL_* flags */
  /** Tensors of at least this many bytes go out (0: all). */
  uint64_t size_threshold;
  /** Offsets in data files are multiples of this (power of two; 1 allowed;
   * 0 = ONNXSLIM_EXTERNAL_DEFAULT_ALIGN). */
  uint64_t align;
  /** ONE_FILE: the data file, relative to the model's directory, "/"
   * separated, without ".." (NULL: the model's file name + ".data"); a
   * generation "_N" is inserted before the extension when the model at the
   * destination reads that name (see onnxslim_model_save_external()). */
  const char *location;
} onnxslim_external_options;

#define ONNXSLIM_EXTERNAL_OPTIONS_INIT                                                  \
  {ONNXSLIM_EXTERNAL_OPTIONS_VERSION, ONNXSLIM_EXTERNAL_ONE_FILE, 0,                    \
   ONNXSLIM_EXTERNAL_DEFAULT_THRESHOLD, ONNXSLIM_EXTERNAL_DEFAULT_ALIGN, NULL}

/**
 * Sets *opts to the defaults of the given version.
 * Errors: ONNXSLIM_EINVAL.
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_external_options_init(onnxslim_external_options *opts,
                                                unsigned int version);

/** What happened to each tensor in a save (onnxslim_external_report_entry()). */
#define ONNXSLIM_EXTERNAL_WRITTEN 0       /**< written to a data file */
#define ONNXSLIM_EXTERNAL_BELOW_THRESHOLD 1 /**< inline: smaller than size_threshold */
#define ONNXSLIM_EXTERNAL_SHAPE_INPUT 2   /**< inline: integer tensor feeding a shape input */
#define ONNXSLIM_EXTERNAL_NO_LAYOUT 3     /**< inline: STRING or unknown type */

/** Report of onnxslim_model_save_external(); owned by the caller. */
typedef struct onnxslim_external_report onnxslim_external_report;

/**
 * Saves the model to `path` with tensor data in external files next to it
 * (ONNX keys location, offset, length, and checksum when asked), or - with
 * ONNXSLIM_EXTERNAL_NONE - with every tensor inline, external data included.
 * Initializers of the main graph and of subgraphs are considered, Constant
 * values too with ONNXSLIM_EXTERNAL_CONSTANTS. The model in memory is not
 * changed: the same model can be saved several ways (e.g. the single-file
 * and the external-data variants of the published recipe).
 * Data files are always written anew (never appended to) and every file is
 * written to a temporary file first: the data files and then the model file
 * are renamed into place only when all were written and synced; on failure
 * none of them appears and existing files are left intact.
 * Data files are created beneath the model's directory: a location whose
 * directories lead out of it through a symlink is refused (ONNXSLIM_EINVAL).
 * The save is atomic as a pair: a data file never replaces one that the
 * model at `path` (or this model) reads. Such a name gets its first free
 * generation instead, "_N" before the extension ("out.bin" -> "out_1.bin"),
 * so saving again to one path alternates between two names; the report
 * says which. The model file is renamed last (the commit); then the data
 * files the replaced model read and the new one does not are removed, if
 * their names are ones this save could have written (the location, the
 * default <model>.data, per-tensor names, with or without "_N"). A process
 * killed at any point leaves the complete old or the complete new pair.
 * Generated names never replace an existing file; the location asked for
 * replaces one that no model there reads. Saves to one path from several
 * threads or processes take turns at the commit (a lock on ".<name>.lock"
 * next to it) and never fail because of each other. Temporary files
 * (".<name>.tmp-PID-TID-*", ".bak-", ".journal-") that a killed save left
 * are removed by the next save to the same path. See docs/external-data.md.
 * Bytes that pass through unchanged are copied by the kernel
 * (copy_file_range) where the file systems allow it.
 * *out (may be NULL) receives the report.
 * Errors: ONNXSLIM_EINVAL (bad options or location), ONNXSLIM_ELIMIT (model file
 * over 2 GiB without ONNXSLIM_EXTERNAL_ALLOW_LARGE), ONNXSLIM_EIO, ONNXSLIM_ENOSPC,
 * ONNXSLIM_EMODEL (a tensor whose bytes do not match its dims), ONNXSLIM_ENOMEM.
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_model_save_external(const onnxslim_model *model, const char *path,
                                              const onnxslim_external_options *opts,
                                              onnxslim_external_report **out);

/** Number of tensors the report describes (0 for NULL). @since 0.1.0 */
ONNXSLIM_API size_t onnxslim_external_report_count(const onnxslim_external_report *report);
/**
 * Entry `index`: the tensor's name, what happened (ONNXSLIM_EXTERNAL_WRITTEN or
 * why it stayed inline), and for written tensors the location, offset and
 * length. Strings are borrowed from the report. Any out pointer may be NULL.
 * Errors: ONNXSLIM_EINVAL, ONNXSLIM_ERANGE.
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_external_report_entry(const onnxslim_external_report *report,
                                                size_t index, const char **name, int *status,
                                                const char **location, uint64_t *offset,
                                                uint64_t *length);
/** Bytes copied by the kernel (copy_file_range) during the save. @since 0.1.0 */
ONNXSLIM_API uint64_t onnxslim_external_report_kernel_copied(
    const onnxslim_external_report *report);
/** Frees a report. NULL is a no-op. @since 0.1.0 */
ONNXSLIM_API void onnxslim_external_report_free(onnxslim_external_report *report);

/**
 * A digest of the model that does not depend on where tensor bytes are
 * stored: the graph (every message and field, unknown ones included, in
 * order) and each tensor's data type, dims and contents in raw layout, but
 * not raw_data vs typed fields vs external files, file names, offsets or
 * alignment. Equal for the single-file and external-data variants of a
 * model; different when any weight, node or attribute changes.
 * Writes 32 lowercase hex digits and a NUL to out[0..33) (XXH3-128).
 * Errors: ONNXSLIM_EINVAL, ONNXSLIM_EMODEL (unreadable tensor data), ONNXSLIM_ENOMEM.
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_model_fingerprint(const onnxslim_model *model, char *out);

#ifdef __cplusplus
}
#endif

#endif /* ONNXSLIM_EXTERNAL_H */
