/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/* Unit tests of node and attribute edits.
 * Every edit is proven by saving to a buffer, loading the bytes again and
 * looking for the edit in the reloaded model. Run from the repository root. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <onnxslim.h>

#define ONNXSLIM_TEST_EDIT_HELPERS
#include "util.h"

#include "pbuild.h"
#include "t.h"

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

TEST(node_set_inputs_outputs) {
  onnxslim_model *m = fan_model();
  if (!m) {
    CHECK(0);
    return;
  }
  onnxslim_graph *g = onnxslim_model_graph(m);
  onnxslim_node *neg = node_named(m, "neg"), *exp = node_named(m, "exp");
  CHECK_OK(onnxslim_node_set_input(neg, 0, "x")); /* by index */
  CHECK_OK(onnxslim_node_set_input(neg, 1, ""));  /* append an omitted input */
  CHECK_OK(onnxslim_node_set_input(neg, 2, "y")); /* append */
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
    CHECK(onnxslim_attr_list_count(a) == 3);
    const char *s = NULL;
    size_t sn = 0;
    CHECK_OK(onnxslim_attr_strings(a, 0, &s, &sn));
    CHECK(sn == 5 && s && memcmp(s, "alpha", 5) == 0);
    CHECK_OK(onnxslim_attr_strings(a, 1, &s, &sn));
    CHECK(sn == 0);
    CHECK_OK(onnxslim_attr_strings(a, 2, &s, &sn));
    CHECK(sn == 5 && s && memcmp(s, "gamma", 5) == 0);
    a = onnxslim_node_find_attr(rn, "sb");
    CHECK_OK(onnxslim_attr_strings(a, 0, &s, &sn));
    CHECK(sn == 3 && s && memcmp(s, "a\0b", 3) == 0);
    a = onnxslim_node_find_attr(rn, "empty");
    CHECK(a != NULL);
    CHECK(onnxslim_attr_list_count(a) == 0);
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
    CHECK(onnxslim_attr_list_count(onnxslim_node_find_attr(rn, "ss")) == 1);
    CHECK_OK(onnxslim_attr_strings(onnxslim_node_find_attr(rn, "ss"), 0, &s, &sn));
    CHECK(sn == 1 && s && s[0] == 'z');
    onnxslim_model_free(r);
  }
  onnxslim_model_free(m);
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
  onnxslim_tensor *emb =
      onnxslim_graph_find_initializer(bg, "roberta.embeddings.word_embeddings.weight");
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
    CHECK(onnxslim_attr_list_count(a) == 2);
    CHECK(tensor_equal(onnxslim_attr_tensors(a, 0), small));
    CHECK(tensor_equal(onnxslim_attr_tensors(a, 1), emb));
    onnxslim_model_free(r);
  }
  /* replace both with copies of a tensor of the same model */
  float vals[3] = {1, 2, 3};
  int64_t d3 = 3;
  onnxslim_tensor *own = NULL;
  CHECK_OK(onnxslim_graph_add_initializer(onnxslim_model_graph(m), "own", ONNXSLIM_DTYPE_FLOAT, &d3,
                                          1, vals, sizeof vals, ONNXSLIM_COPY, &own));
  CHECK_OK(onnxslim_node_set_attr_tensor(n, "t", own));
  const onnxslim_tensor *one[1] = {own};
  CHECK_OK(onnxslim_node_set_attr_tensors(n, "ts", one, 1));
  r = reload(m);
  if (r) {
    onnxslim_node *rn = node_named(r, "relu");
    CHECK(onnxslim_node_attr_count(rn) == 2);
    CHECK(tensor_equal(onnxslim_attr_tensor(onnxslim_node_find_attr(rn, "t")), own));
    CHECK(onnxslim_attr_list_count(onnxslim_node_find_attr(rn, "ts")) == 1);
    CHECK(tensor_equal(onnxslim_attr_tensors(onnxslim_node_find_attr(rn, "ts"), 0), own));
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
  CHECK_OK(
      onnxslim_graph_add_node(sub, SIZE_MAX, "Neg", NULL, "sneg", L("y"), 1, L("so"), 1, NULL));
  CHECK_OK(
      onnxslim_graph_add_node(sub, SIZE_MAX, "Abs", NULL, "sabs", L("so"), 1, L("so2"), 1, NULL));
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
    CHECK(onnxslim_type_dtype(t) == ONNXSLIM_DTYPE_FLOAT && onnxslim_type_rank(t) == 1);
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
    CHECK(onnxslim_attr_list_count(a) == 2);
    CHECK_STR(onnxslim_graph_name(onnxslim_attr_graphs(a, 0)), "then_body");
    CHECK_STR(onnxslim_graph_name(onnxslim_attr_graphs(a, 1)), "else_body");
    onnxslim_graph *e = onnxslim_attr_graphs(a, 1);
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
  onnxslim_graph *gs0 = onnxslim_attr_graphs(onnxslim_node_find_attr(n, "gs"), 0);
  CHECK_OK(onnxslim_node_set_attr_graph(n, "g", gs0, NULL));
  r = reload(m);
  if (r) {
    onnxslim_node *rn = node_named(r, "relu");
    CHECK(onnxslim_node_attr_count(rn) == 2 && attr_pos(rn, "g") == 0);
    CHECK(onnxslim_attr_list_count(onnxslim_node_find_attr(rn, "gs")) == 1);
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

int main(int argc, char **argv) {
  t_args(argc, argv);
  RUN(node_rename);
  RUN(node_set_inputs_outputs);
  RUN(node_set_op_type_domain);
  RUN(attr_scalars);
  RUN(attr_lists);
  RUN(attr_tensor);
  RUN(attr_graph_new);
  RUN(attr_graph_copy);
  RUN(attr_remove);
  return t_done();
}
