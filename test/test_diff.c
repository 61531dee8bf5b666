/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/* Unit tests of the model diff (onnxslim_diff, include/onnxslim/diff.h):
 * equal models, one changed weight, a node added, the report's getters,
 * the refusals (NULL arguments, options, indexes) and max_memory. Run from
 * the repository root (reads test/data/bert-tiny.onnx). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <onnxslim.h>

#include "t.h"
#include "util.h"

#define BERT "test/data/bert-tiny.onnx"
#define WEIGHT "classifier.out_proj.weight"

static onnxslim_model *load(void) {
  onnxslim_model *m = NULL;
  if (onnxslim_model_open(&m, BERT, NULL) != 0) return NULL;
  return m;
}

/* Adds `delta` to element `at` of FLOAT initializer `name` of m. */
static int bump(onnxslim_model *m, const char *name, size_t at, float delta) {
  onnxslim_tensor *t = onnxslim_graph_find_initializer(onnxslim_model_graph(m), name);
  int64_t dims[8];
  size_t rank, i, n;
  float *v;
  int rc;
  if (!t || onnxslim_tensor_dtype(t) != ONNXSLIM_DTYPE_FLOAT) return -1;
  rank = onnxslim_tensor_rank(t);
  for (i = 0; i < rank && i < 8; i++) dims[i] = onnxslim_tensor_dim(t, i);
  n = (size_t)onnxslim_tensor_element_count(t);
  v = malloc(n * sizeof *v);
  if (!v || onnxslim_tensor_read(t, 0, v, n * sizeof *v) != 0) {
    free(v);
    return -1;
  }
  v[at] += delta;
  rc = onnxslim_tensor_set_data(t, ONNXSLIM_DTYPE_FLOAT, dims, rank, v, n * sizeof *v,
                                ONNXSLIM_COPY);
  free(v);
  return rc;
}

TEST(equal_models) {
  onnxslim_model *a = load(), *b = load();
  onnxslim_diff_report *r = NULL;
  REQUIRE(a && b);
  CHECK_OK(onnxslim_diff(&r, a, b, NULL));
  CHECK(r != NULL);
  CHECK(onnxslim_diff_report_count(r) == 0);
  CHECK(onnxslim_diff_report_fingerprint(r, ONNXSLIM_DIFF_A) != NULL);
  CHECK(strlen(onnxslim_diff_report_fingerprint(r, ONNXSLIM_DIFF_A)) == 32);
  CHECK_STR(onnxslim_diff_report_fingerprint(r, ONNXSLIM_DIFF_A),
            onnxslim_diff_report_fingerprint(r, ONNXSLIM_DIFF_B));
  onnxslim_diff_report_free(r);
  /* storage compared: the same file, nothing differs either */
  onnxslim_diff_options o;
  CHECK_OK(onnxslim_diff_options_init(&o, ONNXSLIM_DIFF_OPTIONS_VERSION));
  CHECK(o.flags == 0);
  o.flags = ONNXSLIM_DIFF_COMPARE_STORAGE;
  CHECK_OK(onnxslim_diff(&r, a, b, &o));
  CHECK(onnxslim_diff_report_count(r) == 0);
  onnxslim_diff_report_free(r);
  onnxslim_model_free(a);
  onnxslim_model_free(b);
}

