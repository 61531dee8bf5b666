/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/* Runs onnxslim_check() over every .onnx file under the given
 * directories. By default every model must have zero problems; each problem
 * found is printed as "FAIL path: [code] location: message". With
 * --expect CODE every model must instead report at least one problem of
 * that code, and every problem must have a location that starts with
 * "graph '" or "function" and a non-empty message.
 * With --known FILE (lines "PATH-SUFFIX CODE REASON..."), a model whose
 * path ends with a listed suffix must report problems of that code only
 * (models onnx's own checker rejects too); it counts as valid.
 * Ends with "N passed, N failed".
 * Usage: check_corpus [--known FILE] [--expect CODE] DIR... */
#define _GNU_SOURCE
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <onnxslim.h>

static int passed, failed;
static size_t problems, graphs_checked;
static int expect; /* 0: models must be valid */
static char known[64][256];
static int known_code[64], n_known, known_hits;

/* The code a model is known to report (--known), or 0. */
static int known_for(const char *path) {
  size_t len = strlen(path);
  for (int i = 0; i < n_known; i++) {
    size_t k = strlen(known[i]);
    if (k <= len && strcmp(path + len - k, known[i]) == 0) return known_code[i];
  }
  return 0;
}

/* 1 if problem i is well-formed and, in --expect mode, of the expected code */
static int located(const onnxslim_check_report *r, size_t i) {
  const char *loc = onnxslim_check_report_location(r, i),
             *msg = onnxslim_check_report_message(r, i);
  return loc && msg && msg[0] &&
         (strncmp(loc, "graph '", 7) == 0 || strncmp(loc, "function", 8) == 0);
}

static int visit(const char *path, const struct stat *st, int type, struct FTW *ftw) {
  (void)st;
  (void)ftw;
  size_t len = strlen(path);
  if (type != FTW_F || len < 5 || strcmp(path + len - 5, ".onnx") != 0) return 0;
  onnxslim_model *m = NULL;
  onnxslim_check_report *r = NULL;
  if (onnxslim_model_open(&m, path, NULL) != 0) {
    printf("FAIL %s: cannot load: %s\n", path, onnxslim_error_last());
    failed++;
    return 0;
  }
  if (onnxslim_check(&r, m, 0) != 0) {
    printf("FAIL %s: check failed: %s\n", path, onnxslim_error_last());
    failed++;
  } else {
    size_t n = onnxslim_check_report_count(r), hits = 0, bad = 0;
    int kc = expect ? 0 : known_for(path);
    for (size_t i = 0; kc && i < n; i++)
      if (onnxslim_check_report_code(r, i) != kc || !located(r, i)) kc = -1;
    if (kc > 0 && n > 0) {
      known_hits++;
      n = 0; /* known to be invalid, as expected */
    }
    for (size_t i = 0; i < n; i++) {
      if (!located(r, i)) bad++;
      if (expect && onnxslim_check_report_code(r, i) == expect) hits++;
      if (!expect || !located(r, i))
        printf("FAIL %s: [%d] %s: %s\n", path, onnxslim_check_report_code(r, i),
               onnxslim_check_report_location(r, i), onnxslim_check_report_message(r, i));
    }
    problems += n;
    if (expect && !hits) printf("FAIL %s: no problem of code %d among %zu\n", path, expect, n);
    if (bad || (expect ? !hits : n != 0)) failed++;
    else passed++;
  }
  graphs_checked++;
  onnxslim_check_report_free(r);
  onnxslim_model_free(m);
  return 0;
}

int main(int argc, char **argv) {
  int first = 1;
  if (argc > 2 && strcmp(argv[1], "--known") == 0) {
    FILE *f = fopen(argv[2], "r");
    char line[512];
    while (f && n_known < 64 && fgets(line, sizeof line, f))
      if (line[0] != '#' && sscanf(line, "%255s %d", known[n_known], &known_code[n_known]) == 2)
        n_known++;
    if (f) fclose(f);
    if (!f) {
      fprintf(stderr, "cannot read %s\n", argv[2]);
      return 2;
    }
    first = 3;
  }
  if (argc > first + 1 && strcmp(argv[first], "--expect") == 0) {
    expect = atoi(argv[first + 1]);
    first += 2;
  }
  if (argc <= first || (first > 1 && expect < 0)) {
    fprintf(stderr, "usage: check_corpus [--known FILE] [--expect CODE] DIR...\n");
    return 2;
  }
  for (int i = first; i < argc; i++)
    if (nftw(argv[i], visit, 16, FTW_PHYS) != 0) {
      fprintf(stderr, "cannot walk %s\n", argv[i]);
      failed++;
    }
  if (expect)
    printf("check: %zu models checked, %d report problem code %d, %d do not (%zu problems)\n",
           graphs_checked, passed, expect, failed, problems);
  else
    printf(
        "check: %zu models checked, %d valid, %d with problems (%zu problems), %d known invalid\n",
        graphs_checked, passed, failed, problems, known_hits);
  printf("%d passed, %d failed\n", passed, failed);
  return failed != 0 || passed == 0;
}
