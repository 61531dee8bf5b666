/*
 * libonnxslim - passes tier: the jobs built on the handles (check, cleanup,
 * insert, convert, and the saves). Never installed. The files of
 * lib/passes/ include this header (and their own, like convert_kernels.h); a pass may call
 * anything below it, and other passes. See base/base.h for the tiers.
 */
#ifndef ONNXSLIM_PASSES_H
#define ONNXSLIM_PASSES_H

#include "handles.h"

/* ---- saves (passes/save.c, passes/save_external.c) ----------------------- */

/* The report of onnxslim_save(): one entry per tensor a save placed. */
struct osl_save_entry {
  char *name, *location; /* malloc'ed; location NULL for a tensor kept inline */
  int placement;         /* onnxslim_placement */
  uint64_t offset, length;
};
struct onnxslim_save_report {
  size_t count;
  struct osl_save_entry *e;
  uint64_t copied; /* bytes the kernel copied */
};
/* A save with the layout ONE_FILE, PER_TENSOR or INLINE; opts checked by
 * onnxslim_save() (version, layout, flags, align). *out (may be NULL)
 * receives the report. */
int onnxslim__save_external(onnxslim_save_report **out, const onnxslim_model *model,
                            const char *path, const onnxslim_save_options *opts);

#endif /* ONNXSLIM_PASSES_H */
