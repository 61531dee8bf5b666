/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/* Small helpers shared by the C tests (inline: a program that does not use
 * one gets no unused-function warning). */
#ifndef ONNXSLIM_TEST_UTIL_H
#define ONNXSLIM_TEST_UTIL_H
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* The whole file at path, malloc'ed (free it); *n receives its size.
 * NULL if it cannot be read. */
static inline unsigned char *slurp(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  *n = 0;
  if (!f) return NULL;
  long len = -1;
  if (fseek(f, 0, SEEK_END) == 0) len = ftell(f);
  if (len < 0 || fseek(f, 0, SEEK_SET) != 0) {
    fclose(f);
    return NULL;
  }
  unsigned char *p = malloc(len > 0 ? (size_t)len : 1);
  if (p && len > 0 && fread(p, 1, (size_t)len, f) != (size_t)len) {
    free(p);
    p = NULL;
  }
  fclose(f);
  if (p) *n = (size_t)len;
  return p;
}

/* Hidden entries (names starting with '.': side files) of directory d,
 * "." and ".." aside; -1 when d cannot be read. */
#include <dirent.h>
#include <string.h>
static inline int count_hidden(const char *d) {
  DIR *dd = opendir(d);
  if (!dd) return -1;
  int n = 0;
  struct dirent *e;
  while ((e = readdir(dd)))
    if (e->d_name[0] == '.' && strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) n++;
  closedir(dd);
  return n;
}

/* Checks cond (t.h's CHECK) and leaves the test when it is false. */
#define REQUIRE(cond) \
  do {                \
    if (!(cond)) {    \
      CHECK(cond);    \
      return;         \
    }                 \
  } while (0)

/* snprintf into buf, returning buf; PATH(buf, fmt, ...) for arrays. */
static inline const char *P(char *buf, size_t cap, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, cap, fmt, ap);
  va_end(ap);
  return buf;
}
#define PATH(buf, ...) P(buf, sizeof buf, __VA_ARGS__)

/* Writes n bytes at p to path; 0 or -1. */
static inline int write_bytes(const char *path, const void *p, size_t n) {
  FILE *f = fopen(path, "wb");
  if (!f) return -1;
  int ok = fwrite(p, 1, n, f) == n;
  return fclose(f) == 0 && ok ? 0 : -1;
}

#if defined(ONNXSLIM_SAVE_H) || defined(ONNXSLIM_TEST_EDIT_HELPERS)
#  include <stdint.h>

#  include <onnxslim.h>

/* The model's bytes as saved now (malloc'ed), or NULL. */
static inline uint8_t *save_bytes(const onnxslim_model *m, size_t *n) {
  size_t need = 0;
  *n = 0;
  if (onnxslim_save_buffer(m, NULL, 0, &need) != ONNXSLIM_EBUFSIZE) return NULL;
  uint8_t *p = malloc(need ? need : 1);
  if (!p) return NULL;
  if (onnxslim_save_buffer(m, p, need, n) != 0 || *n != need) {
    free(p);
    return NULL;
  }
  return p;
}
#endif

#ifdef ONNXSLIM_TEST_EDIT_HELPERS
/* Helpers of the edit tests (test_graph.c, test_node.c, test_model.c,
 * test_insert.c, test_cleanup.c): define ONNXSLIM_TEST_EDIT_HELPERS before
 * including this file. Run those tests from the repository root. */
#  include <stdint.h>
#  include <string.h>

#  include <onnxslim.h>

#  include "pbuild.h"
#  include "t.h"

#  define BERT "test/data/bert-tiny.onnx"
#  define TESTDATA "/usr/share/libonnx-testdata/data"
#  define TEST_IF TESTDATA "/node/test_if/model.onnx"

/* ---- helpers ------------------------------------------------------------- */

/* Saves the model to a buffer and loads the bytes into a new model: the
 * real proof that an edit took. NULL (and a failed check) on error. */
static inline onnxslim_model *reload(const onnxslim_model *m) {
  size_t n = 0;
  uint8_t *p = save_bytes(m, &n);
  CHECK(p != NULL);
  if (!p) return NULL;
  onnxslim_model *r = NULL;
  CHECK_OK(onnxslim_model_from_buffer(&r, p, n, ONNXSLIM_COPY, NULL));
  free(p);
  return r;
}

static inline onnxslim_model *open_model(const char *path) {
  onnxslim_model *m = NULL;
  if (onnxslim_model_open(&m, path, NULL) != 0) return NULL;
  return m;
}