TEST(changed_weight) {
  onnxslim_model *a = load(), *b = load();
  onnxslim_diff_report *r = NULL;
  onnxslim_diff_numbers num = ONNXSLIM_DIFF_NUMBERS_INIT;
  REQUIRE(a && b);
  REQUIRE(bump(b, WEIGHT, 3, 0.5f) == 0);
  CHECK_OK(onnxslim_diff(&r, a, b, NULL));
  REQUIRE(onnxslim_diff_report_count(r) == 1);
  CHECK(onnxslim_diff_report_kind(r, 0) == ONNXSLIM_DIFF_KIND_INITIALIZER);
  CHECK(onnxslim_diff_report_aspect(r, 0) == ONNXSLIM_DIFF_CONTENTS);
  CHECK_STR(onnxslim_diff_kind_name(onnxslim_diff_report_kind(r, 0)), "initializer");
  CHECK_STR(onnxslim_diff_aspect_name(onnxslim_diff_report_aspect(r, 0)), "contents");
  CHECK_STR(onnxslim_diff_report_graph(r, 0), "");
  CHECK_STR(onnxslim_diff_report_name(r, 0), WEIGHT);
  CHECK_STR(onnxslim_diff_report_label(r, 0), "initializer '" WEIGHT "'");
  CHECK(onnxslim_diff_report_attribute(r, 0) == NULL);
  CHECK(onnxslim_error_last_code() == ONNXSLIM_ENOTFOUND);
  CHECK(onnxslim_diff_report_value(r, 0, ONNXSLIM_DIFF_A) == NULL);
  CHECK(onnxslim_diff_report_node_index(r, 0, ONNXSLIM_DIFF_A) == -1);
  const char *da = onnxslim_diff_report_digest(r, 0, ONNXSLIM_DIFF_A);
  const char *db = onnxslim_diff_report_digest(r, 0, ONNXSLIM_DIFF_B);
  CHECK(da && db && strlen(da) == 32 && strcmp(da, db) != 0);
  CHECK_OK(onnxslim_diff_report_numbers(r, 0, &num));
  CHECK(num.differing == 1);
  CHECK(num.elements == 16);
  CHECK(num.nan_mismatches == 0);
  CHECK(fabs(num.max_abs_diff - 0.5) < 1e-6);
  CHECK(num.dequantized == ONNXSLIM_DIFF_DEQUANT_NONE);
  const char *text = onnxslim_diff_report_text(r, 0);
  CHECK(text &&
        strncmp(text, "initializer '" WEIGHT "': contents differ, max abs diff 0.5, digest ",
                strlen("initializer '" WEIGHT "': contents differ, max abs diff 0.5, "
                       "digest ")) == 0);
  onnxslim_diff_report_free(r);
  onnxslim_model_free(a);
  onnxslim_model_free(b);
}

TEST(node_only_in_b) {
  onnxslim_model *a = load(), *b = load();
  onnxslim_diff_report *r = NULL;
  onnxslim_diff_numbers num = ONNXSLIM_DIFF_NUMBERS_INIT;
  const char *in[] = {"logits"}, *outs[] = {"extra_out"};
  size_t i, found = 0;
  REQUIRE(a && b);
  size_t n = onnxslim_graph_node_count(onnxslim_model_graph(b));
  REQUIRE(onnxslim_graph_add_node(onnxslim_model_graph(b), n, "Relu", "", "extra", in, 1, outs, 1,
                                  NULL) == 0);
  CHECK_OK(onnxslim_diff(&r, a, b, NULL));
  for (i = 0; i < onnxslim_diff_report_count(r); i++) {
    if (onnxslim_diff_report_kind(r, i) != ONNXSLIM_DIFF_KIND_NODE) continue;
    found++;
    CHECK(onnxslim_diff_report_aspect(r, i) == ONNXSLIM_DIFF_PRESENCE);
    CHECK_STR(onnxslim_diff_report_name(r, i), "extra");
    CHECK(onnxslim_diff_report_value(r, i, ONNXSLIM_DIFF_A) == NULL);
    CHECK(onnxslim_error_last_code() == ONNXSLIM_ENOTFOUND);
    CHECK_STR(onnxslim_diff_report_value(r, i, ONNXSLIM_DIFF_B), "Relu");
    CHECK(onnxslim_diff_report_node_index(r, i, ONNXSLIM_DIFF_A) == -1);
    CHECK(onnxslim_diff_report_node_index(r, i, ONNXSLIM_DIFF_B) == (int64_t)n);
    CHECK_STR(onnxslim_diff_report_text(r, i), "node 'extra': only in B (Relu)");
    CHECK(onnxslim_diff_report_numbers(r, i, &num) == ONNXSLIM_ENOTFOUND);
  }
  CHECK(found == 1);
  onnxslim_diff_report_free(r);
  onnxslim_model_free(a);
  onnxslim_model_free(b);
}

