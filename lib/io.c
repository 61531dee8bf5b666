/*
 * libonnxslim - file I/O: read-only mappings of model files and atomic
 * replacement of output files (temporary file + fsync + rename).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "internal.h"

int onnxslim__map_file(const char *path, void **map, size_t *len, int *fdp) {
  *map = NULL;
  *len = 0;
  *fdp = -1;
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return onnxslim__err(ONNXSLIM_EIO, "cannot open '%s': %s", path, strerror(errno));
  struct stat st;
  if (fstat(fd, &st) != 0) {
    int e = errno;
    close(fd);
    return onnxslim__err(ONNXSLIM_EIO, "cannot stat '%s': %s", path, strerror(e));
  }
  if (!S_ISREG(st.st_mode)) {
    close(fd);
    return onnxslim__err(ONNXSLIM_EIO, "'%s' is not a regular file", path);
  }
  if ((uint64_t)st.st_size > (uint64_t)SIZE_MAX) {
    close(fd);
    return onnxslim__err(ONNXSLIM_ELIMIT, "'%s' is too large to map", path);
  }
  if (st.st_size == 0) {
    close(fd);
    return 0;
  }
  void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
  int e = errno;
  if (p == MAP_FAILED) {
    close(fd);
    return onnxslim__err(ONNXSLIM_EIO, "cannot map '%s': %s", path, strerror(e));
  }
  *map = p;
  *len = (size_t)st.st_size;
  *fdp = fd; /* kept for copy_file_range while the model lives */
  return 0;
}

static int within(const void *base, size_t len, const uint8_t *q, size_t n) {
  const uint8_t *b = base;
  return b && q >= b && n <= len && q - b <= (ptrdiff_t)(len - n);
}

void onnxslim__unmap(void *map, size_t len) {
  if (map) munmap(map, len);
}

/* How far before a released range we also release: the kernel maps pages
 * around a faulting address ("fault-around", 64 KiB by default), so reading
 * the start of a chunk maps again the end of the chunk released before it. */
#define OSL_RELEASE_SLACK (64u * 1024u)

void onnxslim__release(const onnxslim_model *model, const void *p, size_t n) {
  const uint8_t *q = p, *base = NULL;
  if (within(model->map, model->maplen, q, n)) base = model->map;
  for (size_t i = 0; !base && i < model->next; i++)
    if (within(model->ext[i].map, model->ext[i].size, q, n)) base = model->ext[i].map;
  if (!base) return;
  /* round outward and reach back: the mappings are read-only and private,
   * so a dropped page that still holds bytes someone needs is read again */
  const uint8_t *start = (size_t)(q - base) > OSL_RELEASE_SLACK ? q - OSL_RELEASE_SLACK : base;
  uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
  uintptr_t a = (uintptr_t)start & ~(page - 1);
  uintptr_t e = ((uintptr_t)q + n + page - 1) & ~(page - 1);
  if (e > a) madvise((void *)a, e - a, MADV_DONTNEED);
}

/* ---- buffered file sink ------------------------------------------------ */

#define OSL_SINK_BUF (1u << 20)
#define OSL_SINK_CHUNK (8u << 20)

struct osl_out {
  osl_sink base;
  int fd;
  char *path; /* final path */
  char *tmp;  /* temporary file, until committed */
  char *dir;
  uint8_t *buf;
  size_t len;
  uint64_t pos; /* bytes written (including buffered) */
  uint64_t copied; /* bytes of pos copied in the kernel (copy_file_range) */
  const onnxslim_model *model; /* mapped source pages written out are released */
};

static int write_all(osl_out *o, const uint8_t *p, size_t n) {
  while (n) {
    ssize_t w = write(o->fd, p, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      int e = errno;
      if (e == ENOSPC || e == EFBIG || e == EDQUOT)
        return onnxslim__err(ONNXSLIM_ENOSPC, "cannot write '%s': %s", o->path, strerror(e));
      return onnxslim__err(ONNXSLIM_EIO, "cannot write '%s': %s", o->path, strerror(e));
    }
    p += w;
    n -= (size_t)w;
  }
  return 0;
}

static int flush(osl_out *o) {
  int rc = write_all(o, o->buf, o->len);
  o->len = 0;
  return rc;
}

