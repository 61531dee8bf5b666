/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - the ONNX message schema, taken from the nanopb code that the
 * build generates from onnx.proto (lib/proto/onnx.options configures it).
 * Each message's FIELDLIST X-macro lists (allocation, label, type, name,
 * number); *_MSGTYPE macros name the type of message fields. We expand them
 * into our own tables so that the parser, the writer and error messages all
 * follow the bundled .proto without hand-written field numbers.
 */
#include "onnx.pb.h"

#include "wire/wire.h"

#define OSL_CAT_(a, b) a##b
#define OSL_CAT(a, b) OSL_CAT_(a, b)

#define OSL_KIND_INT32 OSL_KIND_VARINT
#define OSL_KIND_INT64 OSL_KIND_VARINT
#define OSL_KIND_UINT32 OSL_KIND_VARINT
#define OSL_KIND_UINT64 OSL_KIND_VARINT
#define OSL_KIND_UENUM OSL_KIND_VARINT
#define OSL_KIND_ENUM OSL_KIND_VARINT
#define OSL_KIND_BOOL OSL_KIND_VARINT
#define OSL_KIND_FLOAT OSL_KIND_FIXED32
#define OSL_KIND_DOUBLE OSL_KIND_FIXED64
#define OSL_KIND_STRING OSL_KIND_LEN
#define OSL_KIND_BYTES OSL_KIND_LEN
#define OSL_KIND_MESSAGE OSL_KIND_MSG

#define OSL_REP_OPTIONAL 0
#define OSL_REP_REQUIRED 0
#define OSL_REP_SINGULAR 0
#define OSL_REP_REPEATED 1

#define OSL_SUB_NONE(msg, fname) NULL
#define OSL_SUB_INT32 OSL_SUB_NONE
#define OSL_SUB_INT64 OSL_SUB_NONE
#define OSL_SUB_UINT32 OSL_SUB_NONE
#define OSL_SUB_UINT64 OSL_SUB_NONE
#define OSL_SUB_UENUM OSL_SUB_NONE
#define OSL_SUB_ENUM OSL_SUB_NONE
#define OSL_SUB_BOOL OSL_SUB_NONE
#define OSL_SUB_FLOAT OSL_SUB_NONE
#define OSL_SUB_DOUBLE OSL_SUB_NONE
#define OSL_SUB_STRING OSL_SUB_NONE
#define OSL_SUB_BYTES OSL_SUB_NONE
#define OSL_SUB_MESSAGE(msg, fname) &OSL_CAT(osl_def_, msg##_##fname##_MSGTYPE)

#define OSL_FIELD(msg, atype, htype, ltype, fname, number) \
  {number, OSL_KIND_##ltype, OSL_REP_##htype, #fname, OSL_SUB_##ltype(msg, fname)},

#define OSL_DEFINE(m)                                                         \
  static const osl_fielddef osl_fields_##m[] = {m##_FIELDLIST(OSL_FIELD, m)}; \
  const osl_msgdef osl_def_##m = {&#m[5], osl_fields_##m,                     \
                                  sizeof osl_fields_##m / sizeof osl_fields_##m[0]};
OSL_MESSAGES(OSL_DEFINE)

const osl_fielddef *onnxslim__schema_field(const osl_msgdef *def, uint32_t number) {
  for (uint32_t i = 0; i < def->nfields; i++)
    if (def->fields[i].number == number) return &def->fields[i];
  return NULL;
}
