/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - file I/O: read-only mappings of model files and atomic
 * replacement of output files (temporary file + fsync + rename).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"

const char *onnxslim__file_kind(int kind) {
  switch (kind) {
  case OSL_KIND_REG: return "a regular file";
  case OSL_KIND_DIR: return "a directory";
  case OSL_KIND_FIFO: return "a FIFO";
  case OSL_KIND_CHR: return "a character device";
  case OSL_KIND_BLK: return "a block device";
  case OSL_KIND_SOCK: return "a socket";
  case OSL_KIND_LNK: return "a symlink";
  default: return "of an unknown kind";
  }
}

int onnxslim__map_file(const char *path, void **map, size_t *len, int *fdp) {
  *map = NULL;
  *len = 0;
  *fdp = -1;
  /* non-blocking: opening a FIFO for reading would wait for a writer */
  int fd = onnxslim__os_open(path, OSL_O_RDONLY | OSL_O_NONBLOCK, 0);
  if (fd < 0) return onnxslim__err(ONNXSLIM_EIO, "cannot open '%s': %s", path, strerror(errno));
  osl_os_stat st;
  if (onnxslim__os_fstat(fd, &st) != 0) {
    int e = errno;
    onnxslim__os_close(fd);
    return onnxslim__err(ONNXSLIM_EIO, "cannot stat '%s': %s", path, strerror(e));
  }
  if (st.kind != OSL_KIND_REG) {
    onnxslim__os_close(fd);
    return onnxslim__err(ONNXSLIM_EIO, "'%s' is not a regular file: it is %s", path,
                         onnxslim__file_kind(st.kind));
  }
  if ((uint64_t)st.size > (uint64_t)SIZE_MAX) {
    onnxslim__os_close(fd);
    return onnxslim__err(ONNXSLIM_ELIMIT, "'%s' is too large to map", path);
  }
  if (st.size == 0) {
    onnxslim__os_close(fd);
    return 0;
  }
  void *p = onnxslim__os_map_read(fd, (size_t)st.size);
  int e = errno;
  if (!p) {
    onnxslim__os_close(fd);
    return onnxslim__err(ONNXSLIM_EIO, "cannot map '%s': %s", path, strerror(e));
  }
  *map = p;
  *len = (size_t)st.size;
  *fdp = fd; /* kept for kernel copies while the model lives */
  return 0;
}

int onnxslim__read_at(int fd, int64_t off, void *dst, size_t n) {
  uint8_t *d = dst;
  while (n) {
    ptrdiff_t got = onnxslim__os_pread(fd, d, n, (int64_t)off);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) {
      if (got == 0) errno = EIO;
      return -1;
    }
    d += got;
    off += got;
    n -= (size_t)got;
  }
  return 0;
}

/* ---- opening beneath a directory --------------------------------------- */

int onnxslim__open_beneath(int dirfd, const char *rel, int flags) {
  return onnxslim__os_open_beneath(dirfd, rel, flags);
}

void onnxslim__unmap(void *map, size_t len) { onnxslim__os_unmap(map, len); }

/* Releasing mapped pages pays only in large runs: each madvise() costs a
 * system call and a TLB flush, and the page cache maps files in large
 * folios anyway (docs/design.md, DESIGN-NOTES 8). So released ranges are
 * gathered into one run per mapping while they follow one another (gaps
 * and small steps back of up to OSL_RELEASE_GAP included); the run is
 * handed back whenever it reaches OSL_RELEASE_BATCH, and when a range far
 * from it starts a new run, if it has reached OSL_RELEASE_MIN. Streaming a
 * large tensor thus keeps at most a batch or two mapped, and a small model
 * makes no call at all. */
#define OSL_RELEASE_BATCH (8u << 20)
#define OSL_RELEASE_MIN (1u << 20)
#define OSL_RELEASE_GAP (1u << 20)
/* How far back a handed-back run reaches: the kernel maps pages around a
 * faulting address ("fault-around", 64 KiB by default), so reading on from
 * the end of a run maps again the end of the run released before it. */
#define OSL_RELEASE_SLACK (64u * 1024u)

static void hand_back(const uint8_t *lo, const uint8_t *hi) {
  /* round outward: the mappings are read-only and private, so a dropped
   * page that still holds bytes someone needs is read again */
  uintptr_t page = (uintptr_t)onnxslim__os_page_size();
  uintptr_t a = (uintptr_t)lo & ~(page - 1);
  uintptr_t e = ((uintptr_t)hi + page - 1) & ~(page - 1);
  if (e > a) onnxslim__os_drop_pages((void *)a, e - a);
}

