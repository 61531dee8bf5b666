/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - graphs: element access and name indexes (node by name,
 * initializer, value info, producer and consumers of a value).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "onnx.pb.h"

#include "handles.h"

#define G_OR(ret)                                 \
  osl_msg *g = OSL_CHECK(graph, onnx_GraphProto); \
  if (!g) return ret

const char *onnxslim_graph_name(const onnxslim_graph *graph) {
  G_OR(NULL);
  return onnxslim__msg_str(g, onnx_GraphProto_name_tag);
}
const char *onnxslim_graph_doc_string(const onnxslim_graph *graph) {
  G_OR(NULL);
  return onnxslim__msg_str(g, onnx_GraphProto_doc_string_tag);
}
onnxslim_model *onnxslim_graph_model(const onnxslim_graph *graph) {
  G_OR(NULL);
  return g->model;
}
onnxslim_node *onnxslim_graph_parent_node(const onnxslim_graph *graph) {
  G_OR(NULL);
  osl_msg *a = g->parent;
  if (a && a->def == &osl_def_onnx_AttributeProto && a->parent &&
      a->parent->def == &osl_def_onnx_NodeProto)
    return (onnxslim_node *)a->parent;
  onnxslim__err(ONNXSLIM_ENOTFOUND, "%s: a main graph has no parent node", __func__);
  return NULL;
}

#define G_LIST(fname, tag, type)                                            \
  size_t onnxslim_graph_##fname##_count(const onnxslim_graph *graph) {      \
    G_OR(0);                                                                \
    return onnxslim__msg_count(g, tag);                                     \
  }                                                                         \
  type *onnxslim_graph_##fname(const onnxslim_graph *graph, size_t index) { \
    G_OR(NULL);                                                             \
    return (type *)onnxslim__msg_sub_at(g, tag, index);                     \
  }
G_LIST(node, onnx_GraphProto_node_tag, onnxslim_node)
G_LIST(input, onnx_GraphProto_input_tag, onnxslim_value_info)
G_LIST(output, onnx_GraphProto_output_tag, onnxslim_value_info)
G_LIST(value_info, onnx_GraphProto_value_info_tag, onnxslim_value_info)
G_LIST(initializer, onnx_GraphProto_initializer_tag, onnxslim_tensor)
G_LIST(sparse_initializer, onnx_GraphProto_sparse_initializer_tag, onnxslim_sparse_tensor)

/* ---- index ---------------------------------------------------------------- *
 * Maps from names to the items of the graph holding them. A name's holders
 * are kept in graph order (the first is the one lookups return): one message
 * stored directly, the common case, or, tagged with the low bit, a list.
 *
 * The index follows the edits instead of being rebuilt after each: before
 * an edit that may change what an item contributes (its names, inputs,
 * outputs, the values its subgraphs capture), the item is unlinked and put
 * on the stale list; the next lookup links the stale items again. So a batch
 * of edits costs what the items it touches contribute, and the index's
 * memory (its own arena) is freed when it is dropped. */

typedef struct {
  size_t count, cap;
  osl_msg *m[];
} osl_holders;

typedef int (*osl_cmp)(const osl_msg *a, const osl_msg *b);

/* One name an item holds in one of the index's maps. */
typedef struct {
  osl_map *map;
  const char *key;
} osl_link;
typedef struct {
  osl_link *v;
  size_t n, cap;
} osl_links;

typedef struct osl_gindex {
  osl_arena arena; /* the holder lists and the stale list; freed with the index */
  osl_msg *g;
  struct osl_gindex *prev, *next; /* the model's live indexes */
  /* the maps' slots come from malloc, sized once when the index is built
   * (a large one on huge pages): grown in the arena, every smaller slot
   * array stayed allocated beside the last (infer of the 1M chain: 1271
   * -> 1124 MiB peak) */
  osl_map nodes;     /* node name -> NodeProto */
  osl_map producer;  /* value -> NodeProto */
  osl_map inits;     /* initializer name -> TensorProto */
  osl_map vinfo;     /* value -> ValueInfoProto (inputs, outputs, value_info) */
  osl_map consumers; /* value -> NodeProto */
  osl_msg **stale;   /* items to link on next use */
  size_t nstale, capstale;
  /* An item edited in place stays in the maps while it is stale: what it
   * held before its first edit is kept here (snap: item -> 1 + the index
   * of its first link in links, num: their count), and the next use adds
   * and removes only the difference. So an edit that leaves a name alone
   * does not touch that name's holders (a shared weight read by every
   * node of a chain: each rewire would move its whole list twice). */
  osl_links links;
  osl_map snap;
  osl_links now; /* scratch: what a stale item holds now */
} osl_gindex;

#define H_LIST(v) ((osl_holders *)((uintptr_t)(v) & ~(uintptr_t)1))
#define H_IS_LIST(v) (((uintptr_t)(v)&1) != 0)

/* The holders stored in a map entry's value slot. */
static osl_msg *const *holders(void *const *slot, size_t *n) {
  void *v = *slot;
  if (!v) {
    *n = 0;
    return NULL;
  }
  if (!H_IS_LIST(v)) {
    *n = 1;
    return (osl_msg *const *)slot;
  }
  *n = H_LIST(v)->count;
  return H_LIST(v)->m;
}

static int vinfo_rank(const osl_msg *v) {
  return v->fnum == onnx_GraphProto_input_tag ? 0 : v->fnum == onnx_GraphProto_output_tag ? 1 : 2;
}
static int vinfo_cmp(const osl_msg *a, const osl_msg *b) {
  int ra = vinfo_rank(a), rb = vinfo_rank(b);
  return ra != rb ? ra - rb : onnxslim__msg_order_cmp(a, b);
}

/* Adds m to key's holders at its place by cmp (NULL: at the end, as when
 * the index is built in graph order). */
static int h_add(osl_gindex *ix, osl_map *map, const char *key, osl_msg *m, osl_cmp cmp) {
  osl_map_entry *e = onnxslim__map_put(NULL, map, key, NULL);
  if (!e) return ONNXSLIM_ENOMEM;
  if (!e->value) {
    e->value = m;
    return 0;
  }
  osl_holders *l;
  if (!H_IS_LIST(e->value)) {
    osl_msg *one = e->value;
    if (one == m) return 0;
    l = onnxslim__arena_alloc(&ix->arena, sizeof *l + 4 * sizeof l->m[0]);
    if (!l) return ONNXSLIM_ENOMEM;
    l->count = 1;
    l->cap = 4;
    l->m[0] = one;
    e->value = (void *)((uintptr_t)l | 1);
  } else {
    l = H_LIST(e->value);
  }
  size_t lo = l->count;
  if (cmp) {
    size_t hi = l->count;
    lo = 0;
    while (lo < hi) {
      size_t mid = lo + (hi - lo) / 2;
      int c = cmp(l->m[mid], m);
      if (c == 0) return 0; /* already there */
      if (c < 0) lo = mid + 1;
      else hi = mid;
    }
  } else if (l->count && l->m[l->count - 1] == m) {
    return 0;
  }
  if (l->count == l->cap) {
    osl_holders *nl = onnxslim__arena_alloc(&ix->arena, sizeof *nl + 2 * l->cap * sizeof l->m[0]);
    if (!nl) return ONNXSLIM_ENOMEM;
    nl->count = l->count;
    nl->cap = 2 * l->cap;
    memcpy(nl->m, l->m, l->count * sizeof l->m[0]);
    l = nl;
    e->value = (void *)((uintptr_t)l | 1);
  }
  memmove(&l->m[lo + 1], &l->m[lo], (l->count - lo) * sizeof l->m[0]);
  l->m[lo] = m;
  l->count++;
  return 0;
}

