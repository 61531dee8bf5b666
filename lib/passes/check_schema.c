/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - the check's opsets, tensors (sizes, checksums) and the
 * operator schemas (types bound against the schema of each node).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "passes/check_int.h"

/* ---- opsets --------------------------------------------------------------- */

/* Fills m with the domains of opset_import (of fn, or of the model when fn
 * is NULL). "" and "ai.onnx" are both entered when either is imported. */
int onnxslim__ck_load_opsets(ck *c, const onnxslim_model *model, const onnxslim_function *fn,
                             osl_map *m) {
  size_t n = fn ? onnxslim_function_opset_count(fn) : onnxslim_model_opset_count(model);
  for (size_t i = 0; i < n; i++) {
    const char *d = NULL;
    int64_t v = 0;
    int rc = fn ? onnxslim_function_opset(fn, i, &d, &v) : onnxslim_model_opset(model, i, &d, &v);
    if (rc) return onnxslim__ck_failed(c);
    if (!d) d = "";
    /* the entry's num is the imported version (the schemas are looked up at it) */
    int32_t ver = v < 0 ? 0 : v > INT32_MAX ? INT32_MAX : (int32_t)v;
    if (is_onnx_domain(d)) {
      if (map_put(m, "", NULL, ver, NULL) < 0 || map_put(m, "ai.onnx", NULL, ver, NULL) < 0)
        return onnxslim__ck_nomem(c);
    } else if (map_put(m, d, NULL, ver, NULL) < 0) {
      return onnxslim__ck_nomem(c);
    }
  }
  return 0;
}

/* ---- tensors -------------------------------------------------------------- */

/* Bytes hashed per read when a checksum is verified. */
#define CK_CHUNK (1u << 20)

/* With ONNXSLIM_CHECK_VERIFY_CHECKSUMS: a tensor in external data that
 * has a checksum key is read (from the file, CK_CHUNK bytes at a time:
 * nothing is mapped or held) and its SHA-1 compared with the key. */
static int check_checksum(ck *c, const onnxslim_tensor *t) {
  if (!(c->flags & ONNXSLIM_CHECK_VERIFY_CHECKSUMS) ||
      (c->skip & (1u << ONNXSLIM_CHECK_CHECKSUM)) ||
      onnxslim_tensor_storage(t) != ONNXSLIM_STORAGE_EXTERNAL)
    return 0;
  const char *want = onnxslim__external_entry((osl_msg *)t, "checksum");
  if (!want) return 0;
  const char *name = onnxslim_tensor_name(t);
  const char *loc = onnxslim__external_entry((osl_msg *)t, "location");
  if (!name) return onnxslim__ck_failed(c);
  size_t n = strlen(want);
  int hex = n == 2 * OSL_SHA1_SIZE;
  for (size_t i = 0; i < n && hex; i++)
    hex = (want[i] >= '0' && want[i] <= '9') || (want[i] >= 'a' && want[i] <= 'f') ||
          (want[i] >= 'A' && want[i] <= 'F');
  if (!hex)
    return onnxslim__ck_problem(c, ONNXSLIM_CHECK_CHECKSUM,
                                "tensor '%s': checksum '%.80s' is not a SHA-1 (40 hex digits)",
                                name, want);
  const void *data;
  size_t size;
  int rc = onnxslim_tensor_data(t, &data, &size);
  if (rc == ONNXSLIM_ENOMEM) return onnxslim__ck_failed(c);
  if (rc) return 0; /* no bytes to hash (tensor_size says why) */
  if (!c->chunk && !(c->chunk = malloc(CK_CHUNK))) return onnxslim__ck_nomem(c);
  osl_sha1 sha;
  if (onnxslim__sha1_init(&sha)) {
    onnxslim__err(ONNXSLIM_EIO, "the system's SHA-1 is not available (checksum key)");
    return onnxslim__ck_failed(c);
  }
  for (size_t off = 0; off < size;) {
    size_t k = size - off < CK_CHUNK ? size - off : CK_CHUNK;
    int bad = onnxslim_tensor_read(t, off, c->chunk, k);
    if (!bad && onnxslim__sha1_update(&sha, c->chunk, k))
      bad = onnxslim__err(ONNXSLIM_EIO, "the system's SHA-1 failed (checksum key)");
    if (bad) {
      onnxslim__sha1_final(&sha, NULL);
      return onnxslim__ck_failed(c);
    }
    off += k;
  }
  uint8_t d[OSL_SHA1_SIZE];
  char got[2 * OSL_SHA1_SIZE + 1];
  if (onnxslim__sha1_final(&sha, d)) {
    onnxslim__err(ONNXSLIM_EIO, "the system's SHA-1 failed (checksum key)");
    return onnxslim__ck_failed(c);
  }
  for (size_t i = 0; i < sizeof d; i++) snprintf(got + 2 * i, 3, "%02x", d[i]);
  int same = 1;
  for (size_t i = 0; i < n && same; i++) {
    char w = want[i] >= 'A' && want[i] <= 'F' ? (char)(want[i] - 'A' + 'a') : want[i];
    same = w == got[i];
  }
  if (same) return 0;
  return onnxslim__ck_problem(
      c, ONNXSLIM_CHECK_CHECKSUM,
      "tensor '%s': the %zu bytes of external data '%s' have SHA-1 %s, its checksum "
      "key says %s (the data file holds other bytes than were saved)",
      name, size, loc ? loc : "?", got, want);
}

