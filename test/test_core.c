/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/* Unit tests of the core: versions, errors, loading from file and buffer,
 * zero-copy, read API, unknown fields surviving load/edit/save, save to
 * buffer, error locations. Run from the repository root. */
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

/* ---- hand-built model with fields onnx.proto 1.12 does not know ---------- */

/* Encodings of the unknown fields, kept to look for them in the output. */
static pbuf node_meta, graph_meta, top_unknown, tensor_enc;

static pbuf build_unknown_model(void) {
  pbuf m = {0}, g = {0}, n = {0}, n2 = {0}, e = {0}, vi = {0}, ty = {0}, tt = {0}, t = {0},
       op = {0};
  /* NodeProto.metadata_props (field 9, IR 10) = {key "origin", value "hand"} */
  pb_str(&e, 1, "origin");
  pb_str(&e, 2, "hand");
  free(node_meta.p);
  memset(&node_meta, 0, sizeof node_meta);
  pb_bytes(&node_meta, 9, e.p, e.n);
  pb_str(&n, 1, "x");
  pb_str(&n, 2, "y");
  pb_str(&n, 3, "n0");
  pb_put(&n, node_meta.p, node_meta.n); /* unknown field in the middle */
  pb_str(&n, 4, "Identity");
  pb_msg(&g, 1, &n);
  pb_str(&n2, 1, "y");
  pb_str(&n2, 1, "w");
  pb_str(&n2, 2, "z");
  pb_str(&n2, 4, "Add");
  pb_msg(&g, 1, &n2);
  pb_str(&g, 2, "hand_graph");
  /* initializer w: data_type 23 (FLOAT4E2M1, unknown to onnx 1.12), dims [3] */
  pb_int(&t, 1, 3);
  pb_int(&t, 2, 23);
  pb_str(&t, 8, "w");
  pb_bytes(&t, 9, "\x12\x03", 2);
  free(tensor_enc.p);
  tensor_enc = (pbuf){0};
  pb_bytes(&tensor_enc, 5, t.p, t.n);
  pb_msg(&g, 5, &t);
  /* input x: tensor(FLOAT4E2M1)[3] */
  pb_int(&tt, 1, 23);
  pbuf shape = {0}, dim = {0};
  pb_int(&dim, 1, 3);
  pb_msg(&shape, 1, &dim);
  pb_msg(&tt, 2, &shape);
  pb_msg(&ty, 1, &tt);
  pb_str(&vi, 1, "x");
  pb_msg(&vi, 2, &ty);
  pb_msg(&g, 11, &vi);
  pb_str(&vi, 1, "z");
  pb_msg(&g, 12, &vi);
  /* GraphProto.metadata_props (field 16) */
  pb_str(&e, 1, "graph-key");
  free(graph_meta.p);
  memset(&graph_meta, 0, sizeof graph_meta);
  pb_bytes(&graph_meta, 16, e.p, e.n);
  free(e.p);
  pb_put(&g, graph_meta.p, graph_meta.n);
  pb_int(&m, 1, 10);
  pb_str(&m, 2, "hand");
  pb_msg(&m, 7, &g);
  pb_int(&op, 2, 21);
  pb_msg(&m, 8, &op);
  free(top_unknown.p);
  memset(&top_unknown, 0, sizeof top_unknown);
  pb_int(&top_unknown, 99, 12345); /* a field number no ONNX version uses */
  pb_put(&m, top_unknown.p, top_unknown.n);
  return m;
}

TEST(versions) {
  CHECK_STR(onnxslim_version_string(), ONNXSLIM_VERSION_STRING);
  CHECK(onnxslim_version_number() == ONNXSLIM_VERSION_NUMBER);
  char v[32];
  snprintf(v, sizeof v, "%d.%d.%d", ONNXSLIM_VERSION_MAJOR, ONNXSLIM_VERSION_MINOR,
           ONNXSLIM_VERSION_PATCH);
  CHECK_STR(onnxslim_version_string(), v);
}

