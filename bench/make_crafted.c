/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/* Writes small crafted models that cost the passes much for their size,
 * byte by byte (test/pbuild.h: no library call, so a generator never
 * depends on what it tests). Test step 68-cli-limits and the figures of
 * docs/check.md ("Limits") use them.
 *
 *   order N OUT   a Gather of an FP32 table (16 x 4) then a chain of N
 *                 Relu nodes, listed in reverse order: N problems of kind
 *                 `order` (each Relu reads the output of a later node);
 *                 `convert --to bf16` inserts a Cast after the Gather.
 *   attrs N OUT   the same Gather, then one Relu with N INT attributes
 *                 its schema does not define: N `attr_unknown` problems.
 *   empty N OUT   N empty NodeProtos (2 bytes each): N `unknown_op`
 *                 problems from a file of 2N bytes.
 *   chain N OUT   a sorted chain of N Add nodes, each reading its own FP32
 *                 initializer of 16 values (bench/make_chain.c's model,
 *                 written without the library: about 120 bytes a node).
 *   relus N OUT   a sorted chain of N named Relu nodes, no initializer
 *                 (about 36 bytes a node): a valid model.
 *   funcs N OUT   N model-local functions (domain "x", named f0...) and
 *                 N nodes of ops the default domain lacks (z0...): N
 *                 `unknown_op` problems, each looked up among N functions.
 *   shared N OUT  one FP32 initializer w (16 values) read by N Add nodes
 *                 (Add(x, w) -> aI, a0 the graph output): `convert --to
 *                 fp16` casts w back once for N chosen consumers (a scan of
 *                 the consumers per chosen one was quadratic).
 *   dead N OUT    N Relu nodes reading x that reach no graph output, and
 *                 N FP32 initializers nothing reads, beside N graph
 *                 inputs: remove_unused removes 2N items (it scanned the
 *                 graph inputs per initializer: quadratic).
 *
 * Usage: make_crafted KIND N OUT.onnx */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../test/pbuild.h"

/* ONNX field numbers used here */
enum {
  M_IR = 1,
  M_GRAPH = 7,
  M_OPSET = 8,
  G_NODE = 1,
  G_NAME = 2,
  G_INIT = 5,
  G_INPUT = 11,
  G_OUTPUT = 12,
  N_IN = 1,
  N_OUT = 2,
  N_NAME = 3,
  N_OP = 4,
  N_ATTR = 5,
  A_NAME = 1,
  A_I = 3,
  A_TYPE = 20,
  T_DIMS = 1,
  T_DTYPE = 2,
  T_NAME = 8,
  T_RAW = 9
};

static void node(pbuf *g, const char *op, const char *name, const char *const *in, int nin,
                 const char *out, pbuf *attrs) {
  pbuf n = {0};
  for (int i = 0; i < nin; i++) pb_str(&n, N_IN, in[i]);
  pb_str(&n, N_OUT, out);
  if (name) pb_str(&n, N_NAME, name);
  pb_str(&n, N_OP, op);
  if (attrs && attrs->n) pb_put(&n, attrs->p, attrs->n);
  pb_msg(g, G_NODE, &n);
}

/* value info NAME of tensor type (elem, rank-1 dim d) as graph field f */
static void vinfo(pbuf *g, unsigned f, const char *name, int elem, long d) {
  pbuf vi = {0}, tp = {0}, tt = {0}, sh = {0}, dim = {0};
  pb_int(&dim, 1, (uint64_t)d);
  pb_msg(&sh, 1, &dim);
  pb_int(&tt, 1, (uint64_t)elem);
  pb_msg(&tt, 2, &sh);
  pb_msg(&tp, 1, &tt);
  pb_str(&vi, 1, name);
  pb_msg(&vi, 2, &tp);
  pb_msg(g, f, &vi);
}

