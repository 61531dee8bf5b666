/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - the constant-folding pass of the simplification
 * (simplify.h, ONNXSLIM_SIMPLIFY_FOLD): a node of a listed operator whose
 * inputs are all constant (initializers that are not graph inputs,
 * Constant nodes, values folded before it), or a Shape or Size whose input
 * has a static shape (stated, or inferred by onnxslim_infer_shapes()), is
 * computed here (simplify_fold_ops.c) and replaced by an initializer of its
 * output's name (in a subgraph, by a Constant node when the output is a
 * graph output).
 * Only tensors within the cap are read: weights are never decoded unless
 * a fold reads them, and only small ones are.
 */
#include <stdlib.h>
#include <string.h>

#include "onnx.pb.h"

#include "kernels/convert_kernels.h"
#include "passes/simplify_int.h"

typedef struct {
  osl_simp *c;
  onnxslim_graph *main;
  onnxslim_infer_report *rep; /* shapes of the main graph's values */
  osl_map names;              /* value name -> entry of rep (num), conflicts left out */
  int64_t opset;
} osl_foldrun;

static int64_t opset_of(const onnxslim_model *m) {
  for (size_t i = 0; i < onnxslim_model_opset_count(m); i++) {
    const char *d = NULL;
    int64_t v = 0;
    if (onnxslim_model_opset(m, i, &d, &v) == 0 && (!d[0] || strcmp(d, "ai.onnx") == 0)) return v;
  }
  return -1;
}

static int is_graph_output(const onnxslim_graph *g, const char *name) {
  for (size_t i = 0; i < onnxslim_graph_output_count(g); i++)
    if (strcmp(onnxslim_value_info_name(onnxslim_graph_output(g, i)), name) == 0) return 1;
  return 0;
}

/* ---- constants -------------------------------------------------------------------- */

/* A Constant node's value_int, value_ints, value_float or value_floats as
 * a value (a scalar goes to *box): 1, else 0. */
static int const_attr(const onnxslim_graph *g, const char *name, osl_cv *cv, int64_t *box) {
  onnxslim_node *p = onnxslim__graph_producer_q(g, name);
  const char *d = p ? onnxslim_node_domain(p) : NULL;
  if (!p || strcmp(onnxslim_node_op_type(p), "Constant") != 0 ||
      (d && d[0] && strcmp(d, "ai.onnx")))
    return 0;
  onnxslim_attr *a;
  cv->rank = 1;
  if ((a = onnxslim_node_find_attr(p, "value_ints"))) {
    const int64_t *v;
    size_t n;
    if (onnxslim_attr_ints(a, &v, &n) < 0) return 0;
    cv->dt = ONNXSLIM_DTYPE_INT64;
    cv->esz = 8;
    cv->p = n ? (const uint8_t *)v : (const uint8_t *)box;
    cv->dims[0] = (int64_t)n;
    cv->count = n;
    return 1;
  }
  if ((a = onnxslim_node_find_attr(p, "value_floats"))) {
    const float *v;
    size_t n;
    if (onnxslim_attr_floats(a, &v, &n) < 0) return 0;
    cv->dt = ONNXSLIM_DTYPE_FLOAT;
    cv->esz = 4;
    cv->p = n ? (const uint8_t *)v : (const uint8_t *)box;
    cv->dims[0] = (int64_t)n;
    cv->count = n;
    return 1;
  }
  cv->rank = 0;
  cv->count = 1;
  if ((a = onnxslim_node_find_attr(p, "value_int"))) {
    if (onnxslim_attr_int(a, box) < 0) return 0;
    cv->dt = ONNXSLIM_DTYPE_INT64;
    cv->esz = 8;
    cv->p = (const uint8_t *)box;
    return 1;
  }
  if ((a = onnxslim_node_find_attr(p, "value_float"))) {
    float f;
    if (onnxslim_attr_float(a, &f) < 0) return 0;
    memcpy(box, &f, sizeof f);
    cv->dt = ONNXSLIM_DTYPE_FLOAT;
    cv->esz = 4;
    cv->p = (const uint8_t *)box;
    return 1;
  }
  return 0;
}

/* The constant value `name` of g with its data (borrowed), when it is at
 * most cap bytes of a fixed-size type (dims only when !data): 1, 0 (not
 * such a constant) or an error. */
static int load_const(const onnxslim_graph *g, const char *name, uint64_t cap, int data, osl_cv *cv,
                      int64_t *box) {
  memset(cv, 0, sizeof *cv);
  const onnxslim_tensor *t = onnxslim__simp_const(g, name);
  if (!t) return const_attr(g, name, cv, box);
  int32_t dt = onnxslim_tensor_dtype(t);
  unsigned int bits = onnxslim_dtype_bits(dt);
  size_t r = onnxslim_tensor_rank(t);
  int64_t cnt = onnxslim_tensor_element_count(t);
  if (r > OSL_FOLD_MAX_RANK || cnt < 0) return 0;
  cv->rank = r;
  for (size_t i = 0; i < r; i++) cv->dims[i] = onnxslim_tensor_dim(t, i);
  cv->count = (uint64_t)cnt;
  cv->dt = dt;
  if (!data) return 1;
  if (!bits || bits % 8 || dt == ONNXSLIM_DTYPE_STRING) return 0;
  cv->esz = bits / 8;
  if (cv->count > cap / cv->esz) return 0;
  const void *p;
  size_t size;
  if (onnxslim_tensor_data(t, &p, &size) < 0) {
    int e = onnxslim_error_last_code();
    return e == ONNXSLIM_ENOMEM || e == ONNXSLIM_ELIMIT ? e : 0;
  }
  if (size != cv->count * cv->esz) return 0;
  cv->p = cnt ? (const uint8_t *)p : (const uint8_t *)box;
  return 1;
}