/* The error codes are an enum now; their values never change. */
_Static_assert(ONNXSLIM_OK == 0 && ONNXSLIM_EINVAL == -1 && ONNXSLIM_ENOMEM == -2 &&
                   ONNXSLIM_EIO == -3 && ONNXSLIM_EPARSE == -4 && ONNXSLIM_ELIMIT == -5 &&
                   ONNXSLIM_ENOTFOUND == -6 && ONNXSLIM_ERANGE == -7 &&
                   ONNXSLIM_EUNSUPPORTED == -8 && ONNXSLIM_EBUFSIZE == -9 &&
                   ONNXSLIM_EMODEL == -10 && ONNXSLIM_ETYPE == -11 && ONNXSLIM_ENOSPC == -12 &&
                   ONNXSLIM_ECANCELED == -13,
               "error code values");

TEST(error_code_enum) {
  /* the codes are enumerators of onnxslim_error_code, and an int holds them */
  onnxslim_error_code c = ONNXSLIM_ENOSPC;
  int as_int = c;
  CHECK(as_int == -12);
  CHECK(onnxslim_model_open(NULL, BERT, NULL) == (int)ONNXSLIM_EINVAL);
}

TEST(dtype_names) {
  CHECK_STR(onnxslim_dtype_name(ONNXSLIM_DTYPE_FLOAT), "FLOAT");
  CHECK_STR(onnxslim_dtype_name(ONNXSLIM_DTYPE_BFLOAT16), "BFLOAT16");
  CHECK_STR(onnxslim_dtype_name(ONNXSLIM_DTYPE_UNDEFINED), "UNDEFINED");
  CHECK_STR(onnxslim_dtype_name(ONNXSLIM_DTYPE_FLOAT4E2M1), "FLOAT4E2M1");
  /* codes this library does not know: "UNKNOWN", never NULL, no error */
  static const int32_t unknown[] = {-1, ONNXSLIM_DTYPE_FLOAT4E2M1 + 1, 999, INT32_MAX, INT32_MIN};
  onnxslim_error_clear();
  for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++)
    CHECK_STR(onnxslim_dtype_name(unknown[i]), "UNKNOWN");
  CHECK(onnxslim_error_last_code() == 0);
}

