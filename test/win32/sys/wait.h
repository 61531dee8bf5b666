/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/* Windows builds of the tests only (-Itest/win32): <sys/wait.h> so that a
 * test file with POSIX-only cases compiles; waitpid fails with ENOSYS, and
 * the cases that need it skip themselves (POSIX_ONLY in test/t.h). */
#ifndef ONNXSLIM_TEST_WIN32_SYS_WAIT_H
#define ONNXSLIM_TEST_WIN32_SYS_WAIT_H
#include <errno.h>
#include <sys/types.h>
#define WNOHANG 1
#define WIFSIGNALED(s) 0
#define WTERMSIG(s) 0
#define WIFEXITED(s) 1
#define WEXITSTATUS(s) (s)
static inline pid_t waitpid(pid_t pid, int *status, int options) {
  (void)pid, (void)status, (void)options;
  errno = ENOSYS;
  return -1;
}
#endif
