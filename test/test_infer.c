/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/* Unit tests of type and shape inference (infer.h) on small graphs built
 * with the edit API, and on bert-tiny with its value_info removed (what
 * the exporter wrote is the expectation). Written types are proven by
 * saving and loading the model again. Run from the repository root. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <onnxslim.h>

#define ONNXSLIM_TEST_EDIT_HELPERS
#include "util.h"

#include "pbuild.h"
#include "t.h"

#define F32 ONNXSLIM_DTYPE_FLOAT
#define I64 ONNXSLIM_DTYPE_INT64

/* An empty graph at the given opset of the default domain. */
static onnxslim_model *empty_model(int64_t opset) {
  pbuf g = {0};
  pb_str(&g, 2, "g");
  pbuf m = pb_model(&g);
  onnxslim_model *r = from_pbuf(&m);
  if (r && onnxslim_model_set_opset(r, "", opset) != 0) {
    onnxslim_model_free(r);
    return NULL;
  }
  return r;
}

/* A graph input `name`: dtype and dims, a dim < 0 taking the symbol of
 * params[i]. */
static void input(onnxslim_model *m, const char *name, int32_t dtype, size_t rank,
                  const int64_t *dims, const char *const *params) {
  onnxslim_value_info *vi = NULL;
  CHECK_OK(onnxslim_graph_add_input(onnxslim_model_graph(m), name, &vi));
  CHECK_OK(onnxslim_value_info_set_tensor_type(vi, dtype, dims, params, rank));
}

static void ints(onnxslim_model *m, const char *name, size_t n, const int64_t *v, int scalar) {
  int64_t d = (int64_t)n;
  CHECK_OK(onnxslim_graph_add_initializer(onnxslim_model_graph(m), name, I64, &d, scalar ? 0 : 1, v,
                                          n * sizeof *v, ONNXSLIM_COPY, NULL));
}

static onnxslim_node *node(onnxslim_model *m, const char *op, const char *const *in, size_t nin,
                           const char *const *out, size_t nout) {
  onnxslim_node *n = NULL;
  CHECK_OK(onnxslim_graph_add_node(onnxslim_model_graph(m), SIZE_MAX, op, NULL, NULL, in, nin, out,
                                   nout, &n));
  return n;
}

/* The type of value `name` in g as text, e.g. "1[batch,3,?]", "1" without a
 * shape, "" when g has no type for it. */
static const char *type_text(const onnxslim_graph *g, const char *name, char *buf, size_t cap) {
  buf[0] = 0;
  onnxslim_value_info *vi = onnxslim_graph_find_value_info(g, name);
  onnxslim_type *t = vi ? onnxslim_value_info_type(vi) : NULL;
  if (!t) return buf;
  size_t k = (size_t)snprintf(buf, cap, "%d", (int)onnxslim_type_dtype(t));
  if (!onnxslim_type_has_shape(t)) return buf;
  size_t r = onnxslim_type_rank(t);
  k += (size_t)snprintf(buf + k, cap - k, "[");
  for (size_t i = 0; i < r && k < cap; i++) {
    int64_t v = 0;
    const char *p = NULL;
    int kind = onnxslim_type_dim(t, i, &v, &p);
    if (kind == ONNXSLIM_DIM_VALUE)
      k += (size_t)snprintf(buf + k, cap - k, "%s%lld", i ? "," : "", (long long)v);
    else
      k += (size_t)snprintf(buf + k, cap - k, "%s%s", i ? "," : "",
                            kind == ONNXSLIM_DIM_PARAM ? p : "?");
  }
  if (k < cap) snprintf(buf + k, cap - k, "]");
  return buf;
}

/* The same from a report entry. */
static const char *report_text(const onnxslim_infer_report *r, const char *name, char *buf,
                               size_t cap) {
  buf[0] = 0;
  for (size_t i = 0; i < onnxslim_infer_report_count(r); i++) {
    if (strcmp(onnxslim_infer_report_name(r, i), name) != 0) continue;
    size_t k = (size_t)snprintf(buf, cap, "%d", (int)onnxslim_infer_report_dtype(r, i));
    int64_t rank = onnxslim_infer_report_rank(r, i);
    if (rank < 0) return buf;
    k += (size_t)snprintf(buf + k, cap - k, "[");
    for (int64_t j = 0; j < rank && k < cap; j++) {
      int64_t v = 0;
      const char *p = NULL;
      int kind = onnxslim_infer_report_dim(r, i, (size_t)j, &v, &p);
      if (kind == ONNXSLIM_DIM_VALUE)
        k += (size_t)snprintf(buf + k, cap - k, "%s%lld", j ? "," : "", (long long)v);
      else
        k += (size_t)snprintf(buf + k, cap - k, "%s%s", j ? "," : "",
                              kind == ONNXSLIM_DIM_PARAM ? p : "?");
    }
    if (k < cap) snprintf(buf + k, cap - k, "]");
    return buf;
  }
  return buf;
}

/* Infers with the default options and reloads: the written types. */
static onnxslim_model *infer_reload(onnxslim_model *m) {
  CHECK_OK(onnxslim_infer_shapes(NULL, m, NULL));
  return reload(m);
}

#define EXPECT_TYPE(g, name, want)                                                \
  do {                                                                            \
    char buf_[256];                                                               \
    const char *got_ = type_text(g, name, buf_, 256);                             \
    if (strcmp(got_, want) != 0) fprintf(stderr, "  %s: got '%s'\n", name, got_); \
    CHECK(strcmp(got_, want) == 0);                                               \
  } while (0)

TEST(broadcast_symbolic) {
  onnxslim_model *m = empty_model(17);
  if (!m) {
    CHECK(0);
    return;
  }
  input(m, "x", F32, 3, (int64_t[]){-1, 1, 4}, L("batch", NULL, NULL));
  input(m, "y", F32, 2, (int64_t[]){3, 1}, NULL);
  input(m, "c", ONNXSLIM_DTYPE_BOOL, 1, (int64_t[]){4}, NULL);
  node(m, "Add", L("x", "y"), 2, L("z"), 1);
  node(m, "Relu", L("z"), 1, L("r"), 1);
  node(m, "Equal", L("r", "x"), 2, L("e"), 1);
  node(m, "Where", L("c", "r", "x"), 3, L("w"), 1);
  onnxslim_model *r = infer_reload(m);
  onnxslim_graph *g = r ? onnxslim_model_graph(r) : NULL;
  if (g) {
    EXPECT_TYPE(g, "z", "1[batch,3,4]");
    EXPECT_TYPE(g, "r", "1[batch,3,4]");
    EXPECT_TYPE(g, "e", "9[batch,3,4]"); /* BOOL from the schema's fixed output type */
    EXPECT_TYPE(g, "w", "1[batch,3,4]");
  }
  onnxslim_model_free(r);
  onnxslim_model_free(m);
}

