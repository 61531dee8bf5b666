/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - models: load, model-level fields, functions, save.
 */
#define _GNU_SOURCE
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>

#include "onnx.pb.h"

#include "handles.h"

/* What the message tree tells the handles (parse.c and edit.c call these through
 * model->hooks, never by name): tensors are checked and indexed as they are
 * parsed or copied, graph indexes and the name set follow the edits. */
static const osl_hooks handle_hooks = {
    onnxslim__tensor_validate, onnxslim__tensor_copied, onnxslim__gindex_before,
    onnxslim__gindex_after,    onnxslim__names_note,
};

/* ---- options ------------------------------------------------------------ */

/* Size of each version of onnxslim_load_options: fields are only appended. */
static size_t load_options_size(unsigned int version) {
  switch (version) {
  case 1: return offsetof(onnxslim_load_options, base_dir);
  case 2: return offsetof(onnxslim_load_options, max_memory);
  case 3: return offsetof(onnxslim_load_options, progress);
  case 4: return sizeof(onnxslim_load_options);
  default: return 0;
  }
}

int onnxslim_load_options_init(onnxslim_load_options *opts, unsigned int version) {
  size_t size = load_options_size(version);
  if (!opts) return onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_load_options_init: opts is NULL");
  if (!size)
    return onnxslim__err_options_version("onnxslim_load_options_init", "load options", version,
                                         ONNXSLIM_LOAD_OPTIONS_VERSION);
  memset(opts, 0, size);
  opts->version = version;
  return 0;
}

typedef struct {
  unsigned int max_depth;
  const char *base_dir;
  uint64_t max_memory;
  onnxslim_progress_fn progress;
  void *progress_payload;
  int unresolved; /* external data not resolved (onnxslim__model_open_unresolved) */
} osl_load_opts;

static int read_load_options(const onnxslim_load_options *opts, osl_load_opts *o) {
  o->max_depth = ONNXSLIM_DEFAULT_MAX_DEPTH;
  o->base_dir = NULL;
  o->max_memory = ONNXSLIM_DEFAULT_MAX_MEMORY;
  o->progress = NULL;
  o->progress_payload = NULL;
  o->unresolved = 0;
  if (!opts) return 0;
  if (opts->version < 1 || opts->version > ONNXSLIM_LOAD_OPTIONS_VERSION)
    return onnxslim__err_options_version(NULL, "load options", opts->version,
                                         ONNXSLIM_LOAD_OPTIONS_VERSION);
  if (opts->flags)
    return onnxslim__err(ONNXSLIM_EINVAL, "reserved load option flags 0x%x set", opts->flags);
  if (opts->max_depth) o->max_depth = opts->max_depth;
  if (o->max_depth > ONNXSLIM_MAX_DEPTH_LIMIT)
    return onnxslim__err(ONNXSLIM_EINVAL, "max_depth %u is too large (at most %u)", o->max_depth,
                         (unsigned)ONNXSLIM_MAX_DEPTH_LIMIT);
  if (opts->version >= 2) o->base_dir = opts->base_dir;
  if (opts->version >= 3 && opts->max_memory) o->max_memory = opts->max_memory;
  if (opts->version >= 4) {
    o->progress = opts->progress;
    o->progress_payload = opts->progress_payload;
  }
  return 0;
}

/* ---- load / free ------------------------------------------------------- */

/* What finish_load does when the model was read from a file: after the
 * external data files were opened (or failed to open), whether the path
 * still names the file that was parsed. */
typedef struct {
  const char *path; /* NULL: a buffer, nothing to check */
  uint64_t dev;
  uint64_t ino;
  int replaced; /* out: the path names another file now */
} osl_load_check;

/* 1 when `path` no longer names the file dev/ino (replaced or removed). The
 * model keeps that file open, so its inode cannot be reused meanwhile. */
static int path_replaced(const osl_load_check *c) {
  osl_os_stat st;
  return onnxslim__os_stat(c->path, &st) != 0 || st.dev != c->dev || st.ino != c->ino;
}

