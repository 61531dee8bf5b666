/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/* Tests of atomic saving: temporary file + fsync + rename, nothing partial
 * left behind on failure, old file intact, saving over the source file;
 * onnxslim_save()'s options (refused combinations, NULL = as loaded), its
 * report's getters, the fingerprint's buffer size. On Windows (mingw-w64,
 * run under wine) the cases that need fork, rlimits, mounts, directory
 * permission bits, FIFOs, devices or symbolic links skip themselves
 * (POSIX_ONLY); the others run, in their Windows form where one differs. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#if !defined(_WIN32)
#  include <sys/file.h>
#  include <sys/mount.h>
#  include <sys/resource.h>
#  include <sys/syscall.h>
#  include <sys/sysmacros.h>
#  include <sys/wait.h>
#endif

#include <onnxslim.h>

#include "onnxslim_config.h"

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

/* An exclusive lock on the file at path, as the owner of a save's
 * temporary holds it: flock, or on Windows LockFileEx on a handle that
 * shares everything (the library's own handles lock it out). */
#if defined(_WIN32)
typedef HANDLE held_lock;
static HANDLE lock_file(const char *path) {
  HANDLE h = CreateFileA(path, GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                         NULL, OPEN_EXISTING, 0, NULL);
  OVERLAPPED ov;
  memset(&ov, 0, sizeof ov);
  if (h != INVALID_HANDLE_VALUE &&
      !LockFileEx(h, LOCKFILE_EXCLUSIVE_LOCK | LOCKFILE_FAIL_IMMEDIATELY, 0, MAXDWORD, MAXDWORD,
                  &ov)) {
    CloseHandle(h);
    h = INVALID_HANDLE_VALUE;
  }
  return h;
}
static int is_locked(HANDLE h) { return h != INVALID_HANDLE_VALUE; }
static void unlock_file(HANDLE h) {
  if (h != INVALID_HANDLE_VALUE) CloseHandle(h);
}
#else
typedef int held_lock;
static int lock_file(const char *path) {
  int fd = open(path, O_RDONLY);
  if (fd >= 0 && flock(fd, LOCK_EX) != 0) {
    close(fd);
    fd = -1;
  }
  return fd;
}
static int is_locked(int fd) { return fd >= 0; }
static void unlock_file(int fd) {
  if (fd >= 0) close(fd);
}
#endif

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
#if defined(_WIN32)
  /* Windows has no permission bits, only read-only or not: still writable */
  CHECK(stat(path, &st) == 0 && (st.st_mode & S_IWRITE));
#else
  CHECK(stat(path, &st) == 0 && (st.st_mode & 0777) == 0640);
#endif
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

#if !defined(_WIN32)
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

#endif

TEST(save_over_file_size_limit) {
  POSIX_ONLY("a file size limit (setrlimit) in a forked child");
#if !defined(_WIN32)
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
#endif
}

#if !defined(_WIN32)
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

#endif

TEST(save_into_unwritable_directory) {
  POSIX_ONLY("a directory's permission bits and a forked child that becomes nobody");
#if !defined(_WIN32)
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
#endif
}

TEST(save_on_full_disk) {
  POSIX_ONLY("a small tmpfs mounted (mount)");
#if !defined(_WIN32)
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
#endif
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
  int rc = onnxslim_save(NULL, m, path, NULL);
#if defined(_WIN32)
  /* Windows refuses to replace a file that is mapped: while the model maps
   * its source the save fails cleanly (ONNXSLIM_EIO asking to free the
   * model first), the source byte for byte as it was, no side file left.
   * As a Windows caller must, the model is then saved aside, freed and
   * loaded from there; the saves over the first file then go through. */
  fprintf(stderr, "   save over the loaded source: %s%s\n", rc ? "refused: " : "done",
          rc ? onnxslim_error_last() : "");
  if (rc != ONNXSLIM_OK) {
    CHECK(rc == ONNXSLIM_EIO && strstr(onnxslim_error_last(), "free that model first"));
    size_t n1 = 0;
    uint8_t *now = slurp(path, &n1);
    CHECK(now && n1 == n && memcmp(now, orig, n) == 0);
    free(now);
    CHECK(count_hidden(dir) == 0);
    char aside[400];
    snprintf(aside, sizeof aside, "%s/self-aside.onnx", dir);
    CHECK_OK(onnxslim_save(NULL, m, aside, NULL));
    onnxslim_model_free(m);
    m = NULL;
    CHECK_OK(onnxslim_model_open(&m, aside, NULL));
    if (!m) {
      free(orig);
      return;
    }
    rc = onnxslim_save(NULL, m, path, NULL);
  }
#endif
  CHECK_OK(rc);
  /* the loaded model still reads its (now unlinked) source */
  onnxslim_graph *g = onnxslim_model_graph(m);
  onnxslim_tensor *t =
      onnxslim_graph_find_initializer(g, "roberta.embeddings.word_embeddings.weight");
  const void *d;
  size_t sz;
  CHECK_OK(onnxslim_tensor_data(t, &d, &sz));
  /* and can save over the file again */
  CHECK_OK(onnxslim_save(NULL, m, path, NULL));
  onnxslim_model *m2 = NULL;
  CHECK_OK(onnxslim_model_open(&m2, path, NULL));
  if (m2) {
    CHECK_STR(onnxslim_model_producer_name(m2), "rewritten");
    onnxslim_tensor *t2 = onnxslim_graph_find_initializer(
        onnxslim_model_graph(m2), "roberta.embeddings.word_embeddings.weight");
    const void *d2;
    size_t sz2;
    CHECK_OK(onnxslim_tensor_data(t2, &d2, &sz2));
    CHECK(sz2 == sz && memcmp(d, d2, sz) == 0);
    onnxslim_model_free(m2);
  }
  onnxslim_model_free(m);
  free(orig);
}

