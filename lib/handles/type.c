/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - value infos and types.
 */
#include "onnx.pb.h"

#include "handles.h"

#define V_OR(ret)                                  \
  osl_msg *v = OSL_CHECK(vi, onnx_ValueInfoProto); \
  if (!v) return ret

const char *onnxslim_value_info_name(const onnxslim_value_info *vi) {
  V_OR(NULL);
  return onnxslim__msg_str(v, onnx_ValueInfoProto_name_tag);
}
const char *onnxslim_value_info_doc_string(const onnxslim_value_info *vi) {
  V_OR(NULL);
  return onnxslim__msg_str(v, onnx_ValueInfoProto_doc_string_tag);
}
onnxslim_type *onnxslim_value_info_type(const onnxslim_value_info *vi) {
  V_OR(NULL);
  osl_msg *t = onnxslim__msg_sub(v, onnx_ValueInfoProto_type_tag);
  if (!t)
    onnxslim__err(ONNXSLIM_ENOTFOUND, "value '%s' has no type",
                  onnxslim__msg_str(v, onnx_ValueInfoProto_name_tag));
  return (onnxslim_type *)t;
}

#define TY_OR(ret)                              \
  osl_msg *t = OSL_CHECK(type, onnx_TypeProto); \
  if (!t) return ret

/* The kind's submessage of a TypeProto (the last value field wins). */
static osl_msg *kind_msg(const osl_msg *t, int *kind) {
  for (size_t i = t->nf; i-- > 0;) {
    const osl_field *f = &t->f[i];
    if (!f->sub) continue;
    switch (f->number) {
    case onnx_TypeProto_tensor_type_tag: *kind = ONNXSLIM_TYPE_TENSOR; return f->sub;
    case onnx_TypeProto_sequence_type_tag: *kind = ONNXSLIM_TYPE_SEQUENCE; return f->sub;
    case onnx_TypeProto_map_type_tag: *kind = ONNXSLIM_TYPE_MAP; return f->sub;
    case onnx_TypeProto_optional_type_tag: *kind = ONNXSLIM_TYPE_OPTIONAL; return f->sub;
    case onnx_TypeProto_sparse_tensor_type_tag: *kind = ONNXSLIM_TYPE_SPARSE_TENSOR; return f->sub;
    default: break;
    }
  }
  *kind = ONNXSLIM_TYPE_UNKNOWN;
  return NULL;
}

int onnxslim_type_kind(const onnxslim_type *type) {
  TY_OR(ONNXSLIM_TYPE_UNKNOWN);
  int kind;
  kind_msg(t, &kind);
  return kind;
}

const char *onnxslim_type_denotation(const onnxslim_type *type) {
  TY_OR(NULL);
  return onnxslim__msg_str(t, onnx_TypeProto_denotation_tag);
}

int32_t onnxslim_type_dtype(const onnxslim_type *type) {
  TY_OR(0);
  int kind;
  osl_msg *k = kind_msg(t, &kind);
  /* elem_type of Tensor / SparseTensor and key_type of Map are all field 1 */
  if (kind == ONNXSLIM_TYPE_TENSOR || kind == ONNXSLIM_TYPE_SPARSE_TENSOR ||
      kind == ONNXSLIM_TYPE_MAP)
    return (int32_t)onnxslim__msg_int(k, onnx_TypeProto_Tensor_elem_type_tag, 0);
  return 0;
}

onnxslim_type *onnxslim_type_inner(const onnxslim_type *type) {
  TY_OR(NULL);
  int kind;
  osl_msg *k = kind_msg(t, &kind);
  osl_msg *inner = NULL;
  if (kind == ONNXSLIM_TYPE_SEQUENCE)
    inner = onnxslim__msg_sub(k, onnx_TypeProto_Sequence_elem_type_tag);
  else if (kind == ONNXSLIM_TYPE_OPTIONAL)
    inner = onnxslim__msg_sub(k, onnx_TypeProto_Optional_elem_type_tag);
  else if (kind == ONNXSLIM_TYPE_MAP)
    inner = onnxslim__msg_sub(k, onnx_TypeProto_Map_value_type_tag);
  if (!inner) onnxslim__err(ONNXSLIM_ENOTFOUND, "type has no inner type");
  return (onnxslim_type *)inner;
}

