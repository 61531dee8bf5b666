/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - saving with external data: tensors written to data files
 * next to the model (ONNX external_data keys location, offset, length,
 * checksum) or merged back inline, the pair committed atomically.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <dirent.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <nettle/sha1.h>

#include "onnx.pb.h"

#include "passes/passes.h"

/* ---- which tensors go out ------------------------------------------------------ */

typedef struct {
  osl_msg *t;
  const char *name;
  int status;
  int ext_now; /* stored externally at the moment */
  size_t file; /* index into outs */
  uint64_t offset, length;
  char checksum[41];
} osl_item;

/* ---- a growable byte buffer (the plans' fields, the journal's text) ---- */
typedef struct {
  uint8_t *p;
  size_t n, cap;
  int fail;
} osl_buf;

static void put(osl_buf *b, const void *d, size_t n) {
  if (b->fail) return;
  if (b->n + n > b->cap) {
    size_t cap = (b->n + n) * 2 + 64;
    uint8_t *q = realloc(b->p, cap);
    if (!q) {
      b->fail = 1;
      return;
    }
    b->p = q;
    b->cap = cap;
  }
  memcpy(b->p + b->n, d, n);
  b->n += n;
}

/* The model a save replaces: the files it reads, by location and identity. */
typedef struct {
  char *loc; /* normalized location */
  int found; /* the file was opened: dev/ino are valid */
  dev_t dev;
  ino_t ino;
} osl_oldref;

typedef struct {
  int exists;  /* a file is at the destination */
  int unknown; /* it is not a model that loads: what it reads is unknown */
  osl_oldref *refs;
  size_t n, cap;
  /* the saving model: what the lists hold counts against its max_memory */
  const onnxslim_model *counter;
  uint64_t held;  /* charged for the strings (refs and maps are counted blocks) */
  osl_map locs;   /* location -> a ref (lookups in constant time) */
  osl_map ids;    /* "dev:ino" of the refs found -> a ref */
  osl_arena keys; /* the ids' strings */
} osl_old;

#define SAVE "saving the model"

/* One save with external data (or all inline): what it decided and what it
 * holds, phase by phase (see onnxslim__save_external). */
typedef struct {
  /* the call */
  const onnxslim_model *model;
  const char *path;
  onnxslim_save_options o; /* checked; align and location resolved */
  const char *base;        /* the model file's name (in path) */
  char *deflt;             /* the default data file, <model>.data */
  char *norm;              /* the location asked for, normalized (or NULL) */
  char *outdir_name;       /* the model's directory, and a descriptor of it */
  int outdir;
  int fsync_data;
  /* the tensors considered (collect_items) */
  osl_item *items;
  size_t count, cap, nwritten;
  /* the data files: the name wanted, the output (a temporary until it is
   * claimed), the name it got, its final name in its directory and the
   * file kept aside under that name, if any */
  size_t nfiles, nouts, committed;
  char **wants, **locs, **backups;
  const char **finals;
  osl_out **outs;
  /* the commit */
  osl_lock *lock;
  osl_old old;     /* the model in place */
  osl_old news;    /* AS_LOADED: the files the new model reads (the loaded ones) */
  osl_old others;  /* the files the other models of the directory read */
  int others_read; /* others was filled (scan_others) */
  int jfd;         /* the journal */
  char *jname;
  /* the model file: the tensors' plans and their encoded fields */
  osl_plan *plans;
  osl_buf enc;
  osl_saveplan sp;
  osl_out *mout;
  onnxslim_save_report *rep;
  /* the bytes written, for the caller's progress function */
  osl_progress progress;
  uint64_t model_est; /* the model file's size as estimated before the data */
  /* charged per tensor against the model's max_memory for what the save
   * holds beside its counted blocks (the report, names, encoded fields) */
  uint64_t held;
  osl_map wanted;  /* the data file names wanted (want_names) */
  osl_map claimed; /* the names the data files got (claim_name) */
} osl_xsave;

/* What a tensor's place in a save costs beside the counted blocks: its
 * report entry (name, location), its data file's names, its encoded
 * storage fields and its entry in the save plan. */
static uint64_t item_cost(const char *name) {
  uint64_t n = onnxslim__mem_cost(strlen(name) + 40);
  return sizeof(struct osl_save_entry) + 4 * n + 5 * sizeof(void *) + 160;
}

static int add_item(osl_xsave *s, osl_msg *t, const char *name, onnxslim_graph *g) {
  int rc = onnxslim__mem_charge(s->model, item_cost(name), SAVE);
  if (rc) return rc;
  s->held += item_cost(name);
  if (s->count == s->cap) {
    size_t cap = s->cap ? s->cap * 2 : 32;
    osl_item *v = onnxslim__mem_realloc(s->model, s->items, cap * sizeof *v, SAVE);
    if (!v) return onnxslim_error_last_code();
    s->items = v;
    s->cap = cap;
  }
  osl_item *it = &s->items[s->count++];
  memset(it, 0, sizeof *it);
  it->t = t;
  it->name = name;
  it->ext_now = onnxslim_tensor_storage((onnxslim_tensor *)t) == ONNXSLIM_STORAGE_EXTERNAL;
  uint64_t size = 0;
  if (s->o.layout == ONNXSLIM_LAYOUT_INLINE) {
    it->status = ONNXSLIM_SAVE_PLACEMENT_BELOW_THRESHOLD;
  } else if (onnxslim_tensor_byte_size((onnxslim_tensor *)t, &size) != 0) {
    it->status = ONNXSLIM_SAVE_PLACEMENT_NO_LAYOUT;
  } else if (s->o.flags & ONNXSLIM_SAVE_KEEP_STORAGE) {
    /* out exactly when it is out now */
    it->status =
        it->ext_now ? ONNXSLIM_SAVE_PLACEMENT_EXTERNAL : ONNXSLIM_SAVE_PLACEMENT_BELOW_THRESHOLD;
    if (it->ext_now) it->length = size;
  } else if (size < s->o.size_threshold || size == 0) {
    /* empty: nothing to move out (and onnxruntime 1.30 aborts on an empty
     * tensor in external data) */
    it->status = ONNXSLIM_SAVE_PLACEMENT_BELOW_THRESHOLD;
  } else if (g && !(s->o.flags & ONNXSLIM_SAVE_FORCE_SHAPE_INPUTS) &&
             onnxslim__load_reader(s->model, g, name, NULL)) {
    it->status = ONNXSLIM_SAVE_PLACEMENT_SHAPE_INPUT;
  } else {
    it->status = ONNXSLIM_SAVE_PLACEMENT_EXTERNAL;
    it->length = size;
  }
  return 0;
}

static int collect_items(osl_xsave *s, osl_msg *msg) {
  int rc = 0;
  OSL_FLUSH(msg);
  if (msg->def == &osl_def_onnx_GraphProto) {
    for (size_t i = 0; i < msg->nf && !rc; i++)
      if (msg->f[i].number == onnx_GraphProto_initializer_tag && msg->f[i].sub) {
        const char *name = onnxslim__msg_str(msg->f[i].sub, onnx_TensorProto_name_tag);
        rc = name ? add_item(s, msg->f[i].sub, name, (onnxslim_graph *)msg)
                  : onnxslim__err_nomem("tensor name");
      }
  } else if (msg->def == &osl_def_onnx_NodeProto && (s->o.flags & ONNXSLIM_SAVE_CONSTANTS) &&
             strcmp(onnxslim__msg_str(msg, onnx_NodeProto_op_type_tag), "Constant") == 0) {
    onnxslim_attr *a = onnxslim_node_find_attr((onnxslim_node *)msg, "value");
    onnxslim_tensor *t = a ? onnxslim_attr_tensor(a) : NULL;
    /* named after its output ("" when it has none) */
    const char *name = onnxslim_node_output_count((onnxslim_node *)msg)
                           ? onnxslim_node_output((onnxslim_node *)msg, 0)
                           : "";
    if (t && !name) rc = onnxslim__err_nomem("tensor name");
    else if (t) rc = add_item(s, (osl_msg *)t, name, onnxslim_node_graph((onnxslim_node *)msg));
  }
  /* any other tensor stored externally now must come back inline */
  if (!rc && msg->def == &osl_def_onnx_TensorProto && msg->parent &&
      msg->parent->def != &osl_def_onnx_GraphProto &&
      onnxslim__msg_int(msg, onnx_TensorProto_data_location_tag, 0) ==
          onnx_TensorProto_DataLocation_EXTERNAL) {
    int listed = 0;
    for (size_t i = 0; i < s->count; i++) listed |= s->items[i].t == msg;
    const char *name = listed ? NULL : onnxslim__msg_str(msg, onnx_TensorProto_name_tag);
    if (!listed && !name) {
      rc = onnxslim__err_nomem("tensor name");
    } else if (!listed) {
      rc = add_item(s, msg, name, NULL);
      if (!rc) s->items[s->count - 1].status = ONNXSLIM_SAVE_PLACEMENT_BELOW_THRESHOLD;
    }
  }
  for (size_t i = 0; i < msg->nf && !rc; i++)
    if (msg->f[i].sub) rc = collect_items(s, msg->f[i].sub);
  return rc;
}

