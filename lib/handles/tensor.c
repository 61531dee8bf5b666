/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - tensors: metadata, data on demand, data types.
 */
#include <string.h>

#include "onnx.pb.h"

#include "handles.h"

/* ---- data types ---------------------------------------------------------- */

static const struct {
  const char *name;
  unsigned int bits;
} dtypes[] = {
    {"UNDEFINED", 0},      {"FLOAT", 32},       {"UINT8", 8},          {"INT8", 8},
    {"UINT16", 16},        {"INT16", 16},       {"INT32", 32},         {"INT64", 64},
    {"STRING", 0},         {"BOOL", 8},         {"FLOAT16", 16},       {"DOUBLE", 64},
    {"UINT32", 32},        {"UINT64", 64},      {"COMPLEX64", 64},     {"COMPLEX128", 128},
    {"BFLOAT16", 16},      {"FLOAT8E4M3FN", 8}, {"FLOAT8E4M3FNUZ", 8}, {"FLOAT8E5M2", 8},
    {"FLOAT8E5M2FNUZ", 8}, {"UINT4", 4},        {"INT4", 4},           {"FLOAT4E2M1", 4},
};
#define N_DTYPES ((int32_t)(sizeof dtypes / sizeof dtypes[0]))

const char *onnxslim_dtype_name(int32_t dtype) {
  return dtype >= 0 && dtype < N_DTYPES ? dtypes[dtype].name : "UNKNOWN";
}

unsigned int onnxslim_dtype_bits(int32_t dtype) {
  return dtype >= 0 && dtype < N_DTYPES ? dtypes[dtype].bits : 0;
}

/* ---- validation at load -------------------------------------------------- */

static int dims_count(const osl_msg *t, uint32_t dims_tag, int64_t *count, const char *where);

int onnxslim__tensor_copied(osl_msg *copy, const osl_msg *src) {
  int rc = onnxslim__tensor_validate(copy, "a copied tensor");
  if (!rc && copy->model == src->model)
    onnxslim__tensor_set_extref(copy, onnxslim__tensor_extref(src));
  return rc;
}

static int dims_count(const osl_msg *t, uint32_t dims_tag, int64_t *count, const char *where) {
  const int64_t *dims;
  size_t rank;
  int rc = onnxslim__msg_int64s(t, dims_tag, &dims, &rank);
  if (rc) return rc;
  int64_t c = 1;
  for (size_t i = 0; i < rank; i++) {
    if (dims[i] < 0)
      return onnxslim__err(ONNXSLIM_EMODEL, "negative dim %lld at index %zu of tensor '%s' in %s",
                           (long long)dims[i], i, onnxslim__msg_str(t, onnx_TensorProto_name_tag),
                           where);
    if (dims[i] && c > INT64_MAX / dims[i])
      return onnxslim__err(ONNXSLIM_EMODEL, "element count of tensor '%s' overflows in %s",
                           onnxslim__msg_str(t, onnx_TensorProto_name_tag), where);
    c *= dims[i];
  }
  *count = c;
  return 0;
}

int onnxslim__tensor_validate(osl_msg *t, const char *where) {
  osl_tcache *c = onnxslim__arena_alloc(&t->model->arena, sizeof *c);
  if (!c) return onnxslim__err_nomem(NULL);
  memset(c, 0, sizeof *c);
  int rc = dims_count(t, onnx_TensorProto_dims_tag, &c->count, where);
  if (rc) return rc;
  /* the name, copied now (while loading, from the parser's copy of the
   * bytes): a tensor's header sits between weights in the file, and
   * reading it later through the mapping would map the page-cache folio
   * around it, up to 2 MiB each (docs/design.md, "Memory") */
  if (!onnxslim__msg_str(t, onnx_TensorProto_name_tag)) return onnxslim__err_nomem(NULL);
  unsigned int bits =
      onnxslim_dtype_bits((int32_t)onnxslim__msg_int(t, onnx_TensorProto_data_type_tag, 0));
  if (bits && (uint64_t)c->count > (UINT64_MAX - 7) / bits)
    return onnxslim__err(ONNXSLIM_EMODEL, "byte size of tensor '%s' overflows in %s",
                         onnxslim__msg_str(t, onnx_TensorProto_name_tag), where);
  t->cache = c;
  return 0;
}