static void h_remove(osl_map *map, const char *key, osl_msg *m, osl_cmp cmp) {
  osl_map_entry *e = onnxslim__map_slot(map, key);
  if (!e || !e->key || !e->value) return;
  if (!H_IS_LIST(e->value)) {
    if (e->value == m) e->value = NULL;
    return;
  }
  osl_holders *l = H_LIST(e->value);
  size_t lo = 0, hi = l->count, at = SIZE_MAX;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    int c = cmp(l->m[mid], m);
    if (c == 0) {
      at = mid;
      break;
    }
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  if (at == SIZE_MAX || l->m[at] != m)
    for (at = 0; at < l->count && l->m[at] != m; at++) {}
  if (at == l->count) return;
  memmove(&l->m[at], &l->m[at + 1], (l->count - at - 1) * sizeof l->m[0]);
  l->count--;
}

static int links_push(osl_links *l, osl_map *map, const char *key) {
  if (l->n == l->cap) {
    size_t cap = l->cap ? l->cap * 2 : 16;
    osl_link *v = realloc(l->v, cap * sizeof *v);
    if (!v) return ONNXSLIM_ENOMEM;
    l->v = v;
    l->cap = cap;
  }
  l->v[l->n++] = (osl_link){map, key};
  return 0;
}

static int link_cmp(const void *pa, const void *pb) {
  const osl_link *a = pa, *b = pb;
  if (a->map != b->map) return (uintptr_t)a->map < (uintptr_t)b->map ? -1 : 1;
  return strcmp(a->key, b->key);
}

/* Adds (add = 1) or removes item m as a holder of key in map, or, with
 * col, only notes the pair in col. */
static int h_link(osl_gindex *ix, osl_map *map, const char *key, osl_msg *m, int add, osl_cmp cmp,
                  osl_links *col) {
  if (col) return links_push(col, map, key);
  if (add) return h_add(ix, map, key, m, cmp);
  h_remove(map, key, m, map == &ix->vinfo ? vinfo_cmp : onnxslim__msg_order_cmp);
  return 0;
}

/* Names used and defined anywhere inside graph g (recursively). */
static int scope_names(osl_arena *tmp, osl_msg *g, osl_map *used, osl_map *defined) {
  onnxslim_model *model = g->model;
  static const uint32_t defs[] = {onnx_GraphProto_input_tag, onnx_GraphProto_initializer_tag};
  for (size_t d = 0; d < 2; d++) {
    osl_list *l = onnxslim__msg_list(g, defs[d]);
    if (!l) return ONNXSLIM_ENOMEM;
    for (size_t i = 0; i < l->count; i++) {
      osl_msg *m = g->f[l->idx[i]].sub;
      const char *name =
          onnxslim__msg_str(m, d == 0 ? onnx_ValueInfoProto_name_tag : onnx_TensorProto_name_tag);
      if (!name || !onnxslim__map_put(tmp, defined, name, m)) return ONNXSLIM_ENOMEM;
    }
  }
  osl_list *sl = onnxslim__msg_list(g, onnx_GraphProto_sparse_initializer_tag);
  if (!sl) return ONNXSLIM_ENOMEM;
  for (size_t i = 0; i < sl->count; i++) {
    osl_msg *vals = onnxslim__msg_sub(g->f[sl->idx[i]].sub, onnx_SparseTensorProto_values_tag);
    if (!vals) continue;
    const char *name = onnxslim__msg_str(vals, onnx_TensorProto_name_tag);
    if (!name || !onnxslim__map_put(tmp, defined, name, vals)) return ONNXSLIM_ENOMEM;
  }
  /* a subgraph output may name an outer value directly (no node in between) */
  osl_list *ol = onnxslim__msg_list(g, onnx_GraphProto_output_tag);
  if (!ol) return ONNXSLIM_ENOMEM;
  for (size_t i = 0; i < ol->count; i++) {
    osl_msg *m = g->f[ol->idx[i]].sub;
    const char *name = onnxslim__msg_str(m, onnx_ValueInfoProto_name_tag);
    if (!name) return ONNXSLIM_ENOMEM;
    if (name[0] && !onnxslim__map_put(tmp, used, name, m)) return ONNXSLIM_ENOMEM;
  }
  osl_list *nl = onnxslim__msg_list(g, onnx_GraphProto_node_tag);
  if (!nl) return ONNXSLIM_ENOMEM;
  for (size_t i = 0; i < nl->count; i++) {
    osl_msg *n = g->f[nl->idx[i]].sub;
    for (size_t k = 0; k < n->nf; k++) {
      osl_field *f = &n->f[k];
      if (f->number == onnx_NodeProto_input_tag || f->number == onnx_NodeProto_output_tag) {
        const char *name = onnxslim__field_cstr(model, f);
        if (!name) return ONNXSLIM_ENOMEM;
        if (!name[0]) continue;
        osl_map *into = f->number == onnx_NodeProto_input_tag ? used : defined;
        if (!onnxslim__map_put(tmp, into, name, n)) return ONNXSLIM_ENOMEM;
      } else if (f->number == onnx_NodeProto_attribute_tag && f->sub) {
        for (size_t j = 0; j < f->sub->nf; j++) {
          osl_field *af = &f->sub->f[j];
          if ((af->number == onnx_AttributeProto_g_tag ||
               af->number == onnx_AttributeProto_graphs_tag) &&
              af->sub) {
            int rc = scope_names(tmp, af->sub, used, defined);
            if (rc) return rc;
          }
        }
      }
    }
  }
  return 0;
}

/* Adds (add = 1) or removes node as a consumer of every outer value its
 * subgraphs capture. Each subgraph is its own scope: a name one branch
 * defines can still be captured by another. */
static int node_captures(osl_gindex *ix, osl_msg *node, int add, osl_cmp cmp, osl_links *col) {
  int rc = 0;
  for (size_t k = 0; k < node->nf && !rc; k++) {
    osl_field *f = &node->f[k];
    if (f->number != onnx_NodeProto_attribute_tag || !f->sub) continue;
    for (size_t j = 0; j < f->sub->nf && !rc; j++) {
      osl_field *af = &f->sub->f[j];
      if ((af->number != onnx_AttributeProto_g_tag &&
           af->number != onnx_AttributeProto_graphs_tag) ||
          !af->sub)
        continue;
      osl_arena tmp = {0};
      tmp.block = 4096;
      osl_map used = {0}, defined = {0};
      rc = scope_names(&tmp, af->sub, &used, &defined);
      for (size_t i = 0; i < used.cap && !rc; i++) {
        const char *name = used.slots[i].key;
        if (!name || onnxslim__map_get(&defined, name)) continue;
        rc = h_link(ix, &ix->consumers, name, node, add, cmp, col);
      }
      onnxslim__arena_free(&tmp);
    }
  }
  return rc;
}

