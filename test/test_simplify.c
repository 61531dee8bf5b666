/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/* Unit tests of the simplification (simplify.h) on hand-built graphs: each
 * pass does its rewrite and leaves the rest; graph outputs, outer-scope
 * captures, random and unknown-domain nodes are kept; hostile graphs get a
 * clear error before anything changes. Results are proven on the reloaded
 * bytes of the saved model. Run from the repository root. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <onnxslim.h>

#define ONNXSLIM_TEST_EDIT_HELPERS
#include "util.h"

#include "pbuild.h"
#include "t.h"

static const int64_t dims23[] = {2, 3};

/* INT64 initializer `name` of rank 1 with values v[0..n). */
static void pb_init_i64(pbuf *g, const char *name, const int64_t *v, size_t n) {
  pbuf t = {0};
  pb_int(&t, 1, n);
  pb_int(&t, 2, ONNXSLIM_DTYPE_INT64);
  pb_str(&t, 8, name);
  pb_bytes(&t, 9, v, n * sizeof *v); /* little-endian hosts only, as the other tests */
  pb_msg(g, 5, &t);
}
/* A BOOL scalar initializer. */
static void pb_init_bool(pbuf *g, const char *name, int v) {
  pbuf t = {0};
  uint8_t b = (uint8_t)v;
  pb_int(&t, 2, ONNXSLIM_DTYPE_BOOL);
  pb_str(&t, 8, name);
  pb_bytes(&t, 9, &b, 1);
  pb_msg(g, 5, &t);
}
static void pb_ints_attr(pbuf *attrs, const char *name, const int64_t *v, size_t n) {
  pbuf a = {0};
  pb_str(&a, 1, name);
  for (size_t i = 0; i < n; i++) pb_int(&a, 8, (uint64_t)v[i]);
  pb_int(&a, 20, 7 /* INTS */);
  pb_msg(attrs, 5, &a);
}
static void pb_float_attr(pbuf *attrs, const char *name, float v) {
  pbuf a = {0}, f = {0};
  pb_str(&a, 1, name);
  pb_tag(&f, 2, 5);
  pb_put(&f, &v, 4);
  pb_put(&a, f.p, f.n);
  free(f.p);
  pb_int(&a, 20, ONNXSLIM_ATTR_FLOAT);
  pb_msg(attrs, 5, &a);
}
/* ModelProto around g with opset 17 and, when extra_domain, an import of
 * "com.example" version 1. */
static onnxslim_model *model_of(pbuf *g, int extra_domain) {
  pbuf m = pb_model(g);
  if (extra_domain) {
    pbuf op = {0};
    pb_str(&op, 1, "com.example");
    pb_int(&op, 2, 1);
    pb_msg(&m, 8, &op);
  }
  return from_pbuf(&m);
}

static onnxslim_simplify_report *simplify(onnxslim_model *m, unsigned int passes, int *rc) {
  onnxslim_simplify_options o;
  onnxslim_simplify_options_init(&o, ONNXSLIM_SIMPLIFY_OPTIONS_VERSION);
  o.passes = passes;
  onnxslim_simplify_report *r = NULL;
  *rc = onnxslim_simplify(&r, m, &o);
  return r;
}
static size_t changes_of(const onnxslim_simplify_report *r, int kind) {
  size_t n = 0;
  for (size_t i = 0; i < onnxslim_simplify_report_change_count(r); i++) {
    int k = 0;
    if (onnxslim_simplify_report_change(r, i, NULL, &k, NULL, NULL, NULL) == 0 && k == kind) n++;
  }
  return n;
}
static int reads(const onnxslim_node *n, size_t k, const char *name) {
  return n && k < onnxslim_node_input_count(n) && streq(onnxslim_node_input(n, k), name);
}

/* ---- no-op removal ---------------------------------------------------------------- */

/* x:float[2,3] -> cast_same(FLOAT) -> reshape_same([2,3]) -> tr_id(perm 0,1)
 * -> slice_all(axis 1, 0..INT64_MAX) -> pad_zero -> expand_same([1,3])
 * -> tr_keep(perm 1,0) -> cast_unknown(FLOAT) -> cast16(FLOAT16)
 * -> drop -> reshape6([6]) -> y:float16[6] */
