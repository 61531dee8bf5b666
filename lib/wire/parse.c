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
 *
 * This file parses; edit.c reads and edits the fields, write.c writes them
 * back (and holds a save's plan), xform.c runs a transform's chunks. wire.h
 * is what they share.
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
    ptrdiff_t got = onnxslim__os_pread(w->fd, direct ? dst : w->buf, direct ? n : OSL_WIN_SIZE,
                                       (int64_t)(p - w->base));
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
