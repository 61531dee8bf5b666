/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/* Nodes without outputs or inputs, or with empty names (issue [attack],
 * second campaign, point 1): a Gather with no outputs crashed every
 * conversion that casts a table's rows back (strlen(NULL) while naming the
 * Cast). Each pass must refuse such a model with a message, unchanged, or
 * handle it; never crash. The last test runs every pass (test/fuzz/
 * passes_core.h, the fuzz_passes harness's core) on each seed of
 * test/fuzz/corpus-passes: a small model with every kind of tensor the
 * passes touch, and its variants with one node made odd (no outputs,
 * outputs "", no inputs, inputs "", first input ""), at opsets 13 and 21.
 * Run from the repository root. */
#define _GNU_SOURCE
#include <dirent.h>
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <onnxslim.h>

#include "fuzz/passes_core.h"
#include "pbuild.h"
#include "t.h"
#include "util.h"

/* A Gather reading table T [6,4] FLOAT with indices idx, and `outputs`
 * (NULL: none) as its outputs; graph output y; opset 13. The issue's
 * model: helper.make_node("Gather", ["T", "idx"], []). */
static pbuf gather_model(const char *const *outputs, size_t n_out) {
  pbuf m = {0}, g = {0}, node = {0}, t = {0}, op = {0};
  pb_str(&node, 1, "T");
  pb_str(&node, 1, "idx");
  for (size_t i = 0; i < n_out; i++) pb_str(&node, 2, outputs[i]);
  pb_str(&node, 4, "Gather");
  pb_msg(&g, 1, &node);
  pb_str(&g, 2, "g");
  pb_int(&t, 1, 6);
  pb_int(&t, 1, 4);
  pb_int(&t, 2, ONNXSLIM_DTYPE_FLOAT);
  pb_str(&t, 8, "T");
  float v[24];
  for (int i = 0; i < 24; i++) v[i] = (float)i + 0.5f;
  pb_bytes(&t, 9, v, sizeof v);
  pb_msg(&g, 5, &t);
  const char *vis[2] = {"idx", "y"};
  const int elems[2] = {ONNXSLIM_DTYPE_INT64, ONNXSLIM_DTYPE_FLOAT};
  for (int i = 0; i < 2; i++) {
    pbuf vi = {0}, ty = {0}, tt = {0};
    pb_str(&vi, 1, vis[i]);
    pb_int(&tt, 1, (uint64_t)elems[i]);
    pb_msg(&ty, 1, &tt);
    pb_msg(&vi, 2, &ty);
    pb_msg(&g, i == 0 ? 11 : 12, &vi);
  }
  pb_int(&m, 1, 8);
  pb_int(&op, 2, 13);
  pb_msg(&m, 8, &op);
  pb_msg(&m, 7, &g);
  return m;
}

/* Every conversion that casts the table back refuses the model with
 * ONNXSLIM_EMODEL and a message naming the table and the missing output,
 * and leaves it byte for byte as it was. */
static void refused_unchanged(const char *const *outputs, size_t n_out, const char *says) {
  pbuf b = gather_model(outputs, n_out);
  onnxslim_model *m = NULL;
  REQUIRE(onnxslim_model_from_buffer(&m, b.p, b.n, ONNXSLIM_BORROW, NULL) == 0);
  int32_t tos[2] = {ONNXSLIM_DTYPE_BFLOAT16, ONNXSLIM_DTYPE_FLOAT16};
  for (int i = 0; i < 2; i++) {
    onnxslim_convert_report *rep = NULL;
    CHECK(onnxslim_convert_gather_tables(&rep, m, tos[i], 0, 0) == ONNXSLIM_EMODEL);
    CHECK(rep == NULL);
    CHECK(strstr(onnxslim_error_last(), "'T'") && strstr(onnxslim_error_last(), says));
    onnxslim_convert_options o = ONNXSLIM_CONVERT_OPTIONS_INIT; /* the CLI's --to */
    o.to = tos[i];
    CHECK(onnxslim_convert_model(NULL, m, &o) == ONNXSLIM_EMODEL);
    CHECK(strstr(onnxslim_error_last(), says) != NULL);
    size_t n;
    uint8_t *now = pc_bytes(m, &n);
    CHECK(now && n == b.n && memcmp(now, b.p, n) == 0);
    free(now);
  }
  /* the other policies do not cast a Gather's output: fine */
  onnxslim_convert_options o = ONNXSLIM_CONVERT_OPTIONS_INIT;
  o.to = ONNXSLIM_DTYPE_FLOAT16;
  o.policy = ONNXSLIM_CONVERT_POLICY_CAST_BEFORE;
  CHECK_OK(onnxslim_convert_model(NULL, m, &o));
  onnxslim_model_free(m);
  free(b.p);
}

TEST(gather_without_outputs_refused) { refused_unchanged(NULL, 0, "has no output"); }

TEST(gather_with_empty_output_refused) {
  const char *out[1] = {""};
  refused_unchanged(out, 1, "has an empty output name");
}