/* 1 when `name` is an input of g. */
static int is_graph_input(const onnxslim_graph *g, const char *name) {
  for (size_t i = 0; i < onnxslim_graph_input_count(g); i++)
    if (!strcmp(onnxslim_value_info_name(onnxslim_graph_input(g, i)), name)) return 1;
  return 0;
}

/* 1 when entry i of rep has a static shape (every dim a number), else 0. */
static int static_entry(const onnxslim_infer_report *rep, size_t i) {
  int64_t r = onnxslim_infer_report_rank(rep, i);
  if (r < 0 || r > OSL_FOLD_MAX_RANK) return 0;
  for (size_t k = 0; k < (size_t)r; k++) {
    int64_t v = -1;
    if (onnxslim_infer_report_dim(rep, i, k, &v, NULL) != ONNXSLIM_DIM_VALUE || v < 0) return 0;
  }
  return 1;
}

/* The static shape of value `name` of g for Shape and Size: a constant's
 * dims, the main graph's inferred shape (from its inputs and constants
 * only), or a stated one (in the main graph only a graph input's, which
 * the runtime checks; a computed value's stated shape may be wrong, as
 * one of onnx's definition where onnxruntime computes another): 1, else 0. */
static int static_dims(osl_foldrun *run, const onnxslim_graph *g, const char *name, osl_cv *cv,
                       int64_t *box) {
  int rc = load_const(g, name, 0, 0, cv, box);
  if (rc) return rc;
  memset(cv, 0, sizeof *cv);
  if (g == run->main) {
    osl_map_entry *e = onnxslim__map_find(&run->names, name);
    if (e && static_entry(run->rep, (size_t)e->num)) {
      size_t i = (size_t)e->num;
      cv->rank = (size_t)onnxslim_infer_report_rank(run->rep, i);
      for (size_t k = 0; k < cv->rank; k++)
        onnxslim_infer_report_dim(run->rep, i, k, &cv->dims[k], NULL);
      return 1;
    }
    if (!is_graph_input(g, name)) return 0;
  }
  const onnxslim_value_info *vi = onnxslim__graph_value_info_q(g, name);
  const onnxslim_type *ty = vi ? onnxslim_value_info_type(vi) : NULL;
  if (!ty || onnxslim_type_kind(ty) != ONNXSLIM_TYPE_TENSOR || onnxslim_type_has_shape(ty) != 1)
    return 0;
  size_t r = onnxslim_type_rank(ty);
  if (r > OSL_FOLD_MAX_RANK) return 0;
  for (size_t k = 0; k < r; k++)
    if (onnxslim_type_dim(ty, k, &cv->dims[k], NULL) != ONNXSLIM_DIM_VALUE || cv->dims[k] < 0)
      return 0;
  cv->rank = r;
  return 1;
}

/* The element type of value `name` of g (CastLike's second input): a
 * constant's, the main graph's inferred one, or a stated one (graph input,
 * output, value_info), in cv->dt (no data): 1, else 0. */
static int elem_type(osl_foldrun *run, const onnxslim_graph *g, const char *name, osl_cv *cv,
                     int64_t *box) {
  int rc = load_const(g, name, 0, 0, cv, box);
  if (rc) return rc;
  memset(cv, 0, sizeof *cv);
  osl_map_entry *e = g == run->main ? onnxslim__map_find(&run->names, name) : NULL;
  if (e) cv->dt = onnxslim_infer_report_dtype(run->rep, (size_t)e->num);
  const onnxslim_value_info *vi = cv->dt ? NULL : onnxslim__graph_value_info_q(g, name);
  const onnxslim_type *ty = vi ? onnxslim_value_info_type(vi) : NULL;
  if (ty && onnxslim_type_kind(ty) == ONNXSLIM_TYPE_TENSOR) cv->dt = onnxslim_type_dtype(ty);
  return cv->dt ? 1 : 0;
}

/* ---- replacing a node -------------------------------------------------------------- */

/* 1 when a graph output of g may be an initializer: in the main graph of
 * a model of ir_version 4 or later (onnx's full checker, 1.12 and 1.23,
 * and onnxruntime, node 1.30 and Python 1.32, take it; subgraphs keep
 * Constant nodes, as simplify_const.c says why). */
int onnxslim__simp_output_init(const onnxslim_model *m, const onnxslim_graph *g) {
  int64_t ir = onnxslim_model_ir_version(m);
  return g == onnxslim_model_graph(m) && !(ir > 0 && ir < 4);
}

/* Replaces node n of g by the value v: an initializer named as its
 * output, also when that is a graph output of the main graph
 * (onnxslim__simp_output_init), else a Constant node in n's place. Nothing
 * changes when a step fails. 0 or an error. */
static int replace(const onnxslim_model *m, onnxslim_graph *g, onnxslim_node *n, const osl_cv *v) {
  const char *y = onnxslim_node_output(n, 0);
  onnxslim_tensor *t = NULL;
  size_t size = (size_t)(v->count * v->esz);
  int rc =
      onnxslim_graph_add_initializer(g, y, v->dt, v->dims, v->rank, v->p, size, ONNXSLIM_COPY, &t);
  if (rc < 0) return rc;
  if (!is_graph_output(g, y) || onnxslim__simp_output_init(m, g)) {
    if ((rc = onnxslim__simp_drop_value_info(g, y)) < 0) return rc;
    return onnxslim_graph_remove_node(g, n);
  }
  osl_msg *k = NULL;
  const char *name = onnxslim_node_name(n);
  rc = onnxslim__graph_add_node_near((osl_msg *)g, (osl_msg *)n, 0, "Constant", NULL, name, NULL, 0,
                                     &y, 1, &k);
  if (rc >= 0 && (rc = onnxslim_node_set_attr_tensor((onnxslim_node *)k, "value", t)) < 0)
    (void)onnxslim_graph_remove_node(g, (onnxslim_node *)k);
  if (rc >= 0) rc = onnxslim_graph_remove_node(g, n);
  int rc2 = onnxslim_graph_remove_initializer(g, t);
  return rc < 0 ? rc : rc2;
}

