/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - quantization of a model's weights to INT8 and INT4.
 *
 * onnxslim_quantize() quantizes the embedding tables (tensors read only as
 * input 0 of Gathers) and the MatMul and Gemm weights (read only as input 1
 * of MatMuls, or only as input B of Gemms with one transB) of a model:
 * initializers or values of Constant nodes of the main graph, such a
 * Constant becoming an initializer of its output's name. Each is stored as
 * INT8 or INT4 with a scale per block (and a zero point with
 * ONNXSLIM_QUANT_ASYMMETRIC), and the graph reads it back through standard
 * ONNX operators (DequantizeLinear, or Cast and Mul) or through
 * onnxruntime's own (ONNXSLIM_QUANT_FORMAT_ORT). The guide is
 * docs/quantization.md. The floating-point conversions (BFLOAT16, FLOAT16,
 * ...) are in onnxslim/convert.h.
 *
 * A quantization's report is a conversion report: onnxslim_quant_report is
 * the type onnxslim_convert_report, so the getters of onnxslim/convert.h
 * (onnxslim_convert_report_add_stats() for the saturation counts, ...) take
 * it too; the ones below are the same getters under this module's name,
 * and onnxslim_quant_report_stats() gives what only a quantization has.
 */
#ifndef ONNXSLIM_QUANT_H
#define ONNXSLIM_QUANT_H

#include "common.h"
#include "convert.h"

