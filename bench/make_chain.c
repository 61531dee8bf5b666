/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/* Builds a chain of N Add nodes, each reading its own FP32 initializer,
 * with the libonnxslim edit API only, and saves it:
 *
 *   x [1,16] -> Add(x, w0) -> a0 -> Add(a0, w1) -> a1 -> ... -> a{N-1} = y
 *
 * (w_i: 16 FP32 values.) The graph is built by appending: one add_input,
 * N add_initializer, N add_node, one add_output. `make bench` times it, then
 * `libonnxslim convert --to fp16` on the result, for N = 1k, 10k and 100k.
 *
 * Usage: make_chain N OUT.onnx
 * Prints: build_s=<seconds of the edits> save_s=<seconds> hwm_kb=<VmHWM> */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <onnxslim.h>

#include "../test/pbuild.h"

static void die(const char *what) {
  fprintf(stderr, "make_chain: %s: %s\n", what, onnxslim_error_last());
  exit(1);
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static long hwm_kb(void) {
  FILE *f = fopen("/proc/self/status", "r");
  char line[256];
  long kb = -1;
  while (f && fgets(line, sizeof line, f))
    if (strncmp(line, "VmHWM:", 6) == 0) kb = strtol(line + 6, NULL, 10);
  if (f) fclose(f);
  return kb;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: make_chain N OUT.onnx\n");
    return 2;
  }
  long n = strtol(argv[1], NULL, 10);
  if (n < 1) {
    fprintf(stderr, "make_chain: N must be at least 1\n");
    return 2;
  }
  /* a minimal ModelProto: ir_version 8, opset 13, an empty graph named "chain" */
  pbuf m = {0}, g = {0}, op = {0};
  pb_int(&m, 1, 8);
  pb_str(&g, 2, "chain");
  pb_msg(&m, 7, &g);
  pb_str(&op, 1, "");
  pb_int(&op, 2, 13);
  pb_msg(&m, 8, &op);
  onnxslim_model *model = NULL;
  if (onnxslim_model_from_buffer(&model, m.p, m.n, ONNXSLIM_COPY, NULL)) die("load");
  free(m.p);

  double t0 = now();
  onnxslim_graph *gr = onnxslim_model_graph(model);
  const int64_t dims[2] = {1, 16};
  onnxslim_value_info *vi = NULL;
  if (onnxslim_graph_add_input(gr, "x", &vi) ||
      onnxslim_value_info_set_tensor_type(vi, ONNXSLIM_DTYPE_FLOAT, dims, NULL, 2))
    die("input");
  float w[16];
  char wname[32], prev[32] = "x", out[32];
  for (long i = 0; i < n; i++) {
    for (int k = 0; k < 16; k++) w[k] = (float)((i * 16 + k) % 97) / 64.0f - 0.75f;
    snprintf(wname, sizeof wname, "w%ld", i);
    snprintf(out, sizeof out, i == n - 1 ? "y" : "a%ld", i);
    if (onnxslim_graph_add_initializer(gr, wname, ONNXSLIM_DTYPE_FLOAT, dims + 1, 1, w, sizeof w,
                                       ONNXSLIM_COPY, NULL))
      die("initializer");
    const char *in[2] = {prev, wname}, *outs[1] = {out};
    char nname[32];
    snprintf(nname, sizeof nname, "add%ld", i);
    if (onnxslim_graph_add_node(gr, SIZE_MAX, "Add", NULL, nname, in, 2, outs, 1, NULL))
      die("node");
    strcpy(prev, out);
  }
  if (onnxslim_graph_add_output(gr, "y", &vi) ||
      onnxslim_value_info_set_tensor_type(vi, ONNXSLIM_DTYPE_FLOAT, dims, NULL, 2))
    die("output");
  double t1 = now();
  if (onnxslim_save(NULL, model, argv[2], NULL)) die("save");
  double t2 = now();
  printf("build_s=%.3f save_s=%.3f hwm_kb=%ld\n", t1 - t0, t2 - t1, hwm_kb());
  onnxslim_model_free(model);
  return 0;
}
