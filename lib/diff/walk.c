/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - the diff's walk (onnxslim_diff): model fields, opsets,
 * metadata, functions, then each graph (subgraphs too): name, inputs,
 * outputs, value_info, initializers, sparse initializers and nodes,
 * matched by name (unnamed nodes: the k-th unnamed node of an op type in A
 * with the k-th of that op type in B). Matching sorts the keys: time
 * n log n, memory linear in the lists, charged (onnxslim__diff_charge).
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff/diff.h"

#define sb_puts onnxslim__sb_puts
#define sb_printf onnxslim__sb_printf
#define sb_str onnxslim__sb_str
#define sb_reset onnxslim__sb_reset
#define sb_free onnxslim__sb_free
#define SB(c) \
  { c, NULL, 0, 0 }

/* ---- matching by key ---------------------------------------------------------- */

typedef struct keyed {
  const char *key;
  size_t index;
} keyed;

static int cmp_keyed(const void *pa, const void *pb) {
  const keyed *x = pa, *y = pb;
  int r = strcmp(x->key, y->key);
  if (r) return r;
  return x->index < y->index ? -1 : x->index > y->index;
}

/* A match of two lists: ma[i] is the index in B of A's item i, or -1; mb likewise. */
typedef struct match {
  long *ma, *mb;
  size_t na, nb;
} match;

static void match_free(osl_diff *c, match *m) {
  onnxslim__diff_free(c, m->ma, m->na * sizeof *m->ma);
  onnxslim__diff_free(c, m->mb, m->nb * sizeof *m->mb);
  m->ma = m->mb = NULL;
}

/*
 * Pairs the items of two lists by key: the k-th item of A with a key pairs
 * with the k-th item of B with that key. Keys are borrowed. 0 or c->rc.
 */
static int match_keys(osl_diff *c, const char *const *ka, size_t na, const char *const *kb,
                      size_t nb, match *m) {
  keyed *sa, *sb;
  size_t i = 0, k = 0;
  m->na = na;
  m->nb = nb;
  m->ma = onnxslim__diff_alloc_array(c, na, sizeof *m->ma);
  m->mb = onnxslim__diff_alloc_array(c, nb, sizeof *m->mb);
  sa = onnxslim__diff_alloc_array(c, na, sizeof *sa);
  sb = onnxslim__diff_alloc_array(c, nb, sizeof *sb);
  if (c->rc) goto out;
  for (i = 0; i < na; i++) {
    sa[i].key = ka[i];
    sa[i].index = i;
    m->ma[i] = -1;
  }
  for (i = 0; i < nb; i++) {
    sb[i].key = kb[i];
    sb[i].index = i;
    m->mb[i] = -1;
  }
  qsort(sa, na, sizeof *sa, cmp_keyed);
  qsort(sb, nb, sizeof *sb, cmp_keyed);
  i = 0;
  while (i < na && k < nb) {
    int r = strcmp(sa[i].key, sb[k].key);
    if (r < 0) i++;
    else if (r > 0) k++;
    else {
      m->ma[sa[i].index] = (long)sb[k].index;
      m->mb[sb[k].index] = (long)sa[i].index;
      i++;
      k++;
    }
  }
out:
  onnxslim__diff_free(c, sa, na * sizeof *sa);
  onnxslim__diff_free(c, sb, nb * sizeof *sb);
  return c->rc;
}

/* ---- a list of strings held by the list ------------------------------------------- */

typedef struct strlist {
  const char **v;
  size_t n, cap;
  osl_arena ar;
} strlist;

static void sl_add(osl_diff *c, strlist *l, const char *s) {
  uint64_t before = l->ar.total;
  char *p;
  if (c->rc) return;
  if (l->n == l->cap) {
    size_t cap = l->cap ? 2 * l->cap : 16;
    const char **v;
    if (onnxslim__diff_charge(c, (int64_t)((cap - l->cap) * sizeof *v)) != 0) return;
    v = realloc(l->v, cap * sizeof *v);
    if (!v) {
      onnxslim__diff_fail(c, ONNXSLIM_ENOMEM, "out of memory: comparing the models");
      return;
    }
    l->v = v;
    l->cap = cap;
  }
  p = onnxslim__arena_strndup(&l->ar, s, strlen(s));
  if (!p) {
    onnxslim__diff_fail(c, ONNXSLIM_ENOMEM, "out of memory: comparing the models");
    return;
  }
  if (l->ar.total != before) onnxslim__diff_charge(c, (int64_t)(l->ar.total - before));
  l->v[l->n++] = p;
}

static void sl_free(osl_diff *c, strlist *l) {
  onnxslim__diff_charge(c, -(int64_t)(l->cap * sizeof *l->v + l->ar.total));
  free(l->v);
  onnxslim__arena_free(&l->ar);
  memset(l, 0, sizeof *l);
}

/* ---- attributes ------------------------------------------------------------------ */

/* Compares two attributes of matched nodes (same name). `sub` is the path
 * prefix for their subgraphs. 0 or c->rc. */
