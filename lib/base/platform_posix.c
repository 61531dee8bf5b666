/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - the platform layer on Linux and every other POSIX system
 * (platform.h). Each Linux-only call is compiled where the build found it
 * (ONNXSLIM_HAVE_* of onnxslim_config.h, scripts/probe-platform.sh) and has
 * a portable way beside it for the systems without it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <dirent.h>
#include <time.h>
#include <unistd.h>

#include "onnxslim_config.h"

#if ONNXSLIM_HAVE_GETAUXVAL
#  include <sys/auxv.h>
#endif

#if ONNXSLIM_HAVE_OPENAT2 || ONNXSLIM_HAVE_GETTID || ONNXSLIM_HAVE_TGKILL
#  include <sys/syscall.h>
#endif
#if ONNXSLIM_HAVE_OPENAT2
#  include <linux/openat2.h>
#endif
#if ONNXSLIM_HAVE_GETRANDOM
#  include <sys/random.h>
#endif
#if ONNXSLIM_HAVE_SPLICE
#  include <linux/magic.h>
#  include <sys/vfs.h>
#endif

#include <nettle/sha1.h>

#include "base/platform.h"

/* ---- plain files ---------------------------------------------------------- */

/* The open(2) flags of OSL_O_* flags, close-on-exec added. */
static int os_flags(int f) {
  int o = O_CLOEXEC;
  switch (f & OSL_O_ACCMODE) {
  case OSL_O_WRONLY: o |= O_WRONLY; break;
  case OSL_O_RDWR: o |= O_RDWR; break;
  default: o |= O_RDONLY; break;
  }
  if (f & OSL_O_CREAT) o |= O_CREAT;
  if (f & OSL_O_EXCL) o |= O_EXCL;
  if (f & OSL_O_TRUNC) o |= O_TRUNC;
  if (f & OSL_O_NOFOLLOW) o |= O_NOFOLLOW;
  if (f & OSL_O_DIRECTORY) o |= O_DIRECTORY;
  if (f & OSL_O_NONBLOCK) o |= O_NONBLOCK | O_NOCTTY;
#if ONNXSLIM_HAVE_O_PATH
  if (f & OSL_O_PATH) o |= O_PATH;
#endif
  return o;
}

osl_os_fd onnxslim__os_open(const char *path, int flags, unsigned int mode) {
  return open(path, os_flags(flags), (mode_t)mode);
}

osl_os_fd onnxslim__os_openat(osl_os_fd dfd, const char *name, int flags, unsigned int mode) {
  return openat(dfd, name, os_flags(flags), (mode_t)mode);
}

osl_os_fd onnxslim__os_dup(osl_os_fd fd) { return fcntl(fd, F_DUPFD_CLOEXEC, 0); }

int onnxslim__os_close(osl_os_fd fd) { return fd >= 0 ? close(fd) : 0; }

ptrdiff_t onnxslim__os_read(osl_os_fd fd, void *buf, size_t n) { return read(fd, buf, n); }

ptrdiff_t onnxslim__os_pread(osl_os_fd fd, void *buf, size_t n, int64_t off) {
  return pread(fd, buf, n, (off_t)off);
}

ptrdiff_t onnxslim__os_write(osl_os_fd fd, const void *buf, size_t n) { return write(fd, buf, n); }

int onnxslim__os_chmod(osl_os_fd fd, unsigned int mode) { return fchmod(fd, (mode_t)mode); }

static void fill_stat(const struct stat *s, osl_os_stat *st) {
  st->dev = (uint64_t)s->st_dev;
  st->ino = (uint64_t)s->st_ino;
  st->size = s->st_size > 0 ? (uint64_t)s->st_size : 0;
  st->perm = (unsigned int)(s->st_mode & 07777);
  st->kind = S_ISREG(s->st_mode)    ? OSL_KIND_REG
             : S_ISDIR(s->st_mode)  ? OSL_KIND_DIR
             : S_ISFIFO(s->st_mode) ? OSL_KIND_FIFO
             : S_ISCHR(s->st_mode)  ? OSL_KIND_CHR
             : S_ISBLK(s->st_mode)  ? OSL_KIND_BLK
             : S_ISSOCK(s->st_mode) ? OSL_KIND_SOCK
             : S_ISLNK(s->st_mode)  ? OSL_KIND_LNK
                                    : OSL_KIND_OTHER;
}

