/* Quantization of embedding tables to INT8 and INT4 through the public API
 * (onnxslim_convert_model() with `to` INT8/INT4, options version 5): the
 * options' versions, the stored bytes against an independent reference
 * written here (scales searched in double precision, rounding half to even
 * by comparison), exhaustive INT4 nibble packing (every pair of values at
 * every byte position of a block, in all three 4-bit layouts), the report's
 * quantization statistics, a Gemm weight as MatMulNBits (and the Gemm it
 * cannot compute refused), and refusals that leave the model unchanged.
 * test/steps/59-quant.sh checks the same against numpy and onnxruntime. */
#include <fenv.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "onnxslim.h"
#include "t.h"

#define BERT "test/data/bert-tiny.onnx"
#define WORD "roberta.embeddings.word_embeddings.weight"

static onnxslim_model *open_bert(void) {
  onnxslim_model *m = NULL;
  if (onnxslim_model_open(&m, BERT, NULL) != 0) {
    fprintf(stderr, "cannot open %s: %s\n", BERT, onnxslim_error_last());
    return NULL;
  }
  return m;
}

static onnxslim_tensor *find(onnxslim_model *m, const char *name) {
  return onnxslim_graph_find_initializer(onnxslim_model_graph(m), name);
}

static int quantize(onnxslim_model *m, onnxslim_convert_report **rep, int32_t to, uint64_t bs,
                    int format, unsigned qflags) {
  static const char *const sel[] = {WORD};
  onnxslim_convert_options o = ONNXSLIM_CONVERT_OPTIONS_INIT;
  o.to = to;
  o.select = sel;
  o.n_select = 1;
  o.block_size = bs;
  o.format = format;
  o.quant_flags = qflags;
  return onnxslim_convert_model(rep, m, &o);
}

/* The reference: the smallest float s with amax / s <= qmax, found by
 * stepping from below in double precision; q by comparing with the
 * midpoints (ties to the even neighbour). */
static float ref_scale(float amax, int qmax) {
  if (amax == 0) return 1.0f;
  /* amax / s <= qmax in exact arithmetic, i.e. amax <= qmax * s in double */
  float s = (float)((double)amax / qmax);
  while (s > 0 && (double)amax <= (double)qmax * nextafterf(s, 0)) s = nextafterf(s, 0);
  while ((double)amax > (double)qmax * s) s = nextafterf(s, INFINITY);
  return s;
}

static int ref_q(float x, float s) {
  double v = (double)x / s;
  int lo = (int)floor(v);
  double frac = v - lo;
  if (frac > 0.5) return lo + 1;
  if (frac < 0.5) return lo;
  return (lo % 2 == 0) ? lo : lo + 1;
}

/* Quantizes rows x rows k of src with blocks of bs: q (int) and scales. */
static void ref_quant(const float *src, size_t rows, size_t k, size_t bs, int qmax, int *q,
                      float *sc) {
  for (size_t r = 0; r < rows; r++)
    for (size_t b = 0; b < k / bs; b++) {
      const float *v = src + r * k + b * bs;
      float amax = 0;
      for (size_t i = 0; i < bs; i++)
        if (fabsf(v[i]) > amax) amax = fabsf(v[i]);
      float s = ref_scale(amax, qmax);
      sc[r * (k / bs) + b] = s;
      for (size_t i = 0; i < bs; i++) q[r * k + b * bs + i] = ref_q(v[i], s);
    }
}

TEST(options_versions) {
  onnxslim_convert_options o;
  memset(&o, 0x5a, sizeof o);
  CHECK_OK(onnxslim_convert_options_init(&o, 5));
  CHECK(o.version == 5 && o.block_size == 0 && o.format == ONNXSLIM_QUANT_FORMAT_STANDARD &&
        o.quant_flags == 0 && o.scale_type == 0);
  /* a version-4 caller's struct ends before block_size: untouched */
  memset(&o, 0x5a, sizeof o);
  CHECK_OK(onnxslim_convert_options_init(&o, 4));
  CHECK(o.version == 4 && o.block_size == 0x5a5a5a5a5a5a5a5aull);
  CHECK(onnxslim_convert_options_init(&o, 6) == ONNXSLIM_EINVAL);
  /* a version-4 caller converting to INT8 gets the defaults of the rest */
  onnxslim_model *m = open_bert();
  CHECK(m != NULL);
  if (!m) return;
  CHECK_OK(onnxslim_convert_options_init(&o, 4));
  o.to = ONNXSLIM_DTYPE_INT8;
  o.block_size = 7; /* beyond version 4: not read */
  onnxslim_convert_report *r = NULL;
  CHECK_OK(onnxslim_convert_model(&r, m, &o));
  onnxslim_quant_stats q = ONNXSLIM_QUANT_STATS_INIT;
  CHECK_OK(onnxslim_convert_report_quant_stats(r, 0, &q));
  CHECK(q.block_size == 16 && q.bits == 8);
  onnxslim_convert_report_free(r);
  onnxslim_model_free(m);
}