TEST(refusals) {
  onnxslim_model *a = load(), *b = load();
  onnxslim_diff_report *r = (onnxslim_diff_report *)&r;
  onnxslim_diff_options o = ONNXSLIM_DIFF_OPTIONS_INIT;
  onnxslim_diff_numbers num = ONNXSLIM_DIFF_NUMBERS_INIT;
  REQUIRE(a && b);
  CHECK(onnxslim_diff(NULL, a, b, NULL) == ONNXSLIM_EINVAL);
  CHECK(onnxslim_diff(&r, NULL, b, NULL) == ONNXSLIM_EINVAL);
  CHECK(r == NULL);
  CHECK(onnxslim_diff(&r, a, NULL, NULL) == ONNXSLIM_EINVAL);
  o.version = 99;
  CHECK(onnxslim_diff(&r, a, b, &o) == ONNXSLIM_EINVAL);
  CHECK(strstr(onnxslim_error_last(), "version 99") != NULL);
  o.version = ONNXSLIM_DIFF_OPTIONS_VERSION;
  o.flags = 0x80;
  CHECK(onnxslim_diff(&r, a, b, &o) == ONNXSLIM_EINVAL);
  CHECK(r == NULL);
  CHECK(onnxslim_diff_options_init(NULL, 1) == ONNXSLIM_EINVAL);
  CHECK(onnxslim_diff_options_init(&o, 0) == ONNXSLIM_EINVAL);
  /* getters of a NULL report or an index out of range */
  CHECK(onnxslim_diff_report_count(NULL) == 0);
  CHECK(onnxslim_diff_report_kind(NULL, 0) == ONNXSLIM_EINVAL);
  CHECK(onnxslim_diff_report_text(NULL, 0) == NULL);
  CHECK(onnxslim_diff_report_fingerprint(NULL, 0) == NULL);
  CHECK_OK(onnxslim_diff(&r, a, b, NULL));
  CHECK(onnxslim_diff_report_aspect(r, 0) == ONNXSLIM_ERANGE);
  CHECK(onnxslim_diff_report_graph(r, 5) == NULL);
  CHECK(onnxslim_error_last_code() == ONNXSLIM_ERANGE);
  CHECK(onnxslim_diff_report_numbers(r, 0, &num) == ONNXSLIM_ERANGE);
  CHECK(onnxslim_diff_report_fingerprint(r, 2) == NULL);
  CHECK(onnxslim_diff_report_node_index(r, 0, 0) == ONNXSLIM_ERANGE);
  CHECK(onnxslim_diff_kind_name(0) == NULL);
  CHECK(onnxslim_diff_kind_name(ONNXSLIM_DIFF_KIND_MAX + 1) == NULL);
  CHECK(onnxslim_diff_aspect_name(ONNXSLIM_DIFF_ASPECT_MAX + 1) == NULL);
  for (int k = 1; k <= ONNXSLIM_DIFF_KIND_MAX; k++) CHECK(onnxslim_diff_kind_name(k) != NULL);
  for (int k = 1; k <= ONNXSLIM_DIFF_ASPECT_MAX; k++) CHECK(onnxslim_diff_aspect_name(k) != NULL);
  onnxslim_diff_report_free(r);
  onnxslim_diff_report_free(NULL);
  onnxslim_model_free(a);
  onnxslim_model_free(b);
}

/* The diff's memory counts against model a's max_memory: a limit the
 * model's structure fits in but the diff's buffers do not stops it. */