TEST(matmul_gemm_transpose) {
  onnxslim_model *m = empty_model(17);
  if (!m) {
    CHECK(0);
    return;
  }
  input(m, "a", F32, 3, (int64_t[]){-1, -1, 16}, L("batch", "seq", NULL));
  input(m, "w", F32, 2, (int64_t[]){16, 32}, NULL);
  input(m, "v", F32, 1, (int64_t[]){16}, NULL);
  input(m, "p", F32, 2, (int64_t[]){5, 7}, NULL);
  input(m, "q", F32, 2, (int64_t[]){9, 7}, NULL);
  node(m, "MatMul", L("a", "w"), 2, L("mw"), 1);
  node(m, "MatMul", L("a", "v"), 2, L("mv"), 1);
  node(m, "Transpose", L("mw"), 1, L("t"), 1);
  onnxslim_node *gm = node(m, "Gemm", L("p", "q"), 2, L("gq"), 1);
  CHECK_OK(onnxslim_node_set_attr_int(gm, "transB", 1));
  onnxslim_node *tp = node(m, "Transpose", L("a"), 1, L("tp"), 1);
  CHECK_OK(onnxslim_node_set_attr_ints(tp, "perm", (int64_t[]){0, 2, 1}, 3));
  onnxslim_model *r = infer_reload(m);
  onnxslim_graph *g = r ? onnxslim_model_graph(r) : NULL;
  if (g) {
    EXPECT_TYPE(g, "mw", "1[batch,seq,32]");
    EXPECT_TYPE(g, "mv", "1[batch,seq]");
    EXPECT_TYPE(g, "t", "1[32,seq,batch]");
    EXPECT_TYPE(g, "gq", "1[5,9]");
    EXPECT_TYPE(g, "tp", "1[batch,16,seq]");
  }
  onnxslim_model_free(r);
  onnxslim_model_free(m);
}

/* What a BERT export holds: the heads' shape computed from the input's. */
static onnxslim_model *bert_chain(void) {
  onnxslim_model *m = empty_model(17);
  if (!m) return NULL;
  input(m, "x", F32, 3, (int64_t[]){-1, -1, 16}, L("batch", "seq", NULL));
  ints(m, "i0", 1, (int64_t[]){0}, 1);
  ints(m, "i1", 1, (int64_t[]){1}, 1);
  ints(m, "ax", 1, (int64_t[]){0}, 0);
  ints(m, "heads", 2, (int64_t[]){2, 8}, 0);
  node(m, "Shape", L("x"), 1, L("s"), 1);
  node(m, "Gather", L("s", "i0"), 2, L("b"), 1);
  node(m, "Gather", L("s", "i1"), 2, L("n"), 1);
  node(m, "Unsqueeze", L("b", "ax"), 2, L("ub"), 1);
  node(m, "Unsqueeze", L("n", "ax"), 2, L("un"), 1);
  onnxslim_node *c = node(m, "Concat", L("ub", "un", "heads"), 3, L("shape"), 1);
  CHECK_OK(onnxslim_node_set_attr_int(c, "axis", 0));
  node(m, "Reshape", L("x", "shape"), 2, L("y"), 1);
  onnxslim_value_info *vi = NULL;
  CHECK_OK(onnxslim_graph_add_output(onnxslim_model_graph(m), "y", &vi));
  return m;
}

TEST(data_propagation_reshape) {
  onnxslim_model *m = bert_chain();
  if (!m) {
    CHECK(0);
    return;
  }
  onnxslim_model *r = infer_reload(m);
  onnxslim_graph *g = r ? onnxslim_model_graph(r) : NULL;
  if (g) {
    EXPECT_TYPE(g, "s", "7[3]");
    EXPECT_TYPE(g, "b", "7[]");
    EXPECT_TYPE(g, "ub", "7[1]");
    EXPECT_TYPE(g, "shape", "7[4]");
    EXPECT_TYPE(g, "y", "1[batch,seq,2,8]"); /* a graph output: completed in place */
    CHECK(onnxslim_graph_output_count(g) == 1);
  }
  onnxslim_model_free(r);
  onnxslim_model_free(m);
  /* without data propagation the chain's values are not followed */
  m = bert_chain();
  if (!m) {
    CHECK(0);
    return;
  }
  onnxslim_infer_options o;
  CHECK_OK(onnxslim_infer_options_init(&o, ONNXSLIM_INFER_OPTIONS_VERSION));
  o.flags = ONNXSLIM_INFER_NO_DATA_PROP | ONNXSLIM_INFER_DRY_RUN;
  onnxslim_infer_report *rep = NULL;
  CHECK_OK(onnxslim_infer_shapes(&rep, m, &o));
  char buf[256];
  CHECK_STR(report_text(rep, "shape", buf, sizeof buf), "7[4]");
  CHECK(strstr(report_text(rep, "y", buf, sizeof buf), "batch") == NULL);
  onnxslim_infer_report_free(rep);
  onnxslim_model_free(m);
}

TEST(reshape_zero_minus_one) {
  onnxslim_model *m = empty_model(17);
  if (!m) {
    CHECK(0);
    return;
  }
  input(m, "x", F32, 3, (int64_t[]){2, 3, 4}, NULL);
  input(m, "s", F32, 3, (int64_t[]){-1, 3, 4}, L("n", NULL, NULL));
  ints(m, "k", 2, (int64_t[]){0, -1}, 0);
  ints(m, "k2", 3, (int64_t[]){-1, 2, 2}, 0);
  node(m, "Reshape", L("x", "k"), 2, L("y"), 1);
  node(m, "Reshape", L("x", "k2"), 2, L("y2"), 1);
  node(m, "Reshape", L("s", "k"), 2, L("ys"), 1); /* -1 over a symbolic input: unknown */
  node(m, "Flatten", L("x"), 1, L("f"), 1);
  /* an initializer that is also a graph input is a default the caller may
   * override: its values are not followed */
  ints(m, "kin", 2, (int64_t[]){0, -1}, 0);
  input(m, "kin", I64, 1, (int64_t[]){2}, NULL);
  node(m, "Reshape", L("x", "kin"), 2, L("yin"), 1);
  onnxslim_model *r = infer_reload(m);
  onnxslim_graph *g = r ? onnxslim_model_graph(r) : NULL;
  if (g) {
    EXPECT_TYPE(g, "y", "1[2,12]");
    EXPECT_TYPE(g, "y2", "1[6,2,2]");
    EXPECT_TYPE(g, "ys", "1[n,?]");
    EXPECT_TYPE(g, "f", "1[2,12]");
    EXPECT_TYPE(g, "yin", "1[?,?]"); /* the rank only, from the shape's length */
  }
  onnxslim_model_free(r);
  onnxslim_model_free(m);
}

