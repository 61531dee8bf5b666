/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/* Memory of the process, counting mapped file pages: what opening and
 * inspecting a model adds to the resident set (VmHWM, RssFile of
 * /proc/self/status): opening and inspecting a model, reading tensors
 * here and there, converting and saving it. Not run under valgrind (it
 * maps memory its own way). Run from the repository root. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <onnxslim.h>

#include "pbuild.h"
#include "t.h"
#include "util.h"

static char dir[256];

/* A field of /proc/self/status in KiB ("VmHWM:"), -1 if unknown. */
static long status_kib(const char *key) {
  FILE *f = fopen("/proc/self/status", "r");
  char line[256];
  long v = -1;
  size_t n = strlen(key);
  if (!f) return -1;
  while (fgets(line, sizeof line, f))
    if (strncmp(line, key, n) == 0) {
      v = strtol(line + n, NULL, 10);
      break;
    }
  fclose(f);
  return v;
}

/* Byte i of tensor k's data. */
static uint8_t byte_of(size_t k, size_t i) { return (uint8_t)(i * 31u + k * 7u + (i >> 9)); }

#define N_TENSORS 288
#define T_FLOATS (65536 + 25) /* 256 KiB and 100 bytes: headers fall at many page offsets */
#define T_ROWS 53             /* even tensors are 53 x 1237, dims packed; odd ones 1-D */

/* A model of N_TENSORS FLOAT initializers of T_FLOATS elements each (72 MiB
 * of raw_data, a header every 256 KiB), each read by an Identity node,
 * written to path with one write() call, as onnx.save or an exporter
 * writes: the page cache then holds the file in large folios (up to
 * 2 MiB on this kernel and file system), the state in which reading the
 * headers through the mapping mapped them all. 0 or -1. */
static int write_model(const char *path) {
  const size_t bytes = (size_t)T_FLOATS * 4;
  uint8_t *data = malloc(bytes);
  if (!data) return -1;
  pbuf g = {0};
  g.cap = N_TENSORS * (bytes + 64) + 4096; /* no copies while it grows */
  g.p = malloc(g.cap);
  if (!g.p) abort();
  pb_str(&g, 2, "g");
  char name[32], out[32];
  for (size_t k = 0; k < N_TENSORS; k++) {
    pbuf node = {0};
    snprintf(name, sizeof name, "w%03zu", k);
    snprintf(out, sizeof out, "y%03zu", k);
    pb_str(&node, 1, name);
    pb_str(&node, 2, out);
    pb_str(&node, 4, "Identity");
    pb_msg(&g, 1, &node);
  }
  for (size_t k = 0; k < N_TENSORS; k++) {
    pbuf t = {0};
    for (size_t i = 0; i < bytes; i++) data[i] = byte_of(k, i);
    snprintf(name, sizeof name, "w%03zu", k);
    if (k % 2) {
      pb_int(&t, 1, T_FLOATS); /* dims, one varint each */
    } else {
      pbuf dims = {0};
      pb_varint(&dims, T_ROWS);
      pb_varint(&dims, T_FLOATS / T_ROWS);
      pb_msg(&t, 1, &dims); /* packed */
    }
    pb_int(&t, 2, ONNXSLIM_DTYPE_FLOAT);
    pb_str(&t, 8, name);
    pb_bytes(&t, 9, data, bytes); /* raw_data */
    pb_msg(&g, 5, &t);
  }
  free(data);
  pbuf m = {0}, op = {0};
  m.cap = g.n + 64;
  m.p = malloc(m.cap);
  if (!m.p) abort();
  pb_int(&m, 1, 8); /* ir_version */
  pb_int(&op, 2, 13);
  pb_msg(&m, 8, &op);
  pb_msg(&m, 7, &g);
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  int ok = fd >= 0 && write(fd, m.p, m.n) == (ssize_t)m.n;
  if (fd >= 0 && close(fd) != 0) ok = 0;
  free(m.p);
  return ok ? 0 : -1;
}

