/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - nodes and attributes.
 */
#include <string.h>

#include "onnx.pb.h"

#include "handles.h"

#define N_OR(ret)                               \
  osl_msg *n = OSL_CHECK(node, onnx_NodeProto); \
  if (!n) return ret

const char *onnxslim_node_name(const onnxslim_node *node) {
  N_OR(NULL);
  return onnxslim__msg_str(n, onnx_NodeProto_name_tag);
}
const char *onnxslim_node_op_type(const onnxslim_node *node) {
  N_OR(NULL);
  return onnxslim__msg_str(n, onnx_NodeProto_op_type_tag);
}
const char *onnxslim_node_domain(const onnxslim_node *node) {
  N_OR(NULL);
  return onnxslim__msg_str(n, onnx_NodeProto_domain_tag);
}
const char *onnxslim_node_doc_string(const onnxslim_node *node) {
  N_OR(NULL);
  return onnxslim__msg_str(n, onnx_NodeProto_doc_string_tag);
}
onnxslim_graph *onnxslim_node_graph(const onnxslim_node *node) {
  N_OR(NULL);
  return n->parent && n->parent->def == &osl_def_onnx_GraphProto ? (onnxslim_graph *)n->parent
                                                                 : NULL;
}
size_t onnxslim_node_input_count(const onnxslim_node *node) {
  N_OR(0);
  return onnxslim__msg_count(n, onnx_NodeProto_input_tag);
}
const char *onnxslim_node_input(const onnxslim_node *node, size_t index) {
  N_OR(NULL);
  return onnxslim__msg_str_at(n, onnx_NodeProto_input_tag, index);
}
size_t onnxslim_node_output_count(const onnxslim_node *node) {
  N_OR(0);
  return onnxslim__msg_count(n, onnx_NodeProto_output_tag);
}
const char *onnxslim_node_output(const onnxslim_node *node, size_t index) {
  N_OR(NULL);
  return onnxslim__msg_str_at(n, onnx_NodeProto_output_tag, index);
}
size_t onnxslim_node_attr_count(const onnxslim_node *node) {
  N_OR(0);
  return onnxslim__msg_count(n, onnx_NodeProto_attribute_tag);
}
onnxslim_attr *onnxslim_node_attr(const onnxslim_node *node, size_t index) {
  N_OR(NULL);
  return (onnxslim_attr *)onnxslim__msg_sub_at(n, onnx_NodeProto_attribute_tag, index);
}
onnxslim_attr *onnxslim_node_find_attr(const onnxslim_node *node, const char *name) {
  N_OR(NULL);
  if (!name) {
    onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_node_find_attr: NULL name");
    return NULL;
  }
  osl_list *l = onnxslim__msg_list(n, onnx_NodeProto_attribute_tag);
  if (!l) {
    onnxslim__err_nomem(NULL);
    return NULL;
  }
  for (size_t i = 0; i < l->count; i++) {
    osl_msg *a = n->f[l->idx[i]].sub;
    const char *an = onnxslim__msg_str(a, onnx_AttributeProto_name_tag);
    if (an && strcmp(an, name) == 0) return (onnxslim_attr *)a;
  }
  onnxslim__err(ONNXSLIM_ENOTFOUND, "node '%s' has no attribute '%s'",
                onnxslim__msg_str(n, onnx_NodeProto_name_tag), name);
  return NULL;
}

/* Subgraph `index` of node n (GRAPH and GRAPHS attributes, in order), or
 * NULL with *count set to the number of subgraphs. */
static osl_msg *nth_subgraph(const osl_msg *n, size_t index, size_t *count) {
  size_t k = 0;
  for (size_t i = 0; i < n->nf; i++) {
    const osl_field *f = &n->f[i];
    if (f->number != onnx_NodeProto_attribute_tag || !f->sub) continue;
    for (size_t j = 0; j < f->sub->nf; j++) {
      const osl_field *af = &f->sub->f[j];
      if ((af->number == onnx_AttributeProto_g_tag ||
           af->number == onnx_AttributeProto_graphs_tag) &&
          af->sub && k++ == index)
        return af->sub;
    }
  }
  if (count) *count = k;
  return NULL;
}

