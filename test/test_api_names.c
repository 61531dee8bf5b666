/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/* The options-taking forms of 0.2.0 (cleanup, insert, fingerprint: the
 * rule of include/onnxslim/common.h, "Options") and the getter rule
 * ("Getters"): each _with form does what its shorthand does, reads the
 * options it is given and refuses versions and bits it does not know.
 * Run from the repository root. */
#include <stdint.h>
#include <string.h>

#include <onnxslim.h>

#define ONNXSLIM_TEST_EDIT_HELPERS
#include "util.h"

#include "pbuild.h"
#include "t.h"

/* ---- cleanup ------------------------------------------------------------------- */

TEST(cleanup_options) {
  onnxslim_cleanup_options o;
  memset(&o, 0xab, sizeof o);
  CHECK_OK(onnxslim_cleanup_options_init(&o, ONNXSLIM_CLEANUP_OPTIONS_VERSION));
  CHECK(o.version == ONNXSLIM_CLEANUP_OPTIONS_VERSION && o.flags == 0);
  CHECK(onnxslim_cleanup_options_init(&o, 0) == ONNXSLIM_EINVAL);
  CHECK(onnxslim_cleanup_options_init(&o, ONNXSLIM_CLEANUP_OPTIONS_VERSION + 1) == ONNXSLIM_EINVAL);
  CHECK(strstr(onnxslim_error_last(), "version") != NULL);
  CHECK(onnxslim_cleanup_options_init(NULL, 1) == ONNXSLIM_EINVAL);
}

/* fan_model plus an unused initializer and a dead node: what
 * remove_unused drops, counted */
static onnxslim_model *with_dead(void) {
  onnxslim_model *m = fan_model();
  if (!m) return NULL;
  onnxslim_graph *g = onnxslim_model_graph(m);
  static const float v[3] = {1, 2, 3};
  const int64_t dims[1] = {3};
  const char *in[] = {"y"}, *out[] = {"dead_out"};
  if (onnxslim_graph_add_initializer(g, "unused", ONNXSLIM_DTYPE_FLOAT, dims, 1, v, sizeof v,
                                     ONNXSLIM_COPY, NULL) ||
      onnxslim_graph_add_node(g, SIZE_MAX, "Abs", NULL, "dead", in, 1, out, 1, NULL)) {
    onnxslim_model_free(m);
    return NULL;
  }
  return m;
}

