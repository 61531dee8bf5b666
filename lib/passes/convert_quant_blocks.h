/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - what the quantizer's two files share, private to them:
 * convert_quant_blocks.c (the numbers: block scales, rounding, packing,
 * the clip percentile) <- convert_quant.c (the selection, the plan and the
 * graph rewrite: the nodes it inserts).
 */
#ifndef ONNXSLIM_CONVERT_QUANT_BLOCKS_H
#define ONNXSLIM_CONVERT_QUANT_BLOCKS_H

#include <stddef.h>
#include <stdint.h>

#include "convert_common.h"

/* The quantization, as its memory limit error names it. Its per-tensor
 * buffers (onnxslim__quant_qx_run) are bounded by a row of one tensor and are not counted. */
#define QUANT "quantizing the model"

/* Layouts of a quantized block's bytes. */
enum {
  OSL_QL_I8,     /* one signed byte per value (INT8; INT4 values unpacked) */
  OSL_QL_U8,     /* one byte per value, q + 128 (GatherBlockQuantized bits 8) */
  OSL_QL_I4,     /* two values a byte, q & 15, the first in the low nibble (INT4) */
  OSL_QL_U4,     /* two values a byte, q + 8, low nibble first (GBQ bits 4) */
  OSL_QL_SCALES, /* the block's scale (FLOAT or FLOAT16) */
  OSL_QL_ZP      /* the block's zero point, one byte (asymmetric) */
};

/* Statistics of a validation pass, in block order. */
typedef struct {
  onnxslim_quant_stats q;
  onnxslim_convert_stats s;
  uint64_t blocks_per_row, in_row;
  double err2, norm2; /* of the row so far */
} osl_qacc;

/* Where an element's blocks are in the source. */
enum {
  OSL_QG_ROW,    /* an element is one block of consecutive values (a table's row) */
  OSL_QG_COLS,   /* an element is bs consecutive rows of ncols values; block j is
                    column j (a MatMul weight [K, N] in blocks along K, kept in place) */
  OSL_QG_STRIDED /* element i is block i % kblocks of column i / kblocks of a [K, ncols]
                    matrix (MatMulNBits' transposed layout) */
};

typedef struct osl_qx_s {
  osl_xform x;
  /* A part of the tensor run on a thread of its own (convert_quant.c's
   * first pass): its first element's index in the whole tensor (x.src is
   * that element), and the whole source (OSL_QG_STRIDED reads its blocks
   * there). For the whole tensor: 0 and x.src. */
  size_t base;
  const uint8_t *whole;
  int geom;                    /* OSL_QG_* */
  size_t ncols, kblocks;       /* OSL_QG_COLS and _STRIDED */
  const onnxslim_model *model; /* _STRIDED: releases the source's pages at its end */
  int32_t src;                 /* FLOAT or FLOAT16 */
  int32_t scale_type;          /* FLOAT or FLOAT16 */
  int qmax;                    /* 127 or 7; asymmetric: 255 or 15 */
  int asym;                    /* asymmetric: q = rne(x / s) + zp in 0..qmax, stored unsigned */
  int layout;                  /* OSL_QL_* */
  size_t bs;                   /* values per block */
  int clip;                    /* a clip percentile was given: cap applies */
  float cap;                   /* the tensor's percentile of |x| (clip) */
  int mse;                     /* search each block's scale for the least squared error
                                  (onnxslim_quant_options.scale_method MSE; not with clip) */
  osl_qacc *acc;               /* the validation pass adds to it (else NULL) */
  /* The scale search's results carried from the first pass to the data
   * pass, so that each block is searched once: keep_s (the first pass)
   * receives each block's scale, in the scales' type and order (block b of
   * element i at index i * blocks an element + b); given_s and, asymmetric,
   * given_zp (the data pass) are those scales and zero points (a byte per
   * block), used instead of a search. NULL: none. */
  uint8_t *keep_s;
  const uint8_t *given_s, *given_zp;
  /* Float zero points (ONNXSLIM_QUANT_FLOAT_ZERO_POINTS): the codes of a
   * block's kept scale and zero point in the data pass
   * (onnxslim__quant_fzp_codes, set by convert_quant.c; the block kernel
   * calls it through this pointer), else NULL; the first pass, which
   * searches them, is onnxslim__quant_fzp_run. keep_z and given_z as
   * keep_s and given_s, for the zero points in the scales' type. */
  uint64_t (*fzp)(const struct osl_qx_s *q, const float *v, int8_t *qb, float s, float z);
  uint8_t *keep_z;
  const uint8_t *given_z;
} osl_qx;