/* In a child process (a fresh peak): opens path and reads what `libonnxslim
 * info` reads - every initializer's name, type and dims, every node, the
 * graph's name index - then the first and last bytes of some tensors.
 * Exit status: 0 when every value was right, 1 otherwise, 2 when the peak
 * of the open and the walk (before the data is read) grew by more than
 * 12 MiB. */
static int open_and_walk(const char *path) {
  /* the peak so far goes: VmHWM restarts from the resident set (Linux
   * 4.0 and later; else the child's peak starts at the parent's) */
  FILE *cr = fopen("/proc/self/clear_refs", "w");
  if (cr) {
    fputs("5", cr);
    fclose(cr);
  }
  long rss0 = status_kib("VmRSS:"), file0 = status_kib("RssFile:");
  onnxslim_model *m = NULL;
  if (onnxslim_model_open(&m, path, NULL)) {
    fprintf(stderr, "open: %s\n", onnxslim_error_last());
    return 1;
  }
  long file_open = status_kib("RssFile:");
  const onnxslim_graph *g = onnxslim_model_graph(m);
  int ok =
      onnxslim_graph_initializer_count(g) == N_TENSORS && onnxslim_graph_node_count(g) == N_TENSORS;
  char name[32];
  for (size_t k = 0; ok && k < N_TENSORS; k++) {
    const onnxslim_tensor *t = onnxslim_graph_initializer(g, k);
    uint64_t size = 0;
    snprintf(name, sizeof name, "w%03zu", k);
    ok = t && strcmp(onnxslim_tensor_name(t), name) == 0 &&
         onnxslim_tensor_dtype(t) == ONNXSLIM_DTYPE_FLOAT &&
         (k % 2 ? onnxslim_tensor_rank(t) == 1 && onnxslim_tensor_dim(t, 0) == T_FLOATS
                : onnxslim_tensor_rank(t) == 2 && onnxslim_tensor_dim(t, 0) == T_ROWS &&
                      onnxslim_tensor_dim(t, 1) == T_FLOATS / T_ROWS) &&
         onnxslim_tensor_element_count(t) == T_FLOATS && onnxslim_tensor_byte_size(t, &size) == 0 &&
         size == (uint64_t)T_FLOATS * 4 && onnxslim_graph_find_initializer(g, name) == t &&
         onnxslim_graph_consumer_count(g, name) == 1;
    const onnxslim_node *n = onnxslim_graph_node(g, k);
    ok = ok && n && strcmp(onnxslim_node_op_type(n), "Identity") == 0;
  }
  long file_walk = status_kib("RssFile:"), hwm = status_kib("VmHWM:");
  /* the data, read through the mapping (which maps it), is the file's */
  for (size_t k = 0; ok && k < N_TENSORS; k += 37) {
    const onnxslim_tensor *t = onnxslim_graph_initializer(g, k);
    uint8_t b[2][16];
    const size_t last = (size_t)T_FLOATS * 4 - 16;
    ok = onnxslim_tensor_read(t, 0, b[0], 16) == 0 && onnxslim_tensor_read(t, last, b[1], 16) == 0;
    for (size_t i = 0; ok && i < 16; i++)
      ok = b[0][i] == byte_of(k, i) && b[1][i] == byte_of(k, last + i);
  }
  onnxslim_model_free(m);
  printf(
      "memory: open + walk of a %d-tensor model of 72 MiB: VmHWM +%ld KiB; RssFile %ld KiB "
      "before, %ld after open, %ld after the walk\n",
      N_TENSORS, hwm - rss0, file0, file_open, file_walk);
  fflush(stdout); /* the child leaves with _exit() */
  if (!ok) return 1;
  if (rss0 < 0 || hwm < 0) return 0; /* no /proc: nothing to measure */
  return hwm - rss0 > 12 * 1024 || file_walk - file0 > 8 * 1024 ? 2 : 0;
}

/* Opening a model and reading its metadata leaves its weights unmapped: the
 * parse reads the file's bytes (pread) instead of touching the mapping,
 * where reading the header of each tensor through it mapped the page-cache
 * folio around it (the whole 72 MiB here, in large folios; 64 KiB a header
 * in small ones, 18 MiB). */
