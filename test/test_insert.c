/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/* Unit tests of insertion on edges (insert.h).
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

/* ---- insertion ------------------------------------------------------------------ */

TEST(insert_after_takeover) {
  onnxslim_model *m = fan_model();
  if (!m) {
    CHECK(0);
    return;
  }
  onnxslim_graph *g = onnxslim_model_graph(m);
  onnxslim_node *relu = node_named(m, "relu"), *id = NULL;
  CHECK_OK(onnxslim_insert_after(g, "y", "Identity", NULL, NULL, 0, NULL, &id));
  CHECK(id != NULL);
  const char *fresh = onnxslim_node_output(relu, 0);
  CHECK(fresh && !streq(fresh, "y"));
  CHECK_STR(onnxslim_node_output(id, 0), "y");
  CHECK(streq(onnxslim_node_input(id, 0), fresh));
  CHECK(index_of(g, id) == 1); /* right after the producer */
  CHECK(onnxslim_graph_producer(g, "y") == id);
  CHECK(graph_sorted(g));
  char fresh_copy[128];
  snprintf(fresh_copy, sizeof fresh_copy, "%s", fresh ? fresh : "");
  onnxslim_model *r = reload(m);
  if (r) {
    onnxslim_graph *rg = onnxslim_model_graph(r);
    CHECK(onnxslim_graph_node_count(rg) == 4);
    CHECK(graph_sorted(rg));
    onnxslim_node *rid = onnxslim_graph_node(rg, 1);
    CHECK_STR(onnxslim_node_op_type(rid), "Identity");
    CHECK_STR(onnxslim_node_output(rid, 0), "y");
    CHECK_STR(onnxslim_node_input(rid, 0), fresh_copy);
    CHECK_STR(onnxslim_node_output(node_named(r, "relu"), 0), fresh_copy);
    CHECK_STR(onnxslim_node_input(node_named(r, "neg"), 0), "y");
    CHECK_STR(onnxslim_node_input(node_named(r, "exp"), 0), "y");
    /* graph outputs keep their names */
    CHECK(onnxslim_graph_output_count(rg) == 3 && has_output(rg, "y"));
    CHECK(!has_output(rg, fresh_copy));
    /* the new edge got a copy of y's value info */
    onnxslim_value_info *vi = value_info_named(rg, fresh_copy);
    CHECK(vi != NULL);
    onnxslim_type *t = onnxslim_value_info_type(vi);
    CHECK(onnxslim_type_dtype(t) == ONNXSLIM_DTYPE_FLOAT && onnxslim_type_rank(t) == 1);
    onnxslim_model_free(r);
  }
  onnxslim_model_free(m);
}