TEST(slice_squeeze_reduce) {
  onnxslim_model *m = empty_model(13);
  if (!m) {
    CHECK(0);
    return;
  }
  input(m, "x", F32, 3, (int64_t[]){-1, 10, 1}, L("b", NULL, NULL));
  ints(m, "st", 1, (int64_t[]){1}, 0);
  ints(m, "en", 1, (int64_t[]){INT64_MAX}, 0);
  ints(m, "ax", 1, (int64_t[]){1}, 0);
  ints(m, "stp", 1, (int64_t[]){3}, 0);
  ints(m, "a2", 1, (int64_t[]){-1}, 0);
  node(m, "Slice", L("x", "st", "en", "ax", "stp"), 5, L("sl"), 1); /* 1,4,7 */
  node(m, "Squeeze", L("x", "a2"), 2, L("sq"), 1);
  node(m, "ReduceSum", L("x", "ax"), 2, L("rs"), 1);
  onnxslim_node *rm = node(m, "ReduceMean", L("x"), 1, L("rm"), 1);
  CHECK_OK(onnxslim_node_set_attr_ints(rm, "axes", (int64_t[]){0, 2}, 2));
  CHECK_OK(onnxslim_node_set_attr_int(rm, "keepdims", 0));
  onnxslim_node *u = node(m, "Unsqueeze", L("sq", "ax"), 2, L("us"), 1);
  (void)u;
  /* A negative step with an end past the axis: onnx clamps it (an empty
   * slice), onnxruntime reads INT64_MAX as "through the first element" (3
   * of the 10 here): unknown. With an end inside the axis both agree. */
  ints(m, "st2", 1, (int64_t[]){-8}, 0);
  ints(m, "en2", 1, (int64_t[]){INT64_MAX}, 0);
  ints(m, "en3", 1, (int64_t[]){0}, 0);
  ints(m, "neg", 1, (int64_t[]){-1}, 0);
  node(m, "Slice", L("x", "st2", "en2", "ax", "neg"), 5, L("slneg"), 1);
  node(m, "Slice", L("x", "st2", "en3", "ax", "neg"), 5, L("slneg2"), 1); /* 2,1 */
  onnxslim_model *r = infer_reload(m);
  onnxslim_graph *g = r ? onnxslim_model_graph(r) : NULL;
  if (g) {
    EXPECT_TYPE(g, "sl", "1[b,3,1]");
    EXPECT_TYPE(g, "sq", "1[b,10]");
    EXPECT_TYPE(g, "rs", "1[b,1,1]");
    EXPECT_TYPE(g, "rm", "1[10]");
    EXPECT_TYPE(g, "us", "1[b,1,10]");
    EXPECT_TYPE(g, "slneg", "1[b,?,1]");
    EXPECT_TYPE(g, "slneg2", "1[b,2,1]");
  }
  onnxslim_model_free(r);
  onnxslim_model_free(m);
}

/* Rules added for the node tests' coverage: Split (sizes and equal
 * parts), Pad, Tile, TopK and Attention with a past; the expected shapes
 * are the operators' definitions worked by hand. */
TEST(split_pad_tile_topk_attention) {
  onnxslim_model *m = empty_model(23);
  if (!m) {
    CHECK(0);
    return;
  }
  input(m, "x", F32, 3, (int64_t[]){-1, 10, 4}, L("b", NULL, NULL));
  ints(m, "sp", 2, (int64_t[]){3, 7}, 0);
  ints(m, "pads", 6, (int64_t[]){0, 1, 0, 0, 2, 0}, 0);
  ints(m, "reps", 3, (int64_t[]){1, 2, 3}, 0);
  ints(m, "k", 1, (int64_t[]){2}, 0);
  onnxslim_node *s = node(m, "Split", L("x", "sp"), 2, L("s1", "s2"), 2);
  CHECK_OK(onnxslim_node_set_attr_int(s, "axis", 1));
  s = node(m, "Split", L("x"), 1, L("h1", "h2"), 2);
  CHECK_OK(onnxslim_node_set_attr_int(s, "axis", -1));
  node(m, "Pad", L("x", "pads"), 2, L("p"), 1);
  node(m, "Tile", L("x", "reps"), 2, L("t"), 1);
  node(m, "TopK", L("x", "k"), 2, L("tv", "ti"), 2);
  input(m, "q", F32, 4, (int64_t[]){2, 3, 4, 8}, NULL);
  input(m, "kk", F32, 4, (int64_t[]){2, 3, 6, 8}, NULL);
  input(m, "v", F32, 4, (int64_t[]){2, 3, 6, 5}, NULL);
  input(m, "pk", F32, 4, (int64_t[]){2, 3, 2, 8}, NULL);
  input(m, "pv", F32, 4, (int64_t[]){2, 3, 2, 5}, NULL);
  node(m, "Attention", L("q", "kk", "v", "", "pk", "pv"), 6, L("y", "pk2", "pv2", "qk"), 4);
  onnxslim_model *r = infer_reload(m);
  onnxslim_graph *g = r ? onnxslim_model_graph(r) : NULL;
  if (g) {
    EXPECT_TYPE(g, "s1", "1[b,3,4]");
    EXPECT_TYPE(g, "s2", "1[b,7,4]");
    EXPECT_TYPE(g, "h1", "1[b,10,2]");
    EXPECT_TYPE(g, "h2", "1[b,10,2]");
    EXPECT_TYPE(g, "p", "1[b,13,4]");
    EXPECT_TYPE(g, "t", "1[b,20,12]");
    EXPECT_TYPE(g, "tv", "1[b,10,2]");
    EXPECT_TYPE(g, "ti", "7[b,10,2]");
    EXPECT_TYPE(g, "y", "1[2,3,4,5]");
    EXPECT_TYPE(g, "pk2", "1[2,3,8,8]");
    EXPECT_TYPE(g, "pv2", "1[2,3,8,5]");
    EXPECT_TYPE(g, "qk", "1[2,3,4,8]");
  }
  onnxslim_model_free(r);
  onnxslim_model_free(m);
}

/* The opset 27 operators onnxruntime 1.32 cannot run (step 31 checks them
 * against onnx only): shapes from their schema's definitions. */
TEST(linear_attention_causal_conv) {
  onnxslim_model *m = empty_model(27);
  if (!m) {
    CHECK(0);
    return;
  }
  input(m, "q", F32, 3, (int64_t[]){2, -1, 32}, L(NULL, "t", NULL)); /* 4 heads of 8 */
  input(m, "k", F32, 3, (int64_t[]){2, -1, 16}, L(NULL, "t", NULL)); /* 2 heads of 8 */
  input(m, "v", F32, 3, (int64_t[]){2, -1, 12}, L(NULL, "t", NULL)); /* 2 heads of 6 */
  /* present_state's element type is its own parameter: bound by past_state */
  input(m, "ps", F32, 4, (int64_t[]){2, 2, 8, 6}, NULL);
  onnxslim_node *la = node(m, "LinearAttention", L("q", "k", "v", "ps"), 4, L("o", "st"), 2);
  CHECK_OK(onnxslim_node_set_attr_int(la, "q_num_heads", 4));
  CHECK_OK(onnxslim_node_set_attr_int(la, "kv_num_heads", 2));
  CHECK_OK(onnxslim_node_set_attr_string(la, "update_rule", "linear", 6));
  input(m, "x", F32, 3, (int64_t[]){-1, 5, 9}, L("b", NULL, NULL));
  input(m, "w", F32, 3, (int64_t[]){5, 1, 4}, NULL);
  node(m, "CausalConvWithState", L("x", "w"), 2, L("cy", "cs"), 2);
  onnxslim_model *r = infer_reload(m);
  onnxslim_graph *g = r ? onnxslim_model_graph(r) : NULL;
  if (g) {
    EXPECT_TYPE(g, "o", "1[2,t,24]");
    EXPECT_TYPE(g, "st", "1[2,2,8,6]");
    EXPECT_TYPE(g, "cy", "1[b,5,9]");
    EXPECT_TYPE(g, "cs", "1[b,5,3]");
  }
  onnxslim_model_free(r);
  onnxslim_model_free(m);
}