/* ---- the pass ------------------------------------------------------------------------ */

/* Sets the dims of initializer t, its data untouched. 0 or an error. */
static int set_dims(onnxslim_tensor *t, const int64_t *dims, size_t rank) {
  osl_msg *m = (osl_msg *)t;
  onnxslim__msg_remove_all(m, onnx_TensorProto_dims_tag);
  for (size_t i = 0; i < rank; i++) {
    osl_field d;
    onnxslim__fld_varint(onnx_TensorProto_dims_tag, (uint64_t)dims[i], &d);
    int rc = onnxslim__msg_insert(m, onnxslim__msg_pos_nth(m, onnx_TensorProto_dims_tag, i), &d);
    if (rc) return rc;
  }
  return onnxslim__tensor_validate(m, "a reshaped initializer");
}

/* The run of a folded Cast from FLOAT to FLOAT16 (an osl_xform): the
 * conversion kernel, round to nearest even, overflow to Inf, subnormals
 * kept, NaN quiet with its sign and top payload bits; bit for bit what
 * onnxruntime's Cast gives (docs/simplify.md; step 32's fold_weight_casts). */
static int cast_f16_run(const osl_xform *x, size_t first, const uint8_t *src, size_t n,
                        uint8_t *dst) {
  (void)x;
  (void)first;
  onnxslim__convert_f32_to_f16(dst, src, n, 0, NULL);
  return 0;
}

/* For a Cast n of initializer t: 1 when it is one that folds in place (to
 * FLOAT16 from a FLOAT weight whose bytes are not already pending a
 * transform, no attribute but `to` and `saturate`, which applies to
 * FLOAT8 only), else 0. Only casts proven exact against onnxruntime fold:
 * FLOAT to BFLOAT16 is left (onnxruntime drops a NaN's payload; versions
 * differ on its sign), and a Cast back to FLOAT never folds (it would undo
 * a conversion). */
static int cast_in_place(const onnxslim_node *n, onnxslim_tensor *t) {
  int64_t to = 0;
  onnxslim_attr *a = onnxslim_node_find_attr(n, "to");
  if (!a || onnxslim_attr_int(a, &to) < 0 || to != ONNXSLIM_DTYPE_FLOAT16) return 0;
  for (size_t i = 0; i < onnxslim_node_attr_count(n); i++) {
    const char *name = onnxslim_attr_name(onnxslim_node_attr(n, i));
    if (strcmp(name, "to") != 0 && strcmp(name, "saturate") != 0) return 0;
  }
  if (onnxslim_tensor_dtype(t) != ONNXSLIM_DTYPE_FLOAT) return 0;
  const osl_xform *x;
  const uint8_t *p;
  size_t size;
  if (onnxslim__tensor_source((osl_msg *)t, &x, &p, &size) < 0) return 0;
  return x == NULL;
}

/* Makes initializer t (FLOAT, cast_in_place) pending its conversion to
 * FLOAT16, streamed by the save as a conversion's is: nothing is read
 * now. 0 or an error. */
static int cast_pending(onnxslim_model *m, onnxslim_tensor *t) {
  const void *data;
  size_t size;
  int rc = onnxslim_tensor_data(t, &data, &size);
  if (rc < 0) return rc;
  osl_xform *x = onnxslim__arena_alloc(&m->arena, sizeof *x);
  if (!x) return onnxslim__err_nomem("simplify: folding a Cast");
  memset(x, 0, sizeof *x);
  x->src = data;
  x->count = size / 4;
  x->in_size = 4;
  x->out_size = 2;
  x->run = cast_f16_run;
  return onnxslim__tensor_set_xform((osl_msg *)t, ONNXSLIM_DTYPE_FLOAT16, x);
}

/* A folded Transpose of a weight of any rank (an osl_xform reading its
 * source itself). The perm is normalized first: axes of size 1 dropped,
 * source axes that stay next to each other in the output merged, so a
 * [k, c, h, w] weight by [2, 3, 1, 0] is a [k, c, h*w] one by [2, 1, 0].
 * Then the output is, for each value of the output axes before the source's
 * innermost axis L (a block), a 2-D transpose of [m, dim(L)] into
 * [dim(L), m], m the product of the output axes after L: each of its
 * rows (m elements, one l) is made from m runs of the source along L, read
 * whole (as long as the perm allows) into a band, then transposed in
 * cache-sized tiles. A chunk is whole rows (w of them, so about
 * OSL_TRANSPOSE_CHUNK_BYTES) or, for rows bigger than that, a piece of one
 * row (runs of one element). Runs of at least OSL_TRANSPOSE_MIN_READ bytes,
 * and all runs of a source in memory, are read one by one
 * (onnxslim__model_read: pread for a mapped file, none of its pages gets
 * mapped; every source byte read once); shorter runs of a file are served
 * from a window of OSL_TRANSPOSE_WINDOW bytes read at once (a tall
 * [rows, cols] weight: a chunk's w columns come from windows of whole
 * rows, so the source is read about cols / w times: see
 * transpose_in_place). */
