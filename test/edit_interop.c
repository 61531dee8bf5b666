/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/* Applies numerics-preserving edits to models with the public API and saves
 * the results, for test/steps/45-edit-interop.sh (which checks them with
 * python onnx's checker and compares them with the originals in
 * onnxruntime):
 *
 *   cast     a Cast to the same type after every graph input whose element
 *            type is known (onnxslim_insert_cast_after)
 *   rename   every node output, in the main graph and in every subgraph,
 *            renamed to a fresh unique name (onnxslim_graph_rename_value)
 *   shuffle  the nodes of every graph reversed (onnxslim_graph_reorder_nodes),
 *            then onnxslim_cleanup_toposort(ONNXSLIM_CLEANUP_RECURSIVE)
 *
 * Usage: edit_interop -l LIST
 *   LIST has one "MODEL OUT_PREFIX" pair a line; for each edit E the result
 *   goes to OUT_PREFIX.E.onnx. One line is printed per model and edit:
 *     <line number> <edit> ok|skip|error <details>
 *   "skip" means the edit does not apply to the model (e.g. no typed input).
 * Exit status: 0 unless the list cannot be read. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <onnxslim.h>

static const char *const edits[] = {"cast", "rename", "shuffle"};
#define N_EDITS 3

/* ---- cast -------------------------------------------------------------------- */

/* opset imported for the default domain, or -1 */
static int64_t default_opset(const onnxslim_model *m) {
  for (size_t i = 0; i < onnxslim_model_opset_count(m); i++) {
    const char *d = NULL;
    int64_t v = 0;
    if (onnxslim_model_opset(m, i, &d, &v) == 0 && (!d[0] || strcmp(d, "ai.onnx") == 0)) return v;
  }
  return -1;
}

static int edit_cast(onnxslim_model *m, char *why, size_t whylen) {
  onnxslim_graph *g = onnxslim_model_graph(m);
  if (default_opset(m) < 6) {
    snprintf(why, whylen, "opset %lld: Cast's 'to' is a string before opset 6",
             (long long)default_opset(m));
    return 1;
  }
  /* names first: inserting adds value infos but no inputs */
  size_t n = onnxslim_graph_input_count(g), done = 0;
  for (size_t i = 0; i < n; i++) {
    onnxslim_value_info *vi = onnxslim_graph_input(g, i);
    onnxslim_type *t = onnxslim_value_info_type(vi);
    if (!t || onnxslim_type_kind(t) != ONNXSLIM_TYPE_TENSOR) continue;
    int32_t elem = onnxslim_type_dtype(t);
    if (elem <= 0) continue;
    const char *name = onnxslim_value_info_name(vi);
    int rc = onnxslim_insert_cast_after(g, name, elem, NULL, 0, NULL, NULL);
    if (rc) {
      snprintf(why, whylen, "insert_cast_after('%s'): %s", name, onnxslim_error_last());
      return -1;
    }
    done++;
  }
  if (!done) {
    snprintf(why, whylen, "no graph input with a known tensor element type");
    return 1;
  }
  snprintf(why, whylen, "%zu casts", done);
  return 0;
}

/* ---- rename ------------------------------------------------------------------ */

static char *dupstr(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (d) memcpy(d, s, n);
  return d;
}

static int rename_graph(onnxslim_model *m, onnxslim_graph *g, size_t *count, char *why,
                        size_t whylen) {
  /* subgraphs first: they are renamed with their own handle; the outer
   * renames below then reach their captures */
  for (size_t i = 0; i < onnxslim_graph_node_count(g); i++) {
    onnxslim_node *n = onnxslim_graph_node(g, i);
    for (size_t a = 0; a < onnxslim_node_attr_count(n); a++) {
      onnxslim_attr *at = onnxslim_node_attr(n, a);
      int ty = onnxslim_attr_type(at);
      size_t ng = ty == ONNXSLIM_ATTR_GRAPH    ? 1
                  : ty == ONNXSLIM_ATTR_GRAPHS ? onnxslim_attr_list_count(at)
                                               : 0;
      for (size_t j = 0; j < ng; j++) {
        onnxslim_graph *sub =
            ty == ONNXSLIM_ATTR_GRAPH ? onnxslim_attr_graph(at) : onnxslim_attr_graphs(at, j);
        if (!sub) {
          snprintf(why, whylen, "subgraph: %s", onnxslim_error_last());
          return -1;
        }
        int rc = rename_graph(m, sub, count, why, whylen);
        if (rc) return rc;
      }
    }
  }
  /* collect the outputs first (copies: renaming changes the nodes) */
  size_t cap = 16, nv = 0;
  char **vals = malloc(cap * sizeof *vals);
  if (!vals) return -1;
  for (size_t i = 0; i < onnxslim_graph_node_count(g); i++) {
    onnxslim_node *n = onnxslim_graph_node(g, i);
    for (size_t k = 0; k < onnxslim_node_output_count(n); k++) {
      const char *o = onnxslim_node_output(n, k);
      if (!o || !o[0]) continue;
      if (nv == cap) {
        char **v2 = realloc(vals, (cap *= 2) * sizeof *vals);
        if (!v2) break;
        vals = v2;
      }
      vals[nv++] = dupstr(o);
    }
  }
  int rc = 0;
  for (size_t i = 0; i < nv && !rc; i++) {
    const char *fresh = NULL;
    if (!vals[i]) {
      rc = -1;
      break;
    }
    if (onnxslim_model_unique_name(m, "r", &fresh) != 0 ||
        onnxslim_graph_rename_value(g, vals[i], fresh) != 0) {
      snprintf(why, whylen, "rename '%s': %s", vals[i], onnxslim_error_last());
      rc = -1;
    }
    (*count)++;
  }
  for (size_t i = 0; i < nv; i++) free(vals[i]);
  free(vals);
  return rc;
}