TEST(insert_after_subset) {
  onnxslim_model *m = fan_model();
  if (!m) {
    CHECK(0);
    return;
  }
  onnxslim_graph *g = onnxslim_model_graph(m);
  onnxslim_node *exp = node_named(m, "exp"), *n = NULL;
  onnxslim_node *chosen[1] = {exp};
  CHECK_OK(onnxslim_insert_after(g, "y", "Sigmoid", NULL, chosen, 1, "y_sig", &n));
  CHECK(n != NULL);
  onnxslim_model *r = reload(m);
  if (r) {
    onnxslim_graph *rg = onnxslim_model_graph(r);
    CHECK(onnxslim_graph_node_count(rg) == 4);
    CHECK(graph_sorted(rg));
    CHECK_STR(onnxslim_node_output(node_named(r, "relu"), 0), "y");   /* producer unchanged */
    CHECK_STR(onnxslim_node_input(node_named(r, "neg"), 0), "y");     /* not chosen */
    CHECK_STR(onnxslim_node_input(node_named(r, "exp"), 0), "y_sig"); /* rewired */
    onnxslim_node *rs = onnxslim_graph_producer(rg, "y_sig");
    CHECK(rs != NULL);
    CHECK_STR(onnxslim_node_op_type(rs), "Sigmoid");
    CHECK_STR(onnxslim_node_input(rs, 0), "y");
    CHECK(index_of(rg, rs) == 1);
    CHECK(has_output(rg, "y"));
    CHECK(value_info_named(rg, "y_sig") != NULL);
    onnxslim_model_free(r);
  }
  /* choosing every consumer explicitly is the take-over case */
  onnxslim_node *both[2] = {node_named(m, "neg"), n};
  CHECK_OK(onnxslim_insert_after(g, "z", "Identity", NULL, NULL, 0, NULL, NULL)); /* no consumer */
  r = reload(m);
  if (r) {
    onnxslim_graph *rg = onnxslim_model_graph(r);
    CHECK(has_output(rg, "z"));
    onnxslim_node *p = onnxslim_graph_producer(rg, "z");
    CHECK_STR(onnxslim_node_op_type(p), "Identity");
    CHECK(onnxslim_graph_producer(rg, onnxslim_node_input(p, 0)) == node_named(r, "neg"));
    onnxslim_model_free(r);
  }
  CHECK_OK(onnxslim_insert_after(g, "y", "Abs", NULL, both, 2, "y_abs", NULL));
  r = reload(m);
  if (r) {
    onnxslim_graph *rg = onnxslim_model_graph(r);
    CHECK_STR(onnxslim_node_output(node_named(r, "relu"), 0), "y_abs");
    onnxslim_node *p = onnxslim_graph_producer(rg, "y");
    CHECK_STR(onnxslim_node_op_type(p), "Abs");
    CHECK(graph_sorted(rg));
    onnxslim_model_free(r);
  }
  onnxslim_model_free(m);
}

TEST(insert_after_input_and_initializer) {
  onnxslim_model *m = capture_model(0);
  if (!m) {
    CHECK(0);
    return;
  }
  onnxslim_graph *g = onnxslim_model_graph(m);
  onnxslim_node *n = NULL;
  /* x is a graph input read by relu */
  CHECK_OK(onnxslim_insert_after(g, "x", "Identity", NULL, NULL, 0, NULL, &n));
  const char *fx = n ? onnxslim_node_output(n, 0) : NULL;
  CHECK(fx && !streq(fx, "x"));
  CHECK(index_of(g, n) == 0);
  char fxc[128];
  snprintf(fxc, sizeof fxc, "%s", fx ? fx : "?");
  /* b is an initializer read only inside the then branch */
  CHECK_OK(onnxslim_insert_after(g, "b", "Neg", NULL, NULL, 0, NULL, &n));
  const char *fb = n ? onnxslim_node_output(n, 0) : NULL;
  CHECK(fb && !streq(fb, "b"));
  char fbc[128];
  snprintf(fbc, sizeof fbc, "%s", fb ? fb : "?");
  CHECK(graph_sorted(g));
  onnxslim_model *r = reload(m);
  if (r) {
    onnxslim_graph *rg = onnxslim_model_graph(r);
    CHECK(onnxslim_graph_node_count(rg) == 5);
    CHECK(graph_sorted(rg));
    CHECK(has_input(rg, "x") && !has_input(rg, fxc));
    CHECK_STR(onnxslim_node_input(node_named(r, "relu"), 0), fxc);
    CHECK(onnxslim_graph_find_initializer(rg, "b") != NULL);
    onnxslim_node *px = onnxslim_graph_producer(rg, fxc);
    CHECK_STR(onnxslim_node_input(px, 0), "x");
    onnxslim_node *pb = onnxslim_graph_producer(rg, fbc);
    CHECK_STR(onnxslim_node_op_type(pb), "Neg");
    CHECK_STR(onnxslim_node_input(pb, 0), "b");
    /* the capture inside the then branch now reads the new edge */
    onnxslim_graph *then_g = sub_of(node_named(r, "if"), "then_branch");
    CHECK(then_g != NULL);
    if (then_g)
      CHECK_STR(onnxslim_node_input(onnxslim_graph_find_node(then_g, "then_add"), 1), fbc);
    /* the graph input's value info was copied to the new edge */
    onnxslim_value_info *vi = value_info_named(rg, fxc);
    CHECK(vi != NULL);
    CHECK(onnxslim_type_dtype(onnxslim_value_info_type(vi)) == ONNXSLIM_DTYPE_FLOAT);
    onnxslim_model_free(r);
  }
  onnxslim_model_free(m);
}

