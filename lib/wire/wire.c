/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - the message tree: parse protobuf bytes into fields that keep
 * their original encoding, read them, edit them, and write them back.
 *
 * Reading uses nanopb's stream primitives (pb_decode_tag, pb_decode_varint,
 * pb_read); writing uses its encoders (pb_encode_tag, pb_encode_varint, ...).
 * Every field keeps a pointer to its original bytes, so a message nobody
 * edited is written back as it was (splice on save) and a message that was
 * edited re-encodes only its own fields, in their stored order, copying the
 * untouched ones - unknown fields included - byte for byte.
 */
#define _XOPEN_SOURCE 700 /* pread() */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pb_decode.h>
#include <pb_encode.h>

#include "onnx.pb.h"

#include "wire/wire.h"

/* ---- parsing ----------------------------------------------------------- */

#define OSL_PATH_MAX 512

/* The parser walks the message tree depth first with an explicit stack (one
 * frame per nesting level, on the heap), so the C stack it needs does not
 * grow with the nesting depth of the input. */
typedef struct {
  osl_msg *msg;
  size_t next; /* the next field to look at for a submessage; the field being
                  parsed below this level is f[next - 1] */
} osl_frame;

/* The bytes the parser reads. A model opened from a file is parsed from
 * copies of the file's bytes (pread into a small window), never through
 * its mapping: the kernel maps the page cache in folios of up to 2 MiB
 * around a byte read through a mapping, so reading each tensor's header,
 * a few bytes between weights, would map a folio for each (150 MB for a
 * 1.1 GB model written by large writes), and handing them back costs a
 * page fault and an madvise() each, several times more than the reads
 * (docs/design.md, "Memory"). The message tree still points into the
 * mapping: those bytes are read later, if ever (saving copies them in the
 * kernel). A model from a buffer is read in place (fd -1). */
#define OSL_WIN_SIZE (16u << 10)

typedef struct {
  int fd;              /* the mapped file; -1: read the bytes in place */
  const uint8_t *base; /* the mapping: file offset 0 */
  uint8_t *buf;        /* copy of the bytes [lo, hi) of the mapping */
  const uint8_t *lo, *hi;
  int err; /* errno of a failed read, or EIO for a file that got shorter */
} osl_win;

typedef struct {
  onnxslim_model *model;
  const uint8_t *base; /* start of the whole buffer, for byte offsets */
  unsigned int max_depth;
  uint64_t max_memory; /* for the model's arena */
  osl_frame *stack;    /* max_depth + 1 frames */
  osl_win win;
  uint8_t *scratch; /* copies of a tensor's small fields for the tensor hook */
  size_t scratch_cap;
  osl_progress *progress; /* the bytes parsed: where the message entered starts */
} osl_parse;

/* Copies the n bytes at p (in the mapping, or the buffer) to dst. */
static bool win_copy(osl_win *w, uint8_t *dst, const uint8_t *p, size_t n) {
  if (w->fd < 0) {
    memcpy(dst, p, n);
    return true;
  }
  while (n) {
    if (p >= w->lo && p < w->hi) {
      size_t k = (size_t)(w->hi - p) < n ? (size_t)(w->hi - p) : n;
      memcpy(dst, w->buf + (p - w->lo), k);
      dst += k;
      p += k;
      n -= k;
      continue;
    }
    /* large reads go straight to dst, small ones through the window */
    int direct = n >= OSL_WIN_SIZE;
    ssize_t got =
        pread(w->fd, direct ? dst : w->buf, direct ? n : OSL_WIN_SIZE, (off_t)(p - w->base));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) {
      w->err = got < 0 ? errno : EIO;
      return false;
    }
    if (direct) {
      dst += got;
      p += got;
      n -= (size_t)got;
    } else {
      w->lo = p;
      w->hi = p + got;
    }
  }
  return true;
}

/* A nanopb input stream over the n bytes at p, read through the window:
 * rd_open() fills *s; skip() passes over bytes without reading them. */
typedef struct {
  osl_win *win;
  const uint8_t *pos;
} osl_rd;