/* A reader of the destination: its file open for reading (on Windows
 * sharing everything, as the library's own reads and a concurrent save
 * reading the directory's models do) until the save it races has called
 * its progress function before the commit; it then reads the file and
 * lets it go a moment later, while the save commits. */
typedef struct {
  const char *path;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  int go, ok;
#if defined(_WIN32)
  HANDLE h;
#else
  int fd;
#endif
} reader;

static int reader_commit_next(uint64_t done, uint64_t total, void *payload) {
  reader *r = payload;
  if (done + 1 == total) {
    pthread_mutex_lock(&r->mu);
    r->go = 1;
    pthread_cond_signal(&r->cv);
    pthread_mutex_unlock(&r->mu);
  }
  return 0;
}

static void *reader_thread(void *arg) {
  reader *r = arg;
  pthread_mutex_lock(&r->mu);
  while (!r->go) pthread_cond_wait(&r->cv, &r->mu);
  pthread_mutex_unlock(&r->mu);
  char buf[32] = {0};
#if defined(_WIN32)
  Sleep(30);
  DWORD n = 0;
  r->ok = ReadFile(r->h, buf, sizeof buf - 1, &n, NULL) && strcmp(buf, "previous model") == 0;
  CloseHandle(r->h);
#else
  struct timespec ts = {0, 30000000};
  nanosleep(&ts, NULL);
  r->ok = read(r->fd, buf, sizeof buf - 1) == 14 && strcmp(buf, "previous model") == 0;
  close(r->fd);
#endif
  return NULL;
}

/* A save over a file another reader holds open, and lets go while the
 * save commits, goes through: the reader reads the old bytes, the
 * destination then holds the new model, no side file is left. (Windows
 * refuses to replace a file that is open, even sharing delete, until it
 * is closed: the platform layer's rename tries again a while.) */
TEST(save_over_a_file_being_read) {
  char sub[300], path[400];
  snprintf(sub, sizeof sub, "%s/being-read", dir);
  mkdir(sub, 0755);
  snprintf(path, sizeof path, "%s/out.onnx", sub);
  write_file(path, "previous model");
  onnxslim_model *m = open_bert();
  REQUIRE(m != NULL);
  reader r = {.path = path};
  pthread_mutex_init(&r.mu, NULL);
  pthread_cond_init(&r.cv, NULL);
#if defined(_WIN32)
  r.h = CreateFileA(path, GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                    NULL, OPEN_EXISTING, 0, NULL);
  REQUIRE(r.h != INVALID_HANDLE_VALUE);
#else
  r.fd = open(path, O_RDONLY);
  REQUIRE(r.fd >= 0);
#endif
  pthread_t th;
  REQUIRE(pthread_create(&th, NULL, reader_thread, &r) == 0);
  onnxslim_save_options so = ONNXSLIM_SAVE_OPTIONS_INIT;
  so.flags = ONNXSLIM_SAVE_NO_FSYNC;
  so.progress = reader_commit_next;
  so.progress_payload = &r;
  int rc = onnxslim_save(NULL, m, path, &so);
  if (!r.go) reader_commit_next(0, 1, &r); /* no progress call: let the reader go anyway */
  pthread_join(th, NULL);
  CHECK_OK(rc);
  CHECK(r.ok);
  CHECK(same_file(path, BERT));
  CHECK(count_entries(sub) == 1);
  pthread_mutex_destroy(&r.mu);
  pthread_cond_destroy(&r.cv);
  onnxslim_model_free(m);
}

/* The ids of this thread, as the library names its temporaries. */
static long this_tid(void) {
#if defined(_WIN32)
  return (long)GetCurrentThreadId();
#else
  return (long)syscall(SYS_gettid);
#endif
}

#if defined(_WIN32)
/* With this variable set, the program exits at once (main): the child of
 * dead_owner. */
#  define EXIT_AT_ONCE_ENV "LIBONNXSLIM_TEST_SAVE_EXIT"

/* A process and its thread that are not running: this program started
 * again (CreateProcess) and exited; 0 if it could not be started. */