size_t onnxslim_node_subgraph_count(const onnxslim_node *node) {
  N_OR(0);
  size_t count = 0;
  nth_subgraph(n, SIZE_MAX, &count);
  return count;
}

onnxslim_graph *onnxslim_node_subgraph(const onnxslim_node *node, size_t index) {
  N_OR(NULL);
  size_t count = 0;
  osl_msg *g = nth_subgraph(n, index, &count);
  if (!g) onnxslim__err(ONNXSLIM_ERANGE, "subgraph %zu out of range (node has %zu)", index, count);
  return (onnxslim_graph *)g;
}

int onnxslim_node_set_name(onnxslim_node *node, const char *name) {
  N_OR(ONNXSLIM_EINVAL);
  if (!name) return onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_node_set_name: NULL name");
  return onnxslim__msg_set_str(n, onnx_NodeProto_name_tag, name);
}

/* ---- attributes ---------------------------------------------------------- */

#define A_OR(ret)                                    \
  osl_msg *a = OSL_CHECK(attr, onnx_AttributeProto); \
  if (!a) return ret

const char *onnxslim_attr_name(const onnxslim_attr *attr) {
  A_OR(NULL);
  return onnxslim__msg_str(a, onnx_AttributeProto_name_tag);
}
const char *onnxslim_attr_doc_string(const onnxslim_attr *attr) {
  A_OR(NULL);
  return onnxslim__msg_str(a, onnx_AttributeProto_doc_string_tag);
}
const char *onnxslim_attr_ref_attr_name(const onnxslim_attr *attr) {
  A_OR(NULL);
  return onnxslim__msg_str(a, onnx_AttributeProto_ref_attr_name_tag);
}

/* The field that holds the value of each attribute type, indexed by type. */
static const uint32_t value_field[] = {
    0,
    onnx_AttributeProto_f_tag,
    onnx_AttributeProto_i_tag,
    onnx_AttributeProto_s_tag,
    onnx_AttributeProto_t_tag,
    onnx_AttributeProto_g_tag,
    onnx_AttributeProto_floats_tag,
    onnx_AttributeProto_ints_tag,
    onnx_AttributeProto_strings_tag,
    onnx_AttributeProto_tensors_tag,
    onnx_AttributeProto_graphs_tag,
    onnx_AttributeProto_sparse_tensor_tag,
    onnx_AttributeProto_sparse_tensors_tag,
    onnx_AttributeProto_tp_tag,
    onnx_AttributeProto_type_protos_tag,
};
#define N_TYPES ((int)(sizeof value_field / sizeof value_field[0]))

static int attr_type(const osl_msg *a) {
  osl_field *t = onnxslim__msg_last(a, onnx_AttributeProto_type_tag);
  if (t) return (int)(int32_t)t->u;
  for (int ty = 1; ty < N_TYPES; ty++)
    if (onnxslim__msg_has(a, value_field[ty])) return ty;
  return ONNXSLIM_ATTR_UNDEFINED;
}

int onnxslim_attr_type(const onnxslim_attr *attr) {
  A_OR(ONNXSLIM_ATTR_UNDEFINED);
  return attr_type(a);
}

static int want(const osl_msg *a, int type, const char *fn) {
  int ty = attr_type(a);
  if (ty != type)
    return onnxslim__err(ONNXSLIM_ETYPE, "%s: attribute '%s' has type %d, not %d", fn,
                         onnxslim__msg_str(a, onnx_AttributeProto_name_tag), ty, type);
  return 0;
}

int onnxslim_attr_float(const onnxslim_attr *attr, float *out) {
  A_OR(ONNXSLIM_EINVAL);
  if (!out) return onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_attr_float: NULL out");
  int rc = want(a, ONNXSLIM_ATTR_FLOAT, __func__);
  if (rc) return rc;
  osl_field *f = onnxslim__msg_last(a, onnx_AttributeProto_f_tag);
  uint32_t bits = f ? (uint32_t)f->u : 0;
  memcpy(out, &bits, sizeof *out);
  return 0;
}

