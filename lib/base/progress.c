/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - the progress meter: calls the caller's onnxslim_progress_fn
 * at a bounded rate while long work goes on (see onnxslim/common.h for the
 * contract the caller sees).
 */
#include "base/base.h"

/* At most one call per this many bytes of progress... */
#define OSL_PROGRESS_MIN_STEP ((uint64_t)1 << 20)
/* ...and about this many calls per operation. */
#define OSL_PROGRESS_CALLS 1024

int onnxslim__progress_start(osl_progress *p, onnxslim_progress_fn fn, void *payload,
                             uint64_t total) {
  p->fn = fn;
  p->payload = payload;
  p->total = total;
  p->done = 0;
  p->shown = 0;
  p->step = total / OSL_PROGRESS_CALLS;
  if (p->step < OSL_PROGRESS_MIN_STEP) p->step = OSL_PROGRESS_MIN_STEP;
  p->next = p->step;
  if (!fn || !total) return 0;
  if (fn(0, total, payload) != 0) return onnxslim__progress_canceled();
  return 0;
}

int onnxslim__progress_canceled(void) {
  return onnxslim__err(ONNXSLIM_ECANCELED, "canceled by the progress function");
}

int onnxslim__progress_report(osl_progress *p) {
  if (!p->total) return 0;
  /* only 0 < done < total between the first and the last call */
  uint64_t d = p->done < p->total ? p->done : p->total - 1;
  while (p->next <= p->done) p->next += p->step;
  if (d <= p->shown) return 0;
  p->shown = d;
  if (p->fn(d, p->total, p->payload) != 0) return onnxslim__progress_canceled();
  return 0;
}

void onnxslim__progress_end(osl_progress *p) {
  if (p && p->fn) (void)p->fn(p->total, p->total, p->payload);
}
