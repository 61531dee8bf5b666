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

static int attr_is(const onnxslim_node *n, const char *name, const char *value) {
  onnxslim_attr *a = onnxslim_node_find_attr(n, name);
  const char *s = NULL;
  size_t len = 0;
  if (!a || onnxslim_attr_string(a, &s, &len) != 0) return 0;
  return len == strlen(value) && memcmp(s, value, len) == 0;
}

/* Resize, Upsample: the rank. With axes (Resize-18), the other dims are
 * the input's. The resized dims: the sizes (opset 11+) when their values
 * are known and the aspect ratio policy is the default; else the scales
 * when known: the input's dim times its scale, rounded down, in float
 * arithmetic as onnx and onnxruntime compute it. */
static void resize(ictx *c, const onnxslim_node *n, const char *op, const ival *x, ival *o) {
  if (x->rank < 0) return;
  set_shape(c, o, x->rank);
  if (o->rank < 0) return;
  size_t nin = onnxslim_node_input_count(n);
  int resize = strcmp(op, "Resize") == 0;
  /* the dims resized: axis[k] for the k-th size or scale */
  int64_t axis[RANK_MAX];
  int na = x->rank;
  const int64_t *av = NULL;
  size_t nav = 0;
  if (resize && c->opset >= 18 && attr_ints(n, "axes", &av, &nav)) {
    if (nav > (size_t)x->rank) return;
    char seen[RANK_MAX] = {0};
    for (size_t k = 0; k < nav; k++) {
      if (!norm_axis(av[k], x->rank, &axis[k]) || seen[axis[k]]) return;
      seen[axis[k]] = 1;
    }
    na = (int)nav;
    for (int j = 0; j < x->rank; j++)
      if (!seen[j]) o->d[j] = x->d[j];
  } else {
    for (int j = 0; j < x->rank; j++) axis[j] = j;
  }
  if (resize && c->opset >= 11 && nin >= 4 && onnxslim_node_input(n, 3)[0]) {
    if (onnxslim_node_find_attr(n, "keep_aspect_ratio_policy") &&
        !attr_is(n, "keep_aspect_ratio_policy", "stretch"))
      return;
    int64_t sizes[RANK_MAX];
    int ns = const_ints(c, n, 3, sizes, RANK_MAX);
    if (ns == na) {
      for (int k = 0; k < na; k++)
        if (sizes[k] >= 0) o->d[axis[k]] = (idim){sizes[k], NULL, DK_VALUE};
      return;
    }
    if (ns != 0) return; /* unknown, or an empty sizes beside the scales */
  }
  /* the scales: Upsample-7 attribute, else input 1 (Upsample, Resize-10) or 2 */
  const float *sc = NULL;
  size_t nsc = 0;
  if (!resize && c->opset < 9) {
    onnxslim_attr *a = onnxslim_node_find_attr(n, "scales");
    if (!a || onnxslim_attr_floats(a, &sc, &nsc) != 0) return;
  } else {
    size_t i = resize && c->opset >= 11 ? 2 : 1;
    const ival *s = i < nin ? get(c, onnxslim_node_input(n, i)) : &UNKNOWN;
    if (!s->fdata) return;
    sc = s->fdata;
    nsc = (size_t)s->nf;
  }
  if (nsc != (size_t)na) return;
  for (int k = 0; k < na; k++) {
    const idim *d = &x->d[axis[k]];
    float s = sc[k];
    if (d->k != DK_VALUE || d->v < 0 || !(s > 0.0f) || !(s < 1e9f)) continue;
    float v = (float)d->v * s;
    if (!(v < 4e18f)) continue;
    o->d[axis[k]] = (idim){(int64_t)v, NULL, DK_VALUE};
  }
}

