/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/* Running a test function in a child process, for tests that may hang or
 * crash. Needs POSIX (fork, waitpid, kill, usleep): include it after the
 * system headers of a test built with _GNU_SOURCE. */
#ifndef ONNXSLIM_TEST_CHILD_H
#define ONNXSLIM_TEST_CHILD_H
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

/* Runs fn(arg) in a child, killed with SIGKILL (so no exit handlers or
 * valgrind leak check run in it) when it takes more than ms milliseconds.
 * Returns its exit status, or 100 + the signal; -1 if waiting failed. */
static inline int in_child_timeout(int (*fn)(void *), void *arg, int ms) {
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) _exit(fn(arg));
  int status = 0;
  for (int waited = 0;; waited += 10) {
    pid_t w = waitpid(pid, &status, WNOHANG);
    if (w == pid) break;
    if (w < 0) return -1;
    if (waited >= ms) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      break;
    }
    usleep(10000);
  }
  if (WIFSIGNALED(status)) return 100 + WTERMSIG(status);
  return WEXITSTATUS(status);
}
#endif
