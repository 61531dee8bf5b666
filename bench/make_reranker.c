/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/* Builds a reranker-shaped ONNX model of about 1.1 GB (XLM-RoBERTa base plus
 * a sequence-classification head, the shape of the BCE reranker in the
 * published recipe) entirely with the libonnxslim edit API:
 *
 *   - a minimal ModelProto (ir_version, opset 17, an empty graph) is encoded
 *     by hand with test/pbuild.h and loaded with onnxslim_model_from_buffer();
 *   - inputs, outputs, nodes and initializers are added with the graph and
 *     node edit functions; every weight is a deterministic pseudo-random
 *     buffer of small values that the model BORROWS (no copy);
 *   - the result is written with onnxslim_save().
 *
 * Usage: make_reranker OUT.onnx [--layers N] [--vocab N] [--allow-large]
 * (defaults: 12 layers, vocab 250002; smaller values make quick test models;
 * --allow-large writes a model over protobuf's 2 GiB limit, such as the
 * 4x model of bench/run.sh: --layers 48 --vocab 1000008)
 *
 * Graph (opset 17, what a PyTorch export of XLMRobertaForSequenceClassification
 * looks like, with Erf GELU and LayerNormalization):
 *   input_ids, attention_mask: int64 [batch, seq]  ->  logits: float [batch, 1]
 *   word embedding 250002x768 read by a Gather
 *   (roberta.embeddings.word_embeddings.weight), position embedding 514x768
 *   read by a Gather of Range(0, seq), token type 1x768, LayerNorm;
 *   12 layers: Q, K, V, O 768x768 + bias, 12 heads, FFN 768x3072x768, two
 *   LayerNorms; head: dense 768x768 + Tanh + out_proj 768x1 on token 0. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <onnxslim.h>

#include "../test/pbuild.h"

enum { HIDDEN = 768, HEADS = 12, HEAD_DIM = 64, FFN = 3072, MAX_POS = 514 };

static onnxslim_graph *G;
static void **owned; /* weight buffers borrowed by the model */
static size_t n_owned, cap_owned;
static uint64_t total_params;

static void die(const char *what) {
  fprintf(stderr, "make_reranker: %s: %s\n", what, onnxslim_error_last());
  exit(1);
}

static void keep(void *p) {
  if (n_owned == cap_owned) {
    cap_owned = cap_owned ? cap_owned * 2 : 256;
    owned = realloc(owned, cap_owned * sizeof *owned);
    if (!owned) abort();
  }
  owned[n_owned++] = p;
}

/* ---- deterministic pseudo-random weights (xorshift64*, seeded by name) ---- */

static uint64_t seed_of(const char *name) {
  uint64_t h = 1469598103934665603u; /* FNV-1a */
  for (const char *c = name; *c; c++) h = (h ^ (uint8_t)*c) * 1099511628211u;
  return h ? h : 1;
}

/* uniform in (-scale, scale) */
static void fill(float *w, size_t n, const char *name, float scale, float offset) {
  uint64_t s = seed_of(name);
  for (size_t i = 0; i < n; i++) {
    s ^= s >> 12;
    s ^= s << 25;
    s ^= s >> 27;
    uint32_t r = (uint32_t)((s * 0x2545F4914F6CDD1Du) >> 40); /* 24 bits */
    w[i] = offset + scale * ((float)r * (2.0f / 16777216.0f) - 1.0f);
  }
}

static const char *fmt(const char *f, ...) {
  static char buf[8][256];
  static int k;
  char *b = buf[k++ & 7];
  va_list ap;
  va_start(ap, f);
  vsnprintf(b, sizeof buf[0], f, ap);
  va_end(ap);
  return b;
}

/* ---- initializers ---------------------------------------------------------- *
 * Each returns a stable copy of the name (fmt() buffers are reused).          */

static const char *stable(const char *name) {
  char *c = strdup(name);
  if (!c) abort();
  keep(c);
  return c;
}

static const char *weight(const char *name, int64_t d0, int64_t d1, float scale, float offset) {
  int64_t dims[2] = {d0, d1};
  size_t rank = d1 > 0 ? 2 : 1;
  size_t n = (size_t)d0 * (size_t)(d1 > 0 ? d1 : 1);
  float *w = malloc(n * sizeof *w);
  if (!w) {
    fprintf(stderr, "make_reranker: out of memory\n");
    exit(1);
  }
  fill(w, n, name, scale, offset);
  keep(w);
  total_params += n;
  if (onnxslim_graph_add_initializer(G, name, ONNXSLIM_DTYPE_FLOAT, dims, rank, w, n * sizeof *w,
                                     ONNXSLIM_BORROW, NULL))
    die(name);
  return stable(name);
}