/* Links (add = 1) or unlinks an item of the graph: what it holds goes into
 * (or out of) the maps. cmp orders new holders (NULL: append). Unlinking
 * never fails; linking fails only with ONNXSLIM_ENOMEM. With col, the maps
 * are left alone and what the item holds is appended to col. */
static int item_names(osl_gindex *ix, osl_msg *m, int add, osl_cmp cmp, osl_links *col) {
  onnxslim_model *model = ix->g->model;
  const char *name;
  int rc = 0;
  if (m->def == &osl_def_onnx_NodeProto) {
    if (!(name = onnxslim__msg_str(m, onnx_NodeProto_name_tag))) return ONNXSLIM_ENOMEM;
    if (name[0]) rc = h_link(ix, &ix->nodes, name, m, add, cmp, col);
    for (size_t k = 0; k < m->nf && !rc; k++) {
      osl_field *nf = &m->f[k];
      if (nf->number != onnx_NodeProto_input_tag && nf->number != onnx_NodeProto_output_tag)
        continue;
      const char *v = onnxslim__field_cstr(model, nf);
      if (!v) return ONNXSLIM_ENOMEM;
      if (!v[0]) continue;
      osl_map *map = nf->number == onnx_NodeProto_output_tag ? &ix->producer : &ix->consumers;
      rc = h_link(ix, map, v, m, add, cmp, col);
    }
    if (!rc) rc = node_captures(ix, m, add, cmp, col);
  } else if (m->def == &osl_def_onnx_TensorProto && m->fnum == onnx_GraphProto_initializer_tag) {
    if (!(name = onnxslim__msg_str(m, onnx_TensorProto_name_tag))) return ONNXSLIM_ENOMEM;
    rc = h_link(ix, &ix->inits, name, m, add, cmp, col);
  } else if (m->def == &osl_def_onnx_ValueInfoProto &&
             (m->fnum == onnx_GraphProto_input_tag || m->fnum == onnx_GraphProto_output_tag ||
              m->fnum == onnx_GraphProto_value_info_tag)) {
    if (!(name = onnxslim__msg_str(m, onnx_ValueInfoProto_name_tag))) return ONNXSLIM_ENOMEM;
    rc = h_link(ix, &ix->vinfo, name, m, add, cmp ? vinfo_cmp : NULL, col);
  }
  return rc;
}

void onnxslim__gindex_drop(osl_msg *g) {
  osl_gindex *ix = g->cache;
  if (!ix) return;
  for (size_t i = 0; i < ix->nstale; i++) ix->stale[i]->ixstale = 0;
  if (ix->prev) ix->prev->next = ix->next;
  else g->model->indexes = ix->next;
  if (ix->next) ix->next->prev = ix->prev;
  onnxslim__arena_free(&ix->arena);
  onnxslim__map_free(&ix->nodes);
  onnxslim__map_free(&ix->producer);
  onnxslim__map_free(&ix->inits);
  onnxslim__map_free(&ix->vinfo);
  onnxslim__map_free(&ix->consumers);
  free(ix->links.v);
  free(ix->now.v);
  onnxslim__map_free(&ix->snap);
  free(ix);
  g->cache = NULL;
}

void onnxslim__gindex_free_all(onnxslim_model *model) {
  while (model->indexes) onnxslim__gindex_drop(model->indexes->g);
}

/* The links a stale item held before its first edit (m->ixstale == 2). */
static osl_link *snap_of(osl_gindex *ix, osl_msg *m, size_t *n) {
  osl_map_entry *e = onnxslim__map_find_ptr(&ix->snap, m);
  *n = e ? (size_t)e->num : 0;
  return e ? ix->links.v + ((uintptr_t)e->value - 1) : NULL;
}

/* Removes m from the holders its snapshot names (m still at its place). */
static void unlink_snap(osl_gindex *ix, osl_msg *m) {
  size_t n;
  osl_link *l = snap_of(ix, m, &n);
  for (size_t i = 0; i < n; i++) h_link(ix, l[i].map, l[i].key, m, 0, NULL, NULL);
  m->ixstale = 1;
}

/* Notes what linked item m holds (its snapshot) and leaves it in the maps:
 * 0, or ONNXSLIM_ENOMEM with nothing noted. */
static int take_snap(osl_gindex *ix, osl_msg *m) {
  size_t off = ix->links.n;
  osl_map_entry *e;
  if (off >= INT32_MAX || item_names(ix, m, 0, NULL, &ix->links) ||
      ix->links.n - off >= INT32_MAX || onnxslim__map_add_ptr(NULL, &ix->snap, m, &e) < 0) {
    ix->links.n = off;
    return ONNXSLIM_ENOMEM;
  }
  e->value = (void *)(uintptr_t)(off + 1);
  e->num = (int32_t)(ix->links.n - off);
  return 0;
}

/* Puts item m on the stale list. linked: it is in the maps now; removing:
 * it is about to leave the graph (or be replaced), so it is unlinked now,
 * while its place still orders it among the holders; otherwise (an edit
 * inside it) it stays linked with a snapshot, or, without memory for one,
 * is unlinked now. */
static void mark_stale(osl_gindex *ix, osl_msg *m, int linked, int removing) {
  if (m->ixstale) {
    if (removing && m->ixstale == 2) unlink_snap(ix, m);
    return;
  }
  if (ix->nstale == ix->capstale) {
    size_t cap = ix->capstale ? ix->capstale * 2 : 16;
    osl_msg **v = onnxslim__arena_alloc(&ix->arena, cap * sizeof *v);
    if (!v) {
      onnxslim__gindex_drop(ix->g); /* rebuilt from scratch on next use */
      return;
    }
    if (ix->nstale) memcpy(v, ix->stale, ix->nstale * sizeof *v);
    ix->stale = v;
    ix->capstale = cap;
  }
  ix->stale[ix->nstale++] = m;
  m->ixstale = 1;
  if (!linked) return;
  if (!removing && !take_snap(ix, m)) m->ixstale = 2;
  else item_names(ix, m, 0, NULL, NULL);
}

/* Can a change of field `number` of msg change what some graph's index
 * holds? Names of nodes, values, initializers and value infos, and
 * anything that holds a subgraph (captures). Types, data, attributes
 * without subgraphs: no. */
