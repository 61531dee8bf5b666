/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/* libFuzzer harness: a fixed model whose initializers live in one external
 * data file, and that file fuzzed. Each input is
 *   byte 0: save choices (bits 0-1 conversion target, 2 checksum key,
 *           3 constants too, 4 shape inputs too, 5-6 alignment)
 *   byte 1: size threshold choice
 *   the rest: the data file "data.bin"
 * The model is opened, checked and converted; when its tensors are readable
 * it is saved three ways (one data file, a file per tensor, merged inline),
 * each result is reloaded and its fingerprint must equal the converted
 * model's. Whatever the bytes, nothing may crash, leak or misbehave; a
 * failure must come with an error message. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ftw.h>
#include <sys/stat.h>
#include <unistd.h>

#include <onnxslim.h>

#include "pbuild.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[256];
static char model_path[300], data_path[300];

static void path_in(char *buf, size_t cap, const char *sub) {
  snprintf(buf, cap, "%s/%s", dir, sub);
}

/* ---- the fixed model --------------------------------------------------------- */

static void ext_tensor(pbuf *g, const char *name, int dtype, const int64_t *dims, size_t rank,
                       const char *offset, const char *length) {
  pbuf t = {0};
  for (size_t i = 0; i < rank; i++) pb_int(&t, 1, (uint64_t)dims[i]);
  pb_int(&t, 2, (uint64_t)dtype);
  pb_str(&t, 8, name);
  const char *keys[] = {"location", "offset", "length"};
  const char *vals[] = {"data.bin", offset, length};
  for (int i = 0; i < 3; i++) {
    if (!vals[i]) continue;
    pbuf e = {0};
    pb_str(&e, 1, keys[i]);
    pb_str(&e, 2, vals[i]);
    pb_msg(&t, 13, &e);
  }
  pb_int(&t, 14, 1); /* EXTERNAL */
  pb_msg(g, 5, &t);
}

static void node(pbuf *g, const char *op, const char *a, const char *b, const char *out) {
  pbuf n = {0};
  pb_str(&n, 1, a);
  if (b) pb_str(&n, 1, b);
  pb_str(&n, 2, out);
  pb_str(&n, 4, op);
  pb_msg(g, 1, &n);
}

static void vi(pbuf *g, uint32_t field, const char *name, int elem) {
  pbuf v = {0}, ty = {0}, tt = {0};
  pb_str(&v, 1, name);
  pb_int(&tt, 1, (uint64_t)elem);
  pb_msg(&ty, 1, &tt);
  pb_msg(&v, 2, &ty);
  pb_msg(g, field, &v);
}

/* W FLOAT[16,4] (a Gather table) at 0, H FLOAT16[8] at 256, S INT64[2] (a
 * Reshape shape) at 272, D DOUBLE[2] at 288, C BFLOAT16[4] at 304, T
 * UINT8[16] at 312 with no length (the rest of the file: readable when the
 * file has 328 bytes). */
static pbuf fixed_model(void) {
  pbuf g = {0}, m = {0}, op = {0};
  pb_str(&g, 2, "fuzz_external");
  node(&g, "Gather", "W", "idx", "g");
  node(&g, "Reshape", "g", "S", "r");
  node(&g, "Add", "x", "H", "a");
  node(&g, "Identity", "D", NULL, "d");
  node(&g, "Identity", "T", NULL, "t");
  node(&g, "Identity", "C", NULL, "c");
  int64_t wd[] = {16, 4}, h[] = {8}, two[] = {2}, sixteen[] = {16}, four[] = {4};
  ext_tensor(&g, "W", ONNXSLIM_DTYPE_FLOAT, wd, 2, "0", "256");
  ext_tensor(&g, "H", ONNXSLIM_DTYPE_FLOAT16, h, 1, "256", "16");
  ext_tensor(&g, "S", ONNXSLIM_DTYPE_INT64, two, 1, "272", "16");
  ext_tensor(&g, "D", ONNXSLIM_DTYPE_DOUBLE, two, 1, "288", "16");
  ext_tensor(&g, "C", ONNXSLIM_DTYPE_BFLOAT16, four, 1, "304", "8");
  ext_tensor(&g, "T", ONNXSLIM_DTYPE_UINT8, sixteen, 1, "312", NULL);
  vi(&g, 11, "idx", ONNXSLIM_DTYPE_INT64);
  vi(&g, 11, "x", ONNXSLIM_DTYPE_FLOAT16);
  vi(&g, 12, "r", ONNXSLIM_DTYPE_FLOAT);
  vi(&g, 12, "a", ONNXSLIM_DTYPE_FLOAT16);
  vi(&g, 12, "d", ONNXSLIM_DTYPE_DOUBLE);
  vi(&g, 12, "t", ONNXSLIM_DTYPE_UINT8);
  vi(&g, 12, "c", ONNXSLIM_DTYPE_BFLOAT16);
  pb_int(&m, 1, 8);
  pb_int(&op, 2, 13);
  pb_msg(&m, 8, &op);
  pb_msg(&m, 7, &g);
  return m;
}

static int write_file(const char *path, const void *p, size_t n) {
  FILE *f = fopen(path, "wb");
  if (!f) return -1;
  int ok = (n == 0 || fwrite(p, 1, n, f) == n);
  return fclose(f) == 0 && ok ? 0 : -1;
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st;
  (void)flag;
  (void)ftw;
  return remove(path);
}

