/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - saving a model: onnxslim_save() and its options; a save
 * with the tensors as loaded (one file, atomically) and to a buffer. Saves
 * with external data or all inline: save_external.c; the report:
 * save_report.c.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "onnx.pb.h"

#include "passes/passes.h"

#define ROOT_OR(ret)                                  \
  osl_msg *r = onnxslim__model_root(model, __func__); \
  if (!r) return ret

/* ---- options ------------------------------------------------------------- */

/* Bytes of onnxslim_save_options a caller of `version` has: version 1 ends
 * before `progress`. */
static size_t options_size(unsigned int version) {
  if (version == 1) return offsetof(onnxslim_save_options, progress);
  return sizeof(onnxslim_save_options);
}

int onnxslim_save_options_init(onnxslim_save_options *opts, unsigned int version) {
  if (!opts) return onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_save_options_init: opts is NULL");
  if (version < 1 || version > ONNXSLIM_SAVE_OPTIONS_VERSION)
    return onnxslim__err_options_version("onnxslim_save_options_init", "save options", version,
                                         ONNXSLIM_SAVE_OPTIONS_VERSION);
  onnxslim_save_options d = ONNXSLIM_SAVE_OPTIONS_INIT;
  memcpy(opts, &d, options_size(version));
  opts->version = version;
  return 0;
}

/* The flags that place tensors in data files: only with those layouts. */
#define OSL_SAVE_EXTERNAL_FLAGS                                                          \
  (ONNXSLIM_SAVE_CONSTANTS | ONNXSLIM_SAVE_CHECKSUM | ONNXSLIM_SAVE_FORCE_SHAPE_INPUTS | \
   ONNXSLIM_SAVE_KEEP_STORAGE)
#define OSL_SAVE_FLAGS \
  (ONNXSLIM_SAVE_NO_FSYNC | ONNXSLIM_SAVE_ALLOW_LARGE | OSL_SAVE_EXTERNAL_FLAGS)

static const char *layout_name(int layout) {
  switch (layout) {
  case ONNXSLIM_LAYOUT_AS_LOADED: return "AS_LOADED";
  case ONNXSLIM_LAYOUT_ONE_FILE: return "ONE_FILE";
  case ONNXSLIM_LAYOUT_PER_TENSOR: return "PER_TENSOR";
  default: return "INLINE";
  }
}

/* Copies opts (NULL: the defaults) to *o and checks it. */
static int read_options(const onnxslim_save_options *opts, onnxslim_save_options *o) {
  onnxslim_save_options d = ONNXSLIM_SAVE_OPTIONS_INIT;
  *o = d;
  if (!opts) return 0;
  if (opts->version < 1 || opts->version > ONNXSLIM_SAVE_OPTIONS_VERSION)
    return onnxslim__err_options_version("onnxslim_save", "save options", opts->version,
                                         ONNXSLIM_SAVE_OPTIONS_VERSION);
  /* the fields the caller's version has; the later ones keep their defaults */
  memcpy(o, opts, options_size(opts->version));
  o->version = ONNXSLIM_SAVE_OPTIONS_VERSION;
  if (o->layout < ONNXSLIM_LAYOUT_AS_LOADED || o->layout > ONNXSLIM_LAYOUT_INLINE)
    return onnxslim__err(ONNXSLIM_EINVAL,
                         "onnxslim_save: unknown layout %d (ONNXSLIM_LAYOUT_AS_LOADED, ONE_FILE, "
                         "PER_TENSOR or INLINE)",
                         o->layout);
  if (o->flags & ~(unsigned int)OSL_SAVE_FLAGS)
    return onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_save: reserved save flags 0x%x set",
                         o->flags & ~(unsigned int)OSL_SAVE_FLAGS);
  unsigned int ext = o->flags & OSL_SAVE_EXTERNAL_FLAGS;
  if (ext && o->layout != ONNXSLIM_LAYOUT_ONE_FILE && o->layout != ONNXSLIM_LAYOUT_PER_TENSOR)
    return onnxslim__err(ONNXSLIM_EINVAL,
                         "onnxslim_save: flag%s%s%s%s only with the layouts ONE_FILE and "
                         "PER_TENSOR, not %s",
                         ext & ONNXSLIM_SAVE_CONSTANTS ? " CONSTANTS" : "",
                         ext & ONNXSLIM_SAVE_CHECKSUM ? " CHECKSUM" : "",
                         ext & ONNXSLIM_SAVE_FORCE_SHAPE_INPUTS ? " FORCE_SHAPE_INPUTS" : "",
                         ext & ONNXSLIM_SAVE_KEEP_STORAGE ? " KEEP_STORAGE" : "",
                         layout_name(o->layout));
  if (o->align & (o->align - 1))
    return onnxslim__err(ONNXSLIM_EINVAL, "alignment %llu is not a power of two",
                         (unsigned long long)o->align);
  return 0;
}

