/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - the notes of a conversion report (convert_notes.c): what
 * the converted model will do at run time, found after a conversion or a
 * quantization (convert.c, convert_quant.c).
 */
#ifndef ONNXSLIM_CONVERT_NOTES_H
#define ONNXSLIM_CONVERT_NOTES_H

#include "convert_common.h"

/* Finds the notes of a converted model and adds them to r: with
 * `converted` (not NULL: ONNXSLIM_CONVERT_POLICY_STORAGE_ONLY) a pointer-keyed map
 * (onnxslim__map_add_ptr) from each converted onnxslim_tensor to its type
 * before (the entry's num), now of type `to`, the storage-only notes; then
 * the fold-back notes. Reads no tensor data and changes nothing.
 * 0 or ONNXSLIM_ENOMEM (recorded). */
int onnxslim__convert_notes(onnxslim_convert_report *r, const onnxslim_model *model,
                            const osl_map *converted, int32_t to);

#endif
