/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/* Every pass of the library on a model as loaded (no cleanup first), each
 * on a fresh copy of the model: the check (every check, then some skipped),
 * toposort, remove_unused, every conversion (BF16, FP16, FP32, FP64 under
 * each policy, and the recipe's onnxslim_convert_gather_tables()), every
 * quantization form (INT8 and INT4, standard, onnxruntime and nibble
 * formats), Cast insertions after and before values the graph has, the
 * fingerprint, the diff (onnxslim_diff(): the model against a fresh load of
 * itself, which must be equal, and against a copy a conversion changed, both
 * ways, with and without storage), and saves in every layout.
 *
 * What each pass must do, whatever the model: return 0 or a negative
 * ONNXSLIM_E* code with a message; when it fails, leave the model as it
 * was (its serialized bytes unchanged); when it succeeds, leave a model
 * that serializes and loads again. Options come from 4 bytes (the fuzz
 * harness takes them from the input's first bytes). Used by
 * test/fuzz/fuzz_passes.c and test/test_nameless.c. */
#ifndef ONNXSLIM_TEST_PASSES_CORE_H
#define ONNXSLIM_TEST_PASSES_CORE_H
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <onnxslim.h>

#define PC_OPT_BYTES 4

typedef struct {
  char why[512]; /* the first broken rule, when pc_run() returns -1 */
  int passes;    /* passes run */
  int failed;    /* passes that refused (with an error: fine) */
} pc_result;

static int pc_fail(pc_result *r, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(r->why, sizeof r->why, fmt, ap);
  va_end(ap);
  return -1;
}

/* The model's bytes as onnxslim_save_buffer() writes them; NULL with
 * *n = 0 when it cannot (the error set). */
static uint8_t *pc_bytes(const onnxslim_model *m, size_t *n) {
  size_t need = 0, got = 0;
  *n = 0;
  if (onnxslim_save_buffer(m, NULL, 0, &need) != ONNXSLIM_EBUFSIZE) return NULL;
  uint8_t *p = malloc(need ? need : 1);
  if (!p) abort();
  if (onnxslim_save_buffer(m, p, need, &got) != 0 || got != need) {
    free(p);
    return NULL;
  }
  *n = got;
  return p;
}

/* The rules after pass `what` returned rc on m (before: its bytes first). */
static int pc_after(pc_result *r, const char *what, int rc, onnxslim_model *m,
                    const uint8_t *before, size_t nbefore) {
  r->passes++;
  if (rc > 0) return pc_fail(r, "%s: returned %d", what, rc);
  if (rc < 0) {
    r->failed++;
    if (!onnxslim_error_last()[0]) return pc_fail(r, "%s: error %d without a message", what, rc);
    if (rc == ONNXSLIM_ENOMEM) return 0; /* a limit, not a rule */
    char err[256];
    snprintf(err, sizeof err, "%s", onnxslim_error_last());
    size_t n;
    uint8_t *now = pc_bytes(m, &n);
    int same = now && n == nbefore && memcmp(now, before, n) == 0;
    free(now);
    if (!same) return pc_fail(r, "%s failed (%d: %s) but changed the model", what, rc, err);
    return 0;
  }
  size_t n;
  uint8_t *now = pc_bytes(m, &n);
  if (!now)
    return pc_fail(r, "%s succeeded, then the model does not serialize: %s", what,
                   onnxslim_error_last());
  onnxslim_model *again = NULL;
  int lrc = onnxslim_model_from_buffer(&again, now, n, ONNXSLIM_BORROW, NULL);
  char err[256];
  snprintf(err, sizeof err, "%s", onnxslim_error_last());
  onnxslim_model_free(again);
  free(now);
  if (lrc) return pc_fail(r, "%s succeeded, then the model does not load again: %s", what, err);
  return 0;
}

/* A fresh model from the input; NULL when it does not load. */
static onnxslim_model *pc_load(const uint8_t *data, size_t size) {
  onnxslim_model *m = NULL;
  if (onnxslim_model_from_buffer(&m, data, size, ONNXSLIM_BORROW, NULL) != 0) return NULL;
  return m;
}

static const char *pc_first_input(onnxslim_model *m) {
  onnxslim_graph *g = onnxslim_model_graph(m);
  return onnxslim_graph_input_count(g) ? onnxslim_value_info_name(onnxslim_graph_input(g, 0))
                                       : NULL;
}

