/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/* Hostile inputs on the file system (issue 14): model paths that are not
 * regular files (a FIFO must not block), the external-data path race
 * (a directory swapped for a symlink leading out while loading), data files
 * written through a symlinked subdirectory (and the side files of such saves:
 * temporaries, journal, generations), and external_data entries that
 * onnx would read differently (duplicate keys, a NUL inside a value, a
 * location naming a directory).
 * Run from the repository root; everything lives in a temporary directory
 * that is removed at the end. */
#define _GNU_SOURCE
#include <dirent.h>
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

#include "child.h"
#include "util.h"

#include "pbuild.h"
#include "t.h"

static char dir[256];

static const char *subdir(char *buf, size_t cap, const char *name) {
  P(buf, cap, "%s/%s", dir, name);
  mkdir(buf, 0755);
  return buf;
}
#define SUBDIR(buf, name) subdir(buf, sizeof buf, name)

static int exists(const char *path) {
  struct stat st;
  return lstat(path, &st) == 0;
}

/* n = number of entries in directory d other than . and .. */
#define DIR_COUNT(d, n)                                               \
  do {                                                                \
    DIR *dd_ = opendir(d);                                            \
    struct dirent *e_;                                                \
    while (dd_ && (e_ = readdir(dd_)))                                \
      if (strcmp(e_->d_name, ".") && strcmp(e_->d_name, "..")) (n)++; \
    if (dd_) closedir(dd_);                                           \
  } while (0)

static int has(const char *msg, const char *part) { return msg && part && strstr(msg, part); }

/* ---- hand-built models ------------------------------------------------------------ *
 * One FLOAT[16] initializer "w" read by an Identity node, stored externally
 * with the given external_data entries (key, value, key, value, ...; a value
 * may hold a NUL when given with its length through pb_entry_n). */

typedef struct {
  const char *key, *value;
  size_t vlen; /* 0: strlen(value) */
  size_t klen; /* 0: strlen(key) */
} entry;

