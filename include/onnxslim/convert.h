/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - numeric conversion kernels between FLOAT (IEEE binary32,
 * "FP32"), FLOAT16 (IEEE binary16, "FP16"), BFLOAT16 ("BF16": the top 16
 * bits of a binary32) and DOUBLE (IEEE binary64, "FP64").
 *
 * These functions convert arrays of values in memory. They never allocate,
 * never keep a pointer, touch no global state (but the choice of SIMD code
 * below, made once) and may be called from any number of threads at once (a
 * stats object must not be shared by threads running at the same time). Values are in host byte
 * order (ONNX raw_data is little-endian, as are the hosts this library is built for). dst and src
 * must not overlap. The library does not rely on dst or src being aligned, so they may point into a
 * mapped file at any offset. FP16 and BF16 values are passed as their 16-bit patterns in uint16_t.
 *
 * Speed: on x86-64 the functions run SIMD code for the widest instruction
 * set the CPU has (AVX-512 with AVX-512 BF16, or AVX2 with F16C), chosen
 * once, at the first conversion; elsewhere portable C. Every choice gives
 * the same bytes and the same stats. The environment variable
 * LIBONNXSLIM_KERNELS=scalar|avx2|avx512|neon|neon-bf16, read at that first
 * conversion, forces a choice (one the CPU lacks falls back to the widest it
 * has below it; one of another architecture is ignored); it is meant for
 * comparing them. On arm64 the choice is NEON, with ARMv8.6 BF16 where the
 * CPU has it (neon-bf16), else neon. Large outputs are written with
 * non-temporal stores (they bypass the caches).
 *
 * Numeric policy (the same for every function):
 *   - Rounding: round to nearest, ties to even (IEEE 754 roundTiesToEven),
 *     unless ONNXSLIM_CONVERT_TRUNCATE asks for truncation. Results do not
 *     depend on the caller's floating-point environment (rounding mode,
 *     flush-to-zero or denormals-are-zero modes): the FP32->FP16/BF16 and
 *     FP16/BF16 kernels work on bit patterns, and the FP64->FP32 kernel
 *     detects a non-default environment and then uses an integer path.
 *   - NaN stays NaN: the result is a quiet NaN with the input's sign and the
 *     top payload bits that fit (the quiet bit is set, the lowest payload bits
 *     are dropped when narrowing). Rounding never turns a NaN into Inf, also
 *     under truncation. Widening conversions keep the whole payload (and also
 *     set the quiet bit, so every NaN the library produces is quiet).
 *   - +-Inf stays +-Inf, also with ONNXSLIM_CONVERT_SATURATE.
 *   - Signed zero is kept: -0.0 converts to -0.0.
 *   - Overflow: a finite value whose rounded result is too large for the
 *     destination becomes +-Inf, as IEEE 754 specifies. For FP16 that is every
 *     |x| >= 65520 (the midpoint between the largest finite FP16, 65504, and
 *     65536 rounds to even, i.e. up). With ONNXSLIM_CONVERT_SATURATE such
 *     values become the largest finite value of the destination with the
 *     input's sign instead: +-65504 for FP16, +-3.3895314e38 (0x7F7F) for
 *     BF16, +-FLT_MAX for FP32. For BF16, only FP32 values within half a BF16
 *     step of FLT_MAX (|x| >= 0x7F7F8000 as FP32 bits) overflow; truncation
 *     never overflows.
 *   - Subnormal results are kept (gradual underflow), and values smaller than
 *     half the smallest subnormal round to signed zero. With
 *     ONNXSLIM_CONVERT_FLUSH_SUBNORMALS a result that is subnormal after
 *     rounding becomes zero with the input's sign (a value that rounds up to
 *     the smallest normal number is kept). Subnormal inputs are never
 *     flushed: the flag applies to results only.
 *   - Widening conversions (FP16, BF16 -> FP32; FP32 -> FP64) are exact and
 *     take no flags.
 *
 * Flags (bitwise OR; every other bit is reserved and must be 0):
 *   - ONNXSLIM_CONVERT_TRUNCATE is accepted only by the conversions to BF16
 *     (onnxslim_convert_f32_to_bf16(), onnxslim_convert_f16_to_bf16()); the
 *     other functions fail with ONNXSLIM_EINVAL when it is set.
 *   - ONNXSLIM_CONVERT_SATURATE and ONNXSLIM_CONVERT_FLUSH_SUBNORMALS are
 *     accepted by every narrowing function; where no result can overflow or
 *     be subnormal (FP16 -> BF16) they change nothing.
 *
 * Errors: a function fails only with ONNXSLIM_EINVAL, when dst or src is
 * NULL while n > 0, when a reserved or inapplicable flag is set, or when
 * stats->version is unknown; it then writes nothing and sets the last-error
 * message. n == 0 with NULL pointers is a successful no-op.
 */
#ifndef ONNXSLIM_CONVERT_H
#define ONNXSLIM_CONVERT_H

#include "common.h"
#include "tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

