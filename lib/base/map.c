/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/* libonnxslim - the one hash map of the library: open addressing, keys
 * borrowed, names (strings) or pointers. Slots come from an arena or, with
 * no arena, from malloc (then onnxslim__map_free releases them). */
#include <stdlib.h>
#include <string.h>

#include "base/base.h"

uint64_t onnxslim__hash(const char *s) {
  uint64_t h = 1469598103934665603ull; /* FNV-1a */
  for (; *s; s++) {
    h ^= (unsigned char)*s;
    h *= 1099511628211ull;
  }
  return h;
}

static uint64_t hash_ptr(const void *p) {
  return ((uint64_t)(uintptr_t)p >> 4) * 0x9E3779B97F4A7C15ull;
}

/* The 32 bits an entry keeps (and probes from). */
static uint32_t fold(uint64_t h) { return (uint32_t)(h ^ (h >> 32)); }

/* The slot of key: its entry, or the empty slot where it would go. */
static osl_map_entry *slot(const osl_map *map, const void *key, uint32_t h, int by_ptr) {
  size_t mask = map->cap - 1;
  for (size_t i = (size_t)h & mask;; i = (i + 1) & mask) {
    osl_map_entry *e = &map->slots[i];
    if (!e->key) return e;
    if (e->hash == h && (by_ptr ? e->key == key : strcmp(e->key, key) == 0)) return e;
  }
}

static int grow(osl_arena *arena, osl_map *map) {
  size_t cap = map->cap ? map->cap * 2 : 16;
  if (cap > SIZE_MAX / sizeof(osl_map_entry)) return -1;
  osl_map_entry *slots =
      arena ? onnxslim__arena_alloc(arena, cap * sizeof *slots) : malloc(cap * sizeof *slots);
  if (!slots) return -1;
  memset(slots, 0, cap * sizeof *slots);
  for (size_t i = 0; i < map->cap; i++) {
    if (!map->slots[i].key) continue;
    size_t j = (size_t)map->slots[i].hash & (cap - 1);
    while (slots[j].key) j = (j + 1) & (cap - 1);
    slots[j] = map->slots[i];
  }
  if (!arena) free(map->slots);
  map->slots = slots;
  map->cap = cap;
  return 0;
}

static int add(osl_arena *arena, osl_map *map, const void *key, uint32_t h, int by_ptr,
               osl_map_entry **entry) {
  osl_map_entry *e = map->cap ? slot(map, key, h, by_ptr) : NULL;
  if (!e || !e->key) {
    if ((map->len + 1) * 4 > map->cap * 3) {
      if (grow(arena, map) != 0) return ONNXSLIM_ENOMEM;
      e = slot(map, key, h, by_ptr);
    }
    *e = (osl_map_entry){key, NULL, h, 0};
    map->len++;
    *entry = e;
    return 1;
  }
  *entry = e;
  return 0;
}

osl_map_entry *onnxslim__map_slot(osl_map *map, const char *key) {
  return map->cap ? slot(map, key, fold(onnxslim__hash(key)), 0) : NULL;
}

osl_map_entry *onnxslim__map_find(const osl_map *map, const char *key) {
  osl_map_entry *e = map->cap ? slot(map, key, fold(onnxslim__hash(key)), 0) : NULL;
  return e && e->key ? e : NULL;
}

osl_map_entry *onnxslim__map_find_ptr(const osl_map *map, const void *key) {
  osl_map_entry *e = map->cap ? slot(map, key, fold(hash_ptr(key)), 1) : NULL;
  return e && e->key ? e : NULL;
}

static void prefetch(const osl_map *map, uint32_t h) {
#if defined(__GNUC__)
  __builtin_prefetch(&map->slots[(size_t)h & (map->cap - 1)], 1);
#else
  (void)map, (void)h;
#endif
}

void onnxslim__map_prefetch(const osl_map *map, const char *key) {
  if (map->cap) prefetch(map, fold(onnxslim__hash(key)));
}

void onnxslim__map_prefetch_ptr(const osl_map *map, const void *key) {
  if (map->cap) prefetch(map, fold(hash_ptr(key)));
}

void *onnxslim__map_get(const osl_map *map, const char *key) {
  osl_map_entry *e = onnxslim__map_find(map, key);
  return e ? e->value : NULL;
}

int onnxslim__map_add(osl_arena *arena, osl_map *map, const char *key, osl_map_entry **entry) {
  return add(arena, map, key, fold(onnxslim__hash(key)), 0, entry);
}

int onnxslim__map_add_ptr(osl_arena *arena, osl_map *map, const void *key, osl_map_entry **entry) {
  return add(arena, map, key, fold(hash_ptr(key)), 1, entry);
}

osl_map_entry *onnxslim__map_put(osl_arena *arena, osl_map *map, const char *key, void *value) {
  osl_map_entry *e;
  int rc = onnxslim__map_add(arena, map, key, &e);
  if (rc < 0) return NULL;
  if (rc) e->value = value;
  return e;
}

/* Slots for a map reserved at once: a large one (2 MiB and more) is
 * aligned to 2 MiB and offered transparent huge pages, so that lookups
 * spread over it cost few TLB misses; released with free(). */
static void *big_slots(size_t bytes) {
  const size_t huge = (size_t)2 << 20;
  if (bytes < huge) return malloc(bytes);
  void *p = onnxslim__os_alloc_aligned(huge, bytes);
  if (!p) return NULL;
  onnxslim__os_advise_huge(p, bytes);
  return p;
}

int onnxslim__map_reserve(osl_arena *arena, osl_map *map, size_t n) {
  if ((n + 1) * 4 <= map->cap * 3) return 0;
  if (map->cap || map->len) { /* a map in use grows as usual */
    while ((n + 1) * 4 > map->cap * 3)
      if (grow(arena, map) != 0) return ONNXSLIM_ENOMEM;
    return 0;
  }
  /* an empty map: its slots allocated once at the size that holds n */
  size_t cap = 16;
  while ((n + 1) * 4 > cap * 3) {
    if (cap > SIZE_MAX / 2 / sizeof(osl_map_entry)) return ONNXSLIM_ENOMEM;
    cap *= 2;
  }
  osl_map_entry *slots =
      arena ? onnxslim__arena_alloc(arena, cap * sizeof *slots) : big_slots(cap * sizeof *slots);
  if (!slots) return ONNXSLIM_ENOMEM;
  memset(slots, 0, cap * sizeof *slots);
  map->slots = slots;
  map->cap = cap;
  return 0;
}

size_t onnxslim__map_cap_for(const osl_map *map, size_t n) {
  size_t cap = map->cap || map->len ? map->cap : 16;
  while (cap && (n + 1) * 4 > cap * 3) cap = cap > SIZE_MAX / 2 ? 0 : cap * 2;
  return cap ? cap : SIZE_MAX;
}

void onnxslim__map_free(osl_map *map) {
  free(map->slots);
  memset(map, 0, sizeof *map);
}
