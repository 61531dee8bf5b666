/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/* Unit tests of the validation module (onnxslim_check): valid models
 * give an empty report; hand-built broken models, one per problem kind, give
 * the expected code, a location naming the node/initializer/output and a
 * message naming the value. Run from the repository root. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <onnxslim.h>

#include "pbuild.h"
#include "t.h"

/* ---- building models ------------------------------------------------------- */

/* Field numbers from onnx.proto. */
enum {
  M_IR = 1,
  M_GRAPH = 7,
  M_OPSET = 8,
  M_FUNCTIONS = 25,
  G_NODE = 1,
  G_NAME = 2,
  G_INIT = 5,
  G_INPUT = 11,
  G_OUTPUT = 12,
  G_VINFO = 13,
  G_SPARSE = 15,
  N_IN = 1,
  N_OUT = 2,
  N_NAME = 3,
  N_OP = 4,
  N_ATTR = 5,
  N_DOMAIN = 7,
  A_NAME = 1,
  A_I = 3,
  A_T = 5,
  A_G = 6,
  A_TYPE = 20,
  T_DIMS = 1,
  T_DTYPE = 2,
  T_STRING = 6,
  T_NAME = 8,
  T_RAW = 9,
  T_EXT = 13,
  T_LOCATION = 14,
  F_NAME = 1,
  F_INPUT = 4,
  F_OUTPUT = 5,
  F_NODE = 7,
  F_OPSET = 9,
  F_DOMAIN = 10,
};

/* Appends a node. ins/outs are NULL-terminated lists ("" = omitted). */
static void add_node(pbuf *g, uint32_t field, const char *name, const char *op,
                     const char *const *ins, const char *const *outs, const char *domain,
                     pbuf *attrs) {
  pbuf n = {0};
  for (; ins && *ins; ins++) pb_str(&n, N_IN, *ins);
  for (; outs && *outs; outs++) pb_str(&n, N_OUT, *outs);
  if (name) pb_str(&n, N_NAME, name);
  pb_str(&n, N_OP, op);
  if (attrs && attrs->n) {
    pb_put(&n, attrs->p, attrs->n);
    free(attrs->p);
    memset(attrs, 0, sizeof *attrs);
  }
  if (domain) pb_str(&n, N_DOMAIN, domain);
  pb_msg(g, field, &n);
}
#define L(...) ((const char *const[]){__VA_ARGS__, NULL})
#define NONE ((const char *const *)NULL)

/* Appends a ValueInfoProto (field: input/output/value_info) of a tensor of
 * elem type `elem` (0: no type at all). */
static void add_vi(pbuf *g, uint32_t field, const char *name, int elem) {
  pbuf vi = {0}, ty = {0}, tt = {0};
  pb_str(&vi, 1, name);
  if (elem) {
    pb_int(&tt, 1, (uint64_t)elem);
    pb_msg(&ty, 1, &tt);
    pb_msg(&vi, 2, &ty);
  }
  pb_msg(g, field, &vi);
}

/* A TensorProto with dims[ndims], dtype and `nraw` raw bytes (raw NULL: no data). */
static void make_tensor(pbuf *t, const char *name, int dtype, const int64_t *dims, size_t ndims,
                        const void *raw, size_t nraw) {
  for (size_t i = 0; i < ndims; i++) pb_int(t, T_DIMS, (uint64_t)dims[i]);
  pb_int(t, T_DTYPE, (uint64_t)dtype);
  if (name) pb_str(t, T_NAME, name);
  if (raw) pb_bytes(t, T_RAW, raw, nraw);
}

static void add_init(pbuf *g, const char *name, int dtype, int64_t dim, size_t nraw) {
  static const uint8_t zeros[64];
  pbuf t = {0};
  make_tensor(&t, name, dtype, &dim, 1, zeros, nraw);
  pb_msg(g, G_INIT, &t);
}

/* A tensor attribute `name` holding t. */
static void attr_tensor(pbuf *attrs, const char *name, pbuf *t) {
  pbuf a = {0};
  pb_str(&a, A_NAME, name);
  pb_msg(&a, A_T, t);
  pb_int(&a, A_TYPE, ONNXSLIM_ATTR_TENSOR);
  pb_msg(attrs, N_ATTR, &a);
}
static void attr_int(pbuf *attrs, const char *name, int64_t v) {
  pbuf a = {0};
  pb_str(&a, A_NAME, name);
  pb_int(&a, A_I, (uint64_t)v);
  pb_int(&a, A_TYPE, ONNXSLIM_ATTR_INT);
  pb_msg(attrs, N_ATTR, &a);
}
static void attr_graph(pbuf *attrs, const char *name, pbuf *g) {
  pbuf a = {0};
  pb_str(&a, A_NAME, name);
  pb_msg(&a, A_G, g);
  pb_int(&a, A_TYPE, ONNXSLIM_ATTR_GRAPH);
  pb_msg(attrs, N_ATTR, &a);
}

static void add_opset(pbuf *m, uint32_t field, const char *domain, int64_t version) {
  pbuf op = {0};
  if (domain) pb_str(&op, 1, domain);
  pb_int(&op, 2, (uint64_t)version);
  pb_msg(m, field, &op);
}

/* Wraps graph g (named "main" unless it has a name already) into a model
 * with ir_version 8 and opset "" 17, plus `extra` (functions, opsets), and
 * loads it. Frees g and extra. */
static int64_t opset_version = 17; /* of the default domain, for load() */

static onnxslim_model *load(pbuf *g, pbuf *extra) {
  pbuf m = {0};
  pb_int(&m, M_IR, 8);
  pb_msg(&m, M_GRAPH, g);
  add_opset(&m, M_OPSET, "", opset_version);
  if (extra && extra->n) pb_put(&m, extra->p, extra->n);
  if (extra) {
    free(extra->p);
    memset(extra, 0, sizeof *extra);
  }
  onnxslim_model *model = NULL;
  int rc = onnxslim_model_from_buffer(&model, m.p, m.n, ONNXSLIM_COPY, NULL);
  free(m.p);
  if (rc) fprintf(stderr, "load failed: %s\n", onnxslim_error_last());
  return model;
}

/* The kinds run_check() skips: the structural tests (written before the
 * schema checks) build graph outputs without types and a Relu with two
 * outputs on purpose; the schema tests set this to 0 (check everything). */
static const int legacy_skip[] = {ONNXSLIM_CHECK_UNTYPED_IO, ONNXSLIM_CHECK_ARITY};
static size_t n_skip = 2;

/* Checks the model and returns its report (NULL on failure). */
static onnxslim_check_report *run_check(onnxslim_model *m) {
  onnxslim_check_report *r = NULL;
  onnxslim_check_options o = ONNXSLIM_CHECK_OPTIONS_INIT;
  o.skip = legacy_skip;
  o.n_skip = n_skip;
  if (!m || onnxslim_check_with(&r, m, &o) != 0) return NULL;
  for (size_t i = 0; i < onnxslim_check_report_count(r); i++)
    fprintf(stderr, "  problem %d: %s: %s\n", onnxslim_check_report_code(r, i),
            onnxslim_check_report_location(r, i), onnxslim_check_report_message(r, i));
  return r;
}

/* 1 if the report has a problem with this code whose location equals loc
 * and whose message contains msg_part. */
static int has(const onnxslim_check_report *r, int code, const char *loc, const char *msg_part) {
  for (size_t i = 0; i < onnxslim_check_report_count(r); i++) {
    if (onnxslim_check_report_code(r, i) != code) continue;
    if (strcmp(onnxslim_check_report_location(r, i), loc) != 0) continue;
    if (msg_part && !strstr(onnxslim_check_report_message(r, i), msg_part)) continue;
    return 1;
  }
  return 0;
}

/* Runs the check on g (+extra), requires exactly `count` problems and one
 * with (code, loc, msg_part). */
static void expect(pbuf *g, pbuf *extra, size_t count, int code, const char *loc,
                   const char *msg_part) {
  onnxslim_model *m = load(g, extra);
  CHECK(m != NULL);
  onnxslim_check_report *r = run_check(m);
  CHECK(r != NULL);
  CHECK(onnxslim_check_report_count(r) == count);
  if (code) CHECK(has(r, code, loc, msg_part));
  onnxslim_check_report_free(r);
  onnxslim_model_free(m);
}

/* The base graph every test starts from:
 *   inputs x:FLOAT, initializer W:FLOAT[4]
 *   node[0] 'id'  Identity(x) -> a
 *   node[1] 'add' Add(a, W)   -> y
 *   output y:FLOAT */
static void base_graph(pbuf *g) {
  pb_str(g, G_NAME, "main");
  add_node(g, G_NODE, "id", "Identity", L("x"), L("a"), NULL, NULL);
  add_node(g, G_NODE, "add", "Add", L("a", "W"), L("y"), NULL, NULL);
  add_init(g, "W", ONNXSLIM_DTYPE_FLOAT, 4, 16);
  add_vi(g, G_INPUT, "x", ONNXSLIM_DTYPE_FLOAT);
  add_vi(g, G_OUTPUT, "y", ONNXSLIM_DTYPE_FLOAT);
}

/* ---- tests -------------------------------------------------------------------- */

/* The problem kinds are an enum now; their values never change. */
_Static_assert(ONNXSLIM_CHECK_UNDEFINED_INPUT == 1 && ONNXSLIM_CHECK_DUPLICATE_OUTPUT == 2 &&
                   ONNXSLIM_CHECK_ORDER == 3 && ONNXSLIM_CHECK_TENSOR_SIZE == 4 &&
                   ONNXSLIM_CHECK_OPSET == 5 && ONNXSLIM_CHECK_OUTPUT_NOT_PRODUCED == 6 &&
                   ONNXSLIM_CHECK_TYPE == 7 && ONNXSLIM_CHECK_EMPTY_NAME == 8,
               "check code values");