static int finish_load(onnxslim_model **out, onnxslim_model *m, const char *base_dir,
                       const osl_load_opts *o, osl_load_check *c) {
  osl_progress progress;
  int rc = onnxslim__progress_start(&progress, o->progress, o->progress_payload, m->size);
  if (!rc && base_dir && !(m->base_dir = strdup(base_dir))) rc = onnxslim__err_nomem(NULL);
  if (!rc) rc = onnxslim__parse_model(m, &progress);
  if (!rc && !o->unresolved) {
    rc = onnxslim__external_load(m);
    /* A save replaces the model file last, then removes the data files the
     * old model read, and a later save may write new data under those
     * names: a load that opened them after the model file was replaced may
     * have the model of one save and the data of another. */
    if (c && c->path && (rc || m->next) && rc != ONNXSLIM_ENOMEM && path_replaced(c)) {
      c->replaced = 1;
      rc = onnxslim__err(ONNXSLIM_EIO,
                         "'%s' was replaced while its external data was being opened (a save to "
                         "it committed meanwhile)",
                         c->path);
    }
  }
  if (rc) {
    onnxslim_model_free(m);
    return rc;
  }
  *out = m;
  onnxslim__progress_end(&progress);
  return 0;
}

/* Attempts at loading a model file that saves keep replacing. */
#define OSL_LOAD_ATTEMPTS 10

static int open_once(onnxslim_model **out, const char *path, const osl_load_opts *o,
                     osl_load_check *c) {
  const char *base_dir = o->base_dir;
  onnxslim_model *m = calloc(1, sizeof *m);
  if (!m) return onnxslim__err_nomem(NULL);
  m->def = &osl_def_model_handle;
  m->hooks = &handle_hooks;
  m->fd = -1;
  m->max_depth = o->max_depth;
  m->max_memory = o->max_memory;
  int rc = onnxslim__map_file(path, &m->map, &m->maplen, &m->fd);
  if (rc) {
    free(m);
    return rc;
  }
  osl_os_stat st;
  if (m->fd >= 0 && onnxslim__os_fstat(m->fd, &st) == 0) {
    c->path = path;
    c->dev = st.dev;
    c->ino = st.ino;
  }
  m->data = m->map;
  m->size = m->maplen;
  if (!(m->path = strdup(path))) {
    onnxslim_model_free(m);
    return onnxslim__err_nomem(NULL);
  }
  char *dir = NULL;
  if (!base_dir) {
    /* external data is relative to the model's directory */
    const char *slash = strrchr(path, '/');
    dir = slash ? onnxslim__strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
    if (!dir) {
      onnxslim_model_free(m);
      return onnxslim__err_nomem(NULL);
    }
    base_dir = dir;
  }
  rc = finish_load(out, m, base_dir, o, c);
  free(dir);
  return rc;
}

int onnxslim_model_open(onnxslim_model **out, const char *path, const onnxslim_load_options *opts) {
  if (out) *out = NULL;
  if (!out || !path) return onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_model_open: NULL argument");
  osl_load_opts o;
  int rc = read_load_options(opts, &o);
  if (rc) return rc;
  /* replaced while loading: load the new file (its data files are in place
   * before it is) */
  for (unsigned attempt = 1;; attempt++) {
    osl_load_check c = {NULL, 0, 0, 0};
    rc = open_once(out, path, &o, &c);
    if (!c.replaced) return rc;
    if (attempt == OSL_LOAD_ATTEMPTS)
      return onnxslim__err(ONNXSLIM_EIO,
                           "'%s' was replaced while its external data was being opened, %u times "
                           "in a row (saves to it keep committing): not loaded, so that the model "
                           "of one save is never read with the data of another; try again",
                           path, attempt);
  }
}

int onnxslim__model_open_unresolved(onnxslim_model **out, const char *path) {
  osl_load_opts o;
  *out = NULL;
  read_load_options(NULL, &o);
  o.unresolved = 1;
  osl_load_check c = {NULL, 0, 0, 0};
  return open_once(out, path, &o, &c);
}

int onnxslim_model_from_buffer(onnxslim_model **out, const void *data, size_t size,
                               unsigned int flags, const onnxslim_load_options *opts) {
  if (out) *out = NULL;
  if (!out || (!data && size))
    return onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_model_from_buffer: NULL argument");
  if (flags & ~ONNXSLIM_BORROW)
    return onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_model_from_buffer: reserved flags 0x%x set",
                         flags);
  osl_load_opts o;
  int rc = read_load_options(opts, &o);
  if (rc) return rc;
  const char *base_dir = o.base_dir;
  onnxslim_model *m = calloc(1, sizeof *m);
  if (!m) return onnxslim__err_nomem(NULL);
  m->def = &osl_def_model_handle;
  m->hooks = &handle_hooks;
  m->fd = -1;
  m->max_depth = o.max_depth;
  m->max_memory = o.max_memory;
  if (flags & ONNXSLIM_BORROW || size == 0) {
    m->data = data;
  } else {
    m->owned = malloc(size);
    if (!m->owned) {
      free(m);
      return onnxslim__err(ONNXSLIM_ENOMEM, "out of memory copying %zu bytes", size);
    }
    memcpy(m->owned, data, size);
    m->data = m->owned;
  }
  m->size = size;
  return finish_load(out, m, base_dir, &o, NULL);
}

