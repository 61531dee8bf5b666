/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - validation (onnxslim_check) and its report.
 *
 * Built on the public read API only: this file walks graphs, nodes,
 * attributes and tensors through the same handles an application uses.
 * passes.h is included for onnxslim__err() and, to verify checksums,
 * onnxslim__external_entry() (the checksum key).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nettle/sha1.h>

#include "opschema/opschema.h"
#include "passes/passes.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

/* ---- report ---------------------------------------------------------------- */

typedef struct ck_item {
  int code;
  char *loc;
  char *msg;
  /* what the problem is, independent of node indexes (ck_key()): a
   * baseline's problems are found by it */
  uint64_t key[2];
} ck_item;

struct onnxslim_check_report {
  ck_item *items;
  size_t count, cap;
  char *note; /* "" or lines ending in '\n'... without the last one */
};

void onnxslim_check_report_free(onnxslim_check_report *report) {
  if (!report) return;
  for (size_t i = 0; i < report->count; i++) free(report->items[i].loc); /* and msg */
  free(report->items);
  free(report->note);
  free(report);
}

const char *onnxslim_check_report_note(const onnxslim_check_report *report) {
  if (!report) {
    onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_check_report_note: NULL report");
    return NULL;
  }
  return report->note ? report->note : "";
}

/* ---- problem kinds --------------------------------------------------------- */

static const struct {
  const char *name, *what;
} codes[ONNXSLIM_CHECK_CODE_MAX + 1] = {
    {NULL, NULL},
    {"undefined_input", "a node input defined nowhere in scope"},
    {"duplicate_output", "a value defined more than once"},
    {"order", "a node input produced by a later node (not in topological order)"},
    {"tensor_size", "a tensor storing another size than its dims and data type need"},
    {"opset", "a node domain without opset_import"},
    {"output_not_produced", "a graph or function output that nothing produces"},
    {"type", "conflicting recorded types (value_info, initializers, Cast, Constant)"},
    {"empty_name", "an empty name where one is required"},
    {"unknown_op", "an op_type its domain does not define at the model's opset"},
    {"arity", "a node with more or fewer inputs or outputs than its schema allows"},
    {"attr_missing", "a required attribute missing from a node"},
    {"attr_unknown", "a node attribute its schema does not define"},
    {"attr_type", "a node attribute of another type than its schema says"},
    {"type_constraint", "an element type a schema's type constraint does not allow"},
    {"untyped_io", "a graph input or output without an element type"},
    {"checksum", "external data whose bytes do not match its checksum key (when verified)"},
    {"function", "a model-local function defined twice, or calling itself"},
    {"external_load_input",
     "(warning) a tensor in external data that onnxruntime reads at load: it refuses the model"},
};

int onnxslim_check_code_is_warning(int code) {
  if (code < 1 || code > ONNXSLIM_CHECK_CODE_MAX)
    return onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_check_code_is_warning: %d is no check code",
                         code);
  return code == ONNXSLIM_CHECK_EXTERNAL_LOAD_INPUT;
}

const char *onnxslim_check_code_name(int code) {
  if (code < 1 || code > ONNXSLIM_CHECK_CODE_MAX) {
    onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_check_code_name: %d is no check code", code);
    return NULL;
  }
  return codes[code].name;
}

const char *onnxslim_check_code_description(int code) {
  if (code < 1 || code > ONNXSLIM_CHECK_CODE_MAX) {
    onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_check_code_description: %d is no check code", code);
    return NULL;
  }
  return codes[code].what;
}

int onnxslim_check_code_from_name(const char *name) {
  if (!name) return onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_check_code_from_name: NULL name");
  for (int i = 1; i <= ONNXSLIM_CHECK_CODE_MAX; i++)
    if (strcmp(codes[i].name, name) == 0) return i;
  return onnxslim__err(ONNXSLIM_ENOTFOUND, "no check named '%s' (libonnxslim check --list-checks)",
                       name);
}

/* Size of each version of onnxslim_check_options: fields are only appended. */
static size_t check_options_size(unsigned int version) {
  switch (version) {
  case 1: return offsetof(onnxslim_check_options, baseline);
  case 2: return sizeof(onnxslim_check_options);
  default: return 0;
  }
}

int onnxslim_check_options_init(onnxslim_check_options *opts, unsigned int version) {
  if (!opts) return onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_check_options_init: opts is NULL");
  size_t size = check_options_size(version);
  if (!size)
    return onnxslim__err_options_version("onnxslim_check_options_init", "check options", version,
                                         ONNXSLIM_CHECK_OPTIONS_VERSION);
  onnxslim_check_options d = ONNXSLIM_CHECK_OPTIONS_INIT;
  d.version = version;
  memcpy(opts, &d, size);
  return 0;
}

size_t onnxslim_check_report_count(const onnxslim_check_report *report) {
  return report ? report->count : 0;
}

static const ck_item *item_at(const onnxslim_check_report *report, size_t index, const char *fn) {
  if (!report) {
    onnxslim__err(ONNXSLIM_EINVAL, "%s: NULL report", fn);
    return NULL;
  }
  if (index >= report->count) {
    onnxslim__err(ONNXSLIM_ERANGE, "%s: problem index %zu out of range (%zu problems)", fn, index,
                  report->count);
    return NULL;
  }
  return &report->items[index];
}

const char *onnxslim_check_report_location(const onnxslim_check_report *report, size_t index) {
  const ck_item *it = item_at(report, index, __func__);
  return it ? it->loc : NULL;
}

const char *onnxslim_check_report_message(const onnxslim_check_report *report, size_t index) {
  const ck_item *it = item_at(report, index, __func__);
  return it ? it->msg : NULL;
}

int onnxslim_check_report_code(const onnxslim_check_report *report, size_t index) {
  const ck_item *it = item_at(report, index, __func__);
  return it ? it->code : onnxslim_error_last_code();
}

/* ---- growable string ------------------------------------------------------ */

typedef struct ck_str {
  char *p;
  size_t len, cap;
  int oom;
} ck_str;

static void str_vadd(ck_str *s, const char *fmt, va_list ap) {
  if (s->oom) return;
  va_list ap2;
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap2);
  va_end(ap2);
  if (n < 0) {
    s->oom = 1;
    return;
  }
  if (s->len + (size_t)n + 1 > s->cap) {
    size_t cap = s->cap ? s->cap : 128;
    while (cap < s->len + (size_t)n + 1) cap *= 2;
    char *p = realloc(s->p, cap);
    if (!p) {
      s->oom = 1;
      return;
    }
    s->p = p;
    s->cap = cap;
  }
  vsnprintf(s->p + s->len, (size_t)n + 1, fmt, ap);
  s->len += (size_t)n;
}