/* ---- accessors ------------------------------------------------------------ */

#define T_OR(ret)                                   \
  osl_msg *t = OSL_CHECK(tensor, onnx_TensorProto); \
  if (!t) return ret

const char *onnxslim_tensor_name(const onnxslim_tensor *tensor) {
  T_OR(NULL);
  return onnxslim__msg_str(t, onnx_TensorProto_name_tag);
}
const char *onnxslim_tensor_doc_string(const onnxslim_tensor *tensor) {
  T_OR(NULL);
  return onnxslim__msg_str(t, onnx_TensorProto_doc_string_tag);
}
int32_t onnxslim_tensor_dtype(const onnxslim_tensor *tensor) {
  T_OR(0);
  return (int32_t)onnxslim__msg_int(t, onnx_TensorProto_data_type_tag, 0);
}
size_t onnxslim_tensor_rank(const onnxslim_tensor *tensor) {
  T_OR(0);
  const int64_t *dims;
  size_t rank;
  return onnxslim__msg_int64s(t, onnx_TensorProto_dims_tag, &dims, &rank) ? 0 : rank;
}
int64_t onnxslim_tensor_dim(const onnxslim_tensor *tensor, size_t index) {
  T_OR(-1);
  const int64_t *dims;
  size_t rank;
  if (onnxslim__msg_int64s(t, onnx_TensorProto_dims_tag, &dims, &rank)) return -1;
  if (index >= rank) {
    onnxslim__err(ONNXSLIM_ERANGE, "dim index %zu out of range (rank %zu)", index, rank);
    return -1;
  }
  return dims[index];
}
int64_t onnxslim_tensor_element_count(const onnxslim_tensor *tensor) {
  T_OR(0);
  return ((osl_tcache *)t->cache)->count;
}

static int byte_size(const osl_msg *t, uint64_t *size) {
  int32_t dt = (int32_t)onnxslim__msg_int(t, onnx_TensorProto_data_type_tag, 0);
  unsigned int bits = onnxslim_dtype_bits(dt);
  if (!bits)
    return onnxslim__err(ONNXSLIM_EUNSUPPORTED, "tensor '%s': data type %d has no fixed size",
                         onnxslim__msg_str(t, onnx_TensorProto_name_tag), (int)dt);
  uint64_t count = (uint64_t)((osl_tcache *)t->cache)->count;
  if (count > UINT64_MAX / bits)
    return onnxslim__err(ONNXSLIM_ELIMIT, "tensor '%s': byte size overflows",
                         onnxslim__msg_str(t, onnx_TensorProto_name_tag));
  *size = (count * bits + 7) / 8;
  return 0;
}

int onnxslim_tensor_byte_size(const onnxslim_tensor *tensor, uint64_t *size) {
  T_OR(ONNXSLIM_EINVAL);
  if (!size) return onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_tensor_byte_size: NULL size");
  return byte_size(t, size);
}

/* Typed fields in the order the spec lists them. */
static const uint32_t typed_fields[] = {
    onnx_TensorProto_float_data_tag,  onnx_TensorProto_int32_data_tag,
    onnx_TensorProto_string_data_tag, onnx_TensorProto_int64_data_tag,
    onnx_TensorProto_double_data_tag, onnx_TensorProto_uint64_data_tag,
};

static int storage(const osl_msg *t) {
  if (onnxslim__msg_int(t, onnx_TensorProto_data_location_tag, 0) ==
      onnx_TensorProto_DataLocation_EXTERNAL)
    return ONNXSLIM_STORAGE_EXTERNAL;
  if (onnxslim__msg_has(t, onnx_TensorProto_raw_data_tag)) return ONNXSLIM_STORAGE_RAW;
  for (size_t i = 0; i < sizeof typed_fields / sizeof typed_fields[0]; i++)
    if (onnxslim__msg_has(t, typed_fields[i])) return ONNXSLIM_STORAGE_TYPED;
  return ONNXSLIM_STORAGE_NONE;
}

int onnxslim_tensor_storage(const onnxslim_tensor *tensor) {
  T_OR(ONNXSLIM_EINVAL);
  return storage(t);
}

