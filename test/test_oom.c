/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/* Out of memory in a save: a counting allocator (malloc, calloc, realloc,
 * free... replaced by this program, on top of glibc's) fails the Nth
 * allocation of one onnxslim_save() or onnxslim_fingerprint() call, for N =
 * 1, 2, ... until the call makes fewer than N (and of
 * onnxslim_save_buffer_external()). Each time the call must fail
 * cleanly or succeed: every byte allocated between loading the model and
 * freeing it is freed (no leak on an error path), and the destination
 * holds the complete old files or the complete new ones, nothing else.
 * Not built with a sanitizer (it brings its own allocator). */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <onnxslim.h>

#include "util.h"

#include "t.h"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#  define OSL_NO_MALLOC_HOOK 1
#elif defined(__has_feature)
#  if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
      __has_feature(memory_sanitizer)
#    define OSL_NO_MALLOC_HOOK 1
#  endif
#endif

#define BERT "test/data/bert-tiny.onnx"

#ifndef OSL_NO_MALLOC_HOOK
/* ---- the counting allocator -------------------------------------------- */

extern void *__libc_malloc(size_t n);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t n);
extern void *__libc_memalign(size_t align, size_t n);
extern void __libc_free(void *p);

static long fail_at;  /* the allocation to fail (1-based), 0: none */
static long n_allocs; /* allocations since armed */
static int armed;     /* count (and fail) allocations */
static long live;     /* allocations minus frees, always counted */

static void *counted(void *p) {
  if (p) __atomic_add_fetch(&live, 1, __ATOMIC_RELAXED);
  return p;
}

static int fail_now(void) {
  if (!armed) return 0;
  return __atomic_add_fetch(&n_allocs, 1, __ATOMIC_RELAXED) == fail_at;
}

void *malloc(size_t n) {
  if (fail_now()) {
    errno = ENOMEM;
    return NULL;
  }
  return counted(__libc_malloc(n));
}

void *calloc(size_t n, size_t size) {
  if (fail_now()) {
    errno = ENOMEM;
    return NULL;
  }
  return counted(__libc_calloc(n, size));
}

void *realloc(void *p, size_t n) {
  if (!p) return malloc(n);
  if (n == 0) {
    free(p);
    return NULL;
  }
  if (fail_now()) {
    errno = ENOMEM;
    return NULL; /* p stays */
  }
  return __libc_realloc(p, n);
}

void free(void *p) {
  if (p) __atomic_sub_fetch(&live, 1, __ATOMIC_RELAXED);
  __libc_free(p);
}

void *memalign(size_t align, size_t n) {
  if (fail_now()) {
    errno = ENOMEM;
    return NULL;
  }
  return counted(__libc_memalign(align, n));
}

void *aligned_alloc(size_t align, size_t n) { return memalign(align, n); }

int posix_memalign(void **out, size_t align, size_t n) {
  void *p = memalign(align, n);
  if (!p) return ENOMEM;
  *out = p;
  return 0;
}

void *valloc(size_t n) { return memalign((size_t)sysconf(_SC_PAGESIZE), n); }

void *pvalloc(size_t n) {
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  return memalign(page, (n + page - 1) / page * page);
}

/* ---- the destination --------------------------------------------------- */

static char dir[256];

/* The entries of d (but . and ..), sorted, one per line, with the size
 * and content hash of each; malloc'ed (counted outside the window). */
static char *listing(const char *d) {
  DIR *dd = opendir(d);
  if (!dd) return NULL;
  char *names[256];
  size_t n = 0;
  struct dirent *e;
  while ((e = readdir(dd)) && n < 256)
    if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) names[n++] = strdup(e->d_name);
  closedir(dd);
  for (size_t i = 1; i < n; i++)
    for (size_t j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
      char *t = names[j];
      names[j] = names[j - 1];
      names[j - 1] = t;
    }
  size_t cap = 64 + n * 320, len = 0;
  char *out = malloc(cap);
  out[0] = '\0';
  for (size_t i = 0; i < n; i++) {
    char path[600];
    snprintf(path, sizeof path, "%s/%s", d, names[i]);
    size_t sz = 0;
    unsigned char *p = slurp(path, &sz);
    uint64_t h = 1469598103934665603ull;
    for (size_t k = 0; p && k < sz; k++) h = (h ^ p[k]) * 1099511628211ull;
    free(p);
    len += (size_t)snprintf(out + len, cap - len, "%s %zu %016llx\n", names[i], sz,
                            (unsigned long long)h);
    free(names[i]);
  }
  return out;
}