static pbuf model_with_entries(const entry *e, size_t n) {
  pbuf g = {0}, t = {0}, node = {0}, m = {0}, op = {0};
  pb_int(&t, 1, 16);
  pb_int(&t, 2, 1);
  pb_str(&t, 8, "w");
  for (size_t i = 0; i < n; i++) {
    pbuf x = {0};
    pb_bytes(&x, 1, e[i].key, e[i].klen ? e[i].klen : strlen(e[i].key));
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
  entry e[] = {{"location", loc, 0, 0}, {"offset", "0", 0, 0}, {"length", "64", 0, 0}};
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
  onnxslim_model *m = (onnxslim_model *)1;
  CHECK(onnxslim_model_open(&m, d, NULL) == ONNXSLIM_EIO && m == NULL);
  CHECK(has(onnxslim_error_last(), d) && has(onnxslim_error_last(), "a directory"));
#if defined(_WIN32)
  /* a device name: never read as a model */
  m = (onnxslim_model *)1;
  CHECK(onnxslim_model_open(&m, "NUL", NULL) != ONNXSLIM_OK && m == NULL);
  fprintf(stderr, "open \"NUL\": %s\n", onnxslim_error_last());
  (void)p;
#else
  REQUIRE(mkfifo(PATH(p, "%s/fifo.onnx", d), 0644) == 0);
  int st = in_child_timeout(child_open_fifo, p, 5000);
  if (st == 100 + SIGKILL)
    fprintf(stderr, "onnxslim_model_open on a FIFO blocks (killed after 5 s)\n");
  CHECK(st == 0);
  m = (onnxslim_model *)1;
  CHECK(onnxslim_model_open(&m, "/dev/null", NULL) == ONNXSLIM_EIO && m == NULL);
  CHECK(has(onnxslim_error_last(), "/dev/null") &&
        has(onnxslim_error_last(), "a character device"));
#endif
}

/* ============================ the external-data path race ============================ *
 * race/outside/d/w.bin holds 64 bytes the model must never read; the model
 * race/m/model.onnx reads "d/w.bin", where race/m/d is a directory with its
 * own w.bin and race/m/x a symlink to ../outside/d. A thread swaps d and x
 * (renameat2 RENAME_EXCHANGE) as fast as it can while the loader loads the
 * model again and again: a load may fail (d is the symlink at that moment)
 * or read the inside bytes, never the outside ones. */

#if !defined(_WIN32)
static atomic_int race_stop;
static char race_d[400], race_x[400];

static void *swapper(void *unused) {
  (void)unused;
  while (!atomic_load(&race_stop)) renameat2(AT_FDCWD, race_d, AT_FDCWD, race_x, RENAME_EXCHANGE);
  return NULL;
}

typedef struct {
  long loads, inside, outside, refused, other;
} race_counts;

/* Loads `model` in a loop for `seconds` (or `max_loads` loads) while the
 * swapper runs. */
static void race_run(const char *model, double seconds, long max_loads, race_counts *c) {
  uint8_t in[64], out[64];
  for (int i = 0; i < 64; i++) {
    in[i] = (uint8_t)(i + 1);
    out[i] = (uint8_t)(0xA0 + i);
  }
  memset(c, 0, sizeof *c);
  atomic_store(&race_stop, 0);
  pthread_t th;
  if (pthread_create(&th, NULL, swapper, NULL) != 0) {
    c->other = -1;
    return;
  }
  struct timespec t0, t;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (;;) {
    clock_gettime(CLOCK_MONOTONIC, &t);
    if (c->loads >= max_loads ||
        (double)(t.tv_sec - t0.tv_sec) + (double)(t.tv_nsec - t0.tv_nsec) / 1e9 > seconds)
      break;
    c->loads++;
    onnxslim_model *m = NULL;
    if (onnxslim_model_open(&m, model, NULL) != ONNXSLIM_OK) {
      c->refused++;
      continue;
    }
    const void *data = NULL;
    size_t n = 0;
    onnxslim_tensor *w = init_w(m);
    if (w && onnxslim_tensor_data(w, &data, &n) == ONNXSLIM_OK && n == 64) {
      if (memcmp(data, in, 64) == 0) c->inside++;
      else if (memcmp(data, out, 64) == 0) c->outside++;
      else c->other++;
    } else {
      c->other++;
    }
    onnxslim_model_free(m);
  }
  atomic_store(&race_stop, 1);
  pthread_join(th, NULL);
}

static void make_race_fixture(char *model, size_t cap) {
  char d[300], p[400];
  uint8_t in[64], out[64];
  for (int i = 0; i < 64; i++) {
    in[i] = (uint8_t)(i + 1);
    out[i] = (uint8_t)(0xA0 + i);
  }
  SUBDIR(d, "race");
  mkdir(PATH(p, "%s/outside", d), 0755);
  mkdir(PATH(p, "%s/outside/d", d), 0755);
  write_bytes(PATH(p, "%s/outside/d/w.bin", d), out, 64);
  mkdir(PATH(p, "%s/m", d), 0755);
  PATH(race_d, "%s/m/d", d);
  PATH(race_x, "%s/m/x", d);
  if (!exists(race_d)) {
    mkdir(race_d, 0755);
    write_bytes(PATH(p, "%s/w.bin", race_d), in, 64);
    CHECK(symlink("../outside/d", race_x) == 0);
  }
  P(model, cap, "%s/m/model.onnx", d);
  write_model_at(model, "d/w.bin");
}

static void race_report(const char *what, const race_counts *c) {
  fprintf(stderr,
          "%s: %ld loads: %ld read the inside file, %ld refused, %ld read the OUTSIDE file, "
          "%ld other\n",
          what, c->loads, c->inside, c->refused, c->outside, c->other);
}

TEST(race_location_swap) {
  char model[400];
  make_race_fixture(model, sizeof model);
  race_counts c;
  race_run(model, 3.0, 200000, &c);
  race_report("race (openat2 where the kernel has it)", &c);
  CHECK(c.outside == 0);
  CHECK(c.other == 0);
  CHECK(c.inside > 0); /* the race ran: both states were seen */
  CHECK(c.refused > 0);
}
#else
TEST(race_location_swap) { POSIX_ONLY("renameat2 and symbolic links"); }
#endif

#if defined(__linux__)
#  include <linux/filter.h>
#  include <linux/seccomp.h>
#  include <stddef.h>
#  include <sys/prctl.h>
#  include <sys/syscall.h>

/* Makes openat2 fail with ENOSYS in this process, as on a kernel before
 * 5.6 or in a sandbox that does not know it. 1: done, 0: not possible. */
static int block_openat2(void) {
#  ifdef SYS_openat2
  struct sock_filter f[] = {
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_openat2, 0, 1),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
  };
  struct sock_fprog prog = {(unsigned short)(sizeof f / sizeof f[0]), f};
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return 0;
  if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0) return 0;
  errno = 0;
  return syscall(SYS_openat2, AT_FDCWD, ".", NULL, 0) < 0 && errno == ENOSYS;
#  else
  return 0;
#  endif
}

/* In a child without openat2: the race, and the symlink rules of the
 * user-space walk (the same as the kernel's). Exit 0: fine, 77: openat2
 * could not be blocked here, else the number of failed checks. */
