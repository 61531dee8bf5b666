/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/* The few POSIX calls the unit tests make that mingw-w64's C runtime lacks
 * or spells otherwise, for the Windows build only (the Makefile includes
 * this file first in every test it compiles for mingw-w64): mkdtemp,
 * two-argument mkdir, setenv/unsetenv, sysconf(_SC_PAGESIZE). Tests that
 * need fork, signals, rlimits, mmap or symlinks are not built for Windows
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
