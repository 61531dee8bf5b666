/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/* Models with things to simplify, for bench/sections/49-simplify-scale.sh.
 * The protobuf is encoded by hand (test/pbuild.h); weights are streamed to
 * disk in 1 MiB pieces, so a model of any size is made in a few MiB.
 *
 * make_slimmable big OUT.onnx [--gib G]   (default 4)
 *   ids int64 [8]; 4 tables of R x 1024 FP32 (G GiB in all, pseudo-random
 *   bytes, external data in OUT's name + ".data", 4096-aligned). For each
 *   table i: Gather(table_i, ids) -> Identity -> Cast(to FLOAT) -> two equal
 *   Mul(., scale) (a common subexpression) -> Add of the two; the four sums
 *   added up; a Relu of the first sum that nothing reads (dead); then
 *   Reshape(sum, Shape(sum)) (a static shape chain: Shape folds, the
 *   Reshape changes nothing) -> out [8, 1024]. An initializer that no node
 *   reads (1 MiB, external) too. A simplifier should leave per table
 *   Gather, Mul, Add and the sum chain: 4 + 4 + 4 + 3 = 15 nodes of 30.
 *
 * make_slimmable chain N OUT.onnx
 *   x float [1, 16]; N / 5 units of Identity -> Add(., w) -> Cast(to FLOAT)
 *   -> Shape -> Reshape(., shape) (5 nodes; w one shared [16] initializer)
 *   -> y. Shape inference follows every value; a simplifier folds each
 *   Shape and removes Identity, Cast and Reshape: N / 5 Adds remain.
 *
 * Prints one line: what was written. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <onnxslim.h>

#include "../test/pbuild.h"

static int fail(const char *what) {
  fprintf(stderr, "make_slimmable: %s: %s\n", what, strerror(errno));
  return 1;
}

static void attr_int(pbuf *n, const char *name, int64_t v) {
  pbuf a = {0};
  pb_str(&a, 1, name);
  pb_int(&a, 3, (uint64_t)v); /* AttributeProto.i */
  pb_int(&a, 20, 2);          /* type INT */
  pb_msg(n, 5, &a);
}

/* NodeProto with up to two inputs (NULL: none) and one output; `to` >= 0
 * adds attribute to (for Cast). */
static void node(pbuf *g, const char *op, const char *name, const char *a, const char *b,
                 const char *out, int to) {
  pbuf n = {0};
  if (a) pb_str(&n, 1, a);
  if (b) pb_str(&n, 1, b);
  pb_str(&n, 2, out);
  pb_str(&n, 3, name);
  pb_str(&n, 4, op);
  if (to >= 0) attr_int(&n, "to", to);
  pb_msg(g, 1, &n);
}

static void entry(pbuf *t, const char *key, const char *value) {
  pbuf e = {0};
  pb_str(&e, 1, key);
  pb_str(&e, 2, value);
  pb_msg(t, 13, &e);
}

static void ext_tensor(pbuf *g, const char *name, int64_t d0, int64_t d1, const char *location,
                       uint64_t offset, uint64_t length) {
  pbuf t = {0};
  char num[32];
  pb_int(&t, 1, (uint64_t)d0);
  pb_int(&t, 1, (uint64_t)d1);
  pb_int(&t, 2, ONNXSLIM_DTYPE_FLOAT);
  pb_str(&t, 8, name);
  entry(&t, "location", location);
  snprintf(num, sizeof num, "%llu", (unsigned long long)offset);
  entry(&t, "offset", num);
  snprintf(num, sizeof num, "%llu", (unsigned long long)length);
  entry(&t, "length", num);
  pb_int(&t, 14, 1);
  pb_msg(g, 5, &t);
}

/* An inline FLOAT initializer [n] (raw_data). */
static void raw_tensor(pbuf *g, const char *name, const float *v, int64_t n) {
  pbuf t = {0};
  pb_int(&t, 1, (uint64_t)n);
  pb_int(&t, 2, ONNXSLIM_DTYPE_FLOAT);
  pb_str(&t, 8, name);
  pb_bytes(&t, 9, v, (size_t)n * sizeof *v);
  pb_msg(g, 5, &t);
}