typedef struct {
  osl_xform x;
  const onnxslim_model *model;
  size_t esz;
  size_t rank;                  /* normalized, at least 2 */
  size_t q;                     /* the output position of the source's innermost axis */
  size_t od[OSL_FOLD_MAX_RANK]; /* output dims (normalized) */
  size_t os[OSL_FOLD_MAX_RANK]; /* their strides in the source (elements) */
  size_t ms[OSL_FOLD_MAX_RANK]; /* after q: their strides in the output's rows */
  size_t ro[OSL_FOLD_MAX_RANK]; /* the axes after q by source stride, innermost last */
  size_t m, dl;                 /* elements after q in the output; dim of axis q */
  int window;                   /* short runs of a file: through the window */
  int inmem;                    /* the source is in memory: runs copied in place */
} osl_txform;

#define OSL_TRANSPOSE_CHUNK_BYTES (4u << 20) /* a chunk's bytes, about */
#define OSL_TRANSPOSE_MIN_READ 256u          /* a run read on its own has at least these bytes */
#define OSL_TRANSPOSE_WINDOW (1u << 20)      /* bytes read at once for shorter runs */
/* A file's source read through the window at most this many times over
 * (else the Transpose stays a node) */
#define OSL_TRANSPOSE_MAX_PASSES 64u
#define OSL_TRANSPOSE_TILE 64

/* Reads a transpose's source: runs copied out of it by tx_copy. */
typedef struct {
  const osl_txform *t;
  uint8_t *win;
  size_t lo, hi; /* elements of the source the window holds */
} osl_treader;

static int tx_copy(osl_treader *r, size_t off, size_t n, uint8_t *dst) {
  const osl_txform *t = r->t;
  size_t esz = t->esz;
  if (t->inmem) {
    memcpy(dst, t->x.src + off * esz, n * esz);
    return 0;
  }
  if (!t->window || n * esz >= OSL_TRANSPOSE_MIN_READ)
    return onnxslim__model_read(t->model, t->x.src + off * esz, n * esz, dst);
  if (off < r->lo || off + n > r->hi) {
    if (!r->win && !(r->win = malloc(OSL_TRANSPOSE_WINDOW)))
      return onnxslim__err_nomem("simplify: folding a Transpose");
    size_t lo = t->x.count * esz <= OSL_TRANSPOSE_WINDOW ? 0 : off; /* all of it, once */
    size_t hi = lo + OSL_TRANSPOSE_WINDOW / esz;
    if (hi > t->x.count) hi = t->x.count;
    r->lo = r->hi = 0;
    int rc = onnxslim__model_read(t->model, t->x.src + lo * esz, (hi - lo) * esz, r->win);
    if (rc) return rc;
    r->lo = lo;
    r->hi = hi;
  }
  memcpy(dst, r->win + (off - r->lo) * esz, n * esz);
  return 0;
}

/* The source offset of block b (the output axes before q). */
static size_t tx_block_off(const osl_txform *t, size_t b) {
  size_t off = 0;
  for (size_t k = t->q; k-- > 0;) {
    off += (b % t->od[k]) * t->os[k];
    b /= t->od[k];
  }
  return off;
}

/* The odometers over the output axes after q: index i's source offset,
 * in the output's order (todo_*), or the runs in the source's order with
 * their place in the output's row (tsrc_*). */
typedef struct {
  size_t idx[OSL_FOLD_MAX_RANK];
  size_t off, at;
} osl_todo;

static void todo_start(const osl_txform *t, osl_todo *o, size_t i) {
  o->off = 0;
  for (size_t k = t->rank; k-- > t->q + 1;) {
    o->idx[k] = i % t->od[k];
    o->off += o->idx[k] * t->os[k];
    i /= t->od[k];
  }
}

static void todo_next(const osl_txform *t, osl_todo *o) {
  for (size_t k = t->rank; k-- > t->q + 1;) {
    o->off += t->os[k];
    if (++o->idx[k] < t->od[k]) return;
    o->off -= o->idx[k] * t->os[k];
    o->idx[k] = 0;
  }
}

static void tsrc_start(const osl_txform *t, osl_todo *o) {
  memset(o, 0, sizeof *o);
  (void)t;
}

static void tsrc_next(const osl_txform *t, osl_todo *o) {
  for (size_t j = t->rank; j-- > t->q + 1;) {
    size_t k = t->ro[j];
    o->off += t->os[k];
    o->at += t->ms[k];
    if (++o->idx[k] < t->od[k]) return;
    o->off -= o->idx[k] * t->os[k];
    o->at -= o->idx[k] * t->ms[k];
    o->idx[k] = 0;
  }
}

/* dst[l][i] = band[i][l] for a band of m rows of w elements of esz bytes. */
#define TX_TILES(T)                                                            \
  do {                                                                         \
    const T *s_ = (const T *)band;                                             \
    T *d_ = (T *)dst;                                                          \
    for (size_t ib = 0; ib < m; ib += OSL_TRANSPOSE_TILE)                      \
      for (size_t lb = 0; lb < w; lb += OSL_TRANSPOSE_TILE) {                  \
        size_t ie = ib + OSL_TRANSPOSE_TILE < m ? ib + OSL_TRANSPOSE_TILE : m; \
        size_t le = lb + OSL_TRANSPOSE_TILE < w ? lb + OSL_TRANSPOSE_TILE : w; \
        for (size_t l = lb; l < le; l++)                                       \
          for (size_t i = ib; i < ie; i++) d_[l * m + i] = s_[i * w + l];      \
      }                                                                        \
  } while (0)

