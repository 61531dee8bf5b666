/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - the model fingerprint: a digest that does not depend on
 * where tensor bytes are stored.
 */
#define _XOPEN_SOURCE 700 /* POSIX names of the C library */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>

#include "onnx.pb.h"

#include "passes/passes.h"

/* ---- fingerprint ------------------------------------------------------------ */

#define XXH_INLINE_ALL
#include <xxhash.h>

static void h_u64(XXH3_state_t *h, uint64_t v) {
  uint8_t b[8];
  for (int i = 0; i < 8; i++) b[i] = (uint8_t)(v >> (8 * i));
  XXH3_128bits_update(h, b, 8);
}

/* What a fingerprint reads through: the model, the digest, and one buffer
 * into which bytes of a mapped file are read (pread), never through the
 * mapping (docs/design.md, "Memory"): small pieces (names, headers, small
 * tensors) through a read-ahead window of OSL_FP_AHEAD bytes, so hashing
 * them in file order costs a system call per window; large ones a buffer
 * at a time. That buffer is all a fingerprint allocates (its walk
 * recurses once per nesting level, bounded by max_depth): a constant, not
 * counted against max_memory (handles.h, onnxslim__mem_charge). */
#define OSL_FP_BUF (1u << 20)
#define OSL_FP_AHEAD (64u << 10)

typedef struct {
  const onnxslim_model *m;
  XXH3_state_t *h;
  uint8_t *buf; /* OSL_FP_BUF bytes, made on first use */
  int wfd;      /* the window: bytes [woff, woff + wlen) of file wfd; -1: none */
  int64_t woff;
  size_t wlen;
  osl_progress *pg; /* counts tensor data bytes while `counting` */
  int counting;
} osl_fp;

static int fp_buf(osl_fp *c) {
  if (!c->buf && !(c->buf = malloc(OSL_FP_BUF))) return onnxslim__err_nomem(NULL);
  return 0;
}

static int fp_read_err(int e) {
  return onnxslim__err(ONNXSLIM_EIO, "cannot read the model for its fingerprint: %s",
                       e == EIO ? "a file got shorter" : strerror(e));
}

/* Hashes n bytes at p (and n first). */
static int h_bytes(osl_fp *c, const uint8_t *p, size_t n) {
  h_u64(c->h, n);
  int fd, rc0;
  int64_t off;
  if (!n) return 0;
  if (!onnxslim__model_locate(c->m, p, n, &fd, &off)) {
    const size_t chunk = 8u << 20;
    for (size_t i = 0; i < n; i += chunk) {
      size_t k = n - i < chunk ? n - i : chunk;
      XXH3_128bits_update(c->h, p + i, k);
      onnxslim__release(c->m, p + i, k);
      if (c->counting && (rc0 = onnxslim__progress_add(c->pg, k)) != 0) return rc0;
    }
    return 0;
  }
  int rc = fp_buf(c);
  if (rc) return rc;
  if (n <= OSL_FP_AHEAD / 4) {
    if (!(c->wfd == fd && off >= c->woff && (uint64_t)(off - c->woff) + n <= c->wlen)) {
      ptrdiff_t got;
      while ((got = onnxslim__os_pread(fd, c->buf, OSL_FP_AHEAD, (int64_t)off)) < 0 &&
             errno == EINTR) {}
      c->wfd = -1;
      if (got < 0 || (size_t)got < n) return fp_read_err(got < 0 ? errno : EIO);
      c->wfd = fd;
      c->woff = off;
      c->wlen = (size_t)got;
    }
    XXH3_128bits_update(c->h, c->buf + (off - c->woff), n);
    return c->counting ? onnxslim__progress_add(c->pg, n) : 0;
  }
  c->wfd = -1; /* the buffer is reused below */
  for (size_t i = 0; i < n; i += OSL_FP_BUF) {
    size_t k = n - i < OSL_FP_BUF ? n - i : OSL_FP_BUF;
    if (onnxslim__read_at(fd, off + (int64_t)i, c->buf, k) != 0) return fp_read_err(errno);
    XXH3_128bits_update(c->h, c->buf, k);
    if (c->counting && (rc0 = onnxslim__progress_add(c->pg, k)) != 0) return rc0;
  }
  return 0;
}

static int h_chunk(void *payload, const uint8_t *out, size_t n) {
  osl_fp *c = payload;
  XXH3_128bits_update(c->h, out, n);
  return onnxslim__progress_add(c->pg, n);
}

static int h_tensor_data(osl_fp *c, osl_msg *t) {
  onnxslim_tensor *tt = (onnxslim_tensor *)t;
  int32_t dt = onnxslim_tensor_dtype(tt);
  if (dt == ONNXSLIM_DTYPE_STRING) {
    size_t n = onnxslim_tensor_string_count(tt);
    h_u64(c->h, n);
    for (size_t i = 0; i < n; i++) {
      const char *s;
      size_t len;
      int rc = onnxslim_tensor_string(tt, i, &s, &len);
      if (!rc) rc = h_bytes(c, (const uint8_t *)s, len);
      if (rc) return rc;
    }
    return 0;
  }
  if (!onnxslim_dtype_bits(dt)) return 0; /* unknown layout: fields hashed as stored */
  const osl_xform *x;
  const uint8_t *p;
  size_t n;
  int rc = onnxslim__tensor_source(t, &x, &p, &n);
  if (rc) return rc;
  if (!x) {
    c->counting = 1;
    rc = h_bytes(c, p, n);
    c->counting = 0;
    return rc;
  }
  h_u64(c->h, n);
  return onnxslim__xform_chunks(c->m, x, NULL, h_chunk, c);
}