static osl_msg *shape_of(const osl_msg *t) {
  int kind;
  osl_msg *k = kind_msg(t, &kind);
  if (kind != ONNXSLIM_TYPE_TENSOR && kind != ONNXSLIM_TYPE_SPARSE_TENSOR) return NULL;
  return onnxslim__msg_sub(k, onnx_TypeProto_Tensor_shape_tag);
}

int onnxslim_type_has_shape(const onnxslim_type *type) {
  TY_OR(0);
  return shape_of(t) != NULL;
}

size_t onnxslim_type_rank(const onnxslim_type *type) {
  TY_OR(0);
  osl_msg *s = shape_of(t);
  return s ? onnxslim__msg_count(s, onnx_TensorShapeProto_dim_tag) : 0;
}

int onnxslim_type_dim(const onnxslim_type *type, size_t index, int64_t *value, const char **param) {
  TY_OR(ONNXSLIM_EINVAL);
  if (value) *value = 0;
  if (param) *param = "";
  osl_msg *s = shape_of(t);
  if (!s) return onnxslim__err(ONNXSLIM_ERANGE, "type has no shape");
  osl_msg *d = onnxslim__msg_sub_at(s, onnx_TensorShapeProto_dim_tag, index);
  if (!d) return onnxslim_error_last_code();
  /* dim_value and dim_param form a oneof: the last one stored wins */
  for (size_t i = d->nf; i-- > 0;) {
    osl_field *f = &d->f[i];
    if (f->number == onnx_TensorShapeProto_Dimension_dim_value_tag && f->wt == OSL_WT_VARINT) {
      if (value) *value = (int64_t)f->u;
      return ONNXSLIM_DIM_VALUE;
    }
    if (f->number == onnx_TensorShapeProto_Dimension_dim_param_tag) {
      const char *p = onnxslim__field_cstr(d->model, f);
      if (!p) return ONNXSLIM_ENOMEM;
      if (param) *param = p;
      return ONNXSLIM_DIM_PARAM;
    }
  }
  return ONNXSLIM_DIM_UNKNOWN;
}

/* ---- value info edits ------------------------------------------------------------ */

int onnxslim_value_info_set_name(onnxslim_value_info *vi, const char *name) {
  V_OR(ONNXSLIM_EINVAL);
  if (!name) return onnxslim__err(ONNXSLIM_EINVAL, "%s: NULL name", __func__);
  return onnxslim__msg_set_str(v, onnx_ValueInfoProto_name_tag, name);
}

int onnxslim_value_info_set_type(onnxslim_value_info *vi, const onnxslim_type *type) {
  V_OR(ONNXSLIM_EINVAL);
  if (!type) {
    onnxslim__msg_remove_all(v, onnx_ValueInfoProto_type_tag);
    return 0;
  }
  osl_msg *src = OSL_CHECK(type, onnx_TypeProto);
  if (!src) return ONNXSLIM_EINVAL;
  osl_msg *copy = onnxslim__msg_clone(v->model, src, v);
  if (!copy) return onnxslim_error_last_code();
  osl_field f;
  onnxslim__fld_sub(onnx_ValueInfoProto_type_tag, copy, &f);
  return onnxslim__msg_set_field(v, &f);
}

static int add_sub(osl_msg *parent, uint32_t number, const osl_msgdef *def, osl_msg **out) {
  osl_msg *m = onnxslim__msg_new(parent->model, def, parent);
  if (!m) return ONNXSLIM_ENOMEM;
  osl_field f;
  onnxslim__fld_sub(number, m, &f);
  int rc = onnxslim__msg_insert(parent, SIZE_MAX, &f);
  *out = m;
  return rc;
}

