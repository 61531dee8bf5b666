/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - a save with external data, its plan and names: which
 * tensors go out (and which share one copy), the data files' names and
 * generations, the model being replaced and the other models of the
 * directory (what must not be removed). save_external.c runs the save.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "onnx.pb.h"

#include "passes/passes.h"
#include "passes/save_external_int.h"

/* ---- a growable byte buffer (the plans' fields, the journal's text) ---- */

void onnxslim__xsave_put(osl_buf *b, const void *d, size_t n) {
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
/* ---- which tensors go out ------------------------------------------------------ */

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

int onnxslim__xsave_collect_items(osl_xsave *s, osl_msg *msg) {
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
    if (msg->f[i].sub) rc = onnxslim__xsave_collect_items(s, msg->f[i].sub);
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

int onnxslim__xsave_keep_shared(osl_xsave *s) {
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

/* A location without "." and empty segments ("./m.data" is "m.data"); malloc'ed. */
char *onnxslim__xsave_norm_location(const char *loc) {
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
 * onnxslim__xsave_goes()), unless another model of the directory reads them. */

/* Where the extension of the last segment of `want` starts (its end if none). */
static const char *ext_of(const char *want) {
  const char *seg = strrchr(want, '/');
  seg = seg ? seg + 1 : want;
  const char *dot = strrchr(seg, '.');
  return dot && dot != seg ? dot : want + strlen(want);
}

/* Generation k of `want` (k = 0: want itself); malloc'ed. */
char *onnxslim__xsave_variant(const char *want, unsigned k) {
  if (k == 0) return strdup(want);
  const char *dot = ext_of(want);
  char *v = malloc(strlen(want) + 16);
  if (v) sprintf(v, "%.*s_%u%s", (int)(dot - want), want, k, dot);
  return v;
}

/* The character onnxslim__xsave_sanitize() makes of c. */
static char sanitized(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                 c == '_' || c == '-'
             ? c
             : '_';
}

/* A per-tensor file name: every character but letters, digits, '.', '_'
 * and '-' becomes '_'. */
void onnxslim__xsave_sanitize(char *s) {
  for (; *s; s++) *s = sanitized(*s);
}

void onnxslim__xsave_old_free(osl_old *old) {
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
static const char *id_key(char *buf, uint64_t dev, uint64_t ino) {
  snprintf(buf, 40, "%llx:%llx", (unsigned long long)dev, (unsigned long long)ino);
  return buf;
}

/* 1 when a ref of old (found) has identity dev/ino. */
static int old_has_id(const osl_old *old, uint64_t dev, uint64_t ino) {
  char buf[40];
  return old->ids.len && onnxslim__map_find(&old->ids, id_key(buf, dev, ino)) != NULL;
}

/* Adds a ref to old: loc (malloc'ed, taken, also on error), found with
 * identity dev/ino. A location already there is not added again. 0 or an
 * error code (ENOMEM, or ELIMIT over the saving model's max_memory). */
static int old_add(osl_old *old, char *loc, int found, uint64_t dev, uint64_t ino) {
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
int onnxslim__xsave_old_walk(osl_old *old, const onnxslim_model *m, osl_msg *msg) {
  const char *loc, *why;
  if (msg->def == &osl_def_onnx_TensorProto &&
      onnxslim__msg_int(msg, onnx_TensorProto_data_location_tag, 0) ==
          onnx_TensorProto_DataLocation_EXTERNAL &&
      (loc = onnxslim__external_entry(msg, "location")) && onnxslim__location_ok(loc, &why)) {
    char *nl = onnxslim__xsave_norm_location(loc);
    if (!nl) return onnxslim__err_nomem(NULL);
    const osl_extref *ref = onnxslim__tensor_extref(msg);
    int found = ref && ref->file < m->next;
    int rc = old_add(old, nl, found, found ? m->ext[ref->file].dev : 0,
                     found ? m->ext[ref->file].ino : 0);
    if (rc) return rc;
  }
  for (size_t i = 0; i < msg->nf; i++)
    if (msg->f[i].sub) {
      int rc = onnxslim__xsave_old_walk(old, m, msg->f[i].sub);
      if (rc) return rc;
    }
  return 0;
}

/* Reads what the file `base` in outdir (the destination, spelled `path`)
 * reads. Fails only for lack of memory: a file that is not a loadable
 * model is `unknown`. */
int onnxslim__xsave_read_old(int outdir, const char *path, const char *base, osl_old *old) {
  osl_os_stat st;
  const onnxslim_model *counter = old->counter;
  memset(old, 0, sizeof *old);
  old->counter = counter;
  if (onnxslim__os_statat(outdir, base, 1, &st) != 0) {
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
  rc = onnxslim__xsave_old_walk(old, m, m->root);
  onnxslim_model_free(m);
  return rc;
}

int onnxslim__xsave_old_reads(const osl_old *old, const osl_os_stat *st) {
  return old_has_id(old, st->dev, st->ino);
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
  int fd = onnxslim__open_beneath(x->outdir, loc, OSL_O_RDONLY | OSL_O_NONBLOCK);
  if (fd < 0) return 0; /* nothing there to keep */
  osl_os_stat st;
  int ok = onnxslim__os_fstat(fd, &st) == 0;
  onnxslim__os_close(fd);
  if (!ok || onnxslim__xsave_old_reads(&x->others, &st)) return 0;
  char *copy = strdup(loc);
  if (!copy) return onnxslim__err_nomem(NULL);
  /* known by identity: a second location naming a found file adds its
   * identity (the location map only spares a duplicate) */
  return old_add(&x->others, copy, 1, st.dev, st.ino);
}

/* 1 if name is a model file name: "*.onnx", not hidden. */
static int model_name(const char *name) {
  size_t n = strlen(name);
  return name[0] != '.' && n > 5 && strcasecmp(name + n - 5, ".onnx") == 0;
}

/* Fills x->others with the files the other models of the directory read.
 * Fails only for lack of memory. */
int onnxslim__xsave_scan_others(osl_xsave *x) {
  x->others_read = 1;
  osl_os_dir *d = onnxslim__os_dir_open(x->outdir);
  if (!d) {
    int e = errno;
    x->others.unknown = 1;
    return e == ENOMEM ? onnxslim__err_nomem("reading the other models of the directory") : 0;
  }
  int nomem = 0;
  size_t seen = 0;
  const char *name;
  char *path = NULL;
  while (!x->others.unknown && (errno = 0, name = onnxslim__os_dir_next(d))) {
    if (!model_name(name) || strcmp(name, x->base) == 0) continue;
    osl_os_stat st;
    if (onnxslim__os_statat(x->outdir, name, 0, &st) != 0 || st.kind != OSL_KIND_REG) continue;
    if (++seen > OSL_OTHERS_MAX) {
      x->others.unknown = 1;
      break;
    }
    free(path);
    path = malloc(strlen(x->outdir_name) + strlen(name) + 2);
    if (!path) {
      x->others.unknown = nomem = 1;
      break;
    }
    sprintf(path, "%s/%s", x->outdir_name, name);
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
  onnxslim__os_dir_close(d);
  onnxslim_error_clear();
  return nomem ? onnxslim__err_nomem("reading the other models of the directory") : 0;
}

/* 1 when another model of x's directory reads the file dev/ino, or what
 * they read is not known (a scan that failed counts every file as read). */
int onnxslim__xsave_others_read(osl_xsave *x, uint64_t dev, uint64_t ino) {
  if (!x) return 0;
  if (!x->others_read) onnxslim__xsave_scan_others(x);
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
int onnxslim__xsave_goes(const osl_xsave *x, const osl_oldref *r) {
  if (!r->found) return 0;
  const char *leaf = strrchr(r->loc, '/');
  leaf = leaf ? leaf + 1 : r->loc;
  size_t n = strlen(leaf);
  if ((n >= 5 && strcasecmp(leaf + n - 5, ".onnx") == 0) || side_file_name(leaf)) return 0;
  return !old_has_id(&x->news, r->dev, r->ino);
}

/* Removes file `loc` beneath outdir if it still is a regular file with
 * identity dev/ino, `spare` (when given) does not hold that identity and
 * no other model of x's directory reads it. */
void onnxslim__xsave_remove_beneath(int outdir, const char *loc, uint64_t dev, uint64_t ino,
                                    const osl_old *spare, osl_xsave *x) {
  const char *leaf;
  int pfd = onnxslim__open_parent_beneath(outdir, loc, &leaf);
  if (pfd < 0) return;
  osl_os_stat st;
  if (onnxslim__os_statat(pfd, leaf, 1, &st) == 0 && st.kind == OSL_KIND_REG && st.dev == dev &&
      st.ino == ino && !(spare && onnxslim__xsave_old_reads(spare, &st)) &&
      !onnxslim__xsave_others_read(x, dev, ino))
    onnxslim__os_unlink(pfd, leaf);
  onnxslim__os_close(pfd);
}

/* After the commit: removes the data files the replaced model read that the
 * new model does not (onnxslim__xsave_goes()) and no other model of the directory reads.
 * Only regular files still the same as when the old model was read are
 * removed. */
void onnxslim__xsave_remove_old(osl_xsave *x) {
  for (size_t i = 0; i < x->old.n; i++) {
    const osl_oldref *r = &x->old.refs[i];
    if (!onnxslim__xsave_goes(x, r)) continue;
    osl_os_stat st;
    int keep = onnxslim__os_statat(x->outdir, x->base, 0, &st) == 0 && st.dev == r->dev &&
               st.ino == r->ino;
    for (size_t j = 0; j < x->nouts && !keep; j++)
      keep = onnxslim__os_statat(onnxslim__out_dirfd(x->outs[j]), onnxslim__out_name(x->outs[j]), 0,
                                 &st) == 0 &&
             st.dev == r->dev && st.ino == r->ino;
    if (!keep) onnxslim__xsave_remove_beneath(x->outdir, r->loc, r->dev, r->ino, NULL, x);
  }
}
