/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * summary.c - minimal libonnxslim example.
 *
 * Opens an ONNX model, prints a few facts about it and, if a second path is
 * given, saves the model there (unedited, so the copy is byte-identical).
 *
 *   cc summary.c $(pkg-config --cflags --libs libonnxslim) -o summary
 *   ./summary model.onnx [copy.onnx]
 */
#include <inttypes.h>
#include <stdio.h>

#include <onnxslim.h>

/* Prints what failed and the library's message; returns the exit status. */
static int fail(const char *what) {
  fprintf(stderr, "summary: %s: %s\n", what, onnxslim_error_last());
  return 1;
}

int main(int argc, char **argv) {
  onnxslim_model *model = NULL;
  const onnxslim_graph *graph;
  const char *producer, *version;
  size_t i, n;
  int status = 1;

  if (argc < 2 || argc > 3) {
    fprintf(stderr, "usage: %s MODEL [OUT]\n", argv[0]);
    return 2;
  }
  /* The model is ours: free it with onnxslim_model_free(). */
  if (onnxslim_model_open(&model, argv[1], NULL) != ONNXSLIM_OK) return fail(argv[1]);

  /* Strings and handles below are borrowed from the model. */
  producer = onnxslim_model_producer_name(model);
  version = onnxslim_model_producer_version(model);
  if (!producer || !version) {
    fail("producer");
    goto out;
  }
  printf("ir_version: %" PRId64 "\n", onnxslim_model_ir_version(model));
  printf("producer:   %s %s\n", producer, version);

  graph = onnxslim_model_graph(model);
  if (!graph) {
    fail("graph");
    goto out;
  }
  printf("nodes:      %zu\n", onnxslim_graph_node_count(graph));

  n = onnxslim_graph_input_count(graph);
  for (i = 0; i < n; i++) {
    const onnxslim_value_info *input = onnxslim_graph_input(graph, i);
    const char *name = input ? onnxslim_value_info_name(input) : NULL;
    if (!name) {
      fail("graph input");
      goto out;
    }
    printf("input %zu:    %s\n", i, name);
  }

  if (argc == 3 && onnxslim_save(NULL, model, argv[2], NULL) != ONNXSLIM_OK) {
    fail(argv[2]);
    goto out;
  }
  status = 0;
out:
  onnxslim_model_free(model);
  return status;
}