static void tx_tiles(const uint8_t *band, size_t m, size_t w, size_t esz, uint8_t *dst) {
  switch (esz) {
  case 1: TX_TILES(uint8_t); break;
  case 2: TX_TILES(uint16_t); break;
  case 4: TX_TILES(uint32_t); break;
  case 8: TX_TILES(uint64_t); break;
  default:
    for (size_t ib = 0; ib < m; ib += OSL_TRANSPOSE_TILE)
      for (size_t lb = 0; lb < w; lb += OSL_TRANSPOSE_TILE) {
        size_t ie = ib + OSL_TRANSPOSE_TILE < m ? ib + OSL_TRANSPOSE_TILE : m;
        size_t le = lb + OSL_TRANSPOSE_TILE < w ? lb + OSL_TRANSPOSE_TILE : w;
        for (size_t l = lb; l < le; l++)
          for (size_t i = ib; i < ie; i++)
            memcpy(dst + (l * m + i) * esz, band + (i * w + l) * esz, esz);
      }
  }
}

/* Output elements first..first+n (any range) into dst. */
static int transpose_run(const osl_xform *x, size_t first, const uint8_t *src, size_t n,
                         uint8_t *dst) {
  (void)src;
  const osl_txform *t = (const osl_txform *)x;
  size_t esz = t->esz, m = t->m, dl = t->dl, blk = m * dl, end = first + n;
  osl_treader r = {t, NULL, 0, 0};
  uint8_t *band = NULL;
  if (n >= m) { /* whole rows: a band of the most a piece can have */
    size_t w = n / m < dl ? n / m : dl;
    if (!(band = malloc(m * w * esz))) return onnxslim__err_nomem("simplify: folding a Transpose");
  }
  osl_todo od;
  int rc = 0;
  for (size_t o = first; o < end && !rc;) {
    size_t b = o / blk, l = o % blk / m, i = o % m, base = tx_block_off(t, b) + l;
    uint8_t *out = dst + (o - first) * esz;
    if (i == 0 && end - o >= m) { /* whole rows l..l+w of block b */
      size_t w = (end - o) / m;
      if (w > dl - l) w = dl - l;
      tsrc_start(t, &od); /* runs read in the source's order: windows go forward */
      for (size_t k = 0; k < m && !rc; k++, tsrc_next(t, &od))
        rc = tx_copy(&r, base + od.off, w, band + od.at * w * esz);
      if (!rc) tx_tiles(band, m, w, esz, out);
      o += m * w;
    } else { /* a piece of row l: one element from each run */
      size_t c = m - i < end - o ? m - i : end - o;
      todo_start(t, &od, i);
      for (size_t k = 0; k < c && !rc; k++, todo_next(t, &od))
        rc = tx_copy(&r, base + od.off, 1, out + k * esz);
      o += c;
    }
  }
  free(band);
  free(r.win);
  return rc;
}

/* A transpose's plan (transpose_in_place): the normalized shape and perm,
 * or ident when it moves no byte (only axes of size 1 move). */
typedef struct {
  osl_txform t;
  int ident;
  size_t rank;                     /* the output's, as given */
  int64_t dims[OSL_FOLD_MAX_RANK]; /* likewise */
} osl_tplan;

/* Normalizes a perm of a weight of dims d (rank n) into p's transform
 * (rank, q, od, os, m, dl), or ident. 0, or -1 for a perm that is not one. */
static int transpose_normalize(const int64_t *d, size_t n, const int64_t *perm, osl_tplan *p) {
  size_t keep[OSL_FOLD_MAX_RANK], newax[OSL_FOLD_MAX_RANK], pk[OSL_FOLD_MAX_RANK];
  unsigned char seen[OSL_FOLD_MAX_RANK] = {0};
  for (size_t k = 0; k < n; k++) {
    int64_t a = perm ? perm[k] : (int64_t)(n - 1 - k);
    if (a < 0 || (uint64_t)a >= n || seen[a]) return -1;
    seen[a] = 1;
    p->dims[k] = d[a];
  }
  p->rank = n;
  /* the source axes of size over 1, renumbered; the perm over them */
  size_t nk = 0, np = 0;
  for (size_t a = 0; a < n; a++) newax[a] = d[a] > 1 ? nk++ : SIZE_MAX;
  for (size_t a = 0; a < n; a++)
    if (d[a] > 1) keep[newax[a]] = (size_t)d[a];
  for (size_t k = 0; k < n; k++) {
    size_t a = (size_t)(perm ? perm[k] : (int64_t)(n - 1 - k));
    if (newax[a] != SIZE_MAX) pk[np++] = newax[a];
  }
  /* groups: runs of the output whose source axes follow one another */
  size_t gfirst[OSL_FOLD_MAX_RANK], glen[OSL_FOLD_MAX_RANK], ng = 0;
  for (size_t k = 0; k < np; k++) {
    if (ng && pk[k] == gfirst[ng - 1] + glen[ng - 1]) glen[ng - 1]++;
    else gfirst[ng] = pk[k], glen[ng++] = 1;
  }
  p->ident = 1;
  for (size_t g = 1; g < ng; g++)
    if (gfirst[g] < gfirst[g - 1]) p->ident = 0;
  if (p->ident) return 0;
  /* each group's dim and source stride: groups in source order */
  size_t gdim[OSL_FOLD_MAX_RANK], gstr[OSL_FOLD_MAX_RANK];
  for (size_t g = 0; g < ng; g++) {
    gdim[g] = 1;
    for (size_t j = 0; j < glen[g]; j++) gdim[g] *= keep[gfirst[g] + j];
    gstr[g] = 1;
    for (size_t a = gfirst[g] + glen[g]; a < nk; a++) gstr[g] *= keep[a];
  }
  osl_txform *t = &p->t;
  t->rank = ng;
  t->m = 1;
  for (size_t g = 0; g < ng; g++) {
    t->od[g] = gdim[g];
    t->os[g] = gstr[g];
    if (gstr[g] == 1) t->q = g;
  }
  for (size_t g = ng; g-- > t->q + 1;) {
    t->ms[g] = t->m;
    t->m *= gdim[g];
  }
  t->dl = gdim[t->q];
  /* the axes after q by decreasing source stride (insertion sort) */
  for (size_t g = t->q + 1; g < ng; g++) {
    size_t j = g;
    for (; j > t->q + 1 && t->os[t->ro[j - 1]] < t->os[g]; j--) t->ro[j] = t->ro[j - 1];
    t->ro[j] = g;
  }
  return 0;
}

