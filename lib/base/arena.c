/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/* libonnxslim - arena allocator used by every model. */
#include <stdlib.h>
#include <string.h>

#include "base/base.h"

struct osl_arena_block {
  osl_arena_block *next;
  size_t used, cap;
  max_align_t data[];
};

#define OSL_ARENA_BLOCK (64u * 1024u)

void *onnxslim__arena_alloc(osl_arena *arena, size_t size) {
  size_t need = (size + 15u) & ~(size_t)15u;
  if (need < size) return NULL;
  osl_arena_block *b = arena->head;
  if (!b || b->cap - b->used < need) {
    size_t block = arena->block ? arena->block : OSL_ARENA_BLOCK;
    size_t cap = need > block ? need : block;
    if (cap > SIZE_MAX - sizeof *b) return NULL;
    b = malloc(sizeof *b + cap);
    if (!b) return NULL;
    b->used = 0;
    b->cap = cap;
    arena->total += sizeof *b + cap;
    if (arena->block && arena->block < OSL_ARENA_BLOCK) arena->block *= 2;
    if (arena->head && need > block) {
      /* keep filling the current block; put the big one behind it */
      b->next = arena->head->next;
      arena->head->next = b;
    } else {
      b->next = arena->head;
      arena->head = b;
    }
  }
  void *p = (char *)b->data + b->used;
  b->used += need;
  return p;
}

void *onnxslim__arena_dup(osl_arena *arena, const void *data, size_t size) {
  void *p = onnxslim__arena_alloc(arena, size ? size : 1);
  if (p && size) memcpy(p, data, size);
  return p;
}

char *onnxslim__arena_strndup(osl_arena *arena, const void *data, size_t size) {
  if (size == SIZE_MAX) return NULL;
  char *p = onnxslim__arena_alloc(arena, size + 1);
  if (!p) return NULL;
  if (size) memcpy(p, data, size);
  p[size] = '\0';
  return p;
}

void onnxslim__arena_free(osl_arena *arena) {
  osl_arena_block *b = arena->head;
  while (b) {
    osl_arena_block *next = b->next;
    free(b);
    b = next;
  }
  arena->head = NULL;
  arena->total = 0;
}

char *onnxslim__strndup(const char *s, size_t n) {
  size_t len = 0;
  while (len < n && s[len]) len++;
  char *p = malloc(len + 1);
  if (!p) return NULL;
  memcpy(p, s, len);
  p[len] = '\0';
  return p;
}