/* Decodes the values of a typed field into the raw layout of dtype. */
static int typed_to_raw(osl_msg *t, int32_t dt, uint64_t need, const void **out) {
  const char *name = onnxslim__msg_str(t, onnx_TensorProto_name_tag);
  uint32_t field;
  unsigned int in_width; /* bytes per stored value */
  unsigned int out_width = onnxslim_dtype_bits(dt) / 8;
  switch (dt) {
  case ONNXSLIM_DTYPE_FLOAT:
  case ONNXSLIM_DTYPE_COMPLEX64:
    field = onnx_TensorProto_float_data_tag;
    in_width = 4;
    break;
  case ONNXSLIM_DTYPE_DOUBLE:
  case ONNXSLIM_DTYPE_COMPLEX128:
    field = onnx_TensorProto_double_data_tag;
    in_width = 8;
    break;
  case ONNXSLIM_DTYPE_INT64:
    field = onnx_TensorProto_int64_data_tag;
    in_width = 0;
    break;
  case ONNXSLIM_DTYPE_UINT32:
  case ONNXSLIM_DTYPE_UINT64:
    field = onnx_TensorProto_uint64_data_tag;
    in_width = 0;
    break;
  case ONNXSLIM_DTYPE_UINT4:
  case ONNXSLIM_DTYPE_INT4:
  case ONNXSLIM_DTYPE_FLOAT4E2M1: /* one int32 per packed byte */
    field = onnx_TensorProto_int32_data_tag;
    in_width = 0;
    out_width = 1;
    break;
  default:
    if (dt <= 0 || dt >= N_DTYPES || dt == ONNXSLIM_DTYPE_STRING)
      return onnxslim__err(ONNXSLIM_EUNSUPPORTED, "tensor '%s': data type %d has no byte layout",
                           name, (int)dt);
    field = onnx_TensorProto_int32_data_tag;
    in_width = 0;
  }
  /* count what is stored before allocating: dims may promise far more */
  uint8_t *buf;
  if (in_width == 4) {
    const float *f4;
    size_t have;
    int rc = onnxslim__msg_floats(t, field, &f4, &have);
    if (rc) return rc;
    if ((uint64_t)have * 4 != need) goto mismatch;
    buf = (uint8_t *)f4; /* already the raw layout, cached in the field list */
  } else if (in_width == 8) {
    osl_list *l = onnxslim__msg_list(t, field);
    if (!l) return onnxslim__err_nomem(NULL);
    uint64_t total = 0;
    for (size_t i = 0; i < l->count; i++) {
      osl_field *f = &t->f[l->idx[i]];
      total += f->wt == OSL_WT_LEN ? f->n : 8;
    }
    if (total != need) goto mismatch;
    buf = onnxslim__arena_alloc(&t->model->arena, need ? (size_t)need : 1);
    if (!buf) return onnxslim__err(ONNXSLIM_ENOMEM, "out of memory decoding tensor '%s'", name);
    size_t k = 0;
    for (size_t i = 0; i < l->count; i++) {
      osl_field *f = &t->f[l->idx[i]];
      if (f->wt == OSL_WT_LEN) {
        memcpy(buf + k, f->p, f->n);
        k += f->n;
      } else {
        for (int b = 0; b < 8; b++) buf[k++] = (uint8_t)(f->u >> (8 * b));
      }
    }
  } else {
    const int64_t *v;
    size_t have;
    int rc = onnxslim__msg_int64s(t, field, &v, &have);
    if (rc) return rc;
    if ((uint64_t)have * out_width != need) goto mismatch;
    buf = onnxslim__arena_alloc(&t->model->arena, need ? (size_t)need : 1);
    if (!buf) return onnxslim__err(ONNXSLIM_ENOMEM, "out of memory decoding tensor '%s'", name);
    for (size_t i = 0; i < have; i++)
      for (unsigned int b = 0; b < out_width; b++)
        buf[i * out_width + b] = (uint8_t)((uint64_t)v[i] >> (8 * b));
  }
  *out = buf;
  return 0;
mismatch:
  return onnxslim__err(ONNXSLIM_EMODEL,
                       "tensor '%s': stored values do not match its dims and type (%llu bytes "
                       "expected)",
                       name, (unsigned long long)need);
}