/** FP32 -> BF16: keep the top 16 bits (round toward zero) instead of rounding to nearest even. */
#define ONNXSLIM_CONVERT_TRUNCATE 0x1u
/** Finite values that would overflow to +-Inf become +-(largest finite value) instead. */
#define ONNXSLIM_CONVERT_SATURATE 0x2u
/** Results that are subnormal after rounding become zero with the input's sign. */
#define ONNXSLIM_CONVERT_FLUSH_SUBNORMALS 0x4u

/** Current version of onnxslim_convert_stats. */
#define ONNXSLIM_CONVERT_STATS_VERSION 1

/**
 * What a conversion did. Pass one to a narrowing function to get a report;
 * pass NULL to skip the bookkeeping (the fast path then does no extra work).
 *
 * The counters ACCUMULATE: each call adds to them and raises the maxima, so a
 * tensor converted chunk by chunk with the same stats object gets one report
 * for the whole tensor. Initialize with ONNXSLIM_CONVERT_STATS_INIT or
 * onnxslim_convert_stats_init() before the first call, and again to start a
 * new report. Fields are only ever appended; `version` tells the library
 * which exist.
 *
 * Every input is counted in `count` and in at most one of `nan`, `to_inf`,
 * or the group of finite values with finite results; a value of that group
 * may be counted in `saturated` or `flushed` too.
 */
typedef struct onnxslim_convert_stats {
  unsigned int version; /**< ONNXSLIM_CONVERT_STATS_VERSION */
  uint64_t count;       /**< elements converted */
  uint64_t to_inf;      /**< finite inputs whose result is +-Inf (overflow without SATURATE) */
  uint64_t saturated;   /**< finite inputs that would have overflowed to +-Inf and became
                             +-(largest finite value) because of SATURATE */
  uint64_t flushed;     /**< nonzero finite inputs whose result is +-0: values that underflow
                             (round to zero) and, with FLUSH_SUBNORMALS, subnormal results
                             that were flushed */
  uint64_t nan;         /**< NaN inputs (their results are NaN) */
  double max_abs_error; /**< max |result - input| over finite inputs with finite results */
  double max_rel_error; /**< max |result - input| / |input| over the same inputs, skipping
                             zero inputs; 1.0 for a flushed value */
} onnxslim_convert_stats;

#define ONNXSLIM_CONVERT_STATS_INIT \
  { ONNXSLIM_CONVERT_STATS_VERSION, 0, 0, 0, 0, 0, 0.0, 0.0 }

/**
 * Sets *stats to an empty report of the given stats version (all counters
 * and maxima 0).
 * Errors: ONNXSLIM_EINVAL if stats is NULL or version is unknown.
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_convert_stats_init(onnxslim_convert_stats *stats, unsigned int version);

/**
 * Converts n FP32 values to BF16, rounding to nearest even (or truncating
 * with ONNXSLIM_CONVERT_TRUNCATE). Flags: TRUNCATE, SATURATE,
 * FLUSH_SUBNORMALS. stats may be NULL; when given, it accumulates.
 * dst and src are the caller's and are not kept; they must not overlap.
 * Errors: ONNXSLIM_EINVAL (NULL dst/src with n > 0, reserved flag bits,
 * unknown stats->version); nothing is written then.
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_convert_f32_to_bf16(uint16_t *dst, const float *src, size_t n,
                                              unsigned int flags, onnxslim_convert_stats *stats);

/**
 * Converts n FP32 values to FP16, rounding to nearest even; |x| >= 65520
 * gives +-Inf, or +-65504 with ONNXSLIM_CONVERT_SATURATE. Flags: SATURATE,
 * FLUSH_SUBNORMALS (TRUNCATE is refused). stats may be NULL; when given, it
 * accumulates. dst and src are the caller's and are not kept; they must not
 * overlap.
 * Errors: ONNXSLIM_EINVAL (NULL dst/src with n > 0, TRUNCATE or reserved
 * flag bits, unknown stats->version); nothing is written then.
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_convert_f32_to_f16(uint16_t *dst, const float *src, size_t n,
                                             unsigned int flags, onnxslim_convert_stats *stats);

/**
 * Converts n BF16 values to FP32 (exact). dst and src are the caller's and
 * are not kept; they must not overlap.
 * Errors: ONNXSLIM_EINVAL (NULL dst/src with n > 0).
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_convert_bf16_to_f32(float *dst, const uint16_t *src, size_t n);

/**
 * Converts n FP16 values to FP32 (exact, subnormals included). dst and src
 * are the caller's and are not kept; they must not overlap.
 * Errors: ONNXSLIM_EINVAL (NULL dst/src with n > 0).
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_convert_f16_to_f32(float *dst, const uint16_t *src, size_t n);

/**
 * Converts n FP64 values to FP32, rounding to nearest even (what a C cast
 * does in the default floating-point environment, whatever the caller's
 * environment is); overflow gives +-Inf, or +-FLT_MAX with
 * ONNXSLIM_CONVERT_SATURATE. Flags: SATURATE, FLUSH_SUBNORMALS (TRUNCATE is
 * refused). stats may be NULL; when given, it accumulates. May raise the
 * floating-point status flags (inexact, overflow, underflow) as a cast does.
 * dst and src are the caller's and are not kept; they must not overlap.
 * Errors: ONNXSLIM_EINVAL (NULL dst/src with n > 0, TRUNCATE or reserved
 * flag bits, unknown stats->version); nothing is written then.
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_convert_f64_to_f32(float *dst, const double *src, size_t n,
                                             unsigned int flags, onnxslim_convert_stats *stats);

/**
 * Converts n FP32 values to FP64 (exact, subnormals included). dst and src
 * are the caller's and are not kept; they must not overlap.
 * Errors: ONNXSLIM_EINVAL (NULL dst/src with n > 0).
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_convert_f32_to_f64(double *dst, const float *src, size_t n);

/**
 * Converts n FP16 values to BF16, rounding to nearest even (or truncating
 * with ONNXSLIM_CONVERT_TRUNCATE). Every FP16 value is in BF16's normal
 * range, so only precision is lost (BF16 keeps 8 significant bits, FP16 11):
 * nothing overflows or underflows. Flags: TRUNCATE, SATURATE and
 * FLUSH_SUBNORMALS (the last two change nothing). stats may be NULL; when
 * given, it accumulates. dst and src are the caller's and are not kept; they
 * must not overlap.
 * Errors: ONNXSLIM_EINVAL (NULL dst/src with n > 0, reserved flag bits,
 * unknown stats->version); nothing is written then.
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_convert_f16_to_bf16(uint16_t *dst, const uint16_t *src, size_t n,
                                              unsigned int flags, onnxslim_convert_stats *stats);

/**
 * Converts n BF16 values to FP16, rounding to nearest even: the same result
 * as converting the (exact) FP32 value of each BF16 to FP16, with the same
 * overflow (|x| >= 65520) and subnormal rules. Flags: SATURATE,
 * FLUSH_SUBNORMALS (TRUNCATE is refused). stats may be NULL; when given, it
 * accumulates. dst and src are the caller's and are not kept; they must not
 * overlap.
 * Errors: ONNXSLIM_EINVAL (NULL dst/src with n > 0, TRUNCATE or reserved
 * flag bits, unknown stats->version); nothing is written then.
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_convert_bf16_to_f16(uint16_t *dst, const uint16_t *src, size_t n,
                                              unsigned int flags, onnxslim_convert_stats *stats);

/* ---- converting a model's initializers ------------------------------------------ *
 * Built on the kernels above. The conversion is a pending transform of each
 * selected tensor: its bytes are converted chunk by chunk while the model is
 * saved, so converting never holds a second copy of the weights. Reading a
 * converted tensor with onnxslim_tensor_data() materializes it once.        */