/* For a Transpose n of initializer t: 1 with its plan p when it folds in
 * place: a weight of a fixed-size type whose bytes are not pending a
 * transform, perm absent or a permutation, no other attribute; else 0.
 * One of a mapped file whose runs are short (under
 * OSL_TRANSPOSE_MIN_READ bytes) folds when the window reads its source at
 * most OSL_TRANSPOSE_MAX_PASSES times over (a tall weight of rows bigger
 * than a window, or of more rows than that allows, stays a node: made in
 * order with flat memory, each chunk would read the whole source again). */
static int transpose_in_place(const onnxslim_model *model, const onnxslim_node *n,
                              onnxslim_tensor *t, osl_tplan *p) {
  size_t rank = onnxslim_tensor_rank(t);
  if (!rank || rank > OSL_FOLD_MAX_RANK) return 0;
  onnxslim_attr *a = onnxslim_node_find_attr(n, "perm");
  const int64_t *perm = NULL;
  size_t np;
  if (a && (onnxslim_attr_ints(a, &perm, &np) < 0 || np != rank)) return 0;
  if (onnxslim_node_attr_count(n) != (a ? 1u : 0u)) return 0;
  unsigned int bits = onnxslim_dtype_bits(onnxslim_tensor_dtype(t));
  if (!bits || bits % 8 || onnxslim_tensor_dtype(t) == ONNXSLIM_DTYPE_STRING) return 0;
  int64_t d[OSL_FOLD_MAX_RANK];
  for (size_t k = 0; k < rank; k++)
    if ((d[k] = onnxslim_tensor_dim(t, k)) < 0) return 0;
  const osl_xform *x;
  const uint8_t *src;
  size_t size;
  if (onnxslim__tensor_source((osl_msg *)t, &x, &src, &size) < 0 || x) return 0;
  memset(p, 0, sizeof *p);
  if (transpose_normalize(d, rank, perm, p) < 0) return 0;
  if (p->ident) return 1;
  osl_txform *tx = &p->t;
  tx->esz = bits / 8;
  size_t cap = OSL_TRANSPOSE_CHUNK_BYTES / tx->esz, count = 1;
  for (size_t k = 0; k < tx->rank; k++) count *= tx->od[k];
  if (count * tx->esz != size) return 0;
  tx->x.chunk = tx->m <= cap ? cap / tx->m * tx->m : cap;
  if (tx->x.chunk > count) tx->x.chunk = count;
  int fd;
  int64_t off;
  tx->inmem = !onnxslim__model_locate(model, src, size, &fd, &off);
  size_t run = tx->x.chunk >= tx->m ? tx->x.chunk / tx->m : 1;
  if (run > tx->dl) run = tx->dl;
  if (tx->inmem || run * tx->esz >= OSL_TRANSPOSE_MIN_READ) return 1;
  /* the source stride from one run to the next: rows' runs are read in
   * the source's order, pieces of a row in the output's */
  size_t step = tx->m == 1            ? tx->os[tx->q - 1]
                : tx->x.chunk < tx->m ? tx->os[tx->rank - 1]
                                      : tx->os[tx->ro[tx->rank - 1]];
  if (size <= OSL_TRANSPOSE_WINDOW) step = run; /* one window holds it all */
  if (step * tx->esz > OSL_TRANSPOSE_WINDOW || (step + run - 1) / run > OSL_TRANSPOSE_MAX_PASSES)
    return 0;
  tx->window = 1;
  return 1;
}

/* Makes initializer t (transpose_in_place's plan p, not ident) pending its
 * transpose, streamed by the save; nothing is read now. Its dims are the
 * caller's to set. 0 or an error. */
static int transpose_pending(onnxslim_model *m, onnxslim_tensor *t, const osl_tplan *p) {
  const void *data;
  size_t size;
  int rc = onnxslim_tensor_data(t, &data, &size);
  if (rc < 0) return rc;
  osl_txform *tx = onnxslim__arena_alloc(&m->arena, sizeof *tx);
  if (!tx) return onnxslim__err_nomem("simplify: folding a Transpose");
  *tx = p->t;
  tx->model = m;
  tx->x.src = data;
  tx->x.count = size / tx->esz;
  tx->x.in_size = tx->x.out_size = tx->esz;
  tx->x.run = transpose_run;
  tx->x.self_read = 1;
  return onnxslim__tensor_set_xform((osl_msg *)t, onnxslim_tensor_dtype(t), &tx->x);
}

/* Folds an Identity, a Reshape by a constant shape, a Cast of a FLOAT
 * weight to FLOAT16 (cast_in_place) or a Transpose of a weight
 * (transpose_in_place), of an initializer that this node alone reads,
 * whatever its size: the initializer takes the output's name and dims and
 * keeps its bytes where they are (mapped, external or pending a
 * conversion's stream; a Cast's conversion or a transpose is made
 * pending, streamed to the save like convert's), so nothing is read or
 * copied. One with other
 * readers is left to the capped fold (a copy would grow the file). 1
 * folded, 0 left, or an error. */