/* Checks that the tensor's stored data has the size its dims and type need
 * (and its checksum, when asked). The location of the tensor is the
 * current path. */
int onnxslim__check_tensor(ck *c, const onnxslim_tensor *t) {
  if (!t) return 0;
  int crc = check_checksum(c, t);
  if (crc) return crc;
  /* skipped: the data is not looked at (a pending conversion is not run) */
  if (c->skip & (1u << ONNXSLIM_CHECK_TENSOR_SIZE)) return 0;
  int st = onnxslim_tensor_storage(t);
  if (st < 0) return onnxslim__ck_failed(c);
  const char *name = onnxslim_tensor_name(t);
  if (!name) return onnxslim__ck_failed(c);
  if (st != ONNXSLIM_STORAGE_EXTERNAL && onnxslim_tensor_dtype(t) == ONNXSLIM_DTYPE_STRING) {
    int64_t want = onnxslim_tensor_element_count(t);
    size_t have = onnxslim_tensor_string_count(t);
    if (want >= 0 && (uint64_t)want != (uint64_t)have)
      return onnxslim__ck_problem(c, ONNXSLIM_CHECK_TENSOR_SIZE,
                                  "STRING tensor '%s' stores %zu string(s), its dims need %" PRId64,
                                  name, have, want);
    return 0;
  }
  /* for external data this compares the length the model records (the
   * range was checked against the file at load) without reading a byte:
   * the data pointer points into the file's mapping */
  const void *data;
  size_t size;
  int rc = onnxslim_tensor_data(t, &data, &size);
  if (rc == ONNXSLIM_EMODEL) {
    /* the library's message says what is stored and what is needed */
    return onnxslim__ck_problem(c, ONNXSLIM_CHECK_TENSOR_SIZE, "%s", onnxslim_error_last());
  }
  if (rc == ONNXSLIM_ENOMEM) return onnxslim__ck_failed(c);
  /* EUNSUPPORTED (unknown or undefined data type), ELIMIT (larger than the
   * address space): the size cannot be checked here */
  return 0;
}

int onnxslim__check_sparse(ck *c, const onnxslim_sparse_tensor *s) {
  if (!s) return 0;
  const onnxslim_tensor *v = onnxslim_sparse_tensor_values(s);
  if (v && onnxslim__check_tensor(c, v)) return c->rc;
  const onnxslim_tensor *ix = onnxslim_sparse_tensor_indices(s);
  if (ix) {
    size_t mark = onnxslim__ck_push(c, " indices");
    int rc = onnxslim__check_tensor(c, ix);
    onnxslim__ck_path_cut(c, mark);
    if (rc) return rc;
  }
  return 0;
}

