/* Unit tests of the edit API (graph, node, attribute, tensor, value info and
 * model edits), of insertion on edges (insert.h) and of cleanup (cleanup.h).
 * Every edit is proven by saving to a buffer, loading the bytes again and
 * looking for the edit in the reloaded model. Run from the repository root. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <onnxslim.h>

#include "util.h"

#include "pbuild.h"
#include "t.h"

#define BERT "test/data/bert-tiny.onnx"
#define TESTDATA "/usr/share/libonnx-testdata/data"
#define TEST_IF TESTDATA "/node/test_if/model.onnx"

/* ---- helpers ------------------------------------------------------------- */

/* The model's bytes as saved now (malloc'ed), or NULL. */
static uint8_t *save_bytes(const onnxslim_model *m, size_t *n) {
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

/* Saves the model to a buffer and loads the bytes into a new model: the
 * real proof that an edit took. NULL (and a failed check) on error. */
static onnxslim_model *reload(const onnxslim_model *m) {
  size_t n = 0;
  uint8_t *p = save_bytes(m, &n);
  CHECK(p != NULL);
  if (!p) return NULL;
  onnxslim_model *r = NULL;
  CHECK_OK(onnxslim_model_from_buffer(&r, p, n, ONNXSLIM_BUFFER_COPY, NULL));
  free(p);
  return r;
}

static onnxslim_model *open_model(const char *path) {
  onnxslim_model *m = NULL;
  if (onnxslim_model_open(&m, path, NULL) != 0) return NULL;
  return m;
}

static onnxslim_model *from_pbuf(pbuf *b) {
  onnxslim_model *m = NULL;
  int rc = onnxslim_model_from_buffer(&m, b->p, b->n, ONNXSLIM_BUFFER_COPY, NULL);
  if (rc) fprintf(stderr, "cannot load hand-built model: %s\n", onnxslim_error_last());
  free(b->p);
  memset(b, 0, sizeof *b);
  return m;
}

static onnxslim_node *node_named(const onnxslim_model *m, const char *name) {
  return onnxslim_graph_find_node(onnxslim_model_graph(m), name);
}

static int streq(const char *a, const char *b) { return a && b && strcmp(a, b) == 0; }

static size_t index_of(const onnxslim_graph *g, const onnxslim_node *n) {
  for (size_t i = 0; i < onnxslim_graph_node_count(g); i++)
    if (onnxslim_graph_node(g, i) == n) return i;
  return SIZE_MAX;
}

static size_t index_named(const onnxslim_graph *g, const char *name) {
  onnxslim_node *n = onnxslim_graph_find_node(g, name);
  return n ? index_of(g, n) : SIZE_MAX;
}

static onnxslim_graph *sub_of(const onnxslim_node *n, const char *attr) {
  return onnxslim_attr_graph(onnxslim_node_find_attr(n, attr));
}

static int has_input(const onnxslim_graph *g, const char *name) {
  for (size_t i = 0; i < onnxslim_graph_input_count(g); i++)
    if (streq(onnxslim_value_info_name(onnxslim_graph_input(g, i)), name)) return 1;
  return 0;
}
static int has_output(const onnxslim_graph *g, const char *name) {
  for (size_t i = 0; i < onnxslim_graph_output_count(g); i++)
    if (streq(onnxslim_value_info_name(onnxslim_graph_output(g, i)), name)) return 1;
  return 0;
}
static onnxslim_value_info *value_info_named(const onnxslim_graph *g, const char *name) {
  for (size_t i = 0; i < onnxslim_graph_value_info_count(g); i++)
    if (streq(onnxslim_value_info_name(onnxslim_graph_value_info(g, i)), name))
      return onnxslim_graph_value_info(g, i);
  return NULL;
}

/* Does any node of g, or of a subgraph below it, read `name`? */
static int reads_anywhere(const onnxslim_graph *g, const char *name) {
  for (size_t i = 0; i < onnxslim_graph_node_count(g); i++) {
    onnxslim_node *n = onnxslim_graph_node(g, i);
    for (size_t k = 0; k < onnxslim_node_input_count(n); k++)
      if (streq(onnxslim_node_input(n, k), name)) return 1;
    for (size_t a = 0; a < onnxslim_node_attr_count(n); a++) {
      onnxslim_attr *at = onnxslim_node_attr(n, a);
      if (onnxslim_attr_type(at) == ONNXSLIM_ATTR_GRAPH && reads_anywhere(onnxslim_attr_graph(at), name))
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
static void names_add(names *s, const char *x) {
  if (s->n == s->cap) {
    s->cap = s->cap * 2 + 16;
    s->v = realloc(s->v, s->cap * sizeof *s->v);
    if (!s->v) abort();
  }
  s->v[s->n++] = x;
}
static int names_has(const names *s, const char *x) {
  for (size_t i = 0; i < s->n; i++)
    if (strcmp(s->v[i], x) == 0) return 1;
  return 0;
}
static int sorted_ok(const onnxslim_graph *g, names *known) {
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
      if (onnxslim_attr_type(at) == ONNXSLIM_ATTR_GRAPH) ok = sorted_ok(onnxslim_attr_graph(at), known);
    }
    for (size_t k = 0; k < onnxslim_node_output_count(n); k++)
      names_add(known, onnxslim_node_output(n, k));
  }
  known->n = base;
  return ok;
}
static int graph_sorted(const onnxslim_graph *g) {
  names s = {0};
  int ok = sorted_ok(g, &s);
  free(s.v);
  return ok;
}
static int graph_unsorted(const onnxslim_graph *g) {
  sort_quiet = 1;
  int ok = graph_sorted(g);
  sort_quiet = 0;
  return !ok;
}

/* Every name used in g and below (node names, inputs, outputs, value info
 * and tensor names, graph names), for uniqueness checks. */
static void collect_names(const onnxslim_graph *g, names *s) {
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
    for (size_t k = 0; k < onnxslim_node_input_count(n); k++) names_add(s, onnxslim_node_input(n, k));
    for (size_t k = 0; k < onnxslim_node_output_count(n); k++)
      names_add(s, onnxslim_node_output(n, k));
    for (size_t a = 0; a < onnxslim_node_attr_count(n); a++) {
      onnxslim_attr *at = onnxslim_node_attr(n, a);
      if (onnxslim_attr_type(at) == ONNXSLIM_ATTR_GRAPH) collect_names(onnxslim_attr_graph(at), s);
      if (onnxslim_attr_type(at) == ONNXSLIM_ATTR_GRAPHS)
        for (size_t j = 0; j < onnxslim_attr_list_size(at); j++)
          collect_names(onnxslim_attr_graphs_at(at, j), s);
    }
  }
}

/* ---- hand-built models ---------------------------------------------------- */

#define L(...) ((const char *const[]){__VA_ARGS__, NULL})

/* ValueInfoProto `name` as field `field` of g; elem < 0: no type; rank < 0:
 * no shape. */
static void pb_vi(pbuf *g, uint32_t field, const char *name, int elem, int rank,
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
static void pb_node(pbuf *g, const char *op, const char *name, const char *const *in,
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
static void pb_graph_attr(pbuf *attrs, const char *name, pbuf *sub) {
  pbuf a = {0};
  pb_str(&a, 1, name);
  pb_msg(&a, 6, sub);
  pb_int(&a, 20, ONNXSLIM_ATTR_GRAPH);
  pb_msg(attrs, 5, &a);
}
static void pb_int_attr(pbuf *attrs, const char *name, int64_t v) {
  pbuf a = {0};
  pb_str(&a, 1, name);
  pb_int(&a, 3, (uint64_t)v);
  pb_int(&a, 20, ONNXSLIM_ATTR_INT);
  pb_msg(attrs, 5, &a);
}
/* TensorProto float[count] initializer `name` as field 5 of g. */
static void pb_init(pbuf *g, const char *name, const float *v, size_t count) {
  pbuf t = {0};
  pb_int(&t, 1, count);
  pb_int(&t, 2, ONNXSLIM_DTYPE_FLOAT);
  pb_str(&t, 8, name);
  pb_bytes(&t, 9, v, count * sizeof *v);
  pb_msg(g, 5, &t);
}
/* ModelProto around graph body g (freed), IR 8, opset 17. */
static pbuf pb_model(pbuf *g) {
  pbuf m = {0}, op = {0};
  pb_int(&m, 1, 8);
  pb_str(&m, 2, "libonnxslim-test");
  pb_msg(&m, 7, g);
  pb_int(&op, 2, 17);
  pb_msg(&m, 8, &op);
  return m;
}

/* x:float[3] -> Relu "relu" -> y (graph output) */
static onnxslim_model *min_model(void) {
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
static onnxslim_model *fan_model(void) {
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
static onnxslim_model *capture_model(int shadow) {
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

/* ---- nodes ------------------------------------------------------------------ */

TEST(node_add) {
  onnxslim_model *m = min_model();
  CHECK(m != NULL);
  if (!m) return;
  onnxslim_graph *g = onnxslim_model_graph(m);
  onnxslim_node *n = NULL, *first = NULL;
  CHECK_OK(onnxslim_graph_add_node(g, SIZE_MAX, "Neg", NULL, "neg", L("y"), 1, L("z"), 1, &n));
  CHECK(n != NULL && index_of(g, n) == 1);
  CHECK_STR(onnxslim_node_op_type(n), "Neg");
  CHECK(onnxslim_node_graph(n) == g);
  /* at the front, with a domain, an omitted (NULL) input and no name */
  const char *ins[3] = {"x", NULL, "y"};
  CHECK_OK(onnxslim_graph_add_node(g, 0, "Custom", "com.example", NULL, ins, 3, L("c0", "c1"), 2,
                                   &first));
  CHECK(index_of(g, first) == 0 && index_of(g, n) == 2);
  /* explicit index equal to the count appends */
  CHECK_OK(onnxslim_graph_add_node(g, 3, "Abs", "", "abs", L("z"), 1, L("za"), 1, NULL));
  CHECK(onnxslim_graph_add_node(g, 5, "Abs", NULL, "bad", L("z"), 1, L("zb"), 1, NULL) ==
        ONNXSLIM_ERANGE);
  CHECK(onnxslim_graph_add_node(g, 0, NULL, NULL, "bad", NULL, 0, NULL, 0, NULL) == ONNXSLIM_EINVAL);
  CHECK(onnxslim_graph_node_count(g) == 4);
  CHECK(onnxslim_graph_find_node(g, "neg") == n); /* lookup index rebuilt */
  CHECK(onnxslim_graph_producer(g, "z") == n);
  onnxslim_model *r = reload(m);
  if (r) {
    onnxslim_graph *rg = onnxslim_model_graph(r);
    CHECK(onnxslim_graph_node_count(rg) == 4);
    onnxslim_node *c = onnxslim_graph_node(rg, 0);
    CHECK_STR(onnxslim_node_op_type(c), "Custom");
    CHECK_STR(onnxslim_node_domain(c), "com.example");
    CHECK_STR(onnxslim_node_name(c), "");
    CHECK(onnxslim_node_input_count(c) == 3);
    CHECK_STR(onnxslim_node_input(c, 0), "x");
    CHECK_STR(onnxslim_node_input(c, 1), "");
    CHECK_STR(onnxslim_node_input(c, 2), "y");
    CHECK(onnxslim_node_output_count(c) == 2);
    CHECK_STR(onnxslim_node_output(c, 1), "c1");
    CHECK_STR(onnxslim_node_name(onnxslim_graph_node(rg, 1)), "relu");
    CHECK_STR(onnxslim_node_name(onnxslim_graph_node(rg, 2)), "neg");
    CHECK_STR(onnxslim_node_input(onnxslim_graph_node(rg, 2), 0), "y");
    CHECK_STR(onnxslim_node_output(onnxslim_graph_node(rg, 2), 0), "z");
    CHECK_STR(onnxslim_node_name(onnxslim_graph_node(rg, 3)), "abs");
    CHECK_STR(onnxslim_node_domain(onnxslim_graph_node(rg, 3)), "");
    onnxslim_model_free(r);
  }
  onnxslim_model_free(m);
}

TEST(node_remove) {
  onnxslim_model *m = fan_model();
  if (!m) {
    CHECK(0);
    return;
  }
  onnxslim_graph *g = onnxslim_model_graph(m);
  onnxslim_node *neg = onnxslim_graph_find_node(g, "neg");
  const char *old_name = onnxslim_node_name(neg);
  CHECK_OK(onnxslim_graph_remove_node(g, neg));
  CHECK_STR(old_name, "neg"); /* strings returned before stay valid */
  CHECK(onnxslim_graph_node_count(g) == 2);
  CHECK(onnxslim_graph_find_node(g, "neg") == NULL);
  CHECK(onnxslim_graph_producer(g, "z") == NULL);
  CHECK(onnxslim_graph_consumer_count(g, "y") == 1);
  /* the removed handle is refused with EINVAL everywhere */
  CHECK(onnxslim_graph_remove_node(g, neg) == ONNXSLIM_EINVAL);
  CHECK(onnxslim_graph_move_node(g, neg, 0) == ONNXSLIM_EINVAL);
  CHECK(onnxslim_node_set_name(neg, "x") == ONNXSLIM_EINVAL);
  CHECK(onnxslim_node_set_op_type(neg, "Abs") == ONNXSLIM_EINVAL);
  CHECK(onnxslim_node_set_input(neg, 0, "x") == ONNXSLIM_EINVAL);
  CHECK(onnxslim_node_set_outputs(neg, L("q"), 1) == ONNXSLIM_EINVAL);
  CHECK(onnxslim_node_set_attr_int(neg, "k", 1) == ONNXSLIM_EINVAL);
  CHECK(onnxslim_node_remove_attr(neg, "k") == ONNXSLIM_EINVAL);
  CHECK(onnxslim_node_name(neg) == NULL);
  CHECK(onnxslim_error_last_code() == ONNXSLIM_EINVAL);
  CHECK(strstr(onnxslim_error_last(), "removed") != NULL);
  CHECK(onnxslim_node_input_count(neg) == 0);
  onnxslim_node *order[2] = {onnxslim_graph_node(g, 0), neg};
  CHECK(onnxslim_graph_reorder_nodes(g, order, 2) == ONNXSLIM_EINVAL);
  /* a node of another model is not this graph's */
  onnxslim_model *other = min_model();
  if (other) {
    CHECK(onnxslim_graph_remove_node(g, onnxslim_graph_node(onnxslim_model_graph(other), 0)) ==
          ONNXSLIM_EINVAL);
    onnxslim_model_free(other);
  }
  onnxslim_model *r = reload(m);
  if (r) {
    onnxslim_graph *rg = onnxslim_model_graph(r);
    CHECK(onnxslim_graph_node_count(rg) == 2);
    CHECK(onnxslim_graph_find_node(rg, "neg") == NULL);
    CHECK_STR(onnxslim_node_name(onnxslim_graph_node(rg, 0)), "relu");
    CHECK_STR(onnxslim_node_name(onnxslim_graph_node(rg, 1)), "exp");
    CHECK(has_output(rg, "z")); /* outputs are not touched by node removal */
    onnxslim_model_free(r);
  }
  onnxslim_model_free(m);
}

TEST(node_rename) {
  onnxslim_model *m = fan_model();
  if (!m) {
    CHECK(0);
    return;
  }
  onnxslim_node *n = node_named(m, "exp");
  CHECK_OK(onnxslim_node_set_name(n, "exponent"));
  CHECK_STR(onnxslim_node_name(n), "exponent");
  CHECK(node_named(m, "exp") == NULL && node_named(m, "exponent") == n);
  CHECK(onnxslim_node_set_name(n, NULL) == ONNXSLIM_EINVAL);
  onnxslim_model *r = reload(m);
  if (r) {
    CHECK(node_named(r, "exp") == NULL);
    onnxslim_node *rn = node_named(r, "exponent");
    CHECK(rn != NULL && index_of(onnxslim_model_graph(r), rn) == 2);
    CHECK_STR(onnxslim_node_op_type(rn), "Exp");
    onnxslim_model_free(r);
  }
  onnxslim_model_free(m);
}

TEST(node_move) {
  onnxslim_model *m = fan_model();
  if (!m) {
    CHECK(0);
    return;
  }
  onnxslim_graph *g = onnxslim_model_graph(m);
  onnxslim_node *relu = node_named(m, "relu");
  CHECK_OK(onnxslim_graph_move_node(g, relu, 2)); /* to the end: neg exp relu */
  CHECK(index_of(g, relu) == 2);
  CHECK_STR(onnxslim_node_name(relu), "relu"); /* handle still valid */
  CHECK(onnxslim_graph_move_node(g, relu, 3) == ONNXSLIM_ERANGE);
  onnxslim_node *exp = node_named(m, "exp");
  CHECK_OK(onnxslim_graph_move_node(g, exp, 0)); /* exp neg relu */
  onnxslim_model *r = reload(m);
  if (r) {
    onnxslim_graph *rg = onnxslim_model_graph(r);
    CHECK(index_named(rg, "exp") == 0);
    CHECK(index_named(rg, "neg") == 1);
    CHECK(index_named(rg, "relu") == 2);
    CHECK(graph_unsorted(rg));
    onnxslim_model_free(r);
  }
  /* reorder_nodes: a wrong count or a repeated node changes nothing */
  onnxslim_node *o[3] = {relu, exp, relu};
  CHECK(onnxslim_graph_reorder_nodes(g, o, 3) == ONNXSLIM_EINVAL);
  CHECK(onnxslim_graph_reorder_nodes(g, o, 2) == ONNXSLIM_EINVAL);
  CHECK(index_of(g, exp) == 0 && index_of(g, relu) == 2);
  o[2] = node_named(m, "neg");
  CHECK_OK(onnxslim_graph_reorder_nodes(g, o, 3));
  r = reload(m);
  if (r) {
    onnxslim_graph *rg = onnxslim_model_graph(r);
    CHECK(index_named(rg, "relu") == 0);
    CHECK(index_named(rg, "exp") == 1);
    CHECK(index_named(rg, "neg") == 2);
    onnxslim_model_free(r);
  }
  onnxslim_model_free(m);
}

TEST(node_set_inputs_outputs) {
  onnxslim_model *m = fan_model();
  if (!m) {
    CHECK(0);
    return;
  }
  onnxslim_graph *g = onnxslim_model_graph(m);
  onnxslim_node *neg = node_named(m, "neg"), *exp = node_named(m, "exp");
  CHECK_OK(onnxslim_node_set_input(neg, 0, "x"));    /* by index */
  CHECK_OK(onnxslim_node_set_input(neg, 1, ""));     /* append an omitted input */
  CHECK_OK(onnxslim_node_set_input(neg, 2, "y"));    /* append */
  CHECK(onnxslim_node_set_input(neg, 4, "q") == ONNXSLIM_ERANGE);
  CHECK(onnxslim_node_set_input(neg, 0, NULL) == ONNXSLIM_EINVAL);
  CHECK_OK(onnxslim_node_set_output(neg, 0, "z2"));
  CHECK_OK(onnxslim_node_set_output(neg, 1, "z3"));
  CHECK(onnxslim_graph_producer(g, "z2") == neg);
  CHECK(onnxslim_graph_consumer_count(g, "y") == 2); /* neg (input 2) and exp */
  const char *ins[4] = {"a", NULL, "", "b"};
  CHECK_OK(onnxslim_node_set_inputs(exp, ins, 4)); /* whole list, NULL and "" omitted */
  CHECK_OK(onnxslim_node_set_outputs(exp, L("w1", "", "w3"), 3));
  CHECK(onnxslim_node_set_inputs(exp, NULL, 2) == ONNXSLIM_EINVAL);
  onnxslim_model *r = reload(m);
  if (r) {
    onnxslim_node *rn = node_named(r, "neg"), *re = node_named(r, "exp");
    CHECK(onnxslim_node_input_count(rn) == 3);
    CHECK_STR(onnxslim_node_input(rn, 0), "x");
    CHECK_STR(onnxslim_node_input(rn, 1), "");
    CHECK_STR(onnxslim_node_input(rn, 2), "y");
    CHECK(onnxslim_node_output_count(rn) == 2);
    CHECK_STR(onnxslim_node_output(rn, 0), "z2");
    CHECK_STR(onnxslim_node_output(rn, 1), "z3");
    CHECK(onnxslim_node_input_count(re) == 4);
    CHECK_STR(onnxslim_node_input(re, 0), "a");
    CHECK_STR(onnxslim_node_input(re, 1), "");
    CHECK_STR(onnxslim_node_input(re, 2), "");
    CHECK_STR(onnxslim_node_input(re, 3), "b");
    CHECK(onnxslim_node_output_count(re) == 3);
    CHECK_STR(onnxslim_node_output(re, 1), "");
    CHECK_STR(onnxslim_node_output(re, 2), "w3");
    onnxslim_model_free(r);
  }
  /* empty lists */
  CHECK_OK(onnxslim_node_set_inputs(exp, NULL, 0));
  r = reload(m);
  if (r) {
    CHECK(onnxslim_node_input_count(node_named(r, "exp")) == 0);
    CHECK(onnxslim_node_output_count(node_named(r, "exp")) == 3);
    onnxslim_model_free(r);
  }
  onnxslim_model_free(m);
}

TEST(node_set_op_type_domain) {
  onnxslim_model *m = fan_model();
  if (!m) {
    CHECK(0);
    return;
  }
  onnxslim_node *neg = node_named(m, "neg");
  const char *old = onnxslim_node_op_type(neg);
  CHECK_OK(onnxslim_node_set_op_type(neg, "Abs"));
  CHECK_STR(old, "Neg");
  CHECK_OK(onnxslim_node_set_domain(neg, "com.example"));
  CHECK(onnxslim_node_set_op_type(neg, NULL) == ONNXSLIM_EINVAL);
  onnxslim_model *r = reload(m);
  if (r) {
    CHECK_STR(onnxslim_node_op_type(node_named(r, "neg")), "Abs");
    CHECK_STR(onnxslim_node_domain(node_named(r, "neg")), "com.example");
    CHECK_STR(onnxslim_node_domain(node_named(r, "exp")), "");
    onnxslim_model_free(r);
  }
  CHECK_OK(onnxslim_node_set_domain(neg, ""));
  r = reload(m);
  if (r) {
    CHECK_STR(onnxslim_node_domain(node_named(r, "neg")), "");
    onnxslim_model_free(r);
  }
  onnxslim_model_free(m);
}

/* ---- attributes --------------------------------------------------------------- */

static int attr_pos(const onnxslim_node *n, const char *name) {
  for (size_t i = 0; i < onnxslim_node_attr_count(n); i++)
    if (streq(onnxslim_attr_name(onnxslim_node_attr(n, i)), name)) return (int)i;
  return -1;
}

TEST(attr_scalars) {
  onnxslim_model *m = min_model();
  if (!m) {
    CHECK(0);
    return;
  }
  onnxslim_node *n = node_named(m, "relu");
  CHECK_OK(onnxslim_node_set_attr_float(n, "f", 1.5f));
  CHECK_OK(onnxslim_node_set_attr_int(n, "i", -7));
  CHECK_OK(onnxslim_node_set_attr_string(n, "s", "ab\0c", 4)); /* embedded NUL */
  CHECK_OK(onnxslim_node_set_attr_int(n, "big", INT64_MIN));
  CHECK(onnxslim_node_set_attr_int(n, NULL, 1) == ONNXSLIM_EINVAL);
  CHECK(onnxslim_node_set_attr_float(NULL, "f", 1) == ONNXSLIM_EINVAL);
  onnxslim_model *r = reload(m);
  if (r) {
    onnxslim_node *rn = node_named(r, "relu");
    CHECK(onnxslim_node_attr_count(rn) == 4);
    float f = 0;
    int64_t i = 0;
    const char *s = NULL;
    size_t sn = 0;
    onnxslim_attr *a = onnxslim_node_find_attr(rn, "f");
    CHECK(onnxslim_attr_type(a) == ONNXSLIM_ATTR_FLOAT);
    CHECK_OK(onnxslim_attr_float(a, &f));
    CHECK(f == 1.5f);
    a = onnxslim_node_find_attr(rn, "i");
    CHECK(onnxslim_attr_type(a) == ONNXSLIM_ATTR_INT);
    CHECK_OK(onnxslim_attr_int(a, &i));
    CHECK(i == -7);
    a = onnxslim_node_find_attr(rn, "s");
    CHECK(onnxslim_attr_type(a) == ONNXSLIM_ATTR_STRING);
    CHECK_OK(onnxslim_attr_string(a, &s, &sn));
    CHECK(sn == 4 && s && memcmp(s, "ab\0c", 4) == 0);
    CHECK_OK(onnxslim_attr_int(onnxslim_node_find_attr(rn, "big"), &i));
    CHECK(i == INT64_MIN);
    onnxslim_model_free(r);
  }
  /* replace: same position, new value; a replaced handle becomes invalid */
  onnxslim_attr *old_i = onnxslim_node_find_attr(n, "i");
  CHECK_OK(onnxslim_node_set_attr_int(n, "i", 42));
  int64_t iv = 0;
  CHECK(onnxslim_attr_int(old_i, &iv) == ONNXSLIM_EINVAL);
  CHECK_OK(onnxslim_node_set_attr_float(n, "f", -0.25f));
  CHECK_OK(onnxslim_node_set_attr_string(n, "s", "xyz", 3));
  CHECK_OK(onnxslim_node_set_attr_float(n, "big", 3.0f)); /* another kind, same name */
  r = reload(m);
  if (r) {
    onnxslim_node *rn = node_named(r, "relu");
    CHECK(onnxslim_node_attr_count(rn) == 4);
    CHECK(attr_pos(rn, "f") == 0 && attr_pos(rn, "i") == 1 && attr_pos(rn, "s") == 2 &&
          attr_pos(rn, "big") == 3);
    float f = 0;
    int64_t i = 0;
    const char *s = NULL;
    size_t sn = 0;
    CHECK_OK(onnxslim_attr_float(onnxslim_node_find_attr(rn, "f"), &f));
    CHECK(f == -0.25f);
    CHECK_OK(onnxslim_attr_int(onnxslim_node_find_attr(rn, "i"), &i));
    CHECK(i == 42);
    CHECK_OK(onnxslim_attr_string(onnxslim_node_find_attr(rn, "s"), &s, &sn));
    CHECK(sn == 3 && s && memcmp(s, "xyz", 3) == 0);
    onnxslim_attr *b = onnxslim_node_find_attr(rn, "big");
    CHECK(onnxslim_attr_type(b) == ONNXSLIM_ATTR_FLOAT);
    CHECK_OK(onnxslim_attr_float(b, &f));
    CHECK(f == 3.0f);
    CHECK(onnxslim_attr_int(b, &i) == ONNXSLIM_ETYPE); /* old int value is gone */
    onnxslim_model_free(r);
  }
  onnxslim_model_free(m);
}

TEST(attr_lists) {
  onnxslim_model *m = min_model();
  if (!m) {
    CHECK(0);
    return;
  }
  onnxslim_node *n = node_named(m, "relu");
  const float fl[3] = {1.0f, -2.5f, 1e-30f};
  const int64_t il[4] = {0, -1, INT64_MAX, 300};
  const char *sl[3] = {"alpha", "", "gamma"};
  CHECK_OK(onnxslim_node_set_attr_floats(n, "fs", fl, 3));
  CHECK_OK(onnxslim_node_set_attr_ints(n, "is", il, 4));
  CHECK_OK(onnxslim_node_set_attr_strings(n, "ss", sl, NULL, 3));
  const char *sb[2] = {"a\0b", "cd"};
  const size_t sbn[2] = {3, 2};
  CHECK_OK(onnxslim_node_set_attr_strings(n, "sb", sb, sbn, 2));
  CHECK_OK(onnxslim_node_set_attr_ints(n, "empty", NULL, 0));
  CHECK(onnxslim_node_set_attr_ints(n, "bad", NULL, 2) == ONNXSLIM_EINVAL);
  onnxslim_model *r = reload(m);
  if (r) {
    onnxslim_node *rn = node_named(r, "relu");
    const float *fv = NULL;
    const int64_t *iv = NULL;
    size_t c = 0;
    onnxslim_attr *a = onnxslim_node_find_attr(rn, "fs");
    CHECK(onnxslim_attr_type(a) == ONNXSLIM_ATTR_FLOATS);
    CHECK_OK(onnxslim_attr_floats(a, &fv, &c));
    CHECK(c == 3 && fv && fv[0] == 1.0f && fv[1] == -2.5f && fv[2] == 1e-30f);
    a = onnxslim_node_find_attr(rn, "is");
    CHECK(onnxslim_attr_type(a) == ONNXSLIM_ATTR_INTS);
    CHECK_OK(onnxslim_attr_ints(a, &iv, &c));
    CHECK(c == 4 && iv && iv[0] == 0 && iv[1] == -1 && iv[2] == INT64_MAX && iv[3] == 300);
    a = onnxslim_node_find_attr(rn, "ss");
    CHECK(onnxslim_attr_type(a) == ONNXSLIM_ATTR_STRINGS);
    CHECK(onnxslim_attr_list_size(a) == 3);
    const char *s = NULL;
    size_t sn = 0;
    CHECK_OK(onnxslim_attr_strings_at(a, 0, &s, &sn));
    CHECK(sn == 5 && s && memcmp(s, "alpha", 5) == 0);
    CHECK_OK(onnxslim_attr_strings_at(a, 1, &s, &sn));
    CHECK(sn == 0);
    CHECK_OK(onnxslim_attr_strings_at(a, 2, &s, &sn));
    CHECK(sn == 5 && s && memcmp(s, "gamma", 5) == 0);
    a = onnxslim_node_find_attr(rn, "sb");
    CHECK_OK(onnxslim_attr_strings_at(a, 0, &s, &sn));
    CHECK(sn == 3 && s && memcmp(s, "a\0b", 3) == 0);
    a = onnxslim_node_find_attr(rn, "empty");
    CHECK(a != NULL);
    CHECK(onnxslim_attr_list_size(a) == 0);
    CHECK(onnxslim_attr_type(a) == ONNXSLIM_ATTR_INTS);
    onnxslim_model_free(r);
  }
  /* replace each list with another of another length */
  const float fl2[1] = {7.0f};
  const int64_t il2[2] = {5, 6};
  const char *sl2[1] = {"z"};
  CHECK_OK(onnxslim_node_set_attr_floats(n, "fs", fl2, 1));
  CHECK_OK(onnxslim_node_set_attr_ints(n, "is", il2, 2));
  CHECK_OK(onnxslim_node_set_attr_strings(n, "ss", sl2, NULL, 1));
  r = reload(m);
  if (r) {
    onnxslim_node *rn = node_named(r, "relu");
    CHECK(onnxslim_node_attr_count(rn) == 5);
    CHECK(attr_pos(rn, "fs") == 0 && attr_pos(rn, "is") == 1 && attr_pos(rn, "ss") == 2);
    const float *fv = NULL;
    const int64_t *iv = NULL;
    size_t c = 0;
    CHECK_OK(onnxslim_attr_floats(onnxslim_node_find_attr(rn, "fs"), &fv, &c));
    CHECK(c == 1 && fv && fv[0] == 7.0f);
    CHECK_OK(onnxslim_attr_ints(onnxslim_node_find_attr(rn, "is"), &iv, &c));
    CHECK(c == 2 && iv && iv[0] == 5 && iv[1] == 6);
    const char *s = NULL;
    size_t sn = 0;
    CHECK(onnxslim_attr_list_size(onnxslim_node_find_attr(rn, "ss")) == 1);
    CHECK_OK(onnxslim_attr_strings_at(onnxslim_node_find_attr(rn, "ss"), 0, &s, &sn));
    CHECK(sn == 1 && s && s[0] == 'z');
    onnxslim_model_free(r);
  }
  onnxslim_model_free(m);
}

static int tensor_equal(const onnxslim_tensor *a, const onnxslim_tensor *b) {
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

TEST(attr_tensor) {
  onnxslim_model *m = min_model(), *bert = open_model(BERT);
  CHECK(m && bert);
  if (!m || !bert) {
    onnxslim_model_free(m);
    onnxslim_model_free(bert);
    return;
  }
  onnxslim_graph *bg = onnxslim_model_graph(bert);
  onnxslim_tensor *emb = onnxslim_graph_find_initializer(bg, "roberta.embeddings.word_embeddings.weight");
  onnxslim_tensor *small = onnxslim_graph_initializer(bg, onnxslim_graph_initializer_count(bg) - 1);
  CHECK(emb && small);
  onnxslim_node *n = node_named(m, "relu");
  CHECK_OK(onnxslim_node_set_attr_tensor(n, "t", emb)); /* copy from another model */
  const onnxslim_tensor *two[2] = {small, emb};
  CHECK_OK(onnxslim_node_set_attr_tensors(n, "ts", two, 2));
  CHECK(onnxslim_node_set_attr_tensor(n, "bad", NULL) == ONNXSLIM_EINVAL);
  CHECK(onnxslim_node_set_attr_tensor(n, "bad", (const onnxslim_tensor *)n) == ONNXSLIM_EINVAL);
  onnxslim_model *r = reload(m);
  if (r) {
    onnxslim_node *rn = node_named(r, "relu");
    onnxslim_attr *a = onnxslim_node_find_attr(rn, "t");
    CHECK(onnxslim_attr_type(a) == ONNXSLIM_ATTR_TENSOR);
    CHECK(tensor_equal(onnxslim_attr_tensor(a), emb));
    a = onnxslim_node_find_attr(rn, "ts");
    CHECK(onnxslim_attr_type(a) == ONNXSLIM_ATTR_TENSORS);
    CHECK(onnxslim_attr_list_size(a) == 2);
    CHECK(tensor_equal(onnxslim_attr_tensors_at(a, 0), small));
    CHECK(tensor_equal(onnxslim_attr_tensors_at(a, 1), emb));
    onnxslim_model_free(r);
  }
  /* replace both with copies of a tensor of the same model */
  float vals[3] = {1, 2, 3};
  int64_t d3 = 3;
  onnxslim_tensor *own = NULL;
  CHECK_OK(onnxslim_graph_add_initializer(onnxslim_model_graph(m), "own", ONNXSLIM_DTYPE_FLOAT, &d3,
                                          1, vals, sizeof vals, ONNXSLIM_DATA_COPY, &own));
  CHECK_OK(onnxslim_node_set_attr_tensor(n, "t", own));
  const onnxslim_tensor *one[1] = {own};
  CHECK_OK(onnxslim_node_set_attr_tensors(n, "ts", one, 1));
  r = reload(m);
  if (r) {
    onnxslim_node *rn = node_named(r, "relu");
    CHECK(onnxslim_node_attr_count(rn) == 2);
    CHECK(tensor_equal(onnxslim_attr_tensor(onnxslim_node_find_attr(rn, "t")), own));
    CHECK(onnxslim_attr_list_size(onnxslim_node_find_attr(rn, "ts")) == 1);
    CHECK(tensor_equal(onnxslim_attr_tensors_at(onnxslim_node_find_attr(rn, "ts"), 0), own));
    onnxslim_model_free(r);
  }
  onnxslim_model_free(bert);
  onnxslim_model_free(m);
}

TEST(attr_graph_new) {
  onnxslim_model *m = min_model();
  if (!m) {
    CHECK(0);
    return;
  }
  onnxslim_graph *g = onnxslim_model_graph(m);
  /* an If node whose branches are built from scratch */
  onnxslim_node *iff = NULL;
  CHECK_OK(onnxslim_graph_add_node(g, SIZE_MAX, "If", NULL, "if", L("c"), 1, L("r"), 1, &iff));
  onnxslim_graph *sub = NULL;
  CHECK_OK(onnxslim_node_set_attr_graph(iff, "then_branch", NULL, &sub));
  CHECK(sub != NULL);
  CHECK(onnxslim_graph_node_count(sub) == 0);
  CHECK(onnxslim_graph_parent_node(sub) == iff);
  CHECK(onnxslim_graph_model(sub) == m);
  CHECK_OK(onnxslim_graph_set_name(sub, "built"));
  onnxslim_value_info *vi = NULL;
  CHECK_OK(onnxslim_graph_add_input(sub, "si", &vi));
  CHECK_OK(onnxslim_value_info_set_tensor_type(vi, ONNXSLIM_DTYPE_FLOAT, NULL, NULL, SIZE_MAX));
  CHECK_OK(onnxslim_graph_add_node(sub, SIZE_MAX, "Neg", NULL, "sneg", L("y"), 1, L("so"), 1, NULL));
  CHECK_OK(onnxslim_graph_add_node(sub, SIZE_MAX, "Abs", NULL, "sabs", L("so"), 1, L("so2"), 1, NULL));
  CHECK_OK(onnxslim_graph_add_output(sub, "so2", &vi));
  CHECK_OK(onnxslim_value_info_set_tensor_type(vi, ONNXSLIM_DTYPE_FLOAT, dims3, NULL, 1));
  CHECK(onnxslim_graph_producer(sub, "so2") != NULL);
  onnxslim_model *r = reload(m);
  if (r) {
    onnxslim_node *rn = node_named(r, "if");
    onnxslim_attr *a = onnxslim_node_find_attr(rn, "then_branch");
    CHECK(onnxslim_attr_type(a) == ONNXSLIM_ATTR_GRAPH);
    onnxslim_graph *rs = onnxslim_attr_graph(a);
    CHECK(rs != NULL);
    CHECK_STR(onnxslim_graph_name(rs), "built");
    CHECK(onnxslim_graph_node_count(rs) == 2);
    CHECK_STR(onnxslim_node_op_type(onnxslim_graph_node(rs, 0)), "Neg");
    CHECK_STR(onnxslim_node_input(onnxslim_graph_node(rs, 0), 0), "y");
    CHECK_STR(onnxslim_node_name(onnxslim_graph_node(rs, 1)), "sabs");
    CHECK(onnxslim_graph_input_count(rs) == 1 && has_input(rs, "si"));
    CHECK(onnxslim_graph_output_count(rs) == 1 && has_output(rs, "so2"));
    onnxslim_type *t = onnxslim_value_info_type(onnxslim_graph_output(rs, 0));
    CHECK(onnxslim_type_elem_type(t) == ONNXSLIM_DTYPE_FLOAT && onnxslim_type_rank(t) == 1);
    /* the outer graph sees the If as a consumer of y (captured) */
    onnxslim_graph *rg = onnxslim_model_graph(r);
    int found = 0;
    for (size_t i = 0; i < onnxslim_graph_consumer_count(rg, "y"); i++)
      found |= onnxslim_graph_consumer(rg, "y", i) == rn;
    CHECK(found);
    onnxslim_model_free(r);
  }
  /* replace the graph by another new one: the old subgraph handle dies */
  onnxslim_graph *sub2 = NULL;
  CHECK_OK(onnxslim_node_set_attr_graph(iff, "then_branch", NULL, &sub2));
  CHECK(onnxslim_graph_add_node(sub, SIZE_MAX, "Neg", NULL, NULL, L("y"), 1, L("q"), 1, NULL) ==
        ONNXSLIM_EINVAL);
  CHECK_OK(onnxslim_graph_add_node(sub2, SIZE_MAX, "Identity", NULL, "only", L("x"), 1, L("o"), 1,
                                   NULL));
  r = reload(m);
  if (r) {
    onnxslim_graph *rs = sub_of(node_named(r, "if"), "then_branch");
    CHECK(onnxslim_node_attr_count(node_named(r, "if")) == 1);
    CHECK(rs && onnxslim_graph_node_count(rs) == 1);
    CHECK(rs && onnxslim_graph_find_node(rs, "only") != NULL);
    CHECK(rs && onnxslim_graph_output_count(rs) == 0);
    onnxslim_model_free(r);
  }
  onnxslim_model_free(m);
}

TEST(attr_graph_copy) {
  onnxslim_model *src = open_model(TEST_IF), *m = min_model();
  CHECK(src != NULL);
  CHECK(m != NULL);
  if (!src || !m) {
    onnxslim_model_free(src);
    onnxslim_model_free(m);
    if (!src) SKIP("libonnx-testdata node/test_if missing");
    return;
  }
  onnxslim_node *sif = onnxslim_graph_node(onnxslim_model_graph(src), 0);
  onnxslim_graph *then_g = sub_of(sif, "then_branch"), *else_g = sub_of(sif, "else_branch");
  CHECK(then_g && else_g);
  onnxslim_node *n = node_named(m, "relu");
  onnxslim_graph *copy = NULL;
  CHECK_OK(onnxslim_node_set_attr_graph(n, "g", then_g, &copy));
  CHECK(copy != NULL && copy != then_g);
  CHECK(onnxslim_graph_model(copy) == m);
  CHECK(onnxslim_graph_node_count(copy) == 1);
  const onnxslim_graph *both[2] = {then_g, else_g};
  CHECK_OK(onnxslim_node_set_attr_graphs(n, "gs", both, 2));
  /* the copies are independent: editing the copy leaves the source alone */
  CHECK_OK(onnxslim_graph_set_name(copy, "copied_then"));
  CHECK_STR(onnxslim_graph_name(then_g), "then_body");
  onnxslim_model *r = reload(m);
  if (r) {
    onnxslim_node *rn = node_named(r, "relu");
    onnxslim_graph *rg = sub_of(rn, "g");
    CHECK(rg != NULL);
    CHECK_STR(onnxslim_graph_name(rg), "copied_then");
    CHECK(onnxslim_graph_node_count(rg) == 1);
    onnxslim_node *c = onnxslim_graph_node(rg, 0);
    CHECK_STR(onnxslim_node_op_type(c), "Constant");
    onnxslim_node *sc = onnxslim_graph_node(then_g, 0);
    CHECK(tensor_equal(onnxslim_attr_tensor(onnxslim_node_find_attr(c, "value")),
                       onnxslim_attr_tensor(onnxslim_node_find_attr(sc, "value"))));
    CHECK(onnxslim_graph_output_count(rg) == 1 && has_output(rg, "then_out"));
    onnxslim_attr *a = onnxslim_node_find_attr(rn, "gs");
    CHECK(onnxslim_attr_type(a) == ONNXSLIM_ATTR_GRAPHS);
    CHECK(onnxslim_attr_list_size(a) == 2);
    CHECK_STR(onnxslim_graph_name(onnxslim_attr_graphs_at(a, 0)), "then_body");
    CHECK_STR(onnxslim_graph_name(onnxslim_attr_graphs_at(a, 1)), "else_body");
    onnxslim_graph *e = onnxslim_attr_graphs_at(a, 1);
    CHECK(e && has_output(e, "else_out"));
    CHECK(tensor_equal(
        onnxslim_attr_tensor(onnxslim_node_find_attr(onnxslim_graph_node(e, 0), "value")),
        onnxslim_attr_tensor(onnxslim_node_find_attr(onnxslim_graph_node(else_g, 0), "value"))));
    onnxslim_model_free(r);
  }
  /* replace the GRAPHS list by a single graph, and a GRAPH by a copy from
   * the same model */
  const onnxslim_graph *one[1] = {else_g};
  CHECK_OK(onnxslim_node_set_attr_graphs(n, "gs", one, 1));
  onnxslim_graph *gs0 = onnxslim_attr_graphs_at(onnxslim_node_find_attr(n, "gs"), 0);
  CHECK_OK(onnxslim_node_set_attr_graph(n, "g", gs0, NULL));
  r = reload(m);
  if (r) {
    onnxslim_node *rn = node_named(r, "relu");
    CHECK(onnxslim_node_attr_count(rn) == 2 && attr_pos(rn, "g") == 0);
    CHECK(onnxslim_attr_list_size(onnxslim_node_find_attr(rn, "gs")) == 1);
    CHECK_STR(onnxslim_graph_name(sub_of(rn, "g")), "else_body");
    onnxslim_model_free(r);
  }
  onnxslim_model_free(src);
  onnxslim_model_free(m);
}

TEST(attr_remove) {
  onnxslim_model *m = min_model();
  if (!m) {
    CHECK(0);
    return;
  }
  onnxslim_node *n = node_named(m, "relu");
  CHECK_OK(onnxslim_node_set_attr_int(n, "a", 1));
  CHECK_OK(onnxslim_node_set_attr_int(n, "b", 2));
  CHECK_OK(onnxslim_node_set_attr_int(n, "c", 3));
  onnxslim_attr *b = onnxslim_node_find_attr(n, "b");
  CHECK_OK(onnxslim_node_remove_attr(n, "b"));
  CHECK(onnxslim_node_remove_attr(n, "b") == ONNXSLIM_ENOTFOUND);
  CHECK(onnxslim_node_remove_attr(n, NULL) == ONNXSLIM_EINVAL);
  CHECK(onnxslim_attr_name(b) == NULL); /* removed handle */
  CHECK(onnxslim_error_last_code() == ONNXSLIM_EINVAL);
  CHECK(onnxslim_node_find_attr(n, "b") == NULL);
  onnxslim_model *r = reload(m);
  if (r) {
    onnxslim_node *rn = node_named(r, "relu");
    CHECK(onnxslim_node_attr_count(rn) == 2);
    CHECK(attr_pos(rn, "a") == 0 && attr_pos(rn, "c") == 1);
    CHECK(onnxslim_node_find_attr(rn, "b") == NULL);
    onnxslim_model_free(r);
  }
  onnxslim_model_free(m);
}

/* ---- initializers ------------------------------------------------------------ */

TEST(initializer_add_copy_and_borrow) {
  onnxslim_model *m = min_model();
  if (!m) {
    CHECK(0);
    return;
  }
  onnxslim_graph *g = onnxslim_model_graph(m);
  float w[6] = {1, 2, 3, 4, 5, 6};
  int64_t dims[2] = {2, 3};
  onnxslim_tensor *tc = NULL, *tb = NULL;
  CHECK_OK(onnxslim_graph_add_initializer(g, "wc", ONNXSLIM_DTYPE_FLOAT, dims, 2, w, sizeof w,
                                          ONNXSLIM_DATA_COPY, &tc));
  const void *d = NULL;
  size_t n = 0;
  CHECK_OK(onnxslim_tensor_data(tc, &d, &n));
  CHECK(n == sizeof w && d != (const void *)w && memcmp(d, w, n) == 0);
  static int64_t borrowed[4] = {10, -20, 30, INT64_MIN};
  int64_t d4 = 4;
  CHECK_OK(onnxslim_graph_add_initializer(g, "wb", ONNXSLIM_DTYPE_INT64, &d4, 1, borrowed,
                                          sizeof borrowed, ONNXSLIM_DATA_BORROW, &tb));
  CHECK_OK(onnxslim_tensor_data(tb, &d, &n));
  CHECK(d == (const void *)borrowed && n == sizeof borrowed); /* no copy */
  /* a scalar and an empty tensor */
  uint8_t one = 1;
  CHECK_OK(onnxslim_graph_add_initializer(g, "scalar", ONNXSLIM_DTYPE_BOOL, NULL, 0, &one, 1,
                                          ONNXSLIM_DATA_COPY, NULL));
  int64_t zero = 0;
  CHECK_OK(onnxslim_graph_add_initializer(g, "empty", ONNXSLIM_DTYPE_FLOAT, &zero, 1, NULL, 0,
                                          ONNXSLIM_DATA_COPY, NULL));
  /* errors */
  CHECK(onnxslim_graph_add_initializer(g, "bad", ONNXSLIM_DTYPE_FLOAT, dims, 2, w, sizeof w - 4,
                                       ONNXSLIM_DATA_COPY, NULL) == ONNXSLIM_EINVAL);
  CHECK(onnxslim_graph_add_initializer(g, "bad", ONNXSLIM_DTYPE_FLOAT, dims, 2, w, sizeof w,
                                       ONNXSLIM_DATA_BORROW, NULL) == ONNXSLIM_OK);
  CHECK(onnxslim_graph_add_initializer(g, "bad2", ONNXSLIM_DTYPE_FLOAT, dims, 2, w, sizeof w + 4,
                                       ONNXSLIM_DATA_BORROW, NULL) == ONNXSLIM_EINVAL);
  int64_t neg = -1;
  CHECK(onnxslim_graph_add_initializer(g, "bad3", ONNXSLIM_DTYPE_FLOAT, &neg, 1, w, 4,
                                       ONNXSLIM_DATA_COPY, NULL) == ONNXSLIM_EINVAL);
  CHECK(onnxslim_graph_add_initializer(g, "bad4", ONNXSLIM_DTYPE_FLOAT, dims, 2, w, sizeof w, 2,
                                       NULL) == ONNXSLIM_EINVAL);
  CHECK(onnxslim_graph_add_initializer(g, "bad5", ONNXSLIM_DTYPE_STRING, &d4, 1, w, 16,
                                       ONNXSLIM_DATA_COPY, NULL) == ONNXSLIM_EUNSUPPORTED);
  CHECK(onnxslim_graph_initializer_count(g) == 5);
  CHECK(onnxslim_graph_find_initializer(g, "wb") == tb);
  CHECK(onnxslim_graph_input_count(g) == 1); /* no graph input added */
  onnxslim_model *r = reload(m);
  if (r) {
    onnxslim_graph *rg = onnxslim_model_graph(r);
    CHECK(onnxslim_graph_initializer_count(rg) == 5);
    onnxslim_tensor *t = onnxslim_graph_find_initializer(rg, "wc");
    CHECK(onnxslim_tensor_dtype(t) == ONNXSLIM_DTYPE_FLOAT && onnxslim_tensor_rank(t) == 2 &&
          onnxslim_tensor_dim(t, 0) == 2 && onnxslim_tensor_dim(t, 1) == 3);
    CHECK_OK(onnxslim_tensor_data(t, &d, &n));
    CHECK(n == sizeof w && memcmp(d, w, n) == 0);
    t = onnxslim_graph_find_initializer(rg, "wb");
    CHECK(onnxslim_tensor_dtype(t) == ONNXSLIM_DTYPE_INT64);
    CHECK_OK(onnxslim_tensor_data(t, &d, &n));
    CHECK(n == sizeof borrowed && memcmp(d, borrowed, n) == 0);
    t = onnxslim_graph_find_initializer(rg, "scalar");
    CHECK(onnxslim_tensor_rank(t) == 0 && onnxslim_tensor_element_count(t) == 1);
    t = onnxslim_graph_find_initializer(rg, "empty");
    CHECK(onnxslim_tensor_rank(t) == 1 && onnxslim_tensor_element_count(t) == 0);
    CHECK(onnxslim_graph_input_count(rg) == 1);
    onnxslim_model_free(r);
  }
  onnxslim_model_free(m);
}

TEST(initializer_from_constant) {
  onnxslim_model *src = open_model(TEST_IF), *m = min_model();
  if (!src || !m) {
    onnxslim_model_free(src);
    onnxslim_model_free(m);
    CHECK(m != NULL);
    if (!src) SKIP("libonnx-testdata node/test_if missing");
    return;
  }
  /* a Constant node's value, from another model and from the same model */
  onnxslim_graph *then_g = sub_of(onnxslim_graph_node(onnxslim_model_graph(src), 0), "then_branch");
  onnxslim_tensor *val = onnxslim_attr_tensor(onnxslim_node_find_attr(onnxslim_graph_node(then_g, 0), "value"));
  CHECK(val != NULL);
  onnxslim_graph *g = onnxslim_model_graph(m);
  onnxslim_tensor *t = NULL;
  CHECK_OK(onnxslim_graph_add_initializer_copy(g, val, "from_const", &t));
  CHECK_STR(onnxslim_tensor_name(t), "from_const");
  CHECK_STR(onnxslim_tensor_name(val), ""); /* the source keeps its (empty) name */
  CHECK(tensor_equal(t, val));
  /* the same model: a Constant added here, copied without a new name */
  onnxslim_node *c = NULL;
  CHECK_OK(onnxslim_graph_add_node(g, 0, "Constant", NULL, "k", NULL, 0, L("kout"), 1, &c));
  CHECK_OK(onnxslim_node_set_attr_tensor(c, "value", val));
  onnxslim_tensor *cv = onnxslim_attr_tensor(onnxslim_node_find_attr(c, "value"));
  CHECK_OK(onnxslim_tensor_set_name(cv, "kval"));
  CHECK_OK(onnxslim_graph_add_initializer_copy(g, cv, NULL, NULL));
  CHECK(onnxslim_graph_add_initializer_copy(g, NULL, "x", NULL) == ONNXSLIM_EINVAL);
  onnxslim_model *r = reload(m);
  if (r) {
    onnxslim_graph *rg = onnxslim_model_graph(r);
    CHECK(onnxslim_graph_initializer_count(rg) == 2);
    CHECK(tensor_equal(onnxslim_graph_find_initializer(rg, "from_const"), val));
    CHECK(tensor_equal(onnxslim_graph_find_initializer(rg, "kval"), val));
    onnxslim_model_free(r);
  }
  onnxslim_model_free(src);
  onnxslim_model_free(m);
}

TEST(initializer_remove_and_replace) {
  onnxslim_model *m = open_model(BERT);
  if (!m) {
    CHECK(0);
    return;
  }
  onnxslim_graph *g = onnxslim_model_graph(m);
  size_t count = onnxslim_graph_initializer_count(g);
  /* the last initializer (bert-tiny's first is the embedding table) */
  onnxslim_tensor *first = onnxslim_graph_initializer(g, count - 1);
  char first_name[256];
  snprintf(first_name, sizeof first_name, "%s", onnxslim_tensor_name(first));
  CHECK_OK(onnxslim_graph_remove_initializer(g, first));
  CHECK(onnxslim_graph_remove_initializer(g, first) == ONNXSLIM_EINVAL);
  CHECK(onnxslim_tensor_set_name(first, "zz") == ONNXSLIM_EINVAL);
  CHECK(onnxslim_tensor_name(first) == NULL);
  CHECK(onnxslim_graph_find_initializer(g, first_name) == NULL);
  /* replace the word embedding table's data: new dtype, dims and bytes */
  const char *emb_name = "roberta.embeddings.word_embeddings.weight";
  onnxslim_tensor *emb = onnxslim_graph_find_initializer(g, emb_name);
  const void *old_data = NULL;
  size_t old_n = 0;
  CHECK_OK(onnxslim_tensor_data(emb, &old_data, &old_n));
  uint8_t *keep = malloc(old_n);
  if (keep) memcpy(keep, old_data, old_n);
  uint16_t half[8];
  for (int i = 0; i < 8; i++) half[i] = (uint16_t)(0x3c00 + i);
  int64_t dims[2] = {4, 2};
  CHECK(onnxslim_tensor_set_data(emb, ONNXSLIM_DTYPE_FLOAT16, dims, 2, half, 15, 0) == ONNXSLIM_EINVAL);
  CHECK_OK(onnxslim_tensor_set_data(emb, ONNXSLIM_DTYPE_FLOAT16, dims, 2, half, sizeof half,
                                    ONNXSLIM_DATA_COPY));
  CHECK(keep && memcmp(old_data, keep, old_n) == 0); /* old pointer still valid, old data */
  free(keep);
  const void *d = NULL;
  size_t n = 0;
  CHECK_OK(onnxslim_tensor_data(emb, &d, &n));
  CHECK(n == sizeof half && memcmp(d, half, n) == 0);
  /* a tensor stored with a typed field (if any) is rewritten as raw_data */
  onnxslim_tensor *t2 = onnxslim_graph_initializer(g, 3);
  char t2_name[256];
  snprintf(t2_name, sizeof t2_name, "%s", onnxslim_tensor_name(t2));
  int64_t v = 77;
  CHECK_OK(onnxslim_tensor_set_data(t2, ONNXSLIM_DTYPE_INT64, NULL, 0, &v, sizeof v,
                                    ONNXSLIM_DATA_BORROW));
  CHECK_OK(onnxslim_tensor_data(t2, &d, &n));
  CHECK(d == (const void *)&v); /* borrowed */
  onnxslim_model *r = reload(m); /* v is still alive here */
  if (r) {
    onnxslim_graph *rg = onnxslim_model_graph(r);
    CHECK(onnxslim_graph_initializer_count(rg) == count - 1);
    CHECK(onnxslim_graph_find_initializer(rg, first_name) == NULL);
    onnxslim_tensor *re = onnxslim_graph_find_initializer(rg, emb_name);
    CHECK(onnxslim_tensor_dtype(re) == ONNXSLIM_DTYPE_FLOAT16);
    CHECK(onnxslim_tensor_rank(re) == 2 && onnxslim_tensor_dim(re, 0) == 4 &&
          onnxslim_tensor_dim(re, 1) == 2);
    CHECK(onnxslim_tensor_storage(re) == ONNXSLIM_STORAGE_RAW);
    CHECK_OK(onnxslim_tensor_data(re, &d, &n));
    CHECK(n == sizeof half && memcmp(d, half, n) == 0);
    onnxslim_tensor *r2 = onnxslim_graph_find_initializer(rg, t2_name);
    CHECK(onnxslim_tensor_dtype(r2) == ONNXSLIM_DTYPE_INT64 && onnxslim_tensor_rank(r2) == 0);
    CHECK(onnxslim_tensor_storage(r2) == ONNXSLIM_STORAGE_RAW);
    CHECK_OK(onnxslim_tensor_data(r2, &d, &n));
    CHECK(n == 8 && memcmp(d, &v, 8) == 0);
    onnxslim_model_free(r);
  }
  onnxslim_model_free(m);
}

/* ---- value infos ------------------------------------------------------------- */

TEST(value_info_add_remove_and_types) {
  onnxslim_model *m = min_model();
  if (!m) {
    CHECK(0);
    return;
  }
  onnxslim_graph *g = onnxslim_model_graph(m);
  onnxslim_value_info *in = NULL, *out = NULL, *vi = NULL, *vi2 = NULL, *vi3 = NULL;
  CHECK_OK(onnxslim_graph_add_input(g, "in2", &in));
  CHECK(onnxslim_value_info_type(in) == NULL); /* untyped */
  const int64_t dims[3] = {-1, 4, -1};
  const char *params[3] = {"batch", NULL, NULL};
  CHECK_OK(onnxslim_value_info_set_tensor_type(in, ONNXSLIM_DTYPE_INT64, dims, params, 3));
  CHECK_OK(onnxslim_graph_add_output(g, "out2", &out));
  CHECK_OK(onnxslim_value_info_set_tensor_type(out, ONNXSLIM_DTYPE_FLOAT, NULL, NULL, 0)); /* scalar */
  CHECK_OK(onnxslim_graph_add_value_info(g, "vi1", &vi));
  CHECK_OK(onnxslim_value_info_set_tensor_type(vi, ONNXSLIM_DTYPE_DOUBLE, NULL, NULL, SIZE_MAX));
  CHECK_OK(onnxslim_graph_add_value_info(g, "vi2", &vi2));
  /* set_type copies a type, here from bert's input_ids */
  onnxslim_model *bert = open_model(BERT);
  CHECK(bert != NULL);
  if (bert) {
    onnxslim_type *bt = onnxslim_value_info_type(onnxslim_graph_input(onnxslim_model_graph(bert), 0));
    CHECK_OK(onnxslim_value_info_set_type(vi2, bt));
  }
  CHECK_OK(onnxslim_graph_add_value_info(g, "vi3", &vi3));
  CHECK_OK(onnxslim_value_info_set_elem_type(vi3, ONNXSLIM_DTYPE_INT8)); /* untyped -> tensor */
  /* elem type of the existing output y keeps its shape */
  onnxslim_value_info *y = onnxslim_graph_output(g, 0);
  CHECK_OK(onnxslim_value_info_set_elem_type(y, ONNXSLIM_DTYPE_FLOAT16));
  CHECK_OK(onnxslim_value_info_set_name(vi, "vi1_renamed"));
  CHECK(onnxslim_graph_add_input(g, NULL, NULL) == ONNXSLIM_EINVAL);
  onnxslim_model *r = reload(m);
  if (r) {
    onnxslim_graph *rg = onnxslim_model_graph(r);
    CHECK(onnxslim_graph_input_count(rg) == 2 && onnxslim_graph_output_count(rg) == 2);
    CHECK(onnxslim_graph_value_info_count(rg) == 3);
    onnxslim_type *t = onnxslim_value_info_type(onnxslim_graph_input(rg, 1));
    CHECK_STR(onnxslim_value_info_name(onnxslim_graph_input(rg, 1)), "in2");
    CHECK(onnxslim_type_kind(t) == ONNXSLIM_TYPE_TENSOR);
    CHECK(onnxslim_type_elem_type(t) == ONNXSLIM_DTYPE_INT64);
    CHECK(onnxslim_type_rank(t) == 3);
    int64_t v = -5;
    const char *p = NULL;
    CHECK(onnxslim_type_dim(t, 0, &v, &p) == ONNXSLIM_DIM_PARAM);
    CHECK_STR(p, "batch");
    CHECK(onnxslim_type_dim(t, 1, &v, &p) == ONNXSLIM_DIM_VALUE && v == 4);
    CHECK(onnxslim_type_dim(t, 2, &v, &p) == ONNXSLIM_DIM_UNKNOWN);
    t = onnxslim_value_info_type(onnxslim_graph_output(rg, 1));
    CHECK(onnxslim_type_elem_type(t) == ONNXSLIM_DTYPE_FLOAT);
    CHECK(onnxslim_type_has_shape(t) == 1 && onnxslim_type_rank(t) == 0);
    t = onnxslim_value_info_type(value_info_named(rg, "vi1_renamed"));
    CHECK(value_info_named(rg, "vi1") == NULL);
    CHECK(onnxslim_type_elem_type(t) == ONNXSLIM_DTYPE_DOUBLE && onnxslim_type_has_shape(t) == 0);
    t = onnxslim_value_info_type(value_info_named(rg, "vi2"));
    CHECK(onnxslim_type_elem_type(t) == ONNXSLIM_DTYPE_INT64 && onnxslim_type_rank(t) == 2);
    CHECK(onnxslim_type_dim(t, 0, &v, &p) == ONNXSLIM_DIM_PARAM && streq(p, "batch"));
    t = onnxslim_value_info_type(value_info_named(rg, "vi3"));
    CHECK(onnxslim_type_kind(t) == ONNXSLIM_TYPE_TENSOR);
    CHECK(onnxslim_type_elem_type(t) == ONNXSLIM_DTYPE_INT8 && onnxslim_type_has_shape(t) == 0);
    t = onnxslim_value_info_type(onnxslim_graph_output(rg, 0));
    CHECK(onnxslim_type_elem_type(t) == ONNXSLIM_DTYPE_FLOAT16);
    CHECK(onnxslim_type_rank(t) == 1 && onnxslim_type_dim(t, 0, &v, NULL) == ONNXSLIM_DIM_VALUE && v == 3);
    onnxslim_model_free(r);
  }
  /* remove one of each kind; set_type(NULL) removes a type */
  CHECK_OK(onnxslim_value_info_set_type(vi2, NULL));
  CHECK_OK(onnxslim_graph_remove_value_info(g, in));
  CHECK_OK(onnxslim_graph_remove_value_info(g, out));
  CHECK_OK(onnxslim_graph_remove_value_info(g, vi3));
  CHECK(onnxslim_graph_remove_value_info(g, vi3) == ONNXSLIM_EINVAL);
  CHECK(onnxslim_value_info_set_name(vi3, "q") == ONNXSLIM_EINVAL);
  CHECK(onnxslim_value_info_set_elem_type(in, 1) == ONNXSLIM_EINVAL);
  r = reload(m);
  if (r) {
    onnxslim_graph *rg = onnxslim_model_graph(r);
    CHECK(onnxslim_graph_input_count(rg) == 1 && has_input(rg, "x"));
    CHECK(onnxslim_graph_output_count(rg) == 1 && has_output(rg, "y"));
    CHECK(onnxslim_graph_value_info_count(rg) == 2);
    CHECK(value_info_named(rg, "vi3") == NULL);
    CHECK(value_info_named(rg, "vi2") != NULL);
    CHECK(onnxslim_value_info_type(value_info_named(rg, "vi2")) == NULL);
    onnxslim_model_free(r);
  }
  onnxslim_model_free(bert);
  onnxslim_model_free(m);
}

/* ---- rename value ------------------------------------------------------------- */

TEST(rename_value_everywhere) {
  onnxslim_model *m = capture_model(1);
  if (!m) {
    CHECK(0);
    return;
  }
  onnxslim_graph *g = onnxslim_model_graph(m);
  onnxslim_node *iff = node_named(m, "if");
  CHECK_OK(onnxslim_graph_rename_value(g, "v", "v_new"));
  CHECK_OK(onnxslim_graph_rename_value(g, "b", "b_new")); /* initializer, read in a subgraph */
  CHECK_OK(onnxslim_graph_rename_value(g, "res", "result")); /* graph output */
  CHECK_OK(onnxslim_graph_rename_value(g, "cond", "c")); /* input, read by nested If */
  CHECK(onnxslim_graph_rename_value(g, "x", "") == ONNXSLIM_EINVAL);
  CHECK(onnxslim_graph_rename_value(g, NULL, "q") == ONNXSLIM_EINVAL);
  CHECK(onnxslim_graph_consumer_count(g, "v_new") >= 1);
  CHECK(onnxslim_graph_consumer_count(g, "v") == 0);
  CHECK(onnxslim_graph_producer(g, "v_new") == node_named(m, "relu"));
  CHECK(iff != NULL);
  onnxslim_model *r = reload(m);
  if (r) {
    onnxslim_graph *rg = onnxslim_model_graph(r);
    CHECK_STR(onnxslim_node_output(node_named(r, "relu"), 0), "v_new");
    CHECK_STR(onnxslim_node_input(node_named(r, "neg"), 0), "v_new");
    CHECK(value_info_named(rg, "v_new") != NULL && value_info_named(rg, "v") == NULL);
    CHECK(onnxslim_graph_find_initializer(rg, "b_new") != NULL);
    CHECK(onnxslim_graph_find_initializer(rg, "b") == NULL);
    CHECK(has_output(rg, "result") && !has_output(rg, "res"));
    CHECK(has_input(rg, "c") && !has_input(rg, "cond"));
    onnxslim_node *rif = node_named(r, "if");
    CHECK_STR(onnxslim_node_output(rif, 0), "result");
    CHECK_STR(onnxslim_node_input(rif, 0), "c");
    onnxslim_graph *then_g = sub_of(rif, "then_branch"), *else_g = sub_of(rif, "else_branch");
    CHECK(then_g && else_g);
    if (then_g && else_g) {
      onnxslim_node *add = onnxslim_graph_find_node(then_g, "then_add");
      CHECK_STR(onnxslim_node_input(add, 0), "v_new");
      CHECK_STR(onnxslim_node_input(add, 1), "b_new");
      onnxslim_node *inner = onnxslim_graph_find_node(then_g, "inner_if");
      CHECK_STR(onnxslim_node_input(inner, 0), "c");
      onnxslim_graph *it = sub_of(inner, "then_branch");
      CHECK(it != NULL);
      CHECK_STR(onnxslim_node_input(onnxslim_graph_find_node(it, "inner_id"), 0), "v_new");
      /* the else branch defines its own v: left alone */
      CHECK_STR(onnxslim_node_output(onnxslim_graph_find_node(else_g, "else_abs"), 0), "v");
      CHECK_STR(onnxslim_node_input(onnxslim_graph_find_node(else_g, "else_neg"), 0), "v");
      CHECK(reads_anywhere(then_g, "v") == 0);
      CHECK(reads_anywhere(then_g, "cond") == 0);
    }
    onnxslim_model_free(r);
  }
  onnxslim_model_free(m);
}

/* ---- model-level edits ---------------------------------------------------------- */

static int64_t opset_of(const onnxslim_model *m, const char *domain) {
  for (size_t i = 0; i < onnxslim_model_opset_count(m); i++) {
    const char *d = NULL;
    int64_t v = 0;
    if (onnxslim_model_opset(m, i, &d, &v) == 0 && streq(d, domain)) return v;
  }
  return -1;
}
static const char *metadata_of(const onnxslim_model *m, const char *key) {
  for (size_t i = 0; i < onnxslim_model_metadata_count(m); i++) {
    const char *k = NULL, *v = NULL;
    if (onnxslim_model_metadata(m, i, &k, &v) == 0 && streq(k, key)) return v;
  }
  return NULL;
}

TEST(model_opset_metadata_ir_version) {
  onnxslim_model *m = open_model(BERT);
  if (!m) {
    CHECK(0);
    return;
  }
  size_t nops = onnxslim_model_opset_count(m), nmeta = onnxslim_model_metadata_count(m);
  CHECK(opset_of(m, "") == 17);
  CHECK_OK(onnxslim_model_set_opset(m, "", 18)); /* update the default domain */
  CHECK_OK(onnxslim_model_set_opset(m, "com.microsoft", 1)); /* add */
  CHECK_OK(onnxslim_model_set_opset(m, "com.example", 3));
  CHECK(onnxslim_model_opset_count(m) == nops + 2);
  CHECK_OK(onnxslim_model_set_ir_version(m, 9));
  CHECK_OK(onnxslim_model_set_metadata(m, "new_key", "new value"));
  const char *k0 = NULL, *v0 = NULL;
  CHECK_OK(onnxslim_model_metadata(m, 0, &k0, &v0));
  char key0[128];
  snprintf(key0, sizeof key0, "%s", k0 ? k0 : "");
  CHECK_OK(onnxslim_model_set_metadata(m, key0, "replaced"));
  CHECK(onnxslim_model_metadata_count(m) == nmeta + 1);
  onnxslim_model *r = reload(m);
  if (r) {
    CHECK(onnxslim_model_ir_version(r) == 9);
    CHECK(opset_of(r, "") == 18);
    CHECK(opset_of(r, "com.microsoft") == 1);
    CHECK(opset_of(r, "com.example") == 3);
    CHECK(onnxslim_model_opset_count(r) == nops + 2);
    CHECK_STR(metadata_of(r, "new_key"), "new value");
    CHECK_STR(metadata_of(r, key0), "replaced");
    CHECK(onnxslim_model_metadata_count(r) == nmeta + 1);
    onnxslim_model_free(r);
  }
  /* "ai.onnx" and NULL both mean the default domain */
  CHECK_OK(onnxslim_model_set_opset(m, "ai.onnx", 19));
  CHECK(opset_of(m, "") == 19 || opset_of(m, "ai.onnx") == 19);
  CHECK_OK(onnxslim_model_set_opset(m, NULL, 20));
  CHECK(onnxslim_model_opset_count(m) == nops + 2);
  CHECK_OK(onnxslim_model_remove_opset(m, "com.microsoft"));
  CHECK(onnxslim_model_remove_opset(m, "com.microsoft") == ONNXSLIM_ENOTFOUND);
  CHECK_OK(onnxslim_model_remove_metadata(m, "new_key"));
  CHECK(onnxslim_model_remove_metadata(m, "new_key") == ONNXSLIM_ENOTFOUND);
  CHECK(onnxslim_model_set_metadata(m, NULL, "x") == ONNXSLIM_EINVAL);
  r = reload(m);
  if (r) {
    CHECK(opset_of(r, "") == 20 || opset_of(r, "ai.onnx") == 20);
    CHECK(opset_of(r, "com.microsoft") == -1);
    CHECK(opset_of(r, "com.example") == 3);
    CHECK(onnxslim_model_opset_count(r) == nops + 1);
    CHECK(metadata_of(r, "new_key") == NULL);
    CHECK_STR(metadata_of(r, key0), "replaced");
    CHECK(onnxslim_model_metadata_count(r) == nmeta);
    onnxslim_model_free(r);
  }
  /* removing the default domain's import */
  CHECK_OK(onnxslim_model_remove_opset(m, ""));
  r = reload(m);
  if (r) {
    CHECK(opset_of(r, "") == -1 && opset_of(r, "ai.onnx") == -1);
    CHECK(onnxslim_model_opset_count(r) == nops);
    onnxslim_model_free(r);
  }
  onnxslim_model_free(m);
}

TEST(unique_name_is_unique) {
  onnxslim_model *m = capture_model(0);
  if (!m) {
    CHECK(0);
    return;
  }
  onnxslim_graph *g = onnxslim_model_graph(m);
  names used = {0};
  collect_names(g, &used);
  /* names only used inside subgraphs, and graph names */
  static const char *const bases[] = {"v",        "it",    "inner_id", "inner_then", "t1",
                                      "then_add", "then",  "main",     "b",          "x",
                                      "fresh",    "fresh", "fresh",    "relu",       "e"};
  names got = {0};
  for (size_t i = 0; i < sizeof bases / sizeof *bases; i++) {
    const char *u = NULL;
    CHECK_OK(onnxslim_model_unique_name(m, bases[i], &u));
    if (!u) continue;
    CHECK(!names_has(&used, u));
    CHECK(!names_has(&got, u));
    CHECK(strncmp(u, bases[i], strlen(bases[i])) == 0);
    names_add(&got, u);
  }
  CHECK(got.n && streq(got.v[10], "fresh")); /* a free base is returned as is */
  const char *u = NULL;
  CHECK(onnxslim_model_unique_name(m, NULL, &u) == ONNXSLIM_EINVAL);
  CHECK(onnxslim_model_unique_name(m, "a", NULL) == ONNXSLIM_EINVAL);
  CHECK_OK(onnxslim_model_unique_name(m, "", &u));
  CHECK(u && u[0] && !names_has(&used, u) && !names_has(&got, u));
  /* after edits (which may rebuild the name index) earlier results are still
   * never returned again, and new names in the model are avoided */
  CHECK_OK(onnxslim_graph_add_node(g, SIZE_MAX, "Identity", NULL, "late_node", L("nv"), 1,
                                   L("late_value"), 1, NULL));
  CHECK_OK(onnxslim_model_set_doc_string(m, "edited"));
  for (size_t i = 0; i < sizeof bases / sizeof *bases; i++) {
    CHECK_OK(onnxslim_model_unique_name(m, bases[i], &u));
    if (!u) continue;
    if (names_has(&got, u)) fprintf(stderr, "unique_name('%s') returned '%s' again\n", bases[i], u);
    CHECK(!names_has(&used, u));
    CHECK(!names_has(&got, u));
    names_add(&got, u);
  }
  CHECK_OK(onnxslim_model_unique_name(m, "late_node", &u));
  CHECK(u && !streq(u, "late_node"));
  CHECK_OK(onnxslim_model_unique_name(m, "late_value", &u));
  CHECK(u && !streq(u, "late_value"));
  free(used.v);
  free(got.v);
  onnxslim_model_free(m);
}

/* ---- insertion ------------------------------------------------------------------ */

TEST(insert_after_takeover) {
  onnxslim_model *m = fan_model();
  if (!m) {
    CHECK(0);
    return;
  }
  onnxslim_graph *g = onnxslim_model_graph(m);
  onnxslim_node *relu = node_named(m, "relu"), *id = NULL;
  CHECK_OK(onnxslim_insert_after(g, "y", "Identity", NULL, NULL, 0, NULL, &id));
  CHECK(id != NULL);
  const char *fresh = onnxslim_node_output(relu, 0);
  CHECK(fresh && !streq(fresh, "y"));
  CHECK_STR(onnxslim_node_output(id, 0), "y");
  CHECK(streq(onnxslim_node_input(id, 0), fresh));
  CHECK(index_of(g, id) == 1); /* right after the producer */
  CHECK(onnxslim_graph_producer(g, "y") == id);
  CHECK(graph_sorted(g));
  char fresh_copy[128];
  snprintf(fresh_copy, sizeof fresh_copy, "%s", fresh ? fresh : "");
  onnxslim_model *r = reload(m);
  if (r) {
    onnxslim_graph *rg = onnxslim_model_graph(r);
    CHECK(onnxslim_graph_node_count(rg) == 4);
    CHECK(graph_sorted(rg));
    onnxslim_node *rid = onnxslim_graph_node(rg, 1);
    CHECK_STR(onnxslim_node_op_type(rid), "Identity");
    CHECK_STR(onnxslim_node_output(rid, 0), "y");
    CHECK_STR(onnxslim_node_input(rid, 0), fresh_copy);
    CHECK_STR(onnxslim_node_output(node_named(r, "relu"), 0), fresh_copy);
    CHECK_STR(onnxslim_node_input(node_named(r, "neg"), 0), "y");
    CHECK_STR(onnxslim_node_input(node_named(r, "exp"), 0), "y");
    /* graph outputs keep their names */
    CHECK(onnxslim_graph_output_count(rg) == 3 && has_output(rg, "y"));
    CHECK(!has_output(rg, fresh_copy));
    /* the new edge got a copy of y's value info */
    onnxslim_value_info *vi = value_info_named(rg, fresh_copy);
    CHECK(vi != NULL);
    onnxslim_type *t = onnxslim_value_info_type(vi);
    CHECK(onnxslim_type_elem_type(t) == ONNXSLIM_DTYPE_FLOAT && onnxslim_type_rank(t) == 1);
    onnxslim_model_free(r);
  }
  onnxslim_model_free(m);
}

TEST(insert_after_subset) {
  onnxslim_model *m = fan_model();
  if (!m) {
    CHECK(0);
    return;
  }
  onnxslim_graph *g = onnxslim_model_graph(m);
  onnxslim_node *exp = node_named(m, "exp"), *n = NULL;
  onnxslim_node *chosen[1] = {exp};
  CHECK_OK(onnxslim_insert_after(g, "y", "Sigmoid", NULL, chosen, 1, "y_sig", &n));
  CHECK(n != NULL);
  onnxslim_model *r = reload(m);
  if (r) {
    onnxslim_graph *rg = onnxslim_model_graph(r);
    CHECK(onnxslim_graph_node_count(rg) == 4);
    CHECK(graph_sorted(rg));
    CHECK_STR(onnxslim_node_output(node_named(r, "relu"), 0), "y"); /* producer unchanged */
    CHECK_STR(onnxslim_node_input(node_named(r, "neg"), 0), "y");   /* not chosen */
    CHECK_STR(onnxslim_node_input(node_named(r, "exp"), 0), "y_sig"); /* rewired */
    onnxslim_node *rs = onnxslim_graph_producer(rg, "y_sig");
    CHECK(rs != NULL);
    CHECK_STR(onnxslim_node_op_type(rs), "Sigmoid");
    CHECK_STR(onnxslim_node_input(rs, 0), "y");
    CHECK(index_of(rg, rs) == 1);
    CHECK(has_output(rg, "y"));
    CHECK(value_info_named(rg, "y_sig") != NULL);
    onnxslim_model_free(r);
  }
  /* choosing every consumer explicitly is the take-over case */
  onnxslim_node *both[2] = {node_named(m, "neg"), n};
  CHECK_OK(onnxslim_insert_after(g, "z", "Identity", NULL, NULL, 0, NULL, NULL)); /* no consumer */
  r = reload(m);
  if (r) {
    onnxslim_graph *rg = onnxslim_model_graph(r);
    CHECK(has_output(rg, "z"));
    onnxslim_node *p = onnxslim_graph_producer(rg, "z");
    CHECK_STR(onnxslim_node_op_type(p), "Identity");
    CHECK(onnxslim_graph_producer(rg, onnxslim_node_input(p, 0)) == node_named(r, "neg"));
    onnxslim_model_free(r);
  }
  CHECK_OK(onnxslim_insert_after(g, "y", "Abs", NULL, both, 2, "y_abs", NULL));
  r = reload(m);
  if (r) {
    onnxslim_graph *rg = onnxslim_model_graph(r);
    CHECK_STR(onnxslim_node_output(node_named(r, "relu"), 0), "y_abs");
    onnxslim_node *p = onnxslim_graph_producer(rg, "y");
    CHECK_STR(onnxslim_node_op_type(p), "Abs");
    CHECK(graph_sorted(rg));
    onnxslim_model_free(r);
  }
  onnxslim_model_free(m);
}

TEST(insert_after_input_and_initializer) {
  onnxslim_model *m = capture_model(0);
  if (!m) {
    CHECK(0);
    return;
  }
  onnxslim_graph *g = onnxslim_model_graph(m);
  onnxslim_node *n = NULL;
  /* x is a graph input read by relu */
  CHECK_OK(onnxslim_insert_after(g, "x", "Identity", NULL, NULL, 0, NULL, &n));
  const char *fx = n ? onnxslim_node_output(n, 0) : NULL;
  CHECK(fx && !streq(fx, "x"));
  CHECK(index_of(g, n) == 0);
  char fxc[128];
  snprintf(fxc, sizeof fxc, "%s", fx ? fx : "?");
  /* b is an initializer read only inside the then branch */
  CHECK_OK(onnxslim_insert_after(g, "b", "Neg", NULL, NULL, 0, NULL, &n));
  const char *fb = n ? onnxslim_node_output(n, 0) : NULL;
  CHECK(fb && !streq(fb, "b"));
  char fbc[128];
  snprintf(fbc, sizeof fbc, "%s", fb ? fb : "?");
  CHECK(graph_sorted(g));
  onnxslim_model *r = reload(m);
  if (r) {
    onnxslim_graph *rg = onnxslim_model_graph(r);
    CHECK(onnxslim_graph_node_count(rg) == 5);
    CHECK(graph_sorted(rg));
    CHECK(has_input(rg, "x") && !has_input(rg, fxc));
    CHECK_STR(onnxslim_node_input(node_named(r, "relu"), 0), fxc);
    CHECK(onnxslim_graph_find_initializer(rg, "b") != NULL);
    onnxslim_node *px = onnxslim_graph_producer(rg, fxc);
    CHECK_STR(onnxslim_node_input(px, 0), "x");
    onnxslim_node *pb = onnxslim_graph_producer(rg, fbc);
    CHECK_STR(onnxslim_node_op_type(pb), "Neg");
    CHECK_STR(onnxslim_node_input(pb, 0), "b");
    /* the capture inside the then branch now reads the new edge */
    onnxslim_graph *then_g = sub_of(node_named(r, "if"), "then_branch");
    CHECK(then_g != NULL);
    if (then_g) CHECK_STR(onnxslim_node_input(onnxslim_graph_find_node(then_g, "then_add"), 1), fbc);
    /* the graph input's value info was copied to the new edge */
    onnxslim_value_info *vi = value_info_named(rg, fxc);
    CHECK(vi != NULL);
    CHECK(onnxslim_type_elem_type(onnxslim_value_info_type(vi)) == ONNXSLIM_DTYPE_FLOAT);
    onnxslim_model_free(r);
  }
  onnxslim_model_free(m);
}

TEST(insert_after_capture_consumer) {
  onnxslim_model *m = capture_model(0);
  if (!m) {
    CHECK(0);
    return;
  }
  onnxslim_graph *g = onnxslim_model_graph(m);
  onnxslim_node *iff = node_named(m, "if"), *n = NULL;
  onnxslim_node *chosen[1] = {iff};
  CHECK_OK(onnxslim_insert_after(g, "v", "Abs", NULL, chosen, 1, "v_abs", &n));
  CHECK(n != NULL);
  CHECK(graph_sorted(g));
  onnxslim_model *r = reload(m);
  if (r) {
    onnxslim_graph *rg = onnxslim_model_graph(r);
    CHECK(graph_sorted(rg));
    CHECK_STR(onnxslim_node_output(node_named(r, "relu"), 0), "v");
    CHECK_STR(onnxslim_node_input(node_named(r, "neg"), 0), "v"); /* not chosen */
    onnxslim_node *rif = node_named(r, "if");
    onnxslim_graph *then_g = sub_of(rif, "then_branch"), *else_g = sub_of(rif, "else_branch");
    CHECK(then_g && else_g);
    if (then_g && else_g) {
      CHECK_STR(onnxslim_node_input(onnxslim_graph_find_node(then_g, "then_add"), 0), "v_abs");
      onnxslim_graph *it = sub_of(onnxslim_graph_find_node(then_g, "inner_if"), "then_branch");
      CHECK(it && streq(onnxslim_node_input(onnxslim_graph_find_node(it, "inner_id"), 0), "v_abs"));
      CHECK_STR(onnxslim_node_input(onnxslim_graph_find_node(else_g, "else_neg"), 0), "v_abs");
      CHECK(!reads_anywhere(then_g, "v") && !reads_anywhere(else_g, "v"));
    }
    CHECK(onnxslim_graph_consumer_count(rg, "v_abs") == 1);
    CHECK(onnxslim_graph_consumer(rg, "v_abs", 0) == rif);
    onnxslim_model_free(r);
  }
  onnxslim_model_free(m);

}

/* The else branch defines its own v while the then branch reads the outer
 * v: the If still captures v (through its then branch). */
TEST(capture_next_to_shadowing_branch) {
  onnxslim_model *m = capture_model(1);
  if (!m) {
    CHECK(0);
    return;
  }
  onnxslim_graph *g = onnxslim_model_graph(m);
  onnxslim_node *iff = node_named(m, "if");
  CHECK(onnxslim_graph_consumer_count(g, "v") == 2); /* neg, and if by capture */
  int found = 0;
  for (size_t i = 0; i < onnxslim_graph_consumer_count(g, "v"); i++)
    found |= onnxslim_graph_consumer(g, "v", i) == iff;
  CHECK(found);
  onnxslim_model *r = NULL;
  onnxslim_node *chosen[1] = {iff};
  CHECK_OK(onnxslim_insert_after(g, "v", "Abs", NULL, chosen, 1, "v_abs", NULL));
  r = reload(m);
  if (r) {
    onnxslim_graph *else_g = sub_of(node_named(r, "if"), "else_branch");
    CHECK(else_g && streq(onnxslim_node_input(onnxslim_graph_find_node(else_g, "else_neg"), 0), "v"));
    onnxslim_graph *then_g = sub_of(node_named(r, "if"), "then_branch");
    CHECK(then_g && streq(onnxslim_node_input(onnxslim_graph_find_node(then_g, "then_add"), 0), "v_abs"));
    onnxslim_model_free(r);
  }
  onnxslim_model_free(m);
}

TEST(insert_before) {
  onnxslim_model *m = capture_model(0);
  if (!m) {
    CHECK(0);
    return;
  }
  onnxslim_graph *g = onnxslim_model_graph(m);
  onnxslim_node *neg = node_named(m, "neg"), *n = NULL;
  CHECK_OK(onnxslim_insert_before(g, neg, 0, "Sqrt", NULL, "v_sqrt", &n));
  CHECK(n != NULL && index_of(g, n) + 1 == index_of(g, neg));
  CHECK(onnxslim_insert_before(g, neg, 1, "Sqrt", NULL, NULL, NULL) == ONNXSLIM_ERANGE);
  onnxslim_node *custom = NULL;
  const char *ins[2] = {"x", ""};
  CHECK_OK(onnxslim_graph_add_node(g, SIZE_MAX, "Custom", "com.example", "custom", ins, 2,
                                   L("cu"), 1, &custom));
  CHECK(onnxslim_insert_before(g, custom, 1, "Sqrt", NULL, NULL, NULL) == ONNXSLIM_ERANGE);
  CHECK(onnxslim_insert_before(g, NULL, 0, "Sqrt", NULL, NULL, NULL) == ONNXSLIM_EINVAL);
  /* a node of a subgraph is not a node of this graph */
  onnxslim_graph *then_g = sub_of(node_named(m, "if"), "then_branch");
  CHECK(onnxslim_insert_before(g, onnxslim_graph_find_node(then_g, "then_add"), 0, "Sqrt", NULL,
                               NULL, NULL) == ONNXSLIM_EINVAL);
  /* inside a subgraph, on a captured value */
  onnxslim_node *sn = NULL;
  CHECK_OK(onnxslim_insert_before(then_g, onnxslim_graph_find_node(then_g, "then_add"), 0, "Abs",
                                  "", NULL, &sn));
  char sub_edge[128];
  snprintf(sub_edge, sizeof sub_edge, "%s", sn ? onnxslim_node_output(sn, 0) : "?");
  onnxslim_model *r = reload(m);
  if (r) {
    onnxslim_graph *rg = onnxslim_model_graph(r);
    CHECK(graph_sorted(rg));
    CHECK_STR(onnxslim_node_input(node_named(r, "neg"), 0), "v_sqrt");
    onnxslim_node *p = onnxslim_graph_producer(rg, "v_sqrt");
    CHECK_STR(onnxslim_node_op_type(p), "Sqrt");
    CHECK_STR(onnxslim_node_input(p, 0), "v");
    CHECK(value_info_named(rg, "v_sqrt") != NULL); /* v had value_info */
    /* the If still reads v through its capture */
    CHECK(onnxslim_graph_consumer_count(rg, "v") == 2);
    onnxslim_graph *rt = sub_of(node_named(r, "if"), "then_branch");
    CHECK(rt && onnxslim_graph_node_count(rt) == 3);
    if (rt) {
      onnxslim_node *add = onnxslim_graph_find_node(rt, "then_add");
      CHECK_STR(onnxslim_node_input(add, 0), sub_edge);
      CHECK(index_of(rt, add) == 1);
      onnxslim_node *abs = onnxslim_graph_node(rt, 0);
      CHECK_STR(onnxslim_node_op_type(abs), "Abs");
      CHECK_STR(onnxslim_node_input(abs, 0), "v");
    }
    onnxslim_model_free(r);
  }
  onnxslim_model_free(m);
}

TEST(insert_cast) {
  onnxslim_model *m = fan_model();
  if (!m) {
    CHECK(0);
    return;
  }
  onnxslim_graph *g = onnxslim_model_graph(m);
  onnxslim_node *c1 = NULL, *c2 = NULL, *c3 = NULL;
  /* take-over on a graph output: the output (Cast's output) becomes FLOAT16 */
  CHECK_OK(onnxslim_insert_cast_after(g, "y", ONNXSLIM_DTYPE_FLOAT16, NULL, 0, "y_f32", &c1));
  /* on a graph input, fresh output */
  CHECK_OK(onnxslim_insert_cast_after(g, "x", ONNXSLIM_DTYPE_DOUBLE, NULL, 0, "x_f64", &c2));
  /* before one input */
  CHECK_OK(onnxslim_insert_cast_before(g, node_named(m, "exp"), 0, ONNXSLIM_DTYPE_INT32, "y_i32", &c3));
  CHECK(onnxslim_insert_cast_after(g, "x", -1, NULL, 0, NULL, NULL) == ONNXSLIM_EINVAL);
  onnxslim_model *r = reload(m);
  if (r) {
    onnxslim_graph *rg = onnxslim_model_graph(r);
    CHECK(graph_sorted(rg));
    int64_t to = 0;
    onnxslim_node *p = onnxslim_graph_producer(rg, "y");
    CHECK_STR(onnxslim_node_op_type(p), "Cast");
    CHECK_OK(onnxslim_attr_int(onnxslim_node_find_attr(p, "to"), &to));
    CHECK(to == ONNXSLIM_DTYPE_FLOAT16);
    CHECK_STR(onnxslim_node_input(p, 0), "y_f32");
    /* y is a graph output: its type follows the Cast; the renamed producer
     * edge keeps FLOAT */
    onnxslim_value_info *yo = NULL;
    for (size_t i = 0; i < onnxslim_graph_output_count(rg); i++)
      if (streq(onnxslim_value_info_name(onnxslim_graph_output(rg, i)), "y")) yo = onnxslim_graph_output(rg, i);
    CHECK(onnxslim_type_elem_type(onnxslim_value_info_type(yo)) == ONNXSLIM_DTYPE_FLOAT16);
    CHECK(onnxslim_type_elem_type(onnxslim_value_info_type(value_info_named(rg, "y_f32"))) ==
          ONNXSLIM_DTYPE_FLOAT);
    p = onnxslim_graph_producer(rg, "x_f64");
    CHECK_STR(onnxslim_node_op_type(p), "Cast");
    CHECK_OK(onnxslim_attr_int(onnxslim_node_find_attr(p, "to"), &to));
    CHECK(to == ONNXSLIM_DTYPE_DOUBLE);
    CHECK_STR(onnxslim_node_input(node_named(r, "relu"), 0), "x_f64");
    onnxslim_value_info *vi = value_info_named(rg, "x_f64");
    CHECK(onnxslim_type_elem_type(onnxslim_value_info_type(vi)) == ONNXSLIM_DTYPE_DOUBLE);
    CHECK(onnxslim_type_rank(onnxslim_value_info_type(vi)) == 1);
    /* the graph input keeps its type */
    CHECK(onnxslim_type_elem_type(onnxslim_value_info_type(onnxslim_graph_input(rg, 0))) ==
          ONNXSLIM_DTYPE_FLOAT);
    p = onnxslim_graph_producer(rg, "y_i32");
    CHECK_STR(onnxslim_node_op_type(p), "Cast");
    CHECK_OK(onnxslim_attr_int(onnxslim_node_find_attr(p, "to"), &to));
    CHECK(to == ONNXSLIM_DTYPE_INT32);
    CHECK_STR(onnxslim_node_input(p, 0), "y");
    CHECK_STR(onnxslim_node_input(node_named(r, "exp"), 0), "y_i32");
    CHECK(onnxslim_type_elem_type(onnxslim_value_info_type(value_info_named(rg, "y_i32"))) ==
          ONNXSLIM_DTYPE_INT32);
    /* y's own value (graph output) was not retyped by cast_before */
    CHECK(onnxslim_type_elem_type(onnxslim_value_info_type(yo)) == ONNXSLIM_DTYPE_FLOAT16);
    onnxslim_model_free(r);
  }
  onnxslim_model_free(m);

  /* without any value info on the edge, none is invented */
  pbuf gb = {0};
  pb_node(&gb, "Relu", "relu", L("x"), L("h"), NULL);
  pb_node(&gb, "Neg", "neg", L("h"), L("y"), NULL);
  pb_vi(&gb, 11, "x", ONNXSLIM_DTYPE_FLOAT, 1, dims3);
  pb_vi(&gb, 12, "y", ONNXSLIM_DTYPE_FLOAT, 1, dims3);
  pbuf mb = pb_model(&gb);
  m = from_pbuf(&mb);
  if (!m) {
    CHECK(0);
    return;
  }
  g = onnxslim_model_graph(m);
  CHECK_OK(onnxslim_insert_cast_after(g, "h", ONNXSLIM_DTYPE_FLOAT16, NULL, 0, "h_pre", NULL));
  CHECK(onnxslim_graph_value_info_count(g) == 0);
  onnxslim_model_free(m);
}

TEST(insert_errors) {
  onnxslim_model *m = capture_model(0);
  if (!m) {
    CHECK(0);
    return;
  }
  onnxslim_graph *g = onnxslim_model_graph(m);
  size_t n0 = onnxslim_graph_node_count(g);
  size_t before_n = 0;
  uint8_t *before = save_bytes(m, &before_n);
  /* a consumer that does not read the value */
  onnxslim_node *wrong[1] = {node_named(m, "relu")};
  CHECK(onnxslim_insert_after(g, "v", "Abs", NULL, wrong, 1, NULL, NULL) == ONNXSLIM_EINVAL);
  /* unknown value; value only known inside a subgraph */
  CHECK(onnxslim_insert_after(g, "nope", "Abs", NULL, NULL, 0, NULL, NULL) == ONNXSLIM_ENOTFOUND);
  CHECK(onnxslim_insert_after(g, "t1", "Abs", NULL, NULL, 0, NULL, NULL) == ONNXSLIM_ENOTFOUND);
  CHECK(onnxslim_insert_after(NULL, "v", "Abs", NULL, NULL, 0, NULL, NULL) == ONNXSLIM_EINVAL);
  CHECK(onnxslim_insert_after(g, "v", NULL, NULL, NULL, 0, NULL, NULL) == ONNXSLIM_EINVAL);
  CHECK(onnxslim_insert_after(g, "v", "Abs", NULL, NULL, 3, NULL, NULL) == ONNXSLIM_EINVAL);
  /* failed calls leave the model as it was */
  CHECK(onnxslim_graph_node_count(g) == n0);
  size_t after_n = 0;
  uint8_t *after = save_bytes(m, &after_n);
  CHECK(before && after && before_n == after_n && memcmp(before, after, before_n) == 0);
  free(before);
  free(after);
  onnxslim_model_free(m);
}

/* A fresh_name already used in the model (a value, a node name, names used
 * only in subgraphs) is made unique by appending _N (onnxslim/insert.h). */
TEST(insert_fresh_name_in_use) {
  onnxslim_model *m = capture_model(0);
  if (!m) {
    CHECK(0);
    return;
  }
  onnxslim_graph *g = onnxslim_model_graph(m);
  names used = {0};
  collect_names(g, &used);
  static const char *const taken[] = {"nv", "relu", "t1", "inner_id", "b", "x"};
  char got[6][128];
  onnxslim_node *n = NULL;
  /* take-over: the fresh name goes to relu's renamed output */
  CHECK_OK(onnxslim_insert_after(g, "v", "Abs", NULL, NULL, 0, taken[0], &n));
  snprintf(got[0], sizeof got[0], "%s", n ? onnxslim_node_input(n, 0) : "?");
  CHECK_STR(onnxslim_node_output(node_named(m, "relu"), 0), got[0]);
  /* fresh output: the fresh name is the new node's output */
  onnxslim_node *chosen[1] = {node_named(m, "if")};
  CHECK_OK(onnxslim_insert_after(g, "v", "Abs", NULL, chosen, 1, taken[1], &n));
  snprintf(got[1], sizeof got[1], "%s", n ? onnxslim_node_output(n, 0) : "?");
  CHECK_OK(onnxslim_insert_after(g, "x", "Abs", NULL, NULL, 0, taken[2], &n));
  snprintf(got[2], sizeof got[2], "%s", n ? onnxslim_node_output(n, 0) : "?");
  CHECK_OK(onnxslim_insert_after(g, "x", "Abs", NULL, NULL, 0, taken[3], &n));
  snprintf(got[3], sizeof got[3], "%s", n ? onnxslim_node_output(n, 0) : "?");
  CHECK_OK(onnxslim_insert_before(g, node_named(m, "neg"), 0, "Abs", NULL, taken[4], &n));
  snprintf(got[4], sizeof got[4], "%s", n ? onnxslim_node_output(n, 0) : "?");
  CHECK_OK(onnxslim_insert_cast_after(g, "nv", 1, NULL, 0, taken[5], &n));
  snprintf(got[5], sizeof got[5], "%s", n ? onnxslim_node_input(n, 0) : "?");
  for (int i = 0; i < 6; i++) {
    size_t tl = strlen(taken[i]);
    /* made unique from the wanted name: wanted_N */
    CHECK(strncmp(got[i], taken[i], tl) == 0 && got[i][tl] == '_');
    CHECK(!names_has(&used, got[i]));
    for (int j = 0; j < i; j++) CHECK(strcmp(got[i], got[j]) != 0);
  }
  /* the names that were taken still mean what they meant */
  CHECK(onnxslim_graph_find_initializer(g, "b") != NULL);
  CHECK(has_input(g, "x"));
  onnxslim_model *r = reload(m);
  if (r) {
    onnxslim_graph *rg = onnxslim_model_graph(r);
    CHECK(graph_sorted(rg));
    CHECK(node_named(r, "relu") != NULL);
    CHECK(onnxslim_graph_producer(rg, "nv") != NULL); /* the Cast, taking over nv */
    CHECK_STR(onnxslim_node_op_type(onnxslim_graph_producer(rg, "nv")), "Cast");
    CHECK_STR(onnxslim_node_op_type(onnxslim_graph_producer(rg, got[5])), "Neg");
    onnxslim_graph *then_g = sub_of(node_named(r, "if"), "then_branch");
    CHECK(then_g && onnxslim_graph_find_node(then_g, "then_add") != NULL);
    if (then_g) CHECK_STR(onnxslim_node_input(onnxslim_graph_find_node(then_g, "then_add"), 0), got[1]);
    CHECK(then_g && streq(onnxslim_node_output(onnxslim_graph_find_node(then_g, "then_add"), 0), "t1"));
    onnxslim_model_free(r);
  }
  free(used.v);
  onnxslim_model_free(m);
}

TEST(insert_generated_names_unique) {
  onnxslim_model *m = capture_model(0);
  if (!m) {
    CHECK(0);
    return;
  }
  onnxslim_graph *g = onnxslim_model_graph(m);
  names orig = {0};
  collect_names(g, &orig);
  /* names other inserts would naturally generate are already taken */
  CHECK_OK(onnxslim_graph_add_node(g, SIZE_MAX, "Identity", NULL, "v_Identity", L("nv"), 1,
                                   L("v_pre"), 1, NULL));
  CHECK_OK(onnxslim_graph_add_node(g, SIZE_MAX, "Identity", NULL, "v_out", L("nv"), 1, L("v_in"), 1,
                                   NULL));
  for (int i = 0; i < 3; i++) {
    CHECK_OK(onnxslim_insert_after(g, "v", "Identity", NULL, NULL, 0, NULL, NULL));
    CHECK_OK(onnxslim_insert_after(g, "x", "Identity", NULL, NULL, 0, NULL, NULL));
    /* the value the If captures now (each round renames the capture) */
    onnxslim_graph *then_g = sub_of(node_named(m, "if"), "then_branch");
    char cap[128];
    snprintf(cap, sizeof cap, "%s", onnxslim_node_input(onnxslim_graph_find_node(then_g, "then_add"), 0));
    onnxslim_node *chosen[1] = {node_named(m, "if")};
    CHECK_OK(onnxslim_insert_after(g, cap, "Identity", NULL, chosen, 1, NULL, NULL));
    CHECK_OK(onnxslim_insert_before(g, node_named(m, "neg"), 0, "Identity", NULL, NULL, NULL));
  }
  CHECK(onnxslim_graph_node_count(g) == 3 + 2 + 12);
  onnxslim_model *r = reload(m);
  if (r) {
    onnxslim_graph *rg = onnxslim_model_graph(r);
    CHECK(graph_sorted(rg));
    /* every node name is distinct, every value has at most one producer */
    names nn = {0}, outs = {0};
    for (size_t i = 0; i < onnxslim_graph_node_count(rg); i++) {
      onnxslim_node *n = onnxslim_graph_node(rg, i);
      const char *name = onnxslim_node_name(n);
      CHECK(name[0] != '\0');
      if (names_has(&nn, name)) fprintf(stderr, "node name '%s' used twice\n", name);
      CHECK(!names_has(&nn, name));
      names_add(&nn, name);
      const char *o = onnxslim_node_output(n, 0);
      if (names_has(&outs, o)) fprintf(stderr, "value '%s' produced twice\n", o);
      CHECK(!names_has(&outs, o));
      CHECK(!streq(o, "x") && !streq(o, "b") && !streq(o, "cond"));
      names_add(&outs, o);
      /* a generated node name is no name of the original model */
      static const char *const mine[] = {"relu", "neg", "if", "v_Identity", "v_out"};
      int is_mine = 0;
      for (size_t k = 0; k < 5; k++) is_mine |= streq(name, mine[k]);
      if (!is_mine) CHECK(!names_has(&orig, name));
    }
    /* new names never clash with names used only in subgraphs */
    for (size_t i = 0; i < outs.n; i++) {
      CHECK(!streq(outs.v[i], "t1") && !streq(outs.v[i], "it") && !streq(outs.v[i], "e"));
    }
    free(nn.v);
    free(outs.v);
    onnxslim_model_free(r);
  }
  free(orig.v);
  onnxslim_model_free(m);
}

/* ---- cleanup: toposort ----------------------------------------------------------- */

TEST(toposort_shuffled) {
  onnxslim_model *m = open_model(BERT);
  if (!m) {
    CHECK(0);
    return;
  }
  onnxslim_graph *g = onnxslim_model_graph(m);
  size_t n = onnxslim_graph_node_count(g);
  onnxslim_node **order = malloc(n * sizeof *order);
  if (!order) return;
  /* a deterministic shuffle: reverse, then interleave halves */
  for (size_t i = 0; i < n; i++) order[i] = onnxslim_graph_node(g, n - 1 - i);
  CHECK_OK(onnxslim_graph_reorder_nodes(g, order, n));
  for (size_t i = 0; i < n; i++) order[i] = onnxslim_graph_node(g, (i * 7) % n);
  if (n % 7 == 0) CHECK(0); /* 7 must be coprime with n for a permutation */
  CHECK_OK(onnxslim_graph_reorder_nodes(g, order, n));
  CHECK(graph_unsorted(g));
  CHECK_OK(onnxslim_graph_toposort(g, 0));
  CHECK(graph_sorted(g));
  CHECK(onnxslim_graph_node_count(g) == n);
  onnxslim_model *r = reload(m);
  if (r) {
    CHECK(graph_sorted(onnxslim_model_graph(r)));
    CHECK(onnxslim_graph_node_count(onnxslim_model_graph(r)) == n);
    onnxslim_model_free(r);
  }
  /* the original bytes come back: sorting the shuffled graph and saving
   * gives a valid order, and sorting again changes nothing */
  size_t a_n = 0, b_n = 0;
  uint8_t *a = save_bytes(m, &a_n);
  CHECK_OK(onnxslim_graph_toposort(g, ONNXSLIM_CLEANUP_RECURSIVE));
  uint8_t *b = save_bytes(m, &b_n);
  CHECK(a && b && a_n == b_n && memcmp(a, b, a_n) == 0);
  free(a);
  free(b);
  CHECK(onnxslim_graph_toposort(g, 8) == ONNXSLIM_EINVAL);
  CHECK(onnxslim_graph_toposort(NULL, 0) == ONNXSLIM_EINVAL);
  free(order);
  onnxslim_model_free(m);

  /* subgraph captures are dependencies: If reading v must follow relu */
  m = capture_model(0);
  if (!m) return;
  g = onnxslim_model_graph(m);
  onnxslim_node *o3[3] = {node_named(m, "if"), node_named(m, "neg"), node_named(m, "relu")};
  CHECK_OK(onnxslim_graph_reorder_nodes(g, o3, 3));
  /* and a shuffled subgraph, sorted only with RECURSIVE */
  onnxslim_graph *then_g = sub_of(node_named(m, "if"), "then_branch");
  onnxslim_node *t2[2] = {onnxslim_graph_node(then_g, 1), onnxslim_graph_node(then_g, 0)};
  CHECK_OK(onnxslim_graph_reorder_nodes(then_g, t2, 2));
  CHECK_OK(onnxslim_graph_toposort(g, 0));
  CHECK(index_named(g, "relu") < index_named(g, "if"));
  CHECK(index_named(g, "relu") < index_named(g, "neg"));
  CHECK(index_named(then_g, "inner_if") == 0); /* not recursive: untouched */
  CHECK_OK(onnxslim_graph_toposort(g, ONNXSLIM_CLEANUP_RECURSIVE));
  CHECK(index_named(then_g, "then_add") == 0);
  r = reload(m);
  if (r) {
    CHECK(graph_sorted(onnxslim_model_graph(r)));
    onnxslim_model_free(r);
  }
  onnxslim_model_free(m);
}

TEST(toposort_sorted_is_stable) {
  size_t in_n = 0;
  uint8_t *in = slurp(BERT, &in_n);
  onnxslim_model *m = open_model(BERT);
  CHECK(in && m);
  if (in && m) {
    onnxslim_graph *g = onnxslim_model_graph(m);
    onnxslim_node *first = onnxslim_graph_node(g, 0);
    CHECK_OK(onnxslim_graph_toposort(g, ONNXSLIM_CLEANUP_RECURSIVE));
    CHECK(onnxslim_graph_node(g, 0) == first);
    size_t out_n = 0;
    uint8_t *out = save_bytes(m, &out_n);
    CHECK(out && out_n == in_n && memcmp(out, in, in_n) == 0);
    free(out);
  }
  onnxslim_model_free(m);
  free(in);
  /* a sorted model with subgraphs too */
  m = open_model(TESTDATA "/node/test_range_float_type_positive_delta_expanded/model.onnx");
  in = slurp(TESTDATA "/node/test_range_float_type_positive_delta_expanded/model.onnx", &in_n);
  if (m && in) {
    CHECK_OK(onnxslim_graph_toposort(onnxslim_model_graph(m), ONNXSLIM_CLEANUP_RECURSIVE));
    size_t out_n = 0;
    uint8_t *out = save_bytes(m, &out_n);
    CHECK(out && out_n == in_n && memcmp(out, in, in_n) == 0);
    free(out);
  }
  onnxslim_model_free(m);
  free(in);
}

TEST(toposort_cycle) {
  /* x -> a(x, d) -> c; c -> b -> d; d -> a: a and b form a cycle */
  pbuf g = {0};
  pb_node(&g, "Relu", "head", L("x"), L("h"), NULL);
  pb_node(&g, "Add", "cyc_a", L("h", "d"), L("c"), NULL);
  pb_node(&g, "Neg", "cyc_b", L("c"), L("d"), NULL);
  pb_node(&g, "Abs", "tail", L("c"), L("y"), NULL);
  pb_vi(&g, 11, "x", ONNXSLIM_DTYPE_FLOAT, 1, dims3);
  pb_vi(&g, 12, "y", ONNXSLIM_DTYPE_FLOAT, 1, dims3);
  pbuf mb = pb_model(&g);
  pbuf copy = {0};
  pb_put(&copy, mb.p, mb.n);
  onnxslim_model *m = from_pbuf(&mb);
  if (!m) {
    CHECK(0);
    free(copy.p);
    return;
  }
  onnxslim_graph *gr = onnxslim_model_graph(m);
  /* move tail first so a sort would have to change something */
  CHECK_OK(onnxslim_graph_move_node(gr, node_named(m, "tail"), 0));
  size_t b_n = 0;
  uint8_t *before = save_bytes(m, &b_n);
  onnxslim_error_clear();
  CHECK(onnxslim_graph_toposort(gr, 0) == ONNXSLIM_EMODEL);
  const char *msg = onnxslim_error_last();
  CHECK(strstr(msg, "cyc_a") != NULL || strstr(msg, "cyc_b") != NULL);
  CHECK(strstr(msg, "head") == NULL && strstr(msg, "tail") == NULL);
  size_t a_n = 0;
  uint8_t *after = save_bytes(m, &a_n);
  CHECK(before && after && a_n == b_n && memcmp(before, after, a_n) == 0); /* unchanged */
  CHECK(index_named(gr, "tail") == 0 && index_named(gr, "head") == 1);
  free(before);
  free(after);
  onnxslim_model_free(m);
  /* a self-loop */
  pbuf g2 = {0};
  pb_node(&g2, "Add", "self", L("x", "s"), L("s"), NULL);
  pb_vi(&g2, 11, "x", ONNXSLIM_DTYPE_FLOAT, 1, dims3);
  pb_vi(&g2, 12, "s", ONNXSLIM_DTYPE_FLOAT, 1, dims3);
  pbuf mb2 = pb_model(&g2);
  m = from_pbuf(&mb2);
  if (m) {
    CHECK(onnxslim_graph_toposort(onnxslim_model_graph(m), 0) == ONNXSLIM_EMODEL);
    CHECK(strstr(onnxslim_error_last(), "self") != NULL);
    onnxslim_model_free(m);
  }
  free(copy.p);
}

/* ---- cleanup: remove_unused --------------------------------------------------------- */

TEST(remove_unused) {
  /* inputs x, unused_in; initializers w (used), dead_w (unused), in_w (also
   * a graph input, unused); nodes: relu(x)->a, add(a,w)->y [output],
   * dead1(a)->d1, dead2(d1)->d2; value_info a, d1, gone */
  static const float w[3] = {1, 2, 3};
  pbuf g = {0};
  pb_node(&g, "Relu", "relu", L("x"), L("a"), NULL);
  pb_node(&g, "Neg", "dead1", L("a"), L("d1"), NULL);
  pb_node(&g, "Add", "add", L("a", "w"), L("y"), NULL);
  pb_node(&g, "Abs", "dead2", L("d1", "dead_w"), L("d2"), NULL);
  pb_str(&g, 2, "ru");
  pb_init(&g, "w", w, 3);
  pb_init(&g, "dead_w", w, 3);
  pb_init(&g, "in_w", w, 3);
  pb_init(&g, "lonely", w, 3);
  pb_vi(&g, 11, "x", ONNXSLIM_DTYPE_FLOAT, 1, dims3);
  pb_vi(&g, 11, "unused_in", ONNXSLIM_DTYPE_FLOAT, 1, dims3);
  pb_vi(&g, 11, "in_w", ONNXSLIM_DTYPE_FLOAT, 1, dims3);
  pb_vi(&g, 12, "y", ONNXSLIM_DTYPE_FLOAT, 1, dims3);
  pb_vi(&g, 13, "a", ONNXSLIM_DTYPE_FLOAT, 1, dims3);
  pb_vi(&g, 13, "d1", ONNXSLIM_DTYPE_FLOAT, 1, dims3);
  pb_vi(&g, 13, "gone", ONNXSLIM_DTYPE_FLOAT, 1, dims3);
  pbuf mb = pb_model(&g);
  onnxslim_model *m = from_pbuf(&mb);
  if (!m) {
    CHECK(0);
    return;
  }
  onnxslim_graph *gr = onnxslim_model_graph(m);
  onnxslim_node *dead1 = node_named(m, "dead1");
  size_t removed = 99;
  CHECK_OK(onnxslim_graph_remove_unused(gr, 0, &removed));
  /* dead1, dead2, dead_w, lonely, value_info d1 and gone */
  CHECK(removed == 6);
  CHECK(onnxslim_node_name(dead1) == NULL); /* removed handle */
  CHECK(onnxslim_error_last_code() == ONNXSLIM_EINVAL);
  onnxslim_model *r = reload(m);
  if (r) {
    onnxslim_graph *rg = onnxslim_model_graph(r);
    CHECK(onnxslim_graph_node_count(rg) == 2);
    CHECK(index_named(rg, "relu") == 0 && index_named(rg, "add") == 1);
    CHECK(onnxslim_graph_initializer_count(rg) == 2);
    CHECK(onnxslim_graph_find_initializer(rg, "w") != NULL);
    CHECK(onnxslim_graph_find_initializer(rg, "in_w") != NULL);
    CHECK(onnxslim_graph_input_count(rg) == 3 && has_input(rg, "unused_in"));
    CHECK(onnxslim_graph_output_count(rg) == 1 && has_output(rg, "y"));
    CHECK(onnxslim_graph_value_info_count(rg) == 1 && value_info_named(rg, "a") != NULL);
    onnxslim_model_free(r);
  }
  /* a second pass finds nothing */
  CHECK_OK(onnxslim_graph_remove_unused(gr, ONNXSLIM_CLEANUP_RECURSIVE, &removed));
  CHECK(removed == 0);
  CHECK(onnxslim_graph_remove_unused(gr, 4, NULL) == ONNXSLIM_EINVAL);
  onnxslim_model_free(m);
}

TEST(remove_unused_keeps_captures) {
  onnxslim_model *m = capture_model(0);
  if (!m) {
    CHECK(0);
    return;
  }
  onnxslim_graph *g = onnxslim_model_graph(m);
  /* nv is no longer an output: neg is dead; v is still read by the If's
   * branches (captures), so relu and the initializer b (read only inside
   * the then branch) stay */
  for (size_t i = 0; i < onnxslim_graph_output_count(g); i++)
    if (streq(onnxslim_value_info_name(onnxslim_graph_output(g, i)), "nv"))
      CHECK_OK(onnxslim_graph_remove_value_info(g, onnxslim_graph_output(g, i)));
  /* a dead node inside the then branch, removed only with RECURSIVE */
  onnxslim_graph *then_g = sub_of(node_named(m, "if"), "then_branch");
  CHECK_OK(onnxslim_graph_add_node(then_g, SIZE_MAX, "Neg", NULL, "sub_dead", L("v"), 1,
                                   L("sub_dead_out"), 1, NULL));
  size_t removed = 0;
  CHECK_OK(onnxslim_graph_remove_unused(g, 0, &removed));
  CHECK(removed == 1);
  CHECK(onnxslim_graph_find_node(then_g, "sub_dead") != NULL);
  CHECK_OK(onnxslim_graph_remove_unused(g, ONNXSLIM_CLEANUP_RECURSIVE, &removed));
  CHECK(removed == 1);
  onnxslim_model *r = reload(m);
  if (r) {
    onnxslim_graph *rg = onnxslim_model_graph(r);
    CHECK(onnxslim_graph_node_count(rg) == 2);
    CHECK(node_named(r, "relu") != NULL && node_named(r, "if") != NULL);
    CHECK(node_named(r, "neg") == NULL);
    CHECK(onnxslim_graph_find_initializer(rg, "b") != NULL);
    CHECK(value_info_named(rg, "v") != NULL);
    onnxslim_graph *rt = sub_of(node_named(r, "if"), "then_branch");
    CHECK(rt && onnxslim_graph_find_node(rt, "sub_dead") == NULL);
    CHECK(rt && onnxslim_graph_node_count(rt) == 2);
    onnxslim_model_free(r);
  }
  onnxslim_model_free(m);
}

/* ---- point 6: edits re-encode only what they touch --------------------------------- */

/* A tiny protobuf walker: the length-delimited fields `want` of the message
 * in buf[0..n), as (start, length) of their payloads. */
typedef struct {
  const uint8_t *p;
  size_t n;
} span;
typedef struct {
  span *v;
  size_t n, cap;
} spans;

static int rd_varint(const uint8_t *b, size_t n, size_t *pos, uint64_t *v) {
  *v = 0;
  for (int s = 0; s < 64 && *pos < n; s += 7) {
    uint8_t c = b[(*pos)++];
    *v |= (uint64_t)(c & 0x7f) << s;
    if (!(c & 0x80)) return 0;
  }
  return -1;
}

/* Calls out for every field `want` (0: all length-delimited fields). */
static int walk(const uint8_t *b, size_t n, uint32_t want, spans *out) {
  size_t pos = 0;
  while (pos < n) {
    uint64_t key, len;
    if (rd_varint(b, n, &pos, &key)) return -1;
    uint32_t field = (uint32_t)(key >> 3);
    switch (key & 7) {
      case 0:
        if (rd_varint(b, n, &pos, &len)) return -1;
        break;
      case 1:
        pos += 8;
        break;
      case 5:
        pos += 4;
        break;
      case 2:
        if (rd_varint(b, n, &pos, &len) || len > n - pos) return -1;
        if (field == want || want == 0) {
          if (out->n == out->cap) {
            out->cap = out->cap * 2 + 16;
            out->v = realloc(out->v, out->cap * sizeof *out->v);
            if (!out->v) abort();
          }
          out->v[out->n++] = (span){b + pos, (size_t)len};
        }
        pos += (size_t)len;
        break;
      default:
        return -1;
    }
  }
  return pos == n ? 0 : -1;
}

/* The graph's payload of a ModelProto, and its fields `field`. */
static int graph_fields(const uint8_t *b, size_t n, uint32_t field, spans *out) {
  spans g = {0};
  if (walk(b, n, 7, &g) || g.n != 1) {
    free(g.v);
    return -1;
  }
  int rc = walk(g.v[0].p, g.v[0].n, field, out);
  free(g.v);
  return rc;
}

static int span_eq(span a, span b) { return a.n == b.n && memcmp(a.p, b.p, a.n) == 0; }

TEST(edits_reencode_only_what_they_touch) {
  size_t in_n = 0;
  uint8_t *in = slurp(BERT, &in_n);
  onnxslim_model *m = open_model(BERT);
  CHECK(in && m);
  if (!in || !m) {
    free(in);
    onnxslim_model_free(m);
    return;
  }
  onnxslim_graph *g = onnxslim_model_graph(m);
  const size_t edited = 5;
  size_t old_len = strlen(onnxslim_node_name(onnxslim_graph_node(g, edited)));
  CHECK_OK(onnxslim_node_set_name(onnxslim_graph_node(g, edited), "renamed_by_test"));
  size_t out_n = 0;
  uint8_t *out = save_bytes(m, &out_n);
  CHECK(out != NULL);
  if (!out) {
    free(in);
    onnxslim_model_free(m);
    return;
  }
  /* nodes (1), initializers (5), inputs (11), outputs (12), value_info (13):
   * same count, and every message but the edited node byte for byte equal */
  static const uint32_t fields[] = {1, 5, 11, 12, 13};
  for (size_t f = 0; f < sizeof fields / sizeof *fields; f++) {
    spans a = {0}, b = {0};
    CHECK_OK(graph_fields(in, in_n, fields[f], &a));
    CHECK_OK(graph_fields(out, out_n, fields[f], &b));
    CHECK(a.n == b.n && a.n > 0);
    size_t same = 0;
    for (size_t i = 0; i < a.n && i < b.n; i++) {
      if (fields[f] == 1 && i == edited) {
        CHECK(!span_eq(a.v[i], b.v[i]));
        CHECK(pb_find(b.v[i].p, b.v[i].n, "renamed_by_test", 15) >= 0);
        /* the edited node keeps every other field: only the name changed */
        CHECK(b.v[i].n + old_len == a.v[i].n + 15);
        continue;
      }
      if (span_eq(a.v[i], b.v[i])) same++;
      else fprintf(stderr, "graph field %u entry %zu was re-encoded\n", fields[f], i);
    }
    CHECK(same == a.n - (fields[f] == 1 ? 1 : 0));
    free(a.v);
    free(b.v);
  }
  /* the whole initializer section (contiguous in bert-tiny) appears as is */
  spans ia = {0};
  CHECK_OK(graph_fields(in, in_n, 5, &ia));
  if (ia.n) {
    const uint8_t *start = ia.v[0].p, *end = ia.v[ia.n - 1].p + ia.v[ia.n - 1].n;
    CHECK(pb_find(out, out_n, start, (size_t)(end - start)) >= 0);
  }
  free(ia.v);
  /* a model-level edit re-encodes the ModelProto but not the graph */
  CHECK_OK(onnxslim_model_set_metadata(m, "k", "v"));
  size_t out2_n = 0;
  uint8_t *out2 = save_bytes(m, &out2_n);
  spans g1 = {0}, g2 = {0};
  if (out2) {
    CHECK_OK(walk(out, out_n, 7, &g1));
    CHECK_OK(walk(out2, out2_n, 7, &g2));
    CHECK(g1.n == 1 && g2.n == 1 && span_eq(g1.v[0], g2.v[0]));
  }
  free(g1.v);
  free(g2.v);
  free(out2);
  free(out);
  free(in);
  onnxslim_model_free(m);
}

/* ---- the indexes follow a batch of edits ---------------------------------- */

static uint64_t rng_state = 0x9e3779b97f4a7c15u;
static size_t rnd(size_t n) {
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return n ? (size_t)((rng_state * 0x2545F4914F6CDD1Du) >> 33) % n : 0;
}

typedef struct {
  char *v[1024];
  size_t n;
} name_pool;

static const char *pool_add(name_pool *p, const char *s) {
  for (size_t i = 0; i < p->n; i++)
    if (strcmp(p->v[i], s) == 0) return p->v[i];
  if (p->n == 1024) return p->v[0];
  p->v[p->n] = malloc(strlen(s) + 1);
  if (p->v[p->n]) strcpy(p->v[p->n], s);
  return p->v[p->n] ? p->v[p->n++] : "x";
}

/* Every lookup of every name gives the same answer in a (edited) and b
 * (the same model saved and loaded again, indexed from scratch). Nodes
 * are compared by name: every node of these tests has its own. */
static int same_lookups(onnxslim_graph *a, onnxslim_graph *b, const name_pool *p) {
  int ok = 1;
  for (size_t i = 0; i < p->n; i++) {
    const char *v = p->v[i];
    onnxslim_node *pa = onnxslim_graph_producer(a, v), *pb = onnxslim_graph_producer(b, v);
    if (!!pa != !!pb || (pa && !streq(onnxslim_node_name(pa), onnxslim_node_name(pb)))) {
      fprintf(stderr, "producer of '%s' differs\n", v);
      ok = 0;
    }
    size_t ca = onnxslim_graph_consumer_count(a, v), cb = onnxslim_graph_consumer_count(b, v);
    if (ca != cb) {
      fprintf(stderr, "'%s': %zu consumers, %zu after reload\n", v, ca, cb);
      ok = 0;
    }
    for (size_t k = 0; k < ca && k < cb; k++)
      if (!streq(onnxslim_node_name(onnxslim_graph_consumer(a, v, k)),
                 onnxslim_node_name(onnxslim_graph_consumer(b, v, k)))) {
        fprintf(stderr, "consumer %zu of '%s' differs\n", k, v);
        ok = 0;
      }
    if (!!onnxslim_graph_find_node(a, v) != !!onnxslim_graph_find_node(b, v) ||
        !!onnxslim_graph_find_initializer(a, v) != !!onnxslim_graph_find_initializer(b, v)) {
      fprintf(stderr, "node or initializer '%s' differs\n", v);
      ok = 0;
    }
    onnxslim_value_info *va = onnxslim_graph_find_value_info(a, v),
                        *vb = onnxslim_graph_find_value_info(b, v);
    if (!!va != !!vb || (va && onnxslim_type_elem_type(onnxslim_value_info_type(va)) !=
                                   onnxslim_type_elem_type(onnxslim_value_info_type(vb)))) {
      fprintf(stderr, "value info of '%s' differs\n", v);
      ok = 0;
    }
  }
  return ok;
}

/* Random batches of edits of every kind (nodes added at an index, at the
 * end, before and after other nodes, rewired, renamed, moved, removed;
 * value infos, inputs, initializers added and removed; captures inside a
 * subgraph changed), with lookups between them: after each batch the
 * indexes of the edited graph and its subgraph answer exactly as freshly
 * built ones. Value infos carry their kind in their element type (input
 * FLOAT, output DOUBLE, value_info INT32) so the search order shows. */
TEST(indexes_follow_edits) {
  onnxslim_model *m = capture_model(1);
  if (!m) {
    CHECK(0);
    return;
  }
  onnxslim_graph *g = onnxslim_model_graph(m);
  name_pool pool = {{0}, 0};
  onnxslim_node *nodes[512];
  size_t nn = 0;
  for (size_t i = 0; i < onnxslim_graph_node_count(g); i++) nodes[nn++] = onnxslim_graph_node(g, i);
  static const char *const base[] = {"x", "cond", "b", "v", "nv", "res", "t1", "e", "relu", "neg", "if"};
  for (size_t i = 0; i < sizeof base / sizeof base[0]; i++) pool_add(&pool, base[i]);
  onnxslim_graph *then_g = onnxslim_node_subgraph(node_named(m, "if"), 0);
  onnxslim_node *then_add = onnxslim_graph_find_node(then_g, "then_add");
  static const int32_t kind_type[3] = {ONNXSLIM_DTYPE_FLOAT, ONNXSLIM_DTYPE_DOUBLE,
                                       ONNXSLIM_DTYPE_INT32};
  char buf[64];
  int seq = 0, failures = 0;
  for (int round = 0; round < 40 && !failures; round++) {
    for (int step = 0; step < 12; step++) {
      const char *v = pool.v[rnd(pool.n)], *w = pool.v[rnd(pool.n)];
      onnxslim_node *n = nn ? nodes[rnd(nn)] : NULL, *made = NULL;
      snprintf(buf, sizeof buf, "v%d", ++seq);
      const char *fresh = pool_add(&pool, buf);
      char nname[32];
      snprintf(nname, sizeof nname, "n%d", seq);
      switch (rnd(14)) {
      case 0:
      case 1: {
        const char *in[2] = {v, w}, *out[1] = {fresh};
        size_t count = rnd(3) ? SIZE_MAX : onnxslim_graph_node_count(g);
        size_t at = count == SIZE_MAX ? SIZE_MAX : rnd(count + 1);
        if (onnxslim_graph_add_node(g, at, "Add", NULL, pool_add(&pool, nname), in, 2, out, 1,
                                    &made) == 0 && nn < 512)
          nodes[nn++] = made;
        break;
      }
      case 2:
        if (onnxslim_insert_cast_after(g, v, ONNXSLIM_DTYPE_FLOAT16, NULL, 0, NULL, &made) == 0 &&
            nn < 512)
          nodes[nn++] = made;
        break;
      case 3:
        if (n && onnxslim_node_input_count(n) &&
            onnxslim_insert_before(g, n, 0, "Identity", NULL, NULL, &made) == 0 && nn < 512)
          nodes[nn++] = made;
        break;
      case 4:
        if (n && onnxslim_node_input_count(n))
          onnxslim_node_set_input(n, rnd(onnxslim_node_input_count(n)), v);
        break;
      case 5:
        if (n && onnxslim_node_output_count(n))
          onnxslim_node_set_output(n, 0, rnd(2) ? v : fresh);
        break;
      case 6:
        if (n && onnxslim_graph_remove_node(g, n) == 0) {
          for (size_t k = 0; k < nn; k++)
            if (nodes[k] == n) nodes[k] = nodes[--nn];
        }
        break;
      case 7: {
        onnxslim_value_info *vi = NULL;
        size_t kind = rnd(3);
        int rc = kind == 0   ? onnxslim_graph_add_input(g, v, &vi)
                 : kind == 1 ? onnxslim_graph_add_output(g, v, &vi)
                             : onnxslim_graph_add_value_info(g, v, &vi);
        if (!rc) onnxslim_value_info_set_tensor_type(vi, kind_type[kind], NULL, NULL, SIZE_MAX);
        break;
      }
      case 8:
        if (onnxslim_graph_value_info_count(g))
          onnxslim_graph_remove_value_info(
              g, onnxslim_graph_value_info(g, rnd(onnxslim_graph_value_info_count(g))));
        break;
      case 9: {
        float f = 1.0f;
        onnxslim_graph_add_initializer(g, rnd(2) ? v : fresh, ONNXSLIM_DTYPE_FLOAT, NULL, 0, &f,
                                       sizeof f, ONNXSLIM_DATA_COPY, NULL);
        break;
      }
      case 10:
        if (onnxslim_graph_find_initializer(g, v))
          onnxslim_graph_remove_initializer(g, onnxslim_graph_find_initializer(g, v));
        break;
      case 11:
        if (n) onnxslim_node_set_name(n, pool_add(&pool, nname));
        break;
      case 12:
        if (n) onnxslim_graph_move_node(g, n, rnd(onnxslim_graph_node_count(g)));
        break;
      default:
        /* a capture changes: the then branch reads another outer value */
        onnxslim_node_set_input(then_add, 0, v);
        break;
      }
      /* lookups between the edits (their answers are checked below) */
      onnxslim_graph_consumer_count(g, w);
      onnxslim_graph_producer(g, v);
    }
    onnxslim_model *r = reload(m);
    if (!r) return;
    onnxslim_graph *rg = onnxslim_model_graph(r);
    if (!same_lookups(g, rg, &pool) ||
        !same_lookups(then_g, onnxslim_node_subgraph(node_named(r, "if"), 0), &pool)) {
      fprintf(stderr, "after round %d\n", round);
      failures++;
    }
    CHECK(failures == 0);
    onnxslim_model_free(r);
  }
  for (size_t i = 0; i < pool.n; i++) free(pool.v[i]);
  onnxslim_model_free(m);
}

int main(void) {
  RUN(node_add);
  RUN(node_remove);
  RUN(node_rename);
  RUN(node_move);
  RUN(node_set_inputs_outputs);
  RUN(node_set_op_type_domain);
  RUN(attr_scalars);
  RUN(attr_lists);
  RUN(attr_tensor);
  RUN(attr_graph_new);
  RUN(attr_graph_copy);
  RUN(attr_remove);
  RUN(initializer_add_copy_and_borrow);
  RUN(initializer_from_constant);
  RUN(initializer_remove_and_replace);
  RUN(value_info_add_remove_and_types);
  RUN(rename_value_everywhere);
  RUN(model_opset_metadata_ir_version);
  RUN(unique_name_is_unique);
  RUN(insert_after_takeover);
  RUN(insert_after_subset);
  RUN(insert_after_input_and_initializer);
  RUN(insert_after_capture_consumer);
  RUN(capture_next_to_shadowing_branch);
  RUN(insert_before);
  RUN(insert_cast);
  RUN(insert_errors);
  RUN(insert_fresh_name_in_use);
  RUN(insert_generated_names_unique);
  RUN(toposort_shuffled);
  RUN(toposort_sorted_is_stable);
  RUN(toposort_cycle);
  RUN(remove_unused);
  RUN(remove_unused_keeps_captures);
  RUN(edits_reencode_only_what_they_touch);
  RUN(indexes_follow_edits);
  return t_done();
}