static int tensor_data(osl_msg *t, const void **data, size_t *size) {
  osl_tcache *c = t->cache;
  if (c->have_data) {
    *data = c->data;
    *size = c->size;
    return 0;
  }
  const char *name = onnxslim__msg_str(t, onnx_TensorProto_name_tag);
  int32_t dt = (int32_t)onnxslim__msg_int(t, onnx_TensorProto_data_type_tag, 0);
  uint64_t need;
  int rc = byte_size(t, &need);
  if (rc) return rc;
  if (need > SIZE_MAX) return onnxslim__err(ONNXSLIM_ELIMIT, "tensor '%s' is too large", name);
  switch (storage(t)) {
  case ONNXSLIM_STORAGE_EXTERNAL: {
    const uint8_t *p;
    size_t n;
    rc = onnxslim__external_data(t, &p, &n);
    if (rc) return rc;
    if (n != need)
      return onnxslim__err(ONNXSLIM_EMODEL,
                           "tensor '%s': external data has %zu bytes, dims and type need %llu",
                           name, n, (unsigned long long)need);
    c->data = p;
    break;
  }
  case ONNXSLIM_STORAGE_RAW: {
    osl_field *f = onnxslim__msg_last(t, onnx_TensorProto_raw_data_tag);
    if (f->xform && f->n == need) {
      /* a pending conversion: materialize it once, on request */
      uint8_t *buf = onnxslim__arena_alloc(&t->model->arena, need ? (size_t)need : 1);
      if (!buf) return onnxslim__err(ONNXSLIM_ENOMEM, "out of memory converting '%s'", name);
      rc = onnxslim__xform_all(t->model, f->xform, buf);
      if (rc) return rc;
      c->data = buf;
      break;
    }
    if (f->n != need)
      return onnxslim__err(ONNXSLIM_EMODEL,
                           "tensor '%s': raw_data has %zu bytes, dims and type need %llu", name,
                           f->n, (unsigned long long)need);
    c->data = f->p;
    break;
  }
  case ONNXSLIM_STORAGE_TYPED:
    rc = typed_to_raw(t, dt, need, &c->data);
    if (rc) return rc;
    break;
  default:
    if (need)
      return onnxslim__err(ONNXSLIM_EMODEL, "tensor '%s' has no data but %llu bytes are expected",
                           name, (unsigned long long)need);
    c->data = "";
  }
  c->size = (size_t)need;
  c->have_data = 1;
  *data = c->data;
  *size = c->size;
  return 0;
}

int onnxslim_tensor_data(const onnxslim_tensor *tensor, const void **data, size_t *size) {
  T_OR(ONNXSLIM_EINVAL);
  if (!data || !size) return onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_tensor_data: NULL out");
  return tensor_data(t, data, size);
}

int onnxslim_tensor_read(const onnxslim_tensor *tensor, uint64_t offset, void *buf, size_t size) {
  T_OR(ONNXSLIM_EINVAL);
  if (!buf && size) return onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_tensor_read: NULL buf");
  const void *data;
  size_t have;
  int rc = tensor_data(t, &data, &have);
  if (rc) return rc;
  if (offset > have || size > have - offset)
    return onnxslim__err(ONNXSLIM_ERANGE, "read of %zu bytes at %llu past the %zu bytes of '%s'",
                         size, (unsigned long long)offset, have,
                         onnxslim__msg_str(t, onnx_TensorProto_name_tag));
  /* from the file when the bytes are mapped (pread): reading tensors maps
   * none of the model's pages */
  return onnxslim__model_read(t->model, (const uint8_t *)data + offset, size, buf);
}

size_t onnxslim_tensor_string_count(const onnxslim_tensor *tensor) {
  T_OR(0);
  return onnxslim__msg_count(t, onnx_TensorProto_string_data_tag);
}

int onnxslim_tensor_string(const onnxslim_tensor *tensor, size_t index, const char **data,
                           size_t *size) {
  T_OR(ONNXSLIM_EINVAL);
  osl_field *f = onnxslim__msg_at(t, onnx_TensorProto_string_data_tag, index);
  if (!f) return onnxslim_error_last_code();
  const char *s = onnxslim__field_cstr(t->model, f);
  if (!s) return ONNXSLIM_ENOMEM;
  if (data) *data = s;
  if (size) *size = f->n;
  return 0;
}