static int fold_in_place_plan(osl_foldrun *run, onnxslim_graph *g, onnxslim_node *n,
                              osl_tplan *plan) {
  const char *op = onnxslim_node_op_type(n), *y = onnxslim_node_output(n, 0);
  int reshape = strcmp(op, "Reshape") == 0, cast = strcmp(op, "Cast") == 0;
  int transpose = strcmp(op, "Transpose") == 0;
  if (!reshape && !cast && !transpose && strcmp(op, "Identity") != 0) return 0;
  size_t nin = onnxslim_node_input_count(n);
  if (nin != (reshape ? 2u : 1u) || is_graph_output(g, y)) return 0;
  const char *x = onnxslim_node_input(n, 0);
  if (!x || !x[0] || !onnxslim__simp_const(g, x) || is_graph_output(g, x)) return 0;
  onnxslim_tensor *t = onnxslim__graph_initializer_q(g, x);
  if (!t || onnxslim__graph_consumer_count_q(g, x) != 1) return 0;
  if (onnxslim_tensor_dtype(t) == ONNXSLIM_DTYPE_STRING) return 0;
  if (cast && !cast_in_place(n, t)) return 0;
  if (transpose && !transpose_in_place(run->c->model, n, t, plan)) return 0;
  osl_cv xv, sv;
  int64_t box[2], dims[OSL_FOLD_MAX_RANK];
  size_t rank = 0;
  int rc = load_const(g, x, UINT64_MAX, 0, &xv, &box[0]);
  if (rc <= 0) return rc;
  if (reshape) {
    const char *s = onnxslim_node_input(n, 1);
    if (!s || !s[0]) return 0;
    if ((rc = load_const(g, s, run->c->fold_max_bytes, 1, &sv, &box[1])) <= 0) return rc;
    osl_fold f = {run->c->model, n, run->opset, run->c->fold_max_bytes};
    if (!onnxslim__fold_reshape_dims(&f, &xv, &sv, dims, &rank)) return 0;
  }
  const char *label = onnxslim__simp_label(n);
  if (cast && (rc = cast_pending(run->c->model, t)) < 0) return rc;
  if (transpose) {
    if (!plan->ident && (rc = transpose_pending(run->c->model, t, plan)) < 0) return rc;
    memcpy(dims, plan->dims, plan->rank * sizeof *dims);
    rank = plan->rank;
  }
  if ((rc = onnxslim__simp_drop_value_info(g, x)) < 0) return rc;
  if ((reshape || transpose) && (rc = set_dims(t, dims, rank)) < 0) return rc;
  if ((rc = onnxslim_graph_remove_node(g, n)) < 0 ||
      (rc = onnxslim_graph_rename_value(g, x, y)) < 0)
    return rc;
  return onnxslim__simp_change(run->c, g, ONNXSLIM_SIMPLIFY_FOLDED_NODE, label, y) < 0 ? -1 : 1;
}

static int fold_in_place(osl_foldrun *run, onnxslim_graph *g, onnxslim_node *n) {
  if (strcmp(onnxslim_node_op_type(n), "Transpose") != 0)
    return fold_in_place_plan(run, g, n, NULL);
  osl_tplan *plan = malloc(sizeof *plan); /* about 2 KiB: not on the stack */
  if (!plan) return onnxslim__err_nomem("simplify: folding a Transpose");
  int rc = fold_in_place_plan(run, g, n, plan);
  free(plan);
  return rc;
}

/* Folds node n of g when it can: 1 folded, 0 left, or an error. */
static int fold_node(osl_foldrun *run, onnxslim_graph *g, onnxslim_node *n) {
  const char *op = onnxslim_node_op_type(n), *d = onnxslim_node_domain(n);
  if ((d && d[0] && strcmp(d, "ai.onnx") != 0) || !onnxslim__fold_known(op)) return 0;
  if (onnxslim_node_output_count(n) != 1 || onnxslim_node_subgraph_count(n)) return 0;
  const char *y = onnxslim_node_output(n, 0);
  if (!y || !y[0]) return 0;
  int rc = fold_in_place(run, g, n);
  if (rc) return rc;
  size_t nin = onnxslim_node_input_count(n);
  if (nin < 1 || nin > 4096) return 0;
  osl_cv *in = malloc(nin * sizeof *in);
  int64_t *box = malloc(nin * sizeof *box);
  if (!in || !box) {
    free(in);
    free(box);
    return onnxslim__err_nomem("simplify: folding constants");
  }
  uint64_t cap = run->c->fold_max_bytes;
  int shape_op = strcmp(op, "Shape") == 0 || strcmp(op, "Size") == 0;
  int like = strcmp(op, "CastLike") == 0;
  rc = 1;
  for (size_t k = 0; k < nin && rc == 1; k++) {
    const char *x = onnxslim_node_input(n, k);
    if (!x || !x[0]) {
      memset(&in[k], 0, sizeof in[k]);
      continue;
    }
    rc = shape_op         ? static_dims(run, g, x, &in[k], &box[k])
         : like && k == 1 ? elem_type(run, g, x, &in[k], &box[k])
                          : load_const(g, x, cap, 1, &in[k], &box[k]);
  }
  osl_cv out;
  osl_fold f = {run->c->model, n, run->opset, cap};
  if (rc == 1) rc = onnxslim__fold_compute(&f, op, in, nin, &out);
  free(in);
  free(box);
  if (rc <= 0) return rc;
  const char *label = onnxslim__simp_label(n), *into = y;
  rc = replace(run->c->model, g, n, &out);
  onnxslim__mem_free(run->c->model, out.own);
  if (rc < 0) return rc;
  return onnxslim__simp_change(run->c, g, ONNXSLIM_SIMPLIFY_FOLDED_NODE, label, into) < 0 ? -1 : 1;
}

