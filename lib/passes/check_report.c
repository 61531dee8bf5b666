/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - the check's report (onnxslim_check_report), its problem
 * kinds and options, and the state of a check: its path, memory, problem
 * keys and the baseline (check_int.h).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "passes/check_int.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

/* ---- report ---------------------------------------------------------------- */

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

const ck_code onnxslim__ck_codes[ONNXSLIM_CHECK_CODE_MAX + 1] = {
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
  return onnxslim__ck_codes[code].name;
}

const char *onnxslim_check_code_description(int code) {
  if (code < 1 || code > ONNXSLIM_CHECK_CODE_MAX) {
    onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_check_code_description: %d is no check code", code);
    return NULL;
  }
  return onnxslim__ck_codes[code].what;
}

int onnxslim_check_code_from_name(const char *name) {
  if (!name) return onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_check_code_from_name: NULL name");
  for (int i = 1; i <= ONNXSLIM_CHECK_CODE_MAX; i++)
    if (strcmp(onnxslim__ck_codes[i].name, name) == 0) return i;
  return onnxslim__err(ONNXSLIM_ENOTFOUND, "no check named '%s' (libonnxslim check --list-checks)",
                       name);
}

/* Size of each version of onnxslim_check_options: fields are only appended. */
size_t onnxslim__check_options_size(unsigned int version) {
  switch (version) {
  case 1: return offsetof(onnxslim_check_options, baseline);
  case 2: return sizeof(onnxslim_check_options);
  default: return 0;
  }
}

