/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/* max_memory holds for the passes after the load (issue [attack], point 6):
 * a model loaded with the smallest max_memory that lets it load has no room
 * left for what a pass holds, so each pass (check, toposort,
 * remove_unused, convert, insert, save) fails with ONNXSLIM_ELIMIT, a
 * message naming it and the model unchanged (its fingerprint is what it
 * was); with room it succeeds. What a pass counts
 * is given back when it returns: at the smallest limit a pass fits in, it
 * fits again, and the count (model->held, read here from the library's
 * internals) is back to 0 after every call. The models are built byte by byte (test/pbuild.h); the
 * valgrind and sanitizer steps run this too (no leak on either path). */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <onnxslim.h>

#include "pbuild.h"
#include "t.h"
#include "wire/wire.h" /* model->held (built with the library's objects: Makefile) */

#define REQUIRE(c)    \
  do {                \
    CHECK(c);         \
    if (!(c)) return; \
  } while (0)

#define N 5000 /* nodes or tensors: about a MB of structure, more for a pass */

static void model_head(pbuf *m) {
  pb_int(m, 1, 8); /* ir_version */
  pbuf op = {0};
  pb_int(&op, 2, 13); /* opset 13, default domain */
  pb_msg(m, 8, &op);
}

static void vinfo(pbuf *g, unsigned field, const char *name) {
  pbuf vi = {0}, ty = {0}, tt = {0};
  pb_int(&tt, 1, 1); /* FLOAT */
  pb_msg(&ty, 1, &tt);
  pb_str(&vi, 1, name);
  pb_msg(&vi, 2, &ty);
  pb_msg(g, field, &vi);
}

static void node(pbuf *g, const char *op, const char *in0, const char *in1, const char *out) {
  pbuf n = {0};
  pb_str(&n, 1, in0);
  if (in1) pb_str(&n, 1, in1);
  pb_str(&n, 2, out);
  pb_str(&n, 3, out); /* the node's name: its output's */
  pb_str(&n, 4, op);
  pb_msg(g, 1, &n);
}

/* kind 'c': a chain x -> v1 -> ... -> vN = y of Relu listed last first
 *           (toposort reverses it) and N dead Relu reading x;
 * kind 'w': N Add nodes, Add(x, wI) -> x (in turn), each wI an FP32
 *           initializer of 16 values (convert, save);
 * kind 'f': N Relu nodes reading x (insert_after on x, all chosen);
 * kind 's': the chain of 'c' listed in order (already sorted). */
static pbuf build(char kind) {
  pbuf g = {0}, m = {0};
  char a[32], b[32];
  pb_str(&g, 2, "g");
  if (kind == 'c' || kind == 's') {
    for (int j = 1; j <= N; j++) {
      int i = kind == 's' ? j : N + 1 - j;
      snprintf(a, sizeof a, i == 1 ? "x" : "v%d", i - 1);
      snprintf(b, sizeof b, i == N ? "y" : "v%d", i);
      node(&g, "Relu", a, NULL, b);
    }
    for (int i = 0; i < N; i++) {
      snprintf(b, sizeof b, "dead%d", i);
      node(&g, "Relu", "x", NULL, b);
    }
  } else if (kind == 'w') {
    for (int i = 0; i < N; i++) {
      snprintf(a, sizeof a, i ? "s%d" : "x", i);
      snprintf(b, sizeof b, "w%d", i);
      char o[32];
      snprintf(o, sizeof o, i == N - 1 ? "y" : "s%d", i + 1);
      node(&g, "Add", a, b, o);
      pbuf t = {0};
      float v[16];
      for (int k = 0; k < 16; k++) v[k] = (float)(i + k);
      pb_int(&t, 1, 16);
      pb_int(&t, 2, 1);
      pb_str(&t, 8, b);
      pb_bytes(&t, 9, v, sizeof v);
      pb_msg(&g, 5, &t);
    }
  } else {
    for (int i = 0; i < N; i++) {
      snprintf(b, sizeof b, "r%d", i);
      node(&g, "Relu", "x", NULL, b);
    }
  }
  vinfo(&g, 11, "x");
  vinfo(&g, 12, kind == 'f' ? "r0" : "y");
  model_head(&m);
  pb_msg(&m, 7, &g);
  free(g.p);
  return m;
}

