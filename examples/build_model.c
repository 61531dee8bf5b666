/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * build_model.c - a model built from nothing with the edit API:
 *
 *   y = Relu(x W + b),   x: FLOAT[batch, 3], W: FLOAT[3, 2], b: FLOAT[2]
 *
 * It starts from the two bytes of a ModelProto whose only field is an empty
 * graph, adds the opset, inputs, weights, nodes and outputs, checks the
 * result with onnxslim_check() and saves it. Any ONNX runtime runs it; for
 * x = [[1, -2, 3], [-1, 0.5, -2]] it gives y = [[0, 1.75], [3.5, 0]].
 *
 *   cc build_model.c $(pkg-config --cflags --libs libonnxslim) -o build_model
 *   ./build_model tiny.onnx
 */
#include <stdio.h>

#include <onnxslim.h>

int main(int argc, char **argv) {
  static const unsigned char empty_model[] = {0x3a, 0x00}; /* ModelProto { graph {} } */
  static const float w[3 * 2] = {0.5f, -1.0f, 2.0f, 0.25f, -1.0f, 1.0f};
  static const float b[2] = {1.0f, 0.25f};
  static const int64_t w_dims[] = {3, 2}, b_dims[] = {2};
  static const int64_t x_dims[] = {-1, 3}, y_dims[] = {-1, 2}; /* -1: see the params */
  static const char *const batch[] = {"batch", NULL};
  const char *matmul_in[] = {"x", "W"}, *matmul_out[] = {"xW"};
  const char *add_in[] = {"xW", "b"}, *add_out[] = {"xW_b"};
  const char *relu_in[] = {"xW_b"}, *relu_out[] = {"y"};
  onnxslim_model *model = NULL;
  onnxslim_graph *g;
  onnxslim_value_info *x, *y;
  onnxslim_check_report *report = NULL;
  int status = 1;

  if (argc != 2) {
    fprintf(stderr, "usage: %s OUT.onnx\n", argv[0]);
    return 2;
  }
  if (onnxslim_model_from_buffer(&model, empty_model, sizeof empty_model, ONNXSLIM_COPY, NULL) ||
      onnxslim_model_set_ir_version(model, 8) || onnxslim_model_set_opset(model, "", 13) ||
      onnxslim_model_set_producer(model, "build_model", "1.0"))
    goto out;
  g = onnxslim_model_graph(model);
  if (onnxslim_graph_set_name(g, "tiny") ||
      /* the input, with a symbolic batch dimension */
      onnxslim_graph_add_input(g, "x", &x) ||
      onnxslim_value_info_set_tensor_type(x, ONNXSLIM_DTYPE_FLOAT, x_dims, batch, 2) ||
      /* the weights: raw little-endian bytes, copied */
      onnxslim_graph_add_initializer(g, "W", ONNXSLIM_DTYPE_FLOAT, w_dims, 2, w, sizeof w,
                                     ONNXSLIM_COPY, NULL) ||
      onnxslim_graph_add_initializer(g, "b", ONNXSLIM_DTYPE_FLOAT, b_dims, 1, b, sizeof b,
                                     ONNXSLIM_COPY, NULL) ||
      /* the nodes, appended in order (SIZE_MAX) */
      onnxslim_graph_add_node(g, SIZE_MAX, "MatMul", NULL, "matmul", matmul_in, 2, matmul_out, 1,
                              NULL) ||
      onnxslim_graph_add_node(g, SIZE_MAX, "Add", NULL, "add", add_in, 2, add_out, 1, NULL) ||
      onnxslim_graph_add_node(g, SIZE_MAX, "Relu", NULL, "relu", relu_in, 1, relu_out, 1, NULL) ||
      /* the output */
      onnxslim_graph_add_output(g, "y", &y) ||
      onnxslim_value_info_set_tensor_type(y, ONNXSLIM_DTYPE_FLOAT, y_dims, batch, 2))
    goto out;
  /* what the library can check: every input defined, nodes in order, sizes */
  if (onnxslim_check(&report, model, 0)) goto out;
  if (onnxslim_check_report_count(report) > 0) {
    fprintf(stderr, "build_model: %s: %s\n", onnxslim_check_report_location(report, 0),
            onnxslim_check_report_message(report, 0));
    goto out;
  }
  if (onnxslim_save(NULL, model, argv[1], NULL)) goto out;
  printf("wrote %s: %zu nodes, %zu initializers, check: no problem\n", argv[1],
         onnxslim_graph_node_count(g), onnxslim_graph_initializer_count(g));
  status = 0;
out:
  if (status && onnxslim_check_report_count(report) == 0)
    fprintf(stderr, "build_model: %s\n", onnxslim_error_last());
  onnxslim_check_report_free(report);
  onnxslim_model_free(model);
  return status;
}
