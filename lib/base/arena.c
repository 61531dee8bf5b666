/* libonnxslim - arena allocator and name map used by every model. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

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

uint64_t onnxslim__hash(const char *s) {
  uint64_t h = 1469598103934665603ull; /* FNV-1a */
  for (; *s; s++) {
    h ^= (unsigned char)*s;
    h *= 1099511628211ull;
  }
  return h;
}

osl_map_entry *onnxslim__map_slot(osl_map *map, const char *key) {
  if (!map->cap) return NULL;
  uint64_t h = onnxslim__hash(key);
  size_t mask = map->cap - 1;
  for (size_t i = (size_t)h & mask;; i = (i + 1) & mask) {
    osl_map_entry *e = &map->slots[i];
    if (!e->key || (e->hash == h && strcmp(e->key, key) == 0)) return e;
  }
}

static int map_grow(osl_arena *arena, osl_map *map) {
  size_t cap = map->cap ? map->cap * 2 : 16;
  osl_map_entry *slots = onnxslim__arena_alloc(arena, cap * sizeof *slots);
  if (!slots) return -1;
  memset(slots, 0, cap * sizeof *slots);
  osl_map old = *map;
  map->slots = slots;
  map->cap = cap;
  for (size_t i = 0; i < old.cap; i++) {
    if (!old.slots[i].key) continue;
    size_t mask = cap - 1;
    size_t j = (size_t)old.slots[i].hash & mask;
    while (slots[j].key) j = (j + 1) & mask;
    slots[j] = old.slots[i];
  }
  return 0;
}

osl_map_entry *onnxslim__map_put(osl_arena *arena, osl_map *map, const char *key, void *value) {
  if ((map->len + 1) * 4 > map->cap * 3 && map_grow(arena, map) != 0) return NULL;
  osl_map_entry *e = onnxslim__map_slot(map, key);
  if (!e->key) {
    e->key = key;
    e->hash = onnxslim__hash(key);
    e->value = value;
    map->len++;
  }
  return e;
}

void *onnxslim__map_get(const osl_map *map, const char *key) {
  osl_map_entry *e = onnxslim__map_slot((osl_map *)map, key);
  return e && e->key ? e->value : NULL;
}