TEST(errors) {
  onnxslim_error_clear();
  CHECK_STR(onnxslim_error_last(), "");
  CHECK(onnxslim_error_last_code() == 0);
  for (int c = 0; c >= -13; c--) {
    CHECK(onnxslim_strerror(c) != NULL);
    CHECK(strcmp(onnxslim_strerror(c), "unknown error") != 0);
  }
  CHECK_STR(onnxslim_strerror(-999), "unknown error");
  onnxslim_model *m = (onnxslim_model *)1;
  CHECK(onnxslim_model_open(&m, NULL, NULL) == ONNXSLIM_EINVAL);
  CHECK(m == NULL);
  CHECK(onnxslim_model_open(NULL, BERT, NULL) == ONNXSLIM_EINVAL);
  CHECK(onnxslim_error_last()[0] != '\0');
  CHECK(onnxslim_model_open(&m, "/nonexistent/model.onnx", NULL) == ONNXSLIM_EIO);
  CHECK(strstr(onnxslim_error_last(), "/nonexistent/model.onnx") != NULL);
  CHECK(onnxslim_error_last_code() == ONNXSLIM_EIO);
  CHECK(onnxslim_model_open(&m, "test", NULL) == ONNXSLIM_EIO); /* a directory */
  onnxslim_load_options o = ONNXSLIM_LOAD_OPTIONS_INIT;
  o.flags = 4;
  CHECK(onnxslim_model_open(&m, BERT, &o) == ONNXSLIM_EINVAL);
  o.flags = 0;
  o.version = 99;
  CHECK(onnxslim_model_open(&m, BERT, &o) == ONNXSLIM_EINVAL);
  /* an unknown version names the versions this library knows */
  CHECK(strstr(onnxslim_error_last(), "unknown load options version 99") != NULL);
  CHECK(strstr(onnxslim_error_last(), "knows versions 1 to 4") != NULL);
  CHECK(onnxslim_load_options_init(&o, 99) == ONNXSLIM_EINVAL);
  CHECK(strstr(onnxslim_error_last(), "knows versions 1 to 4") != NULL);
  {
    onnxslim_convert_options co;
    CHECK(onnxslim_convert_options_init(&co, 7) == ONNXSLIM_EINVAL);
    CHECK(strstr(onnxslim_error_last(),
                 "unknown convert options version 7 (this library knows "
                 "versions 1 to 5)") != NULL);
    onnxslim_convert_stats cs;
    CHECK(onnxslim_convert_stats_init(&cs, 0) == ONNXSLIM_EINVAL);
    CHECK(strstr(onnxslim_error_last(), "knows version 1 only") != NULL);
  }
  CHECK_OK(onnxslim_load_options_init(&o, ONNXSLIM_LOAD_OPTIONS_VERSION));
  CHECK(o.version == ONNXSLIM_LOAD_OPTIONS_VERSION && o.flags == 0 && o.max_depth == 0);
  onnxslim_model_free(NULL);
  /* NULL and wrong-kind handles are refused, not crashed on */
  CHECK(onnxslim_graph_name(NULL) == NULL);
  CHECK(onnxslim_error_last_code() == ONNXSLIM_EINVAL);
  CHECK(onnxslim_node_input_count(NULL) == 0);
  CHECK(onnxslim_model_graph(NULL) == NULL);
  CHECK_OK(onnxslim_model_open(&m, BERT, NULL));
  onnxslim_graph *g = onnxslim_model_graph(m);
  CHECK(onnxslim_node_name((const onnxslim_node *)g) == NULL);
  CHECK(strstr(onnxslim_error_last(), "GraphProto") != NULL);
  CHECK(onnxslim_graph_node(g, 100000) == NULL);
  CHECK(onnxslim_error_last_code() == ONNXSLIM_ERANGE);
  CHECK(onnxslim_graph_find_node(g, "no such node") == NULL);
  CHECK(onnxslim_error_last_code() == ONNXSLIM_ENOTFOUND);
  onnxslim_model_free(m);
}

TEST(load_buffer_borrow_is_zero_copy) {
  size_t n;
  uint8_t *bytes = slurp(BERT, &n);
  CHECK(bytes != NULL);
  if (!bytes) return;
  onnxslim_model *m = NULL;
  CHECK_OK(onnxslim_model_from_buffer(&m, bytes, n, ONNXSLIM_BORROW, NULL));
  onnxslim_graph *g = onnxslim_model_graph(m);
  onnxslim_tensor *t =
      onnxslim_graph_find_initializer(g, "roberta.embeddings.word_embeddings.weight");
  CHECK(t != NULL);
  const void *data = NULL;
  size_t size = 0;
  CHECK_OK(onnxslim_tensor_data(t, &data, &size));
  CHECK(size == 100 * 16 * 4);
  /* the data pointer points into the caller's buffer: nothing was copied */
  CHECK((const uint8_t *)data >= bytes && (const uint8_t *)data + size <= bytes + n);
  onnxslim_model_free(m);

  CHECK_OK(onnxslim_model_from_buffer(&m, bytes, n, ONNXSLIM_COPY, NULL));
  memset(bytes, 0, n); /* the copy is independent of the caller's bytes */
  g = onnxslim_model_graph(m);
  t = onnxslim_graph_find_initializer(g, "roberta.embeddings.word_embeddings.weight");
  CHECK_OK(onnxslim_tensor_data(t, &data, &size));
  CHECK(!((const uint8_t *)data >= bytes && (const uint8_t *)data < bytes + n));
  CHECK_STR(onnxslim_model_producer_name(m), "libonnxslim-test");
  onnxslim_model_free(m);
  CHECK(onnxslim_model_from_buffer(&m, bytes, n, 8, NULL) == ONNXSLIM_EINVAL);
  CHECK(onnxslim_model_from_buffer(&m, NULL, 5, 0, NULL) == ONNXSLIM_EINVAL);
  CHECK(onnxslim_model_from_buffer(&m, NULL, 0, 0, NULL) == ONNXSLIM_EMODEL); /* no graph */
  free(bytes);
}

