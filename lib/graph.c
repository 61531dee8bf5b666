/*
 * libonnxslim - graphs: element access and name indexes (node by name,
 * initializer, value info, producer and consumers of a value).
 */
#include <stdlib.h>
#include <string.h>

#include "onnx.pb.h"

#include "internal.h"

#define G_OR(ret)                                  \
  osl_msg *g = OSL_CHECK(graph, onnx_GraphProto);  \
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
  return NULL;
}

#define G_LIST(fname, tag, type)                                                      \
  size_t onnxslim_graph_##fname##_count(const onnxslim_graph *graph) {                \
    G_OR(0);                                                                          \
    return onnxslim__msg_count(g, tag);                                               \
  }                                                                                   \
  type *onnxslim_graph_##fname(const onnxslim_graph *graph, size_t index) {           \
    G_OR(NULL);                                                                       \
    return (type *)onnxslim__msg_sub_at(g, tag, index);                               \
  }
G_LIST(node, onnx_GraphProto_node_tag, onnxslim_node)
G_LIST(input, onnx_GraphProto_input_tag, onnxslim_value_info)
G_LIST(output, onnx_GraphProto_output_tag, onnxslim_value_info)
G_LIST(value_info, onnx_GraphProto_value_info_tag, onnxslim_value_info)
G_LIST(initializer, onnx_GraphProto_initializer_tag, onnxslim_tensor)
G_LIST(sparse_initializer, onnx_GraphProto_sparse_initializer_tag, onnxslim_sparse_tensor)

/* ---- index ---------------------------------------------------------------- */

typedef struct {
  size_t count, cap;
  osl_msg **nodes;
} osl_nodelist;

typedef struct {
  osl_map nodes;     /* node name -> NodeProto */
  osl_map producer;  /* value -> NodeProto */
  osl_map inits;     /* initializer name -> TensorProto */
  osl_map vinfo;     /* value -> ValueInfoProto (inputs, outputs, value_info) */
  osl_map consumers; /* value -> osl_nodelist */
} osl_gindex;

void onnxslim__graph_invalidate(osl_msg *graph) { graph->cache = NULL; }

static int add_consumer(osl_arena *a, osl_map *map, const char *name, osl_msg *node) {
  osl_map_entry *e = onnxslim__map_put(a, map, name, NULL);
  if (!e) return ONNXSLIM_ENOMEM;
  osl_nodelist *l = e->value;
  if (!l) {
    l = onnxslim__arena_alloc(a, sizeof *l);
    if (!l) return ONNXSLIM_ENOMEM;
    memset(l, 0, sizeof *l);
    e->value = l;
  }
  if (l->count && l->nodes[l->count - 1] == node) return 0;
  if (l->count == l->cap) {
    size_t cap = l->cap ? l->cap * 2 : 2;
    osl_msg **v = onnxslim__arena_alloc(a, cap * sizeof *v);
    if (!v) return ONNXSLIM_ENOMEM;
    if (l->count) memcpy(v, l->nodes, l->count * sizeof *v);
    l->nodes = v;
    l->cap = cap;
  }
  l->nodes[l->count++] = node;
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
      const char *name = onnxslim__msg_str(m, d == 0 ? onnx_ValueInfoProto_name_tag
                                                     : onnx_TensorProto_name_tag);
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
               af->number == onnx_AttributeProto_graphs_tag) && af->sub) {
            int rc = scope_names(tmp, af->sub, used, defined);
            if (rc) return rc;
          }
        }
      }
    }
  }
  return 0;
}

/* Adds node as a consumer of every outer value its subgraphs capture. */
static int add_captures(osl_arena *a, osl_gindex *ix, osl_msg *node) {
  osl_arena tmp = {0};
  osl_map used = {0}, defined = {0};
  int rc = 0, any = 0;
  for (size_t k = 0; k < node->nf && !rc; k++) {
    osl_field *f = &node->f[k];
    if (f->number != onnx_NodeProto_attribute_tag || !f->sub) continue;
    for (size_t j = 0; j < f->sub->nf && !rc; j++) {
      osl_field *af = &f->sub->f[j];
      if ((af->number == onnx_AttributeProto_g_tag ||
           af->number == onnx_AttributeProto_graphs_tag) && af->sub) {
        any = 1;
        rc = scope_names(&tmp, af->sub, &used, &defined);
      }
    }
  }
  if (any && !rc) {
    for (size_t i = 0; i < used.cap && !rc; i++) {
      const char *name = used.slots[i].key;
      if (name && !onnxslim__map_get(&defined, name)) rc = add_consumer(a, &ix->consumers, name, node);
    }
  }
  onnxslim__arena_free(&tmp);
  return rc;
}