static inline onnxslim_model *from_pbuf(pbuf *b) {
  onnxslim_model *m = NULL;
  int rc = onnxslim_model_from_buffer(&m, b->p, b->n, ONNXSLIM_COPY, NULL);
  if (rc) fprintf(stderr, "cannot load hand-built model: %s\n", onnxslim_error_last());
  free(b->p);
  memset(b, 0, sizeof *b);
  return m;
}

static inline onnxslim_node *node_named(const onnxslim_model *m, const char *name) {
  return onnxslim_graph_find_node(onnxslim_model_graph(m), name);
}

static inline int streq(const char *a, const char *b) { return a && b && strcmp(a, b) == 0; }

static inline size_t index_of(const onnxslim_graph *g, const onnxslim_node *n) {
  for (size_t i = 0; i < onnxslim_graph_node_count(g); i++)
    if (onnxslim_graph_node(g, i) == n) return i;
  return SIZE_MAX;
}

static inline size_t index_named(const onnxslim_graph *g, const char *name) {
  onnxslim_node *n = onnxslim_graph_find_node(g, name);
  return n ? index_of(g, n) : SIZE_MAX;
}

static inline onnxslim_graph *sub_of(const onnxslim_node *n, const char *attr) {
  return onnxslim_attr_graph(onnxslim_node_find_attr(n, attr));
}

static inline int has_input(const onnxslim_graph *g, const char *name) {
  for (size_t i = 0; i < onnxslim_graph_input_count(g); i++)
    if (streq(onnxslim_value_info_name(onnxslim_graph_input(g, i)), name)) return 1;
  return 0;
}
static inline int has_output(const onnxslim_graph *g, const char *name) {
  for (size_t i = 0; i < onnxslim_graph_output_count(g); i++)
    if (streq(onnxslim_value_info_name(onnxslim_graph_output(g, i)), name)) return 1;
  return 0;
}
static inline onnxslim_value_info *value_info_named(const onnxslim_graph *g, const char *name) {
  for (size_t i = 0; i < onnxslim_graph_value_info_count(g); i++)
    if (streq(onnxslim_value_info_name(onnxslim_graph_value_info(g, i)), name))
      return onnxslim_graph_value_info(g, i);
  return NULL;
}

/* Does any node of g, or of a subgraph below it, read `name`? */
static inline int reads_anywhere(const onnxslim_graph *g, const char *name) {
  for (size_t i = 0; i < onnxslim_graph_node_count(g); i++) {
    onnxslim_node *n = onnxslim_graph_node(g, i);
    for (size_t k = 0; k < onnxslim_node_input_count(n); k++)
      if (streq(onnxslim_node_input(n, k), name)) return 1;
    for (size_t a = 0; a < onnxslim_node_attr_count(n); a++) {
      onnxslim_attr *at = onnxslim_node_attr(n, a);
      if (onnxslim_attr_type(at) == ONNXSLIM_ATTR_GRAPH &&
          reads_anywhere(onnxslim_attr_graph(at), name))
        return 1;
    }
  }
  return 0;
}

/* Is every node's every input produced before it (or a graph input, an
 * initializer, an outer value known to `outer`, or omitted)? Checks
 * subgraphs too, with the names visible there. */
typedef struct {
  const char **v;
  size_t n, cap;
} names;
static int sort_quiet; /* set while an unsorted graph is expected */
static inline void names_add(names *s, const char *x) {
  if (s->n == s->cap) {
    s->cap = s->cap * 2 + 16;
    s->v = realloc(s->v, s->cap * sizeof *s->v);
    if (!s->v) abort();
  }
  s->v[s->n++] = x;
}
static inline int names_has(const names *s, const char *x) {
  for (size_t i = 0; i < s->n; i++)
    if (strcmp(s->v[i], x) == 0) return 1;
  return 0;
}
static inline int sorted_ok(const onnxslim_graph *g, names *known) {
  size_t base = known->n;
  int ok = 1;
  for (size_t i = 0; i < onnxslim_graph_input_count(g); i++)
    names_add(known, onnxslim_value_info_name(onnxslim_graph_input(g, i)));
  for (size_t i = 0; i < onnxslim_graph_initializer_count(g); i++)
    names_add(known, onnxslim_tensor_name(onnxslim_graph_initializer(g, i)));
  for (size_t i = 0; i < onnxslim_graph_node_count(g) && ok; i++) {
    onnxslim_node *n = onnxslim_graph_node(g, i);
    for (size_t k = 0; k < onnxslim_node_input_count(n); k++) {
      const char *in = onnxslim_node_input(n, k);
      if (in[0] && !names_has(known, in)) {
        if (!sort_quiet)
          fprintf(stderr, "node %zu '%s' reads '%s' before it is produced\n", i,
                  onnxslim_node_name(n), in);
        ok = 0;
      }
    }
    for (size_t a = 0; a < onnxslim_node_attr_count(n) && ok; a++) {
      onnxslim_attr *at = onnxslim_node_attr(n, a);
      if (onnxslim_attr_type(at) == ONNXSLIM_ATTR_GRAPH)
        ok = sorted_ok(onnxslim_attr_graph(at), known);
    }
    for (size_t k = 0; k < onnxslim_node_output_count(n); k++)
      names_add(known, onnxslim_node_output(n, k));
  }
  known->n = base;
  return ok;
}
static inline int graph_sorted(const onnxslim_graph *g) {
  names s = {0};
  int ok = sorted_ok(g, &s);
  free(s.v);
  return ok;
}
static inline int graph_unsorted(const onnxslim_graph *g) {
  sort_quiet = 1;
  int ok = graph_sorted(g);
  sort_quiet = 0;
  return !ok;
}

