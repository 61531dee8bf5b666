/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/* Limits under attack: nesting depth (no stack overflow for any accepted
 * max_depth, also in threads with small stacks) and memory per input byte
 * (max_memory).
 *
 * Deep models are built here byte by byte: If nodes nested in each other's
 * then_branch (3 message levels per If), and value_info types nested as
 * sequence(sequence(...)) (2 levels each), ending exactly at a chosen depth.
 * The ModelProto is depth 0, its graph depth 1. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <onnxslim.h>

#include "pbuild.h"
#include "t.h"

/* ---- builders ------------------------------------------------------------- */

static void model_head(pbuf *m) {
  pb_int(m, 1, 8); /* ir_version */
  pbuf op = {0};
  pb_int(&op, 2, 13); /* opset version, default domain */
  pb_msg(m, 8, &op);
}

/* A value_info entry; with a tensor type of elem unless elem is 0 (the type
 * adds 2 levels below the value_info). */
static void value_info(pbuf *g, uint32_t field, const char *name, int elem) {
  pbuf vi = {0}, ty = {0}, tt = {0};
  pb_str(&vi, 1, name);
  if (elem) {
    pb_int(&tt, 1, (uint64_t)elem);
    pb_msg(&ty, 1, &tt);
    pb_msg(&vi, 2, &ty);
  }
  pb_msg(g, field, &vi);
}

/* A node: one input list, one output, op type. */
static void node_head(pbuf *n, const char *const *in, size_t nin, const char *out, const char *op) {
  for (size_t i = 0; i < nin; i++) pb_str(n, 1, in[i]);
  pb_str(n, 2, out);
  pb_str(n, 4, op);
}

/* The innermost graph: initializer w (float [4,2]) and Gather(w, idx) -> y.
 * tail 1: nothing below the node; 2: the node has an int attribute; 3: the
 * node has an attribute holding a tensor. ext: w is stored in external data
 * (location "w.bin", 32 bytes) instead of raw_data. */