static const char *scalar_f(const char *name, float v) {
  if (onnxslim_graph_add_initializer(G, name, ONNXSLIM_DTYPE_FLOAT, NULL, 0, &v, sizeof v,
                                     ONNXSLIM_COPY, NULL))
    die(name);
  return stable(name);
}

static const char *ints(const char *name, const int64_t *v, size_t n, int scalar) {
  int64_t dims[1] = {(int64_t)n};
  if (onnxslim_graph_add_initializer(G, name, ONNXSLIM_DTYPE_INT64, dims, scalar ? 0 : 1, v,
                                     n * sizeof *v, ONNXSLIM_COPY, NULL))
    die(name);
  return stable(name);
}

/* ---- nodes ------------------------------------------------------------------- */

/* Adds node `scope` of `op` reading the NULL-terminated inputs; its output is
 * "<scope>_output_0" (or `out` when given). Returns the node. */
static onnxslim_node *node_out(const char *op, const char *scope, const char *out, ...) {
  const char *in[8];
  size_t n = 0;
  va_list ap;
  va_start(ap, out);
  for (const char *s; (s = va_arg(ap, const char *)) != NULL && n < 8;) in[n++] = s;
  va_end(ap);
  char name[256];
  if (!out) snprintf(name, sizeof name, "%s_output_0", scope);
  const char *outs[1] = {out ? out : name};
  onnxslim_node *nd = NULL;
  if (onnxslim_graph_add_node(G, SIZE_MAX, op, NULL, scope, in, n, outs, 1, &nd)) die(scope);
  return nd;
}
#define node(op, scope, ...) node_out(op, scope, NULL, __VA_ARGS__, (const char *)NULL)
/* output name of the last node made for `scope` */
#define OUT(scope) fmt("%s_output_0", scope)

static void attr_i(onnxslim_node *n, const char *a, int64_t v) {
  if (onnxslim_node_set_attr_int(n, a, v)) die(a);
}
static void attr_f(onnxslim_node *n, const char *a, float v) {
  if (onnxslim_node_set_attr_float(n, a, v)) die(a);
}
static void attr_is(onnxslim_node *n, const char *a, const int64_t *v, size_t c) {
  if (onnxslim_node_set_attr_ints(n, a, v, c)) die(a);
}

static const char *linear(const char *x, const char *prefix, const char *scope, int64_t din,
                          int64_t dout) {
  const char *w = weight(fmt("%s.weight", prefix), din, dout, 0.05f, 0);
  const char *b = weight(fmt("%s.bias", prefix), dout, 0, 0.02f, 0);
  const char *mm = fmt("%s/MatMul", scope);
  node("MatMul", mm, x, w);
  const char *add = fmt("%s/Add", scope);
  node("Add", add, b, OUT(mm));
  return OUT(add);
}

static const char *layer_norm(const char *x, const char *prefix, const char *scope) {
  const char *gamma = weight(fmt("%s.weight", prefix), HIDDEN, 0, 0.05f, 1.0f);
  const char *beta = weight(fmt("%s.bias", prefix), HIDDEN, 0, 0.02f, 0);
  const char *s = fmt("%s/LayerNormalization", scope);
  onnxslim_node *n = node("LayerNormalization", s, x, gamma, beta);
  attr_i(n, "axis", -1);
  attr_f(n, "epsilon", 1e-5f);
  return OUT(s);
}