#ifdef __cplusplus
extern "C" {
#endif

/** onnxslim_quant_options.format: the operators a quantized
 * tensor is read through; values never change. @since 0.2.0 */
typedef enum onnxslim_quant_format {
  /** Standard ONNX operators only: Gather, then DequantizeLinear (or Cast
   * and Mul); DequantizeLinear before a MatMul or a Gemm. */
  ONNXSLIM_QUANT_FORMAT_STANDARD = 0,
  /** onnxruntime's contrib operators (domain com.microsoft):
   * GatherBlockQuantized for tables, MatMulNBits (native layout) for MatMul
   * weights and for Gemm weights whose Gemm it can compute (transA 0, alpha
   * 1, no C or C [N] with beta 1: C becomes its bias; another Gemm is refused
   * with ONNXSLIM_EMODEL, the model unchanged). */
  ONNXSLIM_QUANT_FORMAT_ORT = 1,
  /** INT4 embedding tables in standard operators that keep 4 bits in
   * memory: the table stored as UINT8 [rows, cols / 2], two values a byte
   * (ONNX's nibble order: element 2i in the low nibble; q + 8, or q with
   * ONNXSLIM_QUANT_ASYMMETRIC), only the rows read gathered (with their
   * scales and zero points), then unpacked with Cast, Div, Floor, Mul, Sub,
   * Concat and Reshape (opset 7 or later) and scaled per block. INT8, MatMul
   * and Gemm weights are refused with it (ONNXSLIM_EINVAL). @since 0.2.0 */
  ONNXSLIM_QUANT_FORMAT_NIBBLES = 2
} onnxslim_quant_format;

/** onnxslim_quant_options.flags: below opset 21 (no
 * INT4 type), store INT4-quantized values one per byte as INT8 (UINT8 with
 * ONNXSLIM_QUANT_ASYMMETRIC) instead of refusing. @since 0.2.0 */
#define ONNXSLIM_QUANT_ALLOW_UNPACKED 1u

/** onnxslim_quant_options.flags: asymmetric
 * quantization: per block an unsigned value q (0..255 for INT8, 0..15 for
 * INT4) and a zero point zp, the value read back being (q - zp) * scale;
 * the range of a block always includes 0 (so 0 is exact). The zero points
 * are an initializer of the stored data's type (UINT8, or UINT4 at opset
 * 21) with the scales' shape, named after the tensor with "_zero_point"
 * (GatherBlockQuantized and MatMulNBits: their UINT8 layout, 4-bit zero
 * points two a byte along each row). Tables, MatMul and Gemm weights
 * alike. @since 0.2.0 */
#define ONNXSLIM_QUANT_ASYMMETRIC 2u

/** onnxslim_quant_options.flags: float zero points for MatMulNBits (INT4
 * MatMul and Gemm weights in ONNXSLIM_QUANT_FORMAT_ORT): asymmetric (it
 * implies ONNXSLIM_QUANT_ASYMMETRIC), each block read back as (q - zp) *
 * scale with q 0..15 and a zero point zp of the scales' type (FLOAT or
 * FLOAT16) that need not be an integer, stored as MatMulNBits' zero_points
 * of the scales' type and shape. Each block's scale and zero point are
 * searched for the least squared error: two starts, the block's range
 * with an integer zero point (the scale of ONNXSLIM_QUANT_ASYMMETRIC
 * without the search) and with its float zero point, then from the
 * better of the two up to two rounds of alternating least squares
 * (codes, then the best line through them); a block never reads back
 * worse than with integer zero points and the range's scale (0.3.0 held
 * it against the integer search's result; the total error is lower than
 * with it). Codes are rne(x / scale + zp) clamped to 0..15, computed in
 * double.
 * DequantizeLinear and GatherBlockQuantized take integer zero points only:
 * ONNXSLIM_EINVAL with INT8, another format, a table among the tensors
 * quantized (select the weights, e.g. targets ONNXSLIM_QUANT_WEIGHTS) or
 * clip_percentile. The scales and zero points, 2 x 4 (FLOAT) or 2 x 2
 * bytes a block, are kept in memory from the first pass to the save.
 * ONNXSLIM_QUANT_SCALES_DEFAULT gives INT4 MatMul and Gemm weights in the
 * onnxruntime format these bytes without the flag (and the tables of the
 * same call their absmax scales); the flag itself still refuses a table.
 * @since 0.3.0 */
#define ONNXSLIM_QUANT_FLOAT_ZERO_POINTS 4u

/** onnxslim_quant_options.targets: the embedding tables (tensors read only
 * as input 0 of Gathers). @since 0.2.0 */
#define ONNXSLIM_QUANT_TABLES 1u
/** onnxslim_quant_options.targets: the MatMul and Gemm weights (read only
 * as input 1 of MatMuls, or only as input B of Gemms of one transB).
 * @since 0.2.0 */
#define ONNXSLIM_QUANT_WEIGHTS 2u

/** onnxslim_quant_options.report_flags: skip the statistics pass of the
 * report (onnxslim_quant_stats then has the counts, and 0 for the errors
 * and scales); the same value as ONNXSLIM_CONVERT_REPORT_NO_STATS.
 * @since 0.2.0 */
#define ONNXSLIM_QUANT_REPORT_NO_STATS 1u

/** onnxslim_quant_options.scale_method (version 2): how each block's
 * scale (and, asymmetric, zero point) is chosen; values never change.
 * @since 0.3.0 */
typedef enum onnxslim_quant_scale_method {
  /** The default, chosen per kind of tensor from what was measured
   * (docs/quantization.md): INT4 MatMul and Gemm weights in
   * ONNXSLIM_QUANT_FORMAT_ORT get float zero points, as with
   * ONNXSLIM_QUANT_FLOAT_ZERO_POINTS (closer than absmax and than
   * onnxruntime's own 4-bit quantizer, RTN and HQQ, on every weight and
   * logits measured, in about absmax's time), unless flags has
   * ONNXSLIM_QUANT_ASYMMETRIC (integer zero points asked for) or
   * clip_percentile is set; everything else, the tables of the same call
   * among them, ONNXSLIM_QUANT_SCALES_ABSMAX (the search reads a table
   * back closer but its logits no better, and it costs several times the
   * conversion's time on a large table). Since 0.3.0; a caller of options
   * version 1 gets ONNXSLIM_QUANT_SCALES_ABSMAX, 0.2.0's bytes. */
  ONNXSLIM_QUANT_SCALES_DEFAULT = 0,
  /** From the block's largest magnitude (asymmetric: its range), the
   * smallest scale with which no value saturates: codes -qmax..qmax
   * (asymmetric 0..Q), rounded to nearest, half to even (0.2.0's rule). */
  ONNXSLIM_QUANT_SCALES_ABSMAX = 1,
  /** A search per block for the least squared error of the values read
   * back: the absmax scale (asymmetric: the range, with its scale and zero
   * point by the absmax rule) times the factors 1 - k * step (step 0.05 for
   * INT4, 0.01 for INT8; k = 0..5) and qmax / (qmax + 1), then refined
   * around the best by half and a quarter of a step; symmetric codes may
   * then also take -(qmax + 1) (-8, -128), and values beyond the range
   * saturate (counted in onnxslim_quant_stats.saturated). Symmetric
   * candidates are negative when the block's value of largest magnitude is
   * positive (so that value may take -(qmax + 1), as onnxruntime's own
   * 4-bit quantizer does): a stored scale may be negative, which
   * DequantizeLinear, GatherBlockQuantized and MatMulNBits read as any
   * other. A candidate is kept only when its
   * squared error, computed as DequantizeLinear reads it back, is below
   * that of the absmax scale, so no block reads back worse than with
   * ONNXSLIM_QUANT_SCALES_ABSMAX. Deterministic: the same bytes on every
   * machine and run. With clip_percentile set, the clip rule chooses the
   * scales instead (no search). */
  ONNXSLIM_QUANT_SCALES_MSE = 2
} onnxslim_quant_scale_method;

/** Current version of onnxslim_quant_options: 2 (0.3.0) added
 * scale_method. @since 0.2.0 */
#define ONNXSLIM_QUANT_OPTIONS_VERSION 2

/**
 * What onnxslim_quantize() quantizes and how. Fields are only appended;
 * `version` tells the library which exist.
 * Selection: a table or weight of a kind in `targets` (FLOAT or FLOAT16, of
 * rank 2) is quantized when it matches an entry of select[0..n_select) (a
 * name, a glob or op:TYPE[:INDEX], as onnxslim_convert_options.select) or
 * n_select is 0, its byte size is at least min_size, and it matches no
 * entry of exclude[0..n_exclude). A select entry that matches no such
 * tensor fails the call with ONNXSLIM_ENOTFOUND naming it; finding nothing
 * without a selection is not an error (an empty report).
 */
typedef struct onnxslim_quant_options {
  unsigned int version;       /**< ONNXSLIM_QUANT_OPTIONS_VERSION */
  int32_t to;                 /**< ONNXSLIM_DTYPE_INT8 (the default) or ONNXSLIM_DTYPE_INT4 */
  unsigned int targets;       /**< ONNXSLIM_QUANT_TABLES and/or ONNXSLIM_QUANT_WEIGHTS (default:
                                   both); other bits are reserved and must be 0, and 0 is refused */
  unsigned int flags;         /**< 0, or ONNXSLIM_QUANT_ALLOW_UNPACKED, ONNXSLIM_QUANT_ASYMMETRIC,
                                   ONNXSLIM_QUANT_FLOAT_ZERO_POINTS (0.3.0); other bits are
                                   reserved and must be 0 */
  const char *const *select;  /**< selection specs (borrowed for the call) */
  size_t n_select;            /**< entries of select; 0: every table and weight of `targets` */
  const char *const *exclude; /**< specs of tensors never quantized (borrowed for the call) */
  size_t n_exclude;           /**< entries of exclude */
  uint64_t min_size;          /**< minimum byte size of a tensor quantized */
  int format;                 /**< an onnxslim_quant_format value (default STANDARD) */
  /** Elements
   * per block along a table's row or along K of a weight (a power of two, at
   * least 16, for ONNXSLIM_QUANT_FORMAT_ORT; even for INT4; it must divide
   * the row or K), 0 (the default): one block per row or output column,
   * but for ONNXSLIM_QUANT_FORMAT_ORT onnxruntime's own default, 128 (or,
   * for a row or K that 128 does not divide, the largest of 64, 32, 16 that
   * does; the report's onnxslim_quant_stats.block_size says which). */
  uint64_t block_size;
  /** The type of the scales, ONNXSLIM_DTYPE_FLOAT or _FLOAT16;
   * 0 (the default): the tensor's own type. A quantization reads the
   * selected tensors once before changing anything: with a report with
   * statistics (out not NULL, no ONNXSLIM_QUANT_REPORT_NO_STATS) that
   * pass computes onnxslim_quant_stats, else it only checks that every value
   * is finite (the report's errors are then 0). */
  int32_t scale_type;
  /** 0 (the default): no clipping, each block's scale is chosen
   * from its largest magnitude so that no value saturates. Otherwise a
   * percentile p, 0 < p < 100, of the magnitudes of each quantized tensor:
   * cap = the k-th smallest |x| over all of the tensor's n values (+0 and -0
   * alike), k = ceil(n * p9 / 100) with p9 = p rounded half to even to 9
   * decimal places, computed exactly in integers, at least 1: the
   * nearest-rank percentile (numpy's percentile(|x|, p,
   * method="inverted_cdf"), which computes n * (p / 100) in double
   * precision, gives the same k except where that rounds across an integer,
   * e.g. 999.0000000000001 for 99.9% of 1000). Each block's scale is then
   * chosen by the same rule from min(block's largest magnitude, cap) instead
   * of its largest magnitude (a block not all zeros whose range is 0, when
   * cap is 0, gets the smallest positive scale), and a value x with |x /
   * scale| >= qmax + 0.5 saturates to +-qmax (127 or 7). With
   * ONNXSLIM_QUANT_ASYMMETRIC a block's range is cut to [-cap, cap] before
   * its scale and zero point are chosen, and a value whose rne(x / scale) +
   * zero point falls outside 0..Q (255 or 15) saturates to 0 or Q. The
   * statistics pass counts them in onnxslim_quant_stats.saturated (and
   * onnxslim_convert_stats.saturated), and its errors include theirs. The
   * cap costs one more read of each FLOAT16 tensor and two of each FLOAT one
   * (histograms of the bits of |x|, in flat memory), done only when
   * clip_percentile is not 0, before the statistics pass; the progress
   * callback's total counts these reads too. Errors: ONNXSLIM_EINVAL for a
   * value outside (0, 100) (NaN included). */
  double clip_percentile;
  unsigned int report_flags; /**< 0 or ONNXSLIM_QUANT_REPORT_NO_STATS; other bits are reserved
                                  and must be 0 */
  /** Called as the quantization reads the tensors (see onnxslim_progress_fn
   * in onnxslim/common.h): total is the bytes of the selected tensors times
   * the passes over them. NULL: none. A nonzero return stops the
   * quantization before it changes the model: ONNXSLIM_ECANCELED, the model
   * unchanged. */
  onnxslim_progress_fn progress;
  void *progress_payload; /**< passed to progress */
  /** Version 2 (0.3.0): an onnxslim_quant_scale_method value; a caller of
   * version 1 gets ONNXSLIM_QUANT_SCALES_ABSMAX (0.2.0's scales, also for
   * INT4 MatMulNBits weights). Errors: ONNXSLIM_EINVAL for another value. */
  int scale_method;
} onnxslim_quant_options;

/** The defaults of onnxslim_quant_options, for a declaration. @since 0.2.0 */
#define ONNXSLIM_QUANT_OPTIONS_INIT                                                             \
  {                                                                                             \
    ONNXSLIM_QUANT_OPTIONS_VERSION, ONNXSLIM_DTYPE_INT8,                                        \
        ONNXSLIM_QUANT_TABLES | ONNXSLIM_QUANT_WEIGHTS, 0, NULL, 0, NULL, 0, 0,                 \
        ONNXSLIM_QUANT_FORMAT_STANDARD, 0, 0, 0.0, 0, NULL, NULL, ONNXSLIM_QUANT_SCALES_DEFAULT \
  }

/**
 * Sets *opts to the defaults of the given version (INT8, tables and
 * weights, everything selected, nothing excluded, the standard format, one
 * block per row or column, the tensor's own scale type, no flags, no
 * clipping, a report with statistics, no progress callback, the default
 * scale method); only the
 * fields of that version are written.
 * Errors: ONNXSLIM_EINVAL (NULL opts, unknown version).
 * @since 0.2.0
 */
ONNXSLIM_API int onnxslim_quant_options_init(onnxslim_quant_options *opts, unsigned int version);

/** The report of onnxslim_quantize(): the type onnxslim_convert_report, one
 * entry per quantized tensor. Owned by the caller; release with
 * onnxslim_quant_report_free(). It holds copies of the names and does not
 * refer to the model. @since 0.2.0 */
typedef struct onnxslim_convert_report onnxslim_quant_report;

/**
 * Quantizes the selected tables and weights of `model` to opts->to (see
 * onnxslim_quant_options and docs/quantization.md). opts NULL means the
 * defaults (ONNXSLIM_QUANT_OPTIONS_INIT); opts is borrowed for the call.
 * Every selected tensor is checked and read (its values must be finite)
 * before anything changes: a refusal leaves the model as it was.
 * Ownership: out may be NULL (no report; the statistics pass is then
 * skipped). Otherwise, on success *out is a new report OWNED by the
 * caller, one entry per quantized tensor (free it with
 * onnxslim_quant_report_free()); on failure *out is NULL.
 * Errors: ONNXSLIM_EINVAL (NULL model; unknown options version; a `to`
 * other than INT8 or INT4; targets 0 or with reserved bits; reserved bits in
 * flags or report_flags; an unknown format; a scale_type other than 0,
 * FLOAT and FLOAT16; a block size of 1, odd for INT4, or for
 * ONNXSLIM_QUANT_FORMAT_ORT not a power of two of at least 16; a
 * clip_percentile outside (0, 100); ONNXSLIM_QUANT_FORMAT_NIBBLES with INT8
 * or a weight; an unknown scale_method; ONNXSLIM_QUANT_FLOAT_ZERO_POINTS other than with INT4,
 * the onnxruntime format and no clipping, or with a table selected; bad selection or exclusion
 * spec; a tensor whose rows or K the block size does not divide; a value that is not finite),
 * ONNXSLIM_ENOTFOUND (a select entry matches no tensor that can be quantized; the model is
 * unchanged), ONNXSLIM_EMODEL (the opset does not allow the result: INT4 and blocks in the standard
 * format need opset 21, unless ONNXSLIM_QUANT_ALLOW_UNPACKED for INT4; a Gemm MatMulNBits cannot
 * compute; a tensor whose bytes cannot be read), ONNXSLIM_ECANCELED (opts->progress asked to stop;
 * the model is unchanged), ONNXSLIM_ENOMEM (the model may then be partly quantized).
 * @since 0.2.0
 */
ONNXSLIM_API int onnxslim_quantize(onnxslim_quant_report **out, onnxslim_model *model,
                                   const onnxslim_quant_options *opts);

/* ---- the report: onnxslim_quant_report_count() entries, one getter per
 * field. Strings are borrowed from the report, valid until it is freed.   */

/** Number of quantized tensors in the report (0 for NULL), as
 * onnxslim_convert_report_count(). Never fails. @since 0.2.0 */
ONNXSLIM_API size_t onnxslim_quant_report_count(const onnxslim_quant_report *report);

/**
 * The value name of entry `index`, borrowed from the report; as
 * onnxslim_convert_report_name(). Returns NULL (ONNXSLIM_EINVAL for a NULL
 * report, ONNXSLIM_ERANGE for an index out of range) on error.
 * @since 0.2.0
 */
ONNXSLIM_API const char *onnxslim_quant_report_name(const onnxslim_quant_report *report,
                                                    size_t index);

/**
 * The data type of entry `index` before the quantization (FLOAT or
 * FLOAT16). Returns ONNXSLIM_DTYPE_UNDEFINED and sets the last error
 * (ONNXSLIM_EINVAL, ONNXSLIM_ERANGE) on bad arguments.
 * @since 0.2.0
 */
ONNXSLIM_API int32_t onnxslim_quant_report_from(const onnxslim_quant_report *report, size_t index);

/**
 * The data type entry `index` is stored in after the quantization (INT8,
 * INT4, UINT8 or UINT4, as the format and flags give); as
 * onnxslim_quant_report_from().
 * @since 0.2.0
 */
ONNXSLIM_API int32_t onnxslim_quant_report_to(const onnxslim_quant_report *report, size_t index);

/**
 * *out receives the byte size of entry `index` before the quantization.
 * Errors: ONNXSLIM_EINVAL (NULL report or out), ONNXSLIM_ERANGE; *out is
 * then unchanged.
 * @since 0.2.0
 */
ONNXSLIM_API int onnxslim_quant_report_bytes_before(const onnxslim_quant_report *report,
                                                    size_t index, uint64_t *out);

/**
 * *out receives the byte size of entry `index` after the quantization (the
 * quantized values with their scales and zero points); as
 * onnxslim_quant_report_bytes_before().
 * @since 0.2.0
 */
ONNXSLIM_API int onnxslim_quant_report_bytes_after(const onnxslim_quant_report *report,
                                                   size_t index, uint64_t *out);

/** Current version of onnxslim_quant_stats. @since 0.2.0 */
#define ONNXSLIM_QUANT_STATS_VERSION 1

/**
 * What quantizing one tensor to INT8 or INT4 did , as
 * onnxslim_quant_report_stats() gives it. A "row" is an embedding table's row, or a block of a
 * MatMul or Gemm weight (along K, in one output column); the errors compare the dequantized values
 * (q * scale, computed in FP32 as DequantizeLinear does) with the original ones. Fields are only
 * ever appended. @since 0.2.0
 */
typedef struct onnxslim_quant_stats {
  unsigned int version;     /**< ONNXSLIM_QUANT_STATS_VERSION */
  int bits;                 /**< 8 or 4 */
  uint64_t block_size;      /**< elements per block (one scale each) */
  uint64_t rows;            /**< rows of the tensor */
  uint64_t blocks;          /**< blocks, i.e. scales */
  uint64_t saturated;       /**< values clamped to +-qmax, i.e. |x / scale| >= qmax + 0.5:
                                 0 unless onnxslim_quant_options.clip_percentile is set
                                 (else the scales are chosen so that nothing saturates) */
  double scale_min;         /**< smallest scale stored (its magnitude: the scale search's
                                 symmetric scales may be negative, since 0.3.0) */
  double scale_max;         /**< largest scale stored (its magnitude, as scale_min) */
  double max_abs_error;     /**< max |dequantized - original| over all values */
  double max_row_rel_error; /**< max over rows of ||dequantized - original||_2 / ||original||_2
                                 (a row of zeros has error 0) */
  uint64_t rows_over_1pct;  /**< rows whose relative error (as above) exceeds 0.01 */
} onnxslim_quant_stats;

/** An empty onnxslim_quant_stats of the current version. @since 0.2.0 */
#define ONNXSLIM_QUANT_STATS_INIT \
  { ONNXSLIM_QUANT_STATS_VERSION, 0, 0, 0, 0, 0, 0.0, 0.0, 0.0, 0.0, 0 }

/**
 * Copies the quantization statistics of entry `index` to *stats (the
 * fields of stats->version, which the caller sets to
 * ONNXSLIM_QUANT_STATS_VERSION). The entries of a floating-point
 * conversion's report (onnxslim_convert_model()) have none:
 * ONNXSLIM_ENOTFOUND.
 * Errors: ONNXSLIM_EINVAL (NULL report or stats, unknown stats->version),
 * ONNXSLIM_ERANGE, ONNXSLIM_ENOTFOUND; *stats is then unchanged.
 * @since 0.2.0
 */
ONNXSLIM_API int onnxslim_quant_report_stats(const onnxslim_quant_report *report, size_t index,
                                             onnxslim_quant_stats *stats);

/** Frees a report and its strings, as onnxslim_convert_report_free(). NULL
 * is a no-op. @since 0.2.0 */
ONNXSLIM_API void onnxslim_quant_report_free(onnxslim_quant_report *report);

#ifdef __cplusplus
}
#endif

#endif /* ONNXSLIM_QUANT_H */
