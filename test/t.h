/* Tiny test harness for libonnxslim's C tests.
 *   TEST(name) { CHECK(cond); ... }   and in main: RUN(name); return t_done();
 * Prints one line per failed check and ends with "N passed, N failed". */
#ifndef ONNXSLIM_T_H
#define ONNXSLIM_T_H
#include <stdio.h>
#include <string.h>

static int t_passed, t_failed, t_skipped, t_cur_failed, t_cur_skipped;

#define CHECK(cond)                                                                  \
  do {                                                                               \
    if (!(cond)) {                                                                   \
      t_cur_failed++;                                                                \
      fprintf(stderr, "%s:%d: CHECK failed: %s [last error: %s]\n", __FILE__, __LINE__, \
              #cond, onnxslim_error_last());                                         \
    }                                                                                \
  } while (0)
#define CHECK_OK(expr) CHECK((expr) == 0)
#define CHECK_STR(a, b) CHECK((a) != NULL && strcmp((a), (b)) == 0)
#define SKIP(why)                                      \
  do {                                                 \
    fprintf(stderr, "skipped: %s\n", why);             \
    t_cur_skipped = 1;                                 \
    return;                                            \
  } while (0)
#define TEST(name) static void name(void)
#define RUN(name)                                                     \
  do {                                                                \
    t_cur_failed = 0;                                                 \
    t_cur_skipped = 0;                                                \
    name();                                                           \
    if (t_cur_failed) {                                               \
      t_failed++;                                                     \
      fprintf(stderr, "FAIL %s\n", #name);                            \
    } else if (t_cur_skipped) {                                       \
      t_skipped++;                                                    \
      fprintf(stderr, "SKIP %s\n", #name);                            \
    } else {                                                          \
      t_passed++;                                                     \
      fprintf(stderr, "ok   %s\n", #name);                            \
    }                                                                 \
  } while (0)

static int t_done(void) {
  printf("%d passed, %d failed, %d skipped\n", t_passed, t_failed, t_skipped);
  return t_failed != 0;
}
#endif
