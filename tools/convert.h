/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim (the command) - what `convert`, `split` and `merge` share: their
 * settings, the options they have in common and the work (convert.c); the
 * reports it prints are report.h's.
 */
#ifndef ONNXSLIM_TOOLS_CONVERT_H
#define ONNXSLIM_TOOLS_CONVERT_H

#include <stdint.h>

#include "cli.h"

/* Settings of `convert`, `split` and `merge`, filled by the option handlers
 * and checked by convert_settings_check() once all options are read. */
typedef struct convert_settings {
  /* dtype conversion */
  int32_t gather_to;   /* --gather-to type, 0: none */
  int32_t to;          /* --to type, 0: none */
  const char **select; /* --select specs (borrowed from argv) */
  size_t n_select;
  const char **exclude; /* --exclude specs (borrowed from argv) */
  size_t n_exclude;
  uint64_t min_size;       /* --min-size */
  int policy;              /* ONNXSLIM_POLICY_*, 0: not given */
  unsigned int conv_flags; /* ONNXSLIM_CONVERT_* */
  int force;               /* --force: convert tensors whose values overflow the type too */
  /* quantization (--gather-to/--to int8|int4) */
  uint64_t block_size;      /* --block-size, 0: per row */
  int format;               /* --format: ONNXSLIM_QUANT_FORMAT_* */
  int32_t scale_type;       /* --scales, 0: the table's type */
  unsigned int quant_flags; /* ONNXSLIM_QUANT_ALLOW_UNPACKED, _ASYMMETRIC, _FLOAT_ZERO_POINTS */
  double clip_percentile;   /* --clip-percentile, 0: none */
  int scale_method;         /* --scale-method: ONNXSLIM_QUANT_SCALES_*, 0: the default */
  int zero_point_int;       /* --zero-point int: no float zero points, not even the default's */
  const char *needs_quant;  /* the first option given that needs int8 or int4 */
  /* the first option given that needs --gather-to or --to, and one that
   * needs --external-data (for the usage error) */
  const char *needs_conversion;
  const char *needs_external;
  int report; /* --report */
  int json;   /* --json: the report as JSON */
  /* saving */
  int external;   /* --external-data (always set for split and merge) */
  int per_tensor; /* --per-tensor */
  int mode;       /* ONNXSLIM_LAYOUT_* layout of the external save */
  uint64_t threshold, align;
  const char *location;
  unsigned int ext_flags;  /* ONNXSLIM_SAVE_* flags */
  const char *also_single; /* --also-single-file PATH */
  int toposort;            /* --toposort */
  int no_verify;           /* --no-verify: do not check the model before writing it */
  unsigned int simplify;   /* ONNXSLIM_SIMPLIFY_* passes run before converting; 0: none */
  /* a command's own edit of the model, after the simplification (infer):
   * returns EXIT_SUCCESS or the exit status, having said why; NULL: none */
  int (*edit)(onnxslim_model *model, const char *in, void *payload);
  void *edit_payload;
  uint64_t fold_max_bytes; /* --fold-max-bytes; 0: the library's default */
} convert_settings;

void convert_settings_init(convert_settings *cs);

/* Option handlers for more than one of the commands (ctx: convert_settings). */
int opt_report(void *ctx, const char *value);
int opt_json_report(void *ctx, const char *value);
int opt_threshold(void *ctx, const char *value);
int opt_align(void *ctx, const char *value);
int opt_location(void *ctx, const char *value);
int opt_per_tensor(void *ctx, const char *value);
int opt_checksum(void *ctx, const char *value);
int opt_force_shape_inputs(void *ctx, const char *value);
int opt_toposort(void *ctx, const char *value);
int opt_constants(void *ctx, const char *value);
int opt_allow_large(void *ctx, const char *value);
int opt_verify(void *ctx, const char *value);
int opt_no_verify(void *ctx, const char *value);
int opt_simplify(void *ctx, const char *value);
int opt_external_data(void *ctx, const char *value);

/* Rows of their option tables. */
#define OPT_THRESHOLD                                                                 \
  {                                                                                   \
    "--threshold", "BYTES", opt_threshold,                                            \
        "tensors of at least BYTES go to external data\n(default 1K; 0: all of them)" \
  }
#define OPT_ALIGN                                                                  \
  {                                                                                \
    "--align", "BYTES", opt_align,                                                 \
        "align data offsets to BYTES (a power of two;\ndefault 4K; 1: no padding)" \
  }
#define OPT_LOCATION                                                                             \
  {                                                                                              \
    "--location", "FILE", opt_location,                                                          \
        "data file, relative to OUT's directory\n(default: OUT's file name + .data); when\nOUT " \
        "exists and reads that name, OUT_1.bin\nfor OUT.bin (see Files below)"                   \
  }
#define OPT_PER_TENSOR \
  { "--per-tensor", NULL, opt_per_tensor, "one data file per tensor instead of one file" }
#define OPT_CHECKSUM \
  { "--checksum", NULL, opt_checksum, "write each tensor's SHA-1 checksum key" }
#define OPT_FORCE_SHAPE_INPUTS                            \
  {                                                       \
    "--force-shape-inputs", NULL, opt_force_shape_inputs, \
        "move the inputs onnxruntime reads at load\n"     \
        "(Reshape shape, Resize scales, ...) out\n"       \
        "too; they stay inline by default:\n"             \
        "onnxruntime cannot load them from there"         \
  }
#define OPT_CONSTANTS                                                         \
  {                                                                           \
    "--constants", NULL, opt_constants,                                       \
        "move the tensors of Constant nodes out too\n(by the same threshold)" \
  }
#define OPT_TOPOSORT                                                  \
  {                                                                   \
    "--toposort", NULL, opt_toposort,                                 \
        "sort the nodes topologically first (stable;\nsubgraphs too)" \
  }
#define OPT_ALLOW_LARGE                                                                         \
  {                                                                                             \
    "--allow-large", NULL, opt_allow_large,                                                     \
        "allow a model file over 2 GiB (OUT or the\nsingle-file copy; most readers refuse one)" \
  }
#define OPT_REPORT(what) \
  { "--report", NULL, opt_report, what }
#define OPT_JSON_REPORT                                  \
  {                                                      \
    "--json", NULL, opt_json_report,                     \
        "print the report as JSON (docs/json.md), not\n" \
        "as text"                                        \
  }

/* Checks the combination of options of `convert` once all are read.
 * Returns PARSE_CONTINUE or EXIT_USAGE (reported). */
int convert_settings_check(const command *cmd, convert_settings *cs, const char *out);

/*
 * convert, split and merge: load IN, sort it if asked, apply the conversion
 * once, save OUT as planned, then the single-file variant, then print the
 * reports. Nothing is written before every output path was checked.
 * Returns the exit status.
 */
int convert_model(const char *in, const char *out, const convert_settings *cs);

#endif