static onnxslim_model *load_at(const pbuf *b, uint64_t limit) {
  onnxslim_load_options o = ONNXSLIM_LOAD_OPTIONS_INIT;
  o.max_memory = limit;
  onnxslim_model *m = NULL;
  if (onnxslim_model_from_buffer(&m, b->p, b->n, 0, &o) != 0) return NULL;
  return m;
}

/* The smallest max_memory the model loads with (to 4 KiB). */
static uint64_t load_floor(const pbuf *b) {
  uint64_t lo = 4096, hi = (uint64_t)1 << 30;
  while (hi - lo > 4096) {
    uint64_t mid = lo + (hi - lo) / 2;
    onnxslim_model *m = load_at(b, mid);
    if (m) hi = mid;
    else lo = mid;
    onnxslim_model_free(m);
  }
  return hi;
}

typedef int (*pass_fn)(onnxslim_model *m, void *ctx);

static char tmpdir[] = "/tmp/osl-memlimit-XXXXXX";

static int do_check(onnxslim_model *m, void *ctx) {
  (void)ctx;
  onnxslim_check_report *r = NULL;
  int rc = onnxslim_check(&r, m, 0);
  onnxslim_check_report_free(r);
  return rc;
}
static int do_toposort(onnxslim_model *m, void *ctx) {
  (void)ctx;
  return onnxslim_cleanup_toposort(onnxslim_model_graph(m), 0);
}
static int do_unused(onnxslim_model *m, void *ctx) {
  (void)ctx;
  size_t removed = 0;
  int rc = onnxslim_cleanup_remove_unused(onnxslim_model_graph(m), 0, &removed);
  if (!rc && removed != N) return -100;
  return rc;
}
static int do_convert(onnxslim_model *m, void *ctx) {
  (void)ctx;
  onnxslim_convert_options o = ONNXSLIM_CONVERT_OPTIONS_INIT;
  o.to = ONNXSLIM_DTYPE_FLOAT16;
  o.policy = ONNXSLIM_CONVERT_POLICY_CAST_BEFORE;
  onnxslim_convert_report *r = NULL;
  int rc = onnxslim_convert_model(&r, m, &o);
  if (!rc && onnxslim_convert_report_count(r) != N) rc = -100;
  onnxslim_convert_report_free(r);
  return rc;
}
static int do_insert(onnxslim_model *m, void *ctx) {
  (void)ctx;
  onnxslim_graph *g = onnxslim_model_graph(m);
  size_t nc = onnxslim_graph_consumer_count(g, "x");
  onnxslim_node **all = malloc(nc * sizeof *all);
  for (size_t i = 0; i < nc; i++) all[nc - 1 - i] = onnxslim_graph_consumer(g, "x", i);
  int rc = onnxslim_insert_after(g, "x", "Identity", NULL, all, nc, NULL, NULL);
  free(all);
  return rc;
}
static int do_save(onnxslim_model *m, void *ctx) {
  onnxslim_save_options o = ONNXSLIM_SAVE_OPTIONS_INIT;
  o.layout = ONNXSLIM_LAYOUT_ONE_FILE;
  o.size_threshold = 0;
  o.flags = ONNXSLIM_SAVE_NO_FSYNC;
  onnxslim_save_report *r = NULL;
  int rc = onnxslim_save(&r, m, (const char *)ctx, &o);
  if (!rc && onnxslim_save_report_count(r) != N) rc = -100;
  onnxslim_save_report_free(r);
  return rc;
}

/* The diff of the model (A) with diff_b, the same model converted to
 * FLOAT16: a walk that compares every tensor. */