static bool rd_read(pb_istream_t *s, pb_byte_t *buf, size_t count) {
  osl_rd *r = s->state;
  if (!win_copy(r->win, buf, r->pos, count)) return false;
  r->pos += count;
  return true;
}

static void rd_open(osl_win *w, osl_rd *r, pb_istream_t *s, const uint8_t *p, size_t n) {
  memset(s, 0, sizeof *s);
  r->win = w;
  r->pos = p;
  s->callback = rd_read;
  s->state = r;
  s->bytes_left = n;
}

/* n <= s->bytes_left */
static void skip(pb_istream_t *s, size_t n) {
  ((osl_rd *)s->state)->pos += n;
  s->bytes_left -= n;
}

/* "graph.node[3].attribute[0]": the fields leading to the message at depth. */
static void path_str(const osl_parse *ps, unsigned int depth, char *buf, size_t cap) {
  size_t len = 0;
  buf[0] = '\0';
  for (unsigned int i = 0; i < depth && len < cap; i++) {
    const osl_msg *m = ps->stack[i].msg;
    size_t pos = ps->stack[i].next - 1;
    const osl_field *fl = &m->f[pos];
    const osl_fielddef *fd = onnxslim__schema_field(m->def, fl->number);
    const char *name = fd ? fd->name : "?";
    int w;
    if (fd && fd->repeated) {
      size_t index = 0;
      for (size_t j = 0; j < pos; j++) index += m->f[j].number == fl->number;
      w = snprintf(buf + len, cap - len, "%s%s[%zu]", len ? "." : "", name, index);
    } else {
      w = snprintf(buf + len, cap - len, "%s%s", len ? "." : "", name);
    }
    if (w < 0) break;
    len += (size_t)w;
  }
  if (!buf[0]) snprintf(buf, cap, "model");
}

static int parse_err(const osl_parse *ps, unsigned int depth, int code, const uint8_t *at,
                     const char *what) {
  char where[OSL_PATH_MAX];
  path_str(ps, depth, where, sizeof where);
  if (ps->win.err) /* not the bytes: reading them failed */
    return onnxslim__err(ONNXSLIM_EIO, "cannot read '%s' at byte %zu in %s: %s",
                         ps->model->path ? ps->model->path : "the model", (size_t)(at - ps->base),
                         where,
                         ps->win.err == EIO ? "the file got shorter" : strerror(ps->win.err));
  return onnxslim__err(code, "%s at byte %zu in %s", what, (size_t)(at - ps->base), where);
}

static int wire_ok(const osl_fielddef *fd, uint32_t wt) {
  switch (fd->kind) {
  case OSL_KIND_VARINT: return wt == OSL_WT_VARINT || (fd->repeated && wt == OSL_WT_LEN);
  case OSL_KIND_FIXED32: return wt == OSL_WT_32BIT || (fd->repeated && wt == OSL_WT_LEN);
  case OSL_KIND_FIXED64: return wt == OSL_WT_64BIT || (fd->repeated && wt == OSL_WT_LEN);
  default: return wt == OSL_WT_LEN;
  }
}

/* A packed repeated scalar must consist of whole elements. */
static int packed_ok(osl_parse *ps, const osl_fielddef *fd, const uint8_t *p, size_t n) {
  if (fd->kind == OSL_KIND_FIXED32) return n % 4 == 0;
  if (fd->kind == OSL_KIND_FIXED64) return n % 8 == 0;
  osl_rd r;
  pb_istream_t s;
  rd_open(&ps->win, &r, &s, p, n);
  while (s.bytes_left) {
    uint64_t v;
    if (!pb_decode_varint(&s, &v)) return 0;
  }
  return 1;
}

/* Reads and checks the field at the current position of s (inside msg, at
 * depth) into *fl; *fd receives its schema entry (NULL: unknown field).
 * Returns 0, a negative code, or 1 at the end of msg. */