/* Every name used in g and below (node names, inputs, outputs, value info
 * and tensor names, graph names), for uniqueness checks. */
static inline void collect_names(const onnxslim_graph *g, names *s) {
  names_add(s, onnxslim_graph_name(g));
  for (size_t i = 0; i < onnxslim_graph_input_count(g); i++)
    names_add(s, onnxslim_value_info_name(onnxslim_graph_input(g, i)));
  for (size_t i = 0; i < onnxslim_graph_output_count(g); i++)
    names_add(s, onnxslim_value_info_name(onnxslim_graph_output(g, i)));
  for (size_t i = 0; i < onnxslim_graph_value_info_count(g); i++)
    names_add(s, onnxslim_value_info_name(onnxslim_graph_value_info(g, i)));
  for (size_t i = 0; i < onnxslim_graph_initializer_count(g); i++)
    names_add(s, onnxslim_tensor_name(onnxslim_graph_initializer(g, i)));
  for (size_t i = 0; i < onnxslim_graph_node_count(g); i++) {
    onnxslim_node *n = onnxslim_graph_node(g, i);
    names_add(s, onnxslim_node_name(n));
    for (size_t k = 0; k < onnxslim_node_input_count(n); k++)
      names_add(s, onnxslim_node_input(n, k));
    for (size_t k = 0; k < onnxslim_node_output_count(n); k++)
      names_add(s, onnxslim_node_output(n, k));
    for (size_t a = 0; a < onnxslim_node_attr_count(n); a++) {
      onnxslim_attr *at = onnxslim_node_attr(n, a);
      if (onnxslim_attr_type(at) == ONNXSLIM_ATTR_GRAPH) collect_names(onnxslim_attr_graph(at), s);
      if (onnxslim_attr_type(at) == ONNXSLIM_ATTR_GRAPHS)
        for (size_t j = 0; j < onnxslim_attr_list_count(at); j++)
          collect_names(onnxslim_attr_graphs(at, j), s);
    }
  }
}

/* ---- hand-built models ---------------------------------------------------- */

#  define L(...) ((const char *const[]){__VA_ARGS__, NULL})

/* ValueInfoProto `name` as field `field` of g; elem < 0: no type; rank < 0:
 * no shape. */
static inline void pb_vi(pbuf *g, uint32_t field, const char *name, int elem, int rank,
                         const int64_t *dims) {
  pbuf vi = {0}, ty = {0}, tt = {0}, shape = {0};
  pb_str(&vi, 1, name);
  if (elem >= 0) {
    pb_int(&tt, 1, (uint64_t)elem);
    if (rank >= 0) {
      for (int i = 0; i < rank; i++) {
        pbuf dim = {0};
        pb_int(&dim, 1, (uint64_t)dims[i]);
        pb_msg(&shape, 1, &dim);
      }
      pb_msg(&tt, 2, &shape); /* an empty shape (rank 0) is still written */
    }
    pb_msg(&ty, 1, &tt);
    pb_msg(&vi, 2, &ty);
  }
  pb_msg(g, field, &vi);
}
static const int64_t dims3[] = {3};

/* NodeProto as field 1 of g: inputs/outputs are NULL-terminated lists; attrs
 * (may be NULL) are already-encoded AttributeProto field-5 entries. */