TEST(int8_bytes_match_reference) {
  for (int per_row = 0; per_row < 2; per_row++) {
    onnxslim_model *m = open_bert();
    CHECK(m != NULL);
    if (!m) return;
    onnxslim_tensor *t = find(m, WORD);
    const void *d;
    size_t n;
    CHECK_OK(onnxslim_tensor_data(t, &d, &n));
    float *src = malloc(n);
    memcpy(src, d, n);
    size_t rows = 100, k = 16, bs = per_row ? 16 : 8;
    CHECK_OK(onnxslim_model_set_opset(m, "", 21));
    onnxslim_convert_report *r = NULL;
    CHECK_OK(quantize(m, &r, ONNXSLIM_DTYPE_INT8, per_row ? 0 : bs, 0, 0));
    int *q = malloc(rows * k * sizeof *q);
    float *sc = malloc(rows * (k / bs) * sizeof *sc);
    ref_quant(src, rows, k, bs, 127, q, sc);
    t = find(m, WORD);
    CHECK(onnxslim_tensor_dtype(t) == ONNXSLIM_DTYPE_INT8);
    CHECK_OK(onnxslim_tensor_data(t, &d, &n));
    CHECK(n == rows * k);
    int same = 1;
    for (size_t i = 0; i < rows * k; i++) same &= ((const int8_t *)d)[i] == q[i];
    CHECK(same);
    onnxslim_tensor *st = find(m, WORD "_scale");
    CHECK(st && onnxslim_tensor_dtype(st) == ONNXSLIM_DTYPE_FLOAT);
    CHECK(st && onnxslim_tensor_dim(st, 0) == 100 &&
          onnxslim_tensor_dim(st, 1) == (int64_t)(k / bs));
    CHECK_OK(onnxslim_tensor_data(st, &d, &n));
    CHECK(n == rows * (k / bs) * 4 && memcmp(d, sc, n) == 0);
    /* the report */
    onnxslim_quant_stats qs = ONNXSLIM_QUANT_STATS_INIT;
    CHECK_OK(onnxslim_convert_report_quant_stats(r, 0, &qs));
    double max_abs = 0, max_rel = 0, smin = INFINITY, smax = 0;
    unsigned long over = 0;
    for (size_t row = 0; row < rows; row++) {
      double e2 = 0, n2 = 0;
      for (size_t i = 0; i < k; i++) {
        float s = sc[row * (k / bs) + i / bs];
        double e = fabs((double)((float)q[row * k + i] * s) - src[row * k + i]);
        if (e > max_abs) max_abs = e;
        e2 += e * e;
        n2 += (double)src[row * k + i] * src[row * k + i];
      }
      double rel = n2 > 0 ? sqrt(e2 / n2) : 0;
      if (rel > max_rel) max_rel = rel;
      if (rel > 0.01) over++;
    }
    for (size_t i = 0; i < rows * (k / bs); i++) {
      if (sc[i] < smin) smin = sc[i];
      if (sc[i] > smax) smax = sc[i];
    }
    CHECK(qs.bits == 8 && qs.block_size == bs && qs.rows == rows && qs.blocks == rows * (k / bs));
    CHECK(qs.saturated == 0 && qs.max_abs_error == max_abs);
    CHECK(fabs(qs.max_row_rel_error - max_rel) <= 1e-12 * (max_rel + 1));
    CHECK(qs.rows_over_1pct == over && qs.scale_min == smin && qs.scale_max == smax);
    uint64_t after = 0;
    CHECK_OK(onnxslim_convert_report_bytes_after(r, 0, &after));
    CHECK(after == rows * k + rows * (k / bs) * 4);
    CHECK(onnxslim_convert_report_to(r, 0) == ONNXSLIM_DTYPE_INT8);
    onnxslim_convert_report_free(r);
    free(src);
    free(q);
    free(sc);
    onnxslim_model_free(m);
  }
}

