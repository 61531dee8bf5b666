/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/* A small driver over libonnxslim's external-data API for the shell steps
 * test/steps/56-external.sh and 57-external-large.sh.
 *
 *   ext_tool [OPTIONS] IN [OUT]
 *
 * Loads IN, optionally converts its Gather tables to BF16 (--convert), and
 * saves it to OUT: with onnxslim_save() (the default), or
 * with onnxslim_save() (--mode single). Prints, one per line:
 *   fingerprint HEX          of the loaded (and converted) model
 *   converted NAME FROM TO BYTES_BEFORE BYTES_AFTER    with --convert
 *   tensor NAME STATUS LOCATION OFFSET LENGTH          for each report entry
 *   kernel_copied N
 *   saved_fingerprint HEX    of OUT reloaded
 *   time load|convert|save|fingerprint SECONDS
 *
 * Options:
 *   --mode one|per|none|single   (default one)
 *   --threshold N  --align N  --location L
 *   --checksum --constants --force-shape --allow-large --no-fsync
 *   --convert      onnxslim_convert_gather_tables(BF16, min_size 0)
 *   --no-fingerprint   skip the fingerprints (they read every byte)
 * Exit status: 0 ok, 1 library error (message on stderr), 2 usage.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <onnxslim.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int fail(const char *what) {
  fprintf(stderr, "ext_tool: %s: %s (%s)\n", what, onnxslim_error_last(),
          onnxslim_strerror(onnxslim_error_last_code()));
  return 1;
}

static int usage(void) {
  fprintf(stderr, "usage: ext_tool [--mode one|per|none|single] [--threshold N] [--align N]\n"
                  "                [--location L] [--checksum] [--constants] [--force-shape]\n"
                  "                [--allow-large] [--no-fsync] [--convert] [--no-fingerprint]\n"
                  "                IN [OUT]\n");
  return 2;
}

static const char *status_name(int st) {
  switch (st) {
  case ONNXSLIM_SAVE_PLACEMENT_EXTERNAL: return "written";
  case ONNXSLIM_SAVE_PLACEMENT_BELOW_THRESHOLD: return "below_threshold";
  case ONNXSLIM_SAVE_PLACEMENT_SHAPE_INPUT: return "shape_input";
  case ONNXSLIM_SAVE_PLACEMENT_NO_LAYOUT: return "no_layout";
  default: return "unknown";
  }
}

int main(int argc, char **argv) {
  onnxslim_save_options eo;
  onnxslim_save_options_init(&eo, ONNXSLIM_SAVE_OPTIONS_VERSION);
  eo.layout = ONNXSLIM_LAYOUT_ONE_FILE;
  int single = 0, convert = 0, fingerprints = 1;
  const char *in = NULL, *out = NULL;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--mode") && i + 1 < argc) {
      const char *m = argv[++i];
      if (!strcmp(m, "one")) eo.layout = ONNXSLIM_LAYOUT_ONE_FILE;
      else if (!strcmp(m, "per")) eo.layout = ONNXSLIM_LAYOUT_PER_TENSOR;
      else if (!strcmp(m, "none")) eo.layout = ONNXSLIM_LAYOUT_INLINE;
      else if (!strcmp(m, "single")) single = 1;
      else return usage();
    } else if (!strcmp(a, "--threshold") && i + 1 < argc) {
      eo.size_threshold = strtoull(argv[++i], NULL, 10);
    } else if (!strcmp(a, "--align") && i + 1 < argc) {
      eo.align = strtoull(argv[++i], NULL, 10);
    } else if (!strcmp(a, "--location") && i + 1 < argc) {
      eo.location = argv[++i];
    } else if (!strcmp(a, "--checksum")) {
      eo.flags |= ONNXSLIM_SAVE_CHECKSUM;
    } else if (!strcmp(a, "--constants")) {
      eo.flags |= ONNXSLIM_SAVE_CONSTANTS;
    } else if (!strcmp(a, "--force-shape")) {
      eo.flags |= ONNXSLIM_SAVE_FORCE_SHAPE_INPUTS;
    } else if (!strcmp(a, "--allow-large")) {
      eo.flags |= ONNXSLIM_SAVE_ALLOW_LARGE;
    } else if (!strcmp(a, "--no-fsync")) {
      eo.flags |= ONNXSLIM_SAVE_NO_FSYNC;
    } else if (!strcmp(a, "--convert")) {
      convert = 1;
    } else if (!strcmp(a, "--no-fingerprint")) {
      fingerprints = 0;
    } else if (a[0] == '-' && a[1]) {
      return usage();
    } else if (!in) {
      in = a;
    } else if (!out) {
      out = a;
    } else {
      return usage();
    }
  }
  if (!in) return usage();

  double t = now();
  onnxslim_model *m = NULL;
  if (onnxslim_model_open(&m, in, NULL)) return fail("load");
  printf("time load %.3f\n", now() - t);
  if (convert) {
    t = now();
    onnxslim_convert_report *cr = NULL;
    if (onnxslim_convert_gather_tables(&cr, m, ONNXSLIM_DTYPE_BFLOAT16, 0, 0)) {
      onnxslim_model_free(m);
      return fail("convert");
    }
    printf("time convert %.3f\n", now() - t);
    for (size_t i = 0; i < onnxslim_convert_report_count(cr); i++) {
      uint64_t before = 0, after = 0;
      onnxslim_convert_report_bytes_before(cr, i, &before);
      onnxslim_convert_report_bytes_after(cr, i, &after);
      printf("converted %s %s %s %" PRIu64 " %" PRIu64 "\n", onnxslim_convert_report_name(cr, i),
             onnxslim_dtype_name(onnxslim_convert_report_from(cr, i)),
             onnxslim_dtype_name(onnxslim_convert_report_to(cr, i)), before, after);
    }
    onnxslim_convert_report_free(cr);
  }
  char fp[33];
  if (fingerprints) {
    t = now();
    if (onnxslim_fingerprint(fp, ONNXSLIM_FINGERPRINT_SIZE, m)) {
      onnxslim_model_free(m);
      return fail("fingerprint");
    }
    printf("time fingerprint %.3f\n", now() - t);
    printf("fingerprint %s\n", fp);
  }
  if (out) {
    t = now();
    if (single) {
      onnxslim_save_options so = ONNXSLIM_SAVE_OPTIONS_INIT;
      if (eo.flags & ONNXSLIM_SAVE_NO_FSYNC) so.flags |= ONNXSLIM_SAVE_NO_FSYNC;
      if (onnxslim_save(NULL, m, out, &so)) {
        onnxslim_model_free(m);
        return fail("save");
      }
    } else {
      onnxslim_save_report *r = NULL;
      if (onnxslim_save(&r, m, out, &eo)) {
        onnxslim_model_free(m);
        return fail("save_external");
      }
      for (size_t i = 0; i < onnxslim_save_report_count(r); i++) {
        const char *name = onnxslim_save_report_name(r, i);
        const char *loc = onnxslim_save_report_location(r, i);
        int st = onnxslim_save_report_placement(r, i);
        uint64_t off = 0, len = 0;
        onnxslim_save_report_offset(r, i, &off);
        onnxslim_save_report_length(r, i, &len);
        printf("tensor %s %s %s %" PRIu64 " %" PRIu64 "\n", name, status_name(st),
               loc ? loc : "-", off, len);
      }
      printf("kernel_copied %" PRIu64 "\n", onnxslim_save_report_kernel_copied(r));
      onnxslim_save_report_free(r);
    }
    printf("time save %.3f\n", now() - t);
  }
  onnxslim_model_free(m);
  if (out && fingerprints) {
    onnxslim_model *s = NULL;
    if (onnxslim_model_open(&s, out, NULL)) return fail("reload");
    int rc = onnxslim_fingerprint(fp, ONNXSLIM_FINGERPRINT_SIZE, s);
    onnxslim_model_free(s);
    if (rc) return fail("fingerprint of the saved model");
    printf("saved_fingerprint %s\n", fp);
  }
  return 0;
}
