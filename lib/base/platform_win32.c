/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - the platform layer on Windows (platform.h), compiled where
 * _WIN32 is defined (platform_posix.c everywhere else).
 *
 * Descriptors are kernel HANDLEs kept in an osl_os_fd (Windows keeps handle
 * values within 32 bits, sign extended). Paths are UTF-8 in the library and
 * UTF-16 for the system. Every file is opened sharing read, write and
 * delete, so that a file open here can be renamed over or removed as on
 * POSIX. docs/external-data.md ("On each system") says how each promise
 * holds here.
 */
#ifndef WIN32_LEAN_AND_MEAN
#  define WIN32_LEAN_AND_MEAN
#endif
#include <windows.h>
#include <bcrypt.h>
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "base/platform.h"

#ifndef ELOOP
#  define ELOOP 114
#endif

static HANDLE H(osl_os_fd fd) { return (HANDLE)(intptr_t)fd; }
static osl_os_fd FD(HANDLE h) { return h == INVALID_HANDLE_VALUE ? -1 : (osl_os_fd)(intptr_t)h; }

/* errno of the last Windows error. */
static int win_errno(DWORD e) {
  switch (e) {
  case ERROR_FILE_NOT_FOUND:
  case ERROR_PATH_NOT_FOUND:
  case ERROR_INVALID_NAME:
  case ERROR_BAD_NETPATH: return ENOENT;
  case ERROR_FILE_EXISTS:
  case ERROR_ALREADY_EXISTS: return EEXIST;
  case ERROR_ACCESS_DENIED:
  case ERROR_SHARING_VIOLATION:
  case ERROR_LOCK_VIOLATION: return EACCES;
  case ERROR_USER_MAPPED_FILE: return EBUSY;
  case ERROR_DIRECTORY: return ENOTDIR;
  case ERROR_NOT_ENOUGH_MEMORY:
  case ERROR_OUTOFMEMORY: return ENOMEM;
  case ERROR_DISK_FULL:
  case ERROR_HANDLE_DISK_FULL: return ENOSPC;
  case ERROR_FILENAME_EXCED_RANGE: return ENAMETOOLONG;
  case ERROR_NOT_SAME_DEVICE: return EXDEV;
  case ERROR_CANT_RESOLVE_FILENAME: return ELOOP;
  case ERROR_DIR_NOT_EMPTY: return ENOTEMPTY;
  case ERROR_NOT_SUPPORTED:
  case ERROR_CALL_NOT_IMPLEMENTED: return ENOSYS;
  case ERROR_IO_PENDING:
  case ERROR_LOCK_FAILED: return EWOULDBLOCK;
  default: return EIO;
  }
}

static int fail(void) {
  errno = win_errno(GetLastError());
  return -1;
}

/* UTF-8 to UTF-16 (malloc'ed), '/' turned into '\\'. NULL with errno. */
static wchar_t *wide(const char *s) {
  int n = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, s, -1, NULL, 0);
  if (n <= 0) {
    errno = EINVAL;
    return NULL;
  }
  wchar_t *w = malloc((size_t)n * sizeof *w);
  if (!w) {
    errno = ENOMEM;
    return NULL;
  }
  MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, s, -1, w, n);
  for (wchar_t *p = w; *p; p++)
    if (*p == L'/') *p = L'\\';
  return w;
}

/* UTF-16 to UTF-8 into buf; 0 or -1 when it does not fit. */
static int narrow(const wchar_t *w, char *buf, size_t cap) {
  int n = WideCharToMultiByte(CP_UTF8, 0, w, -1, NULL, 0, NULL, NULL);
  if (n <= 0 || (size_t)n > cap) return -1;
  WideCharToMultiByte(CP_UTF8, 0, w, -1, buf, n, NULL, NULL);
  return 0;
}

/* The final path of an open handle (malloc'ed UTF-16, "\\?\" prefix
 * kept), or NULL. */
static wchar_t *final_path(HANDLE h) {
  DWORD n = GetFinalPathNameByHandleW(h, NULL, 0, FILE_NAME_NORMALIZED);
  if (!n) return NULL;
  wchar_t *w = malloc(((size_t)n + 1) * sizeof *w);
  if (!w) return NULL;
  DWORD m = GetFinalPathNameByHandleW(h, w, n + 1, FILE_NAME_NORMALIZED);
  if (!m || m > n) {
    free(w);
    return NULL;
  }
  return w;
}