static const char *encoder_layer(const char *x, const char *mask_bias, int i) {
  char p[64], s[64];
  snprintf(p, sizeof p, "roberta.encoder.layer.%d", i);
  snprintf(s, sizeof s, "/roberta/encoder/layer.%d", i);
  const char *sa = fmt("%s/attention/self", s);
  char sab[96];
  snprintf(sab, sizeof sab, "%s", sa);

  char q[256], k[256], v[256];
  snprintf(q, sizeof q, "%s",
           linear(x, fmt("%s.attention.self.query", p), fmt("%s/query", sab), HIDDEN, HIDDEN));
  snprintf(k, sizeof k, "%s",
           linear(x, fmt("%s.attention.self.key", p), fmt("%s/key", sab), HIDDEN, HIDDEN));
  snprintf(v, sizeof v, "%s",
           linear(x, fmt("%s.attention.self.value", p), fmt("%s/value", sab), HIDDEN, HIDDEN));

  static const int64_t heads_shape[4] = {0, 0, HEADS, HEAD_DIM};
  static const int64_t merge_shape[3] = {0, 0, HIDDEN};
  static const int64_t p0213[4] = {0, 2, 1, 3}, p0231[4] = {0, 2, 3, 1};
  const char *nm[3] = {"query", "key", "value"};
  char *qkv[3] = {q, k, v};
  const char *rs[3] = {"Reshape", "Reshape_1", "Reshape_2"};
  const char *tr[3] = {"Transpose", "Transpose_1", "Transpose_2"};
  for (int j = 0; j < 3; j++) {
    const char *shape = ints(fmt("%s.attention.self.%s_heads_shape", p, nm[j]), heads_shape, 4, 0);
    const char *r = fmt("%s/%s", sab, rs[j]);
    node("Reshape", r, qkv[j], shape);
    const char *t = fmt("%s/%s", sab, tr[j]);
    attr_is(node("Transpose", t, OUT(r)), "perm", j == 1 ? p0231 : p0213, 4);
    snprintf(qkv[j], 256, "%s", OUT(t));
  }
  char cur[256];
#define STEP(op, sfx, ...)                     \
  do {                                         \
    const char *sc_ = fmt("%s/" sfx, sab);     \
    last = node(op, sc_, __VA_ARGS__);         \
    snprintf(cur, sizeof cur, "%s", OUT(sc_)); \
  } while (0)
  onnxslim_node *last;
  STEP("MatMul", "MatMul", q, k);
  const char *scale = scalar_f(fmt("%s.attention.self.scale", p), 1.0f / sqrtf((float)HEAD_DIM));
  STEP("Mul", "Mul", cur, scale);
  STEP("Add", "Add", cur, mask_bias);
  STEP("Softmax", "Softmax", cur);
  attr_i(last, "axis", -1);
  STEP("MatMul", "MatMul_1", cur, v);
  STEP("Transpose", "Transpose_3", cur);
  attr_is(last, "perm", p0213, 4);
  const char *ms = ints(fmt("%s.attention.self.merge_shape", p), merge_shape, 3, 0);
  STEP("Reshape", "Reshape_3", cur, ms);
#undef STEP

  char attn[256];
  snprintf(attn, sizeof attn, "%s",
           linear(cur, fmt("%s.attention.output.dense", p), fmt("%s/attention/output/dense", s),
                  HIDDEN, HIDDEN));
  const char *ao = fmt("%s/attention/output/Add", s);
  node("Add", ao, attn, x);
  snprintf(attn, sizeof attn, "%s",
           layer_norm(OUT(ao), fmt("%s.attention.output.LayerNorm", p),
                      fmt("%s/attention/output/LayerNorm", s)));

  /* feed-forward, exact GELU: 0.5 * h * (1 + erf(h / sqrt(2))) */
  char h[256];
  snprintf(
      h, sizeof h, "%s",
      linear(attn, fmt("%s.intermediate.dense", p), fmt("%s/intermediate/dense", s), HIDDEN, FFN));
  char ia[128];
  snprintf(ia, sizeof ia, "%s/intermediate/intermediate_act_fn", s);
  const char *sqrt2 = scalar_f(fmt("%s.intermediate.sqrt2", p), 1.41421356f);
  const char *one = scalar_f(fmt("%s.intermediate.one", p), 1.0f);
  const char *half = scalar_f(fmt("%s.intermediate.half", p), 0.5f);
  char t[256];
  node("Div", fmt("%s/Div", ia), h, sqrt2);
  snprintf(t, sizeof t, "%s", OUT(fmt("%s/Div", ia)));
  node("Erf", fmt("%s/Erf", ia), t);
  snprintf(t, sizeof t, "%s", OUT(fmt("%s/Erf", ia)));
  node("Add", fmt("%s/Add", ia), t, one);
  snprintf(t, sizeof t, "%s", OUT(fmt("%s/Add", ia)));
  node("Mul", fmt("%s/Mul", ia), h, t);
  snprintf(t, sizeof t, "%s", OUT(fmt("%s/Mul", ia)));
  node("Mul", fmt("%s/Mul_1", ia), t, half);
  snprintf(h, sizeof h, "%s", OUT(fmt("%s/Mul_1", ia)));

  char o[256];
  snprintf(o, sizeof o, "%s",
           linear(h, fmt("%s.output.dense", p), fmt("%s/output/dense", s), FFN, HIDDEN));
  const char *oa = fmt("%s/output/Add", s);
  node("Add", oa, o, attn);
  static char res[256];
  snprintf(res, sizeof res, "%s",
           layer_norm(OUT(oa), fmt("%s.output.LayerNorm", p), fmt("%s/output/LayerNorm", s)));
  return res;
}