/** Consumer policies (onnxslim_convert_options.policy); values never change.
 * The ONNXSLIM_POLICY_* names of 0.1.0 are deprecated aliases (since 0.2.0)
 * of the ONNXSLIM_CONVERT_POLICY_* ones, with the same values. */
typedef enum onnxslim_convert_policy {
  /** Where the tensor is input 0 of a Gather (an embedding table), the Gather
   * reads the converted table and a Cast back to the original type follows
   * it, taking over the Gather's output name (the published recipe); any
   * other consumer gets a Cast before it, as with
   * ONNXSLIM_CONVERT_POLICY_CAST_BEFORE. @since 0.2.0 */
  ONNXSLIM_CONVERT_POLICY_CAST_AFTER_GATHER = 1,
  /** One Cast from the new type back to the original feeds all consumers.
   * @since 0.2.0 */
  ONNXSLIM_CONVERT_POLICY_CAST_BEFORE = 2,
  /** Only the stored type and bytes change; the graph is not fixed up. The
   * nodes that read a converted tensor see the new type: a conversion after
   * which one of them (or a node its type reaches) would violate its schema
   * is refused (see onnxslim_convert_model()). @since 0.2.0 */
  ONNXSLIM_CONVERT_POLICY_STORAGE_ONLY = 3,
  /** Deprecated (0.2.0): ONNXSLIM_CONVERT_POLICY_CAST_AFTER_GATHER. @since 0.1.0 */
  ONNXSLIM_POLICY_CAST_AFTER_GATHER ONNXSLIM_DEPRECATED_ENUMERATOR(
      "use ONNXSLIM_CONVERT_POLICY_CAST_AFTER_GATHER") = 1,
  /** Deprecated (0.2.0): ONNXSLIM_CONVERT_POLICY_CAST_BEFORE. @since 0.1.0 */
  ONNXSLIM_POLICY_CAST_BEFORE ONNXSLIM_DEPRECATED_ENUMERATOR(
      "use ONNXSLIM_CONVERT_POLICY_CAST_BEFORE") = 2,
  /** Deprecated (0.2.0): ONNXSLIM_CONVERT_POLICY_STORAGE_ONLY. @since 0.1.0 */
  ONNXSLIM_POLICY_STORAGE_ONLY ONNXSLIM_DEPRECATED_ENUMERATOR(
      "use ONNXSLIM_CONVERT_POLICY_STORAGE_ONLY") = 3
} onnxslim_convert_policy;

/** onnxslim_convert_options.report_flags: skip the statistics pass of the
 * report; its entries then carry names, types, sizes and element counts, and
 * zero for the other statistics. */