/* onnxruntime's ConstantSharing (at session creation, from the basic
 * optimization level) replaces one-element initializers of the same data
 * type, shape and value by one of them: a tensor in external data can so
 * take the place of one read at load (passes/load_inputs.c) and make the
 * model fail. A one-element tensor of a type it shares stays inline when a
 * tensor of the same data type, dims and value does for being read at
 * load. */
static int shareable(onnxslim_tensor *t) {
  switch (onnxslim_tensor_dtype(t)) {
  case ONNXSLIM_DTYPE_FLOAT:
  case ONNXSLIM_DTYPE_FLOAT16:
  case ONNXSLIM_DTYPE_DOUBLE:
  case ONNXSLIM_DTYPE_INT32:
  case ONNXSLIM_DTYPE_INT64: break;
  default: return 0;
  }
  size_t r = onnxslim_tensor_rank(t);
  return r == 0 || (r == 1 && onnxslim_tensor_dim(t, 0) == 1);
}

/* The key of a one-element tensor's value among the kept ones: its data
 * type, rank and bytes ("t/r=HEX"), or "t/r?" when its bytes cannot be
 * read; "t/r*" names its type and rank alone. In buf (48 bytes). */
static const char *value_key(char *buf, onnxslim_tensor *t, char kind) {
  int n =
      snprintf(buf, 48, "%d/%zu%c", (int)onnxslim_tensor_dtype(t), onnxslim_tensor_rank(t), kind);
  if (kind != '=') return buf;
  const void *p;
  size_t len;
  if (onnxslim_tensor_data(t, &p, &len) != 0) {
    onnxslim_error_clear();
    buf[n - 1] = '?';
    return buf;
  }
  for (size_t i = 0; i < len && n + 3 < 48; i++, n += 2)
    snprintf(buf + n, 3, "%02x", ((const uint8_t *)p)[i]);
  return buf;
}

static int keep_shared(osl_xsave *s) {
  /* the one-element tensors kept inline for being read at load, by value
   * (the same data type, rank and bytes; one whose bytes cannot be read
   * stays inline: a few bytes at worst): a lookup per tensor, not a scan */
  const onnxslim_model *m = s->model;
  osl_map kept = {0};
  osl_arena keys = {0};
  uint64_t held = 0;
  int rc = 0;
  char buf[48];
  for (size_t j = 0; j < s->count && !rc; j++) {
    onnxslim_tensor *t = (onnxslim_tensor *)s->items[j].t;
    if (s->items[j].status != ONNXSLIM_SAVE_PLACEMENT_SHAPE_INPUT || !shareable(t)) continue;
    if ((rc = onnxslim__mem_charge(m, 2 * 48, SAVE)) != 0) break;
    held += 2 * 48;
    for (int w = 0; w < 2 && !rc; w++) {
      const char *k = value_key(buf, t, w ? '=' : '*');
      char *key = onnxslim__arena_strndup(&keys, k, strlen(k));
      osl_map_entry *e;
      if (!key) rc = onnxslim__err_nomem(NULL);
      else if ((rc = onnxslim__mem_map_add(m, &kept, key, &e, SAVE)) > 0) rc = 0;
    }
  }
  for (size_t i = 0; i < s->count && kept.len && !rc; i++) {
    osl_item *a = &s->items[i];
    onnxslim_tensor *ta = (onnxslim_tensor *)a->t;
    if (a->status != ONNXSLIM_SAVE_PLACEMENT_EXTERNAL || !shareable(ta)) continue;
    /* a kept tensor of this type and rank that cannot be read matches all;
     * one of them that cannot be read matches any kept */
    const char *k = value_key(buf, ta, '=');
    int hit = onnxslim__map_find(&kept, k) != NULL;
    if (!hit) {
      char tr[48];
      hit = onnxslim__map_find(&kept, value_key(tr, ta, '?')) != NULL ||
            (strchr(k, '?') && onnxslim__map_find(&kept, value_key(tr, ta, '*')) != NULL);
    }
    if (hit) {
      a->status = ONNXSLIM_SAVE_PLACEMENT_SHAPE_INPUT;
      a->length = 0;
    }
  }
  onnxslim__mem_map_free(m, &kept);
  onnxslim__arena_free(&keys);
  onnxslim__mem_release(m, held);
  return rc;
}

/* A sink that hashes what passes through (for the checksum key). */
typedef struct {
  osl_sink base;
  osl_sink *next;
  struct sha1_ctx sha;
} osl_hash_sink;

static int hash_write(osl_sink *sink, const uint8_t *p, size_t n) {
  osl_hash_sink *h = (osl_hash_sink *)sink;
  sha1_update(&h->sha, n, p);
  return h->next->write(h->next, p, n);
}

static int write_item(const onnxslim_model *m, osl_item *it, osl_out *out, uint64_t align,
                      int checksum) {
  static const uint8_t zeros[4096];
  uint64_t pos = onnxslim__out_pos(out);
  uint64_t pad = (align - pos % align) % align;
  osl_sink *sink = onnxslim__out_sink(out);
  int rc = 0;
  while (pad && !rc) {
    size_t c = pad < sizeof zeros ? (size_t)pad : sizeof zeros;
    rc = sink->write(sink, zeros, c);
    pad -= c;
  }
  if (rc) return rc;
  it->offset = onnxslim__out_pos(out);
  const osl_xform *x;
  const uint8_t *p;
  size_t n;
  rc = onnxslim__tensor_source(it->t, &x, &p, &n);
  if (rc) return rc;
  if ((uint64_t)n != it->length)
    return onnxslim__err(ONNXSLIM_EMODEL, "tensor '%s': %zu bytes stored, dims and type need %llu",
                         it->name, n, (unsigned long long)it->length);
  osl_hash_sink hs;
  if (checksum) {
    hs.base.write = hash_write;
    hs.next = sink;
    sha1_init(&hs.sha);
    sink = &hs.base;
  }
  if (x) {
    rc = onnxslim__xform_write((onnxslim_model *)m, x, sink);
  } else {
    rc = n ? sink->write(sink, p, n) : 0;
  }
  if (!rc && checksum) {
    uint8_t d[SHA1_DIGEST_SIZE];
    sha1_digest(&hs.sha, sizeof d, d);
    for (size_t i = 0; i < sizeof d; i++) sprintf(it->checksum + 2 * i, "%02x", d[i]);
  }
  return rc;
}

/* A sink appending to a buffer. */
typedef struct {
  osl_sink base;
  osl_buf *b;
} osl_buf_sink;

static int buf_write(osl_sink *sink, const uint8_t *d, size_t n) {
  osl_buf *b = ((osl_buf_sink *)sink)->b;
  put(b, d, n);
  return b->fail ? onnxslim__err_nomem("save plan") : 0;
}

/* Appends a written tensor's replacement storage fields to b: an
 * external_data entry per key (location, offset, length, and checksum when
 * asked) and data_location EXTERNAL, encoded by the wire layer. */
static int put_placement(osl_buf *b, const char *location, uint64_t offset, uint64_t length,
                         const char *checksum) {
  char off[24], len[24];
  snprintf(off, sizeof off, "%llu", (unsigned long long)offset);
  snprintf(len, sizeof len, "%llu", (unsigned long long)length);
  const char *keys[4] = {"location", "offset", "length", "checksum"};
  const char *values[4] = {location, off, len, checksum};
  size_t nkeys = checksum ? 4 : 3;
  osl_field kv[4][2], f[5];
  osl_msg entry[4];
  for (size_t k = 0; k < nkeys; k++) {
    onnxslim__fld_bytes(NULL, onnx_StringStringEntryProto_key_tag, keys[k], strlen(keys[k]), 1,
                        &kv[k][0]);
    onnxslim__fld_bytes(NULL, onnx_StringStringEntryProto_value_tag, values[k], strlen(values[k]),
                        1, &kv[k][1]);
    onnxslim__msg_of_fields(&entry[k], &osl_def_onnx_StringStringEntryProto, kv[k], 2);
    onnxslim__fld_sub(onnx_TensorProto_external_data_tag, &entry[k], &f[k]);
  }
  onnxslim__fld_varint(onnx_TensorProto_data_location_tag, onnx_TensorProto_DataLocation_EXTERNAL,
                       &f[nkeys]);
  osl_buf_sink bs = {{buf_write}, b};
  return onnxslim__fields_write(&osl_def_onnx_TensorProto, f, nkeys + 1, &bs.base);
}

