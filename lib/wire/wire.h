/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - wire tier: the schema, the message tree over a model's
 * bytes, its edits and its encoding, the model's mapped files as sources
 * of output bytes, handle checks. Never installed. The files of lib/wire/
 * include this header only; it calls nothing above it (the handles' part in
 * parses and edits comes through model->hooks). See base/base.h for the
 * tiers.
 */
#ifndef ONNXSLIM_WIRE_H
#define ONNXSLIM_WIRE_H

#include "base/base.h"

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
#define OSL_MESSAGES(M)              \
  M(onnx_AttributeProto)             \
  M(onnx_ValueInfoProto)             \
  M(onnx_NodeProto)                  \
  M(onnx_TrainingInfoProto)          \
  M(onnx_ModelProto)                 \
  M(onnx_StringStringEntryProto)     \
  M(onnx_TensorAnnotation)           \
  M(onnx_GraphProto)                 \
  M(onnx_TensorProto)                \
  M(onnx_TensorProto_Segment)        \
  M(onnx_SparseTensorProto)          \
  M(onnx_TensorShapeProto)           \
  M(onnx_TensorShapeProto_Dimension) \
  M(onnx_TypeProto)                  \
  M(onnx_TypeProto_Tensor)           \
  M(onnx_TypeProto_Sequence)         \
  M(onnx_TypeProto_Map)              \
  M(onnx_TypeProto_Optional)         \
  M(onnx_TypeProto_SparseTensor)     \
  M(onnx_OperatorSetIdProto)         \
  M(onnx_FunctionProto)
OSL_MESSAGES(OSL_DECLARE_DEF)

/* ---- message tree (parse.c, edit.c, write.c, xform.c) -------------------- */

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
  /* Transforms n elements from src to dst; first is the index of src's
   * first element in the transform (src may be a copy of those bytes, not
   * a pointer into x->src). Returns 0 or a negative code. */
  int (*run)(const osl_xform *x, size_t first, const uint8_t *src, size_t n, uint8_t *dst);
  unsigned int flags;
  /* A transform whose output is not its source in order (a transpose)
   * reads the source itself (onnxslim__model_read): run gets src NULL and
   * the loop neither reads nor releases source bytes; its chunks are
   * `chunk` elements (a transpose's: whole output rows or a piece of one),
   * also for onnxslim__xform_read.
   * 0 for the element-wise ones. */
  int self_read;
  size_t chunk;
  /* A transform that reads its source in place, through its own pointers
   * and in an order of its own (the quantization of a [K, N] weight whose
   * blocks are pieces of columns: each chunk's blocks are spread over the
   * whole source), and releases it itself: the loop hands run src in place
   * (x->src + first * in_size), neither copying it into a buffer first nor
   * releasing it by chunk; unlike self_read, it may still run a chunk
   * ahead of the writer. 0 for the others. */
  int in_place;
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
  const uint8_t *raw;     /* the field's original encoding (tag to end); NULL once edited */
  osl_msg *sub;           /* parsed submessage of known message fields */
  char *cstr;             /* NUL-terminated copy of p[0..n), made on demand */
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
  size_t slot; /* goes before msg->f[slot] (slot == nf: at the end) */
  int64_t key; /* order among entries of one slot */
  osl_field field;
} osl_pend;
typedef struct osl_pendq {
  osl_pend *e;
  size_t count, cap;
  size_t dead; /* fields of msg->f removed but still in place */
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
  size_t capf;      /* capacity of f for edits (0: exactly nf, from parsing) */
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
  void *cache;     /* kind-specific: graph index, tensor data, ... */
};

/* How a TensorProto is written by one save: its storage fields (raw_data,
 * typed data, external_data, data_location) are replaced by either raw_data
 * bytes (inline) or pre-encoded fields (external_data entries and
 * data_location). Other fields are written as usual. */
typedef struct osl_plan {
  const uint8_t *data; /* inline bytes, or NULL */
  size_t size;
  const osl_xform *xform; /* inline bytes still to be transformed */
  const uint8_t *fields;  /* pre-encoded replacement fields, or NULL */
  size_t fields_len;
} osl_plan;

/* Tag of model handles (handle.c): a model's first member points here, where every
 * message handle's first member points to its osl_msgdef, so passing a
 * model where a graph or node is expected (or the reverse) is detected. */
extern const osl_msgdef osl_def_model_handle;

