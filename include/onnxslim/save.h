/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - saving a model: to a file, with its tensors where they are,
 * in external data files next to it, or all inline; or to a buffer.
 *
 * Saving writes every message that was not edited as its original bytes
 * (splice on save): an unedited model saves byte for byte identical to its
 * input, and fields this library does not know survive load and save, also
 * inside edited messages. The model in memory is never changed by a save:
 * the same model can be saved several ways (e.g. the single-file and the
 * external-data variants of the published recipe).
 *
 * Loading external data needs nothing from this header: onnxslim_model_open()
 * resolves it (see onnxslim/model.h for the security rules).
 */
#ifndef ONNXSLIM_SAVE_H
#define ONNXSLIM_SAVE_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Where a save puts the tensors' bytes (onnxslim_save_options.layout). @since 0.1.0 */
typedef enum onnxslim_layout {
  /** Where they are: tensors in external data keep their references, the
   * others stay inline. The default. */
  ONNXSLIM_LAYOUT_AS_LOADED = 0,
  /** Tensors of at least size_threshold bytes in one data file. */
  ONNXSLIM_LAYOUT_ONE_FILE = 1,
  /** Tensors of at least size_threshold bytes in one data file each. */
  ONNXSLIM_LAYOUT_PER_TENSOR = 2,
  /** Every tensor inline, external data included (a merge). */
  ONNXSLIM_LAYOUT_INLINE = 3
} onnxslim_layout;

/** Skip fsync of the files and their directories (faster, not crash-safe). */
#define ONNXSLIM_SAVE_NO_FSYNC 1u
/** Allow a model file over 2 GiB (protobuf's limit: most readers refuse it). */
#define ONNXSLIM_SAVE_ALLOW_LARGE 2u
/** Also move the value tensors of Constant nodes out (ONE_FILE, PER_TENSOR). */
#define ONNXSLIM_SAVE_CONSTANTS 4u
/** Write the ONNX "checksum" key: SHA-1 of the tensor's bytes, in hex
 * (ONE_FILE, PER_TENSOR). */
#define ONNXSLIM_SAVE_CHECKSUM 8u
/** Move out also the tensors onnxruntime reads when it loads the model
 * (Reshape's shape, Unsqueeze axes, Slice starts, Resize scales and sizes,
 * Range's start/limit/delta, If's condition, ...: the table of
 * docs/external-data.md, per op and opset), which stay inline by default
 * because onnxruntime 1.30 refuses such models ("Cannot parse data from
 * external tensors"), and the one-element tensors kept inline with them
 * (ONE_FILE, PER_TENSOR). */
#define ONNXSLIM_SAVE_FORCE_SHAPE_INPUTS 16u
/** Keep each tensor's storage form: a tensor goes to a data file exactly
 * when it is stored in external data now, whatever its size (size_threshold
 * and the shape-input rule do not apply). For saving a model with external
 * data into another directory so that it loads on its own (AS_LOADED
 * refuses that) (ONE_FILE, PER_TENSOR). */
#define ONNXSLIM_SAVE_KEEP_STORAGE 32u

/** Current version of onnxslim_save_options: 2 (0.2.0) added progress
 * and progress_payload. */
#define ONNXSLIM_SAVE_OPTIONS_VERSION 2
/** Default size_threshold (bytes). */
#define ONNXSLIM_SAVE_DEFAULT_THRESHOLD 1024
/** Default align (bytes). */
#define ONNXSLIM_SAVE_DEFAULT_ALIGN 4096

/**
 * Options for onnxslim_save(). Initialize with ONNXSLIM_SAVE_OPTIONS_INIT or
 * onnxslim_save_options_init(); NULL options mean the defaults. Fields are
 * only ever appended; `version` tells the library which exist.
 */
