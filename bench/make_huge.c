/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/* Makes a model whose weights are larger than RAM without using the disk
 * space: the tensors are external data in a SPARSE file (ftruncate), so
 * every weight reads as 0.0 and the file takes no blocks.
 *
 * Usage: make_huge OUT.onnx [--tables N] [--rows R] [--dim D]
 *   (defaults: 4 tables of 2097152 x 1024 FP32 = 8 GiB each, 32 GiB in all)
 *
 * Graph (opset 17): ids int64 [n] -> Gather(table_i, ids) for each table ->
 * sum (Add chain) -> + bias [D] -> out float [n, D]. Every table is input 0
 * of a Gather, i.e. what the published recipe converts. The ModelProto is
 * encoded by hand (test/pbuild.h) with the ONNX external-data keys
 * location / offset / length written explicitly, since the library's edit API
 * creates tensors from bytes in memory. The data file is OUT's file name +
 * ".data" next to it; offsets are 4096-aligned. The model is then opened
 * with onnxslim_model_open() to check that the library accepts it. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <onnxslim.h>

#include "../test/pbuild.h"

static void entry(pbuf *t, const char *key, const char *value) {
  pbuf e = {0};
  pb_str(&e, 1, key);
  pb_str(&e, 2, value);
  pb_msg(t, 13, &e); /* TensorProto.external_data */
}

/* An external FLOAT initializer at [offset, offset + length) of `location`. */
static void ext_tensor(pbuf *g, const char *name, const int64_t *dims, int rank,
                       const char *location, uint64_t offset, uint64_t length) {
  pbuf t = {0};
  char num[32];
  for (int i = 0; i < rank; i++) pb_int(&t, 1, (uint64_t)dims[i]); /* dims */
  pb_int(&t, 2, ONNXSLIM_DTYPE_FLOAT);                             /* data_type */
  pb_str(&t, 8, name);                                             /* name */
  entry(&t, "location", location);
  snprintf(num, sizeof num, "%llu", (unsigned long long)offset);
  entry(&t, "offset", num);
  snprintf(num, sizeof num, "%llu", (unsigned long long)length);
  entry(&t, "length", num);
  pb_int(&t, 14, 1); /* data_location = EXTERNAL */
  pb_msg(g, 5, &t);  /* GraphProto.initializer */
}

static void node(pbuf *g, const char *op, const char *name, const char *a, const char *b,
                 const char *out) {
  pbuf n = {0};
  pb_str(&n, 1, a);
  pb_str(&n, 1, b);
  pb_str(&n, 2, out);
  pb_str(&n, 3, name);
  pb_str(&n, 4, op);
  pb_msg(g, 1, &n);
}

/* ValueInfoProto `name`, tensor of elem_type with dims ("n" for -1). */
static void value_info(pbuf *g, uint32_t field, const char *name, int elem, const int64_t *dims,
                       int rank) {
  pbuf vi = {0}, ty = {0}, tt = {0}, sh = {0};
  for (int i = 0; i < rank; i++) {
    pbuf d = {0};
    if (dims[i] < 0) pb_str(&d, 2, "n");
    else pb_int(&d, 1, (uint64_t)dims[i]);
    pb_msg(&sh, 1, &d);
  }
  pb_int(&tt, 1, (uint64_t)elem);
  pb_msg(&tt, 2, &sh);
  pb_msg(&ty, 1, &tt);
  pb_str(&vi, 1, name);
  pb_msg(&vi, 2, &ty);
  pb_msg(g, field, &vi);
}