/* dir's final path, '\\', name: malloc'ed UTF-16, or NULL with errno. */
static wchar_t *path_in(osl_os_fd dfd, const char *name) {
  wchar_t *d = final_path(H(dfd));
  wchar_t *n = wide(name);
  if (!d || !n) {
    free(d);
    free(n);
    errno = d ? errno : EBADF;
    return NULL;
  }
  size_t dl = wcslen(d), nl = wcslen(n);
  wchar_t *p = malloc((dl + nl + 2) * sizeof *p);
  if (p) {
    memcpy(p, d, dl * sizeof *p);
    p[dl] = L'\\';
    memcpy(p + dl + 1, n, (nl + 1) * sizeof *p);
    if (nl == 1 && n[0] == L'.') p[dl] = L'\0'; /* "." is dfd itself */
  } else {
    errno = ENOMEM;
  }
  free(d);
  free(n);
  return p;
}

static osl_os_fd open_wide(const wchar_t *w, int flags, unsigned int mode) {
  DWORD access = 0, disp, attrs = FILE_ATTRIBUTE_NORMAL;
  switch (flags & OSL_O_ACCMODE) {
  case OSL_O_WRONLY: access = GENERIC_WRITE; break;
  case OSL_O_RDWR: access = GENERIC_READ | GENERIC_WRITE; break;
  default: access = GENERIC_READ; break;
  }
  if (flags & (OSL_O_DIRECTORY | OSL_O_PATH)) {
    access = (flags & OSL_O_PATH) ? FILE_READ_ATTRIBUTES : GENERIC_READ;
    attrs = FILE_FLAG_BACKUP_SEMANTICS;
  }
  if (flags & OSL_O_NOFOLLOW) attrs |= FILE_FLAG_OPEN_REPARSE_POINT;
  if ((flags & OSL_O_CREAT) && (flags & OSL_O_EXCL)) disp = CREATE_NEW;
  else if ((flags & OSL_O_CREAT) && (flags & OSL_O_TRUNC)) disp = CREATE_ALWAYS;
  else if (flags & OSL_O_CREAT) disp = OPEN_ALWAYS;
  else if (flags & OSL_O_TRUNC) disp = TRUNCATE_EXISTING;
  else disp = OPEN_EXISTING;
  if ((flags & OSL_O_CREAT) && !(mode & 0222)) attrs |= FILE_ATTRIBUTE_READONLY;
  HANDLE h = CreateFileW(w, access, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL,
                         disp, attrs, NULL);
  if (h == INVALID_HANDLE_VALUE) {
    DWORD err = GetLastError(), a;
    /* a directory opened as a file fails with "access denied" */
    if (err == ERROR_ACCESS_DENIED && !(flags & (OSL_O_DIRECTORY | OSL_O_PATH)) &&
        (a = GetFileAttributesW(w)) != INVALID_FILE_ATTRIBUTES && (a & FILE_ATTRIBUTE_DIRECTORY)) {
      errno = EISDIR;
      return -1;
    }
    SetLastError(err);
    return fail();
  }
  BY_HANDLE_FILE_INFORMATION bi;
  if (GetFileInformationByHandle(h, &bi)) {
    int dir = (bi.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) != 0;
    int link = (bi.dwFileAttributes & FILE_ATTRIBUTE_REPARSE_POINT) != 0;
    int e = 0;
    if ((flags & OSL_O_NOFOLLOW) && link) e = ELOOP;
    else if ((flags & OSL_O_DIRECTORY) && !dir) e = ENOTDIR;
    else if (!(flags & (OSL_O_DIRECTORY | OSL_O_PATH)) && dir) e = EISDIR;
    if (e) {
      CloseHandle(h);
      errno = e;
      return -1;
    }
  }
  return FD(h);
}

osl_os_fd onnxslim__os_open(const char *path, int flags, unsigned int mode) {
  wchar_t *w = wide(path);
  if (!w) return -1;
  osl_os_fd fd = open_wide(w, flags, mode);
  int e = errno;
  free(w);
  errno = e;
  return fd;
}

osl_os_fd onnxslim__os_openat(osl_os_fd dfd, const char *name, int flags, unsigned int mode) {
  wchar_t *w = path_in(dfd, name);
  if (!w) return -1;
  osl_os_fd fd = open_wide(w, flags, mode);
  int e = errno;
  free(w);
  errno = e;
  return fd;
}