void onnxslim_model_free(onnxslim_model *m) {
  if (!m) return;
  onnxslim__external_free(m);
  onnxslim__gindex_free_all(m);
  onnxslim__arena_free(&m->arena);
  onnxslim__unmap(m->map, m->maplen);
  if (m->fd >= 0) onnxslim__os_close(m->fd);
  free(m->owned);
  free(m->path);
  free(m);
}

/* ---- files the model reads ---------------------------------------------- */

size_t onnxslim_model_file_count(const onnxslim_model *m) {
  if (!m) {
    onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_model_file_count: NULL model");
    return 0;
  }
  return (m->path ? 1 : 0) + m->next;
}

const char *onnxslim_model_file(const onnxslim_model *m, size_t index) {
  if (!m) {
    onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_model_file: NULL model");
    return NULL;
  }
  if (index >= onnxslim_model_file_count(m)) {
    onnxslim__err(ONNXSLIM_ERANGE, "file %zu out of range (%zu files)", index,
                  onnxslim_model_file_count(m));
    return NULL;
  }
  if (m->path && index == 0) return m->path;
  return m->ext[index - (m->path ? 1 : 0)].path;
}

/* The identity of file `index`: from the descriptor the model keeps open
 * (the name may have been replaced since), else from its path. */
static int file_id(const onnxslim_model *m, size_t index, osl_os_stat *st) {
  int fd = m->path && index == 0 ? m->fd : m->ext[index - (m->path ? 1 : 0)].fd;
  if (fd >= 0) return onnxslim__os_fstat(fd, st);
  return onnxslim__os_stat(onnxslim_model_file(m, index), st);
}

int onnxslim__model_reads(const onnxslim_model *m, const osl_os_stat *want) {
  osl_os_stat st;
  for (size_t i = 0; i < onnxslim_model_file_count(m); i++)
    if (file_id(m, i, &st) == 0 && st.dev == want->dev && st.ino == want->ino) return 1;
  return 0;
}

int onnxslim_model_find_file(const onnxslim_model *m, const char *path, size_t *index) {
  if (!m || !path) return onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_model_find_file: NULL argument");
  osl_os_stat want, st;
  if (onnxslim__os_stat(path, &want) != 0)
    return onnxslim__err(ONNXSLIM_ENOTFOUND, "'%s': %s", path, strerror(errno));
  for (size_t i = 0; i < onnxslim_model_file_count(m); i++)
    if (file_id(m, i, &st) == 0 && st.dev == want.dev && st.ino == want.ino) {
      if (index) *index = i;
      return 0;
    }
  return onnxslim__err(ONNXSLIM_ENOTFOUND, "'%s' is not a file the model reads", path);
}

/* ---- model fields ------------------------------------------------------- */

static osl_msg *root_of(const onnxslim_model *m, const char *fn) {
  if (!m) {
    onnxslim__err(ONNXSLIM_EINVAL, "%s: NULL model", fn);
    return NULL;
  }
  if (m->def != &osl_def_model_handle) {
    onnxslim__err(ONNXSLIM_EINVAL, "%s: handle is a %s, not a model", fn, m->def->name);
    return NULL;
  }
  return m->root;
}

osl_msg *onnxslim__model_root(const onnxslim_model *m, const char *fn) { return root_of(m, fn); }

#define ROOT_OR(ret)                     \
  osl_msg *r = root_of(model, __func__); \
  if (!r) return ret

int64_t onnxslim_model_ir_version(const onnxslim_model *model) {
  ROOT_OR(0);
  return onnxslim__msg_int(r, onnx_ModelProto_ir_version_tag, 0);
}
const char *onnxslim_model_producer_name(const onnxslim_model *model) {
  ROOT_OR(NULL);
  return onnxslim__msg_str(r, onnx_ModelProto_producer_name_tag);
}
const char *onnxslim_model_producer_version(const onnxslim_model *model) {
  ROOT_OR(NULL);
  return onnxslim__msg_str(r, onnx_ModelProto_producer_version_tag);
}
const char *onnxslim_model_domain(const onnxslim_model *model) {
  ROOT_OR(NULL);
  return onnxslim__msg_str(r, onnx_ModelProto_domain_tag);
}
int64_t onnxslim_model_version(const onnxslim_model *model) {
  ROOT_OR(0);
  return onnxslim__msg_int(r, onnx_ModelProto_model_version_tag, 0);
}
const char *onnxslim_model_doc_string(const onnxslim_model *model) {
  ROOT_OR(NULL);
  return onnxslim__msg_str(r, onnx_ModelProto_doc_string_tag);
}