TEST(valid_models) {
  pbuf g = {0};
  base_graph(&g);
  expect(&g, NULL, 0, 0, NULL, NULL);

  /* IR < 4 style: W is both a graph input and an initializer; an omitted
   * optional input; an unnamed node; value_info that agrees */
  g = (pbuf){0};
  base_graph(&g);
  add_vi(&g, G_INPUT, "W", ONNXSLIM_DTYPE_FLOAT);
  add_node(&g, G_NODE, NULL, "Clip", L("y", "", "W"), L("z"), NULL, NULL);
  add_vi(&g, G_VINFO, "a", ONNXSLIM_DTYPE_FLOAT);
  add_vi(&g, G_OUTPUT, "z", 0);
  add_vi(&g, G_OUTPUT, "x", ONNXSLIM_DTYPE_FLOAT); /* an input passed through */
  expect(&g, NULL, 0, 0, NULL, NULL);

  /* a subgraph capturing outer values, one produced after its node (lenient),
   * and a subgraph output naming an outer value directly */
  g = (pbuf){0};
  pbuf then = {0}, els = {0}, attrs = {0};
  pb_str(&then, G_NAME, "then");
  add_node(&then, G_NODE, "t0", "Add", L("a", "late"), L("t"), NULL, NULL);
  add_vi(&then, G_OUTPUT, "t", 0);
  pb_str(&els, G_NAME, "else");
  add_vi(&els, G_OUTPUT, "W", 0);
  attr_graph(&attrs, "then_branch", &then);
  attr_graph(&attrs, "else_branch", &els);
  base_graph(&g);
  add_vi(&g, G_INPUT, "cond", ONNXSLIM_DTYPE_BOOL);
  add_node(&g, G_NODE, "if", "If", L("cond"), L("o"), NULL, &attrs);
  add_node(&g, G_NODE, "late_n", "Identity", L("x"), L("late"), NULL, NULL);
  add_vi(&g, G_OUTPUT, "o", 0);
  expect(&g, NULL, 0, 0, NULL, NULL);

  /* a Cast and a Constant that agree with the recorded types */
  g = (pbuf){0};
  base_graph(&g);
  attr_int(&attrs, "to", ONNXSLIM_DTYPE_FLOAT16);
  add_node(&g, G_NODE, "cast", "Cast", L("y"), L("h"), NULL, &attrs);
  add_vi(&g, G_OUTPUT, "h", ONNXSLIM_DTYPE_FLOAT16);
  pbuf t = {0};
  int64_t two = 2;
  make_tensor(&t, NULL, ONNXSLIM_DTYPE_INT64, &two, 1, "\1\0\0\0\0\0\0\0\2\0\0\0\0\0\0\0", 16);
  attr_tensor(&attrs, "value", &t);
  add_node(&g, G_NODE, "k", "Constant", NONE, L("kk"), NULL, &attrs);
  add_vi(&g, G_VINFO, "kk", ONNXSLIM_DTYPE_INT64);
  expect(&g, NULL, 0, 0, NULL, NULL);
}

TEST(undefined_input) {
  pbuf g = {0};
  base_graph(&g);
  add_node(&g, G_NODE, "Gather_1", "Gather", L("W", "nope"), L("z"), NULL, NULL);
  expect(&g, NULL, 1, ONNXSLIM_CHECK_UNDEFINED_INPUT, "graph 'main' node[2] 'Gather_1'", "'nope'");

  /* an unnamed node is located by its op type */
  g = (pbuf){0};
  base_graph(&g);
  add_node(&g, G_NODE, NULL, "Neg", L("ghost"), L("z"), NULL, NULL);
  expect(&g, NULL, 1, ONNXSLIM_CHECK_UNDEFINED_INPUT, "graph 'main' node[2] (Neg)", "'ghost'");
}

TEST(subgraph_location) {
  /* graph 'main' node[2] 'If_0' attribute 'then_branch' node[0] 'c' uses a
   * value defined nowhere; the else branch uses a value that only exists
   * inside the then branch (not visible there) */
  pbuf g = {0}, then = {0}, els = {0}, attrs = {0};
  pb_str(&then, G_NAME, "then");
  add_node(&then, G_NODE, "c", "Add", L("a", "zz"), L("t"), NULL, NULL);
  add_vi(&then, G_OUTPUT, "t", 0);
  pb_str(&els, G_NAME, "else");
  add_node(&els, G_NODE, "e", "Identity", L("t"), L("u"), NULL, NULL);
  add_vi(&els, G_OUTPUT, "u", 0);
  attr_graph(&attrs, "then_branch", &then);
  attr_graph(&attrs, "else_branch", &els);
  base_graph(&g);
  add_vi(&g, G_INPUT, "cond", ONNXSLIM_DTYPE_BOOL);
  add_node(&g, G_NODE, "If_0", "If", L("cond"), L("o"), NULL, &attrs);
  onnxslim_model *m = load(&g, NULL);
  onnxslim_check_report *r = run_check(m);
  CHECK(r != NULL && onnxslim_check_report_count(r) == 2);
  CHECK(has(r, ONNXSLIM_CHECK_UNDEFINED_INPUT,
            "graph 'main' node[2] 'If_0' attribute 'then_branch' node[0] 'c'", "'zz'"));
  CHECK(has(r, ONNXSLIM_CHECK_UNDEFINED_INPUT,
            "graph 'main' node[2] 'If_0' attribute 'else_branch' node[0] 'e'", "'t'"));
  onnxslim_check_report_free(r);
  onnxslim_model_free(m);
}

TEST(duplicate_output) {
  pbuf g = {0};
  base_graph(&g);
  add_node(&g, G_NODE, "again", "Relu", L("x"), L("a"), NULL, NULL);
  expect(&g, NULL, 1, ONNXSLIM_CHECK_DUPLICATE_OUTPUT, "graph 'main' node[2] 'again'",
         "'a' is already defined as an output of node[0] 'id'");

  /* a node output that is also a graph input / an initializer */
  g = (pbuf){0};
  base_graph(&g);
  add_node(&g, G_NODE, "over", "Relu", L("y"), L("x", "W"), NULL, NULL);
  expect(&g, NULL, 2, ONNXSLIM_CHECK_DUPLICATE_OUTPUT, "graph 'main' node[2] 'over'",
         "'x' is already defined as a graph input");
  g = (pbuf){0};
  base_graph(&g);
  add_node(&g, G_NODE, "over", "Relu", L("y"), L("W"), NULL, NULL);
  expect(&g, NULL, 1, ONNXSLIM_CHECK_DUPLICATE_OUTPUT, "graph 'main' node[2] 'over'",
         "'W' is already defined as an initializer");
  /* an initializer that is also a graph input (a default value) is named as the input */
  g = (pbuf){0};
  base_graph(&g);
  add_vi(&g, G_INPUT, "W", ONNXSLIM_DTYPE_FLOAT);
  add_node(&g, G_NODE, "over", "Relu", L("y"), L("W"), NULL, NULL);
  expect(&g, NULL, 1, ONNXSLIM_CHECK_DUPLICATE_OUTPUT, "graph 'main' node[2] 'over'",
         "'W' is already defined as a graph input");

  /* two initializers of one name */
  g = (pbuf){0};
  base_graph(&g);
  add_init(&g, "W", ONNXSLIM_DTYPE_FLOAT, 4, 16);
  expect(&g, NULL, 1, ONNXSLIM_CHECK_DUPLICATE_OUTPUT, "graph 'main' initializer 'W'", "'W'");

  /* a subgraph node redefining a value of the enclosing graph */
  g = (pbuf){0};
  pbuf body = {0}, attrs = {0};
  pb_str(&body, G_NAME, "then");
  add_node(&body, G_NODE, "s", "Identity", L("x"), L("a"), NULL, NULL);
  add_vi(&body, G_OUTPUT, "a", 0);
  attr_graph(&attrs, "then_branch", &body);
  pb_str(&body, G_NAME, "else");
  add_vi(&body, G_OUTPUT, "x", 0);
  attr_graph(&attrs, "else_branch", &body);
  base_graph(&g);
  add_vi(&g, G_INPUT, "cond", ONNXSLIM_DTYPE_BOOL);
  add_node(&g, G_NODE, "If_0", "If", L("cond"), L("o"), NULL, &attrs);
  expect(&g, NULL, 1, ONNXSLIM_CHECK_DUPLICATE_OUTPUT,
         "graph 'main' node[2] 'If_0' attribute 'then_branch' node[0] 's'",
         "'a' is already defined as a value of an enclosing graph");
}

TEST(order) {
  /* node[0] consumes 'b', produced by node[1] */
  pbuf g = {0};
  pb_str(&g, G_NAME, "main");
  add_node(&g, G_NODE, "first", "Neg", L("b"), L("y"), NULL, NULL);
  add_node(&g, G_NODE, "second", "Relu", L("x"), L("b"), NULL, NULL);
  add_vi(&g, G_INPUT, "x", ONNXSLIM_DTYPE_FLOAT);
  add_vi(&g, G_OUTPUT, "y", ONNXSLIM_DTYPE_FLOAT);
  expect(&g, NULL, 1, ONNXSLIM_CHECK_ORDER, "graph 'main' node[0] 'first'",
         "'b' is produced later, by node[1] 'second'");

  /* a node consuming its own output */
  g = (pbuf){0};
  base_graph(&g);
  add_node(&g, G_NODE, "loop", "Add", L("y", "z"), L("z"), NULL, NULL);
  expect(&g, NULL, 1, ONNXSLIM_CHECK_ORDER, "graph 'main' node[2] 'loop'",
         "is an output of this same node");
}