osl_os_fd onnxslim__os_dup(osl_os_fd fd) {
  HANDLE out;
  HANDLE self = GetCurrentProcess();
  if (!DuplicateHandle(self, H(fd), self, &out, 0, FALSE, DUPLICATE_SAME_ACCESS)) return fail();
  return FD(out);
}

int onnxslim__os_close(osl_os_fd fd) {
  if (fd < 0) return 0;
  return CloseHandle(H(fd)) ? 0 : fail();
}

ptrdiff_t onnxslim__os_read(osl_os_fd fd, void *buf, size_t n) {
  DWORD got;
  if (n > 0x40000000u) n = 0x40000000u;
  if (!ReadFile(H(fd), buf, (DWORD)n, &got, NULL))
    return GetLastError() == ERROR_HANDLE_EOF ? 0 : fail();
  return (ptrdiff_t)got;
}

ptrdiff_t onnxslim__os_pread(osl_os_fd fd, void *buf, size_t n, int64_t off) {
  /* an OVERLAPPED offset moves the file pointer on synchronous handles:
   * every caller of pread reads by offset only, so that is harmless */
  OVERLAPPED ov;
  memset(&ov, 0, sizeof ov);
  ov.Offset = (DWORD)((uint64_t)off & 0xffffffffu);
  ov.OffsetHigh = (DWORD)((uint64_t)off >> 32);
  DWORD got;
  if (n > 0x40000000u) n = 0x40000000u;
  if (!ReadFile(H(fd), buf, (DWORD)n, &got, &ov))
    return GetLastError() == ERROR_HANDLE_EOF ? 0 : fail();
  return (ptrdiff_t)got;
}

ptrdiff_t onnxslim__os_write(osl_os_fd fd, const void *buf, size_t n) {
  DWORD put;
  if (n > 0x40000000u) n = 0x40000000u;
  if (!WriteFile(H(fd), buf, (DWORD)n, &put, NULL)) return fail();
  return (ptrdiff_t)put;
}

int onnxslim__os_chmod(osl_os_fd fd, unsigned int mode) {
  /* no permission bits: only read-only or not, set when a file is made */
  (void)fd, (void)mode;
  return 0;
}

static void fill_stat(HANDLE h, const BY_HANDLE_FILE_INFORMATION *bi, osl_os_stat *st) {
  st->dev = bi->dwVolumeSerialNumber;
  st->ino = ((uint64_t)bi->nFileIndexHigh << 32) | bi->nFileIndexLow;
  st->size = ((uint64_t)bi->nFileSizeHigh << 32) | bi->nFileSizeLow;
  st->perm = (bi->dwFileAttributes & FILE_ATTRIBUTE_READONLY) ? 0444 : 0666;
  if (bi->dwFileAttributes & FILE_ATTRIBUTE_REPARSE_POINT) st->kind = OSL_KIND_LNK;
  else if (bi->dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) st->kind = OSL_KIND_DIR;
  else {
    DWORD t = GetFileType(h);
    st->kind = t == FILE_TYPE_DISK   ? OSL_KIND_REG
               : t == FILE_TYPE_PIPE ? OSL_KIND_FIFO
               : t == FILE_TYPE_CHAR ? OSL_KIND_CHR
                                     : OSL_KIND_OTHER;
  }
  if (st->kind == OSL_KIND_DIR) st->perm |= 0111;
}

int onnxslim__os_fstat(osl_os_fd fd, osl_os_stat *st) {
  BY_HANDLE_FILE_INFORMATION bi;
  if (!GetFileInformationByHandle(H(fd), &bi)) {
    /* devices (NUL, CON) and pipes have no file information: their kind */
    DWORD t = GetFileType(H(fd));
    if (t != FILE_TYPE_CHAR && t != FILE_TYPE_PIPE) return fail();
    memset(st, 0, sizeof *st);
    st->kind = t == FILE_TYPE_CHAR ? OSL_KIND_CHR : OSL_KIND_FIFO;
    return 0;
  }
  fill_stat(H(fd), &bi, st);
  return 0;
}