/* The file and offset behind mapped bytes [p, p+n) of the model, if any. */
static int source_of(const onnxslim_model *m, const uint8_t *p, size_t n, int *fd, off_t *off) {
  if (!m) return 0;
  if (m->fd >= 0 && within(m->map, m->maplen, p, n)) {
    *fd = m->fd;
    *off = (off_t)(p - (const uint8_t *)m->map);
    return 1;
  }
  for (size_t i = 0; i < m->next; i++)
    if (m->ext[i].fd >= 0 && within(m->ext[i].map, m->ext[i].size, p, n)) {
      *fd = m->ext[i].fd;
      *off = (off_t)(p - (const uint8_t *)m->ext[i].map);
      return 1;
    }
  return 0;
}

/* Copies n bytes of file fd at off to the output in the kernel; returns
 * the number of bytes copied (0 when the kernel cannot do it here). */
static size_t kernel_copy(osl_out *o, int fd, off_t off, size_t n) {
  size_t done = 0;
  while (done < n) {
    loff_t in = (loff_t)off + (loff_t)done;
    ssize_t c = copy_file_range(fd, &in, o->fd, NULL, n - done, 0);
    if (c <= 0) break;
    done += (size_t)c;
  }
  return done;
}

static int out_write(osl_sink *sink, const uint8_t *p, size_t n) {
  osl_out *o = (osl_out *)sink;
  o->pos += n;
  int sfd;
  off_t soff;
  if (n >= OSL_SINK_BUF && source_of(o->model, p, n, &sfd, &soff)) {
    /* bytes that pass through unchanged: copied by the kernel */
    int rc = flush(o);
    if (rc) return rc;
    size_t done = kernel_copy(o, sfd, soff, n);
    o->copied += done;
    p += done;
    n -= done;
    if (!n) return 0;
  }
  if (n <= OSL_SINK_BUF - o->len) {
    memcpy(o->buf + o->len, p, n);
    o->len += n;
    return 0;
  }
  int rc = flush(o);
  if (rc) return rc;
  if (n < OSL_SINK_BUF) {
    memcpy(o->buf, p, n);
    o->len = n;
    return 0;
  }
  while (n) {
    size_t c = n < OSL_SINK_CHUNK ? n : OSL_SINK_CHUNK;
    rc = write_all(o, p, c);
    if (rc) return rc;
    if (o->model) onnxslim__release(o->model, p, c);
    p += c;
    n -= c;
  }
  return 0;
}

/* ---- side files: temporaries next to a destination ----------------------
 * Every file a save creates besides its outputs is named after the
 * destination D (its file name, cut to OSL_SIDE_BASE_MAX bytes) in D's
 * directory, hidden, with the owner's process and thread id:
 *   .D.tmp-PID-TID-XXXXXX      an output being written
 *   .D.bak-PID-TID-N           a file kept aside until a commit
 *   .D.journal-PID-TID-XXXXXX  what a pair commit adds and removes
 * A .tmp and a .journal are flock'ed by their owner while it lives. A side
 * file is stale when its owner thread is gone (or, same thread, not
 * locked) and no one holds a lock on it: a later save to D removes it. */

#define OSL_SIDE_BASE_MAX 200

static long my_tid(void) { return (long)syscall(SYS_gettid); }

/* "DIR/.D.KIND-PID-TID-" for path DIR/D (malloc'ed, room for 24 more bytes). */
static char *side_prefix(const char *path, const char *kind) {
  const char *slash = strrchr(path, '/');
  const char *base = slash ? slash + 1 : path;
  size_t dirlen = (size_t)(base - path), blen = strlen(base);
  if (blen > OSL_SIDE_BASE_MAX) blen = OSL_SIDE_BASE_MAX;
  char *p = malloc(dirlen + blen + strlen(kind) + 80);
  if (p)
    sprintf(p, "%.*s.%.*s.%s-%ld-%ld-", (int)dirlen, path, (int)blen, base, kind, (long)getpid(),
            my_tid());
  return p;
}

int onnxslim__side_create(const char *path, const char *kind, char **name) {
  *name = side_prefix(path, kind);
  if (!*name) return onnxslim__err(ONNXSLIM_ENOMEM, "out of memory");
  strcat(*name, "XXXXXX");
  int fd = mkostemp(*name, O_CLOEXEC);
  if (fd < 0) {
    int e = errno;
    const char *slash = strrchr(path, '/');
    int rc = onnxslim__err(ONNXSLIM_EIO, "cannot create a temporary file in '%.*s': %s",
                           slash ? (int)(slash == path ? 1 : slash - path) : 1,
                           slash ? path : ".", strerror(e));
    free(*name);
    *name = NULL;
    return rc;
  }
  flock(fd, LOCK_EX | LOCK_NB); /* marks it live; new, so never contended */
  return fd;
}