static int index_relevant(const osl_msg *msg, uint32_t number) {
  const osl_msgdef *d = msg->def;
  if (d == &osl_def_onnx_GraphProto)
    return number == onnx_GraphProto_node_tag || number == onnx_GraphProto_initializer_tag ||
           number == onnx_GraphProto_sparse_initializer_tag ||
           number == onnx_GraphProto_input_tag || number == onnx_GraphProto_output_tag ||
           number == onnx_GraphProto_value_info_tag;
  if (d == &osl_def_onnx_NodeProto) return 1;
  if (d == &osl_def_onnx_TensorProto) return number == onnx_TensorProto_name_tag;
  if (d == &osl_def_onnx_ValueInfoProto) return number == onnx_ValueInfoProto_name_tag;
  if (d == &osl_def_onnx_AttributeProto)
    return number == onnx_AttributeProto_g_tag || number == onnx_AttributeProto_graphs_tag;
  if (d == &osl_def_onnx_SparseTensorProto) return number == onnx_SparseTensorProto_values_tag;
  return 0;
}

/* For every graph above the change with an index: the item of that graph
 * the change is in becomes stale (unlinked before the change; a new item
 * added by it is linked later). */
static void index_edit(osl_msg *msg, uint32_t number, osl_msg *sub, int after) {
  if (!index_relevant(msg, number)) return;
  osl_msg *below = msg->def == &osl_def_onnx_GraphProto ? sub : NULL;
  for (osl_msg *c = msg; c; below = c, c = c->parent) {
    if (c->def != &osl_def_onnx_GraphProto || !c->cache || !below) continue;
    if (below->parent != c || below->detached) continue;
    mark_stale(c->cache, below, !after, c == msg && !after);
  }
}

void onnxslim__gindex_before(osl_msg *msg, uint32_t number, osl_msg *old_sub) {
  index_edit(msg, number, old_sub, 0);
}

void onnxslim__gindex_after(osl_msg *msg, uint32_t number, osl_msg *new_sub) {
  index_edit(msg, number, new_sub, 1);
}

static int stale_cmp(const void *a, const void *b) {
  return onnxslim__msg_order_cmp(*(osl_msg *const *)a, *(osl_msg *const *)b);
}

/* Links stale item m again: everything it holds, or, with a snapshot,
 * only what changed since. */
static int relink(osl_gindex *ix, osl_msg *m) {
  if (m->ixstale != 2) return item_names(ix, m, 1, onnxslim__msg_order_cmp, NULL);
  size_t n;
  osl_link *old = snap_of(ix, m, &n);
  ix->now.n = 0;
  int rc = item_names(ix, m, 1, NULL, &ix->now);
  if (rc) return rc;
  osl_link *cur = ix->now.v;
  size_t k = ix->now.n;
  if (n > 1) qsort(old, n, sizeof *old, link_cmp);
  if (k > 1) qsort(cur, k, sizeof *cur, link_cmp);
  size_t i = 0, j = 0;
  while (i < n || j < k) {
    int c = i == n ? 1 : j == k ? -1 : link_cmp(&old[i], &cur[j]);
    osl_link *l = c <= 0 ? &old[i] : &cur[j];
    if (c < 0) h_link(ix, l->map, l->key, m, 0, NULL, NULL); /* no longer held */
    if (c > 0) {                                             /* newly held */
      rc = h_link(ix, l->map, l->key, m, 1,
                  l->map == &ix->vinfo ? vinfo_cmp : onnxslim__msg_order_cmp, NULL);
      if (rc) return rc;
    }
    /* past l and its repeats on the side(s) it came from */
    osl_link at = *l;
    if (c <= 0)
      while (i < n && link_cmp(&old[i], &at) == 0) i++;
    if (c >= 0)
      while (j < k && link_cmp(&cur[j], &at) == 0) j++;
  }
  return 0;
}

static osl_gindex *graph_index(osl_msg *g) {
  osl_gindex *ix = g->cache;
  if (ix) {
    /* link what changed since the last use, in the graph's order: the
     * holder lists are kept in that order, so a batch of edits (readers of
     * one value rewired one by one, say) goes back in at their ends, not
     * each at the front (which made a batch quadratic) */
    size_t live = 0;
    for (size_t i = 0; i < ix->nstale; i++) {
      osl_msg *m = ix->stale[i];
      if (m->parent == g && !m->detached) {
        ix->stale[live++] = m;
      } else {
        if (m->ixstale == 2) unlink_snap(ix, m); /* not expected: removals unlink */
        m->ixstale = 0;
      }
    }
    ix->nstale = live;
    if (live > 1) qsort(ix->stale, live, sizeof *ix->stale, stale_cmp);
    for (size_t i = 0; i < ix->nstale; i++) {
      osl_msg *m = ix->stale[i];
      int rc = relink(ix, m);
      m->ixstale = 0;
      if (rc) {
        for (size_t k = i + 1; k < ix->nstale; k++) ix->stale[k]->ixstale = 0;
        ix->nstale = 0;
        onnxslim__gindex_drop(g);
        goto nomem;
      }
    }
    ix->nstale = 0;
    ix->links.n = 0;
    if (ix->snap.len) onnxslim__map_free(&ix->snap);
    return ix;
  }
  OSL_FLUSH(g);
  ix = calloc(1, sizeof *ix);
  if (!ix) goto nomem;
  ix->arena.block = 4096;
  ix->g = g;
  ix->next = g->model->indexes;
  if (ix->next) ix->next->prev = ix;
  g->model->indexes = ix;
  g->cache = ix;
  { /* room for every name the graph holds now */
    size_t nn = 0, nin = 0, nout = 0, ni = 0, nv = 0;
    for (size_t i = 0; i < g->nf; i++) {
      osl_msg *m = g->f[i].sub;
      if (!m) continue;
      if (m->def == &osl_def_onnx_NodeProto) {
        for (size_t k = 0; k < m->nf; k++) {
          nn += m->f[k].number == onnx_NodeProto_name_tag && m->f[k].n;
          nin += m->f[k].number == onnx_NodeProto_input_tag;
          nout += m->f[k].number == onnx_NodeProto_output_tag;
        }
      } else if (m->def == &osl_def_onnx_TensorProto) {
        ni++;
      } else if (m->def == &osl_def_onnx_ValueInfoProto) {
        nv++;
      }
    }
    if (onnxslim__map_reserve(NULL, &ix->nodes, nn) ||
        onnxslim__map_reserve(NULL, &ix->producer, nout) ||
        onnxslim__map_reserve(NULL, &ix->consumers, nin) ||
        onnxslim__map_reserve(NULL, &ix->inits, ni) || onnxslim__map_reserve(NULL, &ix->vinfo, nv))
      goto drop;
  }
  for (size_t i = 0; i < g->nf; i++) {
    osl_msg *m = g->f[i].sub;
    if (m && m->def != &osl_def_onnx_ValueInfoProto && item_names(ix, m, 1, NULL, NULL)) goto drop;
  }
  /* value infos: inputs first, then outputs, then value_info */
  static const uint32_t order[] = {onnx_GraphProto_input_tag, onnx_GraphProto_output_tag,
                                   onnx_GraphProto_value_info_tag};
  for (size_t o = 0; o < 3; o++) {
    osl_list *l = onnxslim__msg_list(g, order[o]);
    if (!l) goto drop;
    for (size_t i = 0; i < l->count; i++)
      if (item_names(ix, g->f[l->idx[i]].sub, 1, NULL, NULL)) goto drop;
  }
  return ix;
drop:
  onnxslim__gindex_drop(g);
nomem:
  onnxslim__err_nomem("indexing graph");
  return NULL;
}