TEST(open_and_walk_keep_weights_unmapped) {
  char path[300];
  PATH(path, "%s/spread.onnx", dir);
  REQUIRE(write_model(path) == 0);
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) _exit(open_and_walk(path));
  int st = 0;
  REQUIRE(pid > 0 && waitpid(pid, &st, 0) == pid);
  CHECK(WIFEXITED(st) && WEXITSTATUS(st) != 1); /* the values */
  CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0); /* the memory */
  unlink(path);
}

/* Starts a fresh peak in a child: VmHWM restarts from the resident set
 * (Linux 4.0 and later). Returns VmRSS. */
static long fresh_peak(void) {
  FILE *cr = fopen("/proc/self/clear_refs", "w");
  if (cr) {
    fputs("5", cr);
    fclose(cr);
  }
  return status_kib("VmRSS:");
}

/* In a child: reads 16 bytes at the start, the middle and the end of every
 * tensor with onnxslim_tensor_read (scattered reads, each a few bytes among
 * 256 KiB weights). 0: the values right and RssFile grown by at most 4 MiB;
 * 1: a wrong value; 2: too much mapped. */
static int scattered_reads(const char *path) {
  long rss0 = fresh_peak(), file0 = status_kib("RssFile:");
  onnxslim_model *m = NULL;
  if (onnxslim_model_open(&m, path, NULL)) return 1;
  const onnxslim_graph *g = onnxslim_model_graph(m);
  int ok = onnxslim_graph_initializer_count(g) == N_TENSORS;
  const size_t bytes = (size_t)T_FLOATS * 4, at[3] = {0, bytes / 2 + 3, bytes - 16};
  for (size_t k = 0; ok && k < N_TENSORS; k++)
    for (size_t j = 0; ok && j < 3; j++) {
      uint8_t b[16];
      ok = onnxslim_tensor_read(onnxslim_graph_initializer(g, k), at[j], b, 16) == 0;
      for (size_t i = 0; ok && i < 16; i++) ok = b[i] == byte_of(k, at[j] + i);
    }
  long file1 = status_kib("RssFile:"), hwm = status_kib("VmHWM:");
  onnxslim_model_free(m);
  printf("memory: %d x 3 scattered reads: VmHWM +%ld KiB, RssFile +%ld KiB\n", N_TENSORS,
         hwm - rss0, file1 - file0);
  fflush(stdout);
  if (!ok) return 1;
  if (rss0 < 0 || file0 < 0) return 0;
  return file1 - file0 > 4 * 1024 ? 2 : 0;
}

/* Runs fn(path) in a child: CHECKs its values (exit 0 or 2) and its memory
 * (exit 0). */
static void in_child(int (*fn)(const char *), const char *path) {
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) _exit(fn(path));
  int st = 0;
  REQUIRE(pid > 0 && waitpid(pid, &st, 0) == pid);
  CHECK(WIFEXITED(st) && WEXITSTATUS(st) != 1); /* the values */
  CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0); /* the memory */
}

/* Reading tensors with onnxslim_tensor_read maps none of the weights: the
 * bytes come from the file (pread), where copying them out of the mapping
 * mapped the folio around each read (2 MiB a read in large folios). */
TEST(scattered_tensor_reads_keep_weights_unmapped) {
  char path[300];
  PATH(path, "%s/scattered.onnx", dir);
  REQUIRE(write_model(path) == 0);
  in_child(scattered_reads, path);
  unlink(path);
}

/* In a child: the 72 MiB model converted to BF16 with the statistics pass,
 * saved with every tensor in one data file and again as one file, the
 * results read back and compared with the kernel's output. 0, 1 (a wrong
 * byte, a failure), 2 (VmHWM grew by more than 16 MiB). */
