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

/* Adds node as a consumer of every outer value its subgraphs capture. Each
 * subgraph is its own scope: a name one branch defines can still be
 * captured by another. */
static int add_captures(osl_arena *a, osl_gindex *ix, osl_msg *node) {
  int rc = 0;
  for (size_t k = 0; k < node->nf && !rc; k++) {
    osl_field *f = &node->f[k];
    if (f->number != onnx_NodeProto_attribute_tag || !f->sub) continue;
    for (size_t j = 0; j < f->sub->nf && !rc; j++) {
      osl_field *af = &f->sub->f[j];
      if ((af->number != onnx_AttributeProto_g_tag &&
           af->number != onnx_AttributeProto_graphs_tag) || !af->sub)
        continue;
      osl_arena tmp = {0};
      osl_map used = {0}, defined = {0};
      rc = scope_names(&tmp, af->sub, &used, &defined);
      for (size_t i = 0; i < used.cap && !rc; i++) {
        const char *name = used.slots[i].key;
        if (name && !onnxslim__map_get(&defined, name))
          rc = add_consumer(a, &ix->consumers, name, node);
      }
      onnxslim__arena_free(&tmp);
    }
  }
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

/* ---- graph edits ------------------------------------------------------------ */

int onnxslim_graph_set_name(onnxslim_graph *graph, const char *name) {
  G_OR(ONNXSLIM_EINVAL);
  if (!name) return onnxslim__err(ONNXSLIM_EINVAL, "%s: NULL name", __func__);
  return onnxslim__msg_set_str(g, onnx_GraphProto_name_tag, name);
}

int onnxslim_graph_add_node(onnxslim_graph *graph, size_t index, const char *op_type,
                            const char *domain, const char *name, const char *const *inputs,
                            size_t n_inputs, const char *const *outputs, size_t n_outputs,
                            onnxslim_node **out) {
  if (out) *out = NULL;
  G_OR(ONNXSLIM_EINVAL);
  if (!op_type || (!inputs && n_inputs) || (!outputs && n_outputs))
    return onnxslim__err(ONNXSLIM_EINVAL, "%s: NULL argument", __func__);
  size_t count = onnxslim__msg_count(g, onnx_GraphProto_node_tag);
  if (index == SIZE_MAX) index = count;
  if (index > count)
    return onnxslim__err(ONNXSLIM_ERANGE, "%s: index %zu past the end (%zu nodes)", __func__,
                         index, count);
  onnxslim_model *model = g->model;
  osl_msg *n = onnxslim__msg_new(model, &osl_def_onnx_NodeProto, NULL);
  if (!n) return ONNXSLIM_ENOMEM;
  osl_field f;
  int rc = 0;
  /* fields in onnx.proto order, as other writers emit them */
  for (size_t i = 0; i < n_inputs && !rc; i++)
    if (!(rc = onnxslim__fld_str(model, onnx_NodeProto_input_tag, inputs[i] ? inputs[i] : "", &f)))
      rc = onnxslim__msg_insert(n, SIZE_MAX, &f);
  for (size_t i = 0; i < n_outputs && !rc; i++)
    if (!(rc = onnxslim__fld_str(model, onnx_NodeProto_output_tag, outputs[i] ? outputs[i] : "", &f)))
      rc = onnxslim__msg_insert(n, SIZE_MAX, &f);
  if (!rc && name && name[0] && !(rc = onnxslim__fld_str(model, onnx_NodeProto_name_tag, name, &f)))
    rc = onnxslim__msg_insert(n, SIZE_MAX, &f);
  if (!rc && !(rc = onnxslim__fld_str(model, onnx_NodeProto_op_type_tag, op_type, &f)))
    rc = onnxslim__msg_insert(n, SIZE_MAX, &f);
  if (!rc && domain && domain[0] &&
      !(rc = onnxslim__fld_str(model, onnx_NodeProto_domain_tag, domain, &f)))
    rc = onnxslim__msg_insert(n, SIZE_MAX, &f);
  if (rc) return rc;
  onnxslim__fld_sub(onnx_GraphProto_node_tag, n, &f);
  rc = onnxslim__msg_insert(g, onnxslim__msg_pos_nth(g, onnx_GraphProto_node_tag, index), &f);
  if (!rc && out) *out = (onnxslim_node *)n;
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
  size_t pos = n->parent == g ? onnxslim__msg_pos_of(g, n) : SIZE_MAX;
  if (pos == SIZE_MAX) return onnxslim__err(ONNXSLIM_EINVAL, "%s: node not in this graph", __func__);
  size_t count = onnxslim__msg_count(g, onnx_GraphProto_node_tag);
  if (index >= count)
    return onnxslim__err(ONNXSLIM_ERANGE, "%s: index %zu out of range (%zu nodes)", __func__,
                         index, count);
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
  size_t count = onnxslim__msg_count(g, onnx_GraphProto_initializer_tag);
  rc = onnxslim__msg_insert(g, onnxslim__msg_pos_nth(g, onnx_GraphProto_initializer_tag, count), &f);
  if (!rc && out) *out = (onnxslim_tensor *)t;
  return rc;
}

int onnxslim_graph_add_initializer(onnxslim_graph *graph, const char *name, int32_t dtype,
                                   const int64_t *dims, size_t rank, const void *data,
                                   size_t size, unsigned int flags, onnxslim_tensor **out) {
  if (out) *out = NULL;
  G_OR(ONNXSLIM_EINVAL);
  if (!name) return onnxslim__err(ONNXSLIM_EINVAL, "%s: NULL name", __func__);
  osl_msg *t = onnxslim__msg_new(g->model, &osl_def_onnx_TensorProto, NULL);
  if (!t) return ONNXSLIM_ENOMEM;
  osl_field f;
  int rc = onnxslim__fld_str(g->model, onnx_TensorProto_name_tag, name, &f);
  if (!rc) rc = onnxslim__msg_insert(t, SIZE_MAX, &f);
  if (!rc) rc = onnxslim__tensor_validate(t, "a new tensor");
  if (!rc) rc = onnxslim_tensor_set_data((onnxslim_tensor *)t, dtype, dims, rank, data, size, flags);
  if (rc) return rc;
  onnxslim__fld_sub(onnx_GraphProto_initializer_tag, t, &f);
  size_t count = onnxslim__msg_count(g, onnx_GraphProto_initializer_tag);
  rc = onnxslim__msg_insert(g, onnxslim__msg_pos_nth(g, onnx_GraphProto_initializer_tag, count), &f);
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
  size_t count = onnxslim__msg_count(g, number);
  rc = onnxslim__msg_insert(g, onnxslim__msg_pos_nth(g, number, count), &f);
  if (!rc && out) *out = (onnxslim_value_info *)v;
  return rc;
}

int onnxslim_graph_add_input(onnxslim_graph *graph, const char *name, onnxslim_value_info **out) {
  return add_vi(graph, onnx_GraphProto_input_tag, name, out, __func__);
}
int onnxslim_graph_add_output(onnxslim_graph *graph, const char *name,
                              onnxslim_value_info **out) {
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
  if (pos == SIZE_MAX) return onnxslim__err(ONNXSLIM_EINVAL, "%s: value info not in this graph", __func__);
  onnxslim__msg_remove(g, pos);
  return 0;
}

/* ---- renaming a value everywhere ------------------------------------------- */

static int rename_field(osl_msg *m, size_t i, const char *to) {
  osl_field nf;
  int rc = onnxslim__fld_str(m->model, m->f[i].number, to, &nf);
  if (rc) return rc;
  m->f[i] = nf;
  onnxslim__msg_touch(m);
  return 0;
}

static int field_is(onnxslim_model *model, osl_field *f, const char *name) {
  const char *s = onnxslim__field_cstr(model, f);
  return s && strcmp(s, name) == 0;
}

/* Does graph g itself define `name` (input, initializer, sparse initializer,
 * node output)? */
static int defines(osl_msg *g, const char *name) {
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
      if ((af->number == onnx_AttributeProto_g_tag || af->number == onnx_AttributeProto_graphs_tag) &&
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
  for (size_t i = 0; i < g->nf && !rc; i++) {
    osl_field *f = &g->f[i];
    osl_msg *m = f->sub;
    if (!m) continue;
    switch (f->number) {
    case onnx_GraphProto_node_tag:
      for (size_t k = 0; k < m->nf && !rc; k++) {
        osl_field *nf = &m->f[k];
        if ((nf->number == onnx_NodeProto_input_tag ||
             (!outer && nf->number == onnx_NodeProto_output_tag)) && field_is(model, nf, from))
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

int onnxslim_graph_rename_value(onnxslim_graph *graph, const char *from, const char *to) {
  G_OR(ONNXSLIM_EINVAL);
  if (!from || !to || !from[0] || !to[0])
    return onnxslim__err(ONNXSLIM_EINVAL, "%s: names must be non-empty", __func__);
  if (strcmp(from, to) == 0) return 0;
  return rename_in_graph(g, from, to, 0);
}

int onnxslim_graph_reorder_nodes(onnxslim_graph *graph, onnxslim_node *const *order,
                                 size_t count) {
  G_OR(ONNXSLIM_EINVAL);
  osl_list *l = onnxslim__msg_list(g, onnx_GraphProto_node_tag);
  if (!l) return onnxslim__err(ONNXSLIM_ENOMEM, "out of memory");
  if (!order || count != l->count)
    return onnxslim__err(ONNXSLIM_EINVAL, "%s: %zu nodes given, the graph has %zu", __func__,
                         count, l->count);
  /* every node of the graph exactly once: marks by field position */
  osl_field *fs = malloc((count ? count : 1) * sizeof *fs);
  size_t *slot = malloc((count ? count : 1) * sizeof *slot);
  unsigned char *seen = calloc(g->nf ? g->nf : 1, 1);
  if (!fs || !slot || !seen) {
    free(fs);
    free(slot);
    free(seen);
    return onnxslim__err(ONNXSLIM_ENOMEM, "out of memory");
  }
  int rc = 0;
  for (size_t i = 0; i < count; i++) slot[i] = l->idx[i];
  for (size_t i = 0; i < count && !rc; i++) {
    const osl_msg *n = (const osl_msg *)order[i];
    size_t pos = n && n->parent == g && !n->detached ? onnxslim__msg_pos_of(g, n) : SIZE_MAX;
    if (pos == SIZE_MAX || g->f[pos].number != onnx_GraphProto_node_tag) {
      rc = onnxslim__err(ONNXSLIM_EINVAL, "%s: order[%zu] is not a node of this graph", __func__, i);
      break;
    }
    fs[i] = g->f[pos];
    if (seen[pos]) rc = onnxslim__err(ONNXSLIM_EINVAL, "%s: node listed twice", __func__);
    seen[pos] = 1;
  }
  if (!rc) {
    for (size_t i = 0; i < count; i++) g->f[slot[i]] = fs[i];
    onnxslim__msg_touch(g);
  }
  free(seen);
  free(fs);
  free(slot);
  return rc;
}