static onnxslim_model *noop_model(void) {
  pbuf g = {0}, a = {0};
  static const int64_t s23[] = {2, 3}, s6[] = {6}, st[] = {0}, en[] = {INT64_MAX}, ax[] = {1},
                       pads[] = {0, 0, 0, 0}, e13[] = {1, 3}, p01[] = {0, 1}, p10[] = {1, 0};
  pb_int_attr(&a, "to", ONNXSLIM_DTYPE_FLOAT);
  pb_node(&g, "Cast", "cast_same", L("x"), L("a"), &a);
  pb_node(&g, "Reshape", "reshape_same", L("a", "s23"), L("b"), NULL);
  pb_ints_attr(&a, "perm", p01, 2);
  pb_node(&g, "Transpose", "tr_id", L("b"), L("c"), &a);
  pb_node(&g, "Slice", "slice_all", L("c", "st", "en", "ax"), L("c2"), NULL);
  pb_node(&g, "Pad", "pad_zero", L("c2", "pads"), L("c3"), NULL);
  pb_node(&g, "Expand", "expand_same", L("c3", "e13"), L("c4"), NULL);
  pb_ints_attr(&a, "perm", p10, 2);
  pb_node(&g, "Transpose", "tr_keep", L("c4"), L("d"), &a);
  pb_int_attr(&a, "to", ONNXSLIM_DTYPE_FLOAT);
  pb_node(&g, "Cast", "cast_unknown", L("d"), L("d2"), &a);
  pb_int_attr(&a, "to", ONNXSLIM_DTYPE_FLOAT16);
  pb_node(&g, "Cast", "cast16", L("d2"), L("e"), &a);
  pb_node(&g, "Dropout", "drop", L("e"), L("f"), NULL);
  pb_node(&g, "Reshape", "reshape6", L("f", "s6"), L("y"), NULL);
  pb_str(&g, 2, "noops");
  pb_init_i64(&g, "s23", s23, 2);
  pb_init_i64(&g, "s6", s6, 1);
  pb_init_i64(&g, "st", st, 1);
  pb_init_i64(&g, "en", en, 1);
  pb_init_i64(&g, "ax", ax, 1);
  pb_init_i64(&g, "pads", pads, 4);
  pb_init_i64(&g, "e13", e13, 2);
  pb_vi(&g, 11, "x", ONNXSLIM_DTYPE_FLOAT, 2, dims23);
  pb_vi(&g, 12, "y", ONNXSLIM_DTYPE_FLOAT16, 1, s6);
  pb_vi(&g, 13, "c", ONNXSLIM_DTYPE_FLOAT, 2, dims23);
  return model_of(&g, 0);
}

TEST(noop_rules) {
  onnxslim_model *m = noop_model();
  REQUIRE(m);
  int rc;
  onnxslim_simplify_report *r = simplify(m, ONNXSLIM_SIMPLIFY_NOOP, &rc);
  CHECK_OK(rc);
  CHECK(changes_of(r, ONNXSLIM_SIMPLIFY_REMOVED_NODE) == 7);
  onnxslim_model *l = reload(m);
  if (l) {
    onnxslim_graph *g = onnxslim_model_graph(l);
    CHECK(onnxslim_graph_node_count(g) == 4);
    static const char *const gone[] = {"cast_same", "reshape_same", "tr_id", "slice_all",
                                       "pad_zero",  "expand_same",  "drop"};
    for (size_t i = 0; i < sizeof gone / sizeof gone[0]; i++)
      CHECK(onnxslim_graph_find_node(g, gone[i]) == NULL);
    CHECK(reads(onnxslim_graph_find_node(g, "tr_keep"), 0, "x"));
    CHECK(reads(onnxslim_graph_find_node(g, "cast_unknown"), 0, "d"));
    CHECK(reads(onnxslim_graph_find_node(g, "reshape6"), 0, "e"));
    CHECK(onnxslim_graph_find_node(g, "cast16") != NULL);
    /* the value_info of the removed value c went with it */
    CHECK(value_info_named(g, "c") == NULL);
    CHECK(onnxslim_graph_output_count(g) == 1 &&
          streq(onnxslim_value_info_name(onnxslim_graph_output(g, 0)), "y"));
    onnxslim_model_free(l);
  }
  /* the initializers are left to the dead-code pass */
  CHECK(onnxslim_graph_initializer_count(onnxslim_model_graph(m)) == 7);
  onnxslim_simplify_report_free(r);
  onnxslim_model_free(m);
}

/* The graph output's name survives: x -> relu -> t -> out_id -> y (output),
 * and x -> in_id -> z (both graph interface names: kept). */