static int dead_owner(long *pid, long *tid) {
  wchar_t exe[MAX_PATH], cmdline[MAX_PATH + 3];
  if (!GetModuleFileNameW(NULL, exe, MAX_PATH) || setenv(EXIT_AT_ONCE_ENV, "1", 1) != 0) return 0;
  swprintf(cmdline, MAX_PATH + 3, L"\"%ls\"", exe);
  STARTUPINFOW si = {.cb = sizeof si};
  PROCESS_INFORMATION pi;
  fflush(NULL);
  BOOL started = CreateProcessW(exe, cmdline, NULL, NULL, FALSE, 0, NULL, NULL, &si, &pi);
  unsetenv(EXIT_AT_ONCE_ENV);
  if (!started) return 0;
  int done = WaitForSingleObject(pi.hProcess, 60000) == WAIT_OBJECT_0;
  if (!done) TerminateProcess(pi.hProcess, 9);
  WaitForSingleObject(pi.hProcess, INFINITE);
  CloseHandle(pi.hThread);
  CloseHandle(pi.hProcess);
  *pid = (long)pi.dwProcessId;
  *tid = (long)pi.dwThreadId;
  return 1;
}

/* A live owner: a thread of this process that waits for an event. */
static HANDLE live_event;
static DWORD WINAPI wait_for_event(void *arg) {
  (void)arg;
  WaitForSingleObject(live_event, INFINITE);
  return 0;
}
#else
/* A process that is not running (a child that has exited and been
 * reaped) and its thread (the same id). */
static int dead_owner(long *pid, long *tid) {
  pid_t p = fork();
  if (p == 0) _exit(0);
  if (p > 0) waitpid(p, NULL, 0);
  *pid = *tid = (long)p;
  return p > 0;
}
#endif

/* Kernel thread ids in the temporaries' names (Linux's gettid, Windows'
 * thread ids): a thread of a live process can be told gone. */
#if ONNXSLIM_HAVE_GETTID || defined(_WIN32)
#  define KERNEL_TIDS 1
#else
#  define KERNEL_TIDS 0
#endif

static int exists_in(const char *d, const char *name) {
  char p[600];
  snprintf(p, sizeof p, "%s/%s", d, name);
  return access(p, F_OK) == 0;
}

/* Temporary files a killed save left (owner gone, not locked) are removed
 * by the next save to the same destination; those of live owners, of other
 * destinations and names that only look alike stay. */
TEST(save_removes_stale_temporaries) {
  char sub[300], path[400], p[600], stale[200], stale2[200], live[200], mine_locked[200],
      other[200];
  snprintf(sub, sizeof sub, "%s/stale", dir);
  mkdir(sub, 0755);
  snprintf(path, sizeof path, "%s/out.onnx", sub);
  long dead = 0, dead_tid = 0, me = (long)getpid(), tid = this_tid();
  CHECK(dead_owner(&dead, &dead_tid) && dead > 0);
  snprintf(stale, sizeof stale, ".out.onnx.tmp-%ld-%ld-AAAAAA", dead, dead_tid);
  snprintf(stale2, sizeof stale2, ".out.onnx.tmp-%ld-%ld-BBBBBB", me, tid);
#if defined(_WIN32)
  /* no parent to name: a live thread of this process */
  DWORD live_tid = 0;
  live_event = CreateEventA(NULL, TRUE, FALSE, NULL);
  HANDLE live_thread = CreateThread(NULL, 0, wait_for_event, NULL, 0, &live_tid);
  CHECK(live_event && live_thread);
  snprintf(live, sizeof live, ".out.onnx.tmp-%ld-%ld-CCCCCC", me, (long)live_tid);
#else
  snprintf(live, sizeof live, ".out.onnx.tmp-%ld-%ld-CCCCCC", (long)getppid(), (long)getppid());
#endif
  snprintf(mine_locked, sizeof mine_locked, ".out.onnx.tmp-%ld-%ld-EEEEEE", me, tid);
  snprintf(other, sizeof other, ".other.onnx.tmp-%ld-%ld-FFFFFF", dead, dead_tid);
  const char *names[] = {
      stale, stale2, live, mine_locked, other, ".out.onnx.tmp-notes", ".out.onnx.tmp-1-x"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    snprintf(p, sizeof p, "%s/%s", sub, names[i]);
    write_file(p, "partial");
  }
  snprintf(p, sizeof p, "%s/%s", sub, mine_locked);
  held_lock lk = lock_file(p);
  CHECK(is_locked(lk));
  onnxslim_model *m = open_bert();
  CHECK(m != NULL);
  if (!m) return;
  CHECK_OK(onnxslim_save(NULL, m, path, NULL));
  CHECK(!exists_in(sub, stale)); /* owner gone */
#if KERNEL_TIDS
  CHECK(!exists_in(sub, stale2)); /* this thread, not locked: a previous life of our ids */
#else
  /* no kernel thread ids (PLATFORM=posix): the library numbers its threads,
   * so stale2 is a thread of a live process (this one) as it sees it */
  CHECK(exists_in(sub, stale2));
#endif
  CHECK(exists_in(sub, live));        /* owner alive */
  CHECK(exists_in(sub, mine_locked)); /* locked */
  CHECK(exists_in(sub, other));       /* another destination */
  CHECK(exists_in(sub, ".out.onnx.tmp-notes"));
  CHECK(exists_in(sub, ".out.onnx.tmp-1-x"));
  unlock_file(lk);
  CHECK_OK(onnxslim_save(NULL, m, path, NULL));
  /* unlocked now; without kernel thread ids, of a live thread as stale2 */
  CHECK(exists_in(sub, mine_locked) == !KERNEL_TIDS);
  CHECK(same_file(path, BERT));
  CHECK(count_entries(sub) == (KERNEL_TIDS ? 5 : 7));
  onnxslim_model_free(m);
#if defined(_WIN32)
  SetEvent(live_event);
  if (live_thread) WaitForSingleObject(live_thread, INFINITE), CloseHandle(live_thread);
  CloseHandle(live_event);
#endif
}