static int convert_and_save(const char *path) {
  long rss0 = fresh_peak();
  onnxslim_model *m = NULL;
  onnxslim_convert_report *rep = NULL;
  char x[300], one[300];
  snprintf(x, sizeof x, "%s.x.onnx", path);
  snprintf(one, sizeof one, "%s.one.onnx", path);
  onnxslim_convert_options o = ONNXSLIM_CONVERT_OPTIONS_INIT;
  o.policy = ONNXSLIM_CONVERT_POLICY_STORAGE_ONLY;
  onnxslim_save_options xo = ONNXSLIM_SAVE_OPTIONS_INIT, so = ONNXSLIM_SAVE_OPTIONS_INIT;
  xo.layout = ONNXSLIM_LAYOUT_ONE_FILE;
  xo.size_threshold = 0;
  xo.flags = so.flags = ONNXSLIM_SAVE_NO_FSYNC;
  so.layout = ONNXSLIM_LAYOUT_INLINE;
  if (onnxslim_model_open(&m, path, NULL) || onnxslim_convert_model(&rep, m, &o) ||
      onnxslim_save(NULL, m, x, &xo) || onnxslim_save(NULL, m, one, &so)) {
    fprintf(stderr, "convert and save: %s\n", onnxslim_error_last());
    return 1;
  }
  long file1 = status_kib("RssFile:"), hwm = status_kib("VmHWM:");
  int ok = onnxslim_convert_report_count(rep) == N_TENSORS;
  onnxslim_convert_report_free(rep);
  onnxslim_model_free(m);
  printf("memory: convert %d tensors (72 MiB) and save twice: VmHWM +%ld KiB, RssFile %ld KiB\n",
         N_TENSORS, hwm - rss0, file1);
  fflush(stdout);
  /* both outputs hold the kernel's bytes */
  const size_t n = T_FLOATS;
  uint8_t *src = malloc(n * 4), *want = malloc(n * 2), *got = malloc(n * 2);
  if (!src || !want || !got) abort();
  for (int f = 0; ok && f < 2; f++) {
    onnxslim_model *r = NULL;
    ok = onnxslim_model_open(&r, f ? one : x, NULL) == 0;
    const onnxslim_graph *g = ok ? onnxslim_model_graph(r) : NULL;
    for (size_t k = 0; ok && k < N_TENSORS; k += 17) {
      for (size_t i = 0; i < n * 4; i++) src[i] = byte_of(k, i);
      float *sf = malloc(n * 4);
      if (!sf) abort();
      memcpy(sf, src, n * 4);
      ok = onnxslim_convert_f32_to_bf16((uint16_t *)(void *)want, sf, n, 0, NULL) == 0 &&
           onnxslim_tensor_read(onnxslim_graph_initializer(g, k), 0, got, n * 2) == 0 &&
           memcmp(want, got, n * 2) == 0;
      free(sf);
    }
    onnxslim_model_free(r);
  }
  free(src);
  free(want);
  free(got);
  unlink(x);
  strcat(x, ".data");
  unlink(x);
  unlink(one);
  if (!ok) return 1;
  if (rss0 < 0 || hwm < 0) return 0;
  return hwm - rss0 > 16 * 1024 ? 2 : 0;
}

/* Converting (the statistics pass) and saving (the conversion streamed,
 * unchanged bytes copied by the kernel, small pieces read through a
 * window) map none of the weights: the peak stays a few MiB over a 72 MiB
 * model written in large folios, and the outputs hold the right bytes. */
TEST(convert_and_save_keep_weights_unmapped) {
  char path[300];
  PATH(path, "%s/convert.onnx", dir);
  REQUIRE(write_model(path) == 0);
  in_child(convert_and_save, path);
  unlink(path);
}

/* In a child: the fingerprint of the model opened from path equals the
 * one of the same bytes loaded from a buffer, and maps none of the
 * weights. 0, 1 (differs, failed), 2 (RssFile grew by more than 4 MiB). */