TEST(noop_keeps_outputs) {
  pbuf g = {0};
  pb_node(&g, "Relu", "relu", L("x"), L("t"), NULL);
  pb_node(&g, "Identity", "out_id", L("t"), L("y"), NULL);
  pb_node(&g, "Identity", "in_id", L("x"), L("z"), NULL);
  pb_str(&g, 2, "outs");
  pb_vi(&g, 11, "x", ONNXSLIM_DTYPE_FLOAT, 1, dims3);
  pb_vi(&g, 12, "y", ONNXSLIM_DTYPE_FLOAT, 1, dims3);
  pb_vi(&g, 12, "z", ONNXSLIM_DTYPE_FLOAT, 1, dims3);
  pb_vi(&g, 13, "t", ONNXSLIM_DTYPE_FLOAT, 1, dims3);
  onnxslim_model *m = model_of(&g, 0);
  REQUIRE(m);
  int rc;
  onnxslim_simplify_report *r = simplify(m, ONNXSLIM_SIMPLIFY_ALL, &rc);
  CHECK_OK(rc);
  onnxslim_model *l = reload(m);
  if (l) {
    onnxslim_graph *lg = onnxslim_model_graph(l);
    CHECK(onnxslim_graph_node_count(lg) == 2);
    onnxslim_node *relu = onnxslim_graph_find_node(lg, "relu");
    CHECK(relu && streq(onnxslim_node_output(relu, 0), "y"));
    CHECK(onnxslim_graph_find_node(lg, "out_id") == NULL);
    CHECK(onnxslim_graph_find_node(lg, "in_id") != NULL);
    CHECK(value_info_named(lg, "t") == NULL);
    CHECK(onnxslim_graph_output_count(lg) == 2 &&
          streq(onnxslim_value_info_name(onnxslim_graph_output(lg, 0)), "y") &&
          streq(onnxslim_value_info_name(onnxslim_graph_output(lg, 1)), "z"));
    onnxslim_model_free(l);
  }
  onnxslim_simplify_report_free(r);
  onnxslim_model_free(m);
}

/* Dropouts that do something are kept: mask read, training_mode true. */
TEST(noop_dropout_kept) {
  pbuf g = {0};
  pb_node(&g, "Dropout", "masked", L("x"), L("a", "mask"), NULL);
  pb_node(&g, "Cast", "use_mask", L("mask"), L("mf"), NULL);
  pb_node(&g, "Dropout", "training", L("a", "", "yes"), L("b"), NULL);
  pb_node(&g, "Dropout", "inference", L("b", "", "no"), L("y"), NULL);
  pb_str(&g, 2, "drops");
  pb_init_bool(&g, "yes", 1);
  pb_init_bool(&g, "no", 0);
  pb_vi(&g, 11, "x", ONNXSLIM_DTYPE_FLOAT, 1, dims3);
  pb_vi(&g, 12, "y", ONNXSLIM_DTYPE_FLOAT, 1, dims3);
  pb_vi(&g, 12, "mf", ONNXSLIM_DTYPE_BOOL, 1, dims3);
  onnxslim_model *m = model_of(&g, 0);
  REQUIRE(m);
  int rc;
  onnxslim_simplify_report *r = simplify(m, ONNXSLIM_SIMPLIFY_NOOP, &rc);
  CHECK_OK(rc);
  onnxslim_graph *mg = onnxslim_model_graph(m);
  CHECK(onnxslim_graph_find_node(mg, "masked") != NULL);
  CHECK(onnxslim_graph_find_node(mg, "training") != NULL);
  /* "inference" writes graph output y, read from a node output: renamed */
  CHECK(onnxslim_graph_find_node(mg, "inference") == NULL);
  onnxslim_node *t = onnxslim_graph_find_node(mg, "training");
  CHECK(t && streq(onnxslim_node_output(t, 0), "y"));
  CHECK(changes_of(r, ONNXSLIM_SIMPLIFY_REMOVED_NODE) == 1);
  onnxslim_simplify_report_free(r);
  onnxslim_model_free(m);
}

/* ---- common subexpressions ------------------------------------------------------ */

