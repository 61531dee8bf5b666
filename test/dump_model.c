/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * dump_model - canonical text dump of an ONNX model through the public
 * libonnxslim read API. test/dump_model.py prints the same text with the
 * python onnx package; test/steps/30-read-api-vs-onnx.sh compares the two.
 *
 * Usage:
 *   dump_model MODEL.onnx                   dump to stdout
 *   dump_model -o DIR [-l LIST] [MODEL...]  dump model k (0-based, LIST
 *                                           entries first, one path a line)
 *                                           to DIR/k.txt
 * Exit status: 0 if every model was dumped (a model that fails to load is
 * still dumped as a "load error" line), 2 on usage or output errors.
 *
 * Format rules both dumpers follow:
 *   - strings are printed in double quotes; bytes outside 0x20..0x7e, '"'
 *     and '\' are printed as \xHH;
 *   - floats use %.9g, every NaN prints as "nan";
 *   - data types print as the number, plus "(NAME)" for 0..16 (the types
 *     onnx 1.12 knows);
 *   - tensor bytes (raw little-endian layout) are summarized by their length
 *     and a 64-bit FNV-1a hash; STRING tensors hash the concatenation of
 *     their elements.
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "onnxslim.h"

/* ---- output helpers ------------------------------------------------------ */

static FILE *out;

static void ind(int depth) {
  for (int i = 0; i < depth; i++) fputs("  ", out);
}

static void put_bytes(const char *s, size_t n) {
  fputc('"', out);
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c >= 0x20 && c <= 0x7e && c != '"' && c != '\\') fputc(c, out);
    else fprintf(out, "\\x%02x", c);
  }
  fputc('"', out);
}

static void put_str(const char *s) {
  if (!s) {
    fputs("<NULL>", out);
    return;
  }
  put_bytes(s, strlen(s));
}

static void put_float(double f) {
  if (isnan(f)) fputs("nan", out);
  else fprintf(out, "%.9g", f);
}

static void put_dtype(int32_t dt) {
  fprintf(out, "%" PRId32, dt);
  if (dt >= 0 && dt <= 16) {
    const char *n = onnxslim_dtype_name(dt);
    fprintf(out, "(%s)", n ? n : "<NULL>");
  }
}

static uint64_t fnv1a(uint64_t h, const void *data, size_t n) {
  const unsigned char *p = data;
  for (size_t i = 0; i < n; i++) {
    h ^= p[i];
    h *= UINT64_C(0x100000001b3);
  }
  return h;
}
#define FNV_INIT UINT64_C(0xcbf29ce484222325)

/* ---- types ---------------------------------------------------------------- */

static void put_type(const onnxslim_type *t);

static void put_inner(const onnxslim_type *t) {
  onnxslim_type *in = onnxslim_type_inner(t);
  if (in) put_type(in);
  else fputs("-", out);
}

static void put_shape(const onnxslim_type *t) {
  if (!onnxslim_type_has_shape(t)) {
    fputs(" noshape", out);
    return;
  }
  size_t rank = onnxslim_type_rank(t);
  fputs(" [", out);
  for (size_t i = 0; i < rank; i++) {
    int64_t v;
    const char *p;
    int k = onnxslim_type_dim(t, i, &v, &p);
    if (i) fputc(',', out);
    if (k == ONNXSLIM_DIM_VALUE) fprintf(out, "%" PRId64, v);
    else if (k == ONNXSLIM_DIM_PARAM) put_str(p);
    else if (k == ONNXSLIM_DIM_UNKNOWN) fputc('?', out);
    else fprintf(out, "<error %d>", k);
  }
  fputc(']', out);
}

