/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/* Tests of the progress function (onnxslim_progress_fn) of loads,
 * conversions and saves: when it is called (first done 0, then 0 < done <
 * total increasing at a bounded rate, last done == total), what total is,
 * that callers of older options versions keep working without it, and that
 * a cancel (a nonzero return) leaves the model and every file as they were. */
#define _GNU_SOURCE
#include <dirent.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#if !defined(_WIN32)
#  include <sys/wait.h>
#endif
#include <unistd.h>

#include <onnxslim.h>

#include "util.h"

#include "t.h"

#define BERT "test/data/bert-tiny.onnx"
#define MIB ((uint64_t)1 << 20)
#define NBIG 8
#define BIG_FLOATS (512 * 1024) /* 2 MiB each */

static char dir[256];

/* ---- a recorder of the calls --------------------------------------------- */

#define MAX_CALLS 4096
typedef struct {
  size_t n;
  uint64_t done[MAX_CALLS], total[MAX_CALLS];
  size_t cancel_at;      /* return nonzero at this call (1-based; 0: never) */
  uint64_t cancel_after; /* or at the first call with done above it (0: never) */
  int cancel_commit;     /* or at a save's call before its commit (done == total - 1) */
  int canceled;
} calls;

static int record(uint64_t done, uint64_t total, void *payload) {
  calls *c = payload;
  if (c->n < MAX_CALLS) {
    c->done[c->n] = done;
    c->total[c->n] = total;
  }
  c->n++;
  if ((c->cancel_at && c->n == c->cancel_at) ||
      (c->cancel_after && done > c->cancel_after && done < total) ||
      (c->cancel_commit && total > 1 && done == total - 1)) {
    c->canceled = 1;
    return 1;
  }
  return 0;
}

/* The contract of a successful operation's calls: first (0, total), then
 * increasing 0 < done < total, last (total, total), the same total in
 * every call, at most one call per MiB (plus the first, the last and a
 * save's call before its commit). */
static int calls_ok(const calls *c, uint64_t total) {
  if (c->n < 2 || c->n > MAX_CALLS) return 0;
  if (c->done[0] != 0 || c->done[c->n - 1] != total) return 0;
  for (size_t i = 0; i < c->n; i++)
    if (c->total[i] != total) return 0;
  for (size_t i = 1; i + 1 < c->n; i++)
    if (c->done[i] <= c->done[i - 1] || c->done[i] >= total) return 0;
  return c->n <= 3 + total / MIB;
}

/* A save's calls: calls_ok, and the one before the last is (total - 1,
 * total), made once the files are written and synced, before the commit. */
static int save_calls_ok(const calls *c, uint64_t total) {
  return calls_ok(c, total) && c->n >= 3 && c->done[c->n - 2] == total - 1;
}

static uint64_t file_size(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 ? (uint64_t)st.st_size : 0;
}

static int same_file(const char *a, const char *b) {
  size_t na, nb;
  uint8_t *pa = slurp(a, &na), *pb = slurp(b, &nb);
  int same = pa && pb && na == nb && memcmp(pa, pb, na) == 0;
  free(pa);
  free(pb);
  return same;
}

/* Number of entries in d other than . and .. */
static int count_entries(const char *d) {
  DIR *dd = opendir(d);
  if (!dd) return -1;
  int n = 0;
  struct dirent *e;
  while ((e = readdir(dd)))
    if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) n++;
  closedir(dd);
  return n;
}

/* ---- the model: bert-tiny with NBIG initializers of 2 MiB (big0, ...),
 * the odd ones 2 MiB, the even ones 4 MiB ------------------------------ */

static char model_path[400];

static uint64_t big_bytes(int i) { return (uint64_t)BIG_FLOATS * 4 * (i % 2 ? 1 : 2); }

