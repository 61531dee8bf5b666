/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim (the command) - the reports of `convert`, `split` and `merge`
 * (report.c): what was converted, where the tensors and files went, as
 * text or as JSON. Called by convert.c.
 */
#ifndef ONNXSLIM_TOOLS_REPORT_H
#define ONNXSLIM_TOOLS_REPORT_H

#include <onnxslim.h>

/* The conversion report as an aligned table with a totals row, on stdout. */
int print_convert_report(const onnxslim_convert_report *rep);
/* The text report of a simplification (simplify --report): a line per
 * pass run that changed something, then each change. */
int print_simplify_report(const onnxslim_simplify_report *rep);
/*
 * What an external-data save did. With verbose (--report), on stdout: where
 * the tensors went and each tensor kept inline for being a shape input.
 * Otherwise one line on stderr when shape inputs were kept inline (not
 * with --quiet).
 */
int print_external_report(const onnxslim_save_report *rep, int mode, int verbose);
/* Lists the files just written: OUT, its data files, the single file. */
void print_files(const char *out, const onnxslim_save_report *rep, const char *also_single);
/* --json: everything --report prints, as one JSON document on stdout
 * (libonnxslim.convert/1). converted 0: no conversion asked for; crep NULL
 * then or when it found nothing to convert; erep NULL: a plain save. */
int print_json_report(const char *command, const char *in, const char *out,
                      const onnxslim_convert_report *crep, int converted,
                      const onnxslim_save_report *erep, int mode, const char *also_single,
                      const onnxslim_simplify_report *srep);

#endif