int onnxslim_attr_int(const onnxslim_attr *attr, int64_t *out) {
  A_OR(ONNXSLIM_EINVAL);
  if (!out) return onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_attr_int: NULL out");
  int rc = want(a, ONNXSLIM_ATTR_INT, __func__);
  if (rc) return rc;
  *out = onnxslim__msg_int(a, onnx_AttributeProto_i_tag, 0);
  return 0;
}

static int bytes_of(osl_msg *a, osl_field *f, const char **data, size_t *size) {
  const char *s = f ? onnxslim__field_cstr(a->model, f) : "";
  if (!s) return ONNXSLIM_ENOMEM;
  if (data) *data = s;
  if (size) *size = f ? f->n : 0;
  return 0;
}

int onnxslim_attr_string(const onnxslim_attr *attr, const char **data, size_t *size) {
  A_OR(ONNXSLIM_EINVAL);
  int rc = want(a, ONNXSLIM_ATTR_STRING, __func__);
  if (rc) return rc;
  return bytes_of(a, onnxslim__msg_last(a, onnx_AttributeProto_s_tag), data, size);
}

static osl_msg *single_sub(const onnxslim_attr *attr, int type, const char *fn) {
  osl_msg *a = onnxslim__check(attr, &osl_def_onnx_AttributeProto, fn);
  if (!a || want(a, type, fn)) return NULL;
  osl_msg *m = onnxslim__msg_sub(a, value_field[type]);
  if (!m) onnxslim__err(ONNXSLIM_ENOTFOUND, "%s: attribute has no value", fn);
  return m;
}

onnxslim_tensor *onnxslim_attr_tensor(const onnxslim_attr *attr) {
  return (onnxslim_tensor *)single_sub(attr, ONNXSLIM_ATTR_TENSOR, __func__);
}
onnxslim_graph *onnxslim_attr_graph(const onnxslim_attr *attr) {
  return (onnxslim_graph *)single_sub(attr, ONNXSLIM_ATTR_GRAPH, __func__);
}
onnxslim_sparse_tensor *onnxslim_attr_sparse_tensor(const onnxslim_attr *attr) {
  return (onnxslim_sparse_tensor *)single_sub(attr, ONNXSLIM_ATTR_SPARSE_TENSOR, __func__);
}
onnxslim_type *onnxslim_attr_type_proto(const onnxslim_attr *attr) {
  return (onnxslim_type *)single_sub(attr, ONNXSLIM_ATTR_TYPE_PROTO, __func__);
}

size_t onnxslim_attr_list_count(const onnxslim_attr *attr) {
  A_OR(0);
  int ty = attr_type(a);
  const void *vals;
  size_t count = 0;
  switch (ty) {
  case ONNXSLIM_ATTR_FLOATS:
    if (onnxslim__msg_floats(a, onnx_AttributeProto_floats_tag, (const float **)&vals, &count))
      return 0;
    return count;
  case ONNXSLIM_ATTR_INTS:
    if (onnxslim__msg_int64s(a, onnx_AttributeProto_ints_tag, (const int64_t **)&vals, &count))
      return 0;
    return count;
  case ONNXSLIM_ATTR_STRINGS:
  case ONNXSLIM_ATTR_TENSORS:
  case ONNXSLIM_ATTR_GRAPHS:
  case ONNXSLIM_ATTR_SPARSE_TENSORS:
  case ONNXSLIM_ATTR_TYPE_PROTOS: return onnxslim__msg_count(a, value_field[ty]);
  default: return 0;
  }
}

int onnxslim_attr_floats(const onnxslim_attr *attr, const float **values, size_t *count) {
  A_OR(ONNXSLIM_EINVAL);
  if (!values || !count) return onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_attr_floats: NULL out");
  int rc = want(a, ONNXSLIM_ATTR_FLOATS, __func__);
  if (rc) return rc;
  return onnxslim__msg_floats(a, onnx_AttributeProto_floats_tag, values, count);
}