TEST(cleanup_with_as_shorthand) {
  onnxslim_model *a = with_dead(), *b = with_dead(), *c = with_dead();
  REQUIRE(a && b && c);
  size_t ra = 0, rb = 0, rc = 0;
  onnxslim_cleanup_options o = ONNXSLIM_CLEANUP_OPTIONS_INIT;
  o.flags = ONNXSLIM_CLEANUP_RECURSIVE;
  CHECK_OK(
      onnxslim_cleanup_remove_unused(onnxslim_model_graph(a), ONNXSLIM_CLEANUP_RECURSIVE, &ra));
  CHECK_OK(onnxslim_cleanup_remove_unused_with(onnxslim_model_graph(b), &o, &rb));
  CHECK_OK(onnxslim_cleanup_remove_unused_with(onnxslim_model_graph(c), NULL, &rc));
  CHECK(ra == 2 && rb == ra && rc == ra);
  size_t na = 0, nb = 0;
  uint8_t *pa = save_bytes(a, &na), *pb = save_bytes(b, &nb);
  CHECK(pa && pb && na == nb && memcmp(pa, pb, na) == 0);
  free(pa);
  free(pb);
  CHECK(onnxslim_graph_find_node(onnxslim_model_graph(c), "dead") == NULL);
  /* toposort: the same order as the shorthand's */
  onnxslim_graph *ga = onnxslim_model_graph(a), *gb = onnxslim_model_graph(b);
  onnxslim_node *rev_a[3], *rev_b[3];
  REQUIRE(onnxslim_graph_node_count(ga) == 3 && onnxslim_graph_node_count(gb) == 3);
  for (size_t i = 0; i < 3; i++) {
    rev_a[i] = onnxslim_graph_node(ga, 2 - i);
    rev_b[i] = onnxslim_graph_node(gb, 2 - i);
  }
  CHECK_OK(onnxslim_graph_reorder_nodes(ga, rev_a, 3));
  CHECK_OK(onnxslim_graph_reorder_nodes(gb, rev_b, 3));
  CHECK(graph_unsorted(gb));
  CHECK_OK(onnxslim_cleanup_toposort(ga, 0));
  CHECK_OK(onnxslim_cleanup_toposort_with(gb, NULL));
  CHECK(graph_sorted(gb));
  for (size_t i = 0; i < 3; i++)
    CHECK(streq(onnxslim_node_name(onnxslim_graph_node(ga, i)),
                onnxslim_node_name(onnxslim_graph_node(gb, i))));
  /* refused: unknown version, reserved flags, NULL graph; nothing changes */
  o.version = ONNXSLIM_CLEANUP_OPTIONS_VERSION + 1;
  CHECK(onnxslim_cleanup_toposort_with(gb, &o) == ONNXSLIM_EINVAL);
  CHECK(onnxslim_cleanup_remove_unused_with(gb, &o, NULL) == ONNXSLIM_EINVAL);
  o.version = ONNXSLIM_CLEANUP_OPTIONS_VERSION;
  o.flags = 0x80;
  CHECK(onnxslim_cleanup_toposort_with(gb, &o) == ONNXSLIM_EINVAL);
  CHECK(strstr(onnxslim_error_last(), "reserved") != NULL);
  CHECK(onnxslim_cleanup_remove_unused_with(NULL, NULL, NULL) == ONNXSLIM_EINVAL);
  onnxslim_model_free(a);
  onnxslim_model_free(b);
  onnxslim_model_free(c);
}

/* ---- insert -------------------------------------------------------------------- */

TEST(insert_options) {
  onnxslim_insert_options o;
  memset(&o, 0xab, sizeof o);
  CHECK_OK(onnxslim_insert_options_init(&o, 1));
  CHECK(o.version == 1 && o.consumers == NULL && o.n_consumers == 0 && o.fresh_name == NULL);
  CHECK(onnxslim_insert_options_init(&o, 2) == ONNXSLIM_EINVAL);
  CHECK(onnxslim_insert_options_init(NULL, 1) == ONNXSLIM_EINVAL);
}