/* INT8/INT4: a table whose Gather has no named output is not one the
 * quantization rewrites (as a Gather with two outputs): the selection
 * "op:Gather:0" finds nothing, and nothing changes. */
TEST(quantize_gather_without_outputs) {
  const char *empty[1] = {""};
  for (int variant = 0; variant < 2; variant++) {
    pbuf b = variant ? gather_model(empty, 1) : gather_model(NULL, 0);
    onnxslim_model *m = NULL;
    REQUIRE(onnxslim_model_from_buffer(&m, b.p, b.n, ONNXSLIM_BORROW, NULL) == 0);
    static const char *const sel[] = {"op:Gather:0"};
    onnxslim_quant_options o = ONNXSLIM_QUANT_OPTIONS_INIT;
    o.to = ONNXSLIM_DTYPE_INT8;
    o.select = sel;
    o.n_select = 1;
    int rc = onnxslim_quantize(NULL, m, &o);
    CHECK(rc < 0 && onnxslim_error_last()[0]);
    size_t n;
    uint8_t *now = pc_bytes(m, &n);
    CHECK(now && n == b.n && memcmp(now, b.p, n) == 0);
    free(now);
    onnxslim_model_free(m);
    free(b.p);
  }
}

/* Insertions on the empty name: it names no value (it marks an omitted
 * input or output), refused. */
TEST(insert_on_empty_name) {
  const char *empty[1] = {""};
  pbuf b = gather_model(empty, 1);
  onnxslim_model *m = NULL;
  REQUIRE(onnxslim_model_from_buffer(&m, b.p, b.n, ONNXSLIM_BORROW, NULL) == 0);
  onnxslim_graph *g = onnxslim_model_graph(m);
  CHECK(onnxslim_insert_cast_after(g, "", ONNXSLIM_DTYPE_FLOAT, NULL, 0, NULL, NULL) ==
        ONNXSLIM_ENOTFOUND);
  CHECK(strstr(onnxslim_error_last(), "empty name") != NULL);
  CHECK(onnxslim_insert_after(g, "", "Identity", NULL, NULL, 0, NULL, NULL) == ONNXSLIM_ENOTFOUND);
  onnxslim_model_free(m);
  free(b.p);
}

static char dir[256];

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st;
  (void)flag;
  return ftw->level > 0 ? remove(path) : 0;
}

/* Every pass on every seed of test/fuzz/corpus-passes, with the seed's own
 * options and three more sets. */
TEST(every_pass_on_odd_nodes) {
  const char *cdir = "test/fuzz/corpus-passes";
  DIR *d = opendir(cdir);
  REQUIRE(d != NULL);
  struct dirent *e;
  int files = 0, odd = 0;
  static const uint8_t sets[3][PC_OPT_BYTES] = {
      {0x00, 0x00, 0x00, 0x00}, {0xff, 0xff, 0xff, 0xff}, {0x5a, 0xa5, 0x3c, 0xc3}};
  while ((e = readdir(d)) != NULL) {
    size_t len = strlen(e->d_name);
    if (len < 5 || strcmp(e->d_name + len - 4, ".bin") != 0) continue;
    char path[512];
    size_t n;
    uint8_t *data = slurp(PATH(path, "%s/%s", cdir, e->d_name), &n);
    if (!data || n < PC_OPT_BYTES) {
      CHECK(!"a seed shorter than its options");
      free(data);
      continue;
    }
    files++;
    odd += strstr(e->d_name, "_no_") || strstr(e->d_name, "_empty_") ||
           strstr(e->d_name, "gather_no_outputs");
    for (int s = -1; s < 3; s++) {
      pc_result r;
      int rc = pc_run(&r, s < 0 ? data : sets[s], data + PC_OPT_BYTES, n - PC_OPT_BYTES, dir);
      nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
      if (rc) fprintf(stderr, "%s, options %d: %s\n", e->d_name, s, r.why);
      CHECK(rc == 0);
      CHECK(r.passes >= 20); /* the model loaded and every pass ran */
    }
    free(data);
  }
  closedir(d);
  CHECK(files >= 70);
  CHECK(odd >= 60);
}

static int rm_all(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st;
  (void)flag;
  (void)ftw;
  return remove(path);
}

int main(int argc, char **argv) {
  t_args(argc, argv);
  const char *t = getenv("TMPDIR");
  snprintf(dir, sizeof dir, "%s/libonnxslim-nameless-XXXXXX", t && t[0] ? t : "/tmp");
  if (!mkdtemp(dir)) {
    perror("mkdtemp");
    return 1;
  }
  RUN(gather_without_outputs_refused);
  RUN(gather_with_empty_output_refused);
  RUN(quantize_gather_without_outputs);
  RUN(insert_on_empty_name);
  RUN(every_pass_on_odd_nodes);
  nftw(dir, rm_all, 16, FTW_DEPTH | FTW_PHYS);
  return t_done();
}
