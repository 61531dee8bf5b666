/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/* Measures what opening a model costs: wall time of onnxslim_model_open()
 * plus a walk over every node (names, op types, inputs, outputs) and the
 * resident memory it adds. Usage: bench_load MODEL [REPEATS]
 * Prints: load_ms=<best of REPEATS> rss_kb=<resident growth of one load> */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <onnxslim.h>

static long rss_kb(void) {
  FILE *f = fopen("/proc/self/status", "r");
  char line[256];
  long kb = -1;
  while (f && fgets(line, sizeof line, f))
    if (sscanf(line, "VmRSS: %ld kB", &kb) == 1) break;
  if (f) fclose(f);
  return kb;
}

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static size_t walk(onnxslim_model *m) {
  onnxslim_graph *g = onnxslim_model_graph(m);
  size_t chars = 0;
  for (size_t i = 0; i < onnxslim_graph_node_count(g); i++) {
    onnxslim_node *n = onnxslim_graph_node(g, i);
    chars += strlen(onnxslim_node_op_type(n)) + strlen(onnxslim_node_name(n));
    for (size_t k = 0; k < onnxslim_node_input_count(n); k++)
      chars += strlen(onnxslim_node_input(n, k));
    for (size_t k = 0; k < onnxslim_node_output_count(n); k++)
      chars += strlen(onnxslim_node_output(n, k));
  }
  for (size_t i = 0; i < onnxslim_graph_initializer_count(g); i++) {
    onnxslim_tensor *t = onnxslim_graph_initializer(g, i);
    chars += strlen(onnxslim_tensor_name(t)) + (size_t)onnxslim_tensor_element_count(t) % 7;
  }
  return chars;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: bench_load MODEL [REPEATS]\n");
    return 2;
  }
  int reps = argc > 2 ? atoi(argv[2]) : 5;
  double best = 1e30;
  long rss_growth = -1;
  size_t sink = 0;
  for (int r = 0; r < reps; r++) {
    long before = rss_kb();
    double t0 = now_ms();
    onnxslim_model *m = NULL;
    if (onnxslim_model_open(&m, argv[1], NULL) != 0) {
      fprintf(stderr, "bench_load: %s\n", onnxslim_error_last());
      return 1;
    }
    sink += walk(m);
    double t = now_ms() - t0;
    if (r == 0) rss_growth = rss_kb() - before;
    if (t < best) best = t;
    onnxslim_model_free(m);
  }
  printf("load_ms=%.3f rss_kb=%ld walked=%zu\n", best, rss_growth, sink);
  return 0;
}