typedef struct onnxslim_save_options {
  unsigned int version; /**< ONNXSLIM_SAVE_OPTIONS_VERSION */
  /** ONNXSLIM_SAVE_* flags. CONSTANTS, CHECKSUM, FORCE_SHAPE_INPUTS and
   * KEEP_STORAGE only with the layouts ONE_FILE and PER_TENSOR
   * (ONNXSLIM_EINVAL otherwise); other bits are reserved and must be 0. */
  unsigned int flags;
  int layout; /**< an onnxslim_layout; default ONNXSLIM_LAYOUT_AS_LOADED */
  /** ONE_FILE, PER_TENSOR: tensors of at least this many bytes go out (0: all). */
  uint64_t size_threshold;
  /** ONE_FILE: offsets in the data file are multiples of this (per-tensor
   * files start at 0). A power of two, whatever the layout (1 allowed;
   * 0 = ONNXSLIM_SAVE_DEFAULT_ALIGN). */
  uint64_t align;
  /** ONE_FILE: the data file, relative to the model's directory, "/"
   * separated, without ".." (NULL: the model's file name + ".data"); a
   * generation "_N" is inserted before the extension when the model at the
   * destination reads that name (see onnxslim_save()). INLINE: not used
   * (since 0.2.0 every save removes the data files the replaced model
   * read, whatever their names). Borrowed for the call. Not used by
   * AS_LOADED. */
  const char *location;
  /** Since version 2 (0.2.0). Called as the save goes on (see
   * onnxslim_progress_fn in onnxslim/common.h): total is the bytes the
   * save writes, the data files and the model file (bytes copied by the
   * kernel included). NULL: none. A nonzero return stops the save:
   * ONNXSLIM_ECANCELED, and every file is as it was before the save. */
  onnxslim_progress_fn progress;
  void *progress_payload; /**< since version 2: passed to progress */
} onnxslim_save_options;

#define ONNXSLIM_SAVE_OPTIONS_INIT                                                                \
  {                                                                                               \
    ONNXSLIM_SAVE_OPTIONS_VERSION, 0, ONNXSLIM_LAYOUT_AS_LOADED, ONNXSLIM_SAVE_DEFAULT_THRESHOLD, \
        ONNXSLIM_SAVE_DEFAULT_ALIGN, NULL, NULL, NULL                                             \
  }

/**
 * Sets *opts to the defaults of the given options version, 1 or 2
 * (ONNXSLIM_SAVE_OPTIONS_INIT); only the fields of that version are written,
 * so a caller built against an older header passes its own version.
 * Errors: ONNXSLIM_EINVAL (NULL opts, unknown version: the message names
 * the versions this library knows).
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_save_options_init(onnxslim_save_options *opts, unsigned int version);

/** What a save did with a tensor (onnxslim_save_report_placement()); values
 * never change. The ONNXSLIM_PLACEMENT_* names of 0.1.0 are deprecated
 * aliases (since 0.2.0) of the ONNXSLIM_SAVE_PLACEMENT_* ones.
 * @since 0.1.0 */
typedef enum onnxslim_placement {
  ONNXSLIM_SAVE_PLACEMENT_EXTERNAL = 0,        /**< written to a data file (@since 0.2.0) */
  ONNXSLIM_SAVE_PLACEMENT_BELOW_THRESHOLD = 1, /**< inline: smaller than size_threshold, or
                                                * empty (or INLINE layout, or KEEP_STORAGE and
                                                * inline now) (@since 0.2.0) */
  ONNXSLIM_SAVE_PLACEMENT_SHAPE_INPUT = 2,     /**< inline: read by onnxruntime at load (a shape
                                                * input, Resize scales, ...), or one element equal
                                                * to such a tensor (@since 0.2.0) */
  ONNXSLIM_SAVE_PLACEMENT_NO_LAYOUT = 3,       /**< inline: STRING or unknown type (@since 0.2.0) */
  /** Deprecated (0.2.0): ONNXSLIM_SAVE_PLACEMENT_EXTERNAL. */
  ONNXSLIM_PLACEMENT_EXTERNAL ONNXSLIM_DEPRECATED_ENUMERATOR(
      "use ONNXSLIM_SAVE_PLACEMENT_EXTERNAL") = 0,
  /** Deprecated (0.2.0): ONNXSLIM_SAVE_PLACEMENT_BELOW_THRESHOLD. */
  ONNXSLIM_PLACEMENT_BELOW_THRESHOLD ONNXSLIM_DEPRECATED_ENUMERATOR(
      "use ONNXSLIM_SAVE_PLACEMENT_BELOW_THRESHOLD") = 1,
  /** Deprecated (0.2.0): ONNXSLIM_SAVE_PLACEMENT_SHAPE_INPUT. */
  ONNXSLIM_PLACEMENT_SHAPE_INPUT ONNXSLIM_DEPRECATED_ENUMERATOR(
      "use ONNXSLIM_SAVE_PLACEMENT_SHAPE_INPUT") = 2,
  /** Deprecated (0.2.0): ONNXSLIM_SAVE_PLACEMENT_NO_LAYOUT. */
  ONNXSLIM_PLACEMENT_NO_LAYOUT ONNXSLIM_DEPRECATED_ENUMERATOR(
      "use ONNXSLIM_SAVE_PLACEMENT_NO_LAYOUT") = 3
} onnxslim_placement;

