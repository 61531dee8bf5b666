/* Tests of atomic saving: temporary file + fsync + rename, nothing partial
 * left behind on failure, old file intact, saving over the source file. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <onnxslim.h>

#include "util.h"

#include "t.h"

#define BERT "test/data/bert-tiny.onnx"

static char dir[256];

static int same_file(const char *a, const char *b) {
  size_t na, nb;
  uint8_t *pa = slurp(a, &na), *pb = slurp(b, &nb);
  int same = pa && pb && na == nb && memcmp(pa, pb, na) == 0;
  free(pa);
  free(pb);
  return same;
}

static void write_file(const char *path, const char *text) {
  FILE *f = fopen(path, "wb");
  if (!f) return;
  fputs(text, f);
  fclose(f);
}

static int file_is(const char *path, const char *text) {
  size_t n;
  uint8_t *p = slurp(path, &n);
  int ok = p && n == strlen(text) && memcmp(p, text, n) == 0;
  free(p);
  return ok;
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

static onnxslim_model *open_bert(void) {
  onnxslim_model *m = NULL;
  if (onnxslim_model_open(&m, BERT, NULL) != 0) return NULL;
  return m;
}

TEST(save_new_and_replace) {
  char sub[300], path[400];
  snprintf(sub, sizeof sub, "%s/replace", dir);
  mkdir(sub, 0755);
  snprintf(path, sizeof path, "%s/out.onnx", sub);
  onnxslim_model *m = open_bert();
  CHECK(m != NULL);
  if (!m) return;
  CHECK_OK(onnxslim_save(NULL, m, path, NULL));
  CHECK(same_file(path, BERT));
  CHECK(count_entries(sub) == 1);
  /* replacing an existing file keeps its permission bits */
  write_file(path, "old contents");
  chmod(path, 0640);
  onnxslim_save_options so = ONNXSLIM_SAVE_OPTIONS_INIT;
  so.flags = ONNXSLIM_SAVE_NO_FSYNC;
  CHECK_OK(onnxslim_save(NULL, m, path, &so));
  CHECK(same_file(path, BERT));
  struct stat st;
  CHECK(stat(path, &st) == 0 && (st.st_mode & 0777) == 0640);
  CHECK(count_entries(sub) == 1);
  so.flags = 0x100;
  CHECK(onnxslim_save(NULL, m, path, &so) == ONNXSLIM_EINVAL);
  CHECK(onnxslim_save_options_init(&so, ONNXSLIM_SAVE_OPTIONS_VERSION) == 0 && so.flags == 0);
  onnxslim_model_free(m);
}

TEST(save_failures_leave_nothing) {
  onnxslim_model *m = open_bert();
  CHECK(m != NULL);
  if (!m) return;
  char sub[300], path[400];
  snprintf(sub, sizeof sub, "%s/fail", dir);
  mkdir(sub, 0755);
  /* directory does not exist */
  snprintf(path, sizeof path, "%s/missing/out.onnx", sub);
  CHECK(onnxslim_save(NULL, m, path, NULL) == ONNXSLIM_EIO);
  CHECK(strstr(onnxslim_error_last(), "missing") != NULL);
  /* the target is a directory: rename fails, the directory is untouched */
  snprintf(path, sizeof path, "%s/adir", sub);
  mkdir(path, 0755);
  CHECK(onnxslim_save(NULL, m, path, NULL) == ONNXSLIM_EIO);
  struct stat st;
  CHECK(stat(path, &st) == 0 && S_ISDIR(st.st_mode));
  CHECK(count_entries(sub) == 1); /* no temporary file left */
  CHECK(onnxslim_save(NULL, m, "", NULL) == ONNXSLIM_EINVAL);
  CHECK(onnxslim_save(NULL, m, NULL, NULL) == ONNXSLIM_EINVAL);
  onnxslim_model_free(m);
}

/* Runs fn in a child process and returns its exit status (or 100+signal). */
static int in_child(int (*fn)(const char *), const char *arg) {
  pid_t pid = fork();
  if (pid == 0) _exit(fn(arg));
  int status = 0;
  waitpid(pid, &status, 0);
  if (WIFSIGNALED(status)) return 100 + WTERMSIG(status);
  return WEXITSTATUS(status);
}

