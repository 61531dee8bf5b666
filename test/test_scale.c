/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/* Edits at scale: a batch of edits must cost time and memory linear in the
 * graph's size. Each test runs its batch under an address-space limit
 * (RLIMIT_AS) that a linear implementation fits many times over and a
 * quadratic one (an index rebuilt, or a copy of the node list made, per
 * edit) exceeds long before the end: deterministic, no timing involved.
 * Speed and memory figures for 1k, 10k and 100k nodes are in `make bench`. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include <onnxslim.h>

#include "pbuild.h"
#include "t.h"

#define CHAIN 20000           /* nodes */
#define HEADROOM (384L << 20) /* bytes of address space allowed beyond the start */

/* Current address-space size (VmSize) in bytes, or -1. */
static long vm_size(void) {
  FILE *f = fopen("/proc/self/status", "r");
  char line[256];
  long kb = -1;
  while (f && fgets(line, sizeof line, f))
    if (strncmp(line, "VmSize:", 7) == 0) kb = strtol(line + 7, NULL, 10);
  if (f) fclose(f);
  return kb < 0 ? -1 : kb * 1024;
}

static struct rlimit saved_as;

/* Caps the address space at its current size plus HEADROOM. */
static int cap_memory(void) {
  long now = vm_size();
  if (now < 0 || getrlimit(RLIMIT_AS, &saved_as) != 0) return -1;
  struct rlimit r = saved_as;
  rlim_t want = (rlim_t)now + (rlim_t)HEADROOM;
  if (r.rlim_max != RLIM_INFINITY && want > r.rlim_max) want = r.rlim_max;
  r.rlim_cur = want;
  return setrlimit(RLIMIT_AS, &r);
}

static void uncap_memory(void) { setrlimit(RLIMIT_AS, &saved_as); }

static void pb_dims_type(pbuf *vi, const char *name) {
  pbuf ty = {0}, tt = {0}, shape = {0}, d0 = {0}, d1 = {0};
  pb_int(&d0, 1, 1);
  pb_int(&d1, 1, 16);
  pb_msg(&shape, 1, &d0);
  pb_msg(&shape, 1, &d1);
  pb_int(&tt, 1, ONNXSLIM_DTYPE_FLOAT);
  pb_msg(&tt, 2, &shape);
  pb_msg(&ty, 1, &tt);
  pb_str(vi, 1, name);
  pb_msg(vi, 2, &ty);
}

/* The bytes of a chain of n Add nodes, each reading its own FP32
 * initializer w<i> of 16 values: x -> Add -> a0 -> Add -> a1 ... -> y. */
static pbuf chain_bytes(size_t n) {
  pbuf m = {0}, g = {0};
  char prev[32] = "x", out[32], w[32], nm[32];
  for (size_t i = 0; i < n; i++) {
    pbuf node = {0};
    snprintf(w, sizeof w, "w%zu", i);
    snprintf(out, sizeof out, i + 1 == n ? "y" : "a%zu", i);
    snprintf(nm, sizeof nm, "add%zu", i);
    pb_str(&node, 1, prev);
    pb_str(&node, 1, w);
    pb_str(&node, 2, out);
    pb_str(&node, 3, nm);
    pb_str(&node, 4, "Add");
    pb_msg(&g, 1, &node);
    strcpy(prev, out);
  }
  pb_str(&g, 2, "chain");
  for (size_t i = 0; i < n; i++) {
    pbuf t = {0};
    float v[16];
    for (int k = 0; k < 16; k++) v[k] = (float)(i % 7) * 0.25f + (float)k;
    snprintf(w, sizeof w, "w%zu", i);
    pb_int(&t, 1, 16);
    pb_int(&t, 2, ONNXSLIM_DTYPE_FLOAT);
    pb_str(&t, 8, w);
    pb_bytes(&t, 9, v, sizeof v);
    pb_msg(&g, 5, &t);
  }
  pbuf in = {0}, outv = {0};
  pb_dims_type(&in, "x");
  pb_msg(&g, 11, &in);
  pb_dims_type(&outv, "y");
  pb_msg(&g, 12, &outv);
  pbuf op = {0};
  pb_int(&m, 1, 8);
  pb_msg(&m, 7, &g);
  pb_str(&op, 1, "");
  pb_int(&op, 2, 13);
  pb_msg(&m, 8, &op);
  return m;
}

/* Does the converted chain look right: n Casts, each right before the Add
 * it feeds, reading w<i> (now FP16) and giving that Add an FP32 input? */
static int chain_converted(const onnxslim_model *m, size_t n) {
  onnxslim_graph *g = onnxslim_model_graph(m);
  if (onnxslim_graph_node_count(g) != 2 * n) return 0;
  for (size_t i = 0; i < n; i++) {
    onnxslim_node *cast = onnxslim_graph_node(g, 2 * i), *add = onnxslim_graph_node(g, 2 * i + 1);
    char w[32];
    snprintf(w, sizeof w, "w%zu", i);
    if (strcmp(onnxslim_node_op_type(cast), "Cast") != 0 ||
        strcmp(onnxslim_node_op_type(add), "Add") != 0 ||
        strcmp(onnxslim_node_input(cast, 0), w) != 0 ||
        strcmp(onnxslim_node_input(add, 1), onnxslim_node_output(cast, 0)) != 0)
      return 0;
    onnxslim_attr *to = onnxslim_node_find_attr(cast, "to");
    onnxslim_tensor *t = onnxslim_graph_find_initializer(g, w);
    int64_t dt = -1;
    if (!to || onnxslim_attr_int(to, &dt) != 0 || dt != ONNXSLIM_DTYPE_FLOAT || !t ||
        onnxslim_tensor_dtype(t) != ONNXSLIM_DTYPE_FLOAT16)
      return 0;
  }
  return 1;
}