static int child_without_openat2(void *model) {
  if (!block_openat2()) return 77;
  int before = t_cur_failed;
  race_counts c;
  race_run(model, 3.0, 200000, &c);
  race_report("race (without openat2: the walk in user space)", &c);
  CHECK(c.outside == 0);
  CHECK(c.other == 0);
  CHECK(c.inside > 0);
  /* inner symlinks are followed, ones leading out refused */
  char d[300], p[400], q[400];
  SUBDIR(d, "nowalk");
  uint8_t b[64] = {0};
  mkdir(PATH(p, "%s/base", d), 0755);
  mkdir(PATH(p, "%s/base/sub", d), 0755);
  write_bytes(PATH(p, "%s/base/sub/w.bin", d), b, 64);
  write_bytes(PATH(p, "%s/out.bin", d), b, 64);
  symlink("sub", PATH(p, "%s/base/subl", d));
  symlink("../sub/w.bin", PATH(p, "%s/base/sub/self.bin", d));
  symlink("../out.bin", PATH(p, "%s/base/rel_out.bin", d));
  symlink(PATH(q, "%s/base/sub/w.bin", d), PATH(p, "%s/base/abs.bin", d));
  symlink("..", PATH(p, "%s/base/up", d));
  symlink("loop2", PATH(p, "%s/base/loop1", d));
  symlink("loop1", PATH(p, "%s/base/loop2", d));
  static const struct {
    const char *loc;
    int ok;
  } cases[] = {{"sub/w.bin", 1},         {"subl/w.bin", 1},  {"subl/self.bin", 1},
               {"./subl/./w.bin", 1},    {"rel_out.bin", 0}, {"abs.bin", 0},
               {"up/base/sub/w.bin", 0}, {"loop1", 0},       {"subl", 0},
               {"sub/nope.bin", 0},      {"sub/w.bin/x", 0}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    PATH(p, "%s/base/m%zu.onnx", d, i);
    write_model_at(p, cases[i].loc);
    onnxslim_model *m = NULL;
    int rc = onnxslim_model_open(&m, p, NULL);
    if ((rc == ONNXSLIM_OK) != cases[i].ok) {
      fprintf(stderr, "without openat2: location '%s': %s\n", cases[i].loc,
              rc ? onnxslim_error_last() : "loaded");
      t_cur_failed++;
    }
    if (!cases[i].ok && i >= 4 && i <= 6 && !has(onnxslim_error_last(), "symlink")) {
      fprintf(stderr, "without openat2: location '%s': message %s\n", cases[i].loc,
              onnxslim_error_last());
      t_cur_failed++;
    }
    onnxslim_model_free(m);
  }
  return t_cur_failed != before;
}

TEST(race_location_swap_without_openat2) {
  char model[400];
  make_race_fixture(model, sizeof model);
  int st = in_child_timeout(child_without_openat2, model, 60000);
  if (st == 77) SKIP("seccomp cannot block openat2 here");
  CHECK(st == 0);
}
#endif

/* ===================== data files written through a symlinked directory ===================== */

/* A model whose FLOAT[16] "w" holds v (filled with 0..15) inline. */
static onnxslim_model *inline_model(float v[16]) {
  for (int i = 0; i < 16; i++) v[i] = (float)i;
  pbuf g = {0}, t = {0}, node = {0}, mm = {0}, op = {0};
  pb_int(&t, 1, 16);
  pb_int(&t, 2, 1);
  pb_str(&t, 8, "w");
  pb_bytes(&t, 9, v, 16 * sizeof *v);
  pb_str(&node, 1, "w");
  pb_str(&node, 2, "y");
  pb_str(&node, 4, "Identity");
  pb_msg(&g, 1, &node);
  pb_str(&g, 2, "g");
  pb_msg(&g, 5, &t);
  pb_int(&mm, 1, 8);
  pb_msg(&mm, 7, &g);
  pb_int(&op, 2, 17);
  pb_msg(&mm, 8, &op);
  onnxslim_model *m = NULL;
  CHECK_OK(onnxslim_model_from_buffer(&m, mm.p, mm.n, 0, NULL));
  free(mm.p);
  return m;
}

/* Saves m to path in one data file named loc, every tensor external. */
static int save_one_file(onnxslim_save_report **r, onnxslim_model *m, const char *path,
                         const char *loc) {
  onnxslim_save_options o;
  onnxslim_save_options_init(&o, ONNXSLIM_SAVE_OPTIONS_VERSION);
  o.layout = ONNXSLIM_LAYOUT_ONE_FILE;
  o.size_threshold = 0;
  o.location = loc;
  return onnxslim_save(r, m, path, &o);
}

/* 1 when the model at path loads and its "w" holds v[0..16). */
static int reads_back(const char *path, const float v[16]) {
  onnxslim_model *m = NULL;
  const void *data = NULL;
  size_t n = 0;
  int same = onnxslim_model_open(&m, path, NULL) == ONNXSLIM_OK &&
             onnxslim_tensor_data(init_w(m), &data, &n) == ONNXSLIM_OK && n == 16 * sizeof *v &&
             memcmp(data, v, n) == 0;
  onnxslim_model_free(m);
  return same;
}