char *onnxslim__side_link(const char *file, const char *path) {
  char *pre = side_prefix(path, "bak");
  if (!pre) {
    onnxslim__err(ONNXSLIM_ENOMEM, "out of memory");
    return NULL;
  }
  size_t plen = strlen(pre);
  for (unsigned n = 0; n < 1000; n++) {
    sprintf(pre + plen, "%u", n);
    if (link(file, pre) == 0) return pre;
    if (errno != EEXIST) break;
  }
  onnxslim__err(ONNXSLIM_EIO, "cannot keep a backup of '%s': %s", file, strerror(errno));
  free(pre);
  return NULL;
}

/* 1 when the thread tid of process pid exists (or may: not ours to signal). */
static int thread_alive(long pid, long tid) {
  if (pid <= 0 || tid <= 0) return 0;
  if (syscall(SYS_tgkill, (pid_t)pid, (pid_t)tid, 0) == 0) return 1;
  return errno == EPERM;
}

/* Parses "PID-TID-" at s; returns the end or NULL. */
static const char *parse_owner(const char *s, long *pid, long *tid) {
  char *e;
  if (*s < '0' || *s > '9') return NULL;
  *pid = strtol(s, &e, 10);
  if (*e != '-' || e[1] < '0' || e[1] > '9') return NULL;
  *tid = strtol(e + 1, &e, 10);
  return *e == '-' ? e + 1 : NULL;
}

int onnxslim__side_stale(const char *dir, const char *const *bases, size_t nbases,
                         const char *kind, int (*fn)(void *ctx, const char *path), void *ctx) {
  DIR *d = opendir(dir);
  if (!d) return 0;
  size_t klen = strlen(kind), dlen = strlen(dir);
  int rc = 0;
  struct dirent *e;
  while (!rc && (e = readdir(d))) {
    const char *n = e->d_name;
    if (n[0] != '.') continue;
    /* ".D.KIND-PID-TID-..." for one of the bases */
    const char *hit = NULL;
    for (size_t i = 0; i < nbases && !hit; i++) {
      const char *b = strrchr(bases[i], '/');
      b = b ? b + 1 : bases[i];
      size_t blen = strlen(b);
      if (blen > OSL_SIDE_BASE_MAX) blen = OSL_SIDE_BASE_MAX;
      if (strncmp(n + 1, b, blen) == 0 && n[1 + blen] == '.' &&
          strncmp(n + 2 + blen, kind, klen) == 0 && n[2 + blen + klen] == '-')
        hit = n + 3 + blen + klen;
    }
    long pid, tid;
    if (!hit || !parse_owner(hit, &pid, &tid)) continue;
    if (!(pid == getpid() && tid == my_tid()) && thread_alive(pid, tid)) continue;
    char *full = malloc(dlen + strlen(n) + 2);
    if (!full) {
      rc = onnxslim__err(ONNXSLIM_ENOMEM, "out of memory");
      break;
    }
    sprintf(full, "%s/%s", dir, n);
    /* the owner's lock: a live owner this process cannot see (another pid
     * namespace), or a live output of this very thread */
    int fd = open(full, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
        flock(fd, LOCK_EX | LOCK_NB) == 0)
      rc = fn(ctx, full);
    if (fd >= 0) close(fd);
    free(full);
  }
  closedir(d);
  return rc;
}

static int unlink_fn(void *ctx, const char *path) {
  (void)ctx;
  unlink(path);
  return 0;
}

void onnxslim__side_clean(const char *dir, const char *const *bases, size_t nbases,
                          const char *kind) {
  onnxslim__side_stale(dir, bases, nbases, kind, unlink_fn, NULL);
}

/* ---- the commit lock of a destination ------------------------------------
 * ".D.lock" next to D, flock'ed. The holder removes it before it lets go,
 * so a waiter that gets the lock checks that the name still is the file it
 * locked, and else tries again. A lock that cannot be had (a read-only
 * directory, a file system without flock) is no lock: the save goes on and
 * fails, if it must, where it writes. */

struct osl_lock {
  int fd;
  char *name;
};