int onnxslim__os_fstat(osl_os_fd fd, osl_os_stat *st) {
  struct stat s;
  if (fstat(fd, &s) != 0) return -1;
  fill_stat(&s, st);
  return 0;
}

int onnxslim__os_stat(const char *path, osl_os_stat *st) {
  struct stat s;
  if (stat(path, &s) != 0) return -1;
  fill_stat(&s, st);
  return 0;
}

int onnxslim__os_statat(osl_os_fd dfd, const char *name, int nofollow, osl_os_stat *st) {
  struct stat s;
  if (fstatat(dfd, name, &s, nofollow ? AT_SYMLINK_NOFOLLOW : 0) != 0) return -1;
  fill_stat(&s, st);
  return 0;
}

/* ---- names in a directory ------------------------------------------------ */

int onnxslim__os_rename(osl_os_fd dfd, const char *from, const char *to) {
  return renameat(dfd, from, dfd, to);
}

int onnxslim__os_link(osl_os_fd dfd, const char *from, const char *to) {
  return linkat(dfd, from, dfd, to, 0);
}

int onnxslim__os_unlink(osl_os_fd dfd, const char *name) { return unlinkat(dfd, name, 0); }

struct osl_os_dir {
  DIR *d;
};

osl_os_dir *onnxslim__os_dir_open(osl_os_fd dfd) {
  /* a descriptor of its own: readdir moves its offset */
  int lfd = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (lfd < 0) return NULL;
  osl_os_dir *d = malloc(sizeof *d);
  if (!d || !(d->d = fdopendir(lfd))) {
    int e = d ? errno : ENOMEM;
    free(d);
    close(lfd);
    errno = e;
    return NULL;
  }
  return d;
}

const char *onnxslim__os_dir_next(osl_os_dir *d) {
  struct dirent *e = readdir(d->d);
  return e ? e->d_name : NULL;
}

void onnxslim__os_dir_close(osl_os_dir *d) {
  if (!d) return;
  closedir(d->d);
  free(d);
}

char *onnxslim__os_realpath(const char *path) { return realpath(path, NULL); }

int onnxslim__os_fnmatch(const char *pattern, const char *s) { return fnmatch(pattern, s, 0) == 0; }

int onnxslim__os_name_ok(const char *name, size_t len, const char **why) {
  (void)name, (void)len, (void)why;
  return 1;
}

/* ---- limits --------------------------------------------------------------- */

