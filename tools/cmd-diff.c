/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim (the command) - `libonnxslim diff A B`: what differs between two
 * models. Exit 0 when they are equal, 1 with the differences listed, 2 on
 * a usage error or when a model cannot be read.
 *
 * First the storage-independent fingerprints of A and B are compared: when
 * they are equal, so are the models (except maybe for where tensor bytes
 * are stored, compared only with --storage). Otherwise the models are
 * walked side by side: model fields, opsets, metadata, functions, then each
 * graph (subgraphs too): name, inputs, outputs, value_info, initializers,
 * sparse initializers and nodes, matched by name (unnamed nodes: the k-th
 * unnamed node of an op type in A with the k-th of that op type in B).
 * Tensor data is streamed in chunks through onnxslim_tensor_read(), which
 * hands the mapped pages back behind it: memory stays flat however large
 * the models are. Differences the walk does not see (node order, doc
 * strings, fields this command does not compare) are still reported, as
 * one "other" difference, because the fingerprints differ.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "cli.h"
#include "json.h"

#define EXIT_DIFFERENT 1
#define EXIT_TROUBLE 2

/* Elements per chunk when tensor data is streamed (a multiple of 8, so
 * that chunks of 4-bit types start at whole bytes). */
#define CHUNK_ELEMS 65536
/* List attributes longer than this are shown around their first difference. */
#define LIST_SHOW 16

typedef struct diff_settings {
  int storage; /* --storage */
  int json;    /* --json */
} diff_settings;

typedef struct diff_ctx {
  const onnxslim_model *a, *b;
  int storage;      /* --storage */
  int data_equal;   /* the fingerprints are equal: tensor data is not read */
  json *j;          /* --json: the document being written, else NULL */
  size_t count;     /* differences reported */
  uint8_t *ra, *rb; /* chunk buffers: CHUNK_ELEMS * 8 bytes each */
  double *da, *db;  /* decoded values: CHUNK_ELEMS each */
  float *fs;        /* FLOAT16 decoding: CHUNK_ELEMS */
} diff_ctx;

/* One difference. The strings are raw (not escaped) and borrowed. */
typedef struct difference {
  const char *graph;     /* path of the (sub)graph, "" for the main graph and outside graphs */
  const char *kind;      /* "model", "opset", "metadata", "function", "graph", "input", ... */
  const char *name;      /* the item's name ("" for an unnamed node) */
  const char *label;     /* "node 'x'", "initializer 'W'", ...: how the text names it */
  long index_a, index_b; /* nodes: position in A and in B, -1 if none */
  const char *what;      /* "presence", "value", "dtype", "contents", ... */
  const char *attribute; /* the attribute, for node attributes; else NULL */
  const char *a, *b;     /* the values in text form; NULL: absent there */
  int has_max;           /* max_abs_diff was measured */
  double max_abs_diff;   /* NaN: not finite (a NaN or infinity on one side only) */
  const char *digest_a, *digest_b; /* "contents": digests of the tensor data */
} difference;

static difference at(const char *graph, const char *kind, const char *name, const char *label) {
  difference d;
  memset(&d, 0, sizeof d);
  d.graph = graph;
  d.kind = kind;
  d.name = name;
  d.label = label;
  d.index_a = d.index_b = -1;
  return d;
}

static void sb_max(strbuf *sb, double max) {
  if (isnan(max)) sb_puts(sb, "nan");
  else sb_printf(sb, "%.6g", max);
}

/* Prints one difference (a text line, or an element of "differences"). */
static void report(diff_ctx *c, const difference *d) {
  strbuf line = {0}, e = {0};
  c->count++;
  if (d->graph[0]) sb_printf(&line, "%s: ", d->graph);
  sb_puts(&line, d->label);
  if (d->attribute) sb_printf(&line, " attribute '%s'", d->attribute);
  sb_puts(&line, ": ");
  if (!d->a != !d->b) {
    const char *v = d->a ? d->a : d->b;
    size_t lv = strlen(v), ll = strlen(d->label);
    sb_printf(&line, "only in %s", d->a ? "A" : "B");
    /* "node #3 (Add): only in A", not "... only in A (Add)" */
    if (v[0] && !(ll > lv + 1 && d->label[ll - 1] == ')' && d->label[ll - lv - 2] == '(' &&
                  memcmp(d->label + ll - lv - 1, v, lv) == 0))
      sb_printf(&line, " (%s)", v);
  } else if (strcmp(d->what, "contents") == 0) {
    sb_puts(&line, "contents differ");
  } else if (strcmp(d->what, "other") == 0) {
    sb_printf(&line,
              "differs in what diff does not list (node order, doc strings, ...): "
              "fingerprint %s -> %s",
              d->a, d->b);
  } else {
    if (strcmp(d->what, "value") != 0) sb_printf(&line, "%s ", d->what);
    sb_printf(&line, "%s -> %s", d->a ? d->a : "", d->b ? d->b : "");
  }
  if (d->has_max) {
    sb_puts(&line, ", max abs diff ");
    sb_max(&line, d->max_abs_diff);
  }
  if (d->digest_a && d->digest_b) sb_printf(&line, ", digest %s -> %s", d->digest_a, d->digest_b);

  if (!c->j) {
    printf("%s\n", esc(&e, sb_str(&line)));
  } else {
    json *j = c->j;
    json_object(j);
    json_kstr(j, "graph", d->graph);
    json_kstr(j, "kind", d->kind);
    json_kstr(j, "name", d->name);
    json_key(j, "index_a");
    if (d->index_a >= 0) json_int(j, d->index_a);
    else json_null(j);
    json_key(j, "index_b");
    if (d->index_b >= 0) json_int(j, d->index_b);
    else json_null(j);
    json_kstr(j, "what", d->what);
    json_kstr(j, "attribute", d->attribute);
    json_kstr(j, "a", d->a);
    json_kstr(j, "b", d->b);
    if (d->has_max) json_kdouble(j, "max_abs_diff", d->max_abs_diff);
    else json_knull(j, "max_abs_diff");
    json_kstr(j, "digest_a", d->digest_a);
    json_kstr(j, "digest_b", d->digest_b);
    json_kstr(j, "text", sb_str(&line));
    json_end(j);
  }
  sb_free(&line);
  sb_free(&e);
}

/* Reports "what": a -> b when the texts differ. */
static void report_if_differs(diff_ctx *c, const difference *where, const char *what, const char *a,
                              const char *b) {
  difference d = *where;
  if (strcmp(a, b) == 0) return;
  d.what = what;
  d.a = a;
  d.b = b;
  report(c, &d);
}

/* Reports an item present in one model only (a or b NULL). */
static void report_presence(diff_ctx *c, const difference *where, const char *a, const char *b) {
  difference d = *where;
  d.what = "presence";
  d.a = a;
  d.b = b;
  report(c, &d);
}

/* ---- matching by key ------------------------------------------------------- */

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

/*
 * Pairs the items of two lists by key: the k-th item of A with a key pairs
 * with the k-th item of B with that key. ma[i] receives the index in B of
 * A's item i, or -1; mb[i] likewise. Keys are borrowed.
 */
static void match_keys(const char *const *ka, size_t na, const char *const *kb, size_t nb, long *ma,
                       long *mb) {
  keyed *sa = xmalloc_array(na, sizeof *sa), *sb = xmalloc_array(nb, sizeof *sb);
  size_t i = 0, k = 0;
  for (i = 0; i < na; i++) {
    sa[i].key = ka[i];
    sa[i].index = i;
    ma[i] = -1;
  }
  for (i = 0; i < nb; i++) {
    sb[i].key = kb[i];
    sb[i].index = i;
    mb[i] = -1;
  }
  qsort(sa, na, sizeof *sa, cmp_keyed);
  qsort(sb, nb, sizeof *sb, cmp_keyed);
  i = 0;
  while (i < na && k < nb) {
    int r = strcmp(sa[i].key, sb[k].key);
    if (r < 0) i++;
    else if (r > 0) k++;
    else {
      ma[sa[i].index] = (long)sb[k].index;
      mb[sb[k].index] = (long)sa[i].index;
      i++;
      k++;
    }
  }
  free(sa);
  free(sb);
}

