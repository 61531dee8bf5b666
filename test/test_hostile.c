/* Hostile inputs on the file system (issue 14): model paths that are not
 * regular files (a FIFO must not block), the external-data path race
 * (a directory swapped for a symlink leading out while loading), data files
 * written through a symlinked subdirectory, and external_data entries that
 * onnx would read differently (duplicate keys, a NUL inside a value, a
 * location naming a directory).
 * Run from the repository root; everything lives in a temporary directory
 * that is removed at the end. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <onnxslim.h>

#include "util.h"

#include "pbuild.h"
#include "t.h"

static char dir[256];

#define REQUIRE(cond) \
  do {                \
    if (!(cond)) {    \
      CHECK(cond);    \
      return;         \
    }                 \
  } while (0)

static const char *P(char *buf, size_t cap, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, cap, fmt, ap);
  va_end(ap);
  return buf;
}
#define PATH(buf, ...) P(buf, sizeof buf, __VA_ARGS__)

static const char *subdir(char *buf, size_t cap, const char *name) {
  P(buf, cap, "%s/%s", dir, name);
  mkdir(buf, 0755);
  return buf;
}
#define SUBDIR(buf, name) subdir(buf, sizeof buf, name)

static int write_bytes(const char *path, const void *p, size_t n) {
  FILE *f = fopen(path, "wb");
  if (!f) return -1;
  int ok = fwrite(p, 1, n, f) == n;
  return fclose(f) == 0 && ok ? 0 : -1;
}

static int exists(const char *path) {
  struct stat st;
  return lstat(path, &st) == 0;
}

static int has(const char *msg, const char *part) { return msg && part && strstr(msg, part); }

/* Runs fn(arg) in a child; SIGKILL after ms milliseconds. Returns the exit
 * status, or 100 + the signal. */
static int in_child_timeout(int (*fn)(void *), void *arg, int ms) {
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) _exit(fn(arg));
  int status = 0;
  for (int waited = 0;; waited += 10) {
    pid_t w = waitpid(pid, &status, WNOHANG);
    if (w == pid) break;
    if (w < 0) return -1;
    if (waited >= ms) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      break;
    }
    usleep(10000);
  }
  if (WIFSIGNALED(status)) return 100 + WTERMSIG(status);
  return WEXITSTATUS(status);
}

/* ---- hand-built models ------------------------------------------------------------ *
 * One FLOAT[16] initializer "w" read by an Identity node, stored externally
 * with the given external_data entries (key, value, key, value, ...; a value
 * may hold a NUL when given with its length through pb_entry_n). */

typedef struct {
  const char *key, *value;
  size_t vlen; /* 0: strlen(value) */
} entry;

static pbuf model_with_entries(const entry *e, size_t n) {
  pbuf g = {0}, t = {0}, node = {0}, m = {0}, op = {0};
  pb_int(&t, 1, 16);
  pb_int(&t, 2, 1);
  pb_str(&t, 8, "w");
  for (size_t i = 0; i < n; i++) {
    pbuf x = {0};
    pb_str(&x, 1, e[i].key);
    pb_bytes(&x, 2, e[i].value, e[i].vlen ? e[i].vlen : strlen(e[i].value));
    pb_msg(&t, 13, &x);
  }
  pb_int(&t, 14, 1);
  pb_str(&node, 1, "w");
  pb_str(&node, 2, "y");
  pb_str(&node, 3, "id");
  pb_str(&node, 4, "Identity");
  pb_msg(&g, 1, &node);
  pb_str(&g, 2, "g");
  pb_msg(&g, 5, &t);
  pb_int(&m, 1, 8);
  pb_str(&m, 2, "test_hostile");
  pb_msg(&m, 7, &g);
  pb_int(&op, 2, 17);
  pb_msg(&m, 8, &op);
  return m;
}

/* Writes a model whose "w" is 64 bytes at offset 0 of `loc`. */
static void write_model_at(const char *path, const char *loc) {
  entry e[] = {{"location", loc, 0}, {"offset", "0", 0}, {"length", "64", 0}};
  pbuf b = model_with_entries(e, 3);
  write_bytes(path, b.p, b.n);
  free(b.p);
}

static onnxslim_tensor *init_w(onnxslim_model *m) {
  onnxslim_graph *g = onnxslim_model_graph(m);
  for (size_t i = 0; i < onnxslim_graph_initializer_count(g); i++) {
    onnxslim_tensor *t = onnxslim_graph_initializer(g, i);
    if (strcmp(onnxslim_tensor_name(t), "w") == 0) return t;
  }
  return NULL;
}

/* ================================ special files ================================ */

static int child_open_fifo(void *path) {
  onnxslim_model *m = (onnxslim_model *)1;
  int rc = onnxslim_model_open(&m, path, NULL);
  const char *msg = onnxslim_error_last();
  if (rc == ONNXSLIM_OK) onnxslim_model_free(m);
  return rc == ONNXSLIM_EIO && m == NULL && has(msg, path) && has(msg, "FIFO") ? 0 : 1;
}

/* A model path that is a FIFO, a directory or a character device is refused
 * at once, with a message naming the path and what it is. */
TEST(open_special_files) {
  char d[300], p[400];
  SUBDIR(d, "special");
  REQUIRE(mkfifo(PATH(p, "%s/fifo.onnx", d), 0644) == 0);
  int st = in_child_timeout(child_open_fifo, p, 5000);
  if (st == 100 + SIGKILL)
    fprintf(stderr, "onnxslim_model_open on a FIFO blocks (killed after 5 s)\n");
  CHECK(st == 0);
  onnxslim_model *m = (onnxslim_model *)1;
  CHECK(onnxslim_model_open(&m, d, NULL) == ONNXSLIM_EIO && m == NULL);
  CHECK(has(onnxslim_error_last(), d) && has(onnxslim_error_last(), "a directory"));
  m = (onnxslim_model *)1;
  CHECK(onnxslim_model_open(&m, "/dev/null", NULL) == ONNXSLIM_EIO && m == NULL);
  CHECK(has(onnxslim_error_last(), "/dev/null") &&
        has(onnxslim_error_last(), "a character device"));
}

int main(void) {
  snprintf(dir, sizeof dir, "/tmp/onnxslim-hostile-XXXXXX");
  if (!mkdtemp(dir)) {
    perror("mkdtemp");
    return 1;
  }
  chmod(dir, 0755);
  RUN(open_special_files);
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system(cmd) != 0) fprintf(stderr, "cleanup of %s failed\n", dir);
  return t_done();
}