static int cmp_attr(osl_diff *c, const osl_diff_at *where, const char *sub, const onnxslim_attr *x,
                    const onnxslim_attr *y) {
  int type = onnxslim_attr_type(x);
  const char *rx = onnxslim_attr_ref_attr_name(x), *ry = onnxslim_attr_ref_attr_name(y);
  osl_sbuf a = SB(c), b = SB(c), p = SB(c);
  size_t i, n;
  osl_diff_at d = *where;

  d.aspect = ONNXSLIM_DIFF_VALUE;
  if (type != onnxslim_attr_type(y) || strcmp(rx ? rx : "", ry ? ry : "") != 0 || (rx && rx[0])) {
    if (onnxslim__diff_sb_attr(&a, x, 1) != 0 || onnxslim__diff_sb_attr(&b, y, 1) != 0)
      onnxslim__diff_fail_lib(c, "%s: attribute", d.label);
    else onnxslim__diff_add_if_differs(c, &d, ONNXSLIM_DIFF_VALUE, sb_str(&a), sb_str(&b));
    goto out;
  }
  switch (type) {
  case ONNXSLIM_ATTR_FLOAT:
  case ONNXSLIM_ATTR_INT:
  case ONNXSLIM_ATTR_STRING:
  case ONNXSLIM_ATTR_TYPE_PROTO:
    /* a float's text (%.9g) tells every float apart; strings in full */
    if (onnxslim__diff_sb_attr(&a, x, 0) != 0 || onnxslim__diff_sb_attr(&b, y, 0) != 0)
      onnxslim__diff_fail_lib(c, "%s: attribute", d.label);
    else onnxslim__diff_add_if_differs(c, &d, ONNXSLIM_DIFF_VALUE, sb_str(&a), sb_str(&b));
    break;
  case ONNXSLIM_ATTR_FLOATS:
  case ONNXSLIM_ATTR_INTS:
  case ONNXSLIM_ATTR_STRINGS:
    i = onnxslim__diff_list_first_diff(x, y, type);
    if (i == SIZE_MAX) break;
    if (onnxslim__diff_sb_list(&a, x, type, i) != 0 || onnxslim__diff_sb_list(&b, y, type, i) != 0)
      onnxslim__diff_fail_lib(c, "%s: attribute", d.label);
    else {
      d.a = sb_str(&a);
      d.b = sb_str(&b);
      onnxslim__diff_add(c, &d);
    }
    break;
  case ONNXSLIM_ATTR_TENSOR: {
    const onnxslim_tensor *tx = onnxslim_attr_tensor(x), *ty = onnxslim_attr_tensor(y);
    if (!tx || !ty) onnxslim__diff_fail_lib(c, "%s: attribute tensor", d.label);
    else onnxslim__diff_tensor(c, &d, tx, ty, NULL);
    break;
  }
  case ONNXSLIM_ATTR_SPARSE_TENSOR: {
    const onnxslim_sparse_tensor *sx = onnxslim_attr_sparse_tensor(x);
    const onnxslim_sparse_tensor *sy = onnxslim_attr_sparse_tensor(y);
    if (!sx || !sy) onnxslim__diff_fail_lib(c, "%s: attribute sparse tensor", d.label);
    else onnxslim__diff_sparse(c, &d, sx, sy);
    break;
  }
  case ONNXSLIM_ATTR_GRAPH: {
    const onnxslim_graph *gx = onnxslim_attr_graph(x), *gy = onnxslim_attr_graph(y);
    if (!gx || !gy) onnxslim__diff_fail_lib(c, "%s: attribute graph", d.label);
    else {
      sb_printf(&p, "%s%s attribute '%s'", sub, d.label, d.attribute);
      if (!c->rc) onnxslim__diff_graph(c, sb_str(&p), gx, gy);
    }
    break;
  }
  case ONNXSLIM_ATTR_TENSORS:
  case ONNXSLIM_ATTR_GRAPHS:
  case ONNXSLIM_ATTR_SPARSE_TENSORS:
  case ONNXSLIM_ATTR_TYPE_PROTOS:
    n = onnxslim_attr_list_count(x);
    if (n != onnxslim_attr_list_count(y)) {
      if (onnxslim__diff_sb_attr(&a, x, 1) != 0 || onnxslim__diff_sb_attr(&b, y, 1) != 0)
        onnxslim__diff_fail_lib(c, "%s: attribute", d.label);
      else onnxslim__diff_add_if_differs(c, &d, ONNXSLIM_DIFF_VALUE, sb_str(&a), sb_str(&b));
      break;
    }
    for (i = 0; i < n && !c->rc; i++) {
      osl_diff_at e = d;
      sb_reset(&p);
      sb_printf(&p, "%s[%zu]", d.attribute, i);
      if (c->rc) break;
      e.attribute = sb_str(&p);
      if (type == ONNXSLIM_ATTR_TENSORS) {
        const onnxslim_tensor *tx = onnxslim_attr_tensors(x, i);
        const onnxslim_tensor *ty = onnxslim_attr_tensors(y, i);
        if (tx && ty) onnxslim__diff_tensor(c, &e, tx, ty, NULL);
        else onnxslim__diff_fail_lib(c, "%s: attribute", d.label);
      } else if (type == ONNXSLIM_ATTR_SPARSE_TENSORS) {
        const onnxslim_sparse_tensor *sx = onnxslim_attr_sparse_tensors(x, i);
        const onnxslim_sparse_tensor *sy = onnxslim_attr_sparse_tensors(y, i);
        if (sx && sy) onnxslim__diff_sparse(c, &e, sx, sy);
        else onnxslim__diff_fail_lib(c, "%s: attribute", d.label);
      } else if (type == ONNXSLIM_ATTR_GRAPHS) {
        const onnxslim_graph *gx = onnxslim_attr_graphs(x, i);
        const onnxslim_graph *gy = onnxslim_attr_graphs(y, i);
        osl_sbuf q = SB(c);
        sb_printf(&q, "%s%s attribute '%s'", sub, d.label, e.attribute);
        if (!gx || !gy) onnxslim__diff_fail_lib(c, "%s: attribute", d.label);
        else if (!c->rc) onnxslim__diff_graph(c, sb_str(&q), gx, gy);
        sb_free(&q);
      } else {
        const onnxslim_type *tx = onnxslim_attr_type_protos(x, i);
        const onnxslim_type *ty = onnxslim_attr_type_protos(y, i);
        sb_reset(&a);
        sb_reset(&b);
        if (!tx || !ty || onnxslim__diff_sb_type(&a, tx) != 0 ||
            onnxslim__diff_sb_type(&b, ty) != 0)
          onnxslim__diff_fail_lib(c, "%s: attribute", d.label);
        else onnxslim__diff_add_if_differs(c, &e, ONNXSLIM_DIFF_VALUE, sb_str(&a), sb_str(&b));
      }
    }
    break;
  default: break; /* unknown types: the fingerprints tell */
  }
out:
  sb_free(&a);
  sb_free(&b);
  sb_free(&p);
  return c->rc;
}