TEST(conv_pool_layernorm) {
  onnxslim_model *m = empty_model(17);
  if (!m) {
    CHECK(0);
    return;
  }
  input(m, "x", F32, 4, (int64_t[]){-1, 3, 32, 31}, L("n", NULL, NULL, NULL));
  input(m, "w", F32, 4, (int64_t[]){8, 3, 3, 3}, NULL);
  onnxslim_node *cv = node(m, "Conv", L("x", "w"), 2, L("c"), 1);
  CHECK_OK(onnxslim_node_set_attr_ints(cv, "strides", (int64_t[]){2, 2}, 2));
  CHECK_OK(onnxslim_node_set_attr_ints(cv, "pads", (int64_t[]){1, 1, 1, 1}, 4));
  onnxslim_node *cs = node(m, "Conv", L("x", "w"), 2, L("cs"), 1);
  CHECK_OK(onnxslim_node_set_attr_ints(cs, "strides", (int64_t[]){2, 2}, 2));
  CHECK_OK(onnxslim_node_set_attr_string(cs, "auto_pad", "SAME_UPPER", 10));
  onnxslim_node *mp = node(m, "MaxPool", L("c"), 1, L("p"), 1);
  CHECK_OK(onnxslim_node_set_attr_ints(mp, "kernel_shape", (int64_t[]){2, 2}, 2));
  CHECK_OK(onnxslim_node_set_attr_ints(mp, "strides", (int64_t[]){2, 2}, 2));
  onnxslim_node *mc = node(m, "MaxPool", L("c"), 1, L("pc"), 1);
  CHECK_OK(onnxslim_node_set_attr_ints(mc, "kernel_shape", (int64_t[]){2, 2}, 2));
  CHECK_OK(onnxslim_node_set_attr_int(mc, "ceil_mode", 1));
  node(m, "GlobalAveragePool", L("c"), 1, L("g"), 1);
  input(m, "h", F32, 3, (int64_t[]){-1, -1, 16}, L("b", "s", NULL));
  input(m, "sc", F32, 1, (int64_t[]){16}, NULL);
  node(m, "LayerNormalization", L("h", "sc"), 2, L("ln", "mean", "inv"), 3);
  onnxslim_model *r = infer_reload(m);
  onnxslim_graph *g = r ? onnxslim_model_graph(r) : NULL;
  if (g) {
    EXPECT_TYPE(g, "c", "1[n,8,16,16]");  /* floor((32+2-3)/2)+1, floor((31+2-3)/2)+1 */
    EXPECT_TYPE(g, "cs", "1[n,8,16,16]"); /* ceil(32/2), ceil(31/2) */
    EXPECT_TYPE(g, "p", "1[n,8,8,8]");
    EXPECT_TYPE(g, "pc", "1[n,8,?,?]"); /* ceil_mode: left unknown */
    EXPECT_TYPE(g, "g", "1[n,8,1,1]");
    EXPECT_TYPE(g, "ln", "1[b,s,16]");
    EXPECT_TYPE(g, "mean", "1[b,s,1]");
  }
  onnxslim_model_free(r);
  onnxslim_model_free(m);
}

static void floats(onnxslim_model *m, const char *name, size_t n, const float *v) {
  int64_t d = (int64_t)n;
  CHECK_OK(onnxslim_graph_add_initializer(onnxslim_model_graph(m), name, F32, &d, 1, v,
                                          n * sizeof *v, ONNXSLIM_COPY, NULL));
}

static onnxslim_node *einsum_node(onnxslim_model *m, const char *eq, const char *const *in,
                                  size_t nin, const char *out) {
  onnxslim_node *n = node(m, "Einsum", in, nin, (const char *const[]){out}, 1);
  CHECK_OK(onnxslim_node_set_attr_string(n, "equation", eq, strlen(eq)));
  return n;
}

/* Einsum from its equation: explicit, implicit (the labels used once, in
 * order), ellipses broadcast, a trace; mixed-case implicit output and a
 * label whose dims differ stay unknown. */
TEST(einsum_equations) {
  onnxslim_model *m = empty_model(12);
  if (!m) {
    CHECK(0);
    return;
  }
  input(m, "a", F32, 3, (int64_t[]){-1, 3, 4}, L("n", NULL, NULL));
  input(m, "w", F32, 2, (int64_t[]){4, 5}, NULL);
  input(m, "p", F32, 2, (int64_t[]){3, 4}, NULL);
  input(m, "q", F32, 3, (int64_t[]){1, 4, 5}, NULL);
  input(m, "sq", F32, 2, (int64_t[]){4, 4}, NULL);
  input(m, "u", F32, 2, (int64_t[]){3, 1}, NULL);
  einsum_node(m, "nij,jk->nik", L("a", "w"), 2, "e1");
  einsum_node(m, "ij, jk", L("p", "w"), 2, "e2");
  einsum_node(m, "...ij,...jk->...ik", L("a", "q"), 2, "e3");
  einsum_node(m, "ii", L("sq"), 1, "e4");
  einsum_node(m, "ij->ji", L("p"), 1, "e5");
  einsum_node(m, "iJ", L("p"), 1, "e6");
  einsum_node(m, "ij,ij->ij", L("p", "u"), 2, "e7");
  einsum_node(m, "nij->", L("a"), 1, "e8");
  einsum_node(m, "ijk->i", L("p"), 1, "e9"); /* rank mismatch */
  onnxslim_model *r = infer_reload(m);
  onnxslim_graph *g = r ? onnxslim_model_graph(r) : NULL;
  if (g) {
    EXPECT_TYPE(g, "e1", "1[n,3,5]");
    EXPECT_TYPE(g, "e2", "1[3,5]");
    EXPECT_TYPE(g, "e3", "1[n,3,5]");
    EXPECT_TYPE(g, "e4", "1[]");
    EXPECT_TYPE(g, "e5", "1[4,3]");
    EXPECT_TYPE(g, "e6", "1");
    EXPECT_TYPE(g, "e7", "1[3,?]");
    EXPECT_TYPE(g, "e8", "1[]");
    EXPECT_TYPE(g, "e9", "1");
  }
  onnxslim_model_free(r);
  onnxslim_model_free(m);
}

/* Resize and Upsample from known float scales: the dim times the scale in
 * float arithmetic, rounded down (10 x 0.7f is 7 in float, 6.99.. in
 * double), with axes the other dims kept; Upsample-7's attribute. */