int onnxslim_attr_ints(const onnxslim_attr *attr, const int64_t **values, size_t *count) {
  A_OR(ONNXSLIM_EINVAL);
  if (!values || !count) return onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_attr_ints: NULL out");
  int rc = want(a, ONNXSLIM_ATTR_INTS, __func__);
  if (rc) return rc;
  return onnxslim__msg_int64s(a, onnx_AttributeProto_ints_tag, values, count);
}

int onnxslim_attr_strings(const onnxslim_attr *attr, size_t index, const char **data,
                          size_t *size) {
  A_OR(ONNXSLIM_EINVAL);
  int rc = want(a, ONNXSLIM_ATTR_STRINGS, __func__);
  if (rc) return rc;
  osl_field *f = onnxslim__msg_at(a, onnx_AttributeProto_strings_tag, index);
  if (!f) return onnxslim_error_last_code();
  return bytes_of(a, f, data, size);
}

static osl_msg *list_sub(const onnxslim_attr *attr, int type, size_t index, const char *fn) {
  osl_msg *a = onnxslim__check(attr, &osl_def_onnx_AttributeProto, fn);
  if (!a || want(a, type, fn)) return NULL;
  return onnxslim__msg_sub_at(a, value_field[type], index);
}

onnxslim_tensor *onnxslim_attr_tensors(const onnxslim_attr *attr, size_t index) {
  return (onnxslim_tensor *)list_sub(attr, ONNXSLIM_ATTR_TENSORS, index, __func__);
}
onnxslim_graph *onnxslim_attr_graphs(const onnxslim_attr *attr, size_t index) {
  return (onnxslim_graph *)list_sub(attr, ONNXSLIM_ATTR_GRAPHS, index, __func__);
}
onnxslim_sparse_tensor *onnxslim_attr_sparse_tensors(const onnxslim_attr *attr, size_t index) {
  return (onnxslim_sparse_tensor *)list_sub(attr, ONNXSLIM_ATTR_SPARSE_TENSORS, index, __func__);
}
onnxslim_type *onnxslim_attr_type_protos(const onnxslim_attr *attr, size_t index) {
  return (onnxslim_type *)list_sub(attr, ONNXSLIM_ATTR_TYPE_PROTOS, index, __func__);
}

/* ---- node edits ------------------------------------------------------------ */

static int set_node_str(const onnxslim_node *node, uint32_t number, const char *value,
                        const char *fn) {
  osl_msg *n = onnxslim__check(node, &osl_def_onnx_NodeProto, fn);
  if (!n) return ONNXSLIM_EINVAL;
  if (!value) return onnxslim__err(ONNXSLIM_EINVAL, "%s: NULL string", fn);
  return onnxslim__msg_set_str(n, number, value);
}

int onnxslim_node_set_op_type(onnxslim_node *node, const char *op_type) {
  return set_node_str(node, onnx_NodeProto_op_type_tag, op_type, __func__);
}

int onnxslim_node_set_domain(onnxslim_node *node, const char *domain) {
  return set_node_str(node, onnx_NodeProto_domain_tag, domain, __func__);
}

static int set_io(onnxslim_node *node, uint32_t number, size_t index, const char *name,
                  const char *fn) {
  osl_msg *n = onnxslim__check(node, &osl_def_onnx_NodeProto, fn);
  if (!n) return ONNXSLIM_EINVAL;
  if (!name) return onnxslim__err(ONNXSLIM_EINVAL, "%s: NULL name", fn);
  size_t count = onnxslim__msg_count(n, number);
  if (index < count) return onnxslim__msg_set_str_at(n, number, index, name);
  if (index > count)
    return onnxslim__err(ONNXSLIM_ERANGE, "%s: index %zu past the end (%zu entries)", fn, index,
                         count);
  osl_field f;
  int rc = onnxslim__fld_str(n->model, number, name, &f);
  return rc ? rc : onnxslim__msg_insert(n, onnxslim__msg_pos_nth(n, number, count), &f);
}

int onnxslim_node_set_input(onnxslim_node *node, size_t index, const char *name) {
  return set_io(node, onnx_NodeProto_input_tag, index, name, __func__);
}
int onnxslim_node_set_output(onnxslim_node *node, size_t index, const char *name) {
  return set_io(node, onnx_NodeProto_output_tag, index, name, __func__);
}