int onnxslim__os_file_size_limit(uint64_t *max) {
  struct rlimit rl;
  if (getrlimit(RLIMIT_FSIZE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY) return -1;
  *max = (uint64_t)rl.rlim_cur;
  return 0;
}

int onnxslim__os_space(osl_os_fd fd, uint64_t *avail) {
  struct statvfs vfs;
  if (fstatvfs(fd, &vfs) != 0) return -1;
  uint64_t blocks = geteuid() == 0 ? (uint64_t)vfs.f_bfree : (uint64_t)vfs.f_bavail;
  if (!vfs.f_frsize || blocks >= UINT64_MAX / vfs.f_frsize) return -1;
  *avail = blocks * (uint64_t)vfs.f_frsize;
  return 0;
}

/* ---- files beneath a directory ------------------------------------------ */

/* Directories walked through: opened for nothing but lookups where the
 * system can (O_PATH), else for reading (they must be readable then). */
#if ONNXSLIM_HAVE_O_PATH
#  define OSL_DIR_WALK (O_PATH | O_DIRECTORY)
#else
#  define OSL_DIR_WALK (O_RDONLY | O_DIRECTORY)
#endif

/* The same as openat2(RESOLVE_BENEATH) in user space, for systems, kernels
 * (before 5.6) and sandboxes without openat2: every component is opened
 * from the descriptor of the one before it without following symlinks; a
 * symlink's target is read and walked in its place, ".." pops a directory
 * this walk opened, so nothing ever resolves above dirfd, whatever is
 * renamed meanwhile. It allocates nothing for paths of up to OSL_WALK_FDS
 * directories: a save removes old data files with it after its commit,
 * where a failure could only keep them. */
#define OSL_WALK_FDS 64
static int walk_beneath(int dirfd, const char *rel, int flags) {
  int fdbuf[OSL_WALK_FDS];
  int *fds = fdbuf;
  size_t cap = OSL_WALK_FDS, n = 1;
  char path[PATH_MAX], joined[PATH_MAX];
  int result = -1, err = 0, links = 0;
  if (strlen(rel) >= sizeof path) {
    errno = ENAMETOOLONG;
    return -1;
  }
  strcpy(path, rel);
  fds[0] = dirfd; /* borrowed: never closed here */
  char *p = path;
  for (;;) {
    while (*p == '/') p++;
    if (!*p) {
      /* ends on a directory ("sub/", "."): open it with the caller's flags */
      result = openat(fds[n - 1], ".", flags | O_CLOEXEC);
      err = errno;
      break;
    }
    char *e = strchr(p, '/');
    if (!e) e = p + strlen(p);
    size_t len = (size_t)(e - p);
    int last = *e == '\0';
    if (len == 1 && p[0] == '.') {
      p = e;
      continue;
    }
    if (len == 2 && p[0] == '.' && p[1] == '.') {
      if (n == 1) {
        err = EXDEV;
        break;
      }
      close(fds[--n]);
      p = e;
      continue;
    }
    if (len > NAME_MAX) {
      err = ENAMETOOLONG;
      break;
    }
    char name[NAME_MAX + 1];
    memcpy(name, p, len);
    name[len] = '\0';
    int fd = last ? openat(fds[n - 1], name, flags | O_NOFOLLOW | O_CLOEXEC)
                  : openat(fds[n - 1], name, OSL_DIR_WALK | O_NOFOLLOW | O_CLOEXEC);
    if (fd >= 0) {
      if (last) {
        result = fd;
        break;
      }
      if (n == cap) {
        int *v = fds == fdbuf ? malloc(2 * cap * sizeof *fds) : realloc(fds, 2 * cap * sizeof *fds);
        if (!v) {
          close(fd);
          err = ENOMEM;
          break;
        }
        if (fds == fdbuf) memcpy(v, fdbuf, sizeof fdbuf);
        fds = v;
        cap *= 2;
      }
      fds[n++] = fd;
      p = e;
      continue;
    }
    err = errno;
    /* a symlink met with O_NOFOLLOW: ELOOP (Linux, POSIX), EMLINK (FreeBSD),
     * EFTYPE (NetBSD); ENOTDIR when it stands for a directory */
    if (err != ELOOP && err != ENOTDIR && err != EMLINK
#ifdef EFTYPE
        && err != EFTYPE
#endif
    )
      break;
    /* a symlink (O_NOFOLLOW): walk its target in its place */
    char target[PATH_MAX];
    ssize_t tl = readlinkat(fds[n - 1], name, target, sizeof target);
    if (tl < 0) {
      if (errno != EINVAL) err = errno; /* EINVAL: not a symlink; keep err */
      break;
    }
    if ((size_t)tl >= sizeof target) {
      err = ENAMETOOLONG;
      break;
    }
    if (tl == 0) {
      err = ENOENT;
      break;
    }
    if (target[0] == '/') {
      err = EXDEV; /* an absolute symlink leaves dirfd */
      break;
    }
    if (++links > 40) {
      err = ELOOP;
      break;
    }
    size_t rest = strlen(e);
    if ((size_t)tl + rest >= sizeof joined) {
      err = ENAMETOOLONG;
      break;
    }
    memcpy(joined, target, (size_t)tl);
    memcpy(joined + tl, e, rest + 1);
    memcpy(path, joined, (size_t)tl + rest + 1);
    p = path;
  }
  for (size_t i = 1; i < n; i++) close(fds[i]);
  if (fds != fdbuf) free(fds);
  if (result < 0) errno = err;
  return result;
}

osl_os_fd onnxslim__os_open_beneath(osl_os_fd dirfd, const char *rel, int oflags) {
  int flags = os_flags(oflags) & ~O_CLOEXEC;
#if ONNXSLIM_HAVE_OPENAT2
  struct open_how how;
  memset(&how, 0, sizeof how);
  how.flags = (uint64_t)(flags | O_CLOEXEC);
  how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
  for (int tries = 0; tries < 8; tries++) {
    long fd = syscall(SYS_openat2, dirfd, rel, &how, sizeof how);
    if (fd >= 0) return (int)fd;
    /* EAGAIN: a rename raced a ".." walk, try again. ENOSYS, EPERM (a
     * seccomp filter), E2BIG, EINVAL (an older kernel): walk in user space */
    if (errno == EAGAIN) continue;
    if (errno != ENOSYS && errno != EPERM && errno != E2BIG && errno != EINVAL) return -1;
    break;
  }
#endif
  return walk_beneath(dirfd, rel, flags);
}

int onnxslim__os_rename_noreplace(osl_os_fd dfd, const char *from, const char *to) {
#if ONNXSLIM_HAVE_RENAMEAT2
  if (renameat2(dfd, from, dfd, to, RENAME_NOREPLACE) == 0) return 0;
  /* else file systems without it: link and unlink */
  if (errno != EINVAL && errno != ENOSYS && errno != EOPNOTSUPP) return -1;
#endif
  if (linkat(dfd, from, dfd, to, 0) == 0) {
    unlinkat(dfd, from, 0);
    return 0;
  }
  if (errno == EEXIST) return -1;
  struct stat st;
  if (fstatat(dfd, to, &st, AT_SYMLINK_NOFOLLOW) == 0) {
    errno = EEXIST;
    return -1;
  }
  return renameat(dfd, from, dfd, to);
}

void onnxslim__os_copier_init(osl_os_copier *c) {
  c->how = 0;
  c->pipe_r = c->pipe_w = -1;
  c->pipe_cap = 0;
}

void onnxslim__os_copier_close(osl_os_copier *c) {
  if (c->pipe_r >= 0) close(c->pipe_r);
  if (c->pipe_w >= 0) close(c->pipe_w);
  c->how = 0; /* a later copy decides again */
  c->pipe_r = c->pipe_w = -1;
  c->pipe_cap = 0;
}

#if ONNXSLIM_HAVE_SPLICE
/* The pipe size asked for: the largest an unprivileged process may set
 * by default (/proc/sys/fs/pipe-max-size); in the measures, 4 MiB was no
 * faster and 256 KiB slower. */
#  define OSL_COPY_PIPE (1u << 20)

/* Decides how c copies into out: splice on the file systems named in
 * platform.h when a pipe of OSL_COPY_PIPE can be made, else
 * copy_file_range. */
static void copier_decide(osl_os_copier *c, int out) {
  struct statfs s;
  int fds[2];
  c->how = 2;
  if (fstatfs(out, &s) != 0) return;
  if (s.f_type != EXT4_SUPER_MAGIC && s.f_type != TMPFS_MAGIC) return;
  if (pipe2(fds, O_CLOEXEC) != 0) return;
  int cap = fcntl(fds[1], F_SETPIPE_SZ, (int)OSL_COPY_PIPE);
  if (cap < (int)OSL_COPY_PIPE) { /* refused (a user's pipe quota): no gain over copy_file_range */
    close(fds[0]);
    close(fds[1]);
    return;
  }
  c->pipe_r = fds[0];
  c->pipe_w = fds[1];
  c->pipe_cap = OSL_COPY_PIPE;
  c->how = 1;
}

/* Splices up to n bytes of in at off into out's current offset through
 * c's pipe, OSL_COPY_PIPE at a time; the bytes that reached out. On an
 * error the pipe (and whatever it still holds) is dropped and c copies
 * with copy_file_range from then on: the caller goes on from the bytes
 * written. */
static size_t splice_copy(osl_os_copier *c, int in, int64_t off, int out, size_t n) {
  size_t done = 0;
  while (done < n) {
    size_t want = n - done < c->pipe_cap ? n - done : c->pipe_cap;
    off64_t o = (off64_t)off + (off64_t)done;
    ssize_t got = splice(in, &o, c->pipe_w, NULL, want, 0);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) {
      if (got < 0) goto drop; /* 0: the end of in, the caller reports it */
      break;
    }
    size_t left = (size_t)got;
    while (left) {
      ssize_t w = splice(c->pipe_r, NULL, out, NULL, left, 0);
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) {
        done += (size_t)got - left;
        goto drop;
      }
      left -= (size_t)w;
    }
    done += (size_t)got;
  }
  return done;