TEST(insert_after_capture_consumer) {
  onnxslim_model *m = capture_model(0);
  if (!m) {
    CHECK(0);
    return;
  }
  onnxslim_graph *g = onnxslim_model_graph(m);
  onnxslim_node *iff = node_named(m, "if"), *n = NULL;
  onnxslim_node *chosen[1] = {iff};
  CHECK_OK(onnxslim_insert_after(g, "v", "Abs", NULL, chosen, 1, "v_abs", &n));
  CHECK(n != NULL);
  CHECK(graph_sorted(g));
  onnxslim_model *r = reload(m);
  if (r) {
    onnxslim_graph *rg = onnxslim_model_graph(r);
    CHECK(graph_sorted(rg));
    CHECK_STR(onnxslim_node_output(node_named(r, "relu"), 0), "v");
    CHECK_STR(onnxslim_node_input(node_named(r, "neg"), 0), "v"); /* not chosen */
    onnxslim_node *rif = node_named(r, "if");
    onnxslim_graph *then_g = sub_of(rif, "then_branch"), *else_g = sub_of(rif, "else_branch");
    CHECK(then_g && else_g);
    if (then_g && else_g) {
      CHECK_STR(onnxslim_node_input(onnxslim_graph_find_node(then_g, "then_add"), 0), "v_abs");
      onnxslim_graph *it = sub_of(onnxslim_graph_find_node(then_g, "inner_if"), "then_branch");
      CHECK(it && streq(onnxslim_node_input(onnxslim_graph_find_node(it, "inner_id"), 0), "v_abs"));
      CHECK_STR(onnxslim_node_input(onnxslim_graph_find_node(else_g, "else_neg"), 0), "v_abs");
      CHECK(!reads_anywhere(then_g, "v") && !reads_anywhere(else_g, "v"));
    }
    CHECK(onnxslim_graph_consumer_count(rg, "v_abs") == 1);
    CHECK(onnxslim_graph_consumer(rg, "v_abs", 0) == rif);
    onnxslim_model_free(r);
  }
  onnxslim_model_free(m);
}

/* The else branch defines its own v while the then branch reads the outer
 * v: the If still captures v (through its then branch). */
TEST(capture_next_to_shadowing_branch) {
  onnxslim_model *m = capture_model(1);
  if (!m) {
    CHECK(0);
    return;
  }
  onnxslim_graph *g = onnxslim_model_graph(m);
  onnxslim_node *iff = node_named(m, "if");
  CHECK(onnxslim_graph_consumer_count(g, "v") == 2); /* neg, and if by capture */
  int found = 0;
  for (size_t i = 0; i < onnxslim_graph_consumer_count(g, "v"); i++)
    found |= onnxslim_graph_consumer(g, "v", i) == iff;
  CHECK(found);
  onnxslim_model *r = NULL;
  onnxslim_node *chosen[1] = {iff};
  CHECK_OK(onnxslim_insert_after(g, "v", "Abs", NULL, chosen, 1, "v_abs", NULL));
  r = reload(m);
  if (r) {
    onnxslim_graph *else_g = sub_of(node_named(r, "if"), "else_branch");
    CHECK(else_g &&
          streq(onnxslim_node_input(onnxslim_graph_find_node(else_g, "else_neg"), 0), "v"));
    onnxslim_graph *then_g = sub_of(node_named(r, "if"), "then_branch");
    CHECK(then_g &&
          streq(onnxslim_node_input(onnxslim_graph_find_node(then_g, "then_add"), 0), "v_abs"));
    onnxslim_model_free(r);
  }
  onnxslim_model_free(m);
}