static int opset_entry(const osl_msg *owner, uint32_t number, size_t index, const char **domain,
                       int64_t *version) {
  osl_msg *e = onnxslim__msg_sub_at(owner, number, index);
  if (!e) return onnxslim_error_last_code();
  if (domain) {
    *domain = onnxslim__msg_str(e, onnx_OperatorSetIdProto_domain_tag);
    if (!*domain) return ONNXSLIM_ENOMEM;
  }
  if (version) *version = onnxslim__msg_int(e, onnx_OperatorSetIdProto_version_tag, 0);
  return 0;
}

size_t onnxslim_model_opset_count(const onnxslim_model *model) {
  ROOT_OR(0);
  return onnxslim__msg_count(r, onnx_ModelProto_opset_import_tag);
}
int onnxslim_model_opset(const onnxslim_model *model, size_t index, const char **domain,
                         int64_t *version) {
  ROOT_OR(ONNXSLIM_EINVAL);
  return opset_entry(r, onnx_ModelProto_opset_import_tag, index, domain, version);
}

size_t onnxslim_model_metadata_count(const onnxslim_model *model) {
  ROOT_OR(0);
  return onnxslim__msg_count(r, onnx_ModelProto_metadata_props_tag);
}
int onnxslim_model_metadata(const onnxslim_model *model, size_t index, const char **key,
                            const char **value) {
  ROOT_OR(ONNXSLIM_EINVAL);
  osl_msg *e = onnxslim__msg_sub_at(r, onnx_ModelProto_metadata_props_tag, index);
  if (!e) return onnxslim_error_last_code();
  if (key && !(*key = onnxslim__msg_str(e, onnx_StringStringEntryProto_key_tag)))
    return ONNXSLIM_ENOMEM;
  if (value && !(*value = onnxslim__msg_str(e, onnx_StringStringEntryProto_value_tag)))
    return ONNXSLIM_ENOMEM;
  return 0;
}

onnxslim_graph *onnxslim_model_graph(const onnxslim_model *model) {
  ROOT_OR(NULL);
  osl_msg *g = onnxslim__msg_sub(r, onnx_ModelProto_graph_tag);
  if (!g) onnxslim__err(ONNXSLIM_ENOTFOUND, "the model has no graph");
  return (onnxslim_graph *)g;
}

size_t onnxslim_model_function_count(const onnxslim_model *model) {
  ROOT_OR(0);
  return onnxslim__msg_count(r, onnx_ModelProto_functions_tag);
}
onnxslim_function *onnxslim_model_function(const onnxslim_model *model, size_t index) {
  ROOT_OR(NULL);
  return (onnxslim_function *)onnxslim__msg_sub_at(r, onnx_ModelProto_functions_tag, index);
}

/* ---- functions ----------------------------------------------------------- */

#define FN_OR(ret)                                \
  osl_msg *m = OSL_CHECK(fn, onnx_FunctionProto); \
  if (!m) return ret