static osl_gindex *graph_index(osl_msg *g) {
  if (g->cache) return g->cache;
  onnxslim_model *model = g->model;
  osl_arena *a = &model->arena;
  osl_gindex *ix = onnxslim__arena_alloc(a, sizeof *ix);
  if (!ix) goto nomem;
  memset(ix, 0, sizeof *ix);
  for (size_t i = 0; i < g->nf; i++) {
    osl_field *f = &g->f[i];
    osl_msg *m = f->sub;
    if (!m) continue;
    if (f->number == onnx_GraphProto_initializer_tag) {
      const char *name = onnxslim__msg_str(m, onnx_TensorProto_name_tag);
      if (!name || !onnxslim__map_put(a, &ix->inits, name, m)) goto nomem;
    } else if (f->number == onnx_GraphProto_node_tag) {
      const char *name = onnxslim__msg_str(m, onnx_NodeProto_name_tag);
      if (!name) goto nomem;
      if (name[0] && !onnxslim__map_put(a, &ix->nodes, name, m)) goto nomem;
      for (size_t k = 0; k < m->nf; k++) {
        osl_field *nf = &m->f[k];
        if (nf->number != onnx_NodeProto_input_tag && nf->number != onnx_NodeProto_output_tag)
          continue;
        const char *v = onnxslim__field_cstr(model, nf);
        if (!v) goto nomem;
        if (!v[0]) continue;
        if (nf->number == onnx_NodeProto_output_tag) {
          if (!onnxslim__map_put(a, &ix->producer, v, m)) goto nomem;
        } else if (add_consumer(a, &ix->consumers, v, m)) {
          goto nomem;
        }
      }
      if (add_captures(a, ix, m)) goto nomem;
    }
  }
  /* value infos: inputs first, then outputs, then value_info */
  static const uint32_t order[] = {onnx_GraphProto_input_tag, onnx_GraphProto_output_tag,
                                   onnx_GraphProto_value_info_tag};
  for (size_t o = 0; o < 3; o++) {
    osl_list *l = onnxslim__msg_list(g, order[o]);
    if (!l) goto nomem;
    for (size_t i = 0; i < l->count; i++) {
      osl_msg *m = g->f[l->idx[i]].sub;
      const char *name = onnxslim__msg_str(m, onnx_ValueInfoProto_name_tag);
      if (!name || !onnxslim__map_put(a, &ix->vinfo, name, m)) goto nomem;
    }
  }
  g->cache = ix;
  return ix;
nomem:
  onnxslim__err(ONNXSLIM_ENOMEM, "out of memory while indexing graph");
  return NULL;
}

static void *find(const onnxslim_graph *graph, const char *name, size_t off, const char *what,
                  const char *fn) {
  osl_msg *g = onnxslim__check(graph, &osl_def_onnx_GraphProto, fn);
  if (!g) return NULL;
  if (!name) {
    onnxslim__err(ONNXSLIM_EINVAL, "%s: NULL name", fn);
    return NULL;
  }
  osl_gindex *ix = graph_index(g);
  if (!ix) return NULL;
  void *v = onnxslim__map_get((osl_map *)((char *)ix + off), name);
  if (!v) onnxslim__err(ONNXSLIM_ENOTFOUND, "no %s named '%s' in graph '%s'", what, name,
                        onnxslim__msg_str(g, onnx_GraphProto_name_tag));
  return v;
}

onnxslim_node *onnxslim_graph_find_node(const onnxslim_graph *graph, const char *name) {
  return find(graph, name, offsetof(osl_gindex, nodes), "node", __func__);
}
onnxslim_tensor *onnxslim_graph_find_initializer(const onnxslim_graph *graph, const char *name) {
  return find(graph, name, offsetof(osl_gindex, inits), "initializer", __func__);
}
onnxslim_value_info *onnxslim_graph_find_value_info(const onnxslim_graph *graph,
                                                    const char *name) {
  return find(graph, name, offsetof(osl_gindex, vinfo), "value info", __func__);
}
onnxslim_node *onnxslim_graph_producer(const onnxslim_graph *graph, const char *name) {
  return find(graph, name, offsetof(osl_gindex, producer), "producer of a value", __func__);
}

size_t onnxslim_graph_consumer_count(const onnxslim_graph *graph, const char *name) {
  osl_nodelist *l = find(graph, name, offsetof(osl_gindex, consumers), "consumer of a value",
                         __func__);
  return l ? l->count : 0;
}

onnxslim_node *onnxslim_graph_consumer(const onnxslim_graph *graph, const char *name,
                                       size_t index) {
  osl_nodelist *l = find(graph, name, offsetof(osl_gindex, consumers), "consumer of a value",
                         __func__);
  if (!l) return NULL;
  if (index >= l->count) {
    onnxslim__err(ONNXSLIM_ERANGE, "consumer index %zu out of range (%zu consumers of '%s')",
                  index, l->count, name);
    return NULL;
  }
  return (onnxslim_node *)l->nodes[index];
}