static int fingerprint_file(const char *path) {
  char a[ONNXSLIM_FINGERPRINT_SIZE], b[ONNXSLIM_FINGERPRINT_SIZE];
  long rss0 = fresh_peak(), file0 = status_kib("RssFile:");
  onnxslim_model *m = NULL;
  if (onnxslim_model_open(&m, path, NULL) || onnxslim_fingerprint(a, sizeof a, m)) return 1;
  long file1 = status_kib("RssFile:"), hwm = status_kib("VmHWM:");
  onnxslim_model_free(m);
  printf("memory: fingerprint of a %d-tensor model of 72 MiB: VmHWM +%ld KiB, RssFile +%ld KiB\n",
         N_TENSORS, hwm - rss0, file1 - file0);
  fflush(stdout);
  FILE *f = fopen(path, "rb");
  if (!f) return 1;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  uint8_t *buf = malloc(n > 0 ? (size_t)n : 1);
  int ok = buf && n > 0 && fread(buf, 1, (size_t)n, f) == (size_t)n;
  fclose(f);
  ok = ok && onnxslim_model_from_buffer(&m, buf, (size_t)n, ONNXSLIM_BORROW, NULL) == 0;
  ok = ok && onnxslim_fingerprint(b, sizeof b, m) == 0 && strcmp(a, b) == 0;
  if (ok) onnxslim_model_free(m);
  free(buf);
  if (!ok) return 1;
  if (rss0 < 0 || file0 < 0) return 0;
  return file1 - file0 > 4 * 1024 ? 2 : 0;
}

/* The fingerprint reads a mapped model's bytes from the file: small
 * pieces through a read-ahead window, tensors a buffer at a time. */
TEST(fingerprint_keeps_weights_unmapped) {
  char path[300];
  PATH(path, "%s/fingerprint.onnx", dir);
  REQUIRE(write_model(path) == 0);
  in_child(fingerprint_file, path);
  unlink(path);
}

/* In a child: the model at path opened, then its file cut to half its
 * size (another program rewriting it): reading, converting and saving the
 * lost tensors fail with ONNXSLIM_EIO and a message, where reading them
 * through the mapping killed the process (SIGBUS). 0 or 1. */
static int file_gets_shorter(const char *path) {
  onnxslim_model *m = NULL;
  struct stat st;
  if (onnxslim_model_open(&m, path, NULL) || stat(path, &st) != 0 ||
      truncate(path, st.st_size / 2) != 0)
    return 1;
  const onnxslim_graph *g = onnxslim_model_graph(m);
  uint8_t b[16];
  int ok = onnxslim_tensor_read(onnxslim_graph_initializer(g, N_TENSORS - 1), 0, b, 16) ==
               ONNXSLIM_EIO &&
           strstr(onnxslim_error_last(), "shorter") != NULL;
  char out[300];
  snprintf(out, sizeof out, "%s.out.onnx", path);
  onnxslim_save_options xo = ONNXSLIM_SAVE_OPTIONS_INIT;
  xo.layout = ONNXSLIM_LAYOUT_ONE_FILE;
  xo.size_threshold = 0;
  ok = ok && onnxslim_save(NULL, m, out, &xo) == ONNXSLIM_EIO && access(out, F_OK) != 0;
  onnxslim_convert_report *rep = NULL;
  ok = ok && onnxslim_convert_model(&rep, m, NULL) == ONNXSLIM_EIO && rep == NULL;
  if (!ok) fprintf(stderr, "file_gets_shorter: %s\n", onnxslim_error_last());
  onnxslim_model_free(m);
  return ok ? 0 : 1;
}

TEST(file_gets_shorter_is_an_error_not_a_crash) {
  char path[300];
  PATH(path, "%s/shorter.onnx", dir);
  REQUIRE(write_model(path) == 0);
  in_child(file_gets_shorter, path);
  unlink(path);
}

int main(int argc, char **argv) {
  t_args(argc, argv);
  snprintf(dir, sizeof dir, "/tmp/libonnxslim-memory-XXXXXX");
  if (!mkdtemp(dir)) {
    perror("mkdtemp");
    return 1;
  }
  RUN(open_and_walk_keep_weights_unmapped);
  RUN(scattered_tensor_reads_keep_weights_unmapped);
  RUN(convert_and_save_keep_weights_unmapped);
  RUN(fingerprint_keeps_weights_unmapped);
  RUN(file_gets_shorter_is_an_error_not_a_crash);
  rmdir(dir);
  return t_done();
}