/* The holders of `name` in the map at offset off of the index; NULL with
 * ONNXSLIM_ENOTFOUND when there are none (what NULL: NULL and no error, for
 * lookups that expect to miss: formatting the message cost more than the
 * lookup). */
static osl_msg *const *find_all(const onnxslim_graph *graph, const char *name, size_t off,
                                const char *what, const char *fn, size_t *n) {
  *n = 0;
  osl_msg *g = onnxslim__check(graph, &osl_def_onnx_GraphProto, fn);
  if (!g) return NULL;
  if (!name) {
    onnxslim__err(ONNXSLIM_EINVAL, "%s: NULL name", fn);
    return NULL;
  }
  osl_gindex *ix = graph_index(g);
  if (!ix) return NULL;
  osl_map_entry *e = onnxslim__map_slot((osl_map *)((char *)ix + off), name);
  osl_msg *const *v = e && e->key ? holders(&e->value, n) : NULL;
  if (!*n) {
    if (what)
      onnxslim__err(ONNXSLIM_ENOTFOUND, "no %s named '%s' in graph '%s'", what, name,
                    onnxslim__msg_str(g, onnx_GraphProto_name_tag));
    return NULL;
  }
  return v;
}

static void *find(const onnxslim_graph *graph, const char *name, size_t off, const char *what,
                  const char *fn) {
  size_t n;
  osl_msg *const *v = find_all(graph, name, off, what, fn, &n);
  return v ? v[0] : NULL;
}

size_t onnxslim__graph_value_infos(osl_msg *g, const char *name, osl_msg *const **out) {
  size_t n;
  *out =
      find_all((onnxslim_graph *)g, name, offsetof(osl_gindex, vinfo), "value info", __func__, &n);
  return n;
}

onnxslim_node *onnxslim_graph_find_node(const onnxslim_graph *graph, const char *name) {
  return find(graph, name, offsetof(osl_gindex, nodes), "node", __func__);
}
onnxslim_tensor *onnxslim_graph_find_initializer(const onnxslim_graph *graph, const char *name) {
  return find(graph, name, offsetof(osl_gindex, inits), "initializer", __func__);
}
onnxslim_value_info *onnxslim_graph_find_value_info(const onnxslim_graph *graph, const char *name) {
  return find(graph, name, offsetof(osl_gindex, vinfo), "value info", __func__);
}
onnxslim_node *onnxslim_graph_producer(const onnxslim_graph *graph, const char *name) {
  return find(graph, name, offsetof(osl_gindex, producer), "producer of a value", __func__);
}

size_t onnxslim_graph_consumer_count(const onnxslim_graph *graph, const char *name) {
  size_t n;
  find_all(graph, name, offsetof(osl_gindex, consumers), "consumer of a value", __func__, &n);
  return n;
}

onnxslim_node *onnxslim_graph_consumer(const onnxslim_graph *graph, const char *name,
                                       size_t index) {
  size_t n;
  osl_msg *const *v =
      find_all(graph, name, offsetof(osl_gindex, consumers), "consumer of a value", __func__, &n);
  if (!v) return NULL;
  if (index >= n) {
    onnxslim__err(ONNXSLIM_ERANGE, "consumer index %zu out of range (%zu consumers of '%s')", index,
                  n, name);
    return NULL;
  }
  return (onnxslim_node *)v[index];
}

/* (handles.h) */
static void *find_q(const onnxslim_graph *graph, const char *name, size_t off, const char *fn) {
  size_t n;
  osl_msg *const *v = find_all(graph, name, off, NULL, fn, &n);
  return v ? v[0] : NULL;
}
onnxslim_tensor *onnxslim__graph_initializer_q(const onnxslim_graph *graph, const char *name) {
  return find_q(graph, name, offsetof(osl_gindex, inits), __func__);
}
onnxslim_value_info *onnxslim__graph_value_info_q(const onnxslim_graph *graph, const char *name) {
  return find_q(graph, name, offsetof(osl_gindex, vinfo), __func__);
}
onnxslim_node *onnxslim__graph_producer_q(const onnxslim_graph *graph, const char *name) {
  return find_q(graph, name, offsetof(osl_gindex, producer), __func__);
}
size_t onnxslim__graph_consumer_count_q(const onnxslim_graph *graph, const char *name) {
  size_t n;
  find_all(graph, name, offsetof(osl_gindex, consumers), NULL, __func__, &n);
  return n;
}

/* (handles.h) */
int onnxslim__node_before(const onnxslim_node *a, const onnxslim_node *b) {
  return onnxslim__msg_order_cmp((const osl_msg *)a, (const osl_msg *)b) < 0;
}

size_t onnxslim__graph_slots(const onnxslim_graph *graph) {
  const osl_msg *g = (const osl_msg *)graph;
  OSL_FLUSH(g);
  return g->nf;
}
size_t onnxslim__node_slot(const onnxslim_node *n) {
  const osl_msg *m = (const osl_msg *)n;
  return onnxslim__msg_pos_of(m->parent, m);
}

/* ---- graph edits ------------------------------------------------------------ */

int onnxslim_graph_set_name(onnxslim_graph *graph, const char *name) {
  G_OR(ONNXSLIM_EINVAL);
  if (!name) return onnxslim__err(ONNXSLIM_EINVAL, "%s: NULL name", __func__);
  return onnxslim__msg_set_str(g, onnx_GraphProto_name_tag, name);
}

/* A new NodeProto, not yet in any graph. */
static osl_msg *new_node(osl_msg *g, const char *op_type, const char *domain, const char *name,
                         const char *const *inputs, size_t n_inputs, const char *const *outputs,
                         size_t n_outputs) {
  onnxslim_model *model = g->model;
  osl_msg *n = onnxslim__msg_new(model, &osl_def_onnx_NodeProto, NULL);
  if (!n) return NULL;
  osl_field f;
  int rc = 0;
  /* fields in onnx.proto order, as other writers emit them */
  for (size_t i = 0; i < n_inputs && !rc; i++)
    if (!(rc = onnxslim__fld_str(model, onnx_NodeProto_input_tag, inputs[i] ? inputs[i] : "", &f)))
      rc = onnxslim__msg_insert(n, SIZE_MAX, &f);
  for (size_t i = 0; i < n_outputs && !rc; i++)
    if (!(rc = onnxslim__fld_str(model, onnx_NodeProto_output_tag, outputs[i] ? outputs[i] : "",
                                 &f)))
      rc = onnxslim__msg_insert(n, SIZE_MAX, &f);
  if (!rc && name && name[0] && !(rc = onnxslim__fld_str(model, onnx_NodeProto_name_tag, name, &f)))
    rc = onnxslim__msg_insert(n, SIZE_MAX, &f);
  if (!rc && !(rc = onnxslim__fld_str(model, onnx_NodeProto_op_type_tag, op_type, &f)))
    rc = onnxslim__msg_insert(n, SIZE_MAX, &f);
  if (!rc && domain && domain[0] &&
      !(rc = onnxslim__fld_str(model, onnx_NodeProto_domain_tag, domain, &f)))
    rc = onnxslim__msg_insert(n, SIZE_MAX, &f);
  return rc ? NULL : n;
}

