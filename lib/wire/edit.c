/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - the message tree's fields: reading them (field access,
 * repeated scalars), editing them and the queued edits of graphs. Parsing
 * is in parse.c, writing in write.c (wire.h).
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

/* ---- field access ------------------------------------------------------ */

static osl_list *phys_list(osl_msg *msg, uint32_t number);

static uint64_t number_bit(uint32_t number) { return (uint64_t)1 << (number < 63 ? number : 63); }

/* Applies msg's queued edits if some concern field `number`: reading the
 * other fields needs no flush. */
static void flush_for(const osl_msg *msg, uint32_t number) {
  if (msg->pq && (msg->pq->count || msg->pq->dead) && (msg->pq->numbers & number_bit(number)))
    onnxslim__msg_flush((osl_msg *)msg);
}

osl_field *onnxslim__msg_last(const osl_msg *msg, uint32_t number) {
  flush_for(msg, number);
  if (msg->nf > 32) {
    /* a graph's name, say, without a scan of all its nodes */
    osl_list *l = phys_list((osl_msg *)msg, number);
    if (l) return l->count ? &msg->f[l->idx[l->count - 1]] : NULL;
  }
  for (size_t i = msg->nf; i-- > 0;)
    if (msg->f[i].number == number) return &msg->f[i];
  return NULL;
}

int onnxslim__msg_has(const osl_msg *msg, uint32_t number) {
  return onnxslim__msg_last(msg, number) != NULL;
}

/* Fills list l from msg's field array as it is (queued edits not applied),
 * reusing l's index array when it is large enough. */
static int list_fill(osl_msg *msg, osl_list *l) {
  size_t count = 0, lower = 0;
  for (size_t i = 0; i < msg->nf; i++) {
    if (msg->f[i].number == l->number) count++;
    else if (msg->f[i].number < l->number) lower = i + 1;
  }
  if (count > l->cap || !l->idx) {
    size_t cap = l->cap * 2 > count ? l->cap * 2 : count;
    size_t *idx = onnxslim__arena_alloc(&msg->model->arena, (cap ? cap : 1) * sizeof *idx);
    if (!idx) return ONNXSLIM_ENOMEM;
    l->idx = idx;
    l->cap = cap;
  }
  size_t k = 0;
  for (size_t i = 0; i < msg->nf; i++)
    if (msg->f[i].number == l->number) l->idx[k++] = i;
  l->count = count;
  l->slot = count ? l->idx[count - 1] + 1 : lower;
  l->values = NULL; /* decoded again on demand; earlier arrays stay valid */
  l->nvalues = 0;
  return 0;
}

/* The list of a field number over msg's field array as it is. */
static osl_list *phys_list(osl_msg *msg, uint32_t number) {
  if (msg->lists_stale) {
    for (osl_list *l = msg->lists; l; l = l->next)
      if (list_fill(msg, l)) return NULL;
    msg->lists_stale = 0;
  }
  for (osl_list *l = msg->lists; l; l = l->next)
    if (l->number == number) return l;
  osl_list *l = onnxslim__arena_alloc(&msg->model->arena, sizeof *l);
  if (!l) return NULL;
  memset(l, 0, sizeof *l);
  l->number = number;
  if (list_fill(msg, l)) return NULL;
  l->next = msg->lists;
  msg->lists = l;
  return l;
}

osl_list *onnxslim__msg_list(const osl_msg *cmsg, uint32_t number) {
  osl_msg *msg = (osl_msg *)cmsg;
  flush_for(msg, number);
  return phys_list(msg, number);
}

/* Messages of at most this many fields (a node, an attribute, a value
 * info) are scanned for a count or an occurrence instead of building a
 * list: a list costs 80 bytes of the model's arena per field number and
 * message, for good (a check of 6M empty nodes built 18M of them). */
#define OSL_SCAN_FIELDS 16