static int make_model(void) {
  onnxslim_model *m = NULL;
  if (onnxslim_model_open(&m, BERT, NULL)) return -1;
  float *v = malloc((size_t)BIG_FLOATS * 2 * sizeof *v);
  if (!v) return -1;
  for (size_t i = 0; i < (size_t)BIG_FLOATS * 2; i++) v[i] = (float)i * 0.001f - 3.0f;
  int rc = 0;
  for (int i = 0; i < NBIG && !rc; i++) {
    char name[16];
    snprintf(name, sizeof name, "big%d", i);
    int64_t dims[1] = {(int64_t)(big_bytes(i) / 4)};
    rc = onnxslim_graph_add_initializer(onnxslim_model_graph(m), name, ONNXSLIM_DTYPE_FLOAT, dims,
                                        1, v, big_bytes(i), ONNXSLIM_COPY, NULL);
  }
  free(v);
  snprintf(model_path, sizeof model_path, "%s/model.onnx", dir);
  onnxslim_save_options so = ONNXSLIM_SAVE_OPTIONS_INIT;
  so.flags = ONNXSLIM_SAVE_NO_FSYNC;
  if (!rc) rc = onnxslim_save(NULL, m, model_path, &so);
  onnxslim_model_free(m);
  return rc;
}

static onnxslim_model *open_model(void) {
  onnxslim_model *m = NULL;
  return onnxslim_model_open(&m, model_path, NULL) ? NULL : m;
}

/* ---- loads ------------------------------------------------------------------ */

TEST(load_progress) {
  calls c = {0};
  onnxslim_load_options o = ONNXSLIM_LOAD_OPTIONS_INIT;
  o.progress = record;
  o.progress_payload = &c;
  onnxslim_model *m = NULL;
  CHECK_OK(onnxslim_model_open(&m, model_path, &o));
  CHECK(m != NULL);
  CHECK(calls_ok(&c, file_size(model_path)));
  CHECK(c.n >= 4); /* the big tensors lie MiBs apart */
  onnxslim_model_free(m);
  /* from a buffer: total is the buffer's size */
  size_t n;
  uint8_t *bytes = slurp(model_path, &n);
  REQUIRE(bytes);
  memset(&c, 0, sizeof c);
  CHECK_OK(onnxslim_model_from_buffer(&m, bytes, n, ONNXSLIM_BORROW, &o));
  CHECK(calls_ok(&c, n));
  onnxslim_model_free(m);
  /* a failed load makes no last call */
  memset(&c, 0, sizeof c);
  CHECK(onnxslim_model_from_buffer(&m, bytes, n / 2, ONNXSLIM_BORROW, &o) == ONNXSLIM_EPARSE);
  CHECK(m == NULL && c.n >= 1 && c.done[c.n - 1] < c.total[0]);
  free(bytes);
}

TEST(load_cancel) {
  for (size_t at = 1; at <= 2; at++) {
    calls c = {0};
    c.cancel_at = at;
    onnxslim_load_options o = ONNXSLIM_LOAD_OPTIONS_INIT;
    o.progress = record;
    o.progress_payload = &c;
    onnxslim_model *m = (onnxslim_model *)&c;
    CHECK(onnxslim_model_open(&m, model_path, &o) == ONNXSLIM_ECANCELED);
    CHECK(m == NULL && c.n == at && c.canceled);
    CHECK(onnxslim_error_last_code() == ONNXSLIM_ECANCELED);
    CHECK(strstr(onnxslim_error_last(), "canceled") != NULL);
  }
  CHECK(strcmp(onnxslim_strerror(ONNXSLIM_ECANCELED), "canceled") == 0);
}

/* onnxslim_load_options as a caller built against version 3 saw it */
typedef struct {
  unsigned int version, flags, max_depth;
  const char *base_dir;
  uint64_t max_memory;
} load_options_v3;

TEST(load_old_options_version) {
  /* exactly the size of a version-3 struct: nothing after it is read */
  load_options_v3 *v3 = malloc(sizeof *v3);
  REQUIRE(v3);
  CHECK(sizeof *v3 == offsetof(onnxslim_load_options, progress));
  CHECK_OK(onnxslim_load_options_init((onnxslim_load_options *)v3, 3));
  onnxslim_model *m = NULL;
  CHECK_OK(onnxslim_model_open(&m, model_path, (const onnxslim_load_options *)v3));
  CHECK(m != NULL);
  onnxslim_model_free(m);
  free(v3);
  /* a version-3 caller whose memory after the struct holds garbage */
  onnxslim_load_options o;
  memset(&o, 0xA5, sizeof o);
  CHECK_OK(onnxslim_load_options_init(&o, 3));
  CHECK_OK(onnxslim_model_open(&m, model_path, &o));
  onnxslim_model_free(m);
}