drop:
  onnxslim__os_copier_close(c);
  c->how = 2;
  return done;
}
#endif

size_t onnxslim__os_copy_range(osl_os_copier *c, osl_os_fd in, int64_t off, osl_os_fd out,
                               size_t n) {
#if ONNXSLIM_HAVE_SPLICE
  if (!c->how) copier_decide(c, out);
  /* Bytes that keep their offset within a page copy faster with
   * copy_file_range (a 4 GiB weight file of aligned tensors: 1.8-2.5 s,
   * through the pipe 6-10 s); splice wins only when they move within it. */
  off_t pos = c->how == 1 ? lseek(out, 0, SEEK_CUR) : -1;
  if (c->how == 1 && (pos < 0 || (pos - (off_t)off) % 4096 != 0)) {
    size_t done = splice_copy(c, in, off, out, n);
    if (done || c->how == 1) return done;
    /* nothing spliced and splice given up: copy_file_range may still do */
  }
#else
  (void)c;
#endif
#if ONNXSLIM_HAVE_COPY_FILE_RANGE
  loff_t o = (loff_t)off;
  ssize_t r = copy_file_range(in, &o, out, NULL, n, 0);
  return r > 0 ? (size_t)r : 0;
#else
  (void)in, (void)off, (void)out, (void)n;
  return 0;
#endif
}