/* The element type a Cast or Constant node gives its first output, or 0. */
int32_t onnxslim__ck_node_out_dtype(const ck *c, const onnxslim_node *node, const char **what) {
  const char *op = onnxslim_node_op_type(node), *dom = onnxslim_node_domain(node);
  if (!op || !dom || !is_onnx_domain(dom)) return 0;
  if (strcmp(op, "Cast") == 0) {
    const onnxslim_attr *a = onnxslim_node_find_attr(node, "to");
    int64_t to;
    if (!a || onnxslim_attr_int(a, &to) != 0 || to <= 0 || to > INT32_MAX) return 0;
    *what = "Cast to";
    return (int32_t)to;
  }
  if (strcmp(op, "Constant") == 0) {
    static const struct {
      const char *attr;
      int32_t dtype;
    } vals[] = {{"value_float", ONNXSLIM_DTYPE_FLOAT},   {"value_floats", ONNXSLIM_DTYPE_FLOAT},
                {"value_int", ONNXSLIM_DTYPE_INT64},     {"value_ints", ONNXSLIM_DTYPE_INT64},
                {"value_string", ONNXSLIM_DTYPE_STRING}, {"value_strings", ONNXSLIM_DTYPE_STRING}};
    *what = "Constant of type";
    const onnxslim_attr *a = onnxslim_node_find_attr(node, "value");
    if (a) {
      const onnxslim_tensor *t = onnxslim_attr_tensor(a);
      return t ? tensor_dtype(c, t) : 0;
    }
    for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++)
      if (onnxslim_node_find_attr(node, vals[i].attr)) return vals[i].dtype;
  }
  return 0;
}

/* ---- operator schemas --------------------------------------------------------- */

/* The element type of a value known to be a tensor, from this scope or an
 * enclosing one; 0 when unknown. */
static int32_t dtype_of(const scope *s, const char *name) {
  for (; s; s = s->parent) {
    const osl_map_entry *e = map_find(&s->values, name);
    if (e) return (int32_t)(intptr_t)e->value;
  }
  return 0;
}

/* Records the element type of a value of s unless one is known already. */
void onnxslim__ck_set_dtype(osl_map_entry *e, int32_t dt) {
  if (e && !e->value && dt > 0) e->value = (void *)(intptr_t)dt;
}

/* The formal parameter of value `k` of a list of n formals (the last one
 * takes every further value when variadic), or NULL. */
const osl_op_formal *onnxslim__ck_formal_at(const osl_op_formal *f, unsigned n, size_t k) {
  if (k < n) return &f[k];
  if (n && f[n - 1].option == OSL_OP_VARIADIC) return &f[n - 1];
  return NULL;
}

const char *onnxslim__ck_op_type_name(int t) { return OSL_OPS_STR(onnxslim__ops_type_name[t]); }

/* Appends the allowed types of a constraint, "tensor(float), tensor(double)". */
static void describe_allowed(ck_str *out, const osl_op_constraint *tc) {
  for (unsigned k = 0; k < tc->count; k++)
    onnxslim__ck_str_add(out, "%s%s", k ? ", " : "",
                         onnxslim__ck_op_type_name(onnxslim__ops_typelist[tc->first + k]));
}

static const char *attr_type_name(int t) {
  static const char *const names[] = {"UNDEFINED",      "FLOAT",      "INT",        "STRING",
                                      "TENSOR",         "GRAPH",      "FLOATS",     "INTS",
                                      "STRINGS",        "TENSORS",    "GRAPHS",     "SPARSE_TENSOR",
                                      "SPARSE_TENSORS", "TYPE_PROTO", "TYPE_PROTOS"};
  return t >= 0 && t < (int)(sizeof names / sizeof names[0]) ? names[t] : "?";
}