static inline void pb_node(pbuf *g, const char *op, const char *name, const char *const *in,
                           const char *const *out, pbuf *attrs) {
  pbuf n = {0};
  for (; in && *in; in++) pb_str(&n, 1, *in);
  for (; out && *out; out++) pb_str(&n, 2, *out);
  if (name) pb_str(&n, 3, name);
  pb_str(&n, 4, op);
  if (attrs && attrs->n) pb_put(&n, attrs->p, attrs->n);
  if (attrs) {
    free(attrs->p);
    memset(attrs, 0, sizeof *attrs);
  }
  pb_msg(g, 1, &n);
}
/* Appends a GRAPH attribute `name` holding (and freeing) graph body `sub`. */
static inline void pb_graph_attr(pbuf *attrs, const char *name, pbuf *sub) {
  pbuf a = {0};
  pb_str(&a, 1, name);
  pb_msg(&a, 6, sub);
  pb_int(&a, 20, ONNXSLIM_ATTR_GRAPH);
  pb_msg(attrs, 5, &a);
}
static inline void pb_int_attr(pbuf *attrs, const char *name, int64_t v) {
  pbuf a = {0};
  pb_str(&a, 1, name);
  pb_int(&a, 3, (uint64_t)v);
  pb_int(&a, 20, ONNXSLIM_ATTR_INT);
  pb_msg(attrs, 5, &a);
}
/* TensorProto float[count] initializer `name` as field 5 of g. */
static inline void pb_init(pbuf *g, const char *name, const float *v, size_t count) {
  pbuf t = {0};
  pb_int(&t, 1, count);
  pb_int(&t, 2, ONNXSLIM_DTYPE_FLOAT);
  pb_str(&t, 8, name);
  pb_bytes(&t, 9, v, count * sizeof *v);
  pb_msg(g, 5, &t);
}
/* ModelProto around graph body g (freed), IR 8, opset 17. */
static inline pbuf pb_model(pbuf *g) {
  pbuf m = {0}, op = {0};
  pb_int(&m, 1, 8);
  pb_str(&m, 2, "libonnxslim-test");
  pb_msg(&m, 7, g);
  pb_int(&op, 2, 17);
  pb_msg(&m, 8, &op);
  return m;
}

/* x:float[3] -> Relu "relu" -> y (graph output) */
static inline onnxslim_model *min_model(void) {
  pbuf g = {0};
  pb_node(&g, "Relu", "relu", L("x"), L("y"), NULL);
  pb_str(&g, 2, "min");
  pb_vi(&g, 11, "x", ONNXSLIM_DTYPE_FLOAT, 1, dims3);
  pb_vi(&g, 12, "y", ONNXSLIM_DTYPE_FLOAT, 1, dims3);
  pbuf m = pb_model(&g);
  return from_pbuf(&m);
}

/* x -> Relu "relu" -> y; y -> Neg "neg" -> z; y -> Exp "exp" -> w;
 * outputs y, z, w (all typed float[3]); value_info for nothing. */
static inline onnxslim_model *fan_model(void) {
  pbuf g = {0};
  pb_node(&g, "Relu", "relu", L("x"), L("y"), NULL);
  pb_node(&g, "Neg", "neg", L("y"), L("z"), NULL);
  pb_node(&g, "Exp", "exp", L("y"), L("w"), NULL);
  pb_str(&g, 2, "fan");
  pb_vi(&g, 11, "x", ONNXSLIM_DTYPE_FLOAT, 1, dims3);
  pb_vi(&g, 12, "y", ONNXSLIM_DTYPE_FLOAT, 1, dims3);
  pb_vi(&g, 12, "z", ONNXSLIM_DTYPE_FLOAT, 1, dims3);
  pb_vi(&g, 12, "w", ONNXSLIM_DTYPE_FLOAT, 1, dims3);
  pbuf m = pb_model(&g);
  return from_pbuf(&m);
}

/* A model whose If branches read outer values without listing them:
 *   inputs x:float[3], cond:bool[]; initializer b:float[3]
 *   relu: Relu(x) -> v        (value_info v: float[3])
 *   neg:  Neg(v)  -> nv       (graph output)
 *   if:   If(cond) -> res     (graph output)
 *     then_branch "then": then_add: Add(v, b) -> t1
 *                         inner_if: If(cond) -> t
 *                           then_branch "inner_then": inner_id: Identity(v) -> it
 *                           else_branch "inner_else": inner_neg: Neg(t1) -> ie
 *                         output t
 *     else_branch "else": else_abs: Abs(x) -> v   (defines its own v)
 *                         else_neg: Neg(v) -> e
 *                         output e
 * With shadow = 0 the else branch reads the outer v instead (a valid model). */