TEST(read_bert) {
  onnxslim_model *m = NULL;
  CHECK_OK(onnxslim_model_open(&m, BERT, NULL));
  if (!m) return;
  CHECK(onnxslim_model_ir_version(m) == 8);
  CHECK(onnxslim_model_opset_count(m) >= 1);
  const char *dom = NULL;
  int64_t ver = 0;
  CHECK_OK(onnxslim_model_opset(m, 0, &dom, &ver));
  CHECK_STR(dom, "");
  CHECK(ver == 17);
  CHECK(onnxslim_model_opset(m, 99, &dom, &ver) == ONNXSLIM_ERANGE);
  CHECK(onnxslim_model_metadata_count(m) >= 1);
  const char *k = NULL, *v = NULL;
  CHECK_OK(onnxslim_model_metadata(m, 0, &k, &v));
  CHECK(k && k[0]);
  CHECK(onnxslim_model_doc_string(m)[0] != '\0');
  onnxslim_graph *g = onnxslim_model_graph(m);
  CHECK(onnxslim_graph_model(g) == m);
  CHECK(onnxslim_graph_parent_node(g) == NULL);
  CHECK(onnxslim_graph_input_count(g) == 2);
  onnxslim_value_info *in = onnxslim_graph_input(g, 0);
  CHECK_STR(onnxslim_value_info_name(in), "input_ids");
  onnxslim_type *ty = onnxslim_value_info_type(in);
  CHECK(onnxslim_type_kind(ty) == ONNXSLIM_TYPE_TENSOR);
  CHECK(onnxslim_type_dtype(ty) == ONNXSLIM_DTYPE_INT64);
  CHECK(onnxslim_type_has_shape(ty) == 1);
  CHECK(onnxslim_type_rank(ty) == 2);
  int64_t dv = -1;
  const char *param = NULL;
  CHECK(onnxslim_type_dim(ty, 0, &dv, &param) == ONNXSLIM_DIM_PARAM);
  CHECK_STR(param, "batch");
  CHECK(onnxslim_type_dim(ty, 2, &dv, &param) == ONNXSLIM_ERANGE);
  const char *table = "roberta.embeddings.word_embeddings.weight";
  onnxslim_tensor *t = onnxslim_graph_find_initializer(g, table);
  CHECK_STR(onnxslim_tensor_name(t), table);
  CHECK(onnxslim_tensor_dtype(t) == ONNXSLIM_DTYPE_FLOAT);
  CHECK(onnxslim_tensor_rank(t) == 2);
  CHECK(onnxslim_tensor_dim(t, 0) == 100 && onnxslim_tensor_dim(t, 1) == 16);
  CHECK(onnxslim_tensor_dim(t, 2) == -1);
  CHECK(onnxslim_tensor_element_count(t) == 1600);
  uint64_t bs = 0;
  CHECK_OK(onnxslim_tensor_byte_size(t, &bs));
  CHECK(bs == 6400);
  CHECK(onnxslim_tensor_storage(t) == ONNXSLIM_STORAGE_RAW);
  float first[2];
  CHECK_OK(onnxslim_tensor_read(t, 0, first, sizeof first));
  CHECK(first[0] != 0.0f || first[1] != 0.0f);
  CHECK(onnxslim_tensor_read(t, 6399, first, 2) == ONNXSLIM_ERANGE);
  /* the table has exactly one consumer, a Gather, which produces the
   * embedding output */
  CHECK(onnxslim_graph_consumer_count(g, table) == 1);
  onnxslim_node *gather = onnxslim_graph_consumer(g, table, 0);
  CHECK_STR(onnxslim_node_op_type(gather), "Gather");
  CHECK_STR(onnxslim_node_input(gather, 0), table);
  CHECK(onnxslim_node_graph(gather) == g);
  const char *out = onnxslim_node_output(gather, 0);
  CHECK_STR(out, "/embeddings/word_embeddings/Gather_output_0");
  CHECK(onnxslim_graph_producer(g, out) == gather);
  CHECK(onnxslim_graph_consumer_count(g, out) >= 1);
  CHECK(onnxslim_graph_find_value_info(g, out) != NULL);
  CHECK(onnxslim_graph_find_node(g, onnxslim_node_name(gather)) == gather);
  CHECK(onnxslim_graph_consumer(g, table, 1) == NULL);
  CHECK(onnxslim_error_last_code() == ONNXSLIM_ERANGE);
  /* attributes: every LayerNormalization has a float epsilon */
  size_t nln = 0;
  for (size_t i = 0; i < onnxslim_graph_node_count(g); i++) {
    onnxslim_node *n = onnxslim_graph_node(g, i);
    if (strcmp(onnxslim_node_op_type(n), "LayerNormalization") != 0) continue;
    nln++;
    onnxslim_attr *a = onnxslim_node_find_attr(n, "epsilon");
    float eps = 0;
    CHECK(onnxslim_attr_type(a) == ONNXSLIM_ATTR_FLOAT);
    CHECK_OK(onnxslim_attr_float(a, &eps));
    CHECK(eps > 0 && eps < 1e-3f);
    int64_t iv;
    CHECK(onnxslim_attr_int(a, &iv) == ONNXSLIM_ETYPE);
  }
  CHECK(nln >= 2);
  onnxslim_model_free(m);
}

