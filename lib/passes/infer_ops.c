/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - inference of one node: the element types of its outputs
 * from the schema's type constraints (generic, every operator the tables
 * know), then the shape rules of the operator's family.
 */
#include <string.h>

#include "passes/infer_int.h"

/* ---- element types from the schema ---------------------------------------- */

static const osl_op_formal *formal_at(const osl_op_formal *f, size_t nf, size_t i) {
  if (i < nf) return &f[i];
  if (nf && f[nf - 1].option == OSL_OP_VARIADIC) return &f[nf - 1];
  return NULL;
}

static void infer_types(ictx *c, const onnxslim_node *n, const osl_op_schema *sc, ival *outs,
                        size_t nout) {
  const osl_op_formal *fin = osl_op_inputs(sc), *fout = osl_op_outputs(sc);
  const osl_op_constraint *tc = osl_op_constraints(sc);
  size_t nin = onnxslim_node_input_count(n);
  for (size_t k = 0; k < nout; k++) {
    const osl_op_formal *f = formal_at(fout, sc->n_out, k);
    if (!f) continue;
    if (f->constraint == OSL_OP_NONE) {
      outs[k].dtype = f->type < onnxslim__ops_n_types ? onnxslim__ops_type_dtype[f->type] : 0;
      continue;
    }
    if (f->constraint >= sc->n_tc) continue;
    /* a heterogeneous variadic (Scan's, Loop's values) binds nothing */
    int hetero = f->option == OSL_OP_VARIADIC && !f->homogeneous;
    for (size_t i = 0; i < nin && !outs[k].dtype && !hetero; i++) {
      const osl_op_formal *fi = formal_at(fin, sc->n_in, i);
      if (fi && fi->constraint == f->constraint &&
          !(fi->option == OSL_OP_VARIADIC && !fi->homogeneous))
        outs[k].dtype = get(c, onnxslim_node_input(n, i))->dtype;
    }
    const osl_op_constraint *t = &tc[f->constraint];
    if (!outs[k].dtype && t->count == 1) {
      unsigned char ti = onnxslim__ops_typelist[t->first];
      outs[k].dtype = ti < onnxslim__ops_n_types ? onnxslim__ops_type_dtype[ti] : 0;
    }
  }
}

/* ---- one node --------------------------------------------------------------------- */

void onnxslim__infer_node(ictx *c, const onnxslim_node *n, const osl_op_schema *sc, ival *outs,
                          size_t nout) {
  const char *op = onnxslim_node_op_type(n), *dom = onnxslim_node_domain(n);
  if (sc) infer_types(c, n, sc, outs, nout);
  if (!op || !dom || !(dom[0] == 0 || strcmp(dom, "ai.onnx") == 0) || !nout || !sc) return;
  if (onnxslim__infer_ops_elem(c, n, op, outs, nout)) return;
  if (onnxslim__infer_ops_shape(c, n, op, outs, nout)) return;
  if (onnxslim__infer_ops_nn(c, n, op, outs, nout)) return;
  onnxslim__infer_ops_ctrl(c, n, op, outs, nout);
}
