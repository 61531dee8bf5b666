/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/* Every file given must be refused at load, from a file and from a buffer,
 * with a parse/limit/model error and a message that says where.
 * Usage: bad_inputs FILE... */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <onnxslim.h>

#include "util.h"

static int refused(int rc, onnxslim_model *m) {
  const char *msg = onnxslim_error_last();
  return m == NULL && (rc == ONNXSLIM_EPARSE || rc == ONNXSLIM_ELIMIT || rc == ONNXSLIM_EMODEL) &&
         onnxslim_error_last_code() == rc &&
         (strstr(msg, " in ") != NULL || strstr(msg, "no graph") != NULL);
}

int main(int argc, char **argv) {
  int passed = 0, failed = 0;
  for (int i = 1; i < argc; i++) {
    onnxslim_model *m = (onnxslim_model *)&m;
    onnxslim_error_clear();
    int rc = onnxslim_model_open(&m, argv[i], NULL);
    int ok = refused(rc, m);
    char first[1024];
    snprintf(first, sizeof first, "%s", onnxslim_error_last());
    size_t n = 0;
    unsigned char *bytes = slurp(argv[i], &n);
    onnxslim_model *mb = (onnxslim_model *)&mb;
    onnxslim_error_clear();
    int rcb = onnxslim_model_from_buffer(&mb, bytes, n, ONNXSLIM_COPY, NULL);
    ok = ok && refused(rcb, mb) && rcb == rc && strcmp(first, onnxslim_error_last()) == 0;
    free(bytes);
    if (ok) {
      passed++;
      printf("refused %s: %s\n", argv[i], first);
    } else {
      failed++;
      printf("FAIL %s: rc=%d/%d message '%s'\n", argv[i], rc, rcb, first);
      if (rc == 0) onnxslim_model_free(m);
      if (rcb == 0) onnxslim_model_free(mb);
    }
  }
  printf("%d passed, %d failed\n", passed, failed);
  return failed != 0 || passed == 0;
}