TEST(tensor_size) {
  /* initializer W: FLOAT[4] with 8 raw bytes */
  pbuf g = {0};
  pb_str(&g, G_NAME, "main");
  add_node(&g, G_NODE, "id", "Identity", L("x"), L("a"), NULL, NULL);
  add_node(&g, G_NODE, "add", "Add", L("a", "W"), L("y"), NULL, NULL);
  add_init(&g, "W", ONNXSLIM_DTYPE_FLOAT, 4, 8);
  add_vi(&g, G_INPUT, "x", ONNXSLIM_DTYPE_FLOAT);
  add_vi(&g, G_OUTPUT, "y", ONNXSLIM_DTYPE_FLOAT);
  expect(&g, NULL, 1, ONNXSLIM_CHECK_TENSOR_SIZE, "graph 'main' initializer 'W'", "'W'");

  /* a Constant whose value has 3 bytes for INT64[2] */
  g = (pbuf){0};
  base_graph(&g);
  pbuf t = {0}, attrs = {0};
  int64_t two = 2;
  make_tensor(&t, NULL, ONNXSLIM_DTYPE_INT64, &two, 1, "abc", 3);
  attr_tensor(&attrs, "value", &t);
  add_node(&g, G_NODE, "c", "Constant", NONE, L("k"), NULL, &attrs);
  expect(&g, NULL, 1, ONNXSLIM_CHECK_TENSOR_SIZE, "graph 'main' node[2] 'c' attribute 'value'",
         "16");

  /* a STRING initializer of 3 elements holding 1 string */
  g = (pbuf){0};
  base_graph(&g);
  int64_t three = 3;
  make_tensor(&t, "S", ONNXSLIM_DTYPE_STRING, &three, 1, NULL, 0);
  pb_str(&t, T_STRING, "only");
  pb_msg(&g, G_INIT, &t);
  expect(&g, NULL, 1, ONNXSLIM_CHECK_TENSOR_SIZE, "graph 'main' initializer 'S'",
         "stores 1 string(s), its dims need 3");

  /* the committed fixture: dims promise 4000000 bytes, raw_data has 16 */
  onnxslim_model *m = NULL;
  CHECK_OK(onnxslim_model_open(&m, "test/data/odd/absurd_dims_raw_mismatch.onnx", NULL));
  onnxslim_check_report *r = run_check(m);
  CHECK(r != NULL);
  CHECK(onnxslim_check_report_count(r) == 1);
  CHECK(has(r, ONNXSLIM_CHECK_TENSOR_SIZE, "graph 'fuzz_base' initializer 'W'",
            "raw_data has 16 bytes"));
  onnxslim_check_report_free(r);
  onnxslim_model_free(m);
}

TEST(opset) {
  pbuf g = {0};
  base_graph(&g);
  add_node(&g, G_NODE, "custom", "MyOp", L("y"), L("z"), "com.example", NULL);
  expect(&g, NULL, 1, ONNXSLIM_CHECK_OPSET, "graph 'main' node[2] 'custom'", "'com.example'");

  /* "ai.onnx" is the default domain */
  g = (pbuf){0};
  base_graph(&g);
  add_node(&g, G_NODE, "n", "Relu", L("y"), L("z"), "ai.onnx", NULL);
  expect(&g, NULL, 0, 0, NULL, NULL);

  /* the same op with an opset import for its domain is fine */
  g = (pbuf){0};
  base_graph(&g);
  add_node(&g, G_NODE, "custom", "MyOp", L("y"), L("z"), "com.example", NULL);
  pbuf extra = {0};
  add_opset(&extra, M_OPSET, "com.example", 1);
  expect(&g, &extra, 0, 0, NULL, NULL);

  /* a function body: its node's domain is missing from the function's own
   * opset_import; the node calling the function is in an imported domain */
  g = (pbuf){0};
  base_graph(&g);
  add_node(&g, G_NODE, "call", "F", L("y"), L("z"), "local", NULL);
  pbuf fn = {0};
  pb_str(&fn, F_NAME, "F");
  pb_str(&fn, F_INPUT, "i");
  pb_str(&fn, F_OUTPUT, "o");
  add_node(&fn, F_NODE, "fn0", "Relu", L("i"), L("r"), NULL, NULL);
  add_node(&fn, F_NODE, "fn1", "Thing", L("r"), L("o"), "com.other", NULL);
  add_opset(&fn, F_OPSET, "", 17);
  pb_str(&fn, F_DOMAIN, "local");
  add_opset(&extra, M_OPSET, "local", 1);
  add_opset(&extra, M_OPSET, "com.other", 1); /* in the model, not the function */
  pb_msg(&extra, M_FUNCTIONS, &fn);
  expect(&g, &extra, 1, ONNXSLIM_CHECK_OPSET, "function 'F' (domain 'local') node[1] 'fn1'",
         "'com.other'");
}

TEST(function_scope) {
  pbuf g = {0}, fn = {0}, extra = {0};
  base_graph(&g);
  add_node(&g, G_NODE, "call", "F", L("y"), L("z"), "local", NULL);
  pb_str(&fn, F_NAME, "F");
  pb_str(&fn, F_INPUT, "i");
  pb_str(&fn, F_OUTPUT, "o");
  pb_str(&fn, F_OUTPUT, "never");
  /* 'x' is a graph input of the model, not visible inside the function */
  add_node(&fn, F_NODE, "fn0", "Add", L("i", "x"), L("o"), NULL, NULL);
  pb_str(&fn, F_DOMAIN, "local");
  add_opset(&extra, M_OPSET, "local", 1);
  pb_msg(&extra, M_FUNCTIONS, &fn);
  onnxslim_model *m = load(&g, &extra);
  onnxslim_check_report *r = run_check(m);
  CHECK(r != NULL);
  CHECK(onnxslim_check_report_count(r) == 2);
  CHECK(
      has(r, ONNXSLIM_CHECK_UNDEFINED_INPUT, "function 'F' (domain 'local') node[0] 'fn0'", "'x'"));
  CHECK(has(r, ONNXSLIM_CHECK_OUTPUT_NOT_PRODUCED, "function 'F' (domain 'local') output 'never'",
            "'never'"));
  onnxslim_check_report_free(r);
  onnxslim_model_free(m);
}

/* A model-local function F_<name> in domain "local": input i, output o,
 * body nodes calling `calls` (NULL-terminated, each an op of domain
 * "local"; none: a Relu), overload `ov` (NULL: none; FunctionProto field
 * 13, IR 10). Appended to extra. */
static void add_function(pbuf *extra, const char *name, const char *ov, const char *const *calls,
                         const char *call_ov) {
  pbuf fn = {0};
  pb_str(&fn, F_NAME, name);
  pb_str(&fn, F_INPUT, "i");
  pb_str(&fn, F_OUTPUT, "o");
  if (!calls || !*calls) {
    add_node(&fn, F_NODE, "r", "Relu", L("i"), L("o"), NULL, NULL);
  } else {
    const char *prev = "i";
    char outs[8][8];
    int k = 0;
    for (; *calls; calls++, k++) {
      snprintf(outs[k], sizeof outs[k], calls[1] ? "t%d" : "o", k);
      pbuf n = {0};
      pb_str(&n, N_IN, prev);
      pb_str(&n, N_OUT, outs[k]);
      pb_str(&n, N_OP, *calls);
      pb_str(&n, N_DOMAIN, "local");
      if (call_ov) pb_str(&n, 8, call_ov); /* NodeProto.overload */
      pb_msg(&fn, F_NODE, &n);
      prev = outs[k];
    }
  }
  add_opset(&fn, F_OPSET, "", 17);
  add_opset(&fn, F_OPSET, "local", 1);
  pb_str(&fn, F_DOMAIN, "local");
  if (ov) pb_str(&fn, 13, ov);
  pb_msg(extra, M_FUNCTIONS, &fn);
}

/* ONNXSLIM_CHECK_FUNCTION (issue [attack] 2, point 7): a function defined
 * twice (same domain, name and overload), one calling itself directly, or
 * through others (a call inside a subgraph of the body included). */
