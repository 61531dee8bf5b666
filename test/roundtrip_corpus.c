/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/* Walks directories of .onnx files: each model is loaded from its file and
 * from a buffer, saved to a buffer and to a file, and every output must be
 * byte-identical to the input. Usage: roundtrip_corpus OUTDIR DIR... */
#define _GNU_SOURCE
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <onnxslim.h>

#include "util.h"

static int passed, failed;
static const char *outdir;

static const char *check_one(const char *path) {
  static char why[1200];
  size_t n, n2;
  unsigned char *in = slurp(path, &n), *out = NULL, *again = NULL;
  onnxslim_model *mf = NULL, *mb = NULL;
  const char *res = NULL;
  char tmp[4200];
  if (!in) return "cannot read";
  if (onnxslim_model_open(&mf, path, NULL) != 0) {
    snprintf(why, sizeof why, "open: %s", onnxslim_error_last());
    res = why;
    goto done;
  }
  if (onnxslim_model_from_buffer(&mb, in, n, ONNXSLIM_BORROW, NULL) != 0) {
    snprintf(why, sizeof why, "from_buffer: %s", onnxslim_error_last());
    res = why;
    goto done;
  }
  out = malloc(n ? n : 1);
  if (onnxslim_save_buffer(mb, out, n, &n2) != 0 || n2 != n || memcmp(out, in, n) != 0) {
    res = "buffer round trip differs";
    goto done;
  }
  snprintf(tmp, sizeof tmp, "%s/roundtrip.onnx", outdir);
  onnxslim_save_options so = ONNXSLIM_SAVE_OPTIONS_INIT;
  so.flags = ONNXSLIM_SAVE_NO_FSYNC;
  if (onnxslim_save(NULL, mf, tmp, &so) != 0) {
    snprintf(why, sizeof why, "save: %s", onnxslim_error_last());
    res = why;
    goto done;
  }
  again = slurp(tmp, &n2);
  if (!again || n2 != n || memcmp(again, in, n) != 0) res = "file round trip differs";
done:
  onnxslim_model_free(mf);
  onnxslim_model_free(mb);
  free(in);
  free(out);
  free(again);
  return res;
}

static int visit(const char *path, const struct stat *st, int type, struct FTW *ftw) {
  (void)st;
  (void)ftw;
  size_t len = strlen(path);
  if (type != FTW_F || len < 5 || strcmp(path + len - 5, ".onnx") != 0) return 0;
  const char *why = check_one(path);
  if (why) {
    failed++;
    printf("FAIL %s: %s\n", path, why);
  } else {
    passed++;
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: roundtrip_corpus OUTDIR DIR...\n");
    return 2;
  }
  outdir = argv[1];
  for (int i = 2; i < argc; i++)
    if (nftw(argv[i], visit, 16, FTW_PHYS) != 0) {
      fprintf(stderr, "cannot walk %s\n", argv[i]);
      failed++;
    }
  printf("round trip: %d models byte-identical (file and buffer), %d differ\n", passed, failed);
  printf("%d passed, %d failed\n", passed, failed);
  return failed != 0 || passed == 0;
}