static int set_ios(onnxslim_node *node, uint32_t number, const char *const *names, size_t count,
                   const char *fn) {
  osl_msg *n = onnxslim__check(node, &osl_def_onnx_NodeProto, fn);
  if (!n) return ONNXSLIM_EINVAL;
  if (!names && count) return onnxslim__err(ONNXSLIM_EINVAL, "%s: NULL names", fn);
  return onnxslim__msg_set_strs(n, number, names, count);
}

int onnxslim_node_set_inputs(onnxslim_node *node, const char *const *names, size_t count) {
  return set_ios(node, onnx_NodeProto_input_tag, names, count, __func__);
}
int onnxslim_node_set_outputs(onnxslim_node *node, const char *const *names, size_t count) {
  return set_ios(node, onnx_NodeProto_output_tag, names, count, __func__);
}

/* ---- attribute edits --------------------------------------------------------- */

/* A new AttributeProto named `name` of `type`, to be filled by the caller and
 * then put in place with put_attr(). */
static osl_msg *new_attr(osl_msg *n, const char *name, int type) {
  osl_msg *a = onnxslim__msg_new(n->model, &osl_def_onnx_AttributeProto, NULL);
  if (!a) return NULL;
  osl_field f;
  if (onnxslim__fld_str(n->model, onnx_AttributeProto_name_tag, name, &f) ||
      onnxslim__msg_insert(a, SIZE_MAX, &f))
    return NULL;
  onnxslim__fld_varint(onnx_AttributeProto_type_tag, (uint64_t)type, &f);
  if (onnxslim__msg_insert(a, SIZE_MAX, &f)) return NULL;
  return a;
}

/* Replaces the node's attribute of the same name (same position) or appends. */
static int put_attr(osl_msg *n, osl_msg *a) {
  const char *name = onnxslim__msg_str(a, onnx_AttributeProto_name_tag);
  osl_field f;
  onnxslim__fld_sub(onnx_NodeProto_attribute_tag, a, &f);
  for (size_t i = 0; i < n->nf; i++) {
    osl_field *af = &n->f[i];
    if (af->number != onnx_NodeProto_attribute_tag || !af->sub) continue;
    const char *an = onnxslim__msg_str(af->sub, onnx_AttributeProto_name_tag);
    if (an && strcmp(an, name) == 0) return onnxslim__msg_replace(n, i, &f);
  }
  size_t count = onnxslim__msg_count(n, onnx_NodeProto_attribute_tag);
  return onnxslim__msg_insert(n, onnxslim__msg_pos_nth(n, onnx_NodeProto_attribute_tag, count), &f);
}

#define ATTR_BEGIN(type)                                                       \
  osl_msg *n = OSL_CHECK(node, onnx_NodeProto);                                \
  if (!n) return ONNXSLIM_EINVAL;                                              \
  if (!name) return onnxslim__err(ONNXSLIM_EINVAL, "%s: NULL name", __func__); \
  osl_msg *a = new_attr(n, name, type);                                        \
  if (!a) return onnxslim_error_last_code();                                   \
  osl_field f;                                                                 \
  int rc = 0

int onnxslim_node_set_attr_float(onnxslim_node *node, const char *name, float value) {
  ATTR_BEGIN(ONNXSLIM_ATTR_FLOAT);
  uint32_t bits;
  memcpy(&bits, &value, 4);
  onnxslim__fld_fixed32(onnx_AttributeProto_f_tag, bits, &f);
  rc = onnxslim__msg_insert(a, SIZE_MAX, &f);
  return rc ? rc : put_attr(n, a);
}

int onnxslim_node_set_attr_int(onnxslim_node *node, const char *name, int64_t value) {
  ATTR_BEGIN(ONNXSLIM_ATTR_INT);
  onnxslim__fld_varint(onnx_AttributeProto_i_tag, (uint64_t)value, &f);
  rc = onnxslim__msg_insert(a, SIZE_MAX, &f);
  return rc ? rc : put_attr(n, a);
}

