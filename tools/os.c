/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim (the command) - the operating system's part (os.h): POSIX,
 * or Windows where _WIN32 is defined (wide-character calls on UTF-8
 * paths).
 */
#if defined(_WIN32)
#  ifndef WIN32_LEAN_AND_MEAN
#    define WIN32_LEAN_AND_MEAN
#  endif
#  include <windows.h>
#  include <fcntl.h>
#  include <io.h>
#  include <shellapi.h>
#  include <stdio.h>
#  include <stdlib.h>
#else
#  define _XOPEN_SOURCE 700    /* realpath() */
#  define _FILE_OFFSET_BITS 64 /* st_size of files over 2 GiB on 32-bit hosts */
#  define _DEFAULT_SOURCE      /* struct winsize */
#  include <stdlib.h>
#  include <sys/ioctl.h>
#  include <sys/stat.h>
#  include <time.h>
#  include <unistd.h>
#endif

#include "process.h"
#include "os.h"

#if defined(_WIN32)

/* path (UTF-8) as a wide string (malloc'ed), or NULL. */
static wchar_t *wide(const char *path) {
  int n = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, path, -1, NULL, 0);
  if (n <= 0) return NULL;
  wchar_t *w = xmalloc_array((size_t)n, sizeof *w);
  MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, path, -1, w, n);
  return w;
}

/* w (wide) as UTF-8 (malloc'ed), or NULL. */
static char *utf8(const wchar_t *w) {
  int n = WideCharToMultiByte(CP_UTF8, 0, w, -1, NULL, 0, NULL, NULL);
  if (n <= 0) return NULL;
  char *s = xmalloc((size_t)n);
  WideCharToMultiByte(CP_UTF8, 0, w, -1, s, n, NULL, NULL);
  return s;
}

void os_start(int *argc, char ***argv) {
  int n = 0;
  wchar_t **w = CommandLineToArgvW(GetCommandLineW(), &n);
  if (w && n == *argc) {
    char **a = xmalloc_array((size_t)n + 1, sizeof *a);
    int i;
    for (i = 0; i < n; i++) a[i] = utf8(w[i]) ? utf8(w[i]) : (*argv)[i];
    a[n] = NULL;
    *argv = a; /* lives as long as the process */
  }
  if (w) LocalFree(w);
  _setmode(_fileno(stdout), _O_BINARY);
  _setmode(_fileno(stderr), _O_BINARY);
}

/* Opens path for its attributes only (directories too), or
 * INVALID_HANDLE_VALUE. */
static HANDLE open_attr(const char *path) {
  wchar_t *w = wide(path);
  if (!w) return INVALID_HANDLE_VALUE;
  HANDLE h =
      CreateFileW(w, FILE_READ_ATTRIBUTES, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                  NULL, OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS, NULL);
  free(w);
  return h;
}

int os_same_file(const char *a, const char *b) {
  BY_HANDLE_FILE_INFORMATION ia, ib;
  HANDLE ha = open_attr(a), hb = open_attr(b);
  int r = -1;
  if (ha != INVALID_HANDLE_VALUE && hb != INVALID_HANDLE_VALUE &&
      GetFileInformationByHandle(ha, &ia) && GetFileInformationByHandle(hb, &ib))
    r = ia.dwVolumeSerialNumber == ib.dwVolumeSerialNumber &&
        ia.nFileIndexHigh == ib.nFileIndexHigh && ia.nFileIndexLow == ib.nFileIndexLow;
  if (ha != INVALID_HANDLE_VALUE) CloseHandle(ha);
  if (hb != INVALID_HANDLE_VALUE) CloseHandle(hb);
  return r;
}

int os_file_size(const char *path, uint64_t *size) {
  WIN32_FILE_ATTRIBUTE_DATA a;
  wchar_t *w = wide(path);
  int ok = w && GetFileAttributesExW(w, GetFileExInfoStandard, &a);
  free(w);
  if (!ok) return -1;
  *size = (uint64_t)a.nFileSizeHigh << 32 | a.nFileSizeLow;
  return 0;
}

int os_is_dir(const char *path) {
  wchar_t *w = wide(path);
  DWORD attr = w ? GetFileAttributesW(w) : INVALID_FILE_ATTRIBUTES;
  free(w);
  return attr != INVALID_FILE_ATTRIBUTES && (attr & FILE_ATTRIBUTE_DIRECTORY);
}

char *os_realpath(const char *dir) {
  wchar_t *w = wide(dir), *full = w ? _wfullpath(NULL, w, 0) : NULL;
  char *s = full ? utf8(full) : NULL;
  free(w);
  free(full);
  return s;
}

int os_stderr_tty(void) { return _isatty(_fileno(stderr)) ? 1 : 0; }

size_t os_stderr_columns(void) {
  CONSOLE_SCREEN_BUFFER_INFO ci;
  if (GetConsoleScreenBufferInfo(GetStdHandle(STD_ERROR_HANDLE), &ci))
    return (size_t)(ci.srWindow.Right - ci.srWindow.Left + 1);
  return 0;
}

double os_now(void) {
  LARGE_INTEGER f, c;
  QueryPerformanceFrequency(&f);
  QueryPerformanceCounter(&c);
  return (double)c.QuadPart / (double)f.QuadPart;
}

#else

void os_start(int *argc, char ***argv) { (void)argc, (void)argv; }

int os_same_file(const char *a, const char *b) {
  struct stat sa, sb;
  if (stat(a, &sa) != 0 || stat(b, &sb) != 0) return -1;
  return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

int os_file_size(const char *path, uint64_t *size) {
  struct stat st;
  if (stat(path, &st) != 0) return -1;
  *size = (uint64_t)st.st_size;
  return 0;
}

int os_is_dir(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

char *os_realpath(const char *dir) { return realpath(dir, NULL); }

int os_stderr_tty(void) { return isatty(STDERR_FILENO) ? 1 : 0; }

size_t os_stderr_columns(void) {
  struct winsize ws;
  if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
  return 0;
}

double os_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

#endif