#define ONNXSLIM_CONVERT_REPORT_NO_STATS 1u

/** Current version of onnxslim_convert_options: 2 added exclude/n_exclude,
 * 3 added report_flags, 4 (0.2.0) added progress/progress_payload, 5
 * (0.2.0) added overflow. (The quantization to INT8 and INT4 has options
 * of its own: onnxslim_quantize() in onnxslim/quant.h.) */
#define ONNXSLIM_CONVERT_OPTIONS_VERSION 5

/** onnxslim_convert_options.overflow (version 5): what a floating-point
 * conversion does with a tensor some finite value of which is out of the
 * range of `to` (it would become +-Inf, or with ONNXSLIM_CONVERT_SATURATE
 * the largest finite value of `to`: e.g. a BatchNorm variance of 9.8e7
 * becomes Inf, or 65504, in FLOAT16). Values never change. @since 0.2.0 */
typedef enum onnxslim_convert_overflow {
  /** The default: such a tensor is not converted. It stays in its type,
   * with its readers, and the report lists it among the kept tensors
   * (onnxslim_convert_report_kept_count()) with what converting it would
   * have done. Deciding costs a read of every tensor whose conversion can
   * overflow (FLOAT, DOUBLE or BFLOAT16 to FLOAT16, DOUBLE to FLOAT, FLOAT
   * or DOUBLE to BFLOAT16 unless truncating), the statistics pass the
   * report makes anyway (with ONNXSLIM_CONVERT_REPORT_NO_STATS, or out
   * NULL, it is made for this alone). Rounding (a relative error of at most
   * 2^-11 for FLOAT16 normal results, 2^-8 for BFLOAT16, 2^-24 for FLOAT),
   * and values too small for the normal range that become subnormal or
   * zero (an absolute error below the smallest normal value of `to`: 6.1e-5
   * for FLOAT16) do not keep a tensor: they are counted in the report
   * (onnxslim_convert_stats.flushed). */
  ONNXSLIM_CONVERT_OVERFLOW_KEEP = 0,
  /** Convert every selected tensor (the behaviour before 0.2.0): values out
   * of range become +-Inf, or saturate with ONNXSLIM_CONVERT_SATURATE. */
  ONNXSLIM_CONVERT_OVERFLOW_CONVERT = 1
} onnxslim_convert_overflow;

/**
 * What onnxslim_convert_model() converts and how. Fields are only appended;
 * a caller built against version 1 (without exclude and n_exclude), 2
 * (without report_flags) or 3 (without progress) keeps working, and the
 * library reads only the fields its version has (the others take their
 * defaults).
 * Selection: a tensor (initializer or Constant node value, in the main graph
 * or any subgraph) of a floating type with a kernel to `to` is converted
 * when it matches any entry of select[0..n_select) - an exact name, a glob
 * (fnmatch(3): *, ?, [...]), or a consumer spec "op:TYPE" / "op:TYPE:INDEX"
 * (some node of that op_type reads it, at that input index) - or when
 * n_select is 0 (all floating-point tensors); its byte size is at least
 * min_size; and it matches no entry of exclude[0..n_exclude) (same syntax).
 * Every select entry must match at least one tensor of a floating type with
 * a kernel to `to` (before min_size and exclude are applied), else the call
 * fails with ONNXSLIM_ENOTFOUND naming the entry: a misspelt name or an
 * op type the model lacks is an error, not a silent no-op. An exclude entry
 * that matches nothing is not an error, nor is finding nothing to convert
 * without a selection (n_select 0: all of a kind): the call succeeds with
 * an empty report.
 */
typedef struct onnxslim_convert_options {
  unsigned int version; /**< ONNXSLIM_CONVERT_OPTIONS_VERSION */
  int32_t to;           /**< target type: ONNXSLIM_DTYPE_BFLOAT16, _FLOAT16, _FLOAT, _DOUBLE */
  int policy;           /**< an onnxslim_convert_policy value */
  unsigned int flags;   /**< kernel flags: ONNXSLIM_CONVERT_TRUNCATE, _SATURATE, _FLUSH_SUBNORMALS;
                             other bits are reserved and must be 0 */
  const char *const *select; /**< selection specs (borrowed for the call) */
  size_t n_select;
  uint64_t min_size; /**< minimum byte size before conversion */
  const char *const
      *exclude;     /**< version 2: specs of tensors never converted (borrowed for the call) */
  size_t n_exclude; /**< version 2 */
  unsigned int report_flags; /**< version 3: 0 or ONNXSLIM_CONVERT_REPORT_NO_STATS; other bits
                                  are reserved and must be 0 */
  /** Version 4 (0.2.0): called as the conversion goes on (see
   * onnxslim_progress_fn in onnxslim/common.h). total is the bytes of the
   * selected tensors the statistics pass reads (0 when there is no such
   * pass: out NULL or ONNXSLIM_CONVERT_REPORT_NO_STATS; the conversion
   * itself happens as the model is saved, followed by that save's
   * progress). NULL: none. A nonzero return stops the conversion before it
   * changes the model: ONNXSLIM_ECANCELED, the model unchanged. */
  onnxslim_progress_fn progress;
  void *progress_payload; /**< version 4: passed to progress */
  /** Version 5 (0.2.0): an onnxslim_convert_overflow value, ONNXSLIM_CONVERT_OVERFLOW_KEEP
   * (0, the default: a tensor whose values do not fit `to` is kept in its
   * type) or ONNXSLIM_CONVERT_OVERFLOW_CONVERT (convert it anyway). A caller of an
   * earlier version gets the default. Errors: ONNXSLIM_EINVAL for another
   * value. */
  int overflow;
} onnxslim_convert_options;