static int read_field(osl_parse *ps, const osl_msg *msg, unsigned int depth, pb_istream_t *s,
                      osl_field *fl, const osl_fielddef **fd) {
  const uint8_t *start = msg->p + (msg->n - s->bytes_left);
  pb_wire_type_t wt;
  uint32_t number;
  bool eof = false;
  if (!pb_decode_tag(s, &wt, &number, &eof)) {
    if (eof) return 1;
    return parse_err(ps, depth, ONNXSLIM_EPARSE, start,
                     s->bytes_left ? "malformed field tag" : "truncated field tag");
  }
  if (number == 0) return parse_err(ps, depth, ONNXSLIM_EPARSE, start, "field number 0");
  memset(fl, 0, sizeof *fl);
  fl->number = number;
  fl->wt = (uint8_t)wt;
  *fd = onnxslim__schema_field(msg->def, number);
  const uint8_t *vstart = msg->p + (msg->n - s->bytes_left);
  char what[160];
  switch (wt) {
  case PB_WT_VARINT:
    if (!pb_decode_varint(s, &fl->u))
      return parse_err(ps, depth, ONNXSLIM_EPARSE, vstart,
                       s->bytes_left ? "malformed varint" : "truncated varint");
    break;
  case PB_WT_64BIT:
  case PB_WT_32BIT: {
    size_t w = wt == PB_WT_64BIT ? 8 : 4;
    uint8_t b[8] = {0};
    if (s->bytes_left < w)
      return parse_err(ps, depth, ONNXSLIM_EPARSE, vstart, "truncated fixed-size field");
    if (!pb_read(s, b, w))
      return parse_err(ps, depth, ONNXSLIM_EPARSE, vstart, "unreadable fixed-size field");
    for (size_t i = 0; i < w; i++) fl->u |= (uint64_t)b[i] << (8 * i);
    break;
  }
  case PB_WT_STRING: {
    uint64_t len;
    if (!pb_decode_varint(s, &len))
      return parse_err(ps, depth, ONNXSLIM_EPARSE, vstart,
                       s->bytes_left ? "malformed length" : "truncated length");
    const uint8_t *payload = msg->p + (msg->n - s->bytes_left);
    if (len > s->bytes_left) {
      snprintf(what, sizeof what,
               "truncated length-delimited field %u (length %llu, %zu bytes left)", number,
               (unsigned long long)len, s->bytes_left);
      return parse_err(ps, depth, ONNXSLIM_EPARSE, start, what);
    }
    fl->hlen = (uint8_t)(payload - start);
    fl->p = payload;
    fl->n = (size_t)len;
    skip(s, (size_t)len);
    break;
  }
  default:
    snprintf(what, sizeof what, "unsupported wire type %u of field %u", (unsigned)wt, number);
    return parse_err(ps, depth, ONNXSLIM_EPARSE, start, what);
  }
  if (*fd && !wire_ok(*fd, wt)) {
    snprintf(what, sizeof what, "wrong wire type %u for field '%s' (%u) of %s", (unsigned)wt,
             (*fd)->name, number, msg->def->name);
    return parse_err(ps, depth, ONNXSLIM_EPARSE, start, what);
  }
  if (*fd && wt == PB_WT_STRING && (*fd)->kind <= OSL_KIND_FIXED64 &&
      !packed_ok(ps, *fd, fl->p, fl->n)) {
    snprintf(what, sizeof what, "malformed packed field '%s' of %s", (*fd)->name, msg->def->name);
    return parse_err(ps, depth, ONNXSLIM_EPARSE, fl->p, what);
  }
  fl->raw = start;
  if (wt != PB_WT_STRING) fl->hlen = (uint8_t)(msg->p + (msg->n - s->bytes_left) - start);
  return 0;
}

/* Reads the field at s again, after read_field() checked it: no checks but
 * that the bytes are still there. */