int onnxslim_graph_add_node(onnxslim_graph *graph, size_t index, const char *op_type,
                            const char *domain, const char *name, const char *const *inputs,
                            size_t n_inputs, const char *const *outputs, size_t n_outputs,
                            onnxslim_node **out) {
  if (out) *out = NULL;
  G_OR(ONNXSLIM_EINVAL);
  if (!op_type || (!inputs && n_inputs) || (!outputs && n_outputs))
    return onnxslim__err(ONNXSLIM_EINVAL, "%s: NULL argument", __func__);
  /* appending needs no position, so it leaves the graph's queued edits queued */
  osl_msg *anchor = NULL;
  if (index != SIZE_MAX) {
    size_t count = onnxslim__msg_count(g, onnx_GraphProto_node_tag);
    if (index > count)
      return onnxslim__err(ONNXSLIM_ERANGE, "%s: index %zu past the end (%zu nodes)", __func__,
                           index, count);
    if (index < count) anchor = onnxslim__msg_sub_at(g, onnx_GraphProto_node_tag, index);
  }
  osl_msg *n = new_node(g, op_type, domain, name, inputs, n_inputs, outputs, n_outputs);
  if (!n) return onnxslim_error_last_code();
  osl_field f;
  onnxslim__fld_sub(onnx_GraphProto_node_tag, n, &f);
  int rc = anchor ? onnxslim__msg_insert_near(g, anchor, 0, &f) : onnxslim__msg_append(g, &f);
  if (!rc && out) *out = (onnxslim_node *)n;
  return rc;
}

int onnxslim__graph_add_node_near(osl_msg *g, osl_msg *anchor, int after, const char *op_type,
                                  const char *domain, const char *name, const char *const *inputs,
                                  size_t n_inputs, const char *const *outputs, size_t n_outputs,
                                  osl_msg **out) {
  *out = NULL;
  if (anchor->parent != g || anchor->detached || anchor->def != &osl_def_onnx_NodeProto)
    return onnxslim__err(ONNXSLIM_EINVAL, "the anchor is not a node of this graph");
  osl_msg *n = new_node(g, op_type, domain, name, inputs, n_inputs, outputs, n_outputs);
  if (!n) return onnxslim_error_last_code();
  osl_field f;
  onnxslim__fld_sub(onnx_GraphProto_node_tag, n, &f);
  int rc = onnxslim__msg_insert_near(g, anchor, after, &f);
  if (!rc) *out = n;
  return rc;
}

/* Removes `item` (a message of kind def held by graph field `number`). */
static int remove_item(osl_msg *g, const void *item, const osl_msgdef *def, uint32_t number,
                       const char *fn) {
  osl_msg *m = onnxslim__check(item, def, fn);
  if (!m) return ONNXSLIM_EINVAL;
  size_t pos = m->parent == g ? onnxslim__msg_pos_of(g, m) : SIZE_MAX;
  if (pos == SIZE_MAX || g->f[pos].number != number)
    return onnxslim__err(ONNXSLIM_EINVAL, "%s: the %s is not in this graph", fn, def->name);
  onnxslim__msg_remove(g, pos);
  return 0;
}

int onnxslim_graph_remove_node(onnxslim_graph *graph, onnxslim_node *node) {
  G_OR(ONNXSLIM_EINVAL);
  return remove_item(g, node, &osl_def_onnx_NodeProto, onnx_GraphProto_node_tag, __func__);
}

int onnxslim_graph_move_node(onnxslim_graph *graph, onnxslim_node *node, size_t index) {
  G_OR(ONNXSLIM_EINVAL);
  osl_msg *n = OSL_CHECK(node, onnx_NodeProto);
  if (!n) return ONNXSLIM_EINVAL;
  if (n->parent != g) return onnxslim__err(ONNXSLIM_EINVAL, "%s: node not in this graph", __func__);
  size_t count = onnxslim__msg_count(g, onnx_GraphProto_node_tag);
  if (index >= count)
    return onnxslim__err(ONNXSLIM_ERANGE, "%s: index %zu out of range (%zu nodes)", __func__, index,
                         count);
  size_t pos = onnxslim__msg_pos_of(g, n);
  if (pos == SIZE_MAX)
    return onnxslim__err(ONNXSLIM_EINVAL, "%s: node not in this graph", __func__);
  osl_field f = g->f[pos];
  onnxslim__msg_remove(g, pos);
  n->detached = 0;
  return onnxslim__msg_insert(g, onnxslim__msg_pos_nth(g, onnx_GraphProto_node_tag, index), &f);
}

int onnxslim_graph_add_initializer_copy(onnxslim_graph *graph, const onnxslim_tensor *src,
                                        const char *name, onnxslim_tensor **out) {
  if (out) *out = NULL;
  G_OR(ONNXSLIM_EINVAL);
  osl_msg *s = OSL_CHECK(src, onnx_TensorProto);
  if (!s) return ONNXSLIM_EINVAL;
  osl_msg *t = onnxslim__msg_clone(g->model, s, NULL);
  if (!t) return onnxslim_error_last_code();
  int rc = name ? onnxslim__msg_set_str(t, onnx_TensorProto_name_tag, name) : 0;
  if (rc) return rc;
  osl_field f;
  onnxslim__fld_sub(onnx_GraphProto_initializer_tag, t, &f);
  rc = onnxslim__msg_append(g, &f);
  if (!rc && out) *out = (onnxslim_tensor *)t;
  return rc;
}

int onnxslim_graph_add_initializer(onnxslim_graph *graph, const char *name, int32_t dtype,
                                   const int64_t *dims, size_t rank, const void *data, size_t size,
                                   unsigned int flags, onnxslim_tensor **out) {
  if (out) *out = NULL;
  G_OR(ONNXSLIM_EINVAL);
  if (!name) return onnxslim__err(ONNXSLIM_EINVAL, "%s: NULL name", __func__);
  osl_msg *t = onnxslim__msg_new(g->model, &osl_def_onnx_TensorProto, NULL);
  if (!t) return ONNXSLIM_ENOMEM;
  osl_field f;
  int rc = onnxslim__fld_str(g->model, onnx_TensorProto_name_tag, name, &f);
  if (!rc) rc = onnxslim__msg_insert(t, SIZE_MAX, &f);
  if (!rc) rc = onnxslim__tensor_validate(t, "a new tensor");
  if (!rc)
    rc = onnxslim_tensor_set_data((onnxslim_tensor *)t, dtype, dims, rank, data, size, flags);
  if (rc) return rc;
  onnxslim__fld_sub(onnx_GraphProto_initializer_tag, t, &f);
  rc = onnxslim__msg_append(g, &f);
  if (!rc && out) *out = (onnxslim_tensor *)t;
  return rc;
}

