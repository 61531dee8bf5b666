# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# sh test/build-prog.sh NAME: builds the test program test/NAME.c into
# $B/NAME against the shared library of $B. Steps that run such a program
# build it through this script, so each step runs on its own (test/run.sh
# 80 needs no earlier step).
set -u
B=${B:-build}
exec cc -std=c11 -O2 -Wall -Wextra -Werror -Iinclude "test/$1.c" -L"$B" -lonnxslim \
  -Wl,-rpath,"$PWD/$B" -o "$B/$1"
