/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/* Unit tests of the model-level dtype conversion (include/onnxslim/convert.h:
 * onnxslim_convert_model(), onnxslim_convert_gather_tables() and the
 * report API): the consumer policies (cast after Gather, cast before,
 * storage only) and the graph they leave behind, selection specs, every
 * storage form of a tensor (raw_data, float_data / double_data, a Constant's
 * value, a subgraph initializer, external data), the per-tensor report, and
 * that a conversion streams (saving twice gives the same bytes, reading the
 * tensor gives the converted bytes). Every conversion is proven by saving to
 * a buffer, loading the bytes again and looking at the reloaded model.
 * Models are built byte by byte with test/pbuild.h. Run from the repository
 * root. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <onnxslim.h>

#include "pbuild.h"
#include "t.h"
#include "util.h"

#define BERT "test/data/bert-tiny.onnx"
#define WORD_EMB "roberta.embeddings.word_embeddings.weight"
#define POS_EMB "roberta.embeddings.position_embeddings.weight"
#define WORD_GATHER "/embeddings/word_embeddings/Gather"
#define WORD_GATHER_OUT "/embeddings/word_embeddings/Gather_output_0"

#define F32 ONNXSLIM_DTYPE_FLOAT
#define F16 ONNXSLIM_DTYPE_FLOAT16
#define BF16 ONNXSLIM_DTYPE_BFLOAT16
#define F64 ONNXSLIM_DTYPE_DOUBLE
#define I64 ONNXSLIM_DTYPE_INT64

/* ---- helpers ------------------------------------------------------------- */

static int streq(const char *a, const char *b) { return a && b && strcmp(a, b) == 0; }

static uint32_t f32_bits(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}

/* Saves to a buffer and loads the bytes into a new model (external data
 * relative to base_dir, when not NULL). */
static onnxslim_model *reload_in(const onnxslim_model *m, const char *base_dir) {
  size_t n = 0;
  uint8_t *p = save_bytes(m, &n);
  CHECK(p != NULL);
  if (!p) return NULL;
  onnxslim_model *r = NULL;
  onnxslim_load_options lo = ONNXSLIM_LOAD_OPTIONS_INIT;
  lo.base_dir = base_dir;
  CHECK_OK(onnxslim_model_from_buffer(&r, p, n, ONNXSLIM_COPY, &lo));
  free(p);
  return r;
}
static onnxslim_model *reload(const onnxslim_model *m) { return reload_in(m, NULL); }

static onnxslim_model *open_model(const char *path) {
  onnxslim_model *m = NULL;
  if (onnxslim_model_open(&m, path, NULL) != 0) {
    fprintf(stderr, "cannot open %s: %s\n", path, onnxslim_error_last());
    return NULL;
  }
  return m;
}

static onnxslim_model *from_pbuf(pbuf *b) {
  onnxslim_model *m = NULL;
  int rc = onnxslim_model_from_buffer(&m, b->p, b->n, ONNXSLIM_COPY, NULL);
  if (rc) fprintf(stderr, "cannot load hand-built model: %s\n", onnxslim_error_last());
  free(b->p);
  memset(b, 0, sizeof *b);
  return m;
}

/* Number of problems onnxslim_check() finds (each one printed); -1 if
 * the check could not run. */
static long problems(const onnxslim_model *m) {
  onnxslim_check_report *r = NULL;
  if (onnxslim_check(&r, m, 0) != 0) return -1;
  size_t n = onnxslim_check_report_count(r);
  for (size_t i = 0; i < n; i++)
    fprintf(stderr, "  check: %s: %s\n", onnxslim_check_report_location(r, i),
            onnxslim_check_report_message(r, i));
  onnxslim_check_report_free(r);
  return (long)n;
}

static size_t count_op(const onnxslim_graph *g, const char *op) {
  size_t k = 0;
  for (size_t i = 0; i < onnxslim_graph_node_count(g); i++)
    if (streq(onnxslim_node_op_type(onnxslim_graph_node(g, i)), op)) k++;
  return k;
}

/* Does any node of g read `name` (inputs only, this graph)? */
static size_t readers(const onnxslim_graph *g, const char *name) {
  size_t k = 0;
  for (size_t i = 0; i < onnxslim_graph_node_count(g); i++) {
    onnxslim_node *n = onnxslim_graph_node(g, i);
    for (size_t j = 0; j < onnxslim_node_input_count(n); j++)
      if (streq(onnxslim_node_input(n, j), name)) {
        k++;
        break;
      }
  }
  return k;
}

static int64_t cast_to(const onnxslim_node *n) {
  int64_t to = -1;
  onnxslim_attr *a = onnxslim_node_find_attr(n, "to");
  if (!a || onnxslim_attr_int(a, &to) != 0) return -1;
  return to;
}

/* Element type recorded for `name` in g's inputs, outputs or value_info;
 * -1 when there is no entry. */
static int32_t vi_elem(const onnxslim_graph *g, const char *name) {
  onnxslim_value_info *vi = onnxslim_graph_find_value_info(g, name);
  if (!vi) return -1;
  onnxslim_type *t = onnxslim_value_info_type(vi);
  return t ? onnxslim_type_dtype(t) : 0;
}

/* Initializer of g, or the value tensor of the Constant producing `name`. */
static onnxslim_tensor *tensor_named(const onnxslim_graph *g, const char *name) {
  onnxslim_tensor *t = onnxslim_graph_find_initializer(g, name);
  if (t) return t;
  onnxslim_node *p = onnxslim_graph_producer(g, name);
  if (p && streq(onnxslim_node_op_type(p), "Constant"))
    return onnxslim_attr_tensor(onnxslim_node_find_attr(p, "value"));
  return NULL;
}

/* Does tensor t hold exactly size bytes equal to want? */
static int data_is(const onnxslim_tensor *t, const void *want, size_t size) {
  const void *d = NULL;
  size_t n = 0;
  if (!t || onnxslim_tensor_data(t, &d, &n) != 0) return 0;
  return n == size && memcmp(d, want, size) == 0;
}

/* Copy of a FLOAT tensor's values (malloc'ed), *n the element count. */
static float *floats_of(const onnxslim_tensor *t, size_t *n) {
  const void *d = NULL;
  size_t size = 0;
  *n = 0;
  if (!t || onnxslim_tensor_dtype(t) != F32 || onnxslim_tensor_data(t, &d, &size) != 0) return NULL;
  float *v = malloc(size ? size : 1);
  if (v) memcpy(v, d, size);
  *n = size / 4;
  return v;
}

static int convert_ex(onnxslim_model *m, int32_t to, int policy, unsigned flags,
                      const char *const *sel, size_t n_sel, const char *const *excl, size_t n_excl,
                      uint64_t min_size, onnxslim_convert_report **rep) {
  onnxslim_convert_options o;
  if (onnxslim_convert_options_init(&o, ONNXSLIM_CONVERT_OPTIONS_VERSION) != 0) return -100;
  o.to = to;
  o.policy = policy;
  o.flags = flags;
  o.select = sel;
  o.n_select = n_sel;
  o.exclude = excl;
  o.n_exclude = n_excl;
  o.min_size = min_size;
  /* the tests that use this count what the kernels do, overflow included;
   * the default (ONNXSLIM_CONVERT_OVERFLOW_KEEP) has tests of its own */
  o.overflow = ONNXSLIM_CONVERT_OVERFLOW_CONVERT;
  return onnxslim_convert_model(rep, m, &o);
}
static int convert(onnxslim_model *m, int32_t to, int policy, unsigned flags,
                   const char *const *sel, size_t n_sel, uint64_t min_size,
                   onnxslim_convert_report **rep) {
  return convert_ex(m, to, policy, flags, sel, n_sel, NULL, 0, min_size, rep);
}

/* Entry i of a report through the per-field getters; any out pointer may be
 * NULL, *stats (initialized by the caller) accumulates. 0 or the first error. */
static int entry(const onnxslim_convert_report *r, size_t i, const char **name, int32_t *from,
                 int32_t *to, uint64_t *before, uint64_t *after, onnxslim_convert_stats *stats) {
  const char *nm = onnxslim_convert_report_name(r, i);
  if (!nm) return onnxslim_error_last_code();
  if (name) *name = nm;
  if (from) *from = onnxslim_convert_report_from(r, i);
  if (to) *to = onnxslim_convert_report_to(r, i);
  int rc = 0;
  if (before) rc = onnxslim_convert_report_bytes_before(r, i, before);
  if (!rc && after) rc = onnxslim_convert_report_bytes_after(r, i, after);
  if (!rc && stats) rc = onnxslim_convert_report_add_stats(r, i, stats);
  return rc;
}

/* Names in the report, sorted into one "a,b,c" string (static buffer). */
static int cmp_str(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}
static const char *report_names(const onnxslim_convert_report *r) {
  static char buf[1024];
  const char *names[64];
  size_t n = onnxslim_convert_report_count(r);
  buf[0] = '\0';
  if (n > 64) return "(too many)";
  for (size_t i = 0; i < n; i++)
    if (!(names[i] = onnxslim_convert_report_name(r, i))) return "(error)";
  qsort(names, n, sizeof names[0], cmp_str);
  for (size_t i = 0; i < n; i++) {
    if (i) strncat(buf, ",", sizeof buf - strlen(buf) - 1);
    strncat(buf, names[i], sizeof buf - strlen(buf) - 1);
  }
  return buf;
}

/* ---- hand-built models --------------------------------------------------- */

static void t_head(pbuf *t, const char *name, int32_t dt, const int64_t *dims, size_t rank) {
  for (size_t i = 0; i < rank; i++) pb_int(t, 1, (uint64_t)dims[i]);
  pb_int(t, 2, (uint64_t)dt);
  pb_str(t, 8, name);
}
/* TensorProto with raw_data. */
static pbuf tensor_raw(const char *name, int32_t dt, const int64_t *dims, size_t rank,
                       const void *data, size_t size) {
  pbuf t = {0};
  t_head(&t, name, dt, dims, rank);
  pb_bytes(&t, 9, data, size);
  return t;
}
/* FLOAT TensorProto with packed float_data (field 4). */
static pbuf tensor_float_data(const char *name, const int64_t *dims, size_t rank, const float *v,
                              size_t n) {
  pbuf t = {0};
  t_head(&t, name, F32, dims, rank);
  pb_bytes(&t, 4, v, n * 4);
  return t;
}
/* DOUBLE TensorProto with packed double_data (field 10). */
static pbuf tensor_double_data(const char *name, const int64_t *dims, size_t rank, const double *v,
                               size_t n) {
  pbuf t = {0};
  t_head(&t, name, F64, dims, rank);
  pb_bytes(&t, 10, v, n * 8);
  return t;
}

/* FLOAT16 / BFLOAT16 TensorProto in int32_data (field 5, packed varints,
 * one 16-bit pattern per int32, as the ONNX spec stores them). */
static pbuf tensor_int32_data(const char *name, int32_t dt, const int64_t *dims, size_t rank,
                              const uint16_t *v, size_t n) {
  pbuf t = {0}, packed = {0};
  t_head(&t, name, dt, dims, rank);
  for (size_t i = 0; i < n; i++) pb_varint(&packed, v[i]);
  pb_bytes(&t, 5, packed.p, packed.n);
  free(packed.p);
  return t;
}

/* NodeProto without attributes (append them with attr_*, then pb_msg). */
static pbuf node(const char *op, const char *name, const char *in0, const char *in1,
                 const char *out) {
  pbuf n = {0};
  if (in0) pb_str(&n, 1, in0);
  if (in1) pb_str(&n, 1, in1);
  pb_str(&n, 2, out);
  pb_str(&n, 3, name);
  pb_str(&n, 4, op);
  return n;
}
static void attr_int(pbuf *n, const char *name, int64_t v) {
  pbuf a = {0};
  pb_str(&a, 1, name);
  pb_int(&a, 3, (uint64_t)v);
  pb_int(&a, 20, ONNXSLIM_ATTR_INT);
  pb_msg(n, 5, &a);
}
static void attr_tensor(pbuf *n, const char *name, pbuf *t) {
  pbuf a = {0};
  pb_str(&a, 1, name);
  pb_msg(&a, 5, t);
  pb_int(&a, 20, ONNXSLIM_ATTR_TENSOR);
  pb_msg(n, 5, &a);
}
static void attr_graph(pbuf *n, const char *name, pbuf *g) {
  pbuf a = {0};
  pb_str(&a, 1, name);
  pb_msg(&a, 6, g);
  pb_int(&a, 20, ONNXSLIM_ATTR_GRAPH);
  pb_msg(n, 5, &a);
}
static void add_node(pbuf *g, pbuf *n) { pb_msg(g, 1, n); }
/* A graph input (11), output (12) or value_info (13) entry. */
static void add_vi(pbuf *g, uint32_t field, const char *name, int32_t elem, const int64_t *dims,
                   size_t rank) {
  pbuf vi = {0}, ty = {0}, tt = {0}, shape = {0};
  pb_int(&tt, 1, (uint64_t)elem);
  for (size_t i = 0; i < rank; i++) {
    pbuf d = {0};
    pb_int(&d, 1, (uint64_t)dims[i]);
    pb_msg(&shape, 1, &d);
  }
  pb_msg(&tt, 2, &shape);
  pb_msg(&ty, 1, &tt);
  pb_str(&vi, 1, name);
  pb_msg(&vi, 2, &ty);
  pb_msg(g, field, &vi);
}
/* A model of graph g importing opset `version` of `domain` (none when
 * version < 0). */
static pbuf model_at(pbuf *g, const char *domain, int64_t version) {
  pbuf m = {0}, op = {0};
  pb_int(&m, 1, 8);
  pb_str(&m, 2, "test_convert_model");
  pb_msg(&m, 7, g);
  if (version >= 0) {
    if (domain[0]) pb_str(&op, 1, domain);
    pb_int(&op, 2, (uint64_t)version);
    pb_msg(&m, 8, &op);
  }
  return m;
}
static pbuf model_of(pbuf *g) { return model_at(g, "", 17); }

/* Values of the tensors of the "mixed" model. */
static float emb_v[40], fcw_v[16], fcb_v[4], w0_v[4], tiny_v[1], cval_v[4];
static double dbl_v[3] = {0.1, -2.5, 1e-3};
static void init_values(void) {
  for (int i = 0; i < 40; i++) emb_v[i] = 0.013f * (float)(i - 17) + 0.0001f * (float)(i * i);
  for (int i = 0; i < 16; i++)
    fcw_v[i] = 0.3f * (float)((i * 7919) % 23 - 11) / 11.0f + 0.0007f * (float)i;
  for (int i = 0; i < 4; i++) fcb_v[i] = 0.1f * (float)i - 0.05f;
  for (int i = 0; i < 4; i++) w0_v[i] = 1.0f / (float)(i + 3);
  tiny_v[0] = 1.0f / 3.0f;
  for (int i = 0; i < 4; i++) cval_v[i] = 0.7f + 0.011f * (float)i;
}

/*
 * "mixed": every storage form and consumer kind in one small graph.
 *   inputs   x FLOAT[3,4], ids INT64[3]
 *   emb.weight FLOAT[10,4] float_data  -> Gather                 (160 bytes)
 *   fc.weight  FLOAT[4,4]  raw         -> MatMul:1 twice        (64)
 *   fc.bias    FLOAT[4]    raw         -> Add:1                 (16)
 *   w[0]       FLOAT[4]    raw         -> Mul:1                 (16)
 *   tiny       FLOAT[1]    raw         -> Mul:1                 (4)
 *   dbl        DOUBLE[3]   double_data -> Identity -> output    (24)
 *   shape_i    INT64[2]    raw         (never converted)
 *   Constant c: FLOAT[4] value tensor  -> Mul:1                 (16)
 *   value_info: e (Gather out), c (Constant out), fc.weight
 */
static onnxslim_model *mixed_model_at(const char *domain, int64_t opset) {
  pbuf g = {0}, n, t;
  static const int64_t d34[] = {3, 4}, d104[] = {10, 4}, d44[] = {4, 4}, d4[] = {4}, d1[] = {1},
                       d3[] = {3}, d2[] = {2};
  n = node("Gather", "n_gather", "emb.weight", "ids", "e");
  add_node(&g, &n);
  n = node("MatMul", "n_mm1", "x", "fc.weight", "h1");
  add_node(&g, &n);
  n = node("MatMul", "n_mm2", "e", "fc.weight", "h2");
  add_node(&g, &n);
  n = node("Add", "n_add", "h1", "h2", "s");
  add_node(&g, &n);
  n = node("Add", "n_add2", "s", "fc.bias", "s2");
  add_node(&g, &n);
  n = node("Constant", "n_const", NULL, NULL, "c");
  t = tensor_raw("c", F32, d4, 1, cval_v, sizeof cval_v);
  attr_tensor(&n, "value", &t);
  add_node(&g, &n);
  n = node("Mul", "n_mul", "s2", "c", "s3");
  add_node(&g, &n);
  n = node("Mul", "n_mul2", "s3", "w[0]", "s4");
  add_node(&g, &n);
  n = node("Mul", "n_mul3", "s4", "tiny", "y");
  add_node(&g, &n);
  n = node("Identity", "n_id", "dbl", NULL, "dout");
  add_node(&g, &n);
  pb_str(&g, 2, "mixed");
  t = tensor_float_data("emb.weight", d104, 2, emb_v, 40);
  pb_msg(&g, 5, &t);
  t = tensor_raw("fc.weight", F32, d44, 2, fcw_v, sizeof fcw_v);
  pb_msg(&g, 5, &t);
  t = tensor_raw("fc.bias", F32, d4, 1, fcb_v, sizeof fcb_v);
  pb_msg(&g, 5, &t);
  t = tensor_raw("w[0]", F32, d4, 1, w0_v, sizeof w0_v);
  pb_msg(&g, 5, &t);
  t = tensor_raw("tiny", F32, d1, 1, tiny_v, sizeof tiny_v);
  pb_msg(&g, 5, &t);
  t = tensor_double_data("dbl", d3, 1, dbl_v, 3);
  pb_msg(&g, 5, &t);
  int64_t shp[2] = {3, 4};
  t = tensor_raw("shape_i", I64, d2, 1, shp, sizeof shp);
  pb_msg(&g, 5, &t);
  add_vi(&g, 11, "x", F32, d34, 2);
  add_vi(&g, 11, "ids", I64, d3, 1);
  add_vi(&g, 12, "y", F32, d34, 2);
  add_vi(&g, 12, "dout", F64, d3, 1);
  add_vi(&g, 13, "e", F32, d34, 2);
  add_vi(&g, 13, "c", F32, d4, 1);
  add_vi(&g, 13, "fc.weight", F32, d44, 2);
  pbuf m = model_at(&g, domain, opset);
  return from_pbuf(&m);
}
static onnxslim_model *mixed_model(void) { return mixed_model_at("", 17); }

/* "tied": one table read by two Gathers (only the first output has a
 * value_info) and by a Transpose (a tied output projection).
 *   e1 = Gather(emb, ids); e2 = Gather(emb, ids); s = e1 + e2
 *   z = MatMul(x, Transpose(emb)) */