static int stat_wide(const wchar_t *w, int nofollow, osl_os_stat *st) {
  DWORD attrs = FILE_FLAG_BACKUP_SEMANTICS | (nofollow ? FILE_FLAG_OPEN_REPARSE_POINT : 0);
  HANDLE h =
      CreateFileW(w, FILE_READ_ATTRIBUTES, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                  NULL, OPEN_EXISTING, attrs, NULL);
  if (h == INVALID_HANDLE_VALUE) return fail();
  BY_HANDLE_FILE_INFORMATION bi;
  int rc = GetFileInformationByHandle(h, &bi) ? 0 : fail();
  if (!rc) fill_stat(h, &bi, st);
  CloseHandle(h);
  return rc;
}

int onnxslim__os_stat(const char *path, osl_os_stat *st) {
  wchar_t *w = wide(path);
  if (!w) return -1;
  int rc = stat_wide(w, 0, st), e = errno;
  free(w);
  errno = e;
  return rc;
}

int onnxslim__os_statat(osl_os_fd dfd, const char *name, int nofollow, osl_os_stat *st) {
  wchar_t *w = path_in(dfd, name);
  if (!w) return -1;
  int rc = stat_wide(w, nofollow, st), e = errno;
  free(w);
  errno = e;
  return rc;
}

/* ---- names in a directory ------------------------------------------------ */

static int move(osl_os_fd dfd, const char *from, const char *to, DWORD how) {
  wchar_t *a = path_in(dfd, from), *b = a ? path_in(dfd, to) : NULL;
  int rc = a && b ? (MoveFileExW(a, b, how) ? 0 : fail()) : -1;
  int e = errno;
  free(a);
  free(b);
  errno = e;
  return rc;
}

int onnxslim__os_rename(osl_os_fd dfd, const char *from, const char *to) {
  /* Refused over a writable file that exists: it is in use. Mapped (by a
   * model loaded from it) it stays so; open, even sharing delete, it is
   * refused for as long as the handle lives, and such handles are mostly
   * brief (a concurrent save in the directory reads the models there to
   * spare their data files): tried again for about 0.5 s. Then EBUSY, so
   * the caller can say so, rather than a "Permission denied" that is not. */
  for (DWORD wait = 1;; wait *= 2) {
    if (move(dfd, from, to, MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH) == 0) return 0;
    if (errno != EACCES) return -1;
    wchar_t *w = path_in(dfd, to);
    DWORD a = w ? GetFileAttributesW(w) : INVALID_FILE_ATTRIBUTES;
    free(w);
    if (a == INVALID_FILE_ATTRIBUTES ||
        (a & (FILE_ATTRIBUTE_READONLY | FILE_ATTRIBUTE_DIRECTORY))) {
      errno = EACCES;
      return -1;
    }
    if (wait > 256) {
      errno = EBUSY;
      return -1;
    }
    Sleep(wait);
  }
}

int onnxslim__os_rename_noreplace(osl_os_fd dfd, const char *from, const char *to) {
  return move(dfd, from, to, MOVEFILE_WRITE_THROUGH); /* fails when `to` exists */
}

int onnxslim__os_link(osl_os_fd dfd, const char *from, const char *to) {
  wchar_t *a = path_in(dfd, from), *b = a ? path_in(dfd, to) : NULL;
  int rc = a && b ? (CreateHardLinkW(b, a, NULL) ? 0 : fail()) : -1;
  int e = errno;
  free(a);
  free(b);
  errno = e;
  return rc;
}

int onnxslim__os_unlink(osl_os_fd dfd, const char *name) {
  wchar_t *w = path_in(dfd, name);
  if (!w) return -1;
  int rc = DeleteFileW(w) ? 0 : fail(), e = errno;
  free(w);
  errno = e;
  return rc;
}

struct osl_os_dir {
  HANDLE find;
  int first;
  WIN32_FIND_DATAW data;
  char name[MAX_PATH * 4];
};

osl_os_dir *onnxslim__os_dir_open(osl_os_fd dfd) {
  wchar_t *w = path_in(dfd, "*");
  if (!w) return NULL;
  osl_os_dir *d = calloc(1, sizeof *d);
  if (!d) {
    free(w);
    errno = ENOMEM;
    return NULL;
  }
  d->find = FindFirstFileW(w, &d->data);
  free(w);
  if (d->find == INVALID_HANDLE_VALUE) {
    fail();
    free(d);
    return NULL;
  }
  d->first = 1;
  return d;
}