/* ---- sparse tensors ------------------------------------------------------- */

#define S_OR(ret)                                         \
  osl_msg *s = OSL_CHECK(sparse, onnx_SparseTensorProto); \
  if (!s) return ret

onnxslim_tensor *onnxslim_sparse_tensor_values(const onnxslim_sparse_tensor *sparse) {
  S_OR(NULL);
  osl_msg *v = onnxslim__msg_sub(s, onnx_SparseTensorProto_values_tag);
  if (!v) onnxslim__err(ONNXSLIM_ENOTFOUND, "sparse tensor has no values");
  return (onnxslim_tensor *)v;
}
onnxslim_tensor *onnxslim_sparse_tensor_indices(const onnxslim_sparse_tensor *sparse) {
  S_OR(NULL);
  osl_msg *v = onnxslim__msg_sub(s, onnx_SparseTensorProto_indices_tag);
  if (!v) onnxslim__err(ONNXSLIM_ENOTFOUND, "sparse tensor has no indices");
  return (onnxslim_tensor *)v;
}
size_t onnxslim_sparse_tensor_rank(const onnxslim_sparse_tensor *sparse) {
  S_OR(0);
  const int64_t *dims;
  size_t rank;
  return onnxslim__msg_int64s(s, onnx_SparseTensorProto_dims_tag, &dims, &rank) ? 0 : rank;
}
int64_t onnxslim_sparse_tensor_dim(const onnxslim_sparse_tensor *sparse, size_t index) {
  S_OR(-1);
  const int64_t *dims;
  size_t rank;
  if (onnxslim__msg_int64s(s, onnx_SparseTensorProto_dims_tag, &dims, &rank)) return -1;
  if (index >= rank) {
    onnxslim__err(ONNXSLIM_ERANGE, "dim index %zu out of range (rank %zu)", index, rank);
    return -1;
  }
  return dims[index];
}

/* ---- tensor edits ------------------------------------------------------------- */

int onnxslim_tensor_set_name(onnxslim_tensor *tensor, const char *name) {
  T_OR(ONNXSLIM_EINVAL);
  if (!name) return onnxslim__err(ONNXSLIM_EINVAL, "%s: NULL name", __func__);
  return onnxslim__msg_set_str(t, onnx_TensorProto_name_tag, name);
}

/* Fields that hold or locate a tensor's data. */
static const uint32_t data_fields[] = {
    onnx_TensorProto_float_data_tag,    onnx_TensorProto_int32_data_tag,
    onnx_TensorProto_string_data_tag,   onnx_TensorProto_int64_data_tag,
    onnx_TensorProto_raw_data_tag,      onnx_TensorProto_double_data_tag,
    onnx_TensorProto_uint64_data_tag,   onnx_TensorProto_external_data_tag,
    onnx_TensorProto_data_location_tag, onnx_TensorProto_segment_tag,
};

