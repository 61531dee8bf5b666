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
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "internal.h"

int onnxslim__map_file(const char *path, void **map, size_t *len) {
  *map = NULL;
  *len = 0;
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
  close(fd);
  if (p == MAP_FAILED) return onnxslim__err(ONNXSLIM_EIO, "cannot map '%s': %s", path, strerror(e));
  *map = p;
  *len = (size_t)st.st_size;
  return 0;
}

void onnxslim__unmap(void *map, size_t len) {
  if (map) munmap(map, len);
}

/* ---- buffered file sink ------------------------------------------------ */

#define OSL_SINK_BUF (1u << 20)
#define OSL_SINK_CHUNK (8u << 20)

typedef struct {
  osl_sink base;
  int fd;
  const char *path;
  uint8_t *buf;
  size_t len;
  const uint8_t *drop_base; /* mapped source: pages written out are dropped */
  size_t drop_len;
} osl_file_sink;

static int write_all(osl_file_sink *fs, const uint8_t *p, size_t n) {
  while (n) {
    ssize_t w = write(fs->fd, p, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      int e = errno;
      if (e == ENOSPC || e == EFBIG || e == EDQUOT)
        return onnxslim__err(ONNXSLIM_ENOSPC, "cannot write '%s': %s", fs->path, strerror(e));
      return onnxslim__err(ONNXSLIM_EIO, "cannot write '%s': %s", fs->path, strerror(e));
    }
    p += w;
    n -= (size_t)w;
  }
  return 0;
}

static int flush(osl_file_sink *fs) {
  int rc = write_all(fs, fs->buf, fs->len);
  fs->len = 0;
  return rc;
}

/* Tells the kernel we no longer need the mapped source pages we just wrote
 * out, so saving a large model does not grow the resident set. */
static void drop_pages(osl_file_sink *fs, const uint8_t *p, size_t n) {
  if (!fs->drop_base || p < fs->drop_base || p + n > fs->drop_base + fs->drop_len) return;
  uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
  uintptr_t a = ((uintptr_t)p + page - 1) & ~(page - 1);
  uintptr_t b = ((uintptr_t)p + n) & ~(page - 1);
  if (b > a) madvise((void *)a, b - a, MADV_DONTNEED);
}

static int file_sink_write(osl_sink *sink, const uint8_t *p, size_t n) {
  osl_file_sink *fs = (osl_file_sink *)sink;
  if (n <= OSL_SINK_BUF - fs->len) {
    memcpy(fs->buf + fs->len, p, n);
    fs->len += n;
    return 0;
  }
  int rc = flush(fs);
  if (rc) return rc;
  if (n < OSL_SINK_BUF) {
    memcpy(fs->buf, p, n);
    fs->len = n;
    return 0;
  }
  while (n) {
    size_t c = n < OSL_SINK_CHUNK ? n : OSL_SINK_CHUNK;
    rc = write_all(fs, p, c);
    if (rc) return rc;
    drop_pages(fs, p, c);
    p += c;
    n -= c;
  }
  return 0;
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

int onnxslim__atomic_write(const char *path, uint64_t size, int fsync_data,
                           int (*write_fn)(osl_sink *sink, void *payload), void *payload,
                           const void *drop_base, size_t drop_len) {
  size_t plen = strlen(path);
  if (plen == 0 || path[plen - 1] == '/')
    return onnxslim__err(ONNXSLIM_EINVAL, "invalid output path '%s'", path);
  const char *slash = strrchr(path, '/');
  char *dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
  const char *base = slash ? slash + 1 : path;
  char *tmp = malloc(plen + 32);
  osl_file_sink fs;
  memset(&fs, 0, sizeof fs);
  fs.buf = malloc(OSL_SINK_BUF);
  int rc = 0, fd = -1;
  if (!dir || !tmp || !fs.buf) {
    rc = onnxslim__err(ONNXSLIM_ENOMEM, "out of memory");
    goto out;
  }
  rc = check_space(path, dir, size);
  if (rc) goto out;
  snprintf(tmp, plen + 32, "%.*s.%s.tmp-XXXXXX", (int)(base - path), path, base);
  fd = mkostemp(tmp, O_CLOEXEC);
  if (fd < 0) {
    rc = onnxslim__err(ONNXSLIM_EIO, "cannot create a temporary file in '%s': %s", dir,
                       strerror(errno));
    tmp[0] = '\0';
    goto out;
  }
  struct stat st;
  mode_t mode = stat(path, &st) == 0 ? (st.st_mode & 07777) : default_mode();
  if (fchmod(fd, mode) != 0) {
    rc = onnxslim__err(ONNXSLIM_EIO, "cannot set the mode of '%s': %s", tmp, strerror(errno));
    goto out;
  }
  fs.base.write = file_sink_write;
  fs.fd = fd;
  fs.path = path;
  fs.drop_base = drop_base;
  fs.drop_len = drop_len;
  rc = write_fn(&fs.base, payload);
  if (!rc) rc = flush(&fs);
  if (rc) goto out;
  if (fsync_data && fsync(fd) != 0) {
    rc = onnxslim__err(errno == ENOSPC ? ONNXSLIM_ENOSPC : ONNXSLIM_EIO, "cannot sync '%s': %s",
                       tmp, strerror(errno));
    goto out;
  }
  int cfd = fd;
  fd = -1;
  if (close(cfd) != 0) {
    rc = onnxslim__err(ONNXSLIM_EIO, "cannot close '%s': %s", tmp, strerror(errno));
    goto out;
  }
  if (rename(tmp, path) != 0) {
    rc = onnxslim__err(ONNXSLIM_EIO, "cannot rename '%s' to '%s': %s", tmp, path,
                       strerror(errno));
    goto out;
  }
  tmp[0] = '\0';
  if (fsync_data) {
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
      fsync(dfd);
      close(dfd);
    }
  }
out:
  if (fd >= 0) close(fd);
  if (tmp && tmp[0]) unlink(tmp);
  free(fs.buf);
  free(tmp);
  free(dir);
  return rc;
}
