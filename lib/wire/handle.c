/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/* libonnxslim - handle checks. Every handle the API gives out is a message
 * of the tree (its first member points to its osl_msgdef) or a model (its
 * first member points to osl_def_model_handle), so a handle of the wrong
 * kind, or one removed from its model, is refused instead of misread. */
#include "wire/wire.h"

const osl_msgdef osl_def_model_handle = {"model", NULL, 0};

osl_msg *onnxslim__check(const void *handle, const osl_msgdef *def, const char *fn) {
  const osl_msg *m = handle;
  if (!m) {
    onnxslim__err(ONNXSLIM_EINVAL, "%s: NULL handle", fn);
    return NULL;
  }
  if (m->def != def) {
    onnxslim__err(ONNXSLIM_EINVAL, "%s: handle is a %s, not a %s", fn, m->def->name, def->name);
    return NULL;
  }
  if (!onnxslim__msg_attached(m)) {
    onnxslim__err(ONNXSLIM_EINVAL, "%s: the %s was removed from the model", fn, def->name);
    return NULL;
  }
  return (osl_msg *)m;
}