TEST(cse_merges) {
  pbuf g = {0}, a = {0};
  static const float w[3] = {1, 2, 3}, w3[3] = {1, 2, 4};
  pb_node(&g, "Relu", "r1", L("x"), L("a"), NULL);
  pb_node(&g, "Relu", "r2", L("x"), L("b"), NULL);
  pb_node(&g, "Add", "add_ab", L("a", "b"), L("s"), NULL);
  pb_node(&g, "Mul", "m1", L("s", "w1"), L("p"), NULL);
  pb_node(&g, "Mul", "m2", L("s", "w2"), L("q"), NULL); /* same once w2 is w1 */
  pb_node(&g, "Mul", "m3", L("s", "w3"), L("u"), NULL); /* other bytes */
  pb_float_attr(&a, "alpha", 0.1f);
  pb_node(&g, "LeakyRelu", "lr1", L("p"), L("l1"), &a);
  pb_float_attr(&a, "alpha", 0.2f);
  pb_node(&g, "LeakyRelu", "lr2", L("q"), L("l2"), &a); /* other attribute */
  pb_node(&g, "RandomUniformLike", "rnd1", L("x"), L("n1"), NULL);
  pb_node(&g, "RandomUniformLike", "rnd2", L("x"), L("n2"), NULL);
  pb_node(&g, "Dropout", "drop1", L("x", "", "yes"), L("o1"), NULL);
  pb_node(&g, "Dropout", "drop2", L("x", "", "yes"), L("o2"), NULL);
  pb_node(&g, "Custom", "c1", L("x"), L("k1"), NULL);
  pb_node(&g, "Custom", "c2", L("x"), L("k2"), NULL);
  pb_node(&g, "Sum", "sum", L("l1", "l2", "u", "n1", "n2", "k1", "k2", "o1", "o2"), L("y"), NULL);
  pb_str(&g, 2, "cse");
  pb_init(&g, "w1", w, 3);
  pb_init(&g, "w2", w, 3);
  pb_init(&g, "w3", w3, 3);
  pb_init_bool(&g, "yes", 1);
  pb_vi(&g, 11, "x", ONNXSLIM_DTYPE_FLOAT, 1, dims3);
  pb_vi(&g, 12, "y", ONNXSLIM_DTYPE_FLOAT, 1, dims3);
  pb_vi(&g, 13, "b", ONNXSLIM_DTYPE_FLOAT, 1, dims3);
  onnxslim_model *m = NULL;
  {
    /* the Custom nodes are in domain com.example */
    pbuf mm = pb_model(&g);
    pbuf op = {0};
    pb_str(&op, 1, "com.example");
    pb_int(&op, 2, 1);
    pb_msg(&mm, 8, &op);
    m = from_pbuf(&mm);
  }
  REQUIRE(m);
  onnxslim_graph *mg = onnxslim_model_graph(m);
  CHECK_OK(onnxslim_node_set_domain(onnxslim_graph_find_node(mg, "c1"), "com.example"));
  CHECK_OK(onnxslim_node_set_domain(onnxslim_graph_find_node(mg, "c2"), "com.example"));
  int rc;
  onnxslim_simplify_report *r = simplify(m, ONNXSLIM_SIMPLIFY_CSE, &rc);
  CHECK_OK(rc);
  CHECK(changes_of(r, ONNXSLIM_SIMPLIFY_MERGED_INITIALIZER) == 1);
  CHECK(changes_of(r, ONNXSLIM_SIMPLIFY_MERGED_NODE) == 2);
  onnxslim_model *l = reload(m);
  if (l) {
    onnxslim_graph *lg = onnxslim_model_graph(l);
    CHECK(onnxslim_graph_find_node(lg, "r2") == NULL);
    CHECK(onnxslim_graph_find_node(lg, "m2") == NULL);
    CHECK(reads(onnxslim_graph_find_node(lg, "add_ab"), 1, "a"));
    CHECK(reads(onnxslim_graph_find_node(lg, "lr2"), 0, "p"));
    CHECK(value_info_named(lg, "b") == NULL);
    CHECK(onnxslim_graph_find_initializer(lg, "w2") == NULL);
    CHECK(onnxslim_graph_find_initializer(lg, "w3") != NULL);
    static const char *const kept[] = {"m3",    "lr1",   "lr2", "rnd1", "rnd2",
                                       "drop1", "drop2", "c1",  "c2"};
    for (size_t i = 0; i < sizeof kept / sizeof kept[0]; i++)
      CHECK(onnxslim_graph_find_node(lg, kept[i]) != NULL);
    CHECK(onnxslim_graph_node_count(lg) == 13);
    onnxslim_model_free(l);
  }
  onnxslim_simplify_report_free(r);
  onnxslim_model_free(m);
}

/* Two equal nodes that both write graph outputs, and an initializer that
 * is a graph input: nothing merged. */
TEST(cse_keeps_interface) {
  pbuf g = {0};
  static const float w[3] = {1, 2, 3};
  pb_node(&g, "Relu", "r1", L("x"), L("y1"), NULL);
  pb_node(&g, "Relu", "r2", L("x"), L("y2"), NULL);
  pb_node(&g, "Add", "a1", L("x", "w1"), L("y3"), NULL);
  pb_node(&g, "Add", "a2", L("x", "w2"), L("y4"), NULL);
  pb_str(&g, 2, "iface");
  pb_init(&g, "w1", w, 3);
  pb_init(&g, "w2", w, 3);
  pb_vi(&g, 11, "x", ONNXSLIM_DTYPE_FLOAT, 1, dims3);
  pb_vi(&g, 11, "w2", ONNXSLIM_DTYPE_FLOAT, 1, dims3);
  for (int i = 1; i <= 4; i++) {
    char name[8];
    snprintf(name, sizeof name, "y%d", i);
    pb_vi(&g, 12, name, ONNXSLIM_DTYPE_FLOAT, 1, dims3);
  }
  onnxslim_model *m = model_of(&g, 0);
  REQUIRE(m);
  int rc;
  onnxslim_simplify_report *r = simplify(m, ONNXSLIM_SIMPLIFY_ALL, &rc);
  CHECK_OK(rc);
  CHECK(onnxslim_simplify_report_change_count(r) == 0);
  CHECK(onnxslim_simplify_report_iterations(r) == 1);
  CHECK(onnxslim_graph_node_count(onnxslim_model_graph(m)) == 4);
  CHECK(onnxslim_graph_initializer_count(onnxslim_model_graph(m)) == 2);
  onnxslim_simplify_report_free(r);
  onnxslim_model_free(m);
}

