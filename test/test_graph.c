/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/* Unit tests of graph edits (nodes added, removed and moved; initializers, value
 * infos, value renames), and how edits are saved and indexed.
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
  CHECK(onnxslim_graph_add_node(g, 0, NULL, NULL, "bad", NULL, 0, NULL, 0, NULL) ==
        ONNXSLIM_EINVAL);
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
                                          ONNXSLIM_COPY, &tc));
  const void *d = NULL;
  size_t n = 0;
  CHECK_OK(onnxslim_tensor_data(tc, &d, &n));
  CHECK(n == sizeof w && d != (const void *)w && memcmp(d, w, n) == 0);
  static int64_t borrowed[4] = {10, -20, 30, INT64_MIN};
  int64_t d4 = 4;
  CHECK_OK(onnxslim_graph_add_initializer(g, "wb", ONNXSLIM_DTYPE_INT64, &d4, 1, borrowed,
                                          sizeof borrowed, ONNXSLIM_BORROW, &tb));
  CHECK_OK(onnxslim_tensor_data(tb, &d, &n));
  CHECK(d == (const void *)borrowed && n == sizeof borrowed); /* no copy */
  /* a scalar and an empty tensor */
  uint8_t one = 1;
  CHECK_OK(onnxslim_graph_add_initializer(g, "scalar", ONNXSLIM_DTYPE_BOOL, NULL, 0, &one, 1,
                                          ONNXSLIM_COPY, NULL));
  int64_t zero = 0;
  CHECK_OK(onnxslim_graph_add_initializer(g, "empty", ONNXSLIM_DTYPE_FLOAT, &zero, 1, NULL, 0,
                                          ONNXSLIM_COPY, NULL));
  /* errors */
  CHECK(onnxslim_graph_add_initializer(g, "bad", ONNXSLIM_DTYPE_FLOAT, dims, 2, w, sizeof w - 4,
                                       ONNXSLIM_COPY, NULL) == ONNXSLIM_EINVAL);
  CHECK(onnxslim_graph_add_initializer(g, "bad", ONNXSLIM_DTYPE_FLOAT, dims, 2, w, sizeof w,
                                       ONNXSLIM_BORROW, NULL) == ONNXSLIM_OK);
  CHECK(onnxslim_graph_add_initializer(g, "bad2", ONNXSLIM_DTYPE_FLOAT, dims, 2, w, sizeof w + 4,
                                       ONNXSLIM_BORROW, NULL) == ONNXSLIM_EINVAL);
  int64_t neg = -1;
  CHECK(onnxslim_graph_add_initializer(g, "bad3", ONNXSLIM_DTYPE_FLOAT, &neg, 1, w, 4,
                                       ONNXSLIM_COPY, NULL) == ONNXSLIM_EINVAL);
  CHECK(onnxslim_graph_add_initializer(g, "bad4", ONNXSLIM_DTYPE_FLOAT, dims, 2, w, sizeof w, 2,
                                       NULL) == ONNXSLIM_EINVAL);
  CHECK(onnxslim_graph_add_initializer(g, "bad5", ONNXSLIM_DTYPE_STRING, &d4, 1, w, 16,
                                       ONNXSLIM_COPY, NULL) == ONNXSLIM_EUNSUPPORTED);
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
  onnxslim_tensor *val =
      onnxslim_attr_tensor(onnxslim_node_find_attr(onnxslim_graph_node(then_g, 0), "value"));
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
  CHECK(onnxslim_tensor_set_data(emb, ONNXSLIM_DTYPE_FLOAT16, dims, 2, half, 15, 0) ==
        ONNXSLIM_EINVAL);
  CHECK_OK(onnxslim_tensor_set_data(emb, ONNXSLIM_DTYPE_FLOAT16, dims, 2, half, sizeof half,
                                    ONNXSLIM_COPY));
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
  CHECK_OK(
      onnxslim_tensor_set_data(t2, ONNXSLIM_DTYPE_INT64, NULL, 0, &v, sizeof v, ONNXSLIM_BORROW));
  CHECK_OK(onnxslim_tensor_data(t2, &d, &n));
  CHECK(d == (const void *)&v);  /* borrowed */
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
  CHECK_OK(
      onnxslim_value_info_set_tensor_type(out, ONNXSLIM_DTYPE_FLOAT, NULL, NULL, 0)); /* scalar */
  CHECK_OK(onnxslim_graph_add_value_info(g, "vi1", &vi));
  CHECK_OK(onnxslim_value_info_set_tensor_type(vi, ONNXSLIM_DTYPE_DOUBLE, NULL, NULL, SIZE_MAX));
  CHECK_OK(onnxslim_graph_add_value_info(g, "vi2", &vi2));
  /* set_type copies a type, here from bert's input_ids */
  onnxslim_model *bert = open_model(BERT);
  CHECK(bert != NULL);
  if (bert) {
    onnxslim_type *bt =
        onnxslim_value_info_type(onnxslim_graph_input(onnxslim_model_graph(bert), 0));
    CHECK_OK(onnxslim_value_info_set_type(vi2, bt));
  }
  CHECK_OK(onnxslim_graph_add_value_info(g, "vi3", &vi3));
  CHECK_OK(onnxslim_value_info_set_dtype(vi3, ONNXSLIM_DTYPE_INT8)); /* untyped -> tensor */
  /* elem type of the existing output y keeps its shape */
  onnxslim_value_info *y = onnxslim_graph_output(g, 0);
  CHECK_OK(onnxslim_value_info_set_dtype(y, ONNXSLIM_DTYPE_FLOAT16));
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
    CHECK(onnxslim_type_dtype(t) == ONNXSLIM_DTYPE_INT64);
    CHECK(onnxslim_type_rank(t) == 3);
    int64_t v = -5;
    const char *p = NULL;
    CHECK(onnxslim_type_dim(t, 0, &v, &p) == ONNXSLIM_DIM_PARAM);
    CHECK_STR(p, "batch");
    CHECK(onnxslim_type_dim(t, 1, &v, &p) == ONNXSLIM_DIM_VALUE && v == 4);
    CHECK(onnxslim_type_dim(t, 2, &v, &p) == ONNXSLIM_DIM_UNKNOWN);
    t = onnxslim_value_info_type(onnxslim_graph_output(rg, 1));
    CHECK(onnxslim_type_dtype(t) == ONNXSLIM_DTYPE_FLOAT);
    CHECK(onnxslim_type_has_shape(t) == 1 && onnxslim_type_rank(t) == 0);
    t = onnxslim_value_info_type(value_info_named(rg, "vi1_renamed"));
    CHECK(value_info_named(rg, "vi1") == NULL);
    CHECK(onnxslim_type_dtype(t) == ONNXSLIM_DTYPE_DOUBLE && onnxslim_type_has_shape(t) == 0);
    t = onnxslim_value_info_type(value_info_named(rg, "vi2"));
    CHECK(onnxslim_type_dtype(t) == ONNXSLIM_DTYPE_INT64 && onnxslim_type_rank(t) == 2);
    CHECK(onnxslim_type_dim(t, 0, &v, &p) == ONNXSLIM_DIM_PARAM && streq(p, "batch"));
    t = onnxslim_value_info_type(value_info_named(rg, "vi3"));
    CHECK(onnxslim_type_kind(t) == ONNXSLIM_TYPE_TENSOR);
    CHECK(onnxslim_type_dtype(t) == ONNXSLIM_DTYPE_INT8 && onnxslim_type_has_shape(t) == 0);
    t = onnxslim_value_info_type(onnxslim_graph_output(rg, 0));
    CHECK(onnxslim_type_dtype(t) == ONNXSLIM_DTYPE_FLOAT16);
    CHECK(onnxslim_type_rank(t) == 1 && onnxslim_type_dim(t, 0, &v, NULL) == ONNXSLIM_DIM_VALUE &&
          v == 3);
    onnxslim_model_free(r);
  }
  /* remove one of each kind; set_type(NULL) removes a type */
  CHECK_OK(onnxslim_value_info_set_type(vi2, NULL));
  CHECK_OK(onnxslim_graph_remove_value_info(g, in));
  CHECK_OK(onnxslim_graph_remove_value_info(g, out));
  CHECK_OK(onnxslim_graph_remove_value_info(g, vi3));
  CHECK(onnxslim_graph_remove_value_info(g, vi3) == ONNXSLIM_EINVAL);
  CHECK(onnxslim_value_info_set_name(vi3, "q") == ONNXSLIM_EINVAL);
  CHECK(onnxslim_value_info_set_dtype(in, 1) == ONNXSLIM_EINVAL);
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
  CHECK_OK(onnxslim_graph_rename_value(g, "b", "b_new"));    /* initializer, read in a subgraph */
  CHECK_OK(onnxslim_graph_rename_value(g, "res", "result")); /* graph output */
  CHECK_OK(onnxslim_graph_rename_value(g, "cond", "c"));     /* input, read by nested If */
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
    case 1: pos += 8; break;
    case 5: pos += 4; break;
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
    default: return -1;
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
    if (!!va != !!vb || (va && onnxslim_type_dtype(onnxslim_value_info_type(va)) !=
                                   onnxslim_type_dtype(onnxslim_value_info_type(vb)))) {
      fprintf(stderr, "value info of '%s' differs\n", v);
      ok = 0;
    }
  }
  return ok;
}