static bool reread_field(const osl_msg *msg, pb_istream_t *s, osl_field *fl) {
  const uint8_t *start = msg->p + (msg->n - s->bytes_left);
  pb_wire_type_t wt;
  uint32_t number;
  bool eof = false;
  if (!pb_decode_tag(s, &wt, &number, &eof)) return false;
  memset(fl, 0, sizeof *fl);
  fl->number = number;
  fl->wt = (uint8_t)wt;
  fl->raw = start;
  if (wt == PB_WT_STRING) {
    uint64_t len;
    if (!pb_decode_varint(s, &len) || len > s->bytes_left) return false;
    fl->p = msg->p + (msg->n - s->bytes_left);
    fl->n = (size_t)len;
    fl->hlen = (uint8_t)(fl->p - start);
    skip(s, (size_t)len);
    return true;
  }
  if (wt == PB_WT_VARINT) {
    if (!pb_decode_varint(s, &fl->u)) return false;
  } else {
    uint8_t b[8] = {0};
    size_t w = wt == PB_WT_64BIT ? 8 : 4;
    if (!pb_read(s, b, w)) return false;
    for (size_t i = 0; i < w; i++) fl->u |= (uint64_t)b[i] << (8 * i);
  }
  fl->hlen = (uint8_t)(msg->p + (msg->n - s->bytes_left) - start);
  return true;
}

/* Fields of a message that no message shares: the empty messages. */
static osl_field no_fields[1];

/* Reads the fields of msg (at depth) into msg->f, checking each one, and
 * makes an (empty) osl_msg for each known submessage field. Two passes: the
 * first checks and counts, so that nothing is allocated for a message whose
 * fields would take the model over max_memory, and the second fills arrays
 * of exactly the right size. */
static int collect_fields(osl_parse *ps, osl_msg *msg, unsigned int depth) {
  size_t nf = 0, nsub = 0;
  osl_field fl;
  const osl_fielddef *fd = NULL;
  osl_rd r;
  pb_istream_t s;
  rd_open(&ps->win, &r, &s, msg->p, msg->n);
  int rc;
  size_t nonempty = 0;
  while ((rc = read_field(ps, msg, depth, &s, &fl, &fd)) == 0) {
    nf++;
    if (fd && fd->kind == OSL_KIND_MSG) {
      nsub++;
      nonempty += fl.n > 0;
    }
  }
  if (rc < 0) return rc;
  if (nf == 0) {
    msg->f = no_fields;
    return 0;
  }
  /* what this message's fields and submessages take at least (a nonempty
   * submessage holds at least one field) */
  uint64_t need = (uint64_t)(nf + nonempty) * sizeof(osl_field) + (uint64_t)nsub * sizeof(osl_msg);
  uint64_t used = ps->model->arena.total;
  if (need > ps->max_memory || used > ps->max_memory - need) {
    char what[200];
    snprintf(what, sizeof what,
             "the model needs more memory than max_memory allows (%llu bytes): %zu fields in a "
             "%s, %llu bytes used so far",
             (unsigned long long)ps->max_memory, nf, msg->def->name, (unsigned long long)used);
    return parse_err(ps, depth, ONNXSLIM_ELIMIT, msg->p, what);
  }
  osl_field *f = onnxslim__arena_alloc(&ps->model->arena, nf * sizeof *f);
  osl_msg *subs = nsub ? onnxslim__arena_alloc(&ps->model->arena, nsub * sizeof *subs) : NULL;
  if (!f || (nsub && !subs)) return onnxslim__err_nomem("parsing");
  rd_open(&ps->win, &r, &s, msg->p, msg->n);
  size_t k = 0, j = 0;
  while (k < nf && reread_field(msg, &s, &f[k])) {
    fd = f[k].wt == OSL_WT_LEN ? onnxslim__schema_field(msg->def, f[k].number) : NULL;
    if (fd && fd->kind == OSL_KIND_MSG && j < nsub) {
      osl_msg *sub = &subs[j++];
      memset(sub, 0, sizeof *sub);
      sub->def = fd->sub;
      sub->model = ps->model;
      sub->parent = msg;
      sub->p = f[k].p;
      sub->n = f[k].n;
      sub->fnum = f[k].number;
      sub->pos = (uint32_t)k;
      f[k].sub = sub;
    }
    k++;
  }
  if (k != nf || j != nsub) {
    if (ps->win.err) return parse_err(ps, depth, ONNXSLIM_EIO, msg->p, "");
    return onnxslim__err(ONNXSLIM_EPARSE, "internal error: a message read differently twice");
  }
  msg->f = f;
  msg->nf = nf;
  return 0;
}

