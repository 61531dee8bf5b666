/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * Force-included (-include) by test/check_long/msvc-syntax.sh only: lets
 * clang in MSVC mode (--target=x86_64-pc-windows-msvc: _MSC_VER defined,
 * no __GNUC__) read the mingw-w64 headers, which are written for GCC. Not
 * used by any build. The library's sources see exactly what MSVC's
 * preprocessor would show them; only three quirks of those headers in
 * their non-GNU branch are undone here:
 *  - _mingw.h defines __attribute__(x) as nothing when __GNUC__ is not
 *    defined, which strips the vector types from clang's own intrinsic
 *    headers (included by winnt.h);
 *  - it spells noreturn, malloc and deprecated as __declspec(...) placed
 *    after the declarator (`void exit(int) __declspec(noreturn);`), which
 *    clang rejects; MSVC's own headers put them first. Declarations only:
 *    dropping them changes no type.
 */
#ifndef LIBONNXSLIM_TEST_MINGW_AS_MSVC_H
#define LIBONNXSLIM_TEST_MINGW_AS_MSVC_H
#include <_mingw.h>
#undef __attribute__
#undef __MINGW_ATTRIB_NORETURN
#define __MINGW_ATTRIB_NORETURN
#undef __MINGW_ATTRIB_MALLOC
#define __MINGW_ATTRIB_MALLOC
#undef __MINGW_ATTRIB_DEPRECATED
#define __MINGW_ATTRIB_DEPRECATED
#undef __MINGW_ATTRIB_DEPRECATED_MSG
#define __MINGW_ATTRIB_DEPRECATED_MSG(x)
#endif