size_t onnxslim__msg_count(const osl_msg *msg, uint32_t number) {
  if (msg->nf <= OSL_SCAN_FIELDS) {
    flush_for(msg, number);
    if (msg->nf <= OSL_SCAN_FIELDS) {
      size_t n = 0;
      for (size_t i = 0; i < msg->nf; i++) n += msg->f[i].number == number;
      return n;
    }
  }
  osl_list *l = onnxslim__msg_list(msg, number);
  if (!l) {
    onnxslim__err_nomem(NULL);
    return 0;
  }
  return l->count;
}

osl_field *onnxslim__msg_at(const osl_msg *msg, uint32_t number, size_t index) {
  if (msg->nf <= OSL_SCAN_FIELDS) {
    flush_for(msg, number);
    if (msg->nf <= OSL_SCAN_FIELDS) {
      size_t n = 0;
      for (size_t i = 0; i < msg->nf; i++)
        if (msg->f[i].number == number && n++ == index) return &msg->f[i];
      onnxslim__err(ONNXSLIM_ERANGE, "index %zu out of range (%zu entries)", index, n);
      return NULL;
    }
  }
  osl_list *l = onnxslim__msg_list(msg, number);
  if (!l) {
    onnxslim__err_nomem(NULL);
    return NULL;
  }
  if (index >= l->count) {
    onnxslim__err(ONNXSLIM_ERANGE, "index %zu out of range (%zu entries)", index, l->count);
    return NULL;
  }
  return &msg->f[l->idx[index]];
}

osl_msg *onnxslim__msg_sub_at(const osl_msg *msg, uint32_t number, size_t index) {
  osl_field *f = onnxslim__msg_at(msg, number, index);
  return f ? f->sub : NULL;
}

osl_msg *onnxslim__msg_sub(const osl_msg *msg, uint32_t number) {
  osl_field *f = onnxslim__msg_last(msg, number);
  return f ? f->sub : NULL;
}

const char *onnxslim__field_cstr(onnxslim_model *model, osl_field *f) {
  if (!f->cstr) {
    f->cstr = onnxslim__arena_strndup(&model->arena, f->p, f->n);
    if (!f->cstr) onnxslim__err_nomem(NULL);
  }
  return f->cstr;
}

const char *onnxslim__msg_str(const osl_msg *msg, uint32_t number) {
  osl_field *f = onnxslim__msg_last(msg, number);
  if (!f) return "";
  return onnxslim__field_cstr(msg->model, f);
}

const char *onnxslim__msg_str_at(const osl_msg *msg, uint32_t number, size_t index) {
  osl_field *f = onnxslim__msg_at(msg, number, index);
  if (!f) return NULL;
  return onnxslim__field_cstr(msg->model, f);
}

int64_t onnxslim__msg_int(const osl_msg *msg, uint32_t number, int64_t dflt) {
  osl_field *f = onnxslim__msg_last(msg, number);
  return f && f->wt == OSL_WT_VARINT ? (int64_t)f->u : dflt;
}

/* Decodes every occurrence of a repeated scalar field, packed or not, into
 * an array of `width`-byte elements cached in the field's list l; src[k]:
 * the payload of occurrence k (packed ones) or a copy of it. */
static int decode_scalars(const osl_msg *msg, osl_list *l, int is_float, const uint8_t **src) {
  {
    size_t width = is_float ? sizeof(float) : sizeof(int64_t);
    size_t n = 0;
    for (size_t k = 0; k < l->count; k++) {
      osl_field *f = &msg->f[l->idx[k]];
      if (f->wt != OSL_WT_LEN) {
        n++;
      } else if (is_float) {
        n += f->n / 4;
      } else {
        for (size_t i = 0; i < f->n; i++) n += (src[k][i] & 0x80) == 0;
      }
    }
    /* while loading (the root is set at the end), within max_memory: a
     * packed field decodes to up to 8 bytes per byte */
    const onnxslim_model *model = msg->model;
    uint64_t need = (uint64_t)n * width, used = model->arena.total;
    if (!model->root && (used > model->max_memory || need > model->max_memory - used))
      return onnxslim__err(ONNXSLIM_ELIMIT, "%zu values would take the model over max_memory", n);
    uint8_t *out = onnxslim__arena_alloc(&msg->model->arena, (n ? n : 1) * width);
    if (!out) return onnxslim__err_nomem(NULL);
    size_t j = 0;
    for (size_t k = 0; k < l->count; k++) {
      osl_field *f = &msg->f[l->idx[k]];
      if (f->wt != OSL_WT_LEN) {
        if (is_float) {
          uint32_t b = (uint32_t)f->u;
          memcpy(out + j * 4, &b, 4);
        } else {
          int64_t v = (int64_t)f->u;
          memcpy(out + j * 8, &v, 8);
        }
        j++;
      } else if (is_float) {
        memcpy(out + j * 4, src[k], f->n / 4 * 4);
        j += f->n / 4;
      } else {
        pb_istream_t s = pb_istream_from_buffer(src[k], f->n);
        uint64_t v;
        while (s.bytes_left && pb_decode_varint(&s, &v)) {
          int64_t sv = (int64_t)v;
          memcpy(out + j * 8, &sv, 8);
          j++;
        }
      }
    }
    l->values = out;
    l->nvalues = j;
  }
  return 0;
}