/* ---- conversions ------------------------------------------------------------- */

static const char *const big_select[] = {"big*"};

static void big_convert_options(onnxslim_convert_options *o, calls *c) {
  onnxslim_convert_options d = ONNXSLIM_CONVERT_OPTIONS_INIT;
  *o = d;
  o->to = ONNXSLIM_DTYPE_FLOAT16;
  o->policy = ONNXSLIM_CONVERT_POLICY_STORAGE_ONLY;
  o->select = big_select;
  o->n_select = 1;
  o->progress = record;
  o->progress_payload = c;
}

TEST(convert_progress) {
  onnxslim_model *m = open_model();
  REQUIRE(m);
  calls c = {0};
  onnxslim_convert_options o;
  big_convert_options(&o, &c);
  onnxslim_convert_report *rep = NULL;
  CHECK_OK(onnxslim_convert_model(&rep, m, &o));
  uint64_t total = 0;
  for (int i = 0; i < NBIG; i++) total += big_bytes(i);
  CHECK(onnxslim_convert_report_count(rep) == NBIG);
  CHECK(calls_ok(&c, total));
  CHECK(c.n >= 8);
  onnxslim_convert_report_free(rep);
  onnxslim_model_free(m);
  /* without the statistics pass for the report, a conversion that can
   * overflow (FP32 -> FP16) still reads the tensors to decide which to keep
   * (ONNXSLIM_CONVERT_OVERFLOW_KEEP, the default): the same meter */
  m = open_model();
  REQUIRE(m);
  memset(&c, 0, sizeof c);
  o.report_flags = ONNXSLIM_CONVERT_REPORT_NO_STATS;
  CHECK_OK(onnxslim_convert_model(&rep, m, &o));
  CHECK(calls_ok(&c, total));
  onnxslim_convert_report_free(rep);
  onnxslim_model_free(m);
  /* with neither (ONNXSLIM_CONVERT_OVERFLOW_CONVERT) there is nothing to measure:
   * the last call only */
  m = open_model();
  REQUIRE(m);
  memset(&c, 0, sizeof c);
  o.overflow = ONNXSLIM_CONVERT_OVERFLOW_CONVERT;
  CHECK_OK(onnxslim_convert_model(&rep, m, &o));
  CHECK(c.n == 1 && c.done[0] == 0 && c.total[0] == 0);
  onnxslim_convert_report_free(rep);
  onnxslim_model_free(m);
}

TEST(convert_cancel_leaves_model_unchanged) {
  onnxslim_model *m = open_model();
  REQUIRE(m);
  size_t n0;
  uint8_t *before = save_bytes(m, &n0);
  REQUIRE(before);
  /* at the first call, and in the middle of the statistics pass (after
   * some tensors were read) */
  for (int k = 0; k < 2; k++) {
    calls c = {0};
    onnxslim_convert_options o;
    big_convert_options(&o, &c);
    if (k == 0) c.cancel_at = 1;
    else c.cancel_after = 9 * MIB;
    onnxslim_convert_report *rep = (onnxslim_convert_report *)&c;
    CHECK(onnxslim_convert_model(&rep, m, &o) == ONNXSLIM_ECANCELED);
    CHECK(rep == NULL && c.canceled);
    size_t n1;
    uint8_t *after = save_bytes(m, &n1);
    CHECK(after && n1 == n0 && memcmp(before, after, n0) == 0);
    free(after);
    onnxslim_tensor *t = onnxslim_graph_find_initializer(onnxslim_model_graph(m), "big0");
    CHECK(t && onnxslim_tensor_dtype(t) == ONNXSLIM_DTYPE_FLOAT);
  }
  /* the model converts afterwards as if nothing had happened */
  CHECK_OK(onnxslim_convert_model(NULL, m, NULL));
  free(before);
  onnxslim_model_free(m);
}

