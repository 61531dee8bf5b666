/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim (the command) - the text and JSON forms of data types, value
 * types, dims and storage.
 */
#include <inttypes.h>
#include <string.h>

#include "cli.h"
#include "json.h"

void sb_dtype(strbuf *sb, int32_t dtype) {
  const char *name = onnxslim_dtype_name(dtype);
  if (strcmp(name, "UNKNOWN") != 0) sb_puts(sb, name);
  else sb_printf(sb, "dtype(%" PRId32 ")", dtype);
}

/* The inner type of a sequence, optional or map; "?" when absent.
 * Returns 0 or -1 on a library error. */
static int sb_inner_type(strbuf *sb, const onnxslim_type *type) {
  const onnxslim_type *inner = onnxslim_type_inner(type);
  if (!inner) {
    if (onnxslim_error_last_code() != ONNXSLIM_ENOTFOUND) return -1;
    sb_puts(sb, "?");
    return 0;
  }
  return sb_type(sb, inner);
}

int sb_type(strbuf *sb, const onnxslim_type *type) {
  int kind = onnxslim_type_kind(type);
  size_t i, rank;

  switch (kind) {
  case ONNXSLIM_TYPE_TENSOR:
  case ONNXSLIM_TYPE_SPARSE_TENSOR:
    if (kind == ONNXSLIM_TYPE_SPARSE_TENSOR) sb_puts(sb, "sparse ");
    sb_dtype(sb, onnxslim_type_dtype(type));
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
      else if (dk == ONNXSLIM_DIM_PARAM && param && param[0]) sb_escaped(sb, param);
      else sb_puts(sb, "?");
    }
    sb_puts(sb, "]");
    return 0;
  case ONNXSLIM_TYPE_SEQUENCE:
    sb_puts(sb, "sequence<");
    if (sb_inner_type(sb, type) != 0) return -1;
    sb_puts(sb, ">");
    return 0;
  case ONNXSLIM_TYPE_OPTIONAL:
    sb_puts(sb, "optional<");
    if (sb_inner_type(sb, type) != 0) return -1;
    sb_puts(sb, ">");
    return 0;
  case ONNXSLIM_TYPE_MAP:
    sb_puts(sb, "map<");
    sb_dtype(sb, onnxslim_type_dtype(type));
    sb_puts(sb, ", ");
    if (sb_inner_type(sb, type) != 0) return -1;
    sb_puts(sb, ">");
    return 0;
  default: sb_puts(sb, "?"); return 0;
  }
}

int sb_tensor_dims(strbuf *sb, const onnxslim_tensor *t) {
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

const char *storage_name(int storage) {
  switch (storage) {
  case ONNXSLIM_STORAGE_RAW: return "raw_data";
  case ONNXSLIM_STORAGE_TYPED: return "typed";
  case ONNXSLIM_STORAGE_EXTERNAL: return "external";
  default: return "none";
  }
}

int json_value_type(json *j, const onnxslim_value_info *vi) {
  static const char *const kinds[] = {"unknown", "tensor",   "sequence",
                                      "map",     "optional", "sparse_tensor"};
  const onnxslim_type *type = onnxslim_value_info_type(vi);
  strbuf sb = {0};
  size_t i, rank;
  int kind;

  if (!type) {
    if (onnxslim_error_last_code() != ONNXSLIM_ENOTFOUND) return -1;
    json_knull(j, "type");
    json_knull(j, "kind");
    json_knull(j, "elem_type");
    json_knull(j, "shape");
    return 0;
  }
  if (sb_type(&sb, type) != 0) {
    sb_free(&sb);
    return -1;
  }
  json_kstr(j, "type", sb_str(&sb));
  kind = onnxslim_type_kind(type);
  json_kstr(j, "kind", kind >= 0 && kind <= 5 ? kinds[kind] : "unknown");
  json_key(j, "elem_type");
  if (kind == ONNXSLIM_TYPE_TENSOR || kind == ONNXSLIM_TYPE_SPARSE_TENSOR ||
      kind == ONNXSLIM_TYPE_MAP) {
    sb_reset(&sb);
    sb_dtype(&sb, onnxslim_type_dtype(type));
    json_str(j, sb_str(&sb));
  } else {
    json_null(j);
  }
  sb_free(&sb);
  json_key(j, "shape");
  if ((kind != ONNXSLIM_TYPE_TENSOR && kind != ONNXSLIM_TYPE_SPARSE_TENSOR) ||
      !onnxslim_type_has_shape(type)) {
    json_null(j);
    return 0;
  }
  rank = onnxslim_type_rank(type);
  json_array(j);
  for (i = 0; i < rank; i++) {
    int64_t value = 0;
    const char *param = "";
    int dk = onnxslim_type_dim(type, i, &value, &param);
    if (dk < 0) return -1;
    if (dk == ONNXSLIM_DIM_VALUE) json_int(j, value);
    else if (dk == ONNXSLIM_DIM_PARAM && param && param[0]) json_str(j, param);
    else json_null(j);
  }
  json_end(j);
  return 0;
}

int json_tensor_dims(json *j, const onnxslim_tensor *t) {
  size_t i, rank = onnxslim_tensor_rank(t);
  json_array(j);
  for (i = 0; i < rank; i++) {
    int64_t d = onnxslim_tensor_dim(t, i);
    if (d < 0) return -1;
    json_int(j, d);
  }
  json_end(j);
  return 0;
}