static void put_type(const onnxslim_type *t) {
  switch (onnxslim_type_kind(t)) {
  case ONNXSLIM_TYPE_TENSOR:
    fputs("tensor(", out);
    put_dtype(onnxslim_type_dtype(t));
    put_shape(t);
    fputc(')', out);
    break;
  case ONNXSLIM_TYPE_SPARSE_TENSOR:
    fputs("sparse_tensor(", out);
    put_dtype(onnxslim_type_dtype(t));
    put_shape(t);
    fputc(')', out);
    break;
  case ONNXSLIM_TYPE_SEQUENCE:
    fputs("seq(", out);
    put_inner(t);
    fputc(')', out);
    break;
  case ONNXSLIM_TYPE_OPTIONAL:
    fputs("opt(", out);
    put_inner(t);
    fputc(')', out);
    break;
  case ONNXSLIM_TYPE_MAP:
    fputs("map(", out);
    put_dtype(onnxslim_type_dtype(t));
    fputc(',', out);
    put_inner(t);
    fputc(')', out);
    break;
  default: fputs("unknown", out); break;
  }
  const char *den = onnxslim_type_denotation(t);
  if (den && den[0]) {
    fputs("{denotation ", out);
    put_str(den);
    fputc('}', out);
  }
}

static void put_value_info(const onnxslim_value_info *vi) {
  put_str(onnxslim_value_info_name(vi));
  fputc(' ', out);
  onnxslim_type *t = onnxslim_value_info_type(vi);
  if (t) put_type(t);
  else fputs("notype", out);
  const char *doc = onnxslim_value_info_doc_string(vi);
  if (doc && doc[0]) {
    fputs(" doc ", out);
    put_str(doc);
  }
}

/* ---- tensors --------------------------------------------------------------- */

static const char *storage_name(int s) {
  switch (s) {
  case ONNXSLIM_STORAGE_NONE: return "NONE";
  case ONNXSLIM_STORAGE_RAW: return "RAW";
  case ONNXSLIM_STORAGE_TYPED: return "TYPED";
  case ONNXSLIM_STORAGE_EXTERNAL: return "EXTERNAL";
  default: return "?";
  }
}

static void put_tensor(const onnxslim_tensor *t) {
  if (!t) {
    fputs("none", out);
    return;
  }
  fputs("tensor ", out);
  put_str(onnxslim_tensor_name(t));
  fputs(" dtype ", out);
  int32_t dt = onnxslim_tensor_dtype(t);
  put_dtype(dt);
  fputs(" dims [", out);
  size_t rank = onnxslim_tensor_rank(t);
  for (size_t i = 0; i < rank; i++)
    fprintf(out, "%s%" PRId64, i ? "," : "", onnxslim_tensor_dim(t, i));
  fprintf(out, "] storage %s count %" PRId64, storage_name(onnxslim_tensor_storage(t)),
          onnxslim_tensor_element_count(t));
  if (dt == ONNXSLIM_DTYPE_STRING) {
    size_t n = onnxslim_tensor_string_count(t);
    uint64_t h = FNV_INIT;
    int err = 0;
    for (size_t i = 0; i < n && !err; i++) {
      const char *s;
      size_t len;
      err = onnxslim_tensor_string(t, i, &s, &len);
      if (!err) h = fnv1a(h, s, len);
    }
    if (err) fprintf(out, " strings error %d", err);
    else fprintf(out, " strings %zu fnv %016" PRIx64, n, h);
  } else {
    const void *data;
    size_t size;
    int rc = onnxslim_tensor_data(t, &data, &size);
    if (rc) {
      fprintf(out, " data error %d", rc);
    } else {
      fprintf(out, " data %zu fnv %016" PRIx64, size, fnv1a(FNV_INIT, data, size));
      /* consistency of the other data accessors with onnxslim_tensor_data */
      uint64_t bs = 0;
      if (onnxslim_tensor_byte_size(t, &bs) || bs != size) fputs(" BYTE_SIZE_MISMATCH", out);
      unsigned char tail[16];
      size_t n = size < sizeof tail ? size : sizeof tail;
      if (onnxslim_tensor_read(t, size - n, tail, n) ||
          (n && memcmp(tail, (const unsigned char *)data + size - n, n)))
        fputs(" READ_MISMATCH", out);
    }
  }
  const char *doc = onnxslim_tensor_doc_string(t);
  if (doc && doc[0]) {
    fputs(" doc ", out);
    put_str(doc);
  }
}

