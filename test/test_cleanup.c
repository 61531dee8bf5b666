/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/* Unit tests of cleanup (cleanup.h): toposort and removal of unused items.
 * Every edit is proven by saving to a buffer, loading the bytes again and
 * looking for the edit in the reloaded model. Run from the repository root. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <onnxslim.h>

#define ONNXSLIM_TEST_EDIT_HELPERS
#include "util.h"

#include "pbuild.h"
#include "t.h"

/* ---- cleanup: toposort ----------------------------------------------------------- */

TEST(toposort_shuffled) {
  onnxslim_model *m = open_model(BERT);
  if (!m) {
    CHECK(0);
    return;
  }
  onnxslim_graph *g = onnxslim_model_graph(m);
  size_t n = onnxslim_graph_node_count(g);
  onnxslim_node **order = malloc(n * sizeof *order);
  if (!order) return;
  /* a deterministic shuffle: reverse, then interleave halves */
  for (size_t i = 0; i < n; i++) order[i] = onnxslim_graph_node(g, n - 1 - i);
  CHECK_OK(onnxslim_graph_reorder_nodes(g, order, n));
  for (size_t i = 0; i < n; i++) order[i] = onnxslim_graph_node(g, (i * 7) % n);
  if (n % 7 == 0) CHECK(0); /* 7 must be coprime with n for a permutation */
  CHECK_OK(onnxslim_graph_reorder_nodes(g, order, n));
  CHECK(graph_unsorted(g));
  CHECK_OK(onnxslim_cleanup_toposort(g, 0));
  CHECK(graph_sorted(g));
  CHECK(onnxslim_graph_node_count(g) == n);
  onnxslim_model *r = reload(m);
  if (r) {
    CHECK(graph_sorted(onnxslim_model_graph(r)));
    CHECK(onnxslim_graph_node_count(onnxslim_model_graph(r)) == n);
    onnxslim_model_free(r);
  }
  /* the original bytes come back: sorting the shuffled graph and saving
   * gives a valid order, and sorting again changes nothing */
  size_t a_n = 0, b_n = 0;
  uint8_t *a = save_bytes(m, &a_n);
  CHECK_OK(onnxslim_cleanup_toposort(g, ONNXSLIM_CLEANUP_RECURSIVE));
  uint8_t *b = save_bytes(m, &b_n);
  CHECK(a && b && a_n == b_n && memcmp(a, b, a_n) == 0);
  free(a);
  free(b);
  CHECK(onnxslim_cleanup_toposort(g, 8) == ONNXSLIM_EINVAL);
  CHECK(onnxslim_cleanup_toposort(NULL, 0) == ONNXSLIM_EINVAL);
  free(order);
  onnxslim_model_free(m);

  /* subgraph captures are dependencies: If reading v must follow relu */
  m = capture_model(0);
  if (!m) return;
  g = onnxslim_model_graph(m);
  onnxslim_node *o3[3] = {node_named(m, "if"), node_named(m, "neg"), node_named(m, "relu")};
  CHECK_OK(onnxslim_graph_reorder_nodes(g, o3, 3));
  /* and a shuffled subgraph, sorted only with RECURSIVE */
  onnxslim_graph *then_g = sub_of(node_named(m, "if"), "then_branch");
  onnxslim_node *t2[2] = {onnxslim_graph_node(then_g, 1), onnxslim_graph_node(then_g, 0)};
  CHECK_OK(onnxslim_graph_reorder_nodes(then_g, t2, 2));
  CHECK_OK(onnxslim_cleanup_toposort(g, 0));
  CHECK(index_named(g, "relu") < index_named(g, "if"));
  CHECK(index_named(g, "relu") < index_named(g, "neg"));
  CHECK(index_named(then_g, "inner_if") == 0); /* not recursive: untouched */
  CHECK_OK(onnxslim_cleanup_toposort(g, ONNXSLIM_CLEANUP_RECURSIVE));
  CHECK(index_named(then_g, "then_add") == 0);
  r = reload(m);
  if (r) {
    CHECK(graph_sorted(onnxslim_model_graph(r)));
    onnxslim_model_free(r);
  }
  onnxslim_model_free(m);
}

TEST(toposort_sorted_is_stable) {
  size_t in_n = 0;
  uint8_t *in = slurp(BERT, &in_n);
  onnxslim_model *m = open_model(BERT);
  CHECK(in && m);
  if (in && m) {
    onnxslim_graph *g = onnxslim_model_graph(m);
    onnxslim_node *first = onnxslim_graph_node(g, 0);
    CHECK_OK(onnxslim_cleanup_toposort(g, ONNXSLIM_CLEANUP_RECURSIVE));
    CHECK(onnxslim_graph_node(g, 0) == first);
    size_t out_n = 0;
    uint8_t *out = save_bytes(m, &out_n);
    CHECK(out && out_n == in_n && memcmp(out, in, in_n) == 0);
    free(out);
  }
  onnxslim_model_free(m);
  free(in);
  /* a sorted model with subgraphs too */
  m = open_model(TESTDATA "/node/test_range_float_type_positive_delta_expanded/model.onnx");
  in = slurp(TESTDATA "/node/test_range_float_type_positive_delta_expanded/model.onnx", &in_n);
  if (m && in) {
    CHECK_OK(onnxslim_cleanup_toposort(onnxslim_model_graph(m), ONNXSLIM_CLEANUP_RECURSIVE));
    size_t out_n = 0;
    uint8_t *out = save_bytes(m, &out_n);
    CHECK(out && out_n == in_n && memcmp(out, in, in_n) == 0);
    free(out);
  }
  onnxslim_model_free(m);
  free(in);
}