const char *onnxslim_function_name(const onnxslim_function *fn) {
  FN_OR(NULL);
  return onnxslim__msg_str(m, onnx_FunctionProto_name_tag);
}
const char *onnxslim_function_domain(const onnxslim_function *fn) {
  FN_OR(NULL);
  return onnxslim__msg_str(m, onnx_FunctionProto_domain_tag);
}
const char *onnxslim_function_doc_string(const onnxslim_function *fn) {
  FN_OR(NULL);
  return onnxslim__msg_str(m, onnx_FunctionProto_doc_string_tag);
}
size_t onnxslim_function_input_count(const onnxslim_function *fn) {
  FN_OR(0);
  return onnxslim__msg_count(m, onnx_FunctionProto_input_tag);
}
const char *onnxslim_function_input(const onnxslim_function *fn, size_t index) {
  FN_OR(NULL);
  return onnxslim__msg_str_at(m, onnx_FunctionProto_input_tag, index);
}
size_t onnxslim_function_output_count(const onnxslim_function *fn) {
  FN_OR(0);
  return onnxslim__msg_count(m, onnx_FunctionProto_output_tag);
}
const char *onnxslim_function_output(const onnxslim_function *fn, size_t index) {
  FN_OR(NULL);
  return onnxslim__msg_str_at(m, onnx_FunctionProto_output_tag, index);
}
size_t onnxslim_function_attribute_count(const onnxslim_function *fn) {
  FN_OR(0);
  return onnxslim__msg_count(m, onnx_FunctionProto_attribute_tag);
}
const char *onnxslim_function_attribute(const onnxslim_function *fn, size_t index) {
  FN_OR(NULL);
  return onnxslim__msg_str_at(m, onnx_FunctionProto_attribute_tag, index);
}
size_t onnxslim_function_node_count(const onnxslim_function *fn) {
  FN_OR(0);
  return onnxslim__msg_count(m, onnx_FunctionProto_node_tag);
}
onnxslim_node *onnxslim_function_node(const onnxslim_function *fn, size_t index) {
  FN_OR(NULL);
  return (onnxslim_node *)onnxslim__msg_sub_at(m, onnx_FunctionProto_node_tag, index);
}
size_t onnxslim_function_opset_count(const onnxslim_function *fn) {
  FN_OR(0);
  return onnxslim__msg_count(m, onnx_FunctionProto_opset_import_tag);
}
int onnxslim_function_opset(const onnxslim_function *fn, size_t index, const char **domain,
                            int64_t *version) {
  FN_OR(ONNXSLIM_EINVAL);
  return opset_entry(m, onnx_FunctionProto_opset_import_tag, index, domain, version);
}

/* ---- edits ---------------------------------------------------------------- */

int onnxslim_model_set_producer(onnxslim_model *model, const char *name, const char *version) {
  ROOT_OR(ONNXSLIM_EINVAL);
  int rc = 0;
  if (name) rc = onnxslim__msg_set_str(r, onnx_ModelProto_producer_name_tag, name);
  if (!rc && version) rc = onnxslim__msg_set_str(r, onnx_ModelProto_producer_version_tag, version);
  return rc;
}

int onnxslim_model_set_doc_string(onnxslim_model *model, const char *doc) {
  ROOT_OR(ONNXSLIM_EINVAL);
  if (!doc) return onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_model_set_doc_string: NULL doc");
  return onnxslim__msg_set_str(r, onnx_ModelProto_doc_string_tag, doc);
}

/* ---- opsets, metadata, IR version ------------------------------------------------ */

int onnxslim_model_set_ir_version(onnxslim_model *model, int64_t version) {
  ROOT_OR(ONNXSLIM_EINVAL);
  if (version < 0)
    return onnxslim__err(ONNXSLIM_EINVAL, "IR version %lld is negative", (long long)version);
  return onnxslim__msg_set_int(r, onnx_ModelProto_ir_version_tag, (uint64_t)version);
}

/* The entry of a repeated key/value-like field whose string field `key_tag`
 * equals key; SIZE_MAX when absent. */
static size_t find_entry(osl_msg *r, uint32_t number, uint32_t key_tag, const char *key) {
  for (size_t i = 0; i < r->nf; i++) {
    osl_field *f = &r->f[i];
    if (f->number != number || !f->sub) continue;
    const char *k = onnxslim__msg_str(f->sub, key_tag);
    if (k && strcmp(k, key) == 0) return i;
  }
  return SIZE_MAX;
}

int onnxslim_model_set_opset(onnxslim_model *model, const char *domain, int64_t version) {
  ROOT_OR(ONNXSLIM_EINVAL);
  if (version < 1)
    return onnxslim__err(ONNXSLIM_EINVAL, "opset version %lld: opset versions start at 1",
                         (long long)version);
  if (!domain) domain = "";
  size_t i =
      find_entry(r, onnx_ModelProto_opset_import_tag, onnx_OperatorSetIdProto_domain_tag, domain);
  if (i == SIZE_MAX && strcmp(domain, "ai.onnx") == 0)
    i = find_entry(r, onnx_ModelProto_opset_import_tag, onnx_OperatorSetIdProto_domain_tag, "");
  if (i != SIZE_MAX)
    return onnxslim__msg_set_int(r->f[i].sub, onnx_OperatorSetIdProto_version_tag,
                                 (uint64_t)version);
  osl_msg *e = onnxslim__msg_new(model, &osl_def_onnx_OperatorSetIdProto, NULL);
  if (!e) return ONNXSLIM_ENOMEM;
  osl_field f;
  int rc = 0;
  if (domain[0]) {
    rc = onnxslim__fld_str(model, onnx_OperatorSetIdProto_domain_tag, domain, &f);
    if (!rc) rc = onnxslim__msg_insert(e, SIZE_MAX, &f);
  }
  onnxslim__fld_varint(onnx_OperatorSetIdProto_version_tag, (uint64_t)version, &f);
  if (!rc) rc = onnxslim__msg_insert(e, SIZE_MAX, &f);
  if (rc) return rc;
  onnxslim__fld_sub(onnx_ModelProto_opset_import_tag, e, &f);
  size_t count = onnxslim__msg_count(r, onnx_ModelProto_opset_import_tag);
  return onnxslim__msg_insert(r, onnxslim__msg_pos_nth(r, onnx_ModelProto_opset_import_tag, count),
                              &f);
}