/* Rows of 16 values, each block with a 7 (so the scale is 1 and q = x):
 * every ordered pair (a, b) of -7..7 at byte position pos. */
#define NPAIR 225
static float *pair_table(size_t *rows) {
  *rows = (size_t)NPAIR * 8;
  float *v = malloc(*rows * 16 * sizeof *v);
  for (size_t pos = 0; pos < 8; pos++)
    for (int p = 0; p < NPAIR; p++) {
      float *r = v + (pos * NPAIR + (size_t)p) * 16;
      for (int i = 0; i < 16; i++) r[i] = 7.0f;
      r[2 * pos] = (float)(p / 15 - 7);
      r[2 * pos + 1] = (float)(p % 15 - 7);
    }
  return v;
}

TEST(int4_packing_exhaustive) {
  /* layout: 0 INT4 packed (opset 21), 1 GatherBlockQuantized UINT8
   * nibbles (q + 8), 2 unpacked INT8 (opset 17) */
  for (int layout = 0; layout < 3; layout++) {
    onnxslim_model *m = open_bert();
    CHECK(m != NULL);
    if (!m) return;
    size_t rows;
    float *v = pair_table(&rows);
    int64_t dims[2] = {(int64_t)rows, 16};
    CHECK_OK(onnxslim_tensor_set_data(find(m, WORD), ONNXSLIM_DTYPE_FLOAT, dims, 2, v,
                                      rows * 16 * 4, ONNXSLIM_COPY));
    if (layout == 0) CHECK_OK(onnxslim_model_set_opset(m, "", 21));
    CHECK_OK(quantize(m, NULL, ONNXSLIM_DTYPE_INT4, layout == 2 ? 0 : 16,
                      layout == 1 ? ONNXSLIM_QUANT_FORMAT_ORT : 0,
                      layout == 2 ? ONNXSLIM_QUANT_ALLOW_UNPACKED : 0));
    onnxslim_tensor *t = find(m, WORD);
    const void *d;
    size_t n;
    CHECK_OK(onnxslim_tensor_data(t, &d, &n));
    const uint8_t *b = d;
    int32_t want_type[3] = {ONNXSLIM_DTYPE_INT4, ONNXSLIM_DTYPE_UINT8, ONNXSLIM_DTYPE_INT8};
    CHECK(onnxslim_tensor_dtype(t) == want_type[layout]);
    CHECK(n == rows * (layout == 2 ? 16 : 8));
    size_t bad = 0;
    for (size_t r = 0; r < rows && n >= rows * 8; r++)
      for (size_t i = 0; i < 16; i++) {
        int want = (int)v[r * 16 + i], got;
        if (layout == 2) got = (int8_t)b[r * 16 + i];
        else {
          /* ONNX: element 2j in the low nibble of byte j */
          unsigned byte = b[r * 8 + i / 2];
          unsigned nib = i % 2 == 0 ? byte % 16 : byte / 16;
          got = layout == 1 ? (int)nib - 8 : (nib >= 8 ? (int)nib - 16 : (int)nib);
        }
        bad += got != want;
      }
    CHECK(bad == 0);
    if (layout == 1) CHECK(onnxslim_tensor_dim(t, 1) == 8);
    free(v);
    onnxslim_model_free(m);
  }
}