static void str_add(ck_str *s, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void str_add(ck_str *s, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  str_vadd(s, fmt, ap);
  va_end(ap);
}

static void str_cut(ck_str *s, size_t len) {
  if (s->p && len <= s->len) {
    s->len = len;
    s->p[len] = '\0';
  }
}

/* ---- name map ------------------------------------------------------------- *
 * The library's map (map.c), slots from malloc; keys are borrowed from the
 * model. An entry's value is the item defining the name, its num a DEF_* or
 * a node index. */

/* The entry of key, or NULL (also for a NULL map). */
static osl_map_entry *map_find(const osl_map *m, const char *key) {
  return m ? onnxslim__map_find(m, key) : NULL;
}

/* Inserts key -> (ptr, num) unless present. Returns 1 (inserted), 0
 * (present; *slot is the existing entry) or ONNXSLIM_ENOMEM. */
static int map_put(osl_map *m, const char *key, const void *ptr, int32_t num,
                   osl_map_entry **slot) {
  osl_map_entry *e;
  int rc = onnxslim__map_add(NULL, m, key, &e);
  if (rc == 1) {
    e->value = (void *)ptr;
    e->num = num;
  }
  if (rc >= 0 && slot) *slot = e;
  return rc;
}

/* Where a value of a scope comes from (the entry's num): >= 0 is a node
 * index, DEF_INPUT a graph (or function) input, <= -2 an initializer,
 * coded by def_init() with its index, so that one map answers for both. */
#define DEF_INPUT (-1)
#define DEF_INIT_MAX ((size_t)1 << 28) /* initializers of a graph, dense or sparse */

/* The num of initializer `index` (dense or sparse); `input`: it is also a
 * graph input (a default value). */
static int32_t def_init(size_t index, int sparse, int input) {
  return -2 - (int32_t)((index << 2) | (size_t)(sparse ? 2 : 0) | (size_t)(input ? 1 : 0));
}
static int def_is_init(int32_t num) { return num <= -2; }
static size_t def_init_index(int32_t num) { return (size_t)(-2 - (int64_t)num) >> 2; }
static int def_init_sparse(int32_t num) { return ((-2 - (int64_t)num) & 2) != 0; }
/* a graph input, with an initializer or not */
static int def_is_input(int32_t num) {
  return num == DEF_INPUT || (num <= -2 && ((-2 - (int64_t)num) & 1));
}

/* The values of one graph or function body. */
typedef struct scope {
  const struct scope *parent;
  /* name -> num: DEF_* or index of the first node producing it; value: the
   * element type of a value known to be a tensor (an int in the pointer,
   * NULL: unknown), so that one lookup gives both */
  osl_map values;
  /* index of the node of this graph whose subgraph is being checked; values
   * defined before it may not be redefined inside the subgraph */
  size_t holder;
} scope;

typedef struct ck {
  onnxslim_check_report *rep;
  unsigned skip; /* bit (1 << code): not checked */
  const onnxslim_model *model;
  ck_str note;
  unsigned noted;  /* bit d: the note on domain d was written */
  int in_subgraph; /* > 0 while a subgraph is checked (untyped inputs/outputs are fine there) */
  ck_str path;     /* location of what is being checked */
  /* the node check_nodes is at (pend), or the initializer a graph's loop is
   * at (pend_what "initializer" or "sparse_initializer"), not yet appended
   * to path: its location is formatted only when something is reported
   * there (formatting it for every node costs about a tenth of checking it) */
  const onnxslim_node *pend;
  const char *pend_what;
  size_t pend_index;
  const char *pend_name;
  ck_str msg;
  int rc;                   /* first hard failure (ENOMEM, ...) */
  const osl_retype *retype; /* element types to assume (an edit's check), or NULL */
  unsigned flags;           /* ONNXSLIM_CHECK_VERIFY_CHECKSUMS */
  uint8_t *chunk;           /* the buffer checksums are computed through */
  /* the node segments of path (" node[3] 'name'", from at to end), in
   * order: a problem's key names these nodes by identity, not by index */
  struct ck_seg *segs;
  size_t nsegs, capsegs;
  /* what an order or duplicate_output problem is about ("input", name),
   * keyed instead of its message (which names another node by index) */
  const char *subj_what, *subj_name;
  ck_str key;
  struct ck_base *base; /* the baseline's problems not yet matched, or NULL */
  /* bytes the check holds now (the report, its maps and tables), counted
   * with the model's structure against the model's max_memory */
  uint64_t used;
  /* the model's functions by "domain\x1fname" (the default domain as ""),
   * built on first use: keys in fnkeys */
  osl_map fns;
  char *fnkeys;
  int fns_built;
} ck;

typedef struct ck_seg {
  size_t at, end;
  const onnxslim_node *node;
} ck_seg;

/* The problems of a baseline report, by key, each with how many of it are
 * left to cancel: open addressing, linear probing. */
typedef struct ck_slot {
  uint64_t key[2];
  size_t left;
  int used;
} ck_slot;
typedef struct ck_base {
  ck_slot *slots;
  size_t mask;
} ck_base;

/* The data type of tensor t, or the one c->retype gives it. */
static int32_t tensor_dtype(const ck *c, const onnxslim_tensor *t) {
  const osl_map_entry *e = c->retype ? onnxslim__map_find_ptr(&c->retype->tensors, t) : NULL;
  return e ? e->num : onnxslim_tensor_dtype(t);
}

/* The element type of value info vi (of type ty), or the one c->retype gives it. */
static int32_t info_elem_type(const ck *c, const onnxslim_value_info *vi, const onnxslim_type *ty) {
  const osl_map_entry *e = c->retype ? onnxslim__map_find_ptr(&c->retype->infos, vi) : NULL;
  return e ? e->num : onnxslim_type_dtype(ty);
}

/* Records the failure of the library call that just failed and returns it. */
static int failed(ck *c) {
  int code = onnxslim_error_last_code();
  if (code >= 0) code = ONNXSLIM_ENOMEM;
  if (!c->rc) c->rc = code;
  return code;
}

static int nomem(ck *c) {
  if (!c->rc) c->rc = onnxslim__err_nomem("checking the model");
  return c->rc;
}

static void push_node(ck *c, const onnxslim_node *node, size_t index, const char *name) {
  size_t at = c->path.len;
  if (name[0]) {
    str_add(&c->path, " node[%zu] '%s'", index, name);
  } else {
    const char *op = onnxslim_node_op_type(node);
    str_add(&c->path, " node[%zu] (%s)", index, op ? op : "?");
  }
  if (c->path.oom) return;
  if (c->nsegs == c->capsegs) {
    size_t cap = c->capsegs ? c->capsegs * 2 : 16;
    ck_seg *segs = realloc(c->segs, cap * sizeof *segs);
    if (!segs) {
      c->path.oom = 1; /* reported by the next problem() */
      return;
    }
    c->segs = segs;
    c->capsegs = cap;
  }
  ck_seg *sg = &c->segs[c->nsegs++];
  sg->at = at;
  sg->end = c->path.len;
  sg->node = node;
}

/* Cuts the path back to len (a mark), with its node segments. */
static void path_cut(ck *c, size_t len) {
  while (c->nsegs && c->segs[c->nsegs - 1].at >= len) c->nsegs--;
  str_cut(&c->path, len);
}

/* Appends the pending node (ck.pend) to the path: before the path is read
 * or extended. */
static void flush_path(ck *c) {
  if (c->pend) {
    const onnxslim_node *node = c->pend;
    c->pend = NULL;
    push_node(c, node, c->pend_index, c->pend_name);
  } else if (c->pend_what) {
    const char *what = c->pend_what;
    c->pend_what = NULL;
    if (c->pend_name[0]) str_add(&c->path, " %s '%s'", what, c->pend_name);
    else str_add(&c->path, " %s[%zu]", what, c->pend_index);
  }
}

/* Makes " what 'name'" (" what[index]" when the name is empty) the pending
 * location: appended to the path if something is reported there. Returns
 * the length to cut the path back to. */
static size_t pend_item(ck *c, const char *what, const char *name, size_t index) {
  flush_path(c);
  c->pend_what = what;
  c->pend_name = name;
  c->pend_index = index;
  return c->path.len;
}

/* ---- memory ------------------------------------------------------------------ */

/* Rough malloc cost of a block of n bytes (its header and rounding). */
static uint64_t block_cost(size_t n) { return onnxslim__mem_cost(n); }

/* Adds n bytes to what the check holds (negative: released), counted with
 * the model's (onnxslim__mem_charge) against the model's max_memory
 * (onnxslim_load_options): ONNXSLIM_ELIMIT when the model's structure (its
 * arena, which the handles the check asks for also grow) and what the
 * passes hold would exceed it. run_check releases what is left. */
static int charge(ck *c, int64_t n) {
  if (n < 0) {
    uint64_t back = (uint64_t)-n < c->used ? (uint64_t)-n : c->used;
    c->used -= back;
    onnxslim__mem_release(c->model, back);
    return 0;
  }
  if (!onnxslim__mem_charge(c->model, (uint64_t)n, "checking the model")) {
    c->used += (uint64_t)n;
    return 0;
  }
  if (!c->rc) {
    char why[512];
    snprintf(why, sizeof why, "%s", onnxslim_error_last());
    c->rc = onnxslim__err(ONNXSLIM_ELIMIT, "%s (%zu problems in its report)", why,
                          c->rep ? c->rep->count : (size_t)0);
  }
  return c->rc;
}

/* ---- problem keys and the baseline ----------------------------------------- */

static void str_putn(ck_str *s, const char *p, size_t n) { str_add(s, "%.*s", (int)n, p); }

/* The key of a problem of kind `code` at the current path with message
 * c->msg (or about c->subj_what / c->subj_name): a 128-bit hash of the
 * code, the path with each node named by identity (its name; an unnamed
 * node by op_type and output names) instead of its index, and the message
 * or subject. 0, or -1 when out of memory. */
static int ck_key(ck *c, int code, uint64_t key[2]) {
  ck_str *k = &c->key;
  str_cut(k, 0);
  str_add(k, "%d\x1f", code);
  const char *p = c->path.p ? c->path.p : "";
  size_t at = 0;
  for (size_t i = 0; i < c->nsegs; i++) {
    const ck_seg *sg = &c->segs[i];
    if (sg->at < at || sg->end > c->path.len) continue; /* cannot happen: cut with path_cut */
    str_putn(k, p + at, sg->at - at);
    const char *name = onnxslim_node_name(sg->node);
    if (name && name[0]) {
      str_add(k, " node\x1e%s\x1e", name);
    } else {
      const char *op = onnxslim_node_op_type(sg->node);
      str_add(k, " node\x1d%s", op ? op : "");
      size_t nout = onnxslim_node_output_count(sg->node);
      for (size_t j = 0; j < nout; j++) {
        const char *o = onnxslim_node_output(sg->node, j);
        str_add(k, "\x1d%s", o ? o : "");
      }
      str_add(k, "\x1e");
    }
    at = sg->end;
  }
  str_putn(k, p + at, c->path.len - at);
  if (c->subj_what) str_add(k, "\x1f%s\x1f%s", c->subj_what, c->subj_name);
  else str_add(k, "\x1f%s", c->msg.p ? c->msg.p : "");
  if (k->oom) return -1;
  XXH128_hash_t h = XXH3_128bits(k->p, k->len);
  key[0] = h.low64;
  key[1] = h.high64;
  return 0;
}

static size_t base_slot(const ck_base *b, const uint64_t key[2]) {
  size_t i = (size_t)(key[0] ^ (key[1] >> 7)) & b->mask;
  while (b->slots[i].used && (b->slots[i].key[0] != key[0] || b->slots[i].key[1] != key[1]))
    i = (i + 1) & b->mask;
  return i;
}

/* Enters the problems of report r (of kinds not in skip). 0 or ENOMEM. */
static int base_build(ck_base *b, const onnxslim_check_report *r, unsigned skip) {
  size_t cap = 16;
  while (cap < 2 * r->count) {
    if (cap > SIZE_MAX / 2 / sizeof *b->slots) return onnxslim__err_nomem("checking the model");
    cap *= 2;
  }
  b->slots = calloc(cap, sizeof *b->slots);
  if (!b->slots) return onnxslim__err_nomem("checking the model");
  b->mask = cap - 1;
  for (size_t i = 0; i < r->count; i++) {
    if (skip & (1u << r->items[i].code)) continue;
    ck_slot *sl = &b->slots[base_slot(b, r->items[i].key)];
    sl->used = 1;
    sl->key[0] = r->items[i].key[0];
    sl->key[1] = r->items[i].key[1];
    sl->left++;
  }
  return 0;
}

/* 1 (and one fewer left) when the baseline has a problem of this key left. */
static int base_take(ck_base *b, const uint64_t key[2]) {
  ck_slot *sl = &b->slots[base_slot(b, key)];
  if (!sl->used || !sl->left) return 0;
  sl->left--;
  return 1;
}

/* Adds a problem at the current path. */
static int problem(ck *c, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static int problem(ck *c, int code, const char *fmt, ...) {
  if (c->skip & (1u << code)) return 0;
  flush_path(c);
  if (c->path.oom) return nomem(c);
  onnxslim_check_report *r = c->rep;
  str_cut(&c->msg, 0);
  va_list ap;
  va_start(ap, fmt);
  str_vadd(&c->msg, fmt, ap);
  va_end(ap);
  if (c->msg.oom) return nomem(c);
  uint64_t key[2];
  if (ck_key(c, code, key)) return nomem(c);
  if (c->base && base_take(c->base, key)) return 0; /* the baseline has it */
  if (r->count == r->cap) {
    size_t cap = r->cap ? r->cap * 2 : 8;
    if (charge(c, (int64_t)(block_cost(cap * sizeof(ck_item)) -
                            (r->cap ? block_cost(r->cap * sizeof(ck_item)) : 0))))
      return c->rc;
    ck_item *items = realloc(r->items, cap * sizeof *items);
    if (!items) return nomem(c);
    r->items = items;
    r->cap = cap;
  }
  /* location and message in one block: "loc\0msg\0" */
  size_t nl = c->path.len, nm = c->msg.len;
  if (charge(c, (int64_t)block_cost(nl + nm + 2))) return c->rc;
  char *both = malloc(nl + nm + 2);
  if (!both) return nomem(c);
  if (nl) memcpy(both, c->path.p, nl);
  both[nl] = '\0';
  if (nm) memcpy(both + nl + 1, c->msg.p, nm);
  both[nl + 1 + nm] = '\0';
  ck_item *it = &r->items[r->count];
  it->code = code;
  it->key[0] = key[0];
  it->key[1] = key[1];
  it->loc = both;
  it->msg = both + nl + 1;
  r->count++;
  return 0;
}

/* Appends to the path; returns the length to cut back to. */
static size_t push(ck *c, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static size_t push(ck *c, const char *fmt, ...) {
  flush_path(c);
  size_t mark = c->path.len;
  va_list ap;
  va_start(ap, fmt);
  str_vadd(&c->path, fmt, ap);
  va_end(ap);
  return mark;
}

/* Appends "node[3] 'name'" (or "node[3] (Op)" for an unnamed node) to out,
 * to name another node in a message. */
static void describe_node(ck_str *out, const onnxslim_node *node, size_t index) {
  const char *name = node ? onnxslim_node_name(node) : NULL;
  if (name && name[0]) {
    str_add(out, "node[%zu] '%s'", index, name);
  } else {
    const char *op = node ? onnxslim_node_op_type(node) : NULL;
    str_add(out, "node[%zu] (%s)", index, op ? op : "?");
  }
}

static const char *dtype_str(char *buf, size_t n, int32_t dt) {
  const char *s = onnxslim_dtype_name(dt);
  if (strcmp(s, "UNKNOWN") != 0) return s;
  snprintf(buf, n, "dtype(%" PRId32 ")", dt);
  return buf;
}

static const char *kind_str(int kind) {
  switch (kind) {
  case ONNXSLIM_TYPE_TENSOR: return "a tensor";
  case ONNXSLIM_TYPE_SEQUENCE: return "a sequence";
  case ONNXSLIM_TYPE_MAP: return "a map";
  case ONNXSLIM_TYPE_OPTIONAL: return "an optional";
  case ONNXSLIM_TYPE_SPARSE_TENSOR: return "a sparse tensor";
  default: return "of unknown kind";
  }
}

/* ---- opsets --------------------------------------------------------------- */

static int is_onnx_domain(const char *d) { return !d[0] || strcmp(d, "ai.onnx") == 0; }

/* Fills m with the domains of opset_import (of fn, or of the model when fn
 * is NULL). "" and "ai.onnx" are both entered when either is imported. */
static int load_opsets(ck *c, const onnxslim_model *model, const onnxslim_function *fn,
                       osl_map *m) {
  size_t n = fn ? onnxslim_function_opset_count(fn) : onnxslim_model_opset_count(model);
  for (size_t i = 0; i < n; i++) {
    const char *d = NULL;
    int64_t v = 0;
    int rc = fn ? onnxslim_function_opset(fn, i, &d, &v) : onnxslim_model_opset(model, i, &d, &v);
    if (rc) return failed(c);
    if (!d) d = "";
    /* the entry's num is the imported version (the schemas are looked up at it) */
    int32_t ver = v < 0 ? 0 : v > INT32_MAX ? INT32_MAX : (int32_t)v;
    if (is_onnx_domain(d)) {
      if (map_put(m, "", NULL, ver, NULL) < 0 || map_put(m, "ai.onnx", NULL, ver, NULL) < 0)
        return nomem(c);
    } else if (map_put(m, d, NULL, ver, NULL) < 0) {
      return nomem(c);
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
  if (!name) return failed(c);
  size_t n = strlen(want);
  int hex = n == 2 * SHA1_DIGEST_SIZE;
  for (size_t i = 0; i < n && hex; i++)
    hex = (want[i] >= '0' && want[i] <= '9') || (want[i] >= 'a' && want[i] <= 'f') ||
          (want[i] >= 'A' && want[i] <= 'F');
  if (!hex)
    return problem(c, ONNXSLIM_CHECK_CHECKSUM,
                   "tensor '%s': checksum '%.80s' is not a SHA-1 (40 hex digits)", name, want);
  const void *data;
  size_t size;
  int rc = onnxslim_tensor_data(t, &data, &size);
  if (rc == ONNXSLIM_ENOMEM) return failed(c);
  if (rc) return 0; /* no bytes to hash (tensor_size says why) */
  if (!c->chunk && !(c->chunk = malloc(CK_CHUNK))) return nomem(c);
  struct sha1_ctx sha;
  sha1_init(&sha);
  for (size_t off = 0; off < size;) {
    size_t k = size - off < CK_CHUNK ? size - off : CK_CHUNK;
    if (onnxslim_tensor_read(t, off, c->chunk, k)) return failed(c);
    sha1_update(&sha, k, c->chunk);
    off += k;
  }
  uint8_t d[SHA1_DIGEST_SIZE];
  char got[2 * SHA1_DIGEST_SIZE + 1];
  sha1_digest(&sha, sizeof d, d);
  for (size_t i = 0; i < sizeof d; i++) snprintf(got + 2 * i, 3, "%02x", d[i]);
  int same = 1;
  for (size_t i = 0; i < n && same; i++) {
    char w = want[i] >= 'A' && want[i] <= 'F' ? (char)(want[i] - 'A' + 'a') : want[i];
    same = w == got[i];
  }
  if (same) return 0;
  return problem(c, ONNXSLIM_CHECK_CHECKSUM,
                 "tensor '%s': the %zu bytes of external data '%s' have SHA-1 %s, its checksum "
                 "key says %s (the data file holds other bytes than were saved)",
                 name, size, loc ? loc : "?", got, want);
}

/* Checks that the tensor's stored data has the size its dims and type need
 * (and its checksum, when asked). The location of the tensor is the
 * current path. */
static int check_tensor(ck *c, const onnxslim_tensor *t) {
  if (!t) return 0;
  int crc = check_checksum(c, t);
  if (crc) return crc;
  /* skipped: the data is not looked at (a pending conversion is not run) */
  if (c->skip & (1u << ONNXSLIM_CHECK_TENSOR_SIZE)) return 0;
  int st = onnxslim_tensor_storage(t);
  if (st < 0) return failed(c);
  const char *name = onnxslim_tensor_name(t);
  if (!name) return failed(c);
  if (st != ONNXSLIM_STORAGE_EXTERNAL && onnxslim_tensor_dtype(t) == ONNXSLIM_DTYPE_STRING) {
    int64_t want = onnxslim_tensor_element_count(t);
    size_t have = onnxslim_tensor_string_count(t);
    if (want >= 0 && (uint64_t)want != (uint64_t)have)
      return problem(c, ONNXSLIM_CHECK_TENSOR_SIZE,
                     "STRING tensor '%s' stores %zu string(s), its dims need %" PRId64, name, have,
                     want);
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
    return problem(c, ONNXSLIM_CHECK_TENSOR_SIZE, "%s", onnxslim_error_last());
  }
  if (rc == ONNXSLIM_ENOMEM) return failed(c);
  /* EUNSUPPORTED (unknown or undefined data type), ELIMIT (larger than the
   * address space): the size cannot be checked here */
  return 0;
}

static int check_sparse(ck *c, const onnxslim_sparse_tensor *s) {
  if (!s) return 0;
  const onnxslim_tensor *v = onnxslim_sparse_tensor_values(s);
  if (v && check_tensor(c, v)) return c->rc;
  const onnxslim_tensor *ix = onnxslim_sparse_tensor_indices(s);
  if (ix) {
    size_t mark = push(c, " indices");
    int rc = check_tensor(c, ix);
    path_cut(c, mark);
    if (rc) return rc;
  }
  return 0;
}

/* ---- graphs and function bodies --------------------------------------------- */

/* A list of nodes: a graph's or a function's. */
typedef struct body {
  const onnxslim_graph *g;
  const onnxslim_function *fn;
} body;

static size_t body_count(const body *b) {
  return b->g ? onnxslim_graph_node_count(b->g) : onnxslim_function_node_count(b->fn);
}
static onnxslim_node *body_node(const body *b, size_t i) {
  return b->g ? onnxslim_graph_node(b->g, i) : onnxslim_function_node(b->fn, i);
}

static int check_graph(ck *c, const onnxslim_graph *g, const scope *outer, const osl_map *opsets);

/* Finds name in the scopes enclosing s (not in s itself). */
static const osl_map_entry *outer_find(const scope *s, const char *name, const scope **where) {
  for (const scope *o = s->parent; o; o = o->parent) {
    const osl_map_entry *e = map_find(&o->values, name);
    if (e) {
      if (where) *where = o;
      return e;
    }
  }
  return NULL;
}

/* Describes where an existing definition comes from, for messages. */
static void describe_def(ck_str *out, const body *b, const osl_map_entry *e) {
  if (def_is_input(e->num)) {
    str_add(out, "%s", b->g ? "a graph input" : "a function input");
  } else if (def_is_init(e->num)) {
    str_add(out, "%s", def_init_sparse(e->num) ? "a sparse initializer" : "an initializer");
  } else {
    str_add(out, "an output of ");
    describe_node(out, body_node(b, (size_t)e->num), (size_t)e->num);
  }
}

/* First pass over the nodes: enters every node output into s->values and
 * reports values defined twice. */
static int enter_outputs(ck *c, const body *b, scope *s) {
  size_t n = body_count(b);
  ck_str why = {0};
  int rc = 0;
  if (n > INT32_MAX) /* node indexes are kept in 32 bits (osl_map_entry.num) */
    return onnxslim__err(ONNXSLIM_ELIMIT, "onnxslim_check: a graph of %zu nodes (at most %d)", n,
                         INT32_MAX);
  for (size_t i = 0; i < n && !rc; i++) {
    const onnxslim_node *node = body_node(b, i);
    if (!node) {
      rc = failed(c);
      break;
    }
    size_t nout = onnxslim_node_output_count(node);
    for (size_t k = 0; k < nout && !rc; k++) {
      const char *out = onnxslim_node_output(node, k);
      if (!out) {
        rc = failed(c);
        break;
      }
      if (!out[0]) continue;
      osl_map_entry *e = NULL;
      int put = map_put(&s->values, out, NULL, (int32_t)i, &e);
      if (put < 0) {
        rc = nomem(c);
        break;
      }
      const scope *os = NULL;
      const osl_map_entry *oe = put ? outer_find(s, out, &os) : NULL;
      /* an outer value counts when it is visible at the holding node: a
       * graph input, an initializer or an output of an earlier node */
      if (oe && oe->num >= 0 && (size_t)oe->num >= os->holder) oe = NULL;
      if (put && !oe) continue;
      const char *name = onnxslim_node_name(node);
      if (!name) {
        rc = failed(c);
        break;
      }
      size_t mark = c->path.len;
      push_node(c, node, i, name);
      str_cut(&why, 0);
      if (oe) {
        str_add(&why, "a value of an enclosing graph");
      } else if (e->num == (int64_t)i) {
        str_add(&why, "an earlier output of this node");
      } else {
        describe_def(&why, b, e);
      }
      if (why.oom) {
        rc = nomem(c);
      } else {
        c->subj_what = "output";
        c->subj_name = out;
        rc = problem(c, ONNXSLIM_CHECK_DUPLICATE_OUTPUT, "output '%s' is already defined as %s",
                     out, why.p);
        c->subj_what = NULL;
      }
      path_cut(c, mark);
    }
  }
  free(why.p);
  return rc;
}

static int check_attr_tensors(ck *c, const onnxslim_attr *a, int type) {
  if (type == ONNXSLIM_ATTR_TENSOR) {
    const onnxslim_tensor *t = onnxslim_attr_tensor(a);
    return t ? check_tensor(c, t) : 0;
  }
  if (type == ONNXSLIM_ATTR_SPARSE_TENSOR) {
    const onnxslim_sparse_tensor *s = onnxslim_attr_sparse_tensor(a);
    return s ? check_sparse(c, s) : 0;
  }
  size_t n = onnxslim_attr_list_count(a);
  for (size_t k = 0; k < n; k++) {
    size_t mark = push(c, "[%zu]", k);
    int rc = 0;
    if (type == ONNXSLIM_ATTR_TENSORS) {
      const onnxslim_tensor *t = onnxslim_attr_tensors(a, k);
      rc = t ? check_tensor(c, t) : failed(c);
    } else {
      const onnxslim_sparse_tensor *s = onnxslim_attr_sparse_tensors(a, k);
      rc = s ? check_sparse(c, s) : failed(c);
    }
    path_cut(c, mark);
    if (rc) return rc;
  }
  return 0;
}

/* Tensor attributes and subgraphs of a node (location: the node). */
/* ONNXSLIM_CHECK_EXTERNAL_LOAD_INPUT: tensor t, value `name` of g, stored
 * in external data and read by a node at an input onnxruntime reads at
 * load (passes/load_inputs.c). */
static int check_load_input(ck *c, const onnxslim_graph *g, const onnxslim_tensor *t,
                            const char *name) {
  if ((c->skip & (1u << ONNXSLIM_CHECK_EXTERNAL_LOAD_INPUT)) || !g ||
      onnxslim_tensor_storage(t) != ONNXSLIM_STORAGE_EXTERNAL)
    return 0;
  size_t k = 0;
  const onnxslim_node *r = onnxslim__load_reader(c->model, g, name, &k);
  if (!r) return 0;
  const char *rn = onnxslim_node_name(r), *op = onnxslim_node_op_type(r);
  if (rn && rn[0])
    return problem(c, ONNXSLIM_CHECK_EXTERNAL_LOAD_INPUT,
                   "'%s' is in external data but node '%s' (%s) reads it as input %zu when "
                   "onnxruntime loads the model: onnxruntime refuses the model (\"Cannot parse "
                   "data from external tensors\"); a save with external data keeps it inline",
                   name, rn, op, k);
  return problem(c, ONNXSLIM_CHECK_EXTERNAL_LOAD_INPUT,
                 "'%s' is in external data but a %s node reads it as input %zu when onnxruntime "
                 "loads the model: onnxruntime refuses the model (\"Cannot parse data from "
                 "external tensors\"); a save with external data keeps it inline",
                 name, op, k);
}

static int check_attrs(ck *c, const onnxslim_node *node, scope *s, const osl_map *opsets) {
  size_t n = onnxslim_node_attr_count(node);
  for (size_t j = 0; j < n; j++) {
    const onnxslim_attr *a = onnxslim_node_attr(node, j);
    if (!a) return failed(c);
    int type = onnxslim_attr_type(a);
    if (type != ONNXSLIM_ATTR_TENSOR && type != ONNXSLIM_ATTR_TENSORS &&
        type != ONNXSLIM_ATTR_SPARSE_TENSOR && type != ONNXSLIM_ATTR_SPARSE_TENSORS &&
        type != ONNXSLIM_ATTR_GRAPH && type != ONNXSLIM_ATTR_GRAPHS)
      continue;
    const char *aname = onnxslim_attr_name(a);
    if (!aname) return failed(c);
    size_t mark = push(c, " attribute '%s'", aname);
    int rc = 0;
    if (type == ONNXSLIM_ATTR_GRAPH) {
      const onnxslim_graph *sg = onnxslim_attr_graph(a);
      /* a GRAPH attribute without a value refers to a function attribute */
      c->in_subgraph++;
      if (sg) rc = check_graph(c, sg, s, opsets);
      c->in_subgraph--;
    } else if (type == ONNXSLIM_ATTR_GRAPHS) {
      size_t m = onnxslim_attr_list_count(a);
      for (size_t k = 0; k < m && !rc; k++) {
        size_t mk = push(c, "[%zu]", k);
        const onnxslim_graph *sg = onnxslim_attr_graphs(a, k);
        c->in_subgraph++;
        rc = sg ? check_graph(c, sg, s, opsets) : failed(c);
        c->in_subgraph--;
        path_cut(c, mk);
      }
    } else {
      rc = check_attr_tensors(c, a, type);
      /* a Constant's value is the tensor of its output */
      if (!rc && type == ONNXSLIM_ATTR_TENSOR && strcmp(aname, "value") == 0 &&
          strcmp(onnxslim_node_op_type(node), "Constant") == 0 && !onnxslim_node_domain(node)[0] &&
          onnxslim_node_output_count(node) > 0 && onnxslim_node_output(node, 0)[0] &&
          onnxslim_attr_tensor(a))
        rc = check_load_input(c, onnxslim_node_graph(node), onnxslim_attr_tensor(a),
                              onnxslim_node_output(node, 0));
    }
    path_cut(c, mark);
    if (rc) return rc;
  }
  return 0;
}

/* The element type a Cast or Constant node gives its first output, or 0. */
static int32_t node_out_dtype(const ck *c, const onnxslim_node *node, const char **what) {
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
static void set_dtype(osl_map_entry *e, int32_t dt) {
  if (e && !e->value && dt > 0) e->value = (void *)(intptr_t)dt;
}

/* The formal parameter of value `k` of a list of n formals (the last one
 * takes every further value when variadic), or NULL. */
static const osl_op_formal *formal_at(const osl_op_formal *f, unsigned n, size_t k) {
  if (k < n) return &f[k];
  if (n && f[n - 1].option == OSL_OP_VARIADIC) return &f[n - 1];
  return NULL;
}

static const char *op_type_name(int t) { return OSL_OPS_STR(onnxslim__ops_type_name[t]); }

/* Appends the allowed types of a constraint, "tensor(float), tensor(double)". */
static void describe_allowed(ck_str *out, const osl_op_constraint *tc) {
  for (unsigned k = 0; k < tc->count; k++)
    str_add(out, "%s%s", k ? ", " : "", op_type_name(onnxslim__ops_typelist[tc->first + k]));
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
    str_add(out, "its attribute");
  } else if (by >= 0) {
    const char *n = onnxslim_node_input(node, (size_t)by);
    str_add(out, "input %d '%s'", by, n ? n : "?");
  } else {
    const char *n = onnxslim_node_output(node, (size_t)(-1 - by));
    str_add(out, "output %d '%s'", -1 - by, n ? n : "?");
  }
}

/* Checks element type dt of value `which` (input k / output -1-k /
 * BY_ATTR) against formal f of schema sc and binds its constraint.
 * The location is the current path (the value's). */
static int bind_problem(ck *c, const onnxslim_node *node, int which, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/* A type_constraint problem located at value `which` of node (input k,
 * output -1-k, BY_ATTR: the attribute of Cast or Constant). */
static int bind_problem(ck *c, const onnxslim_node *node, int which, const char *fmt, ...) {
  flush_path(c);
  size_t mark = c->path.len;
  if (which == BY_ATTR) {
    const char *op = onnxslim_node_op_type(node);
    str_add(&c->path, " attribute '%s'", op && strcmp(op, "Cast") == 0 ? "to" : "value");
  } else if (which >= 0) {
    str_add(&c->path, " input[%d] '%s'", which, onnxslim_node_input(node, (size_t)which));
  } else {
    str_add(&c->path, " output[%d] '%s'", -1 - which,
            onnxslim_node_output(node, (size_t)(-1 - which)));
  }
  ck_str m = {0};
  va_list ap;
  va_start(ap, fmt);
  str_vadd(&m, fmt, ap);
  va_end(ap);
  int rc = m.oom ? nomem(c) : problem(c, ONNXSLIM_CHECK_TYPE_CONSTRAINT, "%s", m.p);
  free(m.p);
  path_cut(c, mark);
  return rc;
}

static int bind_type(ck *c, const onnxslim_node *node, const osl_op_schema *sc, const char *op,
                     int64_t opset, const osl_op_formal *f, int32_t dt, int which, binding *bd) {
  char b1[32], b2[32];
  const char *fname = OSL_OPS_STR(f->name);
  if (f->constraint == OSL_OP_NONE) {
    int want = onnxslim__ops_type_dtype[f->type];
    if (want && want != dt)
      return bind_problem(c, node, which,
                          "'%s' of %s is %s, the schema (opset %" PRId64 ") wants %s", fname, op,
                          dtype_str(b1, sizeof b1, dt), opset, op_type_name(f->type));
    return 0;
  }
  if (f->constraint >= sc->n_tc) return 0;
  const osl_op_constraint *tc = &osl_op_constraints(sc)[f->constraint];
  const char *tname = OSL_OPS_STR(tc->name);
  if (!tc->dtype_mask) return 0; /* a constraint on sequences, maps, optionals: not followed */
  if (dt <= 0 || dt >= 32 || !(tc->dtype_mask & (1u << dt))) {
    ck_str al = {0};
    describe_allowed(&al, tc);
    int rc = al.oom ? nomem(c)
                    : bind_problem(c, node, which,
                                   "'%s' of %s is %s, which %s does not allow at opset %" PRId64
                                   " (%s-%d allows %s)",
                                   fname, op, dtype_str(b1, sizeof b1, dt), tname, opset, op,
                                   (int)sc->since, al.p);
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
  int rc = by.oom ? nomem(c)
                  : bind_problem(c, node, which, "'%s' of %s is %s, but %s is %s (from %s)", fname,
                                 op, dtype_str(b1, sizeof b1, dt), tname,
                                 dtype_str(b2, sizeof b2, bd->dt[t]), by.p);
  free(by.p);
  return rc;
}

/* Notes (once per domain) that schemas are not checked at this opset. */
static void note_newer(ck *c, int d, const char *dom, int64_t opset, unsigned *noted) {
  if (*noted & (1u << d)) return;
  *noted |= 1u << d;
  str_add(&c->note,
          "%sschemas not checked for domain '%s' at opset %" PRId64
          ": the tables know opsets up to %d (onnx %s)",
          c->note.len ? "\n" : "", dom[0] ? dom : "ai.onnx", opset,
          onnxslim__opschema_domain_max(d), onnxslim__ops_onnx_version);
}

/* Appends the key of function (dom, name) to s: "domain\x1fname". */
static void fn_key(ck_str *s, const char *dom, const char *name) {
  str_add(s, "%s\x1f%s", is_onnx_domain(dom) ? "" : dom, name);
}

/* Enters the model's functions into c->fns (once): a lookup per node, not
 * a scan of every function (50k nodes and functions took 583 s). */
static int build_fns(ck *c) {
  c->fns_built = 1;
  size_t nf = onnxslim_model_function_count(c->model);
  if (!nf) return 0;
  ck_str keys = {0};
  size_t *at = malloc(nf * sizeof *at);
  if (!at) return nomem(c);
  for (size_t i = 0; i < nf; i++) {
    const onnxslim_function *fn = onnxslim_model_function(c->model, i);
    const char *n = fn ? onnxslim_function_name(fn) : NULL;
    const char *d = fn ? onnxslim_function_domain(fn) : NULL;
    at[i] = SIZE_MAX;
    if (!n || !d) continue;
    at[i] = keys.len;
    fn_key(&keys, d, n);
    str_add(&keys, "%c", 0); /* keys are NUL-separated in one block */
  }
  int rc = keys.oom ? nomem(c) : 0;
  if (!rc) rc = charge(c, (int64_t)(block_cost(keys.cap) + 2 * nf * sizeof(osl_map_entry)));
  if (!rc && onnxslim__map_reserve(NULL, &c->fns, nf)) rc = nomem(c);
  for (size_t i = 0; i < nf && !rc; i++)
    if (at[i] != SIZE_MAX && map_put(&c->fns, keys.p + at[i], NULL, 0, NULL) < 0) rc = nomem(c);
  free(at);
  c->fnkeys = keys.p;
  return rc;
}

/* Is op_type a function of the model in domain dom? (-1: out of memory) */
static int is_model_function(ck *c, const char *dom, const char *op) {
  if (!c->fns_built && build_fns(c)) return -1;
  if (!c->fns.len) return 0;
  str_cut(&c->key, 0);
  fn_key(&c->key, dom, op);
  if (c->key.oom) return -1;
  return map_find(&c->fns, c->key.p) != NULL;
}

/* Checks node i against its schema (location: the node). typed: follow
 * element types (graphs, not function bodies). */
static int check_schema(ck *c, const onnxslim_node *node, scope *s, const osl_map *opsets,
                        int typed) {
  const char *op = onnxslim_node_op_type(node), *dom = onnxslim_node_domain(node);
  if (!op || !dom) return failed(c);
  int d = onnxslim__opschema_domain(dom);
  if (d < 0 || !opsets) return 0;
  const osl_map_entry *oe = map_find(opsets, dom);
  if (!oe) return 0; /* reported as an opset problem */
  int64_t opset = oe->num;
  if (opset > onnxslim__opschema_domain_max(d)) {
    note_newer(c, d, dom, opset, &c->noted);
    return c->note.oom ? nomem(c) : 0;
  }
  int exists = 0, first = 0;
  const osl_op_schema *sc = onnxslim__opschema_find(d, op, opset, &exists, &first);
  const char *dname = dom[0] ? dom : "ai.onnx";
  if (!sc || sc->deprecated) {
    int isfn = is_model_function(c, dom, op);
    if (isfn) return isfn < 0 ? (c->rc ? c->rc : nomem(c)) : 0;
    if (sc)
      return problem(c, ONNXSLIM_CHECK_UNKNOWN_OP,
                     "op '%s' is deprecated at opset %" PRId64 " of domain '%s' (since %d)", op,
                     opset, dname, (int)sc->since);
    if (exists)
      return problem(
          c, ONNXSLIM_CHECK_UNKNOWN_OP,
          "op '%s' exists from opset %d of domain '%s'; the model imports opset %" PRId64, op,
          first, dname, opset);
    return problem(c, ONNXSLIM_CHECK_UNKNOWN_OP, "domain '%s' has no op '%s'", dname, op);
  }
  int rc = 0;
  /* arity */
  size_t nin = onnxslim_node_input_count(node), nout = onnxslim_node_output_count(node);
  if (nin < sc->min_in || (sc->max_in != OSL_OP_UNBOUNDED && nin > sc->max_in)) {
    if (sc->max_in == OSL_OP_UNBOUNDED)
      rc = problem(c, ONNXSLIM_CHECK_ARITY, "%s-%d takes at least %d inputs, the node has %zu", op,
                   (int)sc->since, (int)sc->min_in, nin);
    else
      rc = problem(c, ONNXSLIM_CHECK_ARITY, "%s-%d takes %d to %d inputs, the node has %zu", op,
                   (int)sc->since, (int)sc->min_in, (int)sc->max_in, nin);
  }
  if (!rc && (nout < sc->min_out || (sc->max_out != OSL_OP_UNBOUNDED && nout > sc->max_out))) {
    if (sc->max_out == OSL_OP_UNBOUNDED)
      rc = problem(c, ONNXSLIM_CHECK_ARITY, "%s-%d has at least %d outputs, the node has %zu", op,
                   (int)sc->since, (int)sc->min_out, nout);
    else
      rc = problem(c, ONNXSLIM_CHECK_ARITY, "%s-%d has %d to %d outputs, the node has %zu", op,
                   (int)sc->since, (int)sc->min_out, (int)sc->max_out, nout);
  }
  const osl_op_formal *fin = osl_op_inputs(sc), *fout = osl_op_outputs(sc);
  for (size_t k = 0; k < nin && k < sc->n_in && !rc; k++) {
    const char *in = onnxslim_node_input(node, k);
    if (in && !in[0] && fin[k].option == OSL_OP_SINGLE) {
      size_t mark = push(c, " input[%zu]", k);
      rc = problem(c, ONNXSLIM_CHECK_ARITY, "input %zu ('%s' of %s) is required but empty", k,
                   OSL_OPS_STR(fin[k].name), op);
      path_cut(c, mark);
    }
  }
  /* attributes */
  size_t na = onnxslim_node_attr_count(node);
  for (size_t j = 0; j < na && !rc; j++) {
    const onnxslim_attr *a = onnxslim_node_attr(node, j);
    const char *an = a ? onnxslim_attr_name(a) : NULL;
    if (!an) return failed(c);
    const osl_op_attr *sa = onnxslim__opschema_attr(sc, an);
    size_t mark = push(c, " attribute '%s'", an);
    int at = onnxslim_attr_type(a);
    if (!sa)
      rc = problem(c, ONNXSLIM_CHECK_ATTR_UNKNOWN, "%s-%d has no attribute '%s'", op,
                   (int)sc->since, an);
    else if (at != sa->type)
      rc = problem(c, ONNXSLIM_CHECK_ATTR_TYPE, "attribute '%s' of %s is %s, the schema says %s",
                   an, op, attr_type_name(at), attr_type_name(sa->type));
    path_cut(c, mark);
  }
  const osl_op_attr *sat = osl_op_attrs(sc);
  for (unsigned j = 0; j < sc->n_attr && !rc; j++) {
    if (!sat[j].required) continue;
    const char *an = OSL_OPS_STR(sat[j].name);
    if (!onnxslim_node_find_attr(node, an))
      rc = problem(c, ONNXSLIM_CHECK_ATTR_MISSING,
                   "%s-%d requires attribute '%s' (%s), the node has none", op, (int)sc->since, an,
                   attr_type_name(sat[j].type));
  }
  if (rc || !typed) return rc;

  /* types: bind the constraints from the known input, attribute and output types */
  binding bd;
  memset(&bd, 0, sizeof bd);
  for (size_t k = 0; k < nin && !rc; k++) {
    const char *in = onnxslim_node_input(node, k);
    const osl_op_formal *f = formal_at(fin, sc->n_in, k);
    int32_t dt = in && in[0] && f ? dtype_of(s, in) : 0;
    if (!dt) continue;
    rc = bind_type(c, node, sc, op, opset, f, dt, (int)k, &bd);
  }
  const char *what = NULL;
  int32_t adt = nout > 0 ? node_out_dtype(c, node, &what) : 0;
  if (adt && !rc && sc->n_out > 0) {
    rc = bind_type(c, node, sc, op, opset, &fout[0], adt, BY_ATTR, &bd);
  }
  for (size_t k = 0; k < nout && !rc; k++) {
    const char *out = onnxslim_node_output(node, k);
    const osl_op_formal *f = formal_at(fout, sc->n_out, k);
    if (!out || !out[0] || !f) continue;
    /* Cast's and Constant's recorded output type: the "type" check */
    osl_map_entry *ve = map_find(&s->values, out);
    if (k == 0 && adt) {
      set_dtype(ve, adt);
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
    set_dtype(ve, dt);
  }
  return rc;
}

/* Second pass: inputs, opsets, attributes and types of every node. */
static int check_nodes(ck *c, const body *b, scope *s, const osl_map *opsets,
                       const osl_map *types) {
  size_t n = body_count(b);
  ck_str why = {0};
  int rc = 0;
  for (size_t i = 0; i < n && !rc; i++) {
    if ((i & 4095) == 4095 && (rc = charge(c, 0)) != 0) break;
    const onnxslim_node *node = body_node(b, i);
    const char *name = node ? onnxslim_node_name(node) : NULL;
    const char *dom = node ? onnxslim_node_domain(node) : NULL;
    if (!name || !dom) {
      rc = failed(c);
      break;
    }
    size_t mark = c->path.len;
    c->pend = node;
    c->pend_index = i;
    c->pend_name = name;

    if (opsets && !map_find(opsets, dom)) {
      const char *op = onnxslim_node_op_type(node);
      rc = problem(c, ONNXSLIM_CHECK_OPSET, "domain '%s' of op '%s' has no opset_import%s",
                   dom[0] ? dom : "ai.onnx", op ? op : "?", b->g ? "" : " in the function");
    }

    size_t nin = onnxslim_node_input_count(node);
    for (size_t k = 0; k < nin && !rc; k++) {
      const char *in = onnxslim_node_input(node, k);
      if (!in) {
        rc = failed(c);
        break;
      }
      if (!in[0]) continue; /* omitted optional input */
      const osl_map_entry *e = map_find(&s->values, in);
      if (e && e->num < (int64_t)i) continue;
      if (e) {
        /* keyed by the input, not by the producer's index or name */
        c->subj_what = "input";
        c->subj_name = in;
        if (e->num == (int64_t)i) {
          rc = problem(c, ONNXSLIM_CHECK_ORDER, "input '%s' is an output of this same node", in);
          c->subj_what = NULL;
          continue;
        }
        str_cut(&why, 0);
        describe_node(&why, body_node(b, (size_t)e->num), (size_t)e->num);
        if (why.oom) {
          rc = nomem(c);
          break;
        }
        rc = problem(c, ONNXSLIM_CHECK_ORDER, "input '%s' is produced later, by %s", in, why.p);
        c->subj_what = NULL;
        continue;
      }
      if (outer_find(s, in, NULL)) continue;
      rc = problem(c, ONNXSLIM_CHECK_UNDEFINED_INPUT,
                   "input '%s' is not defined: no %s or node output has this name%s", in,
                   b->g ? "graph input, initializer" : "function input",
                   s->parent ? " here or in an enclosing graph" : "");
    }

    if (!rc && types) {
      const char *what = NULL;
      int32_t dt = node_out_dtype(c, node, &what);
      const char *out =
          dt && onnxslim_node_output_count(node) > 0 ? onnxslim_node_output(node, 0) : NULL;
      const osl_map_entry *e = out && out[0] ? map_find(types, out) : NULL;
      if (e) {
        const onnxslim_type *ty = e->value;
        int kind = onnxslim_type_kind(ty);
        int32_t et = e->num; /* the element type recorded (or assumed) */
        char b1[32], b2[32];
        if (kind == ONNXSLIM_TYPE_TENSOR && et && et != dt)
          rc = problem(c, ONNXSLIM_CHECK_TYPE, "%s %s, but its output '%s' is recorded as %s", what,
                       dtype_str(b1, sizeof b1, dt), out, dtype_str(b2, sizeof b2, et));
      }
    }

    if (!rc) rc = check_schema(c, node, s, opsets, types != NULL);

    if (!rc) {
      s->holder = i;
      rc = check_attrs(c, node, s, opsets);
    }
    c->pend = NULL;
    path_cut(c, mark);
  }
  s->holder = n;
  free(why.p);
  return rc;
}

/* Records the type of graph input/output/value_info entry `index` in
 * `types` and reports conflicts with earlier entries and with the
 * initializers of g (found in `values`, coded by def_init()). */
static int check_value_info(ck *c, const onnxslim_graph *g, const onnxslim_value_info *vi,
                            const char *what, size_t index, osl_map *types, const osl_map *values) {
  const char *name = onnxslim_value_info_name(vi);
  if (!name) return failed(c);
  if (!name[0]) {
    size_t mark = push(c, " %s[%zu]", what, index);
    int rc = problem(c, ONNXSLIM_CHECK_EMPTY_NAME, "graph %s without a name", what);
    path_cut(c, mark);
    return rc;
  }
  const onnxslim_type *ty = onnxslim_value_info_type(vi);
  int kind = ty ? onnxslim_type_kind(ty) : ONNXSLIM_TYPE_UNKNOWN;
  int32_t et = ty ? info_elem_type(c, vi, ty) : 0;
  if (!c->in_subgraph && strcmp(what, "value_info") != 0 &&
      (kind == ONNXSLIM_TYPE_UNKNOWN || (kind == ONNXSLIM_TYPE_TENSOR && et <= 0))) {
    size_t mark = push(c, " %s '%s'", what, name);
    int rc =
        problem(c, ONNXSLIM_CHECK_UNTYPED_IO,
                kind == ONNXSLIM_TYPE_UNKNOWN ? "graph %s '%s' has no type"
                                              : "graph %s '%s' is a tensor without element type",
                what, name);
    path_cut(c, mark);
    if (rc) return rc;
  }
  if (!ty) return 0; /* no type recorded */
  int tensorish = kind == ONNXSLIM_TYPE_TENSOR || kind == ONNXSLIM_TYPE_SPARSE_TENSOR;
  char b1[32], b2[32];
  size_t mark = push(c, " %s '%s'", what, name);
  int rc = 0;
  const osl_map_entry *ini = map_find(values, name);
  if (ini && def_is_init(ini->num) && kind != ONNXSLIM_TYPE_UNKNOWN) {
    size_t ix = def_init_index(ini->num);
    int sparse = def_init_sparse(ini->num);
    const onnxslim_sparse_tensor *sp = sparse ? onnxslim_graph_sparse_initializer(g, ix) : NULL;
    const onnxslim_tensor *it = sparse ? (sp ? onnxslim_sparse_tensor_values(sp) : NULL)
                                       : onnxslim_graph_initializer(g, ix);
    if (!it) {
      path_cut(c, mark);
      return failed(c);
    }
    int32_t idt = tensor_dtype(c, it);
    const char *noun = sparse ? "sparse initializer" : "initializer";
    if (!tensorish)
      rc = problem(c, ONNXSLIM_CHECK_TYPE, "'%s' is %s here but %s '%s' is a tensor", name,
                   kind_str(kind), noun, name);
    else if (et && idt && et != idt)
      rc = problem(c, ONNXSLIM_CHECK_TYPE,
                   "'%s' has element type %s here but %s '%s' has data type %s", name,
                   dtype_str(b1, sizeof b1, et), noun, name, dtype_str(b2, sizeof b2, idt));
  }
  osl_map_entry *e = NULL;
  int put = rc ? 1 : map_put(types, name, ty, et, &e);
  if (put < 0) rc = nomem(c);
  if (put == 0) {
    const onnxslim_type *prev = e->value;
    int pkind = onnxslim_type_kind(prev);
    int32_t pet = e->num;
    int ptensorish = pkind == ONNXSLIM_TYPE_TENSOR || pkind == ONNXSLIM_TYPE_SPARSE_TENSOR;
    if (kind != ONNXSLIM_TYPE_UNKNOWN && pkind != ONNXSLIM_TYPE_UNKNOWN && kind != pkind)
      rc = problem(c, ONNXSLIM_CHECK_TYPE, "'%s' is %s here but %s in an earlier entry", name,
                   kind_str(kind), kind_str(pkind));
    else if (tensorish && ptensorish && et && pet && et != pet)
      rc = problem(c, ONNXSLIM_CHECK_TYPE,
                   "'%s' has element type %s here but %s in an earlier entry", name,
                   dtype_str(b1, sizeof b1, et), dtype_str(b2, sizeof b2, pet));
  }
  path_cut(c, mark);
  return rc;
}

static int check_graph(ck *c, const onnxslim_graph *g, const scope *outer, const osl_map *opsets) {
  const char *gname = onnxslim_graph_name(g);
  if (!gname) return failed(c);
  /* the main graph starts the path; subgraphs are named by their attribute */
  size_t gmark = outer ? c->path.len : push(c, "graph '%s'", gname);
  scope s = {outer, {0}, 0};
  osl_map types = {0};
  body b = {g, NULL};
  int rc = 0;

  /* maps sized once from the counts: no rehash however large the graph */
  size_t nvals = onnxslim_graph_input_count(g) + onnxslim_graph_initializer_count(g) +
                 onnxslim_graph_sparse_initializer_count(g);
  for (size_t i = 0, nn = onnxslim_graph_node_count(g); i < nn && !rc; i++) {
    const onnxslim_node *node = onnxslim_graph_node(g, i);
    nvals += node ? onnxslim_node_output_count(node) : 0;
    /* the handles grow the model's arena as they are asked for */
    if ((i & 4095) == 4095) rc = charge(c, 0);
  }
  size_t ntypes = onnxslim_graph_input_count(g) + onnxslim_graph_output_count(g) +
                  onnxslim_graph_value_info_count(g);
  if (onnxslim_graph_initializer_count(g) > DEF_INIT_MAX ||
      onnxslim_graph_sparse_initializer_count(g) > DEF_INIT_MAX) {
    rc = onnxslim__err(ONNXSLIM_ELIMIT, "onnxslim_check: a graph of more than %zu initializers",
                       DEF_INIT_MAX);
    if (!c->rc) c->rc = rc;
  } else if (onnxslim__map_reserve(NULL, &s.values, nvals) ||
             onnxslim__map_reserve(NULL, &types, ntypes)) {
    rc = nomem(c);
  }
  int64_t maps = (int64_t)((s.values.cap + types.cap) * sizeof(osl_map_entry));
  if (!rc) rc = charge(c, maps);

  /* graph inputs */
  size_t n = onnxslim_graph_input_count(g);
  for (size_t i = 0; i < n && !rc; i++) {
    const onnxslim_value_info *vi = onnxslim_graph_input(g, i);
    const char *name = vi ? onnxslim_value_info_name(vi) : NULL;
    if (!name) {
      rc = failed(c);
      break;
    }
    if (!name[0]) continue; /* reported by check_value_info */
    int put = map_put(&s.values, name, NULL, DEF_INPUT, NULL);
    if (put < 0) rc = nomem(c);
    if (put == 0) {
      size_t mark = push(c, " input '%s'", name);
      rc = problem(c, ONNXSLIM_CHECK_DUPLICATE_OUTPUT, "graph input '%s' is listed twice", name);
      path_cut(c, mark);
    }
  }

  /* initializers, dense and sparse */
  n = onnxslim_graph_initializer_count(g);
  for (size_t i = 0; i < n && !rc; i++) {
    const onnxslim_tensor *t = onnxslim_graph_initializer(g, i);
    const char *name = t ? onnxslim_tensor_name(t) : NULL;
    if (!name) {
      rc = failed(c);
      break;
    }
    size_t mark = pend_item(c, "initializer", name, i);
    if (!name[0]) {
      rc = problem(c, ONNXSLIM_CHECK_EMPTY_NAME, "initializer without a name");
    } else {
      osl_map_entry *e = NULL;
      int put = map_put(&s.values, name, NULL, def_init(i, 0, 0), &e);
      if (put >= 0) set_dtype(e, tensor_dtype(c, t));
      if (put < 0) rc = nomem(c);
      /* a graph input that is also an initializer is a default value (the
       * first initializer of a name is the one its entry names) */
      if (put == 0 && e->num == DEF_INPUT) e->num = def_init(i, 0, 1);
      else if (put == 0 && !def_is_input(e->num))
        rc = problem(c, ONNXSLIM_CHECK_DUPLICATE_OUTPUT, "initializer '%s' is defined twice", name);
    }
    if (!rc) rc = check_tensor(c, t);
    if (!rc && name[0]) rc = check_load_input(c, g, t, name);
    c->pend_what = NULL;
    path_cut(c, mark);
  }
  n = onnxslim_graph_sparse_initializer_count(g);
  for (size_t i = 0; i < n && !rc; i++) {
    const onnxslim_sparse_tensor *sp = onnxslim_graph_sparse_initializer(g, i);
    if (!sp) {
      rc = failed(c);
      break;
    }
    const onnxslim_tensor *vals = onnxslim_sparse_tensor_values(sp);
    const char *name = vals ? onnxslim_tensor_name(vals) : "";
    if (!name) {
      rc = failed(c);
      break;
    }
    size_t mark = pend_item(c, "sparse_initializer", name, i);
    if (!name[0]) {
      rc = problem(c, ONNXSLIM_CHECK_EMPTY_NAME, "sparse initializer without a name");
    } else {
      osl_map_entry *e = NULL;
      int put = map_put(&s.values, name, NULL, def_init(i, 1, 0), &e);
      if (put < 0) rc = nomem(c);
      if (put == 0 && e->num == DEF_INPUT) e->num = def_init(i, 1, 1);
      else if (put == 0 && !def_is_input(e->num))
        rc = problem(c, ONNXSLIM_CHECK_DUPLICATE_OUTPUT, "sparse initializer '%s' is defined twice",
                     name);
    }
    if (!rc) rc = check_sparse(c, sp);
    c->pend_what = NULL;
    path_cut(c, mark);
  }

  /* node outputs */
  if (!rc) rc = enter_outputs(c, &b, &s);

  /* recorded types: inputs, outputs, value_info */
  static const char *const kinds[] = {"input", "output", "value_info"};
  for (int k = 0; k < 3 && !rc; k++) {
    n = k == 0   ? onnxslim_graph_input_count(g)
        : k == 1 ? onnxslim_graph_output_count(g)
                 : onnxslim_graph_value_info_count(g);
    for (size_t i = 0; i < n && !rc; i++) {
      const onnxslim_value_info *vi = k == 0   ? onnxslim_graph_input(g, i)
                                      : k == 1 ? onnxslim_graph_output(g, i)
                                               : onnxslim_graph_value_info(g, i);
      if (!vi) {
        rc = failed(c);
        break;
      }
      rc = check_value_info(c, g, vi, kinds[k], i, &types, &s.values);
      /* the element types known before the nodes are followed */
      const char *vn = rc ? NULL : onnxslim_value_info_name(vi);
      const onnxslim_type *ty = vn && vn[0] ? onnxslim_value_info_type(vi) : NULL;
      if (ty && onnxslim_type_kind(ty) == ONNXSLIM_TYPE_TENSOR)
        set_dtype(map_find(&s.values, vn), info_elem_type(c, vi, ty));
    }
  }

  /* nodes */
  if (!rc) rc = check_nodes(c, &b, &s, opsets, &types);

  /* graph outputs */
  n = onnxslim_graph_output_count(g);
  for (size_t i = 0; i < n && !rc; i++) {
    const onnxslim_value_info *vi = onnxslim_graph_output(g, i);
    const char *name = vi ? onnxslim_value_info_name(vi) : NULL;
    if (!name) {
      rc = failed(c);
      break;
    }
    if (!name[0] || map_find(&s.values, name) || outer_find(&s, name, NULL)) continue;
    size_t mark = push(c, " output '%s'", name);
    rc = problem(c, ONNXSLIM_CHECK_OUTPUT_NOT_PRODUCED,
                 "graph output '%s' is produced by no node and is not an input or initializer%s",
                 name, outer ? " here or in an enclosing graph" : "");
    path_cut(c, mark);
  }

  onnxslim__map_free(&s.values);
  onnxslim__map_free(&types);
  charge(c, -maps);
  path_cut(c, gmark);
  return rc;
}

static int check_function(ck *c, const onnxslim_model *model, const onnxslim_function *fn,
                          size_t index, const osl_map *model_opsets) {
  const char *name = onnxslim_function_name(fn), *dom = onnxslim_function_domain(fn);
  if (!name || !dom) return failed(c);
  size_t gmark = !name[0] ? push(c, "function[%zu]", index)
                 : dom[0] ? push(c, "function '%s' (domain '%s')", name, dom)
                          : push(c, "function '%s'", name);
  scope s = {NULL, {0}, 0};
  osl_map own = {0};
  const osl_map *opsets = model_opsets;
  body b = {NULL, fn};
  int rc = 0;

  /* a function without opset_import of its own uses the model's */
  if (onnxslim_function_opset_count(fn) > 0) {
    rc = load_opsets(c, model, fn, &own);
    opsets = &own;
  }

  size_t n = onnxslim_function_input_count(fn);
  for (size_t i = 0; i < n && !rc; i++) {
    const char *in = onnxslim_function_input(fn, i);
    if (!in) {
      rc = failed(c);
      break;
    }
    if (!in[0]) {
      size_t mark = push(c, " input[%zu]", i);
      rc = problem(c, ONNXSLIM_CHECK_EMPTY_NAME, "function input without a name");
      path_cut(c, mark);
      continue;
    }
    int put = map_put(&s.values, in, NULL, DEF_INPUT, NULL);
    if (put < 0) rc = nomem(c);
    if (put == 0) {
      size_t mark = push(c, " input '%s'", in);
      rc = problem(c, ONNXSLIM_CHECK_DUPLICATE_OUTPUT, "function input '%s' is listed twice", in);
      path_cut(c, mark);
    }
  }
  if (!rc) rc = enter_outputs(c, &b, &s);
  if (!rc) rc = check_nodes(c, &b, &s, opsets, NULL);
  n = onnxslim_function_output_count(fn);
  for (size_t i = 0; i < n && !rc; i++) {
    const char *out = onnxslim_function_output(fn, i);
    if (!out) {
      rc = failed(c);
      break;
    }
    size_t mark = out[0] ? push(c, " output '%s'", out) : push(c, " output[%zu]", i);
    if (!out[0]) rc = problem(c, ONNXSLIM_CHECK_EMPTY_NAME, "function output without a name");
    else if (!map_find(&s.values, out))
      rc = problem(c, ONNXSLIM_CHECK_OUTPUT_NOT_PRODUCED,
                   "function output '%s' is produced by no node and is not an input", out);
    path_cut(c, mark);
  }
  onnxslim__map_free(&s.values);
  onnxslim__map_free(&own);
  path_cut(c, gmark);
  return rc;
}

static int run_check(onnxslim_check_report **out, const onnxslim_model *model, unsigned skip,
                     unsigned flags, const osl_retype *retype,
                     const onnxslim_check_report *baseline);

int onnxslim_check(onnxslim_check_report **out, const onnxslim_model *model, unsigned int flags) {
  if (out) *out = NULL;
  if (!model || !out)
    return onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_check: NULL %s", model ? "out" : "model");
  if (flags)
    return onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_check: reserved flags 0x%x set", flags);
  return run_check(out, model, 0, 0, NULL, NULL);
}

int onnxslim_check_with(onnxslim_check_report **out, const onnxslim_model *model,
                        const onnxslim_check_options *opts) {
  if (out) *out = NULL;
  if (!model || !out)
    return onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_check_with: NULL %s", model ? "out" : "model");
  unsigned skip = 0, flags = 0;
  const onnxslim_check_report *baseline = NULL;
  if (opts) {
    if (!check_options_size(opts->version))
      return onnxslim__err_options_version("onnxslim_check_with", "check options", opts->version,
                                           ONNXSLIM_CHECK_OPTIONS_VERSION);
    if (opts->flags & ~ONNXSLIM_CHECK_VERIFY_CHECKSUMS)
      return onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_check_with: reserved flags 0x%x set",
                           opts->flags & ~ONNXSLIM_CHECK_VERIFY_CHECKSUMS);
    flags = opts->flags;
    if (opts->n_skip && !opts->skip)
      return onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_check_with: skip is NULL, n_skip %zu",
                           opts->n_skip);
    for (size_t i = 0; i < opts->n_skip; i++) {
      int code = opts->skip[i];
      if (code < 1 || code > ONNXSLIM_CHECK_CODE_MAX)
        return onnxslim__err(ONNXSLIM_EINVAL,
                             "onnxslim_check_with: skip[%zu] = %d is no check code", i, code);
      skip |= 1u << code;
    }
    if (opts->version >= 2) baseline = opts->baseline;
  }
  return run_check(out, model, skip, flags, NULL, baseline);
}

/* ---- model-local functions: duplicates and recursion -------------------------- */

/* The overload of a FunctionProto (field 13) or NodeProto (field 8), IR
 * version 10: unknown to the bundled onnx.proto, read from the kept field;
 * "" when absent. */
static const char *overload_of(const void *handle, uint32_t number) {
  osl_field *f = onnxslim__msg_last((const osl_msg *)handle, number);
  if (!f || f->wt != OSL_WT_LEN) return "";
  return onnxslim__field_cstr(((const osl_msg *)handle)->model, f);
}
#define OSL_FUNCTION_OVERLOAD 13
#define OSL_NODE_OVERLOAD 8

/* The key of a function or of a call: domain ("" for ai.onnx), name and
 * overload, \x1f between them. */
static void def_key(ck_str *s, const char *dom, const char *name, const char *ov) {
  str_add(s, "%s\x1f%s\x1f%s", is_onnx_domain(dom) ? "" : dom, name, ov);
}

/* The call graph of the model's functions: the callees of function i are
 * to[from[i]] .. to[from[i + 1] - 1]. */
typedef struct fn_graph {
  osl_map idx; /* key -> index of its first definition (num) */
  ck_str key;  /* scratch */
  size_t *to;
  size_t n, cap;
  int oom;
} fn_graph;

static void add_calls_of_graph(fn_graph *fg, const onnxslim_graph *g, int depth);
/* Adds the function node n calls, if any, and those of its subgraphs. */
static void add_calls_of_node(fn_graph *fg, const onnxslim_node *n, int depth) {
  const char *op = onnxslim_node_op_type(n), *dom = onnxslim_node_domain(n);
  const char *ov = overload_of(n, OSL_NODE_OVERLOAD);
  if (op && dom && ov) {
    str_cut(&fg->key, 0);
    def_key(&fg->key, dom, op, ov);
    osl_map_entry *e = fg->key.oom ? NULL : map_find(&fg->idx, fg->key.p);
    if (fg->key.oom) fg->oom = 1;
    if (e) {
      if (fg->n == fg->cap) {
        size_t cap = fg->cap ? fg->cap * 2 : 64;
        size_t *to = realloc(fg->to, cap * sizeof *to);
        if (!to) {
          fg->oom = 1;
          return;
        }
        fg->to = to;
        fg->cap = cap;
      }
      fg->to[fg->n++] = (size_t)e->num;
    }
  }
  if (depth > 64) return; /* the loader bounds nesting too */
  for (size_t j = 0; j < onnxslim_node_subgraph_count(n); j++)
    add_calls_of_graph(fg, onnxslim_node_subgraph(n, j), depth + 1);
}
static void add_calls_of_graph(fn_graph *fg, const onnxslim_graph *g, int depth) {
  for (size_t i = 0; g && i < onnxslim_graph_node_count(g); i++)
    add_calls_of_node(fg, onnxslim_graph_node(g, i), depth);
}

static size_t push_function(ck *c, const onnxslim_function *fn, size_t index) {
  const char *name = onnxslim_function_name(fn), *dom = onnxslim_function_domain(fn);
  return !name[0] ? push(c, "function[%zu]", index)
         : dom[0] ? push(c, "function '%s' (domain '%s')", name, dom)
                  : push(c, "function '%s'", name);
}

/* ONNXSLIM_CHECK_FUNCTION: two functions with one (domain, name, overload)
 * key; a function whose body calls itself, directly or through other
 * functions (onnx's checker refuses both; a runtime that inlines functions
 * would never end). Linear in the number of functions and of the nodes of
 * their bodies: the keys go into a map, the cycles are the strongly
 * connected components of the call graph (Tarjan's algorithm, iterative). */
static int check_function_defs(ck *c, const onnxslim_model *model) {
  size_t nf = onnxslim_model_function_count(model);
  if (nf == 0 || (c->skip & (1u << ONNXSLIM_CHECK_FUNCTION))) return 0;
  int rc = 0;
  fn_graph fg = {0};
  ck_str keys = {0};
  /* one block: from (nf + 1), at (nf), then Tarjan's index, low, stack,
   * the DFS's frames (function, next edge) and the SCC ids */
  size_t *mem = malloc((nf + 1 + nf + 4 * nf + 2 * nf + nf) * sizeof *mem);
  unsigned char *on_stack = calloc(nf, 1);
  if (!mem || !on_stack) {
    rc = nomem(c);
    goto done;
  }
  size_t *from = mem, *at = from + nf + 1, *index = at + nf, *low = index + nf;
  size_t *stack = low + nf, *frame_fn = stack + nf, *frame_edge = frame_fn + nf;
  size_t *scc = frame_edge + nf;
  for (size_t i = 0; i < nf; i++) {
    const onnxslim_function *fn = onnxslim_model_function(model, i);
    if (!fn) {
      rc = failed(c);
      goto done;
    }
    at[i] = keys.len;
    def_key(&keys, onnxslim_function_domain(fn), onnxslim_function_name(fn),
            overload_of(fn, OSL_FUNCTION_OVERLOAD));
    str_add(&keys, "%c", 0); /* keys are NUL-separated in one block */
  }
  if (keys.oom) {
    rc = nomem(c);
    goto done;
  }
  rc = charge(c, (int64_t)(block_cost(keys.cap) + 2 * nf * sizeof(osl_map_entry) +
                           block_cost((10 * nf + 1) * sizeof *mem)));
  if (!rc && onnxslim__map_reserve(NULL, &fg.idx, nf)) rc = nomem(c);
  /* duplicates: a key already in the map */
  for (size_t j = 0; j < nf && !rc; j++) {
    osl_map_entry *e = NULL;
    int r = map_put(&fg.idx, keys.p + at[j], NULL, (int32_t)j, &e);
    if (r < 0) {
      rc = nomem(c);
      break;
    }
    if (r == 1) continue;
    const onnxslim_function *fj = onnxslim_model_function(model, j);
    size_t mark = push_function(c, fj, j);
    const char *ov = overload_of(fj, OSL_FUNCTION_OVERLOAD);
    rc = problem(c, ONNXSLIM_CHECK_FUNCTION,
                 "function '%s'%s%s%s is defined twice (also function[%zu])",
                 onnxslim_function_name(fj), ov[0] ? " (overload '" : "", ov, ov[0] ? "')" : "",
                 (size_t)e->num);
    str_cut(&c->path, mark);
  }
  if (rc) goto done;
  /* the call graph */
  for (size_t i = 0; i < nf && !fg.oom; i++) {
    const onnxslim_function *fn = onnxslim_model_function(model, i);
    from[i] = fg.n;
    for (size_t k = 0; k < onnxslim_function_node_count(fn); k++)
      add_calls_of_node(&fg, onnxslim_function_node(fn, k), 0);
  }
  from[nf] = fg.n;
  if (fg.oom) {
    rc = nomem(c);
    goto done;
  }
  rc = charge(c, (int64_t)block_cost(fg.cap * sizeof *fg.to));
  if (rc) goto done;
  /* Tarjan: index[v] 0 = not visited yet, else its visit order + 1 */
  size_t order = 0, sp = 0, nscc = 0;
  for (size_t i = 0; i < nf; i++) index[i] = 0;
  for (size_t root = 0; root < nf; root++) {
    if (index[root]) continue;
    size_t depth = 0;
    frame_fn[depth] = root;
    frame_edge[depth] = from[root];
    index[root] = low[root] = ++order;
    stack[sp++] = root;
    on_stack[root] = 1;
    while (1) {
      size_t v = frame_fn[depth];
      if (frame_edge[depth] < from[v + 1]) {
        size_t w = fg.to[frame_edge[depth]++];
        if (!index[w]) {
          index[w] = low[w] = ++order;
          stack[sp++] = w;
          on_stack[w] = 1;
          depth++;
          frame_fn[depth] = w;
          frame_edge[depth] = from[w];
        } else if (on_stack[w] && index[w] < low[v]) {
          low[v] = index[w];
        }
        continue;
      }
      if (low[v] == index[v]) { /* v is the root of a component */
        size_t w;
        do {
          w = stack[--sp];
          on_stack[w] = 0;
          scc[w] = nscc;
        } while (w != v);
        nscc++;
      }
      if (depth == 0) break;
      depth--;
      size_t u = frame_fn[depth];
      if (low[v] < low[u]) low[u] = low[v];
    }
  }
  /* a function is on a cycle when it calls itself, or its component has
   * another function: then it calls one of them directly */
  for (size_t i = 0; i < nf && !rc; i++) {
    size_t self = 0, via = SIZE_MAX, others = 0;
    for (size_t e = from[i]; e < from[i + 1]; e++) {
      size_t w = fg.to[e];
      if (w == i) self = 1;
      else if (scc[w] == scc[i]) {
        others = 1;
        if (via == SIZE_MAX) via = w;
      }
    }
    if (!self && !others) continue;
    const onnxslim_function *fn = onnxslim_model_function(model, i);
    size_t mark = push_function(c, fn, i);
    if (self)
      rc = problem(c, ONNXSLIM_CHECK_FUNCTION, "function '%s' calls itself",
                   onnxslim_function_name(fn));
    else
      rc = problem(c, ONNXSLIM_CHECK_FUNCTION, "function '%s' calls itself through function '%s'",
                   onnxslim_function_name(fn),
                   onnxslim_function_name(onnxslim_model_function(model, via)));
    str_cut(&c->path, mark);
  }
done:
  free(mem);
  free(on_stack);
  free(keys.p);
  free(fg.key.p);
  free(fg.to);
  onnxslim__map_free(&fg.idx);
  return rc;
}

static int run_check(onnxslim_check_report **out, const onnxslim_model *model, unsigned skip,
                     unsigned flags, const osl_retype *retype,
                     const onnxslim_check_report *baseline) {
  ck c = {0};
  ck_base base = {0};
  c.skip = skip;
  c.flags = flags;
  c.model = model;
  c.retype = retype;
  if (baseline) {
    int brc = base_build(&base, baseline, skip);
    if (!brc) brc = charge(&c, (int64_t)block_cost((base.mask + 1) * sizeof(ck_slot)));
    if (brc) {
      free(base.slots);
      onnxslim__mem_release(model, c.used);
      return brc;
    }
    c.base = &base;
  }
  c.rep = calloc(1, sizeof *c.rep);
  if (!c.rep) {
    free(base.slots);
    onnxslim__mem_release(model, c.used);
    return onnxslim__err_nomem("checking the model");
  }
  osl_map opsets = {0};
  int rc = load_opsets(&c, model, NULL, &opsets);
  /* IR versions before 3 had no opset_import: the default domain is implied */
  const osl_map *use_opsets =
      onnxslim_model_opset_count(model) == 0 && onnxslim_model_ir_version(model) < 3 ? NULL
                                                                                     : &opsets;
  if (!rc) {
    const onnxslim_graph *g = onnxslim_model_graph(model);
    if (g) rc = check_graph(&c, g, NULL, use_opsets);
    else if (onnxslim_error_last_code() != ONNXSLIM_ENOTFOUND) rc = failed(&c);
  }
  size_t nf = onnxslim_model_function_count(model);
  for (size_t i = 0; i < nf && !rc; i++) {
    const onnxslim_function *fn = onnxslim_model_function(model, i);
    rc = fn ? check_function(&c, model, fn, i, use_opsets) : failed(&c);
  }
  if (!rc) rc = check_function_defs(&c, model);
  onnxslim__map_free(&opsets);
  free(c.path.p);
  free(c.msg.p);
  free(c.chunk);
  free(c.key.p);
  free(c.segs);
  free(base.slots);
  onnxslim__map_free(&c.fns);
  free(c.fnkeys);
  onnxslim__mem_release(model, c.used); /* the report is the caller's now */
  if (!rc && c.note.oom) rc = nomem(&c);
  c.rep->note = c.note.p;
  if (rc) {
    onnxslim_check_report_free(c.rep);
    return c.rc ? c.rc : rc;
  }
  *out = c.rep;
  return 0;
}

/* ---- schema checks of edits (passes/passes.h) ------------------------------------ */

/* The version the model imports for a domain index of the tables, -1 when
 * none (0 for the default domain of IR versions before 3, which had no
 * opset_import: then nothing is checked either). */
static int64_t imported_opset(const onnxslim_model *m, int d) {
  size_t n = onnxslim_model_opset_count(m);
  for (size_t i = 0; i < n; i++) {
    const char *dom = NULL;
    int64_t v = 0;
    if (onnxslim_model_opset(m, i, &dom, &v) == 0 && onnxslim__opschema_domain(dom ? dom : "") == d)
      return v;
  }
  return -1;
}

/* The element type of a value of g known without inference: an
 * initializer's data type, else a tensor value info's element type; 0. */
static int32_t known_dtype(const onnxslim_graph *g, const char *name) {
  const onnxslim_tensor *t = onnxslim_graph_find_initializer(g, name);
  if (t) return onnxslim_tensor_dtype(t);
  const onnxslim_value_info *vi = onnxslim_graph_find_value_info(g, name);
  const onnxslim_type *ty = vi ? onnxslim_value_info_type(vi) : NULL;
  if (ty && onnxslim_type_kind(ty) == ONNXSLIM_TYPE_TENSOR) return onnxslim_type_dtype(ty);
  return 0;
}

int onnxslim__check_cast_edit(const onnxslim_model *m, int32_t from, int32_t to) {
  char b1[32];
  int64_t opset = imported_opset(m, 0);
  if (opset < 0 || opset > onnxslim__opschema_domain_max(0)) return 0; /* cannot tell */
  const osl_op_schema *sc = onnxslim__opschema_find(0, "Cast", opset, NULL, NULL);
  if (!sc)
    return onnxslim__err(ONNXSLIM_EMODEL, "a Cast is not valid at opset %" PRId64 " [unknown_op]",
                         opset);
  const osl_op_attr *a = onnxslim__opschema_attr(sc, "to");
  if (a && a->type != ONNXSLIM_ATTR_INT)
    return onnxslim__err(ONNXSLIM_EMODEL,
                         "attribute 'to' of Cast-%d (opset %" PRId64
                         ") is a STRING; a Cast with an integer 'to' needs opset 6 [attr_type]",
                         (int)sc->since, opset);
  const osl_op_formal *fin = osl_op_inputs(sc), *fout = osl_op_outputs(sc);
  const osl_op_constraint *tc = osl_op_constraints(sc);
  struct {
    int32_t dt;
    const osl_op_formal *f;
    const char *what;
  } v[2] = {{from, &fin[0], "input"}, {to, &fout[0], "'to'"}};
  for (int i = 0; i < 2; i++) {
    if (v[i].dt <= 0 || v[i].f->constraint >= sc->n_tc) continue;
    const osl_op_constraint *c = &tc[v[i].f->constraint];
    if (v[i].dt < 32 && (c->dtype_mask & (1u << v[i].dt))) continue;
    return onnxslim__err(
        ONNXSLIM_EMODEL,
        "Cast %s %s: %s of Cast-%d does not allow it at opset %" PRId64 " [type_constraint]",
        v[i].what, dtype_str(b1, sizeof b1, v[i].dt), OSL_OPS_STR(c->name), (int)sc->since, opset);
  }
  return 0;
}

int onnxslim__check_reader_edit(const onnxslim_graph *g, const onnxslim_node *node, size_t index,
                                int32_t dt) {
  char b1[32], b2[32];
  const onnxslim_model *m = onnxslim_graph_model(g);
  const char *op = onnxslim_node_op_type(node), *dom = onnxslim_node_domain(node);
  int d = m && op && dom ? onnxslim__opschema_domain(dom) : -1;
  if (d < 0 || dt <= 0) return 0;
  int64_t opset = imported_opset(m, d);
  if (opset < 0 || opset > onnxslim__opschema_domain_max(d)) return 0;
  const osl_op_schema *sc = onnxslim__opschema_find(d, op, opset, NULL, NULL);
  if (!sc) return 0; /* the node is wrong already: not this edit's doing */
  const osl_op_formal *fin = osl_op_inputs(sc), *f = formal_at(fin, sc->n_in, index);
  if (!f) return 0;
  const char *name = onnxslim_node_name(node);
  if (!name || !name[0]) name = op;
  if (f->constraint == OSL_OP_NONE) {
    int want = onnxslim__ops_type_dtype[f->type];
    if (want && want != dt)
      return onnxslim__err(
          ONNXSLIM_EMODEL,
          "node '%s' input %zu ('%s' of %s) would be %s, the schema (opset %" PRId64
          ") wants %s [type_constraint]",
          name, index, OSL_OPS_STR(f->name), op, dtype_str(b1, sizeof b1, dt), opset,
          op_type_name(f->type));
    return 0;
  }
  if (f->constraint >= sc->n_tc) return 0;
  const osl_op_constraint *c = &osl_op_constraints(sc)[f->constraint];
  if (!c->dtype_mask) return 0;
  if (dt >= 32 || !(c->dtype_mask & (1u << dt)))
    return onnxslim__err(ONNXSLIM_EMODEL,
                         "node '%s' input %zu ('%s' of %s) would be %s, which %s does not allow at "
                         "opset %" PRId64 " [type_constraint]",
                         name, index, OSL_OPS_STR(f->name), op, dtype_str(b1, sizeof b1, dt),
                         OSL_OPS_STR(c->name), opset);
  if (f->option == OSL_OP_VARIADIC && !f->homogeneous) return 0;
  /* the other inputs bound to the same constraint */
  size_t nin = onnxslim_node_input_count(node);
  for (size_t k = 0; k < nin; k++) {
    const osl_op_formal *fk = formal_at(fin, sc->n_in, k);
    const char *in = onnxslim_node_input(node, k);
    if (k == index || !fk || fk->constraint != f->constraint || !in || !in[0]) continue;
    if (fk->option == OSL_OP_VARIADIC && !fk->homogeneous) continue;
    int32_t other = known_dtype(g, in);
    if (other > 0 && other != dt)
      return onnxslim__err(ONNXSLIM_EMODEL,
                           "node '%s' input %zu ('%s' of %s) would be %s, but input %zu '%s' is %s "
                           "and %s needs one type [type_constraint]",
                           name, index, OSL_OPS_STR(f->name), op, dtype_str(b1, sizeof b1, dt), k,
                           in, dtype_str(b2, sizeof b2, other), OSL_OPS_STR(c->name));
  }
  return 0;
}

int32_t onnxslim__known_dtype(const onnxslim_graph *g, const char *name) {
  return known_dtype(g, name);
}

int onnxslim__check_retype_edit(const onnxslim_model *m, const osl_retype *retype, const char *what,
                                const char *hint) {
  /* only the type constraints are reported (the other kinds are not this
   * edit's doing); every type is still followed through the nodes */
  unsigned skip = ~(1u << ONNXSLIM_CHECK_TYPE_CONSTRAINT);
  onnxslim_check_report *before = NULL, *after = NULL;
  int rc = run_check(&before, m, skip, 0, NULL, NULL);
  /* only the problems the retyping adds (linear in the number of problems) */
  if (!rc) rc = run_check(&after, m, skip, 0, retype, before);
  size_t fresh = rc ? 0 : after->count;
  if (fresh) {
    const ck_item *it = &after->items[0];
    char more[64] = "";
    if (fresh > 1)
      snprintf(more, sizeof more, " (and %zu more problem%s)", fresh - 1, fresh > 2 ? "s" : "");
    rc = onnxslim__err(ONNXSLIM_EMODEL, "%s: %s: %s [%s]%s%s%s", what, it->loc, it->msg,
                       codes[it->code].name, more, hint && hint[0] ? "; " : "", hint ? hint : "");
  }
  onnxslim_check_report_free(before);
  onnxslim_check_report_free(after);
  return rc;
}