static pbuf inner_graph(int tail, int ext, const char *y) {
  pbuf g = {0}, w = {0}, n = {0};
  pb_int(&w, 1, 4);
  pb_int(&w, 1, 2);
  pb_int(&w, 2, 1); /* FLOAT */
  pb_str(&w, 8, "w");
  if (ext) {
    pbuf e = {0};
    pb_str(&e, 1, "location");
    pb_str(&e, 2, "w.bin");
    pb_msg(&w, 13, &e);
    pb_int(&w, 14, 1); /* EXTERNAL */
  } else {
    float v[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    pb_bytes(&w, 9, v, sizeof v);
  }
  const char *in[] = {"w", "idx"};
  node_head(&n, in, 2, y, "Gather");
  if (tail >= 2) {
    pbuf a = {0};
    pb_str(&a, 1, "axis");
    if (tail == 3) {
      pbuf t = {0};
      pb_int(&t, 2, 7);
      pb_str(&t, 8, "axis_t");
      int64_t zero = 0;
      pb_bytes(&t, 9, &zero, 8);
      pb_msg(&a, 5, &t);
      pb_int(&a, 20, 4); /* TENSOR (not what Gather wants: only the depth matters) */
    } else {
      pb_int(&a, 3, 0);
      pb_int(&a, 20, 2); /* INT */
    }
    pb_msg(&n, 5, &a);
  }
  pb_msg(&g, 1, &n);
  pb_str(&g, 2, "inner");
  pb_msg(&g, 5, &w);
  value_info(&g, 12, y, 0);
  return g;
}

/* A model whose deepest message is at exactly `depth` (>= 4): If nodes
 * nested (depth - 2) / 3 deep around the inner graph. */
static pbuf deep_if_model(unsigned int depth, int ext) {
  unsigned int levels = (depth - 2) / 3;
  int tail = (int)(depth - 1 - 3 * levels);
  char y[32];
  snprintf(y, sizeof y, "y%u", levels);
  pbuf g = inner_graph(tail, ext, y);
  for (unsigned int k = levels; k-- > 0;) {
    pbuf n = {0}, a = {0}, outer = {0};
    char yk[32];
    snprintf(yk, sizeof yk, "y%u", k);
    const char *in[] = {"cond"};
    node_head(&n, in, 1, yk, "If");
    pb_str(&a, 1, "then_branch");
    pb_msg(&a, 6, &g);
    pb_int(&a, 20, 5); /* GRAPH */
    pb_msg(&n, 5, &a);
    pb_msg(&outer, 1, &n);
    pb_str(&outer, 2, k ? "level" : "main");
    value_info(&outer, 12, yk, 0);
    g = outer;
  }
  /* main graph inputs */
  value_info(&g, 11, "cond", 9);
  value_info(&g, 11, "idx", 7);
  pbuf m = {0};
  model_head(&m);
  pb_msg(&m, 7, &g);
  return m;
}

/* A model whose deepest message, at exactly `depth` (>= 3), ends a chain of
 * sequence types in a value_info. */
static pbuf deep_type_model(unsigned int depth) {
  pbuf t = {0}; /* the innermost message: an empty TypeProto or Sequence */
  int is_type = (depth - 3) % 2 == 0;
  for (unsigned int d = depth; d > 3; d--) {
    pbuf up = {0};
    if (is_type) pb_msg(&up, 1, &t); /* Sequence.elem_type */
    else pb_msg(&up, 4, &t);         /* TypeProto.sequence_type */
    t = up;
    is_type = !is_type;
  }
  pbuf vi = {0}, g = {0}, m = {0};
  pb_str(&vi, 1, "s");
  pb_msg(&vi, 2, &t);
  pb_msg(&g, 13, &vi);
  pb_str(&g, 2, "types");
  pbuf vi2 = {0};
  pb_str(&vi2, 1, "s2");
  pb_msg(&g, 13, &vi2);
  model_head(&m);
  pb_msg(&m, 7, &g);
  return m;
}

static int load(onnxslim_model **m, const pbuf *b, unsigned int max_depth) {
  onnxslim_load_options o = ONNXSLIM_LOAD_OPTIONS_INIT;
  o.max_depth = max_depth;
  return onnxslim_model_from_buffer(m, b->p, b->n, ONNXSLIM_COPY, &o);
}

static char tmpdir[256];

static const char *tpath(char *buf, const char *name) {
  snprintf(buf, 512, "%s/%s", tmpdir, name);
  return buf;
}

static int write_file(const char *path, const void *p, size_t n) {
  FILE *f = fopen(path, "wb");
  if (!f) return -1;
  int ok = fwrite(p, 1, n, f) == n;
  return fclose(f) == 0 && ok ? 0 : -1;
}

/* ---- the passes, each run in a thread of its own -------------------------- */

/* The innermost graph: following then_branch down. */
static onnxslim_graph *innermost(onnxslim_graph *g) {
  for (;;) {
    if (onnxslim_graph_node_count(g) == 0) return g;
    onnxslim_node *n = onnxslim_graph_node(g, 0);
    if (onnxslim_node_subgraph_count(n) == 0) return g;
    g = onnxslim_node_subgraph(n, 0);
  }
}

typedef struct job job;
struct job {
  const char *name;
  int (*run)(job *j);
  const pbuf *bytes;
  unsigned int max_depth;
  onnxslim_model *m; /* loaded by the main thread unless run loads */
  int rc;
};

static int op_load(job *j) {
  onnxslim_model *m = NULL;
  int rc = load(&m, j->bytes, j->max_depth);
  onnxslim_model_free(m);
  return rc;
}
static int op_open_external(job *j) {
  char p[512];
  onnxslim_load_options o = ONNXSLIM_LOAD_OPTIONS_INIT;
  o.max_depth = j->max_depth;
  onnxslim_model *m = NULL;
  int rc = onnxslim_model_open(&m, tpath(p, "deep_ext.onnx"), &o);
  onnxslim_model_free(m);
  return rc;
}
static int op_check(job *j) {
  onnxslim_check_report *r = NULL;
  int rc = onnxslim_check(&r, j->m, 0);
  onnxslim_check_report_free(r);
  return rc;
}
static int op_toposort(job *j) {
  return onnxslim_cleanup_toposort(onnxslim_model_graph(j->m), ONNXSLIM_CLEANUP_RECURSIVE);
}
static int op_remove_unused(job *j) {
  return onnxslim_cleanup_remove_unused(onnxslim_model_graph(j->m), ONNXSLIM_CLEANUP_RECURSIVE,
                                        NULL);
}
static int op_fingerprint(job *j) {
  char fp[33];
  return onnxslim_fingerprint(fp, ONNXSLIM_FINGERPRINT_SIZE, j->m);
}
/* An edit at the bottom makes every enclosing message dirty: the save
 * re-encodes the whole chain (recursively) instead of splicing it. */
static int op_edit_save(job *j) {
  onnxslim_graph *in = innermost(onnxslim_model_graph(j->m));
  int rc = onnxslim_graph_set_name(in, "renamed");
  size_t need = 0, got = 0;
  if (!rc && onnxslim_save_buffer(j->m, NULL, 0, &need) != ONNXSLIM_EBUFSIZE) rc = -100;
  void *buf = malloc(need ? need : 1);
  if (!rc) rc = onnxslim_save_buffer(j->m, buf, need, &got);
  free(buf);
  return rc;
}
static int op_unique_name(job *j) {
  const char *s;
  return onnxslim_model_unique_name(j->m, "w", &s);
}
static int op_rename_capture(job *j) {
  return onnxslim_graph_rename_value(onnxslim_model_graph(j->m), "idx", "indices");
}
/* The main graph's index looks into every subgraph for captured values. */
static int op_graph_index(job *j) {
  onnxslim_graph *g = onnxslim_model_graph(j->m);
  (void)onnxslim_graph_producer(g, "y0");
  return onnxslim_graph_consumer_count(g, "idx") == 1 ? 0 : -100;
}
static int op_convert(job *j) {
  return onnxslim_convert_gather_tables(NULL, j->m, ONNXSLIM_DTYPE_BFLOAT16, 0, 0);
}
static int op_save_external(job *j) {
  char p[512];
  onnxslim_save_options o = ONNXSLIM_SAVE_OPTIONS_INIT;
  o.layout = ONNXSLIM_LAYOUT_ONE_FILE;
  o.size_threshold = 0;
  o.flags = ONNXSLIM_SAVE_NO_FSYNC | ONNXSLIM_SAVE_CONSTANTS;
  return onnxslim_save(NULL, j->m, tpath(p, "deep_saved.onnx"), &o);
}
static int op_save_merged(job *j) {
  char p[512];
  onnxslim_save_options o = ONNXSLIM_SAVE_OPTIONS_INIT;
  o.layout = ONNXSLIM_LAYOUT_INLINE;
  o.flags = ONNXSLIM_SAVE_NO_FSYNC;
  return onnxslim_save(NULL, j->m, tpath(p, "deep_merged.onnx"), &o);
}
/* Copies the then_branch of the main graph's If into its else_branch: a
 * deep copy (all the nesting but two levels) that lands at the same depth. */
static int op_copy_graph(job *j) {
  onnxslim_graph *g = onnxslim_model_graph(j->m);
  onnxslim_node *top = onnxslim_graph_node(g, 0);
  if (!top || onnxslim_node_subgraph_count(top) == 0) return -100;
  return onnxslim_node_set_attr_graph(top, "else_branch", onnxslim_node_subgraph(top, 0), NULL);
}
/* Copies the deep type of value_info "s" to "s2" (same depth). */
static int op_copy_type(job *j) {
  onnxslim_graph *g = onnxslim_model_graph(j->m);
  onnxslim_value_info *s = onnxslim_graph_find_value_info(g, "s");
  onnxslim_value_info *s2 = onnxslim_graph_find_value_info(g, "s2");
  if (!s || !s2) return -100;
  return onnxslim_value_info_set_type(s2, onnxslim_value_info_type(s));
}
static int op_insert_cast(job *j) {
  return onnxslim_insert_cast_after(onnxslim_model_graph(j->m), "idx", ONNXSLIM_DTYPE_INT32, NULL,
                                    0, NULL, NULL);
}

static void *thread_main(void *arg) {
  job *j = arg;
  j->rc = j->run(j);
  return NULL;
}

#define PAINT 0xa5

/* Runs j in a thread with a stack of `size` bytes. With `measure`, the
 * stack is ours, painted, and the bytes the thread touched are returned
 * (this includes what the C library keeps at the top of a thread's stack:
 * compare two runs). Returns SIZE_MAX if the thread cannot be started. */
static size_t run_in_thread(job *j, size_t size, int measure) {
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  unsigned char *stack = NULL;
  if (measure) {
    stack = aligned_alloc(4096, size);
    if (!stack) return SIZE_MAX;
    memset(stack, PAINT, size);
    pthread_attr_setstack(&attr, stack, size);
  } else {
    pthread_attr_setstacksize(&attr, size);
  }
  pthread_t t;
  size_t used = 0;
  if (pthread_create(&t, &attr, thread_main, j) != 0) {
    used = SIZE_MAX;
  } else {
    pthread_join(t, NULL);
    if (measure) {
      size_t i = 0;
      while (i < size && stack[i] == PAINT) i++;
      used = size - i;
    }
  }
  pthread_attr_destroy(&attr);
  free(stack);
  return used;
}

/* Runs every pass on a model of the given depth, each in its own thread
 * with a stack of `stack` bytes (measure: a painted stack; used[i] receives
 * each pass's stack use). Every pass must return 0, or ELIMIT for the ones
 * in may_limit. */
typedef struct {
  const char *name;
  int (*run)(job *j);
  int loads; /* the pass loads the model itself */
  /* the pass adds messages below the innermost graph: ELIMIT is right
   * when the model is as deep as max_depth already (after the walk) */
  int may_limit;
} pass;

static const pass if_passes[] = {
    {"load", op_load, 1, 0},
    {"open with external data", op_open_external, 1, 0},
    {"check", op_check, 0, 0},
    {"toposort", op_toposort, 0, 0},
    {"remove_unused", op_remove_unused, 0, 0},
    {"fingerprint", op_fingerprint, 0, 0},
    {"edit + save", op_edit_save, 0, 0},
    {"unique_name", op_unique_name, 0, 0},
    {"rename captured value", op_rename_capture, 0, 0},
    {"graph index", op_graph_index, 0, 0},
    {"convert", op_convert, 0, 1},
    {"save external", op_save_external, 0, 0},
    {"save merged", op_save_merged, 0, 0},
    {"copy graph", op_copy_graph, 0, 0},
    {"insert cast", op_insert_cast, 0, 1},
};
static const pass type_passes[] = {
    {"load", op_load, 1, 0},
    {"check", op_check, 0, 0},
    {"fingerprint", op_fingerprint, 0, 0},
    {"copy type", op_copy_type, 0, 0},
    {"unique_name", op_unique_name, 0, 0},
};
#define N_IF (sizeof if_passes / sizeof if_passes[0])
#define N_TYPE (sizeof type_passes / sizeof type_passes[0])

/* Writes the external-data variant of the If model, at most `depth` deep,
 * to tmpdir. */
static void write_external_variant(unsigned int depth) {
  char p[512];
  pbuf b = deep_if_model(depth - 1, 1); /* external_data entries go 1 deeper */
  float v[8] = {0};
  CHECK(write_file(tpath(p, "deep_ext.onnx"), b.p, b.n) == 0);
  CHECK(write_file(tpath(p, "w.bin"), v, sizeof v) == 0);
  free(b.p);
}

static void run_passes(const pass *ps, size_t np, const pbuf *b, unsigned int max_depth,
                       size_t stack, int measure, size_t *used) {
  for (size_t i = 0; i < np; i++) {
    job j = {ps[i].name, ps[i].run, b, max_depth, NULL, 0};
    if (!ps[i].loads && load(&j.m, b, max_depth) != 0) {
      CHECK(!"deep model loads");
      continue;
    }
    size_t u = run_in_thread(&j, stack, measure);
    CHECK(u != SIZE_MAX);
    if (used) used[i] = u;
    if (j.rc != 0 && !(ps[i].may_limit && j.rc == ONNXSLIM_ELIMIT))
      fprintf(stderr, "pass '%s' at max_depth %u: rc %d (%s)\n", ps[i].name, max_depth, j.rc,
              onnxslim_error_last());
    CHECK(j.rc == 0 || (ps[i].may_limit && j.rc == ONNXSLIM_ELIMIT));
    onnxslim_model_free(j.m);
  }
}

/* ---- tests ------------------------------------------------------------------ */

/* The attack of the report: If nested 10,000 deep (30,000 levels) with the
 * largest max_depth the options accepted. Refused, never a crash. */
TEST(depth_if_10000_deep) {
  pbuf b = deep_if_model(30002, 0);
  onnxslim_model *m = NULL;
  CHECK(load(&m, &b, 100000) == ONNXSLIM_EINVAL && !m);
  CHECK(load(&m, &b, ONNXSLIM_MAX_DEPTH_LIMIT) == ONNXSLIM_ELIMIT && !m);
  free(b.p);
  b = deep_type_model(20001);
  CHECK(load(&m, &b, 10000) == ONNXSLIM_EINVAL && !m);
  CHECK(load(&m, &b, ONNXSLIM_MAX_DEPTH_LIMIT) == ONNXSLIM_ELIMIT && !m);
  free(b.p);
}

/* max_depth above the limit is refused up front. */
TEST(depth_option_bounds) {
  pbuf b = deep_if_model(10, 0);
  onnxslim_model *m = NULL;
  CHECK(load(&m, &b, ONNXSLIM_MAX_DEPTH_LIMIT + 1) == ONNXSLIM_EINVAL && !m);
  CHECK(load(&m, &b, ONNXSLIM_MAX_DEPTH_LIMIT) == 0 && m);
  onnxslim_model_free(m);
  free(b.p);
}

/* Exactly at max_depth loads, one level more does not; for every residue of
 * the If nesting (tails 1-3) and both type chain endings. */
TEST(depth_exact_boundary) {
  for (unsigned int d = 20; d < 26; d++) {
    pbuf b = deep_if_model(d, 0), t = deep_type_model(d);
    onnxslim_model *m = NULL;
    CHECK(load(&m, &b, d) == 0);
    onnxslim_model_free(m);
    m = NULL;
    CHECK(load(&m, &b, d - 1) == ONNXSLIM_ELIMIT && !m);
    CHECK(load(&m, &t, d) == 0);
    onnxslim_model_free(m);
    m = NULL;
    CHECK(load(&m, &t, d - 1) == ONNXSLIM_ELIMIT && !m);
    free(b.p);
    free(t.p);
  }
}

/* Every pass at the deepest nesting the options accept, in threads with a
 * 256 KiB stack. A stack overflow crashes the test. */
TEST(depth_limit_small_stack) {
  unsigned int d = ONNXSLIM_MAX_DEPTH_LIMIT;
  write_external_variant(d);
  pbuf b = deep_if_model(d, 0), t = deep_type_model(d);
  run_passes(if_passes, N_IF, &b, d, 256 * 1024, 0, NULL);
  run_passes(type_passes, N_TYPE, &t, d, 256 * 1024, 0, NULL);
  free(b.p);
  free(t.p);
}

/* Edits cannot nest deeper than max_depth: every recursive pass relies on
 * it. A copy of a graph into one of its own nodes doubles the nesting. */
TEST(depth_edits_bounded) {
  unsigned int d = 40;
  pbuf b = deep_if_model(d, 0);
  onnxslim_model *m = NULL;
  CHECK(load(&m, &b, d) == 0);
  onnxslim_graph *g = onnxslim_model_graph(m);
  onnxslim_node *top = onnxslim_graph_node(g, 0);
  char before[33], after[33];
  CHECK_OK(onnxslim_fingerprint(before, ONNXSLIM_FINGERPRINT_SIZE, m));
  CHECK(onnxslim_node_set_attr_graph(top, "else_branch", g, NULL) == ONNXSLIM_ELIMIT);
  CHECK_OK(onnxslim_fingerprint(after, ONNXSLIM_FINGERPRINT_SIZE, m));
  CHECK(strcmp(before, after) == 0);
  /* the same copy fits a model loaded with room for it */
  onnxslim_model_free(m);
  CHECK(load(&m, &b, 2 * d) == 0);
  g = onnxslim_model_graph(m);
  CHECK_OK(onnxslim_node_set_attr_graph(onnxslim_graph_node(g, 0), "else_branch", g, NULL));
  onnxslim_model_free(m);
  /* growing a chain one empty subgraph at a time stops at max_depth */
  CHECK(load(&m, &b, d) == 0);
  onnxslim_graph *in = innermost(onnxslim_model_graph(m));
  int rc = 0;
  for (int k = 0; k < 100 && rc == 0; k++) {
    onnxslim_node *n = NULL;
    const char *cond[] = {"cond"}, *out[] = {"z"};
    rc = onnxslim_graph_add_node(in, SIZE_MAX, "If", NULL, NULL, cond, 1, out, 1, &n);
    if (!rc) rc = onnxslim_node_set_attr_graph(n, "then_branch", NULL, &in);
  }
  CHECK(rc == ONNXSLIM_ELIMIT);
  size_t need = 0;
  CHECK(onnxslim_save_buffer(m, NULL, 0, &need) == ONNXSLIM_EBUFSIZE);
  void *buf = malloc(need);
  CHECK_OK(onnxslim_save_buffer(m, buf, need, &need));
  /* what was built within max_depth loads again with that max_depth */
  onnxslim_model *m2 = NULL;
  onnxslim_load_options o = ONNXSLIM_LOAD_OPTIONS_INIT;
  o.max_depth = d;
  CHECK_OK(onnxslim_model_from_buffer(&m2, buf, need, 0, &o));
  onnxslim_model_free(m2);
  free(buf);
  onnxslim_model_free(m);
  free(b.p);
}

/* Stack bytes per nesting level of each pass, measured on painted stacks at
 * two depths (printed for the record; the assertion is the 256 KiB run). */
TEST(depth_stack_per_level) {
  unsigned int d1 = 100, d2 = ONNXSLIM_MAX_DEPTH_LIMIT;
  size_t u1[N_IF] = {0}, u2[N_IF] = {0}, t1[N_TYPE] = {0}, t2[N_TYPE] = {0};
  size_t big = 4u << 20;
  pbuf b1 = deep_if_model(d1, 0), b2 = deep_if_model(d2, 0);
  write_external_variant(d1);
  run_passes(if_passes, N_IF, &b1, d2, big, 1, u1);
  write_external_variant(d2);
  run_passes(if_passes, N_IF, &b2, d2, big, 1, u2);
  pbuf c1 = deep_type_model(d1), c2 = deep_type_model(d2);
  run_passes(type_passes, N_TYPE, &c1, d2, big, 1, t1);
  run_passes(type_passes, N_TYPE, &c2, d2, big, 1, t2);
  double worst = 0;
  for (size_t i = 0; i < N_IF + N_TYPE; i++) {
    int is_if = i < N_IF;
    size_t a = is_if ? u1[i] : t1[i - N_IF], z = is_if ? u2[i] : t2[i - N_IF];
    double per = z > a ? (double)(z - a) / (d2 - d1) : 0;
    if (per > worst) worst = per;
    printf("stack: %-24s %-5s %7zu bytes at depth %u, %7zu at %u: %6.1f bytes/level\n",
           is_if ? if_passes[i].name : type_passes[i - N_IF].name, is_if ? "(If)" : "(type)", a, d1,
           z, d2, per);
  }
  printf("stack: worst %.1f bytes/level; %.0f KiB at max_depth %u\n", worst,
         worst * ONNXSLIM_MAX_DEPTH_LIMIT / 1024, (unsigned)ONNXSLIM_MAX_DEPTH_LIMIT);
  free(b1.p);
  free(b2.p);
  free(c1.p);
  free(c2.p);
}

/* ---- memory per input byte ------------------------------------------------- */

/* Loads b (borrowed) in a child process whose address space is limited to
 * 2 GiB beyond what it starts with; returns the load's result code (or 1000
 * + signal when it died), *rss_kib its peak resident set, *secs the time. */
static int load_in_child(const pbuf *b, const onnxslim_load_options *o, long *rss_kib,
                         double *secs) {
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  pid_t pid = fork();
  if (pid == 0) {
    struct rlimit rl = {(rlim_t)b->n + (2ull << 30), (rlim_t)b->n + (2ull << 30)};
    setrlimit(RLIMIT_AS, &rl);
    onnxslim_model *m = NULL;
    int rc = onnxslim_model_from_buffer(&m, b->p, b->n, ONNXSLIM_BORROW, o);
    if (rc) fprintf(stderr, "  child: %s\n", onnxslim_error_last());
    onnxslim_model_free(m);
    _exit(-rc);
  }
  int st = 0;
  struct rusage ru;
  memset(&ru, 0, sizeof ru);
  if (pid < 0 || wait4(pid, &st, 0, &ru) != pid) return 2000;
  clock_gettime(CLOCK_MONOTONIC, &t1);
  *secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
  *rss_kib = ru.ru_maxrss;
  if (WIFSIGNALED(st)) return 1000 + WTERMSIG(st);
  return -WEXITSTATUS(st);
}

/* A model of n copies of `field` (already encoded) at top level and/or in
 * the graph, plus what makes it a model. */
static pbuf repeated(const void *unit, size_t unit_len, size_t n, int in_graph, int in_tensor) {
  pbuf body = {0};
  body.cap = unit_len * n + 64;
  body.p = malloc(body.cap);
  if (!body.p) abort();
  for (size_t i = 0; i < n; i++) pb_put(&body, unit, unit_len);
  pbuf m = {0};
  model_head(&m);
  if (in_tensor) {
    pbuf t = {0}, g = {0};
    pb_put(&t, body.p, body.n);
    pb_int(&t, 2, 1);
    pb_str(&t, 8, "t");
    pb_msg(&g, 5, &t);
    pb_msg(&m, 7, &g);
  } else if (in_graph) {
    pbuf g = {0};
    pb_put(&g, body.p, body.n);
    pb_msg(&m, 7, &g);
  } else {
    pb_put(&m, body.p, body.n);
    pbuf g = {0};
    pb_str(&g, 2, "g");
    pb_msg(&m, 7, &g);
  }
  free(body.p);
  return m;
}

static void expect_limit(const char *what, const pbuf *b, const onnxslim_load_options *o) {
  long rss = 0;
  double secs = 0;
  int rc = load_in_child(b, o, &rss, &secs);
  printf("memory: %-40s %6.1f MB input: rc %d in %.2f s, peak RSS %.1f MiB\n", what,
         (double)b->n / 1e6, rc, secs, (double)rss / 1024);
  CHECK(rc == ONNXSLIM_ELIMIT);
  /* refused before allocating for it: the input (shared with this
   * process) and little more */
  CHECK((double)rss * 1024 < (double)b->n + (96 << 20));
}

/* The attacks of the report, under the default limit: refused with
 * ONNXSLIM_ELIMIT after one pass over the offending message, allocating
 * (almost) nothing. Without a limit they took 80x their size. */
TEST(memory_crafted_default_limit) {
  static const uint8_t dim[] = {0x08, 0x01};               /* TensorProto.dims = 1 */
  static const uint8_t opset[] = {0x42, 0x02, 0x10, 0x0d}; /* opset_import {version 13} */
  static const uint8_t node[] = {0x0a, 0x00};              /* GraphProto.node {} */
  static const uint8_t unknown[] = {0xf8, 0x07, 0x01};     /* ModelProto field 127 = 1 */
  pbuf b = repeated(dim, sizeof dim, 20000000, 0, 1);
  expect_limit("20M repeated int64 dims of a tensor", &b, NULL);
  free(b.p);
  b = repeated(unknown, sizeof unknown, 20000000, 0, 0);
  expect_limit("20M repeated unknown varint fields", &b, NULL);
  free(b.p);
  b = repeated(opset, sizeof opset, 10000000, 0, 0);
  expect_limit("10M opset_import entries", &b, NULL);
  free(b.p);
  b = repeated(node, sizeof node, 20000000, 1, 0);
  onnxslim_load_options v2;
  CHECK_OK(onnxslim_load_options_init(&v2, 2)); /* older options: the default applies */
  expect_limit("20M empty nodes (options version 2)", &b, &v2);
  free(b.p);
}

/* Growth spread over many messages is caught as the arena grows; packed
 * dims are counted before they are decoded; the limit is exact enough that
 * the same models load with room to spare. */
TEST(memory_small_limits) {
  /* 20000 nodes of 8 fields each */
  pbuf unit = {0}, n = {0};
  pb_str(&n, 1, "a");
  pb_str(&n, 1, "b");
  pb_str(&n, 2, "c");
  pb_str(&n, 3, "name");
  pb_str(&n, 4, "Add");
  pb_str(&n, 7, "");
  pb_str(&n, 1, "d");
  pb_str(&n, 1, "e");
  pb_msg(&unit, 1, &n);
  pbuf b = repeated(unit.p, unit.n, 20000, 1, 0);
  onnxslim_load_options o = ONNXSLIM_LOAD_OPTIONS_INIT;
  onnxslim_model *m = NULL;
  o.max_memory = 4 << 20;
  CHECK(onnxslim_model_from_buffer(&m, b.p, b.n, ONNXSLIM_BORROW, &o) == ONNXSLIM_ELIMIT);
  CHECK(m == NULL && strstr(onnxslim_error_last(), "max_memory"));
  o.max_memory = 32 << 20;
  CHECK_OK(onnxslim_model_from_buffer(&m, b.p, b.n, ONNXSLIM_BORROW, &o));
  CHECK(onnxslim_graph_node_count(onnxslim_model_graph(m)) == 20000);
  onnxslim_model_free(m);
  o.max_memory = ONNXSLIM_MAX_MEMORY_UNLIMITED;
  CHECK_OK(onnxslim_model_from_buffer(&m, b.p, b.n, ONNXSLIM_BORROW, &o));
  onnxslim_model_free(m);
  free(b.p);
  free(unit.p);

  /* a packed dims field of 1M ones decodes to 8 MB */
  pbuf t = {0}, g = {0}, mm = {0};
  uint8_t *ones = malloc(1000000);
  memset(ones, 1, 1000000);
  pb_bytes(&t, 1, ones, 1000000);
  free(ones);
  pb_int(&t, 2, 1);
  pb_msg(&g, 5, &t);
  model_head(&mm);
  pb_msg(&mm, 7, &g);
  o.max_memory = 4 << 20;
  CHECK(onnxslim_model_from_buffer(&m, mm.p, mm.n, ONNXSLIM_BORROW, &o) == ONNXSLIM_ELIMIT);
  CHECK(m == NULL && strstr(onnxslim_error_last(), "max_memory"));
  CHECK_OK(onnxslim_model_from_buffer(&m, mm.p, mm.n, ONNXSLIM_BORROW, NULL));
  onnxslim_model_free(m);
  free(mm.p);
}

/* Options versions 1 and 2 still load; version 3 knows max_memory, 4
 * the progress function (garbage after a version's fields is not read). */
TEST(memory_options_versions) {
  pbuf b = deep_if_model(10, 0);
  for (unsigned int v = 1; v <= 4; v++) {
    onnxslim_load_options o;
    memset(&o, 0xff, sizeof o);
    CHECK_OK(onnxslim_load_options_init(&o, v));
    CHECK(o.version == v && o.flags == 0 && o.max_depth == 0);
    if (v >= 2) CHECK(o.base_dir == NULL);
    if (v >= 3) CHECK(o.max_memory == 0);
    if (v >= 4) CHECK(o.progress == NULL && o.progress_payload == NULL);
    onnxslim_model *m = NULL;
    CHECK_OK(onnxslim_model_from_buffer(&m, b.p, b.n, 0, &o));
    onnxslim_model_free(m);
  }
  onnxslim_load_options o;
  CHECK(onnxslim_load_options_init(&o, 5) == ONNXSLIM_EINVAL);
  free(b.p);
}

static void cleanup_tmp(void) {
  const char *names[] = {"deep_ext.onnx", "w.bin", "deep_saved.onnx", "deep_saved.onnx.data",
                         "deep_merged.onnx"};
  char p[512];
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) unlink(tpath(p, names[i]));
  rmdir(tmpdir);
}

int main(int argc, char **argv) {
  t_args(argc, argv);
  const char *base = getenv("TMPDIR");
  snprintf(tmpdir, sizeof tmpdir, "%s/libonnxslim-limits-XXXXXX", base && base[0] ? base : "/tmp");
  if (!mkdtemp(tmpdir)) {
    perror("mkdtemp");
    return 1;
  }
  RUN(depth_option_bounds);
  RUN(depth_exact_boundary);
  RUN(depth_edits_bounded);
  RUN(depth_stack_per_level);
  RUN(depth_limit_small_stack);
  RUN(depth_if_10000_deep);
  RUN(memory_options_versions);
  RUN(memory_small_limits);
  RUN(memory_crafted_default_limit);
  cleanup_tmp();
  return t_done();
}