TEST(ort_int8_offset) {
  onnxslim_model *m = open_bert();
  CHECK(m != NULL);
  if (!m) return;
  const void *d;
  size_t n;
  CHECK_OK(onnxslim_tensor_data(find(m, WORD), &d, &n));
  float *src = malloc(n);
  memcpy(src, d, n);
  CHECK_OK(quantize(m, NULL, ONNXSLIM_DTYPE_INT8, 16, ONNXSLIM_QUANT_FORMAT_ORT, 0));
  int q[1600];
  float sc[100];
  ref_quant(src, 100, 16, 16, 127, q, sc);
  onnxslim_tensor *t = find(m, WORD);
  CHECK(onnxslim_tensor_dtype(t) == ONNXSLIM_DTYPE_UINT8);
  CHECK_OK(onnxslim_tensor_data(t, &d, &n));
  int same = n == 1600;
  for (size_t i = 0; same && i < 1600; i++) same = ((const uint8_t *)d)[i] == q[i] + 128;
  CHECK(same);
  /* the Gather became a GatherBlockQuantized of com.microsoft */
  onnxslim_graph *g = onnxslim_model_graph(m);
  int gbq = 0;
  for (size_t i = 0; i < onnxslim_graph_node_count(g); i++) {
    onnxslim_node *nd = onnxslim_graph_node(g, i);
    if (strcmp(onnxslim_node_op_type(nd), "GatherBlockQuantized") == 0 &&
        strcmp(onnxslim_node_domain(nd), "com.microsoft") == 0) {
      int64_t bits = 0, bsz = 0;
      CHECK_OK(onnxslim_attr_int(onnxslim_node_find_attr(nd, "bits"), &bits));
      CHECK_OK(onnxslim_attr_int(onnxslim_node_find_attr(nd, "block_size"), &bsz));
      CHECK(bits == 8 && bsz == 16 && onnxslim_node_input_count(nd) == 3);
      gbq++;
    }
  }
  CHECK(gbq == 1);
  free(src);
  onnxslim_model_free(m);
}

/* A Gemm weight B [N, K] (transB 1) as MatMulNBits: the stored blobs are the
 * rows of B as they are (no transposition), C becomes the bias (input 5);
 * a Gemm MatMulNBits cannot compute (alpha 2) is refused, model unchanged. */
TEST(gemm_weight_ort) {
  onnxslim_model *m = open_bert();
  CHECK(m != NULL);
  if (!m) return;
  onnxslim_graph *g = onnxslim_model_graph(m);
  enum { N = 8, K = 32 };
  float w[N * K], bias[N];
  for (int i = 0; i < N * K; i++) w[i] = (float)((i * 7919) % 61 - 30) / (float)(1 + i % 5);
  for (int i = 0; i < N; i++) bias[i] = (float)i;
  int64_t wd[2] = {N, K}, bd[1] = {N};
  CHECK_OK(onnxslim_graph_add_initializer(g, "gw", ONNXSLIM_DTYPE_FLOAT, wd, 2, w, sizeof w,
                                          ONNXSLIM_COPY, NULL));
  CHECK_OK(onnxslim_graph_add_initializer(g, "gb", ONNXSLIM_DTYPE_FLOAT, bd, 1, bias, sizeof bias,
                                          ONNXSLIM_COPY, NULL));
  const char *in[3] = {"ga", "gw", "gb"}, *out[1] = {"gy"};
  onnxslim_node *gemm = NULL;
  CHECK_OK(onnxslim_graph_add_node(g, onnxslim_graph_node_count(g), "Gemm", NULL, "fc", in, 3, out,
                                   1, &gemm));
  CHECK_OK(onnxslim_node_set_attr_int(gemm, "transB", 1));
  CHECK_OK(onnxslim_node_set_attr_float(gemm, "alpha", 2.0f));
  static const char *const sel[] = {"op:Gemm:1"};
  onnxslim_convert_options o = ONNXSLIM_CONVERT_OPTIONS_INIT;
  o.to = ONNXSLIM_DTYPE_INT4;
  o.select = sel;
  o.n_select = 1;
  o.block_size = 16;
  o.format = ONNXSLIM_QUANT_FORMAT_ORT;
  char before[128], after[128];
  CHECK_OK(onnxslim_fingerprint(before, sizeof before, m));
  CHECK(onnxslim_convert_model(NULL, m, &o) == ONNXSLIM_EMODEL);
  CHECK(strstr(onnxslim_error_last(), "Gemm 'fc'") && strstr(onnxslim_error_last(), "alpha"));
  CHECK_OK(onnxslim_fingerprint(after, sizeof after, m));
  CHECK(strcmp(before, after) == 0);
  CHECK_OK(onnxslim_node_set_attr_float(gemm, "alpha", 1.0f));
  CHECK_OK(onnxslim_convert_model(NULL, m, &o));
  int q[N * K];
  float sc[N * K / 16];
  ref_quant(w, N, K, 16, 7, q, sc);
  onnxslim_tensor *t = find(m, "gw");
  const void *d;
  size_t n;
  CHECK(onnxslim_tensor_dtype(t) == ONNXSLIM_DTYPE_UINT8 && onnxslim_tensor_rank(t) == 3 &&
        onnxslim_tensor_dim(t, 0) == N && onnxslim_tensor_dim(t, 1) == K / 16 &&
        onnxslim_tensor_dim(t, 2) == 8);
  CHECK_OK(onnxslim_tensor_data(t, &d, &n));
  int same = n == N * K / 2;
  for (size_t i = 0; same && i < n; i++) /* q + 8, element 2i in the low nibble */
    same = ((const uint8_t *)d)[i] == (uint8_t)((q[2 * i] + 8) | ((q[2 * i + 1] + 8) << 4));
  CHECK(same);
  CHECK_OK(onnxslim_tensor_data(find(m, "gw_scale"), &d, &n));
  CHECK(n == sizeof sc && memcmp(d, sc, n) == 0);
  CHECK(strcmp(onnxslim_node_op_type(gemm), "MatMulNBits") == 0 &&
        strcmp(onnxslim_node_domain(gemm), "com.microsoft") == 0 &&
        onnxslim_node_input_count(gemm) == 6 && strcmp(onnxslim_node_input(gemm, 5), "gb") == 0 &&
        !onnxslim_node_find_attr(gemm, "transB") && !onnxslim_node_find_attr(gemm, "alpha"));
  int64_t kk = 0, nn = 0;
  CHECK_OK(onnxslim_attr_int(onnxslim_node_find_attr(gemm, "K"), &kk));
  CHECK_OK(onnxslim_attr_int(onnxslim_node_find_attr(gemm, "N"), &nn));
  CHECK(kk == K && nn == N);
  onnxslim_model_free(m);
}