int onnxslim_node_set_attr_string(onnxslim_node *node, const char *name, const void *data,
                                  size_t size) {
  if (!data && size) return onnxslim__err(ONNXSLIM_EINVAL, "%s: NULL data", __func__);
  ATTR_BEGIN(ONNXSLIM_ATTR_STRING);
  rc = onnxslim__fld_bytes(n->model, onnx_AttributeProto_s_tag, data, size, 0, &f);
  if (!rc) rc = onnxslim__msg_insert(a, SIZE_MAX, &f);
  return rc ? rc : put_attr(n, a);
}

int onnxslim_node_set_attr_floats(onnxslim_node *node, const char *name, const float *values,
                                  size_t count) {
  if (!values && count) return onnxslim__err(ONNXSLIM_EINVAL, "%s: NULL values", __func__);
  ATTR_BEGIN(ONNXSLIM_ATTR_FLOATS);
  /* unpacked, as ONNX's own tools write proto2 repeated scalars */
  for (size_t i = 0; i < count && !rc; i++) {
    uint32_t bits;
    memcpy(&bits, &values[i], 4);
    onnxslim__fld_fixed32(onnx_AttributeProto_floats_tag, bits, &f);
    rc = onnxslim__msg_insert(a, SIZE_MAX, &f);
  }
  return rc ? rc : put_attr(n, a);
}

int onnxslim_node_set_attr_ints(onnxslim_node *node, const char *name, const int64_t *values,
                                size_t count) {
  if (!values && count) return onnxslim__err(ONNXSLIM_EINVAL, "%s: NULL values", __func__);
  ATTR_BEGIN(ONNXSLIM_ATTR_INTS);
  for (size_t i = 0; i < count && !rc; i++) {
    onnxslim__fld_varint(onnx_AttributeProto_ints_tag, (uint64_t)values[i], &f);
    rc = onnxslim__msg_insert(a, SIZE_MAX, &f);
  }
  return rc ? rc : put_attr(n, a);
}

int onnxslim_node_set_attr_strings(onnxslim_node *node, const char *name, const char *const *values,
                                   const size_t *sizes, size_t count) {
  if (!values && count) return onnxslim__err(ONNXSLIM_EINVAL, "%s: NULL values", __func__);
  ATTR_BEGIN(ONNXSLIM_ATTR_STRINGS);
  for (size_t i = 0; i < count && !rc; i++) {
    size_t len = sizes ? sizes[i] : strlen(values[i]);
    rc = onnxslim__fld_bytes(n->model, onnx_AttributeProto_strings_tag, values[i], len, 0, &f);
    if (!rc) rc = onnxslim__msg_insert(a, SIZE_MAX, &f);
  }
  return rc ? rc : put_attr(n, a);
}

/* Copies each source message (a tensor or a graph, from any model) into the
 * attribute as field `number`. */
static int attr_copies(osl_msg *a, uint32_t number, const void *const *src, size_t count,
                       const osl_msgdef *def, const char *fn) {
  for (size_t i = 0; i < count; i++) {
    osl_msg *s = onnxslim__check(src[i], def, fn);
    if (!s) return ONNXSLIM_EINVAL;
    osl_msg *copy = onnxslim__msg_clone(a->model, s, a);
    if (!copy) return onnxslim_error_last_code();
    osl_field f;
    onnxslim__fld_sub(number, copy, &f);
    int rc = onnxslim__msg_insert(a, SIZE_MAX, &f);
    if (rc) return rc;
  }
  return 0;
}

int onnxslim_node_set_attr_tensor(onnxslim_node *node, const char *name,
                                  const onnxslim_tensor *tensor) {
  ATTR_BEGIN(ONNXSLIM_ATTR_TENSOR);
  (void)f;
  const void *src[1] = {tensor};
  rc = attr_copies(a, onnx_AttributeProto_t_tag, src, 1, &osl_def_onnx_TensorProto, __func__);
  return rc ? rc : put_attr(n, a);
}