TEST(insert_before) {
  onnxslim_model *m = capture_model(0);
  if (!m) {
    CHECK(0);
    return;
  }
  onnxslim_graph *g = onnxslim_model_graph(m);
  onnxslim_node *neg = node_named(m, "neg"), *n = NULL;
  CHECK_OK(onnxslim_insert_before(g, neg, 0, "Sqrt", NULL, "v_sqrt", &n));
  CHECK(n != NULL && index_of(g, n) + 1 == index_of(g, neg));
  CHECK(onnxslim_insert_before(g, neg, 1, "Sqrt", NULL, NULL, NULL) == ONNXSLIM_ERANGE);
  onnxslim_node *custom = NULL;
  const char *ins[2] = {"x", ""};
  CHECK_OK(onnxslim_graph_add_node(g, SIZE_MAX, "Custom", "com.example", "custom", ins, 2, L("cu"),
                                   1, &custom));
  CHECK(onnxslim_insert_before(g, custom, 1, "Sqrt", NULL, NULL, NULL) == ONNXSLIM_ERANGE);
  CHECK(onnxslim_insert_before(g, NULL, 0, "Sqrt", NULL, NULL, NULL) == ONNXSLIM_EINVAL);
  /* a node of a subgraph is not a node of this graph */
  onnxslim_graph *then_g = sub_of(node_named(m, "if"), "then_branch");
  CHECK(onnxslim_insert_before(g, onnxslim_graph_find_node(then_g, "then_add"), 0, "Sqrt", NULL,
                               NULL, NULL) == ONNXSLIM_EINVAL);
  /* inside a subgraph, on a captured value */
  onnxslim_node *sn = NULL;
  CHECK_OK(onnxslim_insert_before(then_g, onnxslim_graph_find_node(then_g, "then_add"), 0, "Abs",
                                  "", NULL, &sn));
  char sub_edge[128];
  snprintf(sub_edge, sizeof sub_edge, "%s", sn ? onnxslim_node_output(sn, 0) : "?");
  onnxslim_model *r = reload(m);
  if (r) {
    onnxslim_graph *rg = onnxslim_model_graph(r);
    CHECK(graph_sorted(rg));
    CHECK_STR(onnxslim_node_input(node_named(r, "neg"), 0), "v_sqrt");
    onnxslim_node *p = onnxslim_graph_producer(rg, "v_sqrt");
    CHECK_STR(onnxslim_node_op_type(p), "Sqrt");
    CHECK_STR(onnxslim_node_input(p, 0), "v");
    CHECK(value_info_named(rg, "v_sqrt") != NULL); /* v had value_info */
    /* the If still reads v through its capture */
    CHECK(onnxslim_graph_consumer_count(rg, "v") == 2);
    onnxslim_graph *rt = sub_of(node_named(r, "if"), "then_branch");
    CHECK(rt && onnxslim_graph_node_count(rt) == 3);
    if (rt) {
      onnxslim_node *add = onnxslim_graph_find_node(rt, "then_add");
      CHECK_STR(onnxslim_node_input(add, 0), sub_edge);
      CHECK(index_of(rt, add) == 1);
      onnxslim_node *abs = onnxslim_graph_node(rt, 0);
      CHECK_STR(onnxslim_node_op_type(abs), "Abs");
      CHECK_STR(onnxslim_node_input(abs, 0), "v");
    }
    onnxslim_model_free(r);
  }
  onnxslim_model_free(m);
}