TEST(refusals_change_nothing) {
  onnxslim_model *m = open_bert();
  CHECK(m != NULL);
  if (!m) return;
  char before[128], after[128];
  /* INT4 at opset 17 without ALLOW_UNPACKED */
  CHECK(quantize(m, NULL, ONNXSLIM_DTYPE_INT4, 0, 0, 0) == ONNXSLIM_EMODEL);
  CHECK(strstr(onnxslim_error_last(), "opset 21") != NULL);
  /* blocks below opset 21 in the standard form */
  CHECK(quantize(m, NULL, ONNXSLIM_DTYPE_INT8, 8, 0, 0) == ONNXSLIM_EMODEL);
  /* block sizes */
  CHECK(quantize(m, NULL, ONNXSLIM_DTYPE_INT8, 24, ONNXSLIM_QUANT_FORMAT_ORT, 0) ==
        ONNXSLIM_EINVAL);
  CHECK(quantize(m, NULL, ONNXSLIM_DTYPE_INT8, 1, 0, 0) == ONNXSLIM_EINVAL);
  CHECK(quantize(m, NULL, ONNXSLIM_DTYPE_INT4, 3, 0, ONNXSLIM_QUANT_ALLOW_UNPACKED) ==
        ONNXSLIM_EINVAL);
  CHECK(quantize(m, NULL, ONNXSLIM_DTYPE_INT8, 0, 7, 0) == ONNXSLIM_EINVAL);
  CHECK(quantize(m, NULL, ONNXSLIM_DTYPE_INT8, 0, 0, 4) == ONNXSLIM_EINVAL);
  /* a NaN in the table */
  const void *d;
  size_t n;
  CHECK_OK(onnxslim_tensor_data(find(m, WORD), &d, &n));
  float *v = malloc(n);
  memcpy(v, d, n);
  v[37] = NAN;
  int64_t dims[2] = {100, 16};
  CHECK_OK(
      onnxslim_tensor_set_data(find(m, WORD), ONNXSLIM_DTYPE_FLOAT, dims, 2, v, n, ONNXSLIM_COPY));
  CHECK_OK(onnxslim_fingerprint(before, sizeof before, m));
  CHECK(quantize(m, NULL, ONNXSLIM_DTYPE_INT8, 0, 0, 0) == ONNXSLIM_EMODEL);
  CHECK(strstr(onnxslim_error_last(), "NaN") != NULL);
  CHECK_OK(onnxslim_fingerprint(after, sizeof after, m));
  CHECK(strcmp(before, after) == 0);
  free(v);
  onnxslim_model_free(m);
}