/* ---- nodes ------------------------------------------------------------------------ */

/* "['a', 'b', '']": a node's inputs or outputs. */
static void sb_names(osl_sbuf *sb, const onnxslim_node *n, int outputs) {
  size_t i, count = outputs ? onnxslim_node_output_count(n) : onnxslim_node_input_count(n);
  sb_puts(sb, "[");
  for (i = 0; i < count; i++) {
    const char *s = outputs ? onnxslim_node_output(n, i) : onnxslim_node_input(n, i);
    sb_printf(sb, "%s'%s'", i ? ", " : "", s ? s : "?");
  }
  sb_puts(sb, "]");
}

/* "node 'name'", or "node #3 (Add)" for an unnamed node. */
static void sb_node_label(osl_sbuf *sb, const onnxslim_node *n, size_t index) {
  const char *name = onnxslim_node_name(n);
  if (name && name[0]) {
    sb_printf(sb, "node '%s'", name);
    return;
  }
  sb_printf(sb, "node #%zu (", index);
  onnxslim__diff_sb_op(sb, n);
  sb_puts(sb, ")");
}

/* The attribute names of a node, in *keys (allocated, charged). 0 or c->rc. */
static int attr_names(osl_diff *c, const onnxslim_node *n, const char *label, const char ***keys,
                      size_t *count) {
  size_t i;
  *count = onnxslim_node_attr_count(n);
  *keys = onnxslim__diff_alloc_array(c, *count, sizeof **keys);
  for (i = 0; i < *count && !c->rc; i++) {
    const onnxslim_attr *at = onnxslim_node_attr(n, i);
    if (!at || !((*keys)[i] = onnxslim_attr_name(at)))
      onnxslim__diff_fail_lib(c, "%s: attribute %zu", label, i);
  }
  return c->rc;
}

/* Compares two matched nodes. 0 or c->rc. */
static int cmp_node(osl_diff *c, const char *path, const onnxslim_node *x, size_t ix,
                    const onnxslim_node *y, size_t iy) {
  osl_sbuf label = SB(c), a = SB(c), b = SB(c), sub = SB(c);
  const char **ka = NULL, **kb = NULL;
  size_t i, na = 0, nb = 0;
  match m = {NULL, NULL, 0, 0};
  const char *name = onnxslim_node_name(x);
  osl_diff_at d;

  sb_node_label(&label, x, ix);
  d = onnxslim__diff_at(path, ONNXSLIM_DIFF_KIND_NODE, name ? name : "", sb_str(&label));
  d.index_a = (int64_t)ix;
  d.index_b = (int64_t)iy;
  onnxslim__diff_sb_op(&a, x);
  onnxslim__diff_sb_op(&b, y);
  if (!c->rc) onnxslim__diff_add_if_differs(c, &d, ONNXSLIM_DIFF_OP_TYPE, sb_str(&a), sb_str(&b));
  sb_reset(&a);
  sb_reset(&b);
  sb_names(&a, x, 0);
  sb_names(&b, y, 0);
  if (!c->rc) onnxslim__diff_add_if_differs(c, &d, ONNXSLIM_DIFF_INPUTS, sb_str(&a), sb_str(&b));
  sb_reset(&a);
  sb_reset(&b);
  sb_names(&a, x, 1);
  sb_names(&b, y, 1);
  if (!c->rc) onnxslim__diff_add_if_differs(c, &d, ONNXSLIM_DIFF_OUTPUTS, sb_str(&a), sb_str(&b));

  if (c->rc || attr_names(c, x, sb_str(&label), &ka, &na) != 0 ||
      attr_names(c, y, sb_str(&label), &kb, &nb) != 0 || match_keys(c, ka, na, kb, nb, &m) != 0)
    goto out;
  if (path[0]) sb_printf(&sub, "%s / ", path);
  for (i = 0; i < na && !c->rc; i++) {
    osl_diff_at e = d;
    e.attribute = ka[i];
    if (m.ma[i] >= 0) {
      cmp_attr(c, &e, sb_str(&sub), onnxslim_node_attr(x, i),
               onnxslim_node_attr(y, (size_t)m.ma[i]));
      continue;
    }
    sb_reset(&a);
    if (onnxslim__diff_sb_attr(&a, onnxslim_node_attr(x, i), 1) != 0)
      onnxslim__diff_fail_lib(c, "%s", sb_str(&label));
    else if (!c->rc) onnxslim__diff_add_presence(c, &e, sb_str(&a), NULL);
  }
  for (i = 0; i < nb && !c->rc; i++) {
    osl_diff_at e = d;
    if (m.mb[i] >= 0) continue;
    e.attribute = kb[i];
    sb_reset(&b);
    if (onnxslim__diff_sb_attr(&b, onnxslim_node_attr(y, i), 1) != 0)
      onnxslim__diff_fail_lib(c, "%s", sb_str(&label));
    else if (!c->rc) onnxslim__diff_add_presence(c, &e, NULL, sb_str(&b));
  }
out:
  onnxslim__diff_free(c, ka, na * sizeof *ka);
  onnxslim__diff_free(c, kb, nb * sizeof *kb);
  match_free(c, &m);
  sb_free(&label);
  sb_free(&a);
  sb_free(&b);
  sb_free(&sub);
  return c->rc;
}