static int child_fsize(const char *path) {
  /* the default SIGXFSZ action would kill us: the library must check first */
  struct rlimit rl = {4096, 4096};
  if (setrlimit(RLIMIT_FSIZE, &rl) != 0) return 2;
  onnxslim_model *m = open_bert();
  if (!m) return 3;
  int rc = onnxslim_save(NULL, m, path, NULL);
  onnxslim_model_free(m);
  if (rc != ONNXSLIM_ENOSPC) return 4;
  if (!strstr(onnxslim_error_last(), "file size limit")) return 5;
  return 0;
}

TEST(save_over_file_size_limit) {
  char sub[300], path[400];
  snprintf(sub, sizeof sub, "%s/fsize", dir);
  mkdir(sub, 0755);
  snprintf(path, sizeof path, "%s/out.onnx", sub);
  write_file(path, "previous model");
  int st = in_child(child_fsize, path);
  CHECK(st == 0);
  if (st) fprintf(stderr, "child status %d\n", st);
  CHECK(file_is(path, "previous model"));
  CHECK(count_entries(sub) == 1);
}

static int child_unwritable(const char *path) {
  /* Load the model while still the caller: once nobody, the source tree may
   * be out of reach (a checkout under a mode-700 home directory), and what
   * this tests is the save, not the load. */
  onnxslim_model *m = open_bert();
  if (!m) return 3;
  /* root ignores directory permissions: become nobody before saving */
  if (getuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0)) {
    onnxslim_model_free(m);
    return 2;
  }
  int rc = onnxslim_save(NULL, m, path, NULL);
  onnxslim_model_free(m);
  if (rc != ONNXSLIM_EIO) return 4;
  if (!strstr(onnxslim_error_last(), "temporary file")) return 5;
  return 0;
}

TEST(save_into_unwritable_directory) {
  char sub[300], path[400];
  snprintf(sub, sizeof sub, "%s/ro", dir);
  mkdir(sub, 0755);
  snprintf(path, sizeof path, "%s/out.onnx", sub);
  write_file(path, "previous model");
  chmod(path, 0666);
  chmod(sub, 0555);
  int st = in_child(child_unwritable, path);
  CHECK(st == 0);
  if (st) fprintf(stderr, "child status %d\n", st);
  CHECK(file_is(path, "previous model"));
  CHECK(count_entries(sub) == 1);
  chmod(sub, 0755);
}

TEST(save_on_full_disk) {
  char sub[300], path[400];
  snprintf(sub, sizeof sub, "%s/full", dir);
  mkdir(sub, 0755);
  /* a 16 KiB tmpfs cannot hold the 32 KiB model */
  if (mount("tmpfs", sub, "tmpfs", 0, "size=16k") != 0) {
    char why[128];
    snprintf(why, sizeof why, "cannot mount a small tmpfs (%s)", strerror(errno));
    SKIP(why);
  }
  snprintf(path, sizeof path, "%s/out.onnx", sub);
  write_file(path, "previous model");
  onnxslim_model *m = open_bert();
  CHECK(m != NULL);
  if (m) {
    CHECK(onnxslim_save(NULL, m, path, NULL) == ONNXSLIM_ENOSPC);
    onnxslim_model_free(m);
  }
  CHECK(file_is(path, "previous model"));
  CHECK(count_entries(sub) == 1);
  umount(sub);
}

TEST(save_over_source) {
  char path[400];
  snprintf(path, sizeof path, "%s/self.onnx", dir);
  size_t n;
  uint8_t *orig = slurp(BERT, &n);
  FILE *f = fopen(path, "wb");
  CHECK(f && fwrite(orig, 1, n, f) == n);
  if (f) fclose(f);
  onnxslim_model *m = NULL;
  CHECK_OK(onnxslim_model_open(&m, path, NULL));
  if (!m) {
    free(orig);
    return;
  }
  CHECK_OK(onnxslim_model_set_producer(m, "rewritten", NULL));
  CHECK_OK(onnxslim_save(NULL, m, path, NULL));
  /* the loaded model still reads its (now unlinked) source */
  onnxslim_graph *g = onnxslim_model_graph(m);
  onnxslim_tensor *t = onnxslim_graph_find_initializer(g, "roberta.embeddings.word_embeddings.weight");
  const void *d;
  size_t sz;
  CHECK_OK(onnxslim_tensor_data(t, &d, &sz));
  /* and can save over the file again */
  CHECK_OK(onnxslim_save(NULL, m, path, NULL));
  onnxslim_model *m2 = NULL;
  CHECK_OK(onnxslim_model_open(&m2, path, NULL));
  if (m2) {
    CHECK_STR(onnxslim_model_producer_name(m2), "rewritten");
    onnxslim_tensor *t2 =
        onnxslim_graph_find_initializer(onnxslim_model_graph(m2), "roberta.embeddings.word_embeddings.weight");
    const void *d2;
    size_t sz2;
    CHECK_OK(onnxslim_tensor_data(t2, &d2, &sz2));
    CHECK(sz2 == sz && memcmp(d, d2, sz) == 0);
    onnxslim_model_free(m2);
  }
  onnxslim_model_free(m);
  free(orig);
}

