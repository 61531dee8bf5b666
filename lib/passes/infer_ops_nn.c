/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - inference rules of the neural-network operators:
 * convolutions and pools.
 */
#include <stdint.h>
#include <string.h>

#include "passes/infer_int.h"

/* Conv and the pools: [N, C or M, spatial...], each spatial size computed
 * from a fixed input size, the kernel, strides, dilations and pads (or
 * auto_pad); MaxPool/AveragePool with ceil_mode give unknown spatial dims. */
static void conv_pool(ictx *c, const onnxslim_node *n, const char *op, const ival *x, ival *out,
                      size_t nout, ival *outs) {
  int conv = strcmp(op, "Conv") == 0;
  int global = strncmp(op, "Global", 6) == 0;
  if (x->rank < 3) return;
  int sp = x->rank - 2;
  const ival *w =
      conv ? get(c, onnxslim_node_input_count(n) > 1 ? onnxslim_node_input(n, 1) : NULL) : NULL;
  if (conv && w->rank >= 0 && w->rank != x->rank) return;
  set_shape(c, out, x->rank);
  if (out->rank < 0) return;
  out->d[0] = x->d[0];
  out->d[1] = conv ? (w->rank >= 0 ? w->d[0] : (idim){0, NULL, DK_UNKNOWN}) : x->d[1];
  if (global) {
    for (int j = 0; j < sp; j++) out->d[2 + j] = (idim){1, NULL, DK_VALUE};
    return;
  }
  if (strcmp(op, "MaxPool") == 0 && nout > 1) copy_shape(out, &outs[1]);
  if (!conv && attr_int(n, "ceil_mode", 0)) return;
  const int64_t *ks = NULL, *st = NULL, *dl = NULL, *pd = NULL;
  size_t nks = 0, nst = 0, ndl = 0, npd = 0;
  int hk = attr_ints(n, "kernel_shape", &ks, &nks);
  if (hk && nks != (size_t)sp) return;
  if (attr_ints(n, "strides", &st, &nst) && nst != (size_t)sp) return;
  if (attr_ints(n, "dilations", &dl, &ndl) && ndl != (size_t)sp) return;
  if (attr_ints(n, "pads", &pd, &npd) && npd != 2 * (size_t)sp) return;
  const char *ap = "NOTSET";
  size_t apn = 6;
  onnxslim_attr *a = onnxslim_node_find_attr(n, "auto_pad");
  if (a && onnxslim_attr_string(a, &ap, &apn) != 0) return;
  for (int j = 0; j < sp; j++) {
    const idim *d = &x->d[2 + j];
    int64_t k;
    if (hk) k = ks[j];
    else if (conv && w->rank >= 0 && w->d[2 + j].k == DK_VALUE) k = w->d[2 + j].v;
    else continue;
    int64_t s = st ? st[j] : 1, dil = dl ? dl[j] : 1;
    if (d->k != DK_VALUE || k < 1 || s < 1 || dil < 1) continue;
    int64_t ext = (k - 1) * dil + 1, o;
    if (apn == 10 && (memcmp(ap, "SAME_UPPER", 10) == 0 || memcmp(ap, "SAME_LOWER", 10) == 0)) {
      o = (d->v + s - 1) / s;
    } else if (apn == 5 && memcmp(ap, "VALID", 5) == 0) {
      if (d->v < ext) continue;
      o = (d->v - ext) / s + 1;
    } else if (apn == 6 && memcmp(ap, "NOTSET", 6) == 0) {
      int64_t span = d->v + (pd ? pd[j] + pd[sp + j] : 0) - ext;
      if (span < 0) continue;
      o = span / s + 1;
    } else {
      continue;
    }
    out->d[2 + j] = (idim){o, NULL, DK_VALUE};
  }
  if (strcmp(op, "MaxPool") == 0 && nout > 1) copy_shape(out, &outs[1]);
}

int onnxslim__infer_ops_nn(ictx *c, const onnxslim_node *n, const char *op, ival *outs,
                           size_t nout) {
  size_t nin = onnxslim_node_input_count(n);
  const ival *x = nin ? get(c, onnxslim_node_input(n, 0)) : &UNKNOWN;
  ival *o = &outs[0];
  if (strcmp(op, "Conv") == 0 || strcmp(op, "MaxPool") == 0 || strcmp(op, "AveragePool") == 0 ||
      strcmp(op, "LpPool") == 0 || strcmp(op, "GlobalAveragePool") == 0 ||
      strcmp(op, "GlobalMaxPool") == 0 || strcmp(op, "GlobalLpPool") == 0) {
    conv_pool(c, n, op, x, o, nout, outs);
  } else {
    return 0;
  }
  return 1;
}
