/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - writing the message tree back: sizes, serialization (a
 * message nobody edited is spliced as it was; an edited one re-encodes its
 * own fields in their stored order) and a save's plan. Parsing is in
 * parse.c, the fields and their edits in edit.c, the loop over a
 * transform's chunks in xform.c (wire.h).
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

/* ---- serialization ----------------------------------------------------- */

static size_t varint_size(uint64_t v) {
  size_t n = 1;
  while (v >= 0x80) {
    v >>= 7;
    n++;
  }
  return n;
}

/* ---- a save's plan ------------------------------------------------------ *
 * The messages a save writes otherwise than the model holds them: tensors
 * with an osl_plan, and every message above one (re-encoded, as they hold a
 * changed message) with plan NULL. One entry per message, sorted by
 * address once complete (saveplan_seal), found by binary search. */

struct osl_saveplan_entry {
  const osl_msg *msg;
  const osl_plan *plan; /* NULL: a message above a planned tensor */
};

static int saveplan_add(osl_saveplan *sp, const osl_msg *msg, const osl_plan *plan) {
  if (sp->count == sp->cap) {
    size_t cap = sp->cap ? sp->cap * 2 : 64;
    struct osl_saveplan_entry *v = realloc(sp->e, cap * sizeof *v);
    if (!v) return onnxslim__err_nomem("save plan");
    sp->e = v;
    sp->cap = cap;
  }
  sp->e[sp->count].msg = msg;
  sp->e[sp->count].plan = plan;
  sp->count++;
  sp->sealed = 0;
  return 0;
}

int onnxslim__saveplan_set(osl_saveplan *sp, const osl_msg *tensor, const osl_plan *plan) {
  int rc = saveplan_add(sp, tensor, plan);
  /* the messages above it: once per parent when tensors come in order */
  const osl_msg *top = tensor->parent;
  if (top && top == sp->last_parent) return rc;
  for (const osl_msg *m = top; m && !rc; m = m->parent) rc = saveplan_add(sp, m, NULL);
  if (!rc) sp->last_parent = top;
  return rc;
}

static int entry_cmp(const void *pa, const void *pb) {
  const struct osl_saveplan_entry *a = pa, *b = pb;
  if (a->msg != b->msg) return (uintptr_t)a->msg < (uintptr_t)b->msg ? -1 : 1;
  /* a tensor's plan before a NULL entry of the same message */
  return (a->plan == NULL) - (b->plan == NULL);
}

void onnxslim__saveplan_seal(osl_saveplan *sp) {
  if (sp->sealed) return;
  if (sp->count > 1) qsort(sp->e, sp->count, sizeof *sp->e, entry_cmp); /* e may be NULL */
  size_t k = 0;
  for (size_t i = 0; i < sp->count; i++)
    if (k == 0 || sp->e[k - 1].msg != sp->e[i].msg) sp->e[k++] = sp->e[i];
  sp->count = k;
  sp->sealed = 1;
}

void onnxslim__saveplan_free(osl_saveplan *sp) {
  free(sp->e);
  memset(sp, 0, sizeof *sp);
}

/* The entry of m in the (sealed) plan, or NULL. */
static const struct osl_saveplan_entry *plan_entry(const osl_saveplan *sp, const osl_msg *m) {
  if (!sp || !sp->count) return NULL;
  size_t lo = 0, hi = sp->count;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (sp->e[mid].msg == m) return &sp->e[mid];
    if ((uintptr_t)sp->e[mid].msg < (uintptr_t)m) lo = mid + 1;
    else hi = mid;
  }
  return NULL;
}

static const osl_plan *plan_of(const osl_saveplan *sp, const osl_msg *m) {
  const struct osl_saveplan_entry *e = plan_entry(sp, m);
  return e ? e->plan : NULL;
}

/* Must m be re-encoded by this save (else its bytes are spliced)? */
static int needs_encode(const osl_msg *m, const osl_saveplan *sp) {
  return m->dirty || plan_entry(sp, m) != NULL;
}

/* Storage fields a plan replaces. */
int onnxslim__storage_field(uint32_t number) {
  switch (number) {
  case onnx_TensorProto_float_data_tag:
  case onnx_TensorProto_int32_data_tag:
  case onnx_TensorProto_string_data_tag:
  case onnx_TensorProto_int64_data_tag:
  case onnx_TensorProto_raw_data_tag:
  case onnx_TensorProto_double_data_tag:
  case onnx_TensorProto_uint64_data_tag:
  case onnx_TensorProto_external_data_tag:
  case onnx_TensorProto_data_location_tag: return 1;
  default: return 0;
  }
}

/* Length of a field's original encoding (f->raw). */
static size_t raw_len(const osl_field *f) { return f->hlen + (f->wt == OSL_WT_LEN ? f->n : 0); }