static void put_sparse(const onnxslim_sparse_tensor *s) {
  fputs("sparse dims [", out);
  size_t rank = onnxslim_sparse_tensor_rank(s);
  for (size_t i = 0; i < rank; i++)
    fprintf(out, "%s%" PRId64, i ? "," : "", onnxslim_sparse_tensor_dim(s, i));
  fputs("] values ", out);
  put_tensor(onnxslim_sparse_tensor_values(s));
  fputs(" indices ", out);
  put_tensor(onnxslim_sparse_tensor_indices(s));
}

/* ---- nodes ---------------------------------------------------------------- */

static void dump_graph(const onnxslim_graph *g, int depth);

static void dump_attr(const onnxslim_node *node, const onnxslim_attr *a, int depth) {
  ind(depth);
  fputs("attr ", out);
  put_str(onnxslim_attr_name(a));
  int ty = onnxslim_attr_type(a);
  fprintf(out, " type %d", ty);
  const char *ref = onnxslim_attr_ref_attr_name(a);
  if (ref && ref[0]) {
    fputs(" ref ", out);
    put_str(ref);
  }
  const char *doc = onnxslim_attr_doc_string(a);
  if (doc && doc[0]) {
    fputs(" doc ", out);
    put_str(doc);
  }
  switch (ty) {
  case ONNXSLIM_ATTR_FLOAT: {
    float f = 0;
    int rc = onnxslim_attr_float(a, &f);
    fputs(" float ", out);
    if (rc) fprintf(out, "error %d", rc);
    else put_float(f);
    fputc('\n', out);
    break;
  }
  case ONNXSLIM_ATTR_INT: {
    int64_t v = 0;
    int rc = onnxslim_attr_int(a, &v);
    if (rc) fprintf(out, " int error %d\n", rc);
    else fprintf(out, " int %" PRId64 "\n", v);
    break;
  }
  case ONNXSLIM_ATTR_STRING: {
    const char *s;
    size_t n;
    int rc = onnxslim_attr_string(a, &s, &n);
    fputs(" string ", out);
    if (rc) fprintf(out, "error %d", rc);
    else put_bytes(s, n);
    fputc('\n', out);
    break;
  }
  case ONNXSLIM_ATTR_TENSOR:
    fputs(" ", out);
    put_tensor(onnxslim_attr_tensor(a));
    fputc('\n', out);
    break;
  case ONNXSLIM_ATTR_GRAPH: {
    onnxslim_graph *g = onnxslim_attr_graph(a);
    if (!g) {
      fputs(" graph none\n", out);
    } else {
      fputs(" graph\n", out);
      if (onnxslim_graph_parent_node(g) != node) fputs("PARENT_NODE_MISMATCH\n", out);
      dump_graph(g, depth + 1);
    }
    break;
  }
  case ONNXSLIM_ATTR_SPARSE_TENSOR: {
    onnxslim_sparse_tensor *s = onnxslim_attr_sparse_tensor(a);
    fputc(' ', out);
    if (s) put_sparse(s);
    else fputs("sparse none", out);
    fputc('\n', out);
    break;
  }
  case ONNXSLIM_ATTR_TYPE_PROTO: {
    onnxslim_type *t = onnxslim_attr_type_proto(a);
    fputs(" type_proto ", out);
    if (t) put_type(t);
    else fputs("none", out);
    fputc('\n', out);
    break;
  }
  case ONNXSLIM_ATTR_FLOATS: {
    const float *v;
    size_t n;
    int rc = onnxslim_attr_floats(a, &v, &n);
    if (rc) {
      fprintf(out, " floats error %d\n", rc);
      break;
    }
    fputs(" floats [", out);
    for (size_t i = 0; i < n; i++) {
      if (i) fputc(',', out);
      put_float(v[i]);
    }
    fputs("]\n", out);
    if (onnxslim_attr_list_count(a) != n) fputs("LIST_SIZE_MISMATCH\n", out);
    break;
  }
  case ONNXSLIM_ATTR_INTS: {
    const int64_t *v;
    size_t n;
    int rc = onnxslim_attr_ints(a, &v, &n);
    if (rc) {
      fprintf(out, " ints error %d\n", rc);
      break;
    }
    fputs(" ints [", out);
    for (size_t i = 0; i < n; i++) fprintf(out, "%s%" PRId64, i ? "," : "", v[i]);
    fputs("]\n", out);
    if (onnxslim_attr_list_count(a) != n) fputs("LIST_SIZE_MISMATCH\n", out);
    break;
  }
  case ONNXSLIM_ATTR_STRINGS: {
    size_t n = onnxslim_attr_list_count(a);
    fputs(" strings [", out);
    for (size_t i = 0; i < n; i++) {
      const char *s;
      size_t len;
      int rc = onnxslim_attr_strings(a, i, &s, &len);
      if (i) fputc(',', out);
      if (rc) fprintf(out, "error %d", rc);
      else put_bytes(s, len);
    }
    fputs("]\n", out);
    break;
  }
  case ONNXSLIM_ATTR_TENSORS: {
    size_t n = onnxslim_attr_list_count(a);
    fprintf(out, " tensors %zu\n", n);
    for (size_t i = 0; i < n; i++) {
      ind(depth + 1);
      fprintf(out, "[%zu] ", i);
      put_tensor(onnxslim_attr_tensors(a, i));
      fputc('\n', out);
    }
    break;
  }
  case ONNXSLIM_ATTR_GRAPHS: {
    size_t n = onnxslim_attr_list_count(a);
    fprintf(out, " graphs %zu\n", n);
    for (size_t i = 0; i < n; i++) {
      onnxslim_graph *g = onnxslim_attr_graphs(a, i);
      ind(depth + 1);
      fprintf(out, "[%zu]\n", i);
      if (!g) continue;
      if (onnxslim_graph_parent_node(g) != node) fputs("PARENT_NODE_MISMATCH\n", out);
      dump_graph(g, depth + 2);
    }
    break;
  }
  case ONNXSLIM_ATTR_SPARSE_TENSORS: {
    size_t n = onnxslim_attr_list_count(a);
    fprintf(out, " sparse_tensors %zu\n", n);
    for (size_t i = 0; i < n; i++) {
      onnxslim_sparse_tensor *s = onnxslim_attr_sparse_tensors(a, i);
      ind(depth + 1);
      fprintf(out, "[%zu] ", i);
      if (s) put_sparse(s);
      else fputs("sparse none", out);
      fputc('\n', out);
    }
    break;
  }
  case ONNXSLIM_ATTR_TYPE_PROTOS: {
    size_t n = onnxslim_attr_list_count(a);
    fprintf(out, " type_protos %zu\n", n);
    for (size_t i = 0; i < n; i++) {
      onnxslim_type *t = onnxslim_attr_type_protos(a, i);
      ind(depth + 1);
      fprintf(out, "[%zu] ", i);
      if (t) put_type(t);
      else fputs("none", out);
      fputc('\n', out);
    }
    break;
  }
  default: fputc('\n', out); break;
  }
}