static onnxslim_model *tied_model(void) {
  pbuf g = {0}, n, t;
  static const int64_t d104[] = {10, 4}, d34[] = {3, 4}, d3[] = {3}, d310[] = {3, 10};
  n = node("Gather", "g1", "emb", "ids", "e1");
  add_node(&g, &n);
  n = node("Gather", "g2", "emb", "ids", "e2");
  attr_int(&n, "axis", 0);
  add_node(&g, &n);
  n = node("Add", "add", "e1", "e2", "s");
  add_node(&g, &n);
  n = node("Transpose", "tr", "emb", NULL, "embT");
  add_node(&g, &n);
  n = node("MatMul", "mm", "x", "embT", "z");
  add_node(&g, &n);
  pb_str(&g, 2, "tied");
  t = tensor_raw("emb", F32, d104, 2, emb_v, sizeof emb_v);
  pb_msg(&g, 5, &t);
  add_vi(&g, 11, "ids", I64, d3, 1);
  add_vi(&g, 11, "x", F32, d34, 2);
  add_vi(&g, 12, "s", F32, d34, 2);
  add_vi(&g, 12, "z", F32, d310, 2);
  add_vi(&g, 13, "e1", F32, d34, 2);
  pbuf m = model_of(&g);
  return from_pbuf(&m);
}

/* "branchy": y = If(cond) { then: y_t = sub_w + x (sub_w: then-branch
 * initializer) } else { y_e = x * outer_w (outer_w: main-graph initializer
 * captured by the else branch) }. */
static float sub_w_v[4] = {0.25f, -1.1f, 3.3f, 1e-3f}, outer_w_v[4] = {2.2f, 0.3f, -0.7f, 1.9f};
static onnxslim_model *branchy_model(void) {
  pbuf g = {0}, tb = {0}, eb = {0}, n, t;
  static const int64_t d4[] = {4};
  n = node("Add", "then_add", "sub_w", "x", "y_t");
  add_node(&tb, &n);
  pb_str(&tb, 2, "then_g");
  t = tensor_raw("sub_w", F32, d4, 1, sub_w_v, sizeof sub_w_v);
  pb_msg(&tb, 5, &t);
  add_vi(&tb, 12, "y_t", F32, d4, 1);
  n = node("Mul", "else_mul", "x", "outer_w", "y_e");
  add_node(&eb, &n);
  pb_str(&eb, 2, "else_g");
  add_vi(&eb, 12, "y_e", F32, d4, 1);
  n = node("If", "if", "cond", NULL, "y");
  attr_graph(&n, "then_branch", &tb);
  attr_graph(&n, "else_branch", &eb);
  add_node(&g, &n);
  pb_str(&g, 2, "branchy");
  t = tensor_raw("outer_w", F32, d4, 1, outer_w_v, sizeof outer_w_v);
  pb_msg(&g, 5, &t);
  add_vi(&g, 11, "cond", ONNXSLIM_DTYPE_BOOL, NULL, 0);
  add_vi(&g, 11, "x", F32, d4, 1);
  add_vi(&g, 12, "y", F32, d4, 1);
  pbuf m = model_of(&g);
  return from_pbuf(&m);
}

/* "crafted": one FLOAT tensor in float_data with values that exercise
 * every counter of the report, and one FLOAT16 tensor with a NaN, each read
 * by an Identity. */
#define N_CRAFT 12
static float craft_v[N_CRAFT];
static uint16_t h16_v[3] = {0x3C00 /* 1 */, 0x7E01 /* NaN */, 0xC000 /* -2 */};
static onnxslim_model *crafted_model(void) {
  craft_v[0] = NAN;
  craft_v[1] = 1e30f;     /* FP16: overflow -> Inf (or 65504 with SATURATE) */
  craft_v[2] = -1e30f;    /* same, negative */
  craft_v[3] = 1e-10f;    /* FP16: below half the smallest subnormal -> 0 */
  craft_v[4] = 0.1f;      /* not representable */
  craft_v[5] = 1.0f;      /* exact */
  craft_v[6] = 3.0f;      /* exact */
  craft_v[7] = INFINITY;  /* stays Inf, not counted as overflow */
  craft_v[8] = -0.0f;     /* exact, skipped by the relative error */
  craft_v[9] = 70000.0f;  /* FP16 overflow */
  craft_v[10] = 65519.0f; /* rounds down to 65504: finite, error 15 */
  craft_v[11] = 1e-6f;    /* an FP16 subnormal result (flushed with FLUSH) */
  pbuf g = {0}, n, t;
  static const int64_t dn[] = {N_CRAFT}, d3[] = {3};
  n = node("Identity", "id1", "craft", NULL, "o1");
  add_node(&g, &n);
  n = node("Identity", "id2", "h16", NULL, "o2");
  add_node(&g, &n);
  pb_str(&g, 2, "crafted");
  t = tensor_float_data("craft", dn, 1, craft_v, N_CRAFT);
  pb_msg(&g, 5, &t);
  t = tensor_raw("h16", F16, d3, 1, h16_v, sizeof h16_v);
  pb_msg(&g, 5, &t);
  add_vi(&g, 12, "o1", F32, dn, 1);
  add_vi(&g, 12, "o2", F16, d3, 1);
  pbuf m = model_of(&g);
  return from_pbuf(&m);
}

/* ---- expected conversions ---------------------------------------------- */

