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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pb_decode.h>
#include <pb_encode.h>

#include "onnx.pb.h"

#include "internal.h"

/* ---- parsing ----------------------------------------------------------- */

#define OSL_PATH_MAX 512

typedef struct {
  const osl_fielddef *def;
  size_t index; /* occurrence index for repeated fields, SIZE_MAX otherwise */
} osl_path_elem;

typedef struct {
  onnxslim_model *model;
  const uint8_t *base;  /* start of the whole buffer, for byte offsets */
  unsigned int max_depth;
  osl_path_elem *path;  /* max_depth + 1 entries */
  osl_field **scratch;  /* per depth growing vectors */
  size_t *scratch_cap;
} osl_parse;

static void path_str(const osl_parse *ps, unsigned int depth, char *buf, size_t cap) {
  size_t len = 0;
  buf[0] = '\0';
  for (unsigned int i = 0; i < depth && len < cap; i++) {
    const osl_path_elem *e = &ps->path[i];
    int w;
    if (e->index != SIZE_MAX)
      w = snprintf(buf + len, cap - len, "%s%s[%zu]", len ? "." : "", e->def->name, e->index);
    else
      w = snprintf(buf + len, cap - len, "%s%s", len ? "." : "", e->def->name);
    if (w < 0) break;
    len += (size_t)w;
  }
  if (!buf[0]) snprintf(buf, cap, "model");
}