static int msg_scalars(const osl_msg *msg, uint32_t number, int is_float, const void **vals,
                       size_t *count) {
  osl_list *l = onnxslim__msg_list(msg, number);
  if (!l) return onnxslim__err_nomem(NULL);
  if (!l->values) {
    /* packed payloads in a mapped file are decoded from copies (pread):
     * a tensor's dims sit between weights, and reading them through the
     * mapping would map the page-cache folio around them (docs/design.md,
     * "Memory"); they are read again after an edit of the tensor */
    const onnxslim_model *model = msg->model;
    size_t infile = 0;
    int fd;
    int64_t off;
    for (size_t k = 0; k < l->count; k++) {
      osl_field *f = &msg->f[l->idx[k]];
      if (f->wt == OSL_WT_LEN && f->p && onnxslim__model_locate(model, f->p, f->n, &fd, &off))
        infile += f->n;
    }
    uint8_t *copy = infile ? malloc(infile) : NULL;
    const uint8_t **src = l->count ? malloc(l->count * sizeof *src) : NULL;
    if ((infile && !copy) || (l->count && !src)) {
      free(copy);
      free(src);
      return onnxslim__err_nomem(NULL);
    }
    size_t at = 0;
    int rc = 0;
    for (size_t k = 0; k < l->count && !rc; k++) {
      osl_field *f = &msg->f[l->idx[k]];
      src[k] = f->p;
      if (f->wt == OSL_WT_LEN && f->p && onnxslim__model_locate(model, f->p, f->n, &fd, &off)) {
        rc = onnxslim__model_read(model, f->p, f->n, copy + at);
        src[k] = copy + at;
        at += f->n;
      }
    }
    if (!rc) rc = decode_scalars(msg, l, is_float, src);
    free(copy);
    free(src);
    if (rc) return rc;
  }
  *vals = l->values;
  *count = l->nvalues;
  return 0;
}

int onnxslim__msg_int64s(const osl_msg *msg, uint32_t number, const int64_t **vals, size_t *count) {
  return msg_scalars(msg, number, 0, (const void **)vals, count);
}

int onnxslim__msg_floats(const osl_msg *msg, uint32_t number, const float **vals, size_t *count) {
  return msg_scalars(msg, number, 1, (const void **)vals, count);
}

/* ---- edits ------------------------------------------------------------- */

/* A field removed from a graph but still in its array until the next flush. */
#define OSL_WT_DEAD 0xff

void onnxslim__msg_touch(osl_msg *msg) {
  msg->model->gen++;
  for (osl_msg *m = msg; m; m = m->parent) m->dirty = 1;
}

/* Every edit of a field of msg goes through these two: before the change
 * (old_sub: the submessage it removes or replaces) and after it (f: the
 * field as it now is, or NULL when the change only removed). */
static void edit_before(osl_msg *msg, uint32_t number, osl_msg *old_sub) {
  msg->model->hooks->edit_before(msg, number, old_sub);
}