TEST(insert_cast) {
  onnxslim_model *m = fan_model();
  if (!m) {
    CHECK(0);
    return;
  }
  onnxslim_graph *g = onnxslim_model_graph(m);
  onnxslim_node *c1 = NULL, *c2 = NULL, *c3 = NULL;
  /* take-over on a graph output: the output (Cast's output) becomes FLOAT16 */
  CHECK_OK(onnxslim_insert_cast_after(g, "y", ONNXSLIM_DTYPE_FLOAT16, NULL, 0, "y_f32", &c1));
  /* on a graph input, fresh output */
  CHECK_OK(onnxslim_insert_cast_after(g, "x", ONNXSLIM_DTYPE_DOUBLE, NULL, 0, "x_f64", &c2));
  /* before one input */
  CHECK_OK(
      onnxslim_insert_cast_before(g, node_named(m, "exp"), 0, ONNXSLIM_DTYPE_DOUBLE, "y_f64", &c3));
  CHECK(onnxslim_insert_cast_after(g, "x", -1, NULL, 0, NULL, NULL) == ONNXSLIM_EINVAL);
  onnxslim_model *r = reload(m);
  if (r) {
    onnxslim_graph *rg = onnxslim_model_graph(r);
    CHECK(graph_sorted(rg));
    int64_t to = 0;
    onnxslim_node *p = onnxslim_graph_producer(rg, "y");
    CHECK_STR(onnxslim_node_op_type(p), "Cast");
    CHECK_OK(onnxslim_attr_int(onnxslim_node_find_attr(p, "to"), &to));
    CHECK(to == ONNXSLIM_DTYPE_FLOAT16);
    CHECK_STR(onnxslim_node_input(p, 0), "y_f32");
    /* y is a graph output: its type follows the Cast; the renamed producer
     * edge keeps FLOAT */
    onnxslim_value_info *yo = NULL;
    for (size_t i = 0; i < onnxslim_graph_output_count(rg); i++)
      if (streq(onnxslim_value_info_name(onnxslim_graph_output(rg, i)), "y"))
        yo = onnxslim_graph_output(rg, i);
    CHECK(onnxslim_type_dtype(onnxslim_value_info_type(yo)) == ONNXSLIM_DTYPE_FLOAT16);
    CHECK(onnxslim_type_dtype(onnxslim_value_info_type(value_info_named(rg, "y_f32"))) ==
          ONNXSLIM_DTYPE_FLOAT);
    p = onnxslim_graph_producer(rg, "x_f64");
    CHECK_STR(onnxslim_node_op_type(p), "Cast");
    CHECK_OK(onnxslim_attr_int(onnxslim_node_find_attr(p, "to"), &to));
    CHECK(to == ONNXSLIM_DTYPE_DOUBLE);
    CHECK_STR(onnxslim_node_input(node_named(r, "relu"), 0), "x_f64");
    onnxslim_value_info *vi = value_info_named(rg, "x_f64");
    CHECK(onnxslim_type_dtype(onnxslim_value_info_type(vi)) == ONNXSLIM_DTYPE_DOUBLE);
    CHECK(onnxslim_type_rank(onnxslim_value_info_type(vi)) == 1);
    /* the graph input keeps its type */
    CHECK(onnxslim_type_dtype(onnxslim_value_info_type(onnxslim_graph_input(rg, 0))) ==
          ONNXSLIM_DTYPE_FLOAT);
    p = onnxslim_graph_producer(rg, "y_f64");
    CHECK_STR(onnxslim_node_op_type(p), "Cast");
    CHECK_OK(onnxslim_attr_int(onnxslim_node_find_attr(p, "to"), &to));
    CHECK(to == ONNXSLIM_DTYPE_DOUBLE);
    CHECK_STR(onnxslim_node_input(p, 0), "y");
    CHECK_STR(onnxslim_node_input(node_named(r, "exp"), 0), "y_f64");
    CHECK(onnxslim_type_dtype(onnxslim_value_info_type(value_info_named(rg, "y_f64"))) ==
          ONNXSLIM_DTYPE_DOUBLE);
    /* y's own value (graph output) was not retyped by cast_before */
    CHECK(onnxslim_type_dtype(onnxslim_value_info_type(yo)) == ONNXSLIM_DTYPE_FLOAT16);
    onnxslim_model_free(r);
  }
  onnxslim_model_free(m);

  /* without any value info on the edge, none is invented */
  pbuf gb = {0};
  pb_node(&gb, "Relu", "relu", L("x"), L("h"), NULL);
  pb_node(&gb, "Neg", "neg", L("h"), L("y"), NULL);
  pb_vi(&gb, 11, "x", ONNXSLIM_DTYPE_FLOAT, 1, dims3);
  pb_vi(&gb, 12, "y", ONNXSLIM_DTYPE_FLOAT, 1, dims3);
  pbuf mb = pb_model(&gb);
  m = from_pbuf(&mb);
  if (!m) {
    CHECK(0);
    return;
  }
  g = onnxslim_model_graph(m);
  CHECK_OK(onnxslim_insert_cast_after(g, "h", ONNXSLIM_DTYPE_FLOAT16, NULL, 0, "h_pre", NULL));
  CHECK(onnxslim_graph_value_info_count(g) == 0);
  onnxslim_model_free(m);
}