/* The nodes of g an If's condition is computed from (its producer and,
 * back through their inputs, theirs), in *guard (keys: the nodes): they
 * are not folded. A constant condition makes onnxruntime inline the If when it
 * loads the model and check the branch's nodes against shapes it never
 * checked before, and refuse some that run (onnx's AffineGrid function
 * feeds Range 1-element tensors in such a branch). 0 or an error. */
static int if_conditions(osl_foldrun *run, onnxslim_node **nodes, size_t nn, osl_map *guard) {
  const onnxslim_model *m = run->c->model;
  const char *what = "simplify: folding constants";
  osl_map made = {0};
  const char **stack = NULL;
  size_t top = 0, cap = 0;
  int rc = 0;
  for (size_t i = 0; i < nn && rc >= 0; i++) {
    for (size_t k = 0; k < onnxslim_node_output_count(nodes[i]) && rc >= 0; k++) {
      const char *y = onnxslim_node_output(nodes[i], k);
      osl_map_entry *e;
      if (y && y[0] && (rc = onnxslim__mem_map_add(m, &made, y, &e, what)) >= 0)
        e->value = nodes[i];
    }
    if (rc >= 0 && strcmp(onnxslim_node_op_type(nodes[i]), "If") == 0 &&
        onnxslim_node_input_count(nodes[i]) > 0) {
      if (top == cap) {
        const char **t = realloc(stack, (cap = cap ? 2 * cap : 16) * sizeof *t);
        if (!t) rc = onnxslim__err_nomem(what);
        else stack = t;
      }
      if (rc >= 0) stack[top++] = onnxslim_node_input(nodes[i], 0);
    }
  }
  while (rc >= 0 && top) {
    const char *x = stack[--top];
    const onnxslim_node *p = x && x[0] ? onnxslim__map_get(&made, x) : NULL;
    osl_map_entry *e;
    if (!p || onnxslim__map_find_ptr(guard, p)) continue;
    if ((rc = onnxslim__mem_map_add_ptr(m, guard, p, &e, what)) < 0) break;
    size_t np = onnxslim_node_input_count(p);
    if (top + np > cap) {
      const char **t = realloc(stack, (cap = 2 * (top + np) + 16) * sizeof *t);
      if (!t) {
        rc = onnxslim__err_nomem(what);
        break;
      }
      stack = t;
    }
    for (size_t k = 0; k < np; k++) stack[top++] = onnxslim_node_input(p, k);
  }
  free(stack);
  onnxslim__mem_map_free(m, &made);
  return rc < 0 ? rc : 0;
}

static int fold_graph(osl_foldrun *run, onnxslim_graph *g) {
  onnxslim_node **nodes;
  size_t nn;
  osl_map guard = {0};
  int rc = onnxslim__simp_nodes(run->c->model, g, &nodes, &nn);
  if (rc >= 0) rc = if_conditions(run, nodes, nn, &guard);
  /* a folded node is gone, or a Constant took its place (not visited) */
  for (size_t i = 0; i < nn && rc >= 0; i++)
    if (!onnxslim__simp_gone(nodes[i]) && !onnxslim__map_find_ptr(&guard, nodes[i]))
      rc = fold_node(run, g, nodes[i]);
  onnxslim__mem_map_free(run->c->model, &guard);
  onnxslim__simp_nodes_free(run->c->model, nodes, nn);
  if (rc < 0) return rc;
  for (size_t i = 0; i < onnxslim_graph_node_count(g); i++) {
    onnxslim_node *n = onnxslim_graph_node(g, i);
    for (size_t k = 0; k < onnxslim_node_subgraph_count(n); k++)
      if ((rc = fold_graph(run, onnxslim_node_subgraph(n, k))) < 0) return rc;
  }
  return 0;
}

/* The types and shapes inference gives the main graph's values, found
 * by name through one map (elem_type() reads an entry's element type,
 * static_dims() its shape when static). */
static int infer_static(osl_foldrun *run) {
  int rc = onnxslim__infer_shapes(&run->rep, run->c->model,
                                  ONNXSLIM_INFER_DRY_RUN | ONNXSLIM__INFER_UNSTATED);
  if (rc < 0) return rc;
  size_t n = onnxslim_infer_report_count(run->rep);
  if ((rc = onnxslim__mem_map_reserve(run->c->model, &run->names, n,
                                      "simplify: folding constants")) < 0)
    return rc;
  for (size_t i = 0; i < n && i < INT32_MAX; i++) {
    if (i + OSL_SIMP_AHEAD < n)
      onnxslim__map_prefetch(&run->names, onnxslim_infer_report_name(run->rep, i + OSL_SIMP_AHEAD));
    if (onnxslim_infer_report_status(run->rep, i) == ONNXSLIM_INFER_CONFLICT) continue;
    osl_map_entry *e;
    rc = onnxslim__mem_map_add(run->c->model, &run->names, onnxslim_infer_report_name(run->rep, i),
                               &e, "simplify: folding constants");
    if (rc < 0) return rc;
    e->num = (int32_t)i;
  }
  return 0;
}

int onnxslim__simp_fold(osl_simp *c) {
  osl_foldrun run = {c, onnxslim_model_graph(c->model), NULL, {0}, opset_of(c->model)};
  int rc = infer_static(&run);
  if (rc >= 0) rc = fold_graph(&run, run.main);
  onnxslim__mem_map_free(c->model, &run.names);
  onnxslim_infer_report_free(run.rep);
  return rc < 0 ? rc : 0;
}
