/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/* Threads using the library at once, each with its own models and paths
 * (docs/threading.md, rule 1): load (from the same file, from a copy, from
 * a borrowed buffer), check, convert, save four ways, reload and compare
 * fingerprints. Step 75-tsan runs this against the library built with
 * -fsanitize=thread, where any data race fails the test. Run from the
 * repository root. */
#define _GNU_SOURCE
#include <ftw.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <onnxslim.h>

#include "t.h"
#include "util.h"

#define N_THREADS 4
#define ROUNDS 3

static const char *model_file = "test/data/bert-tiny.onnx";
static unsigned char *shared_bytes; /* the model, read once, borrowed by all */
static size_t shared_size;
static char root[256];

typedef struct {
  int id;
  int failures;
  char first[512]; /* the first failure */
} worker;

static void fail(worker *w, const char *what) {
  if (!w->failures++)
    snprintf(w->first, sizeof w->first, "thread %d: %s: %s", w->id, what, onnxslim_error_last());
}

static onnxslim_model *load(worker *w, int how) {
  onnxslim_model *m = NULL;
  int rc;
  if (how == 0) {
    rc = onnxslim_model_open(&m, model_file, NULL);
  } else {
    rc = onnxslim_model_from_buffer(&m, shared_bytes, shared_size,
                                    how == 1 ? ONNXSLIM_COPY : ONNXSLIM_BORROW, NULL);
  }
  if (rc) fail(w, "load");
  return m;
}

static void reload_same(worker *w, const char *path, const char *want) {
  onnxslim_model *m = NULL;
  char fp[33];
  if (onnxslim_model_open(&m, path, NULL) != 0) {
    fail(w, "reload");
    return;
  }
  if (onnxslim_fingerprint(fp, ONNXSLIM_FINGERPRINT_SIZE, m) != 0 || strcmp(fp, want) != 0)
    fail(w, "fingerprint");
  onnxslim_model_free(m);
}

static void *work(void *arg) {
  worker *w = arg;
  char dir[300], path[400];
  snprintf(dir, sizeof dir, "%s/t%d", root, w->id);
  if (mkdir(dir, 0700) != 0) {
    fail(w, "mkdir");
    return NULL;
  }
  for (int round = 0; round < ROUNDS; round++) {
    onnxslim_model *m = load(w, (w->id + round) % 3);
    if (!m) continue;
    onnxslim_check_report *r = NULL;
    if (onnxslim_check(&r, m, 0) != 0 || onnxslim_check_report_count(r) != 0) fail(w, "check");
    onnxslim_check_report_free(r);
    if (onnxslim_cleanup_toposort(onnxslim_model_graph(m), ONNXSLIM_CLEANUP_RECURSIVE) != 0)
      fail(w, "toposort");
    int32_t to = (w->id + round) % 2 ? ONNXSLIM_DTYPE_FLOAT16 : ONNXSLIM_DTYPE_BFLOAT16;
    if (onnxslim_convert_gather_tables(NULL, m, to, 0, 0) != 0) fail(w, "convert");
    char fp[33];
    if (onnxslim_fingerprint(fp, ONNXSLIM_FINGERPRINT_SIZE, m) != 0) fail(w, "fingerprint");
    onnxslim_save_options so = ONNXSLIM_SAVE_OPTIONS_INIT;
    so.flags = ONNXSLIM_SAVE_NO_FSYNC;
    snprintf(path, sizeof path, "%s/single.onnx", dir);
    if (onnxslim_save(NULL, m, path, &so) != 0) fail(w, "save");
    else reload_same(w, path, fp);
    static const int modes[] = {ONNXSLIM_LAYOUT_ONE_FILE, ONNXSLIM_LAYOUT_PER_TENSOR,
                                ONNXSLIM_LAYOUT_INLINE};
    static const char *const names[] = {"one.onnx", "per.onnx", "merged.onnx"};
    for (int k = 0; k < 3; k++) {
      onnxslim_save_options eo = ONNXSLIM_SAVE_OPTIONS_INIT;
      eo.layout = modes[k];
      eo.size_threshold = 0;
      eo.flags = ONNXSLIM_SAVE_NO_FSYNC | (k == 0 ? ONNXSLIM_SAVE_CHECKSUM : 0);
      snprintf(path, sizeof path, "%s/%s", dir, names[k]);
      if (onnxslim_save(NULL, m, path, &eo) != 0) fail(w, names[k]);
      else reload_same(w, path, fp);
    }
    onnxslim_model_free(m);
    /* the copy with external data, as the next input of this thread */
    snprintf(path, sizeof path, "%s/one.onnx", dir);
    onnxslim_model *e = NULL;
    if (onnxslim_model_open(&e, path, NULL) != 0) {
      fail(w, "open external");
    } else {
      snprintf(path, sizeof path, "%s/again.onnx", dir);
      onnxslim_save_options eo = ONNXSLIM_SAVE_OPTIONS_INIT;
      eo.layout = ONNXSLIM_LAYOUT_ONE_FILE;
      eo.flags = ONNXSLIM_SAVE_NO_FSYNC;
      if (onnxslim_save(NULL, e, path, &eo) != 0) fail(w, "save again");
      else reload_same(w, path, fp);
      onnxslim_model_free(e);
    }
  }
  return NULL;
}

