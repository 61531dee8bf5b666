/*
 * libonnxslim - internal declarations shared by the library's modules.
 * Never installed. Names start with onnxslim__ (functions) or osl_ (types).
 */
#ifndef ONNXSLIM_INTERNAL_H
#define ONNXSLIM_INTERNAL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "onnxslim.h"

/* ---- errors (error.c) -------------------------------------------------- */

/* Records code and a printf-style message as the thread's last error and
 * returns code, so callers can write `return onnxslim__err(...)`. */
int onnxslim__err(int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Records ONNXSLIM_EINVAL for an options (or stats) struct whose version
 * this library does not know, naming the versions it knows:
 * "unknown load options version 7 (this library knows versions 1 to 3)".
 * `what` names the struct ("load options"); max is its current version. */
int onnxslim__err_options_version(const char *who, const char *what, unsigned int version,
                                  unsigned int max);

/* Records ONNXSLIM_ENOMEM with "out of memory" and where: `what` says what
 * was being allocated ("out of memory: graph index"). Returns ONNXSLIM_ENOMEM. */
int onnxslim__err_nomem(const char *what);

/* ---- arena (arena.c) --------------------------------------------------- */

/* A bump allocator. Everything a model allocates while it lives comes from
 * its arena and is released at once by onnxslim__arena_free(). */
typedef struct osl_arena_block osl_arena_block;
typedef struct osl_arena {
  osl_arena_block *head;
  size_t block; /* size of the next block (0: the default, 64 KiB); doubles up to it */
  uint64_t total; /* bytes taken from malloc */
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

/* A pending transform of a LEN field's bytes (e.g. a dtype conversion),
 * applied chunk by chunk while saving so no converted copy is held. The
 * field's n is the transformed length. */
typedef struct osl_xform osl_xform;
struct osl_xform {
  const uint8_t *src; /* source bytes (in the model's mapping, buffer or arena) */
  size_t count;       /* elements */
  size_t in_size;     /* bytes per source element */
  size_t out_size;    /* bytes per output element */
  /* Transforms n elements from src to dst; returns 0 or a negative code. */
  int (*run)(const osl_xform *x, const uint8_t *src, size_t n, uint8_t *dst);
  unsigned int flags;
};

/* One field occurrence, in stored order. A model holds one per field of
 * its input (56 bytes on 64-bit systems): keep it small. */
typedef struct osl_field {
  uint32_t number;
  uint8_t wt;
  /* bytes of the original encoding before the payload (tag and length) of
   * a LEN field; the whole encoding of other fields */
  uint8_t hlen;
  union {
    uint64_t u;       /* value of VARINT / 32BIT / 64BIT fields */
    const uint8_t *p; /* payload of LEN fields */
  };
  size_t n;
  const uint8_t *raw; /* the field's original encoding (tag to end); NULL once edited */
  osl_msg *sub; /* parsed submessage of known message fields */
  char *cstr;   /* NUL-terminated copy of p[0..n), made on demand */
  const osl_xform *xform; /* pending transform: p is NULL, n the output length */
} osl_field;

/* Cached list of the occurrences of one repeated field number. When the
 * message's fields change the list is rebuilt in place on next use (its
 * arrays are reused), so repeated edits do not pile up copies. */
typedef struct osl_list {
  struct osl_list *next;
  uint32_t number;
  size_t count, cap;
  size_t *idx;  /* indices into msg->f */
  size_t slot;  /* where one more occurrence goes: after the last one, or by field number */
  void *values; /* decoded scalars (int64_t / float), made on demand */
  size_t nvalues;
} osl_list;

/* Fields queued for insertion into a message and fields removed from it,
 * applied together in one pass (onnxslim__msg_flush) before anything reads
 * the message's field array: so a batch of edits to a graph with n fields
 * costs O(n) once, not O(n) per edit. Only graphs queue. */
typedef struct osl_pend {
  size_t slot;  /* goes before msg->f[slot] (slot == nf: at the end) */
  int64_t key;  /* order among entries of one slot */
  osl_field field;
} osl_pend;
typedef struct osl_pendq {
  osl_pend *e;
  size_t count, cap;
  size_t dead;  /* fields of msg->f removed but still in place */
  int64_t seq;
  uint64_t numbers; /* bit min(field number, 63) of every field queued or removed */
} osl_pendq;

struct osl_msg {
  const osl_msgdef *def;
  onnxslim_model *model;
  osl_msg *parent;
  const uint8_t *p; /* original payload; NULL for a message built in memory */
  size_t n;
  osl_field *f;
  size_t nf;
  size_t capf;  /* capacity of f for edits (0: exactly nf, from parsing) */
  uint8_t dirty;    /* must be re-encoded: it or a descendant was edited */
  uint8_t detached; /* removed from its parent by an edit */
  uint8_t queued;   /* in its parent's pending queue, entry qidx (not yet in parent->f) */
  uint8_t ixstale;  /* its parent graph's index must (re)link it on next use (graph.c) */
  uint32_t fnum;    /* number of the parent's field that holds it */
  uint32_t pos;     /* hint: its position in parent->f (checked before use) */
  uint32_t qidx;
  uint64_t enc_size;
  osl_list *lists;
  int lists_stale; /* the lists must be rebuilt before use */
  osl_pendq *pq;   /* pending inserts and removals, or NULL */
  void *cache; /* kind-specific: graph index, tensor data, ... */
};

/* How a TensorProto is written by one save: its storage fields (raw_data,
 * typed data, external_data, data_location) are replaced by either raw_data
 * bytes (inline) or pre-encoded fields (external_data entries and
 * data_location). Other fields are written as usual. */
typedef struct osl_plan {
  const uint8_t *data; /* inline bytes, or NULL */
  size_t size;
  const osl_xform *xform;      /* inline bytes still to be transformed */
  const uint8_t *fields;       /* pre-encoded replacement fields, or NULL */
  size_t fields_len;
} osl_plan;

/* A save's plan: which tensors one save writes otherwise (an osl_plan
 * each); the messages above them are re-encoded. Held by the save, read by
 * the writer (msg_size_planned, msg_write_planned); the model itself is
 * not changed. Zero-initialize; saveplan_free releases it (wire.c). */
typedef struct osl_saveplan {
  struct osl_saveplan_entry *e;
  size_t count, cap;
  const osl_msg *last_parent; /* the parent of the tensor set last */
  int sealed;
} osl_saveplan;
/* Records that `tensor` is written as `plan` (borrowed until the plan is
 * freed). 0 or ONNXSLIM_ENOMEM. */
int onnxslim__saveplan_set(osl_saveplan *sp, const osl_msg *tensor, const osl_plan *plan);
/* Sorts the plan for lookups (msg_size_planned does it). */
void onnxslim__saveplan_seal(osl_saveplan *sp);
void onnxslim__saveplan_free(osl_saveplan *sp);

/* A run of mapped bytes released but not yet handed back (io.c). */
typedef struct osl_run {
  const uint8_t *lo, *hi;
} osl_run;

/* Tag of model handles: a model's first member points here, where every
 * message handle's first member points to its osl_msgdef, so passing a
 * model where a graph or node is expected (or the reverse) is detected. */
extern const osl_msgdef osl_def_model_handle;

struct onnxslim_model {
  const osl_msgdef *def; /* &osl_def_model_handle */
  osl_arena arena;
  const uint8_t *data; /* the whole serialized model */
  size_t size;
  void *map; /* mmap'ed region or NULL */
  size_t maplen;
  int fd; /* the mapped file, for copy_file_range; -1 if none */
  osl_run rel; /* released bytes of map not yet handed back (io.c) */
  void *owned; /* malloc'ed copy or NULL */
  osl_msg *root;
  unsigned int max_depth;
  uint64_t max_memory; /* for the arena while loading */
  uint64_t gen;        /* edit generation: bumped by every edit */
  osl_map names;       /* every name in the model, for unique names; once built,
                        * kept up to date by the edits (names only grow) */
  struct osl_gindex *indexes; /* live graph indexes (graph.c), freed with the model */
  uint64_t name_seq;   /* counter for generated names */
  char *base_dir;      /* for external data (NULL: none given) */
  char *path;          /* the model file as given to open (NULL: from a buffer) */
  struct osl_extfile *ext; /* external data files, mapped */
  size_t next, ext_cap;
};

/* An external data file a model references (extdata.c). */
typedef struct osl_extfile {
  char *path; /* resolved real path */
  void *map;
  size_t size;
  int fd;
  dev_t dev; /* identity: one mapping per file */
  ino_t ino;
  osl_run rel;
} osl_extfile;

/* Where an external tensor's bytes are (extdata.c; tensor.c keeps it). */
typedef struct osl_extref {
  size_t file; /* index into model->ext */
  uint64_t offset, length;
} osl_extref;

/* Graph indexes (graph.c). The edit primitives call gindex_before() before
 * field `number` of msg changes (old_sub: the submessage the change removes
 * or replaces, if any) and gindex_after() once it has (new_sub: the one it
 * adds); the index of every graph above msg then relinks the item that
 * changed the next time it is used. */
void onnxslim__gindex_before(osl_msg *msg, uint32_t number, osl_msg *old_sub);
void onnxslim__gindex_after(osl_msg *msg, uint32_t number, osl_msg *new_sub);
/* Creates a node (as onnxslim_graph_add_node) and puts it right before
 * (after = 0) or right after (after = 1) node `anchor` of graph g, without
 * applying the graph's queued edits. */
int onnxslim__graph_add_node_near(osl_msg *g, osl_msg *anchor, int after, const char *op_type,
                                  const char *domain, const char *name, const char *const *inputs,
                                  size_t n_inputs, const char *const *outputs, size_t n_outputs,
                                  osl_msg **out);
/* Forgets graph g's index (freed; rebuilt on next use). */
void onnxslim__gindex_drop(osl_msg *g);
/* Frees every index of the model. */
void onnxslim__gindex_free_all(onnxslim_model *model);
/* Every value info of graph g naming `name` (inputs, then outputs, then
 * value_info); *out is valid until the next edit. Returns the count (0 also
 * on error, with the last error set). */
size_t onnxslim__graph_value_infos(osl_msg *g, const char *name, osl_msg *const **out);
/* A name field f of msg was set, or a submessage f->sub was added: adds
 * the names to the model's name set when it is built (model.c). */
void onnxslim__names_note(onnxslim_model *model, const osl_msg *msg, osl_field *f);

/* Resolves and maps every external tensor of a freshly parsed model. */
int onnxslim__external_load(onnxslim_model *model);
/* Frees what external_load set up. */
void onnxslim__external_free(onnxslim_model *model);
/* The resolved external reference of a tensor (tensor.c keeps it). */
void onnxslim__tensor_set_extref(osl_msg *tensor, const void *ref);
const void *onnxslim__tensor_extref(const osl_msg *tensor);
/* 0 when every tensor stored externally now would still resolve from the
 * directory of `path` (the model's base directory) to the file it was
 * loaded from (not replaced or removed since), else ONNXSLIM_EINVAL saying
 * which tensor would not. */
int onnxslim__external_refs_resolve(const onnxslim_model *model, const char *path);
/* The value of external_data key `key` of tensor t, NULL when absent
 * (extdata.c). */
const char *onnxslim__external_entry(osl_msg *tensor, const char *key);
/* 1 if loc is an acceptable external data location (relative, "/"
 * separated, no "..", naming a file), else 0 with *why saying why not. */
int onnxslim__location_ok(const char *loc, const char **why);
/* The tensor's bytes as a save writes them: a pending transform (*x, with
 * *n its output length), or a pointer *p and length *n (tensor.c). */
int onnxslim__tensor_source(osl_msg *tensor, const osl_xform **x, const uint8_t **p, size_t *n);
/* The model's root message, or NULL with ONNXSLIM_EINVAL naming fn when
 * model is NULL or not a model handle (model.c). */
osl_msg *onnxslim__model_root(const onnxslim_model *model, const char *fn);
/* Bytes of an external tensor: pointer into the mapped file and length. */
int onnxslim__external_data(osl_msg *tensor, const uint8_t **data, size_t *size);

/* ONNXSLIM_ELIMIT unless a model file of `size` bytes fits protobuf's 2 GiB
 * limit or allow_large is set (io.c). */
int onnxslim__model_size_ok(const char *path, uint64_t size, int allow_large);

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

/* ---- edits (wire.c) ----------------------------------------------------- *
 * Every edit marks the message and its ancestors dirty (they are re-encoded
 * on save; everything else is spliced) and keeps what is derived from the
 * fields up to date at a cost that does not grow with the model: the
 * message's field lists are rebuilt on next use, the graph indexes above it
 * are told which item changed (graph.c), new names join the model's name
 * set (model.c). Removed submessages are detached, never freed: their memory
 * lives until the model is freed.
 *
 * Graphs take inserts and removals of their items lazily: they are queued
 * and applied in one pass by onnxslim__msg_flush() before anything reads
 * the graph's field array (every accessor below does). */

void onnxslim__msg_touch(osl_msg *msg);
/* Applies msg's queued inserts and removals. Never fails (the room is
 * reserved when they are queued). */
void onnxslim__msg_flush(osl_msg *msg);
#define OSL_FLUSH(m)                                                         \
  do {                                                                       \
    if ((m)->pq && ((m)->pq->count || (m)->pq->dead)) onnxslim__msg_flush((osl_msg *)(m)); \
  } while (0)
/* Adds a field after the last occurrence of its number (a graph queues it). */
int onnxslim__msg_append(osl_msg *msg, const osl_field *field);
/* Adds a submessage field right before (after = 0) or right after
 * (after = 1) the field holding `anchor`, a submessage of msg. */
int onnxslim__msg_insert_near(osl_msg *msg, const osl_msg *anchor, int after,
                              const osl_field *field);
/* Replaces the field at array position pos, keeping its schema entry. */
int onnxslim__msg_replace(osl_msg *msg, size_t pos, const osl_field *field);
/* Order of two submessages of one message (queued ones included): <0, 0, >0. */
int onnxslim__msg_order_cmp(const osl_msg *a, const osl_msg *b);
/* A new empty message of kind def under parent (parent may be NULL). */
osl_msg *onnxslim__msg_new(onnxslim_model *model, const osl_msgdef *def, osl_msg *parent);
/* Deep copy of src (from any model) as a new message of model under parent.
 * Payload bytes are shared when src belongs to the same model, else copied. */
osl_msg *onnxslim__msg_clone(onnxslim_model *model, const osl_msg *src, osl_msg *parent);
/* 0 when sub (and everything below it) put under msg stays within the
 * model's max_depth, else ONNXSLIM_ELIMIT. msg_insert and msg_set_field
 * check it; code that attaches a submessage by hand must call it. */
int onnxslim__msg_adopt_ok(const osl_msg *msg, const osl_msg *sub);
/* Inserts a field at array position pos (SIZE_MAX: append). A submessage
 * field's sub is re-parented to msg. ONNXSLIM_ELIMIT when that would nest
 * deeper than max_depth. */
int onnxslim__msg_insert(osl_msg *msg, size_t pos, const osl_field *field);
/* Position in msg->f where occurrence k of a repeated field number would go
 * (k == count: after the last occurrence, or by field number if none). */
size_t onnxslim__msg_pos_nth(const osl_msg *msg, uint32_t number, size_t k);
/* Removes the field at array position pos; its submessage is detached. */
void onnxslim__msg_remove(osl_msg *msg, size_t pos);
/* Removes every occurrence of number. */
void onnxslim__msg_remove_all(osl_msg *msg, uint32_t number);
/* Array position of the field holding sub, or SIZE_MAX. */
size_t onnxslim__msg_pos_of(const osl_msg *msg, const osl_msg *sub);
/* Field constructors (strings and bytes are copied into the model's arena
 * unless borrow is set). They return 0 or ONNXSLIM_ENOMEM. */
int onnxslim__fld_bytes(onnxslim_model *model, uint32_t number, const void *data, size_t n,
                        int borrow, osl_field *out);
int onnxslim__fld_str(onnxslim_model *model, uint32_t number, const char *s, osl_field *out);
void onnxslim__fld_varint(uint32_t number, uint64_t v, osl_field *out);
void onnxslim__fld_fixed32(uint32_t number, uint32_t v, osl_field *out);
void onnxslim__fld_sub(uint32_t number, osl_msg *sub, osl_field *out);
/* Replace the last occurrence of a singular field, or add it. */
int onnxslim__msg_set_str(osl_msg *msg, uint32_t number, const char *value);
int onnxslim__msg_set_int(osl_msg *msg, uint32_t number, uint64_t value);
int onnxslim__msg_set_field(osl_msg *msg, const osl_field *field);
/* Replaces all occurrences of a repeated string field by the given list. */
int onnxslim__msg_set_strs(osl_msg *msg, uint32_t number, const char *const *values, size_t n);
/* Replaces occurrence k of a repeated string field. */
int onnxslim__msg_set_str_at(osl_msg *msg, uint32_t number, size_t k, const char *value);
/* 1 if msg and all its ancestors are attached. */
int onnxslim__msg_attached(const osl_msg *msg);

/* ---- serialization (wire.c) ------------------------------------------- */

typedef struct osl_sink osl_sink;
struct osl_sink {
  /* Returns 0 or a negative code (with the last error set). */
  int (*write)(osl_sink *sink, const uint8_t *data, size_t size);
};

/* 1 for the TensorProto fields that say where and how its bytes are stored
 * (raw_data, typed data fields, external_data, data_location). */
int onnxslim__storage_field(uint32_t number);

/* Encoded size of msg's payload (no tag/length of its own). */
int onnxslim__msg_size(osl_msg *msg, uint64_t *size);
/* Writes msg's payload; onnxslim__msg_size() must have been called first. */
int onnxslim__msg_write(osl_msg *msg, osl_sink *sink);
/* The same for one save: the tensors of sp written as planned. */
int onnxslim__msg_size_planned(osl_msg *msg, osl_saveplan *sp, uint64_t *size);
int onnxslim__msg_write_planned(osl_msg *msg, const osl_saveplan *sp, osl_sink *sink);
/* A message of kind def made of the caller's fields f[0..n) (built with
 * the onnxslim__fld_* constructors; a submessage field's sub made the same
 * way), in no model: for onnxslim__fields_write. */
void onnxslim__msg_of_fields(osl_msg *m, const osl_msgdef *def, osl_field *f, size_t n);
/* Encodes fields f[0..n) as the payload of a message of kind def would
 * hold them, to sink. */
int onnxslim__fields_write(const osl_msgdef *def, osl_field *f, size_t n, osl_sink *sink);

/* ---- I/O (io.c) -------------------------------------------------------- */

/* The one loop over a transform's chunks (wire.c): runs x over its whole
 * source a chunk of elements at a time (2^18), each chunk into dst at its
 * offset when dst is given, else into one chunk-sized buffer; hands the
 * chunk's output to fn (when not NULL) and releases the chunk's source
 * pages (onnxslim__release). Stops at the first error. */
typedef int (*osl_chunk_fn)(void *payload, const uint8_t *out, size_t n);
int onnxslim__xform_chunks(const onnxslim_model *model, const osl_xform *x, uint8_t *dst,
                           osl_chunk_fn fn, void *payload);
/* Runs a field's transform over its whole source into dst (x->count *
 * x->out_size bytes), chunk by chunk. */
int onnxslim__xform_all(onnxslim_model *model, const osl_xform *x, uint8_t *dst);
/* Streams a field's transform into a sink, one chunk at a time. */
int onnxslim__xform_write(onnxslim_model *model, const osl_xform *x, osl_sink *sink);
/* Hints that the model's mapped bytes [p, p+n) are not needed for now, so
 * streaming over a large model does not grow the resident set. Cheap to
 * call for any range, however small: ranges that follow one another are
 * gathered, and pages go back to the kernel only in runs of several MiB
 * (one madvise per run), so a small model costs no system call. */
void onnxslim__release(const onnxslim_model *model, const void *p, size_t n);

/* Maps a regular file read-only; anything else (FIFO, device, directory) is
 * refused without blocking. */
int onnxslim__map_file(const char *path, void **map, size_t *len, int *fd);
/* Opens the relative path `rel` beneath the directory dirfd as openat()
 * with `flags` (O_CLOEXEC added; not O_CREAT) would, race-free: symlinks are
 * followed only while they stay beneath dirfd, and nothing resolves above
 * it (openat2 RESOLVE_BENEATH, or the same walk in user space where the
 * kernel lacks openat2). Returns the descriptor, or -1 with errno: EXDEV
 * when the path (a "..", an absolute symlink, a symlink climbing out)
 * would leave dirfd, ELOOP for too many symlinks. */
int onnxslim__open_beneath(int dirfd, const char *rel, int flags);
/* "a directory", "a FIFO", ... for messages. */
const char *onnxslim__file_kind(mode_t mode);
void onnxslim__unmap(void *map, size_t len);
/* The directory of `path` opened (O_RDONLY | O_DIRECTORY), *name pointing
 * at path's last segment; -1 with errno. */
int onnxslim__open_dir_of(const char *path, const char **name);
/* The directory that holds the last segment of `rel` (a checked relative
 * location), opened beneath basefd (a copy of basefd when rel has no '/');
 * *leaf points at that segment. -1 with errno (EXDEV: it leaves basefd). */
int onnxslim__open_parent_beneath(int basefd, const char *rel, const char **leaf);
/* An output file written to a temporary file next to `path` (after checking
 * `size` bytes fit: file-size limit, free space) and renamed into place by
 * commit; abort (also after commit) releases it and removes the temporary.
 * Every operation is relative to a descriptor of the output's directory,
 * kept open: the temporary (a side file ".NAME.tmp-...", below, locked
 * while written) is created with O_EXCL | O_NOFOLLOW, renamed with
 * renameat. */
typedef struct osl_out osl_out;
/* out_open_at: the directory of `path` is dirfd (borrowed, copied). */
osl_out *onnxslim__out_open_at(int dirfd, const char *path, uint64_t size,
                               const onnxslim_model *model);
/* The same for a data file `rel` (a checked relative location) beneath the
 * directory basefd (spelled `base` in messages): its directory is opened
 * beneath basefd (onnxslim__open_beneath), so nothing is written outside,
 * whatever is renamed meanwhile; a location leading out through a symlink
 * is refused with ONNXSLIM_EINVAL. */
osl_out *onnxslim__out_open_beneath(int basefd, const char *base, const char *rel, uint64_t size,
                                    const onnxslim_model *model);
osl_sink *onnxslim__out_sink(osl_out *out);
uint64_t onnxslim__out_pos(const osl_out *out);
uint64_t onnxslim__out_copied(const osl_out *out);
const char *onnxslim__out_path(const osl_out *out);
/* The output's directory (a descriptor the output owns, valid until abort;
 * its spelling for messages) and its current name in it. */
int onnxslim__out_dirfd(const osl_out *out);
const char *onnxslim__out_dir(const osl_out *out);
const char *onnxslim__out_name(const osl_out *out);
/* flush and fsync; the file stays open (and its temporary locked) until
 * the commit */
int onnxslim__out_finish(osl_out *out, int fsync_data);
int onnxslim__out_commit(osl_out *out, int fsync_dir);  /* rename into place */
/* Renames into place under another name in the same directory. */
int onnxslim__out_commit_to(osl_out *out, const char *name, int fsync_dir);
/* fsync of the output's directory (names renamed into it are durable). */
int onnxslim__out_sync_dir(const osl_out *out);
void onnxslim__out_abort(osl_out *out);
/* Renames into place under `name` (in the same directory) only if no file
 * is there: 0, or 1 when one is (the output is still pending), or an error
 * code. */
int onnxslim__out_claim(osl_out *out, const char *name);
/* Identity of the output's file (open until the commit). */
int onnxslim__out_identity(const osl_out *out, dev_t *dev, ino_t *ino);
/* The commit lock of destination `name` in the directory dfd (".D.lock"
 * next to it, see io.c): waits for it; NULL only without memory. The lock
 * keeps its own copy of dfd. lock_path: the same for a path. unlock
 * releases it (NULL: no-op). */
typedef struct osl_lock osl_lock;
osl_lock *onnxslim__dest_lock(int dfd, const char *name);
osl_lock *onnxslim__dest_lock_path(const char *path);
void onnxslim__dest_unlock(osl_lock *lock);
/* Number of tensors stored in external data now (extdata.c). */
size_t onnxslim__external_count(const onnxslim_model *model);
/* Side files of a destination D in the directory dfd (io.c):
 * ".D.KIND-PID-TID-..." in the same directory, every one made relative to
 * dfd and never through a symlink. side_create makes
 * ".D.KIND-PID-TID-XXXXXX" (O_EXCL | O_NOFOLLOW, mode 0600), locked (flock)
 * by the returned descriptor (-1 on error, `dir` spells dfd in messages);
 * *sname (its name in dfd) is malloc'ed. side_link links `name` to
 * ".D.bak-PID-TID-N" (a free N) and returns that name (malloc'ed). */
int onnxslim__side_create(int dfd, const char *dir, const char *name, const char *kind,
                          char **sname);
char *onnxslim__side_link(int dfd, const char *dir, const char *name);
/* Calls fn(ctx, dfd, name) for each stale side file of KIND of one of the
 * destinations bases[] (file names in dfd): its owner thread is gone (or
 * is the calling thread) and nobody holds a lock on it. side_clean removes
 * them. fn returns 0 or an error code (which stops the walk). */
int onnxslim__side_stale(int dfd, const char *const *bases, size_t nbases, const char *kind,
                         int (*fn)(void *ctx, int dfd, const char *name), void *ctx);
void onnxslim__side_clean(int dfd, const char *const *bases, size_t nbases, const char *kind);
/* 1 when st is the identity of a file the model reads (its model file or
 * an external data file, by the descriptors it keeps), else 0 (model.c). */
struct stat;
int onnxslim__model_reads(const onnxslim_model *model, const struct stat *st);
/* Atomically replaces `path` with `size` bytes produced by write_fn, after
 * removing the stale temporaries of earlier saves to it. *copied (may be
 * NULL) receives the bytes the kernel copied (copy_file_range). */
int onnxslim__atomic_write(const char *path, uint64_t size, int fsync_data,
                           int (*write_fn)(osl_sink *sink, void *payload), void *payload,
                           const onnxslim_model *model, uint64_t *copied);

/* ---- saves (passes/save.c, passes/save_external.c) ----------------------- */

/* The report of onnxslim_save(): one entry per tensor a save placed. */
struct osl_save_entry {
  char *name, *location; /* malloc'ed; location NULL for a tensor kept inline */
  int placement;         /* onnxslim_placement */
  uint64_t offset, length;
};
struct onnxslim_save_report {
  size_t count;
  struct osl_save_entry *e;
  uint64_t copied; /* bytes the kernel copied */
};
/* A save with the layout ONE_FILE, PER_TENSOR or INLINE; opts checked by
 * onnxslim_save() (version, layout, flags, align). *out (may be NULL)
 * receives the report. */
int onnxslim__save_external(onnxslim_save_report **out, const onnxslim_model *model,
                            const char *path, const onnxslim_save_options *opts);

/* ---- handle checks ----------------------------------------------------- */

/* Returns msg if it is non-NULL and of the given kind, else sets an
 * ONNXSLIM_EINVAL last error naming `fn` and returns NULL. */
osl_msg *onnxslim__check(const void *handle, const osl_msgdef *def, const char *fn);
#define OSL_CHECK(h, m) onnxslim__check((h), &osl_def_##m, __func__)

/* Tensor validation at load and after edits (tensor.c): checks dims and
 * (re)builds the tensor's cache. */
int onnxslim__tensor_validate(osl_msg *tensor, const char *where);
/* Replaces the tensor's data by a pending transform of it (dims kept),
 * stored as raw_data of data type dtype once saved. */
int onnxslim__tensor_set_xform(osl_msg *tensor, int32_t dtype, const osl_xform *x);

#endif /* ONNXSLIM_INTERNAL_H */
