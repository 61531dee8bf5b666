/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - inference: numpy broadcasting of shapes and the type,
 * shape and data of a constant tensor, used by the rules and the walk.
 */
#include <stdlib.h>
#include <string.h>

#include "passes/infer_int.h"

/* Numpy broadcasting of n shapes into out (out->rank set). */
void onnxslim__infer_bcast(ictx *c, const ival *const *in, size_t n, ival *out) {
  int r = 0;
  for (size_t i = 0; i < n; i++) {
    if (in[i]->rank < 0) return;
    if (in[i]->rank > r) r = in[i]->rank;
  }
  idim *d = new_dims(c, r);
  if (!d) return;
  for (int j = 0; j < r; j++) {
    int64_t big = -1;
    const char *sym = NULL;
    int nsym = 0, unk = 0, bad = 0;
    for (size_t i = 0; i < n; i++) {
      int off = r - in[i]->rank;
      if (j < off) continue;
      const idim *x = &in[i]->d[j - off];
      if (x->k == DK_VALUE) {
        if (x->v == 1) continue;
        if (big >= 0 && big != x->v) bad = 1;
        big = x->v;
      } else if (x->k == DK_PARAM) {
        if (sym && strcmp(sym, x->p) != 0) nsym = 2;
        else if (!sym) nsym = 1;
        sym = x->p;
      } else {
        unk = 1;
      }
    }
    if (bad) return; /* incompatible: leave the shape unknown */
    if (big >= 0) d[j] = (idim){big, NULL, DK_VALUE};
    else if (!unk && nsym == 0) d[j] = (idim){1, NULL, DK_VALUE};
    else if (!unk && nsym == 1) d[j] = (idim){0, sym, DK_PARAM};
  }
  out->rank = r;
  out->d = d;
}

/* The values of a small FLOAT constant (rank <= 1) into out->fdata. */
static void float_data(ictx *c, const onnxslim_tensor *t, int64_t cnt, ival *out) {
  unsigned char buf[DATA_MAX * 4];
  if (cnt && onnxslim_tensor_read(t, 0, buf, (size_t)cnt * 4) != 0) return;
  float *f = onnxslim__arena_alloc(&c->arena, (size_t)(cnt ? cnt : 1) * sizeof *f);
  if (!f) {
    c->oom = 1;
    return;
  }
  for (int64_t i = 0; i < cnt; i++) {
    uint32_t u = 0;
    for (int b = 3; b >= 0; b--) u = (u << 8) | buf[i * 4 + b];
    memcpy(&f[i], &u, 4);
  }
  out->fdata = f;
  out->nf = (int)cnt;
}

/* Constant tensors: dtype, dims and (small integers and floats) data. */
void onnxslim__infer_from_tensor(ictx *c, const onnxslim_tensor *t, ival *out) {
  size_t r = onnxslim_tensor_rank(t);
  if (r > RANK_MAX) return;
  out->dtype = onnxslim_tensor_dtype(t);
  set_shape(c, out, (int)r);
  for (size_t j = 0; out->rank >= 0 && j < r; j++)
    out->d[j] = (idim){onnxslim_tensor_dim(t, j), NULL, DK_VALUE};
  int32_t dt = out->dtype;
  int64_t cnt = onnxslim_tensor_element_count(t);
  if (r > 1 || cnt < 0 || cnt > DATA_MAX) return;
  if (dt == ONNXSLIM_DTYPE_FLOAT) {
    float_data(c, t, cnt, out);
    return;
  }
  if (dt != ONNXSLIM_DTYPE_INT64 && dt != ONNXSLIM_DTYPE_INT32) return;
  size_t es = dt == ONNXSLIM_DTYPE_INT64 ? 8 : 4;
  unsigned char buf[DATA_MAX * 8];
  if (cnt && onnxslim_tensor_read(t, 0, buf, (size_t)cnt * es) != 0) return;
  idim *d = new_dims(c, (int)cnt);
  if (!d) return;
  for (int64_t i = 0; i < cnt; i++) {
    int64_t v = 0;
    if (es == 8) {
      uint64_t u = 0;
      for (int b = 7; b >= 0; b--) u = (u << 8) | buf[i * 8 + b];
      v = (int64_t)u;
    } else {
      uint32_t u = 0;
      for (int b = 3; b >= 0; b--) u = (u << 8) | buf[i * 4 + b];
      v = (int32_t)u;
    }
    d[i] = (idim){v, NULL, DK_VALUE};
  }
  out->data = d;
  out->nd = (int)cnt;
}