int onnxslim_model_remove_opset(onnxslim_model *model, const char *domain) {
  ROOT_OR(ONNXSLIM_EINVAL);
  if (!domain) domain = "";
  size_t i =
      find_entry(r, onnx_ModelProto_opset_import_tag, onnx_OperatorSetIdProto_domain_tag, domain);
  if (i == SIZE_MAX)
    return onnxslim__err(ONNXSLIM_ENOTFOUND, "no opset import for domain '%s'", domain);
  onnxslim__msg_remove(r, i);
  return 0;
}

int onnxslim_model_set_metadata(onnxslim_model *model, const char *key, const char *value) {
  ROOT_OR(ONNXSLIM_EINVAL);
  if (!key || !value) return onnxslim__err(ONNXSLIM_EINVAL, "%s: NULL key or value", __func__);
  size_t i =
      find_entry(r, onnx_ModelProto_metadata_props_tag, onnx_StringStringEntryProto_key_tag, key);
  if (i != SIZE_MAX)
    return onnxslim__msg_set_str(r->f[i].sub, onnx_StringStringEntryProto_value_tag, value);
  osl_msg *e = onnxslim__msg_new(model, &osl_def_onnx_StringStringEntryProto, NULL);
  if (!e) return ONNXSLIM_ENOMEM;
  osl_field f;
  int rc = onnxslim__fld_str(model, onnx_StringStringEntryProto_key_tag, key, &f);
  if (!rc) rc = onnxslim__msg_insert(e, SIZE_MAX, &f);
  if (!rc) rc = onnxslim__fld_str(model, onnx_StringStringEntryProto_value_tag, value, &f);
  if (!rc) rc = onnxslim__msg_insert(e, SIZE_MAX, &f);
  if (rc) return rc;
  onnxslim__fld_sub(onnx_ModelProto_metadata_props_tag, e, &f);
  size_t count = onnxslim__msg_count(r, onnx_ModelProto_metadata_props_tag);
  return onnxslim__msg_insert(
      r, onnxslim__msg_pos_nth(r, onnx_ModelProto_metadata_props_tag, count), &f);
}

int onnxslim_model_remove_metadata(onnxslim_model *model, const char *key) {
  ROOT_OR(ONNXSLIM_EINVAL);
  if (!key) return onnxslim__err(ONNXSLIM_EINVAL, "%s: NULL key", __func__);
  size_t i =
      find_entry(r, onnx_ModelProto_metadata_props_tag, onnx_StringStringEntryProto_key_tag, key);
  if (i == SIZE_MAX) return onnxslim__err(ONNXSLIM_ENOTFOUND, "no metadata key '%s'", key);
  onnxslim__msg_remove(r, i);
  return 0;
}

/* ---- unique names ------------------------------------------------------------------ */

/* Adds every name used in msg and below: node names, inputs, outputs, value
 * and tensor names, function names. */
static int is_name_field(const osl_msgdef *d, uint32_t number) {
  return (d == &osl_def_onnx_NodeProto &&
          (number == onnx_NodeProto_input_tag || number == onnx_NodeProto_output_tag ||
           number == onnx_NodeProto_name_tag)) ||
         (d == &osl_def_onnx_ValueInfoProto && number == onnx_ValueInfoProto_name_tag) ||
         (d == &osl_def_onnx_TensorProto && number == onnx_TensorProto_name_tag) ||
         (d == &osl_def_onnx_GraphProto && number == onnx_GraphProto_name_tag) ||
         (d == &osl_def_onnx_FunctionProto &&
          (number == onnx_FunctionProto_input_tag || number == onnx_FunctionProto_output_tag ||
           number == onnx_FunctionProto_name_tag));
}

static int collect_names(onnxslim_model *model, osl_msg *msg);

