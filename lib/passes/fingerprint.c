/*
 * libonnxslim - the model fingerprint: a digest that does not depend on
 * where tensor bytes are stored.
 */
#include <stdio.h>
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

/* Hashes bytes in chunks, read from the model's file when they are mapped
 * (onnxslim__model_read: no page of the mapping gets mapped), else in
 * place with their pages released behind. */
static int h_bytes(const onnxslim_model *m, XXH3_state_t *h, const uint8_t *p, size_t n) {
  h_u64(h, n);
  int fd;
  int64_t off;
  const size_t chunk = 1u << 20;
  uint8_t *buf = NULL;
  if (n >= 4096 && onnxslim__model_locate(m, p, n, &fd, &off)) {
    buf = malloc(n < chunk ? n : chunk);
    if (!buf) return onnxslim__err_nomem(NULL);
  }
  for (size_t i = 0; i < n; i += chunk) {
    size_t c = n - i < chunk ? n - i : chunk;
    if (buf) {
      int rc = onnxslim__model_read(m, p + i, c, buf);
      if (rc) {
        free(buf);
        return rc;
      }
      XXH3_128bits_update(h, buf, c);
    } else {
      XXH3_128bits_update(h, p + i, c);
      onnxslim__release(m, p + i, c);
    }
  }
  free(buf);
  return 0;
}

static int h_chunk(void *payload, const uint8_t *out, size_t n) {
  XXH3_128bits_update(payload, out, n);
  return 0;
}

static int h_tensor_data(const onnxslim_model *m, XXH3_state_t *h, osl_msg *t) {
  onnxslim_tensor *tt = (onnxslim_tensor *)t;
  int32_t dt = onnxslim_tensor_dtype(tt);
  if (dt == ONNXSLIM_DTYPE_STRING) {
    size_t n = onnxslim_tensor_string_count(tt);
    h_u64(h, n);
    for (size_t i = 0; i < n; i++) {
      const char *s;
      size_t len;
      int rc = onnxslim_tensor_string(tt, i, &s, &len);
      if (!rc) rc = h_bytes(m, h, (const uint8_t *)s, len);
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
  if (!x) return h_bytes(m, h, p, n);
  h_u64(h, n);
  return onnxslim__xform_chunks(m, x, NULL, h_chunk, h);
}

static int h_msg(const onnxslim_model *m, XXH3_state_t *h, osl_msg *msg) {
  int tensor = msg->def == &osl_def_onnx_TensorProto;
  int known_layout =
      tensor && (onnxslim_dtype_bits(onnxslim_tensor_dtype((onnxslim_tensor *)msg)) ||
                 onnxslim_tensor_dtype((onnxslim_tensor *)msg) == ONNXSLIM_DTYPE_STRING);
  OSL_FLUSH(msg);
  for (size_t i = 0; i < msg->nf; i++) {
    osl_field *f = &msg->f[i];
    if (known_layout && onnxslim__storage_field(f->number)) continue;
    h_u64(h, ((uint64_t)f->number << 3) | f->wt);
    if (f->sub) {
      int rc = h_msg(m, h, f->sub);
      if (rc) return rc;
      h_u64(h, UINT64_MAX); /* end of submessage */
    } else if (f->wt == OSL_WT_LEN) {
      if (f->xform) continue; /* only raw_data carries transforms: storage */
      int rc = h_bytes(m, h, f->p, f->n);
      if (rc) return rc;
    } else {
      h_u64(h, f->u);
    }
  }
  if (known_layout) {
    h_u64(h, 0x7e7e7e7eu); /* tensor contents follow */
    return h_tensor_data(m, h, msg);
  }
  return 0;
}

int onnxslim_fingerprint(char *out, size_t size, const onnxslim_model *model) {
  if (!out) return onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_fingerprint: NULL out");
  if (!onnxslim__model_root(model, "onnxslim_fingerprint")) return ONNXSLIM_EINVAL;
  if (size < ONNXSLIM_FINGERPRINT_SIZE)
    return onnxslim__err(ONNXSLIM_EBUFSIZE,
                         "onnxslim_fingerprint: a buffer of %zu bytes is too small: %d needed",
                         size, ONNXSLIM_FINGERPRINT_SIZE);
  XXH3_state_t *h = XXH3_createState();
  if (!h) return onnxslim__err_nomem(NULL);
  XXH3_128bits_reset(h);
  int rc = h_msg(model, h, model->root);
  if (!rc) {
    XXH128_hash_t d = XXH3_128bits_digest(h);
    snprintf(out, ONNXSLIM_FINGERPRINT_SIZE, "%016llx%016llx", (unsigned long long)d.high64,
             (unsigned long long)d.low64);
  }
  XXH3_freeState(h);
  return rc;
}
