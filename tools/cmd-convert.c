/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim (the command) - `libonnxslim convert IN OUT`: convert tensor types, save.
 */
#include <errno.h>
#include <float.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"
#include "convert.h"

static const name_value float_types[] = {
    {"bf16", ONNXSLIM_DTYPE_BFLOAT16},
    {"bfloat16", ONNXSLIM_DTYPE_BFLOAT16},
    {"fp16", ONNXSLIM_DTYPE_FLOAT16},
    {"float16", ONNXSLIM_DTYPE_FLOAT16},
    {"fp32", ONNXSLIM_DTYPE_FLOAT},
    {"float32", ONNXSLIM_DTYPE_FLOAT},
    {"float", ONNXSLIM_DTYPE_FLOAT},
    {"fp64", ONNXSLIM_DTYPE_DOUBLE},
    {"float64", ONNXSLIM_DTYPE_DOUBLE},
    {"double", ONNXSLIM_DTYPE_DOUBLE},
    {NULL, 0},
};

static const name_value policies[] = {
    {"cast-after-gather", ONNXSLIM_CONVERT_POLICY_CAST_AFTER_GATHER},
    {"cast-before", ONNXSLIM_CONVERT_POLICY_CAST_BEFORE},
    {"storage-only", ONNXSLIM_CONVERT_POLICY_STORAGE_ONLY},
    {NULL, 0},
};

static const name_value int_types[] = {
    {"int8", ONNXSLIM_DTYPE_INT8},
    {"int4", ONNXSLIM_DTYPE_INT4},
    {NULL, 0},
};

static const name_value formats[] = {
    {"standard", ONNXSLIM_QUANT_FORMAT_STANDARD},
    {"ort", ONNXSLIM_QUANT_FORMAT_ORT},
    {"nibbles", ONNXSLIM_QUANT_FORMAT_NIBBLES},
    {NULL, 0},
};

static const name_value scale_types[] = {
    {"fp32", ONNXSLIM_DTYPE_FLOAT},
    {"fp16", ONNXSLIM_DTYPE_FLOAT16},
    {NULL, 0},
};

static const name_value scale_methods[] = {
    {"absmax", ONNXSLIM_QUANT_SCALES_ABSMAX},
    {"mse", ONNXSLIM_QUANT_SCALES_MSE},
    {NULL, 0},
};

static int opt_gather_to(void *ctx, const char *value) {
  convert_settings *cs = ctx;
  int t;
  if (lookup_name(int_types, value, &t) != 0 &&
      (lookup_name(float_types, value, &t) != 0 ||
       (t != ONNXSLIM_DTYPE_BFLOAT16 && t != ONNXSLIM_DTYPE_FLOAT16)))
    return bad_value("--gather-to", "unknown type '%s' (expected bf16, fp16, int8 or int4)", value);
  cs->gather_to = t;
  return 0;
}

static int opt_to(void *ctx, const char *value) {
  convert_settings *cs = ctx;
  int t;
  if (lookup_name(float_types, value, &t) != 0 && lookup_name(int_types, value, &t) != 0)
    return bad_value("--to", "unknown type '%s' (expected bf16, fp16, fp32, fp64, int8 or int4)",
                     value);
  cs->to = t;
  return 0;
}

static int opt_block_size(void *ctx, const char *value) {
  convert_settings *cs = ctx;
  if (!cs->needs_quant) cs->needs_quant = "--block-size";
  return parse_bytes("--block-size", value, &cs->block_size);
}

static int opt_format(void *ctx, const char *value) {
  convert_settings *cs = ctx;
  if (lookup_name(formats, value, &cs->format) != 0)
    return bad_value("--format", "unknown format '%s' (expected standard, ort or nibbles)", value);
  if (!cs->needs_quant) cs->needs_quant = "--format";
  return 0;
}

static int opt_scales(void *ctx, const char *value) {
  convert_settings *cs = ctx;
  int t;
  if (lookup_name(scale_types, value, &t) != 0)
    return bad_value("--scales", "unknown type '%s' (expected fp32 or fp16)", value);
  cs->scale_type = t;
  if (!cs->needs_quant) cs->needs_quant = "--scales";
  return 0;
}

static int opt_scale_method(void *ctx, const char *value) {
  convert_settings *cs = ctx;
  if (lookup_name(scale_methods, value, &cs->scale_method) != 0)
    return bad_value("--scale-method", "unknown method '%s' (expected mse or absmax)", value);
  if (!cs->needs_quant) cs->needs_quant = "--scale-method";
  return 0;
}