TEST(threads_load_convert_save) {
  pthread_t t[N_THREADS];
  worker w[N_THREADS];
  memset(w, 0, sizeof w);
  int started = 0;
  for (int i = 0; i < N_THREADS; i++) {
    w[i].id = i;
    if (pthread_create(&t[i], NULL, work, &w[i]) == 0) started++;
    else w[i].failures = -1;
  }
  CHECK(started == N_THREADS);
  for (int i = 0; i < N_THREADS; i++) {
    if (w[i].failures < 0) continue;
    pthread_join(t[i], NULL);
    if (w[i].failures) fprintf(stderr, "%s (%d failures)\n", w[i].first, w[i].failures);
    CHECK(w[i].failures == 0);
  }
}

/* Errors stay in their thread: each thread's last error is its own. */
static void *provoke(void *arg) {
  int *ok = arg;
  char want[64];
  snprintf(want, sizeof want, "nope-%p.onnx", (void *)ok);
  onnxslim_model *m = NULL;
  for (int i = 0; i < 200; i++) {
    if (onnxslim_model_open(&m, want, NULL) == 0 || !strstr(onnxslim_error_last(), want)) {
      *ok = 0;
      return NULL;
    }
  }
  *ok = 1;
  return NULL;
}

TEST(threads_errors_are_per_thread) {
  pthread_t t[N_THREADS];
  int ok[N_THREADS] = {0};
  for (int i = 0; i < N_THREADS; i++) CHECK(pthread_create(&t[i], NULL, provoke, &ok[i]) == 0);
  for (int i = 0; i < N_THREADS; i++) {
    pthread_join(t[i], NULL);
    CHECK(ok[i] == 1);
  }
}

static int rm_entry(const char *p, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st;
  (void)flag;
  (void)ftw;
  return remove(p);
}

int main(int argc, char **argv) {
  t_args(argc, argv);
  const char *tmp = getenv("TMPDIR");
  snprintf(root, sizeof root, "%s/libonnxslim-threads-XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
  if (!mkdtemp(root)) {
    perror("mkdtemp");
    return 1;
  }
  shared_bytes = slurp(model_file, &shared_size);
  if (!shared_bytes) {
    fprintf(stderr, "cannot read %s (run from the repository root)\n", model_file);
    return 1;
  }
  RUN(threads_load_convert_save);
  RUN(threads_errors_are_per_thread);
  free(shared_bytes);
  nftw(root, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
  return t_done();
}