TEST(resize_scales) {
  onnxslim_model *m = empty_model(18);
  if (!m) {
    CHECK(0);
    return;
  }
  input(m, "x", F32, 4, (int64_t[]){-1, 3, 10, 20}, L("b", NULL, NULL, NULL));
  floats(m, "s4", 4, (float[]){1.0f, 1.0f, 0.7f, 0.75f});
  floats(m, "s1", 1, (float[]){2.0f});
  floats(m, "neg", 4, (float[]){1.0f, 1.0f, -1.0f, 2.0f});
  node(m, "Resize", L("x", "", "s4"), 3, L("r1"), 1);
  onnxslim_node *n = node(m, "Resize", L("x", "", "s1"), 3, L("r2"), 1);
  CHECK_OK(onnxslim_node_set_attr_ints(n, "axes", (int64_t[]){-1}, 1));
  node(m, "Resize", L("x", "", "neg"), 3, L("r3"), 1);
  onnxslim_model *r = infer_reload(m);
  onnxslim_graph *g = r ? onnxslim_model_graph(r) : NULL;
  if (g) {
    EXPECT_TYPE(g, "r1", "1[?,3,7,15]");
    EXPECT_TYPE(g, "r2", "1[b,3,10,40]");
    EXPECT_TYPE(g, "r3", "1[?,3,?,40]");
  }
  onnxslim_model_free(r);
  onnxslim_model_free(m);

  m = empty_model(7);
  if (!m) {
    CHECK(0);
    return;
  }
  input(m, "x", F32, 4, (int64_t[]){1, 3, 10, 20}, NULL);
  n = node(m, "Upsample", L("x"), 1, L("u"), 1);
  CHECK_OK(onnxslim_node_set_attr_floats(n, "scales", (float[]){1.0f, 1.0f, 2.0f, 1.5f}, 4));
  r = infer_reload(m);
  g = r ? onnxslim_model_graph(r) : NULL;
  if (g) EXPECT_TYPE(g, "u", "1[1,3,20,30]");
  onnxslim_model_free(r);
  onnxslim_model_free(m);
}

/* DFT: last dim 2, the axis dim from dft_length and onesided; opset 20's
 * axis input; an unknown axis changes nothing without dft_length or
 * onesided; an inverse onesided transform: last dim 1, the axis dim
 * 2 * (n - 1) or dft_length; from a real input (last dim 1), nothing. */
TEST(dft_shapes) {
  onnxslim_model *m = empty_model(20);
  if (!m) {
    CHECK(0);
    return;
  }
  input(m, "x", F32, 4, (int64_t[]){-1, 10, 12, 1}, L("b", NULL, NULL, NULL));
  input(m, "ax", I64, 0, NULL, NULL);
  ints(m, "len", 1, (int64_t[]){16}, 1);
  ints(m, "a2", 1, (int64_t[]){2}, 1);
  ints(m, "a1", 1, (int64_t[]){1}, 1);
  node(m, "DFT", L("x"), 1, L("d1"), 1);
  onnxslim_node *n = node(m, "DFT", L("x", "len", "a2"), 3, L("d2"), 1);
  CHECK_OK(onnxslim_node_set_attr_int(n, "onesided", 1));
  node(m, "DFT", L("x", "", "ax"), 3, L("d3"), 1);
  n = node(m, "DFT", L("x", "", "ax"), 3, L("d4"), 1);
  CHECK_OK(onnxslim_node_set_attr_int(n, "onesided", 1));
  input(m, "xc", F32, 3, (int64_t[]){2, 9, 2}, NULL);
  n = node(m, "DFT", L("xc"), 1, L("d5"), 1);
  CHECK_OK(onnxslim_node_set_attr_int(n, "onesided", 1));
  CHECK_OK(onnxslim_node_set_attr_int(n, "inverse", 1));
  n = node(m, "DFT", L("xc", "len", "a1"), 3, L("d6"), 1);
  CHECK_OK(onnxslim_node_set_attr_int(n, "onesided", 1));
  CHECK_OK(onnxslim_node_set_attr_int(n, "inverse", 1));
  n = node(m, "DFT", L("x"), 1, L("d7"), 1); /* real input: refused at run time */
  CHECK_OK(onnxslim_node_set_attr_int(n, "onesided", 1));
  CHECK_OK(onnxslim_node_set_attr_int(n, "inverse", 1));
  onnxslim_model *r = infer_reload(m);
  onnxslim_graph *g = r ? onnxslim_model_graph(r) : NULL;
  if (g) {
    EXPECT_TYPE(g, "d1", "1[b,10,12,2]"); /* axis -2: 12, unchanged */
    EXPECT_TYPE(g, "d2", "1[b,10,9,2]");  /* 16 / 2 + 1 on axis 2 */
    EXPECT_TYPE(g, "d3", "1[b,10,12,2]");
    EXPECT_TYPE(g, "d4", "1[b,?,?,2]");
    EXPECT_TYPE(g, "d5", "1[2,16,1]"); /* inverse onesided: 2 * (9 - 1), real */
    EXPECT_TYPE(g, "d6", "1[2,16,1]"); /* dft_length */
    EXPECT_TYPE(g, "d7", "1");
  }
  onnxslim_model_free(r);
  onnxslim_model_free(m);
}

/* STFT: [batch, frames, bins, 2]; the size from frame_length or the
 * window; bins size / 2 + 1 when onesided (the default: onnxruntime's
 * and onnx's reference outputs have it, onnx 1.23's inference does not),
 * else size; frames from a known frame_step; a signal shorter than the
 * size, an unknown step or size leave those dims unknown; a window and a
 * frame_length that differ, nothing. */
TEST(stft_shapes) {
  onnxslim_model *m = empty_model(17);
  if (!m) {
    CHECK(0);
    return;
  }
  input(m, "x", F32, 3, (int64_t[]){-1, 100, 1}, L("b", NULL, NULL));
  input(m, "short", F32, 3, (int64_t[]){2, 10, 1}, NULL);
  input(m, "w16", F32, 1, (int64_t[]){16}, NULL);
  input(m, "w15", F32, 1, (int64_t[]){15}, NULL);
  input(m, "step_in", I64, 0, NULL, NULL);
  ints(m, "step", 1, (int64_t[]){10}, 1);
  ints(m, "step7", 1, (int64_t[]){7}, 1);
  ints(m, "len16", 1, (int64_t[]){16}, 1);
  ints(m, "len8", 1, (int64_t[]){8}, 1);
  node(m, "STFT", L("x", "step", "", "len16"), 4, L("s1"), 1);
  onnxslim_node *n = node(m, "STFT", L("x", "step", "", "len16"), 4, L("s2"), 1);
  CHECK_OK(onnxslim_node_set_attr_int(n, "onesided", 0));
  node(m, "STFT", L("x", "step7", "w15"), 3, L("s3"), 1);
  node(m, "STFT", L("x", "step_in", "w16"), 3, L("s4"), 1);
  node(m, "STFT", L("x", "step_in"), 2, L("s5"), 1);
  node(m, "STFT", L("short", "step7", "w16"), 3, L("s6"), 1);
  node(m, "STFT", L("x", "step", "w16", "len8"), 4, L("s7"), 1);
  node(m, "STFT", L("x", "step", "w16", "len16"), 4, L("s8"), 1);
  onnxslim_model *r = infer_reload(m);
  onnxslim_graph *g = r ? onnxslim_model_graph(r) : NULL;
  if (g) {
    EXPECT_TYPE(g, "s1", "1[b,9,9,2]"); /* (100 - 16) / 10 + 1 frames, 16 / 2 + 1 bins */
    EXPECT_TYPE(g, "s2", "1[b,9,16,2]");
    EXPECT_TYPE(g, "s3", "1[b,13,8,2]");
    EXPECT_TYPE(g, "s4", "1[b,?,9,2]");
    EXPECT_TYPE(g, "s5", "1[b,?,?,2]");
    EXPECT_TYPE(g, "s6", "1[2,?,9,2]");
    EXPECT_TYPE(g, "s7", "1");
    EXPECT_TYPE(g, "s8", "1[b,9,9,2]");
  }
  onnxslim_model_free(r);
  onnxslim_model_free(m);
}