/* ---- dead code, opsets, pipeline ---------------------------------------------------- */

TEST(dead_and_opsets) {
  pbuf g = {0};
  static const float w[3] = {1, 2, 3};
  pb_node(&g, "Relu", "relu", L("x"), L("y"), NULL);
  pb_node(&g, "Neg", "dead_neg", L("x"), L("d"), NULL);
  pb_node(&g, "Abs", "dead_abs", L("d"), L("d2"), NULL);
  pb_str(&g, 2, "dead");
  pb_init(&g, "unused", w, 3);
  pb_vi(&g, 11, "x", ONNXSLIM_DTYPE_FLOAT, 1, dims3);
  pb_vi(&g, 12, "y", ONNXSLIM_DTYPE_FLOAT, 1, dims3);
  pb_vi(&g, 13, "d", ONNXSLIM_DTYPE_FLOAT, 1, dims3);
  onnxslim_model *m = model_of(&g, 1);
  REQUIRE(m);
  CHECK(onnxslim_model_opset_count(m) == 2);
  int rc;
  onnxslim_simplify_report *r = simplify(m, ONNXSLIM_SIMPLIFY_DEAD, &rc);
  CHECK_OK(rc);
  CHECK(changes_of(r, ONNXSLIM_SIMPLIFY_REMOVED_NODE) == 2);
  CHECK(changes_of(r, ONNXSLIM_SIMPLIFY_REMOVED_INITIALIZER) == 1);
  CHECK(changes_of(r, ONNXSLIM_SIMPLIFY_REMOVED_OPSET) == 1);
  onnxslim_model *l = reload(m);
  if (l) {
    onnxslim_graph *lg = onnxslim_model_graph(l);
    CHECK(onnxslim_graph_node_count(lg) == 1);
    CHECK(onnxslim_graph_initializer_count(lg) == 0);
    CHECK(value_info_named(lg, "d") == NULL);
    CHECK(onnxslim_model_opset_count(l) == 1);
    const char *d = NULL;
    CHECK(onnxslim_model_opset(l, 0, &d, NULL) == 0 && streq(d, ""));
    onnxslim_model_free(l);
  }
  /* the report: one step, its counts, names */
  CHECK(onnxslim_simplify_report_step_count(r) >= 1);
  unsigned int pass = 0, it = 0;
  uint64_t nb = 0, na = 0, ib = 0, ia = 0;
  CHECK_OK(onnxslim_simplify_report_step(r, 0, &pass, &it, &nb, &na, &ib, &ia));
  CHECK(pass == ONNXSLIM_SIMPLIFY_DEAD && it == 1 && nb == 3 && na == 1 && ib == 1 && ia == 0);
  CHECK(onnxslim_simplify_report_step(r, 99, NULL, NULL, NULL, NULL, NULL, NULL) ==
        ONNXSLIM_ERANGE);
  const char *name = NULL, *into = NULL, *gr = NULL;
  int found = 0;
  for (size_t i = 0; i < onnxslim_simplify_report_change_count(r); i++) {
    CHECK_OK(onnxslim_simplify_report_change(r, i, &pass, NULL, &name, &into, &gr));
    if (streq(name, "dead_abs")) found = streq(gr, "dead") && streq(into, "");
  }
  CHECK(found);
  onnxslim_simplify_report_free(r);
  onnxslim_model_free(m);
}

/* FunctionProto `name` of domain "local" with one node op(a) -> b (domain
 * op_domain), as field 25 of model m. */
static void pb_function(pbuf *m, const char *name, const char *op, const char *op_domain) {
  pbuf f = {0}, n = {0}, opset = {0};
  pb_str(&f, 1, name);
  pb_str(&f, 4, "a");
  pb_str(&f, 5, "b");
  pb_str(&n, 1, "a");
  pb_str(&n, 2, "b");
  pb_str(&n, 4, op);
  if (op_domain) pb_str(&n, 7, op_domain);
  pb_msg(&f, 7, &n);
  pb_int(&opset, 2, 17);
  pb_msg(&f, 9, &opset);
  pb_str(&f, 10, "local");
  pb_msg(m, 25, &f);
}

/* Local functions: outer (called by the graph) calls inner; unused and
 * unused_caller (which calls outer) are called by nothing that is used. */