const char *onnxslim__os_dir_next(osl_os_dir *d) {
  for (;;) {
    if (!d->first && !FindNextFileW(d->find, &d->data)) {
      if (GetLastError() == ERROR_NO_MORE_FILES) errno = 0;
      else fail();
      return NULL;
    }
    d->first = 0;
    if (narrow(d->data.cFileName, d->name, sizeof d->name) == 0) return d->name;
  }
}

void onnxslim__os_dir_close(osl_os_dir *d) {
  if (!d) return;
  FindClose(d->find);
  free(d);
}

char *onnxslim__os_realpath(const char *path) {
  wchar_t *w = wide(path);
  if (!w) return NULL;
  HANDLE h =
      CreateFileW(w, FILE_READ_ATTRIBUTES, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                  NULL, OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS, NULL);
  free(w);
  if (h == INVALID_HANDLE_VALUE) {
    fail();
    return NULL;
  }
  char buf[4096];
  int rc = onnxslim__os_fd_path(FD(h), buf, sizeof buf);
  CloseHandle(h);
  if (rc) {
    errno = ENAMETOOLONG;
    return NULL;
  }
  return strdup(buf);
}

/* The bracket expression at p ("[...]", p after '['): whether c is in it;
 * *end: after its ']', or NULL when it is not closed (then '[' is itself). */
static int in_bracket(const char *p, unsigned char c, const char **end) {
  int neg = *p == '!' || *p == '^', hit = 0;
  if (neg) p++;
  const char *q = p;
  do {
    unsigned char lo = (unsigned char)*q, hi;
    if (!lo) {
      *end = NULL;
      return 0;
    }
    if (lo == '\\' && q[1]) lo = (unsigned char)*++q;
    hi = lo;
    if (q[1] == '-' && q[2] && q[2] != ']') {
      q += 2;
      hi = (unsigned char)*q;
      if (hi == '\\' && q[1]) hi = (unsigned char)*++q;
    }
    if (c >= lo && c <= hi) hit = 1;
    q++;
  } while (*q != ']');
  *end = q + 1;
  return hit != neg;
}

int onnxslim__os_name_ok(const char *name, size_t len, const char **why) {
  if (memchr(name, ':', len))
    return *why = "a ':' (on Windows a drive or an alternate data stream)", 0;
  if (len && (name[len - 1] == '.' || name[len - 1] == ' '))
    return *why = "a name ending in '.' or ' ' (Windows opens the name without it)", 0;
  /* the stem, before the first '.': "nul.txt" is the device NUL */
  size_t stem = 0;
  while (stem < len && name[stem] != '.') stem++;
  while (stem && name[stem - 1] == ' ') stem--;
  char up[5] = {0};
  if (stem == 3 || stem == 4) {
    for (size_t k = 0; k < stem; k++)
      up[k] = (char)(name[k] >= 'a' && name[k] <= 'z' ? name[k] - 'a' + 'A' : name[k]);
    static const char *const dev3[] = {"CON", "PRN", "AUX", "NUL"};
    if (stem == 3)
      for (size_t k = 0; k < 4; k++)
        if (memcmp(up, dev3[k], 3) == 0) return *why = "a Windows device name", 0;
    if (stem == 4 && (memcmp(up, "COM", 3) == 0 || memcmp(up, "LPT", 3) == 0) && up[3] >= '0' &&
        up[3] <= '9')
      return *why = "a Windows device name", 0;
  }
  return 1;
}

int onnxslim__os_fnmatch(const char *p, const char *s) {
  const char *star = NULL, *back = NULL;
  for (;;) {
    if (*p == '*') {
      while (*p == '*') p++;
      star = p;
      back = s;
      continue;
    }
    if (*s) {
      const char *next = NULL;
      int ok = 0;
      if (*p == '?') ok = 1, next = p + 1;
      else if (*p == '[' && (ok = in_bracket(p + 1, (unsigned char)*s, &next), next)) {
      } else if (*p == '\\' && p[1]) ok = p[1] == *s, next = p + 2;
      else if (*p) ok = *p == *s, next = p + 1;
      if (ok) {
        p = next;
        s++;
        continue;
      }
    } else if (!*p) {
      return 1;
    }
    if (!star || !*back) return 0;
    p = star;
    s = ++back;
  }
}

/* ---- limits --------------------------------------------------------------- */