static void remove_dir(void) { nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS); }

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  const char *t = getenv("TMPDIR");
  snprintf(dir, sizeof dir, "%s/libonnxslim-fuzz-ext-XXXXXX", t && t[0] ? t : "/tmp");
  if (!mkdtemp(dir)) abort();
  atexit(remove_dir);
  const char *subs[] = {"one", "per", "merged"};
  for (int i = 0; i < 3; i++) {
    char p[300];
    path_in(p, sizeof p, subs[i]);
    if (mkdir(p, 0700) != 0) abort();
  }
  path_in(model_path, sizeof model_path, "model.onnx");
  path_in(data_path, sizeof data_path, "data.bin");
  pbuf m = fixed_model();
  if (write_file(model_path, m.p, m.n) != 0) abort();
  free(m.p);
  return 0;
}

/* ---- one input ------------------------------------------------------------------- */

static void require_error(void) {
  if (onnxslim_error_last()[0] == '\0') abort();
}

/* Reloads a saved model; its fingerprint must be `want`. */
static void reload_same(const char *path, const char *want) {
  onnxslim_model *m = NULL;
  if (onnxslim_model_open(&m, path, NULL) != 0) {
    fprintf(stderr, "reload of %s failed: %s\n", path, onnxslim_error_last());
    abort();
  }
  char fp[33];
  if (onnxslim_fingerprint(fp, ONNXSLIM_FINGERPRINT_SIZE, m) != 0 || strcmp(fp, want) != 0) {
    fprintf(stderr, "%s: fingerprint %s, want %s (%s)\n", path, fp, want, onnxslim_error_last());
    abort();
  }
  onnxslim_check_report *r = NULL;
  if (onnxslim_check(&r, m, 0) != 0) abort();
  onnxslim_check_report_free(r);
  onnxslim_model_free(m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 2) return 0;
  unsigned int choice = data[0], thr = data[1];
  if (write_file(data_path, data + 2, size - 2) != 0) abort();

  onnxslim_model *m = NULL;
  if (onnxslim_model_open(&m, model_path, NULL) != 0) {
    if (m) abort();
    require_error();
    return 0;
  }
  onnxslim_check_report *r = NULL;
  if (onnxslim_check(&r, m, 0) != 0) abort();
  onnxslim_check_report_free(r);

  char fp0[33], fp1[33];
  int readable = onnxslim_fingerprint(fp0, ONNXSLIM_FINGERPRINT_SIZE, m) == 0;
  if (!readable) require_error();

  static const int32_t targets[] = {ONNXSLIM_DTYPE_BFLOAT16, ONNXSLIM_DTYPE_FLOAT16,
                                    ONNXSLIM_DTYPE_FLOAT, 0};
  int32_t to = targets[choice & 3];
  if (to) {
    onnxslim_convert_options co = ONNXSLIM_CONVERT_OPTIONS_INIT;
    co.to = to;
    co.min_size = 0;
    if (onnxslim_convert_model(NULL, m, &co) != 0) require_error();
  }
  if (readable && onnxslim_fingerprint(fp1, ONNXSLIM_FINGERPRINT_SIZE, m) != 0) {
    fprintf(stderr, "fingerprint after conversion failed: %s\n", onnxslim_error_last());
    abort();
  }

  static const uint64_t aligns[] = {1, 64, 4096, 0};
  static const uint64_t thresholds[] = {0, 16, 1024};
  onnxslim_save_options o = ONNXSLIM_SAVE_OPTIONS_INIT;
  o.layout = ONNXSLIM_LAYOUT_ONE_FILE;
  o.flags = ONNXSLIM_SAVE_NO_FSYNC | (choice & 4 ? ONNXSLIM_SAVE_CHECKSUM : 0) |
            (choice & 8 ? ONNXSLIM_SAVE_CONSTANTS : 0) |
            (choice & 16 ? ONNXSLIM_SAVE_FORCE_SHAPE_INPUTS : 0);
  o.align = aligns[(choice >> 5) & 3];
  o.size_threshold = thresholds[thr % 3];

  char one[300], per[300], merged[300];
  path_in(one, sizeof one, "one/model.onnx");
  path_in(per, sizeof per, "per/model.onnx");
  path_in(merged, sizeof merged, "merged/model.onnx");
  const char *paths[] = {one, per, merged};
  const int modes[] = {ONNXSLIM_LAYOUT_ONE_FILE, ONNXSLIM_LAYOUT_PER_TENSOR,
                       ONNXSLIM_LAYOUT_INLINE};
  const unsigned int flags = o.flags;
  for (int i = 0; i < 3; i++) {
    o.layout = modes[i];
    /* the flags that place tensors in data files: not for a merge */
    o.flags = modes[i] == ONNXSLIM_LAYOUT_INLINE ? flags & ONNXSLIM_SAVE_NO_FSYNC : flags;
    onnxslim_save_report *er = NULL;
    int rc = onnxslim_save(&er, m, paths[i], &o);
    if (readable && rc != 0) {
      fprintf(stderr, "save to %s failed: %s\n", paths[i], onnxslim_error_last());
      abort();
    }
    if (rc != 0) {
      if (er) abort();
      require_error();
      continue;
    }
    size_t n = onnxslim_save_report_count(er);
    for (size_t k = 0; k < n; k++) {
      const char *name = onnxslim_save_report_name(er, k);
      const char *loc = onnxslim_save_report_location(er, k);
      int status = onnxslim_save_report_placement(er, k);
      uint64_t off = 0, len = 0;
      if (status < 0 || onnxslim_save_report_offset(er, k, &off) != 0 ||
          onnxslim_save_report_length(er, k, &len) != 0 || !name)
        abort();
      if (status == ONNXSLIM_SAVE_PLACEMENT_EXTERNAL && (!loc || (o.align > 1 && off % o.align)))
        abort();
    }
    onnxslim_save_report_free(er);
    reload_same(paths[i], fp1);
  }
  onnxslim_model_free(m);
  return 0;
}