/* `--to fp16` with the default policy on a 20000-node chain: one Cast per
 * initializer. Before the index followed the edits, this took about 1.4 GiB
 * at 1000 nodes and grew with the square of the node count. */
TEST(convert_long_chain_in_bounded_memory) {
  pbuf b = chain_bytes(CHAIN);
  onnxslim_model *m = NULL;
  CHECK_OK(onnxslim_model_from_buffer(&m, b.p, b.n, ONNXSLIM_COPY, NULL));
  free(b.p);
  if (!m) return;
  onnxslim_convert_options o = ONNXSLIM_CONVERT_OPTIONS_INIT;
  o.to = ONNXSLIM_DTYPE_FLOAT16;
  onnxslim_convert_report *rep = NULL;
  CHECK_OK(cap_memory());
  int rc = onnxslim_convert_model(&rep, m, &o);
  uncap_memory();
  CHECK_OK(rc);
  CHECK(onnxslim_convert_report_count(rep) == CHAIN);
  onnxslim_convert_report_free(rep);
  CHECK(chain_converted(m, CHAIN));
  onnxslim_check_report *cr = NULL;
  CHECK_OK(onnxslim_check(&cr, m, 0));
  CHECK(cr && onnxslim_check_report_count(cr) == 0);
  onnxslim_check_report_free(cr);
  /* and the saved model says the same */
  size_t need = 0, got = 0;
  CHECK(onnxslim_save_buffer(m, NULL, 0, &need) == ONNXSLIM_EBUFSIZE);
  uint8_t *p = malloc(need ? need : 1);
  CHECK(p && onnxslim_save_buffer(m, p, need, &got) == 0 && got == need);
  onnxslim_model *r = NULL;
  if (p) CHECK_OK(onnxslim_model_from_buffer(&r, p, got, ONNXSLIM_COPY, NULL));
  if (r) CHECK(chain_converted(r, CHAIN));
  onnxslim_model_free(r);
  free(p);
  onnxslim_model_free(m);
}

/* The same chain built with the edit API (appends only), in bounded
 * memory: appending does not copy the graph's node list per edit. */
TEST(build_long_chain_in_bounded_memory) {
  pbuf mb = {0}, gb = {0}, op = {0};
  pb_int(&mb, 1, 8);
  pb_str(&gb, 2, "chain");
  pb_msg(&mb, 7, &gb);
  pb_str(&op, 1, "");
  pb_int(&op, 2, 13);
  pb_msg(&mb, 8, &op);
  onnxslim_model *m = NULL;
  CHECK_OK(onnxslim_model_from_buffer(&m, mb.p, mb.n, ONNXSLIM_COPY, NULL));
  free(mb.p);
  if (!m) return;
  onnxslim_graph *g = onnxslim_model_graph(m);
  const int64_t dims[2] = {1, 16};
  onnxslim_value_info *vi = NULL;
  int rc = 0;
  CHECK_OK(cap_memory());
  rc = onnxslim_graph_add_input(g, "x", &vi);
  if (!rc) rc = onnxslim_value_info_set_tensor_type(vi, ONNXSLIM_DTYPE_FLOAT, dims, NULL, 2);
  char prev[32] = "x", out[32], w[32], nm[32];
  float v[16] = {0};
  for (size_t i = 0; i < CHAIN && !rc; i++) {
    snprintf(w, sizeof w, "w%zu", i);
    snprintf(out, sizeof out, i + 1 == CHAIN ? "y" : "a%zu", i);
    snprintf(nm, sizeof nm, "add%zu", i);
    rc = onnxslim_graph_add_initializer(g, w, ONNXSLIM_DTYPE_FLOAT, dims + 1, 1, v, sizeof v,
                                        ONNXSLIM_COPY, NULL);
    const char *in[2] = {prev, w}, *outs[1] = {out};
    if (!rc) rc = onnxslim_graph_add_node(g, SIZE_MAX, "Add", NULL, nm, in, 2, outs, 1, NULL);
    strcpy(prev, out);
  }
  if (!rc) rc = onnxslim_graph_add_output(g, "y", &vi);
  if (!rc) rc = onnxslim_value_info_set_tensor_type(vi, ONNXSLIM_DTYPE_FLOAT, dims, NULL, 2);
  uncap_memory();
  CHECK_OK(rc);
  CHECK(onnxslim_graph_node_count(g) == CHAIN);
  CHECK(onnxslim_graph_initializer_count(g) == CHAIN);
  CHECK_STR(onnxslim_node_name(onnxslim_graph_node(g, CHAIN - 1)), "add19999");
  CHECK(onnxslim_graph_consumer_count(g, "a100") == 1);
  CHECK_STR(onnxslim_node_name(onnxslim_graph_producer(g, "a100")), "add100");
  onnxslim_check_report *cr = NULL;
  CHECK_OK(onnxslim_check(&cr, m, 0));
  CHECK(cr && onnxslim_check_report_count(cr) == 0);
  onnxslim_check_report_free(cr);
  onnxslim_model_free(m);
}

int main(int argc, char **argv) {
  t_args(argc, argv);
  RUN(convert_long_chain_in_bounded_memory);
  RUN(build_long_chain_in_bounded_memory);
  return t_done();
}