static void dump_node(const onnxslim_node *n, size_t index, int depth) {
  ind(depth);
  fprintf(out, "node[%zu] ", index);
  put_str(onnxslim_node_name(n));
  fputs(" op ", out);
  put_str(onnxslim_node_op_type(n));
  fputs(" domain ", out);
  put_str(onnxslim_node_domain(n));
  const char *doc = onnxslim_node_doc_string(n);
  if (doc && doc[0]) {
    fputs(" doc ", out);
    put_str(doc);
  }
  fputs("\n", out);
  ind(depth + 1);
  fputs("in [", out);
  size_t ni = onnxslim_node_input_count(n);
  for (size_t i = 0; i < ni; i++) {
    if (i) fputc(',', out);
    put_str(onnxslim_node_input(n, i));
  }
  fputs("] out [", out);
  size_t no = onnxslim_node_output_count(n);
  for (size_t i = 0; i < no; i++) {
    if (i) fputc(',', out);
    put_str(onnxslim_node_output(n, i));
  }
  fputs("]\n", out);
  size_t na = onnxslim_node_attr_count(n);
  for (size_t i = 0; i < na; i++) {
    onnxslim_attr *a = onnxslim_node_attr(n, i);
    dump_attr(n, a, depth + 1);
    /* find_attr gives the first attribute of that name */
    const char *an = onnxslim_attr_name(a);
    onnxslim_attr *f = an ? onnxslim_node_find_attr(n, an) : NULL;
    size_t j = 0;
    while (j < na && onnxslim_node_attr(n, j) != f) j++;
    size_t first = 0;
    while (first < i && strcmp(onnxslim_attr_name(onnxslim_node_attr(n, first)), an)) first++;
    if (j != first) {
      ind(depth + 1);
      fprintf(out, "FIND_ATTR_MISMATCH %zu\n", j);
    }
  }
}