void onnxslim__run_release(osl_run *r, const void *map, const void *p, size_t n) {
  const uint8_t *q = p, *base = map;
  const uint8_t *lo = (size_t)(q - base) > OSL_RELEASE_SLACK ? q - OSL_RELEASE_SLACK : base;
  if (r->hi && q <= r->hi + OSL_RELEASE_GAP && r->lo <= q + n + OSL_RELEASE_GAP) {
    if (lo < r->lo) r->lo = lo;
    if (q + n > r->hi) r->hi = q + n;
  } else {
    if (r->hi && (size_t)(r->hi - r->lo) >= OSL_RELEASE_MIN) hand_back(r->lo, r->hi);
    r->lo = lo;
    r->hi = q + n;
  }
  if ((size_t)(r->hi - r->lo) >= OSL_RELEASE_BATCH) {
    hand_back(r->lo, r->hi);
    r->lo = (size_t)(r->hi - base) > OSL_RELEASE_SLACK ? r->hi - OSL_RELEASE_SLACK : base;
  }
}

/* ---- buffered file sink ------------------------------------------------ */

#define OSL_SINK_BUF (1u << 20)
#define OSL_SINK_CHUNK (8u << 20)
#define OSL_SINK_WIN (64u << 10)

struct osl_out {
  osl_sink base;
  int fd;
  char *path;    /* final path (as the caller spelled it, for messages) */
  char *tmp;     /* temporary file, until committed (likewise) */
  char *dir;     /* their directory (likewise) */
  int dfd;       /* the directory both live in: every operation is relative to it */
  char *name;    /* final name in dfd */
  char *tmpname; /* temporary name in dfd (a side file, locked by fd), "" once
                  * committed, NULL if never made */
  uint8_t *buf;
  size_t len;
  uint64_t pos;           /* bytes written (including buffered) */
  uint64_t copied;        /* bytes of pos copied in the kernel (onnxslim__os_copy_range) */
  osl_source src;         /* where written bytes may come from: kernel copies, pages released */
  osl_os_copier copier;   /* how kernel copies are made into fd */
  osl_progress *progress; /* told of the bytes written, or NULL */
  uint8_t *win;           /* read-ahead window over a source file (read_through) */
  int win_fd;             /* its file, -1: empty */
  int64_t win_off;
  size_t win_len;
  uint64_t written; /* bytes in the file (written or copied) */
  uint64_t kicked;  /* bytes whose writeback has been started */
};

/* Writeback of what is written is started in steps of OSL_KICK_STEP
 * (sync_file_range, asynchronous), so the disk writes while the save goes
 * on and the final fsync waits only for the last step: the same overlap
 * of copying and writing back that `cp` and a later `sync` get from the
 * kernel (docs/design.md, "Output"). */
#define OSL_KICK_STEP (16u << 20)

static void kick(osl_out *o) {
  if (o->written - o->kicked < OSL_KICK_STEP) return;
  onnxslim__os_writeback_start(o->fd, o->kicked, o->written - o->kicked);
  o->kicked = o->written;
}

static int write_all(osl_out *o, const uint8_t *p, size_t n) {
  while (n) {
    ptrdiff_t w = onnxslim__os_write(o->fd, p, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      int e = errno;
      if (e == ENOSPC || e == EFBIG
#ifdef EDQUOT
          || e == EDQUOT
#endif
      )
        return onnxslim__err(ONNXSLIM_ENOSPC, "cannot write '%s': %s", o->path, strerror(e));
      return onnxslim__err(ONNXSLIM_EIO, "cannot write '%s': %s", o->path, strerror(e));
    }
    p += w;
    n -= (size_t)w;
    o->written += (uint64_t)w;
  }
  kick(o);
  return 0;
}

static int flush(osl_out *o) {
  int rc = write_all(o, o->buf, o->len);
  o->len = 0;
  return rc;
}

/* Bytes per kernel copy call when a progress meter watches (at least:
 * the meter's step when it is larger); without one, a copy is one call. */
#define OSL_COPY_CHUNK (8u << 20)

/* Copies n bytes of file fd at off to the output in the kernel; *copied
 * receives the number of bytes copied (less than n when the kernel cannot
 * do it here). 0 or ONNXSLIM_ECANCELED (the progress meter). */
static int kernel_copy(osl_out *o, int fd, int64_t off, size_t n, size_t *copied) {
  size_t done = 0;
  int rc = 0;
  while (done < n && !rc) {
    size_t want = n - done;
    if (o->progress && o->progress->fn) {
      uint64_t chunk = o->progress->step > OSL_COPY_CHUNK ? o->progress->step : OSL_COPY_CHUNK;
      if (want > chunk) want = (size_t)chunk;
    }
    size_t c = onnxslim__os_copy_range(&o->copier, fd, (int64_t)off + (int64_t)done, o->fd, want);
    if (!c) break;
    done += c;
    o->written += (uint64_t)c;
    kick(o);
    rc = onnxslim__progress_add(o->progress, (uint64_t)c);
  }
  *copied = done;
  return rc;
}

