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
#include <sys/stat.h>
#include <unistd.h>

#include "onnx.pb.h"

#include "handles.h"

/* What the message tree tells the handles (wire.c calls these through
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
} osl_load_opts;

static int read_load_options(const onnxslim_load_options *opts, osl_load_opts *o) {
  o->max_depth = ONNXSLIM_DEFAULT_MAX_DEPTH;
  o->base_dir = NULL;
  o->max_memory = ONNXSLIM_DEFAULT_MAX_MEMORY;
  o->progress = NULL;
  o->progress_payload = NULL;
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

static int finish_load(onnxslim_model **out, onnxslim_model *m, const char *base_dir,
                       const osl_load_opts *o) {
  osl_progress progress;
  int rc = onnxslim__progress_start(&progress, o->progress, o->progress_payload, m->size);
  if (!rc && base_dir && !(m->base_dir = strdup(base_dir))) rc = onnxslim__err_nomem(NULL);
  if (!rc) rc = onnxslim__parse_model(m, &progress);
  if (!rc) rc = onnxslim__external_load(m);
  if (rc) {
    onnxslim_model_free(m);
    return rc;
  }
  *out = m;
  onnxslim__progress_end(&progress);
  return 0;
}

int onnxslim_model_open(onnxslim_model **out, const char *path, const onnxslim_load_options *opts) {
  if (out) *out = NULL;
  if (!out || !path) return onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_model_open: NULL argument");
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
  rc = onnxslim__map_file(path, &m->map, &m->maplen, &m->fd);
  if (rc) {
    free(m);
    return rc;
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
    dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
    if (!dir) {
      onnxslim_model_free(m);
      return onnxslim__err_nomem(NULL);
    }
    base_dir = dir;
  }
  rc = finish_load(out, m, base_dir, &o);
  free(dir);
  return rc;
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
  return finish_load(out, m, base_dir, &o);
}

void onnxslim_model_free(onnxslim_model *m) {
  if (!m) return;
  onnxslim__external_free(m);
  onnxslim__gindex_free_all(m);
  onnxslim__arena_free(&m->arena);
  onnxslim__unmap(m->map, m->maplen);
  if (m->fd >= 0) close(m->fd);
  free(m->owned);
  free(m->path);
  free(m);
}

/* ---- files the model reads ---------------------------------------------- */

size_t onnxslim_model_file_count(const onnxslim_model *m) {
  return m ? (m->path ? 1 : 0) + m->next : 0;
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
static int file_id(const onnxslim_model *m, size_t index, struct stat *st) {
  int fd = m->path && index == 0 ? m->fd : m->ext[index - (m->path ? 1 : 0)].fd;
  if (fd >= 0) return fstat(fd, st);
  return stat(onnxslim_model_file(m, index), st);
}

int onnxslim__model_reads(const onnxslim_model *m, const struct stat *want) {
  struct stat st;
  for (size_t i = 0; i < onnxslim_model_file_count(m); i++)
    if (file_id(m, i, &st) == 0 && st.st_dev == want->st_dev && st.st_ino == want->st_ino) return 1;
  return 0;
}

int onnxslim_model_file_find(const onnxslim_model *m, const char *path, size_t *index) {
  if (!m || !path) return onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_model_file_find: NULL argument");
  struct stat want, st;
  if (stat(path, &want) != 0)
    return onnxslim__err(ONNXSLIM_ENOTFOUND, "'%s': %s", path, strerror(errno));
  for (size_t i = 0; i < onnxslim_model_file_count(m); i++)
    if (file_id(m, i, &st) == 0 && st.st_dev == want.st_dev && st.st_ino == want.st_ino) {
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