int main(int argc, char **argv) {
  const char *out = NULL;
  long tables = 4;
  int64_t rows = 2097152, dim = 1024;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--tables") && i + 1 < argc) tables = atol(argv[++i]);
    else if (!strcmp(argv[i], "--rows") && i + 1 < argc) rows = atoll(argv[++i]);
    else if (!strcmp(argv[i], "--dim") && i + 1 < argc) dim = atoll(argv[++i]);
    else if (argv[i][0] != '-' && !out) out = argv[i];
    else out = NULL, i = argc;
  }
  if (!out || tables < 1 || tables > 64 || rows < 1 || dim < 1 || dim % 1024) {
    fprintf(
        stderr,
        "usage: make_huge OUT.onnx [--tables N (1-64)] [--rows R] [--dim D (multiple of 1024)]\n");
    return 2;
  }
  const char *base = strrchr(out, '/') ? strrchr(out, '/') + 1 : out;
  char location[512], data_path[1024];
  snprintf(location, sizeof location, "%s.data", base);
  snprintf(data_path, sizeof data_path, "%s.data", out);

  uint64_t table_bytes = (uint64_t)rows * (uint64_t)dim * 4; /* dim % 1024: 4096-aligned */
  uint64_t bias_off = table_bytes * (uint64_t)tables, bias_len = (uint64_t)dim * 4;
  uint64_t total = bias_off + bias_len;

  pbuf g = {0};
  char sum[64] = "", prev[64] = "";
  for (long i = 0; i < tables; i++) {
    char name[64], gname[64], gout[64];
    snprintf(gname, sizeof gname, "/emb%ld/Gather", i);
    snprintf(name, sizeof name, "emb%ld.weight", i);
    snprintf(gout, sizeof gout, "/emb%ld/Gather_output_0", i);
    node(&g, "Gather", gname, name, "ids", gout);
    if (i == 0) {
      snprintf(sum, sizeof sum, "%s", gout);
    } else {
      snprintf(prev, sizeof prev, "%s", sum);
      snprintf(gname, sizeof gname, "/sum%ld/Add", i);
      snprintf(sum, sizeof sum, "/sum%ld/Add_output_0", i);
      node(&g, "Add", gname, prev, gout, sum);
    }
  }
  node(&g, "Add", "/bias/Add", sum, "bias", "out");
  pb_str(&g, 2, "huge_tables"); /* GraphProto.name */
  for (long i = 0; i < tables; i++) {
    char name[64];
    snprintf(name, sizeof name, "emb%ld.weight", i);
    int64_t dims[2] = {rows, dim};
    ext_tensor(&g, name, dims, 2, location, table_bytes * (uint64_t)i, table_bytes);
  }
  int64_t bdims[1] = {dim};
  ext_tensor(&g, "bias", bdims, 1, location, bias_off, bias_len);
  int64_t in_dims[1] = {-1}, out_dims[2] = {-1, dim};
  value_info(&g, 11, "ids", ONNXSLIM_DTYPE_INT64, in_dims, 1);
  value_info(&g, 12, "out", ONNXSLIM_DTYPE_FLOAT, out_dims, 2);

  pbuf m = {0}, op = {0};
  pb_int(&m, 1, 8); /* ir_version */
  pb_str(&m, 2, "libonnxslim-bench/make_huge");
  pb_msg(&m, 7, &g);
  pb_str(&op, 1, "");
  pb_int(&op, 2, 17);
  pb_msg(&m, 8, &op);

  /* the sparse data file: a size and no blocks */
  int fd = open(data_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0 || ftruncate(fd, (off_t)total) != 0 || close(fd) != 0) {
    fprintf(stderr, "make_huge: %s: %s\n", data_path, strerror(errno));
    return 1;
  }
  FILE *f = fopen(out, "wb");
  if (!f || fwrite(m.p, 1, m.n, f) != m.n || fclose(f) != 0) {
    fprintf(stderr, "make_huge: cannot write %s\n", out);
    return 1;
  }
  free(m.p);

  onnxslim_model *model = NULL;
  if (onnxslim_model_open(&model, out, NULL)) {
    fprintf(stderr, "make_huge: the library refuses %s: %s\n", out, onnxslim_error_last());
    return 1;
  }
  onnxslim_graph *gr = onnxslim_model_graph(model);
  size_t ext = 0;
  for (size_t i = 0; i < onnxslim_graph_initializer_count(gr); i++)
    ext += onnxslim_tensor_storage(onnxslim_graph_initializer(gr, i)) == ONNXSLIM_STORAGE_EXTERNAL;
  onnxslim_model_free(model);
  struct stat st;
  stat(data_path, &st);
  printf(
      "%s: %ld tables of %lld x %lld FP32 + bias, %zu external tensors, data %s: "
      "%llu bytes (%.1f GiB), %llu bytes on disk\n",
      out, tables, (long long)rows, (long long)dim, ext, data_path, (unsigned long long)total,
      total / 1073741824.0, (unsigned long long)st.st_blocks * 512);
  return 0;
}