/* rne(mx / s) + rne(-mn / s): the largest value an asymmetric block stores */
static int ref_span(double mx, double nmn, float s) {
  return ref_q((float)mx, s) + ref_q((float)nmn, s);
}

/* Asymmetric per row at opset 17 (UINT8 values and zero points): the
 * smallest float scale whose span fits 0..255, found by stepping (the span
 * does not grow with the scale), and q = rne(x / s) + rne(-min / s). */
TEST(asymmetric_bytes_match_reference) {
  onnxslim_model *m = open_bert();
  CHECK(m != NULL);
  if (!m) return;
  const void *d;
  size_t n;
  CHECK_OK(onnxslim_tensor_data(find(m, WORD), &d, &n));
  size_t rows = 100, k = 16;
  float *src = malloc(n);
  memcpy(src, d, n);
  for (size_t i = 0; i < k; i++) src[3 * k + i] = fabsf(src[3 * k + i]) + 0.5f; /* all > 0 */
  for (size_t i = 0; i < k; i++) src[4 * k + i] = 0;                            /* zeros */
  int64_t dims[2] = {100, 16};
  CHECK_OK(onnxslim_tensor_set_data(find(m, WORD), ONNXSLIM_DTYPE_FLOAT, dims, 2, src, n,
                                    ONNXSLIM_COPY));
  onnxslim_convert_report *r = NULL;
  CHECK_OK(quantize(m, &r, ONNXSLIM_DTYPE_INT8, 0, 0, ONNXSLIM_QUANT_ASYMMETRIC));
  onnxslim_tensor *t = find(m, WORD), *st = find(m, WORD "_scale"),
                  *zt = find(m, WORD "_zero_point");
  CHECK(t && st && zt);
  if (!t || !st || !zt) return;
  CHECK(onnxslim_tensor_dtype(t) == ONNXSLIM_DTYPE_UINT8 &&
        onnxslim_tensor_dtype(zt) == ONNXSLIM_DTYPE_UINT8 && onnxslim_tensor_dim(zt, 0) == 100 &&
        onnxslim_tensor_dim(zt, 1) == 1);
  const void *qd, *sd, *zd;
  size_t qn, sn, zn;
  CHECK_OK(onnxslim_tensor_data(t, &qd, &qn));
  CHECK_OK(onnxslim_tensor_data(st, &sd, &sn));
  CHECK_OK(onnxslim_tensor_data(zt, &zd, &zn));
  CHECK(qn == rows * k && sn == rows * 4 && zn == rows);
  size_t bad = 0;
  for (size_t row = 0; row < rows && qn == rows * k && sn == rows * 4 && zn == rows; row++) {
    const float *v = src + row * k;
    double mx = 0, nmn = 0;
    for (size_t i = 0; i < k; i++) {
      if (v[i] > mx) mx = v[i];
      if (-v[i] > nmn) nmn = -v[i];
    }
    float s = 1.0f;
    if (mx > 0 || nmn > 0) {
      s = (float)((mx + nmn) / 255);
      while (ref_span(mx, nmn, s) > 255) s = nextafterf(s, INFINITY);
      while (ref_span(mx, nmn, nextafterf(s, 0)) <= 255) s = nextafterf(s, 0);
    }
    int zp = mx > 0 || nmn > 0 ? ref_q((float)nmn, s) : 0;
    float got;
    memcpy(&got, (const uint8_t *)sd + row * 4, 4);
    bad += got != s || ((const uint8_t *)zd)[row] != zp;
    for (size_t i = 0; i < k; i++) {
      int q = ref_q(v[i], s) + zp;
      bad += q < 0 || q > 255 || ((const uint8_t *)qd)[row * k + i] != q;
    }
    if (row == 3) CHECK(zp == 0);
    if (row == 4) CHECK(zp == 0 && got == 1.0f);
  }
  CHECK(bad == 0);
  uint64_t after = 0;
  CHECK_OK(onnxslim_convert_report_bytes_after(r, 0, &after));
  CHECK(after == rows * k + rows * 4 + rows);
  onnxslim_quant_stats qs = ONNXSLIM_QUANT_STATS_INIT;
  CHECK_OK(onnxslim_convert_report_quant_stats(r, 0, &qs));
  CHECK(qs.bits == 8 && qs.saturated == 0 && qs.rows == rows && qs.max_abs_error > 0);
  onnxslim_convert_report_free(r);
  free(src);
  onnxslim_model_free(m);
}

