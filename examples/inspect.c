/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * inspect.c - walks a model's graph and every subgraph in it (If branches,
 * Loop and Scan bodies, at any depth: a subgraph is a graph like the main
 * one, held by a GRAPH or GRAPHS attribute) and prints each node, indented
 * by its depth:
 *
 *   graph 'test_if': 1 input, 1 output, 1 node
 *     [0] If (cond) -> (res)
 *       else_branch: graph 'else_body': 0 inputs, 1 output, 1 node
 *         [0] Constant () -> (else_out)
 *       ...
 *   3 nodes in 3 graphs, max depth 1
 *
 *   cc inspect.c $(pkg-config --cflags --libs libonnxslim) -o inspect
 *   ./inspect model.onnx
 */
#include <stdio.h>

#include <onnxslim.h>

struct totals {
  size_t nodes, graphs;
  int max_depth;
};

static const char *plural(size_t n) { return n == 1 ? "" : "s"; }

/* Prints the names of a node's inputs (or outputs) as "(a, b)". */
static void print_names(const onnxslim_node *node, int outputs) {
  size_t i, n = outputs ? onnxslim_node_output_count(node) : onnxslim_node_input_count(node);
  printf("(");
  for (i = 0; i < n; i++)
    printf("%s%s", i ? ", " : "",
           outputs ? onnxslim_node_output(node, i) : onnxslim_node_input(node, i));
  printf(")");
}

/* Prints graph g, nested `depth` levels deep (the main graph: 0), and
 * recurses into the subgraphs of its nodes. The recursion is bounded:
 * loading refuses models nested deeper than max_depth. */
static int walk(const onnxslim_graph *g, const char *attr, int depth, struct totals *t) {
  size_t i, j, k, n = onnxslim_graph_node_count(g);
  size_t n_in = onnxslim_graph_input_count(g), n_out = onnxslim_graph_output_count(g);
  const char *name = onnxslim_graph_name(g);

  if (!name) return -1;
  t->graphs++;
  t->nodes += n;
  if (depth > t->max_depth) t->max_depth = depth;
  printf("%*s%s%sgraph '%s': %zu input%s, %zu output%s, %zu node%s\n", 4 * depth, "",
         attr ? attr : "", attr ? ": " : "", name, n_in, plural(n_in), n_out, plural(n_out), n,
         plural(n));
  for (i = 0; i < n; i++) {
    const onnxslim_node *node = onnxslim_graph_node(g, i);
    const char *node_name = node ? onnxslim_node_name(node) : NULL;
    if (!node_name) return -1;
    printf("%*s[%zu] %s", 4 * depth + 2, "", i, onnxslim_node_op_type(node));
    if (*node_name) printf(" '%s'", node_name);
    printf(" ");
    print_names(node, 0);
    printf(" -> ");
    print_names(node, 1);
    printf("\n");
    /* subgraphs, by the attribute that holds them */
    for (j = 0; j < onnxslim_node_attr_count(node); j++) {
      const onnxslim_attr *a = onnxslim_node_attr(node, j);
      int type = onnxslim_attr_type(a);
      if (type == ONNXSLIM_ATTR_GRAPH) {
        if (walk(onnxslim_attr_graph(a), onnxslim_attr_name(a), depth + 1, t)) return -1;
      } else if (type == ONNXSLIM_ATTR_GRAPHS) {
        for (k = 0; k < onnxslim_attr_list_count(a); k++)
          if (walk(onnxslim_attr_graphs(a, k), onnxslim_attr_name(a), depth + 1, t)) return -1;
      }
    }
  }
  return 0;
}

int main(int argc, char **argv) {
  onnxslim_model *model = NULL;
  struct totals t = {0, 0, 0};
  int status = 1;

  if (argc != 2) {
    fprintf(stderr, "usage: %s MODEL.onnx\n", argv[0]);
    return 2;
  }
  if (onnxslim_model_open(&model, argv[1], NULL) == ONNXSLIM_OK &&
      walk(onnxslim_model_graph(model), NULL, 0, &t) == 0) {
    printf("%zu nodes in %zu graph%s, max depth %d\n", t.nodes, t.graphs, plural(t.graphs),
           t.max_depth);
    status = 0;
  } else {
    fprintf(stderr, "inspect: %s: %s\n", argv[1], onnxslim_error_last());
  }
  onnxslim_model_free(model);
  return status;
}