#define ONNXSLIM_CONVERT_OPTIONS_INIT                                                     \
  {                                                                                       \
    ONNXSLIM_CONVERT_OPTIONS_VERSION, ONNXSLIM_DTYPE_BFLOAT16,                            \
        ONNXSLIM_CONVERT_POLICY_CAST_AFTER_GATHER, 0, NULL, 0, 0, NULL, 0, 0, NULL, NULL, \
        ONNXSLIM_CONVERT_OVERFLOW_KEEP                                                    \
  }

/**
 * Sets *opts to the defaults of the given version, 1 to 5 (BF16,
 * cast-after-gather, round to nearest even, everything selected, nothing
 * excluded, a report with statistics, no progress callback, tensors that
 * would overflow kept); only the fields of that version are written.
 * Errors: ONNXSLIM_EINVAL (NULL opts, unknown version).
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_convert_options_init(onnxslim_convert_options *opts,
                                               unsigned int version);

/** Per-tensor report of a conversion. Owned by the caller (it comes through
 * the leading `out` of onnxslim_convert_model() and
 * onnxslim_convert_gather_tables()); release with
 * onnxslim_convert_report_free(). It holds copies of the names and does not
 * refer to the model. */
typedef struct onnxslim_convert_report onnxslim_convert_report;

/**
 * Converts the selected tensors of `model` and fixes the graph up by the
 * policy: Casts are inserted with onnxslim_insert_cast_after() (fresh names
 * end in _bf16, _fp16, _fp32 ...), and the element types of value infos of
 * affected values (graph inputs, outputs, value_info) are updated.
 * opts NULL means the defaults (ONNXSLIM_CONVERT_OPTIONS_INIT: every
 * floating-point tensor to BF16, cast after gather); opts is borrowed for
 * the call.
 * Every selected tensor is checked before anything changes: a tensor whose
 * bytes cannot be read (a size mismatch) fails the call with the model
 * unchanged. Tensors in external data are converted from their mapped
 * files; after conversion they are stored inline (raw_data) until a save
 * with external data moves them out again.
 * Ownership: out may be NULL (no report). Otherwise, on success *out is a
 * new report OWNED by the caller, one entry per converted tensor (free it
 * with onnxslim_convert_report_free()), and the tensors kept in their type
 * (onnxslim_convert_report_kept_count()); on failure *out is NULL.
 * Overflow: by default (opts->overflow ONNXSLIM_CONVERT_OVERFLOW_KEEP) a selected
 * tensor with a finite value out of the range of `to` is not converted
 * (see onnxslim_convert_overflow); ONNXSLIM_CONVERT_OVERFLOW_CONVERT converts it.
 * The report's numeric statistics cost one extra read of the selected
 * tensors; with ONNXSLIM_CONVERT_REPORT_NO_STATS in opts->report_flags (or
 * out NULL) that pass is skipped.
 * Opsets: a conversion the model's ai.onnx opset (its opset_import of ""
 * or "ai.onnx"; none counts as 0, or 1 for IR versions before 3) does not
 * allow is refused with ONNXSLIM_EMODEL before anything changes, and the
 * message names the opset needed and the one imported: `to` BFLOAT16 needs
 * opset 13 (Cast, Gather, Constant and most other ops accept bfloat16 from
 * opset 13), and the policies that insert Casts need opset 6 (the integer
 * `to` attribute of Cast). FLOAT16, FLOAT and DOUBLE are accepted by Cast,
 * Gather and Constant at every opset.
 * Schemas: with ONNXSLIM_CONVERT_POLICY_STORAGE_ONLY the readers of a converted
 * tensor see the new type. Before anything changes, the schema check of
 * onnxslim_check() runs as if the selected tensors (and the value infos
 * naming them) had type `to`, following types through the nodes; a
 * type_constraint problem the model does not have as it is (e.g. a MatMul
 * reading FLOAT16 and FLOAT, a Gather whose output is recorded as FLOAT)
 * refuses the conversion with ONNXSLIM_EMODEL, the model unchanged, and the
 * message "storage-only conversion to T refused: ...: LOCATION: MESSAGE
 * [type_constraint]" of the first new problem (with the number of the
 * others). A storage-only conversion whose result passes that check (the
 * tensors read only by ops whose constraint takes `to`, or every input tied
 * to one constraint converted together) is done. A domain imported at an
 * opset newer than the schema tables is not checked (as onnxslim_check()).
 * The Casts the other policies insert are checked against the schemas
 * (onnxslim_insert_cast_after()), so no policy makes a model fail a
 * type_constraint check it passed.
 * Errors: ONNXSLIM_EINVAL (NULL model; unknown options version, policy,
 * reserved bits in flags or report_flags; ONNXSLIM_CONVERT_TRUNCATE with a
 * `to` other than BFLOAT16; bad selection or exclusion spec),
 * ONNXSLIM_EUNSUPPORTED (no kernel to `to`; INT8 and INT4: quantize with
 * onnxslim_quantize()), ONNXSLIM_ENOTFOUND (a select
 * entry matches no convertible tensor; the model is unchanged),
 * ONNXSLIM_EMODEL (the opsets above; a storage-only conversion the schemas
 * refuse; a tensor whose bytes cannot be read),
 * ONNXSLIM_ECANCELED (opts->progress asked to stop; the model is unchanged),
 * ONNXSLIM_ENOMEM (the model may then be partly converted), ONNXSLIM_ELIMIT
 * (below; the model is unchanged).
 * Memory: counts against the model's max_memory (onnxslim_load_options),
 * with the model's structure (which the Casts and transforms it adds
 * grow), what the conversion holds while it selects and checks: about 100
 * bytes and a name per candidate tensor (its report entry), 200 per
 * initializer and node when quantizing, its maps, and the schema check of
 * a storage-only conversion (as onnxslim_check()); ONNXSLIM_ELIMIT when
 * over, before anything changes (since 0.2.0). The converted bytes are
 * produced by the save, a chunk at a time (not counted: bounded).
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_convert_model(onnxslim_convert_report **out, onnxslim_model *model,
                                        const onnxslim_convert_options *opts);

/**
 * The published recipe in one call, a shorthand for
 * onnxslim_convert_gather_tables_with() with the default options but `to`,
 * min_size and flags: every tensor read as input 0 of a Gather (an
 * embedding table) of at least min_size bytes is converted to `to`
 * (ONNXSLIM_DTYPE_BFLOAT16 or _FLOAT16) with a Cast after each Gather.
 * flags: kernel flags, as onnxslim_convert_options.flags. Ownership of *out
 * (may be NULL) and errors as onnxslim_convert_model(); a model without such
 * a table fails with ONNXSLIM_ENOTFOUND (unchanged).
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_convert_gather_tables(onnxslim_convert_report **out,
                                                onnxslim_model *model, int32_t to,
                                                uint64_t min_size, unsigned int flags);

/**
 * Converts every Gather table (a tensor read as input 0 of a Gather) that
 * opts selects as onnxslim_convert_model() does with the selection
 * "op:Gather:0": opts->to, policy, flags, min_size, exclude, report_flags,
 * progress and overflow apply; opts->n_select must be 0. opts NULL means
 * the defaults (BFLOAT16, a Cast after each Gather: the published recipe);
 * opts is borrowed for the call. A model without such a table fails with
 * ONNXSLIM_ENOTFOUND and a message that says so (the model unchanged);
 * INT8 and INT4 are refused with ONNXSLIM_EUNSUPPORTED (onnxslim_quantize()
 * with ONNXSLIM_QUANT_TABLES quantizes the tables).
 * Ownership: as onnxslim_convert_model(): on success *out (out may be NULL)
 * is a new report owned by the caller, freed with
 * onnxslim_convert_report_free(); on failure *out is NULL.
 * Errors: ONNXSLIM_EINVAL (n_select not 0; the errors of
 * onnxslim_convert_model()), ONNXSLIM_EUNSUPPORTED, ONNXSLIM_ENOTFOUND,
 * ONNXSLIM_EMODEL, ONNXSLIM_ECANCELED, ONNXSLIM_ENOMEM, as
 * onnxslim_convert_model().
 * @since 0.2.0
 */