TEST(insert_with_as_shorthand) {
  onnxslim_model *a = fan_model(), *b = fan_model();
  REQUIRE(a && b);
  onnxslim_graph *ga = onnxslim_model_graph(a), *gb = onnxslim_model_graph(b);
  /* after "y", for "neg" only, with a chosen name */
  onnxslim_node *ca[1] = {node_named(a, "neg")}, *cb[1] = {node_named(b, "neg")};
  onnxslim_node *na = NULL, *nb = NULL;
  CHECK_OK(onnxslim_insert_after(ga, "y", "Sigmoid", NULL, ca, 1, "sig", &na));
  onnxslim_insert_options o = ONNXSLIM_INSERT_OPTIONS_INIT;
  o.consumers = cb;
  o.n_consumers = 1;
  o.fresh_name = "sig";
  CHECK_OK(onnxslim_insert_after_with(gb, "y", "Sigmoid", NULL, &o, &nb));
  CHECK(na && nb && streq(onnxslim_node_output(na, 0), onnxslim_node_output(nb, 0)));
  CHECK(streq(onnxslim_node_input(node_named(b, "neg"), 0), onnxslim_node_output(nb, 0)));
  CHECK(streq(onnxslim_node_input(node_named(b, "exp"), 0), "y")); /* not chosen */
  /* a Cast before input 0 of "exp", NULL options: a generated name */
  CHECK_OK(
      onnxslim_insert_cast_before(ga, node_named(a, "exp"), 0, ONNXSLIM_DTYPE_DOUBLE, NULL, &na));
  CHECK_OK(onnxslim_insert_cast_before_with(gb, node_named(b, "exp"), 0, ONNXSLIM_DTYPE_DOUBLE,
                                            NULL, &nb));
  CHECK(na && nb && streq(onnxslim_node_output(na, 0), onnxslim_node_output(nb, 0)));
  /* the *_before forms take no consumer list */
  o.fresh_name = NULL;
  nb = (onnxslim_node *)1;
  CHECK(onnxslim_insert_before_with(gb, node_named(b, "neg"), 0, "Abs", NULL, &o, &nb) ==
        ONNXSLIM_EINVAL);
  CHECK(nb == NULL);
  CHECK(onnxslim_insert_cast_before_with(gb, node_named(b, "neg"), 0, ONNXSLIM_DTYPE_DOUBLE, &o,
                                         NULL) == ONNXSLIM_EINVAL);
  /* the other two forms, NULL options: all consumers */
  CHECK_OK(onnxslim_insert_before_with(gb, node_named(b, "neg"), 0, "Abs", NULL, NULL, &nb));
  CHECK(nb && streq(onnxslim_node_input(node_named(b, "neg"), 0), onnxslim_node_output(nb, 0)));
  CHECK_OK(onnxslim_insert_cast_after_with(gb, "x", ONNXSLIM_DTYPE_DOUBLE, NULL, &nb));
  CHECK(nb && streq(onnxslim_node_input(nb, 0), "x"));
  CHECK(streq(onnxslim_node_input(node_named(b, "relu"), 0), onnxslim_node_output(nb, 0)));
  /* an unknown version: refused before anything changes */
  size_t before = onnxslim_graph_node_count(gb);
  o.version = 7;
  CHECK(onnxslim_insert_after_with(gb, "y", "Abs", NULL, &o, NULL) == ONNXSLIM_EINVAL);
  CHECK(onnxslim_insert_cast_after_with(gb, "y", ONNXSLIM_DTYPE_DOUBLE, &o, NULL) ==
        ONNXSLIM_EINVAL);
  CHECK(onnxslim_graph_node_count(gb) == before);
  onnxslim_model_free(a);
  onnxslim_model_free(b);
}

/* ---- fingerprint --------------------------------------------------------------- */

typedef struct {
  uint64_t calls, last_done, total, stop_at;
  int monotone, total_same;
} meter;

static int on_progress(uint64_t done, uint64_t total, void *payload) {
  meter *p = payload;
  if (p->calls && done < p->last_done) p->monotone = 0;
  if (p->calls && total != p->total) p->total_same = 0;
  if (done > total) p->monotone = 0;
  p->calls++;
  p->last_done = done;
  p->total = total;
  return p->stop_at && p->calls >= p->stop_at;
}