/* Runs every pass on the model in data[0..size) with options opt[0..3]:
 *   opt[0]: conversion flags (bit 0 truncate for BF16, 1 saturate, 2 flush),
 *           bit 3 a report, bits 4-5 the selection (all, op:Gather:0, "*",
 *           op:MatMul:1), bit 6 min_size 64, bit 7 toposort not recursive
 *   opt[1]: quantization: bits 0-1 block size (0, 16, 32, 2), bit 2
 *           asymmetric, bit 3 unpacked INT4 allowed, bits 4-5 scale type
 *           (own, FLOAT, FLOAT16, own), bits 6-7 clip (0, 50, 99.9, 0)
 *   opt[2]: saves: bits 0-1 threshold (0, 16, 1024, 2^40), bit 2
 *           constants, bit 3 checksum, bit 4 shape inputs too, bit 5
 *           keep storage, bits 6-7 alignment (1, 64, 4096, default)
 *   opt[3]: which node and input the insertions pick, which checks are
 *           skipped in the second check
 * dir: an existing directory the saves write into (emptied by the caller).
 * Returns 0, or -1 with r->why saying which rule broke. */
static int pc_run(pc_result *r, const uint8_t *opt, const uint8_t *data, size_t size,
                  const char *dir) {
  memset(r, 0, sizeof *r);
  onnxslim_model *m = pc_load(data, size);
  if (!m) {
    if (!onnxslim_error_last()[0]) return pc_fail(r, "load failed without a message");
    return 0;
  }
  size_t n0;
  uint8_t *b0 = pc_bytes(m, &n0);
  onnxslim_model_free(m);
  if (!b0) return 0; /* e.g. a tensor whose bytes do not match its dims */
  int rc = 0;
#define PC_PASS(what, call)                                   \
  do {                                                        \
    if (rc) break;                                            \
    onnxslim_model *pm = pc_load(data, size);                 \
    if (!pm) {                                                \
      rc = pc_fail(r, "%s: the model no longer loads", what); \
      break;                                                  \
    }                                                         \
    int prc = (call);                                         \
    rc = pc_after(r, what, prc, pm, b0, n0);                  \
    onnxslim_model_free(pm);                                  \
  } while (0)
#define PM pm
#define PG onnxslim_model_graph(pm)

  /* ---- the check ---- */
  {
    onnxslim_model *pm = pc_load(data, size);
    onnxslim_check_report *rep = NULL;
    int crc = pm ? onnxslim_check(&rep, pm, 0) : -1;
    if (!pm) rc = pc_fail(r, "check: the model no longer loads");
    else if (crc != 0 && (rep || onnxslim_error_last_code() != ONNXSLIM_ENOMEM))
      rc = pc_fail(r, "check failed: %s", onnxslim_error_last());
    for (size_t i = 0; !rc && i < onnxslim_check_report_count(rep); i++)
      if (onnxslim_check_report_code(rep, i) <= 0 || !onnxslim_check_report_location(rep, i) ||
          !onnxslim_check_report_message(rep, i) || !onnxslim_check_report_message(rep, i)[0])
        rc = pc_fail(r, "check: entry %zu malformed", i);
    onnxslim_check_report_free(rep);
    if (!rc) rc = pc_after(r, "check", 0, pm, b0, n0);
    int skip[2] = {1 + opt[3] % ONNXSLIM_CHECK_CODE_MAX,
                   1 + (opt[3] / 16) % ONNXSLIM_CHECK_CODE_MAX};
    onnxslim_check_options co = ONNXSLIM_CHECK_OPTIONS_INIT;
    co.skip = skip;
    co.n_skip = 2;
    rep = NULL;
    if (!rc && pm && onnxslim_check_with(&rep, pm, &co) != 0 &&
        onnxslim_error_last_code() != ONNXSLIM_ENOMEM)
      rc = pc_fail(r, "check with skips failed: %s", onnxslim_error_last());
    onnxslim_check_report_free(rep);
    onnxslim_model_free(pm);
  }

  /* ---- cleanup ---- */
  unsigned int cflags = opt[0] & 0x80 ? 0 : ONNXSLIM_CLEANUP_RECURSIVE;
  PC_PASS("toposort", onnxslim_cleanup_toposort(PG, cflags));
  PC_PASS("remove_unused", onnxslim_cleanup_remove_unused(PG, cflags, NULL));

  /* ---- conversions ---- */
  static const char *const sel_all[] = {"op:Gather:0"}, *const sel_star[] = {"*"},
                           *const sel_mm[] = {"op:MatMul:1"};
  const char *const *sels[] = {NULL, sel_all, sel_star, sel_mm};
  static const int32_t fl_to[] = {ONNXSLIM_DTYPE_BFLOAT16, ONNXSLIM_DTYPE_FLOAT16,
                                  ONNXSLIM_DTYPE_FLOAT, ONNXSLIM_DTYPE_DOUBLE};
  static const int policies[] = {ONNXSLIM_CONVERT_POLICY_CAST_AFTER_GATHER,
                                 ONNXSLIM_CONVERT_POLICY_CAST_BEFORE,
                                 ONNXSLIM_CONVERT_POLICY_STORAGE_ONLY};
  for (size_t t = 0; t < 4 && !rc; t++)
    for (size_t p = 0; p < 3 && !rc; p++) {
      onnxslim_convert_options o = ONNXSLIM_CONVERT_OPTIONS_INIT;
      o.to = fl_to[t];
      o.policy = policies[p];
      o.flags = opt[0] & 6u;
      if ((opt[0] & 1u) && o.to == ONNXSLIM_DTYPE_BFLOAT16) o.flags |= ONNXSLIM_CONVERT_TRUNCATE;
      o.select = sels[(opt[0] >> 4) & 3];
      o.n_select = o.select ? 1 : 0;
      o.min_size = opt[0] & 0x40 ? 64 : 0;
      onnxslim_convert_report *rep = NULL;
      char what[64];
      snprintf(what, sizeof what, "convert to %s, policy %d", onnxslim_dtype_name(o.to), o.policy);
      PC_PASS(what, onnxslim_convert_model(opt[0] & 8 ? &rep : NULL, PM, &o));
      onnxslim_convert_report_free(rep);
    }
  PC_PASS("gather tables to BF16",
          onnxslim_convert_gather_tables(NULL, PM, ONNXSLIM_DTYPE_BFLOAT16, 0, opt[0] & 1u));
  PC_PASS("gather tables to FP16",
          onnxslim_convert_gather_tables(NULL, PM, ONNXSLIM_DTYPE_FLOAT16, 0, opt[0] & 2u));

  /* ---- quantizations ---- */
  static const uint64_t blocks[] = {0, 16, 32, 2};
  static const int32_t scales[] = {0, ONNXSLIM_DTYPE_FLOAT, ONNXSLIM_DTYPE_FLOAT16, 0};
  static const double clips[] = {0, 50, 99.9, 0};
  static const int formats[] = {ONNXSLIM_QUANT_FORMAT_STANDARD, ONNXSLIM_QUANT_FORMAT_ORT,
                                ONNXSLIM_QUANT_FORMAT_NIBBLES};
  for (int q = 0; q < 2 && !rc; q++)
    for (size_t f = 0; f < 3 && !rc; f++) {
      onnxslim_quant_options o = ONNXSLIM_QUANT_OPTIONS_INIT;
      o.to = q ? ONNXSLIM_DTYPE_INT4 : ONNXSLIM_DTYPE_INT8;
      o.format = formats[f];
      o.block_size = blocks[opt[1] & 3];
      o.flags = (opt[1] & 4 ? ONNXSLIM_QUANT_ASYMMETRIC : 0u) |
                (opt[1] & 8 ? ONNXSLIM_QUANT_ALLOW_UNPACKED : 0u);
      o.scale_type = scales[(opt[1] >> 4) & 3];
      o.clip_percentile = clips[(opt[1] >> 6) & 3];
      o.select = sels[(opt[0] >> 4) & 3];
      o.n_select = o.select ? 1 : 0;
      onnxslim_quant_report *rep = NULL;
      char what[64];
      snprintf(what, sizeof what, "quantize to %s, format %d", onnxslim_dtype_name(o.to), o.format);
      PC_PASS(what, onnxslim_quantize(opt[0] & 8 ? &rep : NULL, PM, &o));
      onnxslim_quant_report_free(rep);
    }

  /* ---- insertions: after the first graph input, after a node's output,
   * before a node's input ---- */
  PC_PASS("Cast after the first input",
          pc_first_input(PM) ? onnxslim_insert_cast_after(PG, pc_first_input(PM),
                                                          ONNXSLIM_DTYPE_FLOAT, NULL, 0, NULL, NULL)
                             : 0);
  {
    onnxslim_model *pm = pc_load(data, size);
    size_t nn = pm ? onnxslim_graph_node_count(onnxslim_model_graph(pm)) : 0;
    onnxslim_model_free(pm);
    size_t pick = nn ? opt[3] % nn : 0;
#define PC_NODE onnxslim_graph_node(PG, pick)
    if (nn) {
      PC_PASS("Identity after a node's output",
              onnxslim_node_output_count(PC_NODE)
                  ? onnxslim_insert_after(PG, onnxslim_node_output(PC_NODE, 0), "Identity", NULL,
                                          NULL, 0, NULL, NULL)
                  : 0);
      PC_PASS("Cast before a node's input",
              onnxslim_node_input_count(PC_NODE)
                  ? onnxslim_insert_cast_before(PG, PC_NODE,
                                                (opt[3] >> 4) % onnxslim_node_input_count(PC_NODE),
                                                ONNXSLIM_DTYPE_FLOAT16, NULL, NULL)
                  : 0);
    }
#undef PC_NODE
  }

  /* ---- the fingerprint ---- */
  {
    char fp[ONNXSLIM_FINGERPRINT_SIZE];
    PC_PASS("fingerprint", onnxslim_fingerprint(fp, sizeof fp, PM));
  }

  /* ---- the diff: against itself (equal), and against a converted copy
   * (both ways); the models stay as they were, the entries well formed ---- */
  if (!rc) {
    onnxslim_model *a = pc_load(data, size), *b = pc_load(data, size);
    onnxslim_diff_report *dr = NULL;
    if (!a || !b) rc = pc_fail(r, "diff: the model no longer loads");
    int drc = rc ? 0 : onnxslim_diff(&dr, a, b, NULL);
    r->passes++;
    if (!rc && drc != 0 && (drc > 0 || !onnxslim_error_last()[0] || dr))
      rc = pc_fail(r, "diff of the model with itself: bad failure %d", drc);
    if (!rc && drc == 0 && onnxslim_diff_report_count(dr) != 0)
      rc = pc_fail(r, "diff of the model with itself: %zu differences, first: %s",
                   onnxslim_diff_report_count(dr), onnxslim_diff_report_text(dr, 0));
    if (drc != 0) r->failed++;
    onnxslim_diff_report_free(dr);
    dr = NULL;
    if (!rc && b) {
      /* a copy changed by a conversion the options pick (it may refuse) */
      static const int32_t tos[] = {ONNXSLIM_DTYPE_FLOAT16, ONNXSLIM_DTYPE_BFLOAT16,
                                    ONNXSLIM_DTYPE_INT8, ONNXSLIM_DTYPE_INT4};
      int32_t to = tos[opt[1] & 3];
      if (to == ONNXSLIM_DTYPE_INT8 || to == ONNXSLIM_DTYPE_INT4) {
        onnxslim_quant_options qo = ONNXSLIM_QUANT_OPTIONS_INIT;
        onnxslim_quant_report *qr = NULL;
        qo.to = to;
        qo.format = (opt[1] >> 2) % 3;
        qo.flags = opt[1] & 32 ? ONNXSLIM_QUANT_ASYMMETRIC : 0u;
        onnxslim_quantize(&qr, b, &qo);
        onnxslim_quant_report_free(qr);
      } else {
        onnxslim_convert_options co = ONNXSLIM_CONVERT_OPTIONS_INIT;
        onnxslim_convert_report *cr = NULL;
        co.to = to;
        co.overflow = ONNXSLIM_CONVERT_OVERFLOW_CONVERT;
        onnxslim_convert_model(&cr, b, &co);
        onnxslim_convert_report_free(cr);
      }
      for (int way = 0; way < 2 && !rc; way++) {
        onnxslim_diff_options dopt = ONNXSLIM_DIFF_OPTIONS_INIT;
        const onnxslim_model *x = way ? b : a, *y = way ? a : b;
        size_t nx0, nx1;
        uint8_t *bx0 = pc_bytes(x, &nx0), *bx1;
        dopt.flags = opt[1] & 64 ? ONNXSLIM_DIFF_COMPARE_STORAGE : 0u;
        drc = onnxslim_diff(&dr, x, y, &dopt);
        r->passes++;
        if (drc != 0) {
          r->failed++;
          if (drc > 0 || !onnxslim_error_last()[0] || dr)
            rc = pc_fail(r, "diff with a converted copy: bad failure %d", drc);
        }
        for (size_t i = 0; !rc && i < onnxslim_diff_report_count(dr); i++) {
          int k = onnxslim_diff_report_kind(dr, i), asp = onnxslim_diff_report_aspect(dr, i);
          onnxslim_diff_numbers num = ONNXSLIM_DIFF_NUMBERS_INIT;
          const char *t = onnxslim_diff_report_text(dr, i);
          if (k < 1 || k > ONNXSLIM_DIFF_KIND_MAX || asp < 1 || asp > ONNXSLIM_DIFF_ASPECT_MAX ||
              !t || !t[0] || !onnxslim_diff_report_graph(dr, i) ||
              !onnxslim_diff_report_name(dr, i) || !onnxslim_diff_report_label(dr, i))
            rc = pc_fail(r, "diff: entry %zu malformed", i);
          else if (onnxslim_diff_report_numbers(dr, i, &num) == 0 &&
                   (num.differing > num.elements || num.nan_mismatches > num.differing ||
                    num.max_abs_diff < 0))
            rc = pc_fail(r, "diff: entry %zu: numbers out of range (%s)", i, t);
        }
        if (!rc && drc == 0 &&
            (!onnxslim_diff_report_fingerprint(dr, ONNXSLIM_DIFF_A) ||
             strlen(onnxslim_diff_report_fingerprint(dr, ONNXSLIM_DIFF_A)) != 32))
          rc = pc_fail(r, "diff: no fingerprint");
        onnxslim_diff_report_free(dr);
        dr = NULL;
        /* the diff reads; it changes neither model */
        bx1 = pc_bytes(x, &nx1);
        if (!rc && bx0 && (!bx1 || nx0 != nx1 || memcmp(bx0, bx1, nx0) != 0))
          rc = pc_fail(r, "diff changed model %c", way ? 'B' : 'A');
        free(bx0);
        free(bx1);
      }
    }
    onnxslim_model_free(a);
    onnxslim_model_free(b);
  }

  /* ---- saves in every layout ---- */
  static const uint64_t thresholds[] = {0, 16, 1024, (uint64_t)1 << 40};
  static const uint64_t aligns[] = {1, 64, 4096, 0};
  static const int layouts[] = {ONNXSLIM_LAYOUT_AS_LOADED, ONNXSLIM_LAYOUT_ONE_FILE,
                                ONNXSLIM_LAYOUT_PER_TENSOR, ONNXSLIM_LAYOUT_INLINE};
  for (size_t l = 0; l < 4 && !rc; l++) {
    onnxslim_save_options so = ONNXSLIM_SAVE_OPTIONS_INIT;
    so.layout = layouts[l];
    so.flags = ONNXSLIM_SAVE_NO_FSYNC;
    if (so.layout == ONNXSLIM_LAYOUT_ONE_FILE || so.layout == ONNXSLIM_LAYOUT_PER_TENSOR) {
      so.size_threshold = thresholds[opt[2] & 3];
      so.flags |= (opt[2] & 4 ? ONNXSLIM_SAVE_CONSTANTS : 0u) |
                  (opt[2] & 8 ? ONNXSLIM_SAVE_CHECKSUM : 0u) |
                  (opt[2] & 16 ? ONNXSLIM_SAVE_FORCE_SHAPE_INPUTS : 0u) |
                  (opt[2] & 32 ? ONNXSLIM_SAVE_KEEP_STORAGE : 0u);
      so.align = aligns[(opt[2] >> 6) & 3];
    }
    char path[512], what[64];
    snprintf(path, sizeof path, "%s/saved%zu.onnx", dir, l);
    snprintf(what, sizeof what, "save in layout %d", so.layout);
    onnxslim_model *pm = pc_load(data, size);
    int src = pm ? onnxslim_save(NULL, pm, path, &so) : -1;
    if (!pm) rc = pc_fail(r, "%s: the model no longer loads", what);
    else rc = pc_after(r, what, src, pm, b0, n0);
    if (!rc && src == 0) {
      /* what was saved loads again, with the same fingerprint */
      char fa[ONNXSLIM_FINGERPRINT_SIZE], fb[ONNXSLIM_FINGERPRINT_SIZE];
      onnxslim_model *back = NULL;
      int frc = onnxslim_fingerprint(fa, sizeof fa, pm);
      if (onnxslim_model_open(&back, path, NULL) != 0)
        rc = pc_fail(r, "%s: the saved model does not load: %s", what, onnxslim_error_last());
      else if (frc == 0 && (onnxslim_fingerprint(fb, sizeof fb, back) != 0 || strcmp(fa, fb) != 0))
        rc = pc_fail(r, "%s: the saved model's fingerprint differs", what);
      onnxslim_model_free(back);
    }
    onnxslim_model_free(pm);
  }
#undef PC_PASS
#undef PM
#undef PG
  free(b0);
  return rc;
}
#endif