/* A percentile in decimal form only: digits with at most one '.', at least
 * one digit (strtod would also take a sign, spaces, hex, exponents, inf
 * and nan); its value a normal double above 0 and below 100. */
static int opt_clip_percentile(void *ctx, const char *value) {
  convert_settings *cs = ctx;
  size_t digits = 0, dots = 0, others = 0;
  for (const char *c = value; *c; c++) {
    if (*c >= '0' && *c <= '9') digits++;
    else if (*c == '.') dots++;
    else others++;
  }
  if (digits == 0 || dots > 1 || others)
    return bad_value("--clip-percentile",
                     "'%s' is not a decimal number (digits and at most one '.', e.g. 99.9)", value);
  errno = 0;
  char *end = NULL;
  double p = strtod(value, &end);
  if (end == value || *end || !(p > 0 && p < 100))
    return bad_value("--clip-percentile", "'%s' is not a percentile above 0 and below 100", value);
  if (errno == ERANGE || p < DBL_MIN)
    return bad_value("--clip-percentile",
                     "'%s' is too small: below the smallest normal double (%g), it would be "
                     "rounded",
                     value, DBL_MIN);
  cs->clip_percentile = p;
  if (!cs->needs_quant) cs->needs_quant = "--clip-percentile";
  return 0;
}

static int opt_allow_unpacked(void *ctx, const char *value) {
  convert_settings *cs = ctx;
  (void)value;
  cs->quant_flags |= ONNXSLIM_QUANT_ALLOW_UNPACKED;
  if (!cs->needs_quant) cs->needs_quant = "--allow-unpacked";
  return 0;
}

static int opt_asymmetric(void *ctx, const char *value) {
  convert_settings *cs = ctx;
  (void)value;
  cs->quant_flags |= ONNXSLIM_QUANT_ASYMMETRIC;
  if (!cs->needs_quant) cs->needs_quant = "--asymmetric";
  return 0;
}

static int opt_zero_point(void *ctx, const char *value) {
  convert_settings *cs = ctx;
  if (strcasecmp(value, "float") == 0) {
    cs->quant_flags |= ONNXSLIM_QUANT_FLOAT_ZERO_POINTS;
    cs->zero_point_int = 0;
  } else if (strcasecmp(value, "int") == 0) {
    cs->quant_flags &= ~ONNXSLIM_QUANT_FLOAT_ZERO_POINTS;
    cs->zero_point_int = 1;
  } else return bad_value("--zero-point", "unknown kind '%s' (expected float or int)", value);
  if (!cs->needs_quant) cs->needs_quant = "--zero-point";
  return 0;
}

static int opt_select(void *ctx, const char *value) {
  convert_settings *cs = ctx;
  if (!value[0]) return bad_value("--select", "empty selection");
  cs->select = xrealloc((void *)cs->select, (cs->n_select + 1) * sizeof *cs->select);
  cs->select[cs->n_select++] = value;
  return 0;
}

static int opt_exclude(void *ctx, const char *value) {
  convert_settings *cs = ctx;
  if (!value[0]) return bad_value("--exclude", "empty selection");
  cs->exclude = xrealloc((void *)cs->exclude, (cs->n_exclude + 1) * sizeof *cs->exclude);
  cs->exclude[cs->n_exclude++] = value;
  if (!cs->needs_conversion) cs->needs_conversion = "--exclude";
  return 0;
}

static int opt_min_size(void *ctx, const char *value) {
  convert_settings *cs = ctx;
  if (!cs->needs_conversion) cs->needs_conversion = "--min-size";
  return parse_bytes("--min-size", value, &cs->min_size);
}

static int opt_policy(void *ctx, const char *value) {
  convert_settings *cs = ctx;
  if (lookup_name(policies, value, &cs->policy) != 0)
    return bad_value(
        "--policy", "unknown policy '%s' (expected cast-after-gather, cast-before or storage-only)",
        value);
  if (!cs->needs_conversion) cs->needs_conversion = "--policy";
  return 0;
}

static int opt_round(void *ctx, const char *value) {
  convert_settings *cs = ctx;
  if (strcasecmp(value, "nearest") == 0) cs->conv_flags &= ~ONNXSLIM_CONVERT_TRUNCATE;
  else if (strcasecmp(value, "truncate") == 0) cs->conv_flags |= ONNXSLIM_CONVERT_TRUNCATE;
  else return bad_value("--round", "unknown rounding '%s' (expected nearest or truncate)", value);
  if (!cs->needs_conversion) cs->needs_conversion = "--round";
  return 0;
}