TEST(axes_attribute_before_13) {
  onnxslim_model *m = empty_model(11);
  if (!m) {
    CHECK(0);
    return;
  }
  input(m, "x", F32, 2, (int64_t[]){4, 1}, NULL);
  onnxslim_node *s = node(m, "Squeeze", L("x"), 1, L("sq"), 1);
  CHECK_OK(onnxslim_node_set_attr_ints(s, "axes", (int64_t[]){1}, 1));
  onnxslim_node *u = node(m, "Unsqueeze", L("sq"), 1, L("us"), 1);
  CHECK_OK(onnxslim_node_set_attr_ints(u, "axes", (int64_t[]){0, 2}, 2));
  onnxslim_model *r = infer_reload(m);
  onnxslim_graph *g = r ? onnxslim_model_graph(r) : NULL;
  if (g) {
    EXPECT_TYPE(g, "sq", "1[4]");
    EXPECT_TYPE(g, "us", "1[1,4,1]");
  }
  onnxslim_model_free(r);
  onnxslim_model_free(m);
}

TEST(types_without_shape_rule) {
  onnxslim_model *m = empty_model(17);
  if (!m) {
    CHECK(0);
    return;
  }
  input(m, "x", ONNXSLIM_DTYPE_DOUBLE, 2, (int64_t[]){4, 6}, NULL);
  ints(m, "k", 1, (int64_t[]){2}, 0);
  node(m, "TopK", L("x", "k"), 2, L("vals", "idx"), 2);
  node(m, "STFT", L("x"), 1, L("es"), 1);
  node(m, "Unknown_op", L("x"), 1, L("u"), 1);
  onnxslim_model *r = infer_reload(m);
  onnxslim_graph *g = r ? onnxslim_model_graph(r) : NULL;
  if (g) {
    EXPECT_TYPE(g, "vals", "11[4,2]"); /* the input's type; K along the last axis */
    EXPECT_TYPE(g, "idx", "7[4,2]");
    EXPECT_TYPE(g, "es", "11"); /* the input's type; a rank-2 signal: no STFT shape */
    EXPECT_TYPE(g, "u", "");
  }
  onnxslim_model_free(r);
  onnxslim_model_free(m);
}

/* z = Add(x[batch,3], y[3]) with an existing value_info saying float[5]. */
static onnxslim_model *conflict_model(void) {
  onnxslim_model *m = empty_model(17);
  if (!m) return NULL;
  input(m, "x", F32, 2, (int64_t[]){-1, 3}, L("batch", NULL));
  input(m, "y", F32, 1, (int64_t[]){3}, NULL);
  node(m, "Add", L("x", "y"), 2, L("z"), 1);
  node(m, "Neg", L("z"), 1, L("n"), 1);
  onnxslim_value_info *vi = NULL;
  CHECK_OK(onnxslim_graph_add_value_info(onnxslim_model_graph(m), "z", &vi));
  CHECK_OK(onnxslim_value_info_set_tensor_type(vi, F32, (int64_t[]){5}, NULL, 1));
  return m;
}

TEST(conflict_lenient_and_strict) {
  onnxslim_model *m = conflict_model();
  if (!m) {
    CHECK(0);
    return;
  }
  onnxslim_infer_report *rep = NULL;
  CHECK_OK(onnxslim_infer_shapes(&rep, m, NULL));
  CHECK(onnxslim_infer_report_conflicts(rep) == 1);
  char buf[256];
  CHECK_STR(report_text(rep, "z", buf, sizeof buf), "1[batch,3]"); /* what inference found */
  size_t k = onnxslim_infer_report_count(rep);
  for (size_t i = 0; i < k; i++)
    if (strcmp(onnxslim_infer_report_name(rep, i), "z") == 0)
      CHECK(onnxslim_infer_report_status(rep, i) == ONNXSLIM_INFER_CONFLICT);
  onnxslim_infer_report_free(rep);
  onnxslim_model *r = reload(m);
  if (r) {
    EXPECT_TYPE(onnxslim_model_graph(r), "z", "1[5]"); /* kept */
    EXPECT_TYPE(onnxslim_model_graph(r), "n", "1[5]"); /* what follows uses the kept type */
  }
  onnxslim_model_free(r);
  onnxslim_model_free(m);

  m = conflict_model();
  if (!m) {
    CHECK(0);
    return;
  }
  size_t n0 = 0, n1 = 0;
  uint8_t *before = save_bytes(m, &n0);
  onnxslim_infer_options o = ONNXSLIM_INFER_OPTIONS_INIT;
  o.flags = ONNXSLIM_INFER_STRICT;
  rep = (onnxslim_infer_report *)1;
  CHECK(onnxslim_infer_shapes(&rep, m, &o) == ONNXSLIM_EMODEL);
  CHECK(rep == NULL);
  CHECK(strstr(onnxslim_error_last(), "'z'") != NULL);
  uint8_t *after = save_bytes(m, &n1);
  CHECK(before && after && n0 == n1 && memcmp(before, after, n0) == 0); /* unchanged */
  free(before);
  free(after);
  onnxslim_model_free(m);
}

TEST(dry_run_and_refine) {
  onnxslim_model *m = conflict_model();
  if (!m) {
    CHECK(0);
    return;
  }
  onnxslim_graph *g = onnxslim_model_graph(m);
  /* a compatible existing type: rank known, dims not */
  CHECK_OK(onnxslim_value_info_set_tensor_type(onnxslim_graph_find_value_info(g, "z"), F32,
                                               (int64_t[]){-1, -1}, NULL, 2));
  size_t nvi = onnxslim_graph_value_info_count(g);
  onnxslim_infer_options o = ONNXSLIM_INFER_OPTIONS_INIT;
  o.flags = ONNXSLIM_INFER_DRY_RUN;
  onnxslim_infer_report *rep = NULL;
  CHECK_OK(onnxslim_infer_shapes(&rep, m, &o));
  CHECK(onnxslim_graph_value_info_count(g) == nvi);
  EXPECT_TYPE(g, "z", "1[?,?]");
  for (size_t i = 0; i < onnxslim_infer_report_count(rep); i++) {
    const char *name = onnxslim_infer_report_name(rep, i);
    int st = onnxslim_infer_report_status(rep, i);
    CHECK(strcmp(name, "z") != 0 || st == ONNXSLIM_INFER_REFINED);
    CHECK(strcmp(name, "n") != 0 || st == ONNXSLIM_INFER_NEW);
  }
  onnxslim_infer_report_free(rep);
  CHECK_OK(onnxslim_infer_shapes(NULL, m, NULL));
  onnxslim_model *r = reload(m);
  if (r) {
    EXPECT_TYPE(onnxslim_model_graph(r), "z", "1[batch,3]");
    EXPECT_TYPE(onnxslim_model_graph(r), "n", "1[batch,3]");
    CHECK(onnxslim_graph_value_info_count(onnxslim_model_graph(r)) == nvi + 1);
  }
  onnxslim_model_free(r);
  onnxslim_model_free(m);
}