/* A save's plan: which tensors one save writes otherwise (an osl_plan
 * each); the messages above them are re-encoded. Held by the save, read by
 * the writer (msg_size_planned, msg_write_planned); the model itself is
 * not changed. Zero-initialize; saveplan_free releases it (write.c). */
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

/* A model: its bytes, its arena and the message tree over them, and what
 * the layers above keep with it (names, graph indexes, external files). */
struct onnxslim_model {
  const osl_msgdef *def;         /* &osl_def_model_handle */
  const struct osl_hooks *hooks; /* the handles' part in parses and edits */
  osl_arena arena;
  const uint8_t *data; /* the whole serialized model */
  size_t size;
  void *map; /* mmap'ed region or NULL */
  size_t maplen;
  int fd;      /* the mapped file, for copy_file_range; -1 if none */
  osl_run rel; /* released bytes of map not yet handed back (source.c) */
  void *owned; /* malloc'ed copy or NULL */
  osl_msg *root;
  unsigned int max_depth;
  uint64_t max_memory;        /* for the arena while loading, then for the arena and
                               * what the passes hold (held) */
  uint64_t held;              /* bytes the passes running on the model hold beyond its
                               * structure (onnxslim__mem_charge, model.c) */
  uint64_t gen;               /* edit generation: bumped by every edit */
  osl_map names;              /* every name in the model, for unique names; once built,
                               * kept up to date by the edits (names only grow) */
  struct osl_gindex *indexes; /* live graph indexes (graph.c), freed with the model */
  uint64_t name_seq;          /* counter for generated names */
  char *base_dir;             /* for external data (NULL: none given) */
  char *path;                 /* the model file as given to open (NULL: from a buffer) */
  struct osl_extfile *ext;    /* external data files, mapped */
  size_t next, ext_cap;
};

/* An external data file a model references (extdata.c). */
typedef struct osl_extfile {
  char *path; /* resolved real path */
  void *map;
  size_t size;
  int fd;
  uint64_t dev; /* identity: one mapping per file */
  uint64_t ino;
  osl_run rel;
} osl_extfile;

/* What the message tree tells the handles tier, which sets model->hooks
 * when it creates a model (model.c): parse.c and edit.c call these, never the
 * handles' functions by name. */
typedef struct osl_hooks {
  /* A TensorProto was parsed: check its dims, build its cache (where: ""
   * or its path, for the message). 0 or an error code. */
  int (*tensor_parsed)(osl_msg *tensor, const char *where);
  /* copy is a new copy of the TensorProto src (of any model): the same,
   * and it keeps src's external data when both are of one model. */
  int (*tensor_copied)(osl_msg *copy, const osl_msg *src);
  /* Field `number` of msg is about to change (old_sub: the submessage the
   * change removes or replaces, if any) / has changed (new_sub: the one it
   * adds): the graph indexes above msg relink what changed. */
  void (*edit_before)(osl_msg *msg, uint32_t number, osl_msg *old_sub);
  void (*edit_after)(osl_msg *msg, uint32_t number, osl_msg *new_sub);
  /* A name field f of msg was set, or a submessage f->sub was added: the
   * model's name set takes its names. */
  void (*names_note)(onnxslim_model *model, const osl_msg *msg, osl_field *f);
} osl_hooks;

/* ---- parsing (parse.c) and field access (edit.c) ------------------------ */

/* Parses `size` bytes at `data` into model->root; the bytes parsed go to
 * `progress` (may be NULL), whose cancel stops the parse. */
int onnxslim__parse_model(onnxslim_model *model, osl_progress *progress);

/* Field access. "last" = last occurrence (protobuf semantics for singular
 * fields). All return NULL when absent. */
osl_field *onnxslim__msg_last(const osl_msg *msg, uint32_t number);
osl_list *onnxslim__msg_list(const osl_msg *msg, uint32_t number); /* NULL on ENOMEM */
size_t onnxslim__msg_count(const osl_msg *msg, uint32_t number);
osl_field *onnxslim__msg_at(const osl_msg *msg, uint32_t number, size_t index);
osl_msg *onnxslim__msg_sub_at(const osl_msg *msg, uint32_t number, size_t index);
osl_msg *onnxslim__msg_sub(const osl_msg *msg, uint32_t number);           /* last occurrence */
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

/* ---- edits (edit.c) ----------------------------------------------------- *
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
#define OSL_FLUSH(m)                                                                       \
  do {                                                                                     \
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

/* ---- serialization (write.c) ------------------------------------------ */

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

