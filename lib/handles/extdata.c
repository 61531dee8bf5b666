/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - external data: tensors whose bytes live in other files
 * (ONNX external_data keys location, offset, length, checksum).
 *
 * Loading opens every location beneath a descriptor of the base directory
 * (onnxslim__open_beneath: nothing above it, whatever is renamed meanwhile),
 * refuses the path-traversal holes (absolute paths, ".." segments, symlinks
 * leading out of the base directory), checks what was opened (a regular
 * file) and refuses ranges outside the file. Each file is
 * mapped once; a tensor's bytes are a pointer into that mapping, read by the
 * kernel only when used.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "onnx.pb.h"

#include "handles.h"

/* Is external_data entry e's key exactly `key` (a key with a NUL inside
 * is another key, as for onnx)? */
static int key_is(osl_msg *e, const char *key) {
  osl_field *k = onnxslim__msg_last(e, onnx_StringStringEntryProto_key_tag);
  size_t n = strlen(key);
  if (!k || k->n != n) return 0;
  const char *s = onnxslim__field_cstr(e->model, k);
  return s && memcmp(s, key, n) == 0;
}

/* The value of external_data key `key`, NULL when absent (the first one:
 * keys_ok() refuses a key given twice before anything reads them). */
const char *onnxslim__external_entry(osl_msg *t, const char *key) {
  for (size_t i = 0; i < t->nf; i++) {
    osl_field *f = &t->f[i];
    if (f->number != onnx_TensorProto_external_data_tag || !f->sub) continue;
    if (key_is(f->sub, key))
      return onnxslim__msg_str(f->sub, onnx_StringStringEntryProto_value_tag);
  }
  return NULL;
}

/* The keys this library reads must mean what they mean to onnx: each given
 * once (onnx takes the last of several, a reader taking the first would
 * read other bytes), and no NUL inside a value (onnx keeps the whole
 * string, a C reader would stop at the NUL). */
static int keys_ok(osl_msg *t, const char *tname) {
  static const char *const keys[] = {"location", "offset", "length", "checksum"};
  for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
    size_t count = 0;
    for (size_t i = 0; i < t->nf; i++) {
      osl_field *f = &t->f[i];
      if (f->number != onnx_TensorProto_external_data_tag || !f->sub || !key_is(f->sub, keys[k]))
        continue;
      count++;
      osl_field *v = onnxslim__msg_last(f->sub, onnx_StringStringEntryProto_value_tag);
      const char *s = v ? onnxslim__field_cstr(t->model, v) : "";
      if (!s) return onnxslim__err_nomem(NULL);
      if (v && memchr(s, '\0', v->n))
        return onnxslim__err(ONNXSLIM_EMODEL,
                             "tensor '%s': external data %s '%s' refused: it holds a NUL byte",
                             tname, keys[k], s);
    }
    if (count > 1)
      return onnxslim__err(ONNXSLIM_EMODEL,
                           "tensor '%s': external data key '%s' given %zu times (refused: readers "
                           "disagree on which one counts)",
                           tname, keys[k], count);
  }
  return 0;
}

int onnxslim__external_locations(osl_msg *msg, int (*fn)(void *ctx, const char *loc), void *ctx) {
  int rc = 0;
  OSL_FLUSH(msg);
  if (msg->def == &osl_def_onnx_TensorProto &&
      onnxslim__msg_int(msg, onnx_TensorProto_data_location_tag, 0) ==
          onnx_TensorProto_DataLocation_EXTERNAL)
    for (size_t i = 0; i < msg->nf && !rc; i++) {
      osl_field *f = &msg->f[i];
      if (f->number != onnx_TensorProto_external_data_tag || !f->sub || !key_is(f->sub, "location"))
        continue;
      const char *loc = onnxslim__msg_str(f->sub, onnx_StringStringEntryProto_value_tag);
      rc = loc ? fn(ctx, loc) : onnxslim__err_nomem(NULL);
    }
  for (size_t i = 0; i < msg->nf && !rc; i++)
    if (msg->f[i].sub) rc = onnxslim__external_locations(msg->f[i].sub, fn, ctx);
  return rc;
}