/* ---- texts -------------------------------------------------------------------- */

/* A list of strings owned by the list. */
typedef struct strlist {
  char **v;
  size_t n;
} strlist;

static char *sl_add(strlist *l, const char *s) {
  l->v = xrealloc(l->v, (l->n + 1) * sizeof *l->v);
  return l->v[l->n++] = xstrdup(s);
}

static void sl_free(strlist *l) {
  size_t i;
  for (i = 0; i < l->n; i++) free(l->v[i]);
  free(l->v);
  l->v = NULL;
  l->n = 0;
}

static const char *op_domain(const char *domain) {
  return domain[0] && strcmp(domain, "ai.onnx") != 0 ? domain : "";
}

/* "Add", or "com.microsoft:Attention" outside the default domain. */
static void sb_op(strbuf *sb, const onnxslim_node *n) {
  const char *dom = op_domain(onnxslim_node_domain(n));
  if (dom[0]) sb_printf(sb, "%s:", dom);
  sb_puts(sb, onnxslim_node_op_type(n));
}

/* The type of a value_info, "(no type)" when it has none. Returns 0, or nonzero after reporting a
 * library error. */
static int sb_vi_type(strbuf *sb, const onnxslim_value_info *vi) {
  const onnxslim_type *t = onnxslim_value_info_type(vi);
  if (!t) {
    if (onnxslim_error_last_code() != ONNXSLIM_ENOTFOUND) return -1;
    sb_puts(sb, "(no type)");
    return 0;
  }
  return sb_type(sb, t);
}

/* "FLOAT[2, 3]" */
static int sb_tensor_type(strbuf *sb, const onnxslim_tensor *t) {
  sb_dtype(sb, onnxslim_tensor_dtype(t));
  return sb_tensor_dims(sb, t);
}

/* ---- tensor data ---------------------------------------------------------- */

static int is_numeric(int32_t dt) {
  switch (dt) {
  case ONNXSLIM_DTYPE_FLOAT:
  case ONNXSLIM_DTYPE_DOUBLE:
  case ONNXSLIM_DTYPE_FLOAT16:
  case ONNXSLIM_DTYPE_BFLOAT16:
  case ONNXSLIM_DTYPE_INT8:
  case ONNXSLIM_DTYPE_UINT8:
  case ONNXSLIM_DTYPE_INT16:
  case ONNXSLIM_DTYPE_UINT16:
  case ONNXSLIM_DTYPE_INT32:
  case ONNXSLIM_DTYPE_UINT32:
  case ONNXSLIM_DTYPE_INT64:
  case ONNXSLIM_DTYPE_UINT64: return 1;
  default: return 0;
  }
}

/* Decodes k little-endian elements of a numeric type into dst. */
static void decode(diff_ctx *c, int32_t dt, const uint8_t *src, size_t k, double *dst) {
  size_t i;
  switch (dt) {
  case ONNXSLIM_DTYPE_FLOAT:
    for (i = 0; i < k; i++) {
      float f;
      memcpy(&f, src + 4 * i, 4);
      dst[i] = f;
    }
    break;
  case ONNXSLIM_DTYPE_DOUBLE: memcpy(dst, src, 8 * k); break;
  case ONNXSLIM_DTYPE_FLOAT16:
  case ONNXSLIM_DTYPE_BFLOAT16: {
    /* src is the start of a chunk buffer (malloc'ed): aligned for uint16_t */
    const uint16_t *h = (const uint16_t *)(const void *)src;
    if (dt == ONNXSLIM_DTYPE_FLOAT16) onnxslim_convert_f16_to_f32(c->fs, h, k);
    else onnxslim_convert_bf16_to_f32(c->fs, h, k);
    for (i = 0; i < k; i++) dst[i] = c->fs[i];
    break;
  }
#define INTS(DT, T)                             \
  case DT:                                      \
    for (i = 0; i < k; i++) {                   \
      T v;                                      \
      memcpy(&v, src + sizeof v * i, sizeof v); \
      dst[i] = (double)v;                       \
    }                                           \
    break;
    INTS(ONNXSLIM_DTYPE_INT8, int8_t)
    INTS(ONNXSLIM_DTYPE_UINT8, uint8_t)
    INTS(ONNXSLIM_DTYPE_INT16, int16_t)
    INTS(ONNXSLIM_DTYPE_UINT16, uint16_t)
    INTS(ONNXSLIM_DTYPE_INT32, int32_t)
    INTS(ONNXSLIM_DTYPE_UINT32, uint32_t)
    INTS(ONNXSLIM_DTYPE_INT64, int64_t)
    INTS(ONNXSLIM_DTYPE_UINT64, uint64_t)
#undef INTS
  default:
    for (i = 0; i < k; i++) dst[i] = 0;
  }
}

/* Folds |x - y| of k value pairs into *max; *nan when a pair differs by
 * no finite amount in a way that is not an infinity (NaN on one side). */
static void fold_max(const double *x, const double *y, size_t k, double *max, int *nan) {
  size_t i;
  for (i = 0; i < k; i++) {
    double d;
    if (x[i] == y[i] || (isnan(x[i]) && isnan(y[i]))) continue;
    d = fabs(x[i] - y[i]);
    if (isnan(d)) *nan = 1;
    else if (d > *max) *max = d;
  }
}

static void hex128(char out[33], XXH128_hash_t h) {
  snprintf(out, 33, "%016llx%016llx", (unsigned long long)h.high64, (unsigned long long)h.low64);
}

/* What streaming two tensors found. */
typedef struct pair_result {
  int equal;   /* same bytes (same data type only) */
  int has_max; /* both numeric: max_abs_diff measured */
  double max;  /* NaN: not finite */
  char digest_a[33], digest_b[33];
} pair_result;

/* Bytes of elements [e, e + k) of a tensor of `bits` per element, whose
 * data is `total` bytes. */
static void elem_range(uint64_t e, uint64_t k, unsigned bits, uint64_t total, uint64_t *off,
                       size_t *len) {
  uint64_t o = e * bits / 8, end = (e + k) * bits / 8;
  if ((e + k) * bits % 8) end++;
  if (end > total) end = total;
  *off = o;
  *len = (size_t)(end - o);
}

/*
 * Streams the data of two tensors with the same number of elements,
 * CHUNK_ELEMS at a time: digests (XXH3-128 of the bytes in raw layout),
 * whether the bytes are equal, and the largest absolute difference of the
 * values when both types are numeric (only where the bytes differ, when
 * the types are the same). Returns 0, or nonzero after reporting a library error.
 */
static int stream_pair(diff_ctx *c, const onnxslim_tensor *ta, const onnxslim_tensor *tb,
                       const char *what, pair_result *r) {
  int32_t dta = onnxslim_tensor_dtype(ta), dtb = onnxslim_tensor_dtype(tb);
  unsigned ba = onnxslim_dtype_bits(dta), bb = onnxslim_dtype_bits(dtb);
  uint64_t n = (uint64_t)onnxslim_tensor_element_count(ta), sa = 0, sb = 0, e;
  int numeric = is_numeric(dta) && is_numeric(dtb), nan = 0;
  XXH3_state_t ha, hb;

  memset(r, 0, sizeof *r);
  r->equal = dta == dtb;
  r->has_max = numeric;
  if (onnxslim_tensor_byte_size(ta, &sa) != ONNXSLIM_OK ||
      onnxslim_tensor_byte_size(tb, &sb) != ONNXSLIM_OK)
    return fail_lib("%s: size of the data", what);
  XXH3_128bits_reset(&ha);
  XXH3_128bits_reset(&hb);
  for (e = 0; e < n; e += CHUNK_ELEMS) {
    uint64_t k = n - e < CHUNK_ELEMS ? n - e : CHUNK_ELEMS, oa, ob;
    size_t la, lb;
    elem_range(e, k, ba, sa, &oa, &la);
    elem_range(e, k, bb, sb, &ob, &lb);
    if (onnxslim_tensor_read(ta, oa, c->ra, la) != ONNXSLIM_OK ||
        onnxslim_tensor_read(tb, ob, c->rb, lb) != ONNXSLIM_OK)
      return fail_lib("%s: reading the data", what);
    XXH3_128bits_update(&ha, c->ra, la);
    XXH3_128bits_update(&hb, c->rb, lb);
    if (dta == dtb && la == lb && memcmp(c->ra, c->rb, la) == 0) continue;
    r->equal = 0;
    if (numeric) {
      decode(c, dta, c->ra, (size_t)k, c->da);
      decode(c, dtb, c->rb, (size_t)k, c->db);
      fold_max(c->da, c->db, (size_t)k, &r->max, &nan);
    }
  }
  if (nan) r->max = NAN;
  hex128(r->digest_a, XXH3_128bits_digest(&ha));
  hex128(r->digest_b, XXH3_128bits_digest(&hb));
  return 0;
}