/* A location without "." and empty segments ("./m.data" is "m.data"); malloc'ed. */
static char *norm_location(const char *loc) {
  char *norm = malloc(strlen(loc) + 1);
  if (!norm) return NULL;
  char *q = norm;
  for (const char *p = loc; *p;) {
    const char *e = strchr(p, '/');
    size_t len = e ? (size_t)(e - p) : strlen(p);
    if (len && !(len == 1 && p[0] == '.')) {
      if (q != norm) *q++ = '/';
      memcpy(q, p, len);
      q += len;
    }
    p += len + (e ? 1 : 0);
  }
  *q = '\0';
  return norm;
}

/* ---- data file generations -------------------------------------------------
 * A data file never replaces one the model at the destination reads: that
 * model stays whole until the new one is renamed over it (the commit). The
 * name wanted ("out.bin") is used unless the model being replaced (or the
 * model being saved) reads it; then its first free generation, "_N" before
 * the extension ("out_1.bin"). So successive saves to one path alternate
 * between two names. After the commit the data files of the replaced model
 * that the new one does not read are removed, whatever their names (see
 * goes()), unless another model of the directory reads them. */

/* Where the extension of the last segment of `want` starts (its end if none). */
static const char *ext_of(const char *want) {
  const char *seg = strrchr(want, '/');
  seg = seg ? seg + 1 : want;
  const char *dot = strrchr(seg, '.');
  return dot && dot != seg ? dot : want + strlen(want);
}

/* Generation k of `want` (k = 0: want itself); malloc'ed. */
static char *variant(const char *want, unsigned k) {
  if (k == 0) return strdup(want);
  const char *dot = ext_of(want);
  char *v = malloc(strlen(want) + 16);
  if (v) sprintf(v, "%.*s_%u%s", (int)(dot - want), want, k, dot);
  return v;
}

/* The character sanitize() makes of c. */
static char sanitized(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                 c == '_' || c == '-'
             ? c
             : '_';
}

/* A per-tensor file name: every character but letters, digits, '.', '_'
 * and '-' becomes '_'. */
static void sanitize(char *s) {
  for (; *s; s++) *s = sanitized(*s);
}

static void old_free(osl_old *old) {
  const onnxslim_model *counter = old->counter;
  for (size_t i = 0; i < old->n; i++) free(old->refs[i].loc);
  onnxslim__mem_free(counter, old->refs);
  onnxslim__mem_map_free(counter, &old->locs);
  onnxslim__mem_map_free(counter, &old->ids);
  onnxslim__arena_free(&old->keys);
  onnxslim__mem_release(counter, old->held);
  memset(old, 0, sizeof *old);
  old->counter = counter;
}

/* The key of an identity in old->ids (in buf, 40 bytes). */
static const char *id_key(char *buf, dev_t dev, ino_t ino) {
  snprintf(buf, 40, "%llx:%llx", (unsigned long long)dev, (unsigned long long)ino);
  return buf;
}

/* 1 when a ref of old (found) has identity dev/ino. */
static int old_has_id(const osl_old *old, dev_t dev, ino_t ino) {
  char buf[40];
  return old->ids.len && onnxslim__map_find(&old->ids, id_key(buf, dev, ino)) != NULL;
}

/* Adds a ref to old: loc (malloc'ed, taken, also on error), found with
 * identity dev/ino. A location already there is not added again. 0 or an
 * error code (ENOMEM, or ELIMIT over the saving model's max_memory). */
static int old_add(osl_old *old, char *loc, int found, dev_t dev, ino_t ino) {
  const onnxslim_model *c = old->counter;
  if (old->locs.len && onnxslim__map_find(&old->locs, loc)) {
    free(loc);
    return 0;
  }
  char buf[40];
  size_t klen = strlen(id_key(buf, dev, ino)) + 1;
  uint64_t cost = onnxslim__mem_cost(strlen(loc) + 1) + (found ? klen : 0);
  int rc = onnxslim__mem_charge(c, cost, SAVE);
  if (!rc && old->n == old->cap) {
    size_t cap = old->cap ? old->cap * 2 : 8;
    osl_oldref *v = onnxslim__mem_realloc(c, old->refs, cap * sizeof *v, SAVE);
    if (v) {
      old->refs = v;
      old->cap = cap;
    } else {
      rc = onnxslim_error_last_code();
      onnxslim__mem_release(c, cost);
    }
  }
  osl_map_entry *e;
  if (!rc && (rc = onnxslim__mem_map_add(c, &old->locs, loc, &e, SAVE)) < 0)
    onnxslim__mem_release(c, cost);
  if (rc < 0) {
    free(loc);
    return rc;
  }
  old->held += cost;
  osl_oldref *r = &old->refs[old->n++];
  memset(r, 0, sizeof *r);
  r->loc = loc;
  if (!found) return 0;
  r->found = 1;
  r->dev = dev;
  r->ino = ino;
  char *key = onnxslim__arena_strndup(&old->keys, buf, klen - 1);
  if (!key) return onnxslim__err_nomem(NULL);
  rc = onnxslim__mem_map_add(c, &old->ids, key, &e, SAVE);
  return rc < 0 ? rc : 0;
}

/* The files model m (loaded) reads: each location with the identity of the
 * file the loader opened for it (beneath m's directory). */
static int old_walk(osl_old *old, const onnxslim_model *m, osl_msg *msg) {
  const char *loc, *why;
  if (msg->def == &osl_def_onnx_TensorProto &&
      onnxslim__msg_int(msg, onnx_TensorProto_data_location_tag, 0) ==
          onnx_TensorProto_DataLocation_EXTERNAL &&
      (loc = onnxslim__external_entry(msg, "location")) && onnxslim__location_ok(loc, &why)) {
    char *nl = norm_location(loc);
    if (!nl) return onnxslim__err_nomem(NULL);
    const osl_extref *ref = onnxslim__tensor_extref(msg);
    int found = ref && ref->file < m->next;
    int rc = old_add(old, nl, found, found ? m->ext[ref->file].dev : 0,
                     found ? m->ext[ref->file].ino : 0);
    if (rc) return rc;
  }
  for (size_t i = 0; i < msg->nf; i++)
    if (msg->f[i].sub) {
      int rc = old_walk(old, m, msg->f[i].sub);
      if (rc) return rc;
    }
  return 0;
}

/* Reads what the file `base` in outdir (the destination, spelled `path`)
 * reads. Fails only for lack of memory: a file that is not a loadable
 * model is `unknown`. */
static int read_old(int outdir, const char *path, const char *base, osl_old *old) {
  struct stat st;
  const onnxslim_model *counter = old->counter;
  memset(old, 0, sizeof *old);
  old->counter = counter;
  if (fstatat(outdir, base, &st, AT_SYMLINK_NOFOLLOW) != 0) {
    old->unknown = errno != ENOENT;
    old->exists = old->unknown;
    return 0;
  }
  old->exists = 1;
  onnxslim_model *m = NULL;
  int rc = onnxslim_model_open(&m, path, NULL);
  if (rc) {
    if (rc == ONNXSLIM_ENOMEM) return rc;
    old->unknown = 1;
    return 0;
  }
  rc = old_walk(old, m, m->root);
  onnxslim_model_free(m);
  return rc;
}

static int old_reads(const osl_old *old, const struct stat *st) {
  return old_has_id(old, st->st_dev, st->st_ino);
}

/* ---- the other models of the directory ------------------------------------
 * A data file that another model file next to the destination reads is
 * never replaced or removed by a save: the save writes its data under a
 * free generation of the name instead, and leaves the other model's files
 * where they are. "Other models" are the files named *.onnx in the model's
 * directory (not the destination, not hidden files), each parsed without
 * opening its data; what they read is known by identity (device and
 * inode) of the files their locations name beneath the directory. A file
 * named *.onnx that does not parse as a model (ONNXSLIM_EPARSE, _EMODEL)
 * is not one; one that cannot be read otherwise (I/O error, too large a
 * structure, out of memory), or
 * more than OSL_OTHERS_MAX of them, make every existing file count as read
 * (nothing is replaced or removed). The scan is done once per save that
 * writes data files or replaces a model that read some, while the save
 * holds its destination's lock and before it replaces or removes anything
 * (so that running out of memory fails the save); a save to another path
 * at the same moment is not seen. */

#define OSL_OTHERS_MAX 1000

/* Adds the identity of the file `loc` names beneath x's directory to
 * x->others (a callback of onnxslim__external_locations). */
static int other_ref(void *ctx, const char *loc) {
  osl_xsave *x = ctx;
  const char *why;
  if (!onnxslim__location_ok(loc, &why)) return 0; /* such a model does not load */
  int fd = onnxslim__open_beneath(x->outdir, loc, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) return 0; /* nothing there to keep */
  struct stat st;
  int ok = fstat(fd, &st) == 0;
  close(fd);
  if (!ok || old_reads(&x->others, &st)) return 0;
  char *copy = strdup(loc);
  if (!copy) return onnxslim__err_nomem(NULL);
  /* known by identity: a second location naming a found file adds its
   * identity (the location map only spares a duplicate) */
  return old_add(&x->others, copy, 1, st.st_dev, st.st_ino);
}