static int edit_rename(onnxslim_model *m, char *why, size_t whylen) {
  size_t count = 0;
  int rc = rename_graph(m, onnxslim_model_graph(m), &count, why, whylen);
  if (rc) return rc;
  if (!count) {
    snprintf(why, whylen, "no node outputs");
    return 1;
  }
  snprintf(why, whylen, "%zu values renamed", count);
  return 0;
}

/* ---- shuffle ----------------------------------------------------------------- */

static int reverse_graph(onnxslim_graph *g, size_t *moved, char *why, size_t whylen) {
  size_t n = onnxslim_graph_node_count(g);
  onnxslim_node **order = malloc((n ? n : 1) * sizeof *order);
  if (!order) return -1;
  for (size_t i = 0; i < n; i++) order[i] = onnxslim_graph_node(g, n - 1 - i);
  int rc = onnxslim_graph_reorder_nodes(g, order, n);
  free(order);
  if (rc) {
    snprintf(why, whylen, "reorder_nodes: %s", onnxslim_error_last());
    return -1;
  }
  if (n > 1) *moved += n;
  for (size_t i = 0; i < n; i++) {
    onnxslim_node *nd = onnxslim_graph_node(g, i);
    for (size_t a = 0; a < onnxslim_node_attr_count(nd); a++) {
      onnxslim_attr *at = onnxslim_node_attr(nd, a);
      int ty = onnxslim_attr_type(at);
      size_t ng = ty == ONNXSLIM_ATTR_GRAPH    ? 1
                  : ty == ONNXSLIM_ATTR_GRAPHS ? onnxslim_attr_list_count(at)
                                               : 0;
      for (size_t j = 0; j < ng; j++) {
        onnxslim_graph *sub =
            ty == ONNXSLIM_ATTR_GRAPH ? onnxslim_attr_graph(at) : onnxslim_attr_graphs(at, j);
        if (sub && (rc = reverse_graph(sub, moved, why, whylen)) != 0) return rc;
      }
    }
  }
  return 0;
}

static int edit_shuffle(onnxslim_model *m, char *why, size_t whylen) {
  size_t moved = 0;
  onnxslim_graph *g = onnxslim_model_graph(m);
  int rc = reverse_graph(g, &moved, why, whylen);
  if (rc) return rc;
  if (!moved) {
    snprintf(why, whylen, "fewer than two nodes in every graph");
    return 1;
  }
  if (onnxslim_cleanup_toposort(g, ONNXSLIM_CLEANUP_RECURSIVE) != 0) {
    snprintf(why, whylen, "toposort: %s", onnxslim_error_last());
    return -1;
  }
  snprintf(why, whylen, "%zu nodes reversed and sorted", moved);
  return 0;
}

/* ---- driver ------------------------------------------------------------------ */

static void one(size_t line, const char *model, const char *prefix, int e) {
  char why[512] = "", out[4096];
  onnxslim_model *m = NULL;
  if (onnxslim_model_open(&m, model, NULL) != 0) {
    printf("%zu %s error load: %s\n", line, edits[e], onnxslim_error_last());
    return;
  }
  int rc = e == 0   ? edit_cast(m, why, sizeof why)
           : e == 1 ? edit_rename(m, why, sizeof why)
                    : edit_shuffle(m, why, sizeof why);
  if (rc == 0) {
    snprintf(out, sizeof out, "%s.%s.onnx", prefix, edits[e]);
    onnxslim_save_options so = ONNXSLIM_SAVE_OPTIONS_INIT;
    so.flags = ONNXSLIM_SAVE_NO_FSYNC;
    if (onnxslim_save(NULL, m, out, &so) != 0) {
      snprintf(why, sizeof why, "save: %s", onnxslim_error_last());
      rc = -1;
    }
  }
  printf("%zu %s %s %s\n", line, edits[e], rc == 0 ? "ok" : rc > 0 ? "skip" : "error", why);
  onnxslim_model_free(m);
}

int main(int argc, char **argv) {
  if (argc != 3 || strcmp(argv[1], "-l") != 0) {
    fprintf(stderr, "usage: edit_interop -l LIST\n");
    return 2;
  }
  FILE *f = fopen(argv[2], "r");
  if (!f) {
    perror(argv[2]);
    return 2;
  }
  char buf[8192];
  size_t line = 0;
  while (fgets(buf, sizeof buf, f)) {
    line++;
    buf[strcspn(buf, "\n")] = 0;
    char *sp = strchr(buf, ' ');
    if (!sp) continue;
    *sp = 0;
    for (int e = 0; e < N_EDITS; e++) one(line, buf, sp + 1, e);
    fflush(stdout);
  }
  fclose(f);
  return 0;
}
