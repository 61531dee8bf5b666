/*
 * libonnxslim - saving a model: to a file (atomically) or to a buffer.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "onnx.pb.h"

#include "internal.h"

#define ROOT_OR(ret)                                           \
  osl_msg *r = onnxslim__model_root(model, __func__);          \
  if (!r) return ret

int onnxslim_save_options_init(onnxslim_save_options *opts, unsigned int version) {
  if (!opts) return onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_save_options_init: opts is NULL");
  if (version != ONNXSLIM_SAVE_OPTIONS_VERSION)
    return onnxslim__err_options_version("onnxslim_save_options_init", "save options", version,
                                         ONNXSLIM_SAVE_OPTIONS_VERSION);
  memset(opts, 0, sizeof *opts);
  opts->version = version;
  return 0;
}

/* ---- save ----------------------------------------------------------------- */

int onnxslim__model_size_ok(const char *path, uint64_t size, int allow_large) {
  if (size <= INT32_MAX || allow_large) return 0;
  return onnxslim__err(ONNXSLIM_ELIMIT,
                       "'%s' would be %llu bytes, over protobuf's 2 GiB limit (move tensors to "
                       "external data, or allow it explicitly)",
                       path, (unsigned long long)size);
}

static int read_save_options(const onnxslim_save_options *opts, unsigned int *flags) {
  *flags = 0;
  if (!opts) return 0;
  if (opts->version < 1 || opts->version > ONNXSLIM_SAVE_OPTIONS_VERSION)
    return onnxslim__err_options_version(NULL, "save options", opts->version,
                                         ONNXSLIM_SAVE_OPTIONS_VERSION);
  if (opts->flags & ~(ONNXSLIM_SAVE_NO_FSYNC | ONNXSLIM_SAVE_ALLOW_LARGE))
    return onnxslim__err(ONNXSLIM_EINVAL, "reserved save option flags 0x%x set", opts->flags);
  *flags = opts->flags;
  return 0;
}

int onnxslim_model_save_size(const onnxslim_model *model, uint64_t *size) {
  ROOT_OR(ONNXSLIM_EINVAL);
  if (!size) return onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_model_save_size: NULL size");
  return onnxslim__msg_size(r, size);
}

static int write_model(osl_sink *sink, void *payload) {
  return onnxslim__msg_write(payload, sink);
}

int onnxslim_model_save(const onnxslim_model *model, const char *path,
                        const onnxslim_save_options *opts) {
  ROOT_OR(ONNXSLIM_EINVAL);
  if (!path) return onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_model_save: NULL path");
  unsigned int flags;
  int rc = read_save_options(opts, &flags);
  if (rc) return rc;
  uint64_t size;
  rc = onnxslim__msg_size(r, &size);
  if (rc) return rc;
  rc = onnxslim__model_size_ok(path, size, flags & ONNXSLIM_SAVE_ALLOW_LARGE);
  if (rc) return rc;
  /* A model that reads external data takes its turn with the saves to path
   * that may remove such files (onnxslim_model_save_external), so that what
   * it references still is there when it lands. */
  osl_lock *lock = NULL;
  if (onnxslim__external_count(model) && !(lock = onnxslim__dest_lock_path(path)))
    return onnxslim_error_last_code();
  rc = onnxslim__external_refs_resolve(model, path);
  if (!rc)
    rc = onnxslim__atomic_write(path, size, !(flags & ONNXSLIM_SAVE_NO_FSYNC), write_model, r,
                                model);
  onnxslim__dest_unlock(lock);
  return rc;
}

typedef struct {
  osl_sink base;
  uint8_t *buf;
  size_t len, cap;
} osl_buf_sink;

static int buf_sink_write(osl_sink *sink, const uint8_t *data, size_t size) {
  osl_buf_sink *bs = (osl_buf_sink *)sink;
  if (size > bs->cap - bs->len)
    return onnxslim__err(ONNXSLIM_EBUFSIZE, "buffer of %zu bytes overflowed", bs->cap);
  memcpy(bs->buf + bs->len, data, size);
  bs->len += size;
  return 0;
}

int onnxslim_model_save_buffer(const onnxslim_model *model, void *buf, size_t capacity,
                               size_t *size) {
  ROOT_OR(ONNXSLIM_EINVAL);
  if (!size) return onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_model_save_buffer: NULL size");
  uint64_t need;
  int rc = onnxslim__msg_size(r, &need);
  if (rc) return rc;
  if (need > SIZE_MAX) return onnxslim__err(ONNXSLIM_ELIMIT, "model too large for a buffer");
  *size = (size_t)need;
  if (!buf || capacity < need)
    return onnxslim__err(ONNXSLIM_EBUFSIZE, "buffer of %zu bytes is too small: %zu needed",
                         buf ? capacity : 0, (size_t)need);
  osl_buf_sink bs = {{buf_sink_write}, buf, 0, capacity};
  rc = onnxslim__msg_write(r, &bs.base);
  if (!rc && bs.len != need)
    rc = onnxslim__err(ONNXSLIM_EIO, "internal size mismatch: %zu written, %zu expected", bs.len,
                       (size_t)need);
  return rc;
}