/* Temporaries in the format before the owner's ids (".D.tmp-XXXXXX", six
 * letters or digits, as mkostemp made them) that nobody has locked are
 * removed by the next save to D, the model's and the data files' alike;
 * other lengths, other characters, locked ones and other destinations'
 * stay. */
TEST(save_removes_old_format_temporaries) {
  char sub[300], path[400], p[600];
  snprintf(sub, sizeof sub, "%s/oldtmp", dir);
  mkdir(sub, 0755);
  snprintf(path, sizeof path, "%s/out.onnx", sub);
  static const char *const gone[] = {".out.onnx.tmp-Ab3xYz", ".out.onnx.tmp-000000",
                                     ".out.onnx.data.tmp-QwErTy"};
  static const char *const kept[] = {".out.onnx.tmp-Ab3xY",    ".out.onnx.tmp-Ab3xYz1",
                                     ".out.onnx.tmp-Ab_xYz",   ".out.onnx.tmp-LockdD",
                                     ".other.onnx.tmp-Ab3xYz", ".out.onnx.bak-Ab3xYz"};
  for (size_t i = 0; i < sizeof gone / sizeof gone[0]; i++)
    write_file(PATH(p, "%s/%s", sub, gone[i]), "partial");
  for (size_t i = 0; i < sizeof kept / sizeof kept[0]; i++)
    write_file(PATH(p, "%s/%s", sub, kept[i]), "partial");
  held_lock lk = lock_file(PATH(p, "%s/.out.onnx.tmp-LockdD", sub));
  CHECK(is_locked(lk));
  onnxslim_model *m = open_bert();
  REQUIRE(m != NULL);
  /* a single file: the model's; then with a data file: the data file's */
  CHECK_OK(onnxslim_save(NULL, m, path, NULL));
  CHECK(!exists_in(sub, gone[0]) && !exists_in(sub, gone[1]));
  CHECK(exists_in(sub, gone[2]));
  onnxslim_save_options so = ONNXSLIM_SAVE_OPTIONS_INIT;
  so.layout = ONNXSLIM_LAYOUT_ONE_FILE;
  so.size_threshold = 0;
  CHECK_OK(onnxslim_save(NULL, m, path, &so));
  CHECK(!exists_in(sub, gone[2]));
  for (size_t i = 0; i < sizeof kept / sizeof kept[0]; i++) {
    CHECK(exists_in(sub, kept[i]));
    if (!exists_in(sub, kept[i])) fprintf(stderr, "  removed: %s\n", kept[i]);
  }
  unlock_file(lk);
  onnxslim_model_free(m);
}

/* ---- what is at the destination ------------------------------------------- */

#if !defined(_WIN32)
/* "kind" of path (lstat): 'f' regular, 'p' FIFO, 'c' character device,
 * 'l' symlink, 'd' directory, '-' absent, '?' other */
static char kind_of(const char *path) {
  struct stat st;
  if (lstat(path, &st) != 0) return '-';
  if (S_ISREG(st.st_mode)) return 'f';
  if (S_ISFIFO(st.st_mode)) return 'p';
  if (S_ISCHR(st.st_mode)) return 'c';
  if (S_ISLNK(st.st_mode)) return 'l';
  if (S_ISDIR(st.st_mode)) return 'd';
  return '?';
}

/* Saves m to `name` in sub with layout (and location) and expects a refusal:
 * ONNXSLIM_EIO naming `what` (the refused path's name) and `kind`, and the
 * directory as it was (same entries, the special file still what it was). */