int onnxslim_node_set_attr_tensors(onnxslim_node *node, const char *name,
                                   const onnxslim_tensor *const *tensors, size_t count) {
  if (!tensors && count) return onnxslim__err(ONNXSLIM_EINVAL, "%s: NULL tensors", __func__);
  ATTR_BEGIN(ONNXSLIM_ATTR_TENSORS);
  (void)f;
  rc = attr_copies(a, onnx_AttributeProto_tensors_tag, (const void *const *)tensors, count,
                   &osl_def_onnx_TensorProto, __func__);
  return rc ? rc : put_attr(n, a);
}

int onnxslim_node_set_attr_graph(onnxslim_node *node, const char *name, const onnxslim_graph *graph,
                                 onnxslim_graph **out) {
  if (out) *out = NULL;
  ATTR_BEGIN(ONNXSLIM_ATTR_GRAPH);
  osl_msg *g;
  if (graph) {
    const void *src[1] = {graph};
    rc = attr_copies(a, onnx_AttributeProto_g_tag, src, 1, &osl_def_onnx_GraphProto, __func__);
    if (rc) return rc;
    g = onnxslim__msg_sub(a, onnx_AttributeProto_g_tag);
  } else {
    g = onnxslim__msg_new(n->model, &osl_def_onnx_GraphProto, a);
    if (!g) return ONNXSLIM_ENOMEM;
    onnxslim__fld_sub(onnx_AttributeProto_g_tag, g, &f);
    rc = onnxslim__msg_insert(a, SIZE_MAX, &f);
    if (rc) return rc;
  }
  rc = put_attr(n, a);
  if (!rc && out) *out = (onnxslim_graph *)g;
  return rc;
}

int onnxslim_node_set_attr_graphs(onnxslim_node *node, const char *name,
                                  const onnxslim_graph *const *graphs, size_t count) {
  if (!graphs && count) return onnxslim__err(ONNXSLIM_EINVAL, "%s: NULL graphs", __func__);
  ATTR_BEGIN(ONNXSLIM_ATTR_GRAPHS);
  (void)f;
  rc = attr_copies(a, onnx_AttributeProto_graphs_tag, (const void *const *)graphs, count,
                   &osl_def_onnx_GraphProto, __func__);
  return rc ? rc : put_attr(n, a);
}

int onnxslim_node_remove_attr(onnxslim_node *node, const char *name) {
  osl_msg *n = OSL_CHECK(node, onnx_NodeProto);
  if (!n) return ONNXSLIM_EINVAL;
  if (!name) return onnxslim__err(ONNXSLIM_EINVAL, "%s: NULL name", __func__);
  for (size_t i = 0; i < n->nf; i++) {
    osl_field *af = &n->f[i];
    if (af->number != onnx_NodeProto_attribute_tag || !af->sub) continue;
    const char *an = onnxslim__msg_str(af->sub, onnx_AttributeProto_name_tag);
    if (an && strcmp(an, name) == 0) {
      onnxslim__msg_remove(n, i);
      return 0;
    }
  }
  return onnxslim__err(ONNXSLIM_ENOTFOUND, "node '%s' has no attribute '%s'",
                       onnxslim__msg_str(n, onnx_NodeProto_name_tag), name);
}

/* ---- deprecated names (0.1.0), each its replacement ----------------------- */

int onnxslim_attr_list_string(const onnxslim_attr *attr, size_t index, const char **data,
                              size_t *size) {
  return onnxslim_attr_strings(attr, index, data, size);
}
onnxslim_tensor *onnxslim_attr_list_tensor(const onnxslim_attr *attr, size_t index) {
  return onnxslim_attr_tensors(attr, index);
}
onnxslim_graph *onnxslim_attr_list_graph(const onnxslim_attr *attr, size_t index) {
  return onnxslim_attr_graphs(attr, index);
}
onnxslim_sparse_tensor *onnxslim_attr_list_sparse_tensor(const onnxslim_attr *attr, size_t index) {
  return onnxslim_attr_sparse_tensors(attr, index);
}
onnxslim_type *onnxslim_attr_list_type_proto(const onnxslim_attr *attr, size_t index) {
  return onnxslim_attr_type_protos(attr, index);
}