/* onnxslim_convert_options as a caller built against version 3 saw it */
typedef struct {
  unsigned int version;
  int32_t to;
  int policy;
  unsigned int flags;
  const char *const *select;
  size_t n_select;
  uint64_t min_size;
  const char *const *exclude;
  size_t n_exclude;
  unsigned int report_flags;
} convert_options_v3;

TEST(convert_old_options_version) {
  convert_options_v3 *v3 = malloc(sizeof *v3);
  REQUIRE(v3);
  CHECK(sizeof *v3 <= offsetof(onnxslim_convert_options, progress));
  CHECK_OK(onnxslim_convert_options_init((onnxslim_convert_options *)v3, 3));
  v3->to = ONNXSLIM_DTYPE_FLOAT16;
  v3->policy = ONNXSLIM_CONVERT_POLICY_STORAGE_ONLY;
  v3->select = big_select;
  v3->n_select = 1;
  onnxslim_model *m = open_model();
  REQUIRE(m);
  onnxslim_convert_report *rep = NULL;
  CHECK_OK(onnxslim_convert_model(&rep, m, (const onnxslim_convert_options *)v3));
  CHECK(onnxslim_convert_report_count(rep) == NBIG);
  onnxslim_convert_report_free(rep);
  onnxslim_model_free(m);
  free(v3);
}

/* ---- saves ------------------------------------------------------------------- */

TEST(save_progress_as_loaded) {
  onnxslim_model *m = open_model();
  REQUIRE(m);
  CHECK_OK(onnxslim_convert_model(NULL, m, NULL)); /* written through the transforms */
  char path[400];
  PATH(path, "%s/as_loaded.onnx", dir);
  calls c = {0};
  onnxslim_save_options so = ONNXSLIM_SAVE_OPTIONS_INIT;
  so.flags = ONNXSLIM_SAVE_NO_FSYNC;
  so.progress = record;
  so.progress_payload = &c;
  CHECK_OK(onnxslim_save(NULL, m, path, &so));
  CHECK(save_calls_ok(&c, file_size(path)));
  CHECK(c.n >= 6);
  onnxslim_model_free(m);
  /* unconverted bytes copied by the kernel count too */
  m = open_model();
  REQUIRE(m);
  memset(&c, 0, sizeof c);
  CHECK_OK(onnxslim_save(NULL, m, path, &so));
  CHECK(same_file(path, model_path));
  CHECK(save_calls_ok(&c, file_size(path)));
  CHECK(c.n >= 4);
  onnxslim_model_free(m);
}

TEST(save_progress_external) {
  onnxslim_model *m = open_model();
  REQUIRE(m);
  char sub[300], path[400], data[400];
  PATH(sub, "%s/ext", dir);
  mkdir(sub, 0755);
  PATH(path, "%s/m.onnx", sub);
  PATH(data, "%s/m.bin", sub);
  calls c = {0};
  onnxslim_save_options so = ONNXSLIM_SAVE_OPTIONS_INIT;
  so.flags = ONNXSLIM_SAVE_NO_FSYNC | ONNXSLIM_SAVE_CHECKSUM;
  so.layout = ONNXSLIM_LAYOUT_ONE_FILE;
  so.location = "m.bin";
  so.progress = record;
  so.progress_payload = &c;
  CHECK_OK(onnxslim_save(NULL, m, path, &so));
  /* a first save: the names are the ones wanted, the total is exact */
  CHECK(save_calls_ok(&c, file_size(path) + file_size(data)));
  CHECK(c.n >= 6);
  /* again: the data file is m_1.bin, so each external tensor's location is
   * two bytes longer than planned for the total; done still ends at total */
  memset(&c, 0, sizeof c);
  onnxslim_save_report *rep = NULL;
  CHECK_OK(onnxslim_save(&rep, m, path, &so));
  PATH(data, "%s/m_1.bin", sub);
  CHECK(c.n >= 2 && c.done[c.n - 1] == c.total[0]);
  uint64_t written = file_size(path) + file_size(data);
  size_t next = 0;
  for (size_t i = 0; i < onnxslim_save_report_count(rep); i++)
    next += onnxslim_save_report_placement(rep, i) == ONNXSLIM_SAVE_PLACEMENT_EXTERNAL;
  onnxslim_save_report_free(rep);
  CHECK(next >= NBIG && c.total[0] <= written && written - c.total[0] <= 2 * next + 8);
  /* per tensor: the model file and one file per tensor */
  memset(&c, 0, sizeof c);
  so.layout = ONNXSLIM_LAYOUT_PER_TENSOR;
  so.location = NULL;
  PATH(path, "%s/p.onnx", sub);
  CHECK_OK(onnxslim_save(&rep, m, path, &so));
  uint64_t sum = file_size(path);
  for (size_t i = 0; i < onnxslim_save_report_count(rep); i++) {
    const char *loc = onnxslim_save_report_location(rep, i);
    char f[600];
    if (loc) sum += file_size(PATH(f, "%s/%s", sub, loc));
  }
  onnxslim_save_report_free(rep);
  CHECK(save_calls_ok(&c, sum));
  onnxslim_model_free(m);
}

