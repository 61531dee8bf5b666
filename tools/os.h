/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim (the command) - what the command asks of the operating
 * system itself (the library does its own file work): one implementation
 * for POSIX and one for Windows in os.c. Uses no other file of tools/ but
 * process.c.
 */
#ifndef ONNXSLIM_TOOLS_OS_H
#define ONNXSLIM_TOOLS_OS_H

#include <stddef.h>
#include <stdint.h>

/* At the start of main: on Windows, argv becomes the command line's
 * arguments in UTF-8 (from the wide command line; the C runtime's argv is
 * in the ANSI code page) and stdout and stderr write bytes as given (no
 * "\r\n"), so that output is the same as on POSIX. Nothing elsewhere. */
void os_start(int *argc, char ***argv);

/* 1 when a and b both exist and are one file (device and inode; on Windows
 * volume and file index), 0 when both exist and are not, -1 when either
 * cannot be looked at. */
int os_same_file(const char *a, const char *b);

/* The size of file path (symlinks followed): 0 and *size, or -1. */
int os_file_size(const char *path, uint64_t *size);

/* 1 when path is a directory (symlinks followed), else 0. */
int os_is_dir(const char *path);

/* The absolute path of the directory `dir` (malloc'ed), or NULL. */
char *os_realpath(const char *dir);

/* 1 when stderr is a terminal (or console), else 0. */
int os_stderr_tty(void);

/* The columns of the terminal on stderr, 0 when unknown. */
size_t os_stderr_columns(void);

/* A monotonic clock in seconds. */
double os_now(void);

#endif