static onnxslim_model *diff_b;
static int do_diff(onnxslim_model *m, void *ctx) {
  (void)ctx;
  onnxslim_diff_report *r = NULL;
  int rc = onnxslim_diff(&r, m, diff_b, NULL);
  if (!rc && onnxslim_diff_report_count(r) == 0) rc = -100;
  onnxslim_diff_report_free(r);
  return rc;
}

/* What the passes hold on the model now (the library's count): 0
 * whenever no pass runs. */
static uint64_t held(const onnxslim_model *m) { return m->held; }

static int exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0;
}

/* The pass fails with ONNXSLIM_ELIMIT and a message naming `what` on the
 * model loaded at the smallest limit that loads it, the model unchanged
 * and nothing left counted; it succeeds with room (the default limit); at
 * the smallest limit it succeeds with, it succeeds again on a fresh model,
 * and twice in a row when twice = 1 (a sort of a sorted graph: nothing
 * stays counted on success either). */
static void expect_pass_limit(char kind, pass_fn fn, void *ctx, const char *what, int twice) {
  pbuf b = build(kind);
  uint64_t floor = load_floor(&b);
  onnxslim_model *m = load_at(&b, floor);
  REQUIRE(m != NULL);
  char before[ONNXSLIM_FINGERPRINT_SIZE], after[ONNXSLIM_FINGERPRINT_SIZE];
  CHECK_OK(onnxslim_fingerprint(before, sizeof before, m));
  int rc = fn(m, ctx);
  if (rc != ONNXSLIM_ELIMIT || !strstr(onnxslim_error_last(), what) ||
      !strstr(onnxslim_error_last(), "max_memory allows"))
    fprintf(stderr, "%s at %llu: rc %d, %s\n", what, (unsigned long long)floor, rc,
            onnxslim_error_last());
  CHECK(rc == ONNXSLIM_ELIMIT);
  CHECK(strstr(onnxslim_error_last(), what) != NULL);
  CHECK(strstr(onnxslim_error_last(), "needs more memory than its max_memory allows") != NULL);
  CHECK_OK(onnxslim_fingerprint(after, sizeof after, m));
  CHECK(strcmp(before, after) == 0);
  if (ctx) CHECK(!exists((const char *)ctx));
  CHECK(held(m) == 0); /* the failed pass holds nothing any more */
  onnxslim_model_free(m);

  /* with room: done */
  m = load_at(&b, 0);
  REQUIRE(m != NULL);
  CHECK_OK(fn(m, ctx));
  onnxslim_model_free(m);

  /* the smallest limit it succeeds with (to 16 KiB), then again */
  uint64_t lo = floor, hi = (uint64_t)1 << 30;
  while (hi - lo > 16384) {
    uint64_t mid = lo + (hi - lo) / 2;
    m = load_at(&b, mid);
    REQUIRE(m != NULL);
    if (fn(m, ctx) == 0) hi = mid;
    else lo = mid;
    CHECK(held(m) == 0); /* after a failure midway, or a success */
    onnxslim_model_free(m);
    if (ctx) unlink((const char *)ctx);
  }
  CHECK(hi > floor + 16384); /* the pass needed room of its own */
  m = load_at(&b, hi);
  REQUIRE(m != NULL);
  CHECK_OK(fn(m, ctx));
  if (twice) CHECK_OK(fn(m, ctx));
  CHECK(held(m) == 0);
  onnxslim_model_free(m);
  if (ctx) unlink((const char *)ctx);
  free(b.p);
}

/* (a second check needs what the first did, and the first grew the
 * structure: twice = 0) */
TEST(check_at_the_limit) { expect_pass_limit('c', do_check, NULL, "checking the model", 0); }
TEST(toposort_at_the_limit) { expect_pass_limit('c', do_toposort, NULL, "sorting the graph", 1); }
/* A graph already in order is left as it is without the dependencies
 * built (what they would hold fails at the load floor, as above). */