/* Adds the names of field f of a message of kind d (its submessages' too). */
static int field_names(onnxslim_model *model, const osl_msgdef *d, osl_field *f) {
  if (f->sub) return collect_names(model, f->sub);
  if (!is_name_field(d, f->number)) return 0;
  const char *s = onnxslim__field_cstr(model, f);
  if (!s || !onnxslim__map_put(&model->arena, &model->names, s, (void *)s)) return ONNXSLIM_ENOMEM;
  return 0;
}

static int collect_names(onnxslim_model *model, osl_msg *msg) {
  OSL_FLUSH(msg);
  for (size_t i = 0; i < msg->nf; i++) {
    int rc = field_names(model, msg->def, &msg->f[i]);
    if (rc) return rc;
  }
  return 0;
}

void onnxslim__names_note(onnxslim_model *model, const osl_msg *msg, osl_field *f) {
  if (!model->names.cap) return; /* not built yet: the first use collects everything */
  if (field_names(model, msg->def, f)) {
    /* out of memory: forget the set, the next use collects it again */
    memset(&model->names, 0, sizeof model->names);
  }
}

int onnxslim_model_unique_name(onnxslim_model *model, const char *base, const char **out) {
  if (out) *out = NULL;
  ROOT_OR(ONNXSLIM_EINVAL);
  if (!base || !out) return onnxslim__err(ONNXSLIM_EINVAL, "%s: NULL argument", __func__);
  if (!model->names.cap) {
    /* built once; then the edits add the names they set (names only
     * grow: earlier results stay reserved after edits) */
    if (collect_names(model, r)) {
      memset(&model->names, 0, sizeof model->names);
      return onnxslim__err_nomem(NULL);
    }
  }
  /* the set is the model's (its arena): when it took the model over
   * max_memory it is kept, but names are refused as any pass's
   * allocation would be */
  int rc = onnxslim__mem_charge(model, 0, "collecting the model's names");
  if (rc) return rc;
  size_t blen = strlen(base);
  char *buf = onnxslim__arena_alloc(&model->arena, blen + 32);
  if (!buf) return onnxslim__err_nomem(NULL);
  memcpy(buf, base, blen + 1);
  while (onnxslim__map_get(&model->names, buf) || !buf[0])
    snprintf(buf + blen, 32, "_%llu", (unsigned long long)++model->name_seq);
  if (!onnxslim__map_put(&model->arena, &model->names, buf, buf)) return onnxslim__err_nomem(NULL);
  *out = buf;
  return 0;
}

/* ---- memory a pass holds ------------------------------------------------------------ */

uint64_t onnxslim__mem_cost(size_t n) { return ((uint64_t)n + 16 + 15) & ~(uint64_t)15; }

int onnxslim__mem_charge(const onnxslim_model *model, uint64_t n, const char *what) {
  onnxslim_model *m = (onnxslim_model *)model; /* the count is the model's, as its arena */
  uint64_t structure = m->arena.total, limit = m->max_memory;
  if (limit == ONNXSLIM_MAX_MEMORY_UNLIMITED ||
      (structure <= limit && m->held <= limit - structure && n <= limit - structure - m->held)) {
    m->held += n;
    return 0;
  }
  return onnxslim__err(ONNXSLIM_ELIMIT,
                       "%s needs more memory than its max_memory allows (%llu bytes): the model's "
                       "structure takes %llu bytes, the passes hold %llu and ask %llu more",
                       what, (unsigned long long)limit, (unsigned long long)structure,
                       (unsigned long long)m->held, (unsigned long long)n);
}

void onnxslim__mem_release(const onnxslim_model *model, uint64_t n) {
  onnxslim_model *m = (onnxslim_model *)model;
  m->held = n < m->held ? m->held - n : 0;
}

/* A counted block: its size in front of the caller's bytes. */
typedef union osl_memhead {
  size_t n;
  max_align_t align;
} osl_memhead;

void *onnxslim__mem_alloc(const onnxslim_model *model, size_t n, const char *what) {
  if (n > SIZE_MAX - sizeof(osl_memhead)) {
    onnxslim__err_nomem(what);
    return NULL;
  }
  if (onnxslim__mem_charge(model, onnxslim__mem_cost(sizeof(osl_memhead) + n), what)) return NULL;
  osl_memhead *h = malloc(sizeof *h + n);
  if (!h) {
    onnxslim__mem_release(model, onnxslim__mem_cost(sizeof(osl_memhead) + n));
    onnxslim__err_nomem(what);
    return NULL;
  }
  h->n = n;
  return h + 1;
}