/* A minimal ModelProto: ir_version 8, opset 17, producer, an empty graph. */
static pbuf minimal_model(void) {
  pbuf m = {0}, g = {0}, op = {0};
  pb_int(&m, 1, 8);                   /* ir_version */
  pb_str(&m, 2, "libonnxslim-bench"); /* producer_name */
  pb_str(&m, 3, "0.1");               /* producer_version */
  pb_str(&g, 2, "reranker");          /* GraphProto.name */
  pb_msg(&m, 7, &g);                  /* graph */
  pb_str(&op, 1, "");                 /* OperatorSetIdProto.domain */
  pb_int(&op, 2, 17);                 /* version */
  pb_msg(&m, 8, &op);                 /* opset_import */
  return m;
}

int main(int argc, char **argv) {
  const char *out = NULL;
  int layers = 12;
  long vocab = 250002;
  onnxslim_save_options so = ONNXSLIM_SAVE_OPTIONS_INIT;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--layers") && i + 1 < argc) layers = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--vocab") && i + 1 < argc) vocab = atol(argv[++i]);
    else if (!strcmp(argv[i], "--allow-large")) so.flags |= ONNXSLIM_SAVE_ALLOW_LARGE;
    else if (argv[i][0] != '-' && !out) out = argv[i];
    else {
      fprintf(stderr, "usage: make_reranker OUT.onnx [--layers N] [--vocab N] [--allow-large]\n");
      return 2;
    }
  }
  if (!out || layers < 0 || vocab < 2) {
    fprintf(stderr, "usage: make_reranker OUT.onnx [--layers N] [--vocab N] [--allow-large]\n");
    return 2;
  }
  struct timespec t0, t1, t2;
  clock_gettime(CLOCK_MONOTONIC, &t0);

  pbuf seed = minimal_model();
  onnxslim_model *m = NULL;
  if (onnxslim_model_from_buffer(&m, seed.p, seed.n, ONNXSLIM_COPY, NULL))
    die("loading the minimal model");
  free(seed.p);
  G = onnxslim_model_graph(m);
  if (onnxslim_model_set_doc_string(
          m, "reranker-shaped XLM-R base (random weights) made by bench/make_reranker.c") ||
      onnxslim_model_set_metadata(m, "generator", "bench/make_reranker.c"))
    die("model fields");

  /* ---- inputs and outputs ---- */
  static const char *const bs[2] = {"batch", "seq"};
  static const char *const b1[2] = {"batch", NULL};
  static const int64_t d1[2] = {-1, 1};
  onnxslim_value_info *vi;
  if (onnxslim_graph_add_input(G, "input_ids", &vi) ||
      onnxslim_value_info_set_tensor_type(vi, ONNXSLIM_DTYPE_INT64, NULL, bs, 2) ||
      onnxslim_graph_add_input(G, "attention_mask", &vi) ||
      onnxslim_value_info_set_tensor_type(vi, ONNXSLIM_DTYPE_INT64, NULL, bs, 2) ||
      onnxslim_graph_add_output(G, "logits", &vi) ||
      onnxslim_value_info_set_tensor_type(vi, ONNXSLIM_DTYPE_FLOAT, d1, b1, 2))
    die("graph inputs/outputs");

  /* ---- embeddings ---- */
  const char *wemb = weight("roberta.embeddings.word_embeddings.weight", vocab, HIDDEN, 0.05f, 0);
  node_out("Gather", "/roberta/embeddings/word_embeddings/Gather",
           "/roberta/embeddings/word_embeddings/Gather_output_0", wemb, "input_ids",
           (const char *)NULL);
  onnxslim_node *n = node("Shape", "/roberta/embeddings/Shape", "input_ids");
  attr_i(n, "start", 1);
  attr_i(n, "end", 2);
  static const int64_t zero = 0, one_i = 1;
  node("Squeeze", "/roberta/embeddings/Squeeze", OUT("/roberta/embeddings/Shape"));
  node("Range", "/roberta/embeddings/Range", ints("/roberta/embeddings/range_start", &zero, 1, 1),
       OUT("/roberta/embeddings/Squeeze"), ints("/roberta/embeddings/range_delta", &one_i, 1, 1));
  const char *pos =
      weight("roberta.embeddings.position_embeddings.weight", MAX_POS, HIDDEN, 0.05f, 0);
  node("Gather", "/roberta/embeddings/position_embeddings/Gather", pos,
       OUT("/roberta/embeddings/Range"));
  const char *tt = weight("roberta.embeddings.token_type_embeddings.weight", 1, HIDDEN, 0.05f, 0);
  node("Add", "/roberta/embeddings/Add", "/roberta/embeddings/word_embeddings/Gather_output_0", tt);
  node("Add", "/roberta/embeddings/Add_1", OUT("/roberta/embeddings/Add"),
       OUT("/roberta/embeddings/position_embeddings/Gather"));
  char x[256];
  snprintf(x, sizeof x, "%s",
           layer_norm(OUT("/roberta/embeddings/Add_1"), "roberta.embeddings.LayerNorm",
                      "/roberta/embeddings/LayerNorm"));

  /* ---- extended attention mask: (1 - mask) * -10000 as [batch, 1, 1, seq] ---- */
  n = node("Cast", "/roberta/Cast", "attention_mask");
  attr_i(n, "to", ONNXSLIM_DTYPE_FLOAT);
  node("Sub", "/roberta/Sub", scalar_f("/roberta/one", 1.0f), OUT("/roberta/Cast"));
  node("Mul", "/roberta/Mul", OUT("/roberta/Sub"), scalar_f("/roberta/neg", -10000.0f));
  static const int64_t axes[2] = {1, 2};
  node("Unsqueeze", "/roberta/Unsqueeze", OUT("/roberta/Mul"),
       ints("/roberta/unsqueeze_axes", axes, 2, 0));
  char mask[256];
  snprintf(mask, sizeof mask, "%s", OUT("/roberta/Unsqueeze"));

  /* ---- encoder ---- */
  for (int i = 0; i < layers; i++) snprintf(x, sizeof x, "%s", encoder_layer(x, mask, i));

  /* ---- classifier head on token 0 ---- */
  n = node("Gather", "/classifier/Gather", x, ints("/classifier/token0_index", &zero, 1, 1));
  attr_i(n, "axis", 1);
  char h[256];
  snprintf(
      h, sizeof h, "%s",
      linear(OUT("/classifier/Gather"), "classifier.dense", "/classifier/dense", HIDDEN, HIDDEN));
  node("Tanh", "/classifier/Tanh", h);
  const char *w = weight("classifier.out_proj.weight", HIDDEN, 1, 0.05f, 0);
  const char *b = weight("classifier.out_proj.bias", 1, 0, 0.02f, 0);
  node("MatMul", "/classifier/out_proj/MatMul", OUT("/classifier/Tanh"), w);
  node_out("Add", "/classifier/out_proj/Add", "logits", OUT("/classifier/out_proj/MatMul"), b,
           (const char *)NULL);

  clock_gettime(CLOCK_MONOTONIC, &t1);
  if (onnxslim_save(NULL, m, out, &so)) die(out);
  clock_gettime(CLOCK_MONOTONIC, &t2);
  uint64_t size = 0;
  onnxslim_save_size(m, &size);
  printf(
      "%s: %llu bytes, %llu params, %zu nodes, %zu initializers, opset 17 "
      "(build %.2f s, save %.2f s)\n",
      out, (unsigned long long)size, (unsigned long long)total_params, onnxslim_graph_node_count(G),
      onnxslim_graph_initializer_count(G),
      (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9,
      (t2.tv_sec - t1.tv_sec) + (t2.tv_nsec - t1.tv_nsec) / 1e9);
  onnxslim_model_free(m);
  for (size_t i = 0; i < n_owned; i++) free(owned[i]);
  free(owned);
  return 0;
}
