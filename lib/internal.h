/*
 * libonnxslim - internal declarations shared by the library's modules.
 * Never installed. Names start with onnxslim__ (functions) or osl_ (types).
 */
#ifndef ONNXSLIM_INTERNAL_H
#define ONNXSLIM_INTERNAL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "onnxslim.h"

/* ---- errors (error.c) -------------------------------------------------- */

/* Records code and a printf-style message as the thread's last error and
 * returns code, so callers can write `return onnxslim__err(...)`. */
int onnxslim__err(int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* ---- arena (arena.c) --------------------------------------------------- */

/* A bump allocator. Everything a model allocates while it lives comes from
 * its arena and is released at once by onnxslim__arena_free(). */
typedef struct osl_arena_block osl_arena_block;
typedef struct osl_arena {
  osl_arena_block *head;
} osl_arena;

void *onnxslim__arena_alloc(osl_arena *arena, size_t size);
void *onnxslim__arena_dup(osl_arena *arena, const void *data, size_t size);
/* Copies size bytes and appends a NUL. */
char *onnxslim__arena_strndup(osl_arena *arena, const void *data, size_t size);
void onnxslim__arena_free(osl_arena *arena);

/* ---- name map (arena.c) ------------------------------------------------ */

/* An open-addressing map from NUL-terminated names to pointers. Keys are
 * borrowed (they live in the model's arena). */
typedef struct osl_map_entry {
  const char *key;
  uint64_t hash;
  void *value;
} osl_map_entry;
typedef struct osl_map {
  osl_map_entry *slots;
  size_t cap; /* power of two or 0 */
  size_t len;
} osl_map;

uint64_t onnxslim__hash(const char *s);
/* Returns the slot for key: an empty slot (key NULL) if absent. Never NULL
 * once the map has capacity. */
osl_map_entry *onnxslim__map_slot(osl_map *map, const char *key);
/* Inserts key -> value unless key exists (then keeps the old value).
 * Returns the entry or NULL on allocation failure. */
osl_map_entry *onnxslim__map_put(osl_arena *arena, osl_map *map, const char *key, void *value);
void *onnxslim__map_get(const osl_map *map, const char *key);

/* ---- schema (schema.c) ------------------------------------------------- *
 * The message schema comes from the nanopb code generated from onnx.proto:
 * each message's FIELDLIST macro gives field numbers, names, kinds and
 * submessage types. */

enum osl_kind {
  OSL_KIND_VARINT = 0, /* int32, int64, uint64, enum, bool */
  OSL_KIND_FIXED32 = 1,
  OSL_KIND_FIXED64 = 2,
  OSL_KIND_LEN = 3, /* string, bytes */
  OSL_KIND_MSG = 4
};

typedef struct osl_msgdef osl_msgdef;
typedef struct osl_fielddef {
  uint32_t number;
  uint8_t kind;     /* enum osl_kind */
  uint8_t repeated; /* 1 if repeated */
  const char *name;
  const osl_msgdef *sub; /* for OSL_KIND_MSG */
} osl_fielddef;

struct osl_msgdef {
  const char *name;
  const osl_fielddef *fields;
  uint32_t nfields;
};

const osl_fielddef *onnxslim__schema_field(const osl_msgdef *def, uint32_t number);

#define OSL_DECLARE_DEF(m) extern const osl_msgdef osl_def_##m;
#define OSL_MESSAGES(M)                                                                      \
  M(onnx_AttributeProto)                                                                     \
  M(onnx_ValueInfoProto)                                                                     \
  M(onnx_NodeProto)                                                                          \
  M(onnx_TrainingInfoProto)                                                                  \
  M(onnx_ModelProto)                                                                         \
  M(onnx_StringStringEntryProto)                                                             \
  M(onnx_TensorAnnotation)                                                                   \
  M(onnx_GraphProto)                                                                         \
  M(onnx_TensorProto)                                                                        \
  M(onnx_TensorProto_Segment)                                                                \
  M(onnx_SparseTensorProto)                                                                  \
  M(onnx_TensorShapeProto)                                                                   \
  M(onnx_TensorShapeProto_Dimension)                                                         \
  M(onnx_TypeProto)                                                                          \
  M(onnx_TypeProto_Tensor)                                                                   \
  M(onnx_TypeProto_Sequence)                                                                 \
  M(onnx_TypeProto_Map)                                                                      \
  M(onnx_TypeProto_Optional)                                                                 \
  M(onnx_TypeProto_SparseTensor)                                                             \
  M(onnx_OperatorSetIdProto)                                                                 \
  M(onnx_FunctionProto)
OSL_MESSAGES(OSL_DECLARE_DEF)

/* ---- message tree (wire.c) --------------------------------------------- */

/* Wire types (protobuf encoding). */
#define OSL_WT_VARINT 0
#define OSL_WT_64BIT 1
#define OSL_WT_LEN 2
#define OSL_WT_32BIT 5

typedef struct osl_msg osl_msg;

/* One field occurrence, in stored order. */
typedef struct osl_field {
  uint32_t number;
  uint8_t wt;
  const osl_fielddef *def; /* NULL for fields the schema does not know */
  uint64_t u;              /* value of VARINT / 32BIT / 64BIT fields */
  const uint8_t *p;        /* payload of LEN fields */
  size_t n;
  const uint8_t *raw; /* the field's original encoding (tag to end); NULL once edited */
  size_t rawlen;
  osl_msg *sub; /* parsed submessage of known message fields */
  char *cstr;   /* NUL-terminated copy of p[0..n), made on demand */
} osl_field;

/* Cached list of the occurrences of one repeated field number. */
typedef struct osl_list {
  struct osl_list *next;
  uint32_t number;
  size_t count;
  size_t *idx;  /* indices into msg->f */
  void *values; /* decoded scalars (int64_t / float), made on demand */
  size_t nvalues;
} osl_list;

struct osl_msg {
  const osl_msgdef *def;
  onnxslim_model *model;
  osl_msg *parent;
  const uint8_t *p; /* original payload; NULL for a message built in memory */
  size_t n;
  osl_field *f;
  size_t nf;
  int dirty; /* must be re-encoded: it or a descendant was edited */
  uint64_t enc_size;
  osl_list *lists;
  void *cache; /* kind-specific: graph index, tensor data, ... */
};

struct onnxslim_model {
  osl_arena arena;
  const uint8_t *data; /* the whole serialized model */
  size_t size;
  void *map; /* mmap'ed region or NULL */
  size_t maplen;
  void *owned; /* malloc'ed copy or NULL */
  osl_msg *root;
  unsigned int max_depth;
};

/* Parses `size` bytes at `data` into model->root. */
int onnxslim__parse_model(onnxslim_model *model);

/* Field access. "last" = last occurrence (protobuf semantics for singular
 * fields). All return NULL when absent. */
osl_field *onnxslim__msg_last(const osl_msg *msg, uint32_t number);
osl_list *onnxslim__msg_list(const osl_msg *msg, uint32_t number); /* NULL on ENOMEM */
size_t onnxslim__msg_count(const osl_msg *msg, uint32_t number);
osl_field *onnxslim__msg_at(const osl_msg *msg, uint32_t number, size_t index);
osl_msg *onnxslim__msg_sub_at(const osl_msg *msg, uint32_t number, size_t index);
osl_msg *onnxslim__msg_sub(const osl_msg *msg, uint32_t number); /* last occurrence */
const char *onnxslim__field_cstr(onnxslim_model *model, osl_field *field); /* NULL on ENOMEM */
/* String value of occurrence `index` of a repeated string field; NULL on error. */
const char *onnxslim__msg_str_at(const osl_msg *msg, uint32_t number, size_t index);
/* String value of a singular field: "" when absent, NULL on ENOMEM. */
const char *onnxslim__msg_str(const osl_msg *msg, uint32_t number);
/* Integer value of a singular varint field, or dflt. */
int64_t onnxslim__msg_int(const osl_msg *msg, uint32_t number, int64_t dflt);
int onnxslim__msg_has(const osl_msg *msg, uint32_t number);
/* All values of a repeated int64 (varint) / float field, packed or not. */
int onnxslim__msg_int64s(const osl_msg *msg, uint32_t number, const int64_t **vals, size_t *count);
int onnxslim__msg_floats(const osl_msg *msg, uint32_t number, const float **vals, size_t *count);

/* Edits: replace (or add) a singular string field; marks the message and its
 * ancestors dirty. */
int onnxslim__msg_set_str(osl_msg *msg, uint32_t number, const char *value);
void onnxslim__msg_touch(osl_msg *msg);

/* ---- serialization (wire.c) ------------------------------------------- */

typedef struct osl_sink osl_sink;
struct osl_sink {
  /* Returns 0 or a negative code (with the last error set). */
  int (*write)(osl_sink *sink, const uint8_t *data, size_t size);
};

/* Encoded size of msg's payload (no tag/length of its own). */
int onnxslim__msg_size(osl_msg *msg, uint64_t *size);
/* Writes msg's payload; onnxslim__msg_size() must have been called first. */
int onnxslim__msg_write(osl_msg *msg, osl_sink *sink);

/* ---- I/O (io.c) -------------------------------------------------------- */

int onnxslim__map_file(const char *path, void **map, size_t *len);
void onnxslim__unmap(void *map, size_t len);
/* Atomically replaces `path` with `size` bytes produced by write_fn. */
int onnxslim__atomic_write(const char *path, uint64_t size, int fsync_data,
                           int (*write_fn)(osl_sink *sink, void *payload), void *payload,
                           const void *drop_base, size_t drop_len);

/* ---- handle checks ----------------------------------------------------- */

/* Returns msg if it is non-NULL and of the given kind, else sets an
 * ONNXSLIM_EINVAL last error naming `fn` and returns NULL. */
osl_msg *onnxslim__check(const void *handle, const osl_msgdef *def, const char *fn);
#define OSL_CHECK(h, m) onnxslim__check((h), &osl_def_##m, __func__)

/* Index of the graph (graph.c); dropped when the graph changes. */
void onnxslim__graph_invalidate(osl_msg *graph);

/* Tensor validation at load (tensor.c). */
int onnxslim__tensor_validate(osl_msg *tensor, const char *where);

#endif /* ONNXSLIM_INTERNAL_H */