TEST(toposort_sorted_holds_nothing) {
  pbuf b = build('s');
  onnxslim_model *m = load_at(&b, load_floor(&b));
  REQUIRE(m != NULL);
  char before[ONNXSLIM_FINGERPRINT_SIZE], after[ONNXSLIM_FINGERPRINT_SIZE];
  CHECK_OK(onnxslim_fingerprint(before, sizeof before, m));
  int rc = do_toposort(m, NULL);
  if (rc) fprintf(stderr, "toposort of a sorted graph: %s\n", onnxslim_error_last());
  CHECK(rc == 0);
  CHECK_OK(onnxslim_fingerprint(after, sizeof after, m));
  CHECK(strcmp(before, after) == 0);
  CHECK(held(m) == 0);
  onnxslim_model_free(m);
  free(b.p);
}
TEST(remove_unused_at_the_limit) {
  expect_pass_limit('c', do_unused, NULL, "removing unused items", 0);
}
/* Without subgraphs the removal finds what the outputs need from their
 * producers back, by node slot, and holds about 20 bytes a node (the 2N
 * nodes of 'c' fit in 32 bytes a node over the load floor; the
 * dependencies, about 50 a node, do not). */
TEST(remove_unused_without_subgraphs_holds_little) {
  pbuf b = build('c');
  uint64_t room = (uint64_t)2 * N * 32;
  onnxslim_model *m = load_at(&b, 0);
  REQUIRE(m != NULL);
  /* the structure the pass reads decoded first (names, inputs, outputs,
   * the graph's index), then the limit: that structure plus the room */
  onnxslim_graph *g = onnxslim_model_graph(m);
  for (size_t i = 0; i < onnxslim_graph_node_count(g); i++) {
    onnxslim_node *nd = onnxslim_graph_node(g, i);
    (void)onnxslim_node_name(nd);
    for (size_t k = 0; k < onnxslim_node_input_count(nd); k++) (void)onnxslim_node_input(nd, k);
    for (size_t k = 0; k < onnxslim_node_output_count(nd); k++) (void)onnxslim_node_output(nd, k);
  }
  CHECK(onnxslim_graph_producer(g, "y") != NULL);
  m->max_memory = m->arena.total + room;
  int rc = do_unused(m, NULL);
  if (rc)
    fprintf(stderr, "remove_unused in %llu bytes: %s\n", (unsigned long long)room,
            onnxslim_error_last());
  CHECK(rc == 0);
  CHECK(held(m) == 0);
  onnxslim_model_free(m);
  free(b.p);
}
TEST(convert_at_the_limit) { expect_pass_limit('w', do_convert, NULL, "converting the model", 0); }
TEST(insert_at_the_limit) { expect_pass_limit('f', do_insert, NULL, "inserting a node", 0); }
TEST(diff_at_the_limit) {
  pbuf b = build('w');
  diff_b = load_at(&b, 0);
  REQUIRE(diff_b != NULL);
  CHECK_OK(do_convert(diff_b, NULL));
  expect_pass_limit('w', do_diff, NULL, "comparing the models", 1);
  onnxslim_model_free(diff_b);
  free(b.p);
}
TEST(save_at_the_limit) {
  char path[sizeof tmpdir + 16];
  snprintf(path, sizeof path, "%s/m.onnx", tmpdir);
  expect_pass_limit('w', do_save, path, "saving the model", 0);
  const char *left[] = {"m.onnx.data", "m.onnx_1.data"};
  for (size_t i = 0; i < 2; i++) {
    char data[sizeof tmpdir + 16];
    snprintf(data, sizeof data, "%s/%s", tmpdir, left[i]);
    unlink(data);
  }
}

int main(int argc, char **argv) {
  t_args(argc, argv);
  if (!mkdtemp(tmpdir)) return 1;
  RUN(check_at_the_limit);
  RUN(toposort_at_the_limit);
  RUN(toposort_sorted_holds_nothing);
  RUN(remove_unused_at_the_limit);
  RUN(remove_unused_without_subgraphs_holds_little);
  RUN(convert_at_the_limit);
  RUN(insert_at_the_limit);
  RUN(save_at_the_limit);
  RUN(diff_at_the_limit);
  rmdir(tmpdir);
  return t_done();
}