ONNXSLIM_API int onnxslim_convert_gather_tables_with(onnxslim_convert_report **out,
                                                     onnxslim_model *model,
                                                     const onnxslim_convert_options *opts);

/* ---- the report: onnxslim_convert_report_count() entries, one getter per
 * field. Strings are borrowed from the report, valid until it is freed.   */

/** Number of converted tensors in the report (0 for NULL). Never fails. @since 0.1.0 */
ONNXSLIM_API size_t onnxslim_convert_report_count(const onnxslim_convert_report *report);

/**
 * The value name of entry `index` (the initializer's name, or the output of
 * the Constant node), borrowed from the report.
 * Returns NULL (ONNXSLIM_EINVAL for a NULL report, ONNXSLIM_ERANGE for an
 * index out of range) on error.
 * @since 0.1.0
 */
ONNXSLIM_API const char *onnxslim_convert_report_name(const onnxslim_convert_report *report,
                                                      size_t index);

/**
 * The data type of entry `index` before the conversion (ONNXSLIM_DTYPE_*).
 * Returns ONNXSLIM_DTYPE_UNDEFINED and sets the last error
 * (ONNXSLIM_EINVAL, ONNXSLIM_ERANGE) on bad arguments.
 * @since 0.1.0
 */
ONNXSLIM_API int32_t onnxslim_convert_report_from(const onnxslim_convert_report *report,
                                                  size_t index);

/**
 * The data type of entry `index` after the conversion; as
 * onnxslim_convert_report_from().
 * @since 0.1.0
 */