/* STRING tensors: equal when they hold the same strings. Digests hash
 * each string's length and bytes. Returns 0, or nonzero after reporting a library error. */
static int string_pair(const onnxslim_tensor *ta, const onnxslim_tensor *tb, const char *what,
                       pair_result *r) {
  size_t na = onnxslim_tensor_string_count(ta), nb = onnxslim_tensor_string_count(tb), i;
  XXH3_state_t ha, hb;
  memset(r, 0, sizeof *r);
  r->equal = na == nb;
  XXH3_128bits_reset(&ha);
  XXH3_128bits_reset(&hb);
  for (i = 0; i < na || i < nb; i++) {
    const char *pa = NULL, *pb = NULL;
    size_t la = 0, lb = 0;
    uint64_t l;
    if ((i < na && onnxslim_tensor_string(ta, i, &pa, &la) != ONNXSLIM_OK) ||
        (i < nb && onnxslim_tensor_string(tb, i, &pb, &lb) != ONNXSLIM_OK))
      return fail_lib("%s: string %zu", what, i);
    if (i < na) {
      l = la;
      XXH3_128bits_update(&ha, &l, sizeof l);
      XXH3_128bits_update(&ha, pa, la);
    }
    if (i < nb) {
      l = lb;
      XXH3_128bits_update(&hb, &l, sizeof l);
      XXH3_128bits_update(&hb, pb, lb);
    }
    if (i >= na || i >= nb || la != lb || memcmp(pa, pb, la) != 0) r->equal = 0;
  }
  hex128(r->digest_a, XXH3_128bits_digest(&ha));
  hex128(r->digest_b, XXH3_128bits_digest(&hb));
  return 0;
}

/*
 * Compares two tensors: data type, dims, contents (same type and dims;
 * not read when the fingerprints are equal), and with --storage where
 * their bytes are stored. A changed type over the same dims reports the
 * largest difference of the values when both are numeric.
 * Returns 0, or nonzero after reporting a library error.
 */
static int cmp_tensor(diff_ctx *c, const difference *where, const onnxslim_tensor *ta,
                      const onnxslim_tensor *tb) {
  int32_t dta = onnxslim_tensor_dtype(ta), dtb = onnxslim_tensor_dtype(tb);
  strbuf sa = {0}, sb = {0}, ta_s = {0}, tb_s = {0};
  int same_shape, rc = 0;
  pair_result r;
  difference d;

  if (sb_tensor_dims(&sa, ta) != 0 || sb_tensor_dims(&sb, tb) != 0) {
    rc = -1;
    fail_lib("%s: dims", where->label);
    goto out;
  }
  same_shape = strcmp(sb_str(&sa), sb_str(&sb)) == 0;
  if (dta != dtb) {
    d = *where;
    d.what = "dtype";
    sb_dtype(&ta_s, dta);
    sb_dtype(&tb_s, dtb);
    d.a = sb_str(&ta_s);
    d.b = sb_str(&tb_s);
    if (same_shape && is_numeric(dta) && is_numeric(dtb)) {
      if (stream_pair(c, ta, tb, where->label, &r) != 0) {
        rc = -1;
        goto out;
      }
      d.has_max = 1;
      d.max_abs_diff = r.max;
    }
    report(c, &d);
  }
  if (!same_shape) report_if_differs(c, where, "shape", sb_str(&sa), sb_str(&sb));
  if (dta == dtb && same_shape && !c->data_equal &&
      (dta == ONNXSLIM_DTYPE_STRING || onnxslim_dtype_bits(dta) > 0)) {
    if ((dta == ONNXSLIM_DTYPE_STRING ? string_pair(ta, tb, where->label, &r)
                                      : stream_pair(c, ta, tb, where->label, &r)) != 0) {
      rc = -1;
      goto out;
    }
    if (!r.equal) {
      d = *where;
      d.what = "contents";
      d.has_max = r.has_max;
      d.max_abs_diff = r.max;
      d.digest_a = r.digest_a;
      d.digest_b = r.digest_b;
      report(c, &d);
    }
  }
  if (c->storage)
    report_if_differs(c, where, "storage", storage_name(onnxslim_tensor_storage(ta)),
                      storage_name(onnxslim_tensor_storage(tb)));
out:
  sb_free(&sa);
  sb_free(&sb);
  sb_free(&ta_s);
  sb_free(&tb_s);
  return rc;
}

/* "INT64[3, 2] digest X" of a sparse tensor's indices (for "indices"). */
static int sb_indices(strbuf *sb, const onnxslim_tensor *t, const char *digest) {
  if (!t) {
    sb_puts(sb, "none");
    return 0;
  }
  if (sb_tensor_type(sb, t) != 0) return -1;
  if (digest) sb_printf(sb, " digest %s", digest);
  return 0;
}

/* Two sparse tensors: dense shape, values (as tensors), indices. */
static int cmp_sparse(diff_ctx *c, const difference *where, const onnxslim_sparse_tensor *sa,
                      const onnxslim_sparse_tensor *sb) {
  strbuf da = {0}, db = {0};
  const onnxslim_tensor *va = onnxslim_sparse_tensor_values(sa);
  const onnxslim_tensor *vb = onnxslim_sparse_tensor_values(sb);
  const onnxslim_tensor *ia = onnxslim_sparse_tensor_indices(sa);
  const onnxslim_tensor *ib = onnxslim_sparse_tensor_indices(sb);
  size_t i;
  int rc = 0;

  sb_puts(&da, "[");
  for (i = 0; i < onnxslim_sparse_tensor_rank(sa); i++)
    sb_printf(&da, "%s%" PRId64, i ? ", " : "", onnxslim_sparse_tensor_dim(sa, i));
  sb_puts(&da, "]");
  sb_puts(&db, "[");
  for (i = 0; i < onnxslim_sparse_tensor_rank(sb); i++)
    sb_printf(&db, "%s%" PRId64, i ? ", " : "", onnxslim_sparse_tensor_dim(sb, i));
  sb_puts(&db, "]");
  report_if_differs(c, where, "shape", sb_str(&da), sb_str(&db));
  if (va && vb) rc = cmp_tensor(c, where, va, vb);
  if (rc == 0 && (ia || ib)) {
    pair_result r;
    int same = ia && ib && onnxslim_tensor_dtype(ia) == onnxslim_tensor_dtype(ib);
    sb_reset(&da);
    sb_reset(&db);
    if (same) {
      strbuf x = {0}, y = {0};
      same = sb_tensor_dims(&x, ia) == 0 && sb_tensor_dims(&y, ib) == 0 &&
             strcmp(sb_str(&x), sb_str(&y)) == 0;
      sb_free(&x);
      sb_free(&y);
    }
    if (same && !c->data_equal && onnxslim_dtype_bits(onnxslim_tensor_dtype(ia)) > 0) {
      if (stream_pair(c, ia, ib, where->label, &r) != 0) rc = -1;
      else if (!r.equal) {
        if (sb_indices(&da, ia, r.digest_a) != 0 || sb_indices(&db, ib, r.digest_b) != 0)
          rc = fail_lib("%s: indices", where->label);
        else report_if_differs(c, where, "indices", sb_str(&da), sb_str(&db));
      }
    } else if (!same) {
      if (sb_indices(&da, ia, NULL) != 0 || sb_indices(&db, ib, NULL) != 0)
        rc = fail_lib("%s: indices", where->label);
      else report_if_differs(c, where, "indices", sb_str(&da), sb_str(&db));
    }
  }
  sb_free(&da);
  sb_free(&db);
  return rc;
}