/* Strict decimal: digits only, no sign, no overflow. */
static int parse_u64(const char *s, uint64_t *out) {
  if (!s || !*s) return -1;
  uint64_t v = 0;
  for (; *s; s++) {
    if (*s < '0' || *s > '9') return -1;
    unsigned d = (unsigned)(*s - '0');
    if (v > (UINT64_MAX - d) / 10) return -1;
    v = v * 10 + d;
  }
  *out = v;
  return 0;
}

int onnxslim__location_ok(const char *loc, const char **why) {
  if (!loc[0]) return *why = "an empty location", 0;
  if (loc[0] == '/' || loc[0] == '\\' || (loc[0] && loc[1] == ':'))
    return *why = "an absolute location", 0;
  if (strchr(loc, '\\')) return *why = "a backslash in the location", 0;
  const char *p = loc;
  while (*p) {
    const char *e = strchr(p, '/');
    size_t len = e ? (size_t)(e - p) : strlen(p);
    if (len == 2 && p[0] == '.' && p[1] == '.') return *why = "a '..' segment", 0;
    if (len && !(len == 1 && p[0] == '.') && !onnxslim__os_name_ok(p, len, why)) return 0;
    if (!e) break;
    p = e + 1;
  }
  /* the last segment names the file */
  const char *last = strrchr(loc, '/');
  last = last ? last + 1 : loc;
  if (!last[0] || strcmp(last, ".") == 0) {
    int named = 0; /* any segment but "" and "." */
    for (p = loc; *p && !named;) {
      const char *e = strchr(p, '/');
      size_t len = e ? (size_t)(e - p) : strlen(p);
      named = len && !(len == 1 && p[0] == '.');
      p += len + (e ? 1 : 0);
    }
    return *why = named ? "it ends in '/' or '/.', naming a directory, not a file"
                        : "it names the directory itself, not a file",
           0;
  }
  return 1;
}

/* The resolved absolute path of an opened file, for onnxslim_model_file():
 * what the kernel says the descriptor is, else base + location. */
static char *opened_path(int fd, const char *base_dir, const char *loc) {
  char buf[PATH_MAX];
  if (onnxslim__os_fd_path(fd, buf, sizeof buf) == 0) return strdup(buf);
  char *real = onnxslim__os_realpath(base_dir);
  const char *b = real ? real : base_dir;
  char *out = malloc(strlen(b) + strlen(loc) + 2);
  if (out) sprintf(out, "%s/%s", b, loc);
  free(real);
  return out;
}

/* Opens `loc` beneath the base directory (never above it, whatever is
 * renamed meanwhile), checks what was opened and maps it once per file
 * (files are told apart by device and inode). */