void *onnxslim__mem_calloc(const onnxslim_model *model, size_t count, size_t size,
                           const char *what) {
  if (size && count > SIZE_MAX / size) {
    onnxslim__err_nomem(what);
    return NULL;
  }
  void *p = onnxslim__mem_alloc(model, count * size, what);
  if (p) memset(p, 0, count * size);
  return p;
}

void *onnxslim__mem_realloc(const onnxslim_model *model, void *p, size_t n, const char *what) {
  if (!p) return onnxslim__mem_alloc(model, n, what);
  osl_memhead *h = (osl_memhead *)p - 1;
  if (n > SIZE_MAX - sizeof *h) {
    onnxslim__err_nomem(what);
    return NULL;
  }
  uint64_t was = onnxslim__mem_cost(sizeof *h + h->n), now = onnxslim__mem_cost(sizeof *h + n);
  if (now > was && onnxslim__mem_charge(model, now - was, what)) return NULL;
  osl_memhead *q = realloc(h, sizeof *h + n);
  if (!q) {
    if (now > was) onnxslim__mem_release(model, now - was);
    onnxslim__err_nomem(what);
    return NULL;
  }
  if (now < was) onnxslim__mem_release(model, was - now);
  q->n = n;
  return q + 1;
}

void onnxslim__mem_free(const onnxslim_model *model, void *p) {
  if (!p) return;
  osl_memhead *h = (osl_memhead *)p - 1;
  onnxslim__mem_release(model, onnxslim__mem_cost(sizeof *h + h->n));
  free(h);
}

/* What the slots of a map of cap entries cost. */
static uint64_t slots_cost(size_t cap) {
  return cap ? onnxslim__mem_cost(cap * sizeof(osl_map_entry)) : 0;
}

/* Charges what growing map to hold n keys allocates. */
static int map_charge(const onnxslim_model *model, const osl_map *map, size_t n, const char *what) {
  size_t cap = onnxslim__map_cap_for(map, n);
  if (cap == map->cap) return 0;
  if (cap == SIZE_MAX || cap > SIZE_MAX / sizeof(osl_map_entry)) return onnxslim__err_nomem(what);
  return onnxslim__mem_charge(model, slots_cost(cap), what);
}

/* After the map grew from cap `was` (charged as it is now): the old slots
 * are free. */
static void map_grew(const onnxslim_model *model, const osl_map *map, size_t was) {
  if (map->cap != was) onnxslim__mem_release(model, slots_cost(was));
}

int onnxslim__mem_map_reserve(const onnxslim_model *model, osl_map *map, size_t n,
                              const char *what) {
  size_t was = map->cap, cap = onnxslim__map_cap_for(map, n);
  if (cap == was) return 0;
  int rc = map_charge(model, map, n, what);
  if (rc) return rc;
  if (onnxslim__map_reserve(NULL, map, n)) {
    onnxslim__mem_release(model, slots_cost(cap));
    return onnxslim__err_nomem(what);
  }
  map_grew(model, map, was);
  return 0;
}

static int map_add(const onnxslim_model *model, osl_map *map, const void *key, int by_ptr,
                   osl_map_entry **entry, const char *what) {
  size_t was = map->cap;
  int rc = map_charge(model, map, map->len + 1, what);
  if (rc) return rc;
  size_t cap = onnxslim__map_cap_for(map, map->len + 1);
  rc = by_ptr ? onnxslim__map_add_ptr(NULL, map, key, entry)
              : onnxslim__map_add(NULL, map, key, entry);
  if (rc < 0) {
    if (cap != was) onnxslim__mem_release(model, slots_cost(cap));
    return onnxslim__err_nomem(what);
  }
  map_grew(model, map, was);
  if (cap != was && map->cap == was) onnxslim__mem_release(model, slots_cost(cap)); /* present */
  return rc;
}

int onnxslim__mem_map_add(const onnxslim_model *model, osl_map *map, const char *key,
                          osl_map_entry **entry, const char *what) {
  return map_add(model, map, key, 0, entry, what);
}

int onnxslim__mem_map_add_ptr(const onnxslim_model *model, osl_map *map, const void *key,
                              osl_map_entry **entry, const char *what) {
  return map_add(model, map, key, 1, entry, what);
}

void onnxslim__mem_map_free(const onnxslim_model *model, osl_map *map) {
  onnxslim__mem_release(model, slots_cost(map->cap));
  onnxslim__map_free(map);
}

/* ---- deprecated names (0.1.0), each its replacement ----------------------- */

int onnxslim_model_file_find(const onnxslim_model *m, const char *path, size_t *index) {
  return onnxslim_model_find_file(m, path, index);
}
