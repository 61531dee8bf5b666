/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/* The few POSIX calls the unit tests make that mingw-w64's C runtime lacks
 * or spells otherwise, for the Windows build only (the Makefile includes
 * this file first in every test it compiles for mingw-w64): mkdtemp,
 * two-argument mkdir, setenv/unsetenv, sysconf(_SC_PAGESIZE), link; and
 * failing stubs of what POSIX-only cases call (they skip themselves on
 * Windows: POSIX_ONLY in test/t.h; test/win32/sys/ has the headers).
 * Tests that are POSIX-only as a whole are not built for Windows
 * (WIN_NO_TESTS in the Makefile says which and why). */
#ifndef ONNXSLIM_TEST_COMPAT_WIN32_H
#define ONNXSLIM_TEST_COMPAT_WIN32_H
#if defined(_WIN32)
#  include <direct.h>
#  include <io.h>
#  include <stdlib.h>
#  include <string.h>
#  include <sys/stat.h>
#  include <unistd.h>
#  ifndef WIN32_LEAN_AND_MEAN
#    define WIN32_LEAN_AND_MEAN
#  endif
#  include <windows.h>

static inline char *compat_mkdtemp(char *tmpl) {
  if (!_mktemp(tmpl) || _mkdir(tmpl) != 0) return NULL;
  return tmpl;
}
#  define mkdtemp compat_mkdtemp
#  define mkdir(path, mode) _mkdir(path)

static inline int setenv(const char *name, const char *value, int overwrite) {
  if (!overwrite && getenv(name)) return 0;
  return _putenv_s(name, value);
}
static inline int unsetenv(const char *name) { return _putenv_s(name, ""); }

/* POSIX calls of the cases that skip themselves on Windows (POSIX_ONLY in
 * test/t.h): they fail with ENOSYS, and exist so the files compile. A hard
 * link is real (CreateHardLinkA). */
#  include <errno.h>
#  include <signal.h>
#  ifndef SIGKILL
#    define SIGKILL 9
#  endif
static inline int symlink(const char *target, const char *path) {
  (void)target, (void)path;
  errno = ENOSYS;
  return -1;
}
static inline int mkfifo(const char *path, int mode) {
  (void)path, (void)mode;
  errno = ENOSYS;
  return -1;
}
static inline pid_t fork(void) {
  errno = ENOSYS;
  return -1;
}
static inline int kill(pid_t pid, int sig) {
  (void)pid, (void)sig;
  errno = ENOSYS;
  return -1;
}
static inline int link(const char *from, const char *to) {
  if (CreateHardLinkA(to, from, NULL)) return 0;
  errno = EEXIST;
  return -1;
}
#  define lstat stat

#  ifndef _SC_PAGESIZE
#    define _SC_PAGESIZE 30
static inline long compat_sysconf(int name) {
  SYSTEM_INFO si;
  if (name != _SC_PAGESIZE) return -1;
  GetSystemInfo(&si);
  return (long)si.dwPageSize;
}
#    define sysconf compat_sysconf
#  endif
#endif
#endif
