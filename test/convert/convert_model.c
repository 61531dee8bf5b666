/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/* Converts a model's float tensors with libonnxslim, for test/steps/55-convert-ort.sh.
 *
 *   convert_model IN.onnx OUT.onnx MODE
 *
 * MODE:
 *   gather-bf16        the published recipe: every Gather table to BF16, round to
 *                      nearest even, Cast(to=FLOAT) after each Gather
 *                      (onnxslim_convert_gather_tables)
 *   gather-bf16-trunc  the same with truncation (the recipe's own rounding)
 *   all-fp16           every floating tensor to FP16, one Cast back to FLOAT
 *                      before its consumers (ONNXSLIM_CONVERT_POLICY_CAST_BEFORE)
 *   all-bf16           the same to BF16
 *
 * Prints one line per converted tensor:
 *   REPORT name from to bytes_before bytes_after count nan to_inf saturated flushed
 *          max_abs_error max_rel_error
 * and "TOTAL n bytes_before bytes_after". Exit status 0 on success, 1 on a
 * library error (message on stderr), 2 on usage errors. */
#include <stdio.h>
#include <string.h>

#include <onnxslim.h>

static int fail(const char *what) {
  fprintf(stderr, "convert_model: %s: %s (%s)\n", what, onnxslim_error_last(),
          onnxslim_strerror(onnxslim_error_last_code()));
  return 1;
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: convert_model IN.onnx OUT.onnx "
                    "gather-bf16|gather-bf16-trunc|all-fp16|all-bf16\n");
    return 2;
  }
  const char *mode = argv[3];
  onnxslim_model *m = NULL;
  if (onnxslim_model_open(&m, argv[1], NULL) != 0) return fail(argv[1]);
  onnxslim_convert_report *rep = NULL;
  int rc;
  if (strcmp(mode, "gather-bf16") == 0) {
    rc = onnxslim_convert_gather_tables(&rep, m, ONNXSLIM_DTYPE_BFLOAT16, 0, 0);
  } else if (strcmp(mode, "gather-bf16-trunc") == 0) {
    rc = onnxslim_convert_gather_tables(&rep, m, ONNXSLIM_DTYPE_BFLOAT16,
                                              0, ONNXSLIM_CONVERT_TRUNCATE);
  } else if (strcmp(mode, "all-fp16") == 0 || strcmp(mode, "all-bf16") == 0) {
    onnxslim_convert_options o;
    if (onnxslim_convert_options_init(&o, ONNXSLIM_CONVERT_OPTIONS_VERSION) != 0)
      return fail("options");
    o.to = strcmp(mode, "all-fp16") == 0 ? ONNXSLIM_DTYPE_FLOAT16 : ONNXSLIM_DTYPE_BFLOAT16;
    o.policy = ONNXSLIM_CONVERT_POLICY_CAST_BEFORE;
    o.select = NULL;
    o.n_select = 0; /* every floating tensor */
    rc = onnxslim_convert_model(&rep, m, &o);
  } else {
    fprintf(stderr, "convert_model: unknown mode '%s'\n", mode);
    onnxslim_model_free(m);
    return 2;
  }
  if (rc) {
    onnxslim_model_free(m);
    return fail("convert");
  }
  size_t n = onnxslim_convert_report_count(rep);
  unsigned long long tb = 0, ta = 0;
  for (size_t i = 0; i < n; i++) {
    const char *name = onnxslim_convert_report_name(rep, i);
    int32_t from = onnxslim_convert_report_from(rep, i), to = onnxslim_convert_report_to(rep, i);
    uint64_t before = 0, after = 0;
    onnxslim_convert_stats st = ONNXSLIM_CONVERT_STATS_INIT;
    if (!name || onnxslim_convert_report_bytes_before(rep, i, &before) != 0 ||
        onnxslim_convert_report_bytes_after(rep, i, &after) != 0 ||
        onnxslim_convert_report_add_stats(rep, i, &st) != 0) {
      onnxslim_convert_report_free(rep);
      onnxslim_model_free(m);
      return fail("report");
    }
    printf("REPORT %s %d %d %llu %llu %llu %llu %llu %llu %llu %.9g %.9g\n", name, (int)from,
           (int)to, (unsigned long long)before, (unsigned long long)after,
           (unsigned long long)st.count, (unsigned long long)st.nan,
           (unsigned long long)st.to_inf, (unsigned long long)st.saturated,
           (unsigned long long)st.flushed, st.max_abs_error, st.max_rel_error);
    tb += before;
    ta += after;
  }
  printf("TOTAL %zu %llu %llu\n", n, tb, ta);
  onnxslim_convert_report_free(rep);
  onnxslim_save_options so = ONNXSLIM_SAVE_OPTIONS_INIT;
  so.flags = ONNXSLIM_SAVE_NO_FSYNC;
  rc = onnxslim_save(NULL, m, argv[2], &so);
  onnxslim_model_free(m);
  if (rc) return fail(argv[2]);
  return 0;
}