/* ---- the tensors as loaded, one file ---------------------------------------- */

static int write_model(osl_sink *sink, void *payload) { return onnxslim__msg_write(payload, sink); }

static int save_as_loaded(osl_msg *r, const onnxslim_model *model, const char *path,
                          const onnxslim_save_options *o, uint64_t *copied) {
  unsigned int flags = o->flags;
  uint64_t size;
  int rc = onnxslim__msg_size(r, &size);
  if (rc) return rc;
  rc = onnxslim__model_size_ok(path, size, flags & ONNXSLIM_SAVE_ALLOW_LARGE);
  if (rc) return rc;
  /* Saves to path take turns: the model in place is read, replaced, and
   * the data files it read that this model does not go (save_external.c);
   * what this model references is still there when it lands. */
  osl_progress progress;
  osl_replace *rp = NULL;
  rc = onnxslim__external_refs_resolve(model, path);
  if (!rc) rc = onnxslim__replace_begin(&rp, model, path);
  if (!rc) rc = onnxslim__progress_start(&progress, o->progress, o->progress_payload, size);
  if (!rc)
    rc = onnxslim__atomic_write(path, size, !(flags & ONNXSLIM_SAVE_NO_FSYNC), write_model, r,
                                model, &progress, copied);
  onnxslim__replace_end(rp, rc);
  if (!rc) onnxslim__progress_end(&progress);
  return rc;
}

int onnxslim_save(onnxslim_save_report **out, const onnxslim_model *model, const char *path,
                  const onnxslim_save_options *opts) {
  if (out) *out = NULL;
  ROOT_OR(ONNXSLIM_EINVAL);
  if (!path) return onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_save: NULL path");
  onnxslim_save_options o;
  int rc = read_options(opts, &o);
  if (rc) return rc;
  if (o.layout != ONNXSLIM_LAYOUT_AS_LOADED) return onnxslim__save_external(out, model, path, &o);
  onnxslim_save_report *rep = out ? calloc(1, sizeof *rep) : NULL;
  if (out && !rep) return onnxslim__err_nomem("save report");
  uint64_t copied = 0;
  rc = save_as_loaded(r, model, path, &o, &copied);
  if (rc) {
    onnxslim_save_report_free(rep);
    return rc;
  }
  if (rep) {
    rep->copied = copied;
    *out = rep;
  }
  return 0;
}

/* ---- to a buffer ---------------------------------------------------------------- */

int onnxslim_save_size(const onnxslim_model *model, uint64_t *size) {
  ROOT_OR(ONNXSLIM_EINVAL);
  if (!size) return onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_save_size: NULL size");
  return onnxslim__msg_size(r, size);
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

int onnxslim_save_buffer(const onnxslim_model *model, void *buf, size_t capacity, size_t *size) {
  ROOT_OR(ONNXSLIM_EINVAL);
  if (!size) return onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_save_buffer: NULL size");
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

int onnxslim_save_buffer_external(onnxslim_save_report **out, const onnxslim_model *model,
                                  void *buf, size_t capacity, size_t *size,
                                  const onnxslim_save_options *opts) {
  if (out) *out = NULL;
  ROOT_OR(ONNXSLIM_EINVAL);
  (void)r;
  if (!size) return onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_save_buffer_external: NULL size");
  if (!opts)
    return onnxslim__err(ONNXSLIM_EINVAL,
                         "onnxslim_save_buffer_external: NULL options (the "
                         "layout ONE_FILE or PER_TENSOR is needed)");
  onnxslim_save_options o;
  int rc = read_options(opts, &o);
  if (rc) return rc;
  if (o.layout != ONNXSLIM_LAYOUT_ONE_FILE && o.layout != ONNXSLIM_LAYOUT_PER_TENSOR)
    return onnxslim__err(ONNXSLIM_EINVAL,
                         "onnxslim_save_buffer_external: layout %s: only ONE_FILE and PER_TENSOR "
                         "(onnxslim_save_buffer() saves the tensors as loaded)",
                         layout_name(o.layout));
  if (o.flags & ONNXSLIM_SAVE_CHECKSUM)
    return onnxslim__err(ONNXSLIM_EINVAL,
                         "onnxslim_save_buffer_external: flag CHECKSUM: no data is written");
  return onnxslim__save_external_buffer(out, model, buf, capacity, size, &o);
}