TEST(bad_arguments) {
  onnxslim_infer_options o;
  CHECK(onnxslim_infer_options_init(NULL, 1) == ONNXSLIM_EINVAL);
  CHECK(onnxslim_infer_options_init(&o, 0) == ONNXSLIM_EINVAL);
  CHECK(onnxslim_infer_options_init(&o, ONNXSLIM_INFER_OPTIONS_VERSION + 1) == ONNXSLIM_EINVAL);
  CHECK(onnxslim_infer_shapes(NULL, NULL, NULL) == ONNXSLIM_EINVAL);
  onnxslim_model *m = min_model();
  if (!m) {
    CHECK(0);
    return;
  }
  o = (onnxslim_infer_options)ONNXSLIM_INFER_OPTIONS_INIT;
  o.flags = 0x100;
  CHECK(onnxslim_infer_shapes(NULL, m, &o) == ONNXSLIM_EINVAL);
  o.flags = 0;
  o.version = 99;
  CHECK(onnxslim_infer_shapes(NULL, m, &o) == ONNXSLIM_EINVAL);
  /* report getters take NULL and bad indexes as nothing */
  CHECK(onnxslim_infer_report_count(NULL) == 0);
  CHECK_STR(onnxslim_infer_report_name(NULL, 0), "");
  CHECK(onnxslim_infer_report_rank(NULL, 3) == -1);
  CHECK(onnxslim_infer_report_dim(NULL, 0, 0, NULL, NULL) == ONNXSLIM_DIM_UNKNOWN);
  onnxslim_infer_report_free(NULL);
  onnxslim_model_free(m);
}

/* A successful inference leaves the thread's last error as it found it:
 * empty stays empty, though the walk looks up value_info and attributes
 * that are absent (ENOTFOUND on the way), and an earlier error is kept;
 * a failure still sets its own. */
TEST(success_leaves_last_error) {
  onnxslim_model *m = empty_model(17);
  if (!m) {
    CHECK(0);
    return;
  }
  input(m, "x", F32, 2, (int64_t[]){-1, 4}, L("batch", NULL));
  node(m, "Relu", L("x"), 1, L("r"), 1);
  node(m, "Softmax", L("r"), 1, L("s"), 1); /* no axis attribute */
  node(m, "Transpose", L("s"), 1, L("t"), 1);
  /* the lookups inference makes fail when nothing is there yet */
  CHECK(onnxslim_graph_find_value_info(onnxslim_model_graph(m), "r") == NULL);
  onnxslim_error_clear();
  onnxslim_infer_report *rep = NULL;
  onnxslim_infer_options dry = ONNXSLIM_INFER_OPTIONS_INIT;
  dry.flags = ONNXSLIM_INFER_DRY_RUN; /* no write after the lookups */
  CHECK_OK(onnxslim_infer_shapes(&rep, m, &dry));
  CHECK(onnxslim_infer_report_count(rep) == 3);
  CHECK_STR(onnxslim_error_last(), "");
  CHECK(onnxslim_error_last_code() == 0);
  onnxslim_infer_report_free(rep);
  /* an earlier error survives a successful call (nothing is written twice:
   * the values now have value_info, so run on a fresh model) */
  onnxslim_model *m2 = empty_model(17);
  if (!m2) {
    CHECK(0);
    onnxslim_model_free(m);
    return;
  }
  input(m2, "x", F32, 1, (int64_t[]){4}, NULL);
  node(m2, "Neg", L("x"), 1, L("y"), 1);
  CHECK(onnxslim_graph_find_node(onnxslim_model_graph(m2), "no such node") == NULL);
  char before[256];
  snprintf(before, sizeof before, "%s", onnxslim_error_last());
  CHECK(before[0] != 0);
  CHECK_OK(onnxslim_infer_shapes(NULL, m2, NULL));
  CHECK_STR(onnxslim_error_last(), before);
  CHECK(onnxslim_error_last_code() == ONNXSLIM_ENOTFOUND);
  /* a failure sets its own */
  onnxslim_infer_options o = ONNXSLIM_INFER_OPTIONS_INIT;
  o.flags = 0x100;
  CHECK(onnxslim_infer_shapes(NULL, m2, &o) == ONNXSLIM_EINVAL);
  CHECK(onnxslim_error_last_code() == ONNXSLIM_EINVAL);
  CHECK(strstr(onnxslim_error_last(), "reserved flags") != NULL);
  onnxslim_model_free(m2);
  onnxslim_model_free(m);
}

/* bert-tiny with its value_info removed: every dimension the exporter
 * wrote is inferred again, and nothing disagrees. */
TEST(bert_value_info_reinferred) {
  onnxslim_model *m = open_model(BERT);
  onnxslim_model *orig = open_model(BERT);
  if (!m || !orig) {
    onnxslim_model_free(m);
    onnxslim_model_free(orig);
    CHECK(0);
    return;
  }
  onnxslim_graph *g = onnxslim_model_graph(m), *go = onnxslim_model_graph(orig);
  size_t nvi = onnxslim_graph_value_info_count(g);
  CHECK(nvi > 0);
  while (onnxslim_graph_value_info_count(g) > 0)
    CHECK_OK(onnxslim_graph_remove_value_info(g, onnxslim_graph_value_info(g, 0)));
  onnxslim_infer_options o = ONNXSLIM_INFER_OPTIONS_INIT;
  o.flags = ONNXSLIM_INFER_STRICT;
  onnxslim_infer_report *rep = NULL;
  CHECK_OK(onnxslim_infer_shapes(&rep, m, &o));
  CHECK(onnxslim_infer_report_conflicts(rep) == 0);
  /* the graph's nodes all get a typed output */
  CHECK(onnxslim_infer_report_count(rep) + 2 >= onnxslim_graph_node_count(g));
  size_t same = 0;
  for (size_t i = 0; i < nvi; i++) {
    const char *name = onnxslim_value_info_name(onnxslim_graph_value_info(go, i));
    char want[256], got[256];
    type_text(go, name, want, sizeof want);
    type_text(g, name, got, sizeof got);
    if (strcmp(want, got) != 0)
      fprintf(stderr, "  %s: exporter %s, inferred %s\n", name, want, got);
    same += strcmp(want, got) == 0;
  }
  CHECK(same == nvi);
  onnxslim_infer_report_free(rep);
  onnxslim_model_free(orig);
  onnxslim_model_free(m);
}

/* ---- model-local functions ---------------------------------------------------- */

/* A node as field `field` (1 in a graph, 7 in a function) of domain dom. */
static void fnode(pbuf *b, uint32_t field, const char *dom, const char *op, const char *const *in,
                  const char *const *out, pbuf *attr) {
  pbuf n = {0};
  for (; in && *in; in++) pb_str(&n, 1, *in);
  for (; out && *out; out++) pb_str(&n, 2, *out);
  pb_str(&n, 4, op);
  if (attr) pb_msg(&n, 5, attr);
  if (dom) pb_str(&n, 7, dom);
  pb_msg(b, field, &n);
}