TEST(dead_functions) {
  pbuf g = {0};
  pb_node(&g, "outer", "call", L("x"), L("y"), NULL);
  pb_str(&g, 2, "fns");
  pb_vi(&g, 11, "x", ONNXSLIM_DTYPE_FLOAT, 1, dims3);
  pb_vi(&g, 12, "y", ONNXSLIM_DTYPE_FLOAT, 1, dims3);
  pbuf m = pb_model(&g), op = {0};
  pb_str(&op, 1, "local");
  pb_int(&op, 2, 1);
  pb_msg(&m, 8, &op);
  pb_function(&m, "outer", "inner", "local");
  pb_function(&m, "inner", "Relu", NULL);
  pb_function(&m, "unused", "Neg", NULL);
  pb_function(&m, "unused_caller", "outer", "local");
  onnxslim_model *mm = from_pbuf(&m);
  REQUIRE(mm);
  CHECK_OK(onnxslim_node_set_domain(node_named(mm, "call"), "local"));
  CHECK(onnxslim_model_function_count(mm) == 4);
  int rc;
  onnxslim_simplify_report *r = simplify(mm, ONNXSLIM_SIMPLIFY_DEAD, &rc);
  CHECK_OK(rc);
  CHECK(changes_of(r, ONNXSLIM_SIMPLIFY_REMOVED_FUNCTION) == 2);
  CHECK(changes_of(r, ONNXSLIM_SIMPLIFY_REMOVED_OPSET) == 0); /* "local" is still used */
  int named = 0;
  for (size_t i = 0; i < onnxslim_simplify_report_change_count(r); i++) {
    const char *name = NULL;
    CHECK_OK(onnxslim_simplify_report_change(r, i, NULL, NULL, &name, NULL, NULL));
    named += streq(name, "local:unused") || streq(name, "local:unused_caller");
  }
  CHECK(named == 2);
  onnxslim_model *l = reload(mm);
  if (l) {
    CHECK(onnxslim_model_function_count(l) == 2);
    for (size_t i = 0; i < onnxslim_model_function_count(l); i++) {
      const char *n = onnxslim_function_name(onnxslim_model_function(l, i));
      CHECK(streq(n, "outer") || streq(n, "inner"));
    }
    onnxslim_model_free(l);
  }
  onnxslim_simplify_report_free(r);
  onnxslim_model_free(mm);
}

/* The pipeline: an Identity hides a duplicate (round 1 removes it, CSE then
 * merges, dead code drops what is left); max_iterations bounds the rounds. */
TEST(pipeline_fixed_point) {
  for (int capped = 0; capped < 2; capped++) {
    pbuf g = {0};
    pb_node(&g, "Identity", "id", L("x"), L("x2"), NULL);
    pb_node(&g, "Relu", "r1", L("x"), L("a"), NULL);
    pb_node(&g, "Relu", "r2", L("x2"), L("b"), NULL);
    pb_node(&g, "Neg", "n1", L("a"), L("c"), NULL);
    pb_node(&g, "Neg", "n2", L("b"), L("d"), NULL);
    pb_node(&g, "Add", "add", L("c", "d"), L("y"), NULL);
    pb_str(&g, 2, "pipe");
    pb_vi(&g, 11, "x", ONNXSLIM_DTYPE_FLOAT, 1, dims3);
    pb_vi(&g, 12, "y", ONNXSLIM_DTYPE_FLOAT, 1, dims3);
    onnxslim_model *m = model_of(&g, 0);
    REQUIRE(m);
    onnxslim_simplify_options o = ONNXSLIM_SIMPLIFY_OPTIONS_INIT;
    o.max_iterations = capped ? 1 : 0;
    onnxslim_simplify_report *r = NULL;
    CHECK_OK(onnxslim_simplify(&r, m, &o));
    CHECK(onnxslim_graph_node_count(onnxslim_model_graph(m)) == 3);
    CHECK(onnxslim_simplify_report_iterations(r) == (capped ? 1u : 2u));
    CHECK(onnxslim_simplify_report_step_count(r) == (capped ? 3u : 6u));
    onnxslim_simplify_report_free(r);
    onnxslim_model_free(m);
  }
}

/* ---- subgraphs ---------------------------------------------------------------------- */

/* Inside a branch an Identity goes; an outer Identity whose output a branch
 * captures stays; nothing of capture_model's valid structure changes. */
TEST(subgraphs) {
  onnxslim_model *m = capture_model(0);
  REQUIRE(m);
  onnxslim_graph *g = onnxslim_model_graph(m);
  /* outer: x -> outer_id -> v2, read only from the then branch */
  CHECK_OK(
      onnxslim_graph_add_node(g, 0, "Identity", NULL, "outer_id", L("x"), 1, L("xo"), 1, NULL));
  onnxslim_graph *then_g = sub_of(onnxslim_graph_find_node(g, "if"), "then_branch");
  REQUIRE(then_g);
  CHECK_OK(
      onnxslim_graph_add_node(then_g, 0, "Identity", NULL, "in_id", L("xo"), 1, L("xi"), 1, NULL));
  onnxslim_node *add = onnxslim_graph_find_node(then_g, "then_add");
  CHECK_OK(onnxslim_node_set_input(add, 1, "xi"));
  size_t before = onnxslim_graph_node_count(then_g);
  int rc;
  onnxslim_simplify_report *r = simplify(m, ONNXSLIM_SIMPLIFY_ALL, &rc);
  CHECK_OK(rc);
  onnxslim_model *l = reload(m);
  if (l) {
    onnxslim_graph *lg = onnxslim_model_graph(l);
    CHECK(onnxslim_graph_find_node(lg, "outer_id") != NULL);
    onnxslim_graph *lt = sub_of(onnxslim_graph_find_node(lg, "if"), "then_branch");
    CHECK(lt && onnxslim_graph_find_node(lt, "in_id") == NULL);
    CHECK(lt && onnxslim_graph_node_count(lt) == before - 1);
    CHECK(lt && reads(onnxslim_graph_find_node(lt, "then_add"), 1, "xo"));
    /* inner_id (Identity of an outer value to a branch output) stays */
    onnxslim_graph *li =
        lt ? sub_of(onnxslim_graph_find_node(lt, "inner_if"), "then_branch") : NULL;
    CHECK(li && onnxslim_graph_find_node(li, "inner_id") != NULL);
    CHECK(onnxslim_graph_find_node(lg, "neg") != NULL && onnxslim_graph_node_count(lg) == 4);
    onnxslim_model_free(l);
  }
  onnxslim_simplify_report_free(r);
  onnxslim_model_free(m);
}