/* Saving with location "link/w.data", where link is a symlink to a
 * directory outside the model's directory, is refused and writes nothing
 * anywhere; through a symlink that stays inside it works. */
TEST(save_location_through_symlink) {
  POSIX_ONLY("symbolic links");
  char d[300], p[400], q[400];
  SUBDIR(d, "wsym");
  mkdir(PATH(p, "%s/outside", d), 0755);
  mkdir(PATH(p, "%s/out", d), 0755);
  mkdir(PATH(p, "%s/out/sub", d), 0755);
  CHECK(symlink("../outside", PATH(p, "%s/out/link", d)) == 0);
  CHECK(symlink(PATH(q, "%s/outside", d), PATH(p, "%s/out/abslink", d)) == 0);
  CHECK(symlink("sub", PATH(p, "%s/out/subl", d)) == 0);
  /* a model with one inline tensor */
  float v[16];
  onnxslim_model *m = inline_model(v);
  REQUIRE(m);
  static const char *out_locs[] = {"link/w.data", "abslink/w.data", "subl/../link/w.data"};
  for (size_t i = 0; i < sizeof out_locs / sizeof out_locs[0]; i++) {
    int rc = save_one_file(NULL, m, PATH(p, "%s/out/m.onnx", d), out_locs[i]);
    const char *msg = onnxslim_error_last();
    if (strstr(out_locs[i], "..")) {
      CHECK(rc == ONNXSLIM_EINVAL); /* ".." is refused before anything */
    } else {
      CHECK(rc == ONNXSLIM_EINVAL && has(msg, out_locs[i]) && has(msg, "symlink"));
    }
    CHECK(!exists(PATH(q, "%s/out/m.onnx", d)));
    /* nothing at all was created outside */
    int n = 0;
    DIR_COUNT(PATH(q, "%s/outside", d), n);
    if (n) fprintf(stderr, "location '%s': %d files written outside\n", out_locs[i], n);
    CHECK(n == 0);
  }
  CHECK_OK(save_one_file(NULL, m, PATH(p, "%s/out/m.onnx", d), "subl/w.data"));
  CHECK(exists(PATH(q, "%s/out/sub/w.data", d)));
  onnxslim_model_free(m);
  CHECK(reads_back(p, v));
}

/* A pid that no process has (a child that exited). */
static long dead_pid(void) {
  fflush(NULL);
  pid_t p = fork();
  if (p == 0) _exit(0);
  if (p > 0) waitpid(p, NULL, 0);
  return (long)p;
}

/* Hidden entries of directory d (side files left behind). */
static int hidden_in(const char *d) {
  int n = 0;
  DIR *dd = opendir(d);
  struct dirent *e;
  while (dd && (e = readdir(dd)))
    if (e->d_name[0] == '.' && strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) n++;
  if (dd) closedir(dd);
  return n;
}

/* Saves m to d/out/m.onnx with location loc; the location the report gives
 * goes to got (or "" on failure). */
static int save_loc(onnxslim_model *m, const char *d, const char *loc, char *got, size_t cap) {
  char p[400];
  onnxslim_save_report *r = NULL;
  int rc = save_one_file(&r, m, PATH(p, "%s/out/m.onnx", d), loc);
  const char *l = NULL;
  got[0] = '\0';
  if (!rc && onnxslim_save_report_count(r) == 1)
    save_report_entry(r, 0, NULL, NULL, &l, NULL, NULL);
  if (l) snprintf(got, cap, "%s", l);
  onnxslim_save_report_free(r);
  return rc;
}

/* The generations, temporaries and journal of an external-data save in a
 * subdirectory (location "w/x.bin") live beneath the model's directory as
 * the data files do: saves alternate between w/x.bin and w/x_1.bin and
 * leave no side file; stale temporaries in w are removed; a stale journal
 * is recovered beneath the model's directory only - its entries that lead
 * out through a symlink remove or rename nothing outside; and a location
 * through such a symlink neither writes nor cleans anything outside. */