static void edit_after(osl_msg *msg, uint32_t number, osl_field *f) {
  msg->lists_stale = 1;
  onnxslim__msg_touch(msg);
  msg->model->hooks->edit_after(msg, number, f ? f->sub : NULL);
  if (f) msg->model->hooks->names_note(msg->model, msg, f);
}

/* Links sub into msg as the field at position pos (or queued). */
static void adopt(osl_msg *msg, osl_msg *sub, uint32_t number, size_t pos) {
  sub->parent = msg;
  sub->detached = 0;
  sub->queued = 0;
  sub->fnum = number;
  sub->pos = (uint32_t)pos;
}

int onnxslim__msg_attached(const osl_msg *msg) {
  for (const osl_msg *m = msg; m; m = m->parent)
    if (m->detached) return 0;
  return 1;
}

osl_msg *onnxslim__msg_new(onnxslim_model *model, const osl_msgdef *def, osl_msg *parent) {
  osl_msg *m = onnxslim__arena_alloc(&model->arena, sizeof *m);
  if (!m) {
    onnxslim__err_nomem(NULL);
    return NULL;
  }
  memset(m, 0, sizeof *m);
  m->def = def;
  m->model = model;
  m->parent = parent;
  m->dirty = 1;
  return m;
}

osl_msg *onnxslim__msg_clone(onnxslim_model *model, const osl_msg *src, osl_msg *parent) {
  OSL_FLUSH(src);
  osl_msg *m = onnxslim__msg_new(model, src->def, parent);
  if (!m) return NULL;
  int same = src->model == model;
  m->f = onnxslim__arena_alloc(&model->arena, (src->nf ? src->nf : 1) * sizeof *m->f);
  if (!m->f) goto nomem;
  m->nf = m->capf = src->nf;
  for (size_t i = 0; i < src->nf; i++) {
    osl_field f = src->f[i];
    f.raw = NULL;
    f.cstr = same ? f.cstr : NULL;
    if (!same && f.xform) {
      /* materialize a pending transform into the destination model */
      uint8_t *buf = onnxslim__arena_alloc(&model->arena, f.n ? f.n : 1);
      if (!buf || onnxslim__xform_all(src->model, f.xform, buf)) goto nomem;
      f.p = buf;
      f.xform = NULL;
    } else if (!same && f.wt == OSL_WT_LEN && !f.sub) {
      f.p = onnxslim__arena_dup(&model->arena, f.p, f.n);
      if (!f.p) goto nomem;
    }
    if (f.sub) {
      f.sub = onnxslim__msg_clone(model, src->f[i].sub, m);
      if (!f.sub) return NULL;
      adopt(m, f.sub, f.number, i);
      f.p = NULL;
      f.n = 0;
    }
    m->f[i] = f;
  }
  if (m->def == &osl_def_onnx_TensorProto && model->hooks->tensor_copied(m, src)) return NULL;
  return m;
nomem:
  onnxslim__err(ONNXSLIM_ENOMEM, "out of memory copying a %s", src->def->name);
  return NULL;
}

static int msg_reserve(osl_msg *msg, size_t need) {
  if (need <= msg->capf) return 0;
  size_t cap = msg->capf > msg->nf ? msg->capf : msg->nf;
  while (cap < need) cap = cap ? cap * 2 : 8;
  osl_field *f = onnxslim__arena_alloc(&msg->model->arena, cap * sizeof *f);
  if (!f) return onnxslim__err_nomem(NULL);
  if (msg->nf) memcpy(f, msg->f, msg->nf * sizeof *f);
  msg->f = f;
  msg->capf = cap;
  return 0;
}

/* Would sub, put under msg, stay within the model's max_depth? Every pass
 * that recurses over messages relies on that bound (see
 * ONNXSLIM_MAX_DEPTH_LIMIT), so no edit may nest deeper than a load would
 * have accepted. The walk over sub is iterative, with a heap stack. */