static int opt_saturate(void *ctx, const char *value) {
  convert_settings *cs = ctx;
  (void)value;
  cs->conv_flags |= ONNXSLIM_CONVERT_SATURATE;
  if (!cs->needs_conversion) cs->needs_conversion = "--saturate";
  return 0;
}

static int opt_flush_subnormals(void *ctx, const char *value) {
  convert_settings *cs = ctx;
  (void)value;
  cs->conv_flags |= ONNXSLIM_CONVERT_FLUSH_SUBNORMALS;
  if (!cs->needs_conversion) cs->needs_conversion = "--flush-subnormals";
  return 0;
}

static int opt_force(void *ctx, const char *value) {
  convert_settings *cs = ctx;
  (void)value;
  cs->force = 1;
  if (!cs->needs_conversion) cs->needs_conversion = "--force";
  return 0;
}

static int opt_also_single_file(void *ctx, const char *value) {
  convert_settings *cs = ctx;
  if (!value[0]) return bad_value("--also-single-file", "empty path");
  cs->also_single = value;
  return 0;
}

static const option_spec convert_options[] = {
    {"--gather-to", "TYPE", opt_gather_to,
     "the published recipe: store each Gather table\n"
     "(input 0 of a Gather) as TYPE (bf16 or fp16)\n"
     "and add a Cast back after each Gather; int8 or\n"
     "int4: quantize the tables (symmetric, a scale\n"
     "per row or block; docs/quantization.md)"},
    {"--to", "TYPE", opt_to,
     "convert floating-point tensors to TYPE (bf16,\n"
     "fp16, fp32, fp64): the --select ones, or all;\n"
     "bf16 needs a model at opset 13 or later; int8,\n"
     "int4: quantize the selected Gather tables and\n"
     "MatMul and Gemm weights (docs/quantization.md)"},
    {"--block-size", "N", opt_block_size,
     "with int8/int4: one scale per N values of a row\n"
     "(default: one per row, 128 with --format ort as\n"
     "onnxruntime's own default; blocks need opset 21\n"
     "in the standard format)"},
    {"--format", "FORMAT", opt_format,
     "with int8/int4: standard (ONNX ops: Gather then\n"
     "DequantizeLinear, or Cast and Mul; default) or\n"
     "ort (com.microsoft.GatherBlockQuantized and\n"
     "MatMulNBits), or nibbles (int4 tables: UINT8\n"
     "pairs gathered, then unpacked with ONNX ops)"},
    {"--scales", "TYPE", opt_scales,
     "with int8/int4: the scales' type, fp32 or fp16\n"
     "(default: the table's)"},
    {"--scale-method", "METHOD", opt_scale_method,
     "with int8/int4: absmax (from each block's\n"
     "largest magnitude, nothing saturates) or mse\n"
     "(per block, the scale of least squared error\n"
     "among shrunk ones; slower); default: absmax,\n"
     "but int4 MatMul and Gemm weights with --format\n"
     "ort get float zero points (see --zero-point)"},
    {"--clip-percentile", "P", opt_clip_percentile,
     "with int8/int4: each block's range is at most\n"
     "the P-th percentile (0 < P < 100, nearest\n"
     "rank) of the tensor's |x|; values beyond\n"
     "saturate, counted by --report (default: no\n"
     "clipping, nothing saturates)"},
    {"--allow-unpacked", NULL, opt_allow_unpacked,
     "with int4 below opset 21: store the 4-bit\n"
     "values one per byte as INT8 (else refused)"},
    {"--asymmetric", NULL, opt_asymmetric,
     "with int8/int4: unsigned values and a zero\n"
     "point per block (min..max with 0 included)\n"
     "instead of symmetric -max..max"},
    {"--zero-point", "KIND", opt_zero_point,
     "with int4 and --format ort: float (asymmetric,\n"
     "zero points of the scales' type, searched per\n"
     "block: closer; MatMulNBits only, so --to then\n"
     "quantizes the MatMul and Gemm weights only)\n"
     "or int (no float zero points: absmax, integer\n"
     "zero points with --asymmetric); default: float\n"
     "for the weights, without --asymmetric,\n"
     "--scale-method or --clip-percentile"},
    {"--select", "SPEC", opt_select,
     "with --to: a tensor name, a glob (* ? [...]),\n"
     "or op:TYPE[:INDEX] (tensors that nodes of that\n"
     "op type read, at that input); repeatable; a\n"
     "SPEC matching no convertible tensor is an error"},
    {"--exclude", "SPEC", opt_exclude,
     "never convert the tensors SPEC matches (same\n"
     "syntax as --select); repeatable"},
    {"--min-size", "BYTES", opt_min_size, "convert only tensors of at least BYTES"},
    {"--policy", "POLICY", opt_policy,
     "how the graph is fixed up: cast-after-gather\n"
     "(default: Cast after a Gather, before any other\n"
     "consumer), cast-before, storage-only (no Cast:\n"
     "only the stored type changes; where a node\n"
     "other than a Cast reads the tensor, runtimes\n"
     "refuse the model, and a warning says so)"},
    {"--round", "MODE", opt_round,
     "nearest (default, ties to even) or truncate\n"
     "(to bf16 only; the published recipe truncates)"},
    {"--force", NULL, opt_force,
     "also convert tensors with values out of TYPE's\n"
     "range (e.g. a variance of 9.8e7 in fp16): they\n"
     "become Inf (or saturate); by default such a\n"
     "tensor keeps its type and a note names it"},
    {"--saturate", NULL, opt_saturate,
     "with --force: overflow gives the largest finite\n"
     "value, not Inf (values that become Inf or\n"
     "saturate are reported on stderr; values flushed\n"
     "to 0 are counted by --report)"},
    {"--flush-subnormals", NULL, opt_flush_subnormals, "subnormal results become zero"},
    OPT_REPORT("print what was converted (per tensor: types,\n"
               "elements, bytes, Inf/saturated/flushed/NaN\n"
               "counts, max errors), where tensors went, and\n"
               "the files written"),
    {"--external-data", NULL, opt_external_data,
     "save OUT with tensor data in an external file;\n"
     "the options below up to --force-shape-inputs\n"
     "need it"},
    OPT_THRESHOLD,
    OPT_ALIGN,
    OPT_LOCATION,
    OPT_PER_TENSOR,
    OPT_CHECKSUM,
    OPT_FORCE_SHAPE_INPUTS,
    OPT_CONSTANTS,
    {"--also-single-file", "PATH", opt_also_single_file,
     "also save the model with every tensor inline\nto PATH"},
    OPT_ALLOW_LARGE,
    OPT_TOPOSORT,
    {"--simplify", NULL, opt_simplify,
     "simplify the model first (every pass of the\n"
     "simplify command; --report lists what changed)"},
    {"--verify", NULL, opt_verify,
     "check the converted model before writing it, and\n"
     "write nothing if it fails a check IN passed\n(the default)"},
    {"--no-verify", NULL, opt_no_verify,
     "write the converted model unchecked (a storage-only\n"
     "conversion the schemas refuse is still refused)"},
    OPT_JSON_REPORT,
    {NULL, NULL, NULL, NULL},
};