TEST(save_side_files_beneath) {
  POSIX_ONLY("symbolic links and a dead process's id");
  char d[300], p[400], q[400], got[300];
  SUBDIR(d, "sides");
  mkdir(PATH(p, "%s/outside", d), 0755);
  mkdir(PATH(p, "%s/out", d), 0755);
  mkdir(PATH(p, "%s/out/w", d), 0755);
  CHECK(symlink("../outside", PATH(p, "%s/out/link", d)) == 0);
  float v[16];
  onnxslim_model *m = inline_model(v);
  REQUIRE(m);
  /* generations in the subdirectory */
  static const char *const gens[] = {"w/x.bin", "w/x_1.bin", "w/x.bin"};
  for (int k = 0; k < 3; k++) {
    CHECK_OK(save_loc(m, d, "w/x.bin", got, sizeof got));
    if (strcmp(got, gens[k])) fprintf(stderr, "save %d: location '%s'\n", k, got);
    CHECK(strcmp(got, gens[k]) == 0);
    CHECK(exists(PATH(p, "%s/out/%s", d, gens[k])));
    CHECK(!exists(PATH(p, "%s/out/%s", d, gens[(k + 1) % 2])));
    CHECK(hidden_in(PATH(p, "%s/out", d)) == 0 && hidden_in(PATH(p, "%s/out/w", d)) == 0);
  }
  /* what a killed save left: a stale temporary in w, a stale journal next
   * to the model naming a file in w and files reached through link */
  long dead = dead_pid();
  REQUIRE(dead > 0);
  uint8_t junk[64] = {1};
  write_bytes(PATH(p, "%s/out/w/.x.bin.tmp-%ld-%ld-AAAAAA", d, dead, dead), junk, sizeof junk);
  write_bytes(PATH(p, "%s/out/w/x_7.bin", d), junk, sizeof junk);
  write_bytes(PATH(p, "%s/outside/x.bin", d), junk, sizeof junk);
  write_bytes(PATH(p, "%s/outside/.x.bin.bak-%ld-%ld-0", d, dead, dead), junk, sizeof junk);
  struct stat in, out;
  CHECK(stat(PATH(p, "%s/out/w/x_7.bin", d), &in) == 0);
  CHECK(stat(PATH(p, "%s/outside/x.bin", d), &out) == 0);
  char bak[100], journal[1000];
  snprintf(bak, sizeof bak, "link/.x.bin.bak-%ld-%ld-0", dead, dead);
  snprintf(journal, sizeof journal,
           "onnxslim-journal 1\nnew %llu %llu 9:w/x_7.bin\nnew %llu %llu 10:link/x.bin\n"
           "bak %zu:%s 10:link/y.bin\n",
           (unsigned long long)in.st_dev, (unsigned long long)in.st_ino,
           (unsigned long long)out.st_dev, (unsigned long long)out.st_ino, strlen(bak), bak);
  write_bytes(PATH(p, "%s/out/.m.onnx.journal-%ld-%ld-BBBBBB", d, dead, dead), journal,
              strlen(journal));
  CHECK_OK(save_loc(m, d, "w/x.bin", got, sizeof got));
  CHECK(strcmp(got, "w/x_1.bin") == 0);
  CHECK(!exists(PATH(p, "%s/out/w/.x.bin.tmp-%ld-%ld-AAAAAA", d, dead, dead)));
  CHECK(!exists(PATH(p, "%s/out/w/x_7.bin", d))); /* recovered beneath */
  CHECK(exists(PATH(p, "%s/outside/x.bin", d)));  /* not through link */
  CHECK(exists(PATH(p, "%s/outside/.x.bin.bak-%ld-%ld-0", d, dead, dead)));
  CHECK(!exists(PATH(p, "%s/outside/y.bin", d)));
  CHECK(hidden_in(PATH(p, "%s/out", d)) == 0 && hidden_in(PATH(p, "%s/out/w", d)) == 0);
  /* a location through link: refused, and nothing outside cleaned */
  write_bytes(PATH(p, "%s/outside/.x.bin.tmp-%ld-%ld-CCCCCC", d, dead, dead), junk, sizeof junk);
  int rc = save_loc(m, d, "link/x.bin", got, sizeof got);
  CHECK(rc == ONNXSLIM_EINVAL && has(onnxslim_error_last(), "symlink"));
  CHECK(exists(PATH(p, "%s/outside/.x.bin.tmp-%ld-%ld-CCCCCC", d, dead, dead)));
  int n = 0;
  DIR_COUNT(PATH(q, "%s/outside", d), n);
  CHECK(n == 3); /* x.bin, the bak and the tmp planted there, nothing else */
  /* and the model in place is still the one saved last */
  onnxslim_model_free(m);
  CHECK(reads_back(PATH(p, "%s/out/m.onnx", d), v));
}

/* Saves alternate between w/x.bin and w/x_1.bin in a subdirectory and
 * leave no side file, on every system (the part of the test above that
 * needs no symbolic link). */