TEST(fingerprint_with) {
  onnxslim_model *m = open_model(BERT);
  REQUIRE(m);
  char a[ONNXSLIM_FINGERPRINT_SIZE], b[ONNXSLIM_FINGERPRINT_SIZE];
  CHECK_OK(onnxslim_fingerprint(a, sizeof a, m));
  CHECK_OK(onnxslim_fingerprint_with(b, sizeof b, m, NULL));
  CHECK(strcmp(a, b) == 0);
  /* with a progress function: the same digest, calls from 0 to total,
   * total the bytes of the model's tensors */
  uint64_t tensors = 0;
  onnxslim_graph *g = onnxslim_model_graph(m);
  for (size_t i = 0; i < onnxslim_graph_initializer_count(g); i++) {
    uint64_t n = 0;
    if (onnxslim_tensor_byte_size(onnxslim_graph_initializer(g, i), &n) == 0) tensors += n;
  }
  meter p = {0, 0, 0, 0, 1, 1};
  onnxslim_fingerprint_options o;
  CHECK_OK(onnxslim_fingerprint_options_init(&o, ONNXSLIM_FINGERPRINT_OPTIONS_VERSION));
  CHECK(o.progress == NULL && o.progress_payload == NULL);
  o.progress = on_progress;
  o.progress_payload = &p;
  memset(b, 0, sizeof b);
  CHECK_OK(onnxslim_fingerprint_with(b, sizeof b, m, &o));
  CHECK(strcmp(a, b) == 0);
  CHECK(p.calls >= 2 && p.monotone && p.total_same);
  CHECK(p.total >= tensors && tensors > 0); /* Constant nodes' tensors count too */
  CHECK(p.last_done == p.total);
  /* canceled at the first call: ONNXSLIM_ECANCELED, nothing written */
  meter q = {0, 0, 0, 1, 1, 1};
  o.progress_payload = &q;
  memset(b, 'x', sizeof b);
  CHECK(onnxslim_fingerprint_with(b, sizeof b, m, &o) == ONNXSLIM_ECANCELED);
  CHECK(b[0] == 'x' && b[sizeof b - 1] == 'x');
  /* an unknown version; a buffer too small (nothing called) */
  o.version = ONNXSLIM_FINGERPRINT_OPTIONS_VERSION + 1;
  CHECK(onnxslim_fingerprint_with(b, sizeof b, m, &o) == ONNXSLIM_EINVAL);
  CHECK(onnxslim_fingerprint_options_init(&o, 0) == ONNXSLIM_EINVAL);
  o.version = ONNXSLIM_FINGERPRINT_OPTIONS_VERSION;
  q.calls = 0;
  CHECK(onnxslim_fingerprint_with(b, 8, m, &o) == ONNXSLIM_EBUFSIZE);
  CHECK(q.calls == 0);
  onnxslim_model_free(m);
}

/* ---- getters (common.h, "Getters") --------------------------------------------- */

TEST(getter_rule) {
  onnxslim_model *m = capture_model(0);
  REQUIRE(m);
  onnxslim_graph *g = onnxslim_model_graph(m);
  /* an answer leaves the last error as it was */
  onnxslim_error_clear();
  CHECK(onnxslim_graph_node_count(g) == 3);
  CHECK(onnxslim_error_last_code() == 0);
  /* the main graph has no parent node: NULL with ONNXSLIM_ENOTFOUND */
  CHECK(onnxslim_graph_parent_node(g) == NULL);
  CHECK(onnxslim_error_last_code() == ONNXSLIM_ENOTFOUND);
  onnxslim_error_clear();
  onnxslim_graph *then_g = sub_of(node_named(m, "if"), "then_branch");
  CHECK(then_g && onnxslim_graph_parent_node(then_g) == node_named(m, "if"));
  CHECK(onnxslim_error_last_code() == 0);
  /* a bad handle: the empty value with ONNXSLIM_EINVAL; an index past the
   * end: with ONNXSLIM_ERANGE */
  onnxslim_error_clear();
  CHECK(onnxslim_graph_node_count(NULL) == 0);
  CHECK(onnxslim_error_last_code() == ONNXSLIM_EINVAL);
  onnxslim_error_clear();
  CHECK(onnxslim_graph_node(g, 99) == NULL);
  CHECK(onnxslim_error_last_code() == ONNXSLIM_ERANGE);
  onnxslim_error_clear();
  CHECK(onnxslim_graph_name(NULL) == NULL);
  CHECK(onnxslim_error_last_code() == ONNXSLIM_EINVAL);
  onnxslim_error_clear();
  CHECK(onnxslim_type_dtype(NULL) == 0);
  CHECK(onnxslim_error_last_code() == ONNXSLIM_EINVAL);
  onnxslim_model_free(m);
}

int main(int argc, char **argv) {
  t_args(argc, argv);
  RUN(cleanup_options);
  RUN(cleanup_with_as_shorthand);
  RUN(insert_options);
  RUN(insert_with_as_shorthand);
  RUN(fingerprint_with);
  RUN(getter_rule);
  return t_done();
}