static int map_ext(onnxslim_model *m, int basefd, size_t *index, const char *tname,
                   const char *loc) {
  int fd = onnxslim__open_beneath(basefd, loc, OSL_O_RDONLY | OSL_O_NONBLOCK);
  if (fd < 0) {
    int e = errno;
    if (e == EXDEV)
      return onnxslim__err(ONNXSLIM_EMODEL,
                           "tensor '%s': external data location '%s' refused: it leaves the base "
                           "directory through a symlink (symlinks are followed only while they "
                           "stay beneath it)",
                           tname, loc);
    if (e == ENOENT || e == ENOTDIR)
      return onnxslim__err(ONNXSLIM_EMODEL, "tensor '%s': external data '%s' not found: %s", tname,
                           loc, strerror(e));
    return onnxslim__err(ONNXSLIM_EMODEL, "tensor '%s': cannot open external data '%s': %s", tname,
                         loc, strerror(e));
  }
  osl_os_stat st;
  if (onnxslim__os_fstat(fd, &st) != 0) {
    int e = errno;
    onnxslim__os_close(fd);
    return onnxslim__err(ONNXSLIM_EIO, "tensor '%s': cannot stat external data '%s': %s", tname,
                         loc, strerror(e));
  }
  if (st.kind != OSL_KIND_REG) {
    onnxslim__os_close(fd);
    return onnxslim__err(ONNXSLIM_EMODEL,
                         "tensor '%s': external data '%s' is not a regular file: it is %s", tname,
                         loc, onnxslim__file_kind(st.kind));
  }
  for (size_t i = 0; i < m->next; i++)
    if (m->ext[i].dev == st.dev && m->ext[i].ino == st.ino) {
      onnxslim__os_close(fd);
      *index = i;
      return 0;
    }
  if ((uint64_t)st.size > (uint64_t)SIZE_MAX) {
    onnxslim__os_close(fd);
    return onnxslim__err(ONNXSLIM_ELIMIT, "tensor '%s': external data '%s' is too large to map",
                         tname, loc);
  }
  void *map = NULL;
  if (st.size > 0) {
    map = onnxslim__os_map_read(fd, (size_t)st.size);
    if (!map) {
      int e = errno;
      onnxslim__os_close(fd);
      return onnxslim__err(ONNXSLIM_EIO, "tensor '%s': cannot map '%s': %s", tname, loc,
                           strerror(e));
    }
  }
  if (m->next == m->ext_cap) {
    size_t cap = m->ext_cap ? m->ext_cap * 2 : 4;
    osl_extfile *v = realloc(m->ext, cap * sizeof *v);
    if (!v) {
      onnxslim__os_unmap(map, (size_t)st.size);
      onnxslim__os_close(fd);
      return onnxslim__err_nomem(NULL);
    }
    m->ext = v;
    m->ext_cap = cap;
  }
  osl_extfile *x = &m->ext[m->next];
  x->path = opened_path(fd, m->base_dir, loc);
  x->map = map;
  x->size = (size_t)st.size;
  x->fd = fd; /* kept for copy_file_range, and as the file's identity */
  x->dev = st.dev;
  x->ino = st.ino;
  x->rel.lo = x->rel.hi = NULL;
  if (!x->path) {
    onnxslim__os_unmap(map, x->size);
    onnxslim__os_close(fd);
    return onnxslim__err_nomem(NULL);
  }
  *index = m->next++;
  return 0;
}

void onnxslim__tensor_set_extref(osl_msg *t, const void *ref) {
  ((osl_tcache *)t->cache)->extref = ref;
}

const void *onnxslim__tensor_extref(const osl_msg *t) {
  return t->cache ? ((const osl_tcache *)t->cache)->extref : NULL;
}

/* A TensorProto whose bytes are in external data now (its data_location;
 * onnxslim_tensor_storage()'s first case, read here below tensor.c). */
static int stored_external(const osl_msg *t) {
  return onnxslim__msg_int(t, onnx_TensorProto_data_location_tag, 0) ==
         onnx_TensorProto_DataLocation_EXTERNAL;
}

typedef struct {
  int basefd;       /* the base directory, -1 when none was given */
  const char *last; /* the location resolved last, and its file */
  size_t last_idx;
} osl_resolver;