TEST(toposort_cycle) {
  /* x -> a(x, d) -> c; c -> b -> d; d -> a: a and b form a cycle */
  pbuf g = {0};
  pb_node(&g, "Relu", "head", L("x"), L("h"), NULL);
  pb_node(&g, "Add", "cyc_a", L("h", "d"), L("c"), NULL);
  pb_node(&g, "Neg", "cyc_b", L("c"), L("d"), NULL);
  pb_node(&g, "Abs", "tail", L("c"), L("y"), NULL);
  pb_vi(&g, 11, "x", ONNXSLIM_DTYPE_FLOAT, 1, dims3);
  pb_vi(&g, 12, "y", ONNXSLIM_DTYPE_FLOAT, 1, dims3);
  pbuf mb = pb_model(&g);
  pbuf copy = {0};
  pb_put(&copy, mb.p, mb.n);
  onnxslim_model *m = from_pbuf(&mb);
  if (!m) {
    CHECK(0);
    free(copy.p);
    return;
  }
  onnxslim_graph *gr = onnxslim_model_graph(m);
  /* move tail first so a sort would have to change something */
  CHECK_OK(onnxslim_graph_move_node(gr, node_named(m, "tail"), 0));
  size_t b_n = 0;
  uint8_t *before = save_bytes(m, &b_n);
  onnxslim_error_clear();
  CHECK(onnxslim_cleanup_toposort(gr, 0) == ONNXSLIM_EMODEL);
  const char *msg = onnxslim_error_last();
  CHECK(strstr(msg, "cyc_a") != NULL || strstr(msg, "cyc_b") != NULL);
  CHECK(strstr(msg, "head") == NULL && strstr(msg, "tail") == NULL);
  size_t a_n = 0;
  uint8_t *after = save_bytes(m, &a_n);
  CHECK(before && after && a_n == b_n && memcmp(before, after, a_n) == 0); /* unchanged */
  CHECK(index_named(gr, "tail") == 0 && index_named(gr, "head") == 1);
  free(before);
  free(after);
  onnxslim_model_free(m);
  /* a self-loop */
  pbuf g2 = {0};
  pb_node(&g2, "Add", "self", L("x", "s"), L("s"), NULL);
  pb_vi(&g2, 11, "x", ONNXSLIM_DTYPE_FLOAT, 1, dims3);
  pb_vi(&g2, 12, "s", ONNXSLIM_DTYPE_FLOAT, 1, dims3);
  pbuf mb2 = pb_model(&g2);
  m = from_pbuf(&mb2);
  if (m) {
    CHECK(onnxslim_cleanup_toposort(onnxslim_model_graph(m), 0) == ONNXSLIM_EMODEL);
    CHECK(strstr(onnxslim_error_last(), "self") != NULL);
    onnxslim_model_free(m);
  }
  free(copy.p);
}

/* ---- cleanup: remove_unused --------------------------------------------------------- */