int onnxslim__os_file_size_limit(uint64_t *max) {
  (void)max;
  return -1; /* none */
}

int onnxslim__os_space(osl_os_fd fd, uint64_t *avail) {
  wchar_t *d = final_path(H(fd));
  if (!d) return -1;
  ULARGE_INTEGER freeb;
  int rc = GetDiskFreeSpaceExW(d, &freeb, NULL, NULL) ? 0 : -1;
  free(d);
  if (!rc) *avail = freeb.QuadPart;
  return rc;
}

/* ---- files beneath a directory ------------------------------------------ */

/* Handle-relative in effect: each component is opened by the full path of
 * the directory handle opened before it, never following a reparse point
 * (symlinks and junctions are refused: ELOOP), ".." pops a directory this
 * walk opened and never leaves dirfd (EXDEV), and the final path of what
 * was opened must lie beneath dirfd's (a rename meanwhile is caught). */
osl_os_fd onnxslim__os_open_beneath(osl_os_fd dirfd, const char *rel, int flags) {
  size_t len = strlen(rel);
  if (!len || rel[0] == '/' || rel[0] == '\\' || strchr(rel, ':')) {
    errno = EXDEV; /* absolute, drive-relative or a stream name */
    return -1;
  }
  enum { MAXD = 64 };
  osl_os_fd fds[MAXD];
  size_t n = 1;
  fds[0] = dirfd;
  char *path = strdup(rel);
  if (!path) {
    errno = ENOMEM;
    return -1;
  }
  osl_os_fd result = -1;
  int err = 0;
  char *p = path;
  for (;;) {
    while (*p == '/' || *p == '\\') p++;
    char *e = p + strcspn(p, "/\\");
    int last = *e == '\0' || e[strspn(e, "/\\")] == '\0';
    char save = *e;
    *e = '\0';
    if (!*p || strcmp(p, ".") == 0) {
      if (last) {
        result = onnxslim__os_dup(fds[n - 1]);
        err = errno;
        break;
      }
    } else if (strcmp(p, "..") == 0) {
      if (n == 1) {
        err = EXDEV;
        break;
      }
      onnxslim__os_close(fds[--n]);
      if (last) {
        result = onnxslim__os_dup(fds[n - 1]);
        err = errno;
        break;
      }
    } else if (last) {
      result = onnxslim__os_openat(fds[n - 1], p, (flags & ~OSL_O_CREAT) | OSL_O_NOFOLLOW, 0);
      err = errno;
      break;
    } else {
      if (n == MAXD) {
        err = ENAMETOOLONG;
        break;
      }
      osl_os_fd fd =
          onnxslim__os_openat(fds[n - 1], p, OSL_O_PATH | OSL_O_DIRECTORY | OSL_O_NOFOLLOW, 0);
      if (fd < 0) {
        err = errno;
        break;
      }
      fds[n++] = fd;
    }
    *e = save;
    p = e;
  }
  for (size_t i = 1; i < n; i++) onnxslim__os_close(fds[i]);
  free(path);
  if (result >= 0) {
    /* what was opened must still lie beneath dirfd */
    wchar_t *base = final_path(H(dirfd)), *got = final_path(H(result));
    size_t bl = base ? wcslen(base) : 0;
    int ok = base && got && _wcsnicmp(base, got, bl) == 0 && (got[bl] == L'\\' || got[bl] == L'\0');
    free(base);
    free(got);
    if (!ok) {
      onnxslim__os_close(result);
      result = -1;
      err = EXDEV;
    }
  }
  if (result < 0) errno = err;
  return result;
}

void onnxslim__os_copier_init(osl_os_copier *c) {
  c->how = 2;
  c->pipe_r = c->pipe_w = -1;
  c->pipe_cap = 0;
}

void onnxslim__os_copier_close(osl_os_copier *c) { (void)c; }

size_t onnxslim__os_copy_range(osl_os_copier *c, osl_os_fd in, int64_t off, osl_os_fd out,
                               size_t n) {
  (void)c, (void)in, (void)off, (void)out, (void)n;
  return 0; /* the caller copies through its buffer */
}

void onnxslim__os_writeback_start(osl_os_fd fd, uint64_t off, uint64_t len) {
  (void)fd, (void)off, (void)len;
}