/* The tensor hook (the handles' tensor cache: dims, name) reads fields of
 * the tensor. From a file, it reads copies: the payloads of the tensor's
 * small LEN fields (up to OSL_HOOK_COPY each) are read through the window
 * into ps->scratch and the fields point there while the hook runs, then
 * back into the mapping (p = raw + hlen). What the hook keeps (the name's
 * copy, decoded dims) is its own. */
#define OSL_HOOK_COPY (64u << 10)

static int tensor_hook(osl_parse *ps, osl_msg *msg, const char *where) {
  if (ps->win.fd < 0) return ps->model->hooks->tensor_parsed(msg, where);
  size_t need = 0;
  for (size_t i = 0; i < msg->nf; i++) {
    const osl_field *f = &msg->f[i];
    if (f->wt == OSL_WT_LEN && !f->sub && f->n <= OSL_HOOK_COPY) need += f->n;
  }
  if (need > ps->scratch_cap) {
    uint8_t *b = realloc(ps->scratch, need);
    if (!b) return onnxslim__err_nomem("parsing");
    ps->scratch = b;
    ps->scratch_cap = need;
  }
  size_t k = 0;
  int ok = 1;
  for (size_t i = 0; i < msg->nf && ok; i++) {
    osl_field *f = &msg->f[i];
    if (f->wt != OSL_WT_LEN || f->sub || f->n > OSL_HOOK_COPY) continue;
    ok = win_copy(&ps->win, ps->scratch + k, f->p, f->n);
    if (ok) f->p = ps->scratch + k;
    k += f->n;
  }
  int rc = ok ? ps->model->hooks->tensor_parsed(msg, where) : 0;
  for (size_t i = 0; i < msg->nf; i++) {
    osl_field *f = &msg->f[i];
    if (f->wt == OSL_WT_LEN && !f->sub) f->p = f->raw + f->hlen;
  }
  return ok ? rc : ONNXSLIM_EIO;
}

/* Called when every submessage of msg (at depth) has been parsed. */
static int finish_msg(osl_parse *ps, osl_msg *msg, unsigned int depth) {
  if (msg->def != &osl_def_onnx_TensorProto) return 0;
  int rc = tensor_hook(ps, msg, "");
  if (rc == ONNXSLIM_EIO && ps->win.err) return parse_err(ps, depth, rc, msg->p, "");
  if ((!rc && ps->model->arena.total > ps->max_memory) || rc == ONNXSLIM_ELIMIT) {
    char what[160];
    snprintf(what, sizeof what,
             "the model needs more memory than max_memory allows (%llu bytes): a tensor's dims",
             (unsigned long long)ps->max_memory);
    return parse_err(ps, depth, ONNXSLIM_ELIMIT, msg->p, what);
  }
  if (rc && rc != ONNXSLIM_ENOMEM) {
    /* the path is worth its cost (a scan of each enclosing message) only
     * for the message */
    char where[OSL_PATH_MAX];
    path_str(ps, depth, where, sizeof where);
    rc = tensor_hook(ps, msg, where);
  }
  return rc;
}