int onnxslim__msg_adopt_ok(const osl_msg *msg, const osl_msg *sub) {
  unsigned int max = msg->model->max_depth;
  size_t depth = 1; /* of sub, counting from the root of msg's tree */
  for (const osl_msg *m = msg; m->parent; m = m->parent) depth++;
  const char *what = "the edit would nest messages deeper than max_depth %u";
  if (depth > max) return onnxslim__err(ONNXSLIM_ELIMIT, what, max);
  size_t room = max - depth; /* levels allowed below sub */
  typedef struct {
    const osl_msg *m;
    size_t i;
  } frame;
  frame *st = malloc((room + 1) * sizeof *st);
  if (!st) return onnxslim__err_nomem(NULL);
  size_t sp = 0;
  st[0].m = sub;
  st[0].i = 0;
  int rc = 0;
  for (;;) {
    frame *fr = &st[sp];
    while (fr->i < fr->m->nf && !fr->m->f[fr->i].sub) fr->i++;
    if (fr->i == fr->m->nf) {
      if (sp == 0) break;
      sp--;
      continue;
    }
    const osl_msg *child = fr->m->f[fr->i++].sub;
    if (sp == room) {
      rc = onnxslim__err(ONNXSLIM_ELIMIT, what, max);
      break;
    }
    sp++;
    st[sp].m = child;
    st[sp].i = 0;
  }
  free(st);
  return rc;
}

/* Completes a field about to be stored in msg. */
static void field_prepare(const osl_msg *msg, osl_field *f) {
  (void)msg;
  f->raw = NULL;
}

int onnxslim__msg_insert(osl_msg *msg, size_t pos, const osl_field *field) {
  OSL_FLUSH(msg);
  if (field->sub) {
    int rc = onnxslim__msg_adopt_ok(msg, field->sub);
    if (rc) return rc;
  }
  int rc = msg_reserve(msg, msg->nf + 1);
  if (rc) return rc;
  if (pos > msg->nf) pos = msg->nf;
  edit_before(msg, field->number, NULL);
  memmove(msg->f + pos + 1, msg->f + pos, (msg->nf - pos) * sizeof *msg->f);
  msg->f[pos] = *field;
  field_prepare(msg, &msg->f[pos]);
  msg->nf++;
  if (field->sub) adopt(msg, field->sub, field->number, pos);
  edit_after(msg, field->number, &msg->f[pos]);
  return 0;
}

/* ---- queued edits (graphs) ---------------------------------------------- */

static osl_pendq *pendq(osl_msg *msg) {
  if (!msg->pq) {
    msg->pq = onnxslim__arena_alloc(&msg->model->arena, sizeof *msg->pq);
    if (msg->pq) memset(msg->pq, 0, sizeof *msg->pq);
  }
  return msg->pq;
}

static int defers(const osl_msg *msg) { return msg->def == &osl_def_onnx_GraphProto; }

/* Queues field for insertion before msg->f[slot] (after = 0: after the
 * entries already queued there; after = 1: before them, right behind
 * msg->f[slot - 1]). The field array's room is reserved now, so the flush
 * cannot fail. */
static int queue(osl_msg *msg, size_t slot, int after, const osl_field *field) {
  if (field->sub) {
    int rc = onnxslim__msg_adopt_ok(msg, field->sub);
    if (rc) return rc;
  }
  osl_pendq *q = pendq(msg);
  if (!q) return onnxslim__err_nomem(NULL);
  int rc = msg_reserve(msg, msg->nf + q->count + 1);
  if (rc) return rc;
  if (q->count == q->cap) {
    size_t cap = q->cap ? q->cap * 2 : 16;
    osl_pend *e = onnxslim__arena_alloc(&msg->model->arena, cap * sizeof *e);
    if (!e) return onnxslim__err_nomem(NULL);
    if (q->count) memcpy(e, q->e, q->count * sizeof *e);
    q->e = e;
    q->cap = cap;
  }
  edit_before(msg, field->number, NULL);
  osl_pend *e = &q->e[q->count];
  e->slot = slot > msg->nf ? msg->nf : slot;
  q->seq++;
  q->numbers |= number_bit(field->number);
  e->key = after ? -q->seq : q->seq;
  e->field = *field;
  field_prepare(msg, &e->field);
  if (field->sub) {
    adopt(msg, field->sub, field->number, 0);
    field->sub->queued = 1;
    field->sub->qidx = (uint32_t)q->count;
  }
  q->count++;
  /* the field array is unchanged: its lists stay valid */
  int stale = msg->lists_stale;
  edit_after(msg, field->number, &e->field);
  msg->lists_stale = stale;
  return 0;
}