static int parse_err(const osl_parse *ps, unsigned int depth, int code, const uint8_t *at,
                     const char *what) {
  char where[OSL_PATH_MAX];
  path_str(ps, depth, where, sizeof where);
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
static int packed_ok(const osl_fielddef *fd, const uint8_t *p, size_t n) {
  if (fd->kind == OSL_KIND_FIXED32) return n % 4 == 0;
  if (fd->kind == OSL_KIND_FIXED64) return n % 8 == 0;
  pb_istream_t s = pb_istream_from_buffer(p, n);
  while (s.bytes_left) {
    uint64_t v;
    if (!pb_decode_varint(&s, &v)) return 0;
  }
  return 1;
}

static int parse_msg(osl_parse *ps, osl_msg *msg, unsigned int depth);

static int collect_fields(osl_parse *ps, osl_msg *msg, unsigned int depth) {
  pb_istream_t s = pb_istream_from_buffer(msg->p, msg->n);
  size_t nf = 0;
  for (;;) {
    const uint8_t *start = msg->p + (msg->n - s.bytes_left);
    pb_wire_type_t wt;
    uint32_t number;
    bool eof = false;
    if (!pb_decode_tag(&s, &wt, &number, &eof)) {
      if (eof) break;
      return parse_err(ps, depth, ONNXSLIM_EPARSE, start,
                       s.bytes_left ? "malformed field tag" : "truncated field tag");
    }
    if (number == 0) return parse_err(ps, depth, ONNXSLIM_EPARSE, start, "field number 0");
    osl_field fl;
    memset(&fl, 0, sizeof fl);
    fl.number = number;
    fl.wt = (uint8_t)wt;
    fl.def = onnxslim__schema_field(msg->def, number);
    const uint8_t *vstart = msg->p + (msg->n - s.bytes_left);
    char what[160];
    switch (wt) {
    case PB_WT_VARINT:
      if (!pb_decode_varint(&s, &fl.u))
        return parse_err(ps, depth, ONNXSLIM_EPARSE, vstart,
                         s.bytes_left ? "malformed varint" : "truncated varint");
      break;
    case PB_WT_64BIT:
    case PB_WT_32BIT: {
      size_t w = wt == PB_WT_64BIT ? 8 : 4;
      uint8_t b[8] = {0};
      if (s.bytes_left < w)
        return parse_err(ps, depth, ONNXSLIM_EPARSE, vstart, "truncated fixed-size field");
      if (!pb_read(&s, b, w))
        return parse_err(ps, depth, ONNXSLIM_EPARSE, vstart, "unreadable fixed-size field");
      for (size_t i = 0; i < w; i++) fl.u |= (uint64_t)b[i] << (8 * i);
      break;
    }
    case PB_WT_STRING: {
      uint64_t len;
      if (!pb_decode_varint(&s, &len))
        return parse_err(ps, depth, ONNXSLIM_EPARSE, vstart,
                         s.bytes_left ? "malformed length" : "truncated length");
      const uint8_t *payload = msg->p + (msg->n - s.bytes_left);
      if (len > s.bytes_left) {
        snprintf(what, sizeof what,
                 "truncated length-delimited field %u (length %llu, %zu bytes left)", number,
                 (unsigned long long)len, s.bytes_left);
        return parse_err(ps, depth, ONNXSLIM_EPARSE, start, what);
      }
      fl.p = payload;
      fl.n = (size_t)len;
      if (!pb_read(&s, NULL, (size_t)len))
        return parse_err(ps, depth, ONNXSLIM_EPARSE, payload, "unreadable payload");
      break;
    }
    default:
      snprintf(what, sizeof what, "unsupported wire type %u of field %u", (unsigned)wt, number);
      return parse_err(ps, depth, ONNXSLIM_EPARSE, start, what);
    }
    if (fl.def && !wire_ok(fl.def, wt)) {
      snprintf(what, sizeof what, "wrong wire type %u for field '%s' (%u) of %s", (unsigned)wt,
               fl.def->name, number, msg->def->name);
      return parse_err(ps, depth, ONNXSLIM_EPARSE, start, what);
    }
    if (fl.def && wt == PB_WT_STRING && fl.def->kind <= OSL_KIND_FIXED64 &&
        !packed_ok(fl.def, fl.p, fl.n)) {
      snprintf(what, sizeof what, "malformed packed field '%s' of %s", fl.def->name,
               msg->def->name);
      return parse_err(ps, depth, ONNXSLIM_EPARSE, fl.p, what);
    }
    fl.raw = start;
    fl.rawlen = (size_t)(msg->p + (msg->n - s.bytes_left) - start);
    if (nf == ps->scratch_cap[depth]) {
      size_t cap = nf ? nf * 2 : 32;
      osl_field *v = realloc(ps->scratch[depth], cap * sizeof *v);
      if (!v) return onnxslim__err(ONNXSLIM_ENOMEM, "out of memory while parsing");
      ps->scratch[depth] = v;
      ps->scratch_cap[depth] = cap;
    }
    ps->scratch[depth][nf++] = fl;
  }
  msg->f = onnxslim__arena_dup(&ps->model->arena, ps->scratch[depth], nf * sizeof(osl_field));
  if (!msg->f) return onnxslim__err(ONNXSLIM_ENOMEM, "out of memory while parsing");
  msg->nf = nf;
  return 0;
}

static int parse_msg(osl_parse *ps, osl_msg *msg, unsigned int depth) {
  if (depth > ps->max_depth) {
    char what[96];
    snprintf(what, sizeof what, "messages nested deeper than %u", ps->max_depth);
    return parse_err(ps, depth, ONNXSLIM_ELIMIT, msg->p, what);
  }
  int rc = collect_fields(ps, msg, depth);
  if (rc) return rc;
  size_t counts[32] = {0};
  for (size_t i = 0; i < msg->nf; i++) {
    osl_field *fl = &msg->f[i];
    if (!fl->def || fl->def->kind != OSL_KIND_MSG) continue;
    size_t di = (size_t)(fl->def - msg->def->fields);
    ps->path[depth].def = fl->def;
    ps->path[depth].index = fl->def->repeated ? counts[di < 32 ? di : 31]++ : SIZE_MAX;
    osl_msg *sub = onnxslim__arena_alloc(&ps->model->arena, sizeof *sub);
    if (!sub) return onnxslim__err(ONNXSLIM_ENOMEM, "out of memory while parsing");
    memset(sub, 0, sizeof *sub);
    sub->def = fl->def->sub;
    sub->model = ps->model;
    sub->parent = msg;
    sub->p = fl->p;
    sub->n = fl->n;
    fl->sub = sub;
    rc = parse_msg(ps, sub, depth + 1);
    if (rc) return rc;
  }
  if (msg->def == &osl_def_onnx_TensorProto) {
    char where[OSL_PATH_MAX];
    path_str(ps, depth, where, sizeof where);
    rc = onnxslim__tensor_validate(msg, where);
  }
  return rc;
}

int onnxslim__parse_model(onnxslim_model *model) {
  osl_parse ps;
  memset(&ps, 0, sizeof ps);
  ps.model = model;
  ps.base = model->data;
  ps.max_depth = model->max_depth;
  size_t levels = (size_t)ps.max_depth + 2;
  ps.path = calloc(levels, sizeof *ps.path);
  ps.scratch = calloc(levels, sizeof *ps.scratch);
  ps.scratch_cap = calloc(levels, sizeof *ps.scratch_cap);
  int rc;
  osl_msg *root = onnxslim__arena_alloc(&model->arena, sizeof *root);
  if (!ps.path || !ps.scratch || !ps.scratch_cap || !root) {
    rc = onnxslim__err(ONNXSLIM_ENOMEM, "out of memory while parsing");
  } else {
    memset(root, 0, sizeof *root);
    root->def = &osl_def_onnx_ModelProto;
    root->model = model;
    root->p = model->data ? model->data : (const uint8_t *)"";
    ps.base = root->p;
    root->n = model->size;
    rc = parse_msg(&ps, root, 0);
    if (!rc && !onnxslim__msg_has(root, onnx_ModelProto_graph_tag))
      rc = onnxslim__err(ONNXSLIM_EMODEL, "the model has no graph (%zu bytes read)", model->size);
    if (!rc) model->root = root;
  }
  if (ps.scratch)
    for (size_t i = 0; i < levels; i++) free(ps.scratch[i]);
  free(ps.scratch);
  free(ps.scratch_cap);
  free(ps.path);
  return rc;
}

/* ---- field access ------------------------------------------------------ */

osl_field *onnxslim__msg_last(const osl_msg *msg, uint32_t number) {
  for (size_t i = msg->nf; i-- > 0;)
    if (msg->f[i].number == number) return &msg->f[i];
  return NULL;
}

int onnxslim__msg_has(const osl_msg *msg, uint32_t number) {
  return onnxslim__msg_last(msg, number) != NULL;
}

osl_list *onnxslim__msg_list(const osl_msg *cmsg, uint32_t number) {
  osl_msg *msg = (osl_msg *)cmsg;
  for (osl_list *l = msg->lists; l; l = l->next)
    if (l->number == number) return l;
  osl_arena *a = &msg->model->arena;
  osl_list *l = onnxslim__arena_alloc(a, sizeof *l);
  if (!l) return NULL;
  memset(l, 0, sizeof *l);
  l->number = number;
  for (size_t i = 0; i < msg->nf; i++) l->count += msg->f[i].number == number;
  l->idx = onnxslim__arena_alloc(a, (l->count ? l->count : 1) * sizeof *l->idx);
  if (!l->idx) return NULL;
  size_t k = 0;
  for (size_t i = 0; i < msg->nf; i++)
    if (msg->f[i].number == number) l->idx[k++] = i;
  l->next = msg->lists;
  msg->lists = l;
  return l;
}

size_t onnxslim__msg_count(const osl_msg *msg, uint32_t number) {
  osl_list *l = onnxslim__msg_list(msg, number);
  if (!l) {
    onnxslim__err(ONNXSLIM_ENOMEM, "out of memory");
    return 0;
  }
  return l->count;
}

osl_field *onnxslim__msg_at(const osl_msg *msg, uint32_t number, size_t index) {
  osl_list *l = onnxslim__msg_list(msg, number);
  if (!l) {
    onnxslim__err(ONNXSLIM_ENOMEM, "out of memory");
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
    if (!f->cstr) onnxslim__err(ONNXSLIM_ENOMEM, "out of memory");
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
 * an array of `width`-byte elements cached in the field's list. */
static int msg_scalars(const osl_msg *msg, uint32_t number, int is_float, const void **vals,
                       size_t *count) {
  osl_list *l = onnxslim__msg_list(msg, number);
  if (!l) return onnxslim__err(ONNXSLIM_ENOMEM, "out of memory");
  if (!l->values) {
    size_t width = is_float ? sizeof(float) : sizeof(int64_t);
    size_t n = 0;
    for (size_t k = 0; k < l->count; k++) {
      osl_field *f = &msg->f[l->idx[k]];
      if (f->wt != OSL_WT_LEN) {
        n++;
      } else if (is_float) {
        n += f->n / 4;
      } else {
        for (size_t i = 0; i < f->n; i++) n += (f->p[i] & 0x80) == 0;
      }
    }
    uint8_t *out = onnxslim__arena_alloc(&msg->model->arena, (n ? n : 1) * width);
    if (!out) return onnxslim__err(ONNXSLIM_ENOMEM, "out of memory");
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
        memcpy(out + j * 4, f->p, f->n / 4 * 4);
        j += f->n / 4;
      } else {
        pb_istream_t s = pb_istream_from_buffer(f->p, f->n);
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
  *vals = l->values;
  *count = l->nvalues;
  return 0;
}

int onnxslim__msg_int64s(const osl_msg *msg, uint32_t number, const int64_t **vals,
                         size_t *count) {
  return msg_scalars(msg, number, 0, (const void **)vals, count);
}

int onnxslim__msg_floats(const osl_msg *msg, uint32_t number, const float **vals,
                         size_t *count) {
  return msg_scalars(msg, number, 1, (const void **)vals, count);
}

/* ---- edits ------------------------------------------------------------- */

void onnxslim__msg_touch(osl_msg *msg) {
  for (osl_msg *m = msg; m; m = m->parent) {
    m->dirty = 1;
    /* the enclosing field's original bytes no longer describe it */
    if (m->parent)
      for (size_t i = 0; i < m->parent->nf; i++)
        if (m->parent->f[i].sub == m) m->parent->f[i].raw = NULL;
  }
}

int onnxslim__msg_set_str(osl_msg *msg, uint32_t number, const char *value) {
  onnxslim_model *model = msg->model;
  size_t len = strlen(value);
  char *copy = onnxslim__arena_strndup(&model->arena, value, len);
  if (!copy) return onnxslim__err(ONNXSLIM_ENOMEM, "out of memory");
  osl_field *f = onnxslim__msg_last(msg, number);
  if (!f) {
    /* insert after the last field with a lower number, keeping others in place */
    size_t pos = 0;
    for (size_t i = 0; i < msg->nf; i++)
      if (msg->f[i].number < number) pos = i + 1;
    osl_field *nfs = onnxslim__arena_alloc(&model->arena, (msg->nf + 1) * sizeof *nfs);
    if (!nfs) return onnxslim__err(ONNXSLIM_ENOMEM, "out of memory");
    memcpy(nfs, msg->f, pos * sizeof *nfs);
    memcpy(nfs + pos + 1, msg->f + pos, (msg->nf - pos) * sizeof *nfs);
    f = &nfs[pos];
    memset(f, 0, sizeof *f);
    f->number = number;
    f->wt = OSL_WT_LEN;
    f->def = onnxslim__schema_field(msg->def, number);
    msg->f = nfs;
    msg->nf++;
    msg->lists = NULL; /* indices moved */
  }
  f->p = (const uint8_t *)copy;
  f->n = len;
  f->cstr = copy;
  f->raw = NULL;
  onnxslim__msg_touch(msg);
  return 0;
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

int onnxslim__msg_size(osl_msg *msg, uint64_t *size) {
  if (!msg->dirty) {
    msg->enc_size = msg->n;
    *size = msg->n;
    return 0;
  }
  uint64_t total = 0;
  for (size_t i = 0; i < msg->nf; i++) {
    osl_field *f = &msg->f[i];
    if (f->raw) {
      total += f->rawlen;
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
        int rc = onnxslim__msg_size(f->sub, &len);
        if (rc) return rc;
      }
      total += varint_size(len) + len;
    }
    }
  }
  msg->enc_size = total;
  *size = total;
  return 0;
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

int onnxslim__msg_write(osl_msg *msg, osl_sink *sink) {
  if (!msg->dirty) return msg->n ? sink->write(sink, msg->p, msg->n) : 0;
  for (size_t i = 0; i < msg->nf; i++) {
    osl_field *f = &msg->f[i];
    int rc;
    if (f->raw) {
      rc = sink->write(sink, f->raw, f->rawlen);
    } else if (f->sub) {
      rc = write_field_head(sink, f, f->sub->enc_size);
      if (!rc) rc = onnxslim__msg_write(f->sub, sink);
    } else {
      rc = write_field_head(sink, f, f->n);
      if (!rc && f->wt == OSL_WT_LEN && f->n) rc = sink->write(sink, f->p, f->n);
    }
    if (rc) return rc;
  }
  return 0;
}
