/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim (the command) - SIGINT and SIGTERM while a command writes
 * (interrupt.h).
 */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "process.h"
#include "interrupt.h"

static volatile sig_atomic_t caught;
static int armed;

static void on_signal(int sig) {
  if (!caught) caught = sig;
}

void interrupt_install(void) {
  static const int sigs[] = {SIGINT, SIGTERM};
  size_t i;
#if defined(_WIN32)
  /* Windows has no sigaction: the C runtime's signal() (Ctrl+C arrives as
   * SIGINT; Windows sends no SIGTERM). The runtime resets the handler to
   * SIG_DFL before it runs, so a second Ctrl+C ends the process at once. */
  for (i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
    if (signal(sigs[i], on_signal) != SIG_ERR) armed = 1;
#else
  for (i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
    struct sigaction old, sa;
    if (sigaction(sigs[i], NULL, &old) != 0 || old.sa_handler == SIG_IGN) continue;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    /* system calls go on: the library stops at its next progress call */
    sa.sa_flags = SA_RESTART;
    if (sigaction(sigs[i], &sa, NULL) == 0) armed = 1;
  }
#endif
}

int interrupt_armed(void) { return armed; }

int interrupted(void) { return caught; }

int interrupt_exit(const char *what) {
  int sig = caught;
  fflush(stdout);
  fprintf(stderr, "%s: interrupted by %s: %s\n", progname, sig == SIGTERM ? "SIGTERM" : "SIGINT",
          what);
  fflush(stderr);
  /* die of it, so that a shell running this in a loop stops too */
  signal(sig, SIG_DFL);
  raise(sig);
  return 128 + sig;
}