static int run_convert(const command *cmd, int argc, char **argv) {
  convert_settings cs;
  const char *pos[2];
  size_t npos;
  int rc;

  convert_settings_init(&cs);
  rc = parse_args(cmd, &cs, argc, argv, pos, 2, &npos);
  if (rc == PARSE_CONTINUE && npos != 2) rc = usage_error("%s: expected %s", cmd->name, cmd->args);
  if (rc == PARSE_CONTINUE) rc = convert_settings_check(cmd, &cs, pos[1]);
  if (rc == PARSE_CONTINUE) rc = convert_model(pos[0], pos[1], &cs);
  free((void *)cs.select);
  free((void *)cs.exclude);
  return rc;
}

const command cmd_convert = {"convert", "IN OUT",
                             "load IN, convert tensor types, save it as OUT;\n"
                             "without options OUT is a byte-for-byte copy of IN.\n"
                             "The published recipe (BF16 embedding table, all\n"
                             "tensors in OUT.bin, plus a single-file copy):\n"
                             "  convert IN OUT --gather-to bf16 --round truncate\n"
                             "    --external-data --threshold 0 --location OUT.bin\n"
                             "    --also-single-file OUT_single.onnx\n"
                             "A --select SPEC matching nothing is an error (exit 1,\n"
                             "nothing written); --gather-to, or --to without\n"
                             "--select, finding nothing to convert is not (exit 0,\n"
                             "OUT a copy, a note on stderr, --report says 0).",
                             convert_options, run_convert};