static void refused_at(onnxslim_model *m, const char *sub, const char *name, int layout,
                       const char *location, const char *what, const char *kind,
                       const char *special, char special_kind) {
  char path[600], sp[600];
  snprintf(path, sizeof path, "%s/%s", sub, name);
  snprintf(sp, sizeof sp, "%s/%s", sub, special);
  int before = count_entries(sub);
  onnxslim_save_options so = ONNXSLIM_SAVE_OPTIONS_INIT;
  so.layout = layout;
  so.location = location;
  so.size_threshold = 0;
  onnxslim_error_clear();
  int rc = onnxslim_save(NULL, m, path, &so);
  CHECK(rc == ONNXSLIM_EIO);
  CHECK(strstr(onnxslim_error_last(), what) != NULL);
  CHECK(strstr(onnxslim_error_last(), kind) != NULL);
  CHECK(kind_of(sp) == special_kind);
  CHECK(count_entries(sub) == before);
  if (rc != ONNXSLIM_EIO || count_entries(sub) != before || kind_of(sp) != special_kind)
    fprintf(stderr, "  save to %s (layout %d, location %s): rc %d, %s\n", name, layout,
            location ? location : "-", rc, onnxslim_error_last());
}
#endif

/* A FIFO, a character device (as root), a dangling symlink or a symlink to
 * a FIFO at the destination - the model file or a data file - is refused
 * before anything is written, and stays what it was; a symlink to a
 * regular file is replaced by the new file (not written through). */
TEST(save_refuses_special_destinations) {
  POSIX_ONLY("FIFOs, character devices (mknod) and symbolic links");
#if !defined(_WIN32)
  char sub[300], p[600], q[600];
  snprintf(sub, sizeof sub, "%s/special", dir);
  mkdir(sub, 0755);
  onnxslim_model *m = open_bert();
  REQUIRE(m != NULL);
  CHECK(mkfifo(PATH(p, "%s/fifo.onnx", sub), 0644) == 0);
  CHECK(symlink("nowhere.onnx", PATH(p, "%s/dangling.onnx", sub)) == 0);
  CHECK(symlink("fifo.onnx", PATH(p, "%s/tofifo.onnx", sub)) == 0);
  int dev =
      geteuid() == 0 && mknod(PATH(p, "%s/null.onnx", sub), S_IFCHR | 0666, makedev(1, 3)) == 0;
  static const int layouts[] = {ONNXSLIM_LAYOUT_AS_LOADED, ONNXSLIM_LAYOUT_ONE_FILE,
                                ONNXSLIM_LAYOUT_PER_TENSOR, ONNXSLIM_LAYOUT_INLINE};
  for (size_t i = 0; i < sizeof layouts / sizeof layouts[0]; i++) {
    int l = layouts[i];
    refused_at(m, sub, "fifo.onnx", l, NULL, "fifo.onnx", "a FIFO", "fifo.onnx", 'p');
    refused_at(m, sub, "dangling.onnx", l, NULL, "dangling.onnx", "dangling symlink",
               "dangling.onnx", 'l');
    refused_at(m, sub, "tofifo.onnx", l, NULL, "tofifo.onnx", "symlink to a FIFO", "fifo.onnx",
               'p');
    CHECK(kind_of(PATH(p, "%s/tofifo.onnx", sub)) == 'l');
    if (dev)
      refused_at(m, sub, "null.onnx", l, NULL, "null.onnx", "a character device", "null.onnx", 'c');
  }
  /* data files: the location asked for, a per-tensor file */
  refused_at(m, sub, "out.onnx", ONNXSLIM_LAYOUT_ONE_FILE, "fifo.onnx", "fifo.onnx", "a FIFO",
             "fifo.onnx", 'p');
  refused_at(m, sub, "out.onnx", ONNXSLIM_LAYOUT_ONE_FILE, "dangling.onnx", "dangling.onnx",
             "dangling symlink", "dangling.onnx", 'l');
  if (dev)
    refused_at(m, sub, "out.onnx", ONNXSLIM_LAYOUT_ONE_FILE, "null.onnx", "null.onnx",
               "a character device", "null.onnx", 'c');
  CHECK(mkfifo(PATH(p, "%s/roberta.embeddings.word_embeddings.weight.bin", sub), 0644) == 0);
  refused_at(m, sub, "out.onnx", ONNXSLIM_LAYOUT_PER_TENSOR, NULL,
             "roberta.embeddings.word_embeddings.weight.bin", "a FIFO",
             "roberta.embeddings.word_embeddings.weight.bin", 'p');
  CHECK(kind_of(PATH(p, "%s/out.onnx", sub)) == '-');
  if (dev) {
    /* /dev/null still works as one */
    int fd = open(PATH(p, "%s/null.onnx", sub), O_WRONLY);
    CHECK(fd >= 0 && write(fd, "x", 1) == 1);
    if (fd >= 0) close(fd);
  }
  /* a symlink to a regular file: the link is replaced, its target kept */
  write_file(PATH(p, "%s/target.onnx", sub), "target");
  CHECK(symlink("target.onnx", PATH(q, "%s/link.onnx", sub)) == 0);
  CHECK_OK(onnxslim_save(NULL, m, q, NULL));
  CHECK(kind_of(q) == 'f' && same_file(q, BERT) && file_is(p, "target"));
  onnxslim_model_free(m);
  if (!dev) SKIP("not root: no character device made (mknod), FIFOs and symlinks tested");
#endif
}

/* ---- the options, the report, the fingerprint buffer --------------------- */

