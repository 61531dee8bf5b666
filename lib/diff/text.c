/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - the diff's texts: data types, value types, dims, storage,
 * op types and attribute values as the report shows them (raw: names are
 * not escaped; a NUL inside a string attribute is written \x00).
 */
#include <inttypes.h>
#include <string.h>

#include "diff/diff.h"

#define sb_puts onnxslim__sb_puts
#define sb_putn onnxslim__sb_putn
#define sb_printf onnxslim__sb_printf

/* A list attribute longer than this is shown around its first difference. */
#define LIST_SHOW 16

void onnxslim__diff_sb_dtype(osl_sbuf *sb, int32_t dtype) {
  const char *name = onnxslim_dtype_name(dtype);
  if (strcmp(name, "UNKNOWN") != 0) sb_puts(sb, name);
  else sb_printf(sb, "dtype(%" PRId32 ")", dtype);
}

/* The inner type of a sequence, optional or map; "?" when absent. 0 or -1. */
static int sb_inner_type(osl_sbuf *sb, const onnxslim_type *type) {
  const onnxslim_type *inner = onnxslim_type_inner(type);
  if (!inner) {
    if (onnxslim_error_last_code() != ONNXSLIM_ENOTFOUND) return -1;
    sb_puts(sb, "?");
    return 0;
  }
  return onnxslim__diff_sb_type(sb, inner);
}

int onnxslim__diff_sb_type(osl_sbuf *sb, const onnxslim_type *type) {
  int kind = onnxslim_type_kind(type);
  size_t i, rank;

  switch (kind) {
  case ONNXSLIM_TYPE_TENSOR:
  case ONNXSLIM_TYPE_SPARSE_TENSOR:
    if (kind == ONNXSLIM_TYPE_SPARSE_TENSOR) sb_puts(sb, "sparse ");
    onnxslim__diff_sb_dtype(sb, onnxslim_type_dtype(type));
    if (!onnxslim_type_has_shape(type)) {
      sb_puts(sb, " (no shape)");
      return 0;
    }
    rank = onnxslim_type_rank(type);
    sb_puts(sb, "[");
    for (i = 0; i < rank; i++) {
      int64_t value = 0;
      const char *param = "";
      int dk = onnxslim_type_dim(type, i, &value, &param);
      if (dk < 0) return -1;
      if (i > 0) sb_puts(sb, ", ");
      if (dk == ONNXSLIM_DIM_VALUE) sb_printf(sb, "%" PRId64, value);
      else if (dk == ONNXSLIM_DIM_PARAM && param && param[0]) sb_puts(sb, param);
      else sb_puts(sb, "?");
    }
    sb_puts(sb, "]");
    return 0;
  case ONNXSLIM_TYPE_SEQUENCE:
  case ONNXSLIM_TYPE_OPTIONAL:
    sb_puts(sb, kind == ONNXSLIM_TYPE_SEQUENCE ? "sequence<" : "optional<");
    if (sb_inner_type(sb, type) != 0) return -1;
    sb_puts(sb, ">");
    return 0;
  case ONNXSLIM_TYPE_MAP:
    sb_puts(sb, "map<");
    onnxslim__diff_sb_dtype(sb, onnxslim_type_dtype(type));
    sb_puts(sb, ", ");
    if (sb_inner_type(sb, type) != 0) return -1;
    sb_puts(sb, ">");
    return 0;
  default: sb_puts(sb, "?"); return 0;
  }
}

int onnxslim__diff_sb_vi_type(osl_sbuf *sb, const onnxslim_value_info *vi) {
  const onnxslim_type *t = onnxslim_value_info_type(vi);
  if (!t) {
    if (onnxslim_error_last_code() != ONNXSLIM_ENOTFOUND) return -1;
    sb_puts(sb, "(no type)");
    return 0;
  }
  return onnxslim__diff_sb_type(sb, t);
}