int onnxslim__os_fd_path(osl_os_fd fd, char *buf, size_t cap) {
  wchar_t *w = final_path(H(fd));
  if (!w) return -1;
  const wchar_t *s = w;
  if (wcsncmp(s, L"\\\\?\\UNC\\", 8) == 0) s += 6; /* "\\server\share" */
  else if (wcsncmp(s, L"\\\\?\\", 4) == 0) s += 4;
  int rc = narrow(s, buf, cap);
  if (!rc && s != w && w[4] == L'U') buf[0] = '\\';
  free(w);
  return rc;
}

/* ---- locks ---------------------------------------------------------------- */

int onnxslim__os_lock(osl_os_fd fd, int wait) {
  OVERLAPPED ov;
  memset(&ov, 0, sizeof ov);
  DWORD how = LOCKFILE_EXCLUSIVE_LOCK | (wait ? 0 : LOCKFILE_FAIL_IMMEDIATELY);
  if (LockFileEx(H(fd), how, 0, MAXDWORD, MAXDWORD, &ov)) return 0;
  errno = GetLastError() == ERROR_LOCK_VIOLATION ? EWOULDBLOCK : win_errno(GetLastError());
  return -1;
}

/* ---- processes, threads and randomness ---------------------------------- */

long onnxslim__os_pid(void) { return (long)GetCurrentProcessId(); }

long onnxslim__os_tid(void) { return (long)GetCurrentThreadId(); }

int onnxslim__os_thread_alive(long pid, long tid) {
  if (pid <= 0 || tid <= 0) return 0;
  HANDLE t = OpenThread(THREAD_QUERY_LIMITED_INFORMATION, FALSE, (DWORD)tid);
  if (!t) return GetLastError() == ERROR_ACCESS_DENIED;
  DWORD code = 0;
  int alive =
      GetExitCodeThread(t, &code) && code == STILL_ACTIVE && GetProcessIdOfThread(t) == (DWORD)pid;
  CloseHandle(t);
  return alive;
}

int onnxslim__os_random(void *buf, size_t n) {
  if (n > 0xffffffffu) return -1;
  return BCryptGenRandom(NULL, buf, (ULONG)n, BCRYPT_USE_SYSTEM_PREFERRED_RNG) == 0 ? 0 : -1;
}

uint64_t onnxslim__os_clock_ns(void) {
  LARGE_INTEGER f, c;
  QueryPerformanceFrequency(&f);
  QueryPerformanceCounter(&c);
  return (uint64_t)((double)c.QuadPart * 1e9 / (double)f.QuadPart);
}

int onnxslim__os_umask(unsigned int *mask) {
  *mask = 0; /* no umask: files get 0666 (not read-only) */
  return 0;
}

/* ---- memory -------------------------------------------------------------- */

size_t onnxslim__os_page_size(void) {
  SYSTEM_INFO si;
  GetSystemInfo(&si);
  return (size_t)si.dwPageSize;
}

void *onnxslim__os_map_read(osl_os_fd fd, size_t len) {
  HANDLE m = CreateFileMappingW(H(fd), NULL, PAGE_WRITECOPY, 0, 0, NULL);
  if (!m) {
    fail();
    return NULL;
  }
  void *p = MapViewOfFile(m, FILE_MAP_COPY, 0, 0, len);
  if (!p) fail();
  CloseHandle(m); /* the view keeps the mapping */
  return p;
}

void onnxslim__os_unmap(void *p, size_t len) {
  (void)len;
  if (p) UnmapViewOfFile(p);
}

void onnxslim__os_drop_pages(void *p, size_t len) {
  /* a copy-on-write view never written: its pages are the file's, and the
   * working set may let them go */
  VirtualUnlock(p, len);
}

void *onnxslim__os_alloc_aligned(size_t align, size_t bytes) {
  (void)align; /* _aligned_malloc's memory needs _aligned_free */
  return malloc(bytes);
}

void onnxslim__os_advise_huge(void *p, size_t len) { (void)p, (void)len; }

/* ---- durability ---------------------------------------------------------- */

int onnxslim__os_sync(osl_os_fd fd) {
  if (FlushFileBuffers(H(fd))) return 0;
  /* directories cannot be flushed (their renames are written through) */
  return GetLastError() == ERROR_ACCESS_DENIED ? 0 : fail();
}

int onnxslim__os_hwcaps(unsigned long *hwcap, unsigned long *hwcap2) {
  *hwcap = *hwcap2 = 0;
  return 0;
}