/* 1 if name is a model file name: "*.onnx", not hidden. */
static int model_name(const char *name) {
  size_t n = strlen(name);
  return name[0] != '.' && n > 5 && strcasecmp(name + n - 5, ".onnx") == 0;
}

/* Fills x->others with the files the other models of the directory read.
 * Fails only for lack of memory. */
static int scan_others(osl_xsave *x) {
  x->others_read = 1;
  int dfd = openat(x->outdir, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
  if (!d) {
    int e = errno;
    if (dfd >= 0) close(dfd);
    x->others.unknown = 1;
    return e == ENOMEM ? onnxslim__err_nomem("reading the other models of the directory") : 0;
  }
  int nomem = 0;
  size_t seen = 0;
  struct dirent *e;
  char *path = NULL;
  while (!x->others.unknown && (errno = 0, e = readdir(d))) {
    if (!model_name(e->d_name) || strcmp(e->d_name, x->base) == 0) continue;
    struct stat st;
    if (fstatat(x->outdir, e->d_name, &st, 0) != 0 || !S_ISREG(st.st_mode)) continue;
    if (++seen > OSL_OTHERS_MAX) {
      x->others.unknown = 1;
      break;
    }
    free(path);
    path = malloc(strlen(x->outdir_name) + strlen(e->d_name) + 2);
    if (!path) {
      x->others.unknown = nomem = 1;
      break;
    }
    sprintf(path, "%s/%s", x->outdir_name, e->d_name);
    onnxslim_model *m = NULL;
    int rc = onnxslim__model_open_unresolved(&m, path);
    if (rc == 0) rc = onnxslim__external_locations(m->root, other_ref, x);
    onnxslim_model_free(m);
    /* not an ONNX model that loads (no protobuf, no graph, bad dims): no
     * one reads through it; otherwise what it reads is unknown */
    if (rc && rc != ONNXSLIM_EPARSE && rc != ONNXSLIM_EMODEL) x->others.unknown = 1;
    nomem = rc == ONNXSLIM_ENOMEM;
  }
  if (!x->others.unknown && errno) { /* readdir failed */
    x->others.unknown = 1;
    nomem = errno == ENOMEM;
  }
  free(path);
  closedir(d);
  onnxslim_error_clear();
  return nomem ? onnxslim__err_nomem("reading the other models of the directory") : 0;
}

/* 1 when another model of x's directory reads the file dev/ino, or what
 * they read is not known (a scan that failed counts every file as read). */
static int others_read(osl_xsave *x, dev_t dev, ino_t ino) {
  if (!x) return 0;
  if (!x->others_read) scan_others(x);
  if (x->others.unknown) return 1;
  return old_has_id(&x->others, dev, ino);
}

/* 1 if leaf is a file name the library's side files have (".D.lock",
 * ".D.tmp-...", ".D.journal-...", ".D.bak-...") */
static int side_file_name(const char *leaf) {
  if (leaf[0] != '.') return 0;
  size_t n = strlen(leaf);
  return strstr(leaf, ".tmp-") || strstr(leaf, ".journal-") || strstr(leaf, ".bak-") ||
         (n > 5 && strcmp(leaf + n - 5, ".lock") == 0);
}

/* 1 if the replaced model's file r goes after the commit: a file it read
 * (opened when it was read, so its identity is known), whatever its name,
 * but never a model file (*.onnx), a side file of a save or a file the new
 * model reads (an AS_LOADED save references the files it loaded; the data
 * files of other layouts are new files). Whether another model of the
 * directory reads it is asked when it is removed (remove_beneath). */
static int goes(const osl_xsave *x, const osl_oldref *r) {
  if (!r->found) return 0;
  const char *leaf = strrchr(r->loc, '/');
  leaf = leaf ? leaf + 1 : r->loc;
  size_t n = strlen(leaf);
  if ((n >= 5 && strcasecmp(leaf + n - 5, ".onnx") == 0) || side_file_name(leaf)) return 0;
  return !old_has_id(&x->news, r->dev, r->ino);
}

static int others_read(osl_xsave *x, dev_t dev, ino_t ino);

/* Removes file `loc` beneath outdir if it still is a regular file with
 * identity dev/ino, `spare` (when given) does not hold that identity and
 * no other model of x's directory reads it. */
static void remove_beneath(int outdir, const char *loc, dev_t dev, ino_t ino, const osl_old *spare,
                           osl_xsave *x) {
  const char *leaf;
  int pfd = onnxslim__open_parent_beneath(outdir, loc, &leaf);
  if (pfd < 0) return;
  struct stat st;
  if (fstatat(pfd, leaf, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode) &&
      st.st_dev == dev && st.st_ino == ino && !(spare && old_reads(spare, &st)) &&
      !others_read(x, dev, ino))
    unlinkat(pfd, leaf, 0);
  close(pfd);
}

/* After the commit: removes the data files the replaced model read that the
 * new model does not (goes()) and no other model of the directory reads.
 * Only regular files still the same as when the old model was read are
 * removed. */
static void remove_old(osl_xsave *x) {
  for (size_t i = 0; i < x->old.n; i++) {
    const osl_oldref *r = &x->old.refs[i];
    if (!goes(x, r)) continue;
    struct stat st;
    int keep =
        fstatat(x->outdir, x->base, &st, 0) == 0 && st.st_dev == r->dev && st.st_ino == r->ino;
    for (size_t j = 0; j < x->nouts && !keep; j++)
      keep =
          fstatat(onnxslim__out_dirfd(x->outs[j]), onnxslim__out_name(x->outs[j]), &st, 0) == 0 &&
          st.st_dev == r->dev && st.st_ino == r->ino;
    if (!keep) remove_beneath(x->outdir, r->loc, r->dev, r->ino, NULL, x);
  }
}

/* ---- temporaries and the commit journal ------------------------------------
 * A pair commit writes a journal (io.c side file ".<model>.journal-...")
 * before its first rename: the data files it puts in place ("new", with the
 * device and inode of each), the files of the replaced model it removes
 * after the commit ("old"), and files kept aside ("bak"). A save that is
 * killed leaves it behind; the next save to the same model recovers it:
 * every listed file that is still that very file and that the model at
 * the destination now does not read is removed (new data of a commit that
 * did not happen, old data of one that did), and a file kept aside goes
 * back if its name is free again. Locations in the journal are relative to
 * the model's directory; every file is reached beneath its descriptor. */

/* Removes (side_clean) the stale side files of KIND of the model (`base`
 * in outdir) and of the data files at `locs` (locations beneath outdir).
 * Temporaries ("tmp") of data files are named after the model, in the data
 * file's directory: in the directory of each location, those named after
 * the model go too (those named after the data file: older builds'). */
static int clean_sides(int outdir, const char *base, char *const *locs, size_t n,
                       const char *kind) {
  const char **bases = malloc((n + 1) * sizeof *bases);
  if (!bases) return onnxslim__err_nomem(NULL);
  size_t k = 0;
  bases[k++] = base;
  for (size_t i = 0; i < n; i++)
    if (!strchr(locs[i], '/')) bases[k++] = locs[i];
  onnxslim__side_clean(outdir, bases, k, kind);
  /* each other directory once, with the names of the data files in it */
  for (size_t i = 0; i < n; i++) {
    const char *slash = strrchr(locs[i], '/');
    if (!slash) continue;
    size_t dlen = (size_t)(slash - locs[i]);
    int seen = 0;
    for (size_t j = 0; j < i && !seen; j++) {
      const char *sj = strrchr(locs[j], '/');
      seen = sj && (size_t)(sj - locs[j]) == dlen && strncmp(locs[i], locs[j], dlen) == 0;
    }
    if (seen) continue;
    const char *leaf;
    int pfd = onnxslim__open_parent_beneath(outdir, locs[i], &leaf);
    if (pfd < 0) continue; /* the save fails, or not, where it writes */
    k = 0;
    if (strcmp(kind, "tmp") == 0) bases[k++] = base;
    for (size_t j = i; j < n; j++) {
      const char *sj = strrchr(locs[j], '/');
      if (sj && (size_t)(sj - locs[j]) == dlen && strncmp(locs[i], locs[j], dlen) == 0)
        bases[k++] = sj + 1;
    }
    onnxslim__side_clean(pfd, bases, k, kind);
    close(pfd);
  }
  free(bases);
  return 0;
}

static void put_str(osl_buf *b, const char *str) { put(b, str, strlen(str)); }

static void put_loc(osl_buf *b, const char *loc) {
  char num[32];
  sprintf(num, " %zu:", strlen(loc));
  put_str(b, num);
  put_str(b, loc);
}

static void put_id(osl_buf *b, const char *tag, dev_t dev, ino_t ino, const char *loc) {
  char num[64];
  sprintf(num, "%s %llu %llu", tag, (unsigned long long)dev, (unsigned long long)ino);
  put_str(b, num);
  put_loc(b, loc);
  put_str(b, "\n");
}

static const char journal_magic[] = "onnxslim-journal 1\n";

/* Parses " LEN:LOC" at *p (end e) into a malloc'ed, checked location. */
static char *get_loc(const char **p, const char *e) {
  const char *q = *p;
  if (q >= e || *q++ != ' ') return NULL;
  size_t len = 0;
  while (q < e && *q >= '0' && *q <= '9' && len < 65536) len = len * 10 + (size_t)(*q++ - '0');
  if (q >= e || *q++ != ':' || len == 0 || len > (size_t)(e - q)) return NULL;
  char *loc = strndup(q, len);
  const char *why;
  if (!loc || strlen(loc) != len || !onnxslim__location_ok(loc, &why)) {
    free(loc);
    return NULL;
  }
  *p = q + len;
  return loc;
}

static int get_u64(const char **p, const char *e, unsigned long long *v) {
  const char *q = *p;
  if (q >= e || *q++ != ' ' || q >= e || *q < '0' || *q > '9') return -1;
  *v = 0;
  while (q < e && *q >= '0' && *q <= '9') *v = *v * 10 + (unsigned long long)(*q++ - '0');
  *p = q;
  return 0;
}

typedef struct {
  const osl_old *cur; /* the model at the destination now */
  osl_xsave *x;       /* the save: the other models of the directory */
} osl_recover;

/* Puts file `bak` (kept aside) back as `loc` if that name is free; both are
 * locations beneath outdir in one directory. */
static void put_back(int outdir, const char *bak, const char *loc) {
  const char *bleaf = strrchr(bak, '/'), *lleaf = strrchr(loc, '/');
  bleaf = bleaf ? bleaf + 1 : bak;
  lleaf = lleaf ? lleaf + 1 : loc;
  if (bleaf - bak != lleaf - loc || strncmp(bak, loc, (size_t)(bleaf - bak)) != 0) return;
  const char *leaf;
  int pfd = onnxslim__open_parent_beneath(outdir, loc, &leaf);
  if (pfd < 0) return;
  struct stat st;
  if (fstatat(pfd, bleaf, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
      fstatat(pfd, leaf, &st, AT_SYMLINK_NOFOLLOW) != 0 && errno == ENOENT)
    renameat(pfd, bleaf, pfd, leaf);
  close(pfd);
}

static int recover_journal(void *ctx, int outdir, const char *jname) {
  const osl_recover *r = ctx;
  size_t n = 0;
  char *text = NULL;
  int fd = openat(outdir, jname, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  struct stat st;
  if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
      st.st_size < (64 << 20) && (text = malloc((size_t)st.st_size))) {
    while (n < (size_t)st.st_size) {
      ssize_t got = read(fd, text + n, (size_t)st.st_size - n);
      if (got <= 0) break;
      n += (size_t)got;
    }
  }
  if (fd >= 0) close(fd);
  const char *p = text, *e = text ? text + n : NULL;
  size_t mlen = sizeof journal_magic - 1;
  /* what the destination's model reads now is known: act on each entry */
  if (text && !r->cur->unknown && n >= mlen && memcmp(p, journal_magic, mlen) == 0) {
    p += mlen;
    while (p + 4 <= e) {
      char tag[4] = {p[0], p[1], p[2], 0};
      p += 3;
      unsigned long long dev = 0, ino = 0;
      char *loc = NULL, *bak = NULL;
      int ok;
      if (strcmp(tag, "bak") == 0) {
        ok = (bak = get_loc(&p, e)) && (loc = get_loc(&p, e));
      } else {
        ok = (strcmp(tag, "new") == 0 || strcmp(tag, "old") == 0) && !get_u64(&p, e, &dev) &&
             !get_u64(&p, e, &ino) && (loc = get_loc(&p, e));
      }
      ok = ok && p < e && *p++ == '\n';
      if (ok && !bak) remove_beneath(outdir, loc, (dev_t)dev, (ino_t)ino, r->cur, r->x);
      if (ok && bak) put_back(outdir, bak, loc);
      free(loc);
      free(bak);
      if (!ok) break;
    }
  }
  free(text);
  unlinkat(outdir, jname, 0);
  return 0;
}

/* Recovers the journals of killed saves to `base` in outdir (see above). */
static int recover_journals(int outdir, const char *base, const osl_old *cur, osl_xsave *x) {
  osl_recover r = {cur, x};
  return onnxslim__side_stale(outdir, &base, 1, "journal", recover_journal, &r);
}

/* Writes what b holds to the journal and empties b. */
static int journal_put(int fd, const char *name, osl_buf *b) {
  if (b->fail) return onnxslim__err_nomem(NULL);
  for (size_t w = 0; w < b->n;) {
    ssize_t got = write(fd, b->p + w, b->n - w);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0)
      return onnxslim__err(errno == ENOSPC ? ONNXSLIM_ENOSPC : ONNXSLIM_EIO,
                           "cannot write '%s': %s", name, strerror(errno));
    w += (size_t)got;
  }
  b->n = 0;
  return 0;
}

/* Puts data file i in place under the first generation of its name that no
 * other file of this save has, that is not the model file, and where no
 * file is - claimed by a rename that does not replace, since a save to
 * another model in this directory may claim names too. Except that with
 * one data file the name asked for itself may replace a file that neither
 * the model being replaced nor the model being saved reads (re-saving
 * replaces, as asked): that file is kept aside until the commit. The
 * journal hears of each name before it is tried. Every name is in the data
 * file's own directory, reached beneath the model's when the output was
 * opened. */
static int claim_name(osl_xsave *x, size_t i) {
  int replace = x->o.layout == ONNXSLIM_LAYOUT_ONE_FILE;
  dev_t dev;
  ino_t ino;
  int rc = onnxslim__out_identity(x->outs[i], &dev, &ino);
  int dfd = onnxslim__out_dirfd(x->outs[i]);
  osl_buf j = {0};
  for (unsigned k = 0; !rc; k++) {
    if (k > 100000) {
      rc = onnxslim__err(ONNXSLIM_EIO, "no free name for the data file '%s'", x->wants[i]);
      break;
    }
    char *loc = variant(x->wants[i], k);
    if (!loc) {
      rc = onnxslim__err_nomem("data file name");
      break;
    }
    const char *leaf = strrchr(loc, '/');
    leaf = leaf ? leaf + 1 : loc;
    int taken = strcmp(loc, x->base) == 0 || onnxslim__map_find(&x->claimed, loc);
    struct stat st;
    int exists = !taken && fstatat(dfd, leaf, &st, AT_SYMLINK_NOFOLLOW) == 0;
    if (exists)
      taken = !(replace && k == 0) || x->old.unknown || !S_ISREG(st.st_mode) ||
              old_reads(&x->old, &st) || onnxslim__model_reads(x->model, &st) ||
              others_read(x, st.st_dev, st.st_ino);
    if (!taken) {
      put_id(&j, "new", dev, ino, loc);
      if (exists &&
          !(x->backups[i] = onnxslim__side_link(dfd, onnxslim__out_dir(x->outs[i]), leaf)))
        rc = onnxslim_error_last_code();
      if (!rc && x->backups[i]) {
        /* the backup's location: in the directory of loc */
        size_t head = (size_t)(leaf - loc);
        char *bloc = malloc(head + strlen(x->backups[i]) + 1);
        if (bloc) {
          sprintf(bloc, "%.*s%s", (int)head, loc, x->backups[i]);
          put_str(&j, "bak");
          put_loc(&j, bloc);
          put_loc(&j, loc);
          put_str(&j, "\n");
          free(bloc);
        } else {
          rc = onnxslim__err_nomem(NULL);
        }
      }
      if (!rc) rc = journal_put(x->jfd, x->jname, &j);
      if (!rc && exists) {
        rc = onnxslim__out_commit_to(x->outs[i], leaf, 0);
      } else if (!rc) {
        rc = onnxslim__out_claim(x->outs[i], leaf);
        if (rc == 1) {
          rc = 0; /* taken meanwhile: the next generation */
          taken = 1;
        }
      }
    }
    if (!rc && !taken) {
      x->locs[i] = loc;
      x->finals[i] = leaf;
      osl_map_entry *e;
      if ((rc = onnxslim__mem_map_add(x->model, &x->claimed, loc, &e, SAVE)) > 0) rc = 0;
      break;
    }
    free(loc);
  }
  free(j.p);
  return rc;
}

/* ---- the phases of a save ---------------------------------------------------- */

/* The names: the model file's (base), the default data file, the location
 * asked for (normalized and checked), the model's directory. Nothing is
 * written when they are refused. */
static int save_names(osl_xsave *x) {
  const char *path = x->path;
  const char *slash = strrchr(path, '/');
  x->base = slash ? slash + 1 : path;
  size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0;
  if (!x->base[0]) return onnxslim__err(ONNXSLIM_EINVAL, "invalid output path '%s'", path);
  /* the default data file, <model>.data */
  x->deflt = malloc(strlen(x->base) + 6);
  if (!x->deflt) return onnxslim__err_nomem(NULL);
  sprintf(x->deflt, "%s.data", x->base);
  onnxslim_save_options *o = &x->o;
  if (!o->align) o->align = ONNXSLIM_SAVE_DEFAULT_ALIGN;
  if (o->layout == ONNXSLIM_LAYOUT_ONE_FILE && !o->location) o->location = x->deflt;
  const char *why;
  if (o->location && onnxslim__location_ok(o->location, &why)) {
    /* drop "." and empty segments: "./m.onnx" is the model file itself */
    x->norm = norm_location(o->location);
    if (!x->norm) return onnxslim__err_nomem(NULL);
    o->location = x->norm;
  }
  struct stat pst;
  if (stat(path, &pst) == 0 && S_ISDIR(pst.st_mode))
    return onnxslim__err(ONNXSLIM_EIO, "cannot save to '%s': it is a directory", path);
  if (o->layout == ONNXSLIM_LAYOUT_ONE_FILE &&
      (!onnxslim__location_ok(o->location, &why) || strcmp(o->location, x->base) == 0))
    return onnxslim__err(ONNXSLIM_EINVAL, "external data location '%s' refused: %s", o->location,
                         strcmp(o->location, x->base) == 0 ? "it is the model file itself" : why);
  if (o->layout != ONNXSLIM_LAYOUT_ONE_FILE && o->location && !x->norm) o->location = NULL;
  /* the model's directory: "a/b" for "a/b/m.onnx", "/" for "/m.onnx" */
  x->outdir_name = dirlen ? strndup(path, dirlen > 1 ? dirlen - 1 : 1) : strdup(".");
  if (!x->outdir_name) return onnxslim__err_nomem(NULL);
  return 0;
}

/* Every file of this save - data files, the model, the side files - is
 * made, renamed and removed beneath a descriptor of the model's directory,
 * never through a symlink leading out of it. */
static int open_outdir(osl_xsave *x) {
  x->outdir = open(x->outdir_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (x->outdir < 0)
    return onnxslim__err(ONNXSLIM_EIO, "cannot create a temporary file in '%s': %s", x->outdir_name,
                         strerror(errno));
  return 0;
}

/* The names wanted for the data files, one per file: the location, or a
 * name per tensor, unique among this save's files and not the model. The
 * names they get are chosen at the commit (claim_name). */
static int want_names(osl_xsave *x) {
  for (size_t i = 0; i < x->count; i++)
    x->nwritten += x->items[i].status == ONNXSLIM_SAVE_PLACEMENT_EXTERNAL;
  if (!x->nwritten) return 0;
  size_t want = x->o.layout == ONNXSLIM_LAYOUT_ONE_FILE ? 1 : x->nwritten;
  /* (charged with the items: item_cost) */
  x->outs = calloc(want, sizeof *x->outs);
  x->locs = calloc(want, sizeof *x->locs);
  x->wants = calloc(want, sizeof *x->wants);
  x->finals = calloc(want, sizeof *x->finals);
  x->backups = calloc(want, sizeof *x->backups);
  if (!x->outs || !x->locs || !x->wants || !x->finals || !x->backups)
    return onnxslim__err_nomem(NULL);
  int rc = onnxslim__mem_map_reserve(x->model, &x->wanted, want, SAVE);
  if (rc) return rc;
  for (size_t i = 0; i < x->count && x->nfiles < want; i++) {
    osl_item *it = &x->items[i];
    if (it->status != ONNXSLIM_SAVE_PLACEMENT_EXTERNAL) continue;
    char *loc;
    if (x->o.layout == ONNXSLIM_LAYOUT_ONE_FILE) {
      loc = strdup(x->o.location);
    } else {
      loc = malloc(strlen(it->name) + 32);
      if (loc) {
        sprintf(loc, "%s.bin", it->name[0] ? it->name : "tensor");
        sanitize(loc);
        /* unique among this save's files and not the model itself: one
         * lookup per name tried, and the names tried for a first name
         * (many tensors may sanitize to one) resume where the last stopped
         * (the first name's entry keeps its k) */
        osl_map_entry *first = onnxslim__map_find(&x->wanted, loc);
        unsigned k = first ? (unsigned)first->num : 0;
        while (strcmp(loc, x->base) == 0 || onnxslim__map_find(&x->wanted, loc)) {
          sprintf(loc, "%s_%u.bin", it->name[0] ? it->name : "tensor", ++k);
          sanitize(loc);
        }
        if (first) first->num = (int32_t)(k > INT32_MAX ? INT32_MAX : k);
      }
    }
    if (!loc) return onnxslim__err_nomem(NULL);
    x->wants[x->nfiles++] = loc;
    osl_map_entry *e;
    if ((rc = onnxslim__mem_map_add(x->model, &x->wanted, loc, &e, SAVE)) < 0) return rc;
    rc = 0;
  }
  return 0;
}

/* Where write_data will put each tensor (its file and offset: the same
 * every time) and the bytes of the data files. */
static uint64_t place_items(osl_xsave *x) {
  int one_file = x->o.layout == ONNXSLIM_LAYOUT_ONE_FILE;
  uint64_t total = 0, pos = 0;
  size_t file = 0;
  for (size_t i = 0; i < x->count; i++) {
    osl_item *it = &x->items[i];
    if (it->status != ONNXSLIM_SAVE_PLACEMENT_EXTERNAL) continue;
    if (one_file) {
      pos += (x->o.align - pos % x->o.align) % x->o.align;
      it->file = 0;
      it->offset = pos;
      pos += it->length;
    } else {
      it->file = file++;
      it->offset = 0;
      total += it->length;
    }
  }
  return one_file ? pos : total;
}

/* The size of the model file, planned with the names the data files want
 * (the names they get may differ by a generation "_N") and a checksum
 * of the right length: for the progress meter's total, before any byte is
 * written. The plan is dropped again. */
static int plan_model(osl_xsave *x);
static int estimate_model(osl_xsave *x, uint64_t *size) {
  place_items(x);
  for (size_t i = 0; i < x->nfiles; i++) x->locs[i] = x->wants[i];
  for (size_t i = 0; i < x->count; i++)
    if (x->items[i].status == ONNXSLIM_SAVE_PLACEMENT_EXTERNAL)
      memset(x->items[i].checksum, '0', sizeof x->items[i].checksum - 1);
  int rc = plan_model(x);
  if (!rc) rc = onnxslim__msg_size_planned(x->model->root, &x->sp, size);
  for (size_t i = 0; i < x->nfiles; i++) x->locs[i] = NULL;
  onnxslim__saveplan_free(&x->sp);
  onnxslim__mem_free(x->model, x->plans);
  x->plans = NULL;
  x->enc.n = 0;
  return rc;
}

/* The progress meter: its total is every byte the save writes (see
 * estimate_model for the model file's part). */
static int start_progress(osl_xsave *x) {
  if (!x->o.progress) return onnxslim__progress_start(&x->progress, NULL, NULL, 0);
  uint64_t data = place_items(x);
  int rc = estimate_model(x, &x->model_est);
  if (rc) return rc;
  return onnxslim__progress_start(&x->progress, x->o.progress, x->o.progress_payload,
                                  data + x->model_est);
}

/* What is at the model's path and at each data file's name now may be
 * replaced (onnxslim__dest_ok): checked before anything is written, and
 * again where each file is opened and at the commit. */
static int dests_ok(osl_xsave *x) {
  int rc = onnxslim__dest_ok(x->outdir, x->base, x->path);
  size_t dlen = (size_t)(x->base - x->path);
  for (size_t i = 0; i < x->nfiles && !rc; i++) {
    const char *leaf;
    int pfd = onnxslim__open_parent_beneath(x->outdir, x->wants[i], &leaf);
    if (pfd < 0) continue; /* the save fails, or not, where it writes */
    char *p = malloc(dlen + strlen(x->wants[i]) + 1);
    if (p) {
      sprintf(p, "%.*s%s", (int)dlen, x->path, x->wants[i]);
      rc = onnxslim__dest_ok(pfd, leaf, p);
    } else {
      rc = onnxslim__err_nomem(NULL);
    }
    free(p);
    close(pfd);
  }
  return rc;
}

/* The data files, each written to a temporary file (aligned offsets in one
 * file, checksums when asked) and synced; temporaries of killed saves to
 * the same names are removed first, so their space is free again. */
static int dests_ok(osl_xsave *x);
static int write_data(osl_xsave *x) {
  int rc = dests_ok(x);
  if (!rc) rc = clean_sides(x->outdir, x->base, x->wants, x->nfiles, "tmp");
  if (rc || !x->nwritten) return rc;
  int one_file = x->o.layout == ONNXSLIM_LAYOUT_ONE_FILE;
  uint64_t total = 0;
  for (size_t i = 0; i < x->count; i++)
    if (x->items[i].status == ONNXSLIM_SAVE_PLACEMENT_EXTERNAL)
      total += x->items[i].length + x->o.align;
  for (size_t i = 0; i < x->count && !rc; i++) {
    osl_item *it = &x->items[i];
    if (it->status != ONNXSLIM_SAVE_PLACEMENT_EXTERNAL) continue;
    if (!one_file || x->nouts == 0) {
      x->outs[x->nouts] =
          onnxslim__out_open_beneath(x->outdir, x->outdir_name, x->wants[x->nouts], x->base,
                                     one_file ? total : it->length, x->model);
      if (!x->outs[x->nouts]) return onnxslim_error_last_code();
      onnxslim__out_set_progress(x->outs[x->nouts], &x->progress);
      x->nouts++;
    }
    it->file = x->nouts - 1;
    rc = write_item(x->model, it, x->outs[it->file], one_file ? x->o.align : 1,
                    (x->o.flags & ONNXSLIM_SAVE_CHECKSUM) != 0);
  }
  for (size_t i = 0; i < x->nouts && !rc; i++) rc = onnxslim__out_finish(x->outs[i], x->fsync_data);
  return rc;
}

/* From here on, saves to this path take turns: the model in place, what
 * killed saves to it left behind, the commit and the removal of the old
 * data belong together. */
static int take_turn(osl_xsave *x) {
  if (!(x->lock = onnxslim__dest_lock(x->outdir, x->base))) return onnxslim_error_last_code();
  int rc = read_old(x->outdir, x->path, x->base, &x->old);
  /* what the other models of the directory read, before anything is
   * replaced or removed (after the commit a failure could only keep files)
   * - not for a save that replaces and removes nothing */
  int removes = 0;
  for (size_t i = 0; i < x->old.n; i++) removes |= goes(x, &x->old.refs[i]);
  if (!rc && (x->nouts || removes)) rc = scan_others(x);
  if (!rc) rc = recover_journals(x->outdir, x->base, &x->old, x);
  if (!rc) rc = clean_sides(x->outdir, x->base, x->wants, x->nfiles, "bak");
  /* temporaries of killed saves next to the data files the model in place
   * reads (another layout or location than this save's) */
  char **locs = !rc && x->old.n ? malloc(x->old.n * sizeof *locs) : NULL;
  if (locs) {
    for (size_t i = 0; i < x->old.n; i++) locs[i] = x->old.refs[i].loc;
    rc = clean_sides(x->outdir, x->base, locs, x->old.n, "tmp");
    free(locs);
  } else if (!rc && x->old.n) {
    rc = onnxslim__err_nomem(NULL);
  }
  return rc;
}

/* The journal, before the first rename: the files the commit removes, then
 * (claim_name) each data file as it is put in place. */
static int start_journal(osl_xsave *x) {
  size_t ndel = 0;
  for (size_t i = 0; i < x->old.n; i++) ndel += goes(x, &x->old.refs[i]);
  if (!x->nouts && !ndel) return 0;
  osl_buf j = {0};
  put_str(&j, journal_magic);
  for (size_t i = 0; i < x->old.n; i++)
    if (goes(x, &x->old.refs[i]))
      put_id(&j, "old", x->old.refs[i].dev, x->old.refs[i].ino, x->old.refs[i].loc);
  int rc = 0;
  if ((x->jfd = onnxslim__side_create(x->outdir, x->outdir_name, x->base, "journal", &x->jname)) <
      0)
    rc = onnxslim_error_last_code();
  if (!rc) rc = journal_put(x->jfd, x->jname, &j);
  free(j.p);
  return rc;
}

/* The data files go in first, under names the model in place does not read
 * (claim_name); their names are durable before the model's (each directory
 * once: per-tensor files share the model's). */
static int claim_names(osl_xsave *x) {
  int rc = 0;
  /* counts the one that failed too: undo looks at each (finals[i]) */
  for (; x->committed < x->nouts && !rc; x->committed++) rc = claim_name(x, x->committed);
  for (size_t i = 0; i < x->nouts && !rc && x->fsync_data; i++)
    if (i == 0 || strcmp(onnxslim__out_dir(x->outs[i]), onnxslim__out_dir(x->outs[i - 1])) != 0)
      rc = onnxslim__out_sync_dir(x->outs[i]);
  return rc;
}

/* How the model file is written: the replacement storage fields of every
 * tensor written to a data file (the names it got), the bytes of every
 * tensor external now that stays inline. */
static int plan_model(osl_xsave *x) {
  const onnxslim_model *m = x->model;
  x->plans = onnxslim__mem_calloc(m, x->count ? x->count : 1, sizeof *x->plans, SAVE);
  size_t *starts = x->plans ? onnxslim__mem_calloc(m, x->count + 1, sizeof *starts, SAVE) : NULL;
  int rc = x->plans && starts ? 0 : onnxslim_error_last_code();
  for (size_t i = 0; i < x->count && !rc; i++) {
    osl_item *it = &x->items[i];
    starts[i] = x->enc.n;
    if (it->status == ONNXSLIM_SAVE_PLACEMENT_EXTERNAL)
      rc = put_placement(&x->enc, x->locs[it->file], it->offset, it->length,
                         x->o.flags & ONNXSLIM_SAVE_CHECKSUM ? it->checksum : NULL);
  }
  for (size_t i = 0; i < x->count && !rc; i++) {
    osl_item *it = &x->items[i];
    osl_plan *pl = &x->plans[i];
    if (it->status == ONNXSLIM_SAVE_PLACEMENT_EXTERNAL) {
      pl->fields = x->enc.p + starts[i];
      pl->fields_len = (i + 1 < x->count ? starts[i + 1] : x->enc.n) - starts[i];
      rc = onnxslim__saveplan_set(&x->sp, it->t, pl);
    } else if (it->ext_now) {
      /* stays inline: its external bytes come back into the model file */
      const osl_xform *xf;
      const uint8_t *p;
      size_t n;
      rc = onnxslim__tensor_source(it->t, &xf, &p, &n);
      pl->data = p ? p : (const uint8_t *)"";
      pl->size = n;
      pl->xform = xf;
      if (!rc) rc = onnxslim__saveplan_set(&x->sp, it->t, pl);
    }
  }
  onnxslim__mem_free(m, starts);
  return rc;
}

/* The report, before the commit: a save that cannot report fails whole. */
static int make_report(osl_xsave *x) {
  onnxslim_save_report *rep = calloc(1, sizeof *rep);
  if (!rep) return onnxslim__err_nomem("save report");
  x->rep = rep;
  rep->e = calloc(x->count ? x->count : 1, sizeof *rep->e);
  if (!rep->e) return onnxslim__err_nomem("save report");
  for (size_t i = 0; i < x->count; i++) {
    osl_item *it = &x->items[i];
    struct osl_save_entry *e = &rep->e[rep->count++];
    e->name = strdup(it->name);
    e->placement = it->status;
    if (it->status == ONNXSLIM_SAVE_PLACEMENT_EXTERNAL) {
      e->location = strdup(x->locs[it->file]);
      e->offset = it->offset;
      e->length = it->length;
    }
    if (!e->name || (it->status == ONNXSLIM_SAVE_PLACEMENT_EXTERNAL && !e->location))
      return onnxslim__err_nomem("save report");
  }
  return 0;
}

/* The model file, written and renamed over its predecessor: the commit. */
static int write_model(osl_xsave *x) {
  uint64_t size = 0;
  int rc = onnxslim__msg_size_planned(x->model->root, &x->sp, &size);
  if (!rc) rc = onnxslim__model_size_ok(x->path, size, x->o.flags & ONNXSLIM_SAVE_ALLOW_LARGE);
  if (rc) return rc;
  x->mout = onnxslim__out_open_at(x->outdir, x->path, size, x->model);
  if (!x->mout) return onnxslim_error_last_code();
  onnxslim__out_set_progress(x->mout, &x->progress);
  rc = onnxslim__msg_write_planned(x->model->root, &x->sp, onnxslim__out_sink(x->mout));
  if (!rc) rc = onnxslim__out_finish(x->mout, x->fsync_data);
  if (!rc) rc = onnxslim__progress_commit(&x->progress);
  if (!rc) rc = onnxslim__out_commit(x->mout, x->fsync_data);
  return rc;
}

/* Done (rc 0: the data files the replaced model read and this one does not
 * go) or undone (the new data files go, the ones kept aside come back);
 * then the journal has nothing left to say and the next save may go. */
static void finish(osl_xsave *x, int rc) {
  if (rc) {
    for (size_t i = 0; i < x->committed && i < x->nouts; i++) {
      if (!x->finals[i]) continue;
      int dfd = onnxslim__out_dirfd(x->outs[i]);
      if (x->backups[i]) renameat(dfd, x->backups[i], dfd, x->finals[i]);
      else unlinkat(dfd, x->finals[i], 0);
    }
  } else {
    remove_old(x);
  }
  for (size_t i = 0; x->backups && i < x->nouts; i++) /* no-op when put back */
    if (x->backups[i]) unlinkat(onnxslim__out_dirfd(x->outs[i]), x->backups[i], 0);
  if (x->jname) unlinkat(x->outdir, x->jname, 0);
  if (x->jfd >= 0) close(x->jfd);
  x->jfd = -1;
  onnxslim__dest_unlock(x->lock);
  x->lock = NULL;
  uint64_t copied = x->mout ? onnxslim__out_copied(x->mout) : 0;
  for (size_t i = 0; i < x->nouts; i++) copied += x->outs[i] ? onnxslim__out_copied(x->outs[i]) : 0;
  if (x->rep) x->rep->copied = copied;
}

static void xsave_free(osl_xsave *x) {
  onnxslim__out_abort(x->mout);
  for (size_t i = 0; i < x->nouts; i++) onnxslim__out_abort(x->outs[i]);
  for (size_t i = 0; x->backups && i < x->nouts; i++) free(x->backups[i]);
  for (size_t i = 0; i < x->nfiles; i++) {
    free(x->locs[i]);
    free(x->wants[i]);
  }
  free(x->backups);
  free(x->locs);
  free(x->wants);
  free(x->finals);
  free(x->outs);
  if (x->jfd >= 0) close(x->jfd);
  free(x->jname);
  old_free(&x->old);
  old_free(&x->news);
  old_free(&x->others);
  onnxslim__saveplan_free(&x->sp);
  onnxslim__mem_free(x->model, x->plans);
  free(x->enc.p);
  onnxslim__mem_free(x->model, x->items);
  onnxslim__mem_map_free(x->model, &x->wanted);
  onnxslim__mem_map_free(x->model, &x->claimed);
  onnxslim__mem_release(x->model, x->held);
  free(x->deflt);
  free(x->norm);
  if (x->outdir >= 0) close(x->outdir);
  free(x->outdir_name);
  onnxslim_save_report_free(x->rep);
}

int onnxslim__save_external(onnxslim_save_report **out, const onnxslim_model *model,
                            const char *path, const onnxslim_save_options *opts) {
  osl_xsave x;
  memset(&x, 0, sizeof x);
  x.model = model;
  x.old.counter = x.news.counter = x.others.counter = model;
  x.path = path;
  x.o = *opts;
  x.outdir = x.jfd = -1;
  x.fsync_data = !(opts->flags & ONNXSLIM_SAVE_NO_FSYNC);
  int rc = save_names(&x);
  if (!rc) rc = collect_items(&x, model->root);
  if (!rc) rc = keep_shared(&x);
  if (!rc) rc = open_outdir(&x);
  if (!rc) rc = want_names(&x);
  if (!rc) rc = start_progress(&x);
  if (!rc) rc = write_data(&x);
  if (!rc) rc = take_turn(&x);
  if (!rc) rc = start_journal(&x);
  if (!rc) rc = claim_names(&x);
  if (!rc) rc = plan_model(&x);
  if (!rc && out) rc = make_report(&x);
  if (!rc) rc = write_model(&x);
  finish(&x, rc);
  if (!rc && out) {
    *out = x.rep;
    x.rep = NULL;
  }
  xsave_free(&x);
  if (!rc) onnxslim__progress_end(&x.progress);
  return rc;
}

/* ---- the model file alone, into a buffer -------------------------------------- */

/* A sink filling the caller's buffer (sized beforehand). */
typedef struct {
  osl_sink base;
  uint8_t *p;
  size_t n, cap;
} osl_fill_sink;

static int fill_write(osl_sink *sink, const uint8_t *d, size_t n) {
  osl_fill_sink *fs = (osl_fill_sink *)sink;
  if (n > fs->cap - fs->n)
    return onnxslim__err(ONNXSLIM_EBUFSIZE, "buffer of %zu bytes overflowed", fs->cap);
  memcpy(fs->p + fs->n, d, n);
  fs->n += n;
  return 0;
}

/* The tensors are chosen and placed as onnxslim__save_external() does, with
 * the names the data files want (no directory: nothing to claim); the
 * model is then written with those references and no data file is. */
int onnxslim__save_external_buffer(onnxslim_save_report **out, const onnxslim_model *model,
                                   void *buf, size_t capacity, size_t *size,
                                   const onnxslim_save_options *opts) {
  osl_xsave x;
  memset(&x, 0, sizeof x);
  x.model = model;
  x.old.counter = x.news.counter = x.others.counter = model;
  x.path = "";
  x.base = ""; /* no model file: every data file name may be taken */
  x.o = *opts;
  x.outdir = x.jfd = -1;
  if (!x.o.align) x.o.align = ONNXSLIM_SAVE_DEFAULT_ALIGN;
  int rc = 0;
  const char *why;
  if (x.o.layout == ONNXSLIM_LAYOUT_ONE_FILE) {
    if (!x.o.location) x.o.location = "model.data";
    if (!onnxslim__location_ok(x.o.location, &why))
      rc = onnxslim__err(ONNXSLIM_EINVAL, "external data location '%s' refused: %s", x.o.location,
                         why);
    else if (!(x.norm = norm_location(x.o.location))) rc = onnxslim__err_nomem(NULL);
    else x.o.location = x.norm;
  }
  if (!rc) rc = collect_items(&x, model->root);
  if (!rc) rc = keep_shared(&x);
  if (!rc) rc = want_names(&x);
  if (!rc) {
    place_items(&x);
    for (size_t i = 0; i < x.nfiles; i++) x.locs[i] = x.wants[i];
    rc = plan_model(&x);
  }
  uint64_t need = 0;
  if (!rc) rc = onnxslim__msg_size_planned(model->root, &x.sp, &need);
  if (!rc && need > SIZE_MAX) rc = onnxslim__err(ONNXSLIM_ELIMIT, "model too large for a buffer");
  if (!rc && need > INT32_MAX && !(x.o.flags & ONNXSLIM_SAVE_ALLOW_LARGE))
    rc = onnxslim__err(ONNXSLIM_ELIMIT,
                       "the model would be %llu bytes, over protobuf's 2 GiB limit "
                       "(ONNXSLIM_SAVE_ALLOW_LARGE allows it)",
                       (unsigned long long)need);
  if (!rc) {
    *size = (size_t)need;
    if (!buf || capacity < need)
      rc = onnxslim__err(ONNXSLIM_EBUFSIZE, "buffer of %zu bytes is too small: %zu needed",
                         buf ? capacity : 0, (size_t)need);
  }
  if (!rc && out) rc = make_report(&x);
  if (!rc) {
    osl_fill_sink fs = {{fill_write}, buf, 0, capacity};
    rc = onnxslim__msg_write_planned(model->root, &x.sp, &fs.base);
    if (!rc && fs.n != need)
      rc = onnxslim__err(ONNXSLIM_EIO, "internal size mismatch: %zu written, %zu expected", fs.n,
                         (size_t)need);
  }
  for (size_t i = 0; i < x.nfiles; i++) x.locs[i] = NULL; /* the wants' strings */
  if (!rc && out) {
    *out = x.rep;
    x.rep = NULL;
  }
  xsave_free(&x);
  return rc;
}

/* ---- a save of the model file alone (save.c) ------------------------------- */

struct osl_replace {
  osl_xsave x;
  int active; /* the directory was opened: finish() has work */
};

int onnxslim__replace_begin(osl_replace **out, const onnxslim_model *model, const char *path) {
  *out = NULL;
  osl_replace *rp = calloc(1, sizeof *rp);
  if (!rp) return onnxslim__err_nomem(NULL);
  osl_xsave *x = &rp->x;
  x->model = model;
  x->old.counter = x->news.counter = x->others.counter = model;
  x->path = path;
  x->o.layout = ONNXSLIM_LAYOUT_AS_LOADED;
  x->outdir = x->jfd = -1;
  const char *slash = strrchr(path, '/');
  x->base = slash ? slash + 1 : path;
  size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0;
  x->outdir_name = dirlen ? strndup(path, dirlen > 1 ? dirlen - 1 : 1) : strdup(".");
  *out = rp;
  if (!x->outdir_name) return onnxslim__err_nomem(NULL);
  struct stat st;
  /* no directory, a directory at path, no name: nothing to replace (the
   * write fails and says why) */
  if (!x->base[0] || (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) ||
      (x->outdir = open(x->outdir_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
    return 0;
  rp->active = 1;
  /* the files the new model reads: those it loaded, where its tensors
   * stay (checked by onnxslim__external_refs_resolve) */
  int rc = old_walk(&x->news, model, model->root);
  if (!rc) rc = take_turn(x);
  if (!rc) rc = start_journal(x);
  return rc;
}

void onnxslim__replace_end(osl_replace *rp, int rc) {
  if (!rp) return;
  if (rp->active) finish(&rp->x, rc);
  xsave_free(&rp->x);
  free(rp);
}