TEST(function_definitions) {
  CHECK_STR(onnxslim_check_code_name(ONNXSLIM_CHECK_FUNCTION), "function");
  CHECK(onnxslim_check_code_from_name("function") == ONNXSLIM_CHECK_FUNCTION);
  /* valid: F calls G, G is a leaf */
  pbuf g = {0}, extra = {0};
  base_graph(&g);
  add_node(&g, G_NODE, "call", "F", L("y"), L("z"), "local", NULL);
  add_opset(&extra, M_OPSET, "local", 1);
  add_function(&extra, "F", NULL, L("G"), NULL);
  add_function(&extra, "G", NULL, NULL, NULL);
  expect(&g, &extra, 0, 0, NULL, NULL);

  /* defined twice */
  g = (pbuf){0};
  base_graph(&g);
  add_node(&g, G_NODE, "call", "F", L("y"), L("z"), "local", NULL);
  add_opset(&extra, M_OPSET, "local", 1);
  add_function(&extra, "F", NULL, NULL, NULL);
  add_function(&extra, "F", NULL, NULL, NULL);
  expect(&g, &extra, 1, ONNXSLIM_CHECK_FUNCTION, "function 'F' (domain 'local')",
         "is defined twice (also function[0])");

  /* two overloads of one name are two functions */
  g = (pbuf){0};
  base_graph(&g);
  add_node(&g, G_NODE, "call", "F", L("y"), L("z"), "local", NULL);
  add_opset(&extra, M_OPSET, "local", 1);
  add_function(&extra, "F", "a", NULL, NULL);
  add_function(&extra, "F", "b", NULL, NULL);
  expect(&g, &extra, 0, 0, NULL, NULL);
  g = (pbuf){0};
  base_graph(&g);
  add_opset(&extra, M_OPSET, "local", 1);
  add_function(&extra, "F", "a", NULL, NULL);
  add_function(&extra, "F", "a", NULL, NULL);
  expect(&g, &extra, 1, ONNXSLIM_CHECK_FUNCTION, "function 'F' (domain 'local')",
         "'F' (overload 'a') is defined twice");

  /* F calls itself */
  g = (pbuf){0};
  base_graph(&g);
  add_opset(&extra, M_OPSET, "local", 1);
  add_function(&extra, "F", NULL, L("F"), NULL);
  expect(&g, &extra, 1, ONNXSLIM_CHECK_FUNCTION, "function 'F' (domain 'local')",
         "function 'F' calls itself");

  /* F -> G -> H -> F: each of the three is reported */
  g = (pbuf){0};
  base_graph(&g);
  add_opset(&extra, M_OPSET, "local", 1);
  add_function(&extra, "F", NULL, L("G"), NULL);
  add_function(&extra, "G", NULL, L("H"), NULL);
  add_function(&extra, "H", NULL, L("Relu2", "F"), NULL);
  add_function(&extra, "Relu2", NULL, NULL, NULL);
  onnxslim_model *m = load(&g, &extra);
  onnxslim_check_report *r = run_check(m);
  CHECK(r && onnxslim_check_report_count(r) == 3);
  CHECK(has(r, ONNXSLIM_CHECK_FUNCTION, "function 'F' (domain 'local')",
            "calls itself through function 'G'"));
  CHECK(has(r, ONNXSLIM_CHECK_FUNCTION, "function 'H' (domain 'local')",
            "calls itself through function 'F'"));
  onnxslim_check_report_free(r);
  /* skipped on request */
  const int skip[] = {ONNXSLIM_CHECK_FUNCTION};
  onnxslim_check_options o = ONNXSLIM_CHECK_OPTIONS_INIT;
  o.skip = skip;
  o.n_skip = 1;
  r = NULL;
  CHECK_OK(onnxslim_check_with(&r, m, &o));
  CHECK(r && onnxslim_check_report_count(r) == 0);
  onnxslim_check_report_free(r);
  onnxslim_model_free(m);

  /* a call inside an If of the body: F -> (If then: F) */
  g = (pbuf){0};
  base_graph(&g);
  add_opset(&extra, M_OPSET, "local", 1);
  {
    pbuf fn = {0}, then = {0}, els = {0}, attrs = {0};
    pb_str(&then, G_NAME, "then");
    add_node(&then, G_NODE, "rec", "F", L("i"), L("t"), "local", NULL);
    add_vi(&then, G_OUTPUT, "t", 0);
    pb_str(&els, G_NAME, "else");
    add_node(&els, G_NODE, "id", "Identity", L("i"), L("e"), NULL, NULL);
    add_vi(&els, G_OUTPUT, "e", 0);
    attr_graph(&attrs, "then_branch", &then);
    attr_graph(&attrs, "else_branch", &els);
    pb_str(&fn, F_NAME, "F");
    pb_str(&fn, F_INPUT, "i");
    pb_str(&fn, F_INPUT, "c");
    pb_str(&fn, F_OUTPUT, "o");
    add_node(&fn, F_NODE, "if", "If", L("c"), L("o"), NULL, &attrs);
    add_opset(&fn, F_OPSET, "", 17);
    add_opset(&fn, F_OPSET, "local", 1);
    pb_str(&fn, F_DOMAIN, "local");
    pb_msg(&extra, M_FUNCTIONS, &fn);
  }
  m = load(&g, &extra);
  r = run_check(m);
  CHECK(r && has(r, ONNXSLIM_CHECK_FUNCTION, "function 'F' (domain 'local')",
                 "function 'F' calls itself"));
  onnxslim_check_report_free(r);
  onnxslim_model_free(m);
}

TEST(output_not_produced) {
  pbuf g = {0};
  base_graph(&g);
  add_vi(&g, G_OUTPUT, "ghost", ONNXSLIM_DTYPE_FLOAT);
  expect(&g, NULL, 1, ONNXSLIM_CHECK_OUTPUT_NOT_PRODUCED, "graph 'main' output 'ghost'", "'ghost'");

  /* in a subgraph: neither produced there nor visible from outside */
  g = (pbuf){0};
  pbuf body = {0}, attrs = {0};
  pb_str(&body, G_NAME, "then");
  add_vi(&body, G_OUTPUT, "nowhere", 0);
  attr_graph(&attrs, "then_branch", &body);
  pb_str(&body, G_NAME, "else");
  add_vi(&body, G_OUTPUT, "a", 0);
  attr_graph(&attrs, "else_branch", &body);
  base_graph(&g);
  add_vi(&g, G_INPUT, "cond", ONNXSLIM_DTYPE_BOOL);
  add_node(&g, G_NODE, "If_0", "If", L("cond"), L("o"), NULL, &attrs);
  expect(&g, NULL, 1, ONNXSLIM_CHECK_OUTPUT_NOT_PRODUCED,
         "graph 'main' node[2] 'If_0' attribute 'then_branch' output 'nowhere'", "'nowhere'");
}

TEST(type_conflicts) {
  /* graph input W:FLOAT16 with initializer W:FLOAT */
  pbuf g = {0};
  base_graph(&g);
  add_vi(&g, G_INPUT, "W", ONNXSLIM_DTYPE_FLOAT16);
  expect(&g, NULL, 1, ONNXSLIM_CHECK_TYPE, "graph 'main' input 'W'",
         "'W' has element type FLOAT16 here but initializer 'W' has data type FLOAT");

  /* two initializers W (FLOAT, then INT64): the first one is W's */
  g = (pbuf){0};
  base_graph(&g);
  add_init(&g, "W", ONNXSLIM_DTYPE_INT64, 2, 16);
  add_vi(&g, G_VINFO, "W", ONNXSLIM_DTYPE_INT64);
  expect(&g, NULL, 2, ONNXSLIM_CHECK_TYPE, "graph 'main' value_info 'W'",
         "'W' has element type INT64 here but initializer 'W' has data type FLOAT");

  /* a value_info disagreeing with the graph output of the same value */
  g = (pbuf){0};
  base_graph(&g);
  add_vi(&g, G_VINFO, "y", ONNXSLIM_DTYPE_INT64);
  expect(&g, NULL, 1, ONNXSLIM_CHECK_TYPE, "graph 'main' value_info 'y'",
         "'y' has element type INT64 here but FLOAT");

  /* Cast to FLOAT16 whose output is recorded as FLOAT */
  g = (pbuf){0};
  base_graph(&g);
  pbuf attrs = {0};
  attr_int(&attrs, "to", ONNXSLIM_DTYPE_FLOAT16);
  add_node(&g, G_NODE, "cast", "Cast", L("y"), L("h"), NULL, &attrs);
  add_vi(&g, G_OUTPUT, "h", ONNXSLIM_DTYPE_FLOAT);
  expect(&g, NULL, 1, ONNXSLIM_CHECK_TYPE, "graph 'main' node[2] 'cast'",
         "Cast to FLOAT16, but its output 'h' is recorded as FLOAT");

  /* Constant INT64 whose output value_info says FLOAT */
  g = (pbuf){0};
  base_graph(&g);
  pbuf t = {0};
  make_tensor(&t, NULL, ONNXSLIM_DTYPE_INT64, NULL, 0, "\7\0\0\0\0\0\0\0", 8);
  attr_tensor(&attrs, "value", &t);
  add_node(&g, G_NODE, "k", "Constant", NONE, L("kk"), NULL, &attrs);
  add_vi(&g, G_VINFO, "kk", ONNXSLIM_DTYPE_FLOAT);
  expect(&g, NULL, 1, ONNXSLIM_CHECK_TYPE, "graph 'main' node[2] 'k'", "'kk'");
}

TEST(empty_names) {
  pbuf g = {0};
  base_graph(&g);
  add_vi(&g, G_OUTPUT, "", ONNXSLIM_DTYPE_FLOAT);
  expect(&g, NULL, 1, ONNXSLIM_CHECK_EMPTY_NAME, "graph 'main' output[1]", "without a name");
  g = (pbuf){0};
  base_graph(&g);
  add_init(&g, "", ONNXSLIM_DTYPE_FLOAT, 1, 4);
  expect(&g, NULL, 1, ONNXSLIM_CHECK_EMPTY_NAME, "graph 'main' initializer[1]", "without a name");
}

