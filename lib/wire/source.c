/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/* libonnxslim - a model's mapped bytes, as the I/O layer sees them: which
 * mapped file (the model file or an external data file) holds a range, so
 * an output copies it in the kernel and its pages are handed back once
 * used. base/io.c asks through an osl_source; this file answers for a
 * model. */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "wire/wire.h"

static int within(const void *base, size_t len, const uint8_t *q, size_t n) {
  const uint8_t *b = base;
  return b && q >= b && n <= len && q - b <= (ptrdiff_t)(len - n);
}

void onnxslim__release(const onnxslim_model *cmodel, const void *p, size_t n) {
  onnxslim_model *model = (onnxslim_model *)cmodel; /* the run is bookkeeping, not model state */
  const uint8_t *q = p;
  if (within(model->map, model->maplen, q, n)) {
    onnxslim__run_release(&model->rel, model->map, p, n);
    return;
  }
  for (size_t i = 0; i < model->next; i++)
    if (within(model->ext[i].map, model->ext[i].size, q, n)) {
      onnxslim__run_release(&model->ext[i].rel, model->ext[i].map, p, n);
      return;
    }
}

/* The file and offset behind mapped bytes [p, p+n) of the model, if any. */
static int locate(const void *owner, const uint8_t *p, size_t n, int *fd, int64_t *off) {
  const onnxslim_model *m = owner;
  if (m->fd >= 0 && within(m->map, m->maplen, p, n)) {
    *fd = m->fd;
    *off = (int64_t)(p - (const uint8_t *)m->map);
    return 1;
  }
  for (size_t i = 0; i < m->next; i++)
    if (m->ext[i].fd >= 0 && within(m->ext[i].map, m->ext[i].size, p, n)) {
      *fd = m->ext[i].fd;
      *off = (int64_t)(p - (const uint8_t *)m->ext[i].map);
      return 1;
    }
  return 0;
}

int onnxslim__model_locate(const onnxslim_model *model, const void *p, size_t n, int *fd,
                           int64_t *off) {
  return model ? locate(model, p, n, fd, off) : 0;
}

static const char *file_name(const onnxslim_model *m, int fd) {
  if (fd == m->fd) return m->path ? m->path : "the model";
  for (size_t i = 0; i < m->next; i++)
    if (m->ext[i].fd == fd && m->ext[i].path) return m->ext[i].path;
  return "an external data file";
}

int onnxslim__model_read(const onnxslim_model *model, const void *p, size_t n, void *dst) {
  int fd;
  int64_t off;
  if (!n) return 0;
  if (!onnxslim__model_locate(model, p, n, &fd, &off)) {
    memcpy(dst, p, n);
    return 0;
  }
  if (onnxslim__read_at(fd, off, dst, n) == 0) return 0;
  return onnxslim__err(ONNXSLIM_EIO, "cannot read %zu bytes of '%s' at byte %lld: %s", n,
                       file_name(model, fd), (long long)off,
                       errno == EIO ? "the file got shorter" : strerror(errno));
}

static void release(const void *owner, const void *p, size_t n) { onnxslim__release(owner, p, n); }

osl_source onnxslim__model_source(const onnxslim_model *model) {
  osl_source s = {NULL, NULL, NULL};
  if (model) s = (osl_source){model, locate, release};
  return s;
}

osl_out *onnxslim__out_open_at(int dirfd, const char *path, uint64_t size,
                               const onnxslim_model *model) {
  return onnxslim__out_open_at_from(dirfd, path, size, onnxslim__model_source(model));
}

osl_out *onnxslim__out_open_beneath(int basefd, const char *base, const char *rel, uint64_t size,
                                    const onnxslim_model *model) {
  return onnxslim__out_open_beneath_from(basefd, base, rel, size, onnxslim__model_source(model));
}

int onnxslim__atomic_write(const char *path, uint64_t size, int fsync_data,
                           int (*write_fn)(osl_sink *sink, void *payload), void *payload,
                           const onnxslim_model *model, osl_progress *progress, uint64_t *copied) {
  return onnxslim__atomic_write_from(path, size, fsync_data, write_fn, payload,
                                     onnxslim__model_source(model), progress, copied);
}