static const unsigned int placing_flags[] = {ONNXSLIM_SAVE_CONSTANTS, ONNXSLIM_SAVE_CHECKSUM,
                                             ONNXSLIM_SAVE_FORCE_SHAPE_INPUTS,
                                             ONNXSLIM_SAVE_KEEP_STORAGE};
static const char *const placing_names[] = {"CONSTANTS", "CHECKSUM", "FORCE_SHAPE_INPUTS",
                                            "KEEP_STORAGE"};

/* Options onnxslim_save() refuses: EINVAL with a message that says why,
 * no report, nothing written. */
TEST(save_options_refused) {
  char sub[300], path[400];
  snprintf(sub, sizeof sub, "%s/refused", dir);
  mkdir(sub, 0755);
  snprintf(path, sizeof path, "%s/out.onnx", sub);
  onnxslim_model *m = open_bert();
  REQUIRE(m != NULL);
  onnxslim_save_report *r = (onnxslim_save_report *)&r; /* not NULL: must be reset */
  onnxslim_save_options o = ONNXSLIM_SAVE_OPTIONS_INIT;
  /* the flags that place tensors in data files, with a layout that has none */
  static const int no_files[] = {ONNXSLIM_LAYOUT_AS_LOADED, ONNXSLIM_LAYOUT_INLINE};
  for (size_t l = 0; l < 2; l++)
    for (size_t f = 0; f < 4; f++) {
      o.layout = no_files[l];
      o.flags = placing_flags[f];
      int rc = onnxslim_save(&r, m, path, &o);
      const char *msg = onnxslim_error_last();
      if (rc != ONNXSLIM_EINVAL || r != NULL || !strstr(msg, placing_names[f]) ||
          !strstr(msg, l ? "INLINE" : "AS_LOADED")) {
        fprintf(stderr, "layout %d, flag %s: %d '%s'\n", no_files[l], placing_names[f], rc, msg);
        t_cur_failed++;
      }
      r = (onnxslim_save_report *)&r;
    }
  o = (onnxslim_save_options)ONNXSLIM_SAVE_OPTIONS_INIT;
  o.layout = -1;
  CHECK(onnxslim_save(NULL, m, path, &o) == ONNXSLIM_EINVAL);
  CHECK(strstr(onnxslim_error_last(), "unknown layout -1") != NULL);
  o.layout = ONNXSLIM_LAYOUT_INLINE + 1;
  CHECK(onnxslim_save(NULL, m, path, &o) == ONNXSLIM_EINVAL);
  o.layout = ONNXSLIM_LAYOUT_AS_LOADED;
  o.flags = 64;
  CHECK(onnxslim_save(NULL, m, path, &o) == ONNXSLIM_EINVAL);
  CHECK(strstr(onnxslim_error_last(), "reserved") != NULL);
  o.flags = 0;
  o.align = 3; /* checked whatever the layout */
  CHECK(onnxslim_save(NULL, m, path, &o) == ONNXSLIM_EINVAL);
  CHECK(strstr(onnxslim_error_last(), "power of two") != NULL);
  o.align = 0;
  /* an unknown options version names the versions this library knows */
  for (unsigned int v = 0; v < 4; v += 3) {
    o.version = v;
    CHECK(onnxslim_save(&r, m, path, &o) == ONNXSLIM_EINVAL && r == NULL);
    CHECK(strstr(onnxslim_error_last(), "save options version") != NULL &&
          strstr(onnxslim_error_last(), "knows versions 1 to 2") != NULL);
    r = (onnxslim_save_report *)&r;
  }
  CHECK(onnxslim_save_options_init(&o, 3) == ONNXSLIM_EINVAL);
  CHECK(strstr(onnxslim_error_last(), "knows versions 1 to 2") != NULL);
  CHECK(onnxslim_save_options_init(NULL, 1) == ONNXSLIM_EINVAL);
  CHECK(count_entries(sub) == 0); /* nothing written */
  /* the defaults, and the same flags where they belong */
  CHECK_OK(onnxslim_save_options_init(&o, ONNXSLIM_SAVE_OPTIONS_VERSION));
  CHECK(o.version == 2 && o.flags == 0 && o.layout == ONNXSLIM_LAYOUT_AS_LOADED &&
        o.size_threshold == ONNXSLIM_SAVE_DEFAULT_THRESHOLD &&
        o.align == ONNXSLIM_SAVE_DEFAULT_ALIGN && o.location == NULL);
  o.flags = ONNXSLIM_SAVE_NO_FSYNC;
  for (size_t f = 0; f < 4; f++) {
    o.flags = ONNXSLIM_SAVE_NO_FSYNC | placing_flags[f];
    o.layout = f % 2 ? ONNXSLIM_LAYOUT_PER_TENSOR : ONNXSLIM_LAYOUT_ONE_FILE;
    snprintf(path, sizeof path, "%s/ok%zu.onnx", sub, f);
    if (onnxslim_save(NULL, m, path, &o) != 0) {
      fprintf(stderr, "flag %s refused: %s\n", placing_names[f], onnxslim_error_last());
      t_cur_failed++;
    }
  }
  onnxslim_model_free(m);
}