TEST(several_problems_in_walk_order) {
  pbuf g = {0};
  base_graph(&g);
  add_node(&g, G_NODE, "u", "Neg", L("undef1"), L("p"), NULL, NULL);
  add_node(&g, G_NODE, "v", "Neg", L("undef2"), L("p"), NULL, NULL);
  add_vi(&g, G_OUTPUT, "ghost", 0);
  onnxslim_model *m = load(&g, NULL);
  onnxslim_check_report *r = run_check(m);
  CHECK(r != NULL && onnxslim_check_report_count(r) == 4);
  if (r && onnxslim_check_report_count(r) == 4) {
    CHECK(onnxslim_check_report_code(r, 0) == ONNXSLIM_CHECK_DUPLICATE_OUTPUT);
    CHECK(onnxslim_check_report_code(r, 1) == ONNXSLIM_CHECK_UNDEFINED_INPUT);
    CHECK(onnxslim_check_report_code(r, 2) == ONNXSLIM_CHECK_UNDEFINED_INPUT);
    CHECK(onnxslim_check_report_code(r, 3) == ONNXSLIM_CHECK_OUTPUT_NOT_PRODUCED);
  }
  /* the report outlives the model */
  onnxslim_model_free(m);
  CHECK_STR(onnxslim_check_report_location(r, 1), "graph 'main' node[2] 'u'");
  onnxslim_check_report_free(r);
}

/* ---- schema checks (0.2.0) ------------------------------------------------------- */

_Static_assert(ONNXSLIM_CHECK_UNKNOWN_OP == 9 && ONNXSLIM_CHECK_ARITY == 10 &&
                   ONNXSLIM_CHECK_ATTR_MISSING == 11 && ONNXSLIM_CHECK_ATTR_UNKNOWN == 12 &&
                   ONNXSLIM_CHECK_ATTR_TYPE == 13 && ONNXSLIM_CHECK_TYPE_CONSTRAINT == 14 &&
                   ONNXSLIM_CHECK_UNTYPED_IO == 15 && ONNXSLIM_CHECK_CHECKSUM == 16 &&
                   ONNXSLIM_CHECK_FUNCTION == 17 && ONNXSLIM_CHECK_EXTERNAL_LOAD_INPUT == 18 &&
                   ONNXSLIM_CHECK_CODE_MAX == 18,
               "schema check code values");

static void attr_float(pbuf *attrs, const char *name, float v) {
  pbuf a = {0};
  pb_str(&a, A_NAME, name);
  pb_tag(&a, 2, 5);
  pb_put(&a, &v, 4);
  pb_int(&a, A_TYPE, ONNXSLIM_ATTR_FLOAT);
  pb_msg(attrs, N_ATTR, &a);
}

TEST(schema_unknown_op) {
  n_skip = 0;
  pbuf g = {0};
  base_graph(&g);
  add_node(&g, G_NODE, "f", "Frobnicate", L("y"), L("z"), NULL, NULL);
  add_vi(&g, G_OUTPUT, "z", ONNXSLIM_DTYPE_FLOAT);
  expect(&g, NULL, 1, ONNXSLIM_CHECK_UNKNOWN_OP, "graph 'main' node[2] 'f'",
         "domain 'ai.onnx' has no op 'Frobnicate'");
  /* GELU-like op from a later opset: Gelu does not exist in 1.12 at all, but
   * LayerNormalization exists from opset 17 */
  opset_version = 13;
  g = (pbuf){0};
  base_graph(&g);
  add_node(&g, G_NODE, "ln", "LayerNormalization", L("y", "W"), L("z"), NULL, NULL);
  add_vi(&g, G_OUTPUT, "z", ONNXSLIM_DTYPE_FLOAT);
  expect(&g, NULL, 1, ONNXSLIM_CHECK_UNKNOWN_OP, "graph 'main' node[2] 'ln'",
         "op 'LayerNormalization' exists from opset 17 of domain 'ai.onnx'; the model imports "
         "opset 13");
  opset_version = 17;
  /* a custom domain is not checked */
  g = (pbuf){0};
  pbuf extra = {0};
  base_graph(&g);
  add_node(&g, G_NODE, "c", "Whatever", L("y"), L("z"), "com.example", NULL);
  add_vi(&g, G_OUTPUT, "z", ONNXSLIM_DTYPE_FLOAT);
  add_opset(&extra, M_OPSET, "com.example", 1);
  expect(&g, &extra, 0, 0, NULL, NULL);
  /* ops of the default domain that model-local functions define (domain
   * "" or "ai.onnx": the same) are not unknown; others still are */
  g = (pbuf){0};
  base_graph(&g);
  add_node(&g, G_NODE, "m1", "MyFn", L("y"), L("z1"), NULL, NULL);
  add_node(&g, G_NODE, "m2", "MyFn", L("y"), L("z2"), "ai.onnx", NULL);
  add_node(&g, G_NODE, "m3", "OtherFn", L("y"), L("z3"), "ai.onnx", NULL);
  add_node(&g, G_NODE, "m4", "LocalFn", L("y"), L("z4"), NULL, NULL);
  static const char *const outs[] = {"z1", "z2", "z3", "z4"};
  for (int i = 0; i < 4; i++) add_vi(&g, G_OUTPUT, outs[i], ONNXSLIM_DTYPE_FLOAT);
  static const char *const fns[][2] = {{"MyFn", "ai.onnx"}, {"OtherFn", "local"}, {"LocalFn", ""}};
  for (int i = 0; i < 3; i++) {
    pbuf fn = {0};
    pb_str(&fn, F_NAME, fns[i][0]);
    pb_str(&fn, F_INPUT, "a");
    pb_str(&fn, F_OUTPUT, "b");
    add_node(&fn, F_NODE, "id", "Identity", L("a"), L("b"), NULL, NULL);
    add_opset(&fn, F_OPSET, "", 17);
    if (fns[i][1][0]) pb_str(&fn, F_DOMAIN, fns[i][1]);
    pb_msg(&extra, M_FUNCTIONS, &fn);
  }
  expect(&g, &extra, 1, ONNXSLIM_CHECK_UNKNOWN_OP, "graph 'main' node[4] 'm3'",
         "domain 'ai.onnx' has no op 'OtherFn'");
}

TEST(schema_arity_and_attributes) {
  n_skip = 0;
  pbuf g = {0};
  base_graph(&g);
  add_node(&g, G_NODE, "add3", "Add", L("y", "W", "W"), L("z"), NULL, NULL);
  add_vi(&g, G_OUTPUT, "z", ONNXSLIM_DTYPE_FLOAT);
  expect(&g, NULL, 1, ONNXSLIM_CHECK_ARITY, "graph 'main' node[2] 'add3'",
         "Add-14 takes 2 to 2 inputs, the node has 3");
  /* a required input left empty */
  g = (pbuf){0};
  base_graph(&g);
  add_init(&g, "I", ONNXSLIM_DTYPE_INT64, 1, 8);
  add_node(&g, G_NODE, "ga", "Gather", L("", "I"), L("z"), NULL, NULL);
  add_vi(&g, G_OUTPUT, "z", ONNXSLIM_DTYPE_FLOAT);
  expect(&g, NULL, 1, ONNXSLIM_CHECK_ARITY, "graph 'main' node[2] 'ga' input[0]",
         "input 0 ('data' of Gather) is required but empty");

  pbuf attrs = {0};
  g = (pbuf){0};
  base_graph(&g);
  add_node(&g, G_NODE, "cast", "Cast", L("y"), L("z"), NULL, NULL);
  add_vi(&g, G_OUTPUT, "z", ONNXSLIM_DTYPE_FLOAT);
  expect(&g, NULL, 1, ONNXSLIM_CHECK_ATTR_MISSING, "graph 'main' node[2] 'cast'",
         "Cast-13 requires attribute 'to' (INT)");

  g = (pbuf){0};
  base_graph(&g);
  attr_float(&attrs, "alpha", 0.5f);
  add_node(&g, G_NODE, "r", "Relu", L("y"), L("z"), NULL, &attrs);
  add_vi(&g, G_OUTPUT, "z", ONNXSLIM_DTYPE_FLOAT);
  expect(&g, NULL, 1, ONNXSLIM_CHECK_ATTR_UNKNOWN, "graph 'main' node[2] 'r' attribute 'alpha'",
         "Relu-14 has no attribute 'alpha'");

  g = (pbuf){0};
  base_graph(&g);
  attr_float(&attrs, "axis", 1.0f);
  add_node(&g, G_NODE, "cc", "Concat", L("y", "W"), L("z"), NULL, &attrs);
  add_vi(&g, G_OUTPUT, "z", ONNXSLIM_DTYPE_FLOAT);
  expect(&g, NULL, 1, ONNXSLIM_CHECK_ATTR_TYPE, "graph 'main' node[2] 'cc' attribute 'axis'",
         "attribute 'axis' of Concat is FLOAT, the schema says INT");
}