/* The nibbles form stores the bytes of GatherBlockQuantized's 4 bits
 * (UINT8 [rows, cols / 2]) and reads them with standard operators only;
 * INT8 and MatMul weights are refused with it, the model unchanged. */
TEST(nibbles_form) {
  const void *d;
  size_t n;
  uint8_t *ort = NULL;
  for (int form = 0; form < 2; form++) {
    onnxslim_model *m = open_bert();
    CHECK(m != NULL);
    if (!m) return;
    CHECK_OK(quantize(m, NULL, ONNXSLIM_DTYPE_INT4, 16,
                      form ? ONNXSLIM_QUANT_FORMAT_NIBBLES : ONNXSLIM_QUANT_FORMAT_ORT, 0));
    onnxslim_tensor *t = find(m, WORD);
    CHECK(onnxslim_tensor_dtype(t) == ONNXSLIM_DTYPE_UINT8 && onnxslim_tensor_dim(t, 0) == 100 &&
          onnxslim_tensor_dim(t, 1) == 8);
    CHECK_OK(onnxslim_tensor_data(t, &d, &n));
    CHECK(n == 800);
    if (!form) {
      ort = malloc(n);
      memcpy(ort, d, n);
    } else {
      CHECK(ort && n == 800 && memcmp(d, ort, n) == 0);
      onnxslim_graph *g = onnxslim_model_graph(m);
      size_t custom = 0, gathers = 0;
      for (size_t i = 0; i < onnxslim_graph_node_count(g); i++) {
        onnxslim_node *nd = onnxslim_graph_node(g, i);
        custom += onnxslim_node_domain(nd)[0] != 0;
        gathers += strcmp(onnxslim_node_op_type(nd), "Gather") == 0;
      }
      CHECK(custom == 0 && gathers >= 2);
    }
    onnxslim_model_free(m);
  }
  free(ort);
  onnxslim_model *m = open_bert();
  CHECK(m != NULL);
  if (!m) return;
  char before[128], after[128];
  CHECK_OK(onnxslim_fingerprint(before, sizeof before, m));
  CHECK(quantize(m, NULL, ONNXSLIM_DTYPE_INT8, 0, ONNXSLIM_QUANT_FORMAT_NIBBLES, 0) ==
        ONNXSLIM_EINVAL);
  CHECK(strstr(onnxslim_error_last(), "INT4") != NULL);
  static const char *const mm[] = {"op:MatMul:1"};
  onnxslim_convert_options o = ONNXSLIM_CONVERT_OPTIONS_INIT;
  o.to = ONNXSLIM_DTYPE_INT4;
  o.select = mm;
  o.n_select = 1;
  o.format = ONNXSLIM_QUANT_FORMAT_NIBBLES;
  CHECK(onnxslim_convert_model(NULL, m, &o) == ONNXSLIM_EINVAL);
  CHECK(strstr(onnxslim_error_last(), "MatMul") != NULL);
  CHECK(quantize(m, NULL, ONNXSLIM_DTYPE_INT4, 0, 3, 0) == ONNXSLIM_EINVAL);
  CHECK_OK(onnxslim_fingerprint(after, sizeof after, m));
  CHECK(strcmp(before, after) == 0);
  onnxslim_model_free(m);
}

/* Asymmetric MatMul weights below opset 21: UINT8 [K, N], per-column
 * scales and UINT8 zero points [N], a DequantizeLinear with its zero point. */
