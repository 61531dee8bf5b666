/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/* libonnxslim - runtime version. */
#include "base/base.h"

const char *onnxslim_version_string(void) { return ONNXSLIM_VERSION_STRING; }

unsigned int onnxslim_version_number(void) { return ONNXSLIM_VERSION_NUMBER; }