static int resolve(onnxslim_model *m, osl_msg *t, osl_resolver *r) {
  const char *tname = onnxslim__msg_str(t, onnx_TensorProto_name_tag);
  int krc = keys_ok(t, tname);
  if (krc) return krc;
  const char *loc = onnxslim__external_entry(t, "location");
  const char *why = NULL;
  if (!loc)
    return onnxslim__err(ONNXSLIM_EMODEL, "tensor '%s': external data without a location", tname);
  if (!onnxslim__location_ok(loc, &why))
    return onnxslim__err(ONNXSLIM_EMODEL, "tensor '%s': external data location '%s' refused: %s",
                         tname, loc, why);
  if (r->basefd < 0)
    return onnxslim__err(ONNXSLIM_EINVAL,
                         "tensor '%s' has external data '%s': loading from a buffer needs "
                         "base_dir in the load options",
                         tname, loc);
  size_t idx = r->last_idx;
  if (!r->last || strcmp(r->last, loc) != 0) {
    /* tensors in one file usually come one after another: one open */
    int rc = map_ext(m, r->basefd, &idx, tname, loc);
    if (rc) return rc;
    r->last = loc;
    r->last_idx = idx;
  }
  uint64_t off = 0, len;
  const char *so = onnxslim__external_entry(t, "offset"),
             *sl = onnxslim__external_entry(t, "length");
  if (so && parse_u64(so, &off))
    return onnxslim__err(ONNXSLIM_EMODEL,
                         "tensor '%s': malformed external data offset '%s' (location '%s')", tname,
                         so, loc);
  size_t fsize = m->ext[idx].size;
  if (off > fsize)
    return onnxslim__err(
        ONNXSLIM_EMODEL,
        "tensor '%s': external data offset %llu is beyond the end of '%s' (%zu bytes)", tname,
        (unsigned long long)off, loc, fsize);
  if (sl) {
    if (parse_u64(sl, &len))
      return onnxslim__err(ONNXSLIM_EMODEL,
                           "tensor '%s': malformed external data length '%s' (location '%s')",
                           tname, sl, loc);
  } else {
    len = fsize - off;
  }
  if (len > fsize - off)
    return onnxslim__err(
        ONNXSLIM_EMODEL,
        "tensor '%s': external data range %llu+%llu is beyond the end of '%s' (%zu bytes)", tname,
        (unsigned long long)off, (unsigned long long)len, loc, fsize);
  osl_extref *ref = onnxslim__arena_alloc(&m->arena, sizeof *ref);
  if (!ref) return onnxslim__err_nomem(NULL);
  ref->file = idx;
  ref->offset = off;
  ref->length = len;
  onnxslim__tensor_set_extref(t, ref);
  return 0;
}

static int walk(onnxslim_model *m, osl_msg *msg, osl_resolver *r) {
  if (msg->def == &osl_def_onnx_TensorProto &&
      onnxslim__msg_int(msg, onnx_TensorProto_data_location_tag, 0) ==
          onnx_TensorProto_DataLocation_EXTERNAL) {
    int rc = resolve(m, msg, r);
    if (rc) return rc;
  }
  OSL_FLUSH(msg);
  for (size_t i = 0; i < msg->nf; i++)
    if (msg->f[i].sub) {
      int rc = walk(m, msg->f[i].sub, r);
      if (rc) return rc;
    }
  return 0;
}

int onnxslim__external_load(onnxslim_model *m) {
  osl_resolver r = {-1, NULL, 0};
  if (m->base_dir) {
    /* every location is opened beneath this descriptor */
    r.basefd = onnxslim__os_open(m->base_dir, OSL_O_PATH | OSL_O_DIRECTORY, 0);
    if (r.basefd < 0)
      return onnxslim__err(ONNXSLIM_EIO, "base directory '%s': %s", m->base_dir, strerror(errno));
  }
  int rc = walk(m, m->root, &r);
  if (r.basefd >= 0) onnxslim__os_close(r.basefd);
  return rc;
}

void onnxslim__external_free(onnxslim_model *m) {
  for (size_t i = 0; i < m->next; i++) {
    onnxslim__os_unmap(m->ext[i].map, m->ext[i].size);
    if (m->ext[i].fd >= 0) onnxslim__os_close(m->ext[i].fd);
    free(m->ext[i].path);
  }
  free(m->ext);
  free(m->base_dir);
}

int onnxslim__external_data(osl_msg *t, const uint8_t **data, size_t *size) {
  const osl_extref *ref = onnxslim__tensor_extref(t);
  if (!ref)
    return onnxslim__err(ONNXSLIM_EMODEL, "tensor '%s': external data was not resolved",
                         onnxslim__msg_str(t, onnx_TensorProto_name_tag));
  const osl_extfile *x = &t->model->ext[ref->file];
  *data = x->map ? (const uint8_t *)x->map + ref->offset : (const uint8_t *)"";
  *size = (size_t)ref->length;
  return 0;
}

/* First tensor under msg stored in external data now, and how many there are. */
static void first_external(osl_msg *msg, osl_msg **first, size_t *count) {
  if (msg->def == &osl_def_onnx_TensorProto && stored_external(msg)) {
    if (!*first) *first = msg;
    ++*count;
  }
  for (size_t i = 0; i < msg->nf; i++)
    if (msg->f[i].sub) first_external(msg->f[i].sub, first, count);
}