TEST(asymmetric_matmul_per_column) {
  onnxslim_model *m = open_bert();
  CHECK(m != NULL);
  if (!m) return;
  static const char *const mm[] = {"op:MatMul:1"};
  onnxslim_convert_options o = ONNXSLIM_CONVERT_OPTIONS_INIT;
  o.to = ONNXSLIM_DTYPE_INT8;
  o.select = mm;
  o.n_select = 1;
  o.quant_flags = ONNXSLIM_QUANT_ASYMMETRIC;
  onnxslim_convert_report *r = NULL;
  CHECK_OK(onnxslim_convert_model(&r, m, &o));
  size_t n = onnxslim_convert_report_count(r), good = 0;
  for (size_t i = 0; i < n; i++) {
    const char *name = onnxslim_convert_report_name(r, i);
    onnxslim_tensor *t = find(m, name);
    char zn[256];
    snprintf(zn, sizeof zn, "%s_zero_point", name);
    onnxslim_tensor *z = find(m, zn);
    good += t && z && onnxslim_tensor_dtype(t) == ONNXSLIM_DTYPE_UINT8 &&
            onnxslim_tensor_dtype(z) == ONNXSLIM_DTYPE_UINT8 && onnxslim_tensor_rank(z) == 1 &&
            onnxslim_tensor_dim(z, 0) == onnxslim_tensor_dim(t, 1);
  }
  CHECK(n > 0 && good == n);
  onnxslim_convert_report_free(r);
  onnxslim_model_free(m);
}

TEST(report_getter_errors) {
  onnxslim_model *m = open_bert();
  CHECK(m != NULL);
  if (!m) return;
  static const char *const sel[] = {WORD};
  onnxslim_convert_options o = ONNXSLIM_CONVERT_OPTIONS_INIT;
  o.to = ONNXSLIM_DTYPE_FLOAT16;
  o.select = sel;
  o.n_select = 1;
  onnxslim_convert_report *r = NULL;
  CHECK_OK(onnxslim_convert_model(&r, m, &o));
  onnxslim_quant_stats q = ONNXSLIM_QUANT_STATS_INIT;
  CHECK(onnxslim_convert_report_quant_stats(r, 0, &q) == ONNXSLIM_ENOTFOUND);
  CHECK(onnxslim_convert_report_quant_stats(r, 1, &q) == ONNXSLIM_ERANGE);
  CHECK(onnxslim_convert_report_quant_stats(NULL, 0, &q) == ONNXSLIM_EINVAL);
  CHECK(onnxslim_convert_report_quant_stats(r, 0, NULL) == ONNXSLIM_EINVAL);
  q.version = 0;
  CHECK(onnxslim_convert_report_quant_stats(r, 0, &q) == ONNXSLIM_EINVAL);
  onnxslim_convert_report_free(r);
  onnxslim_model_free(m);
}

/* The quantized bytes do not depend on the caller's rounding mode. */
TEST(rounding_mode_independent) {
  const void *d;
  size_t n;
  uint8_t *want = NULL;
  size_t nwant = 0;
  int modes[] = {FE_TONEAREST, FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO};
  for (int i = 0; i < 4; i++) {
    onnxslim_model *m = open_bert();
    CHECK(m != NULL);
    if (!m) return;
    CHECK(fesetround(modes[i]) == 0);
    CHECK_OK(quantize(m, NULL, ONNXSLIM_DTYPE_INT8, 0, 0, 0));
    int ok = onnxslim_tensor_data(find(m, WORD), &d, &n) == 0;
    fesetround(FE_TONEAREST);
    CHECK(ok);
    if (i == 0) {
      want = malloc(n);
      memcpy(want, d, n);
      nwant = n;
    } else {
      CHECK(ok && n == nwant && memcmp(d, want, n) == 0);
    }
    onnxslim_model_free(m);
  }
  free(want);
}

int main(int argc, char **argv) {
  t_args(argc, argv);
  RUN(options_versions);
  RUN(int8_bytes_match_reference);
  RUN(int4_packing_exhaustive);
  RUN(ort_int8_offset);
  RUN(gemm_weight_ort);
  RUN(refusals_change_nothing);
  RUN(asymmetric_bytes_match_reference);
  RUN(nibbles_form);
  RUN(asymmetric_matmul_per_column);
  RUN(report_getter_errors);
  RUN(rounding_mode_independent);
  return t_done();
}