int onnxslim__diff_sb_tensor_dims(osl_sbuf *sb, const onnxslim_tensor *t) {
  size_t i, rank = onnxslim_tensor_rank(t);
  sb_puts(sb, "[");
  for (i = 0; i < rank; i++) {
    int64_t d = onnxslim_tensor_dim(t, i);
    if (d < 0) return -1;
    sb_printf(sb, "%s%" PRId64, i ? ", " : "", d);
  }
  sb_puts(sb, "]");
  return 0;
}

int onnxslim__diff_sb_tensor_type(osl_sbuf *sb, const onnxslim_tensor *t) {
  onnxslim__diff_sb_dtype(sb, onnxslim_tensor_dtype(t));
  return onnxslim__diff_sb_tensor_dims(sb, t);
}

const char *onnxslim__diff_storage_name(int storage) {
  switch (storage) {
  case ONNXSLIM_STORAGE_RAW: return "raw_data";
  case ONNXSLIM_STORAGE_TYPED: return "typed";
  case ONNXSLIM_STORAGE_EXTERNAL: return "external";
  default: return "none";
  }
}

const char *onnxslim__diff_op_domain(const char *domain) {
  return domain[0] && strcmp(domain, "ai.onnx") != 0 ? domain : "";
}

void onnxslim__diff_sb_op(osl_sbuf *sb, const onnxslim_node *n) {
  const char *dom = onnxslim__diff_op_domain(onnxslim_node_domain(n));
  if (dom[0]) sb_printf(sb, "%s:", dom);
  sb_puts(sb, onnxslim_node_op_type(n));
}

/* ---- attributes ------------------------------------------------------------------ */

static const char *attr_type_name(int type) {
  static const char *const names[] = {"UNDEFINED",      "FLOAT",      "INT",        "STRING",
                                      "TENSOR",         "GRAPH",      "FLOATS",     "INTS",
                                      "STRINGS",        "TENSORS",    "GRAPHS",     "SPARSE_TENSOR",
                                      "SPARSE_TENSORS", "TYPE_PROTO", "TYPE_PROTOS"};
  return type >= 0 && type < (int)(sizeof names / sizeof names[0]) ? names[type] : "UNKNOWN";
}

static void sb_float(osl_sbuf *sb, double v) { sb_printf(sb, "%.9g", v); }

/* The n bytes at s, a NUL byte as the four characters \x00. */
static void sb_put_nul_escaped(osl_sbuf *sb, const char *s, size_t n) {
  size_t i = 0;
  while (i < n) {
    size_t k = i;
    while (k < n && s[k]) k++;
    sb_putn(sb, s + i, k - i);
    if (k < n) sb_puts(sb, "\\x00");
    i = k + 1;
  }
}

static void sb_quoted(osl_sbuf *sb, const char *s, size_t n) {
  sb_puts(sb, "'");
  sb_put_nul_escaped(sb, s, n);
  sb_puts(sb, "'");
}

/* The text of element i of a FLOATS, INTS or STRINGS attribute. */
static int sb_list_elem(osl_sbuf *sb, const onnxslim_attr *at, int type, size_t i) {
  if (type == ONNXSLIM_ATTR_FLOATS) {
    const float *v;
    size_t n;
    if (onnxslim_attr_floats(at, &v, &n) != ONNXSLIM_OK) return -1;
    sb_float(sb, v[i]);
  } else if (type == ONNXSLIM_ATTR_INTS) {
    const int64_t *v;
    size_t n;
    if (onnxslim_attr_ints(at, &v, &n) != ONNXSLIM_OK) return -1;
    sb_printf(sb, "%" PRId64, v[i]);
  } else {
    const char *s;
    size_t n;
    if (onnxslim_attr_strings(at, i, &s, &n) != ONNXSLIM_OK) return -1;
    sb_quoted(sb, s, n);
  }
  return 0;
}

