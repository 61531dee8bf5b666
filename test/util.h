/* Small helpers shared by the C tests. */
#ifndef ONNXSLIM_TEST_UTIL_H
#define ONNXSLIM_TEST_UTIL_H
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
#endif