static int pend_cmp(const void *pa, const void *pb) {
  const osl_pend *a = pa, *b = pb;
  if (a->slot != b->slot) return a->slot < b->slot ? -1 : 1;
  return a->key < b->key ? -1 : a->key > b->key;
}

static void rehint(osl_msg *msg) {
  for (size_t i = 0; i < msg->nf; i++)
    if (msg->f[i].sub) msg->f[i].sub->pos = (uint32_t)i;
}

void onnxslim__msg_flush(osl_msg *msg) {
  osl_pendq *q = msg->pq;
  if (!q || (!q->count && !q->dead)) return;
  if (q->count > 1) qsort(q->e, q->count, sizeof *q->e, pend_cmp);
  /* merge from the back, in place: the queued entries into their slots,
   * the removed fields dropped (queue() reserved the room) */
  size_t i = msg->nf, j = q->count, w = msg->nf + q->count;
  while (i > 0 || j > 0) {
    if (j > 0 && q->e[j - 1].slot >= i) {
      osl_field *f = &q->e[--j].field;
      if (f->sub) f->sub->queued = 0;
      msg->f[--w] = *f;
    } else if (msg->f[--i].wt != OSL_WT_DEAD) {
      msg->f[--w] = msg->f[i];
    }
  }
  size_t n = msg->nf + q->count - w;
  if (w) memmove(msg->f, msg->f + w, n * sizeof *msg->f);
  msg->nf = n;
  q->count = 0;
  q->dead = 0;
  q->numbers = 0;
  msg->lists_stale = 1;
  rehint(msg);
}

int onnxslim__msg_append(osl_msg *msg, const osl_field *field) {
  if (!defers(msg)) {
    osl_list *l = onnxslim__msg_list(msg, field->number);
    if (!l) return onnxslim__err_nomem(NULL);
    return onnxslim__msg_insert(msg, l->slot, field);
  }
  osl_list *l = phys_list(msg, field->number);
  if (!l) return onnxslim__err_nomem(NULL);
  return queue(msg, l->slot, 0, field);
}

/* Position of sub in msg's field array as it is; SIZE_MAX if not there. */
static size_t phys_pos(const osl_msg *msg, const osl_msg *sub) {
  if (sub->pos < msg->nf && msg->f[sub->pos].sub == sub) return sub->pos;
  rehint((osl_msg *)msg);
  if (sub->pos < msg->nf && msg->f[sub->pos].sub == sub) return sub->pos;
  return SIZE_MAX;
}

int onnxslim__msg_insert_near(osl_msg *msg, const osl_msg *anchor, int after,
                              const osl_field *field) {
  if (anchor->queued) onnxslim__msg_flush(msg);
  size_t pos = anchor->parent == msg ? phys_pos(msg, anchor) : SIZE_MAX;
  if (pos == SIZE_MAX)
    return onnxslim__err(ONNXSLIM_EINVAL, "the anchor is not a field of this %s", msg->def->name);
  if (!defers(msg)) return onnxslim__msg_insert(msg, pos + (after ? 1 : 0), field);
  return queue(msg, pos + (after ? 1 : 0), after, field);
}

/* Where a submessage of msg is in the order of msg's fields: queued ones
 * sit in their slot, before the field already there. */
static void order_key(const osl_msg *m, size_t *slot, int64_t *key) {
  const osl_msg *p = m->parent;
  if (m->queued) {
    const osl_pend *e = &p->pq->e[m->qidx];
    *slot = e->slot;
    *key = e->key;
  } else {
    *slot = phys_pos(p, m);
    *key = INT64_MAX;
  }
}