/* The inverse onesided DFT (dft()): 1 real output from a complex input. */
static void idft_onesided(ictx *c, const onnxslim_node *n, const ival *x, ival *o) {
  const idim *last = &x->d[x->rank - 1];
  if (last->k != DK_VALUE || last->v != 2) return;
  size_t nin = onnxslim_node_input_count(n);
  int64_t axis = -2, a[1], l[1];
  if (c->opset < 20) axis = attr_int(n, "axis", 1);
  else if (nin > 2 && onnxslim_node_input(n, 2)[0]) {
    if (const_ints(c, n, 2, a, 1) != 1) return;
    axis = a[0];
  }
  if (axis < 0) axis += x->rank;
  if (axis < 1 || axis >= x->rank - 1) return;
  idim len = {0, NULL, DK_UNKNOWN};
  if (nin > 1 && onnxslim_node_input(n, 1)[0]) {
    if (const_ints(c, n, 1, l, 1) != 1 || l[0] < 1) return;
    len = (idim){l[0], NULL, DK_VALUE};
  } else if (x->d[axis].k == DK_VALUE && x->d[axis].v >= 1) {
    len = (idim){2 * (x->d[axis].v - 1), NULL, DK_VALUE};
  }
  set_shape(c, o, x->rank);
  if (o->rank < 0) return;
  for (int j = 0; j < x->rank; j++) o->d[j] = x->d[j];
  o->d[axis] = len;
  o->d[x->rank - 1] = (idim){1, NULL, DK_VALUE};
}

/* DFT: the input's shape [batch, signal..., 1 or 2] with the last dim 2
 * (complex) and, along `axis` (attribute before opset 20, then input 2,
 * default -2), dft_length when given (a known scalar) else the input's
 * dim, halved plus one when onesided; with neither, an unknown axis
 * changes nothing. An inverse onesided transform (a complex input: last
 * dim 2) gives a real signal: last dim 1, along a known axis dft_length
 * or else 2 * (dim - 1), as onnx 1.23.2, onnxruntime-node 1.30 and the
 * Python wheel 1.32 all give (opsets 17 and 20). */
static void dft(ictx *c, const onnxslim_node *n, const ival *x, ival *o) {
  if (x->rank < 3) return;
  int64_t onesided = attr_int(n, "onesided", 0), inverse = attr_int(n, "inverse", 0), axis = -2;
  if (onesided && inverse) {
    idft_onesided(c, n, x, o);
    return;
  }
  size_t nin = onnxslim_node_input_count(n);
  int has_len = nin > 1 && onnxslim_node_input(n, 1)[0], known = 1;
  if (c->opset < 20) {
    axis = attr_int(n, "axis", 1);
  } else if (nin > 2 && onnxslim_node_input(n, 2)[0]) {
    int64_t a[1];
    if ((known = const_ints(c, n, 2, a, 1) == 1)) axis = a[0];
  }
  if (!known && (onesided || has_len)) { /* the batch dim, and complex */
    set_shape(c, o, x->rank);
    if (o->rank < 0) return;
    o->d[0] = x->d[0];
    o->d[x->rank - 1] = (idim){2, NULL, DK_VALUE};
    return;
  }
  if (known) {
    if (axis < 0) axis += x->rank;
    if (axis < 1 || axis >= x->rank - 1) return;
  }
  idim len = known ? x->d[axis] : (idim){0, NULL, DK_UNKNOWN};
  if (has_len) {
    int64_t l[1];
    if (const_ints(c, n, 1, l, 1) != 1 || l[0] < 1) return;
    len = (idim){l[0], NULL, DK_VALUE};
  }
  if (onesided)
    len = len.k == DK_VALUE ? (idim){len.v / 2 + 1, NULL, DK_VALUE} : (idim){0, NULL, DK_UNKNOWN};
  set_shape(c, o, x->rank);
  for (int j = 0; o->rank >= 0 && j < x->rank; j++) o->d[j] = x->d[j];
  if (o->rank < 0) return;
  if (known) o->d[axis] = len;
  o->d[x->rank - 1] = (idim){2, NULL, DK_VALUE};
}

