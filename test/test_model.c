/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/* Unit tests of model-level edits (opsets, metadata, IR version) and unique names.
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
  CHECK_OK(onnxslim_model_set_opset(m, "", 18));             /* update the default domain */
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
  /* opset versions start at 1: 0 and negative versions are refused, unchanged */
  CHECK(onnxslim_model_set_opset(m, "", 0) == ONNXSLIM_EINVAL);
  CHECK(onnxslim_model_set_opset(m, "com.new", -1) == ONNXSLIM_EINVAL);
  CHECK(opset_of(m, "com.new") == -1);
  CHECK(onnxslim_model_set_ir_version(m, -1) == ONNXSLIM_EINVAL);
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

int main(int argc, char **argv) {
  t_args(argc, argv);
  RUN(model_opset_metadata_ir_version);
  RUN(unique_name_is_unique);
  return t_done();
}