int onnxslim_tensor_set_data(onnxslim_tensor *tensor, int32_t dtype, const int64_t *dims,
                             size_t rank, const void *data, size_t size, unsigned int flags) {
  T_OR(ONNXSLIM_EINVAL);
  if ((!dims && rank) || (!data && size))
    return onnxslim__err(ONNXSLIM_EINVAL, "%s: NULL dims or data", __func__);
  if (flags & ~ONNXSLIM_BORROW)
    return onnxslim__err(ONNXSLIM_EINVAL, "%s: reserved flags 0x%x set", __func__, flags);
  unsigned int bits = onnxslim_dtype_bits(dtype);
  if (!bits)
    return onnxslim__err(ONNXSLIM_EUNSUPPORTED, "%s: data type %d has no fixed element size",
                         __func__, (int)dtype);
  uint64_t count = 1;
  for (size_t i = 0; i < rank; i++) {
    if (dims[i] < 0 || (dims[i] && count > (uint64_t)INT64_MAX / (uint64_t)dims[i]))
      return onnxslim__err(ONNXSLIM_EINVAL, "%s: invalid dims", __func__);
    count *= (uint64_t)dims[i];
  }
  if (count > (UINT64_MAX - 7) / bits || (count * bits + 7) / 8 != size)
    return onnxslim__err(ONNXSLIM_EINVAL, "%s: %zu bytes given, dims and type need %llu", __func__,
                         size, (unsigned long long)((count * bits + 7) / 8));
  /* build all new fields before touching the tensor */
  osl_field raw, dt;
  int rc = onnxslim__fld_bytes(t->model, onnx_TensorProto_raw_data_tag, data, size,
                               (flags & ONNXSLIM_BORROW) != 0, &raw);
  if (rc) return rc;
  onnxslim__fld_varint(onnx_TensorProto_data_type_tag, (uint64_t)(int64_t)dtype, &dt);
  for (size_t i = 0; i < sizeof data_fields / sizeof data_fields[0]; i++)
    onnxslim__msg_remove_all(t, data_fields[i]);
  onnxslim__msg_remove_all(t, onnx_TensorProto_dims_tag);
  for (size_t i = 0; i < rank && !rc; i++) {
    osl_field d;
    onnxslim__fld_varint(onnx_TensorProto_dims_tag, (uint64_t)dims[i], &d);
    rc = onnxslim__msg_insert(t, onnxslim__msg_pos_nth(t, onnx_TensorProto_dims_tag, i), &d);
  }
  if (!rc) rc = onnxslim__msg_set_field(t, &dt);
  if (!rc)
    rc = onnxslim__msg_insert(t, onnxslim__msg_pos_nth(t, onnx_TensorProto_raw_data_tag, 0), &raw);
  if (!rc) rc = onnxslim__tensor_validate(t, "an edited tensor");
  return rc;
}

int onnxslim__tensor_set_xform(osl_msg *t, int32_t dtype, const osl_xform *x) {
  osl_field raw, dt;
  memset(&raw, 0, sizeof raw);
  raw.number = onnx_TensorProto_raw_data_tag;
  raw.wt = OSL_WT_LEN;
  raw.xform = x;
  raw.n = x->count * x->out_size;
  onnxslim__fld_varint(onnx_TensorProto_data_type_tag, (uint64_t)(int64_t)dtype, &dt);
  for (size_t i = 0; i < sizeof data_fields / sizeof data_fields[0]; i++)
    onnxslim__msg_remove_all(t, data_fields[i]);
  int rc = onnxslim__msg_set_field(t, &dt);
  if (!rc)
    rc = onnxslim__msg_insert(t, onnxslim__msg_pos_nth(t, onnx_TensorProto_raw_data_tag, 0), &raw);
  if (!rc) rc = onnxslim__tensor_validate(t, "a converted tensor");
  return rc;
}

/* The tensor's bytes: a pending conversion, or a pointer. */
int onnxslim__tensor_source(osl_msg *t, const osl_xform **x, const uint8_t **p, size_t *n) {
  osl_field *raw = onnxslim__msg_last(t, onnx_TensorProto_raw_data_tag);
  *x = NULL;
  if (raw && raw->xform && onnxslim_tensor_storage((onnxslim_tensor *)t) == ONNXSLIM_STORAGE_RAW) {
    *x = raw->xform;
    *p = NULL;
    *n = raw->n;
    return 0;
  }
  const void *d;
  int rc = onnxslim_tensor_data((onnxslim_tensor *)t, &d, n);
  *p = d;
  return rc;
}

/* Bytes of the tensor as a save writes them, a pending transform's made
 * piece by piece. */
int onnxslim__tensor_read_out(osl_msg *t, uint64_t off, void *buf, size_t n) {
  osl_field *raw = onnxslim__msg_last(t, onnx_TensorProto_raw_data_tag);
  if (!((osl_tcache *)t->cache)->have_data && raw && raw->xform &&
      onnxslim_tensor_storage((onnxslim_tensor *)t) == ONNXSLIM_STORAGE_RAW &&
      raw->n == raw->xform->count * raw->xform->out_size)
    return onnxslim__xform_read(t->model, raw->xform, off, buf, n);
  return onnxslim_tensor_read((onnxslim_tensor *)t, off, buf, n);
}