static int parse_tree(osl_parse *ps, osl_msg *root) {
  int rc = collect_fields(ps, root, 0);
  if (rc) return rc;
  unsigned int depth = 0;
  ps->stack[0].msg = root;
  ps->stack[0].next = 0;
  for (;;) {
    osl_frame *fr = &ps->stack[depth];
    osl_msg *msg = fr->msg;
    size_t i = fr->next;
    while (i < msg->nf && !msg->f[i].sub) i++;
    if (i == msg->nf) {
      rc = finish_msg(ps, msg, depth);
      if (rc || depth == 0) return rc;
      depth--;
      continue;
    }
    fr->next = i + 1;
    osl_msg *sub = msg->f[i].sub;
    if (depth + 1 > ps->max_depth) {
      char what[96];
      snprintf(what, sizeof what, "messages nested deeper than %u", ps->max_depth);
      return parse_err(ps, depth + 1, ONNXSLIM_ELIMIT, sub->p, what);
    }
    rc = collect_fields(ps, sub, depth + 1);
    if (!rc) rc = onnxslim__progress_at(ps->progress, (uint64_t)(sub->p - ps->base));
    if (rc) return rc;
    depth++;
    ps->stack[depth].msg = sub;
    ps->stack[depth].next = 0;
  }
}

int onnxslim__parse_model(onnxslim_model *model, osl_progress *progress) {
  osl_parse ps;
  memset(&ps, 0, sizeof ps);
  ps.model = model;
  ps.progress = progress;
  ps.max_depth = model->max_depth;
  ps.max_memory = model->max_memory;
  ps.stack = calloc((size_t)ps.max_depth + 1, sizeof *ps.stack);
  ps.win.fd = -1;
  if (model->map && model->data == model->map && model->fd >= 0) {
    ps.win.fd = model->fd;
    ps.win.base = model->map;
    ps.win.buf = malloc(OSL_WIN_SIZE);
  }
  int rc;
  osl_msg *root = onnxslim__arena_alloc(&model->arena, sizeof *root);
  if (!ps.stack || !root || (ps.win.fd >= 0 && !ps.win.buf)) {
    rc = onnxslim__err_nomem("parsing");
  } else {
    memset(root, 0, sizeof *root);
    root->def = &osl_def_onnx_ModelProto;
    root->model = model;
    root->p = model->data ? model->data : (const uint8_t *)"";
    ps.base = root->p;
    root->n = model->size;
    rc = parse_tree(&ps, root);
    if (!rc && !onnxslim__msg_has(root, onnx_ModelProto_graph_tag))
      rc = onnxslim__err(ONNXSLIM_EMODEL, "the model has no graph (%zu bytes read)", model->size);
    if (!rc) model->root = root;
  }
  free(ps.stack);
  free(ps.win.buf);
  free(ps.scratch);
  return rc;
}

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

size_t onnxslim__msg_count(const osl_msg *msg, uint32_t number) {
  osl_list *l = onnxslim__msg_list(msg, number);
  if (!l) {
    onnxslim__err_nomem(NULL);
    return 0;
  }
  return l->count;
}