/* Independent references for FP32 -> BF16 (no NaNs in the inputs used). */
static uint16_t bf16_rne_ref(float f) {
  uint32_t u = f32_bits(f);
  return (uint16_t)((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16);
}
static uint16_t bf16_trunc_ref(float f) { return (uint16_t)(f32_bits(f) >> 16); }

/* ---- cast after Gather: the published recipe on bert-tiny ---------------- */

/* Checks the recipe's graph on bert-tiny after converting WORD_EMB. */
static void check_recipe_graph(const onnxslim_model *m, int32_t to, const char *suffix,
                               size_t casts, int32_t pos_dtype) {
  onnxslim_graph *g = onnxslim_model_graph(m);
  onnxslim_tensor *t = onnxslim_graph_find_initializer(g, WORD_EMB);
  uint64_t size = 0;
  CHECK(t && onnxslim_tensor_dtype(t) == to);
  CHECK(t && onnxslim_tensor_byte_size(t, &size) == 0 && size == 100 * 16 * 2);
  CHECK(t && onnxslim_tensor_rank(t) == 2 && onnxslim_tensor_dim(t, 0) == 100 &&
        onnxslim_tensor_dim(t, 1) == 16);
  onnxslim_node *gather = onnxslim_graph_find_node(g, WORD_GATHER);
  CHECK(gather != NULL);
  if (!gather) return;
  char want[256];
  snprintf(want, sizeof want, "%s_%s", WORD_GATHER_OUT, suffix);
  const char *gout = onnxslim_node_output(gather, 0);
  CHECK_STR(gout, want);
  CHECK_STR(onnxslim_node_input(gather, 0), WORD_EMB);
  /* the Cast takes over the Gather's output name */
  onnxslim_node *cast = onnxslim_graph_producer(g, WORD_GATHER_OUT);
  CHECK(cast && streq(onnxslim_node_op_type(cast), "Cast"));
  CHECK(cast && onnxslim_node_input_count(cast) == 1 && streq(onnxslim_node_input(cast, 0), gout));
  CHECK(cast && cast_to(cast) == F32);
  /* the Gather's output feeds only the Cast; downstream still reads the old name */
  CHECK(onnxslim_graph_consumer_count(g, gout) == 1);
  CHECK(onnxslim_graph_consumer(g, gout, 0) == cast);
  onnxslim_node *add = onnxslim_graph_find_node(g, "/embeddings/Add");
  CHECK(add && streq(onnxslim_node_input(add, 0), WORD_GATHER_OUT));
  /* value infos: the original edge had one, so the new edge has one of type `to` */
  CHECK(vi_elem(g, gout) == to);
  CHECK(vi_elem(g, WORD_GATHER_OUT) == F32);
  /* the Cast comes right after the Gather (a sorted graph stays sorted) */
  size_t gi = SIZE_MAX, ci = SIZE_MAX;
  for (size_t i = 0; i < onnxslim_graph_node_count(g); i++) {
    if (onnxslim_graph_node(g, i) == gather) gi = i;
    if (onnxslim_graph_node(g, i) == cast) ci = i;
  }
  CHECK(gi != SIZE_MAX && ci == gi + 1);
  /* what else was converted (the model has one Cast of its own, of the mask) */
  onnxslim_tensor *pos = onnxslim_graph_find_initializer(g, POS_EMB);
  CHECK(pos && onnxslim_tensor_dtype(pos) == pos_dtype);
  CHECK(count_op(g, "Cast") == casts);
  CHECK(problems(m) == 0);
}

static void recipe_on_bert(unsigned flags) {
  onnxslim_model *orig = open_model(BERT), *m = open_model(BERT);
  float *src = NULL;
  size_t n = 0;
  CHECK(orig && m);
  if (!orig || !m) goto out;
  src = floats_of(onnxslim_graph_find_initializer(onnxslim_model_graph(orig), WORD_EMB), &n);
  CHECK(src && n == 1600);
  if (!src) goto out;
  size_t nodes = onnxslim_graph_node_count(onnxslim_model_graph(m));
  onnxslim_convert_report *rep = NULL;
  CHECK_OK(onnxslim_convert_gather_tables(&rep, m, BF16, 2048, flags));
  CHECK(onnxslim_convert_report_count(rep) == 1);
  CHECK_STR(report_names(rep), WORD_EMB);
  int32_t from = 0, to = 0;
  uint64_t before = 0, after = 0;
  onnxslim_convert_stats st = ONNXSLIM_CONVERT_STATS_INIT;
  CHECK_OK(entry(rep, 0, NULL, &from, &to, &before, &after, &st));
  CHECK(from == F32 && to == BF16 && before == 6400 && after == 3200);
  CHECK(st.count == 1600 && st.nan == 0 && st.to_inf == 0 && st.saturated == 0);
  CHECK(st.max_abs_error > 0 && st.max_rel_error > 0);
  /* round to nearest: at most half a BF16 ulp, 2^-9 relative; truncation: under one ulp */
  CHECK(st.max_rel_error <= (flags ? 0x1p-7 : 0x1p-8));
  onnxslim_convert_report_free(rep);
  CHECK(onnxslim_graph_node_count(onnxslim_model_graph(m)) == nodes + 1);
  check_recipe_graph(m, BF16, "bf16", 2, F32);

  /* expected bytes: the kernel, and an independent bit-level reference */
  uint16_t *want = malloc(n * 2), *ref = malloc(n * 2);
  CHECK(want && ref);
  if (!want || !ref) goto free_out;
  CHECK_OK(onnxslim_convert_f32_to_bf16(want, src, n, flags, NULL));
  for (size_t i = 0; i < n; i++) ref[i] = flags ? bf16_trunc_ref(src[i]) : bf16_rne_ref(src[i]);
  CHECK(memcmp(want, ref, n * 2) == 0);
  size_t differs = 0;
  for (size_t i = 0; i < n; i++) differs += bf16_rne_ref(src[i]) != bf16_trunc_ref(src[i]);
  CHECK(differs > 100); /* the two modes are told apart by this data */
  /* in memory (materialized from the pending conversion) */
  CHECK(data_is(onnxslim_graph_find_initializer(onnxslim_model_graph(m), WORD_EMB), want, n * 2));
  /* after save and reload */
  onnxslim_model *r = reload(m);
  CHECK(r != NULL);
  if (r) {
    check_recipe_graph(r, BF16, "bf16", 2, F32);
    onnxslim_tensor *t = onnxslim_graph_find_initializer(onnxslim_model_graph(r), WORD_EMB);
    CHECK(t && onnxslim_tensor_storage(t) == ONNXSLIM_STORAGE_RAW);
    CHECK(data_is(t, want, n * 2));
    /* the untouched position table keeps its bytes */
    size_t pn = 0, qn = 0;
    float *p0 =
        floats_of(onnxslim_graph_find_initializer(onnxslim_model_graph(orig), POS_EMB), &pn);
    float *p1 = floats_of(onnxslim_graph_find_initializer(onnxslim_model_graph(r), POS_EMB), &qn);
    CHECK(p0 && p1 && pn == qn && memcmp(p0, p1, pn * 4) == 0);
    free(p0), free(p1);
  }
  onnxslim_model_free(r);
free_out:
  free(want), free(ref);
out:
  free(src);
  onnxslim_model_free(orig), onnxslim_model_free(m);
}

/* The policies are an enum now; their values never change. */
_Static_assert(ONNXSLIM_CONVERT_POLICY_CAST_AFTER_GATHER == 1 &&
                   ONNXSLIM_CONVERT_POLICY_CAST_BEFORE == 2 &&
                   ONNXSLIM_CONVERT_POLICY_STORAGE_ONLY == 3,
               "policy values");

TEST(gather_recipe_bf16_nearest) { recipe_on_bert(0); }
TEST(gather_recipe_bf16_truncate) { recipe_on_bert(ONNXSLIM_CONVERT_TRUNCATE); }

TEST(gather_recipe_fp16_and_min_size) {
  /* min_size 0: both Gather tables (word 6400 bytes, position 1024) */
  onnxslim_model *m = open_model(BERT);
  CHECK(m != NULL);
  if (!m) return;
  onnxslim_convert_report *rep = NULL;
  CHECK_OK(onnxslim_convert_gather_tables(&rep, m, F16, 0, 0));
  CHECK_STR(report_names(rep), POS_EMB "," WORD_EMB);
  onnxslim_convert_report_free(rep);
  onnxslim_graph *g = onnxslim_model_graph(m);
  CHECK(count_op(g, "Cast") == 3);
  onnxslim_node *c = onnxslim_graph_producer(g, "/embeddings/position_embeddings/Gather_output_0");
  CHECK(c && streq(onnxslim_node_op_type(c), "Cast") && cast_to(c) == F32);
  /* weights read by MatMul etc. are not Gather tables */
  CHECK(onnxslim_tensor_dtype(onnxslim_graph_find_initializer(g, "classifier.dense.weight")) ==
        F32);
  onnxslim_model *r = reload(m);
  if (r) check_recipe_graph(r, F16, "fp16", 3, F16);
  onnxslim_model_free(r);
  onnxslim_model_free(m);

  /* min_size exactly the table's size selects it, one byte more does not */
  m = open_model(BERT);
  if (!m) return;
  CHECK_OK(onnxslim_convert_gather_tables(&rep, m, BF16, 6400, 0));
  CHECK(onnxslim_convert_report_count(rep) == 1);
  onnxslim_convert_report_free(rep);
  onnxslim_model_free(m);
  m = open_model(BERT);
  if (!m) return;
  size_t n0 = 0, n1 = 0;
  uint8_t *b0 = save_bytes(m, &n0);
  CHECK_OK(onnxslim_convert_gather_tables(&rep, m, BF16, 6401, 0));
  CHECK(onnxslim_convert_report_count(rep) == 0);
  uint8_t *b1 = save_bytes(m, &n1);
  CHECK(b0 && b1 && n0 == n1 && memcmp(b0, b1, n0) == 0); /* nothing to do: unchanged */
  free(b0), free(b1);
  onnxslim_convert_report_free(rep);
  /* only BF16 and FP16 are offered by the recipe call */
  CHECK(onnxslim_convert_gather_tables(NULL, m, ONNXSLIM_DTYPE_INT8, 0, 0) ==
        ONNXSLIM_EUNSUPPORTED);
  onnxslim_model_free(m);
}

static onnxslim_model *sum_model(void);

static int count_progress(uint64_t done, uint64_t total, void *payload) {
  (void)done, (void)total;
  ++*(int *)payload;
  return 0;
}

/* The options-taking form of the recipe call: NULL options are the recipe
 * (the same bytes as the shorthand), the options apply (policy, exclude,
 * progress), and its refusals change nothing. */
TEST(gather_tables_with) {
  onnxslim_model *a = open_model(BERT), *b = open_model(BERT);
  if (!a || !b) return;
  onnxslim_convert_report *rep = NULL;
  CHECK_OK(onnxslim_convert_gather_tables_with(&rep, a, NULL));
  CHECK_STR(report_names(rep), POS_EMB "," WORD_EMB);
  onnxslim_convert_report_free(rep);
  CHECK_OK(onnxslim_convert_gather_tables(NULL, b, BF16, 0, 0));
  size_t na = 0, nb = 0;
  uint8_t *ba = save_bytes(a, &na), *bb = save_bytes(b, &nb);
  CHECK(ba && bb && na == nb && memcmp(ba, bb, na) == 0);
  free(ba), free(bb);
  onnxslim_model_free(a);
  onnxslim_model_free(b);

  onnxslim_model *m = open_model(BERT);
  if (!m) return;
  size_t n0 = 0, n1 = 0;
  uint8_t *b0 = save_bytes(m, &n0);
  onnxslim_convert_options o = ONNXSLIM_CONVERT_OPTIONS_INIT;
  static const char *const sel[] = {WORD_EMB};
  o.select = sel; /* the tables are its own selection */
  o.n_select = 1;
  rep = (onnxslim_convert_report *)1;
  CHECK(onnxslim_convert_gather_tables_with(&rep, m, &o) == ONNXSLIM_EINVAL && rep == NULL);
  o.n_select = 0;
  o.to = ONNXSLIM_DTYPE_INT8;
  CHECK(onnxslim_convert_gather_tables_with(NULL, m, &o) == ONNXSLIM_EUNSUPPORTED);
  CHECK(strstr(onnxslim_error_last(), "onnxslim_quantize") != NULL);
  o.to = F16;
  o.version = ONNXSLIM_CONVERT_OPTIONS_VERSION + 1;
  CHECK(onnxslim_convert_gather_tables_with(NULL, m, &o) == ONNXSLIM_EINVAL);
  CHECK(onnxslim_convert_gather_tables_with(NULL, NULL, NULL) == ONNXSLIM_EINVAL);
  uint8_t *b1 = save_bytes(m, &n1);
  CHECK(b0 && b1 && n0 == n1 && memcmp(b0, b1, n0) == 0); /* refused: unchanged */
  free(b1);
  /* policy, exclude and progress apply */
  o.version = ONNXSLIM_CONVERT_OPTIONS_VERSION;
  o.policy = ONNXSLIM_CONVERT_POLICY_CAST_BEFORE;
  static const char *const exc[] = {WORD_EMB};
  o.exclude = exc;
  o.n_exclude = 1;
  int calls = 0;
  o.progress = count_progress;
  o.progress_payload = &calls;
  CHECK_OK(onnxslim_convert_gather_tables_with(&rep, m, &o));
  CHECK_STR(report_names(rep), POS_EMB);
  CHECK(calls > 0);
  onnxslim_convert_report_free(rep);
  onnxslim_graph *g = onnxslim_model_graph(m);
  CHECK(onnxslim_tensor_dtype(onnxslim_graph_find_initializer(g, POS_EMB)) == F16);
  CHECK(onnxslim_tensor_dtype(onnxslim_graph_find_initializer(g, WORD_EMB)) == F32);
  onnxslim_node *c = onnxslim_graph_producer(g, "/embeddings/position_embeddings/Gather_output_0");
  CHECK(c && !streq(onnxslim_node_op_type(c), "Cast")); /* the Cast is before the Gather */
  onnxslim_model_free(m);
  free(b0);

  /* a model without a Gather table: ENOTFOUND, a message that says so */
  m = open_model(BERT);
  if (!m) return;
  o = (onnxslim_convert_options)ONNXSLIM_CONVERT_OPTIONS_INIT;
  o.min_size = UINT64_MAX;
  CHECK_OK(onnxslim_convert_gather_tables_with(&rep, m, &o)); /* found, none large enough */
  CHECK(onnxslim_convert_report_count(rep) == 0);
  onnxslim_convert_report_free(rep);
  onnxslim_model_free(m);
  m = sum_model();
  if (!m) return;
  CHECK(count_op(onnxslim_model_graph(m), "Gather") == 0);
  CHECK(onnxslim_convert_gather_tables_with(NULL, m, NULL) == ONNXSLIM_ENOTFOUND);
  CHECK(strstr(onnxslim_error_last(), "no Gather table") != NULL);
  onnxslim_model_free(m);
}

TEST(gather_tied_table) {
  init_values();
  onnxslim_model *m = tied_model();
  CHECK(m != NULL);
  if (!m) return;
  CHECK(problems(m) == 0);
  onnxslim_convert_report *rep = NULL;
  /* default options: BF16, cast after Gather, everything */
  onnxslim_convert_options o = ONNXSLIM_CONVERT_OPTIONS_INIT;
  CHECK(o.to == BF16 && o.policy == ONNXSLIM_CONVERT_POLICY_CAST_AFTER_GATHER && o.n_select == 0);
  CHECK_OK(onnxslim_convert_model(&rep, m, &o));
  CHECK_STR(report_names(rep), "emb");
  onnxslim_convert_report_free(rep);
  for (int pass = 0; pass < 2; pass++) {
    onnxslim_model *r = pass ? reload(m) : m;
    if (!r) continue;
    onnxslim_graph *g = onnxslim_model_graph(r);
    CHECK(onnxslim_graph_node_count(g) == 8);
    CHECK(count_op(g, "Cast") == 3);
    CHECK(onnxslim_tensor_dtype(onnxslim_graph_find_initializer(g, "emb")) == BF16);
    /* a Cast after each Gather, taking over its output name */
    const char *outs[2] = {"e1", "e2"};
    for (int k = 0; k < 2; k++) {
      onnxslim_node *gather = onnxslim_graph_find_node(g, k ? "g2" : "g1");
      onnxslim_node *cast = onnxslim_graph_producer(g, outs[k]);
      CHECK(gather && cast && streq(onnxslim_node_op_type(cast), "Cast") && cast_to(cast) == F32);
      CHECK(gather && cast && streq(onnxslim_node_input(cast, 0), onnxslim_node_output(gather, 0)));
      CHECK(gather && streq(onnxslim_node_input(gather, 0), "emb"));
    }
    onnxslim_node *g1 = onnxslim_graph_find_node(g, "g1"), *g2 = onnxslim_graph_find_node(g, "g2");
    CHECK(g1 && streq(onnxslim_node_output(g1, 0), "e1_bf16"));
    CHECK(g2 && streq(onnxslim_node_output(g2, 0), "e2_bf16"));
    /* e1 had a value_info, so e1_bf16 gets one (BF16); e2 had none */
    CHECK(vi_elem(g, "e1_bf16") == BF16 && vi_elem(g, "e1") == F32);
    CHECK(vi_elem(g, "e2_bf16") == -1);
    /* the Transpose is not a Gather: one Cast before it, back to FLOAT */
    onnxslim_node *tr = onnxslim_graph_find_node(g, "tr");
    const char *tin = tr ? onnxslim_node_input(tr, 0) : NULL;
    CHECK(tin && !streq(tin, "emb"));
    onnxslim_node *cb = tin ? onnxslim_graph_producer(g, tin) : NULL;
    CHECK(cb && streq(onnxslim_node_op_type(cb), "Cast") && cast_to(cb) == F32 &&
          streq(onnxslim_node_input(cb, 0), "emb"));
    CHECK(readers(g, "emb") == 3); /* g1, g2 and that Cast */
    CHECK(problems(r) == 0);
    if (pass) onnxslim_model_free(r);
  }
  onnxslim_model_free(m);
}

/* ---- cast before ---------------------------------------------------------- */

TEST(cast_before_fp16_matmul_weight) {
  init_values();
  onnxslim_model *m = mixed_model();
  CHECK(m != NULL);
  if (!m) return;
  CHECK(problems(m) == 0);
  size_t nodes = onnxslim_graph_node_count(onnxslim_model_graph(m));
  const char *sel[] = {"fc.weight"};
  onnxslim_convert_report *rep = NULL;
  CHECK_OK(convert(m, F16, ONNXSLIM_CONVERT_POLICY_CAST_BEFORE, 0, sel, 1, 0, &rep));
  CHECK_STR(report_names(rep), "fc.weight");
  uint64_t before = 0, after = 0;
  CHECK_OK(entry(rep, 0, NULL, NULL, NULL, &before, &after, NULL));
  CHECK(before == 64 && after == 32);
  onnxslim_convert_report_free(rep);
  uint16_t want[16];
  CHECK_OK(onnxslim_convert_f32_to_f16(want, fcw_v, 16, 0, NULL));
  for (int pass = 0; pass < 2; pass++) {
    onnxslim_model *r = pass ? reload(m) : m;
    if (!r) continue;
    onnxslim_graph *g = onnxslim_model_graph(r);
    onnxslim_tensor *t = onnxslim_graph_find_initializer(g, "fc.weight");
    CHECK(t && onnxslim_tensor_dtype(t) == F16);
    CHECK(data_is(t, want, sizeof want));
    CHECK(onnxslim_graph_node_count(g) == nodes + 1);
    CHECK(count_op(g, "Cast") == 1);
    /* exactly one reader of the FP16 initializer: the Cast to FLOAT */
    CHECK(readers(g, "fc.weight") == 1);
    onnxslim_node *cast = onnxslim_graph_consumer(g, "fc.weight", 0);
    CHECK(cast && streq(onnxslim_node_op_type(cast), "Cast") && cast_to(cast) == F32);
    const char *cout = cast ? onnxslim_node_output(cast, 0) : NULL;
    /* ... and it feeds both MatMuls at input 1 */
    onnxslim_node *mm1 = onnxslim_graph_find_node(g, "n_mm1"),
                  *mm2 = onnxslim_graph_find_node(g, "n_mm2");
    CHECK(mm1 && mm2 && cout && streq(onnxslim_node_input(mm1, 1), cout) &&
          streq(onnxslim_node_input(mm2, 1), cout));
    CHECK(cout && onnxslim_graph_consumer_count(g, cout) == 2);
    /* the initializer's value_info follows its type, the Cast's output is FLOAT */
    CHECK(vi_elem(g, "fc.weight") == F16);
    CHECK(cout && (vi_elem(g, cout) == F32 || vi_elem(g, cout) == -1));
    /* the Cast is placed before its first consumer */
    size_t ci = SIZE_MAX, mi = SIZE_MAX;
    for (size_t i = 0; i < onnxslim_graph_node_count(g); i++) {
      if (onnxslim_graph_node(g, i) == cast) ci = i;
      if (onnxslim_graph_node(g, i) == mm1) mi = i;
    }
    CHECK(ci < mi);
    /* nothing else changed type */
    CHECK(onnxslim_tensor_dtype(onnxslim_graph_find_initializer(g, "emb.weight")) == F32);
    CHECK(onnxslim_tensor_dtype(onnxslim_graph_find_initializer(g, "fc.bias")) == F32);
    CHECK(problems(r) == 0);
    if (pass) onnxslim_model_free(r);
  }
  onnxslim_model_free(m);
}

/* ---- storage only ------------------------------------------------------ */

/* "sum": initializers a and b, both FLOAT, read together by an Add (one
 * constraint T), its sum cast to FLOAT; a graph output y (FLOAT). */
static onnxslim_model *sum_model(void) {
  static const float av[3] = {1.0f, 0.5f, -2.0f}, bv[3] = {0.25f, 3.0f, 1e-3f};
  static const int64_t d3[] = {3};
  pbuf g = {0}, n, t;
  n = node("Add", "add", "a", "b", "s");
  add_node(&g, &n);
  n = node("Cast", "cast", "s", NULL, "y");
  attr_int(&n, "to", ONNXSLIM_DTYPE_FLOAT);
  add_node(&g, &n);
  pb_str(&g, 2, "sum");
  t = tensor_raw("a", F32, d3, 1, av, sizeof av);
  pb_msg(&g, 5, &t);
  t = tensor_raw("b", F32, d3, 1, bv, sizeof bv);
  pb_msg(&g, 5, &t);
  add_vi(&g, 12, "y", F32, d3, 1);
  pbuf m = model_of(&g);
  return from_pbuf(&m);
}

/* A storage-only conversion whose readers would not take the new type is
 * refused with the check's message, the model unchanged (to the byte). */
TEST(storage_only_refused) {
  init_values();
  onnxslim_model *m = mixed_model();
  CHECK(m != NULL);
  if (!m) return;
  size_t n0 = 0, n1 = 0;
  uint8_t *b0 = save_bytes(m, &n0);
  const char *sel[] = {"emb.weight", "fc.weight"};
  onnxslim_convert_report *rep = NULL;
  onnxslim_error_clear();
  CHECK(convert(m, BF16, ONNXSLIM_CONVERT_POLICY_STORAGE_ONLY, 0, sel, 2, 0, &rep) ==
        ONNXSLIM_EMODEL);
  CHECK(rep == NULL);
  const char *msg = onnxslim_error_last();
  /* the check's location and message, and its name */
  CHECK(strstr(msg, "storage-only conversion to BFLOAT16 refused") != NULL);
  CHECK(strstr(msg,
               "graph 'mixed' node[0] 'n_gather' output[0] 'e': 'output' of Gather is FLOAT, "
               "but T is BFLOAT16 (from input 0 'emb.weight') [type_constraint]") != NULL);
  CHECK(strstr(msg, "more problem") != NULL && strstr(msg, "cast-before") != NULL);
  uint8_t *b1 = save_bytes(m, &n1);
  CHECK(b0 && b1 && n0 == n1 && memcmp(b0, b1, n0) == 0);
  free(b1);
  /* one input of a MatMul whose other input stays FLOAT */
  const char *fc[] = {"fc.weight"};
  CHECK(convert(m, F16, ONNXSLIM_CONVERT_POLICY_STORAGE_ONLY, 0, fc, 1, 0, NULL) ==
        ONNXSLIM_EMODEL);
  CHECK(strstr(onnxslim_error_last(),
               "node[1] 'n_mm1' input[1] 'fc.weight': 'B' of MatMul is "
               "FLOAT16, but T is FLOAT (from input 0 'x')") != NULL);
  b1 = save_bytes(m, &n1);
  CHECK(b0 && b1 && n0 == n1 && memcmp(b0, b1, n0) == 0);
  free(b1);
  free(b0);
  onnxslim_model_free(m);

  /* of two inputs tied by one constraint, one alone is refused */
  m = sum_model();
  CHECK(m != NULL);
  if (!m) return;
  const char *a[] = {"a"};
  CHECK(convert(m, F16, ONNXSLIM_CONVERT_POLICY_STORAGE_ONLY, 0, a, 1, 0, NULL) == ONNXSLIM_EMODEL);
  CHECK(strstr(onnxslim_error_last(), "node[0] 'add'") != NULL);
  CHECK(onnxslim_tensor_dtype(onnxslim_graph_find_initializer(onnxslim_model_graph(m), "a")) ==
        F32);
  onnxslim_model_free(m);
}

/* A storage-only conversion whose result passes the check still converts:
 * both inputs of the Add at once, the sum read by a Cast. */
TEST(storage_only_valid) {
  onnxslim_model *m = sum_model();
  CHECK(m != NULL);
  if (!m) return;
  onnxslim_graph *g0 = onnxslim_model_graph(m);
  size_t nodes = onnxslim_graph_node_count(g0);
  const char *sel[] = {"a", "b"};
  onnxslim_convert_report *rep = NULL;
  CHECK_OK(convert(m, F16, ONNXSLIM_CONVERT_POLICY_STORAGE_ONLY, 0, sel, 2, 0, &rep));
  CHECK_STR(report_names(rep), "a,b");
  onnxslim_convert_report_free(rep);
  onnxslim_model *r = reload(m);
  CHECK(r != NULL);
  if (r) {
    onnxslim_graph *g = onnxslim_model_graph(r);
    CHECK(onnxslim_graph_node_count(g) == nodes);
    CHECK(count_op(g, "Cast") == 1);
    CHECK(onnxslim_tensor_dtype(onnxslim_graph_find_initializer(g, "a")) == F16);
    CHECK(onnxslim_tensor_dtype(onnxslim_graph_find_initializer(g, "b")) == F16);
    static const float av[3] = {1.0f, 0.5f, -2.0f};
    uint16_t want[3];
    CHECK_OK(onnxslim_convert_f32_to_f16(want, av, 3, 0, NULL));
    CHECK(data_is(onnxslim_graph_find_initializer(g, "a"), want, sizeof want));
    CHECK(problems(r) == 0);
  }
  onnxslim_model_free(r);
  onnxslim_model_free(m);
}

/* ---- selection ------------------------------------------------------------ */

/* Converts a fresh "mixed" model with CAST_BEFORE to `to` and returns the
 * sorted names converted ("" for none, "ERR<code>" on failure). */
static const char *excl_names(int32_t to, const char *const *sel, size_t n_sel,
                              const char *const *excl, size_t n_excl, uint64_t min_size) {
  static char buf[1024];
  onnxslim_model *m = mixed_model();
  if (!m) return "(no model)";
  onnxslim_convert_report *rep = NULL;
  int rc = convert_ex(m, to, ONNXSLIM_CONVERT_POLICY_CAST_BEFORE, 0, sel, n_sel, excl, n_excl,
                      min_size, &rep);
  if (rc) snprintf(buf, sizeof buf, "ERR%d", rc);
  else snprintf(buf, sizeof buf, "%s", report_names(rep));
  onnxslim_convert_report_free(rep);
  onnxslim_model_free(m);
  return buf;
}
static const char *select_names(int32_t to, const char *const *sel, size_t n_sel,
                                uint64_t min_size) {
  return excl_names(to, sel, n_sel, NULL, 0, min_size);
}
/* what excl_names() gives for a select entry that matches nothing */
#define NOTFOUND "ERR-6"

/* Compares a sorted name list with the expected one, saying what differs. */
static int names_are(const char *got, const char *want, int line) {
  if (strcmp(got, want) == 0) return 1;
  fprintf(stderr, "  line %d: converted \"%s\", expected \"%s\"\n", line, got, want);
  return 0;
}
#define NAMES_ARE(got, want) CHECK(names_are((got), (want), __LINE__))

#define SEL(...)                        \
  ((const char *const[]){__VA_ARGS__}), \
      (sizeof((const char *const[]){__VA_ARGS__}) / sizeof(const char *))

TEST(selection_specs) {
  init_values();
  /* n_select 0: every floating tensor with a kernel to the target */
  NAMES_ARE(select_names(BF16, NULL, 0, 0), "c,emb.weight,fc.bias,fc.weight,tiny,w[0]");
  /* to FLOAT only the DOUBLE tensor has a kernel (FLOAT -> FLOAT has none) */
  NAMES_ARE(select_names(F32, NULL, 0, 0), "dbl");
  /* min_size: bytes before conversion, inclusive */
  NAMES_ARE(select_names(BF16, NULL, 0, 16), "c,emb.weight,fc.bias,fc.weight,w[0]");
  NAMES_ARE(select_names(BF16, NULL, 0, 17), "emb.weight,fc.weight");
  NAMES_ARE(select_names(BF16, NULL, 0, 161), "");
  /* exact name */
  NAMES_ARE(select_names(F16, SEL("fc.bias"), 0), "fc.bias");
  NAMES_ARE(select_names(F16, SEL("fc"), 0), NOTFOUND);
  /* glob */
  NAMES_ARE(select_names(F16, SEL("*.weight"), 0), "emb.weight,fc.weight");
  NAMES_ARE(select_names(F16, SEL("fc.*"), 0), "fc.bias,fc.weight");
  NAMES_ARE(select_names(F16, SEL("t?ny"), 0), "tiny");
  NAMES_ARE(select_names(F16, SEL("*.weight"), 100), "emb.weight");
  /* consumer specs */
  NAMES_ARE(select_names(F16, SEL("op:MatMul:1"), 0), "fc.weight");
  NAMES_ARE(select_names(F16, SEL("op:MatMul:0"), 0), NOTFOUND);
  NAMES_ARE(select_names(F16, SEL("op:Gather"), 0), "emb.weight");
  NAMES_ARE(select_names(F16, SEL("op:Gather:0"), 0), "emb.weight");
  NAMES_ARE(select_names(F16, SEL("op:Gather:1"), 0), NOTFOUND);
  NAMES_ARE(select_names(F16, SEL("op:Mul:1"), 0), "c,tiny,w[0]"); /* c: a Constant's value */
  NAMES_ARE(select_names(F16, SEL("op:Add"), 0), "fc.bias");
  NAMES_ARE(select_names(F16, SEL("op:Identity"), 0), NOTFOUND); /* dbl: no DOUBLE -> FP16 kernel */
  NAMES_ARE(select_names(F32, SEL("op:Identity"), 0), "dbl");
  NAMES_ARE(select_names(F16, SEL("op:Matmul"), 0), NOTFOUND); /* op types are case sensitive */
  /* any entry may match; a tensor is converted once */
  NAMES_ARE(select_names(F16, SEL("op:Gather", "fc.bias", "*.weight"), 0),
            "emb.weight,fc.bias,fc.weight");
  /* a non-float tensor is never converted, even by name */
  NAMES_ARE(select_names(F16, SEL("shape_i"), 0), NOTFOUND);
  /* an entry matching only tensors below min_size is no error */
  NAMES_ARE(select_names(F16, SEL("fc.bias"), 100), "");
  NAMES_ARE(select_names(F16, SEL("*.weight", "fc.bias"), 100), "emb.weight");
}

TEST(selection_exact_name_with_glob_characters) {
  /* "exact name" must select a tensor whose name contains [ ] * ? (PyTorch
   * and TF exports have names like "layers[0].weight"). */
  init_values();
  NAMES_ARE(select_names(F16, SEL("w[0]"), 0), "w[0]");
  NAMES_ARE(select_names(F16, SEL("w[[]0]"), 0), "w[0]"); /* the glob for it */
}

/* Asserts that convert(...) fails with `code`, a message holding each of
 * the strings `words` (NULL-terminated; NULL: any message), and leaves the
 * model's bytes unchanged. */
static void refused_saying(int32_t to, int policy, unsigned flags, const char *const *sel,
                           size_t n_sel, int code, const char *const *words, int line) {
  onnxslim_model *m = mixed_model();
  CHECK(m != NULL);
  if (!m) return;
  size_t n0 = 0, n1 = 0;
  uint8_t *b0 = save_bytes(m, &n0);
  onnxslim_convert_report *rep = (onnxslim_convert_report *)1;
  onnxslim_error_clear();
  int rc = convert(m, to, policy, flags, sel, n_sel, 0, &rep);
  if (rc != code) fprintf(stderr, "line %d: rc %d, want %d\n", line, rc, code);
  CHECK(rc == code);
  CHECK(rep == NULL);
  CHECK(onnxslim_error_last_code() == code && onnxslim_error_last()[0] != '\0');
  for (size_t i = 0; words && words[i]; i++) {
    if (!strstr(onnxslim_error_last(), words[i]))
      fprintf(stderr, "line %d: message '%s' lacks '%s'\n", line, onnxslim_error_last(), words[i]);
    CHECK(strstr(onnxslim_error_last(), words[i]) != NULL);
  }
  uint8_t *b1 = save_bytes(m, &n1);
  CHECK(b0 && b1 && n0 == n1 && memcmp(b0, b1, n0) == 0);
  free(b0), free(b1);
  onnxslim_model_free(m);
}
static void refused(int32_t to, int policy, unsigned flags, const char *const *sel, size_t n_sel,
                    int code, int line) {
  refused_saying(to, policy, flags, sel, n_sel, code, NULL, line);
}

TEST(selection_and_options_refused) {
  init_values();
  const int CB = ONNXSLIM_CONVERT_POLICY_CAST_BEFORE;
  const int EINV = ONNXSLIM_EINVAL;
  /* invalid specs, also after a valid one that would match */
  refused(F16, CB, 0, SEL("op:"), EINV, __LINE__);
  refused(F16, CB, 0, SEL("op:Gather:x"), EINV, __LINE__);
  refused(F16, CB, 0, SEL("op:Gather:"), EINV, __LINE__);
  refused(F16, CB, 0, SEL("op::0"), EINV, __LINE__);
  refused(F16, CB, 0, SEL("op:Gather:-1"), EINV, __LINE__);
  refused(F16, CB, 0, SEL("op:Gather:1x"), EINV, __LINE__);
  refused(F16, CB, 0, SEL("op:Gather:0:1"), EINV, __LINE__);
  refused(F16, CB, 0, SEL(""), EINV, __LINE__);
  refused(F16, CB, 0, SEL("fc.weight", "op:Gather:x"), EINV, __LINE__);
  refused(F16, CB, 0, SEL("fc.weight", NULL), EINV, __LINE__);
  refused(F16, CB, 0, NULL, 1, EINV, __LINE__);
  /* policy and flags */
  refused(F16, 0, 0, NULL, 0, EINV, __LINE__);
  refused(F16, 4, 0, NULL, 0, EINV, __LINE__);
  refused(F16, CB, 0x8, NULL, 0, EINV, __LINE__);
  refused(F16, CB, 0x80000000u, NULL, 0, EINV, __LINE__);
  /* targets without a kernel */
  refused(ONNXSLIM_DTYPE_INT16, CB, 0, NULL, 0, ONNXSLIM_EUNSUPPORTED, __LINE__);
  refused(ONNXSLIM_DTYPE_FLOAT8E4M3FN, CB, 0, NULL, 0, ONNXSLIM_EUNSUPPORTED, __LINE__);
  refused(ONNXSLIM_DTYPE_UNDEFINED, CB, 0, NULL, 0, ONNXSLIM_EUNSUPPORTED, __LINE__);
  refused(999, CB, 0, SEL("fc.weight"), ONNXSLIM_EUNSUPPORTED, __LINE__);
  /* options versions and NULLs */
  onnxslim_model *m = mixed_model();
  onnxslim_convert_options o = ONNXSLIM_CONVERT_OPTIONS_INIT;
  o.version = 0;
  CHECK(onnxslim_convert_model(NULL, m, &o) == EINV);
  o.version = ONNXSLIM_CONVERT_OPTIONS_VERSION + 1;
  CHECK(onnxslim_convert_model(NULL, m, &o) == EINV);
  o.version = ONNXSLIM_CONVERT_OPTIONS_VERSION;
  CHECK(onnxslim_convert_model(NULL, NULL, &o) == EINV);
  CHECK(onnxslim_convert_options_init(NULL, ONNXSLIM_CONVERT_OPTIONS_VERSION) == EINV);
  CHECK(onnxslim_convert_options_init(&o, 99) == EINV);
  CHECK_OK(onnxslim_convert_options_init(&o, ONNXSLIM_CONVERT_OPTIONS_VERSION));
  CHECK(o.to == BF16 && o.policy == ONNXSLIM_CONVERT_POLICY_CAST_AFTER_GATHER && o.flags == 0 &&
        o.select == NULL && o.n_select == 0 && o.min_size == 0 && o.exclude == NULL &&
        o.n_exclude == 0 && o.report_flags == 0);
  /* out may be NULL */
  CHECK_OK(onnxslim_convert_model(NULL, m, &o));
  CHECK(onnxslim_tensor_dtype(
            onnxslim_graph_find_initializer(onnxslim_model_graph(m), "fc.weight")) == BF16);
  onnxslim_model_free(m);
}

TEST(selection_matching_nothing_refused) {
  /* each select entry must match a convertible tensor: the call fails with
   * ONNXSLIM_ENOTFOUND naming the entry, the model unchanged */
  init_values();
  CHECK(ONNXSLIM_ENOTFOUND == -6);
  const int CB = ONNXSLIM_CONVERT_POLICY_CAST_BEFORE, NF = ONNXSLIM_ENOTFOUND;
  refused_saying(F16, CB, 0, SEL("no.such.tensor"), NF,
                 (const char *const[]){"'no.such.tensor'", "FLOAT16", NULL}, __LINE__);
  refused_saying(F16, CB, 0, SEL("fc.weight", "op:Conv"), NF,
                 (const char *const[]){"'op:Conv'", NULL}, __LINE__);
  /* no DOUBLE -> BF16 kernel */
  refused_saying(BF16, CB, 0, SEL("op:Gather", "*.bias", "dbl"), NF,
                 (const char *const[]){"'dbl'", "BFLOAT16", NULL}, __LINE__);
  refused(F32, CB, 0, SEL("fc.weight"), NF, __LINE__); /* already FLOAT */
  /* the recipe on a model without a Gather table */
  onnxslim_model *m = crafted_model();
  onnxslim_convert_report *rep = (onnxslim_convert_report *)1;
  CHECK(onnxslim_convert_gather_tables(&rep, m, BF16, 0, 0) == NF && rep == NULL);
  CHECK(strstr(onnxslim_error_last(), "no Gather table") != NULL);
  CHECK(onnxslim_tensor_dtype(onnxslim_graph_find_initializer(onnxslim_model_graph(m), "craft")) ==
        F32);
  onnxslim_model_free(m);
}

TEST(exclusion_specs) {
  init_values();
  /* names, globs and consumer specs, as select */
  NAMES_ARE(excl_names(BF16, NULL, 0, SEL("fc.*"), 0), "c,emb.weight,tiny,w[0]");
  NAMES_ARE(excl_names(BF16, NULL, 0, SEL("op:Mul:1"), 0), "emb.weight,fc.bias,fc.weight");
  NAMES_ARE(excl_names(BF16, NULL, 0, SEL("w[0]", "tiny"), 0), "c,emb.weight,fc.bias,fc.weight");
  NAMES_ARE(excl_names(F16, SEL("*.weight"), SEL("emb.weight"), 0), "fc.weight");
  NAMES_ARE(excl_names(F16, SEL("op:MatMul"), SEL("op:MatMul:1"), 0), "");
  /* an exclude entry matching nothing is no error; min_size still applies */
  NAMES_ARE(excl_names(BF16, NULL, 0, SEL("no.such.tensor"), 17), "emb.weight,fc.weight");
  /* select entries are matched before exclusion: excluding everything a
   * select entry matches is no error */
  NAMES_ARE(excl_names(F16, SEL("fc.bias", "emb.weight"), SEL("fc.bias"), 0), "emb.weight");
  /* invalid exclusion specs */
  onnxslim_model *m = mixed_model();
  const char *bad[] = {"op:", "", "op:Gather:x"};
  for (int i = 0; i < 3; i++)
    CHECK(convert_ex(m, F16, ONNXSLIM_CONVERT_POLICY_CAST_BEFORE, 0, NULL, 0, &bad[i], 1, 0,
                     NULL) == ONNXSLIM_EINVAL);
  CHECK(convert_ex(m, F16, ONNXSLIM_CONVERT_POLICY_CAST_BEFORE, 0, NULL, 0, NULL, 1, 0, NULL) ==
        ONNXSLIM_EINVAL);
  CHECK(onnxslim_tensor_dtype(
            onnxslim_graph_find_initializer(onnxslim_model_graph(m), "fc.weight")) == F32);
  onnxslim_model_free(m);
}

/* onnxslim_convert_options as a caller built against version 1 saw it */
typedef struct {
  unsigned int version;
  int32_t to;
  int policy;
  unsigned int flags;
  const char *const *select;
  size_t n_select;
  uint64_t min_size;
} options_v1;

TEST(options_version_1_callers) {
  init_values();
  CHECK(ONNXSLIM_CONVERT_OPTIONS_VERSION == 5);
  /* init of version 1 writes the version-1 fields only */
  unsigned char *mem = malloc(sizeof(options_v1) + 32);
  memset(mem, 0xAB, sizeof(options_v1) + 32);
  options_v1 *v1 = (options_v1 *)mem;
  CHECK_OK(onnxslim_convert_options_init((onnxslim_convert_options *)mem, 1));
  CHECK(v1->version == 1 && v1->to == BF16 &&
        v1->policy == ONNXSLIM_CONVERT_POLICY_CAST_AFTER_GATHER && v1->flags == 0 &&
        v1->select == NULL && v1->n_select == 0 && v1->min_size == 0);
  int canary = 1;
  for (size_t i = sizeof(options_v1); i < sizeof(options_v1) + 32; i++) canary &= mem[i] == 0xAB;
  CHECK(canary);
  free(mem);
  /* a version-1 struct in memory of exactly its size (the sanitizer and
   * valgrind steps catch a read past it) converts as before */
  v1 = malloc(sizeof *v1);
  CHECK_OK(onnxslim_convert_options_init((onnxslim_convert_options *)v1, 1));
  static const char *const sel[] = {"fc.*"};
  v1->to = F16;
  v1->policy = ONNXSLIM_CONVERT_POLICY_CAST_BEFORE;
  v1->select = sel;
  v1->n_select = 1;
  onnxslim_model *m = mixed_model();
  onnxslim_convert_report *rep = NULL;
  CHECK_OK(onnxslim_convert_model(&rep, m, (const onnxslim_convert_options *)v1));
  CHECK_STR(report_names(rep), "fc.bias,fc.weight");
  onnxslim_convert_report_free(rep);
  onnxslim_model_free(m);
  free(v1);
  /* version 2 defaults: nothing excluded */
  onnxslim_convert_options o;
  memset(&o, 0xAB, sizeof o);
  CHECK_OK(onnxslim_convert_options_init(&o, 2));
  CHECK(o.version == 2 && o.exclude == NULL && o.n_exclude == 0);
  /* version 3 defaults: a report with statistics */
  memset(&o, 0xAB, sizeof o);
  CHECK_OK(onnxslim_convert_options_init(&o, 3));
  CHECK(o.version == 3 && o.exclude == NULL && o.report_flags == 0);
  /* version 4 defaults: no progress function */
  memset(&o, 0xAB, sizeof o);
  CHECK_OK(onnxslim_convert_options_init(&o, 4));
  CHECK(o.version == 4 && o.report_flags == 0 && o.progress == NULL && o.progress_payload == NULL);
  /* version 5 defaults: tensors that would overflow are kept; a version-4
   * caller's struct ends before `overflow` */
  memset(&o, 0xAB, sizeof o);
  CHECK_OK(onnxslim_convert_options_init(&o, 5));
  CHECK(o.version == 5 && o.overflow == ONNXSLIM_CONVERT_OVERFLOW_KEEP);
  memset(&o, 0xAB, sizeof o);
  CHECK_OK(onnxslim_convert_options_init(&o, 4));
  CHECK(o.version == 4 && o.overflow == (int)0xABABABAB);
  CHECK(onnxslim_convert_options_init(&o, 6) == ONNXSLIM_EINVAL);
  CHECK(onnxslim_convert_options_init(&o, 0) == ONNXSLIM_EINVAL);
}

/* onnxslim_convert_options as a caller built against version 2 saw it */
typedef struct {
  unsigned int version;
  int32_t to;
  int policy;
  unsigned int flags;
  const char *const *select;
  size_t n_select;
  uint64_t min_size;
  const char *const *exclude;
  size_t n_exclude;
} options_v2;

TEST(options_version_2_callers) {
  init_values();
  CHECK(sizeof(options_v2) <= offsetof(onnxslim_convert_options, report_flags));
  /* init of version 2 writes the version-2 fields only */
  unsigned char *mem = malloc(sizeof(options_v2) + 32);
  memset(mem, 0xAB, sizeof(options_v2) + 32);
  options_v2 *v2 = (options_v2 *)mem;
  CHECK_OK(onnxslim_convert_options_init((onnxslim_convert_options *)mem, 2));
  CHECK(v2->version == 2 && v2->to == BF16 && v2->exclude == NULL && v2->n_exclude == 0);
  int canary = 1;
  for (size_t i = sizeof(options_v2); i < sizeof(options_v2) + 32; i++) canary &= mem[i] == 0xAB;
  CHECK(canary);
  free(mem);
  /* a version-2 struct in memory of exactly its size converts as before,
   * with a report that has its statistics (report_flags is not read), and
   * the default of version 6: "craft", whose values overflow FP16, is kept */
  v2 = malloc(sizeof *v2);
  CHECK_OK(onnxslim_convert_options_init((onnxslim_convert_options *)v2, 2));
  static const char *const sel[] = {"craft"};
  v2->to = F16;
  v2->policy = ONNXSLIM_CONVERT_POLICY_CAST_BEFORE;
  v2->select = sel;
  v2->n_select = 1;
  onnxslim_model *m = crafted_model();
  onnxslim_convert_report *rep = NULL;
  CHECK_OK(onnxslim_convert_model(&rep, m, (const onnxslim_convert_options *)v2));
  onnxslim_convert_stats st = ONNXSLIM_CONVERT_STATS_INIT;
  CHECK(onnxslim_convert_report_count(rep) == 0 && onnxslim_convert_report_kept_count(rep) == 1);
  CHECK_OK(onnxslim_convert_report_kept_add_stats(rep, 0, &st));
  CHECK(st.count > 0 && st.to_inf > 0 && st.max_abs_error > 0.0);
  onnxslim_convert_report_free(rep);
  onnxslim_model_free(m);
  free(v2);
}

TEST(null_options_are_defaults) {
  /* opts NULL converts as ONNXSLIM_CONVERT_OPTIONS_INIT does: the same
   * report and the same saved bytes; out may be NULL as well */
  init_values();
  onnxslim_model *a = mixed_model(), *b = mixed_model(), *c = mixed_model();
  CHECK(a && b && c);
  if (!a || !b || !c) {
    onnxslim_model_free(a);
    onnxslim_model_free(b);
    onnxslim_model_free(c);
    return;
  }
  const onnxslim_convert_options defaults = ONNXSLIM_CONVERT_OPTIONS_INIT;
  onnxslim_convert_report *ra = NULL, *rb = NULL;
  CHECK_OK(onnxslim_convert_model(&ra, a, NULL));
  CHECK_OK(onnxslim_convert_model(&rb, b, &defaults));
  CHECK_OK(onnxslim_convert_model(NULL, c, NULL));
  size_t n = onnxslim_convert_report_count(ra);
  CHECK(n == 6 && onnxslim_convert_report_count(rb) == n);
  for (size_t i = 0; i < n; i++) {
    onnxslim_convert_stats sa = ONNXSLIM_CONVERT_STATS_INIT, sb = ONNXSLIM_CONVERT_STATS_INIT;
    CHECK_STR(onnxslim_convert_report_name(ra, i), onnxslim_convert_report_name(rb, i));
    CHECK(onnxslim_convert_report_to(ra, i) == BF16);
    CHECK_OK(onnxslim_convert_report_add_stats(ra, i, &sa));
    CHECK_OK(onnxslim_convert_report_add_stats(rb, i, &sb));
    CHECK(sa.count == sb.count && sa.max_abs_error == sb.max_abs_error);
  }
  size_t na = 0, nb = 0, nc = 0;
  uint8_t *ba = save_bytes(a, &na), *bb = save_bytes(b, &nb), *bc = save_bytes(c, &nc);
  CHECK(ba && bb && bc && na == nb && na == nc && memcmp(ba, bb, na) == 0 &&
        memcmp(ba, bc, na) == 0);
  free(ba);
  free(bb);
  free(bc);
  onnxslim_convert_report_free(ra);
  onnxslim_convert_report_free(rb);
  onnxslim_model_free(a);
  onnxslim_model_free(b);
  onnxslim_model_free(c);
}

/* ---- opsets ---------------------------------------------------------------- */

/* Converts a "mixed" model importing `opset` of `domain` (none when < 0):
 * with want_rc 0 it must succeed and the result pass the check; else fail
 * with want_rc, a message naming `need` and what the model imports, and
 * the model unchanged. gather: onnxslim_convert_gather_tables(). */
static void opset_case(const char *domain, int64_t opset, int32_t to, int policy, int gather,
                       int want_rc, const char *need, int line) {
  onnxslim_model *m = mixed_model_at(domain, opset);
  CHECK(m != NULL);
  if (!m) return;
  size_t n0 = 0, n1 = 0;
  uint8_t *b0 = save_bytes(m, &n0);
  onnxslim_convert_report *rep = NULL;
  onnxslim_error_clear();
  int rc = gather ? onnxslim_convert_gather_tables(&rep, m, to, 0, 0)
                  : convert(m, to, policy, 0, NULL, 0, 0, &rep);
  /* storage only of every tensor of "mixed": the readers would not take
   * the new type, which the schema check refuses (the model unchanged) */
  int refused = 0;
  if (policy == ONNXSLIM_CONVERT_POLICY_STORAGE_ONLY && !gather && !want_rc &&
      rc == ONNXSLIM_EMODEL) {
    refused = 1;
    want_rc = rc;
    need = "[type_constraint]";
  }
  if (rc != want_rc)
    fprintf(stderr, "  line %d: opset %lld, to %d, policy %d: rc %d (%s), want %d\n", line,
            (long long)opset, (int)to, policy, rc, onnxslim_error_last(), want_rc);
  CHECK(rc == want_rc);
  if (want_rc) {
    char imports[64];
    if (opset >= 0)
      snprintf(imports, sizeof imports, "imports ai.onnx opset %lld", (long long)opset);
    else snprintf(imports, sizeof imports, "imports no ai.onnx opset");
    const char *msg = onnxslim_error_last();
    if (refused) imports[0] = '\0';
    if (!strstr(msg, need) || !strstr(msg, imports))
      fprintf(stderr, "  line %d: message '%s' lacks '%s' or '%s'\n", line, msg, need, imports);
    if (refused) imports[0] = '\0';
    CHECK(strstr(msg, need) && strstr(msg, imports));
    CHECK(rep == NULL);
    uint8_t *b1 = save_bytes(m, &n1);
    CHECK(b0 && b1 && n0 == n1 && memcmp(b0, b1, n0) == 0);
    free(b1);
  } else {
    CHECK(onnxslim_convert_report_count(rep) > 0);
    onnxslim_model *r = reload(m);
    CHECK(r && problems(r) == 0);
    onnxslim_model_free(r);
  }
  free(b0);
  onnxslim_convert_report_free(rep);
  onnxslim_model_free(m);
}

TEST(opset_bf16_needs_13) {
  init_values();
  const int EM = ONNXSLIM_EMODEL, NEED[] = {9, 11, 12};
  const int pol[] = {ONNXSLIM_CONVERT_POLICY_CAST_AFTER_GATHER, ONNXSLIM_CONVERT_POLICY_CAST_BEFORE,
                     ONNXSLIM_CONVERT_POLICY_STORAGE_ONLY};
  const char *bf = "BFLOAT16 needs opset 13 or later";
  for (int i = 0; i < 3; i++) {
    for (int p = 0; p < 3; p++) opset_case("", NEED[i], BF16, pol[p], 0, EM, bf, __LINE__);
    opset_case("", NEED[i], BF16, 0, 1, EM, bf, __LINE__);
    opset_case("ai.onnx", NEED[i], BF16, pol[0], 0, EM, bf, __LINE__);
  }
  /* no opset import at all (IR version 8) */
  opset_case("", -1, BF16, pol[0], 0, EM, bf, __LINE__);
  /* from opset 13 on, and in either spelling of the domain */
  for (int p = 0; p < 3; p++) opset_case("", 13, BF16, pol[p], 0, 0, NULL, __LINE__);
  opset_case("", 13, BF16, 0, 1, 0, NULL, __LINE__);
  opset_case("ai.onnx", 13, BF16, pol[0], 0, 0, NULL, __LINE__);
}

TEST(opset_fp16_fp32_fp64_from_6) {
  /* Cast, Gather and Constant take FLOAT16 and DOUBLE in every version; the
   * inserted Casts need the integer 'to' of Cast-6 */
  init_values();
  const int EM = ONNXSLIM_EMODEL, OPS[] = {6, 9, 11, 12, 13};
  const int pol[] = {ONNXSLIM_CONVERT_POLICY_CAST_AFTER_GATHER, ONNXSLIM_CONVERT_POLICY_CAST_BEFORE,
                     ONNXSLIM_CONVERT_POLICY_STORAGE_ONLY};
  for (int i = 0; i < 5; i++)
    for (int p = 0; p < 3; p++) {
      opset_case("", OPS[i], F16, pol[p], 0, 0, NULL, __LINE__);
      opset_case("", OPS[i], F32, pol[p], 0, 0, NULL, __LINE__); /* dbl */
      opset_case("", OPS[i], F64, pol[p], 0, 0, NULL, __LINE__);
    }
  opset_case("", 9, F16, 0, 1, 0, NULL, __LINE__);
  const char *cast = "Casts, which need opset 6 or later";
  opset_case("", 5, F16, pol[0], 0, EM, cast, __LINE__);
  opset_case("", 1, F64, pol[1], 0, EM, cast, __LINE__);
  opset_case("", 5, F16, 0, 1, EM, cast, __LINE__);
  opset_case("", -1, F16, pol[1], 0, EM, cast, __LINE__);
  /* storage only inserts no Cast */
  opset_case("", 5, F16, pol[2], 0, 0, NULL, __LINE__);
}

/* ---- storage forms -------------------------------------------------------- */

TEST(storage_typed_float_and_double_data) {
  init_values();
  onnxslim_model *m = mixed_model();
  CHECK(m != NULL);
  if (!m) return;
  onnxslim_graph *g = onnxslim_model_graph(m);
  CHECK(onnxslim_tensor_storage(onnxslim_graph_find_initializer(g, "emb.weight")) ==
        ONNXSLIM_STORAGE_TYPED);
  CHECK(onnxslim_tensor_storage(onnxslim_graph_find_initializer(g, "dbl")) ==
        ONNXSLIM_STORAGE_TYPED);
  const char *sel[] = {"emb.weight"};
  CHECK_OK(convert(m, F16, ONNXSLIM_CONVERT_POLICY_CAST_BEFORE, 0, sel, 1, 0, NULL));
  /* DOUBLE -> FLOAT in the same model, cast back to DOUBLE */
  const char *sel2[] = {"dbl"};
  onnxslim_convert_report *rep = NULL;
  CHECK_OK(convert(m, F32, ONNXSLIM_CONVERT_POLICY_CAST_BEFORE, 0, sel2, 1, 0, &rep));
  int32_t from = 0, to = 0;
  uint64_t before = 0, after = 0;
  onnxslim_convert_stats st = ONNXSLIM_CONVERT_STATS_INIT;
  CHECK_OK(entry(rep, 0, NULL, &from, &to, &before, &after, &st));
  CHECK(from == F64 && to == F32 && before == 24 && after == 12 && st.count == 3);
  CHECK(st.max_abs_error > 0); /* 0.1 and 1e-3 are not FLOATs */
  onnxslim_convert_report_free(rep);
  uint16_t want[40];
  float wantd[3];
  CHECK_OK(onnxslim_convert_f32_to_f16(want, emb_v, 40, 0, NULL));
  CHECK_OK(onnxslim_convert_f64_to_f32(wantd, dbl_v, 3, 0, NULL));
  onnxslim_model *r = reload(m);
  CHECK(r != NULL);
  if (r) {
    onnxslim_graph *rg = onnxslim_model_graph(r);
    onnxslim_tensor *t = onnxslim_graph_find_initializer(rg, "emb.weight");
    CHECK(t && onnxslim_tensor_dtype(t) == F16 &&
          onnxslim_tensor_storage(t) == ONNXSLIM_STORAGE_RAW);
    CHECK(data_is(t, want, sizeof want));
    onnxslim_tensor *d = onnxslim_graph_find_initializer(rg, "dbl");
    CHECK(d && onnxslim_tensor_dtype(d) == F32 &&
          onnxslim_tensor_storage(d) == ONNXSLIM_STORAGE_RAW);
    CHECK(data_is(d, wantd, sizeof wantd));
    /* the Gather reads a Cast of the table (cast-before treats it like any consumer) */
    onnxslim_node *ga = onnxslim_graph_find_node(rg, "n_gather");
    onnxslim_node *c = ga ? onnxslim_graph_producer(rg, onnxslim_node_input(ga, 0)) : NULL;
    CHECK(c && streq(onnxslim_node_op_type(c), "Cast") && cast_to(c) == F32);
    onnxslim_node *id = onnxslim_graph_find_node(rg, "n_id");
    c = id ? onnxslim_graph_producer(rg, onnxslim_node_input(id, 0)) : NULL;
    CHECK(c && streq(onnxslim_node_op_type(c), "Cast") && cast_to(c) == F64 &&
          streq(onnxslim_node_input(c, 0), "dbl"));
    CHECK(problems(r) == 0);
  }
  onnxslim_model_free(r);
  onnxslim_model_free(m);
}

TEST(storage_constant_cast_before) {
  init_values();
  onnxslim_model *m = mixed_model();
  CHECK(m != NULL);
  if (!m) return;
  const char *sel[] = {"c"};
  onnxslim_convert_report *rep = NULL;
  CHECK_OK(convert(m, F16, ONNXSLIM_CONVERT_POLICY_CAST_BEFORE, 0, sel, 1, 0, &rep));
  CHECK_STR(report_names(rep), "c");
  onnxslim_convert_report_free(rep);
  uint16_t want[4];
  CHECK_OK(onnxslim_convert_f32_to_f16(want, cval_v, 4, 0, NULL));
  for (int pass = 0; pass < 2; pass++) {
    onnxslim_model *r = pass ? reload(m) : m;
    if (!r) continue;
    onnxslim_graph *g = onnxslim_model_graph(r);
    onnxslim_node *k = onnxslim_graph_find_node(g, "n_const");
    CHECK(k != NULL);
    if (!k) continue;
    onnxslim_tensor *t = onnxslim_attr_tensor(onnxslim_node_find_attr(k, "value"));
    CHECK(t && onnxslim_tensor_dtype(t) == F16);
    CHECK(data_is(t, want, sizeof want));
    /* the Constant writes a fresh name, a Cast to FLOAT takes over "c" */
    const char *kout = onnxslim_node_output(k, 0);
    CHECK(kout && !streq(kout, "c"));
    onnxslim_node *cast = onnxslim_graph_producer(g, "c");
    CHECK(cast && streq(onnxslim_node_op_type(cast), "Cast") && cast_to(cast) == F32 &&
          streq(onnxslim_node_input(cast, 0), kout));
    /* downstream unchanged */
    onnxslim_node *mul = onnxslim_graph_find_node(g, "n_mul");
    CHECK(mul && streq(onnxslim_node_input(mul, 1), "c"));
    /* "c" had a value_info: it stays FLOAT, the Constant's edge is FLOAT16 */
    CHECK(vi_elem(g, "c") == F32);
    CHECK(kout && vi_elem(g, kout) == F16);
    CHECK(problems(r) == 0);
    if (pass) onnxslim_model_free(r);
  }
  onnxslim_model_free(m);
}

TEST(storage_subgraph_and_capture) {
  onnxslim_model *m = branchy_model();
  CHECK(m != NULL);
  if (!m) return;
  CHECK(problems(m) == 0);
  onnxslim_convert_report *rep = NULL;
  /* everything: the then-branch initializer and the captured outer one */
  CHECK_OK(convert(m, BF16, ONNXSLIM_CONVERT_POLICY_CAST_BEFORE, 0, NULL, 0, 0, &rep));
  CHECK_STR(report_names(rep), "outer_w,sub_w");
  onnxslim_convert_report_free(rep);
  uint16_t want_sub[4], want_outer[4];
  CHECK_OK(onnxslim_convert_f32_to_bf16(want_sub, sub_w_v, 4, 0, NULL));
  CHECK_OK(onnxslim_convert_f32_to_bf16(want_outer, outer_w_v, 4, 0, NULL));
  for (int pass = 0; pass < 2; pass++) {
    onnxslim_model *r = pass ? reload(m) : m;
    if (!r) continue;
    onnxslim_graph *g = onnxslim_model_graph(r);
    onnxslim_node *ifn = onnxslim_graph_find_node(g, "if");
    onnxslim_graph *tb =
        ifn ? onnxslim_attr_graph(onnxslim_node_find_attr(ifn, "then_branch")) : NULL;
    onnxslim_graph *eb =
        ifn ? onnxslim_attr_graph(onnxslim_node_find_attr(ifn, "else_branch")) : NULL;
    CHECK(tb && eb);
    if (!tb || !eb) continue;
    /* then branch: its own initializer converted, a Cast inside the branch */
    onnxslim_tensor *sw = onnxslim_graph_find_initializer(tb, "sub_w");
    CHECK(sw && onnxslim_tensor_dtype(sw) == BF16 && data_is(sw, want_sub, sizeof want_sub));
    CHECK(onnxslim_graph_node_count(tb) == 2 && count_op(tb, "Cast") == 1);
    onnxslim_node *add = onnxslim_graph_find_node(tb, "then_add");
    onnxslim_node *c = add ? onnxslim_graph_producer(tb, onnxslim_node_input(add, 0)) : NULL;
    CHECK(c && streq(onnxslim_node_op_type(c), "Cast") && cast_to(c) == F32 &&
          streq(onnxslim_node_input(c, 0), "sub_w"));
    /* outer initializer: a Cast in the main graph, the capture renamed */
    onnxslim_tensor *ow = onnxslim_graph_find_initializer(g, "outer_w");
    CHECK(ow && onnxslim_tensor_dtype(ow) == BF16 && data_is(ow, want_outer, sizeof want_outer));
    CHECK(count_op(g, "Cast") == 1);
    onnxslim_node *mul = onnxslim_graph_find_node(eb, "else_mul");
    const char *cap = mul ? onnxslim_node_input(mul, 1) : NULL;
    CHECK(cap && !streq(cap, "outer_w"));
    onnxslim_node *oc = cap ? onnxslim_graph_producer(g, cap) : NULL;
    CHECK(oc && streq(onnxslim_node_op_type(oc), "Cast") && cast_to(oc) == F32 &&
          streq(onnxslim_node_input(oc, 0), "outer_w"));
    CHECK(problems(r) == 0);
    if (pass) onnxslim_model_free(r);
  }
  onnxslim_model_free(m);

  /* a name selects the subgraph tensor alone */
  m = branchy_model();
  if (!m) return;
  const char *sel[] = {"sub_w"};
  CHECK_OK(convert(m, F16, ONNXSLIM_CONVERT_POLICY_CAST_BEFORE, 0, sel, 1, 0, &rep));
  CHECK_STR(report_names(rep), "sub_w");
  onnxslim_convert_report_free(rep);
  onnxslim_model_free(m);
  /* storage only: the subgraph's Add would read FLOAT16 and FLOAT, and the
   * check follows types into subgraphs */
  m = branchy_model();
  if (!m) return;
  CHECK(convert(m, F16, ONNXSLIM_CONVERT_POLICY_STORAGE_ONLY, 0, sel, 1, 0, &rep) ==
        ONNXSLIM_EMODEL);
  CHECK(strstr(onnxslim_error_last(), "attribute 'then_branch' node[0] 'then_add'") != NULL);
  onnxslim_model_free(m);
}

static char tmpdir[64];
static char tmp_path[128];
static const char *tmpfile_in(const char *name) {
  snprintf(tmp_path, sizeof tmp_path, "%s/%s", tmpdir, name);
  return tmp_path;
}

TEST(storage_external_data) {
  snprintf(tmpdir, sizeof tmpdir, "/tmp/libonnxslim-cvt-XXXXXX");
  if (!mkdtemp(tmpdir)) SKIP("mkdtemp failed");
  onnxslim_model *src = open_model(BERT);
  CHECK(src != NULL);
  if (!src) return;
  size_t n = 0;
  float *orig = floats_of(onnxslim_graph_find_initializer(onnxslim_model_graph(src), WORD_EMB), &n);
  CHECK(orig && n == 1600);
  /* all tensors out, into one data file */
  onnxslim_save_options eo = ONNXSLIM_SAVE_OPTIONS_INIT;
  eo.layout = ONNXSLIM_LAYOUT_ONE_FILE;
  eo.size_threshold = 0;
  eo.location = "weights.bin";
  eo.flags = ONNXSLIM_SAVE_NO_FSYNC;
  char model_path[128];
  snprintf(model_path, sizeof model_path, "%s", tmpfile_in("ext.onnx"));
  CHECK_OK(onnxslim_save(NULL, src, model_path, &eo));
  onnxslim_model_free(src);
  onnxslim_model *m = open_model(model_path);
  CHECK(m != NULL);
  if (!m || !orig) goto out;
  onnxslim_tensor *t = onnxslim_graph_find_initializer(onnxslim_model_graph(m), WORD_EMB);
  CHECK(t && onnxslim_tensor_storage(t) == ONNXSLIM_STORAGE_EXTERNAL);
  uint16_t *want = malloc(n * 2);
  CHECK(want != NULL);
  if (!want) goto out;
  CHECK_OK(onnxslim_convert_f32_to_bf16(want, orig, n, 0, NULL));
  onnxslim_convert_report *rep = NULL;
  int rc = onnxslim_convert_gather_tables(&rep, m, BF16, 2048, 0);
  if (rc) fprintf(stderr, "  convert of external data: %s\n", onnxslim_error_last());
  CHECK(rc == 0);
  CHECK(onnxslim_convert_report_count(rep) == 1);
  onnxslim_convert_report_free(rep);
  if (rc == 0) {
    CHECK(data_is(onnxslim_graph_find_initializer(onnxslim_model_graph(m), WORD_EMB), want, n * 2));
    /* saved to a buffer: the converted bytes inline (the other tensors stay
     * external, relative to the directory) */
    onnxslim_model *r = reload_in(m, tmpdir);
    if (r) {
      check_recipe_graph(r, BF16, "bf16", 2, F32);
      onnxslim_tensor *rt = onnxslim_graph_find_initializer(onnxslim_model_graph(r), WORD_EMB);
      CHECK(rt && onnxslim_tensor_storage(rt) == ONNXSLIM_STORAGE_RAW && data_is(rt, want, n * 2));
    }
    onnxslim_model_free(r);
    /* external again: the converted bytes in a new data file */
    char out_path[128];
    snprintf(out_path, sizeof out_path, "%s", tmpfile_in("ext2.onnx"));
    eo.location = "weights2.bin";
    CHECK_OK(onnxslim_save(NULL, m, out_path, &eo));
    r = open_model(out_path);
    if (r) {
      onnxslim_tensor *rt = onnxslim_graph_find_initializer(onnxslim_model_graph(r), WORD_EMB);
      CHECK(rt && onnxslim_tensor_storage(rt) == ONNXSLIM_STORAGE_EXTERNAL &&
            data_is(rt, want, n * 2));
      CHECK(problems(r) == 0);
    }
    onnxslim_model_free(r);
  } else {
    /* refused: then the model must be unchanged */
    CHECK(onnxslim_tensor_dtype(
              onnxslim_graph_find_initializer(onnxslim_model_graph(m), WORD_EMB)) == F32);
    CHECK(count_op(onnxslim_model_graph(m), "Cast") == 1);
  }
  free(want);
out:
  free(orig);
  onnxslim_model_free(m);
  const char *files[] = {"ext.onnx", "weights.bin", "ext2.onnx", "weights2.bin"};
  for (size_t i = 0; i < 4; i++) unlink(tmpfile_in(files[i]));
  rmdir(tmpdir);
}

/* ---- the report ----------------------------------------------------------------- */

/* The report expected for converting craft_v with `flags` to FP16 or BF16,
 * computed from the kernel's values (no stats) and plain double arithmetic
 * on the definitions in convert.h. */
static onnxslim_convert_stats expected_stats(int32_t to, unsigned flags) {
  onnxslim_convert_stats e = ONNXSLIM_CONVERT_STATS_INIT;
  uint16_t h[N_CRAFT], hn[N_CRAFT];
  float back[N_CRAFT], plain[N_CRAFT]; /* results, and results without SATURATE */
  unsigned nosat = flags & ~ONNXSLIM_CONVERT_SATURATE;
  if (to == F16) {
    onnxslim_convert_f32_to_f16(h, craft_v, N_CRAFT, flags, NULL);
    onnxslim_convert_f32_to_f16(hn, craft_v, N_CRAFT, nosat, NULL);
    onnxslim_convert_f16_to_f32(back, h, N_CRAFT);
    onnxslim_convert_f16_to_f32(plain, hn, N_CRAFT);
  } else {
    onnxslim_convert_f32_to_bf16(h, craft_v, N_CRAFT, flags, NULL);
    onnxslim_convert_f32_to_bf16(hn, craft_v, N_CRAFT, nosat, NULL);
    onnxslim_convert_bf16_to_f32(back, h, N_CRAFT);
    onnxslim_convert_bf16_to_f32(plain, hn, N_CRAFT);
  }
  for (int i = 0; i < N_CRAFT; i++) {
    double x = craft_v[i], y = back[i];
    e.count++;
    if (isnan(x)) {
      e.nan++;
      continue;
    }
    if (isinf(x)) continue;
    if (isinf(y)) {
      e.to_inf++;
      continue;
    }
    if (isinf(plain[i])) e.saturated++;
    if (x != 0 && y == 0) e.flushed++;
    double err = fabs(y - x);
    if (err > e.max_abs_error) e.max_abs_error = err;
    if (x != 0 && err / fabs(x) > e.max_rel_error) e.max_rel_error = err / fabs(x);
  }
  return e;
}

static void report_case(int32_t to, unsigned flags, uint64_t nan, uint64_t inf, uint64_t sat,
                        uint64_t flushed) {
  onnxslim_model *m = crafted_model();
  CHECK(m != NULL);
  if (!m) return;
  const char *sel[] = {"craft"};
  onnxslim_convert_report *rep = NULL;
  CHECK_OK(convert(m, to, ONNXSLIM_CONVERT_POLICY_CAST_BEFORE, flags, sel, 1, 0, &rep));
  CHECK(onnxslim_convert_report_count(rep) == 1);
  const char *name = NULL;
  int32_t from = 0, got_to = 0;
  uint64_t before = 0, after = 0;
  onnxslim_convert_stats st = ONNXSLIM_CONVERT_STATS_INIT;
  CHECK_OK(entry(rep, 0, &name, &from, &got_to, &before, &after, &st));
  CHECK_STR(name, "craft");
  CHECK(from == F32 && got_to == to);
  CHECK(before == N_CRAFT * 4 && after == N_CRAFT * 2);
  CHECK(st.version == ONNXSLIM_CONVERT_STATS_VERSION);
  onnxslim_convert_stats e = expected_stats(to, flags);
  /* the hand-counted numbers and the reference agree */
  CHECK(e.nan == nan && e.to_inf == inf && e.saturated == sat && e.flushed == flushed);
  if (st.count != e.count || st.nan != e.nan || st.to_inf != e.to_inf ||
      st.saturated != e.saturated || st.flushed != e.flushed ||
      st.max_abs_error != e.max_abs_error || st.max_rel_error != e.max_rel_error)
    fprintf(
        stderr,
        "  to %d flags %u: report count %llu nan %llu inf %llu sat %llu flushed %llu abs %g rel %g;"
        " expected %llu %llu %llu %llu %llu %g %g\n",
        to, flags, (unsigned long long)st.count, (unsigned long long)st.nan,
        (unsigned long long)st.to_inf, (unsigned long long)st.saturated,
        (unsigned long long)st.flushed, st.max_abs_error, st.max_rel_error,
        (unsigned long long)e.count, (unsigned long long)e.nan, (unsigned long long)e.to_inf,
        (unsigned long long)e.saturated, (unsigned long long)e.flushed, e.max_abs_error,
        e.max_rel_error);
  CHECK(st.count == N_CRAFT);
  CHECK(st.nan == e.nan && st.to_inf == e.to_inf && st.saturated == e.saturated &&
        st.flushed == e.flushed);
  CHECK(st.max_abs_error == e.max_abs_error && st.max_rel_error == e.max_rel_error);
  CHECK(st.max_abs_error > 0 && st.max_rel_error > 0);
  onnxslim_convert_report_free(rep);
  /* the stored values are the kernel's */
  uint16_t want[N_CRAFT];
  if (to == F16) CHECK_OK(onnxslim_convert_f32_to_f16(want, craft_v, N_CRAFT, flags, NULL));
  else CHECK_OK(onnxslim_convert_f32_to_bf16(want, craft_v, N_CRAFT, flags, NULL));
  onnxslim_model *r = reload(m);
  if (r)
    CHECK(data_is(onnxslim_graph_find_initializer(onnxslim_model_graph(r), "craft"), want,
                  sizeof want));
  onnxslim_model_free(r);
  onnxslim_model_free(m);
}

TEST(report_counts_crafted_tensor) {
  const unsigned SAT = ONNXSLIM_CONVERT_SATURATE, FL = ONNXSLIM_CONVERT_FLUSH_SUBNORMALS;
  /* FP16: 1e30, -1e30, 70000 overflow; 1e-10 underflows; 1e-6 is subnormal */
  report_case(F16, 0, 1, 3, 0, 1);
  report_case(F16, SAT, 1, 0, 3, 1);
  report_case(F16, FL, 1, 3, 0, 2);
  report_case(F16, SAT | FL, 1, 0, 3, 2);
  /* BF16: everything finite stays finite and normal */
  report_case(BF16, 0, 1, 0, 0, 0);
  report_case(BF16, ONNXSLIM_CONVERT_TRUNCATE, 1, 0, 0, 0);

  /* the details the reference cannot see: FP16 nearest */
  onnxslim_model *m = crafted_model();
  if (!m) return;
  const char *sel[] = {"craft"};
  onnxslim_convert_report *rep = NULL;
  CHECK_OK(convert(m, F16, ONNXSLIM_CONVERT_POLICY_CAST_BEFORE, 0, sel, 1, 0, &rep));
  onnxslim_convert_stats st = ONNXSLIM_CONVERT_STATS_INIT;
  CHECK_OK(entry(rep, 0, NULL, NULL, NULL, NULL, NULL, &st));
  CHECK(st.max_abs_error == 15.0); /* 65519 -> 65504 */
  CHECK(st.max_rel_error == 1.0);  /* the flushed 1e-10 */
  onnxslim_convert_report_free(rep);
  onnxslim_model_free(m);
  /* with SATURATE the saturated 1e30 dominates the absolute error */
  m = crafted_model();
  if (!m) return;
  CHECK_OK(convert(m, F16, ONNXSLIM_CONVERT_POLICY_CAST_BEFORE, SAT, sel, 1, 0, &rep));
  CHECK_OK(onnxslim_convert_stats_init(&st, ONNXSLIM_CONVERT_STATS_VERSION));
  CHECK_OK(entry(rep, 0, NULL, NULL, NULL, NULL, NULL, &st));
  CHECK(st.max_abs_error == (double)1e30f - 65504.0);
  onnxslim_convert_report_free(rep);
  onnxslim_model_free(m);
}

/* "overflowing": what --to fp16 used to turn into Inf.
 *   y = BatchNormalization(x, bn.scale, bn.bias, bn.mean, bn.var), bn.var
 *   holding 9.8e7 (FP16's largest finite value is 65504);
 *   z = If(cond) { then: Constant big = 2^20, z_t = x * big } { else:
 *   Constant half = 0.5, z_e = x * half };
 *   w = x * tiny, tiny holding 1e-7 (an FP16 subnormal) and 1e-9 (below
 *   half the smallest FP16 subnormal: it becomes 0). */
static onnxslim_model *overflowing_model(void) {
  static const float scale[2] = {1.5f, 0.5f}, bias[2] = {0.1f, -0.2f}, mean[2] = {3.0f, -1.0f},
                     var[2] = {9.8e7f, 0.25f}, big[1] = {1048576.0f}, half[1] = {0.5f},
                     tiny[2] = {1e-7f, 1e-9f};
  static const int64_t d2[] = {2}, d1[] = {1}, d12[] = {1, 2};
  pbuf g = {0}, tb = {0}, eb = {0}, n, t;
  n = node("Constant", "c_big", NULL, NULL, "big");
  t = tensor_raw("big", F32, d1, 1, big, sizeof big);
  attr_tensor(&n, "value", &t);
  add_node(&tb, &n);
  n = node("Mul", "then_mul", "x", "big", "z_t");
  add_node(&tb, &n);
  pb_str(&tb, 2, "then_g");
  add_vi(&tb, 12, "z_t", F32, d12, 2);
  n = node("Constant", "c_half", NULL, NULL, "half");
  t = tensor_raw("half", F32, d1, 1, half, sizeof half);
  attr_tensor(&n, "value", &t);
  add_node(&eb, &n);
  n = node("Mul", "else_mul", "x", "half", "z_e");
  add_node(&eb, &n);
  pb_str(&eb, 2, "else_g");
  add_vi(&eb, 12, "z_e", F32, d12, 2);
  n = node("BatchNormalization", "bn", "x", "bn.scale", "y");
  /* inputs 3-5 after the two node() takes */
  {
    pbuf m = {0};
    pb_str(&m, 1, "x");
    pb_str(&m, 1, "bn.scale");
    pb_str(&m, 1, "bn.bias");
    pb_str(&m, 1, "bn.mean");
    pb_str(&m, 1, "bn.var");
    pb_str(&m, 2, "y");
    pb_str(&m, 3, "bn");
    pb_str(&m, 4, "BatchNormalization");
    free(n.p);
    n = m;
  }
  add_node(&g, &n);
  n = node("If", "if", "cond", NULL, "z");
  attr_graph(&n, "then_branch", &tb);
  attr_graph(&n, "else_branch", &eb);
  add_node(&g, &n);
  n = node("Mul", "mul_tiny", "x", "tiny", "w");
  add_node(&g, &n);
  pb_str(&g, 2, "overflowing");
  t = tensor_raw("bn.scale", F32, d2, 1, scale, sizeof scale);
  pb_msg(&g, 5, &t);
  t = tensor_raw("bn.bias", F32, d2, 1, bias, sizeof bias);
  pb_msg(&g, 5, &t);
  t = tensor_raw("bn.mean", F32, d2, 1, mean, sizeof mean);
  pb_msg(&g, 5, &t);
  t = tensor_raw("bn.var", F32, d2, 1, var, sizeof var);
  pb_msg(&g, 5, &t);
  t = tensor_raw("tiny", F32, d2, 1, tiny, sizeof tiny);
  pb_msg(&g, 5, &t);
  add_vi(&g, 11, "x", F32, d12, 2);
  add_vi(&g, 11, "cond", ONNXSLIM_DTYPE_BOOL, NULL, 0);
  add_vi(&g, 12, "y", F32, d12, 2);
  add_vi(&g, 12, "z", F32, d12, 2);
  add_vi(&g, 12, "w", F32, d12, 2);
  pbuf m = model_of(&g);
  return from_pbuf(&m);
}

/* The names of the kept tensors of r, in order, comma-separated. */
static const char *kept_names(const onnxslim_convert_report *r) {
  static char buf[1024];
  buf[0] = '\0';
  for (size_t i = 0; i < onnxslim_convert_report_kept_count(r); i++) {
    const char *nm = onnxslim_convert_report_kept_name(r, i);
    if (i) strncat(buf, ",", sizeof buf - strlen(buf) - 1);
    strncat(buf, nm ? nm : "(error)", sizeof buf - strlen(buf) - 1);
  }
  return buf;
}

/* The tensor of the Constant node producing `value` in the If's then branch. */
static const onnxslim_tensor *then_constant(onnxslim_model *m) {
  onnxslim_graph *g = onnxslim_model_graph(m);
  for (size_t i = 0; i < onnxslim_graph_node_count(g); i++) {
    onnxslim_node *n = onnxslim_graph_node(g, i);
    if (strcmp(onnxslim_node_op_type(n), "If") != 0) continue;
    onnxslim_graph *tb = onnxslim_attr_graph(onnxslim_node_find_attr(n, "then_branch"));
    for (size_t k = 0; tb && k < onnxslim_graph_node_count(tb); k++) {
      onnxslim_node *c = onnxslim_graph_node(tb, k);
      if (strcmp(onnxslim_node_op_type(c), "Constant") == 0)
        return onnxslim_attr_tensor(onnxslim_node_find_attr(c, "value"));
    }
  }
  return NULL;
}

TEST(overflow_keeps_tensors_by_default) {
  /* the default (ONNXSLIM_CONVERT_OVERFLOW_KEEP): bn.var and the If branch's 2^20
   * stay FLOAT, named among the kept tensors with what converting them would
   * have done; the rest is converted, the subnormal included */
  for (int sat = 0; sat < 2; sat++) {
    onnxslim_model *m = overflowing_model();
    REQUIRE(m);
    onnxslim_convert_options o = ONNXSLIM_CONVERT_OPTIONS_INIT;
    o.to = F16;
    o.flags = sat ? ONNXSLIM_CONVERT_SATURATE : 0;
    onnxslim_convert_report *rep = NULL;
    CHECK_OK(onnxslim_convert_model(&rep, m, &o));
    CHECK_STR(report_names(rep), "bn.bias,bn.mean,bn.scale,half,tiny");
    CHECK_STR(kept_names(rep), "bn.var,big");
    for (size_t i = 0; i < onnxslim_convert_report_kept_count(rep); i++) {
      onnxslim_convert_stats st = ONNXSLIM_CONVERT_STATS_INIT;
      CHECK_OK(onnxslim_convert_report_kept_add_stats(rep, i, &st));
      CHECK(st.count == (i == 0 ? 2u : 1u));
      CHECK(sat ? st.saturated == 1 && st.to_inf == 0 : st.to_inf == 1 && st.saturated == 0);
      CHECK(onnxslim_convert_report_kept_from(rep, i) == F32);
    }
    /* the subnormal and the underflow are converted, and counted */
    onnxslim_convert_stats tot = ONNXSLIM_CONVERT_STATS_INIT;
    for (size_t i = 0; i < onnxslim_convert_report_count(rep); i++)
      CHECK_OK(onnxslim_convert_report_add_stats(rep, i, &tot));
    CHECK(tot.flushed == 1 && tot.to_inf == 0 && tot.saturated == 0);
    onnxslim_graph *g = onnxslim_model_graph(m);
    CHECK(onnxslim_tensor_dtype(onnxslim_graph_find_initializer(g, "bn.var")) == F32);
    CHECK(onnxslim_tensor_dtype(onnxslim_graph_find_initializer(g, "bn.mean")) == F16);
    CHECK(onnxslim_tensor_dtype(onnxslim_graph_find_initializer(g, "tiny")) == F16);
    CHECK(onnxslim_tensor_dtype(then_constant(m)) == F32);
    /* the kept tensor has no Cast: BatchNormalization still reads it */
    CHECK(onnxslim_graph_consumer_count(g, "bn.var") == 1);
    CHECK_STR(onnxslim_node_op_type(onnxslim_graph_consumer(g, "bn.var", 0)), "BatchNormalization");
    onnxslim_convert_report_free(rep);
    onnxslim_model_free(m);
  }
  /* no report: the same tensors kept */
  onnxslim_model *m = overflowing_model();
  REQUIRE(m);
  onnxslim_convert_options o = ONNXSLIM_CONVERT_OPTIONS_INIT;
  o.to = F16;
  CHECK_OK(onnxslim_convert_model(NULL, m, &o));
  CHECK(onnxslim_tensor_dtype(onnxslim_graph_find_initializer(onnxslim_model_graph(m), "bn.var")) ==
        F32);
  CHECK(onnxslim_tensor_dtype(then_constant(m)) == F32);
  onnxslim_model_free(m);
  /* BF16 holds 9.8e7 and 2^20: nothing kept */
  m = overflowing_model();
  REQUIRE(m);
  onnxslim_convert_report *rep = NULL;
  o.to = BF16;
  CHECK_OK(onnxslim_convert_model(&rep, m, &o));
  CHECK(onnxslim_convert_report_count(rep) == 7 && onnxslim_convert_report_kept_count(rep) == 0);
  onnxslim_convert_report_free(rep);
  onnxslim_model_free(m);
}

TEST(overflow_convert_forces) {
  /* ONNXSLIM_CONVERT_OVERFLOW_CONVERT: the old behaviour, 9.8e7 and 2^20 become Inf */
  onnxslim_model *m = overflowing_model();
  REQUIRE(m);
  onnxslim_convert_options o = ONNXSLIM_CONVERT_OPTIONS_INIT;
  o.to = F16;
  o.overflow = ONNXSLIM_CONVERT_OVERFLOW_CONVERT;
  onnxslim_convert_report *rep = NULL;
  CHECK_OK(onnxslim_convert_model(&rep, m, &o));
  CHECK(onnxslim_convert_report_count(rep) == 7 && onnxslim_convert_report_kept_count(rep) == 0);
  onnxslim_convert_stats tot = ONNXSLIM_CONVERT_STATS_INIT;
  for (size_t i = 0; i < onnxslim_convert_report_count(rep); i++)
    CHECK_OK(onnxslim_convert_report_add_stats(rep, i, &tot));
  CHECK(tot.to_inf == 2);
  onnxslim_model *r = reload(m);
  REQUIRE(r);
  uint16_t v[2] = {0, 0};
  const onnxslim_tensor *var = onnxslim_graph_find_initializer(onnxslim_model_graph(r), "bn.var");
  CHECK(onnxslim_tensor_dtype(var) == F16);
  CHECK_OK(onnxslim_tensor_read(var, 0, v, sizeof v));
  CHECK(v[0] == 0x7C00); /* +Inf */
  CHECK_OK(onnxslim_tensor_read(then_constant(r), 0, v, 2));
  CHECK(v[0] == 0x7C00);
  onnxslim_model_free(r);
  onnxslim_convert_report_free(rep);
  onnxslim_model_free(m);
  /* bad values and getters */
  m = overflowing_model();
  REQUIRE(m);
  o.overflow = 2;
  CHECK(onnxslim_convert_model(&rep, m, &o) == ONNXSLIM_EINVAL && rep == NULL);
  CHECK(onnxslim_convert_report_kept_count(NULL) == 0);
  CHECK(onnxslim_convert_report_kept_name(NULL, 0) == NULL &&
        onnxslim_error_last_code() == ONNXSLIM_EINVAL);
  o.overflow = ONNXSLIM_CONVERT_OVERFLOW_KEEP;
  CHECK_OK(onnxslim_convert_model(&rep, m, &o));
  onnxslim_convert_stats st = ONNXSLIM_CONVERT_STATS_INIT;
  CHECK(onnxslim_convert_report_kept_name(rep, 2) == NULL &&
        onnxslim_error_last_code() == ONNXSLIM_ERANGE);
  CHECK(onnxslim_convert_report_kept_from(rep, 2) == ONNXSLIM_DTYPE_UNDEFINED);
  CHECK(onnxslim_convert_report_kept_add_stats(rep, 2, &st) == ONNXSLIM_ERANGE && st.count == 0);
  CHECK(onnxslim_convert_report_kept_add_stats(rep, 0, NULL) == ONNXSLIM_EINVAL);
  onnxslim_convert_report_free(rep);
  onnxslim_model_free(m);
}

TEST(storage_int32_data_half_types) {
  /* FP16 and BF16 values held in int32_data convert like raw ones */
  static const uint16_t h[] = {0x3C00 /* 1 */, 0xC000 /* -2 */, 0x3555 /* ~0.333 */};
  static const uint16_t b[] = {0x3F80 /* 1 */, 0xC040 /* -3 */, 0x3EAB /* ~0.334 */};
  static const int64_t d3[] = {3};
  pbuf g = {0}, n, t;
  n = node("Identity", "i1", "h", NULL, "oh");
  add_node(&g, &n);
  n = node("Identity", "i2", "b", NULL, "ob");
  add_node(&g, &n);
  pb_str(&g, 2, "int32_data");
  t = tensor_int32_data("h", F16, d3, 1, h, 3);
  pb_msg(&g, 5, &t);
  t = tensor_int32_data("b", BF16, d3, 1, b, 3);
  pb_msg(&g, 5, &t);
  add_vi(&g, 12, "oh", F16, d3, 1);
  add_vi(&g, 12, "ob", BF16, d3, 1);
  pbuf mp = model_of(&g);
  onnxslim_model *m = from_pbuf(&mp);
  if (!m) return;
  onnxslim_graph *gr = onnxslim_model_graph(m);
  CHECK(onnxslim_tensor_storage(onnxslim_graph_find_initializer(gr, "h")) ==
        ONNXSLIM_STORAGE_TYPED);
  const char *sh[] = {"h"}, *sb[] = {"b"};
  CHECK_OK(convert(m, F32, ONNXSLIM_CONVERT_POLICY_CAST_BEFORE, 0, sh, 1, 0, NULL));
  CHECK_OK(convert(m, F16, ONNXSLIM_CONVERT_POLICY_CAST_BEFORE, 0, sb, 1, 0, NULL));
  /* after a save and reload: FP16 -> FP32 exact; BF16 -> FP16 rounded */
  size_t need = 0;
  onnxslim_save_buffer(m, NULL, 0, &need);
  uint8_t *buf = malloc(need ? need : 1);
  CHECK_OK(onnxslim_save_buffer(m, buf, need, &need));
  onnxslim_model *r = NULL;
  CHECK_OK(onnxslim_model_from_buffer(&r, buf, need, ONNXSLIM_BORROW, NULL));
  if (r) {
    onnxslim_graph *rg = onnxslim_model_graph(r);
    onnxslim_tensor *th = onnxslim_graph_find_initializer(rg, "h");
    onnxslim_tensor *tb = onnxslim_graph_find_initializer(rg, "b");
    float f[3] = {0};
    uint16_t x[3] = {0};
    CHECK(onnxslim_tensor_dtype(th) == F32 && onnxslim_tensor_dtype(tb) == F16);
    CHECK(onnxslim_tensor_storage(th) == ONNXSLIM_STORAGE_RAW);
    CHECK_OK(onnxslim_tensor_read(th, 0, f, sizeof f));
    CHECK(f[0] == 1.0f && f[1] == -2.0f && fabsf(f[2] - 0.33325195f) < 1e-7f);
    CHECK_OK(onnxslim_tensor_read(tb, 0, x, sizeof x));
    CHECK(x[0] == 0x3C00 && x[1] == 0xC200);
    /* BF16 0x3EAB = 0.333984375 -> FP16 nearest: 0x3558 (0.333984375 exactly) */
    CHECK(x[2] == 0x3558);
    onnxslim_model_free(r);
  }
  free(buf);
  onnxslim_model_free(m);
}

TEST(report_without_statistics) {
  /* ONNXSLIM_CONVERT_REPORT_NO_STATS in report_flags: entries without the
   * statistics pass (name, types, sizes and element count still there), and
   * the same converted bytes */
  onnxslim_model *m = crafted_model(), *m2 = crafted_model();
  if (!m || !m2) return;
  const char *sel[] = {"craft"};
  onnxslim_convert_options o = ONNXSLIM_CONVERT_OPTIONS_INIT;
  o.to = F16;
  o.policy = ONNXSLIM_CONVERT_POLICY_CAST_BEFORE;
  o.select = sel;
  o.n_select = 1;
  o.report_flags = ONNXSLIM_CONVERT_REPORT_NO_STATS;
  o.overflow = ONNXSLIM_CONVERT_OVERFLOW_CONVERT; /* "craft" has values beyond FP16's range */
  onnxslim_convert_report *rep = NULL, *rep2 = NULL;
  CHECK_OK(onnxslim_convert_model(&rep, m, &o));
  o.report_flags = 0;
  CHECK_OK(onnxslim_convert_model(&rep2, m2, &o));
  CHECK(onnxslim_convert_report_count(rep) == 1);
  CHECK_STR(onnxslim_convert_report_name(rep, 0), "craft");
  CHECK(onnxslim_convert_report_from(rep, 0) == F32 && onnxslim_convert_report_to(rep, 0) == F16);
  onnxslim_convert_stats st = ONNXSLIM_CONVERT_STATS_INIT, st2 = ONNXSLIM_CONVERT_STATS_INIT;
  uint64_t before = 0, after = 0;
  CHECK_OK(onnxslim_convert_report_bytes_before(rep, 0, &before));
  CHECK_OK(onnxslim_convert_report_bytes_after(rep, 0, &after));
  CHECK_OK(onnxslim_convert_report_add_stats(rep, 0, &st));
  CHECK_OK(onnxslim_convert_report_add_stats(rep2, 0, &st2));
  CHECK(st.count == st2.count && st.count * 4 == before && after * 2 == before);
  CHECK(st.to_inf == 0 && st.saturated == 0 && st.flushed == 0 && st.nan == 0 &&
        st.max_abs_error == 0.0 && st.max_rel_error == 0.0);
  CHECK(st2.to_inf > 0 && st2.max_abs_error > 0.0);
  size_t n1 = 0, n2 = 0;
  onnxslim_save_buffer(m, NULL, 0, &n1);
  onnxslim_save_buffer(m2, NULL, 0, &n2);
  CHECK(n1 == n2 && n1 > 0);
  uint8_t *b1 = malloc(n1 ? n1 : 1), *b2 = malloc(n2 ? n2 : 1);
  CHECK_OK(onnxslim_save_buffer(m, b1, n1, &n1));
  CHECK_OK(onnxslim_save_buffer(m2, b2, n2, &n2));
  CHECK(n1 == n2 && memcmp(b1, b2, n1) == 0);
  free(b1);
  free(b2);
  onnxslim_convert_report_free(rep);
  onnxslim_convert_report_free(rep2);
  onnxslim_model_free(m);
  onnxslim_model_free(m2);
}

TEST(truncate_needs_bf16_target) {
  /* TRUNCATE only means something for conversions to BF16: with another
   * target it is refused (ONNXSLIM_EINVAL, the model unchanged) instead of
   * being dropped silently */
  onnxslim_model *m = crafted_model();
  if (!m) return;
  const char *sel[] = {"craft"};
  onnxslim_convert_options o = ONNXSLIM_CONVERT_OPTIONS_INIT;
  o.to = F16;
  o.policy = ONNXSLIM_CONVERT_POLICY_CAST_BEFORE;
  o.select = sel;
  o.n_select = 1;
  o.flags = ONNXSLIM_CONVERT_TRUNCATE;
  onnxslim_convert_report *rep = (onnxslim_convert_report *)1;
  CHECK(onnxslim_convert_model(&rep, m, &o) == ONNXSLIM_EINVAL && rep == NULL);
  CHECK(strstr(onnxslim_error_last(), "TRUNCATE") != NULL);
  CHECK(onnxslim_convert_gather_tables(NULL, m, F16, 0, ONNXSLIM_CONVERT_TRUNCATE) ==
        ONNXSLIM_EINVAL);
  CHECK(onnxslim_tensor_dtype(onnxslim_graph_find_initializer(onnxslim_model_graph(m), "craft")) ==
        F32);
  o.to = BF16; /* and accepted for BF16 */
  CHECK(onnxslim_convert_model(NULL, m, &o) == 0);
  CHECK(onnxslim_tensor_dtype(onnxslim_graph_find_initializer(onnxslim_model_graph(m), "craft")) ==
        BF16);
  onnxslim_model_free(m);
}

TEST(reserved_flag_0x100_refused) {
  /* 0x100 in flags (where a "no statistics" flag used to be) is a reserved
   * bit like any other: ONNXSLIM_EINVAL, no report, the model unchanged;
   * reserved report_flags bits too, and the kernels refuse 0x100 as well */
  onnxslim_model *m = crafted_model();
  if (!m) return;
  const char *sel[] = {"craft"};
  onnxslim_convert_options o = ONNXSLIM_CONVERT_OPTIONS_INIT;
  o.to = F16;
  o.policy = ONNXSLIM_CONVERT_POLICY_CAST_BEFORE;
  o.select = sel;
  o.n_select = 1;
  o.flags = 0x100u;
  onnxslim_convert_report *rep = (onnxslim_convert_report *)1;
  CHECK(onnxslim_convert_model(&rep, m, &o) == ONNXSLIM_EINVAL && rep == NULL);
  CHECK(strstr(onnxslim_error_last(), "0x100") != NULL);
  o.version = 2; /* also for callers of an older version */
  CHECK(onnxslim_convert_model(NULL, m, &o) == ONNXSLIM_EINVAL);
  o.version = ONNXSLIM_CONVERT_OPTIONS_VERSION;
  o.flags = 0;
  o.report_flags = 2;
  CHECK(onnxslim_convert_model(NULL, m, &o) == ONNXSLIM_EINVAL);
  CHECK(onnxslim_convert_gather_tables(NULL, m, BF16, 0, 0x100u) == ONNXSLIM_EINVAL);
  CHECK(onnxslim_tensor_dtype(onnxslim_graph_find_initializer(onnxslim_model_graph(m), "craft")) ==
        F32);
  float one = 1.0f;
  uint16_t h;
  CHECK(onnxslim_convert_f32_to_f16(&h, &one, 1, 0x100u, NULL) == ONNXSLIM_EINVAL);
  onnxslim_model_free(m);
}

TEST(report_widening_counts_nan) {
  /* FP16 -> FLOAT is exact: no error, but the NaN input is still a NaN input */
  onnxslim_model *m = crafted_model();
  if (!m) return;
  const char *sel[] = {"h16"};
  onnxslim_convert_report *rep = NULL;
  CHECK_OK(convert(m, F32, ONNXSLIM_CONVERT_POLICY_CAST_BEFORE, 0, sel, 1, 0, &rep));
  int32_t from = 0, to = 0;
  uint64_t before = 0, after = 0;
  onnxslim_convert_stats st = ONNXSLIM_CONVERT_STATS_INIT;
  CHECK_OK(entry(rep, 0, NULL, &from, &to, &before, &after, &st));
  CHECK(from == F16 && to == F32 && before == 6 && after == 12);
  CHECK(st.count == 3 && st.max_abs_error == 0 && st.max_rel_error == 0 && st.to_inf == 0);
  if (st.nan != 1)
    fprintf(stderr, "  widening report: nan = %llu, want 1\n", (unsigned long long)st.nan);
  CHECK(st.nan == 1);
  onnxslim_convert_report_free(rep);
  float want[3];
  CHECK_OK(onnxslim_convert_f16_to_f32(want, h16_v, 3));
  onnxslim_model *r = reload(m);
  if (r) {
    onnxslim_graph *g = onnxslim_model_graph(r);
    CHECK(data_is(onnxslim_graph_find_initializer(g, "h16"), want, sizeof want));
    onnxslim_node *id = onnxslim_graph_find_node(g, "id2");
    onnxslim_node *c = id ? onnxslim_graph_producer(g, onnxslim_node_input(id, 0)) : NULL;
    CHECK(c && cast_to(c) == F16);
    CHECK(problems(r) == 0);
  }
  onnxslim_model_free(r);
  onnxslim_model_free(m);
}

TEST(report_api) {
  const int EINV = ONNXSLIM_EINVAL, E_RANGE = ONNXSLIM_ERANGE;
  CHECK(onnxslim_convert_report_count(NULL) == 0);
  onnxslim_convert_report_free(NULL);
  uint64_t v = 7;
  onnxslim_convert_stats st = ONNXSLIM_CONVERT_STATS_INIT;
  /* a NULL report: every getter fails with ONNXSLIM_EINVAL, outputs unchanged */
  onnxslim_error_clear();
  CHECK(onnxslim_convert_report_name(NULL, 0) == NULL && onnxslim_error_last_code() == EINV);
  onnxslim_error_clear();
  CHECK(onnxslim_convert_report_from(NULL, 0) == ONNXSLIM_DTYPE_UNDEFINED &&
        onnxslim_error_last_code() == EINV);
  onnxslim_error_clear();
  CHECK(onnxslim_convert_report_to(NULL, 0) == ONNXSLIM_DTYPE_UNDEFINED &&
        onnxslim_error_last_code() == EINV);
  CHECK(onnxslim_convert_report_bytes_before(NULL, 0, &v) == EINV && v == 7);
  CHECK(onnxslim_convert_report_bytes_after(NULL, 0, &v) == EINV && v == 7);
  CHECK(onnxslim_convert_report_add_stats(NULL, 0, &st) == EINV && st.count == 0);
  init_values();
  onnxslim_model *m = mixed_model();
  if (!m) return;
  onnxslim_convert_report *rep = NULL;
  CHECK_OK(convert(m, BF16, ONNXSLIM_CONVERT_POLICY_CAST_AFTER_GATHER, 0, NULL, 0, 0, &rep));
  size_t n = onnxslim_convert_report_count(rep);
  CHECK(n == 6);
  /* an index out of range: ONNXSLIM_ERANGE, outputs unchanged */
  onnxslim_error_clear();
  CHECK(onnxslim_convert_report_name(rep, n) == NULL && onnxslim_error_last_code() == E_RANGE);
  onnxslim_error_clear();
  CHECK(onnxslim_convert_report_from(rep, n) == ONNXSLIM_DTYPE_UNDEFINED &&
        onnxslim_error_last_code() == E_RANGE);
  onnxslim_error_clear();
  CHECK(onnxslim_convert_report_to(rep, SIZE_MAX) == ONNXSLIM_DTYPE_UNDEFINED &&
        onnxslim_error_last_code() == E_RANGE);
  CHECK(onnxslim_convert_report_bytes_before(rep, n, &v) == E_RANGE && v == 7);
  CHECK(onnxslim_convert_report_bytes_after(rep, n, &v) == E_RANGE && v == 7);
  CHECK(onnxslim_convert_report_add_stats(rep, n, &st) == E_RANGE && st.count == 0);
  /* NULL outputs, unknown stats versions */
  CHECK(onnxslim_convert_report_bytes_before(rep, 0, NULL) == EINV);
  CHECK(onnxslim_convert_report_bytes_after(rep, 0, NULL) == EINV);
  CHECK(onnxslim_convert_report_add_stats(rep, 0, NULL) == EINV);
  st.version = 0;
  CHECK(onnxslim_convert_report_add_stats(rep, 0, &st) == EINV && st.count == 0);
  st.version = ONNXSLIM_CONVERT_STATS_VERSION + 1;
  CHECK(onnxslim_convert_report_add_stats(rep, 0, &st) == EINV && st.count == 0);
  CHECK(strstr(onnxslim_error_last(), "unknown stats version") != NULL);
  /* every entry: element count, halved size, names borrowed from the report */
  uint64_t total_before = 0;
  for (size_t i = 0; i < n; i++) {
    uint64_t before = 0, after = 0;
    onnxslim_convert_stats s = ONNXSLIM_CONVERT_STATS_INIT;
    const char *name = onnxslim_convert_report_name(rep, i);
    CHECK(name && name[0] != '\0');
    CHECK(onnxslim_convert_report_from(rep, i) == F32 &&
          onnxslim_convert_report_to(rep, i) == BF16);
    CHECK_OK(onnxslim_convert_report_bytes_before(rep, i, &before));
    CHECK_OK(onnxslim_convert_report_bytes_after(rep, i, &after));
    CHECK_OK(onnxslim_convert_report_add_stats(rep, i, &s));
    CHECK(after * 2 == before && s.count * 4 == before);
    total_before += before;
  }
  CHECK(total_before == 160 + 64 + 16 + 16 + 4 + 16);
  /* add_stats ADDS: two entries into one accumulator give the sums of the
   * counters and the larger of the maxima; adding an entry again doubles
   * its counters */
  onnxslim_convert_stats s0 = ONNXSLIM_CONVERT_STATS_INIT, s1 = ONNXSLIM_CONVERT_STATS_INIT,
                         both = ONNXSLIM_CONVERT_STATS_INIT;
  CHECK_OK(onnxslim_convert_report_add_stats(rep, 0, &s0));
  CHECK_OK(onnxslim_convert_report_add_stats(rep, 1, &s1));
  CHECK_OK(onnxslim_convert_report_add_stats(rep, 0, &both));
  CHECK_OK(onnxslim_convert_report_add_stats(rep, 1, &both));
  CHECK(s0.count > 0 && s1.count > 0 && both.count == s0.count + s1.count);
  CHECK(both.to_inf == s0.to_inf + s1.to_inf && both.saturated == s0.saturated + s1.saturated &&
        both.flushed == s0.flushed + s1.flushed && both.nan == s0.nan + s1.nan);
  double max_abs = s0.max_abs_error > s1.max_abs_error ? s0.max_abs_error : s1.max_abs_error;
  double max_rel = s0.max_rel_error > s1.max_rel_error ? s0.max_rel_error : s1.max_rel_error;
  CHECK(both.max_abs_error == max_abs && both.max_rel_error == max_rel);
  CHECK(both.version == ONNXSLIM_CONVERT_STATS_VERSION);
  uint64_t c0 = s0.count;
  CHECK_OK(onnxslim_convert_report_add_stats(rep, 0, &s0));
  CHECK(s0.count == 2 * c0);
  /* the report outlives the model */
  onnxslim_model_free(m);
  const char *name = onnxslim_convert_report_name(rep, 0);
  CHECK(name && name[0] != '\0');
  onnxslim_convert_report_free(rep);
}

/* ---- streaming ------------------------------------------------------------ */

TEST(streaming_save_twice_and_read_back) {
  onnxslim_model *m = open_model(BERT);
  CHECK(m != NULL);
  if (!m) return;
  onnxslim_graph *g = onnxslim_model_graph(m);
  onnxslim_tensor *t = onnxslim_graph_find_initializer(g, WORD_EMB);
  /* read the original bytes first: a cached read must not survive the conversion */
  const void *d0 = NULL;
  size_t n0 = 0;
  CHECK_OK(onnxslim_tensor_data(t, &d0, &n0));
  CHECK(n0 == 6400);
  float *orig = malloc(6400);
  if (!orig) return;
  memcpy(orig, d0, 6400);
  uint64_t size_before = 0;
  CHECK_OK(onnxslim_save_size(m, &size_before));
  CHECK_OK(onnxslim_convert_gather_tables(NULL, m, BF16, 0, ONNXSLIM_CONVERT_TRUNCATE));
  uint16_t want[1600];
  CHECK_OK(onnxslim_convert_f32_to_bf16(want, orig, 1600, ONNXSLIM_CONVERT_TRUNCATE, NULL));
  /* saving twice gives the same bytes, of the announced size */
  size_t a = 0, b = 0;
  uint8_t *s1 = save_bytes(m, &a), *s2 = save_bytes(m, &b);
  CHECK(s1 && s2 && a == b && memcmp(s1, s2, a) == 0);
  uint64_t size_after = 0;
  CHECK_OK(onnxslim_save_size(m, &size_after));
  CHECK(size_after == a);
  /* the two tables lost half their bytes (3200 + 512); two Casts and value
   * infos were added */
  CHECK(size_after < size_before - 3000 && size_after > size_before - 3712);
  /* the converted bytes appear in the saved model */
  CHECK(s1 && pb_find(s1, a, want, sizeof want) >= 0);
  CHECK(s1 && pb_find(s1, a, orig, 6400) < 0);
  /* the tensor reads back converted, before and after saving, and again */
  const void *d1 = NULL;
  size_t n1 = 0;
  CHECK_OK(onnxslim_tensor_data(t, &d1, &n1));
  CHECK(n1 == sizeof want && d1 && memcmp(d1, want, sizeof want) == 0);
  uint16_t part[8];
  CHECK_OK(onnxslim_tensor_read(t, 16 * 2 * 7, part, sizeof part));
  CHECK(memcmp(part, want + 16 * 7, sizeof part) == 0);
  CHECK(onnxslim_tensor_read(t, 3200 - 2, part, 4) == ONNXSLIM_ERANGE);
  /* saving after reading gives the same bytes again */
  size_t c = 0;
  uint8_t *s3 = save_bytes(m, &c);
  CHECK(s1 && s3 && a == c && memcmp(s1, s3, a) == 0);
  /* converting again (BF16 -> FP16) chains from the converted bytes */
  const char *sel[] = {WORD_EMB};
  CHECK_OK(convert(m, F16, ONNXSLIM_CONVERT_POLICY_CAST_BEFORE, 0, sel, 1, 0, NULL));
  uint16_t want16[1600];
  CHECK_OK(onnxslim_convert_bf16_to_f16(want16, want, 1600, 0, NULL));
  onnxslim_model *r = reload(m);
  if (r) {
    onnxslim_tensor *rt = onnxslim_graph_find_initializer(onnxslim_model_graph(r), WORD_EMB);
    CHECK(rt && onnxslim_tensor_dtype(rt) == F16 && data_is(rt, want16, sizeof want16));
  }
  onnxslim_model_free(r);
  free(s1), free(s2), free(s3), free(orig);
  onnxslim_model_free(m);
}

/* ---- a large tensor from a file: statistics on two threads, the save's
 * conversion streamed from the file a chunk ahead ----------------------- */

#define BIG_N ((size_t)9 << 20) /* 36 MiB of FP32: two slices of the split statistics pass */

static float big_value(size_t i) {
  if (i % 1001 == 7) return NAN;
  if (i % 777 == 5) return i % 2 ? 3.4028235e38f : -3.4028235e38f; /* rounds to +-Inf */
  if (i % 555 == 3) return 1e-45f;                                 /* subnormal: flushed to 0 */
  uint32_t h = (uint32_t)(i * 2654435761u);
  return ((float)(h >> 8) / 16777216.0f - 0.5f) * (float)(1 + i % 97);
}

/* The statistics of a tensor large enough to be counted on two threads
 * (in slices, each split in halves) equal those of one pass of the
 * kernel over the whole tensor, and saving the conversion streamed from
 * the file (one file and external data) writes the kernel's bytes. */
TEST(large_tensor_from_file_split_statistics_and_save) {
  char dir[] = "/tmp/libonnxslim-bigconv-XXXXXX", path[300], x[300], one[300], data[300];
  REQUIRE(mkdtemp(dir) != NULL);
  PATH(path, "%s/big.onnx", dir);
  PATH(x, "%s/x.onnx", dir);
  PATH(data, "%s/x.onnx.data", dir);
  PATH(one, "%s/one.onnx", dir);
  float *v = malloc(BIG_N * 4);
  uint16_t *want = malloc(BIG_N * 2), *got = malloc(BIG_N * 2);
  REQUIRE(v && want && got);
  for (size_t i = 0; i < BIG_N; i++) v[i] = big_value(i);
  onnxslim_convert_stats ref = ONNXSLIM_CONVERT_STATS_INIT;
  CHECK_OK(onnxslim_convert_f32_to_bf16(want, v, BIG_N, 0, &ref));
  CHECK(ref.nan > 0 && ref.to_inf > 0 && ref.flushed > 0);
  int64_t dims[1] = {(int64_t)BIG_N};
  pbuf g = {0};
  pb_str(&g, 2, "big");
  pbuf n = node("Identity", "id", "w", NULL, "y");
  add_node(&g, &n);
  pbuf t = tensor_raw("w", ONNXSLIM_DTYPE_FLOAT, dims, 1, v, BIG_N * 4);
  pb_msg(&g, 5, &t);
  add_vi(&g, 12, "y", ONNXSLIM_DTYPE_FLOAT, dims, 1);
  pbuf mb = model_of(&g);
  FILE *f = fopen(path, "wb");
  REQUIRE(f != NULL);
  CHECK(fwrite(mb.p, 1, mb.n, f) == mb.n);
  CHECK(fclose(f) == 0);
  free(mb.p);
  onnxslim_model *m = open_model(path);
  REQUIRE(m != NULL);
  onnxslim_convert_options o = ONNXSLIM_CONVERT_OPTIONS_INIT;
  o.policy = ONNXSLIM_CONVERT_POLICY_CAST_BEFORE;
  o.overflow = ONNXSLIM_CONVERT_OVERFLOW_CONVERT; /* the values include some BF16 cannot hold */
  onnxslim_convert_report *r = NULL;
  CHECK_OK(onnxslim_convert_model(&r, m, &o));
  onnxslim_convert_stats st = ONNXSLIM_CONVERT_STATS_INIT;
  CHECK(onnxslim_convert_report_count(r) == 1);
  CHECK_OK(onnxslim_convert_report_add_stats(r, 0, &st));
  CHECK(st.count == ref.count && st.to_inf == ref.to_inf && st.saturated == ref.saturated &&
        st.flushed == ref.flushed && st.nan == ref.nan && st.max_abs_error == ref.max_abs_error &&
        st.max_rel_error == ref.max_rel_error);
  onnxslim_convert_report_free(r);
  onnxslim_save_options xo = ONNXSLIM_SAVE_OPTIONS_INIT, so = ONNXSLIM_SAVE_OPTIONS_INIT;
  xo.layout = ONNXSLIM_LAYOUT_ONE_FILE;
  xo.size_threshold = 0;
  xo.flags = so.flags = ONNXSLIM_SAVE_NO_FSYNC;
  so.layout = ONNXSLIM_LAYOUT_INLINE;
  CHECK_OK(onnxslim_save(NULL, m, x, &xo));
  CHECK_OK(onnxslim_save(NULL, m, one, &so));
  /* the converted tensor read back from the model itself (materialized) */
  CHECK_OK(onnxslim_tensor_read(onnxslim_graph_initializer(onnxslim_model_graph(m), 0), 0, got,
                                BIG_N * 2));
  CHECK(memcmp(got, want, BIG_N * 2) == 0);
  onnxslim_model_free(m);
  const char *outs[2] = {x, one};
  for (int k = 0; k < 2; k++) {
    onnxslim_model *rm = open_model(outs[k]);
    CHECK(rm != NULL);
    if (!rm) continue;
    const onnxslim_tensor *w = onnxslim_graph_initializer(onnxslim_model_graph(rm), 0);
    memset(got, 0, BIG_N * 2);
    CHECK(onnxslim_tensor_dtype(w) == ONNXSLIM_DTYPE_BFLOAT16);
    CHECK_OK(onnxslim_tensor_read(w, 0, got, BIG_N * 2));
    CHECK(memcmp(got, want, BIG_N * 2) == 0);
    onnxslim_model_free(rm);
  }
  free(v);
  free(want);
  free(got);
  unlink(path);
  unlink(x);
  unlink(data);
  unlink(one);
  rmdir(dir);
}

/* ---- the report's notes --------------------------------------------------- */

/* Note i of r as "CODE NAME OP NODE INPUT BYTES" (INPUT "-" when the node
 * reads the tensor inside a subgraph), from the getters; "ERR" on an error. */
static const char *note_str(const onnxslim_convert_report *r, size_t i) {
  static char buf[256];
  const char *code = onnxslim_convert_note_code_name(onnxslim_convert_report_note_code(r, i));
  const char *name = onnxslim_convert_report_note_name(r, i);
  const char *op = onnxslim_convert_report_note_op(r, i);
  const char *nn = onnxslim_convert_report_note_node(r, i);
  const char *msg = onnxslim_convert_report_note_message(r, i);
  size_t input = 0;
  uint64_t bytes = 0;
  if (!code || !name || !op || !nn || !msg || !strstr(msg, name) ||
      onnxslim_convert_report_note_bytes(r, i, &bytes) != 0)
    return "ERR";
  int in = onnxslim_convert_report_note_input(r, i, &input);
  if (in != 0 && in != ONNXSLIM_ENOTFOUND) return "ERR";
  if (in == 0)
    snprintf(buf, sizeof buf, "%s %s %s %s %zu %llu", code, name, op, nn, input,
             (unsigned long long)bytes);
  else
    snprintf(buf, sizeof buf, "%s %s %s %s - %llu", code, name, op, nn, (unsigned long long)bytes);
  return buf;
}

/* X @ w -> Y, Gather(emb, I) -> Z; h16 (FLOAT16) -> Cast to FLOAT -> H;
 * d16 (FLOAT16) -> Cast to DOUBLE -> D; o16 (FLOAT16) read by a Cast to
 * FLOAT and a graph output itself. */
static onnxslim_model *fold_model(void) {
  static const float wv[4] = {1, 2, 3, 4}, ev[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  static const uint16_t hv[2] = {0x3c00, 0x4000};
  static const int64_t d2[] = {2}, d22[] = {2, 2}, d42[] = {4, 2};
  pbuf g = {0}, n, t;
  n = node("MatMul", "mm", "X", "w", "Y");
  add_node(&g, &n);
  n = node("Gather", "gather", "emb", "I", "Z");
  add_node(&g, &n);
  n = node("Cast", "cast_h", "h16", NULL, "H");
  attr_int(&n, "to", ONNXSLIM_DTYPE_FLOAT);
  add_node(&g, &n);
  n = node("Cast", "cast_d", "d16", NULL, "D");
  attr_int(&n, "to", ONNXSLIM_DTYPE_DOUBLE);
  add_node(&g, &n);
  n = node("Cast", "cast_o", "o16", NULL, "O");
  attr_int(&n, "to", ONNXSLIM_DTYPE_FLOAT);
  add_node(&g, &n);
  pb_str(&g, 2, "fold");
  t = tensor_raw("w", F32, d22, 2, wv, sizeof wv);
  pb_msg(&g, 5, &t);
  t = tensor_raw("emb", F32, d42, 2, ev, sizeof ev);
  pb_msg(&g, 5, &t);
  t = tensor_raw("h16", F16, d2, 1, hv, sizeof hv);
  pb_msg(&g, 5, &t);
  t = tensor_raw("d16", F16, d2, 1, hv, sizeof hv);
  pb_msg(&g, 5, &t);
  t = tensor_raw("o16", F16, d2, 1, hv, sizeof hv);
  pb_msg(&g, 5, &t);
  add_vi(&g, 11, "X", F32, d22, 2);
  add_vi(&g, 11, "I", I64, d2, 1);
  add_vi(&g, 12, "Y", F32, d22, 2);
  add_vi(&g, 12, "Z", F32, d22, 2);
  add_vi(&g, 12, "H", F32, d2, 1);
  add_vi(&g, 12, "D", ONNXSLIM_DTYPE_DOUBLE, d2, 1);
  add_vi(&g, 12, "O", F32, d2, 1);
  add_vi(&g, 12, "o16", F16, d2, 1);
  pbuf m = model_of(&g);
  return from_pbuf(&m);
}

/* Fold-back notes: a 16-bit initializer only Casts to FLOAT read, the
 * converted weight (Cast before its MatMul) and one 16-bit already; not the
 * Gather table (Cast after the Gather), not one a Cast to DOUBLE reads, not
 * a graph output. Computing them changes no byte of the saved model. */
TEST(notes_fold_back) {
  onnxslim_model *m = fold_model(), *m2 = fold_model();
  CHECK(m != NULL && m2 != NULL);
  if (!m || !m2) {
    onnxslim_model_free(m);
    onnxslim_model_free(m2);
    return;
  }
  onnxslim_convert_report *rep = NULL;
  CHECK_OK(convert(m, F16, ONNXSLIM_CONVERT_POLICY_CAST_AFTER_GATHER, 0, NULL, 0, 0, &rep));
  CHECK_STR(report_names(rep), "emb,w");
  CHECK(onnxslim_convert_report_note_count(rep) == 2);
  /* the Cast inserted before the MatMul is named by the library: check its op only */
  CHECK(strncmp(note_str(rep, 0), "fold_back w Cast ", 17) == 0);
  CHECK(strstr(note_str(rep, 0), " 0 8") != NULL);
  CHECK_STR(note_str(rep, 1), "fold_back h16 Cast cast_h 0 4");
  CHECK(onnxslim_convert_report_note_code(rep, 1) == ONNXSLIM_CONVERT_NOTE_FOLD_BACK);
  CHECK(strstr(onnxslim_convert_report_note_message(rep, 0), "FLOAT16") != NULL);
  /* errors */
  uint64_t b = 7;
  size_t in = 7;
  CHECK(onnxslim_convert_report_note_code(rep, 2) == ONNXSLIM_ERANGE);
  CHECK(onnxslim_convert_report_note_name(rep, 2) == NULL &&
        onnxslim_error_last_code() == ONNXSLIM_ERANGE);
  CHECK(onnxslim_convert_report_note_message(NULL, 0) == NULL &&
        onnxslim_error_last_code() == ONNXSLIM_EINVAL);
  CHECK(onnxslim_convert_report_note_code(NULL, 0) == ONNXSLIM_EINVAL);
  CHECK(onnxslim_convert_report_note_bytes(rep, 5, &b) == ONNXSLIM_ERANGE && b == 7);
  CHECK(onnxslim_convert_report_note_bytes(rep, 0, NULL) == ONNXSLIM_EINVAL);
  CHECK(onnxslim_convert_report_note_input(rep, 0, NULL) == ONNXSLIM_EINVAL);
  CHECK(onnxslim_convert_report_note_input(rep, 9, &in) == ONNXSLIM_ERANGE && in == 7);
  CHECK(onnxslim_convert_report_note_count(NULL) == 0);
  CHECK(onnxslim_convert_note_code_name(0) == NULL &&
        onnxslim_error_last_code() == ONNXSLIM_EINVAL);
  CHECK(onnxslim_convert_note_code_name(ONNXSLIM_CONVERT_NOTE_CODE_MAX + 1) == NULL);
  CHECK_STR(onnxslim_convert_note_code_name(ONNXSLIM_CONVERT_NOTE_STORAGE_ONLY_READ),
            "storage_only_read");
  CHECK_STR(onnxslim_convert_note_code_name(ONNXSLIM_CONVERT_NOTE_STORAGE_ONLY_GATHER),
            "storage_only_gather");
  onnxslim_convert_report_free(rep);
  /* the same conversion without a report: the same bytes */
  CHECK_OK(convert(m2, F16, ONNXSLIM_CONVERT_POLICY_CAST_AFTER_GATHER, 0, NULL, 0, 0, NULL));
  size_t na = 0, nc = 0;
  uint8_t *a = save_bytes(m, &na), *c = save_bytes(m2, &nc);
  CHECK(a && c && na == nc && memcmp(a, c, na) == 0);
  free(a);
  free(c);
  onnxslim_model_free(m);
  onnxslim_model_free(m2);
  /* only the Gather table: the other 16-bit one stays noted, no other */
  m = fold_model();
  const char *sel[] = {"emb"};
  CHECK_OK(convert(m, BF16, ONNXSLIM_CONVERT_POLICY_CAST_AFTER_GATHER, 0, sel, 1, 0, &rep));
  CHECK(onnxslim_convert_report_note_count(rep) == 1);
  CHECK_STR(note_str(rep, 0), "fold_back h16 Cast cast_h 0 4");
  onnxslim_convert_report_free(rep);
  onnxslim_model_free(m);
}

/* Storage-only notes, at opset 99 (past the schema tables, onnx 1.23.2's
 * 28, so nothing refuses the conversion): s read by an Add, e the table of a Gather whose
 * rows a Relu reads, c read only by a Cast to FLOAT (no storage-only note,
 * a fold-back one, after the storage-only ones); q a Gather table whose
 * output only a Cast reads (no note). */
TEST(notes_storage_only) {
  static const float v2[2] = {1, 2}, v4[4] = {1, 2, 3, 4};
  static const int64_t d2[] = {2}, d22[] = {2, 2};
  pbuf g = {0}, n, t;
  n = node("Add", "add", "X", "s", "A");
  add_node(&g, &n);
  n = node("Gather", "", "e", "I", "E");
  add_node(&g, &n);
  n = node("Relu", "relu", "E", NULL, "R");
  add_node(&g, &n);
  n = node("Cast", "cast_c", "c", NULL, "C");
  attr_int(&n, "to", ONNXSLIM_DTYPE_FLOAT);
  add_node(&g, &n);
  n = node("Gather", "gq", "q", "I", "Q");
  add_node(&g, &n);
  n = node("Cast", "cast_q", "Q", NULL, "QF");
  attr_int(&n, "to", ONNXSLIM_DTYPE_FLOAT);
  add_node(&g, &n);
  pb_str(&g, 2, "so");
  t = tensor_raw("s", F32, d2, 1, v2, sizeof v2);
  pb_msg(&g, 5, &t);
  t = tensor_raw("e", F32, d22, 2, v4, sizeof v4);
  pb_msg(&g, 5, &t);
  t = tensor_raw("c", F32, d2, 1, v2, sizeof v2);
  pb_msg(&g, 5, &t);
  t = tensor_raw("q", F32, d22, 2, v4, sizeof v4);
  pb_msg(&g, 5, &t);
  add_vi(&g, 11, "X", F32, d2, 1);
  add_vi(&g, 11, "I", I64, d2, 1);
  add_vi(&g, 12, "A", F32, d2, 1);
  add_vi(&g, 12, "R", F32, d22, 2);
  add_vi(&g, 12, "C", F32, d2, 1);
  add_vi(&g, 12, "QF", F32, d22, 2);
  pbuf mb = model_at(&g, "", 99);
  onnxslim_model *m = from_pbuf(&mb);
  CHECK(m != NULL);
  if (!m) return;
  onnxslim_convert_report *rep = NULL;
  CHECK_OK(convert(m, F16, ONNXSLIM_CONVERT_POLICY_STORAGE_ONLY, 0, NULL, 0, 0, &rep));
  CHECK_STR(report_names(rep), "c,e,q,s");
  CHECK(onnxslim_convert_report_note_count(rep) == 3);
  CHECK_STR(note_str(rep, 0), "storage_only_read s Add add 1 4");
  CHECK_STR(note_str(rep, 1), "storage_only_gather e Gather  0 8");
  CHECK_STR(note_str(rep, 2), "fold_back c Cast cast_c 0 4");
  CHECK(onnxslim_convert_report_note_code(rep, 1) == ONNXSLIM_CONVERT_NOTE_STORAGE_ONLY_GATHER);
  const char *msg = onnxslim_convert_report_note_message(rep, 0);
  CHECK(msg && strstr(msg, "FLOAT16") && strstr(msg, "FLOAT is expected"));
  onnxslim_convert_report_free(rep);
  onnxslim_model_free(m);
}

/* A tensor a subgraph captures: the If that holds the subgraph is its
 * reader, at no input of its own (ONNXSLIM_ENOTFOUND from _note_input). */
TEST(notes_storage_only_captured) {
  static const float v2[2] = {1, 2};
  static const int64_t d2[] = {2};
  pbuf g = {0}, then_g = {0}, else_g = {0}, n, t;
  n = node("Relu", "r_then", "s", NULL, "a");
  add_node(&then_g, &n);
  pb_str(&then_g, 2, "then");
  add_vi(&then_g, 12, "a", F32, d2, 1);
  n = node("Neg", "r_else", "s", NULL, "b");
  add_node(&else_g, &n);
  pb_str(&else_g, 2, "else");
  add_vi(&else_g, 12, "b", F32, d2, 1);
  n = node("If", "if", "cond", NULL, "Y");
  attr_graph(&n, "then_branch", &then_g);
  attr_graph(&n, "else_branch", &else_g);
  add_node(&g, &n);
  pb_str(&g, 2, "cap");
  t = tensor_raw("s", F32, d2, 1, v2, sizeof v2);
  pb_msg(&g, 5, &t);
  add_vi(&g, 11, "cond", ONNXSLIM_DTYPE_BOOL, NULL, 0);
  add_vi(&g, 12, "Y", F32, d2, 1);
  pbuf mb = model_at(&g, "", 99);
  onnxslim_model *m = from_pbuf(&mb);
  CHECK(m != NULL);
  if (!m) return;
  onnxslim_convert_report *rep = NULL;
  CHECK_OK(convert(m, F16, ONNXSLIM_CONVERT_POLICY_STORAGE_ONLY, 0, NULL, 0, 0, &rep));
  CHECK_STR(report_names(rep), "s");
  CHECK(onnxslim_convert_report_note_count(rep) == 1);
  CHECK_STR(note_str(rep, 0), "storage_only_read s If if - 4");
  size_t in = 7;
  CHECK(onnxslim_convert_report_note_input(rep, 0, &in) == ONNXSLIM_ENOTFOUND && in == 7);
  const char *msg = onnxslim_convert_report_note_message(rep, 0);
  CHECK(msg && strstr(msg, "subgraph of If 'if'"));
  onnxslim_convert_report_free(rep);
  onnxslim_model_free(m);
}

int main(int argc, char **argv) {
  t_args(argc, argv);
  RUN(gather_recipe_bf16_nearest);
  RUN(large_tensor_from_file_split_statistics_and_save);
  RUN(gather_recipe_bf16_truncate);
  RUN(gather_recipe_fp16_and_min_size);
  RUN(gather_tables_with);
  RUN(gather_tied_table);
  RUN(cast_before_fp16_matmul_weight);
  RUN(storage_only_refused);
  RUN(storage_only_valid);
  RUN(selection_specs);
  RUN(selection_exact_name_with_glob_characters);
  RUN(selection_and_options_refused);
  RUN(selection_matching_nothing_refused);
  RUN(exclusion_specs);
  RUN(options_version_1_callers);
  RUN(options_version_2_callers);
  RUN(null_options_are_defaults);
  RUN(opset_bf16_needs_13);
  RUN(opset_fp16_fp32_fp64_from_6);
  RUN(storage_typed_float_and_double_data);
  RUN(storage_constant_cast_before);
  RUN(storage_subgraph_and_capture);
  RUN(storage_external_data);
  RUN(report_counts_crafted_tensor);
  RUN(overflow_keeps_tensors_by_default);
  RUN(overflow_convert_forces);
  RUN(storage_int32_data_half_types);
  RUN(report_without_statistics);
  RUN(truncate_needs_bf16_target);
  RUN(reserved_flag_0x100_refused);
  RUN(report_widening_counts_nan);
  RUN(report_api);
  RUN(notes_fold_back);
  RUN(notes_storage_only);
  RUN(notes_storage_only_captured);
  RUN(streaming_save_twice_and_read_back);
  return t_done();
}