/* STFT: [batch, frames, bins, 2] from the signal [batch, length, 1 or 2].
 * The DFT size is frame_length (input 3, a known scalar) or else the
 * window's length (input 2, rank 1); both given and different is a model
 * onnxruntime refuses: nothing inferred. bins is size / 2 + 1 when
 * `onesided` (default 1; onnxruntime 1.32 and onnx's reference give that,
 * for a complex signal too), else size; frames (length - size) / step + 1
 * with a known frame_step (input 1) of at least 1 and length >= size (a
 * shorter signal is refused at run time). onnx 1.23's inference ignores
 * `onesided` (it gives size bins): ours follows the runtime. */
static void stft(ictx *c, const onnxslim_node *n, const ival *x, ival *o) {
  if (x->rank != 3) return;
  int64_t step[1] = {0}, flen[1] = {0}, size = -1;
  int has_step = const_ints(c, n, 1, step, 1) == 1 && step[0] >= 1;
  const ival *w = input_at(c, n, 2);
  int64_t wlen = w->rank == 1 && w->d[0].k == DK_VALUE ? w->d[0].v : -1;
  int has_flen = onnxslim_node_input_count(n) > 3 && onnxslim_node_input(n, 3)[0];
  if (has_flen) {
    if (const_ints(c, n, 3, flen, 1) == 1 && flen[0] >= 1) size = flen[0];
    if (size >= 0 && wlen >= 0 && size != wlen) return;
  } else if (wlen >= 1) {
    size = wlen;
  }
  set_shape(c, o, 4);
  if (o->rank < 0) return;
  o->d[0] = x->d[0];
  o->d[3] = (idim){2, NULL, DK_VALUE};
  if (size < 1) return;
  o->d[2] = (idim){attr_int(n, "onesided", 1) ? size / 2 + 1 : size, NULL, DK_VALUE};
  const idim *len = &x->d[1];
  if (has_step && len->k == DK_VALUE && len->v >= size)
    o->d[1] = (idim){(len->v - size) / step[0] + 1, NULL, DK_VALUE};
}

/* RNN, GRU, LSTM: Y [seq, dirs, batch, hidden] (layout 1: [batch, seq,
 * dirs, hidden]), Y_h and Y_c [dirs, batch, hidden] ([batch, dirs, hidden]). */
static void rnn(ictx *c, const onnxslim_node *n, const ival *x, ival *outs, size_t nout) {
  int64_t hidden = attr_int(n, "hidden_size", -1), layout = attr_int(n, "layout", 0);
  if (x->rank != 3 || hidden < 1 || (layout != 0 && layout != 1)) return;
  idim dirs = {attr_is(n, "direction", "bidirectional") ? 2 : 1, NULL, DK_VALUE};
  idim seq = x->d[layout ? 1 : 0], batch = x->d[layout ? 0 : 1], h = {hidden, NULL, DK_VALUE};
  if (nout > 0) {
    set_shape(c, &outs[0], 4);
    if (outs[0].rank < 0) return;
    idim y0[4] = {seq, dirs, batch, h}, y1[4] = {batch, seq, dirs, h};
    memcpy(outs[0].d, layout ? y1 : y0, sizeof y0);
  }
  for (size_t k = 1; k < nout && k < 3; k++) {
    set_shape(c, &outs[k], 3);
    if (outs[k].rank < 0) return;
    idim s0[3] = {dirs, batch, h}, s1[3] = {batch, dirs, h};
    memcpy(outs[k].d, layout ? s1 : s0, sizeof s0);
  }
}

/* ConvTranspose: [N, W's dim 1 * group, spatial...]: output_shape, or
 * stride * (in - 1) + output_padding + (k - 1) * dilation + 1 - pads
 * (SAME_*: in * stride). */
