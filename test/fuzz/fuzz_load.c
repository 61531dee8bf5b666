/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/* libFuzzer harness: load arbitrary bytes; when they load, walk the whole
 * model through the public API, run the check, save it and require a byte-identical round
 * trip, then edit a node and require the edited model to reload. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <onnxslim.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void walk_graph(onnxslim_graph *g, int depth);

static void walk_tensor(onnxslim_tensor *t) {
  if (!t) return;
  (void)onnxslim_tensor_name(t);
  (void)onnxslim_tensor_dtype(t);
  for (size_t i = 0; i < onnxslim_tensor_rank(t); i++) (void)onnxslim_tensor_dim(t, i);
  uint64_t bs;
  (void)onnxslim_tensor_byte_size(t, &bs);
  const void *d;
  size_t n;
  if (onnxslim_tensor_data(t, &d, &n) == 0 && n) {
    volatile uint8_t sink = ((const uint8_t *)d)[0] ^ ((const uint8_t *)d)[n - 1];
    (void)sink;
  }
  for (size_t i = 0; i < onnxslim_tensor_string_count(t); i++) {
    const char *s;
    size_t sn;
    (void)onnxslim_tensor_string(t, i, &s, &sn);
  }
}

static void walk_type(onnxslim_type *ty, int depth) {
  if (!ty || depth > 200) return;
  (void)onnxslim_type_kind(ty);
  (void)onnxslim_type_dtype(ty);
  for (size_t i = 0; i < onnxslim_type_rank(ty); i++) {
    int64_t v;
    const char *p;
    (void)onnxslim_type_dim(ty, i, &v, &p);
  }
  walk_type(onnxslim_type_inner(ty), depth + 1);
}

static void walk_vi(onnxslim_value_info *vi) {
  (void)onnxslim_value_info_name(vi);
  walk_type(onnxslim_value_info_type(vi), 0);
}

static void walk_node(onnxslim_node *n, int depth) {
  (void)onnxslim_node_op_type(n);
  for (size_t i = 0; i < onnxslim_node_input_count(n); i++) (void)onnxslim_node_input(n, i);
  for (size_t i = 0; i < onnxslim_node_output_count(n); i++) (void)onnxslim_node_output(n, i);
  for (size_t i = 0; i < onnxslim_node_attr_count(n); i++) {
    onnxslim_attr *a = onnxslim_node_attr(n, i);
    float f;
    int64_t iv;
    const char *s;
    size_t sn;
    const float *fs;
    const int64_t *is;
    (void)onnxslim_attr_name(a);
    (void)onnxslim_attr_float(a, &f);
    (void)onnxslim_attr_int(a, &iv);
    (void)onnxslim_attr_string(a, &s, &sn);
    (void)onnxslim_attr_floats(a, &fs, &sn);
    (void)onnxslim_attr_ints(a, &is, &sn);
    walk_tensor(onnxslim_attr_tensor(a));
    walk_graph(onnxslim_attr_graph(a), depth + 1);
    walk_type(onnxslim_attr_type_proto(a), 0);
    size_t k = onnxslim_attr_list_count(a);
    for (size_t j = 0; j < k; j++) {
      (void)onnxslim_attr_strings(a, j, &s, &sn);
      walk_tensor(onnxslim_attr_tensors(a, j));
      walk_graph(onnxslim_attr_graphs(a, j), depth + 1);
    }
  }
}

static void walk_graph(onnxslim_graph *g, int depth) {
  if (!g || depth > 100) return;
  (void)onnxslim_graph_name(g);
  for (size_t i = 0; i < onnxslim_graph_input_count(g); i++) walk_vi(onnxslim_graph_input(g, i));
  for (size_t i = 0; i < onnxslim_graph_output_count(g); i++) walk_vi(onnxslim_graph_output(g, i));
  for (size_t i = 0; i < onnxslim_graph_value_info_count(g); i++)
    walk_vi(onnxslim_graph_value_info(g, i));
  for (size_t i = 0; i < onnxslim_graph_initializer_count(g); i++)
    walk_tensor(onnxslim_graph_initializer(g, i));
  for (size_t i = 0; i < onnxslim_graph_sparse_initializer_count(g); i++) {
    onnxslim_sparse_tensor *s = onnxslim_graph_sparse_initializer(g, i);
    walk_tensor(onnxslim_sparse_tensor_values(s));
    walk_tensor(onnxslim_sparse_tensor_indices(s));
  }
  for (size_t i = 0; i < onnxslim_graph_node_count(g); i++) {
    onnxslim_node *n = onnxslim_graph_node(g, i);
    walk_node(n, depth);
    for (size_t k = 0; k < onnxslim_node_input_count(n); k++) {
      const char *v = onnxslim_node_input(n, k);
      (void)onnxslim_graph_producer(g, v);
      size_t c = onnxslim_graph_consumer_count(g, v);
      if (c) (void)onnxslim_graph_consumer(g, v, c - 1);
    }
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  onnxslim_model *m = NULL;
  if (onnxslim_model_from_buffer(&m, data, size, ONNXSLIM_BORROW, NULL) != 0) {
    if (m || onnxslim_error_last()[0] == '\0') abort();
    return 0;
  }
  (void)onnxslim_model_producer_name(m);
  for (size_t i = 0; i < onnxslim_model_opset_count(m); i++) {
    const char *d;
    int64_t v;
    (void)onnxslim_model_opset(m, i, &d, &v);
  }
  for (size_t i = 0; i < onnxslim_model_function_count(m); i++) {
    onnxslim_function *fn = onnxslim_model_function(m, i);
    for (size_t k = 0; k < onnxslim_function_node_count(fn); k++)
      walk_node(onnxslim_function_node(fn, k), 0);
  }
  walk_graph(onnxslim_model_graph(m), 0);
  /* the check runs on every loadable model and leaves it unchanged (the
   * byte-identical save below) */
  onnxslim_check_report *rep = NULL;
  if (onnxslim_check(&rep, m, 0) != 0) {
    if (rep || onnxslim_error_last_code() != ONNXSLIM_ENOMEM) abort();
  }
  for (size_t i = 0; i < onnxslim_check_report_count(rep); i++)
    if (onnxslim_check_report_code(rep, i) <= 0 || !onnxslim_check_report_location(rep, i) ||
        !onnxslim_check_report_message(rep, i)[0])
      abort();
  onnxslim_check_report_free(rep);
  size_t need = 0, got = 0;
  if (onnxslim_save_buffer(m, NULL, 0, &need) != ONNXSLIM_EBUFSIZE || need != size) abort();
  uint8_t *out = malloc(need ? need : 1);
  if (onnxslim_save_buffer(m, out, need, &got) != 0 || got != size || memcmp(out, data, size) != 0)
    abort();
  free(out);
  onnxslim_graph *g = onnxslim_model_graph(m);
  if (onnxslim_graph_node_count(g)) {
    if (onnxslim_node_set_name(onnxslim_graph_node(g, 0), "fuzz-renamed") != 0) abort();
    if (onnxslim_save_buffer(m, NULL, 0, &need) != ONNXSLIM_EBUFSIZE) abort();
    out = malloc(need ? need : 1);
    if (onnxslim_save_buffer(m, out, need, &got) != 0) abort();
    onnxslim_model *m2 = NULL;
    if (onnxslim_model_from_buffer(&m2, out, got, ONNXSLIM_BORROW, NULL) != 0) abort();
    if (strcmp(onnxslim_node_name(onnxslim_graph_node(onnxslim_model_graph(m2), 0)),
               "fuzz-renamed") != 0)
      abort();
    onnxslim_model_free(m2);
    free(out);
  }
  /* heavier edits: cleanup, the recipe's conversion, a Cast insertion; the
   * result must save and load again (errors are fine, crashes are not) */
  if (onnxslim_cleanup_toposort(g, ONNXSLIM_CLEANUP_RECURSIVE) == 0)
    (void)onnxslim_cleanup_remove_unused(g, ONNXSLIM_CLEANUP_RECURSIVE, NULL);
  (void)onnxslim_convert_gather_tables(NULL, m, ONNXSLIM_DTYPE_BFLOAT16, 0, 0);
  if (onnxslim_graph_input_count(g))
    (void)onnxslim_insert_cast_after(g, onnxslim_value_info_name(onnxslim_graph_input(g, 0)),
                                     ONNXSLIM_DTYPE_FLOAT, NULL, 0, NULL, NULL);
  char fp[33];
  (void)onnxslim_fingerprint(fp, ONNXSLIM_FINGERPRINT_SIZE, m);
  if (onnxslim_save_buffer(m, NULL, 0, &need) == ONNXSLIM_EBUFSIZE) {
    out = malloc(need ? need : 1);
    if (onnxslim_save_buffer(m, out, need, &got) != 0) abort();
    onnxslim_model *m3 = NULL;
    if (onnxslim_model_from_buffer(&m3, out, got, ONNXSLIM_BORROW, NULL) != 0) abort();
    onnxslim_model_free(m3);
    free(out);
  }
  onnxslim_model_free(m);
  return 0;
}
