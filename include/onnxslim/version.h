/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - version information.
 *
 * The macros describe the headers you compiled against; the functions
 * describe the library you are running with. The Makefile reads the macros
 * from this file to name the shared library (SONAME libonnxslim.so.MAJOR).
 */
#ifndef ONNXSLIM_VERSION_H
#define ONNXSLIM_VERSION_H

#include "common.h"

#define ONNXSLIM_VERSION_MAJOR 0
#define ONNXSLIM_VERSION_MINOR 2
#define ONNXSLIM_VERSION_PATCH 0
#define ONNXSLIM_VERSION_STRING "0.2.0"
/** MAJOR*10000 + MINOR*100 + PATCH */
#define ONNXSLIM_VERSION_NUMBER \
  (ONNXSLIM_VERSION_MAJOR * 10000 + ONNXSLIM_VERSION_MINOR * 100 + ONNXSLIM_VERSION_PATCH)

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Version of the running library as "MAJOR.MINOR.PATCH".
 * Returns a static string; never NULL. Never fails.
 * @since 0.1.0
 */
ONNXSLIM_API const char *onnxslim_version_string(void);

/**
 * Version of the running library as MAJOR*10000 + MINOR*100 + PATCH.
 * Never fails.
 * @since 0.1.0
 */
ONNXSLIM_API unsigned int onnxslim_version_number(void);

#ifdef __cplusplus
}
#endif

#endif /* ONNXSLIM_VERSION_H */
