/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - passes tier: the jobs built on the handles (check, cleanup,
 * insert, convert, and the saves). Never installed. The files of
 * lib/passes/ include this header (and their own, like convert_kernels.h); a pass may call
 * anything below it, and other passes. See base/base.h for the tiers.
 */
#ifndef ONNXSLIM_PASSES_H
#define ONNXSLIM_PASSES_H

#include "handles/handles.h"

/* ---- schema checks of edits (passes/check.c) ------------------------------ */

/* 0 when a Cast from `from` (0: unknown) to `to` is valid at the model's
 * ai.onnx opset, else ONNXSLIM_EMODEL with the check's message (ending in
 * the check's name, e.g. "[type_constraint]"). An opset the schema tables
 * do not know is not checked (0). */
int onnxslim__check_cast_edit(const onnxslim_model *m, int32_t from, int32_t to);
/* 0 when node (of g) accepts element type dt at input `index` at the
 * model's opset, the types of its other inputs known from initializers and
 * value infos; else ONNXSLIM_EMODEL with the check's message. */
int onnxslim__check_reader_edit(const onnxslim_graph *g, const onnxslim_node *node, size_t index,
                                int32_t dt);
/* The element type of a value of g from its initializer or value info; 0. */
int32_t onnxslim__known_dtype(const onnxslim_graph *g, const char *name);
/* Element types an edit's check assumes instead of the recorded ones:
 * pointer-keyed maps (onnxslim__map_add_ptr) from an onnxslim_tensor (an
 * initializer or a Constant's value) or an onnxslim_value_info (graph
 * input, output, value_info) to the element type (the entry's num). */
typedef struct osl_retype {
  osl_map tensors, infos;
} osl_retype;
/* 0 when the model, with the types of `retype`, has no type_constraint
 * problem that onnxslim_check() does not report for it as it is; else
 * ONNXSLIM_EMODEL with the message "WHAT: LOCATION: MESSAGE
 * [type_constraint]" of the first new problem (the number of the others,
 * then "; HINT" when hint is not NULL or ""). ENOMEM and the like as
 * onnxslim_check(). The model is not changed. */
int onnxslim__check_retype_edit(const onnxslim_model *m, const osl_retype *retype, const char *what,
                                const char *hint);

/* ---- saves (passes/save.c, passes/save_external.c) ----------------------- */

/* 1 when onnxruntime reads input `index` of a node (domain "" or "ai.onnx"
 * for the default domain, op) when it loads a model of that domain's
 * `opset`, so that the input must not be in external data; else 0. The
 * table is in passes/load_inputs.c. */
int onnxslim__read_at_load(const char *domain, const char *op, int64_t opset, size_t index);
/* The first node of g, or of a subgraph of g (which captures the value),
 * that reads value `name` of g at an input onnxruntime reads at load (by
 * onnxslim__read_at_load() at the model's opset of the node's domain), and
 * in *index (may be NULL) that input; NULL when there is none. */
onnxslim_node *onnxslim__load_reader(const onnxslim_model *m, const onnxslim_graph *g,
                                     const char *name, size_t *index);

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
/* onnxslim_save_buffer_external(): the model file of a save with the layout
 * ONE_FILE or PER_TENSOR (opts checked, CHECKSUM not set) into buf, no
 * data file written; *size receives the size, ONNXSLIM_EBUFSIZE when buf
 * is NULL or capacity too small. *out (may be NULL) receives the report. */
int onnxslim__save_external_buffer(onnxslim_save_report **out, const onnxslim_model *model,
                                   void *buf, size_t capacity, size_t *size,
                                   const onnxslim_save_options *opts);

/* A save of the model file alone (layout AS_LOADED) replacing the model at
 * path: replace_begin takes the destination's turn, reads what the model
 * in place reads and writes the journal; replace_end, after the model file
 * was written and renamed (rc 0) or not, removes the data files the
 * replaced model read that `model` does not and no other model of the
 * directory reads (as a save with external data does), then lets the next
 * save go. *out is set (to be passed to replace_end) even when
 * replace_begin fails. */
typedef struct osl_replace osl_replace;
int onnxslim__replace_begin(osl_replace **out, const onnxslim_model *model, const char *path);
void onnxslim__replace_end(osl_replace *rp, int rc);

/* onnxslim_infer_shapes() with flags already checked, plus the internal
 * ONNXSLIM__INFER_UNSTATED: the stated types of computed values (value_info,
 * graph outputs) are ignored, so every shape reported follows from the
 * graph's inputs, initializers and the operators alone (what the constant
 * folding of Shape and Size may rely on: a runtime checks the inputs'
 * shapes, not the stated ones of the values it computes). */
#define ONNXSLIM__INFER_UNSTATED 0x80000000u
int onnxslim__infer_shapes(onnxslim_infer_report **report, onnxslim_model *model, unsigned flags);

#endif /* ONNXSLIM_PASSES_H */