/* Finds the first node with op_type op in any testdata model under dir. */
static onnxslim_model *open_testdata(const char *rel) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s/model.onnx", TESTDATA, rel);
  onnxslim_model *m = NULL;
  if (onnxslim_model_open(&m, path, NULL) != 0) return NULL;
  return m;
}

TEST(attributes_and_subgraphs) {
  onnxslim_model *m = open_testdata("node/test_if");
  CHECK(m != NULL);
  if (!m) return;
  onnxslim_graph *g = onnxslim_model_graph(m);
  onnxslim_node *n = onnxslim_graph_node(g, 0);
  CHECK_STR(onnxslim_node_op_type(n), "If");
  onnxslim_attr *a = onnxslim_node_find_attr(n, "then_branch");
  CHECK(onnxslim_attr_type(a) == ONNXSLIM_ATTR_GRAPH);
  onnxslim_graph *sub = onnxslim_attr_graph(a);
  CHECK(sub != NULL);
  CHECK(onnxslim_graph_parent_node(sub) == n);
  /* the node's subgraphs, in attribute order */
  CHECK(onnxslim_node_subgraph_count(n) == 2);
  CHECK(onnxslim_node_subgraph(n, 0) == onnxslim_attr_graph(onnxslim_node_attr(n, 0)));
  CHECK(onnxslim_node_subgraph(n, 1) == onnxslim_attr_graph(onnxslim_node_attr(n, 1)));
  CHECK(onnxslim_node_subgraph(n, 0) != onnxslim_node_subgraph(n, 1));
  CHECK(onnxslim_node_subgraph(n, 2) == NULL);
  CHECK(onnxslim_error_last_code() == ONNXSLIM_ERANGE);
  CHECK(onnxslim_node_subgraph_count(onnxslim_graph_node(sub, 0)) == 0);
  CHECK(onnxslim_graph_node_count(sub) == 1);
  CHECK(onnxslim_graph_output_count(sub) == 1);
  onnxslim_node *c = onnxslim_graph_node(sub, 0);
  CHECK_STR(onnxslim_node_op_type(c), "Constant");
  onnxslim_tensor *val = onnxslim_attr_tensor(onnxslim_node_find_attr(c, "value"));
  CHECK(val != NULL);
  CHECK(onnxslim_tensor_element_count(val) == 5);
  CHECK(onnxslim_attr_graph(onnxslim_node_find_attr(c, "value")) == NULL);
  CHECK(onnxslim_error_last_code() == ONNXSLIM_ETYPE);
  onnxslim_model_free(m);

  m = open_testdata("node/test_transpose_all_permutations_1");
  CHECK(m != NULL);
  if (m) {
    n = onnxslim_graph_node(onnxslim_model_graph(m), 0);
    a = onnxslim_node_find_attr(n, "perm");
    const int64_t *perm = NULL;
    size_t np = 0;
    CHECK_OK(onnxslim_attr_ints(a, &perm, &np));
    CHECK(np == 3 && onnxslim_attr_list_count(a) == 3);
    CHECK(np == 3 && perm[0] == 0 && perm[1] == 2 && perm[2] == 1);
    onnxslim_model_free(m);
  }
  /* an outer value captured by a Loop body makes the Loop its consumer */
  m = open_testdata("node/test_range_float_type_positive_delta_expanded");
  CHECK(m != NULL);
  if (m) {
    g = onnxslim_model_graph(m);
    onnxslim_node *loop = NULL;
    for (size_t i = 0; i < onnxslim_graph_node_count(g); i++)
      if (strcmp(onnxslim_node_op_type(onnxslim_graph_node(g, i)), "Loop") == 0)
        loop = onnxslim_graph_node(g, i);
    CHECK(loop != NULL);
    /* the body reads `delta` from the outer scope without listing it */
    int found = 0;
    for (size_t i = 0; loop && i < onnxslim_graph_consumer_count(g, "delta"); i++)
      found |= onnxslim_graph_consumer(g, "delta", i) == loop;
    CHECK(found);
    onnxslim_model_free(m);
  }
}