/* ---- attributes ------------------------------------------------------------- */

static int diff_graph(diff_ctx *c, const char *path, const onnxslim_graph *ga,
                      const onnxslim_graph *gb);

static const char *attr_type_name(int type) {
  static const char *const names[] = {"UNDEFINED",      "FLOAT",      "INT",        "STRING",
                                      "TENSOR",         "GRAPH",      "FLOATS",     "INTS",
                                      "STRINGS",        "TENSORS",    "GRAPHS",     "SPARSE_TENSOR",
                                      "SPARSE_TENSORS", "TYPE_PROTO", "TYPE_PROTOS"};
  return type >= 0 && type < (int)(sizeof names / sizeof names[0]) ? names[type] : "UNKNOWN";
}

static void sb_float(strbuf *sb, double v) { sb_printf(sb, "%.9g", v); }

/* The text of element i of a FLOATS, INTS or STRINGS attribute. */
static int sb_list_elem(strbuf *sb, const onnxslim_attr *at, int type, size_t i) {
  if (type == ONNXSLIM_ATTR_FLOATS) {
    const float *v;
    size_t n;
    if (onnxslim_attr_floats(at, &v, &n) != ONNXSLIM_OK) return -1;
    sb_float(sb, v[i]);
  } else if (type == ONNXSLIM_ATTR_INTS) {
    const int64_t *v;
    size_t n;
    if (onnxslim_attr_ints(at, &v, &n) != ONNXSLIM_OK) return -1;
    sb_printf(sb, "%" PRId64, v[i]);
  } else {
    const char *s;
    size_t n;
    if (onnxslim_attr_list_string(at, i, &s, &n) != ONNXSLIM_OK) return -1;
    sb_printf(sb, "'%s'", s);
  }
  return 0;
}

/* "[1, 2, 3]", or for a long list "N values, [i] = v" around index `focus`. */
static int sb_list(strbuf *sb, const onnxslim_attr *at, int type, size_t focus) {
  size_t i, n = onnxslim_attr_list_count(at);
  if (n > LIST_SHOW) {
    sb_printf(sb, "%zu values", n);
    if (focus < n) {
      sb_printf(sb, ", [%zu] = ", focus);
      return sb_list_elem(sb, at, type, focus);
    }
    return 0;
  }
  sb_puts(sb, "[");
  for (i = 0; i < n; i++) {
    if (i) sb_puts(sb, ", ");
    if (sb_list_elem(sb, at, type, i) != 0) return -1;
  }
  sb_puts(sb, "]");
  return 0;
}

/* A short text of an attribute's value; with_type: followed by its type
 * (for "presence" and type changes). */
static int sb_attr(strbuf *sb, const onnxslim_attr *at, int with_type) {
  int type = onnxslim_attr_type(at);
  const char *ref = onnxslim_attr_ref_attr_name(at);
  if (ref && ref[0]) {
    sb_printf(sb, "@%s (%s)", ref, attr_type_name(type));
    return 0;
  }
  switch (type) {
  case ONNXSLIM_ATTR_FLOAT: {
    float f;
    if (onnxslim_attr_float(at, &f) != ONNXSLIM_OK) return -1;
    sb_float(sb, f);
    break;
  }
  case ONNXSLIM_ATTR_INT: {
    int64_t v;
    if (onnxslim_attr_int(at, &v) != ONNXSLIM_OK) return -1;
    sb_printf(sb, "%" PRId64, v);
    break;
  }
  case ONNXSLIM_ATTR_STRING: {
    const char *s;
    size_t n;
    if (onnxslim_attr_string(at, &s, &n) != ONNXSLIM_OK) return -1;
    sb_printf(sb, "'%s'", s);
    break;
  }
  case ONNXSLIM_ATTR_FLOATS:
  case ONNXSLIM_ATTR_INTS:
  case ONNXSLIM_ATTR_STRINGS:
    if (sb_list(sb, at, type, (size_t)-1) != 0) return -1;
    break;
  case ONNXSLIM_ATTR_TENSOR: {
    const onnxslim_tensor *t = onnxslim_attr_tensor(at);
    if (!t || sb_tensor_type(sb, t) != 0) return -1;
    break;
  }
  case ONNXSLIM_ATTR_TYPE_PROTO: {
    const onnxslim_type *t = onnxslim_attr_type_proto(at);
    if (!t || sb_type(sb, t) != 0) return -1;
    break;
  }
  case ONNXSLIM_ATTR_TENSORS:
  case ONNXSLIM_ATTR_GRAPHS:
  case ONNXSLIM_ATTR_SPARSE_TENSORS:
  case ONNXSLIM_ATTR_TYPE_PROTOS: sb_printf(sb, "%zu values", onnxslim_attr_list_count(at)); break;
  default: break;
  }
  if (with_type) sb_printf(sb, " (%s)", attr_type_name(type));
  return 0;
}

/* Index of the first element where two lists differ, or SIZE_MAX. */
static size_t list_first_diff(const onnxslim_attr *x, const onnxslim_attr *y, int type) {
  size_t i, nx = onnxslim_attr_list_count(x), ny = onnxslim_attr_list_count(y);
  for (i = 0; i < nx && i < ny; i++) {
    if (type == ONNXSLIM_ATTR_FLOATS) {
      const float *a, *b;
      size_t n;
      if (onnxslim_attr_floats(x, &a, &n) || onnxslim_attr_floats(y, &b, &n)) return i;
      if (memcmp(&a[i], &b[i], sizeof a[i]) != 0) return i;
    } else if (type == ONNXSLIM_ATTR_INTS) {
      const int64_t *a, *b;
      size_t n;
      if (onnxslim_attr_ints(x, &a, &n) || onnxslim_attr_ints(y, &b, &n)) return i;
      if (a[i] != b[i]) return i;
    } else {
      const char *a, *b;
      size_t la, lb;
      if (onnxslim_attr_list_string(x, i, &a, &la) || onnxslim_attr_list_string(y, i, &b, &lb))
        return i;
      if (la != lb || memcmp(a, b, la) != 0) return i;
    }
  }
  return nx == ny ? SIZE_MAX : i;
}

/* Compares two attributes of matched nodes (same name). `sub` is the path
 * prefix for their subgraphs. Returns 0, or nonzero after reporting a library error. */