/* NULL options: the tensors as loaded (ONNXSLIM_LAYOUT_AS_LOADED). A model
 * with external data keeps its references: same bytes, no data file. */
TEST(save_default_as_loaded) {
  char sub[300], a[400], b[400], c[400], other[400];
  snprintf(sub, sizeof sub, "%s/asloaded", dir);
  mkdir(sub, 0755);
  snprintf(a, sizeof a, "%s/a.onnx", sub);
  onnxslim_model *m = open_bert();
  REQUIRE(m != NULL);
  onnxslim_save_options o = ONNXSLIM_SAVE_OPTIONS_INIT;
  o.layout = ONNXSLIM_LAYOUT_ONE_FILE;
  o.size_threshold = 0;
  CHECK_OK(onnxslim_save(NULL, m, a, &o));
  onnxslim_model_free(m);
  m = NULL;
  CHECK_OK(onnxslim_model_open(&m, a, NULL));
  REQUIRE(m != NULL);
  CHECK(count_entries(sub) == 2); /* a.onnx, a.onnx.data */
  snprintf(b, sizeof b, "%s/b.onnx", sub);
  CHECK_OK(onnxslim_save(NULL, m, b, NULL));
  CHECK(same_file(a, b));
  CHECK(count_entries(sub) == 3); /* no data file of its own */
  onnxslim_model *s = NULL;
  CHECK_OK(onnxslim_model_open(&s, b, NULL));
  if (s) {
    onnxslim_tensor *t = onnxslim_graph_find_initializer(
        onnxslim_model_graph(s), "roberta.embeddings.word_embeddings.weight");
    CHECK(t && onnxslim_tensor_storage(t) == ONNXSLIM_STORAGE_EXTERNAL);
    onnxslim_model_free(s);
  }
  /* explicit AS_LOADED: the same; its report has no entries */
  snprintf(c, sizeof c, "%s/c.onnx", sub);
  o = (onnxslim_save_options)ONNXSLIM_SAVE_OPTIONS_INIT;
  onnxslim_save_report *r = NULL;
  CHECK_OK(onnxslim_save(&r, m, c, &o));
  CHECK(same_file(a, c));
  CHECK(r != NULL && onnxslim_save_report_count(r) == 0);
  onnxslim_save_report_free(r);
  /* in another directory the references would not resolve: refused */
  snprintf(other, sizeof other, "%s/elsewhere.onnx", dir);
  CHECK(onnxslim_save(NULL, m, other, NULL) == ONNXSLIM_EINVAL);
  CHECK(access(other, F_OK) != 0);
  onnxslim_model_free(m);
}

/* One getter per field of the report, and their errors. */
TEST(save_report_getters) {
  char sub[300], path[400];
  snprintf(sub, sizeof sub, "%s/report", dir);
  mkdir(sub, 0755);
  snprintf(path, sizeof path, "%s/r.onnx", sub);
  onnxslim_model *m = open_bert();
  REQUIRE(m != NULL);
  onnxslim_save_options o = ONNXSLIM_SAVE_OPTIONS_INIT;
  o.layout = ONNXSLIM_LAYOUT_ONE_FILE; /* threshold 1024: small tensors stay inline */
  onnxslim_save_report *r = NULL;
  CHECK_OK(onnxslim_save(&r, m, path, &o));
  REQUIRE(r != NULL);
  size_t n = onnxslim_save_report_count(r), n_ext = 0, n_in = 0;
  CHECK(n == onnxslim_graph_initializer_count(onnxslim_model_graph(m)));
  for (size_t i = 0; i < n; i++) {
    const char *name = onnxslim_save_report_name(r, i);
    int pl = onnxslim_save_report_placement(r, i);
    uint64_t off = 1, len = 1;
    onnxslim_error_clear();
    const char *loc = onnxslim_save_report_location(r, i);
    int loc_err = onnxslim_error_last_code();
    CHECK_OK(onnxslim_save_report_offset(r, i, &off));
    CHECK_OK(onnxslim_save_report_length(r, i, &len));
    CHECK(name && onnxslim_graph_find_initializer(onnxslim_model_graph(m), name) != NULL);
    CHECK(loc_err == ONNXSLIM_OK);
    if (pl == ONNXSLIM_SAVE_PLACEMENT_EXTERNAL) {
      n_ext++;
      uint64_t size = 0;
      onnxslim_tensor_byte_size(onnxslim_graph_find_initializer(onnxslim_model_graph(m), name),
                                &size);
      CHECK_STR(loc, "r.onnx.data");
      CHECK(off % ONNXSLIM_SAVE_DEFAULT_ALIGN == 0 && len == size && len >= 1024);
    } else {
      n_in++;
      CHECK(pl == ONNXSLIM_SAVE_PLACEMENT_BELOW_THRESHOLD ||
            pl == ONNXSLIM_SAVE_PLACEMENT_SHAPE_INPUT);
      CHECK(loc == NULL && off == 0 && len == 0); /* inline: no location, not an error */
    }
  }
  CHECK(n_ext > 0 && n_in > 0);
  /* errors: a NULL report, an index out of range, a NULL out */
  uint64_t v = 7;
  CHECK(onnxslim_save_report_name(NULL, 0) == NULL &&
        onnxslim_error_last_code() == ONNXSLIM_EINVAL);
  CHECK(onnxslim_save_report_placement(NULL, 0) == ONNXSLIM_EINVAL);
  CHECK(onnxslim_save_report_location(NULL, 0) == NULL &&
        onnxslim_error_last_code() == ONNXSLIM_EINVAL);
  CHECK(onnxslim_save_report_offset(NULL, 0, &v) == ONNXSLIM_EINVAL && v == 7);
  CHECK(onnxslim_save_report_length(NULL, 0, &v) == ONNXSLIM_EINVAL && v == 7);
  CHECK(onnxslim_save_report_name(r, n) == NULL && onnxslim_error_last_code() == ONNXSLIM_ERANGE);
  CHECK(strstr(onnxslim_error_last(), "out of range") != NULL);
  CHECK(onnxslim_save_report_placement(r, n) == ONNXSLIM_ERANGE);
  CHECK(onnxslim_save_report_location(r, n) == NULL &&
        onnxslim_error_last_code() == ONNXSLIM_ERANGE);
  CHECK(onnxslim_save_report_offset(r, n, &v) == ONNXSLIM_ERANGE && v == 7);
  CHECK(onnxslim_save_report_length(r, SIZE_MAX, &v) == ONNXSLIM_ERANGE && v == 7);
  CHECK(onnxslim_save_report_offset(r, 0, NULL) == ONNXSLIM_EINVAL);
  CHECK(onnxslim_save_report_length(r, 0, NULL) == ONNXSLIM_EINVAL);
  CHECK(onnxslim_save_report_count(NULL) == 0);
  CHECK(onnxslim_save_report_kernel_copied(NULL) == 0);
  onnxslim_save_report_free(NULL);
  onnxslim_save_report_free(r);
  onnxslim_model_free(m);
}

