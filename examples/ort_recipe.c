/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * ort_recipe.c - the published recipe applied in memory and run by
 * onnxruntime's C API, with no file written and no weight copied:
 *
 *   1. onnxslim_model_open() maps the model (the reranker of
 *      bench/make_reranker.c: inputs input_ids and attention_mask, int64
 *      [batch, seq], output logits);
 *   2. the Gather tables (the embedding) to BFLOAT16 with a Cast back to
 *      FLOAT after each Gather, as `libonnxslim convert --gather-to bf16`
 *      does (onnxslim_convert_gather_tables_with(), default options);
 *   3. onnxslim_save_buffer_external() serializes the graph alone, every
 *      tensor of at least 1 KiB left out as external data at offset 0 of a
 *      location of its own (layout PER_TENSOR);
 *   4. onnxruntime gets that buffer (CreateSessionFromArray) and each
 *      tensor left out as an OrtValue over its bytes where they are
 *      (CreateTensorWithDataAsOrtValue, AddInitializer): onnxslim_tensor_data()
 *      points into the mapped model file, or for the converted table into
 *      memory the model owns, so the model outlives the session;
 *   5. a fixed batch of 4 sequences of 16 tokens (ids below 20000) is run
 *      and the logits printed, with their bits, then the process's peak RSS
 *      (VmHWM) and its anonymous and file-backed parts at the end.
 *
 *   ort_recipe MODEL.onnx                   the recipe in memory (above)
 *   ort_recipe --files-in-memory MODEL.onnx the same, but the bytes given
 *       per location with AddExternalInitializersFromFilesInMemory
 *       (onnxruntime >= 1.18's API), which onnxruntime 1.21 copies
 *   ort_recipe --from-files RECIPE.onnx     onnxruntime loads the files
 *       `libonnxslim convert MODEL.onnx RECIPE.onnx --gather-to bf16
 *       --external-data` wrote; the same inputs, the same output lines:
 *       the logits lines of the runs are equal.
 *
 * Build (needs onnxruntime's C headers, e.g. Debian's libonnxruntime-dev):
 *   cc -std=c11 ort_recipe.c $(pkg-config --cflags --libs libonnxslim libonnxruntime) -o ort_recipe
 * or `make ort-recipe` in the source tree.
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <onnxruntime_c_api.h>
#include <onnxslim.h>

enum { BATCH = 4, SEQ = 16, MAX_ID = 20000 };

static const OrtApi *ort;

/* 0, or 1 after printing onnxruntime's message */
static int ort_failed(OrtStatus *st, const char *what) {
  if (!st) return 0;
  fprintf(stderr, "ort_recipe: %s: %s\n", what, ort->GetErrorMessage(st));
  ort->ReleaseStatus(st);
  return 1;
}

static int lib_failed(int rc, const char *what) {
  if (rc == ONNXSLIM_OK) return 0;
  fprintf(stderr, "ort_recipe: %s: %s\n", what, onnxslim_error_last());
  return 1;
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* the value of "KEY: N kB" in a /proc file, in kB (-1 when absent) */
static long proc_kb(const char *file, const char *key) {
  char line[256];
  long v = -1;
  size_t n = strlen(key);
  FILE *f = fopen(file, "r");
  if (!f) return -1;
  while (fgets(line, sizeof line, f))
    if (strncmp(line, key, n) == 0 && line[n] == ':') {
      v = strtol(line + n + 1, NULL, 10);
      break;
    }
  fclose(f);
  return v;
}

static void print_rss(void) {
  long hwm = proc_kb("/proc/self/status", "VmHWM");
  long rss = proc_kb("/proc/self/smaps_rollup", "Rss");
  long anon = proc_kb("/proc/self/smaps_rollup", "Anonymous");
  printf(
      "rss peak %.1f MiB (VmHWM); at the end %.1f MiB: anonymous %.1f + file-backed %.1f "
      "(smaps_rollup)\n",
      hwm / 1024.0, rss / 1024.0, anon / 1024.0, (rss - anon) / 1024.0);
}

/* The recipe in memory: the graph in *proto (malloc'ed), and per location
 * left out its bytes, borrowed from the model. */
typedef struct {
  size_t n;
  char **names; /* borrowed from the report */
  char **data;  /* borrowed from the model */
  size_t *lengths;
  onnxslim_tensor **tensors; /* borrowed from the model */
} ext_files;

static int recipe_in_memory(onnxslim_model *model, onnxslim_save_report **rep, void **proto,
                            size_t *proto_size, ext_files *ext) {
  onnxslim_convert_report *crep = NULL;
  onnxslim_save_options so = ONNXSLIM_SAVE_OPTIONS_INIT;
  onnxslim_graph *g = onnxslim_model_graph(model);
  size_t i, count;

  /* 2. Gather tables to BF16, a Cast to FLOAT after each Gather */
  if (lib_failed(onnxslim_convert_gather_tables_with(&crep, model, NULL), "convert")) return 1;
  for (i = 0; i < onnxslim_convert_report_count(crep); i++)
    printf("converted %s: %s -> %s\n", onnxslim_convert_report_name(crep, i),
           onnxslim_dtype_name(onnxslim_convert_report_from(crep, i)),
           onnxslim_dtype_name(onnxslim_convert_report_to(crep, i)));
  onnxslim_convert_report_free(crep);

  /* 3. the graph alone, the tensors left out, one location each */
  so.layout = ONNXSLIM_LAYOUT_PER_TENSOR;
  if (onnxslim_save_buffer_external(NULL, model, NULL, 0, proto_size, &so) != ONNXSLIM_EBUFSIZE)
    return lib_failed(ONNXSLIM_EINVAL, "size of the graph");
  if (!(*proto = malloc(*proto_size))) return lib_failed(ONNXSLIM_ENOMEM, "graph buffer");
  if (lib_failed(onnxslim_save_buffer_external(rep, model, *proto, *proto_size, proto_size, &so),
                 "graph to a buffer"))
    return 1;

  /* each tensor left out: its bytes where the model has them */
  count = onnxslim_save_report_count(*rep);
  ext->names = calloc(count ? count : 1, sizeof *ext->names);
  ext->data = calloc(count ? count : 1, sizeof *ext->data);
  ext->lengths = calloc(count ? count : 1, sizeof *ext->lengths);
  ext->tensors = calloc(count ? count : 1, sizeof *ext->tensors);
  if (!ext->names || !ext->data || !ext->lengths || !ext->tensors)
    return lib_failed(ONNXSLIM_ENOMEM, "lists");
  for (i = 0; i < count; i++) {
    const char *name = onnxslim_save_report_name(*rep, i);
    const char *loc = onnxslim_save_report_location(*rep, i);
    onnxslim_tensor *t;
    const void *p;
    size_t size;
    uint64_t offset = 0, length = 0;
    if (!loc) continue; /* kept inline */
    onnxslim_save_report_offset(*rep, i, &offset);
    onnxslim_save_report_length(*rep, i, &length);
    /* without the CONSTANTS flag only initializers go out; this example
     * looks for them in the main graph (a subgraph's are in its graph) */
    if (!(t = onnxslim_graph_find_initializer(g, name))) {
      fprintf(stderr, "ort_recipe: %s: not an initializer of the main graph\n", name);
      return 1;
    }
    if (lib_failed(onnxslim_tensor_data(t, &p, &size), name)) return 1;
    if (offset != 0 || length != size) {
      fprintf(stderr, "ort_recipe: %s: %zu bytes, the graph says %" PRIu64 " at %" PRIu64 "\n",
              name, size, length, offset);
      return 1;
    }
    ext->names[ext->n] = (char *)loc;
    /* onnxruntime's signature takes char *; it only reads them */
    ext->data[ext->n] = (char *)(uintptr_t)p;
    ext->lengths[ext->n] = size;
    ext->tensors[ext->n] = t;
    ext->n++;
  }
  return 0;
}

int main(int argc, char **argv) {
  OrtEnv *env = NULL;
  OrtSessionOptions *opts = NULL;
  OrtSession *session = NULL;
  OrtMemoryInfo *mem = NULL;
  OrtValue *inputs[2] = {NULL, NULL}, *output = NULL;
  onnxslim_model *model = NULL;
  onnxslim_save_report *rep = NULL;
  ext_files ext = {0, NULL, NULL, NULL, NULL};
  OrtValue **values = NULL;
  void *proto = NULL;
  size_t proto_size = 0, i;
  int64_t ids[BATCH * SEQ], mask[BATCH * SEQ], shape[2] = {BATCH, SEQ};
  const char *in_names[2] = {"input_ids", "attention_mask"}, *out_names[1] = {"logits"};
  const char *path;
  int from_files = 0, files_in_memory = 0, status = 1;
  double t0 = now(), t_session;
  uint64_t s = 0x9E3779B97F4A7C15u;

  if (argc == 3 && strcmp(argv[1], "--from-files") == 0) {
    from_files = 1;
    path = argv[2];
  } else if (argc == 3 && strcmp(argv[1], "--files-in-memory") == 0) {
    files_in_memory = 1;
    path = argv[2];
  } else if (argc == 2 && argv[1][0] != '-') {
    path = argv[1];
  } else {
    fprintf(stderr, "usage: %s [--files-in-memory] MODEL.onnx | --from-files RECIPE.onnx\n",
            argv[0]);
    return 2;
  }
  if (!(ort = OrtGetApiBase()->GetApi(ORT_API_VERSION))) {
    fprintf(stderr, "ort_recipe: onnxruntime does not offer API version %d\n", ORT_API_VERSION);
    return 1;
  }
  if (ort_failed(ort->CreateEnv(ORT_LOGGING_LEVEL_WARNING, "ort_recipe", &env), "CreateEnv") ||
      ort_failed(ort->CreateSessionOptions(&opts), "CreateSessionOptions") ||
      ort_failed(ort->SetIntraOpNumThreads(opts, 1), "SetIntraOpNumThreads"))
    goto out;

  if (from_files) {
    /* onnxruntime reads the model file and its data files */
    if (ort_failed(ort->CreateSession(env, path, opts, &session), "CreateSession")) goto out;
  } else {
    if (lib_failed(onnxslim_model_open(&model, path, NULL), path) ||
        recipe_in_memory(model, &rep, &proto, &proto_size, &ext))
      goto out;
    printf("graph %zu bytes, %zu tensors given from memory\n", proto_size, ext.n);
    printf("after the recipe: ");
    print_rss();
    if (files_in_memory) {
      /* per location its bytes: onnxruntime 1.21 copies them (measured:
       * test/check_long/trixie-ort.sh) */
      if (ort_failed(ort->AddExternalInitializersFromFilesInMemory(
                         opts, (const ORTCHAR_T *const *)ext.names, ext.data, ext.lengths, ext.n),
                     "AddExternalInitializersFromFilesInMemory"))
        goto out;
    } else {
      /* an OrtValue over each tensor's bytes, used by the session in place
       * of the initializer of that name (AddInitializer: no copy; the value
       * and its bytes must outlive the session) */
      if (ort_failed(ort->CreateCpuMemoryInfo(OrtDeviceAllocator, OrtMemTypeDefault, &mem),
                     "CreateCpuMemoryInfo"))
        goto out;
      values = calloc(ext.n ? ext.n : 1, sizeof *values);
      if (!values) goto out;
      for (i = 0; i < ext.n; i++) {
        int64_t dims[64];
        size_t k, rank = onnxslim_tensor_rank(ext.tensors[i]);
        const char *name = onnxslim_tensor_name(ext.tensors[i]);
        if (rank > 64) goto out;
        for (k = 0; k < rank; k++) dims[k] = onnxslim_tensor_dim(ext.tensors[i], k);
        /* ONNX's and onnxruntime's element type numbers are the same */
        if (ort_failed(
                ort->CreateTensorWithDataAsOrtValue(
                    mem, ext.data[i], ext.lengths[i], dims, rank,
                    (ONNXTensorElementDataType)onnxslim_tensor_dtype(ext.tensors[i]), &values[i]),
                name) ||
            ort_failed(ort->AddInitializer(opts, name, values[i]), "AddInitializer"))
          goto out;
      }
      ort->ReleaseMemoryInfo(mem);
      mem = NULL;
    }
    if (ort_failed(ort->CreateSessionFromArray(env, proto, proto_size, opts, &session),
                   "CreateSessionFromArray"))
      goto out;
    /* onnxruntime parsed its own copy of the graph; the tensors' bytes
     * stay with the model, freed after the session */
    free(proto);
    proto = NULL;
  }
  t_session = now();

  /* 5. the inputs: pseudo-random ids, the last two sequences padded */
  for (i = 0; i < BATCH * SEQ; i++) {
    s ^= s >> 12;
    s ^= s << 25;
    s ^= s >> 27;
    ids[i] = (int64_t)((s * 0x2545F4914F6CDD1Du) >> 33) % MAX_ID;
    mask[i] = (i / SEQ >= 2 && i % SEQ >= (size_t)SEQ - 4 * (i / SEQ - 1)) ? 0 : 1;
  }
  if (ort_failed(ort->CreateCpuMemoryInfo(OrtArenaAllocator, OrtMemTypeDefault, &mem),
                 "CreateCpuMemoryInfo") ||
      ort_failed(
          ort->CreateTensorWithDataAsOrtValue(mem, ids, sizeof ids, shape, 2,
                                              ONNX_TENSOR_ELEMENT_DATA_TYPE_INT64, &inputs[0]),
          "input_ids") ||
      ort_failed(
          ort->CreateTensorWithDataAsOrtValue(mem, mask, sizeof mask, shape, 2,
                                              ONNX_TENSOR_ELEMENT_DATA_TYPE_INT64, &inputs[1]),
          "attention_mask") ||
      ort_failed(ort->Run(session, NULL, in_names, (const OrtValue *const *)inputs, 2, out_names, 1,
                          &output),
                 "Run"))
    goto out;
  {
    float *logits;
    OrtTensorTypeAndShapeInfo *info;
    size_t n = 0;
    int bad;
    if (ort_failed(ort->GetTensorMutableData(output, (void **)&logits), "logits") ||
        ort_failed(ort->GetTensorTypeAndShape(output, &info), "logits shape"))
      goto out;
    bad = ort_failed(ort->GetTensorShapeElementCount(info, &n), "logits count");
    ort->ReleaseTensorTypeAndShapeInfo(info);
    if (bad) goto out;
    for (i = 0; i < n; i++) {
      uint32_t bits;
      memcpy(&bits, &logits[i], sizeof bits);
      printf("logits[%zu] = %.9g (0x%08" PRIx32 ")\n", i, logits[i], bits);
    }
  }
  printf("%s: session %.2f s, run %.2f s\n",
         from_files        ? "from files"
         : files_in_memory ? "in memory (files in memory)"
                           : "in memory",
         t_session - t0, now() - t_session);
  print_rss();
  status = 0;
out:
  if (ort) {
    ort->ReleaseValue(output);
    ort->ReleaseValue(inputs[0]);
    ort->ReleaseValue(inputs[1]);
    ort->ReleaseMemoryInfo(mem);
    ort->ReleaseSession(session);
    ort->ReleaseSessionOptions(opts);
    ort->ReleaseEnv(env);
    for (i = 0; values && i < ext.n; i++) ort->ReleaseValue(values[i]);
  }
  free(values);
  /* after the session: its initializers are the model's bytes */
  free(proto);
  free(ext.names);
  free(ext.data);
  free(ext.lengths);
  onnxslim_save_report_free(rep);
  onnxslim_model_free(model);
  return status;
}