int onnxslim_graph_remove_initializer(onnxslim_graph *graph, onnxslim_tensor *tensor) {
  G_OR(ONNXSLIM_EINVAL);
  return remove_item(g, tensor, &osl_def_onnx_TensorProto, onnx_GraphProto_initializer_tag,
                     __func__);
}

static int add_vi(onnxslim_graph *graph, uint32_t number, const char *name,
                  onnxslim_value_info **out, const char *fn) {
  if (out) *out = NULL;
  osl_msg *g = onnxslim__check(graph, &osl_def_onnx_GraphProto, fn);
  if (!g) return ONNXSLIM_EINVAL;
  if (!name) return onnxslim__err(ONNXSLIM_EINVAL, "%s: NULL name", fn);
  osl_msg *v = onnxslim__msg_new(g->model, &osl_def_onnx_ValueInfoProto, NULL);
  if (!v) return ONNXSLIM_ENOMEM;
  osl_field f;
  int rc = onnxslim__fld_str(g->model, onnx_ValueInfoProto_name_tag, name, &f);
  if (!rc) rc = onnxslim__msg_insert(v, SIZE_MAX, &f);
  if (rc) return rc;
  onnxslim__fld_sub(number, v, &f);
  rc = onnxslim__msg_append(g, &f);
  if (!rc && out) *out = (onnxslim_value_info *)v;
  return rc;
}

int onnxslim_graph_add_input(onnxslim_graph *graph, const char *name, onnxslim_value_info **out) {
  return add_vi(graph, onnx_GraphProto_input_tag, name, out, __func__);
}
int onnxslim_graph_add_output(onnxslim_graph *graph, const char *name, onnxslim_value_info **out) {
  return add_vi(graph, onnx_GraphProto_output_tag, name, out, __func__);
}
int onnxslim_graph_add_value_info(onnxslim_graph *graph, const char *name,
                                  onnxslim_value_info **out) {
  return add_vi(graph, onnx_GraphProto_value_info_tag, name, out, __func__);
}

int onnxslim_graph_remove_value_info(onnxslim_graph *graph, onnxslim_value_info *vi) {
  G_OR(ONNXSLIM_EINVAL);
  osl_msg *v = OSL_CHECK(vi, onnx_ValueInfoProto);
  if (!v) return ONNXSLIM_EINVAL;
  size_t pos = v->parent == g ? onnxslim__msg_pos_of(g, v) : SIZE_MAX;
  if (pos == SIZE_MAX)
    return onnxslim__err(ONNXSLIM_EINVAL, "%s: value info not in this graph", __func__);
  onnxslim__msg_remove(g, pos);
  return 0;
}

/* ---- renaming a value everywhere ------------------------------------------- */

static int rename_field(osl_msg *m, size_t i, const char *to) {
  osl_field nf;
  int rc = onnxslim__fld_str(m->model, m->f[i].number, to, &nf);
  return rc ? rc : onnxslim__msg_replace(m, i, &nf);
}

static int field_is(onnxslim_model *model, osl_field *f, const char *name) {
  const char *s = onnxslim__field_cstr(model, f);
  return s && strcmp(s, name) == 0;
}

/* Does graph g itself define `name` (input, initializer, sparse initializer,
 * node output)? */
static int defines(osl_msg *g, const char *name) {
  OSL_FLUSH(g);
  for (size_t i = 0; i < g->nf; i++) {
    osl_field *f = &g->f[i];
    if (!f->sub) continue;
    osl_msg *m = f->sub;
    const char *s = NULL;
    if (f->number == onnx_GraphProto_input_tag)
      s = onnxslim__msg_str(m, onnx_ValueInfoProto_name_tag);
    else if (f->number == onnx_GraphProto_initializer_tag)
      s = onnxslim__msg_str(m, onnx_TensorProto_name_tag);
    else if (f->number == onnx_GraphProto_sparse_initializer_tag) {
      osl_msg *v = onnxslim__msg_sub(m, onnx_SparseTensorProto_values_tag);
      s = v ? onnxslim__msg_str(v, onnx_TensorProto_name_tag) : NULL;
    } else if (f->number == onnx_GraphProto_node_tag) {
      for (size_t k = 0; k < m->nf; k++)
        if (m->f[k].number == onnx_NodeProto_output_tag && field_is(g->model, &m->f[k], name))
          return 1;
    }
    if (s && strcmp(s, name) == 0) return 1;
  }
  return 0;
}

static int rename_in_graph(osl_msg *g, const char *from, const char *to, int outer);

/* Renames uses of `from` inside the subgraphs of node n (captures). */
static int rename_in_subgraphs(osl_msg *n, const char *from, const char *to) {
  for (size_t k = 0; k < n->nf; k++) {
    osl_field *f = &n->f[k];
    if (f->number != onnx_NodeProto_attribute_tag || !f->sub) continue;
    for (size_t j = 0; j < f->sub->nf; j++) {
      osl_field *af = &f->sub->f[j];
      if ((af->number == onnx_AttributeProto_g_tag ||
           af->number == onnx_AttributeProto_graphs_tag) &&
          af->sub && !defines(af->sub, from)) {
        int rc = rename_in_graph(af->sub, from, to, 1);
        if (rc) return rc;
      }
    }
  }
  return 0;
}

/* outer = 0: g defines or uses the value; rename everything. outer = 1: g is
 * a subgraph capturing it; rename uses only (node inputs, graph outputs). */
static int rename_in_graph(osl_msg *g, const char *from, const char *to, int outer) {
  onnxslim_model *model = g->model;
  int rc = 0;
  OSL_FLUSH(g);
  for (size_t i = 0; i < g->nf && !rc; i++) {
    osl_field *f = &g->f[i];
    osl_msg *m = f->sub;
    if (!m) continue;
    switch (f->number) {
    case onnx_GraphProto_node_tag:
      for (size_t k = 0; k < m->nf && !rc; k++) {
        osl_field *nf = &m->f[k];
        if ((nf->number == onnx_NodeProto_input_tag ||
             (!outer && nf->number == onnx_NodeProto_output_tag)) &&
            field_is(model, nf, from))
          rc = rename_field(m, k, to);
      }
      if (!rc) rc = rename_in_subgraphs(m, from, to);
      break;
    case onnx_GraphProto_output_tag:
    case onnx_GraphProto_input_tag:
    case onnx_GraphProto_value_info_tag:
      if (outer && f->number != onnx_GraphProto_output_tag) break;
      for (size_t k = 0; k < m->nf && !rc; k++)
        if (m->f[k].number == onnx_ValueInfoProto_name_tag && field_is(model, &m->f[k], from))
          rc = rename_field(m, k, to);
      break;
    case onnx_GraphProto_initializer_tag:
      if (outer) break;
      for (size_t k = 0; k < m->nf && !rc; k++)
        if (m->f[k].number == onnx_TensorProto_name_tag && field_is(model, &m->f[k], from))
          rc = rename_field(m, k, to);
      break;
    case onnx_GraphProto_sparse_initializer_tag: {
      if (outer) break;
      osl_msg *v = onnxslim__msg_sub(m, onnx_SparseTensorProto_values_tag);
      for (size_t k = 0; v && k < v->nf && !rc; k++)
        if (v->f[k].number == onnx_TensorProto_name_tag && field_is(model, &v->f[k], from))
          rc = rename_field(v, k, to);
      break;
    }
    default: break;
    }
  }
  return rc;
}