/* The Cast helpers refuse a Cast the schemas forbid at the model's opset
 * (17), with the check's message, and leave the model unchanged. */
TEST(insert_cast_schema) {
  onnxslim_model *m = fan_model();
  if (!m) {
    CHECK(0);
    return;
  }
  onnxslim_graph *g = onnxslim_model_graph(m);
  size_t n0 = 0, n1 = 0;
  uint8_t *b0 = save_bytes(m, &n0);
  onnxslim_node *c = (onnxslim_node *)1;
  /* Exp does not take INT32 */
  CHECK(onnxslim_insert_cast_before(g, node_named(m, "exp"), 0, ONNXSLIM_DTYPE_INT32, NULL, &c) ==
        ONNXSLIM_EMODEL);
  CHECK(c == NULL);
  CHECK_STR(onnxslim_error_last(),
            "node 'exp' input 0 ('input' of Exp) would be INT32, which T does not allow at opset "
            "17 [type_constraint]");
  /* the take-over case: every consumer of y would read INT32; Neg could, Exp cannot */
  CHECK(onnxslim_insert_cast_after(g, "y", ONNXSLIM_DTYPE_INT32, NULL, 0, NULL, NULL) ==
        ONNXSLIM_EMODEL);
  CHECK(strstr(onnxslim_error_last(), "node 'exp' input 0") != NULL);
  /* Cast-13 knows no FLOAT8 (Cast-19 does) */
  CHECK(onnxslim_insert_cast_after(g, "x", ONNXSLIM_DTYPE_FLOAT8E4M3FN, NULL, 0, NULL, NULL) ==
        ONNXSLIM_EMODEL);
  CHECK(strstr(onnxslim_error_last(),
               "Cast 'to' FLOAT8E4M3FN: T2 of Cast-13 does not allow it at "
               "opset 17 [type_constraint]") != NULL);
  uint8_t *b1 = save_bytes(m, &n1);
  CHECK(b0 && b1 && n0 == n1 && memcmp(b0, b1, n0) == 0);
  free(b0);
  free(b1);
  /* only Neg reads INT32: fine */
  onnxslim_node *neg = node_named(m, "neg");
  CHECK_OK(onnxslim_insert_cast_after(g, "y", ONNXSLIM_DTYPE_INT32, &neg, 1, NULL, NULL));
  onnxslim_model_free(m);
}

TEST(insert_errors) {
  onnxslim_model *m = capture_model(0);
  if (!m) {
    CHECK(0);
    return;
  }
  onnxslim_graph *g = onnxslim_model_graph(m);
  size_t n0 = onnxslim_graph_node_count(g);
  size_t before_n = 0;
  uint8_t *before = save_bytes(m, &before_n);
  /* a consumer that does not read the value */
  onnxslim_node *wrong[1] = {node_named(m, "relu")};
  CHECK(onnxslim_insert_after(g, "v", "Abs", NULL, wrong, 1, NULL, NULL) == ONNXSLIM_EINVAL);
  /* unknown value; value only known inside a subgraph */
  CHECK(onnxslim_insert_after(g, "nope", "Abs", NULL, NULL, 0, NULL, NULL) == ONNXSLIM_ENOTFOUND);
  CHECK(onnxslim_insert_after(g, "t1", "Abs", NULL, NULL, 0, NULL, NULL) == ONNXSLIM_ENOTFOUND);
  CHECK(onnxslim_insert_after(NULL, "v", "Abs", NULL, NULL, 0, NULL, NULL) == ONNXSLIM_EINVAL);
  CHECK(onnxslim_insert_after(g, "v", NULL, NULL, NULL, 0, NULL, NULL) == ONNXSLIM_EINVAL);
  CHECK(onnxslim_insert_after(g, "v", "Abs", NULL, NULL, 3, NULL, NULL) == ONNXSLIM_EINVAL);
  /* failed calls leave the model as it was */
  CHECK(onnxslim_graph_node_count(g) == n0);
  size_t after_n = 0;
  uint8_t *after = save_bytes(m, &after_n);
  CHECK(before && after && before_n == after_n && memcmp(before, after, before_n) == 0);
  free(before);
  free(after);
  onnxslim_model_free(m);
}