/* ---- SHA-1 ------------------------------------------------------------------
 * BCrypt's: an algorithm provider and a hash object per hash (the system
 * allocates the object; Windows 7 and later). */

typedef struct {
  BCRYPT_ALG_HANDLE alg;
  BCRYPT_HASH_HANDLE hash;
} osl_sha1_win;
_Static_assert(sizeof(osl_sha1_win) <= sizeof(osl_sha1), "osl_sha1 holds the handles");

static void sha1_release(osl_sha1_win *w) {
  if (w->hash) BCryptDestroyHash(w->hash);
  if (w->alg) BCryptCloseAlgorithmProvider(w->alg, 0);
  w->hash = NULL;
  w->alg = NULL;
}

int onnxslim__sha1_init(osl_sha1 *h) {
  osl_sha1_win *w = (osl_sha1_win *)(void *)h->opaque;
  w->alg = NULL;
  w->hash = NULL;
  if (BCryptOpenAlgorithmProvider(&w->alg, BCRYPT_SHA1_ALGORITHM, NULL, 0) != 0) w->alg = NULL;
  if (!w->alg || BCryptCreateHash(w->alg, &w->hash, NULL, 0, NULL, 0, 0) != 0) {
    w->hash = NULL;
    sha1_release(w);
    return -1;
  }
  return 0;
}

int onnxslim__sha1_update(osl_sha1 *h, const void *p, size_t n) {
  osl_sha1_win *w = (osl_sha1_win *)(void *)h->opaque;
  const unsigned char *b = p;
  if (!w->hash) return -1;
  while (n) {
    ULONG k = n > 0x40000000u ? 0x40000000u : (ULONG)n;
    if (BCryptHashData(w->hash, (PUCHAR)b, k, 0) != 0) {
      sha1_release(w);
      return -1;
    }
    b += k;
    n -= k;
  }
  return 0;
}

int onnxslim__sha1_final(osl_sha1 *h, uint8_t *out) {
  osl_sha1_win *w = (osl_sha1_win *)(void *)h->opaque;
  int rc = 0;
  if (out && (!w->hash || BCryptFinishHash(w->hash, out, OSL_SHA1_SIZE, 0) != 0)) rc = -1;
  sha1_release(w);
  return rc;
}

/* ---- threads --------------------------------------------------------------
 * The system's own: CreateThread, and a slim reader/writer lock with a
 * condition variable (Windows Vista and later; neither needs releasing). */

struct osl_os_thread {
  HANDLE h;
  void (*fn)(void *);
  void *arg;
};

static DWORD WINAPI thread_main(LPVOID p) {
  osl_os_thread *t = p;
  t->fn(t->arg);
  return 0;
}

osl_os_thread *onnxslim__os_thread_start(void (*fn)(void *), void *arg) {
  osl_os_thread *t = malloc(sizeof *t);
  if (!t) return NULL;
  t->fn = fn;
  t->arg = arg;
  t->h = CreateThread(NULL, 0, thread_main, t, 0, NULL);
  if (t->h) return t;
  free(t);
  return NULL;
}

void onnxslim__os_thread_join(osl_os_thread *t) {
  WaitForSingleObject(t->h, INFINITE);
  CloseHandle(t->h);
  free(t);
}

struct osl_os_monitor {
  SRWLOCK mu;
  CONDITION_VARIABLE cv;
};

osl_os_monitor *onnxslim__os_monitor_new(void) {
  osl_os_monitor *m = malloc(sizeof *m);
  if (!m) return NULL;
  InitializeSRWLock(&m->mu);
  InitializeConditionVariable(&m->cv);
  return m;
}

void onnxslim__os_monitor_free(osl_os_monitor *m) { free(m); }
void onnxslim__os_monitor_lock(osl_os_monitor *m) { AcquireSRWLockExclusive(&m->mu); }
void onnxslim__os_monitor_unlock(osl_os_monitor *m) { ReleaseSRWLockExclusive(&m->mu); }
void onnxslim__os_monitor_wait(osl_os_monitor *m) {
  SleepConditionVariableSRW(&m->cv, &m->mu, INFINITE, 0);
}
void onnxslim__os_monitor_wake_all(osl_os_monitor *m) { WakeAllConditionVariable(&m->cv); }