int onnxslim_value_info_set_tensor_type(onnxslim_value_info *vi, int32_t dtype, const int64_t *dims,
                                        const char *const *params, size_t rank) {
  V_OR(ONNXSLIM_EINVAL);
  if (rank != SIZE_MAX && rank && !dims && !params)
    return onnxslim__err(ONNXSLIM_EINVAL, "%s: NULL dims", __func__);
  onnxslim_model *model = v->model;
  osl_msg *ty = onnxslim__msg_new(model, &osl_def_onnx_TypeProto, NULL), *tt, *shape, *dim;
  if (!ty) return ONNXSLIM_ENOMEM;
  int rc = add_sub(ty, onnx_TypeProto_tensor_type_tag, &osl_def_onnx_TypeProto_Tensor, &tt);
  osl_field f;
  if (!rc) {
    onnxslim__fld_varint(onnx_TypeProto_Tensor_elem_type_tag, (uint64_t)(int64_t)dtype, &f);
    rc = onnxslim__msg_insert(tt, SIZE_MAX, &f);
  }
  if (!rc && rank != SIZE_MAX) {
    rc = add_sub(tt, onnx_TypeProto_Tensor_shape_tag, &osl_def_onnx_TensorShapeProto, &shape);
    for (size_t i = 0; i < rank && !rc; i++) {
      rc = add_sub(shape, onnx_TensorShapeProto_dim_tag, &osl_def_onnx_TensorShapeProto_Dimension,
                   &dim);
      if (rc) break;
      if (params && params[i]) {
        rc = onnxslim__fld_str(model, onnx_TensorShapeProto_Dimension_dim_param_tag, params[i], &f);
        if (!rc) rc = onnxslim__msg_insert(dim, SIZE_MAX, &f);
      } else if (dims && dims[i] >= 0) {
        onnxslim__fld_varint(onnx_TensorShapeProto_Dimension_dim_value_tag, (uint64_t)dims[i], &f);
        rc = onnxslim__msg_insert(dim, SIZE_MAX, &f);
      }
    }
  }
  if (rc) return rc;
  onnxslim__fld_sub(onnx_ValueInfoProto_type_tag, ty, &f);
  return onnxslim__msg_set_field(v, &f);
}

int onnxslim_value_info_set_dtype(onnxslim_value_info *vi, int32_t dtype) {
  V_OR(ONNXSLIM_EINVAL);
  osl_msg *ty = onnxslim__msg_sub(v, onnx_ValueInfoProto_type_tag);
  int kind = ONNXSLIM_TYPE_UNKNOWN;
  osl_msg *k = ty ? kind_msg(ty, &kind) : NULL;
  if (!k || (kind != ONNXSLIM_TYPE_TENSOR && kind != ONNXSLIM_TYPE_SPARSE_TENSOR)) {
    if (ty && kind != ONNXSLIM_TYPE_UNKNOWN)
      return onnxslim__err(ONNXSLIM_ETYPE, "%s: value '%s' is not a tensor", __func__,
                           onnxslim__msg_str(v, onnx_ValueInfoProto_name_tag));
    return onnxslim_value_info_set_tensor_type(vi, dtype, NULL, NULL, SIZE_MAX);
  }
  return onnxslim__msg_set_int(k, onnx_TypeProto_Tensor_elem_type_tag, (uint64_t)(int64_t)dtype);
}

/* ---- deprecated names (0.1.0), each its replacement ----------------------- */

int32_t onnxslim_type_elem_type(const onnxslim_type *type) { return onnxslim_type_dtype(type); }
int onnxslim_value_info_set_elem_type(onnxslim_value_info *vi, int32_t elem_type) {
  return onnxslim_value_info_set_dtype(vi, elem_type);
}
