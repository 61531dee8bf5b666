/* A small driver over libonnxslim's external-data API for the shell steps
 * test/steps/56-external.sh and 57-external-large.sh.
 *
 *   ext_tool [OPTIONS] IN [OUT]
 *
 * Loads IN, optionally converts its Gather tables to BF16 (--convert), and
 * saves it to OUT: with onnxslim_model_save_external() (the default), or
 * with onnxslim_model_save() (--mode single). Prints, one per line:
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
  case ONNXSLIM_EXTERNAL_WRITTEN: return "written";
  case ONNXSLIM_EXTERNAL_BELOW_THRESHOLD: return "below_threshold";
  case ONNXSLIM_EXTERNAL_SHAPE_INPUT: return "shape_input";
  case ONNXSLIM_EXTERNAL_NO_LAYOUT: return "no_layout";
  default: return "unknown";
  }
}

int main(int argc, char **argv) {
  onnxslim_external_options eo;
  onnxslim_external_options_init(&eo, ONNXSLIM_EXTERNAL_OPTIONS_VERSION);
  int single = 0, convert = 0, fingerprints = 1;
  const char *in = NULL, *out = NULL;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--mode") && i + 1 < argc) {
      const char *m = argv[++i];
      if (!strcmp(m, "one")) eo.mode = ONNXSLIM_EXTERNAL_ONE_FILE;
      else if (!strcmp(m, "per")) eo.mode = ONNXSLIM_EXTERNAL_PER_TENSOR;
      else if (!strcmp(m, "none")) eo.mode = ONNXSLIM_EXTERNAL_NONE;
      else if (!strcmp(m, "single")) single = 1;
      else return usage();
    } else if (!strcmp(a, "--threshold") && i + 1 < argc) {
      eo.size_threshold = strtoull(argv[++i], NULL, 10);
    } else if (!strcmp(a, "--align") && i + 1 < argc) {
      eo.align = strtoull(argv[++i], NULL, 10);
    } else if (!strcmp(a, "--location") && i + 1 < argc) {
      eo.location = argv[++i];
    } else if (!strcmp(a, "--checksum")) {
      eo.flags |= ONNXSLIM_EXTERNAL_CHECKSUM;
    } else if (!strcmp(a, "--constants")) {
      eo.flags |= ONNXSLIM_EXTERNAL_CONSTANTS;
    } else if (!strcmp(a, "--force-shape")) {
      eo.flags |= ONNXSLIM_EXTERNAL_FORCE_SHAPE_INPUTS;
    } else if (!strcmp(a, "--allow-large")) {
      eo.flags |= ONNXSLIM_EXTERNAL_ALLOW_LARGE;
    } else if (!strcmp(a, "--no-fsync")) {
      eo.flags |= ONNXSLIM_EXTERNAL_NO_FSYNC;
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
    if (onnxslim_model_fingerprint(m, fp)) {
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
      if (eo.flags & ONNXSLIM_EXTERNAL_NO_FSYNC) so.flags |= ONNXSLIM_SAVE_NO_FSYNC;
      if (onnxslim_model_save(m, out, &so)) {
        onnxslim_model_free(m);
        return fail("save");
      }
    } else {
      onnxslim_external_report *r = NULL;
      if (onnxslim_model_save_external(m, out, &eo, &r)) {
        onnxslim_model_free(m);
        return fail("save_external");
      }
      for (size_t i = 0; i < onnxslim_external_report_count(r); i++) {
        const char *name, *loc;
        int st;
        uint64_t off, len;
        onnxslim_external_report_entry(r, i, &name, &st, &loc, &off, &len);
        printf("tensor %s %s %s %" PRIu64 " %" PRIu64 "\n", name, status_name(st),
               loc ? loc : "-", off, len);
      }
      printf("kernel_copied %" PRIu64 "\n", onnxslim_external_report_kernel_copied(r));
      onnxslim_external_report_free(r);
    }
    printf("time save %.3f\n", now() - t);
  }
  onnxslim_model_free(m);
  if (out && fingerprints) {
    onnxslim_model *s = NULL;
    if (onnxslim_model_open(&s, out, NULL)) return fail("reload");
    int rc = onnxslim_model_fingerprint(s, fp);
    onnxslim_model_free(s);
    if (rc) return fail("fingerprint of the saved model");
    printf("saved_fingerprint %s\n", fp);
  }
  return 0;
}