static inline onnxslim_model *capture_model(int shadow) {
  pbuf g = {0}, attrs = {0}, then_g = {0}, else_g = {0}, in_then = {0}, in_else = {0},
       in_attrs = {0};
  static const float bv[3] = {0.5f, -1.0f, 2.0f};
  pb_node(&in_then, "Identity", "inner_id", L("v"), L("it"), NULL);
  pb_str(&in_then, 2, "inner_then");
  pb_vi(&in_then, 12, "it", ONNXSLIM_DTYPE_FLOAT, 1, dims3);
  pb_node(&in_else, "Neg", "inner_neg", L("t1"), L("ie"), NULL);
  pb_str(&in_else, 2, "inner_else");
  pb_vi(&in_else, 12, "ie", ONNXSLIM_DTYPE_FLOAT, 1, dims3);
  pb_graph_attr(&in_attrs, "else_branch", &in_else);
  pb_graph_attr(&in_attrs, "then_branch", &in_then);
  pb_node(&then_g, "Add", "then_add", L("v", "b"), L("t1"), NULL);
  pb_node(&then_g, "If", "inner_if", L("cond"), L("t"), &in_attrs);
  pb_str(&then_g, 2, "then");
  pb_vi(&then_g, 12, "t", ONNXSLIM_DTYPE_FLOAT, 1, dims3);
  if (shadow) {
    pb_node(&else_g, "Abs", "else_abs", L("x"), L("v"), NULL);
    pb_node(&else_g, "Neg", "else_neg", L("v"), L("e"), NULL);
  } else {
    pb_node(&else_g, "Neg", "else_neg", L("v"), L("e"), NULL);
  }
  pb_str(&else_g, 2, "else");
  pb_vi(&else_g, 12, "e", ONNXSLIM_DTYPE_FLOAT, 1, dims3);
  pb_graph_attr(&attrs, "else_branch", &else_g);
  pb_graph_attr(&attrs, "then_branch", &then_g);
  pb_node(&g, "Relu", "relu", L("x"), L("v"), NULL);
  pb_node(&g, "Neg", "neg", L("v"), L("nv"), NULL);
  pb_node(&g, "If", "if", L("cond"), L("res"), &attrs);
  pb_str(&g, 2, "main");
  pb_init(&g, "b", bv, 3);
  pb_vi(&g, 11, "x", ONNXSLIM_DTYPE_FLOAT, 1, dims3);
  pb_vi(&g, 11, "cond", ONNXSLIM_DTYPE_BOOL, 0, NULL);
  pb_vi(&g, 12, "nv", ONNXSLIM_DTYPE_FLOAT, 1, dims3);
  pb_vi(&g, 12, "res", ONNXSLIM_DTYPE_FLOAT, 1, dims3);
  pb_vi(&g, 13, "v", ONNXSLIM_DTYPE_FLOAT, 1, dims3);
  pbuf m = pb_model(&g);
  return from_pbuf(&m);
}

static inline int tensor_equal(const onnxslim_tensor *a, const onnxslim_tensor *b) {
  if (!a || !b) return 0;
  if (onnxslim_tensor_dtype(a) != onnxslim_tensor_dtype(b)) return 0;
  if (onnxslim_tensor_rank(a) != onnxslim_tensor_rank(b)) return 0;
  for (size_t i = 0; i < onnxslim_tensor_rank(a); i++)
    if (onnxslim_tensor_dim(a, i) != onnxslim_tensor_dim(b, i)) return 0;
  const void *da = NULL, *db = NULL;
  size_t na = 0, nb = 0;
  if (onnxslim_tensor_data(a, &da, &na) || onnxslim_tensor_data(b, &db, &nb)) return 0;
  return na == nb && (na == 0 || memcmp(da, db, na) == 0);
}
#endif /* ONNXSLIM_TEST_EDIT_HELPERS */
#ifdef ONNXSLIM_SAVE_H
/* Entry i of a save report, through the one-field getters; any out pointer
 * may be NULL (outputs are cleared first). 0, or the getters' error code. */
static inline int save_report_entry(const onnxslim_save_report *r, size_t i, const char **name,
                                    int *placement, const char **location, uint64_t *offset,
                                    uint64_t *length) {
  if (name) *name = NULL;
  if (placement) *placement = -1;
  if (location) *location = NULL;
  if (offset) *offset = 0;
  if (length) *length = 0;
  int pl = onnxslim_save_report_placement(r, i);
  if (pl < 0) return pl;
  if (name) *name = onnxslim_save_report_name(r, i);
  if (placement) *placement = pl;
  if (location) *location = onnxslim_save_report_location(r, i);
  uint64_t v = 0;
  if (offset) {
    int rc = onnxslim_save_report_offset(r, i, &v);
    if (rc) return rc;
    *offset = v;
  }
  if (length) {
    int rc = onnxslim_save_report_length(r, i, &v);
    if (rc) return rc;
    *length = v;
  }
  return 0;
}
#endif

#endif