osl_lock *onnxslim__dest_lock(const char *path) {
  osl_lock *l = calloc(1, sizeof *l);
  char *pre = side_prefix(path, "lock");
  if (!l || !pre) {
    free(l);
    free(pre);
    onnxslim__err(ONNXSLIM_ENOMEM, "out of memory");
    return NULL;
  }
  /* ".D.lock-PID-TID-" -> ".D.lock" */
  char *dash = strrchr(pre, '.');
  dash = strchr(dash, '-');
  *dash = '\0';
  l->name = pre;
  l->fd = -1;
  for (int tries = 0; tries < 10000; tries++) {
    int fd = open(pre, O_RDONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd < 0) return l;
    int r;
    while ((r = flock(fd, LOCK_EX)) != 0 && errno == EINTR) {
    }
    if (r != 0) {
      close(fd);
      return l;
    }
    struct stat a, b;
    if (fstat(fd, &a) == 0 && stat(pre, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino) {
      l->fd = fd;
      return l;
    }
    close(fd); /* removed by the holder we waited for */
  }
  return l;
}

void onnxslim__dest_unlock(osl_lock *l) {
  if (!l) return;
  if (l->fd >= 0) {
    unlink(l->name);
    close(l->fd);
  }
  free(l->name);
  free(l);
}

/* ---- atomic replacement ------------------------------------------------ */

static mode_t default_mode(void) {
  /* 0666 minus the umask, read without changing it */
  mode_t mode = 0644;
  FILE *f = fopen("/proc/self/status", "re");
  if (!f) return mode;
  char line[256];
  while (fgets(line, sizeof line, f)) {
    unsigned int um;
    if (sscanf(line, "Umask: %o", &um) == 1) {
      mode = (mode_t)(0666 & ~um);
      break;
    }
  }
  fclose(f);
  return mode;
}

static int check_space(const char *path, const char *dir, uint64_t size) {
  struct rlimit rl;
  if (getrlimit(RLIMIT_FSIZE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
      size > (uint64_t)rl.rlim_cur)
    return onnxslim__err(ONNXSLIM_ENOSPC,
                         "cannot write '%s': %llu bytes exceed the file size limit of %llu bytes",
                         path, (unsigned long long)size, (unsigned long long)rl.rlim_cur);
  struct statvfs vfs;
  if (statvfs(dir, &vfs) == 0) {
    uint64_t blocks = geteuid() == 0 ? (uint64_t)vfs.f_bfree : (uint64_t)vfs.f_bavail;
    uint64_t freeb = blocks * (uint64_t)vfs.f_frsize;
    if (vfs.f_frsize && blocks < UINT64_MAX / vfs.f_frsize && size > freeb)
      return onnxslim__err(ONNXSLIM_ENOSPC,
                           "cannot write '%s': %llu bytes needed, %llu bytes free on the device",
                           path, (unsigned long long)size, (unsigned long long)freeb);
  }
  return 0;
}

osl_out *onnxslim__out_open(const char *path, uint64_t size, const onnxslim_model *model) {
  size_t plen = strlen(path);
  if (plen == 0 || path[plen - 1] == '/') {
    onnxslim__err(ONNXSLIM_EINVAL, "invalid output path '%s'", path);
    return NULL;
  }
  struct stat dst;
  if (stat(path, &dst) == 0 && S_ISDIR(dst.st_mode)) {
    /* before any byte is written, not at the final rename */
    onnxslim__err(ONNXSLIM_EIO, "cannot save to '%s': it is a directory", path);
    return NULL;
  }
  osl_out *o = calloc(1, sizeof *o);
  if (!o) {
    onnxslim__err(ONNXSLIM_ENOMEM, "out of memory");
    return NULL;
  }
  o->fd = -1;
  o->model = model;
  o->base.write = out_write;
  const char *slash = strrchr(path, '/');
  o->dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
  o->path = strdup(path);
  o->buf = malloc(OSL_SINK_BUF);
  if (!o->dir || !o->path || !o->buf) {
    onnxslim__err(ONNXSLIM_ENOMEM, "out of memory");
    goto fail;
  }
  if (check_space(path, o->dir, size)) goto fail;
  o->fd = onnxslim__side_create(path, "tmp", &o->tmp);
  if (o->fd < 0) goto fail;
  struct stat st;
  mode_t mode = stat(path, &st) == 0 ? (st.st_mode & 07777) : default_mode();
  if (fchmod(o->fd, mode) != 0) {
    onnxslim__err(ONNXSLIM_EIO, "cannot set the mode of '%s': %s", o->tmp, strerror(errno));
    goto fail;
  }
  return o;
fail:
  onnxslim__out_abort(o);
  return NULL;
}

osl_sink *onnxslim__out_sink(osl_out *o) { return &o->base; }

uint64_t onnxslim__out_pos(const osl_out *o) { return o->pos; }

uint64_t onnxslim__out_copied(const osl_out *o) { return o->copied; }

const char *onnxslim__out_path(const osl_out *o) { return o->path; }

int onnxslim__out_finish(osl_out *o, int fsync_data) {
  int rc = flush(o);
  if (rc) return rc;
  if (fsync_data && fsync(o->fd) != 0)
    return onnxslim__err(errno == ENOSPC ? ONNXSLIM_ENOSPC : ONNXSLIM_EIO, "cannot sync '%s': %s",
                         o->tmp, strerror(errno));
  /* the descriptor stays open, and the temporary file locked, until the
   * commit: its lock says its owner lives */
  return 0;
}

int onnxslim__out_identity(const osl_out *o, dev_t *dev, ino_t *ino) {
  struct stat st;
  if (o->fd < 0 || fstat(o->fd, &st) != 0)
    return onnxslim__err(ONNXSLIM_EIO, "cannot stat '%s': %s", o->tmp, strerror(errno));
  *dev = st.st_dev;
  *ino = st.st_ino;
  return 0;
}

static void sync_dir(const char *dir) {
  int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    fsync(dfd);
    close(dfd);
  }
}

int onnxslim__out_sync_dir(const osl_out *o) {
  sync_dir(o->dir);
  return 0;
}

/* rename() that fails with EEXIST instead of replacing a file: renameat2
 * with RENAME_NOREPLACE, else (file systems without it) link and unlink,
 * else a check before the rename. */
static int rename_noreplace(const char *from, const char *to) {
  if (renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE) == 0) return 0;
  if (errno != EINVAL && errno != ENOSYS && errno != EOPNOTSUPP) return -1;
  if (link(from, to) == 0) {
    unlink(from);
    return 0;
  }
  if (errno == EEXIST) return -1;
  struct stat st;
  if (lstat(to, &st) == 0) {
    errno = EEXIST;
    return -1;
  }
  return rename(from, to);
}

