/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * recipe.c - the published recipe with the C API: every embedding table
 * (input 0 of a Gather) stored as BFLOAT16, truncated, with a Cast back to
 * FLOAT after each Gather; saved with all tensors in one external data file,
 * plus a single-file copy. Writes the same files as
 *   libonnxslim convert IN OUT --gather-to bf16 --round truncate --external-data \
 *       --threshold 0 --location STEM.bin --also-single-file DIR/STEM_single.onnx
 *
 *   cc recipe.c $(pkg-config --cflags --libs libonnxslim) -o recipe
 *   ./recipe model.onnx out.onnx      (out.onnx, out.bin, out_single.onnx)
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <onnxslim.h>

int main(int argc, char **argv) {
  onnxslim_model *model = NULL;
  onnxslim_convert_report *report = NULL;
  onnxslim_save_options ext = ONNXSLIM_SAVE_OPTIONS_INIT, single = ONNXSLIM_SAVE_OPTIONS_INIT;
  char stem[4096], bin[sizeof stem + 4], copy[sizeof stem + 16], fp[ONNXSLIM_FINGERPRINT_SIZE];
  char *name, *dot;
  size_t i;
  int status = 1;

  if (argc != 3 || strlen(argv[2]) >= sizeof stem) {
    fprintf(stderr, "usage: %s IN.onnx OUT.onnx\n", argv[0]);
    return 2;
  }
  /* STEM: OUT without its extension. The data file is STEM's file name plus
   * .bin (named relative to OUT's directory), the copy STEM_single.onnx. */
  snprintf(stem, sizeof stem, "%s", argv[2]);
  name = strrchr(stem, '/') ? strrchr(stem, '/') + 1 : stem;
  if ((dot = strrchr(name, '.')) && dot > name) *dot = '\0';
  snprintf(bin, sizeof bin, "%s.bin", name);
  snprintf(copy, sizeof copy, "%s_single.onnx", stem);

  if (onnxslim_model_open(&model, argv[1], NULL) != ONNXSLIM_OK) goto out;
  /* 1. the Gather tables to BF16 (truncated), a Cast to FLOAT after each Gather */
  if (onnxslim_convert_gather_tables(&report, model, ONNXSLIM_DTYPE_BFLOAT16, 0,
                                     ONNXSLIM_CONVERT_TRUNCATE) != ONNXSLIM_OK)
    goto out;
  for (i = 0; i < onnxslim_convert_report_count(report); i++) {
    uint64_t before = 0, after = 0;
    onnxslim_convert_stats st = ONNXSLIM_CONVERT_STATS_INIT;
    onnxslim_convert_report_bytes_before(report, i, &before);
    onnxslim_convert_report_bytes_after(report, i, &after);
    onnxslim_convert_report_add_stats(report, i, &st);
    printf("%s: %s -> %s, %" PRIu64 " -> %" PRIu64 " bytes, max error %.3g\n",
           onnxslim_convert_report_name(report, i),
           onnxslim_dtype_name(onnxslim_convert_report_from(report, i)),
           onnxslim_dtype_name(onnxslim_convert_report_to(report, i)), before, after,
           st.max_abs_error);
  }
  /* 2. every tensor in one external data file (threshold 0) */
  ext.layout = ONNXSLIM_LAYOUT_ONE_FILE;
  ext.size_threshold = 0;
  ext.location = bin;
  if (onnxslim_save(NULL, model, argv[2], &ext) != ONNXSLIM_OK) goto out;
  /* 3. a single-file copy: a save leaves the model in memory as it was */
  single.layout = ONNXSLIM_LAYOUT_INLINE;
  if (onnxslim_save(NULL, model, copy, &single) != ONNXSLIM_OK) goto out;
  if (onnxslim_fingerprint(fp, sizeof fp, model) != ONNXSLIM_OK) goto out;
  printf("wrote %s (+ %s) and %s; fingerprint %s\n", argv[2], bin, copy, fp);
  status = 0;
out:
  if (status) fprintf(stderr, "recipe: %s\n", onnxslim_error_last());
  onnxslim_convert_report_free(report);
  onnxslim_model_free(model);
  return status;
}