/* 1 if the model at path loads with the bytes of bert-tiny.onnx. */
static int loads_as_bert(const char *path) {
  onnxslim_model *a = NULL, *b = NULL;
  char fa[ONNXSLIM_FINGERPRINT_SIZE], fb[ONNXSLIM_FINGERPRINT_SIZE];
  int ok = onnxslim_model_open(&a, path, NULL) == 0 && onnxslim_model_open(&b, BERT, NULL) == 0 &&
           onnxslim_fingerprint(fa, sizeof fa, a) == 0 &&
           onnxslim_fingerprint(fb, sizeof fb, b) == 0 && strcmp(fa, fb) == 0;
  onnxslim_model_free(a);
  onnxslim_model_free(b);
  return ok;
}

/* 1 if directory d holds exactly the model at path and the files it reads. */
static int only_its_files(const char *d, const char *path) {
  onnxslim_model *m = NULL;
  if (onnxslim_model_open(&m, path, NULL)) return 0;
  size_t nf = onnxslim_model_file_count(m), n = 0;
  int ok = 1;
  DIR *dd = opendir(d);
  struct dirent *e;
  while (dd && (e = readdir(dd))) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    n++;
    int known = 0;
    for (size_t i = 0; i < nf && !known; i++) {
      const char *f = onnxslim_model_file(m, i), *slash = strrchr(f, '/');
      known = !strcmp(slash ? slash + 1 : f, e->d_name);
    }
    if (!known) {
      fprintf(stderr, "  %s: not a file of the model\n", e->d_name);
      ok = 0;
    }
  }
  if (dd) closedir(dd);
  onnxslim_model_free(m);
  return ok && dd && n == nf;
}

typedef struct {
  const char *name;
  const char *src; /* the model saved (loaded fresh each time) */
  int layout;
  unsigned int flags;
  int fingerprint; /* 1: call onnxslim_fingerprint instead of saving; 2:
                    * onnxslim_save_buffer_external (into a buffer, no file) */
} oom_case;

/* One call with allocation `at` failing (0: none): its result, whether it
 * failed an allocation, and the allocations it left (load to free). */
static int one_call(const oom_case *c, const char *out, long at, int *hit, long *left) {
  long before = __atomic_load_n(&live, __ATOMIC_RELAXED);
  onnxslim_model *m = NULL;
  int rc = onnxslim_model_open(&m, c->src, NULL);
  if (rc) return -1000;
  onnxslim_save_options o = ONNXSLIM_SAVE_OPTIONS_INIT;
  o.layout = c->layout;
  o.flags = c->flags | ONNXSLIM_SAVE_NO_FSYNC;
  o.size_threshold = 0;
  onnxslim_save_report *r = NULL;
  char fp[ONNXSLIM_FINGERPRINT_SIZE];
  size_t need = 0;
  void *buf = NULL;
  if (c->fingerprint == 2) { /* the buffer, before the count starts */
    onnxslim_save_buffer_external(NULL, m, NULL, 0, &need, &o);
    if (!(buf = malloc(need))) return -1000;
  }
  n_allocs = 0;
  fail_at = at;
  armed = 1;
  if (c->fingerprint == 2) rc = onnxslim_save_buffer_external(&r, m, buf, need, &need, &o);
  else if (c->fingerprint) rc = onnxslim_fingerprint(fp, sizeof fp, m);
  else rc = onnxslim_save(&r, m, out, &o);
  armed = 0;
  free(buf);
  *hit = at && n_allocs >= at;
  if (rc && r) rc = -2000; /* a report on failure */
  onnxslim_save_report_free(r);
  onnxslim_model_free(m);
  *left = __atomic_load_n(&live, __ATOMIC_RELAXED) - before;
  return rc;
}