TEST(remove_unused) {
  /* inputs x, unused_in; initializers w (used), dead_w (unused), in_w (also
   * a graph input, unused); nodes: relu(x)->a, add(a,w)->y [output],
   * dead1(a)->d1, dead2(d1)->d2; value_info a, d1, gone */
  static const float w[3] = {1, 2, 3};
  pbuf g = {0};
  pb_node(&g, "Relu", "relu", L("x"), L("a"), NULL);
  pb_node(&g, "Neg", "dead1", L("a"), L("d1"), NULL);
  pb_node(&g, "Add", "add", L("a", "w"), L("y"), NULL);
  pb_node(&g, "Abs", "dead2", L("d1", "dead_w"), L("d2"), NULL);
  pb_str(&g, 2, "ru");
  pb_init(&g, "w", w, 3);
  pb_init(&g, "dead_w", w, 3);
  pb_init(&g, "in_w", w, 3);
  pb_init(&g, "lonely", w, 3);
  pb_vi(&g, 11, "x", ONNXSLIM_DTYPE_FLOAT, 1, dims3);
  pb_vi(&g, 11, "unused_in", ONNXSLIM_DTYPE_FLOAT, 1, dims3);
  pb_vi(&g, 11, "in_w", ONNXSLIM_DTYPE_FLOAT, 1, dims3);
  pb_vi(&g, 12, "y", ONNXSLIM_DTYPE_FLOAT, 1, dims3);
  pb_vi(&g, 13, "a", ONNXSLIM_DTYPE_FLOAT, 1, dims3);
  pb_vi(&g, 13, "d1", ONNXSLIM_DTYPE_FLOAT, 1, dims3);
  pb_vi(&g, 13, "gone", ONNXSLIM_DTYPE_FLOAT, 1, dims3);
  pbuf mb = pb_model(&g);
  onnxslim_model *m = from_pbuf(&mb);
  if (!m) {
    CHECK(0);
    return;
  }
  onnxslim_graph *gr = onnxslim_model_graph(m);
  onnxslim_node *dead1 = node_named(m, "dead1");
  size_t removed = 99;
  CHECK_OK(onnxslim_cleanup_remove_unused(gr, 0, &removed));
  /* dead1, dead2, dead_w, lonely, value_info d1 and gone */
  CHECK(removed == 6);
  CHECK(onnxslim_node_name(dead1) == NULL); /* removed handle */
  CHECK(onnxslim_error_last_code() == ONNXSLIM_EINVAL);
  onnxslim_model *r = reload(m);
  if (r) {
    onnxslim_graph *rg = onnxslim_model_graph(r);
    CHECK(onnxslim_graph_node_count(rg) == 2);
    CHECK(index_named(rg, "relu") == 0 && index_named(rg, "add") == 1);
    CHECK(onnxslim_graph_initializer_count(rg) == 2);
    CHECK(onnxslim_graph_find_initializer(rg, "w") != NULL);
    CHECK(onnxslim_graph_find_initializer(rg, "in_w") != NULL);
    CHECK(onnxslim_graph_input_count(rg) == 3 && has_input(rg, "unused_in"));
    CHECK(onnxslim_graph_output_count(rg) == 1 && has_output(rg, "y"));
    CHECK(onnxslim_graph_value_info_count(rg) == 1 && value_info_named(rg, "a") != NULL);
    onnxslim_model_free(r);
  }
  /* a second pass finds nothing */
  CHECK_OK(onnxslim_cleanup_remove_unused(gr, ONNXSLIM_CLEANUP_RECURSIVE, &removed));
  CHECK(removed == 0);
  CHECK(onnxslim_cleanup_remove_unused(gr, 4, NULL) == ONNXSLIM_EINVAL);
  onnxslim_model_free(m);
}

TEST(remove_unused_keeps_captures) {
  onnxslim_model *m = capture_model(0);
  if (!m) {
    CHECK(0);
    return;
  }
  onnxslim_graph *g = onnxslim_model_graph(m);
  /* nv is no longer an output: neg is dead; v is still read by the If's
   * branches (captures), so relu and the initializer b (read only inside
   * the then branch) stay */
  for (size_t i = 0; i < onnxslim_graph_output_count(g); i++)
    if (streq(onnxslim_value_info_name(onnxslim_graph_output(g, i)), "nv"))
      CHECK_OK(onnxslim_graph_remove_value_info(g, onnxslim_graph_output(g, i)));
  /* a dead node inside the then branch, removed only with RECURSIVE */
  onnxslim_graph *then_g = sub_of(node_named(m, "if"), "then_branch");
  CHECK_OK(onnxslim_graph_add_node(then_g, SIZE_MAX, "Neg", NULL, "sub_dead", L("v"), 1,
                                   L("sub_dead_out"), 1, NULL));
  size_t removed = 0;
  CHECK_OK(onnxslim_cleanup_remove_unused(g, 0, &removed));
  CHECK(removed == 1);
  CHECK(onnxslim_graph_find_node(then_g, "sub_dead") != NULL);
  CHECK_OK(onnxslim_cleanup_remove_unused(g, ONNXSLIM_CLEANUP_RECURSIVE, &removed));
  CHECK(removed == 1);
  onnxslim_model *r = reload(m);
  if (r) {
    onnxslim_graph *rg = onnxslim_model_graph(r);
    CHECK(onnxslim_graph_node_count(rg) == 2);
    CHECK(node_named(r, "relu") != NULL && node_named(r, "if") != NULL);
    CHECK(node_named(r, "neg") == NULL);
    CHECK(onnxslim_graph_find_initializer(rg, "b") != NULL);
    CHECK(value_info_named(rg, "v") != NULL);
    onnxslim_graph *rt = sub_of(node_named(r, "if"), "then_branch");
    CHECK(rt && onnxslim_graph_find_node(rt, "sub_dead") == NULL);
    CHECK(rt && onnxslim_graph_node_count(rt) == 2);
    onnxslim_model_free(r);
  }
  onnxslim_model_free(m);
}

int main(int argc, char **argv) {
  t_args(argc, argv);
  RUN(toposort_shuffled);
  RUN(toposort_sorted_is_stable);
  RUN(toposort_cycle);
  RUN(remove_unused);
  RUN(remove_unused_keeps_captures);
  return t_done();
}