/* Bytes [soff, soff+n) of file sfd into the buffer, by pread: bytes of a
 * mapped file written to an output (too few for a kernel copy, or what the
 * kernel would not copy) are read from the file, never through the
 * mapping, so writing them maps no page (docs/design.md, "Memory"). Small
 * pieces (the framing of messages spliced unchanged, small tensors) come
 * through a read-ahead window, so writing many of them in file order
 * costs one pread per OSL_SINK_WIN bytes, not one each. */
static int read_through(osl_out *o, int sfd, int64_t soff, size_t n) {
  while (n) {
    if (o->len == OSL_SINK_BUF) {
      int rc = flush(o);
      if (rc) return rc;
    }
    size_t k = OSL_SINK_BUF - o->len < n ? OSL_SINK_BUF - o->len : n;
    int bad = 0;
    if (k < OSL_SINK_WIN / 4) {
      if (!(o->win_fd == sfd && soff >= o->win_off &&
            (uint64_t)(soff - o->win_off) + k <= o->win_len)) {
        ptrdiff_t got;
        while ((got = onnxslim__os_pread(sfd, o->win, OSL_SINK_WIN, (int64_t)soff)) < 0 &&
               errno == EINTR) {}
        o->win_fd = -1;
        if (got >= 0 && (size_t)got >= k) {
          o->win_fd = sfd;
          o->win_off = soff;
          o->win_len = (size_t)got;
        } else {
          if (got >= 0) errno = EIO;
          bad = 1;
        }
      }
      if (!bad) memcpy(o->buf + o->len, o->win + (soff - o->win_off), k);
    } else {
      bad = onnxslim__read_at(sfd, soff, o->buf + o->len, k) != 0;
    }
    if (bad)
      return onnxslim__err(ONNXSLIM_EIO, "cannot write '%s': reading its source failed: %s",
                           o->path, errno == EIO ? "the file got shorter" : strerror(errno));
    o->len += k;
    soff += (int64_t)k;
    n -= k;
    int rc = onnxslim__progress_add(o->progress, k);
    if (rc) return rc;
  }
  return 0;
}