/* ---- hostile input and the API's errors ------------------------------------------------- */

TEST(hostile) {
  int rc;
  /* a cycle: EMODEL, the graph unchanged */
  {
    pbuf g = {0};
    pb_node(&g, "Identity", "c1", L("b"), L("a"), NULL);
    pb_node(&g, "Identity", "c2", L("a"), L("b"), NULL);
    pb_node(&g, "Identity", "out", L("x"), L("y"), NULL);
    pb_str(&g, 2, "cycle");
    pb_vi(&g, 11, "x", ONNXSLIM_DTYPE_FLOAT, 1, dims3);
    pb_vi(&g, 12, "y", ONNXSLIM_DTYPE_FLOAT, 1, dims3);
    onnxslim_model *m = model_of(&g, 0);
    REQUIRE(m);
    onnxslim_simplify_report *r = simplify(m, ONNXSLIM_SIMPLIFY_ALL, &rc);
    CHECK(rc == ONNXSLIM_EMODEL && r == NULL);
    CHECK(onnxslim_graph_node_count(onnxslim_model_graph(m)) == 3);
    onnxslim_model_free(m);
  }
  /* a value produced twice: EMODEL naming it, nothing changed */
  {
    pbuf g = {0};
    pb_node(&g, "Identity", "p1", L("x"), L("t"), NULL);
    pb_node(&g, "Neg", "p2", L("x"), L("t"), NULL);
    pb_node(&g, "Relu", "use", L("t"), L("y"), NULL);
    pb_str(&g, 2, "dup");
    pb_vi(&g, 11, "x", ONNXSLIM_DTYPE_FLOAT, 1, dims3);
    pb_vi(&g, 12, "y", ONNXSLIM_DTYPE_FLOAT, 1, dims3);
    onnxslim_model *m = model_of(&g, 0);
    REQUIRE(m);
    onnxslim_simplify_report *r = simplify(m, ONNXSLIM_SIMPLIFY_ALL, &rc);
    CHECK(rc == ONNXSLIM_EMODEL && r == NULL);
    CHECK(strstr(onnxslim_error_last(), "'t'") != NULL);
    CHECK(onnxslim_graph_node_count(onnxslim_model_graph(m)) == 3);
    onnxslim_model_free(m);
  }
  /* a missing producer: the reader is left alone */
  {
    pbuf g = {0};
    pb_node(&g, "Add", "add", L("x", "nowhere"), L("y"), NULL);
    pb_node(&g, "Identity", "id", L("nowhere"), L("z"), NULL);
    pb_str(&g, 2, "missing");
    pb_vi(&g, 11, "x", ONNXSLIM_DTYPE_FLOAT, 1, dims3);
    pb_vi(&g, 12, "y", ONNXSLIM_DTYPE_FLOAT, 1, dims3);
    pb_vi(&g, 12, "z", ONNXSLIM_DTYPE_FLOAT, 1, dims3);
    onnxslim_model *m = model_of(&g, 0);
    REQUIRE(m);
    onnxslim_simplify_report *r = simplify(m, ONNXSLIM_SIMPLIFY_ALL, &rc);
    CHECK_OK(rc);
    CHECK(onnxslim_graph_node_count(onnxslim_model_graph(m)) == 2);
    CHECK(reads(onnxslim_graph_find_node(onnxslim_model_graph(m), "add"), 1, "nowhere"));
    onnxslim_simplify_report_free(r);
    onnxslim_model_free(m);
  }
  /* options */
  onnxslim_model *m = min_model();
  REQUIRE(m);
  onnxslim_simplify_options o = ONNXSLIM_SIMPLIFY_OPTIONS_INIT;
  CHECK(onnxslim_simplify(NULL, NULL, NULL) == ONNXSLIM_EINVAL);
  o.passes = 0;
  CHECK(onnxslim_simplify(NULL, m, &o) == ONNXSLIM_EINVAL);
  o.passes = 8;
  CHECK(onnxslim_simplify(NULL, m, &o) == ONNXSLIM_EINVAL);
  o.passes = ONNXSLIM_SIMPLIFY_ALL;
  o.max_iterations = ONNXSLIM_SIMPLIFY_MAX_ITERATIONS + 1;
  CHECK(onnxslim_simplify(NULL, m, &o) == ONNXSLIM_EINVAL);
  o.max_iterations = 0;
  o.version = 99;
  CHECK(onnxslim_simplify(NULL, m, &o) == ONNXSLIM_EINVAL);
  CHECK(onnxslim_simplify_options_init(&o, 0) == ONNXSLIM_EINVAL);
  CHECK(onnxslim_simplify_options_init(NULL, 1) == ONNXSLIM_EINVAL);
  CHECK_OK(onnxslim_simplify(NULL, m, NULL));
  CHECK(onnxslim_graph_node_count(onnxslim_model_graph(m)) == 1);
  onnxslim_model_free(m);
  onnxslim_simplify_report_free(NULL);
  CHECK(onnxslim_simplify_report_step_count(NULL) == 0);
  CHECK(onnxslim_simplify_report_change(NULL, 0, NULL, NULL, NULL, NULL, NULL) == ONNXSLIM_EINVAL);
}