/* Random batches of edits of every kind (nodes added at an index, at the
 * end, before and after other nodes, rewired, renamed, moved, removed;
 * value infos, inputs, initializers added and removed; captures inside a
 * subgraph changed), with lookups between them or not: after each batch the
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
  static const char *const base[] = {"x",  "cond", "b",    "v",   "nv", "res",
                                     "t1", "e",    "relu", "neg", "if"};
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
                                    &made) == 0 &&
            nn < 512)
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
        if (n && onnxslim_node_output_count(n)) onnxslim_node_set_output(n, 0, rnd(2) ? v : fresh);
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
                                       sizeof f, ONNXSLIM_COPY, NULL);
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
      /* lookups between the edits (their answers are checked below); in
       * odd rounds none, so that an item is edited again, moved or removed
       * while the index still holds what it held before its first edit */
      if (round % 2 == 0) {
        onnxslim_graph_consumer_count(g, w);
        onnxslim_graph_producer(g, v);
      }
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

int main(int argc, char **argv) {
  t_args(argc, argv);
  RUN(node_add);
  RUN(node_remove);
  RUN(node_move);
  RUN(initializer_add_copy_and_borrow);
  RUN(initializer_from_constant);
  RUN(initializer_remove_and_replace);
  RUN(value_info_add_remove_and_types);
  RUN(rename_value_everywhere);
  RUN(edits_reencode_only_what_they_touch);
  RUN(indexes_follow_edits);
  return t_done();
}