/* Binding of a schema's type constraints while one node is checked. */
typedef struct binding {
  int32_t dt[16]; /* element type bound to constraint i, 0: none yet */
  int by[16];     /* by what: input k (k >= 0), output k (-1 - k), attribute (INT_MIN) */
} binding;

#define BY_ATTR (-100000)

static void describe_by(ck_str *out, const onnxslim_node *node, int by) {
  if (by == BY_ATTR) {
    onnxslim__ck_str_add(out, "its attribute");
  } else if (by >= 0) {
    const char *n = onnxslim_node_input(node, (size_t)by);
    onnxslim__ck_str_add(out, "input %d '%s'", by, n ? n : "?");
  } else {
    const char *n = onnxslim_node_output(node, (size_t)(-1 - by));
    onnxslim__ck_str_add(out, "output %d '%s'", -1 - by, n ? n : "?");
  }
}

/* Checks element type dt of value `which` (input k / output -1-k /
 * BY_ATTR) against formal f of schema sc and binds its constraint.
 * The location is the current path (the value's). */
static int bind_problem(ck *c, const onnxslim_node *node, int which, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(OSL_PRINTF, 4, 5)))
#endif
    ;
/* A type_constraint problem located at value `which` of node (input k,
 * output -1-k, BY_ATTR: the attribute of Cast or Constant). */
static int bind_problem(ck *c, const onnxslim_node *node, int which, const char *fmt, ...) {
  onnxslim__ck_flush_path(c);
  size_t mark = c->path.len;
  if (which == BY_ATTR) {
    const char *op = onnxslim_node_op_type(node);
    onnxslim__ck_str_add(&c->path, " attribute '%s'",
                         op && strcmp(op, "Cast") == 0 ? "to" : "value");
  } else if (which >= 0) {
    onnxslim__ck_str_add(&c->path, " input[%d] '%s'", which,
                         onnxslim_node_input(node, (size_t)which));
  } else {
    onnxslim__ck_str_add(&c->path, " output[%d] '%s'", -1 - which,
                         onnxslim_node_output(node, (size_t)(-1 - which)));
  }
  ck_str m = {0};
  va_list ap;
  va_start(ap, fmt);
  onnxslim__ck_str_vadd(&m, fmt, ap);
  va_end(ap);
  int rc = m.oom ? onnxslim__ck_nomem(c)
                 : onnxslim__ck_problem(c, ONNXSLIM_CHECK_TYPE_CONSTRAINT, "%s", m.p);
  free(m.p);
  onnxslim__ck_path_cut(c, mark);
  return rc;
}

static int bind_type(ck *c, const onnxslim_node *node, const osl_op_schema *sc, const char *op,
                     int64_t opset, const osl_op_formal *f, int32_t dt, int which, binding *bd) {
  char b1[32], b2[32];
  const char *fname = OSL_OPS_STR(f->name);
  if (f->constraint == OSL_OP_NONE) {
    int want = onnxslim__ops_type_dtype[f->type];
    if (want && want != dt)
      return bind_problem(
          c, node, which, "'%s' of %s is %s, the schema (opset %" PRId64 ") wants %s", fname, op,
          onnxslim__ck_dtype_str(b1, sizeof b1, dt), opset, onnxslim__ck_op_type_name(f->type));
    return 0;
  }
  if (f->constraint >= sc->n_tc) return 0;
  const osl_op_constraint *tc = &osl_op_constraints(sc)[f->constraint];
  const char *tname = OSL_OPS_STR(tc->name);
  if (!tc->dtype_mask) return 0; /* a constraint on sequences, maps, optionals: not followed */
  if (dt <= 0 || dt >= 32 || !(tc->dtype_mask & (1u << dt))) {
    ck_str al = {0};
    describe_allowed(&al, tc);
    int rc = al.oom ? onnxslim__ck_nomem(c)
                    : bind_problem(c, node, which,
                                   "'%s' of %s is %s, which %s does not allow at opset %" PRId64
                                   " (%s-%d allows %s)",
                                   fname, op, onnxslim__ck_dtype_str(b1, sizeof b1, dt), tname,
                                   opset, op, (int)sc->since, al.p);
    free(al.p);
    return rc;
  }
  /* a heterogeneous variadic formal does not bind its constraint */
  if (f->option == OSL_OP_VARIADIC && !f->homogeneous) return 0;
  unsigned t = f->constraint;
  if (!bd->dt[t]) {
    bd->dt[t] = dt;
    bd->by[t] = which;
    return 0;
  }
  if (bd->dt[t] == dt) return 0;
  ck_str by = {0};
  describe_by(&by, node, bd->by[t]);
  int rc = by.oom ? onnxslim__ck_nomem(c)
                  : bind_problem(c, node, which, "'%s' of %s is %s, but %s is %s (from %s)", fname,
                                 op, onnxslim__ck_dtype_str(b1, sizeof b1, dt), tname,
                                 onnxslim__ck_dtype_str(b2, sizeof b2, bd->dt[t]), by.p);
  free(by.p);
  return rc;
}

