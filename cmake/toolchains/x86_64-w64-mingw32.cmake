# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# CMake toolchain file: a program for Windows x86-64, built on Linux with
# mingw-w64 (Debian's mingw-w64 package), that uses a libonnxslim installed
# by `make CROSS=x86_64-w64-mingw32- install PREFIX=... [DESTDIR=...]`:
#
#   cmake -S app -B build-win \
#         -DCMAKE_TOOLCHAIN_FILE=/path/to/cmake/toolchains/x86_64-w64-mingw32.cmake \
#         -DCMAKE_PREFIX_PATH=PREFIX
#
# Programs, headers and libraries are looked for in the mingw-w64 sysroot
# and in CMAKE_PREFIX_PATH only, never in the build machine's own /usr
# (whose libonnxslim would be the Linux one). MINGW_PREFIX overrides the
# compiler prefix (e.g. x86_64-w64-mingw32 for another installed triplet).
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
if(NOT MINGW_PREFIX)
  set(MINGW_PREFIX x86_64-w64-mingw32)
endif()
set(CMAKE_C_COMPILER ${MINGW_PREFIX}-gcc)
set(CMAKE_CXX_COMPILER ${MINGW_PREFIX}-g++)
set(CMAKE_RC_COMPILER ${MINGW_PREFIX}-windres)
# the sysroot, and the prefixes given (a path under a root is not re-rooted)
list(APPEND CMAKE_FIND_ROOT_PATH /usr/${MINGW_PREFIX} ${CMAKE_PREFIX_PATH})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
