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

static const ival *input_at(ictx *c, const onnxslim_node *n, size_t i) {
  return get(c, i < onnxslim_node_input_count(n) ? onnxslim_node_input(n, i) : NULL);
}

/* a + b when both are fixed sizes, else unknown */
static idim dim_add(idim a, idim b) {
  if (a.k == DK_VALUE && b.k == DK_VALUE) return (idim){a.v + b.v, NULL, DK_VALUE};
  return (idim){0, NULL, DK_UNKNOWN};
}

/* a / h when a is a fixed size h divides, else unknown */
static idim dim_div(idim a, int64_t h) {
  if (a.k == DK_VALUE && h > 0 && a.v % h == 0) return (idim){a.v / h, NULL, DK_VALUE};
  return (idim){0, NULL, DK_UNKNOWN};
}

/* Attention (opset 23+): Q, K, V of rank 4 [B, heads, seq, head_size] or
 * rank 3 [B, seq, heads * head_size] (q_num_heads, kv_num_heads), optional
 * past_key / past_value [B, kv_heads, past, size]. Outputs Y, present_key,
 * present_value [B, kv_heads, past + kv_seq, size], qk_matmul_output
 * [B, q_heads, q_seq, past + kv_seq]. */
static void attention(ictx *c, const onnxslim_node *n, ival *outs, size_t nout) {
  const ival *q = input_at(c, n, 0), *k = input_at(c, n, 1), *v = input_at(c, n, 2);
  const ival *pk = input_at(c, n, 4), *pv = input_at(c, n, 5);
  int r = q->rank;
  if ((r != 3 && r != 4) || k->rank != r || v->rank != r) return;
  int64_t hq = attr_int(n, "q_num_heads", 0), hkv = attr_int(n, "kv_num_heads", 0);
  if (r == 3 && (hq < 1 || hkv < 1)) return;
  idim batch = q->d[0];
  idim qseq = r == 4 ? q->d[2] : q->d[1], kvseq = r == 4 ? k->d[2] : k->d[1];
  idim qheads = r == 4 ? q->d[1] : (idim){hq, NULL, DK_VALUE};
  idim kvheads = r == 4 ? k->d[1] : (idim){hkv, NULL, DK_VALUE};
  idim ksize = r == 4 ? k->d[3] : dim_div(k->d[2], hkv);
  idim vsize = r == 4 ? v->d[3] : dim_div(v->d[2], hkv);
  idim total = kvseq;
  int has_past = onnxslim_node_input_count(n) > 4 && onnxslim_node_input(n, 4)[0];
  if (has_past) total = pk->rank == 4 ? dim_add(pk->d[2], kvseq) : (idim){0, NULL, DK_UNKNOWN};
  (void)pv;
  /* Y */
  set_shape(c, &outs[0], r);
  if (outs[0].rank < 0) return;
  outs[0].d[0] = batch;
  if (r == 4) {
    outs[0].d[1] = qheads;
    outs[0].d[2] = qseq;
    outs[0].d[3] = vsize;
  } else {
    outs[0].d[1] = qseq;
    if (vsize.k == DK_VALUE) outs[0].d[2] = (idim){vsize.v * hq, NULL, DK_VALUE};
  }
  /* present_key, present_value: only with a past */
  for (size_t o = 1; o < 3 && o < nout && has_past; o++) {
    set_shape(c, &outs[o], 4);
    if (outs[o].rank < 0) return;
    outs[o].d[0] = batch;
    outs[o].d[1] = kvheads;
    outs[o].d[2] = total;
    outs[o].d[3] = o == 1 ? ksize : vsize;
  }
  if (nout > 3) {
    set_shape(c, &outs[3], 4);
    if (outs[3].rank < 0) return;
    outs[3].d[0] = batch;
    outs[3].d[1] = qheads;
    outs[3].d[2] = qseq;
    outs[3].d[3] = total;
  }
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
  } else if (strcmp(op, "Attention") == 0) {
    attention(c, n, outs, nout);
  } else {
    return 0;
  }
  return 1;
}