static void conv_transpose(ictx *c, const onnxslim_node *n, const ival *x, ival *o) {
  const ival *w = input_at(c, n, 1);
  if (x->rank < 3 || (w->rank >= 0 && w->rank != x->rank)) return;
  int sp = x->rank - 2;
  set_shape(c, o, x->rank);
  if (o->rank < 0) return;
  o->d[0] = x->d[0];
  int64_t group = attr_int(n, "group", 1);
  if (w->rank >= 0 && w->d[1].k == DK_VALUE && group >= 1)
    o->d[1] = (idim){w->d[1].v * group, NULL, DK_VALUE};
  const int64_t *ks = NULL, *st = NULL, *dl = NULL, *pd = NULL, *op = NULL, *os = NULL;
  size_t nks = 0, nst = 0, ndl = 0, npd = 0, nop = 0, nos = 0;
  if (attr_ints(n, "output_shape", &os, &nos)) {
    if (nos != (size_t)sp) return;
    for (int j = 0; j < sp; j++)
      if (os[j] >= 0) o->d[2 + j] = (idim){os[j], NULL, DK_VALUE};
    return;
  }
  int hk = attr_ints(n, "kernel_shape", &ks, &nks);
  if (hk && nks != (size_t)sp) return;
  if (attr_ints(n, "strides", &st, &nst) && nst != (size_t)sp) return;
  if (attr_ints(n, "dilations", &dl, &ndl) && ndl != (size_t)sp) return;
  if (attr_ints(n, "pads", &pd, &npd) && npd != 2 * (size_t)sp) return;
  if (attr_ints(n, "output_padding", &op, &nop) && nop != (size_t)sp) return;
  int same = attr_is(n, "auto_pad", "SAME_UPPER") || attr_is(n, "auto_pad", "SAME_LOWER");
  int valid = attr_is(n, "auto_pad", "VALID");
  if (onnxslim_node_find_attr(n, "auto_pad") && !same && !valid &&
      !attr_is(n, "auto_pad", "NOTSET"))
    return;
  for (int j = 0; j < sp; j++) {
    const idim *d = &x->d[2 + j];
    int64_t s = st ? st[j] : 1, dil = dl ? dl[j] : 1, k;
    if (d->k != DK_VALUE || s < 1 || dil < 1) continue;
    if (same) {
      o->d[2 + j] = (idim){d->v * s, NULL, DK_VALUE};
      continue;
    }
    if (hk) k = ks[j];
    else if (w->rank >= 0 && w->d[2 + j].k == DK_VALUE) k = w->d[2 + j].v;
    else continue;
    int64_t v = s * (d->v - 1) + (op ? op[j] : 0) + (k - 1) * dil + 1 -
                (pd && !valid ? pd[j] + pd[sp + j] : 0);
    if (k >= 1 && v >= 0) o->d[2 + j] = (idim){v, NULL, DK_VALUE};
  }
}

/* GridSample: [N, C] of X, then the grid's [N, out spatial..., rank] middle dims */
static void grid_sample(ictx *c, const ival *x, const ival *grid, ival *o) {
  if (x->rank < 3 || grid->rank != x->rank) return;
  set_shape(c, o, x->rank);
  if (o->rank < 0) return;
  o->d[0] = x->d[0].k != DK_UNKNOWN ? x->d[0] : grid->d[0];
  o->d[1] = x->d[1];
  for (int j = 2; j < x->rank; j++) o->d[j] = grid->d[j - 1];
}

/* SoftmaxCrossEntropyLoss, NegativeLogLikelihoodLoss: reduction none: the
 * labels' shape, else a scalar; SCE's log_prob: the scores' shape. */
static void loss(ictx *c, const onnxslim_node *n, const char *op, ival *outs, size_t nout) {
  if (!onnxslim_node_find_attr(n, "reduction") || !attr_is(n, "reduction", "none"))
    set_shape(c, &outs[0], 0);
  else copy_shape(input_at(c, n, 1), &outs[0]);
  if (op[0] == 'S' && nout > 1) copy_shape(input_at(c, n, 0), &outs[1]);
}