static int cmp_attr(diff_ctx *c, const difference *where, const char *sub, const onnxslim_attr *x,
                    const onnxslim_attr *y) {
  int type = onnxslim_attr_type(x), rc = 0;
  const char *rx = onnxslim_attr_ref_attr_name(x), *ry = onnxslim_attr_ref_attr_name(y);
  strbuf a = {0}, b = {0}, p = {0};
  size_t i, n;
  difference d = *where;

  d.what = "value";
  if (type != onnxslim_attr_type(y) || strcmp(rx ? rx : "", ry ? ry : "") != 0 || (rx && rx[0])) {
    if (sb_attr(&a, x, 1) != 0 || sb_attr(&b, y, 1) != 0) rc = fail_lib("%s: attribute", d.label);
    else report_if_differs(c, &d, "value", sb_str(&a), sb_str(&b));
    goto out;
  }
  switch (type) {
  case ONNXSLIM_ATTR_FLOAT:
  case ONNXSLIM_ATTR_INT:
  case ONNXSLIM_ATTR_STRING:
  case ONNXSLIM_ATTR_TYPE_PROTO:
    /* a float's text (%.9g) tells every float apart; strings in full */
    if (sb_attr(&a, x, 0) != 0 || sb_attr(&b, y, 0) != 0) rc = fail_lib("%s: attribute", d.label);
    else report_if_differs(c, &d, "value", sb_str(&a), sb_str(&b));
    break;
  case ONNXSLIM_ATTR_FLOATS:
  case ONNXSLIM_ATTR_INTS:
  case ONNXSLIM_ATTR_STRINGS:
    i = list_first_diff(x, y, type);
    if (i == SIZE_MAX) break;
    if (sb_list(&a, x, type, i) != 0 || sb_list(&b, y, type, i) != 0)
      rc = fail_lib("%s: attribute", d.label);
    else {
      d.a = sb_str(&a);
      d.b = sb_str(&b);
      report(c, &d);
    }
    break;
  case ONNXSLIM_ATTR_TENSOR: {
    const onnxslim_tensor *tx = onnxslim_attr_tensor(x), *ty = onnxslim_attr_tensor(y);
    if (!tx || !ty) rc = fail_lib("%s: attribute tensor", d.label);
    else rc = cmp_tensor(c, &d, tx, ty);
    break;
  }
  case ONNXSLIM_ATTR_SPARSE_TENSOR: {
    const onnxslim_sparse_tensor *sx = onnxslim_attr_sparse_tensor(x);
    const onnxslim_sparse_tensor *sy = onnxslim_attr_sparse_tensor(y);
    if (!sx || !sy) rc = fail_lib("%s: attribute sparse tensor", d.label);
    else rc = cmp_sparse(c, &d, sx, sy);
    break;
  }
  case ONNXSLIM_ATTR_GRAPH: {
    const onnxslim_graph *gx = onnxslim_attr_graph(x), *gy = onnxslim_attr_graph(y);
    if (!gx || !gy) rc = fail_lib("%s: attribute graph", d.label);
    else {
      sb_printf(&p, "%s%s attribute '%s'", sub, d.label, d.attribute);
      rc = diff_graph(c, sb_str(&p), gx, gy);
    }
    break;
  }
  case ONNXSLIM_ATTR_TENSORS:
  case ONNXSLIM_ATTR_GRAPHS:
  case ONNXSLIM_ATTR_SPARSE_TENSORS:
  case ONNXSLIM_ATTR_TYPE_PROTOS:
    n = onnxslim_attr_list_count(x);
    if (n != onnxslim_attr_list_count(y)) {
      if (sb_attr(&a, x, 1) != 0 || sb_attr(&b, y, 1) != 0) rc = fail_lib("%s: attribute", d.label);
      else report_if_differs(c, &d, "value", sb_str(&a), sb_str(&b));
      break;
    }
    for (i = 0; i < n && rc == 0; i++) {
      difference e = d;
      sb_reset(&p);
      sb_printf(&p, "%s[%zu]", d.attribute, i);
      e.attribute = sb_str(&p);
      if (type == ONNXSLIM_ATTR_TENSORS) {
        const onnxslim_tensor *tx = onnxslim_attr_list_tensor(x, i);
        const onnxslim_tensor *ty = onnxslim_attr_list_tensor(y, i);
        rc = tx && ty ? cmp_tensor(c, &e, tx, ty) : fail_lib("%s: attribute", d.label);
      } else if (type == ONNXSLIM_ATTR_SPARSE_TENSORS) {
        const onnxslim_sparse_tensor *sx = onnxslim_attr_list_sparse_tensor(x, i);
        const onnxslim_sparse_tensor *sy = onnxslim_attr_list_sparse_tensor(y, i);
        rc = sx && sy ? cmp_sparse(c, &e, sx, sy) : fail_lib("%s: attribute", d.label);
      } else if (type == ONNXSLIM_ATTR_GRAPHS) {
        const onnxslim_graph *gx = onnxslim_attr_list_graph(x, i);
        const onnxslim_graph *gy = onnxslim_attr_list_graph(y, i);
        strbuf q = {0};
        sb_printf(&q, "%s%s attribute '%s'", sub, d.label, e.attribute);
        rc = gx && gy ? diff_graph(c, sb_str(&q), gx, gy) : fail_lib("%s: attribute", d.label);
        sb_free(&q);
      } else {
        const onnxslim_type *tx = onnxslim_attr_list_type_proto(x, i);
        const onnxslim_type *ty = onnxslim_attr_list_type_proto(y, i);
        sb_reset(&a);
        sb_reset(&b);
        if (!tx || !ty || sb_type(&a, tx) != 0 || sb_type(&b, ty) != 0)
          rc = fail_lib("%s: attribute", d.label);
        else report_if_differs(c, &e, "value", sb_str(&a), sb_str(&b));
      }
    }
    break;
  default: break; /* unknown types: the fingerprints tell */
  }
out:
  sb_free(&a);
  sb_free(&b);
  sb_free(&p);
  return rc;
}

/* ---- nodes ------------------------------------------------------------------ */

/* "[a, b, ]": a node's inputs or outputs. */
static void sb_names(strbuf *sb, const onnxslim_node *n, int outputs) {
  size_t i, count = outputs ? onnxslim_node_output_count(n) : onnxslim_node_input_count(n);
  sb_puts(sb, "[");
  for (i = 0; i < count; i++) {
    const char *s = outputs ? onnxslim_node_output(n, i) : onnxslim_node_input(n, i);
    sb_printf(sb, "%s'%s'", i ? ", " : "", s ? s : "?");
  }
  sb_puts(sb, "]");
}

/* "node 'name'", or "node #3 (Add)" for an unnamed node. */
static void sb_node_label(strbuf *sb, const onnxslim_node *n, size_t index) {
  const char *name = onnxslim_node_name(n);
  if (name && name[0]) {
    sb_printf(sb, "node '%s'", name);
    return;
  }
  sb_printf(sb, "node #%zu (", index);
  sb_op(sb, n);
  sb_puts(sb, ")");
}

/* Compares two matched nodes. Returns 0, or nonzero after reporting a library error. */
static int cmp_node(diff_ctx *c, const char *path, const onnxslim_node *x, size_t ix,
                    const onnxslim_node *y, size_t iy) {
  strbuf label = {0}, a = {0}, b = {0}, sub = {0};
  size_t i, na = onnxslim_node_attr_count(x), nb = onnxslim_node_attr_count(y);
  const char **ka = xmalloc_array(na, sizeof *ka), **kb = xmalloc_array(nb, sizeof *kb);
  long *ma = xmalloc_array(na, sizeof *ma), *mb = xmalloc_array(nb, sizeof *mb);
  const char *name = onnxslim_node_name(x);
  difference d;
  int rc = 0;

  sb_node_label(&label, x, ix);
  d = at(path, "node", name ? name : "", sb_str(&label));
  d.index_a = (long)ix;
  d.index_b = (long)iy;
  sb_op(&a, x);
  sb_op(&b, y);
  report_if_differs(c, &d, "op_type", sb_str(&a), sb_str(&b));
  sb_reset(&a);
  sb_reset(&b);
  sb_names(&a, x, 0);
  sb_names(&b, y, 0);
  report_if_differs(c, &d, "inputs", sb_str(&a), sb_str(&b));
  sb_reset(&a);
  sb_reset(&b);
  sb_names(&a, x, 1);
  sb_names(&b, y, 1);
  report_if_differs(c, &d, "outputs", sb_str(&a), sb_str(&b));

  for (i = 0; i < na; i++) {
    const onnxslim_attr *at_ = onnxslim_node_attr(x, i);
    if (!at_ || !(ka[i] = onnxslim_attr_name(at_))) {
      rc = fail_lib("%s: attribute %zu", sb_str(&label), i);
      goto out;
    }
  }
  for (i = 0; i < nb; i++) {
    const onnxslim_attr *at_ = onnxslim_node_attr(y, i);
    if (!at_ || !(kb[i] = onnxslim_attr_name(at_))) {
      rc = fail_lib("%s: attribute %zu", sb_str(&label), i);
      goto out;
    }
  }
  match_keys(ka, na, kb, nb, ma, mb);
  if (path[0]) sb_printf(&sub, "%s / ", path);
  for (i = 0; i < na && rc == 0; i++) {
    difference e = d;
    e.attribute = ka[i];
    if (ma[i] >= 0) {
      rc = cmp_attr(c, &e, sb_str(&sub), onnxslim_node_attr(x, i),
                    onnxslim_node_attr(y, (size_t)ma[i]));
      continue;
    }
    sb_reset(&a);
    if (sb_attr(&a, onnxslim_node_attr(x, i), 1) != 0) rc = fail_lib("%s", sb_str(&label));
    else report_presence(c, &e, sb_str(&a), NULL);
  }
  for (i = 0; i < nb && rc == 0; i++) {
    difference e = d;
    if (mb[i] >= 0) continue;
    e.attribute = kb[i];
    sb_reset(&b);
    if (sb_attr(&b, onnxslim_node_attr(y, i), 1) != 0) rc = fail_lib("%s", sb_str(&label));
    else report_presence(c, &e, NULL, sb_str(&b));
  }
out:
  free(ka);
  free(kb);
  free(ma);
  free(mb);
  sb_free(&label);
  sb_free(&a);
  sb_free(&b);
  sb_free(&sub);
  return rc;
}

