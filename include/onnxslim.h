/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - ONNX graph surgery in C.
 *
 * Umbrella header: includes every public module header. If a function is not
 * declared in these headers, it is not part of the published API.
 */
#ifndef ONNXSLIM_H
#define ONNXSLIM_H

#include "onnxslim/common.h"
#include "onnxslim/version.h"
#include "onnxslim/error.h"
#include "onnxslim/model.h"
#include "onnxslim/graph.h"
#include "onnxslim/node.h"
#include "onnxslim/tensor.h"
#include "onnxslim/type.h"
#include "onnxslim/convert.h"
#include "onnxslim/quant.h"
#include "onnxslim/insert.h"
#include "onnxslim/cleanup.h"
#include "onnxslim/check.h"
#include "onnxslim/save.h"
#include "onnxslim/fingerprint.h"
#include "onnxslim/diff.h"
#include "onnxslim/infer.h"
#include "onnxslim/simplify.h"

#endif /* ONNXSLIM_H */