TEST(schema_type_constraints) {
  n_skip = 0;
  /* BFLOAT16 into Cast at opset 11 (BF16 is allowed from Cast-13) */
  opset_version = 11;
  pbuf g = {0}, attrs = {0};
  pb_str(&g, G_NAME, "main");
  add_vi(&g, G_INPUT, "x", ONNXSLIM_DTYPE_BFLOAT16);
  attr_int(&attrs, "to", ONNXSLIM_DTYPE_FLOAT);
  add_node(&g, G_NODE, "c", "Cast", L("x"), L("y"), NULL, &attrs);
  add_vi(&g, G_OUTPUT, "y", ONNXSLIM_DTYPE_FLOAT);
  expect(&g, NULL, 1, ONNXSLIM_CHECK_TYPE_CONSTRAINT, "graph 'main' node[0] 'c' input[0] 'x'",
         "'input' of Cast is BFLOAT16, which T1 does not allow at opset 11");
  /* the same at opset 13 is fine */
  opset_version = 13;
  g = (pbuf){0};
  pb_str(&g, G_NAME, "main");
  add_vi(&g, G_INPUT, "x", ONNXSLIM_DTYPE_BFLOAT16);
  attr_int(&attrs, "to", ONNXSLIM_DTYPE_FLOAT);
  add_node(&g, G_NODE, "c", "Cast", L("x"), L("y"), NULL, &attrs);
  add_vi(&g, G_OUTPUT, "y", ONNXSLIM_DTYPE_FLOAT);
  expect(&g, NULL, 0, 0, NULL, NULL);
  opset_version = 17;

  /* MatMul of FLOAT16 and FLOAT: the FLOAT16 comes through a Cast and a
   * Relu (types followed through the nodes) */
  g = (pbuf){0};
  pb_str(&g, G_NAME, "main");
  add_vi(&g, G_INPUT, "x", ONNXSLIM_DTYPE_FLOAT);
  add_init(&g, "W", ONNXSLIM_DTYPE_FLOAT, 4, 16);
  attr_int(&attrs, "to", ONNXSLIM_DTYPE_FLOAT16);
  add_node(&g, G_NODE, "c", "Cast", L("x"), L("h"), NULL, &attrs);
  add_node(&g, G_NODE, "r", "Relu", L("h"), L("h2"), NULL, NULL);
  add_node(&g, G_NODE, "mm", "MatMul", L("h2", "W"), L("y"), NULL, NULL);
  add_vi(&g, G_OUTPUT, "y", ONNXSLIM_DTYPE_FLOAT);
  /* (and the recorded FLOAT output contradicts T too) */
  expect(&g, NULL, 2, ONNXSLIM_CHECK_TYPE_CONSTRAINT, "graph 'main' node[2] 'mm' input[1] 'W'",
         "'B' of MatMul is FLOAT, but T is FLOAT16 (from input 0 'h2')");

  /* a recorded output type the constraint contradicts */
  g = (pbuf){0};
  base_graph(&g);
  add_node(&g, G_NODE, "n", "Neg", L("y"), L("z"), NULL, NULL);
  add_vi(&g, G_OUTPUT, "z", ONNXSLIM_DTYPE_DOUBLE);
  expect(&g, NULL, 1, ONNXSLIM_CHECK_TYPE_CONSTRAINT, "graph 'main' node[2] 'n' output[0] 'z'",
         "'Y' of Neg is DOUBLE, but T is FLOAT (from input 0 'y')");

  /* a Constant of INT64 at opset 6 (Constant-1 allows float types only) */
  opset_version = 6;
  g = (pbuf){0};
  base_graph(&g);
  pbuf t = {0};
  make_tensor(&t, NULL, ONNXSLIM_DTYPE_INT64, NULL, 0, "\7\0\0\0\0\0\0\0", 8);
  attr_tensor(&attrs, "value", &t);
  add_node(&g, G_NODE, "k", "Constant", NONE, L("kk"), NULL, &attrs);
  expect(&g, NULL, 1, ONNXSLIM_CHECK_TYPE_CONSTRAINT, "graph 'main' node[2] 'k' attribute 'value'",
         "'output' of Constant is INT64, which T does not allow at opset 6");
  opset_version = 17;
}

TEST(schema_untyped_io_and_skip) {
  n_skip = 0;
  pbuf g = {0};
  base_graph(&g);
  add_node(&g, G_NODE, "n", "Neg", L("y"), L("z"), NULL, NULL);
  add_vi(&g, G_OUTPUT, "z", 0);
  expect(&g, NULL, 1, ONNXSLIM_CHECK_UNTYPED_IO, "graph 'main' output 'z'",
         "graph output 'z' has no type");

  /* skipped by code: nothing reported */
  g = (pbuf){0};
  base_graph(&g);
  add_node(&g, G_NODE, "n", "Neg", L("y"), L("z"), NULL, NULL);
  add_node(&g, G_NODE, "f", "Frobnicate", L("y"), L("q"), NULL, NULL);
  add_vi(&g, G_OUTPUT, "z", 0);
  onnxslim_model *m = load(&g, NULL);
  onnxslim_check_report *r = NULL;
  CHECK_OK(onnxslim_check(&r, m, 0));
  CHECK(onnxslim_check_report_count(r) == 2);
  onnxslim_check_report_free(r);
  const int skip[] = {ONNXSLIM_CHECK_UNTYPED_IO};
  onnxslim_check_options o;
  CHECK_OK(onnxslim_check_options_init(&o, ONNXSLIM_CHECK_OPTIONS_VERSION));
  CHECK(o.skip == NULL && o.n_skip == 0 && o.flags == 0);
  o.skip = skip;
  o.n_skip = 1;
  CHECK_OK(onnxslim_check_with(&r, m, &o));
  CHECK(onnxslim_check_report_count(r) == 1);
  CHECK(onnxslim_check_report_code(r, 0) == ONNXSLIM_CHECK_UNKNOWN_OP);
  CHECK_STR(onnxslim_check_report_note(r), "");
  onnxslim_check_report_free(r);
  /* NULL options: everything */
  CHECK_OK(onnxslim_check_with(&r, m, NULL));
  CHECK(onnxslim_check_report_count(r) == 2);
  onnxslim_check_report_free(r);
  /* bad options */
  const int bad[] = {99};
  o.skip = bad;
  CHECK(onnxslim_check_with(&r, m, &o) == ONNXSLIM_EINVAL && r == NULL);
  o.skip = skip;
  o.version = 7;
  CHECK(onnxslim_check_with(&r, m, &o) == ONNXSLIM_EINVAL);
  o.version = 1;
  o.flags = 4;
  CHECK(onnxslim_check_with(&r, m, &o) == ONNXSLIM_EINVAL);
  CHECK(onnxslim_check_options_init(NULL, 1) == ONNXSLIM_EINVAL);
  CHECK(onnxslim_check_options_init(&o, ONNXSLIM_CHECK_OPTIONS_VERSION + 1) == ONNXSLIM_EINVAL);
  CHECK(onnxslim_check_report_note(NULL) == NULL);
  onnxslim_model_free(m);

  /* names */
  CHECK_STR(onnxslim_check_code_name(ONNXSLIM_CHECK_TYPE_CONSTRAINT), "type_constraint");
  CHECK_STR(onnxslim_check_code_name(ONNXSLIM_CHECK_UNDEFINED_INPUT), "undefined_input");
  CHECK(onnxslim_check_code_name(0) == NULL && onnxslim_error_last_code() == ONNXSLIM_EINVAL);
  CHECK(onnxslim_check_code_name(ONNXSLIM_CHECK_CODE_MAX + 1) == NULL);
  CHECK(onnxslim_check_code_description(ONNXSLIM_CHECK_ARITY) != NULL);
  CHECK(onnxslim_check_code_description(-1) == NULL);
  for (int c = 1; c <= ONNXSLIM_CHECK_CODE_MAX; c++)
    CHECK(onnxslim_check_code_from_name(onnxslim_check_code_name(c)) == c);
  CHECK(onnxslim_check_code_from_name("nope") == ONNXSLIM_ENOTFOUND);
  CHECK(strstr(onnxslim_error_last(), "'nope'") != NULL);
  CHECK(onnxslim_check_code_from_name(NULL) == ONNXSLIM_EINVAL);
}

/* The order problems of g: node[0] 'first' reads 'b' of node[1]
 * 'second', node[2] (unnamed Neg) reads 'c' of node[3] 'third'. */
static void unsorted_graph(pbuf *g) {
  pb_str(g, G_NAME, "main");
  add_node(g, G_NODE, "first", "Neg", L("b"), L("y"), NULL, NULL);
  add_node(g, G_NODE, "second", "Relu", L("x"), L("b"), NULL, NULL);
  add_node(g, G_NODE, NULL, "Neg", L("c"), L("z"), NULL, NULL);
  add_node(g, G_NODE, "third", "Relu", L("x"), L("c"), NULL, NULL);
  add_vi(g, G_INPUT, "x", ONNXSLIM_DTYPE_FLOAT);
  add_vi(g, G_OUTPUT, "y", ONNXSLIM_DTYPE_FLOAT);
  add_vi(g, G_OUTPUT, "z", ONNXSLIM_DTYPE_FLOAT);
}

/* A report of m against baseline (NULL: none), every kind checked. */
static onnxslim_check_report *check_against(const onnxslim_model *m,
                                            const onnxslim_check_report *baseline) {
  onnxslim_check_options o;
  onnxslim_check_report *r = NULL;
  if (onnxslim_check_options_init(&o, 2) != 0) return NULL;
  o.baseline = baseline;
  if (onnxslim_check_with(&r, m, &o) != 0) return NULL;
  return r;
}