int onnxslim__out_commit_to(osl_out *o, const char *path, int fsync_dir) {
  if (path != o->path) {
    char *p = strdup(path);
    if (!p) return onnxslim__err(ONNXSLIM_ENOMEM, "out of memory");
    free(o->path);
    o->path = p;
  }
  if (rename(o->tmp, o->path) != 0)
    return onnxslim__err(ONNXSLIM_EIO, "cannot rename '%s' to '%s': %s", o->tmp, o->path,
                         strerror(errno));
  o->tmp[0] = '\0';
  /* write and fsync errors were reported; with NO_FSYNC a late error is
   * the risk asked for */
  close(o->fd);
  o->fd = -1;
  if (fsync_dir) sync_dir(o->dir);
  return 0;
}

int onnxslim__out_claim(osl_out *o, const char *path) {
  if (rename_noreplace(o->tmp, path) != 0) {
    if (errno == EEXIST) return 1;
    return onnxslim__err(ONNXSLIM_EIO, "cannot rename '%s' to '%s': %s", o->tmp, path,
                         strerror(errno));
  }
  /* in place: the same as a commit */
  char *p = strdup(path);
  if (p) {
    free(o->path);
    o->path = p;
  }
  o->tmp[0] = '\0';
  close(o->fd);
  o->fd = -1;
  return 0;
}

int onnxslim__out_commit(osl_out *o, int fsync_dir) {
  return onnxslim__out_commit_to(o, o->path, fsync_dir);
}

void onnxslim__out_abort(osl_out *o) {
  if (!o) return;
  if (o->fd >= 0) close(o->fd);
  if (o->tmp && o->tmp[0]) unlink(o->tmp);
  free(o->buf);
  free(o->tmp);
  free(o->path);
  free(o->dir);
  free(o);
}

int onnxslim__atomic_write(const char *path, uint64_t size, int fsync_data,
                           int (*write_fn)(osl_sink *sink, void *payload), void *payload,
                           const onnxslim_model *model) {
  /* temporaries of earlier saves to path whose owner is gone */
  const char *slash = strrchr(path, '/');
  char *dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
  if (!dir) return onnxslim__err(ONNXSLIM_ENOMEM, "out of memory");
  onnxslim__side_clean(dir, &path, 1, "tmp");
  free(dir);
  osl_out *o = onnxslim__out_open(path, size, model);
  if (!o) return onnxslim_error_last_code();
  int rc = write_fn(&o->base, payload);
  if (!rc) rc = onnxslim__out_finish(o, fsync_data);
  if (!rc) rc = onnxslim__out_commit(o, fsync_data);
  onnxslim__out_abort(o);
  return rc;
}