/* Notes (once per domain) that schemas are not checked at this opset. */
static void note_newer(ck *c, int d, const char *dom, int64_t opset, unsigned *noted) {
  if (*noted & (1u << d)) return;
  *noted |= 1u << d;
  onnxslim__ck_str_add(&c->note,
                       "%sschemas not checked for domain '%s' at opset %" PRId64
                       ": the tables know opsets up to %d (onnx %s)",
                       c->note.len ? "\n" : "", dom[0] ? dom : "ai.onnx", opset,
                       onnxslim__opschema_domain_max(d), onnxslim__ops_onnx_version);
}

/* Appends the key of function (dom, name) to s: "domain\x1fname". */
static void fn_key(ck_str *s, const char *dom, const char *name) {
  onnxslim__ck_str_add(s, "%s\x1f%s", is_onnx_domain(dom) ? "" : dom, name);
}

/* Enters the model's functions into c->fns (once): a lookup per node, not
 * a scan of every function (50k nodes and functions took 583 s). */
static int build_fns(ck *c) {
  c->fns_built = 1;
  size_t nf = onnxslim_model_function_count(c->model);
  if (!nf) return 0;
  ck_str keys = {0};
  size_t *at = malloc(nf * sizeof *at);
  if (!at) return onnxslim__ck_nomem(c);
  for (size_t i = 0; i < nf; i++) {
    const onnxslim_function *fn = onnxslim_model_function(c->model, i);
    const char *n = fn ? onnxslim_function_name(fn) : NULL;
    const char *d = fn ? onnxslim_function_domain(fn) : NULL;
    at[i] = SIZE_MAX;
    if (!n || !d) continue;
    at[i] = keys.len;
    fn_key(&keys, d, n);
    onnxslim__ck_str_add(&keys, "%c", 0); /* keys are NUL-separated in one block */
  }
  int rc = keys.oom ? onnxslim__ck_nomem(c) : 0;
  if (!rc)
    rc = onnxslim__ck_charge(c, (int64_t)(block_cost(keys.cap) + 2 * nf * sizeof(osl_map_entry)));
  if (!rc && onnxslim__map_reserve(NULL, &c->fns, nf)) rc = onnxslim__ck_nomem(c);
  for (size_t i = 0; i < nf && !rc; i++)
    if (at[i] != SIZE_MAX && map_put(&c->fns, keys.p + at[i], NULL, 0, NULL) < 0)
      rc = onnxslim__ck_nomem(c);
  free(at);
  c->fnkeys = keys.p;
  return rc;
}

/* Is op_type a function of the model in domain dom? (-1: out of memory) */
static int is_model_function(ck *c, const char *dom, const char *op) {
  if (!c->fns_built && build_fns(c)) return -1;
  if (!c->fns.len) return 0;
  onnxslim__ck_str_cut(&c->key, 0);
  fn_key(&c->key, dom, op);
  if (c->key.oom) return -1;
  return map_find(&c->fns, c->key.p) != NULL;
}