/** Report of onnxslim_save(); owned by the caller (onnxslim_save_report_free()). */
typedef struct onnxslim_save_report onnxslim_save_report;

/**
 * Saves the model to `path`, atomically, with its tensors placed as
 * opts->layout says (opts NULL: the defaults, ONNXSLIM_LAYOUT_AS_LOADED).
 *
 * Every file is written to a temporary file in its destination directory,
 * which is fsync'ed and renamed into place, and the directory is fsync'ed
 * (unless ONNXSLIM_SAVE_NO_FSYNC). On failure no partial output remains and
 * existing files are left intact. Saving over the file the model was loaded
 * from is allowed; the model stays usable afterwards. Before writing, the
 * size is checked against RLIMIT_FSIZE and the free space of the file
 * system, so the process does not receive SIGXFSZ, and against protobuf's
 * 2 GiB limit (unless ONNXSLIM_SAVE_ALLOW_LARGE). `path` naming a directory
 * is refused before anything is written.
 *
 * ONNXSLIM_LAYOUT_AS_LOADED: one file. Tensors stored in external data keep
 * their references, which are relative to the model's base directory: so
 * that the saved file loads on its own, saving such a model into another
 * directory is refused (save it with ONE_FILE and ONNXSLIM_SAVE_KEEP_STORAGE,
 * or INLINE), and so is saving a model whose external data file was
 * replaced or removed since it was loaded (by a save with external data
 * over the model it came from: the references would read another file).
 * The report of an AS_LOADED save has no entries.
 *
 * Whatever the layout, once the new model file is in place the data files
 * that the model it replaced read are removed (since 0.2.0; before, only
 * by saves with external data, and only under names they could have
 * written), except those the new model reads, those another model file of
 * the directory (a file named *.onnx) reads, files named *.onnx, and files
 * that are no longer the very file (device and inode) the replaced model
 * read. No other file is removed.
 *
 * ONE_FILE, PER_TENSOR: tensor data in external files next to the model (ONNX
 * keys location, offset, length, and checksum with ONNXSLIM_SAVE_CHECKSUM);
 * INLINE: every tensor inline, external data included. Initializers of the
 * main graph and of subgraphs are considered, Constant values too with
 * ONNXSLIM_SAVE_CONSTANTS. Data files are always written anew (never
 * appended to); the data files and then the model file are renamed into
 * place only when all were written and synced. Data files are created
 * beneath the model's directory: a location whose directories lead out of
 * it through a symlink is refused (ONNXSLIM_EINVAL).
 * The save is atomic as a pair: a data file never replaces one that the
 * model at `path` (or this model) reads. Such a name gets its first free
 * generation instead, "_N" before the extension ("out.bin" -> "out_1.bin"),
 * so saving again to one path alternates between two names; the report
 * says which. The model file is renamed last (the commit); then the data
 * files the replaced model read and the new one does not are removed (see
 * above). A process killed at any point leaves the complete old or the
 * complete new pair.
 * Generated names never replace an existing file; the location asked for
 * replaces one that no model there reads. Since 0.2.0 a data file that
 * another model file of the directory (a file named *.onnx) reads is never
 * replaced or removed either: the new data takes a free generation of the
 * name, and the other model keeps its data (see docs/external-data.md,
 * "Shared data files", for how it is found and its limits). Bytes that pass through unchanged
 * are copied by the kernel (copy_file_range) where the file systems allow it.
 *
 * Saves to one path from several threads or processes take turns at the
 * commit (a lock on ".<name>.lock" next to it, whatever the layout) and
 * never fail because of each
 * other. Temporary files (".<name>.tmp-PID-TID-*", ".bak-", ".journal-")
 * that a killed save left are removed by the next save to the same path.
 * See docs/external-data.md.
 *
 * On success *out (out may be NULL) receives the report, owned by the
 * caller (free it with onnxslim_save_report_free()); on failure *out is NULL.
 * Errors: ONNXSLIM_EINVAL (NULL model or path, bad options: unknown
 * version, layout or flag, a flag the layout does not take, an alignment
 * that is not a power of two, a bad location; AS_LOADED: external
 * references that would not resolve from path's directory, or to another
 * file), ONNXSLIM_ELIMIT (model file over 2 GiB without
 * ONNXSLIM_SAVE_ALLOW_LARGE), ONNXSLIM_EIO, ONNXSLIM_ENOSPC, ONNXSLIM_EMODEL
 * (a tensor whose bytes do not match its dims), ONNXSLIM_ECANCELED
 * (opts->progress asked to stop; every file is as it was), ONNXSLIM_ENOMEM.
 * Memory: counts against the model's max_memory (onnxslim_load_options),
 * with the model's structure, what the save holds: about 300 bytes and
 * the name (four times) per tensor it considers (its plan, report entry,
 * data file names and encoded storage fields; none for AS_LOADED), and the
 * locations the replaced model and the other models of the directory
 * read; ONNXSLIM_ELIMIT when over, every file as it was (since 0.2.0). The
 * tensor bytes go through bounded buffers (not counted). Linear in the
 * tensors and data files.
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_save(onnxslim_save_report **out, const onnxslim_model *model,
                               const char *path, const onnxslim_save_options *opts);

/**
 * Serialized size in bytes of the model as onnxslim_save_buffer() (or an
 * AS_LOADED save) would write it now.
 * Errors: ONNXSLIM_EINVAL, ONNXSLIM_ELIMIT.
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_save_size(const onnxslim_model *model, uint64_t *size);

/**
 * Saves the model, tensors as loaded, into the caller-owned buffer `buf` of
 * `capacity` bytes. *size (required) receives the serialized size. If buf is
 * NULL or capacity is smaller than needed, nothing is written and
 * ONNXSLIM_EBUFSIZE is returned with *size set to the needed size.
 * Errors: ONNXSLIM_EINVAL, ONNXSLIM_EBUFSIZE, ONNXSLIM_ELIMIT.
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_save_buffer(const onnxslim_model *model, void *buf, size_t capacity,
                                      size_t *size);

/**
 * Serializes the model into the caller-owned buffer `buf` of `capacity`
 * bytes as onnxslim_save() would write the model file with opts (layout
 * ONNXSLIM_LAYOUT_ONE_FILE or _PER_TENSOR), with the tensors that save would
 * move out left out as external data (ONNX keys location, offset, length),
 * and writes no file at all: no data file, no model file. For handing a
 * model to a runtime from memory: the runtime is given, per location, the
 * bytes the report names (e.g. onnxruntime's
 * AddExternalInitializersFromFilesInMemory()). With PER_TENSOR every tensor
 * is at offset 0 of a location of its own, so its bytes are exactly what
 * onnxslim_tensor_data() returns for it: mapped from the file it was loaded
 * from, or for a converted tensor materialized once in memory the model
 * owns; nothing is copied, and those bytes live as long as the model.
 *
 * The tensors chosen, the locations (ONE_FILE: opts->location, NULL meaning
 * "model.data"; PER_TENSOR: a name per tensor), offsets (ONE_FILE: aligned
 * to opts->align) and lengths are those of onnxslim_save() with the same
 * options (flags CONSTANTS, FORCE_SHAPE_INPUTS, KEEP_STORAGE, ALLOW_LARGE
 * apply; NO_FSYNC and progress are not used; locations get no generation
 * "_N", as no file is there to protect). Tensors stored in external data
 * now that stay inline come into the buffer, as with onnxslim_save().
 *
 * *size (required) receives the serialized size; if buf is NULL or
 * capacity is smaller than needed, nothing is written and
 * ONNXSLIM_EBUFSIZE is returned with *size set (call again with a buffer
 * of that size). On success *out (out may be NULL) receives the report,
 * owned by the caller (onnxslim_save_report_free()): per tensor its
 * placement and, for those left out, location, offset and length;
 * onnxslim_save_report_kernel_copied() is 0. On failure *out is NULL.
 * The model is not changed.
 * Errors: ONNXSLIM_EINVAL (NULL model, size or opts; bad options; a layout
 * other than ONE_FILE and PER_TENSOR; flag CHECKSUM, which needs the data
 * written; a bad location), ONNXSLIM_EBUFSIZE, ONNXSLIM_ELIMIT (over 2 GiB
 * without ONNXSLIM_SAVE_ALLOW_LARGE, or larger than a size_t; over the
 * model's max_memory), ONNXSLIM_EMODEL (a tensor kept inline whose bytes
 * do not match its dims), ONNXSLIM_ENOMEM.
 * Memory: what onnxslim_save() holds for its plan and report (about 300
 * bytes and the name four times per tensor it considers), counted against
 * the model's max_memory.
 * @since 0.2.0
 */
