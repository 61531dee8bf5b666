/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - what the files of the check (onnxslim_check) share, private
 * to them: check_report.c (the report, its problems and the state of a
 * check) <- check_schema.c (opsets, tensors and operator schemas) <-
 * check.c (the driver: graphs, function bodies, model-local functions and
 * the checks of edits).
 */
#ifndef ONNXSLIM_CHECK_INT_H
#define ONNXSLIM_CHECK_INT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "opschema/opschema.h"
#include "passes/passes.h"

/* ---- report ---------------------------------------------------------------- */

typedef struct ck_item {
  int code;
  char *loc;
  char *msg;
  /* what the problem is, independent of node indexes (ck_key()): a
   * baseline's problems are found by it */
  uint64_t key[2];
} ck_item;

struct onnxslim_check_report {
  ck_item *items;
  size_t count, cap;
  char *note; /* "" or lines ending in '\n'... without the last one */
};

typedef struct ck_str {
  char *p;
  size_t len, cap;
  int oom;
} ck_str;

/* ---- name map ------------------------------------------------------------- *
 * The library's map (map.c), slots from malloc; keys are borrowed from the
 * model. An entry's value is the item defining the name, its num a DEF_* or
 * a node index. */

/* The entry of key, or NULL (also for a NULL map). */
static inline osl_map_entry *map_find(const osl_map *m, const char *key) {
  return m ? onnxslim__map_find(m, key) : NULL;
}

/* Inserts key -> (ptr, num) unless present. Returns 1 (inserted), 0
 * (present; *slot is the existing entry) or ONNXSLIM_ENOMEM. */
static inline int map_put(osl_map *m, const char *key, const void *ptr, int32_t num,
                          osl_map_entry **slot) {
  osl_map_entry *e;
  int rc = onnxslim__map_add(NULL, m, key, &e);
  if (rc == 1) {
    e->value = (void *)ptr;
    e->num = num;
  }
  if (rc >= 0 && slot) *slot = e;
  return rc;
}

/* Where a value of a scope comes from (the entry's num): >= 0 is a node
 * index, DEF_INPUT a graph (or function) input, <= -2 an initializer,
 * coded by def_init() with its index, so that one map answers for both. */
#define DEF_INPUT (-1)
#define DEF_INIT_MAX ((size_t)1 << 28) /* initializers of a graph, dense or sparse */

/* The num of initializer `index` (dense or sparse); `input`: it is also a
 * graph input (a default value). */
static inline int32_t def_init(size_t index, int sparse, int input) {
  return -2 - (int32_t)((index << 2) | (size_t)(sparse ? 2 : 0) | (size_t)(input ? 1 : 0));
}
static inline int def_is_init(int32_t num) { return num <= -2; }
static inline size_t def_init_index(int32_t num) { return (size_t)(-2 - (int64_t)num) >> 2; }
static inline int def_init_sparse(int32_t num) { return ((-2 - (int64_t)num) & 2) != 0; }
/* a graph input, with an initializer or not */
static inline int def_is_input(int32_t num) {
  return num == DEF_INPUT || (num <= -2 && ((-2 - (int64_t)num) & 1));
}

/* The values of one graph or function body. */
typedef struct scope {
  const struct scope *parent;
  /* name -> num: DEF_* or index of the first node producing it; value: the
   * element type of a value known to be a tensor (an int in the pointer,
   * NULL: unknown), so that one lookup gives both */
  osl_map values;
  /* index of the node of this graph whose subgraph is being checked; values
   * defined before it may not be redefined inside the subgraph */
  size_t holder;
} scope;

typedef struct ck {
  onnxslim_check_report *rep;
  unsigned skip; /* bit (1 << code): not checked */
  const onnxslim_model *model;
  ck_str note;
  unsigned noted;  /* bit d: the note on domain d was written */
  int in_subgraph; /* > 0 while a subgraph is checked (untyped inputs/outputs are fine there) */
  ck_str path;     /* location of what is being checked */
  /* the node check_nodes is at (pend), or the initializer a graph's loop is
   * at (pend_what "initializer" or "sparse_initializer"), not yet appended
   * to path: its location is formatted only when something is reported
   * there (formatting it for every node costs about a tenth of checking it) */
  const onnxslim_node *pend;
  const char *pend_what;
  size_t pend_index;
  const char *pend_name;
  ck_str msg;
  int rc;                   /* first hard failure (ENOMEM, ...) */
  const osl_retype *retype; /* element types to assume (an edit's check), or NULL */
  unsigned flags;           /* ONNXSLIM_CHECK_VERIFY_CHECKSUMS */
  uint8_t *chunk;           /* the buffer checksums are computed through */
  /* the node segments of path (" node[3] 'name'", from at to end), in
   * order: a problem's key names these nodes by identity, not by index */
  struct ck_seg *segs;
  size_t nsegs, capsegs;
  /* what an order or duplicate_output problem is about ("input", name),
   * keyed instead of its message (which names another node by index) */
  const char *subj_what, *subj_name;
  ck_str key;
  struct ck_base *base; /* the baseline's problems not yet matched, or NULL */
  /* bytes the check holds now (the report, its maps and tables), counted
   * with the model's structure against the model's max_memory */
  uint64_t used;
  /* the model's functions by "domain\x1fname" (the default domain as ""),
   * built on first use: keys in fnkeys */
  osl_map fns;
  char *fnkeys;
  int fns_built;
} ck;

typedef struct ck_seg {
  size_t at, end;
  const onnxslim_node *node;
} ck_seg;