TEST(save_generations_beneath) {
  char d[300], p[400], got[300];
  SUBDIR(d, "gens");
  mkdir(PATH(p, "%s/out", d), 0755);
  mkdir(PATH(p, "%s/out/w", d), 0755);
  float v[16];
  onnxslim_model *m = inline_model(v);
  REQUIRE(m);
  static const char *const gens[] = {"w/x.bin", "w/x_1.bin", "w/x.bin", "w/x_1.bin"};
  for (int k = 0; k < 4; k++) {
    CHECK_OK(save_loc(m, d, "w/x.bin", got, sizeof got));
    if (strcmp(got, gens[k])) fprintf(stderr, "save %d: location '%s'\n", k, got);
    CHECK(strcmp(got, gens[k]) == 0);
    CHECK(exists(PATH(p, "%s/out/%s", d, gens[k])));
    CHECK(!exists(PATH(p, "%s/out/%s", d, gens[(k + 1) % 2])));
    CHECK(hidden_in(PATH(p, "%s/out", d)) == 0 && hidden_in(PATH(p, "%s/out/w", d)) == 0);
    int n = 0;
    DIR_COUNT(PATH(p, "%s/out", d), n);
    CHECK(n == 2); /* m.onnx and w */
  }
  onnxslim_model_free(m);
  CHECK(reads_back(PATH(p, "%s/out/m.onnx", d), v));
}

/* ============================ entries onnx reads otherwise ============================ */

static char last_msg[1000]; /* the file load's error message */

/* Loads the model with entries e[0..n) from d (as a file and from a buffer
 * with base_dir d); returns the code of the file load, which the buffer load
 * must repeat, and keeps its message in last_msg. */
static int load_entries(const entry *e, size_t n, const char *d) {
  char p[400];
  pbuf b = model_with_entries(e, n);
  static int k;
  PATH(p, "%s/m%d.onnx", d, k++);
  write_bytes(p, b.p, b.n);
  onnxslim_model *m = NULL;
  int rc = onnxslim_model_open(&m, p, NULL);
  snprintf(last_msg, sizeof last_msg, "%s", onnxslim_error_last());
  onnxslim_model_free(m);
  onnxslim_load_options lo;
  onnxslim_load_options_init(&lo, ONNXSLIM_LOAD_OPTIONS_VERSION);
  lo.base_dir = d;
  m = NULL;
  int rc2 = onnxslim_model_from_buffer(&m, b.p, b.n, 0, &lo);
  onnxslim_model_free(m);
  free(b.p);
  if (rc2 != rc) {
    fprintf(stderr, "file load %d, buffer load %d\n", rc, rc2);
    t_cur_failed++;
  }
  return rc;
}

/* A key given twice is refused (onnx takes the last, a reader taking the
 * first reads other bytes); so is a NUL inside a value. A key with a NUL
 * inside is another key, ignored as onnx ignores it. */
TEST(external_keys_onnx_reads_otherwise) {
  char d[300], p[400];
  SUBDIR(d, "keys");
  uint8_t a[64], b[64];
  memset(a, 1, 64);
  memset(b, 2, 64);
  write_bytes(PATH(p, "%s/a.bin", d), a, 64);
  write_bytes(PATH(p, "%s/b.bin", d), b, 64);
  {
    entry e[] = {{"location", "a.bin", 0, 0}, {"length", "64", 0, 0}, {"location", "b.bin", 0, 0}};
    CHECK(load_entries(e, 3, d) == ONNXSLIM_EMODEL);
    CHECK(has(last_msg, "'w'") && has(last_msg, "'location'") && has(last_msg, "2 times"));
  }
  {
    entry e[] = {{"location", "a.bin", 0, 0},
                 {"offset", "0", 0, 0},
                 {"offset", "4", 0, 0},
                 {"length", "60", 0, 0}};
    CHECK(load_entries(e, 4, d) == ONNXSLIM_EMODEL);
    CHECK(has(last_msg, "'offset'") && has(last_msg, "2 times"));
  }
  {
    entry e[] = {{"location", "a.bin", 0, 0}, {"length", "64", 0, 0}, {"length", "64", 0, 0}};
    CHECK(load_entries(e, 3, d) == ONNXSLIM_EMODEL); /* even when the two agree */
    CHECK(has(last_msg, "'length'"));
  }
  {
    /* "a.bin\0/../b.bin": onnx opens the whole string (and fails) */
    entry e[] = {{"location", "a.bin\0/../b.bin", 15, 0}, {"length", "64", 0, 0}};
    CHECK(load_entries(e, 2, d) == ONNXSLIM_EMODEL);
    CHECK(has(last_msg, "location") && has(last_msg, "NUL"));
  }
  {
    entry e[] = {{"location", "a.bin", 0, 0},
                 {"offset",
                  "0\0"
                  "9",
                  3, 0},
                 {"length", "64", 0, 0}};
    CHECK(load_entries(e, 3, d) == ONNXSLIM_EMODEL);
    CHECK(has(last_msg, "offset") && has(last_msg, "NUL"));
  }
  {
    /* "location\0x" is not "location": the real one counts */
    entry e[] = {
        {"location", "a.bin", 0, 0}, {"location\0x", "b.bin", 0, 10}, {"length", "64", 0, 0}};
    CHECK(load_entries(e, 3, d) == ONNXSLIM_OK);
  }
}

