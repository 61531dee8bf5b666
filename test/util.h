/* Small helpers shared by the C tests (inline: a program that does not use
 * one gets no unused-function warning). */
#ifndef ONNXSLIM_TEST_UTIL_H
#define ONNXSLIM_TEST_UTIL_H
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* The whole file at path, malloc'ed (free it); *n receives its size.
 * NULL if it cannot be read. */
static unsigned char *slurp(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  *n = 0;
  if (!f) return NULL;
  long len = -1;
  if (fseek(f, 0, SEEK_END) == 0) len = ftell(f);
  if (len < 0 || fseek(f, 0, SEEK_SET) != 0) {
    fclose(f);
    return NULL;
  }
  unsigned char *p = malloc(len > 0 ? (size_t)len : 1);
  if (p && len > 0 && fread(p, 1, (size_t)len, f) != (size_t)len) {
    free(p);
    p = NULL;
  }
  fclose(f);
  if (p) *n = (size_t)len;
  return p;
}

/* Checks cond (t.h's CHECK) and leaves the test when it is false. */
#define REQUIRE(cond) \
  do {                \
    if (!(cond)) {    \
      CHECK(cond);    \
      return;         \
    }                 \
  } while (0)

/* snprintf into buf, returning buf; PATH(buf, fmt, ...) for arrays. */
static inline const char *P(char *buf, size_t cap, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, cap, fmt, ap);
  va_end(ap);
  return buf;
}
#define PATH(buf, ...) P(buf, sizeof buf, __VA_ARGS__)

/* Writes n bytes at p to path; 0 or -1. */
static inline int write_bytes(const char *path, const void *p, size_t n) {
  FILE *f = fopen(path, "wb");
  if (!f) return -1;
  int ok = fwrite(p, 1, n, f) == n;
  return fclose(f) == 0 && ok ? 0 : -1;
}
#ifdef ONNXSLIM_SAVE_H
/* Entry i of a save report, through the one-field getters; any out pointer
 * may be NULL (outputs are cleared first). 0, or the getters' error code. */
static inline int save_report_entry(const onnxslim_save_report *r, size_t i,
                                    const char **name, int *placement, const char **location,
                                    uint64_t *offset, uint64_t *length) {
  if (name) *name = NULL;
  if (placement) *placement = -1;
  if (location) *location = NULL;
  if (offset) *offset = 0;
  if (length) *length = 0;
  int pl = onnxslim_save_report_placement(r, i);
  if (pl < 0) return pl;
  if (name) *name = onnxslim_save_report_name(r, i);
  if (placement) *placement = pl;
  if (location) *location = onnxslim_save_report_location(r, i);
  uint64_t v = 0;
  if (offset) {
    int rc = onnxslim_save_report_offset(r, i, &v);
    if (rc) return rc;
    *offset = v;
  }
  if (length) {
    int rc = onnxslim_save_report_length(r, i, &v);
    if (rc) return rc;
    *length = v;
  }
  return 0;
}
#endif

#endif