/* The nodes of a graph or of a function. */
typedef struct node_list {
  const onnxslim_node **v;
  size_t n;
} node_list;

static void nl_free(osl_diff *c, node_list *l) {
  onnxslim__diff_free(c, l->v, l->n * sizeof *l->v);
  l->v = NULL;
  l->n = 0;
}

/* Matching keys: "n" + name, or for an unnamed node "u" + domain + op type
 * (so that the k-th unnamed node of an op pairs with the k-th). */
static void node_keys(osl_diff *c, const node_list *l, strlist *keys) {
  size_t i;
  osl_sbuf k = SB(c);
  for (i = 0; i < l->n && !c->rc; i++) {
    const char *name = onnxslim_node_name(l->v[i]);
    sb_reset(&k);
    if (name && name[0]) sb_printf(&k, "n%s", name);
    else
      sb_printf(&k, "u%s%c%s", onnxslim__diff_op_domain(onnxslim_node_domain(l->v[i])), 1,
                onnxslim_node_op_type(l->v[i]));
    sl_add(c, keys, sb_str(&k));
  }
  sb_free(&k);
}

/* Reports a node of one model only. */
static void node_presence(osl_diff *c, const char *path, const onnxslim_node *n, size_t i,
                          int in_a) {
  osl_sbuf label = SB(c), op = SB(c);
  const char *name = onnxslim_node_name(n);
  osl_diff_at d;
  sb_node_label(&label, n, i);
  onnxslim__diff_sb_op(&op, n);
  d = onnxslim__diff_at(path, ONNXSLIM_DIFF_KIND_NODE, name ? name : "", sb_str(&label));
  if (in_a) d.index_a = (int64_t)i;
  else d.index_b = (int64_t)i;
  if (!c->rc)
    onnxslim__diff_add_presence(c, &d, in_a ? sb_str(&op) : NULL, in_a ? NULL : sb_str(&op));
  sb_free(&label);
  sb_free(&op);
}

static int diff_nodes(osl_diff *c, const char *path, const node_list *x, const node_list *y) {
  strlist kx, ky;
  match m = {NULL, NULL, 0, 0};
  size_t i;

  memset(&kx, 0, sizeof kx);
  memset(&ky, 0, sizeof ky);
  node_keys(c, x, &kx);
  node_keys(c, y, &ky);
  if (!c->rc) match_keys(c, kx.v, kx.n, ky.v, ky.n, &m);
  /* the keys are no longer needed: give their memory back before the walk */
  sl_free(c, &kx);
  sl_free(c, &ky);
  for (i = 0; i < x->n && !c->rc; i++) {
    if (m.ma[i] >= 0) cmp_node(c, path, x->v[i], i, y->v[m.ma[i]], (size_t)m.ma[i]);
    else node_presence(c, path, x->v[i], i, 1);
  }
  for (i = 0; i < y->n && !c->rc; i++)
    if (m.mb[i] < 0) node_presence(c, path, y->v[i], i, 0);
  match_free(c, &m);
  return c->rc;
}

static int graph_nodes(osl_diff *c, const onnxslim_graph *g, node_list *l) {
  size_t i;
  l->n = onnxslim_graph_node_count(g);
  l->v = onnxslim__diff_alloc_array(c, l->n, sizeof *l->v);
  for (i = 0; i < l->n && !c->rc; i++)
    if (!(l->v[i] = onnxslim_graph_node(g, i))) onnxslim__diff_fail_lib(c, "node %zu", i);
  return c->rc;
}

/* ---- graphs -------------------------------------------------------------------------- */

enum { VALUES_INPUT, VALUES_OUTPUT, VALUES_INFO };

static size_t value_count(const onnxslim_graph *g, int which) {
  return which == VALUES_INPUT    ? onnxslim_graph_input_count(g)
         : which == VALUES_OUTPUT ? onnxslim_graph_output_count(g)
                                  : onnxslim_graph_value_info_count(g);
}

static const onnxslim_value_info *value_at(const onnxslim_graph *g, int which, size_t i) {
  return which == VALUES_INPUT    ? onnxslim_graph_input(g, i)
         : which == VALUES_OUTPUT ? onnxslim_graph_output(g, i)
                                  : onnxslim_graph_value_info(g, i);
}

/* The names of a graph's inputs, outputs or value_info (allocated, charged). */
static int value_names(osl_diff *c, const onnxslim_graph *g, int which, const char *side,
                       const char ***keys, size_t *n) {
  static const char *const kinds[] = {"input", "output", "value_info"};
  size_t i;
  *n = value_count(g, which);
  *keys = onnxslim__diff_alloc_array(c, *n, sizeof **keys);
  for (i = 0; i < *n && !c->rc; i++)
    if (!value_at(g, which, i) || !((*keys)[i] = onnxslim_value_info_name(value_at(g, which, i))))
      onnxslim__diff_fail_lib(c, "%s: %s %zu", side, kinds[which], i);
  return c->rc;
}

/* Inputs, outputs or value_info of two graphs: by name, their types, and
 * (inputs and outputs) their order. 0 or c->rc. */