/* A save canceled at its first call, in the data files, and while the
 * model file is written (after the data files were put in place): every
 * file as it was, no file left over. */
TEST(save_cancel_leaves_files) {
  onnxslim_model *m = open_model();
  REQUIRE(m);
  CHECK_OK(onnxslim_convert_model(NULL, m, NULL));
  char sub[300], path[400], data[400], keep[400], keepdata[400];
  PATH(sub, "%s/cancel", dir);
  mkdir(sub, 0755);
  PATH(path, "%s/m.onnx", sub);
  PATH(data, "%s/m.onnx.data", sub);
  PATH(keep, "%s/keep.onnx", dir);
  PATH(keepdata, "%s/keep.onnx.data", dir);
  /* the pair in place: tensors of 4 MiB (bf16: 2 MiB) out, the others in */
  onnxslim_save_options so = ONNXSLIM_SAVE_OPTIONS_INIT;
  so.flags = ONNXSLIM_SAVE_NO_FSYNC;
  so.layout = ONNXSLIM_LAYOUT_ONE_FILE;
  so.size_threshold = 2 * MIB;
  CHECK_OK(onnxslim_save(NULL, m, path, &so));
  onnxslim_model_free(m);
  m = open_model(); /* unconverted: this save would change both files */
  REQUIRE(m);
  /* copies of the pair in place, to compare with after each cancel */
  size_t np = 0, nd = 0;
  unsigned char *bp = slurp(path, &np), *bd = slurp(data, &nd);
  int copied = bp && bd && write_bytes(keep, bp, np) == 0 && write_bytes(keepdata, bd, nd) == 0;
  free(bp);
  free(bd);
  REQUIRE(copied);
  int entries = count_entries(sub);
  CHECK(entries == 2);
  /* the data file of this save: 4 x 4 MiB (aligned); the model file about 8 MiB */
  /* commit: at the call made once every file is written and synced, just
   * before the commit (a cancel asked for while the data was synced) */
  static const struct {
    int layout;
    size_t at;
    uint64_t after;
    int commit;
  } cases[] = {
      {ONNXSLIM_LAYOUT_ONE_FILE, 1, 0, 0},        {ONNXSLIM_LAYOUT_ONE_FILE, 0, 5 * MIB, 0},
      {ONNXSLIM_LAYOUT_ONE_FILE, 0, 20 * MIB, 0}, {ONNXSLIM_LAYOUT_PER_TENSOR, 0, 20 * MIB, 0},
      {ONNXSLIM_LAYOUT_AS_LOADED, 0, 5 * MIB, 0}, {ONNXSLIM_LAYOUT_INLINE, 0, 5 * MIB, 0},
      {ONNXSLIM_LAYOUT_ONE_FILE, 0, 0, 1},        {ONNXSLIM_LAYOUT_PER_TENSOR, 0, 0, 1},
      {ONNXSLIM_LAYOUT_AS_LOADED, 0, 0, 1},       {ONNXSLIM_LAYOUT_INLINE, 0, 0, 1},
  };
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    calls c = {0};
    c.cancel_at = cases[k].at;
    c.cancel_after = cases[k].after;
    c.cancel_commit = cases[k].commit;
    so.layout = cases[k].layout;
    so.size_threshold = cases[k].layout == ONNXSLIM_LAYOUT_INLINE ? 0 : 3 * MIB;
    so.progress = record;
    so.progress_payload = &c;
    onnxslim_save_report *rep = (onnxslim_save_report *)&c;
    int rc = onnxslim_save(&rep, m, path, &so);
    if (rc != ONNXSLIM_ECANCELED || !c.canceled)
      fprintf(stderr, "case %zu: rc %d, %zu calls, total %llu\n", k, rc, c.n,
              (unsigned long long)(c.n ? c.total[0] : 0));
    CHECK(rc == ONNXSLIM_ECANCELED && c.canceled && rep == NULL);
    CHECK(same_file(path, keep) && same_file(data, keepdata));
    CHECK(count_entries(sub) == entries);
  }
  /* the cancel in the model file came after the data file was in place */
  so.layout = ONNXSLIM_LAYOUT_ONE_FILE;
  so.size_threshold = 3 * MIB;
  calls c = {0};
  so.progress_payload = &c;
  CHECK_OK(onnxslim_save(NULL, m, path, &so));
  char data1[400];
  uint64_t data_bytes = file_size(PATH(data1, "%s/m.onnx_1.data", sub));
  CHECK(data_bytes >= 16 * MIB && data_bytes < 20 * MIB && c.total[0] > 24 * MIB);
  onnxslim_model_free(m);
}