void onnxslim__os_writeback_start(osl_os_fd fd, uint64_t off, uint64_t len) {
#if ONNXSLIM_HAVE_SYNC_FILE_RANGE
  sync_file_range(fd, (off64_t)off, (off64_t)len, SYNC_FILE_RANGE_WRITE);
#else
  (void)fd, (void)off, (void)len;
#endif
}

int onnxslim__os_fd_path(osl_os_fd fd, char *buf, size_t cap) {
#if ONNXSLIM_HAVE_PROC_SELF
  char link[64];
  snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  ssize_t n = cap > 1 ? readlink(link, buf, cap - 1) : -1;
  if (n > 0 && (size_t)n < cap - 1 && buf[0] == '/') {
    buf[n] = '\0';
    return 0;
  }
  return -1;
#elif ONNXSLIM_HAVE_F_GETPATH
  char p[PATH_MAX];
  if (fcntl(fd, F_GETPATH, p) != 0 || p[0] != '/' || strlen(p) >= cap) return -1;
  strcpy(buf, p);
  return 0;
#else
  (void)fd, (void)buf, (void)cap;
  return -1;
#endif
}

/* ---- locks ---------------------------------------------------------------- */

int onnxslim__os_lock(osl_os_fd fd, int wait) {
  if (!wait) return flock(fd, LOCK_EX | LOCK_NB);
  int r;
  while ((r = flock(fd, LOCK_EX)) != 0 && errno == EINTR) {}
  return r;
}

/* ---- processes, threads and randomness ---------------------------------- */

long onnxslim__os_pid(void) { return (long)getpid(); }

#if !ONNXSLIM_HAVE_GETTID
static atomic_long last_tid;
static _Thread_local long my_tid;
#endif

long onnxslim__os_tid(void) {
#if ONNXSLIM_HAVE_GETTID
  return (long)syscall(SYS_gettid);
#else
  if (!my_tid) my_tid = atomic_fetch_add(&last_tid, 1) + 1;
  return my_tid;
#endif
}

int onnxslim__os_thread_alive(long pid, long tid) {
  if (pid <= 0 || tid <= 0) return 0;
#if ONNXSLIM_HAVE_TGKILL
  if (syscall(SYS_tgkill, (pid_t)pid, (pid_t)tid, 0) == 0) return 1;
#else
  /* no way to ask for another's thread: the process stands for it (a
   * side file of a thread gone in a live process stays until it ends) */
  if (kill((pid_t)pid, 0) == 0) return 1;
#endif
  return errno == EPERM;
}

int onnxslim__os_random(void *buf, size_t n) {
#if ONNXSLIM_HAVE_GETRANDOM
  return getrandom(buf, n, GRND_NONBLOCK) == (ssize_t)n ? 0 : -1;
#else
  (void)buf, (void)n;
  return -1;
#endif
}

uint64_t onnxslim__os_clock_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int onnxslim__os_umask(unsigned int *mask) {
#if ONNXSLIM_HAVE_PROC_SELF
  FILE *f = fopen("/proc/self/status", "re");
  if (!f) return -1;
  char line[256];
  int rc = -1;
  while (fgets(line, sizeof line, f)) {
    unsigned int um;
    if (sscanf(line, "Umask: %o", &um) == 1) {
      *mask = um;
      rc = 0;
      break;
    }
  }
  fclose(f);
  return rc;
#else
  (void)mask;
  return -1;
#endif
}

/* ---- memory -------------------------------------------------------------- */

size_t onnxslim__os_page_size(void) { return (size_t)sysconf(_SC_PAGESIZE); }