static int diff_values(osl_diff *c, const char *path, int which, const onnxslim_graph *ga,
                       const onnxslim_graph *gb) {
  static const char *const kinds[] = {"input", "output", "value_info"};
  static const int kind_codes[] = {ONNXSLIM_DIFF_KIND_INPUT, ONNXSLIM_DIFF_KIND_OUTPUT,
                                   ONNXSLIM_DIFF_KIND_VALUE_INFO};
  const char *kind = kinds[which];
  const char **ka = NULL, **kb = NULL;
  size_t na = 0, nb = 0, i;
  match m = {NULL, NULL, 0, 0};
  osl_sbuf label = SB(c), a = SB(c), b = SB(c);
  int order = 0;

  if (value_names(c, ga, which, "A", &ka, &na) != 0 ||
      value_names(c, gb, which, "B", &kb, &nb) != 0 || match_keys(c, ka, na, kb, nb, &m) != 0)
    goto out;
  for (i = 0; i < na && !c->rc; i++) {
    osl_diff_at d;
    sb_reset(&label);
    sb_reset(&a);
    sb_printf(&label, "%s '%s'", kind, ka[i]);
    d = onnxslim__diff_at(path, kind_codes[which], ka[i], sb_str(&label));
    if (onnxslim__diff_sb_vi_type(&a, value_at(ga, which, i)) != 0) {
      onnxslim__diff_fail_lib(c, "A: type of %s", sb_str(&label));
      goto out;
    }
    if (m.ma[i] < 0) {
      if (!c->rc) onnxslim__diff_add_presence(c, &d, sb_str(&a), NULL);
      continue;
    }
    if (m.ma[i] != (long)i) order = 1;
    sb_reset(&b);
    if (onnxslim__diff_sb_vi_type(&b, value_at(gb, which, (size_t)m.ma[i])) != 0) {
      onnxslim__diff_fail_lib(c, "B: type of %s", sb_str(&label));
      goto out;
    }
    if (!c->rc) onnxslim__diff_add_if_differs(c, &d, ONNXSLIM_DIFF_TYPE, sb_str(&a), sb_str(&b));
  }
  for (i = 0; i < nb && !c->rc; i++) {
    osl_diff_at d;
    if (m.mb[i] >= 0) continue;
    sb_reset(&label);
    sb_reset(&b);
    sb_printf(&label, "%s '%s'", kind, kb[i]);
    d = onnxslim__diff_at(path, kind_codes[which], kb[i], sb_str(&label));
    if (onnxslim__diff_sb_vi_type(&b, value_at(gb, which, i)) != 0) {
      onnxslim__diff_fail_lib(c, "B: type of %s", sb_str(&label));
      goto out;
    }
    if (!c->rc) onnxslim__diff_add_presence(c, &d, NULL, sb_str(&b));
  }
  /* the same names in another order: positional bindings change */
  if (!c->rc && order && which != VALUES_INFO && na == nb) {
    osl_diff_at d;
    int all = 1;
    for (i = 0; i < na; i++) all &= m.ma[i] >= 0;
    if (all) {
      sb_reset(&label);
      sb_reset(&a);
      sb_reset(&b);
      sb_printf(&label, "%ss", kind);
      for (i = 0; i < na; i++) sb_printf(&a, "%s'%s'", i ? ", " : "[", ka[i]);
      for (i = 0; i < nb; i++) sb_printf(&b, "%s'%s'", i ? ", " : "[", kb[i]);
      sb_puts(&a, "]");
      sb_puts(&b, "]");
      d = onnxslim__diff_at(path, kind_codes[which], "", sb_str(&label));
      if (!c->rc) onnxslim__diff_add_if_differs(c, &d, ONNXSLIM_DIFF_ORDER, sb_str(&a), sb_str(&b));
    }
  }
out:
  onnxslim__diff_free(c, ka, na * sizeof *ka);
  onnxslim__diff_free(c, kb, nb * sizeof *kb);
  match_free(c, &m);
  sb_free(&label);
  sb_free(&a);
  sb_free(&b);
  return c->rc;
}

/* Initializers (sparse: their values tensor's name) by name. 0 or c->rc. */
static int diff_initializers(osl_diff *c, const char *path, int sparse, const onnxslim_graph *ga,
                             const onnxslim_graph *gb) {
  const char *kind = sparse ? "sparse_initializer" : "initializer";
  int kind_code = sparse ? ONNXSLIM_DIFF_KIND_SPARSE_INITIALIZER : ONNXSLIM_DIFF_KIND_INITIALIZER;
  size_t na =
      sparse ? onnxslim_graph_sparse_initializer_count(ga) : onnxslim_graph_initializer_count(ga);
  size_t nb =
      sparse ? onnxslim_graph_sparse_initializer_count(gb) : onnxslim_graph_initializer_count(gb);
  const char **ka = onnxslim__diff_alloc_array(c, na, sizeof *ka);
  const char **kb = onnxslim__diff_alloc_array(c, nb, sizeof *kb);
  const onnxslim_tensor **ta = onnxslim__diff_alloc_array(c, na, sizeof *ta);
  const onnxslim_tensor **tb = onnxslim__diff_alloc_array(c, nb, sizeof *tb);
  match m = {NULL, NULL, 0, 0};
  osl_sbuf label = SB(c), s = SB(c);
  size_t i;

  for (i = 0; i < na + nb && !c->rc; i++) {
    const onnxslim_graph *g = i < na ? ga : gb;
    size_t k = i < na ? i : i - na;
    const onnxslim_tensor *t =
        sparse ? onnxslim_sparse_tensor_values(onnxslim_graph_sparse_initializer(g, k))
               : onnxslim_graph_initializer(g, k);
    const char *name = t ? onnxslim_tensor_name(t) : NULL;
    if (!name) {
      onnxslim__diff_fail_lib(c, "%s: %s %zu", i < na ? "A" : "B", kind, k);
      goto out;
    }
    if (i < na) {
      ta[k] = t;
      ka[k] = name;
    } else {
      tb[k] = t;
      kb[k] = name;
    }
  }
  if (c->rc || match_keys(c, ka, na, kb, nb, &m) != 0) goto out;
  for (i = 0; i < na + nb && !c->rc; i++) {
    int in_a = i < na;
    size_t k = in_a ? i : i - na;
    const char *name = in_a ? ka[k] : kb[k];
    osl_diff_at d;
    if (!in_a && m.mb[k] >= 0) continue;
    sb_reset(&label);
    sb_printf(&label, "%s '%s'", kind, name);
    if (c->rc) break;
    d = onnxslim__diff_at(path, kind_code, name, sb_str(&label));
    if (in_a && m.ma[k] >= 0) {
      if (sparse)
        onnxslim__diff_sparse(c, &d, onnxslim_graph_sparse_initializer(ga, k),
                              onnxslim_graph_sparse_initializer(gb, (size_t)m.ma[k]));
      else onnxslim__diff_tensor(c, &d, ta[k], tb[m.ma[k]], gb);
      continue;
    }
    sb_reset(&s);
    if (onnxslim__diff_sb_tensor_type(&s, in_a ? ta[k] : tb[k]) != 0) {
      onnxslim__diff_fail_lib(c, "%s", sb_str(&label));
      goto out;
    }
    if (!c->rc)
      onnxslim__diff_add_presence(c, &d, in_a ? sb_str(&s) : NULL, in_a ? NULL : sb_str(&s));
  }
out:
  onnxslim__diff_free(c, ka, na * sizeof *ka);
  onnxslim__diff_free(c, kb, nb * sizeof *kb);
  onnxslim__diff_free(c, ta, na * sizeof *ta);
  onnxslim__diff_free(c, tb, nb * sizeof *tb);
  match_free(c, &m);
  sb_free(&label);
  sb_free(&s);
  return c->rc;
}

