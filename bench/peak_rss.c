/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/* Runs a command and reports its memory: the peak resident set (the
 * kernel's ru_maxrss, i.e. VmHWM at exit) and, sampled from
 * /proc/PID/status every millisecond, the highest heap (RssAnon) and
 * mapped-file (RssFile) parts seen, so a peak can be told apart into heap
 * and file pages. The command's stdout and stderr pass through.
 *
 * Usage: peak_rss CMD [ARG...]
 * Prints on stderr, last line:
 *   peak_rss: exit=N wall_s=S hwm_kb=K anon_peak_kb=A file_peak_kb=F
 * and exits with the command's status. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long field(const char *status, const char *name) {
  const char *p = strstr(status, name);
  return p ? strtol(p + strlen(name), NULL, 10) : -1;
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
  char path[64], buf[4096];
  long anon_peak = 0, file_peak = 0;
  struct rusage ru;
  int st = 0;
  double t0;
  pid_t pid;

  if (argc < 2) {
    fprintf(stderr, "usage: peak_rss CMD [ARG...]\n");
    return 2;
  }
  t0 = now();
  pid = fork();
  if (pid < 0) return 2;
  if (pid == 0) {
    execvp(argv[1], argv + 1);
    perror(argv[1]);
    _exit(127);
  }
  snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
  for (;;) {
    pid_t w = wait4(pid, &st, WNOHANG, &ru);
    if (w == pid) break;
    FILE *f = fopen(path, "r");
    if (f) {
      size_t n = fread(buf, 1, sizeof buf - 1, f);
      long a, fl;
      buf[n] = '\0';
      fclose(f);
      a = field(buf, "RssAnon:");
      fl = field(buf, "RssFile:");
      if (a > anon_peak) anon_peak = a;
      if (fl > file_peak) file_peak = fl;
    }
    usleep(1000);
  }
  fprintf(stderr,
          "peak_rss: exit=%d wall_s=%.2f cpu_s=%.4f hwm_kb=%ld anon_peak_kb=%ld file_peak_kb=%ld\n",
          WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st), now() - t0,
          (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
              (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6,
          ru.ru_maxrss, anon_peak, file_peak);
  return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}