TEST(max_memory) {
  onnxslim_load_options lo;
  onnxslim_model *a = NULL, *b = load();
  onnxslim_diff_report *r = (onnxslim_diff_report *)&r;
  REQUIRE(b);
  REQUIRE(onnxslim_load_options_init(&lo, ONNXSLIM_LOAD_OPTIONS_VERSION) == 0);
  lo.max_memory = 1 << 20;
  REQUIRE(onnxslim_model_open(&a, BERT, &lo) == 0);
  REQUIRE(bump(b, WEIGHT, 0, 1.0f) == 0);
  CHECK(onnxslim_diff(&r, a, b, NULL) == ONNXSLIM_ELIMIT);
  CHECK(r == NULL);
  CHECK(strstr(onnxslim_error_last(), "max_memory") != NULL);
  /* the same pair without the limit: one difference */
  onnxslim_model_free(a);
  a = load();
  REQUIRE(a);
  CHECK_OK(onnxslim_diff(&r, a, b, NULL));
  CHECK(onnxslim_diff_report_count(r) == 1);
  onnxslim_diff_report_free(r);
  onnxslim_model_free(a);
  onnxslim_model_free(b);
}

/* A float model against its INT8 conversion (one scale per row of the
 * tables, per column of the MatMul weights): each quantized weight is
 * compared by its dequantized values, within half of its largest scale
 * (symmetric rounding), not by its codes (up to 127 away). */
TEST(quantized_weights) {
  onnxslim_model *a = load(), *b = load();
  onnxslim_quant_options qo;
  onnxslim_quant_report *qr = NULL;
  onnxslim_diff_report *r = NULL;
  size_t i, quantized = 0;
  REQUIRE(a && b);
  REQUIRE(onnxslim_quant_options_init(&qo, ONNXSLIM_QUANT_OPTIONS_VERSION) == 0);
  qo.to = ONNXSLIM_DTYPE_INT8;
  REQUIRE(onnxslim_quantize(&qr, b, &qo) == 0);
  onnxslim_quant_report_free(qr);
  CHECK_OK(onnxslim_diff(&r, a, b, NULL));
  for (i = 0; i < onnxslim_diff_report_count(r); i++) {
    onnxslim_diff_numbers num = ONNXSLIM_DIFF_NUMBERS_INIT;
    const onnxslim_tensor *s;
    char scale[256];
    float smax = 0, v[256];
    size_t k, ns;
    if (onnxslim_diff_report_aspect(r, i) != ONNXSLIM_DIFF_DTYPE) continue;
    quantized++;
    CHECK_STR(onnxslim_diff_report_value(r, i, ONNXSLIM_DIFF_B), "INT8");
    CHECK_OK(onnxslim_diff_report_numbers(r, i, &num));
    CHECK(num.dequantized == ONNXSLIM_DIFF_DEQUANT_DEQUANTIZE_LINEAR ||
          num.dequantized == ONNXSLIM_DIFF_DEQUANT_CAST_MUL);
    CHECK(strstr(onnxslim_diff_report_text(r, i), "(B dequantized as ") != NULL);
    snprintf(scale, sizeof scale, "%s_scale", onnxslim_diff_report_name(r, i));
    s = onnxslim_graph_find_initializer(onnxslim_model_graph(b), scale);
    REQUIRE(s && onnxslim_tensor_dtype(s) == ONNXSLIM_DTYPE_FLOAT);
    ns = (size_t)onnxslim_tensor_element_count(s);
    REQUIRE(ns <= 256 && onnxslim_tensor_read(s, 0, v, ns * sizeof *v) == 0);
    for (k = 0; k < ns; k++) smax = fabsf(v[k]) > smax ? fabsf(v[k]) : smax;
    CHECK(num.max_abs_diff > 0 && num.max_abs_diff <= smax / 2 * (1 + 1e-6));
    CHECK(num.differing > 0 && num.differing <= num.elements);
  }
  CHECK(quantized == 10);
  onnxslim_diff_report_free(r);
  onnxslim_model_free(a);
  onnxslim_model_free(b);
}

int main(int argc, char **argv) {
  t_args(argc, argv);
  RUN(equal_models);
  RUN(changed_weight);
  RUN(node_only_in_b);
  RUN(refusals);
  RUN(max_memory);
  RUN(quantized_weights);
  return t_done();
}