/* Fails each allocation of the case's call in turn. */
static void run_case(const oom_case *c) {
  char d[400], out[500];
  snprintf(d, sizeof d, "%s/%s", dir, c->name);
  mkdir(d, 0755);
  snprintf(out, sizeof out, "%s/out.onnx", d);
  int hit = 0;
  long left = 0;
  /* a first save: the old files that a failed save must leave */
  if (!c->fingerprint && one_call(c, out, 0, &hit, &left) != 0) {
    fprintf(stderr, "%s: the first save failed: %s\n", c->name, onnxslim_error_last());
    t_cur_failed++;
    return;
  }
  CHECK(c->fingerprint || only_its_files(d, out));
  char *state = listing(d);
  long n = 0, failures = 0, nomem = 0, leaks = 0, bad_state = 0;
  for (long at = 1;; at++) {
    int rc = one_call(c, out, at, &hit, &left);
    n++;
    if (left != 0) {
      if (leaks++ < 5)
        fprintf(stderr, "%s: allocation %ld failed: rc %d, %ld allocation%s left (%s)\n", c->name,
                at, rc, left, left == 1 ? "" : "s", onnxslim_error_last());
    }
    if (rc == -1000 || rc == -2000) {
      fprintf(stderr, "%s: allocation %ld: %s\n", c->name, at,
              rc == -1000 ? "the model did not load" : "a report on failure");
      t_cur_failed++;
      break;
    }
    failures += rc != 0;
    nomem += rc == ONNXSLIM_ENOMEM;
    if (!c->fingerprint) {
      char *now = listing(d);
      if (rc != 0 && strcmp(now, state) != 0) {
        /* a failed save changed the destination */
        if (bad_state++ < 5)
          fprintf(stderr,
                  "%s: allocation %ld failed (rc %d: %s), the directory changed:\n%s-- was:\n%s",
                  c->name, at, rc, onnxslim_error_last(), now, state);
      } else if (rc == 0 && (!loads_as_bert(out) || !only_its_files(d, out))) {
        if (bad_state++ < 5)
          fprintf(stderr,
                  "%s: allocation %ld: saved, but it does not load as the model, or other "
                  "files are beside it\n",
                  c->name, at);
      }
      free(state);
      state = now; /* a successful save is the new old state */
    }
    if (!hit) break; /* the call made fewer than `at` allocations: all were tried */
    if (leaks + bad_state >= 5) break; /* failed: enough said */
  }
  free(state);
  fprintf(stderr,
          "%s: %ld allocations failed one at a time: %ld calls failed (%ld ENOMEM), %ld leaked, "
          "%ld left the destination otherwise\n",
          c->name, n - 1, failures, nomem, leaks, bad_state);
  CHECK(n > 1 && failures > 0);
  CHECK(leaks == 0);
  CHECK(bad_state == 0);
}

TEST(oom_save_one_file) {
  oom_case c = {"one", BERT, ONNXSLIM_LAYOUT_ONE_FILE, ONNXSLIM_SAVE_CHECKSUM, 0};
  run_case(&c);
}

TEST(oom_save_per_tensor) {
  oom_case c = {"per", BERT, ONNXSLIM_LAYOUT_PER_TENSOR, ONNXSLIM_SAVE_CONSTANTS, 0};
  run_case(&c);
}

static char split_model[500];

TEST(oom_save_inline) {
  oom_case c = {"inline", split_model, ONNXSLIM_LAYOUT_INLINE, 0, 0};
  run_case(&c);
}

TEST(oom_save_as_loaded) {
  oom_case c = {"asloaded", BERT, ONNXSLIM_LAYOUT_AS_LOADED, 0, 0};
  run_case(&c);
}

TEST(oom_save_buffer_external) {
  oom_case c = {"buffer", BERT, ONNXSLIM_LAYOUT_PER_TENSOR, ONNXSLIM_SAVE_CONSTANTS, 2};
  run_case(&c);
}

TEST(oom_fingerprint) {
  oom_case c = {"fingerprint", split_model, 0, 0, 1};
  run_case(&c);
}

int main(int argc, char **argv) {
  t_args(argc, argv);
  snprintf(dir, sizeof dir, "/tmp/libonnxslim-oom-XXXXXX");
  if (!mkdtemp(dir)) {
    perror("mkdtemp");
    return 1;
  }
  /* a model with external data: merged by oom_save_inline */
  char sd[400];
  snprintf(sd, sizeof sd, "%s/src", dir);
  mkdir(sd, 0755);
  snprintf(split_model, sizeof split_model, "%s/split.onnx", sd);
  onnxslim_model *m = NULL;
  onnxslim_save_options o = ONNXSLIM_SAVE_OPTIONS_INIT;
  o.layout = ONNXSLIM_LAYOUT_ONE_FILE;
  o.size_threshold = 0;
  if (onnxslim_model_open(&m, BERT, NULL) || onnxslim_save(NULL, m, split_model, &o)) {
    fprintf(stderr, "setup: %s\n", onnxslim_error_last());
    return 1;
  }
  onnxslim_model_free(m);
  RUN(oom_save_one_file);
  RUN(oom_save_per_tensor);
  RUN(oom_save_inline);
  RUN(oom_save_as_loaded);
  RUN(oom_save_buffer_external);
  RUN(oom_fingerprint);
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system(cmd) != 0) fprintf(stderr, "cleanup of %s failed\n", dir);
  return t_done();
}
#else
int main(void) {
  printf("0 passed, 0 failed, 1 skipped\n");
  return 0;
}
#endif