typedef struct {
  onnxslim_tensor *t;
  const char *name;
  onnxslim_node *constant; /* the Constant node whose value t is, else NULL */
  int mm;                  /* a weight (input 1 of MatMuls or Gemms), else an embedding table */
  int gemm;                /* read by Gemms */
  int kt;                  /* a Gemm weight stored [N, K] (transB 1): its blocks are along its
                              rows, as a table's; else a weight is [K, N] (rows K, cols N) */
  int32_t from;
  int64_t rows, cols;
  uint64_t bs;
  const uint8_t *data;
  size_t size;
  osl_report_entry *e;
  osl_qacc acc;
  const uint8_t *scales; /* computed by the first pass (small scales), else NULL */
  const uint8_t *zps;    /* asymmetric: the zero points, a byte per block (first pass) */
  const uint8_t *fzps;   /* float zero points: in the scales' type, one per block */
  int clip;              /* a clip percentile was given */
  float cap;             /* then: the percentile of |x| over the tensor */
} osl_qcand;

/* ---- convert_quant_blocks.c ---------------------------------------------- */

/* sqrt of v >= 0 (Newton's iteration; for the report only). */
double onnxslim__quant_dsqrt(double v);

/* The run of a quantizing transform (osl_qx, an osl_xform): elements
 * first..first+n of the source src into dst (osl_xform.run). */
int onnxslim__quant_qx_run(const osl_xform *x, size_t first, const uint8_t *src, size_t n,
                           uint8_t *dst);

/* Candidate c's cap: the value of nearest rank nearest_rank(pct, n) among
 * the magnitudes of its n values, from histograms of their bits (the order of
 * |x| is that of its bit pattern without the sign): one pass over a
 * FLOAT16 tensor (32768 bins), two over a FLOAT one (32768 bins on the
 * high half, then 65536 on the low half of the values in the chosen bin).
 * Chunked reads, pages released as they go; NaN and infinities refused. */
int onnxslim__quant_clip_cap(onnxslim_model *m, osl_qcand *c, double pct, osl_progress *prog);

/* The FLOAT16 pattern nearest v (finite, |v| <= 65504 rounds finite; ties
 * to even; the sign kept) and the value of pattern h, as the block kernel
 * rounds scales. */
uint16_t onnxslim__quant_f16_nearest(float v);
float onnxslim__quant_f16_value(uint16_t h);

/* ---- convert_quant_fzp.c --------------------------------------------------- */

/* The integer start of the float-zero-point search of a block of range
 * [mn, mx] (its least and largest values, 0 included;
 * convert_quant_blocks.c): the smallest scale (*s, *h) with integer zero
 * point *zp that leaves no value clamped. 0, or ONNXSLIM_EMODEL (the
 * scale overflows FLOAT16). */
int onnxslim__quant_asym_start(const osl_qx *q, float mn, float mx, float *s, uint16_t *h, int *zp);

/* Block b of element elem (index `index` in the whole tensor) into
 * v[0..q->bs) as FLOAT; adds an asymmetric block's errors to acc (codes qb
 * as stored, scale s, zero point z, sat values clamped). */
void onnxslim__quant_gather(const osl_qx *q, const uint8_t *elem, size_t index, size_t b, float *v);
void onnxslim__quant_asym_stats(osl_qacc *acc, const float *v, const int8_t *qb, size_t bs, float s,
                                float z, uint64_t sat);

/* The first pass with float zero points (the osl_xform run of an osl_qx
 * whose fzp is set; with given_s and given_z, the data pass: that of
 * onnxslim__quant_qx_run): per block, the scale and zero point searched,
 * into keep_s and keep_z, the statistics into acc, 0 per block into dst
 * (layout OSL_QL_ZP, the only one it writes). */
int onnxslim__quant_fzp_run(const osl_xform *x, size_t first, const uint8_t *src, size_t n,
                            uint8_t *dst);

/* The codes rne(x / s + z), clamped to 0..qmax, of block v[0..q->bs) into
 * qb (osl_qx.fzp); the number of values clamped beyond the nearest code. */
uint64_t onnxslim__quant_fzp_codes(const osl_qx *q, const float *v, int8_t *qb, float s, float z);

/* The sums of the least-squares line v ~ a * u + b through a block's codes
 * u (unsigned) and values v, and the line itself: 1 with the slope a > 0
 * (the scale) and the zero point -b / a, or 0 when the codes are all one
 * value or the slope is not positive. Shared by the asymmetric refit and
 * the float-zero-point search. */
typedef struct {
  double n, su, sx, suu, sux;
} osl_qline;

static inline osl_qline onnxslim__qline_sums(size_t bs, const float *v, const int8_t *qb) {
  osl_qline l = {(double)bs, 0, 0, 0, 0};
  for (size_t i = 0; i < bs; i++) {
    double u = (double)(uint8_t)qb[i], x = v[i];
    l.su += u;
    l.sx += x;
    l.suu += u * u;
    l.sux += u * x;
  }
  return l;
}

static inline int onnxslim__qline_fit(const osl_qline *l, double *a, double *zr) {
  double var = l->n * l->suu - l->su * l->su;
  if (!(var > 0)) return 0;
  *a = (l->n * l->sux - l->su * l->sx) / var;
  if (!(*a > 0)) return 0;
  *zr = -((l->sx - *a * l->su) / l->n) / *a;
  return 1;
}

#endif
