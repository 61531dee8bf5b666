/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/* The published recipe through the library API, phase by phase, for
 * bench/run.sh: open, convert every Gather table (input 0 of a Gather) to
 * BF16 by truncation with onnxslim_convert_gather_tables(), save as a
 * single file (onnxslim_save) or with every tensor in one external
 * data file (onnxslim_save, threshold 0), optionally open the
 * result again.
 *
 * Usage: recipe_lib IN OUT [--external] [--min-size BYTES] [--no-convert]
 *                   [--no-fsync] [--reload] [--allow-large] [--also-single-file OUT2]
 *
 * --also-single-file: after OUT, the same converted model saved again as
 * one file OUT2 (the CLI's --also-single-file; phase "save2").
 *
 * Prints one line of key=value figures: seconds per phase, VmHWM (peak
 * resident), VmRSS, RssAnon (heap) and RssFile (mapped file pages) after
 * each phase in KiB, the number of converted
 * tensors and their bytes before/after, bytes copied by the kernel.
 * Exit status: 0 ok, 1 library error (message on stderr), 3 conversion of
 * these tensors unsupported by this library version (ONNXSLIM_EUNSUPPORTED). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <onnxslim.h>

static long status_kb(const char *key) {
  FILE *f = fopen("/proc/self/status", "r");
  char line[256];
  long kb = -1;
  size_t k = strlen(key);
  while (f && fgets(line, sizeof line, f))
    if (!strncmp(line, key, k) && line[k] == ':') {
      kb = atol(line + k + 1);
      break;
    }
  if (f) fclose(f);
  return kb;
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int fail(const char *what, int rc) {
  fprintf(stderr, "recipe_lib: %s: %s\n", what, onnxslim_error_last());
  return rc == ONNXSLIM_EUNSUPPORTED ? 3 : 1;
}

int main(int argc, char **argv) {
  const char *in = NULL, *out = NULL, *out2 = NULL;
  int external = 0, convert = 1, reload = 0, nofsync = 0, large = 0;
  uint64_t min_size = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--external")) external = 1;
    else if (!strcmp(argv[i], "--no-convert")) convert = 0;
    else if (!strcmp(argv[i], "--reload")) reload = 1;
    else if (!strcmp(argv[i], "--no-fsync")) nofsync = 1;
    else if (!strcmp(argv[i], "--allow-large")) large = 1;
    else if (!strcmp(argv[i], "--also-single-file") && i + 1 < argc) out2 = argv[++i];
    else if (!strcmp(argv[i], "--min-size") && i + 1 < argc)
      min_size = strtoull(argv[++i], NULL, 10);
    else if (argv[i][0] != '-' && !in) in = argv[i];
    else if (argv[i][0] != '-' && !out) out = argv[i];
    else in = out = NULL, i = argc;
  }
  if (!in || !out) {
    fprintf(stderr,
            "usage: recipe_lib IN OUT [--external] [--min-size BYTES] [--no-convert] "
            "[--no-fsync] [--reload] [--allow-large] [--also-single-file OUT2]\n");
    return 2;
  }
  double t0 = now();
  onnxslim_model *m = NULL;
  int rc = onnxslim_model_open(&m, in, NULL);
  if (rc) return fail(in, rc);
  double t1 = now();
  long hwm_open = status_kb("VmHWM"), rss_open = status_kb("VmRSS");
  long anon_open = status_kb("RssAnon"), file_open = status_kb("RssFile");

  onnxslim_convert_report *rep = NULL;
  if (convert) {
    rc = onnxslim_convert_gather_tables(&rep, m, ONNXSLIM_DTYPE_BFLOAT16, min_size,
                                        ONNXSLIM_CONVERT_TRUNCATE);
    if (rc) {
      int r = fail("convert", rc);
      onnxslim_model_free(m);
      return r;
    }
  }
  double t2 = now();
  long hwm_conv = status_kb("VmHWM"), rss_conv = status_kb("VmRSS");
  long anon_conv = status_kb("RssAnon"), file_conv = status_kb("RssFile");
  uint64_t before = 0, after = 0;
  size_t nconv = onnxslim_convert_report_count(rep);
  for (size_t i = 0; i < nconv; i++) {
    uint64_t b = 0, a = 0;
    onnxslim_convert_report_bytes_before(rep, i, &b);
    onnxslim_convert_report_bytes_after(rep, i, &a);
    before += b;
    after += a;
  }
  onnxslim_convert_report_free(rep);

  uint64_t kcopied = 0;
  if (external) {
    onnxslim_save_options eo = ONNXSLIM_SAVE_OPTIONS_INIT;
    eo.layout = ONNXSLIM_LAYOUT_ONE_FILE;
    eo.size_threshold = 0;
    if (nofsync) eo.flags |= ONNXSLIM_SAVE_NO_FSYNC;
    if (large) eo.flags |= ONNXSLIM_SAVE_ALLOW_LARGE;
    onnxslim_save_report *er = NULL;
    rc = onnxslim_save(&er, m, out, &eo);
    kcopied = onnxslim_save_report_kernel_copied(er);
    onnxslim_save_report_free(er);
  } else {
    onnxslim_save_options so = ONNXSLIM_SAVE_OPTIONS_INIT;
    if (nofsync) so.flags |= ONNXSLIM_SAVE_NO_FSYNC;
    rc = onnxslim_save(NULL, m, out, &so);
  }
  if (rc) {
    int r = fail(out, rc);
    onnxslim_model_free(m);
    return r;
  }
  double t3 = now();
  long hwm_save = status_kb("VmHWM"), rss_save = status_kb("VmRSS");
  long anon_save = status_kb("RssAnon"), file_save = status_kb("RssFile");
  if (out2) {
    onnxslim_save_options so = ONNXSLIM_SAVE_OPTIONS_INIT;
    so.layout = ONNXSLIM_LAYOUT_INLINE;
    if (nofsync) so.flags |= ONNXSLIM_SAVE_NO_FSYNC;
    if (large) so.flags |= ONNXSLIM_SAVE_ALLOW_LARGE;
    rc = onnxslim_save(NULL, m, out2, &so);
    if (rc) {
      int r = fail(out2, rc);
      onnxslim_model_free(m);
      return r;
    }
  }
  double t3b = now();
  long hwm_save2 = status_kb("VmHWM"), anon_save2 = status_kb("RssAnon");
  long file_save2 = status_kb("RssFile");
  onnxslim_model_free(m);

  double t4 = t3b, t5 = t3b;
  size_t bf16 = 0, ext = 0, ninit = 0;
  if (reload) {
    t4 = now();
    onnxslim_model *r = NULL;
    rc = onnxslim_model_open(&r, out, NULL);
    if (rc) return fail("reload", rc);
    onnxslim_graph *g = onnxslim_model_graph(r);
    ninit = onnxslim_graph_initializer_count(g);
    for (size_t i = 0; i < ninit; i++) {
      onnxslim_tensor *t = onnxslim_graph_initializer(g, i);
      bf16 += onnxslim_tensor_dtype(t) == ONNXSLIM_DTYPE_BFLOAT16;
      ext += onnxslim_tensor_storage(t) == ONNXSLIM_STORAGE_EXTERNAL;
    }
    onnxslim_model_free(r);
    t5 = now();
  }
  printf(
      "open_s=%.3f convert_s=%.3f save_s=%.3f reload_s=%.3f total_s=%.3f "
      "hwm_open_kb=%ld hwm_convert_kb=%ld hwm_save_kb=%ld hwm_kb=%ld "
      "rss_open_kb=%ld rss_convert_kb=%ld rss_save_kb=%ld "
      "anon_open_kb=%ld anon_convert_kb=%ld anon_save_kb=%ld "
      "file_open_kb=%ld file_convert_kb=%ld file_save_kb=%ld "
      "converted=%zu bytes_before=%llu bytes_after=%llu kernel_copied=%llu "
      "save2_s=%.3f hwm_save2_kb=%ld anon_save2_kb=%ld file_save2_kb=%ld",
      t1 - t0, t2 - t1, t3 - t2, t5 - t4, t5 - t0, hwm_open, hwm_conv, hwm_save, status_kb("VmHWM"),
      rss_open, rss_conv, rss_save, anon_open, anon_conv, anon_save, file_open, file_conv,
      file_save, nconv, (unsigned long long)before, (unsigned long long)after,
      (unsigned long long)kcopied, t3b - t3, hwm_save2, anon_save2, file_save2);
  if (reload)
    printf(" reloaded_initializers=%zu reloaded_bf16=%zu reloaded_external=%zu", ninit, bf16, ext);
  printf("\n");
  return 0;
}