/* ---- killed saves --------------------------------------------------------- */

static int die_midway(uint64_t done, uint64_t total, void *payload) {
  (void)total;
  (void)payload;
  /* killed: nothing of the save's own cleanup runs */
#if defined(_WIN32)
  if (done > 5 * MIB) TerminateProcess(GetCurrentProcess(), 0);
#else
  if (done > 5 * MIB) _exit(0);
#endif
  return 0;
}

/* The save of the child process: the model at model_path saved to path
 * with layout and location (NULL: none), dying once 5 MiB are written. */
static void save_and_die(const char *path, int layout, const char *location) {
  onnxslim_model *m = open_model();
  if (!m) _exit(3);
  onnxslim_save_options so = ONNXSLIM_SAVE_OPTIONS_INIT;
  so.flags = ONNXSLIM_SAVE_NO_FSYNC;
  so.layout = layout;
  so.location = location;
  so.size_threshold = 0;
  so.progress = die_midway;
  onnxslim_save(NULL, m, path, &so);
  _exit(4); /* not killed */
}

#if defined(_WIN32)
/* Windows has no fork: the child is this program started again with
 * CreateProcess, LIBONNXSLIM_TEST_KILLED_SAVE="layout|dir|location|path"
 * in its environment telling it what to save (main calls killed_child);
 * it kills itself with TerminateProcess from the progress function. */
#  define KILLED_SAVE_ENV "LIBONNXSLIM_TEST_KILLED_SAVE"
static int killed_child(const char *spec) {
  static char buf[1400];
  snprintf(buf, sizeof buf, "%s", spec);
  char *f[4] = {buf, NULL, NULL, NULL};
  for (int i = 1; i < 4; i++) {
    f[i] = f[i - 1] ? strchr(f[i - 1], '|') : NULL;
    if (f[i]) *f[i]++ = '\0';
  }
  if (!f[3]) return 5;
  snprintf(dir, sizeof dir, "%s", f[1]);
  snprintf(model_path, sizeof model_path, "%s/model.onnx", dir);
  save_and_die(f[3], atoi(f[0]), f[2][0] ? f[2] : NULL);
  return 4;
}

