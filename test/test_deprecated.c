/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/* The deprecated names of 0.1.0 still link and behave as their
 * replacements (include/onnxslim/common.h, "Deprecation"; the list is in
 * docs/api.md). This is the one file of the tree that uses them: it
 * silences their warnings with ONNXSLIM_NO_DEPRECATION_WARNINGS, which is
 * also what it checks of that macro. test/check_deprecated.py checks the
 * other half: without the macro, using one fails with
 * -Werror=deprecated-declarations. Run from the repository root. */
#define ONNXSLIM_NO_DEPRECATION_WARNINGS
#include <stdint.h>
#include <string.h>

#include <onnxslim.h>

#define ONNXSLIM_TEST_EDIT_HELPERS
#include "util.h"

#include "pbuild.h"
#include "t.h"

/* The same value and the same last error from both calls. */
#define SAME_ERR(a_expr, b_expr)          \
  do {                                    \
    onnxslim_error_clear();               \
    long long ra_ = (long long)(a_expr);  \
    int ea_ = onnxslim_error_last_code(); \
    onnxslim_error_clear();               \
    long long rb_ = (long long)(b_expr);  \
    int eb_ = onnxslim_error_last_code(); \
    CHECK(ra_ == rb_);                    \
    CHECK(ea_ == eb_);                    \
  } while (0)

TEST(enum_aliases) {
  CHECK(ONNXSLIM_POLICY_CAST_AFTER_GATHER == ONNXSLIM_CONVERT_POLICY_CAST_AFTER_GATHER);
  CHECK(ONNXSLIM_POLICY_CAST_BEFORE == ONNXSLIM_CONVERT_POLICY_CAST_BEFORE);
  CHECK(ONNXSLIM_POLICY_STORAGE_ONLY == ONNXSLIM_CONVERT_POLICY_STORAGE_ONLY);
  CHECK(ONNXSLIM_PLACEMENT_EXTERNAL == ONNXSLIM_SAVE_PLACEMENT_EXTERNAL);
  CHECK(ONNXSLIM_PLACEMENT_BELOW_THRESHOLD == ONNXSLIM_SAVE_PLACEMENT_BELOW_THRESHOLD);
  CHECK(ONNXSLIM_PLACEMENT_SHAPE_INPUT == ONNXSLIM_SAVE_PLACEMENT_SHAPE_INPUT);
  CHECK(ONNXSLIM_PLACEMENT_NO_LAYOUT == ONNXSLIM_SAVE_PLACEMENT_NO_LAYOUT);
  /* the old policy still converts: the same model as the new one */
  onnxslim_model *a = open_model(BERT), *b = open_model(BERT);
  REQUIRE(a && b);
  onnxslim_convert_options oa = ONNXSLIM_CONVERT_OPTIONS_INIT, ob = ONNXSLIM_CONVERT_OPTIONS_INIT;
  oa.policy = ONNXSLIM_POLICY_CAST_BEFORE;
  ob.policy = ONNXSLIM_CONVERT_POLICY_CAST_BEFORE;
  CHECK_OK(onnxslim_convert_model(NULL, a, &oa));
  CHECK_OK(onnxslim_convert_model(NULL, b, &ob));
  char fa[ONNXSLIM_FINGERPRINT_SIZE], fb[ONNXSLIM_FINGERPRINT_SIZE];
  CHECK_OK(onnxslim_fingerprint(fa, sizeof fa, a));
  CHECK_OK(onnxslim_fingerprint(fb, sizeof fb, b));
  CHECK(strcmp(fa, fb) == 0);
  onnxslim_model_free(a);
  onnxslim_model_free(b);
}

