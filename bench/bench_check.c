/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/* Times onnxslim_check() on a model already opened, and how much resident
 * memory it adds (file pages the check maps in, heap it keeps):
 *
 *   bench_check MODEL [REPEAT [EVICT_MB]]
 *
 * EVICT_MB > 0: before each check, EVICT_MB MiB of other memory are
 * written, so that each check starts with the model's structures and the
 * check's maps out of the CPU caches, as a single check of a model does
 * (without it a small model stays in the caches from one check to the
 * next and a large one does not).
 *
 * Prints: open_ms=<open> check_ms=<fastest of REPEAT checks, in CPU time
 * of the process (CLOCK_PROCESS_CPUTIME_ID: the machine may be shared, and
 * time the process waits for a core is not the check's)>
 * wall_ms=<fastest of REPEAT checks in wall time>
 * rss_growth_kb=<VmRSS after the first check - before it>
 * file_growth_kb=<RssFile growth, the mapped file pages> problems=<count>
 * nodes=<main graph nodes> */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <onnxslim.h>

static double clock_ms(clockid_t id) {
  struct timespec ts;
  clock_gettime(id, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static double now_ms(void) { return clock_ms(CLOCK_MONOTONIC); }
static double cpu_ms(void) { return clock_ms(CLOCK_PROCESS_CPUTIME_ID); }

/* A "Key:   N kB" line of /proc/self/status, in KiB. */
static long status_kb(const char *key) {
  FILE *f = fopen("/proc/self/status", "r");
  char line[256];
  long v = -1;
  size_t n = strlen(key);
  while (f && fgets(line, sizeof line, f))
    if (strncmp(line, key, n) == 0 && line[n] == ':') v = atol(line + n + 1);
  if (f) fclose(f);
  return v;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: bench_check MODEL [REPEAT [EVICT_MB]]\n");
    return 2;
  }
  int repeat = argc > 2 ? atoi(argv[2]) : 5;
  if (repeat < 1) repeat = 1;
  size_t evict = argc > 3 ? (size_t)atol(argv[3]) << 20 : 0;
  onnxslim_model *m = NULL;
  double t0 = now_ms();
  if (onnxslim_model_open(&m, argv[1], NULL) != 0) {
    fprintf(stderr, "bench_check: %s\n", onnxslim_error_last());
    return 1;
  }
  double t1 = now_ms();
  size_t nodes = onnxslim_graph_node_count(onnxslim_model_graph(m));
  /* made resident before the resident size is read: not counted as growth */
  unsigned char *junk = evict ? malloc(evict) : NULL;
  if (evict && !junk) {
    fprintf(stderr, "bench_check: no memory for %s MiB\n", argv[3]);
    return 1;
  }
  if (junk) memset(junk, 1, evict);
  long rss0 = status_kb("VmRSS"), file0 = status_kb("RssFile");
  double best = 1e300, best_wall = 1e300;
  size_t problems = 0;
  long rss1 = 0, file1 = 0;
  for (int i = 0; i < repeat; i++) {
    onnxslim_check_report *r = NULL;
    for (size_t k = 0; k < evict; k += 64) junk[k] = (unsigned char)(junk[k] + i + 1);
    double wa = now_ms(), a = cpu_ms();
    if (onnxslim_check(&r, m, 0) != 0) {
      fprintf(stderr, "bench_check: %s\n", onnxslim_error_last());
      return 1;
    }
    double b = cpu_ms(), wb = now_ms();
    if (b - a < best) best = b - a;
    if (wb - wa < best_wall) best_wall = wb - wa;
    problems = onnxslim_check_report_count(r);
    onnxslim_check_report_free(r);
    if (i == 0) {
      rss1 = status_kb("VmRSS");
      file1 = status_kb("RssFile");
    }
  }
  printf(
      "open_ms=%.2f check_ms=%.3f wall_ms=%.3f rss_growth_kb=%ld file_growth_kb=%ld "
      "problems=%zu nodes=%zu\n",
      t1 - t0, best, best_wall, rss1 - rss0, file1 - file0, problems, nodes);
  onnxslim_model_free(m);
  free(junk);
  return 0;
}