/* ---- lookups ------------------------------------------------------------- */

typedef struct {
  const void *p;
  size_t i;
} ptr_index;

static int cmp_ptr(const void *a, const void *b) {
  uintptr_t x = (uintptr_t)((const ptr_index *)a)->p, y = (uintptr_t)((const ptr_index *)b)->p;
  return x < y ? -1 : x > y;
}

/* Index of handle p in a sorted ptr_index array, or -1. */
static long long index_of(const ptr_index *v, size_t n, const void *p) {
  if (!p) return -1;
  ptr_index key = {p, 0};
  const ptr_index *r = bsearch(&key, v, n, sizeof *v, cmp_ptr);
  return r ? (long long)r->i : -2;
}

typedef struct {
  const char **v;
  size_t n, cap;
} strvec;

static void sv_push(strvec *s, const char *x) {
  if (!x || !x[0]) return;
  if (s->n == s->cap) {
    s->cap = s->cap ? 2 * s->cap : 64;
    s->v = realloc(s->v, s->cap * sizeof *s->v);
    if (!s->v) {
      perror("realloc");
      exit(2);
    }
  }
  s->v[s->n++] = x;
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Every value name used anywhere inside graph g: node inputs and graph
 * outputs, recursively through subgraphs. */
static void collect_uses(const onnxslim_graph *g, strvec *s) {
  size_t nn = onnxslim_graph_node_count(g);
  for (size_t k = 0; k < nn; k++) {
    onnxslim_node *n = onnxslim_graph_node(g, k);
    size_t ni = onnxslim_node_input_count(n);
    for (size_t i = 0; i < ni; i++) sv_push(s, onnxslim_node_input(n, i));
    size_t na = onnxslim_node_attr_count(n);
    for (size_t i = 0; i < na; i++) {
      onnxslim_attr *a = onnxslim_node_attr(n, i);
      int ty = onnxslim_attr_type(a);
      if (ty == ONNXSLIM_ATTR_GRAPH) {
        onnxslim_graph *sg = onnxslim_attr_graph(a);
        if (sg) collect_uses(sg, s);
      } else if (ty == ONNXSLIM_ATTR_GRAPHS) {
        size_t c = onnxslim_attr_list_count(a);
        for (size_t j = 0; j < c; j++) {
          onnxslim_graph *sg = onnxslim_attr_graphs(a, j);
          if (sg) collect_uses(sg, s);
        }
      }
    }
  }
  size_t no = onnxslim_graph_output_count(g);
  for (size_t i = 0; i < no; i++) sv_push(s, onnxslim_value_info_name(onnxslim_graph_output(g, i)));
}

static void dump_lookups(const onnxslim_graph *g, int depth) {
  size_t nn = onnxslim_graph_node_count(g);
  ptr_index *nodes = malloc((nn ? nn : 1) * sizeof *nodes);
  if (!nodes) exit(2);
  for (size_t i = 0; i < nn; i++) nodes[i] = (ptr_index){onnxslim_graph_node(g, i), i};
  qsort(nodes, nn, sizeof *nodes, cmp_ptr);

  ind(depth);
  fputs("lookups\n", out);
  /* producers */
  for (size_t k = 0; k < nn; k++) {
    onnxslim_node *n = onnxslim_graph_node(g, k);
    size_t no = onnxslim_node_output_count(n);
    for (size_t i = 0; i < no; i++) {
      const char *v = onnxslim_node_output(n, i);
      if (!v || !v[0]) continue;
      ind(depth + 1);
      fputs("producer ", out);
      put_str(v);
      fprintf(out, " %lld\n", index_of(nodes, nn, onnxslim_graph_producer(g, v)));
    }
  }
  /* consumers of every name used in this graph or captured by a subgraph,
   * plus the graph's own inputs and initializers */
  strvec names = {0};
  collect_uses(g, &names);
  size_t nin = onnxslim_graph_input_count(g);
  for (size_t i = 0; i < nin; i++)
    sv_push(&names, onnxslim_value_info_name(onnxslim_graph_input(g, i)));
  size_t ninit = onnxslim_graph_initializer_count(g);
  for (size_t i = 0; i < ninit; i++)
    sv_push(&names, onnxslim_tensor_name(onnxslim_graph_initializer(g, i)));
  if (names.n) qsort(names.v, names.n, sizeof *names.v, cmp_str);
  for (size_t i = 0; i < names.n; i++) {
    if (i && strcmp(names.v[i], names.v[i - 1]) == 0) continue;
    const char *v = names.v[i];
    size_t c = onnxslim_graph_consumer_count(g, v);
    ind(depth + 1);
    fputs("consumers ", out);
    put_str(v);
    fputs(" [", out);
    for (size_t j = 0; j < c; j++)
      fprintf(out, "%s%lld", j ? "," : "", index_of(nodes, nn, onnxslim_graph_consumer(g, v, j)));
    fputs("]\n", out);
    if (onnxslim_graph_consumer(g, v, c) != NULL) {
      ind(depth + 1);
      fputs("CONSUMER_PAST_END_NOT_NULL\n", out);
    }
  }
  free(names.v);
  /* initializers */
  ptr_index *inits = malloc((ninit ? ninit : 1) * sizeof *inits);
  if (!inits) exit(2);
  for (size_t i = 0; i < ninit; i++) inits[i] = (ptr_index){onnxslim_graph_initializer(g, i), i};
  qsort(inits, ninit, sizeof *inits, cmp_ptr);
  for (size_t i = 0; i < ninit; i++) {
    const char *name = onnxslim_tensor_name(onnxslim_graph_initializer(g, i));
    ind(depth + 1);
    fprintf(out, "find_initializer[%zu] %lld\n", i,
            index_of(inits, ninit, onnxslim_graph_find_initializer(g, name)));
  }
  free(inits);
  /* value infos: inputs, outputs, value_info (searched in that order) */
  size_t nout = onnxslim_graph_output_count(g), nvi = onnxslim_graph_value_info_count(g);
  size_t nall = nin + nout + nvi;
  ptr_index *vis = malloc((nall ? nall : 1) * sizeof *vis);
  if (!vis) exit(2);
  for (size_t i = 0; i < nin; i++) vis[i] = (ptr_index){onnxslim_graph_input(g, i), i};
  for (size_t i = 0; i < nout; i++)
    vis[nin + i] = (ptr_index){onnxslim_graph_output(g, i), nin + i};
  for (size_t i = 0; i < nvi; i++)
    vis[nin + nout + i] = (ptr_index){onnxslim_graph_value_info(g, i), nin + nout + i};
  for (size_t i = 0; i < nall; i++) {
    const onnxslim_value_info *vi = vis[i].p;
    const char *name = onnxslim_value_info_name(vi);
    const char *kind = i < nin ? "input" : i < nin + nout ? "output" : "value_info";
    size_t k = i < nin ? i : i < nin + nout ? i - nin : i - nin - nout;
    onnxslim_value_info *f = onnxslim_graph_find_value_info(g, name);
    ind(depth + 1);
    fprintf(out, "find_value_info %s[%zu] ", kind, k);
    if (!f) {
      fputs("none\n", out);
      continue;
    }
    put_str(onnxslim_value_info_name(f));
    /* where the returned handle lives */
    size_t j = 0;
    while (j < nall && vis[j].p != f) j++;
    if (j == nall) fputs(" elsewhere\n", out);
    else if (j < nin) fprintf(out, " input[%zu]\n", j);
    else if (j < nin + nout) fprintf(out, " output[%zu]\n", j - nin);
    else fprintf(out, " value_info[%zu]\n", j - nin - nout);
  }
  free(vis);
  /* nodes by name */
  for (size_t k = 0; k < nn; k++) {
    const char *name = onnxslim_node_name(onnxslim_graph_node(g, k));
    if (!name || !name[0]) continue;
    ind(depth + 1);
    fprintf(out, "find_node[%zu] %lld\n", k,
            index_of(nodes, nn, onnxslim_graph_find_node(g, name)));
  }
  free(nodes);
}

/* ---- graphs, functions, model -------------------------------------------- */

static void dump_graph(const onnxslim_graph *g, int depth) {
  ind(depth);
  fputs("graph ", out);
  put_str(onnxslim_graph_name(g));
  const char *doc = onnxslim_graph_doc_string(g);
  if (doc && doc[0]) {
    fputs(" doc ", out);
    put_str(doc);
  }
  fputc('\n', out);
  size_t n = onnxslim_graph_input_count(g);
  for (size_t i = 0; i < n; i++) {
    ind(depth + 1);
    fprintf(out, "input[%zu] ", i);
    put_value_info(onnxslim_graph_input(g, i));
    fputc('\n', out);
  }
  n = onnxslim_graph_output_count(g);
  for (size_t i = 0; i < n; i++) {
    ind(depth + 1);
    fprintf(out, "output[%zu] ", i);
    put_value_info(onnxslim_graph_output(g, i));
    fputc('\n', out);
  }
  n = onnxslim_graph_value_info_count(g);
  for (size_t i = 0; i < n; i++) {
    ind(depth + 1);
    fprintf(out, "value_info[%zu] ", i);
    put_value_info(onnxslim_graph_value_info(g, i));
    fputc('\n', out);
  }
  n = onnxslim_graph_initializer_count(g);
  for (size_t i = 0; i < n; i++) {
    ind(depth + 1);
    fprintf(out, "initializer[%zu] ", i);
    put_tensor(onnxslim_graph_initializer(g, i));
    fputc('\n', out);
  }
  n = onnxslim_graph_sparse_initializer_count(g);
  for (size_t i = 0; i < n; i++) {
    ind(depth + 1);
    fprintf(out, "sparse_initializer[%zu] ", i);
    put_sparse(onnxslim_graph_sparse_initializer(g, i));
    fputc('\n', out);
  }
  n = onnxslim_graph_node_count(g);
  for (size_t i = 0; i < n; i++) {
    onnxslim_node *nd = onnxslim_graph_node(g, i);
    dump_node(nd, i, depth + 1);
    if (onnxslim_node_graph(nd) != g) {
      ind(depth + 1);
      fputs("NODE_GRAPH_MISMATCH\n", out);
    }
  }
  dump_lookups(g, depth + 1);
}

static void dump_function(const onnxslim_function *fn, size_t index) {
  fprintf(out, "function[%zu] ", index);
  put_str(onnxslim_function_name(fn));
  fputs(" domain ", out);
  put_str(onnxslim_function_domain(fn));
  const char *doc = onnxslim_function_doc_string(fn);
  if (doc && doc[0]) {
    fputs(" doc ", out);
    put_str(doc);
  }
  fputs("\n  inputs [", out);
  size_t n = onnxslim_function_input_count(fn);
  for (size_t i = 0; i < n; i++) {
    if (i) fputc(',', out);
    put_str(onnxslim_function_input(fn, i));
  }
  fputs("] outputs [", out);
  n = onnxslim_function_output_count(fn);
  for (size_t i = 0; i < n; i++) {
    if (i) fputc(',', out);
    put_str(onnxslim_function_output(fn, i));
  }
  fputs("] attributes [", out);
  n = onnxslim_function_attribute_count(fn);
  for (size_t i = 0; i < n; i++) {
    if (i) fputc(',', out);
    put_str(onnxslim_function_attribute(fn, i));
  }
  fputs("]\n", out);
  n = onnxslim_function_opset_count(fn);
  for (size_t i = 0; i < n; i++) {
    const char *d = NULL;
    int64_t v = 0;
    int rc = onnxslim_function_opset(fn, i, &d, &v);
    fprintf(out, "  opset[%zu] ", i);
    if (rc) fprintf(out, "error %d\n", rc);
    else {
      put_str(d);
      fprintf(out, " %" PRId64 "\n", v);
    }
  }
  n = onnxslim_function_node_count(fn);
  for (size_t i = 0; i < n; i++) {
    onnxslim_node *nd = onnxslim_function_node(fn, i);
    dump_node(nd, i, 1);
    if (onnxslim_node_graph(nd) != NULL) fputs("  FUNCTION_NODE_HAS_GRAPH\n", out);
  }
}

static void dump_model(const char *path) {
  onnxslim_model *m = NULL;
  int rc = onnxslim_model_open(&m, path, NULL);
  if (rc) {
    fprintf(out, "load error %d\n", rc);
    return;
  }
  fprintf(out, "model ir_version %" PRId64 " model_version %" PRId64 "\n",
          onnxslim_model_ir_version(m), onnxslim_model_version(m));
  fputs("producer ", out);
  put_str(onnxslim_model_producer_name(m));
  fputc(' ', out);
  put_str(onnxslim_model_producer_version(m));
  fputs("\ndomain ", out);
  put_str(onnxslim_model_domain(m));
  fputs("\ndoc ", out);
  put_str(onnxslim_model_doc_string(m));
  fputc('\n', out);
  size_t n = onnxslim_model_opset_count(m);
  for (size_t i = 0; i < n; i++) {
    const char *d = NULL;
    int64_t v = 0;
    rc = onnxslim_model_opset(m, i, &d, &v);
    fprintf(out, "opset[%zu] ", i);
    if (rc) fprintf(out, "error %d\n", rc);
    else {
      put_str(d);
      fprintf(out, " %" PRId64 "\n", v);
    }
  }
  n = onnxslim_model_metadata_count(m);
  for (size_t i = 0; i < n; i++) {
    const char *k = NULL, *v = NULL;
    rc = onnxslim_model_metadata(m, i, &k, &v);
    fprintf(out, "metadata[%zu] ", i);
    if (rc) fprintf(out, "error %d\n", rc);
    else {
      put_str(k);
      fputs(" = ", out);
      put_str(v);
      fputc('\n', out);
    }
  }
  n = onnxslim_model_function_count(m);
  for (size_t i = 0; i < n; i++) dump_function(onnxslim_model_function(m, i), i);
  onnxslim_graph *g = onnxslim_model_graph(m);
  if (g) {
    if (onnxslim_graph_model(g) != m) fputs("GRAPH_MODEL_MISMATCH\n", out);
    if (onnxslim_graph_parent_node(g) != NULL) fputs("MAIN_GRAPH_HAS_PARENT\n", out);
    dump_graph(g, 0);
  } else {
    fputs("no graph\n", out);
  }
  onnxslim_model_free(m);
}

/* ---- main ----------------------------------------------------------------- */

static int dump_to(const char *dir, size_t k, const char *path) {
  char name[4096];
  snprintf(name, sizeof name, "%s/%zu.txt", dir, k);
  out = fopen(name, "w");
  if (!out) {
    perror(name);
    return 2;
  }
  dump_model(path);
  if (fclose(out) != 0) {
    perror(name);
    return 2;
  }
  return 0;
}

int main(int argc, char **argv) {
  const char *dir = NULL, *list = NULL;
  int i = 1;
  for (; i < argc; i++) {
    if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) dir = argv[++i];
    else if (strcmp(argv[i], "-l") == 0 && i + 1 < argc) list = argv[++i];
    else break;
  }
  if (!dir) {
    if (list || argc - i != 1) {
      fprintf(stderr, "usage: %s MODEL | -o DIR [-l LIST] [MODEL...]\n", argv[0]);
      return 2;
    }
    out = stdout;
    dump_model(argv[i]);
    return fflush(stdout) ? 2 : 0;
  }
  size_t k = 0;
  if (list) {
    FILE *f = fopen(list, "r");
    if (!f) {
      perror(list);
      return 2;
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    while ((len = getline(&line, &cap, f)) >= 0) {
      while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r')) line[--len] = 0;
      if (!len) continue;
      if (dump_to(dir, k++, line)) return 2;
    }
    free(line);
    fclose(f);
  }
  for (; i < argc; i++)
    if (dump_to(dir, k++, argv[i])) return 2;
  return 0;
}