osl_field *onnxslim__msg_at(const osl_msg *msg, uint32_t number, size_t index) {
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

#define OSL_XFORM_CHUNK (1u << 18)       /* elements per chunk */
#define OSL_XFORM_CHUNK_BYTES (1u << 22) /* and at most these bytes of input or output */
/* Source bytes from which a transform handing its output on (fn) runs on
 * a second thread, a chunk ahead of fn: reading and converting overlap
 * writing. */
#define OSL_XFORM_PIPE_MIN (8u << 20)

/* The transform's chunks one after the other, each read in place (bytes in
 * memory; pages released behind) or, with inbuf, copied there from the
 * model's file first (pread: no page of the mapping gets mapped). */
static int chunks_serial(const onnxslim_model *model, const osl_xform *x, uint8_t *dst,
                         osl_chunk_fn fn, void *payload, uint8_t *inbuf, uint8_t *buf, size_t cap) {
  int rc = 0;
  for (size_t i = 0; i < x->count && !rc; i += cap) {
    size_t n = x->count - i < cap ? x->count - i : cap;
    const uint8_t *src = x->src + i * x->in_size;
    uint8_t *out = dst ? dst + i * x->out_size : buf;
    if (inbuf) {
      rc = onnxslim__model_read(model, src, n * x->in_size, inbuf);
      if (rc) break;
      src = inbuf;
    }
    rc = x->run(x, i, src, n, out);
    if (!rc && fn) rc = fn(payload, out, n * x->out_size);
    if (!inbuf) onnxslim__release(model, src, n * x->in_size);
  }
  return rc;
}

/* The pipeline: a worker reads and transforms chunk k + 1 into one of two
 * slots while the caller's thread hands chunk k to fn. */
typedef struct {
  const onnxslim_model *model;
  const osl_xform *x;
  size_t cap; /* elements per chunk */
  uint8_t *in, *out[2];
  pthread_mutex_t mu;
  pthread_cond_t cv;
  size_t made, used; /* chunks made by the worker, handed on by the caller */
  int stop;          /* the caller gives up (fn failed) */
  int rc;            /* the worker's failure */
  char err[256];     /* its message (errors are per thread) */
} osl_pipe;

static void *pipe_worker(void *arg) {
  osl_pipe *pp = arg;
  const osl_xform *x = pp->x;
  size_t nchunks = (x->count + pp->cap - 1) / pp->cap;
  for (size_t k = 0; k < nchunks; k++) {
    pthread_mutex_lock(&pp->mu);
    while (!pp->stop && pp->made - pp->used >= 2) pthread_cond_wait(&pp->cv, &pp->mu);
    int stop = pp->stop;
    pthread_mutex_unlock(&pp->mu);
    if (stop) break;
    size_t i = k * pp->cap, n = x->count - i < pp->cap ? x->count - i : pp->cap;
    int rc = onnxslim__model_read(pp->model, x->src + i * x->in_size, n * x->in_size, pp->in);
    if (!rc) rc = x->run(x, i, pp->in, n, pp->out[k & 1]);
    if (rc) snprintf(pp->err, sizeof pp->err, "%s", onnxslim_error_last());
    pthread_mutex_lock(&pp->mu);
    if (rc) pp->rc = rc;
    else pp->made++;
    pthread_cond_broadcast(&pp->cv);
    pthread_mutex_unlock(&pp->mu);
    if (rc) break;
  }
  return NULL;
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
  if (pthread_mutex_init(&pp.mu, NULL)) return 0;
  if (pthread_cond_init(&pp.cv, NULL)) {
    pthread_mutex_destroy(&pp.mu);
    return 0;
  }
  pthread_t th;
  if (pthread_create(&th, NULL, pipe_worker, &pp)) {
    pthread_cond_destroy(&pp.cv);
    pthread_mutex_destroy(&pp.mu);
    return 0; /* no thread: the caller runs the chunks itself */
  }
  *started = 1;
  size_t nchunks = (x->count + cap - 1) / cap;
  int rc = 0;
  for (size_t k = 0; k < nchunks && !rc; k++) {
    pthread_mutex_lock(&pp.mu);
    while (pp.made <= k && !pp.rc) pthread_cond_wait(&pp.cv, &pp.mu);
    int failed = pp.made <= k ? pp.rc : 0;
    pthread_mutex_unlock(&pp.mu);
    if (failed) {
      rc = onnxslim__err(failed, "%s", pp.err);
      break;
    }
    size_t n = x->count - k * cap < cap ? x->count - k * cap : cap;
    rc = fn(payload, pp.out[k & 1], n * x->out_size);
    pthread_mutex_lock(&pp.mu);
    pp.used++;
    if (rc) pp.stop = 1;
    pthread_cond_broadcast(&pp.cv);
    pthread_mutex_unlock(&pp.mu);
  }
  pthread_join(th, NULL);
  pthread_cond_destroy(&pp.cv);
  pthread_mutex_destroy(&pp.mu);
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
  size_t total = x->count * x->in_size;
  int fd = -1;
  int64_t off = 0;
  int file = x->count && onnxslim__model_locate(model, x->src, total, &fd, &off);
  int piped = file && !dst && fn && total >= OSL_XFORM_PIPE_MIN;
  uint8_t *buf = NULL, *inbuf = NULL;
  if (!dst) {
    buf = malloc(cap ? (piped ? 2 : 1) * cap * x->out_size : 1);
    if (!buf) return onnxslim__err_nomem(NULL);
  }
  if (file) {
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