/* Checks node i against its schema (location: the node). typed: follow
 * element types (graphs, not function bodies). */
int onnxslim__check_schema(ck *c, const onnxslim_node *node, scope *s, const osl_map *opsets,
                           int typed) {
  const char *op = onnxslim_node_op_type(node), *dom = onnxslim_node_domain(node);
  if (!op || !dom) return onnxslim__ck_failed(c);
  int d = onnxslim__opschema_domain(dom);
  if (d < 0 || !opsets) return 0;
  const osl_map_entry *oe = map_find(opsets, dom);
  if (!oe) return 0; /* reported as an opset problem */
  int64_t opset = oe->num;
  if (opset > onnxslim__opschema_domain_max(d)) {
    note_newer(c, d, dom, opset, &c->noted);
    return c->note.oom ? onnxslim__ck_nomem(c) : 0;
  }
  int exists = 0, first = 0;
  const osl_op_schema *sc = onnxslim__opschema_find(d, op, opset, &exists, &first);
  const char *dname = dom[0] ? dom : "ai.onnx";
  if (!sc || sc->deprecated) {
    int isfn = is_model_function(c, dom, op);
    if (isfn) return isfn < 0 ? (c->rc ? c->rc : onnxslim__ck_nomem(c)) : 0;
    if (sc)
      return onnxslim__ck_problem(c, ONNXSLIM_CHECK_UNKNOWN_OP,
                                  "op '%s' is deprecated at opset %" PRId64
                                  " of domain '%s' (since %d)",
                                  op, opset, dname, (int)sc->since);
    if (exists)
      return onnxslim__ck_problem(
          c, ONNXSLIM_CHECK_UNKNOWN_OP,
          "op '%s' exists from opset %d of domain '%s'; the model imports opset %" PRId64, op,
          first, dname, opset);
    return onnxslim__ck_problem(c, ONNXSLIM_CHECK_UNKNOWN_OP, "domain '%s' has no op '%s'", dname,
                                op);
  }
  int rc = 0;
  /* arity */
  size_t nin = onnxslim_node_input_count(node), nout = onnxslim_node_output_count(node);
  if (nin < sc->min_in || (sc->max_in != OSL_OP_UNBOUNDED && nin > sc->max_in)) {
    if (sc->max_in == OSL_OP_UNBOUNDED)
      rc = onnxslim__ck_problem(c, ONNXSLIM_CHECK_ARITY,
                                "%s-%d takes at least %d inputs, the node has %zu", op,
                                (int)sc->since, (int)sc->min_in, nin);
    else
      rc = onnxslim__ck_problem(c, ONNXSLIM_CHECK_ARITY,
                                "%s-%d takes %d to %d inputs, the node has %zu", op, (int)sc->since,
                                (int)sc->min_in, (int)sc->max_in, nin);
  }
  if (!rc && (nout < sc->min_out || (sc->max_out != OSL_OP_UNBOUNDED && nout > sc->max_out))) {
    if (sc->max_out == OSL_OP_UNBOUNDED)
      rc = onnxslim__ck_problem(c, ONNXSLIM_CHECK_ARITY,
                                "%s-%d has at least %d outputs, the node has %zu", op,
                                (int)sc->since, (int)sc->min_out, nout);
    else
      rc = onnxslim__ck_problem(c, ONNXSLIM_CHECK_ARITY,
                                "%s-%d has %d to %d outputs, the node has %zu", op, (int)sc->since,
                                (int)sc->min_out, (int)sc->max_out, nout);
  }
  const osl_op_formal *fin = osl_op_inputs(sc), *fout = osl_op_outputs(sc);
  for (size_t k = 0; k < nin && k < sc->n_in && !rc; k++) {
    const char *in = onnxslim_node_input(node, k);
    if (in && !in[0] && fin[k].option == OSL_OP_SINGLE) {
      size_t mark = onnxslim__ck_push(c, " input[%zu]", k);
      rc = onnxslim__ck_problem(c, ONNXSLIM_CHECK_ARITY,
                                "input %zu ('%s' of %s) is required but empty", k,
                                OSL_OPS_STR(fin[k].name), op);
      onnxslim__ck_path_cut(c, mark);
    }
  }
  /* attributes */
  size_t na = onnxslim_node_attr_count(node);
  for (size_t j = 0; j < na && !rc; j++) {
    const onnxslim_attr *a = onnxslim_node_attr(node, j);
    const char *an = a ? onnxslim_attr_name(a) : NULL;
    if (!an) return onnxslim__ck_failed(c);
    const osl_op_attr *sa = onnxslim__opschema_attr(sc, an);
    size_t mark = onnxslim__ck_push(c, " attribute '%s'", an);
    int at = onnxslim_attr_type(a);
    if (!sa)
      rc = onnxslim__ck_problem(c, ONNXSLIM_CHECK_ATTR_UNKNOWN, "%s-%d has no attribute '%s'", op,
                                (int)sc->since, an);
    else if (at != sa->type)
      rc = onnxslim__ck_problem(c, ONNXSLIM_CHECK_ATTR_TYPE,
                                "attribute '%s' of %s is %s, the schema says %s", an, op,
                                attr_type_name(at), attr_type_name(sa->type));
    onnxslim__ck_path_cut(c, mark);
  }
  const osl_op_attr *sat = osl_op_attrs(sc);
  for (unsigned j = 0; j < sc->n_attr && !rc; j++) {
    if (!sat[j].required) continue;
    const char *an = OSL_OPS_STR(sat[j].name);
    if (!onnxslim_node_find_attr(node, an))
      rc = onnxslim__ck_problem(c, ONNXSLIM_CHECK_ATTR_MISSING,
                                "%s-%d requires attribute '%s' (%s), the node has none", op,
                                (int)sc->since, an, attr_type_name(sat[j].type));
  }
  if (rc || !typed) return rc;

  /* types: bind the constraints from the known input, attribute and output types */
  binding bd;
  memset(&bd, 0, sizeof bd);
  for (size_t k = 0; k < nin && !rc; k++) {
    const char *in = onnxslim_node_input(node, k);
    const osl_op_formal *f = onnxslim__ck_formal_at(fin, sc->n_in, k);
    int32_t dt = in && in[0] && f ? dtype_of(s, in) : 0;
    if (!dt) continue;
    rc = bind_type(c, node, sc, op, opset, f, dt, (int)k, &bd);
  }
  const char *what = NULL;
  int32_t adt = nout > 0 ? onnxslim__ck_node_out_dtype(c, node, &what) : 0;
  if (adt && !rc && sc->n_out > 0) {
    rc = bind_type(c, node, sc, op, opset, &fout[0], adt, BY_ATTR, &bd);
  }
  for (size_t k = 0; k < nout && !rc; k++) {
    const char *out = onnxslim_node_output(node, k);
    const osl_op_formal *f = onnxslim__ck_formal_at(fout, sc->n_out, k);
    if (!out || !out[0] || !f) continue;
    /* Cast's and Constant's recorded output type: the "type" check */
    osl_map_entry *ve = map_find(&s->values, out);
    if (k == 0 && adt) {
      onnxslim__ck_set_dtype(ve, adt);
      continue;
    }
    int32_t dt = ve ? (int32_t)(intptr_t)ve->value : 0;
    if (dt) {
      rc = bind_type(c, node, sc, op, opset, f, dt, -1 - (int)k, &bd);
      continue;
    }
    /* the output's type follows from the schema */
    if (f->constraint == OSL_OP_NONE) dt = onnxslim__ops_type_dtype[f->type];
    else if (f->constraint < sc->n_tc && !(f->option == OSL_OP_VARIADIC && !f->homogeneous))
      dt = bd.dt[f->constraint];
    onnxslim__ck_set_dtype(ve, dt);
  }
  return rc;
}
