/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - the one loop over a transform's chunks (osl_xform): run
 * serially or, for a large mapped source, on a second thread one chunk
 * ahead of the writer; below the editor (edit.c) and the writer (write.c),
 * which both run transforms.
 */
#define _XOPEN_SOURCE 700 /* POSIX names of the C library */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pb_decode.h>
#include <pb_encode.h>

#include "onnx.pb.h"

#include "wire/wire.h"

#define OSL_XFORM_CHUNK (1u << 18)       /* elements per chunk */
#define OSL_XFORM_CHUNK_BYTES (1u << 22) /* and at most these bytes of input or output */
/* Source bytes from which a transform handing its output on (fn) runs on
 * a second thread, a chunk ahead of fn: reading and converting overlap
 * writing. */
#define OSL_XFORM_PIPE_MIN (8u << 20)

/* The transform's chunks one after the other, each read in place (bytes in
 * memory; pages released behind, unless the transform reads in place and
 * releases them itself) or, with inbuf, copied there from the model's file
 * first (pread: no page of the mapping gets mapped). */
static int chunks_serial(const onnxslim_model *model, const osl_xform *x, uint8_t *dst,
                         osl_chunk_fn fn, void *payload, uint8_t *inbuf, uint8_t *buf, size_t cap) {
  int rc = 0;
  for (size_t i = 0; i < x->count && !rc; i += cap) {
    size_t n = x->count - i < cap ? x->count - i : cap;
    const uint8_t *src = x->self_read ? NULL : x->src + i * x->in_size;
    uint8_t *out = dst ? dst + i * x->out_size : buf;
    if (inbuf && src) {
      rc = onnxslim__model_read(model, src, n * x->in_size, inbuf);
      if (rc) break;
      src = inbuf;
    }
    rc = x->run(x, i, src, n, out);
    if (!rc && fn) rc = fn(payload, out, n * x->out_size);
    if (!inbuf && src && !x->in_place) onnxslim__release(model, src, n * x->in_size);
  }
  return rc;
}

/* The pipeline: a worker reads (unless the transform reads in place) and
 * transforms chunk k + 1 into one of two slots while the caller's thread
 * hands chunk k to fn. */
typedef struct {
  const onnxslim_model *model;
  const osl_xform *x;
  size_t cap; /* elements per chunk */
  uint8_t *in, *out[2];
  osl_os_monitor *mon;
  size_t made, used; /* chunks made by the worker, handed on by the caller */
  int stop;          /* the caller gives up (fn failed) */
  int rc;            /* the worker's failure */
  char err[256];     /* its message (errors are per thread) */
} osl_pipe;

static void pipe_worker(void *arg) {
  osl_pipe *pp = arg;
  const osl_xform *x = pp->x;
  size_t nchunks = (x->count + pp->cap - 1) / pp->cap;
  for (size_t k = 0; k < nchunks; k++) {
    onnxslim__os_monitor_lock(pp->mon);
    while (!pp->stop && pp->made - pp->used >= 2) onnxslim__os_monitor_wait(pp->mon);
    int stop = pp->stop;
    onnxslim__os_monitor_unlock(pp->mon);
    if (stop) break;
    size_t i = k * pp->cap, n = x->count - i < pp->cap ? x->count - i : pp->cap;
    const uint8_t *src = x->src + i * x->in_size;
    int rc = x->in_place ? 0 : onnxslim__model_read(pp->model, src, n * x->in_size, pp->in);
    if (!rc) rc = x->run(x, i, x->in_place ? src : pp->in, n, pp->out[k & 1]);
    if (rc) snprintf(pp->err, sizeof pp->err, "%s", onnxslim_error_last());
    onnxslim__os_monitor_lock(pp->mon);
    if (rc) pp->rc = rc;
    else pp->made++;
    onnxslim__os_monitor_wake_all(pp->mon);
    onnxslim__os_monitor_unlock(pp->mon);
    if (rc) break;
  }
}

static int chunks_piped(const onnxslim_model *model, const osl_xform *x, osl_chunk_fn fn,
                        void *payload, uint8_t *inbuf, uint8_t *buf, size_t cap, int *started) {
  osl_pipe pp;
  memset(&pp, 0, sizeof pp);
  pp.model = model;
  pp.x = x;
  pp.cap = cap;
  pp.in = inbuf;
  pp.out[0] = buf;
  pp.out[1] = buf + cap * x->out_size;
  *started = 0;
  if (!(pp.mon = onnxslim__os_monitor_new())) return 0;
  osl_os_thread *th = onnxslim__os_thread_start(pipe_worker, &pp);
  if (!th) {
    onnxslim__os_monitor_free(pp.mon);
    return 0; /* no thread: the caller runs the chunks itself */
  }
  *started = 1;
  size_t nchunks = (x->count + cap - 1) / cap;
  int rc = 0;
  for (size_t k = 0; k < nchunks && !rc; k++) {
    onnxslim__os_monitor_lock(pp.mon);
    while (pp.made <= k && !pp.rc) onnxslim__os_monitor_wait(pp.mon);
    int failed = pp.made <= k ? pp.rc : 0;
    onnxslim__os_monitor_unlock(pp.mon);
    if (failed) {
      rc = onnxslim__err(failed, "%s", pp.err);
      break;
    }
    size_t n = x->count - k * cap < cap ? x->count - k * cap : cap;
    rc = fn(payload, pp.out[k & 1], n * x->out_size);
    onnxslim__os_monitor_lock(pp.mon);
    pp.used++;
    if (rc) pp.stop = 1;
    onnxslim__os_monitor_wake_all(pp.mon);
    onnxslim__os_monitor_unlock(pp.mon);
  }
  onnxslim__os_thread_join(th);
  onnxslim__os_monitor_free(pp.mon);
  return rc;
}