/* Renames `from` to `to` in item m of the graph that defines or uses it (a
 * node: inputs, outputs and the captures of its subgraphs; a value info or
 * an initializer: its name). */
static int rename_item(osl_msg *m, const char *from, const char *to) {
  onnxslim_model *model = m->model;
  int rc = 0;
  if (m->def == &osl_def_onnx_NodeProto) {
    for (size_t k = 0; k < m->nf && !rc; k++) {
      osl_field *nf = &m->f[k];
      if ((nf->number == onnx_NodeProto_input_tag || nf->number == onnx_NodeProto_output_tag) &&
          field_is(model, nf, from))
        rc = rename_field(m, k, to);
    }
    return rc ? rc : rename_in_subgraphs(m, from, to);
  }
  uint32_t tag = m->def == &osl_def_onnx_ValueInfoProto ? onnx_ValueInfoProto_name_tag
                                                        : onnx_TensorProto_name_tag;
  for (size_t k = 0; k < m->nf && !rc; k++)
    if (m->f[k].number == tag && field_is(model, &m->f[k], from)) rc = rename_field(m, k, to);
  return rc;
}

/* The items of g's index holding `from` (producer, readers, value infos,
 * initializers), copied: renaming them edits the index's lists. */
static int holders_of(osl_gindex *ix, const char *from, osl_msg ***out, size_t *count) {
  osl_map *maps[] = {&ix->producer, &ix->consumers, &ix->vinfo, &ix->inits};
  size_t total = 0, n;
  for (size_t i = 0; i < 4; i++) {
    osl_map_entry *e = onnxslim__map_slot(maps[i], from);
    if (e && e->key) {
      holders(&e->value, &n);
      total += n;
    }
  }
  *out = NULL;
  *count = 0;
  if (!total) return 0;
  osl_msg **v = malloc(total * sizeof *v);
  if (!v) return onnxslim__err_nomem("renaming a value");
  for (size_t i = 0; i < 4; i++) {
    osl_map_entry *e = onnxslim__map_slot(maps[i], from);
    if (!e || !e->key) continue;
    osl_msg *const *h = holders(&e->value, &n);
    memcpy(v + *count, h, n * sizeof *v);
    *count += n;
  }
  *out = v;
  return 0;
}

/* Through the graph's index: the items holding the name, not a scan of the
 * graph, so a pass renaming once per removed node stays linear. Sparse
 * initializers (not indexed) are looked at in their own list. */
int onnxslim_graph_rename_value(onnxslim_graph *graph, const char *from, const char *to) {
  G_OR(ONNXSLIM_EINVAL);
  if (!from || !to || !from[0] || !to[0])
    return onnxslim__err(ONNXSLIM_EINVAL, "%s: names must be non-empty", __func__);
  if (strcmp(from, to) == 0) return 0;
  osl_gindex *ix = graph_index(g);
  if (!ix) return ONNXSLIM_ENOMEM;
  osl_msg **items;
  size_t n;
  int rc = holders_of(ix, from, &items, &n);
  for (size_t i = 0; i < n && !rc; i++)
    if (!items[i]->detached && items[i]->parent == g) rc = rename_item(items[i], from, to);
  free(items);
  if (rc) return rc;
  osl_list *sl = onnxslim__msg_list(g, onnx_GraphProto_sparse_initializer_tag);
  if (!sl) return onnxslim__err_nomem(NULL);
  for (size_t i = 0; i < sl->count && !rc; i++) {
    osl_msg *v = onnxslim__msg_sub(g->f[sl->idx[i]].sub, onnx_SparseTensorProto_values_tag);
    if (v) rc = rename_item(v, from, to);
  }
  return rc;
}

int onnxslim__graph_drop_value_info(osl_msg *g, const char *name) {
  osl_gindex *ix = graph_index(g);
  if (!ix) return ONNXSLIM_ENOMEM;
  osl_map_entry *e = onnxslim__map_slot(&ix->vinfo, name);
  size_t n = 0;
  osl_msg *const *h = e && e->key ? holders(&e->value, &n) : NULL;
  size_t drop = 0;
  for (size_t i = 0; i < n; i++) drop += h[i]->fnum == onnx_GraphProto_value_info_tag;
  if (!drop) return 0;
  osl_msg **v = malloc(drop * sizeof *v);
  if (!v) return onnxslim__err_nomem("removing value infos");
  drop = 0;
  for (size_t i = 0; i < n; i++)
    if (h[i]->fnum == onnx_GraphProto_value_info_tag) v[drop++] = h[i];
  for (size_t i = 0; i < drop; i++) {
    size_t pos = onnxslim__msg_pos_of(g, v[i]);
    if (pos != SIZE_MAX) onnxslim__msg_remove(g, pos);
  }
  free(v);
  return 0;
}

int onnxslim_graph_reorder_nodes(onnxslim_graph *graph, onnxslim_node *const *order, size_t count) {
  G_OR(ONNXSLIM_EINVAL);
  osl_list *l = onnxslim__msg_list(g, onnx_GraphProto_node_tag);
  if (!l) return onnxslim__err_nomem(NULL);
  if (!order || count != l->count)
    return onnxslim__err(ONNXSLIM_EINVAL, "%s: %zu nodes given, the graph has %zu", __func__, count,
                         l->count);
  /* every node of the graph exactly once: marks by field position */
  osl_field *fs = malloc((count ? count : 1) * sizeof *fs);
  size_t *slot = malloc((count ? count : 1) * sizeof *slot);
  unsigned char *seen = calloc(g->nf ? g->nf : 1, 1);
  if (!fs || !slot || !seen) {
    free(fs);
    free(slot);
    free(seen);
    return onnxslim__err_nomem(NULL);
  }
  int rc = 0;
  for (size_t i = 0; i < count; i++) slot[i] = l->idx[i];
  for (size_t i = 0; i < count && !rc; i++) {
    const osl_msg *n = (const osl_msg *)order[i];
    size_t pos = n && n->parent == g && !n->detached ? onnxslim__msg_pos_of(g, n) : SIZE_MAX;
    if (pos == SIZE_MAX || g->f[pos].number != onnx_GraphProto_node_tag) {
      rc =
          onnxslim__err(ONNXSLIM_EINVAL, "%s: order[%zu] is not a node of this graph", __func__, i);
      break;
    }
    fs[i] = g->f[pos];
    if (seen[pos]) rc = onnxslim__err(ONNXSLIM_EINVAL, "%s: node listed twice", __func__);
    seen[pos] = 1;
  }
  if (!rc) {
    for (size_t i = 0; i < count; i++) {
      g->f[slot[i]] = fs[i];
      fs[i].sub->pos = (uint32_t)slot[i];
    }
    onnxslim__msg_touch(g);
    onnxslim__gindex_drop(g); /* consumers are listed in node order */
  }
  free(seen);
  free(fs);
  free(slot);
  return rc;
}