/* A FunctionProto custom.name(in) -> out; its body nodes follow (fnode
 * with field 7), then fn_end. */
static pbuf fn_begin(const char *name, const char *const *in, const char *const *out) {
  pbuf f = {0};
  pb_str(&f, 1, name);
  for (; *in; in++) pb_str(&f, 4, *in);
  for (; *out; out++) pb_str(&f, 5, *out);
  return f;
}

/* Ends f (imports "" at opset and custom at 1) as a function of model m. */
static void fn_end(pbuf *m, pbuf *f, int64_t opset) {
  pbuf op = {0}, op2 = {0};
  pb_str(&op, 1, "");
  pb_int(&op, 2, (uint64_t)opset);
  pb_msg(f, 9, &op);
  pb_str(&op2, 1, "custom");
  pb_int(&op2, 2, 1);
  pb_msg(f, 9, &op2);
  pb_str(f, 10, "custom");
  pb_msg(m, 25, f);
}

/* The functions' model: graph g (opset "" 17, custom 1), the functions of
 * fns (field-25 bytes), inputs A: float[2,n] and B: float[n]. */
static onnxslim_model *fn_model(pbuf *g, pbuf *fns) {
  pb_str(g, 2, "g");
  pbuf m = pb_model(g), op = {0};
  pb_str(&op, 1, "custom");
  pb_int(&op, 2, 1);
  pb_msg(&m, 8, &op);
  pb_put(&m, fns->p, fns->n); /* whole field-25 entries, as they are */
  free(fns->p);
  onnxslim_model *r = from_pbuf(&m);
  if (!r) return NULL;
  input(r, "A", F32, 2, (const int64_t[]){2, -1}, (const char *const[]){NULL, "n"});
  input(r, "B", F32, 1, (const int64_t[]){-1}, (const char *const[]){"n"});
  return r;
}

/* A node that calls a model-local function gets its outputs from the body,
 * walked with the call's inputs bound to the formal ones (nested calls
 * too); a body that reads an attribute reference, a value from outside
 * it, or that calls itself, or that imports another opset than the model,
 * leaves the outputs unknown rather than guessed. */
TEST(local_functions) {
  pbuf fns = {0}, f, g = {0};
  /* AddRelu(X, Y) -> (Z, S): Relu(X + Y) and its shape */
  f = fn_begin("AddRelu", L("X", "Y"), L("Z", "S"));
  fnode(&f, 7, NULL, "Add", L("X", "Y"), L("s"), NULL);
  fnode(&f, 7, NULL, "Relu", L("s"), L("Z"), NULL);
  fnode(&f, 7, NULL, "Shape", L("Z"), L("S"), NULL);
  fn_end(&fns, &f, 17);
  /* Outer(P, Q) -> R: AddRelu inside */
  f = fn_begin("Outer", L("P", "Q"), L("R"));
  fnode(&f, 7, "custom", "AddRelu", L("P", "Q"), L("r", "sh"), NULL);
  fnode(&f, 7, NULL, "Identity", L("r"), L("R"), NULL);
  fn_end(&fns, &f, 17);
  /* CastTo(X) -> Y: Cast's `to` is a reference to the call's attribute */
  pbuf ref = {0};
  pb_str(&ref, 1, "to");
  pb_str(&ref, 21, "to");
  pb_int(&ref, 20, ONNXSLIM_ATTR_INT);
  f = fn_begin("CastTo", L("X"), L("Y"));
  fnode(&f, 7, NULL, "Cast", L("X"), L("Y"), &ref);
  fn_end(&fns, &f, 17);
  /* Leak(X) -> Y: reads A, a value of the main graph, not a formal input */
  f = fn_begin("Leak", L("X"), L("Y"));
  fnode(&f, 7, NULL, "Add", L("X", "A"), L("Y"), NULL);
  fn_end(&fns, &f, 17);
  /* Rec(X) -> Y: calls itself */
  f = fn_begin("Rec", L("X"), L("Y"));
  fnode(&f, 7, "custom", "Rec", L("X"), L("Y"), NULL);
  fn_end(&fns, &f, 17);
  /* Old(X) -> Y: imports opset 13, the model 17 */
  f = fn_begin("Old", L("X"), L("Y"));
  fnode(&f, 7, NULL, "Relu", L("X"), L("Y"), NULL);
  fn_end(&fns, &f, 13);
  pbuf to = {0};
  pb_str(&to, 1, "to");
  pb_int(&to, 3, ONNXSLIM_DTYPE_INT64);
  pb_int(&to, 20, ONNXSLIM_ATTR_INT);
  fnode(&g, 1, "custom", "AddRelu", L("A", "B"), L("Z", "S"), NULL);
  fnode(&g, 1, NULL, "Reshape", L("A", "S"), L("RS"), NULL);
  fnode(&g, 1, "custom", "Outer", L("A", "B"), L("W"), NULL);
  fnode(&g, 1, "custom", "CastTo", L("A"), L("C"), &to);
  fnode(&g, 1, "custom", "Leak", L("B"), L("K"), NULL);
  fnode(&g, 1, "custom", "Rec", L("A"), L("E"), NULL);
  fnode(&g, 1, "custom", "Old", L("A"), L("O"), NULL);
  onnxslim_model *m = fn_model(&g, &fns);
  REQUIRE(m);
  onnxslim_model *r = infer_reload(m);
  REQUIRE(r);
  onnxslim_graph *rg = onnxslim_model_graph(r);
  EXPECT_TYPE(rg, "Z", "1[2,n]");
  EXPECT_TYPE(rg, "S", "7[2]");
  EXPECT_TYPE(rg, "RS", "1[2,n]"); /* S's values followed out of the body */
  EXPECT_TYPE(rg, "W", "1[2,n]");
  EXPECT_TYPE(rg, "C", "");
  EXPECT_TYPE(rg, "K", "1"); /* its type from X; A is not seen: no shape */
  EXPECT_TYPE(rg, "E", "");
  EXPECT_TYPE(rg, "O", "");
  /* the body's own values are not the graph's */
  EXPECT_TYPE(rg, "s", "");
  EXPECT_TYPE(rg, "r", "");
  onnxslim_model_free(r);
  onnxslim_model_free(m);
}

int main(int argc, char **argv) {
  t_args(argc, argv);
  RUN(broadcast_symbolic);
  RUN(matmul_gemm_transpose);
  RUN(data_propagation_reshape);
  RUN(reshape_zero_minus_one);
  RUN(slice_squeeze_reduce);
  RUN(conv_pool_layernorm);
  RUN(split_pad_tile_topk_attention);
  RUN(linear_attention_causal_conv);
  RUN(einsum_equations);
  RUN(resize_scales);
  RUN(dft_shapes);
  RUN(stft_shapes);
  RUN(axes_attribute_before_13);
  RUN(types_without_shape_rule);
  RUN(conflict_lenient_and_strict);
  RUN(dry_run_and_refine);
  RUN(bad_arguments);
  RUN(success_leaves_last_error);
  RUN(bert_value_info_reinferred);
  RUN(local_functions);
  return t_done();
}