int onnxslim__diff_graph(osl_diff *c, const char *path, const onnxslim_graph *ga,
                         const onnxslim_graph *gb) {
  const char *na = onnxslim_graph_name(ga), *nb = onnxslim_graph_name(gb);
  node_list xa = {NULL, 0}, xb = {NULL, 0};
  osl_diff_at d = onnxslim__diff_at(path, ONNXSLIM_DIFF_KIND_GRAPH, "", "graph");

  if (!na || !nb) return onnxslim__diff_fail_lib(c, "graph name");
  onnxslim__diff_add_if_differs(c, &d, ONNXSLIM_DIFF_NAME, na, nb);
  if (!c->rc) diff_values(c, path, VALUES_INPUT, ga, gb);
  if (!c->rc) diff_values(c, path, VALUES_OUTPUT, ga, gb);
  if (!c->rc) diff_values(c, path, VALUES_INFO, ga, gb);
  if (!c->rc) diff_initializers(c, path, 0, ga, gb);
  if (!c->rc) diff_initializers(c, path, 1, ga, gb);
  if (!c->rc) graph_nodes(c, ga, &xa);
  if (!c->rc) graph_nodes(c, gb, &xb);
  if (!c->rc) diff_nodes(c, path, &xa, &xb);
  nl_free(c, &xa);
  nl_free(c, &xb);
  return c->rc;
}

/* ---- the model --------------------------------------------------------------------- */

static void model_field(osl_diff *c, const char *field, const char *a, const char *b) {
  osl_sbuf label = SB(c);
  osl_diff_at d;
  sb_printf(&label, "model %s", field);
  d = onnxslim__diff_at("", ONNXSLIM_DIFF_KIND_MODEL, field, sb_str(&label));
  if (!c->rc) onnxslim__diff_add_if_differs(c, &d, ONNXSLIM_DIFF_VALUE, a, b);
  sb_free(&label);
}

static void model_int(osl_diff *c, const char *field, int64_t a, int64_t b) {
  char x[32], y[32];
  snprintf(x, sizeof x, "%" PRId64, a);
  snprintf(y, sizeof y, "%" PRId64, b);
  model_field(c, field, x, y);
}

/* Keys and values of the opsets (domain "" is "ai.onnx") or metadata. */
static int pairs(osl_diff *c, const onnxslim_model *m, int metadata, strlist *keys,
                 strlist *values) {
  size_t i, n = metadata ? onnxslim_model_metadata_count(m) : onnxslim_model_opset_count(m);
  for (i = 0; i < n && !c->rc; i++) {
    const char *k = NULL, *v = NULL;
    int64_t version = 0;
    char num[32];
    if (metadata ? onnxslim_model_metadata(m, i, &k, &v) != ONNXSLIM_OK
                 : onnxslim_model_opset(m, i, &k, &version) != ONNXSLIM_OK)
      return onnxslim__diff_fail_lib(c, "%s %zu", metadata ? "metadata_props" : "opset_import", i);
    if (!metadata) {
      snprintf(num, sizeof num, "%" PRId64, version);
      v = num;
      if (!k || !k[0]) k = "ai.onnx";
    }
    sl_add(c, keys, k ? k : "");
    sl_add(c, values, v ? v : "");
  }
  return c->rc;
}