/* The one loop over a transform's chunks (xform.c): runs x over its whole
 * source a chunk of elements at a time (2^18), each chunk into dst at its
 * offset when dst is given, else into one chunk-sized buffer; hands the
 * chunk's output to fn (when not NULL). A source in a mapped file is read
 * chunk by chunk into a buffer (onnxslim__model_read: none of its pages
 * gets mapped); one in memory is read in place and its pages released
 * behind (onnxslim__release). With fn, no dst and at least 8 MiB of a
 * mapped file, the chunks are read and transformed on a second thread one
 * chunk ahead of fn (x->run must then not depend on the calling thread);
 * fn always runs on the calling thread, in order. Stops at the first
 * error. */
typedef int (*osl_chunk_fn)(void *payload, const uint8_t *out, size_t n);
int onnxslim__xform_chunks(const onnxslim_model *model, const osl_xform *x, uint8_t *dst,
                           osl_chunk_fn fn, void *payload);
/* Runs a field's transform over its whole source into dst (x->count *
 * x->out_size bytes), chunk by chunk. */
int onnxslim__xform_all(onnxslim_model *model, const osl_xform *x, uint8_t *dst);
/* Streams a field's transform into a sink, one chunk at a time. */
int onnxslim__xform_write(onnxslim_model *model, const osl_xform *x, osl_sink *sink);
/* Bytes off..off+n of transform x's output into dst, made from the source
 * elements they come from only (read with onnxslim__model_read: no page
 * of a mapped file gets mapped), so a pending transform can be read a
 * piece at a time without being materialized. 0, ONNXSLIM_ERANGE past its
 * end, or an error. */
int onnxslim__xform_read(const onnxslim_model *model, const osl_xform *x, uint64_t off, void *dst,
                         size_t n);

/* ---- the model's mapped files as sources (source.c) --------------------- */

/* Hints that the model's mapped bytes [p, p+n) are not needed for now, so
 * streaming over a large model does not grow the resident set. Cheap to
 * call for any range, however small: ranges that follow one another are
 * gathered, and pages go back to the kernel only in runs of several MiB
 * (one madvise per run), so a small model costs no system call. */
void onnxslim__release(const onnxslim_model *model, const void *p, size_t n);
/* The file and offset behind the model's mapped bytes [p, p+n) (the model
 * file or an external data file): 1, or 0 for bytes in memory. */
int onnxslim__model_locate(const onnxslim_model *model, const void *p, size_t n, int *fd,
                           int64_t *off);
/* Copies the model's bytes [p, p+n) to dst: from their file by pread when
 * they are mapped, so no page of the mapping gets mapped (the kernel maps
 * the page cache in folios of up to several MiB around a byte read
 * through a mapping: docs/design.md, "Memory"), else by memcpy. 0 or
 * ONNXSLIM_EIO (the file got shorter, a read error). */
int onnxslim__model_read(const onnxslim_model *model, const void *p, size_t n, void *dst);
/* The model as the source of bytes written to an output: the output
 * copies its mapped files' bytes in the kernel and releases their pages.
 * model NULL: plain memory. */
osl_source onnxslim__model_source(const onnxslim_model *model);
/* onnxslim__out_open_at_from, out_open_beneath_from and atomic_write_from
 * (base.h) with the model's source. */
osl_out *onnxslim__out_open_at(int dirfd, const char *path, uint64_t size,
                               const onnxslim_model *model);
osl_out *onnxslim__out_open_beneath(int basefd, const char *base, const char *rel,
                                    const char *owner, uint64_t size, const onnxslim_model *model);
int onnxslim__atomic_write(const char *path, uint64_t size, int fsync_data,
                           int (*write_fn)(osl_sink *sink, void *payload), void *payload,
                           const onnxslim_model *model, osl_progress *progress, uint64_t *copied);

/* ---- handle checks (handle.c) -------------------------------------------- */

/* Returns msg if it is non-NULL, of the given kind and still in its model,
 * else sets an ONNXSLIM_EINVAL last error naming `fn` and returns NULL. */
osl_msg *onnxslim__check(const void *handle, const osl_msgdef *def, const char *fn);
#define OSL_CHECK(h, m) onnxslim__check((h), &osl_def_##m, __func__)

#endif /* ONNXSLIM_WIRE_H */