/* CausalConvWithState (27+): output as the input [B, C, L]; present_state
 * [B, C, k - 1], k the weight's last dim. */
static void causal_conv(ictx *c, const onnxslim_node *n, const ival *x, ival *outs, size_t nout) {
  if (x->rank != 3) return;
  copy_shape(x, &outs[0]);
  const ival *w = input_at(c, n, 1);
  if (nout < 2) return;
  set_shape(c, &outs[1], 3);
  if (outs[1].rank < 0) return;
  outs[1].d[0] = x->d[0];
  outs[1].d[1] = x->d[1];
  if (w->rank == 3 && w->d[2].k == DK_VALUE && w->d[2].v >= 1)
    outs[1].d[2] = (idim){w->d[2].v - 1, NULL, DK_VALUE};
}

/* LinearAttention (27+): query [B, T, Hq * dk], key [B, T, Hkv * dk],
 * value [B, T, Hkv * dv]: output [B, T, Hq * dv], present_state
 * [B, Hkv, dk, dv]. */
static void linear_attention(ictx *c, const onnxslim_node *n, ival *outs, size_t nout) {
  const ival *q = input_at(c, n, 0), *k = input_at(c, n, 1), *v = input_at(c, n, 2);
  int64_t hq = attr_int(n, "q_num_heads", 0), hkv = attr_int(n, "kv_num_heads", 0);
  if (q->rank != 3 || k->rank != 3 || v->rank != 3 || hq < 1 || hkv < 1) return;
  idim dk = dim_div(k->d[2], hkv), dv = dim_div(v->d[2], hkv);
  set_shape(c, &outs[0], 3);
  if (outs[0].rank < 0) return;
  outs[0].d[0] = q->d[0];
  outs[0].d[1] = q->d[1];
  if (dv.k == DK_VALUE) outs[0].d[2] = (idim){dv.v * hq, NULL, DK_VALUE};
  if (nout < 2) return;
  set_shape(c, &outs[1], 4);
  if (outs[1].rank < 0) return;
  outs[1].d[0] = q->d[0];
  outs[1].d[1] = (idim){hkv, NULL, DK_VALUE};
  outs[1].d[2] = dk;
  outs[1].d[3] = dv;
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
  } else if (strcmp(op, "Resize") == 0 || strcmp(op, "Upsample") == 0) {
    resize(c, n, op, x, o);
  } else if (strcmp(op, "DFT") == 0) {
    dft(c, n, x, o);
  } else if (strcmp(op, "STFT") == 0) {
    stft(c, n, x, o);
  } else if (strcmp(op, "RNN") == 0 || strcmp(op, "GRU") == 0 || strcmp(op, "LSTM") == 0) {
    rnn(c, n, x, outs, nout);
  } else if (strcmp(op, "ConvTranspose") == 0) {
    conv_transpose(c, n, x, o);
  } else if (strcmp(op, "GridSample") == 0) {
    grid_sample(c, x, input_at(c, n, 1), o);
  } else if (strcmp(op, "SoftmaxCrossEntropyLoss") == 0 ||
             strcmp(op, "NegativeLogLikelihoodLoss") == 0) {
    loss(c, n, op, outs, nout);
  } else if (strcmp(op, "NonMaxSuppression") == 0) {
    set_shape(c, o, 2); /* [selected, 3] */
    if (o->rank >= 0) o->d[1] = (idim){3, NULL, DK_VALUE};
  } else if (strcmp(op, "CausalConvWithState") == 0) {
    causal_conv(c, n, x, outs, nout);
  } else if (strcmp(op, "LinearAttention") == 0) {
    linear_attention(c, n, outs, nout);
  } else if (strcmp(op, "Attention") == 0) {
    attention(c, n, outs, nout);
  } else {
    return 0;
  }
  return 1;
}