/* A fresh_name already used in the model (a value, a node name, names used
 * only in subgraphs) is made unique by appending _N (onnxslim/insert.h). */
TEST(insert_fresh_name_in_use) {
  onnxslim_model *m = capture_model(0);
  if (!m) {
    CHECK(0);
    return;
  }
  onnxslim_graph *g = onnxslim_model_graph(m);
  names used = {0};
  collect_names(g, &used);
  static const char *const taken[] = {"nv", "relu", "t1", "inner_id", "b", "x"};
  char got[6][128];
  onnxslim_node *n = NULL;
  /* take-over: the fresh name goes to relu's renamed output */
  CHECK_OK(onnxslim_insert_after(g, "v", "Abs", NULL, NULL, 0, taken[0], &n));
  snprintf(got[0], sizeof got[0], "%s", n ? onnxslim_node_input(n, 0) : "?");
  CHECK_STR(onnxslim_node_output(node_named(m, "relu"), 0), got[0]);
  /* fresh output: the fresh name is the new node's output */
  onnxslim_node *chosen[1] = {node_named(m, "if")};
  CHECK_OK(onnxslim_insert_after(g, "v", "Abs", NULL, chosen, 1, taken[1], &n));
  snprintf(got[1], sizeof got[1], "%s", n ? onnxslim_node_output(n, 0) : "?");
  CHECK_OK(onnxslim_insert_after(g, "x", "Abs", NULL, NULL, 0, taken[2], &n));
  snprintf(got[2], sizeof got[2], "%s", n ? onnxslim_node_output(n, 0) : "?");
  CHECK_OK(onnxslim_insert_after(g, "x", "Abs", NULL, NULL, 0, taken[3], &n));
  snprintf(got[3], sizeof got[3], "%s", n ? onnxslim_node_output(n, 0) : "?");
  CHECK_OK(onnxslim_insert_before(g, node_named(m, "neg"), 0, "Abs", NULL, taken[4], &n));
  snprintf(got[4], sizeof got[4], "%s", n ? onnxslim_node_output(n, 0) : "?");
  CHECK_OK(onnxslim_insert_cast_after(g, "nv", 1, NULL, 0, taken[5], &n));
  snprintf(got[5], sizeof got[5], "%s", n ? onnxslim_node_input(n, 0) : "?");
  for (int i = 0; i < 6; i++) {
    size_t tl = strlen(taken[i]);
    /* made unique from the wanted name: wanted_N */
    CHECK(strncmp(got[i], taken[i], tl) == 0 && got[i][tl] == '_');
    CHECK(!names_has(&used, got[i]));
    for (int j = 0; j < i; j++) CHECK(strcmp(got[i], got[j]) != 0);
  }
  /* the names that were taken still mean what they meant */
  CHECK(onnxslim_graph_find_initializer(g, "b") != NULL);
  CHECK(has_input(g, "x"));
  onnxslim_model *r = reload(m);
  if (r) {
    onnxslim_graph *rg = onnxslim_model_graph(r);
    CHECK(graph_sorted(rg));
    CHECK(node_named(r, "relu") != NULL);
    CHECK(onnxslim_graph_producer(rg, "nv") != NULL); /* the Cast, taking over nv */
    CHECK_STR(onnxslim_node_op_type(onnxslim_graph_producer(rg, "nv")), "Cast");
    CHECK_STR(onnxslim_node_op_type(onnxslim_graph_producer(rg, got[5])), "Neg");
    onnxslim_graph *then_g = sub_of(node_named(r, "if"), "then_branch");
    CHECK(then_g && onnxslim_graph_find_node(then_g, "then_add") != NULL);
    if (then_g)
      CHECK_STR(onnxslim_node_input(onnxslim_graph_find_node(then_g, "then_add"), 0), got[1]);
    CHECK(then_g &&
          streq(onnxslim_node_output(onnxslim_graph_find_node(then_g, "then_add"), 0), "t1"));
    onnxslim_model_free(r);
  }
  free(used.v);
  onnxslim_model_free(m);
}

