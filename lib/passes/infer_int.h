/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * What the files of the inference share: a dimension, a value's type and
 * shape, and the report (infer_report.c); the walk's context, the small
 * helpers every rule uses (static inline), and the rules' entry points:
 *
 *   infer.c            the walk, existing types, the report, the writes
 *   infer_ops.c        one node: element types from the schema, the rules
 *   infer_ops_elem.c   element-wise, broadcasting, MatMul/Gemm, reductions
 *   infer_ops_shape.c  shape operators and data propagation
 *   infer_ops_nn.c     convolutions, pools, resizing, attention
 *   infer_ops_ctrl.c   If, Loop, Scan (from their bodies' declared outputs)
 *   infer_util.c       broadcasting, constant tensors (used by all above)
 *
 * Internal: not installed.
 */
#ifndef ONNXSLIM_INFER_INT_H
#define ONNXSLIM_INFER_INT_H

#include <stddef.h>
#include <stdint.h>

#include "base/base.h"
#include "opschema/opschema.h"
#include "onnxslim/infer.h"

enum { DK_UNKNOWN = 0, DK_VALUE = 1, DK_PARAM = 2 };

typedef struct idim {
  int64_t v;     /* DK_VALUE: the value (data elements may be negative) */
  const char *p; /* DK_PARAM: the symbol */
  int k;         /* DK_* */
} idim;

typedef struct ival {
  int32_t dtype; /* 0: unknown */
  int rank;      /* -1: unknown */
  idim *d;
  int nd; /* -1: no data; else the number of elements in data */
  idim *data;
  const float *fdata; /* a small FLOAT constant's values (nf of them), or NULL */
  int nf;
} ival;

typedef struct rep_entry {
  const char *name;
  int status;
  int32_t dtype;
  int rank;
  idim *d;
} rep_entry;

struct onnxslim_infer_report {
  osl_arena arena;
  rep_entry *e;
  size_t n, cap, conflicts;
};

/* ---- the walk's context (infer.c) and the rules' helpers ------------------------ */

#include <string.h>

#include "passes/passes.h"

/* Ranks above this are left unknown; data is followed up to DATA_MAX elements. */
#define RANK_MAX 64
#define DATA_MAX 64

/* A write decided during the walk, done at the end. */
typedef struct pending {
  const char *name;
  onnxslim_value_info *vi; /* NULL: add a value_info entry */
  ival v;
} pending;

/* The values of a subgraph being walked (If, Loop, Scan bodies): looked
 * up before the scopes around it; the main graph's are ictx.vals. */
typedef struct iscope {
  osl_map vals; /* name -> ival*, slots from the arena */
  struct iscope *up;
  int sealed; /* a function body: sees its own values only */
} iscope;

typedef struct ictx {
  osl_arena arena;
  osl_map vals; /* name -> ival*, slots malloc'd (reserved in seed) */
  onnxslim_graph *g;
  unsigned flags;
  int64_t opset; /* of the default domain, 0 when not imported */
  const onnxslim_model *model;
  onnxslim_infer_report *rep;
  pending *pend;
  size_t npend, cappend;
  int oom;
  iscope *scope; /* innermost subgraph scope, NULL in the main graph */
  int depth;     /* subgraphs and function bodies being walked */
  /* walks the nodes of subgraph g in the current scope (values put there,
   * nothing reported or written); set by infer.c */
  int (*walk_body)(struct ictx *c, onnxslim_graph *g);
} ictx;

/* The unknown value: no type, no shape, no data. */
static inline const ival *infer_unknown(void) {
  static const ival u = {0, -1, NULL, -1, NULL, NULL, 0};
  return &u;
}
#define UNKNOWN (*infer_unknown())

static inline ival *new_val(ictx *c, int32_t dtype, int rank) {
  ival *v = onnxslim__arena_alloc(&c->arena, sizeof *v);
  if (!v) {
    c->oom = 1;
    return NULL;
  }
  v->dtype = dtype;
  v->rank = rank;
  v->nd = -1;
  v->data = NULL;
  v->fdata = NULL;
  v->nf = 0;
  v->d = NULL;
  if (rank > 0) {
    v->d = onnxslim__arena_alloc(&c->arena, (size_t)rank * sizeof *v->d);
    if (!v->d) {
      c->oom = 1;
      return NULL;
    }
    for (int i = 0; i < rank; i++) v->d[i] = (idim){0, NULL, DK_UNKNOWN};
  }
  return v;
}

static inline idim *new_dims(ictx *c, int n) {
  idim *d = onnxslim__arena_alloc(&c->arena, (size_t)(n > 0 ? n : 1) * sizeof *d);
  if (!d) c->oom = 1;
  for (int i = 0; d && i < n; i++) d[i] = (idim){0, NULL, DK_UNKNOWN};
  return d;
}

static inline const ival *get(const ictx *c, const char *name) {
  if (!name || !name[0]) return &UNKNOWN;
  for (const iscope *s = c->scope; s; s = s->up) {
    const ival *v = onnxslim__map_get(&s->vals, name);
    if (v) return v;
    if (s->sealed) return &UNKNOWN;
  }
  const ival *v = onnxslim__map_get(&c->vals, name);
  return v ? v : &UNKNOWN;
}

static inline int put(ictx *c, const char *name, ival *v) {
  osl_map_entry *e = NULL;
  /* the main graph's map is reserved once (malloc'd, see seed) */
  int rc = c->scope ? onnxslim__map_add(&c->arena, &c->scope->vals, name, &e)
                    : onnxslim__map_add(NULL, &c->vals, name, &e);
  if (rc < 0) {
    c->oom = 1;
    return rc;
  }
  e->value = v;
  return 0;
}

static inline int64_t attr_int(const onnxslim_node *n, const char *name, int64_t dflt) {
  onnxslim_attr *a = onnxslim_node_find_attr(n, name);
  int64_t v;
  if (a && onnxslim_attr_type(a) == ONNXSLIM_ATTR_INT && onnxslim_attr_int(a, &v) == 0) return v;
  return dflt;
}

/* The INTS attribute `name`: 1 and *vals, *n, or 0 when absent. */
static inline int attr_ints(const onnxslim_node *n, const char *name, const int64_t **vals,
                            size_t *cnt) {
  onnxslim_attr *a = onnxslim_node_find_attr(n, name);
  if (!a || onnxslim_attr_type(a) != ONNXSLIM_ATTR_INTS) return 0;
  return onnxslim_attr_ints(a, vals, cnt) == 0;
}

/* The values of input `i` as int64s when its data is fully known: count, or -1. */
static inline int const_ints(const ictx *c, const onnxslim_node *n, size_t i, int64_t *out,
                             int cap) {
  if (i >= onnxslim_node_input_count(n)) return -1;
  const ival *v = get(c, onnxslim_node_input(n, i));
  if (v->nd < 0 || v->nd > cap) return -1;
  for (int k = 0; k < v->nd; k++) {
    if (v->data[k].k != DK_VALUE) return -1;
    out[k] = v->data[k].v;
  }
  return v->nd;
}

/* Axes of a node: from input `in` (when the node has it, opset >= since) or
 * from attribute "axes". Returns the count, -1 when absent, -2 when given
 * but not known. */
static inline int node_axes(const ictx *c, const onnxslim_node *n, size_t in, int64_t since,
                            int64_t *axes) {
  if (c->opset >= since) {
    if (in >= onnxslim_node_input_count(n) || !onnxslim_node_input(n, in)[0]) return -1;
    int k = const_ints(c, n, in, axes, RANK_MAX);
    return k < 0 ? -2 : k;
  }
  const int64_t *a;
  size_t cnt;
  if (!attr_ints(n, "axes", &a, &cnt)) return -1;
  if (cnt > RANK_MAX) return -2;
  memcpy(axes, a, cnt * sizeof *a);
  return (int)cnt;
}

static inline int norm_axis(int64_t a, int rank, int64_t *out) {
  if (a < -(int64_t)rank || a >= rank) return 0;
  *out = a < 0 ? a + rank : a;
  return 1;
}

static inline int dim_eq(const idim *a, const idim *b) {
  if (a->k != b->k) return 0;
  if (a->k == DK_VALUE) return a->v == b->v;
  if (a->k == DK_PARAM) return strcmp(a->p, b->p) == 0;
  return 0;
}

/* Two dims known to be the same size: the more informative. */
static inline idim dim_merge(idim a, idim b) {
  if (a.k == DK_VALUE) return a;
  if (b.k == DK_VALUE) return b;
  if (a.k == DK_PARAM) return a;
  return b;
}

static inline void copy_shape(const ival *in, ival *out) {
  out->rank = in->rank;
  out->d = in->d;
}

static inline void set_shape(ictx *c, ival *out, int rank) {
  out->rank = rank;
  out->d = new_dims(c, rank);
  if (!out->d) out->rank = -1;
}

/* The length of a 1-D shape tensor whose values are unknown, or -1. */
static inline int shape_len(const ival *s) {
  if (s->rank != 1 || s->d[0].k != DK_VALUE || s->d[0].v < 0 || s->d[0].v > RANK_MAX) return -1;
  return (int)s->d[0].v;
}

static inline int in_list(const char *const *l, const char *op) {
  for (; *l; l++)
    if (strcmp(*l, op) == 0) return 1;
  return 0;
}

/* The tensor type of vi as an ival (dtype 0 when it has none). */
static inline void read_vi(ictx *c, const onnxslim_value_info *vi, ival *v) {
  *v = UNKNOWN;
  onnxslim_type *t = vi ? onnxslim_value_info_type(vi) : NULL;
  if (!t || onnxslim_type_kind(t) != ONNXSLIM_TYPE_TENSOR) return;
  v->dtype = onnxslim_type_dtype(t);
  if (!onnxslim_type_has_shape(t)) return;
  size_t r = onnxslim_type_rank(t);
  if (r > RANK_MAX) return;
  set_shape(c, v, (int)r);
  for (size_t j = 0; v->rank >= 0 && j < r; j++) {
    int64_t val = 0;
    const char *p = NULL;
    int k = onnxslim_type_dim(t, j, &val, &p);
    if (k == ONNXSLIM_DIM_VALUE) v->d[j] = (idim){val, NULL, DK_VALUE};
    else if (k == ONNXSLIM_DIM_PARAM && p && p[0]) v->d[j] = (idim){0, p, DK_PARAM};
  }
}

/* Numpy broadcasting of n shapes into out (out->rank set; unknown when
 * they cannot broadcast). infer_util.c */
void onnxslim__infer_bcast(ictx *c, const ival *const *in, size_t n, ival *out);
/* A constant tensor's dtype, dims and (small integers) data. infer_util.c */
void onnxslim__infer_from_tensor(ictx *c, const onnxslim_tensor *t, ival *out);

/* The shape rules of one family: 1 when op is theirs (outs filled as far
 * as known), 0 otherwise. x is input 0 (UNKNOWN without inputs). */
int onnxslim__infer_ops_elem(ictx *c, const onnxslim_node *n, const char *op, ival *outs,
                             size_t nout);
int onnxslim__infer_ops_shape(ictx *c, const onnxslim_node *n, const char *op, ival *outs,
                              size_t nout);
int onnxslim__infer_ops_nn(ictx *c, const onnxslim_node *n, const char *op, ival *outs,
                           size_t nout);
int onnxslim__infer_ops_ctrl(ictx *c, const onnxslim_node *n, const char *op, ival *outs,
                             size_t nout);

/* Element types and shapes of one node's outputs (outs[nout], UNKNOWN on
 * entry); sc is the node's schema (NULL: unknown op). infer_ops.c */
void onnxslim__infer_node(ictx *c, const onnxslim_node *n, const osl_op_schema *sc, ival *outs,
                          size_t nout);

#endif