TEST(baseline) {
  n_skip = 0;
  pbuf g = {0};
  unsorted_graph(&g);
  onnxslim_model *m = load(&g, NULL);
  CHECK(m != NULL);
  onnxslim_check_report *before = check_against(m, NULL), *r = NULL;
  CHECK(before != NULL && onnxslim_check_report_count(before) == 2);
  CHECK(has(before, ONNXSLIM_CHECK_ORDER, "graph 'main' node[0] 'first'", "by node[1] 'second'"));
  CHECK(has(before, ONNXSLIM_CHECK_ORDER, "graph 'main' node[2] (Neg)", "by node[3] 'third'"));
  /* the same model against its own report: nothing new */
  r = check_against(m, before);
  CHECK(r != NULL && onnxslim_check_report_count(r) == 0);
  onnxslim_check_report_free(r);

  /* a valid node inserted first shifts every index: the same problems,
   * other locations and messages, none new */
  onnxslim_graph *gr = onnxslim_model_graph(m);
  const char *ins[1] = {"x"}, *outs[1] = {"x2"};
  CHECK_OK(onnxslim_graph_add_node(gr, 0, "Relu", NULL, "front", ins, 1, outs, 1, NULL));
  r = check_against(m, NULL);
  CHECK(r != NULL && onnxslim_check_report_count(r) == 2);
  CHECK(has(r, ONNXSLIM_CHECK_ORDER, "graph 'main' node[1] 'first'", "by node[2] 'second'"));
  CHECK(has(r, ONNXSLIM_CHECK_ORDER, "graph 'main' node[3] (Neg)", "by node[4] 'third'"));
  onnxslim_check_report_free(r);
  r = check_against(m, before);
  CHECK(r != NULL && onnxslim_check_report_count(r) == 0);
  onnxslim_check_report_free(r);

  /* a Cast inserted between 'second' and its reader: 'first' now reads a
   * value the Cast produces later; still the same problem (its input) */
  onnxslim_node *cast = NULL;
  CHECK_OK(onnxslim_insert_cast_after(gr, "b", ONNXSLIM_DTYPE_FLOAT, NULL, 0, NULL, &cast));
  r = check_against(m, NULL);
  CHECK(r != NULL && onnxslim_check_report_count(r) == 2);
  onnxslim_check_report_free(r);
  r = check_against(m, before);
  CHECK(r != NULL && onnxslim_check_report_count(r) == 0);
  onnxslim_check_report_free(r);

  /* problems the baseline does not have are reported: an undefined input,
   * and a second node named 'first' reading 'b' early (the baseline's one
   * 'first'/'b' problem cancels one of the two) */
  const char *ins2[1] = {"nope"}, *outs2[1] = {"q"};
  CHECK_OK(onnxslim_graph_add_node(gr, 0, "Relu", NULL, "stray", ins2, 1, outs2, 1, NULL));
  const char *ins3[1] = {"b"}, *outs3[1] = {"q2"};
  CHECK_OK(onnxslim_graph_add_node(gr, 0, "Neg", NULL, "first", ins3, 1, outs3, 1, NULL));
  r = check_against(m, before);
  CHECK(r != NULL && onnxslim_check_report_count(r) == 2);
  CHECK(has(r, ONNXSLIM_CHECK_UNDEFINED_INPUT, "graph 'main' node[1] 'stray'", "'nope'"));
  CHECK(onnxslim_check_report_code(r, 0) == ONNXSLIM_CHECK_ORDER ||
        onnxslim_check_report_code(r, 1) == ONNXSLIM_CHECK_ORDER);
  onnxslim_check_report_free(r);
  /* a skipped kind is neither looked for nor matched */
  onnxslim_check_options o;
  const int skip[] = {ONNXSLIM_CHECK_UNDEFINED_INPUT};
  CHECK_OK(onnxslim_check_options_init(&o, ONNXSLIM_CHECK_OPTIONS_VERSION));
  CHECK(o.version == 2 && o.baseline == NULL);
  o.baseline = before;
  o.skip = skip;
  o.n_skip = 1;
  CHECK_OK(onnxslim_check_with(&r, m, &o));
  CHECK(onnxslim_check_report_count(r) == 1 &&
        onnxslim_check_report_code(r, 0) == ONNXSLIM_CHECK_ORDER);
  onnxslim_check_report_free(r);
  /* version 1 has no baseline: init writes only its fields, check_with
   * reads only them */
  o.baseline = before;
  CHECK_OK(onnxslim_check_options_init(&o, 1));
  CHECK(o.version == 1 && o.baseline == before);
  CHECK_OK(onnxslim_check_with(&r, m, &o));
  CHECK(onnxslim_check_report_count(r) == 4);
  onnxslim_check_report_free(r);
  onnxslim_check_report_free(before);
  onnxslim_model_free(m);

  /* many problems: 100k unnamed nodes out of order, compared in linear
   * time (the test harness bounds the run; quadratic took minutes) */
  enum { MANY = 100000 };
  g = (pbuf){0};
  pb_str(&g, G_NAME, "main");
  char a[32], b[32];
  for (int i = MANY; i >= 1; i--) {
    snprintf(a, sizeof a, "v%d", i - 1);
    snprintf(b, sizeof b, "v%d", i);
    add_node(&g, G_NODE, NULL, "Relu", L(a), L(b), NULL, NULL);
  }
  add_node(&g, G_NODE, NULL, "Relu", L("x"), L("v0"), NULL, NULL);
  add_vi(&g, G_INPUT, "x", ONNXSLIM_DTYPE_FLOAT);
  snprintf(b, sizeof b, "v%d", (int)MANY);
  add_vi(&g, G_OUTPUT, b, ONNXSLIM_DTYPE_FLOAT);
  m = load(&g, NULL);
  CHECK(m != NULL);
  before = check_against(m, NULL);
  CHECK(before != NULL && onnxslim_check_report_count(before) == MANY);
  CHECK_OK(onnxslim_graph_add_node(onnxslim_model_graph(m), 0, "Relu", NULL, "front", ins, 1, outs,
                                   1, NULL));
  r = check_against(m, before);
  CHECK(r != NULL && onnxslim_check_report_count(r) == 0);
  onnxslim_check_report_free(r);
  onnxslim_check_report_free(before);
  onnxslim_model_free(m);
}

/* DequantizeLinear(q, scale[, zp]) with block_size 4 over axis 0 of 8
 * values: q of qtype (8 values), scale FLOAT[2], zp of zptype (0: none). */
static void dq_graph(pbuf *g, int qtype, int zptype) {
  pbuf attrs = {0};
  size_t qbytes = qtype == ONNXSLIM_DTYPE_INT4 || qtype == ONNXSLIM_DTYPE_UINT4 ? 4 : 8;
  size_t zbytes = zptype == ONNXSLIM_DTYPE_INT4 || zptype == ONNXSLIM_DTYPE_UINT4 ? 1 : 2;
  pb_str(g, G_NAME, "main");
  add_init(g, "q", qtype, 8, qbytes);
  add_init(g, "s", ONNXSLIM_DTYPE_FLOAT, 2, 8);
  if (zptype) add_init(g, "zp", zptype, 2, zbytes);
  attr_int(&attrs, "axis", 0);
  attr_int(&attrs, "block_size", 4);
  add_node(g, G_NODE, "dq", "DequantizeLinear", zptype ? L("q", "s", "zp") : L("q", "s"), L("y"),
           NULL, &attrs);
  add_vi(g, G_OUTPUT, "y", ONNXSLIM_DTYPE_FLOAT);
}

TEST(schema_new_opsets) {
  n_skip = 0;
  /* opset 21, the blocked INT4 / UINT4 DequantizeLinear convert writes:
   * checked against DequantizeLinear-21, nothing to say, no note */
  opset_version = 21;
  static const int ok_pairs[][2] = {{ONNXSLIM_DTYPE_INT4, 0},
                                    {ONNXSLIM_DTYPE_UINT4, ONNXSLIM_DTYPE_UINT4},
                                    {ONNXSLIM_DTYPE_INT8, ONNXSLIM_DTYPE_INT8},
                                    {ONNXSLIM_DTYPE_FLOAT8E4M3FN, 0}};
  for (size_t i = 0; i < sizeof ok_pairs / sizeof ok_pairs[0]; i++) {
    pbuf g = {0};
    dq_graph(&g, ok_pairs[i][0], ok_pairs[i][1]);
    onnxslim_model *m = load(&g, NULL);
    onnxslim_check_report *r = run_check(m);
    CHECK(r != NULL && onnxslim_check_report_count(r) == 0);
    CHECK_STR(onnxslim_check_report_note(r), "");
    onnxslim_check_report_free(r);
    onnxslim_model_free(m);
  }
  /* a zero point of another type than q: T1 binds both */
  pbuf g = {0};
  dq_graph(&g, ONNXSLIM_DTYPE_INT4, ONNXSLIM_DTYPE_INT8);
  expect(&g, NULL, 1, ONNXSLIM_CHECK_TYPE_CONSTRAINT, "graph 'main' node[0] 'dq' input[2] 'zp'",
         "'x_zero_point' of DequantizeLinear is INT8, but T1 is INT4 (from input 0 'q')");
  /* block_size as a FLOAT: the attribute's type comes from the schema */
  g = (pbuf){0};
  pbuf attrs = {0};
  pb_str(&g, G_NAME, "main");
  add_init(&g, "q", ONNXSLIM_DTYPE_INT4, 8, 4);
  add_init(&g, "s", ONNXSLIM_DTYPE_FLOAT, 2, 8);
  attr_float(&attrs, "block_size", 4);
  add_node(&g, G_NODE, "dq", "DequantizeLinear", L("q", "s"), L("y"), NULL, &attrs);
  add_vi(&g, G_OUTPUT, "y", ONNXSLIM_DTYPE_FLOAT);
  expect(&g, NULL, 1, ONNXSLIM_CHECK_ATTR_TYPE, "graph 'main' node[0] 'dq' attribute 'block_size'",
         NULL);
  /* INT4 into DequantizeLinear-19 (opset 20): INT4 comes with opset 21 */
  opset_version = 20;
  g = (pbuf){0};
  dq_graph(&g, ONNXSLIM_DTYPE_INT4, 0);
  onnxslim_model *m = load(&g, NULL);
  onnxslim_check_report *r = run_check(m);
  CHECK(r != NULL &&
        has(r, ONNXSLIM_CHECK_TYPE_CONSTRAINT, "graph 'main' node[0] 'dq' input[0] 'q'",
            "which T1 does not allow at opset 20"));
  onnxslim_check_report_free(r);
  onnxslim_model_free(m);
  /* an unknown op at opset 21 is found (the schemas are applied) */
  opset_version = 21;
  g = (pbuf){0};
  base_graph(&g);
  add_node(&g, G_NODE, "f", "Frobnicate", L("y"), L("z"), NULL, NULL);
  add_vi(&g, G_OUTPUT, "z", ONNXSLIM_DTYPE_FLOAT);
  expect(&g, NULL, 1, ONNXSLIM_CHECK_UNKNOWN_OP, "graph 'main' node[2] 'f'", "Frobnicate");
  opset_version = 17;
}