void *onnxslim__os_map_read(osl_os_fd fd, size_t len) {
  void *p = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
  return p == MAP_FAILED ? NULL : p;
}

void onnxslim__os_unmap(void *p, size_t len) {
  if (p) munmap(p, len);
}

void onnxslim__os_drop_pages(void *p, size_t len) {
#if ONNXSLIM_HAVE_MADV_DONTNEED
  madvise(p, len, MADV_DONTNEED);
#else
  posix_madvise(p, len, POSIX_MADV_DONTNEED);
#endif
}

void *onnxslim__os_alloc_aligned(size_t align, size_t bytes) {
  void *p = NULL;
  return posix_memalign(&p, align, bytes) == 0 ? p : NULL;
}

void onnxslim__os_advise_huge(void *p, size_t len) {
#if ONNXSLIM_HAVE_MADV_HUGEPAGE
  (void)madvise(p, len, MADV_HUGEPAGE);
#else
  (void)p, (void)len;
#endif
}

/* ---- durability ---------------------------------------------------------- */

int onnxslim__os_sync(osl_os_fd fd) { return fsync(fd); }

int onnxslim__os_hwcaps(unsigned long *hwcap, unsigned long *hwcap2) {
#if ONNXSLIM_HAVE_GETAUXVAL
  *hwcap = getauxval(AT_HWCAP);
  *hwcap2 = getauxval(AT_HWCAP2);
  return 1;
#else
  *hwcap = *hwcap2 = 0;
  return 0;
#endif
}

/* ---- SHA-1 ------------------------------------------------------------------ */

_Static_assert(sizeof(struct sha1_ctx) <= sizeof(osl_sha1), "osl_sha1 holds a sha1_ctx");
_Static_assert(SHA1_DIGEST_SIZE == OSL_SHA1_SIZE, "a SHA-1 digest is 20 bytes");

int onnxslim__sha1_init(osl_sha1 *h) {
  sha1_init((struct sha1_ctx *)(void *)h->opaque);
  return 0;
}

int onnxslim__sha1_update(osl_sha1 *h, const void *p, size_t n) {
  sha1_update((struct sha1_ctx *)(void *)h->opaque, n, p);
  return 0;
}

int onnxslim__sha1_final(osl_sha1 *h, uint8_t *out) {
  if (out) sha1_digest((struct sha1_ctx *)(void *)h->opaque, OSL_SHA1_SIZE, out);
  return 0;
}

/* ---- threads ------------------------------------------------------------- */

struct osl_os_thread {
  pthread_t th;
  void (*fn)(void *);
  void *arg;
};

static void *thread_main(void *p) {
  osl_os_thread *t = p;
  t->fn(t->arg);
  return NULL;
}

osl_os_thread *onnxslim__os_thread_start(void (*fn)(void *), void *arg) {
  osl_os_thread *t = malloc(sizeof *t);
  if (!t) return NULL;
  t->fn = fn;
  t->arg = arg;
  if (pthread_create(&t->th, NULL, thread_main, t) == 0) return t;
  free(t);
  return NULL;
}

void onnxslim__os_thread_join(osl_os_thread *t) {
  pthread_join(t->th, NULL);
  free(t);
}

struct osl_os_monitor {
  pthread_mutex_t mu;
  pthread_cond_t cv;
};

osl_os_monitor *onnxslim__os_monitor_new(void) {
  osl_os_monitor *m = malloc(sizeof *m);
  if (!m) return NULL;
  if (pthread_mutex_init(&m->mu, NULL) == 0) {
    if (pthread_cond_init(&m->cv, NULL) == 0) return m;
    pthread_mutex_destroy(&m->mu);
  }
  free(m);
  return NULL;
}

void onnxslim__os_monitor_free(osl_os_monitor *m) {
  if (!m) return;
  pthread_cond_destroy(&m->cv);
  pthread_mutex_destroy(&m->mu);
  free(m);
}

void onnxslim__os_monitor_lock(osl_os_monitor *m) { pthread_mutex_lock(&m->mu); }
void onnxslim__os_monitor_unlock(osl_os_monitor *m) { pthread_mutex_unlock(&m->mu); }
void onnxslim__os_monitor_wait(osl_os_monitor *m) { pthread_cond_wait(&m->cv, &m->mu); }
void onnxslim__os_monitor_wake_all(osl_os_monitor *m) { pthread_cond_broadcast(&m->cv); }