/* A location that names a directory - "." (the base directory itself),
 * "sub/.", "sub/" - is refused with a message saying so, at load and at
 * save (where "sub/." used to write a file named "sub"). */
TEST(location_names_a_directory) {
  char d[300], p[400];
  SUBDIR(d, "dot");
  mkdir(PATH(p, "%s/sub", d), 0755);
  static const struct {
    const char *loc, *why;
  } cases[] = {{".", "the directory itself"},
               {"./", "the directory itself"},
               {"./.", "the directory itself"},
               {"sub/.", "naming a directory"},
               {"sub/", "naming a directory"}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    entry e[] = {{"location", cases[i].loc, 0, 0}, {"length", "64", 0, 0}};
    int rc = load_entries(e, 2, d);
    if (rc != ONNXSLIM_EMODEL || !has(last_msg, cases[i].why) || has(last_msg, "symlink")) {
      fprintf(stderr, "load, location '%s': %d %s\n", cases[i].loc, rc, last_msg);
      t_cur_failed++;
    }
  }
  /* saving */
  float v[16];
  onnxslim_model *m = inline_model(v);
  REQUIRE(m);
  SUBDIR(d, "dotsave");
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    int rc = save_one_file(NULL, m, PATH(p, "%s/m.onnx", d), cases[i].loc);
    if (rc != ONNXSLIM_EINVAL || !has(onnxslim_error_last(), cases[i].why)) {
      fprintf(stderr, "save, location '%s': %d %s\n", cases[i].loc, rc, onnxslim_error_last());
      t_cur_failed++;
    }
    CHECK(!exists(PATH(p, "%s/m.onnx", d)));
    CHECK(!exists(PATH(p, "%s/sub", d))); /* no file named after the directory */
  }
  onnxslim_model_free(m);
}

/* Locations that are paths of another kind on Windows: a drive (absolute
 * or drive-relative), a UNC path, backslashes (a separator there, so a
 * way to '..'), an alternate data stream, device names, trailing dots and
 * spaces. At load, with a.bin beneath holding the bytes, each is refused
 * or fails; none reads anything but a file beneath the model's directory.
 * At save, each is refused, or the saved model reads back the same bytes
 * (nothing lost to a device or a stream). The same on every system: the
 * forms refused by the location rules are refused on Linux too. */
TEST(location_windows_forms) {
  char d[300], p[400];
  SUBDIR(d, "winforms");
  mkdir(PATH(p, "%s/sub", d), 0755);
  uint8_t a[64];
  memset(a, 7, sizeof a);
  write_bytes(PATH(p, "%s/a.bin", d), a, sizeof a);
  static const struct {
    const char *loc;
    const char *why; /* the reason given everywhere; NULL: refused or failing */
    const char *win; /* the reason given on Windows, when another */
  } cases[] = {{"C:/a.bin", "absolute", NULL},
               {"C:a.bin", "absolute", NULL},
               {"c:\\a.bin", "absolute", NULL},
               {"\\\\server\\share\\a.bin", "absolute", NULL},
               {"//server/share/a.bin", "absolute", NULL},
               {"\\a.bin", "absolute", NULL},
               {"sub\\..\\a.bin", "backslash", NULL},
               {"..\\winforms\\a.bin", "backslash", NULL},
               {"a.bin:stream", NULL, "alternate data stream"},
               {"a.bin::$DATA", NULL, "alternate data stream"},
               {"NUL", NULL, "device name"},
               {"sub/NUL", NULL, "device name"},
               {"COM1", NULL, "device name"},
               {"aux.bin", NULL, "device name"},
               {"sub/Lpt1.txt", NULL, "device name"},
               {"con .bin", NULL, "device name"},
               {"a.bin.", NULL, "ending in '.' or ' '"},
               {"a.bin ", NULL, "ending in '.' or ' '"}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    entry e[] = {{"location", cases[i].loc, 0, 0}, {"length", "64", 0, 0}};
    int rc = load_entries(e, 2, d);
    const char *why = cases[i].why;
#if defined(_WIN32)
    if (cases[i].win) why = cases[i].win;
#endif
    int bad = rc == ONNXSLIM_OK || (why && !has(last_msg, why));
    if (bad || getenv("LIBONNXSLIM_TEST_VERBOSE"))
      fprintf(stderr, "load, location '%s': %d %s\n", cases[i].loc, rc, last_msg);
    if (bad) t_cur_failed++;
  }
  float v[16];
  onnxslim_model *m = inline_model(v);
  REQUIRE(m);
  SUBDIR(d, "winforms-save");
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    int rc = save_one_file(NULL, m, PATH(p, "%s/m.onnx", d), cases[i].loc);
    if (rc == ONNXSLIM_OK) {
      /* accepted (a name that is a plain file here): it must read back */
      if (!reads_back(p, v)) {
        fprintf(stderr, "save, location '%s': saved, but the data does not read back\n",
                cases[i].loc);
        t_cur_failed++;
      }
#if defined(_WIN32)
      /* on Windows none of these is a plain file name */
      fprintf(stderr, "save, location '%s': accepted on Windows\n", cases[i].loc);
      t_cur_failed++;
#endif
      remove(p);
    } else {
      CHECK(!exists(p));
      const char *why = cases[i].why;
#if defined(_WIN32)
      if (cases[i].win) why = cases[i].win;
#endif
      if (why && !has(onnxslim_error_last(), why)) {
        fprintf(stderr, "save, location '%s': %d %s\n", cases[i].loc, rc, onnxslim_error_last());
        t_cur_failed++;
      }
    }
  }
  onnxslim_model_free(m);
}