int onnxslim__msg_order_cmp(const osl_msg *a, const osl_msg *b) {
  if (a == b) return 0;
  size_t sa, sb;
  int64_t ka, kb;
  order_key(a, &sa, &ka);
  order_key(b, &sb, &kb);
  if (sa != sb) return sa < sb ? -1 : 1;
  return ka < kb ? -1 : ka > kb;
}

size_t onnxslim__msg_pos_nth(const osl_msg *msg, uint32_t number, size_t k) {
  OSL_FLUSH(msg); /* a position in the array as it will be */
  size_t seen = 0, last = SIZE_MAX;
  for (size_t i = 0; i < msg->nf; i++) {
    if (msg->f[i].number != number) continue;
    if (seen == k) return i;
    seen++;
    last = i;
  }
  if (last != SIZE_MAX) return last + 1;
  /* none yet: after the last field with a lower number */
  size_t pos = 0;
  for (size_t i = 0; i < msg->nf; i++)
    if (msg->f[i].number < number) pos = i + 1;
  return pos;
}

void onnxslim__msg_remove(osl_msg *msg, size_t pos) {
  if (pos >= msg->nf || msg->f[pos].wt == OSL_WT_DEAD) return;
  osl_field *f = &msg->f[pos];
  uint32_t number = f->number;
  edit_before(msg, number, f->sub);
  if (f->sub) f->sub->detached = 1;
  osl_pendq *q = defers(msg) ? pendq(msg) : NULL;
  if (q) {
    /* left in place until the next flush: positions do not move */
    f->wt = OSL_WT_DEAD;
    q->dead++;
    q->numbers |= number_bit(number);
    onnxslim__msg_touch(msg);
    msg->model->hooks->edit_after(msg, number, NULL);
    return;
  }
  memmove(msg->f + pos, msg->f + pos + 1, (msg->nf - pos - 1) * sizeof *msg->f);
  msg->nf--;
  edit_after(msg, number, NULL);
}

void onnxslim__msg_remove_all(osl_msg *msg, uint32_t number) {
  OSL_FLUSH(msg);
  size_t k = 0, removed = 0;
  for (size_t i = 0; i < msg->nf; i++)
    if (msg->f[i].number == number) edit_before(msg, number, msg->f[i].sub);
  for (size_t i = 0; i < msg->nf; i++) {
    if (msg->f[i].number == number) {
      if (msg->f[i].sub) msg->f[i].sub->detached = 1;
      removed++;
    } else {
      msg->f[k++] = msg->f[i];
    }
  }
  msg->nf = k;
  if (removed) edit_after(msg, number, NULL);
}

size_t onnxslim__msg_pos_of(const osl_msg *msg, const osl_msg *sub) {
  if (sub->queued && sub->parent == msg) onnxslim__msg_flush((osl_msg *)msg);
  return phys_pos(msg, sub);
}

int onnxslim__msg_replace(osl_msg *msg, size_t pos, const osl_field *field) {
  if (pos >= msg->nf) return onnxslim__err(ONNXSLIM_ERANGE, "field position %zu out of range", pos);
  if (field->sub && field->sub != msg->f[pos].sub) {
    int rc = onnxslim__msg_adopt_ok(msg, field->sub);
    if (rc) return rc;
  }
  osl_field *f = &msg->f[pos];
  edit_before(msg, f->number, f->sub);
  if (f->sub && f->sub != field->sub) f->sub->detached = 1;
  *f = *field;
  field_prepare(msg, f);
  if (field->sub) adopt(msg, field->sub, field->number, pos);
  edit_after(msg, f->number, f);
  return 0;
}

int onnxslim__fld_bytes(onnxslim_model *model, uint32_t number, const void *data, size_t n,
                        int borrow, osl_field *out) {
  memset(out, 0, sizeof *out);
  out->number = number;
  out->wt = OSL_WT_LEN;
  out->n = n;
  if (borrow) {
    out->p = n ? data : (const uint8_t *)"";
  } else {
    out->p = onnxslim__arena_dup(&model->arena, data, n);
    if (!out->p) return onnxslim__err(ONNXSLIM_ENOMEM, "out of memory copying %zu bytes", n);
  }
  return 0;
}