TEST(unknown_fields_survive_load_edit_save) {
  pbuf model = build_unknown_model();
  onnxslim_model *m = NULL;
  CHECK_OK(onnxslim_model_from_buffer(&m, model.p, model.n, ONNXSLIM_COPY, NULL));
  if (!m) return;
  /* unedited: byte-identical */
  size_t need = 0;
  CHECK(onnxslim_save_buffer(m, NULL, 0, &need) == ONNXSLIM_EBUFSIZE);
  CHECK(need == model.n);
  uint8_t *out = malloc(need + 16);
  size_t got = 0;
  CHECK(onnxslim_save_buffer(m, out, need - 1, &got) == ONNXSLIM_EBUFSIZE);
  CHECK_OK(onnxslim_save_buffer(m, out, need + 16, &got));
  CHECK(got == model.n && memcmp(out, model.p, got) == 0);
  uint64_t sz = 0;
  CHECK_OK(onnxslim_save_size(m, &sz));
  CHECK(sz == model.n);
  /* newer data type is reported as stored */
  onnxslim_graph *g = onnxslim_model_graph(m);
  onnxslim_tensor *w = onnxslim_graph_find_initializer(g, "w");
  CHECK(onnxslim_tensor_dtype(w) == 23);
  uint64_t bs = 0;
  CHECK_OK(onnxslim_tensor_byte_size(w, &bs));
  CHECK(bs == 2); /* 3 four-bit values round up to 2 bytes */
  CHECK(onnxslim_type_dtype(onnxslim_value_info_type(onnxslim_graph_input(g, 0))) == 23);
  /* edit the node holding the unknown field, and the model */
  onnxslim_node *n0 = onnxslim_graph_node(g, 0);
  const char *old_name = onnxslim_node_name(n0);
  CHECK_OK(onnxslim_node_set_name(n0, "renamed_node"));
  CHECK_STR(old_name, "n0"); /* earlier strings stay valid */
  CHECK_STR(onnxslim_node_name(n0), "renamed_node");
  CHECK(onnxslim_graph_find_node(g, "renamed_node") == n0);
  CHECK(onnxslim_graph_find_node(g, "n0") == NULL);
  CHECK_OK(onnxslim_model_set_producer(m, "libonnxslim-edit", "9.9"));
  free(out);
  CHECK(onnxslim_save_buffer(m, NULL, 0, &need) == ONNXSLIM_EBUFSIZE);
  out = malloc(need);
  CHECK_OK(onnxslim_save_buffer(m, out, need, &got));
  /* the unknown fields are still there, byte for byte */
  CHECK(pb_find(out, got, node_meta.p, node_meta.n) >= 0);
  CHECK(pb_find(out, got, graph_meta.p, graph_meta.n) >= 0);
  CHECK(pb_find(out, got, top_unknown.p, top_unknown.n) >= 0);
  /* an untouched sibling message is spliced unchanged */
  CHECK(pb_find(out, got, tensor_enc.p, tensor_enc.n) >= 0);
  /* the edited node keeps its field order: name, then metadata, then op_type */
  long pname = pb_find(out, got, "renamed_node", 12);
  long pmeta = pb_find(out, got, node_meta.p, node_meta.n);
  long pop = pb_find(out, got, "Identity", 8);
  CHECK(pname >= 0 && pname < pmeta && pmeta < pop);
  onnxslim_model *m2 = NULL;
  CHECK_OK(onnxslim_model_from_buffer(&m2, out, got, ONNXSLIM_BORROW, NULL));
  if (m2) {
    onnxslim_graph *g2 = onnxslim_model_graph(m2);
    CHECK_STR(onnxslim_node_name(onnxslim_graph_node(g2, 0)), "renamed_node");
    CHECK_STR(onnxslim_model_producer_name(m2), "libonnxslim-edit");
    CHECK_STR(onnxslim_model_producer_version(m2), "9.9");
    CHECK(onnxslim_tensor_dtype(onnxslim_graph_find_initializer(g2, "w")) == 23);
    /* saving the reloaded model reproduces the edited bytes */
    uint8_t *again = malloc(got);
    size_t got2 = 0;
    CHECK_OK(onnxslim_save_buffer(m2, again, got, &got2));
    CHECK(got2 == got && memcmp(again, out, got) == 0);
    free(again);
    onnxslim_model_free(m2);
  }
  free(out);
  onnxslim_model_free(m);
  free(model.p);
}

