/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/* libFuzzer harness: every pass of the library on a model as loaded (the
 * check, toposort, remove_unused, every conversion and quantization form,
 * Cast insertions, the fingerprint, saves in every layout; see
 * passes_core.h), each on a fresh copy. fuzz_load runs its edits after
 * remove_unused, which drops the odd nodes (no outputs, empty names) that
 * crashed the conversions; here nothing is cleaned first. Each input is
 *   bytes 0-3: the options (passes_core.h, pc_run())
 *   the rest:  the model
 * Nothing may crash, leak or misbehave; a pass that fails must say why and
 * leave the model unchanged; one that succeeds must leave a model that
 * serializes and loads again. The diff (onnxslim_diff) compares the model
 * with a fresh load of itself (equal) and with a converted copy. */
#define _GNU_SOURCE
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "passes_core.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[256];

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st;
  (void)flag;
  return ftw->level > 0 ? remove(path) : 0;
}
static int rm_all(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st;
  (void)flag;
  (void)ftw;
  return remove(path);
}
static void remove_dir(void) { nftw(dir, rm_all, 16, FTW_DEPTH | FTW_PHYS); }

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  const char *t = getenv("TMPDIR");
  snprintf(dir, sizeof dir, "%s/libonnxslim-fuzz-passes-XXXXXX", t && t[0] ? t : "/tmp");
  if (!mkdtemp(dir)) abort();
  atexit(remove_dir);
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < PC_OPT_BYTES) return 0;
  pc_result r;
  int rc = pc_run(&r, data, data + PC_OPT_BYTES, size - PC_OPT_BYTES, dir);
  nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
  if (rc) {
    fprintf(stderr, "fuzz_passes: %s\n", r.why);
    abort();
  }
  return 0;
}