int onnxslim_check_options_init(onnxslim_check_options *opts, unsigned int version) {
  if (!opts) return onnxslim__err(ONNXSLIM_EINVAL, "onnxslim_check_options_init: opts is NULL");
  size_t size = onnxslim__check_options_size(version);
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

void onnxslim__ck_str_vadd(ck_str *s, const char *fmt, va_list ap) {
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

void onnxslim__ck_str_add(ck_str *s, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  onnxslim__ck_str_vadd(s, fmt, ap);
  va_end(ap);
}

void onnxslim__ck_str_cut(ck_str *s, size_t len) {
  if (s->p && len <= s->len) {
    s->len = len;
    s->p[len] = '\0';
  }
}

int onnxslim__ck_failed(ck *c) {
  int code = onnxslim_error_last_code();
  if (code >= 0) code = ONNXSLIM_ENOMEM;
  if (!c->rc) c->rc = code;
  return code;
}

int onnxslim__ck_nomem(ck *c) {
  if (!c->rc) c->rc = onnxslim__err_nomem("checking the model");
  return c->rc;
}

void onnxslim__ck_push_node(ck *c, const onnxslim_node *node, size_t index, const char *name) {
  size_t at = c->path.len;
  if (name[0]) {
    onnxslim__ck_str_add(&c->path, " node[%zu] '%s'", index, name);
  } else {
    const char *op = onnxslim_node_op_type(node);
    onnxslim__ck_str_add(&c->path, " node[%zu] (%s)", index, op ? op : "?");
  }
  if (c->path.oom) return;
  if (c->nsegs == c->capsegs) {
    size_t cap = c->capsegs ? c->capsegs * 2 : 16;
    ck_seg *segs = realloc(c->segs, cap * sizeof *segs);
    if (!segs) {
      c->path.oom = 1; /* reported by the next onnxslim__ck_problem() */
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
void onnxslim__ck_path_cut(ck *c, size_t len) {
  while (c->nsegs && c->segs[c->nsegs - 1].at >= len) c->nsegs--;
  onnxslim__ck_str_cut(&c->path, len);
}

/* Appends the pending node (ck.pend) to the path: before the path is read
 * or extended. */
void onnxslim__ck_flush_path(ck *c) {
  if (c->pend) {
    const onnxslim_node *node = c->pend;
    c->pend = NULL;
    onnxslim__ck_push_node(c, node, c->pend_index, c->pend_name);
  } else if (c->pend_what) {
    const char *what = c->pend_what;
    c->pend_what = NULL;
    if (c->pend_name[0]) onnxslim__ck_str_add(&c->path, " %s '%s'", what, c->pend_name);
    else onnxslim__ck_str_add(&c->path, " %s[%zu]", what, c->pend_index);
  }
}

/* Makes " what 'name'" (" what[index]" when the name is empty) the pending
 * location: appended to the path if something is reported there. Returns
 * the length to cut the path back to. */
size_t onnxslim__ck_pend_item(ck *c, const char *what, const char *name, size_t index) {
  onnxslim__ck_flush_path(c);
  c->pend_what = what;
  c->pend_name = name;
  c->pend_index = index;
  return c->path.len;
}

/* ---- memory ------------------------------------------------------------------ */

/* Adds n bytes to what the check holds (negative: released), counted with
 * the model's (onnxslim__mem_charge) against the model's max_memory
 * (onnxslim_load_options): ONNXSLIM_ELIMIT when the model's structure (its
 * arena, which the handles the check asks for also grow) and what the
 * passes hold would exceed it. run_check releases what is left. */
int onnxslim__ck_charge(ck *c, int64_t n) {
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

static void str_putn(ck_str *s, const char *p, size_t n) {
  onnxslim__ck_str_add(s, "%.*s", (int)n, p);
}

/* The key of a problem of kind `code` at the current path with message
 * c->msg (or about c->subj_what / c->subj_name): a 128-bit hash of the
 * code, the path with each node named by identity (its name; an unnamed
 * node by op_type and output names) instead of its index, and the message
 * or subject. 0, or -1 when out of memory. */
static int ck_key(ck *c, int code, uint64_t key[2]) {
  ck_str *k = &c->key;
  onnxslim__ck_str_cut(k, 0);
  onnxslim__ck_str_add(k, "%d\x1f", code);
  const char *p = c->path.p ? c->path.p : "";
  size_t at = 0;
  for (size_t i = 0; i < c->nsegs; i++) {
    const ck_seg *sg = &c->segs[i];
    if (sg->at < at || sg->end > c->path.len) continue; /* cannot happen: cut with path_cut */
    str_putn(k, p + at, sg->at - at);
    const char *name = onnxslim_node_name(sg->node);
    if (name && name[0]) {
      onnxslim__ck_str_add(k, " node\x1e%s\x1e", name);
    } else {
      const char *op = onnxslim_node_op_type(sg->node);
      onnxslim__ck_str_add(k, " node\x1d%s", op ? op : "");
      size_t nout = onnxslim_node_output_count(sg->node);
      for (size_t j = 0; j < nout; j++) {
        const char *o = onnxslim_node_output(sg->node, j);
        onnxslim__ck_str_add(k, "\x1d%s", o ? o : "");
      }
      onnxslim__ck_str_add(k, "\x1e");
    }
    at = sg->end;
  }
  str_putn(k, p + at, c->path.len - at);
  if (c->subj_what) onnxslim__ck_str_add(k, "\x1f%s\x1f%s", c->subj_what, c->subj_name);
  else onnxslim__ck_str_add(k, "\x1f%s", c->msg.p ? c->msg.p : "");
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
int onnxslim__ck_base_build(ck_base *b, const onnxslim_check_report *r, unsigned skip) {
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
int onnxslim__ck_problem(ck *c, int code, const char *fmt, ...) {
  if (c->skip & (1u << code)) return 0;
  onnxslim__ck_flush_path(c);
  if (c->path.oom) return onnxslim__ck_nomem(c);
  onnxslim_check_report *r = c->rep;
  onnxslim__ck_str_cut(&c->msg, 0);
  va_list ap;
  va_start(ap, fmt);
  onnxslim__ck_str_vadd(&c->msg, fmt, ap);
  va_end(ap);
  if (c->msg.oom) return onnxslim__ck_nomem(c);
  uint64_t key[2];
  if (ck_key(c, code, key)) return onnxslim__ck_nomem(c);
  if (c->base && base_take(c->base, key)) return 0; /* the baseline has it */
  if (r->count == r->cap) {
    size_t cap = r->cap ? r->cap * 2 : 8;
    if (onnxslim__ck_charge(c, (int64_t)(block_cost(cap * sizeof(ck_item)) -
                                         (r->cap ? block_cost(r->cap * sizeof(ck_item)) : 0))))
      return c->rc;
    ck_item *items = realloc(r->items, cap * sizeof *items);
    if (!items) return onnxslim__ck_nomem(c);
    r->items = items;
    r->cap = cap;
  }
  /* location and message in one block: "loc\0msg\0" */
  size_t nl = c->path.len, nm = c->msg.len;
  if (onnxslim__ck_charge(c, (int64_t)block_cost(nl + nm + 2))) return c->rc;
  char *both = malloc(nl + nm + 2);
  if (!both) return onnxslim__ck_nomem(c);
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
size_t onnxslim__ck_push(ck *c, const char *fmt, ...) {
  onnxslim__ck_flush_path(c);
  size_t mark = c->path.len;
  va_list ap;
  va_start(ap, fmt);
  onnxslim__ck_str_vadd(&c->path, fmt, ap);
  va_end(ap);
  return mark;
}

/* Appends "node[3] 'name'" (or "node[3] (Op)" for an unnamed node) to out,
 * to name another node in a message. */
void onnxslim__ck_describe_node(ck_str *out, const onnxslim_node *node, size_t index) {
  const char *name = node ? onnxslim_node_name(node) : NULL;
  if (name && name[0]) {
    onnxslim__ck_str_add(out, "node[%zu] '%s'", index, name);
  } else {
    const char *op = node ? onnxslim_node_op_type(node) : NULL;
    onnxslim__ck_str_add(out, "node[%zu] (%s)", index, op ? op : "?");
  }
}

const char *onnxslim__ck_dtype_str(char *buf, size_t n, int32_t dt) {
  const char *s = onnxslim_dtype_name(dt);
  if (strcmp(s, "UNKNOWN") != 0) return s;
  snprintf(buf, n, "dtype(%" PRId32 ")", dt);
  return buf;
}

const char *onnxslim__ck_kind_str(int kind) {
  switch (kind) {
  case ONNXSLIM_TYPE_TENSOR: return "a tensor";
  case ONNXSLIM_TYPE_SEQUENCE: return "a sequence";
  case ONNXSLIM_TYPE_MAP: return "a map";
  case ONNXSLIM_TYPE_OPTIONAL: return "an optional";
  case ONNXSLIM_TYPE_SPARSE_TENSOR: return "a sparse tensor";
  default: return "of unknown kind";
  }
}