static int out_write(osl_sink *sink, const uint8_t *p, size_t n) {
  osl_out *o = (osl_out *)sink;
  o->pos += n;
  int sfd;
  int64_t soff;
  if (o->src.locate && o->src.locate(o->src.owner, p, n, &sfd, &soff)) {
    if (n >= OSL_SINK_BUF) {
      /* bytes that pass through unchanged: copied by the kernel */
      int rc = flush(o);
      if (rc) return rc;
      size_t done;
      rc = kernel_copy(o, sfd, (int64_t)soff, n, &done);
      o->copied += done;
      if (rc) return rc;
      soff += (int64_t)done;
      n -= done;
    }
    return read_through(o, sfd, soff, n);
  }
  if (n <= OSL_SINK_BUF - o->len) {
    memcpy(o->buf + o->len, p, n);
    o->len += n;
    return onnxslim__progress_add(o->progress, n);
  }
  int rc = flush(o);
  if (rc) return rc;
  if (n < OSL_SINK_BUF) {
    memcpy(o->buf, p, n);
    o->len = n;
    return onnxslim__progress_add(o->progress, n);
  }
  while (n) {
    size_t c = n < OSL_SINK_CHUNK ? n : OSL_SINK_CHUNK;
    rc = write_all(o, p, c);
    if (!rc) rc = onnxslim__progress_add(o->progress, c);
    if (rc) return rc;
    if (o->src.release) o->src.release(o->src.owner, p, c);
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
 *   .D.lock                    the commit lock of D (below)
 * All of them are made, renamed and removed relative to a descriptor of
 * D's directory, never through a symlink (openat with O_EXCL|O_NOFOLLOW,
 * linkat, renameat, unlinkat). A .tmp and a .journal are flock'ed by their
 * owner while it lives. A side file is stale when its owner thread is gone
 * (or, same thread, not locked) and no one holds a lock on it: a later save
 * to D removes it. So is a temporary in the format of builds before 0.1.0,
 * ".D.tmp-XXXXXX" (no owner's ids; its writers took no lock), that no one
 * holds a lock on. */

#define OSL_SIDE_BASE_MAX 200

static long my_tid(void) { return onnxslim__os_tid(); }

/* The name of side file KIND of D (a file name): ".D.KIND-PID-TID-" with
 * room for 24 more bytes, or without an owner ".D.KIND"; malloc'ed. */
static char *side_name(const char *name, const char *kind, int owner) {
  size_t blen = strlen(name);
  if (blen > OSL_SIDE_BASE_MAX) blen = OSL_SIDE_BASE_MAX;
  char *p = malloc(blen + strlen(kind) + 80);
  if (!p) return NULL;
  if (owner) sprintf(p, ".%.*s.%s-%ld-%ld-", (int)blen, name, kind, onnxslim__os_pid(), my_tid());
  else sprintf(p, ".%.*s.%s", (int)blen, name, kind);
  return p;
}

int onnxslim__side_create(int dfd, const char *dir, const char *name, const char *kind,
                          char **sname) {
  static const char digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  *sname = side_name(name, kind, 1);
  if (!*sname) return onnxslim__err_nomem(NULL);
  size_t plen = strlen(*sname);
  for (int tries = 0; tries < 100; tries++) {
    unsigned char r[6];
    if (onnxslim__os_random(r, sizeof r) != 0) {
      uint64_t v = onnxslim__os_clock_ns() * 2654435761u ^ (uint64_t)tries << 40;
      for (int i = 0; i < 6; i++) r[i] = (unsigned char)(v >> (8 * i));
    }
    for (int i = 0; i < 6; i++) (*sname)[plen + (size_t)i] = digits[r[i] % (sizeof digits - 1)];
    (*sname)[plen + 6] = '\0';
    int fd = onnxslim__os_openat(dfd, *sname,
                                 OSL_O_RDWR | OSL_O_CREAT | OSL_O_EXCL | OSL_O_NOFOLLOW, 0600);
    if (fd >= 0) {
      onnxslim__os_lock(fd, 0); /* marks it live; new, so never contended */
      return fd;
    }
    if (errno != EEXIST) break;
  }
  int e = errno;
  free(*sname);
  *sname = NULL;
  return onnxslim__err(ONNXSLIM_EIO, "cannot create a temporary file in '%s': %s", dir,
                       strerror(e));
}

char *onnxslim__side_link(int dfd, const char *dir, const char *name) {
  char *bak = side_name(name, "bak", 1);
  if (!bak) {
    onnxslim__err_nomem(NULL);
    return NULL;
  }
  size_t plen = strlen(bak);
  for (unsigned n = 0; n < 1000; n++) {
    sprintf(bak + plen, "%u", n);
    if (onnxslim__os_link(dfd, name, bak) == 0) return bak;
    if (errno != EEXIST) break;
  }
  onnxslim__err(ONNXSLIM_EIO, "cannot keep a backup of '%s/%s': %s", dir, name, strerror(errno));
  free(bak);
  return NULL;
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

/* 1 if s is six ASCII letters or digits and nothing more. */
static int old_tmp_suffix(const char *s) {
  size_t n = 0;
  for (; s[n]; n++)
    if (!((s[n] >= 'a' && s[n] <= 'z') || (s[n] >= 'A' && s[n] <= 'Z') ||
          (s[n] >= '0' && s[n] <= '9')))
      return 0;
  return n == 6;
}

int onnxslim__side_stale(int dfd, const char *const *bases, size_t nbases, const char *kind,
                         int (*fn)(void *ctx, int dfd, const char *name), void *ctx) {
  osl_os_dir *d = onnxslim__os_dir_open(dfd);
  if (!d) return 0;
  size_t klen = strlen(kind);
  int rc = 0;
  const char *n;
  while (!rc && (n = onnxslim__os_dir_next(d))) {
    if (n[0] != '.') continue;
    /* ".D.KIND-PID-TID-..." for one of the bases */
    const char *hit = NULL;
    for (size_t i = 0; i < nbases && !hit; i++) {
      size_t blen = strlen(bases[i]);
      if (blen > OSL_SIDE_BASE_MAX) blen = OSL_SIDE_BASE_MAX;
      if (strncmp(n + 1, bases[i], blen) == 0 && n[1 + blen] == '.' &&
          strncmp(n + 2 + blen, kind, klen) == 0 && n[2 + blen + klen] == '-')
        hit = n + 3 + blen + klen;
    }
    long pid, tid;
    if (!hit) continue;
    if (!parse_owner(hit, &pid, &tid)) {
      /* ".D.tmp-XXXXXX" (six letters or digits, mkostemp's): the format
       * before the owner's ids (builds before 0.1.0); no owner to ask, and
       * those owners took no lock: unlocked, it is stale */
      if (strcmp(kind, "tmp") != 0 || !old_tmp_suffix(hit)) continue;
    } else if (!(pid == onnxslim__os_pid() && tid == my_tid()) &&
               onnxslim__os_thread_alive(pid, tid)) {
      continue;
    }
    /* the owner's lock: a live owner this process cannot see (another pid
     * namespace), or a live output of this very thread */
    int fd = onnxslim__os_openat(dfd, n, OSL_O_RDONLY | OSL_O_NOFOLLOW | OSL_O_NONBLOCK, 0);
    osl_os_stat st, now;
    if (fd >= 0 && onnxslim__os_fstat(fd, &st) == 0 && st.kind == OSL_KIND_REG &&
        onnxslim__os_lock(fd, 0) == 0 && onnxslim__os_statat(dfd, n, 1, &now) == 0 &&
        now.dev == st.dev && now.ino == st.ino)
      rc = fn(ctx, dfd, n);
    if (fd >= 0) onnxslim__os_close(fd);
  }
  onnxslim__os_dir_close(d);
  return rc;
}

static int unlink_fn(void *ctx, int dfd, const char *name) {
  (void)ctx;
  onnxslim__os_unlink(dfd, name);
  return 0;
}

void onnxslim__side_clean(int dfd, const char *const *bases, size_t nbases, const char *kind) {
  onnxslim__side_stale(dfd, bases, nbases, kind, unlink_fn, NULL);
}

/* ---- the commit lock of a destination ------------------------------------
 * ".D.lock" next to D, flock'ed. The holder removes it before it lets go,
 * so a waiter that gets the lock checks that the name still is the file it
 * locked, and else tries again. A lock that cannot be had (a read-only
 * directory, a file system without flock) is no lock: the save goes on and
 * fails, if it must, where it writes. */

struct osl_lock {
  int dfd; /* D's directory (a copy of the caller's descriptor) */
  int fd;
  char *name;
};

osl_lock *onnxslim__dest_lock(int dfd, const char *name) {
  osl_lock *l = calloc(1, sizeof *l);
  char *lname = side_name(name, "lock", 0);
  if (!l || !lname) {
    free(l);
    free(lname);
    onnxslim__err_nomem(NULL);
    return NULL;
  }
  l->name = lname;
  l->fd = -1;
  l->dfd = onnxslim__os_dup(dfd);
  if (l->dfd < 0) return l;
  for (int tries = 0; tries < 10000; tries++) {
    int fd = onnxslim__os_openat(l->dfd, lname, OSL_O_RDONLY | OSL_O_CREAT | OSL_O_NOFOLLOW, 0666);
    if (fd < 0) return l;
    if (onnxslim__os_lock(fd, 1) != 0) {
      onnxslim__os_close(fd);
      return l;
    }
    osl_os_stat a, b;
    if (onnxslim__os_fstat(fd, &a) == 0 && onnxslim__os_statat(l->dfd, lname, 1, &b) == 0 &&
        a.dev == b.dev && a.ino == b.ino) {
      l->fd = fd;
      return l;
    }
    onnxslim__os_close(fd); /* removed by the holder we waited for */
  }
  return l;
}

osl_lock *onnxslim__dest_lock_path(const char *path) {
  const char *name;
  int dfd = onnxslim__open_dir_of(path, &name);
  if (dfd < 0) {
    /* no directory, no lock: the save fails where it writes */
    osl_lock *l = calloc(1, sizeof *l);
    if (!l) onnxslim__err_nomem(NULL);
    else l->fd = l->dfd = -1;
    return l;
  }
  osl_lock *l = onnxslim__dest_lock(dfd, name);
  onnxslim__os_close(dfd);
  return l;
}

void onnxslim__dest_unlock(osl_lock *l) {
  if (!l) return;
  if (l->fd >= 0) {
    onnxslim__os_unlink(l->dfd, l->name);
    onnxslim__os_close(l->fd);
  }
  if (l->dfd >= 0) onnxslim__os_close(l->dfd);
  free(l->name);
  free(l);
}

/* ---- atomic replacement ------------------------------------------------ */

/* 0666 minus the umask, read without changing it (umask(2) would change it
 * for every thread of the process): as the system tells it, else as a file
 * made with 0666 in dfd gets it (".D.mode-PID-TID-N", removed at once). */
static unsigned int default_mode(int dfd, const char *name) {
  unsigned int um;
  if (onnxslim__os_umask(&um) == 0) return (unsigned int)(0666 & ~um);
  unsigned int mode = 0644;
  char *probe = side_name(name, "mode", 1);
  if (!probe) return mode;
  size_t plen = strlen(probe);
  for (unsigned n = 0; n < 100; n++) {
    sprintf(probe + plen, "%u", n);
    int fd = onnxslim__os_openat(dfd, probe,
                                 OSL_O_RDONLY | OSL_O_CREAT | OSL_O_EXCL | OSL_O_NOFOLLOW, 0666);
    if (fd < 0 && errno == EEXIST) continue;
    if (fd < 0) break;
    osl_os_stat st;
    if (onnxslim__os_fstat(fd, &st) == 0) mode = st.perm & 0777;
    onnxslim__os_unlink(dfd, probe);
    onnxslim__os_close(fd);
    break;
  }
  free(probe);
  return mode;
}

static int check_space(const char *path, int dfd, uint64_t size) {
  uint64_t lim, freeb;
  if (onnxslim__os_file_size_limit(&lim) == 0 && size > lim)
    return onnxslim__err(ONNXSLIM_ENOSPC,
                         "cannot write '%s': %llu bytes exceed the file size limit of %llu bytes",
                         path, (unsigned long long)size, (unsigned long long)lim);
  if (onnxslim__os_space(dfd, &freeb) == 0 && size > freeb)
    return onnxslim__err(ONNXSLIM_ENOSPC,
                         "cannot write '%s': %llu bytes needed, %llu bytes free on the device",
                         path, (unsigned long long)size, (unsigned long long)freeb);
  return 0;
}

int onnxslim__open_dir_of(const char *path, const char **name) {
  const char *slash = strrchr(path, '/');
  *name = slash ? slash + 1 : path;
  if (!slash) return onnxslim__os_open(".", OSL_O_RDONLY | OSL_O_DIRECTORY, 0);
  char *dir = onnxslim__strndup(path, slash == path ? 1 : (size_t)(slash - path));
  if (!dir) {
    errno = ENOMEM;
    return -1;
  }
  int dfd = onnxslim__os_open(dir, OSL_O_RDONLY | OSL_O_DIRECTORY, 0);
  int e = errno;
  free(dir);
  errno = e;
  return dfd;
}

int onnxslim__dest_ok(int dfd, const char *name, const char *path) {
  osl_os_stat st, t;
  if (onnxslim__os_statat(dfd, name, 1, &st) != 0) {
    if (errno == ENOENT) return 0;
    return onnxslim__err(ONNXSLIM_EIO, "cannot save to '%s': cannot stat it: %s", path,
                         strerror(errno));
  }
  if (st.kind == OSL_KIND_REG) return 0;
  if (st.kind != OSL_KIND_LNK)
    return onnxslim__err(ONNXSLIM_EIO,
                         "cannot save to '%s': it is %s, not a regular file (nothing written)",
                         path, onnxslim__file_kind(st.kind));
  /* a symlink: replaced by the new file when it names a regular file */
  if (onnxslim__os_statat(dfd, name, 0, &t) != 0) {
    if (errno == ENOENT)
      return onnxslim__err(ONNXSLIM_EIO,
                           "cannot save to '%s': it is a dangling symlink (its target does not "
                           "exist; nothing written: remove the link or save elsewhere)",
                           path);
    return onnxslim__err(ONNXSLIM_EIO,
                         "cannot save to '%s': it is a symlink that cannot be "
                         "followed: %s (nothing written)",
                         path, strerror(errno));
  }
  if (t.kind == OSL_KIND_REG) return 0;
  return onnxslim__err(ONNXSLIM_EIO,
                       "cannot save to '%s': it is a symlink to %s, not to a regular file "
                       "(nothing written)",
                       path, onnxslim__file_kind(t.kind));
}

/* The output `name` in the directory dfd (taken over), `path` its spelling
 * for messages (ending with name), `dir` the directory's; its temporary is
 * named after `owner` (NULL: name). */
static osl_out *out_open_in(int dfd, const char *dir, const char *name, const char *path,
                            uint64_t size, osl_source src, const char *owner) {
  /* before any byte is written, not at the final rename */
  if (onnxslim__dest_ok(dfd, name, path)) {
    onnxslim__os_close(dfd);
    return NULL;
  }
  osl_out *o = calloc(1, sizeof *o);
  if (!o) {
    onnxslim__err_nomem(NULL);
    onnxslim__os_close(dfd);
    return NULL;
  }
  o->fd = -1;
  o->dfd = dfd;
  o->src = src;
  onnxslim__os_copier_init(&o->copier);
  o->base.write = out_write;
  o->dir = strdup(dir);
  o->path = strdup(path);
  o->name = strdup(name);
  o->buf = malloc(OSL_SINK_BUF);
  o->win = malloc(OSL_SINK_WIN);
  o->win_fd = -1;
  if (!o->dir || !o->path || !o->name || !o->buf || !o->win) {
    onnxslim__err_nomem(NULL);
    goto fail;
  }
  if (check_space(path, dfd, size)) goto fail;
  o->fd = onnxslim__side_create(dfd, dir, owner ? owner : name, "tmp", &o->tmpname);
  if (o->fd < 0) goto fail;
  size_t head = strlen(path) - strlen(name);
  o->tmp = malloc(head + strlen(o->tmpname) + 1);
  if (!o->tmp) {
    onnxslim__err_nomem(NULL);
    goto fail;
  }
  sprintf(o->tmp, "%.*s%s", (int)head, path, o->tmpname);
  osl_os_stat st;
  unsigned int mode =
      onnxslim__os_statat(dfd, name, 0, &st) == 0 ? (st.perm & 07777) : default_mode(dfd, name);
  if (onnxslim__os_chmod(o->fd, mode) != 0) {
    onnxslim__err(ONNXSLIM_EIO, "cannot set the mode of '%s': %s", o->tmp, strerror(errno));
    goto fail;
  }
  return o;
fail:
  onnxslim__out_abort(o);
  return NULL;
}

static int out_path_ok(const char *path) {
  size_t plen = strlen(path);
  if (plen == 0 || path[plen - 1] == '/')
    return onnxslim__err(ONNXSLIM_EINVAL, "invalid output path '%s'", path);
  return 0;
}

/* The directory of path for messages: "." , "/" or "a/b"; malloc'ed. */
static char *dir_name(const char *path) {
  const char *slash = strrchr(path, '/');
  char *dir =
      slash ? onnxslim__strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
  if (!dir) onnxslim__err_nomem(NULL);
  return dir;
}

osl_out *onnxslim__out_open_at_from(int dirfd, const char *path, uint64_t size, osl_source src) {
  if (out_path_ok(path)) return NULL;
  char *dir = dir_name(path);
  if (!dir) return NULL;
  const char *slash = strrchr(path, '/');
  osl_out *o = NULL;
  int dfd = onnxslim__os_dup(dirfd);
  if (dfd < 0)
    onnxslim__err(ONNXSLIM_EIO, "cannot create a temporary file in '%s': %s", dir, strerror(errno));
  else o = out_open_in(dfd, dir, slash ? slash + 1 : path, path, size, src, NULL);
  free(dir);
  return o;
}

int onnxslim__open_parent_beneath(int basefd, const char *rel, const char **leaf) {
  const char *slash = strrchr(rel, '/');
  *leaf = slash ? slash + 1 : rel;
  if (!slash) return onnxslim__os_dup(basefd);
  char *rdir = onnxslim__strndup(rel, (size_t)(slash - rel));
  if (!rdir) {
    errno = ENOMEM;
    return -1;
  }
  int dfd = onnxslim__open_beneath(basefd, rdir, OSL_O_RDONLY | OSL_O_DIRECTORY);
  int e = errno;
  free(rdir);
  errno = e;
  return dfd;
}

osl_out *onnxslim__out_open_beneath_from(int basefd, const char *base, const char *rel,
                                         const char *owner, uint64_t size, osl_source src) {
  size_t blen = strlen(base), rlen = strlen(rel);
  const char *slash = strrchr(rel, '/');
  char *path = malloc(blen + rlen + 2), *dir = malloc(blen + rlen + 2);
  if (!path || !dir) {
    free(path);
    free(dir);
    onnxslim__err_nomem(NULL);
    return NULL;
  }
  /* spellings for messages: base/rel, base/dirname(rel) */
  int sep = blen && base[blen - 1] != '/';
  sprintf(path, "%s%s%s", base, sep ? "/" : "", rel);
  if (slash) sprintf(dir, "%s%s%.*s", base, sep ? "/" : "", (int)(slash - rel), rel);
  else strcpy(dir, base);
  osl_out *o = NULL;
  const char *leaf;
  int dfd = onnxslim__open_parent_beneath(basefd, rel, &leaf);
  if (dfd < 0) {
    if (errno == EXDEV)
      onnxslim__err(ONNXSLIM_EINVAL,
                    "external data location '%s' refused: it leaves the output directory '%s' "
                    "through a symlink (data files are written beneath it)",
                    rel, base);
    else
      onnxslim__err(ONNXSLIM_EIO, "cannot create a temporary file in '%s': %s", dir,
                    strerror(errno));
  } else {
    o = out_open_in(dfd, dir, leaf, path, size, src, owner);
  }
  free(path);
  free(dir);
  return o;
}

osl_sink *onnxslim__out_sink(osl_out *o) { return &o->base; }

void onnxslim__out_set_progress(osl_out *o, osl_progress *progress) { o->progress = progress; }

uint64_t onnxslim__out_pos(const osl_out *o) { return o->pos; }

uint64_t onnxslim__out_copied(const osl_out *o) { return o->copied; }

const char *onnxslim__out_path(const osl_out *o) { return o->path; }

int onnxslim__out_dirfd(const osl_out *o) { return o->dfd; }

const char *onnxslim__out_dir(const osl_out *o) { return o->dir; }

const char *onnxslim__out_name(const osl_out *o) { return o->name; }

int onnxslim__out_finish(osl_out *o, int fsync_data) {
  onnxslim__os_copier_close(&o->copier); /* its pipe: no kernel copy follows */
  int rc = flush(o);
  if (rc) return rc;
  if (fsync_data && onnxslim__os_sync(o->fd) != 0)
    return onnxslim__err(errno == ENOSPC ? ONNXSLIM_ENOSPC : ONNXSLIM_EIO, "cannot sync '%s': %s",
                         o->tmp, strerror(errno));
  /* the descriptor stays open, and the temporary file locked, until the
   * commit: its lock says its owner lives */
  return 0;
}

int onnxslim__out_identity(const osl_out *o, uint64_t *dev, uint64_t *ino) {
  osl_os_stat st;
  if (o->fd < 0 || onnxslim__os_fstat(o->fd, &st) != 0)
    return onnxslim__err(ONNXSLIM_EIO, "cannot stat '%s': %s", o->tmp, strerror(errno));
  *dev = st.dev;
  *ino = st.ino;
  return 0;
}

int onnxslim__out_sync_dir(const osl_out *o) {
  onnxslim__os_sync(o->dfd);
  return 0;
}

static int set_name(osl_out *o, const char *name) {
  if (name == o->name || strcmp(name, o->name) == 0) return 0;
  size_t head = strlen(o->path) - strlen(o->name);
  char *n = strdup(name), *p = malloc(head + strlen(name) + 1);
  if (!n || !p) {
    free(n);
    free(p);
    return onnxslim__err_nomem(NULL);
  }
  sprintf(p, "%.*s%s", (int)head, o->path, name);
  free(o->name);
  free(o->path);
  o->name = n;
  o->path = p;
  return 0;
}

/* After the rename: the temporary file is the output now. */
static void committed(osl_out *o) {
  o->tmpname[0] = '\0';
  o->tmp[0] = '\0';
  /* write and fsync errors were reported; with NO_FSYNC a late error is
   * the risk asked for */
  onnxslim__os_close(o->fd);
  o->fd = -1;
}

int onnxslim__out_commit_to(osl_out *o, const char *name, int fsync_dir) {
  int rc = set_name(o, name);
  if (!rc) rc = onnxslim__dest_ok(o->dfd, o->name, o->path); /* it may have changed meanwhile */
  if (rc) return rc;
  if (onnxslim__os_rename(o->dfd, o->tmpname, o->name) != 0) {
    int e = errno;
    return onnxslim__err(ONNXSLIM_EIO, "cannot rename '%s' to '%s': %s%s", o->tmp, o->path,
                         strerror(e),
                         e == EBUSY ? " (the file is in use: Windows replaces no file that is "
                                      "mapped, as the file of a model still loaded is; free "
                                      "that model first, or save to another path)"
                                    : "");
  }
  committed(o);
  if (fsync_dir) onnxslim__os_sync(o->dfd);
  return 0;
}

int onnxslim__out_claim(osl_out *o, const char *name) {
  int rc = set_name(o, name);
  if (rc) return rc;
  if (onnxslim__os_rename_noreplace(o->dfd, o->tmpname, o->name) != 0) {
    if (errno == EEXIST) return 1;
    return onnxslim__err(ONNXSLIM_EIO, "cannot rename '%s' to '%s': %s", o->tmp, o->path,
                         strerror(errno));
  }
  /* in place: the same as a commit */
  committed(o);
  return 0;
}

int onnxslim__out_commit(osl_out *o, int fsync_dir) {
  return onnxslim__out_commit_to(o, o->name, fsync_dir);
}

void onnxslim__out_abort(osl_out *o) {
  if (!o) return;
  onnxslim__os_copier_close(&o->copier);
  if (o->fd >= 0) onnxslim__os_close(o->fd);
  if (o->tmpname && o->tmpname[0]) onnxslim__os_unlink(o->dfd, o->tmpname);
  onnxslim__os_close(o->dfd);
  free(o->buf);
  free(o->win);
  free(o->tmp);
  free(o->tmpname);
  free(o->name);
  free(o->path);
  free(o->dir);
  free(o);
}

int onnxslim__model_size_ok(const char *path, uint64_t size, int allow_large) {
  if (size <= INT32_MAX || allow_large) return 0;
  return onnxslim__err(ONNXSLIM_ELIMIT,
                       "'%s' would be %llu bytes, over protobuf's 2 GiB limit (move tensors to "
                       "external data, or allow it explicitly)",
                       path, (unsigned long long)size);
}

int onnxslim__atomic_write_from(const char *path, uint64_t size, int fsync_data,
                                int (*write_fn)(osl_sink *sink, void *payload), void *payload,
                                osl_source src, osl_progress *progress, uint64_t *copied) {
  if (copied) *copied = 0;
  if (out_path_ok(path)) return onnxslim_error_last_code();
  char *dir = dir_name(path);
  if (!dir) return onnxslim_error_last_code();
  const char *name;
  int dfd = onnxslim__open_dir_of(path, &name);
  osl_out *o = NULL;
  if (dfd < 0) {
    onnxslim__err(ONNXSLIM_EIO, "cannot create a temporary file in '%s': %s", dir, strerror(errno));
  } else if (onnxslim__dest_ok(dfd, name, path)) {
    onnxslim__os_close(dfd);
  } else {
    /* temporaries of earlier saves to path whose owner is gone: before
     * this one, so their space is free again */
    onnxslim__side_clean(dfd, &name, 1, "tmp");
    o = out_open_in(dfd, dir, name, path, size, src, NULL);
  }
  free(dir);
  if (!o) return onnxslim_error_last_code();
  o->progress = progress;
  int rc = write_fn(&o->base, payload);
  if (!rc) rc = onnxslim__out_finish(o, fsync_data);
  if (!rc) rc = onnxslim__progress_commit(progress);
  if (!rc) rc = onnxslim__out_commit(o, fsync_data);
  if (copied) *copied = o->copied;
  onnxslim__out_abort(o);
  return rc;
}