/* A save over the pair the model was loaded from while it is still loaded
 * (its files mapped). POSIX replaces mapped files: the save goes through.
 * Windows refuses to replace a mapped file: the save must then fail as a
 * failed commit does (ONNXSLIM_EIO naming the file), with the old pair
 * byte for byte in place and no side file left; once the model is freed
 * the same save goes through. */
TEST(save_over_mapped_model) {
  char d[300], p[400], q[400];
  SUBDIR(d, "mapped");
  float v[16];
  onnxslim_model *m = inline_model(v);
  REQUIRE(m);
  CHECK_OK(save_one_file(NULL, m, PATH(p, "%s/m.onnx", d), NULL));
  onnxslim_model_free(m);
  size_t n0 = 0, nd0 = 0;
  unsigned char *before = slurp(p, &n0), *dbefore = slurp(PATH(q, "%s/m.onnx.data", d), &nd0);
  REQUIRE(before && dbefore);
  m = NULL;
  REQUIRE(onnxslim_model_open(&m, p, NULL) == ONNXSLIM_OK);
  const void *data = NULL;
  size_t n = 0;
  CHECK(onnxslim_tensor_data(init_w(m), &data, &n) == ONNXSLIM_OK); /* mapped now */
  int rc = save_one_file(NULL, m, p, NULL);
#if defined(_WIN32)
  fprintf(stderr, "   save over the mapped model: %s%s\n", rc ? "refused: " : "done",
          rc ? onnxslim_error_last() : "");
  if (rc != ONNXSLIM_OK) {
    size_t n1 = 0, nd1 = 0;
    unsigned char *after = slurp(p, &n1), *dafter = slurp(q, &nd1);
    CHECK(rc == ONNXSLIM_EIO && has(onnxslim_error_last(), "m.onnx") &&
          has(onnxslim_error_last(), "free that model first"));
    CHECK(after && n1 == n0 && memcmp(after, before, n0) == 0);
    CHECK(dafter && nd1 == nd0 && memcmp(dafter, dbefore, nd0) == 0);
    free(after);
    free(dafter);
  }
#else
  CHECK_OK(rc);
#endif
  CHECK(hidden_in(d) == 0);
  CHECK(reads_back(p, v));
  onnxslim_model_free(m);
  CHECK(reads_back(p, v));
  /* freed: the same save goes through everywhere */
  m = inline_model(v);
  CHECK_OK(save_one_file(NULL, m, p, NULL));
  onnxslim_model_free(m);
  CHECK(hidden_in(d) == 0);
  CHECK(reads_back(p, v));
  free(before);
  free(dbefore);
}

int main(int argc, char **argv) {
  t_args(argc, argv);
  snprintf(dir, sizeof dir, "/tmp/libonnxslim-hostile-XXXXXX");
  if (!mkdtemp(dir)) {
    perror("mkdtemp");
    return 1;
  }
  chmod(dir, 0755);
  RUN(open_special_files);
  RUN(race_location_swap);
#if defined(__linux__)
  RUN(race_location_swap_without_openat2);
#endif
  RUN(save_location_through_symlink);
  RUN(save_side_files_beneath);
  RUN(save_generations_beneath);
  RUN(external_keys_onnx_reads_otherwise);
  RUN(location_names_a_directory);
  RUN(location_windows_forms);
  RUN(save_over_mapped_model);
  char cmd[300];
#if defined(_WIN32)
  for (char *c = dir; *c; c++)
    if (*c == '/') *c = '\\';
  snprintf(cmd, sizeof cmd, "rmdir /s /q \"%s\"", dir);
#else
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
#endif
  if (system(cmd) != 0) fprintf(stderr, "cleanup of %s failed\n", dir);
  return t_done();
}