static int diff_pairs(osl_diff *c, int metadata) {
  const char *kind = metadata ? "metadata" : "opset";
  int kind_code = metadata ? ONNXSLIM_DIFF_KIND_METADATA : ONNXSLIM_DIFF_KIND_OPSET;
  strlist ka, va, kb, vb;
  match m = {NULL, NULL, 0, 0};
  osl_sbuf label = SB(c), x = SB(c), y = SB(c);
  size_t i;

  memset(&ka, 0, sizeof ka);
  memset(&va, 0, sizeof va);
  memset(&kb, 0, sizeof kb);
  memset(&vb, 0, sizeof vb);
  if (pairs(c, c->a, metadata, &ka, &va) != 0 || pairs(c, c->b, metadata, &kb, &vb) != 0 ||
      match_keys(c, ka.v, ka.n, kb.v, kb.n, &m) != 0)
    goto out;
  for (i = 0; i < ka.n + kb.n && !c->rc; i++) {
    int in_a = i < ka.n;
    size_t k = in_a ? i : i - ka.n;
    const char *key = in_a ? ka.v[k] : kb.v[k];
    osl_diff_at d;
    if (!in_a && m.mb[k] >= 0) continue;
    sb_reset(&label);
    sb_reset(&x);
    sb_reset(&y);
    sb_printf(&label, "%s '%s'", kind, key);
    if (metadata) {
      if (in_a) sb_printf(&x, "'%s'", va.v[k]);
      if (!in_a || m.ma[k] >= 0) sb_printf(&y, "'%s'", in_a ? vb.v[m.ma[k]] : vb.v[k]);
    } else {
      if (in_a) sb_puts(&x, va.v[k]);
      if (!in_a || m.ma[k] >= 0) sb_puts(&y, in_a ? vb.v[m.ma[k]] : vb.v[k]);
    }
    if (c->rc) break;
    d = onnxslim__diff_at("", kind_code, key, sb_str(&label));
    if (in_a && m.ma[k] >= 0)
      onnxslim__diff_add_if_differs(c, &d, metadata ? ONNXSLIM_DIFF_VALUE : ONNXSLIM_DIFF_VERSION,
                                    sb_str(&x), sb_str(&y));
    else onnxslim__diff_add_presence(c, &d, in_a ? sb_str(&x) : NULL, in_a ? NULL : sb_str(&y));
  }
out:
  sl_free(c, &ka);
  sl_free(c, &va);
  sl_free(c, &kb);
  sl_free(c, &vb);
  match_free(c, &m);
  sb_free(&label);
  sb_free(&x);
  sb_free(&y);
  return c->rc;
}

/* "['a', 'b']" of a function's inputs, outputs or attribute names. */
static void sb_fn_list(osl_sbuf *sb, const onnxslim_function *f, int which) {
  size_t i, n = which == 0   ? onnxslim_function_input_count(f)
                : which == 1 ? onnxslim_function_output_count(f)
                             : onnxslim_function_attribute_count(f);
  sb_puts(sb, "[");
  for (i = 0; i < n; i++) {
    const char *s = which == 0   ? onnxslim_function_input(f, i)
                    : which == 1 ? onnxslim_function_output(f, i)
                                 : onnxslim_function_attribute(f, i);
    sb_printf(sb, "%s'%s'", i ? ", " : "", s ? s : "?");
  }
  sb_puts(sb, "]");
}

static int function_nodes(osl_diff *c, const onnxslim_function *f, node_list *l) {
  size_t j;
  l->n = onnxslim_function_node_count(f);
  l->v = onnxslim__diff_alloc_array(c, l->n, sizeof *l->v);
  for (j = 0; j < l->n && !c->rc; j++) l->v[j] = onnxslim_function_node(f, j);
  return c->rc;
}

static int diff_functions(osl_diff *c) {
  size_t na = onnxslim_model_function_count(c->a), nb = onnxslim_model_function_count(c->b), i;
  strlist ka, kb;
  match m = {NULL, NULL, 0, 0};
  osl_sbuf key = SB(c), label = SB(c), x = SB(c), y = SB(c);

  memset(&ka, 0, sizeof ka);
  memset(&kb, 0, sizeof kb);
  for (i = 0; i < na + nb && !c->rc; i++) {
    const onnxslim_function *f = onnxslim_model_function(i < na ? c->a : c->b, i < na ? i : i - na);
    if (!f) {
      onnxslim__diff_fail_lib(c, "function %zu", i < na ? i : i - na);
      goto out;
    }
    sb_reset(&key);
    sb_printf(&key, "%s:%s", onnxslim_function_domain(f), onnxslim_function_name(f));
    sl_add(c, i < na ? &ka : &kb, sb_str(&key));
  }
  if (c->rc || match_keys(c, ka.v, ka.n, kb.v, kb.n, &m) != 0) goto out;
  for (i = 0; i < na + nb && !c->rc; i++) {
    int in_a = i < na;
    size_t k = in_a ? i : i - na;
    const char *name = in_a ? ka.v[k] : kb.v[k];
    const onnxslim_function *fa, *fb;
    node_list xa = {NULL, 0}, xb = {NULL, 0};
    osl_diff_at d;
    size_t j;
    if (!in_a && m.mb[k] >= 0) continue;
    sb_reset(&label);
    sb_printf(&label, "function '%s'", name);
    if (c->rc) break;
    d = onnxslim__diff_at("", ONNXSLIM_DIFF_KIND_FUNCTION, name, sb_str(&label));
    if (!in_a || m.ma[k] < 0) {
      onnxslim__diff_add_presence(c, &d, in_a ? "" : NULL, in_a ? NULL : "");
      continue;
    }
    fa = onnxslim_model_function(c->a, k);
    fb = onnxslim_model_function(c->b, (size_t)m.ma[k]);
    for (j = 0; j < 3 && !c->rc; j++) {
      static const int whats[] = {ONNXSLIM_DIFF_INPUTS, ONNXSLIM_DIFF_OUTPUTS,
                                  ONNXSLIM_DIFF_ATTRIBUTES};
      sb_reset(&x);
      sb_reset(&y);
      sb_fn_list(&x, fa, (int)j);
      sb_fn_list(&y, fb, (int)j);
      if (!c->rc) onnxslim__diff_add_if_differs(c, &d, whats[j], sb_str(&x), sb_str(&y));
    }
    if (!c->rc && function_nodes(c, fa, &xa) == 0 && function_nodes(c, fb, &xb) == 0)
      diff_nodes(c, sb_str(&label), &xa, &xb);
    nl_free(c, &xa);
    nl_free(c, &xb);
  }
out:
  sl_free(c, &ka);
  sl_free(c, &kb);
  match_free(c, &m);
  sb_free(&key);
  sb_free(&label);
  sb_free(&x);
  sb_free(&y);
  return c->rc;
}