static void value_info(pbuf *g, uint32_t field, const char *name, int elem, int64_t d0,
                       int64_t d1) {
  pbuf vi = {0}, ty = {0}, tt = {0}, sh = {0}, d = {0};
  pb_int(&d, 1, (uint64_t)d0);
  pb_msg(&sh, 1, &d);
  if (d1 > 0) {
    pb_int(&d, 1, (uint64_t)d1);
    pb_msg(&sh, 1, &d);
  }
  pb_int(&tt, 1, (uint64_t)elem);
  pb_msg(&tt, 2, &sh);
  pb_msg(&ty, 1, &tt);
  pb_str(&vi, 1, name);
  pb_msg(&vi, 2, &ty);
  pb_msg(g, field, &vi);
}

static int write_model(const char *out, pbuf *g, int opset) {
  pbuf m = {0}, op = {0};
  pb_int(&m, 1, 8);
  pb_str(&m, 2, "libonnxslim-bench/make_slimmable");
  pb_msg(&m, 7, g);
  pb_str(&op, 1, "");
  pb_int(&op, 2, (uint64_t)opset);
  pb_msg(&m, 8, &op);
  FILE *f = fopen(out, "wb");
  if (!f || fwrite(m.p, 1, m.n, f) != m.n || fclose(f) != 0) return fail(out);
  free(m.p);
  return 0;
}

/* Writes `bytes` pseudo-random finite floats (|v| < 1) to f. */
static int stream_weights(FILE *f, uint64_t bytes, uint64_t *state) {
  static float buf[1 << 18];
  while (bytes) {
    size_t n = bytes < sizeof buf ? (size_t)bytes : sizeof buf;
    for (size_t i = 0; i < n / 4; i++) {
      uint64_t x = *state;
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      *state = x;
      buf[i] = (float)((int32_t)(x >> 32)) / 4294967296.0f;
    }
    if (fwrite(buf, 1, n, f) != n) return -1;
    bytes -= n;
  }
  return 0;
}

static int big(const char *out, double gib) {
  const int tables = 4;
  const int64_t dim = 1024;
  int64_t rows = (int64_t)(gib * 1073741824.0 / tables / (dim * 4));
  if (rows < 8) rows = 8;
  uint64_t tbytes = (uint64_t)rows * dim * 4, unused_bytes = 1 << 20;
  const char *base = strrchr(out, '/') ? strrchr(out, '/') + 1 : out;
  char location[512], data_path[1024];
  snprintf(location, sizeof location, "%s.data", base);
  snprintf(data_path, sizeof data_path, "%s.data", out);

  pbuf g = {0};
  char sum[64] = "";
  for (int i = 0; i < tables; i++) {
    char n1[64], n2[64], v[6][64];
    snprintf(v[0], 64, "t%d/gather", i);
    snprintf(v[1], 64, "t%d/identity", i);
    snprintf(v[2], 64, "t%d/cast", i);
    snprintf(v[3], 64, "t%d/mul_a", i);
    snprintf(v[4], 64, "t%d/mul_b", i);
    snprintf(v[5], 64, "t%d/sum", i);
    snprintf(n1, sizeof n1, "table%d", i);
    node(&g, "Gather", v[0], n1, "ids", v[0], -1);
    node(&g, "Identity", v[1], v[0], NULL, v[1], -1);
    node(&g, "Cast", v[2], v[1], NULL, v[2], ONNXSLIM_DTYPE_FLOAT);
    node(&g, "Mul", v[3], v[2], "scale", v[3], -1);
    node(&g, "Mul", v[4], v[2], "scale", v[4], -1);
    node(&g, "Add", v[5], v[3], v[4], v[5], -1);
    if (i == 0) {
      node(&g, "Relu", "dead/relu", v[5], NULL, "dead/relu", -1);
      snprintf(sum, sizeof sum, "%s", v[5]);
    } else {
      snprintf(n2, sizeof n2, "acc%d", i);
      node(&g, "Add", n2, sum, v[5], n2, -1);
      snprintf(sum, sizeof sum, "%s", n2);
    }
  }
  node(&g, "Shape", "shape", sum, NULL, "shape", -1);
  node(&g, "Reshape", "reshape", sum, "shape", "out", -1);
  pb_str(&g, 2, "slimmable_big");
  for (int i = 0; i < tables; i++) {
    char name[64];
    snprintf(name, sizeof name, "table%d", i);
    ext_tensor(&g, name, rows, dim, location, tbytes * (uint64_t)i, tbytes);
  }
  ext_tensor(&g, "unused", (int64_t)(unused_bytes / 4 / dim), dim, location, tbytes * tables,
             unused_bytes);
  float scale[1024];
  for (int k = 0; k < 1024; k++) scale[k] = 0.5f + (float)(k % 7) / 16.0f;
  raw_tensor(&g, "scale", scale, dim);
  value_info(&g, 11, "ids", ONNXSLIM_DTYPE_INT64, 8, 0);
  value_info(&g, 12, "out", ONNXSLIM_DTYPE_FLOAT, 8, dim);

  FILE *f = fopen(data_path, "wb");
  uint64_t state = 0x9E3779B97F4A7C15ull;
  if (!f || stream_weights(f, tbytes * tables + unused_bytes, &state) || fclose(f))
    return fail(data_path);
  if (write_model(out, &g, 17)) return 1;
  printf("%s: 4 tables of %lld x %lld FP32 (%.2f GiB) + 1 MiB unused, 30 nodes, data %s\n", out,
         (long long)rows, (long long)dim, (double)(tbytes * tables) / 1073741824.0, data_path);
  return 0;
}