static int size_pass(osl_msg *msg, const osl_saveplan *sp, uint64_t *size) {
  OSL_FLUSH(msg);
  if (!needs_encode(msg, sp)) {
    msg->enc_size = msg->n;
    *size = msg->n;
    return 0;
  }
  const osl_plan *plan = plan_of(sp, msg);
  uint64_t total = 0;
  for (size_t i = 0; i < msg->nf; i++) {
    osl_field *f = &msg->f[i];
    if (plan && onnxslim__storage_field(f->number)) continue;
    if (f->raw && !(f->sub && needs_encode(f->sub, sp))) {
      total += raw_len(f);
      continue;
    }
    total += varint_size((uint64_t)f->number << 3);
    switch (f->wt) {
    case OSL_WT_VARINT: total += varint_size(f->u); break;
    case OSL_WT_32BIT: total += 4; break;
    case OSL_WT_64BIT: total += 8; break;
    default: {
      uint64_t len = f->n;
      if (f->sub) {
        int rc = size_pass(f->sub, sp, &len);
        if (rc) return rc;
      }
      total += varint_size(len) + len;
    }
    }
  }
  if (plan) {
    const osl_plan *pl = plan;
    if (pl->data || pl->xform) {
      uint64_t len = pl->xform ? (uint64_t)pl->xform->count * pl->xform->out_size : pl->size;
      total += varint_size((uint64_t)onnx_TensorProto_raw_data_tag << 3) + varint_size(len) + len;
    }
    total += pl->fields_len;
  }
  msg->enc_size = total;
  *size = total;
  return 0;
}

int onnxslim__msg_size(osl_msg *msg, uint64_t *size) { return size_pass(msg, NULL, size); }

int onnxslim__msg_size_planned(osl_msg *msg, osl_saveplan *sp, uint64_t *size) {
  onnxslim__saveplan_seal(sp);
  return size_pass(msg, sp, size);
}

typedef struct {
  osl_sink *sink;
  int rc;
} osl_pbsink;

static bool pb_to_sink(pb_ostream_t *stream, const pb_byte_t *buf, size_t count) {
  osl_pbsink *ps = stream->state;
  ps->rc = ps->sink->write(ps->sink, buf, count);
  return ps->rc == 0;
}

static int write_field_head(osl_sink *sink, const osl_field *f, uint64_t len) {
  osl_pbsink ps = {sink, 0};
  pb_ostream_t os;
  memset(&os, 0, sizeof os);
  os.callback = pb_to_sink;
  os.state = &ps;
  os.max_size = SIZE_MAX;
  bool ok = pb_encode_tag(&os, (pb_wire_type_t)f->wt, f->number);
  if (ok) {
    switch (f->wt) {
    case OSL_WT_VARINT: ok = pb_encode_varint(&os, f->u); break;
    case OSL_WT_32BIT: {
      uint32_t v = (uint32_t)f->u;
      ok = pb_encode_fixed32(&os, &v);
      break;
    }
    case OSL_WT_64BIT: ok = pb_encode_fixed64(&os, &f->u); break;
    default: ok = pb_encode_varint(&os, len); break;
    }
  }
  if (!ok) return ps.rc ? ps.rc : onnxslim__err(ONNXSLIM_EIO, "encoding failed");
  return 0;
}

static int write_pass(osl_msg *msg, const osl_saveplan *sp, osl_sink *sink) {
  OSL_FLUSH(msg);
  if (!needs_encode(msg, sp)) return msg->n ? sink->write(sink, msg->p, msg->n) : 0;
  const osl_plan *plan = plan_of(sp, msg);
  for (size_t i = 0; i < msg->nf; i++) {
    osl_field *f = &msg->f[i];
    int rc;
    if (plan && onnxslim__storage_field(f->number)) continue;
    if (f->raw && !(f->sub && needs_encode(f->sub, sp))) {
      rc = sink->write(sink, f->raw, raw_len(f));
    } else if (f->sub) {
      rc = write_field_head(sink, f, f->sub->enc_size);
      if (!rc) rc = write_pass(f->sub, sp, sink);
    } else if (f->xform) {
      rc = write_field_head(sink, f, f->n);
      if (!rc) rc = onnxslim__xform_write(msg->model, f->xform, sink);
    } else {
      rc = write_field_head(sink, f, f->n);
      if (!rc && f->wt == OSL_WT_LEN && f->n) rc = sink->write(sink, f->p, f->n);
    }
    if (rc) return rc;
  }
  if (plan) {
    const osl_plan *pl = plan;
    int rc = 0;
    if (pl->data || pl->xform) {
      osl_field head;
      memset(&head, 0, sizeof head);
      head.number = onnx_TensorProto_raw_data_tag;
      head.wt = OSL_WT_LEN;
      size_t len = pl->xform ? pl->xform->count * pl->xform->out_size : pl->size;
      rc = write_field_head(sink, &head, len);
      if (!rc && pl->xform) rc = onnxslim__xform_write(msg->model, pl->xform, sink);
      else if (!rc && len) rc = sink->write(sink, pl->data, len);
    }
    if (!rc && pl->fields_len) rc = sink->write(sink, pl->fields, pl->fields_len);
    if (rc) return rc;
  }
  return 0;
}

int onnxslim__msg_write(osl_msg *msg, osl_sink *sink) { return write_pass(msg, NULL, sink); }

int onnxslim__msg_write_planned(osl_msg *msg, const osl_saveplan *sp, osl_sink *sink) {
  return write_pass(msg, sp, sink);
}

void onnxslim__msg_of_fields(osl_msg *m, const osl_msgdef *def, osl_field *f, size_t n) {
  memset(m, 0, sizeof *m);
  m->def = def;
  m->f = f;
  m->nf = n;
  m->dirty = 1; /* no original bytes: encoded */
}

int onnxslim__fields_write(const osl_msgdef *def, osl_field *f, size_t n, osl_sink *sink) {
  osl_msg m;
  onnxslim__msg_of_fields(&m, def, f, n);
  uint64_t size;
  int rc = size_pass(&m, NULL, &size);
  return rc ? rc : write_pass(&m, NULL, sink);
}