/* The one loop over a transform's chunks (see wire.h). */
int onnxslim__xform_chunks(const onnxslim_model *model, const osl_xform *x, uint8_t *dst,
                           osl_chunk_fn fn, void *payload) {
  size_t cap = x->count < OSL_XFORM_CHUNK ? x->count : OSL_XFORM_CHUNK;
  /* elements of many bytes (a quantized block): at most about 4 MiB a chunk */
  size_t big = x->in_size > x->out_size ? x->in_size : x->out_size;
  if (big && cap > (OSL_XFORM_CHUNK_BYTES / big))
    cap = OSL_XFORM_CHUNK_BYTES / big ? OSL_XFORM_CHUNK_BYTES / big : 1;
  if (x->self_read && x->chunk) cap = x->count < x->chunk ? x->count : x->chunk;
  size_t total = x->count * x->in_size;
  int fd = -1;
  int64_t off = 0;
  int file = x->count && !x->self_read && onnxslim__model_locate(model, x->src, total, &fd, &off);
  int piped = file && !dst && fn && total >= OSL_XFORM_PIPE_MIN;
  uint8_t *buf = NULL, *inbuf = NULL;
  if (!dst) {
    buf = malloc(cap ? (piped ? 2 : 1) * cap * x->out_size : 1);
    if (!buf) return onnxslim__err_nomem(NULL);
  }
  if (file && !x->in_place) {
    inbuf = malloc(cap * x->in_size);
    if (!inbuf) {
      free(buf);
      return onnxslim__err_nomem(NULL);
    }
  }
  int rc = 0, started = 0;
  if (piped) rc = chunks_piped(model, x, fn, payload, inbuf, buf, cap, &started);
  if (!started) rc = chunks_serial(model, x, dst, fn, payload, inbuf, buf, cap);
  free(inbuf);
  free(buf);
  return rc;
}

static int sink_chunk(void *payload, const uint8_t *out, size_t n) {
  osl_sink *sink = payload;
  return sink->write(sink, out, n);
}

/* Streams a transform: one chunk of output in memory at a time. */
int onnxslim__xform_write(onnxslim_model *model, const osl_xform *x, osl_sink *sink) {
  return onnxslim__xform_chunks(model, x, NULL, sink_chunk, sink);
}

int onnxslim__xform_all(onnxslim_model *model, const osl_xform *x, uint8_t *dst) {
  return onnxslim__xform_chunks(model, x, dst, NULL, NULL);
}

/* Bytes off..off+n of a transform's output (see wire.h). */
int onnxslim__xform_read(const onnxslim_model *model, const osl_xform *x, uint64_t off, void *dst,
                         size_t n) {
  uint64_t total = (uint64_t)x->count * x->out_size;
  if (off > total || n > total - off)
    return onnxslim__err(ONNXSLIM_ERANGE, "read of %zu bytes at %llu past a transform's %llu", n,
                         (unsigned long long)off, (unsigned long long)total);
  if (!n) return 0;
  size_t first = (size_t)(off / x->out_size);
  size_t last = (size_t)((off + n + x->out_size - 1) / x->out_size); /* one past */
  if (x->self_read && x->chunk) { /* whole chunks: the transform makes no less */
    first -= first % x->chunk;
    size_t up = (x->chunk - last % x->chunk) % x->chunk;
    last = up < x->count - last ? last + up : x->count;
  }
  size_t k = last - first, skip = (size_t)(off - (uint64_t)first * x->out_size);
  uint8_t *in = x->self_read ? NULL : malloc(x->in_size ? k * x->in_size : 1);
  uint8_t *out = malloc(k * x->out_size);
  int rc = (in || x->self_read) && out ? 0 : onnxslim__err_nomem(NULL);
  if (!rc && in) rc = onnxslim__model_read(model, x->src + first * x->in_size, k * x->in_size, in);
  if (!rc) rc = x->run(x, first, in, k, out);
  if (!rc) memcpy(dst, out + skip, n);
  free(in);
  free(out);
  return rc;
}