/* The problems of a baseline report, by key, each with how many of it are
 * left to cancel: open addressing, linear probing. */
typedef struct ck_slot {
  uint64_t key[2];
  size_t left;
  int used;
} ck_slot;
typedef struct ck_base {
  ck_slot *slots;
  size_t mask;
} ck_base;

/* The data type of tensor t, or the one c->retype gives it. */
static inline int32_t tensor_dtype(const ck *c, const onnxslim_tensor *t) {
  const osl_map_entry *e = c->retype ? onnxslim__map_find_ptr(&c->retype->tensors, t) : NULL;
  return e ? e->num : onnxslim_tensor_dtype(t);
}

/* The element type of value info vi (of type ty), or the one c->retype gives it. */
static inline int32_t info_elem_type(const ck *c, const onnxslim_value_info *vi,
                                     const onnxslim_type *ty) {
  const osl_map_entry *e = c->retype ? onnxslim__map_find_ptr(&c->retype->infos, vi) : NULL;
  return e ? e->num : onnxslim_type_dtype(ty);
}

/* Records the failure of the library call that just failed and returns it. */

/* Rough malloc cost of a block of n bytes (its header and rounding). */
static inline uint64_t block_cost(size_t n) { return onnxslim__mem_cost(n); }

/* ---- opsets ---- */

static inline int is_onnx_domain(const char *d) { return !d[0] || strcmp(d, "ai.onnx") == 0; }

/* The problem kinds: name and description, by code (check_report.c). */
typedef struct ck_code {
  const char *name, *what;
} ck_code;
extern const ck_code onnxslim__ck_codes[ONNXSLIM_CHECK_CODE_MAX + 1];

/* ---- check_report.c ---------------------------------------------------------- */

/* Size of each version of onnxslim_check_options: fields are only appended. */
size_t onnxslim__check_options_size(unsigned int version);

void onnxslim__ck_str_vadd(ck_str *s, const char *fmt, va_list ap);

void onnxslim__ck_str_cut(ck_str *s, size_t len);

int onnxslim__ck_failed(ck *c);

int onnxslim__ck_nomem(ck *c);

void onnxslim__ck_push_node(ck *c, const onnxslim_node *node, size_t index, const char *name);

/* Cuts the path back to len (a mark), with its node segments. */
void onnxslim__ck_path_cut(ck *c, size_t len);

/* Appends the pending node (ck.pend) to the path: before the path is read
 * or extended. */
void onnxslim__ck_flush_path(ck *c);

/* Makes " what 'name'" (" what[index]" when the name is empty) the pending
 * location: appended to the path if something is reported there. Returns
 * the length to cut the path back to. */
size_t onnxslim__ck_pend_item(ck *c, const char *what, const char *name, size_t index);

/* Adds n bytes to what the check holds (negative: released), counted with
 * the model's (onnxslim__mem_charge) against the model's max_memory
 * (onnxslim_load_options): ONNXSLIM_ELIMIT when the model's structure (its
 * arena, which the handles the check asks for also grow) and what the
 * passes hold would exceed it. run_check releases what is left. */
int onnxslim__ck_charge(ck *c, int64_t n);

/* Enters the problems of report r (of kinds not in skip). 0 or ENOMEM. */
int onnxslim__ck_base_build(ck_base *b, const onnxslim_check_report *r, unsigned skip);

/* Appends "node[3] 'name'" (or "node[3] (Op)" for an unnamed node) to out,
 * to name another node in a message. */
void onnxslim__ck_describe_node(ck_str *out, const onnxslim_node *node, size_t index);

const char *onnxslim__ck_dtype_str(char *buf, size_t n, int32_t dt);

const char *onnxslim__ck_kind_str(int kind);

void onnxslim__ck_str_add(ck_str *s, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(OSL_PRINTF, 2, 3)))
#endif
    ;

int onnxslim__ck_problem(ck *c, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(OSL_PRINTF, 3, 4)))
#endif
    ;

size_t onnxslim__ck_push(ck *c, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(OSL_PRINTF, 2, 3)))
#endif
    ;

/* ---- check_schema.c ---------------------------------------------------------- */

/* Fills m with the domains of opset_import (of fn, or of the model when fn
 * is NULL). "" and "ai.onnx" are both entered when either is imported. */
int onnxslim__ck_load_opsets(ck *c, const onnxslim_model *model, const onnxslim_function *fn,
                             osl_map *m);

/* Checks that the tensor's stored data has the size its dims and type need
 * (and its checksum, when asked). The location of the tensor is the
 * current path. */
int onnxslim__check_tensor(ck *c, const onnxslim_tensor *t);

int onnxslim__check_sparse(ck *c, const onnxslim_sparse_tensor *s);

/* The element type a Cast or Constant node gives its first output, or 0. */
int32_t onnxslim__ck_node_out_dtype(const ck *c, const onnxslim_node *node, const char **what);

/* Records the element type of a value of s unless one is known already. */
void onnxslim__ck_set_dtype(osl_map_entry *e, int32_t dt);

/* The formal parameter of value `k` of a list of n formals (the last one
 * takes every further value when variadic), or NULL. */
const osl_op_formal *onnxslim__ck_formal_at(const osl_op_formal *f, unsigned n, size_t k);

/* The name of type t of the schema tables ("tensor(float)"). */
const char *onnxslim__ck_op_type_name(int t);

/* Checks node i against its schema (location: the node). typed: follow
 * element types (graphs, not function bodies). */
int onnxslim__check_schema(ck *c, const onnxslim_node *node, scope *s, const osl_map *opsets,
                           int typed);

#endif