size_t onnxslim__external_count(const onnxslim_model *m) {
  osl_msg *t = NULL;
  size_t n = 0;
  if (m && m->root) first_external(m->root, &t, &n);
  return n;
}

/* 0 when every tensor stored externally now still finds, under its
 * location opened beneath the base directory (as the loader opens it), the
 * very file the model read at load: a save with external data may have
 * replaced that file since, or removed it (see remove_old). */
typedef struct {
  int basefd;
  const char *last; /* the location checked last, its file, and the outcome */
  size_t last_file;
  int last_found;
} osl_refcheck;

static int refs_current(const onnxslim_model *m, osl_msg *msg, osl_refcheck *c) {
  if (msg->def == &osl_def_onnx_TensorProto && stored_external(msg)) {
    const char *loc = onnxslim__external_entry(msg, "location");
    const osl_extref *ref = onnxslim__tensor_extref(msg);
    int found = 0;
    if (loc && ref && ref->file < m->next) {
      if (c->last && strcmp(c->last, loc) == 0 && c->last_file == ref->file) {
        found = c->last_found;
      } else {
        int fd = onnxslim__open_beneath(c->basefd, loc, OSL_O_RDONLY | OSL_O_NONBLOCK);
        osl_os_stat st;
        found = fd >= 0 && onnxslim__os_fstat(fd, &st) == 0 && st.dev == m->ext[ref->file].dev &&
                st.ino == m->ext[ref->file].ino;
        if (fd >= 0) onnxslim__os_close(fd);
        c->last = loc;
        c->last_file = ref->file;
        c->last_found = found;
      }
    }
    if (!found)
      return onnxslim__err(ONNXSLIM_EINVAL,
                           "tensor '%s' reads external data '%s', which was replaced or removed "
                           "since the model was loaded: its bytes can only be saved with external "
                           "data or inline (onnxslim_save, layout ONE_FILE, PER_TENSOR or "
                           "INLINE)",
                           onnxslim__msg_str(msg, onnx_TensorProto_name_tag), loc ? loc : "?");
  }
  for (size_t i = 0; i < msg->nf; i++)
    if (msg->f[i].sub) {
      int rc = refs_current(m, msg->f[i].sub, c);
      if (rc) return rc;
    }
  return 0;
}

int onnxslim__external_refs_resolve(const onnxslim_model *m, const char *path) {
  osl_msg *t = NULL;
  size_t n = 0;
  first_external(m->root, &t, &n);
  if (!t) return 0;
  const char *slash = strrchr(path, '/');
  char *dir =
      slash ? onnxslim__strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
  if (!dir) return onnxslim__err_nomem(NULL);
  osl_os_stat a, b;
  int same = m->base_dir && onnxslim__os_stat(dir, &a) == 0 &&
             onnxslim__os_stat(m->base_dir, &b) == 0 && a.dev == b.dev && a.ino == b.ino;
  int rc = 0;
  if (!same)
    rc = onnxslim__err(
        ONNXSLIM_EINVAL,
        "cannot save '%s': %zu tensor%s in external data relative to '%s' (the "
        "first: '%s' in '%s') would not be found from '%s'; save with external "
        "data or merge them inline (onnxslim_save, layout ONE_FILE, PER_TENSOR "
        "or INLINE)",
        path, n, n == 1 ? " is" : "s are", m->base_dir ? m->base_dir : "?",
        onnxslim__msg_str(t, onnx_TensorProto_name_tag),
        onnxslim__external_entry(t, "location") ? onnxslim__external_entry(t, "location") : "?",
        dir);
  free(dir);
  if (!rc) {
    osl_refcheck c = {onnxslim__os_open(m->base_dir, OSL_O_PATH | OSL_O_DIRECTORY, 0), NULL, 0, 0};
    if (c.basefd < 0)
      rc = onnxslim__err(ONNXSLIM_EIO, "base directory '%s': %s", m->base_dir, strerror(errno));
    else rc = refs_current(m, m->root, &c);
    if (c.basefd >= 0) onnxslim__os_close(c.basefd);
  }
  return rc;
}