TEST(schema_newer_opset_note) {
  n_skip = 0;
  /* opset 99: newer than the tables (onnx 1.23.2 knows 28); nodes are not
   * checked against schemas and the note says so */
  opset_version = 99;
  pbuf g = {0};
  base_graph(&g);
  add_node(&g, G_NODE, "f", "Frobnicate", L("y"), L("z"), NULL, NULL);
  onnxslim_model *m = load(&g, NULL);
  onnxslim_check_report *r = run_check(m);
  CHECK(r != NULL && onnxslim_check_report_count(r) == 0);
  CHECK_STR(onnxslim_check_report_note(r),
            "schemas not checked for domain 'ai.onnx' at opset 99: the tables know opsets up to "
            "28 (onnx 1.23.2)");
  onnxslim_check_report_free(r);
  onnxslim_model_free(m);
  opset_version = 17;
}

TEST(api_errors) {
  pbuf g = {0};
  base_graph(&g);
  onnxslim_model *m = load(&g, NULL);
  onnxslim_check_report *r = (onnxslim_check_report *)1;
  CHECK(onnxslim_check(&r, m, 1) == ONNXSLIM_EINVAL);
  CHECK(r == NULL);
  CHECK(onnxslim_check(&r, NULL, 0) == ONNXSLIM_EINVAL);
  CHECK(onnxslim_check(NULL, m, 0) == ONNXSLIM_EINVAL);
  CHECK_OK(onnxslim_check(&r, m, 0));
  CHECK(r != NULL);
  CHECK(onnxslim_check_report_count(r) == 0);
  CHECK(onnxslim_check_report_location(r, 0) == NULL);
  CHECK(onnxslim_error_last_code() == ONNXSLIM_ERANGE);
  CHECK(onnxslim_check_report_message(r, 0) == NULL);
  CHECK(onnxslim_check_report_code(r, 0) == ONNXSLIM_ERANGE);
  CHECK(onnxslim_check_report_count(NULL) == 0);
  CHECK(onnxslim_check_report_location(NULL, 0) == NULL);
  CHECK(onnxslim_check_report_code(NULL, 0) == ONNXSLIM_EINVAL);
  onnxslim_check_report_free(r);
  onnxslim_check_report_free(NULL);
  /* checking twice gives the same result; the model stays usable */
  CHECK_OK(onnxslim_check(&r, m, 0));
  CHECK(onnxslim_check_report_count(r) == 0);
  onnxslim_check_report_free(r);
  CHECK_STR(onnxslim_node_name(onnxslim_graph_node(onnxslim_model_graph(m), 1)), "add");
  onnxslim_model_free(m);
}

TEST(bert_tiny_is_valid) {
  onnxslim_model *m = NULL;
  CHECK_OK(onnxslim_model_open(&m, "test/data/bert-tiny.onnx", NULL));
  onnxslim_check_report *r = run_check(m);
  CHECK(r != NULL && onnxslim_check_report_count(r) == 0);
  onnxslim_check_report_free(r);
  onnxslim_model_free(m);
}

/* An external tensor W of `dtype`[dim] in `loc`; offset and length keys
 * when not NULL. */
static void add_ext_init(pbuf *g, const char *name, int dtype, int64_t dim, const char *loc,
                         const char *offset, const char *length) {
  pbuf t = {0};
  make_tensor(&t, name, dtype, &dim, 1, NULL, 0);
  const char *keys[] = {"location", "offset", "length"};
  const char *vals[] = {loc, offset, length};
  for (int i = 0; i < 3; i++) {
    if (!vals[i]) continue;
    pbuf e = {0};
    pb_str(&e, 1, keys[i]);
    pb_str(&e, 2, vals[i]);
    pb_msg(&t, T_EXT, &e);
  }
  pb_int(&t, T_LOCATION, 1);
  pb_msg(g, G_INIT, &t);
}

/* External tensors: the length the model records must be what dims and
 * type need. Such a model loads (the range lies inside the file) but every
 * read of the tensor fails, so check reports it, without reading it. */
TEST(external_tensor_size) {
  char dir[] = "/tmp/libonnxslim-check-ext-XXXXXX", path[256];
  if (!mkdtemp(dir)) SKIP("no temporary directory");
  snprintf(path, sizeof path, "%s/w.bin", dir);
  FILE *f = fopen(path, "wb");
  static const uint8_t bytes[64];
  CHECK(f && fwrite(bytes, 1, sizeof bytes, f) == sizeof bytes);
  if (f) fclose(f);

  pbuf g = {0};
  pb_str(&g, G_NAME, "main");
  add_node(&g, G_NODE, "a", "Add", L("x", "W"), L("y"), NULL, NULL);
  add_node(&g, G_NODE, "b", "Add", L("y", "V"), L("z"), NULL, NULL);
  add_node(&g, G_NODE, "c", "Add", L("z", "U"), L("u"), NULL, NULL);
  add_node(&g, G_NODE, "d", "Add", L("u", "R"), L("v"), NULL, NULL);
  /* FLOAT[4] needs 16 bytes */
  add_ext_init(&g, "W", ONNXSLIM_DTYPE_FLOAT, 4, "w.bin", "0", "12");  /* short */
  add_ext_init(&g, "V", ONNXSLIM_DTYPE_FLOAT, 4, "w.bin", "16", "16"); /* right */
  add_ext_init(&g, "U", ONNXSLIM_DTYPE_FLOAT, 4, "w.bin", "48", NULL); /* rest: 16, right */
  add_ext_init(&g, "R", ONNXSLIM_DTYPE_FLOAT, 4, "w.bin", "8", NULL);  /* rest: 56 */
  add_vi(&g, G_INPUT, "x", ONNXSLIM_DTYPE_FLOAT);
  add_vi(&g, G_OUTPUT, "v", ONNXSLIM_DTYPE_FLOAT);
  /* a Constant whose INT64[2] value is external with 8 bytes */
  pbuf t = {0}, attrs = {0};
  int64_t two = 2;
  make_tensor(&t, NULL, ONNXSLIM_DTYPE_INT64, &two, 1, NULL, 0);
  pbuf e = {0};
  pb_str(&e, 1, "location");
  pb_str(&e, 2, "w.bin");
  pb_msg(&t, T_EXT, &e);
  pb_str(&e, 1, "length");
  pb_str(&e, 2, "8");
  pb_msg(&t, T_EXT, &e);
  pb_int(&t, T_LOCATION, 1);
  attr_tensor(&attrs, "value", &t);
  add_node(&g, G_NODE, "k", "Constant", NONE, L("kk"), NULL, &attrs);

  pbuf m = {0};
  pb_int(&m, M_IR, 8);
  pb_msg(&m, M_GRAPH, &g);
  add_opset(&m, M_OPSET, "", 17);
  onnxslim_load_options o = ONNXSLIM_LOAD_OPTIONS_INIT;
  o.base_dir = dir;
  onnxslim_model *model = NULL;
  CHECK_OK(onnxslim_model_from_buffer(&model, m.p, m.n, 0, &o));
  free(m.p);
  onnxslim_check_report *r = run_check(model);
  CHECK(r != NULL);
  CHECK(onnxslim_check_report_count(r) == 3);
  CHECK(has(r, ONNXSLIM_CHECK_TENSOR_SIZE, "graph 'main' initializer 'W'",
            "external data has 12 bytes, dims and type need 16"));
  CHECK(has(r, ONNXSLIM_CHECK_TENSOR_SIZE, "graph 'main' initializer 'R'",
            "external data has 56 bytes"));
  CHECK(has(r, ONNXSLIM_CHECK_TENSOR_SIZE, "graph 'main' node[4] 'k' attribute 'value'",
            "external data has 8 bytes, dims and type need 16"));
  /* what check reports is what reading fails on */
  const void *data;
  size_t size;
  CHECK(onnxslim_tensor_data(onnxslim_graph_find_initializer(onnxslim_model_graph(model), "W"),
                             &data, &size) == ONNXSLIM_EMODEL);
  CHECK_OK(onnxslim_tensor_data(onnxslim_graph_find_initializer(onnxslim_model_graph(model), "V"),
                                &data, &size));
  onnxslim_check_report_free(r);
  onnxslim_model_free(model);
  unlink(path);
  rmdir(dir);
}

int main(int argc, char **argv) {
  t_args(argc, argv);
  RUN(valid_models);
  RUN(undefined_input);
  RUN(subgraph_location);
  RUN(duplicate_output);
  RUN(order);
  RUN(tensor_size);
  RUN(external_tensor_size);
  RUN(opset);
  RUN(function_scope);
  RUN(function_definitions);
  RUN(output_not_produced);
  RUN(type_conflicts);
  RUN(empty_names);
  RUN(several_problems_in_walk_order);
  RUN(api_errors);
  RUN(schema_unknown_op);
  RUN(schema_arity_and_attributes);
  RUN(schema_type_constraints);
  RUN(schema_untyped_io_and_skip);
  RUN(schema_new_opsets);
  RUN(schema_newer_opset_note);
  RUN(baseline);
  RUN(bert_tiny_is_valid);
  return t_done();
}