/* The nodes of a graph or of a function. */
typedef struct node_list {
  const onnxslim_node **v;
  size_t n;
} node_list;

/* Matching keys: "n" + name, or for an unnamed node "u" + domain + op type
 * (so that the k-th unnamed node of an op pairs with the k-th). */
static void node_keys(const node_list *l, strlist *keys) {
  size_t i;
  strbuf k = {0};
  for (i = 0; i < l->n; i++) {
    const char *name = onnxslim_node_name(l->v[i]);
    sb_reset(&k);
    if (name && name[0]) sb_printf(&k, "n%s", name);
    else
      sb_printf(&k, "u%s%c%s", op_domain(onnxslim_node_domain(l->v[i])), 1,
                onnxslim_node_op_type(l->v[i]));
    sl_add(keys, sb_str(&k));
  }
  sb_free(&k);
}

static int diff_nodes(diff_ctx *c, const char *path, const node_list *x, const node_list *y) {
  strlist kx = {0}, ky = {0};
  long *mx = xmalloc_array(x->n, sizeof *mx), *my = xmalloc_array(y->n, sizeof *my);
  strbuf label = {0}, op = {0};
  size_t i;
  int rc = 0;

  node_keys(x, &kx);
  node_keys(y, &ky);
  match_keys((const char *const *)kx.v, kx.n, (const char *const *)ky.v, ky.n, mx, my);
  for (i = 0; i < x->n && rc == 0; i++) {
    difference d;
    const char *name = onnxslim_node_name(x->v[i]);
    if (mx[i] >= 0) {
      rc = cmp_node(c, path, x->v[i], i, y->v[mx[i]], (size_t)mx[i]);
      continue;
    }
    sb_reset(&label);
    sb_reset(&op);
    sb_node_label(&label, x->v[i], i);
    sb_op(&op, x->v[i]);
    d = at(path, "node", name ? name : "", sb_str(&label));
    d.index_a = (long)i;
    report_presence(c, &d, sb_str(&op), NULL);
  }
  for (i = 0; i < y->n && rc == 0; i++) {
    difference d;
    const char *name = onnxslim_node_name(y->v[i]);
    if (my[i] >= 0) continue;
    sb_reset(&label);
    sb_reset(&op);
    sb_node_label(&label, y->v[i], i);
    sb_op(&op, y->v[i]);
    d = at(path, "node", name ? name : "", sb_str(&label));
    d.index_b = (long)i;
    report_presence(c, &d, NULL, sb_str(&op));
  }
  sl_free(&kx);
  sl_free(&ky);
  free(mx);
  free(my);
  sb_free(&label);
  sb_free(&op);
  return rc;
}

static int graph_nodes(const onnxslim_graph *g, node_list *l) {
  size_t i;
  l->n = onnxslim_graph_node_count(g);
  l->v = xmalloc_array(l->n, sizeof *l->v);
  for (i = 0; i < l->n; i++)
    if (!(l->v[i] = onnxslim_graph_node(g, i))) return fail_lib("node %zu", i);
  return 0;
}

/* ---- graphs -------------------------------------------------------------------- */

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

/* Inputs, outputs or value_info of two graphs: by name, their types, and
 * (inputs and outputs) their order. Returns 0, or nonzero after reporting a library error. */
static int diff_values(diff_ctx *c, const char *path, int which, const onnxslim_graph *ga,
                       const onnxslim_graph *gb) {
  static const char *const kinds[] = {"input", "output", "value_info"};
  const char *kind = kinds[which];
  size_t na = value_count(ga, which), nb = value_count(gb, which), i;
  const char **ka = xmalloc_array(na, sizeof *ka), **kb = xmalloc_array(nb, sizeof *kb);
  long *ma = xmalloc_array(na, sizeof *ma), *mb = xmalloc_array(nb, sizeof *mb);
  strbuf label = {0}, a = {0}, b = {0};
  int rc = 0, order = 0;

  for (i = 0; i < na; i++)
    if (!value_at(ga, which, i) || !(ka[i] = onnxslim_value_info_name(value_at(ga, which, i)))) {
      rc = fail_lib("A: %s %zu", kind, i);
      goto out;
    }
  for (i = 0; i < nb; i++)
    if (!value_at(gb, which, i) || !(kb[i] = onnxslim_value_info_name(value_at(gb, which, i)))) {
      rc = fail_lib("B: %s %zu", kind, i);
      goto out;
    }
  match_keys(ka, na, kb, nb, ma, mb);
  for (i = 0; i < na; i++) {
    difference d;
    sb_reset(&label);
    sb_reset(&a);
    sb_printf(&label, "%s '%s'", kind, ka[i]);
    d = at(path, kind, ka[i], sb_str(&label));
    if (sb_vi_type(&a, value_at(ga, which, i)) != 0) {
      rc = fail_lib("A: type of %s", sb_str(&label));
      goto out;
    }
    if (ma[i] < 0) {
      report_presence(c, &d, sb_str(&a), NULL);
      continue;
    }
    if (ma[i] != (long)i) order = 1;
    sb_reset(&b);
    if (sb_vi_type(&b, value_at(gb, which, (size_t)ma[i])) != 0) {
      rc = fail_lib("B: type of %s", sb_str(&label));
      goto out;
    }
    report_if_differs(c, &d, "type", sb_str(&a), sb_str(&b));
  }
  for (i = 0; i < nb; i++) {
    difference d;
    if (mb[i] >= 0) continue;
    sb_reset(&label);
    sb_reset(&b);
    sb_printf(&label, "%s '%s'", kind, kb[i]);
    d = at(path, kind, kb[i], sb_str(&label));
    if (sb_vi_type(&b, value_at(gb, which, i)) != 0) {
      rc = fail_lib("B: type of %s", sb_str(&label));
      goto out;
    }
    report_presence(c, &d, NULL, sb_str(&b));
  }
  /* the same names in another order: positional bindings change */
  if (order && which != VALUES_INFO && na == nb) {
    difference d;
    int all = 1;
    for (i = 0; i < na; i++) all &= ma[i] >= 0;
    if (all) {
      sb_reset(&label);
      sb_reset(&a);
      sb_reset(&b);
      sb_printf(&label, "%ss", kind);
      for (i = 0; i < na; i++) sb_printf(&a, "%s'%s'", i ? ", " : "[", ka[i]);
      for (i = 0; i < nb; i++) sb_printf(&b, "%s'%s'", i ? ", " : "[", kb[i]);
      sb_puts(&a, "]");
      sb_puts(&b, "]");
      d = at(path, kind, "", sb_str(&label));
      report_if_differs(c, &d, "order", sb_str(&a), sb_str(&b));
    }
  }
out:
  free(ka);
  free(kb);
  free(ma);
  free(mb);
  sb_free(&label);
  sb_free(&a);
  sb_free(&b);
  return rc;
}

