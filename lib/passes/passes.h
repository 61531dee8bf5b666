/*
 * libonnxslim - passes tier: the jobs built on the handles (check, cleanup,
 * insert, convert, and the saves). Never installed. The files of
 * lib/passes/ include this header (and their own, like convert_kernels.h); a pass may call
 * anything below it, and other passes. See base/base.h for the tiers.
 */
#ifndef ONNXSLIM_PASSES_H
#define ONNXSLIM_PASSES_H

#include "handles.h"

#endif /* ONNXSLIM_PASSES_H */