int onnxslim__diff_models(osl_diff *c) {
  const char *s[2][4];
  const onnxslim_graph *ga, *gb;
  int k;

  model_int(c, "ir_version", onnxslim_model_ir_version(c->a), onnxslim_model_ir_version(c->b));
  for (k = 0; k < 2; k++) {
    const onnxslim_model *m = k ? c->b : c->a;
    s[k][0] = onnxslim_model_producer_name(m);
    s[k][1] = onnxslim_model_producer_version(m);
    s[k][2] = onnxslim_model_domain(m);
    s[k][3] = onnxslim_model_doc_string(m);
    if (!s[k][0] || !s[k][1] || !s[k][2] || !s[k][3])
      return onnxslim__diff_fail_lib(c, "model fields");
  }
  model_field(c, "producer_name", s[0][0], s[1][0]);
  model_field(c, "producer_version", s[0][1], s[1][1]);
  model_field(c, "domain", s[0][2], s[1][2]);
  model_int(c, "model_version", onnxslim_model_version(c->a), onnxslim_model_version(c->b));
  model_field(c, "doc_string", s[0][3], s[1][3]);
  if (c->rc || diff_pairs(c, 0) != 0 || diff_pairs(c, 1) != 0 || diff_functions(c) != 0)
    return c->rc;
  ga = onnxslim_model_graph(c->a);
  gb = onnxslim_model_graph(c->b);
  if ((!ga || !gb) && onnxslim_error_last_code() != ONNXSLIM_ENOTFOUND)
    return onnxslim__diff_fail_lib(c, "graph");
  if (ga && gb) return onnxslim__diff_graph(c, "", ga, gb);
  if (ga || gb) {
    osl_diff_at d = onnxslim__diff_at("", ONNXSLIM_DIFF_KIND_GRAPH, "", "graph");
    onnxslim__diff_add_presence(c, &d, ga ? "" : NULL, gb ? "" : NULL);
  }
  return c->rc;
}

/* ---- the entry point ------------------------------------------------------------------ */

int onnxslim_diff(onnxslim_diff_report **out, const onnxslim_model *a, const onnxslim_model *b,
                  const onnxslim_diff_options *opts) {
  osl_diff c;
  onnxslim_diff_report *r;
  int rc;

  if (out) *out = NULL;
  if (!out || !a || !b)
    return onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_diff: NULL %s",
                         !out ? "out"
                         : !a ? "model a"
                              : "model b");
  if (opts && opts->version != 1)
    return onnxslim__err_options_version("onnxslim_diff", "diff options", opts->version,
                                         ONNXSLIM_DIFF_OPTIONS_VERSION);
  if (opts && (opts->flags & ~ONNXSLIM_DIFF_COMPARE_STORAGE))
    return onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_diff: reserved flags set (0x%x)",
                         opts->flags & ~ONNXSLIM_DIFF_COMPARE_STORAGE);
  r = calloc(1, sizeof *r);
  if (!r) return onnxslim__err_nomem("diff report");
  memset(&c, 0, sizeof c);
  c.a = a;
  c.b = b;
  c.report = r;
  c.storage = opts && (opts->flags & ONNXSLIM_DIFF_COMPARE_STORAGE);
  if ((rc = onnxslim_fingerprint(r->fingerprint[0], sizeof r->fingerprint[0], a)) != 0) {
    onnxslim__diff_fail_lib(&c, "cannot fingerprint model A");
    goto out;
  }
  if ((rc = onnxslim_fingerprint(r->fingerprint[1], sizeof r->fingerprint[1], b)) != 0) {
    onnxslim__diff_fail_lib(&c, "cannot fingerprint model B");
    goto out;
  }
  onnxslim__diff_charge(&c, (int64_t)sizeof *r);
  c.data_equal = strcmp(r->fingerprint[0], r->fingerprint[1]) == 0;
  c.ra = onnxslim__diff_alloc(&c, (size_t)OSL_DIFF_CHUNK * 8);
  c.rb = onnxslim__diff_alloc(&c, (size_t)OSL_DIFF_CHUNK * 8);
  c.da = onnxslim__diff_alloc_array(&c, OSL_DIFF_CHUNK, sizeof *c.da);
  c.db = onnxslim__diff_alloc_array(&c, OSL_DIFF_CHUNK, sizeof *c.db);
  c.fs = onnxslim__diff_alloc_array(&c, OSL_DIFF_CHUNK, sizeof *c.fs);
  /* equal fingerprints: nothing to list, unless storage is compared */
  if (!c.rc && (!c.data_equal || c.storage)) onnxslim__diff_models(&c);
  if (!c.rc && !c.data_equal && r->count == 0) {
    /* the walk found nothing: what differs is what it does not compare */
    osl_diff_at d = onnxslim__diff_at("", ONNXSLIM_DIFF_KIND_MODEL, "", "model");
    d.aspect = ONNXSLIM_DIFF_OTHER;
    d.a = r->fingerprint[0];
    d.b = r->fingerprint[1];
    onnxslim__diff_add(&c, &d);
  }
out:
  free(c.ra);
  free(c.rb);
  free(c.da);
  free(c.db);
  free(c.fs);
  onnxslim__mem_release(a, c.used); /* the report is the caller's now, as check's */
  rc = c.rc;
  if (rc) {
    onnxslim_diff_report_free(r); /* the error stays the diff's */
    return rc;
  }
  *out = r;
  return 0;
}