/* A pid that is not running (a child that has exited and been reaped). */
static long dead_pid(void) {
  pid_t p = fork();
  if (p == 0) _exit(0);
  if (p > 0) waitpid(p, NULL, 0);
  return (long)p;
}

static int exists_in(const char *d, const char *name) {
  char p[600];
  snprintf(p, sizeof p, "%s/%s", d, name);
  return access(p, F_OK) == 0;
}

/* Temporary files a killed save left (owner gone, not locked) are removed
 * by the next save to the same destination; those of live owners, of other
 * destinations and names that only look alike stay. */
TEST(save_removes_stale_temporaries) {
  char sub[300], path[400], p[600], stale[200], stale2[200], live[200], mine_locked[200], other[200];
  snprintf(sub, sizeof sub, "%s/stale", dir);
  mkdir(sub, 0755);
  snprintf(path, sizeof path, "%s/out.onnx", sub);
  long dead = dead_pid(), me = (long)getpid(), tid = (long)syscall(SYS_gettid);
  CHECK(dead > 0);
  snprintf(stale, sizeof stale, ".out.onnx.tmp-%ld-%ld-AAAAAA", dead, dead);
  snprintf(stale2, sizeof stale2, ".out.onnx.tmp-%ld-%ld-BBBBBB", me, tid);
  snprintf(live, sizeof live, ".out.onnx.tmp-%ld-%ld-CCCCCC", (long)getppid(), (long)getppid());
  snprintf(mine_locked, sizeof mine_locked, ".out.onnx.tmp-%ld-%ld-EEEEEE", me, tid);
  snprintf(other, sizeof other, ".other.onnx.tmp-%ld-%ld-FFFFFF", dead, dead);
  const char *names[] = {stale, stale2, live, mine_locked, other, ".out.onnx.tmp-notes",
                         ".out.onnx.tmp-1-x"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    snprintf(p, sizeof p, "%s/%s", sub, names[i]);
    write_file(p, "partial");
  }
  snprintf(p, sizeof p, "%s/%s", sub, mine_locked);
  int lk = open(p, O_RDONLY);
  CHECK(lk >= 0 && flock(lk, LOCK_EX) == 0);
  onnxslim_model *m = open_bert();
  CHECK(m != NULL);
  if (!m) return;
  CHECK_OK(onnxslim_save(NULL, m, path, NULL));
  CHECK(!exists_in(sub, stale));       /* owner gone */
  CHECK(!exists_in(sub, stale2));      /* this thread, not locked: a previous life of our ids */
  CHECK(exists_in(sub, live));         /* owner alive */
  CHECK(exists_in(sub, mine_locked));  /* locked */
  CHECK(exists_in(sub, other));        /* another destination */
  CHECK(exists_in(sub, ".out.onnx.tmp-notes"));
  CHECK(exists_in(sub, ".out.onnx.tmp-1-x"));
  close(lk);
  CHECK_OK(onnxslim_save(NULL, m, path, NULL));
  CHECK(!exists_in(sub, mine_locked)); /* unlocked now */
  CHECK(same_file(path, BERT));
  CHECK(count_entries(sub) == 5);
  onnxslim_model_free(m);
}

int main(void) {
  snprintf(dir, sizeof dir, "/tmp/onnxslim-save-XXXXXX");
  if (!mkdtemp(dir)) {
    perror("mkdtemp");
    return 1;
  }
  chmod(dir, 0755);
  RUN(save_new_and_replace);
  RUN(save_failures_leave_nothing);
  RUN(save_over_file_size_limit);
  RUN(save_into_unwritable_directory);
  RUN(save_on_full_disk);
  RUN(save_over_source);
  RUN(save_removes_stale_temporaries);
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system(cmd) != 0) fprintf(stderr, "cleanup of %s failed\n", dir);
  return t_done();
}