static int chain(const char *out, long n) {
  long units = n / 5;
  if (units < 1) units = 1;
  pbuf g = {0};
  char prev[32] = "x", v[5][32];
  for (long u = 0; u < units; u++) {
    snprintf(v[0], 32, "i%ld", u);
    snprintf(v[1], 32, "a%ld", u);
    snprintf(v[2], 32, "c%ld", u);
    snprintf(v[3], 32, "s%ld", u);
    snprintf(v[4], 32, u == units - 1 ? "y" : "r%ld", u);
    node(&g, "Identity", v[0], prev, NULL, v[0], -1);
    node(&g, "Add", v[1], v[0], "w", v[1], -1);
    node(&g, "Cast", v[2], v[1], NULL, v[2], ONNXSLIM_DTYPE_FLOAT);
    node(&g, "Shape", v[3], v[2], NULL, v[3], -1);
    node(&g, "Reshape", v[4], v[2], v[3], v[4], -1);
    snprintf(prev, sizeof prev, "%s", v[4]);
  }
  pb_str(&g, 2, "slimmable_chain");
  float w[16];
  for (int k = 0; k < 16; k++) w[k] = (float)k / 64.0f;
  raw_tensor(&g, "w", w, 16);
  value_info(&g, 11, "x", ONNXSLIM_DTYPE_FLOAT, 1, 16);
  value_info(&g, 12, "y", ONNXSLIM_DTYPE_FLOAT, 1, 16);
  if (write_model(out, &g, 17)) return 1;
  printf("%s: %ld nodes (%ld units of Identity, Add, Cast, Shape, Reshape)\n", out, units * 5,
         units);
  return 0;
}

int main(int argc, char **argv) {
  if (argc >= 3 && !strcmp(argv[1], "big")) {
    double gib = 4;
    if (argc == 5 && !strcmp(argv[3], "--gib")) gib = atof(argv[4]);
    else if (argc != 3) goto usage;
    if (gib <= 0 || gib > 64) goto usage;
    return big(argv[2], gib);
  }
  if (argc == 4 && !strcmp(argv[1], "chain") && atol(argv[2]) >= 5)
    return chain(argv[3], atol(argv[2]));
usage:
  fprintf(stderr, "usage: make_slimmable big OUT.onnx [--gib G] | chain N OUT.onnx\n");
  return 2;
}
