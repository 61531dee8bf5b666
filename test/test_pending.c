/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/* A pending transform (a conversion, a folded Cast) is read a piece at a
 * time, never materialized: onnxslim__xform_read gives any byte range of
 * its output, at offsets that split elements too, the bytes the whole
 * transform gives; the simplification's merge of equal initializers reads
 * pending ones so (they stay pending: the tensor's cache holds no copy),
 * and merges them as it would their converted bytes. Calls the library's
 * internals, so it is linked with the library's objects (Makefile). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <onnxslim.h>

#include "handles/handles.h" /* osl_tcache, onnxslim__tensor_source */
#include "pbuild.h"
#include "t.h"

#define NV 3000 /* values per initializer */

static float vals[NV];

/* Two equal FP32 initializers a and b of NV values and a third, c, that
 * differs in its last value, each read by a Relu whose output is a graph
 * output. */
static onnxslim_model *model3(void) {
  pbuf g = {0}, m = {0};
  pb_str(&g, 2, "g");
  const char *names[3] = {"a", "b", "c"};
  for (int i = 0; i < 3; i++) {
    pbuf n = {0}, t = {0}, vi = {0}, ty = {0}, tt = {0};
    char out[8];
    snprintf(out, sizeof out, "y%s", names[i]);
    pb_str(&n, 1, names[i]);
    pb_str(&n, 2, out);
    pb_str(&n, 4, "Relu");
    pb_msg(&g, 1, &n);
    if (i == 2) vals[NV - 1] += 1.0f;
    pb_int(&t, 1, NV);
    pb_int(&t, 2, 1);
    pb_str(&t, 8, names[i]);
    pb_bytes(&t, 9, vals, sizeof vals);
    pb_msg(&g, 5, &t);
    if (i == 2) vals[NV - 1] -= 1.0f;
    pb_int(&tt, 1, 1);
    pb_msg(&ty, 1, &tt);
    pb_str(&vi, 1, out);
    pb_msg(&vi, 2, &ty);
    pb_msg(&g, 12, &vi);
  }
  pb_int(&m, 1, 8);
  pbuf op = {0};
  pb_int(&op, 2, 13);
  pb_msg(&m, 8, &op);
  pb_msg(&m, 7, &g);
  free(g.p);
  onnxslim_model *model = NULL;
  if (onnxslim_model_from_buffer(&model, m.p, m.n, ONNXSLIM_COPY, NULL))
    fprintf(stderr, "cannot load: %s\n", onnxslim_error_last());
  free(m.p);
  return model;
}

static int convert16(onnxslim_model *m) {
  onnxslim_convert_options o = ONNXSLIM_CONVERT_OPTIONS_INIT;
  o.to = ONNXSLIM_DTYPE_FLOAT16;
  o.policy = ONNXSLIM_CONVERT_POLICY_CAST_BEFORE;
  return onnxslim_convert_model(NULL, m, &o);
}

static const osl_xform *pending(onnxslim_tensor *t) {
  const osl_xform *x = NULL;
  const uint8_t *p;
  size_t n;
  if (!t || onnxslim__tensor_source((osl_msg *)t, &x, &p, &n)) return NULL;
  return x;
}

TEST(xform_read_any_range) {
  for (int i = 0; i < NV; i++) vals[i] = (float)i * 0.37f - 500.0f;
  onnxslim_model *m = model3();
  CHECK(m && convert16(m) == 0);
  onnxslim_graph *g = m ? onnxslim_model_graph(m) : NULL;
  onnxslim_tensor *t = g ? onnxslim_graph_find_initializer(g, "a") : NULL;
  const osl_xform *x = pending(t);
  CHECK(x != NULL);
  if (x) {
    uint16_t whole[NV], want[NV];
    CHECK(onnxslim_convert_f32_to_f16(want, vals, NV, 0, NULL) == 0);
    static const size_t at[][2] = {{0, 2 * NV}, {1, 7}, {3, 1}, {2 * NV - 3, 3}, {1001, 2000}};
    for (size_t k = 0; k < sizeof at / sizeof at[0]; k++) {
      memset(whole, 0xAB, sizeof whole);
      CHECK(onnxslim__xform_read(m, x, at[k][0], (uint8_t *)whole + at[k][0], at[k][1]) == 0);
      CHECK(!memcmp((uint8_t *)whole + at[k][0], (uint8_t *)want + at[k][0], at[k][1]));
    }
    CHECK(onnxslim__xform_read(m, x, 2 * NV - 1, whole, 2) == ONNXSLIM_ERANGE);
    CHECK(onnxslim__tensor_read_out((osl_msg *)t, 10, whole, 100) == 0 &&
          !memcmp(whole, (uint8_t *)want + 10, 100));
    CHECK(!((osl_tcache *)((osl_msg *)t)->cache)->have_data);
  }
  onnxslim_model_free(m);
}

TEST(merge_reads_pending_in_pieces) {
  for (int i = 0; i < NV; i++) vals[i] = (float)i * 0.37f - 500.0f;
  onnxslim_model *m = model3();
  CHECK(m && convert16(m) == 0);
  onnxslim_simplify_options o = ONNXSLIM_SIMPLIFY_OPTIONS_INIT;
  o.passes = ONNXSLIM_SIMPLIFY_CSE;
  onnxslim_simplify_report *r = NULL;
  CHECK(m && onnxslim_simplify(&r, m, &o) == 0);
  onnxslim_simplify_report_free(r);
  onnxslim_graph *g = m ? onnxslim_model_graph(m) : NULL;
  size_t n16 = 0;
  for (size_t i = 0; g && i < onnxslim_graph_initializer_count(g); i++) {
    onnxslim_tensor *t = onnxslim_graph_initializer(g, i);
    if (onnxslim_tensor_dtype(t) != ONNXSLIM_DTYPE_FLOAT16) continue;
    n16++;
    CHECK(pending(t) != NULL);
    CHECK(!((osl_tcache *)((osl_msg *)t)->cache)->have_data);
  }
  CHECK(n16 == 2); /* a and b merged, c kept */
  onnxslim_model_free(m);
}

int main(int argc, char **argv) {
  t_args(argc, argv);
  RUN(xform_read_any_range);
  RUN(merge_reads_pending_in_pieces);
  return t_done();
}