ONNXSLIM_API int32_t onnxslim_convert_report_to(const onnxslim_convert_report *report,
                                                size_t index);

/**
 * *out receives the byte size of entry `index` before the conversion.
 * Errors: ONNXSLIM_EINVAL (NULL report or out), ONNXSLIM_ERANGE; *out is
 * then unchanged.
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_convert_report_bytes_before(const onnxslim_convert_report *report,
                                                      size_t index, uint64_t *out);

/**
 * *out receives the byte size of entry `index` after the conversion; as
 * onnxslim_convert_report_bytes_before().
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_convert_report_bytes_after(const onnxslim_convert_report *report,
                                                     size_t index, uint64_t *out);

/**
 * ADDS the numeric statistics of entry `index` to *stats, as the kernels do:
 * the counters (count, to_inf, saturated, flushed, nan) are added and the
 * maxima (max_abs_error, max_rel_error) raised. Initialize *stats with
 * ONNXSLIM_CONVERT_STATS_INIT or onnxslim_convert_stats_init() first; calls
 * for several entries give their totals. stats is the caller's and is not
 * kept. An entry made without the statistics pass
 * (ONNXSLIM_CONVERT_REPORT_NO_STATS) adds its element count only.
 * Errors: ONNXSLIM_EINVAL (NULL report or stats, unknown stats->version),
 * ONNXSLIM_ERANGE; *stats is then unchanged.
 * @since 0.1.0
 */
ONNXSLIM_API int onnxslim_convert_report_add_stats(const onnxslim_convert_report *report,
                                                   size_t index, onnxslim_convert_stats *stats);

/* ---- the kept tensors: selected tensors a floating-point conversion left in
 * their type because their values do not fit `to` (ONNXSLIM_CONVERT_OVERFLOW_KEEP).
 * They are not among the entries above.                                   */

/** Number of tensors the conversion kept in their type (0 for NULL), in the
 * order they were found. Never fails. @since 0.2.0 */
ONNXSLIM_API size_t onnxslim_convert_report_kept_count(const onnxslim_convert_report *report);

/**
 * The value name of kept tensor `index`, borrowed from the report.
 * Returns NULL (ONNXSLIM_EINVAL for a NULL report, ONNXSLIM_ERANGE for an
 * index out of range) on error.
 * @since 0.2.0
 */
ONNXSLIM_API const char *onnxslim_convert_report_kept_name(const onnxslim_convert_report *report,
                                                           size_t index);

/**
 * The data type kept tensor `index` has (and keeps), ONNXSLIM_DTYPE_*.
 * Returns ONNXSLIM_DTYPE_UNDEFINED and sets the last error
 * (ONNXSLIM_EINVAL, ONNXSLIM_ERANGE) on bad arguments.
 * @since 0.2.0
 */
ONNXSLIM_API int32_t onnxslim_convert_report_kept_from(const onnxslim_convert_report *report,
                                                       size_t index);

/**
 * ADDS to *stats what converting kept tensor `index` would have done (the
 * reason it was kept: to_inf, or saturated with ONNXSLIM_CONVERT_SATURATE,
 * is not 0), as onnxslim_convert_report_add_stats() does for a converted
 * entry. stats is the caller's and is not kept.
 * Errors: ONNXSLIM_EINVAL (NULL report or stats, unknown stats->version),
 * ONNXSLIM_ERANGE; *stats is then unchanged.
 * @since 0.2.0
 */
ONNXSLIM_API int onnxslim_convert_report_kept_add_stats(const onnxslim_convert_report *report,
                                                        size_t index,
                                                        onnxslim_convert_stats *stats);

/* ---- the notes: what the converted model will do at run time that a
 * caller should know. Not errors: the conversion succeeded and the model
 * is valid; a runtime refuses it or undoes part of the saving.           */

/** Kinds of notes (onnxslim_convert_report_note_code()); values are never
 * reused. @since 0.2.0 */
typedef enum onnxslim_convert_note_code {
  /** An initializer of the converted model (main graph or a subgraph, also
   * one that was 16-bit before the conversion) stored as FLOAT16 or
   * BFLOAT16 that only Casts to FLOAT read (at least one) and that is no
   * output of its graph: what ONNXSLIM_CONVERT_POLICY_CAST_BEFORE makes, and the
   * default policy for tensors other than Gather tables. onnxruntime's
   * graph optimizations fold each Cast(initializer) back into a FLOAT
   * initializer when a session is created, so the model is smaller on disk
   * but not in memory (docs/recipe.md, "At runtime"). The note's reader is
   * the first Cast. */
  ONNXSLIM_CONVERT_NOTE_FOLD_BACK = 1,
  /** ONNXSLIM_CONVERT_POLICY_STORAGE_ONLY: a converted tensor read by a node that
   * still expects the old type (any op but Cast, other than the table of a
   * Gather that only Casts follow), or captured by a subgraph: runtimes
   * such as onnxruntime refuse such a model. One note per tensor, naming
   * its first such reader. */
  ONNXSLIM_CONVERT_NOTE_STORAGE_ONLY_READ = 2,
  /** ONNXSLIM_CONVERT_POLICY_STORAGE_ONLY: a converted tensor read as the table
   * (input 0) of a Gather that passes the new type on to a node other than
   * Cast (or to a graph output); runtimes refuse such a model too. */
  ONNXSLIM_CONVERT_NOTE_STORAGE_ONLY_GATHER = 3
} onnxslim_convert_note_code;

