/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/* Tiny test harness for libonnxslim's C tests.
 *   TEST(name) { CHECK(cond); ... }
 *   int main(int argc, char **argv) { t_args(argc, argv); RUN(name); ... return t_done(); }
 * Prints one line per failed check and ends with "N passed, N failed".
 *
 * Command line of every test program:
 *   PROG               runs every test
 *   PROG NAME...       runs only the tests named (RUN(NAME)); a name no
 *                      RUN has: exit 2 and the list of names on stderr
 *   PROG --list        prints the names, one a line, and runs none
 * (main's own setup and cleanup, around the RUNs, run in every case). */
#ifndef ONNXSLIM_T_H
#define ONNXSLIM_T_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int t_passed, t_failed, t_skipped, t_cur_failed, t_cur_skipped;

#define T_MAX_NAMES 1024
static const char *t_prog = "test";
static char **t_want; /* names asked for on the command line */
static int t_nwant, t_list;
static char t_hit[T_MAX_NAMES];
static const char *t_names[T_MAX_NAMES]; /* every RUN, in order */
static int t_nnames;

static void t_args(int argc, char **argv) {
  if (argc > 0 && argv[0]) t_prog = argv[0];
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--list") == 0) {
      t_list = 1;
    } else if (argv[i][0] == '-') {
      fprintf(stderr, "usage: %s [--list | NAME...]\n", t_prog);
      exit(2);
    }
  }
  if (!t_list) {
    t_want = argv + 1;
    t_nwant = argc > T_MAX_NAMES ? T_MAX_NAMES : argc - 1;
  }
}

/* Records a test name; 1 when it is to run. */
static int t_selected(const char *name) {
  if (t_nnames < T_MAX_NAMES) t_names[t_nnames++] = name;
  if (t_list) return 0;
  if (!t_nwant) return 1;
  int run = 0;
  for (int i = 0; i < t_nwant; i++)
    if (strcmp(t_want[i], name) == 0) run = t_hit[i] = 1;
  return run;
}

#define CHECK(cond)                                                                            \
  do {                                                                                         \
    if (!(cond)) {                                                                             \
      t_cur_failed++;                                                                          \
      fprintf(stderr, "%s:%d: CHECK failed: %s [last error: %s]\n", __FILE__, __LINE__, #cond, \
              onnxslim_error_last());                                                          \
    }                                                                                          \
  } while (0)
#define CHECK_OK(expr) CHECK((expr) == 0)
#define CHECK_STR(a, b) CHECK((a) != NULL && strcmp((a), (b)) == 0)
#define SKIP(why)                          \
  do {                                     \
    fprintf(stderr, "skipped: %s\n", why); \
    t_cur_skipped = 1;                     \
    return;                                \
  } while (0)
/* POSIX_ONLY(why) first in a test that needs what Windows lacks (fork,
 * signals, rlimits, FIFOs, symbolic links): on Windows the test is
 * skipped, with the reason; elsewhere nothing. */
#if defined(_WIN32)
#  define POSIX_ONLY(why) SKIP("POSIX only: " why)
#else
#  define POSIX_ONLY(why) ((void)0)
#endif
#define TEST(name) static void name(void)
#define RUN(name)                          \
  do {                                     \
    if (!t_selected(#name)) break;         \
    t_cur_failed = 0;                      \
    t_cur_skipped = 0;                     \
    name();                                \
    if (t_cur_failed) {                    \
      t_failed++;                          \
      fprintf(stderr, "FAIL %s\n", #name); \
    } else if (t_cur_skipped) {            \
      t_skipped++;                         \
      fprintf(stderr, "SKIP %s\n", #name); \
    } else {                               \
      t_passed++;                          \
      fprintf(stderr, "ok   %s\n", #name); \
    }                                      \
  } while (0)

/* LIBONNXSLIM_TEST_SCALE=K with K > 1 (test/check_long/arm64.sh sets it
 * for its runs under qemu): a test that repeats work many times (for a
 * race) divides its repetitions n by K, to no fewer than min; unset or 1
 * (native runs): n. */
static size_t t_scaled(size_t n, size_t min) {
  const char *e = getenv("LIBONNXSLIM_TEST_SCALE");
  long k = e ? strtol(e, NULL, 10) : 1;
  if (k <= 1) return n;
  size_t s = n / (size_t)k;
  return s < min ? min : s;
}

static int t_done(void) {
  if (t_list) {
    for (int i = 0; i < t_nnames; i++) printf("%s\n", t_names[i]);
    return 0;
  }
  int unknown = 0;
  for (int i = 0; i < t_nwant; i++)
    if (!t_hit[i]) {
      fprintf(stderr, "%s: no test named '%s'\n", t_prog, t_want[i]);
      unknown = 1;
    }
  if (unknown) {
    fprintf(stderr, "%s: its tests are:\n", t_prog);
    for (int i = 0; i < t_nnames; i++) fprintf(stderr, "  %s\n", t_names[i]);
    return 2;
  }
  printf("%d passed, %d failed, %d skipped\n", t_passed, t_failed, t_skipped);
  return t_failed != 0;
}
#endif