static void fp32_init(pbuf *g, const char *name, long d0, long d1) {
  pbuf t = {0};
  long count = d0 * (d1 ? d1 : 1);
  float *v = calloc((size_t)count, sizeof *v);
  if (!v) abort();
  for (long i = 0; i < count; i++) v[i] = (float)(i % 7) / 4.0f - 0.5f;
  pb_int(&t, T_DIMS, (uint64_t)d0);
  if (d1) pb_int(&t, T_DIMS, (uint64_t)d1);
  pb_int(&t, T_DTYPE, 1);
  pb_str(&t, T_NAME, name);
  pb_bytes(&t, T_RAW, v, sizeof *v * (size_t)count);
  free(v);
  pb_msg(g, G_INIT, &t);
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr,
            "usage: make_crafted order|attrs|empty|chain|relus|funcs|shared|dead N OUT.onnx\n");
    return 2;
  }
  const char *kind = argv[1];
  long n = strtol(argv[2], NULL, 10);
  if (n < 1) {
    fprintf(stderr, "make_crafted: N must be at least 1\n");
    return 2;
  }
  pbuf m = {0}, g = {0}, op = {0};
  char a[32], b[32], nm[32];
  pb_int(&m, M_IR, 8);
  pb_str(&g, G_NAME, kind);
  if (strcmp(kind, "order") == 0 || strcmp(kind, "attrs") == 0) {
    const char *gin[2] = {"table", "ids"};
    fp32_init(&g, "table", 16, 4);
    vinfo(&g, G_INPUT, "ids", 7, 2);
    if (kind[0] == 'o') {
      /* v_i = Relu(v_{i-1}), v_0 = Gather(table, ids); listed from the last */
      for (long i = n; i >= 1; i--) {
        const char *in[1] = {a};
        snprintf(a, sizeof a, "v%ld", i - 1);
        snprintf(b, sizeof b, i == n ? "y" : "v%ld", i);
        snprintf(nm, sizeof nm, "relu%ld", i);
        node(&g, "Relu", nm, in, 1, b, NULL);
      }
      node(&g, "Gather", "gather", gin, 2, "v0", NULL);
    } else {
      pbuf at = {0};
      for (long i = 0; i < n; i++) {
        pbuf x = {0};
        snprintf(a, sizeof a, "a%ld", i);
        pb_str(&x, A_NAME, a);
        pb_int(&x, A_I, (uint64_t)i);
        pb_int(&x, A_TYPE, 2);
        pb_msg(&at, N_ATTR, &x);
      }
      const char *in[1] = {"v0"};
      node(&g, "Gather", "gather", gin, 2, "v0", NULL);
      node(&g, "Relu", "relu", in, 1, "y", &at);
      free(at.p);
    }
    vinfo(&g, G_OUTPUT, "y", 1, 4);
  } else if (strcmp(kind, "empty") == 0) {
    for (long i = 0; i < n; i++) pb_bytes(&g, G_NODE, "", 0);
  } else if (strcmp(kind, "chain") == 0) {
    vinfo(&g, G_INPUT, "x", 1, 16);
    for (long i = 0; i < n; i++) {
      const char *in[2] = {a, b};
      snprintf(a, sizeof a, i ? "a%ld" : "x", i - 1);
      snprintf(b, sizeof b, "w%ld", i);
      fp32_init(&g, b, 16, 0);
      snprintf(nm, sizeof nm, "add%ld", i);
      char out[32];
      snprintf(out, sizeof out, i == n - 1 ? "y" : "a%ld", i);
      node(&g, "Add", nm, in, 2, out, NULL);
    }
    vinfo(&g, G_OUTPUT, "y", 1, 16);
  } else if (strcmp(kind, "relus") == 0) {
    vinfo(&g, G_INPUT, "x", 1, 16);
    for (long i = 0; i < n; i++) {
      const char *in[1] = {a};
      snprintf(a, sizeof a, i ? "v%ld" : "x", i - 1);
      snprintf(b, sizeof b, i == n - 1 ? "y" : "v%ld", i);
      snprintf(nm, sizeof nm, "r%ld", i);
      node(&g, "Relu", nm, in, 1, b, NULL);
    }
    vinfo(&g, G_OUTPUT, "y", 1, 16);
  } else if (strcmp(kind, "shared") == 0) {
    vinfo(&g, G_INPUT, "x", 1, 16);
    fp32_init(&g, "w", 16, 0);
    for (long i = 0; i < n; i++) {
      const char *in[2] = {"x", "w"};
      snprintf(b, sizeof b, "a%ld", i);
      snprintf(nm, sizeof nm, "add%ld", i);
      node(&g, "Add", nm, in, 2, b, NULL);
    }
    vinfo(&g, G_OUTPUT, "a0", 1, 16);
  } else if (strcmp(kind, "dead") == 0) {
    vinfo(&g, G_INPUT, "x", 1, 16);
    for (long i = 0; i < n; i++) {
      const char *in[1] = {"x"};
      snprintf(a, sizeof a, "in%ld", i);
      vinfo(&g, G_INPUT, a, 1, 16);
      snprintf(b, sizeof b, "w%ld", i);
      fp32_init(&g, b, 16, 0);
      snprintf(b, sizeof b, "r%ld", i);
      node(&g, "Relu", b, in, 1, b, NULL);
    }
    const char *in[1] = {"x"};
    node(&g, "Relu", "keep", in, 1, "y", NULL);
    vinfo(&g, G_OUTPUT, "y", 1, 16);
  } else if (strcmp(kind, "funcs") == 0) {
    for (long i = 0; i < n; i++) {
      const char *in[1] = {a};
      snprintf(a, sizeof a, "v%ld", i);
      snprintf(b, sizeof b, "u%ld", i);
      snprintf(nm, sizeof nm, "z%ld", i);
      node(&g, nm, NULL, in, 1, b, NULL);
      vinfo(&g, G_INPUT, a, 1, 1);
    }
    pb_msg(&m, M_GRAPH, &g);
    for (long i = 0; i < n; i++) {
      pbuf fn = {0}, fo = {0};
      snprintf(nm, sizeof nm, "f%ld", i);
      pb_str(&fn, 1, nm);   /* FunctionProto.name */
      pb_str(&fn, 10, "x"); /* domain */
      pb_str(&fo, 1, "");
      pb_int(&fo, 2, 17);
      pb_msg(&fn, 9, &fo); /* opset_import */
      pb_msg(&m, 25, &fn); /* ModelProto.functions */
    }
  } else {
    fprintf(stderr, "make_crafted: unknown kind '%s'\n", kind);
    return 2;
  }
  if (g.n) pb_msg(&m, M_GRAPH, &g);
  pb_str(&op, 1, "");
  pb_int(&op, 2, 17);
  pb_msg(&m, M_OPSET, &op);
  FILE *f = fopen(argv[3], "wb");
  if (!f || fwrite(m.p, 1, m.n, f) != m.n || fclose(f) != 0) {
    perror(argv[3]);
    return 1;
  }
  free(m.p);
  return 0;
}