int onnxslim__diff_sb_list(osl_sbuf *sb, const onnxslim_attr *at, int type, size_t focus) {
  size_t i, n = onnxslim_attr_list_count(at);
  if (n > LIST_SHOW) {
    sb_printf(sb, "%zu values", n);
    if (focus < n) {
      sb_printf(sb, ", [%zu] = ", focus);
      return sb_list_elem(sb, at, type, focus);
    }
    return 0;
  }
  sb_puts(sb, "[");
  for (i = 0; i < n; i++) {
    if (i) sb_puts(sb, ", ");
    if (sb_list_elem(sb, at, type, i) != 0) return -1;
  }
  sb_puts(sb, "]");
  return 0;
}

int onnxslim__diff_sb_attr(osl_sbuf *sb, const onnxslim_attr *at, int with_type) {
  int type = onnxslim_attr_type(at);
  const char *ref = onnxslim_attr_ref_attr_name(at);
  if (ref && ref[0]) {
    sb_printf(sb, "@%s (%s)", ref, attr_type_name(type));
    return 0;
  }
  switch (type) {
  case ONNXSLIM_ATTR_FLOAT: {
    float f;
    if (onnxslim_attr_float(at, &f) != ONNXSLIM_OK) return -1;
    sb_float(sb, f);
    break;
  }
  case ONNXSLIM_ATTR_INT: {
    int64_t v;
    if (onnxslim_attr_int(at, &v) != ONNXSLIM_OK) return -1;
    sb_printf(sb, "%" PRId64, v);
    break;
  }
  case ONNXSLIM_ATTR_STRING: {
    const char *s;
    size_t n;
    if (onnxslim_attr_string(at, &s, &n) != ONNXSLIM_OK) return -1;
    sb_quoted(sb, s, n);
    break;
  }
  case ONNXSLIM_ATTR_FLOATS:
  case ONNXSLIM_ATTR_INTS:
  case ONNXSLIM_ATTR_STRINGS:
    if (onnxslim__diff_sb_list(sb, at, type, (size_t)-1) != 0) return -1;
    break;
  case ONNXSLIM_ATTR_TENSOR: {
    const onnxslim_tensor *t = onnxslim_attr_tensor(at);
    if (!t || onnxslim__diff_sb_tensor_type(sb, t) != 0) return -1;
    break;
  }
  case ONNXSLIM_ATTR_TYPE_PROTO: {
    const onnxslim_type *t = onnxslim_attr_type_proto(at);
    if (!t || onnxslim__diff_sb_type(sb, t) != 0) return -1;
    break;
  }
  case ONNXSLIM_ATTR_TENSORS:
  case ONNXSLIM_ATTR_GRAPHS:
  case ONNXSLIM_ATTR_SPARSE_TENSORS:
  case ONNXSLIM_ATTR_TYPE_PROTOS: sb_printf(sb, "%zu values", onnxslim_attr_list_count(at)); break;
  default: break;
  }
  if (with_type) sb_printf(sb, " (%s)", attr_type_name(type));
  return 0;
}

size_t onnxslim__diff_list_first_diff(const onnxslim_attr *x, const onnxslim_attr *y, int type) {
  size_t i, nx = onnxslim_attr_list_count(x), ny = onnxslim_attr_list_count(y);
  for (i = 0; i < nx && i < ny; i++) {
    if (type == ONNXSLIM_ATTR_FLOATS) {
      const float *a, *b;
      size_t n;
      if (onnxslim_attr_floats(x, &a, &n) || onnxslim_attr_floats(y, &b, &n)) return i;
      if (memcmp(&a[i], &b[i], sizeof a[i]) != 0) return i;
    } else if (type == ONNXSLIM_ATTR_INTS) {
      const int64_t *a, *b;
      size_t n;
      if (onnxslim_attr_ints(x, &a, &n) || onnxslim_attr_ints(y, &b, &n)) return i;
      if (a[i] != b[i]) return i;
    } else {
      const char *a, *b;
      size_t la, lb;
      if (onnxslim_attr_strings(x, i, &a, &la) || onnxslim_attr_strings(y, i, &b, &lb)) return i;
      if (la != lb || memcmp(a, b, la) != 0) return i;
    }
  }
  return nx == ny ? SIZE_MAX : i;
}