/* Initializers (sparse: their values tensor's name) by name. */
static int diff_initializers(diff_ctx *c, const char *path, int sparse, const onnxslim_graph *ga,
                             const onnxslim_graph *gb) {
  const char *kind = sparse ? "sparse_initializer" : "initializer";
  size_t na =
      sparse ? onnxslim_graph_sparse_initializer_count(ga) : onnxslim_graph_initializer_count(ga);
  size_t nb =
      sparse ? onnxslim_graph_sparse_initializer_count(gb) : onnxslim_graph_initializer_count(gb);
  const char **ka = xmalloc_array(na, sizeof *ka), **kb = xmalloc_array(nb, sizeof *kb);
  long *ma = xmalloc_array(na, sizeof *ma), *mb = xmalloc_array(nb, sizeof *mb);
  const onnxslim_tensor **ta = xmalloc_array(na, sizeof *ta), **tb = xmalloc_array(nb, sizeof *tb);
  strbuf label = {0}, s = {0};
  size_t i;
  int rc = 0;

  for (i = 0; i < na + nb; i++) {
    const onnxslim_graph *g = i < na ? ga : gb;
    size_t k = i < na ? i : i - na;
    const onnxslim_tensor *t =
        sparse ? onnxslim_sparse_tensor_values(onnxslim_graph_sparse_initializer(g, k))
               : onnxslim_graph_initializer(g, k);
    const char *name = t ? onnxslim_tensor_name(t) : NULL;
    if (!name) {
      rc = fail_lib("%s: %s %zu", i < na ? "A" : "B", kind, k);
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
  match_keys(ka, na, kb, nb, ma, mb);
  for (i = 0; i < na + nb && rc == 0; i++) {
    int in_a = i < na;
    size_t k = in_a ? i : i - na;
    const char *name = in_a ? ka[k] : kb[k];
    difference d;
    if (!in_a && mb[k] >= 0) continue;
    sb_reset(&label);
    sb_printf(&label, "%s '%s'", kind, name);
    d = at(path, kind, name, sb_str(&label));
    if (in_a && ma[k] >= 0) {
      rc = sparse ? cmp_sparse(c, &d, onnxslim_graph_sparse_initializer(ga, k),
                               onnxslim_graph_sparse_initializer(gb, (size_t)ma[k]))
                  : cmp_tensor(c, &d, ta[k], tb[ma[k]]);
      continue;
    }
    sb_reset(&s);
    if (sb_tensor_type(&s, in_a ? ta[k] : tb[k]) != 0) {
      rc = fail_lib("%s", sb_str(&label));
      goto out;
    }
    report_presence(c, &d, in_a ? sb_str(&s) : NULL, in_a ? NULL : sb_str(&s));
  }
out:
  free(ka);
  free(kb);
  free(ma);
  free(mb);
  free(ta);
  free(tb);
  sb_free(&label);
  sb_free(&s);
  return rc;
}

static int diff_graph(diff_ctx *c, const char *path, const onnxslim_graph *ga,
                      const onnxslim_graph *gb) {
  const char *na = onnxslim_graph_name(ga), *nb = onnxslim_graph_name(gb);
  node_list xa = {NULL, 0}, xb = {NULL, 0};
  difference d = at(path, "graph", "", "graph");
  int rc;

  if (!na || !nb) return fail_lib("graph name");
  report_if_differs(c, &d, "name", na, nb);
  rc = diff_values(c, path, VALUES_INPUT, ga, gb);
  if (rc == 0) rc = diff_values(c, path, VALUES_OUTPUT, ga, gb);
  if (rc == 0) rc = diff_values(c, path, VALUES_INFO, ga, gb);
  if (rc == 0) rc = diff_initializers(c, path, 0, ga, gb);
  if (rc == 0) rc = diff_initializers(c, path, 1, ga, gb);
  if (rc == 0) rc = graph_nodes(ga, &xa);
  if (rc == 0) rc = graph_nodes(gb, &xb);
  if (rc == 0) rc = diff_nodes(c, path, &xa, &xb);
  free(xa.v);
  free(xb.v);
  return rc;
}

/* ---- the model ------------------------------------------------------------------- */

static void model_field(diff_ctx *c, const char *field, const char *a, const char *b) {
  strbuf label = {0};
  difference d;
  sb_printf(&label, "model %s", field);
  d = at("", "model", field, sb_str(&label));
  report_if_differs(c, &d, "value", a, b);
  sb_free(&label);
}

static void model_int(diff_ctx *c, const char *field, int64_t a, int64_t b) {
  char x[32], y[32];
  snprintf(x, sizeof x, "%" PRId64, a);
  snprintf(y, sizeof y, "%" PRId64, b);
  model_field(c, field, x, y);
}

/* Keys and values of the opsets (domain "" is "ai.onnx") or metadata. */
static int pairs(const onnxslim_model *m, int metadata, strlist *keys, strlist *values) {
  size_t i, n = metadata ? onnxslim_model_metadata_count(m) : onnxslim_model_opset_count(m);
  for (i = 0; i < n; i++) {
    const char *k = NULL, *v = NULL;
    int64_t version = 0;
    char num[32];
    if (metadata ? onnxslim_model_metadata(m, i, &k, &v) != ONNXSLIM_OK
                 : onnxslim_model_opset(m, i, &k, &version) != ONNXSLIM_OK)
      return fail_lib("%s %zu", metadata ? "metadata_props" : "opset_import", i);
    if (!metadata) {
      snprintf(num, sizeof num, "%" PRId64, version);
      v = num;
      if (!k || !k[0]) k = "ai.onnx";
    }
    sl_add(keys, k ? k : "");
    sl_add(values, v ? v : "");
  }
  return 0;
}

static int diff_pairs(diff_ctx *c, int metadata) {
  const char *kind = metadata ? "metadata" : "opset";
  strlist ka = {0}, va = {0}, kb = {0}, vb = {0};
  long *ma = NULL, *mb = NULL;
  strbuf label = {0}, x = {0}, y = {0};
  size_t i;
  int rc = -1;

  if (pairs(c->a, metadata, &ka, &va) != 0 || pairs(c->b, metadata, &kb, &vb) != 0) goto out;
  ma = xmalloc_array(ka.n, sizeof *ma);
  mb = xmalloc_array(kb.n, sizeof *mb);
  match_keys((const char *const *)ka.v, ka.n, (const char *const *)kb.v, kb.n, ma, mb);
  for (i = 0; i < ka.n + kb.n; i++) {
    int in_a = i < ka.n;
    size_t k = in_a ? i : i - ka.n;
    const char *key = in_a ? ka.v[k] : kb.v[k];
    difference d;
    if (!in_a && mb[k] >= 0) continue;
    sb_reset(&label);
    sb_reset(&x);
    sb_reset(&y);
    sb_printf(&label, "%s '%s'", kind, key);
    d = at("", kind, key, sb_str(&label));
    if (metadata) {
      if (in_a) sb_printf(&x, "'%s'", va.v[k]);
      if (!in_a || ma[k] >= 0) sb_printf(&y, "'%s'", in_a ? vb.v[ma[k]] : vb.v[k]);
    } else {
      if (in_a) sb_puts(&x, va.v[k]);
      if (!in_a || ma[k] >= 0) sb_puts(&y, in_a ? vb.v[ma[k]] : vb.v[k]);
    }
    if (in_a && ma[k] >= 0)
      report_if_differs(c, &d, metadata ? "value" : "version", sb_str(&x), sb_str(&y));
    else report_presence(c, &d, in_a ? sb_str(&x) : NULL, in_a ? NULL : sb_str(&y));
  }
  rc = 0;
out:
  sl_free(&ka);
  sl_free(&va);
  sl_free(&kb);
  sl_free(&vb);
  free(ma);
  free(mb);
  sb_free(&label);
  sb_free(&x);
  sb_free(&y);
  return rc;
}

/* "[a, b]" of a function's inputs, outputs or attribute names. */
static void sb_fn_list(strbuf *sb, const onnxslim_function *f, int which) {
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

static int diff_functions(diff_ctx *c) {
  size_t na = onnxslim_model_function_count(c->a), nb = onnxslim_model_function_count(c->b), i;
  strlist ka = {0}, kb = {0};
  long *ma = xmalloc_array(na, sizeof *ma), *mb = xmalloc_array(nb, sizeof *mb);
  strbuf key = {0}, label = {0}, x = {0}, y = {0};
  int rc = 0;

  for (i = 0; i < na + nb; i++) {
    const onnxslim_function *f = onnxslim_model_function(i < na ? c->a : c->b, i < na ? i : i - na);
    if (!f) {
      rc = fail_lib("function %zu", i < na ? i : i - na);
      goto out;
    }
    sb_reset(&key);
    sb_printf(&key, "%s:%s", onnxslim_function_domain(f), onnxslim_function_name(f));
    sl_add(i < na ? &ka : &kb, sb_str(&key));
  }
  match_keys((const char *const *)ka.v, ka.n, (const char *const *)kb.v, kb.n, ma, mb);
  for (i = 0; i < na + nb && rc == 0; i++) {
    int in_a = i < na;
    size_t k = in_a ? i : i - na;
    const char *name = in_a ? ka.v[k] : kb.v[k];
    const onnxslim_function *fa, *fb;
    node_list xa = {NULL, 0}, xb = {NULL, 0};
    difference d;
    size_t j;
    if (!in_a && mb[k] >= 0) continue;
    sb_reset(&label);
    sb_printf(&label, "function '%s'", name);
    d = at("", "function", name, sb_str(&label));
    if (!in_a || ma[k] < 0) {
      report_presence(c, &d, in_a ? "" : NULL, in_a ? NULL : "");
      continue;
    }
    fa = onnxslim_model_function(c->a, k);
    fb = onnxslim_model_function(c->b, (size_t)ma[k]);
    for (j = 0; j < 3; j++) {
      static const char *const whats[] = {"inputs", "outputs", "attributes"};
      sb_reset(&x);
      sb_reset(&y);
      sb_fn_list(&x, fa, (int)j);
      sb_fn_list(&y, fb, (int)j);
      report_if_differs(c, &d, whats[j], sb_str(&x), sb_str(&y));
    }
    xa.n = onnxslim_function_node_count(fa);
    xb.n = onnxslim_function_node_count(fb);
    xa.v = xmalloc_array(xa.n, sizeof *xa.v);
    xb.v = xmalloc_array(xb.n, sizeof *xb.v);
    for (j = 0; j < xa.n; j++) xa.v[j] = onnxslim_function_node(fa, j);
    for (j = 0; j < xb.n; j++) xb.v[j] = onnxslim_function_node(fb, j);
    rc = diff_nodes(c, sb_str(&label), &xa, &xb);
    free(xa.v);
    free(xb.v);
  }
out:
  sl_free(&ka);
  sl_free(&kb);
  free(ma);
  free(mb);
  sb_free(&key);
  sb_free(&label);
  sb_free(&x);
  sb_free(&y);
  return rc;
}

static int diff_models(diff_ctx *c) {
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
    if (!s[k][0] || !s[k][1] || !s[k][2] || !s[k][3]) return fail_lib("model fields");
  }
  model_field(c, "producer_name", s[0][0], s[1][0]);
  model_field(c, "producer_version", s[0][1], s[1][1]);
  model_field(c, "domain", s[0][2], s[1][2]);
  model_int(c, "model_version", onnxslim_model_version(c->a), onnxslim_model_version(c->b));
  model_field(c, "doc_string", s[0][3], s[1][3]);
  if (diff_pairs(c, 0) != 0 || diff_pairs(c, 1) != 0 || diff_functions(c) != 0) return -1;
  ga = onnxslim_model_graph(c->a);
  gb = onnxslim_model_graph(c->b);
  if ((!ga || !gb) && onnxslim_error_last_code() != ONNXSLIM_ENOTFOUND) return fail_lib("graph");
  if (ga && gb) return diff_graph(c, "", ga, gb);
  if (ga || gb) {
    difference d = at("", "graph", "", "graph");
    report_presence(c, &d, ga ? "" : NULL, gb ? "" : NULL);
  }
  return 0;
}

/* ---- the command ------------------------------------------------------------------ */

static int opt_storage(void *ctx, const char *value) {
  (void)value;
  ((diff_settings *)ctx)->storage = 1;
  return 0;
}

static int opt_json(void *ctx, const char *value) {
  (void)value;
  ((diff_settings *)ctx)->json = 1;
  return 0;
}

static const option_spec diff_options[] = {
    {"--storage", NULL, opt_storage,
     "also list tensors stored differently (raw_data,\n"
     "typed fields or external data)"},
    {"--json", NULL, opt_json, "print the differences as JSON (docs/json.md)"},
    {NULL, NULL, NULL, NULL},
};

static int diff_files(const char *pa, const char *pb, const diff_settings *ds) {
  onnxslim_model *a = NULL, *b = NULL;
  char fa[ONNXSLIM_FINGERPRINT_SIZE], fb[ONNXSLIM_FINGERPRINT_SIZE];
  diff_ctx c;
  json j;
  int status = EXIT_TROUBLE, rc = 0;

  memset(&c, 0, sizeof c);
  if (open_model(&a, pa) != EXIT_SUCCESS || open_model(&b, pb) != EXIT_SUCCESS) goto out;
  if (onnxslim_fingerprint(fa, sizeof fa, a) != ONNXSLIM_OK) {
    fail_lib("cannot fingerprint '%s'", pa);
    goto out;
  }
  if (onnxslim_fingerprint(fb, sizeof fb, b) != ONNXSLIM_OK) {
    fail_lib("cannot fingerprint '%s'", pb);
    goto out;
  }
  c.a = a;
  c.b = b;
  c.storage = ds->storage;
  c.data_equal = strcmp(fa, fb) == 0;
  c.ra = xmalloc((size_t)CHUNK_ELEMS * 8);
  c.rb = xmalloc((size_t)CHUNK_ELEMS * 8);
  c.da = xmalloc_array(CHUNK_ELEMS, sizeof *c.da);
  c.db = xmalloc_array(CHUNK_ELEMS, sizeof *c.db);
  c.fs = xmalloc_array(CHUNK_ELEMS, sizeof *c.fs);
  if (ds->json) {
    c.j = &j;
    json_init(&j, stdout);
    json_object(&j);
    json_kstr(&j, "schema", "libonnxslim.diff/1");
    json_kstr(&j, "a", pa);
    json_kstr(&j, "b", pb);
    json_kbool(&j, "storage", ds->storage);
    json_kstr(&j, "fingerprint_a", fa);
    json_kstr(&j, "fingerprint_b", fb);
    json_karray(&j, "differences");
  }
  /* equal fingerprints: nothing to list, unless storage is compared */
  if (!c.data_equal || c.storage) rc = diff_models(&c);
  if (rc == 0 && !c.data_equal && c.count == 0) {
    difference d = at("", "model", "", "model");
    d.what = "other";
    d.a = fa;
    d.b = fb;
    /* the walk found nothing: what differs is what it does not compare */
    report(&c, &d);
  }
  if (rc != 0) goto out;
  if (ds->json) {
    json_end(&j);
    json_kuint(&j, "count", c.count);
    json_kbool(&j, "equal", c.count == 0);
    json_end(&j);
    json_finish(&j);
  } else if (c.count) {
    printf("%zu difference%s\n", c.count, c.count == 1 ? "" : "s");
  }
  status = c.count ? EXIT_DIFFERENT : EXIT_SUCCESS;
  if (finish_stdout(EXIT_SUCCESS) != EXIT_SUCCESS) status = EXIT_TROUBLE;
out:
  free(c.ra);
  free(c.rb);
  free(c.da);
  free(c.db);
  free(c.fs);
  onnxslim_model_free(a);
  onnxslim_model_free(b);
  return status;
}

static int run_diff(const command *cmd, int argc, char **argv) {
  diff_settings ds = {0, 0};
  const char *pos[2];
  size_t npos;
  int rc = parse_args(cmd, &ds, argc, argv, pos, 2, &npos);
  if (rc != PARSE_CONTINUE) return rc;
  if (npos != 2) return usage_error("%s: expected %s", cmd->name, cmd->args);
  return diff_files(pos[0], pos[1], &ds);
}

const command cmd_diff = {"diff", "A B",
                          "list what differs between models A and B:\n"
                          "model fields, opsets, metadata, graph inputs\n"
                          "and outputs, nodes (by name; unnamed ones by\n"
                          "position among their op type), attributes,\n"
                          "initializers (type, shape, contents: digest\n"
                          "and max abs diff); exit 0 equal, 1 different,\n"
                          "2 usage error or unreadable model",
                          diff_options, run_diff};
