/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/* Hand-written protobuf encoding for tests: builds messages byte by byte so
 * tests can make models the bundled onnx.proto cannot express (unknown
 * fields, newer data types) and precisely broken inputs. */
#ifndef ONNXSLIM_PBUILD_H
#define ONNXSLIM_PBUILD_H
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  uint8_t *p;
  size_t n, cap;
} pbuf;

static inline void pb_put(pbuf *b, const void *data, size_t n) {
  if (b->n + n > b->cap) {
    b->cap = (b->n + n) * 2 + 64;
    b->p = realloc(b->p, b->cap);
    if (!b->p) abort();
  }
  if (n) memcpy(b->p + b->n, data, n);
  b->n += n;
}
static inline void pb_varint(pbuf *b, uint64_t v) {
  uint8_t t[10];
  size_t k = 0;
  do {
    t[k] = (uint8_t)(v & 0x7f);
    v >>= 7;
    if (v) t[k] |= 0x80;
    k++;
  } while (v);
  pb_put(b, t, k);
}
static inline void pb_tag(pbuf *b, uint32_t field, unsigned wt) {
  pb_varint(b, ((uint64_t)field << 3) | wt);
}
static inline void pb_int(pbuf *b, uint32_t field, uint64_t v) {
  pb_tag(b, field, 0);
  pb_varint(b, v);
}
static inline void pb_bytes(pbuf *b, uint32_t field, const void *data, size_t n) {
  pb_tag(b, field, 2);
  pb_varint(b, n);
  pb_put(b, data, n);
}
static inline void pb_str(pbuf *b, uint32_t field, const char *s) {
  pb_bytes(b, field, s, strlen(s));
}
/* Appends sub as a length-delimited field and frees it. */
static inline void pb_msg(pbuf *b, uint32_t field, pbuf *sub) {
  pb_bytes(b, field, sub->p, sub->n);
  free(sub->p);
  memset(sub, 0, sizeof *sub);
}
/* Finds needle in haystack; returns offset or -1. */
static inline long pb_find(const void *hay, size_t hn, const void *needle, size_t nn) {
  const uint8_t *h = hay;
  if (nn > hn) return -1;
  for (size_t i = 0; i + nn <= hn; i++)
    if (memcmp(h + i, needle, nn) == 0) return (long)i;
  return -1;
}
#endif