ONNXSLIM_API int onnxslim_save_buffer_external(onnxslim_save_report **out,
                                               const onnxslim_model *model, void *buf,
                                               size_t capacity, size_t *size,
                                               const onnxslim_save_options *opts);

/** Number of tensors the report describes (0 for NULL). @since 0.1.0 */
ONNXSLIM_API size_t onnxslim_save_report_count(const onnxslim_save_report *report);
/**
 * Name of tensor `index` (an initializer's name, or the output a Constant's
 * value feeds). Borrowed from the report.
 * NULL on error: ONNXSLIM_EINVAL (NULL report), ONNXSLIM_ERANGE.
 * @since 0.1.0
 */
ONNXSLIM_API const char *onnxslim_save_report_name(const onnxslim_save_report *report,
                                                   size_t index);
/**
 * Where tensor `index` went: an onnxslim_placement (>= 0).
 * Errors (negative): ONNXSLIM_EINVAL (NULL report), ONNXSLIM_ERANGE.
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_save_report_placement(const onnxslim_save_report *report, size_t index);
/**
 * The data file tensor `index` was written to, relative to the model's
 * directory, as the model names it. Borrowed from the report.
 * NULL for a tensor kept inline (no error), and on error: ONNXSLIM_EINVAL
 * (NULL report), ONNXSLIM_ERANGE.
 * @since 0.1.0
 */
ONNXSLIM_API const char *onnxslim_save_report_location(const onnxslim_save_report *report,
                                                       size_t index);
/**
 * Offset of tensor `index` in its data file (0 for a tensor kept inline).
 * Errors: ONNXSLIM_EINVAL (NULL report or out), ONNXSLIM_ERANGE.
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_save_report_offset(const onnxslim_save_report *report, size_t index,
                                             uint64_t *out);
/**
 * Length in bytes of tensor `index` in its data file (0 for a tensor kept
 * inline). Errors: ONNXSLIM_EINVAL (NULL report or out), ONNXSLIM_ERANGE.
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_save_report_length(const onnxslim_save_report *report, size_t index,
                                             uint64_t *out);
/** Bytes copied by the kernel (copy_file_range) during the save (0 for NULL). @since 0.1.0 */
ONNXSLIM_API uint64_t onnxslim_save_report_kernel_copied(const onnxslim_save_report *report);
/** Frees a report. NULL is a no-op. @since 0.1.0 */
ONNXSLIM_API void onnxslim_save_report_free(onnxslim_save_report *report);

#ifdef __cplusplus
}
#endif

#endif /* ONNXSLIM_SAVE_H */