int onnxslim__fld_str(onnxslim_model *model, uint32_t number, const char *s, osl_field *out) {
  memset(out, 0, sizeof *out);
  size_t n = strlen(s);
  char *copy = onnxslim__arena_strndup(&model->arena, s, n);
  if (!copy) return onnxslim__err_nomem(NULL);
  out->number = number;
  out->wt = OSL_WT_LEN;
  out->p = (const uint8_t *)copy;
  out->n = n;
  out->cstr = copy;
  return 0;
}

void onnxslim__fld_varint(uint32_t number, uint64_t v, osl_field *out) {
  memset(out, 0, sizeof *out);
  out->number = number;
  out->wt = OSL_WT_VARINT;
  out->u = v;
}

void onnxslim__fld_fixed32(uint32_t number, uint32_t v, osl_field *out) {
  memset(out, 0, sizeof *out);
  out->number = number;
  out->wt = OSL_WT_32BIT;
  out->u = v;
}

void onnxslim__fld_sub(uint32_t number, osl_msg *sub, osl_field *out) {
  memset(out, 0, sizeof *out);
  out->number = number;
  out->wt = OSL_WT_LEN;
  out->sub = sub;
}

int onnxslim__msg_set_field(osl_msg *msg, const osl_field *field) {
  if (field->sub) {
    int rc = onnxslim__msg_adopt_ok(msg, field->sub);
    if (rc) return rc;
  }
  osl_field *f = onnxslim__msg_last(msg, field->number);
  if (!f) return onnxslim__msg_insert(msg, onnxslim__msg_pos_nth(msg, field->number, 0), field);
  return onnxslim__msg_replace(msg, (size_t)(f - msg->f), field);
}

int onnxslim__msg_set_str(osl_msg *msg, uint32_t number, const char *value) {
  osl_field f;
  int rc = onnxslim__fld_str(msg->model, number, value, &f);
  return rc ? rc : onnxslim__msg_set_field(msg, &f);
}

int onnxslim__msg_set_int(osl_msg *msg, uint32_t number, uint64_t value) {
  osl_field f;
  onnxslim__fld_varint(number, value, &f);
  return onnxslim__msg_set_field(msg, &f);
}

int onnxslim__msg_set_strs(osl_msg *msg, uint32_t number, const char *const *values, size_t n) {
  OSL_FLUSH(msg);
  /* build the new fields first so a failure leaves msg unchanged */
  osl_field *nf = onnxslim__arena_alloc(&msg->model->arena, (n ? n : 1) * sizeof *nf);
  if (!nf) return onnxslim__err_nomem(NULL);
  for (size_t i = 0; i < n; i++) {
    int rc = onnxslim__fld_str(msg->model, number, values[i] ? values[i] : "", &nf[i]);
    if (rc) return rc;
  }
  int rc = msg_reserve(msg, msg->nf + n);
  if (rc) return rc;
  edit_before(msg, number, NULL);
  size_t k = 0;
  for (size_t i = 0; i < msg->nf; i++)
    if (msg->f[i].number != number) msg->f[k++] = msg->f[i];
  msg->nf = k;
  size_t pos = onnxslim__msg_pos_nth(msg, number, 0);
  memmove(msg->f + pos + n, msg->f + pos, (msg->nf - pos) * sizeof *msg->f);
  memcpy(msg->f + pos, nf, n * sizeof *nf);
  msg->nf += n;
  edit_after(msg, number, NULL);
  for (size_t i = 0; i < n; i++) msg->model->hooks->names_note(msg->model, msg, &msg->f[pos + i]);
  return 0;
}

int onnxslim__msg_set_str_at(osl_msg *msg, uint32_t number, size_t k, const char *value) {
  osl_field *f = onnxslim__msg_at(msg, number, k);
  if (!f) return onnxslim_error_last_code();
  osl_field nf;
  int rc = onnxslim__fld_str(msg->model, number, value, &nf);
  if (rc) return rc;
  return onnxslim__msg_replace(msg, (size_t)(f - msg->f), &nf);
}