static int killed_save(const char *path, int layout, const char *location, const char *d) {
  char spec[1400];
  snprintf(spec, sizeof spec, "%d|%s|%s|%s", layout, dir, location ? location : "", path);
  wchar_t exe[MAX_PATH];
  if (setenv(KILLED_SAVE_ENV, spec, 1) != 0 || !GetModuleFileNameW(NULL, exe, MAX_PATH)) return -1;
  fflush(NULL);
  STARTUPINFOW si = {.cb = sizeof si};
  PROCESS_INFORMATION pi;
  wchar_t cmdline[MAX_PATH + 3];
  swprintf(cmdline, MAX_PATH + 3, L"\"%ls\"", exe);
  BOOL started = CreateProcessW(exe, cmdline, NULL, NULL, FALSE, 0, NULL, NULL, &si, &pi);
  unsetenv(KILLED_SAVE_ENV);
  if (!started) return -1;
  DWORD code = 1;
  int done = WaitForSingleObject(pi.hProcess, 120000) == WAIT_OBJECT_0 &&
             GetExitCodeProcess(pi.hProcess, &code);
  if (!done) TerminateProcess(pi.hProcess, 9);
  CloseHandle(pi.hThread);
  CloseHandle(pi.hProcess);
  if (!done || code != 0) {
    fprintf(stderr, "  the killed save's child: %s, exit code %lu\n", done ? "done" : "hung",
            (unsigned long)code);
    return -1;
  }
  return count_hidden(d);
}
#else
/* A child process saves the model to path with layout (and location) and
 * dies once 5 MiB are written; returns the number of hidden files it left
 * in d. */
static int killed_save(const char *path, int layout, const char *location, const char *d) {
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) save_and_die(path, layout, location);
  int st = 0;
  if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0) return -1;
  return count_hidden(d);
}
#endif

/* Temporary files a killed save left - of the model and of its data files -
 * are removed by the next save to the same model, whatever layout and data
 * file names each of them uses: in the model's directory (the temporaries
 * are named after the model), and in the directories of the data files the
 * model in place reads. */
TEST(killed_save_temporaries_removed_by_later_saves) {
  onnxslim_model *m = open_model();
  REQUIRE(m);
  char sub[300], path[400], sd[400];
  PATH(sub, "%s/killed", dir);
  mkdir(sub, 0755);
  PATH(path, "%s/m.onnx", sub);
  static const struct {
    int killed;
    const char *location;
    int later;
  } cases[] = {
      {ONNXSLIM_LAYOUT_PER_TENSOR, NULL, ONNXSLIM_LAYOUT_AS_LOADED},
      {ONNXSLIM_LAYOUT_ONE_FILE, "x.bin", ONNXSLIM_LAYOUT_INLINE},
      {ONNXSLIM_LAYOUT_PER_TENSOR, NULL, ONNXSLIM_LAYOUT_ONE_FILE},
      {ONNXSLIM_LAYOUT_INLINE, NULL, ONNXSLIM_LAYOUT_PER_TENSOR},
  };
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    size_t n0 = 0, n1 = 0;
    unsigned char *before = slurp(path, &n0); /* none the first time */
    int left = killed_save(path, cases[k].killed, cases[k].location, sub);
    CHECK(left > 0);                         /* the save was killed with temporaries in place */
    unsigned char *after = slurp(path, &n1); /* the model in place is untouched */
    CHECK(before ? after && n1 == n0 && memcmp(after, before, n0) == 0 : !after);
    free(before);
    free(after);
    onnxslim_save_options so = ONNXSLIM_SAVE_OPTIONS_INIT;
    so.flags = ONNXSLIM_SAVE_NO_FSYNC;
    so.layout = cases[k].later;
    so.size_threshold = 1 * MIB;
    CHECK_OK(onnxslim_save(NULL, m, path, &so));
    CHECK(count_hidden(sub) == 0);
    if (count_hidden(sub) != 0)
      fprintf(stderr, "  case %zu: %d hidden files left before, %d after\n", k, left,
              count_hidden(sub));
  }
  /* data in a subdirectory: the model in place reads sub/y.bin */
  PATH(sd, "%s/sub", sub);
  mkdir(sd, 0755);
  onnxslim_save_options so = ONNXSLIM_SAVE_OPTIONS_INIT;
  so.flags = ONNXSLIM_SAVE_NO_FSYNC;
  so.layout = ONNXSLIM_LAYOUT_ONE_FILE;
  so.location = "sub/y.bin";
  so.size_threshold = 1 * MIB;
  CHECK_OK(onnxslim_save(NULL, m, path, &so));
  CHECK(killed_save(path, ONNXSLIM_LAYOUT_ONE_FILE, "sub/y.bin", sub) >= 0 && count_hidden(sd) > 0);
  so.layout = ONNXSLIM_LAYOUT_PER_TENSOR;
  so.location = NULL;
  CHECK_OK(onnxslim_save(NULL, m, path, &so));
  CHECK(count_hidden(sd) == 0 && count_hidden(sub) == 0);
  if (count_hidden(sd) != 0) fprintf(stderr, "  sub/: %d hidden files left\n", count_hidden(sd));
  onnxslim_model_free(m);
}