TEST(attr_list_getters) {
  onnxslim_model *m = open_model(BERT);
  REQUIRE(m);
  onnxslim_graph *g = onnxslim_model_graph(m);
  onnxslim_node *n = onnxslim_graph_node(g, 0);
  REQUIRE(n);
  static const char *const strs[] = {"alpha", "beta"};
  CHECK_OK(onnxslim_node_set_attr_strings(n, "s", strs, NULL, 2));
  onnxslim_tensor *t0 = onnxslim_graph_initializer(g, 0), *t1 = onnxslim_graph_initializer(g, 1);
  REQUIRE(t0 && t1);
  const onnxslim_tensor *ts[] = {t0, t1};
  CHECK_OK(onnxslim_node_set_attr_tensors(n, "t", ts, 2));
  onnxslim_attr *as = onnxslim_node_find_attr(n, "s"), *at = onnxslim_node_find_attr(n, "t");
  REQUIRE(as && at);
  for (size_t i = 0; i < 3; i++) { /* 2: out of range, the same error */
    const char *da = NULL, *db = NULL;
    size_t la = 0, lb = 0;
    SAME_ERR(onnxslim_attr_list_string(as, i, &da, &la), onnxslim_attr_strings(as, i, &db, &lb));
    CHECK(da == db && la == lb);
    SAME_ERR((intptr_t)onnxslim_attr_list_tensor(at, i), (intptr_t)onnxslim_attr_tensors(at, i));
  }
  CHECK(onnxslim_attr_tensors(at, 1) != NULL);
  /* wrong types and bad handles: the same NULL and the same error */
  SAME_ERR((intptr_t)onnxslim_attr_list_graph(as, 0), (intptr_t)onnxslim_attr_graphs(as, 0));
  SAME_ERR((intptr_t)onnxslim_attr_list_sparse_tensor(as, 0),
           (intptr_t)onnxslim_attr_sparse_tensors(as, 0));
  SAME_ERR((intptr_t)onnxslim_attr_list_type_proto(at, 0),
           (intptr_t)onnxslim_attr_type_protos(at, 0));
  SAME_ERR((intptr_t)onnxslim_attr_list_graph(NULL, 0), (intptr_t)onnxslim_attr_graphs(NULL, 0));
  CHECK(onnxslim_error_last_code() == ONNXSLIM_EINVAL);
  onnxslim_model_free(m);

  /* GRAPHS: the If of capture_model has two graph attributes; a GRAPHS
   * attribute made of them reads back the same through both names */
  m = capture_model(0);
  REQUIRE(m);
  onnxslim_node *iff = node_named(m, "if");
  REQUIRE(iff);
  const onnxslim_graph *gs[] = {sub_of(iff, "then_branch"), sub_of(iff, "else_branch")};
  REQUIRE(gs[0] && gs[1]);
  CHECK_OK(onnxslim_node_set_attr_graphs(iff, "branches", gs, 2));
  onnxslim_attr *ag = onnxslim_node_find_attr(iff, "branches");
  REQUIRE(ag);
  for (size_t i = 0; i < 3; i++)
    SAME_ERR((intptr_t)onnxslim_attr_list_graph(ag, i), (intptr_t)onnxslim_attr_graphs(ag, i));
  CHECK(onnxslim_attr_graphs(ag, 1) != NULL);
  onnxslim_model_free(m);
}

TEST(type_and_value_info) {
  onnxslim_model *m = min_model();
  REQUIRE(m);
  onnxslim_graph *g = onnxslim_model_graph(m);
  onnxslim_value_info *x = onnxslim_graph_input(g, 0);
  REQUIRE(x);
  onnxslim_type *ty = onnxslim_value_info_type(x);
  CHECK(onnxslim_type_elem_type(ty) == ONNXSLIM_DTYPE_FLOAT);
  SAME_ERR(onnxslim_type_elem_type(ty), onnxslim_type_dtype(ty));
  SAME_ERR(onnxslim_type_elem_type(NULL), onnxslim_type_dtype(NULL));
  /* the old setter changes the dtype as the new one does */
  CHECK_OK(onnxslim_value_info_set_elem_type(x, ONNXSLIM_DTYPE_FLOAT16));
  CHECK(onnxslim_type_dtype(onnxslim_value_info_type(x)) == ONNXSLIM_DTYPE_FLOAT16);
  CHECK_OK(onnxslim_value_info_set_dtype(x, ONNXSLIM_DTYPE_DOUBLE));
  CHECK(onnxslim_type_elem_type(onnxslim_value_info_type(x)) == ONNXSLIM_DTYPE_DOUBLE);
  SAME_ERR(onnxslim_value_info_set_elem_type(NULL, 1), onnxslim_value_info_set_dtype(NULL, 1));
  onnxslim_model_free(m);
}

TEST(model_file_find) {
  onnxslim_model *m = open_model(BERT);
  REQUIRE(m);
  size_t ia = 99, ib = 98;
  SAME_ERR(onnxslim_model_file_find(m, BERT, &ia), onnxslim_model_find_file(m, BERT, &ib));
  CHECK(ia == 0 && ib == 0);
  SAME_ERR(onnxslim_model_file_find(m, "test/data", NULL),
           onnxslim_model_find_file(m, "test/data", NULL));
  CHECK(onnxslim_model_find_file(m, "test/data", NULL) == ONNXSLIM_ENOTFOUND);
  SAME_ERR(onnxslim_model_file_find(NULL, BERT, NULL), onnxslim_model_find_file(NULL, BERT, NULL));
  onnxslim_model_free(m);
}

int main(int argc, char **argv) {
  t_args(argc, argv);
  RUN(enum_aliases);
  RUN(attr_list_getters);
  RUN(type_and_value_info);
  RUN(model_file_find);
  return t_done();
}