/** The largest onnxslim_convert_note_code value of this version of the
 * header. @since 0.2.0 */
#define ONNXSLIM_CONVERT_NOTE_CODE_MAX 3

/**
 * Number of notes in the report (0 for NULL): the storage-only notes
 * first, in the order the conversion met the tensors, then the fold-back
 * notes, initializers of the main graph before those of its subgraphs.
 * The notes are found after a successful conversion (linear in the size
 * of the graph; they read no tensor data and change nothing in the model
 * or in what a save writes). onnxslim_convert_gather_tables() and the
 * quantizations (INT8, INT4) give fold-back notes too. Never fails.
 * @since 0.2.0
 */
ONNXSLIM_API size_t onnxslim_convert_report_note_count(const onnxslim_convert_report *report);

/**
 * The kind of note `index`: one of the onnxslim_convert_note_code values
 * (> 0).
 * Errors (negative): ONNXSLIM_EINVAL (NULL report), ONNXSLIM_ERANGE.
 * @since 0.2.0
 */
ONNXSLIM_API int onnxslim_convert_report_note_code(const onnxslim_convert_report *report,
                                                   size_t index);

/**
 * The value name of the tensor note `index` is about (an initializer, or
 * the output of a Constant node), borrowed from the report.
 * Returns NULL (ONNXSLIM_EINVAL for a NULL report, ONNXSLIM_ERANGE for an
 * index out of range) on error.
 * @since 0.2.0
 */
ONNXSLIM_API const char *onnxslim_convert_report_note_name(const onnxslim_convert_report *report,
                                                           size_t index);

/**
 * The op_type of the node that reads the tensor of note `index` ("Cast"
 * for ONNXSLIM_CONVERT_NOTE_FOLD_BACK, "Gather" for
 * ONNXSLIM_CONVERT_NOTE_STORAGE_ONLY_GATHER), borrowed from the report.
 * Returns NULL (ONNXSLIM_EINVAL, ONNXSLIM_ERANGE) on error, as
 * onnxslim_convert_report_note_name().
 * @since 0.2.0
 */
ONNXSLIM_API const char *onnxslim_convert_report_note_op(const onnxslim_convert_report *report,
                                                         size_t index);

/**
 * The name of that node ("" when it has none), borrowed from the report.
 * Returns NULL (ONNXSLIM_EINVAL, ONNXSLIM_ERANGE) on error, as
 * onnxslim_convert_report_note_name().
 * @since 0.2.0
 */
ONNXSLIM_API const char *onnxslim_convert_report_note_node(const onnxslim_convert_report *report,
                                                           size_t index);

/**
 * Stores in *out the input of that node at which it reads the tensor (the
 * first, when it reads it at several).
 * Errors: ONNXSLIM_EINVAL (NULL report or out), ONNXSLIM_ERANGE,
 * ONNXSLIM_ENOTFOUND (the node reads the tensor only inside one of its
 * subgraphs, as a captured value); *out is then unchanged.
 * @since 0.2.0
 */
ONNXSLIM_API int onnxslim_convert_report_note_input(const onnxslim_convert_report *report,
                                                    size_t index, size_t *out);

/**
 * Stores in *out the bytes the tensor of note `index` takes as stored in
 * the converted model.
 * Errors: ONNXSLIM_EINVAL (NULL report or out), ONNXSLIM_ERANGE; *out is
 * then unchanged.
 * @since 0.2.0
 */
ONNXSLIM_API int onnxslim_convert_report_note_bytes(const onnxslim_convert_report *report,
                                                    size_t index, uint64_t *out);

/**
 * One sentence saying what note `index` found and what it means, e.g.
 * "'w' (FLOAT16, 2048 bytes) is read only by a Cast to FLOAT: ...",
 * borrowed from the report (valid until it is freed). Meant for people:
 * match notes by their code, not by this text.
 * Returns NULL (ONNXSLIM_EINVAL, ONNXSLIM_ERANGE) on error, as
 * onnxslim_convert_report_note_name().
 * @since 0.2.0
 */
ONNXSLIM_API const char *onnxslim_convert_report_note_message(const onnxslim_convert_report *report,
                                                              size_t index);

/**
 * The stable short name of a note kind: "fold_back", "storage_only_read",
 * "storage_only_gather". A static string; NULL (ONNXSLIM_EINVAL) for a
 * value that is no code. Codes run from 1 to ONNXSLIM_CONVERT_NOTE_CODE_MAX
 * (of the library version running: ask until NULL).
 * @since 0.2.0
 */
ONNXSLIM_API const char *onnxslim_convert_note_code_name(int code);

/** Frees a report and its strings. NULL is a no-op. @since 0.1.0 */
ONNXSLIM_API void onnxslim_convert_report_free(onnxslim_convert_report *report);

#ifdef __cplusplus
}
#endif

#endif /* ONNXSLIM_CONVERT_H */