/* onnxslim_save_options as a caller built against version 1 saw it */
typedef struct {
  unsigned int version, flags;
  int layout;
  uint64_t size_threshold, align;
  const char *location;
} save_options_v1;

TEST(save_old_options_version) {
  save_options_v1 *v1 = malloc(sizeof *v1);
  REQUIRE(v1);
  CHECK(sizeof *v1 == offsetof(onnxslim_save_options, progress));
  memset(v1, 0xA5, sizeof *v1);
  CHECK_OK(onnxslim_save_options_init((onnxslim_save_options *)v1, 1));
  CHECK(v1->version == 1 && v1->flags == 0 && v1->layout == ONNXSLIM_LAYOUT_AS_LOADED &&
        v1->size_threshold == ONNXSLIM_SAVE_DEFAULT_THRESHOLD &&
        v1->align == ONNXSLIM_SAVE_DEFAULT_ALIGN && v1->location == NULL);
  v1->flags = ONNXSLIM_SAVE_NO_FSYNC;
  v1->layout = ONNXSLIM_LAYOUT_ONE_FILE;
  onnxslim_model *m = open_model();
  REQUIRE(m);
  char sub[300], path[400];
  PATH(sub, "%s/v1", dir);
  mkdir(sub, 0755);
  PATH(path, "%s/m.onnx", sub);
  onnxslim_save_report *rep = NULL;
  CHECK_OK(onnxslim_save(&rep, m, path, (const onnxslim_save_options *)v1));
  CHECK(onnxslim_save_report_count(rep) >= NBIG);
  onnxslim_save_report_free(rep);
  onnxslim_model_free(m);
  free(v1);
  /* version 2 defaults: no progress function */
  onnxslim_save_options o;
  memset(&o, 0xA5, sizeof o);
  CHECK_OK(onnxslim_save_options_init(&o, 2));
  CHECK(o.version == 2 && o.progress == NULL && o.progress_payload == NULL);
}

int main(int argc, char **argv) {
#if defined(_WIN32)
  const char *ks = getenv(KILLED_SAVE_ENV);
  if (ks && ks[0]) return killed_child(ks);
#endif
  t_args(argc, argv);
  snprintf(dir, sizeof dir, "/tmp/libonnxslim-progress-XXXXXX");
  if (!mkdtemp(dir)) {
    perror("mkdtemp");
    return 1;
  }
  if (make_model() != 0) {
    fprintf(stderr, "cannot make the test model: %s\n", onnxslim_error_last());
    return 1;
  }
  RUN(load_progress);
  RUN(load_cancel);
  RUN(load_old_options_version);
  RUN(convert_progress);
  RUN(convert_cancel_leaves_model_unchanged);
  RUN(convert_old_options_version);
  RUN(save_progress_as_loaded);
  RUN(save_progress_external);
  RUN(save_cancel_leaves_files);
  RUN(killed_save_temporaries_removed_by_later_saves);
  RUN(save_old_options_version);
#if defined(_WIN32)
  if (compat_rm_tree(dir) != 0) fprintf(stderr, "cleanup of %s failed\n", dir);
#else
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system(cmd) != 0) fprintf(stderr, "cleanup of %s failed\n", dir);
#endif
  return t_done();
}