static int h_msg(osl_fp *c, osl_msg *msg) {
  int tensor = msg->def == &osl_def_onnx_TensorProto;
  int known_layout =
      tensor && (onnxslim_dtype_bits(onnxslim_tensor_dtype((onnxslim_tensor *)msg)) ||
                 onnxslim_tensor_dtype((onnxslim_tensor *)msg) == ONNXSLIM_DTYPE_STRING);
  OSL_FLUSH(msg);
  for (size_t i = 0; i < msg->nf; i++) {
    osl_field *f = &msg->f[i];
    if (known_layout && onnxslim__storage_field(f->number)) continue;
    h_u64(c->h, ((uint64_t)f->number << 3) | f->wt);
    if (f->sub) {
      int rc = h_msg(c, f->sub);
      if (rc) return rc;
      h_u64(c->h, UINT64_MAX); /* end of submessage */
    } else if (f->wt == OSL_WT_LEN) {
      if (f->xform) continue; /* only raw_data carries transforms: storage */
      int rc = h_bytes(c, f->p, f->n);
      if (rc) return rc;
    } else {
      h_u64(c->h, f->u);
    }
  }
  if (known_layout) {
    h_u64(c->h, 0x7e7e7e7eu); /* tensor contents follow */
    return h_tensor_data(c, msg);
  }
  return 0;
}

/* The bytes of tensor data h_msg will count: the byte size of each tensor
 * of a known numeric type (those h_tensor_data reads as data). */
static uint64_t tensor_bytes(osl_msg *msg) {
  uint64_t sum = 0, n;
  OSL_FLUSH(msg);
  if (msg->def == &osl_def_onnx_TensorProto &&
      onnxslim_dtype_bits(onnxslim_tensor_dtype((onnxslim_tensor *)msg)) &&
      onnxslim_tensor_byte_size((onnxslim_tensor *)msg, &n) == 0)
    sum += n;
  for (size_t i = 0; i < msg->nf; i++)
    if (msg->f[i].sub) sum += tensor_bytes(msg->f[i].sub);
  return sum;
}

int onnxslim_fingerprint_options_init(onnxslim_fingerprint_options *opts, unsigned int version) {
  if (!opts)
    return onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_fingerprint_options_init: opts is NULL");
  if (version < 1 || version > ONNXSLIM_FINGERPRINT_OPTIONS_VERSION)
    return onnxslim__err_options_version("onnxslim_fingerprint_options_init", "fingerprint options",
                                         version, ONNXSLIM_FINGERPRINT_OPTIONS_VERSION);
  onnxslim_fingerprint_options d = ONNXSLIM_FINGERPRINT_OPTIONS_INIT;
  d.version = version;
  *opts = d; /* version 1 is the whole struct */
  return 0;
}

int onnxslim_fingerprint_with(char *out, size_t size, const onnxslim_model *model,
                              const onnxslim_fingerprint_options *opts) {
  if (!out) return onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_fingerprint: NULL out");
  if (!onnxslim__model_root(model, "onnxslim_fingerprint")) return ONNXSLIM_EINVAL;
  if (size < ONNXSLIM_FINGERPRINT_SIZE)
    return onnxslim__err(ONNXSLIM_EBUFSIZE,
                         "onnxslim_fingerprint: a buffer of %zu bytes is too small: %d needed",
                         size, ONNXSLIM_FINGERPRINT_SIZE);
  onnxslim_fingerprint_options o = ONNXSLIM_FINGERPRINT_OPTIONS_INIT;
  if (opts) {
    if (opts->version < 1 || opts->version > ONNXSLIM_FINGERPRINT_OPTIONS_VERSION)
      return onnxslim__err_options_version("onnxslim_fingerprint_with", "fingerprint options",
                                           opts->version, ONNXSLIM_FINGERPRINT_OPTIONS_VERSION);
    o = *opts;
  }
  osl_progress pg;
  int rc = onnxslim__progress_start(&pg, o.progress, o.progress_payload,
                                    o.progress ? tensor_bytes(model->root) : 0);
  if (rc) return rc;
  XXH3_state_t *h = XXH3_createState();
  if (!h) return onnxslim__err_nomem(NULL);
  XXH3_128bits_reset(h);
  osl_fp c = {model, h, NULL, -1, 0, 0, &pg, 0};
  rc = h_msg(&c, model->root);
  free(c.buf);
  if (!rc) {
    XXH128_hash_t d = XXH3_128bits_digest(h);
    snprintf(out, ONNXSLIM_FINGERPRINT_SIZE, "%016llx%016llx", (unsigned long long)d.high64,
             (unsigned long long)d.low64);
    onnxslim__progress_end(&pg);
  }
  XXH3_freeState(h);
  return rc;
}

int onnxslim_fingerprint(char *out, size_t size, const onnxslim_model *model) {
  return onnxslim_fingerprint_with(out, size, model, NULL);
}