static int cancel_at_1(uint64_t done, uint64_t total, void *payload) {
  (void)total;
  ++*(int *)payload;
  return done >= 1;
}

TEST(cancel_and_names) {
  onnxslim_model *m = noop_model();
  REQUIRE(m);
  int calls = 0;
  onnxslim_simplify_options o = ONNXSLIM_SIMPLIFY_OPTIONS_INIT;
  o.progress = cancel_at_1;
  o.progress_payload = &calls;
  onnxslim_simplify_report *r = NULL;
  CHECK(onnxslim_simplify(&r, m, &o) == ONNXSLIM_ECANCELED && r == NULL);
  CHECK(calls == 2);
  /* the pass run before the cancel is done, the model still valid */
  CHECK(onnxslim_graph_node_count(onnxslim_model_graph(m)) == 4);
  onnxslim_model *l = reload(m);
  CHECK(l != NULL);
  onnxslim_model_free(l);
  onnxslim_model_free(m);

  CHECK_STR(onnxslim_simplify_pass_name(ONNXSLIM_SIMPLIFY_CSE), "cse");
  CHECK(onnxslim_simplify_pass_name(3) == NULL);
  unsigned int p = 0;
  CHECK_OK(onnxslim_simplify_parse_passes("noop,dead", &p));
  CHECK(p == (ONNXSLIM_SIMPLIFY_NOOP | ONNXSLIM_SIMPLIFY_DEAD));
  CHECK_OK(onnxslim_simplify_parse_passes("all", &p));
  CHECK(p == ONNXSLIM_SIMPLIFY_ALL);
  CHECK(onnxslim_simplify_parse_passes("noop,fold", &p) == ONNXSLIM_EINVAL);
  CHECK(strstr(onnxslim_error_last(), "fold") != NULL);
  CHECK(onnxslim_simplify_parse_passes("", &p) == ONNXSLIM_EINVAL);
}

/* BERT: simplifying twice changes nothing the second time; the saved model
 * reloads. */
TEST(bert_idempotent) {
  onnxslim_model *m = open_model(BERT);
  REQUIRE(m);
  size_t n0 = onnxslim_graph_node_count(onnxslim_model_graph(m));
  int rc;
  onnxslim_simplify_report *r = simplify(m, ONNXSLIM_SIMPLIFY_ALL, &rc);
  CHECK_OK(rc);
  size_t n1 = onnxslim_graph_node_count(onnxslim_model_graph(m));
  CHECK(n1 <= n0);
  onnxslim_simplify_report_free(r);
  r = simplify(m, ONNXSLIM_SIMPLIFY_ALL, &rc);
  CHECK_OK(rc);
  CHECK(onnxslim_simplify_report_change_count(r) == 0);
  onnxslim_model *l = reload(m);
  CHECK(l && onnxslim_graph_node_count(onnxslim_model_graph(l)) == n1);
  onnxslim_model_free(l);
  onnxslim_simplify_report_free(r);
  onnxslim_model_free(m);
}

int main(int argc, char **argv) {
  t_args(argc, argv);
  RUN(noop_rules);
  RUN(noop_keeps_outputs);
  RUN(noop_dropout_kept);
  RUN(cse_merges);
  RUN(cse_keeps_interface);
  RUN(dead_and_opsets);
  RUN(dead_functions);
  RUN(pipeline_fixed_point);
  RUN(subgraphs);
  RUN(hostile);
  RUN(cancel_and_names);
  RUN(bert_idempotent);
  return t_done();
}