/* The fingerprint's buffer: its size is given; too small, nothing written. */
TEST(fingerprint_buffer_size) {
  onnxslim_model *m = open_bert();
  REQUIRE(m != NULL);
  char buf[64], want[64];
  CHECK(ONNXSLIM_FINGERPRINT_SIZE == 33);
  memset(buf, 'x', sizeof buf);
  memset(want, 'x', sizeof want);
  CHECK(onnxslim_fingerprint(buf, ONNXSLIM_FINGERPRINT_SIZE - 1, m) == ONNXSLIM_EBUFSIZE);
  CHECK(strstr(onnxslim_error_last(), "33") != NULL);
  CHECK(memcmp(buf, want, sizeof buf) == 0); /* nothing written */
  CHECK(onnxslim_fingerprint(buf, 0, m) == ONNXSLIM_EBUFSIZE);
  CHECK(memcmp(buf, want, sizeof buf) == 0);
  CHECK_OK(onnxslim_fingerprint(buf, ONNXSLIM_FINGERPRINT_SIZE, m));
  CHECK(strlen(buf) == 32 && strspn(buf, "0123456789abcdef") == 32);
  CHECK(memcmp(buf + 33, want, sizeof buf - 33) == 0); /* not beyond */
  char big[100];
  CHECK_OK(onnxslim_fingerprint(big, sizeof big, m));
  CHECK_STR(big, buf);
  CHECK(onnxslim_fingerprint(NULL, 33, m) == ONNXSLIM_EINVAL);
  CHECK(onnxslim_fingerprint(big, sizeof big, NULL) == ONNXSLIM_EINVAL);
  /* another kind of handle is not a model */
  CHECK(onnxslim_fingerprint(big, sizeof big, (const onnxslim_model *)onnxslim_model_graph(m)) ==
        ONNXSLIM_EINVAL);
  onnxslim_model_free(m);
}

int main(int argc, char **argv) {
#if defined(_WIN32)
  if (getenv(EXIT_AT_ONCE_ENV) && getenv(EXIT_AT_ONCE_ENV)[0]) return 0; /* dead_owner's child */
#endif
  t_args(argc, argv);
  snprintf(dir, sizeof dir, "/tmp/libonnxslim-save-XXXXXX");
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
  RUN(save_over_a_file_being_read);
  RUN(save_removes_stale_temporaries);
  RUN(save_removes_old_format_temporaries);
  RUN(save_refuses_special_destinations);
  RUN(save_options_refused);
  RUN(save_default_as_loaded);
  RUN(save_report_getters);
  RUN(fingerprint_buffer_size);
#if defined(_WIN32)
  if (compat_rm_tree(dir) != 0) fprintf(stderr, "cleanup of %s failed\n", dir);
#else
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system(cmd) != 0) fprintf(stderr, "cleanup of %s failed\n", dir);
#endif
  return t_done();
}