TEST(insert_generated_names_unique) {
  onnxslim_model *m = capture_model(0);
  if (!m) {
    CHECK(0);
    return;
  }
  onnxslim_graph *g = onnxslim_model_graph(m);
  names orig = {0};
  collect_names(g, &orig);
  /* names other inserts would naturally generate are already taken */
  CHECK_OK(onnxslim_graph_add_node(g, SIZE_MAX, "Identity", NULL, "v_Identity", L("nv"), 1,
                                   L("v_pre"), 1, NULL));
  CHECK_OK(onnxslim_graph_add_node(g, SIZE_MAX, "Identity", NULL, "v_out", L("nv"), 1, L("v_in"), 1,
                                   NULL));
  for (int i = 0; i < 3; i++) {
    CHECK_OK(onnxslim_insert_after(g, "v", "Identity", NULL, NULL, 0, NULL, NULL));
    CHECK_OK(onnxslim_insert_after(g, "x", "Identity", NULL, NULL, 0, NULL, NULL));
    /* the value the If captures now (each round renames the capture) */
    onnxslim_graph *then_g = sub_of(node_named(m, "if"), "then_branch");
    char cap[128];
    snprintf(cap, sizeof cap, "%s",
             onnxslim_node_input(onnxslim_graph_find_node(then_g, "then_add"), 0));
    onnxslim_node *chosen[1] = {node_named(m, "if")};
    CHECK_OK(onnxslim_insert_after(g, cap, "Identity", NULL, chosen, 1, NULL, NULL));
    CHECK_OK(onnxslim_insert_before(g, node_named(m, "neg"), 0, "Identity", NULL, NULL, NULL));
  }
  CHECK(onnxslim_graph_node_count(g) == 3 + 2 + 12);
  onnxslim_model *r = reload(m);
  if (r) {
    onnxslim_graph *rg = onnxslim_model_graph(r);
    CHECK(graph_sorted(rg));
    /* every node name is distinct, every value has at most one producer */
    names nn = {0}, outs = {0};
    for (size_t i = 0; i < onnxslim_graph_node_count(rg); i++) {
      onnxslim_node *n = onnxslim_graph_node(rg, i);
      const char *name = onnxslim_node_name(n);
      CHECK(name[0] != '\0');
      if (names_has(&nn, name)) fprintf(stderr, "node name '%s' used twice\n", name);
      CHECK(!names_has(&nn, name));
      names_add(&nn, name);
      const char *o = onnxslim_node_output(n, 0);
      if (names_has(&outs, o)) fprintf(stderr, "value '%s' produced twice\n", o);
      CHECK(!names_has(&outs, o));
      CHECK(!streq(o, "x") && !streq(o, "b") && !streq(o, "cond"));
      names_add(&outs, o);
      /* a generated node name is no name of the original model */
      static const char *const mine[] = {"relu", "neg", "if", "v_Identity", "v_out"};
      int is_mine = 0;
      for (size_t k = 0; k < 5; k++) is_mine |= streq(name, mine[k]);
      if (!is_mine) CHECK(!names_has(&orig, name));
    }
    /* new names never clash with names used only in subgraphs */
    for (size_t i = 0; i < outs.n; i++) {
      CHECK(!streq(outs.v[i], "t1") && !streq(outs.v[i], "it") && !streq(outs.v[i], "e"));
    }
    free(nn.v);
    free(outs.v);
    onnxslim_model_free(r);
  }
  free(orig.v);
  onnxslim_model_free(m);
}

int main(int argc, char **argv) {
  t_args(argc, argv);
  RUN(insert_after_takeover);
  RUN(insert_after_subset);
  RUN(insert_after_input_and_initializer);
  RUN(insert_after_capture_consumer);
  RUN(capture_next_to_shadowing_branch);
  RUN(insert_before);
  RUN(insert_cast);
  RUN(insert_cast_schema);
  RUN(insert_errors);
  RUN(insert_fresh_name_in_use);
  RUN(insert_generated_names_unique);
  return t_done();
}