TEST(error_messages_say_where) {
  pbuf model = build_unknown_model();
  /* cut inside the second node: the message names graph.node[1] */
  onnxslim_model *m = NULL;
  long at = pb_find(model.p, model.n, "Add", 3);
  CHECK(at > 0);
  int rc = onnxslim_model_from_buffer(&m, model.p, model.n, 0, NULL);
  CHECK(rc == 0);
  onnxslim_model_free(m);
  m = NULL;
  /* make the op_type length run past the node's end */
  model.p[at - 1] = 100;
  rc = onnxslim_model_from_buffer(&m, model.p, model.n, 0, NULL);
  CHECK(rc == ONNXSLIM_EPARSE);
  CHECK(m == NULL);
  CHECK(strstr(onnxslim_error_last(), "graph.node[1]") != NULL);
  CHECK(strstr(onnxslim_error_last(), "truncated length-delimited field 4") != NULL);
  char expect[64];
  snprintf(expect, sizeof expect, "at byte %ld ", at - 2);
  CHECK(strstr(onnxslim_error_last(), expect) != NULL);
  /* nesting limit from the load options */
  model.p[at - 1] = 3;
  onnxslim_load_options o = ONNXSLIM_LOAD_OPTIONS_INIT;
  o.max_depth = 2;
  rc = onnxslim_model_from_buffer(&m, model.p, model.n, 0, &o);
  CHECK(rc == ONNXSLIM_ELIMIT);
  CHECK(strstr(onnxslim_error_last(), "nested deeper than 2") != NULL);
  o.max_depth = 10;
  CHECK_OK(onnxslim_model_from_buffer(&m, model.p, model.n, 0, &o));
  onnxslim_model_free(m);
  free(model.p);
}

int main(int argc, char **argv) {
  t_args(argc, argv);
  RUN(versions);
  RUN(errors);
  RUN(error_code_enum);
  RUN(dtype_names);
  RUN(load_buffer_borrow_is_zero_copy);
  RUN(read_bert);
  RUN(attributes_and_subgraphs);
  RUN(unknown_fields_survive_load_edit_save);
  RUN(error_messages_say_where);
  free(node_meta.p);
  free(graph_meta.p);
  free(top_unknown.p);
  free(tensor_enc.p);
  return t_done();
}
