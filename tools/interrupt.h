/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim (the command) - SIGINT and SIGTERM while a command writes.
 *
 * A command that saves (convert, split, merge) installs handlers that only
 * remember the signal (a sig_atomic_t). Every progress function then
 * returns nonzero (progress.c), so the library cancels the load,
 * conversion or save under way: a canceled save removes what it wrote and
 * leaves OUT as it was (ONNXSLIM_ECANCELED). The command then says so on
 * stderr and ends killed by that signal, as if it had not been caught
 * (exit status 130 for SIGINT, 143 for SIGTERM in a shell). A signal that
 * was ignored when the command started (nohup, a background job of a
 * script) stays ignored.
 */
#ifndef ONNXSLIM_TOOLS_INTERRUPT_H
#define ONNXSLIM_TOOLS_INTERRUPT_H

/* Catches SIGINT and SIGTERM from now on (unless ignored at start). */
void interrupt_install(void);
/* 1 once interrupt_install() caught at least one of them. */
int interrupt_armed(void);
/* The signal caught (SIGINT, SIGTERM), or 0. */
int interrupted(void);
/* Ends the command for the signal caught: prints "PROGNAME: interrupted
 * by SIG: WHAT" on stderr, then dies of the signal (default action).
 * Returns 128 + the signal only if the signal does not end the process. */
int interrupt_exit(const char *what);

#endif
